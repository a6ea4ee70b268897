/*
** graph_load.c: the streaming loader for the JSON that `atc --mode=1` writes
** (a GE ModelDef passed through Pb2Json). The input is read in 256 KiB chunks
** and fed to yajl's SAX parser; a small state machine (a stack of frame
** kinds plus the "wanted" meaning of the next value) writes every op straight
** into the flat arrays of graph.h: names and strings are interned as they
** arrive, shapes are interned by dim vector, no tree of the file is ever
** built. Unknown fields are skipped whatever their value. Edge sources are
** kept as name ids while reading and resolved per graph at the end, which is
** also where duplicate op names are found. Every error is located (1-based
** line and byte column, counted incrementally from the newlines of each chunk)
** at the offending value, at the op object for graph-level errors, or at the
** byte where yajl failed. Op positions (gr_node.line/col) are exact: the op's
** opening '{'.
*/
#include "config.h"
#include "graph.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#define CHUNK      (256u << 10)
#define MAX_DEPTH  256
#define MAX_PER_OP 65535u          /* inputs, descs, attrs: uint16 counts */
#define MAX_DIMS   65535u          /* dims in one shape */
#define MAX_GRAPHS 65535u          /* gr_node.graph is uint16 */
#define MAX_STR    (16u << 20)     /* one kept string */
#define MAX_LIST   (16u << 20)     /* elements of one list attribute */
#define MAX_IDS    0xfffffffeu     /* nodes, edges, tensors, attrs (uint32 indexes, GR_NONE reserved) */

/* Frames: the containers we are inside (skipped values excepted). */
enum {
  F_MODEL, F_GRAPHS, F_GRAPH, F_OPS, F_OP, F_INPUTS, F_ATTRS, F_ATTR, F_AVAL, F_LIST,
  F_LIST_S, F_LIST_I, F_LIST_F, F_LIST_B, F_DESCS_IN, F_DESCS_OUT, F_DESC, F_SHAPE, F_DIMS
};

/* Wants: what the next value means. */
enum {
  W_KEY, W_SKIP, W_TOP,
  W_MODEL_NAME, W_MODEL_GRAPH, W_GRAPH_ELEM,
  W_GRAPH_NAME, W_GRAPH_OP, W_OP_ELEM,
  W_OP_NAME, W_OP_TYPE, W_OP_INPUT, W_INPUT_ELEM, W_OP_ATTR, W_ATTR_ELEM,
  W_OP_INDESC, W_OP_OUTDESC, W_DESC_ELEM,
  W_ATTR_KEY, W_ATTR_VALUE,
  W_AV_S, W_AV_I, W_AV_F, W_AV_B, W_AV_DT, W_AV_LIST,
  W_LIST_VALTYPE, W_LIST_S, W_LIST_I, W_LIST_F, W_LIST_B,
  W_LS_ELEM, W_LI_ELEM, W_LF_ELEM, W_LB_ELEM,
  W_DESC_DTYPE, W_DESC_SHAPE, W_DESC_LAYOUT, W_SHAPE_DIM, W_DIM_ELEM,
  W_COUNT
};

/* For type errors: the field a want belongs to, whether it is an array
** element, and what it accepts. */
static const struct { const char *field; unsigned char elem; const char *expect; } want_info[W_COUNT] = {
  [W_KEY]          = { "", 0, "a key" },
  [W_SKIP]         = { "", 0, "anything" },
  [W_TOP]          = { "", 0, "an object" },
  [W_MODEL_NAME]   = { "name", 0, "a string" },
  [W_MODEL_GRAPH]  = { "graph", 0, "an array" },
  [W_GRAPH_ELEM]   = { "graph", 1, "an object" },
  [W_GRAPH_NAME]   = { "name", 0, "a string" },
  [W_GRAPH_OP]     = { "op", 0, "an array" },
  [W_OP_ELEM]      = { "op", 1, "an object" },
  [W_OP_NAME]      = { "name", 0, "a string" },
  [W_OP_TYPE]      = { "type", 0, "a string" },
  [W_OP_INPUT]     = { "input", 0, "an array" },
  [W_INPUT_ELEM]   = { "input", 1, "a string" },
  [W_OP_ATTR]      = { "attr", 0, "an array" },
  [W_ATTR_ELEM]    = { "attr", 1, "an object" },
  [W_OP_INDESC]    = { "input_desc", 0, "an array" },
  [W_OP_OUTDESC]   = { "output_desc", 0, "an array" },
  [W_DESC_ELEM]    = { "input_desc/output_desc", 1, "an object" },
  [W_ATTR_KEY]     = { "key", 0, "a string" },
  [W_ATTR_VALUE]   = { "value", 0, "an object" },
  [W_AV_S]         = { "s", 0, "a string" },
  [W_AV_I]         = { "i", 0, "an integer" },
  [W_AV_F]         = { "f", 0, "a number or a numeric string" },
  [W_AV_B]         = { "b", 0, "a boolean" },
  [W_AV_DT]        = { "dt", 0, "a string or an integer" },
  [W_AV_LIST]      = { "list", 0, "an object" },
  [W_LIST_VALTYPE] = { "val_type", 0, "a string or an integer" },
  [W_LIST_S]       = { "s", 0, "an array" },
  [W_LIST_I]       = { "i", 0, "an array" },
  [W_LIST_F]       = { "f", 0, "an array" },
  [W_LIST_B]       = { "b", 0, "an array" },
  [W_LS_ELEM]      = { "s", 1, "a string" },
  [W_LI_ELEM]      = { "i", 1, "an integer" },
  [W_LF_ELEM]      = { "f", 1, "a number" },
  [W_LB_ELEM]      = { "b", 1, "a boolean" },
  [W_DESC_DTYPE]   = { "dtype", 0, "a string or an integer" },
  [W_DESC_SHAPE]   = { "shape", 0, "an object" },
  [W_DESC_LAYOUT]  = { "layout", 0, "a string" },
  [W_SHAPE_DIM]    = { "dim", 0, "an array" },
  [W_DIM_ELEM]     = { "dim", 1, "an integer" },
};

/* The want for the elements of an array frame; W_KEY for map frames. */
static const unsigned char elem_want[] = {
  [F_MODEL] = W_KEY, [F_GRAPHS] = W_GRAPH_ELEM, [F_GRAPH] = W_KEY, [F_OPS] = W_OP_ELEM,
  [F_OP] = W_KEY, [F_INPUTS] = W_INPUT_ELEM, [F_ATTRS] = W_ATTR_ELEM, [F_ATTR] = W_KEY,
  [F_AVAL] = W_KEY, [F_LIST] = W_KEY, [F_LIST_S] = W_LS_ELEM, [F_LIST_I] = W_LI_ELEM,
  [F_LIST_F] = W_LF_ELEM, [F_LIST_B] = W_LB_ELEM, [F_DESCS_IN] = W_DESC_ELEM,
  [F_DESCS_OUT] = W_DESC_ELEM, [F_DESC] = W_KEY, [F_SHAPE] = W_KEY, [F_DIMS] = W_DIM_ELEM,
};

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
  yajl_handle h;
  /* position: the chunk being parsed, and newline counting inside it */
  const char *chunk; size_t chunk_len; uint64_t chunk_abs;
  const char *prev; size_t prev_len;      /* the chunk before (backward scans) */
  size_t nl_scan;                          /* newlines of chunk[0..nl_scan) are counted */
  uint64_t line, line_start;               /* line at chunk[nl_scan]; abs offset of its first byte */
  /* structure */
  unsigned char frames[MAX_DEPTH + 2];
  unsigned nframes, depth, skip;
  unsigned char want, started;
  /* current objects (indexes, the arrays may move) */
  uint32_t cur_graph, cur_node, cur_tensor, cur_attr;
  int edge_sort, tensor_sort;
  unsigned char *tkind;                    /* per tensor of the current op: 1 = output */
  /* the list attribute being read */
  uint32_t list_kind, list_n; uint64_t list_first; int list_vt, list_other;
  /* dims of the shape being read */
  int64_t *dimv; size_t ndim, cap_dim;
  GR_VEC(nocolon) nocolon;
  gr_buf tmp;
  centry small[C_COUNT][SMALL_CACHE];
  centry *names;                           /* NAME_CACHE entries */
} loader;

/* ---- positions ---- */

static void nl_advance(loader *l, size_t p){
  const char *s, *e, *q;
  if( p <= l->nl_scan ) return;
  s = l->chunk + l->nl_scan; e = l->chunk + p;
  while( s < e && (q = memchr(s, '\n', (size_t)(e - s)))!=NULL ){
    l->line++;
    l->line_start = l->chunk_abs + (uint64_t)(q - l->chunk) + 1;
    s = q + 1;
  }
  l->nl_scan = p;
}

static uint32_t clamp32(uint64_t v){ return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v; }

/* Line and column of the byte `back` bytes before chunk offset `end`; the
** bytes in between hold no newline (they belong to one token). */
static void locate(loader *l, size_t end, uint64_t back, uint32_t *line, uint32_t *col){
  uint64_t abs;
  nl_advance(l, end);
  abs = l->chunk_abs + (end > l->nl_scan ? l->nl_scan : end);
  abs = abs >= back ? abs - back : 0;
  if( abs < l->line_start ) abs = l->line_start;
  *line = clamp32(l->line);
  *col = clamp32(abs - l->line_start + 1);
}

/* The byte at virtual offset i of prev+chunk (i may be negative). */
static int vbyte(const loader *l, long long i){
  if( i >= 0 ) return (unsigned char)l->chunk[i];
  if( -i <= (long long)l->prev_len ) return (unsigned char)l->prev[(long long)l->prev_len + i];
  return -1;
}

/* Whether yajl handed us the string in place: inside the chunk, unescaped. */
static int in_chunk(const loader *l, const void *p, size_t n){
  uintptr_t a = (uintptr_t)p, c = (uintptr_t)l->chunk;
  return a > c && a + n < c + l->chunk_len;
}

/* How far before the end of the current string token its opening quote is. */
static uint64_t string_back(const loader *l, const unsigned char *s, size_t n, size_t end){
  long long i;
  if( in_chunk(l, s, n) ) return (uint64_t)(end - (size_t)((const char*)s - l->chunk) + 1);
  /* escaped or split: scan back from the closing quote for an unescaped '"' */
  for(i = (long long)end - 2; ; i--){
    int c = vbyte(l, i);
    if( c < 0 ) break;
    if( c=='"' ){
      long long k = i - 1;
      int nbs = 0;
      while( vbyte(l, k)=='\\' ){ nbs++; k--; }
      if( (nbs & 1)==0 ) return (uint64_t)((long long)end - i);
    }
  }
  return n + 2;
}

static size_t consumed(loader *l){ return yajl_get_bytes_consumed(l->h); }

static int vfail(loader *l, uint32_t line, uint32_t col, const char *fmt, va_list ap){
  if( !l->failed ){
    l->failed = 1;
    l->e.line = line; l->e.col = col;
    vsnprintf(l->e.msg, sizeof l->e.msg, fmt, ap);
  }
  return 0;
}

/* Fails at the value that ends at the current offset and started `back` bytes earlier. */
static int fail_back(loader *l, uint64_t back, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_back(loader *l, uint64_t back, const char *fmt, ...){
  va_list ap;
  uint32_t line, col;
  locate(l, consumed(l), back, &line, &col);
  va_start(ap, fmt); vfail(l, line, col, fmt, ap); va_end(ap);
  return 0;
}

static int fail_node(loader *l, const gr_node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_node(loader *l, const gr_node *n, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt); vfail(l, n->line, n->col, fmt, ap); va_end(ap);
  return 0;
}

static int bad_type(loader *l, uint64_t back){
  unsigned w = l->want;
  if( w==W_TOP ) return fail_back(l, back, "top level is not an object");
  return fail_back(l, back, "expected %s %s \"%s\"", want_info[w].expect,
                   want_info[w].elem ? "in" : "for", want_info[w].field);
}

/* ---- array growth ---- */

static int grow(loader *l, void **p, size_t *cap, size_t n, size_t elsz, uint64_t back){
  size_t nc;
  if( n >= MAX_IDS ) return fail_back(l, back, "graph too large (more than %u entries in one table)", MAX_IDS);
  nc = *cap ? *cap * 2 : (size_t)(64u << 10) / elsz;
  if( nc > MAX_IDS ) nc = MAX_IDS;
  *p = gr_big_realloc(*p, *cap * elsz, nc * elsz);
  *cap = nc;
  return 1;
}
#define GROW(l, arr, n, cap, back) \
  ((n) < (cap) || grow((l), (void**)&(arr), &(cap), (n), sizeof *(arr), (back)))

/* ---- strings ---- */

static int intern(loader *l, gr_strpool *p, const unsigned char *s, size_t n, uint32_t *id){
  const char *c = (const char*)s;
  if( n > MAX_STR ) return fail_back(l, string_back(l, s, n, consumed(l)), "string longer than %u bytes", MAX_STR);
  if( !in_chunk(l, s, n) && memchr(c, 0, n) )
    return fail_back(l, string_back(l, s, n, consumed(l)), "string contains a NUL character");
  if( p->nbytes + n + 1 > 0xffffffffu )
    return fail_back(l, string_back(l, s, n, consumed(l)), "too much string data (more than 4 GiB)");
  *id = gr_strpool_intern(p, c, n);
  return 1;
}

static int cache_hit(const gr_strpool *p, const centry *e, const unsigned char *s, size_t n){
  return e->id1 && e->len==n && memcmp(gr_strpool_get(p, e->id1 - 1), s, n)==0;
}

static int intern_small(loader *l, gr_strpool *p, unsigned c, const unsigned char *s, size_t n, uint32_t *id){
  centry *e = &l->small[c][n ? (n * 7u + s[0] * 31u + s[n - 1] * 131u + s[n >> 1] * 17u) & (SMALL_CACHE - 1) : 0];
  if( cache_hit(p, e, s, n) ){ *id = e->id1 - 1; return 1; }
  if( !intern(l, p, s, n, id) ) return 0;
  e->id1 = *id + 1; e->len = (uint32_t)n;
  return 1;
}

/* Node names and edge sources. */
static int intern_name(loader *l, const unsigned char *s, size_t n, uint32_t *id, int lookup){
  centry *e = &l->names[gr_hash(s, n) & (NAME_CACHE - 1)];
  if( lookup && cache_hit(&l->g->strs, e, s, n) ){ *id = e->id1 - 1; return 1; }
  if( !intern(l, &l->g->strs, s, n, id) ) return 0;
  e->id1 = *id + 1; e->len = (uint32_t)n;
  return 1;
}

/* For the uint16 dtype and layout tables. */
static int intern16(loader *l, gr_strpool *p, const unsigned char *s, size_t n, uint16_t *id){
  uint32_t v;
  if( !intern_small(l, p, p==&l->g->dtypes ? C_DTYPE : C_LAYOUT, s, n, &v) ) return 0;
  if( v > 0xffff ) return fail_back(l, string_back(l, s, n, consumed(l)), "more than 65535 distinct %s values",
                                    p==&l->g->dtypes ? "dtype" : "layout");
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

static int int_value(loader *l, const char *s, size_t n, int64_t *v){
  int r = parse_i64(s, n, v);
  if( r > 0 ) return 1;
  if( r < 0 ) return fail_back(l, n, "integer out of range for \"%s\"", want_info[l->want].field);
  return bad_type(l, n);
}

/* ---- frames ---- */

static int push(loader *l, unsigned f){
  l->frames[l->nframes++] = (unsigned char)f;
  l->want = elem_want[f];
  return 1;
}
static unsigned top(const loader *l){ return l->frames[l->nframes - 1]; }

static int enter(loader *l){
  if( ++l->depth > MAX_DEPTH ) return fail_back(l, 1, "nesting deeper than %d levels", MAX_DEPTH);
  return 1;
}

/* ---- building ---- */

static int new_graph(loader *l){
  gr_graph *g = l->g;
  gr_graph_info *gi;
  if( g->ngraphs >= MAX_GRAPHS ) return fail_back(l, 1, "more than %u graphs", MAX_GRAPHS);
  if( !GROW(l, g->graphs, g->ngraphs, g->cap_graphs, 1) ) return 0;
  gi = &g->graphs[g->ngraphs];
  gi->name = 0; gi->node0 = (uint32_t)g->nnodes; gi->nnodes = 0;
  l->cur_graph = (uint32_t)g->ngraphs++;
  return push(l, F_GRAPH);
}

static int new_node(loader *l){
  gr_graph *g = l->g;
  gr_node *n;
  if( !GROW(l, g->nodes, g->nnodes, g->cap_nodes, 1) ) return 0;
  n = &g->nodes[g->nnodes];
  n->edge0 = (uint32_t)g->nedges;
  n->tensor0 = (uint32_t)g->ntensors;
  n->attr0 = (uint32_t)g->nattrs;
  n->graph = (uint16_t)l->cur_graph;
  locate(l, consumed(l), 1, &n->line, &n->col);
  l->cur_node = (uint32_t)g->nnodes++;
  l->edge_sort = l->tensor_sort = 0;
  return push(l, F_OP);
}

/* Stable partition of the op's edges (data first) and tensors (inputs first)
** when the file interleaved them. Rare. */
static void finish_node(loader *l){
  gr_graph *g = l->g;
  gr_node *n = &g->nodes[l->cur_node];
  if( l->edge_sort ){
    size_t ne = (size_t)n->n_data + n->n_ctrl, i, k = 0;
    gr_edge *e = g->edges + n->edge0, *t = gr_xmalloc(ne * sizeof *t);
    for(i = 0; i < ne; i++) if( e[i].index!=-1 ) t[k++] = e[i];
    for(i = 0; i < ne; i++) if( e[i].index==-1 ) t[k++] = e[i];
    memcpy(e, t, ne * sizeof *t);
    free(t);
  }
  if( l->tensor_sort ){
    size_t nt = (size_t)n->n_in_desc + n->n_out_desc, i, k = 0;
    gr_tensor *d = g->tensors + n->tensor0, *t = gr_xmalloc(nt * sizeof *t);
    for(i = 0; i < nt; i++) if( !l->tkind[i] ) t[k++] = d[i];
    for(i = 0; i < nt; i++) if( l->tkind[i] ) t[k++] = d[i];
    memcpy(d, t, nt * sizeof *t);
    free(t);
  }
}

static int add_edge(loader *l, const unsigned char *s, size_t n){
  gr_graph *g = l->g;
  gr_node *nd = &g->nodes[l->cur_node];
  const char *c = (const char*)s;
  const char *colon = n ? memrchr(c, ':', n) : NULL;
  size_t nlen = colon ? (size_t)(colon - c) : n;
  int32_t idx = 0;
  uint32_t src = GR_NONE;
  if( colon ){
    int64_t v;
    if( parse_i64(colon + 1, n - nlen - 1, &v)!=1 || v < -1 || v > INT32_MAX )
      return fail_back(l, string_back(l, s, n, consumed(l)),
                       "bad input index in \"%.*s\" (expected \"op:index\" with a decimal index, -1 for control)",
                       (int)(n > 200 ? 200 : n), c);
    idx = (int32_t)v;
  }
  if( idx==-1 ){
    if( nd->n_ctrl==MAX_PER_OP ) return fail_back(l, string_back(l, s, n, consumed(l)), "op has more than %u control inputs", MAX_PER_OP);
  }else if( nd->n_data==MAX_PER_OP ){
    return fail_back(l, string_back(l, s, n, consumed(l)), "op has more than %u inputs", MAX_PER_OP);
  }
  if( n && !intern_name(l, s, nlen, &src, 1) ) return 0;
  if( !GROW(l, g->edges, g->nedges, g->cap_edges, string_back(l, s, n, consumed(l))) ) return 0;
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

static int new_tensor(loader *l){
  gr_graph *g = l->g;
  gr_node *n = &g->nodes[l->cur_node];
  int out = top(l)==F_DESCS_OUT;
  uint16_t *cnt = out ? &n->n_out_desc : &n->n_in_desc;
  if( *cnt==MAX_PER_OP ) return fail_back(l, 1, "op has more than %u %s entries", MAX_PER_OP, out ? "output_desc" : "input_desc");
  if( !GROW(l, g->tensors, g->ntensors, g->cap_tensors, 1) ) return 0;
  g->tensors[g->ntensors].shape = 0;
  g->tensors[g->ntensors].dtype = 0;
  g->tensors[g->ntensors].layout = 0;
  l->tkind[g->ntensors - n->tensor0] = (unsigned char)out;
  if( !out && n->n_out_desc ) l->tensor_sort = 1;
  l->cur_tensor = (uint32_t)g->ntensors++;
  (*cnt)++;
  return push(l, F_DESC);
}

static int new_attr(loader *l){
  gr_graph *g = l->g;
  gr_node *n = &g->nodes[l->cur_node];
  gr_attr *a;
  if( n->n_attr==MAX_PER_OP ) return fail_back(l, 1, "op has more than %u attributes", MAX_PER_OP);
  if( !GROW(l, g->attrs, g->nattrs, g->cap_attrs, 1) ) return 0;
  a = &g->attrs[g->nattrs];
  memset(a, 0, sizeof *a);
  l->cur_attr = (uint32_t)g->nattrs++;
  n->n_attr++;
  return push(l, F_ATTR);
}

static gr_attr *cur_attr(loader *l){ return &l->g->attrs[l->cur_attr]; }

/* The list element count, checked before appending one more. */
#define LIST_ROOM(l, back) ((l)->list_n < MAX_LIST || \
  fail_back((l), (back), "list attribute longer than %u elements", MAX_LIST))
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

/* ---- yajl callbacks ---- */

#define KEY(lit) (n==sizeof(lit) - 1 && memcmp(k, lit, sizeof(lit) - 1)==0)

static int cb_map_key(void *ctx, const unsigned char *key, size_t n){
  loader *l = ctx;
  const char *k = (const char*)key;
  unsigned w = W_SKIP;
  if( l->skip ) return 1;
  switch( top(l) ){
  case F_OP:
    if( KEY("name") ) w = W_OP_NAME;
    else if( KEY("type") ) w = W_OP_TYPE;
    else if( KEY("input") ) w = W_OP_INPUT;
    else if( KEY("input_desc") ) w = W_OP_INDESC;
    else if( KEY("output_desc") ) w = W_OP_OUTDESC;
    else if( KEY("attr") ) w = W_OP_ATTR;
    break;
  case F_DESC:
    if( KEY("dtype") ) w = W_DESC_DTYPE;
    else if( KEY("shape") ) w = W_DESC_SHAPE;
    else if( KEY("layout") ) w = W_DESC_LAYOUT;
    break;
  case F_SHAPE:
    if( KEY("dim") ) w = W_SHAPE_DIM;
    break;
  case F_ATTR:
    if( KEY("key") ) w = W_ATTR_KEY;
    else if( KEY("value") ) w = W_ATTR_VALUE;
    break;
  case F_AVAL:
    if( n==1 ){
      switch( k[0] ){
      case 's': w = W_AV_S; break;
      case 'i': w = W_AV_I; break;
      case 'f': w = W_AV_F; break;
      case 'b': w = W_AV_B; break;
      }
    }else if( KEY("dt") ) w = W_AV_DT;
    else if( KEY("list") ) w = W_AV_LIST;
    if( w==W_SKIP ) cur_attr(l)->kind = GR_ATTR_OTHER;   /* td, t, g, func, list_list_int, ... */
    break;
  case F_LIST:
    if( n==1 ){
      unsigned kind = 0;
      switch( k[0] ){
      case 's': w = W_LIST_S; kind = GR_ATTR_LIST_S; break;
      case 'i': w = W_LIST_I; kind = GR_ATTR_LIST_I; break;
      case 'f': w = W_LIST_F; kind = GR_ATTR_LIST_F; break;
      case 'b': w = W_LIST_B; kind = GR_ATTR_LIST_B; break;
      }
      if( kind && l->list_kind && l->list_kind!=kind ) w = W_SKIP;   /* the first non-empty list wins */
    }else if( KEY("val_type") ) w = W_LIST_VALTYPE;
    if( w==W_SKIP ) l->list_other = 1;
    break;
  case F_GRAPH:
    if( KEY("name") ) w = W_GRAPH_NAME;
    else if( KEY("op") ) w = W_GRAPH_OP;
    break;
  case F_MODEL:
    if( KEY("name") ) w = W_MODEL_NAME;
    else if( KEY("graph") ) w = W_MODEL_GRAPH;
    break;
  }
  l->want = (unsigned char)w;
  return 1;
}

static int cb_start_map(void *ctx){
  loader *l = ctx;
  if( !enter(l) ) return 0;
  if( l->skip ){ l->skip++; return 1; }
  l->started = 1;
  switch( l->want ){
  case W_OP_ELEM: return new_node(l);
  case W_DESC_ELEM: return new_tensor(l);
  case W_DESC_SHAPE:
    l->g->tensors[l->cur_tensor].shape = 0;
    return push(l, F_SHAPE);
  case W_ATTR_ELEM: return new_attr(l);
  case W_ATTR_VALUE:
    cur_attr(l)->kind = GR_ATTR_OTHER;      /* an empty AttrDef */
    return push(l, F_AVAL);
  case W_AV_LIST:
    l->list_kind = 0; l->list_n = 0; l->list_first = 0; l->list_vt = -1; l->list_other = 0;
    return push(l, F_LIST);
  case W_SKIP: l->skip = 1; return 1;
  case W_GRAPH_ELEM: return new_graph(l);
  case W_TOP: return push(l, F_MODEL);
  default: return bad_type(l, 1);
  }
}

static int cb_end_map(void *ctx){
  loader *l = ctx;
  gr_graph *g = l->g;
  unsigned f;
  l->depth--;
  if( l->skip ){ l->skip--; return 1; }
  f = top(l);
  switch( f ){
  case F_OP: finish_node(l); break;
  case F_DESC:
    if( g->shapes[g->tensors[l->cur_tensor].shape].neg ) g->nodes[l->cur_node].flags |= GR_NODE_DYNAMIC;
    break;
  case F_ATTR:
    if( cur_attr(l)->kind==0 ) cur_attr(l)->kind = GR_ATTR_OTHER;   /* no "value" */
    break;
  case F_LIST: finish_list(l); break;
  case F_GRAPH: g->graphs[l->cur_graph].nnodes = (uint32_t)(g->nnodes - g->graphs[l->cur_graph].node0); break;
  }
  l->nframes--;
  l->want = l->nframes ? elem_want[top(l)] : W_SKIP;
  return 1;
}

static int cb_start_array(void *ctx){
  loader *l = ctx;
  unsigned f;
  if( !enter(l) ) return 0;
  if( l->skip ){ l->skip++; return 1; }
  l->started = 1;
  switch( l->want ){
  case W_OP_INPUT: f = F_INPUTS; break;
  case W_OP_INDESC: f = F_DESCS_IN; break;
  case W_OP_OUTDESC: f = F_DESCS_OUT; break;
  case W_SHAPE_DIM: l->ndim = 0; f = F_DIMS; break;
  case W_OP_ATTR: f = F_ATTRS; break;
  case W_LIST_S: f = F_LIST_S; break;
  case W_LIST_I: f = F_LIST_I; break;
  case W_LIST_F: f = F_LIST_F; break;
  case W_LIST_B: f = F_LIST_B; break;
  case W_GRAPH_OP: f = F_OPS; break;
  case W_MODEL_GRAPH: f = F_GRAPHS; break;
  case W_SKIP: l->skip = 1; return 1;
  default: return bad_type(l, 1);
  }
  return push(l, f);
}

static int cb_end_array(void *ctx){
  loader *l = ctx;
  l->depth--;
  if( l->skip ){ l->skip--; return 1; }
  if( top(l)==F_DIMS )
    l->g->tensors[l->cur_tensor].shape = gr_graph_intern_shape(l->g, l->dimv, (uint32_t)l->ndim);
  l->nframes--;
  l->want = elem_want[top(l)];     /* arrays never sit at the top level here */
  return 1;
}

static int cb_string(void *ctx, const unsigned char *s, size_t n){
  loader *l = ctx;
  gr_graph *g = l->g;
  gr_attr *a;
  double d;
  if( l->skip ) return 1;
  l->started = 1;
  switch( l->want ){
  case W_INPUT_ELEM: return add_edge(l, s, n);
  case W_OP_NAME: return intern_name(l, s, n, &g->nodes[l->cur_node].name, 0);
  case W_OP_TYPE: return intern_small(l, &g->types, C_TYPE, s, n, &g->nodes[l->cur_node].type);
  case W_DESC_DTYPE: return intern16(l, &g->dtypes, s, n, &g->tensors[l->cur_tensor].dtype);
  case W_DESC_LAYOUT: return intern16(l, &g->layouts, s, n, &g->tensors[l->cur_tensor].layout);
  case W_ATTR_KEY: return intern_small(l, &g->strs, C_KEY, s, n, &cur_attr(l)->key);
  case W_AV_S:
    a = cur_attr(l);
    a->kind = GR_ATTR_S; a->n = 0; a->u.i = 0;
    return intern_small(l, &g->strs, C_SVAL, s, n, &a->u.str);
  case W_AV_F:
    if( !parse_f64(l, (const char*)s, n, &d) ) return bad_type(l, string_back(l, s, n, consumed(l)));
    a = cur_attr(l);
    a->kind = GR_ATTR_F; a->n = 0; a->u.f = d;
    return 1;
  case W_AV_DT:
    a = cur_attr(l);
    a->kind = GR_ATTR_DT; a->n = 0; a->u.i = 0;
    return intern(l, &g->strs, s, n, &a->u.str);
  case W_LS_ELEM: {
    uint32_t id;
    if( !LIST_ROOM(l, string_back(l, s, n, consumed(l))) || !intern(l, &g->strs, s, n, &id) ) return 0;
    if( !GROW(l, g->lu32, g->nlu32, g->cap_lu32, string_back(l, s, n, consumed(l))) ) return 0;
    list_start(l, GR_ATTR_LIST_S, g->nlu32);
    g->lu32[g->nlu32++] = id;
    l->list_n++;
    return 1;
  }
  case W_LF_ELEM:
    if( !parse_f64(l, (const char*)s, n, &d) ) return bad_type(l, string_back(l, s, n, consumed(l)));
    if( !LIST_ROOM(l, string_back(l, s, n, consumed(l))) ) return 0;
    if( !GROW(l, g->lf64, g->nlf64, g->cap_lf64, string_back(l, s, n, consumed(l))) ) return 0;
    list_start(l, GR_ATTR_LIST_F, g->nlf64);
    g->lf64[g->nlf64++] = d;
    l->list_n++;
    return 1;
  case W_LIST_VALTYPE:
    l->list_vt = valtype((const char*)s, n);
    return 1;
  case W_GRAPH_NAME: return intern(l, &g->strs, s, n, &g->graphs[l->cur_graph].name);
  case W_MODEL_NAME: return intern(l, &g->strs, s, n, &g->model_name);
  case W_SKIP: return 1;
  default: return bad_type(l, string_back(l, s, n, consumed(l)));
  }
}

static int cb_number(void *ctx, const char *s, size_t n){
  loader *l = ctx;
  gr_graph *g = l->g;
  gr_attr *a;
  int64_t v;
  double d;
  if( l->skip ) return 1;
  l->started = 1;
  switch( l->want ){
  case W_DIM_ELEM:
    if( !int_value(l, s, n, &v) ) return 0;
    if( l->ndim==MAX_DIMS ) return fail_back(l, n, "shape has more than %u dims", MAX_DIMS);
    if( l->ndim==l->cap_dim ){
      l->cap_dim = l->cap_dim ? l->cap_dim * 2 : 16;
      l->dimv = gr_xrealloc(l->dimv, l->cap_dim * sizeof *l->dimv);
    }
    l->dimv[l->ndim++] = v;
    return 1;
  case W_AV_I:
    if( !int_value(l, s, n, &v) ) return 0;
    a = cur_attr(l);
    a->kind = GR_ATTR_I; a->n = 0; a->u.i = v;
    return 1;
  case W_LI_ELEM:
    if( !int_value(l, s, n, &v) || !LIST_ROOM(l, n) ) return 0;
    if( !GROW(l, g->li64, g->nli64, g->cap_li64, n) ) return 0;
    list_start(l, GR_ATTR_LIST_I, g->nli64);
    g->li64[g->nli64++] = v;
    l->list_n++;
    return 1;
  case W_AV_F:
    parse_f64(l, s, n, &d);
    a = cur_attr(l);
    a->kind = GR_ATTR_F; a->n = 0; a->u.f = d;
    return 1;
  case W_LF_ELEM:
    if( !LIST_ROOM(l, n) ) return 0;
    if( !GROW(l, g->lf64, g->nlf64, g->cap_lf64, n) ) return 0;
    parse_f64(l, s, n, &d);
    list_start(l, GR_ATTR_LIST_F, g->nlf64);
    g->lf64[g->nlf64++] = d;
    l->list_n++;
    return 1;
  case W_DESC_DTYPE:
    if( !int_value(l, s, n, &v) ) return 0;
    return intern16(l, &g->dtypes, (const unsigned char*)s, n, &g->tensors[l->cur_tensor].dtype);
  case W_AV_DT:
    if( !int_value(l, s, n, &v) ) return 0;
    a = cur_attr(l);
    a->kind = GR_ATTR_DT; a->n = 0; a->u.i = 0;
    return intern(l, &g->strs, (const unsigned char*)s, n, &a->u.str);
  case W_LIST_VALTYPE:
    if( !int_value(l, s, n, &v) ) return 0;
    l->list_vt = v >= 0 && v <= 10 ? (int)v : -1;
    return 1;
  case W_SKIP: return 1;
  default: return bad_type(l, n);
  }
}

static int cb_bool(void *ctx, int b){
  loader *l = ctx;
  gr_graph *g = l->g;
  gr_attr *a;
  uint64_t back = b ? 4 : 5;
  if( l->skip ) return 1;
  l->started = 1;
  switch( l->want ){
  case W_AV_B:
    a = cur_attr(l);
    a->kind = GR_ATTR_B; a->n = 0; a->u.i = b ? 1 : 0;
    return 1;
  case W_LB_ELEM:
    if( !LIST_ROOM(l, back) ) return 0;
    if( !GROW(l, g->li64, g->nli64, g->cap_li64, back) ) return 0;
    list_start(l, GR_ATTR_LIST_B, g->nli64);
    g->li64[g->nli64++] = b ? 1 : 0;
    l->list_n++;
    return 1;
  case W_SKIP: return 1;
  default: return bad_type(l, back);
  }
}

/* null is the proto default for a field; it is no array element. */
static int cb_null(void *ctx){
  loader *l = ctx;
  if( l->skip ) return 1;
  l->started = 1;
  if( l->want==W_SKIP || (l->want!=W_TOP && elem_want[top(l)]==W_KEY) ) return 1;
  return bad_type(l, 4);
}

static const yajl_callbacks callbacks = {
  cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
  cb_start_map, cb_map_key, cb_end_map, cb_start_array, cb_end_array
};

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

/* Names to nodes, per graph: `cur` maps a name id to the latest node bearing
** it; an entry below the graph's first node belongs to an earlier graph. */
static int resolve(loader *l){
  gr_graph *g = l->g;
  size_t nstr = gr_strpool_count(&g->strs), gi;
  uint32_t *cur;
  g->n_name_node = nstr;
  g->name_node = gr_big_alloc(nstr * sizeof *g->name_node);
  memset(g->name_node, 0xff, nstr * sizeof *g->name_node);
  if( g->ngraphs > 1 ){
    cur = gr_big_alloc(nstr * sizeof *cur);
    memset(cur, 0xff, nstr * sizeof *cur);
  }else{
    cur = g->name_node;
  }
  for(gi = 0; gi < g->ngraphs && !l->failed; gi++){
    uint32_t a = g->graphs[gi].node0, b = a + g->graphs[gi].nnodes, i, dup = GR_NONE, dup_of = 0;
    for(i = a; i < b; i++){
      uint32_t s = g->nodes[i].name, c = cur[s];
      if( c!=GR_NONE && c >= a ){
        if( dup==GR_NONE ){ dup = i; dup_of = c; }
        continue;
      }
      cur[s] = i;
      if( cur!=g->name_node && g->name_node[s]==GR_NONE ) g->name_node[s] = i;
    }
    for(i = a; i < (dup==GR_NONE ? b : dup) && !l->failed; i++){
      gr_node *n = &g->nodes[i];
      uint32_t k, ne = (uint32_t)n->n_data + n->n_ctrl;
      gr_edge *e;
      if( ne==0 ) continue;
      e = g->edges + n->edge0;
      for(k = 0; k < ne; k++){
        uint32_t c;
        if( e[k].src==GR_NONE ) continue;
        c = cur[e[k].src];
        if( c==GR_NONE || c < a ){ fail_edge(l, i, k); break; }
        e[k].src = c;
      }
    }
    if( !l->failed && dup!=GR_NONE )
      fail_node(l, &g->nodes[dup], "duplicate op name '%s' (first defined at line %u)",
                gr_strpool_get(&g->strs, g->nodes[dup].name), g->nodes[dup_of].line);
  }
  if( cur!=g->name_node ) gr_big_free(cur, nstr * sizeof *cur);
  return !l->failed;
}

/* ---- driver ---- */

static void loader_init(loader *l){
  memset(l, 0, sizeof *l);
  l->g = gr_graph_new();
  l->h = yajl_alloc(&callbacks, NULL, l);
  if( l->h==NULL ){ static const char m[] = "gerules: out of memory\n"; if( write(2, m, sizeof m - 1) ){} abort(); }
  l->line = 1;
  l->want = W_TOP;
  l->tkind = gr_xmalloc(2 * (size_t)MAX_PER_OP + 2);
  l->names = gr_xcalloc(NAME_CACHE, sizeof *l->names);
  gr_buf_init(&l->tmp);
  l->chunk = "";
}

/* Frees the loader; returns the graph, or NULL (graph freed, error copied) on failure. */
static gr_graph *loader_done(loader *l, gr_error *err){
  gr_graph *g = l->g;
  yajl_free(l->h);
  free(l->tkind);
  free(l->names);
  free(l->dimv);
  gr_vec_free(l->nocolon);
  gr_buf_free(&l->tmp);
  if( l->failed ){
    gr_graph_free(g);
    if( err ) *err = l->e;
    return NULL;
  }
  return g;
}

/* How far the token that ends at chunk offset `off` reaches back. */
static uint64_t token_back(const loader *l, size_t off){
  long long i = (long long)off - 1;
  int c = vbyte(l, i);
  if( c < 0 ) return 0;
  if( strchr("{}[],:", c) ) return 1;
  if( c=='"' ) return string_back(l, NULL, 0, off);
  if( (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c=='-' || c=='+' || c=='.' ){
    uint64_t k = 0;
    while( k < 4096 && (c = vbyte(l, i))>=0 && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')
           || (c >= 'A' && c <= 'Z') || c=='-' || c=='+' || c=='.') ){ k++; i--; }
    return k;
  }
  return 0;
}

/* yajl's own error: its first line, at the byte where the lexer stopped, or
** for a parse error at the start of the token it refused. */
static void yajl_failed(loader *l, size_t end_max, int at_eof){
  unsigned char *m = yajl_get_error(l->h, 0, NULL, 0);
  size_t off = consumed(l);
  uint32_t line, col;
  char *nl;
  uint64_t back = 0;
  if( off > end_max ) off = end_max;
  if( at_eof || m==NULL || strncmp((char*)m, "parse error", 11)!=0 ){
    back = 0;                 /* lexical error: the offset is the failing byte */
  }else if( strstr((char*)m, "after key and value, inside map") ){
    /* yajl already moved the offset back by the token's text length, which
    ** leaves it just after the opening quote plus one when the token is a string */
    int c1 = vbyte(l, (long long)off - 1);
    back = vbyte(l, (long long)off - 2)=='"' && c1 > ' ' ? 2 : 0;
  }else{
    back = token_back(l, off);
  }
  locate(l, off, back, &line, &col);
  if( m && (nl = strchr((char*)m, '\n'))!=NULL ) *nl = 0;
  l->failed = 1;
  l->e.line = line; l->e.col = col;
  snprintf(l->e.msg, sizeof l->e.msg, "%s", m ? (char*)m : "invalid JSON");
  if( m ) yajl_free_error(l->h, m);
}

/* Parses one chunk; 0 once the load has failed. */
static int feed(loader *l, const char *p, size_t n){
  yajl_status st;
  l->prev = l->chunk; l->prev_len = l->chunk_len;
  l->chunk = p; l->chunk_len = n; l->nl_scan = 0;
  st = yajl_parse(l->h, (const unsigned char*)p, n);
  if( st==yajl_status_error ) yajl_failed(l, n, 0);
  if( st!=yajl_status_ok ){ l->failed = 1; return 0; }
  nl_advance(l, n);
  l->chunk_abs += n;
  return 1;
}

static gr_graph *finish(loader *l, gr_error *err){
  yajl_status st;
  if( l->failed ) return loader_done(l, err);
  /* yajl_complete_parse feeds a single " ": position it at the end */
  l->prev = l->chunk; l->prev_len = l->chunk_len;
  l->chunk = " "; l->chunk_len = 1; l->nl_scan = 0;
  st = yajl_complete_parse(l->h);
  if( st!=yajl_status_ok && !l->failed ){
    if( !l->started ){
      uint32_t line, col;
      locate(l, 0, 0, &line, &col);
      l->failed = 1;
      l->e.line = line; l->e.col = col;
      snprintf(l->e.msg, sizeof l->e.msg, "empty input (expected a JSON object)");
    }else{
      yajl_failed(l, 0, 1);
    }
  }
  l->failed |= st!=yajl_status_ok;
  if( !l->failed ) resolve(l);
  return loader_done(l, err);
}

gr_graph *gr_graph_load_mem(const char *buf, size_t len, gr_error *err){
  loader l;
  size_t off = 0;
  loader_init(&l);
  while( off < len ){
    size_t n = len - off < CHUNK ? len - off : CHUNK;
    if( !feed(&l, buf + off, n) ) break;
    off += n;
  }
  return finish(&l, err);
}

gr_graph *gr_graph_load_fd(int fd, gr_error *err){
  loader l;
  char *buf[2];
  int k = 0;
  loader_init(&l);
  buf[0] = gr_xmalloc(CHUNK);
  buf[1] = gr_xmalloc(CHUNK);
  for(;;){
    ssize_t r = read(fd, buf[k], CHUNK);
    if( r < 0 ){
      if( errno==EINTR ) continue;
      l.failed = 1;
      l.e.line = 0; l.e.col = 0;
      snprintf(l.e.msg, sizeof l.e.msg, "cannot read: %s", strerror(errno));
      break;
    }
    if( r==0 ) break;
    if( !feed(&l, buf[k], (size_t)r) ) break;
    k ^= 1;
  }
  {
    gr_graph *g = finish(&l, err);
    free(buf[0]);
    free(buf[1]);
    return g;
  }
}

gr_graph *gr_graph_load_file(const char *path, gr_error *err){
  int fd;
  gr_graph *g;
  if( strcmp(path, "-")==0 ) return gr_graph_load_fd(0, err);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if( fd < 0 ){
    gr_error_set(err, 0, 0, "cannot open: %s", strerror(errno));
    return NULL;
  }
  g = gr_graph_load_fd(fd, err);
  close(fd);
  return g;
}
