/*
** lpattern.h: Lua 5.4 patterns (the manual's section 6.4.1) matched by a
** backtracking matcher that can be interrupted. Stock Lua's matcher runs in
** C without ever returning to the VM, so a pattern like ".-.-.-.-b" over a
** long subject escapes every limit of a hook; this one counts its steps and
** asks the caller every GR_LPAT_CHECK_STEPS steps whether to go on. It knows
** nothing of Lua states: the sandbox's string.find/match/gmatch/gsub
** (hooks/safelib.c) and the C-side name filters of gr.on_node
** (hooks/stages.c) sit on top of it, and fuzz/fuzz-lpattern.c drives it alone.
**
** Ownership: a gr_lpat is a caller-owned value (usually on the stack) that
** borrows the subject and the pattern for as long as it is used; captures
** point into the subject. Nothing is allocated.
*/
#ifndef GR_LPATTERN_H
#define GR_LPATTERN_H

#include <setjmp.h>
#include <stddef.h>

#define GR_LPAT_MAXCAP 32             /* captures per pattern, as stock Lua */
#define GR_LPAT_MAXDEPTH 200          /* matcher recursion, as stock Lua's MAXCCALLS */
#define GR_LPAT_CHECK_STEPS 4096      /* steps between two calls of the interrupt function */
#define GR_LPAT_CAP_UNFINISHED (-1)   /* gr_lpat_cap.len of a capture still open */
#define GR_LPAT_CAP_POSITION (-2)     /* gr_lpat_cap.len of a position capture "()" */

/* Returns nonzero to stop the match; msg (n bytes) then says why. */
typedef int (*gr_lpat_interrupt)(void *ud, char *msg, size_t n);

typedef struct gr_lpat_cap { const char *init; ptrdiff_t len; } gr_lpat_cap;

typedef struct gr_lpat {
  const char *src_init, *src_end;            /* the subject */
  const char *pat, *p_end;                   /* the pattern */
  gr_lpat_interrupt interrupt; void *ud;     /* NULL: never interrupted */
  int level;                                 /* captures of the last match */
  gr_lpat_cap cap[GR_LPAT_MAXCAP];
  char err[160];                             /* why the last call returned -1 */
  /* private */
  int depth;
  unsigned steps;
  jmp_buf jb;
} gr_lpat;

/* Prepares a match of pattern [p, p+lp) against the subject [s, s+ls).
** The pattern is taken as it is: an anchor '^' is the caller's business
** (skip it and search only at one position). */
void gr_lpat_init(gr_lpat *m, const char *s, size_t ls, const char *p, size_t lp,
                  gr_lpat_interrupt interrupt, void *ud);

/* Matches the pattern at position at (src_init <= at <= src_end). Returns 1
** with *end the end of the match and m->level/m->cap its captures, 0 when
** it does not match there, -1 on a malformed pattern, a pattern too complex
** or an interrupt, with the message in m->err. */
int gr_lpat_match(gr_lpat *m, const char *at, const char **end);

/* Checks a whole pattern without matching (gr_lpat_match finds a problem
** only where the match gets to it); returns NULL or the problem. */
const char *gr_lpat_problem(const char *p, size_t lp);

/* Searches the subject for the pattern as string.find does (a leading '^'
** anchors at the start): 1 found (*start, *end set when not NULL), 0 not
** found, -1 error with the message in err. */
int gr_lpat_search(const char *s, size_t ls, const char *p, size_t lp, gr_lpat_interrupt interrupt,
                   void *ud, size_t *start, size_t *end, char *err, size_t nerr);

/* 1 when p has a character that makes it more than plain text. */
int gr_lpat_has_specials(const char *p, size_t lp);

#endif
