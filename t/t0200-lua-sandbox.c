/*
** t0200-lua-sandbox.c: the Lua hook sandbox and API (src/hooks/). Checks
** that escape attempts fail cleanly (io, os, require, debug, binary chunks,
** string.dump, infinite loops also inside pcall and coroutines, memory bombs,
** catastrophic patterns, C-level loops, metatable tampering, __gc, deep
** recursion), that the interruptible string and table functions give what
** stock Lua 5.4 gives (t/data/hooks/patterns.lua run in both), that every
** API function behaves with good and bad arguments (t/data/hooks/api.lua),
** that several hooks are deterministic, and the tiling bridge.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "tap.h"
#include "hooks/hooks.h"
#include "hooks/internal.h"         /* to give a script a C function that never returns */

#define DATA GR_SRCDIR "/t/data/hooks/"

static gr_buf log_text;

static void logfn(void *ud, const char *line){
  (void)ud;
  gr_buf_adds(&log_text, line);
  gr_buf_addc(&log_text, '\n');
}

/* Limits for a test of one limit: that limit is tight, the others so
** generous that no machine, however slow or busy, reaches them first (a
** test of one limit must not depend on another one or on the clock). */
#define GENEROUS_TIME 3600.0
#define GENEROUS_INSTRUCTIONS 1000000000000000ull
#define GENEROUS_MEMORY ((size_t)256 << 20)

static gr_hooks_limits generous_limits(void){
  gr_hooks_limits l;
  gr_hooks_limits_default(&l);
  l.memory = GENEROUS_MEMORY;
  l.instructions = GENEROUS_INSTRUCTIONS;
  l.timeout = GENEROUS_TIME;
  return l;
}

static gr_hooks_limits budget_limits(void){     /* the instruction budget */
  gr_hooks_limits l = generous_limits();
  l.instructions = 20000000;
  return l;
}

static gr_hooks_limits memory_limits(void){     /* the memory cap */
  gr_hooks_limits l = generous_limits();
  l.memory = (size_t)16 << 20;
  return l;
}

static gr_hooks_limits time_limits(void){       /* the clock: work that never ends otherwise */
  gr_hooks_limits l = generous_limits();
  l.timeout = 0.5;
  return l;
}

/* Hooks for rule set r under generous limits (the tests of limits set their own). */
static gr_hooks *new_hooks(const gr_ruleset *r){
  gr_hooks_limits l = generous_limits();
  return gr_hooks_new(r, &l);
}

/* Loads src into a fresh sandbox; returns the status, err filled. */
static int run_src(const char *src, const gr_hooks_limits *lim, gr_error *err){
  gr_hooks *h = gr_hooks_new(NULL, lim);
  int rc;
  gr_hooks_set_log(h, logfn, NULL);
  rc = gr_hooks_load_buffer(h, "t.lua", src, strlen(src), err);
  gr_hooks_free(h);
  return rc;
}

/* The script fails with want in its message (lim NULL: generous limits). */
static void expect_fail(const char *name, const char *src, const char *want, const gr_hooks_limits *lim){
  gr_error err;
  gr_hooks_limits l = lim ? *lim : generous_limits();
  int rc = run_src(src, &l, &err);
  char nm[200];
  snprintf(nm, sizeof nm, "%s: fails", name);
  ok(rc==-1, nm);
  snprintf(nm, sizeof nm, "%s: message", name);
  like(err.msg, want, nm);
}

static void expect_ok(const char *name, const char *src){
  gr_error err;
  gr_hooks_limits l = generous_limits();
  int rc = run_src(src, &l, &err);
  if( !ok(rc==0, name) ) diag("error: line %u: %s", err.line, err.msg);
}

/* ---- stock Lua for the differential test ---- */
static int stock_print(lua_State *L){
  int i, n = lua_gettop(L);
  for(i = 1; i <= n; i++){
    size_t l;
    const char *s = luaL_tolstring(L, i, &l);
    if( i > 1 ) gr_buf_addc(&log_text, '\t');
    gr_buf_add(&log_text, s, l);
    lua_pop(L, 1);
  }
  gr_buf_addc(&log_text, '\n');
  return 0;
}

static void differential(void){
  const char *path = DATA "patterns.lua";
  lua_State *L = luaL_newstate();
  char *stock, *mine;
  gr_hooks *h;
  gr_error err;
  int rc;
  luaL_openlibs(L);
  lua_register(L, "print", stock_print);
  log_text.n = 0;
  rc = luaL_dofile(L, path);
  if( !ok(rc==LUA_OK, "patterns.lua runs in stock Lua") ) diag("%s", lua_tostring(L, -1));
  lua_close(L);
  stock = gr_xstrdup(gr_buf_cstr(&log_text));
  log_text.n = 0;
  h = new_hooks(NULL);
  gr_hooks_set_log(h, logfn, NULL);
  rc = gr_hooks_load_file(h, path, &err);
  if( !ok(rc==0, "patterns.lua runs in the sandbox") ) diag("%u: %s", err.line, err.msg);
  gr_hooks_free(h);
  mine = gr_buf_cstr(&log_text);
  /* the sandbox prefixes print output with "file:line: " */
  if( strchr(mine, ' ') ) mine = strchr(mine, ' ') + 1;
  ok(strlen(stock) > 10000, "the differential output is substantial");
  if( !ok(strcmp(stock, mine)==0, "find/match/gmatch/gsub/rep/insert/remove/move give what stock Lua gives") ){
    size_t i = 0;
    while( stock[i] && stock[i]==mine[i] ) i++;
    diag("first difference at byte %zu: stock '%.60s' sandbox '%.60s'", i, stock + i, mine + i);
  }
  free(stock);
}

/* ---- evaluations ---- */
static gr_ruleset *rs;
static gr_graph *g;

static gr_result *eval_with(gr_hooks *h, int keep){
  gr_input in[2];
  gr_eval_config cfg;
  memset(in, 0, sizeof in);
  in[0].key = "ALLOW_HF32"; in[0].value = "1"; in[0].origin.file = "<command line>";
  in[1].key = "OP_PRECISION_MODE"; in[1].value = DATA "p.ini"; in[1].origin.file = "<command line>";
  memset(&cfg, 0, sizeof cfg);
  cfg.chip = "Ascend910B1";
  cfg.inputs = in; cfg.ninputs = 2;
  cfg.graph = g; cfg.graph_file = "g.json";
  cfg.keep_candidates = keep;
  cfg.hooks = h ? gr_hooks_vtable(h) : NULL;
  return gr_eval(rs, &cfg);
}

static int count(const char *hay, const char *needle){
  int n = 0;
  const char *p = hay;
  while( (p = strstr(p, needle))!=NULL ){ n++; p += strlen(needle); }
  return n;
}

static const gr_diag *find_code(const gr_result *r, const char *code){
  size_t i;
  for(i = 0; i < r->diags.n; i++) if( r->diags.v[i].code && strcmp(r->diags.v[i].code, code)==0 ) return &r->diags.v[i];
  return NULL;
}

static int slot_of(const char *name){ return gr_ruleset_find(&rs->slot_map, name); }

static void api(void){
  gr_hooks *h = new_hooks(rs);
  gr_error err;
  gr_result *r;
  uint32_t conv1;
  const gr_override *ov;
  const gr_diag *d;
  int rc;
  gr_hooks_set_log(h, logfn, NULL);
  log_text.n = 0;
  rc = gr_hooks_load_file(h, DATA "api.lua", &err);
  if( !ok(rc==0, "api.lua loads") ) diag("%u: %s", err.line, err.msg);
  r = eval_with(h, 1);
  ok(r && !r->fatal, "evaluation with api.lua succeeds");
  if( r && r->fatal ){ size_t i; for(i = 0; i < r->diags.n; i++) diag("%s:%u: %s", r->diags.v[i].file, r->diags.v[i].line, r->diags.v[i].msg); }
  if( !ok(count(gr_buf_cstr(&log_text), "not ok - ")==0, "every API check inside Lua passed") ) diag("%s", gr_buf_cstr(&log_text));
  is(count(gr_buf_cstr(&log_text), ": ok - "), 97, "the number of API checks that ran");
  like(gr_buf_cstr(&log_text), "api.lua", "print output is located in the script");
  like(gr_buf_cstr(&log_text), "api done", "the end stage ran");
  gr_graph_find_node(g, "conv1", &conv1);
  ov = gr_result_find_override(r, conv1, slot_of("tiling"));
  ok(ov && strcmp(ov->value, "device")==0 && ov->where.line > 0 && strstr(ov->where.file, "api.lua"), "the override is recorded with file:line");
  is(gr_dec(r, conv1, (size_t)slot_of("tiling"))->source, GR_SOURCE_HOOK, "the decision's source is hook");
  d = find_code(r, "API4");
  ok(d && d->sev==GR_SEV_WARNING && d->orig_sev==GR_SEV_ERROR && d->changed_by && strstr(d->changed_by, "known false positive"),
     "a downgraded error says so");
  d = find_code(r, "API3");
  ok(d && d->option && strcmp(d->option, "ALLOW_HF32")==0 && d->node && strcmp(d->node, "conv1")==0, "a diagnostic about an option and a node");
  ok(d && d->rule && strstr(d->rule, "api.lua:") && d->line > 0, "hook diagnostics carry script:line as rule");
  gr_result_free(r);
  gr_hooks_free(h);
}

/* A hook that fails in a stage: the result is fatal with a located error. */
static void stage_failure(const char *name, const char *src, const char *want, uint32_t line, gr_hooks_limits l){
  gr_hooks *h = gr_hooks_new(rs, &l);
  gr_error err;
  gr_result *r;
  char nm[200];
  const gr_diag *d = NULL;
  size_t i;
  gr_hooks_set_log(h, logfn, NULL);
  if( gr_hooks_load_buffer(h, "stage.lua", src, strlen(src), &err)!=0 ){
    snprintf(nm, sizeof nm, "%s: loads", name);
    ok(0, nm);
    diag("%s", err.msg);
    gr_hooks_free(h);
    return;
  }
  r = eval_with(h, 0);
  for(i = 0; r && i < r->diags.n; i++) if( r->diags.v[i].file && strcmp(r->diags.v[i].file, "stage.lua")==0 && r->diags.v[i].sev==GR_SEV_ERROR ) d = &r->diags.v[i];
  snprintf(nm, sizeof nm, "%s: fatal", name);
  ok(r && r->fatal, nm);
  snprintf(nm, sizeof nm, "%s: error located at stage.lua:%u", name, line);
  ok(d && d->line==line, nm);
  if( d && d->line!=line ) diag("got line %u", d->line);
  snprintf(nm, sizeof nm, "%s: message", name);
  like(d ? d->msg : NULL, want, nm);
  gr_result_free(r);
  gr_hooks_free(h);
}

static char *run_several(const char *const *srcs, int n){
  gr_hooks *h = new_hooks(rs);
  gr_error err;
  gr_result *r;
  gr_buf b;
  uint32_t k;
  int i;
  size_t s;
  gr_buf_init(&b);
  for(i = 0; i < n; i++){
    char name[32];
    snprintf(name, sizeof name, "h%d.lua", i);
    if( gr_hooks_load_buffer(h, name, srcs[i], strlen(srcs[i]), &err)!=0 ) gr_buf_printf(&b, "load error %s\n", err.msg);
  }
  r = eval_with(h, 1);
  for(k = 0; k < gr_graph_nnodes(g); k++){
    for(s = 0; s < rs->nslots; s++){
      const gr_decision *d = gr_dec(r, k, s);
      const gr_override *ov = d->source==GR_SOURCE_HOOK ? gr_result_find_override(r, k, (int)s) : NULL;
      gr_buf_printf(&b, "%u %s=%s %d %s:%u\n", k, rs->slots[s].name, d->value ? d->value : "-", d->source,
                    ov ? ov->where.file : "", ov ? ov->where.line : 0);
    }
  }
  for(s = 0; s < r->diags.n; s++) gr_buf_printf(&b, "%s:%u %s\n", r->diags.v[s].file ? r->diags.v[s].file : "", r->diags.v[s].line, r->diags.v[s].msg);
  gr_result_free(r);
  gr_hooks_free(h);
  return gr_buf_detach(&b);
}

static void determinism(void){
  static const char *a =
    "gr.on_node('Conv2D', function(n) n:override('precision_mode', 'enable_float_32_execution', 'from a') end)\n"
    "gr.on_end(function() gr.note('A1', 'a ran') end)\n";
  static const char *b =
    "gr.on_node({name='conv'}, function(n) n:override('precision_mode', 'high_precision', 'from b') end)\n"
    "gr.on_end(function() gr.note('B1', 'b ran') end)\n";
  const char *ab[2] = { a, b }, *ba[2] = { b, a };
  char *x1 = run_several(ab, 2), *x2 = run_several(ab, 2), *y = run_several(ba, 2);
  ok(strcmp(x1, x2)==0, "two runs with the same hooks give the same result");
  like(x1, "3 precision_mode=high_precision -2 h1.lua:1", "the later hook wins (a then b)");
  like(y, "3 precision_mode=enable_float_32_execution -2 h1.lua:1", "the later hook wins (b then a)");
  ok(strstr(x1, "a ran") < strstr(x1, "b ran"), "end stages run in load order");
  free(x1); free(x2); free(y);
}

static void tiling(void){
  static const char *src =
    "gr.tiling('Conv2D', function(node, chip)\n"
    "  local cores = chip.hw.ai_cores\n"
    "  local tiles = {}\n"
    "  for i = 0, 3 do tiles[#tiles + 1] = {offset = {i * 32, 0}, size = {32, 128}, core = i % cores} end\n"
    "  return {block_dim = 4, tile_shape = {32, 128}, tiles = tiles, ub_bytes = 8192, l1_bytes = 1,\n"
    "          l0a_bytes = 2, l0b_bytes = 3, l0c_bytes = 4, buffers = 2, double_buffer = true}\n"
    "end)\n"
    "gr.tiling('Cast', function(node) return 5 end)\n"
    "gr.tiling('Const', function(node) return {block_dim = 1, tile_shape = {4}, tiles = {{offset = {0, 0}, size = {4}, core = 0}}} end)\n"
    "gr.tiling('Data', function(node)\n"
    "  error('no plan for ' .. node.name)\n"
    "end)\n"
    "gr.tiling('FusedInferAttentionScore', function(node) return {tile_shape = {1}, tiles = {}} end)\n";
  gr_hooks *h = new_hooks(rs);
  gr_error err;
  gr_result *r;
  gr_custom_tiling t;
  uint32_t n;
  int rc = gr_hooks_load_buffer(h, "tiling.lua", src, strlen(src), &err);
  ok(rc==0, "tiling script loads");
  if( rc ) diag("%s", err.msg);
  r = eval_with(h, 0);
  ok(gr_hooks_has_tiling(h, "Conv2D") && !gr_hooks_has_tiling(h, "Relu"), "gr_hooks_has_tiling");
  gr_graph_find_node(g, "conv1", &n);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  if( !ok(rc==0, "a tiling function runs") ) diag("%s", err.msg);
  ok(t.block_dim==4 && t.ndim==2 && t.tile_shape[0]==32 && t.tile_shape[1]==128 && t.ntiles==4, "plan header");
  ok(t.offsets && t.offsets[2]==32 && t.offsets[3]==0 && t.sizes[7]==128 && t.cores[3]==3, "plan tiles");
  ok(t.ub_bytes==8192 && t.l1_bytes==1 && t.l0a_bytes==2 && t.l0b_bytes==3 && t.l0c_bytes==4 && t.buffers==2 && t.double_buffer==1, "plan bytes");
  gr_custom_tiling_free(&t);
  gr_graph_find_node(g, "len", &n);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  ok(rc==-1, "a tiling function returning a number fails");
  like(err.msg, "tiling.lua:8: tiling function for 'Cast': the tiling function returned a number", "located wrong-type message");
  gr_graph_find_node(g, "c", &n);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  ok(rc==-1 && t.offsets==NULL, "a plan with a wrong rank fails and leaves nothing allocated");
  like(err.msg, "tiles[1].offset has 2 elements, expected 1", "rank message");
  gr_graph_find_node(g, "x", &n);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  ok(rc==-1, "a Lua error in a tiling function fails");
  like(err.msg, "tiling.lua:11: no plan for x", "located Lua error");
  like(err.msg, "stack traceback", "with a traceback");
  gr_graph_find_node(g, "fia", &n);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  like(err.msg, "no block_dim", "a plan without block_dim fails");
  rc = gr_hooks_run_tiling(h, r, 0, &t, &err);
  gr_graph_find_node(g, "x", &n);
  ok(gr_hooks_run_tiling(h, r, 9999, &t, &err)==-1, "a bad node index fails");
  gr_result_free(r);
  gr_hooks_free(h);
}

/* A tiling function for Conv2D returning the plan `expr`: the bridge must
** fail cleanly with want (issue 10 class 3: hostile plans). */
static void hostile_plan(const char *name, const char *expr, const char *want){
  gr_hooks_limits l = generous_limits();
  gr_hooks *h;
  gr_error err;
  gr_result *r;
  gr_custom_tiling t;
  uint32_t n;
  char src[1024], nm[200];
  int rc;
  l.memory = (size_t)16 << 20;
  h = gr_hooks_new(rs, &l);
  snprintf(src, sizeof src, "local function tiles(n, off, size) local t = {} for i = 1, n do t[i] = {offset = off, size = size, core = 0} end return t end\n"
                            "local function shared(n, tile) local t = {} for i = 1, n do t[i] = tile end return t end\n"
                            "gr.tiling('Conv2D', function(node, chip) return %s end)\n", expr);
  rc = gr_hooks_load_buffer(h, "hostile.lua", src, strlen(src), &err);
  snprintf(nm, sizeof nm, "%s: loads", name);
  if( !ok(rc==0, nm) ){ diag("%s", err.msg); gr_hooks_free(h); return; }
  r = eval_with(h, 0);
  gr_graph_find_node(g, "conv1", &n);
  memset(&t, 0xff, sizeof t);
  rc = gr_hooks_run_tiling(h, r, n, &t, &err);
  snprintf(nm, sizeof nm, "%s: refused, nothing left allocated", name);
  ok(rc==-1 && t.offsets==NULL && t.sizes==NULL && t.cores==NULL, nm);
  snprintf(nm, sizeof nm, "%s: message", name);
  like(err.msg, want, nm);
  gr_result_free(r);
  gr_hooks_free(h);
}

static void hostile_plans(void){
  hostile_plan("a plan whose __index raises",
               "setmetatable({}, {__index = function() error('boom') end})", "the plan has no block_dim");
  hostile_plan("a plan whose __index loops",
               "setmetatable({block_dim = 1, tile_shape = {1}}, {__index = function() while true do end end})",
               "tiles must be a list");
  hostile_plan("tiles whose __index raises",
               "{block_dim = 1, tile_shape = {2, 2}, tiles = setmetatable({}, {__index = function() error('x') end, __len = function() return 5 end})}",
               "must have 1 to 16777216 tiles, not 0");
  hostile_plan("a tile whose __index raises",
               "{block_dim = 1, tile_shape = {2, 2}, tiles = {setmetatable({}, {__index = function() error('x') end})}}",
               "tiles[1].offset must be a list of integers, not a nil");
  hostile_plan("block_dim 2^31", "{block_dim = 2^31 // 1, tile_shape = {2, 2}, tiles = tiles(1, {0, 0}, {2, 2})}",
               "block_dim = 2147483648 is out of range (1 to 65536)");
  hostile_plan("offset + size overflows",
               "{block_dim = 1, tile_shape = {2, 2}, tiles = tiles(1, {0, math.maxinteger}, {2, 2})}",
               "offset + size overflows in dim 2");
  hostile_plan("tile arrays beyond --hook-memory",
               "{block_dim = 1, tile_shape = {1, 1, 1, 1, 1, 1, 1, 1}, tiles = shared(500000, {offset = {0, 0, 0, 0, 0, 0, 0, 0}, size = {1, 1, 1, 1, 1, 1, 1, 1}, core = 0})}",
               "memory limit exceeded: the plan's 500000 tiles of rank 8 need 66000000 bytes");
}

/* forever(f): calls f in a C loop that never returns to the VM, as a
** library function with a C callback would (table.sort with a C comparator):
** no instruction runs, so only the deadline timer can stop it. */
static int forever(lua_State *L){
  for(;;){
    lua_pushvalue(L, 1);
    lua_call(L, 0, 0);
  }
  return 0;
}

static void deadline_in_c(void){
  gr_hooks_limits l = time_limits();
  gr_hooks *h = gr_hooks_new(rs, &l);
  static const char *src = "gr.on_begin(function()\n  forever(math.random)\nend)\n";
  gr_error err;
  gr_result *r;
  size_t i;
  const gr_diag *d = NULL;
  int rc = gr_hooks_load_buffer(h, "forever.lua", src, strlen(src), &err);
  ok(rc==0, "deadline in C: loads");
  lua_pushcfunction(h->scripts[0]->L, forever);
  lua_setglobal(h->scripts[0]->L, "forever");
  r = eval_with(h, 0);
  for(i = 0; r && i < r->diags.n; i++) if( r->diags.v[i].sev==GR_SEV_ERROR ) d = &r->diags.v[i];
  ok(r && r->fatal, "deadline in C: a C loop that never returns to the VM is stopped");
  like(d ? d->msg : NULL, "time limit exceeded", "deadline in C: by the time limit");
  ok(d && d->line==2, "deadline in C: located at the call");
  gr_result_free(r);
  gr_hooks_free(h);
}

static void print_cap(void){
  gr_hooks_limits l = generous_limits();
  gr_error err;
  int rc;
  log_text.n = 0;
  rc = run_src("local s = string.rep('p', 1000) for i = 1, 3000 do print(s) end", &l, &err);
  ok(rc==0, "a print flood runs");
  ok(log_text.n <= ((size_t)1 << 20) + 200 && log_text.n > ((size_t)1 << 20) - 2000, "print output is capped at 1 MiB per evaluation");
  like(gr_buf_cstr(&log_text), "[print output truncated: hooks may print 1024 KiB per evaluation]", "the cut says so");
  if( log_text.n > 200 ) log_text.n = 0;
}

int main(void){
  gr_hooks_limits co = budget_limits(), budget = budget_limits(), mem = memory_limits(), clock = time_limits(),
                  any = generous_limits();
  gr_diags diags;
  const char *rp = DATA "mini.rules";
  gr_error err;
  gr_buf_init(&log_text);
  co.test_coroutines = 1;

  /* ---- the sandbox ---- */
  expect_ok("an ordinary script runs", "local t = {} for i = 1, 100 do t[i] = i * i end assert(t[10] == 100)");
  expect_ok("dangerous globals are absent",
            "assert(io == nil and os == nil and require == nil and package == nil and debug == nil)\n"
            "assert(dofile == nil and loadfile == nil and collectgarbage == nil)\n"
            "assert(string.dump == nil and ('').dump == nil)\n"
            "assert(coroutine == nil)\n");
  expect_ok("load() accepts text and honours env", "local f = assert(load('return x + 1', 'c', 't', {x = 41})) assert(f() == 42)");
  expect_ok("load() refuses binary chunks",
            "local f, m = load('\\27Lua...') assert(f == nil and m:find('binary'))\n"
            "local g, m2 = load('return 1', 'c', 'b') assert(g == nil and m2:find('binary'))\n"
            "assert(not pcall(load, function() return nil end))");
  expect_ok("string.rep of nothing is immediate", "assert(string.rep('', 2^62) == '' and ('x'):rep(0) == '')");
  expect_ok("the string metatable is locked", "assert(getmetatable('') == false)\n"
            "assert(not pcall(function() getmetatable('').__index = {} end))\n"
            "assert(not pcall(setmetatable, '', {}))");
  expect_ok("protected metatables stay protected",
            "local t = setmetatable({}, {__metatable = 'no'}) assert(not pcall(setmetatable, t, {}))");
  expect_fail("syntax error", "local x = \n x = = 1", "unexpected symbol near '='", NULL);
  {
    gr_error e;
    gr_hooks_limits l = generous_limits();
    run_src("local a = 1\nlocal b = a +\n", &l, &e);
    is(e.line, 3, "a syntax error carries its line");
    like(e.msg, "unexpected symbol near <eof>", "syntax error message (no file prefix left)");
    run_src("local a = 1\nerror('boom')\n", &l, &e);
    is(e.line, 2, "a runtime error carries its line");
    ok(strncmp(e.msg, "boom", 4)==0, "the location prefix is stripped");
    like(e.msg, "stack traceback:", "runtime errors have a traceback");
    run_src("local a = 1\nerror({})\n", &l, &e);
    like(e.msg, "error object is a table value", "a non-string error object");
    is(e.line, 2, "located through the traceback");
  }
  expect_fail("io", "io.write('x')", "attempt to index a nil value (global 'io')", NULL);
  expect_fail("os", "os.execute('true')", "global 'os'", NULL);
  expect_fail("require", "require('os')", "global 'require'", NULL);
  expect_fail("package", "package.loadlib('x', 'y')", "global 'package'", NULL);
  expect_fail("debug", "debug.sethook()", "global 'debug'", NULL);
  expect_fail("dofile", "dofile('/etc/passwd')", "global 'dofile'", NULL);
  expect_fail("string.dump", "string.dump(print)", "field 'dump'", NULL);
  expect_fail("infinite loop", "while true do end", "instruction budget exceeded", &budget);
  expect_fail("infinite loop has a traceback", "local function f() while true do end end f()", "stack traceback:", &budget);
  expect_fail("infinite loop inside pcall", "while true do pcall(function() while true do end end) end",
              "instruction budget exceeded", &budget);
  expect_fail("error handler loop inside xpcall", "xpcall(error, function() while true do end end)",
              "instruction budget exceeded", &budget);
  expect_fail("infinite loop inside a coroutine",
              "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
              "instruction budget exceeded", &co);
  expect_fail("pcall inside a coroutine",
              "local co = coroutine.wrap(function() while true do pcall(function() while true do end end) end end) co()",
              "instruction budget exceeded", &co);
  expect_fail("memory bomb: string.rep", "local s = string.rep('x', 1e9)", "memory limit exceeded", &mem);
  expect_fail("memory bomb: string doubling", "local s = 'x' while true do s = s .. s end", "memory limit exceeded", &mem);
  expect_fail("memory bomb: table growth", "local t = {} for i = 1, 1e9 do t[i] = i end", "memory limit exceeded", &mem);
  expect_fail("memory bomb inside pcall", "local t = {} while true do pcall(function() t[#t + 1] = string.rep('x', 1e6) end) end",
              "memory limit exceeded", &mem);
  {
    gr_hooks_limits l = clock;
    expect_fail("catastrophic string.find",
                "return string.find(string.rep('a', 5e4), '.-.-.-.-.-.-.-.-b')", "time limit exceeded", &l);
    expect_fail("catastrophic string.find inside pcall",
                "while true do pcall(string.find, string.rep('a', 5e4), '.-.-.-.-.-.-.-.-b') end", "time limit exceeded", &l);
    expect_fail("catastrophic string.match", "return ('a'):rep(3e4):match('(.-)(.-)(.-)(.-)(.-)b')", "time limit exceeded", &l);
    expect_fail("catastrophic string.gsub", "return ('a'):rep(3e4):gsub('.-.-.-.-.-b', '')", "time limit exceeded", &l);
    expect_fail("catastrophic string.gmatch", "for x in ('a'):rep(3e4):gmatch('.-.-.-.-.-b') do end", "time limit exceeded", &l);
    expect_fail("table.move over a huge range", "table.move({}, 1, 2^53, 2)", "time limit exceeded", &l);
    expect_fail("table.insert with a huge __len",
                "table.insert(setmetatable({}, {__len = function() return 2^53 end}), 1, 'x')", "time limit exceeded", &l);
    expect_fail("table.remove with a huge __len",
                "table.remove(setmetatable({}, {__len = function() return 2^53 end}), 1)", "time limit exceeded", &l);
  }
  expect_fail("huge filter lists (C memory of the registrations)",
              "local t = {} for i = 1, 2e5 do t[i] = 'OpType' .. i end for k = 1, 1e4 do gr.on_node(t, function() end) end",
              "memory limit exceeded", &mem);
  expect_fail("__gc finalizers are refused", "setmetatable({}, {__gc = function() while true do end end})",
              "__gc metamethods are not allowed", NULL);
  /* Lua's own stack limit: every limit of gerules is generous */
  expect_fail("deep recursion", "local function f() return 1 + f() end f()", "stack overflow", &any);
  expect_fail("deep recursion through metamethods",
              "local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x", "stack overflow", NULL);
  expect_fail("deep pattern recursion", "return string.find('x', string.rep('(', 40) .. 'x' .. string.rep(')', 40))",
              "too many captures", NULL);
  differential();

  /* ---- evaluations ---- */
  gr_diags_init(&diags);
  rs = gr_ruleset_load(&rp, 1, &diags);
  ok(rs!=NULL, "mini.rules loads");
  g = gr_graph_load_file(DATA "g.json", &err);
  ok(g!=NULL, "g.json loads");
  if( rs==NULL || g==NULL ){ gr_diags_free(&diags); return done_testing(); }
  api();
  stage_failure("runtime error in a node callback", "gr.on_node(function(n)\n  local t = nil\n  return t.x\nend)\n",
                "attempt to index a nil value", 3, any);
  stage_failure("wrong return type", "\ngr.on_node('Conv2D', function(n) return 5 end)\n", "returned a number", 2, any);
  stage_failure("wrong return type in end", "gr.on_end(function()\n return {}\nend)\n", "returned a table", 1, any);
  stage_failure("infinite loop in begin", "gr.on_begin(function()\n while true do end\nend)\n", "instruction budget exceeded", 2, budget);
  stage_failure("bad override value", "gr.on_end(function()\n gr.node('x'):override('tiling', 'gpu')\nend)\n", "never takes the value", 2, any);
  stage_failure("catastrophic pattern in a node callback",
                "gr.on_node(function(n)\n  return string.find(string.rep('a', 5e4), '.-.-.-.-.-.-.-.-b')\nend)\n", "time limit exceeded", 2, clock);
  /* issue 10 class 5: C memory made for a hook counts against --hook-memory */
  stage_failure("millions of diagnostics", "gr.on_end(function()\n  for i = 1, 1e8 do gr.note('X1', 'a note') end\nend)\n",
                "memory limit exceeded", 2, mem);
  stage_failure("huge override reasons",
                "local r = string.rep('why', 2e6)\ngr.on_node('Conv2D', function(n)\n  for i = 1, 1e6 do n:override('precision_mode', 'high_precision', r) end\nend)\n",
                "memory limit exceeded", 3, mem);
  stage_failure("huge diagnostic messages",
                "local m = string.rep('m', 4e6)\ngr.on_end(function()\n  for i = 1, 1e6 do gr.warning('X2', m) end\nend)\n",
                "memory limit exceeded", 3, mem);
  stage_failure("memory bomb in end", "gr.on_end(function()\n  local s = ('x'):rep(2^30)\nend)\n", "memory limit exceeded", 2, mem);
  determinism();
  tiling();
  hostile_plans();
  deadline_in_c();
  print_cap();
  gr_graph_free(g);
  gr_ruleset_free(rs);
  gr_diags_free(&diags);
  gr_buf_free(&log_text);
  return done_testing();
}
