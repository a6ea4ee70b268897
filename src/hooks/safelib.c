/*
** safelib.c: the library functions a hook gets in place of stock Lua's.
** Functions that can spin in C without returning to the VM check the
** deadline as they go: the pattern functions (string.find, match, gmatch,
** gsub, on the matcher of lpattern.c), string.rep (an empty string repeated
** 2^60 times), and table.insert, table.remove and table.move (loops over a
** length that __len can make huge). `load` takes text only, `print` logs
** through the caller's function, `setmetatable` refuses __gc (finalizers run
** with hooks disabled, outside any budget), xpcall runs its handler after
** unwinding (Lua runs handlers with hooks disabled when the error came from
** a hook), and neither pcall nor xpcall catches running out of memory.
*/
#include "config.h"
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "hooks/internal.h"
#include "hooks/lpattern.h"

/* ------------------------------------------------------------------ */
/* string patterns */

/* Pushes capture i of the match [s, e) (the whole match for i 0 without captures). */
static void push_capture(lua_State *L, const gr_lpat *m, int i, const char *s, const char *e){
  if( i >= m->level ){
    if( i!=0 ) luaL_error(L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(L, s, (size_t)(e - s));
    return;
  }
  if( m->cap[i].len==GR_LPAT_CAP_UNFINISHED ) luaL_error(L, "unfinished capture");
  if( m->cap[i].len==GR_LPAT_CAP_POSITION ) lua_pushinteger(L, (lua_Integer)(m->cap[i].init - m->src_init) + 1);
  else lua_pushlstring(L, m->cap[i].init, (size_t)m->cap[i].len);
}

/* Pushes the captures (the whole match when there is none and s is given). */
static int push_captures(lua_State *L, const gr_lpat *m, const char *s, const char *e){
  int i, n = (m->level==0 && s) ? 1 : m->level;
  luaL_checkstack(L, n, "too many captures");
  for(i = 0; i < n; i++) push_capture(L, m, i, s, e);
  return n;
}

/* The matcher's interrupt function (ud: the Lua state): stops at the deadline. */
static int lua_interrupt(void *ud, char *msg, size_t n){
  lua_State *L = ud;
  gr_hooks *h = hk_script_of(L)->h;
  if( !h->tripped && hk_check_time(h, L)==0 ) return 0;
  snprintf(msg, n, "%s", h->trip_msg);
  return 1;
}

/* Matches at `at`: 1 with *e, 0; raises the matcher's errors in L. */
static int match_at(lua_State *L, gr_lpat *m, const char *at, const char **e){
  int rc = gr_lpat_match(m, at, e);
  if( rc < 0 ) luaL_error(L, "%s", m->err);
  return rc;
}

static size_t pos_start(lua_Integer pos, size_t len){
  if( pos > 0 ) return (size_t)pos;
  if( pos==0 ) return 1;
  if( pos < -(lua_Integer)len ) return 1;
  return len + (size_t)pos + 1;
}

static int find_aux(lua_State *L, int find){
  size_t ls, lp, init;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  init = pos_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if( init > ls ){ luaL_pushfail(L); return 1; }
  if( find && (lua_toboolean(L, 4) || !gr_lpat_has_specials(p, lp)) ){
    const char *f = lp==0 ? s + init : memmem(s + init, ls - init, p, lp);
    if( f ){
      lua_pushinteger(L, (lua_Integer)(f - s) + 1);
      lua_pushinteger(L, (lua_Integer)(f - s + (ptrdiff_t)lp));
      return 2;
    }
  }else{
    gr_lpat m;
    const char *s1 = s + init;
    int anchor = lp > 0 && *p=='^';
    if( anchor ){ p++; lp--; }
    gr_lpat_init(&m, s, ls, p, lp, lua_interrupt, L);
    do{
      const char *e;
      if( match_at(L, &m, s1, &e) ){
        if( find ){
          lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
          lua_pushinteger(L, (lua_Integer)(e - s));
          return push_captures(L, &m, NULL, NULL) + 2;
        }
        return push_captures(L, &m, s1, e);
      }
    }while( s1++ < m.src_end && !anchor );
  }
  luaL_pushfail(L);
  return 1;
}

static int l_find(lua_State *L){ return find_aux(L, 1); }
static int l_match(lua_State *L){ return find_aux(L, 0); }

/* gmatch iterator: upvalues s, p, next position, end of the last match (-1) */
static int gmatch_next(lua_State *L){
  size_t ls, lp;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  lua_Integer pos = lua_tointeger(L, lua_upvalueindex(3));
  lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
  const char *src;
  gr_lpat m;
  gr_lpat_init(&m, s, ls, p, lp, lua_interrupt, L);
  for(src = s + pos; src <= m.src_end; src++){
    const char *e;
    if( match_at(L, &m, src, &e) && (last < 0 || e!=s + last) ){
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(3));
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(4));
      return push_captures(L, &m, src, e);
    }
  }
  return 0;
}

static int l_gmatch(lua_State *L){
  size_t ls, init;
  luaL_checklstring(L, 1, &ls);
  luaL_checkstring(L, 2);
  init = pos_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if( init > ls ) init = ls + 1;
  lua_settop(L, 2);
  lua_pushinteger(L, (lua_Integer)init);
  lua_pushinteger(L, -1);
  lua_pushcclosure(L, gmatch_next, 4);
  return 1;
}

static void add_repl_string(lua_State *L, const gr_lpat *m, luaL_Buffer *b, const char *s, const char *e){
  size_t l, i;
  const char *r = lua_tolstring(L, 3, &l);
  for(i = 0; i < l; i++){
    if( r[i]!='%' ){ luaL_addchar(b, r[i]); continue; }
    i++;
    if( i < l && r[i]=='%' ) luaL_addchar(b, '%');
    else if( i < l && isdigit((unsigned char)r[i]) ){
      if( r[i]=='0' ) luaL_addlstring(b, s, (size_t)(e - s));
      else{
        push_capture(L, m, r[i] - '1', s, e);
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
        luaL_addvalue(b);
      }
    }else{
      luaL_error(L, "invalid use of '%%' in replacement string");
    }
  }
}

/* Adds the replacement of one match; returns 1 when it changed the text. */
static int add_value(lua_State *L, const gr_lpat *m, luaL_Buffer *b, const char *s, const char *e, int tr){
  if( tr==LUA_TNUMBER || tr==LUA_TSTRING ){ add_repl_string(L, m, b, s, e); return 1; }
  if( tr==LUA_TFUNCTION ){
    int n;
    lua_pushvalue(L, 3);
    n = push_captures(L, m, s, e);
    lua_call(L, n, 1);
  }else{
    push_capture(L, m, 0, s, e);
    lua_gettable(L, 3);
  }
  if( !lua_toboolean(L, -1) ){
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if( !lua_isstring(L, -1) ) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

static int l_gsub(lua_State *L){
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *src = s, *last = NULL;
  int tr = lua_type(L, 3);
  lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1), n = 0;
  int anchor = lp > 0 && *p=='^', changed = 0;
  unsigned copied = 0;
  gr_lpat m;
  luaL_Buffer b;
  luaL_argexpected(L, tr==LUA_TNUMBER || tr==LUA_TSTRING || tr==LUA_TFUNCTION || tr==LUA_TTABLE, 3,
                   "string/function/table");
  luaL_buffinit(L, &b);
  if( anchor ){ p++; lp--; }
  gr_lpat_init(&m, s, ls, p, lp, lua_interrupt, L);
  while( n < max_n ){
    const char *e;
    if( match_at(L, &m, src, &e) && e!=last ){
      n++;
      changed |= add_value(L, &m, &b, src, e, tr);
      src = last = e;
    }else if( src < m.src_end ){
      luaL_addchar(&b, *src++);
      if( (++copied % GR_LPAT_CHECK_STEPS)==0 ) hk_check_deadline(L);
    }else break;
    if( anchor ) break;
  }
  if( !changed ) lua_pushvalue(L, 1);
  else{
    luaL_addlstring(&b, src, (size_t)(m.src_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

/* ------------------------------------------------------------------ */
/* other library functions */


static int l_rep(lua_State *L){
  size_t l, lsep, total, i;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  luaL_Buffer b;
  char *out;
  if( n <= 0 || l + lsep==0 ){ lua_pushliteral(L, ""); return 1; }
  if( l + lsep < l || (lua_Unsigned)n > (lua_Unsigned)(SIZE_MAX / 2) / (l + lsep) )
    return luaL_error(L, "resulting string too large");
  total = (size_t)n * l + (size_t)(n - 1) * lsep;
  out = luaL_buffinitsize(L, &b, total);
  for(i = 0; i < (size_t)n; i++){
    if( (i & 0xfffff)==0xfffff ) hk_check_deadline(L);
    memcpy(out, s, l); out += l;
    if( lsep && i + 1 < (size_t)n ){ memcpy(out, sep, lsep); out += lsep; }
  }
  luaL_pushresultsize(&b, total);
  return 1;
}

static lua_Integer checked_len(lua_State *L, int i){
  luaL_checktype(L, i, LUA_TTABLE);
  return luaL_len(L, i);
}

static int l_insert(lua_State *L){
  lua_Integer e = checked_len(L, 1) + 1, pos, i;
  switch( lua_gettop(L) ){
    case 2: pos = e; break;
    case 3:
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
      for(i = e; i > pos; i--){
        if( (i & 0xfff)==0 ) hk_check_deadline(L);
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

static int l_remove(lua_State *L){
  lua_Integer size = checked_len(L, 1);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  /* argument #1 in the message, as stock Lua 5.4 says */
  if( pos!=size ) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  lua_geti(L, 1, pos);
  for(; pos < size; pos++){
    if( (pos & 0xfff)==0 ) hk_check_deadline(L);
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

static int l_move(lua_State *L){
  lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3), t = luaL_checkinteger(L, 4), i;
  int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, tt, LUA_TTABLE);
  if( e >= f ){
    lua_Integer n;
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    if( t > e || t <= f || (tt!=1 && !lua_compare(L, 1, tt, LUA_OPEQ)) ){
      for(i = 0; i < n; i++){
        if( (i & 0xfff)==0xfff ) hk_check_deadline(L);
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
      }
    }else{
      for(i = n - 1; i >= 0; i--){
        if( (i & 0xfff)==0xfff ) hk_check_deadline(L);
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
      }
    }
  }
  lua_pushvalue(L, tt);
  return 1;
}

/* setmetatable without __gc: finalizers run with hooks disabled. */
static int l_setmetatable(lua_State *L){
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t==LUA_TNIL || t==LUA_TTABLE, 2, "nil or table");
  if( luaL_getmetafield(L, 1, "__metatable")!=LUA_TNIL ) return luaL_error(L, "cannot change a protected metatable");
  if( t==LUA_TTABLE ){
    if( lua_getfield(L, 2, "__gc")!=LUA_TNIL ) return luaL_error(L, "__gc metamethods are not allowed in hooks");
    lua_pop(L, 1);
  }
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/* xpcall(f, msgh, ...): the handler runs after the error unwound, through
** pcall. Lua runs a message handler before unwinding, and when the error was
** raised by the count hook, with hooks still disabled: a handler that loops
** would escape every limit. Without the debug library a handler cannot tell
** the difference. */
static int l_xpcall(lua_State *L){
  int n = lua_gettop(L), status;
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushboolean(L, 1);              /* first result if no errors */
  lua_pushvalue(L, 1);                /* the function */
  lua_rotate(L, 3, 2);                /* move them below the arguments */
  status = lua_pcall(L, n - 2, LUA_MULTRET, 0);
  if( status==LUA_OK ) return lua_gettop(L) - 2;
  if( status==LUA_ERRMEM ) return hk_memory_error(L);
  lua_pushvalue(L, 2);                /* the handler */
  lua_insert(L, -2);
  status = lua_pcall(L, 1, 1, 0);
  (void)status;                       /* a failing handler: its error is the result */
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
}

/* pcall(f, ...): as stock Lua's, except that running out of memory is not
** caught: like the other limits, it ends the hook. */
static int l_pcall(lua_State *L){
  int status;
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);              /* first result if no errors */
  lua_insert(L, 1);
  status = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0);
  if( status==LUA_OK ) return lua_gettop(L);
  if( status==LUA_ERRMEM ) return hk_memory_error(L);
  lua_pushboolean(L, 0);
  lua_pushvalue(L, -2);
  return 2;
}

/* load reads the text in pieces, so parsing a huge string stops at the
** deadline: between two pieces the reader checks it and, once it passed,
** ends the text early; load then raises the limit's error. */
#define LOAD_PIECE 65536
typedef struct load_text { const char *s; size_t left; gr_hooks *h; int stopped; } load_text;

static const char *load_reader(lua_State *L, void *ud, size_t *size){
  load_text *t = ud;
  const char *p = t->s;
  (void)L;
  *size = 0;
  if( t->left==0 ) return NULL;
  if( t->h->tripped || hk_check_time(t->h, NULL) ){ t->stopped = 1; return NULL; }
  *size = t->left < LOAD_PIECE ? t->left : LOAD_PIECE;
  t->s += *size;
  t->left -= *size;
  return p;
}

/* load: text chunks only, from a string; the env argument is honoured. */
static int l_load(lua_State *L){
  size_t l;
  const char *s = lua_tolstring(L, 1, &l);
  const char *name, *mode = luaL_optstring(L, 3, "t");
  int env = !lua_isnone(L, 4) ? 4 : 0, status;
  if( s==NULL || lua_type(L, 1)!=LUA_TSTRING ) return luaL_error(L, "load: hooks can load only strings of Lua text");
  if( strchr(mode, 't')==NULL ){
    luaL_pushfail(L);
    lua_pushstring(L, "attempt to load a binary chunk (hooks load text only)");
    return 2;
  }
  name = luaL_optstring(L, 2, s);
  {
    load_text t;
    t.s = s; t.left = l; t.h = hk_script_of(L)->h; t.stopped = 0;
    status = lua_load(L, load_reader, &t, name, "t");
    if( t.stopped ){
      lua_pop(L, 1);
      hk_check_deadline(L);
    }
  }
  if( status!=LUA_OK ){
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  if( env ){
    lua_pushvalue(L, env);
    if( !lua_setupvalue(L, -2, 1) ) lua_pop(L, 1);
  }
  return 1;
}

static int l_print(lua_State *L){
  script *sc = hk_script_of(L);
  int i, n = lua_gettop(L);
  luaL_Buffer b;
  uint32_t line = hk_script_line(L, sc);
  luaL_buffinit(L, &b);
  if( line ) lua_pushfstring(L, "%s:%d: ", sc->path, (int)line);
  else lua_pushfstring(L, "%s: ", sc->path);
  luaL_addvalue(&b);
  for(i = 1; i <= n; i++){
    if( i > 1 ) luaL_addchar(&b, '\t');
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  if( sc->h->log && sc->h->print_left ){
    gr_hooks *h = sc->h;
    size_t len, k;
    char *text = (char *)lua_tolstring(L, -1, &len);
    /* the volume is capped: gigabytes of print would all reach the log */
    if( len + 1 > h->print_left ){
      lua_pushlstring(L, text, h->print_left > 1 ? h->print_left - 1 : 0);
      lua_pushfstring(L, " [print output truncated: hooks may print %d KiB per evaluation]", (int)(HK_PRINT_MAX >> 10));
      lua_concat(L, 2);
      text = (char *)lua_tolstring(L, -1, &len);
      h->print_left = 0;
    }else h->print_left -= len + 1;
    /* a log text is C text: show zero bytes as \0 */
    if( memchr(text, 0, len) ){
      luaL_Buffer e;
      luaL_buffinit(L, &e);
      for(k = 0; k < len; k++){
        if( text[k] ) luaL_addchar(&e, text[k]);
        else luaL_addstring(&e, "\\0");
      }
      luaL_pushresult(&e);
    }
    sc->h->log(sc->h->log_ud, lua_tostring(L, -1));
  }
  return 0;
}


/* ------------------------------------------------------------------ */
/* determinism: pairs in a fixed order, a fixed random seed
** Lua 5.4 seeds its string hash from the clock and addresses
** (luai_makeseed), which the Debian system Lua does not let a program fix,
** so stock `pairs` visits string keys in an order that changes from run to
** run. The sandbox's pairs visits a snapshot of the keys, sorted: numbers
** ascending, then strings bytewise, then false and true, then any other keys
** (tables, functions: they have no order of their own) in the table's own
** order. A key removed during the traversal is skipped; one added is not
** visited. `next` keeps Lua's internal order. */

#define SEED 0x67657275ull          /* math.random's fixed seed ("geru") */

typedef struct sortkey { int cls; int isint; lua_Integer i; lua_Number n; const char *s; size_t len; size_t idx; } sortkey;

static int sortkey_cmp(const void *a, const void *b){
  const sortkey *x = a, *y = b;
  if( x->cls!=y->cls ) return x->cls < y->cls ? -1 : 1;
  switch( x->cls ){
    case 0:
      if( x->isint && y->isint ){ if( x->i!=y->i ) return x->i < y->i ? -1 : 1; }
      else if( x->n!=y->n ) return x->n < y->n ? -1 : 1;
      break;
    case 1: {
      size_t m = x->len < y->len ? x->len : y->len;
      int c = memcmp(x->s, y->s, m);
      if( c ) return c;
      if( x->len!=y->len ) return x->len < y->len ? -1 : 1;
      break;
    }
    case 2: if( x->i!=y->i ) return x->i < y->i ? -1 : 1; break;
    default: break;
  }
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* iterator: upvalues the table, the sorted keys, the position */
static int pairs_next(lua_State *L){
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
  for(;;){
    i++;
    if( lua_rawgeti(L, lua_upvalueindex(2), i)==LUA_TNIL ) return 1;
    lua_pushvalue(L, -1);
    if( lua_rawget(L, lua_upvalueindex(1))!=LUA_TNIL ) break;
    lua_pop(L, 2);                    /* removed meanwhile */
  }
  lua_pushinteger(L, i);
  lua_replace(L, lua_upvalueindex(3));
  return 2;
}

static int l_pairs(lua_State *L){
  size_t n = 0, k;
  sortkey *v;
  if( luaL_getmetafield(L, 1, "__pairs")!=LUA_TNIL ){
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);
    return 3;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_newtable(L);                    /* 2: the keys in table order */
  lua_pushnil(L);
  while( lua_next(L, 1) ){
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, 2, (lua_Integer)++n);
    if( (n % 4096)==0 ) hk_check_deadline(L);
  }
  v = lua_newuserdatauv(L, (n ? n : 1) * sizeof *v, 0);   /* 3: charged to the hook like any Lua memory */
  for(k = 0; k < n; k++){
    sortkey *e = &v[k];
    int t = lua_rawgeti(L, 2, (lua_Integer)k + 1);
    memset(e, 0, sizeof *e);
    e->idx = k;
    if( t==LUA_TNUMBER ){
      e->cls = 0;
      e->isint = lua_isinteger(L, -1);
      if( e->isint ) e->i = lua_tointeger(L, -1);
      e->n = lua_tonumber(L, -1);
    }else if( t==LUA_TSTRING ){
      e->cls = 1;
      e->s = lua_tolstring(L, -1, &e->len);   /* kept alive by the key table */
    }else if( t==LUA_TBOOLEAN ){
      e->cls = 2;
      e->i = lua_toboolean(L, -1);
    }else e->cls = 3;
    lua_pop(L, 1);
  }
  qsort(v, n, sizeof *v, sortkey_cmp);
  lua_createtable(L, (int)(n < INT_MAX ? n : INT_MAX), 0);   /* 4: the keys, sorted */
  for(k = 0; k < n; k++){
    lua_rawgeti(L, 2, (lua_Integer)v[k].idx + 1);
    lua_rawseti(L, 4, (lua_Integer)k + 1);
    if( (k % 4096)==4095 ) hk_check_deadline(L);
  }
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 4);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, pairs_next, 3);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* math.randomseed(): without arguments, the fixed seed (stock Lua takes the clock) */
static int l_randomseed(lua_State *L){
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  if( n==0 ) lua_pushinteger(L, (lua_Integer)SEED);
  else lua_insert(L, 1);
  lua_call(L, n ? n : 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* ------------------------------------------------------------------ */
/* installing the replacements */

void hk_open_safelib(lua_State *L){
  lua_pushcfunction(L, l_load); lua_setglobal(L, "load");
  lua_pushcfunction(L, l_print); lua_setglobal(L, "print");
  lua_pushcfunction(L, l_setmetatable); lua_setglobal(L, "setmetatable");
  lua_pushcfunction(L, l_xpcall); lua_setglobal(L, "xpcall");
  lua_pushcfunction(L, l_pcall); lua_setglobal(L, "pcall");
  lua_pushcfunction(L, l_pairs); lua_setglobal(L, "pairs");
  /* math.random: a fixed seed, also for math.randomseed() */
  lua_getglobal(L, LUA_MATHLIBNAME);
  lua_getfield(L, -1, "randomseed");
  lua_pushvalue(L, -1);
  lua_pushinteger(L, (lua_Integer)SEED);
  lua_call(L, 1, 0);
  lua_pushcclosure(L, l_randomseed, 1);
  lua_setfield(L, -2, "randomseed");
  lua_pop(L, 1);
  /* string: no dump; interruptible patterns and rep */
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushnil(L); lua_setfield(L, -2, "dump");
  lua_pushcfunction(L, l_find); lua_setfield(L, -2, "find");
  lua_pushcfunction(L, l_match); lua_setfield(L, -2, "match");
  lua_pushcfunction(L, l_gmatch); lua_setfield(L, -2, "gmatch");
  lua_pushcfunction(L, l_gsub); lua_setfield(L, -2, "gsub");
  lua_pushcfunction(L, l_rep); lua_setfield(L, -2, "rep");
  lua_pop(L, 1);
  /* the string metatable is locked: getmetatable("") is false */
  lua_pushliteral(L, "");
  if( lua_getmetatable(L, -1) ){
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_getglobal(L, LUA_TABLIBNAME);
  lua_pushcfunction(L, l_insert); lua_setfield(L, -2, "insert");
  lua_pushcfunction(L, l_remove); lua_setfield(L, -2, "remove");
  lua_pushcfunction(L, l_move); lua_setfield(L, -2, "move");
  lua_pop(L, 1);
}
