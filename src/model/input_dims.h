/*
** input_dims.h: giving a loaded graph's inputs new shapes, as ATC's
** --input_shape does before GE infers the other shapes, and re-deriving which
** nodes downstream are dynamic (some dim below 0).
**
** gerules does not infer shapes. Downstream of an input whose shape changed,
** a node's input descriptors take their producers' output shapes; when one of
** them is dynamic, each of the node's static outputs becomes unknown ([-2],
** what GE's inference gives for an op whose input has unknown dims, and what
** the ONNX reader writes); when none is, each dynamic output becomes
** GR_SHAPE_UNKNOWN (graph.h: static, its dims not known to gerules; never
** [], which would read as a scalar). A subgraph's Data node with
** _parent_node_index K (GE's IR: it stands for its parent node's input K)
** takes the shape of what feeds the parent's input K, so the walk enters
** the subgraphs of a node whose inputs changed. The walk stops at nodes whose
** outputs did not change and visits a node a bounded number of times (graphs
** with loops).
**
** Ownership: these functions modify the graph they are given (its tensor
** descriptors and node flags) and keep no pointer to their arguments.
*/
#ifndef GR_INPUT_DIMS_H
#define GR_INPUT_DIMS_H

#include <stddef.h>
#include <stdint.h>
#include "model/graph.h"

/* Sets every input and output descriptor of node to dims (ndim may be 0: a
** scalar) and recomputes the node's dynamic flag. */
void gr_graph_set_node_dims(gr_graph *g, uint32_t node, const int64_t *dims, uint32_t ndim);

/* Re-derives the descriptors and dynamic flags of every node downstream of
** the n nodes given (whose own descriptors are already right). */
void gr_graph_propagate_dims(gr_graph *g, const uint32_t *changed, size_t n);

#endif
