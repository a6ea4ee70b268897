/*
** t0302-tiling-property.c: a planner never hands out a plan its own
** validator rejects. For every tiling class of the shipped rules
** ($GERULES_RULES) and every chip (chips with the same memories and core
** counts plan alike, so each distinct set of numbers is run once, named by
** its first SoC), a few thousand generated specs in all (shapes with tails,
** primes, powers of two and their neighbours, size-1 and size-0 dims, tiny
** and huge sizes up to and past the 2^48-element cap; every storage format)
** are planned: each plan must pass gr_tiling_validate with no error, or the
** planner must refuse with a clear reason: a "memory" error (nothing fits),
** a "limit" error (beyond what a plan may describe) or a "cores" error (no
** cores). The seed is fixed, so the run is the same every time; the test
** checks outcomes, never time.
*/
#include "config.h"
#include "tiling/tiling.h"
#include "tiling/tiling_int.h"    /* gr_tconv_derive */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPECS_PER_PAIR 30      /* specs per (class, distinct chip) */

static gr_ruleset *rs;
static gr_tiling_rules tr;

static const char *nm(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *nm(const char *fmt, ...){
  static char b[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  return b;
}

/* ---- a deterministic generator (splitmix64) ---- */
static uint64_t rs_state = 0x243f6a8885a308d3ull;
static uint64_t rnd(void){
  uint64_t z = (rs_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int64_t pick(int64_t lo, int64_t hi){ return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* a dim: mostly ordinary, with the shapes planners get wrong */
static int64_t dim(int huge_ok){
  static const int64_t primes[] = { 2, 3, 5, 7, 11, 13, 17, 31, 61, 127, 251, 509, 1021, 4093, 8191, 65521 };
  int c = (int)pick(0, 99);
  if( c < 12 ) return 1;
  if( c < 30 ) return primes[pick(0, (int64_t)(sizeof primes / sizeof *primes) - 1)];
  if( c < 50 ) return ((int64_t)1 << pick(1, 14)) + pick(-1, 1);      /* powers of two and their tails */
  if( c < 88 ) return pick(1, 5000);
  if( c < 92 ) return 0;
  if( !huge_ok || c < 96 ) return pick(5000, 200000);
  if( c < 99 ) return (int64_t)1 << pick(20, 40);
  return INT64_MAX - pick(0, 3);                                     /* near the top: a limit error */
}

static uint8_t fmt(void){ return (uint8_t)pick(GR_FMT_FP16, GR_FMT_N - 1); }

/* elements of the output of a spec (saturating) */
static double out_elems(const gr_tspec *s){
  double v = 1;
  uint32_t d;
  for(d = 0; d < s->ndim; d++) v *= (double)s->out[d];
  return v;
}

static void gen_one(int strategy, const gr_tparams *p, gr_tspec *s);

/* Specs between 2^22 and 2^36 output elements are plannable but enumerate
** up to 2^20 tiles each (slow to check thousands of): most are redrawn, so
** the run stays short while tiny, ordinary and beyond-the-cap specs stay. */
static void gen_spec(int strategy, const gr_tparams *p, gr_tspec *s){
  int tries;
  for(tries = 0; tries < 20; tries++){
    double v;
    gen_one(strategy, p, s);
    v = out_elems(s);
    if( v <= 4194304.0 || v >= 68719476736.0 || pick(0, 19)==0 ) return;
  }
}

static void gen_one(int strategy, const gr_tparams *p, gr_tspec *s){
  uint32_t i, d;
  memset(s, 0, sizeof *s);
  s->strategy = strategy;
  switch( strategy ){
    case GR_TS_ELEMENTWISE:
      s->ndim = (uint32_t)pick(1, 4);
      for(d = 0; d < s->ndim; d++) s->out[d] = dim(1);
      s->fout = fmt();
      s->nin = p->buffers > 1 && p->buffers - 1 <= GR_TMAXIN ? p->buffers - 1 : 1;
      for(i = 0; i < s->nin; i++){
        uint32_t nd = (uint32_t)pick(1, s->ndim);
        s->in_ndim[i] = nd;
        for(d = 0; d < nd; d++) s->in[i][d] = pick(0, 3)==0 ? 1 : s->out[s->ndim - nd + d];   /* broadcast */
        s->fin[i] = pick(0, 2) ? s->fout : fmt();
      }
      break;
    case GR_TS_REDUCE_LAST:
      s->rows = pick(0, 2) ? dim(1) : dim(0) * dim(0);
      s->cols = dim(1);
      s->ndim = 2; s->out[0] = s->rows; s->out[1] = s->cols;
      s->nin = 1; s->in_ndim[0] = 2; s->in[0][0] = s->rows; s->in[0][1] = s->cols;
      s->fin[0] = fmt(); s->fout = pick(0, 2) ? s->fin[0] : fmt();
      s->nres = p->nresident;
      for(i = 0; i < s->nres; i++) s->fres[i] = fmt();
      s->nstat = (uint32_t)pick(0, 2);
      for(i = 0; i < s->nstat; i++) s->fstat[i] = fmt();
      s->eps = 1e-6;
      break;
    case GR_TS_MATMUL:
      s->batch = pick(0, 2) ? 1 : dim(1);
      s->m = dim(1); s->n = dim(1); s->k = pick(0, 9) ? dim(1) : dim(1) * 64;   /* sometimes a huge K */
      s->batch_a = pick(0, 1) ? s->batch : 1;
      s->batch_b = s->batch_a==1 ? s->batch : (pick(0, 1) ? s->batch : 1);
      s->ndim = 3; s->out[0] = s->batch; s->out[1] = s->m; s->out[2] = s->n;
      s->nin = 2; s->fin[0] = fmt(); s->fin[1] = pick(0, 2) ? s->fin[0] : fmt(); s->fout = fmt();
      break;
    case GR_TS_ATTENTION: {
      static const int64_t ds[] = { 64, 128, 96, 80, 1, 3, 256, 17 };
      int64_t g;
      s->b = pick(0, 2) ? 1 : dim(0);
      s->heads = pick(1, 64);
      g = pick(1, 4);
      s->kv_heads = s->heads % g==0 ? s->heads / g : s->heads;
      s->sq = dim(1); s->skv = dim(1);
      s->d = pick(0, 5) ? ds[pick(0, 7)] : dim(0);
      s->layout = GR_LAYOUT_BNSD;
      s->scale = 0.125;
      s->ndim = 4; s->out[0] = s->b; s->out[1] = s->heads; s->out[2] = s->sq; s->out[3] = s->d;
      s->nin = 3; s->fin[0] = pick(0, 1) ? GR_FMT_FP16 : fmt(); s->fin[1] = s->fin[0]; s->fin[2] = pick(0, 3) ? s->fin[0] : fmt();
      s->fout = s->fin[0];
      break;
    }
    case GR_TS_CONV2D:
      /* an image of ordinary size (sometimes a huge one), a kernel that fits */
      s->cn = pick(0, 2) ? 1 : pick(1, 8);
      s->groups = pick(0, 3) ? 1 : pick(2, 32);
      s->cin = pick(0, 4) ? pick(1, 512) : dim(0);
      s->cout = pick(0, 4) ? pick(1, 512) : dim(0);
      s->hi = pick(0, 9) ? pick(1, 320) : dim(1);
      s->wi = pick(0, 9) ? pick(1, 320) : dim(1);
      s->kh = pick(1, 7); s->kw = pick(0, 2) ? s->kh : pick(1, 7);
      s->sh = pick(1, 3); s->sw = pick(0, 2) ? s->sh : pick(1, 3);
      s->dh = pick(0, 4) ? 1 : pick(1, 3); s->dw = s->dh;
      s->pt = pick(0, 3); s->pb = pick(0, 3); s->pl = pick(0, 3); s->pr = pick(0, 3);
      s->nin = 2; s->fin[0] = pick(0, 1) ? GR_FMT_FP16 : GR_FMT_FP32; s->fin[1] = s->fin[0]; s->fout = pick(0, 2) ? s->fin[0] : fmt();
      s->c0 = 32 / gr_tfmt_bytes(s->fin[0]);
      if( gr_tconv_derive(s) ){ s->kh = s->kw = 1; s->dh = s->dw = 1; gr_tconv_derive(s); }
      break;
    default: break;
  }
}

static void spec_text(char *b, size_t n, const gr_tspec *s){
  switch( s->strategy ){
    case GR_TS_REDUCE_LAST: snprintf(b, n, "rows %lld cols %lld fmt %d/%d", (long long)s->rows, (long long)s->cols, s->fin[0], s->fout); break;
    case GR_TS_CONV2D: snprintf(b, n, "N %lld groups %lld Cin %lld Cout %lld %lldx%lld kernel %lldx%lld strides %lldx%lld fmt %d", (long long)s->cn,
                                (long long)s->groups, (long long)s->cin, (long long)s->cout, (long long)s->hi, (long long)s->wi,
                                (long long)s->kh, (long long)s->kw, (long long)s->sh, (long long)s->sw, s->fin[0]); break;
    case GR_TS_MATMUL: snprintf(b, n, "batch %lld (a %lld, b %lld) M %lld N %lld K %lld fmt %d/%d/%d", (long long)s->batch,
                                (long long)s->batch_a, (long long)s->batch_b, (long long)s->m, (long long)s->n, (long long)s->k,
                                s->fin[0], s->fin[1], s->fout); break;
    case GR_TS_ATTENTION: snprintf(b, n, "B %lld heads %lld/%lld Sq %lld Skv %lld D %lld fmt %d", (long long)s->b, (long long)s->heads,
                                   (long long)s->kv_heads, (long long)s->sq, (long long)s->skv, (long long)s->d, s->fin[0]); break;
    default: {
      size_t k = 0;
      uint32_t d;
      k += (size_t)snprintf(b + k, n - k, "out [");
      for(d = 0; d < s->ndim && k < n; d++) k += (size_t)snprintf(b + k, n - k, "%s%lld", d ? ", " : "", (long long)s->out[d]);
      if( k < n ) snprintf(b + k, n - k, "] fmt %d, %u inputs", s->fout, s->nin);
    }
  }
}

static void show(const gr_diags *d){
  size_t i;
  for(i = 0; i < d->n && i < 6; i++) diag("    %s %s: %s", gr_severity_name(d->v[i].sev), gr_tcheck_name(gr_tcheck_of(&d->v[i])), d->v[i].msg);
}

/* a refusal a user can act on: nothing fits, beyond the caps, no cores */
static int clear_refusal(const gr_diags *d){
  size_t i, ok = 0;
  for(i = 0; i < d->n; i++){
    int c = gr_tcheck_of(&d->v[i]);
    if( d->v[i].sev != GR_SEV_ERROR ) continue;
    if( (c==GR_TC_MEMORY || c==GR_TC_LIMIT || c==GR_TC_CORES) && d->v[i].msg && d->v[i].msg[0] ) ok++;
    else return 0;
  }
  return ok > 0;
}

int main(void){
  const char *path = getenv("GERULES_RULES");
  gr_diags d;
  gr_error err;
  gr_tchip chips[256];
  size_t nchips = 0, c, k, ci;
  const char *classes[64];
  size_t ncls = 0;
  size_t planned = 0, refused = 0, by_strategy[GR_TS_CUSTOM + 1][2];
  memset(by_strategy, 0, sizeof by_strategy);
  if( path==NULL || !*path ) path = GR_SRCDIR "/rules";
  gr_diags_init(&d);
  if( (rs = gr_ruleset_load(&path, 1, &d))==NULL ){ printf("Bail out! cannot load %s\n", path); return 1; }
  gr_diags_free(&d);
  memset(&err, 0, sizeof err);
  if( gr_tiling_rules_init(&tr, rs, &err) ){ printf("Bail out! %s\n", err.msg); return 1; }
  /* the distinct chips */
  for(c = 0; c < rs->nsocs; c++){
    gr_tchip ch;
    size_t j;
    gr_tiling_chip(&tr, (int)c, &ch);
    for(j = 0; j < nchips; j++)
      if( memcmp(chips[j].cap, ch.cap, sizeof ch.cap)==0 && memcmp(chips[j].cores, ch.cores, sizeof ch.cores)==0 ) break;
    if( j==nchips && nchips < sizeof chips / sizeof *chips ) chips[nchips++] = ch;
  }
  ok(rs->nsocs > 0 && nchips > 1, nm("%zu chips of the rule set, %zu distinct sets of memories and cores", rs->nsocs, nchips));
  /* the classes of the class table */
  for(k = 0; k < tr.classes->n; k++){
    const gr_expr *e = tr.classes->vals[k];
    size_t j;
    if( e==NULL || e->op != GR_E_STR ) continue;
    for(j = 0; j < ncls; j++) if( strcmp(classes[j], e->s)==0 ) break;
    if( j==ncls && ncls < sizeof classes / sizeof *classes ) classes[ncls++] = e->s;
  }
  ok(ncls >= 5, nm("%zu tiling classes in the class table", ncls));
  for(k = 0; k < ncls; k++){
    gr_tparams p;
    size_t bad = 0, unclear = 0, nplan = 0, nref = 0, first_bad_printed = 0;
    if( gr_tiling_params(&tr, classes[k], &p, &err) ){ ok(0, nm("class %s: parameters (%s)", classes[k], err.msg)); continue; }
    if( p.strategy==GR_TS_CUSTOM ) continue;
    for(ci = 0; ci < nchips; ci++){
      int i;
      for(i = 0; i < SPECS_PER_PAIR; i++){
        gr_tspec s;
        gr_tplan plan;
        gr_diags n;
        char txt[256];
        gen_spec(p.strategy, &p, &s);
        gr_diags_init(&n);
        if( gr_tiling_plan(&s, &p, &chips[ci], &plan, &n)==0 ){
          size_t errs = gr_tiling_validate(&plan, &s, &p, &chips[ci], &n);
          nplan++;
          if( errs || n.count[GR_SEV_ERROR] ){
            if( bad++ < 3 ){
              spec_text(txt, sizeof txt, &s);
              diag("  class %s on %s: %s: the planner's plan fails validation", classes[k], chips[ci].soc, txt);
              show(&n);
            }
          }
        }else{
          nref++;
          if( !clear_refusal(&n) && unclear++ < 3 ){
            spec_text(txt, sizeof txt, &s);
            diag("  class %s on %s: %s: refused without a clear reason", classes[k], chips[ci].soc, txt);
            show(&n);
          }
        }
        gr_tplan_free(&plan);
        gr_diags_free(&n);
      }
    }
    (void)first_bad_printed;
    planned += nplan; refused += nref;
    by_strategy[p.strategy][0] += nplan; by_strategy[p.strategy][1] += nref;
    ok(bad==0, nm("class %s: every one of %zu plans on %zu chips validates (%zu failed)", classes[k], nplan, nchips, bad));
    ok(unclear==0, nm("class %s: every one of %zu refusals says why (memory, limit or cores) (%zu did not)", classes[k], nref, unclear));
  }
  diag("%zu specs planned and valid, %zu refused with a reason", planned, refused);
  /* not vacuous: most specs do get a plan, for every strategy */
  {
    int st;
    for(st = GR_TS_ELEMENTWISE; st <= GR_TS_CONV2D; st++){
      size_t tot = by_strategy[st][0] + by_strategy[st][1];
      ok(tot > 0 && by_strategy[st][0] * 10 >= tot * 6,
         nm("%s: %zu of %zu generated specs planned (at least 60%%)", gr_tstrategy_name(st), by_strategy[st][0], tot));
    }
  }
  gr_ruleset_free(rs);
  return done_testing();
}
