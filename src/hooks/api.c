/*
** api.c: the `gr` table and the node objects a hook script sees (the Lua
** API of doc/lua-api.md): registration (gr.on_begin, on_node, on_end,
** tiling), evaluation facts (chip, options, ini entries, tables, slots,
** nodes, the graph), diagnostics and severity changes, and per-node reads,
** decisions, provenance and overrides.
**
** Nodes are light userdata (the node index + 1) sharing one locked
** metatable, so handing a node to Lua allocates nothing.
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
#include "hooks/lpattern.h"
#include "model/qualname.h"

#define NODE_MT "gerules.node"

static gr_hooks *hooks_of(lua_State *L){ return hk_script_of(L)->h; }

static const gr_ruleset *need_ruleset(lua_State *L){
  const gr_ruleset *rs = hk_script_of(L)->h->rs;
  if( rs==NULL ) luaL_error(L, "no rule set is loaded");
  return rs;
}

static gr_result *need_result(lua_State *L, const char *what){
  gr_hooks *h = hooks_of(L);
  if( h->r==NULL || h->stage==ST_LOAD )
    luaL_error(L, "%s is available only in callbacks (no evaluation is running while the script loads)", what);
  return h->r;
}

static void need_stage(lua_State *L, const char *what, int ok_begin, int ok_node, int ok_end, int ok_tiling){
  gr_hooks *h = hooks_of(L);
  int st = h->stage, ok = (st==ST_BEGIN && ok_begin) || (st==ST_NODE && ok_node) || (st==ST_END && ok_end)
                          || ((st==ST_TILING || st==ST_IDLE) && ok_tiling && h->r);
  need_result(L, what);
  if( !ok ) luaL_error(L, "%s is not available in the %s stage", what, hk_stage_names[st]);
}

void hk_push_node(lua_State *L, uint32_t n){
  lua_pushlightuserdata(L, (void *)((uintptr_t)n + 1));
}

static uint32_t check_node(lua_State *L, int i){
  gr_hooks *h = hooks_of(L);
  uintptr_t v;
  if( lua_type(L, i)!=LUA_TLIGHTUSERDATA ) luaL_typeerror(L, i, "node");
  v = (uintptr_t)lua_touserdata(L, i);
  if( h->r==NULL || h->r->g==NULL || v==0 || v - 1 >= gr_graph_nnodes(h->r->g) )
    luaL_argerror(L, i, "a node of an earlier evaluation");
  return (uint32_t)(v - 1);
}

static const gr_node *node_at(const gr_hooks *h, uint32_t n){ return &gr_graph_nodes(h->r->g)[n]; }

static int check_slot(lua_State *L, int i){
  gr_hooks *h = hooks_of(L);
  const char *name = luaL_checkstring(L, i);
  int s = gr_ruleset_find(&need_ruleset(L)->slot_map, name);
  if( s < 0 ){
    const char *sug = gr_ruleset_suggest(h->rs, GR_NK_SLOT, name);
    if( sug ) return luaL_error(L, "no slot named '%s' in the rule set; did you mean '%s'?", name, sug);
    return luaL_error(L, "no slot named '%s' in the rule set", name);
  }
  return s;
}

static int check_option(lua_State *L, int i){
  const char *name = luaL_checkstring(L, i);
  const gr_option *o = gr_ruleset_option_by_spelling(need_ruleset(L), name);
  if( o==NULL ) return luaL_error(L, "no option named '%s' in the rule set", name);
  return o->index;
}

static void check_decided(lua_State *L, uint32_t n){
  gr_hooks *h = hooks_of(L);
  if( h->r->dec==NULL || n >= h->decided ){
    if( h->stage==ST_BEGIN ) luaL_error(L, "no node is decided yet in the begin stage");
    luaL_error(L, "node '%s' is not decided yet (nodes are decided in file order; read later nodes in gr.on_end)",
               gr_graph_str(h->r->g, node_at(h, n)->name));
  }
}

static void set_str(lua_State *L, const char *k, const char *v){
  if( v==NULL ) return;
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v){
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, int v){
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}

static const char *origin_str(gr_buf *b, const gr_origin *og){
  b->n = 0;
  if( og==NULL ) return NULL;
  if( og->line ) gr_buf_printf(b, "%s:%u", og->file, og->line);
  else gr_buf_adds(b, og->file ? og->file : "");
  return gr_buf_cstr(b);
}

/* ------------------------------------------------------------------ */
/* node objects */

/* A shape as a list of dims ({} a scalar); nil when the model reader could
** not tell it (graph.h GR_SHAPE_UNKNOWN; doc/lua-api.md). */
static void push_shape(lua_State *L, gr_hooks *h, uint32_t shape){
  uint32_t nd, k;
  const int64_t *dims = gr_graph_shape(h->r->g, shape, &nd);
  if( !gr_graph_shape_known(h->r->g, shape) ){ lua_pushnil(L); return; }
  lua_createtable(L, (int)nd, 0);
  for(k = 0; k < nd; k++){
    lua_pushinteger(L, dims[k]);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
}

static void push_tensor(lua_State *L, gr_hooks *h, const gr_tensor *t, int index){
  set_int(L, "index", index);
  if( t ){
    set_str(L, "dtype", gr_graph_dtype_name(h->r->g, t->dtype));
    set_str(L, "layout", gr_graph_layout_name(h->r->g, t->layout));
    push_shape(L, h, t->shape);
    lua_setfield(L, -2, "shape");
  }
}

static int push_input(lua_State *L, gr_hooks *h, uint32_t n, lua_Integer i){
  const gr_node *nd = node_at(h, n);
  const gr_tensor *t = gr_graph_tensors(h->r->g, nd);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  if( i < 0 || (i >= nd->n_data && i >= nd->n_in_desc) ){ lua_pushnil(L); return 1; }
  lua_createtable(L, 0, 7);
  push_tensor(L, h, i < nd->n_in_desc ? &t[i] : NULL, (int)i);
  if( i < nd->n_data && e[i].src!=GR_NONE ){
    set_bool(L, "connected", 1);
    hk_push_node(L, e[i].src);
    lua_setfield(L, -2, "producer");
    set_int(L, "producer_output", e[i].index);
  }else set_bool(L, "connected", 0);
  return 1;
}

static int push_output(lua_State *L, gr_hooks *h, uint32_t n, lua_Integer i){
  const gr_node *nd = node_at(h, n);
  const gr_tensor *t = gr_graph_tensors(h->r->g, nd);
  if( i < 0 || i >= nd->n_out_desc ){ lua_pushnil(L); return 1; }
  lua_createtable(L, 0, 4);
  push_tensor(L, h, &t[nd->n_in_desc + i], (int)i);
  return 1;
}

static int nm_input(lua_State *L){
  uint32_t n = check_node(L, 1);
  return push_input(L, hooks_of(L), n, luaL_checkinteger(L, 2));
}

static int nm_output(lua_State *L){
  uint32_t n = check_node(L, 1);
  return push_output(L, hooks_of(L), n, luaL_checkinteger(L, 2));
}

static int nm_inputs(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = node_at(h, n);
  int k, cnt = nd->n_data > nd->n_in_desc ? nd->n_data : nd->n_in_desc;
  lua_createtable(L, cnt, 0);
  for(k = 0; k < cnt; k++){
    push_input(L, h, n, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static int nm_outputs(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = node_at(h, n);
  int k;
  lua_createtable(L, nd->n_out_desc, 0);
  for(k = 0; k < nd->n_out_desc; k++){
    push_output(L, h, n, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static int nm_producer(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2);
  const gr_node *nd = node_at(h, n);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  if( i < 0 || i >= nd->n_data || e[i].src==GR_NONE ){ lua_pushnil(L); return 1; }
  hk_push_node(L, e[i].src);
  lua_pushinteger(L, e[i].index);
  return 2;
}

static int nm_controls(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = node_at(h, n);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  int k, j = 0;
  lua_createtable(L, nd->n_ctrl, 0);
  for(k = 0; k < nd->n_ctrl; k++){
    if( e[nd->n_data + k].src==GR_NONE ) continue;
    hk_push_node(L, e[nd->n_data + k].src);
    lua_rawseti(L, -2, ++j);
  }
  return 1;
}

static void push_attr(lua_State *L, gr_hooks *h, const gr_attr *a){
  const gr_graph *g = h->r->g;
  uint32_t k;
  switch( a->kind ){
    case GR_ATTR_S: case GR_ATTR_DT: lua_pushstring(L, gr_graph_str(g, a->u.str)); return;
    case GR_ATTR_I: lua_pushinteger(L, a->u.i); return;
    case GR_ATTR_F: lua_pushnumber(L, a->u.f); return;
    case GR_ATTR_B: lua_pushboolean(L, a->u.i!=0); return;
    case GR_ATTR_LIST_S: {
      const uint32_t *v = gr_graph_list_u32(g, a->u.list);
      lua_createtable(L, (int)a->n, 0);
      for(k = 0; k < a->n; k++){ lua_pushstring(L, gr_graph_str(g, v[k])); lua_rawseti(L, -2, k + 1); }
      return;
    }
    case GR_ATTR_LIST_I: case GR_ATTR_LIST_B: {
      const int64_t *v = gr_graph_list_i64(g, a->u.list);
      lua_createtable(L, (int)a->n, 0);
      for(k = 0; k < a->n; k++){
        if( a->kind==GR_ATTR_LIST_B ) lua_pushboolean(L, v[k]!=0);
        else lua_pushinteger(L, v[k]);
        lua_rawseti(L, -2, k + 1);
      }
      return;
    }
    case GR_ATTR_LIST_F: {
      const double *v = gr_graph_list_f64(g, a->u.list);
      lua_createtable(L, (int)a->n, 0);
      for(k = 0; k < a->n; k++){ lua_pushnumber(L, v[k]); lua_rawseti(L, -2, k + 1); }
      return;
    }
    default: lua_pushboolean(L, 1); return;     /* present, of a kind gerules does not keep */
  }
}

static int nm_attr(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const char *key = luaL_checkstring(L, 2);
  const gr_attr *a = gr_graph_attr(h->r->g, node_at(h, n), key);
  if( a==NULL ) lua_pushnil(L);
  else push_attr(L, h, a);
  return 1;
}

static int nm_attrs(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = node_at(h, n);
  const gr_attr *a = gr_graph_attrs(h->r->g, nd);
  int k;
  lua_createtable(L, 0, nd->n_attr);
  for(k = 0; k < nd->n_attr; k++){
    push_attr(L, h, &a[k]);
    lua_setfield(L, -2, gr_graph_str(h->r->g, a[k].key));
  }
  return 1;
}

static const char *source_name(gr_hooks *h, int32_t s){
  if( s==GR_SOURCE_HOOK ) return "hook";
  return s >= 0 ? h->rs->sources[s].name : NULL;
}

static int nm_decision(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  int s = check_slot(L, 2);
  const gr_decision *d;
  need_result(L, "node:decision");
  check_decided(L, n);
  d = gr_dec(h->r, n, s);
  if( d->value ) lua_pushstring(L, d->value); else lua_pushnil(L);
  if( source_name(h, d->source) ) lua_pushstring(L, source_name(h, d->source)); else lua_pushnil(L);
  return 2;
}

static int nm_decisions(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  size_t s;
  need_result(L, "node:decisions");
  check_decided(L, n);
  lua_createtable(L, 0, (int)h->rs->nslots);
  for(s = 0; s < h->rs->nslots; s++){
    const gr_decision *d = gr_dec(h->r, n, s);
    set_str(L, h->rs->slots[s].name, d->value);
  }
  return 1;
}

static void push_prov(lua_State *L, gr_hooks *h, uint32_t n, int32_t source, uint16_t branch,
                      const char *value, int won, const char *status){
  const gr_branch *br = &h->rs->sources[source].branches[branch];
  const gr_origin *input = NULL;
  char where[600];
  h->scratch.n = 0;
  gr_decision_detail(h->r, n, source, branch, &h->scratch, &input);
  lua_createtable(L, 0, 7);
  set_str(L, "source", h->rs->sources[source].name);
  set_str(L, "value", value);
  set_bool(L, "won", won);
  set_str(L, "status", status);
  snprintf(where, sizeof where, "%s:%u", br->loc.file, br->loc.line);
  set_str(L, "rule", where);
  if( h->scratch.n ) set_str(L, "reason", gr_buf_cstr(&h->scratch));
  if( input ){
    if( input->line ) snprintf(where, sizeof where, "%s:%u", input->file, input->line);
    else snprintf(where, sizeof where, "%s", input->file);
    set_str(L, "input", where);
  }
}

static int nm_provenance(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  int s = check_slot(L, 2), k = 0;
  const gr_result *r = need_result(L, "node:provenance");
  const gr_decision *d;
  check_decided(L, n);
  d = gr_dec(r, n, s);
  lua_newtable(L);
  if( d->source==GR_SOURCE_HOOK ){
    const gr_override *ov = gr_result_find_override(r, n, s);
    char where[600];
    lua_createtable(L, 0, 7);
    set_str(L, "source", "hook");
    set_str(L, "value", ov->value);
    set_bool(L, "won", 1);
    set_str(L, "status", "won");
    if( ov->where.line ) snprintf(where, sizeof where, "%s:%u", ov->where.file, ov->where.line);
    else snprintf(where, sizeof where, "%s", ov->where.file ? ov->where.file : "hook");
    set_str(L, "rule", where);
    set_str(L, "reason", ov->reason);
    lua_rawseti(L, -2, ++k);
    if( ov->prev_source >= 0 ){
      push_prov(L, h, n, ov->prev_source, ov->prev_branch, ov->prev_value, 0, "replaced by hook");
      lua_rawseti(L, -2, ++k);
    }
  }else if( d->source >= 0 ){
    push_prov(L, h, n, d->source, d->branch, d->value, 1, "won");
    lua_rawseti(L, -2, ++k);
  }
  if( r->cand_first && r->cand_first[n]!=GR_NONE ){
    size_t c;
    for(c = r->cand_first[n]; c < r->ncand && r->cand[c].node==n; c++){
      if( r->cand[c].slot!=s ) continue;
      push_prov(L, h, n, r->cand[c].source, r->cand[c].branch, r->cand[c].value, 0, "beaten");
      lua_rawseti(L, -2, ++k);
    }
  }
  return 1;
}

static int nm_override(lua_State *L){
  gr_hooks *h = hooks_of(L);
  script *sc = hk_script_of(L);
  uint32_t n = check_node(L, 1);
  int s = check_slot(L, 2);
  const char *value = NULL, *reason = luaL_optstring(L, 4, NULL);
  gr_origin og;
  gr_error err;
  if( !lua_isnil(L, 3) ){
    if( lua_type(L, 3)!=LUA_TSTRING ) luaL_typeerror(L, 3, "string or nil");
    value = lua_tostring(L, 3);
  }
  need_stage(L, "node:override", 0, 1, 1, 0);
  if( h->stage==ST_NODE && n!=h->cur_node )
    return luaL_error(L, "in gr.on_node a hook may override only the node it was given ('%s'); use gr.on_end for others",
                      gr_graph_str(h->r->g, node_at(h, h->cur_node)->name));
  og.file = sc->path; og.line = hk_script_line(L, sc); og.col = 0;
  memset(&err, 0, sizeof err);
  hk_charge(L, sizeof(gr_override) + 64 + (value ? strlen(value) : 0) + (reason ? strlen(reason) : 0), 0);
  if( gr_result_override(h->r, n, s, value, &og, reason, &err)!=0 ) return luaL_error(L, "node:override: %s", err.msg);
  return 0;
}

static int diag_common(lua_State *L, gr_severity sev, int code_i, uint32_t about_node, int about_i);

static int sev_of(lua_State *L, int i){
  const char *s = luaL_checkstring(L, i);
  if( strcmp(s, "error")==0 ) return GR_SEV_ERROR;
  if( strcmp(s, "warning")==0 ) return GR_SEV_WARNING;
  if( strcmp(s, "note")==0 ) return GR_SEV_NOTE;
  return luaL_argerror(L, i, lua_pushfstring(L, "severity must be \"error\", \"warning\" or \"note\", not \"%s\"", s));
}

static int nm_error(lua_State *L){ return diag_common(L, GR_SEV_ERROR, 2, check_node(L, 1), 0); }
static int nm_warning(lua_State *L){ return diag_common(L, GR_SEV_WARNING, 2, check_node(L, 1), 0); }
static int nm_note(lua_State *L){ return diag_common(L, GR_SEV_NOTE, 2, check_node(L, 1), 0); }

static int node_tostring(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  lua_pushfstring(L, "node '%s' (%s)", gr_graph_str(h->r->g, node_at(h, n)->name),
                  gr_graph_type_name(h->r->g, node_at(h, n)->type));
  return 1;
}

static int node_newindex(lua_State *L){
  return luaL_error(L, "node objects are read-only (use node:override to change a decision)");
}

static int node_index(lua_State *L){
  gr_hooks *h = hooks_of(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = node_at(h, n);
  const gr_graph *g = h->r->g;
  const char *k;
  if( lua_type(L, 2)!=LUA_TSTRING ) return 0;
  k = lua_tostring(L, 2);
  switch( k[0] ){
    case 'a':
      if( strcmp(k, "attr")==0 ){ lua_pushcfunction(L, nm_attr); return 1; }
      if( strcmp(k, "attrs")==0 ){ lua_pushcfunction(L, nm_attrs); return 1; }
      break;
    case 'c':
      if( strcmp(k, "controls")==0 ){ lua_pushcfunction(L, nm_controls); return 1; }
      break;
    case 'd':
      if( strcmp(k, "dynamic")==0 ){ lua_pushboolean(L, (nd->flags & GR_NODE_DYNAMIC)!=0); return 1; }
      if( strcmp(k, "decision")==0 ){ lua_pushcfunction(L, nm_decision); return 1; }
      if( strcmp(k, "decisions")==0 ){ lua_pushcfunction(L, nm_decisions); return 1; }
      break;
    case 'e':
      if( strcmp(k, "error")==0 ){ lua_pushcfunction(L, nm_error); return 1; }
      break;
    case 'g':
      if( strcmp(k, "graph")==0 ){ lua_pushstring(L, gr_graph_graph_name(g, nd->graph)); return 1; }
      break;
    case 'i':
      if( strcmp(k, "index")==0 ){ lua_pushinteger(L, n); return 1; }
      if( strcmp(k, "input")==0 ){ lua_pushcfunction(L, nm_input); return 1; }
      if( strcmp(k, "inputs")==0 ){ lua_pushcfunction(L, nm_inputs); return 1; }
      break;
    case 'l':
      if( strcmp(k, "line")==0 ){ lua_pushinteger(L, nd->line); return 1; }
      break;
    case 'n':
      if( strcmp(k, "name")==0 ){ lua_pushstring(L, gr_graph_str(g, nd->name)); return 1; }
      if( strcmp(k, "ninputs")==0 ){ lua_pushinteger(L, nd->n_data); return 1; }
      if( strcmp(k, "noutputs")==0 ){ lua_pushinteger(L, nd->n_out_desc); return 1; }
      if( strcmp(k, "ncontrols")==0 ){ lua_pushinteger(L, nd->n_ctrl); return 1; }
      if( strcmp(k, "note")==0 ){ lua_pushcfunction(L, nm_note); return 1; }
      break;
    case 'o':
      if( strcmp(k, "output")==0 ){ lua_pushcfunction(L, nm_output); return 1; }
      if( strcmp(k, "outputs")==0 ){ lua_pushcfunction(L, nm_outputs); return 1; }
      if( strcmp(k, "override")==0 ){ lua_pushcfunction(L, nm_override); return 1; }
      break;
    case 'p':
      if( strcmp(k, "producer")==0 ){ lua_pushcfunction(L, nm_producer); return 1; }
      if( strcmp(k, "provenance")==0 ){ lua_pushcfunction(L, nm_provenance); return 1; }
      break;
    case 's':
      if( strcmp(k, "static")==0 ){ lua_pushboolean(L, (nd->flags & GR_NODE_DYNAMIC)==0); return 1; }
      break;
    case 't':
      if( strcmp(k, "type")==0 ){ lua_pushstring(L, gr_graph_type_name(g, nd->type)); return 1; }
      break;
    case 'w':
      if( strcmp(k, "warning")==0 ){ lua_pushcfunction(L, nm_warning); return 1; }
      break;
  }
  return luaL_error(L, "node objects have no field '%s'", k);
}

/* ------------------------------------------------------------------ */
/* gr.*: evaluation facts */

void hk_push_chip(lua_State *L, gr_hooks *h){
  const gr_ruleset *rs = h->rs;
  const gr_result *r = h->r;
  const gr_soc *soc = &rs->socs[r->soc];
  size_t k;
  lua_createtable(L, 0, 5);
  set_str(L, "soc", r->soc_name);
  set_str(L, "product", rs->products[r->product].name);
  set_str(L, "title", rs->products[r->product].title);
  lua_createtable(L, 0, (int)rs->nhw);
  for(k = 0; k < rs->nhw; k++) set_int(L, rs->hw_names[k], soc->hw[k]);
  lua_setfield(L, -2, "hw");
  lua_createtable(L, 0, (int)rs->ncaps);
  for(k = 0; k < rs->ncaps; k++) if( soc->caps[k] ) set_bool(L, rs->cap_names[k], 1);
  lua_setfield(L, -2, "caps");
}

static int l_chip(lua_State *L){
  need_result(L, "gr.chip");
  hk_push_chip(L, hooks_of(L));
  return 1;
}

static int l_run_mode(lua_State *L){
  lua_pushstring(L, need_result(L, "gr.run_mode")->run_mode);
  return 1;
}

static void push_option_value(lua_State *L, gr_hooks *h, int oi){
  const gr_optstate *st = gr_option_state(h->r, oi);
  const gr_option *o = &h->rs->options[oi];
  size_t k;
  if( st->value==NULL ){ lua_pushnil(L); return; }
  if( o->type==GR_OT_LIST ){
    lua_createtable(L, (int)st->nitems, 0);
    for(k = 0; k < st->nitems; k++){ lua_pushstring(L, st->items[k]); lua_rawseti(L, -2, (lua_Integer)k + 1); }
    return;
  }
  if( o->type==GR_OT_INT ){ lua_pushinteger(L, st->ival); return; }
  lua_pushstring(L, st->value);
}

static int l_option(lua_State *L){
  gr_hooks *h = hooks_of(L);
  int oi = check_option(L, 1);
  need_result(L, "gr.option");
  push_option_value(L, h, oi);
  return 1;
}

static void push_option_info(lua_State *L, gr_hooks *h, int oi){
  const gr_option *o = &h->rs->options[oi];
  const gr_optstate *st = gr_option_state(h->r, oi);
  const gr_input *in = st->input >= 0 ? &h->r->inputs[st->input] : NULL;
  lua_createtable(L, 0, 10);
  set_str(L, "name", o->name);
  set_str(L, "key", o->key);
  set_str(L, "type", gr_option_type_name(o->type));
  push_option_value(L, h, oi);
  lua_setfield(L, -2, "value");
  set_bool(L, "set", st->effective);
  set_bool(L, "given", st->given);
  set_bool(L, "supported", gr_support_on(&o->support, h->r->product));
  if( in ){
    set_str(L, "given_value", in->value);
    set_str(L, "source", origin_str(&h->scratch, &in->origin));
  }else if( st->value ) set_str(L, "source", "default");
}

static int l_option_info(lua_State *L){
  gr_hooks *h = hooks_of(L);
  int oi = check_option(L, 1);
  need_result(L, "gr.option_info");
  push_option_info(L, h, oi);
  return 1;
}

static int l_options(lua_State *L){
  gr_hooks *h = hooks_of(L);
  size_t k;
  need_result(L, "gr.options");
  lua_createtable(L, (int)h->rs->noptions, 0);
  for(k = 0; k < h->rs->noptions; k++){
    push_option_info(L, h, (int)k);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  return 1;
}

static int l_ini(lua_State *L){
  gr_hooks *h = hooks_of(L);
  int oi = check_option(L, 1);
  const char *section = luaL_checkstring(L, 2), *key = luaL_checkstring(L, 3);
  const gr_option *o = &h->rs->options[oi];
  const gr_optstate *st;
  const gr_ini_entry *en;
  size_t k;
  need_result(L, "gr.ini");
  if( o->format==NULL ) return luaL_error(L, "option %s is not an ini-format file option", o->name);
  for(k = 0; k < o->format->nsections; k++) if( strcmp(o->format->sections[k].name, section)==0 ) break;
  if( k==o->format->nsections ) return luaL_error(L, "the ini format of %s has no section '%s'", o->name, section);
  st = gr_option_state(h->r, oi);
  if( st->ini==NULL || (en = gr_ini_get(st->ini, (int)k, key))==NULL ){ lua_pushnil(L); return 1; }
  lua_pushstring(L, en->value);
  lua_pushstring(L, origin_str(&h->scratch, &en->origin));
  return 2;
}

static void push_const(lua_State *L, const gr_expr *e){
  const gr_expr *x;
  int k = 0;
  if( e==NULL ){ lua_pushboolean(L, 1); return; }
  switch( e->op ){
    case GR_E_STR: lua_pushstring(L, e->s); return;
    case GR_E_INT: lua_pushinteger(L, e->i); return;
    case GR_E_BOOL: lua_pushboolean(L, e->i!=0); return;
    case GR_E_LIST:
      lua_newtable(L);
      for(x = e->a; x; x = x->next){ push_const(L, x); lua_rawseti(L, -2, ++k); }
      return;
    default: lua_pushnil(L); return;
  }
}

static int l_table(lua_State *L){
  gr_hooks *h = hooks_of(L);
  const char *name = luaL_checkstring(L, 1);
  int ti = gr_ruleset_find(&need_ruleset(L)->table_map, name);
  const gr_table *t;
  size_t k;
  if( ti < 0 ) return luaL_error(L, "no table named '%s' in the rule set", name);
  t = &h->rs->tables[ti];
  lua_createtable(L, 0, (int)t->n);
  for(k = 0; k < t->n; k++){
    push_const(L, t->is_map && t->vals ? t->vals[k] : NULL);
    lua_setfield(L, -2, t->keys[k]);
  }
  return 1;
}

static int l_slots(lua_State *L){
  gr_hooks *h = hooks_of(L);
  size_t k;
  need_ruleset(L);
  lua_createtable(L, (int)h->rs->nslots, 0);
  for(k = 0; k < h->rs->nslots; k++){ lua_pushstring(L, h->rs->slots[k].name); lua_rawseti(L, -2, (lua_Integer)k + 1); }
  return 1;
}

static int l_node(lua_State *L){
  gr_hooks *h = hooks_of(L);
  const char *name = luaL_checkstring(L, 1);
  uint32_t n;
  need_result(L, "gr.node");
  if( h->r->g==NULL || !gr_graph_find_node(h->r->g, name, &n) ){ lua_pushnil(L); return 1; }
  hk_push_node(L, n);
  return 1;
}

static int l_nodes(lua_State *L){
  gr_hooks *h = hooks_of(L);
  const char *type = luaL_optstring(L, 1, NULL);
  uint32_t n, nn, t = 0;
  int k = 0;
  need_result(L, "gr.nodes");
  lua_newtable(L);
  if( h->r->g==NULL ) return 1;
  if( type && !gr_graph_find_type(h->r->g, type, &t) ) return 1;
  nn = gr_graph_nnodes(h->r->g);
  for(n = 0; n < nn; n++){
    if( type && node_at(h, n)->type!=t ) continue;
    if( (n & 0xffff)==0xffff ) hk_check_deadline(L);
    hk_push_node(L, n);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

static int l_graph(lua_State *L){
  gr_hooks *h = hooks_of(L);
  const gr_graph *g;
  uint32_t k;
  need_result(L, "gr.graph");
  if( (g = h->r->g)==NULL ){ lua_pushnil(L); return 1; }
  lua_createtable(L, 0, 4);
  set_str(L, "file", h->r->graph_file);
  set_str(L, "model", gr_graph_model_name(g));
  set_int(L, "nodes", gr_graph_nnodes(g));
  lua_createtable(L, (int)gr_graph_ngraphs(g), 0);
  for(k = 0; k < gr_graph_ngraphs(g); k++){ lua_pushstring(L, gr_graph_graph_name(g, k)); lua_rawseti(L, -2, k + 1); }
  lua_setfield(L, -2, "graphs");
  return 1;
}

static int l_stage(lua_State *L){
  lua_pushstring(L, hk_stage_names[hooks_of(L)->stage]);
  return 1;
}

/* ------------------------------------------------------------------ */
/* gr.*: diagnostics */

/* code at code_i, message at code_i+1; about: a node, or (about_i) a node or {node=, option=} */
static int diag_common(lua_State *L, gr_severity sev, int code_i, uint32_t about_node, int about_i){
  gr_hooks *h = hooks_of(L);
  script *sc = hk_script_of(L);
  const char *code = luaL_checkstring(L, code_i);
  const char *msg;
  const char *option = NULL;
  uint32_t line;
  gr_diag *d;
  char rule[600];
  if( lua_type(L, code_i + 1)!=LUA_TSTRING ) luaL_typeerror(L, code_i + 1, "string");
  msg = lua_tostring(L, code_i + 1);
  if( !gr_diag_code_valid(code) )
    return luaL_argerror(L, code_i, "a diagnostic code is " GR_DIAG_CODE_RULE);
  need_stage(L, "a hook diagnostic", 1, 1, 1, 0);
  if( about_i && !lua_isnoneornil(L, about_i) ){
    if( lua_type(L, about_i)==LUA_TLIGHTUSERDATA ) about_node = check_node(L, about_i);
    else if( lua_type(L, about_i)==LUA_TTABLE ){
      if( lua_getfield(L, about_i, "node")!=LUA_TNIL ) about_node = check_node(L, lua_gettop(L));
      lua_pop(L, 1);
      if( lua_getfield(L, about_i, "option")!=LUA_TNIL ){
        int oi = check_option(L, lua_gettop(L));
        option = h->rs->options[oi].name;
      }
      lua_pop(L, 1);
    }else luaL_typeerror(L, about_i, "node or table");
  }
  line = hk_script_line(L, sc);
  hk_charge(L, sizeof(gr_diag) + 2 * sizeof(rule) / 4 + strlen(msg) + strlen(code) + strlen(sc->path)
               + (option ? strlen(option) : 0), 0);
  d = gr_diags_add(&h->r->diags, sev, sc->path, line, 0, "%s", msg);
  gr_diag_set(&d->code, code);
  if( about_node!=GR_NONE ){     /* graph-qualified, as the evaluator's node diagnostics */
    gr_buf qb;
    gr_buf_init(&qb);
    gr_diag_set(&d->node, gr_node_qname(h->r->g, about_node, &qb));
    gr_buf_free(&qb);
  }
  gr_diag_set(&d->option, option);
  if( line ) snprintf(rule, sizeof rule, "%s:%u", sc->path, line);
  else snprintf(rule, sizeof rule, "%s", sc->path);
  gr_diag_set(&d->rule, rule);
  lua_pushinteger(L, (lua_Integer)h->r->diags.n);
  return 1;
}

static int l_diagnose(lua_State *L){
  int sev = sev_of(L, 1);
  return diag_common(L, (gr_severity)sev, 2, GR_NONE, 4);
}
static int l_error(lua_State *L){ return diag_common(L, GR_SEV_ERROR, 1, GR_NONE, 3); }
static int l_warning(lua_State *L){ return diag_common(L, GR_SEV_WARNING, 1, GR_NONE, 3); }
static int l_note(lua_State *L){ return diag_common(L, GR_SEV_NOTE, 1, GR_NONE, 3); }

static int l_diagnostics(lua_State *L){
  gr_hooks *h = hooks_of(L);
  const gr_result *r = need_result(L, "gr.diagnostics");
  size_t i;
  lua_createtable(L, (int)r->diags.n, 0);
  for(i = 0; i < r->diags.n; i++){
    const gr_diag *d = &r->diags.v[i];
    if( (i & 0xfff)==0xfff ) hk_check_deadline(L);
    lua_createtable(L, 0, 12);
    set_int(L, "index", (lua_Integer)i + 1);
    set_str(L, "severity", gr_severity_name(d->sev));
    set_str(L, "code", d->code);
    set_str(L, "message", d->msg);
    set_str(L, "node", d->node);
    set_str(L, "option", d->option);
    set_str(L, "file", d->file);
    if( d->line ) set_int(L, "line", d->line);
    set_str(L, "rule", d->rule);
    if( d->changed_by ){
      set_str(L, "original_severity", gr_severity_name(d->orig_sev));
      set_str(L, "changed_by", d->changed_by);
    }
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  (void)h;
  return 1;
}

static int l_set_severity(lua_State *L){
  gr_hooks *h = hooks_of(L);
  script *sc = hk_script_of(L);
  lua_Integer i = luaL_checkinteger(L, 1);
  int sev = sev_of(L, 2);
  const char *reason = luaL_optstring(L, 3, NULL);
  gr_origin og;
  gr_error err;
  const gr_diag *d;
  need_stage(L, "gr.set_severity", 1, 1, 1, 0);
  if( i < 1 || (lua_Unsigned)i > h->r->diags.n )
    return luaL_argerror(L, 1, lua_pushfstring(L, "no diagnostic %I (there are %d)", (LUAI_UACINT)i, (int)h->r->diags.n));
  d = &h->r->diags.v[i - 1];
  if( sev < (int)d->sev && (reason==NULL || reason[0]==0) )
    return luaL_error(L, "gr.set_severity: lowering a diagnostic (%s %s) needs a reason", gr_severity_name(d->sev),
                      d->code ? d->code : "without code");
  og.file = sc->path; og.line = hk_script_line(L, sc); og.col = 0;
  memset(&err, 0, sizeof err);
  hk_charge(L, 64 + strlen(sc->path) + (reason ? strlen(reason) : 0), 0);
  if( gr_result_set_severity(h->r, (size_t)(i - 1), (gr_severity)sev, &og, reason, &err)!=0 )
    return luaL_error(L, "gr.set_severity: %s", err.msg);
  return 0;
}

/* ------------------------------------------------------------------ */
/* gr.*: registration */

static script *need_loading(lua_State *L, const char *what){
  gr_hooks *h = hooks_of(L);
  script *sc = hk_script_of(L);
  if( h->stage!=ST_LOAD || h->loading!=sc )
    luaL_error(L, "%s may be called only while the script loads (at its top level)", what);
  return sc;
}

static uint32_t func_line(lua_State *L, int i){
  lua_Debug ar;
  lua_pushvalue(L, i);
  if( lua_getinfo(L, ">S", &ar) && ar.linedefined > 0 ) return (uint32_t)ar.linedefined;
  return 0;
}

static callback *new_cb(lua_State *L, int stage, int fi){
  gr_hooks *h = hooks_of(L);
  callback *cb;
  hk_charge(L, 2 * sizeof *cb + sizeof(size_t), 1);     /* the record, its share of the array, node_cbs */
  h->cbs = gr_xrealloc(h->cbs, (h->ncbs + 1) * sizeof *h->cbs);
  cb = &h->cbs[h->ncbs];
  memset(cb, 0, sizeof *cb);
  cb->sc = hk_script_of(L);
  cb->stage = stage;
  cb->line = func_line(L, fi);
  lua_pushvalue(L, fi);
  cb->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  h->ncbs++;
  return cb;
}

static int l_on_begin(lua_State *L){
  need_loading(L, "gr.on_begin");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  new_cb(L, ST_BEGIN, 1);
  return 0;
}

static int l_on_end(lua_State *L){
  need_loading(L, "gr.on_end");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  new_cb(L, ST_END, 1);
  return 0;
}

/* Raises unless the value at i is a pattern a filter may use. */
static void check_pattern(lua_State *L, int i, const char *what){
  size_t l;
  const char *p = luaL_checklstring(L, i, &l), *why;
  if( memchr(p, 0, l) ) luaL_error(L, "%s: the pattern contains a zero byte", what);
  if( l > 200 ) luaL_error(L, "%s: the pattern is longer than 200 bytes", what);
  if( (why = gr_lpat_problem(p, l))!=NULL ) luaL_error(L, "%s: bad pattern '%s': %s", what, p, why);
}

/* cb->types was sized by l_on_node's validation pass (growing it by one per
** type was quadratic: a 200,000-type filter list copied the array 200,000
** times); the realloc is only a guard. */
static void add_type(callback *cb, const char *t, size_t *cap){
  if( cb->ntypes==*cap ){
    *cap = *cap ? 2 * *cap : 4;
    cb->types = gr_xrealloc(cb->types, *cap * sizeof *cb->types);
  }
  cb->types[cb->ntypes++] = gr_xstrdup(t);
}

#define FILTER_LIST_MSG "gr.on_node: op types in a filter list must be strings, listed from 1 without holes"

/* gr.on_node([filter,] fn): the filter is checked completely (raw reads,
** no metamethods) before anything is registered. */
static int l_on_node(lua_State *L){
  int fi = lua_gettop(L), nargs = fi;
  callback tmp, *cb;
  size_t k, bytes = 0;          /* C memory the filter will take */
  size_t ntypes = 0, cap;       /* op types it lists */
  lua_Integer nlist = 0;        /* the list part 1..nlist of a filter table */
  need_loading(L, "gr.on_node");
  if( nargs < 1 || nargs > 2 ) return luaL_error(L, "gr.on_node([filter,] function) takes one or two arguments");
  luaL_checktype(L, fi, LUA_TFUNCTION);
  memset(&tmp, 0, sizeof tmp);
  /* validate first (errors must not leak C memory) */
  if( nargs==2 ){
    int t = lua_type(L, 1);
    if( t==LUA_TSTRING ){ bytes += lua_rawlen(L, 1) + 1 + 2 * sizeof(char *); ntypes++; }  /* one op type */
    else if( t==LUA_TTABLE ){
      /* the list part is read as it is registered below, 1..#t with raw
      ** gets; any other number key (a hole's far side, t[1.5]) is refused,
      ** so what is checked is what is registered */
      lua_Integer j;
      nlist = (lua_Integer)lua_rawlen(L, 1);
      for(j = 1; j <= nlist; j++){
        if( lua_rawgeti(L, 1, j)!=LUA_TSTRING ) return luaL_error(L, FILTER_LIST_MSG);
        bytes += lua_rawlen(L, -1) + 1 + 2 * sizeof(char *); ntypes++;
        lua_pop(L, 1);
      }
      lua_pushnil(L);
      while( lua_next(L, 1) ){
        if( lua_type(L, -2)==LUA_TNUMBER ){
          if( !lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > nlist )
            return luaL_error(L, FILTER_LIST_MSG);
        }else if( lua_type(L, -2)==LUA_TSTRING ){
          const char *key = lua_tostring(L, -2);
          if( strcmp(key, "type")==0 ){
            if( lua_type(L, -1)==LUA_TTABLE ){
              lua_Integer ti, n = (lua_Integer)lua_rawlen(L, -1);
              for(ti = 1; ti <= n; ti++){
                if( lua_rawgeti(L, -1, ti)!=LUA_TSTRING ) return luaL_error(L, "gr.on_node: filter.type must list strings");
                bytes += lua_rawlen(L, -1) + 1 + 2 * sizeof(char *); ntypes++;
                lua_pop(L, 1);
              }
            }else if( lua_type(L, -1)!=LUA_TSTRING ) return luaL_error(L, "gr.on_node: filter.type must be a string or a list of strings");
            else{ bytes += lua_rawlen(L, -1) + 1 + 2 * sizeof(char *); ntypes++; }
          }else if( strcmp(key, "type_pattern")==0 || strcmp(key, "name")==0 ){
            check_pattern(L, lua_gettop(L), key[0]=='n' ? "gr.on_node filter.name" : "gr.on_node filter.type_pattern");
            bytes += lua_rawlen(L, -1) + 1;
          }else return luaL_error(L, "gr.on_node: unknown filter field '%s' (type, type_pattern, name)", key);
        }else return luaL_error(L, "gr.on_node: bad filter key (a %s)", luaL_typename(L, -2));
        lua_pop(L, 1);
      }
    }else return luaL_typeerror(L, 1, "op type, list of op types or filter table");
  }
  hk_charge(L, bytes, 1);
  cb = new_cb(L, ST_NODE, fi);
  cap = ntypes;
  if( cap ) cb->types = gr_xmalloc(cap * sizeof *cb->types);
  if( nargs==2 ){
    if( lua_type(L, 1)==LUA_TSTRING ) add_type(cb, lua_tostring(L, 1), &cap);
    else{
      lua_Integer j, n;
      for(j = 1; j <= nlist; j++){ lua_rawgeti(L, 1, j); add_type(cb, lua_tostring(L, -1), &cap); lua_pop(L, 1); }
      lua_pushliteral(L, "type");
      if( lua_rawget(L, 1)==LUA_TSTRING ) add_type(cb, lua_tostring(L, -1), &cap);
      else if( lua_type(L, -1)==LUA_TTABLE ){
        n = (lua_Integer)lua_rawlen(L, -1);
        for(j = 1; j <= n; j++){ lua_rawgeti(L, -1, j); add_type(cb, lua_tostring(L, -1), &cap); lua_pop(L, 1); }
      }
      lua_pop(L, 1);
      lua_pushliteral(L, "type_pattern");
      if( lua_rawget(L, 1)==LUA_TSTRING ) cb->type_pat = gr_xstrdup(lua_tostring(L, -1));
      lua_pop(L, 1);
      lua_pushliteral(L, "name");
      if( lua_rawget(L, 1)==LUA_TSTRING ) cb->name_pat = gr_xstrdup(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  (void)k;
  return 0;
}

static int l_tiling(lua_State *L){
  gr_hooks *h = hooks_of(L);
  script *sc = need_loading(L, "gr.tiling");
  const char *op = luaL_checkstring(L, 1);
  tiling_fn *t;
  size_t k;
  luaL_checktype(L, 2, LUA_TFUNCTION);
  for(k = 0; k < h->ntilings; k++){
    if( strcmp(h->tilings[k].op_type, op)==0 )
      return luaL_error(L, "gr.tiling: a tiling function for '%s' is already registered (%s:%d)", op,
                        h->tilings[k].sc->path, (int)h->tilings[k].reg_line);
  }
  h->tilings = gr_xrealloc(h->tilings, (h->ntilings + 1) * sizeof *h->tilings);
  t = &h->tilings[h->ntilings];
  memset(t, 0, sizeof *t);
  t->sc = sc;
  hk_charge(L, 2 * sizeof *t + strlen(op) + 1, 1);
  t->op_type = gr_xstrdup(op);
  t->line = func_line(L, 2);
  t->reg_line = hk_script_line(L, sc);
  lua_pushvalue(L, 2);
  t->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  h->ntilings++;
  return 0;
}

static const luaL_Reg gr_funcs[] = {
  { "on_begin", l_on_begin }, { "on_node", l_on_node }, { "on_end", l_on_end }, { "tiling", l_tiling },
  { "chip", l_chip }, { "run_mode", l_run_mode }, { "option", l_option }, { "option_info", l_option_info },
  { "options", l_options }, { "ini", l_ini }, { "table", l_table }, { "slots", l_slots },
  { "node", l_node }, { "nodes", l_nodes }, { "graph", l_graph }, { "stage", l_stage },
  { "diagnose", l_diagnose }, { "error", l_error }, { "warning", l_warning }, { "note", l_note },
  { "diagnostics", l_diagnostics }, { "set_severity", l_set_severity },
  { NULL, NULL }
};

void hk_open_api(lua_State *L){
  /* node objects: light userdata with one locked metatable */
  lua_pushlightuserdata(L, NULL);
  luaL_newmetatable(L, NODE_MT);
  lua_pushcfunction(L, node_index); lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, node_newindex); lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, node_tostring); lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, NODE_MT); lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  /* the gr table */
  luaL_newlib(L, gr_funcs);
  lua_pushliteral(L, PACKAGE_VERSION); lua_setfield(L, -2, "version");
  lua_setglobal(L, "gr");
}
