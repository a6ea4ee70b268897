/*
** html.h: the HTML report of `gerules eval --format html` (html.c): one
** self-contained page with the header, the diagnostics linked to their
** nodes, a sortable and filterable node table, and the graph drawn as a
** layered DAG coloured by any decision slot (precision mode by default),
** with zoom, pan, search by name and every node's --explain chain.
**
** Ownership: reads the result, writes to the gr_out given; nothing it
** allocates outlives the call.
*/
#ifndef GR_HTML_H
#define GR_HTML_H

#include "eval/eval.h"
#include "report/out.h"
#include "report/report.h"

void gr_report_html(gr_out *o, gr_result *r, const gr_report_opts *ro);

#endif
