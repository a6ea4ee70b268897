/*
** hooks.c: Lua site policies for gr_eval (see hooks.h and doc/lua-api.md).
**
** Every script gets its own Lua 5.4 state built by hand: a capped allocator
** whose user data is the script record (so the count hook and the C
** functions find their context with lua_getallocf), only the base, string,
** table, math and utf8 libraries, minus dofile, loadfile, collectgarbage and
** string.dump, with a text-only `load`, a `print` that logs through the
** caller's function, and a `setmetatable` that refuses __gc (finalizers run
** with hooks disabled, outside any budget) and an xpcall whose handler runs
** after unwinding (Lua runs handlers with hooks disabled when the error came
** from a hook). A count hook every 1000
** instructions spends the instruction budget and checks the wall-clock
** deadline; once a limit trips it re-arms itself to fire on every
** instruction, so neither pcall nor a coroutine can swallow the error.
** Library functions that can spin in C without returning to the VM are
** replaced by versions that check the deadline: the pattern functions
** (string.find, match, gmatch, gsub: a backtracking matcher for Lua patterns
** written here, with a step counter), string.rep (an empty string repeated
** 2^60 times), and table.insert, table.remove and table.move (loops over a
** length that __len can make huge).
**
** Nodes are light userdata (the node index + 1) sharing one locked
** metatable, so handing a node to Lua allocates nothing. The stage
** callbacks run in load order, then registration order.
*/
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "hooks/hooks.h"
#include "report/report.h"

enum { ST_IDLE = 0, ST_LOAD, ST_BEGIN, ST_NODE, ST_END, ST_TILING };
static const char *const stage_names[] = { "idle", "load", "begin", "node", "end", "tiling" };

#define TICK 1000                 /* instructions between two count-hook calls */
#define MIB (1024.0 * 1024.0)

typedef struct script {
  struct gr_hooks *h;
  lua_State *L;
  char *path;                     /* as given */
  char *chunk;                    /* "@path": the chunk name */
  char shown[LUA_IDSIZE + 4];     /* how Lua shows the path in messages */
  size_t mem_used, mem_limit;
  int running;                    /* inside a protected call */
  uint32_t mem_line;              /* script line of the last refused allocation */
} script;

typedef struct callback {
  script *sc;
  int ref;                        /* registry reference of the function */
  int stage;                      /* ST_BEGIN, ST_NODE, ST_END */
  uint32_t line;                  /* where the function is defined */
  char **types; size_t ntypes;    /* node callbacks: op types (none: every type) */
  char *type_pat, *name_pat;      /* Lua patterns, or NULL */
} callback;

typedef struct tiling_fn {
  script *sc;
  int ref;
  char *op_type;
  uint32_t line, reg_line;
} tiling_fn;

struct gr_hooks {
  const gr_ruleset *rs;
  gr_hooks_limits lim;
  script **scripts; size_t nscripts;
  callback *cbs; size_t ncbs;
  tiling_fn *tilings; size_t ntilings;
  gr_eval_hooks vt;
  void (*log)(void *ud, const char *line);
  void *log_ud;
  /* the running evaluation */
  gr_result *r;
  int stage;
  script *loading;
  uint32_t cur_node;
  uint32_t decided;               /* nodes [0, decided) have their decisions */
  size_t *node_cbs; size_t nnode_cbs;
  uint8_t *want; uint32_t want_types;   /* [type * nnode_cbs + k] */
  char pending[512];              /* an error found where it could not be reported */
  /* limits of the current evaluation (or load) */
  uint64_t ticks_left;
  int tripped;
  char trip_msg[160];
  double time_left, t_enter, deadline;
  int depth;
  gr_buf scratch;
};

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

static void reset_limits(gr_hooks *h){
  uint64_t t = h->lim.instructions / TICK;
  h->ticks_left = t ? t : 1;
  h->tripped = 0;
  h->trip_msg[0] = 0;
  h->time_left = h->lim.timeout;
  h->depth = 0;
}

static void run_enter(gr_hooks *h){
  if( h->depth++==0 ){
    h->t_enter = now();
    h->deadline = h->t_enter + h->time_left;
  }
}

static void run_leave(gr_hooks *h){
  if( --h->depth==0 ){
    h->time_left -= now() - h->t_enter;
    if( h->time_left < 0 ) h->time_left = 0;
  }
}

static script *SC(lua_State *L){
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

static int check_time(gr_hooks *h, lua_State *L){
  char m[160];
  if( h->tripped ) return -1;
  if( now() <= h->deadline ) return 0;
  time_msg(h, m, sizeof m);
  trip(h, L, m);
  return -1;
}

/* For C library loops: raises once the deadline has passed. */
static void lua_check_time(lua_State *L){
  gr_hooks *h = SC(L)->h;
  if( h->tripped || check_time(h, L) ) luaL_error(L, "%s", h->trip_msg);
}

static void count_hook(lua_State *L, lua_Debug *ar){
  gr_hooks *h = SC(L)->h;
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
/* Lua patterns, interruptible.
** The semantics are those of the Lua 5.4 manual (section 6.4.1); the
** matcher is a plain backtracking one that counts its steps and checks the
** deadline every 4096 of them. Errors go to luaL_error when a Lua state is
** given, else to a longjmp (node-name filters are matched from C). */

#define PAT_MAXCAP 32
#define PAT_MAXDEPTH 200
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define PAT_SPECIALS "^$*+?.([%-"

typedef struct pmatch {
  const char *src_init, *src_end, *p_end;
  lua_State *L;
  gr_hooks *h;
  jmp_buf *jb;
  char err[160];
  int depth;
  unsigned steps;
  int level;
  struct { const char *init; ptrdiff_t len; } cap[PAT_MAXCAP];
} pmatch;

static void pm_error(pmatch *m, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void pm_error(pmatch *m, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err, sizeof m->err, fmt, ap);
  va_end(ap);
  if( m->L ) luaL_error(m->L, "%s", m->err);
  longjmp(*m->jb, 1);
}

static void pm_step(pmatch *m){
  if( (++m->steps & 0xfff)!=0 ) return;
  if( m->h && (m->h->tripped || check_time(m->h, m->L)) ) pm_error(m, "%s", m->h->trip_msg);
}

static int class_match(int c, int cl){
  int res;
  switch( tolower(cl) ){
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    case 'z': res = c==0; break;          /* deprecated, still accepted by Lua 5.4 */
    default: return cl==c;
  }
  return isupper(cl) ? !res : (res!=0);
}

/* p at '[', close at the matching ']' */
static int set_match(int c, const char *p, const char *close){
  int neg = 0;
  p++;
  if( *p=='^' ){ neg = 1; p++; }
  while( p < close ){
    if( *p=='%' && p + 1 < close ){
      if( class_match(c, (unsigned char)p[1]) ) return !neg;
      p += 2;
    }else if( p + 2 < close && p[1]=='-' ){
      if( (unsigned char)p[0] <= c && c <= (unsigned char)p[2] ) return !neg;
      p += 3;
    }else{
      if( (unsigned char)*p==c ) return !neg;
      p++;
    }
  }
  return neg;
}

/* The end of the single-character class starting at p. */
static const char *class_end(pmatch *m, const char *p){
  char c = *p++;
  if( c=='%' ){
    if( p >= m->p_end ) pm_error(m, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if( c=='[' ){
    if( p < m->p_end && *p=='^' ) p++;
    /* the first character is always part of the set (so "[]]" works) */
    do{
      if( p >= m->p_end ) pm_error(m, "malformed pattern (missing ']')");
      c = *p++;
      if( c=='%' && p < m->p_end ) p++;
    }while( p >= m->p_end || *p!=']' );
    return p + 1;
  }
  return p;
}

static int single_match(pmatch *m, const char *s, const char *p, const char *ep){
  int c;
  if( s >= m->src_end ) return 0;
  c = (unsigned char)*s;
  switch( *p ){
    case '.': return 1;
    case '%': return class_match(c, (unsigned char)p[1]);
    case '[': return set_match(c, p, ep - 1);
    default: return (unsigned char)*p==c;
  }
}

static const char *do_match(pmatch *m, const char *s, const char *p);

static const char *max_expand(pmatch *m, const char *s, const char *p, const char *ep){
  ptrdiff_t i = 0;
  while( single_match(m, s + i, p, ep) ){ i++; pm_step(m); }
  for(; i >= 0; i--){
    const char *r = do_match(m, s + i, ep + 1);
    if( r ) return r;
  }
  return NULL;
}

static const char *min_expand(pmatch *m, const char *s, const char *p, const char *ep){
  for(;;){
    const char *r = do_match(m, s, ep + 1);
    if( r ) return r;
    if( !single_match(m, s, p, ep) ) return NULL;
    s++;
  }
}

static const char *start_capture(pmatch *m, const char *s, const char *p, ptrdiff_t what){
  const char *r;
  if( m->level >= PAT_MAXCAP ) pm_error(m, "too many captures");
  m->cap[m->level].init = s;
  m->cap[m->level].len = what;
  m->level++;
  r = do_match(m, s, p);
  if( r==NULL ) m->level--;
  return r;
}

static const char *end_capture(pmatch *m, const char *s, const char *p){
  int l;
  const char *r;
  for(l = m->level - 1; l >= 0; l--) if( m->cap[l].len==CAP_UNFINISHED ) break;
  if( l < 0 ) pm_error(m, "invalid pattern capture");
  m->cap[l].len = s - m->cap[l].init;
  r = do_match(m, s, p);
  if( r==NULL ) m->cap[l].len = CAP_UNFINISHED;
  return r;
}

static const char *match_balance(pmatch *m, const char *s, const char *p){
  int depth = 1;
  char open, close;
  if( p + 1 >= m->p_end ) pm_error(m, "malformed pattern (missing arguments to '%%b')");
  open = p[0]; close = p[1];
  if( s >= m->src_end || *s!=open ) return NULL;
  for(s++; s < m->src_end; s++){
    pm_step(m);
    if( *s==close ){ if( --depth==0 ) return s + 1; }
    else if( *s==open ) depth++;
  }
  return NULL;
}

static const char *match_backref(pmatch *m, const char *s, int digit){
  int i = digit - '1';
  ptrdiff_t len;
  if( i < 0 || i >= m->level || m->cap[i].len==CAP_UNFINISHED ) pm_error(m, "invalid capture index %%%d", i + 1);
  len = m->cap[i].len;
  if( len < 0 ) return NULL;
  if( m->src_end - s >= len && memcmp(m->cap[i].init, s, (size_t)len)==0 ) return s + len;
  return NULL;
}

static const char *do_match(pmatch *m, const char *s, const char *p){
  if( m->depth-- <= 0 ) pm_error(m, "pattern too complex");
  for(;;){
    pm_step(m);
    if( p==m->p_end ) break;
    if( *p=='(' ){
      s = p + 1 < m->p_end && p[1]==')' ? start_capture(m, s, p + 2, CAP_POSITION)
                                         : start_capture(m, s, p + 1, CAP_UNFINISHED);
      break;
    }
    if( *p==')' ){ s = end_capture(m, s, p + 1); break; }
    if( *p=='$' && p + 1==m->p_end ){ if( s!=m->src_end ) s = NULL; break; }
    if( *p=='%' && p + 1 < m->p_end ){
      if( p[1]=='b' ){
        s = match_balance(m, s, p + 2);
        if( s==NULL ) break;
        p += 4;
        continue;
      }
      if( p[1]=='f' ){
        const char *ep;
        int prev, cur;
        p += 2;
        if( p >= m->p_end || *p!='[' ) pm_error(m, "missing '[' after '%%f' in pattern");
        ep = class_end(m, p);
        prev = s==m->src_init ? 0 : (unsigned char)s[-1];
        cur = s < m->src_end ? (unsigned char)*s : 0;
        if( !set_match(prev, p, ep - 1) && set_match(cur, p, ep - 1) ){ p = ep; continue; }
        s = NULL;
        break;
      }
      if( isdigit((unsigned char)p[1]) ){
        s = match_backref(m, s, (unsigned char)p[1]);
        if( s==NULL ) break;
        p += 2;
        continue;
      }
    }
    {
      const char *ep = class_end(m, p);
      int ok = single_match(m, s, p, ep);
      char q = ep < m->p_end ? *ep : 0;
      if( q=='?' ){
        if( ok ){
          const char *r = do_match(m, s + 1, ep + 1);
          if( r ){ s = r; break; }
        }
        p = ep + 1;
        continue;
      }
      if( q=='+' ){ s = ok ? max_expand(m, s + 1, p, ep) : NULL; break; }
      if( q=='*' ){ s = max_expand(m, s, p, ep); break; }
      if( q=='-' ){ s = min_expand(m, s, p, ep); break; }
      if( !ok ){ s = NULL; break; }
      s++;
      p = ep;
    }
  }
  m->depth++;
  return s;
}

static void pm_init(pmatch *m, lua_State *L, gr_hooks *h, const char *s, size_t ls, const char *p, size_t lp){
  m->src_init = s; m->src_end = s + ls; m->p_end = p + lp;
  m->L = L; m->h = h; m->jb = NULL;
  m->err[0] = 0;
  m->steps = 0;
  m->depth = PAT_MAXDEPTH;
  m->level = 0;
}

static void pm_reset(pmatch *m){ m->level = 0; m->depth = PAT_MAXDEPTH; }

static void push_capture(pmatch *m, int i, const char *s, const char *e){
  if( i >= m->level ){
    if( i!=0 ) pm_error(m, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  if( m->cap[i].len==CAP_UNFINISHED ) pm_error(m, "unfinished capture");
  if( m->cap[i].len==CAP_POSITION ) lua_pushinteger(m->L, (lua_Integer)(m->cap[i].init - m->src_init) + 1);
  else lua_pushlstring(m->L, m->cap[i].init, (size_t)m->cap[i].len);
}

/* Pushes the captures (the whole match when there is none and s is given). */
static int push_captures(pmatch *m, const char *s, const char *e){
  int i, n = (m->level==0 && s) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for(i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

static size_t pos_start(lua_Integer pos, size_t len){
  if( pos > 0 ) return (size_t)pos;
  if( pos==0 ) return 1;
  if( pos < -(lua_Integer)len ) return 1;
  return len + (size_t)pos + 1;
}

static int has_specials(const char *p, size_t lp){
  size_t i;
  for(i = 0; i < lp; i++) if( strchr(PAT_SPECIALS, p[i]) && p[i] ) return 1;
  return 0;
}

static int find_aux(lua_State *L, int find){
  size_t ls, lp, init;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  init = pos_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if( init > ls ){ luaL_pushfail(L); return 1; }
  if( find && (lua_toboolean(L, 4) || !has_specials(p, lp)) ){
    const char *f = lp==0 ? s + init : memmem(s + init, ls - init, p, lp);
    if( f ){
      lua_pushinteger(L, (lua_Integer)(f - s) + 1);
      lua_pushinteger(L, (lua_Integer)(f - s + (ptrdiff_t)lp));
      return 2;
    }
  }else{
    pmatch m;
    const char *s1 = s + init;
    int anchor = lp > 0 && *p=='^';
    if( anchor ){ p++; lp--; }
    pm_init(&m, L, SC(L)->h, s, ls, p, lp);
    do{
      const char *e;
      pm_reset(&m);
      if( (e = do_match(&m, s1, p))!=NULL ){
        if( find ){
          lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
          lua_pushinteger(L, (lua_Integer)(e - s));
          return push_captures(&m, NULL, NULL) + 2;
        }
        return push_captures(&m, s1, e);
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
  pmatch m;
  pm_init(&m, L, SC(L)->h, s, ls, p, lp);
  for(src = s + pos; src <= m.src_end; src++){
    const char *e;
    pm_reset(&m);
    if( (e = do_match(&m, src, p))!=NULL && (last < 0 || e!=s + last) ){
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(3));
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(4));
      return push_captures(&m, src, e);
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

static void add_repl_string(pmatch *m, luaL_Buffer *b, const char *s, const char *e){
  lua_State *L = m->L;
  size_t l, i;
  const char *r = lua_tolstring(L, 3, &l);
  for(i = 0; i < l; i++){
    if( r[i]!='%' ){ luaL_addchar(b, r[i]); continue; }
    i++;
    if( i < l && r[i]=='%' ) luaL_addchar(b, '%');
    else if( i < l && isdigit((unsigned char)r[i]) ){
      if( r[i]=='0' ) luaL_addlstring(b, s, (size_t)(e - s));
      else{
        push_capture(m, r[i] - '1', s, e);
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
static int add_value(pmatch *m, luaL_Buffer *b, const char *s, const char *e, int tr){
  lua_State *L = m->L;
  if( tr==LUA_TNUMBER || tr==LUA_TSTRING ){ add_repl_string(m, b, s, e); return 1; }
  if( tr==LUA_TFUNCTION ){
    int n;
    lua_pushvalue(L, 3);
    n = push_captures(m, s, e);
    lua_call(L, n, 1);
  }else{
    push_capture(m, 0, s, e);
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
  pmatch m;
  luaL_Buffer b;
  luaL_argexpected(L, tr==LUA_TNUMBER || tr==LUA_TSTRING || tr==LUA_TFUNCTION || tr==LUA_TTABLE, 3,
                   "string/function/table");
  luaL_buffinit(L, &b);
  if( anchor ){ p++; lp--; }
  pm_init(&m, L, SC(L)->h, s, ls, p, lp);
  while( n < max_n ){
    const char *e;
    pm_reset(&m);
    if( (e = do_match(&m, src, p))!=NULL && e!=last ){
      n++;
      changed |= add_value(&m, &b, src, e, tr);
      src = last = e;
    }else if( src < m.src_end ){
      luaL_addchar(&b, *src++);
      pm_step(&m);
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

/* Checks a pattern completely (filters are matched from C, where an error
** could not be raised); returns NULL or the problem. */
static const char *pattern_problem(const char *p, size_t lp){
  const char *e = p + lp;
  int open[PAT_MAXCAP], nopen = 0, ncap = 0, closed[PAT_MAXCAP];
  if( lp && *p=='^' ) p++;
  while( p < e ){
    switch( *p ){
      case '(':
        if( ncap >= PAT_MAXCAP ) return "too many captures";
        if( p + 1 < e && p[1]==')' ){ closed[ncap++] = 1; p += 2; continue; }
        closed[ncap] = 0;
        open[nopen++] = ncap++;
        p++;
        continue;
      case ')':
        if( nopen==0 ) return "invalid pattern capture";
        closed[open[--nopen]] = 1;
        p++;
        continue;
      case '%':
        if( p + 1 >= e ) return "malformed pattern (ends with '%')";
        if( p[1]=='b' ){
          if( p + 3 >= e ) return "malformed pattern (missing arguments to '%b')";
          p += 4;
          continue;
        }
        if( p[1]=='f' ){
          p += 2;
          if( p >= e || *p!='[' ) return "missing '[' after '%f' in pattern";
          break;      /* the set, below */
        }
        if( isdigit((unsigned char)p[1]) ){
          int i = p[1] - '1';
          if( i < 0 || i >= ncap || !closed[i] ) return "invalid capture index in pattern";
          p += 2;
          continue;
        }
        break;
      default:
        break;
    }
    /* a single-character class and an optional quantifier */
    if( *p=='%' ) p += 2;
    else if( *p=='[' ){
      p++;
      if( p < e && *p=='^' ) p++;
      do{
        if( p >= e ) return "malformed pattern (missing ']')";
        if( *p++=='%' && p < e ) p++;
      }while( p >= e || *p!=']' );
      p++;
    }else p++;
    if( p < e && (*p=='?' || *p=='*' || *p=='+' || *p=='-') ) p++;
  }
  if( nopen ) return "unfinished capture";
  return NULL;
}

/* Matches a checked pattern from C (no Lua state): 1 match, 0 no match,
** -1 error (the time limit) with the message in err. */
static int c_match_run(pmatch *m, const char *s, const char *p, size_t lp){
  const char *s1 = s;
  int anchor = lp > 0 && *p=='^';
  if( anchor ){ p++; lp--; m->p_end = p + lp; }
  do{
    pm_reset(m);
    if( do_match(m, s1, p) ) return 1;
  }while( s1++ < m->src_end && !anchor );
  return 0;
}

static int c_match(gr_hooks *h, const char *s, const char *p, char *err, size_t nerr){
  pmatch m;
  jmp_buf jb;
  size_t lp = strlen(p);
  pm_init(&m, NULL, h, s, strlen(s), p, lp);
  m.jb = &jb;
  if( setjmp(jb) ){
    snprintf(err, nerr, "%s", m.err);
    return -1;
  }
  return c_match_run(&m, s, p, lp);
}

/* ------------------------------------------------------------------ */
/* other library replacements */

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
    if( (i & 0xfffff)==0xfffff ) lua_check_time(L);
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
        if( (i & 0xfff)==0 ) lua_check_time(L);
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
    if( (pos & 0xfff)==0 ) lua_check_time(L);
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
        if( (i & 0xfff)==0xfff ) lua_check_time(L);
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
      }
    }else{
      for(i = n - 1; i >= 0; i--){
        if( (i & 0xfff)==0xfff ) lua_check_time(L);
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
  lua_pushvalue(L, 2);                /* the handler */
  lua_insert(L, -2);
  status = lua_pcall(L, 1, 1, 0);
  (void)status;                       /* a failing handler: its error is the result */
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
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
  status = luaL_loadbufferx(L, s, l, name, "t");
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

static uint32_t script_line(lua_State *L, const script *sc);

static int l_print(lua_State *L){
  script *sc = SC(L);
  int i, n = lua_gettop(L);
  luaL_Buffer b;
  uint32_t line = script_line(L, sc);
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
  if( sc->h->log ){
    size_t len, k;
    char *line = (char *)lua_tolstring(L, -1, &len);
    /* a log line is C text: show zero bytes as \0 */
    if( memchr(line, 0, len) ){
      luaL_Buffer e;
      luaL_buffinit(L, &e);
      for(k = 0; k < len; k++){
        if( line[k] ) luaL_addchar(&e, line[k]);
        else luaL_addstring(&e, "\\0");
      }
      luaL_pushresult(&e);
    }
    sc->h->log(sc->h->log_ud, lua_tostring(L, -1));
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* helpers for the gr API */

#define NODE_MT "gerules.node"

static gr_hooks *H(lua_State *L){ return SC(L)->h; }

static const gr_ruleset *RS(lua_State *L){
  const gr_ruleset *rs = SC(L)->h->rs;
  if( rs==NULL ) luaL_error(L, "no rule set is loaded");
  return rs;
}

static uint32_t script_line(lua_State *L, const script *sc){
  lua_Debug ar;
  int lv;
  for(lv = 1; lv < 100 && lua_getstack(L, lv, &ar); lv++){
    if( !lua_getinfo(L, "Sl", &ar) ) break;
    if( ar.currentline > 0 && strcmp(ar.source, sc->chunk)==0 ) return (uint32_t)ar.currentline;
  }
  return 0;
}

static gr_result *need_result(lua_State *L, const char *what){
  gr_hooks *h = H(L);
  if( h->r==NULL || h->stage==ST_LOAD )
    luaL_error(L, "%s is available only in callbacks (no evaluation is running while the script loads)", what);
  return h->r;
}

static void need_stage(lua_State *L, const char *what, int ok_begin, int ok_node, int ok_end, int ok_tiling){
  gr_hooks *h = H(L);
  int st = h->stage, ok = (st==ST_BEGIN && ok_begin) || (st==ST_NODE && ok_node) || (st==ST_END && ok_end)
                          || ((st==ST_TILING || st==ST_IDLE) && ok_tiling && h->r);
  need_result(L, what);
  if( !ok ) luaL_error(L, "%s is not available in the %s stage", what, stage_names[st]);
}

static void push_node(lua_State *L, uint32_t n){
  lua_pushlightuserdata(L, (void *)((uintptr_t)n + 1));
}

static uint32_t check_node(lua_State *L, int i){
  gr_hooks *h = H(L);
  uintptr_t v;
  if( lua_type(L, i)!=LUA_TLIGHTUSERDATA ) luaL_typeerror(L, i, "node");
  v = (uintptr_t)lua_touserdata(L, i);
  if( h->r==NULL || h->r->g==NULL || v==0 || v - 1 >= gr_graph_nnodes(h->r->g) )
    luaL_argerror(L, i, "a node of an earlier evaluation");
  return (uint32_t)(v - 1);
}

static const gr_node *NODE(gr_hooks *h, uint32_t n){ return &gr_graph_nodes(h->r->g)[n]; }

static int check_slot(lua_State *L, int i){
  gr_hooks *h = H(L);
  const char *name = luaL_checkstring(L, i);
  int s = gr_ruleset_find(&RS(L)->slot_map, name);
  if( s < 0 ){
    const char **names = lua_newuserdatauv(L, (h->rs->nslots + 1) * sizeof *names, 0);
    const char *sug;
    size_t k;
    for(k = 0; k < h->rs->nslots; k++) names[k] = h->rs->slots[k].name;
    sug = gr_suggest(name, names, h->rs->nslots);
    if( sug ) return luaL_error(L, "no slot named '%s' in the rule set; did you mean '%s'?", name, sug);
    return luaL_error(L, "no slot named '%s' in the rule set", name);
  }
  return s;
}

static int check_option(lua_State *L, int i){
  const char *name = luaL_checkstring(L, i);
  const gr_option *o = gr_ruleset_option_by_spelling(RS(L), name);
  if( o==NULL ) return luaL_error(L, "no option named '%s' in the rule set", name);
  return o->index;
}

static void check_decided(lua_State *L, uint32_t n){
  gr_hooks *h = H(L);
  if( h->r->dec==NULL || n >= h->decided ){
    if( h->stage==ST_BEGIN ) luaL_error(L, "no node is decided yet in the begin stage");
    luaL_error(L, "node '%s' is not decided yet (nodes are decided in file order; read later nodes in gr.on_end)",
               gr_graph_str(h->r->g, NODE(h, n)->name));
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

static void push_shape(lua_State *L, gr_hooks *h, uint32_t shape){
  uint32_t nd, k;
  const int64_t *dims = gr_graph_shape(h->r->g, shape, &nd);
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
  const gr_node *nd = NODE(h, n);
  const gr_tensor *t = gr_graph_tensors(h->r->g, nd);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  if( i < 0 || (i >= nd->n_data && i >= nd->n_in_desc) ){ lua_pushnil(L); return 1; }
  lua_createtable(L, 0, 7);
  push_tensor(L, h, i < nd->n_in_desc ? &t[i] : NULL, (int)i);
  if( i < nd->n_data && e[i].src!=GR_NONE ){
    set_bool(L, "connected", 1);
    push_node(L, e[i].src);
    lua_setfield(L, -2, "producer");
    set_int(L, "producer_output", e[i].index);
  }else set_bool(L, "connected", 0);
  return 1;
}

static int push_output(lua_State *L, gr_hooks *h, uint32_t n, lua_Integer i){
  const gr_node *nd = NODE(h, n);
  const gr_tensor *t = gr_graph_tensors(h->r->g, nd);
  if( i < 0 || i >= nd->n_out_desc ){ lua_pushnil(L); return 1; }
  lua_createtable(L, 0, 4);
  push_tensor(L, h, &t[nd->n_in_desc + i], (int)i);
  return 1;
}

static int nm_input(lua_State *L){
  uint32_t n = check_node(L, 1);
  return push_input(L, H(L), n, luaL_checkinteger(L, 2));
}

static int nm_output(lua_State *L){
  uint32_t n = check_node(L, 1);
  return push_output(L, H(L), n, luaL_checkinteger(L, 2));
}

static int nm_inputs(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = NODE(h, n);
  int k, cnt = nd->n_data > nd->n_in_desc ? nd->n_data : nd->n_in_desc;
  lua_createtable(L, cnt, 0);
  for(k = 0; k < cnt; k++){
    push_input(L, h, n, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static int nm_outputs(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = NODE(h, n);
  int k;
  lua_createtable(L, nd->n_out_desc, 0);
  for(k = 0; k < nd->n_out_desc; k++){
    push_output(L, h, n, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static int nm_producer(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2);
  const gr_node *nd = NODE(h, n);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  if( i < 0 || i >= nd->n_data || e[i].src==GR_NONE ){ lua_pushnil(L); return 1; }
  push_node(L, e[i].src);
  lua_pushinteger(L, e[i].index);
  return 2;
}

static int nm_controls(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = NODE(h, n);
  const gr_edge *e = gr_graph_edges(h->r->g, nd);
  int k, j = 0;
  lua_createtable(L, nd->n_ctrl, 0);
  for(k = 0; k < nd->n_ctrl; k++){
    if( e[nd->n_data + k].src==GR_NONE ) continue;
    push_node(L, e[nd->n_data + k].src);
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
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const char *key = luaL_checkstring(L, 2);
  const gr_attr *a = gr_graph_attr(h->r->g, NODE(h, n), key);
  if( a==NULL ) lua_pushnil(L);
  else push_attr(L, h, a);
  return 1;
}

static int nm_attrs(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = NODE(h, n);
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
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  int s = check_slot(L, 2);
  const gr_decision *d;
  need_result(L, "node:decision");
  check_decided(L, n);
  d = &h->r->dec[(size_t)n * h->rs->nslots + (size_t)s];
  if( d->value ) lua_pushstring(L, d->value); else lua_pushnil(L);
  if( source_name(h, d->source) ) lua_pushstring(L, source_name(h, d->source)); else lua_pushnil(L);
  return 2;
}

static int nm_decisions(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  size_t s;
  need_result(L, "node:decisions");
  check_decided(L, n);
  lua_createtable(L, 0, (int)h->rs->nslots);
  for(s = 0; s < h->rs->nslots; s++){
    const gr_decision *d = &h->r->dec[(size_t)n * h->rs->nslots + s];
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
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  int s = check_slot(L, 2), k = 0;
  const gr_result *r = need_result(L, "node:provenance");
  const gr_decision *d;
  check_decided(L, n);
  d = &r->dec[(size_t)n * h->rs->nslots + (size_t)s];
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
  gr_hooks *h = H(L);
  script *sc = SC(L);
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
                      gr_graph_str(h->r->g, NODE(h, h->cur_node)->name));
  og.file = sc->path; og.line = script_line(L, sc); og.col = 0;
  memset(&err, 0, sizeof err);
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
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  lua_pushfstring(L, "node '%s' (%s)", gr_graph_str(h->r->g, NODE(h, n)->name),
                  gr_graph_type_name(h->r->g, NODE(h, n)->type));
  return 1;
}

static int node_newindex(lua_State *L){
  return luaL_error(L, "node objects are read-only (use node:override to change a decision)");
}

static int node_index(lua_State *L){
  gr_hooks *h = H(L);
  uint32_t n = check_node(L, 1);
  const gr_node *nd = NODE(h, n);
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

static void push_chip(lua_State *L, gr_hooks *h){
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
  push_chip(L, H(L));
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
  gr_hooks *h = H(L);
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
  gr_hooks *h = H(L);
  int oi = check_option(L, 1);
  need_result(L, "gr.option_info");
  push_option_info(L, h, oi);
  return 1;
}

static int l_options(lua_State *L){
  gr_hooks *h = H(L);
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
  gr_hooks *h = H(L);
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
  gr_hooks *h = H(L);
  const char *name = luaL_checkstring(L, 1);
  int ti = gr_ruleset_find(&RS(L)->table_map, name);
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
  gr_hooks *h = H(L);
  size_t k;
  RS(L);
  lua_createtable(L, (int)h->rs->nslots, 0);
  for(k = 0; k < h->rs->nslots; k++){ lua_pushstring(L, h->rs->slots[k].name); lua_rawseti(L, -2, (lua_Integer)k + 1); }
  return 1;
}

static int l_node(lua_State *L){
  gr_hooks *h = H(L);
  const char *name = luaL_checkstring(L, 1);
  uint32_t n;
  need_result(L, "gr.node");
  if( h->r->g==NULL || !gr_graph_find_node(h->r->g, name, &n) ){ lua_pushnil(L); return 1; }
  push_node(L, n);
  return 1;
}

static int l_nodes(lua_State *L){
  gr_hooks *h = H(L);
  const char *type = luaL_optstring(L, 1, NULL);
  uint32_t n, nn, t = 0;
  int k = 0;
  need_result(L, "gr.nodes");
  lua_newtable(L);
  if( h->r->g==NULL ) return 1;
  if( type && !gr_graph_find_type(h->r->g, type, &t) ) return 1;
  nn = gr_graph_nnodes(h->r->g);
  for(n = 0; n < nn; n++){
    if( type && NODE(h, n)->type!=t ) continue;
    if( (n & 0xffff)==0xffff ) lua_check_time(L);
    push_node(L, n);
    lua_rawseti(L, -2, ++k);
  }
  return 1;
}

static int l_graph(lua_State *L){
  gr_hooks *h = H(L);
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
  lua_pushstring(L, stage_names[H(L)->stage]);
  return 1;
}

/* ------------------------------------------------------------------ */
/* gr.*: diagnostics */

/* code at code_i, message at code_i+1; about: a node, or (about_i) a node or {node=, option=} */
static int diag_common(lua_State *L, gr_severity sev, int code_i, uint32_t about_node, int about_i){
  gr_hooks *h = H(L);
  script *sc = SC(L);
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
  line = script_line(L, sc);
  d = gr_diags_add(&h->r->diags, sev, sc->path, line, 0, "%s", msg);
  gr_diag_set(&d->code, code);
  if( about_node!=GR_NONE ) gr_diag_set(&d->node, gr_graph_str(h->r->g, NODE(h, about_node)->name));
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
  gr_hooks *h = H(L);
  const gr_result *r = need_result(L, "gr.diagnostics");
  size_t i;
  lua_createtable(L, (int)r->diags.n, 0);
  for(i = 0; i < r->diags.n; i++){
    const gr_diag *d = &r->diags.v[i];
    if( (i & 0xfff)==0xfff ) lua_check_time(L);
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
  gr_hooks *h = H(L);
  script *sc = SC(L);
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
  og.file = sc->path; og.line = script_line(L, sc); og.col = 0;
  memset(&err, 0, sizeof err);
  if( gr_result_set_severity(h->r, (size_t)(i - 1), (gr_severity)sev, &og, reason, &err)!=0 )
    return luaL_error(L, "gr.set_severity: %s", err.msg);
  return 0;
}

/* ------------------------------------------------------------------ */
/* gr.*: registration */

static script *need_loading(lua_State *L, const char *what){
  gr_hooks *h = H(L);
  script *sc = SC(L);
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
  gr_hooks *h = H(L);
  callback *cb;
  h->cbs = gr_xrealloc(h->cbs, (h->ncbs + 1) * sizeof *h->cbs);
  cb = &h->cbs[h->ncbs];
  memset(cb, 0, sizeof *cb);
  cb->sc = SC(L);
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

static char *check_pattern(lua_State *L, int i, const char *what){
  size_t l;
  const char *p = luaL_checklstring(L, i, &l), *why;
  if( memchr(p, 0, l) ) luaL_error(L, "%s: the pattern contains a zero byte", what);
  if( l > 200 ) luaL_error(L, "%s: the pattern is longer than 200 bytes", what);
  if( (why = pattern_problem(p, l))!=NULL ) luaL_error(L, "%s: bad pattern '%s': %s", what, p, why);
  return gr_xstrdup(p);
}

static void add_type(callback *cb, const char *t){
  cb->types = gr_xrealloc(cb->types, (cb->ntypes + 1) * sizeof *cb->types);
  cb->types[cb->ntypes++] = gr_xstrdup(t);
}

/* gr.on_node([filter,] fn): the filter is checked completely (raw reads,
** no metamethods) before anything is registered. */
static int l_on_node(lua_State *L){
  int fi = lua_gettop(L), nargs = fi;
  callback tmp, *cb;
  size_t k;
  need_loading(L, "gr.on_node");
  if( nargs < 1 || nargs > 2 ) return luaL_error(L, "gr.on_node([filter,] function) takes one or two arguments");
  luaL_checktype(L, fi, LUA_TFUNCTION);
  memset(&tmp, 0, sizeof tmp);
  /* validate first (errors must not leak C memory) */
  if( nargs==2 ){
    int t = lua_type(L, 1);
    if( t==LUA_TSTRING ){ /* one op type */ }
    else if( t==LUA_TTABLE ){
      lua_pushnil(L);
      while( lua_next(L, 1) ){
        if( lua_type(L, -2)==LUA_TNUMBER ){
          if( lua_type(L, -1)!=LUA_TSTRING ) return luaL_error(L, "gr.on_node: op types in a filter list must be strings");
        }else if( lua_type(L, -2)==LUA_TSTRING ){
          const char *key = lua_tostring(L, -2);
          if( strcmp(key, "type")==0 ){
            if( lua_type(L, -1)==LUA_TTABLE ){
              lua_Integer j, n = (lua_Integer)lua_rawlen(L, -1);
              for(j = 1; j <= n; j++){
                if( lua_rawgeti(L, -1, j)!=LUA_TSTRING ) return luaL_error(L, "gr.on_node: filter.type must list strings");
                lua_pop(L, 1);
              }
            }else if( lua_type(L, -1)!=LUA_TSTRING ) return luaL_error(L, "gr.on_node: filter.type must be a string or a list of strings");
          }else if( strcmp(key, "type_pattern")==0 || strcmp(key, "name")==0 ){
            char *p = check_pattern(L, lua_gettop(L), key[0]=='n' ? "gr.on_node filter.name" : "gr.on_node filter.type_pattern");
            free(p);
          }else return luaL_error(L, "gr.on_node: unknown filter field '%s' (type, type_pattern, name)", key);
        }else return luaL_error(L, "gr.on_node: bad filter key (a %s)", luaL_typename(L, -2));
        lua_pop(L, 1);
      }
    }else return luaL_typeerror(L, 1, "op type, list of op types or filter table");
  }
  cb = new_cb(L, ST_NODE, fi);
  if( nargs==2 ){
    if( lua_type(L, 1)==LUA_TSTRING ) add_type(cb, lua_tostring(L, 1));
    else{
      lua_Integer j, n = (lua_Integer)lua_rawlen(L, 1);
      for(j = 1; j <= n; j++){ lua_rawgeti(L, 1, j); add_type(cb, lua_tostring(L, -1)); lua_pop(L, 1); }
      lua_pushliteral(L, "type");
      if( lua_rawget(L, 1)==LUA_TSTRING ) add_type(cb, lua_tostring(L, -1));
      else if( lua_type(L, -1)==LUA_TTABLE ){
        n = (lua_Integer)lua_rawlen(L, -1);
        for(j = 1; j <= n; j++){ lua_rawgeti(L, -1, j); add_type(cb, lua_tostring(L, -1)); lua_pop(L, 1); }
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
  gr_hooks *h = H(L);
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
  t->op_type = gr_xstrdup(op);
  t->line = func_line(L, 2);
  t->reg_line = script_line(L, sc);
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

/* ------------------------------------------------------------------ */
/* building a sandbox */

static int open_sandbox(lua_State *L){
  static const char *const drop[] = { "dofile", "loadfile", "collectgarbage", NULL };
  script *sc = SC(L);
  int i;
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1); lua_pop(L, 1);
  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1); lua_pop(L, 1);
  if( sc->h->lim.test_coroutines ){ luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1); lua_pop(L, 1); }
  for(i = 0; drop[i]; i++){ lua_pushnil(L); lua_setglobal(L, drop[i]); }
  lua_pushcfunction(L, l_load); lua_setglobal(L, "load");
  lua_pushcfunction(L, l_print); lua_setglobal(L, "print");
  lua_pushcfunction(L, l_setmetatable); lua_setglobal(L, "setmetatable");
  lua_pushcfunction(L, l_xpcall); lua_setglobal(L, "xpcall");
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
  return 0;
}

static int msgh(lua_State *L){
  const char *msg = lua_tostring(L, 1);
  if( msg==NULL ) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  luaL_traceback(L, L, msg, 1);
  return 1;
}

static void script_free(script *sc){
  if( sc==NULL ) return;
  if( sc->L ) lua_close(sc->L);
  free(sc->path);
  free(sc->chunk);
  free(sc);
}

static script *script_new(gr_hooks *h, const char *path, gr_error *err){
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
    script_free(sc);
    return NULL;
  }
  lua_atpanic(sc->L, on_panic);
  lua_pushcfunction(sc->L, open_sandbox);
  rc = lua_pcall(sc->L, 0, 0, 0);
  if( rc!=LUA_OK ){
    gr_error_set(err, 0, 0, "cannot set up the Lua sandbox: %s", lua_tostring(sc->L, -1) ? lua_tostring(sc->L, -1) : "error");
    script_free(sc);
    return NULL;
  }
  return sc;
}

/* ------------------------------------------------------------------ */
/* errors */

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
static void error_text(script *sc, int rc, gr_buf *b, uint32_t *line){
  const char *msg = lua_tostring(sc->L, -1), *text;
  b->n = 0;
  *line = 0;
  if( rc==LUA_ERRMEM ){
    *line = sc->mem_line;
    gr_buf_printf(b, "memory limit exceeded: a hook may use %g MiB (--hook-memory)", (double)sc->mem_limit / MIB);
    return;
  }
  if( msg==NULL ) msg = "(error object is not a string)";
  *line = locate(sc, msg, &text);
  gr_buf_adds(b, text);
  if( rc==LUA_ERRERR ) gr_buf_adds(b, " (error while handling an error)");
}

/* A failed stage callback: an error diagnostic located in the script. */
static int fail_stage(gr_hooks *h, script *sc, int rc, uint32_t node){
  uint32_t line;
  gr_diag *d;
  error_text(sc, rc, &h->scratch, &line);
  d = gr_diags_add(&h->r->diags, GR_SEV_ERROR, sc->path, line, 0, "%s", gr_buf_cstr(&h->scratch));
  if( node!=GR_NONE && h->r->g ) gr_diag_set(&d->node, gr_graph_str(h->r->g, NODE(h, node)->name));
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
  lua_pushcfunction(L, msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, cb->ref);
  if( n!=GR_NONE ) push_node(L, n);
  sc->running = 1;
  run_enter(h);
  rc = lua_pcall(L, n!=GR_NONE, 1, base + 1);
  run_leave(h);
  sc->running = 0;
  if( rc!=LUA_OK ){
    fail_stage(h, sc, rc, n);
    lua_settop(L, base);
    return -1;
  }
  if( !lua_isnil(L, -1) ){
    char m[200];
    snprintf(m, sizeof m, "the %s callback defined here returned a %s; callbacks return nothing",
             stage_names[cb->stage], luaL_typename(L, -1));
    lua_settop(L, base);
    return fail_msg(h, sc, cb->line, m);
  }
  lua_settop(L, base);
  return 0;
}

/* ------------------------------------------------------------------ */
/* the gr_eval_hooks vtable */

static void start_run(gr_hooks *h, gr_result *r){
  size_t k;
  h->r = r;
  reset_limits(h);
  h->pending[0] = 0;
  for(k = 0; k < h->nscripts; k++){
    lua_sethook(h->scripts[k]->L, count_hook, LUA_MASKCOUNT, TICK);
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
  start_run(h, r);
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
  run_enter(h);
  for(k = 0; k < K; k++){
    const callback *cb = &h->cbs[h->node_cbs[k]];
    int w = cb->ntypes==0;
    size_t j;
    for(j = 0; j < cb->ntypes && !w; j++) if( strcmp(cb->types[j], name)==0 ) w = 1;
    if( w && cb->type_pat ){
      char err[160];
      int m = c_match(h, name, cb->type_pat, err, sizeof err);
      if( m < 0 && h->pending[0]==0 )
        snprintf(h->pending, sizeof h->pending, "%s:%u: error in the type_pattern filter: %s", cb->sc->path, cb->line, err);
      w = m > 0;
    }
    h->want[(size_t)type * K + k] = (uint8_t)w;
    any |= w;
  }
  run_leave(h);
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
      run_enter(h);
      m = c_match(h, gr_graph_str(r->g, nd->name), cb->name_pat, err, sizeof err);
      run_leave(h);
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
  if( h->r!=r ) start_run(h, r);
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
  if( h->lim.instructions < TICK ) h->lim.instructions = TICK;
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

size_t gr_hooks_count(const gr_hooks *h){ return h ? h->nscripts : 0; }

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
  if( (sc = script_new(h, name, err))==NULL ) return -1;
  L = sc->L;
  h->scripts = gr_xrealloc(h->scripts, (h->nscripts + 1) * sizeof *h->scripts);
  h->scripts[h->nscripts++] = sc;
  /* the top level runs under the same limits as one evaluation */
  reset_limits(h);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, TICK);
  h->stage = ST_LOAD;
  h->loading = sc;
  lua_pushcfunction(L, msgh);
  rc = luaL_loadbufferx(L, src, len, sc->chunk, "t");
  if( rc==LUA_OK ){
    sc->running = 1;
    run_enter(h);
    rc = lua_pcall(L, 0, 0, 1);
    run_leave(h);
    sc->running = 0;
  }
  h->stage = ST_IDLE;
  h->loading = NULL;
  if( rc!=LUA_OK ){
    uint32_t line;
    error_text(sc, rc, &h->scratch, &line);
    err->line = line;
    snprintf(err->msg, sizeof err->msg, "%s", gr_buf_cstr(&h->scratch));
    /* forget the script and what it registered */
    for(k = ncbs0; k < h->ncbs; k++) free_cb(&h->cbs[k]);
    h->ncbs = ncbs0;
    for(k = nt0; k < h->ntilings; k++) free(h->tilings[k].op_type);
    h->ntilings = nt0;
    h->nscripts--;
    script_free(sc);
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
  for(k = 0; k < h->nscripts; k++) script_free(h->scripts[k]);
  free(h->scripts);
  free(h->node_cbs);
  free(h->want);
  gr_buf_free(&h->scratch);
  free(h);
}

/* ------------------------------------------------------------------ */
/* the tiling bridge */

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
  t->offsets = t->sizes = NULL;
  t->cores = NULL;
  t->ntiles = 0;
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
  int nd, k;
  lua_Integer j, nt;
  if( lua_type(L, t)!=LUA_TTABLE ){ snprintf(msg, nmsg, "the tiling function returned a %s, expected a plan table", luaL_typename(L, t)); return -1; }
  if( plan_int(L, t, "block_dim", 1, UINT32_MAX, -1, &v, msg, nmsg) ) return -1;
  if( v < 0 ){ snprintf(msg, nmsg, "the plan has no block_dim"); return -1; }
  out->block_dim = (uint32_t)v;
  lua_getfield(L, t, "tile_shape");
  if( lua_isnil(L, -1) ){ lua_pop(L, 1); snprintf(msg, nmsg, "the plan has no tile_shape"); return -1; }
  if( plan_list(L, "tile_shape", out->tile_shape, -1, 8, 0, &nd, msg, nmsg) ){ lua_pop(L, 1); return -1; }
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
    if( (j & 0xfff)==0 && check_time(SC(L)->h, NULL) ){ lua_pop(L, 1); snprintf(msg, nmsg, "%s", SC(L)->h->trip_msg); return -1; }
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
  for(k = nd; k < 8; k++) out->tile_shape[k] = 0;
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
  if( h->r!=r ){ start_run(h, r); h->stage = ST_IDLE; }
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
  lua_pushcfunction(L, msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->ref);
  push_node(L, node);
  push_chip(L, h);
  sc->running = 1;
  run_enter(h);
  rc = lua_pcall(L, 2, 1, base + 1);
  run_leave(h);
  sc->running = 0;
  h->stage = saved_stage;
  h->decided = saved_decided;
  if( rc!=LUA_OK ){
    uint32_t line;
    error_text(sc, rc, &h->scratch, &line);
    gr_error_set(err, line, 0, "%s:%u: %s", sc->path, line, gr_buf_cstr(&h->scratch));
    lua_settop(L, base);
    return -1;
  }
  if( read_plan(L, lua_gettop(L), out, msg, sizeof msg)!=0 ){
    gr_custom_tiling_free(out);
    memset(out, 0, sizeof *out);
    gr_error_set(err, t->line, 0, "%s:%u: tiling function for '%s': %s", sc->path, t->line, t->op_type, msg);
    lua_settop(L, base);
    return -1;
  }
  lua_settop(L, base);
  return 0;
}
