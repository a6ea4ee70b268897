/*
** onnx_parts.h: the names GE gives the parts of an ONNX node its parser
** split: a one-to-many plugin whose subgraph has more than one node besides
** Data gets every node renamed PartitionedCall_<sub node>_<n>, each keeping
** the ONNX node's name in list attribute _datadump_original_op_names
** (hicann/ge parser/parser/common/parser_utils.cc, ExpandNodeToSubgraph).
** A user names the ONNX node (op_precision.ini [ByNodeName], KEEP_DTYPE,
** CUSTOMIZE_DTYPES); GE matches no node of that name: these are the names
** that would.
**
** Ownership: out is the caller's; nothing is kept.
*/
#ifndef GR_ONNX_PARTS_H
#define GR_ONNX_PARTS_H

#include <stddef.h>
#include "model/graph.h"

/* Appends to out the names (", "-joined, graph order) of the nodes of g
** made from the ONNX node `name` under another name; returns their count
** (0: no node of g was split from such a node). */
size_t gr_onnx_split_parts(const gr_graph *g, const char *name, gr_buf *out);

#endif
