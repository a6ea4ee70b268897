/*
** cli_input.c: the inputs that `eval` and `tile` take alike: the graph file,
** --chip, --run-mode, -o KEY=VALUE, --options FILE, --hook FILE and the
** --hook-* limits. Parsing them, turning them into a request of the public
** API, evaluating it through the library's one orchestrator
** (gerules_evaluate) with a meter while the model loads, and printing why an
** evaluation failed (exit 2) live here once for every evaluating command.
*/
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/out.h"
#include "report/progress.h"
#include "api/gerules_internal.h"
#include "options/atc_cmdline.h"

void cli_input_init(cli_input *in, const char *cmd){
  memset(in, 0, sizeof *in);
  in->cmd = cmd;
  in->run_mode = "inference";
  in->entry_point = "atc";
  gr_optinputs_init(&in->opts);
  gr_hooks_limits_default(&in->lim);
}

void cli_input_free(cli_input *in){
  if( in->atc_own && in->atc ){ gr_atc_free(in->atc); free(in->atc); }
  in->atc = NULL;
  gr_optinputs_free(&in->opts);
  free(in->hooks);
  free(in->optfiles);
  in->hooks = NULL;
  in->optfiles = NULL;
}

int cli_arg_value(const char *cmd, const char *opt, int *i, int argc, char **argv, const char **out){
  const char *a = argv[*i];
  size_t l;
  /* most arguments are some other option, which its first letters tell
  ** (`gerules atc` asks this of each of up to 100,000 ATC flags) */
  if( a[0]!=opt[0] || a[1]!=opt[1] || (opt[1] && opt[2] && a[2]!=opt[2]) ) return 0;
  l = strlen(opt);
  if( strcmp(a, opt)==0 ){
    if( *i + 1 >= argc ){ cli_usage_error(cmd, "%s needs a value", opt); return -1; }
    *out = argv[++*i];
    return 1;
  }
  if( strncmp(a, opt, l)==0 && a[l]=='=' ){ *out = a + l + 1; return 1; }
  return 0;
}

/* A positive number for a --hook-* limit: an integer (or, when real, a decimal). */
static int limit_arg(const char *cmd, const char *opt, const char *v, int real, double max, double *out){
  char *end;
  double x;
  errno = 0;
  x = real ? strtod(v, &end) : (double)strtoull(v, &end, 10);
  if( errno || end==v || *end || !(x > 0) || x > max || (!real && strchr(v, '-')) ){
    cli_usage_error(cmd, "%s expects a positive %s up to %.0f, got '%s'", opt, real ? "number" : "integer", max, v);
    return -1;
  }
  *out = x;
  return 0;
}

static int add_kv(cli_input *in, const char *kv){
  const char *eq = strchr(kv, '=');
  if( eq==NULL || eq==kv ){ cli_usage_error(in->cmd, "-o expects KEY=VALUE, got '%s'", kv); return -1; }
  gr_optinputs_add(&in->opts, kv, (size_t)(eq - kv), eq + 1, strlen(eq + 1), "<command line>", 0, 0);
  return 0;
}

int cli_input_arg(cli_input *in, int *i, int argc, char **argv){
  const char *v = NULL, *cmd = in->cmd;
  double x;
  int k;
  if( (k = cli_arg_value(cmd, "--chip", i, argc, argv, &v))!=0 ){ if( k > 0 ) in->chip = v; return k; }
  if( (k = cli_arg_value(cmd, "--run-mode", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( strcmp(v, "inference") && strcmp(v, "training") ){
      cli_usage_error(cmd, "--run-mode is inference or training, not '%s'", v);
      return -1;
    }
    in->run_mode = v;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--entry", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( !gr_entry_point_valid(v) ){
      cli_usage_error(cmd, "--entry is atc, ir-build or session, not '%s'", v);
      return -1;
    }
    in->entry_point = v;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--input-format", i, argc, argv, &v))!=0 ){
    int f;
    if( k < 0 ) return -1;
    if( (f = gr_model_format_by_name(v)) < 0 ){
      cli_usage_error(cmd, "--input-format is one of %s, not '%s'", gr_model_format_names(), v);
      return -1;
    }
    in->input_format = f;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--hook", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    in->hooks = gr_xrealloc(in->hooks, (in->nhooks + 1) * sizeof *in->hooks);
    in->hooks[in->nhooks++] = v;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--hook-memory", i, argc, argv, &v))!=0 ){
    if( k < 0 || limit_arg(cmd, "--hook-memory", v, 0, 1048576, &x) ) return -1;
    in->lim.memory = (size_t)x << 20;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--hook-instructions", i, argc, argv, &v))!=0 ){
    if( k < 0 || limit_arg(cmd, "--hook-instructions", v, 0, 1e18, &x) ) return -1;
    in->lim.instructions = (uint64_t)x;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--hook-timeout", i, argc, argv, &v))!=0 ){
    if( k < 0 || limit_arg(cmd, "--hook-timeout", v, 1, 86400, &x) ) return -1;
    in->lim.timeout = x;
    return 1;
  }
  if( (k = cli_arg_value(cmd, "--options", i, argc, argv, &v))!=0 ){
    gr_error err;
    if( k < 0 ) return -1;
    memset(&err, 0, sizeof err);
    in->optfiles = gr_xrealloc(in->optfiles, (in->noptfiles + 1) * sizeof *in->optfiles);
    in->optfiles[in->noptfiles++] = v;
    if( gr_optfile_read(&in->opts, v, &err)!=0 ){
      gr_diags d;               /* printed as every located error is: with the line and a caret */
      gr_diags_init(&d);
      gr_diags_add(&d, GR_SEV_ERROR, v, err.line, err.col, "%s", err.msg);
      cli_print_diags(&d);
      gr_diags_free(&d);
      return -1;
    }
    return 1;
  }
  if( strcmp(argv[*i], "-o")==0 ){
    if( *i + 1 >= argc ){ cli_usage_error(cmd, "-o needs KEY=VALUE"); return -1; }
    return add_kv(in, argv[++*i]) ? -1 : 1;
  }
  if( strncmp(argv[*i], "-o", 2)==0 && argv[*i][2] ) return add_kv(in, argv[*i] + 2) ? -1 : 1;
  if( argv[*i][0]=='-' && argv[*i][1] ) return 0;          /* the command's own option */
  if( in->graph ){
    cli_usage_error(cmd, "only one graph per run ('%s' and '%s')", in->graph, argv[*i]);
    return -1;
  }
  in->graph = argv[*i];
  return 1;
}

const char *cli_graph_name(const cli_input *in){
  return strcmp(in->graph, "-")==0 ? "<stdin>" : in->graph;
}

static void hook_line(void *ud, const char *line){
  (void)ud;
  fprintf(stderr, "%s\n", line);
}

gerules_request *cli_request_new(const cli_input *in){
  gerules_request *q = gerules_request_new();
  size_t i;
  if( in->input_format!=GR_FMT_AUTO ) gerules_request_set_model_format(q, gr_model_format_name(in->input_format));
  gerules_request_set_chip(q, in->chip);
  gerules_request_set_run_mode(q, in->run_mode);
  gerules_request_set_entry(q, in->entry_point);
  gerules_request_set_hook_limits(q, in->lim.memory, in->lim.instructions, in->lim.timeout);
  gerules_request_set_log(q, hook_line, NULL);
  for(i = 0; i < in->opts.n; i++){
    const gr_input *o = &in->opts.v[i];
    int cmdline = o->origin.line==0;
    gerules_request_add_option_at(q, o->key, strlen(o->key), o->value, strlen(o->value),
                                  cmdline ? NULL : o->origin.file, o->origin.line, o->origin.col);
  }
  for(i = 0; i < in->nhooks; i++) gerules_request_add_hook(q, in->hooks[i]);
  return q;
}

void cli_print_failure(const char *cmd, const gerules_diags *d){
  unsigned flags = GERULES_RENDER_SOURCE | (cli_color(2) ? GERULES_RENDER_COLOR : 0);
  size_t i;
  for(i = 0; i < gerules_diags_count(d); i++){
    gerules_diag x;
    char *s;
    gerules_diags_get(d, i, &x);
    if( x.file==NULL && x.code==NULL ){         /* about the command itself */
      fprintf(stderr, "gerules %s: %s: %s\n", cmd, x.severity==GERULES_ERROR ? "error" : x.severity==GERULES_WARNING ? "warning" : "note", x.message);
      continue;
    }
    s = gerules_diag_render(d, i, flags);
    fputs(s, stderr);
    gerules_free(s);
  }
}

/* The model file as a descriptor, so that the meter can follow the reader's
** offset; -1 for stdin and for a file that does not open (the library then
** reports the error with the file name). */
static int open_model(const cli_input *in, gr_progress *pr){
  struct stat st;
  int fd, reg;
  char *what;
  if( strcmp(in->graph, "-")==0 ) return 0;
  if( (fd = gr_open_input(in->graph, NULL, NULL)) < 0 ) return -1;   /* never blocks on a FIFO */
  reg = fstat(fd, &st)==0 && S_ISREG(st.st_mode);
  what = gr_xasprintf("loading %s", in->graph);
  gr_progress_init(pr, reg ? 2 : -1, what, reg ? (uint64_t)st.st_size : 0, "bytes");
  free(what);
  return fd;
}

/* "gerules CMD: error: MSG [GE CODE]" (and frees e): what ATC's reader refuses. */
static void atc_error_print(const char *cmd, gr_atc_error *e){
  if( e->loc.file ){
    fprintf(stderr, "%s:%u:%u: error: %s", e->loc.file, e->loc.line, e->loc.col, e->msg);
    if( e->code ) fprintf(stderr, " [GE %s]", e->code);
    fputc('\n', stderr);
  }else{
    fprintf(stderr, "gerules %s: error: %s", cmd, e->msg ? e->msg : "(no message)");
    if( e->code ) fprintf(stderr, " [GE %s]", e->code);
    if( e->hint && *e->hint ) fprintf(stderr, "%s", e->hint);
    fputc('\n', stderr);
  }
  gr_atc_error_free(e);
}

/* The roles of the flags eval and tile take out of the options: read by
** the ATC reader (the other, --out_nodes, stays an option too, where GE1020
** says it is not modelled). */
static int role_taken(const gr_atc_cmdline *a, const char *flag){
  static const char *const roles[] = { "input_shape", "input_shape_range", "dynamic_batch_size", "dynamic_image_size",
                                       "dynamic_dims", "input_format" };
  size_t k;
  for(k = 0; k < sizeof roles / sizeof *roles; k++){
    const char *f = gr_atc_role_flag(a, roles[k]);
    if( f && strcmp(f, flag)==0 ) return 1;
  }
  return 0;
}

int cli_input_atc_flags(cli_ctx *c, cli_input *in){
  gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 }, NULL };
  const gr_ruleset *rs;
  gr_atc_cmdline *a = NULL;
  size_t i, j = 0;
  int rc = 0;
  if( (rs = cli_load_rules(c))==NULL ) return EXIT_INPUT;
  for(i = 0; i < in->opts.n; i++){
    gr_input *o = &in->opts.v[i];
    const char *flag = gr_atc_eval_flag(rs, o->key);
    /* under --entry session, GE's own keys (input_shape, ge.inputShape)
    ** stay options of that entry; --FLAG is ATC's. aclgrphBuildModel
    ** applies input_shape and checks the gear keys with ATC's functions
    ** (hicann/ge @ffdcbc9f7 compiler/api/aclgrph/ge_ir_build.cc:884-923:
    ** UpdateDataOpAttr, CheckDynamicInputParamValid), so under --entry
    ** ir-build they are taken as ATC's flags too, and stay options of the
    ** entry (their value checks and notes, session_options.rules) */
    int ir_key = strcmp(in->entry_point, "ir-build")==0 && flag && strcmp(o->key, flag)!=0;
    if( flag==NULL || (strcmp(in->entry_point, "atc")!=0 && strcmp(o->key, flag)!=0 && !ir_key) ){ in->opts.v[j++] = *o; continue; }
    if( a==NULL ){
      a = gr_xcalloc(1, sizeof *a);
      if( gr_atc_init(a, rs, &err)!=0 ){ atc_error_print(in->cmd, &err); rc = EXIT_INPUT; break; }
      a->ir_build = strcmp(in->entry_point, "ir-build")==0;
    }
    {
      /* a value from an options file: errors about it are located there */
      gr_loc at = { NULL, 0, 0 };
      if( o->origin.line ){ at.file = o->origin.file; at.line = o->origin.line; at.col = o->origin.col; }
      if( gr_atc_take_at(a, flag, o->value, at, &err)!=0 ){ atc_error_print(in->cmd, &err); rc = EXIT_INPUT; break; }
    }
    if( ir_key ){ in->opts.v[j++] = *o; continue; }
    if( role_taken(a, flag) ) continue;
    o->key = gr_arena_strndup(&in->opts.arena, flag, strlen(flag));    /* GE1020 names it as ATC does */
    in->opts.v[j++] = *o;
  }
  if( rc==0 ){
    in->opts.n = j;
    if( a && gr_atc_finish_shapes(a, &err)!=0 ){ atc_error_print(in->cmd, &err); rc = EXIT_INPUT; }
  }
  if( a ){ in->atc = a; in->atc_own = 1; }
  return rc;
}

/* A command's change to the loaded model before it is evaluated (atc:
** --input_shape, tile: --node and --type; eval's and tile's shape flags
** first). The shape flags' errors become the evaluation's diagnostics (the
** failure document carries them); the command's own hook prints its own. */
static int run_graph_hook(void *ud, gr_graph *g, const gr_ruleset *rs, gr_diags *d){
  const cli_input *in = ud;
  if( in->atc && in->atc_own ){
    gr_atc_error err = { NULL, NULL, NULL, { NULL, 0, 0 }, NULL };
    if( gr_atc_apply_shapes(in->atc, g, &err)!=0 ){
      /* worded as atc_error_print words it: the message, [GE CODE] (a located
      ** diagnostic shows its ge_code itself), the hint */
      int tag = err.code && err.loc.file==NULL;
      gr_diag *x = gr_diags_add(d, GR_SEV_ERROR, err.loc.file, err.loc.line, err.loc.col, "%s%s%s%s%s",
                                err.msg ? err.msg : "(no message)", tag ? " [GE " : "", tag ? err.code : "",
                                tag ? "]" : "", err.hint ? err.hint : "");
      if( err.code ) gr_diag_set(&x->ge_code, err.code);
      if( err.snippet ) gr_diag_set(&x->snippet, err.snippet);
      gr_atc_error_free(&err);
      return -1;
    }
  }
  return in->graph_hook ? in->graph_hook(in, g, rs) : 0;
}

/* gr_api_gear_fn: gear k of in->atc on the graph, and what the report says of it. */
static void gear_fn(void *ud, gr_graph *g, size_t k, gr_gears *gs){
  const gr_atc_cmdline *a = ud;
  gr_gear *gear;
  size_t i;
  gr_buf b;
  gr_atc_gear_apply(a, g, k);
  if( gs==NULL ) return;
  if( gs->flag==NULL ){ gs->flag = gr_xstrdup(a->gear_flag); gs->value = gr_xstrdup(a->gear_value); }
  gear = &gs->v.v[k];
  if( gear->profile ) return;
  gr_buf_init(&b);
  for(i = 0; i < a->gears.v[k].v.n; i++) gr_buf_printf(&b, "%s%lld", i ? "," : "", (long long)a->gears.v[k].v.v[i]);
  gear->profile = gr_xstrdup(gr_buf_cstr(&b));
  gr_buf_free(&b);
  for(i = 0; i < a->shapes.n; i++){
    gr_gear_input gi;
    const gr_atc_shape *s = &a->shapes.v[i];
    memset(&gi, 0, sizeof gi);
    gi.name = s->name ? gr_xstrdup(s->name) : gr_xasprintf("%ld", s->index);
    gi.dims.v = gr_xmalloc((s->dims.n ? s->dims.n : 1) * sizeof *gi.dims.v);
    gi.dims.n = gi.dims.cap = s->dims.n;
    gr_atc_gear_dims(a, k, i, gi.dims.v);
    gr_vec_push(gear->inputs, gi);
  }
}

gerules_eval *cli_input_evaluate(const cli_input *in, const gerules_rules *rules, gerules_request *q){
  gerules_eval *ev;
  gr_progress pr;
  int fd;
  memset(&pr, 0, sizeof pr);
  fd = open_model(in, &pr);
  if( fd >= 0 ) gerules_request_set_model_fd(q, fd, cli_graph_name(in));
  else gerules_request_set_model(q, in->graph);
  if( in->graph_hook || (in->atc && in->atc_own) ) gr_api_request_set_graph_hook(q, run_graph_hook, (void*)in);
  if( in->atc && in->atc->gears.n > 1 ) gr_api_request_set_gears(q, in->atc->gears.n, gear_fn, in->atc);
  if( fd > 0 ) gr_progress_watch(&pr, gr_progress_fd_offset, &fd);
  ev = gerules_evaluate(rules, q);
  if( fd > 0 ){ gr_progress_done(&pr); close(fd); }
  if( gerules_eval_status(ev)==2 ) cli_print_failure(in->cmd, gerules_eval_diags(ev));
  return ev;
}
