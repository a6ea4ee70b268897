/*
** hooks.h: Lua site policies (`gerules eval --hook FILE.lua`, and `hook
** "x.lua";` in a rule bundle). Each script runs in its own sandboxed Lua 5.4
** state (base minus dofile/loadfile/collectgarbage, string minus dump, table,
** math, utf8; text-only load; no io, os, package or debug) with a memory cap,
** an instruction budget and a wall-clock limit that also covers long library
** calls (pattern matching and table shifting are done by gerules' own
** interruptible code). When loaded, a script registers callbacks for the
** evaluation stages (options resolved, each node filtered by op type or name,
** after all nodes) and per-op tiling functions; gr_hooks_vtable() plugs them
** into gr_eval (gr_eval_config.hooks). The Lua API is documented in
** doc/lua-api.md.
**
** Ownership: a gr_hooks owns its Lua states, the copies of the script paths
** and every registration; gr_hooks_free releases all (NULL is fine). It
** borrows the rule set given to gr_hooks_new and, while an evaluation runs
** and until the next one starts, the gr_result the stage callbacks were
** called with: that result (and its graph) must outlive any later call of
** gr_hooks_run_tiling for it. The library never prints: `print` output goes
** to the log function set with gr_hooks_set_log, or nowhere.
*/
#ifndef GR_HOOKS_H
#define GR_HOOKS_H

#include <stddef.h>
#include <stdint.h>
#include "eval/eval.h"
#include "tiling/tiling.h"

typedef struct gr_hooks gr_hooks;

typedef struct gr_hooks_limits {
  size_t memory;            /* bytes per script (Lua state); default 64 MiB */
  uint64_t instructions;    /* VM instructions per evaluation, all scripts together; default 100 million */
  double timeout;           /* seconds of hook run time per evaluation, all scripts together; default 10 */
  int test_coroutines;      /* tests only: also open the coroutine library */
} gr_hooks_limits;

void gr_hooks_limits_default(gr_hooks_limits *lim);

/* A new, empty set of hooks for rule set rs (lim NULL: the defaults). */
gr_hooks *gr_hooks_new(const gr_ruleset *rs, const gr_hooks_limits *lim);
void gr_hooks_free(gr_hooks *h);

/* Where `print` goes: fn receives one line "file:line: text" (no newline). */
void gr_hooks_set_log(gr_hooks *h, void (*fn)(void *ud, const char *line), void *ud);

/* Loads a script and runs its top level (where it registers its callbacks).
** Scripts run in load order. Returns -1 with err filled on a read error, a
** syntax error, a runtime error or an exceeded limit: err->line is the
** script line when known and err->msg the message (with a Lua traceback
** where Lua gives one), to be shown as "path:line: error: msg". */
int gr_hooks_load_file(gr_hooks *h, const char *path, gr_error *err);
/* The same from memory; name is the path shown in messages. */
int gr_hooks_load_buffer(gr_hooks *h, const char *name, const char *src, size_t len, gr_error *err);

/* The callbacks for gr_eval_config.hooks (valid until gr_hooks_free). A
** failing callback adds an error diagnostic located in the script (with the
** traceback in its message), sets r->fatal and returns -1. */
const gr_eval_hooks *gr_hooks_vtable(gr_hooks *h);

/* ---- the tiling bridge: Lua tiling functions for custom operators ----
** gr.tiling(op_type, function(node, chip) ... return plan end), where plan is
** {block_dim=, tile_shape={...}, tiles={{offset={...}, size={...}, core=n}, ...},
**  ub_bytes=, l1_bytes=, l0a_bytes=, l0b_bytes=, l0c_bytes=, buffers=, double_buffer=}.
** Offsets are 0-based element offsets, cores 0-based core ids. The plan is
** read into gr_custom_tiling, defined in tiling/tiling.h. */
int  gr_hooks_has_tiling(gr_hooks *h, const char *op_type);
/* Runs the tiling function registered for the node's op type, under the same
** sandbox and limits (the budget of r's evaluation continues). Returns 0 and
** fills out (free with gr_custom_tiling_free), or -1 on a Lua error, an
** exceeded limit or a wrong shape of the returned table, with nothing left
** allocated: err->msg is "file:line: msg". */
int  gr_hooks_run_tiling(gr_hooks *h, gr_result *r, uint32_t node, gr_custom_tiling *out, gr_error *err);
void gr_custom_tiling_free(gr_custom_tiling *t);

#endif
