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

/* ---- conv2d geometry (the img2col mapping onto a cube matmul) ---- */

/* Output size of one spatial dim; -1 when the window does not fit. */
static inline int64_t conv_out_dim(int64_t in, int64_t k, int64_t st, int64_t p0, int64_t p1, int64_t dil){
  int64_t ek = sat_add(sat_mul(dil, k - 1), 1), num = sat_add(sat_add(in, p0), p1) - ek;
  if( st <= 0 || k <= 0 || dil <= 0 || num < 0 ) return -1;
  return num / st + 1;
}

/* The matmul view of a conv2d spec (M = Ho*Wo, K = C1*kh*kw*C0, N = Cout
** per group, batch = N x groups); -1 when the geometry is impossible. */
static inline int gr_tconv_derive(gr_tspec *s){
  s->ho = conv_out_dim(s->hi, s->kh, s->sh, s->pt, s->pb, s->dh);
  s->wo = conv_out_dim(s->wi, s->kw, s->sw, s->pl, s->pr, s->dw);
  if( s->ho < 1 || s->wo < 1 || s->c0 < 1 || s->groups < 1 ) return -1;
  s->c1 = ceil_div(s->cin, s->c0);
  s->batch = s->batch_a = sat_mul(s->cn, s->groups);
  s->batch_b = s->groups;
  s->m = sat_mul(s->ho, s->wo);
  s->n = s->cout;
  s->k = sat_mul(sat_mul(sat_mul(s->c1, s->kh), s->kw), s->c0);
  s->ndim = 3;
  s->out[0] = s->batch; s->out[1] = s->m; s->out[2] = s->n;
  return 0;
}

/* The feature-map rows one L1 slab holds for an output block of bm
** positions and a K slab of bk1 (load3d's source, NC1HWC0 in L1): the input
** rows under the output rows bm consecutive positions can span, and the C1
** groups a K slab can touch, each row all Wi x C0 elements. */
static inline uint64_t gr_tconv_fmap_elems(const gr_tspec *s, int64_t bm, int64_t bk1){
  int64_t kc = sat_mul(sat_mul(s->kh, s->kw), s->c0), span, rows, c1s;
  if( s->wo < 1 || kc < 1 || bm < 1 || bk1 < 1 ) return UINT64_MAX;
  span = min64(s->ho, (bm + s->wo - 2) / s->wo + 1);
  rows = min64(s->hi, sat_add(sat_mul(span - 1, s->sh), sat_add(sat_mul(s->kh - 1, s->dh), 1)));
  c1s = min64(s->c1, (bk1 + kc - 2) / kc + 1);
  return usat_mul(usat_mul(usat_mul((uint64_t)c1s, (uint64_t)rows), (uint64_t)s->wi), (uint64_t)s->c0);
}

#endif
