/*
** graph_load.c: the streaming loader for the JSON that `atc --mode=1` writes
** (a GE ModelDef passed through Pb2Json). The input is read in 256 KiB chunks
** (or taken whole from memory) by the tokenizer of json_scan.h, which
** checks the JSON itself; a recursive-descent parser over its tokens, one
** function per object kind of the schema (model, graph, op, tensor desc,
** shape, attr, attr value, list), writes every op straight into the flat
** arrays of graph.h: names and strings are interned as they arrive, shapes
** are interned by dim vector, no tree of the file is ever built. Unknown
** fields are skipped whatever their value (validated, not decoded), and null
** stands for an absent field. Edge sources are kept as name ids while
** reading and resolved per graph at the end, which is also where duplicate op
** names are found. Every error is located (1-based line and byte column,
** counted lazily by the tokenizer) at the offending value, at the op object
** for graph-level errors, or at the byte where the JSON went wrong. Op
** positions (gr_node.line/col) are exact: the op's opening '{'.
*/
#include "config.h"
#include "model/graph.h"
#include "model/json_scan.h"
#include "model/readers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK      (256u << 10)
#define MAX_DEPTH  256

/* What a value means, for type errors: its field, whether it is an array
** element, and what it accepts. */
typedef struct want { const char *field; unsigned char elem; const char *expect; } want;

static const want
  W_MODEL_NAME   = { "name", 0, "a string" },
  W_MODEL_GRAPH  = { "graph", 0, "an array" },
  W_MODEL_ATTR   = { "attr", 0, "an array" },
  W_GRAPH_ELEM   = { "graph", 1, "an object" },
  W_GRAPH_NAME   = { "name", 0, "a string" },
  W_GRAPH_OP     = { "op", 0, "an array" },
  W_OP_ELEM      = { "op", 1, "an object" },
  W_OP_NAME      = { "name", 0, "a string" },
  W_OP_TYPE      = { "type", 0, "a string" },
  W_OP_INPUT     = { "input", 0, "an array" },
  W_INPUT_ELEM   = { "input", 1, "a string" },
  W_OP_ATTR      = { "attr", 0, "an array" },
  W_ATTR_ELEM    = { "attr", 1, "an object" },
  W_OP_INDESC    = { "input_desc", 0, "an array" },
  W_OP_OUTDESC   = { "output_desc", 0, "an array" },
  W_DESC_ELEM    = { "input_desc/output_desc", 1, "an object" },
  W_DESC_ATTR    = { "attr", 0, "an array" },
  W_DATTR_ELEM   = { "attr", 1, "an object" },
  W_OP_SUBGRAPH  = { "subgraph_name", 0, "an array" },
  W_SUBGRAPH_ELEM = { "subgraph_name", 1, "a string" },
  W_ATTR_KEY     = { "key", 0, "a string" },
  W_ATTR_VALUE   = { "value", 0, "an object" },
  W_AV_S         = { "s", 0, "a string" },
  W_AV_I         = { "i", 0, "an integer" },
  W_AV_F         = { "f", 0, "a number or a numeric string" },
  W_AV_B         = { "b", 0, "a boolean" },
  W_AV_DT        = { "dt", 0, "a string or an integer" },
  W_AV_LIST      = { "list", 0, "an object" },
  W_LIST_VALTYPE = { "val_type", 0, "a string or an integer" },
  W_LIST_S       = { "s", 0, "an array" },
  W_LIST_I       = { "i", 0, "an array" },
  W_LIST_F       = { "f", 0, "an array" },
  W_LIST_B       = { "b", 0, "an array" },
  W_LS_ELEM      = { "s", 1, "a string" },
  W_LI_ELEM      = { "i", 1, "an integer" },
  W_LF_ELEM      = { "f", 1, "a number" },
  W_LB_ELEM      = { "b", 1, "a boolean" },
  W_DESC_DTYPE   = { "dtype", 0, "a string or an integer" },
  W_DESC_SHAPE   = { "shape", 0, "an object" },
  W_DESC_LAYOUT  = { "layout", 0, "a string" },
  W_SHAPE_DIM    = { "dim", 0, "an array" },
  W_DIM_ELEM     = { "dim", 1, "an integer" };

/* Front caches for interning: direct mapped, each slot the id+1 (0 = empty)
** and the length of a pooled string; a hit is confirmed against the pool, so
** a collision only costs a miss. The small ones serve the few distinct op
** types, dtypes, layouts, attribute keys and string values; the name cache
** serves edge sources, which mostly name a recently defined op. */
#define SMALL_CACHE 64
#define NAME_CACHE  8192
enum { C_TYPE, C_DTYPE, C_LAYOUT, C_KEY, C_SVAL, C_COUNT };
typedef struct centry { uint32_t id1, len; } centry;

/* An input written without ':' (rare), remembered to quote it exactly. */
typedef struct nocolon { uint32_t node, pos; } nocolon;

typedef struct loader {
  gr_graph *g;
  gr_error e;
  int failed;
  gr_js js;
  gr_js_tok t;                             /* the token just read */
  /* current objects (indexes, the arrays may move) */
  uint32_t cur_graph, cur_node, cur_tensor, cur_attr;
  int attr_desc;                           /* cur_attr is in dattrs (an input descriptor's) */
  uint32_t cur_dix;                        /* the current input descriptor's dix entry, GR_NONE */
  int edge_sort, tensor_sort;
  unsigned char *tkind;                    /* per tensor of the current op: 1 = output */
  /* the list attribute being read */
  uint32_t list_kind, list_n; uint64_t list_first; int list_vt, list_other;
  /* dims of the shape being read */
  int64_t *dimv; size_t ndim, cap_dim;
  /* what the scanner may recall (json_scan.h), about 22 KB together, so on
  ** the heap rather than in the loader a caller's stack holds */
  gr_js_intmemo *dims_seen;                /* dims arrays read whole, with their shape ids */
  gr_js_objmemo *descs_seen;               /* tensor descriptors without attributes, with their fields */
  gr_js_objmemo *attrs_seen;               /* attributes without lists, with their entries */
  GR_VEC(nocolon) nocolon;
  gr_buf tmp;
  /* the current op's name, interned when the op ends (see parse_op) */
  gr_buf pname; int has_pname; uint64_t pname_hash;
  centry small[C_COUNT][SMALL_CACHE];
  centry *names;                           /* NAME_CACHE entries */
  /* what the top-level object held, to tell a GE ModelDef from other JSON */
  int strict;                              /* fail unless it is a ModelDef */
  int seen_graph;                          /* a "graph" member */
  const char *foreign;                     /* what the first member naming another format says */
  uint32_t foreign_line, foreign_col;      /* where that member is */
  uint32_t top_line, top_col;              /* the top-level '{' */
  /* the keys of each object kind, for member_in */
  gr_js_keyset ks_op, ks_desc, ks_shape, ks_attr, ks_value, ks_list;
} loader;

/* ---- errors ---- */

static int vfail(loader *l, uint32_t line, uint32_t col, const char *fmt, va_list ap){
  if( !l->failed ){
    l->failed = 1;
    l->e.line = line; l->e.col = col;
    vsnprintf(l->e.msg, sizeof l->e.msg, fmt, ap);
  }
  return 0;
}

/* Fails at the token just read. */
static int fail_tok(loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_tok(loader *l, const char *fmt, ...){
  va_list ap;
  uint32_t line, col;
  gr_js_pos(&l->js, l->t.off, &line, &col);
  va_start(ap, fmt); vfail(l, line, col, fmt, ap); va_end(ap);
  return 0;
}

static int fail_node(loader *l, const gr_node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_node(loader *l, const gr_node *n, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt); vfail(l, n->line, n->col, fmt, ap); va_end(ap);
  return 0;
}

/* The tokenizer's error (malformed JSON, depth, read failure). */
static int scan_failed(loader *l){
  if( !l->failed ){
    l->failed = 1;
    l->e = *gr_js_error(&l->js);
  }
  return 0;
}

/* The token just read does not fit `w` (or the scan failed). */
static int bad_type(loader *l, const want *w){
  if( l->t.type==GR_JS_ERROR ) return scan_failed(l);
  if( l->t.flags & GR_JS_BIGINT && strstr(w->expect, "integer") )
    return fail_tok(l, "integer out of range for \"%s\"", w->field);
  return fail_tok(l, "expected %s %s \"%s\"", w->expect, w->elem ? "in" : "for", w->field);
}

/* ---- tokens ---- */

static inline __attribute__((always_inline)) int next(loader *l){ return gr_js_next_fast(&l->js, &l->t); }

/* Skips the value of a member whose key was just read. */
static int skip_value(loader *l){
  if( next(l)==GR_JS_ERROR || !gr_js_skip(&l->js, &l->t) ) return scan_failed(l);
  return 1;
}

/* ---- array growth ---- */

static int grow(loader *l, void **p, size_t *cap, size_t n, size_t elsz){
  return gr_graph_grow(p, cap, n, elsz) || fail_tok(l, "graph too large (more than %u entries in one table)", GR_MAX_IDS);
}
#define GROW(l, arr, n, cap) \
  ((n) < (cap) || grow((l), (void**)&(arr), &(cap), (n), sizeof *(arr)))

/* ---- strings ---- */

/* Whether the text s, n of the token just read may be kept. */
static int check_str(loader *l, const gr_strpool *p, const char *s, size_t n){
  if( n > GR_MAX_STR ) return fail_tok(l, "string longer than %u bytes", GR_MAX_STR);
  if( (l->t.flags & GR_JS_ESCAPED) && memchr(s, 0, n) ) return fail_tok(l, "string contains a NUL character");
  if( p->nbytes + n + 1 > 0xffffffffu ) return fail_tok(l, "too much string data (more than 4 GiB)");
  return 1;
}

/* Interns the text s, n of the token just read. */
static int intern(loader *l, gr_strpool *p, const char *s, size_t n, uint32_t *id){
  if( !check_str(l, p, s, n) ) return 0;
  *id = gr_strpool_intern(p, s, n);
  return 1;
}

static int cache_hit(const gr_strpool *p, const centry *e, const char *s, size_t n){
  return e->id1 && e->len==n && memcmp(gr_strpool_get(p, e->id1 - 1), s, n)==0;
}

static int intern_small(loader *l, gr_strpool *p, unsigned c, const char *s, size_t n, uint32_t *id){
  const unsigned char *u = (const unsigned char*)s;
  centry *e = &l->small[c][n ? (n * 7u + u[0] * 31u + u[n - 1] * 131u + u[n >> 1] * 17u) & (SMALL_CACHE - 1) : 0];
  if( cache_hit(p, e, s, n) ){ *id = e->id1 - 1; return 1; }
  if( !intern(l, p, s, n, id) ) return 0;
  e->id1 = *id + 1; e->len = (uint32_t)n;
  return 1;
}

/* Edge sources: mostly a recently defined op. */
static int intern_source(loader *l, const char *s, size_t n, uint32_t *id){
  centry *e = &l->names[gr_hash(s, n) & (NAME_CACHE - 1)];
  if( cache_hit(&l->g->strs, e, s, n) ){ *id = e->id1 - 1; return 1; }
  if( !intern(l, &l->g->strs, s, n, id) ) return 0;
  e->id1 = *id + 1; e->len = (uint32_t)n;
  return 1;
}

/* An op's name: nearly always new, so interning it costs a cache miss on
** the pool's hash table. It is checked and copied now, its slot prefetched,
** and interned when the op ends (name_done), by which time the slot is in
** the cache. String ids are content-defined, so only their numbering can
** differ from interning it at once. */
static int name_start(loader *l, const char *s, size_t n){
  const gr_strpool *p = &l->g->strs;
  if( !check_str(l, p, s, n) ) return 0;
  l->pname.n = 0;
  gr_buf_add(&l->pname, s, n);
  l->has_pname = 1;
  l->pname_hash = gr_hash(s, n);
  gr_strpool_prefetch(p, l->pname_hash);
  return 1;
}

static int name_done(loader *l){
  gr_strpool *p = &l->g->strs;
  gr_node *nd = &l->g->nodes[l->cur_node];
  centry *e = &l->names[l->pname_hash & (NAME_CACHE - 1)];
  size_t n = l->pname.n;
  if( !l->has_pname ) return 1;
  l->has_pname = 0;
  if( p->nbytes + n + 1 > 0xffffffffu ) return fail_node(l, nd, "too much string data (more than 4 GiB)");
  nd->name = gr_strpool_intern_h(p, n ? l->pname.p : "", n, l->pname_hash);   /* hashed in name_start */
  e->id1 = nd->name + 1; e->len = (uint32_t)n;
  return 1;
}

/* For the uint16 dtype and layout tables. */
static int intern16(loader *l, gr_strpool *p, const char *s, size_t n, uint16_t *id){
  uint32_t v;
  if( !intern_small(l, p, p==&l->g->dtypes ? C_DTYPE : C_LAYOUT, s, n, &v) ) return 0;
  if( v > 0xffff ) return fail_tok(l, "more than 65535 distinct %s values", p==&l->g->dtypes ? "dtype" : "layout");
  *id = (uint16_t)v;
  return 1;
}

/* ---- numbers ---- */

/* 1 = integer in *v; 0 = not an integer (fraction or exponent); -1 = out of range. */
static int parse_i64(const char *s, size_t n, int64_t *v){
  uint64_t acc = 0, lim;
  size_t i = 0;
  int neg = 0;
  if( n && s[0]=='-' ){ neg = 1; i = 1; }
  if( i==n ) return 0;
  lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for(; i < n; i++){
    unsigned d = (unsigned char)s[i] - '0';
    if( d > 9 ) return 0;
    if( acc > (lim - d) / 10 ){
      for(; i < n; i++) if( (unsigned char)s[i] - '0' > 9 ) return 0;
      return -1;
    }
    acc = acc * 10 + d;
  }
  *v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
  return 1;
}

/* strtod over the whole text; 0 when it is not entirely a number. */
static int parse_f64(loader *l, const char *s, size_t n, double *v){
  char small[64], *p, *end;
  if( n==0 || s[0]==' ' || s[0]=='\t' || s[0]=='\n' || s[0]=='\r' || s[0]=='\f' || s[0]=='\v' ) return 0;
  if( n < sizeof small ) p = small;
  else { l->tmp.n = 0; gr_buf_grow(&l->tmp, n); p = l->tmp.p; }
  memcpy(p, s, n); p[n] = 0;
  if( memchr(p, 0, n) ) return 0;
  errno = 0;
  *v = strtod(p, &end);
  return end==p + n;
}

/* The double of a number token (already valid JSON); as strtod gives it
** (an int64 converts exactly rounded, and "-0" keeps its sign). */
static double num_value(loader *l){
  double d = 0;
  if( l->t.type==GR_JS_INT && !(l->t.i==0 && l->t.s[0]=='-') ) return (double)l->t.i;
  parse_f64(l, l->t.s, l->t.n, &d);
  return d;
}

/* ---- building ---- */

static gr_attr *cur_attr(loader *l){ return l->attr_desc ? &l->g->dattrs[l->cur_attr] : &l->g->attrs[l->cur_attr]; }

static int add_edge(loader *l, const char *c, size_t n){
  gr_graph *g = l->g;
  gr_node *nd = &g->nodes[l->cur_node];
  const char *colon = n ? memrchr(c, ':', n) : NULL;
  size_t nlen = colon ? (size_t)(colon - c) : n;
  int32_t idx = 0;
  uint32_t src = GR_NONE;
  if( colon ){
    int64_t v;
    if( parse_i64(colon + 1, n - nlen - 1, &v)!=1 || v < -1 || v > INT32_MAX )
      return fail_tok(l, "bad input index in \"%.*s\" (expected \"op:index\" with a decimal index, -1 for control)",
                      (int)(n > 200 ? 200 : n), c);
    idx = (int32_t)v;
  }
  if( idx==-1 ){
    if( nd->n_ctrl==GR_MAX_PER_OP ) return fail_tok(l, "op has more than %u control inputs", GR_MAX_PER_OP);
  }else if( nd->n_data==GR_MAX_PER_OP ){
    return fail_tok(l, "op has more than %u inputs", GR_MAX_PER_OP);
  }
  if( n && !intern_source(l, c, nlen, &src) ) return 0;
  if( !GROW(l, g->edges, g->nedges, g->cap_edges) ) return 0;
  g->edges[g->nedges].src = src;
  g->edges[g->nedges].index = idx;
  g->nedges++;
  if( idx==-1 ){ nd->n_ctrl++; return 1; }
  if( n && !colon ){
    nocolon nc = { l->cur_node, nd->n_data };
    gr_vec_push(l->nocolon, nc);
  }
  if( nd->n_ctrl ) l->edge_sort = 1;
  nd->n_data++;
  return 1;
}

/* The list element count, checked before appending one more. */
#define LIST_ROOM(l) ((l)->list_n < GR_MAX_LIST || \
  fail_tok((l), "list attribute longer than %u elements", GR_MAX_LIST))
static void list_start(loader *l, uint32_t kind, uint64_t first){
  if( l->list_kind==0 ){ l->list_kind = kind; l->list_first = first; }
}

static void finish_list(loader *l){
  gr_attr *a = cur_attr(l);
  static const unsigned char vt_kind[] = {
    GR_ATTR_LIST_I, GR_ATTR_LIST_S, GR_ATTR_LIST_I, GR_ATTR_LIST_F, GR_ATTR_LIST_B, GR_ATTR_LIST_S,
    GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER
  };
  a->n = 0; a->u.list = 0;
  if( l->list_kind ){
    a->kind = l->list_kind; a->n = l->list_n; a->u.list = l->list_first;
  }else if( l->list_vt >= 0 ){
    a->kind = vt_kind[l->list_vt];
  }else if( l->list_other ){
    a->kind = GR_ATTR_OTHER;
  }else{
    a->kind = GR_ATTR_LIST_I;
  }
}

static int valtype(const char *s, size_t n){
  static const char *const names[] = {
    "VT_LIST_NONE", "VT_LIST_STRING", "VT_LIST_INT", "VT_LIST_FLOAT", "VT_LIST_BOOL", "VT_LIST_BYTES",
    "VT_LIST_TENSOR_DESC", "VT_LIST_TENSOR", "VT_LIST_GRAPH", "VT_LIST_NAMED_ATTRS", "VT_LIST_DATA_TYPE"
  };
  int i;
  for(i = 0; i < 11; i++) if( strlen(names[i])==n && memcmp(names[i], s, n)==0 ) return i;
  return -1;
}

/* ---- the parser: one function per object kind, each called just after
** the object's '{' was read ---- */

/* The next member of the current object: 1 = a key was read, 0 = the
** object ended, -1 = the scan failed. */
static int member(loader *l){
  int k = next(l);
  if( k==GR_JS_KEY ) return 1;
  if( k==GR_JS_OBJECT_END ) return 0;
  scan_failed(l);
  return -1;
}

#define KEY(lit) (l->t.n==sizeof(lit) - 1 && memcmp(l->t.s, lit, sizeof(lit) - 1)==0)

/* The next member of an object whose keys ks lists: 0 at the object's end,
** -1 on a scan error, M_OTHER for a key ks does not list (the key token is
** in l->t), M_KEY + k for ks->name[k]. Compact keys are matched in place
** (gr_js_key, json_scan.h), and then l->t is not the key: code after a
** listed key reads the member's value before it looks at l->t. *at is the
** key tried first, the one after the last key of this object (0 at its
** start). Inlined: it is the loop head of every object kind. */
enum { M_OTHER = 1, M_KEY = 2 };
static inline __attribute__((always_inline)) int member_in(loader *l, const gr_js_keyset *ks, unsigned *at){
  unsigned i;
  int k = gr_js_key(&l->js, ks, *at);
  if( k >= 0 ){ *at = (unsigned)k + 1; return M_KEY + k; }
  k = next(l);
  if( k==GR_JS_KEY ){
    for(i = 0; i < ks->n; i++)
      if( l->t.n==ks->len[i] && memcmp(l->t.s, ks->name[i], l->t.n)==0 ){ *at = i + 1; return M_KEY + (int)i; }
    return M_OTHER;
  }
  if( k==GR_JS_OBJECT_END ) return 0;
  scan_failed(l);
  return -1;
}

/* The keys of each object kind, in the order the objects of an `atc
** --mode=1` file usually have them (any order is read; this one makes
** gr_js_key's first try the hit). Their indexes are the K_ names. */
static const char *const op_keys[] = { "name", "type", "input", "attr", "input_desc", "output_desc", "subgraph_name" };
enum { K_OP_NAME = M_KEY, K_OP_TYPE, K_OP_INPUT, K_OP_ATTR, K_OP_INDESC, K_OP_OUTDESC, K_OP_SUBGRAPH };
static const char *const desc_keys[] = { "dtype", "shape", "layout", "attr" };
enum { K_DESC_DTYPE = M_KEY, K_DESC_SHAPE, K_DESC_LAYOUT, K_DESC_ATTR };
static const char *const shape_keys[] = { "dim" };
enum { K_SHAPE_DIM = M_KEY };
static const char *const attr_keys[] = { "key", "value" };
enum { K_ATTR_KEY = M_KEY, K_ATTR_VALUE };
static const char *const value_keys[] = { "b", "i", "f", "s", "list", "dt" };
enum { K_AV_B = M_KEY, K_AV_I, K_AV_F, K_AV_S, K_AV_LIST, K_AV_DT };
static const char *const list_keys[] = { "val_type", "s", "i", "f", "b" };
enum { K_LIST_VALTYPE = M_KEY, K_LIST_S, K_LIST_I, K_LIST_F, K_LIST_B };
#define NKEYS(a) (sizeof (a) / sizeof *(a))
_Static_assert(sizeof(gr_tensor) <= GR_JS_OMEMO_VAL && sizeof(gr_attr) <= GR_JS_OMEMO_VAL, "a memo value holds a tensor or an attribute");
_Static_assert(NKEYS(op_keys) <= GR_JS_KEYS && NKEYS(desc_keys) <= GR_JS_KEYS && NKEYS(shape_keys) <= GR_JS_KEYS
               && NKEYS(attr_keys) <= GR_JS_KEYS && NKEYS(value_keys) <= GR_JS_KEYS && NKEYS(list_keys) <= GR_JS_KEYS,
               "a key set holds at most GR_JS_KEYS keys, so gr_js_keys_init cannot fail");

static int parse_shape(loader *l){
  gr_graph *g = l->g;
  int r;
  unsigned at = 0;
  while( (r = member_in(l, &l->ks_shape, &at)) > 0 ){
    int k;
    if( r!=K_SHAPE_DIM ){ if( !skip_value(l) ) return 0; continue; }
    k = next(l);
    if( k==GR_JS_NULL ) continue;
    if( k!=GR_JS_ARRAY ) return bad_type(l, &W_SHAPE_DIM);
    /* the same bytes as an earlier dims array: the same shape (json_scan.h) */
    if( gr_js_ints_recall(&l->js, l->dims_seen, &g->tensors[l->cur_tensor].shape) ) continue;
    l->ndim = 0;
    for(;;){
      int closed;
      if( l->ndim==l->cap_dim && l->ndim < GR_MAX_DIMS ){
        l->cap_dim = l->cap_dim ? l->cap_dim * 2 : 16;
        l->dimv = gr_xrealloc(l->dimv, l->cap_dim * sizeof *l->dimv);
      }
      /* the plain dims in one go (json_scan.h), the rest token by token */
      l->ndim += gr_js_ints(&l->js, l->dimv + l->ndim, (l->cap_dim < GR_MAX_DIMS ? l->cap_dim : GR_MAX_DIMS) - l->ndim, &closed);
      if( closed ){ k = GR_JS_ARRAY_END; break; }
      if( (k = next(l))!=GR_JS_INT ) break;
      if( l->ndim==GR_MAX_DIMS ) return fail_tok(l, "shape has more than %u dims", GR_MAX_DIMS);
      if( l->ndim==l->cap_dim ){
        l->cap_dim = l->cap_dim * 2;
        l->dimv = gr_xrealloc(l->dimv, l->cap_dim * sizeof *l->dimv);
      }
      l->dimv[l->ndim++] = l->t.i;
    }
    if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_DIM_ELEM);
    g->tensors[l->cur_tensor].shape = gr_graph_intern_shape(g, l->dimv, (uint32_t)l->ndim);
    gr_js_ints_remember(&l->js, l->dims_seen, g->tensors[l->cur_tensor].shape);
  }
  return r==0;
}

/* A dtype given as a string or an integer (kept as its decimal text). */
static int parse_dtype(loader *l){
  gr_graph *g = l->g;
  switch( next(l) ){
  case GR_JS_STRING: case GR_JS_INT:
    return intern16(l, &g->dtypes, l->t.s, l->t.n, &g->tensors[l->cur_tensor].dtype);
  case GR_JS_NULL: return 1;
  default: return bad_type(l, &W_DESC_DTYPE);
  }
}

static int parse_attr(loader *l, int desc);

static int parse_desc(loader *l, int out){
  gr_graph *g = l->g;
  gr_node *n = &g->nodes[l->cur_node];
  uint16_t *cnt = out ? &n->n_out_desc : &n->n_in_desc;
  int r, plain = 1;
  unsigned at = 0;
  unsigned char seen[GR_JS_OMEMO_VAL];
  gr_js_mark mark;
  if( *cnt==GR_MAX_PER_OP ) return fail_tok(l, "op has more than %u %s entries", GR_MAX_PER_OP, out ? "output_desc" : "input_desc");
  if( !GROW(l, g->tensors, g->ntensors, g->cap_tensors) ) return 0;
  /* no "shape" (or no "dim"): a scalar, as GE reads the ShapeDef the JSON
  ** dumps (hicann/ge graph_metadef/graph/normal_graph/ge_tensor.cc, AssembleGeShapeFromProto and GeShapeImpl::IsScalar) */
  g->tensors[g->ntensors].shape = GR_SHAPE_SCALAR;
  g->tensors[g->ntensors].dtype = 0;
  g->tensors[g->ntensors].layout = 0;
  l->tkind[g->ntensors - n->tensor0] = (unsigned char)out;
  if( !out && n->n_out_desc ) l->tensor_sort = 1;
  l->cur_tensor = (uint32_t)g->ntensors++;
  l->cur_dix = GR_NONE;
  (*cnt)++;
  /* the same bytes as an earlier descriptor without attributes: its fields (json_scan.h) */
  if( gr_js_obj_recall(&l->js, l->descs_seen, seen) ){
    gr_tensor *t = &g->tensors[l->cur_tensor];
    memcpy(t, seen, sizeof *t);
    if( g->shapes[t->shape].neg ) n->flags |= GR_NODE_DYNAMIC;
    return 1;
  }
  mark = gr_js_mark_here(&l->js);
  while( (r = member_in(l, &l->ks_desc, &at)) > 0 ){
    int k;
    if( r==K_DESC_ATTR ) plain = 0;       /* read (input) or skipped (output): not remembered */
    if( !out && r==K_DESC_ATTR ){         /* an input descriptor's attributes (GE's `_value`, ...) */
      k = next(l);
      if( k==GR_JS_ARRAY ){
        while( (k = next(l))==GR_JS_OBJECT ) if( !parse_attr(l, 1) ) return 0;
        if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_DATTR_ELEM);
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_DESC_ATTR);
    }else if( r==K_DESC_DTYPE ){
      if( !parse_dtype(l) ) return 0;
    }else if( r==K_DESC_SHAPE ){
      k = next(l);
      if( k==GR_JS_OBJECT ){
        g->tensors[l->cur_tensor].shape = GR_SHAPE_SCALAR;
        if( !parse_shape(l) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_DESC_SHAPE);
    }else if( r==K_DESC_LAYOUT ){
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !intern16(l, &g->layouts, l->t.s, l->t.n, &g->tensors[l->cur_tensor].layout) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_DESC_LAYOUT);
    }else if( !skip_value(l) ) return 0;
  }
  if( r < 0 ) return 0;
  if( plain ){
    memset(seen, 0, sizeof seen);
    memcpy(seen, &g->tensors[l->cur_tensor], sizeof(gr_tensor));
    gr_js_obj_remember(&l->js, l->descs_seen, &mark, seen);
  }
  if( g->shapes[g->tensors[l->cur_tensor].shape].neg ) g->nodes[l->cur_node].flags |= GR_NODE_DYNAMIC;
  return 1;
}

/* The elements of one "s"/"i"/"f"/"b" array of a list attribute. */
static int parse_list_elems(loader *l, unsigned kind){
  gr_graph *g = l->g;
  for(;;){
    int k = next(l);
    if( k==GR_JS_ARRAY_END ) return 1;
    switch( kind ){
    case GR_ATTR_LIST_S: {
      uint32_t id;
      if( k!=GR_JS_STRING ) return bad_type(l, &W_LS_ELEM);
      if( !LIST_ROOM(l) || !intern(l, &g->strs, l->t.s, l->t.n, &id) ) return 0;
      if( !GROW(l, g->lu32, g->nlu32, g->cap_lu32) ) return 0;
      list_start(l, GR_ATTR_LIST_S, g->nlu32);
      g->lu32[g->nlu32++] = id;
      break;
    }
    case GR_ATTR_LIST_I:
      if( k!=GR_JS_INT ) return bad_type(l, &W_LI_ELEM);
      if( !LIST_ROOM(l) || !GROW(l, g->li64, g->nli64, g->cap_li64) ) return 0;
      list_start(l, GR_ATTR_LIST_I, g->nli64);
      g->li64[g->nli64++] = l->t.i;
      break;
    case GR_ATTR_LIST_F: {
      double d = 0;
      if( k==GR_JS_STRING ){
        if( !parse_f64(l, l->t.s, l->t.n, &d) ) return bad_type(l, &W_LF_ELEM);
      }else if( k==GR_JS_INT || k==GR_JS_NUMBER ){
        d = num_value(l);
      }else return bad_type(l, &W_LF_ELEM);
      if( !LIST_ROOM(l) || !GROW(l, g->lf64, g->nlf64, g->cap_lf64) ) return 0;
      list_start(l, GR_ATTR_LIST_F, g->nlf64);
      g->lf64[g->nlf64++] = d;
      break;
    }
    default:
      if( k!=GR_JS_TRUE && k!=GR_JS_FALSE ) return bad_type(l, &W_LB_ELEM);
      if( !LIST_ROOM(l) || !GROW(l, g->li64, g->nli64, g->cap_li64) ) return 0;
      list_start(l, GR_ATTR_LIST_B, g->nli64);
      g->li64[g->nli64++] = k==GR_JS_TRUE;
      break;
    }
    l->list_n++;
  }
}

static int parse_list(loader *l){
  int r;
  unsigned at = 0;
  l->list_kind = 0; l->list_n = 0; l->list_first = 0; l->list_vt = -1; l->list_other = 0;
  while( (r = member_in(l, &l->ks_list, &at)) > 0 ){
    unsigned kind = 0;
    const want *w = NULL;
    int k;
    switch( r ){
    case K_LIST_S: kind = GR_ATTR_LIST_S; w = &W_LIST_S; break;
    case K_LIST_I: kind = GR_ATTR_LIST_I; w = &W_LIST_I; break;
    case K_LIST_F: kind = GR_ATTR_LIST_F; w = &W_LIST_F; break;
    case K_LIST_B: kind = GR_ATTR_LIST_B; w = &W_LIST_B; break;
    }
    if( kind && !(l->list_kind && l->list_kind!=kind) ){   /* the first non-empty list wins */
      k = next(l);
      if( k==GR_JS_ARRAY ){
        if( !parse_list_elems(l, kind) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, w);
    }else if( r==K_LIST_VALTYPE ){
      k = next(l);
      if( k==GR_JS_STRING ) l->list_vt = valtype(l->t.s, l->t.n);
      else if( k==GR_JS_INT ) l->list_vt = l->t.i >= 0 && l->t.i <= 10 ? (int)l->t.i : -1;
      else if( k!=GR_JS_NULL ) return bad_type(l, &W_LIST_VALTYPE);
    }else{
      l->list_other = 1;
      if( !skip_value(l) ) return 0;
    }
  }
  if( r < 0 ) return 0;
  finish_list(l);
  return 1;
}

/* An AttrDef: {"s": ...} or "i", "f", "b", "dt", "list"; anything else
** (td, t, g, func, list_list_int, ...) makes it OTHER. */
static int parse_attr_value(loader *l){
  gr_graph *g = l->g;
  int r;
  unsigned at = 0;
  cur_attr(l)->kind = GR_ATTR_OTHER;      /* an empty AttrDef */
  while( (r = member_in(l, &l->ks_value, &at)) > 0 ){
    char c = r==K_AV_S ? 's' : r==K_AV_I ? 'i' : r==K_AV_F ? 'f' : r==K_AV_B ? 'b' : r==K_AV_DT ? 'd' : r==K_AV_LIST ? 'l' : 0;
    gr_attr *a;
    int k;
    if( c!='s' && c!='i' && c!='f' && c!='b' && c!='d' && c!='l' ){
      cur_attr(l)->kind = GR_ATTR_OTHER;
      if( !skip_value(l) ) return 0;
      continue;
    }
    k = next(l);
    if( k==GR_JS_NULL ) continue;
    a = cur_attr(l);
    switch( c ){
    case 's':
      if( k!=GR_JS_STRING ) return bad_type(l, &W_AV_S);
      a->kind = GR_ATTR_S; a->n = 0; a->u.i = 0;
      if( !intern_small(l, &g->strs, C_SVAL, l->t.s, l->t.n, &a->u.str) ) return 0;
      break;
    case 'i':
      if( k!=GR_JS_INT ) return bad_type(l, &W_AV_I);
      a->kind = GR_ATTR_I; a->n = 0; a->u.i = l->t.i;
      break;
    case 'f': {
      double d;
      if( k==GR_JS_STRING ){
        if( !parse_f64(l, l->t.s, l->t.n, &d) ) return bad_type(l, &W_AV_F);
      }else if( k==GR_JS_INT || k==GR_JS_NUMBER ){
        d = num_value(l);
      }else return bad_type(l, &W_AV_F);
      a->kind = GR_ATTR_F; a->n = 0; a->u.f = d;
      break;
    }
    case 'b':
      if( k!=GR_JS_TRUE && k!=GR_JS_FALSE ) return bad_type(l, &W_AV_B);
      a->kind = GR_ATTR_B; a->n = 0; a->u.i = k==GR_JS_TRUE;
      break;
    case 'd':
      if( k!=GR_JS_STRING && k!=GR_JS_INT ) return bad_type(l, &W_AV_DT);
      a->kind = GR_ATTR_DT; a->n = 0; a->u.i = 0;
      if( !intern(l, &g->strs, l->t.s, l->t.n, &a->u.str) ) return 0;
      break;
    default:
      if( k!=GR_JS_OBJECT ) return bad_type(l, &W_AV_LIST);
      if( !parse_list(l) ) return 0;
      break;
    }
  }
  return r==0;
}

/* An AttrDef of the op (desc 0) or of its current input descriptor (desc 1:
** kept in dattrs, indexed by dix, for gr_graph_input_attr). */
static int parse_attr(loader *l, int desc){
  gr_graph *g = l->g;
  gr_node *n = &g->nodes[l->cur_node];
  int r;
  unsigned at = 0;
  unsigned char seen[GR_JS_OMEMO_VAL];
  gr_js_mark mark;
  size_t lists;
  l->attr_desc = desc;
  if( desc ){
    gr_dattr_ix *x;
    if( l->cur_dix==GR_NONE ){
      if( !GROW(l, g->dix, g->ndix, g->cap_dix) ) return 0;
      x = &g->dix[g->ndix];
      x->node = l->cur_node; x->in = (uint16_t)(n->n_in_desc - 1); x->n = 0; x->first = (uint32_t)g->ndattrs;
      l->cur_dix = (uint32_t)g->ndix++;
    }
    x = &g->dix[l->cur_dix];
    if( x->n==GR_MAX_PER_OP ) return fail_tok(l, "input_desc has more than %u attributes", GR_MAX_PER_OP);
    if( !GROW(l, g->dattrs, g->ndattrs, g->cap_dattrs) ) return 0;
    memset(&g->dattrs[g->ndattrs], 0, sizeof *g->dattrs);
    l->cur_attr = (uint32_t)g->ndattrs++;
    g->dix[l->cur_dix].n++;
  }else{
    if( n->n_attr==GR_MAX_PER_OP ) return fail_tok(l, "op has more than %u attributes", GR_MAX_PER_OP);
    if( !GROW(l, g->attrs, g->nattrs, g->cap_attrs) ) return 0;
    memset(&g->attrs[g->nattrs], 0, sizeof *g->attrs);
    l->cur_attr = (uint32_t)g->nattrs++;
    n->n_attr++;
  }
  /* the same bytes as an earlier attribute without a list: its entry (json_scan.h) */
  if( gr_js_obj_recall(&l->js, l->attrs_seen, seen) ){
    memcpy(cur_attr(l), seen, sizeof(gr_attr));
    return 1;
  }
  mark = gr_js_mark_here(&l->js);
  lists = g->nlu32 + g->nli64 + g->nlf64;
  while( (r = member_in(l, &l->ks_attr, &at)) > 0 ){
    int k;
    if( r==K_ATTR_KEY ){
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !intern_small(l, &g->strs, C_KEY, l->t.s, l->t.n, &cur_attr(l)->key) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_ATTR_KEY);
    }else if( r==K_ATTR_VALUE ){
      k = next(l);
      if( k==GR_JS_OBJECT ){
        if( !parse_attr_value(l) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_ATTR_VALUE);
    }else if( !skip_value(l) ) return 0;
  }
  if( r < 0 ) return 0;
  if( cur_attr(l)->kind==0 ) cur_attr(l)->kind = GR_ATTR_OTHER;   /* no "value" */
  if( g->nlu32 + g->nli64 + g->nlf64==lists ){      /* not a list: lists are stored aside */
    memcpy(seen, cur_attr(l), sizeof(gr_attr));
    gr_js_obj_remember(&l->js, l->attrs_seen, &mark, seen);
  }
  return 1;
}

/* An array member of an op: each element must be `elem_type`. */
static int op_array(loader *l, const want *w){
  int k = next(l);
  if( k==GR_JS_ARRAY ) return 1;
  if( k!=GR_JS_NULL ) bad_type(l, w);
  return 0;
}

static int parse_op(loader *l){
  gr_graph *g = l->g;
  gr_node *n;
  int r, k;
  unsigned at = 0;
  if( !GROW(l, g->nodes, g->nnodes, g->cap_nodes) ) return 0;
  l->cur_node = gr_graph_op_begin(g, l->cur_graph);
  n = &g->nodes[l->cur_node];
  gr_js_pos(&l->js, l->t.off, &n->line, &n->col);
  l->edge_sort = l->tensor_sort = 0;
  l->has_pname = 0;
  while( (r = member_in(l, &l->ks_op, &at)) > 0 ){
    int out;
    switch( r ){
    case K_OP_NAME:
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !name_start(l, l->t.s, l->t.n) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_OP_NAME);
      continue;
    case K_OP_TYPE:
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !intern_small(l, &g->types, C_TYPE, l->t.s, l->t.n, &g->nodes[l->cur_node].type) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_OP_TYPE);
      continue;
    case K_OP_ATTR:
      if( !op_array(l, &W_OP_ATTR) ){ if( l->failed ) return 0; continue; }
      while( (k = next(l))==GR_JS_OBJECT ) if( !parse_attr(l, 0) ) return 0;
      if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_ATTR_ELEM);
      continue;
    case K_OP_INPUT:
      if( !op_array(l, &W_OP_INPUT) ){ if( l->failed ) return 0; continue; }
      while( (k = next(l))==GR_JS_STRING ) if( !add_edge(l, l->t.s, l->t.n) ) return 0;
      if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_INPUT_ELEM);
      continue;
    case K_OP_SUBGRAPH:                    /* the subgraphs this op owns, by graph name */
      if( !op_array(l, &W_OP_SUBGRAPH) ){ if( l->failed ) return 0; continue; }
      while( (k = next(l))==GR_JS_STRING ){
        if( !GROW(l, g->subg, g->nsubg, g->cap_subg) ) return 0;
        g->subg[g->nsubg].node = l->cur_node;
        if( !intern(l, &g->strs, l->t.s, l->t.n, &g->subg[g->nsubg].name) ) return 0;
        g->nsubg++;
      }
      if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_SUBGRAPH_ELEM);
      continue;
    case K_OP_INDESC: case K_OP_OUTDESC:
      out = r==K_OP_OUTDESC;
      if( !op_array(l, out ? &W_OP_OUTDESC : &W_OP_INDESC) ){ if( l->failed ) return 0; continue; }
      while( (k = next(l))==GR_JS_OBJECT ) if( !parse_desc(l, out) ) return 0;
      if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_DESC_ELEM);
      continue;
    }
    if( !skip_value(l) ) return 0;
  }
  if( r < 0 || !name_done(l) ) return 0;
  gr_graph_op_finish(g, l->cur_node, l->edge_sort, l->tensor_sort ? l->tkind : NULL);
  return 1;
}

static int parse_graph(loader *l){
  gr_graph *g = l->g;
  int r, k;
  if( g->ngraphs >= GR_MAX_GRAPHS ) return fail_tok(l, "more than %u graphs", GR_MAX_GRAPHS);
  if( !GROW(l, g->graphs, g->ngraphs, g->cap_graphs) ) return 0;
  l->cur_graph = gr_graph_begin(g);
  while( (r = member(l)) > 0 ){
    if( KEY("name") ){
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !intern(l, &g->strs, l->t.s, l->t.n, &g->graphs[l->cur_graph].name) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_GRAPH_NAME);
    }else if( KEY("op") ){
      k = next(l);
      if( k==GR_JS_ARRAY ){
        while( (k = next(l))==GR_JS_OBJECT ) if( !parse_op(l) ) return 0;
        if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_OP_ELEM);
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_GRAPH_OP);
    }else if( !skip_value(l) ) return 0;
  }
  if( r < 0 ) return 0;
  g->graphs[l->cur_graph].nnodes = (uint32_t)(g->nnodes - g->graphs[l->cur_graph].node0);
  return 1;
}

/* The elements of a top-level "node" array (a GE ModelDef has none): its
** objects' keys tell ONNX's GraphProto ("op_type") from TensorFlow's
** GraphDef ("op"). Values are validated and skipped, never kept. */
static int sniff_nodes(loader *l, int *onnx, int *tf){
  int k = next(l), r;
  if( k!=GR_JS_ARRAY ) return k==GR_JS_ERROR ? scan_failed(l) : gr_js_skip(&l->js, &l->t) ? 1 : scan_failed(l);
  while( (k = next(l))!=GR_JS_ARRAY_END ){
    if( k!=GR_JS_OBJECT ){
      if( k==GR_JS_ERROR || !gr_js_skip(&l->js, &l->t) ) return scan_failed(l);
      continue;
    }
    while( (r = member(l)) > 0 ){
      if( KEY("op_type") ) *onnx = 1;
      else if( KEY("op") ) *tf = 1;
      if( !skip_value(l) ) return 0;
    }
    if( r < 0 ) return 0;
  }
  return 1;
}

/* Top-level members that other JSON model formats have and a GE ModelDef
** has not; the first one seen decides what the file is said to be. */
static void note_foreign(loader *l, uint64_t off, const char *what){
  l->foreign = what;
  gr_js_pos(&l->js, off, &l->foreign_line, &l->foreign_col);
}

/* The model's own attributes, [{"key": K, "value": {"s": S}}, ...]: the
** string ones are kept (gr_graph_model_attr), any other value is skipped. */
static int parse_model_attrs(loader *l){
  gr_graph *g = l->g;
  int k = next(l), r;
  if( k==GR_JS_NULL ) return 1;
  if( k!=GR_JS_ARRAY ) return bad_type(l, &W_MODEL_ATTR);
  while( (k = next(l))==GR_JS_OBJECT ){
    uint32_t key = 0, val = 0;
    int has = 0;
    while( (r = member(l)) > 0 ){
      if( KEY("key") ){
        k = next(l);
        if( k==GR_JS_STRING ){ if( !intern(l, &g->strs, l->t.s, l->t.n, &key) ) return 0; has |= 1; }
        else if( k!=GR_JS_NULL ) return bad_type(l, &W_ATTR_KEY);
      }else if( KEY("value") ){
        k = next(l);
        if( k==GR_JS_OBJECT ){
          while( (r = member(l)) > 0 ){
            if( KEY("s") ){
              k = next(l);
              if( k==GR_JS_STRING ){ if( !intern(l, &g->strs, l->t.s, l->t.n, &val) ) return 0; has |= 2; }
              else if( k!=GR_JS_NULL ) return bad_type(l, &W_AV_S);
            }else if( !skip_value(l) ) return 0;
          }
          if( r < 0 ) return 0;
        }else if( k!=GR_JS_NULL ) return bad_type(l, &W_ATTR_VALUE);
      }else if( !skip_value(l) ) return 0;
    }
    if( r < 0 ) return 0;
    if( has==3 ) gr_graph_add_model_attr(g, key, val);
  }
  if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_ATTR_ELEM);
  return 1;
}

static int parse_model(loader *l){
  gr_graph *g = l->g;
  int r, k;
  while( (r = member(l)) > 0 ){
    if( l->strict ){
      if( KEY("node") ){
        int onnx = 0, tf = 0;
        uint32_t line, col;
        gr_js_pos(&l->js, l->t.off, &line, &col);
        if( !sniff_nodes(l, &onnx, &tf) ) return 0;
        if( l->foreign==NULL || onnx || tf ){
          l->foreign = onnx ? "the ONNX GraphProto JSON that `atc --mode=1 --framework=5` writes"
                     : tf ? "a TensorFlow GraphDef in JSON (\"node\" entries with \"op\")"
                     : "JSON with a \"node\" array";
          l->foreign_line = line; l->foreign_col = col;
        }
        continue;
      }
      if( KEY("initializer") || KEY("value_info") || KEY("opset_import") || KEY("ir_version") )
        { if( !l->foreign ) note_foreign(l, l->t.off, "ONNX in JSON"); }
      else if( KEY("layer") || KEY("layers") )
        { if( !l->foreign ) note_foreign(l, l->t.off, "a Caffe NetParameter in JSON"); }
      else if( KEY("versions") || KEY("library") )
        { if( !l->foreign ) note_foreign(l, l->t.off, "a TensorFlow GraphDef in JSON"); }
    }
    if( KEY("name") ){
      k = next(l);
      if( k==GR_JS_STRING ){
        if( !intern(l, &g->strs, l->t.s, l->t.n, &g->model_name) ) return 0;
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_MODEL_NAME);
    }else if( KEY("attr") ){
      if( !parse_model_attrs(l) ) return 0;
    }else if( KEY("graph") ){
      k = next(l);
      l->seen_graph = 1;
      if( k==GR_JS_ARRAY ){
        while( (k = next(l))==GR_JS_OBJECT ) if( !parse_graph(l) ) return 0;
        if( k!=GR_JS_ARRAY_END ) return bad_type(l, &W_GRAPH_ELEM);
      }else if( k!=GR_JS_NULL ) return bad_type(l, &W_MODEL_GRAPH);
    }else if( !skip_value(l) ) return 0;
  }
  return r==0;
}

/* In strict mode: the object must be a GE ModelDef with at least one graph.
** Anything else is said to be what its members show, located at the member
** that shows it (or at the top-level object). */
static int check_modeldef(loader *l){
  if( l->foreign && !l->seen_graph ){
    gr_error_set(&l->e, l->foreign_line, l->foreign_col, "not a GE ModelDef: this is %s (expected the ModelDef JSON that "
                 "`atc --mode=1` writes from an .om or a ge_proto dump%s)", l->foreign,
                 strstr(l->foreign, "ONNX") ? "; give gerules the .onnx model itself" : "");
    l->failed = 1;
    return 0;
  }
  if( !l->seen_graph || l->g->ngraphs==0 ){
    gr_error_set(&l->e, l->top_line, l->top_col, "not a GE ModelDef: %s (expected the ModelDef JSON that `atc --mode=1` "
                 "writes from an .om or a ge_proto dump: {\"name\": ..., \"graph\": [{\"op\": [...]}]})",
                 l->seen_graph ? "its \"graph\" array is empty" : "the top-level object has no \"graph\" member");
    l->failed = 1;
    return 0;
  }
  return 1;
}

/* The whole input: one object, then nothing. */
static int parse(loader *l){
  int k = next(l);
  if( k==GR_JS_ERROR ){
    if( gr_js_errkind(&l->js)==GR_JS_E_EMPTY ){
      const gr_error *e = gr_js_error(&l->js);
      l->failed = 1;
      gr_error_set(&l->e, e->line, e->col, "empty input (expected a JSON object)");
      return 0;
    }
    return scan_failed(l);
  }
  if( k!=GR_JS_OBJECT ){
    if( l->strict ) return fail_tok(l, "top level is not an object (expected a GE ModelDef: {\"name\": ..., \"graph\": [...]})");
    return fail_tok(l, "top level is not an object");
  }
  gr_js_pos(&l->js, l->t.off, &l->top_line, &l->top_col);
  if( !parse_model(l) ) return 0;
  if( next(l)!=GR_JS_EOF ) return scan_failed(l);
  if( l->strict ) return check_modeldef(l);
  return 1;
}

/* ---- resolution ---- */

static void fail_edge(loader *l, uint32_t i, uint32_t pos){
  gr_graph *g = l->g;
  const gr_node *n = &g->nodes[i];
  const gr_edge *e = &g->edges[n->edge0 + pos];
  const char *src = gr_strpool_get(&g->strs, e->src);
  size_t k;
  int colon = 1;
  for(k = 0; k < l->nocolon.n; k++)
    if( l->nocolon.v[k].node==i && l->nocolon.v[k].pos==pos ) colon = 0;
  if( colon )
    fail_node(l, n, "op '%s' input %u (\"%s:%d\") refers to unknown op '%s'",
              gr_strpool_get(&g->strs, n->name), pos, src, e->index, src);
  else
    fail_node(l, n, "op '%s' input %u (\"%s\") refers to unknown op '%s'",
              gr_strpool_get(&g->strs, n->name), pos, src, src);
}

/* Edge sources to nodes (graph.c); the failures get the loader's messages. */
static int resolve(loader *l){
  gr_resolve_fail f;
  int r = gr_graph_resolve(l->g, &f);
  if( r==GR_RESOLVE_EDGE ) fail_edge(l, f.node, f.pos);
  else if( r==GR_RESOLVE_DUP )
    fail_node(l, &l->g->nodes[f.node], "duplicate op name '%s' (first defined at line %u)",
              gr_strpool_get(&l->g->strs, l->g->nodes[f.node].name), l->g->nodes[f.first].line);
  return r==0;
}

/* ---- driver ---- */

static void loader_init(loader *l){
  memset(l, 0, sizeof *l);
  l->g = gr_graph_new();
  l->tkind = gr_xmalloc(2 * (size_t)GR_MAX_PER_OP + 2);
  l->dims_seen = gr_xcalloc(1, sizeof *l->dims_seen);
  l->descs_seen = gr_xcalloc(1, sizeof *l->descs_seen);
  l->attrs_seen = gr_xcalloc(1, sizeof *l->attrs_seen);
  l->names = gr_xcalloc(NAME_CACHE, sizeof *l->names);
  gr_js_keys_init(&l->ks_op, op_keys, NKEYS(op_keys));
  gr_js_keys_init(&l->ks_desc, desc_keys, NKEYS(desc_keys));
  gr_js_keys_init(&l->ks_shape, shape_keys, NKEYS(shape_keys));
  gr_js_keys_init(&l->ks_attr, attr_keys, NKEYS(attr_keys));
  gr_js_keys_init(&l->ks_value, value_keys, NKEYS(value_keys));
  gr_js_keys_init(&l->ks_list, list_keys, NKEYS(list_keys));
  gr_buf_init(&l->tmp);
  gr_buf_init(&l->pname);
}

/* Runs the parse and the resolution, frees the loader; returns the graph,
** or NULL (graph freed, error copied) on failure. */
static gr_graph *run(loader *l, gr_error *err){
  gr_graph *g = l->g;
  if( parse(l) ) resolve(l);
  gr_js_free(&l->js);
  free(l->tkind);
  free(l->dims_seen); free(l->descs_seen); free(l->attrs_seen);
  free(l->names);
  free(l->dimv);
  gr_vec_free(l->nocolon);
  gr_buf_free(&l->tmp);
  gr_buf_free(&l->pname);
  if( l->failed ){
    gr_graph_free(g);
    if( err ) *err = l->e;
    return NULL;
  }
  return g;
}

/* Sizes the name table for the input: about one string per 300 bytes (~290
** bytes per op in ATC JSON). The size is only a hint (st_size of a sparse
** file may claim a terabyte), so the reservation is capped at 4M strings
** (64 MiB of slots); a larger graph grows the table as it is read. */
#define RESERVE_CAP ((uint64_t)4 << 20)
static void reserve(loader *l, uint64_t input_size){
  uint64_t n = input_size / 300;
  gr_strpool_reserve(&l->g->strs, (size_t)(n < RESERVE_CAP ? n : RESERVE_CAP));
}

static gr_graph *load_mem(const char *buf, size_t len, int strict, gr_error *err){
  loader l;
  loader_init(&l);
  l.strict = strict;
  reserve(&l, len);
  gr_js_init_mem(&l.js, buf, len, MAX_DEPTH, 0);
  return run(&l, err);
}

static gr_graph *load_fd(int fd, int strict, gr_error *err){
  loader l;
  struct stat st;
  loader_init(&l);
  l.strict = strict;
  if( fstat(fd, &st)==0 && S_ISREG(st.st_mode) && st.st_size > 0 ){
    off_t pos = lseek(fd, 0, SEEK_CUR);
    reserve(&l, (uint64_t)(st.st_size - (pos > 0 && pos < st.st_size ? pos : 0)));
  }
  gr_js_init_fd(&l.js, fd, CHUNK, MAX_DEPTH, 0);
  return run(&l, err);
}

gr_graph *gr_graph_load_mem(const char *buf, size_t len, gr_error *err){ return load_mem(buf, len, 0, err); }
gr_graph *gr_graph_load_fd(int fd, gr_error *err){ return load_fd(fd, 0, err); }
gr_graph *gr_read_ge_json_mem(const char *buf, size_t len, gr_error *err){ return load_mem(buf, len, 1, err); }
gr_graph *gr_read_ge_json_fd(int fd, gr_error *err){ return load_fd(fd, 1, err); }

gr_graph *gr_graph_load_file(const char *path, gr_error *err){
  int fd;
  gr_graph *g;
  if( strcmp(path, "-")==0 ) return gr_graph_load_fd(0, err);
  if( (fd = gr_open_input(path, NULL, err)) < 0 ) return NULL;   /* a regular file: no FIFO or device */
  g = gr_graph_load_fd(fd, err);
  close(fd);
  return g;
}
