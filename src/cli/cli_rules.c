/*
** cli_rules.c: the one place the gerules command loads rule sets. Every
** command (eval, tile, check, chips, options, explain, diff, test) comes
** through cli_load_paths, which loads under the trust policy of the command
** line (--trust, $GERULES_TRUST or the installed trust folder;
** --allow-downgrade) with src/bundle/guard.c, the loader libgerules uses
** too: when a trust store is configured no command can use a bundle that
** fails verification. It also turns a --rules NAME into the installed
** release of that bundle for the CANN release in use.
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
  if( cann || n > 1 ) c->choice_made = 1;
  if( c->choice_deferred ) ;                    /* said when the choice is made again */
  else if( cann && covered )
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

void cli_forget_rules(cli_ctx *c){
  size_t i;
  gr_ruleset_free(c->rs);
  c->rs = NULL;
  for(i = 0; i < c->nuse_paths; i++) free(c->use_paths[i]);
  free(c->use_paths);
  c->use_paths = NULL;
  c->nuse_paths = 0;
  free(c->graph_cann);
  c->graph_cann = NULL;
  c->graph_cann_key = NULL;
  c->graph_cann_done = 0;
  c->choice_made = 0;
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

/* The diagnostics of verification: located ones as every diagnostic, the
** others (the verdict, warnings about the state file) as the command's. */
static void print_trust(const gr_diags *d){
  size_t i;
  for(i = 0; i < d->n; i++){
    const gr_diag *x = &d->v[i];
    if( x->file==NULL ) fprintf(stderr, "gerules: %s: %s\n", gr_severity_name(x->sev), x->msg);
    else{
      gr_diags one = *d;            /* a view of this one record */
      one.v = (gr_diag *)x;
      one.n = one.cap = 1;
      cli_print_diags(&one);
    }
  }
}

int cli_trust_setup(cli_ctx *c){
  gr_diags d;
  if( !c->trust_ready ){
    gr_guard_opts o;
    memset(&o, 0, sizeof o);
    o.trust_paths = c->trust_paths;
    o.ntrust = c->ntrust_paths;
    o.installed_trust = cli_installed_trust();
    /* A binary run from its build tree reads that tree's unsigned rules/:
    ** the trust folder a `make install` put in the configured prefix is
    ** for the installed binary, and would refuse them. */
    o.no_installed_trust = cli_build_srcdir()!=NULL;
    o.allow_downgrade = c->allow_downgrade;
    gr_guard_init(&c->guard, &o);
    c->trust_ready = 1;
  }
  gr_diags_init(&d);
  if( gr_guard_setup(&c->guard, &d)!=0 ){
    if( !c->trust_failed ) print_trust(&d);
    c->trust_failed = 1;
  }
  gr_diags_free(&d);
  c->trusting = c->guard.trusting;
  return c->trust_failed ? -1 : 0;
}

gr_ruleset *cli_load_paths(cli_ctx *c, const char *const *paths, size_t n){
  gr_ruleset *rs;
  gr_diags vd;
  int refused;
  if( cli_trust_setup(c)!=0 ) return NULL;
  c->guard.o.no_record = c->no_record;
  gr_diags_init(&vd);
  rs = gr_guard_load(&c->guard, paths, n, &c->diags, &vd, &refused);
  print_trust(&vd);
  if( refused ) c->refused = 1;
  gr_diags_free(&vd);
  return rs;
}

void cli_trust_free(cli_ctx *c){
  size_t i;
  if( c->trust_ready ) gr_guard_free(&c->guard);
  c->trust_ready = 0;
  free(c->graph_cann);
  c->graph_cann = NULL;
  for(i = 0; i < c->nuse_paths; i++) free(c->use_paths[i]);
  free(c->use_paths);
  c->use_paths = NULL; c->nuse_paths = 0;
}
