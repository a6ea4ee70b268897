/*
** tile_report.h: the reporters of `gerules tile`: text (the chip, one block
** per tiled node with its plan, memory, data, findings and execution, the
** nodes without a strategy, a summary) and JSON (the schema of
** doc/json-schema.md section 8). They stream: begin, one call per node as
** the tiler hands it out, end with the tiler's summary.
**
** Ownership: a gr_tile_report borrows the output, the tiler and the
** evaluation result given to gr_tile_report_begin; it allocates nothing that
** outlives gr_tile_report_end.
*/
#ifndef GR_TILE_REPORT_H
#define GR_TILE_REPORT_H

#include "eval/eval.h"
#include "base/hashmap.h"
#include "report/out.h"
#include "tiling/tiler.h"

typedef struct gr_tile_report {
  gr_out *o;
  gr_jw w;
  int json, execute;
  const gr_result *r;
  const gr_tiler *t;
  /* the JSON of each execution, rendered once (tile_report.c): by id, the
  ** execution and its text, indexed by the execution's address; freed by
  ** gr_tile_report_end */
  gr_idmap xindex;
  const void **xkey; char **xtext; size_t xn, xcap;
} gr_tile_report;

void gr_tile_report_begin(gr_tile_report *rp, gr_out *o, int json, int execute, const gr_tiler *t,
                          const gr_result *r, const char *graph_path);
void gr_tile_report_node(gr_tile_report *rp, const gr_tnode *n);
void gr_tile_report_end(gr_tile_report *rp);

#endif
