/*
** onnx_rules.h: the ONNX op mapping built from a rule set's table onnx_ops
** (see onnx_map.h for the row syntax).
**
** Ownership: the caller frees the returned map (gr_opmap_free); the rule set
** may be freed first (every string is copied).
*/
#ifndef GR_ONNX_RULES_H
#define GR_ONNX_RULES_H

#include "lang/ruleset.h"
#include "model/onnx_map.h"

/* An empty map when the rule set has no onnx_ops table; NULL (errors
** appended to d, located at the bad rows) when a row does not parse. */
gr_opmap *gr_onnx_map_from_rules(const gr_ruleset *rs, gr_diags *d);

#endif
