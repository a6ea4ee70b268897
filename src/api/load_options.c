/*
** load_options.c: the trust policy of gerules_rules_load_with (the public
** gerules_load_options) and the guarded load itself, over
** src/bundle/guard.c: the library verifies bundles with the same loader,
** the same defaults and the same diagnostics as the gerules command, and
** offers explicitly the options the command has (--trust,
** --allow-downgrade, and the state file of $GERULES_STATE).
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "api/load_options.h"
#include "bundle/guard.h"

struct gerules_load_options {
  GR_VEC(char *) trust;
  char *state_file;
  int allow_downgrade;
};

gerules_load_options *gerules_load_options_new(void){ return gr_xcalloc(1, sizeof(gerules_load_options)); }

void gerules_load_options_free(gerules_load_options *o){
  size_t i;
  if( o==NULL ) return;
  for(i = 0; i < o->trust.n; i++) free(o->trust.v[i]);
  gr_vec_free(o->trust);
  free(o->state_file);
  free(o);
}

int gerules_load_options_add_trust(gerules_load_options *o, const char *path){
  char *p;
  if( o==NULL || path==NULL || !*path ) return -1;
  p = gr_xstrdup(path);
  gr_vec_push(o->trust, p);
  return 0;
}

int gerules_load_options_set_allow_downgrade(gerules_load_options *o, int on){
  if( o==NULL ) return -1;
  o->allow_downgrade = on!=0;
  return 0;
}

int gerules_load_options_set_state_file(gerules_load_options *o, const char *path){
  if( o==NULL || path==NULL || !*path ) return -1;
  free(o->state_file);
  o->state_file = gr_xstrdup(path);
  return 0;
}

gr_ruleset *gr_api_load_guarded(const char *const *paths, size_t n, const gerules_load_options *o, gr_diags *d){
  gr_guard_opts go;
  gr_guard *g = gr_xmalloc(sizeof *g);    /* holds a path buffer: not on the caller's stack */
  gr_ruleset *rs;
  int refused;
  memset(&go, 0, sizeof go);
  if( o ){
    go.trust_paths = (const char *const *)o->trust.v;
    go.ntrust = o->trust.n;
    go.state_file = o->state_file;
    go.allow_downgrade = o->allow_downgrade;
  }
  gr_guard_init(g, &go);
  rs = gr_guard_load(g, paths, n, d, d, &refused);
  gr_guard_free(g);
  free(g);
  return rs;
}
