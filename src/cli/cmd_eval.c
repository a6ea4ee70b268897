/*
** cmd_eval.c: `gerules eval GRAPH`: gathers the user's options (-o, --options
** files, --chip, --run-mode), loads the graph with the streaming loader,
** loads the Lua site policies (the bundle's `hook` files, then every --hook
** in command-line order, under the --hook-* limits), evaluates, and writes
** the text or JSON report (or one node's decision chain) to stdout or,
** atomically, to --output FILE. Nothing is written to stdout unless the
** whole evaluation succeeded; hook `print` output goes to stderr.
*/
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "eval/eval.h"
#include "model/graph.h"
#include "hooks/hooks.h"
#include "options/optfile.h"
#include "report/out.h"
#include "report/report.h"
#include "report/ci_report.h"
#include "report/srclines.h"
#include "report/html.h"
#include "report/dot.h"

static const char eval_usage[] =
  "usage: gerules eval GRAPH [options]\n"
  "Resolves every node of GRAPH (ATC JSON, a ge_proto text dump, a binary ModelDef, an .om\n"
  "or an ONNX model, told apart by content; - reads stdin):\n"
  "its precision mode and tiling placement with the rule and input line that decided\n"
  "them, and every invalid, ignored or unsupported option.\n"
  "\n"
  "  --chip SOC                 the SoC (or give the SOC_VERSION option)\n"
  "  --input-format FMT         auto (default: detected from the content), json, ge-text, ge-binary, om, onnx\n"
  "  -o KEY=VALUE               an option by ir_option name, GE key or ATC flag (repeatable)\n"
  "  --FLAG=VALUE               an option by its ATC flag, as ATC takes it (--precision_mode=force_fp32)\n"
  "  --options FILE             options from a JSON object or KEY=VALUE lines (repeatable)\n"
  "  --run-mode MODE            inference (default, as ATC) or training\n"
  "  --entry atc|ir-build|session  the GE entry point whose checks apply (default atc)\n"
  "  --format FMT               text (default), json, sarif (SARIF 2.1.0), github (workflow annotations),\n"
  "                             html (one self-contained page with the graph) or dot (Graphviz)\n"
  "  --fail-on LEVEL            exit 1 on: error (default), warning (errors or warnings) or never\n"
  "  -q, --quiet                text: the diagnostics and the summary only\n"
  "  --all-nodes                text: list every node, not only those that differ from the defaults\n"
  "  --explain NODE             print the full decision chain of one node\n"
  "  --no-provenance            json: leave out the per-node provenance arrays\n"
  "  --output FILE              write the report to FILE (atomically) instead of stdout\n"
  "  --hook FILE.lua            run a Lua site policy (repeatable, in order; see doc/lua-api.md)\n"
  "  --hook-memory MIB          memory cap of each hook script (default 64)\n"
  "  --hook-instructions N      Lua instructions per evaluation, all hooks together (default 100000000)\n"
  "  --hook-timeout SECONDS     run time per evaluation, all hooks together (default 10)\n"
  "\n"
  "exit status: 0 no error, 1 the configuration has errors, 2 usage error or bad input\n";

void cli_eval_args_init(cli_eval_args *a){
  memset(a, 0, sizeof *a);
  a->provenance = 1;
  a->fail_on = CLI_FAIL_ERROR;
}

int cli_eval_arg(const char *cmd, cli_eval_args *a, int *i, int argc, char **argv){
  const char *v = NULL;
  int k;
  if( (k = cli_arg_value(cmd, "--explain", i, argc, argv, &v))!=0 ){ if( k > 0 ) a->explain = v; return k; }
  if( (k = cli_arg_value(cmd, "--output", i, argc, argv, &v))!=0 ){ if( k > 0 ) a->output = v; return k; }
  if( (k = cli_arg_value(cmd, "--format", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( strcmp(v, "text")==0 ) a->format = CLI_FMT_TEXT;
    else if( strcmp(v, "json")==0 ) a->format = CLI_FMT_JSON;
    else if( strcmp(v, "sarif")==0 ) a->format = CLI_FMT_SARIF;
    else if( strcmp(v, "github")==0 ) a->format = CLI_FMT_GITHUB;
    else if( strcmp(v, "html")==0 ) a->format = CLI_FMT_HTML;
    else if( strcmp(v, "dot")==0 ) a->format = CLI_FMT_DOT;
    else{ cli_usage_error(cmd, "unknown format '%s' (text, json, sarif, github, html or dot)", v); return -1; }
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--fail-on", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( strcmp(v, "error")==0 ) a->fail_on = CLI_FAIL_ERROR;
    else if( strcmp(v, "warning")==0 ) a->fail_on = CLI_FAIL_WARNING;
    else if( strcmp(v, "never")==0 ) a->fail_on = CLI_FAIL_NEVER;
    else{ cli_usage_error(cmd, "--fail-on is error, warning or never, not '%s'", v); return -1; }
    return 1;
  }
  if( strcmp(argv[*i], "-q")==0 || strcmp(argv[*i], "--quiet")==0 ){ a->quiet = 1; return 1; }
  if( strcmp(argv[*i], "--all-nodes")==0 ){ a->all_nodes = 1; return 1; }
  if( strcmp(argv[*i], "--no-provenance")==0 ){ a->provenance = 0; return 1; }
  return 0;
}

int cmd_eval(cli_ctx *c, int argc, char **argv){
  cli_eval_args a;
  cli_input in;
  int i, k, rc;
  cli_eval_args_init(&a);
  cli_input_init(&in, "eval");
  for(i = 0; i < argc; i++){
    if( strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0 ){ fputs(eval_usage, stdout); cli_input_free(&in); return 0; }
    if( (k = cli_eval_arg("eval", &a, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_input_arg(&in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_alias_arg(c, &in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    cli_usage_error("eval", "unknown option '%s'", argv[i]);
    goto usage;
  }
  if( in.graph==NULL ){ cli_usage_error("eval", "no graph file given"); goto usage; }
  c->graph_hint = in.graph;     /* its CANN release may choose the installed bundle */
  rc = cli_eval_run(c, &in, &a);
  cli_input_free(&in);
  return rc;
usage:
  cli_input_free(&in);
  return EXIT_INPUT;
}

int cli_eval_run(cli_ctx *c, cli_input *in, const cli_eval_args *ap){
  const cli_eval_args a = *ap;
  gr_ruleset *rs;
  gr_graph *g = NULL;
  gr_result *r = NULL, *base = NULL;
  gr_eval_config cfg;
  gr_report_opts ro;
  gr_error err;
  gr_out o;
  gr_hooks *hooks = NULL;
  int rc = 0, json = a.format==CLI_FMT_JSON;
  uint32_t explain_node = GR_NONE;
  memset(&err, 0, sizeof err);
  memset(&ro, 0, sizeof ro);
  if( (rs = cli_load_rules(c))==NULL || cli_load_hooks(in, rs, &hooks)!=0 ) return EXIT_INPUT;
  if( (g = cli_load_graph(in, rs))==NULL ){
    gr_hooks_free(hooks);
    return EXIT_INPUT;
  }
  if( in->graph_hook && in->graph_hook(in, g, rs)!=0 ){ rc = EXIT_INPUT; goto done; }
  if( a.explain && !gr_graph_find_node(g, a.explain, &explain_node) ){
    fprintf(stderr, "gerules eval: error: no node named '%s' in %s\n", a.explain, in->graph);
    rc = EXIT_INPUT;
    goto done;
  }

  cli_eval_config(in, g, hooks, &cfg);
  cfg.keep_candidates = (json && a.provenance) || a.explain;
  if( (a.format==CLI_FMT_HTML || a.format==CLI_FMT_DOT) && a.explain ){
    cli_usage_error(in->cmd, "--explain prints text or json, not %s", a.format==CLI_FMT_HTML ? "html" : "dot");
    rc = EXIT_INPUT;
    goto done;
  }
  if( (r = cli_evaluate(in, rs, &cfg))==NULL ){ rc = EXIT_INPUT; goto done; }
  if( a.format==CLI_FMT_TEXT && !a.explain && !a.all_nodes && !a.quiet ){
    /* the same chip and run mode without any option: what "default" means */
    gr_eval_config bc = cfg;
    bc.inputs = NULL; bc.ninputs = 0; bc.keep_candidates = 0;
    bc.hooks = NULL;              /* "default" means without site policies too */
    if( in->chip==NULL ) bc.chip = r->soc_name;
    base = gr_eval(rs, &bc);
    if( base->fatal ){ gr_result_free(base); base = NULL; }
  }

  memset(&ro, 0, sizeof ro);
  ro.all_nodes = a.all_nodes;
  ro.provenance = a.provenance;
  {
    const char *const *use;
    cli_rule_paths(c, &use);
    ro.rules_path = use[0];
  }
  ro.graph_path = cfg.graph_file;
  ro.quiet = a.quiet;
  ro.color = a.output==NULL && a.format==CLI_FMT_TEXT && cli_color(1);
  if( a.format==CLI_FMT_TEXT ) ro.src = gr_srclines_new();
  fflush(stdout);
  if( a.output ){
    if( cli_open_output(in, r, a.output, &o)!=0 ){
      rc = EXIT_INPUT;
      goto done;
    }
  }else{
    gr_out_init_fd(&o, 1);
  }
  if( a.format==CLI_FMT_HTML ) gr_report_html(&o, r, &ro);
  else if( a.format==CLI_FMT_DOT ) gr_report_dot(&o, r, &ro);
  else if( a.explain ) gr_report_explain(&o, r, explain_node, json, &ro);
  else if( json ) gr_report_json(&o, r, &ro);
  else if( a.format==CLI_FMT_SARIF ) gr_report_sarif(&o, r, &ro);
  else if( a.format==CLI_FMT_GITHUB ) gr_report_github(&o, r, &ro);
  else gr_report_text(&o, r, base, &ro);
  if( gr_out_close(&o, &err)!=0 ){
    fprintf(stderr, "gerules eval: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto done;
  }
  if( a.format!=CLI_FMT_TEXT || a.explain ){
    /* the diagnostics are in the report; say the outcome on stderr too */
    if( r->diags.count[GR_SEV_ERROR] ) fprintf(stderr, "gerules %s: %zu error%s in the configuration\n", in->cmd,
                                               r->diags.count[GR_SEV_ERROR], r->diags.count[GR_SEV_ERROR]==1 ? "" : "s");
  }
  if( a.fail_on==CLI_FAIL_NEVER ) rc = 0;
  else if( a.fail_on==CLI_FAIL_WARNING ) rc = r->diags.count[GR_SEV_ERROR] + r->diags.count[GR_SEV_WARNING] ? EXIT_CONFIG : 0;
  else rc = r->diags.count[GR_SEV_ERROR] ? EXIT_CONFIG : 0;
done:
  gr_srclines_free(ro.src);
  gr_result_free(base);
  gr_result_free(r);
  gr_graph_free(g);
  gr_hooks_free(hooks);
  return rc;
}
