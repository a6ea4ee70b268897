/*
** input_dims.c: new shapes for a graph's inputs (ATC's --input_shape) and the
** forward walk that re-derives which nodes are dynamic; input_dims.h says
** what is and is not inferred.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "model/input_dims.h"

#define MAX_VISITS 4     /* per node: a loop (NextIteration back edge) settles or stops */

static void node_flags(gr_graph *g, gr_node *n){
  uint32_t k, nt = (uint32_t)n->n_in_desc + n->n_out_desc;
  n->flags &= ~(uint32_t)GR_NODE_DYNAMIC;
  for(k = 0; k < nt; k++) if( g->shapes[g->tensors[n->tensor0 + k].shape].neg ) n->flags |= GR_NODE_DYNAMIC;
}

void gr_graph_set_node_dims(gr_graph *g, uint32_t node, const int64_t *dims, uint32_t ndim){
  gr_node *n = &g->nodes[node];
  uint32_t s = gr_graph_intern_shape(g, dims, ndim), k;
  for(k = 0; k < (uint32_t)n->n_in_desc + n->n_out_desc; k++) g->tensors[n->tensor0 + k].shape = s;
  node_flags(g, n);
}

/* One node from its producers; 1 when one of its outputs changed, and
** always for a node owning subgraphs (owner): its subgraphs' Data nodes
** stand for its inputs, some of which (the values an ONNX If's branches
** capture) have no descriptor here to tell a change by. */
static int derive(gr_graph *g, gr_node *n, uint32_t unknown, int owner){
  const gr_edge *e = g->edges + n->edge0;
  gr_tensor *t = g->tensors + n->tensor0;
  uint32_t i, dyn = 0, changed = 0;
  for(i = 0; i < n->n_data; i++){
    const gr_node *p;
    if( e[i].src==GR_NONE || e[i].index < 0 ){
      if( i < n->n_in_desc && g->shapes[t[i].shape].neg ) dyn = 1;
      continue;
    }
    p = &g->nodes[e[i].src];
    if( (uint32_t)e[i].index < p->n_out_desc ){
      uint32_t s = g->tensors[p->tensor0 + p->n_in_desc + (uint32_t)e[i].index].shape;
      if( i < n->n_in_desc ) t[i].shape = s;
      if( g->shapes[s].neg ) dyn = 1;
    }else if( i < n->n_in_desc && g->shapes[t[i].shape].neg ){
      dyn = 1;
    }
  }
  for(i = 0; i < n->n_out_desc; i++){
    gr_tensor *o = &t[n->n_in_desc + i];
    if( dyn && !g->shapes[o->shape].neg ){ o->shape = unknown; changed = 1; }
    else if( !dyn && g->shapes[o->shape].neg ){ o->shape = GR_SHAPE_UNKNOWN; changed = 1; }   /* static, dims not inferred */
  }
  node_flags(g, n);
  return (int)(changed || owner);
}

/* A subgraph's Data node from its parent's data input `in` (the Data's
** _parent_node_index): every descriptor takes the shape of what feeds that
** input (an input without a descriptor of its own, as the values an ONNX
** If's branches capture, included); 1 when its output changed. */
static int derive_sub(gr_graph *g, gr_node *d, const gr_node *parent, uint32_t in){
  gr_tensor *t = g->tensors + d->tensor0;
  uint32_t k, s, nt = (uint32_t)d->n_in_desc + d->n_out_desc;
  const gr_edge *e;
  const gr_node *p;
  int changed = 0;
  if( in >= parent->n_data ) return 0;
  e = g->edges + parent->edge0 + in;
  if( e->src==GR_NONE || e->index < 0 ) return 0;
  p = &g->nodes[e->src];
  if( (uint32_t)e->index >= p->n_out_desc ) return 0;
  s = g->tensors[p->tensor0 + p->n_in_desc + (uint32_t)e->index].shape;
  for(k = 0; k < nt; k++){
    if( k >= d->n_in_desc && t[k].shape!=s ) changed = 1;
    t[k].shape = s;
  }
  node_flags(g, d);
  return changed;
}

/* The node whose input subgraph Data node d stands for (its graph's parent,
** the input *in its _parent_node_index, key string id pkey), GR_NONE when d
** stands for none. */
static uint32_t sub_parent(const gr_graph *g, const gr_node *d, uint32_t pkey, uint32_t *in){
  const gr_attr *a = d->graph ? gr_graph_attr_id(g, d, pkey) : NULL;
  uint32_t par;
  if( a==NULL || a->kind!=GR_ATTR_I || a->u.i < 0 ) return GR_NONE;
  par = gr_graph_graph_parent(g, d->graph);
  if( par >= g->nnodes ) return GR_NONE;
  *in = a->u.i > (int64_t)UINT32_MAX - 1 ? UINT32_MAX : (uint32_t)a->u.i;
  return par;
}

void gr_graph_propagate_dims(gr_graph *g, const uint32_t *changed, size_t n){
  size_t nn = g->nnodes, i, ne = 0, head = 0, tail = 0, cap;
  uint32_t *first, *cons, *queue, *sfirst, *sub, *subin, pkey;
  unsigned char *visits;
  int64_t unknown_dims[1] = { -2 };
  uint32_t unknown = gr_graph_intern_shape(g, unknown_dims, 1);
  if( nn==0 || n==0 ) return;
  /* consumers of each node (data edges), as one array indexed by first[] */
  first = gr_xcalloc(nn + 1, sizeof *first);
  for(i = 0; i < nn; i++){
    const gr_node *d = &g->nodes[i];
    uint32_t k;
    for(k = 0; k < d->n_data; k++) if( g->edges[d->edge0 + k].src!=GR_NONE ) first[g->edges[d->edge0 + k].src + 1]++;
  }
  for(i = 0; i < nn; i++) first[i + 1] += first[i];
  ne = first[nn];
  cons = gr_xmalloc((ne ? ne : 1) * sizeof *cons);
  {
    uint32_t *fill = gr_xmalloc(nn * sizeof *fill);
    memcpy(fill, first, nn * sizeof *fill);
    for(i = 0; i < nn; i++){
      const gr_node *d = &g->nodes[i];
      uint32_t k;
      for(k = 0; k < d->n_data; k++){
        uint32_t s = g->edges[d->edge0 + k].src;
        if( s!=GR_NONE && (fill[s]==first[s] || cons[fill[s] - 1]!=(uint32_t)i) ) cons[fill[s]++] = (uint32_t)i;
      }
    }
    /* duplicates removed above leave gaps: mark them unused */
    for(i = 0; i < nn; i++){ size_t k; for(k = fill[i]; k < first[i + 1]; k++) cons[k] = GR_NONE; }
    free(fill);
  }
  /* the Data nodes of each node's subgraphs (GE's IR: a subgraph's Data with
  ** _parent_node_index K stands for its parent node's input K), as one array
  ** indexed by sfirst[], with the input each stands for */
  sfirst = gr_xcalloc(nn + 1, sizeof *sfirst);
  sub = NULL; subin = NULL;
  if( gr_graph_find_str(g, "_parent_node_index", &pkey) ){
    uint32_t *fill, in, par;
    for(i = 0; i < nn; i++)
      if( (par = sub_parent(g, &g->nodes[i], pkey, &in))!=GR_NONE ) sfirst[par + 1]++;
    for(i = 0; i < nn; i++) sfirst[i + 1] += sfirst[i];
    sub = gr_xmalloc((sfirst[nn] ? sfirst[nn] : 1) * sizeof *sub);
    subin = gr_xmalloc((sfirst[nn] ? sfirst[nn] : 1) * sizeof *subin);
    fill = gr_xmalloc((nn ? nn : 1) * sizeof *fill);
    memcpy(fill, sfirst, nn * sizeof *fill);
    for(i = 0; i < nn; i++){
      if( (par = sub_parent(g, &g->nodes[i], pkey, &in))==GR_NONE ) continue;
      sub[fill[par]] = (uint32_t)i;
      subin[fill[par]++] = in;
    }
    free(fill);
  }
  /* every node enters the queue at most MAX_VISITS times */
  cap = nn * MAX_VISITS + n;
  queue = gr_xmalloc(cap * sizeof *queue);
  visits = gr_xcalloc(nn, 1);
  for(i = 0; i < n; i++) if( changed[i] < nn ) queue[tail++] = changed[i];
  while( head < tail ){
    uint32_t v = queue[head++];
    size_t k;
    for(k = first[v]; k < first[v + 1]; k++){
      uint32_t c = cons[k];
      if( c==GR_NONE || visits[c] >= MAX_VISITS ) continue;
      visits[c]++;
      if( derive(g, &g->nodes[c], unknown, sfirst[c] < sfirst[c + 1]) && tail < cap ) queue[tail++] = c;
    }
    for(k = sfirst[v]; k < sfirst[v + 1]; k++){
      uint32_t d = sub[k];
      if( visits[d] >= MAX_VISITS ) continue;
      visits[d]++;
      if( derive_sub(g, &g->nodes[d], &g->nodes[v], subin[k]) && tail < cap ) queue[tail++] = d;
    }
  }
  free(sfirst); free(sub); free(subin);
  free(visits);
  free(queue);
  free(cons);
  free(first);
}
