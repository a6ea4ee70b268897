/*
** internal.h: what the files of src/hooks share and nothing outside does:
** the gr_hooks record, the per-script record, registrations, and the
** functions each file offers the others. The jobs are:
**   sandbox.c       a Lua state per script: capped allocator, count hook,
**                   deadline, error texts
**   safelib.c       interruptible replacements for library functions
**                   (string patterns on lpattern.c, rep, table.*, load,
**                   print, setmetatable, xpcall)
**   lpattern.c      the Lua pattern matcher (its own API, lpattern.h)
**   api.c           the `gr` table and node objects a script sees
**   stages.c        loading scripts and calling them at each stage
**   tiling_bridge.c Lua tiling functions for custom operators
**
** Ownership: as in hooks.h. A script record is owned by its gr_hooks, a
** callback's op types and patterns by the callback, a tiling_fn's op type
** by the tiling_fn. A script record is the user data of its Lua state's
** allocator, so any C function called from Lua reaches both with
** hk_script_of.
*/
#ifndef GR_HOOKS_INTERNAL_H
#define GR_HOOKS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include "hooks/hooks.h"

enum { ST_IDLE = 0, ST_LOAD, ST_BEGIN, ST_NODE, ST_END, ST_TILING };
extern const char *const hk_stage_names[];

#define HK_TICK 1000                  /* instructions between two count-hook calls */
#define HK_MIB (1024.0 * 1024.0)

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

/* ---- sandbox.c ---- */
script *hk_script_of(lua_State *L);
script *hk_script_new(gr_hooks *h, const char *path, gr_error *err);
void hk_script_free(script *sc);
void hk_reset_limits(gr_hooks *h);
void hk_run_enter(gr_hooks *h);
void hk_run_leave(gr_hooks *h);
void hk_arm(lua_State *L);                     /* count hook every HK_TICK instructions */
int hk_check_time(gr_hooks *h, lua_State *L);   /* -1 (and tripped) once the deadline passed */
void hk_check_deadline(lua_State *L);           /* for C loops: raises once a limit tripped */
int hk_memory_error(lua_State *L);              /* trips the memory limit and raises it */
int hk_traceback(lua_State *L);                 /* message handler of every protected call */
void hk_error_text(script *sc, int rc, gr_buf *b, uint32_t *line);
uint32_t hk_script_line(lua_State *L, const script *sc);
int hk_lpat_interrupt(void *ud, char *msg, size_t n);   /* ud: gr_hooks */

/* ---- safelib.c ---- */
void hk_open_safelib(lua_State *L);

/* ---- api.c ---- */
void hk_open_api(lua_State *L);
void hk_push_node(lua_State *L, uint32_t n);
void hk_push_chip(lua_State *L, gr_hooks *h);

/* ---- stages.c ---- */
void hk_start_run(gr_hooks *h, gr_result *r);

#endif
