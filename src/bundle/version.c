/*
** version.c: CANN release numbers (validity, order, ranges). Semantic
** versions are base/semver.c. Hand-written: the rules are a dozen lines and
** no Debian C library provides them.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "bundle/bundle.h"

static int is_digit(char c){ return c >= '0' && c <= '9'; }
static int ident_char(char c){ return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c=='-'; }

/* ---- CANN releases ----
** CANN numbers its releases "8.0.RC2", "8.0.0", "8.1.RC1", "9.1", with
** builds such as "8.0.RC2.alpha003": dot-separated parts where a number is
** a release, "RCn" a release candidate (before the release with the same
** leading parts) and anything else a pre-release build (before both). A
** missing part counts as 0: "9.1" is "9.1.0". */

typedef struct cpart { int kind; long long n; const char *s; size_t len; } cpart;   /* kind 0 build, 1 RC, 2 number */

/* The part at *p; 0 at the end, -1 malformed. */
static int cann_part(const char **p, cpart *out){
  const char *s = *p, *e = s;
  size_t i;
  if( *s==0 ) return 0;
  while( *e && *e!='.' ) e++;
  if( e==s ) return -1;
  for(i = 0; s + i < e; i++) if( !ident_char(s[i]) ) return -1;
  out->s = s; out->len = (size_t)(e - s);
  if( strspn(s, "0123456789") >= out->len ){
    if( out->len > GR_VERSION_MAX_DIGITS ) return -1;          /* too large: malformed, not a build name */
    out->kind = 2; out->n = strtoll(s, NULL, 10);
  }else if( out->len > 2 && (s[0]=='R' || s[0]=='r') && (s[1]=='C' || s[1]=='c') &&
            strspn(s + 2, "0123456789") >= out->len - 2 ){
    if( out->len - 2 > GR_VERSION_MAX_DIGITS ) return -1;
    out->kind = 1; out->n = strtoll(s + 2, NULL, 10);
  }else{ out->kind = 0; out->n = 0; }
  *p = *e ? e + 1 : e;
  if( *e && e[1]==0 ) return -1;        /* a trailing dot */
  return 1;
}

int gr_cann_valid(const char *v){
  cpart x;
  int r, n = 0;
  if( v==NULL || !is_digit(*v) ) return 0;
  while( (r = cann_part(&v, &x)) > 0 ) n++;
  return r==0 && n > 0;
}

static int part_cmp(const cpart *a, const cpart *b){
  int c;
  if( a->kind!=b->kind ) return a->kind < b->kind ? -1 : 1;
  if( a->kind ) return a->n==b->n ? 0 : a->n < b->n ? -1 : 1;
  c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
  if( c ) return c < 0 ? -1 : 1;
  return a->len==b->len ? 0 : a->len < b->len ? -1 : 1;
}

/* Compares two valid CANN releases; *pos (when not NULL) gets the index of
** the first part that differs and *gap how far apart the parts are there
** (for "the nearest release"). */
static int cann_cmp_at(const char *a, const char *b, int *pos, long long *gap){
  static const cpart zero = { 2, 0, "0", 1 };
  int i;
  for(i = 0; ; i++){
    cpart x, y;
    int ra = cann_part(&a, &x), rb = cann_part(&b, &y), c;
    if( ra <= 0 && rb <= 0 ) return 0;
    if( ra <= 0 ) x = zero;
    if( rb <= 0 ) y = zero;
    if( (c = part_cmp(&x, &y))!=0 ){
      if( pos ) *pos = i;
      if( gap ){
        long long vx = x.kind==2 ? x.n : x.kind==1 ? x.n - 100000 : -200000;
        long long vy = y.kind==2 ? y.n : y.kind==1 ? y.n - 100000 : -200000;
        *gap = vx > vy ? vx - vy : vy - vx;
      }
      return c;
    }
  }
}

int gr_cann_cmp(const char *a, const char *b){ return cann_cmp_at(a, b, NULL, NULL); }

int gr_cann_closer(const char *v, const char *a, const char *b){
  int pa = 0, pb = 0, ca, cb;
  long long ga = 0, gb = 0;
  if( (ca = cann_cmp_at(v, a, &pa, &ga))==0 ) pa = 1 << 20;
  if( (cb = cann_cmp_at(v, b, &pb, &gb))==0 ) pb = 1 << 20;
  if( ca && ca==cb ) return ca < 0 ? gr_cann_cmp(a, b) : gr_cann_cmp(b, a);   /* same side: the order says */
  if( pa!=pb ) return pa > pb ? -1 : 1;     /* differing in a later part is closer */
  return ga==gb ? 0 : ga < gb ? -1 : 1;
}

int gr_cann_in_range(const char *v, const char *range, char bound[64], int *side){
  const char *p = range, *el;
  size_t l;
  int ok = 1, any = 0;
  if( side ) *side = 0;
  if( range==NULL || !gr_cann_valid(v) ) return -1;
  while( gr_split_next(&p, ",", &el, &l) ){
    char op[3] = "", num[64];
    size_t k = 0;
    int c, sat;
    while( k < l && el[k]==' ' ) k++;
    while( k < l && strlen(op) < 2 && (el[k]=='<' || el[k]=='>' || el[k]=='=') ){ op[strlen(op)] = el[k]; k++; }
    while( k < l && el[k]==' ' ) k++;
    while( l > k && el[l-1]==' ' ) l--;
    if( l - k==0 || l - k >= sizeof num ) return -1;
    memcpy(num, el + k, l - k); num[l - k] = 0;
    if( !gr_cann_valid(num) ) return -1;
    c = gr_cann_cmp(v, num);
    if( strcmp(op, ">=")==0 ) sat = c >= 0;
    else if( strcmp(op, ">")==0 ) sat = c > 0;
    else if( strcmp(op, "<=")==0 ) sat = c <= 0;
    else if( strcmp(op, "<")==0 ) sat = c < 0;
    else if( strcmp(op, "=")==0 || strcmp(op, "==")==0 || op[0]==0 ) sat = c==0;
    else return -1;
    any = 1;
    if( !sat && ok ){
      ok = 0;
      if( bound ) memcpy(bound, num, strlen(num) + 1);
      if( side ) *side = c < 0 ? -1 : 1;
    }
  }
  return any ? ok : -1;
}
