/*
** regex.c: the rule language's regular expressions (see regex.h). The
** matching is the C library's (POSIX regcomp/regexec); this file decides
** which patterns it may be given. glibc's engine is polynomial on what is
** left once back-references are refused, and its memory is proportional to
** the pattern with every bounded repetition written out, so the subset
** refuses back-references, a bounded repetition of anything that already
** holds one, and patterns too big once expanded; it also refuses what POSIX
** leaves undefined (an unmatched parenthesis or brace, a repetition of
** nothing or of a repetition, an escaped letter or digit) so that a pattern
** means the same thing to every reader. Anchoring to the whole subject is
** done on the match span (gr_regex_whole), never by wrapping the pattern in
** ^(...)$, which an unbalanced pattern such as `x)|(.*` would escape.
*/
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "lang/regex.h"

typedef struct rx_group {
  size_t open;          /* offset of its '(' */
  size_t size;          /* expanded size of everything in the group so far */
  int bounded;          /* it holds a bounded repetition */
} rx_group;

static int refuse(size_t *off, size_t at, char *msg, size_t n, const char *why){
  *off = at;
  snprintf(msg, n, "%s", why);
  return -1;
}

/* Skips the bracket expression starting at pat[i]=='['; returns the offset
** just past its closing ']', or 0 if it is not closed. */
static size_t skip_bracket(const char *pat, size_t i){
  i++;
  if( pat[i]=='^' ) i++;
  if( pat[i]==']' ) i++;            /* a leading ']' is a member */
  while( pat[i] && pat[i]!=']' ){
    if( pat[i]=='[' && (pat[i+1]==':' || pat[i+1]=='=' || pat[i+1]=='.') ){
      char d = pat[i+1];
      const char *e;
      i += 2;
      for(e = pat + i; *e && !(e[0]==d && e[1]==']'); e++){}
      if( *e==0 ) return 0;
      i = (size_t)(e - pat) + 2;
    }else{
      i++;
    }
  }
  return pat[i]==']' ? i + 1 : 0;
}

/* Reads a decimal bound at pat[*i] (at most GR_REGEX_MAX_BOUND). Returns it,
** -1 if there is no digit, -2 if it is too large. */
static long read_bound(const char *pat, size_t *i){
  long v = 0;
  if( pat[*i] < '0' || pat[*i] > '9' ) return -1;
  while( pat[*i] >= '0' && pat[*i] <= '9' ){
    v = v * 10 + (pat[*i] - '0');
    if( v > GR_REGEX_MAX_BOUND ) return -2;
    (*i)++;
  }
  return v;
}

int gr_regex_check(const char *pat, size_t *off, char *msg, size_t msgsz){
  rx_group g[GR_REGEX_MAX_DEPTH + 1];
  int depth = 0;
  size_t i = 0, len = strlen(pat);
  /* the last thing that can be repeated: its expanded size, whether it
  ** holds a bounded repetition, and whether it is itself a repetition */
  int have_last = 0, last_bounded = 0, last_repeated = 0;
  size_t last_size = 0;

  if( len > GR_REGEX_MAX_LEN ){
    snprintf(msg, msgsz, "a pattern is limited to %d bytes", GR_REGEX_MAX_LEN);
    *off = GR_REGEX_MAX_LEN;
    return -1;
  }
  g[0].open = 0; g[0].size = 0; g[0].bounded = 0;
  while( i < len ){
    unsigned char ch = (unsigned char)pat[i];
    size_t at = i, atom = 1;
    int atom_bounded = 0;
    switch( ch ){
      case '(':
        if( depth==GR_REGEX_MAX_DEPTH ){
          snprintf(msg, msgsz, "groups nested more than %d deep", GR_REGEX_MAX_DEPTH);
          *off = at;
          return -1;
        }
        depth++;
        g[depth].open = at; g[depth].size = 0; g[depth].bounded = 0;
        have_last = 0;
        i++;
        continue;
      case ')':
        if( depth==0 ) return refuse(off, at, msg, msgsz, "unmatched ')'");
        atom = g[depth].size + 1;
        atom_bounded = g[depth].bounded;
        depth--;
        i++;
        break;
      case '|':
        have_last = 0;
        g[depth].size++;
        i++;
        continue;
      case '^': case '$':
        /* an anchor matches a position: there is nothing to repeat */
        have_last = 0;
        g[depth].size++;
        i++;
        continue;
      case '*': case '+': case '?': case '{': {
        size_t factor;
        if( !have_last ) return refuse(off, at, msg, msgsz, "a repetition operator must follow something to repeat");
        if( last_repeated ) return refuse(off, at, msg, msgsz, "a repetition of a repetition is not supported (group the inner one)");
        if( ch=='{' ){
          long n, m;
          i++;
          n = read_bound(pat, &i);
          m = n;
          if( n >= 0 && pat[i]==',' ){
            i++;
            m = pat[i]=='}' ? -3 : read_bound(pat, &i);   /* -3: no upper bound */
          }
          if( n==-2 || m==-2 ){
            snprintf(msg, msgsz, "a repetition count is limited to %d", GR_REGEX_MAX_BOUND);
            *off = at;
            return -1;
          }
          if( n < 0 || m==-1 || pat[i]!='}' ) return refuse(off, at, msg, msgsz, "expected a bound such as {3}, {2,} or {1,4} ('{' itself is written \\{)");
          if( m >= 0 && m < n ) return refuse(off, at, msg, msgsz, "the bound {n,m} needs n <= m");
          if( last_bounded ) return refuse(off, at, msg, msgsz, "nested bounded repetition (a {n,m} applied to a group that holds one) is not supported");
          i++;
          factor = (size_t)(m >= 0 ? m : n + 1);
          if( factor==0 ) factor = 1;
          last_bounded = 1;
        }else{
          i++;
          factor = ch=='+' ? 2 : 1;    /* x+ is compiled as xx* */
        }
        g[depth].size -= last_size;
        if( last_size > GR_REGEX_MAX_NODES / factor ) last_size = GR_REGEX_MAX_NODES + 1;
        else last_size = last_size * factor + 1;
        g[depth].size += last_size;
        if( last_bounded ) g[depth].bounded = 1;
        last_repeated = 1;
        if( g[depth].size > GR_REGEX_MAX_NODES ){
          snprintf(msg, msgsz, "the pattern is too large once its repetitions are written out (more than %d nodes)", GR_REGEX_MAX_NODES);
          *off = at;
          return -1;
        }
        continue;
      }
      case '}':
        return refuse(off, at, msg, msgsz, "unmatched '}' (a literal brace is written \\})");
      case '[': {
        size_t e = skip_bracket(pat, i);
        if( e==0 ) return refuse(off, at, msg, msgsz, "unterminated bracket expression '['");
        i = e;
        break;
      }
      case '\\': {
        unsigned char nx = (unsigned char)pat[i+1];
        if( nx==0 ) return refuse(off, at, msg, msgsz, "a pattern cannot end with a backslash");
        if( nx >= '0' && nx <= '9' ) return refuse(off, at, msg, msgsz, "back-references (\\1 ... \\9) are not supported: they make matching exponential");
        if( (nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') ){
          snprintf(msg, msgsz, "'\\%c' is not supported (only a punctuation character may be escaped; use a bracket expression such as [[:alnum:]])", nx);
          *off = at;
          return -1;
        }
        i += 2;
        break;
      }
      default:
        i++;
        break;
    }
    /* an atom ends here: it becomes the last thing that can be repeated */
    have_last = 1;
    last_repeated = 0;
    last_bounded = atom_bounded;
    last_size = atom;
    g[depth].size += atom;
    if( atom_bounded ) g[depth].bounded = 1;
    if( g[depth].size > GR_REGEX_MAX_NODES ){
      snprintf(msg, msgsz, "the pattern is too large once its repetitions are written out (more than %d nodes)", GR_REGEX_MAX_NODES);
      *off = at;
      return -1;
    }
  }
  if( depth > 0 ) return refuse(off, g[depth].open, msg, msgsz, "unmatched '('");
  return 0;
}

int gr_regex_compile(regex_t *re, const char *pat, size_t *off, char *msg, size_t msgsz){
  int rc;
  if( gr_regex_check(pat, off, msg, msgsz)!=0 ) return -1;
  rc = regcomp(re, pat, REG_EXTENDED);
  if( rc!=0 ){
    regerror(rc, re, msg, msgsz);   /* a failed regcomp leaves nothing to regfree */
    *off = SIZE_MAX;
    return -1;
  }
  return 0;
}

int gr_regex_whole(const regex_t *re, const char *s){
  regmatch_t m[1];
  if( regexec(re, s, 1, m, 0)!=0 ) return 0;
  return m[0].rm_so==0 && (size_t)m[0].rm_eo==strlen(s);
}
