/*
** tiler.c: tiles a graph node by node (tiler.h). Built-in classes go through
** a plan cache keyed by (class, spec), indexed by base/hashmap's gr_idmap
** (the one hash table of the project): the first node of a distinct key is
** planned, validated and, with execute, run; later nodes point at that
** result. Custom tilings come from a gr_tcustom_source and are converted and
** validated per node. The placement (where GE computes the tiling) is read
** from the evaluator's decision for the node.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "base/hashmap.h"
#include "tiling/tiler.h"

struct gr_tiler {
  const gr_tiling_rules *tr;
  gr_result *r;
  gr_tiler_opts o;
  gr_tchip chip;
  gr_tnode cur;
  gr_tsummary sum;
  /* the plan cache: shared results (id = index), found through the one map */
  gr_tshared **v; size_t n, cap;
  gr_idmap index;
};

/* ------------------------------------------------------------------ the plan cache */

static uint64_t key_hash(const char *cls, const gr_tspec *spec){
  /* specs are zeroed before they are filled, so padding bytes compare equal */
  return gr_hash(spec, sizeof *spec) ^ (uint64_t)(uintptr_t)cls * 0x9e3779b97f4a7c15ULL;
}

typedef struct key { const gr_tiler *t; const char *cls; const gr_tspec *spec; uint64_t h; } key;

static int key_eq(const void *ctx, uint32_t id){
  const key *k = ctx;
  const gr_tshared *m = k->t->v[id];
  return m->hash==k->h && m->cls==k->cls && memcmp(&m->spec, k->spec, sizeof *k->spec)==0;
}

static gr_tshared *cache_find(gr_tiler *t, const char *cls, const gr_tspec *spec, uint64_t h){
  key k;
  int64_t id;
  k.t = t; k.cls = cls; k.spec = spec; k.h = h;
  id = gr_idmap_find(&t->index, h, key_eq, &k);
  return id < 0 ? NULL : t->v[id];
}

static gr_tshared *cache_add(gr_tiler *t, const char *cls, const gr_tparams *prm, const gr_tspec *spec, uint64_t h){
  gr_tshared *m;
  if( t->n==t->cap ){ t->cap = t->cap ? t->cap * 2 : 16; t->v = gr_xrealloc(t->v, t->cap * sizeof *t->v); }
  m = gr_xcalloc(1, sizeof *m);
  m->cls = cls;
  m->prm = *prm;
  m->spec = *spec;
  m->hash = h;
  gr_diags_init(&m->notes);
  t->v[t->n] = m;
  gr_idmap_add(&t->index, h, (uint32_t)t->n);
  t->n++;
  return m;
}

/* ------------------------------------------------------------------ node results */

const gr_tplan *gr_tnode_plan(const gr_tnode *n){
  if( n->shared ) return n->shared->planned ? &n->shared->plan : NULL;
  return n->custom_planned ? &n->custom_plan : NULL;
}

const gr_diags *gr_tnode_shared_notes(const gr_tnode *n){
  return n->shared && n->shared->notes.n ? &n->shared->notes : NULL;
}

int gr_tnode_valid(const gr_tnode *n){
  if( n->cls==NULL || n->skipped || n->notes.count[GR_SEV_ERROR] ) return 0;
  if( n->shared ) return n->shared->planned && n->shared->valid && n->shared->notes.count[GR_SEV_ERROR]==0;
  return n->custom_planned && n->custom_valid;
}

const gr_texec *gr_tnode_exec(const gr_tnode *n){
  return n->shared && n->shared->executed && n->shared->x.ran ? &n->shared->x : NULL;
}

static void node_reset(gr_tnode *n){
  gr_diags_free(&n->notes);
  gr_tplan_free(&n->custom_plan);
  memset(n, 0, sizeof *n);
}

/* ------------------------------------------------------------------ the tiler */

gr_tiler *gr_tiler_new(const gr_tiling_rules *tr, gr_result *r, const gr_tiler_opts *opts, gr_error *err){
  gr_tiler *t;
  gr_tchip chip;
  if( gr_tiling_chip(tr, r->soc, &chip)!=0 ){
    gr_error_set(err, 0, 0, "the evaluation has no chip of the rule set");
    return NULL;
  }
  t = gr_xcalloc(1, sizeof *t);
  gr_idmap_init(&t->index);
  t->tr = tr;
  t->r = r;
  if( opts ) t->o = *opts;
  t->chip = chip;
  t->sum.no_strategy_by_type = gr_xcalloc(gr_graph_ntypes(r->g) + 1, sizeof *t->sum.no_strategy_by_type);
  return t;
}

const gr_tchip *gr_tiler_chip(const gr_tiler *t){ return &t->chip; }
const gr_tsummary *gr_tiler_summary(const gr_tiler *t){ return &t->sum; }

void gr_tiler_free(gr_tiler *t){
  size_t i;
  if( t==NULL ) return;
  node_reset(&t->cur);
  for(i = 0; i < t->n; i++){
    gr_tplan_free(&t->v[i]->plan);
    gr_diags_free(&t->v[i]->notes);
    gr_texec_free(&t->v[i]->x);
    free(t->v[i]);
  }
  free(t->v);
  gr_idmap_free(&t->index);
  free(t->sum.no_strategy_by_type);
  free(t);
}

/* the seed of a shared execution: from the user's seed and the key, so a node
** gets the same inputs whatever else is tiled with it */
static uint64_t shared_seed(uint64_t seed, const gr_tshared *m){
  return seed * 0x9e3779b97f4a7c15ull ^ gr_hash(&m->spec, sizeof m->spec);
}

static void tile_custom(gr_tiler *t, gr_tnode *no){
  const gr_tcustom_source *src = t->o.custom;
  gr_custom_tiling ct;
  gr_error err;
  no->cls = t->tr->custom_class ? t->tr->custom_class : "custom";
  memset(&err, 0, sizeof err);
  if( gr_tiling_params(t->tr, no->cls, &no->custom_prm, &err) ){
    gr_tnote(&no->notes, GR_SEV_ERROR, GR_TC_RULES, "%s", err.msg);
    return;
  }
  no->custom_prm.strategy = GR_TS_CUSTOM;
  if( gr_tiling_spec_custom(t->tr, t->r->g, no->node, &no->custom_spec, &no->notes) ) return;
  if( no->custom_spec.strategy==GR_TS_NONE ){ no->skipped = 2; return; }   /* no shape known (the note says why) */
  no->strategy = GR_TS_CUSTOM;
  memset(&ct, 0, sizeof ct);
  if( src->run(src->ctx, no->node, &ct, &err) ){
    gr_tnote(&no->notes, GR_SEV_ERROR, GR_TC_HOOK, "%s", err.msg);
    if( src->release ) src->release(src->ctx, &ct);
    return;
  }
  no->custom_prm.buffers = ct.buffers;
  no->custom_prm.double_buffer = ct.double_buffer ? 1 : 0;
  if( gr_tplan_from_custom(&no->custom_plan, &ct, &no->custom_spec, &no->custom_prm, &no->notes)==0 ){
    no->custom_planned = 1;
    no->custom_valid = gr_tiling_validate(&no->custom_plan, &no->custom_spec, &no->custom_prm, &t->chip, &no->notes)==0;
  }
  if( src->release ) src->release(src->ctx, &ct);
}

static void tile_builtin(gr_tiler *t, gr_tnode *no, const gr_node *n){
  gr_tparams prm;
  gr_tspec spec;
  gr_tshared *m;
  uint64_t h;
  if( n->flags & GR_NODE_DYNAMIC ){
    no->skipped = 1;
    gr_tnote(&no->notes, GR_SEV_NOTE, GR_TC_SHAPE, "dynamic shape: there is no static plan to check; the tiling runs on the host at run time");
    return;
  }
  no->strategy = gr_tiling_spec(t->tr, t->r->g, no->node, &prm, &spec, &no->notes);
  if( no->notes.count[GR_SEV_ERROR] ) return;
  if( no->strategy==GR_TS_NONE ){     /* no shape to plan (the spec's note says why) */
    no->skipped = 2;
    return;
  }
  h = key_hash(no->cls, &spec);
  if( (m = cache_find(t, no->cls, &spec, h))==NULL ){
    m = cache_add(t, no->cls, &prm, &spec, h);
    t->sum.distinct++;
    m->planned = gr_tiling_plan(&m->spec, &m->prm, &t->chip, &m->plan, &m->notes)==0;
    if( m->planned ) m->valid = gr_tiling_validate(&m->plan, &m->spec, &m->prm, &t->chip, &m->notes)==0;
    if( t->o.execute && m->planned && m->valid ){
      m->executed = 1;
      gr_tiling_execute(&m->spec, &m->prm, &t->chip, &m->plan, shared_seed(t->o.seed, m), &m->x, &m->notes);
      if( m->x.ran ) t->sum.executions++;
    }
  }
  m->nodes++;
  no->shared = m;
}

const gr_tnode *gr_tiler_node(gr_tiler *t, uint32_t node){
  gr_tnode *no = &t->cur;
  const gr_graph *g = t->r->g;
  const gr_node *n = &gr_graph_nodes(g)[node];
  const char *type = gr_graph_type_name(g, n->type);
  node_reset(no);
  no->node = node;
  if( t->tr->slot >= 0 && t->r->dec )
    no->placement = gr_dec(t->r, node, t->tr->slot)->value;
  if( t->o.custom && t->o.custom->has(t->o.custom->ctx, type) ) tile_custom(t, no);
  else if( (no->cls = gr_tiling_class_of(t->tr, type))!=NULL ) tile_builtin(t, no, n);
  /* the summary */
  t->sum.nodes++;
  if( no->cls==NULL ){
    t->sum.no_strategy++;
    if( n->type < gr_graph_ntypes(g) ) t->sum.no_strategy_by_type[n->type]++;
  }else if( no->skipped ){
    t->sum.skipped++;
    if( no->skipped==2 ) t->sum.skipped_unknown++;
  }else{
    const gr_texec *x = gr_tnode_exec(no);
    t->sum.planned++;
    if( !gr_tnode_valid(no) ) t->sum.invalid++;
    if( x ){ t->sum.executed++; if( !x->match ) t->sum.mismatched++; }
  }
  return no;
}
