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

/* The forms of the JSON report's provenance: each node's entries in its
** object, or each node's indices into one table of the distinct entries,
** "provenance_entries" (--provenance-table; doc/json-schema.md 3.4.1). */
#define GR_PROV_INLINE 1
#define GR_PROV_TABLE  2

typedef struct gr_report_opts {
  int all_nodes;              /* text: every node, not only the changed ones */
  int provenance;             /* JSON: per-node provenance arrays: 0 none, GR_PROV_INLINE, GR_PROV_TABLE */
  const char *rules_path;     /* shown in headers */
  const char *graph_path;
  int quiet;                  /* text: diagnostics and the summary only */
  int color;                  /* text: SGR colours in diagnostics (a terminal) */
  int width;                  /* text: columns of the terminal (0 unknown, -1 --wide: never cut names) */
  struct gr_srclines *src;    /* text: source lines for carets (report/srclines.h), or NULL */
  int warnings_fail;          /* junit: warnings fail the run (--fail-on warning) */
  const struct gr_gears *gears; /* text, json: ATC's gears (report/gears.h), or NULL */
  const char *colour_by;      /* html, dot: the slot the boxes are filled by (NULL or unknown: the first) */
  int shared_tails;           /* json: "nodes" as the HTML page carries them (node_names, node_tail,
                              ** node_tails: each distinct object without its name once); never
                              ** in the eval report a user reads */
} gr_report_opts;

void gr_report_json(gr_out *o, gr_result *r, const gr_report_opts *ro);
/* One diagnostic the way the text report shows it: gcc style, the source
** line and caret from ro->src when the record has none, its node and option. */
void gr_report_diag(gr_buf *b, const gr_diag *d, const gr_report_opts *ro);
/* One diagnostic as the JSON object of the eval report's diagnostics[]
** (also what check and test write). */
void gr_report_diag_json(gr_jw *w, const gr_diag *d);
/* One diagnostic without its place (severity, code, message, node, option,
** rule): an outcome of `gerules diff --graph --format json`. */
void gr_report_diag_json_brief(gr_jw *w, const gr_diag *d);
/* The "diagnostics" array and the "summary" counts (with "nodes" first when
** nodes >= 0) of every JSON document that carries a diagnostics list: the
** eval report, the failure document, `check`. */
void gr_report_diags_json(gr_jw *w, const gr_diags *d, long nodes);
/* baseline: the same evaluation without user options (NULL: list every node) */
void gr_report_text(gr_out *o, gr_result *r, const gr_result *baseline, const gr_report_opts *ro);
void gr_report_explain(gr_out *o, gr_result *r, uint32_t node, int json, const gr_report_opts *ro);

/* The decision chain of one node, row by row, for every reporter of it
** (text and JSON --explain, the HTML page): per slot a GR_XR_SLOT row (the
** decided value and source), a GR_XR_CAND row for each branch of each source
** in cascade order until a branch yields (status "won", "beaten",
** "replaced by hook", "condition false" or "no value"), a GR_XR_HOOK row when
** a hook set the slot, then GR_XR_SLOT_END. The row's strings are valid
** during the callback only. */
enum { GR_XR_SLOT = 1, GR_XR_CAND, GR_XR_HOOK, GR_XR_SLOT_END };
typedef struct gr_explain_row {
  int kind;                   /* GR_XR_* */
  size_t slot;                /* slot index */
  const char *source;         /* source name; "hook"; SLOT: the winner or NULL */
  size_t place, branch;       /* CAND: 1-based place in the cascade and branch */
  const char *status;         /* CAND, HOOK */
  const char *value;          /* SLOT: decided; CAND: yielded (NULL if none); HOOK: set */
  const char *replaced;       /* HOOK: what the cascade had decided */
  const gr_origin *input;     /* CAND: the user input behind the value, or NULL */
  const char *rule;           /* CAND: "file:line" of the branch; HOOK: of the hook call */
  const char *bundle;         /* CAND in a stack of bundles: "name version" of the branch's bundle, else NULL */
  const char *reason;         /* rendered `because` (CAND) or the hook's reason, or NULL */
  const char *failed;         /* CAND: the false conjunct, or the value expression that was null */
  const char *no_effect;      /* SLOT: why the decided value does not take effect, or NULL when it does */
} gr_explain_row;
void gr_explain_walk(gr_result *r, uint32_t node, void (*fn)(void *ud, const gr_explain_row *row), void *ud);

#endif
