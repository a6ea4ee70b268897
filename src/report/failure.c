/*
** failure.c: the CI formats' document for a run that could not be
** evaluated (exit status 2: the rule set, the model or an options file
** could not be read). A CI step that uploads --output would otherwise find
** no file, or an empty one, and hide the reason: each format says the run
** failed the way its consumers expect (SARIF: executionSuccessful false and
** the reasons as tool notifications; JSON: status "failed" and the
** diagnostics; GitHub: `::error` commands; JUnit: a case in error).
*/
#include "config.h"
#include <string.h>
#include "report/ci_report.h"

static void failure_json(gr_out *o, const gr_ruleset *rs, const gr_diags *dl, const char *chip, const char *graph_path){
  gr_jw w;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "gerules"); gr_jw_str(&w, PACKAGE_VERSION);
  gr_jw_key(&w, "status"); gr_jw_str(&w, "failed");
  gr_jw_key(&w, "exit_status"); gr_jw_int(&w, 2);
  gr_jw_key(&w, "rules");
  if( rs ){
    gr_jw_obj(&w);
    gr_jw_key(&w, "bundle"); gr_jw_str(&w, rs->bundle_name);
    gr_jw_key(&w, "version"); gr_jw_str(&w, rs->bundle_version);
    gr_jw_end_obj(&w);
  }else gr_jw_null(&w);
  gr_jw_key(&w, "chip"); gr_jw_str(&w, chip);
  gr_jw_key(&w, "graph"); gr_jw_str(&w, graph_path);
  gr_report_diags_json(&w, dl, -1);
  gr_jw_end_obj(&w);
  gr_out_putc(o, '\n');
}

int gr_report_failure(gr_out *o, const char *format, const gr_ruleset *rs, const gr_diags *dl,
                      const char *chip, const char *graph_path){
  if( strcmp(format, "json")==0 ) failure_json(o, rs, dl, chip, graph_path);
  else if( strcmp(format, "sarif")==0 ) gr_report_sarif_run(o, rs, dl, chip, graph_path, 0);
  else if( strcmp(format, "github")==0 ) gr_report_github_diags(o, dl);
  else if( strcmp(format, "junit")==0 ){
    gr_buf s;
    gr_buf_init(&s);
    gr_buf_printf(&s, "gerules eval %s", graph_path ? graph_path : "-");
    gr_report_junit_diags(o, gr_buf_cstr(&s), dl, 0, 1);
    gr_buf_free(&s);
  }else return -1;
  return 0;
}
