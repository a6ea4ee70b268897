/*
** t0303-tiling-conv2d.c: the conv2d tiling class (img2col onto a cube
** matmul): hand-checked geometry (M = Ho x Wo, K = C1 x kh x kw x C0,
** N = Cout per group), plans valid on Ascend910B1 and Ascend310P3 for
** strided, padded, dilated, grouped, fp16 and fp32 convolutions, the tiled
** execution agreeing with the direct reference convolution, and wrong plans
** caught: a feature-map buffer sized for row-aligned blocks only (the
** validator's `stated` check, and the executor refuses the tile), a K slab
** not a multiple of the L0 block, a dropped tile, a tile shifted off the
** output, and a chip whose L1 cannot hold one block (a `memory` error
** naming the buffer and the level).
** Rules: t/data/tiling/fixture.rules (which includes rules/tiling_classes.rules).
*/
#include "config.h"
#include "tiling/tiling.h"
#include "tiling/tiling_int.h"    /* gr_tconv_derive, gr_tconv_fmap_elems */
#include "tap.h"
#include "tiling-fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gr_tchip chipA, chipP, chipT;   /* 192 KiB UB, 256 KiB UB, the made-up TinyUB */
static gr_tparams prm;

static void setup(void){
  gr_error err;
  memset(&err, 0, sizeof err);
  tiling_fixture_load();
  tiling_fixture_chip("Ascend910B1", &chipA);
  tiling_fixture_chip("Ascend310P3", &chipP);
  tiling_fixture_chip("TinyUB", &chipT);
  if( gr_tiling_params(&fixture_tr, "conv2d", &prm, &err) ){ printf("Bail out! %s\n", err.msg); exit(1); }
}

static void show(const gr_diags *n){
  size_t i;
  for(i = 0; i < n->n; i++) diag("  %s [%s]: %s", gr_tcheck_name(gr_tcheck_of(&n->v[i])), n->v[i].code ? n->v[i].code : "-", n->v[i].msg);
}

/* N, groups, Cin and Cout per group, H, W, kernel, strides, pads (t, b, l, r), dilation, format */
static gr_tspec conv(int64_t cn, int64_t groups, int64_t cin, int64_t cout, int64_t hi, int64_t wi, int64_t kh, int64_t kw,
                     int64_t sh, int64_t sw, int64_t pt, int64_t pb, int64_t pl, int64_t pr, int64_t dil, int fmt){
  gr_tspec s;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_CONV2D; s.kernel = GR_K_CONV2D;
  s.cn = cn; s.groups = groups; s.cin = cin; s.cout = cout; s.hi = hi; s.wi = wi; s.kh = kh; s.kw = kw;
  s.sh = sh; s.sw = sw; s.pt = pt; s.pb = pb; s.pl = pl; s.pr = pr; s.dh = s.dw = dil;
  s.nin = 2; s.fin[0] = s.fin[1] = s.fout = (uint8_t)fmt;
  s.c0 = 32 / gr_tfmt_bytes(fmt);
  if( gr_tconv_derive(&s) ) diag("bad geometry");
  return s;
}

static int count_check(const gr_diags *d, int check){ return gr_tdiags_has(d, check); }

static void test_geometry(void){
  gr_tspec s = conv(2, 1, 3, 20, 17, 19, 3, 3, 2, 2, 1, 0, 2, 1, 1, GR_FMT_FP16);
  /* Ho = (17 + 1 - 3) / 2 + 1 = 8, Wo = (19 + 3 - 3) / 2 + 1 = 10 */
  is(s.ho, 8, "Ho from H 17, pads 1+0, kernel 3, stride 2");
  is(s.wo, 10, "Wo from W 19, pads 2+1, kernel 3, stride 2");
  is(s.m, 80, "M = Ho x Wo");
  is(s.k, 144, "K = C1 1 x 3 x 3 x C0 16 (Cin 3 padded to C0)");
  is(s.n, 20, "N = Cout");
  is(s.batch, 2, "batch = N x groups");
  s = conv(1, 4, 8, 2, 9, 9, 3, 3, 1, 1, 2, 2, 2, 2, 2, GR_FMT_FP32);
  is(s.k, 72, "fp32: C0 8, K = 1 x 3 x 3 x 8");
  is(s.batch, 4, "groups become batch");
  is(s.ho, 9, "dilation 2 with pads 2+2 keeps 9");
  /* 16 positions of 10-wide output rows can touch 3 output rows (from column 9): (3 - 1) x 2 + 3 input rows */
  s = conv(2, 1, 3, 20, 17, 19, 3, 3, 2, 2, 1, 0, 2, 1, 1, GR_FMT_FP16);
  is((int64_t)gr_tconv_fmap_elems(&s, 16, 16), 1 * 7 * 19 * 16, "fm1 holds 7 input rows x W 19 x C0 16 for a 16-position block");
}

typedef struct ccase { const char *name; gr_tspec s; } ccase;

static void test_plans(void){
  ccase cs[] = {
    { "fp16 3->20 17x19 k3 s2 pads 1,0,2,1", conv(2, 1, 3, 20, 17, 19, 3, 3, 2, 2, 1, 0, 2, 1, 1, GR_FMT_FP16) },
    { "fp32 40->33 23x21 k5x3 s1 pads 2", conv(1, 1, 40, 33, 23, 21, 5, 3, 1, 1, 2, 2, 1, 1, 1, GR_FMT_FP32) },
    { "fp16 groups 4, 8->2 per group, dilation 2", conv(1, 4, 8, 2, 9, 9, 3, 3, 1, 1, 2, 2, 2, 2, 2, GR_FMT_FP16) },
    { "fp16 depthwise 24 channels k3 s2", conv(1, 24, 1, 1, 31, 31, 3, 3, 2, 2, 1, 1, 1, 1, 1, GR_FMT_FP16) },
    { "fp16 1x1 64->96 14x14", conv(3, 1, 64, 96, 14, 14, 1, 1, 1, 1, 0, 0, 0, 0, 1, GR_FMT_FP16) },
    { "fp16 ResNet stem 3->64 224x224 k7 s2 (scaled)", conv(1, 1, 3, 64, 224, 224, 7, 7, 2, 2, 3, 3, 3, 3, 1, GR_FMT_FP16) },
  };
  const gr_tchip *chips[2] = { &chipA, &chipP };
  size_t ci;
  int k;
  char t[256];
  for(k = 0; k < 2; k++) for(ci = 0; ci < sizeof cs / sizeof *cs; ci++){
    gr_tplan pl;
    gr_texec x;
    gr_diags n;
    int planned;
    gr_diags_init(&n);
    memset(&x, 0, sizeof x);
    planned = gr_tiling_plan(&cs[ci].s, &prm, chips[k], &pl, &n)==0;
    snprintf(t, sizeof t, "%s on %s: plan valid", cs[ci].name, chips[k]->soc);
    ok(planned && gr_tiling_validate(&pl, &cs[ci].s, &prm, chips[k], &n)==0, t);
    if( planned ){
      gr_tiling_execute(&cs[ci].s, &prm, chips[k], &pl, 7, &x, &n);
      snprintf(t, sizeof t, "%s on %s: tiled img2col agrees with the direct convolution (max rel err %.3g, tolerance %.3g)",
               cs[ci].name, chips[k]->soc, x.max_rel_err, x.tolerance);
      ok(x.ran && x.match && x.tiles_executed==x.plan.ntiles && x.max_rel_err <= x.tolerance, t);
    }
    if( n.count[GR_SEV_ERROR] ) show(&n);
    gr_texec_free(&x);
    gr_diags_free(&n);
    gr_tplan_free(&pl);
  }
}

static void run(const gr_tspec *s, const gr_tplan *q, gr_texec *x, gr_diags *n){
  memset(x, 0, sizeof *x);
  gr_diags_init(n);
  gr_tiling_run(s, &prm, &chipA, q, 3, x, n);
}

static void test_wrong_plans(void){
  gr_tspec s = conv(1, 1, 20, 40, 15, 13, 3, 3, 1, 1, 1, 1, 1, 1, 1, GR_FMT_FP16);
  gr_tplan pl, q;
  gr_texec x;
  gr_diags n;
  size_t i, f = 0;
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &prm, &chipA, &pl, &n)==0 && gr_tiling_validate(&pl, &s, &prm, &chipA, &n)==0, "the base plan is valid");
  gr_diags_free(&n);
  for(i = 0; i < pl.nbuf; i++) if( strcmp(pl.buf[i].name, "fm1")==0 ) f = i;
  /* a planner that sizes fm1 for blocks starting at a row: ceil(bm / Wo) output rows, one too few */
  gr_tplan_copy(&q, &pl);
  {
    int64_t span = (q.tile[1] + s.wo - 1) / s.wo, rows = (span - 1) * s.sh + (s.kh - 1) * s.dh + 1;
    int64_t kc = s.kh * s.kw * s.c0, c1s = (q.inner[1] + kc - 2) / kc + 1;
    if( c1s > s.c1 ) c1s = s.c1;
    if( rows > s.hi ) rows = s.hi;
    q.buf[f].bytes = (uint64_t)(c1s * rows * s.wi * s.c0 * 2 + 31) / 32 * 32;
  }
  gr_diags_init(&n);
  ok(gr_tiling_validate(&q, &s, &prm, &chipA, &n) > 0 && count_check(&n, GR_TC_STATED), "fm1 sized for row-aligned blocks: a stated error");
  gr_diags_free(&n);
  run(&s, &q, &x, &n);
  ok(!x.match && count_check(&n, GR_TC_EXECUTE), "... and executing it refuses the straddling tiles (no overflow): a mismatch");
  gr_texec_free(&x); gr_diags_free(&n); gr_tplan_free(&q);
  /* a K slab that is not a multiple of the L0 block */
  gr_tplan_copy(&q, &pl);
  q.inner[1] = q.inner[0] + q.inner[0] / 2;
  gr_diags_init(&n);
  ok(gr_tiling_validate(&q, &s, &prm, &chipA, &n) > 0, "a K slab of 1.5 L0 blocks is rejected");
  gr_diags_free(&n);
  run(&s, &q, &x, &n);
  ok(!x.match && count_check(&n, GR_TC_EXECUTE), "... and not executed");
  gr_texec_free(&x); gr_diags_free(&n); gr_tplan_free(&q);
  /* a dropped tile */
  gr_tplan_copy(&q, &pl);
  q.ntiles--;
  gr_diags_init(&n);
  ok(gr_tiling_validate(&q, &s, &prm, &chipA, &n) > 0 && count_check(&n, GR_TC_COVERAGE), "a dropped tile is a coverage error");
  gr_diags_free(&n);
  run(&s, &q, &x, &n);
  ok(!x.match && x.never_written > 0, "... and its outputs are never written");
  gr_texec_free(&x); gr_diags_free(&n); gr_tplan_free(&q);
  /* the last tile shifted back one output position */
  gr_tplan_copy(&q, &pl);
  q.off[(q.ntiles - 1) * 3 + 1] -= 1;
  gr_diags_init(&n);
  ok(gr_tiling_validate(&q, &s, &prm, &chipA, &n) > 0 && count_check(&n, GR_TC_COVERAGE), "a tile shifted by one position is a coverage error");
  gr_diags_free(&n);
  run(&s, &q, &x, &n);
  ok(!x.match && x.written_twice > 0, "... and writes an output twice");
  gr_texec_free(&x); gr_diags_free(&n); gr_tplan_free(&q);
  gr_tplan_free(&pl);
}

static void test_small_chip(void){
  gr_tspec s = conv(1, 1, 16, 16, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, GR_FMT_FP16);
  gr_tplan pl;
  gr_diags n;
  size_t i;
  int named = 0;
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &prm, &chipT, &pl, &n) < 0 && count_check(&n, GR_TC_MEMORY), "TinyUB: no conv2d block fits, a memory error");
  for(i = 0; i < n.n; i++) if( strstr(n.v[i].msg, "bytes of l1 (fm1 2x") && strstr(n.v[i].msg, "TinyUB") ) named = 1;
  ok(named, "... naming L1 and its fm1 buffer");
  if( !named ) show(&n);
  gr_diags_free(&n);
  gr_tplan_free(&pl);
}

int main(void){
  setup();
  test_geometry();
  test_plans();
  test_wrong_plans();
  test_small_chip();
  gr_ruleset_free(fixture_rs);
  return done_testing();
}
