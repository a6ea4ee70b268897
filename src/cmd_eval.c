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
#include "cli.h"
#include "eval.h"
#include "graph.h"
#include "hooks.h"
#include "optfile.h"
#include "out.h"
#include "report.h"

static const char eval_usage[] =
  "usage: gerules eval GRAPH [options]\n"
  "Resolves every node of GRAPH (the JSON written by `atc --mode=1`; - reads stdin):\n"
  "its precision mode and tiling placement with the rule and input line that decided\n"
  "them, and every invalid, ignored or unsupported option.\n"
  "\n"
  "  --chip SOC                 the SoC (or give the SOC_VERSION option)\n"
  "  -o KEY=VALUE               an option by ir_option name, GE key or ATC flag (repeatable)\n"
  "  --options FILE             options from a JSON object or KEY=VALUE lines (repeatable)\n"
  "  --run-mode MODE            inference (default, as ATC) or training\n"
  "  --format text|json         report format (default text)\n"
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

typedef struct eval_args {
  const char *graph, *chip, *run_mode, *explain, *output;
  int json, all_nodes, provenance;
  const char **hooks; size_t nhooks;
  gr_hooks_limits lim;
} eval_args;

static void hook_log(void *ud, const char *line){
  (void)ud;
  fprintf(stderr, "%s\n", line);
}

/* A positive number for a --hook-* limit: integer (or, when real, a decimal). */
static int limit_arg(const char *opt, const char *v, int real, double max, double *out){
  char *end;
  double x;
  errno = 0;
  x = real ? strtod(v, &end) : (double)strtoull(v, &end, 10);
  if( errno || end==v || *end || !(x > 0) || x > max || (!real && strchr(v, '-')) ){
    cli_usage_error("eval", "%s expects a positive %s up to %g, got '%s'", opt, real ? "number" : "integer", max, v);
    return -1;
  }
  *out = x;
  return 0;
}

/* Loads the bundle's hooks, then the command line's. Prints the error. */
static gr_hooks *load_hooks(const gr_ruleset *rs, const eval_args *a){
  gr_hooks *h;
  gr_error err;
  size_t i;
  if( rs->nhook_files==0 && a->nhooks==0 ) return NULL;
  h = gr_hooks_new(rs, &a->lim);
  gr_hooks_set_log(h, hook_log, NULL);
  for(i = 0; i < rs->nhook_files + a->nhooks; i++){
    const char *path = i < rs->nhook_files ? rs->hook_files[i] : a->hooks[i - rs->nhook_files];
    if( gr_hooks_load_file(h, path, &err)!=0 ){
      if( err.line ) fprintf(stderr, "%s:%u: error: %s\n", path, err.line, err.msg);
      else fprintf(stderr, "%s: error: %s\n", path, err.msg);
      gr_hooks_free(h);
      return NULL;
    }
  }
  return h;
}

static int arg_value(const char *opt, int *i, int argc, char **argv, const char **out){
  size_t l = strlen(opt);
  if( strcmp(argv[*i], opt)==0 ){
    if( *i + 1 >= argc ){ cli_usage_error("eval", "%s needs a value", opt); return -1; }
    *out = argv[++*i];
    return 1;
  }
  if( strncmp(argv[*i], opt, l)==0 && argv[*i][l]=='=' ){ *out = argv[*i] + l + 1; return 1; }
  return 0;
}

static int add_cmdline_option(gr_optinputs *in, const char *kv){
  const char *eq = strchr(kv, '=');
  if( eq==NULL || eq==kv ) return cli_usage_error("eval", "-o expects KEY=VALUE, got '%s'", kv);
  gr_optinputs_add(in, kv, (size_t)(eq - kv), eq + 1, strlen(eq + 1), "<command line>", 0, 0);
  return 0;
}

int cmd_eval(cli_ctx *c, int argc, char **argv){
  eval_args a;
  gr_optinputs inputs;
  gr_ruleset *rs;
  gr_graph *g = NULL;
  gr_result *r = NULL, *base = NULL;
  gr_eval_config cfg;
  gr_report_opts ro;
  gr_error err;
  gr_out o;
  gr_hooks *hooks = NULL;
  int i, rc = 0, k;
  uint32_t explain_node = GR_NONE;

  memset(&a, 0, sizeof a);
  a.run_mode = "inference";
  a.provenance = 1;
  gr_hooks_limits_default(&a.lim);
  gr_optinputs_init(&inputs);
  memset(&err, 0, sizeof err);
  for(i = 0; i < argc; i++){
    const char *v = NULL;
    if( strcmp(argv[i], "--help")==0 ){ fputs(eval_usage, stdout); gr_optinputs_free(&inputs); free(a.hooks); return 0; }
    if( (k = arg_value("--chip", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.chip = v; continue; }
    if( (k = arg_value("--run-mode", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.run_mode = v; continue; }
    if( (k = arg_value("--explain", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.explain = v; continue; }
    if( (k = arg_value("--output", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.output = v; continue; }
    if( (k = arg_value("--hook", &i, argc, argv, &v))!=0 ){
      if( k < 0 ) goto usage;
      a.hooks = gr_xrealloc(a.hooks, (a.nhooks + 1) * sizeof *a.hooks);
      a.hooks[a.nhooks++] = v;
      continue;
    }
    if( (k = arg_value("--hook-memory", &i, argc, argv, &v))!=0 ){
      double x;
      if( k < 0 || limit_arg("--hook-memory", v, 0, 1048576, &x) ) goto usage;
      a.lim.memory = (size_t)x << 20;
      continue;
    }
    if( (k = arg_value("--hook-instructions", &i, argc, argv, &v))!=0 ){
      double x;
      if( k < 0 || limit_arg("--hook-instructions", v, 0, 1e18, &x) ) goto usage;
      a.lim.instructions = (uint64_t)x;
      continue;
    }
    if( (k = arg_value("--hook-timeout", &i, argc, argv, &v))!=0 ){
      double x;
      if( k < 0 || limit_arg("--hook-timeout", v, 1, 86400, &x) ) goto usage;
      a.lim.timeout = x;
      continue;
    }
    if( (k = arg_value("--format", &i, argc, argv, &v))!=0 ){
      if( k < 0 || cli_format_arg("eval", v, &a.json) ) goto usage;
      continue;
    }
    if( (k = arg_value("--options", &i, argc, argv, &v))!=0 ){
      if( k < 0 ) goto usage;
      if( gr_optfile_read(&inputs, v, &err)!=0 ){
        if( err.line ) fprintf(stderr, "%s:%u:%u: error: %s\n", v, err.line, err.col, err.msg);
        else fprintf(stderr, "%s: error: %s\n", v, err.msg);
        gr_optinputs_free(&inputs);
        free(a.hooks);
        return EXIT_INPUT;
      }
      continue;
    }
    if( strcmp(argv[i], "-o")==0 ){
      if( i + 1 >= argc ){ cli_usage_error("eval", "-o needs KEY=VALUE"); goto usage; }
      if( add_cmdline_option(&inputs, argv[++i]) ) goto usage;
      continue;
    }
    if( strncmp(argv[i], "-o", 2)==0 && argv[i][2] ){
      if( add_cmdline_option(&inputs, argv[i] + 2) ) goto usage;
      continue;
    }
    if( strcmp(argv[i], "--all-nodes")==0 ){ a.all_nodes = 1; continue; }
    if( strcmp(argv[i], "--no-provenance")==0 ){ a.provenance = 0; continue; }
    if( argv[i][0]=='-' && argv[i][1] ){ cli_usage_error("eval", "unknown option '%s'", argv[i]); goto usage; }
    if( a.graph ){ cli_usage_error("eval", "only one graph per run ('%s' and '%s')", a.graph, argv[i]); goto usage; }
    a.graph = argv[i];
  }
  if( a.graph==NULL ){ cli_usage_error("eval", "no graph file given"); goto usage; }
  if( strcmp(a.run_mode, "inference") && strcmp(a.run_mode, "training") ){
    cli_usage_error("eval", "--run-mode is inference or training, not '%s'", a.run_mode);
    goto usage;
  }
  if( (rs = cli_load_rules(c))==NULL ){ gr_optinputs_free(&inputs); free(a.hooks); return EXIT_INPUT; }
  if( (rs->nhook_files || a.nhooks) && (hooks = load_hooks(rs, &a))==NULL ){
    gr_optinputs_free(&inputs);
    free(a.hooks);
    return EXIT_INPUT;
  }

  g = gr_graph_load_file(a.graph, &err);
  if( g==NULL ){
    const char *name = strcmp(a.graph, "-")==0 ? "<stdin>" : a.graph;
    if( err.line ) fprintf(stderr, "%s:%u:%u: error: %s\n", name, err.line, err.col, err.msg);
    else fprintf(stderr, "%s: error: %s\n", name, err.msg);
    gr_optinputs_free(&inputs);
    gr_hooks_free(hooks);
    free(a.hooks);
    return EXIT_INPUT;
  }
  if( a.explain && !gr_graph_find_node(g, a.explain, &explain_node) ){
    fprintf(stderr, "gerules eval: error: no node named '%s' in %s\n", a.explain, a.graph);
    rc = EXIT_INPUT;
    goto done;
  }

  memset(&cfg, 0, sizeof cfg);
  cfg.chip = a.chip;
  cfg.run_mode = a.run_mode;
  cfg.inputs = inputs.v;
  cfg.ninputs = inputs.n;
  cfg.graph = g;
  cfg.graph_file = strcmp(a.graph, "-")==0 ? "<stdin>" : a.graph;
  cfg.keep_candidates = (a.json && a.provenance) || a.explain;
  cfg.hooks = hooks ? gr_hooks_vtable(hooks) : NULL;
  r = gr_eval(rs, &cfg, &err);
  if( r==NULL ){
    fprintf(stderr, "gerules eval: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto done;
  }
  if( r->fatal ){
    cli_print_diags(&r->diags);
    rc = EXIT_INPUT;
    goto done;
  }
  if( !a.json && !a.explain && !a.all_nodes ){
    /* the same chip and run mode without any option: what "default" means */
    gr_eval_config bc = cfg;
    bc.inputs = NULL; bc.ninputs = 0; bc.keep_candidates = 0;
    bc.hooks = NULL;              /* "default" means without site policies too */
    if( a.chip==NULL ) bc.chip = r->soc_name;
    base = gr_eval(rs, &bc, &err);
  }

  memset(&ro, 0, sizeof ro);
  ro.all_nodes = a.all_nodes;
  ro.provenance = a.provenance;
  ro.rules_path = c->rules_path ? c->rules_path : cli_default_rules();
  ro.graph_path = cfg.graph_file;
  fflush(stdout);
  if( a.output ){
    if( gr_out_open_file(&o, a.output, &err)!=0 ){
      fprintf(stderr, "gerules eval: error: %s\n", err.msg);
      rc = EXIT_INPUT;
      goto done;
    }
  }else{
    gr_out_init_fd(&o, 1);
  }
  if( a.explain ) gr_report_explain(&o, r, explain_node, a.json, &ro);
  else if( a.json ) gr_report_json(&o, r, &ro);
  else gr_report_text(&o, r, base, &ro);
  if( gr_out_close(&o, &err)!=0 ){
    fprintf(stderr, "gerules eval: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto done;
  }
  if( a.json || a.explain ){
    /* the diagnostics are in the report; say the outcome on stderr too */
    if( r->diags.count[GR_SEV_ERROR] ) fprintf(stderr, "gerules eval: %zu error%s in the configuration\n",
                                               r->diags.count[GR_SEV_ERROR], r->diags.count[GR_SEV_ERROR]==1 ? "" : "s");
  }
  rc = r->diags.count[GR_SEV_ERROR] ? EXIT_CONFIG : 0;
done:
  gr_result_free(base);
  gr_result_free(r);
  gr_graph_free(g);
  gr_hooks_free(hooks);
  gr_optinputs_free(&inputs);
  free(a.hooks);
  return rc;
usage:
  gr_optinputs_free(&inputs);
  free(a.hooks);
  return EXIT_INPUT;
}
