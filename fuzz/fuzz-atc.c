/*
** fuzz-atc.c: libFuzzer target for the ATC command-line reader
** (src/options/atc_cmdline.c): the flags as ATC's getopt_long parser reads
** them, their value checks, and --input_shape's grammar, then the parsed
** shapes applied to a small graph (an If with a subgraph: the walk that
** propagates new dims downstream). The input is the command line, one
** argument per line ('\n' or NUL ends one; at most 64 arguments), read with
** the shipped rule set's atc_* tables: $GERULES_RULES, else the source
** tree's rules/ (GR_SRCDIR, in the replay of make check), else ./rules.
** Checks: every refusal carries a message; every flag taken is a key of the
** rule set's atc_flags; every parsed dim is
** a dim ATC accepts (above 0, or -1 for dynamic).
** After a line that starts with byte 0x1e (record separator), the rest of
** the input is a --raw_ge_options file (src/options/raw_ge_options.c), read
** after the flags: every refusal carries a message, every flag it sets is a
** key of atc_flags located in the file.
** Seeds: fuzz/corpus/atc/.
*/
#include "config.h"
#include "load-rules.h"
#include "options/atc_cmdline.h"
#include "lang/ruleset.h"
#include "model/graph.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static gr_ruleset *rs;
static volatile uint64_t sink;

/* Data inputs by name (x, c) and, in the subgraph, by index; an If whose
** branch graph is walked when x changes. */
static const char graph_json[] =
  "{\"name\":\"m\",\"graph\":[\n"
  " {\"name\":\"main\",\"op\":[\n"
  "  {\"name\":\"x\",\"type\":\"Data\",\"attr\":[{\"key\":\"index\",\"value\":{\"i\":0}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]},\"layout\":\"ND\"}]},\n"
  "  {\"name\":\"c\",\"type\":\"Data\",\"attr\":[{\"key\":\"index\",\"value\":{\"i\":1}}],"
  "\"output_desc\":[{\"dtype\":\"DT_BOOL\",\"shape\":{\"dim\":[]},\"layout\":\"ND\"}]},\n"
  "  {\"name\":\"mm\",\"type\":\"MatMulV2\",\"input\":[\"x:0\",\"x:0\"],"
  "\"input_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}},{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}}]},\n"
  "  {\"name\":\"branch\",\"type\":\"If\",\"input\":[\"c:0\",\"mm:0\"],\"subgraph_name\":[\"then_g\"],"
  "\"input_desc\":[{\"dtype\":\"DT_BOOL\",\"shape\":{\"dim\":[]}},{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}}]},\n"
  "  {\"name\":\"out\",\"type\":\"NetOutput\",\"input\":[\"branch:0\"]}]},\n"
  " {\"name\":\"then_g\",\"op\":[\n"
  "  {\"name\":\"a\",\"type\":\"Data\",\"attr\":[{\"key\":\"index\",\"value\":{\"i\":0}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[16,16]}}]},\n"
  "  {\"name\":\"o\",\"type\":\"NetOutput\",\"input\":[\"a:0\"]}]}\n"
  "]}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv){
  (void)argc; (void)argv;
  rs = fuzz_load_rules("fuzz-atc", NULL);
  return 0;
}

static int is_flag_key(const char *name){
  int k = gr_ruleset_find(&rs->table_map, "atc_flags");
  return k >= 0 && gr_map_get(&rs->tables[k].keymap, name)!=NULL;
}

static void apply_to_graph(const gr_atc_cmdline *c){
  gr_error gerr;
  gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 } };
  gr_graph *g = gr_graph_load_mem(graph_json, sizeof graph_json - 1, &gerr);
  uint32_t n, i;
  if( g==NULL ) abort();                    /* the fixed graph always loads */
  n = gr_graph_nnodes(g);
  if( gr_atc_apply(c, g, "fuzz.json", &err)!=0 ){
    if( err.msg==NULL || err.msg[0]==0 ) abort();
    sink += strlen(err.msg);
  }
  if( gr_graph_nnodes(g)!=n ) abort();
  for(i = 0; i < n; i++) sink += gr_graph_nodes(g)[i].type;
  gr_atc_error_free(&err);
  gr_graph_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  char *text = malloc(size + 1), *argv[MAX_ARGS + 1];
  int argc = 0, i;
  size_t k, start = 0;
  gr_atc_cmdline c;
  gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 } };
  const char *raw = NULL;
  size_t raw_len = 0;
  if( text==NULL ) return 0;
  if( size ) memcpy(text, data, size);
  text[size] = 0;
  for(k = 0; k < size; k++){
    if( text[k]==0x1e && (k==0 || text[k - 1]=='\n') ){
      raw = text + k + 1; raw_len = size - k - 1;
      size = k;
      text[k] = 0;
      break;
    }
  }
  for(k = 0; k <= size && argc < MAX_ARGS; k++){
    if( k==size || text[k]=='\n' || text[k]==0 ){
      text[k] = 0;
      argv[argc++] = text + start;
      start = k + 1;
    }
  }
  argv[argc] = NULL;
  if( gr_atc_init(&c, rs, &err)!=0 ) abort();   /* the shipped tables are well formed */
  for(i = 0; i < argc; i++){
    int r;
    if( argv[i][0]!='-' || argv[i][1]==0 ){ r = gr_atc_non_option(&c, argv[i], &err); }
    else r = gr_atc_flag_arg(&c, &i, argc, argv, &err);
    if( r!=0 ){
      if( err.msg==NULL || err.msg[0]==0 ) abort();
      sink += strlen(err.msg) + (err.code ? strlen(err.code) : 0);
      goto out;
    }
  }
  if( raw && gr_atc_raw_ge_options_text(&c, "fuzz-raw.json", raw, raw_len, &err)!=0 ){
    if( err.msg==NULL || err.msg[0]==0 ) abort();
    sink += strlen(err.msg);
    goto out;
  }
  for(k = 0; k < c.flags.n; k++){
    if( !is_flag_key(c.flags.v[k].name) ) abort();
    if( c.flags.v[k].file && c.flags.v[k].line==0 ) abort();
  }
  for(k = 0; k < c.raw_warnings.n; k++) if( c.raw_warnings.v[k].msg==NULL ) abort();
  if( gr_atc_finish(&c, &err)!=0 ){
    if( err.msg==NULL || err.msg[0]==0 ) abort();
    sink += strlen(err.msg);
    goto out;
  }
  for(k = 0; k < c.shapes.n; k++){
    size_t d;
    for(d = 0; d < c.shapes.v[k].dims.n; d++) if( c.shapes.v[k].dims.v[d] < -1 ) abort();
  }
  apply_to_graph(&c);
out:
  gr_atc_error_free(&err);
  gr_atc_free(&c);
  free(text);
  return 0;
}
