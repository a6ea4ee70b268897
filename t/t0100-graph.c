/*
** t0100-graph.c: unit tests of the graph loader and the compact graph
** (graph.h): nodes, types, data/control/unconnected edges, several graphs
** reusing op names, tensor descriptors with interned shapes, dtypes and
** layouts, the dynamic flag, every attribute kind, skipped unknown fields,
** proto defaults, chunk boundaries, and every error case with its line:col.
*/
#include "config.h"
#include "graph.h"
#include "tap.h"

#include <fcntl.h>
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
  ok(!gr_graph_find_str(g, "atc_cmdline", &id), "model attrs are skipped");

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
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\"}}]}"), "1:33: parse error: after array element", "malformed JSON");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\" \"type\": \"b\"}]}]}"),
       "1:33: parse error: after key and value, inside map, I expect ',' or '}'", "yajl message, first line");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": tru}]}]}"), "1:32: lexical error", "lexical error");
  like(FAIL("{\"a\": \"b\" \"c\"}"), "1:11: parse error", "parse error located at the refused token");
  like(FAIL("{\"graph\": [{\"op\": [{\"name\": \"a\"}]}, {\"op\": [{\"name\": \"a\"}]}]}"), "(loaded)",
       "the same op name in two graphs is fine");
  like(FAIL("[]"), "1:1: top level is not an object", "top level array");
  like(FAIL("  \"x\""), "1:3: top level is not an object", "top level string");
  like(FAIL(""), "1:1: empty input", "empty input");
  like(FAIL(" \n "), "empty input", "blank input");
  like(FAIL("{}\n{}"), "2:1: parse error: trailing garbage", "trailing garbage");
  like(FAIL("{\"graph\": [\n"), "2:1: parse error: premature EOF", "truncated input");

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

int main(void){
  test_main_graph();
  test_errors();
  test_chunks();
  return done_testing();
}
