/*
** fuzz-graph.c: libFuzzer target for the streaming graph loader and its
** JSON tokenizer. Each input is loaded from memory with gr_graph_load_mem
** (the tokenizer then sees the whole buffer as one window); a loaded graph
** is walked through the accessors so that every index the loader stored is
** dereferenced, then freed. The same input is loaded a second time through
** the tokenizer's chunked path (gr_js_test_chunk: slices of 1-64 bytes,
** chosen from the input), so that tokens cross chunk boundaries everywhere;
** both loads must give the same graph or the same located error, else the
** target aborts. Build: fuzz/build.sh (fuzz/README.md).
** Seeds: fuzz/corpus/graph/.
*/
#include "config.h"
#include "model/graph.h"
#include "model/json_scan.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static uint64_t walk(const gr_graph *g){
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
  acc += strlen(gr_graph_model_name(g)) + gr_graph_memory(g) + gr_graph_nnodes(g);
  for(i = 0; i < n; i++) acc = acc * 31 + nd[i].line * 7 + nd[i].col + nd[i].name + nd[i].n_attr;
  sink = acc;
  return acc;
}

/* One load: the walk's checksum, or the error folded into one. */
static uint64_t load_once(const uint8_t *data, size_t size, gr_error *err){
  gr_graph *g;
  uint64_t r;
  memset(err, 0, sizeof *err);
  g = gr_graph_load_mem((const char*)data, size, err);
  if( g==NULL ) return 0;
  r = walk(g) | 1;
  gr_graph_free(g);
  return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_error e1, e2;
  uint64_t a, b;
  gr_js_test_chunk = 0;
  a = load_once(data, size, &e1);
  gr_js_test_chunk = size ? 1 + (data[size / 2] + size) % 64 : 1;
  b = load_once(data, size, &e2);
  gr_js_test_chunk = 0;
  if( a!=b || (a==0 && (e1.line!=e2.line || e1.col!=e2.col || strcmp(e1.msg, e2.msg)!=0)) ) abort();
  sink = e1.line + e1.col + strlen(e1.msg);
  return 0;
}
