/*
** onnx_map.c: the lookup of the ONNX op mapping of onnx_map.h. The rows
** were checked and compiled when the rule set was loaded (a bad row is a
** located error of `gerules check`, src/lang/check_onnx.c); here the keys
** are indexed by the rule set's hash of them, each with its shape function,
** and a node's row is found by its opset and the tests of each row.
*/
#include "config.h"
#include "model/onnx_map.h"
#include "base/util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gr_opmap_entry {
  const gr_onnx_op *op; int shape;
  const char *const *ren; size_t nren;       /* onnx_ir_attrs: pairs */
  const char *const *defn; int64_t *defv; size_t ndef;   /* onnx_ir_attr_defaults */
  const char *const *same; size_t nsame;     /* onnx_inner_shapes */
} entry;

/* table onnx_ir_output_dtypes: an IR op type's outputs whose dtype its
** prototype fixes, as the model spells it (NULL: not fixed) */
typedef struct out_dtypes { const char **dt; size_t n; } out_dtypes;

struct gr_opmap {
  const gr_ruleset *rs;
  entry *e;             /* one per rs->onnx_ops, same order */
  gr_map outdt;         /* IR op type -> out_dtypes (owned) */
  gr_map oneout;        /* IR op types whose outputs are one dynamic output's instances (values unused) */
  gr_map sameshape;     /* IR op types whose output 0 has input 0's shape (values unused) */
};

gr_opmap *gr_opmap_new(const gr_ruleset *rs){
  gr_opmap *m = gr_xcalloc(1, sizeof *m);
  size_t i;
  m->rs = rs;
  m->e = gr_xcalloc(rs->nonnx_ops + 1, sizeof *m->e);
  for(i = 0; i < rs->nonnx_ops; i++) m->e[i].op = &rs->onnx_ops[i];
  gr_map_init(&m->outdt);
  gr_map_init(&m->oneout);
  gr_map_init(&m->sameshape);
  return m;
}

void gr_opmap_free(gr_opmap *m){
  size_t i;
  if( !m ) return;
  for(i = 0; i < m->rs->nonnx_ops; i++){ free((void*)m->e[i].ren); free((void*)m->e[i].same); free((void*)m->e[i].defn); free(m->e[i].defv); }
  for(i = 0; i < m->outdt.n; i++){
    out_dtypes *o = m->outdt.e[i].val;
    free((void*)o->dt);
    free(o);
  }
  gr_map_free(&m->outdt);
  gr_map_free(&m->oneout);
  gr_map_free(&m->sameshape);
  free(m->e);
  free(m);
}

static entry *entry_of(const gr_opmap *m, const char *key){
  int i = gr_ruleset_find(&m->rs->onnx_map, key);
  return i < 0 ? NULL : &m->e[i];
}

/* ---- lookup ---- */

static const gr_onnx_attr_view *find_attr(const gr_onnx_node_view *nv, const char *name){
  size_t i, n = strlen(name);
  for(i = 0; i < nv->nattrs; i++) if( nv->attrs[i].nlen==n && memcmp(nv->attrs[i].name, name, n)==0 ) return &nv->attrs[i];
  return NULL;
}

static int cmp(int op, int64_t a, int64_t b){
  switch( op ){
  case GR_E_EQ: return a==b; case GR_E_NE: return a!=b; case GR_E_LT: return a < b;
  case GR_E_LE: return a <= b; case GR_E_GT: return a > b; default: return a >= b;
  }
}

static int holds(const gr_onnx_cond *c, const gr_onnx_node_view *nv){
  const gr_onnx_attr_view *a;
  switch( c->kind ){
  case GR_OC_INPUTS: return cmp(c->op, (int64_t)nv->ninputs, c->n);
  case GR_OC_OUTPUTS: return cmp(c->op, (int64_t)nv->noutputs, c->n);
  case GR_OC_IN_EMPTY: return !((size_t)c->n < nv->nnamed && nv->named[c->n]);
  case GR_OC_IN_GIVEN: return (size_t)c->n < nv->nnamed && nv->named[c->n];
  case GR_OC_HAS: return find_attr(nv, c->name)!=NULL;
  case GR_OC_HASNOT: return find_attr(nv, c->name)==NULL;
  case GR_OC_LEN:
    a = find_attr(nv, c->name);
    return cmp(c->op, a && a->kind==4 ? (int64_t)a->n : 0, c->n);
  case GR_OC_CAP: return nv->caps && nv->caps[c->n];
  case GR_OC_NOCAP: return !(nv->caps && nv->caps[c->n]);
  case GR_OC_PROD: case GR_OC_MAX:
    a = find_attr(nv, c->name);
    if( !a || a->kind!=4 || a->nints==0 ) return 0;
    return cmp(c->op, c->kind==GR_OC_PROD ? a->iprod : a->imax, c->n);
  default: {
    int eq;
    a = find_attr(nv, c->name);
    if( !a ) eq = 0;
    else if( c->is_str ) eq = a->kind==3 && a->slen==strlen(c->s) && memcmp(a->s, c->s, a->slen)==0;
    else if( a->kind==2 ) eq = fabsf((float)a->f - (float)c->n) <= FLT_EPSILON;
    else eq = a->kind==1 && a->i==c->n;
    return c->kind==GR_OC_EQ ? eq : !eq;
  }
  }
}

static entry *get(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on){
  char buf[512];
  if( dn==0 ){ domain = "ai.onnx"; dn = 7; }
  if( dn + on + 3 > sizeof buf ) return NULL;
  memcpy(buf, domain, dn); memcpy(buf + dn, "::", 2);
  if( on ) memcpy(buf + dn + 2, op, on);          /* a node without op_type: op is NULL */
  buf[dn + 2 + on] = 0;
  return entry_of(m, buf);
}

const gr_opmap_entry *gr_opmap_find(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on){
  return get(m, domain, dn, op, on);
}

int gr_opmap_match(const gr_opmap_entry *e, int64_t version, const gr_onnx_node_view *nv, const gr_onnx_row **row){
  size_t i, k, c;
  int registered = 0;
  if( !e ) return 0;
  for(i = 0; i < e->op->nrows; i++){
    const gr_onnx_row *r = &e->op->rows[i];
    int in = 0;
    for(k = 0; k < r->nranges; k++) if( version >= r->lo[k] && version <= r->hi[k] ) in = 1;
    if( !in ) continue;
    registered = 1;
    for(c = 0; c < r->nconds; c++) if( !holds(&r->conds[c], nv) ) break;
    if( c < r->nconds ) continue;
    *row = r;
    return 1;
  }
  return registered ? -1 : 0;
}

/* ---- shape functions ---- */

static const char *const shape_fns[GR_SF_COUNT] = {
  "", "same", "cast", "broadcast", "broadcast_bool", "where", "matmul", "gemm", "conv", "pool", "global_pool",
  "reshape", "flatten", "transpose", "concat", "gather", "reduce", "unsqueeze", "squeeze", "shape", "dtype",
  "resize", "conv_transpose", "dtype_outputs", "constant_of_shape", "random", "random_like",
  "size", "nonzero", "nms", "compress", "argmax", "roi_align", "unique", "split"
};

int gr_opmap_set_shape(gr_opmap *m, const char *key, const char *fn, char *err, size_t errlen){
  entry *e = entry_of(m, key);
  int i;
  if( !e ){ snprintf(err, errlen, "no onnx mapping has key '%s' (onnx \"%s\" { ... })", key, key); return -1; }
  for(i = 1; i < GR_SF_COUNT; i++) if( strcmp(shape_fns[i], fn)==0 ){ e->shape = i; return 0; }
  {
    gr_buf b;
    gr_buf_init(&b);
    for(i = 1; i < GR_SF_COUNT; i++) gr_buf_printf(&b, "%s%s", i > 1 ? ", " : "", shape_fns[i]);
    snprintf(err, errlen, "unknown shape function '%s' (expected one of %s)", fn, b.p);
    gr_buf_free(&b);
  }
  return -1;
}

int gr_opmap_shape(const gr_opmap_entry *e){ return e ? e->shape : GR_SF_NONE; }

/* ---- attribute names ---- */

int gr_opmap_set_attr_names(gr_opmap *m, const char *key, const char *const *names, size_t n, char *err, size_t errlen){
  entry *e = entry_of(m, key);
  const char **v;
  if( !e ){ snprintf(err, errlen, "no onnx mapping has key '%s' (onnx \"%s\" { ... })", key, key); return -1; }
  if( n==0 || n % 2 ){ snprintf(err, errlen, "expected pairs of attribute names, [\"ONNX name\", \"IR name\", ...]"); return -1; }
  v = gr_xmalloc(n * sizeof *v);
  memcpy(v, names, n * sizeof *v);
  free((void*)e->ren);
  e->ren = v; e->nren = n;
  return 0;
}

int gr_opmap_set_attr_defaults(gr_opmap *m, const char *key, const char *const *names, const int64_t *vals, size_t n,
                               char *err, size_t errlen){
  entry *e = entry_of(m, key);
  if( !e ){ snprintf(err, errlen, "no onnx mapping has key '%s' (onnx \"%s\" { ... })", key, key); return -1; }
  free((void*)e->defn); free(e->defv);
  e->defn = gr_xmalloc((n ? n : 1) * sizeof *e->defn);
  e->defv = gr_xmalloc((n ? n : 1) * sizeof *e->defv);
  memcpy((void*)e->defn, names, n * sizeof *e->defn);
  memcpy(e->defv, vals, n * sizeof *e->defv);
  e->ndef = n;
  return 0;
}

size_t gr_opmap_attr_default(const gr_opmap_entry *e, size_t i, const char **name, int64_t *val){
  if( !e || i >= e->ndef ) return 0;
  *name = e->defn[i];
  *val = e->defv[i];
  return e->ndef;
}

const char *gr_opmap_ir_attr(const gr_opmap_entry *e, const char *name, size_t nlen){
  size_t i;
  if( !e ) return NULL;
  for(i = 0; i + 1 < e->nren; i += 2) if( strlen(e->ren[i])==nlen && memcmp(e->ren[i], name, nlen)==0 ) return e->ren[i + 1];
  return NULL;
}

int gr_opmap_set_inner_shapes(gr_opmap *m, const char *key, const char *const *names, size_t n, char *err, size_t errlen){
  entry *e = entry_of(m, key);
  const char **v;
  if( !e ){ snprintf(err, errlen, "no onnx mapping has key '%s' (onnx \"%s\" { ... })", key, key); return -1; }
  if( n==0 ){ snprintf(err, errlen, "expected a list of IR op types"); return -1; }
  v = gr_xmalloc(n * sizeof *v);
  memcpy(v, names, n * sizeof *v);
  free((void*)e->same);
  e->same = v; e->nsame = n;
  return 0;
}

int gr_opmap_inner_shaped(const gr_opmap_entry *e, const char *ir_type){
  size_t i;
  if( !e ) return 0;
  for(i = 0; i < e->nsame; i++) if( strcmp(e->same[i], ir_type)==0 ) return 1;
  return 0;
}

int gr_opmap_set_output_dtype(gr_opmap *m, const char *ir_type, size_t index, const char *model_dtype, char *err, size_t errlen){
  out_dtypes *o = gr_map_get(&m->outdt, ir_type);
  if( index >= GR_OPMAP_MAX_OUTDT ){
    snprintf(err, errlen, "output %zu: an IR op's outputs here are 0 to %d", index, GR_OPMAP_MAX_OUTDT - 1);
    return -1;
  }
  if( o==NULL ){
    o = gr_xcalloc(1, sizeof *o);
    gr_map_put(&m->outdt, ir_type, o);
  }
  if( index >= o->n ){
    const char **v = gr_xcalloc(index + 1, sizeof *v);
    if( o->n ) memcpy(v, o->dt, o->n * sizeof *v);
    free((void*)o->dt);
    o->dt = v; o->n = index + 1;
  }
  if( o->dt[index] ){
    snprintf(err, errlen, "output %zu is given twice", index);
    return -1;
  }
  o->dt[index] = model_dtype;
  return 0;
}

void gr_opmap_set_one_dynamic_output(gr_opmap *m, const char *ir_type){ gr_map_put(&m->oneout, ir_type, (void*)m); }

int gr_opmap_one_dynamic_output(const gr_opmap *m, const char *ir_type){
  return m && ir_type && gr_map_get(&m->oneout, ir_type)!=NULL;
}

void gr_opmap_set_same_shape(gr_opmap *m, const char *ir_type){ gr_map_put(&m->sameshape, ir_type, (void*)m); }

int gr_opmap_same_shape(const gr_opmap *m, const char *ir_type){
  return m && ir_type && gr_map_get(&m->sameshape, ir_type)!=NULL;
}

const char *gr_opmap_output_dtype(const gr_opmap *m, const char *ir_type, size_t index){
  const out_dtypes *o = m ? gr_map_get(&m->outdt, ir_type) : NULL;
  return o && index < o->n ? o->dt[index] : NULL;
}
