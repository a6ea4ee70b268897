/*
** cmd_tile.c: `gerules tile GRAPH --chip SOC`: for every node (or one node,
** or one op type) builds the tiling plan of its class from the chip's
** hardware numbers, validates it, optionally executes it on the CPU
** (--execute), runs Lua tiling functions registered for custom op types
** (--hook, and the bundle's hooks) and validates their plans the same way,
** and says where each node's tiling runs (host, device or compile time) as
** the evaluator decided it with the user's options. Text or JSON report on
** stdout (or atomically to --output FILE); nothing on stdout on a usage or
** input error.
*/
#include "config.h"
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "model/qualname.h"
#include "report/ci_report.h"
#include "eval/eval.h"
#include "model/graph.h"
#include "hooks/hooks.h"
#include "options/optfile.h"
#include "report/out.h"
#include "report/progress.h"
#include "report/tile_report.h"
#include "tiling/tiler.h"
#include "api/gerules_internal.h"

static const char tile_usage[] =
  "usage: gerules tile GRAPH --chip SOC [options]\n"
  "Plans the tiling of every node of GRAPH whose op type has a tiling class in the\n"
  "rules (element-wise, last-axis reductions, matrix multiply, attention) or a Lua\n"
  "tiling function, from the chip's core counts and UB/L1/L0 sizes; validates each\n"
  "plan (memory fit, exact coverage, balance) and says where the tiling runs.\n"
  "\n"
  "  --chip SOC                 the SoC (or give the SOC_VERSION option)\n"
  "  --input_shape=SHAPES       the inputs' shapes as ATC takes them (also -o input_shape=...; with gear flags, gear 1 is planned)\n"
  "  --input-format FMT         auto (default: detected from the content), json, ge-text, ge-binary, om, onnx\n"
  "  --node NAME                only this node\n"
  "  --type TYPE                only nodes of this op type\n"
  "  --execute                  run every plan on the CPU through UB-sized staging\n"
  "                             buffers and compare with an untiled reference\n"
  "  --seed N                   seed of the random inputs of --execute (default 1)\n"
  "  --hook FILE                load a Lua site policy / tiling functions (repeatable);\n"
  "                             --hook-memory, --hook-instructions, --hook-timeout as for eval\n"
  "  -o KEY=VALUE, --options FILE, --run-mode MODE   options, as for eval\n"
  "                             (they decide where each node's tiling runs)\n"
  "  --format text|json|sarif   report format (default text; sarif: every finding as a SARIF 2.1.0 result)\n"
  "  --fail-on LEVEL            exit 1 on: error (default: an invalid plan or a mismatch), warning, never\n"
  "  -q, --quiet                text: only the nodes with findings, and the summary\n"
  "  --output FILE              write the report to FILE (atomically) instead of stdout\n"
  "\n"
  "exit status: 0 every plan valid (and every execution matched), 1 some plan\n"
  "invalid or some execution mismatched, 2 usage error or bad input\n";

typedef struct tile_args {
  const char *node, *type, *output;
  int json, execute;
  uint64_t seed;
  cli_gate gate;              /* --format sarif, --fail-on, -q (cli_gate.c) */
} tile_args;

/* Every finding of the run as one diagnostics list, for SARIF and
** --fail-on: the evaluation's, then each tiled node's own and shared
** findings located at the node (its graph-qualified name, its line). */
static void tile_findings(gr_diags *all, const gr_result *r, const gr_tnode *no, const char *graph_file){
  const gr_diags *lists[2];
  const gr_graph *g = r->g;
  const gr_node *n = &gr_graph_nodes(g)[no->node];
  size_t l, i;
  gr_buf qb;
  gr_buf_init(&qb);
  lists[0] = &no->notes;
  lists[1] = gr_tnode_shared_notes(no);
  for(l = 0; l < 2; l++){
    for(i = 0; lists[l] && i < lists[l]->n; i++){
      const gr_diag *d = &lists[l]->v[i];
      gr_diag *x = gr_diags_add(all, d->sev, d->file ? d->file : graph_file, d->file ? d->line : n->line, d->file ? d->col : n->col, "%s", d->msg);
      gr_diag_set(&x->code, d->code);
      gr_diag_set(&x->node, gr_node_qname(g, no->node, &qb));
    }
  }
  gr_buf_free(&qb);
}

/* ---- Lua tiling functions as the tiler's custom source ---- */

typedef struct hook_src { gr_hooks *hooks; gr_result *r; } hook_src;

static int hook_has(void *ctx, const char *op_type){
  return gr_hooks_has_tiling(((hook_src*)ctx)->hooks, op_type);
}
static int hook_run(void *ctx, uint32_t node, gr_custom_tiling *out, gr_error *err){
  hook_src *h = ctx;
  return gr_hooks_run_tiling(h->hooks, h->r, node, out, err);
}
static void hook_release(void *ctx, gr_custom_tiling *t){ (void)ctx; gr_custom_tiling_free(t); }

/* ---- the nodes to tile, looked up once the model is read ---- */

typedef struct tile_sel { const tile_args *a; uint32_t only, type_id; } tile_sel;

/* The graph hook of the evaluation (cli_input_evaluate): --node and --type
** are errors (exit 2) before the hooks load and the evaluator runs. */
static int tile_select(const cli_input *in, gr_graph *g, const gr_ruleset *rs){
  tile_sel *sel = in->graph_hook_data;
  (void)rs;
  if( sel->a->node && cli_find_node("tile", g, sel->a->node, in->graph, &sel->only)!=0 ) return -1;
  if( sel->a->type && !gr_graph_find_type(g, sel->a->type, &sel->type_id) ){
    fprintf(stderr, "gerules tile: error: no node of type '%s' in %s\n", sel->a->type, in->graph);
    return -1;
  }
  return 0;
}

/* ---- the command ---- */

int cmd_tile(cli_ctx *c, int argc, char **argv){
  tile_args a;
  gr_diags all;               /* every finding (SARIF, --fail-on) */
  cli_input in;
  gr_ruleset *rs;
  gerules_rules *rules = NULL;
  gerules_request *q;
  gerules_eval *ev = NULL;
  const gr_graph *g;
  const char *graph_file;
  gr_result *r;
  gr_hooks *hooks;
  tile_sel sel;
  gr_tiling_rules tr;
  gr_tiler *t = NULL;
  gr_tiler_opts to;
  gr_tcustom_source src;
  hook_src hs;
  gr_tile_report rep;
  const gr_tsummary *sum;
  gr_progress pg;
  gr_error err;
  gr_out o;
  const char *const *use;
  int i, rc = 0, k, opened = 0;
  uint32_t node, nn;

  memset(&a, 0, sizeof a);
  gr_diags_init(&all);
  a.seed = 1;
  cli_input_init(&in, "tile");
  memset(&err, 0, sizeof err);
  for(i = 0; i < argc; i++){
    const char *v = NULL;
    if( strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0 ){ fputs(tile_usage, stdout); goto out_free; }
    if( (k = cli_arg_value("tile", "--node", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.node = v; continue; }
    if( (k = cli_arg_value("tile", "--type", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.type = v; continue; }
    if( (k = cli_arg_value("tile", "--output", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.output = v; continue; }
    if( (k = cli_arg_value("tile", "--seed", &i, argc, argv, &v))!=0 ){
      char *end;
      if( k < 0 ) goto usage;
      errno = 0;
      a.seed = strtoull(v, &end, 10);
      if( *v==0 || *end || *v=='-' || *v=='+' || isspace((unsigned char)*v) || errno==ERANGE ){
        cli_usage_error("tile", "--seed expects an integer from 0 to 18446744073709551615, got '%s'", v);
        goto usage;
      }
      continue;
    }
    if( (k = cli_gate_arg("tile", 1u << CLI_FMT_TEXT | 1u << CLI_FMT_JSON | 1u << CLI_FMT_SARIF, &a.gate, &i, argc, argv))!=0 ){
      if( k < 0 ) goto usage;
      a.json = a.gate.format==CLI_FMT_JSON;
      continue;
    }
    if( strcmp(argv[i], "--execute")==0 ){ a.execute = 1; continue; }
    if( (k = cli_input_arg(&in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_atc_eval_flag_arg(c, &in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    cli_unknown_option("tile", tile_usage, argv[i]);
    goto usage;
  }
  if( in.graph==NULL ){ cli_usage_error("tile", "no graph file given"); goto usage; }
  if( a.node && a.type ){ cli_usage_error("tile", "--node and --type cannot be combined"); goto usage; }
  c->graph_hint = in.graph;     /* its CANN release may choose the installed bundle */
  if( (rs = cli_load_rules(c))==NULL ){ rc = EXIT_INPUT; goto out_free; }
  if( (rc = cli_input_atc_flags(c, &in))!=0 ) goto out_free;     /* --input_shape and the gears */
  if( gr_tiling_rules_init(&tr, rs, &err) ){
    fprintf(stderr, "gerules tile: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto out_free;
  }
  if( (rules = gr_api_rules_adopt(rs, cli_rule_paths(c, &use) ? use[0] : "", &c->diags))==NULL ){
    cli_print_diags(&c->diags);
    rc = EXIT_INPUT;
    goto out_free;
  }
  /* the model, --node and --type, the Lua hooks (the bundle's, then --hook
  ** files) and the evaluation, as for eval */
  sel.a = &a; sel.only = GR_NONE; sel.type_id = GR_NONE;
  in.graph_hook = tile_select;
  in.graph_hook_data = &sel;
  q = cli_request_new(&in);
  gerules_request_set_provenance(q, 0);
  ev = cli_input_evaluate(&in, rules, q);
  gerules_request_free(q);
  if( gerules_eval_status(ev)==2 ){ rc = EXIT_INPUT; goto out_free; }
  r = gr_api_eval_result(ev);
  g = gr_api_eval_graph(ev);
  hooks = gr_api_eval_hooks(ev);
  graph_file = cli_graph_name(&in);
  if( r->diags.count[GR_SEV_ERROR] ){
    /* the configuration is in error: placement may be meaningless, say so */
    cli_print_diags(&r->diags);
    fprintf(stderr, "gerules tile: warning: the options have errors (see 'gerules eval'); placements may not be what GE does\n");
  }
  memset(&to, 0, sizeof to);
  to.execute = a.execute;
  to.seed = a.seed;
  if( hooks ){
    hs.hooks = hooks; hs.r = r;
    src.has = hook_has; src.run = hook_run; src.release = hook_release; src.ctx = &hs;
    to.custom = &src;
  }
  if( (t = gr_tiler_new(&tr, r, &to, &err))==NULL ){
    fprintf(stderr, "gerules tile: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto out_free;
  }

  fflush(stdout);
  if( a.output ){
    if( gr_api_eval_open_output(ev, a.output, &o, &err)!=0 ){
      fprintf(stderr, "gerules tile: error: %s\n", err.msg);
      rc = EXIT_INPUT;
      goto out_free;
    }
  }else gr_out_init_fd(&o, 1);
  opened = 1;
  for(k = 0; k < (int)r->diags.n; k++){
    const gr_diag *d = &r->diags.v[k];
    gr_diag *x = gr_diags_add(&all, d->sev, d->file, d->line, d->col, "%s", d->msg);
    gr_diag_set(&x->code, d->code); gr_diag_set(&x->node, d->node); gr_diag_set(&x->option, d->option); gr_diag_set(&x->rule, d->rule);
  }
  if( a.gate.format!=CLI_FMT_SARIF ) gr_tile_report_begin(&rep, &o, a.json, a.execute, t, r, graph_file);
  nn = gr_graph_nnodes(g);
  /* "tile:  41% (410000 of 1000000 nodes, 3 s)" on a terminal only */
  gr_progress_init(&pg, 2, "tile", nn, "nodes");
  for(node = 0; node < nn; node++){
    const gr_node *n = &gr_graph_nodes(g)[node];
    gr_progress_update(&pg, node);
    if( sel.only != GR_NONE && node != sel.only ) continue;
    if( sel.type_id != GR_NONE && n->type != sel.type_id ) continue;
    {
      const gr_tnode *no = gr_tiler_node(t, node);
      size_t before = all.n;
      tile_findings(&all, r, no, graph_file);
      if( a.gate.format==CLI_FMT_SARIF ) continue;
      /* -q: a node with nothing to say is left out of the text report */
      if( a.gate.quiet && !a.json && all.n==before ) continue;
      gr_tile_report_node(&rep, no);
    }
  }
  gr_progress_done(&pg);
  if( a.gate.format==CLI_FMT_SARIF ) gr_report_sarif_diags(&o, rs, &all, r->soc_name, in.graph);
  else gr_tile_report_end(&rep);
  opened = 0;
  if( gr_out_close(&o, &err)!=0 ){
    fprintf(stderr, "gerules tile: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto out_free;
  }
  sum = gr_tiler_summary(t);
  rc = sum->invalid || sum->mismatched ? EXIT_CONFIG : 0;
  if( a.gate.fail_on==CLI_FAIL_NEVER ) rc = 0;
  else if( a.gate.fail_on==CLI_FAIL_WARNING && all.count[GR_SEV_WARNING] ) rc = EXIT_CONFIG;
  if( a.json && rc ) fprintf(stderr, "gerules tile: %zu invalid plan%s, %zu mismatched execution%s\n",
                             sum->invalid, sum->invalid==1 ? "" : "s", sum->mismatched, sum->mismatched==1 ? "" : "s");
out_free:
  gr_diags_free(&all);
  if( opened ) gr_out_abort(&o);
  gr_tiler_free(t);
  gerules_eval_free(ev);
  gerules_rules_free(rules);
  cli_input_free(&in);
  return rc;
usage:
  rc = EXIT_INPUT;
  goto out_free;
}
