/*
** semver.c: semantic versions (semver.h): validity and precedence.
** Hand-written: the rules are a dozen lines and no Debian C library provides
** them.
*/
#include "config.h"
#include <string.h>
#include "base/semver.h"

static int is_digit(char c){ return c >= '0' && c <= '9'; }

/* Comparison never converts a part to an integer (digit strings of the same
** length compare as text), so no width is involved; GR_VERSION_MAX_DIGITS
** only keeps versions readable. */

/* A numeric part without leading zeros; returns its end or NULL. */
static const char *number(const char *s){
  const char *p = s;
  while( is_digit(*p) ) p++;
  if( p==s || (p - s > 1 && *s=='0') || p - s > GR_VERSION_MAX_DIGITS ) return NULL;
  return p;
}

static int ident_char(char c){ return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c=='-'; }

/* Dot-separated identifiers up to the end or a '+'; returns the end or NULL. */
static const char *idents(const char *s, int numeric_rule){
  const char *p = s;
  for(;;){
    const char *b = p;
    int all_digits = 1;
    while( ident_char(*p) ){ if( !is_digit(*p) ) all_digits = 0; p++; }
    if( p==b ) return NULL;
    if( numeric_rule && all_digits && p - b > 1 && *b=='0' ) return NULL;
    if( *p!='.' ) return p;
    p++;
  }
}

int gr_semver_valid(const char *v){
  const char *p = v;
  int i;
  if( v==NULL ) return 0;
  for(i = 0; i < 3; i++){
    if( (p = number(p))==NULL ) return 0;
    if( i < 2 ){ if( *p!='.' ) return 0; p++; }
  }
  if( *p=='-' && (p = idents(p + 1, 1))==NULL ) return 0;
  if( *p=='+' && (p = idents(p + 1, 0))==NULL ) return 0;
  return *p==0;
}

static int cmp_ident(const char *a, size_t al, const char *b, size_t bl){
  size_t i;
  int an = 1, bn = 1, c;
  for(i = 0; i < al; i++) if( !is_digit(a[i]) ) an = 0;
  for(i = 0; i < bl; i++) if( !is_digit(b[i]) ) bn = 0;
  if( an && bn ){
    if( al!=bl ) return al < bl ? -1 : 1;
    c = memcmp(a, b, al);
    return c < 0 ? -1 : c > 0;
  }
  if( an ) return -1;                   /* numeric identifiers sort before others */
  if( bn ) return 1;
  c = memcmp(a, b, al < bl ? al : bl);
  if( c ) return c < 0 ? -1 : 1;
  return al==bl ? 0 : al < bl ? -1 : 1;
}

int gr_semver_cmp(const char *a, const char *b){
  int va = gr_semver_valid(a), vb = gr_semver_valid(b), i;
  const char *pa = a, *pb = b;
  if( !va || !vb ) return va - vb;
  for(i = 0; i < 3; i++){
    size_t al = strspn(pa, "0123456789"), bl = strspn(pb, "0123456789");
    int c = cmp_ident(pa, al, pb, bl);     /* digits without leading zeros: by length, then as text */
    if( c ) return c;
    pa += al; pb += bl;
    if( *pa=='.' ) pa++;
    if( *pb=='.' ) pb++;
  }
  /* a pre-release sorts before the release */
  if( *pa!='-' && *pb!='-' ) return 0;
  if( *pa!='-' ) return 1;
  if( *pb!='-' ) return -1;
  pa++; pb++;
  for(;;){
    size_t al = strcspn(pa, ".+"), bl = strcspn(pb, ".+");
    int c = cmp_ident(pa, al, pb, bl);
    if( c ) return c;
    pa += al; pb += bl;
    if( *pa!='.' && *pb!='.' ) return 0;
    if( *pa!='.' ) return -1;            /* fewer identifiers sort first */
    if( *pb!='.' ) return 1;
    pa++; pb++;
  }
}
