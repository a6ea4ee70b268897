/*
** gerules_internal.h: the one thing the gerules command needs beyond the
** public API (gerules.h), which it otherwise uses for every evaluation and
** report: wrapping a rule set it loaded itself, changing the model before
** it is evaluated (atc's --input_shape) and the model of an evaluation for
** its node look-up. The command loads its rule stack once per run in
** src/cli/cli_rules.c (with --trust, --allow-downgrade and the CANN choice
** among installed bundles), verifying each bundle with the same loader as
** gerules_rules_load_with (src/bundle/guard.c), and keeps that set for
** every command; everything after loading goes through gerules_request /
** gerules_evaluate / gerules_eval_write like any embedder's code.
**
** Ownership: gr_api_rules_adopt borrows rs (the caller frees it, after
** gerules_rules_free of the wrapper and of every evaluation made from it);
** the wrapper copies path.
*/
#ifndef GR_API_INTERNAL_H
#define GR_API_INTERNAL_H

#include "api/gerules.h"
#include "lang/ruleset.h"
#include "base/diag.h"
#include "model/graph.h"

/* NULL (with the error in d) when the rules' ONNX shape table is bad. */
gerules_rules *gr_api_rules_adopt(gr_ruleset *rs, const char *path, gr_diags *d);
/* The model an evaluation read (NULL for status 2), for the command's node
** lookup by graph-qualified name with suggestions (cli_find_node). */
const gr_graph *gr_api_eval_graph(const gerules_eval *ev);
/* The diagnostics of an evaluation of status 0 or 1, for the command's
** per-code gates and baseline to change before the report is written
** (NULL for status 2). */
gr_diags *gr_api_eval_diags_mut(gerules_eval *ev);
/* A change to the model after it is read and before it is evaluated (the
** atc command's --input_shape): fn returns 0, or -1 to end the evaluation
** with status 2 (fn has said why; no diagnostic is added). */
typedef int (*gr_api_graph_hook)(void *ud, gr_graph *g, const gr_ruleset *rs);
void gr_api_request_set_graph_hook(gerules_request *q, gr_api_graph_hook fn, void *ud);

#endif
