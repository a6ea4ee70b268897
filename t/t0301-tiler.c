/*
** t0301-tiler.c: tiling a whole graph through the library alone (tiler.h),
** without the CLI: the shipped rules ($GERULES_RULES), the LLM decoder
** example evaluated on Ascend910B1, every node handed to the tiler. Checks
** the summary (planned, valid, without a strategy by type), that nodes of one
** distinct (class, spec) share one plan and one execution, that --execute
** runs each distinct plan once and every execution matches, that findings
** carry their stable check codes, that a custom tiling source (here a C
** function, as the Lua bridge is one) is asked per node and its plans are
** validated, and that a failing source is a "hook" finding of that node only.
*/
#include "config.h"
#include "tiling/tiler.h"
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gr_ruleset *rs;
static gr_tiling_rules tr;
static gr_graph *g;

/* a test name with numbers in it */
static const char *nm(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *nm(const char *fmt, ...){
  static char b[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  return b;
}

static const char *env_or(const char *name, const char *dflt){
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

static void setup(void){
  static char rules[4096], graph[4096];
  const char *path = rules;
  gr_diags d;
  gr_error err;
  snprintf(rules, sizeof rules, "%s", env_or("GERULES_RULES", GR_SRCDIR "/rules"));
  snprintf(graph, sizeof graph, "%s/examples/llm_decoder.json", env_or("top_srcdir", GR_SRCDIR));
  gr_diags_init(&d);
  if( (rs = gr_ruleset_load(&path, 1, &d))==NULL ){ printf("Bail out! cannot load %s\n", rules); exit(1); }
  gr_diags_free(&d);
  memset(&err, 0, sizeof err);
  if( gr_tiling_rules_init(&tr, rs, &err) ){ printf("Bail out! %s\n", err.msg); exit(1); }
  if( (g = gr_graph_load_file(graph, &err))==NULL ){ printf("Bail out! %s: %s\n", graph, err.msg); exit(1); }
}

static gr_result *evaluate(const char *chip){
  gr_eval_config cfg;
  gr_result *r;
  memset(&cfg, 0, sizeof cfg);
  cfg.chip = chip;
  cfg.graph = g;
  cfg.graph_file = "llm_decoder.json";
  r = gr_eval(rs, &cfg);
  if( r->fatal ){ printf("Bail out! eval: %s\n", r->diags.n ? r->diags.v[r->diags.n - 1].msg : "failed"); exit(1); }
  return r;
}

static uint32_t node_named(const char *name){
  uint32_t n = GR_NONE;
  if( !gr_graph_find_node(g, name, &n) ){ printf("Bail out! no node %s\n", name); exit(1); }
  return n;
}

static void test_whole_graph(int execute){
  gr_result *r = evaluate("Ascend910B1");
  gr_tiler_opts o;
  gr_tiler *t;
  gr_error err;
  const gr_tsummary *s;
  uint32_t node, nn = gr_graph_nnodes(g), rows = GR_NONE, q = node_named("layer0/attn/q_proj");
  uint32_t k = node_named("layer0/attn/k_proj");
  const gr_tshared *sq = NULL, *sk = NULL;
  size_t valid = 0, coded = 0, findings = 0, ran = 0;
  char name[160];
  memset(&o, 0, sizeof o);
  memset(&err, 0, sizeof err);
  o.execute = execute;
  o.seed = 1;
  t = gr_tiler_new(&tr, r, &o, &err);
  if( !ok(t != NULL, nm("%s: a tiler for the evaluated chip", execute ? "execute" : "plan")) ){ diag("%s", err.msg); return; }
  for(node = 0; node < nn; node++){
    const gr_tnode *n = gr_tiler_node(t, node);
    const gr_diags *sh = gr_tnode_shared_notes(n);
    size_t i;
    if( n->cls && gr_tnode_valid(n) ) valid++;
    if( gr_tnode_exec(n) && gr_tnode_exec(n)->match ) ran++;
    for(i = 0; i < n->notes.n; i++){ findings++; if( gr_tcheck_of(&n->notes.v[i]) != GR_TC_NONE ) coded++; }
    for(i = 0; sh && i < sh->n; i++){ findings++; if( gr_tcheck_of(&sh->v[i]) != GR_TC_NONE ) coded++; }
    if( node==q ) sq = n->shared;
    if( node==k ) sk = n->shared;
    if( rows==GR_NONE && n->cls && n->strategy==GR_TS_REDUCE_LAST ) rows = node;
  }
  s = gr_tiler_summary(t);
  snprintf(name, sizeof name, "%s:", execute ? "execute" : "plan");
  is(s->nodes, nn, nm("%s every node was tiled", name));
  is(s->planned, 31, nm("%s 31 nodes have a class", name));
  is(s->invalid, 0, nm("%s none is invalid", name));
  is(valid, 31, nm("%s gr_tnode_valid agrees", name));
  is(s->no_strategy, 32, nm("%s 32 nodes have no strategy", name));
  is(s->no_strategy_by_type[gr_graph_nodes(g)[node_named("layer0/attn/q_rope")].type], 4, nm("%s ... of which 4 RotaryMul", name));
  is(s->distinct, 11, nm("%s 31 nodes share 11 distinct plans", name));
  ok(sq != NULL && sq==sk, nm("%s q_proj and k_proj (same shapes) share one plan", name));
  ok(sq != NULL && sq->nodes >= 2, nm("%s ... counted as shared by %zu nodes", name, sq ? sq->nodes : 0));
  is(coded, findings, nm("%s every finding carries a tiling check code (%zu)", name, findings));
  if( execute ){
    is(s->executions, 11, "execute: each distinct plan ran once (11 executions for 31 nodes)");
    is(s->executed, 31, "execute: every planned node has an execution");
    is(s->mismatched, 0, "execute: no mismatch");
    is(ran, 31, "execute: every node's execution matched");
  }else{
    is(s->executions, 0, "plan: nothing executed without execute");
  }
  gr_tiler_free(t);
  gr_result_free(r);
}

/* ---- a custom source in C: row blocks of 16 over output 0 ---- */
typedef struct csrc { const char *type; int calls, fail, overlap; } csrc;

static int c_has(void *ctx, const char *op_type){ return strcmp(op_type, ((csrc*)ctx)->type)==0; }
static int c_run(void *ctx, uint32_t node, gr_custom_tiling *out, gr_error *err){
  csrc *c = ctx;
  const gr_node *n = &gr_graph_nodes(g)[node];
  const gr_tensor *tt = gr_graph_tensors(g, n);
  uint32_t nd, i, d;
  const int64_t *dims = gr_graph_shape(g, tt[n->n_in_desc].shape, &nd);
  uint32_t rd = nd >= 2 ? nd - 2 : 0;        /* blocks of 4 along the second-to-last dim */
  int64_t rows = dims[rd], blk = 4, vol = 1;
  c->calls++;
  if( c->fail ){ gr_error_set(err, 0, 0, "policy.lua:3: no plan for this node"); return -1; }
  memset(out, 0, sizeof *out);
  out->ndim = nd;
  for(d = 0; d < nd; d++){ out->tile_shape[d] = d < rd ? 1 : d==rd ? blk : dims[d]; vol *= out->tile_shape[d]; }
  out->ntiles = (size_t)((rows + blk - 1) / blk);
  for(d = 0; d < rd; d++) out->ntiles *= (size_t)dims[d];
  out->offsets = calloc(out->ntiles * nd, sizeof *out->offsets);
  out->sizes = calloc(out->ntiles * nd, sizeof *out->sizes);
  for(i = 0; i < out->ntiles; i++){
    size_t rest = i / (size_t)((rows + blk - 1) / blk), rb = i % (size_t)((rows + blk - 1) / blk);
    for(d = rd; d-- > 0; ){ out->offsets[i * nd + d] = (int64_t)(rest % (size_t)dims[d]); rest /= (size_t)dims[d]; out->sizes[i * nd + d] = 1; }
    out->offsets[i * nd + rd] = (int64_t)rb * blk - (c->overlap && rb ? 1 : 0);
    out->sizes[i * nd + rd] = rows - (int64_t)rb * blk < blk ? rows - (int64_t)rb * blk : blk;
    for(d = rd + 1; d < nd; d++) out->sizes[i * nd + d] = dims[d];
  }
  out->block_dim = out->ntiles < 16 ? (uint32_t)out->ntiles : 16;
  out->buffers = 2;
  out->ub_bytes = 2 * (uint64_t)vol * 2;     /* two fp16 buffers of one tile */
  return 0;
}
static void c_release(void *ctx, gr_custom_tiling *t){
  (void)ctx;
  free(t->offsets); free(t->sizes); free(t->cores);
  t->offsets = t->sizes = NULL; t->cores = NULL;
}

static void test_custom_source(void){
  gr_result *r = evaluate("Ascend910B1");
  gr_tiler_opts o;
  gr_tcustom_source src;
  csrc c = { "Add", 0, 0, 0 };
  gr_tiler *t;
  gr_error err;
  uint32_t node, nn = gr_graph_nnodes(g), adds = 0, valid = 0, hooks = 0, cov = 0;
  int pass;
  memset(&err, 0, sizeof err);
  src.has = c_has; src.run = c_run; src.release = c_release; src.ctx = &c;
  for(pass = 0; pass < 3; pass++){
    memset(&o, 0, sizeof o);
    o.custom = &src;
    c.calls = 0; c.fail = pass==1; c.overlap = pass==2;
    adds = valid = hooks = cov = 0;
    t = gr_tiler_new(&tr, r, &o, &err);
    for(node = 0; node < nn; node++){
      const gr_tnode *n = gr_tiler_node(t, node);
      if( strcmp(gr_graph_type_name(g, gr_graph_nodes(g)[node].type), c.type) ) continue;
      adds++;
      if( gr_tnode_valid(n) ) valid++;
      if( gr_tdiags_has(&n->notes, GR_TC_HOOK) ) hooks++;
      if( gr_tdiags_has(&n->notes, GR_TC_COVERAGE) ) cov++;
    }
    is(adds, 4, nm("custom pass %d: the graph has 4 Add nodes", pass));
    if( pass==0 ){
      is(c.calls, 4, "custom: the source is asked once per Add node (4)");
      is(valid, 4, "custom: its row-block plans validate");
      is(gr_tiler_summary(t)->invalid, 0, "custom: the rest of the graph is still valid");
    }else if( pass==1 ){
      is(hooks, 4, "custom: a failing source is a hook finding on each of its nodes");
      is(gr_tiler_summary(t)->invalid, 4, "custom: ... and only those are invalid");
    }else{
      is(cov, 4, "custom: overlapping tiles from the source are a coverage error");
    }
    gr_tiler_free(t);
  }
  gr_result_free(r);
}

int main(void){
  setup();
  test_whole_graph(0);
  test_whole_graph(1);
  test_custom_source();
  gr_graph_free(g);
  gr_ruleset_free(rs);
  return done_testing();
}
