/*
** onnx_order.h: the order in which GE's graph builder adds a parsed graph's
** operators to its ComputeGraph (hicann/ge graph_metadef/graph/normal_graph/
** operator.cc, GraphBuilderImpl::WalkAllOperators): a breadth-first walk
** from the start operators (the graph's Data, in input order) that, for
** each operator it adds, queues the consumers of its outputs (in output
** order, each output's consumers in link order) and then the producers of
** its inputs (in input order); operators it never reaches come after, in
** their own order. GE's ONNX parser expands one-to-many plugins in that
** order, so it decides GE's PartitionedCall_<name>_<n> counter
** (parser/parser/common/parser_utils.cc, ExpandOneToManyGraph).
**
** GE keys an operator's links by port name (std::map); the walk here takes
** ports in index order, which is the same for the dynamic ports (x0, x1,
** ...) of fewer than 11 inputs and for most IR ops, and may differ where an
** op's port names sort otherwise (e.g. Conv2D's bias, filter, x).
**
** Ownership: the caller owns every array; nothing is kept.
*/
#ifndef GR_ONNX_ORDER_H
#define GR_ONNX_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* One link: output src_out of operator src feeds input dst_in of dst. */
typedef struct gr_ge_link { uint32_t src, src_out, dst, dst_in; } gr_ge_link;

/* Writes the nops operator indices to order[] in GE's order. links are in
** the order GE made them (its consumers of one output in that order);
** starts the operators the walk begins with. 0 on allocation overflow. */
int gr_ge_walk_order(size_t nops, const gr_ge_link *links, size_t nlinks, const uint32_t *starts, size_t nstarts,
                     uint32_t *order);

#endif
