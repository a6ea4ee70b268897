/*
** gerules_internal.h: what the gerules command needs beyond the public API
** (gerules.h), which it otherwise uses for every evaluation and report:
** wrapping a rule set it loaded itself, changing the model before it is
** evaluated (atc's --input_shape, tile's --node and --type look-ups), the
** model, result and hooks of an evaluation (the node look-up, `tile`'s
** planner and Lua tiling functions, `diff`'s comparison), a request with no
** hooks or no model (`diff --graph`, `options --chip`), a second evaluation
** of the same model under another rule set (`diff`) and the --output file
** checked against the files an evaluation read (`tile`). Every command that
** evaluates (eval, atc, tile, diff, options --chip) goes through
** gerules_evaluate (or gr_api_evaluate_on, the same orchestrator). The command loads its rule stack once per run in
** src/cli/cli_rules.c (with --trust, --allow-downgrade and the CANN choice
** among installed bundles), verifying each bundle with the same loader as
** gerules_rules_load_with (src/bundle/guard.c), and keeps that set for
** every command; everything after loading goes through gerules_request /
** gerules_evaluate / gerules_eval_write like any embedder's code.
**
** Ownership: gr_api_rules_adopt borrows rs (the caller frees it, after
** gerules_rules_free of the wrapper and of every evaluation made from it);
** the wrapper copies path. The result, hooks and model returned belong to
** the evaluation. An evaluation made by gr_api_evaluate_on borrows the
** model of model_of: free it first.
*/
#ifndef GR_API_INTERNAL_H
#define GR_API_INTERNAL_H

#include "api/gerules.h"
#include "lang/ruleset.h"
#include "base/diag.h"
#include "model/graph.h"
#include "eval/eval.h"
#include "hooks/hooks.h"
#include "report/out.h"
#include "api/gears.h"

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
typedef int (*gr_api_graph_hook)(void *ud, gr_graph *g, const gr_ruleset *rs, gr_diags *d);
void gr_api_request_set_graph_hook(gerules_request *q, gr_api_graph_hook fn, void *ud);
/* ATC's gears (atc, eval and tile with a gear flag): the evaluation is of
** gear 0 (the graph hook gave the graph its dims), then every other gear is
** evaluated as well (api/gears.c) and the reports show what differs. */
void gr_api_request_set_gears(gerules_request *q, size_t n, gr_api_gear_fn fn, void *ud);
/* Runs no hook, not even the bundle's (`diff --graph` compares the rules alone). */
void gr_api_request_set_no_hooks(gerules_request *q);
/* Evaluates the options alone, without a model (`options --chip`): the
** evaluation has a result (gr_api_eval_result) and no report. */
void gr_api_request_set_no_model(gerules_request *q);
/* q evaluated under rules on the model model_of read (read once, its
** graph hook already run; `diff` evaluates one model under two rule sets);
** NULL when model_of has no model. */
gerules_eval *gr_api_evaluate_on(const gerules_rules *rules, const gerules_request *q, const gerules_eval *model_of);
/* The evaluator's result (NULL for status 2), for the command's own
** readers of it: `tile`'s planner and `diff`'s comparison. */
gr_result *gr_api_eval_result(gerules_eval *ev);
/* The Lua state the evaluation ran its hooks in, or NULL (none loaded or
** status 2): `tile` runs the hooks' tiling functions in it. */
gr_hooks *gr_api_eval_hooks(gerules_eval *ev);
/* Opens path for writing atomically (report/out.h), refusing any file the
** evaluation read (model, options files, hooks, rule files, option-value
** files) and anything not a regular file: 0, or -1 with err set. What
** gerules_eval_write_file writes through; `tile` writes its own report. */
int gr_api_eval_open_output(const gerules_eval *ev, const char *path, gr_out *o, gr_error *err);

#endif
