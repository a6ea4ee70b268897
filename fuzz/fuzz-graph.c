/*
** fuzz-graph.c: libFuzzer target for the streaming graph loader. Each input
** is loaded from memory with gr_graph_load_mem (which feeds yajl in 256 KiB
** slices, so large inputs also cross chunk boundaries); a loaded graph is
** walked through the accessors so that every index the loader stored is
** dereferenced, then freed. Build:
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Isrc fuzz/fuzz-graph.c
**         src/graph.c src/graph_load.c src/util.c $(pkg-config --libs yajl)
** Seeds: fuzz/corpus/graph/.
*/
#include "config.h"
#include "graph.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void walk(const gr_graph *g){
  const gr_node *nd = gr_graph_nodes(g);
  uint32_t i, k, n = gr_graph_nnodes(g), found;
  uint64_t acc = 0;
  for(i = 0; i < n; i++){
    const gr_edge *e = gr_graph_edges(g, &nd[i]);
    const gr_tensor *t = gr_graph_tensors(g, &nd[i]);
    const gr_attr *a = gr_graph_attrs(g, &nd[i]);
    const char *name = gr_graph_str(g, nd[i].name);
    acc += strlen(name) + strlen(gr_graph_type_name(g, nd[i].type)) + nd[i].line + nd[i].flags;
    if( gr_graph_find_node(g, name, &found) ) acc += found;
    for(k = 0; k < (uint32_t)nd[i].n_data + nd[i].n_ctrl; k++)
      if( e[k].src!=GR_NONE ) acc += nd[e[k].src].type + (uint32_t)e[k].index;
    for(k = 0; k < (uint32_t)nd[i].n_in_desc + nd[i].n_out_desc; k++){
      uint32_t ndim, d;
      const int64_t *dims = gr_graph_shape(g, t[k].shape, &ndim);
      for(d = 0; d < ndim; d++) acc += (uint64_t)dims[d];
      acc += strlen(gr_graph_dtype_name(g, t[k].dtype)) + strlen(gr_graph_layout_name(g, t[k].layout));
    }
    for(k = 0; k < nd[i].n_attr; k++){
      uint32_t j;
      acc += strlen(gr_graph_str(g, a[k].key));
      switch( a[k].kind ){
      case GR_ATTR_S: case GR_ATTR_DT: acc += strlen(gr_graph_str(g, a[k].u.str)); break;
      case GR_ATTR_LIST_S:
        for(j = 0; j < a[k].n; j++) acc += strlen(gr_graph_str(g, gr_graph_list_u32(g, a[k].u.list)[j]));
        break;
      case GR_ATTR_LIST_I: case GR_ATTR_LIST_B:
        for(j = 0; j < a[k].n; j++) acc += (uint64_t)gr_graph_list_i64(g, a[k].u.list)[j];
        break;
      case GR_ATTR_LIST_F:
        for(j = 0; j < a[k].n; j++) acc += gr_graph_list_f64(g, a[k].u.list)[j] > 0;
        break;
      default: break;
      }
      acc += gr_graph_attr(g, &nd[i], gr_graph_str(g, a[k].key))!=NULL;
    }
  }
  for(i = 0; i < gr_graph_ngraphs(g); i++) acc += strlen(gr_graph_graph_name(g, i));
  acc += strlen(gr_graph_model_name(g)) + gr_graph_memory(g);
  sink = acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_error err;
  gr_graph *g = gr_graph_load_mem((const char*)data, size, &err);
  if( g ){
    walk(g);
    gr_graph_free(g);
  }else{
    sink = err.line + err.col + strlen(err.msg);
  }
  return 0;
}
