/*
** qualname.c: graph-qualified node names (qualname.h): building them,
** resolving a name the user typed to the nodes it designates, and the
** closest node name or op type of a graph for "did you mean".
*/
#include "config.h"
#include <string.h>
#include "model/qualname.h"
#include "base/suggest.h"

/* The prefix "GRAPH/" node n gets, or NULL for the main graph and for a name
** that already carries it. */
static const char *graph_prefix(const gr_graph *g, const gr_node *nd, size_t *len){
  const char *gn, *name;
  size_t gl;
  if( nd->graph==0 ) return NULL;
  gn = gr_graph_graph_name(g, nd->graph);
  gl = strlen(gn);
  name = gr_graph_str(g, nd->name);
  if( gl==0 || (strncmp(name, gn, gl)==0 && name[gl]=='/') ) return NULL;
  *len = gl;
  return gn;
}

void gr_node_qualified(const gr_graph *g, uint32_t n, gr_buf *b){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  size_t gl = 0;
  const char *gn = graph_prefix(g, nd, &gl);
  if( gn ){ gr_buf_add(b, gn, gl); gr_buf_adds(b, "/"); }
  gr_buf_adds(b, gr_graph_str(g, nd->name));
}

const char *gr_node_qname(const gr_graph *g, uint32_t n, gr_buf *b){
  b->n = 0;
  gr_node_qualified(g, n, b);
  return gr_buf_cstr(b);
}

/* Whether node nd's qualified name is name. */
static int is_qualified(const gr_graph *g, const gr_node *nd, const char *name){
  size_t gl = 0;
  const char *gn = graph_prefix(g, nd, &gl);
  if( gn==NULL ) return strcmp(gr_graph_str(g, nd->name), name)==0;
  return strncmp(name, gn, gl)==0 && name[gl]=='/' && strcmp(name + gl + 1, gr_graph_str(g, nd->name))==0;
}

size_t gr_graph_resolve_node(const gr_graph *g, const char *name, uint32_t *ids, size_t max){
  uint32_t n, nn = gr_graph_nnodes(g);
  const gr_node *v = gr_graph_nodes(g);
  size_t k = 0;
  /* a user-typed name, looked up once per run: a scan is cheap next to the load */
  for(n = 0; n < nn; n++) if( is_qualified(g, &v[n], name) ){ if( ids && max ) ids[0] = n; return 1; }
  for(n = 0; n < nn; n++){
    if( strcmp(gr_graph_str(g, v[n].name), name)==0 ){
      if( ids && k < max ) ids[k] = n;
      k++;
    }
  }
  return k;
}

uint32_t gr_graph_suggest_node(const gr_graph *g, const char *word){
  uint32_t n, nn = gr_graph_nnodes(g), best = GR_NONE;
  const gr_node *v = gr_graph_nodes(g);
  gr_suggester s;
  gr_buf b;
  const char *slash = strchr(word, '/');
  gr_buf_init(&b);
  gr_suggest_begin(&s, word);
  for(n = 0; n < nn; n++){
    const char *before = gr_suggest_best(&s);
    gr_suggest_offer(&s, gr_graph_str(g, v[n].name));
    if( gr_suggest_best(&s)!=before ) best = n;
  }
  /* a word naming a graph ("then_g/mm") is compared with qualified names too;
  ** each is built in turn, and only the winner's node is kept */
  if( slash ){
    unsigned bd = best==GR_NONE ? (unsigned)-1 : s.best_d;
    for(n = 0; n < nn; n++){
      unsigned d;
      if( v[n].graph==0 ) continue;
      d = gr_edit_distance(word, gr_node_qname(g, n, &b), s.cap);
      if( d <= s.cap && d < bd ){ bd = d; best = n; }
    }
  }
  gr_buf_free(&b);
  return best;
}

const char *gr_graph_suggest_type(const gr_graph *g, const char *word, const char **onnx_op){
  uint32_t t, nt = gr_graph_ntypes(g), n, nn = gr_graph_nnodes(g), from = GR_NONE;
  const gr_node *v = gr_graph_nodes(g);
  gr_suggester s;
  const char *types_best;
  gr_suggest_begin(&s, word);
  for(t = 0; t < nt; t++) gr_suggest_offer(&s, gr_graph_type_name(g, t));
  types_best = gr_suggest_best(&s);
  /* an ONNX model: the ONNX op types its nodes came from ("_onnx_op" holds
  ** "domain::version::op_type", onnx.c) are offered too, and a winner among them is
  ** answered with the IR type GE's parser gave that node */
  for(n = 0; n < nn; n++){
    const gr_attr *a = v[n].n_attr ? gr_graph_attr(g, &v[n], "_onnx_op") : NULL;
    const char *op, *colon;
    if( a==NULL || a->kind!=GR_ATTR_S ) continue;
    op = gr_graph_str(g, a->u.str);
    while( (colon = strstr(op, "::"))!=NULL ) op = colon + 2;   /* "domain::version::op_type" */
    gr_suggest_offer(&s, op);
    if( gr_suggest_best(&s)==op ) from = n;
  }
  if( onnx_op ) *onnx_op = NULL;
  if( gr_suggest_best(&s)==types_best || from==GR_NONE ) return types_best;
  if( onnx_op ) *onnx_op = gr_suggest_best(&s);
  return gr_graph_type_name(g, v[from].type);
}
