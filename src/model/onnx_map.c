/*
** onnx_map.c: parsing and lookup of the ONNX op mapping rows of
** onnx_map.h. Rows are parsed once when the rule set is loaded (so a bad row
** is a located error of `gerules check`, like any rule-file error) into
** version ranges, conditions and IR op lists; keys are hashed.
*/
#include "config.h"
#include "model/onnx_map.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_INPUTS = 1, C_HAS, C_HASNOT, C_EQ, C_LEN };
enum { OP_EQ = 1, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

typedef struct cond {
  int kind, op;
  char *name;
  int is_str; int64_t n; char *s;
} cond;

typedef struct row {
  int64_t lo[16], hi[16]; size_t nranges;
  cond *conds; size_t nconds;
  gr_opmap_ir *ir; size_t nir;
} row;

typedef struct gr_opmap_entry { row *rows; size_t nrows; int shape; } entry;

struct gr_opmap {
  gr_map keys;          /* "domain::op_type" -> entry* */
  size_t nkeys;
  gr_arena arena;
};

gr_opmap *gr_opmap_new(void){
  gr_opmap *m = gr_xcalloc(1, sizeof *m);
  gr_map_init(&m->keys);
  gr_arena_init(&m->arena);
  return m;
}

void gr_opmap_free(gr_opmap *m){
  size_t k, i;
  if( !m ) return;
  for(k = 0; k < m->keys.n; k++){
    entry *e = m->keys.e[k].val;
    for(i = 0; i < e->nrows; i++){ free(e->rows[i].conds); free(e->rows[i].ir); }
    free(e->rows);
    free(e);
  }
  gr_map_free(&m->keys);
  gr_arena_free(&m->arena);
  free(m);
}

size_t gr_opmap_nkeys(const gr_opmap *m){ return m->nkeys; }

/* ---- parsing ---- */

typedef struct ps { const char *s, *p; char *err; size_t errlen; unsigned *col; gr_opmap *m; } ps;

static int perr(ps *x, const char *fmt, const char *arg){
  snprintf(x->err, x->errlen, fmt, arg);
  if( x->col ) *x->col = (unsigned)(x->p - x->s) + 1;
  return -1;
}

static void ws(ps *x){ while( *x->p==' ' || *x->p=='\t' ) x->p++; }

static int word(ps *x, const char **w, size_t *n){
  ws(x);
  *w = x->p;
  while( *x->p && (isalnum((unsigned char)*x->p) || *x->p=='_' || *x->p=='.' || *x->p=='/' || *x->p=='-') ) x->p++;
  *n = (size_t)(x->p - *w);
  return *n > 0;
}

static int lit(ps *x, const char *l){
  size_t n = strlen(l);
  ws(x);
  if( strncmp(x->p, l, n)==0 && (!isalnum((unsigned char)l[n - 1]) || !isalnum((unsigned char)x->p[n])) ){ x->p += n; return 1; }
  return 0;
}

static int num(ps *x, int64_t *v){
  char *end;
  long long r;
  ws(x);
  if( !isdigit((unsigned char)*x->p) && !(*x->p=='-' && isdigit((unsigned char)x->p[1])) ) return 0;
  r = strtoll(x->p, &end, 10);
  x->p = end;
  *v = r;
  return 1;
}

static int cmpop(ps *x, int *op){
  ws(x);
  if( lit(x, "==") ) *op = OP_EQ;
  else if( lit(x, "!=") ) *op = OP_NE;
  else if( lit(x, "<=") ) *op = OP_LE;
  else if( lit(x, ">=") ) *op = OP_GE;
  else if( lit(x, "<") ) *op = OP_LT;
  else if( lit(x, ">") ) *op = OP_GT;
  else return 0;
  return 1;
}

static char *dup(ps *x, const char *s, size_t n){ return gr_arena_strndup(&x->m->arena, s, n); }

static int parse_cond(ps *x, cond *c){
  const char *w;
  size_t n;
  memset(c, 0, sizeof *c);
  if( lit(x, "inputs") ){
    c->kind = C_INPUTS;
    if( !cmpop(x, &c->op) ) return perr(x, "expected a comparison after 'inputs'%s", "");
    if( !num(x, &c->n) ) return perr(x, "expected a number%s", "");
    return 0;
  }
  if( lit(x, "len") ){
    c->kind = C_LEN;
    if( !word(x, &w, &n) ) return perr(x, "expected an attribute name after 'len'%s", "");
    c->name = dup(x, w, n);
    if( !cmpop(x, &c->op) ) return perr(x, "expected a comparison after 'len %s'", c->name);
    if( !num(x, &c->n) ) return perr(x, "expected a number%s", "");
    return 0;
  }
  if( lit(x, "!attr") ){
    c->kind = C_HASNOT;
    if( !word(x, &w, &n) ) return perr(x, "expected an attribute name after '!attr'%s", "");
    c->name = dup(x, w, n);
    return 0;
  }
  if( lit(x, "attr") ){
    const char *save;
    if( !word(x, &w, &n) ) return perr(x, "expected an attribute name after 'attr'%s", "");
    c->name = dup(x, w, n);
    save = x->p;
    if( cmpop(x, &c->op) ){
      if( c->op!=OP_EQ && c->op!=OP_NE ) return perr(x, "an attribute compares with == or != only%s", "");
      c->kind = C_EQ;
      ws(x);
      if( *x->p=='\'' ){
        const char *s = ++x->p;
        while( *x->p && *x->p!='\'' ) x->p++;
        if( *x->p!='\'' ) return perr(x, "unterminated 'string'%s", "");
        c->is_str = 1; c->s = dup(x, s, (size_t)(x->p - s));
        x->p++;
      }else if( !num(x, &c->n) ) return perr(x, "expected a number or a 'string'%s", "");
      return 0;
    }
    x->p = save;
    c->kind = C_HAS;
    return 0;
  }
  return perr(x, "expected a condition (inputs, attr, !attr, len)%s", "");
}

int gr_opmap_add(gr_opmap *m, const char *key, const char *text, char *err, size_t errlen, unsigned *col){
  ps x = { text, text, err, errlen, col, m };
  entry *e;
  row r;
  memset(&r, 0, sizeof r);
  if( !strstr(key, "::") ){
    snprintf(err, errlen, "key '%s' is not domain::op_type", key);
    if( col ) *col = 1;
    return -1;
  }
  /* opsets: 8-18,20 */
  for(;;){
    int64_t lo, hi;
    if( !num(&x, &lo) ) return perr(&x, "expected an opset version or range (e.g. 8-18)%s", "");
    hi = lo;
    if( *x.p=='-' ){ x.p++; if( !num(&x, &hi) ) return perr(&x, "expected the end of the range%s", ""); }
    if( hi < lo || lo < 1 ) return perr(&x, "empty opset range%s", "");
    if( r.nranges==16 ) return perr(&x, "more than 16 opset ranges%s", "");
    r.lo[r.nranges] = lo; r.hi[r.nranges] = hi; r.nranges++;
    if( *x.p!=',' ) break;
    x.p++;
  }
  if( lit(&x, "if") ){
    do{
      cond c;
      if( parse_cond(&x, &c) ){ free(r.conds); return -1; }
      r.conds = gr_xrealloc(r.conds, (r.nconds + 1) * sizeof *r.conds);
      r.conds[r.nconds++] = c;
    }while( lit(&x, "and") );
  }
  if( !lit(&x, "=>") ){ free(r.conds); return perr(&x, "expected '=>' before the IR op types%s", ""); }
  for(;;){
    const char *w, *s;
    size_t n;
    ws(&x);
    if( !*x.p ) break;
    w = x.p;
    while( *x.p && (isalnum((unsigned char)*x.p) || *x.p=='_') ) x.p++;
    n = (size_t)(x.p - w);
    if( n==0 ){ free(r.conds); free(r.ir); return perr(&x, "expected an IR op type%s", ""); }
    if( r.nir==GR_OPMAP_MAX_IR ){ free(r.conds); free(r.ir); return perr(&x, "more than %s IR ops in one row", "32"); }
    r.ir = gr_xrealloc(r.ir, (r.nir + 1) * sizeof *r.ir);
    memset(&r.ir[r.nir], 0, sizeof r.ir[r.nir]);
    r.ir[r.nir].type = dup(&x, w, n);
    s = x.p;
    while( *x.p && *x.p!=' ' && *x.p!='\t' && *x.p!='(' ) x.p++;   /* the suffix, e.g. /bias_add */
    r.ir[r.nir].suffix = dup(&x, s, (size_t)(x.p - s));
    if( *x.p=='(' ){
      /* the op's inputs: N (node input) or @K[:J] (an earlier IR op's output) */
      gr_opmap_in *in = gr_arena_alloc(&m->arena, 16 * sizeof *in);
      size_t nin = 0;
      x.p++;
      ws(&x);
      while( *x.p!=')' ){
        int64_t v, j = 0;
        int from_op = 0;
        if( nin==16 ){ free(r.conds); free(r.ir); return perr(&x, "more than %s inputs for one IR op", "16"); }
        if( *x.p=='@' ){ from_op = 1; x.p++; }
        if( !isdigit((unsigned char)*x.p) || !num(&x, &v) || v > 1000 ){ free(r.conds); free(r.ir); return perr(&x, "expected an input: N (the node's input N) or @K (the K-th IR op's output)%s", ""); }
        if( from_op && *x.p==':' ){
          x.p++;
          if( !isdigit((unsigned char)*x.p) || !num(&x, &j) || j > 1000 ){ free(r.conds); free(r.ir); return perr(&x, "expected an output index after ':'%s", ""); }
        }
        if( from_op && v >= (int64_t)r.nir ){ free(r.conds); free(r.ir); return perr(&x, "@K must name an earlier IR op of the row (counted from 0)%s", ""); }
        in[nin].from_op = from_op; in[nin].src = (int)v; in[nin].index = (int)j;
        nin++;
        ws(&x);
        if( *x.p==',' ){ x.p++; ws(&x); continue; }
        if( *x.p!=')' ){ free(r.conds); free(r.ir); return perr(&x, "expected ',' or ')' in the input list%s", ""); }
      }
      x.p++;
      r.ir[r.nir].explicit_inputs = 1; r.ir[r.nir].nin = nin; r.ir[r.nir].in = in;
    }
    r.nir++;
  }
  if( r.nir==0 ){ free(r.conds); return perr(&x, "no IR op type after '=>'%s", ""); }
  {
    size_t i, keep = 0;
    for(i = 0; i < r.nir; i++) if( r.ir[i].suffix[0]==0 ) keep++;
    if( keep > 1 ){ free(r.conds); free(r.ir); return perr(&x, "more than one IR op without a suffix (only one keeps the ONNX node's name)%s", ""); }
  }
  e = gr_map_get(&m->keys, key);
  if( !e ){
    e = gr_xcalloc(1, sizeof *e);
    gr_map_put(&m->keys, gr_arena_strndup(&m->arena, key, strlen(key)), e);
    m->nkeys++;
  }
  e->rows = gr_xrealloc(e->rows, (e->nrows + 1) * sizeof *e->rows);
  e->rows[e->nrows++] = r;
  return 0;
}

/* ---- lookup ---- */

static const gr_onnx_attr_view *find_attr(const gr_onnx_node_view *nv, const char *name){
  size_t i, n = strlen(name);
  for(i = 0; i < nv->nattrs; i++) if( nv->attrs[i].nlen==n && memcmp(nv->attrs[i].name, name, n)==0 ) return &nv->attrs[i];
  return NULL;
}

static int cmp(int op, int64_t a, int64_t b){
  switch( op ){
  case OP_EQ: return a==b; case OP_NE: return a!=b; case OP_LT: return a < b;
  case OP_LE: return a <= b; case OP_GT: return a > b; default: return a >= b;
  }
}

static int holds(const cond *c, const gr_onnx_node_view *nv){
  const gr_onnx_attr_view *a;
  switch( c->kind ){
  case C_INPUTS: return cmp(c->op, (int64_t)nv->ninputs, c->n);
  case C_HAS: return find_attr(nv, c->name)!=NULL;
  case C_HASNOT: return find_attr(nv, c->name)==NULL;
  case C_LEN:
    a = find_attr(nv, c->name);
    return cmp(c->op, a && a->kind==4 ? (int64_t)a->n : 0, c->n);
  default: {
    int eq;
    a = find_attr(nv, c->name);
    if( !a ) eq = 0;
    else if( c->is_str ) eq = a->kind==3 && a->slen==strlen(c->s) && memcmp(a->s, c->s, a->slen)==0;
    else eq = a->kind==1 && a->i==c->n;
    return c->op==OP_EQ ? eq : !eq;
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
  return gr_map_get(&m->keys, buf);
}

int gr_opmap_known(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on){
  return get(m, domain, dn, op, on)!=NULL;
}

const gr_opmap_entry *gr_opmap_find(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on){
  return get(m, domain, dn, op, on);
}

int gr_opmap_lookup(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on, int64_t version,
                    const gr_onnx_node_view *nv, const gr_opmap_ir **ir, size_t *nir){
  return gr_opmap_match(get(m, domain, dn, op, on), version, nv, ir, nir);
}

int gr_opmap_match(const gr_opmap_entry *e, int64_t version, const gr_onnx_node_view *nv, const gr_opmap_ir **ir, size_t *nir){
  size_t i, k, c;
  int registered = 0;
  if( !e ) return 0;
  for(i = 0; i < e->nrows; i++){
    const row *r = &e->rows[i];
    int in = 0;
    for(k = 0; k < r->nranges; k++) if( version >= r->lo[k] && version <= r->hi[k] ) in = 1;
    if( !in ) continue;
    registered = 1;
    for(c = 0; c < r->nconds; c++) if( !holds(&r->conds[c], nv) ) break;
    if( c < r->nconds ) continue;
    *ir = r->ir; *nir = r->nir;
    return 1;
  }
  return registered ? -1 : 0;
}

/* ---- shape functions ---- */

static const char *const shape_fns[GR_SF_COUNT] = {
  "", "same", "cast", "broadcast", "broadcast_bool", "where", "matmul", "gemm", "conv", "pool", "global_pool",
  "reshape", "flatten", "transpose", "concat", "gather", "reduce", "unsqueeze", "squeeze", "shape"
};

int gr_opmap_set_shape(gr_opmap *m, const char *key, const char *fn, char *err, size_t errlen){
  entry *e = gr_map_get(&m->keys, key);
  int i;
  if( !e ){ snprintf(err, errlen, "no row of table onnx_ops has key '%s'", key); return -1; }
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
