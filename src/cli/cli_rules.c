/*
** cli_rules.c: the one place the gerules command loads rule sets. Every
** command (eval, tile, check, chips, options, explain, and later diff and
** test) comes through cli_load_paths, so when a trust store is configured
** (--trust, $GERULES_TRUST, or an installed trust folder) no command can use
** a bundle that fails verification: each bundle directory is verified
** (signatures, trust, expiry, files, anti-rollback) before it is read, every
** file the loader then read and every hook file the bundle names must be one
** of the verified files, and only then is the newest accepted version
** recorded in the anti-rollback state file.
*/
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include "cli/cli.h"

static int has_entries(const char *dir){
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if( d==NULL ) return 0;
  while( (e = readdir(d))!=NULL ) if( e->d_name[0]!='.' ){ n = 1; break; }
  closedir(d);
  return n;
}

const char *cli_installed_bundles(void){
  static char buf[PATH_MAX + 16];
  snprintf(buf, sizeof buf, "%s/bundles", cli_data_dir());
  return buf;
}

/* The CANN release the graph of this run was built for: its model attribute
** atc_version (the ATC release that wrote it), else opp_version (the operator
** package's), the model attributes GE's generator writes (hicann/ge,
** GeGenerator::Impl::SetAtcVersionInfo / SetOppVersionInfo: ATTR_MODEL_ATC_VERSION,
** ATTR_MODEL_OPP_VERSION). NULL when there is no
** graph, it is standard input, or it has neither; a graph that does not
** load says nothing here (loading it for the run reports why). */
static const char *graph_cann(cli_ctx *c){
  static const char *const keys[] = { "atc_version", "opp_version" };
  if( !c->graph_cann_done && c->graph_hint && strcmp(c->graph_hint, "-")!=0 ){
    gr_model_opts mo;
    gr_error err;
    gr_graph *g;
    size_t i;
    memset(&mo, 0, sizeof mo);
    memset(&err, 0, sizeof err);
    if( (g = gr_model_load_file(c->graph_hint, &mo, &err))!=NULL ){
      for(i = 0; i < 2 && c->graph_cann==NULL; i++){
        const char *v = gr_graph_model_attr(g, keys[i]);
        if( v && gr_cann_valid(v) ){ c->graph_cann = gr_xstrdup(v); c->graph_cann_key = keys[i]; }
      }
      gr_graph_free(g);
    }
  }
  c->graph_cann_done = 1;
  return c->graph_cann;
}

/* --rules NAME, not a path: the installed release of bundle NAME for the
** CANN release in use (--cann, else the graph's), saying which. NULL when
** none is installed. */
static char *installed_release(cli_ctx *c, const char *name){
  gr_installed *v;
  size_t n = gr_installed_list(cli_installed_bundles(), name, &v), k;
  const char *cann = c->cann;
  char *from, *dir;
  int covered;
  if( n==0 ){
    struct stat st;
    char *inst = gr_xasprintf("%s/%s", cli_installed_bundles(), name);
    if( stat(inst, &st)==0 ) return inst;       /* a directory named so, whatever it declares */
    free(inst);
    return NULL;
  }
  if( cann ) from = gr_xstrdup("--cann");
  else if( n > 1 && graph_cann(c) ){            /* reading the graph twice is worth it only to choose */
    cann = c->graph_cann;
    from = gr_xasprintf("the %s of %s", c->graph_cann_key, c->graph_hint);
  }else from = NULL;
  k = gr_installed_pick(v, n, cann, &covered);
  if( cann && covered )
    fprintf(stderr, "gerules: note: bundle '%s': using %s (%s), the newest of %zu installed release%s whose CANN range (%s) contains %s (%s)\n",
            name, v[k].version ? v[k].version : "without a version", v[k].dir, n, n==1 ? "" : "s", v[k].cann, cann, from);
  else if( cann )
    fprintf(stderr, "gerules: warning: no installed release of bundle '%s' describes CANN %s (%s); using the nearest, %s (%s, CANN %s)\n",
            name, cann, from, v[k].version ? v[k].version : "without a version", v[k].dir, v[k].cann ? v[k].cann : "range not given");
  else if( n > 1 )
    fprintf(stderr, "gerules: note: bundle '%s': using %s (%s), the newest of %zu installed releases (no --cann%s)\n",
            name, v[k].version ? v[k].version : "without a version", v[k].dir, n,
            c->graph_hint ? ", and the graph records no CANN release" : "");
  dir = gr_xstrdup(v[k].dir);
  free(from);
  gr_installed_free(v, n);
  return dir;
}

static void use_path(cli_ctx *c, const char *p, size_t l){
  struct stat st;
  char *one = gr_xstrndup(p, l);
  if( stat(one, &st)!=0 && strchr(one, '/')==NULL ){
    /* not a path: an installed bundle of that name */
    char *inst = installed_release(c, one);
    if( inst ){ free(one); one = inst; }
  }
  c->use_paths = gr_xrealloc(c->use_paths, (c->nuse_paths + 1) * sizeof *c->use_paths);
  c->use_paths[c->nuse_paths++] = one;
}

size_t cli_rule_paths(cli_ctx *c, const char *const **out){
  size_t i;
  if( c->nuse_paths==0 ){
    if( c->nrules_paths ){
      for(i = 0; i < c->nrules_paths; i++) use_path(c, c->rules_paths[i], strlen(c->rules_paths[i]));
    }else{
      const char *p = cli_default_rules(), *el;
      size_t l;
      while( gr_split_next(&p, ":", &el, &l) ) if( l ) use_path(c, el, l);
      if( c->nuse_paths==0 ) use_path(c, ".", 1);
    }
  }
  *out = (const char *const *)c->use_paths;
  return c->nuse_paths;
}

const char *cli_installed_trust(void){
  static char buf[PATH_MAX + 16];
  snprintf(buf, sizeof buf, "%s/trust", cli_data_dir());
  return buf;
}

/* $GERULES_STATE, else $XDG_STATE_HOME/gerules/accepted-bundles, else
** $HOME/.local/state/gerules/accepted-bundles; NULL when none is set. */
const char *cli_state_file(void){
  static char buf[PATH_MAX];
  const char *s = getenv("GERULES_STATE"), *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
  int n;
  if( s && *s ) return s;
  if( x && *x ) n = snprintf(buf, sizeof buf, "%s/gerules/accepted-bundles", x);
  else if( h && *h ) n = snprintf(buf, sizeof buf, "%s/.local/state/gerules/accepted-bundles", h);
  else return NULL;
  return n > 0 && (size_t)n < sizeof buf ? buf : NULL;
}

int cli_trust_setup(cli_ctx *c){
  size_t i;
  const char *env = getenv("GERULES_TRUST");
  if( c->trust_ready ) return c->trust_failed ? -1 : 0;
  c->trust_ready = 1;
  gr_trust_init(&c->trust);
  if( c->ntrust_paths ){
    for(i = 0; i < c->ntrust_paths; i++) if( gr_trust_add(&c->trust, c->trust_paths[i], &c->diags)!=0 ) c->trust_failed = 1;
    c->trusting = 1;
  }else if( env && *env ){
    const char *p = env, *el;
    size_t l;
    while( gr_split_next(&p, ":", &el, &l) ){
      char *one;
      if( l==0 ) continue;
      one = gr_xstrndup(el, l);
      if( gr_trust_add(&c->trust, one, &c->diags)!=0 ) c->trust_failed = 1;
      free(one);
    }
    c->trusting = 1;
  }else if( has_entries(cli_installed_trust()) ){
    if( gr_trust_add(&c->trust, cli_installed_trust(), &c->diags)!=0 ) c->trust_failed = 1;
    c->trusting = 1;
  }
  if( c->trusting && gr_crypto_init()!=0 ){
    gr_diags_add(&c->diags, GR_SEV_ERROR, NULL, 0, 0, "cannot initialise libsodium");
    c->trust_failed = 1;
  }
  if( c->trust_failed ){
    cli_print_diags(&c->diags);
    fprintf(stderr, "gerules: the trust store has errors\n");
    return -1;
  }
  return 0;
}

/* The bundle directory a --rules path belongs to: the path itself, or the
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

static void refuse(cli_ctx *c, gr_diags *d){
  cli_print_diags(d);
  fprintf(stderr, "gerules: refusing the rule set: it does not pass verification against the trust store (%zu problem%s)\n",
          gr_diags_errors(d), gr_diags_errors(d)==1 ? "" : "s");
  (void)c;
}

/* Every file read and every hook file must be one of the verified files. */
static int check_loaded(cli_ctx *c, const gr_ruleset *rs, gr_diags *d){
  size_t i;
  char why[PATH_MAX + 128];
  int nerr = 0;
  for(i = 0; i < rs->nfiles + rs->nhook_files; i++){
    const char *f = i < rs->nfiles ? rs->files[i] : rs->hook_files[i - rs->nfiles];
    gr_error e;
    size_t len;
    char *text = gr_read_file(f, &len, &e);
    if( text==NULL ){ gr_diags_add(d, GR_SEV_ERROR, f, 0, 0, "cannot read: %s", e.msg); nerr++; continue; }
    if( !gr_verified_has(c->verified, c->nverified, f, text, len, why, sizeof why) ){
      gr_diags_add(d, GR_SEV_ERROR, f, 0, 0, "%s", why);
      nerr++;
    }
    free(text);
  }
  return nerr ? -1 : 0;
}

gr_ruleset *cli_load_paths(cli_ctx *c, const char *const *paths, size_t n){
  gr_ruleset *rs;
  size_t i;
  gr_diags vd;
  if( cli_trust_setup(c)!=0 ) return NULL;
  if( !c->trusting ) return gr_ruleset_load(paths, n, &c->diags);
  gr_diags_init(&vd);
  for(i = 0; i < n; i++){
    gr_verify_opts o;
    gr_verified v;
    char *root = bundle_root(paths[i]);
    memset(&o, 0, sizeof o);
    o.trust = &c->trust;
    o.now = time(NULL);
    o.state_file = cli_state_file();
    o.allow_downgrade = c->allow_downgrade;
    if( gr_bundle_verify(root, &o, &v, &vd)==0 ){
      c->verified = gr_xrealloc(c->verified, (c->nverified + 1) * sizeof *c->verified);
      c->verified[c->nverified++] = v;
    }
    free(root);
  }
  if( gr_diags_errors(&vd) ){
    refuse(c, &vd);
    gr_diags_free(&vd);
    c->refused = 1;
    return NULL;
  }
  rs = gr_ruleset_load(paths, n, &c->diags);
  if( rs && check_loaded(c, rs, &vd)!=0 ){
    refuse(c, &vd);
    gr_diags_free(&vd);
    gr_ruleset_free(rs);
    c->refused = 1;
    return NULL;
  }
  if( rs ){
    const char *sf = cli_state_file();
    for(i = 0; sf && !c->no_record && i < c->nverified; i++){
      if( gr_state_record(sf, c->verified[i].name, c->verified[i].version, &vd)!=0 ){
        /* the bundle is verified; failing to record it only weakens anti-rollback */
        cli_print_diags(&vd);
        fprintf(stderr, "gerules: warning: the anti-rollback state was not updated\n");
        gr_diags_free(&vd);
        gr_diags_init(&vd);
      }
    }
    if( sf==NULL && !c->no_record ) fprintf(stderr, "gerules: warning: no anti-rollback state file (set GERULES_STATE or HOME)\n");
  }
  gr_diags_free(&vd);
  return rs;
}

void cli_trust_free(cli_ctx *c){
  size_t i;
  for(i = 0; i < c->nverified; i++) gr_verified_free(&c->verified[i]);
  free(c->verified);
  c->verified = NULL; c->nverified = 0;
  gr_trust_free(&c->trust);
  free(c->graph_cann);
  c->graph_cann = NULL;
  for(i = 0; i < c->nuse_paths; i++) free(c->use_paths[i]);
  free(c->use_paths);
  c->use_paths = NULL; c->nuse_paths = 0;
}
