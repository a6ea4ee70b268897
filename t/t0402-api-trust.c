/*
** t0402-api-trust.c: libgerules verifies bundles as the gerules command
** does. A small bundle is signed with the command (`bundle keygen`, `bundle
** sign`); then, through gerules.h only: the untouched bundle loads under a
** trust store given as an option and under $GERULES_TRUST; a changed file,
** an added file, an unsigned bundle and an unknown key are each refused
** with NULL and the same diagnostics the command prints (every located one
** verbatim, the verdict as "gerules: error: ..."); anti-rollback refuses an
** older release and gerules_load_options_set_allow_downgrade accepts it on
** purpose; a broken trust store is refused; without a trust store nothing is
** verified.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "api/gerules.h"
#include "tap.h"

static char dir[4096];
static const char *cli;

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

static char *slurp(const char *p){
  FILE *f = fopen(p, "rb");
  char *b;
  long n;
  if( f==NULL ) return NULL;
  fseek(f, 0, SEEK_END); n = ftell(f); fseek(f, 0, SEEK_SET);
  b = calloc(1, (size_t)n + 1);
  if( fread(b, 1, (size_t)n, f)!=(size_t)n ){ free(b); b = NULL; }
  fclose(f);
  return b;
}

/* Signs bundle b (release VERSION) with the key k. */
static void sign(const char *version){
  char text[256];
  snprintf(text, sizeof text, "bundle \"mini\" { version \"%s\"; }\n", version);
  put("b/bundle.rules", text);
  sh("cd '%s' && rm -f b/MANIFEST b/MANIFEST.sig && \"$GERULES\" bundle sign --key k.key --expires 2099-01-01 b >/dev/null", dir);
}

/* Loads dir/b with the trust store `trust` (a file in dir; NULL: the
** environment decides) and the given downgrade choice. */
static gerules_rules *load(const char *trust, int downgrade, gerules_diags **d){
  char b[8192], t[8192], st[8192];
  const char *paths[1];
  gerules_load_options *o = gerules_load_options_new();
  gerules_rules *r;
  snprintf(b, sizeof b, "%s/b", dir);
  snprintf(t, sizeof t, "%s/%s", dir, trust ? trust : "");
  snprintf(st, sizeof st, "%s/state", dir);
  paths[0] = b;
  if( trust ) gerules_load_options_add_trust(o, t);
  gerules_load_options_set_state_file(o, st);
  gerules_load_options_set_allow_downgrade(o, downgrade);
  r = gerules_rules_load_with(paths, 1, o, d);
  gerules_load_options_free(o);
  return r;
}

/* Whether every diagnostic of d is in what the command printed for the
** same load: a located one as its first formatted line, the others as
** "gerules: error: MESSAGE". */
static int same_as_cli(const gerules_diags *d, const char *trust){
  char cmd[16384], out[8192];
  char *err, *all;
  size_t i;
  int same = 1;
  snprintf(out, sizeof out, "%s/cli.err", dir);
  if( snprintf(cmd, sizeof cmd, "cd '%s' && GERULES_STATE='%s/state' \"$GERULES\" --trust '%s' --rules '%s/b' chips >/dev/null 2>'%s'",
               dir, dir, trust, dir, out) >= (int)sizeof cmd ){ diag("the command line is too long"); return 0; }
  if( system(cmd)==0 ){ diag("the command accepted what the library refused"); return 0; }
  err = slurp(out);
  all = gerules_diags_format(d);
  for(i = 0; err && i < gerules_diags_count(d); i++){
    gerules_diag x;
    char line[4096];
    gerules_diags_get(d, i, &x);
    if( x.file ){
      /* the first formatted line of this diagnostic: find it in the list's text */
      char *p = all, *nl;
      int found = 0;
      while( p && *p ){
        nl = strchr(p, '\n');
        if( strncmp(p, x.file, strlen(x.file))==0 && strstr(p, x.message) && (nl==NULL || strstr(p, x.message) < nl) ){
          size_t n = nl ? (size_t)(nl - p) : strlen(p);
          snprintf(line, sizeof line, "%.*s\n", (int)n, p);
          found = 1;
          break;
        }
        p = nl ? nl + 1 : NULL;
      }
      if( !found || strstr(err, line)==NULL ){ diag("not printed by the command: %s", found ? line : x.message); same = 0; }
    }else{
      snprintf(line, sizeof line, "gerules: error: %s\n", x.message);
      if( strstr(err, line)==NULL ){ diag("not printed by the command: %s", line); same = 0; }
    }
  }
  if( !same && err ) diag("the command printed:\n%s", err);
  free(all);
  free(err);
  return same && err!=NULL;
}

/* The last (first) diagnostic's message, and whether some diagnostic is an error
** about file (a suffix) containing text. */
static const char *last_message(const gerules_diags *d){
  gerules_diag x;
  size_t n = gerules_diags_count(d);
  return n && gerules_diags_get(d, n - 1, &x)==0 ? x.message : "";
}
static const char *first_message(const gerules_diags *d){
  gerules_diag x;
  return gerules_diags_count(d) && gerules_diags_get(d, 0, &x)==0 ? x.message : "";
}
static int has_error(const gerules_diags *d, const char *file, const char *text){
  size_t i;
  for(i = 0; i < gerules_diags_count(d); i++){
    gerules_diag x;
    gerules_diags_get(d, i, &x);
    if( x.severity==GERULES_ERROR && x.file && strlen(x.file) >= strlen(file) &&
        strcmp(x.file + strlen(x.file) - strlen(file), file)==0 && strstr(x.message, text) ) return 1;
  }
  return 0;
}

int main(void){
  const char *tmp = getenv("TMPDIR");
  gerules_rules *r;
  gerules_diags *d = NULL;
  char env[8192];
  cli = getenv("GERULES");
  if( cli==NULL ){ printf("1..0 # SKIP GERULES is not set (run by make check)\n"); return 0; }
  snprintf(dir, sizeof dir, "%s/gerules-api-trust.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if( mkdtemp(dir)==NULL ){ printf("Bail out! mkdtemp\n"); return 1; }
  setenv("GERULES_TRUST", "none", 1);   /* none: not the machine's installed trust folder */
  sh("cd '%s' && mkdir b && \"$GERULES\" bundle keygen k >/dev/null && \"$GERULES\" bundle keygen other >/dev/null", dir);
  sign("1.0.0");
  put("b/extra.rules", "# a second file of the bundle\n");
  sign("1.0.0");

  r = load("k.pub", 0, &d);
  ok(r!=NULL, "the untouched signed bundle loads under a trust store option");
  ok(r && gerules_rules_name(r) && strcmp(gerules_rules_name(r), "mini")==0, "... and is the bundle");
  gerules_rules_free(r); gerules_diags_free(d);

  if( snprintf(env, sizeof env, "%s/other.pub:%s/k.pub", dir, dir) >= (int)sizeof env ){ printf("Bail out! the test directory's path is too long\n"); return 1; }
  setenv("GERULES_TRUST", env, 1);
  snprintf(env, sizeof env, "%s/state", dir);
  setenv("GERULES_STATE", env, 1);
  {
    char b[8192];
    const char *paths[1];
    snprintf(b, sizeof b, "%s/b", dir);
    paths[0] = b;
    r = gerules_rules_load(paths, 1, &d);
    ok(r!=NULL, "gerules_rules_load takes $GERULES_TRUST (a colon-separated list)");
    gerules_rules_free(r); gerules_diags_free(d);
    put("b/extra.rules", "# a second file of the bundle, changed\n");
    r = gerules_rules_load(paths, 1, &d);
    ok(r==NULL, "gerules_rules_load refuses a changed file under $GERULES_TRUST");
    ok(has_error(d, "b/extra.rules", "changed since the bundle was signed"), "... naming the file and the reason");
    like(last_message(d), "refusing the rule set: it does not pass verification against the trust store (1 problem)", "... then the verdict");
    gerules_diags_free(d);
  }
  setenv("GERULES_TRUST", "none", 1);   /* none: not the machine's installed trust folder */

  r = load("k.pub", 0, &d);
  ok(r==NULL && has_error(d, "b/extra.rules", "changed since the bundle was signed"), "a changed file is refused");
  ok(same_as_cli(d, "k.pub"), "... with the diagnostics the command prints");
  gerules_diags_free(d);

  put("b/extra.rules", "# a second file of the bundle\n");
  put("b/added.rules", "# not signed\n");
  r = load("k.pub", 0, &d);
  ok(r==NULL && has_error(d, "b/added.rules", ""), "an added file is refused, naming it");
  ok(same_as_cli(d, "k.pub"), "... with the diagnostics the command prints");
  gerules_diags_free(d);
  sh("rm -f '%s/b/added.rules'", dir);

  r = load("other.pub", 0, &d);
  ok(r==NULL && has_error(d, "MANIFEST.sig", "unknown key"), "a bundle signed by an unknown key is refused");
  ok(same_as_cli(d, "other.pub"), "... with the diagnostics the command prints");
  gerules_diags_free(d);

  sh("cd '%s' && cp -R b signed && rm b/MANIFEST b/MANIFEST.sig", dir);
  r = load("k.pub", 0, &d);
  ok(r==NULL && has_error(d, "b", "not signed"), "an unsigned bundle is refused");
  ok(same_as_cli(d, "k.pub"), "... with the diagnostics the command prints");
  gerules_diags_free(d);
  sh("cd '%s' && rm -rf b && mv signed b", dir);

  sign("2.0.0");
  r = load("k.pub", 0, &d);
  ok(r!=NULL, "a newer release loads (and is recorded)");
  gerules_rules_free(r); gerules_diags_free(d);
  sign("1.0.0");
  r = load("k.pub", 0, &d);
  ok(r==NULL && has_error(d, "MANIFEST", "older"), "an older release than one accepted before is refused");
  ok(same_as_cli(d, "k.pub"), "... with the diagnostics the command prints");
  gerules_diags_free(d);
  r = load("k.pub", 1, &d);
  ok(r!=NULL, "gerules_load_options_set_allow_downgrade accepts it on purpose");
  gerules_rules_free(r); gerules_diags_free(d);

  put("bad.pub", "key 0123456789abcdef AAAA broken\n");
  r = load("bad.pub", 0, &d);
  ok(r==NULL && has_error(d, "bad.pub", "malformed public key"), "a broken trust store is refused, located");
  like(last_message(d), "the trust store has errors", "... then the verdict");
  gerules_diags_free(d);

  put("b/extra.rules", "# changed, and no trust store configured\n");
  r = load(NULL, 0, &d);      /* GERULES_TRUST=none (set above): not the installed folder either */
  ok(r!=NULL, "without a trust store (GERULES_TRUST=none) nothing is verified");
  gerules_rules_free(r); gerules_diags_free(d);
  {
    char b[8192], k[8192];
    const char *paths[1];
    gerules_load_options *o = gerules_load_options_new();
    snprintf(b, sizeof b, "%s/b", dir);
    paths[0] = b;
    gerules_load_options_add_trust(o, "none");
    r = gerules_rules_load_with(paths, 1, o, &d);
    ok(r!=NULL, "the trust path 'none' alone verifies nothing");
    gerules_rules_free(r); gerules_diags_free(d);
    snprintf(k, sizeof k, "%s/k.pub", dir);
    gerules_load_options_add_trust(o, k);
    r = gerules_rules_load_with(paths, 1, o, &d);
    ok(r==NULL, "'none' beside a real trust store is refused");
    like(first_message(d), "--trust: 'none' (verify nothing) cannot be combined with a trust store", "... saying why");
    gerules_diags_free(d);
    gerules_load_options_free(o);
    if( snprintf(k, sizeof k, "none:%s/k.pub", dir) >= (int)sizeof k ){ printf("Bail out! the path is too long\n"); return 1; }
    setenv("GERULES_TRUST", k, 1);
    r = gerules_rules_load(paths, 1, &d);
    ok(r==NULL, "GERULES_TRUST=none:KEY is refused");
    like(first_message(d), "GERULES_TRUST: 'none' (verify nothing) cannot be combined with a trust store", "... saying why");
    gerules_diags_free(d);
    setenv("GERULES_TRUST", "none", 1);
  }
  sh("rm -rf '%s'", dir);
  return done_testing();
}
