/*
** onnx_rules.h: the ONNX op mapping built from a rule set's onnx mapping
** statements and its table onnx_shapes (see onnx_map.h).
**
** Ownership: the caller frees the returned map (gr_opmap_free), before the
** rule set, which the map borrows.
*/
#ifndef GR_ONNX_RULES_H
#define GR_ONNX_RULES_H

#include "lang/ruleset.h"
#include "model/onnx_map.h"

/* An empty map when the rule set maps no ONNX op; NULL (errors appended to
** d, located at the bad entries) when table onnx_shapes has a bad entry. */
gr_opmap *gr_onnx_map_from_rules(const gr_ruleset *rs, gr_diags *d);

#endif
