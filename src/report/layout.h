/*
** layout.h: a layered drawing of a model graph for the HTML report: every
** node gets a layer (its longest path from a source node, so edges point
** downwards) and a position within its layer chosen to keep edges short
** (barycentre ordering). Each graph of a model is laid out on its own, from
** column 0 (the HTML page shows one graph at a time).
** Linear-ish: O((nodes + edges) * sweeps + nodes log nodes).
**
** Ownership: a gr_layout owns its arrays; gr_layout_free releases them.
*/
#ifndef GR_LAYOUT_H
#define GR_LAYOUT_H

#include <stdint.h>
#include "model/graph.h"

typedef struct gr_layout {
  uint32_t n;
  uint32_t *layer;      /* per node: 0 .. nlayers-1, top to bottom */
  double *x;            /* per node: column, layers centred; distinct within a layer of a graph */
  uint32_t nlayers;
  double width;         /* columns of the widest graph */
  uint32_t *edges;      /* src, dst pairs of distinct nodes (data and control edges, deduplicated per node) */
  size_t nedges;
} gr_layout;

/* Lays out g; `sweeps` barycentre passes down and up (0: topological order
** only). fold (NULL: none) marks nodes drawn inside their consumers: they get
** no cell (layer 0, column 0) and no edge. */
void gr_layout_compute(const gr_graph *g, unsigned sweeps, const uint8_t *fold, gr_layout *out);
void gr_layout_free(gr_layout *l);

#endif
