/*
** suggest.h: "did you mean" for every kind of name. The distance is
** Damerau-Levenshtein in its optimal-string-alignment form (an insertion, a
** deletion, a substitution or a transposition of two neighbours is one edit),
** ignoring case; how far a suggestion may be grows with the length of the
** word. Among equally close names the one that differs least in case, then in
** length, then the first in byte order wins, so a suggestion never depends on
** the order names are offered in.
**
** Ownership: a gr_suggester borrows the word and every name offered to it;
** the best name it returns is one of those pointers. Nothing is allocated.
*/
#ifndef GR_SUGGEST_H
#define GR_SUGGEST_H

#include <stddef.h>

/* Edit distance ignoring case, capped: returns cap + 1 when larger (and for
** words over 64 bytes, which no one mistypes into a name). */
unsigned gr_edit_distance(const char *a, const char *b, unsigned cap);

/* Collects the closest name while names are offered one at a time, so a
** caller walking a table needs no array of names. */
typedef struct gr_suggester {
  const char *word;
  size_t wlen;
  unsigned cap;            /* the farthest distance suggested */
  const char *best;
  unsigned best_d;         /* distance of best */
  size_t best_tie;         /* case and length differences of best */
} gr_suggester;

void gr_suggest_begin(gr_suggester *s, const char *word);
void gr_suggest_offer(gr_suggester *s, const char *name);
/* The closest name offered, or NULL when none is close enough. */
static inline const char *gr_suggest_best(const gr_suggester *s){ return s->best; }

/* One call over an array of names. */
const char *gr_suggest(const char *word, const char *const *names, size_t n);

#endif
