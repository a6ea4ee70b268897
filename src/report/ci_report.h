/*
** ci_report.h: the reports CI systems read. SARIF 2.1.0 (sarif.c): one
** result per diagnostic, a reporting descriptor per diagnostic code with
** help text, physical locations in the ini, options and graph files, nodes
** and options as logical locations, gerules' version as the driver and the
** rule bundle as a tool extension. GitHub Actions workflow commands
** (github.c): one `::error file=...,line=...,col=...,title=CODE::message`
** line per diagnostic. JUnit XML (junit.c): a test case per diagnostic,
** failing for errors (and warnings when they fail the run). The failure
** document of each (failure.c): what a CI step reads when the input could
** not be evaluated (exit status 2) instead of a missing or empty file.
**
** Ownership: the reporters only read the result and write to the gr_out
** given; they allocate nothing that outlives the call.
*/
#ifndef GR_CI_REPORT_H
#define GR_CI_REPORT_H

#include "eval/eval.h"
#include "report/out.h"
#include "report/report.h"

void gr_report_sarif(gr_out *o, const gr_result *r, const gr_report_opts *ro);
/* The same over any diagnostics list (gerules check, tile, test): rs may be
** NULL (a rule set that failed to load: no bundle, help from the codes
** only), chip and graph_path too. */
void gr_report_sarif_diags(gr_out *o, const gr_ruleset *rs, const gr_diags *d, const char *chip, const char *graph_path);
/* success 0: the run failed (exit 2): no results, invocations[0] with
** executionSuccessful false and the diagnostics as tool notifications. */
void gr_report_sarif_run(gr_out *o, const gr_ruleset *rs, const gr_diags *d, const char *chip,
                         const char *graph_path, int success);
void gr_report_github(gr_out *o, const gr_result *r, const gr_report_opts *ro);
void gr_report_github_diags(gr_out *o, const gr_diags *d);

/* JUnit XML as Jenkins, GitLab and junitparser read it: one <testsuite>
** named after the command and graph, one <testcase> per diagnostic (class
** name the code, name its place), a <failure> for an error and, when
** warnings_fail is set (--fail-on warning), for a warning; notes pass with
** their text in <system-out>. A run without diagnostics has one passing
** case. failed: the run itself failed (exit 2): one case with an <error>
** per diagnostic. */
void gr_report_junit(gr_out *o, const gr_result *r, const gr_report_opts *ro);
void gr_report_junit_diags(gr_out *o, const char *suite, const gr_diags *d, int warnings_fail, int failed);

/* The document of a run that failed (exit status 2: no rule set, an
** unreadable model, a bad options file) in a CI format, from the
** diagnostics that say why: "json" (doc/schemas/eval-failure.schema.json),
** "sarif", "github" or "junit". rs (may be NULL) names the rule bundle.
** Returns -1 for any other format (nothing written). */
int gr_report_failure(gr_out *o, const char *format, const gr_ruleset *rs, const gr_diags *d,
                      const char *chip, const char *graph_path);

#endif
