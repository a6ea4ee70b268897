/*
** onnx.c: the ONNX ModelProto reader, and the ONNX to Ascend IR conversion
** GE's ONNX parser performs (hicann/ge parser/parser/onnx/onnx_parser.cc,
** commit ffdcbc9f7), with the op mapping taken from rule data (onnx_map.h):
**   - graph inputs that are not initializers become Data (attr index, the
**     declared dims; dim_param or an unset dim is -1, no shape is []);
**   - initializers become Const named <name>_Initializer_<k> (k in sorted
**     name order), FileConstant when data_location is EXTERNAL; their data is
**     never read;
**   - Constant nodes become Const (FileConstant for an external value);
**   - every other node is looked up as domain::opset::op_type at exactly the
**     model's opset for its domain; a mapped node becomes its IR op (or the
**     chain of IR ops of a decomposition, one keeping the node's name, the
**     others named <node><suffix>), each carrying attributes _onnx_node and
**     _onnx_op (its provenance) and the ONNX node's own attributes; a node
**     whose key is not registered keeps its ONNX op type and gets attribute
**     _onnx_unregistered = the key (the rule set's E13010 check reports it),
**     and one registered whose rows' conditions all fail gets
**     _onnx_unparsable; the rest of the model is still read;
**   - If branches become subgraphs named <graph>/<node>_<i>_<then|else>_branch
**     whose nodes are named <subgraph>/<node>; values a branch captures from
**     the enclosing graph become Data nodes of the branch and extra inputs
**     of the If; value_info is ignored, as GE ignores it; GE re-infers the
**     other shapes, so an op's outputs are dynamic ([-2]) when an input is.
**
** Hand-written wire walk, with the measured reason: protobuf-c's unpack
** copies every bytes field (raw_data of every initializer) into the
** message, so a 1 GB model with inline weights needs over 1 GB of heap
** (bench/readers.sh measures it next to this walker); the walker reads the
** mapped file in place, steps over tensor payloads, and keeps only the
** graph's structure.
*/
#include "config.h"
#include "model/readers.h"
#include "model/build.h"
#include "model/onnx_map.h"
#include "model/pbwire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPSETS 64
#define MAX_NESTING 32

typedef struct span { const unsigned char *p; size_t n; } span;
typedef GR_VEC(span) spans;

/* what produced a tensor name in a graph scope */
typedef struct prod {
  const char *op; size_t opn;      /* the IR op (arena copy) */
  int32_t index;
  const char *dtype;               /* static string or "" */
  int64_t *dims; uint32_t ndim;    /* arena; NULL with ndim 0 = unknown */
  int has_shape;
} prod;

typedef struct scope {
  struct scope *parent;
  gr_map names;                    /* tensor name (arena) -> prod* */
} scope;

typedef struct pending {           /* a branch graph waiting to be read */
  span g;
  char *name;                      /* subgraph instance name */
  scope *parent;
  char **captured; size_t ncaptured;
  int depth;
} pending;

typedef struct ox {
  gr_build *b;
  const gr_opmap *map;
  const unsigned char *base;
  struct { const char *d; size_t dn; int64_t v; } opset[MAX_OPSETS]; size_t nopsets;
  gr_arena arena;
  GR_VEC(pending) queue;
  GR_VEC(scope*) scopes;
  uint64_t unnamed;
  gr_buf tmp, tmp2;
} ox;

static size_t off(ox *x, const unsigned char *p){ return (size_t)(p - x->base); }

static int bad(ox *x, const unsigned char *at, const char *what){
  return gr_build_fail(x->b, 0, 0, "malformed ONNX model at byte %zu: %s", off(x, at), what);
}

/* All fields of a message; -1 on a malformed field (reported). */
#define FOR_FIELDS(x, sp, f, ...) do{ \
  pb_cur c_ = { (sp).p, (sp).p + (sp).n }; int r_; \
  while( (r_ = pb_next(&c_, &(f))) > 0 ){ __VA_ARGS__ } \
  if( r_ < 0 ) return bad((x), c_.p, "a field's tag or length is invalid or runs past the end"); \
}while(0)

static char *adup(ox *x, const void *s, size_t n){ return gr_arena_strndup(&x->arena, s, n); }

static int has_nul(const unsigned char *p, size_t n){ return memchr(p, 0, n)!=NULL; }

/* ---- types ---- */

/* ONNX TensorProto.DataType -> GE DataType name (GE parser/parser/onnx/onnx_util.cc). */
static const char *ge_dtype(int64_t t){
  static const char *const m[] = {
    "", "DT_FLOAT", "DT_UINT8", "DT_INT8", "DT_UINT16", "DT_INT16", "DT_INT32", "DT_INT64", "DT_STRING",
    "DT_BOOL", "DT_FLOAT16", "DT_DOUBLE", "DT_UINT32", "DT_UINT64", "DT_COMPLEX64", "DT_COMPLEX128",
    "DT_BF16", "DT_FLOAT8_E4M3FN", "", "DT_FLOAT8_E5M2", "", "", "DT_INT4"
  };
  return t >= 0 && t < (int64_t)(sizeof m / sizeof *m) ? m[t] : "";
}

/* dims of a TensorShapeProto: dim_value, else -1 */
static int shape_dims(ox *x, span sh, int64_t **dims, uint32_t *nd){
  pb_field f, g;
  GR_VEC(int64_t) v = { 0 };
  FOR_FIELDS(x, sh, f, {
    if( f.num==1 && f.wt==PB_LEN ){
      span d = { f.data, f.len };
      int64_t val = -1;
      FOR_FIELDS(x, d, g, { if( g.num==1 && g.wt==PB_VARINT ) val = (int64_t)g.v; });
      if( v.n >= 65535 ){ free(v.v); return gr_build_fail(x->b, 0, 0, "a shape at byte %zu has more than 65535 dims", off(x, f.data)); }
      gr_vec_push(v, val);
    }
  });
  *nd = (uint32_t)v.n;
  *dims = v.n ? gr_arena_alloc(&x->arena, v.n * sizeof **dims) : NULL;
  if( v.n ) memcpy(*dims, v.v, v.n * sizeof **dims);
  free(v.v);
  return 1;
}

/* ValueInfoProto: name, tensor elem_type and dims. */
static int value_info(ox *x, span vi, span *name, int64_t *elem, int64_t **dims, uint32_t *nd, int *has_shape){
  pb_field f, g, h;
  name->p = NULL; name->n = 0; *elem = 0; *dims = NULL; *nd = 0; *has_shape = 0;
  FOR_FIELDS(x, vi, f, {
    if( f.num==1 && f.wt==PB_LEN ){ name->p = f.data; name->n = f.len; }
    else if( f.num==2 && f.wt==PB_LEN ){
      span tp = { f.data, f.len };
      FOR_FIELDS(x, tp, g, {
        if( g.num==1 && g.wt==PB_LEN ){
          span tt = { g.data, g.len };
          FOR_FIELDS(x, tt, h, {
            if( h.num==1 && h.wt==PB_VARINT ) *elem = (int64_t)h.v;
            else if( h.num==2 && h.wt==PB_LEN ){
              span sh = { h.data, h.len };
              *has_shape = 1;
              if( !shape_dims(x, sh, dims, nd) ) return 0;
            }
          });
        }
      });
    }
  });
  return 1;
}

/* TensorProto header: name, dims, data_type, whether external. Data never read. */
static int tensor_head(ox *x, span t, span *name, int64_t *dtype, int64_t **dims, uint32_t *nd, int *external){
  pb_field f;
  GR_VEC(int64_t) v = { 0 };
  name->p = NULL; name->n = 0; *dtype = 0; *external = 0;
  FOR_FIELDS(x, t, f, {
    if( f.num==1 && f.wt==PB_VARINT ){ gr_vec_push(v, (int64_t)f.v); }
    else if( f.num==1 && f.wt==PB_LEN ){
      pb_cur c = { f.data, f.data + f.len };
      uint64_t d;
      while( c.p < c.end ){
        if( !pb_varint(&c, &d) ){ free(v.v); return bad(x, c.p, "bad packed dims"); }
        gr_vec_push(v, (int64_t)d);
      }
    }
    else if( f.num==2 && f.wt==PB_VARINT ) *dtype = (int64_t)f.v;
    else if( f.num==8 && f.wt==PB_LEN ){ name->p = f.data; name->n = f.len; }
    else if( f.num==14 && f.wt==PB_VARINT ) *external = f.v==1;
    if( v.n > 65535 ){ free(v.v); return gr_build_fail(x->b, 0, 0, "a tensor at byte %zu has more than 65535 dims", off(x, t.p)); }
  });
  *nd = (uint32_t)v.n;
  *dims = v.n ? gr_arena_alloc(&x->arena, v.n * sizeof **dims) : NULL;
  if( v.n ) memcpy(*dims, v.v, v.n * sizeof **dims);
  free(v.v);
  return 1;
}

/* ---- scopes ---- */

static scope *scope_new(ox *x, scope *parent){
  scope *s = gr_arena_calloc(&x->arena, sizeof *s);
  s->parent = parent;
  gr_map_init(&s->names);
  gr_vec_push(x->scopes, s);
  return s;
}

static prod *lookup(scope *s, const char *name){
  for(; s; s = s->parent){
    prod *p = gr_map_get(&s->names, name);
    if( p ) return p;
  }
  return NULL;
}

static void define(ox *x, scope *s, const unsigned char *name, size_t n, const char *op, size_t opn, int32_t idx,
                   const char *dtype, int64_t *dims, uint32_t nd, int has_shape){
  prod *p = gr_arena_calloc(&x->arena, sizeof *p);
  p->op = op; p->opn = opn; p->index = idx; p->dtype = dtype; p->dims = dims; p->ndim = nd; p->has_shape = has_shape;
  gr_map_put(&s->names, adup(x, name, n), p);   /* a later definition keeps the first (SSA: none) */
}

static int is_dynamic(const prod *p){
  uint32_t i;
  for(i = 0; i < p->ndim; i++) if( p->dims[i] < 0 ) return 1;
  return 0;
}

/* ---- nodes ---- */

typedef struct onode {
  span name, op, domain;
  spans in, out;
  GR_VEC(gr_onnx_attr_view) attrs;
  GR_VEC(span) attr_raw;              /* each attribute message, parallel to attrs */
  span then_g, else_g; int nbranch_attrs, nattrs_total;
  span value_tensor; int has_value;
} onode;

static int parse_attr(ox *x, span a, gr_onnx_attr_view *v, span *g, span *t){
  pb_field f;
  int64_t type = 0;
  size_t nints = 0, nfloats = 0, nstrings = 0;
  int has_i = 0, has_f = 0, has_s = 0;
  memset(v, 0, sizeof *v);
  g->p = NULL; g->n = 0; t->p = NULL; t->n = 0;
  FOR_FIELDS(x, a, f, {
    switch( f.num ){
    case 1: if( f.wt==PB_LEN ){ v->name = (const char*)f.data; v->nlen = f.len; } break;
    case 2: if( f.wt==PB_I32 ){ float fl; uint32_t u = (uint32_t)f.v; memcpy(&fl, &u, 4); v->i = 0; has_f = 1; (void)fl; } break;
    case 3: if( f.wt==PB_VARINT ){ v->i = (int64_t)f.v; has_i = 1; } break;
    case 4: if( f.wt==PB_LEN ){ v->s = (const char*)f.data; v->slen = f.len; has_s = 1; } break;
    case 5: if( f.wt==PB_LEN ){ t->p = f.data; t->n = f.len; } break;
    case 6: if( f.wt==PB_LEN ){ g->p = f.data; g->n = f.len; } break;
    case 7: if( f.wt==PB_LEN ) nfloats += f.len / 4; else if( f.wt==PB_I32 ) nfloats++; break;
    case 8:
      if( f.wt==PB_VARINT ) nints++;
      else if( f.wt==PB_LEN ){ size_t k; for(k = 0; k < f.len; k++) if( !(f.data[k] & 0x80) ) nints++; }
      break;
    case 9: if( f.wt==PB_LEN ) nstrings++; break;
    case 20: if( f.wt==PB_VARINT ) type = (int64_t)f.v; break;
    default: break;
    }
  });
  /* AttributeProto.type: 1 FLOAT 2 INT 3 STRING 4 TENSOR 5 GRAPH 6 FLOATS 7 INTS 8 STRINGS */
  if( type==2 || (type==0 && has_i) ) v->kind = 1;
  else if( type==1 || (type==0 && has_f) ) v->kind = 2;
  else if( type==3 || (type==0 && has_s) ) v->kind = 3;
  else if( type==6 || type==7 || type==8 || (type==0 && (nints || nfloats || nstrings)) ){ v->kind = 4; v->n = nints + nfloats + nstrings; }
  else v->kind = 5;
  return 1;
}

static int parse_node(ox *x, span np, onode *o){
  pb_field f;
  memset(&o->name, 0, sizeof o->name); memset(&o->op, 0, sizeof o->op); memset(&o->domain, 0, sizeof o->domain);
  o->in.n = o->out.n = o->attrs.n = o->attr_raw.n = 0;
  o->then_g.p = o->else_g.p = NULL; o->then_g.n = o->else_g.n = 0; o->nbranch_attrs = 0; o->nattrs_total = 0;
  o->has_value = 0;
  FOR_FIELDS(x, np, f, {
    if( f.wt!=PB_LEN ) continue;
    switch( f.num ){
    case 1: { span s = { f.data, f.len }; gr_vec_push(o->in, s); break; }
    case 2: { span s = { f.data, f.len }; gr_vec_push(o->out, s); break; }
    case 3: o->name.p = f.data; o->name.n = f.len; break;
    case 4: o->op.p = f.data; o->op.n = f.len; break;
    case 7: o->domain.p = f.data; o->domain.n = f.len; break;
    case 5: {
      span a = { f.data, f.len }, g, t;
      gr_onnx_attr_view v;
      if( !parse_attr(x, a, &v, &g, &t) ) return 0;
      o->nattrs_total++;
      if( g.p && v.nlen==11 && memcmp(v.name, "then_branch", 11)==0 ){ o->then_g = g; o->nbranch_attrs++; }
      else if( g.p && v.nlen==11 && memcmp(v.name, "else_branch", 11)==0 ){ o->else_g = g; o->nbranch_attrs++; }
      if( t.p && v.nlen==5 && memcmp(v.name, "value", 5)==0 ){ o->value_tensor = t; o->has_value = 1; }
      gr_vec_push(o->attrs, v);
      gr_vec_push(o->attr_raw, a);
      break;
    }
    default: break;
    }
  });
  if( o->in.n > 65535 || o->out.n > 65535 ) return gr_build_fail(x->b, 0, 0, "ONNX node at byte %zu has more than 65535 inputs or outputs", off(x, np.p));
  return 1;
}

static int64_t opset_of(ox *x, span d, int *found){
  size_t i;
  const unsigned char *dp = d.p;
  size_t dn = d.n;
  if( dn==0 ){ dp = (const unsigned char*)"ai.onnx"; dn = 7; }
  for(i = x->nopsets; i-- > 0; )    /* a later duplicate entry wins */
    if( x->opset[i].dn==dn && memcmp(x->opset[i].d, dp, dn)==0 ){ *found = 1; return x->opset[i].v; }
  *found = 0;
  return 0;
}

/* The ONNX node's own attributes, copied onto an IR op. */
static int copy_attrs(ox *x, const onode *o){
  size_t i;
  for(i = 0; i < o->attrs.n; i++){
    const gr_onnx_attr_view *a = &o->attrs.v[i];
    pb_field f;
    span raw = o->attr_raw.v[i];
    if( a->nlen==0 || has_nul((const unsigned char*)a->name, a->nlen) ) continue;
    if( a->kind==1 ){ if( !gr_build_attr_i(x->b, a->name, a->nlen, a->i) ) return 0; continue; }
    if( a->kind==3 ){
      if( has_nul((const unsigned char*)a->s, a->slen) ){ if( !gr_build_attr_other(x->b, a->name, a->nlen) ) return 0; }
      else if( !gr_build_attr_s(x->b, a->name, a->nlen, a->s, a->slen) ) return 0;
      continue;
    }
    if( a->kind==2 ){
      double d = 0;
      FOR_FIELDS(x, raw, f, { if( f.num==2 && f.wt==PB_I32 ){ float fl; uint32_t u = (uint32_t)f.v; memcpy(&fl, &u, 4); d = fl; } });
      if( !gr_build_attr_f(x->b, a->name, a->nlen, d) ) return 0;
      continue;
    }
    if( a->kind==4 ){
      int kind = 0;
      FOR_FIELDS(x, raw, f, { if( !kind ) kind = f.num==7 ? GR_ATTR_LIST_F : f.num==8 ? GR_ATTR_LIST_I : f.num==9 ? GR_ATTR_LIST_S : 0; });
      if( !kind ) kind = GR_ATTR_LIST_I;
      if( !gr_build_list(x->b, a->name, a->nlen, kind) ) return 0;
      FOR_FIELDS(x, raw, f, {
        if( kind==GR_ATTR_LIST_I && f.num==8 ){
          if( f.wt==PB_VARINT ){ if( !gr_build_list_i(x->b, (int64_t)f.v) ) return 0; }
          else if( f.wt==PB_LEN ){
            pb_cur c = { f.data, f.data + f.len }; uint64_t v;
            while( c.p < c.end ){ if( !pb_varint(&c, &v) ) return bad(x, c.p, "bad packed ints"); if( !gr_build_list_i(x->b, (int64_t)v) ) return 0; }
          }
        }else if( kind==GR_ATTR_LIST_F && f.num==7 ){
          if( f.wt==PB_I32 ){ float fl; uint32_t u = (uint32_t)f.v; memcpy(&fl, &u, 4); if( !gr_build_list_f(x->b, fl) ) return 0; }
          else if( f.wt==PB_LEN ){
            size_t k;
            for(k = 0; k + 4 <= f.len; k += 4){ float fl; memcpy(&fl, f.data + k, 4); if( !gr_build_list_f(x->b, fl) ) return 0; }
          }
        }else if( kind==GR_ATTR_LIST_S && f.num==9 && f.wt==PB_LEN ){
          if( has_nul(f.data, f.len) ){ if( !gr_build_list_s(x->b, "", 0) ) return 0; }
          else if( !gr_build_list_s(x->b, (const char*)f.data, f.len) ) return 0;
        }
      });
      gr_build_list_end(x->b);
      continue;
    }
    if( !gr_build_attr_other(x->b, a->name, a->nlen) ) return 0;
  }
  return 1;
}

/* Inputs of an op from ONNX tensor names; input descs from the producers. */
static int connect(ox *x, scope *s, const span *in, size_t nin, int *dyn){
  size_t i;
  gr_buf *t = &x->tmp2;
  for(i = 0; i < nin; i++){
    prod *p;
    if( in[i].n==0 || has_nul(in[i].p, in[i].n) ){ if( !gr_build_edge(x->b, "", 0, 0) ) return 0; continue; }
    t->n = 0; gr_buf_add(t, in[i].p, in[i].n); gr_buf_cstr(t);
    p = lookup(s, t->p);
    if( !p ){ if( !gr_build_edge(x->b, "", 0, 0) ) return 0; continue; }   /* GE: "maybe option input" */
    if( !gr_build_edge(x->b, p->op, p->opn, p->index) ) return 0;
  }
  for(i = 0; i < nin; i++){
    prod *p;
    if( in[i].n==0 || has_nul(in[i].p, in[i].n) ) continue;
    t->n = 0; gr_buf_add(t, in[i].p, in[i].n); gr_buf_cstr(t);
    if( (p = lookup(s, t->p))==NULL ) continue;
    if( is_dynamic(p) ) *dyn = 1;
    if( !gr_build_tensor(x->b, 0, p->dtype, strlen(p->dtype), "", 0, p->dims, p->ndim) ) return 0;
  }
  return 1;
}

static int64_t dyn_dims[1] = { -2 };

/* The op names of this node: prefix (subgraph) + name or <op_type>_<n>. */
static const char *node_name(ox *x, const char *prefix, const onode *o, size_t *len){
  gr_buf *t = &x->tmp;
  t->n = 0;
  if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
  if( o->name.n && !has_nul(o->name.p, o->name.n) ) gr_buf_add(t, o->name.p, o->name.n);
  else { gr_buf_add(t, o->op.p, o->op.n); gr_buf_printf(t, "_%llu", (unsigned long long)x->unnamed++); }
  *len = t->n;
  return adup(x, t->p, t->n);
}

static void queue_branch(ox *x, span g, const char *gname, const char *node, int idx, const char *which, scope *parent,
                         char **cap, size_t ncap, int depth){
  pending pd;
  pd.g = g;
  pd.name = gr_xasprintf("%s/%s_%d_%s", gname, node, idx, which);
  pd.parent = parent;
  pd.captured = cap; pd.ncaptured = ncap;
  pd.depth = depth;
  gr_vec_push(x->queue, pd);
}

static int cmpstr(const void *a, const void *b){ return strcmp(*(char *const*)a, *(char *const*)b); }

/* Names a branch graph consumes that it neither produces nor declares. */
static int captures(ox *x, span g, scope *outer, char ***out, size_t *nout){
  pb_field f, h;
  gr_map own;
  GR_VEC(char*) cap = { 0 };
  GR_VEC(span) used = { 0 };
  size_t i;
  gr_map_init(&own);
  FOR_FIELDS(x, g, f, {
    if( f.wt!=PB_LEN ) continue;
    if( f.num==11 || f.num==5 ){          /* inputs, initializers: names */
      span sp = { f.data, f.len };
      FOR_FIELDS(x, sp, h, { if( h.wt==PB_LEN && ((f.num==11 && h.num==1) || (f.num==5 && h.num==8)) ) gr_map_put(&own, adup(x, h.data, h.len), (void*)1); });
    }else if( f.num==1 ){
      span sp = { f.data, f.len };
      FOR_FIELDS(x, sp, h, {
        if( h.wt==PB_LEN && h.num==2 ) gr_map_put(&own, adup(x, h.data, h.len), (void*)1);
        else if( h.wt==PB_LEN && h.num==1 && h.len ){ span u = { h.data, h.len }; gr_vec_push(used, u); }
      });
    }
  });
  for(i = 0; i < used.n; i++){
    char *nm = adup(x, used.v[i].p, used.v[i].n);
    size_t k;
    int seen = 0;
    if( gr_map_get(&own, nm) || !lookup(outer, nm) ) continue;
    for(k = 0; k < cap.n; k++) if( strcmp(cap.v[k], nm)==0 ) seen = 1;
    if( !seen ) gr_vec_push(cap, nm);
  }
  free(used.v);
  gr_map_free(&own);
  if( cap.n ) qsort(cap.v, cap.n, sizeof *cap.v, cmpstr);
  *out = cap.v; *nout = cap.n;
  return 1;
}

static int add_node(ox *x, scope *s, const char *prefix, const char *gname, onode *o, int depth){
  gr_build *b = x->b;
  size_t nl, i;
  const char *name = node_name(x, prefix, o, &nl);
  int found, dyn = 0, r;
  int64_t ver;
  const gr_opmap_ir *ir = NULL;
  size_t nir = 0;
  gr_onnx_node_view nv;
  char **cap = NULL;
  size_t ncap = 0;
  gr_buf key;

  /* Constant: the parser maps it itself */
  if( (o->domain.n==0 || (o->domain.n==7 && memcmp(o->domain.p, "ai.onnx", 7)==0)) && o->op.n==8 && memcmp(o->op.p, "Constant", 8)==0 ){
    span tn; int64_t dt = 0, *dims = NULL; uint32_t nd = 0; int ext = 0;
    if( o->has_value && !tensor_head(x, o->value_tensor, &tn, &dt, &dims, &nd, &ext) ) return 0;
    if( !gr_build_op(b, name, nl, ext ? "FileConstant" : "Const", ext ? 12 : 5, 0, 0) ) return 0;
    if( !gr_build_attr_s(b, "_onnx_node", 10, name, nl) || !gr_build_attr_s(b, "_onnx_op", 8, "Constant", 8) ) return 0;
    if( !gr_build_tensor(b, 1, ge_dtype(dt), strlen(ge_dtype(dt)), "", 0, dims, nd) ) return 0;
    for(i = 0; i < o->out.n; i++)
      define(x, s, o->out.v[i].p, o->out.v[i].n, name, nl, (int32_t)i, ge_dtype(dt), dims, nd, o->has_value);
    return 1;
  }
  memset(&nv, 0, sizeof nv);
  for(i = 0; i < o->in.n; i++) if( o->in.v[i].n ) nv.ninputs++;
  nv.attrs = o->attrs.v; nv.nattrs = o->attrs.n;
  ver = opset_of(x, o->domain, &found);
  r = found ? gr_opmap_lookup(x->map, (const char*)o->domain.p, o->domain.n, (const char*)o->op.p, o->op.n, ver, &nv, &ir, &nir) : 0;
  gr_buf_init(&key);
  if( o->domain.n ) gr_buf_add(&key, o->domain.p, o->domain.n); else gr_buf_adds(&key, "ai.onnx");
  if( found ) gr_buf_printf(&key, "::%lld::", (long long)ver); else gr_buf_adds(&key, "::?::");
  gr_buf_add(&key, o->op.p, o->op.n);
  /* If: its branches, and the values they capture as extra inputs */
  if( r==1 && o->nbranch_attrs ){
    char **c1 = NULL, **c2 = NULL;
    size_t n1 = 0, n2 = 0, k;
    if( depth >= MAX_NESTING ){ gr_buf_free(&key); return gr_build_fail(b, 0, 0, "If branches nested more than %d deep", MAX_NESTING); }
    if( o->then_g.p && !captures(x, o->then_g, s, &c1, &n1) ){ gr_buf_free(&key); return 0; }
    if( o->else_g.p && !captures(x, o->else_g, s, &c2, &n2) ){ free(c1); gr_buf_free(&key); return 0; }
    cap = gr_xmalloc((n1 + n2 + 1) * sizeof *cap);
    for(k = 0; k < n1; k++) cap[ncap++] = c1[k];
    for(k = 0; k < n2; k++){
      size_t j; int seen = 0;
      for(j = 0; j < ncap; j++) if( strcmp(cap[j], c2[k])==0 ) seen = 1;
      if( !seen ) cap[ncap++] = c2[k];
    }
    if( ncap ) qsort(cap, ncap, sizeof *cap, cmpstr);
    free(c1); free(c2);
  }
  if( r!=1 ){
    /* not mapped: keep the ONNX op type; the rule set reports it */
    if( !gr_build_op(b, name, nl, (const char*)o->op.p, o->op.n, 0, 0)
        || !gr_build_attr_s(b, "_onnx_node", 10, name, nl)
        || !gr_build_attr_s(b, r==0 ? "_onnx_unregistered" : "_onnx_unparsable", r==0 ? 18 : 16, key.p, key.n)
        || !connect(x, s, o->in.v, o->in.n, &dyn) ){ gr_buf_free(&key); return 0; }
    for(i = 0; i < o->out.n; i++){
      if( !gr_build_tensor(b, 1, "", 0, "", 0, dyn ? dyn_dims : NULL, dyn ? 1 : 0) ){ gr_buf_free(&key); return 0; }
      define(x, s, o->out.v[i].p, o->out.v[i].n, name, nl, (int32_t)i, "", dyn ? dyn_dims : NULL, dyn ? 1 : 0, dyn);
    }
    gr_buf_free(&key);
    return 1;
  }
  /* mapped: the chain of IR ops */
  {
    const char *prev = NULL;
    size_t prevn = 0, k;
    for(k = 0; k < nir; k++){
      gr_buf *t = &x->tmp;
      const char *opname;
      size_t on;
      t->n = 0;
      gr_buf_add(t, name, nl);
      gr_buf_adds(t, ir[k].suffix);
      on = t->n;
      opname = adup(x, t->p, t->n);
      if( !gr_build_op(b, opname, on, ir[k].type, strlen(ir[k].type), 0, 0)
          || !gr_build_attr_s(b, "_onnx_node", 10, name, nl)
          || !gr_build_attr_s(b, "_onnx_op", 8, key.p, key.n) ){ gr_buf_free(&key); free(cap); return 0; }
      if( k==0 ){
        if( !connect(x, s, o->in.v, o->in.n, &dyn) ){ gr_buf_free(&key); free(cap); return 0; }
        for(i = 0; i < ncap; i++){
          prod *p = lookup(s, cap[i]);
          if( p && !gr_build_edge(b, p->op, p->opn, p->index) ){ gr_buf_free(&key); free(cap); return 0; }
          if( p && is_dynamic(p) ) dyn = 1;
        }
      }else{
        if( !gr_build_edge(b, prev, prevn, 0) ){ gr_buf_free(&key); free(cap); return 0; }
        if( !gr_build_tensor(b, 0, "", 0, "", 0, dyn ? dyn_dims : NULL, dyn ? 1 : 0) ){ gr_buf_free(&key); free(cap); return 0; }
      }
      if( k==nir - 1 || ir[k].suffix[0]==0 ){
        if( !copy_attrs(x, o) ){ gr_buf_free(&key); free(cap); return 0; }
      }
      if( k==nir - 1 ){
        for(i = 0; i < o->out.n; i++){
          if( !gr_build_tensor(b, 1, "", 0, "", 0, dyn ? dyn_dims : NULL, dyn ? 1 : 0) ){ gr_buf_free(&key); free(cap); return 0; }
          define(x, s, o->out.v[i].p, o->out.v[i].n, opname, on, (int32_t)i, "", dyn ? dyn_dims : NULL, dyn ? 1 : 0, dyn);
        }
      }else if( !gr_build_tensor(b, 1, "", 0, "", 0, dyn ? dyn_dims : NULL, dyn ? 1 : 0) ){ gr_buf_free(&key); free(cap); return 0; }
      prev = opname; prevn = on;
    }
  }
  gr_buf_free(&key);
  if( o->then_g.p ) queue_branch(x, o->then_g, gname, prefix ? name + strlen(prefix) + 1 : name, 0, "then_branch", s, cap, ncap, depth + 1);
  if( o->else_g.p ){
    char **cap2 = NULL;
    if( ncap ){ cap2 = gr_xmalloc(ncap * sizeof *cap2); memcpy(cap2, cap, ncap * sizeof *cap2); }
    queue_branch(x, o->else_g, gname, prefix ? name + strlen(prefix) + 1 : name, 1, "else_branch", s, cap2, ncap, depth + 1);
  }
  if( !o->then_g.p && !o->else_g.p ) free(cap);
  return 1;
}

/* ---- graphs ---- */

typedef struct init { span name; span t; } init;

static int cmp_init(const void *a, const void *b){
  const init *p = a, *q = b;
  size_t n = p->name.n < q->name.n ? p->name.n : q->name.n;
  int c = memcmp(p->name.p, q->name.p, n);
  return c ? c : (p->name.n > q->name.n) - (p->name.n < q->name.n);
}

static int read_graph(ox *x, span g, const char *gname_in, scope *parent, char **captured, size_t ncaptured, int depth){
  gr_build *b = x->b;
  pb_field f;
  spans nodes = { 0 }, inputs = { 0 };
  GR_VEC(init) inits = { 0 };
  span gname = { NULL, 0 };
  scope *s = scope_new(x, NULL);
  const char *prefix = parent ? gname_in : NULL;
  const char *gn;
  size_t i;
  int64_t index = 0;
  onode o;
  int ok = 1;
  gr_map init_names;
  memset(&o, 0, sizeof o);
  gr_map_init(&init_names);
  FOR_FIELDS(x, g, f, {
    if( f.wt!=PB_LEN ) continue;
    if( f.num==1 ){ span sp = { f.data, f.len }; gr_vec_push(nodes, sp); }
    else if( f.num==2 ){ gname.p = f.data; gname.n = f.len; }
    else if( f.num==5 ){ init in; in.t.p = f.data; in.t.n = f.len; in.name.p = NULL; in.name.n = 0; gr_vec_push(inits, in); }
    else if( f.num==11 ){ span sp = { f.data, f.len }; gr_vec_push(inputs, sp); }
  });
  /* a branch sees the enclosing graph only through its captured Data nodes */
  (void)parent;
  if( parent ) gn = gname_in;
  else gn = gname.n && !has_nul(gname.p, gname.n) ? adup(x, gname.p, gname.n) : "";
  if( !gr_build_graph(b, gn, strlen(gn)) ) goto out;
  /* initializers, in sorted name order */
  for(i = 0; i < inits.n && ok; i++){
    int64_t dt, *dims; uint32_t nd; int ext;
    ok = tensor_head(x, inits.v[i].t, &inits.v[i].name, &dt, &dims, &nd, &ext);
  }
  if( !ok ) goto out;
  if( inits.n ) qsort(inits.v, inits.n, sizeof *inits.v, cmp_init);
  for(i = 0; i < inits.n; i++){
    span tn; int64_t dt, *dims; uint32_t nd; int ext;
    gr_buf *t = &x->tmp;
    const char *nm;
    size_t nn;
    if( !tensor_head(x, inits.v[i].t, &tn, &dt, &dims, &nd, &ext) ) goto out;
    if( has_nul(tn.p, tn.n) ){ gr_build_fail(b, 0, 0, "an initializer name at byte %zu contains a NUL byte", off(x, tn.p)); goto out; }
    t->n = 0;
    if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
    gr_buf_add(t, tn.p, tn.n);
    gr_buf_printf(t, "_Initializer_%zu", i);
    nn = t->n;
    nm = adup(x, t->p, t->n);
    if( !gr_build_op(b, nm, nn, ext ? "FileConstant" : "Const", ext ? 12 : 5, 0, 0)
        || !gr_build_attr_s(b, "_onnx_node", 10, (const char*)tn.p, tn.n)
        || !gr_build_attr_s(b, "_onnx_op", 8, "initializer", 11)
        || !gr_build_tensor(b, 1, ge_dtype(dt), strlen(ge_dtype(dt)), "", 0, dims, nd) ) goto out;
    define(x, s, tn.p, tn.n, nm, nn, 0, ge_dtype(dt), dims, nd, 1);
    gr_map_put(&init_names, adup(x, tn.p, tn.n), (void*)1);
  }
  /* captured values first, then the declared inputs: Data nodes */
  for(i = 0; i < ncaptured; i++){
    prod *p = lookup(parent, captured[i]);
    gr_buf *t = &x->tmp;
    const char *nm;
    size_t nn;
    t->n = 0;
    gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); gr_buf_adds(t, captured[i]);
    nn = t->n; nm = adup(x, t->p, t->n);
    if( !gr_build_op(b, nm, nn, "Data", 4, 0, 0) || !gr_build_attr_i(b, "index", 5, index++)
        || !gr_build_attr_i(b, "_parent_node_index", 18, (int64_t)i + 1)
        || !gr_build_tensor(b, 1, p ? p->dtype : "", p ? strlen(p->dtype) : 0, "", 0, p ? p->dims : NULL, p ? p->ndim : 0) ) goto out;
    define(x, s, (const unsigned char*)captured[i], strlen(captured[i]), nm, nn, 0, p ? p->dtype : "", p ? p->dims : NULL, p ? p->ndim : 0, p!=NULL);
  }
  for(i = 0; i < inputs.n; i++){
    span nm; int64_t elem, *dims; uint32_t nd; int has_shape;
    gr_buf *t = &x->tmp;
    const char *on;
    size_t onl;
    if( !value_info(x, inputs.v[i], &nm, &elem, &dims, &nd, &has_shape) ) goto out;
    if( nm.n==0 || has_nul(nm.p, nm.n) ) continue;
    t->n = 0; gr_buf_add(t, nm.p, nm.n); gr_buf_cstr(t);
    if( gr_map_get(&init_names, t->p) ) continue;     /* an initializer-backed input is a Const */
    t->n = 0;
    if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
    gr_buf_add(t, nm.p, nm.n);
    onl = t->n; on = adup(x, t->p, t->n);
    if( !gr_build_op(b, on, onl, "Data", 4, 0, 0) || !gr_build_attr_i(b, "index", 5, index++)
        || !gr_build_tensor(b, 1, ge_dtype(elem), strlen(ge_dtype(elem)), "", 0, dims, nd) ) goto out;
    define(x, s, nm.p, nm.n, on, onl, 0, ge_dtype(elem), dims, nd, has_shape);
  }
  for(i = 0; i < nodes.n; i++){
    if( !parse_node(x, nodes.v[i], &o) ) goto out;
    if( !add_node(x, s, prefix, gn, &o, depth) ) goto out;
  }
out:
  free(nodes.v); free(inputs.v); free(inits.v);
  free(o.in.v); free(o.out.v); free(o.attrs.v); free(o.attr_raw.v);
  gr_map_free(&init_names);
  return !gr_build_failed(b);
}

gr_graph *gr_read_onnx(const unsigned char *p, size_t n, const struct gr_opmap *map, gr_error *err){
  ox x;
  pb_field f, h;
  span root = { p, n }, graph = { NULL, 0 };
  gr_graph *g;
  size_t i;
  int64_t ai_onnx = 0;
  int ok = 1;
  memset(&x, 0, sizeof x);
  x.b = gr_build_new();
  x.map = map;
  x.base = p;
  gr_arena_init(&x.arena);
  gr_buf_init(&x.tmp); gr_buf_init(&x.tmp2);
  {
    pb_cur c = { p, p + n };
    int r;
    while( (r = pb_next(&c, &f)) > 0 ){
      if( f.num==7 && f.wt==PB_LEN ){ graph.p = f.data; graph.n = f.len; }
      else if( f.num==8 && f.wt==PB_LEN ){
        span os = { f.data, f.len };
        pb_cur c2 = { os.p, os.p + os.n };
        const char *d = ""; size_t dn = 0; int64_t v = 0; int r2;
        while( (r2 = pb_next(&c2, &h)) > 0 ){
          if( h.num==1 && h.wt==PB_LEN ){ d = (const char*)h.data; dn = h.len; }
          else if( h.num==2 && h.wt==PB_VARINT ) v = (int64_t)h.v;
        }
        if( r2 < 0 ){ bad(&x, c2.p, "a malformed opset_import entry"); ok = 0; break; }
        if( dn==0 ){ d = "ai.onnx"; dn = 7; }
        if( x.nopsets==MAX_OPSETS ){ gr_build_fail(x.b, 0, 0, "more than %d opset_import entries", MAX_OPSETS); ok = 0; break; }
        x.opset[x.nopsets].d = d; x.opset[x.nopsets].dn = dn; x.opset[x.nopsets].v = v; x.nopsets++;
        if( dn==7 && memcmp(d, "ai.onnx", 7)==0 ) ai_onnx = v;
      }else if( f.num==2 && f.wt==PB_LEN && !gr_build_failed(x.b) ){
        (void)0;
      }
    }
    if( ok && r < 0 ){ bad(&x, c.p, "a field's tag or length is invalid or runs past the end"); ok = 0; }
    (void)root;
  }
  if( ok && graph.p==NULL ){ gr_build_fail(x.b, 0, 0, "the ONNX model has no graph (GE: E16004 \"ONNX model has no graph.\")"); ok = 0; }
  if( ok ) ok = read_graph(&x, graph, NULL, NULL, NULL, 0, 0);
  for(i = 0; ok && i < x.queue.n; i++){
    pending pd = x.queue.v[i];
    scope *parent = pd.parent;
    ok = read_graph(&x, pd.g, pd.name, parent, pd.captured, pd.ncaptured, pd.depth);
  }
  for(i = 0; i < x.queue.n; i++){ free(x.queue.v[i].name); free(x.queue.v[i].captured); }
  gr_vec_free(x.queue);
  for(i = 0; i < x.scopes.n; i++) gr_map_free(&x.scopes.v[i]->names);
  gr_vec_free(x.scopes);
  gr_buf_free(&x.tmp); gr_buf_free(&x.tmp2);
  g = gr_build_finish(x.b, err);
  gr_arena_free(&x.arena);
  if( g ) gr_graph_set_format(g, GR_FMT_ONNX, ai_onnx);
  return g;
}
