/*
** t0501-bundle-trust-race.c: a signed bundle's files are verified on the
** bytes that are parsed, never on a second read (issue 30, class 1: a file
** swapped by rename between two reads was used unverified). The race is made
** deterministic with the guard's after_read test hook: when the loader has
** read the first rule file, the hook renames a changed x.rules into place;
** when the loader has read that changed x.rules, the hook renames the signed
** one back. The load must be refused, although the disk then holds exactly
** the signed bytes (a check that read the path again would pass: the next
** load, with no hook, does pass). The bytes of a verified hook file are kept
** in the rule set, so a hook swapped after the check is never run either.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bundle/guard.h"
#include "tap.h"

static char dir[4096];

static void sh(const char *fmt, const char *a){
  char cmd[16384];
  snprintf(cmd, sizeof cmd, fmt, a);
  if( system(cmd)!=0 ) diag("command failed: %s", cmd);
}

static void put(const char *rel, const char *text){
  char p[8192];
  FILE *f;
  snprintf(p, sizeof p, "%s/%s", dir, rel);
  if( (f = fopen(p, "w"))==NULL ){ diag("cannot write %s", p); return; }
  fputs(text, f);
  fclose(f);
}

static void mv(const char *from, const char *to){
  char a[8192], b[8192];
  snprintf(a, sizeof a, "%s/%s", dir, from);
  snprintf(b, sizeof b, "%s/%s", dir, to);
  if( rename(a, b)!=0 ) diag("rename %s %s failed", a, b);
}

static const char good_x[] = "# signed\n";
static const char evil_x[] = "# changed after signing\n";

/* The swap, in step with the loader's reads. */
static int nreads, swapped_in, swapped_back;
static void race(void *ud, const char *path){
  (void)ud;
  nreads++;
  if( strstr(path, "bundle.rules") && !swapped_in ){
    put("evil.tmp", evil_x);
    mv("b/x.rules", "good.tmp");
    mv("evil.tmp", "b/x.rules");       /* the loader reads x.rules next */
    swapped_in = 1;
  }else if( strstr(path, "x.rules") && swapped_in && !swapped_back ){
    mv("b/x.rules", "evil.seen");
    mv("good.tmp", "b/x.rules");       /* the disk holds the signed bytes again */
    swapped_back = 1;
  }
}

static gr_ruleset *load(int with_race, gr_diags *d, int *refused){
  char b[8192], t[8192], st[8192];
  const char *tp[1], *paths[1];
  gr_guard_opts o;
  gr_guard g;
  gr_ruleset *rs;
  snprintf(b, sizeof b, "%s/b", dir);
  snprintf(t, sizeof t, "%s/k.pub", dir);
  snprintf(st, sizeof st, "%s/state", dir);
  tp[0] = t; paths[0] = b;
  memset(&o, 0, sizeof o);
  o.trust_paths = tp; o.ntrust = 1;
  o.state_file = st;
  o.no_record = 1;
  if( with_race ) o.after_read = race;
  gr_guard_init(&g, &o);
  rs = gr_guard_load(&g, paths, 1, d, d, refused);
  gr_guard_free(&g);
  return rs;
}

static int has(const gr_diags *d, const char *file, const char *text){
  size_t i;
  for(i = 0; i < d->n; i++){
    const char *f = d->v[i].file;
    if( f && strlen(f) >= strlen(file) && strcmp(f + strlen(f) - strlen(file), file)==0 && strstr(d->v[i].msg, text) ) return 1;
  }
  return 0;
}

int main(void){
  const char *tmp = getenv("TMPDIR");
  gr_diags d;
  gr_ruleset *rs;
  int refused = 0;
  if( getenv("GERULES")==NULL ){ printf("1..0 # SKIP GERULES is not set (run by make check)\n"); return 0; }
  snprintf(dir, sizeof dir, "%s/gerules-trust-race.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if( mkdtemp(dir)==NULL ){ printf("Bail out! mkdtemp\n"); return 1; }
  setenv("GERULES_TRUST", "none", 1);   /* none: not the machine's installed trust folder */
  sh("cd '%s' && mkdir b && \"$GERULES\" bundle keygen k >/dev/null", dir);
  put("b/bundle.rules", "bundle \"race\" { version \"1.0.0\"; hook \"h.lua\"; }\n");
  put("b/h.lua", "-- the signed hook\n");
  put("b/x.rules", good_x);
  sh("cd '%s' && \"$GERULES\" bundle sign --key k.key --expires 2099-01-01 b >/dev/null", dir);

  gr_diags_init(&d);
  rs = load(0, &d, &refused);
  ok(rs!=NULL && !refused, "without the race the signed bundle loads");
  ok(rs && rs->nhook_files==1 && rs->hook_texts && rs->hook_texts[0] && rs->hook_lens[0]==strlen("-- the signed hook\n") &&
     memcmp(rs->hook_texts[0], "-- the signed hook\n", rs->hook_lens[0])==0,
     "the verified bytes of the hook file are kept in the rule set (the hook loaders run these, not a new read)");
  gr_ruleset_free(rs);
  gr_diags_free(&d);

  gr_diags_init(&d);
  rs = load(1, &d, &refused);
  ok(swapped_in && swapped_back, "the hook swapped x.rules in after the first read and back after x.rules was read");
  ok(rs==NULL && refused, "a file swapped by rename between verification and parsing is refused");
  ok(has(&d, "b/x.rules", "changed since the bundle"), "... naming the swapped file and why");
  gr_ruleset_free(rs);
  gr_diags_free(&d);

  gr_diags_init(&d);
  nreads = 0;
  rs = load(0, &d, &refused);
  ok(rs!=NULL && !refused && nreads==0, "the disk held the signed bytes: a second read would have passed (and this load does)");
  gr_ruleset_free(rs);
  gr_diags_free(&d);

  sh("rm -rf '%s'", dir);
  return done_testing();
}
