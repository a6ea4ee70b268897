/*
** gears.h: evaluating every gear of ATC's gear flags (--dynamic_batch_size,
** --dynamic_image_size, --dynamic_dims) as the static graph ATC builds for
** it, through the one evaluator (gr_eval), and keeping what differs between
** gears for the reports (report/gears.h).
**
** Ownership: gr_api_gears_run returns a gr_gears the caller frees with
** gr_gears_free and free; it borrows everything it is given but adds to
** r0's diagnostics, and leaves the graph with gear 0's dims, as r0 saw it.
*/
#ifndef GR_API_GEARS_H
#define GR_API_GEARS_H

#include <stddef.h>
#include "eval/eval.h"
#include "model/graph.h"
#include "report/gears.h"

/* Gives the graph gear k's input dims (k < the number of gears); with gs,
** also fills gs->flag and gs->value (when NULL) and gs->v.v[k]'s profile
** and inputs. */
typedef void (*gr_api_gear_fn)(void *ud, gr_graph *g, size_t k, gr_gears *gs);

/* r0 is the evaluation of gear 0 under cfg (on g with gear 0's dims); each
** other gear is evaluated under cfg (without provenance) on g with its dims.
** Every gear's diagnostics end up in r0's, each once (the same identity:
** severity, codes, node, option, message, rule, location): a diagnostic
** every gear has is left as it is; one that not every gear has is tagged
** with its gears (gr_diag's gears), those of gears after the first added
** after r0's own in the order the gears give them. */
gr_gears *gr_api_gears_run(const gr_ruleset *rs, const gr_eval_config *cfg, gr_result *r0, gr_graph *g,
                           size_t n, gr_api_gear_fn fn, void *ud);

#endif
