/*
** graph.c: the compact graph of graph.h once loaded: construction of an
** empty graph, shape interning (a dim vector hashes to a dense shape id, so
** the millions of tensors of a transformer graph share a handful of shapes),
** every read accessor, the memory statistics and gr_graph_free(), and the
** steps both builders share (growing a table, starting and finishing an op).
** The builders that fill the arrays are graph_load.c (streaming ATC JSON)
** and build.c (op by op, for the other readers).
*/
#include "config.h"
#include "model/graph.h"

#include <stdlib.h>
#include <string.h>

static const int64_t no_dims[1] = { 0 };

gr_graph *gr_graph_new(void){
  gr_graph *g = gr_xcalloc(1, sizeof *g);
  gr_strpool_init(&g->strs);
  gr_strpool_init(&g->types);
  gr_strpool_init(&g->dtypes);
  gr_strpool_init(&g->layouts);
  gr_graph_intern_shape(g, NULL, 0);      /* GR_SHAPE_SCALAR = [] */
  /* GR_SHAPE_UNKNOWN: no dims, and not in shape_index, so interning []
  ** never finds it */
  g->shapes[g->nshapes].off = g->ndims;
  g->shapes[g->nshapes].ndim = 0;
  g->shapes[g->nshapes].neg = 0;
  g->shapes[g->nshapes].unknown = 1;
  g->nshapes++;
  return g;
}

/* ---- the builders' shared steps (graph.h internals) ---- */

int gr_graph_grow(void **p, size_t *cap, size_t n, size_t elsz){
  size_t nc;
  if( n >= GR_MAX_IDS ) return 0;
  nc = *cap ? *cap * 2 : (size_t)(64u << 10) / elsz;
  if( nc > GR_MAX_IDS ) nc = GR_MAX_IDS;
  *p = gr_big_realloc(*p, *cap * elsz, nc * elsz);
  *cap = nc;
  return 1;
}

uint32_t gr_graph_begin(gr_graph *g){
  gr_graph_info *gi = &g->graphs[g->ngraphs];
  gi->name = 0; gi->node0 = (uint32_t)g->nnodes; gi->nnodes = 0; gi->parent = GR_NONE;
  return (uint32_t)g->ngraphs++;
}

/* Rare: only files that interleave the fields. */
void gr_graph_op_sort(gr_graph *g, uint32_t node, int edge_sort, const unsigned char *tkind){
  gr_node *n = &g->nodes[node];
  if( edge_sort ){
    size_t ne = (size_t)n->n_data + n->n_ctrl, i, k = 0;
    gr_edge *e = g->edges + n->edge0, *t = gr_xmalloc(ne * sizeof *t);
    for(i = 0; i < ne; i++) if( e[i].index!=-1 ) t[k++] = e[i];
    for(i = 0; i < ne; i++) if( e[i].index==-1 ) t[k++] = e[i];
    memcpy(e, t, ne * sizeof *t);
    free(t);
  }
  if( tkind ){
    size_t nt = (size_t)n->n_in_desc + n->n_out_desc, i, k = 0;
    gr_tensor *d = g->tensors + n->tensor0, *t = gr_xmalloc(nt * sizeof *t);
    for(i = 0; i < nt; i++) if( !tkind[i] ) t[k++] = d[i];
    for(i = 0; i < nt; i++) if( tkind[i] ) t[k++] = d[i];
    memcpy(d, t, nt * sizeof *t);
    free(t);
  }
}

/* Each graph's parent: the first op (in file order) whose subgraph_name
** names it. The pairs are sorted by name id, then by node, and each graph's
** name is looked up by binary search: O((P + G) log P), whatever the file. */
static int subg_cmp(const void *a, const void *b){
  const gr_subg *x = a, *y = b;
  if( x->name!=y->name ) return x->name < y->name ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

static void link_parents(gr_graph *g){
  size_t gi;
  if( g->nsubg > 1 ) qsort(g->subg, g->nsubg, sizeof *g->subg, subg_cmp);
  for(gi = 0; gi < g->ngraphs; gi++){
    size_t lo = 0, hi = g->nsubg;
    uint32_t name = g->graphs[gi].name;
    g->graphs[gi].parent = GR_NONE;
    if( gi==0 || name==0 ) continue;       /* the root graph; an unnamed graph */
    while( lo < hi ){
      size_t mid = lo + (hi - lo) / 2;
      if( g->subg[mid].name < name ) lo = mid + 1; else hi = mid;
    }
    if( lo < g->nsubg && g->subg[lo].name==name ) g->graphs[gi].parent = g->subg[lo].node;
  }
}

/* Names to nodes, per graph: `cur` maps a name id to the latest node bearing
** it; an entry below the graph's first node belongs to an earlier graph. */
int gr_graph_resolve(gr_graph *g, gr_resolve_fail *f){
  size_t nstr = gr_strpool_count(&g->strs), gi;
  uint32_t *cur;
  int failed = 0;
  g->n_name_node = nstr;
  g->name_node = gr_big_alloc(nstr * sizeof *g->name_node);
  memset(g->name_node, 0xff, nstr * sizeof *g->name_node);
  if( g->ngraphs > 1 ){
    cur = gr_big_alloc(nstr * sizeof *cur);
    memset(cur, 0xff, nstr * sizeof *cur);
  }else{
    cur = g->name_node;
  }
  for(gi = 0; gi < g->ngraphs && !failed; gi++){
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
    for(i = a; i < (dup==GR_NONE ? b : dup) && !failed; i++){
      gr_node *n = &g->nodes[i];
      uint32_t k, ne = (uint32_t)n->n_data + n->n_ctrl;
      gr_edge *e;
      if( ne==0 ) continue;
      e = g->edges + n->edge0;
      for(k = 0; k < ne; k++){
        uint32_t c;
        if( e[k].src==GR_NONE ) continue;
        c = cur[e[k].src];
        if( c==GR_NONE || c < a ){ f->node = i; f->pos = k; failed = GR_RESOLVE_EDGE; break; }
        e[k].src = c;
      }
    }
    if( !failed && dup!=GR_NONE ){ f->node = dup; f->first = dup_of; failed = GR_RESOLVE_DUP; }
  }
  if( cur!=g->name_node ) gr_big_free(cur, nstr * sizeof *cur);
  if( !failed ) link_parents(g);
  return failed;
}

/* ---- shapes ---- */
static uint64_t shape_hash(const int64_t *dims, uint32_t ndim){
  return gr_hash(dims ? (const void*)dims : (const void*)no_dims, (size_t)ndim * sizeof *dims);
}

typedef struct shape_key { const gr_graph *g; const int64_t *dims; uint32_t ndim; } shape_key;
static int shape_eq(const void *ctx, uint32_t id){
  const shape_key *k = ctx;
  const gr_shape_info *si = &k->g->shapes[id];
  return si->ndim==k->ndim && (k->ndim==0 || memcmp(k->g->dims + si->off, k->dims, k->ndim * sizeof *k->dims)==0);
}

uint32_t gr_graph_intern_shape(gr_graph *g, const int64_t *dims, uint32_t ndim){
  uint64_t h = shape_hash(dims, ndim);
  shape_key key = { g, dims, ndim };
  int64_t found = gr_idmap_find(&g->shape_index, h, shape_eq, &key);
  uint32_t id, k, neg = 0;
  if( found >= 0 ) return (uint32_t)found;
  if( g->nshapes==g->cap_shapes ){
    size_t nc = g->cap_shapes ? g->cap_shapes * 2 : 64;
    g->shapes = gr_big_realloc(g->shapes, g->cap_shapes * sizeof *g->shapes, nc * sizeof *g->shapes);
    g->cap_shapes = nc;
  }
  if( g->ndims + ndim > g->cap_dims ){
    size_t nc = g->cap_dims ? g->cap_dims * 2 : 256;
    while( nc < g->ndims + ndim ) nc *= 2;
    g->dims = gr_big_realloc(g->dims, g->cap_dims * sizeof *g->dims, nc * sizeof *g->dims);
    g->cap_dims = nc;
  }
  for(k = 0; k < ndim; k++) if( dims[k] < 0 ) neg = 1;
  if( ndim ) memcpy(g->dims + g->ndims, dims, ndim * sizeof *dims);
  id = (uint32_t)g->nshapes++;
  g->shapes[id].off = g->ndims;
  g->shapes[id].ndim = ndim;
  g->shapes[id].neg = (uint16_t)neg;
  g->shapes[id].unknown = 0;
  g->ndims += ndim;
  gr_idmap_add(&g->shape_index, h, id);
  return id;
}

const int64_t *gr_graph_shape(const gr_graph *g, uint32_t shape, uint32_t *ndim){
  if( shape >= g->nshapes ){ if( ndim ) *ndim = 0; return NULL; }
  if( ndim ) *ndim = g->shapes[shape].ndim;
  return g->shapes[shape].ndim ? g->dims + g->shapes[shape].off : no_dims;
}

int gr_graph_shape_known(const gr_graph *g, uint32_t shape){
  return shape < g->nshapes && !g->shapes[shape].unknown;
}

/* ---- whole graph ---- */
uint32_t gr_graph_nnodes(const gr_graph *g){ return (uint32_t)g->nnodes; }
const gr_node *gr_graph_nodes(const gr_graph *g){ return g->nodes; }
uint32_t gr_graph_ngraphs(const gr_graph *g){ return (uint32_t)g->ngraphs; }
const char *gr_graph_graph_name(const gr_graph *g, uint32_t i){
  return i < g->ngraphs ? gr_strpool_get(&g->strs, g->graphs[i].name) : NULL;
}
const char *gr_graph_model_name(const gr_graph *g){ return gr_strpool_get(&g->strs, g->model_name); }
int gr_graph_format(const gr_graph *g){ return g->format; }

const char *gr_graph_model_attr(const gr_graph *g, const char *key){
  size_t i = g->nmattrs;
  while( i-- ) if( strcmp(gr_strpool_get(&g->strs, g->mattrs[2*i]), key)==0 ) return gr_strpool_get(&g->strs, g->mattrs[2*i + 1]);
  return NULL;
}

int gr_graph_add_model_attr(gr_graph *g, uint32_t key, uint32_t value){
  if( g->nmattrs >= GR_MAX_MODEL_ATTRS ) return 0;
  g->mattrs = gr_xrealloc(g->mattrs, (g->nmattrs + 1) * 2 * sizeof *g->mattrs);
  g->mattrs[2*g->nmattrs] = key;
  g->mattrs[2*g->nmattrs + 1] = value;
  g->nmattrs++;
  return 1;
}
int64_t gr_graph_onnx_opset(const gr_graph *g){ return g->onnx_opset; }

/* ---- strings, types, lookup ---- */
const char *gr_graph_str(const gr_graph *g, uint32_t id){
  return id < gr_strpool_count(&g->strs) ? gr_strpool_get(&g->strs, id) : NULL;
}
int gr_graph_find_str(const gr_graph *g, const char *s, uint32_t *id){
  return gr_strpool_find(&g->strs, s, strlen(s), id);
}
uint32_t gr_graph_ntypes(const gr_graph *g){ return (uint32_t)gr_strpool_count(&g->types); }
const char *gr_graph_type_name(const gr_graph *g, uint32_t type){
  return type < gr_strpool_count(&g->types) ? gr_strpool_get(&g->types, type) : NULL;
}
int gr_graph_find_type(const gr_graph *g, const char *s, uint32_t *type){
  return gr_strpool_find(&g->types, s, strlen(s), type);
}
int gr_graph_find_node(const gr_graph *g, const char *name, uint32_t *node){
  uint32_t id;
  if( !gr_strpool_find(&g->strs, name, strlen(name), &id) ) return 0;
  if( id >= g->n_name_node || g->name_node[id]==GR_NONE ) return 0;
  *node = g->name_node[id];
  return 1;
}

/* ---- per node ---- */
/* Before the first element of a kind exists its array is NULL: hand out an
** empty one instead (the counts are 0 then). */
static const gr_edge no_edges[1];
static const gr_tensor no_tensors[1];
static const gr_attr no_attrs[1];
static const uint32_t no_u32[1];
static const int64_t no_i64[1];
static const double no_f64[1];

const gr_edge *gr_graph_edges(const gr_graph *g, const gr_node *n){
  return g->edges ? g->edges + n->edge0 : no_edges;
}
const gr_tensor *gr_graph_tensors(const gr_graph *g, const gr_node *n){
  return g->tensors ? g->tensors + n->tensor0 : no_tensors;
}
const gr_attr *gr_graph_attrs(const gr_graph *g, const gr_node *n){
  return g->attrs ? g->attrs + n->attr0 : no_attrs;
}

const gr_attr *gr_graph_attr_id(const gr_graph *g, const gr_node *n, uint32_t key){
  const gr_attr *a = gr_graph_attrs(g, n);
  uint32_t i = n->n_attr;
  while( i-- > 0 ) if( a[i].key==key ) return &a[i];
  return NULL;
}
const gr_attr *gr_graph_attr(const gr_graph *g, const gr_node *n, const char *key){
  uint32_t id;
  if( !gr_strpool_find(&g->strs, key, strlen(key), &id) ) return NULL;
  return gr_graph_attr_id(g, n, id);
}

int gr_graph_input_names(const gr_graph *g, uint32_t *key_id, uint32_t *value_id){
  if( !gr_strpool_find(&g->strs, "_input_name_key", 15, key_id) ) return 0;
  if( !gr_strpool_find(&g->strs, "_input_name_value", 17, value_id) ) return 0;
  return 1;
}

uint32_t gr_graph_input_name_list(const gr_graph *g, const gr_node *n, uint32_t key_id, uint32_t value_id,
                                  const uint32_t **names, const int64_t **slots){
  const gr_attr *k = gr_graph_attr_id(g, n, key_id), *v = gr_graph_attr_id(g, n, value_id);
  if( k==NULL || v==NULL || k->kind!=GR_ATTR_LIST_S || v->kind!=GR_ATTR_LIST_I || k->n!=v->n || k->n==0 ) return 0;
  *names = gr_graph_list_u32(g, k->u.list);
  *slots = gr_graph_list_i64(g, v->u.list);
  return k->n;
}

uint32_t gr_graph_input_name(const gr_graph *g, const gr_node *n, uint32_t key_id, uint32_t value_id, uint32_t slot){
  const uint32_t *names;
  const int64_t *idx;
  uint32_t i, cnt = gr_graph_input_name_list(g, n, key_id, value_id, &names, &idx);
  for(i = 0; i < cnt; i++) if( idx[i]==(int64_t)slot ) return names[i];
  return GR_NONE;
}

/* ---- input-descriptor attributes and subgraph parents ---- */
static const gr_dattr_ix *find_dix(const gr_graph *g, uint32_t node, uint32_t in){
  size_t lo = 0, hi = g->ndix;
  uint64_t want = (uint64_t)node << 16 | in;
  while( lo < hi ){
    size_t mid = lo + (hi - lo) / 2;
    uint64_t k = (uint64_t)g->dix[mid].node << 16 | g->dix[mid].in;
    if( k < want ) lo = mid + 1; else hi = mid;
  }
  if( lo < g->ndix && g->dix[lo].node==node && g->dix[lo].in==in ) return &g->dix[lo];
  return NULL;
}

const gr_attr *gr_graph_input_attrs(const gr_graph *g, uint32_t node, uint32_t in, uint32_t *n){
  const gr_dattr_ix *x = in <= 0xffffu ? find_dix(g, node, in) : NULL;
  *n = x ? x->n : 0;
  return x ? g->dattrs + x->first : no_attrs;
}

const gr_attr *gr_graph_input_attr(const gr_graph *g, uint32_t node, uint32_t in, const char *key){
  uint32_t id, n;
  const gr_attr *a;
  if( g->ndix==0 || !gr_strpool_find(&g->strs, key, strlen(key), &id) ) return NULL;
  a = gr_graph_input_attrs(g, node, in, &n);
  while( n-- > 0 ) if( a[n].key==id ) return &a[n];
  return NULL;
}

uint32_t gr_graph_graph_parent(const gr_graph *g, uint32_t i){
  return i < g->ngraphs ? g->graphs[i].parent : GR_NONE;
}

const char *gr_graph_dtype_name(const gr_graph *g, uint16_t dtype){
  return dtype < gr_strpool_count(&g->dtypes) ? gr_strpool_get(&g->dtypes, dtype) : NULL;
}
const char *gr_graph_layout_name(const gr_graph *g, uint16_t layout){
  return layout < gr_strpool_count(&g->layouts) ? gr_strpool_get(&g->layouts, layout) : NULL;
}

const uint32_t *gr_graph_list_u32(const gr_graph *g, uint64_t first){ return g->lu32 ? g->lu32 + first : no_u32; }
const int64_t *gr_graph_list_i64(const gr_graph *g, uint64_t first){ return g->li64 ? g->li64 + first : no_i64; }
const double *gr_graph_list_f64(const gr_graph *g, uint64_t first){ return g->lf64 ? g->lf64 + first : no_f64; }

/* ---- statistics and freeing ---- */
static size_t pool_bytes(const gr_strpool *p){
  return p->nbytes + p->n * sizeof *p->off + gr_idmap_bytes(&p->index);
}

/* Bytes in use: the filled part of every array plus whole hash tables.
** Reserved capacity that was never touched is not counted (it costs address
** space, not memory: the big arrays are anonymous mappings). */
size_t gr_graph_memory(const gr_graph *g){
  size_t m;
  if( g==NULL ) return 0;
  m = sizeof *g;
  m += pool_bytes(&g->strs) + pool_bytes(&g->types) + pool_bytes(&g->dtypes) + pool_bytes(&g->layouts);
  m += g->nnodes * sizeof *g->nodes + g->nedges * sizeof *g->edges;
  m += g->ntensors * sizeof *g->tensors + g->nattrs * sizeof *g->attrs;
  m += g->nlu32 * sizeof *g->lu32 + g->nli64 * sizeof *g->li64 + g->nlf64 * sizeof *g->lf64;
  m += g->ndims * sizeof *g->dims + g->nshapes * sizeof *g->shapes;
  m += gr_idmap_bytes(&g->shape_index);
  m += g->ngraphs * sizeof *g->graphs + g->n_name_node * sizeof *g->name_node;
  m += g->ndattrs * sizeof *g->dattrs + g->ndix * sizeof *g->dix + g->nsubg * sizeof *g->subg;
  return m;
}

void gr_graph_free(gr_graph *g){
  if( g==NULL ) return;
  gr_strpool_free(&g->strs);
  gr_strpool_free(&g->types);
  gr_strpool_free(&g->dtypes);
  gr_strpool_free(&g->layouts);
  gr_big_free(g->nodes, g->cap_nodes * sizeof *g->nodes);
  gr_big_free(g->edges, g->cap_edges * sizeof *g->edges);
  gr_big_free(g->tensors, g->cap_tensors * sizeof *g->tensors);
  gr_big_free(g->attrs, g->cap_attrs * sizeof *g->attrs);
  gr_big_free(g->lu32, g->cap_lu32 * sizeof *g->lu32);
  gr_big_free(g->li64, g->cap_li64 * sizeof *g->li64);
  gr_big_free(g->lf64, g->cap_lf64 * sizeof *g->lf64);
  gr_big_free(g->dims, g->cap_dims * sizeof *g->dims);
  gr_big_free(g->shapes, g->cap_shapes * sizeof *g->shapes);
  gr_idmap_free(&g->shape_index);
  gr_big_free(g->graphs, g->cap_graphs * sizeof *g->graphs);
  gr_big_free(g->name_node, g->n_name_node * sizeof *g->name_node);
  free(g->mattrs);
  gr_big_free(g->dattrs, g->cap_dattrs * sizeof *g->dattrs);
  gr_big_free(g->dix, g->cap_dix * sizeof *g->dix);
  gr_big_free(g->subg, g->cap_subg * sizeof *g->subg);
  free(g);
}
