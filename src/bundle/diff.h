/*
** diff.h: what changes between two rule sets (`gerules diff OLD NEW`): the
** declarations added, removed and changed (product lines, SoCs with their
** hardware numbers and capabilities, options with their values, defaults
** and product support, modes, tables, slots (cascades, values, labels),
** sources and their branches, rules, relations), and, for one evaluation of
** the same graph and options under both, the node decisions and diagnostics
** whose outcome changes. Declarations are matched by name, support by
** product-line name, so two rule sets need not declare things in the same
** order.
**
** Ownership: a gr_diff owns its changes and every string in them
** (gr_diff_free). It keeps no pointer into the rule sets or results.
*/
#ifndef GR_DIFF_H
#define GR_DIFF_H

#include <stddef.h>
#include "lang/ruleset.h"
#include "eval/eval.h"
#include "base/diag.h"

enum { GR_CH_ADDED = 1, GR_CH_REMOVED, GR_CH_CHANGED };

typedef struct gr_change {
  int op;                     /* GR_CH_* */
  const char *kind;           /* "soc", "option", ... "node", "diagnostic" (static) */
  char *name;
  char **details; size_t ndetails;   /* for a change: one line per difference; for a
                                        node: details[0] is the slot's name (JSON),
                                        details[1] its label (text: NEW's `column`) */
  char *old_value, *new_value;       /* node decisions: "value (source)" before and after */
  gr_diags diag;                     /* a diagnostic added or removed: its copy (one record) */
} gr_change;

typedef struct gr_diff { gr_change *v; size_t n, cap; } gr_diff;

void gr_diff_init(gr_diff *d);
void gr_diff_rulesets(const gr_ruleset *a, const gr_ruleset *b, gr_diff *out);
/* Both results evaluate the same graph (node indexes correspond). */
void gr_diff_results(const gr_result *a, const gr_result *b, gr_diff *out);
void gr_diff_free(gr_diff *d);

#endif
