/*
** t0100-graph.c: unit tests of the graph loader and the compact graph
** (graph.h): nodes, types, data/control/unconnected edges, several graphs
** reusing op names, tensor descriptors with interned shapes, dtypes and
** layouts, the dynamic flag, every attribute kind, skipped unknown fields,
** proto defaults, chunk boundaries, and every error case with its line:col;
** the JSON tokenizer (json_scan.h) through the loader and directly: every
** kind of malformed JSON, strings with escapes and UTF-8, numbers, and the
** same results whatever the chunking (tiny test chunks, a pipe fed one byte
** per write, a mapped file scanned in tiny windows); a mapped file that grows
** or shrinks while it is scanned; input-descriptor attributes and subgraph
** parents (subgraph_name); the two reserved shapes, a scalar and a shape
** not known, and what --input_shape's propagation (input_dims.h) leaves.
*/
#include "config.h"
#include "model/graph.h"
#include "model/json_scan.h"
#include "model/input_dims.h"
#include "tap.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gr_graph *load(const char *json){
  gr_error e;
  gr_graph *g;
  memset(&e, 0, sizeof e);
  g = gr_graph_load_mem(json, strlen(json), &e);
  if( g==NULL ) diag("unexpected load error %u:%u: %s", e.line, e.col, e.msg);
  return g;
}

/* Loads JSON that must fail; returns "line:col: message" in a static buffer. */
static const char *fail(const char *json, size_t len){
  static char out[600];
  gr_error e;
  gr_graph *g;
  memset(&e, 0, sizeof e);
  g = gr_graph_load_mem(json, len, &e);
  if( g ){ gr_graph_free(g); return "(loaded)"; }
  snprintf(out, sizeof out, "%u:%u: %s", e.line, e.col, e.msg);
  return out;
}
#define FAIL(s) fail((s), strlen(s))

static uint32_t node_of(const gr_graph *g, const char *name){
  uint32_t i;
  return gr_graph_find_node(g, name, &i) ? i : GR_NONE;
}

static const char *name_of(const gr_graph *g, uint32_t i){
  return i==GR_NONE ? "(none)" : gr_graph_str(g, gr_graph_nodes(g)[i].name);
}

static const char *main_json =
  "{\n"                                                                   /* 1 */
  "  \"name\": \"m1\", \"version\": 3, \"attr\": [{\"key\": \"atc_cmdline\", \"value\": {\"s\": \"x\"}}],\n"
  "  \"graph\": [\n"                                                      /* 3 */
  "    {\"name\": \"main\", \"input\": [\"x\"], \"attr\": [], \"op\": [\n" /* 4 */
  "      {\"name\": \"x\", \"type\": \"Data\", \"id\": 5, \"has_out_attr\": true,\n" /* 5 */
  "       \"output_desc\": [{\"dtype\": \"DT_FLOAT16\", \"shape\": {\"dim\": [1, -1, 64], \"x\": {\"a\": [[]]}},\n"
  "                        \"layout\": \"ND\", \"device_type\": \"NPU\", \"real_dim_cnt\": 3}]},\n"
  "      {\"name\": \"w\", \"type\": \"Const\", \"attr_groups\": {\"a\": [{\"b\": [1, {\"c\": null}]}]},\n"
  "       \"output_desc\": [{\"dtype\": 1, \"shape\": {\"dim\": [64, 64]}, \"layout\": \"FRACTAL_NZ\"}]},\n"
  "      {\"name\": \"mm\", \"type\": \"MatMulV2\", \"input\": [\"x:0\", \"w\", \"\", \"x:-1\"],\n" /* 10 */
  "       \"attr\": [\n"
  "         {\"key\": \"a_s\", \"value\": {\"s\": \"hello\"}},\n"
  "         {\"key\": \"a_i\", \"value\": {\"i\": -42}},\n"
  "         {\"key\": \"a_f\", \"value\": {\"f\": \"0.5\"}},\n"
  "         {\"key\": \"a_fn\", \"value\": {\"f\": 1.25}},\n"
  "         {\"key\": \"a_b\", \"value\": {\"b\": true}},\n"
  "         {\"key\": \"a_dt\", \"value\": {\"dt\": \"DT_INT64\"}},\n"
  "         {\"key\": \"a_dti\", \"value\": {\"dt\": 9}},\n"
  "         {\"key\": \"a_ls\", \"value\": {\"list\": {\"val_type\": \"VT_LIST_STRING\", \"s\": [\"p\", \"q\"]}}},\n"
  "         {\"key\": \"a_li\", \"value\": {\"list\": {\"val_type\": 2, \"i\": [0, 2, 1, 3]}}},\n" /* 20 */
  "         {\"key\": \"a_lf\", \"value\": {\"list\": {\"f\": [0.5, \"2\"]}}},\n"
  "         {\"key\": \"a_lb\", \"value\": {\"list\": {\"b\": [true, false, true]}}},\n"
  "         {\"key\": \"a_le\", \"value\": {\"list\": {\"val_type\": \"VT_LIST_FLOAT\"}}},\n"
  "         {\"key\": \"a_l0\", \"value\": {\"list\": {}}},\n"
  "         {\"key\": \"a_td\", \"value\": {\"td\": {\"dtype\": \"DT_FLOAT\", \"shape\": {\"dim\": [1]}}}},\n"
  "         {\"key\": \"a_empty\", \"value\": {}},\n"
  "         {\"key\": \"a_novalue\"},\n"
  "         {\"key\": \"a_i\", \"value\": {\"i\": 7}}\n"
  "       ],\n"
  "       \"output_desc\": [{\"dtype\": \"DT_FLOAT16\", \"shape\": {\"dim\": [1, -1, 64]}}],\n"   /* 30 */
  "       \"input_desc\": [{\"dtype\": \"DT_FLOAT16\", \"shape\": {\"dim\": [1, -1, 64]}, \"layout\": \"ND\"},\n"
  "                      {\"dtype\": \"DT_FLOAT16\", \"shape\": {\"dim\": [64, 64]}}, {}]},\n"
  "      {\"name\": \"z\", \"type\": \"Add\", \"input\": [\"x:-1\", \"mm:0\", \"w:0\"], \"name_extra\": null},\n"
  "      {}\n"
  "    ]},\n"
  "    {\"name\": \"sub\", \"op\": [{\"name\": \"x\", \"type\": \"Data\"},\n"  /* 36 */
  "       {\"name\": \"y\", \"type\": \"Relu\", \"input\": [\"x:0\"]}]},\n"
  "    {\"name\": \"empty\"}\n"
  "  ]\n"
  "}\n";

static void test_main_graph(void){
  gr_graph *g = load(main_json);
  const gr_node *nd;
  const gr_edge *e;
  const gr_tensor *t;
  const gr_attr *a;
  const int64_t *dims;
  uint32_t x, w, mm, z, ty, ndim, x2, y, id;
  if( !ok(g!=NULL, "main graph loads") ) return;
  nd = gr_graph_nodes(g);
  is(gr_graph_nnodes(g), 7, "7 ops in all graphs");
  is(gr_graph_ngraphs(g), 3, "3 graphs");
  is_str(gr_graph_model_name(g), "m1", "model name");
  is_str(gr_graph_graph_name(g, 0), "main", "graph 0 name");
  is_str(gr_graph_graph_name(g, 2), "empty", "graph without ops keeps its name");
  ok(gr_graph_graph_name(g, 3)==NULL, "graph index out of range gives NULL");

  x = node_of(g, "x"); w = node_of(g, "w"); mm = node_of(g, "mm"); z = node_of(g, "z");
  is(x, 0, "find_node gives the first 'x' (main graph)");
  is(mm, 2, "find_node mm");
  ok(node_of(g, "nope")==GR_NONE, "find_node of an unknown name fails");
  is_str(gr_graph_type_name(g, nd[mm].type), "MatMulV2", "op type");
  ok(gr_graph_find_type(g, "Relu", &ty) && ty==nd[6].type, "find_type Relu");
  ok(!gr_graph_find_type(g, "Conv2D", &ty), "find_type of an absent type fails");
  is(nd[x].line, 5, "op line is the line of its '{'");
  is(nd[x].col, 7, "op col is the column of its '{'");
  is(nd[mm].line, 10, "third op line");
  is(nd[0].graph, 0, "x in graph 0");
  is(nd[6].graph, 1, "y in graph 1");

  /* edges */
  is(nd[mm].n_data, 3, "mm has 3 data inputs (one unconnected)");
  is(nd[mm].n_ctrl, 1, "mm has 1 control input");
  e = gr_graph_edges(g, &nd[mm]);
  ok(e[0].src==x && e[0].index==0, "mm input 0 is x:0");
  ok(e[1].src==w && e[1].index==0, "input without ':' means index 0");
  ok(e[2].src==GR_NONE, "empty input is unconnected (GR_NONE) and keeps its index");
  ok(e[3].src==x && e[3].index==-1, "x:-1 is a control edge, stored after the data edges");
  e = gr_graph_edges(g, &nd[z]);
  is(nd[z].n_data, 2, "z: 2 data inputs");
  ok(e[0].src==mm && e[1].src==w && e[2].src==x && e[2].index==-1,
     "control edge written first is moved after the data edges");
  x2 = 5; y = 6;
  is_str(name_of(g, x2), "x", "graph 1 has its own 'x'");
  e = gr_graph_edges(g, &nd[y]);
  is(e[0].src, x2, "edges resolve within their own graph");

  /* tensors */
  is(nd[x].n_out_desc, 1, "x has 1 output desc");
  t = gr_graph_tensors(g, &nd[x]);
  is_str(gr_graph_dtype_name(g, t[0].dtype), "DT_FLOAT16", "dtype name");
  is_str(gr_graph_layout_name(g, t[0].layout), "ND", "layout name");
  dims = gr_graph_shape(g, t[0].shape, &ndim);
  ok(ndim==3 && dims[0]==1 && dims[1]==-1 && dims[2]==64, "shape dims [1,-1,64]");
  ok(nd[x].flags & GR_NODE_DYNAMIC, "a -1 dim makes the node dynamic");
  ok(!(nd[w].flags & GR_NODE_DYNAMIC), "static node is not dynamic");
  t = gr_graph_tensors(g, &nd[w]);
  is_str(gr_graph_dtype_name(g, t[0].dtype), "1", "integer dtype kept as its decimal text");
  is_str(gr_graph_layout_name(g, t[0].layout), "FRACTAL_NZ", "layout FRACTAL_NZ");
  is(nd[mm].n_in_desc, 3, "mm has 3 input descs");
  is(nd[mm].n_out_desc, 1, "mm has 1 output desc");
  t = gr_graph_tensors(g, &nd[mm]);
  is(t[0].layout, gr_graph_tensors(g, &nd[x])[0].layout, "input descs come first even if output_desc was written first");
  is(t[0].shape, gr_graph_tensors(g, &nd[x])[0].shape, "equal dims share one shape id");
  is(t[3].shape, t[0].shape, "output desc shape interned too");
  ok(t[2].shape==0 && t[2].dtype==0 && t[2].layout==0, "empty desc: proto defaults");
  is_str(gr_graph_layout_name(g, t[1].layout), "", "missing layout is \"\"");
  dims = gr_graph_shape(g, 0, &ndim);
  ok(dims!=NULL && ndim==0, "shape 0 has no dims");

  /* attributes */
  is(nd[mm].n_attr, 17, "mm has 17 attrs");
  a = gr_graph_attr(g, &nd[mm], "a_s");
  ok(a && a->kind==GR_ATTR_S && strcmp(gr_graph_str(g, a->u.str), "hello")==0, "attr s");
  a = gr_graph_attr(g, &nd[mm], "a_i");
  ok(a && a->kind==GR_ATTR_I && a->u.i==7, "attr i (a repeated key gives the last)");
  ok(gr_graph_attrs(g, &nd[mm])[1].u.i==-42, "the first a_i is still in file order");
  a = gr_graph_attr(g, &nd[mm], "a_f");
  ok(a && a->kind==GR_ATTR_F && a->u.f==0.5, "attr f from a string");
  a = gr_graph_attr(g, &nd[mm], "a_fn");
  ok(a && a->kind==GR_ATTR_F && a->u.f==1.25, "attr f from a number");
  a = gr_graph_attr(g, &nd[mm], "a_b");
  ok(a && a->kind==GR_ATTR_B && a->u.i==1, "attr b");
  a = gr_graph_attr(g, &nd[mm], "a_dt");
  ok(a && a->kind==GR_ATTR_DT && strcmp(gr_graph_str(g, a->u.str), "DT_INT64")==0, "attr dt by name");
  a = gr_graph_attr(g, &nd[mm], "a_dti");
  ok(a && a->kind==GR_ATTR_DT && strcmp(gr_graph_str(g, a->u.str), "9")==0, "attr dt by number");
  a = gr_graph_attr(g, &nd[mm], "a_ls");
  ok(a && a->kind==GR_ATTR_LIST_S && a->n==2
     && strcmp(gr_graph_str(g, gr_graph_list_u32(g, a->u.list)[1]), "q")==0, "attr list s");
  a = gr_graph_attr(g, &nd[mm], "a_li");
  ok(a && a->kind==GR_ATTR_LIST_I && a->n==4 && gr_graph_list_i64(g, a->u.list)[1]==2
     && gr_graph_list_i64(g, a->u.list)[3]==3, "attr list i");
  a = gr_graph_attr(g, &nd[mm], "a_lf");
  ok(a && a->kind==GR_ATTR_LIST_F && a->n==2 && gr_graph_list_f64(g, a->u.list)[0]==0.5
     && gr_graph_list_f64(g, a->u.list)[1]==2.0, "attr list f (numbers and numeric strings)");
  a = gr_graph_attr(g, &nd[mm], "a_lb");
  ok(a && a->kind==GR_ATTR_LIST_B && a->n==3 && gr_graph_list_i64(g, a->u.list)[1]==0, "attr list b");
  a = gr_graph_attr(g, &nd[mm], "a_le");
  ok(a && a->kind==GR_ATTR_LIST_F && a->n==0, "empty list takes its kind from val_type");
  a = gr_graph_attr(g, &nd[mm], "a_l0");
  ok(a && a->kind==GR_ATTR_LIST_I && a->n==0, "empty list without val_type is LIST_I, n=0");
  a = gr_graph_attr(g, &nd[mm], "a_td");
  ok(a && a->kind==GR_ATTR_OTHER, "td attr is OTHER");
  a = gr_graph_attr(g, &nd[mm], "a_empty");
  ok(a && a->kind==GR_ATTR_OTHER, "empty value is OTHER");
  a = gr_graph_attr(g, &nd[mm], "a_novalue");
  ok(a && a->kind==GR_ATTR_OTHER, "attr without value is OTHER");
  ok(gr_graph_attr(g, &nd[mm], "nope")==NULL, "absent attr gives NULL");
  ok(gr_graph_attr(g, &nd[x], "a_s")==NULL, "attr of another node is not found");
  ok(gr_graph_find_str(g, "a_b", &id) && gr_graph_attr_id(g, &nd[mm], id)==gr_graph_attr(g, &nd[mm], "a_b"),
     "attr by key id");
  ok(gr_graph_model_attr(g, "atc_cmdline") && strcmp(gr_graph_model_attr(g, "atc_cmdline"), "x")==0 &&
     gr_graph_attr(g, &nd[mm], "atc_cmdline")==NULL && gr_graph_model_attr(g, "a_s")==NULL,
     "model string attrs are the model's, not an op's");

  /* proto defaults */
  is_str(gr_graph_str(g, nd[4].name), "", "op without name: \"\"");
  is(nd[4].type, 0, "op without type: type 0");
  is_str(gr_graph_type_name(g, 0), "", "type 0 is \"\"");
  ok(nd[4].n_data==0 && nd[4].n_attr==0 && nd[4].n_in_desc==0 && nd[4].flags==0, "empty op has nothing");
  ok(gr_graph_memory(g) > 1000, "memory statistics");
  gr_graph_free(g);
}

static void test_errors(void){
  char *big;
  size_t i, n;
  like(FAIL("{\"graph\": [\n  {\"op\": [{\"name\": 5}]}]}"), "2:20: expected a string for \"name\"", "wrong type: name");
  like(FAIL("{\"graph\": [{\"op\": {}}]}"), "1:19: expected an array for \"op\"", "wrong type: op");
  like(FAIL("{\"graph\": [{\"op\": [{\"input\": \"x\"}]}]}"), "1:30: expected an array for \"input\"", "wrong type: input");
  like(FAIL("{\"graph\": [{\"op\": [{\"input\": [1]}]}]}"), "1:31: expected a string in \"input\"", "wrong type: input element");
  like(FAIL("{\"graph\": [{\"op\": [{\"output_desc\": [{\"shape\": {\"dim\": [1, \"x\"]}}]}]}]}"),
       "1:59: expected an integer in \"dim\"", "wrong type: dim string");
  like(FAIL("{\"graph\": [{\"op\": [{\"output_desc\": [{\"shape\": {\"dim\": [2.5]}}]}]}]}"),
       "1:56: expected an integer in \"dim\"", "wrong type: dim float");
  like(FAIL("{\"graph\": [{\"op\": [{\"attr\": [{\"key\": \"k\", \"value\": {\"i\": \"7\"}}]}]}]}"),
       "1:58: expected an integer for \"i\"", "wrong type: attr i");
  like(FAIL("{\"graph\": [{\"op\": [{\"attr\": [{\"key\": \"k\", \"value\": {\"f\": \"abc\"}}]}]}]}"),
       "1:58: expected a number or a numeric string for \"f\"", "wrong type: attr f");
  like(FAIL("{\"graph\": [{\"op\": [{\"output_desc\": [{\"dtype\": true}]}]}]}"),
       "1:47: expected a string or an integer for \"dtype\"", "wrong type: dtype");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\\\"b\", \"type\": [\"x\"]}]}]}"),
       "1:45: expected a string for \"type\"", "wrong type after an escaped string");
  like(FAIL("{\"graph\": [{\"op\": [{\"attr\": [{\"key\": \"k\", \"value\": {\"i\": 99999999999999999999}}]}]}]}"),
       "1:58: integer out of range for \"i\"", "integer overflow");
  like(FAIL("{\"graph\": [\n {\"op\": [\n  {\"name\": \"a\", \"input\": [\"c:0\", \"b:0\"]}, {\"name\": \"c\"}]}]}"),
       "3:3: op 'a' input 1 (\"b:0\") refers to unknown op 'b'", "unknown op, located at the op");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\", \"input\": [\"b\"]}]}]}"),
       "op 'a' input 0 (\"b\") refers to unknown op 'b'", "unknown op quoted as written");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"b\"}]}, {\"op\": [{\"name\": \"a\", \"input\": [\"b:0\"]}]}]}"),
       "1:45: op 'a' input 0 (\"b:0\") refers to unknown op 'b'", "no edges across graphs");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\", \"input\": [\"b:x\"]}]}]}"),
       "1:44: bad input index in \"b:x\"", "bad input index");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\", \"input\": [\"b:-2\"]}]}]}"), "bad input index in \"b:-2\"", "index -2");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\", \"input\": [\"b:\"]}]}]}"), "bad input index", "empty index");
  like(FAIL("{\"graph\": [{\"op\": [\n{\"name\": \"a\"},\n {\"name\": \"b\"},\n  {\"name\": \"a\"}]}]}"),
       "4:3: duplicate op name 'a' (first defined at line 2)", "duplicate op name");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\\u0000b\"}]}]}"), "1:29: string contains a NUL character", "NUL in a name");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\"}}]}"), "1:33: expected ',' or ']' after an array element, found '}'", "malformed JSON");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\" \"type\": \"b\"}]}]}"),
       "1:33: expected ',' or '}' after an object member, found '\"'", "missing comma, located at the next key");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": tru}]}]}"), "1:29: invalid literal (expected true, false or null)", "bad literal, located at its start");
  like(FAIL("{\"a\": \"b\" \"c\"}"), "1:11: expected ',' or '}' after an object member", "syntax error located at the refused token");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\"}]}, {\"op\": [{\"name\": \"a\"}]}]}"), "(loaded)",
       "the same op name in two graphs is fine");
  like(FAIL("[]"), "1:1: top level is not an object", "top level array");
  like(FAIL("  \"x\""), "1:3: top level is not an object", "top level string");
  like(FAIL(""), "1:1: empty input", "empty input");
  like(FAIL(" \n "), "empty input", "blank input");
  like(FAIL("{}\n{}"), "2:1: trailing characters after the top-level value", "trailing garbage");
  like(FAIL("{\"graph\": [\n"), "2:1: unexpected end of input", "truncated input");

  /* deep nesting inside a skipped field */
  n = 300;
  big = malloc(2 * n + 32);
  strcpy(big, "{\"x\": ");
  for(i = 0; i < n; i++) big[6 + i] = '[';
  for(i = 0; i < n; i++) big[6 + n + i] = ']';
  strcpy(big + 6 + 2 * n, "}");
  like(FAIL(big), "1:262: nesting deeper than 256 levels", "nesting depth bounded");
  free(big);

  /* 65536 inputs */
  n = 65536;
  big = malloc(3 * n + 64);
  strcpy(big, "{\"graph\": [{\"op\": [{\"input\": [");
  {
    char *p = big + strlen(big);
    for(i = 0; i < n; i++){ memcpy(p, i ? ",\"\"" : "\"\"", i ? 3 : 2); p += i ? 3 : 2; }
    strcpy(p, "]}]}]}");
  }
  like(FAIL(big), "1:196636: op has more than 65535 inputs", "inputs per op bounded");
  free(big);
}

/* A graph bigger than one 256 KiB chunk, with a long escaped string across
** the boundary, loaded from memory and from a file. */
static void test_chunks(void){
  gr_buf b;
  gr_graph *g, *g2;
  gr_error e;
  char path[] = "/tmp/t0100-graphXXXXXX";
  int fd, i;
  uint32_t last;
  gr_buf_init(&b);
  gr_buf_adds(&b, "{\"graph\": [{\"op\": [\n");
  for(i = 0; i < 3000; i++){
    if( i==2000 ){
      int k;
      gr_buf_adds(&b, "{\"name\": \"long\", \"attr\": [{\"key\": \"k\", \"value\": {\"s\": \"");
      for(k = 0; k < 100000; k++) gr_buf_adds(&b, "\\\"");
      gr_buf_adds(&b, "\"}}]},\n");
    }
    gr_buf_printf(&b, "{\"name\": \"n%d\", \"type\": \"Add\", \"input\": [\"n%d:0\", \"n%d:-1\"],"
                  " \"output_desc\": [{\"dtype\": \"DT_FLOAT\", \"shape\": {\"dim\": [%d, 8]}}]}%s\n",
                  i, i ? i - 1 : 0, i ? i - 1 : 0, i % 7, i==2999 ? "" : ",");
  }
  gr_buf_adds(&b, "]}]}\n");
  ok(b.n > 2 * (256u << 10), "test input spans several chunks");
  g = load(gr_buf_cstr(&b));
  if( ok(g!=NULL, "multi-chunk graph loads") ){
    const gr_node *nd = gr_graph_nodes(g);
    const gr_attr *a;
    is(gr_graph_nnodes(g), 3001, "3001 ops");
    last = node_of(g, "n2999");
    is(nd[last].line, 3002, "line numbers counted across chunks");
    is(nd[last].col, 1, "column of an op at the start of a line");
    is(gr_graph_edges(g, &nd[last])[0].src, node_of(g, "n2998"), "edge resolved across chunks");
    a = gr_graph_attr(g, &nd[node_of(g, "long")], "k");
    ok(a && a->kind==GR_ATTR_S && strlen(gr_graph_str(g, a->u.str))==100000, "200 KB escaped string across a chunk boundary");
  }
  fd = mkstemp(path);
  if( fd >= 0 ){
    ok(write(fd, b.p, b.n)==(ssize_t)b.n, "temporary file written");
    close(fd);
    memset(&e, 0, sizeof e);
    g2 = gr_graph_load_file(path, &e);
    ok(g2 && g && gr_graph_nnodes(g2)==gr_graph_nnodes(g)
       && gr_graph_nodes(g2)[3000].line==gr_graph_nodes(g)[3000].line, "file load equals memory load");
    gr_graph_free(g2);
    /* a type error past the first chunk is located there */
    fd = open(path, O_WRONLY | O_TRUNC);
    if( fd >= 0 ){
      char *p = strstr(b.p, "\"n2500\", \"type\": \"Add\"");
      memcpy(p + 17, " 5,  ", 5);
      if( write(fd, b.p, b.n) ){}
      close(fd);
      memset(&e, 0, sizeof e);
      g2 = gr_graph_load_file(path, &e);
      if( !ok(g2==NULL && e.line==2503 && e.col==28 && strstr(e.msg, "expected a string for \"type\""),
              "error past the first chunk located") )
        diag("got %u:%u: %s", e.line, e.col, e.msg);
      gr_graph_free(g2);
    }
    unlink(path);
  }
  memset(&e, 0, sizeof e);
  ok(gr_graph_load_file("/nonexistent/graph.json", &e)==NULL && strstr(e.msg, "cannot open"), "missing file");
  gr_graph_free(g);
  gr_buf_free(&b);
}

/* ---- the tokenizer through the loader ---- */

static void test_json_errors(void){
  gr_graph *g;
  const char *m;
  /* strings */
  like(FAIL("{\"name\": \"abc"), "1:10: unterminated string", "unterminated string, at its quote");
  like(FAIL("{\"name\": \"a\\xb\"}"), "1:12: invalid escape '\\x' in string", "invalid escape");
  like(FAIL("{\"name\": \"a\\\x01\"}"), "1:12: invalid escape (backslash before byte 0x01)", "escape of a control byte");
  like(FAIL("{\"name\": \"\\u12G4\"}"), "1:11: invalid \\u escape in string (expected 4 hex digits)", "bad \\u digits");
  like(FAIL("{\"name\": \"\\u12\"}"), "1:11: invalid \\u escape", "short \\u escape");
  like(FAIL("{\"name\": \"\\ud800x\"}"), "1:11: unpaired UTF-16 surrogate \\ud800 in string", "high surrogate alone");
  like(FAIL("{\"name\": \"\\ud800\\u0041\"}"), "1:11: unpaired UTF-16 surrogate \\ud800", "high surrogate + non-low");
  like(FAIL("{\"name\": \"x\\uDC00\"}"), "1:12: unpaired UTF-16 surrogate \\uDC00", "low surrogate alone");
  like(FAIL("{\"name\": \"\\ud800\\uzzzz\"}"), "1:17: invalid \\u escape", "bad digits in the low half");
  like(FAIL("{\"name\": \"a\tb\"}"), "1:12: unescaped control character 0x09 in string", "raw tab in a string");
  like(fail("{\"name\": \"a\0b\"}", 15), "1:12: unescaped control character 0x00 in string", "raw NUL in a string");
  like(FAIL("{\"name\": \"a\xff\"}"), "1:12: invalid UTF-8 byte 0xff in string", "invalid UTF-8 lead byte");
  like(FAIL("{\"name\": \"\xc0\x80\"}"), "1:11: invalid UTF-8 byte 0xc0 in string", "overlong UTF-8");
  like(FAIL("{\"name\": \"\xed\xa0\x80\"}"), "1:12: invalid UTF-8 byte 0xa0 in string", "UTF-8 encoded surrogate");
  like(FAIL("{\"name\": \"\xf4\x90\x80\x80\"}"), "1:12: invalid UTF-8 byte 0x90 in string", "UTF-8 above U+10FFFF");
  like(FAIL("{\"name\": \"\xe2\x82\"}"), "1:13: invalid UTF-8 byte 0x22 in string", "truncated UTF-8 sequence");
  like(FAIL("{\"x\": {\"y\": [\"\\q\"]}}"), "1:15: invalid escape '\\q'", "skipped values are validated too");
  /* numbers */
  like(FAIL("{\"a\": 01}"), "1:7: invalid number '01'", "leading zero");
  like(FAIL("{\"a\": -01}"), "1:7: invalid number '-01'", "leading zero after minus");
  like(FAIL("{\"a\": 1.}"), "1:7: invalid number '1.'", "no digit after '.'");
  like(FAIL("{\"a\": 1.e5}"), "1:7: invalid number '1.e5'", "no digit between '.' and 'e'");
  like(FAIL("{\"a\": 1e}"), "1:7: invalid number '1e'", "no exponent digits");
  like(FAIL("{\"a\": 1e+}"), "1:7: invalid number '1e+'", "no exponent digits after the sign");
  like(FAIL("{\"a\": -}"), "1:7: invalid number '-'", "a lone minus");
  like(FAIL("{\"a\": +1}"), "1:7: invalid number '+1'", "a plus sign");
  like(FAIL("{\"a\": .5}"), "1:7: invalid number '.5'", "no integer part");
  like(FAIL("{\"a\": 1.5.2}"), "1:7: invalid number '1.5.2'", "two dots");
  like(FAIL("{\"a\": 1-2}"), "1:7: invalid number '1-2'", "a minus inside");
  like(FAIL("{\"a\": 1"), "1:8: unexpected end of input", "number at the end of a truncated input");
  like(FAIL("{\"a\": -Infinity}"), "1:7: invalid number '-Infinity'", "no -Infinity");
  like(FAIL("{\"a\": NaN}"), "1:7: expected a value after ':', found 'N'", "no NaN");
  /* literals */
  like(FAIL("{\"a\": nul}"), "1:7: invalid literal (expected true, false or null)", "short literal");
  like(FAIL("{\"a\": truex}"), "1:7: invalid literal", "literal followed by letters");
  like(FAIL("{\"a\": True}"), "1:7: expected a value after ':', found 'T'", "capitalised literal");
  like(FAIL("{\"a\": fals"), "1:7: invalid literal", "literal cut by the end of input");
  /* structure */
  like(FAIL("{\"a\" 1}"), "1:6: expected ':' after an object key, found '1'", "missing colon");
  like(FAIL("{,}"), "1:2: expected a string key or '}', found ','", "comma first in an object");
  like(FAIL("{\"a\": 1,}"), "1:9: expected a string key after ',', found '}'", "trailing comma in an object");
  like(FAIL("{a: 1}"), "1:2: expected a string key or '}', found 'a'", "unquoted key");
  like(FAIL("{\"a\": [1,]}"), "1:10: expected a value after ',', found ']'", "trailing comma in an array");
  like(FAIL("{\"a\": [,1]}"), "1:8: expected a value or ']', found ','", "comma first in an array");
  like(FAIL("{\"a\": }"), "1:7: expected a value after ':', found '}'", "missing value");
  like(FAIL("{\"a\": [1 2]}"), "1:10: expected ',' or ']' after an array element, found '2'", "missing comma in an array");
  like(FAIL("{\"a\": [1}"), "1:9: expected ',' or ']' after an array element, found '}'", "mismatched bracket");
  like(FAIL("{\"a\": \xff}"), "1:7: expected a value after ':', found byte 0xff", "stray byte outside strings");
  like(FAIL("\xef\xbb\xbf{}"), "1:1: expected a JSON value, found byte 0xef", "a byte order mark is not JSON");
  like(FAIL("{\"a\""), "1:5: unexpected end of input", "end of input after a key");
  like(FAIL("{\"a\":"), "1:6: unexpected end of input", "end of input after a colon");
  like(FAIL("{\"graph\": [{\"op\": [{"), "1:21: unexpected end of input", "end of input inside an op");
  like(FAIL("{} x"), "1:4: trailing characters after the top-level value", "trailing word");
  like(FAIL("{}}"), "1:3: trailing characters", "trailing bracket");
  like(FAIL("{}\"x"), "1:3: trailing characters", "trailing unterminated string");
  like(FAIL("\t\r\n {} \t\r\n"), "(loaded)", "whitespace around the top-level value");
  like(FAIL("  \n  x"), "2:3: expected a JSON value, found 'x'", "not JSON at all");
  like(FAIL("\"abc"), "1:1: unterminated string", "unterminated top-level string");
  like(FAIL("5"), "1:1: top level is not an object", "top level number");
  /* errors past a newline count lines and byte columns */
  like(FAIL("{\n  \"name\": \"\xc3\xa9\xc3\xa9\",\n  \"x\": [1,\n    2,, 3]}"), "4:7: expected a value after ','", "line and byte column");
  m = fail("{\"a\": [1, 2]}\n", 13);
  is_str(m, "(loaded)", "input without its final newline");

  /* what is accepted */
  g = load("{\"name\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\\u0041\", \"graph\": [{\"name\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}],"
           " \"n\": [0, -0, 1E+2, 0.5e-3, 1e400, 123456789012345678901234567890, -9223372036854775808, true, false, null, {}, [], \"\"]}");
  if( ok(g!=NULL, "every escape, UTF-8, number form and literal accepted") ){
    is_str(gr_graph_model_name(g), "q\"\\/\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "A", "escapes decoded (incl. a surrogate pair)");
    is_str(gr_graph_graph_name(g, 0), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "raw UTF-8 kept as is");
    gr_graph_free(g);
  }
  g = load("{\"graph\": [{\"op\": [{\"name\": \"a\", \"output_desc\": [{\"shape\": {\"dim\": [9223372036854775807, -9223372036854775808, 0, -0]}}]}]}]}");
  if( ok(g!=NULL, "int64 limits in dims") ){
    uint32_t nd;
    const int64_t *d = gr_graph_shape(g, gr_graph_tensors(g, &gr_graph_nodes(g)[0])[0].shape, &nd);
    ok(nd==4 && d[0]==INT64_MAX && d[1]==INT64_MIN && d[2]==0 && d[3]==0, "dims at the int64 limits");
    gr_graph_free(g);
  }
  like(FAIL("{\"graph\": [{\"op\": [{\"output_desc\": [{\"shape\": {\"dim\": [-9223372036854775809]}}]}]}]}"),
       "1:56: integer out of range for \"dim\"", "below INT64_MIN");
  like(FAIL("{\"graph\": [{\"op\": [{\"output_desc\": [{\"shape\": {\"dim\": [1e2]}}]}]}]}"),
       "1:56: expected an integer in \"dim\"", "an exponent is no integer");
  g = load("{\"graph\": [{\"op\": [{\"name\": \"a\", \"attr\": [{\"key\": \"f\", \"value\": {\"f\": 12345678901234567890123}},"
           " {\"key\": \"g\", \"value\": {\"f\": -2.5e-3}}, {\"key\": \"l\", \"value\": {\"list\": {\"f\": [1, 2E1, \"3\"]}}},"
           " {\"key\": \"z\", \"value\": {\"f\": -0}}]}]}]}");
  if( ok(g!=NULL, "float attributes from integers, big integers and exponents") ){
    const gr_node *nd = gr_graph_nodes(g);
    const gr_attr *a = gr_graph_attr(g, &nd[0], "f");
    ok(a && a->kind==GR_ATTR_F && a->u.f==12345678901234567890123.0, "a big integer as a float");
    a = gr_graph_attr(g, &nd[0], "g");
    ok(a && a->u.f==-2.5e-3, "an exponent");
    a = gr_graph_attr(g, &nd[0], "l");
    ok(a && a->kind==GR_ATTR_LIST_F && a->n==3 && gr_graph_list_f64(g, a->u.list)[1]==20.0
       && gr_graph_list_f64(g, a->u.list)[2]==3.0, "list f mixing forms");
    a = gr_graph_attr(g, &nd[0], "z");
    ok(a && a->kind==GR_ATTR_F && a->u.f==0.0 && signbit(a->u.f), "f: -0 keeps its sign (as strtod reads it)");
    gr_graph_free(g);
  }
  {
    gr_error e;
    int fd = open("/", O_RDONLY | O_DIRECTORY);
    memset(&e, 0, sizeof e);
    if( fd >= 0 ){
      g = gr_graph_load_fd(fd, &e);
      ok(g==NULL && e.line==0 && e.col==0 && strstr(e.msg, "cannot read:"), "read error (a directory) is reported at 0:0");
      gr_graph_free(g);
      close(fd);
    }else{
      ok(1, "read error: no directory to open (skipped)");
    }
  }
}

/* ---- the tokenizer directly ---- */

static void test_scanner(void){
  gr_js s;
  gr_js_tok t;
  uint32_t line, col;
  static const char doc[] = " {\"k\\u0041\": [1, -2, 3.5, 99999999999999999999, \"s\", true, false, null],\n \"e\": {}, \"x\": [[{}]]}\n";
  static const int want[] = {
    GR_JS_OBJECT, GR_JS_KEY, GR_JS_ARRAY, GR_JS_INT, GR_JS_INT, GR_JS_NUMBER, GR_JS_NUMBER, GR_JS_STRING,
    GR_JS_TRUE, GR_JS_FALSE, GR_JS_NULL, GR_JS_ARRAY_END, GR_JS_KEY, GR_JS_OBJECT, GR_JS_OBJECT_END,
    GR_JS_KEY, GR_JS_ARRAY, GR_JS_OBJECT_END, GR_JS_EOF
  };
  size_t i, chunk;
  for(chunk = 0; chunk <= 3; chunk++){
    int good = 1;
    char name[80];
    gr_js_test_chunk = chunk;
    gr_js_init_mem(&s, doc, sizeof doc - 1, 16, 0);
    for(i = 0; i < sizeof want / sizeof *want; i++){
      int k = gr_js_next(&s, &t);
      if( k!=want[i] ){ diag("token %zu: got %d, expected %d (%s)", i, k, want[i], gr_js_error(&s)->msg); good = 0; break; }
      if( i==1 && !(t.n==2 && memcmp(t.s, "kA", 2)==0 && (t.flags & GR_JS_ESCAPED)) ) good = 0;
      if( i==3 && !(t.i==1 && t.off==14) ) good = 0;
      if( i==4 && !(t.i==-2 && t.n==2 && memcmp(t.s, "-2", 2)==0) ) good = 0;
      if( i==5 && !(t.n==3 && memcmp(t.s, "3.5", 3)==0 && t.flags==0) ) good = 0;
      if( i==6 && !(t.flags & GR_JS_BIGINT) ) good = 0;
      if( i==7 && !(t.n==1 && t.s[0]=='s' && t.flags==0) ) good = 0;
      if( i==12 ){
        gr_js_pos(&s, t.off, &line, &col);
        if( line!=2 || col!=2 ) good = 0;
      }
      if( i==16 && !gr_js_skip(&s, &t) ) good = 0;
    }
    snprintf(name, sizeof name, "token stream, keys, values, skip and positions (test chunk %zu)", chunk);
    ok(good, name);
    ok(gr_js_next(&s, &t)==GR_JS_EOF, "EOF repeats");
    gr_js_free(&s);
  }
  gr_js_test_chunk = 0;
  gr_js_init_mem(&s, "[\"abcdefgh\"]", 12, 16, 8);
  ok(gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_ERROR
     && strcmp(gr_js_error(&s)->msg, "string longer than 8 bytes")==0 && gr_js_error(&s)->col==2
     && gr_js_errkind(&s)==GR_JS_E_LIMIT, "max_token bounds strings");
  ok(gr_js_next(&s, &t)==GR_JS_ERROR, "errors repeat");
  gr_js_free(&s);
  gr_js_init_mem(&s, "[\"abcdef\"]", 10, 16, 8);
  ok(gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_STRING, "a string of exactly max_token bytes");
  gr_js_free(&s);
  gr_js_init_mem(&s, "[123456789]", 11, 16, 8);
  ok(gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_ERROR
     && strcmp(gr_js_error(&s)->msg, "number longer than 8 bytes")==0, "max_token bounds numbers");
  gr_js_free(&s);
  gr_js_init_mem(&s, "[[1]]", 5, 1, 0);
  ok(gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_ERROR && gr_js_errkind(&s)==GR_JS_E_DEPTH
     && strcmp(gr_js_error(&s)->msg, "nesting deeper than 1 levels")==0 && gr_js_error(&s)->col==2, "depth limit");
  gr_js_free(&s);
  gr_js_init_mem(&s, " \n", 2, 16, 0);
  ok(gr_js_next(&s, &t)==GR_JS_ERROR && gr_js_errkind(&s)==GR_JS_E_EMPTY && gr_js_error(&s)->line==2
     && gr_js_error(&s)->col==1, "empty input, at its end");
  gr_js_free(&s);
  gr_js_init_mem(&s, NULL, 0, 16, 0);
  ok(gr_js_next(&s, &t)==GR_JS_ERROR && gr_js_errkind(&s)==GR_JS_E_EMPTY, "NULL buffer is empty input");
  gr_js_free(&s);
  gr_js_init_mem(&s, "\"x\" ", 4, 16, 0);
  ok(gr_js_next(&s, &t)==GR_JS_STRING && gr_js_next(&s, &t)==GR_JS_EOF, "a scalar top-level value");
  gr_js_free(&s);
}

/* ---- the inline fast paths: the same tokens and errors as gr_js_next ---- */

/* The token stream of doc as text: with gr_js_next, or (fast) with
** gr_js_next_fast and gr_js_key, tried first with the keys of ks wherever a
** key may come. A key is written as its text alone (gr_js_key gives no
** token), every other token with its offset and flags, an error with its
** kind, place and message. */
static void stream(gr_buf *b, const char *doc, unsigned depth, int fast, const gr_js_keyset *ks){
  gr_js s;
  gr_js_tok t;
  int k;
  unsigned n = 0;
  b->n = 0;
  gr_js_init_mem(&s, doc, strlen(doc), depth, 0);
  do{
    int key = fast ? gr_js_key(&s, ks, n++ % 4) : -1;
    if( key >= 0 ){ gr_buf_printf(b, "key %s|", ks->name[key]); k = GR_JS_KEY; continue; }
    k = fast ? gr_js_next_fast(&s, &t) : gr_js_next(&s, &t);
    if( k==GR_JS_KEY ){ gr_buf_printf(b, "key %.*s|", (int)t.n, t.s); continue; }
    gr_buf_printf(b, "%d@%llu/%u", k, (unsigned long long)t.off, t.flags);
    if( k==GR_JS_STRING || k==GR_JS_INT || k==GR_JS_NUMBER ) gr_buf_printf(b, " %.*s", (int)t.n, t.s);
    gr_buf_adds(b, "|");
  }while( k!=GR_JS_ERROR && k!=GR_JS_EOF );
  if( k==GR_JS_ERROR )
    gr_buf_printf(b, " %d %u:%u %s", gr_js_errkind(&s), gr_js_error(&s)->line, gr_js_error(&s)->col, gr_js_error(&s)->msg);
  gr_js_free(&s);
}

static void test_fast_paths(void){
  static const char *const docs[] = {
    "{\"name\":\"a\",\"type\":\"Relu\",\"dim\":[[],[1,[2]],{}],\"x\":{\"type\":{}},\"names\":1,\"name\" :2,\"na\\u006de\":3}",
    "[[[[[1]]]]]", "[[[[{}]]]]", "{\"type\":{\"type\":{\"type\":{\"type\":{}}}}}      ",
    "{\"name\":1]", "[1}", "[}", "{]", "{\"a\":[}", "[{]}", "{\"name\":[1,2}", "[] []", "{}}", "[]]",
    "{\"name\":{\"name\":\"x\"},\"name\":[],\"type\":null}                ", " [ { } , [ ] ] ",
    "{\"name\":", "{\"name\":\"abcdefgh\"", "[[", "{\"type\"", "{\"dim\":[1,2]]                  ",
    /* short strings, read in place (gr_js__short_string) when 32 bytes follow:
    ** lengths 0-33 around the two 16-byte blocks, escapes, UTF-8, control
    ** and DEL bytes at the edges, and strings the end of input cuts */
    "[\"\",\"a\",\"abcdefghijklmno\",\"abcdefghijklmnop\",\"abcdefghijklmnopq\",\"abcdefghijklmnopqrstuvwxyz01234\","
      "\"abcdefghijklmnopqrstuvwxyz012345\",\"abcdefghijklmnopqrstuvwxyz0123456\",\"abcdefghijklmnopqrstuvwxyz01234567\"]                                  ",
    "[\"a\\\"b\",\"abcdefghijklmno\\n\",\"abcdefghijklmnop\\u0041\",\"\xc3\xa9t\xc3\xa9\",\"abcdefghijklmnopqrstuvwxyz01234\xe2\x82\xac\",\"~\x7f\"]                                  ",
    "[\"abc\tdef\"]                                  ", "[\"abcdefghijklmnopqrstuvwxyz012345\x01\"]                                  ",
    "[\"\xc3\"]                                  ", "{\"name\":\"x\"]                                  ", "[\"x\"}                                  ",
    "[\"x\" \"y\"]                                  ", "\"top\"                                  ", "[\"abcdefghijklmnopqrstuvwxyz012345",
  };
  static const char *const keys[] = { "name", "type", "dim", "an_overlong_key_name" };
  gr_js_keyset ks;
  gr_buf slow, fast;
  size_t i;
  unsigned d;
  int bad = 0, keyed = 0;
  gr_buf_init(&slow); gr_buf_init(&fast);
  ok(gr_js_keys_init(&ks, keys, 4)==0 && ks.n==4, "a key set of 4 keys");
  ok(gr_js_keys_init(&ks, keys, GR_JS_KEYS + 1)==-1, "a key set holds at most GR_JS_KEYS keys");
  gr_js_keys_init(&ks, keys, 4);
  for(i = 0; i < sizeof docs / sizeof *docs; i++)
    for(d = 1; d <= 6; d++){
      stream(&slow, docs[i], d, 0, &ks);
      stream(&fast, docs[i], d, 1, &ks);
      if( slow.n!=fast.n || memcmp(slow.p, fast.p, slow.n)!=0 ){
        if( bad++ < 5 ) diag("doc %zu, depth %u:\n# %.*s\n# vs gr_js_next:\n# %.*s", i, d, (int)fast.n, fast.p,
                             (int)slow.n, slow.p);
      }
    }
  ok(bad==0, "gr_js_next_fast and gr_js_key give gr_js_next's tokens and errors (depth limits 1-6)");
  /* the fast paths do take what they are for */
  {
    gr_js s;
    gr_js_tok t;
    const char *doc = "{\"type\":[],\"name\":{}}                ";
    gr_js_init_mem(&s, doc, strlen(doc), 16, 0);
    keyed = gr_js_next_fast(&s, &t)==GR_JS_OBJECT && gr_js_key(&s, &ks, 0)==1 && gr_js_next_fast(&s, &t)==GR_JS_ARRAY
         && gr_js_next_fast(&s, &t)==GR_JS_ARRAY_END && gr_js_key(&s, &ks, 2)==0 && t.off==9;
    gr_js_free(&s);
  }
  ok(keyed, "compact keys are matched in place, whichever is tried first");
  gr_buf_free(&slow); gr_buf_free(&fast);
}

/* ---- the same results whatever the chunking ---- */

/* Everything a loaded graph holds, or the error, as text. */
static void describe_attr(gr_buf *b, const gr_graph *g, const gr_attr *a){
  uint32_t j;
  gr_buf_printf(b, " %s=%u/%u/", gr_graph_str(g, a->key), a->kind, a->n);
  switch( a->kind ){
  case GR_ATTR_S: case GR_ATTR_DT: gr_buf_adds(b, gr_graph_str(g, a->u.str)); break;
  case GR_ATTR_F: gr_buf_printf(b, "%.17g", a->u.f); break;
  case GR_ATTR_LIST_S: for(j = 0; j < a->n; j++) gr_buf_printf(b, "%s,", gr_graph_str(g, gr_graph_list_u32(g, a->u.list)[j])); break;
  case GR_ATTR_LIST_I: case GR_ATTR_LIST_B:
    for(j = 0; j < a->n; j++) gr_buf_printf(b, "%lld,", (long long)gr_graph_list_i64(g, a->u.list)[j]);
    break;
  case GR_ATTR_LIST_F: for(j = 0; j < a->n; j++) gr_buf_printf(b, "%.17g,", gr_graph_list_f64(g, a->u.list)[j]); break;
  default: gr_buf_printf(b, "%lld", (long long)a->u.i);
  }
}

static void describe(gr_buf *b, const char *json, size_t len, int how){
  gr_error e;
  gr_graph *g = NULL;
  uint32_t i, k;
  memset(&e, 0, sizeof e);
  b->n = 0;
  if( how==0 ){
    g = gr_graph_load_mem(json, len, &e);
  }else if( how==2 ){
    /* a regular file, mapped by the scanner, behind 3 bytes of another file */
    char path[] = "/tmp/t0100-map-XXXXXX";
    int fd = mkstemp(path);
    if( fd < 0 || write(fd, "xyz", 3)!=3 || write(fd, json, len)!=(ssize_t)len || lseek(fd, 3, SEEK_SET)!=3 ){
      gr_buf_adds(b, "temporary file failed");
      if( fd >= 0 ){ close(fd); unlink(path); }
      return;
    }
    g = gr_graph_load_fd(fd, &e);
    close(fd);
    unlink(path);
  }else{
    /* a pipe fed one byte per write by a child */
    int fd[2];
    pid_t pid;
    if( pipe(fd)!=0 ){ gr_buf_adds(b, "pipe failed"); return; }
    fflush(stdout);                /* the child must not write the TAP buffer again */
    pid = fork();
    if( pid==0 ){
      size_t j;
      close(fd[0]);
      signal(SIGPIPE, SIG_IGN);
      for(j = 0; j < len; j++) if( write(fd[1], json + j, 1)!=1 ) break;
      _exit(0);
    }
    close(fd[1]);
    g = gr_graph_load_fd(fd[0], &e);
    close(fd[0]);
    if( pid > 0 ) waitpid(pid, NULL, 0);
  }
  if( g==NULL ){ gr_buf_printf(b, "%u:%u: %s", e.line, e.col, e.msg); return; }
  gr_buf_printf(b, "model %s graphs %u:", gr_graph_model_name(g), gr_graph_ngraphs(g));
  for(i = 0; i < gr_graph_ngraphs(g); i++) gr_buf_printf(b, " %s", gr_graph_graph_name(g, i));
  for(i = 0; i < gr_graph_nnodes(g); i++){
    const gr_node *n = &gr_graph_nodes(g)[i];
    const gr_edge *ed = gr_graph_edges(g, n);
    const gr_tensor *t = gr_graph_tensors(g, n);
    const gr_attr *a = gr_graph_attrs(g, n);
    gr_buf_printf(b, "\n%s %s %u:%u g%u f%u |", gr_graph_str(g, n->name), gr_graph_type_name(g, n->type),
                  n->line, n->col, n->graph, n->flags);
    for(k = 0; k < (uint32_t)n->n_data + n->n_ctrl; k++) gr_buf_printf(b, " %d:%d", (int)ed[k].src, ed[k].index);
    gr_buf_adds(b, " |");
    for(k = 0; k < (uint32_t)n->n_in_desc + n->n_out_desc; k++){
      uint32_t nd, d;
      const int64_t *dims = gr_graph_shape(g, t[k].shape, &nd);
      gr_buf_printf(b, " %s/%s/", gr_graph_dtype_name(g, t[k].dtype), gr_graph_layout_name(g, t[k].layout));
      for(d = 0; d < nd; d++) gr_buf_printf(b, "%lld,", (long long)dims[d]);
    }
    gr_buf_adds(b, " |");
    for(k = 0; k < n->n_attr; k++) describe_attr(b, g, &a[k]);
    for(k = 0; k < n->n_in_desc; k++){
      uint32_t na, j;
      const gr_attr *da = gr_graph_input_attrs(g, i, k, &na);
      if( na ) gr_buf_printf(b, " in%u:", k);
      for(j = 0; j < na; j++) describe_attr(b, g, &da[j]);
    }
  }
  gr_graph_free(g);
}

static void test_chunking(void){
  static const char *const docs[] = {
    "{\"name\": \"a\\u00e9\\ud83d\\ude00\\\"\\\\b\", \"graph\": [{\"op\": [{\"name\": \"x\", \"attr\": [{\"key\": \"k\", \"value\": {\"f\": -1.25e-2}}]}]}]}",
    "{\"name\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"graph\": [{\"op\": [{\"name\": \"y\", \"output_desc\": [{\"shape\": {\"dim\": [123456789, -1]}}]}]}]}",
    "{\"name\": \"abc", "{\"name\": \"a\\xb\"}", "{\"name\": \"\\ud800\\u0041\"}", "{\"name\": \"\\u12G4\"}",
    "{\"a\": 01}", "{\"a\": 1.}", "{\"a\": -}", "{\"a\": 0.e5}", "{\"a\": 12.x34}", "{\"a\": 1", "{\"a\": truex}", "{\"a\": fals", "{\"a\": true}",
    "{\"a\": null}", "{\"a\" 1}", "{\"a\": [1,]}", "{} x", "{}\n", "   ", "{\"name\": \"\xe2\x82\"}",
    "{\"name\": \"\xf0\x9f\x98", "{\"name\": \"\\ud83d\\ude0", "{\"graph\": [{\"op\": [{\"name\": 5}]}]}",
    "{\"graph\": [{\"op\": [{\"name\": \"a\", \"input\": [\"b:0\"]}]}]}",

    /* compact dims, read by gr_js_ints whenever 24 bytes follow in the window:
    ** the tiny chunks read them token by token, so these compare the two */
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[123456789012345678,-1,0,-0,7,1234567890123456789,-9223372036854775808,5]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,01,3,4,5,6,7,8,9,10,11]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,2.5,3,4,5,6,7,8,9,10,11]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,-,3,4,5,6,7,8,9,10,11]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,1e5,3,4,5,6,7,8,9,10,11]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,99999999999999999999,3,4,5,6,7]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,\"x\",3,4,5,6,7,8,9]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2 ,3,4,5,6,7,8,9,10,11]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,3,]},\"pad\":\"........................................\"}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"y\",\"output_desc\":[{\"shape\":{\"dim\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]},\"pad\":\"........................................\"}]}]}]}",

    /* compact keys, matched in place (gr_js_key) whenever 16 bytes follow in
    ** the window: every key of every object kind, out of order, repeated,
    ** near misses (prefixes, longer keys, escapes, a space before ':'), and
    ** type errors right after a key matched in place */
    "{\"graph\":[{\"op\":[{\"output_desc\":[{\"layout\":\"NCHW\",\"shape\":{\"dim\":[2,3]},\"dtype\":\"DT_FLOAT\",\"attr\":[]}],"
      "\"type\":\"Relu\",\"name\":\"r\",\"input\":[\"a:0\"],\"input_desc\":[{\"attr\":[{\"key\":\"_value\",\"value\":{\"i\":4}}],\"dtype\":\"DT_INT32\"}],"
      "\"attr\":[{\"value\":{\"s\":\"x\"},\"key\":\"s1\"},{\"key\":\"f1\",\"value\":{\"f\":\"0.5\"}},{\"key\":\"b1\",\"value\":{\"b\":true}},"
      "{\"key\":\"d1\",\"value\":{\"dt\":\"DT_INT8\"}},{\"key\":\"l1\",\"value\":{\"list\":{\"i\":[1,2,3],\"val_type\":2}}},"
      "{\"key\":\"l2\",\"value\":{\"list\":{\"val_type\":\"VT_LIST_FLOAT\",\"s\":[],\"f\":[1.5,2],\"b\":[true]}}},{\"key\":\"o1\",\"value\":{\"func\":{}}}],"
      "\"subgraph_name\":[\"g2\"]},{\"name\":\"a\",\"type\":\"Data\",\"name\":\"a\",\"names\":1,\"nam\":2,\"input_descs\":[{}],\"na\\u006de\":\"z\","
      "\"type\" :\"Data\",\"subgraph_names\":[3],\"attr\":[{\"key\":\"k\",\"values\":5,\"value\":{\"ii\":1,\"dt\":7}}]}]},{\"name\":\"g2\",\"op\":[]}]}",
    "{\"graph\":[{\"op\":[{\"name\":5,\"type\":\"Data\",\"input\":[],\"attr\":[]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":\"x\"}}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"attr\":[{\"key\":\"k\",\"value\":3}],\"input\":[]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"attr\":[{\"key\":\"k\",\"value\":{\"list\":{\"i\":[\"x\"]}}}],\"input\":[]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"input_desc\":[{\"layout\":7,\"dtype\":\"DT_FLOAT\"}],\"output_desc\":[]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"type\":\"Data\",\"subgraph_name\":{},\"input\":[]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"type\":\"Data\",\"input\":[\"b\"]},{\"name\":\"b\",\"type\":\"Data\",\"attr\":[{\"key\":\"k\",\"value\":{\"b\":1}}]}]}]}",
    "{\"graph\":[{\"op\":[{\"name\":\"a\",\"type\":\"Data\",\"input\":[]}]}]}  \"trailing\": 1",
  };
  static const size_t chunks[] = { 1, 2, 3, 5, 7, 16, 17 };
  gr_buf whole, part;
  size_t i, c;
  int bad = 0, fdbad = 0, mapbad = 0;
  gr_buf_init(&whole); gr_buf_init(&part);
  for(i = 0; i < sizeof docs / sizeof *docs + 1; i++){
    const char *d = i < sizeof docs / sizeof *docs ? docs[i] : main_json;
    size_t len = strlen(d);
    gr_js_test_chunk = 0;
    describe(&whole, d, len, 0);
    for(c = 0; c < sizeof chunks / sizeof *chunks; c++){
      gr_js_test_chunk = chunks[c];
      describe(&part, d, len, 0);
      if( part.n!=whole.n || memcmp(part.p, whole.p, whole.n)!=0 ){
        if( bad++ < 5 ) diag("doc %zu, chunk %zu:\n# %.*s\n# vs whole:\n# %.*s", i, chunks[c],
                             (int)part.n, part.p, (int)whole.n, whole.p);
      }
      describe(&part, d, len, 2);
      if( part.n!=whole.n || memcmp(part.p, whole.p, whole.n)!=0 ){
        if( mapbad++ < 5 ) diag("doc %zu, mapped file, window %zu:\n# %.*s\n# vs whole:\n# %.*s", i, chunks[c],
                                (int)part.n, part.p, (int)whole.n, whole.p);
      }
    }
    gr_js_test_chunk = 0;
    describe(&part, d, len, 1);
    if( part.n!=whole.n || memcmp(part.p, whole.p, whole.n)!=0 ){
      if( fdbad++ < 5 ) diag("doc %zu from a pipe:\n# %.*s\n# vs whole:\n# %.*s", i, (int)part.n, part.p, (int)whole.n, whole.p);
    }
  }
  ok(bad==0, "tiny test chunks (1, 2, 3, 5, 7, 16, 17 bytes) give the same graphs and errors as one buffer");
  ok(fdbad==0, "a pipe fed one byte per write gives the same graphs and errors");
  ok(mapbad==0, "a mapped file scanned in tiny windows, from an fd offset inside a page, gives the same graphs and errors");
  /* a large escaped string read one byte at a time stays linear */
  {
    gr_buf b;
    gr_graph *g;
    int k;
    gr_buf_init(&b);
    gr_buf_adds(&b, "{\"name\": \"");
    for(k = 0; k < 50000; k++) gr_buf_adds(&b, k % 2 ? "\\u00e9" : "xy");
    gr_buf_adds(&b, "\"}");
    gr_js_test_chunk = 1;
    g = load(gr_buf_cstr(&b));
    gr_js_test_chunk = 0;
    ok(g && strlen(gr_graph_model_name(g))==50000 * 2, "a 200 KB escaped string fed in 1-byte slices");
    gr_graph_free(g);
    gr_buf_free(&b);
  }
  gr_buf_free(&whole); gr_buf_free(&part);
}

/* ---- dims arrays seen before (gr_js_ints_remember / gr_js_ints_recall) ---- */

/* The scanner alone: a remembered array is recalled only right after a '['
** and only for the same bytes up to its ']', and leaves the scanner where
** reading it would have. */
static void test_ints_memo_scanner(void){
  static const char pad[] = "                                        ";
  gr_js_intmemo m;
  gr_js s;
  gr_js_tok t;
  gr_buf doc;
  int64_t v[8];
  uint32_t val = 0;
  int closed, good;
  static const struct { const char *body; int hit; } probes[] = {
    { "1,512,2048]", 1 }, { "1,512,2048 ]", 0 }, { "1,512,204]", 0 }, { "1,512,20480]", 0 },
    { "1,512,2048,1]", 0 }, { " 1,512,2048]", 0 }, { "-1,512,2048]", 0 }, { "1,512,2049]", 0 },
  };
  size_t i;
  memset(&m, 0, sizeof m);
  gr_buf_init(&doc);
  gr_buf_printf(&doc, "[[1,512,2048],[1,512,2048],%s[0]]", pad);
  gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
  good = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_ARRAY;
  good = good && !gr_js_ints_recall(&s, &m, &val);                   /* nothing remembered yet */
  good = good && gr_js_ints(&s, v, 8, &closed)==3 && closed && v[2]==2048;
  gr_js_ints_remember(&s, &m, 41);
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_ints_recall(&s, &m, &val) && val==41;
  /* after the recall the scanner goes on as after the ']' */
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && t.off==27 + sizeof pad - 1;
  good = good && !gr_js_ints_recall(&s, &m, &val);                   /* fewer than 32 bytes left */
  good = good && gr_js_next(&s, &t)==GR_JS_INT && !gr_js_ints_recall(&s, &m, &val);   /* not after a '[' */
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY_END && gr_js_next(&s, &t)==GR_JS_ARRAY_END
              && gr_js_next(&s, &t)==GR_JS_EOF;
  gr_js_free(&s);
  ok(good, "a dims array read whole is recalled after the next '[', and the scan goes on after its ']'");
  good = 1;
  for(i = 0; i < sizeof probes / sizeof *probes; i++){
    int hit;
    doc.n = 0;
    gr_buf_printf(&doc, "[%s%s", probes[i].body, pad);
    gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
    hit = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_ints_recall(&s, &m, &val);
    if( hit!=probes[i].hit ){ diag("probe '[%s': recalled %d", probes[i].body, hit); good = 0; }
    /* a miss consumed nothing: the next token is the array's first element or ']' */
    if( !hit && gr_js_next(&s, &t)==GR_JS_ERROR ){ diag("probe '[%s': %s", probes[i].body, gr_js_error(&s)->msg); good = 0; }
    gr_js_free(&s);
  }
  ok(good, "only the same bytes up to the ']' are recalled (spaces, a prefix, a longer array, a sign miss)");
  /* a partial read (elements after a ',') and a later scan are not remembered */
  memset(&m, 0, sizeof m);
  doc.n = 0;
  gr_buf_printf(&doc, "[[7, 8,9],[9],[1,2],[1,2],%s]", pad);
  gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
  good = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_ARRAY;
  good = good && gr_js_ints(&s, v, 8, &closed)==1 && !closed && gr_js_next(&s, &t)==GR_JS_INT;
  good = good && gr_js_ints(&s, v, 8, &closed)==1 && closed;            /* "9]" after a ',' */
  gr_js_ints_remember(&s, &m, 5);
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && !gr_js_ints_recall(&s, &m, &val);   /* "[9]" */
  good = good && gr_js_ints(&s, v, 8, &closed)==1 && closed;
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_ints(&s, v, 8, &closed)==2 && closed;
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY;                       /* scanned on: too late */
  gr_js_ints_remember(&s, &m, 6);
  good = good && !gr_js_ints_recall(&s, &m, &val);
  gr_js_free(&s);
  ok(good, "an array not read whole right after its '[', or remembered too late, is not recalled");
  gr_buf_free(&doc);
}

/* A graph whose tensors draw their dims from 150 variants (more than the
** memo's slots, with near misses of each other, some longer than it keeps,
** some with spaces) gives every tensor its own dims, read whole or in tiny
** chunks. */
static void test_ints_memo_graph(void){
  enum { NV = 150, NT = 3000 };
  static int64_t want[NV][12];
  static unsigned nwant[NV];
  gr_buf doc;
  size_t c;
  unsigned i, j, bad = 0;
  static const size_t chunks[] = { 0, 7 };
  gr_buf_init(&doc);
  for(i = 0; i < NV; i++){
    nwant[i] = i % 5==4 ? 10 + i % 3 : 1 + i % 4;
    for(j = 0; j < nwant[i]; j++) want[i][j] = (int64_t)((i * 37u + j * 11u) % (i % 3 ? 3000u : 30u)) - (i % 7==0);
  }
  gr_buf_adds(&doc, "{\"graph\":[{\"op\":[");
  for(i = 0; i < NT / 3; i++){
    gr_buf_printf(&doc, "%s{\"name\":\"o%u\",\"output_desc\":[", i ? "," : "", i);
    for(j = 0; j < 3; j++){
      unsigned v = (i * 3 + j) * 2654435761u % NV, d;
      gr_buf_printf(&doc, "%s{\"shape\":{\"dim\":[", j ? "," : "");
      for(d = 0; d < nwant[v]; d++) gr_buf_printf(&doc, "%s%lld", d ? (v % 11==3 ? ", " : ",") : "", (long long)want[v][d]);
      gr_buf_adds(&doc, "]}}");
    }
    gr_buf_adds(&doc, "]}");
  }
  gr_buf_adds(&doc, "]}]}");
  for(c = 0; c < sizeof chunks / sizeof *chunks; c++){
    gr_graph *g;
    gr_js_test_chunk = chunks[c];
    g = load(gr_buf_cstr(&doc));
    gr_js_test_chunk = 0;
    if( g==NULL || gr_graph_nnodes(g)!=NT / 3 ){ bad++; gr_graph_free(g); continue; }
    for(i = 0; i < NT / 3; i++){
      const gr_node *n = &gr_graph_nodes(g)[i];
      const gr_tensor *t = gr_graph_tensors(g, n);
      for(j = 0; j < 3; j++){
        unsigned v = (i * 3 + j) * 2654435761u % NV, nd;
        const int64_t *dims = gr_graph_shape(g, t[n->n_in_desc + j].shape, &nd);
        if( nd!=nwant[v] || memcmp(dims, want[v], nd * sizeof *dims)!=0 ){
          if( bad++ < 5 ) diag("chunk %zu, op %u, tensor %u: %u dims, expected variant %u", chunks[c], i, j, nd, v);
        }
      }
    }
    gr_graph_free(g);
  }
  ok(bad==0, "3,000 tensors with dims from 150 near-miss variants get their own dims, whole and in 7-byte chunks");
  gr_buf_free(&doc);
}

/* ---- small objects seen before (gr_js_obj_remember / gr_js_obj_recall) ---- */

/* Reads tokens up to the '}' that closes the object just opened. */
static int to_close(gr_js *s, gr_js_tok *t){
  unsigned d = s->depth - 1;
  for(;;){
    int k = gr_js_next(s, t);
    if( k==GR_JS_ERROR || k==GR_JS_EOF ) return 0;
    if( k==GR_JS_OBJECT_END && s->depth==d ) return 1;
  }
}

static void test_obj_memo_scanner(void){
  static const char pad[] = "                                                                                                                                ";
  static const char obj[] = "{\"a\":1,\"b\":{\"c\":[2,3]}}";
  static const struct { const char *text; int hit; } probes[] = {
    { "{\"a\":1,\"b\":{\"c\":[2,3]}}", 1 }, { "{\"a\":1,\"b\":{\"c\":[2,4]}}", 0 }, { "{\"a\":1,\"b\":{\"c\":[2,3]},\"d\":0}", 0 },
    { "{\"a\":1,\"b\" :{\"c\":[2,3]}}", 0 }, { "{\"a\":1}", 0 }, { "{\"a\":1,\"b\":{\"c\":[2,3]}} ", 1 },
  };
  unsigned char val[GR_JS_OMEMO_VAL], got[GR_JS_OMEMO_VAL];
  gr_js_objmemo *m = calloc(1, sizeof *m);
  gr_js_mark mark;
  gr_js s;
  gr_js_tok t;
  gr_buf doc;
  size_t i;
  int good;
  memset(val, 0x5c, sizeof val);
  gr_buf_init(&doc);
  gr_buf_printf(&doc, "[%s,%s,[%s],{\"x\":{},\"y\":{},\"z\":{}},{\"x\":{},\"y\":{},\"z\":{}},%s0]", obj, obj, obj, pad);
  gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
  good = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_OBJECT;
  good = good && !gr_js_obj_recall(&s, m, got);                     /* nothing remembered yet */
  mark = gr_js_mark_here(&s);
  good = good && to_close(&s, &t);
  gr_js_obj_remember(&s, m, &mark, val);
  memset(got, 0, sizeof got);
  good = good && gr_js_next(&s, &t)==GR_JS_OBJECT && gr_js_obj_recall(&s, m, got) && memcmp(got, val, sizeof val)==0;
  /* the scan goes on after the recalled '}' and its ',' */
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && t.off==2 * (sizeof obj - 1) + 3;
  /* the same bytes one level deeper are not the same object */
  good = good && gr_js_next(&s, &t)==GR_JS_OBJECT && !gr_js_obj_recall(&s, m, got) && to_close(&s, &t)
              && gr_js_next(&s, &t)==GR_JS_ARRAY_END;
  /* an object holding three objects is not remembered */
  good = good && gr_js_next(&s, &t)==GR_JS_OBJECT;
  mark = gr_js_mark_here(&s);
  good = good && to_close(&s, &t);
  gr_js_obj_remember(&s, m, &mark, val);
  good = good && gr_js_next(&s, &t)==GR_JS_OBJECT && !gr_js_obj_recall(&s, m, got) && to_close(&s, &t);
  good = good && gr_js_next(&s, &t)==GR_JS_INT && gr_js_next(&s, &t)==GR_JS_ARRAY_END && gr_js_next(&s, &t)==GR_JS_EOF;
  gr_js_free(&s);
  ok(good, "an object read whole is recalled at the same depth, and the scan goes on after its '}'");
  good = 1;
  for(i = 0; i < sizeof probes / sizeof *probes; i++){
    int hit;
    doc.n = 0;
    gr_buf_printf(&doc, "[%s,%s]", probes[i].text, pad);
    gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
    hit = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_OBJECT && gr_js_obj_recall(&s, m, got);
    if( hit!=probes[i].hit ){ diag("probe %s: recalled %d", probes[i].text, hit); good = 0; }
    if( !hit && !to_close(&s, &t) ){ diag("probe %s: %s", probes[i].text, gr_js_error(&s)->msg); good = 0; }
    gr_js_free(&s);
  }
  ok(good, "only the same bytes up to the '}' are recalled (a value, a member more, a space before ':')");
  /* fewer than GR_JS_OMEMO_TEXT bytes left in the window: no recall */
  doc.n = 0;
  gr_buf_printf(&doc, "[%s]", obj);
  gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
  good = gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_OBJECT && !gr_js_obj_recall(&s, m, got);
  gr_js_free(&s);
  /* remembering after another token than the object's '}' does nothing */
  memset(m, 0, sizeof *m);
  doc.n = 0;
  gr_buf_printf(&doc, "[%s,1,%s,%s]", obj, obj, pad);
  gr_js_init_mem(&s, doc.p, doc.n, 16, 0);
  good = good && gr_js_next(&s, &t)==GR_JS_ARRAY && gr_js_next(&s, &t)==GR_JS_OBJECT;
  mark = gr_js_mark_here(&s);
  good = good && to_close(&s, &t) && gr_js_next(&s, &t)==GR_JS_INT;
  gr_js_obj_remember(&s, m, &mark, val);
  good = good && gr_js_next(&s, &t)==GR_JS_OBJECT && !gr_js_obj_recall(&s, m, got);
  gr_js_free(&s);
  ok(good, "no recall near the window's end, and no remembering once the scan went on");
  gr_buf_free(&doc);
  free(m);
}

/* A graph whose descriptors and attributes repeat, with near misses of each
** other (a dtype, a layout, a dims value, a member more, a space, input
** descriptors with attributes, list attributes) and more variants than the
** memo's slots, gives the same nodes read whole as in 1- and 7-byte chunks,
** where nothing is recalled. */
static void test_obj_memo_graph(void){
  static const char *const descs[] = {
    "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2048]}}", "{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[1,512,2048]}}",
    "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2049]}}", "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2048]},\"layout\":\"ND\"}",
    "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2048]},\"layout\":\"NCHW\"}", "{\"dtype\":\"DT_FLOAT16\", \"shape\":{\"dim\":[1,512,2048]}}",
    "{\"dtype\":\"DT_INT64\",\"shape\":{\"dim\":[-1,4]}}", "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2048]},\"attr\":[{\"key\":\"_value\",\"value\":{\"i\":3}}]}",
    "{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,512,2048]},\"attr\":[{\"key\":\"_value\",\"value\":{\"i\":4}}]}",
    "{\"shape\":{\"dim\":[1,512,2048]},\"dtype\":\"DT_FLOAT16\"}", "{}", "{\"dtype\":3}", "{\"shape\":null}", "{\"unknown\":{\"x\":1}}",
    "{\"dtype\":\"DT_FLOAT\",\"attr\":[{\"key\":\"_x\"}]}", "{\"attr\":[{\"key\":\"_v\",\"value\":null}]}",
  };
  static const char *const attrs[] = {
    "{\"key\":\"transpose_x1\",\"value\":{\"b\":false}}", "{\"key\":\"transpose_x1\",\"value\":{\"b\":true}}",
    "{\"key\":\"transpose_x2\",\"value\":{\"b\":false}}", "{\"key\":\"axis\",\"value\":{\"i\":-1}}", "{\"key\":\"axis\",\"value\":{\"i\":1}}",
    "{\"key\":\"eps\",\"value\":{\"f\":\"1e-06\"}}", "{\"key\":\"eps\",\"value\":{\"f\":1e-05}}", "{\"key\":\"mode\",\"value\":{\"s\":\"high\"}}",
    "{\"key\":\"dt\",\"value\":{\"dt\":\"DT_INT8\"}}", "{\"key\":\"perm\",\"value\":{\"list\":{\"i\":[0,2,1,3],\"val_type\":2}}}",
    "{\"key\":\"perm\",\"value\":{\"list\":{\"i\":[0,2,1,3]}}}", "{\"key\":\"names\",\"value\":{\"list\":{\"s\":[\"a\",\"b\"]}}}",
    "{\"key\":\"t\",\"value\":{\"t\":{}}}", "{\"value\":{\"i\":7},\"key\":\"axis\"}", "{\"key\":\"axis\"}", "{\"key\":\"axis\",\"value\":{\"i\":1},\"x\":2}",
  };
  enum { NOPS = 600, NV = 90 };
  gr_buf doc, whole, part;
  unsigned i, j, bad = 0;
  static const size_t chunks[] = { 1, 7 };
  size_t c;
  gr_buf_init(&doc); gr_buf_init(&whole); gr_buf_init(&part);
  gr_buf_adds(&doc, "{\"graph\":[{\"op\":[");
  for(i = 0; i < NOPS; i++){
    unsigned h = i * 2654435761u;
    gr_buf_printf(&doc, "%s{\"name\":\"o%u\",\"type\":\"T\",\"attr\":[", i ? "," : "", i);
    for(j = 0; j < 3; j++){
      unsigned v = (h >> (j * 5)) % NV;
      /* beyond the shipped texts, variants of one that differ in a value only: more than the slots */
      if( v < sizeof attrs / sizeof *attrs ) gr_buf_printf(&doc, "%s%s", j ? "," : "", attrs[v]);
      else gr_buf_printf(&doc, "%s{\"key\":\"k%u\",\"value\":{\"i\":%u}}", j ? "," : "", v % 7, v);
    }
    gr_buf_adds(&doc, "],\"input_desc\":[");
    for(j = 0; j < 2; j++){
      unsigned v = (h >> (j * 7 + 3)) % NV;
      if( v < sizeof descs / sizeof *descs ) gr_buf_printf(&doc, "%s%s", j ? "," : "", descs[v]);
      else gr_buf_printf(&doc, "%s{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[%u,%u]}}", j ? "," : "", v % 5, v);
    }
    gr_buf_adds(&doc, "],\"output_desc\":[");
    gr_buf_adds(&doc, descs[(h >> 20) % (sizeof descs / sizeof *descs)]);
    gr_buf_adds(&doc, "]}");
  }
  gr_buf_adds(&doc, "]}]}");
  gr_js_test_chunk = 0;
  describe(&whole, doc.p, doc.n, 0);
  for(c = 0; c < sizeof chunks / sizeof *chunks; c++){
    gr_js_test_chunk = chunks[c];
    describe(&part, doc.p, doc.n, 0);
    gr_js_test_chunk = 0;
    if( part.n!=whole.n || memcmp(part.p, whole.p, whole.n)!=0 ){
      size_t at = 0;
      while( at < part.n && at < whole.n && part.p[at]==whole.p[at] ) at++;
      if( bad++ < 3 ) diag("chunk %zu differs at byte %zu:\n# %.120s\n# vs whole:\n# %.120s", chunks[c], at,
                           part.p + (at > 40 ? at - 40 : 0), whole.p + (at > 40 ? at - 40 : 0));
    }
  }
  ok(bad==0 && strncmp(whole.p, "model ", 6)==0, "600 ops of repeated near-miss descriptors and attributes: read whole as in 1- and 7-byte chunks");
  /* and by what they hold: the first op, written out */
  {
    gr_graph *g = load(gr_buf_cstr(&doc));
    const gr_node *n = g ? &gr_graph_nodes(g)[0] : NULL;
    ok(g && n->n_attr==3 && n->n_in_desc==2 && n->n_out_desc==1, "op 0 has its 3 attributes and 3 descriptors");
    gr_graph_free(g);
  }
  gr_buf_free(&doc); gr_buf_free(&whole); gr_buf_free(&part);
}

/* ---- a regular file: mapped, and read where it grows ---- */

static void test_mapped(void){
  char path[] = "/tmp/t0100-grow-XXXXXX";
  gr_js s;
  gr_js_tok t;
  int fd = mkstemp(path), k, n = 0, ints = 0;
  off_t off;
  if( !ok(fd >= 0 && write(fd, "[1, 2", 5)==5 && lseek(fd, 0, SEEK_SET)==0, "temporary file for the mapping tests") ) return;
  gr_js_init_fd(&s, fd, 0, 16, 0);
  ok(s.map!=NULL, "a regular file is mapped");
  /* the file grows after it was mapped: the rest is read from the fd */
  ok(pwrite(fd, ", 3]\n", 5, 5)==5, "the file grows");
  while( (k = gr_js_next(&s, &t))!=GR_JS_EOF && k!=GR_JS_ERROR ){ n++; if( k==GR_JS_INT ) ints += (int)t.i; }
  ok(k==GR_JS_EOF && n==5 && ints==6, "what the file gained after mapping is read too");
  off = lseek(fd, 0, SEEK_CUR);
  is((int)off, 10, "the fd's offset follows the scan (progress meters poll it)");
  gr_js_free(&s);
  /* the file shrinks after it was mapped: a read error, not a fault */
  if( ftruncate(fd, 0)==0 && pwrite(fd, "[\"abcdefgh\", 12345, true]", 26, 0)==26 && lseek(fd, 0, SEEK_SET)==0 ){
    gr_js_init_fd(&s, fd, 0, 16, 0);
    ok(ftruncate(fd, 4)==0, "the file shrinks");
    k = gr_js_next(&s, &t);
    ok(k==GR_JS_ERROR && gr_js_errkind(&s)==GR_JS_E_READ && strstr(gr_js_error(&s)->msg, "shrank")
       && gr_js_error(&s)->line==0, "a file that shrank while mapped is a read error at 0:0");
    gr_js_free(&s);
  }
  close(fd);
  unlink(path);
}

/* Input-descriptor attributes (by input index, whatever the order of the
** descs in the file) and each graph's parent node from subgraph_name. */
static void test_desc_attrs_and_parents(void){
  gr_graph *g = load(
    "{\"graph\": [{\"name\": \"main\", \"op\": ["
    "  {\"name\": \"d\", \"type\": \"Data\"},"
    "  {\"name\": \"m\", \"type\": \"X\", \"input\": [\"d:0\", \"d:0\"],"
    "   \"output_desc\": [{\"attr\": [{\"key\": \"o\", \"value\": {\"i\": 1}}]}],"
    "   \"input_desc\": [{\"dtype\": \"DT_FLOAT\"}, {\"attr\": [{\"key\": \"_value\", \"value\": {\"t\": {}}},"
    "                                   {\"key\": \"k\", \"value\": {\"i\": 7}}, {\"key\": \"k\", \"value\": {\"i\": 8}}]}]},"
    "  {\"name\": \"w\", \"type\": \"While\", \"input\": [\"d:0\"], \"subgraph_name\": [\"cond\", \"body\"]},"
    "  {\"name\": \"p\", \"type\": \"P\", \"subgraph_name\": [\"body\"]}]},"
    " {\"name\": \"body\", \"op\": [{\"name\": \"a\", \"type\": \"Data\", \"input_desc\": [{\"attr\": [{\"key\": \"z\", \"value\": {\"b\": true}}]}]}]},"
    " {\"name\": \"cond\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}]},"
    " {\"name\": \"orphan\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}]}]}");
  uint32_t m, w, n, a;
  const gr_attr *at;
  ok(g!=NULL, "graph with desc attrs and subgraph_name loads");
  if( g==NULL ) return;
  ok(gr_graph_find_node(g, "m", &m) && gr_graph_find_node(g, "w", &w), "nodes found");
  at = gr_graph_input_attrs(g, m, 0, &n);
  ok(at!=NULL && n==0, "input desc 0 has no attrs");
  at = gr_graph_input_attrs(g, m, 1, &n);
  ok(n==3 && at[0].kind==GR_ATTR_OTHER, "input desc 1 keeps its three attrs; a tensor value is OTHER");
  ok(gr_graph_input_attr(g, m, 1, "_value")!=NULL, "_value found by key");
  at = gr_graph_input_attr(g, m, 1, "k");
  ok(at && at->kind==GR_ATTR_I && at->u.i==8, "a repeated key gives the last");
  ok(gr_graph_input_attr(g, m, 1, "o")==NULL && gr_graph_input_attr(g, m, 0, "o")==NULL,
     "output-desc attrs are not input attrs");
  ok(gr_graph_input_attr(g, m, 2, "_value")==NULL && gr_graph_input_attr(g, w, 0, "_value")==NULL,
     "no attr for a missing desc or another node");
  ok(gr_graph_attr(g, &gr_graph_nodes(g)[m], "k")==NULL, "desc attrs are not node attrs");
  ok(gr_graph_graph_parent(g, 0)==GR_NONE, "the root graph has no parent");
  ok(gr_graph_graph_parent(g, 1)==w, "body: the first op naming it (w, not p)");
  ok(gr_graph_graph_parent(g, 2)==w, "cond: parent w");
  ok(gr_graph_graph_parent(g, 3)==GR_NONE, "a graph no op names has no parent");
  ok(gr_graph_graph_parent(g, 9)==GR_NONE, "out of range: none");
  ok(gr_graph_find_node(g, "a", &a) && gr_graph_nodes(g)[a].graph==1, "body's a is the first 'a'");
  at = gr_graph_input_attr(g, a, 0, "z");
  ok(at && at->kind==GR_ATTR_B && at->u.i==1, "desc attr of a subgraph node");
  gr_graph_free(g);
  like(FAIL("{\"graph\": [{\"op\": [{\"subgraph_name\": \"x\"}]}]}"), "1:38: expected an array for \"subgraph_name\"", "wrong type: subgraph_name");
  like(FAIL("{\"graph\": [{\"op\": [{\"subgraph_name\": [1]}]}]}"), "1:39: expected a string in \"subgraph_name\"", "wrong type: subgraph_name element");
  like(FAIL("{\"graph\": [{\"op\": [{\"input_desc\": [{\"attr\": 1}]}]}]}"), "expected an array for \"attr\"", "wrong type: input desc attr");
  like(FAIL("{\"graph\": [{\"op\": [{\"input_desc\": [{\"attr\": [{\"key\": \"k\", \"value\": {\"i\": \"7\"}}]}]}]}]}"),
       "expected an integer for \"i\"", "wrong type: input desc attr value");
}

/* GR_SHAPE_SCALAR ([]) and GR_SHAPE_UNKNOWN (not known) are distinct ids with
** no dims; only the scalar is what interning [] gives, and neither is dynamic. */
static void test_scalar_vs_unknown(void){
  gr_graph *g = gr_graph_new();
  const int64_t d2[2] = { 2, 3 }, dneg[1] = { -1 };
  uint32_t nd = 9, s2, sneg;
  ok(GR_SHAPE_SCALAR!=GR_SHAPE_UNKNOWN, "scalar and unknown are two ids");
  is(gr_graph_intern_shape(g, NULL, 0), GR_SHAPE_SCALAR, "interning [] gives the scalar");
  is(gr_graph_intern_shape(g, d2, 0), GR_SHAPE_SCALAR, "interning 0 dims from any pointer gives the scalar");
  ok(gr_graph_shape(g, GR_SHAPE_SCALAR, &nd)!=NULL && nd==0, "the scalar has no dims");
  nd = 9;
  ok(gr_graph_shape(g, GR_SHAPE_UNKNOWN, &nd)!=NULL && nd==0, "the unknown shape has no dims either (never read as dims)");
  ok(gr_graph_shape_known(g, GR_SHAPE_SCALAR), "the scalar is known");
  ok(!gr_graph_shape_known(g, GR_SHAPE_UNKNOWN), "the unknown shape is not");
  ok(!gr_graph_shape_known(g, 12345), "an id out of range is not known");
  ok(!g->shapes[GR_SHAPE_UNKNOWN].neg && !g->shapes[GR_SHAPE_SCALAR].neg, "neither is dynamic");
  s2 = gr_graph_intern_shape(g, d2, 2);
  sneg = gr_graph_intern_shape(g, dneg, 1);
  ok(s2!=GR_SHAPE_SCALAR && s2!=GR_SHAPE_UNKNOWN && sneg!=s2, "other shapes get ids of their own");
  ok(gr_graph_shape_known(g, s2) && gr_graph_shape_known(g, sneg) && g->shapes[sneg].neg, "they are known; [-1] is dynamic");
  is(gr_graph_intern_shape(g, d2, 2), s2, "re-interning finds the same id");
  is(gr_graph_intern_shape(g, NULL, 0), GR_SHAPE_SCALAR, "[] is still the scalar after other shapes");
  gr_graph_free(g);
}

/* --input_shape: an input made static leaves the outputs downstream that
** were dynamic not known (GR_SHAPE_UNKNOWN), not scalars; a dynamic input
** makes them [-2]. A scalar input given as [] stays a scalar. */
static void test_input_dims_unknown(void){
  gr_graph *g = load(
    "{\"graph\": [{\"name\": \"main\", \"op\": ["
    "  {\"name\": \"x\", \"type\": \"Data\", \"output_desc\": [{\"dtype\": \"DT_FLOAT\", \"shape\": {\"dim\": [-1, 4]}}]},"
    "  {\"name\": \"r\", \"type\": \"Relu\", \"input\": [\"x:0\"],"
    "   \"input_desc\": [{\"dtype\": \"DT_FLOAT\", \"shape\": {\"dim\": [-1, 4]}}],"
    "   \"output_desc\": [{\"dtype\": \"DT_FLOAT\", \"shape\": {\"dim\": [-1, 4]}}]}]}]}");
  uint32_t x, r, nd;
  const int64_t d[2] = { 2, 4 }, dyn[2] = { -1, 4 };
  const gr_tensor *t;
  ok(g!=NULL, "dynamic graph loads");
  if( g==NULL ) return;
  x = node_of(g, "x"); r = node_of(g, "r");
  ok(gr_graph_nodes(g)[r].flags & GR_NODE_DYNAMIC, "r starts dynamic");
  gr_graph_set_node_dims(g, x, d, 2);
  gr_graph_propagate_dims(g, &x, 1);
  t = gr_graph_tensors(g, &gr_graph_nodes(g)[r]);
  ok(!(gr_graph_nodes(g)[r].flags & GR_NODE_DYNAMIC), "a static input makes r static");
  gr_graph_shape(g, t[0].shape, &nd);
  ok(gr_graph_shape_known(g, t[0].shape) && nd==2, "r's input takes x's new dims [2,4]");
  is(t[1].shape, GR_SHAPE_UNKNOWN, "r's output: static, dims not inferred: unknown, not the scalar");
  gr_graph_set_node_dims(g, x, dyn, 2);
  gr_graph_propagate_dims(g, &x, 1);
  t = gr_graph_tensors(g, &gr_graph_nodes(g)[r]);
  ok((gr_graph_nodes(g)[r].flags & GR_NODE_DYNAMIC) && gr_graph_shape_known(g, t[1].shape) && g->shapes[t[1].shape].neg,
     "a dynamic input again: r's output is [-2], dynamic");
  gr_graph_set_node_dims(g, x, NULL, 0);
  gr_graph_propagate_dims(g, &x, 1);
  t = gr_graph_tensors(g, &gr_graph_nodes(g)[r]);
  is(t[0].shape, GR_SHAPE_SCALAR, "x given [] is a scalar, and r's input takes it");
  is(t[1].shape, GR_SHAPE_UNKNOWN, "r's output is not known, not a scalar");
  gr_graph_free(g);
}

int main(void){
  test_scalar_vs_unknown();
  test_input_dims_unknown();
  test_main_graph();
  test_desc_attrs_and_parents();
  test_errors();
  test_chunks();
  test_json_errors();
  test_scanner();
  test_fast_paths();
  test_chunking();
  test_ints_memo_scanner();
  test_ints_memo_graph();
  test_obj_memo_scanner();
  test_obj_memo_graph();
  test_mapped();
  return done_testing();
}
