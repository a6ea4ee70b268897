/*
** qualname.h: the names by which a user designates a node. Every node has
** a graph-qualified name: "GRAPH/NAME" for a node of a subgraph (then_g/mm),
** its plain name for a node of the main graph, and its plain name when that
** already starts with "GRAPH/" (GE's ONNX parser names subgraph nodes so).
** Reports, --explain and diagnostics use it; [ByNodeName] keeps matching the
** plain name, as GE does.
**
** Ownership: nothing here allocates except into the caller's gr_buf; the
** results point into the graph or into that buffer.
*/
#ifndef GR_QUALNAME_H
#define GR_QUALNAME_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "model/graph.h"

/* Appends node n's qualified name to b. */
void gr_node_qualified(const gr_graph *g, uint32_t n, gr_buf *b);
/* The qualified name in b (cleared first), as a C string. */
const char *gr_node_qname(const gr_graph *g, uint32_t n, gr_buf *b);
/* The nodes name designates: the node whose qualified name it is, else every
** node whose plain name it is. Returns how many (at most max are stored in
** ids, graph order). */
size_t gr_graph_resolve_node(const gr_graph *g, const char *name, uint32_t *ids, size_t max);
/* "Did you mean": the node (plain or qualified name) or the op type of this
** graph closest to word (Damerau-Levenshtein, ignoring case, base/suggest);
** GR_NONE / NULL when none is close. */
uint32_t    gr_graph_suggest_node(const gr_graph *g, const char *word);
/* For an ONNX model the ONNX op types are offered too: when one of them wins,
** *onnx_op is set to it and the IR type GE's parser gave it is returned. */
const char *gr_graph_suggest_type(const gr_graph *g, const char *word, const char **onnx_op);

#endif
