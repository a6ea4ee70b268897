/*
** cli_input.c: the inputs that `eval` and `tile` take alike: the graph file,
** --chip, --run-mode, -o KEY=VALUE, --options FILE, --hook FILE and the
** --hook-* limits. Parsing them, loading the graph and the hooks, and
** printing their errors (located, exit 2) live here once for both commands.
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

void cli_input_init(cli_input *in, const char *cmd){
  memset(in, 0, sizeof *in);
  in->cmd = cmd;
  in->run_mode = "inference";
  in->entry_point = "atc";
  gr_optinputs_init(&in->opts);
  gr_hooks_limits_default(&in->lim);
}

void cli_input_free(cli_input *in){
  gr_optinputs_free(&in->opts);
  free(in->hooks);
  free(in->optfiles);
  in->hooks = NULL;
  in->optfiles = NULL;
}

int cli_arg_value(const char *cmd, const char *opt, int *i, int argc, char **argv, const char **out){
  size_t l = strlen(opt);
  if( strcmp(argv[*i], opt)==0 ){
    if( *i + 1 >= argc ){ cli_usage_error(cmd, "%s needs a value", opt); return -1; }
    *out = argv[++*i];
    return 1;
  }
  if( strncmp(argv[*i], opt, l)==0 && argv[*i][l]=='=' ){ *out = argv[*i] + l + 1; return 1; }
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

/* Loads the graph; a regular file read from a terminal session shows a
** meter on stderr (the reader's file offset, polled by progress.c). */
gr_graph *cli_load_graph(const cli_input *in, const gr_ruleset *rs){
  gr_error err;
  gr_graph *g;
  struct stat st;
  gr_model_opts mo;
  gr_opmap *map;
  gr_diags d;
  int fd;
  gr_diags_init(&d);
  memset(&err, 0, sizeof err);
  memset(&mo, 0, sizeof mo);
  mo.format = in->input_format;
  mo.opmap = map = gr_onnx_map_from_rules(rs, &d);
  if( strcmp(in->graph, "-")!=0 && (fd = gr_open_input(in->graph, NULL, NULL)) >= 0 ){
    gr_progress pr;
    char *what = gr_xasprintf("loading %s", in->graph);
    int reg = fstat(fd, &st)==0 && S_ISREG(st.st_mode);
    gr_progress_init(&pr, reg ? 2 : -1, what, reg ? (uint64_t)st.st_size : 0, "bytes");
    free(what);
    gr_progress_watch(&pr, gr_progress_fd_offset, &fd);
    g = gr_model_load_fd(fd, &mo, &err);
    gr_progress_done(&pr);
    close(fd);
  }else{
    g = gr_model_load_file(in->graph, &mo, &err);   /* stdin, or the open error */
  }
  if( g==NULL ){
    if( err.line ) fprintf(stderr, "%s:%u:%u: error: %s\n", cli_graph_name(in), err.line, err.col, err.msg);
    else fprintf(stderr, "%s: error: %s\n", cli_graph_name(in), err.msg);
  }
  gr_opmap_free(map);
  gr_diags_free(&d);
  return g;
}

static void hook_log(void *ud, const char *line){
  (void)ud;
  fprintf(stderr, "%s\n", line);
}

int cli_load_hooks(const cli_input *in, const gr_ruleset *rs, gr_hooks **out){
  gr_hooks *h;
  gr_error err;
  size_t i;
  *out = NULL;
  if( rs->nhook_files==0 && in->nhooks==0 ) return 0;
  h = gr_hooks_new(rs, &in->lim);
  gr_hooks_set_log(h, hook_log, NULL);
  for(i = 0; i < rs->nhook_files + in->nhooks; i++){
    const char *path = i < rs->nhook_files ? rs->hook_files[i] : in->hooks[i - rs->nhook_files];
    memset(&err, 0, sizeof err);
    /* a verified hook runs from the bytes the trust guard verified */
    if( (i < rs->nhook_files && rs->hook_texts ? gr_hooks_load_buffer(h, path, rs->hook_texts[i], rs->hook_lens[i], &err)
                                                : gr_hooks_load_file(h, path, &err))!=0 ){
      if( err.line ) fprintf(stderr, "%s:%u: error: %s\n", path, err.line, err.msg);
      else fprintf(stderr, "%s: error: %s\n", path, err.msg);
      gr_hooks_free(h);
      return -1;
    }
  }
  *out = h;
  return 0;
}

void cli_eval_config(const cli_input *in, gr_graph *g, gr_hooks *hooks, gr_eval_config *cfg){
  memset(cfg, 0, sizeof *cfg);
  cfg->chip = in->chip;
  cfg->run_mode = in->run_mode;
  cfg->entry_point = in->entry_point;
  cfg->inputs = in->opts.v;
  cfg->ninputs = in->opts.n;
  cfg->graph = g;
  cfg->graph_file = cli_graph_name(in);
  cfg->hooks = hooks ? gr_hooks_vtable(hooks) : NULL;
}

gr_result *cli_evaluate(const cli_input *in, const gr_ruleset *rs, const gr_eval_config *cfg){
  gr_result *r = gr_eval(rs, cfg);
  size_t i;
  if( r->fatal ){               /* no chip, an unreadable input or a failing hook: exit 2 */
    for(i = 0; i < r->diags.n; i++){
      const gr_diag *d = &r->diags.v[i];
      gr_diags one;
      if( d->file==NULL && d->code==NULL ){     /* about the command itself */
        fprintf(stderr, "gerules %s: %s: %s\n", in->cmd, gr_severity_name(d->sev), d->msg);
        continue;
      }
      one = r->diags; one.v = (gr_diag*)d; one.n = 1;
      cli_print_diags(&one);
    }
    gr_result_free(r);
    return NULL;
  }
  return r;
}

int cli_open_output(const cli_input *in, const gr_result *r, const char *path, gr_out *o){
  const char **v;
  size_t n = 0, i;
  gr_error err;
  int rc;
  /* every file this run read: the graph, options files, hooks, rule files and
  ** the files given as option values (an op_precision ini) */
  v = gr_xmalloc((3 + in->noptfiles + in->nhooks + (r ? r->rs->nfiles + r->rs->noptions + r->rs->nhook_files : 0)) * sizeof *v);
  v[n++] = in->graph;
  for(i = 0; i < in->noptfiles; i++) v[n++] = in->optfiles[i];
  for(i = 0; i < in->nhooks; i++) v[n++] = in->hooks[i];
  if( r ){
    for(i = 0; i < r->rs->nfiles; i++) v[n++] = r->rs->files[i];
    for(i = 0; i < r->rs->nhook_files; i++) v[n++] = r->rs->hook_files[i];
    for(i = 0; i < r->rs->noptions; i++) if( r->opts[i].ini ) v[n++] = r->opts[i].value;
  }
  memset(&err, 0, sizeof err);
  rc = gr_out_check_inputs(path, v, n, &err);
  free(v);
  if( rc==0 ) rc = gr_out_open_file(o, path, &err);
  if( rc!=0 ) fprintf(stderr, "gerules %s: error: %s\n", in->cmd, err.msg);
  return rc;
}
