/*
** fuzz-model.c: libFuzzer target for the model interface (model.h): format
** detection and every reader behind it (ATC JSON, GE text dump, binary
** ModelDef, .om, ONNX with the shipped rule set's op mapping when the
** GERULES_RULES directory is given). Each input is detected and loaded from
** memory; a loaded graph is walked through the accessors so that every
** index a reader stored is dereferenced; a failed load must leave a
** message. The first input byte also picks a forced format half of the
** time, so every reader sees every kind of input, not only its own.
** Build: fuzz/build.sh; seeds: fuzz/corpus/model/.
*/
#include "config.h"
#include "model/model.h"
#include "model/onnx_rules.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static uint64_t walk(const gr_graph *g){
  const gr_node *nd = gr_graph_nodes(g);
  uint32_t i, k, n = gr_graph_nnodes(g), nd_, found;
  uint64_t acc = 0;
  for(i = 0; i < n; i++){
    const gr_edge *e = gr_graph_edges(g, &nd[i]);
    const gr_tensor *t = gr_graph_tensors(g, &nd[i]);
    const gr_attr *a = gr_graph_attrs(g, &nd[i]);
    const char *name = gr_graph_str(g, nd[i].name);
    acc += strlen(name) + strlen(gr_graph_type_name(g, nd[i].type)) + nd[i].graph;
    if( nd[i].graph >= gr_graph_ngraphs(g) ) abort();
    if( gr_graph_find_node(g, name, &found) ) acc += found;
    for(k = 0; k < (uint32_t)nd[i].n_data + nd[i].n_ctrl; k++)
      if( e[k].src!=GR_NONE ){ if( e[k].src >= n ) abort(); acc += nd[e[k].src].type + (uint32_t)e[k].index; }
    for(k = 0; k < (uint32_t)nd[i].n_in_desc + nd[i].n_out_desc; k++){
      const int64_t *d = gr_graph_shape(g, t[k].shape, &nd_);
      acc += strlen(gr_graph_dtype_name(g, t[k].dtype)) + strlen(gr_graph_layout_name(g, t[k].layout));
      if( nd_ ) acc += (uint64_t)d[nd_ - 1];
    }
    for(k = 0; k < nd[i].n_attr; k++){
      switch( a[k].kind ){
      case GR_ATTR_S: case GR_ATTR_DT: acc += strlen(gr_graph_str(g, a[k].u.str)); break;
      case GR_ATTR_LIST_S: if( a[k].n ) acc += strlen(gr_graph_str(g, gr_graph_list_u32(g, a[k].u.list)[a[k].n - 1])); break;
      case GR_ATTR_LIST_I: case GR_ATTR_LIST_B: if( a[k].n ) acc += (uint64_t)gr_graph_list_i64(g, a[k].u.list)[a[k].n - 1]; break;
      case GR_ATTR_LIST_F:
        /* the bits, not a conversion: a float outside int64's range converted is UB */
        if( a[k].n ){ double f = gr_graph_list_f64(g, a[k].u.list)[a[k].n - 1]; uint64_t bits; memcpy(&bits, &f, sizeof bits); acc += bits; }
        break;
      default: break;
      }
      acc += strlen(gr_graph_str(g, a[k].key));
    }
  }
  for(i = 0; i < gr_graph_ngraphs(g); i++) acc += strlen(gr_graph_graph_name(g, i));
  acc += strlen(gr_graph_model_name(g)) + strlen(gr_model_format_name(gr_graph_format(g)));
  return acc;
}

/* The ONNX op mapping of the rule set in $GERULES_RULES (in the replay of
** make check, the source tree's rules/), loaded once and kept; without it the ONNX
** reader is never reached (the model interface refuses ONNX then). */
static const gr_opmap *onnx_map(void){
  static int done;
  static gr_opmap *m;
  if( !done ){
    const char *dir = getenv("GERULES_RULES");
    done = 1;
#ifdef GR_SRCDIR
    if( !dir ) dir = GR_SRCDIR "/rules";
#endif
    if( dir ){
      gr_diags d;
      gr_ruleset *rs;
      const char *paths[1];
      paths[0] = dir;
      gr_diags_init(&d);
      /* the map borrows the rule set: both live as long as the process */
      if( (rs = gr_ruleset_load(paths, 1, &d))!=NULL && (m = gr_onnx_map_from_rules(rs, &d))==NULL ) gr_ruleset_free(rs);
      gr_diags_free(&d);
    }
  }
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_model_opts mo;
  gr_error e;
  gr_graph *g;
  memset(&mo, 0, sizeof mo);
  memset(&e, 0, sizeof e);
  mo.opmap = onnx_map();
  if( size && (data[0] & 0x80) ) mo.format = 1 + data[0] % (GR_FMT_COUNT - 1);
  g = gr_model_load_mem(data, size, &mo, &e);
  if( g ){
    sink = walk(g);
    gr_graph_free(g);
  }else if( e.msg[0]==0 ){
    abort();
  }
  return 0;
}
