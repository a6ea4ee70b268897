/*
** dot.h: the Graphviz report of `gerules eval --format dot` (dot.c): the
** model's graph with every node filled with the colour of its first slot's
** value (the precision mode) and outlined in the colour of its second (the
** tiling placement), the colours of view.h (as in the HTML report), one
** cluster per graph of the model and a legend.
**
** Ownership: reads the result, writes to the gr_out given; nothing it
** allocates outlives the call.
*/
#ifndef GR_DOT_H
#define GR_DOT_H

#include "eval/eval.h"
#include "report/out.h"
#include "report/report.h"

void gr_report_dot(gr_out *o, gr_result *r, const gr_report_opts *ro);

#endif
