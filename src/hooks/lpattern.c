/*
** lpattern.c: the interruptible Lua pattern matcher (see lpattern.h). The
** semantics are those of the Lua 5.4 manual (section 6.4.1) and of stock
** lstrlib.c's matcher, which t0200 compares it with; the code is a plain
** backtracking matcher written here that counts its steps and calls the
** interrupt function every GR_LPAT_CHECK_STEPS of them. Errors (malformed
** pattern, too complex, interrupted) leave the recursion by longjmp to the
** entry point, which returns -1: the matcher holds nothing but stack state.
*/
#include "config.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "hooks/lpattern.h"

#define PAT_SPECIALS "^$*+?.([%-"

static void pm_error(gr_lpat *m, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void pm_error(gr_lpat *m, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err, sizeof m->err, fmt, ap);
  va_end(ap);
  longjmp(m->jb, 1);
}

static void pm_step(gr_lpat *m){
  if( (++m->steps % GR_LPAT_CHECK_STEPS)!=0 || m->interrupt==NULL ) return;
  if( m->interrupt(m->ud, m->err, sizeof m->err) ) longjmp(m->jb, 1);
}

static int class_match(int c, int cl){
  int res;
  switch( tolower(cl) ){
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    case 'z': res = c==0; break;          /* deprecated, still accepted by Lua 5.4 */
    default: return cl==c;
  }
  return isupper(cl) ? !res : (res!=0);
}

/* p at '[', close at the matching ']' */
static int set_match(int c, const char *p, const char *close){
  int neg = 0;
  p++;
  if( *p=='^' ){ neg = 1; p++; }
  while( p < close ){
    if( *p=='%' && p + 1 < close ){
      if( class_match(c, (unsigned char)p[1]) ) return !neg;
      p += 2;
    }else if( p + 2 < close && p[1]=='-' ){
      if( (unsigned char)p[0] <= c && c <= (unsigned char)p[2] ) return !neg;
      p += 3;
    }else{
      if( (unsigned char)*p==c ) return !neg;
      p++;
    }
  }
  return neg;
}

/* The end of the single-character class starting at p. */
static const char *class_end(gr_lpat *m, const char *p){
  char c = *p++;
  if( c=='%' ){
    if( p >= m->p_end ) pm_error(m, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if( c=='[' ){
    if( p < m->p_end && *p=='^' ) p++;
    /* the first character is always part of the set (so "[]]" works) */
    do{
      if( p >= m->p_end ) pm_error(m, "malformed pattern (missing ']')");
      c = *p++;
      if( c=='%' && p < m->p_end ) p++;
    }while( p >= m->p_end || *p!=']' );
    return p + 1;
  }
  return p;
}

static int single_match(gr_lpat *m, const char *s, const char *p, const char *ep){
  int c;
  if( s >= m->src_end ) return 0;
  c = (unsigned char)*s;
  switch( *p ){
    case '.': return 1;
    case '%': return class_match(c, (unsigned char)p[1]);
    case '[': return set_match(c, p, ep - 1);
    default: return (unsigned char)*p==c;
  }
}

static const char *do_match(gr_lpat *m, const char *s, const char *p);

static const char *max_expand(gr_lpat *m, const char *s, const char *p, const char *ep){
  ptrdiff_t i = 0;
  while( single_match(m, s + i, p, ep) ){ i++; pm_step(m); }
  for(; i >= 0; i--){
    const char *r = do_match(m, s + i, ep + 1);
    if( r ) return r;
  }
  return NULL;
}

static const char *min_expand(gr_lpat *m, const char *s, const char *p, const char *ep){
  for(;;){
    const char *r = do_match(m, s, ep + 1);
    if( r ) return r;
    if( !single_match(m, s, p, ep) ) return NULL;
    s++;
  }
}

static const char *start_capture(gr_lpat *m, const char *s, const char *p, ptrdiff_t what){
  const char *r;
  if( m->level >= GR_LPAT_MAXCAP ) pm_error(m, "too many captures");
  m->cap[m->level].init = s;
  m->cap[m->level].len = what;
  m->level++;
  r = do_match(m, s, p);
  if( r==NULL ) m->level--;
  return r;
}

static const char *end_capture(gr_lpat *m, const char *s, const char *p){
  int l;
  const char *r;
  for(l = m->level - 1; l >= 0; l--) if( m->cap[l].len==GR_LPAT_CAP_UNFINISHED ) break;
  if( l < 0 ) pm_error(m, "invalid pattern capture");
  m->cap[l].len = s - m->cap[l].init;
  r = do_match(m, s, p);
  if( r==NULL ) m->cap[l].len = GR_LPAT_CAP_UNFINISHED;
  return r;
}

static const char *match_balance(gr_lpat *m, const char *s, const char *p){
  int depth = 1;
  char open, close;
  if( p + 1 >= m->p_end ) pm_error(m, "malformed pattern (missing arguments to '%%b')");
  open = p[0]; close = p[1];
  if( s >= m->src_end || *s!=open ) return NULL;
  for(s++; s < m->src_end; s++){
    pm_step(m);
    if( *s==close ){ if( --depth==0 ) return s + 1; }
    else if( *s==open ) depth++;
  }
  return NULL;
}

static const char *match_backref(gr_lpat *m, const char *s, int digit){
  int i = digit - '1';
  ptrdiff_t len;
  if( i < 0 || i >= m->level || m->cap[i].len==GR_LPAT_CAP_UNFINISHED ) pm_error(m, "invalid capture index %%%d", i + 1);
  len = m->cap[i].len;
  if( len < 0 ) return NULL;
  if( m->src_end - s >= len && memcmp(m->cap[i].init, s, (size_t)len)==0 ) return s + len;
  return NULL;
}

static const char *do_match(gr_lpat *m, const char *s, const char *p){
  if( m->depth-- <= 0 ) pm_error(m, "pattern too complex");
  for(;;){
    pm_step(m);
    if( p==m->p_end ) break;
    if( *p=='(' ){
      s = p + 1 < m->p_end && p[1]==')' ? start_capture(m, s, p + 2, GR_LPAT_CAP_POSITION)
                                         : start_capture(m, s, p + 1, GR_LPAT_CAP_UNFINISHED);
      break;
    }
    if( *p==')' ){ s = end_capture(m, s, p + 1); break; }
    if( *p=='$' && p + 1==m->p_end ){ if( s!=m->src_end ) s = NULL; break; }
    if( *p=='%' && p + 1 < m->p_end ){
      if( p[1]=='b' ){
        s = match_balance(m, s, p + 2);
        if( s==NULL ) break;
        p += 4;
        continue;
      }
      if( p[1]=='f' ){
        const char *ep;
        int prev, cur;
        p += 2;
        if( p >= m->p_end || *p!='[' ) pm_error(m, "missing '[' after '%%f' in pattern");
        ep = class_end(m, p);
        prev = s==m->src_init ? 0 : (unsigned char)s[-1];
        cur = s < m->src_end ? (unsigned char)*s : 0;
        if( !set_match(prev, p, ep - 1) && set_match(cur, p, ep - 1) ){ p = ep; continue; }
        s = NULL;
        break;
      }
      if( isdigit((unsigned char)p[1]) ){
        s = match_backref(m, s, (unsigned char)p[1]);
        if( s==NULL ) break;
        p += 2;
        continue;
      }
    }
    {
      const char *ep = class_end(m, p);
      int ok = single_match(m, s, p, ep);
      char q = ep < m->p_end ? *ep : 0;
      if( q=='?' ){
        if( ok ){
          const char *r = do_match(m, s + 1, ep + 1);
          if( r ){ s = r; break; }
        }
        p = ep + 1;
        continue;
      }
      if( q=='+' ){ s = ok ? max_expand(m, s + 1, p, ep) : NULL; break; }
      if( q=='*' ){ s = max_expand(m, s, p, ep); break; }
      if( q=='-' ){ s = min_expand(m, s, p, ep); break; }
      if( !ok ){ s = NULL; break; }
      s++;
      p = ep;
    }
  }
  m->depth++;
  return s;
}

void gr_lpat_init(gr_lpat *m, const char *s, size_t ls, const char *p, size_t lp,
                  gr_lpat_interrupt interrupt, void *ud){
  memset(m, 0, offsetof(gr_lpat, jb));
  m->src_init = s; m->src_end = s + ls;
  m->p_end = p + lp;
  m->interrupt = interrupt; m->ud = ud;
  m->pat = p;
  m->depth = GR_LPAT_MAXDEPTH;
}

int gr_lpat_match(gr_lpat *m, const char *at, const char **end){
  const char *e;
  m->level = 0;
  m->depth = GR_LPAT_MAXDEPTH;
  if( setjmp(m->jb) ){
    m->level = 0;
    return -1;
  }
  e = do_match(m, at, m->pat);
  if( e==NULL ) return 0;
  *end = e;
  return 1;
}

const char *gr_lpat_problem(const char *p, size_t lp){
  const char *e = p + lp;
  int open[GR_LPAT_MAXCAP], nopen = 0, ncap = 0, closed[GR_LPAT_MAXCAP];
  if( lp && *p=='^' ) p++;
  while( p < e ){
    switch( *p ){
      case '(':
        if( ncap >= GR_LPAT_MAXCAP ) return "too many captures";
        if( p + 1 < e && p[1]==')' ){ closed[ncap++] = 1; p += 2; continue; }
        closed[ncap] = 0;
        open[nopen++] = ncap++;
        p++;
        continue;
      case ')':
        if( nopen==0 ) return "invalid pattern capture";
        closed[open[--nopen]] = 1;
        p++;
        continue;
      case '%':
        if( p + 1 >= e ) return "malformed pattern (ends with '%')";
        if( p[1]=='b' ){
          if( p + 3 >= e ) return "malformed pattern (missing arguments to '%b')";
          p += 4;
          continue;
        }
        if( p[1]=='f' ){
          p += 2;
          if( p >= e || *p!='[' ) return "missing '[' after '%f' in pattern";
          break;      /* the set, below */
        }
        if( isdigit((unsigned char)p[1]) ){
          int i = p[1] - '1';
          if( i < 0 || i >= ncap || !closed[i] ) return "invalid capture index in pattern";
          p += 2;
          continue;
        }
        break;
      default:
        break;
    }
    /* a single-character class and an optional quantifier */
    if( *p=='%' ) p += 2;
    else if( *p=='[' ){
      p++;
      if( p < e && *p=='^' ) p++;
      do{
        if( p >= e ) return "malformed pattern (missing ']')";
        if( *p++=='%' && p < e ) p++;
      }while( p >= e || *p!=']' );
      p++;
    }else p++;
    if( p < e && (*p=='?' || *p=='*' || *p=='+' || *p=='-') ) p++;
  }
  if( nopen ) return "unfinished capture";
  return NULL;
}

int gr_lpat_search(const char *s, size_t ls, const char *p, size_t lp, gr_lpat_interrupt interrupt,
                   void *ud, size_t *start, size_t *end, char *err, size_t nerr){
  gr_lpat m;
  const char *s1 = s, *e = NULL;
  int anchor = lp > 0 && *p=='^', rc;
  if( anchor ){ p++; lp--; }
  gr_lpat_init(&m, s, ls, p, lp, interrupt, ud);
  do{
    rc = gr_lpat_match(&m, s1, &e);
    if( rc < 0 ){
      if( err && nerr ) snprintf(err, nerr, "%s", m.err);
      return -1;
    }
    if( rc > 0 ){
      if( start ) *start = (size_t)(s1 - s);
      if( end ) *end = (size_t)(e - s);
      return 1;
    }
  }while( s1++ < m.src_end && !anchor );
  return 0;
}

int gr_lpat_has_specials(const char *p, size_t lp){
  size_t i;
  for(i = 0; i < lp; i++) if( p[i] && strchr(PAT_SPECIALS, p[i]) ) return 1;
  return 0;
}
