/*
** sandbox.c: one sandboxed Lua 5.4 state per script (see internal.h for the
** other files of src/hooks).
**
** Every state is built by hand: a capped allocator whose user data is the
** script record (so the count hook and the C functions find their context
** with lua_getallocf), only the base, string, table, math and utf8
** libraries with the replacements of safelib.c, and the `gr` table of
** api.c. A count hook every HK_TICK instructions spends the instruction
** budget and checks the wall-clock deadline; once a limit trips it re-arms
** itself to fire on every instruction, so neither pcall nor a coroutine can
** swallow the error. Errors are turned into located texts here.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "hooks/internal.h"

/* ------------------------------------------------------------------ */
/* time and limits */

static double now(void){
  struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
  clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hk_reset_limits(gr_hooks *h){
  uint64_t t = h->lim.instructions / HK_TICK;
  h->ticks_left = t ? t : 1;
  h->tripped = 0;
  h->trip_msg[0] = 0;
  h->time_left = h->lim.timeout;
  h->depth = 0;
}

void hk_run_enter(gr_hooks *h){
  if( h->depth++==0 ){
    h->t_enter = now();
    h->deadline = h->t_enter + h->time_left;
  }
}

void hk_run_leave(gr_hooks *h){
  if( --h->depth==0 ){
    h->time_left -= now() - h->t_enter;
    if( h->time_left < 0 ) h->time_left = 0;
  }
}

script *hk_script_of(lua_State *L){
  void *ud;
  lua_getallocf(L, &ud);
  return ud;
}

static void count_hook(lua_State *L, lua_Debug *ar);

/* Marks the run as over its limits; the next instruction of L raises. */
static void trip(gr_hooks *h, lua_State *L, const char *msg){
  if( !h->tripped ){
    h->tripped = 1;
    snprintf(h->trip_msg, sizeof h->trip_msg, "%s", msg);
  }
  if( L ) lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
}

static void time_msg(gr_hooks *h, char *buf, size_t n){
  snprintf(buf, n, "time limit exceeded: hooks may run %g s per evaluation (--hook-timeout)", h->lim.timeout);
}

int hk_check_time(gr_hooks *h, lua_State *L){
  char m[160];
  if( h->tripped ) return -1;
  if( now() <= h->deadline ) return 0;
  time_msg(h, m, sizeof m);
  trip(h, L, m);
  return -1;
}

void hk_check_deadline(lua_State *L){
  gr_hooks *h = hk_script_of(L)->h;
  if( h->tripped || hk_check_time(h, L) ) luaL_error(L, "%s", h->trip_msg);
}

int hk_lpat_interrupt(void *ud, char *msg, size_t n){
  gr_hooks *h = ud;
  if( !h->tripped && hk_check_time(h, NULL)==0 ) return 0;
  snprintf(msg, n, "%s", h->trip_msg);
  return 1;
}

static void count_hook(lua_State *L, lua_Debug *ar){
  gr_hooks *h = hk_script_of(L)->h;
  if( !h->tripped ){
    if( h->ticks_left > 1 ){
      h->ticks_left--;
      if( now() <= h->deadline ) return;
      {
        char m[160];
        time_msg(h, m, sizeof m);
        trip(h, L, m);
      }
    }else{
      char m[160];
      snprintf(m, sizeof m, "instruction budget exceeded: hooks may run %llu instructions per evaluation (--hook-instructions)",
               (unsigned long long)h->lim.instructions);
      trip(h, L, m);
    }
  }
  lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  if( lua_getinfo(L, "Sl", ar) && ar->currentline > 0 ) lua_pushfstring(L, "%s:%d: %s", ar->short_src, ar->currentline, h->trip_msg);
  else lua_pushstring(L, h->trip_msg);
  lua_error(L);
}

void hk_arm(lua_State *L){ lua_sethook(L, count_hook, LUA_MASKCOUNT, HK_TICK); }

int hk_memory_error(lua_State *L){
  script *sc = hk_script_of(L);
  char m[160];
  snprintf(m, sizeof m, "memory limit exceeded: a hook may use %g MiB (--hook-memory)", (double)sc->mem_limit / HK_MIB);
  trip(sc->h, L, m);
  return luaL_error(L, "%s", sc->h->trip_msg);
}

/* ------------------------------------------------------------------ */
/* the allocator */

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize){
  script *sc = ud;
  void *p;
  if( ptr==NULL ) osize = 0;        /* osize is a type tag then */
  if( nsize==0 ){
    free(ptr);
    sc->mem_used -= osize;
    return NULL;
  }
  if( nsize > osize && sc->mem_used + (nsize - osize) > sc->mem_limit ){
    if( sc->running && sc->L ){
      /* remember where the script was (read-only stack walk) */
      lua_Debug ar;
      int lv;
      for(lv = 0; lv < 50 && lua_getstack(sc->L, lv, &ar); lv++){
        if( lua_getinfo(sc->L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.source, sc->chunk)==0 ){
          sc->mem_line = (uint32_t)ar.currentline;
          break;
        }
      }
    }
    return NULL;
  }
  p = realloc(ptr, nsize);
  if( p ) sc->mem_used = sc->mem_used - osize + nsize;
  return p;
}

static int on_panic(lua_State *L){
  (void)L;
  return 0;     /* every call is protected; Lua aborts after an unprotected error */
}

/* ------------------------------------------------------------------ */
/* building a sandbox */

static int open_sandbox(lua_State *L){
  static const char *const drop[] = { "dofile", "loadfile", "collectgarbage", NULL };
  script *sc = hk_script_of(L);
  int i;
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1); lua_pop(L, 1);
  if( sc->h->lim.test_coroutines ){ luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1); lua_pop(L, 1); }
  for(i = 0; drop[i]; i++){ lua_pushnil(L); lua_setglobal(L, drop[i]); }
  hk_open_safelib(L);
  hk_open_api(L);
  return 0;
}

int hk_traceback(lua_State *L){
  const char *msg = lua_tostring(L, 1);
  if( msg==NULL ) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  luaL_traceback(L, L, msg, 1);
  return 1;
}

void hk_script_free(script *sc){
  if( sc==NULL ) return;
  if( sc->L ) lua_close(sc->L);
  free(sc->path);
  free(sc->chunk);
  free(sc);
}

script *hk_script_new(gr_hooks *h, const char *path, gr_error *err){
  script *sc = gr_xcalloc(1, sizeof *sc);
  size_t len;
  int rc;
  sc->h = h;
  sc->path = gr_xstrdup(path);
  sc->chunk = gr_xasprintf("@%s", path);
  len = strlen(sc->chunk);
  if( len <= LUA_IDSIZE ) snprintf(sc->shown, sizeof sc->shown, "%s", path);
  else snprintf(sc->shown, sizeof sc->shown, "...%s", sc->chunk + len - (LUA_IDSIZE - 4));
  sc->mem_limit = h->lim.memory;
  sc->L = lua_newstate(sandbox_alloc, sc);
  if( sc->L==NULL ){
    gr_error_set(err, 0, 0, "cannot create a Lua state within the memory limit");
    hk_script_free(sc);
    return NULL;
  }
  lua_atpanic(sc->L, on_panic);
  lua_pushcfunction(sc->L, open_sandbox);
  rc = lua_pcall(sc->L, 0, 0, 0);
  if( rc!=LUA_OK ){
    gr_error_set(err, 0, 0, "cannot set up the Lua sandbox: %s", lua_tostring(sc->L, -1) ? lua_tostring(sc->L, -1) : "error");
    hk_script_free(sc);
    return NULL;
  }
  return sc;
}

/* ------------------------------------------------------------------ */
/* errors */

/* The script line the running code is at (0: not in the script). */
uint32_t hk_script_line(lua_State *L, const script *sc){
  lua_Debug ar;
  int lv;
  for(lv = 1; lv < 100 && lua_getstack(L, lv, &ar); lv++){
    if( !lua_getinfo(L, "Sl", &ar) ) break;
    if( ar.currentline > 0 && strcmp(ar.source, sc->chunk)==0 ) return (uint32_t)ar.currentline;
  }
  return 0;
}


static int parse_line(const char *p, uint32_t *line, const char **rest){
  unsigned long v = 0;
  const char *q = p;
  while( *q >= '0' && *q <= '9' && q - p < 9 ) v = v * 10 + (unsigned long)(*q++ - '0');
  if( q==p || *q!=':' ) return 0;
  *line = (uint32_t)v;
  *rest = q[1]==' ' ? q + 2 : q + 1;
  return 1;
}

/* Locates a Lua error message in the script: strips a leading
** "shown:line: " and returns the line, else takes the first traceback line
** that points into the script. */
static uint32_t locate(const script *sc, const char *msg, const char **text){
  size_t sl = strlen(sc->shown);
  const char *p;
  uint32_t line = 0;
  *text = msg;
  if( strncmp(msg, sc->shown, sl)==0 && msg[sl]==':' && parse_line(msg + sl + 1, &line, text) ) return line;
  for(p = strstr(msg, "\n\t"); p; p = strstr(p + 2, "\n\t")){
    const char *rest;
    if( strncmp(p + 2, sc->shown, sl)==0 && p[2 + sl]==':' && parse_line(p + 3 + sl, &line, &rest) ) return line;
  }
  return 0;
}

/* Formats the error at the top of sc->L after a failed call with status rc. */
void hk_error_text(script *sc, int rc, gr_buf *b, uint32_t *line){
  const char *msg = lua_tostring(sc->L, -1), *text;
  b->n = 0;
  *line = 0;
  if( rc==LUA_ERRMEM ){
    *line = sc->mem_line;
    gr_buf_printf(b, "memory limit exceeded: a hook may use %g MiB (--hook-memory)", (double)sc->mem_limit / HK_MIB);
    return;
  }
  if( msg==NULL ) msg = "(error object is not a string)";
  *line = locate(sc, msg, &text);
  gr_buf_adds(b, text);
  if( rc==LUA_ERRERR ) gr_buf_adds(b, " (error while handling an error)");
}

