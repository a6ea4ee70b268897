/*
** gears.h: what the reports say about gears (ATC's --dynamic_batch_size,
** --dynamic_image_size, --dynamic_dims): each gear's input shapes and, per
** gear, the node decisions that are not the same in every gear. The
** evaluation of every gear (src/api/gears.c) fills it; the text and JSON
** reports render it (gears.c), the SARIF, HTML and DOT reports use it.
**
** Ownership: a gr_gears owns every string and array in it (gr_gears_free);
** the reports borrow it.
*/
#ifndef GR_REPORT_GEARS_H
#define GR_REPORT_GEARS_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "report/out.h"

struct gr_result;
struct gr_jw;

typedef struct gr_gear_input {
  char *name;                       /* the input as --input_shape names it ("" by index) */
  GR_VEC(int64_t) dims;             /* its static dims in this gear */
} gr_gear_input;

typedef struct gr_gear_diff {
  uint32_t node, slot;
  char *value;                      /* this gear's decision, NULL when none */
} gr_gear_diff;

typedef struct gr_gear {
  char *profile;                    /* the gear's values as the flag gives them ("640,640") */
  GR_VEC(gr_gear_input) inputs;
  GR_VEC(gr_gear_diff) diffs;       /* the (node, slot) pairs not the same in every gear, node-major */
} gr_gear;

typedef struct gr_gears {
  char *flag, *value;               /* "--dynamic_image_size", "640,640;960,960" */
  GR_VEC(gr_gear) v;
  uint32_t nodes_differ;            /* nodes with a decision not the same in every gear */
} gr_gears;

void gr_gears_free(gr_gears *gs);

/* The text report's gears section (after the node table). */
void gr_report_gears_text(gr_out *o, const struct gr_result *r, const gr_gears *gs);
/* The JSON report's "gears" key and array (one entry per gear). */
void gr_report_gears_json(struct gr_jw *w, const struct gr_result *r, const gr_gears *gs);
/* An array of each gear's index (from 1), profile and inputs (the SARIF
** run's properties, the JSON report's entries without their nodes). */
void gr_report_gears_profiles_json(struct gr_jw *w, const gr_gears *gs);

#endif
