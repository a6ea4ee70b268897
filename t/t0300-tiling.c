/*
** t0300-tiling.c: unit tests of the tiling executor (tiling.h): the roles
** and class parameters read from the rules; hand-computed plans of every
** class (element-wise, last-axis reduction with and without row splitting,
** matrix multiply, attention) on a 192 KiB UB chip (Ascend910B1) and a
** 256 KiB UB chip (Ascend310P3); node -> spec from a graph; a mutation test
** that corrupts valid plans of every class in every way the validator knows
** and checks each is rejected with the right check; --execute agreement of
** every class on odd, non-divisible shapes, and the executor catching wrong
** plans; conversion and validation of custom (Lua) tilings.
** Rules: t/data/tiling/fixture.rules (which includes rules/tiling_classes.rules).
*/
#include "config.h"
#include "tiling/tiling.h"
#include "tap.h"
#include "tiling-fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gr_tchip chipA, chipP;     /* 192 KiB UB, 256 KiB UB */

static void setup(void){
  tiling_fixture_load();
  tiling_fixture_chip("Ascend910B1", &chipA);
  tiling_fixture_chip("Ascend310P3", &chipP);
}

static gr_tparams params(const char *cls){
  gr_tparams p;
  gr_error err;
  memset(&err, 0, sizeof err);
  if( gr_tiling_params(&fixture_tr, cls, &p, &err) ) diag("params %s: %s", cls, err.msg);
  return p;
}

static void show_notes(const gr_diags *n){
  size_t i;
  for(i = 0; i < n->n; i++) diag("  %s %s [%s]: %s", gr_severity_name(n->v[i].sev), gr_tcheck_name(gr_tcheck_of(&n->v[i])),
                                 n->v[i].code ? n->v[i].code : "-", n->v[i].msg);
}

/* an error of the check named `name` (the tests name checks as the report does) */
static int has_check(const gr_diags *d, const char *name){
  int c;
  for(c = 1; c < GR_TC_N; c++) if( strcmp(gr_tcheck_name(c), name)==0 ) return gr_tdiags_has(d, c);
  return 0;
}

/* plans and validates; returns the number of validation errors (-1: no plan) */
static int plan_ok(const gr_tspec *s, const gr_tparams *p, const gr_tchip *c, gr_tplan *plan){
  gr_diags n;
  int rc;
  gr_diags_init(&n);
  if( gr_tiling_plan(s, p, c, plan, &n) ){ show_notes(&n); gr_diags_free(&n); return -1; }
  rc = (int)gr_tiling_validate(plan, s, p, c, &n);
  if( rc ) show_notes(&n);
  gr_diags_free(&n);
  return rc;
}

static gr_tspec ew(int kernel, int fin, int fout, uint32_t ndim, const int64_t *out, uint32_t nin,
                   const int64_t *in1, uint32_t in1nd){
  gr_tspec s;
  uint32_t i;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_ELEMENTWISE;
  s.kernel = kernel;
  s.ndim = ndim;
  memcpy(s.out, out, ndim * sizeof *out);
  s.nin = nin;
  for(i = 0; i < nin; i++){ s.fin[i] = (uint8_t)fin; s.in_ndim[i] = ndim; memcpy(s.in[i], out, ndim * sizeof *out); }
  if( in1 ){ s.in_ndim[1] = in1nd; memcpy(s.in[1], in1, in1nd * sizeof *in1); }
  s.fout = (uint8_t)fout;
  return s;
}

static gr_tspec red(int kernel, int f, int64_t rows, int64_t cols, uint32_t nres, uint32_t nstat){
  gr_tspec s;
  uint32_t i;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_REDUCE_LAST;
  s.kernel = kernel;
  s.rows = rows; s.cols = cols;
  s.ndim = 2; s.out[0] = rows; s.out[1] = cols;
  s.nin = 1; s.in_ndim[0] = 2; s.in[0][0] = rows; s.in[0][1] = cols;
  s.fin[0] = s.fout = (uint8_t)f;
  s.nres = nres; s.nstat = nstat;
  for(i = 0; i < nres; i++) s.fres[i] = (uint8_t)f;
  for(i = 0; i < nstat; i++) s.fstat[i] = GR_FMT_FP32;
  s.eps = 1e-6;
  return s;
}

static gr_tspec mm(int f, int64_t batch, int64_t m, int64_t n, int64_t k){
  gr_tspec s;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_MATMUL;
  s.kernel = GR_K_MATMUL;
  s.batch = s.batch_a = s.batch_b = batch;
  s.m = m; s.n = n; s.k = k;
  s.nin = 2; s.fin[0] = s.fin[1] = s.fout = (uint8_t)f;
  s.ndim = 3; s.out[0] = batch; s.out[1] = m; s.out[2] = n;
  return s;
}

static gr_tspec att(int f, int64_t b, int64_t heads, int64_t kvh, int64_t sq, int64_t skv, int64_t d){
  gr_tspec s;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_ATTENTION;
  s.kernel = GR_K_ATTENTION;
  s.b = b; s.heads = heads; s.kv_heads = kvh; s.sq = sq; s.skv = skv; s.d = d;
  s.layout = GR_LAYOUT_BNSD;
  s.scale = 1.0 / sqrt((double)d);
  s.nin = 3; s.fin[0] = s.fin[1] = s.fin[2] = s.fout = (uint8_t)f;
  s.ndim = 4; s.out[0] = b; s.out[1] = heads; s.out[2] = sq; s.out[3] = d;
  return s;
}

#define IS_PLAN(pl, bd, ntiles_, loops, tails) do{ \
    is((pl).block_dim, (bd), "  block_dim"); is((pl).ntiles, (ntiles_), "  tiles"); \
    is((pl).loops_per_core, (loops), "  loops per core"); is((pl).tail_tiles, (tails), "  tail tiles"); }while(0)

/* ------------------------------------------------------------------ rules */

static void test_rules(void){
  gr_tparams p;
  gr_error err;
  is(chipA.cap[GR_MEM_UB], 196608, "Ascend910B1 UB from the rules (role ub -> ub_bytes)");
  is(chipP.cap[GR_MEM_UB], 262144, "Ascend310P3 UB");
  is(chipA.cores[0], 48, "vector cores of Ascend910B1");
  is(chipP.cores[1], 0, "Ascend310P3 has no separate cube cores");
  is_str(gr_tiling_class_of(&fixture_tr, "MatMulV2"), "matmul", "MatMulV2 -> matmul (tiling_class table)");
  ok(gr_tiling_class_of(&fixture_tr, "RotaryMul")==NULL, "RotaryMul has no class");
  p = params("matmul");
  is(gr_tchip_cores(&chipP, &p), 8, "cube class on Ascend310P3 falls back to the AI cores");
  is(p.strategy, GR_TS_MATMUL, "class matmul uses the matmul strategy");
  is(p.align, 32, "align_bytes from the class table");
  p = params("rms_norm");
  is(p.nresident, 1, "rms_norm keeps one resident input");
  memset(&err, 0, sizeof err);
  ok(gr_tiling_params(&fixture_tr, "no_such_class", &p, &err) < 0, "a class without parameters is an error");
  like(err.msg, "tiling_params_no_such_class", "  naming the missing table");
}

/* ------------------------------------------------------------------ hand-computed plans */

static void test_elementwise_plans(void){
  gr_tparams p = params("eltwise_binary");
  gr_tplan pl;
  int64_t n1000[1] = { 1000 }, big[2] = { 48, 40000 };
  gr_tspec s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 1, n1000, 2, NULL, 0);

  /* fp16, 3 buffers x 2 copies: 12 bytes per element; unit 16 elements.
  ** A: chunk = align16(ceil(1000/48)=21) = 32 -> 32 cores, tile 32, last [992,1000) */
  is(plan_ok(&s, &p, &chipA, &pl), 0, "Add fp16 [1000] on Ascend910B1: valid");
  is(pl.tile[0], 32, "  tile 32");
  IS_PLAN(pl, 32, 32, 1, 1);
  is(pl.used[GR_MEM_UB], 384, "  UB 3 buffers x 2 copies x 64 bytes");
  is(pl.off[31], 992, "  last tile starts at 992");
  is(pl.len[31], 8, "  and is an 8-element tail");
  gr_tplan_free(&pl);
  /* P: 7 vector cores: chunk = align16(143) = 144 -> 7 cores, last [864,1000) */
  is(plan_ok(&s, &p, &chipP, &pl), 0, "Add fp16 [1000] on Ascend310P3: valid");
  is(pl.tile[0], 144, "  tile 144");
  IS_PLAN(pl, 7, 7, 1, 1);
  is(pl.used[GR_MEM_UB], 1728, "  UB 3 x 2 x 288");
  gr_tplan_free(&pl);

  /* fp32 [48, 40000]: 24 bytes per element; A: tile_max 8192, chunk 40000 ->
  ** 5 loops of 8000; P: tile_max 10920, chunk align8(274286) = 274288 -> 26
  ** loops of align8(10550) = 10552, every core ends with a tail */
  s = ew(GR_K_ADD, GR_FMT_FP32, GR_FMT_FP32, 2, big, 2, NULL, 0);
  is(plan_ok(&s, &p, &chipA, &pl), 0, "Add fp32 [48, 40000] on Ascend910B1: valid");
  is(pl.tile[0], 8000, "  tile 8000 (UB-limited to 8192, equalised)");
  IS_PLAN(pl, 48, 240, 5, 0);
  is(pl.used[GR_MEM_UB], 192000, "  UB 6 x 32000");
  gr_tplan_free(&pl);
  is(plan_ok(&s, &p, &chipP, &pl), 0, "Add fp32 [48, 40000] on Ascend310P3: valid");
  is(pl.tile[0], 10552, "  tile 10552 (256 KiB UB)");
  IS_PLAN(pl, 7, 182, 26, 7);
  is(pl.used[GR_MEM_UB], 253248, "  UB 6 x 42208");
  gr_tplan_free(&pl);
}

static void test_reduce_plans(void){
  gr_tparams p = params("rms_norm"), sm = params("softmax_last");
  gr_tplan pl;
  gr_tspec s = red(GR_K_RMS_NORM, GR_FMT_FP16, 64, 1000, 1, 1);
  /* per row: x, y 2 x align32(2000)=2016, tmp 4000; gamma 2016; stat/acc padded.
  ** A: 16 rows fit, 64 rows / 48 cores -> 2 rows per core on 32 cores. */
  is(plan_ok(&s, &p, &chipA, &pl), 0, "RmsNorm fp16 [64, 1000] on Ascend910B1: valid");
  is(pl.tile[0], 2, "  2 rows per tile");
  is(pl.tile[1], 1000, "  whole rows");
  IS_PLAN(pl, 32, 32, 1, 0);
  is(pl.used[GR_MEM_UB], 26208, "  UB 8064 + 8064 + 8000 + 2016 + 32 + 32 (rows padded to 2016 bytes)");
  gr_tplan_free(&pl);
  /* P: 21 rows fit; 7 cores -> 10 rows per core, the last core 4 */
  is(plan_ok(&s, &p, &chipP, &pl), 0, "RmsNorm fp16 [64, 1000] on Ascend310P3: valid");
  is(pl.tile[0], 10, "  10 rows per tile");
  IS_PLAN(pl, 7, 7, 1, 1);
  is(pl.used[GR_MEM_UB], 122816, "  UB 12064 x 10 + 2016 + 64 + 96");
  gr_tplan_free(&pl);
  /* a row of 100000 fp32 does not fit: column chunks of align8(ceil(100000/11)) = 9096 */
  s = red(GR_K_SOFTMAX, GR_FMT_FP32, 3, 100000, 0, 0);
  is(plan_ok(&s, &sm, &chipA, &pl), 0, "SoftmaxV2 fp32 [3, 100000] on Ascend910B1: valid");
  is(pl.tile[0], 1, "  one row per tile");
  is(pl.tile[1], 9096, "  rows split into 11 chunks of 9096");
  IS_PLAN(pl, 3, 33, 11, 3);
  is(pl.used[GR_MEM_UB], 181952, "  UB 20 x 9096 + 32");
  gr_tplan_free(&pl);
}

static void test_matmul_plans(void){
  gr_tparams p = params("matmul");
  gr_tplan pl;
  gr_tspec s = mm(GR_FMT_FP16, 1, 40, 56, 72);
  /* every candidate fits in one loop on 24 cores; GM traffic per block is least
  ** for 16 x 16; K 72 -> aligned 80: K block 64 (16, 32, 64 tried), slab 64 */
  is(plan_ok(&s, &p, &chipA, &pl), 0, "MatMul fp16 40x72 . 72x56 on Ascend910B1: valid");
  is(pl.tile[1], 16, "  block M 16");
  is(pl.tile[2], 16, "  block N 16");
  is(pl.inner[0], 64, "  K block 64 in L0");
  is(pl.inner[1], 64, "  K slab 64 in L1");
  IS_PLAN(pl, 12, 12, 1, 6);
  is(pl.used[GR_MEM_L1], 8192, "  L1 a1 2x2048 + b1 2x2048");
  is(pl.used[GR_MEM_L0A], 4096, "  L0A 2 x 16x64x2");
  is(pl.used[GR_MEM_L0C], 1024, "  L0C 16x16 FP32");
  is(pl.used[GR_MEM_UB], 1024, "  UB 2 x 16x16x2 for copy-out");
  gr_tplan_free(&pl);
  /* 8 AI cores: 16x16 needs 2 loops; 16x32 (6 blocks) is the cheapest single loop */
  is(plan_ok(&s, &p, &chipP, &pl), 0, "the same on Ascend310P3: valid");
  is(pl.tile[1], 16, "  block M 16");
  is(pl.tile[2], 32, "  block N 32");
  IS_PLAN(pl, 6, 6, 1, 4);
  gr_tplan_free(&pl);
  /* the LLM projection 128x4096 . 4096x4096: A: L0C 128x176x4 = 90112 <= 131072,
  ** L0B 64x176x2x2 fits (128 would not), L1 1216 x 384 <= 524288, 24 blocks */
  s = mm(GR_FMT_FP16, 1, 128, 4096, 4096);
  is(plan_ok(&s, &p, &chipA, &pl), 0, "q_proj 128x4096x4096 on Ascend910B1: valid");
  is(pl.tile[1], 128, "  block M 128");
  is(pl.tile[2], 176, "  block N 176");
  is(pl.inner[0], 64, "  K block 64");
  is(pl.inner[1], 384, "  K slab 384");
  IS_PLAN(pl, 24, 24, 1, 1);
  is(pl.used[GR_MEM_L0C], 90112, "  L0C 90112");
  is(pl.used[GR_MEM_L1], 466944, "  L1 466944");
  gr_tplan_free(&pl);
  /* P: L0C 256 KiB allows 128x256; 16 blocks on 8 cores; L1 1536 x 640 */
  is(plan_ok(&s, &p, &chipP, &pl), 0, "q_proj on Ascend310P3: valid");
  is(pl.tile[2], 256, "  block N 256 (bigger L0C)");
  is(pl.inner[1], 640, "  K slab 640 (bigger L1)");
  IS_PLAN(pl, 8, 16, 2, 0);
  gr_tplan_free(&pl);
}

static void test_attention_plans(void){
  gr_tparams p = params("attention_fia");
  gr_tplan pl;
  gr_tspec s = att(GR_FMT_FP16, 1, 32, 32, 128, 128, 128);
  /* A: 128 query rows per tile (2 loops); the UB holds 768 x kv + 132096 bytes,
  ** so KV blocks up to 80 fit and 64 (same number of steps, found first) is used */
  is(plan_ok(&s, &p, &chipA, &pl), 0, "attention B1 N32 S128 D128 on Ascend910B1: valid");
  is(pl.tile[2], 128, "  128 query rows per tile");
  is(pl.inner[0], 64, "  KV block 64");
  IS_PLAN(pl, 24, 32, 2, 0);
  is(pl.used[GR_MEM_UB], 181248, "  UB 768 x 64 + 132096");
  gr_tplan_free(&pl);
  is(plan_ok(&s, &p, &chipP, &pl), 0, "the same on Ascend310P3: valid");
  is(pl.inner[0], 128, "  KV block 128 (256 KiB UB; L0B caps it at 128)");
  IS_PLAN(pl, 8, 32, 4, 0);
  is(pl.used[GR_MEM_UB], 230400, "  UB 768 x 128 + 132096");
  gr_tplan_free(&pl);
}

/* ------------------------------------------------------------------ node -> spec */

static void test_spec_from_graph(void){
  gr_error err;
  gr_graph *g;
  uint32_t n;
  gr_tparams p;
  gr_tspec s;
  gr_diags notes;
  gr_tplan pl;
  memset(&err, 0, sizeof err);
  g = gr_graph_load_file(GR_SRCDIR "/examples/llm_decoder.json", &err);
  ok(g!=NULL, "examples/llm_decoder.json loads");
  if( g==NULL ) return;
  gr_diags_init(&notes);
  gr_graph_find_node(g, "layer0/attn/q_proj", &n);
  is(gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes), GR_TS_MATMUL, "q_proj: matmul");
  is(s.m, 128, "  x1 [1,128,4096] folds into M = 128");
  is(s.n, 4096, "  transpose_x2: N from x2 [4096, 4096] dim 0");
  is(s.k, 4096, "  K 4096");
  is(s.fin[0], GR_FMT_FP16, "  DT_FLOAT16 -> fp16 (tiling_dtypes)");
  gr_graph_find_node(g, "layer0/attn/fused_infer_attention", &n);
  is(gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes), GR_TS_ATTENTION, "FusedInferAttentionScore: attention");
  is(s.heads, 32, "  num_heads 32");
  is(s.d, 128, "  BSH hidden 4096 / 32 heads = head dim 128");
  ok(fabs(s.scale - 0.0883883) < 1e-6, "  scale from the attribute");
  gr_graph_find_node(g, "layer0/input_norm", &n);
  is(gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes), GR_TS_REDUCE_LAST, "RmsNorm: reduce_last");
  is(s.rows, 128, "  rows 1 x 128");
  is(s.nres, 1, "  gamma resident");
  is(s.nstat, 1, "  rstd is a per-row output");
  is(s.fstat[0], GR_FMT_FP32, "  rstd is FP32");
  gr_graph_find_node(g, "layer0/mlp/mul", &n);
  is(gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes), GR_TS_ELEMENTWISE, "Mul: elementwise");
  is(notes.count[GR_SEV_ERROR], 0, "no problem in any of them");
  is(plan_ok(&s, &p, &chipA, &pl), 0, "  Mul plans and validates");
  gr_tplan_free(&pl);
  gr_graph_find_node(g, "layer0/attn/q_rope", &n);
  is(gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes), GR_TS_NONE, "RotaryMul: no strategy");
  gr_diags_free(&notes);
  gr_graph_free(g);
  /* a broadcast that does not broadcast, and a dynamic shape */
  {
    static const char json[] =
      "{\"graph\":[{\"name\":\"g\",\"op\":["
      "{\"name\":\"x\",\"type\":\"Data\",\"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[4,5]}}]},"
      "{\"name\":\"add\",\"type\":\"Add\",\"input\":[\"x:0\",\"x:0\"],"
      " \"input_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[4,5]}},{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[3]}}],"
      " \"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[4,5]}}]},"
      "{\"name\":\"dyn\",\"type\":\"Relu\",\"input\":[\"x:0\"],"
      " \"input_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[-1,5]}}],"
      " \"output_desc\":[{\"dtype\":\"DT_FLOAT\",\"shape\":{\"dim\":[-1,5]}}]}]}]}";
    g = gr_graph_load_mem(json, sizeof json - 1, &err);
    ok(g!=NULL, "a small graph loads");
    if( g ){
      gr_diags_init(&notes);
      gr_graph_find_node(g, "add", &n);
      gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes);
      ok(notes.count[GR_SEV_ERROR]==1 && strstr(notes.v[0].msg, "does not broadcast"), "input [3] does not broadcast to [4, 5]: a shape problem");
      gr_diags_free(&notes);
      gr_diags_init(&notes);
      gr_graph_find_node(g, "dyn", &n);
      gr_tiling_spec(&fixture_tr, g, n, &p, &s, &notes);
      ok(notes.count[GR_SEV_ERROR]==1 && strstr(notes.v[0].msg, "dynamic shape"), "a dynamic shape cannot be planned");
      gr_diags_free(&notes);
      gr_graph_free(g);
    }
  }
}

/* ------------------------------------------------------------------ mutations */

typedef struct mcase { const char *name; gr_tspec s; gr_tparams p; } mcase;

/* applies mutation m to a copy of plan; returns 0 when it does not apply */
static int mutate(int m, gr_tplan *q, const char **what, const char **check){
  uint32_t nd = q->ndim, d = nd - 1;
  size_t t = q->ntiles - 1;
  switch( m ){
    case 0: *what = "overlapping tiles (tile 1 shifted back by one)"; *check = "coverage";
      if( q->ntiles < 2 ) return 0;
      /* shift the second tile back along its last dim where it does not start at 0, else along another */
      for(d = nd; d-- > 0; ) if( q->off[1 * nd + d] > 0 ){ q->off[1 * nd + d] -= 1; return 1; }
      return 0;
    case 1: *what = "a missed tile (the last one dropped)"; *check = "coverage";
      q->ntiles--; return 1;
    case 2: *what = "a missed tail (the last tile shortened)"; *check = "coverage";
      for(d = nd; d-- > 0; ) if( q->len[t * nd + d] > 1 ){ q->len[t * nd + d] -= 1; return 1; }
      return 0;
    case 3: *what = "a tile out of bounds (the last tile one longer)"; *check = "bounds";
      q->len[t * nd + d] += 1; return 1;
    case 4: *what = "a negative offset"; *check = "bounds";
      q->off[0 * nd + d] = -1; return 1;
    case 5: *what = "an empty tile"; *check = "bounds";
      q->len[0 * nd + d] = 0; return 1;
    case 6: *what = "a tile bigger than the tile shape the buffers were sized for"; *check = "shape";
      q->len[0 * nd + d] = q->tile[d] + 1; return 1;
    case 7: *what = "a tile shape whose working set exceeds the memories (x4096)"; *check = "memory";
      q->tile[d] *= 4096; return 1;
    case 8: *what = "understated UB bytes"; *check = "stated";
      q->used[GR_MEM_UB] /= 2; return 1;
    case 9: *what = "a double-buffered buffer stated with one copy"; *check = "stated";
      { size_t i; for(i = 0; i < q->nbuf; i++) if( q->buf[i].copies==2 ){ q->buf[i].copies = 1; return 1; } }
      return 0;
    case 10: *what = "a buffer smaller than its tile"; *check = "stated";
      q->buf[0].bytes /= 2; q->buf[0].bytes &= ~(uint64_t)31; return 1;
    case 11: *what = "a buffer without alignment padding"; *check = "alignment";
      q->buf[0].bytes -= 2; return 1;
    case 12: *what = "two buffers at the same offset"; *check = "alignment";
      { size_t i; for(i = 1; i < q->nbuf; i++) if( q->buf[i].level==q->buf[0].level ){ q->buf[i].offset = q->buf[0].offset; return 1; } }
      return 0;
    case 13: *what = "a tile on a core beyond block_dim"; *check = "cores";
      q->core[0] = q->block_dim; return 1;
    case 14: *what = "block_dim beyond the chip's cores"; *check = "cores";
      q->block_dim = 1000; return 1;
    case 15: *what = "every tile on core 0 (idle cores)"; *check = "balance";
      { size_t i; if( q->block_dim < 2 ) return 0; for(i = 0; i < q->ntiles; i++) q->core[i] = 0; q->loops_per_core = q->ntiles; return 1; }
    case 16: *what = "an unbalanced core assignment (core 0 gets 3 more tiles)"; *check = "balance";
      {
        size_t i, moved = 0;
        if( q->block_dim < 2 || q->ntiles < (size_t)q->block_dim + 3 ) return 0;
        /* keep one tile on every core, move 3 others to core 0 */
        for(i = q->ntiles; i-- > 0 && moved < 3; ){
          size_t j, same = 0;
          for(j = 0; j < q->ntiles; j++) if( q->core[j]==q->core[i] ) same++;
          if( q->core[i] != 0 && same > 1 ){ q->core[i] = 0; moved++; }
        }
        if( moved < 3 ) return 0;
        { uint64_t c0 = 0; for(i = 0; i < q->ntiles; i++) c0 += q->core[i]==0; q->loops_per_core = c0; }
        return 1;
      }
    case 17: *what = "a wrong loops_per_core"; *check = "stated";
      q->loops_per_core += 1; return 1;
    case 18: *what = "a wrong tail count"; *check = "stated";
      q->tail_tiles += 1; return 1;
    case 19: *what = "an inner (K / KV) block too big for L0/L1"; *check = "memory";
      if( q->strategy != GR_TS_MATMUL && q->strategy != GR_TS_ATTENTION ) return 0;
      q->inner[0] *= 64; q->inner[1] *= 64; return 1;
    case 20: *what = "a duplicated tile replacing another"; *check = "coverage";
      if( q->ntiles < 2 ) return 0;
      memcpy(q->off + t * nd, q->off + 0 * nd, nd * sizeof *q->off);
      memcpy(q->len + t * nd, q->len + 0 * nd, nd * sizeof *q->len);
      q->tail_tiles = 0; return 1;
    default: return -1;
  }
}

static void test_mutations(void){
  int64_t n1[1] = { 1000 }, n3[2] = { 5, 1003 };
  mcase cases[5];
  size_t ci;
  cases[0].name = "element-wise Add fp16 [1000]";
  cases[0].s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 1, n1, 2, NULL, 0);
  cases[0].p = params("eltwise_binary");
  cases[1].name = "element-wise Swish fp32 [5, 1003]";
  cases[1].s = ew(GR_K_SWISH, GR_FMT_FP32, GR_FMT_FP32, 2, n3, 1, NULL, 0);
  cases[1].p = params("eltwise_unary_tmp");
  cases[2].name = "RmsNorm fp16 [100, 1000]";
  cases[2].s = red(GR_K_RMS_NORM, GR_FMT_FP16, 100, 1000, 1, 1);
  cases[2].p = params("rms_norm");
  cases[3].name = "MatMul fp16 100x300 . 300x200";
  cases[3].s = mm(GR_FMT_FP16, 1, 100, 200, 300);
  cases[3].p = params("matmul");
  cases[4].name = "attention fp16 B2 N4 S100 Skv70 D64";
  cases[4].s = att(GR_FMT_FP16, 2, 4, 2, 100, 70, 64);
  cases[4].p = params("attention_fia");
  for(ci = 0; ci < sizeof cases / sizeof *cases; ci++){
    gr_tplan base;
    int m, rejected = 0, applied = 0;
    char name[256];
    snprintf(name, sizeof name, "%s: the unmutated plan is valid", cases[ci].name);
    is(plan_ok(&cases[ci].s, &cases[ci].p, &chipA, &base), 0, name);
    for(m = 0; ; m++){
      gr_tplan q;
      gr_diags n;
      const char *what = "", *check = "";
      int r;
      gr_tplan_copy(&q, &base);
      r = mutate(m, &q, &what, &check);
      if( r < 0 ){ gr_tplan_free(&q); break; }
      if( r==0 ){ gr_tplan_free(&q); continue; }
      applied++;
      gr_diags_init(&n);
      gr_tiling_validate(&q, &cases[ci].s, &cases[ci].p, &chipA, &n);
      snprintf(name, sizeof name, "%s: %s is rejected (%s)", cases[ci].name, what, check);
      if( ok(n.count[GR_SEV_ERROR] > 0 && has_check(&n, check), name) ) rejected++;
      else show_notes(&n);
      gr_diags_free(&n);
      gr_tplan_free(&q);
    }
    snprintf(name, sizeof name, "%s: all %d applicable mutations rejected", cases[ci].name, applied);
    ok(applied >= 17 && rejected==applied, name);
    gr_tplan_free(&base);
  }
}

/* ------------------------------------------------------------------ execution */

static void run_case(const char *name, gr_tspec s, const char *cls, const gr_tchip *chip, int want_scaled){
  gr_tparams p = params(cls);
  gr_tplan pl;
  gr_texec x;
  gr_diags n;
  char t[300];
  int rc;
  snprintf(t, sizeof t, "%s on %s: plan valid", name, chip->soc);
  if( !ok(plan_ok(&s, &p, chip, &pl)==0, t) ) return;
  gr_diags_init(&n);
  rc = gr_tiling_execute(&s, &p, chip, &pl, 42, &x, &n);
  snprintf(t, sizeof t, "%s on %s: executed tiles agree with the untiled reference", name, chip->soc);
  if( !ok(rc==0 && x.ran && x.match && x.mismatches==0, t) ){
    show_notes(&n);
    diag("max abs %g rel %g tol %g, %zu tiles", x.max_abs_err, x.max_rel_err, x.tolerance, x.tiles_executed);
  }
  snprintf(t, sizeof t, "%s on %s: every tile executed", name, chip->soc);
  is(x.tiles_executed, x.plan.ntiles, t);
  if( want_scaled >= 0 ){
    snprintf(t, sizeof t, "%s on %s: %s", name, chip->soc, want_scaled ? "scaled down (and said so)" : "not scaled");
    ok(x.scaled==want_scaled && (!want_scaled || x.scale_text[0]), t);
  }
  gr_diags_free(&n);
  gr_texec_free(&x);
  gr_tplan_free(&pl);
}

static void test_execute(void){
  int64_t o1[2] = { 3, 1001 }, b1[1] = { 1001 }, o2[2] = { 7, 333 }, o3[3] = { 2, 3, 257 }, o4[1] = { 12345 };
  int64_t big[3] = { 16, 1024, 1024 };
  const gr_tchip *chips[2] = { &chipA, &chipP };
  int c;
  for(c = 0; c < 2; c++){
    const gr_tchip *ch = chips[c];
    gr_tspec s;
    run_case("Add fp16 [3, 1001] + [1001] (broadcast)", ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 2, o1, 2, b1, 1), "eltwise_binary", ch, 0);
    run_case("Swish fp32 [7, 333]", ew(GR_K_SWISH, GR_FMT_FP32, GR_FMT_FP32, 2, o2, 1, NULL, 0), "eltwise_unary_tmp", ch, 0);
    run_case("Div bf16 [2, 3, 257]", ew(GR_K_DIV, GR_FMT_BF16, GR_FMT_BF16, 3, o3, 2, NULL, 0), "eltwise_binary", ch, 0);
    s = ew(GR_K_COPY, GR_FMT_FP16, GR_FMT_FP32, 1, o4, 1, NULL, 0);
    run_case("Cast fp16 -> fp32 [12345]", s, "eltwise_unary", ch, 0);
    s = ew(GR_K_COPY, GR_FMT_I64, GR_FMT_I64, 1, o4, 1, NULL, 0);
    run_case("Cast int64 [12345]", s, "eltwise_unary", ch, 0);
    run_case("Relu fp16 [16, 1024, 1024] (too large: scaled)", ew(GR_K_RELU, GR_FMT_FP16, GR_FMT_FP16, 3, big, 1, NULL, 0), "eltwise_unary", ch, 1);
    run_case("RmsNorm fp16 [37, 1000]", red(GR_K_RMS_NORM, GR_FMT_FP16, 37, 1000, 1, 1), "rms_norm", ch, 0);
    run_case("LayerNorm fp32 [5, 777]", red(GR_K_LAYER_NORM, GR_FMT_FP32, 5, 777, 2, 2), "layer_norm", ch, 0);
    run_case("SoftmaxV2 fp16 [9, 1000]", red(GR_K_SOFTMAX, GR_FMT_FP16, 9, 1000, 0, 0), "softmax_last", ch, 0);
    run_case("SoftmaxV2 fp32 [3, 100000] (rows split)", red(GR_K_SOFTMAX, GR_FMT_FP32, 3, 100000, 0, 0), "softmax_last", ch, 0);
    run_case("LayerNorm fp32 [2, 70001] (rows split)", red(GR_K_LAYER_NORM, GR_FMT_FP32, 2, 70001, 2, 2), "layer_norm", ch, 0);
    run_case("MatMul fp16 37x300 . 300x77", mm(GR_FMT_FP16, 1, 37, 77, 300), "matmul", ch, 0);
    run_case("MatMul fp32 33x1000 . 1000x45", mm(GR_FMT_FP32, 1, 33, 45, 1000), "matmul", ch, 0);
    run_case("BatchMatMul fp16 3 x 17x33 . 33x45", mm(GR_FMT_FP16, 3, 17, 45, 33), "batch_matmul", ch, 0);
    run_case("MatMul fp16 128x4096 . 4096x4096 (scaled)", mm(GR_FMT_FP16, 1, 128, 4096, 4096), "matmul", ch, 1);
    run_case("attention fp16 GQA B2 N4/2 S37 Skv91 D40", att(GR_FMT_FP16, 2, 4, 2, 37, 91, 40), "attention_fia", ch, 0);
    run_case("attention fp32 B1 N2 S1 Skv200 D64 (decode)", att(GR_FMT_FP32, 1, 2, 2, 1, 200, 64), "attention_ifa", ch, 0);
    run_case("attention fp16 B1 N32 S128 Skv128 D128 (scaled)", att(GR_FMT_FP16, 1, 32, 32, 128, 128, 128), "attention_fia", ch, 1);
  }
}

/* a wrong plan never passes execution silently */
static void test_execute_catches(void){
  int64_t n1[1] = { 1000 };
  struct { const char *name; gr_tspec s; const char *cls; } cs[4];
  size_t ci;
  cs[0].name = "Add"; cs[0].s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 1, n1, 2, NULL, 0); cs[0].cls = "eltwise_binary";
  cs[1].name = "RmsNorm"; cs[1].s = red(GR_K_RMS_NORM, GR_FMT_FP16, 100, 1000, 1, 1); cs[1].cls = "rms_norm";
  cs[2].name = "MatMul"; cs[2].s = mm(GR_FMT_FP16, 1, 100, 200, 300); cs[2].cls = "matmul";
  cs[3].name = "attention"; cs[3].s = att(GR_FMT_FP16, 2, 4, 2, 100, 70, 64); cs[3].cls = "attention_fia";
  for(ci = 0; ci < 4; ci++){
    gr_tparams p = params(cs[ci].cls);
    gr_tplan pl, q;
    gr_texec x;
    gr_diags n;
    char t[200];
    uint32_t nd;
    if( plan_ok(&cs[ci].s, &p, &chipA, &pl) ) continue;
    nd = pl.ndim;
    /* a missed tile */
    gr_tplan_copy(&q, &pl);
    q.ntiles--;
    memset(&x, 0, sizeof x);
    gr_diags_init(&n);
    gr_tiling_run(&cs[ci].s, &p, &chipA, &q, 1, &x, &n);
    snprintf(t, sizeof t, "%s: executing a plan with a missed tile is a mismatch (elements never written)", cs[ci].name);
    ok(!x.match && x.never_written > 0 && has_check(&n, "execute"), t);
    gr_diags_free(&n);
    gr_tplan_free(&q);
    /* a tile computed twice (the last tile replaced by the first) */
    gr_tplan_copy(&q, &pl);
    memcpy(q.off + (q.ntiles - 1) * nd, q.off, nd * sizeof *q.off);
    memcpy(q.len + (q.ntiles - 1) * nd, q.len, nd * sizeof *q.len);
    memset(&x, 0, sizeof x);
    gr_diags_init(&n);
    gr_tiling_run(&cs[ci].s, &p, &chipA, &q, 1, &x, &n);
    snprintf(t, sizeof t, "%s: executing overlapping tiles is a mismatch (written twice, a gap)", cs[ci].name);
    ok(!x.match && x.written_twice > 0 && x.never_written > 0, t);
    gr_diags_free(&n);
    gr_tplan_free(&q);
    /* a buffer smaller than its tile: the tile is refused, not overflowed */
    gr_tplan_copy(&q, &pl);
    q.buf[0].bytes = 32;
    memset(&x, 0, sizeof x);
    gr_diags_init(&n);
    gr_tiling_run(&cs[ci].s, &p, &chipA, &q, 1, &x, &n);
    snprintf(t, sizeof t, "%s: a buffer too small for its tile stops the tile (no overflow) and mismatches", cs[ci].name);
    ok(!x.match && has_check(&n, "execute"), t);
    gr_diags_free(&n);
    gr_tplan_free(&q);
    /* a buffer beyond the UB: the plan cannot be staged */
    gr_tplan_copy(&q, &pl);
    q.buf[0].offset = chipA.cap[q.buf[0].level];
    memset(&x, 0, sizeof x);
    gr_diags_init(&n);
    snprintf(t, sizeof t, "%s: a buffer outside the staging memory is refused", cs[ci].name);
    ok(gr_tiling_run(&cs[ci].s, &p, &chipA, &q, 1, &x, &n) < 0 && !x.ran && has_check(&n, "execute"), t);
    gr_diags_free(&n);
    gr_tplan_free(&q);
    gr_tplan_free(&pl);
  }
}

/* ------------------------------------------------------------------ custom (Lua) tilings */

static void test_custom(void){
  gr_tparams p = params("custom");
  gr_tspec s;
  gr_custom_tiling c;
  int64_t tile[2] = { 16, 100 }, off[8], sz[8];
  uint32_t cores[4] = { 0, 1, 2, 3 };
  gr_tplan pl;
  gr_diags n;
  int i;
  memset(&s, 0, sizeof s);
  s.strategy = GR_TS_CUSTOM;
  s.ndim = 2; s.out[0] = 64; s.out[1] = 100; s.fout = GR_FMT_FP16;
  for(i = 0; i < 4; i++){ off[2 * i] = 16 * i; off[2 * i + 1] = 0; sz[2 * i] = 16; sz[2 * i + 1] = 100; }
  memset(&c, 0, sizeof c);
  c.block_dim = 4; c.ndim = 2; memcpy(c.tile_shape, tile, sizeof tile); c.ntiles = 4; c.offsets = off; c.sizes = sz; c.cores = cores;
  c.ub_bytes = 2 * 2 * 3200; c.buffers = 2; c.double_buffer = 1;
  p.buffers = 2; p.double_buffer = 1;
#define CUSTOM(name_, check_) do{ \
    gr_diags_init(&n); \
    if( gr_tplan_from_custom(&pl, &c, &s, &p, &n)==0 ) gr_tiling_validate(&pl, &s, &p, &chipA, &n); \
    if( (check_)==NULL ){ if( !ok(n.count[GR_SEV_ERROR]==0, name_) ) show_notes(&n); } \
    else { if( !ok(n.count[GR_SEV_ERROR] > 0 && has_check(&n, (check_)), name_) ) show_notes(&n); } \
    gr_diags_free(&n); gr_tplan_free(&pl); }while(0)
  CUSTOM("a correct Lua tiling of [64, 100] in 4 row blocks is valid", (const char *)NULL);
  is(pl.ntiles, 0, "  (the plan was freed)");
  /* overlapping */
  off[2] = 8;
  CUSTOM("a Lua tiling with overlapping tiles is rejected (coverage)", "coverage");
  off[2] = 16;
  /* a missed tail: the last block one row short */
  sz[6] = 15;
  CUSTOM("a Lua tiling that misses the tail row is rejected (coverage)", "coverage");
  sz[6] = 16;
  /* a tile bigger than the UB */
  {
    int64_t t2[2] = { 4096, 100 };
    memcpy(c.tile_shape, t2, sizeof t2);
    CUSTOM("a Lua tile shape whose buffers exceed the UB is rejected (memory)", "memory");
    memcpy(c.tile_shape, tile, sizeof tile);
  }
  /* declared UB bytes below what its buffers need */
  c.ub_bytes = 1000;
  CUSTOM("a Lua tiling declaring fewer UB bytes than its buffers need is rejected (stated)", "stated");
  c.ub_bytes = 12800;
  c.l0c_bytes = 1 << 20;
  CUSTOM("a Lua tiling declaring more L0C than the chip has is rejected (memory)", "memory");
  c.l0c_bytes = 0;
  c.block_dim = 100;
  CUSTOM("a Lua tiling with block_dim above the chip's cores is rejected (cores)", "cores");
  c.block_dim = 4;
  c.ndim = 3;
  gr_diags_init(&n);
  ok(gr_tplan_from_custom(&pl, &c, &s, &p, &n) < 0 && has_check(&n, "shape"), "a Lua tiling of the wrong rank is rejected before validation");
  gr_diags_free(&n);
  gr_tplan_free(&pl);
  c.ndim = 2;
  /* no cores given: round robin */
  c.cores = NULL;
  CUSTOM("a Lua tiling without cores is assigned round robin and valid", (const char *)NULL);
#undef CUSTOM
}

/* ------------------------------------------------------------------ issue 10: overflow, enumeration, balance */

static void test_hardening(void){
  gr_tparams pe = params("eltwise_binary"), pr = params("rms_norm"), pm = params("matmul"), pc = params("custom");
  gr_tplan pl;
  gr_diags n;
  gr_texec x;
  gr_tspec s;
  const int64_t M = INT64_MAX;
  /* class 1: checked arithmetic, a documented cap */
  {
    int64_t out[2] = { M, 2 };
    s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 2, out, 2, NULL, 0);
    gr_diags_init(&n);
    ok(gr_tiling_plan(&s, &pe, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT), "class 1: an output dim of INT64_MAX is a limit error");
    gr_diags_free(&n); gr_tplan_free(&pl);
  }
  {
    int64_t out[3] = { (int64_t)1 << 32, (int64_t)1 << 32, 16 };
    s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 3, out, 2, NULL, 0);
    gr_diags_init(&n);
    ok(gr_tiling_plan(&s, &pe, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT), "class 1: dims whose product overflows 64 bits are a limit error");
    gr_diags_free(&n); gr_tplan_free(&pl);
  }
  s = mm(GR_FMT_FP16, 1, 16, 16, (int64_t)1 << 62);
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &pm, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT), "class 1: a K of 2^62 is a limit error");
  gr_diags_free(&n); gr_tplan_free(&pl);
  s = mm(GR_FMT_FP16, 1, 16, 16, (int64_t)1 << 40);
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &pm, &chipA, &pl, &n)==0 && gr_tiling_validate(&pl, &s, &pm, &chipA, &n)==0, "class 1: a K of 2^40 plans and validates");
  memset(&x, 0, sizeof x);
  ok(gr_tiling_run(&s, &pm, &chipA, &pl, 1, &x, &n) < 0 && !x.ran && gr_tdiags_has(&n, GR_TC_LIMIT),
     "class 1: running it unscaled is refused before any allocation (no 2^44-element buffer)");
  gr_texec_free(&x);
  gr_diags_free(&n); gr_diags_init(&n);
  ok(gr_tiling_execute(&s, &pm, &chipA, &pl, 1, &x, &n)==0 && x.ran && x.scaled && x.match, "class 1: executed scaled down, it matches");
  gr_texec_free(&x);
  gr_diags_free(&n); gr_tplan_free(&pl);
  /* a Lua plan full of extreme numbers: errors, no undefined arithmetic, no huge allocation */
  {
    gr_custom_tiling c;
    int64_t off[4] = { M - 1, 0, 0, M }, sz[4] = { 5, M, M, 1 };
    memset(&s, 0, sizeof s);
    s.strategy = GR_TS_CUSTOM; s.ndim = 2; s.out[0] = 64; s.out[1] = 100; s.fout = GR_FMT_FP16;
    memset(&c, 0, sizeof c);
    c.ndim = 2; c.tile_shape[0] = M; c.tile_shape[1] = M; c.ntiles = 2; c.offsets = off; c.sizes = sz;
    c.block_dim = 2; c.ub_bytes = UINT64_MAX; c.l1_bytes = UINT64_MAX; c.buffers = 16; c.double_buffer = 1;
    pc.buffers = 16; pc.double_buffer = 1;
    gr_diags_init(&n);
    ok(gr_tplan_from_custom(&pl, &c, &s, &pc, &n)==0 && gr_tiling_validate(&pl, &s, &pc, &chipA, &n) > 0 && gr_tdiags_has(&n, GR_TC_LIMIT),
       "class 1: a Lua tile shape of INT64_MAX is a limit error");
    gr_diags_free(&n); gr_tplan_free(&pl);
    c.tile_shape[0] = 16; c.tile_shape[1] = 100;
    gr_diags_init(&n);
    ok(gr_tplan_from_custom(&pl, &c, &s, &pc, &n)==0 && gr_tiling_validate(&pl, &s, &pc, &chipA, &n) > 0 && gr_tdiags_has(&n, GR_TC_BOUNDS),
       "class 1: tile offsets and sizes near INT64_MAX are bounds errors");
    gr_diags_free(&n); gr_tplan_free(&pl);
    c.block_dim = 1u << 31;
    gr_diags_init(&n);
    ok(gr_tplan_from_custom(&pl, &c, &s, &pc, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT), "class 1: a Lua block_dim of 2^31 is refused before anything is sized from it");
    gr_diags_free(&n); gr_tplan_free(&pl);
  }
  /* class 2: tiles are counted before they are enumerated */
  {
    int64_t out[1] = { (int64_t)1 << 40 };
    s = ew(GR_K_ADD, GR_FMT_FP16, GR_FMT_FP16, 1, out, 2, NULL, 0);
    gr_diags_init(&n);
    ok(gr_tiling_plan(&s, &pe, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT) && pl.ntiles==0,
       "class 2: 2^40 element-wise elements stop at the tile cap, nothing enumerated");
    gr_diags_free(&n); gr_tplan_free(&pl);
  }
  s = mm(GR_FMT_FP16, (int64_t)1 << 30, 16, 16, 16);
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &pm, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT) && pl.ntiles==0, "class 2: a batch of 2^30 stops at the tile cap");
  gr_diags_free(&n); gr_tplan_free(&pl);
  s = red(GR_K_RMS_NORM, GR_FMT_FP16, (int64_t)1 << 36, 16, 1, 0);
  gr_diags_init(&n);
  ok(gr_tiling_plan(&s, &pr, &chipA, &pl, &n) < 0 && gr_tdiags_has(&n, GR_TC_LIMIT) && pl.ntiles==0, "class 2: 2^36 rows stop at the tile cap");
  gr_diags_free(&n); gr_tplan_free(&pl);
  /* class 13: the planner's plan passes its own validation */
  {
    gr_tparams ps = params("softmax_last");
    s = red(GR_K_SOFTMAX, GR_FMT_FP32, 128, 4096, 0, 0);
    gr_diags_init(&n);
    ok(gr_tiling_plan(&s, &ps, &chipP, &pl, &n)==0 && gr_tiling_validate(&pl, &s, &ps, &chipP, &n)==0,
       "class 13: SoftmaxV2 fp32 [128, 4096] on Ascend310P3 (3-row tiles, 7 cores) validates");
    if( n.n ) show_notes(&n);
    gr_diags_free(&n); gr_tplan_free(&pl);
  }
}

int main(void){
  setup();
  test_rules();
  test_elementwise_plans();
  test_reduce_plans();
  test_matmul_plans();
  test_attention_plans();
  test_spec_from_graph();
  test_mutations();
  test_execute();
  test_execute_catches();
  test_custom();
  test_hardening();
  gr_ruleset_free(fixture_rs);
  return done_testing();
}
