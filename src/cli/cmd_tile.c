/*
** cmd_tile.c: `gerules tile GRAPH --chip SOC`: for every node (or one node,
** or one op type) builds the tiling plan of its class from the chip's
** hardware numbers, validates it, optionally executes it on the CPU
** (--execute), runs Lua tiling functions registered for custom op types
** (--hook, and the bundle's hooks) and validates their plans the same way,
** and says where each node's tiling runs (host, device or compile time) as
** the evaluator decided it with the user's options. Text or JSON report on
** stdout (or atomically to --output FILE); nothing on stdout on a usage or
** input error.
*/
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "eval/eval.h"
#include "model/graph.h"
#include "hooks/hooks.h"
#include "options/optfile.h"
#include "report/out.h"
#include "tiling/tiling.h"

static const char tile_usage[] =
  "usage: gerules tile GRAPH --chip SOC [options]\n"
  "Plans the tiling of every node of GRAPH whose op type has a tiling class in the\n"
  "rules (element-wise, last-axis reductions, matrix multiply, attention) or a Lua\n"
  "tiling function, from the chip's core counts and UB/L1/L0 sizes; validates each\n"
  "plan (memory fit, exact coverage, balance) and says where the tiling runs.\n"
  "\n"
  "  --chip SOC                 the SoC (or give the SOC_VERSION option)\n"
  "  --input-format FMT         auto (default: detected from the content), json, ge-text, ge-binary, om, onnx\n"
  "  --node NAME                only this node\n"
  "  --type TYPE                only nodes of this op type\n"
  "  --execute                  run every plan on the CPU through UB-sized staging\n"
  "                             buffers and compare with an untiled reference\n"
  "  --seed N                   seed of the random inputs of --execute (default 1)\n"
  "  --hook FILE                load a Lua site policy / tiling functions (repeatable);\n"
  "                             --hook-memory, --hook-instructions, --hook-timeout as for eval\n"
  "  -o KEY=VALUE, --options FILE, --run-mode MODE   options, as for eval\n"
  "                             (they decide where each node's tiling runs)\n"
  "  --format text|json         report format (default text)\n"
  "  --output FILE              write the report to FILE (atomically) instead of stdout\n"
  "\n"
  "exit status: 0 every plan valid (and every execution matched), 1 some plan\n"
  "invalid or some execution mismatched, 2 usage error or bad input\n";

typedef struct tile_args {
  const char *node, *type, *output;
  int json, execute;
  uint64_t seed;
} tile_args;

/* ---- plans shared by identical nodes ----
** A transformer repeats the same few node shapes many times; planning
** (a block search) and validating (a coverage check over every tile) give
** the same result for the same spec, class and chip, so each distinct
** (class, spec) is planned and validated once and its result copied. */
typedef struct plan_memo {
  const char *cls;
  gr_tspec spec;
  int ok;                   /* planning succeeded */
  int valid;
  gr_tplan plan;
  gr_tnotes notes;          /* planning and validation notes */
  uint64_t hash;
} plan_memo;

typedef struct plan_cache { plan_memo *v; size_t n, cap; size_t *slots; size_t nslots; } plan_cache;

static uint64_t memo_hash(const char *cls, const gr_tspec *spec){
  return gr_hash(spec, sizeof *spec) ^ (uint64_t)(uintptr_t)cls * 0x9e3779b97f4a7c15ULL;
}

static plan_memo *memo_find(plan_cache *pc, const char *cls, const gr_tspec *spec, uint64_t h){
  size_t j;
  if( pc->nslots==0 ) return NULL;
  for(j = h & (pc->nslots - 1); pc->slots[j]; j = (j + 1) & (pc->nslots - 1)){
    plan_memo *m = &pc->v[pc->slots[j] - 1];
    if( m->hash==h && m->cls==cls && memcmp(&m->spec, spec, sizeof *spec)==0 ) return m;
  }
  return NULL;
}

static plan_memo *memo_add(plan_cache *pc, const char *cls, const gr_tspec *spec, uint64_t h){
  size_t j;
  if( (pc->n + 1) * 2 > pc->nslots ){
    size_t nn = pc->nslots ? pc->nslots * 2 : 64, i;
    free(pc->slots);
    pc->slots = gr_xcalloc(nn, sizeof *pc->slots);
    pc->nslots = nn;
    for(i = 0; i < pc->n; i++){
      for(j = pc->v[i].hash & (nn - 1); pc->slots[j]; j = (j + 1) & (nn - 1)){}
      pc->slots[j] = i + 1;
    }
  }
  if( pc->n==pc->cap ){ pc->cap = pc->cap ? pc->cap * 2 : 16; pc->v = gr_xrealloc(pc->v, pc->cap * sizeof *pc->v); }
  memset(&pc->v[pc->n], 0, sizeof pc->v[pc->n]);
  pc->v[pc->n].cls = cls;
  pc->v[pc->n].spec = *spec;
  pc->v[pc->n].hash = h;
  gr_tnotes_init(&pc->v[pc->n].notes);
  for(j = h & (pc->nslots - 1); pc->slots[j]; j = (j + 1) & (pc->nslots - 1)){}
  pc->slots[j] = ++pc->n;
  return &pc->v[pc->n - 1];
}

static void plan_cache_free(plan_cache *pc){
  size_t i;
  for(i = 0; i < pc->n; i++){ gr_tplan_free(&pc->v[i].plan); gr_tnotes_free(&pc->v[i].notes); }
  free(pc->v); free(pc->slots);
  memset(pc, 0, sizeof *pc);
}

static void notes_copy(gr_tnotes *to, const gr_tnotes *from){
  size_t i;
  for(i = 0; i < from->n; i++) gr_tnotes_add(to, from->v[i].error, from->v[i].check, "%s", from->v[i].msg);
}

/* ---- per-node work ---- */

typedef struct node_out {
  const char *cls;          /* NULL: no strategy */
  int strategy;
  int planned, valid, executed;
  int skipped;              /* dynamic shapes: no static plan exists */
  gr_tparams prm;
  gr_tspec spec;
  gr_tplan plan;
  gr_tnotes notes;
  gr_texec x;
} node_out;

static void node_out_free(node_out *n){
  gr_tplan_free(&n->plan);
  gr_tnotes_free(&n->notes);
  gr_texec_free(&n->x);
}

static uint64_t node_seed(uint64_t seed, const char *name){
  uint64_t h = 1469598103934665603ull;
  for(; *name; name++) h = (h ^ (uint8_t)*name) * 1099511628211ull;
  return seed * 0x9e3779b97f4a7c15ull ^ h;
}

static void do_node(const gr_tiling_rules *tr, gr_result *r, gr_hooks *hooks, const gr_tchip *chip,
                    uint32_t node, const tile_args *a, node_out *no, plan_cache *cache){
  const gr_graph *g = r->g;
  const gr_node *n = &gr_graph_nodes(g)[node];
  const char *type = gr_graph_type_name(g, n->type);
  int custom = hooks && gr_hooks_has_tiling(hooks, type);
  memset(no, 0, sizeof *no);
  gr_tnotes_init(&no->notes);
  if( custom ){
    gr_custom_tiling ct;
    gr_error err;
    gr_tcustom c;
    no->cls = tr->custom_class ? tr->custom_class : "custom";
    memset(&err, 0, sizeof err);
    if( gr_tiling_params(tr, no->cls, &no->prm, &err) ){
      gr_tnotes_add(&no->notes, 1, "rules", "%s", err.msg);
      return;
    }
    no->prm.strategy = GR_TS_CUSTOM;
    memset(&no->spec, 0, sizeof no->spec);
    if( gr_tiling_spec_custom(tr, g, node, &no->spec, &no->notes) ) return;
    no->strategy = GR_TS_CUSTOM;
    memset(&ct, 0, sizeof ct);
    if( gr_hooks_run_tiling(hooks, r, node, &ct, &err) ){
      gr_tnotes_add(&no->notes, 1, "hook", "%s", err.msg);
      return;
    }
    c.block_dim = ct.block_dim; c.ndim = ct.ndim; c.tile_shape = ct.tile_shape; c.ntiles = ct.ntiles;
    c.offsets = ct.offsets; c.sizes = ct.sizes; c.cores = ct.cores;
    c.ub_bytes = ct.ub_bytes; c.l1_bytes = ct.l1_bytes; c.l0a_bytes = ct.l0a_bytes; c.l0b_bytes = ct.l0b_bytes;
    c.l0c_bytes = ct.l0c_bytes; c.buffers = ct.buffers; c.double_buffer = ct.double_buffer;
    no->prm.buffers = ct.buffers;
    no->prm.double_buffer = ct.double_buffer ? 1 : 0;
    if( gr_tplan_from_custom(&no->plan, &c, &no->spec, &no->prm, &no->notes)==0 ){
      no->planned = 1;
      no->valid = gr_tiling_validate(&no->plan, &no->spec, &no->prm, chip, &no->notes)==0;
    }
    gr_custom_tiling_free(&ct);
    return;
  }
  no->cls = gr_tiling_class_of(tr, type);
  if( no->cls==NULL ) return;
  if( n->flags & GR_NODE_DYNAMIC ){
    no->skipped = 1;
    gr_tnotes_add(&no->notes, 0, "shape", "dynamic shape: there is no static plan to check; the tiling runs on the host at run time");
    return;
  }
  no->strategy = gr_tiling_spec(tr, g, node, &no->prm, &no->spec, &no->notes);
  if( no->notes.nerr ) return;
  {
    uint64_t h = memo_hash(no->cls, &no->spec);
    plan_memo *m = memo_find(cache, no->cls, &no->spec, h);
    if( m==NULL ){
      m = memo_add(cache, no->cls, &no->spec, h);
      m->ok = gr_tiling_plan(&m->spec, &no->prm, chip, &m->plan, &m->notes)==0;
      if( m->ok ) m->valid = gr_tiling_validate(&m->plan, &m->spec, &no->prm, chip, &m->notes)==0;
    }
    notes_copy(&no->notes, &m->notes);
    if( !m->ok ) return;
    gr_tplan_copy(&no->plan, &m->plan);
    no->planned = 1;
    no->valid = m->valid;
  }
  if( a->execute && no->valid ){
    no->executed = 1;
    gr_tiling_execute(&no->spec, &no->prm, chip, &no->plan, node_seed(a->seed, gr_graph_str(g, n->name)), &no->x, &no->notes);
  }
}

/* ---- reporting ---- */

static const char *placement(const gr_tiling_rules *tr, const gr_result *r, uint32_t node){
  if( tr->slot < 0 || r->dec==NULL ) return NULL;
  return r->dec[(size_t)node * r->rs->nslots + (size_t)tr->slot].value;
}

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
  if( p->strategy==GR_TS_MATMUL ){
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

static void json_node(gr_jw *w, const gr_tiling_rules *tr, const gr_result *r, uint32_t node, const node_out *no, int execute){
  const gr_graph *g = r->g;
  const gr_node *n = &gr_graph_nodes(g)[node];
  size_t i;
  gr_jw_obj(w);
  gr_jw_key(w, "name"); gr_jw_str(w, gr_graph_str(g, n->name));
  gr_jw_key(w, "type"); gr_jw_str(w, gr_graph_type_name(g, n->type));
  gr_jw_key(w, "class"); if( no->cls ) gr_jw_str(w, no->cls); else gr_jw_null(w);
  gr_jw_key(w, "strategy"); if( no->cls && no->strategy ) gr_jw_str(w, gr_tstrategy_name(no->strategy)); else gr_jw_null(w);
  gr_jw_key(w, "tiling");
  { const char *pl = placement(tr, r, node); if( pl ) gr_jw_str(w, pl); else gr_jw_null(w); }
  if( no->cls ){
    gr_jw_key(w, "valid"); gr_jw_bool(w, no->planned && no->valid && no->notes.nerr==0);
    if( no->skipped ){ gr_jw_key(w, "skipped"); gr_jw_bool(w, 1); }
    gr_jw_key(w, "plan"); if( no->planned ) json_plan(w, &no->plan); else gr_jw_null(w);
    gr_jw_key(w, "problems");
    gr_jw_arr(w);
    for(i = 0; i < no->notes.n; i++){
      gr_jw_obj(w);
      gr_jw_key(w, "severity"); gr_jw_str(w, no->notes.v[i].error ? "error" : "note");
      gr_jw_key(w, "check"); gr_jw_str(w, no->notes.v[i].check);
      gr_jw_key(w, "message"); gr_jw_str(w, no->notes.v[i].msg);
      gr_jw_end_obj(w);
    }
    gr_jw_end_arr(w);
    if( execute ){
      gr_jw_key(w, "execute");
      if( no->executed && no->x.ran ){
        gr_jw_obj(w);
        gr_jw_key(w, "match"); gr_jw_bool(w, no->x.match);
        gr_jw_key(w, "max_abs_err"); jw_num(w, no->x.max_abs_err);
        gr_jw_key(w, "max_rel_err"); jw_num(w, no->x.max_rel_err);
        gr_jw_key(w, "tolerance"); jw_num(w, no->x.tolerance);
        gr_jw_key(w, "tiles_executed"); gr_jw_int(w, (int64_t)no->x.tiles_executed);
        gr_jw_key(w, "mismatches"); gr_jw_int(w, (int64_t)no->x.mismatches);
        gr_jw_key(w, "scaled"); gr_jw_bool(w, no->x.scaled);
        if( no->x.scaled ){
          gr_jw_key(w, "scale"); gr_jw_str(w, no->x.scale_text);
          gr_jw_key(w, "scaled_tile_shape"); jw_dims(w, no->x.plan.tile, no->x.plan.ndim);
          gr_jw_key(w, "scaled_tiles_total"); gr_jw_int(w, (int64_t)no->x.plan.ntiles);
        }
        gr_jw_end_obj(w);
      }else gr_jw_null(w);
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

static void text_node(gr_out *o, const gr_tiling_rules *tr, const gr_result *r, const gr_tchip *chip,
                      uint32_t node, const node_out *no){
  const gr_graph *g = r->g;
  const gr_node *n = &gr_graph_nodes(g)[node];
  const gr_tplan *p = &no->plan;
  const char *pl = placement(tr, r, node);
  size_t i;
  int l;
  gr_out_printf(o, "%s (%s)  class %s [%s]  tiling %s\n", gr_graph_str(g, n->name), gr_graph_type_name(g, n->type),
                no->cls, gr_tstrategy_name(no->strategy), pl ? pl : "-");
  if( no->planned ){
    char bi[32], bo[32];
    gr_out_printf(o, "  plan     %u core%s, tile ", p->block_dim, p->block_dim==1 ? "" : "s");
    out_dims(o, p->tile, p->ndim);
    gr_out_puts(o, " over ");
    out_dims(o, p->shape, p->ndim);
    if( p->strategy==GR_TS_MATMUL ) gr_out_printf(o, " (batch, M, N), K block %lld in L0 / %lld in L1", (long long)p->inner[0], (long long)p->inner[1]);
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
        gr_out_printf(o, "%s%s %ux%llu", first ? " (" : " + ", p->buf[i].name, p->buf[i].copies, (unsigned long long)p->buf[i].bytes);
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
  for(i = 0; i < no->notes.n; i++)
    gr_out_printf(o, "  %s %s: %s\n", no->notes.v[i].error ? "error:" : "note: ", no->notes.v[i].check, no->notes.v[i].msg);
  if( no->executed && no->x.ran ){
    gr_out_printf(o, "  execute  %zu tiles, max abs err %.3g, max rel err %.3g (tolerance %.3g): %s\n", no->x.tiles_executed,
                  no->x.max_abs_err, no->x.max_rel_err, no->x.tolerance, no->x.match ? "match" : "MISMATCH");
    if( no->x.scaled ){
      gr_out_printf(o, "           scaled down: %s; tile ", no->x.scale_text);
      out_dims(o, no->x.plan.tile, no->x.plan.ndim);
      gr_out_printf(o, ", %zu tiles\n", no->x.plan.ntiles);
    }
  }
  gr_out_printf(o, "  %s\n", no->skipped ? "skipped (dynamic shape)"
                           : no->planned && no->valid && no->notes.nerr==0 ? "valid" : "INVALID");
}

/* ---- the command ---- */

typedef struct untyped { const char *type; size_t n; } untyped;

int cmd_tile(cli_ctx *c, int argc, char **argv){
  tile_args a;
  cli_input in;
  gr_ruleset *rs;
  gr_graph *g = NULL;
  gr_result *r = NULL;
  gr_hooks *hooks = NULL;
  gr_eval_config cfg;
  gr_tiling_rules tr;
  gr_tchip chip;
  gr_error err;
  gr_out o;
  gr_jw w;
  int i, rc = 0, k, opened = 0;
  uint32_t only = GR_NONE, type_id = GR_NONE, node, nn;
  size_t planned = 0, invalid = 0, executed = 0, mismatched = 0, unsupported = 0, skipped = 0;
  untyped *ut = NULL;
  size_t nut = 0;
  plan_cache cache;

  memset(&a, 0, sizeof a);
  memset(&cache, 0, sizeof cache);
  a.seed = 1;
  cli_input_init(&in, "tile");
  memset(&err, 0, sizeof err);
  for(i = 0; i < argc; i++){
    const char *v = NULL;
    if( strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0 ){ fputs(tile_usage, stdout); goto out_free; }
    if( (k = cli_arg_value("tile", "--node", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.node = v; continue; }
    if( (k = cli_arg_value("tile", "--type", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.type = v; continue; }
    if( (k = cli_arg_value("tile", "--output", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto usage; a.output = v; continue; }
    if( (k = cli_arg_value("tile", "--seed", &i, argc, argv, &v))!=0 ){
      char *end;
      if( k < 0 ) goto usage;
      a.seed = strtoull(v, &end, 10);
      if( *v==0 || *end || *v=='-' ){ cli_usage_error("tile", "--seed expects a non-negative integer, got '%s'", v); goto usage; }
      continue;
    }
    if( (k = cli_arg_value("tile", "--format", &i, argc, argv, &v))!=0 ){
      if( k < 0 || cli_format_arg("tile", v, &a.json) ) goto usage;
      continue;
    }
    if( strcmp(argv[i], "--execute")==0 ){ a.execute = 1; continue; }
    if( (k = cli_input_arg(&in, &i, argc, argv))!=0 ){ if( k < 0 ) goto usage; continue; }
    cli_usage_error("tile", "unknown option '%s'", argv[i]);
    goto usage;
  }
  if( in.graph==NULL ){ cli_usage_error("tile", "no graph file given"); goto usage; }
  if( a.node && a.type ){ cli_usage_error("tile", "--node and --type cannot be combined"); goto usage; }
  if( (rs = cli_load_rules(c))==NULL ){ rc = EXIT_INPUT; goto out_free; }
  if( gr_tiling_rules_init(&tr, rs, &err) ){
    fprintf(stderr, "gerules tile: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto out_free;
  }
  if( (g = cli_load_graph(&in))==NULL ){ rc = EXIT_INPUT; goto out_free; }
  if( a.node && !gr_graph_find_node(g, a.node, &only) ){
    fprintf(stderr, "gerules tile: error: no node named '%s' in %s\n", a.node, in.graph);
    rc = EXIT_INPUT;
    goto out_free;
  }
  if( a.type && !gr_graph_find_type(g, a.type, &type_id) ){
    fprintf(stderr, "gerules tile: error: no node of type '%s' in %s\n", a.type, in.graph);
    rc = EXIT_INPUT;
    goto out_free;
  }
  /* Lua: the bundle's hooks, then --hook files */
  if( cli_load_hooks(&in, rs, &hooks)!=0 ){ rc = EXIT_INPUT; goto out_free; }
  cli_eval_config(&in, g, hooks, &cfg);
  if( (r = cli_evaluate(&in, rs, &cfg))==NULL ){ rc = EXIT_INPUT; goto out_free; }
  if( r->diags.count[GR_SEV_ERROR] ){
    /* the configuration is in error: placement may be meaningless, say so */
    cli_print_diags(&r->diags);
    fprintf(stderr, "gerules tile: warning: the options have errors (see 'gerules eval'); placements may not be what GE does\n");
  }
  gr_tiling_chip(&tr, r->soc, &chip);

  fflush(stdout);
  if( a.output ){
    if( gr_out_open_file(&o, a.output, &err)!=0 ){
      fprintf(stderr, "gerules tile: error: %s\n", err.msg);
      rc = EXIT_INPUT;
      goto out_free;
    }
  }else gr_out_init_fd(&o, 1);
  opened = 1;
  if( a.json ){
    int l;
    gr_jw_init(&w, &o, 2);
    gr_jw_obj(&w);
    gr_jw_key(&w, "chip");
    gr_jw_obj(&w);
    gr_jw_key(&w, "soc"); gr_jw_str(&w, r->soc_name);
    gr_jw_key(&w, "product"); gr_jw_str(&w, rs->products[r->product].name);
    for(l = 0; l < GR_MEM_N; l++){
      char key[32];
      snprintf(key, sizeof key, "%s_bytes", gr_tmem_name(l));
      gr_jw_key(&w, key); gr_jw_int(&w, (int64_t)chip.cap[l]);
    }
    gr_jw_key(&w, "vector_cores"); gr_jw_int(&w, chip.cores[0]);
    gr_jw_key(&w, "cube_cores"); gr_jw_int(&w, chip.cores[1]);
    gr_jw_key(&w, "ai_cores"); gr_jw_int(&w, chip.cores[2]);
    gr_jw_end_obj(&w);
    gr_jw_key(&w, "graph"); gr_jw_str(&w, cfg.graph_file);
    gr_jw_key(&w, "execute"); gr_jw_bool(&w, a.execute);
    gr_jw_key(&w, "nodes");
    gr_jw_arr(&w);
  }else{
    gr_out_printf(&o, "chip %s: UB %llu, L1 %llu, L0A %llu, L0B %llu, L0C %llu bytes; %u vector, %u cube, %u AI cores\n",
                  r->soc_name, (unsigned long long)chip.cap[GR_MEM_UB], (unsigned long long)chip.cap[GR_MEM_L1],
                  (unsigned long long)chip.cap[GR_MEM_L0A], (unsigned long long)chip.cap[GR_MEM_L0B],
                  (unsigned long long)chip.cap[GR_MEM_L0C], chip.cores[0], chip.cores[1], chip.cores[2]);
    gr_out_printf(&o, "graph %s, %u nodes\n\n", cfg.graph_file, gr_graph_nnodes(g));
  }
  nn = gr_graph_nnodes(g);
  for(node = 0; node < nn; node++){
    node_out no;
    const gr_node *n = &gr_graph_nodes(g)[node];
    if( only != GR_NONE && node != only ) continue;
    if( type_id != GR_NONE && n->type != type_id ) continue;
    do_node(&tr, r, hooks, &chip, node, &a, &no, &cache);
    if( no.cls && no.skipped ){
      skipped++;
    }else if( no.cls ){
      planned++;
      if( !(no.planned && no.valid && no.notes.nerr==0) ) invalid++;
      if( no.executed && no.x.ran ){ executed++; if( !no.x.match ) mismatched++; }
    }else{
      const char *ty = gr_graph_type_name(g, n->type);
      size_t u;
      unsupported++;
      for(u = 0; u < nut; u++) if( strcmp(ut[u].type, ty)==0 ) break;
      if( u==nut ){ ut = gr_xrealloc(ut, (nut + 1) * sizeof *ut); ut[nut].type = ty; ut[nut++].n = 0; }
      ut[u].n++;
    }
    if( a.json ) json_node(&w, &tr, r, node, &no, a.execute);
    else if( no.cls ){ text_node(&o, &tr, r, &chip, node, &no); gr_out_putc(&o, '\n'); }
    node_out_free(&no);
  }
  if( a.json ){
    gr_jw_end_arr(&w);
    gr_jw_key(&w, "summary");
    gr_jw_obj(&w);
    gr_jw_key(&w, "nodes"); gr_jw_int(&w, (int64_t)(planned + unsupported + skipped));
    gr_jw_key(&w, "planned"); gr_jw_int(&w, (int64_t)planned);
    gr_jw_key(&w, "skipped"); gr_jw_int(&w, (int64_t)skipped);
    gr_jw_key(&w, "invalid"); gr_jw_int(&w, (int64_t)invalid);
    gr_jw_key(&w, "no_strategy"); gr_jw_int(&w, (int64_t)unsupported);
    gr_jw_key(&w, "executed"); gr_jw_int(&w, (int64_t)executed);
    gr_jw_key(&w, "mismatched"); gr_jw_int(&w, (int64_t)mismatched);
    gr_jw_end_obj(&w);
    gr_jw_end_obj(&w);
    gr_out_putc(&o, '\n');
  }else{
    if( nut ){
      size_t u;
      gr_out_printf(&o, "%zu node%s without a tiling strategy:", unsupported, unsupported==1 ? "" : "s");
      for(u = 0; u < nut; u++) gr_out_printf(&o, "%s %s x%zu", u ? "," : "", ut[u].type, ut[u].n);
      gr_out_putc(&o, '\n');
    }
    gr_out_printf(&o, "summary: %zu node%s planned, %zu valid, %zu invalid", planned, planned==1 ? "" : "s", planned - invalid, invalid);
    if( skipped ) gr_out_printf(&o, ", %zu skipped (dynamic shapes)", skipped);
    if( a.execute ) gr_out_printf(&o, "; %zu executed, %zu match, %zu mismatch", executed, executed - mismatched, mismatched);
    gr_out_putc(&o, '\n');
  }
  opened = 0;
  if( gr_out_close(&o, &err)!=0 ){
    fprintf(stderr, "gerules tile: error: %s\n", err.msg);
    rc = EXIT_INPUT;
    goto out_free;
  }
  rc = invalid || mismatched ? EXIT_CONFIG : 0;
  if( a.json && rc ) fprintf(stderr, "gerules tile: %zu invalid plan%s, %zu mismatched execution%s\n",
                             invalid, invalid==1 ? "" : "s", mismatched, mismatched==1 ? "" : "s");
out_free:
  if( opened ) gr_out_abort(&o);
  plan_cache_free(&cache);
  free(ut);
  gr_result_free(r);
  gr_hooks_free(hooks);
  gr_graph_free(g);
  cli_input_free(&in);
  return rc;
usage:
  rc = EXIT_INPUT;
  goto out_free;
}
