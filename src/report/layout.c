/*
** layout.c: the layered graph layout of layout.h. Layers: Kahn's
** topological order, each node one layer below its deepest predecessor
** (longest path), except that a node without inputs sits just above its
** nearest consumer; a cycle (GE graphs have none, but input is input) is broken
** by taking the first unfinished node in file order, which simply ignores its
** remaining back edges. Order within a layer: start in topological order,
** then `sweeps` passes of the barycentre heuristic (Sugiyama et al. 1981):
** downwards each node moves to the mean position of its predecessors,
** upwards to that of its successors. Each graph of the model is laid out on
** its own (edges never cross graphs), from column 0 (the page shows one
** graph at a time); each layer is centred in its graph's width. Nodes the
** caller folds (constants drawn in their consumers' panel) take no cell and
** no edge.
**
** Sizes: node and edge counts come from a loaded gr_graph (node count below
** 2^32, edges the sum of 16-bit per-node counts), so the size_t products
** below cannot overflow on the 64-bit targets (checked at compile time).
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "report/layout.h"

_Static_assert(sizeof(size_t) >= 8, "layout sizes assume a 64-bit size_t");

typedef struct key { double bary; uint32_t pos, node; } key;
typedef struct rank { uint32_t run, layer, topo, node; } rank;

static int rank_cmp(const void *a, const void *b){
  const rank *x = a, *y = b;
  if( x->run!=y->run ) return x->run < y->run ? -1 : 1;
  if( x->layer!=y->layer ) return x->layer < y->layer ? -1 : 1;
  return x->topo < y->topo ? -1 : x->topo > y->topo;
}

static int key_cmp(const void *a, const void *b){
  const key *x = a, *y = b;
  if( x->bary < y->bary ) return -1;
  if( x->bary > y->bary ) return 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* One barycentre pass over the layers [a, b) of a graph (step +1 down, -1 up). */
static void sweep(uint32_t *const *lay, const uint32_t *cnt, uint32_t nl, int down,
                  const size_t *off, const uint32_t *adj, uint32_t *pos, key *tmp,
                  const uint32_t *layer, const double *shift){
  uint32_t L, i;
  for(L = 0; L < nl; L++){
    uint32_t l = down ? L : nl - 1 - L, c = cnt[l];
    if( c < 2 ) continue;
    for(i = 0; i < c; i++){
      uint32_t v = lay[l][i];
      size_t k, m = off[v + 1] - off[v];
      double s = 0;
      /* neighbours in their centred columns: layers of different widths compare */
      for(k = off[v]; k < off[v + 1]; k++) s += pos[adj[k]] + shift[layer[adj[k]]];
      tmp[i].bary = m ? s / (double)m - shift[l] : (double)i;
      tmp[i].pos = i;
      tmp[i].node = v;
    }
    qsort(tmp, c, sizeof *tmp, key_cmp);
    for(i = 0; i < c; i++){ lay[l][i] = tmp[i].node; pos[tmp[i].node] = i; }
  }
}

void gr_layout_compute(const gr_graph *g, unsigned sweeps, const uint8_t *fold, gr_layout *out){
  uint32_t n = gr_graph_nnodes(g), v;
  const gr_node *nodes = gr_graph_nodes(g);
  size_t ne = 0, k, *out_off, *in_off;
  uint32_t *succ, *pred, *mark, *indeg, *queue, *order_in_topo, *pos, *fill;
  size_t qh = 0, qt = 0, done = 0;
  uint32_t scan = 0;
  double offset = 0;
  key *tmp;

  memset(out, 0, sizeof *out);
  out->n = n;
  out->layer = gr_xcalloc((size_t)n + 1, sizeof *out->layer);
  out->x = gr_xcalloc((size_t)n + 1, sizeof *out->x);
  for(v = 0; v < n; v++) ne += (size_t)nodes[v].n_data + nodes[v].n_ctrl;
  out->edges = gr_xmalloc((ne + 1) * 2 * sizeof *out->edges);
  mark = gr_xcalloc((size_t)n + 1, sizeof *mark);
  for(v = 0; v < n; v++){           /* distinct producers of each node */
    const gr_edge *e = gr_graph_edges(g, &nodes[v]);
    uint32_t j, m = (uint32_t)nodes[v].n_data + nodes[v].n_ctrl;
    for(j = 0; j < m; j++){
      uint32_t s = e[j].src;
      if( s==GR_NONE || s==v || s >= n || mark[s]==v + 1 || (fold && (fold[s] || fold[v])) ) continue;
      mark[s] = v + 1;
      out->edges[2 * out->nedges] = s;
      out->edges[2 * out->nedges + 1] = v;
      out->nedges++;
    }
  }
  ne = out->nedges;
  /* adjacency in both directions (CSR) */
  out_off = gr_xcalloc((size_t)n + 2, sizeof *out_off);
  in_off = gr_xcalloc((size_t)n + 2, sizeof *in_off);
  for(k = 0; k < ne; k++){ out_off[out->edges[2 * k] + 1]++; in_off[out->edges[2 * k + 1] + 1]++; }
  for(v = 0; v < n; v++){ out_off[v + 1] += out_off[v]; in_off[v + 1] += in_off[v]; }
  succ = gr_xmalloc((ne + 1) * sizeof *succ);
  pred = gr_xmalloc((ne + 1) * sizeof *pred);
  fill = gr_xcalloc((size_t)n + 1, sizeof *fill);
  for(k = 0; k < ne; k++){ uint32_t s = out->edges[2 * k], d = out->edges[2 * k + 1]; succ[out_off[s] + fill[s]++] = d; }
  memset(fill, 0, ((size_t)n + 1) * sizeof *fill);
  for(k = 0; k < ne; k++){ uint32_t s = out->edges[2 * k], d = out->edges[2 * k + 1]; pred[in_off[d] + fill[d]++] = s; }

  /* longest-path layers in Kahn's order; mark[] = 1 once a node is placed */
  indeg = gr_xmalloc(((size_t)n + 1) * sizeof *indeg);
  queue = gr_xmalloc(((size_t)n + 1) * sizeof *queue);
  order_in_topo = gr_xmalloc(((size_t)n + 1) * sizeof *order_in_topo);
  memset(mark, 0, ((size_t)n + 1) * sizeof *mark);
  for(v = 0; v < n; v++){
    indeg[v] = (uint32_t)(in_off[v + 1] - in_off[v]);
    if( indeg[v]==0 ){ queue[qt++] = v; mark[v] = 1; }
  }
  while( done < n ){
    if( qh==qt ){                    /* a cycle: take the first node not yet placed */
      while( mark[scan] ) scan++;
      queue[qt++] = scan;
      mark[scan] = 1;
    }
    v = queue[qh++];
    order_in_topo[v] = (uint32_t)done++;
    for(k = out_off[v]; k < out_off[v + 1]; k++){
      uint32_t w = succ[k];
      if( mark[w] ) continue;        /* a back edge of a broken cycle */
      if( out->layer[v] + 1 > out->layer[w] ) out->layer[w] = out->layer[v] + 1;
      if( --indeg[w]==0 ){ queue[qt++] = w; mark[w] = 1; }
    }
  }
  /* a source node (weights, constants, inputs) goes just above its first
  ** consumer rather than into the top layer: edges stay short */
  for(v = 0; v < n; v++){
    uint32_t lo = UINT32_MAX;
    if( in_off[v + 1]!=in_off[v] || out_off[v + 1]==out_off[v] ) continue;
    for(k = out_off[v]; k < out_off[v + 1]; k++) if( out->layer[succ[k]] < lo ) lo = out->layer[succ[k]];
    if( lo!=UINT32_MAX && lo > 0 ) out->layer[v] = lo - 1;
  }
  for(v = 0; v < n; v++) if( out->layer[v] + 1 > out->nlayers ) out->nlayers = out->layer[v] + 1;

  /* per graph (a run of nodes; graphs are contiguous in file order): the
  ** nodes sorted by (run, layer, topological index) give each layer's
  ** initial order; then sweep and place */
  pos = gr_xcalloc((size_t)n + 1, sizeof *pos);
  tmp = gr_xmalloc(((size_t)n + 1) * sizeof *tmp);
  {
    rank *rk = gr_xmalloc(((size_t)n + 1) * sizeof *rk);
    uint32_t run = 0, a = 0, b, m = 0;
    for(v = 0; v < n; v++){
      if( v && nodes[v].graph!=nodes[v - 1].graph ) run++;
      if( fold && fold[v] ){ out->layer[v] = 0; continue; }
      rk[m].run = run; rk[m].layer = out->layer[v]; rk[m].topo = order_in_topo[v]; rk[m].node = v; m++;
    }
    qsort(rk, m, sizeof *rk, rank_cmp);
    while( a < m ){
      uint32_t nl, width = 0, l, i, *cnt, **lay, *cells;
      double *shift;
      for(b = a; b < m && rk[b].run==rk[a].run; b++) ;
      nl = rk[b - 1].layer + 1;
      cnt = gr_xcalloc((size_t)nl + 1, sizeof *cnt);
      lay = gr_xcalloc((size_t)nl + 1, sizeof *lay);
      cells = gr_xmalloc(((size_t)(b - a) + 1) * sizeof *cells);
      for(i = a; i < b; i++){
        cells[i - a] = rk[i].node;
        if( cnt[rk[i].layer]++==0 ) lay[rk[i].layer] = cells + (i - a);
        pos[rk[i].node] = cnt[rk[i].layer] - 1;
      }
      for(l = 0; l < nl; l++){
        if( cnt[l] > width ) width = cnt[l];
        if( lay[l]==NULL ) lay[l] = cells;       /* an empty layer (cannot happen with longest paths) */
      }
      shift = gr_xmalloc(((size_t)nl + 1) * sizeof *shift);
      for(l = 0; l < nl; l++) shift[l] = (double)(width - cnt[l]) / 2.0;
      for(i = 0; i < sweeps; i++){
        sweep(lay, cnt, nl, 1, in_off, pred, pos, tmp, out->layer, shift);
        sweep(lay, cnt, nl, 0, out_off, succ, pos, tmp, out->layer, shift);
      }
      free(shift);
      for(l = 0; l < nl; l++)
        for(i = 0; i < cnt[l]; i++) out->x[lay[l][i]] = (double)(width - cnt[l]) / 2.0 + i;
      if( width > offset ) offset = width;
      free(cnt); free(lay); free(cells);
      a = b;
    }
    free(rk);
  }
  out->width = offset;
  free(tmp); free(pos); free(indeg); free(queue); free(order_in_topo);
  free(succ); free(pred); free(fill); free(out_off); free(in_off); free(mark);
}

void gr_layout_free(gr_layout *l){
  if( l==NULL ) return;
  free(l->layer);
  free(l->x);
  free(l->edges);
  memset(l, 0, sizeof *l);
}
