/*
** load_options.h: what gerules.c needs of load_options.c: loading a rule
** set under the trust policy of a gerules_load_options (or the default
** one), through the same guarded loader as the gerules command.
**
** Ownership: the rule set returned belongs to the caller; diagnostics are
** appended to d.
*/
#ifndef GR_API_LOAD_OPTIONS_H
#define GR_API_LOAD_OPTIONS_H

#include "api/gerules.h"
#include "base/diag.h"
#include "lang/ruleset.h"

/* o NULL: the default policy. NULL when the rules have errors or
** verification refuses them (then the diagnostics say why). */
gr_ruleset *gr_api_load_guarded(const char *const *paths, size_t n, const gerules_load_options *o, gr_diags *d);

#endif
