/*
** t0101-model.c: unit tests of the model interface (model.h): format
** detection from content for every format and for inputs that are none
** (empty, white space, zip/OM2, ONNX text views, random bytes), the format
** names, strict ModelDef checking of JSON through the interface, and the
** replay of the fuzz-model seed corpus (fuzz/corpus/model) through the same
** entry point the fuzz target uses, so a seed that once crashed stays fixed.
*/
#include "config.h"
#include "model/model.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LLVMFuzzerTestOneInput fuzz_model_one
#include "../fuzz/fuzz-model.c"

static int detect(const char *s, size_t n, char *msg){
  gr_error e;
  int f;
  memset(&e, 0, sizeof e);
  f = gr_model_detect((const unsigned char*)s, n, &e);
  if( msg ) strcpy(msg, e.msg);
  return f;
}
#define DETECT(lit, msg) detect(lit, sizeof(lit) - 1, msg)

static void test_detect(void){
  char m[512];
  is(DETECT("{\"graph\": []}", NULL), GR_FMT_GE_JSON, "JSON object -> ATC JSON");
  is(DETECT("  \n[1]", NULL), GR_FMT_GE_JSON, "JSON array -> ATC JSON reader (which rejects it)");
  is(DETECT("name: \"m\"\ngraph {\n  name: \"g\"\n  op { name: \"x\" type: \"Data\" }\n}\n", NULL), GR_FMT_GE_TEXT, "text ModelDef");
  is(DETECT("# dump\ngraph {\n  op {\n", NULL), GR_FMT_GE_TEXT, "text ModelDef after a comment");
  is(DETECT("IMOD\0\0\0\0", NULL), GR_FMT_OM, ".om magic");
  /* ModelDef: name=1 "m", graph=7 { name=1 "g", op=6 {} } */
  is(DETECT("\x0a\x01m\x3a\x05\x0a\x01g\x32\x00", NULL), GR_FMT_GE_BINARY, "binary ModelDef");
  /* ONNX: ir_version=1 8, graph=7 { name=2 "g" }, opset_import=8 { version=2 17 } */
  is(DETECT("\x08\x08\x3a\x03\x12\x01g\x42\x02\x10\x11", NULL), GR_FMT_ONNX, "binary ONNX ModelProto");
  is(DETECT("", m), 0, "empty input");
  like(m, "empty file (expected ATC JSON", "empty input: says what was expected");
  is(DETECT(" \n\t ", m), 0, "white space only");
  like(m, "only white space", "white space only: message");
  is(DETECT("PK\x03\x04....", m), 0, "zip");
  like(m, "OM2", "zip: names OM2");
  is(DETECT("ir_version: 6\nproducer_name: \"GE\"\ngraph {\n", m), 0, "ONNX text (ge_onnx dump)");
  like(m, "ge_onnx_*.pbtxt", "ONNX text: names the dump");
  is(DETECT("graph {\n  node {\n    op_type: \"ge:Relu\"\n", m), 0, "ONNX text starting with graph");
  is(DETECT("\x01\x02\x03\x04", m), 0, "garbage");
  like(m, "unrecognised model format (first bytes 01 02 03 04)", "garbage: first bytes shown");
  is(DETECT("hello world", m), 0, "plain text that is no protobuf text");
}

static void test_names(void){
  int f;
  for(f = 1; f < GR_FMT_COUNT; f++) is(gr_model_format_by_name(gr_model_format_name(f)), f, gr_model_format_name(f));
  is(gr_model_format_by_name("auto"), GR_FMT_AUTO, "auto");
  is(gr_model_format_by_name("yaml"), -1, "unknown name");
}

static void test_json_strict(void){
  static const char ok_json[] = "{\"name\": \"m\", \"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"}]}]}";
  gr_model_opts mo;
  gr_error e;
  gr_graph *g;
  memset(&mo, 0, sizeof mo);
  memset(&e, 0, sizeof e);
  g = gr_model_load_mem(ok_json, sizeof ok_json - 1, &mo, &e);
  ok(g!=NULL, "a ModelDef loads through the interface");
  if( g ){
    is(gr_graph_format(g), GR_FMT_GE_JSON, "format recorded");
    is(gr_graph_onnx_opset(g), 0, "no opset for JSON");
    gr_graph_free(g);
  }
  g = gr_model_load_mem("{}", 2, &mo, &e);
  ok(g==NULL && e.line==1 && e.col==1, "{} fails at 1:1");
  like(e.msg, "not a GE ModelDef", "{}: message");
  mo.format = GR_FMT_GE_JSON;
  g = gr_model_load_mem("IMOD", 4, &mo, &e);
  ok(g==NULL, "forced JSON on .om bytes fails");
  like(e.msg, "expected a JSON value", "forced JSON: the JSON reader's message");
}

/* Every seed of fuzz/corpus/model through the fuzz target's entry point. */
static void test_corpus(void){
  const char *dir = GR_SRCDIR "/fuzz/corpus/model";
  DIR *d = opendir(dir);
  struct dirent *de;
  int n = 0;
  ok(d!=NULL, "seed corpus directory");
  if( !d ) return;
  while( (de = readdir(d))!=NULL ){
    char path[4096];
    size_t len;
    char *buf;
    gr_error e;
    if( de->d_name[0]=='.' ) continue;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    memset(&e, 0, sizeof e);
    if( (buf = gr_read_file(path, &len, &e))==NULL ) continue;
    fuzz_model_one((const uint8_t*)buf, len);
    free(buf);
    n++;
  }
  closedir(d);
  ok(n >= 5, "replayed the seed corpus without a crash");
  diag("%d seeds", n);
}

int main(void){
  test_detect();
  test_names();
  test_json_strict();
  test_corpus();
  return done_testing();
}
