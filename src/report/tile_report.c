/*
** tile_report.c: the text and JSON reports of `gerules tile` (tile_report.h):
** per node the class, strategy and placement, the plan (index space, tiles,
** loops, buffers per memory level, traffic), every finding with its check
** and code, and the execution; then the summary with the number of distinct
** plans and of distinct executions. Text from the inputs (node names, op
** types, buffer names of Lua plans, messages, the graph's path) goes through
** gr_out_text, as in the eval report: control bytes escaped, so no escape
** sequence or forged "file:1:1: error:" line reaches the terminal, and
** names cut at the eval report's column caps.
*/
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/tile_report.h"
#include "model/qualname.h"

static void jw_dims(gr_jw *w, const int64_t *d, uint32_t n){
  uint32_t i;
  gr_jw_arr(w);
  for(i = 0; i < n; i++) gr_jw_int(w, d[i]);
  gr_jw_end_arr(w);
}

static void jw_num(gr_jw *w, double v){
  char b[64];
  if( !isfinite(v) ){ gr_jw_null(w); return; }
  snprintf(b, sizeof b, "%.6g", v);
  gr_jw_raw(w, b);
}

static void json_plan(gr_jw *w, const gr_tplan *p){
  size_t i;
  int l;
  gr_jw_obj(w);
  gr_jw_key(w, "index_space"); jw_dims(w, p->shape, p->ndim);
  gr_jw_key(w, "block_dim"); gr_jw_int(w, p->block_dim);
  gr_jw_key(w, "tile_shape"); jw_dims(w, p->tile, p->ndim);
  if( p->strategy==GR_TS_MATMUL || p->strategy==GR_TS_CONV2D ){
    gr_jw_key(w, "k_block_l0"); gr_jw_int(w, p->inner[0]);
    gr_jw_key(w, "k_block_l1"); gr_jw_int(w, p->inner[1]);
  }else if( p->strategy==GR_TS_ATTENTION ){
    gr_jw_key(w, "kv_block"); gr_jw_int(w, p->inner[0]);
  }
  gr_jw_key(w, "tiles_total"); gr_jw_int(w, (int64_t)p->ntiles);
  gr_jw_key(w, "loops_per_core"); gr_jw_int(w, (int64_t)p->loops_per_core);
  gr_jw_key(w, "tail_tiles"); gr_jw_int(w, (int64_t)p->tail_tiles);
  for(l = 0; l < GR_MEM_N; l++){
    char k[32];
    snprintf(k, sizeof k, "%s_bytes_used", gr_tmem_name(l));
    gr_jw_key(w, k); gr_jw_int(w, (int64_t)p->used[l]);
  }
  gr_jw_key(w, "buffers");
  gr_jw_arr(w);
  for(i = 0; i < p->nbuf; i++){
    gr_jw_obj(w);
    gr_jw_key(w, "name"); gr_jw_str(w, p->buf[i].name);
    gr_jw_key(w, "level"); gr_jw_str(w, gr_tmem_name(p->buf[i].level));
    gr_jw_key(w, "bytes"); gr_jw_int(w, (int64_t)p->buf[i].bytes);
    gr_jw_key(w, "copies"); gr_jw_int(w, p->buf[i].copies);
    gr_jw_key(w, "offset"); gr_jw_int(w, (int64_t)p->buf[i].offset);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_jw_key(w, "bytes_in"); gr_jw_int(w, (int64_t)p->bytes_in);
  gr_jw_key(w, "bytes_out"); gr_jw_int(w, (int64_t)p->bytes_out);
  gr_jw_key(w, "imbalance"); jw_num(w, p->imbalance);
  gr_jw_end_obj(w);
}

/* the node's own findings, then the shared ones */
static void json_notes(gr_jw *w, const gr_diags *d){
  size_t i;
  if( d==NULL ) return;
  for(i = 0; i < d->n; i++){
    gr_jw_obj(w);
    gr_jw_key(w, "severity"); gr_jw_str(w, gr_severity_name(d->v[i].sev));
    gr_jw_key(w, "check"); gr_jw_str(w, gr_tcheck_name(gr_tcheck_of(&d->v[i])));
    gr_jw_key(w, "code"); if( d->v[i].code ) gr_jw_str(w, d->v[i].code); else gr_jw_null(w);
    gr_jw_key(w, "message"); gr_jw_str(w, d->v[i].msg);
    gr_jw_end_obj(w);
  }
}

static void json_exec(gr_jw *w, const gr_texec *x){
  gr_jw_obj(w);
  gr_jw_key(w, "match"); gr_jw_bool(w, x->match);
  gr_jw_key(w, "max_abs_err"); jw_num(w, x->max_abs_err);
  gr_jw_key(w, "max_rel_err"); jw_num(w, x->max_rel_err);
  gr_jw_key(w, "tolerance"); jw_num(w, x->tolerance);
  gr_jw_key(w, "tiles_executed"); gr_jw_int(w, (int64_t)x->tiles_executed);
  gr_jw_key(w, "mismatches"); gr_jw_int(w, (int64_t)x->mismatches);
  gr_jw_key(w, "scaled"); gr_jw_bool(w, x->scaled);
  if( x->scaled ){
    gr_jw_key(w, "scale"); gr_jw_str(w, x->scale_text);
    gr_jw_key(w, "scaled_tile_shape"); jw_dims(w, x->plan.tile, x->plan.ndim);
    gr_jw_key(w, "scaled_tiles_total"); gr_jw_int(w, (int64_t)x->plan.ntiles);
  }
  gr_jw_end_obj(w);
}

/* The execute object of x, after its key. Every node of a distinct (class,
** shapes, dtypes, attributes) shares one execution, so its JSON is rendered
** once, at this depth, and copied for the other nodes: its three numbers
** through printf on each of 1M nodes were most of what --execute added to
** the report's cost. At most 1 << 16 executions are kept; past that, it is
** rendered in place. */
#define XCACHE_MAX (1u << 16)
static void json_exec_cached(gr_tile_report *rp, const gr_texec *x){
  gr_jw *w = &rp->w;
  uint64_t h = gr_hash_u64((uint64_t)(uintptr_t)x);
  gr_idmap_it it = gr_idmap_probe(&rp->xindex, h);
  uint32_t id;
  while( gr_idmap_next(&rp->xindex, &it, &id) )
    if( rp->xkey[id]==x ){ gr_jw_raw(w, rp->xtext[id]); return; }
  if( rp->xn >= XCACHE_MAX ){ json_exec(w, x); return; }
  {
    gr_buf b;
    gr_out mem;
    gr_jw w2;
    gr_buf_init(&b);
    gr_out_init_buf(&mem, &b);
    gr_jw_init(&w2, &mem, w->pretty);
    w2.depth = w->depth;
    w2.first[w2.depth] = 2;           /* right after the key, as in w */
    json_exec(&w2, x);
    gr_out_finish_buf(&mem);
    if( rp->xn==rp->xcap ){
      rp->xcap = rp->xcap ? rp->xcap * 2 : 64;
      rp->xkey = gr_xrealloc(rp->xkey, rp->xcap * sizeof *rp->xkey);
      rp->xtext = gr_xrealloc(rp->xtext, rp->xcap * sizeof *rp->xtext);
    }
    rp->xkey[rp->xn] = x;
    rp->xtext[rp->xn] = gr_xstrndup(b.p ? b.p : "", b.n);
    gr_idmap_add(&rp->xindex, h, (uint32_t)rp->xn);
    gr_buf_free(&b);
    gr_jw_raw(w, rp->xtext[rp->xn++]);
  }
}

static void json_node(gr_tile_report *rp, const gr_tnode *no){
  gr_jw *w = &rp->w;
  const gr_graph *g = rp->r->g;
  const gr_node *n = &gr_graph_nodes(g)[no->node];
  const gr_tplan *plan = gr_tnode_plan(no);
  const gr_texec *x = gr_tnode_exec(no);
  gr_jw_obj(w);
  gr_jw_key(w, "name"); gr_jw_str(w, gr_graph_str(g, n->name));
  gr_jw_key(w, "graph"); gr_jw_str(w, gr_graph_graph_name(g, n->graph));
  gr_jw_key(w, "type"); gr_jw_str(w, gr_graph_type_name(g, n->type));
  gr_jw_key(w, "class"); if( no->cls ) gr_jw_str(w, no->cls); else gr_jw_null(w);
  gr_jw_key(w, "strategy"); if( no->cls && no->strategy ) gr_jw_str(w, gr_tstrategy_name(no->strategy)); else gr_jw_null(w);
  gr_jw_key(w, "tiling"); if( no->placement ) gr_jw_str(w, no->placement); else gr_jw_null(w);
  if( no->cls ){
    gr_jw_key(w, "valid"); gr_jw_bool(w, gr_tnode_valid(no));
    if( no->skipped ){ gr_jw_key(w, "skipped"); gr_jw_bool(w, 1); }
    gr_jw_key(w, "plan"); if( plan ) json_plan(w, plan); else gr_jw_null(w);
    gr_jw_key(w, "problems");
    gr_jw_arr(w);
    json_notes(w, &no->notes);
    json_notes(w, gr_tnode_shared_notes(no));
    gr_jw_end_arr(w);
    if( rp->execute ){
      gr_jw_key(w, "execute");
      if( x ) json_exec_cached(rp, x);
      else gr_jw_null(w);
    }
  }
  gr_jw_end_obj(w);
}

static void fmt_bytes(char *b, size_t n, uint64_t v){
  if( v >= (1u << 20) ) snprintf(b, n, "%.1f MiB", (double)v / (1 << 20));
  else if( v >= 1024 ) snprintf(b, n, "%.1f KiB", (double)v / 1024);
  else snprintf(b, n, "%llu B", (unsigned long long)v);
}

static void out_dims(gr_out *o, const int64_t *d, uint32_t n){
  uint32_t i;
  gr_out_putc(o, '[');
  for(i = 0; i < n; i++) gr_out_printf(o, "%s%lld", i ? ", " : "", (long long)d[i]);
  gr_out_putc(o, ']');
}

static void text_notes(gr_out *o, const gr_diags *d){
  size_t i;
  if( d==NULL ) return;
  for(i = 0; i < d->n; i++){
    const char *sev = d->v[i].sev==GR_SEV_ERROR ? "error:" : d->v[i].sev==GR_SEV_WARNING ? "warning:" : "note: ";
    gr_out_printf(o, "  %s %s: ", sev, gr_tcheck_name(gr_tcheck_of(&d->v[i])));
    gr_out_text(o, d->v[i].msg, 0, 0);
    gr_out_putc(o, '\n');
  }
}

static void text_node(gr_tile_report *rp, const gr_tnode *no){
  gr_out *o = rp->o;
  const gr_graph *g = rp->r->g;
  const gr_tchip *chip = gr_tiler_chip(rp->t);
  const gr_node *n = &gr_graph_nodes(g)[no->node];
  const gr_tplan *p = gr_tnode_plan(no);
  const gr_texec *x = gr_tnode_exec(no);
  size_t i;
  int l;
  gr_buf qb;
  gr_buf_init(&qb);       /* subgraph nodes by their graph-qualified name (then_g/mm) */
  gr_out_text(o, gr_node_qname(g, no->node, &qb), 0, GR_TEXT_NAME_CAP);
  gr_buf_free(&qb);
  gr_out_puts(o, " (");
  gr_out_text(o, gr_graph_type_name(g, n->type), 0, GR_TEXT_TYPE_CAP);
  gr_out_puts(o, ")  class ");
  gr_out_text(o, no->cls, 0, GR_TEXT_NAME_CAP);
  gr_out_printf(o, " [%s]  tiling ", gr_tstrategy_name(no->strategy));
  gr_out_text(o, no->placement, 0, GR_TEXT_NAME_CAP);
  gr_out_putc(o, '\n');
  if( p ){
    char bi[32], bo[32];
    gr_out_printf(o, "  plan     %u core%s, tile ", p->block_dim, p->block_dim==1 ? "" : "s");
    out_dims(o, p->tile, p->ndim);
    gr_out_puts(o, " over ");
    out_dims(o, p->shape, p->ndim);
    if( p->strategy==GR_TS_MATMUL ) gr_out_printf(o, " (batch, M, N), K block %lld in L0 / %lld in L1", (long long)p->inner[0], (long long)p->inner[1]);
    else if( p->strategy==GR_TS_CONV2D ) gr_out_printf(o, " (N x groups, Ho x Wo, Cout), K block %lld in L0 / %lld in L1", (long long)p->inner[0], (long long)p->inner[1]);
    else if( p->strategy==GR_TS_ATTENTION ) gr_out_printf(o, " (B, heads, S, D), KV block %lld", (long long)p->inner[0]);
    else if( p->strategy==GR_TS_REDUCE_LAST ) gr_out_puts(o, " (rows, cols)");
    else if( p->strategy==GR_TS_ELEMENTWISE ) gr_out_puts(o, " (flattened)");
    gr_out_printf(o, "\n           %zu tiles, %llu loop%s per core, %zu tail tile%s, imbalance %.1f%%\n", p->ntiles,
                  (unsigned long long)p->loops_per_core, p->loops_per_core==1 ? "" : "s", p->tail_tiles, p->tail_tiles==1 ? "" : "s",
                  100.0 * p->imbalance);
    gr_out_puts(o, "  memory  ");
    for(l = 0; l < GR_MEM_N; l++){
      int first = 1;
      if( p->used[l]==0 && l != GR_MEM_UB ) continue;
      gr_out_printf(o, " %s %llu/%llu", gr_tmem_name(l), (unsigned long long)p->used[l], (unsigned long long)chip->cap[l]);
      for(i = 0; i < p->nbuf; i++) if( p->buf[i].level==l ){
        gr_out_puts(o, first ? " (" : " + ");
        gr_out_text(o, p->buf[i].name, 0, GR_TEXT_NAME_CAP);
        gr_out_printf(o, " %ux%llu", p->buf[i].copies, (unsigned long long)p->buf[i].bytes);
        first = 0;
      }
      if( !first ) gr_out_putc(o, ')');
      gr_out_putc(o, ';');
    }
    fmt_bytes(bi, sizeof bi, p->bytes_in);
    fmt_bytes(bo, sizeof bo, p->bytes_out);
    if( p->strategy==GR_TS_CUSTOM ) gr_out_printf(o, "\n  data     out %s (a Lua tiling does not state its inputs)\n", bo);
    else gr_out_printf(o, "\n  data     in %s, out %s\n", bi, bo);
  }
  text_notes(o, &no->notes);
  text_notes(o, gr_tnode_shared_notes(no));
  if( x ){
    gr_out_printf(o, "  execute  %zu tiles, max abs err %.3g, max rel err %.3g (tolerance %.3g): %s\n", x->tiles_executed,
                  x->max_abs_err, x->max_rel_err, x->tolerance, x->match ? "match" : "MISMATCH");
    if( x->scaled ){
      gr_out_puts(o, "           scaled down: ");
      gr_out_text(o, x->scale_text, 0, 0);
      gr_out_puts(o, "; tile ");
      out_dims(o, x->plan.tile, x->plan.ndim);
      gr_out_printf(o, ", %zu tiles\n", x->plan.ntiles);
    }
  }
  gr_out_printf(o, "  %s\n", no->skipped==2 ? "skipped (shape unknown)" : no->skipped ? "skipped (dynamic shape)" : gr_tnode_valid(no) ? "valid" : "INVALID");
}

/* ------------------------------------------------------------------ the report */

void gr_tile_report_begin(gr_tile_report *rp, gr_out *o, int json, int execute, const gr_tiler *t,
                          const gr_result *r, const char *graph_path){
  const gr_tchip *chip = gr_tiler_chip(t);
  memset(rp, 0, sizeof *rp);
  rp->o = o; rp->json = json; rp->execute = execute; rp->t = t; rp->r = r;
  if( json ){
    gr_jw *w = &rp->w;
    int l;
    gr_jw_init(w, o, 2);
    gr_jw_obj(w);
    gr_jw_schema_version(w);
    gr_jw_key(w, "chip");
    gr_jw_obj(w);
    gr_jw_key(w, "soc"); gr_jw_str(w, r->soc_name);
    gr_jw_key(w, "product"); gr_jw_str(w, r->rs->products[r->product].name);
    for(l = 0; l < GR_MEM_N; l++){
      char key[32];
      snprintf(key, sizeof key, "%s_bytes", gr_tmem_name(l));
      gr_jw_key(w, key); gr_jw_int(w, (int64_t)chip->cap[l]);
    }
    gr_jw_key(w, "vector_cores"); gr_jw_int(w, chip->cores[0]);
    gr_jw_key(w, "cube_cores"); gr_jw_int(w, chip->cores[1]);
    gr_jw_key(w, "ai_cores"); gr_jw_int(w, chip->cores[2]);
    gr_jw_end_obj(w);
    gr_jw_key(w, "graph"); gr_jw_str(w, graph_path);
    gr_jw_key(w, "execute"); gr_jw_bool(w, execute);
    gr_jw_key(w, "nodes");
    gr_jw_arr(w);
  }else{
    gr_out_puts(o, "chip ");
    gr_out_text(o, r->soc_name, 0, GR_TEXT_NAME_CAP);
    gr_out_printf(o, ": UB %llu, L1 %llu, L0A %llu, L0B %llu, L0C %llu bytes; %u vector, %u cube, %u AI cores\n",
                  (unsigned long long)chip->cap[GR_MEM_UB], (unsigned long long)chip->cap[GR_MEM_L1],
                  (unsigned long long)chip->cap[GR_MEM_L0A], (unsigned long long)chip->cap[GR_MEM_L0B],
                  (unsigned long long)chip->cap[GR_MEM_L0C], chip->cores[0], chip->cores[1], chip->cores[2]);
    gr_out_puts(o, "graph ");
    gr_out_text(o, graph_path, 0, 0);
    gr_out_printf(o, ", %u nodes\n\n", gr_graph_nnodes(r->g));
  }
}

void gr_tile_report_node(gr_tile_report *rp, const gr_tnode *n){
  if( rp->json ) json_node(rp, n);
  else if( n->cls ){ text_node(rp, n); gr_out_putc(rp->o, '\n'); }
}

static const char *plural(size_t n, const char *one, const char *many){ return n==1 ? one : many; }

void gr_tile_report_end(gr_tile_report *rp){
  const gr_tsummary *s = gr_tiler_summary(rp->t);
  size_t i;
  for(i = 0; i < rp->xn; i++) free(rp->xtext[i]);
  free(rp->xkey); free(rp->xtext);
  gr_idmap_free(&rp->xindex);
  rp->xkey = NULL; rp->xtext = NULL; rp->xcap = rp->xn = 0;
  if( rp->json ){
    gr_jw *w = &rp->w;
    gr_jw_end_arr(w);
    gr_jw_key(w, "summary");
    gr_jw_obj(w);
    gr_jw_key(w, "nodes"); gr_jw_int(w, (int64_t)s->nodes);
    gr_jw_key(w, "planned"); gr_jw_int(w, (int64_t)s->planned);
    gr_jw_key(w, "skipped"); gr_jw_int(w, (int64_t)s->skipped);
    gr_jw_key(w, "invalid"); gr_jw_int(w, (int64_t)s->invalid);
    gr_jw_key(w, "no_strategy"); gr_jw_int(w, (int64_t)s->no_strategy);
    gr_jw_key(w, "distinct_plans"); gr_jw_int(w, (int64_t)s->distinct);
    gr_jw_key(w, "executed"); gr_jw_int(w, (int64_t)s->executed);
    gr_jw_key(w, "distinct_executions"); gr_jw_int(w, (int64_t)s->executions);
    gr_jw_key(w, "mismatched"); gr_jw_int(w, (int64_t)s->mismatched);
    gr_jw_end_obj(w);
    gr_jw_end_obj(w);
    gr_out_putc(rp->o, '\n');
  }else{
    gr_out *o = rp->o;
    const gr_graph *g = rp->r->g;
    if( s->no_strategy ){
      uint32_t ty, nt = gr_graph_ntypes(g), k = 0;
      gr_out_printf(o, "%zu node%s without a tiling strategy:", s->no_strategy, plural(s->no_strategy, "", "s"));
      for(ty = 0; ty < nt; ty++) if( s->no_strategy_by_type[ty] )
      {
        gr_out_puts(o, k++ ? ", " : " ");
        gr_out_text(o, gr_graph_type_name(g, ty), 0, GR_TEXT_TYPE_CAP);
        gr_out_printf(o, " x%zu", s->no_strategy_by_type[ty]);
      }
      gr_out_putc(o, '\n');
    }
    gr_out_printf(o, "summary: %zu node%s planned (%zu distinct plan%s), %zu valid, %zu invalid", s->planned, plural(s->planned, "", "s"),
                  s->distinct, plural(s->distinct, "", "s"), s->planned - s->invalid, s->invalid);
    if( s->skipped && s->skipped_unknown==0 ) gr_out_printf(o, ", %zu skipped (dynamic shapes)", s->skipped);
    else if( s->skipped ) gr_out_printf(o, ", %zu skipped (%zu dynamic shapes, %zu shapes unknown)", s->skipped, s->skipped - s->skipped_unknown, s->skipped_unknown);
    if( rp->execute ) gr_out_printf(o, "; %zu executed (%zu distinct execution%s), %zu match, %zu mismatch", s->executed, s->executions,
                                    plural(s->executions, "", "s"), s->executed - s->mismatched, s->mismatched);
    gr_out_putc(o, '\n');
  }
}
