/*
** srclines.h: the source lines a diagnostic points at, for the caret display
** of diagnostics located in input files (ini, options and graph files) whose
** records carry no snippet. Files are mapped read-only on first use and
** never modified; line starts are indexed lazily, only as far as the
** highest line asked for, so a diagnostic near the top of a 290 MB graph
** reads only the top.
**
** Ownership: a gr_srclines owns its mappings and indexes (gr_srclines_free
** unmaps all). A returned line points into a mapping and stays valid until
** gr_srclines_free.
*/
#ifndef GR_SRCLINES_H
#define GR_SRCLINES_H

#include <stddef.h>
#include <stdint.h>

typedef struct gr_srclines gr_srclines;

gr_srclines *gr_srclines_new(void);
/* The text of line `line` (1-based) of `file` without its newline, or NULL
** when the file is not a readable regular file or has fewer lines. A line
** longer than GR_SRCLINE_MAX bytes comes back cut at that length. */
#define GR_SRCLINE_MAX ((size_t)1 << 20)
const char *gr_srclines_get(gr_srclines *s, const char *file, uint32_t line, size_t *len);
void gr_srclines_free(gr_srclines *s);

#endif
