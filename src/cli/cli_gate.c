/*
** cli_gate.c: the CI gate options of check, tile and test: --format (the
** formats the command writes, among text, json, tap and sarif), --fail-on
** error|warning|never and -q/--quiet, spelled and judged as for eval
** (cmd_eval.c), so a CI job gates every command alike.
*/
#include "config.h"
#include <string.h>
#include "cli/cli.h"

static const char *const fmt_names[] = { "text", "json", "sarif", "github", "html", "dot" };

int cli_gate_arg(const char *cmd, unsigned formats, cli_gate *g, int *i, int argc, char **argv){
  const char *v;
  int k;
  size_t f;
  if( (k = cli_arg_value(cmd, "--format", i, argc, argv, &v))!=0 ){
    gr_buf b;
    if( k < 0 ) return -1;
    for(f = 0; f < sizeof fmt_names / sizeof *fmt_names; f++){
      if( (formats & (1u << f)) && strcmp(v, fmt_names[f])==0 ){ g->format = (int)f; return 1; }
    }
    gr_buf_init(&b);
    for(f = 0; f < sizeof fmt_names / sizeof *fmt_names; f++)
      if( formats & (1u << f) ) gr_buf_printf(&b, "%s%s", b.n ? ", " : "", fmt_names[f]);
    cli_usage_error(cmd, "unknown format '%s' (%s)", v, gr_buf_cstr(&b));
    gr_buf_free(&b);
    return -1;
  }
  if( (k = cli_arg_value(cmd, "--fail-on", i, argc, argv, &v))!=0 ){
    if( k < 0 ) return -1;
    if( strcmp(v, "error")==0 ) g->fail_on = CLI_FAIL_ERROR;
    else if( strcmp(v, "warning")==0 ) g->fail_on = CLI_FAIL_WARNING;
    else if( strcmp(v, "never")==0 ) g->fail_on = CLI_FAIL_NEVER;
    else{ cli_usage_error(cmd, "--fail-on is error, warning or never, not '%s'", v); return -1; }
    return 1;
  }
  if( strcmp(argv[*i], "-q")==0 || strcmp(argv[*i], "--quiet")==0 ){ g->quiet = 1; return 1; }
  return 0;
}

int cli_gate_fails(const cli_gate *g, const gr_diags *d){
  if( g->fail_on==CLI_FAIL_NEVER ) return 0;
  if( d->count[GR_SEV_ERROR] ) return 1;
  return g->fail_on==CLI_FAIL_WARNING && d->count[GR_SEV_WARNING] > 0;
}
