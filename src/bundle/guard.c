/*
** guard.c: loading a rule set under a trust policy (guard.h), shared by the
** gerules command (src/cli/cli_rules.c) and libgerules (gerules_rules_load),
** so that the library verifies bundles exactly as every command does, with
** the same diagnostics. Rule files and hook files are verified on the bytes
** that are then parsed or run (one read each), never on a second read.
*/
#include "config.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "bundle/guard.h"

const char *gr_installed_trust_dir(void){ return GR_PKGDATADIR "/trust"; }

const char *gr_default_state_file(char *buf, size_t n){
  const char *s = getenv("GERULES_STATE"), *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
  int k;
  if( s && *s ) return s;
  if( x && *x ) k = snprintf(buf, n, "%s/gerules/accepted-bundles", x);
  else if( h && *h ) k = snprintf(buf, n, "%s/.local/state/gerules/accepted-bundles", h);
  else return NULL;
  return k > 0 && (size_t)k < n ? buf : NULL;
}

void gr_guard_init(gr_guard *g, const gr_guard_opts *o){
  memset(g, 0, sizeof *g);
  if( o ) g->o = *o;
  gr_trust_init(&g->trust);
  if( g->o.state_file==NULL ) g->o.state_file = gr_default_state_file(g->state_buf, sizeof g->state_buf);
}

static int has_entries(const char *dir){
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if( d==NULL ) return 0;
  while( (e = readdir(d))!=NULL ) if( e->d_name[0]!='.' ){ n = 1; break; }
  closedir(d);
  return n;
}

/* Adds the trust stores paths[0..n) (--trust, or $GERULES_TRUST split at
** its colons). "none" (GR_TRUST_NONE) configures no store, but only alone:
** beside a real store it would be a file of that name, which is never meant. */
static void add_stores(gr_guard *g, const char *what, const char *const *paths, size_t n, gr_diags *d){
  size_t i, nnone = 0;
  for(i = 0; i < n; i++) nnone += strcmp(paths[i], GR_TRUST_NONE)==0;
  if( nnone ){
    if( nnone < n ){
      gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "%s: '" GR_TRUST_NONE "' (verify nothing) cannot be combined with a trust store", what);
      g->failed = 1;
    }
    return;
  }
  for(i = 0; i < n; i++) if( gr_trust_add(&g->trust, paths[i], d)!=0 ) g->failed = 1;
  g->trusting = 1;
}

int gr_guard_setup(gr_guard *g, gr_diags *d){
  const char *env = getenv("GERULES_TRUST");
  const char *inst = g->o.installed_trust ? g->o.installed_trust : gr_installed_trust_dir();
  if( g->ready ) return g->failed ? -1 : 0;
  g->ready = 1;
  if( g->o.ntrust ){
    add_stores(g, "--trust", g->o.trust_paths, g->o.ntrust, d);
  }else if( env && *env ){
    const char *p = env, *el;
    size_t l, i, n = 0;
    char **v = gr_xcalloc(strlen(env) / 2 + 1, sizeof *v);   /* at most one per two bytes ("a:") */
    while( gr_split_next(&p, ":", &el, &l) ) if( l ) v[n++] = gr_xstrndup(el, l);
    add_stores(g, "GERULES_TRUST", (const char *const *)v, n, d);
    for(i = 0; i < n; i++) free(v[i]);
    free(v);
  }else if( !g->o.no_installed_trust && has_entries(inst) ){
    if( gr_trust_add(&g->trust, inst, d)!=0 ) g->failed = 1;
    g->trusting = 1;
  }
  if( g->trusting && gr_crypto_init()!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "cannot initialise libsodium");
    g->failed = 1;
  }
  if( g->failed ) gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "the trust store has errors");
  return g->failed ? -1 : 0;
}

/* The bundle directory a rule-set path belongs to: the path itself, or the
** directory holding a rule file. */
static char *bundle_root(const char *path){
  struct stat st;
  const char *slash;
  size_t l = strlen(path);
  while( l > 1 && path[l-1]=='/' ) l--;
  if( stat(path, &st)==0 && S_ISDIR(st.st_mode) ) return gr_xstrndup(path, l);
  slash = strrchr(path, '/');
  if( slash==NULL ) return gr_xstrdup(".");
  if( slash==path ) return gr_xstrdup("/");
  return gr_xstrndup(path, (size_t)(slash - path));
}

static void refuse(gr_diags *vd, size_t nerr){
  gr_diags_add(vd, GR_SEV_ERROR, NULL, 0, 0,
               "refusing the rule set: it does not pass verification against the trust store (%zu problem%s)",
               nerr, nerr==1 ? "" : "s");
}

/* The loader's check (gr_ruleset_load_checked): the bytes about to be
** parsed must be those of a verified file. Verifying these very bytes, not a
** second read of the path, is what closes the window in which a file could be
** swapped (by rename) between verification and parsing. */
typedef struct check_ctx { const gr_guard *g; gr_diags *vd; size_t nerr; } check_ctx;

static int check_bytes(void *ctx, const char *path, const char *text, size_t len){
  check_ctx *c = ctx;
  char why[PATH_MAX + 128];
  if( c->g->o.after_read ) c->g->o.after_read(c->g->o.after_read_ud, path);
  if( gr_verified_has(c->g->verified, c->g->nverified, path, text, len, why, sizeof why) ) return 0;
  gr_diags_add(c->vd, GR_SEV_ERROR, path, 0, 0, "%s", why);
  c->nerr++;
  return -1;
}

/* Every hook file the bundle names: read once, verified, and those bytes
** kept in the rule set, which is what the hook loaders then run. */
static size_t check_hooks(const gr_guard *g, gr_ruleset *rs, gr_diags *vd){
  size_t i, nerr = 0;
  char why[PATH_MAX + 128];
  if( rs->nhook_files==0 ) return 0;
  rs->hook_texts = gr_arena_calloc(&rs->arena, rs->nhook_files * sizeof *rs->hook_texts);
  rs->hook_lens = gr_arena_calloc(&rs->arena, rs->nhook_files * sizeof *rs->hook_lens);
  for(i = 0; i < rs->nhook_files; i++){
    const char *f = rs->hook_files[i];
    gr_error e;
    size_t len;
    char *text = gr_read_file(f, &len, &e);
    if( text==NULL ){ gr_diags_add(vd, GR_SEV_ERROR, f, 0, 0, "cannot read: %s", e.msg); nerr++; continue; }
    if( !gr_verified_has(g->verified, g->nverified, f, text, len, why, sizeof why) ){
      gr_diags_add(vd, GR_SEV_ERROR, f, 0, 0, "%s", why);
      nerr++;
    }else{
      char *kept = gr_arena_alloc(&rs->arena, len + 1);
      memcpy(kept, text, len + 1);
      rs->hook_texts[i] = kept;
      rs->hook_lens[i] = len;
    }
    free(text);
  }
  return nerr;
}

gr_ruleset *gr_guard_load(gr_guard *g, const char *const *paths, size_t n, gr_diags *d, gr_diags *vd, int *refused){
  gr_ruleset *rs;
  size_t i, nerr = 0, first = g->nverified;
  *refused = 0;
  if( gr_guard_setup(g, vd)!=0 ){ *refused = 1; return NULL; }
  if( !g->trusting ) return gr_ruleset_load(paths, n, d);
  for(i = 0; i < n; i++){
    gr_verify_opts o;
    gr_verified v;
    size_t before = gr_diags_errors(vd);
    char *root = bundle_root(paths[i]);
    memset(&o, 0, sizeof o);
    o.trust = &g->trust;
    o.now = time(NULL);
    o.state_file = g->o.state_file;
    o.allow_downgrade = g->o.allow_downgrade;
    if( gr_bundle_verify(root, &o, &v, vd)==0 ){
      g->verified = gr_xrealloc(g->verified, (g->nverified + 1) * sizeof *g->verified);
      g->verified[g->nverified++] = v;
    }
    nerr += gr_diags_errors(vd) - before;
    free(root);
  }
  if( nerr ){ refuse(vd, nerr); *refused = 1; return NULL; }
  {
    check_ctx c = { g, vd, 0 };
    rs = gr_ruleset_load_checked(paths, n, check_bytes, &c, d);
    if( c.nerr ){
      refuse(vd, c.nerr);
      *refused = 1;
      gr_ruleset_free(rs);
      return NULL;
    }
  }
  if( rs && (nerr = check_hooks(g, rs, vd))!=0 ){
    refuse(vd, nerr);
    *refused = 1;
    gr_ruleset_free(rs);
    return NULL;
  }
  if( rs && !g->o.no_record ){
    if( g->o.state_file==NULL ) gr_diags_add(vd, GR_SEV_WARNING, NULL, 0, 0, "no anti-rollback state file (set GERULES_STATE or HOME)");
    for(i = first; g->o.state_file && i < g->nverified; i++){
      gr_diags one;
      gr_diags_init(&one);
      if( gr_state_record(g->o.state_file, g->verified[i].name, g->verified[i].version, &one)!=0 ){
        /* the bundle is verified; failing to record it only weakens anti-rollback */
        size_t k;
        for(k = 0; k < one.n; k++) gr_diags_add(vd, GR_SEV_WARNING, one.v[k].file, one.v[k].line, one.v[k].col, "%s", one.v[k].msg);
        gr_diags_add(vd, GR_SEV_WARNING, NULL, 0, 0, "the anti-rollback state was not updated");
      }
      gr_diags_free(&one);
    }
  }
  return rs;
}

void gr_guard_free(gr_guard *g){
  size_t i;
  for(i = 0; i < g->nverified; i++) gr_verified_free(&g->verified[i]);
  free(g->verified);
  g->verified = NULL; g->nverified = 0;
  gr_trust_free(&g->trust);
}
