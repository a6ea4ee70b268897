/*
** suggest.c: the distance and the choice behind every "did you mean": an
** optimal-string-alignment Damerau-Levenshtein distance over bytes, compared
** case-insensitively, with three rolling rows and an early exit once a whole
** row exceeds the cap (so offering thousands of far names stays cheap).
*/
#include "config.h"
#include <ctype.h>
#include <string.h>
#include "base/suggest.h"

#define MAXLEN 64

static int same(unsigned char a, unsigned char b){ return tolower(a)==tolower(b); }

unsigned gr_edit_distance(const char *a, const char *b, unsigned cap){
  unsigned rows[3][MAXLEN + 1], *pp, *prev, *cur, best;
  size_t la = strlen(a), lb = strlen(b), i, j;
  if( la > MAXLEN || lb > MAXLEN ) return cap + 1;
  if( (la > lb ? la - lb : lb - la) > cap ) return cap + 1;
  pp = rows[0]; prev = rows[1]; cur = rows[2];
  for(j = 0; j <= lb; j++) prev[j] = (unsigned)j;
  for(i = 1; i <= la; i++){
    unsigned *t;
    cur[0] = (unsigned)i; best = cur[0];
    for(j = 1; j <= lb; j++){
      unsigned cost = same((unsigned char)a[i-1], (unsigned char)b[j-1]) ? 0 : 1;
      unsigned r = prev[j-1] + cost;
      if( prev[j] + 1 < r ) r = prev[j] + 1;
      if( cur[j-1] + 1 < r ) r = cur[j-1] + 1;
      if( i > 1 && j > 1 && same((unsigned char)a[i-1], (unsigned char)b[j-2])
          && same((unsigned char)a[i-2], (unsigned char)b[j-1]) && pp[j-2] + 1 < r )
        r = pp[j-2] + 1;                                   /* a transposition */
      cur[j] = r;
      if( r < best ) best = r;
    }
    if( best > cap ) return cap + 1;
    t = pp; pp = prev; prev = cur; cur = t;
  }
  return prev[lb] > cap ? cap + 1 : prev[lb];
}

void gr_suggest_begin(gr_suggester *s, const char *word){
  memset(s, 0, sizeof *s);
  s->word = word;
  s->wlen = strlen(word);
  s->cap = s->wlen <= 3 ? 1 : s->wlen <= 6 ? 2 : 3;
}

void gr_suggest_offer(gr_suggester *s, const char *name){
  unsigned d;
  size_t tie = 0, nl;
  const char *a = s->word, *b = name;
  if( name==NULL || *name==0 ) return;
  d = gr_edit_distance(s->word, name, s->cap);
  if( d > s->cap || (s->best && d > s->best_d) ) return;
  nl = strlen(name);
  for(; *a && *b; a++, b++) if( *a!=*b ) tie++;          /* letters that differ, case included */
  tie += 64 * (nl > s->wlen ? nl - s->wlen : s->wlen - nl); /* a typo more likely kept the length */
  if( s->best==NULL || d < s->best_d || tie < s->best_tie || (tie==s->best_tie && strcmp(name, s->best) < 0) ){
    s->best = name; s->best_d = d; s->best_tie = tie;
  }
}

const char *gr_suggest(const char *word, const char *const *names, size_t n){
  gr_suggester s;
  size_t i;
  gr_suggest_begin(&s, word);
  for(i = 0; i < n; i++) gr_suggest_offer(&s, names[i]);
  return gr_suggest_best(&s);
}
