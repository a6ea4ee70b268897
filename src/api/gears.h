/*
** gears.h: evaluating every gear of ATC's gear flags (--dynamic_batch_size,
** --dynamic_image_size, --dynamic_dims) as the static graph ATC builds for
** it, through the one evaluator (gr_eval), and keeping what differs between
** gears for the reports (report/gears.h).
**
** Ownership: gr_api_gears_run returns a gr_gears the caller frees with
** gr_gears_free and free; it borrows everything it is given and leaves the
** graph with gear 0's dims, as the first result saw it.
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
** other gear is evaluated under cfg (without provenance) on g with its dims. */
gr_gears *gr_api_gears_run(const gr_ruleset *rs, const gr_eval_config *cfg, const gr_result *r0, gr_graph *g,
                           size_t n, gr_api_gear_fn fn, void *ud);

#endif
