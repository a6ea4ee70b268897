/*
** t0005-regex.c: unit tests of the rule language's regular expressions
** (src/lang/regex.c): the accepted subset (back-references, nested bounded
** repetition, unbalanced groups and the other refusals, each at the offset
** of the construct refused), and whole-subject matching done on the match
** span rather than by wrapping the pattern in ^(...)$.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/regex.h"
#include "tap.h"

/* refused(pat, off, sub): gr_regex_compile refuses pat at byte off with a
** message containing sub. */
static void refused_at(const char *pat, size_t want_off, const char *sub, int line){
  regex_t re;
  size_t off = 12345;
  char msg[256] = "";
  char name[512];
  int rc = gr_regex_compile(&re, pat, &off, msg, sizeof msg);
  snprintf(name, sizeof name, "/%s/ is refused at offset %zu (line %d)", pat, want_off, line);
  if( rc==0 ){ regfree(&re); ok(0, name); return; }
  if( !ok(off==want_off, name) ) printf("#   offset %zu: %s\n", off, msg);
  snprintf(name, sizeof name, "/%s/: the message says '%s'", pat, sub);
  like(msg, sub, name);
}
#define refused(p, o, s) refused_at((p), (o), (s), __LINE__)

/* whole(pat, subject): 1 if the compiled pat matches all of subject */
static int whole(const char *pat, const char *subject){
  regex_t re;
  size_t off;
  char msg[256];
  int r;
  if( gr_regex_compile(&re, pat, &off, msg, sizeof msg)!=0 ){ printf("# /%s/ refused: %s\n", pat, msg); return -1; }
  r = gr_regex_whole(&re, subject);
  regfree(&re);
  return r;
}

int main(void){
  char big[GR_REGEX_MAX_LEN + 8];

  /* back-references: glibc matches them by backtracking, exponentially */
  refused("Ascend(a)\\1", 9, "back-references");
  refused("(a*)*b\\9", 6, "back-references");
  refused("(a)\\0", 3, "back-references");

  /* nested bounded repetition: glibc writes every copy out */
  refused("((a{1,10}){1,10}){1,10}", 10, "nested bounded repetition");
  refused("(x(ab){2}c){3}", 11, "nested bounded repetition");
  refused("((a{2})*){3}", 9, "nested bounded repetition");
  refused("a{2}{3}", 4, "a repetition of a repetition");
  refused("a*{3}", 2, "a repetition of a repetition");
  refused("a+*", 2, "a repetition of a repetition");
  refused("a{256}", 1, "limited to 255");
  refused("a{1,99999999999999999999}", 1, "limited to 255");
  refused("(abcdefghij){255}(abcdefghij){255}(abcdefghij){255}(abcdefghij){255}", 63,
          "too large once its repetitions are written out");

  /* unbalanced: under ^(...)$ wrapping, x)|(.* matched every subject */
  refused("x)|(.*", 1, "unmatched ')'");
  refused("a)|(b", 1, "unmatched ')'");
  refused("(a|b", 0, "unmatched '('");
  refused("((a)", 0, "unmatched '('");
  refused("a}", 1, "unmatched '}'");
  refused("[a-z", 0, "unterminated bracket");
  refused("[[:alpha:]", 0, "unterminated bracket");

  /* the rest of what POSIX leaves undefined or glibc extends */
  refused("*a", 0, "must follow something to repeat");
  refused("a|+b", 2, "must follow something to repeat");
  refused("(?a)", 1, "must follow something to repeat");
  refused("^*", 1, "must follow something to repeat");
  refused("a{,3}", 1, "expected a bound");
  refused("a{x}", 1, "expected a bound");
  refused("a{3,2}", 1, "needs n <= m");
  refused("a\\w+", 1, "'\\w' is not supported");
  refused("ab\\", 2, "cannot end with a backslash");
  refused("((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))", 32, "nested more than 32 deep");
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  refused(big, GR_REGEX_MAX_LEN, "limited to 4096 bytes");
  {
    regex_t re;
    size_t off = 0;
    char msg[256];
    ok(gr_regex_compile(&re, "[z-a]", &off, msg, sizeof msg)!=0 && off==SIZE_MAX,
       "what regcomp itself refuses is reported for the whole pattern (offset SIZE_MAX)");
  }

  /* accepted: the shipped rules' forms and the rest of the subset */
  is(whole("Ascend950(PR|DT)_[0-9A-Za-z]{4}x?", "Ascend950PR_9a2Bx"), 1, "a shipped soc pattern matches its chip");
  is(whole("Ascend950(PR|DT)_[0-9A-Za-z]{4}x?", "Ascend950PR_9a2"), 0, "... not a shorter name");
  is(whole("[1-9][0-9]*(\\|([1-9][0-9]*)?)?", "16|32"), 1, "the shipped option pattern with an escaped |");
  is(whole("[1-9][0-9]*(\\|([1-9][0-9]*)?)?", "16|"), 1, "... its optional tail");
  is(whole("[1-9][0-9]*(\\|([1-9][0-9]*)?)?", "16||"), 0, "... but not a second |");
  is(whole("[]a]+", "]a]"), 1, "a leading ] is a bracket member");
  is(whole("[^]x]", "]"), 0, "... also after ^");
  is(whole("[[:digit:]]{2,}", "123"), 1, "character classes and {n,}");
  is(whole("a\\{b\\}", "a{b}"), 1, "escaped braces are literal");
  is(whole("a/b", "a/b"), 1, "a slash is an ordinary character");
  is(whole("(ab){255}", "ab"), 0, "the largest bound compiles");

  /* anchoring is on the span: both ends, and through alternation */
  is(whole("Ascend910B[2-4]", "Ascend910B3"), 1, "a pattern matches its whole subject");
  is(whole("Ascend910B[2-4]", "Ascend910B3x"), 0, "not with a suffix");
  is(whole("Ascend910B[2-4]", "xAscend910B3"), 0, "not with a prefix");
  is(whole("a|b", "ab"), 0, "an alternation is anchored as a whole, not per branch");
  is(whole("a|b", "b"), 1, "... and each branch matches alone");
  is(whole("a|ab", "ab"), 1, "leftmost-longest: the longer branch covers the subject");
  is(whole("(a|ab)(c|bcd)", "abcd"), 1, "leftmost-longest across groups");
  is(whole("x*", ""), 1, "the empty subject");
  is(whole("b", "ab"), 0, "a match that does not start at 0 is no whole match");
  is(whole("a^b|c", "c"), 1, "an anchor inside a branch keeps its POSIX meaning");
  return done_testing();
}
