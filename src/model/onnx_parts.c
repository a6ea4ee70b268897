/*
** onnx_parts.c: the parts of a split ONNX node (onnx_parts.h), found by
** the list attribute _datadump_original_op_names GE and the ONNX reader set
** on every node of a plugin subgraph.
*/
#include "config.h"
#include "model/onnx_parts.h"

#include <string.h>

size_t gr_onnx_split_parts(const gr_graph *g, const char *name, gr_buf *out){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t key, i, n = gr_graph_nnodes(g);
  size_t found = 0;
  if( !gr_graph_find_str(g, "_datadump_original_op_names", &key) ) return 0;
  for(i = 0; i < n; i++){
    const gr_attr *a = gr_graph_attr_id(g, &nodes[i], key);
    const uint32_t *v;
    if( a==NULL || a->kind!=GR_ATTR_LIST_S || a->n==0 ) continue;
    v = gr_graph_list_u32(g, a->u.list);
    if( strcmp(gr_graph_str(g, v[0]), name)!=0 || strcmp(gr_graph_str(g, nodes[i].name), name)==0 ) continue;
    gr_buf_printf(out, "%s%s", found ? ", " : "", gr_graph_str(g, nodes[i].name));
    found++;
  }
  return found;
}
