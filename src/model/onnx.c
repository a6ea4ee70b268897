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
**     _onnx_unparsable; the rest of the model is still read; a Const a
**     plugin row creates has the dtype (and shape) its row's `output`
**     states, the TensorDesc the plugin gives it, else none; an inner op
**     whose row states its output's dtype (a Shape's, a Cast's dst_type)
**     has it, any other its first input's;
**   - If branches become subgraphs named <graph>/<node>_<i>_<then|else>_branch
**     whose nodes are named <subgraph>/<node>; the names a branch's own
**     nodes read and no node of it produces become Data nodes of both
**     branches and extra inputs of the If (GE's IfSubgraphAdapter), an
**     input the enclosing graph does not define being unconnected; a node
**     input naming no tensor gets attribute _onnx_unknown_input (GE leaves it
**     unconnected, "maybe option input"), one a later node produces
**     _onnx_input_later (nodes are read in file order, GE links by name), an
**     output an earlier node produces _onnx_output_again (and
**     _onnx_reads_own_output when the node reads it: GE's cycle; any other
**     loop GE's links by name would close, _onnx_ge_cycle on its last node,
**     ge_cycles); an If output no value_info or
**     branch declaration types takes what its branch computes (if_hints:
**     the model is read again); value_info is otherwise ignored, as GE ignores it;
**   - output shapes are inferred as GE's InferShape would give them, for the
**     ops the rule set gives a shape function (table onnx_shapes; the
**     functions are ONNX operator semantics, onnx_infer.c): output 0 of the node
**     from its inputs' shapes, its attributes and small integer constants
**     (a Reshape's shape, axes inputs, a Resize's scales; never weights); an unknown dim is -1;
**     an output that cannot be inferred has GR_SHAPE_UNKNOWN (graph.h: not
**     known to gerules, distinct from a scalar [], and not dynamic: GE's
**     InferShape knows it), or [-2] (unknown rank, dynamic) when an input
**     is dynamic: never a guess. Its dtype may still be known (the "dtype"
**     shape function, and value_info's elem_type).
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
#include "model/onnx_int.h"
#include "model/onnx_map.h"
#include "model/onnx_order.h"
#include "model/pbwire.h"
#include "base/hashmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPSETS 64
#define MAX_NESTING 32

/* One tensor name of one scope (a graph, or a temporary set); the name points
** into the model (or the arena) and is never copied. */
typedef struct tname { const unsigned char *p; size_t n; uint32_t scope; prod pr; } tname;

typedef struct pending {           /* a branch graph waiting to be read */
  span g;
  char *name;                      /* subgraph instance name */
  uint32_t parent;                 /* scope of the enclosing graph */
  span *captured; size_t ncaptured;
  span *outs; size_t nouts;        /* the If's outputs, in scope parent */
  int depth;
} pending;

/* The dtype of an If's output that neither value_info nor its branches'
** declarations give, taken from what a read of its branch found for the
** branch's output (ONNX gives an If's outputs its branches' types,
** Operators.md If). A branch is read after the graph holding the If, so
** the reader reads the model again with these (gr_read_onnx): each read
** types at least one more level of nested Ifs. */
typedef struct if_hint { uint32_t scope; span name; int64_t elem; } if_hint;
typedef struct if_hints {
  GR_VEC(if_hint) v;
  size_t nsorted;                  /* v[0..nsorted): from earlier reads, sorted; the rest this read's */
} if_hints;

/* An op type met before: its key and its mapping rows, looked up once. */
typedef struct opinfo {
  span domain, op;
  int found;                       /* the domain has an opset */
  int64_t ver;
  uint32_t key;                    /* name id of "domain::V::op_type" */
  const gr_opmap_entry *e;
} opinfo;

typedef struct ox {
  gr_build *b;
  const gr_opmap *map;
  const uint8_t *caps;          /* the chip's capabilities (mapping rows' chip has CAP), or NULL */
  const unsigned char *base;
  struct { const char *d; size_t dn; int64_t v; } opset[MAX_OPSETS]; size_t nopsets;
  gr_arena arena;
  GR_VEC(pending) queue;
  /* tensor names of every scope: one table, keyed by (scope, name) */
  gr_idmap tn_index; GR_VEC(tname) tn; uint32_t nscopes;
  gr_idmap op_index; GR_VEC(opinfo) ops;
  uint64_t unnamed;
  uint64_t pc_counter;             /* GE's global PartitionedCall_ counter */
  uint64_t node_base;              /* the counter's value at the node being added */
  uint32_t vi_scope;               /* the graph's value_info and output dtypes, by tensor name */
  /* the graph being read: its nodes, and (built when a node input names a
  ** tensor not yet produced) the scope of every name they produce */
  const spans *gnodes; uint32_t produced; int has_produced;
  /* the cycles of the graph GE's parser would link (ge_cycles: run once a
  ** node input is unresolved or a name produced twice): per node of the
  ** graph, the cycle to report on it, or NULL; gi is the node being added,
  ** self_marked whether it got _onnx_reads_own_output */
  char **cyc; int cyc_done; size_t gi; int self_marked; const char *gprefix;
  /* hashes of a node's name and tensor names, computed when it was
  ** prefetched (hs[cur]: the node being added; the other: the next one) */
  struct nhash { int valid; uint64_t name; GR_VEC(uint64_t) in, out; } hs[2];
  int cur;
  gr_buf tmp, name;
  GR_VEC(int64_t) dims;            /* scratch dim vector */
  GR_VEC(prod) ins;                /* the current node's input producers */
  GR_VEC(unsigned char) inok;      /* ... and whether each was found */
  GR_VEC(unsigned char) named;     /* the current node's input slots: named or empty */
  spans used;                      /* scratch: the names a branch consumes */
  /* ids interned once */
  uint32_t k_node, k_op, k_index, k_parent, v_init, v_constant;
  /* the keys of the attributes that report a problem, interned on first use
  ** (key_id): NO_KEY until then */
  uint32_t k_unreg, k_unparse, k_unknown, k_later, k_again, k_self, k_cycle;
  uint32_t t_const, t_fileconst, t_data;
  uint32_t sh_dyn;                 /* [-2] */
  uint16_t dt[23];                 /* ONNX elem type -> dtype id, 0xffff = not yet */
  if_hints *hints;                 /* kept from read to read (gr_read_onnx) */
} ox;

static size_t off(ox *x, const unsigned char *p){ return (size_t)(p - x->base); }

static int bad(ox *x, const unsigned char *at, const char *what){
  return gr_build_fail(x->b, 0, 0, "malformed ONNX model at byte %zu: %s", off(x, at), what);
}

/* All fields of a message; -1 on a malformed field (reported). Its cursor
** and result are named per expansion (__COUNTER__), so a loop nested in
** another's body shadows nothing. */
#define FOR_FIELDS(x, sp, f, ...) FOR_FIELDS_N(__COUNTER__, x, sp, f, __VA_ARGS__)
#define FOR_FIELDS_N(id, x, sp, f, ...) FOR_FIELDS_(id, x, sp, f, __VA_ARGS__)
#define FOR_FIELDS_(id, x, sp, f, ...) do{ \
  pb_cur c_##id = { (sp).p, (sp).p + (sp).n }; int r_##id; \
  while( (r_##id = pb_next(&c_##id, &(f))) > 0 ){ __VA_ARGS__ } \
  if( r_##id < 0 ) return bad((x), c_##id.p, "a field's tag or length is invalid or runs past the end"); \
}while(0)

static int has_nul(const unsigned char *p, size_t n){ return n && memchr(p, 0, n)!=NULL; }
/* Whether a node's name field names it (else GE names it <op_type>_<n>). */
static int has_name(span nm){ return nm.n && !has_nul(nm.p, nm.n); }
/* Whether a node's domain field names ONNX's default domain. */
static int default_domain(span d){ return d.n==0 || (d.n==7 && memcmp(d.p, "ai.onnx", 7)==0); }
/* Which If branch attribute v (with graph g) is: 1 then_branch, 2 else_branch, 0 neither. */
static int branch_attr(const gr_onnx_attr_view *v, span g){
  if( g.p==NULL || v->nlen!=11 ) return 0;
  return memcmp(v->name, "then_branch", 11)==0 ? 1 : memcmp(v->name, "else_branch", 11)==0 ? 2 : 0;
}

/* Appends a decimal number (no printf on the per-node path). */
static void add_u64(gr_buf *b, uint64_t v){
  char d[24];
  int k = 0;
  do{ d[k++] = (char)('0' + v % 10); v /= 10; }while( v );
  while( k ) gr_buf_addc(b, d[--k]);
}

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

uint16_t gr_onnx_dtype_id(gr_build *b, uint16_t *dt, int64_t t){
  const char *s;
  if( t < 0 || t >= 23 ) return 0;
  if( dt[t]==0xffff ){
    s = ge_dtype(t);
    if( !gr_build_dtype(b, s, strlen(s), &dt[t]) ) return 0;
  }
  return dt[t];
}

static uint16_t dtype_id(ox *x, int64_t t){ return gr_onnx_dtype_id(x->b, x->dt, t); }

/* The shape id of the scratch dim vector. */
static int dims_shape(ox *x, uint32_t *shape){
  return gr_build_shape(x->b, x->dims.v, (uint32_t)x->dims.n, shape);
}

/* dims of a TensorShapeProto: dim_value, else -1 */
static int shape_dims(ox *x, span sh, uint32_t *shape){
  pb_field f, g;
  x->dims.n = 0;
  FOR_FIELDS(x, sh, f, {
    if( f.num==1 && f.wt==PB_LEN ){
      span d = { f.data, f.len };
      int64_t val = -1;
      FOR_FIELDS(x, d, g, { if( g.num==1 && g.wt==PB_VARINT ) val = (int64_t)g.v; });
      if( x->dims.n >= 65535 ) return gr_build_fail(x->b, 0, 0, "a shape at byte %zu has more than 65535 dims", off(x, f.data));
      gr_vec_push(x->dims, val);
    }
  });
  return dims_shape(x, shape);
}

/* ValueInfoProto: name, tensor elem_type and shape (shape 0 = [] when the
** type has no shape, as GE reads it). */
static int value_info(ox *x, span vi, span *name, int64_t *elem, uint32_t *shape){
  pb_field f, g, h;
  name->p = NULL; name->n = 0; *elem = 0; *shape = 0;
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
              if( !shape_dims(x, sh, shape) ) return 0;
            }
          });
        }
      });
    }
  });
  return 1;
}

/* The elem_type an If branch graph g declares for its output i (GraphProto
** field 12, ValueInfoProto; ONNX gives an If's outputs its branches' output
** types, Operators.md If): 1 with it in *elem, 0 when g is absent or does
** not declare a known one. */
static int branch_out_elem(ox *x, span g, size_t i, int64_t *elem){
  pb_cur c;
  pb_field f;
  size_t k = 0;
  if( g.p==NULL ) return 0;
  c.p = g.p; c.end = g.p + g.n;
  while( pb_next(&c, &f) > 0 ){
    span nm, vi;
    uint32_t sh;
    if( f.num!=12 || f.wt!=PB_LEN || k++!=i ) continue;
    vi.p = f.data; vi.n = f.len;
    if( !value_info(x, vi, &nm, elem, &sh) ) return 0;
    return *elem > 0 && *elem < 23;
  }
  return 0;
}

/* TensorProto header: name, dims, data_type, whether external. The data
** (raw_data, the typed fields) is stepped over, never read or copied. */
static int tensor_head(ox *x, span t, span *name, int64_t *dtype, uint32_t *shape, int *external){
  pb_field f;
  name->p = NULL; name->n = 0; *dtype = 0; *external = 0;
  x->dims.n = 0;
  FOR_FIELDS(x, t, f, {
    if( f.num==1 && f.wt==PB_VARINT ){ gr_vec_push(x->dims, (int64_t)f.v); }
    else if( f.num==1 && f.wt==PB_LEN ){
      pb_cur c = { f.data, f.data + f.len };
      uint64_t d;
      while( c.p < c.end ){
        if( !pb_varint(&c, &d) ) return bad(x, c.p, "bad packed dims");
        gr_vec_push(x->dims, (int64_t)d);
        if( x->dims.n > 65535 ) break;
      }
    }
    else if( f.num==2 && f.wt==PB_VARINT ) *dtype = (int64_t)f.v;
    else if( f.num==8 && f.wt==PB_LEN ){ name->p = f.data; name->n = f.len; }
    else if( f.num==14 && f.wt==PB_VARINT ) *external = f.v==1;
    if( x->dims.n > 65535 ) return gr_build_fail(x->b, 0, 0, "a tensor at byte %zu has more than 65535 dims", off(x, t.p));
  });
  return dims_shape(x, shape);
}

/* ---- tensor names ---- */

static uint64_t tn_hash(const unsigned char *p, size_t n, uint32_t scope){
  return gr_hash_u64(gr_hash(p, n) ^ ((uint64_t)scope * 0x9e3779b97f4a7c15ULL));
}

typedef struct tn_key { const ox *x; const unsigned char *p; size_t n; uint32_t scope; } tn_key;
static int tn_eq(const void *ctx, uint32_t id){
  const tn_key *k = ctx;
  const tname *t = &k->x->tn.v[id];
  return t->scope==k->scope && t->n==k->n && (k->n==0 || memcmp(t->p, k->p, k->n)==0);
}

static uint32_t scope_new(ox *x){ return x->nscopes++; }

/* The producer of a name in a scope, or NULL. The pointer is valid until the
** next define. */
static const prod *lookup_h(ox *x, uint32_t scope, const unsigned char *p, size_t n, uint64_t h){
  tn_key k = { x, p, n, scope };
  int64_t i = gr_idmap_find(&x->tn_index, h, tn_eq, &k);
  return i >= 0 ? &x->tn.v[i].pr : NULL;
}
static const prod *lookup(ox *x, uint32_t scope, const unsigned char *p, size_t n){
  return lookup_h(x, scope, p, n, tn_hash(p, n, scope));
}

/* Defines a name; a later definition keeps the first (SSA has none).
** Returns 1 when the name was new. */
static int define_h(ox *x, uint32_t scope, const unsigned char *p, size_t n, const prod *pr, uint64_t h){
  tn_key k = { x, p, n, scope };
  tname t;
  if( gr_idmap_find(&x->tn_index, h, tn_eq, &k) >= 0 ) return 0;
  t.p = p; t.n = n; t.scope = scope; t.pr = *pr;
  gr_vec_push(x->tn, t);
  gr_idmap_add(&x->tn_index, h, (uint32_t)(x->tn.n - 1));
  return 1;
}
static int define(ox *x, uint32_t scope, const unsigned char *p, size_t n, const prod *pr){
  return define_h(x, scope, p, n, pr, tn_hash(p, n, scope));
}

/* The hashes of the node being added, when its prefetch computed them for
** this many inputs / outputs. */
static const struct nhash *cur_hashes(ox *x, size_t nin, size_t nout){
  const struct nhash *h = &x->hs[x->cur];
  return h->valid && h->in.n==nin && h->out.n==nout ? h : NULL;
}

static int cmp_hint(const void *a, const void *b){
  const if_hint *p = a, *q = b;
  size_t n = p->name.n < q->name.n ? p->name.n : q->name.n;
  int c;
  if( p->scope!=q->scope ) return p->scope < q->scope ? -1 : 1;
  c = n ? memcmp(p->name.p, q->name.p, n) : 0;
  return c ? c : (p->name.n > q->name.n) - (p->name.n < q->name.n);
}

/* As cmp_hint, then by elem type (merge_hints' order). */
static int cmp_hint_elem(const void *a, const void *b){
  int c = cmp_hint(a, b);
  return c ? c : (((const if_hint*)a)->elem > ((const if_hint*)b)->elem) - (((const if_hint*)a)->elem < ((const if_hint*)b)->elem);
}

/* The ONNX elem type an earlier read found for the If output `name` of
** scope s, or 0. */
static int64_t hint_elem(ox *x, uint32_t s, span name){
  if_hint k, *h;
  if( x->hints->nsorted==0 ) return 0;
  k.scope = s; k.name = name; k.elem = 0;
  h = bsearch(&k, x->hints->v.v, x->hints->nsorted, sizeof k, cmp_hint);
  return h ? h->elem : 0;
}

/* The ONNX elem type of dtype id d (0 when none maps to it). */
static int64_t elem_of(ox *x, uint16_t d){
  int64_t e;
  for(e = 1; d && e < 23; e++) if( dtype_id(x, e)==d ) return e;
  return 0;
}

static prod mkprod(uint32_t op, int32_t index, uint16_t dtype, uint32_t shape, int is_init){
  prod p;
  p.op = op; p.index = index; p.dtype = dtype; p.shape = shape; p.is_init = is_init;
  p.value.p = NULL; p.value.n = 0;
  return p;
}

static int shape_neg(ox *x, uint32_t shape){
  uint32_t i, nd;
  const int64_t *d;
  if( shape==NO_SHAPE ) return 0;
  d = gr_build_shape_dims(x->b, shape, &nd);
  for(i = 0; i < nd; i++) if( d[i] < 0 ) return 1;
  return 0;
}
static int is_dynamic(ox *x, const prod *p){ return shape_neg(x, p->shape); }

/* The shape a consumer sees on output `index` of a row's inner op, from the
** op's stated shape (opsh, output 0 only) or else whether its inputs are
** dynamic (opdyn); *dyn, unless NULL, whether that shape is dynamic. */
static uint32_t inner_out_shape(ox *x, uint32_t opsh, unsigned char opdyn, int32_t index, int *dyn){
  if( index==0 && opsh!=NO_SHAPE ){
    if( dyn ) *dyn = shape_neg(x, opsh);
    return opsh;
  }
  if( dyn ) *dyn = opdyn;
  return opdyn ? x->sh_dyn : GR_SHAPE_UNKNOWN;
}

/* ---- nodes ---- */

/* One element of an INTS attribute into the view's product and maximum
** (prod(...) and max(...) of a mapping condition); the product saturates at
** +-2^62, far above any kernel or stride a test compares with. */
static void int_elem(gr_onnx_attr_view *v, int64_t e){
  const int64_t cap = (int64_t)1 << 62;
  /* |e|, with INT64_MIN (whose negation overflows) as INT64_MAX: it saturates all the same */
  int64_t m = e < 0 ? (e==INT64_MIN ? INT64_MAX : -e) : e;
  if( v->nints==0 ){ v->iprod = e; v->imax = e; }
  else{
    if( e > v->imax ) v->imax = e;
    if( e!=0 && (v->iprod > cap / m || v->iprod < -cap / m) ) v->iprod = (v->iprod < 0)!=(e < 0) ? -cap : cap;
    else v->iprod *= e;
  }
  v->nints++;
}

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
    case 2: if( f.wt==PB_I32 ){ float fl; uint32_t u = (uint32_t)f.v; memcpy(&fl, &u, 4); v->i = 0; v->f = fl; has_f = 1; } break;
    case 3: if( f.wt==PB_VARINT ){ v->i = (int64_t)f.v; has_i = 1; } break;
    case 4: if( f.wt==PB_LEN ){ v->s = (const char*)f.data; v->slen = f.len; has_s = 1; } break;
    case 5: if( f.wt==PB_LEN ){ t->p = f.data; t->n = f.len; } break;
    case 6: if( f.wt==PB_LEN ){ g->p = f.data; g->n = f.len; } break;
    case 7: if( f.wt==PB_LEN ) nfloats += f.len / 4; else if( f.wt==PB_I32 ) nfloats++; break;
    case 8:
      if( f.wt==PB_VARINT ){ nints++; int_elem(v, (int64_t)f.v); }
      else if( f.wt==PB_LEN ){
        pb_cur c = { f.data, f.data + f.len }; uint64_t e;
        size_t k;
        for(k = 0; k < f.len; k++) if( !(f.data[k] & 0x80) ) nints++;
        while( c.p < c.end && pb_varint(&c, &e) ) int_elem(v, (int64_t)e);
      }
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
      switch( branch_attr(&v, g) ){
      case 1: o->then_g = g; o->nbranch_attrs++; break;
      case 2: o->else_g = g; o->nbranch_attrs++; break;
      default: break;
      }
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

/* The ONNX type node o's attribute `name` gives (a row's `output
** node.attr["A"] default "DTYPE"`): *found 1 when o has it as a TENSOR
** (AttributeProto type 4, or untyped with field t), with its TensorProto's
** data_type (0 when it gives none) in *elem, or as an INT (type 2), whose
** value names a TensorProto.DataType (the `dtype` attribute of RandomNormal
** and RandomUniform). 0 when the tensor is malformed (reported). */
static int attr_elem_type(ox *x, const onode *o, const char *name, int *found, int64_t *elem){
  size_t i, n = strlen(name);
  *found = 0; *elem = 0;
  for(i = 0; i < o->attrs.n; i++){
    const gr_onnx_attr_view *a = &o->attrs.v[i];
    pb_field f;
    span t = { NULL, 0 };
    int64_t type = 0, iv = 0;
    int has_i = 0;
    if( a->nlen!=n || memcmp(a->name, name, n)!=0 ) continue;
    FOR_FIELDS(x, o->attr_raw.v[i], f, {
      if( f.num==20 && f.wt==PB_VARINT ) type = (int64_t)f.v;
      else if( f.num==5 && f.wt==PB_LEN ){ t.p = f.data; t.n = f.len; }
      else if( f.num==3 && f.wt==PB_VARINT ){ iv = (int64_t)f.v; has_i = 1; }
    });
    if( type==2 && has_i ){ *elem = iv; *found = 1; return 1; }
    if( t.p==NULL || (type!=0 && type!=4) ) continue;
    FOR_FIELDS(x, t, f, { if( f.num==2 && f.wt==PB_VARINT ) *elem = (int64_t)f.v; });
    *found = 1;
    return 1;
  }
  return 1;
}

/* The ONNX node's own attributes, copied onto an IR op; an int attribute
** the plugin passes on under an IR name (table onnx_ir_attrs) also under
** that name; and the int attributes the plugin's IR ops have when the node
** gives neither (table onnx_ir_attr_defaults). */
static int copy_attrs(ox *x, const onode *o, const gr_opmap_entry *e){
  size_t i;
  for(i = 0; i < o->attrs.n; i++){
    const gr_onnx_attr_view *a = &o->attrs.v[i];
    pb_field f;
    span raw = o->attr_raw.v[i];
    if( a->nlen==0 || has_nul((const unsigned char*)a->name, a->nlen) ) continue;
    if( a->kind==1 ){
      const char *ir = gr_opmap_ir_attr(e, a->name, a->nlen);
      if( !gr_build_attr_i(x->b, a->name, a->nlen, a->i) ) return 0;
      if( ir && !gr_build_attr_i(x->b, ir, strlen(ir), a->i) ) return 0;
      continue;
    }
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
  /* the IR attributes the plugin sets by default (onnx_ir_attr_defaults)
  ** unless the node gave one, under its own or its IR name */
  {
    const char *dn;
    int64_t dv;
    size_t k, j;
    for(k = 0; gr_opmap_attr_default(e, k, &dn, &dv); k++){
      int given = 0;
      for(j = 0; j < o->attrs.n && !given; j++){
        const gr_onnx_attr_view *a = &o->attrs.v[j];
        const char *ir = a->kind==1 ? gr_opmap_ir_attr(e, a->name, a->nlen) : NULL;
        given = (a->nlen==strlen(dn) && memcmp(a->name, dn, a->nlen)==0) || (ir && strcmp(ir, dn)==0);
      }
      if( !given && !gr_build_attr_i(x->b, dn, strlen(dn), dv) ) return 0;
    }
  }
  return 1;
}

/* The producers of the node's inputs (x->ins, x->inok); sets *dyn when an
** input's shape is dynamic. */
static void gather(ox *x, uint32_t s, const onode *o, const struct nhash *hh, int *dyn){
  size_t i;
  x->ins.n = 0; x->inok.n = 0;
  for(i = 0; i < o->in.n; i++){
    const span *in = &o->in.v[i];
    const prod *p = NULL;
    prod none = mkprod(GR_NONE, 0, 0, NO_SHAPE, 0);
    if( in->n && !has_nul(in->p, in->n) ) p = hh ? lookup_h(x, s, in->p, in->n, hh->in.v[i]) : lookup(x, s, in->p, in->n);
    gr_vec_push(x->ins, p ? *p : none);
    gr_vec_push(x->inok, (unsigned char)(p!=NULL));
    if( p && is_dynamic(x, p) ) *dyn = 1;
  }
}

/* Whether a node of the graph being read produces tensor u: the first
** such question of a graph collects every output name of its nodes (a
** valid model never asks: its nodes are topologically sorted). */
static int produced_later(ox *x, span u){
  size_t i;
  if( !x->has_produced ){
    x->produced = scope_new(x);
    x->has_produced = 1;
    for(i = 0; x->gnodes && i < x->gnodes->n; i++){
      prod one = mkprod(0, 0, 0, NO_SHAPE, 0);
      pb_cur c = { x->gnodes->v[i].p, x->gnodes->v[i].p + x->gnodes->v[i].n };
      pb_field f;
      while( pb_next(&c, &f) > 0 ) if( f.num==2 && f.wt==PB_LEN && f.len ) define(x, x->produced, f.data, f.len, &one);
    }
  }
  return lookup(x, x->produced, u.p, u.n)!=NULL;
}

#define NO_KEY 0xffffffffu

/* The id of attribute key s (*k), interned on first use. A key no op of
** the model carries stays out of the graph's strings, and then the rule
** set's rules that test it are skipped for every node instead of tried on
** each (src/eval/eval.c absent_attr): most models have none of these. */
static uint32_t key_id(ox *x, uint32_t *k, const char *s){
  if( *k==NO_KEY && !gr_build_str(x->b, s, strlen(s), k) ) *k = NO_KEY;
  return *k;
}

/* The nodes of a cycle named in its description; a longer one names this
** many and says how many more. */
#define CYCLE_SHOWN 8

/* One node of the graph being read, for ge_cycles: its ONNX name and
** op_type, and its number among the unnamed nodes. */
typedef struct cnode { span name, op, dom; uint64_t unnamed; } cnode;

static int captures(ox *x, span g, uint32_t seen, spans *cap);

/* Whether c is an If of the default domain, whose branches' captures GE's
** parser makes inputs of the If (IfSubgraphAdapter). */
static int cnode_is_if(const cnode *c){
  return c->op.n==2 && memcmp(c->op.p, "If", 2)==0 && default_domain(c->dom);
}

/* The name node i has in the report (node_name's rule: prefix/name, or
** <op_type>_<n> with n the reader's running count of unnamed nodes). */
static void cycle_node_name(gr_buf *t, const char *prefix, const cnode *c){
  if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
  if( has_name(c->name) ) gr_buf_add(t, c->name.p, c->name.n);
  else{ gr_buf_add(t, c->op.p, c->op.n); gr_buf_addc(t, '_'); add_u64(t, c->unnamed); }
}

/* One cycle of the strongly connected component mem[0..nm) (nodes of the
** component have comp[] == id), through its last node m in the node list:
** the breadth-first shortest way from m back to m, written "m -> a -> ...
** -> m" into x->cyc[m]. Each component is searched once, so the whole
** costs O(nodes + edges). */
static void describe_cycle(ox *x, const char *prefix, const cnode *c, const size_t *eoff, const size_t *edst,
                           const size_t *mem, size_t nm, const size_t *comp, size_t id,
                           size_t *parent, size_t *queue, size_t *seen){
  size_t m = mem[0], i, qh = 0, qt = 0, last = SIZE_MAX, path[CYCLE_SHOWN], len = 0, more = 0, v;
  gr_buf t;
  for(i = 1; i < nm; i++) if( mem[i] > m ) m = mem[i];
  queue[qt++] = m; seen[m] = id;
  while( qh < qt && last==SIZE_MAX ){
    size_t u = queue[qh++], e;
    for(e = eoff[u]; e < eoff[u + 1]; e++){
      size_t w = edst[e];
      if( w==m ){ last = u; break; }
      if( comp[w]!=id || seen[w]==id ) continue;
      seen[w] = id; parent[w] = u; queue[qt++] = w;
    }
  }
  if( last==SIZE_MAX ) return;           /* a single node without a self edge: no cycle */
  /* the way back from last to m, reversed: m's successor first */
  for(v = last; v!=m; v = parent[v]) len++;
  gr_buf_init(&t);
  cycle_node_name(&t, prefix, &c[m]);
  {
    size_t shown = len < CYCLE_SHOWN ? len : CYCLE_SHOWN - 1, k = len;
    more = len - shown;
    for(v = last; v!=m; v = parent[v]){ k--; if( k < shown ) path[k] = v; }
    for(k = 0; k < shown; k++){ gr_buf_adds(&t, " -> "); cycle_node_name(&t, prefix, &c[path[k]]); }
  }
  if( more ){ gr_buf_adds(&t, " -> ... ("); add_u64(&t, more); gr_buf_adds(&t, more==1 ? " more node)" : " more nodes)"); }
  gr_buf_adds(&t, " -> ");
  cycle_node_name(&t, prefix, &c[m]);
  x->cyc[m] = gr_buf_detach(&t);
}

/* The cycles of the graph GE's parser would build from the graph being
** read. GE links every node input to the node producing that name, the
** last one when several do, wherever it is in the node list (onnx_parser.cc
** SetOperatorInputs), then sorts the graph topologically, which fails on a
** cycle. A valid ONNX graph has none (its nodes are sorted and name every
** tensor once), so this runs only once per graph that has an unresolved
** input or a name produced twice. Every strongly connected component with
** a cycle (Tarjan's algorithm, without recursion) gets one cycle, reported
** on its last node in the node list: that node has not been added yet when
** this runs (a cycle needs an edge to an earlier node, from a producer at
** or after the node that made this run). Edges are node inputs and the
** values an If's branches capture (one level: a value a nested branch reads
** two graphs up is left unconnected, GE8001). */
static void ge_cycles(ox *x, const char *prefix){
  const spans *g = x->gnodes;
  size_t n = g ? g->n : 0, i, e, r, ne = 0, unnamed_upto = 0;
  GR_VEC(size_t) srcs = { 0 }, dsts = { 0 };
  cnode *c;
  size_t *eoff, *edst, *idx, *low, *stk, *cs_node, *cs_edge, *comp, *parent, *queue, *seen;
  size_t counter = 0, sp = 0, ncomp = 0;
  unsigned char *on;
  uint32_t sc;
  uint64_t unnamed;
  x->cyc_done = 1;
  if( n==0 || n > UINT32_MAX ) return;
  c = gr_xcalloc(n, sizeof *c);
  /* names and outputs; the producer of each name, the last in the list */
  sc = scope_new(x);
  for(i = 0; i < n; i++){
    pb_cur cur = { g->v[i].p, g->v[i].p + g->v[i].n };
    pb_field f;
    while( pb_next(&cur, &f) > 0 ){
      if( f.wt!=PB_LEN ) continue;
      if( f.num==2 && f.len && !has_nul(f.data, f.len) ){
        const prod *p = lookup(x, sc, f.data, f.len);
        prod one = mkprod((uint32_t)i, 0, 0, NO_SHAPE, 0);
        if( p ) ((prod*)p)->op = (uint32_t)i;
        else define(x, sc, f.data, f.len, &one);
      }else if( f.num==3 ){ c[i].name.p = f.data; c[i].name.n = f.len; }
      else if( f.num==4 ){ c[i].op.p = f.data; c[i].op.n = f.len; }
      else if( f.num==7 ){ c[i].dom.p = f.data; c[i].dom.n = f.len; }
    }
  }
  /* unnamed nodes' numbers: node gi has had its name already */
  for(i = 0; i <= x->gi && i < n; i++) if( !has_name(c[i].name) ) unnamed_upto++;
  unnamed = x->unnamed - unnamed_upto;
  for(i = 0; i < n; i++) if( !has_name(c[i].name) ) c[i].unnamed = unnamed++;
  /* edges producer -> reader, by producer (counting sort); an If also
  ** reads the values its branches capture (captures: GE's parser adds them
  ** as the If's inputs, linked like any other) */
  for(i = 0; i < n; i++){
    pb_cur cur = { g->v[i].p, g->v[i].p + g->v[i].n };
    pb_field f;
    int is_if = cnode_is_if(&c[i]);
    spans cap = { 0 };
    uint32_t capseen = is_if ? scope_new(x) : 0;
    while( pb_next(&cur, &f) > 0 ){
      const prod *p;
      if( is_if && f.num==5 && f.wt==PB_LEN ){
        span a = { f.data, f.len }, bg, t;
        gr_onnx_attr_view v;
        if( parse_attr(x, a, &v, &bg, &t) && branch_attr(&v, bg) ) captures(x, bg, capseen, &cap);
        continue;
      }
      if( f.num!=1 || f.wt!=PB_LEN || f.len==0 || has_nul(f.data, f.len) ) continue;
      if( (p = lookup(x, sc, f.data, f.len))==NULL ) continue;
      gr_vec_push(srcs, (size_t)p->op);
      gr_vec_push(dsts, i);
    }
    for(e = 0; e < cap.n; e++){
      const prod *p = lookup(x, sc, cap.v[e].p, cap.v[e].n);
      if( p==NULL ) continue;
      gr_vec_push(srcs, (size_t)p->op);
      gr_vec_push(dsts, i);
    }
    free(cap.v);
  }
  ne = srcs.n;
  eoff = gr_xcalloc(n + 1, sizeof *eoff);
  edst = gr_xcalloc(ne ? ne : 1, sizeof *edst);
  for(e = 0; e < ne; e++) eoff[srcs.v[e] + 1]++;
  for(i = 0; i < n; i++) eoff[i + 1] += eoff[i];
  {
    size_t *fill = gr_xcalloc(n, sizeof *fill);
    for(e = 0; e < ne; e++) edst[eoff[srcs.v[e]] + fill[srcs.v[e]]++] = dsts.v[e];
    free(fill);
  }
  gr_vec_free(srcs); gr_vec_free(dsts);
  idx = gr_xcalloc(n, sizeof *idx); low = gr_xcalloc(n, sizeof *low); stk = gr_xcalloc(n, sizeof *stk);
  cs_node = gr_xcalloc(n, sizeof *cs_node); cs_edge = gr_xcalloc(n, sizeof *cs_edge);
  comp = gr_xcalloc(n, sizeof *comp); parent = gr_xcalloc(n, sizeof *parent);
  queue = gr_xcalloc(n, sizeof *queue); seen = gr_xcalloc(n, sizeof *seen);
  on = gr_xcalloc(n, 1);
  x->cyc = gr_xcalloc(n, sizeof *x->cyc);
  for(i = 0; i < n; i++){ idx[i] = SIZE_MAX; comp[i] = seen[i] = SIZE_MAX; }
  for(r = 0; r < n; r++){
    size_t csp = 0;
    if( idx[r]!=SIZE_MAX ) continue;
    idx[r] = low[r] = counter++; stk[sp++] = r; on[r] = 1;
    cs_node[csp] = r; cs_edge[csp++] = eoff[r];
    while( csp ){
      size_t v = cs_node[csp - 1];
      if( cs_edge[csp - 1] < eoff[v + 1] ){
        size_t w = edst[cs_edge[csp - 1]++];
        if( idx[w]==SIZE_MAX ){
          idx[w] = low[w] = counter++; stk[sp++] = w; on[w] = 1;
          cs_node[csp] = w; cs_edge[csp++] = eoff[w];
        }else if( on[w] && idx[w] < low[v] ) low[v] = idx[w];
        continue;
      }
      csp--;
      if( csp && low[v] < low[cs_node[csp - 1]] ) low[cs_node[csp - 1]] = low[v];
      if( low[v]==idx[v] ){
        size_t start = sp, k;
        do start--; while( stk[start]!=v );
        for(k = start; k < sp; k++){ on[stk[k]] = 0; comp[stk[k]] = ncomp; }
        describe_cycle(x, prefix, c, eoff, edst, stk + start, sp - start, comp, ncomp, parent, queue, seen);
        ncomp++;
        sp = start;
      }
    }
  }
  free(c); free(eoff); free(edst); free(idx); free(low); free(stk); free(cs_node); free(cs_edge);
  free(comp); free(parent); free(queue); free(seen); free(on);
}

/* Runs ge_cycles once for the graph being read. */
static void need_cycles(ox *x){
  if( !x->cyc_done && x->gnodes ) ge_cycles(x, x->gprefix);
}

/* Records on the op being built the cycle ge_cycles found through the node
** being added (_onnx_ge_cycle), unless it is the node reading its own
** output that define_out already reported. 0 on a builder failure. */
static int mark_cycle(ox *x){
  uint32_t id;
  const char *d = x->cyc && x->gi < x->gnodes->n ? x->cyc[x->gi] : NULL;
  if( d==NULL || x->self_marked ) return 1;
  return gr_build_str(x->b, d, strlen(d), &id)
      && gr_build_attr_s_ids(x->b, key_id(x, &x->k_cycle, "_onnx_ge_cycle"), id);
}

/* Records on the op being built the first input name of node o (or of the
** values its branches capture, cap) that names no tensor in scope s. One no
** node of the graph produces: GE's parser leaves it unconnected ("Unknown
** input ... which maybe option input", a warning), _onnx_unknown_input;
** one a later node produces (nodes out of topological order, which ONNX
** forbids): GE's parser connects it, the reader, reading in file order,
** cannot, _onnx_input_later. The rule set reports both. */
static int mark_unknown_input(ox *x, uint32_t s, const onode *o, const spans *cap){
  const span *u = NULL;
  uint32_t id;
  size_t i, ncap = cap ? cap->n : 0;
  int later = 0;
  /* the unresolved names: inputs, then captured values; one a later node
  ** produces links backwards, so GE's graph may loop (need_cycles) */
  for(i = 0; i < o->in.n + ncap; i++){
    const span *v = i < o->in.n ? &o->in.v[i] : &cap->v[i - o->in.n];
    if( i < o->in.n ? !v->n || x->inok.v[i] || has_nul(v->p, v->n) : lookup(x, s, v->p, v->n)!=NULL ) continue;
    if( u==NULL ) u = v;
    if( !later ) later = produced_later(x, *v);
  }
  if( u==NULL ) return 1;
  if( later ) need_cycles(x);
  return gr_build_str(x->b, (const char*)u->p, u->n, &id)
      && gr_build_attr_s_ids(x->b, produced_later(x, *u) ? key_id(x, &x->k_later, "_onnx_input_later")
                                                         : key_id(x, &x->k_unknown, "_onnx_unknown_input"), id);
}

/* Defines output i of node o in scope s (with hh, by its prefetched hash).
** A name an earlier node of the scope already produces keeps that producer
** (ONNX names every tensor once), and the first such name of the node is
** recorded on the op being built (*again set): GE's parser links each reader
** of a name to the last producer in node order (onnx_parser.cc
** SetOperatorInputs: SetInput, once per producer), so its readers may differ,
** _onnx_output_again; when o itself reads the name, GE's graph has a cycle
** through o, _onnx_reads_own_output. The rule set reports both. 0 on a
** builder failure. */
static int define_out(ox *x, uint32_t s, const onode *o, size_t i, const prod *p, const struct nhash *hh, int *again){
  const span *u = &o->out.v[i];
  uint32_t id;
  size_t j;
  int self = 0;
  if( hh ? define_h(x, s, u->p, u->n, p, hh->out.v[i]) : define(x, s, u->p, u->n, p) ) return 1;
  if( u->n==0 || has_nul(u->p, u->n) || *again ) return 1;
  *again = 1;
  need_cycles(x);
  for(j = 0; j < o->in.n && !self; j++) self = o->in.v[j].n==u->n && memcmp(o->in.v[j].p, u->p, u->n)==0;
  x->self_marked |= self;
  return gr_build_str(x->b, (const char*)u->p, u->n, &id)
      && gr_build_attr_s_ids(x->b, key_id(x, &x->k_again, "_onnx_output_again"), id)
      && (!self || gr_build_attr_s_ids(x->b, key_id(x, &x->k_self, "_onnx_reads_own_output"), id));
}

/* Node inputs from .. from+n of the current op: the edges, then the input
** descs from the producers (a name nobody produces is, as GE says, "maybe
** option input": unconnected). */
static int connect(ox *x, size_t from, size_t n){
  size_t i;
  for(i = from; i < from + n && i < x->ins.n; i++){
    const prod *p = &x->ins.v[i];
    if( !gr_build_edge_id(x->b, x->inok.v[i] ? p->op : GR_NONE, x->inok.v[i] ? p->index : 0) ) return 0;
  }
  for(i = from; i < from + n && i < x->ins.n; i++){
    const prod *p = &x->ins.v[i];
    if( x->inok.v[i] && !gr_build_tensor_ids(x->b, 0, p->dtype, 0, p->shape==NO_SHAPE ? GR_SHAPE_UNKNOWN : p->shape) ) return 0;
  }
  return 1;
}

/* The op name of this node, prefix (subgraph) + name or <op_type>_<n>, in
** x->name; interned as *id. */
static int node_name(ox *x, const char *prefix, const onode *o, uint32_t *id){
  gr_buf *t = &x->name;
  t->n = 0;
  if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
  if( has_name(o->name) ){
    const struct nhash *h = &x->hs[x->cur];
    gr_buf_add(t, o->name.p, o->name.n);
    if( !prefix && h->valid ) return gr_build_str_h(x->b, t->p, t->n, h->name, id);
  }else { gr_buf_add(t, o->op.p, o->op.n); gr_buf_addc(t, '_'); add_u64(t, x->unnamed++); }
  return gr_build_str(x->b, t->p, t->n, id);
}

/* Queues a branch for reading after this graph, and records the If (the
** current op: an If maps to one IR op) as the branch's parent, so that a
** branch Data's _parent_node_index can be followed (gr_graph_graph_parent). */
static int queue_branch(ox *x, span g, const char *gname, const char *node, size_t nn, int idx, const char *which,
                        uint32_t parent, span *cap, size_t ncap, const spans *outs, int depth){
  pending pd;
  pd.g = g;
  pd.name = gr_xasprintf("%s/%.*s_%d_%s", gname, (int)nn, node, idx, which);
  if( !gr_build_subgraph(x->b, pd.name, strlen(pd.name)) ){ free(pd.name); free(cap); return 0; }
  pd.parent = parent;
  pd.captured = cap; pd.ncaptured = ncap;
  pd.nouts = outs->n;
  pd.outs = outs->n ? gr_xmalloc(outs->n * sizeof *pd.outs) : NULL;
  if( outs->n ) memcpy(pd.outs, outs->v, outs->n * sizeof *pd.outs);
  pd.depth = depth;
  gr_vec_push(x->queue, pd);
  return 1;
}

static int cmpspan(const void *a, const void *b){
  const span *p = a, *q = b;
  size_t n = p->n < q->n ? p->n : q->n;
  int c = n ? memcmp(p->p, q->p, n) : 0;     /* an absent name is NULL */
  return c ? c : (p->n > q->n) - (p->n < q->n);
}

/* Adds the names a branch graph's own nodes consume that it neither
** produces nor declares to *cap (once each, via the set scope `seen`), as
** GE's IfSubgraphAdapter gathers them (GetSubgraphsAllInputs): whether the
** enclosing graph defines them or not (an unconnected input of the If
** then), and not the names a branch nested in it reads (the adapter
** adapts graph after graph, breadth first). */
static int captures(ox *x, span g, uint32_t seen, spans *cap){
  pb_field f, h;
  uint32_t own = scope_new(x);
  prod one = mkprod(0, 0, 0, NO_SHAPE, 0);
  size_t i;
  x->used.n = 0;                    /* the reader's scratch: freed at its end, also after a malformed field */
  FOR_FIELDS(x, g, f, {
    if( f.wt!=PB_LEN ) continue;
    if( f.num==11 || f.num==5 ){          /* inputs, initializers: names */
      span sp = { f.data, f.len };
      FOR_FIELDS(x, sp, h, { if( h.wt==PB_LEN && ((f.num==11 && h.num==1) || (f.num==5 && h.num==8)) ) define(x, own, h.data, h.len, &one); });
    }else if( f.num==1 ){
      span sp = { f.data, f.len };
      FOR_FIELDS(x, sp, h, {
        if( h.wt==PB_LEN && h.num==2 ) define(x, own, h.data, h.len, &one);
        else if( h.wt==PB_LEN && h.num==1 && h.len ){ span u = { h.data, h.len }; gr_vec_push(x->used, u); }
      });
    }
  });
  for(i = 0; i < x->used.n; i++){
    span u = x->used.v[i];
    if( has_nul(u.p, u.n) || lookup(x, own, u.p, u.n) ) continue;
    if( define(x, seen, u.p, u.n, &one) ) gr_vec_push(*cap, u);
  }
  return 1;
}

/* The key and mapping rows of the node's op type (cached per type). */
static const opinfo *op_info(ox *x, const onode *o){
  uint64_t h = gr_hash_u64(gr_hash(o->domain.p, o->domain.n) * 31 ^ gr_hash(o->op.p, o->op.n));
  gr_idmap_it it = gr_idmap_probe(&x->op_index, h);
  uint32_t id;
  opinfo oi;
  gr_buf *t = &x->tmp;
  size_t i;
  const unsigned char *dp = o->domain.p;
  size_t dn = o->domain.n;
  while( gr_idmap_next(&x->op_index, &it, &id) ){
    const opinfo *c = &x->ops.v[id];
    if( c->domain.n==o->domain.n && c->op.n==o->op.n && (o->domain.n==0 || memcmp(c->domain.p, o->domain.p, o->domain.n)==0)
        && (o->op.n==0 || memcmp(c->op.p, o->op.p, o->op.n)==0) ) return c;
  }
  oi.domain = o->domain; oi.op = o->op;
  if( dn==0 ){ dp = (const unsigned char*)"ai.onnx"; dn = 7; }
  oi.found = 0; oi.ver = 0;
  for(i = x->nopsets; i-- > 0; )    /* a later duplicate entry wins */
    if( x->opset[i].dn==dn && memcmp(x->opset[i].d, dp, dn)==0 ){ oi.found = 1; oi.ver = x->opset[i].v; break; }
  oi.e = oi.found ? gr_opmap_find(x->map, (const char*)o->domain.p, o->domain.n, (const char*)o->op.p, o->op.n) : NULL;
  t->n = 0;
  gr_buf_add(t, dp, dn);
  if( oi.found ){ gr_buf_adds(t, "::"); if( oi.ver < 0 ){ gr_buf_addc(t, '-'); add_u64(t, (uint64_t)0 - (uint64_t)oi.ver); } else add_u64(t, (uint64_t)oi.ver); gr_buf_adds(t, "::"); }
  else gr_buf_adds(t, "::?::");
  gr_buf_add(t, o->op.p, o->op.n);
  if( has_nul((const unsigned char*)t->p, t->n) ){ gr_build_fail(x->b, 0, 0, "an op type or domain at byte %zu contains a NUL byte", off(x, o->op.p)); return NULL; }
  if( !gr_build_str(x->b, t->p, t->n, &oi.key) ) return NULL;
  gr_vec_push(x->ops, oi);
  gr_idmap_add(&x->op_index, h, (uint32_t)(x->ops.n - 1));
  return &x->ops.v[x->ops.n - 1];
}

static int is_constant_op(const onode *o){
  return default_domain(o->domain) && o->op.n==8 && memcmp(o->op.p, "Constant", 8)==0;
}

/* An output desc of the current op: dynamic [-2] when an input is, else a
** shape not known (GR_SHAPE_UNKNOWN). */
static int out_desc(ox *x, int dyn){ return gr_build_tensor_ids(x->b, 1, 0, 0, dyn ? x->sh_dyn : GR_SHAPE_UNKNOWN); }

/* The dtype of output j of the k-th IR op of a row with `yields`: the one
** the op's prototype fixes (table onnx_ir_output_dtypes), else, for output
** 0, the op's own (its row's or its first input's); else the dtype the
** model's value_info declares for the node output it yields, else, when
** the op's outputs are one dynamic output's (Split's y), output 0's; else
** none. */
static uint16_t yield_dtype(ox *x, const onode *o, const gr_onnx_row *row, uint32_t k, int j,
                            const uint16_t *opdt){
  const char *fixed = gr_opmap_output_dtype(x->map, row->ir[k].type, (size_t)j);
  size_t i;
  uint16_t dt = 0;
  if( fixed && gr_build_dtype(x->b, fixed, strlen(fixed), &dt) ) return dt;
  if( j==0 ) return opdt[k];
  for(i = 0; i < o->out.n && i < row->nyields; i++){
    const prod *vi;
    if( row->yields[i].src!=(int)k || row->yields[i].index!=j || o->out.v[i].n==0 ) continue;
    vi = lookup(x, x->vi_scope, o->out.v[i].p, o->out.v[i].n);
    if( vi && vi->dtype ) return vi->dtype;
  }
  return gr_opmap_one_dynamic_output(x->map, row->ir[k].type) ? opdt[k] : 0;
}

/* The output descriptors of the k-th IR op of a row with `yields`: output
** 0 and every later one the row yields. When the op gives the node's output
** 0 and the node's shape function inferred it (is, ish), the op has that
** shape and, unless its row or prototype fixes it (fixed_dt), that dtype. */
static int yield_descs(ox *x, const onode *o, const gr_onnx_row *row, uint32_t k, uint16_t *opdt,
                       uint32_t *opsh, const unsigned char *opdyn, const ishape *is, uint32_t ish, int fixed_dt){
  size_t i;
  int j, maxj = 0;
  for(i = 0; i < row->nyields; i++){
    const gr_onnx_in *y = &row->yields[i];
    if( y->src!=(int)k ) continue;
    if( y->index > maxj ) maxj = y->index;
    if( i==0 && y->index==0 && is ){
      if( !row->ir[k].model_dtype && row->ir[k].dtype_input < 0 && !fixed_dt ) opdt[k] = is->dtype;
      opsh[k] = ish;
    }
  }
  for(j = 0; j <= maxj; j++){
    uint32_t sh = j==0 ? inner_out_shape(x, opsh[k], opdyn[k], 0, NULL) : opdyn[k] ? x->sh_dyn : GR_SHAPE_UNKNOWN;
    if( !gr_build_tensor_ids(x->b, 1, yield_dtype(x, o, row, k, j, opdt), 0, sh) ) return 0;
  }
  return !gr_build_failed(x->b);
}

/* What the mapping's conditions see of a node. */
static void node_view(ox *x, const onode *o, gr_onnx_node_view *nv){
  size_t i;
  memset(nv, 0, sizeof *nv);
  x->named.n = 0;
  for(i = 0; i < o->in.n; i++){
    if( o->in.v[i].n ) nv->ninputs++;
    gr_vec_push(x->named, (unsigned char)(o->in.v[i].n!=0));
  }
  nv->named = x->named.v; nv->nnamed = x->named.n;
  nv->noutputs = o->out.n;
  nv->attrs = o->attrs.v; nv->nattrs = o->attrs.n;
  nv->caps = x->caps;
}

static int add_node(ox *x, uint32_t s, const char *prefix, const char *gname, onode *o, int depth){
  gr_build *b = x->b;
  size_t i;
  uint32_t name;
  int dyn = 0, r, again = 0;
  const gr_onnx_ir *ir = NULL;
  const gr_onnx_row *row = NULL;
  size_t nir = 0;
  gr_onnx_node_view nv;
  const opinfo *oi;
  spans cap = { 0 };
  const struct nhash *hh = cur_hashes(x, o->in.n, o->out.n);

  x->self_marked = 0;
  if( !node_name(x, prefix, o, &name) ) return 0;
  /* Constant: the parser maps it itself */
  if( is_constant_op(o) ){
    span tn; int64_t dt = 0; uint32_t sh = GR_SHAPE_UNKNOWN; int ext = 0;   /* no value: shape not known */
    uint16_t did;
    if( o->has_value && !tensor_head(x, o->value_tensor, &tn, &dt, &sh, &ext) ) return 0;
    did = dtype_id(x, dt);
    if( !gr_build_op_ids(b, name, ext ? x->t_fileconst : x->t_const, 0, 0)
        || !gr_build_attr_s_ids(b, x->k_node, name) || !gr_build_attr_s_ids(b, x->k_op, x->v_constant)
        || !gr_build_tensor_ids(b, 1, did, 0, sh) ) return 0;
    for(i = 0; i < o->out.n; i++){
      prod p = mkprod(name, (int32_t)i, did, o->has_value ? sh : NO_SHAPE, 0);
      if( o->has_value && !ext ) p.value = o->value_tensor;
      if( !define_out(x, s, o, i, &p, NULL, &again) ) return 0;
    }
    return mark_cycle(x);
  }
  if( (oi = op_info(x, o))==NULL ) return 0;
  gather(x, s, o, hh, &dyn);
  node_view(x, o, &nv);
  r = oi->e ? gr_opmap_match(oi->e, oi->ver, &nv, &row) : 0;
  if( r==1 ){ ir = row->ir; nir = row->nir; }
  /* If: its branches, and the values they capture as extra inputs */
  if( r==1 && o->nbranch_attrs ){
    uint32_t seen = scope_new(x);
    if( depth >= MAX_NESTING )
      return gr_build_fail(b, 0, 0, "at byte %zu: If branches nested more than %d deep", off(x, o->then_g.p ? o->then_g.p : o->else_g.p), MAX_NESTING);
    if( (o->then_g.p && !captures(x, o->then_g, seen, &cap)) || (o->else_g.p && !captures(x, o->else_g, seen, &cap)) ){
      free(cap.v);
      return 0;
    }
    if( cap.n ) qsort(cap.v, cap.n, sizeof *cap.v, cmpspan);
  }
  if( r!=1 ){
    uint32_t type;
    /* not mapped: keep the ONNX op type; the rule set reports it */
    if( !gr_build_type(b, (const char*)o->op.p, o->op.n, &type)
        || !gr_build_op_ids(b, name, type, 0, 0)
        || !gr_build_attr_s_ids(b, x->k_node, name)
        || !gr_build_attr_s_ids(b, r==0 ? key_id(x, &x->k_unreg, "_onnx_unregistered") : key_id(x, &x->k_unparse, "_onnx_unparsable"),
                                oi->key)
        || !mark_unknown_input(x, s, o, NULL) || !connect(x, 0, o->in.n) ) return 0;
    for(i = 0; i < o->out.n; i++){
      prod p = mkprod(name, (int32_t)i, 0, dyn ? x->sh_dyn : NO_SHAPE, 0);
      if( !out_desc(x, dyn) || !define_out(x, s, o, i, &p, NULL, &again) ) return 0;
    }
    return mark_cycle(x);
  }
  /* mapped: the chain of IR ops; a plugin subgraph of more than one node
  ** besides Data has every node renamed PartitionedCall_<sub node>_<n>, n
  ** GE's global counter, which every node of such a subgraph advances
  ** (Data included; parser_utils.cc ExpandNodeToSubgraph) */
  {
    uint32_t prev = 0, k, opnames[GR_OPMAP_MAX_IR];
    /* an inner op's output dtype: the one its row states (`output "DTYPE"`:
    ** a Shape's, a Cast's dst_type), else its first input's, as the inner
    ** compute ops of GE's plugins (MatMulV2, Muls, Unsqueeze, ...) keep it */
    uint16_t opdt[GR_OPMAP_MAX_IR], d0;
    /* the shape of the op's input 0 (NO_SHAPE: none known) */
    uint32_t s0;
    /* a Const's shape when its row gives one (`output "DTYPE" [DIMS]`), else NO_SHAPE */
    uint32_t opsh[GR_OPMAP_MAX_IR];
    /* whether an inner op's output is dynamic: one of its own inputs is (an
    ** ONNX input or an inner op's output), not any input of the node: GE's
    ** InferShape gives an op of a plugin subgraph fed only by constants (a
    ** Resize's scales through an Identity) a static shape */
    unsigned char opdyn[GR_OPMAP_MAX_IR];
    size_t base = x->name.n;
    int renamed = row->nsub > 0 && nir > 1;
    uint64_t first = x->node_base;
    ishape is;
    uint32_t ish = 0;
    gr_oinfer in = { b, x->ins.v, x->inok.v, x->ins.n, x->dt, oi->ver };
    int known = o->out.n && gr_onnx_infer(&in, gr_opmap_shape(oi->e), o, &is) && gr_build_shape(b, is.d, is.nd, &ish);
    if( gr_build_failed(b) ){ free(cap.v); return 0; }
    for(k = 0; k < nir; k++){
      uint32_t opname, type;
      const char *fixed;
      int fixed_dt = 0;
      if( renamed ){
        gr_buf *t = &x->tmp;
        t->n = 0;
        gr_buf_adds(t, "PartitionedCall_");
        /* "=NAME": the plugin named the sub-node without the ONNX node's name */
        if( ir[k].suffix[0]=='=' ) gr_buf_adds(t, ir[k].suffix + 1);
        else{ gr_buf_add(t, x->name.p, base); gr_buf_adds(t, ir[k].suffix); }
        gr_buf_addc(t, '_');
        add_u64(t, first + (uint64_t)(ir[k].pos < 0 ? 0 : ir[k].pos));
        if( !gr_build_str(b, t->p, t->n, &opname) ){ free(cap.v); return 0; }
      }else if( ir[k].suffix[0] && row->nsub==0 ){
        x->name.n = base;
        gr_buf_adds(&x->name, ir[k].suffix);
        if( !gr_build_str(b, x->name.p, x->name.n, &opname) ){ free(cap.v); return 0; }
        x->name.n = base;
      }else opname = name;
      if( !gr_build_type(b, ir[k].type, strlen(ir[k].type), &type)
          || !gr_build_op_ids(b, opname, type, 0, 0)
          || !gr_build_attr_s_ids(b, x->k_node, name)
          || !gr_build_attr_s_ids(b, x->k_op, oi->key)
          || (k==0 && !mark_unknown_input(x, s, o, &cap)) ){ free(cap.v); return 0; }
      /* GE records the ONNX node on every node of a plugin subgraph */
      if( row->nsub > 0 ){
        if( !gr_build_list(b, "_datadump_original_op_names", 27, GR_ATTR_LIST_S)
            || !gr_build_list_s(b, x->name.p, base) ){ free(cap.v); return 0; }
        gr_build_list_end(b);
      }
      opnames[k] = opname;
      d0 = 0;
      s0 = NO_SHAPE;
      opdyn[k] = 0;
      if( ir[k].explicit_inputs ){
        size_t j;
        for(j = 0; j < ir[k].nin; j++){
          const gr_onnx_in *w = &ir[k].in[j];
          if( w->from_op ){
            /* an inner op's output 0 has its first input's dtype (below);
            ** a later one the dtype its prototype fixes, or output 0's
            ** where all are one dynamic output's (Split's y), else none */
            uint16_t dt = w->index==0 ? opdt[w->src] : 0;
            const char *fdt = w->index > 0 ? gr_opmap_output_dtype(x->map, ir[w->src].type, (size_t)w->index) : NULL;
            if( fdt ){ if( !gr_build_dtype(b, fdt, strlen(fdt), &dt) ){ free(cap.v); return 0; } }
            else if( w->index > 0 && gr_opmap_one_dynamic_output(x->map, ir[w->src].type) ) dt = opdt[w->src];
            int wd;
            uint32_t sh = inner_out_shape(x, opsh[w->src], opdyn[w->src], w->index, &wd);
            if( j==0 ){ d0 = dt; s0 = sh; }
            if( wd ) opdyn[k] = 1;
            if( !gr_build_edge_id(b, opnames[w->src], w->index) || !gr_build_tensor_ids(b, 0, dt, 0, sh) ){ free(cap.v); return 0; }
          }else if( (size_t)w->src < o->in.n && o->in.v[w->src].n ){
            if( j==0 && x->inok.v[w->src] ){ d0 = x->ins.v[w->src].dtype; s0 = x->ins.v[w->src].shape; }
            if( x->inok.v[w->src] && is_dynamic(x, &x->ins.v[w->src]) ) opdyn[k] = 1;
            if( !connect(x, (size_t)w->src, 1) ){ free(cap.v); return 0; }
          }
        }
      }else if( k==0 ){
        if( o->in.n && x->inok.v[0] ){ d0 = x->ins.v[0].dtype; s0 = x->ins.v[0].shape; }
        if( !connect(x, 0, o->in.n) ){ free(cap.v); return 0; }
        for(i = 0; i < cap.n; i++){
          const prod *p = lookup(x, s, cap.v[i].p, cap.v[i].n);
          if( !gr_build_edge_id(b, p ? p->op : GR_NONE, p ? p->index : 0) ){ free(cap.v); return 0; }
          if( p && is_dynamic(x, p) ) dyn = 1;
        }
        opdyn[k] = (unsigned char)dyn;
      }else{
        int pd;
        uint32_t sh = inner_out_shape(x, opsh[k - 1], opdyn[k - 1], 0, &pd);
        d0 = opdt[k - 1];
        s0 = sh;
        opdyn[k] = (unsigned char)pd;
        if( !gr_build_edge_id(b, prev, 0) || !gr_build_tensor_ids(b, 0, d0, 0, sh) ){ free(cap.v); return 0; }
      }
      opdt[k] = d0;
      opsh[k] = NO_SHAPE;
      /* an op whose row states its output's dtype (a Const's TensorDesc and
      ** shape, a Cast's dst_type, a Shape's dtype, as the plugin sets them):
      ** its output has them; the checker allows no shape but a Const's */
      if( ir[k].model_dtype || ir[k].dtype_input >= 0 ){
        /* `output "DTYPE"`, or attribute A's type (`output node.attr["A"]
        ** default ...`), else DTYPE or input N's (`default input N`) */
        int found = 0;
        int64_t elem = 0;
        size_t n = (size_t)ir[k].dtype_input;
        if( ir[k].dtype_attr && !attr_elem_type(x, o, ir[k].dtype_attr, &found, &elem) ){ free(cap.v); return 0; }
        if( found ) opdt[k] = dtype_id(x, elem);   /* the attribute's type (0: one GE has no DataType for) */
        else if( !ir[k].model_dtype ) opdt[k] = n < x->ins.n && x->inok.v[n] ? x->ins.v[n].dtype : 0;
        else if( !gr_build_dtype(b, ir[k].model_dtype, strlen(ir[k].model_dtype), &opdt[k]) ){ free(cap.v); return 0; }
        if( gr_build_failed(b) || (ir[k].ndims >= 0 && !gr_build_shape(b, ir[k].dims, (uint32_t)ir[k].ndims, &opsh[k])) ){ free(cap.v); return 0; }
      }else if( k < nir - 1 && (fixed = gr_opmap_output_dtype(x->map, ir[k].type, 0))!=NULL ){
        /* an inner op whose prototype fixes its output's dtype (table
        ** onnx_ir_output_dtypes): GE's InferShape gives it that one */
        if( !gr_build_dtype(b, fixed, strlen(fixed), &opdt[k]) ){ free(cap.v); return 0; }
        fixed_dt = 1;
      }
      /* an inner op whose InferShape copies input 0's shape (table
      ** onnx_ir_same_shape: Identity, Cast, Abs, ...) has it, where that is
      ** known; so a Shape of it sees the shape GE folds it from */
      if( opsh[k]==NO_SHAPE && k < nir - 1 && s0!=NO_SHAPE && s0!=GR_SHAPE_UNKNOWN && s0!=x->sh_dyn
          && gr_opmap_same_shape(x->map, ir[k].type) )
        opsh[k] = s0;
      /* the ONNX node's attributes: on the op that keeps its name and the
      ** last; in a plugin subgraph on every op but the Consts it adds */
      if( row->nsub > 0 ? type!=x->t_const : (k==nir - 1 || ir[k].suffix[0]==0) ){
        if( !copy_attrs(x, o, oi->e) ){ free(cap.v); return 0; }
      }
      if( row->nyields ){
        /* `yields`: the node's outputs are outputs of several ops (Unique's
        ** y and counts from one, an Empty between them) */
        if( !yield_descs(x, o, row, k, opdt, opsh, opdyn, known ? &is : NULL, ish, fixed_dt) ){ free(cap.v); return 0; }
        if( k==nir - 1 ){
          for(i = 0; i < o->out.n && i < row->nyields; i++){
            const gr_onnx_in *y = &row->yields[i];
            prod p = mkprod(opnames[y->src], y->index, yield_dtype(x, o, row, (uint32_t)y->src, y->index, opdt),
                            y->index==0 && opsh[y->src]!=NO_SHAPE ? opsh[y->src] : opdyn[y->src] ? x->sh_dyn : NO_SHAPE, 0);
            if( !define_out(x, s, o, i, &p, hh, &again) ){ free(cap.v); return 0; }
          }
          if( !mark_cycle(x) ){ free(cap.v); return 0; }
        }
      }else if( k==nir - 1 ){
        for(i = 0; i < o->out.n; i++){
          prod p = mkprod(opname, (int32_t)i, 0, opdyn[k] ? x->sh_dyn : NO_SHAPE, 0);
          /* an output whose dtype the plugin (the row's output "DTYPE") or
          ** the IR op's prototype (table onnx_ir_output_dtypes) fixes has
          ** it in GE's graph, whatever the model declares or ONNX's
          ** semantics give (TopK's indices: int32) */
          uint16_t fdt = 0;
          if( i==0 && ir[k].model_dtype ) fdt = opdt[k];   /* the row's own output "DTYPE" (ArgMin's dtype attribute) */
          else if( (fixed = gr_opmap_output_dtype(x->map, ir[k].type, i))!=NULL && !gr_build_dtype(b, fixed, strlen(fixed), &fdt) ){ free(cap.v); return 0; }
          ishape os;
          uint32_t osh = 0;
          if( i==0 && known ){
            p.dtype = fdt ? fdt : is.dtype; p.shape = ish;
            if( !gr_build_tensor_ids(b, 1, p.dtype, 0, ish) ){ free(cap.v); return 0; }
          }else if( i > 0 && known && gr_onnx_infer_output(&in, gr_opmap_shape(oi->e), o, i, &os) && gr_build_shape(b, os.d, os.nd, &osh) ){
            /* a later output its shape function gives (Split's parts) */
            p.dtype = fdt ? fdt : os.dtype; p.shape = osh;
            if( !gr_build_tensor_ids(b, 1, p.dtype, 0, osh) ){ free(cap.v); return 0; }
          }else{
            if( gr_build_failed(b) ){ free(cap.v); return 0; }
            /* not inferred: the dtype the model's value_info or graph
            ** outputs declare for the tensor, if any (its shape is not
            ** taken: GE re-infers it) */
            const prod *vi = o->out.v[i].n ? lookup(x, x->vi_scope, o->out.v[i].p, o->out.v[i].n) : NULL;
            int64_t elem = 0;
            if( vi ) p.dtype = vi->dtype;
            else if( is.dtype && (i==0 || gr_opmap_shape(oi->e)==GR_SF_DTYPE_OUTPUTS || gr_opmap_shape(oi->e)==GR_SF_SPLIT) )
              p.dtype = is.dtype;   /* a shape function that knew the dtype only (of every output: dtype_outputs, split) */
            else if( o->nbranch_attrs && (branch_out_elem(x, o->then_g, i, &elem) || branch_out_elem(x, o->else_g, i, &elem)
                                          || (elem = hint_elem(x, s, o->out.v[i])) > 0) ){
              p.dtype = dtype_id(x, elem);
              if( gr_build_failed(b) ){ free(cap.v); return 0; }
            }
            if( fdt ) p.dtype = fdt;
            if( !gr_build_tensor_ids(b, 1, p.dtype, 0, opdyn[k] ? x->sh_dyn : GR_SHAPE_UNKNOWN) ){ free(cap.v); return 0; }
          }
          if( !define_out(x, s, o, i, &p, hh, &again) ){ free(cap.v); return 0; }
        }
        if( !mark_cycle(x) ){ free(cap.v); return 0; }
      }else if( known && gr_opmap_inner_shaped(oi->e, ir[k].type) ){
        /* an inner op shaped like the node's output (onnx_inner_shapes);
        ** a dtype the row states stays */
        if( !ir[k].model_dtype && ir[k].dtype_input < 0 && !fixed_dt ) opdt[k] = is.dtype;
        opsh[k] = ish;             /* and its consumers see that shape (inner_out_shape) */
        if( !gr_build_tensor_ids(b, 1, opdt[k], 0, ish) ){ free(cap.v); return 0; }
      }else if( !gr_build_tensor_ids(b, 1, opdt[k], 0, inner_out_shape(x, opsh[k], opdyn[k], 0, NULL)) ){ free(cap.v); return 0; }
      prev = opname;
    }
  }
  {
    /* the node's name without the graph prefix */
    const char *nm = x->name.p + (prefix ? strlen(prefix) + 1 : 0);
    size_t nn = x->name.n - (prefix ? strlen(prefix) + 1 : 0);
    if( o->then_g.p ){
      span *c = cap.n ? gr_xmalloc(cap.n * sizeof *c) : NULL;
      if( cap.n ) memcpy(c, cap.v, cap.n * sizeof *c);
      if( !queue_branch(x, o->then_g, gname, nm, nn, 0, "then_branch", s, c, cap.n, &o->out, depth + 1) ){ free(cap.v); return 0; }
    }
    if( o->else_g.p ){
      span *c = cap.n ? gr_xmalloc(cap.n * sizeof *c) : NULL;
      if( cap.n ) memcpy(c, cap.v, cap.n * sizeof *c);
      if( !queue_branch(x, o->else_g, gname, nm, nn, 1, "else_branch", s, c, cap.n, &o->out, depth + 1) ){ free(cap.v); return 0; }
    }
  }
  free(cap.v);
  return 1;
}

/* Starts loading the hash slots a node will need (its name in the name
** pool, its inputs in the tensor-name table) while the node before it is
** processed: the tables are larger than the caches, and this hides most of
** the wait (measured: bench/readers.sh). */
static void prefetch_node(ox *x, uint32_t s, const char *prefix, span np){
  pb_cur c = { np.p, np.p + np.n };
  pb_field f;
  struct nhash *h = &x->hs[!x->cur];
  h->valid = 1; h->name = 0; h->in.n = h->out.n = 0;
  while( pb_next(&c, &f) > 0 ){
    if( f.wt!=PB_LEN ) continue;
    if( f.num==3 ){ h->name = gr_hash(f.data, f.len); if( !prefix ) gr_build_prefetch_str(x->b, h->name); }
    else if( f.num==1 || f.num==2 ){
      uint64_t th = tn_hash(f.data, f.len, s);
      if( f.num==1 ) gr_vec_push(h->in, th); else gr_vec_push(h->out, th);
      if( x->tn_index.nslots ) __builtin_prefetch(&x->tn_index.slots[(size_t)(th >> 32) & (x->tn_index.nslots - 1)]);
    }
  }
}

/* ---- graphs ---- */

typedef struct init { span name; span t; int64_t dt; uint32_t shape; int ext; } init;

static int cmp_init(const void *a, const void *b){ return cmpspan(&((const init*)a)->name, &((const init*)b)->name); }

/* The name field of a ValueInfoProto. */
static span vi_name(span vi){
  pb_cur c = { vi.p, vi.p + vi.n };
  pb_field f;
  span nm = { NULL, 0 };
  while( pb_next(&c, &f) > 0 ) if( f.num==1 && f.wt==PB_LEN ){ nm.p = f.data; nm.n = f.len; }
  return nm;
}

/* GE's counter at each node of this graph that a plugin subgraph of more
** than one node besides Data renames: the nodes are expanded in the order
** GE's graph builder added them (onnx_order.h), each advancing the global
** counter by its subgraph's node count. *base is NULL when no node of the
** graph is renamed; else base[i] is node i's first number, and
** x->pc_counter is advanced past the graph. The walk's operators: the
** graph's Data (captured values, then declared inputs that are no
** initializer), its initializers, its nodes; it starts from the Data, or,
** with none, from the Constant nodes (onnx_parser.cc GetGraphInputs). */
static int expansion_bases(ox *x, const spans *nodes, const spans *inputs, const span *init_names, size_t ninits,
                           size_t ncaptured, uint64_t **base){
  onode o;
  size_t i, k, nd = ncaptured, nops, nlinks = 0;
  uint32_t *ren = NULL, *order = NULL, sc;
  GR_VEC(uint32_t) starts = { 0 };
  GR_VEC(gr_ge_link) links = { 0 };
  GR_VEC(span) names = { 0 };            /* every node's inputs then outputs, flat */
  GR_VEC(size_t) at = { 0 };             /* node i's names start at at[i]; inputs at[i]..+nin */
  GR_VEC(uint32_t) nin = { 0 };
  int any = 0, ok = 1;
  prod one = mkprod(0, 0, 0, NO_SHAPE, 0);
  *base = NULL;
  memset(&o, 0, sizeof o);
  ren = gr_xcalloc(nodes->n + 1, sizeof *ren);
  for(i = 0; i < nodes->n && ok; i++){
    const opinfo *oi;
    gr_onnx_node_view nv;
    const gr_onnx_row *row = NULL;
    if( !parse_node(x, nodes->v[i], &o) ){ ok = 0; break; }
    gr_vec_push(at, names.n);
    gr_vec_push(nin, (uint32_t)o.in.n);
    for(k = 0; k < o.in.n; k++) gr_vec_push(names, o.in.v[k]);
    for(k = 0; k < o.out.n; k++) gr_vec_push(names, o.out.v[k]);
    if( is_constant_op(&o) ) continue;
    if( (oi = op_info(x, &o))==NULL ){ ok = 0; break; }
    node_view(x, &o, &nv);
    if( oi->e && gr_opmap_match(oi->e, oi->ver, &nv, &row)==1 && row->nsub > 0 && row->nir > 1 ){ ren[i] = (uint32_t)row->nsub; any = 1; }
  }
  gr_vec_push(at, names.n);
  free(o.in.v); free(o.out.v); free(o.attrs.v); free(o.attr_raw.v);
  if( !ok || !any ) goto out;
  /* the operators and the tensor names they produce, in a scope of their own */
  sc = scope_new(x);
  for(i = 0; i < ninits; i++){ prod p = one; p.op = (uint32_t)(ncaptured + i); p.is_init = 1; define(x, sc, init_names[i].p, init_names[i].n, &p); }
  for(i = 0; i < ncaptured; i++) gr_vec_push(starts, (uint32_t)i);
  {
    /* declared inputs that are no initializer: Data, numbered after the
    ** initializers' operators so that the initializers keep theirs */
    GR_VEC(span) data = { 0 };
    for(i = 0; i < inputs->n; i++){
      span nm = vi_name(inputs->v[i]);
      const prod *known;
      if( nm.n==0 || has_nul(nm.p, nm.n) ) continue;
      if( (known = lookup(x, sc, nm.p, nm.n))!=NULL && known->is_init ) continue;
      gr_vec_push(data, nm);
    }
    nd = ncaptured + data.n;
    for(i = 0; i < data.n; i++){
      prod p = one; p.op = (uint32_t)(ncaptured + ninits + i);
      define(x, sc, data.v[i].p, data.v[i].n, &p);
      gr_vec_push(starts, p.op);
    }
    free(data.v);
  }
  nops = nd + ninits + nodes->n;
  for(i = 0; i < nodes->n; i++){
    uint32_t op = (uint32_t)(nd + ninits + i);
    for(k = at.v[i] + nin.v[i]; k < at.v[i + 1]; k++){
      prod p = one; p.op = op; p.index = (int32_t)(k - at.v[i] - nin.v[i]);
      if( names.v[k].n ) define(x, sc, names.v[k].p, names.v[k].n, &p);
    }
  }
  if( starts.n==0 )
    for(i = 0; i < nodes->n; i++)
      if( nin.v[i]==0 ) gr_vec_push(starts, (uint32_t)(nd + ninits + i));
  /* the links, consumers in node order */
  for(i = 0; i < nodes->n; i++)
    for(k = 0; k < nin.v[i]; k++){
      const span *nm = &names.v[at.v[i] + k];
      const prod *p;
      gr_ge_link l;
      if( nm->n==0 || (p = lookup(x, sc, nm->p, nm->n))==NULL ) continue;
      l.src = p->op; l.src_out = (uint32_t)p->index; l.dst = (uint32_t)(nd + ninits + i); l.dst_in = (uint32_t)k;
      gr_vec_push(links, l);
      nlinks++;
    }
  order = gr_xmalloc((nops + 1) * sizeof *order);
  if( !gr_ge_walk_order(nops, links.v, nlinks, starts.v, starts.n, order) ){ ok = gr_build_fail(x->b, 0, 0, "the graph is too large to order"); goto out; }
  *base = gr_xcalloc(nodes->n + 1, sizeof **base);
  for(i = 0; i < nops; i++){
    uint32_t op = order[i];
    if( op < nd + ninits ) continue;
    op -= (uint32_t)(nd + ninits);
    if( ren[op] ){ (*base)[op] = x->pc_counter; x->pc_counter += ren[op]; }
  }
out:
  free(ren); free(order); free(starts.v); free(links.v); free(names.v); free(at.v); free(nin.v);
  return ok;
}

/* After branch graph g (scope s) is read: for each output of the If (outs,
** in scope parent) still without a dtype, the dtype of the branch's output
** at the same place, for the next read (if_hints). */
static void record_hints(ox *x, uint32_t s, const spans *gouts, uint32_t parent, const span *outs, size_t nouts){
  size_t i;
  for(i = 0; i < nouts && i < gouts->n; i++){
    const prod *q = outs[i].n ? lookup(x, parent, outs[i].p, outs[i].n) : NULL;
    span nm = vi_name(gouts->v[i]);
    const prod *r = nm.n ? lookup(x, s, nm.p, nm.n) : NULL;
    if_hint h;
    if( q==NULL || q->dtype || r==NULL || r->dtype==0 ) continue;
    h.scope = parent; h.name = outs[i]; h.elem = elem_of(x, r->dtype);
    if( h.elem ) gr_vec_push(x->hints->v, h);
  }
}

static int read_graph(ox *x, span g, const char *gname_in, uint32_t parent, int has_parent, span *captured, size_t ncaptured,
                      const span *outs, size_t nouts, int depth){
  gr_build *b = x->b;
  pb_field f;
  spans nodes = { 0 }, inputs = { 0 }, vinfo = { 0 }, gouts = { 0 };
  GR_VEC(init) inits = { 0 };
  span gname = { NULL, 0 };
  uint32_t s = scope_new(x);
  const char *prefix = has_parent ? gname_in : NULL;
  const char *gn;
  size_t i;
  int64_t index = 0;
  uint64_t *base = NULL;
  onode o;
  memset(&o, 0, sizeof o);
  {
    /* not FOR_FIELDS: a malformed field must free the vectors (goto out) */
    pb_cur c = { g.p, g.p + g.n };
    int r;
    while( (r = pb_next(&c, &f)) > 0 ){
      if( f.wt!=PB_LEN ) continue;
      if( f.num==1 ){ span sp = { f.data, f.len }; gr_vec_push(nodes, sp); }
      else if( f.num==2 ){ gname.p = f.data; gname.n = f.len; }
      else if( f.num==5 ){ init in; memset(&in, 0, sizeof in); in.t.p = f.data; in.t.n = f.len; gr_vec_push(inits, in); }
      else if( f.num==11 ){ span sp = { f.data, f.len }; gr_vec_push(inputs, sp); }
      else if( f.num==13 || f.num==12 ){   /* value_info, output (onnx.proto GraphProto) */
        span sp = { f.data, f.len };
        gr_vec_push(vinfo, sp);
        if( f.num==12 ) gr_vec_push(gouts, sp);
      }
    }
    if( r < 0 ){ bad(x, c.p, "a field's tag or length is invalid or runs past the end"); goto out; }
  }
  /* a branch sees the enclosing graph only through its captured Data nodes */
  if( has_parent ) gn = gname_in;
  else gn = gname.n && !has_nul(gname.p, gname.n) ? gr_arena_strndup(&x->arena, (const char*)gname.p, gname.n) : "";
  if( !gr_build_graph(b, gn, strlen(gn)) ) goto out;
  /* every op and tensor name of the graph, about: no rehash on the way */
  gr_build_reserve(b, nodes.n + 2 * inits.n + inputs.n + ncaptured);
  {
    size_t want = x->tn.n + nodes.n + inits.n + inputs.n + ncaptured;
    gr_idmap_reserve(&x->tn_index, want);
    if( x->tn.cap < want ){ x->tn.v = gr_xrealloc(x->tn.v, want * sizeof *x->tn.v); x->tn.cap = want; }
  }
  /* initializers, in sorted name order */
  for(i = 0; i < inits.n; i++)
    if( !tensor_head(x, inits.v[i].t, &inits.v[i].name, &inits.v[i].dt, &inits.v[i].shape, &inits.v[i].ext) ) goto out;
  if( inits.n ) qsort(inits.v, inits.n, sizeof *inits.v, cmp_init);
  for(i = 0; i < inits.n; i++){
    const init *in = &inits.v[i];
    gr_buf *t = &x->tmp;
    uint32_t nm, onnx_name;
    uint16_t did = dtype_id(x, in->dt);
    prod p;
    if( has_nul(in->name.p, in->name.n) ){ gr_build_fail(b, 0, 0, "an initializer name at byte %zu contains a NUL byte", off(x, in->name.p)); goto out; }
    t->n = 0;
    if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
    gr_buf_add(t, in->name.p, in->name.n);
    gr_buf_adds(t, "_Initializer_");
    add_u64(t, i);
    if( !gr_build_str(b, t->p, t->n, &nm) || !gr_build_str(b, (const char*)in->name.p, in->name.n, &onnx_name)
        || !gr_build_op_ids(b, nm, in->ext ? x->t_fileconst : x->t_const, 0, 0)
        || !gr_build_attr_s_ids(b, x->k_node, onnx_name)
        || !gr_build_attr_s_ids(b, x->k_op, x->v_init)
        || !gr_build_tensor_ids(b, 1, did, 0, in->shape) ) goto out;
    p = mkprod(nm, 0, did, in->shape, 1);
    if( !in->ext ) p.value = in->t;
    define(x, s, in->name.p, in->name.n, &p);
  }
  /* captured values first, then the declared inputs: Data nodes */
  for(i = 0; i < ncaptured; i++){
    const prod *pp = lookup(x, parent, captured[i].p, captured[i].n);
    prod outer = pp ? *pp : mkprod(0, 0, 0, NO_SHAPE, 0), p;
    gr_buf *t = &x->tmp;
    uint32_t nm, sh = outer.shape==NO_SHAPE ? GR_SHAPE_UNKNOWN : outer.shape;
    t->n = 0;
    gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); gr_buf_add(t, captured[i].p, captured[i].n);
    if( !gr_build_str(b, t->p, t->n, &nm) || !gr_build_op_ids(b, nm, x->t_data, 0, 0) || !gr_build_attr_i_id(b, x->k_index, index++)
        || !gr_build_attr_i_id(b, x->k_parent, (int64_t)i + 1)
        || !gr_build_tensor_ids(b, 1, outer.dtype, 0, sh) ) goto out;
    p = mkprod(nm, 0, outer.dtype, outer.shape, 0);
    define(x, s, captured[i].p, captured[i].n, &p);
  }
  for(i = 0; i < inputs.n; i++){
    span nm; int64_t elem; uint32_t sh, on;
    gr_buf *t = &x->tmp;
    const prod *known;
    uint16_t did;
    prod p;
    if( !value_info(x, inputs.v[i], &nm, &elem, &sh) ) goto out;
    if( nm.n==0 || has_nul(nm.p, nm.n) ) continue;
    if( (known = lookup(x, s, nm.p, nm.n))!=NULL && known->is_init ) continue;   /* an initializer-backed input is a Const */
    t->n = 0;
    if( prefix ){ gr_buf_adds(t, prefix); gr_buf_addc(t, '/'); }
    gr_buf_add(t, nm.p, nm.n);
    did = dtype_id(x, elem);
    if( !gr_build_str(b, t->p, t->n, &on) || !gr_build_op_ids(b, on, x->t_data, 0, 0) || !gr_build_attr_i_id(b, x->k_index, index++)
        || !gr_build_tensor_ids(b, 1, did, 0, sh) ) goto out;
    p = mkprod(on, 0, did, sh, 0);
    define(x, s, nm.p, nm.n, &p);
  }
  {
    span *in_names = inits.n ? gr_xmalloc(inits.n * sizeof *in_names) : NULL;
    for(i = 0; i < inits.n; i++) in_names[i] = inits.v[i].name;
    i = expansion_bases(x, &nodes, &inputs, in_names, inits.n, ncaptured, &base);
    free(in_names);
    if( !i ) goto out;
  }
  /* the dtypes value_info and the graph's outputs declare */
  x->vi_scope = scope_new(x);
  x->gnodes = &nodes; x->has_produced = 0;
  x->cyc = NULL; x->cyc_done = 0; x->gprefix = prefix;
  for(i = 0; i < vinfo.n; i++){
    span nm; int64_t elem = 0;
    pb_cur c = { vinfo.v[i].p, vinfo.v[i].p + vinfo.v[i].n }, c2, c3;
    pb_field f1, f2, f3;
    nm.p = NULL; nm.n = 0;
    while( pb_next(&c, &f1) > 0 ){
      if( f1.num==1 && f1.wt==PB_LEN ){ nm.p = f1.data; nm.n = f1.len; }
      else if( f1.num==2 && f1.wt==PB_LEN ){
        c2.p = f1.data; c2.end = f1.data + f1.len;
        while( pb_next(&c2, &f2) > 0 ) if( f2.num==1 && f2.wt==PB_LEN ){
          c3.p = f2.data; c3.end = f2.data + f2.len;
          while( pb_next(&c3, &f3) > 0 ) if( f3.num==1 && f3.wt==PB_VARINT ) elem = (int64_t)f3.v;
        }
      }
    }
    if( nm.n && elem > 0 && elem < 23 ){
      prod p = mkprod(0, 0, dtype_id(x, elem), NO_SHAPE, 0);
      if( gr_build_failed(b) ) goto out;
      define(x, x->vi_scope, nm.p, nm.n, &p);
    }
  }
  x->hs[0].valid = x->hs[1].valid = 0;
  for(i = 0; i < nodes.n; i++){
    x->node_base = base ? base[i] : 0;
    x->cur = !x->cur;                 /* the hashes the last prefetch computed: node i's */
    x->hs[!x->cur].valid = 0;
    if( i + 1 < nodes.n ) prefetch_node(x, s, prefix, nodes.v[i + 1]);
    if( !parse_node(x, nodes.v[i], &o) ) goto out;
    x->gi = i;
    if( !add_node(x, s, prefix, gn, &o, depth) ) goto out;
  }
  if( has_parent ) record_hints(x, s, &gouts, parent, outs, nouts);
out:
  if( x->cyc ){
    for(i = 0; i < nodes.n; i++) free(x->cyc[i]);
    free(x->cyc);
    x->cyc = NULL;
  }
  x->gnodes = NULL;
  free(base);
  free(nodes.v); free(inputs.v); free(inits.v); free(vinfo.v); free(gouts.v);
  free(o.in.v); free(o.out.v); free(o.attrs.v); free(o.attr_raw.v);
  return !gr_build_failed(b);
}

/* The ids every node uses, interned once. */
static int common_ids(ox *x){
  gr_build *b = x->b;
  static const int64_t dyn[1] = { -2 };
  memset(x->dt, 0xff, sizeof x->dt);
  x->k_unreg = x->k_unparse = x->k_unknown = x->k_later = x->k_again = x->k_self = x->k_cycle = NO_KEY;
  return gr_build_str(b, "_onnx_node", 10, &x->k_node) && gr_build_str(b, "_onnx_op", 8, &x->k_op)
      && gr_build_str(b, "index", 5, &x->k_index) && gr_build_str(b, "_parent_node_index", 18, &x->k_parent)
      && gr_build_str(b, "initializer", 11, &x->v_init) && gr_build_str(b, "Constant", 8, &x->v_constant)
      && gr_build_type(b, "Const", 5, &x->t_const) && gr_build_type(b, "FileConstant", 12, &x->t_fileconst)
      && gr_build_type(b, "Data", 4, &x->t_data) && gr_build_shape(b, dyn, 1, &x->sh_dyn);
}

/* One read of the model, with the If output dtypes earlier reads found. */
static gr_graph *read_once(const unsigned char *p, size_t n, const struct gr_opmap *map, const uint8_t *caps,
                           if_hints *hints, gr_error *err){
  ox x;
  pb_field f, h;
  span graph = { NULL, 0 };
  gr_graph *g;
  size_t i;
  int64_t ai_onnx = 0;
  int ok = 1;
  memset(&x, 0, sizeof x);
  x.b = gr_build_new();
  x.hints = hints;
  x.map = map;
  x.caps = caps;
  x.base = p;
  gr_arena_init(&x.arena);
  gr_buf_init(&x.tmp); gr_buf_init(&x.name);
  gr_idmap_init(&x.tn_index); gr_idmap_init(&x.op_index);
  ok = common_ids(&x);
  {
    pb_cur c = { p, p + n };
    int r = 0;
    while( ok && (r = pb_next(&c, &f)) > 0 ){
      if( f.num==7 && f.wt==PB_LEN ){ graph.p = f.data; graph.n = f.len; }
      else if( f.num==8 && f.wt==PB_LEN ){
        pb_cur c2 = { f.data, f.data + f.len };
        const char *d = ""; size_t dn = 0; int64_t v = 0; int r2;
        while( (r2 = pb_next(&c2, &h)) > 0 ){
          if( h.num==1 && h.wt==PB_LEN ){ d = (const char*)h.data; dn = h.len; }
          else if( h.num==2 && h.wt==PB_VARINT ) v = (int64_t)h.v;
        }
        if( r2 < 0 ){ bad(&x, c2.p, "a malformed opset_import entry"); ok = 0; break; }
        if( dn==0 ){ d = "ai.onnx"; dn = 7; }
        if( x.nopsets==MAX_OPSETS ){ gr_build_fail(x.b, 0, 0, "at byte %zu: more than %d opset_import entries", off(&x, f.data), MAX_OPSETS); ok = 0; break; }
        x.opset[x.nopsets].d = d; x.opset[x.nopsets].dn = dn; x.opset[x.nopsets].v = v; x.nopsets++;
        if( dn==7 && memcmp(d, "ai.onnx", 7)==0 ) ai_onnx = v;
      }
    }
    if( ok && r < 0 ){ bad(&x, c.p, "a field's tag or length is invalid or runs past the end"); ok = 0; }
  }
  if( ok && graph.p==NULL ){ gr_build_fail(x.b, 0, 0, "at byte %zu (the end): the ONNX model has no graph (GE: E16004 \"ONNX model has no graph.\")", n); ok = 0; }
  if( ok ) ok = read_graph(&x, graph, NULL, 0, 0, NULL, 0, NULL, 0, 0);
  for(i = 0; ok && i < x.queue.n; i++){
    pending pd = x.queue.v[i];
    ok = read_graph(&x, pd.g, pd.name, pd.parent, 1, pd.captured, pd.ncaptured, pd.outs, pd.nouts, pd.depth);
  }
  for(i = 0; i < x.queue.n; i++){ free(x.queue.v[i].name); free(x.queue.v[i].captured); free(x.queue.v[i].outs); }
  gr_vec_free(x.queue);
  gr_idmap_free(&x.tn_index); gr_vec_free(x.tn);
  gr_idmap_free(&x.op_index); gr_vec_free(x.ops);
  gr_vec_free(x.dims); gr_vec_free(x.ins); gr_vec_free(x.inok); gr_vec_free(x.named); gr_vec_free(x.used);
  for(i = 0; i < 2; i++){ gr_vec_free(x.hs[i].in); gr_vec_free(x.hs[i].out); }
  gr_buf_free(&x.tmp); gr_buf_free(&x.name);
  g = gr_build_finish(x.b, err);
  gr_arena_free(&x.arena);
  if( g ) gr_graph_set_format(g, GR_FMT_ONNX, ai_onnx);
  return g;
}

/* Sorts this read's hints in with the earlier ones; of two for one output
** (its two branches), the one of the lower elem type, whatever the order
** they came in. */
static void merge_hints(if_hints *h){
  size_t i, k = 0;
  qsort(h->v.v, h->v.n, sizeof *h->v.v, cmp_hint_elem);
  for(i = 0; i < h->v.n; i++)
    if( k==0 || cmp_hint(&h->v.v[k - 1], &h->v.v[i])!=0 ) h->v.v[k++] = h->v.v[i];
  h->v.n = h->nsorted = k;
}

/* Reads are repeated while one finds a dtype for an If output that the
** read before it left without one (if_hints), each read typing the outputs
** of at least one more level of nested Ifs, at most MAX_READS times. A model whose
** If outputs are typed (or that has no If) is read once. */
#define MAX_READS 16

gr_graph *gr_read_onnx(const unsigned char *p, size_t n, const struct gr_opmap *map, const uint8_t *caps, gr_error *err){
  if_hints h;
  gr_graph *g;
  int k;
  memset(&h, 0, sizeof h);
  for(k = 1; ; k++){
    g = read_once(p, n, map, caps, &h, err);
    if( g==NULL || h.v.n==h.nsorted || k==MAX_READS ) break;
    merge_hints(&h);
    gr_graph_free(g);
  }
  gr_vec_free(h.v);
  return g;
}
