/*
** tap.h: a tiny TAP producer for the C unit tests (t/t0xxx-*.c). Each check
** prints "ok N - name" or "not ok N - name" plus the location and the values
** that differed; done_testing() prints the plan and gives the exit status.
** Header-only; no ownership concerns (nothing is allocated).
*/
#ifndef GR_TAP_H
#define GR_TAP_H
#include <stdio.h>
#include <string.h>

static int tap_n, tap_fail, tap_planned = -1;

static inline void plan(int n){ tap_planned = n; printf("1..%d\n", n); }
static inline int done_testing(void){
  if( tap_planned < 0 ) printf("1..%d\n", tap_n);
  fflush(stdout);
  return tap_fail != 0 || (tap_planned >= 0 && tap_planned != tap_n);
}
static inline int ok_at(int c, const char *f, int l, const char *name){
  printf("%sok %d - %s\n", c ? "" : "not ", ++tap_n, name);
  if( !c ){ tap_fail++; printf("#   Failed test at %s line %d\n", f, l); }
  return c;
}
#define ok(c, name) ok_at(!!(c), __FILE__, __LINE__, (name))
#define is(got, want, name) do{ long long g_ = (long long)(got), w_ = (long long)(want); \
  if( !ok(g_ == w_, name) ) printf("#          got: %lld\n#     expected: %lld\n", g_, w_); }while(0)
#define is_str(got, want, name) do{ const char *g_ = (got), *w_ = (want); \
  if( !ok(g_ && w_ && strcmp(g_, w_)==0, name) ) \
    printf("#          got: '%s'\n#     expected: '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); }while(0)
#define like(got, sub, name) do{ const char *g_ = (got), *w_ = (sub); \
  if( !ok(g_ && strstr(g_, w_)!=NULL, name) ) \
    printf("#          got: '%s'\n#  not containing: '%s'\n", g_ ? g_ : "(null)", w_); }while(0)
#define diag(...) do{ printf("# "); printf(__VA_ARGS__); printf("\n"); }while(0)

#endif
