/*
** tiling_validate.c: any plan (built-in or from a Lua hook) validated: memory
** fit (recomputed from the tile shape, not trusted), exact coverage of the
** output by coordinate compression, bounds, core assignment, load balance
** and the stated counts. The library never prints; findings go to gr_diags.
*/
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling_int.h"

/* ------------------------------------------------------------------ validation */

static int cmp_i64(const void *a, const void *b){
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

static size_t lower(const int64_t *v, size_t n, int64_t x){
  size_t lo = 0, hi = n;
  while( lo < hi ){ size_t m = (lo + hi) / 2; if( v[m] < x ) lo = m + 1; else hi = m; }
  return lo;
}

static int tile_contains(const gr_tplan *p, size_t t, const int64_t *pt){
  uint32_t d;
  for(d = 0; d < p->ndim; d++){
    int64_t o = p->off[t * p->ndim + d], l = p->len[t * p->ndim + d];
    if( pt[d] < o || pt[d] >= sat_add(o, l) ) return 0;
  }
  return 1;
}

static void tile_text(gr_buf *b, const gr_tplan *p, size_t t){
  uint32_t d;
  gr_buf_addc(b, '[');
  for(d = 0; d < p->ndim; d++){
    int64_t o = p->off[t * p->ndim + d], l = p->len[t * p->ndim + d];
    gr_buf_printf(b, "%s%lld:%lld", d ? ", " : "", (long long)o, (long long)sat_add(o, l));
  }
  gr_buf_addc(b, ']');
}

/* Coverage by coordinate compression: the boundaries of every tile cut each
** dim into intervals; every cell of the resulting grid must be covered once. */
static void check_coverage(const gr_tplan *p, gr_diags *notes){
  int64_t *cuts[GR_TMAXDIM];
  size_t ncut[GR_TMAXDIM], i, t;
  uint32_t d, nd = p->ndim;
  uint64_t cells = 1, ci, gap_cells = 0, gap_elems = 0, over_elems = 0, over_cell = UINT64_MAX;
  size_t over_tile = 0;
  uint8_t *cnt;
  int64_t total = volume(p->shape, nd);
  if( total==0 ) return;
  if( total < 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "the output is too large to check"); return; }
  for(d = 0; d < nd; d++){
    size_t n = 0;
    cuts[d] = gr_xmalloc((2 * p->ntiles + 2) * sizeof *cuts[d]);
    cuts[d][n++] = 0;
    cuts[d][n++] = p->shape[d];
    for(t = 0; t < p->ntiles; t++){
      int64_t o = p->off[t * nd + d], e = sat_add(o, p->len[t * nd + d]);
      if( o > 0 && o < p->shape[d] ) cuts[d][n++] = o;
      if( e > 0 && e < p->shape[d] ) cuts[d][n++] = e;
    }
    qsort(cuts[d], n, sizeof *cuts[d], cmp_i64);
    for(i = 1, ncut[d] = 1; i < n; i++) if( cuts[d][i] != cuts[d][ncut[d] - 1] ) cuts[d][ncut[d]++] = cuts[d][i];
    if( cells > MAX_CELLS / (ncut[d] - 1 ? ncut[d] - 1 : 1) ) cells = MAX_CELLS + 1;
    else cells *= ncut[d] - 1;
  }
  if( cells > MAX_CELLS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "the tiles cut the output into more than %llu distinct blocks; coverage cannot be checked, so the plan is not accepted",
                  (unsigned long long)MAX_CELLS);
    goto out;
  }
  cnt = gr_xcalloc(cells, 1);
  for(t = 0; t < p->ntiles; t++){
    size_t lo[GR_TMAXDIM], hi[GR_TMAXDIM], idx[GR_TMAXDIM];
    int empty = 0;
    for(d = 0; d < nd; d++){
      int64_t o = max64(0, p->off[t * nd + d]), e = min64(p->shape[d], sat_add(p->off[t * nd + d], p->len[t * nd + d]));
      if( e <= o ){ empty = 1; break; }
      lo[d] = lower(cuts[d], ncut[d], o);
      hi[d] = lower(cuts[d], ncut[d], e);
      idx[d] = lo[d];
    }
    if( empty ) continue;
    for(;;){
      uint64_t c = 0;
      for(d = 0; d < nd; d++) c = c * (ncut[d] - 1) + idx[d];
      if( cnt[c] ){
        uint64_t v = 1;
        for(d = 0; d < nd; d++) v *= (uint64_t)(cuts[d][idx[d] + 1] - cuts[d][idx[d]]);
        over_elems = usat_add(over_elems, v);
        if( over_cell==UINT64_MAX ){ over_cell = c; over_tile = t; }
      }
      if( cnt[c] < 255 ) cnt[c]++;
      for(d = nd; d-- > 0; ){
        if( ++idx[d] < hi[d] ) break;
        idx[d] = lo[d];
      }
      if( d==(uint32_t)-1 ) break;
    }
  }
  for(ci = 0; ci < cells; ci++) if( cnt[ci]==0 ){
    uint64_t v = 1, rest = ci;
    for(d = nd; d-- > 0; ){
      size_t k = rest % (ncut[d] - 1);
      rest /= ncut[d] - 1;
      v *= (uint64_t)(cuts[d][k + 1] - cuts[d][k]);
    }
    if( gap_cells++==0 ){
      int64_t pt[GR_TMAXDIM], ext[GR_TMAXDIM];
      rest = ci;
      for(d = nd; d-- > 0; ){
        size_t k = rest % (ncut[d] - 1);
        rest /= ncut[d] - 1;
        pt[d] = cuts[d][k];
        ext[d] = cuts[d][k + 1] - cuts[d][k];
      }
      gap_elems = v;
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "element %s of the output %s is covered by no tile (gap of extent %s)",
                    dims_str(pt, nd).s, dims_str(p->shape, nd).s, dims_str(ext, nd).s);
    }else gap_elems += v;
  }
  if( gap_cells ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "%llu of %lld output elements are never computed (%llu gap block%s)",
                  (unsigned long long)gap_elems, (long long)total, (unsigned long long)gap_cells, gap_cells==1 ? "" : "s");
  }
  if( over_cell != UINT64_MAX ){
    int64_t pt[GR_TMAXDIM];
    uint64_t rest = over_cell;
    size_t other = p->ntiles;
    gr_buf b1, b2;
    for(d = nd; d-- > 0; ){
      size_t k = rest % (ncut[d] - 1);
      rest /= ncut[d] - 1;
      pt[d] = cuts[d][k];
    }
    for(t = 0; t < p->ntiles; t++) if( t != over_tile && tile_contains(p, t, pt) ){ other = t; break; }
    gr_buf_init(&b1); gr_buf_init(&b2);
    tile_text(&b1, p, over_tile);
    if( other < p->ntiles ) tile_text(&b2, p, other);
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "tiles %zu %s and %zu %s overlap at element %s: %llu output elements are computed more than once",
                  other, other < p->ntiles ? gr_buf_cstr(&b2) : "?", over_tile, gr_buf_cstr(&b1), dims_str(pt, nd).s,
                  (unsigned long long)over_elems);
    gr_buf_free(&b1); gr_buf_free(&b2);
  }
  free(cnt);
out:
  for(d = 0; d < nd; d++) free(cuts[d]);
}

static void bufs_text(gr_buf *b, const gr_tbuf *buf, size_t n, int level){
  size_t i;
  int first = 1;
  for(i = 0; i < n; i++) if( buf[i].level==level ){
    gr_buf_printf(b, "%s%s %u x %llu", first ? "" : " + ", buf[i].name, buf[i].copies, (unsigned long long)buf[i].bytes);
    first = 0;
  }
}

size_t gr_tiling_validate(gr_tplan *p, const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_diags *notes){
  size_t before = notes->count[GR_SEV_ERROR], t, i, j, tails = 0, reported = 0;
  uint32_t d, nd = p->ndim, cores = gr_tchip_cores(chip, prm);
  gr_tbuf need[GR_TMAXBUF];
  size_t nneed = 0;
  uint64_t needu[GR_MEM_N], *load = NULL, maxload = 0, minload = UINT64_MAX, *ntl = NULL, maxtiles = 0;
  int64_t total, maxvol = 0;
  int lay_ok, percore;

  if( nd==0 || nd > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the plan has %u dims", nd);
    return notes->count[GR_SEV_ERROR] - before;
  }
  /* ---- what a plan may describe: checked before anything is sized from it ---- */
  total = volume(p->shape, nd);
  if( over_limit(total) ){
    limit_err(notes, "the plan's index space element count", total);
    return notes->count[GR_SEV_ERROR] - before;
  }
  for(d = 0; d < nd; d++) if( over_limit(p->tile[d]) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the tile shape %s has a dim beyond the %lld elements a plan may describe",
             dims_str(p->tile, nd).s, (long long)GR_TMAX_ELEMS);
    return notes->count[GR_SEV_ERROR] - before;
  }
  if( p->ntiles > MAX_TILES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan has %zu tiles, more than the %zu a plan may enumerate", p->ntiles, MAX_TILES);
    return notes->count[GR_SEV_ERROR] - before;
  }
  /* ---- cores ---- */
  if( p->ntiles && p->block_dim==0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "block_dim is 0 but the plan has %zu tiles", p->ntiles);
  if( p->block_dim > cores )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "block_dim %u exceeds the %u cores %s has for class %s", p->block_dim, cores, chip->soc, prm->cls);
  /* ---- the nominal tile ---- */
  for(d = 0; d < nd; d++) if( p->tile[d] <= 0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the tile shape %s has a dim below 1", dims_str(p->tile, nd).s);
    break;
  }
  /* per-core accounting only for a block_dim the chip has (never sized from
  ** an unchecked number) */
  percore = p->block_dim > 0 && p->block_dim <= cores;
  if( percore ){
    load = gr_xcalloc(p->block_dim, sizeof *load);
    ntl = gr_xcalloc(p->block_dim, sizeof *ntl);
  }
  /* ---- every tile: bounds, extent, core ---- */
  for(t = 0; t < p->ntiles; t++){
    const int64_t *o = p->off + t * nd, *l = p->len + t * nd;
    int64_t v = 1;
    int bad = 0, tail = 0;
    for(d = 0; d < nd; d++){
      if( l[d] < 1 ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "tile %zu has extent %lld in dim %u (an empty tile)", t, (long long)l[d], d);
        bad = 1; break;
      }
      if( o[d] < 0 || l[d] > p->shape[d] - o[d] ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "tile %zu covers [%lld, %lld) in dim %u, outside the output's [0, %lld)",
                                           t, (long long)o[d], (long long)sat_add(o[d], l[d]), d, (long long)p->shape[d]);
        bad = 1;
      }
      if( p->tile[d] > 0 && l[d] > p->tile[d] ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "tile %zu has extent %lld in dim %u, larger than the tile shape %s its buffers are sized for",
                                           t, (long long)l[d], d, dims_str(p->tile, nd).s);
        bad = 1;
      }
      if( bad ) break;
      if( l[d] < min64(p->tile[d], p->shape[d]) ) tail = 1;
      v *= l[d];
    }
    if( tail ) tails++;
    if( !bad && v > maxvol ) maxvol = v;
    if( p->core[t] >= p->block_dim ){
      if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "tile %zu is assigned to core %u, beyond block_dim %u", t, p->core[t], p->block_dim);
      continue;
    }
    if( !percore ) continue;
    if( !bad ) load[p->core[t]] = usat_add(load[p->core[t]], (uint64_t)v);
    ntl[p->core[t]]++;
  }
  if( reported > 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "%zu tile problems in all (the first 8 are listed)", reported);
  /* ---- coverage ---- */
  check_coverage(p, notes);
  /* ---- memory: recompute what the nominal tile needs ---- */
  lay_ok = gr_tiling_layout(s, prm, p->tile, p->inner, need, &nneed, needu)==0;
  if( !lay_ok ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the tile shape %s (inner %lld, %lld) cannot be laid out", dims_str(p->tile, nd).s,
                  (long long)p->inner[0], (long long)p->inner[1]);
  }else{
    int lvl;
    for(lvl = 0; lvl < GR_MEM_N; lvl++){
      uint64_t needed = needu[lvl];
      if( p->strategy==GR_TS_CUSTOM && p->used[lvl] > needed ) needed = p->used[lvl];
      if( needed > chip->cap[lvl] ){
        gr_buf b;
        gr_buf_init(&b);
        bufs_text(&b, need, nneed, lvl);
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the %s working set of tile %s is %llu bytes (%s), more than the %llu bytes of %s's %s",
                      gr_tmem_name(lvl), dims_str(p->tile, nd).s, (unsigned long long)needed, b.n ? gr_buf_cstr(&b) : "declared",
                      (unsigned long long)chip->cap[lvl], chip->soc, gr_tmem_name(lvl));
        gr_buf_free(&b);
      }
      if( p->used[lvl] < needu[lvl] || (p->strategy != GR_TS_CUSTOM && p->used[lvl] != needu[lvl]) ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %llu bytes of %s, but tile %s needs %llu",
                      (unsigned long long)p->used[lvl], gr_tmem_name(lvl), dims_str(p->tile, nd).s, (unsigned long long)needu[lvl]);
      }
    }
    /* buffer by buffer (built-in strategies state each one) */
    if( p->strategy != GR_TS_CUSTOM ){
      if( p->nbuf != nneed ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %zu buffers, the tile needs %zu", p->nbuf, nneed);
      for(i = 0; i < nneed && i < p->nbuf; i++){
        const gr_tbuf *a = &p->buf[i], *b = &need[i];
        if( strcmp(a->name, b->name) || a->level != b->level ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %zu is %s in %s, expected %s in %s", i, a->name, gr_tmem_name(a->level), b->name, gr_tmem_name(b->level));
        }else if( a->bytes < b->bytes ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %s states %llu bytes, but tile %s needs %llu (with padding to %u bytes)",
                        a->name, (unsigned long long)a->bytes, dims_str(p->tile, nd).s, (unsigned long long)b->bytes, prm->align);
        }else if( a->copies < b->copies ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %s states %u cop%s, but double buffering needs %u", a->name, a->copies,
                        a->copies==1 ? "y" : "ies", b->copies);
        }
      }
    }
  }
  /* alignment and placement of the stated buffers */
  for(i = 0; i < p->nbuf; i++){
    const gr_tbuf *a = &p->buf[i];
    if( prm->align && (a->bytes % prm->align || a->offset % prm->align) )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_ALIGNMENT, "buffer %s (%llu bytes at offset %llu in %s) is not aligned to %u bytes",
                    a->name, (unsigned long long)a->bytes, (unsigned long long)a->offset, gr_tmem_name(a->level), prm->align);
    uint64_t aend = usat_add(a->offset, usat_mul(a->bytes, a->copies));
    if( a->level < GR_MEM_N && aend > chip->cap[a->level] )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "buffer %s ends at byte %llu of %s, beyond its %llu bytes", a->name,
                    (unsigned long long)aend, gr_tmem_name(a->level), (unsigned long long)chip->cap[a->level]);
    for(j = 0; j < i; j++){
      const gr_tbuf *b = &p->buf[j];
      uint64_t bend = usat_add(b->offset, usat_mul(b->bytes, b->copies));
      if( a->level==b->level && a->bytes && b->bytes && a->offset < bend && b->offset < aend )
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_ALIGNMENT, "buffers %s [%llu, %llu) and %s [%llu, %llu) overlap in %s", b->name,
                      (unsigned long long)b->offset, (unsigned long long)bend, a->name,
                      (unsigned long long)a->offset, (unsigned long long)aend, gr_tmem_name(a->level));
    }
  }
  /* ---- stated counts ---- */
  for(i = 0; percore && i < p->block_dim; i++) if( ntl[i] > maxtiles ) maxtiles = ntl[i];
  if( percore && p->loops_per_core != maxtiles )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %llu loops per core, but its busiest core runs %llu tiles",
                  (unsigned long long)p->loops_per_core, (unsigned long long)maxtiles);
  if( p->tail_tiles != tails )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %zu tail tiles, but %zu tiles are smaller than the tile shape %s",
                  p->tail_tiles, tails, dims_str(p->tile, nd).s);
  /* ---- balance ---- */
  p->imbalance = 0;
  if( percore && total > 0 ){
    double mean = (double)total / p->block_dim;
    uint32_t idle = 0, first_idle = 0;
    for(i = 0; i < p->block_dim; i++){
      if( load[i] > maxload ) maxload = load[i];
      if( load[i] < minload ) minload = load[i];
      if( ntl[i]==0 && idle++==0 ) first_idle = (uint32_t)i;
    }
    p->imbalance = mean > 0 ? (double)maxload / mean - 1.0 : 0;
    if( idle )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_BALANCE, "%u of the %u cores of block_dim have no tile (core %u is the first)", idle, p->block_dim, first_idle);
    else if( maxload > usat_add(minload, (uint64_t)maxvol) )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_BALANCE, "the busiest core computes %llu elements and the least busy %llu: a spread of more than one tile (%lld elements), imbalance %.1f%%",
                    (unsigned long long)maxload, (unsigned long long)minload, (long long)maxvol, 100.0 * p->imbalance);
  }
  free(load);
  free(ntl);
  return notes->count[GR_SEV_ERROR] - before;
}
