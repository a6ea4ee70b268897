/*
** tiling_plan.c: tiling plans built. Lays out the buffers a tile needs in
** each memory level, plans a spec with one of four strategies (element-wise
** over the flattened tensor; last-axis reduction in blocks of rows, splitting
** rows too long for the UB; matrix multiply in M x N output blocks with K
** blocked through L1 and L0A/L0B and accumulated in L0C; flash-style
** attention in blocks of query rows per batch and head), replans a tile
** shape, and converts a Lua hook's tiling into the same plan form. The
** library never prints; findings go to gr_diags.
*/
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling_int.h"

/* ------------------------------------------------------------------ layout */

typedef struct lay { gr_tbuf *buf; size_t n; uint64_t *used; int fail; } lay;

/* "in0", "tmp3"...: a buffer name with its number, without snprintf (hot) */
static void numbered(char *out, size_t n, const char *prefix, uint32_t i){
  size_t k = 0;
  char digits[12];
  int d = 0;
  while( prefix[k] && k + 1 < n ){ out[k] = prefix[k]; k++; }
  do{ digits[d++] = (char)('0' + i % 10); i /= 10; }while( i && d < 11 );
  while( d > 0 && k + 1 < n ) out[k++] = digits[--d];
  out[k] = 0;
}

static void lay_add(lay *l, const char *name, int level, uint64_t bytes, int copies, uint32_t align){
  gr_tbuf *b;
  if( l->n >= GR_TMAXBUF ){ l->fail = 1; return; }
  b = &l->buf[l->n++];
  memset(b, 0, sizeof *b);
  {
    /* a plain bounded copy: layouts are rebuilt thousands of times per node
    ** during the block search, where snprintf dominated the run time */
    size_t k = 0;
    while( name[k] && k + 1 < sizeof b->name ){ b->name[k] = name[k]; k++; }
  }
  b->level = (uint8_t)level;
  b->copies = (uint8_t)copies;
  b->bytes = ualign_up(bytes, align);
  b->offset = l->used[level];
  l->used[level] = usat_add(l->used[level], usat_mul(b->bytes, (uint64_t)copies));
  if( b->bytes==UINT64_MAX || l->used[level]==UINT64_MAX ) l->fail = 1;    /* sizes beyond 64 bits */
}

/* products of tile dims and element widths, saturating (a saturated size fails the layout) */
#define M2(a, b) usat_mul((uint64_t)(a), (uint64_t)(b))
#define M3(a, b, c) usat_mul(M2(a, b), (uint64_t)(c))

int gr_tiling_layout(const gr_tspec *s, const gr_tparams *p, const int64_t *tile, const int64_t *inner,
                     gr_tbuf *buf, size_t *nbuf, uint64_t *used){
  lay l;
  uint32_t i, al = p->align ? p->align : 1;
  int db = p->double_buffer ? 2 : 1;
  char nm[16];
  l.buf = buf; l.n = 0; l.used = used; l.fail = 0;
  uint32_t tnd = s->strategy==GR_TS_ELEMENTWISE ? 1 : s->strategy==GR_TS_REDUCE_LAST ? 2
               : s->strategy==GR_TS_MATMUL || s->strategy==GR_TS_CONV2D ? 3 : s->strategy==GR_TS_ATTENTION ? 4 : s->ndim;
  memset(used, 0, GR_MEM_N * sizeof *used);
  *nbuf = 0;
  for(i = 0; i < tnd && i < GR_TMAXDIM; i++) if( tile[i] <= 0 ) return -1;
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE: {
      uint64_t te = (uint64_t)tile[0];
      for(i = 0; i < s->nin; i++){
        numbered(nm, sizeof nm, "in", i);
        lay_add(&l, nm, GR_MEM_UB, M2(te, gr_tfmt_bytes(s->fin[i])), db, al);
      }
      lay_add(&l, "out", GR_MEM_UB, M2(te, gr_tfmt_bytes(s->fout)), db, al);
      for(i = 0; i < p->tmp_buffers; i++){
        numbered(nm, sizeof nm, "tmp", i);
        lay_add(&l, nm, GR_MEM_UB, M2(te, p->tmp_elem_bytes), 1, al);
      }
      break;
    }
    case GR_TS_REDUCE_LAST: {
      uint64_t rt = (uint64_t)tile[0], dc = (uint64_t)tile[1];
      lay_add(&l, "x", GR_MEM_UB, M2(rt, ualign_up(M2(dc, gr_tfmt_bytes(s->fin[0])), al)), db, al);
      lay_add(&l, "y", GR_MEM_UB, M2(rt, ualign_up(M2(dc, gr_tfmt_bytes(s->fout)), al)), db, al);
      for(i = 0; i < p->tmp_buffers; i++){
        numbered(nm, sizeof nm, "tmp", i);
        lay_add(&l, nm, GR_MEM_UB, M2(rt, ualign_up(M2(dc, p->tmp_elem_bytes), al)), 1, al);
      }
      for(i = 0; i < s->nres; i++){
        numbered(nm, sizeof nm, "res", i);
        lay_add(&l, nm, GR_MEM_UB, M2(dc, gr_tfmt_bytes(s->fres[i])), 1, al);
      }
      for(i = 0; i < s->nstat; i++){
        numbered(nm, sizeof nm, "stat", i);
        lay_add(&l, nm, GR_MEM_UB, M2(rt, gr_tfmt_bytes(s->fstat[i])), 1, al);
      }
      lay_add(&l, "acc", GR_MEM_UB, M2(rt, 8), 1, al);    /* two FP32 running values per row */
      break;
    }
    case GR_TS_MATMUL:
    case GR_TS_CONV2D: {
      uint64_t bm = (uint64_t)tile[1], bn = (uint64_t)tile[2];
      uint64_t ea = (uint64_t)gr_tfmt_bytes(s->fin[0]), eb = (uint64_t)gr_tfmt_bytes(s->fin[1]), bk, bk1;
      if( inner[0] <= 0 || inner[1] <= 0 || inner[1] % inner[0] ) return -1;
      bk = (uint64_t)inner[0]; bk1 = (uint64_t)inner[1];
      /* conv2d: L1 holds the feature-map rows of the block (NC1HWC0), which
      ** img2col (load3d) expands into L0A; matmul: the A slab itself */
      if( s->strategy==GR_TS_CONV2D ) lay_add(&l, "fm1", GR_MEM_L1, M2(gr_tconv_fmap_elems(s, tile[1], inner[1]), ea), db, al);
      else lay_add(&l, "a1", GR_MEM_L1, M3(bm, bk1, ea), db, al);
      lay_add(&l, "b1", GR_MEM_L1, M3(bk1, bn, eb), db, al);
      lay_add(&l, "a0", GR_MEM_L0A, M3(bm, bk, ea), db, al);
      lay_add(&l, "b0", GR_MEM_L0B, M3(bk, bn, eb), db, al);
      lay_add(&l, "c0", GR_MEM_L0C, M3(bm, bn, p->acc_bytes), p->l0c_double_buffer ? 2 : 1, al);
      if( p->ub_out ) lay_add(&l, "c", GR_MEM_UB, M3(bm, bn, gr_tfmt_bytes(s->fout)), db, al);
      break;
    }
    case GR_TS_ATTENTION: {
      uint64_t sq = (uint64_t)tile[2], dp = (uint64_t)align_up(tile[3], p->unit ? p->unit : 1), skv;
      uint64_t eq = (uint64_t)gr_tfmt_bytes(s->fin[0]), ek = (uint64_t)gr_tfmt_bytes(s->fin[1]);
      uint64_t ev = (uint64_t)gr_tfmt_bytes(s->fin[2]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
      uint64_t ekv = ek > ev ? ek : ev, sqdp, sqkv;
      if( inner[0] <= 0 ) return -1;
      skv = (uint64_t)inner[0];
      sqdp = M2(sq, dp); sqkv = M2(sq, skv);
      lay_add(&l, "q1", GR_MEM_L1, M2(sqdp, eq), 1, al);
      lay_add(&l, "k1", GR_MEM_L1, M3(skv, dp, ek), db, al);
      lay_add(&l, "v1", GR_MEM_L1, M3(skv, dp, ev), db, al);
      lay_add(&l, "a0", GR_MEM_L0A, M2(sqdp > sqkv ? sqdp : sqkv, eq), db, al);
      lay_add(&l, "b0", GR_MEM_L0B, M3(skv, dp, ekv), db, al);
      lay_add(&l, "c0", GR_MEM_L0C, M2(sqkv > sqdp ? sqkv : sqdp, p->acc_bytes), 1, al);
      lay_add(&l, "s", GR_MEM_UB, M2(sqkv, p->acc_bytes), 1, al);
      lay_add(&l, "p", GR_MEM_UB, M2(sqkv, eq), 1, al);
      lay_add(&l, "acc", GR_MEM_UB, M2(sqdp, p->acc_bytes), 1, al);
      lay_add(&l, "ml", GR_MEM_UB, M3(sq, 2, p->acc_bytes), 1, al);
      lay_add(&l, "o", GR_MEM_UB, M2(sqdp, eo), db, al);
      break;
    }
    case GR_TS_CUSTOM: {
      int64_t v = volume(tile, s->ndim);
      if( v <= 0 || v==INT64_MAX ) return -1;
      for(i = 0; i < p->buffers && i < GR_TMAXBUF; i++){
        numbered(nm, sizeof nm, "buf", i);
        lay_add(&l, nm, GR_MEM_UB, M2(v, gr_tfmt_bytes(s->fout)), db, al);
      }
      break;
    }
    default:
      return -1;
  }
  *nbuf = l.n;
  return l.fail ? -1 : 0;
}
#undef M2
#undef M3

/* ------------------------------------------------------------------ plan building */

typedef struct tb {
  gr_tplan *p;
  size_t cap;
  int over;                   /* more tiles than a plan may enumerate */
  uint64_t need;              /* ... how many */
} tb;

static void tb_add(tb *t, const int64_t *off, const int64_t *len, uint32_t core){
  gr_tplan *p = t->p;
  if( p->ntiles >= MAX_TILES ){ t->over = 1; return; }
  if( p->ntiles == t->cap ){
    t->cap = t->cap ? 2 * t->cap : 64;
    p->off = gr_xrealloc(p->off, t->cap * p->ndim * sizeof *p->off);
    p->len = gr_xrealloc(p->len, t->cap * p->ndim * sizeof *p->len);
    p->core = gr_xrealloc(p->core, t->cap * sizeof *p->core);
  }
  memcpy(p->off + p->ntiles * p->ndim, off, p->ndim * sizeof *off);
  memcpy(p->len + p->ntiles * p->ndim, len, p->ndim * sizeof *len);
  p->core[p->ntiles++] = core;
}

/* Tiles are counted before they are enumerated: a plan that would need more
** than MAX_TILES is refused at once (no loop runs over a huge count). */
static int tb_count(tb *t, uint64_t n){
  if( n <= MAX_TILES ) return 0;
  t->over = 1;
  t->need = n;
  return -1;
}

/* The balance the validator asks for: every core of block_dim has a tile,
** and the busiest and the least busy core differ by at most the largest tile.
** The strategies assign tiles the way kernels do (contiguous runs per core,
** or round robin); when that leaves the cores further apart (a short last
** run, tails piling up on a few cores), the tiles are reassigned in order by
** list scheduling: each to the least loaded core so far, the lowest on ties.
** That keeps the spread within the largest tile at every step (a tile lands
** on the least loaded core, so the new maximum is at most the old minimum
** plus one tile), and with at least block_dim tiles no core is idle, so a
** planned plan never fails its own balance check. */
static void rebalance(gr_tplan *p){
  uint64_t *load, maxl = 0, minl = UINT64_MAX, maxvol = 0;
  size_t *ntl, t;
  uint32_t c, d, idle = 0;
  if( p->block_dim==0 || p->ntiles==0 ) return;
  load = gr_xcalloc(p->block_dim, sizeof *load);
  ntl = gr_xcalloc(p->block_dim, sizeof *ntl);
  for(t = 0; t < p->ntiles; t++){
    uint64_t v = 1;
    for(d = 0; d < p->ndim; d++) v = usat_mul(v, (uint64_t)p->len[t * p->ndim + d]);
    if( v > maxvol ) maxvol = v;
    if( p->core[t] < p->block_dim ){ load[p->core[t]] = usat_add(load[p->core[t]], v); ntl[p->core[t]]++; }
  }
  for(c = 0; c < p->block_dim; c++){
    if( ntl[c]==0 ) idle++;
    if( load[c] > maxl ) maxl = load[c];
    if( load[c] < minl ) minl = load[c];
  }
  if( idle || maxl > usat_add(minl, maxvol) ){
    memset(load, 0, p->block_dim * sizeof *load);
    for(t = 0; t < p->ntiles; t++){
      uint64_t v = 1;
      uint32_t best = 0;
      for(d = 0; d < p->ndim; d++) v = usat_mul(v, (uint64_t)p->len[t * p->ndim + d]);
      for(c = 1; c < p->block_dim; c++) if( load[c] < load[best] ) best = c;
      load[best] = usat_add(load[best], v);
      p->core[t] = best;
    }
  }
  free(load);
  free(ntl);
}

/* loops per core and tails, from the tile list (the planner states them) */
static void plan_counts(gr_tplan *p){
  uint64_t *per = gr_xcalloc(p->block_dim ? p->block_dim : 1, sizeof *per);
  size_t i;
  uint32_t d;
  p->loops_per_core = 0;
  p->tail_tiles = 0;
  for(i = 0; i < p->ntiles; i++){
    if( p->core[i] < p->block_dim && ++per[p->core[i]] > p->loops_per_core ) p->loops_per_core = per[p->core[i]];
    for(d = 0; d < p->ndim; d++) if( p->len[i * p->ndim + d] < min64(p->tile[d], p->shape[d]) ){ p->tail_tiles++; break; }
  }
  free(per);
}

static int finish(gr_tplan *p, const gr_tspec *s, const gr_tparams *prm, tb *t, gr_diags *notes){
  if( t->over ){
    if( t->need ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan of tile %s over %s needs %llu tiles, more than the %zu a plan may enumerate; not enumerated",
                           dims_str(p->tile, p->ndim).s, dims_str(p->shape, p->ndim).s, (unsigned long long)t->need, MAX_TILES);
    else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan needs more than %zu tiles; not enumerated", MAX_TILES);
    gr_tplan_free(p);
    return -1;
  }
  if( gr_tiling_layout(s, prm, p->tile, p->inner, p->buf, &p->nbuf, p->used) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the tile %s cannot be laid out", dims_str(p->tile, p->ndim).s);
    return -1;
  }
  if( p->strategy != GR_TS_CUSTOM ) rebalance(p);
  plan_counts(p);
  return 0;
}

static void plan_init(gr_tplan *p, int strategy, uint32_t ndim, const int64_t *shape){
  memset(p, 0, sizeof *p);
  p->strategy = strategy;
  p->ndim = ndim;
  memcpy(p->shape, shape, ndim * sizeof *shape);
}

/* the tile shape fits every memory level */
static int tile_fits(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, const int64_t *tile, const int64_t *inner){
  gr_tbuf bufs[GR_TMAXBUF];
  size_t nb;
  uint64_t used[GR_MEM_N];
  int i;
  if( gr_tiling_layout(s, prm, tile, inner, bufs, &nb, used) ) return 0;
  for(i = 0; i < GR_MEM_N; i++) if( used[i] > chip->cap[i] ) return 0;
  return 1;
}

/* Element-wise: each core a contiguous run of `chunk` elements (the last
** one shorter), in tiles of `tile`. */
static void enum_elementwise(gr_tplan *p, tb *t, const gr_tspec *s, int64_t total, int64_t tile, int64_t chunk){
  int64_t c, o, bd = ceil_div(total, chunk);
  uint64_t count = 0;
  uint32_t i;
  p->block_dim = (uint32_t)bd;
  for(c = 0; c < bd; c++) count += (uint64_t)ceil_div(min64(total - c * chunk, chunk), tile);
  for(i = 0; i < s->nin; i++) p->bytes_in = usat_add(p->bytes_in, usat_mul((uint64_t)total, (uint64_t)gr_tfmt_bytes(s->fin[i])));
  p->bytes_out = usat_mul((uint64_t)total, (uint64_t)gr_tfmt_bytes(s->fout));
  if( tb_count(t, count) ) return;
  for(c = 0; c < bd; c++){
    int64_t end = min64(total, (c + 1) * chunk);
    for(o = c * chunk; o < end; o += tile){
      int64_t len = min64(tile, end - o);
      tb_add(t, &o, &len, (uint32_t)c);
    }
  }
}

/* the smallest element width of the node's tensors */
static int ew_minb(const gr_tspec *s){
  int minb = gr_tfmt_bytes(s->fout);
  uint32_t i;
  for(i = 0; i < s->nin; i++) if( gr_tfmt_bytes(s->fin[i]) < minb ) minb = gr_tfmt_bytes(s->fin[i]);
  return minb;
}

/* Element-wise: the flattened output is cut into per-core chunks (aligned to
** the UB granularity), each chunk into equal tiles no larger than the UB
** allows (checked against the real layout, padding included). */
static int plan_elementwise(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t total = volume(s->out, s->ndim), unit, per_elem = 0, tile_max, chunk, loops, tile;
  int minb = 8, db = prm->double_buffer ? 2 : 1;
  uint32_t i, cores = gr_tchip_cores(chip, prm);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_ELEMENTWISE, 1, &total);
  for(i = 0; i < s->nin; i++){
    if( gr_tfmt_bytes(s->fin[i]) < minb ) minb = gr_tfmt_bytes(s->fin[i]);
    per_elem += db * gr_tfmt_bytes(s->fin[i]);
  }
  if( gr_tfmt_bytes(s->fout) < minb ) minb = gr_tfmt_bytes(s->fout);
  per_elem += db * gr_tfmt_bytes(s->fout) + (int64_t)prm->tmp_buffers * prm->tmp_elem_bytes;
  if( minb <= 0 || per_elem <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  unit = max64(1, (int64_t)prm->align / minb);
  tile_max = (int64_t)(chip->cap[GR_MEM_UB] / (uint64_t)per_elem) / unit * unit;
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  chunk = total ? align_up(ceil_div(total, cores), unit) : unit;
  tile = tile_max;
  if( tile >= unit ){
    loops = ceil_div(chunk, tile_max);
    tile = min64(tile_max, align_up(ceil_div(chunk, loops), unit));
  }
  /* padding can make the real layout larger than the per-element estimate */
  if( tile < unit || !tile_fits(s, prm, chip, &tile, p->inner) ){
    int64_t lo = 0, hi = max64(1, tile / unit);
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl = mid * unit;
      if( tile_fits(s, prm, chip, &tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    if( lo==0 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one aligned tile of %lld elements (%lld bytes per element over all buffers)",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)unit, (long long)per_elem);
      return -1;
    }
    tile = lo * unit;
  }
  p->tile[0] = tile;
  if( total > 0 ) enum_elementwise(p, &t, s, total, tile, chunk);
  return finish(p, s, prm, &t, notes);
}

/* Last-axis reduction, enumerated: rows over the cores in contiguous blocks
** of rpc rows, each block in tiles of rt rows and dc columns. */
static void enum_reduce(gr_tplan *p, tb *t, const gr_tspec *s, int64_t rt, int64_t dc, int64_t rpc){
  int64_t c, r, col, bd = ceil_div(s->rows, rpc), nch = ceil_div(s->cols, dc);
  uint64_t count = 0;
  uint32_t i;
  p->block_dim = (uint32_t)bd;
  for(c = 0; c < bd; c++) count = usat_add(count, usat_mul((uint64_t)ceil_div(min64(s->rows - c * rpc, rpc), rt), (uint64_t)nch));
  {
    uint64_t n = usat_mul((uint64_t)s->rows, (uint64_t)s->cols), passes = dc < s->cols ? 2 : 1;
    p->bytes_in = usat_mul(usat_mul(n, (uint64_t)gr_tfmt_bytes(s->fin[0])), passes);
    for(i = 0; i < s->nres; i++)
      p->bytes_in = usat_add(p->bytes_in, usat_mul(usat_mul((uint64_t)s->cols, (uint64_t)gr_tfmt_bytes(s->fres[i])), p->block_dim));
    p->bytes_out = usat_mul(n, (uint64_t)gr_tfmt_bytes(s->fout));
    for(i = 0; i < s->nstat; i++) p->bytes_out = usat_add(p->bytes_out, usat_mul((uint64_t)s->rows, (uint64_t)gr_tfmt_bytes(s->fstat[i])));
  }
  if( tb_count(t, count) ) return;
  for(c = 0; c < bd; c++){
    int64_t end = min64(s->rows, (c + 1) * rpc);
    for(r = c * rpc; r < end; r += rt){
      for(col = 0; col < s->cols; col += dc){
        int64_t off[2] = { r, col }, len[2] = { min64(rt, end - r), min64(dc, s->cols - col) };
        tb_add(t, off, len, (uint32_t)c);
      }
    }
  }
}

/* Last-axis reduction: rows over cores in contiguous blocks, each core in
** tiles of whole rows; a row too long for the UB is cut into column chunks. */
static int plan_reduce(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t shape[2] = { s->rows, s->cols }, rt, dc, loops, unit, rpc;
  uint32_t cores = gr_tchip_cores(chip, prm);
  int minb = gr_tfmt_bytes(s->fin[0]);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_REDUCE_LAST, 2, shape);
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  if( gr_tfmt_bytes(s->fout) < minb ) minb = gr_tfmt_bytes(s->fout);
  if( minb <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  unit = max64(1, (int64_t)prm->align / minb);
  if( s->rows==0 || s->cols==0 ){
    /* nothing to compute: the smallest tile, which must still fit */
    p->tile[0] = 1; p->tile[1] = max64(1, min64(s->cols, unit));
    if( !tile_fits(s, prm, chip, p->tile, p->inner) ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one row chunk of %lld elements",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)p->tile[1]);
      return -1;
    }
    return finish(p, s, prm, &t, notes);
  }
  /* the most rows of full length that fit */
  {
    int64_t lo = 0, hi = s->rows;
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl[2] = { mid, s->cols };
      if( tile_fits(s, prm, chip, tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    rt = lo;
  }
  rpc = ceil_div(s->rows, cores);
  if( rt >= 1 ){
    dc = s->cols;
    loops = ceil_div(rpc, rt);
    rt = ceil_div(rpc, loops);
  }else{
    int64_t lo = 0, hi = ceil_div(s->cols, unit);
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl[2] = { 1, mid * unit };
      if( tile_fits(s, prm, chip, tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    if( lo==0 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one row chunk of %lld elements",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)unit);
      return -1;
    }
    rt = 1;
    dc = lo * unit;
    loops = ceil_div(s->cols, dc);
    dc = align_up(ceil_div(s->cols, loops), unit);   /* equal chunks */
  }
  p->tile[0] = rt;
  p->tile[1] = dc;
  enum_reduce(p, &t, s, rt, dc, rpc);
  return finish(p, s, prm, &t, notes);
}

/* matmul tiles: every (batch, M block, N block), round robin over the cores */
static void enum_matmul(gr_tplan *p, tb *t, const gr_tspec *s, uint32_t cores){
  int64_t bm = p->tile[1], bn = p->tile[2], b, mi, ni;
  uint64_t ea = (uint64_t)gr_tfmt_bytes(s->fin[0]), eb = (uint64_t)gr_tfmt_bytes(s->fin[1]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
  uint64_t count = usat_mul(usat_mul((uint64_t)s->batch, (uint64_t)ceil_div(s->m, bm)), (uint64_t)ceil_div(s->n, bn));
  p->block_dim = (uint32_t)(count < cores ? count : cores);
  p->bytes_out = usat_mul(usat_mul(usat_mul((uint64_t)s->batch, (uint64_t)s->m), (uint64_t)s->n), eo);
  if( tb_count(t, count) ) return;
  for(b = 0; b < s->batch; b++)
    for(mi = 0; mi < s->m; mi += bm)
      for(ni = 0; ni < s->n; ni += bn){
        int64_t off[3] = { b, mi, ni }, len[3] = { 1, min64(bm, s->m - mi), min64(bn, s->n - ni) };
        tb_add(t, off, len, (uint32_t)(p->ntiles % p->block_dim));
        p->bytes_in = usat_add(p->bytes_in, usat_add(usat_mul(usat_mul((uint64_t)len[1], (uint64_t)s->k), ea),
                                                     usat_mul(usat_mul((uint64_t)s->k, (uint64_t)len[2]), eb)));
      }
}

/* conv2d: nothing fits. Names every buffer of the smallest block (u output
** positions x u output channels, K block and slab of one K unit) whose level
** it overflows, with the bytes, so the report says which memory is short. */
static int conv_nofit(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, int64_t u, int64_t ku, gr_diags *notes){
  gr_tbuf bufs[GR_TMAXBUF];
  size_t nb, i;
  uint64_t used[GR_MEM_N];
  int64_t tl[3] = { 1, u, u }, in[2] = { ku, ku };
  int lvl, said = 0;
  if( gr_tiling_layout(s, prm, tl, in, bufs, &nb, used)==0 )
    for(lvl = 0; lvl < GR_MEM_N; lvl++){
      gr_buf b;
      if( used[lvl] <= chip->cap[lvl] ) continue;
      gr_buf_init(&b);
      for(i = 0; i < nb; i++) if( bufs[i].level==lvl )
        gr_buf_printf(&b, "%s%s %ux%llu", b.n ? " + " : "", bufs[i].name, bufs[i].copies, (unsigned long long)bufs[i].bytes);
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the smallest conv2d block (%lld output positions x %lld output channels, K block %lld; input rows %lld x %lld, C0 %lld) needs %llu bytes of %s (%s), more than the %llu of %s",
               (long long)u, (long long)u, (long long)ku, (long long)s->hi, (long long)s->wi, (long long)s->c0,
               (unsigned long long)used[lvl], gr_tmem_name(lvl), gr_buf_cstr(&b), (unsigned long long)chip->cap[lvl], chip->soc);
      gr_buf_free(&b);
      said = 1;
    }
  if( !said )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "no conv2d block of %lld positions x %lld channels x K %lld fits the L0A/L0B/L0C/L1/UB of %s",
             (long long)u, (long long)u, (long long)ku, chip->soc);
  return -1;
}

/* Matrix multiply: search output blocks (multiples of the cube unit) and K
** blocks that fit L0A/L0B/L0C, L1 and the UB, minimising loops per core x the
** larger of compute and GM traffic per block. */
static int plan_matmul(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t shape[3] = { s->batch, s->m, s->n }, u = prm->unit, ku, kal, bm, bn, bk, best_bm = 0, best_bn = 0, best_bk = 0, best_bk1 = 0;
  int64_t ea = gr_tfmt_bytes(s->fin[0]), eb = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  double best = 0;
  uint32_t cores = gr_tchip_cores(chip, prm);
  gr_tbuf bufs[GR_TMAXBUF];
  size_t nb;
  uint64_t used[GR_MEM_N];
  tb t = { p, 0, 0, 0 };
  plan_init(p, s->strategy, 3, shape);
  if( ea <= 0 || eb <= 0 || eo <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  ku = max64(1, (int64_t)prm->k_unit_bytes / min64(ea, eb));
  kal = align_up(max64(s->k, 1), ku);
  for(bm = u; bm <= min64(prm->max_m, align_up(max64(s->m, 1), u)); bm += u){
    for(bn = u; bn <= min64(prm->max_n, align_up(max64(s->n, 1), u)); bn += u){
      int64_t tl[3] = { 1, bm, bn }, in[2], ntiles, loops, bd, bk1, step;
      double comp, move, cost;
      /* the largest K block (power-of-two multiple of the unit) that fits L0A/L0B */
      bk = 0;
      for(step = ku; step <= min64(prm->max_k, kal); step *= 2){
        in[0] = in[1] = step;
        if( gr_tiling_layout(s, prm, tl, in, bufs, &nb, used)==0 && used[GR_MEM_L0A] <= chip->cap[GR_MEM_L0A]
            && used[GR_MEM_L0B] <= chip->cap[GR_MEM_L0B] ) bk = step;
        if( step > INT64_MAX / 2 ) break;
      }
      if( bk==0 ) continue;
      in[0] = bk; in[1] = bk;
      if( !tile_fits(s, prm, chip, tl, in) ) continue;
      /* the longest K slab (multiple of bk, at most K) that fits L1: binary search */
      {
        int64_t lo = 1, hi = max64(1, kal / bk);
        while( lo < hi ){
          int64_t mid = lo + (hi - lo + 1) / 2;
          in[1] = mid * bk;
          if( tile_fits(s, prm, chip, tl, in) ) lo = mid; else hi = mid - 1;
        }
        bk1 = lo * bk;
      }
      ntiles = sat_mul(sat_mul(max64(s->batch, 1), ceil_div(max64(s->m, 1), bm)), ceil_div(max64(s->n, 1), bn));
      bd = min64(cores, ntiles);
      loops = ceil_div(ntiles, bd);
      comp = (double)bm * (double)bn * (double)kal / prm->mac_per_cycle;
      move = ((double)bm * (double)kal * (double)ea + (double)kal * (double)bn * (double)eb + (double)bm * (double)bn * (double)eo)
             / prm->gm_bytes_per_cycle;
      cost = (double)loops * (comp > move ? comp : move);
      if( best_bm==0 || cost < best - 1e-9 || (cost <= best + 1e-9 && bm * bn > best_bm * best_bn) ){
        best = cost; best_bm = bm; best_bn = bn; best_bk = bk; best_bk1 = bk1;
      }
    }
  }
  if( best_bm==0 ){
    if( s->strategy==GR_TS_CONV2D ) return conv_nofit(s, prm, chip, u, ku, notes);
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "no block of %lld x %lld x %lld elements fits the L0A/L0B/L0C/L1/UB of %s",
             (long long)u, (long long)u, (long long)ku, chip->soc);
    return -1;
  }
  p->tile[0] = 1; p->tile[1] = best_bm; p->tile[2] = best_bn;
  p->inner[0] = best_bk; p->inner[1] = best_bk1;
  if( s->batch > 0 && s->m > 0 && s->n > 0 ) enum_matmul(p, &t, s, cores);
  return finish(p, s, prm, &t, notes);
}

/* attention tiles: every (batch, head, query block), round robin over the cores */
static void enum_attention(gr_tplan *p, tb *t, const gr_tspec *s, uint32_t cores){
  int64_t sq = p->tile[2], b, h, q0;
  uint64_t eq = (uint64_t)gr_tfmt_bytes(s->fin[0]), ek = (uint64_t)gr_tfmt_bytes(s->fin[1]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
  uint64_t count = usat_mul(usat_mul((uint64_t)s->b, (uint64_t)s->heads), (uint64_t)ceil_div(s->sq, sq));
  uint64_t kv = usat_mul(usat_mul(usat_mul(2, (uint64_t)s->skv), (uint64_t)s->d), ek);
  p->block_dim = (uint32_t)(count < cores ? count : cores);
  p->bytes_out = usat_mul(usat_mul(usat_mul(usat_mul((uint64_t)s->b, (uint64_t)s->heads), (uint64_t)s->sq), (uint64_t)s->d), eo);
  if( tb_count(t, count) ) return;
  for(b = 0; b < s->b; b++)
    for(h = 0; h < s->heads; h++)
      for(q0 = 0; q0 < s->sq; q0 += sq){
        int64_t off[4] = { b, h, q0, 0 }, len[4] = { 1, 1, min64(sq, s->sq - q0), s->d };
        tb_add(t, off, len, (uint32_t)(p->ntiles % p->block_dim));
        p->bytes_in = usat_add(p->bytes_in, usat_add(usat_mul(usat_mul((uint64_t)len[2], (uint64_t)s->d), eq), kv));
      }
}

/* Attention: tiles are blocks of query rows of one (batch, head); the key and
** value sequence is walked in blocks that fit L1/L0 and the UB. */
static int plan_attention(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t u = prm->unit, sq, skv, best_sq = 0, best_kv = 0, dp = align_up(s->d, u);
  int64_t eq = gr_tfmt_bytes(s->fin[0]), ek = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  double best = 0;
  uint32_t cores = gr_tchip_cores(chip, prm);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_ATTENTION, 4, s->out);
  if( eq <= 0 || ek <= 0 || eo <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  for(sq = u; sq <= min64(prm->max_q, align_up(max64(s->sq, 1), u)); sq += u){
    for(skv = u; skv <= min64(prm->max_kv, align_up(max64(s->skv, 1), u)); skv += u){
      int64_t tl[4] = { 1, 1, sq, max64(s->d, 1) }, in[2] = { skv, 0 }, ntiles, bd, loops;
      double comp, move, cost;
      if( !tile_fits(s, prm, chip, tl, in) ) continue;
      ntiles = sat_mul(sat_mul(max64(s->b, 1), max64(s->heads, 1)), ceil_div(max64(s->sq, 1), sq));
      bd = min64(cores, ntiles);
      loops = ceil_div(ntiles, bd);
      comp = 2.0 * (double)sq * (double)align_up(s->skv, u) * (double)dp / prm->mac_per_cycle;
      move = ((double)sq * (double)dp * (double)(eq + eo) + 2.0 * (double)s->skv * (double)dp * (double)ek)
             / prm->gm_bytes_per_cycle;
      /* fewer, longer KV steps cost less loop overhead: a small tie-breaker */
      cost = (double)loops * ((comp > move ? comp : move) + 64.0 * (double)ceil_div(s->skv, skv));
      if( best_sq==0 || cost < best - 1e-9 ){ best = cost; best_sq = sq; best_kv = skv; }
    }
  }
  if( best_sq==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "no block of %lld query rows x %lld key rows (head dim %lld) fits the memories of %s",
             (long long)u, (long long)u, (long long)s->d, chip->soc);
    return -1;
  }
  p->tile[0] = 1; p->tile[1] = 1; p->tile[2] = best_sq; p->tile[3] = max64(s->d, 1);
  p->inner[0] = best_kv;
  if( s->b > 0 && s->heads > 0 && s->sq > 0 && s->d > 0 ) enum_attention(p, &t, s, cores);
  return finish(p, s, prm, &t, notes);
}

int gr_tiling_plan(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                   gr_tplan *plan, gr_diags *notes){
  memset(plan, 0, sizeof *plan);
  if( gr_tspec_check(spec, notes) ) return -1;
  if( chip->cap[GR_MEM_UB]==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "%s has no UB (0 bytes)", chip->soc);
    return -1;
  }
  switch( spec->strategy ){
    case GR_TS_ELEMENTWISE: return plan_elementwise(spec, params, chip, plan, notes);
    case GR_TS_REDUCE_LAST: return plan_reduce(spec, params, chip, plan, notes);
    case GR_TS_MATMUL:
    case GR_TS_CONV2D: return plan_matmul(spec, params, chip, plan, notes);
    case GR_TS_ATTENTION: return plan_attention(spec, params, chip, plan, notes);
    case GR_TS_CUSTOM:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "class %s is tiled by a Lua hook, and none is registered for this op type", params->cls);
      return -1;
    default:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "no strategy");
      return -1;
  }
}

int gr_tiling_replan(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, const gr_tplan *like,
                     gr_tplan *p, gr_diags *notes){
  uint32_t cores = gr_tchip_cores(chip, prm), d;
  tb t = { p, 0, 0, 0 };
  int64_t shape[4];
  memset(p, 0, sizeof *p);
  if( gr_tspec_check(s, notes) ) return -1;
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  for(d = 0; d < GR_TMAXDIM; d++) if( like->tile[d] < 0 || like->tile[d] > GR_TMAX_ELEMS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the tile shape to replan has a dim outside [0, 2^48]");
    return -1;
  }
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE: {
      int64_t total = volume(s->out, s->ndim), tile = like->tile[0];
      int minb = ew_minb(s);
      plan_init(p, GR_TS_ELEMENTWISE, 1, &total);
      p->tile[0] = tile;
      if( total > 0 && minb > 0 && tile > 0 )
        enum_elementwise(p, &t, s, total, tile, align_up(ceil_div(total, cores), max64(1, (int64_t)prm->align / minb)));
      break;
    }
    case GR_TS_REDUCE_LAST: {
      int64_t rt = like->tile[0], dc = like->tile[1];
      shape[0] = s->rows; shape[1] = s->cols;
      plan_init(p, GR_TS_REDUCE_LAST, 2, shape);
      p->tile[0] = rt; p->tile[1] = dc;
      if( s->rows > 0 && s->cols > 0 && rt > 0 && dc > 0 ) enum_reduce(p, &t, s, rt, dc, ceil_div(s->rows, cores));
      break;
    }
    case GR_TS_MATMUL:
    case GR_TS_CONV2D:
      shape[0] = s->batch; shape[1] = s->m; shape[2] = s->n;
      plan_init(p, s->strategy, 3, shape);
      memcpy(p->tile, like->tile, sizeof p->tile);
      memcpy(p->inner, like->inner, sizeof p->inner);
      if( s->batch > 0 && s->m > 0 && s->n > 0 && p->tile[1] > 0 && p->tile[2] > 0 ) enum_matmul(p, &t, s, cores);
      break;
    case GR_TS_ATTENTION:
      plan_init(p, GR_TS_ATTENTION, 4, s->out);
      memcpy(p->tile, like->tile, sizeof p->tile);
      p->tile[3] = s->d;
      memcpy(p->inner, like->inner, sizeof p->inner);
      if( s->b > 0 && s->heads > 0 && s->sq > 0 && s->d > 0 && p->tile[2] > 0 ) enum_attention(p, &t, s, cores);
      break;
    default:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "no strategy to replan");
      return -1;
  }
  return finish(p, s, prm, &t, notes);
}

void gr_tplan_free(gr_tplan *p){
  if( p==NULL ) return;
  free(p->off);
  free(p->len);
  free(p->core);
  p->off = p->len = NULL;
  p->core = NULL;
  p->ntiles = 0;
}

int gr_tplan_copy(gr_tplan *dst, const gr_tplan *src){
  *dst = *src;
  dst->off = dst->len = NULL;
  dst->core = NULL;
  if( src->ntiles ){
    size_t n = src->ntiles * src->ndim;
    dst->off = gr_xmalloc(n * sizeof *dst->off);
    dst->len = gr_xmalloc(n * sizeof *dst->len);
    dst->core = gr_xmalloc(src->ntiles * sizeof *dst->core);
    memcpy(dst->off, src->off, n * sizeof *dst->off);
    memcpy(dst->len, src->len, n * sizeof *dst->len);
    memcpy(dst->core, src->core, src->ntiles * sizeof *dst->core);
  }
  return 0;
}

/* ------------------------------------------------------------------ custom (Lua) plans */

int gr_tplan_from_custom(gr_tplan *plan, const gr_custom_tiling *c, const gr_tspec *spec,
                         const gr_tparams *params, gr_diags *notes){
  uint32_t d;
  size_t i;
  (void)params;
  memset(plan, 0, sizeof *plan);
  plan->strategy = GR_TS_CUSTOM;
  if( c->ndim==0 || c->ndim > GR_TMAXDIM || c->ndim != spec->ndim ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the hook's tiling has %u dims; the output %s has %u", c->ndim, dims_str(spec->out, spec->ndim).s, spec->ndim);
    return -1;
  }
  if( c->ntiles && (c->offsets==NULL || c->sizes==NULL) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the hook's tiling lists %zu tiles without offsets or sizes", c->ntiles);
    return -1;
  }
  if( c->ntiles > MAX_TILES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the hook's tiling has %zu tiles, more than the %zu a plan may enumerate", c->ntiles, MAX_TILES);
    return -1;
  }
  if( c->block_dim > GR_TMAX_CORES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the hook's tiling has block_dim %u, more than the %u cores a plan may use", c->block_dim, GR_TMAX_CORES);
    return -1;
  }
  if( gr_tspec_check(spec, notes) ) return -1;
  plan->ndim = c->ndim;
  memcpy(plan->shape, spec->out, c->ndim * sizeof *plan->shape);
  for(d = 0; d < c->ndim; d++) plan->tile[d] = c->tile_shape[d];
  plan->block_dim = c->block_dim;
  plan->ntiles = c->ntiles;
  if( c->ntiles ){
    plan->off = gr_xmalloc(c->ntiles * c->ndim * sizeof *plan->off);
    plan->len = gr_xmalloc(c->ntiles * c->ndim * sizeof *plan->len);
    plan->core = gr_xmalloc(c->ntiles * sizeof *plan->core);
    memcpy(plan->off, c->offsets, c->ntiles * c->ndim * sizeof *plan->off);
    memcpy(plan->len, c->sizes, c->ntiles * c->ndim * sizeof *plan->len);
    for(i = 0; i < c->ntiles; i++) plan->core[i] = c->cores ? c->cores[i] : (c->block_dim ? (uint32_t)(i % c->block_dim) : 0);
  }
  /* buffers as the hook declares them: `buffers` tile buffers, doubled when
  ** double-buffered, sharing the declared UB bytes */
  plan->nbuf = 0;
  {
    uint32_t nb = c->buffers < GR_TMAXBUF ? c->buffers : GR_TMAXBUF, k;
    int copies = c->double_buffer ? 2 : 1;
    uint64_t each = nb ? c->ub_bytes / ((uint64_t)nb * (uint64_t)copies) : 0, off = 0;   /* the sum stays <= ub_bytes */
    for(k = 0; k < nb; k++){
      gr_tbuf *b = &plan->buf[plan->nbuf++];
      memset(b, 0, sizeof *b);
      snprintf(b->name, sizeof b->name, "buf%u", (unsigned)(uint8_t)k);
      b->level = GR_MEM_UB;
      b->copies = (uint8_t)copies;
      b->bytes = each;
      b->offset = off;
      off += each * (uint64_t)copies;
    }
  }
  plan->used[GR_MEM_UB] = c->ub_bytes;
  plan->used[GR_MEM_L1] = c->l1_bytes;
  plan->used[GR_MEM_L0A] = c->l0a_bytes;
  plan->used[GR_MEM_L0B] = c->l0b_bytes;
  plan->used[GR_MEM_L0C] = c->l0c_bytes;
  plan_counts(plan);
  {
    int64_t v = volume(spec->out, spec->ndim);
    plan->bytes_in = 0;
    plan->bytes_out = v > 0 ? usat_mul((uint64_t)v, (uint64_t)gr_tfmt_bytes(spec->fout)) : 0;
  }
  return 0;
}

