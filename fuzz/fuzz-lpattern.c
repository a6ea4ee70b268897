/*
** fuzz-lpattern.c: libFuzzer target for the interruptible Lua pattern
** matcher (src/hooks/lpattern.c) on its own, without a Lua state.
**
** Input: byte 0 is the pattern length L (at most the bytes that follow),
** then L bytes of pattern, then the subject. The pattern is matched at every
** position of the subject as it is (the Lua functions pass unchecked
** patterns to the matcher), then searched with gr_lpat_search as the
** C-side filters do. An interrupt function stops the whole input after a
** fixed number of steps, so a catastrophic pattern costs a bounded and
** deterministic amount of work. Invariants (a violation aborts):
**   - every result is -1, 0 or 1; a match ends inside the subject, after
**     where it started; captures lie inside the subject;
**   - a pattern gr_lpat_problem accepts never fails for a reason other than
**     the interrupt or "pattern too complex";
**   - gr_lpat_search finds the first position where gr_lpat_match matches.
** The corpus replays as an ordinary test under make check (t/fuzz-replay.c).
** Build: fuzz/build.sh. Seeds: fuzz/corpus/lpattern/.
*/
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hooks/lpattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STOP_AFTER 64           /* interrupt calls per input: 64 x GR_LPAT_CHECK_STEPS steps */
static const char stop_msg[] = "interrupted by the fuzz target";

static int interrupt(void *ud, char *msg, size_t n){
  unsigned *calls = ud;
  if( ++*calls < STOP_AFTER ) return 0;
  snprintf(msg, n, "%s", stop_msg);
  return 1;
}

static void check(int cond, const char *what){
  if( !cond ){
    fprintf(stderr, "fuzz-lpattern: invariant broken: %s\n", what);
    abort();
  }
}

/* Whether an error of a pattern gr_lpat_problem accepted is an allowed one. */
static int allowed_error(const char *err){
  return strcmp(err, stop_msg)==0 || strcmp(err, "pattern too complex")==0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  size_t lp, ls, i, first = (size_t)-1;
  const char *p, *s;
  const char *problem;
  unsigned calls = 0;
  int stopped = 0, rc;
  gr_lpat m;
  if( size < 1 ) return 0;
  lp = data[0];
  if( lp > size - 1 ) lp = size - 1;
  p = (const char *)data + 1;
  s = p + lp;
  ls = size - 1 - lp;
  problem = gr_lpat_problem(p, lp);
  (void)gr_lpat_has_specials(p, lp);
  gr_lpat_init(&m, s, ls, p, lp, interrupt, &calls);
  for(i = 0; i <= ls && !stopped; i++){
    const char *e = NULL;
    int k;
    rc = gr_lpat_match(&m, s + i, &e);
    check(rc >= -1 && rc <= 1, "result in -1..1");
    if( rc < 0 ){
      check(m.err[0]!=0, "an error has a message");
      if( problem==NULL ) check(allowed_error(m.err), "a checked pattern fails only by interrupt or depth");
      if( strcmp(m.err, stop_msg)==0 ) stopped = 1;
      continue;
    }
    if( rc==0 ) continue;
    if( first==(size_t)-1 ) first = i;
    check(e >= s + i && e <= s + ls, "a match ends inside the subject, after its start");
    check(m.level >= 0 && m.level <= GR_LPAT_MAXCAP, "capture count");
    for(k = 0; k < m.level; k++){
      check(m.cap[k].init >= s && m.cap[k].init <= s + ls, "a capture starts inside the subject");
      check(m.cap[k].len >= GR_LPAT_CAP_POSITION, "capture length");
      if( m.cap[k].len >= 0 ) check((size_t)m.cap[k].len <= (size_t)(s + ls - m.cap[k].init), "a capture ends inside the subject");
    }
  }
  /* the search (anchor handled) agrees with the scan when neither was stopped */
  if( !stopped && problem==NULL && (lp==0 || p[0]!='^') ){
    size_t st = 0, en = 0;
    char err[160];
    calls = 0;
    rc = gr_lpat_search(s, ls, p, lp, interrupt, &calls, &st, &en, err, sizeof err);
    if( rc >= 0 ){
      check(rc==(first!=(size_t)-1), "search finds a match exactly when the scan does");
      if( rc ) check(st==first && en >= st && en <= ls, "search finds the first match");
    }else check(allowed_error(err), "search fails only by interrupt or depth");
  }
  return 0;
}
