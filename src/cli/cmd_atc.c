/*
** cmd_atc.c: `gerules atc ATC-FLAGS...`: takes an ATC command line as it is
** and evaluates that configuration with the eval pipeline (cli_eval_run).
** The command line is read by src/options/atc_cmdline.c as ATC's own parser
** reads it ("-name" is "--name", '-' inside a flag name is '_', a unique
** prefix names its flag, "string" and "int32" flags take their value after
** '=' or as the next argument, "bool" flags only after '=', the first bad
** flag stops the parse; --input_shape's grammar), from the rule data of
** rules/atc.rules; this file separates gerules' own report options from the
** ATC flags and prints what the reader refuses.
**
** A flag that is an option alias becomes that option, exactly as
** `gerules eval -o --flag=value` gives it; --model, --framework,
** --input_shape, the gear flags and --input_format are read here (with
** gears, every gear is evaluated: cli_input_evaluate); every other known
** flag is handed to the evaluator too, where rule GE1020 lists it once as
** not modelled. --raw_ge_options=FILE is read right after the flags, as ATC
** reads it (src/options/raw_ge_options.c): its options become flags located
** in the file. Also here: cli_atc_eval_flag_arg, eval's and tile's
** --input_shape=... and the other flags of atc_eval_flags. Nothing
** is ever written to ATC's --output. Also here: cli_alias_arg, which lets
** `gerules eval` take an option alias directly (--precision_mode=force_fp32).
*/
#include "config.h"
#include <errno.h>
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "options/atc_cmdline.h"

static const char atc_usage[] =
  "usage: gerules atc [REPORT-OPTIONS] ATC-FLAGS...\n"
  "Evaluates the configuration an ATC command line describes, without running ATC: the model\n"
  "from --model (--framework=1 MindSpore AIR, 5 ONNX; or a model gerules reads itself: ATC JSON,\n"
  "a ge_proto text dump, an .om), the chip from --soc_version, the inputs' shapes from\n"
  "--input_shape and every option from its flag; with --dynamic_batch_size, --dynamic_image_size or\n"
  "--dynamic_dims every gear is evaluated as a static graph. Flags gerules does not model are listed once\n"
  "as notes; a flag ATC does not know is an error, as in ATC. ATC's --output is never written.\n"
  "\n"
  "report options (every other argument is an ATC flag):\n"
  "  --format FMT               text (default), json, sarif, github, html or dot\n"
  "  --report FILE              write the report to FILE (atomically) instead of stdout\n"
  "  --fail-on LEVEL            exit 1 on: error (default), warning or never\n"
  "  -q, --quiet                text: the diagnostics and the summary only\n"
  "  --all-nodes                text: list every node, not only those that differ from the defaults\n"
  "  --wide                     text: never cut node names (default: cut in the middle to fit the terminal)\n"
  "  --explain NODE             print the full decision chain of one node\n"
  "  --no-provenance            json: leave out the per-node provenance arrays\n"
  "  --provenance-table         json: each distinct provenance entry once, in provenance_entries,\n"
  "                             the nodes listing indices (a third of the size on a big graph)\n"
  "\n"
  "example:\n"
  "  gerules atc --model=llm.onnx --framework=5 --soc_version=SOC --output=llm \\\n"
  "      --input_shape=\"hidden_states:1,-1,4096\" --precision_mode=force_fp32 --log=error\n"
  "\n"
  "exit status: 0 no error, 1 the configuration has errors, 2 usage error, bad ATC command line or bad input\n";

static void atc_say(const gr_atc_error *e, const char *level){
  if( e->snippet && e->loc.file && e->loc.line && e->hint==NULL ){
    /* with its source line and a caret, as every located error */
    gr_diag d;
    gr_buf b;
    memset(&d, 0, sizeof d);
    d.sev = strcmp(level, "error")==0 ? GR_SEV_ERROR : strcmp(level, "warning")==0 ? GR_SEV_WARNING : GR_SEV_NOTE;
    d.msg = e->msg ? e->msg : (char *)"(no message)";
    d.file = (char *)e->loc.file; d.line = e->loc.line; d.col = e->loc.col;
    d.ge_code = (char *)e->code;
    d.snippet = e->snippet;
    gr_buf_init(&b);
    gr_diag_format(&b, &d);
    fwrite(b.p, 1, b.n, stderr);
    gr_buf_free(&b);
    return;
  }
  if( e->loc.file && e->loc.line ) fprintf(stderr, "%s:%u:%u: %s: ", e->loc.file, e->loc.line, e->loc.col, level);
  else if( e->loc.file ) fprintf(stderr, "%s: %s: ", e->loc.file, level);
  else fprintf(stderr, "gerules atc: %s: ", level);
  fputs(e->msg ? e->msg : "(no message)", stderr);
  if( e->code ) fprintf(stderr, " [GE %s]", e->code);
  if( e->hint && *e->hint ) fprintf(stderr, "%s", e->hint);
  fputc('\n', stderr);
}

/* Prints an ATC error (and frees it): "gerules atc: error: MSG [GE CODE]HINT",
** or, located (malformed rule data; a --raw_ge_options file),
** "file:line:col: error: MSG [GE CODE]". */
static int atc_report(gr_atc_error *e){
  atc_say(e, "error");
  gr_atc_error_free(e);
  return EXIT_INPUT;
}

/* Run on the loaded graph before the evaluation: the reader ATC would use
** (--framework) and the input shapes. */
static int atc_graph_hook(const cli_input *in, gr_graph *g, const gr_ruleset *rs){
  gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 }, NULL };
  (void)rs;
  if( gr_atc_apply(in->graph_hook_data, g, in->graph, &err)!=0 ){ atc_report(&err); return -1; }
  return 0;
}

/* The gear flags and --input_format are read by the ATC reader (the gears
** are evaluated, the format names their H and W axes): no GE1020 note. */
static int shape_role(const gr_atc_cmdline *cmd, const char *flag){
  static const char *const roles[] = { "dynamic_batch_size", "dynamic_image_size", "dynamic_dims", "input_format" };
  size_t k;
  for(k = 0; k < sizeof roles / sizeof *roles; k++){
    const char *f = gr_atc_role_flag(cmd, roles[k]);
    if( f && strcmp(f, flag)==0 ) return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */

/* argv[*i] as a report option of gerules atc: 1 taken, 0 not one, -1 usage
** error. ATC's --output is ATC's: the report goes to --report. */
static int report_arg(cli_eval_args *a, int *i, int argc, char **argv){
  const char *v;
  int k;
  if( (k = cli_arg_value("atc", "--report", i, argc, argv, &v))!=0 ){ if( k > 0 ) a->output = v; return k; }
  if( strcmp(argv[*i], "--output")==0 || strncmp(argv[*i], "--output=", 9)==0 ) return 0;
  return cli_eval_arg("atc", a, i, argc, argv);
}

/* The whole command line with the rule set of c: the report options into a,
** the ATC flags into cmd (initialised here). 0, or the exit status (printed). */
static int atc_parse(cli_ctx *c, gr_atc_cmdline *cmd, cli_eval_args *a, int argc, char **argv){
  gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 }, NULL };
  const gr_ruleset *rs;
  int i, k;
  memset(cmd, 0, sizeof *cmd);
  cli_eval_args_init(a);
  if( (rs = cli_load_rules(c))==NULL ) return EXIT_INPUT;
  if( gr_atc_init(cmd, rs, &err)!=0 ) return atc_report(&err);
  for(i = 0; i < argc; i++){
    if( (k = report_arg(a, &i, argc, argv))!=0 ){ if( k < 0 ) return EXIT_INPUT; continue; }
    if( strcmp(argv[i], "--")==0 || argv[i][0]!='-' || argv[i][1]==0 ){
      /* getopt_long moves non-options to the end; ATC then refuses them */
      int n = strcmp(argv[i], "--")==0 ? i + 1 : i;
      if( n < argc ){ gr_atc_non_option(cmd, argv[n], &err); return atc_report(&err); }
      break;
    }
    if( gr_atc_flag_arg(cmd, &i, argc, argv, &err)!=0 ) return atc_report(&err);
  }
  /* main_impl.cc:2358-2361: ATC reads --raw_ge_options right after its
  ** command line, before CheckFlags */
  if( !cmd->help && gr_atc_raw_ge_options(cmd, &err)!=0 ) return atc_report(&err);
  if( !cmd->help && gr_atc_finish(cmd, &err)!=0 ) return atc_report(&err);
  return 0;
}

/* The flags of the --raw_ge_options file (atc_raw_ge_options_flags): read
** here, no GE1020 note. */
static int raw_options_flag(const gr_atc_cmdline *cmd, const char *flag){
  const gr_table *t = gr_ruleset_table(cmd->rs, "atc_raw_ge_options_flags");
  size_t k;
  for(k = 0; t && t->is_map && k < t->n; k++)
    if( t->vals[k] && t->vals[k]->op==GR_E_STR && strcmp(t->vals[k]->s, flag)==0 ) return 1;
  return 0;
}

int cmd_atc(cli_ctx *c, int argc, char **argv){
  gr_atc_cmdline cmd;
  cli_eval_args a;
  cli_input in;
  char *model = NULL;
  int i, rc;
  size_t j;
  for(i = 0; i < argc; i++)
    if( strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0 ){ fputs(atc_usage, stdout); return 0; }
  cli_input_init(&in, "atc");
  /* The model's CANN release (its atc_version) may choose among installed
  ** releases of a bundle, but the model is known only once the command line
  ** is read with a rule set's atc_* tables: choose silently, read it, and
  ** when a choice was made, choose again with the model and read again. */
  c->choice_deferred = 1;
  rc = atc_parse(c, &cmd, &a, argc, argv);
  c->choice_deferred = 0;
  if( rc==0 && !cmd.help && c->choice_made ){
    model = gr_xstrdup(cmd.model);
    gr_atc_free(&cmd);
    cli_codegates_free(&a.cg);      /* read again below */
    cli_forget_rules(c);
    c->graph_hint = model;
    rc = atc_parse(c, &cmd, &a, argc, argv);
  }
  if( rc ) goto out;
  if( cmd.help ){ fputs(atc_usage, stdout); goto out; }
  for(j = 0; j < cmd.raw_warnings.n; j++) atc_say(&cmd.raw_warnings.v[j], "warning");
  in.graph = cmd.model;
  in.graph_hook = atc_graph_hook;
  in.graph_hook_data = &cmd;
  in.atc = &cmd;                        /* its gears, when it has them */
  /* every other flag, in command-line order: options by their alias, the
  ** rest for GE1020; each flag once, with its last value, as ATC keeps it */
  for(j = 0; j < cmd.flags.n; j++){
    const gr_atc_flag *f = &cmd.flags.v[j];
    if( !f->last || (cmd.model_flag && strcmp(f->name, cmd.model_flag)==0) || (cmd.framework_flag && strcmp(f->name, cmd.framework_flag)==0)
        || (cmd.shape_flag && strcmp(f->name, cmd.shape_flag)==0) || shape_role(&cmd, f->name) || raw_options_flag(&cmd, f->name) ) continue;
    /* a flag set by the --raw_ge_options file is located there */
    gr_optinputs_add(&in.opts, f->name, strlen(f->name), f->value, strlen(f->value),
                     f->at.file ? f->at.file : "<command line>", f->at.file ? f->at.line : 0, f->at.file ? f->at.col : 0);
  }
  rc = cli_eval_run(c, &in, &a);
out:
  gr_atc_free(&cmd);
  cli_codegates_free(&a.cg);
  cli_input_free(&in);
  if( model && c->graph_hint==model ) c->graph_hint = NULL;
  free(model);
  return rc;
}

/* ------------------------------------------------------------------ */
/* `gerules eval GRAPH --precision_mode=force_fp32` */

int cli_alias_arg(cli_ctx *c, cli_input *in, int *i, int argc, char **argv){
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  const gr_ruleset *rs;
  const gr_option *o;
  char *flag;
  size_t k;
  int alias = 0;
  if( strncmp(arg, "--", 2)!=0 || arg[2]==0 ) return 0;
  if( (rs = cli_load_rules(c))==NULL ) return -1;
  flag = gr_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
  if( (o = gr_ruleset_option_by_spelling(rs, flag))!=NULL )
    for(k = 0; k < o->naliases; k++) if( strcmp(o->aliases[k], flag)==0 ) alias = 1;
  if( !alias ){ free(flag); return 0; }
  if( eq==NULL && *i + 1 >= argc ){
    cli_usage_error(in->cmd, "%s needs a value", flag);
    free(flag);
    return -1;
  }
  {
    const char *v = eq ? eq + 1 : argv[++*i];
    gr_optinputs_add(&in->opts, flag, strlen(flag), v, strlen(v), "<command line>", 0, 0);
  }
  free(flag);
  return 1;
}

/* `gerules eval GRAPH --input_shape=x:1,3,640,640` (and tile): the ATC flags
** of atc_eval_flags, into the options under their ATC name; cli_input_atc_flags
** takes them out again for the ATC reader. */
int cli_atc_eval_flag_arg(cli_ctx *c, cli_input *in, int *i, int argc, char **argv){
  const char *arg = argv[*i], *eq = strchr(arg, '='), *v;
  const gr_ruleset *rs;
  const char *flag;
  char *name;
  if( strncmp(arg, "--", 2)!=0 || arg[2]==0 ) return 0;
  if( (rs = cli_load_rules(c))==NULL ) return -1;
  name = gr_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
  flag = gr_atc_eval_flag(rs, name);
  free(name);
  if( flag==NULL || strncmp(flag, "--", 2)!=0 ) return 0;
  if( eq==NULL && *i + 1 >= argc ){
    cli_usage_error(in->cmd, "%s needs a value", flag);
    return -1;
  }
  v = eq ? eq + 1 : argv[++*i];
  gr_optinputs_add(&in->opts, flag, strlen(flag), v, strlen(v), "<command line>", 0, 0);
  return 1;
}
