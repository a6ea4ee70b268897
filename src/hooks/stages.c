/*
** stages.c: runs the scripts. Loading a script runs its top level (where it
** registers callbacks, api.c) under the limits of one evaluation; the
** gr_eval_hooks vtable then calls the callbacks at each evaluation stage:
** begin, each node whose op type and name pass the callback's filter (the
** filters are decided once per op type, then per node name), end. Stage
** callbacks run in load order, then registration order. A failing callback
** becomes an error diagnostic located in its script.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "hooks/internal.h"
#include "hooks/lpattern.h"

const char *const hk_stage_names[] = { "idle", "load", "begin", "node", "end", "tiling" };

static const char *node_name(const gr_hooks *h, uint32_t n){
  return gr_graph_str(h->r->g, gr_graph_nodes(h->r->g)[n].name);
}

/* ------------------------------------------------------------------ */
/* calling a callback */

/* A failed stage callback: an error diagnostic located in the script. */
static int fail_stage(gr_hooks *h, script *sc, int rc, uint32_t node){
  uint32_t line;
  gr_diag *d;
  hk_error_text(sc, rc, &h->scratch, &line);
  d = gr_diags_add(&h->r->diags, GR_SEV_ERROR, sc->path, line, 0, "%s", gr_buf_cstr(&h->scratch));
  if( node!=GR_NONE && h->r->g ) gr_diag_set(&d->node, node_name(h, node));
  h->r->fatal = 1;
  return -1;
}

static int fail_msg(gr_hooks *h, script *sc, uint32_t line, const char *msg){
  gr_diags_add(&h->r->diags, GR_SEV_ERROR, sc ? sc->path : NULL, line, 0, "%s", msg);
  h->r->fatal = 1;
  return -1;
}

/* Calls callback cb (with the node when n != GR_NONE). */
static int call_cb(gr_hooks *h, callback *cb, uint32_t n){
  script *sc = cb->sc;
  lua_State *L = sc->L;
  int base = lua_gettop(L), rc;
  if( h->tripped ) return fail_msg(h, sc, 0, h->trip_msg);
  lua_pushcfunction(L, hk_traceback);
  lua_rawgeti(L, LUA_REGISTRYINDEX, cb->ref);
  if( n!=GR_NONE ) hk_push_node(L, n);
  sc->running = 1;
  hk_run_enter(h);
  rc = lua_pcall(L, n!=GR_NONE, 1, base + 1);
  hk_run_leave(h);
  sc->running = 0;
  if( rc!=LUA_OK ){
    fail_stage(h, sc, rc, n);
    lua_settop(L, base);
    return -1;
  }
  if( !lua_isnil(L, -1) ){
    char m[200];
    snprintf(m, sizeof m, "the %s callback defined here returned a %s; callbacks return nothing",
             hk_stage_names[cb->stage], luaL_typename(L, -1));
    lua_settop(L, base);
    return fail_msg(h, sc, cb->line, m);
  }
  lua_settop(L, base);
  return 0;
}


void hk_start_run(gr_hooks *h, gr_result *r){
  size_t k;
  h->r = r;
  hk_reset_limits(h);
  h->pending[0] = 0;
  for(k = 0; k < h->nscripts; k++){
    hk_arm(h->scripts[k]->L);
    h->scripts[k]->mem_line = 0;
  }
}

static int run_stage(gr_hooks *h, int stage){
  size_t k;
  h->stage = stage;
  for(k = 0; k < h->ncbs; k++){
    if( h->cbs[k].stage!=stage ) continue;
    if( call_cb(h, &h->cbs[k], GR_NONE)!=0 ){ h->stage = ST_IDLE; return -1; }
  }
  return 0;
}

static int vt_begin(void *ctx, gr_result *r){
  gr_hooks *h = ctx;
  hk_start_run(h, r);
  h->decided = 0;
  free(h->want);
  h->want = NULL;
  h->want_types = 0;
  return run_stage(h, ST_BEGIN);
}

static int vt_wants_type(void *ctx, gr_result *r, uint32_t type){
  gr_hooks *h = ctx;
  const char *name = gr_graph_type_name(r->g, type);
  size_t k, K = h->nnode_cbs;
  int any = 0;
  if( K==0 ) return 0;
  if( h->want==NULL || type==0 ){
    free(h->want);
    h->want_types = gr_graph_ntypes(r->g);
    h->want = gr_xcalloc((size_t)h->want_types * K + 1, 1);
  }
  if( type >= h->want_types ) return 0;
  hk_run_enter(h);
  for(k = 0; k < K; k++){
    const callback *cb = &h->cbs[h->node_cbs[k]];
    int w = cb->ntypes==0;
    size_t j;
    for(j = 0; j < cb->ntypes && !w; j++) if( strcmp(cb->types[j], name)==0 ) w = 1;
    if( w && cb->type_pat ){
      char err[160];
      int m = gr_lpat_search(name, strlen(name), cb->type_pat, strlen(cb->type_pat), hk_lpat_interrupt, h, NULL, NULL,
                             err, sizeof err);
      if( m < 0 && h->pending[0]==0 )
        snprintf(h->pending, sizeof h->pending, "%s:%u: error in the type_pattern filter: %s", cb->sc->path, cb->line, err);
      w = m > 0;
    }
    h->want[(size_t)type * K + k] = (uint8_t)w;
    any |= w;
  }
  hk_run_leave(h);
  return any || h->pending[0];
}

static int report_pending(gr_hooks *h){
  gr_diags_add(&h->r->diags, GR_SEV_ERROR, NULL, 0, 0, "%s", h->pending);
  h->r->fatal = 1;
  return -1;
}

static int vt_node(void *ctx, gr_result *r, uint32_t n){
  gr_hooks *h = ctx;
  const gr_node *nd = &gr_graph_nodes(r->g)[n];
  size_t k, K = h->nnode_cbs;
  const uint8_t *w;
  if( h->pending[0] ) return report_pending(h);
  if( h->want==NULL || nd->type >= h->want_types ) return 0;
  w = h->want + (size_t)nd->type * K;
  h->stage = ST_NODE;
  h->cur_node = n;
  h->decided = n + 1;
  for(k = 0; k < K; k++){
    callback *cb;
    if( !w[k] ) continue;
    cb = &h->cbs[h->node_cbs[k]];
    if( cb->name_pat ){
      char err[160];
      int m;
      hk_run_enter(h);
      {
        const char *name = gr_graph_str(r->g, nd->name);
        m = gr_lpat_search(name, strlen(name), cb->name_pat, strlen(cb->name_pat), hk_lpat_interrupt, h, NULL, NULL,
                           err, sizeof err);
      }
      hk_run_leave(h);
      if( m < 0 ){
        char msg[300];
        snprintf(msg, sizeof msg, "error in the name filter: %s", err);
        return fail_msg(h, cb->sc, cb->line, msg);
      }
      if( m==0 ) continue;
    }
    if( call_cb(h, cb, n)!=0 ) return -1;
  }
  return 0;
}

static int vt_end(void *ctx, gr_result *r){
  gr_hooks *h = ctx;
  int rc;
  if( h->r!=r ) hk_start_run(h, r);
  if( h->pending[0] ) return report_pending(h);
  h->decided = r->g ? gr_graph_nnodes(r->g) : 0;
  rc = run_stage(h, ST_END);
  h->stage = ST_IDLE;
  return rc;
}

/* ------------------------------------------------------------------ */
/* public API */

void gr_hooks_limits_default(gr_hooks_limits *lim){
  memset(lim, 0, sizeof *lim);
  lim->memory = (size_t)64 << 20;
  lim->instructions = 100000000ull;
  lim->timeout = 10.0;
}

gr_hooks *gr_hooks_new(const gr_ruleset *rs, const gr_hooks_limits *lim){
  gr_hooks *h = gr_xcalloc(1, sizeof *h);
  h->rs = rs;
  if( lim ) h->lim = *lim;
  else gr_hooks_limits_default(&h->lim);
  if( h->lim.memory < ((size_t)1 << 20) ) h->lim.memory = (size_t)1 << 20;
  if( h->lim.instructions < HK_TICK ) h->lim.instructions = HK_TICK;
  if( !(h->lim.timeout > 0) ) h->lim.timeout = 0.001;
  h->vt.ctx = h;
  h->vt.begin = vt_begin;
  h->vt.wants_type = vt_wants_type;
  h->vt.node = vt_node;
  h->vt.end = vt_end;
  gr_buf_init(&h->scratch);
  return h;
}

void gr_hooks_set_log(gr_hooks *h, void (*fn)(void *ud, const char *line), void *ud){
  h->log = fn;
  h->log_ud = ud;
}

const gr_eval_hooks *gr_hooks_vtable(gr_hooks *h){ return &h->vt; }

static void free_cb(callback *cb){
  size_t j;
  for(j = 0; j < cb->ntypes; j++) free(cb->types[j]);
  free(cb->types);
  free(cb->type_pat);
  free(cb->name_pat);
}

static void rebuild_node_cbs(gr_hooks *h){
  size_t k;
  free(h->node_cbs);
  h->node_cbs = gr_xmalloc((h->ncbs + 1) * sizeof *h->node_cbs);
  h->nnode_cbs = 0;
  for(k = 0; k < h->ncbs; k++) if( h->cbs[k].stage==ST_NODE ) h->node_cbs[h->nnode_cbs++] = k;
}

int gr_hooks_load_buffer(gr_hooks *h, const char *name, const char *src, size_t len, gr_error *err){
  script *sc;
  lua_State *L;
  size_t ncbs0 = h->ncbs, nt0 = h->ntilings, k;
  int rc;
  memset(err, 0, sizeof *err);
  if( (sc = hk_script_new(h, name, err))==NULL ) return -1;
  L = sc->L;
  h->scripts = gr_xrealloc(h->scripts, (h->nscripts + 1) * sizeof *h->scripts);
  h->scripts[h->nscripts++] = sc;
  /* the top level runs under the same limits as one evaluation */
  hk_reset_limits(h);
  hk_arm(L);
  h->stage = ST_LOAD;
  h->loading = sc;
  lua_pushcfunction(L, hk_traceback);
  rc = luaL_loadbufferx(L, src, len, sc->chunk, "t");
  if( rc==LUA_OK ){
    sc->running = 1;
    hk_run_enter(h);
    rc = lua_pcall(L, 0, 0, 1);
    hk_run_leave(h);
    sc->running = 0;
  }
  h->stage = ST_IDLE;
  h->loading = NULL;
  if( rc!=LUA_OK ){
    uint32_t line;
    hk_error_text(sc, rc, &h->scratch, &line);
    err->line = line;
    snprintf(err->msg, sizeof err->msg, "%s", gr_buf_cstr(&h->scratch));
    /* forget the script and what it registered */
    for(k = ncbs0; k < h->ncbs; k++) free_cb(&h->cbs[k]);
    h->ncbs = ncbs0;
    for(k = nt0; k < h->ntilings; k++) free(h->tilings[k].op_type);
    h->ntilings = nt0;
    h->nscripts--;
    hk_script_free(sc);
    rebuild_node_cbs(h);
    return -1;
  }
  lua_settop(L, 0);
  rebuild_node_cbs(h);
  return 0;
}

int gr_hooks_load_file(gr_hooks *h, const char *path, gr_error *err){
  size_t len;
  char *src = gr_read_file(path, &len, err);
  int rc;
  if( src==NULL ) return -1;
  rc = gr_hooks_load_buffer(h, path, src, len, err);
  free(src);
  return rc;
}

void gr_hooks_free(gr_hooks *h){
  size_t k;
  if( h==NULL ) return;
  for(k = 0; k < h->ncbs; k++) free_cb(&h->cbs[k]);
  free(h->cbs);
  for(k = 0; k < h->ntilings; k++) free(h->tilings[k].op_type);
  free(h->tilings);
  for(k = 0; k < h->nscripts; k++) hk_script_free(h->scripts[k]);
  free(h->scripts);
  free(h->node_cbs);
  free(h->want);
  gr_buf_free(&h->scratch);
  free(h);
}

