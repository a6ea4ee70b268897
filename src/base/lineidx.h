/*
** lineidx.h: the start of every line of a text held in memory, found in one
** pass, so that each diagnostic's source line (its caret snippet) is one
** lookup instead of a scan from the top of the file. The index is built
** on the first lookup (gr_lineidx_get, _dup, _count), so a text nobody
** reports a line of costs nothing beyond registering it.
**
** Ownership: a gr_lineidx borrows the text it indexes (which must outlive
** it) and owns only its array of line starts, released by gr_lineidx_free.
** gr_lineidx_dup returns a malloc'ed copy the caller frees.
*/
#ifndef GR_LINEIDX_H
#define GR_LINEIDX_H
#include <stddef.h>
#include <stdint.h>

typedef struct gr_lineidx {
  const char *text;      /* borrowed */
  size_t len;
  size_t *start;         /* start[k] = offset of line k+1 (once built) */
  size_t n;              /* number of lines (once built) */
  int built;             /* start and n are set: read them through the functions */
} gr_lineidx;

/* Registers text[0..len) to be indexed on the first lookup (one memchr
** pass then). text may be NULL: no lines. The lookups take a const index
** but build it in place on first use: an index is not shared between
** threads while it may be unbuilt. */
void gr_lineidx_init(gr_lineidx *ix, const char *text, size_t len);
/* The number of lines (building the index). */
size_t gr_lineidx_count(const gr_lineidx *ix);
/* Line `line` (1-based) without its newline or a trailing '\r', and its
** length; NULL when there is no such line. */
const char *gr_lineidx_get(const gr_lineidx *ix, uint32_t line, size_t *len);
/* The same as a malloc'ed string, or NULL. */
char *gr_lineidx_dup(const gr_lineidx *ix, uint32_t line);
void gr_lineidx_free(gr_lineidx *ix);

#endif
