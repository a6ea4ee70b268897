/*
** cmd_eval.c: `gerules eval GRAPH`: gathers the user's options (-o, --options
** files, --chip, --run-mode), loads the graph with the streaming loader,
** loads the Lua site policies (the bundle's `hook` files, then every --hook
** in command-line order, under the --hook-* limits), evaluates, and writes
** the text or JSON report (or one node's decision chain) to stdout or,
** atomically, to --output FILE, after the per-code gates and the baseline
** (cli_gate.c) have judged the diagnostics. When the evaluation fails (exit
** 2), the CI formats (json, sarif, github, junit) still write their failure
** document, so that a CI step finds a file saying why; the other formats
** write nothing to stdout. Hook `print` output goes to stderr.
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
#include "report/progress.h"
#include "api/gerules.h"
#include "api/gerules_internal.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

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
  "  --input_shape=SHAPES       the inputs' shapes as ATC takes them; also --dynamic_batch_size,\n"
  "                             --dynamic_image_size, --dynamic_dims (every gear evaluated), --input_format,\n"
  "                             --input_shape_range, --out_nodes (or -o input_shape=..., -o ge.inputShape=...)\n"
  "  --options FILE             options from a JSON object or KEY=VALUE lines (repeatable)\n"
  "  --run-mode MODE            inference (default, as ATC) or training\n"
  "  --entry atc|ir-build|session  the GE entry point whose checks apply (default atc)\n"
  "  --format FMT               text (default), json, sarif (SARIF 2.1.0), github (workflow annotations),\n"
  "                             junit (JUnit XML), html (one self-contained page with the graph) or dot (Graphviz)\n"
  "  --fail-on LEVEL            exit 1 on: error (default), warning (errors or warnings), never,\n"
  "                             or CODE[,CODE]: also on any finding with one of these codes\n"
  "  -Werror=CODE[,CODE]        report the warnings with these codes as errors\n"
  "  -Wno-CODE[,CODE]           leave out the warnings and notes with these codes\n"
  "  --baseline FILE            accept the findings of a previous JSON report or a suppression file\n"
  "  -q, --quiet                text: the diagnostics and the summary only\n"
  "  --all-nodes                text: list every node, not only those that differ from the defaults\n"
  "  --wide                     text: never cut node names (default: cut in the middle to fit the terminal)\n"
  "  --colour-by SLOT           html, dot: fill the boxes by this slot (e.g. dtype, engine; default: the first)\n"
  "  --explain NODE             print the full decision chain of one node\n"
  "  --no-provenance            json: leave out the per-node provenance arrays\n"
  "  --provenance-table         json: each distinct provenance entry once, in provenance_entries,\n"
  "                             the nodes listing indices (a third of the size on a big graph)\n"
  "  --output FILE              write the report to FILE (atomically) instead of stdout\n"
  "  --hook FILE.lua            run a Lua site policy (repeatable, in order; see doc/lua-api.md)\n"
  "  --hook-memory MIB          memory cap of each hook script (default 64)\n"
  "  --hook-instructions N      Lua instructions per evaluation, all hooks together (default 100000000)\n"
  "  --hook-timeout SECONDS     run time per evaluation, all hooks together (default 10)\n"
  "  --config FILE              the project config (default: .gerules.conf in the working directory or above)\n"
  "  --no-config                read no project config\n"
  "  --print-config             print the settings in use and where each came from, then stop\n"
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
  if( (k = cli_arg_value(cmd, "--colour-by", i, argc, argv, &v))!=0 ){ if( k > 0 ) a->colour_by = v; return k; }
  if( (k = cli_arg_value(cmd, "--color-by", i, argc, argv, &v))!=0 ){ if( k > 0 ) a->colour_by = v; return k; }
  if( (k = cli_arg_value(cmd, "--format", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( strcmp(v, "text")==0 ) a->format = CLI_FMT_TEXT;
    else if( strcmp(v, "json")==0 ) a->format = CLI_FMT_JSON;
    else if( strcmp(v, "sarif")==0 ) a->format = CLI_FMT_SARIF;
    else if( strcmp(v, "github")==0 ) a->format = CLI_FMT_GITHUB;
    else if( strcmp(v, "html")==0 ) a->format = CLI_FMT_HTML;
    else if( strcmp(v, "dot")==0 ) a->format = CLI_FMT_DOT;
    else if( strcmp(v, "junit")==0 ) a->format = CLI_FMT_JUNIT;
    else{ cli_usage_error(cmd, "unknown format '%s' (text, json, sarif, github, junit, html or dot)", v); return -1; }
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--fail-on", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    return cli_fail_on_value(cmd, v, &a->fail_on, &a->cg);
  }
  if( (k = cli_codegate_arg(cmd, &a->cg, i, argc, argv))!=0 ) return k;
  if( strcmp(argv[*i], "-q")==0 || strcmp(argv[*i], "--quiet")==0 ){ a->quiet = 1; return 1; }
  if( strcmp(argv[*i], "--all-nodes")==0 ){ a->all_nodes = 1; return 1; }
  if( strcmp(argv[*i], "--wide")==0 ){ a->wide = 1; return 1; }
  if( strcmp(argv[*i], "--no-provenance")==0 ){ a->provenance = 0; return 1; }
  if( strcmp(argv[*i], "--provenance-table")==0 ){ a->provenance_table = 1; return 1; }
  return 0;
}

static int eval_args(cli_ctx *c, int argc, char **argv, const cli_config *cf){
  cli_eval_args a;
  cli_input in;
  int i, k, rc, print_config = 0;
  cli_eval_args_init(&a);
  cli_input_init(&in, "eval");
  for(i = 0; i < argc; i++){
    if( strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0 ){ fputs(eval_usage, stdout); cli_input_free(&in); cli_codegates_free(&a.cg); return 0; }
    if( strcmp(argv[i], "--print-config")==0 ){ print_config = 1; continue; }
    if( (k = cli_eval_arg("eval", &a, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_input_arg(&in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_atc_eval_flag_arg(c, &in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    if( (k = cli_alias_arg(c, &in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    cli_unknown_option("eval", eval_usage, argv[i]);
    goto usage;
  }
  if( print_config ){
    cli_config_print(cf, c, stdout);
    cli_input_free(&in);
    cli_codegates_free(&a.cg);
    return 0;
  }
  if( in.graph==NULL ){ cli_usage_error("eval", "no graph file given"); goto usage; }
  c->graph_hint = in.graph;     /* its CANN release may choose the installed bundle */
  rc = cli_eval_run(c, &in, &a);
  cli_input_free(&in);
  cli_codegates_free(&a.cg);
  return rc;
usage:
  cli_input_free(&in);
  cli_codegates_free(&a.cg);
  return EXIT_INPUT;
}

/* The project config's settings first (cli_config.c), then the command's. */
int cmd_eval(cli_ctx *c, int argc, char **argv){
  cli_config cf;
  int rc = EXIT_INPUT;
  if( cli_config_load(c, "eval", argc, argv, &cf)==0 ) rc = eval_args(c, cf.argc, cf.argv, &cf);
  if( c->rules_from_config ){ c->rules_paths = NULL; c->nrules_paths = 0; c->rules_path = NULL; c->rules_from_config = 0; }
  cli_config_free(&cf);
  return rc;
}

/* The text report's width: -1 for --wide; COLUMNS when set (as ls and
** POSIX's sh do), else the terminal's when stdout is one; 0 (none known) for
** a file or a pipe. */
static int text_width(const cli_eval_args *a){
  const char *c = getenv("COLUMNS");
  struct winsize ws;
  if( a->wide ) return -1;
  if( a->output ) return 0;
  if( c && *c ){
    char *end;
    long v = strtol(c, &end, 10);
    if( *end==0 && v > 0 && v < 100000 ) return (int)v;
  }
  if( isatty(1) && ioctl(1, TIOCGWINSZ, &ws)==0 && ws.ws_col > 0 ) return ws.ws_col;
  return 0;
}

/* The CI formats' failure document when the rule set did not load (no
** evaluation exists to write it): to --output atomically, else stdout. */
static void rules_failure(cli_ctx *c, const cli_input *in, const cli_eval_args *a, const char *format){
  gr_out o;
  gr_error err;
  const char *inputs[1];
  if( a->format!=CLI_FMT_JSON && a->format!=CLI_FMT_SARIF && a->format!=CLI_FMT_GITHUB && a->format!=CLI_FMT_JUNIT ) return;
  memset(&err, 0, sizeof err);
  inputs[0] = in->graph;
  if( a->output ){
    if( gr_out_check_inputs(a->output, inputs, 1, &err)!=0 || gr_out_open_file(&o, a->output, &err)!=0 ){
      fprintf(stderr, "gerules %s: error: %s\n", in->cmd, err.msg);
      return;
    }
  }else{
    fflush(stdout);
    gr_out_init_fd(&o, 1);
  }
  gr_report_failure(&o, format, NULL, &c->diags, in->chip, in->graph);
  if( gr_out_close(&o, &err)!=0 ) fprintf(stderr, "gerules %s: error: %s\n", in->cmd, err.msg);
}

int cli_eval_run(cli_ctx *c, cli_input *in, const cli_eval_args *ap){
  static const char *const formats[] = { "text", "json", "sarif", "github", "html", "dot", "junit" };
  const cli_eval_args a = *ap;
  const char *const *use;
  gr_ruleset *rs;
  gerules_rules *rules;
  gerules_request *q;
  gerules_eval *ev = NULL;
  gerules_diags *wd = NULL;
  uint32_t explain_node = 0;
  unsigned flags = 0;
  int rc;
  if( (a.format==CLI_FMT_HTML || a.format==CLI_FMT_DOT) && a.explain ){
    cli_usage_error(in->cmd, "--explain prints text or json, not %s", formats[a.format]);
    return EXIT_INPUT;
  }
  if( (rs = cli_load_rules(c))==NULL ){ rules_failure(c, in, &a, formats[a.format]); return EXIT_INPUT; }
  if( in->atc==NULL && (rc = cli_input_atc_flags(c, in))!=0 ) return rc;     /* --input_shape and the gears */
  cli_rule_paths(c, &use);
  if( (rules = gr_api_rules_adopt(rs, use[0], &c->diags))==NULL ){
    cli_print_diags(&c->diags);
    rules_failure(c, in, &a, formats[a.format]);
    return EXIT_INPUT;
  }

  if( a.colour_by && gerules_rules_find_slot(rules, a.colour_by) < 0 ){
    gr_buf sl;
    size_t s;
    gr_buf_init(&sl);
    for(s = 0; s < gerules_rules_slot_count(rules); s++) gr_buf_printf(&sl, "%s%s", s ? ", " : "", gerules_rules_slot_name(rules, s));
    cli_usage_error(in->cmd, "--colour-by: the rule set has no slot '%s' (its slots: %s)", a.colour_by, gr_buf_cstr(&sl));
    gr_buf_free(&sl);
    gerules_rules_free(rules);
    return EXIT_INPUT;
  }
  q = cli_request_new(in);
  /* provenance costs memory per node: keep it only where it is shown */
  gerules_request_set_provenance(q, (a.format==CLI_FMT_JSON && a.provenance) || a.explain);
  gerules_request_set_text_width(q, text_width(&a));
  gerules_request_set_colour_by(q, a.colour_by);
  ev = cli_input_evaluate(in, rules, q);        /* prints why, for status 2 */
  gerules_request_free(q);
  if( gerules_eval_status(ev)==2 ){
    rc = EXIT_INPUT;
    /* the CI formats' failure document (the library refuses the others) */
    if( !a.explain && (a.format==CLI_FMT_JSON || a.format==CLI_FMT_SARIF || a.format==CLI_FMT_GITHUB || a.format==CLI_FMT_JUNIT) ){
      fflush(stdout);
      if( (a.output ? gerules_eval_write_file(ev, formats[a.format], 0, -1, a.output, &wd)
                    : gerules_eval_write(ev, formats[a.format], 0, -1, 1, &wd))!=0 ){
        gerules_diag x;
        gerules_diags_get(wd, 0, &x);
        fprintf(stderr, "gerules %s: error: %s\n", in->cmd, x.message);
      }
    }
    goto done;
  }
  if( cli_codegates_apply(in->cmd, &a.cg, gr_api_eval_diags_mut(ev))!=0 ){ rc = EXIT_INPUT; goto done; }
  /* by plain or graph-qualified name; an ambiguous or unknown name is an error with suggestions */
  if( a.explain && cli_find_node(in->cmd, gr_api_eval_graph(ev), a.explain, in->graph, &explain_node)!=0 ){
    rc = EXIT_INPUT;
    goto done;
  }

  if( a.all_nodes ) flags |= GERULES_REPORT_ALL_NODES;
  if( a.quiet ) flags |= GERULES_REPORT_QUIET;
  if( a.provenance_table ) flags |= GERULES_REPORT_PROVENANCE_TABLE;
  if( a.fail_on==CLI_FAIL_WARNING ) flags |= GERULES_REPORT_WARNINGS_FAIL;
  if( a.output==NULL && a.format==CLI_FMT_TEXT && cli_color(1) ) flags |= GERULES_REPORT_COLOR;
  fflush(stdout);
  if( (a.output ? gerules_eval_write_file(ev, formats[a.format], flags, a.explain ? (long)explain_node : -1, a.output, &wd)
                : gerules_eval_write(ev, formats[a.format], flags, a.explain ? (long)explain_node : -1, 1, &wd))!=0 ){
    gerules_diag x;
    gerules_diags_get(wd, 0, &x);
    fprintf(stderr, "gerules %s: error: %s\n", in->cmd, x.message);
    rc = EXIT_INPUT;
    goto done;
  }
  {
    const gerules_diags *d = gerules_eval_diags(ev);
    size_t errors = gerules_diags_count_severity(d, GERULES_ERROR);
    size_t warnings = gerules_diags_count_severity(d, GERULES_WARNING);
    if( a.format!=CLI_FMT_TEXT || a.explain ){
      /* the diagnostics are in the report; say the outcome on stderr too */
      if( errors ) fprintf(stderr, "gerules %s: %zu error%s in the configuration\n", in->cmd, errors, errors==1 ? "" : "s");
    }
    if( a.fail_on==CLI_FAIL_NEVER ) rc = 0;
    else if( a.fail_on==CLI_FAIL_WARNING ) rc = errors + warnings ? EXIT_CONFIG : 0;
    else rc = errors ? EXIT_CONFIG : 0;
  }
done:
  gerules_diags_free(wd);
  gerules_eval_free(ev);
  gerules_rules_free(rules);
  return rc;
}
