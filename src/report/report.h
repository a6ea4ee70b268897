/*
** report.h: the reporters of `gerules eval`: text (header, compiler-style
** diagnostics, summary, the nodes whose settings differ from their defaults),
** JSON (the stable schema of doc/json-schema.md) and the decision chain of
** one node (--explain), in text or JSON.
**
** Ownership: reporters only read the result and write to the gr_out given;
** they allocate nothing that outlives the call.
*/
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include "eval/eval.h"
#include "report/out.h"

typedef struct gr_report_opts {
  int all_nodes;              /* text: every node, not only the changed ones */
  int provenance;             /* JSON: per-node provenance arrays */
  const char *rules_path;     /* shown in headers */
  const char *graph_path;
  int quiet;                  /* text: diagnostics and the summary only */
  int color;                  /* text: SGR colours in diagnostics (a terminal) */
  struct gr_srclines *src;    /* text: source lines for carets (report/srclines.h), or NULL */
} gr_report_opts;

void gr_report_json(gr_out *o, gr_result *r, const gr_report_opts *ro);
/* One diagnostic the way the text report shows it: gcc style, the source
** line and caret from ro->src when the record has none, its node and option. */
void gr_report_diag(gr_buf *b, const gr_diag *d, const gr_report_opts *ro);
/* baseline: the same evaluation without user options (NULL: list every node) */
void gr_report_text(gr_out *o, gr_result *r, const gr_result *baseline, const gr_report_opts *ro);
void gr_report_explain(gr_out *o, gr_result *r, uint32_t node, int json, const gr_report_opts *ro);

/* The reason (rendered `because`) and input origin of a decision. */
void gr_decision_detail(gr_result *r, uint32_t node, int32_t source, uint16_t branch,
                        gr_buf *reason, const gr_origin **input);

#endif
