/*
** lineidx.h: the start of every line of a text held in memory, found in one
** pass, so that each diagnostic's source line (its caret snippet) is one
** lookup instead of a scan from the top of the file.
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
  size_t *start;         /* start[k] = offset of line k+1 */
  size_t n;              /* number of lines */
} gr_lineidx;

/* Indexes text[0..len) (one memchr pass). text may be NULL: no lines. */
void gr_lineidx_init(gr_lineidx *ix, const char *text, size_t len);
/* Line `line` (1-based) without its newline or a trailing '\r', and its
** length; NULL when there is no such line. */
const char *gr_lineidx_get(const gr_lineidx *ix, uint32_t line, size_t *len);
/* The same as a malloc'ed string, or NULL. */
char *gr_lineidx_dup(const gr_lineidx *ix, uint32_t line);
void gr_lineidx_free(gr_lineidx *ix);

#endif
