/*
** fuzz-hook.c: libFuzzer target for the Lua hook API (src/hooks/): the
** input is a site policy script. It is loaded into the sandbox with small
** limits (8 MiB of Lua memory, 2 million instructions, 2 s), run through an
** evaluation of a fixed graph with the shipped rule set ($GERULES_RULES, else
** the source tree's rules/ as in make check's replay, else ./rules), its
** tiling functions are asked for a plan for every node, and the JSON report
** and the explain chain of the first node are rendered, so registrations,
** filters, overrides, diagnostics and plans all reach the C code that reads
** them. Checks: a refused script or a failed evaluation carries a message;
** a fatal result has an error diagnostic; a plan that is accepted is one the
** bridge promised (block_dim within GR_HOOKS_MAX_BLOCK_DIM, a tile array of
** ntiles entries). A hook must never crash or hang gerules, whatever it does.
** Seeds: fuzz/corpus/hook/ (short scripts for each registration and stage,
** and what fuzzing added); give examples/hooks and t/data/hooks as further
** seed directories (the API tour, the patterns, the four examples: not copied
** into the corpus, t0200 and t2000 test them). fuzz/hook.dict lists the API's
** names for -dict=.
*/
#include "config.h"
#include "load-rules.h"
#include "hooks/hooks.h"
#include "model/graph.h"
#include "report/out.h"
#include "report/report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gr_ruleset *rs;
static gr_graph *g;
static volatile uint64_t sink;

/* Op types the shipped rules treat differently (precision, tiling sink,
** a Const input, a dynamic dim), so callbacks filtered by type all fire. */
static const char graph_json[] =
  "{\"name\":\"m\",\"graph\":[{\"name\":\"main\",\"op\":[\n"
  " {\"name\":\"x\",\"type\":\"Data\",\"attr\":[{\"key\":\"index\",\"value\":{\"i\":0}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,128]}}]},\n"
  " {\"name\":\"len\",\"type\":\"Cast\",\"input\":[\"x:0\"],\"output_desc\":[{\"dtype\":\"DT_INT64\",\"shape\":{\"dim\":[1]}}]},\n"
  " {\"name\":\"w\",\"type\":\"Const\",\"output_desc\":[{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[128,128]}}]},\n"
  " {\"name\":\"conv1\",\"type\":\"Conv2D\",\"input\":[\"x:0\",\"w:0\"],\"attr\":[{\"key\":\"strides\",\"value\":{\"list\":{\"i\":[1,1,1,1]}}}]},\n"
  " {\"name\":\"mm\",\"type\":\"MatMulV2\",\"input\":[\"x:0\",\"w:0\"],"
  "\"input_desc\":[{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,128]}},{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[128,128]}}],"
  "\"output_desc\":[{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[1,128]}}]},\n"
  " {\"name\":\"sm\",\"type\":\"SoftmaxV2\",\"input\":[\"mm:0\"],\"output_desc\":[{\"dtype\":\"DT_FLOAT16\",\"shape\":{\"dim\":[-1,128]}}]},\n"
  " {\"name\":\"fia\",\"type\":\"FusedInferAttentionScore\",\"input\":[\"sm:0\",\"sm:0\",\"sm:0\",\"\",\"\",\"len:0\"]},\n"
  " {\"name\":\"out\",\"type\":\"NetOutput\",\"input\":[\"fia:0\"]}\n"
  "]}]}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv){
  gr_error err;
  (void)argc; (void)argv;
  rs = fuzz_load_rules("fuzz-hook", NULL);
  g = gr_graph_load_mem(graph_json, sizeof graph_json - 1, &err);
  if( g==NULL ){ fprintf(stderr, "fuzz-hook: the fixed graph does not load: %s\n", err.msg); abort(); }
  return 0;
}

static void log_line(void *ud, const char *line){ (void)ud; sink += strlen(line); }

/* The result borrows its inputs: they live as long as the process. */
static gr_input in[2];

static gr_result *evaluate(gr_hooks *h){
  gr_eval_config cfg;
  memset(in, 0, sizeof in);
  in[0].key = "ALLOW_HF32"; in[0].value = "1"; in[0].origin.file = "<command line>";
  in[1].key = "TILING_SCHEDULE_OPTIMIZE"; in[1].value = "1"; in[1].origin.file = "<command line>";
  memset(&cfg, 0, sizeof cfg);
  cfg.chip = "Ascend910B1";
  cfg.inputs = in; cfg.ninputs = 2;
  cfg.graph = g; cfg.graph_file = "fuzz.json";
  cfg.keep_candidates = 1;
  cfg.hooks = gr_hooks_vtable(h);
  return gr_eval(rs, &cfg);
}

static void plans(gr_hooks *h, gr_result *r){
  uint32_t n, nn = gr_graph_nnodes(g);
  for(n = 0; n < nn; n++){
    const char *type = gr_graph_str(g, gr_graph_nodes(g)[n].type);
    gr_custom_tiling t;
    gr_error err;
    if( !gr_hooks_has_tiling(h, type) ) continue;
    memset(&t, 0, sizeof t);
    if( gr_hooks_run_tiling(h, r, n, &t, &err)!=0 ){
      if( err.msg[0]==0 ) abort();
      if( t.offsets || t.sizes || t.cores ) abort();   /* nothing left allocated */
      sink += strlen(err.msg);
      continue;
    }
    if( t.block_dim < 1 || t.block_dim > GR_HOOKS_MAX_BLOCK_DIM || t.ntiles < 1 || t.cores==NULL ) abort();
    sink += t.cores[t.ntiles - 1] + (uint64_t)t.ndim;
    gr_custom_tiling_free(&t);
  }
}

static void render(gr_result *r){
  gr_buf b;
  gr_out o;
  gr_report_opts ro;
  memset(&b, 0, sizeof b);
  memset(&ro, 0, sizeof ro);
  ro.provenance = 1;
  ro.graph_path = "fuzz.json";
  gr_out_init_buf(&o, &b);
  gr_report_json(&o, r, &ro);
  gr_report_explain(&o, r, 0, 1, &ro);
  gr_out_finish_buf(&o);
  if( b.n==0 ) abort();
  sink += b.n;
  gr_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_hooks_limits lim;
  gr_hooks *h;
  gr_error err;
  gr_result *r;
  if( size > 64 * 1024 ) return 0;
  gr_hooks_limits_default(&lim);
  lim.memory = 8u << 20;
  lim.instructions = 2000000;
  lim.timeout = 2.0;
  h = gr_hooks_new(rs, &lim);
  gr_hooks_set_log(h, log_line, NULL);
  memset(&err, 0, sizeof err);
  if( gr_hooks_load_buffer(h, "fuzz.lua", (const char *)data, size, &err)!=0 ){
    if( err.msg[0]==0 ) abort();
    sink += strlen(err.msg);
    gr_hooks_free(h);
    return 0;
  }
  r = evaluate(h);
  if( r==NULL ) abort();
  if( r->fatal ){
    size_t i;
    int errors = 0;
    for(i = 0; i < r->diags.n; i++) errors += r->diags.v[i].sev==GR_SEV_ERROR && r->diags.v[i].msg && r->diags.v[i].msg[0];
    if( errors==0 ) abort();                 /* a failed evaluation says why */
  }else{
    plans(h, r);
    render(r);
  }
  gr_result_free(r);
  gr_hooks_free(h);
  return 0;
}
