/*
** tiling_bridge.c: Lua tiling functions for custom operators. gr.tiling
** (api.c) registers a function per op type; gr_hooks_run_tiling calls it
** with the node and the chip under the sandbox and the limits of the
** evaluation, and reads the plan table it returns into a gr_custom_tiling
** (tiling.h), which the tiling executor converts and validates.
*/
#include "config.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "hooks/internal.h"


static tiling_fn *find_tiling(gr_hooks *h, const char *op){
  size_t k;
  for(k = 0; k < h->ntilings; k++) if( strcmp(h->tilings[k].op_type, op)==0 ) return &h->tilings[k];
  return NULL;
}

int gr_hooks_has_tiling(gr_hooks *h, const char *op_type){
  return h && op_type && find_tiling(h, op_type)!=NULL;
}

void gr_custom_tiling_free(gr_custom_tiling *t){
  if( t==NULL ) return;
  free(t->offsets);
  free(t->sizes);
  free(t->cores);
  memset(t, 0, sizeof *t);
}

/* Reads an integer field (absent: dflt); -1 with a message when not an integer in range. */
static int plan_int(lua_State *L, int t, const char *key, int64_t lo, int64_t hi, int64_t dflt, int64_t *out,
                    char *msg, size_t nmsg){
  int isnum, ty = lua_getfield(L, t, key);
  lua_Integer v;
  if( ty==LUA_TNIL ){ lua_pop(L, 1); *out = dflt; return 0; }
  if( ty==LUA_TBOOLEAN && strcmp(key, "double_buffer")==0 ){ *out = lua_toboolean(L, -1); lua_pop(L, 1); return 0; }
  v = lua_tointegerx(L, -1, &isnum);
  lua_pop(L, 1);
  if( ty!=LUA_TNUMBER || !isnum ){ snprintf(msg, nmsg, "%s must be an integer, not a %s", key, lua_typename(L, ty)); return -1; }
  if( v < lo || v > hi ){ snprintf(msg, nmsg, "%s = %lld is out of range (%lld to %lld)", key, (long long)v, (long long)lo, (long long)hi); return -1; }
  *out = v;
  return 0;
}

/* Reads the list at the top of the stack into out[0..n-1] (n must equal want, or want < 0: any up to cap). */
static int plan_list(lua_State *L, const char *what, int64_t *out, int want, int cap, int64_t lo, int *n,
                     char *msg, size_t nmsg){
  lua_Integer j, len;
  if( lua_type(L, -1)!=LUA_TTABLE ){ snprintf(msg, nmsg, "%s must be a list of integers, not a %s", what, luaL_typename(L, -1)); return -1; }
  len = (lua_Integer)lua_rawlen(L, -1);
  if( want >= 0 && len!=want ){ snprintf(msg, nmsg, "%s has %lld elements, expected %d (the rank of tile_shape)", what, (long long)len, want); return -1; }
  if( len > cap || len < 1 ){ snprintf(msg, nmsg, "%s must have 1 to %d elements, not %lld", what, cap, (long long)len); return -1; }
  for(j = 1; j <= len; j++){
    int isnum;
    lua_Integer v;
    lua_rawgeti(L, -1, j);
    v = lua_tointegerx(L, -1, &isnum);
    if( lua_type(L, -1)!=LUA_TNUMBER || !isnum ){
      snprintf(msg, nmsg, "%s[%lld] must be an integer, not a %s", what, (long long)j, luaL_typename(L, -1));
      lua_pop(L, 1);
      return -1;
    }
    lua_pop(L, 1);
    if( v < lo ){ snprintf(msg, nmsg, "%s[%lld] = %lld is below %lld", what, (long long)j, (long long)v, (long long)lo); return -1; }
    out[j - 1] = v;
  }
  *n = (int)len;
  return 0;
}

/* Converts the plan at index t; -1 with msg on a wrong shape. */
static int read_plan(lua_State *L, int t, gr_custom_tiling *out, char *msg, size_t nmsg){
  int64_t v;
  int nd;
  lua_Integer j, nt;
  if( lua_type(L, t)!=LUA_TTABLE ){ snprintf(msg, nmsg, "the tiling function returned a %s, expected a plan table", luaL_typename(L, t)); return -1; }
  if( plan_int(L, t, "block_dim", 1, UINT32_MAX, -1, &v, msg, nmsg) ) return -1;
  if( v < 0 ){ snprintf(msg, nmsg, "the plan has no block_dim"); return -1; }
  out->block_dim = (uint32_t)v;
  lua_getfield(L, t, "tile_shape");
  if( lua_isnil(L, -1) ){ lua_pop(L, 1); snprintf(msg, nmsg, "the plan has no tile_shape"); return -1; }
  if( plan_list(L, "tile_shape", out->tile_shape, -1, GR_TMAXDIM, 0, &nd, msg, nmsg) ){ lua_pop(L, 1); return -1; }
  lua_pop(L, 1);
  out->ndim = (uint32_t)nd;
  if( plan_int(L, t, "ub_bytes", 0, INT64_MAX, 0, &v, msg, nmsg) ) return -1;
  out->ub_bytes = (uint64_t)v;
  if( plan_int(L, t, "l1_bytes", 0, INT64_MAX, 0, &v, msg, nmsg) ) return -1;
  out->l1_bytes = (uint64_t)v;
  if( plan_int(L, t, "l0a_bytes", 0, INT64_MAX, 0, &v, msg, nmsg) ) return -1;
  out->l0a_bytes = (uint64_t)v;
  if( plan_int(L, t, "l0b_bytes", 0, INT64_MAX, 0, &v, msg, nmsg) ) return -1;
  out->l0b_bytes = (uint64_t)v;
  if( plan_int(L, t, "l0c_bytes", 0, INT64_MAX, 0, &v, msg, nmsg) ) return -1;
  out->l0c_bytes = (uint64_t)v;
  if( plan_int(L, t, "buffers", 1, 64, 1, &v, msg, nmsg) ) return -1;
  out->buffers = (uint32_t)v;
  if( plan_int(L, t, "double_buffer", 0, 1, 0, &v, msg, nmsg) ) return -1;
  out->double_buffer = (int)v;
  if( lua_getfield(L, t, "tiles")!=LUA_TTABLE ){
    snprintf(msg, nmsg, "the plan's tiles must be a list of {offset=, size=, core=}, not a %s", luaL_typename(L, -1));
    lua_pop(L, 1);
    return -1;
  }
  nt = (lua_Integer)lua_rawlen(L, -1);
  if( nt < 1 || nt > 16 * 1024 * 1024 ){ lua_pop(L, 1); snprintf(msg, nmsg, "the plan must have 1 to 16777216 tiles, not %lld", (long long)nt); return -1; }
  out->ntiles = (size_t)nt;
  out->offsets = gr_xcalloc((size_t)nt * (size_t)nd, sizeof *out->offsets);
  out->sizes = gr_xcalloc((size_t)nt * (size_t)nd, sizeof *out->sizes);
  out->cores = gr_xcalloc((size_t)nt, sizeof *out->cores);
  for(j = 1; j <= nt; j++){
    char what[64];
    int n;
    if( (j & 0xfff)==0 && hk_check_time(hk_script_of(L)->h, NULL) ){ lua_pop(L, 1); snprintf(msg, nmsg, "%s", hk_script_of(L)->h->trip_msg); return -1; }
    if( lua_rawgeti(L, -1, j)!=LUA_TTABLE ){
      snprintf(msg, nmsg, "tiles[%lld] must be a table {offset=, size=, core=}, not a %s", (long long)j, luaL_typename(L, -1));
      lua_pop(L, 2);
      return -1;
    }
    snprintf(what, sizeof what, "tiles[%lld].offset", (long long)j);
    lua_getfield(L, -1, "offset");
    if( plan_list(L, what, out->offsets + (size_t)(j - 1) * (size_t)nd, nd, 8, 0, &n, msg, nmsg) ){ lua_pop(L, 3); return -1; }
    lua_pop(L, 1);
    snprintf(what, sizeof what, "tiles[%lld].size", (long long)j);
    lua_getfield(L, -1, "size");
    if( plan_list(L, what, out->sizes + (size_t)(j - 1) * (size_t)nd, nd, 8, 0, &n, msg, nmsg) ){ lua_pop(L, 3); return -1; }
    lua_pop(L, 1);
    snprintf(what, sizeof what, "tiles[%lld].core", (long long)j);
    if( plan_int(L, lua_gettop(L), "core", 0, UINT32_MAX, -1, &v, msg, nmsg) ){
      char tmp[400];
      snprintf(tmp, sizeof tmp, "%s", msg);
      snprintf(msg, nmsg, "tiles[%lld]: %.300s", (long long)j, tmp);
      lua_pop(L, 2);
      return -1;
    }
    if( v < 0 ){ snprintf(msg, nmsg, "%s is missing", what); lua_pop(L, 2); return -1; }
    out->cores[j - 1] = (uint32_t)v;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 0;
}

int gr_hooks_run_tiling(gr_hooks *h, gr_result *r, uint32_t node, gr_custom_tiling *out, gr_error *err){
  const gr_node *nd;
  tiling_fn *t;
  script *sc;
  lua_State *L;
  int base, rc, saved_stage;
  uint32_t saved_decided;
  char msg[400];
  memset(out, 0, sizeof *out);
  memset(err, 0, sizeof *err);
  if( h==NULL || r==NULL || r->g==NULL || node >= gr_graph_nnodes(r->g) ){
    gr_error_set(err, 0, 0, "gr_hooks_run_tiling: no such node");
    return -1;
  }
  nd = &gr_graph_nodes(r->g)[node];
  t = find_tiling(h, gr_graph_type_name(r->g, nd->type));
  if( t==NULL ){
    gr_error_set(err, 0, 0, "no Lua tiling function for op type '%s'", gr_graph_type_name(r->g, nd->type));
    return -1;
  }
  if( h->r!=r ){ hk_start_run(h, r); h->stage = ST_IDLE; }
  sc = t->sc;
  L = sc->L;
  if( h->tripped ){
    gr_error_set(err, t->line, 0, "%s:%u: %s", sc->path, t->line, h->trip_msg);
    return -1;
  }
  saved_stage = h->stage;
  saved_decided = h->decided;
  h->stage = ST_TILING;
  h->decided = r->dec ? gr_graph_nnodes(r->g) : 0;
  base = lua_gettop(L);
  lua_pushcfunction(L, hk_traceback);
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->ref);
  hk_push_node(L, node);
  hk_push_chip(L, h);
  sc->running = 1;
  hk_run_enter(h);
  rc = lua_pcall(L, 2, 1, base + 1);
  hk_run_leave(h);
  sc->running = 0;
  h->stage = saved_stage;
  h->decided = saved_decided;
  if( rc!=LUA_OK ){
    uint32_t line;
    hk_error_text(sc, rc, &h->scratch, &line);
    gr_error_set(err, line, 0, "%s:%u: %s", sc->path, line, gr_buf_cstr(&h->scratch));
    lua_settop(L, base);
    return -1;
  }
  if( read_plan(L, lua_gettop(L), out, msg, sizeof msg)!=0 ){
    gr_custom_tiling_free(out);
    gr_error_set(err, t->line, 0, "%s:%u: tiling function for '%s': %s", sc->path, t->line, t->op_type, msg);
    lua_settop(L, base);
    return -1;
  }
  lua_settop(L, base);
  return 0;
}
