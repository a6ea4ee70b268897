/*
** cli_gate.c: the CI gate options of check, tile and test: --format (the
** formats the command writes, among text, json, tap and sarif), --fail-on
** error|warning|never and -q/--quiet, spelled and judged as for eval
** (cmd_eval.c), so a CI job gates every command alike. Also the per-code
** gates of eval (-Werror=CODE, -Wno-CODE, --fail-on CODE[,CODE],
** --baseline FILE), applied to the diagnostics before the report is
** written, so that every format shows what the gate decided.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "options/baseline.h"

static const char *const fmt_names[] = { "text", "json", "sarif", "github", "html", "dot", "junit" };

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
    return cli_fail_on_value(cmd, v, &g->fail_on, NULL);
  }
  if( strcmp(argv[*i], "-q")==0 || strcmp(argv[*i], "--quiet")==0 ){ g->quiet = 1; return 1; }
  return 0;
}

int cli_gate_fails(const cli_gate *g, const gr_diags *d){
  if( g->fail_on==CLI_FAIL_NEVER ) return 0;
  if( d->count[GR_SEV_ERROR] ) return 1;
  return g->fail_on==CLI_FAIL_WARNING && d->count[GR_SEV_WARNING] > 0;
}

/* Appends the codes of a comma-separated list to *v, each checked. */
static int add_codes(const char *cmd, const char *flag, const char *list, char ***v, size_t *n){
  const char *p = list;
  if( !*p ){ cli_usage_error(cmd, "%s needs a diagnostic code", flag); return -1; }
  for(;;){
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char *code = gr_xstrndup(p, len);
    if( !gr_diag_code_valid(code) ){
      cli_usage_error(cmd, "%s: '%s' is not a diagnostic code (" GR_DIAG_CODE_RULE ")", flag, code);
      free(code);
      return -1;
    }
    *v = gr_xrealloc(*v, (*n + 1) * sizeof **v);     /* one per argv byte at most */
    (*v)[(*n)++] = code;
    if( !e ) return 0;
    p = e + 1;
  }
}

int cli_fail_on_value(const char *cmd, const char *v, int *fail_on, cli_codegates *cg){
  if( strcmp(v, "error")==0 ) *fail_on = CLI_FAIL_ERROR;
  else if( strcmp(v, "warning")==0 ) *fail_on = CLI_FAIL_WARNING;
  else if( strcmp(v, "never")==0 ) *fail_on = CLI_FAIL_NEVER;
  else if( cg && v[0] >= 'A' && v[0] <= 'Z' ) return add_codes(cmd, "--fail-on", v, &cg->fail_codes, &cg->nfail_codes)==0 ? 1 : -1;
  else{
    cli_usage_error(cmd, cg ? "--fail-on is error, warning, never or a list of codes (GE4003,GE1020), not '%s'"
                            : "--fail-on is error, warning or never, not '%s'", v);
    return -1;
  }
  return 1;
}

int cli_codegate_arg(const char *cmd, cli_codegates *cg, int *i, int argc, char **argv){
  const char *a = argv[*i], *v;
  int k;
  if( strncmp(a, "-Werror=", 8)==0 ) return add_codes(cmd, "-Werror", a + 8, &cg->werror, &cg->nwerror)==0 ? 1 : -1;
  if( strncmp(a, "-Wno-", 5)==0 ) return add_codes(cmd, "-Wno", a + 5, &cg->wno, &cg->nwno)==0 ? 1 : -1;
  if( (k = cli_arg_value(cmd, "--baseline", i, argc, argv, &v))!=0 ){ if( k > 0 ) cg->baseline = v; return k; }
  return 0;
}

void cli_codegates_free(cli_codegates *cg){
  size_t i;
  for(i = 0; i < cg->nwerror; i++) free(cg->werror[i]);
  for(i = 0; i < cg->nwno; i++) free(cg->wno[i]);
  for(i = 0; i < cg->nfail_codes; i++) free(cg->fail_codes[i]);
  free(cg->werror); free(cg->wno); free(cg->fail_codes);
  memset(cg, 0, sizeof *cg);
}

static int listed(char *const *v, size_t n, const char *code){
  size_t i;
  for(i = 0; code && i < n; i++) if( strcmp(v[i], code)==0 ) return 1;
  return 0;
}

/* -Wno-CODE drops warnings and notes; an error stays (as gcc's -Wno-X does
** not silence an error). */
static int silenced(void *ud, const gr_diag *d){
  const cli_codegates *cg = ud;
  return d->sev!=GR_SEV_ERROR && listed(cg->wno, cg->nwno, d->code);
}

static void raise_to_error(gr_diags *dl, gr_diag *d, const char *flag){
  if( d->sev==GR_SEV_ERROR ) return;
  if( !d->changed_by ) d->orig_sev = d->sev;
  dl->count[d->sev]--;
  d->sev = GR_SEV_ERROR;
  dl->count[GR_SEV_ERROR]++;
  free(d->changed_by);
  d->changed_by = gr_xasprintf("%s%s", flag, d->code);
}

int cli_codegates_apply(const char *cmd, const cli_codegates *cg, gr_diags *dl){
  size_t i;
  if( cg->nwno ) gr_diags_remove_if(dl, silenced, (void *)cg);
  for(i = 0; i < dl->n; i++){
    gr_diag *d = &dl->v[i];
    if( d->sev==GR_SEV_WARNING && listed(cg->werror, cg->nwerror, d->code) ) raise_to_error(dl, d, "-Werror=");
    else if( listed(cg->fail_codes, cg->nfail_codes, d->code) ) raise_to_error(dl, d, "--fail-on ");
  }
  if( cg->baseline ){
    gr_baseline b;
    gr_error err;
    char today[16];
    time_t now = time(NULL);
    struct tm tm;
    memset(&err, 0, sizeof err);
    if( gr_baseline_read(&b, cg->baseline, &err)!=0 ){
      gr_diags e;
      gr_diags_init(&e);
      gr_diags_add(&e, GR_SEV_ERROR, cg->baseline, err.line, err.col, "%s", err.msg);
      cli_print_diags(&e);
      gr_diags_free(&e);
      gr_baseline_free(&b);
      (void)cmd;
      return -1;
    }
    gmtime_r(&now, &tm);
    strftime(today, sizeof today, "%Y-%m-%d", &tm);
    gr_baseline_apply(&b, dl, today);
    gr_baseline_free(&b);
  }
  return 0;
}
