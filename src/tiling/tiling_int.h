/*
** tiling_int.h: what the tiling files share and nothing outside src/tiling
** uses: the tile-count limits, checked (saturating) arithmetic, dims text for
** messages, the rule-table accessors and the "limit" findings. All static
** inline, so each of tiling.c, tiling_spec.c, tiling_plan.c and
** tiling_validate.c compiles them as it did when they were one file.
**
** Ownership: nothing here allocates beyond a gr_buf freed before return.
*/
#ifndef GR_TILING_INT_H
#define GR_TILING_INT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tiling/tiling.h"

#define MAX_TILES GR_TMAX_TILES
#define MAX_CELLS ((uint64_t)1 << 25)    /* cells of the coverage grid */

/* ------------------------------------------------------------------ small helpers */

/* Checked arithmetic. Sizes saturate instead of wrapping: INT64_MAX (or
** UINT64_MAX) never fits a memory and is above every limit, so a saturated
** value is refused by the next comparison, and no operation is undefined. */
static inline int64_t sat_mul(int64_t a, int64_t b){
  int64_t r;
  if( a < 0 || b < 0 ) return -1;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t sat_add(int64_t a, int64_t b){
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? (a > 0 ? INT64_MAX : INT64_MIN) : r;
}
static inline uint64_t usat_mul(uint64_t a, uint64_t b){
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static inline uint64_t usat_add(uint64_t a, uint64_t b){
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
/* for a >= 0, b > 0; 0 otherwise (never overflows) */
static inline int64_t ceil_div(int64_t a, int64_t b){ return b > 0 && a > 0 ? a / b + (a % b != 0) : 0; }
static inline int64_t align_up(int64_t a, int64_t b){ return b > 0 ? sat_mul(ceil_div(a, b), b) : a; }
static inline uint64_t ualign_up(uint64_t a, uint64_t b){ return b > 0 ? usat_mul(a / b + (a % b != 0), b) : a; }
static inline int64_t min64(int64_t a, int64_t b){ return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b){ return a > b ? a : b; }

/* the product of dims: -1 when one is negative, INT64_MAX when it overflows */
static inline int64_t volume(const int64_t *d, uint32_t n){
  int64_t v = 1;
  uint32_t i;
  for(i = 0; i < n; i++){
    if( d[i] < 0 ) return -1;
    v = sat_mul(v, d[i]);
  }
  return v;
}

static inline void dims_text(gr_buf *b, const int64_t *d, uint32_t n){
  uint32_t i;
  gr_buf_addc(b, '[');
  for(i = 0; i < n; i++) gr_buf_printf(b, "%s%lld", i ? ", " : "", (long long)d[i]);
  gr_buf_addc(b, ']');
}

/* A dims vector rendered for a message, returned by value: the text lives
** until the end of the full expression that asked for it (C11 6.2.4p8), so
** several may appear in one message and nothing is shared between calls. */
typedef struct dims_txt { char s[160]; } dims_txt;
static inline dims_txt dims_str(const int64_t *d, uint32_t n){
  dims_txt t;
  gr_buf b;
  gr_buf_init(&b);
  dims_text(&b, d, n);
  snprintf(t.s, sizeof t.s, "%s", gr_buf_cstr(&b));
  gr_buf_free(&b);
  return t;
}

static inline const gr_table *find_table(const gr_ruleset *rs, const char *name){
  int i = name ? gr_ruleset_find(&rs->table_map, name) : -1;
  return i >= 0 ? &rs->tables[i] : NULL;
}

static inline const gr_expr *tget(const gr_table *t, const char *key){
  void *v;
  if( t==NULL || !t->is_map || key==NULL ) return NULL;
  v = gr_map_get(&t->keymap, key);
  return v ? t->vals[(intptr_t)v - 1] : NULL;
}
static inline const char *tstr(const gr_table *t, const char *key){
  const gr_expr *e = tget(t, key);
  return e && e->op==GR_E_STR ? e->s : NULL;
}
static inline int tint(const gr_table *t, const char *key, int64_t *out){
  const gr_expr *e = tget(t, key);
  if( e==NULL || e->op!=GR_E_INT ) return 0;
  *out = e->i;
  return 1;
}
/* ---- what a plan may describe ---- */

static inline int over_limit(int64_t v){ return v < 0 || v > GR_TMAX_ELEMS; }

/* v: the offending count (INT64_MAX when its computation overflowed) */
static inline int limit_err(gr_diags *notes, const char *what, int64_t v){
  if( v < 0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is negative", what);
  else if( v==INT64_MAX ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is 2^63 or more (the product overflows 64 bits); a plan describes at most %lld (2^48) elements",
                                 what, (long long)GR_TMAX_ELEMS);
  else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is %lld; a plan describes at most %lld (2^48) elements",
                what, (long long)v, (long long)GR_TMAX_ELEMS);
  return -1;
}

/* a single dim (its value is exact, not a saturated product) */
static inline int limit_dim(gr_diags *notes, const char *what, int64_t v){
  if( v < 0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is negative", what);
  else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is %lld; a plan describes at most %lld (2^48) elements", what, (long long)v, (long long)GR_TMAX_ELEMS);
  return -1;
}

#endif
