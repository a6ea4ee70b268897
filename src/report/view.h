/*
** view.h: what the graph pictures of the HTML and DOT reports share: one
** colour per value of a slot (precision mode, tiling placement, ...), so a
** mode has the same colour in every picture of every model. A value's colour
** is given by its place among the slot's declared values (for a slot whose
** values are the rule set's modes, the place of the mode), from a palette of
** twelve colours that stay distinguishable for the common kinds of colour
** blindness (Tol's "muted" scheme plus four); "no decision" is light grey.
**
** Ownership: the strings returned are static.
*/
#ifndef GR_VIEW_H
#define GR_VIEW_H

#include <stddef.h>
#include "lang/ruleset.h"

#define GR_VIEW_NONE "#d5d9de"     /* no source decided the slot */
#define GR_VIEW_NPALETTE 12
extern const char *const gr_view_palette[GR_VIEW_NPALETTE];

/* Which slots the pictures show, by their place in the rule set (the shipped
** rules: precision_mode, tiling, execution): the fill colour, the outline
** colour, and the mark (DOT: the outline's style; HTML: a band along the
** node's left edge, in the value's colour). A rule set with fewer slots shows
** fewer channels. */
enum { GR_VIEW_FILL = 0, GR_VIEW_OUTLINE = 1, GR_VIEW_MARK = 2 };

/* The place of `value` among the slot's declared values (the modes for a
** `values mode` slot); -1 for NULL or a value the slot does not declare. */
int gr_view_index(const gr_ruleset *rs, size_t slot, const char *value);

/* The colour of `value` in slot `slot` (GR_VIEW_NONE for NULL). */
const char *gr_view_colour(const gr_ruleset *rs, size_t slot, const char *value);
/* The values a slot may take, in colour order: *n set; NULL when any string. */
const char *const *gr_view_values(const gr_ruleset *rs, size_t slot, size_t *n);

#endif
