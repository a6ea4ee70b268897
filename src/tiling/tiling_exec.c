/*
** tiling_exec.c: runs a tiling plan on the CPU. Inputs are seeded random
** float32 values (rounded to each tensor's storage format) of the node's
** shapes, scaled down to fixed budgets when a tensor or the work is too large
** (gr_tspec_scale says what was scaled). Every tile is moved through staging
** memories of exactly the chip's UB, L1 and L0A/L0B/L0C sizes, at the places
** and widths the plan's buffers state (ping-pong copies alternate per core),
** computed there, and copied out; the result is compared with an untiled
** reference that uses the same arithmetic in the same order, so a correct
** plan matches bit for bit except where the tiled algorithm itself rounds
** differently (attention's online softmax). Elements a plan never writes stay
** NaN and elements written twice are counted: a wrong plan cannot pass.
*/
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling_int.h"

/* ------------------------------------------------------------------ number formats */

static inline uint16_t f32_to_f16(float f){
  uint32_t x, sign, mant;
  int32_t exp;
  memcpy(&x, &f, 4);
  sign = (x >> 16) & 0x8000u;
  exp = (int32_t)((x >> 23) & 0xff);
  mant = x & 0x7fffffu;
  if( exp==0xff ) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
  exp = exp - 127 + 15;
  if( exp >= 31 ) return (uint16_t)(sign | 0x7c00u);
  if( exp <= 0 ){
    uint32_t m, shift, r, half;
    if( exp < -10 ) return (uint16_t)sign;
    m = mant | 0x800000u;
    shift = (uint32_t)(14 - exp);
    r = m >> shift;
    half = 1u << (shift - 1);
    if( (m & ((1u << shift) - 1)) > half || ((m & ((1u << shift) - 1))==half && (r & 1)) ) r++;
    return (uint16_t)(sign | r);
  }else{
    uint32_t r = ((uint32_t)exp << 10) | (mant >> 13), rest = mant & 0x1fffu;
    if( rest > 0x1000u || (rest==0x1000u && (r & 1)) ) r++;   /* may carry into the exponent: still right */
    return (uint16_t)(sign | r);
  }
}

static inline float f16_to_f32(uint16_t h){
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, x;
  float f;
  if( exp==0 ){
    f = ldexpf((float)mant, -24);
    return sign ? -f : f;
  }
  if( exp==31 ) x = sign | 0x7f800000u | (mant << 13);
  else x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  memcpy(&f, &x, 4);
  return f;
}

static inline uint16_t f32_to_bf16(float f){
  uint32_t x;
  memcpy(&x, &f, 4);
  if( (x & 0x7fffffffu) > 0x7f800000u ) return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fffu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}
static inline float bf16_to_f32(uint16_t b){
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* ld and st are the executor's inner loops (more than half of a `tile
** --execute` run's instructions when they were calls): inlined, a constant
** format folds to one load or store, and a variable one costs a predictable
** switch instead of a call. */
static inline __attribute__((always_inline)) float ld(const uint8_t *p, int fmt, size_t i){
  switch( fmt ){
    case GR_FMT_FP16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return f16_to_f32(h); }
    case GR_FMT_BF16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return bf16_to_f32(h); }
    case GR_FMT_FP32: { float f; memcpy(&f, p + 4 * i, 4); return f; }
    case GR_FMT_FP64: { double d; memcpy(&d, p + 8 * i, 8); return (float)d; }
    case GR_FMT_I8: return (float)(int8_t)p[i];
    case GR_FMT_U8: return (float)p[i];
    case GR_FMT_I16: { int16_t v; memcpy(&v, p + 2 * i, 2); return (float)v; }
    case GR_FMT_U16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return (float)v; }
    case GR_FMT_I32: { int32_t v; memcpy(&v, p + 4 * i, 4); return (float)v; }
    case GR_FMT_U32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return (float)v; }
    case GR_FMT_I64: { int64_t v; memcpy(&v, p + 8 * i, 8); return (float)v; }
    case GR_FMT_U64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (float)v; }
    default: return NAN;
  }
}

static double clampd(double v, double lo, double hi){ return isnan(v) ? 0 : v < lo ? lo : v > hi ? hi : v; }

static inline __attribute__((always_inline)) void st(uint8_t *p, int fmt, size_t i, float f){
  switch( fmt ){
    case GR_FMT_FP16: { uint16_t h = f32_to_f16(f); memcpy(p + 2 * i, &h, 2); break; }
    case GR_FMT_BF16: { uint16_t h = f32_to_bf16(f); memcpy(p + 2 * i, &h, 2); break; }
    case GR_FMT_FP32: memcpy(p + 4 * i, &f, 4); break;
    case GR_FMT_FP64: { double d = f; memcpy(p + 8 * i, &d, 8); break; }
    case GR_FMT_I8: { int8_t v = (int8_t)clampd(nearbyint(f), -128, 127); memcpy(p + i, &v, 1); break; }
    case GR_FMT_U8: p[i] = (uint8_t)clampd(nearbyint(f), 0, 255); break;
    case GR_FMT_I16: { int16_t v = (int16_t)clampd(nearbyint(f), -32768, 32767); memcpy(p + 2 * i, &v, 2); break; }
    case GR_FMT_U16: { uint16_t v = (uint16_t)clampd(nearbyint(f), 0, 65535); memcpy(p + 2 * i, &v, 2); break; }
    case GR_FMT_I32: { int32_t v = (int32_t)clampd(nearbyint(f), -2147483648.0, 2147483647.0); memcpy(p + 4 * i, &v, 4); break; }
    case GR_FMT_U32: { uint32_t v = (uint32_t)clampd(nearbyint(f), 0, 4294967295.0); memcpy(p + 4 * i, &v, 4); break; }
    case GR_FMT_I64: { int64_t v = (int64_t)clampd(nearbyint(f), -9.2e18, 9.2e18); memcpy(p + 8 * i, &v, 8); break; }
    case GR_FMT_U64: { uint64_t v = (uint64_t)clampd(nearbyint(f), 0, 1.8e19); memcpy(p + 8 * i, &v, 8); break; }
    default: break;
  }
}

/* v rounded to what fmt can hold: a store and a load, with the float
** formats' round trips written out (the reference computations call this
** per element) */
static inline __attribute__((always_inline)) float qz(int fmt, float v){
  uint8_t b[8];
  switch( fmt ){
    case GR_FMT_FP32: return v;
    case GR_FMT_FP16: return f16_to_f32(f32_to_f16(v));
    case GR_FMT_BF16: return bf16_to_f32(f32_to_bf16(v));
    default:
      st(b, fmt, 0, v);
      return ld(b, fmt, 0);
  }
}

static int is_int_fmt(int fmt){ return fmt >= GR_FMT_I8; }
static int is_unsigned_fmt(int fmt){ return fmt==GR_FMT_U8 || fmt==GR_FMT_U16 || fmt==GR_FMT_U32 || fmt==GR_FMT_U64; }

/* unit roundoff of a format (0 for integers) */
static double fmt_eps(int fmt){
  switch( fmt ){
    case GR_FMT_FP16: return ldexp(1, -11);
    case GR_FMT_BF16: return ldexp(1, -8);
    case GR_FMT_FP32: return ldexp(1, -24);
    case GR_FMT_FP64: return ldexp(1, -24);    /* computed in float */
    default: return 0;
  }
}

/* ------------------------------------------------------------------ random inputs */

typedef struct rng { uint64_t s; } rng;
static uint64_t rng_next(rng *r){
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static float rng_float(rng *r, float lo, float hi){
  return lo + (hi - lo) * (float)((double)(rng_next(r) >> 40) / (double)(1ull << 24));
}

static float *gen(rng *r, size_t n, int fmt, float lo, float hi){
  float *v = gr_xmalloc((n ? n : 1) * sizeof *v);
  size_t i;
  for(i = 0; i < n; i++){
    if( is_int_fmt(fmt) ){
      float a = is_unsigned_fmt(fmt) ? 0 : -50, b = is_unsigned_fmt(fmt) ? 100 : 50;
      if( lo > 0 ){ a = 1; b = 50; }
      v[i] = qz(fmt, nearbyintf(rng_float(r, a, b)));
    }else{
      v[i] = qz(fmt, rng_float(r, lo, hi));
    }
  }
  return v;
}

/* ------------------------------------------------------------------ scalar kernels */

static float sigm(float x){ return 1.0f / (1.0f + expf(-x)); }

static float kern(int k, float a, float b){
  switch( k ){
    case GR_K_COPY: return a;
    case GR_K_ADD: return a + b;
    case GR_K_SUB: return a - b;
    case GR_K_MUL: return a * b;
    case GR_K_DIV: return a / b;
    case GR_K_MAXIMUM: return a > b ? a : b;
    case GR_K_MINIMUM: return a < b ? a : b;
    case GR_K_RELU: return a > 0 ? a : 0;
    case GR_K_ABS: return fabsf(a);
    case GR_K_NEG: return -a;
    case GR_K_EXP: return expf(a);
    case GR_K_SQRT: return sqrtf(a);
    case GR_K_SQUARE: return a * a;
    case GR_K_RSQRT: return 1.0f / sqrtf(a);
    case GR_K_SIGMOID: return sigm(a);
    case GR_K_SWISH: return a * sigm(a);
    case GR_K_TANH: return tanhf(a);
    case GR_K_GELU: return 0.5f * a * (1.0f + tanhf(0.7978845608f * (a + 0.044715f * a * a * a)));
    default: return NAN;
  }
}

/* the input range each kernel is fed (keeps div, sqrt and exp well-conditioned) */
static void kern_range(int k, int input, float *lo, float *hi){
  *lo = -1; *hi = 1;
  if( (k==GR_K_DIV && input==1) || k==GR_K_SQRT || k==GR_K_RSQRT ){ *lo = 0.25f; *hi = 2; }
}

/* ------------------------------------------------------------------ execution context */

typedef struct xc {
  const gr_tspec *s;
  const gr_tparams *prm;
  const gr_tchip *chip;
  const gr_tplan *p;
  gr_texec *x;
  gr_diags *notes;
  uint8_t *mem[GR_MEM_N];
  uint64_t *iter;             /* per core: tiles run so far (ping-pong choice) */
  uint64_t seed;
  size_t bad_tiles;
} xc;

static const gr_tbuf *findbuf(xc *c, const char *name){
  size_t i;
  for(i = 0; i < c->p->nbuf; i++) if( strcmp(c->p->buf[i].name, name)==0 ) return &c->p->buf[i];
  return NULL;
}

/* copy `k` of a buffer, which must hold `need` bytes; NULL (with a note) when it cannot */
static uint8_t *bufp(xc *c, const gr_tbuf *b, uint64_t k, uint64_t need, size_t tile){
  if( b==NULL ) return NULL;
  if( need > b->bytes ){
    if( c->bad_tiles++ < 4 )
      gr_tnote(c->notes, GR_SEV_ERROR, GR_TC_EXECUTE, "tile %zu needs %llu bytes in buffer %s, which holds %llu: the tile is not executed",
                    tile, (unsigned long long)need, b->name, (unsigned long long)b->bytes);
    return NULL;
  }
  return c->mem[b->level] + b->offset + (k % (b->copies ? b->copies : 1)) * b->bytes;
}

static uint64_t next_iter(xc *c, size_t t){
  uint32_t core = c->p->core[t];
  return core < c->p->block_dim ? c->iter[core]++ : 0;
}

static void tile_skip(xc *c, size_t t, const char *why){
  if( c->bad_tiles++ < 4 ) gr_tnote(c->notes, GR_SEV_ERROR, GR_TC_EXECUTE, "tile %zu is not executed: %s", t, why);
}

/* ------------------------------------------------------------------ compare */

/* Compares got with ref. The relative error of an element is
** |got - ref| / (|ref| + max|ref|): relative to the element, but never to
** less than the tensor's own scale (so values near zero do not inflate it).
** An element mismatches when that exceeds tol (or one of them is NaN). */
static void compare(xc *c, const float *got, const float *ref, const uint8_t *cnt, size_t n, double tol){
  gr_texec *x = c->x;
  double maxref = 0;
  size_t i;
  for(i = 0; i < n; i++) if( isfinite(ref[i]) && fabs(ref[i]) > maxref ) maxref = fabs(ref[i]);
  if( tol > x->tolerance ) x->tolerance = tol;
  for(i = 0; i < n; i++){
    double e, den, r;
    if( cnt ){
      if( cnt[i]==0 ) x->never_written++;
      else if( cnt[i] > 1 ) x->written_twice++;
    }
    if( isnan(got[i]) && isnan(ref[i]) && cnt && cnt[i] ) continue;   /* both NaN: the kernel's own */
    e = fabs((double)got[i] - (double)ref[i]);
    if( isnan(e) ) e = INFINITY;
    den = fabs((double)ref[i]) + maxref;
    r = e==0 ? 0 : den > 0 ? e / den : INFINITY;
    if( e > x->max_abs_err ) x->max_abs_err = e;
    if( r > x->max_rel_err ) x->max_rel_err = r;
    if( !(r <= tol) ) x->mismatches++;
  }
}

/* ------------------------------------------------------------------ element-wise */

/* products of dims and sizes, saturating at INT64_MAX (above every budget) */
static int64_t smul(int64_t a, int64_t b){
  int64_t r;
  if( a < 0 || b < 0 ) return INT64_MAX;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t vol(const int64_t *d, uint32_t n){
  int64_t v = 1;
  uint32_t i;
  for(i = 0; i < n; i++) v = smul(v, d[i]);
  return v;
}

/* flat output index -> flat index of a broadcast input */
static int64_t bidx(const int64_t *ostride, const int64_t *istride, uint32_t ndim, int64_t e){
  int64_t q = 0, rem = e;
  uint32_t d;
  for(d = 0; d < ndim; d++){
    int64_t cd = rem / ostride[d];
    rem -= cd * ostride[d];
    q += cd * istride[d];
  }
  return q;
}

static void run_elementwise(xc *c){
  const gr_tspec *s = c->s;
  const gr_tplan *p = c->p;
  size_t T = (size_t)vol(s->out, s->ndim), i, t, j;
  float *in[GR_TMAXIN] = { 0 }, *got = gr_xmalloc((T ? T : 1) * sizeof *got), *ref = gr_xmalloc((T ? T : 1) * sizeof *ref);
  uint8_t *cnt = gr_xcalloc(T ? T : 1, 1);
  int64_t istride[GR_TMAXIN][GR_TMAXDIM], ostride[GR_TMAXDIM];
  const gr_tbuf *bin[GR_TMAXIN], *bout = findbuf(c, "out"), *btmp = findbuf(c, "tmp0");
  int arity = gr_tkernel_arity(s->kernel);
  int same[GR_TMAXIN];      /* the input has the output's shape: its index is the output's */
  uint32_t d;
  char nm[16];
  for(i = 0; i < T; i++) got[i] = NAN;
  /* strides: output coordinates -> each input's flat index (0 on broadcast dims) */
  for(d = s->ndim, j = 1; d-- > 0; ){ ostride[d] = (int64_t)j; j *= (size_t)s->out[d]; }
  for(i = 0; i < s->nin; i++){
    int64_t st_ = 1;
    for(d = s->ndim; d-- > 0; ){
      int64_t k = (int64_t)d - (int64_t)(s->ndim - s->in_ndim[i]);
      if( k < 0 || s->in[i][k]==1 ) istride[i][d] = 0;
      else { istride[i][d] = st_; }
      if( k >= 0 ) st_ *= s->in[i][k];
    }
    snprintf(nm, sizeof nm, "in%u", (unsigned)(uint8_t)i);
    bin[i] = findbuf(c, nm);
    same[i] = s->in_ndim[i]==s->ndim && memcmp(s->in[i], s->out, s->ndim * sizeof *s->out)==0;
  }
  {
    rng g = { c->seed ^ 0xe1e3e27ull };
    for(i = 0; i < s->nin; i++){
      float lo, hi;
      kern_range(s->kernel, (int)i, &lo, &hi);
      in[i] = gen(&g, (size_t)vol(s->in[i], s->in_ndim[i]), s->fin[i], lo, hi);
    }
  }
  /* measured: the per-dim divisions of bidx were most of an element-wise
  ** execution; inputs of the output's own shape (the common case) skip them */
#define IDX(i_, e_) (same[i_] ? (int64_t)(e_) : bidx(ostride, istride[i_], s->ndim, (int64_t)(e_)))
  for(t = 0; t < p->ntiles; t++){
    int64_t o = p->off[t], L = p->len[t];
    uint64_t it;
    uint8_t *pi[GR_TMAXIN], *po, *pt = NULL;
    int ok = 1;
    if( o < 0 || L < 1 || (size_t)(o + L) > T ){ tile_skip(c, t, "it lies outside the output"); continue; }
    it = next_iter(c, t);
    for(i = 0; i < s->nin; i++)
      if( (pi[i] = bufp(c, bin[i], it, (uint64_t)L * (uint64_t)gr_tfmt_bytes(s->fin[i]), t))==NULL ) ok = 0;
    if( (po = bufp(c, bout, it, (uint64_t)L * (uint64_t)gr_tfmt_bytes(s->fout), t))==NULL ) ok = 0;
    if( c->prm->tmp_buffers && (pt = bufp(c, btmp, 0, (uint64_t)L * 4, t))==NULL ) ok = 0;
    if( !ok ) continue;
    /* copy in */
    for(i = 0; i < s->nin; i++) for(j = 0; j < (size_t)L; j++) st(pi[i], s->fin[i], j, in[i][IDX(i, o + (int64_t)j)]);
    /* compute in the UB */
    for(j = 0; j < (size_t)L; j++){
      float a = ld(pi[0], s->fin[0], j), b = arity > 1 && s->nin > 1 ? ld(pi[1], s->fin[1], j) : 0, v = kern(s->kernel, a, b);
      if( pt ){ st(pt, GR_FMT_FP32, j, v); v = ld(pt, GR_FMT_FP32, j); }
      st(po, s->fout, j, v);
    }
    /* copy out */
    for(j = 0; j < (size_t)L; j++){
      got[o + (int64_t)j] = ld(po, s->fout, j);
      if( cnt[o + (int64_t)j] < 255 ) cnt[o + (int64_t)j]++;
    }
    c->x->tiles_executed++;
  }
  for(j = 0; j < T; j++){
    float a = in[0][IDX(0, j)], b = arity > 1 && s->nin > 1 ? in[1][IDX(1, j)] : 0;
    ref[j] = qz(s->fout, kern(s->kernel, a, b));
  }
#undef IDX
  compare(c, got, ref, cnt, T, 2 * fmt_eps(s->fout));
  for(i = 0; i < s->nin; i++) free(in[i]);
  free(got); free(ref); free(cnt);
}

/* ------------------------------------------------------------------ last-axis reduction */

/* per-row statistics, accumulated over the row in column order */
typedef struct rowstat { float a, b; } rowstat;   /* softmax: max, sum; rms: -, rstd; layer: mean, rstd */

static void run_reduce(xc *c){
  const gr_tspec *s = c->s;
  const gr_tplan *p = c->p;
  size_t R = (size_t)s->rows, C = (size_t)s->cols, n = R * C, i, t;
  int k = s->kernel;
  uint32_t nstat = k==GR_K_RMS_NORM ? 1 : k==GR_K_LAYER_NORM ? 2 : 0, ri;
  float *x, *res[GR_TMAXIN] = { 0 }, *got = gr_xmalloc((n ? n : 1) * sizeof *got), *ref = gr_xmalloc((n ? n : 1) * sizeof *ref);
  float *sgot[2] = { 0 }, *sref[2] = { 0 };
  uint8_t *cnt = gr_xcalloc(n ? n : 1, 1), *scnt = gr_xcalloc(R ? R : 1, 1);
  const gr_tbuf *bx = findbuf(c, "x"), *by = findbuf(c, "y"), *bt = findbuf(c, "tmp0"), *bacc = findbuf(c, "acc");
  const gr_tbuf *bres[GR_TMAXIN], *bstat[GR_TMAXIN];
  int64_t W = p->tile[1];
  float eps = (float)s->eps;
  uint32_t al = c->prm->align ? c->prm->align : 1;
  uint64_t xs = (uint64_t)((W * gr_tfmt_bytes(s->fin[0]) + al - 1) / al * al);       /* row strides in bytes */
  uint64_t ys = (uint64_t)((W * gr_tfmt_bytes(s->fout) + al - 1) / al * al);
  uint64_t ts = (uint64_t)((W * 4 + al - 1) / al * al);
  char nm[16];
  rng g = { c->seed ^ 0x5eed0000ull };
  if( nstat > s->nstat ) nstat = s->nstat;
  for(i = 0; i < n; i++) got[i] = NAN;
  x = gen(&g, n, s->fin[0], -2, 2);
  for(ri = 0; ri < s->nres; ri++){
    res[ri] = gen(&g, C, s->fres[ri], -1, 1);
    snprintf(nm, sizeof nm, "res%u", (unsigned)(uint8_t)ri);
    bres[ri] = findbuf(c, nm);
  }
  for(ri = 0; ri < nstat; ri++){
    sgot[ri] = gr_xmalloc((R ? R : 1) * sizeof(float));
    sref[ri] = gr_xmalloc((R ? R : 1) * sizeof(float));
    for(i = 0; i < R; i++) sgot[ri][i] = NAN;
    snprintf(nm, sizeof nm, "stat%u", (unsigned)(uint8_t)ri);
    bstat[ri] = findbuf(c, nm);
  }
  for(t = 0; t < p->ntiles; t++){
    int64_t r0 = p->off[2 * t], c0 = p->off[2 * t + 1], rl = p->len[2 * t], cl = p->len[2 * t + 1], rr, cc, ch;
    uint64_t it;
    uint8_t *px, *py, *pt, *pacc, *pres[GR_TMAXIN], *pst[2] = { 0 };
    int ok = 1;
    if( r0 < 0 || c0 < 0 || rl < 1 || cl < 1 || (size_t)(r0 + rl) > R || (size_t)(c0 + cl) > C ){ tile_skip(c, t, "it lies outside the output"); continue; }
    if( rl > p->tile[0] || cl > W ){ tile_skip(c, t, "it is larger than the tile shape its buffers are sized for"); continue; }
    it = next_iter(c, t);
    px = bufp(c, bx, it, (uint64_t)rl * xs, t);
    py = bufp(c, by, it, (uint64_t)rl * ys, t);
    pt = bufp(c, bt, 0, (uint64_t)rl * ts, t);
    pacc = bufp(c, bacc, 0, (uint64_t)rl * 8, t);
    for(ri = 0; ri < s->nres; ri++) if( (pres[ri] = bufp(c, bres[ri], 0, (uint64_t)cl * (uint64_t)gr_tfmt_bytes(s->fres[ri]), t))==NULL ) ok = 0;
    for(ri = 0; ri < nstat; ri++) if( (pst[ri] = bufp(c, bstat[ri], 0, (uint64_t)rl * (uint64_t)gr_tfmt_bytes(s->fstat[ri]), t))==NULL ) ok = 0;
    if( !px || !py || !pt || !pacc || !ok ){ continue; }
    /* pass 1 (and 2): statistics of the tile's rows, streaming every column chunk of width W through x */
    for(rr = 0; rr < rl; rr++){ st(pacc, GR_FMT_FP32, 2 * (size_t)rr, k==GR_K_SOFTMAX ? -INFINITY : 0.0f); st(pacc, GR_FMT_FP32, 2 * (size_t)rr + 1, 0.0f); }
    {
      int pass, npass = k==GR_K_RMS_NORM ? 1 : 2;
      for(pass = 0; pass < npass; pass++){
        for(ch = 0; ch < (int64_t)C; ch += W){
          int64_t w = (int64_t)C - ch < W ? (int64_t)C - ch : W;
          for(rr = 0; rr < rl; rr++){
            uint8_t *row = px + (size_t)rr * xs;
            float a = ld(pacc, GR_FMT_FP32, 2 * (size_t)rr), b = ld(pacc, GR_FMT_FP32, 2 * (size_t)rr + 1);
            for(cc = 0; cc < w; cc++) st(row, s->fin[0], (size_t)cc, x[(size_t)(r0 + rr) * C + (size_t)(ch + cc)]);
            for(cc = 0; cc < w; cc++){
              float v = ld(row, s->fin[0], (size_t)cc);
              if( k==GR_K_SOFTMAX ){ if( pass==0 ){ if( v > a ) a = v; } else b += expf(v - a); }
              else if( k==GR_K_RMS_NORM ) b += v * v;
              else { if( pass==0 ) a += v; else { float dv = v - a; b += dv * dv; } }
            }
            if( k==GR_K_LAYER_NORM && pass==0 && ch + w >= (int64_t)C ) a = a / (float)C;
            st(pacc, GR_FMT_FP32, 2 * (size_t)rr, a);
            st(pacc, GR_FMT_FP32, 2 * (size_t)rr + 1, b);
          }
        }
      }
    }
    /* resident vectors of this column chunk */
    for(ri = 0; ri < s->nres; ri++) for(cc = 0; cc < cl; cc++) st(pres[ri], s->fres[ri], (size_t)cc, res[ri][c0 + cc]);
    /* last pass: this tile's columns */
    for(rr = 0; rr < rl; rr++){
      uint8_t *row = px + (size_t)rr * xs, *yrow = py + (size_t)rr * ys, *trow = pt + (size_t)rr * ts;
      float a = ld(pacc, GR_FMT_FP32, 2 * (size_t)rr), b = ld(pacc, GR_FMT_FP32, 2 * (size_t)rr + 1), rstd = 0;
      if( k==GR_K_RMS_NORM ) rstd = 1.0f / sqrtf(b / (float)C + eps);
      if( k==GR_K_LAYER_NORM ) rstd = 1.0f / sqrtf(b / (float)C + eps);
      for(cc = 0; cc < cl; cc++) st(row, s->fin[0], (size_t)cc, x[(size_t)(r0 + rr) * C + (size_t)(c0 + cc)]);
      for(cc = 0; cc < cl; cc++){
        float v = ld(row, s->fin[0], (size_t)cc), y;
        if( k==GR_K_SOFTMAX ){ st(trow, GR_FMT_FP32, (size_t)cc, expf(v - a)); y = ld(trow, GR_FMT_FP32, (size_t)cc) / b; }
        else if( k==GR_K_RMS_NORM ){
          st(trow, GR_FMT_FP32, (size_t)cc, v * rstd);
          y = ld(trow, GR_FMT_FP32, (size_t)cc);
          if( s->nres > 0 ) y = y * ld(pres[0], s->fres[0], (size_t)cc);
        }else{
          st(trow, GR_FMT_FP32, (size_t)cc, (v - a) * rstd);
          y = ld(trow, GR_FMT_FP32, (size_t)cc);
          if( s->nres > 0 ) y = y * ld(pres[0], s->fres[0], (size_t)cc);
          if( s->nres > 1 ) y = y + ld(pres[1], s->fres[1], (size_t)cc);
        }
        st(yrow, s->fout, (size_t)cc, y);
      }
      for(cc = 0; cc < cl; cc++){
        size_t e = (size_t)(r0 + rr) * C + (size_t)(c0 + cc);
        got[e] = ld(yrow, s->fout, (size_t)cc);
        if( cnt[e] < 255 ) cnt[e]++;
      }
      if( c0 + cl == (int64_t)C ){     /* the row's last chunk writes its statistics */
        float sv[2] = { k==GR_K_RMS_NORM ? rstd : a, b / (float)C };
        for(ri = 0; ri < nstat; ri++){
          st(pst[ri], s->fstat[ri], (size_t)rr, sv[ri]);
          sgot[ri][r0 + rr] = ld(pst[ri], s->fstat[ri], (size_t)rr);
        }
        if( nstat && scnt[r0 + rr] < 255 ) scnt[r0 + rr]++;
      }
    }
    c->x->tiles_executed++;
  }
  /* the untiled reference: the same arithmetic over whole rows */
  for(i = 0; i < R; i++){
    const float *row = x + i * C;
    float a = k==GR_K_SOFTMAX ? -INFINITY : 0, b = 0, rstd = 0;
    size_t j;
    for(j = 0; j < C; j++){ float v = qz(s->fin[0], row[j]); if( k==GR_K_SOFTMAX ){ if( v > a ) a = v; } else if( k==GR_K_RMS_NORM ) b += v * v; else a += v; }
    if( k==GR_K_SOFTMAX ) for(j = 0; j < C; j++) b += expf(row[j] - a);
    if( k==GR_K_LAYER_NORM ){ a = a / (float)C; for(j = 0; j < C; j++){ float dv = row[j] - a; b += dv * dv; } }
    if( k != GR_K_SOFTMAX ) rstd = 1.0f / sqrtf(b / (float)C + eps);
    for(j = 0; j < C; j++){
      float y;
      if( k==GR_K_SOFTMAX ) y = expf(row[j] - a) / b;
      else if( k==GR_K_RMS_NORM ){ y = row[j] * rstd; if( s->nres > 0 ) y = y * res[0][j]; }
      else { y = (row[j] - a) * rstd; if( s->nres > 0 ) y = y * res[0][j]; if( s->nres > 1 ) y = y + res[1][j]; }
      ref[i * C + j] = qz(s->fout, y);
    }
    {
      float sv[2] = { k==GR_K_RMS_NORM ? rstd : a, b / (float)C };
      for(ri = 0; ri < nstat; ri++) sref[ri][i] = qz(s->fstat[ri], sv[ri]);
    }
  }
  compare(c, got, ref, cnt, n, 2 * fmt_eps(s->fout));
  for(ri = 0; ri < nstat; ri++) compare(c, sgot[ri], sref[ri], scnt, R, 2 * fmt_eps(s->fstat[ri]));
  free(x);
  for(ri = 0; ri < s->nres; ri++) free(res[ri]);
  for(ri = 0; ri < nstat; ri++){ free(sgot[ri]); free(sref[ri]); }
  free(got); free(ref); free(cnt); free(scnt);
}

/* ------------------------------------------------------------------ matrix multiply */

/* Whether the executor can run a cube plan: FP32 accumulation, and K blocks
** where the L1 block is whole L0 blocks (and the L0 block whole C0 groups
** when c0 is not 0). When not, the reason is a note and a bad tile: nothing
** ran, so the plan is never reported as matching. */
static int cube_runnable(xc *c, int64_t bk, int64_t bk1, int64_t c0){
  if( c->prm->acc_bytes != 4 )
    gr_tnote(c->notes, GR_SEV_ERROR, GR_TC_EXECUTE, "the executor accumulates in FP32 (acc_bytes 4), the class says %u", c->prm->acc_bytes);
  else if( bk < 1 || bk1 < bk || bk1 % bk || (c0 && bk % c0) )
    gr_tnote(c->notes, GR_SEV_ERROR, GR_TC_EXECUTE, c0 ? "K blocks %lld (L0) and %lld (L1) are not usable (multiples of C0 %lld, the L1 slab of the L0 block)"
             : "K blocks %lld (L0) and %lld (L1) are not usable", (long long)bk, (long long)bk1, (long long)c0);
  else return 1;
  c->bad_tiles++;
  return 0;
}

/* The cube step both cube classes share: L1 -> L0B (row stride bn), then
** L0C += L0A x L0B in FP32 with K in order (ml x kl0 times kl0 x nl). */
static void cube_mac(const gr_tspec *s, const uint8_t *pb1, const uint8_t *pa0, uint8_t *pb0, uint8_t *pc0,
                     float *fa, float *fb, int64_t ml, int64_t nl, int64_t kl0, int64_t k0, int64_t bk, int64_t bn){
  int64_t ii, jj, kk;
  for(kk = 0; kk < kl0; kk++) for(jj = 0; jj < nl; jj++)
    st(pb0, s->fin[1], (size_t)(kk * bn + jj), ld(pb1, s->fin[1], (size_t)((k0 + kk) * bn + jj)));
  for(ii = 0; ii < ml; ii++) for(kk = 0; kk < kl0; kk++) fa[ii * bk + kk] = ld(pa0, s->fin[0], (size_t)(ii * bk + kk));
  for(kk = 0; kk < kl0; kk++) for(jj = 0; jj < nl; jj++) fb[kk * bn + jj] = ld(pb0, s->fin[1], (size_t)(kk * bn + jj));
  for(ii = 0; ii < ml; ii++) for(jj = 0; jj < nl; jj++){
    float acc = ld(pc0, GR_FMT_FP32, (size_t)(ii * bn + jj));
    for(kk = 0; kk < kl0; kk++) acc += fa[ii * bk + kk] * fb[kk * bn + jj];
    st(pc0, GR_FMT_FP32, (size_t)(ii * bn + jj), acc);
  }
}

/* A tile's way out: L0C -> UB (output format, when the class has a UB
** output buffer) -> GM at [b0, m0.., n0..] of an M x N output, counting
** each element's writes. */
static void cube_out(const gr_tspec *s, const uint8_t *pc0, uint8_t *pc, float *got, uint8_t *cnt, size_t M, size_t N,
                     int64_t b0, int64_t m0, int64_t n0, int64_t ml, int64_t nl, int64_t bn){
  int64_t ii, jj;
  for(ii = 0; ii < ml; ii++) for(jj = 0; jj < nl; jj++){
    size_t e = (size_t)b0 * M * N + (size_t)(m0 + ii) * N + (size_t)(n0 + jj);
    float v = ld(pc0, GR_FMT_FP32, (size_t)(ii * bn + jj));
    if( pc ){ st(pc, s->fout, (size_t)(ii * bn + jj), v); v = ld(pc, s->fout, (size_t)(ii * bn + jj)); }
    else v = qz(s->fout, v);
    got[e] = v;
    if( cnt[e] < 255 ) cnt[e]++;
  }
}

static void run_matmul(xc *c){
  const gr_tspec *s = c->s;
  const gr_tplan *p = c->p;
  size_t B = (size_t)s->batch, M = (size_t)s->m, N = (size_t)s->n, K = (size_t)s->k, n = B * M * N, i, t;
  size_t na = (size_t)s->batch_a * M * K, nb = (size_t)s->batch_b * K * N;
  int64_t bm = p->tile[1], bn = p->tile[2], bk = p->inner[0], bk1 = p->inner[1];
  float *A, *Bm, *got = gr_xmalloc((n ? n : 1) * sizeof *got), *ref = gr_xmalloc((n ? n : 1) * sizeof *ref);
  float *fa = NULL, *fb = NULL;
  uint8_t *cnt = gr_xcalloc(n ? n : 1, 1);
  const gr_tbuf *ba1 = findbuf(c, "a1"), *bb1 = findbuf(c, "b1"), *ba0 = findbuf(c, "a0"), *bb0 = findbuf(c, "b0");
  const gr_tbuf *bc0 = findbuf(c, "c0"), *bc = findbuf(c, "c");
  int ea = gr_tfmt_bytes(s->fin[0]), eb = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  rng g = { c->seed ^ 0x3a7a0000ull };
  for(i = 0; i < n; i++) got[i] = NAN;
  A = gen(&g, na, s->fin[0], -1, 1);
  Bm = gen(&g, nb, s->fin[1], -1, 1);
  if( !cube_runnable(c, bk, bk1, 0) ) goto done;
  fa = gr_xmalloc((size_t)(bm * bk) * sizeof *fa);
  fb = gr_xmalloc((size_t)(bk * bn) * sizeof *fb);
  for(t = 0; t < p->ntiles; t++){
    int64_t b0 = p->off[3 * t], m0 = p->off[3 * t + 1], n0 = p->off[3 * t + 2];
    int64_t lb = p->len[3 * t], ml = p->len[3 * t + 1], nl = p->len[3 * t + 2], k1, k0, ii, jj, kk;
    uint64_t it, step = 0;
    uint8_t *pc0, *pc = NULL;
    size_t ab, bb;
    if( b0 < 0 || m0 < 0 || n0 < 0 || lb != 1 || ml < 1 || nl < 1 || (size_t)b0 >= B || (size_t)(m0 + ml) > M || (size_t)(n0 + nl) > N ){
      tile_skip(c, t, "it lies outside the output (or spans several batches)"); continue;
    }
    if( ml > bm || nl > bn ){ tile_skip(c, t, "it is larger than the tile shape its buffers are sized for"); continue; }
    it = next_iter(c, t);
    ab = s->batch_a==1 ? 0 : (size_t)b0;
    bb = s->batch_b==1 ? 0 : (size_t)b0;
    if( (pc0 = bufp(c, bc0, it, (uint64_t)(bm * bn * 4), t))==NULL ) continue;
    if( c->prm->ub_out && (pc = bufp(c, bc, it, (uint64_t)(bm * bn * eo), t))==NULL ) continue;
    for(ii = 0; ii < bm * bn; ii++) st(pc0, GR_FMT_FP32, (size_t)ii, 0.0f);
    for(k1 = 0; k1 < (int64_t)K; k1 += bk1){
      int64_t kl1 = (int64_t)K - k1 < bk1 ? (int64_t)K - k1 : bk1;
      uint8_t *pa1 = bufp(c, ba1, step, (uint64_t)(bm * bk1 * ea), t), *pb1 = bufp(c, bb1, step, (uint64_t)(bk1 * bn * eb), t);
      if( !pa1 || !pb1 ) goto next_tile;
      step++;
      /* GM -> L1: A slab [ml x kl1] (row stride bk1), B slab [kl1 x nl] (row stride bn) */
      for(ii = 0; ii < ml; ii++) for(kk = 0; kk < kl1; kk++)
        st(pa1, s->fin[0], (size_t)(ii * bk1 + kk), A[ab * M * K + (size_t)(m0 + ii) * K + (size_t)(k1 + kk)]);
      for(kk = 0; kk < kl1; kk++) for(jj = 0; jj < nl; jj++)
        st(pb1, s->fin[1], (size_t)(kk * bn + jj), Bm[bb * K * N + (size_t)(k1 + kk) * N + (size_t)(n0 + jj)]);
      for(k0 = 0; k0 < kl1; k0 += bk){
        int64_t kl0 = kl1 - k0 < bk ? kl1 - k0 : bk;
        uint8_t *pa0 = bufp(c, ba0, step, (uint64_t)(bm * bk * ea), t), *pb0 = bufp(c, bb0, step, (uint64_t)(bk * bn * eb), t);
        if( !pa0 || !pb0 ) goto next_tile;
        /* L1 -> L0A / L0B */
        for(ii = 0; ii < ml; ii++) for(kk = 0; kk < kl0; kk++)
          st(pa0, s->fin[0], (size_t)(ii * bk + kk), ld(pa1, s->fin[0], (size_t)(ii * bk1 + k0 + kk)));
        cube_mac(s, pb1, pa0, pb0, pc0, fa, fb, ml, nl, kl0, k0, bk, bn);
      }
    }
    cube_out(s, pc0, pc, got, cnt, M, N, b0, m0, n0, ml, nl, bn);
    c->x->tiles_executed++;
  next_tile: ;
  }
  {
    size_t b, m, nn, kk;
    for(b = 0; b < B; b++){
      size_t ab = s->batch_a==1 ? 0 : b, bb = s->batch_b==1 ? 0 : b;
      for(m = 0; m < M; m++) for(nn = 0; nn < N; nn++){
        float acc = 0;
        for(kk = 0; kk < K; kk++) acc += A[ab * M * K + m * K + kk] * Bm[bb * K * N + kk * N + nn];
        ref[b * M * N + m * N + nn] = qz(s->fout, acc);
      }
    }
  }
  compare(c, got, ref, cnt, n, 2 * fmt_eps(s->fout) + 64 * fmt_eps(GR_FMT_FP32));
done:
  free(fa); free(fb);
  free(A); free(Bm); free(got); free(ref); free(cnt);
}

/* ------------------------------------------------------------------ convolution */

/* The input element of image b (= n x groups + g) at channel ci of the group,
** row ih, column iw; 0 in the padding and in the channels that pad C to C1 x C0.
** X is [N][groups x cin][hi][wi]. */
static float conv_x(const gr_tspec *s, const float *X, int64_t b, int64_t ci, int64_t ih, int64_t iw){
  int64_t n = b / s->groups, g = b % s->groups;
  if( ci >= s->cin || ih < 0 || iw < 0 || ih >= s->hi || iw >= s->wi ) return 0;
  return X[(((size_t)n * (size_t)(s->groups * s->cin) + (size_t)(g * s->cin + ci)) * (size_t)s->hi + (size_t)ih) * (size_t)s->wi + (size_t)iw];
}
/* K index (C1, kh, kw, C0 order) -> channel, filter row, filter column */
static void conv_k(const gr_tspec *s, int64_t k, int64_t *ci, int64_t *r, int64_t *q){
  int64_t kc = s->kh * s->kw * s->c0, rem = k % kc;
  *ci = (k / kc) * s->c0 + rem % s->c0;
  *r = rem / (s->kw * s->c0);
  *q = (rem / s->c0) % s->kw;
}

/* Tiled img2col convolution: per tile, per K slab the feature-map rows of the
** block go GM -> L1 (fm1, NC1HWC0 rows [c1][row][wi][c0]) and the filter slab
** GM -> L1 (b1); per K block img2col expands fm1 into L0A, the filter block
** goes to L0B, the cube accumulates in FP32 L0C; the block leaves through the
** UB. The reference is a direct convolution (n, g, co, oh, ow, ci, kh, kw
** loops) on the same inputs, FP32 accumulation. */
static void run_conv2d(xc *c){
  const gr_tspec *s = c->s;
  const gr_tplan *p = c->p;
  size_t B = (size_t)s->batch, M = (size_t)s->m, N = (size_t)s->n, K = (size_t)s->k, n = B * M * N, i, t;
  size_t nx = (size_t)(s->cn * s->groups * s->cin * s->hi * s->wi), nw = (size_t)(s->groups * s->cout * s->cin * s->kh * s->kw);
  int64_t bm = p->tile[1], bn = p->tile[2], bk = p->inner[0], bk1 = p->inner[1], kc = s->kh * s->kw * s->c0;
  float *X, *W, *got = gr_xmalloc((n ? n : 1) * sizeof *got), *ref = gr_xmalloc((n ? n : 1) * sizeof *ref);
  float *fa = NULL, *fb = NULL;
  double smax = 0, maxref = 0;
  uint8_t *cnt = gr_xcalloc(n ? n : 1, 1);
  const gr_tbuf *bf1 = findbuf(c, "fm1"), *bb1 = findbuf(c, "b1"), *ba0 = findbuf(c, "a0"), *bb0 = findbuf(c, "b0");
  const gr_tbuf *bc0 = findbuf(c, "c0"), *bc = findbuf(c, "c");
  int ea = gr_tfmt_bytes(s->fin[0]), eb = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  rng g = { c->seed ^ 0xc0420000ull };
  for(i = 0; i < n; i++) got[i] = NAN;
  X = gen(&g, nx, s->fin[0], -1, 1);
  W = gen(&g, nw, s->fin[1], -1, 1);
  if( !cube_runnable(c, bk, bk1, s->c0) ) goto done;
  fa = gr_xmalloc((size_t)(bm * bk) * sizeof *fa);
  fb = gr_xmalloc((size_t)(bk * bn) * sizeof *fb);
  for(t = 0; t < p->ntiles; t++){
    int64_t b0 = p->off[3 * t], m0 = p->off[3 * t + 1], n0 = p->off[3 * t + 2];
    int64_t lb = p->len[3 * t], ml = p->len[3 * t + 1], nl = p->len[3 * t + 2], k1, k0, ii, jj, kk;
    int64_t oh_lo, oh_hi, ih_lo, ih_hi, rows, gco;
    uint64_t it, step = 0;
    uint8_t *pc0, *pc = NULL;
    if( b0 < 0 || m0 < 0 || n0 < 0 || lb != 1 || ml < 1 || nl < 1 || (size_t)b0 >= B || (size_t)(m0 + ml) > M || (size_t)(n0 + nl) > N ){
      tile_skip(c, t, "it lies outside the output (or spans several images)"); continue;
    }
    if( ml > bm || nl > bn ){ tile_skip(c, t, "it is larger than the tile shape its buffers are sized for"); continue; }
    it = next_iter(c, t);
    gco = (b0 % s->groups) * s->cout;          /* the group's first output channel */
    oh_lo = m0 / s->wo; oh_hi = (m0 + ml - 1) / s->wo;
    ih_lo = oh_lo * s->sh - s->pt;
    if( ih_lo < 0 ) ih_lo = 0;
    ih_hi = oh_hi * s->sh - s->pt + (s->kh - 1) * s->dh;
    if( ih_hi > s->hi - 1 ) ih_hi = s->hi - 1;
    rows = ih_hi >= ih_lo ? ih_hi - ih_lo + 1 : 0;
    if( (pc0 = bufp(c, bc0, it, (uint64_t)(bm * bn * 4), t))==NULL ) continue;
    if( c->prm->ub_out && (pc = bufp(c, bc, it, (uint64_t)(bm * bn * eo), t))==NULL ) continue;
    for(ii = 0; ii < bm * bn; ii++) st(pc0, GR_FMT_FP32, (size_t)ii, 0.0f);
    for(k1 = 0; k1 < (int64_t)K; k1 += bk1){
      int64_t kl1 = (int64_t)K - k1 < bk1 ? (int64_t)K - k1 : bk1, c1lo = k1 / kc, c1n = (k1 + kl1 - 1) / kc - c1lo + 1, cq, rr, ww, cc;
      uint64_t fmn = (uint64_t)(c1n * rows * s->wi * s->c0);
      uint8_t *pf1 = bufp(c, bf1, step, fmn * (uint64_t)ea, t), *pb1 = bufp(c, bb1, step, (uint64_t)(bk1 * bn * eb), t);
      if( !pf1 || !pb1 ) goto next_tile;
      step++;
      /* GM -> L1: the block's feature-map rows, NC1HWC0 [c1][row][wi][c0] */
      for(cq = 0; cq < c1n; cq++) for(rr = 0; rr < rows; rr++) for(ww = 0; ww < s->wi; ww++) for(cc = 0; cc < s->c0; cc++)
        st(pf1, s->fin[0], (size_t)(((cq * rows + rr) * s->wi + ww) * s->c0 + cc),
           conv_x(s, X, b0, (c1lo + cq) * s->c0 + cc, ih_lo + rr, ww));
      /* GM -> L1: the filter slab [kl1 x nl] (FRACTAL_Z order: K as C1, kh, kw, C0) */
      for(kk = 0; kk < kl1; kk++) for(jj = 0; jj < nl; jj++){
        int64_t ci, r, q;
        float v = 0;
        conv_k(s, k1 + kk, &ci, &r, &q);
        if( ci < s->cin ) v = W[(((size_t)(gco + n0 + jj) * (size_t)s->cin + (size_t)ci) * (size_t)s->kh + (size_t)r) * (size_t)s->kw + (size_t)q];
        st(pb1, s->fin[1], (size_t)(kk * bn + jj), v);
      }
      for(k0 = 0; k0 < kl1; k0 += bk){
        int64_t kl0 = kl1 - k0 < bk ? kl1 - k0 : bk;
        uint8_t *pa0 = bufp(c, ba0, step, (uint64_t)(bm * bk * ea), t), *pb0 = bufp(c, bb0, step, (uint64_t)(bk * bn * eb), t);
        if( !pa0 || !pb0 ) goto next_tile;
        /* img2col (load3d) L1 -> L0A: row = output position, column = K */
        for(ii = 0; ii < ml; ii++){
          int64_t oh = (m0 + ii) / s->wo, ow = (m0 + ii) % s->wo;
          for(kk = 0; kk < kl0; kk++){
            int64_t k = k1 + k0 + kk, ci, r, q, ih, iw;
            float v = 0;
            conv_k(s, k, &ci, &r, &q);
            ih = oh * s->sh - s->pt + r * s->dh;
            iw = ow * s->sw - s->pl + q * s->dw;
            if( ih >= 0 && ih < s->hi && iw >= 0 && iw < s->wi ){
              if( ih < ih_lo || ih > ih_hi ){ tile_skip(c, t, "img2col reads a feature-map row the L1 slab does not hold"); goto next_tile; }
              v = ld(pf1, s->fin[0], (size_t)((((k / kc - c1lo) * rows + ih - ih_lo) * s->wi + iw) * s->c0 + ci % s->c0));
            }
            st(pa0, s->fin[0], (size_t)(ii * bk + kk), v);
          }
        }
        cube_mac(s, pb1, pa0, pb0, pc0, fa, fb, ml, nl, kl0, k0, bk, bn);
      }
    }
    cube_out(s, pc0, pc, got, cnt, M, N, b0, m0, n0, ml, nl, bn);
    c->x->tiles_executed++;
  next_tile: ;
  }
  {  /* the reference: a direct convolution, no img2col, no padding channels */
    int64_t bb, co, oh, ow, ci, r, q;
    for(bb = 0; bb < (int64_t)B; bb++) for(co = 0; co < s->cout; co++)
      for(oh = 0; oh < s->ho; oh++) for(ow = 0; ow < s->wo; ow++){
        float acc = 0;
        double mag = 0;
        int64_t gco = (bb % s->groups) * s->cout;
        for(ci = 0; ci < s->cin; ci++) for(r = 0; r < s->kh; r++) for(q = 0; q < s->kw; q++){
          float xv = conv_x(s, X, bb, ci, oh * s->sh - s->pt + r * s->dh, ow * s->sw - s->pl + q * s->dw);
          float wv = W[(((size_t)(gco + co) * (size_t)s->cin + (size_t)ci) * (size_t)s->kh + (size_t)r) * (size_t)s->kw + (size_t)q];
          acc += xv * wv;
          mag += fabs((double)xv * (double)wv);
        }
        ref[(size_t)bb * M * N + (size_t)(oh * s->wo + ow) * N + (size_t)co] = qz(s->fout, acc);
        if( mag > smax ) smax = mag;
        if( fabs(acc) > maxref ) maxref = fabs(acc);
      }
  }
  /* The two sums add the same products in different orders: each is within
  ** gamma_K x sum|x w| of the exact value (K = Cin x kh x kw, gamma_K ~ K u
  ** of FP32), so they differ by at most 2 gamma_K sum|x w|; relative to the
  ** tensor's largest |ref| that is 2 K u32 smax / maxref, plus two roundings
  ** to the output format. */
  {
    double kreal = (double)(s->cin * s->kh * s->kw);
    double tol = 2 * fmt_eps(s->fout) + (maxref > 0 ? 2.0 * kreal * fmt_eps(GR_FMT_FP32) * smax / maxref : 0);
    compare(c, got, ref, cnt, n, tol);
  }
done:
  free(fa); free(fb);
  free(X); free(W); free(got); free(ref); free(cnt);
}

/* ------------------------------------------------------------------ attention */

static void run_attention(xc *c){
  const gr_tspec *s = c->s;
  const gr_tplan *p = c->p;
  size_t Bt = (size_t)s->b, H = (size_t)s->heads, HK = (size_t)s->kv_heads, S = (size_t)s->sq, SK = (size_t)s->skv, D = (size_t)s->d;
  size_t n = Bt * H * S * D, nk = Bt * HK * SK * D, i, t, group = H / (HK ? HK : 1);
  int64_t sq = p->tile[2], skv = p->inner[0], u = c->prm->unit ? c->prm->unit : 1, dp = (p->tile[3] + u - 1) / u * u;
  float *Q, *Kt, *V, *got = gr_xmalloc((n ? n : 1) * sizeof *got), *ref = gr_xmalloc((n ? n : 1) * sizeof *ref);
  uint8_t *cnt = gr_xcalloc(n ? n : 1, 1);
  const gr_tbuf *bq1 = findbuf(c, "q1"), *bk1 = findbuf(c, "k1"), *bv1 = findbuf(c, "v1"), *ba0 = findbuf(c, "a0");
  const gr_tbuf *bb0 = findbuf(c, "b0"), *bc0 = findbuf(c, "c0"), *bs = findbuf(c, "s"), *bp = findbuf(c, "p");
  const gr_tbuf *bacc = findbuf(c, "acc"), *bml = findbuf(c, "ml"), *bo = findbuf(c, "o");
  int fq = s->fin[0], fk = s->fin[1], fv = s->fin[2], fo = s->fout;
  int eq = gr_tfmt_bytes(fq), ekv = gr_tfmt_bytes(fk) > gr_tfmt_bytes(fv) ? gr_tfmt_bytes(fk) : gr_tfmt_bytes(fv);
  float scale = (float)s->scale;
  rng g = { c->seed ^ 0xa77e0000ull };
  for(i = 0; i < n; i++) got[i] = NAN;
  Q = gen(&g, n, fq, -1, 1);
  Kt = gen(&g, nk, fk, -1, 1);
  V = gen(&g, nk, fv, -1, 1);
  if( c->prm->acc_bytes != 4 || skv < 1 || p->tile[3] != (int64_t)D ){
    gr_tnote(c->notes, GR_SEV_ERROR, GR_TC_EXECUTE, "the plan's blocks (KV block %lld, head dim tile %lld of %zu, acc_bytes %u) cannot be executed",
                  (long long)skv, (long long)p->tile[3], D, c->prm->acc_bytes);
    goto done;
  }
  for(t = 0; t < p->ntiles; t++){
    const int64_t *o = p->off + 4 * t, *l = p->len + 4 * t;
    int64_t ii, jj, dd, kv0;
    size_t b, h, hk, q0, ql;
    uint64_t it, step = 0;
    uint8_t *pq1, *pa0q, *pc0, *ps, *pp, *pacc, *pml, *po;
    if( o[0] < 0 || o[1] < 0 || o[2] < 0 || o[3] != 0 || l[0] != 1 || l[1] != 1 || l[2] < 1 || l[3] != (int64_t)D
        || (size_t)o[0] >= Bt || (size_t)o[1] >= H || (size_t)(o[2] + l[2]) > S ){
      tile_skip(c, t, "it lies outside the output or does not span one head's full head dim"); continue;
    }
    if( l[2] > sq ){ tile_skip(c, t, "it is larger than the tile shape its buffers are sized for"); continue; }
    b = (size_t)o[0]; h = (size_t)o[1]; q0 = (size_t)o[2]; ql = (size_t)l[2]; hk = h / (group ? group : 1);
    it = next_iter(c, t);
    pq1 = bufp(c, bq1, 0, (uint64_t)(sq * dp * eq), t);
    pc0 = bufp(c, bc0, 0, (uint64_t)((sq * skv > sq * dp ? sq * skv : sq * dp) * 4), t);
    ps = bufp(c, bs, 0, (uint64_t)(sq * skv * 4), t);
    pp = bufp(c, bp, 0, (uint64_t)(sq * skv * eq), t);
    pacc = bufp(c, bacc, 0, (uint64_t)(sq * dp * 4), t);
    pml = bufp(c, bml, 0, (uint64_t)(sq * 2 * 4), t);
    po = bufp(c, bo, it, (uint64_t)(sq * dp * gr_tfmt_bytes(fo)), t);
    pa0q = bufp(c, ba0, 0, (uint64_t)((sq * dp > sq * skv ? sq * dp : sq * skv) * eq), t);
    if( !pq1 || !pc0 || !ps || !pp || !pacc || !pml || !po || !pa0q ) continue;
    /* GM -> L1 -> L0A: the query block */
    for(ii = 0; ii < (int64_t)ql; ii++) for(dd = 0; dd < (int64_t)D; dd++)
      st(pq1, fq, (size_t)(ii * dp + dd), Q[((b * H + h) * S + q0 + (size_t)ii) * D + (size_t)dd]);
    for(ii = 0; ii < (int64_t)ql; ii++){
      st(pml, GR_FMT_FP32, (size_t)(2 * ii), -INFINITY);
      st(pml, GR_FMT_FP32, (size_t)(2 * ii + 1), 0.0f);
      for(dd = 0; dd < (int64_t)D; dd++) st(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd), 0.0f);
    }
    for(kv0 = 0; kv0 < (int64_t)SK; kv0 += skv){
      int64_t kl = (int64_t)SK - kv0 < skv ? (int64_t)SK - kv0 : skv;
      uint8_t *pk1 = bufp(c, bk1, step, (uint64_t)(skv * dp * gr_tfmt_bytes(fk)), t);
      uint8_t *pv1 = bufp(c, bv1, step, (uint64_t)(skv * dp * gr_tfmt_bytes(fv)), t);
      uint8_t *pb0 = bufp(c, bb0, step, (uint64_t)(skv * dp * ekv), t);
      uint8_t *pa0 = bufp(c, ba0, step, (uint64_t)((sq * dp > sq * skv ? sq * dp : sq * skv) * eq), t);
      if( !pk1 || !pv1 || !pb0 || !pa0 ) goto next_tile;
      step++;
      for(ii = 0; ii < (int64_t)ql; ii++) for(dd = 0; dd < (int64_t)D; dd++)
        st(pa0, fq, (size_t)(ii * dp + dd), ld(pq1, fq, (size_t)(ii * dp + dd)));
      for(jj = 0; jj < kl; jj++) for(dd = 0; dd < (int64_t)D; dd++){
        st(pk1, fk, (size_t)(jj * dp + dd), Kt[((b * HK + hk) * SK + (size_t)(kv0 + jj)) * D + (size_t)dd]);
        st(pv1, fv, (size_t)(jj * dp + dd), V[((b * HK + hk) * SK + (size_t)(kv0 + jj)) * D + (size_t)dd]);
      }
      for(jj = 0; jj < kl; jj++) for(dd = 0; dd < (int64_t)D; dd++) st(pb0, fk, (size_t)(jj * dp + dd), ld(pk1, fk, (size_t)(jj * dp + dd)));
      /* scores Q.K^T -> L0C -> UB (scaled) */
      for(ii = 0; ii < (int64_t)ql; ii++) for(jj = 0; jj < kl; jj++){
        float acc = 0;
        for(dd = 0; dd < (int64_t)D; dd++) acc += ld(pa0, fq, (size_t)(ii * dp + dd)) * ld(pb0, fk, (size_t)(jj * dp + dd));
        st(pc0, GR_FMT_FP32, (size_t)(ii * skv + jj), acc);
        st(ps, GR_FMT_FP32, (size_t)(ii * skv + jj), ld(pc0, GR_FMT_FP32, (size_t)(ii * skv + jj)) * scale);
      }
      /* online softmax in the UB */
      for(ii = 0; ii < (int64_t)ql; ii++){
        float m = ld(pml, GR_FMT_FP32, (size_t)(2 * ii)), lsum = ld(pml, GR_FMT_FP32, (size_t)(2 * ii + 1)), mn = m, alpha, add = 0;
        for(jj = 0; jj < kl; jj++){ float v = ld(ps, GR_FMT_FP32, (size_t)(ii * skv + jj)); if( v > mn ) mn = v; }
        alpha = isinf(m) ? 0.0f : expf(m - mn);
        for(jj = 0; jj < kl; jj++){
          float e = expf(ld(ps, GR_FMT_FP32, (size_t)(ii * skv + jj)) - mn);
          add += e;
          st(pp, fq, (size_t)(ii * skv + jj), e);
        }
        st(pml, GR_FMT_FP32, (size_t)(2 * ii), mn);
        st(pml, GR_FMT_FP32, (size_t)(2 * ii + 1), lsum * alpha + add);
        for(dd = 0; dd < (int64_t)D; dd++) st(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd), ld(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd)) * alpha);
      }
      /* P -> L0A, V -> L0B, P.V -> L0C, accumulated into the UB */
      for(ii = 0; ii < (int64_t)ql; ii++) for(jj = 0; jj < kl; jj++) st(pa0, fq, (size_t)(ii * skv + jj), ld(pp, fq, (size_t)(ii * skv + jj)));
      for(jj = 0; jj < kl; jj++) for(dd = 0; dd < (int64_t)D; dd++) st(pb0, fv, (size_t)(jj * dp + dd), ld(pv1, fv, (size_t)(jj * dp + dd)));
      for(ii = 0; ii < (int64_t)ql; ii++) for(dd = 0; dd < (int64_t)D; dd++){
        float acc = 0;
        for(jj = 0; jj < kl; jj++) acc += ld(pa0, fq, (size_t)(ii * skv + jj)) * ld(pb0, fv, (size_t)(jj * dp + dd));
        st(pc0, GR_FMT_FP32, (size_t)(ii * dp + dd), acc);
        st(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd), ld(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd)) + ld(pc0, GR_FMT_FP32, (size_t)(ii * dp + dd)));
      }
    }
    /* normalise -> UB o -> GM */
    for(ii = 0; ii < (int64_t)ql; ii++){
      float lsum = ld(pml, GR_FMT_FP32, (size_t)(2 * ii + 1));
      for(dd = 0; dd < (int64_t)D; dd++){
        size_t e = ((b * H + h) * S + q0 + (size_t)ii) * D + (size_t)dd;
        st(po, fo, (size_t)(ii * dp + dd), ld(pacc, GR_FMT_FP32, (size_t)(ii * dp + dd)) / lsum);
        got[e] = ld(po, fo, (size_t)(ii * dp + dd));
        if( cnt[e] < 255 ) cnt[e]++;
      }
    }
    c->x->tiles_executed++;
  next_tile: ;
  }
  /* reference: softmax(Q K^T * scale) V, row by row, in FP32 */
  {
    float *sc = gr_xmalloc((SK ? SK : 1) * sizeof *sc);
    size_t b, h, q, j, d;
    for(b = 0; b < Bt; b++) for(h = 0; h < H; h++){
      size_t hk = h / (group ? group : 1);
      for(q = 0; q < S; q++){
        const float *qr = Q + ((b * H + h) * S + q) * D;
        float m = -INFINITY, l = 0;
        for(j = 0; j < SK; j++){
          const float *kr = Kt + ((b * HK + hk) * SK + j) * D;
          float acc = 0;
          for(d = 0; d < D; d++) acc += qr[d] * kr[d];
          sc[j] = acc * scale;
          if( sc[j] > m ) m = sc[j];
        }
        for(j = 0; j < SK; j++){ sc[j] = expf(sc[j] - m); l += sc[j]; }
        for(d = 0; d < D; d++){
          float acc = 0;
          for(j = 0; j < SK; j++) acc += sc[j] * V[((b * HK + hk) * SK + j) * D + d];
          ref[((b * H + h) * S + q) * D + d] = qz(fo, acc / l);
        }
      }
    }
    free(sc);
  }
  /* P is rounded to the query's format before P.V (as on the cube): allow for it */
  compare(c, got, ref, cnt, n, 2 * fmt_eps(fo) + 8 * fmt_eps(fq) + 64 * fmt_eps(GR_FMT_FP32));
done:
  free(Q); free(Kt); free(V); free(got); free(ref); free(cnt);
}

/* ------------------------------------------------------------------ custom: a copy through the tiles */

static void run_custom(xc *c){
  gr_tnote(c->notes, GR_SEV_NOTE, GR_TC_EXECUTE, "plans of Lua tilings are validated, not executed (the operator's computation is unknown)");
}

/* ------------------------------------------------------------------ driver */

void gr_texec_free(gr_texec *x){
  if( x==NULL ) return;
  gr_tplan_free(&x->plan);
}

/* the spec is within GR_TEXEC_MAX_ELEMS per tensor and GR_TEXEC_MAX_WORK
** multiply-accumulates (the products saturate, so a huge spec is refused) */
static int within_budget(const gr_tspec *s){
  uint32_t i;
  if( s->ndim > GR_TMAXDIM || vol(s->out, s->ndim) > GR_TEXEC_MAX_ELEMS ) return 0;
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE:
      if( s->nin > GR_TMAXIN ) return 0;
      for(i = 0; i < s->nin; i++) if( s->in_ndim[i] > GR_TMAXDIM || vol(s->in[i], s->in_ndim[i]) > GR_TEXEC_MAX_ELEMS ) return 0;
      return 1;
    case GR_TS_REDUCE_LAST:
      return smul(s->rows, s->cols) <= GR_TEXEC_MAX_ELEMS;
    case GR_TS_MATMUL:
      return smul(smul(smul(s->batch, s->m), s->n), s->k) <= GR_TEXEC_MAX_WORK
             && smul(smul(s->batch_a, s->m), s->k) <= GR_TEXEC_MAX_ELEMS && smul(smul(s->batch_b, s->k), s->n) <= GR_TEXEC_MAX_ELEMS
             && smul(smul(s->batch, s->m), s->n) <= GR_TEXEC_MAX_ELEMS && s->batch_a <= s->batch && s->batch_b <= s->batch;
    case GR_TS_CONV2D:
      return smul(smul(smul(s->batch, s->m), s->n), smul(smul(s->cin, s->kh), s->kw)) <= GR_TEXEC_MAX_WORK
             && smul(smul(smul(s->batch, s->m), s->n), s->k) <= 4 * (int64_t)GR_TEXEC_MAX_WORK
             && smul(smul(smul(s->batch, s->cin), s->hi), s->wi) <= GR_TEXEC_MAX_ELEMS
             && smul(smul(smul(s->groups, s->cout), s->cin), smul(s->kh, s->kw)) <= GR_TEXEC_MAX_ELEMS
             && smul(smul(s->batch, s->m), s->n) <= GR_TEXEC_MAX_ELEMS && s->groups >= 1 && s->c0 >= 1;
    case GR_TS_ATTENTION:
      return smul(2, smul(smul(smul(smul(s->b, s->heads), s->sq), s->skv), s->d)) <= GR_TEXEC_MAX_WORK
             && smul(smul(smul(s->b, s->heads), s->sq), s->d) <= GR_TEXEC_MAX_ELEMS
             && smul(smul(smul(s->b, s->kv_heads), s->skv), s->d) <= GR_TEXEC_MAX_ELEMS
             && s->kv_heads >= 1 && s->kv_heads <= s->heads;
    default:
      return 1;
  }
}

int gr_tiling_run(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                  const gr_tplan *plan, uint64_t seed, gr_texec *x, gr_diags *notes){
  xc c;
  size_t i;
  int lvl;
  memset(&c, 0, sizeof c);
  c.seed = seed;
  c.s = spec; c.prm = params; c.chip = chip; c.p = plan; c.x = x; c.notes = notes;
  x->ran = 0;
  x->tiles_executed = 0;
  x->max_abs_err = x->max_rel_err = x->tolerance = 0;
  x->mismatches = x->never_written = x->written_twice = 0;
  x->match = 0;
  if( spec->kernel==GR_K_NONE ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "the op type has no CPU kernel in the rules' compute table, so it cannot be executed");
    return -1;
  }
  if( plan->ndim != spec->ndim && spec->strategy != GR_TS_REDUCE_LAST && spec->strategy != GR_TS_ELEMENTWISE ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "the plan does not belong to this node");
    return -1;
  }
  /* every buffer below is sized from these: refuse before allocating anything */
  if( !within_budget(spec) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the node is beyond the executor's budgets (%d elements per tensor, %d multiply-accumulates): scale it first (gr_tiling_execute does)",
             GR_TEXEC_MAX_ELEMS, GR_TEXEC_MAX_WORK);
    return -1;
  }
  for(i = 0; i < GR_TMAXDIM; i++) if( plan->tile[i] < 0 || plan->tile[i] > GR_TEXEC_MAX_ELEMS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan's tile has a dim of %lld, beyond the executor's %d elements", (long long)plan->tile[i], GR_TEXEC_MAX_ELEMS);
    return -1;
  }
  for(i = 0; i < 2; i++) if( plan->inner[i] < 0 || plan->inner[i] > GR_TEXEC_MAX_ELEMS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan's inner block of %lld is beyond the executor's %d elements", (long long)plan->inner[i], GR_TEXEC_MAX_ELEMS);
    return -1;
  }
  if( (spec->strategy==GR_TS_MATMUL || spec->strategy==GR_TS_CONV2D) && (smul(plan->tile[1], plan->inner[0]) > GR_TEXEC_MAX_ELEMS
                                       || smul(plan->inner[0], plan->tile[2]) > GR_TEXEC_MAX_ELEMS) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan's L0 blocks (%lld x %lld, %lld x %lld) are beyond the executor's %d elements",
             (long long)plan->tile[1], (long long)plan->inner[0], (long long)plan->inner[0], (long long)plan->tile[2], GR_TEXEC_MAX_ELEMS);
    return -1;
  }
  if( plan->block_dim > GR_TMAX_CORES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "block_dim %u is beyond the %u cores a plan may use", plan->block_dim, GR_TMAX_CORES);
    return -1;
  }
  /* the staging memories: the chip's sizes; every buffer must lie inside */
  for(i = 0; i < plan->nbuf; i++){
    const gr_tbuf *b = &plan->buf[i];
    uint64_t end = 0;
    int over = __builtin_mul_overflow(b->bytes, (uint64_t)(b->copies ? b->copies : 1), &end)
               || __builtin_add_overflow(end, b->offset, &end);
    if( b->level >= GR_MEM_N || over || end > chip->cap[b->level] ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "buffer %s (%u x %llu bytes at %llu) does not fit the %llu bytes of %s: the plan cannot be staged",
                    b->name, b->copies, (unsigned long long)b->bytes, (unsigned long long)b->offset,
                    (unsigned long long)(b->level < GR_MEM_N ? chip->cap[b->level] : 0), gr_tmem_name(b->level));
      return -1;
    }
  }
  for(lvl = 0; lvl < GR_MEM_N; lvl++) if( chip->cap[lvl] > GR_TEXEC_MAX_STAGING ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s has %llu bytes of %s, more than the executor stages (%llu)", chip->soc,
             (unsigned long long)chip->cap[lvl], gr_tmem_name(lvl), (unsigned long long)GR_TEXEC_MAX_STAGING);
    return -1;
  }
  for(lvl = 0; lvl < GR_MEM_N; lvl++) if( chip->cap[lvl] ) c.mem[lvl] = gr_xcalloc((size_t)chip->cap[lvl], 1);
  c.iter = gr_xcalloc(plan->block_dim ? plan->block_dim : 1, sizeof *c.iter);
  switch( spec->strategy ){
    case GR_TS_ELEMENTWISE: run_elementwise(&c); break;
    case GR_TS_REDUCE_LAST: run_reduce(&c); break;
    case GR_TS_MATMUL: run_matmul(&c); break;
    case GR_TS_ATTENTION: run_attention(&c); break;
    case GR_TS_CONV2D: run_conv2d(&c); break;
    default: run_custom(&c); break;
  }
  x->ran = spec->strategy != GR_TS_CUSTOM;
  for(lvl = 0; lvl < GR_MEM_N; lvl++) free(c.mem[lvl]);
  free(c.iter);
  if( !x->ran ) return 0;
  x->match = x->mismatches==0 && x->never_written==0 && x->written_twice==0 && c.bad_tiles==0;
  if( x->never_written )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "%zu output elements were never written by any tile", x->never_written);
  if( x->written_twice )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "%zu output elements were written by more than one tile", x->written_twice);
  if( x->mismatches )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "%zu output elements differ from the untiled reference beyond the tolerance %.3g (max abs error %.3g, max rel error %.3g)",
                  x->mismatches, x->tolerance, x->max_abs_err, x->max_rel_err);
  return x->match ? 0 : -1;
}

/* ------------------------------------------------------------------ scaling */

static int64_t half(int64_t v){ return (v + 1) / 2; }

int gr_tspec_scale(const gr_tspec *in, gr_tspec *s, char *text, size_t ntext){
  gr_buf b;
  int scaled = 0;
  uint32_t i, d;
  *s = *in;
  gr_buf_init(&b);
  switch( in->strategy ){
    case GR_TS_ELEMENTWISE: {
      while( vol(s->out, s->ndim) > GR_TEXEC_MAX_ELEMS ){
        uint32_t big = 0;
        for(d = 1; d < s->ndim; d++) if( s->out[d] > s->out[big] ) big = d;
        if( s->out[big] <= 1 ) break;       /* nothing left to halve (negative dims are refused before) */
        for(i = 0; i < s->nin; i++){
          int64_t k = (int64_t)big - (int64_t)(s->ndim - s->in_ndim[i]);
          if( k >= 0 && s->in[i][k] == s->out[big] ) s->in[i][k] = half(s->out[big]);
        }
        s->out[big] = half(s->out[big]);
        scaled = 1;
      }
      if( scaled ){
        gr_buf_adds(&b, "output ");
        {
          uint32_t k;
          gr_buf_addc(&b, '[');
          for(k = 0; k < in->ndim; k++) gr_buf_printf(&b, "%s%lld", k ? ", " : "", (long long)in->out[k]);
          gr_buf_adds(&b, "] -> [");
          for(k = 0; k < s->ndim; k++) gr_buf_printf(&b, "%s%lld", k ? ", " : "", (long long)s->out[k]);
          gr_buf_addc(&b, ']');
        }
      }
      break;
    }
    case GR_TS_REDUCE_LAST:
      while( smul(s->rows, s->cols) > GR_TEXEC_MAX_ELEMS ){
        if( s->rows > 1 ) s->rows = half(s->rows); else if( s->cols > 1 ) s->cols = half(s->cols); else break;
        scaled = 1;
      }
      if( scaled ){
        gr_buf_printf(&b, "rows x cols %lld x %lld -> %lld x %lld", (long long)in->rows, (long long)in->cols,
                      (long long)s->rows, (long long)s->cols);
        s->ndim = 2; s->out[0] = s->rows; s->out[1] = s->cols;
        s->in_ndim[0] = 2; s->in[0][0] = s->rows; s->in[0][1] = s->cols;
      }
      break;
    case GR_TS_MATMUL:
      for(;;){
        int64_t work = smul(smul(smul(s->batch, s->m), s->n), s->k);
        int64_t ea = smul(smul(s->batch_a, s->m), s->k), eb = smul(smul(s->batch_b, s->k), s->n), ec = smul(smul(s->batch, s->m), s->n);
        if( work <= GR_TEXEC_MAX_WORK && ea <= GR_TEXEC_MAX_ELEMS && eb <= GR_TEXEC_MAX_ELEMS && ec <= GR_TEXEC_MAX_ELEMS ) break;
        /* halve the largest of N, K, M, batch (N first on ties) */
        if( s->n >= s->k && s->n >= s->m && s->n >= s->batch && s->n > 1 ) s->n = half(s->n);
        else if( s->k >= s->m && s->k >= s->batch && s->k > 1 ) s->k = half(s->k);
        else if( s->m >= s->batch && s->m > 1 ) s->m = half(s->m);
        else if( s->batch > 1 ){
          s->batch = half(s->batch);
          if( s->batch_a > 1 ) s->batch_a = s->batch;
          if( s->batch_b > 1 ) s->batch_b = s->batch;
        }else break;
        scaled = 1;
      }
      if( scaled ){
        gr_buf_printf(&b, "batch x M x N x K %lld x %lld x %lld x %lld -> %lld x %lld x %lld x %lld",
                      (long long)in->batch, (long long)in->m, (long long)in->n, (long long)in->k,
                      (long long)s->batch, (long long)s->m, (long long)s->n, (long long)s->k);
        s->out[0] = s->batch; s->out[1] = s->m; s->out[2] = s->n;
      }
      break;
    case GR_TS_CONV2D:
      /* halve Cout, then the batch, then Cin, then the image (H and W):
      ** the geometry (kernel, strides, pads, dilations) stays */
      while( !within_budget(s) ){
        if( s->cout > 1 && s->cout >= s->cin ) s->cout = half(s->cout);
        else if( s->cn > 1 ) s->cn = half(s->cn);
        else if( s->cin > 1 ) s->cin = half(s->cin);
        else if( s->hi > s->kh * s->dh || s->wi > s->kw * s->dw ){
          if( s->hi > s->kh * s->dh ) s->hi = half(s->hi);
          if( s->wi > s->kw * s->dw ) s->wi = half(s->wi);
        }else if( s->cout > 1 ) s->cout = half(s->cout);
        else break;
        if( gr_tconv_derive(s) ) break;
        scaled = 1;
      }
      if( scaled )
        gr_buf_printf(&b, "N x groups x Cin x H x W x Cout %lld x %lld x %lld x %lld x %lld x %lld -> %lld x %lld x %lld x %lld x %lld x %lld",
                      (long long)in->cn, (long long)in->groups, (long long)in->cin, (long long)in->hi, (long long)in->wi, (long long)in->cout,
                      (long long)s->cn, (long long)s->groups, (long long)s->cin, (long long)s->hi, (long long)s->wi, (long long)s->cout);
      break;
    case GR_TS_ATTENTION:
      for(;;){
        int64_t work = smul(2, smul(smul(smul(smul(s->b, s->heads), s->sq), s->skv), s->d));
        int64_t eq = smul(smul(smul(s->b, s->heads), s->sq), s->d), ek = smul(smul(smul(s->b, s->kv_heads), s->skv), s->d);
        if( work <= GR_TEXEC_MAX_WORK && eq <= GR_TEXEC_MAX_ELEMS && ek <= GR_TEXEC_MAX_ELEMS ) break;
        if( s->heads > 1 && (s->kv_heads % 2==0 || s->kv_heads==1) && s->heads % 2==0
            && (s->kv_heads==1 || (s->heads / 2) % (s->kv_heads / 2)==0) ){
          s->heads /= 2;
          if( s->kv_heads > 1 ) s->kv_heads /= 2;
        }else if( s->b > 1 ) s->b = half(s->b);
        else if( s->sq >= s->skv && s->sq > 1 ) s->sq = half(s->sq);
        else if( s->skv > 1 ) s->skv = half(s->skv);
        else if( s->d > 1 ) s->d = half(s->d);
        else break;
        scaled = 1;
      }
      if( scaled ){
        gr_buf_printf(&b, "B x heads(kv) x Sq x Skv x D %lld x %lld(%lld) x %lld x %lld x %lld -> %lld x %lld(%lld) x %lld x %lld x %lld",
                      (long long)in->b, (long long)in->heads, (long long)in->kv_heads, (long long)in->sq, (long long)in->skv, (long long)in->d,
                      (long long)s->b, (long long)s->heads, (long long)s->kv_heads, (long long)s->sq, (long long)s->skv, (long long)s->d);
        s->out[0] = s->b; s->out[1] = s->heads; s->out[2] = s->sq; s->out[3] = s->d;
      }
      break;
    default: break;
  }
  if( text && ntext ) snprintf(text, ntext, "%s", b.n ? gr_buf_cstr(&b) : "");
  gr_buf_free(&b);
  return scaled;
}

int gr_tiling_execute(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                      const gr_tplan *plan, uint64_t seed, gr_texec *x, gr_diags *notes){
  gr_tspec ss;
  memset(x, 0, sizeof *x);
  if( spec->strategy==GR_TS_CUSTOM ){
    gr_tnote(notes, GR_SEV_NOTE, GR_TC_EXECUTE, "plans of Lua tilings are validated, not executed (the operator's computation is unknown)");
    return 0;
  }
  if( spec->kernel==GR_K_NONE ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_EXECUTE, "the op type has no CPU kernel in the rules' compute table, so it cannot be executed");
    return -1;
  }
  if( gr_tspec_check(spec, notes) ) return -1;
  x->scaled = gr_tspec_scale(spec, &ss, x->scale_text, sizeof x->scale_text);
  if( x->scaled ){
    gr_diags sub;
    size_t i;
    gr_diags_init(&sub);
    if( gr_tiling_replan(&ss, params, chip, plan, &x->plan, &sub)==0 ) gr_tiling_validate(&x->plan, &ss, params, chip, &sub);
    for(i = 0; i < sub.n; i++)
      gr_tnote(notes, sub.v[i].sev, GR_TC_EXECUTE, "the plan of the scaled-down shapes (%s): %s", x->scale_text, sub.v[i].msg);
    if( sub.count[GR_SEV_ERROR] ){ gr_diags_free(&sub); return -1; }
    gr_diags_free(&sub);
  }else{
    gr_tplan_copy(&x->plan, plan);
  }
  return gr_tiling_run(x->scaled ? &ss : spec, params, chip, &x->plan, seed, x, notes);
}
