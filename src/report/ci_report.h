/*
** ci_report.h: the reports CI systems read. SARIF 2.1.0 (sarif.c): one
** result per diagnostic, a reporting descriptor per diagnostic code with
** help text, physical locations in the ini, options and graph files, nodes
** and options as logical locations, gerules' version as the driver and the
** rule bundle as a tool extension. GitHub Actions workflow commands
** (github.c): one `::error file=...,line=...,col=...,title=CODE::message`
** line per diagnostic.
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
void gr_report_github(gr_out *o, const gr_result *r, const gr_report_opts *ro);

#endif
