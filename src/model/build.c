/*
** build.c: the op-by-op graph builder of build.h. It appends straight into
** the flat arrays of graph.h as the JSON reader does (names interned, shapes
** interned by dim vector, edge sources kept as name ids), puts an op's data
** inputs before its control inputs and its input descriptors before its
** output descriptors when a reader gave them interleaved (text format allows
** any field order), and resolves the edges with gr_graph_resolve at the end.
*/
#include "config.h"
#include "model/build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gr_build {
  gr_graph *g;
  gr_error e;
  int failed, done;
  int in_op;
  uint32_t cur;                 /* current op */
  int edge_sort;
  uint32_t list_attr;           /* index of the list attribute being filled */
  int in_desc;                  /* attributes go to the input descriptor dix[cur_dix] */
  uint32_t cur_dix;
  gr_buf prefix;                /* "" or "<prefix>/": put before every graph name given next */
};

gr_build *gr_build_new(void){
  gr_build *b = gr_xcalloc(1, sizeof *b);
  b->g = gr_graph_new();
  gr_buf_init(&b->prefix);
  return b;
}

void gr_build_abort(gr_build *b){
  if( !b ) return;
  if( !b->done ) gr_graph_free(b->g);
  gr_buf_free(&b->prefix);
  free(b);
}

int gr_build_fail(gr_build *b, uint32_t line, uint32_t col, const char *fmt, ...){
  va_list ap;
  if( b->failed ) return 0;
  b->failed = 1;
  b->e.line = line; b->e.col = col;
  va_start(ap, fmt);
  vsnprintf(b->e.msg, sizeof b->e.msg, fmt, ap);
  va_end(ap);
  return 0;
}

int gr_build_failed(const gr_build *b){ return b->failed; }
uint32_t gr_build_ngraphs(const gr_build *b){ return (uint32_t)b->g->ngraphs; }

static int grow(gr_build *b, void **p, size_t *cap, size_t n, size_t elsz){
  return gr_graph_grow(p, cap, n, elsz) || gr_build_fail(b, 0, 0, "graph too large (more than %u entries in one table)", GR_MAX_IDS);
}
#define GROW(b, arr, n, cap) ((n) < (cap) || grow((b), (void**)&(arr), &(cap), (n), sizeof *(arr)))

static int intern(gr_build *b, gr_strpool *p, const char *s, size_t n, uint32_t *id){
  if( b->failed ) return 0;
  if( n > GR_MAX_STR ) return gr_build_fail(b, 0, 0, "string longer than %u bytes", GR_MAX_STR);
  if( n && memchr(s, 0, n) ) return gr_build_fail(b, 0, 0, "string contains a NUL character");
  if( p->nbytes + n + 1 > 0xffffffffu ) return gr_build_fail(b, 0, 0, "too much string data (more than 4 GiB)");
  *id = gr_strpool_intern(p, n ? s : "", n);
  return 1;
}

static int intern16(gr_build *b, gr_strpool *p, const char *s, size_t n, uint16_t *id){
  uint32_t v;
  if( !intern(b, p, s, n, &v) ) return 0;
  if( v > 0xffff ) return gr_build_fail(b, 0, 0, "more than 65535 distinct dtype or layout values");
  *id = (uint16_t)v;
  return 1;
}

int gr_build_model_name(gr_build *b, const char *s, size_t n){
  return intern(b, &b->g->strs, s, n, &b->g->model_name);
}

int gr_build_model_attr(gr_build *b, const char *key, size_t kn, const char *s, size_t n){
  uint32_t k, v;
  if( !intern(b, &b->g->strs, key, kn, &k) || !intern(b, &b->g->strs, s, n, &v) ) return 0;
  gr_graph_add_model_attr(b->g, k, v);
  return 1;
}

/* Data inputs before control inputs (input descs are kept before output
** descs as they come, gr_build_tensor_ids). */
static void end_op(gr_build *b){
  if( !b->in_op ) return;
  b->in_op = 0;
  b->in_desc = 0;
  gr_graph_op_finish(b->g, b->cur, b->edge_sort, NULL);
}

int gr_build_graph(gr_build *b, const char *name, size_t n){
  gr_graph *g = b->g;
  if( b->failed ) return 0;
  end_op(b);
  if( g->ngraphs >= GR_MAX_GRAPHS ) return gr_build_fail(b, 0, 0, "more than %u graphs", GR_MAX_GRAPHS);
  if( !GROW(b, g->graphs, g->ngraphs, g->cap_graphs) ) return 0;
  gr_graph_begin(g);
  if( b->prefix.n ){
    size_t k = b->prefix.n;
    int ok;
    gr_buf_add(&b->prefix, name, n);
    ok = intern(b, &g->strs, b->prefix.p, b->prefix.n, &g->graphs[g->ngraphs - 1].name);
    b->prefix.n = k;
    return ok;
  }
  return intern(b, &g->strs, name, n, &g->graphs[g->ngraphs - 1].name);
}

int gr_build_graph_prefix(gr_build *b, const char *prefix, size_t n){
  b->prefix.n = 0;
  if( n ){ gr_buf_add(&b->prefix, prefix, n); gr_buf_addc(&b->prefix, '/'); }
  return !b->failed;
}

int gr_build_op_ids(gr_build *b, uint32_t name, uint32_t type, uint32_t line, uint32_t col){
  gr_graph *g = b->g;
  gr_node *n;
  if( b->failed ) return 0;
  end_op(b);
  if( g->ngraphs==0 && !gr_build_graph(b, "", 0) ) return 0;
  if( !GROW(b, g->nodes, g->nnodes, g->cap_nodes) ) return 0;
  b->cur = gr_graph_op_begin(g, (uint32_t)(g->ngraphs - 1));
  n = &g->nodes[b->cur];
  n->line = line; n->col = col;
  n->name = name; n->type = type;
  g->graphs[g->ngraphs - 1].nnodes++;
  b->in_op = 1;
  b->edge_sort = 0;
  return 1;
}

int gr_build_op(gr_build *b, const char *name, size_t nn, const char *type, size_t tn, uint32_t line, uint32_t col){
  uint32_t ni, ti;
  if( !intern(b, &b->g->strs, name, nn, &ni) || !intern(b, &b->g->types, type, tn, &ti) ) return 0;
  return gr_build_op_ids(b, ni, ti, line, col);
}

int gr_build_op_name(gr_build *b, const char *name, size_t nn){
  if( b->failed || !b->in_op ) return 0;
  return intern(b, &b->g->strs, name, nn, &b->g->nodes[b->cur].name);
}

int gr_build_graph_name(gr_build *b, const char *name, size_t n){
  if( b->failed || b->g->ngraphs==0 ) return 0;
  return intern(b, &b->g->strs, name, n, &b->g->graphs[b->g->ngraphs - 1].name);
}

int gr_build_op_type(gr_build *b, const char *type, size_t tn){
  if( b->failed || !b->in_op ) return 0;
  return intern(b, &b->g->types, type, tn, &b->g->nodes[b->cur].type);
}

int gr_build_edge(gr_build *b, const char *src, size_t n, int32_t idx){
  uint32_t id = GR_NONE;
  if( b->failed || !b->in_op ) return 0;
  if( n && !intern(b, &b->g->strs, src, n, &id) ) return 0;
  return gr_build_edge_id(b, id, idx);
}

int gr_build_edge_id(gr_build *b, uint32_t id, int32_t idx){
  gr_graph *g = b->g;
  gr_node *nd;
  if( b->failed || !b->in_op ) return 0;
  nd = &g->nodes[b->cur];
  if( idx==-1 ){
    if( nd->n_ctrl==GR_MAX_PER_OP ) return gr_build_fail(b, nd->line, nd->col, "op has more than %u control inputs", GR_MAX_PER_OP);
  }else if( nd->n_data==GR_MAX_PER_OP ){
    return gr_build_fail(b, nd->line, nd->col, "op has more than %u inputs", GR_MAX_PER_OP);
  }
  if( !GROW(b, g->edges, g->nedges, g->cap_edges) ) return 0;
  g->edges[g->nedges].src = id;
  g->edges[g->nedges].index = idx;
  g->nedges++;
  nd = &g->nodes[b->cur];
  if( idx==-1 ){ nd->n_ctrl++; return 1; }
  if( nd->n_ctrl ) b->edge_sort = 1;
  nd->n_data++;
  return 1;
}

int gr_build_input(gr_build *b, const char *s, size_t n){
  const char *colon = n ? memrchr(s, ':', n) : NULL;
  int64_t v = 0;
  if( colon ){
    const char *p = colon + 1, *end = s + n;
    int neg = 0;
    if( p < end && *p=='-' ){ neg = 1; p++; }
    if( p==end ) goto bad;
    for(; p < end; p++){
      if( *p < '0' || *p > '9' || v > INT32_MAX / 10 ) goto bad;
      v = v * 10 + (*p - '0');
    }
    if( neg ) v = -v;
    if( v < -1 ) goto bad;
    return gr_build_edge(b, s, (size_t)(colon - s), (int32_t)v);
  }
  return gr_build_edge(b, s, n, 0);
bad:
  {
    const gr_node *nd = &b->g->nodes[b->cur];
    return gr_build_fail(b, nd->line, nd->col, "bad input \"%.*s\" of op '%s' (expected \"op:index\" with a decimal index, -1 for control)",
                         (int)(n > 200 ? 200 : n), s, gr_strpool_get(&b->g->strs, nd->name));
  }
}

int gr_build_tensor(gr_build *b, int output, const char *dtype, size_t dn, const char *layout, size_t ln,
                    const int64_t *dims, uint32_t ndim){
  uint16_t dt = 0, ly = 0;
  uint32_t sh = GR_SHAPE_SCALAR;   /* GE formats: no dims is a scalar (graph.h; ge_pb.c says where GE says so) */
  if( b->failed || !b->in_op ) return 0;
  if( dn && !intern16(b, &b->g->dtypes, dtype, dn, &dt) ) return 0;
  if( ln && !intern16(b, &b->g->layouts, layout, ln, &ly) ) return 0;
  if( ndim && !gr_build_shape(b, dims, ndim, &sh) ) return 0;
  return gr_build_tensor_ids(b, output, dt, ly, sh);
}

int gr_build_shape(gr_build *b, const int64_t *dims, uint32_t ndim, uint32_t *id){
  if( b->failed ) return 0;
  if( ndim > GR_MAX_DIMS ){
    const gr_node *nd = b->in_op ? &b->g->nodes[b->cur] : NULL;
    return gr_build_fail(b, nd ? nd->line : 0, nd ? nd->col : 0, "shape has more than %u dims", GR_MAX_DIMS);
  }
  *id = ndim ? gr_graph_intern_shape(b->g, dims, ndim) : GR_SHAPE_SCALAR;   /* [] is a scalar, never "not known" */
  return 1;
}

const int64_t *gr_build_shape_dims(const gr_build *b, uint32_t shape, uint32_t *ndim){ return gr_graph_shape(b->g, shape, ndim); }
void gr_build_reserve(gr_build *b, size_t n){ gr_strpool_reserve(&b->g->strs, gr_strpool_count(&b->g->strs) + n); }
void gr_build_prefetch_str(const gr_build *b, uint64_t h){ gr_strpool_prefetch(&b->g->strs, h); }
int gr_build_str_h(gr_build *b, const char *s, size_t n, uint64_t h, uint32_t *id){
  if( b->failed ) return 0;
  if( n > GR_MAX_STR ) return gr_build_fail(b, 0, 0, "string longer than %u bytes", GR_MAX_STR);
  if( n && memchr(s, 0, n) ) return gr_build_fail(b, 0, 0, "string contains a NUL character");
  if( b->g->strs.nbytes + n + 1 > 0xffffffffu ) return gr_build_fail(b, 0, 0, "too much string data (more than 4 GiB)");
  *id = gr_strpool_intern_h(&b->g->strs, n ? s : "", n, h);
  return 1;
}
int gr_build_str(gr_build *b, const char *s, size_t n, uint32_t *id){ return intern(b, &b->g->strs, s, n, id); }
int gr_build_type(gr_build *b, const char *s, size_t n, uint32_t *id){ return intern(b, &b->g->types, s, n, id); }
int gr_build_dtype(gr_build *b, const char *s, size_t n, uint16_t *id){
  if( n==0 ){ *id = 0; return !b->failed; }
  return intern16(b, &b->g->dtypes, s, n, id);
}

int gr_build_tensor_ids(gr_build *b, int output, uint16_t dtype, uint16_t layout, uint32_t shape){
  gr_graph *g = b->g;
  gr_node *nd;
  gr_tensor *t;
  uint16_t *cnt;
  if( b->failed || !b->in_op ) return 0;
  nd = &g->nodes[b->cur];
  cnt = output ? &nd->n_out_desc : &nd->n_in_desc;
  if( *cnt==GR_MAX_PER_OP ) return gr_build_fail(b, nd->line, nd->col, "op has more than %u %s", GR_MAX_PER_OP, output ? "outputs" : "inputs");
  if( !output && nd->n_out_desc ){
    /* an input desc after an output desc: move the outputs up by one */
    size_t k = (size_t)nd->tensor0 + nd->n_in_desc;
    if( !GROW(b, g->tensors, g->ntensors, g->cap_tensors) ) return 0;
    memmove(&g->tensors[k + 1], &g->tensors[k], (g->ntensors - k) * sizeof *g->tensors);
    g->ntensors++;
    t = &g->tensors[k];
  }else{
    if( !GROW(b, g->tensors, g->ntensors, g->cap_tensors) ) return 0;
    t = &g->tensors[g->ntensors++];
  }
  t->dtype = dtype; t->layout = layout; t->shape = shape;
  nd = &g->nodes[b->cur];
  (*(output ? &nd->n_out_desc : &nd->n_in_desc))++;
  if( g->shapes[t->shape].neg ) nd->flags |= GR_NODE_DYNAMIC;
  return 1;
}

/* The array attributes are being added to: the op's, or the input descriptor's. */
static gr_attr *attr_at(gr_build *b, uint32_t i){ return b->in_desc ? &b->g->dattrs[i] : &b->g->attrs[i]; }

static gr_attr *new_attr_id(gr_build *b, uint32_t k, int kind){
  gr_graph *g = b->g;
  gr_node *nd;
  gr_attr *a;
  if( b->failed || !b->in_op ) return NULL;
  nd = &g->nodes[b->cur];
  if( b->in_desc ){
    gr_dattr_ix *x = &g->dix[b->cur_dix];
    if( x->n==GR_MAX_PER_OP ){ gr_build_fail(b, nd->line, nd->col, "input_desc has more than %u attributes", GR_MAX_PER_OP); return NULL; }
    if( !GROW(b, g->dattrs, g->ndattrs, g->cap_dattrs) ) return NULL;
    a = &g->dattrs[g->ndattrs++];
    memset(a, 0, sizeof *a);
    a->key = k; a->kind = (uint32_t)kind;
    g->dix[b->cur_dix].n++;
    return a;
  }
  if( nd->n_attr==GR_MAX_PER_OP ){ gr_build_fail(b, nd->line, nd->col, "op has more than %u attributes", GR_MAX_PER_OP); return NULL; }
  if( !GROW(b, g->attrs, g->nattrs, g->cap_attrs) ) return NULL;
  a = &g->attrs[g->nattrs++];
  memset(a, 0, sizeof *a);
  a->key = k; a->kind = (uint32_t)kind;
  g->nodes[b->cur].n_attr++;
  return a;
}

static gr_attr *new_attr(gr_build *b, const char *key, size_t kn, int kind){
  uint32_t k;
  if( b->failed || !b->in_op ) return NULL;
  if( !intern(b, &b->g->strs, key, kn, &k) ) return NULL;
  return new_attr_id(b, k, kind);
}

int gr_build_attr_s_ids(gr_build *b, uint32_t key, uint32_t val){
  gr_attr *a = new_attr_id(b, key, GR_ATTR_S);
  if( a ) a->u.str = val;
  return a!=NULL;
}
int gr_build_attr_i_id(gr_build *b, uint32_t key, int64_t v){
  gr_attr *a = new_attr_id(b, key, GR_ATTR_I);
  if( a ) a->u.i = v;
  return a!=NULL;
}

int gr_build_attr_i(gr_build *b, const char *key, size_t kn, int64_t v){
  gr_attr *a = new_attr(b, key, kn, GR_ATTR_I);
  if( a ) a->u.i = v;
  return a!=NULL;
}
int gr_build_attr_f(gr_build *b, const char *key, size_t kn, double v){
  gr_attr *a = new_attr(b, key, kn, GR_ATTR_F);
  if( a ) a->u.f = v;
  return a!=NULL;
}
int gr_build_attr_b(gr_build *b, const char *key, size_t kn, int v){
  gr_attr *a = new_attr(b, key, kn, GR_ATTR_B);
  if( a ) a->u.i = v!=0;
  return a!=NULL;
}
static int attr_str(gr_build *b, const char *key, size_t kn, const char *s, size_t n, int kind){
  uint32_t id;
  gr_attr *a;
  if( !intern(b, &b->g->strs, s, n, &id) ) return 0;
  if( (a = new_attr(b, key, kn, kind))==NULL ) return 0;
  a->u.str = id;
  return 1;
}
int gr_build_attr_s(gr_build *b, const char *key, size_t kn, const char *s, size_t n){ return attr_str(b, key, kn, s, n, GR_ATTR_S); }
int gr_build_attr_dt(gr_build *b, const char *key, size_t kn, const char *s, size_t n){ return attr_str(b, key, kn, s, n, GR_ATTR_DT); }
int gr_build_attr_other(gr_build *b, const char *key, size_t kn){ return new_attr(b, key, kn, GR_ATTR_OTHER)!=NULL; }

int gr_build_input_attrs_begin(gr_build *b){
  gr_graph *g = b->g;
  gr_dattr_ix *x;
  const gr_node *nd;
  if( b->failed || !b->in_op ) return 0;
  nd = &g->nodes[b->cur];
  if( nd->n_in_desc==0 ) return gr_build_fail(b, nd->line, nd->col, "input descriptor attributes before any input descriptor");
  if( g->ndix && g->dix[g->ndix - 1].node==b->cur && g->dix[g->ndix - 1].in==nd->n_in_desc - 1 ){
    b->cur_dix = (uint32_t)(g->ndix - 1);            /* the same descriptor again */
  }else{
    if( !GROW(b, g->dix, g->ndix, g->cap_dix) ) return 0;
    x = &g->dix[g->ndix];
    x->node = b->cur; x->in = (uint16_t)(nd->n_in_desc - 1); x->n = 0; x->first = (uint32_t)g->ndattrs;
    b->cur_dix = (uint32_t)g->ndix++;
  }
  b->in_desc = 1;
  return 1;
}

void gr_build_input_attrs_end(gr_build *b){ b->in_desc = 0; }

int gr_build_subgraph(gr_build *b, const char *name, size_t n){
  gr_graph *g = b->g;
  uint32_t id;
  if( b->failed || !b->in_op ) return 0;
  if( b->prefix.n ){
    size_t k = b->prefix.n;
    int ok;
    gr_buf_add(&b->prefix, name, n);
    ok = intern(b, &g->strs, b->prefix.p, b->prefix.n, &id);
    b->prefix.n = k;
    if( !ok ) return 0;
  }else if( !intern(b, &g->strs, name, n, &id) ) return 0;
  if( !GROW(b, g->subg, g->nsubg, g->cap_subg) ) return 0;
  g->subg[g->nsubg].node = b->cur;
  g->subg[g->nsubg].name = id;
  g->nsubg++;
  return 1;
}

int gr_build_list(gr_build *b, const char *key, size_t kn, int kind){
  gr_graph *g = b->g;
  gr_attr *a = new_attr(b, key, kn, kind);
  if( !a ) return 0;
  b->list_attr = (uint32_t)((b->in_desc ? g->ndattrs : g->nattrs) - 1);
  a->u.list = kind==GR_ATTR_LIST_S ? g->nlu32 : kind==GR_ATTR_LIST_F ? g->nlf64 : g->nli64;
  return 1;
}

static gr_attr *list_room(gr_build *b){
  gr_attr *a;
  if( b->failed ) return NULL;
  a = attr_at(b, b->list_attr);
  if( a->n >= GR_MAX_LIST ){ gr_build_fail(b, 0, 0, "list attribute longer than %u elements", GR_MAX_LIST); return NULL; }
  return a;
}

int gr_build_list_i(gr_build *b, int64_t v){
  gr_graph *g = b->g;
  gr_attr *a = list_room(b);
  if( !a || !GROW(b, g->li64, g->nli64, g->cap_li64) ) return 0;
  g->li64[g->nli64++] = a->kind==GR_ATTR_LIST_B ? v!=0 : v;
  attr_at(b, b->list_attr)->n++;
  return 1;
}

int gr_build_list_f(gr_build *b, double v){
  gr_graph *g = b->g;
  gr_attr *a = list_room(b);
  if( !a || !GROW(b, g->lf64, g->nlf64, g->cap_lf64) ) return 0;
  g->lf64[g->nlf64++] = v;
  attr_at(b, b->list_attr)->n++;
  return 1;
}

int gr_build_list_s(gr_build *b, const char *s, size_t n){
  gr_graph *g = b->g;
  uint32_t id;
  if( !list_room(b) || !intern(b, &g->strs, s, n, &id) || !GROW(b, g->lu32, g->nlu32, g->cap_lu32) ) return 0;
  g->lu32[g->nlu32++] = id;
  attr_at(b, b->list_attr)->n++;
  return 1;
}

void gr_build_list_end(gr_build *b){
  gr_attr *a;
  if( b->failed ) return;
  a = attr_at(b, b->list_attr);
  if( a->n==0 ) a->u.list = 0;
}

gr_graph *gr_build_finish(gr_build *b, gr_error *err){
  gr_graph *g = b->g;
  gr_resolve_fail f;
  int r;
  if( !b->failed ) end_op(b);
  if( !b->failed && (r = gr_graph_resolve(g, &f))!=0 ){
    const gr_node *n = &g->nodes[f.node];
    const char *name = gr_strpool_get(&g->strs, n->name);
    if( r==GR_RESOLVE_EDGE ){
      const gr_edge *e = &g->edges[n->edge0 + f.pos];
      const char *src = gr_strpool_get(&g->strs, e->src);
      gr_build_fail(b, n->line, n->col, "op '%s' input %u (\"%s:%d\") refers to unknown op '%s'", name, f.pos, src, e->index, src);
    }else{
      gr_build_fail(b, n->line, n->col, "duplicate op name '%s' in graph '%s'", name,
                    gr_strpool_get(&g->strs, g->graphs[n->graph].name));
    }
  }
  if( b->failed ){
    if( err ) *err = b->e;
    gr_build_abort(b);
    return NULL;
  }
  b->done = 1;
  gr_buf_free(&b->prefix);
  free(b);
  return g;
}
