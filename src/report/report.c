/*
** report.c: writes an evaluation result as JSON, one diagnostic as text,
** and explains the decision chain of one node (the text report is in
** text_report.c). Per node the JSON writer emits each slot's
** value, winning source and reason, and the provenance (every candidate that
** yielded, the rule location, the input line behind the value). Reasons and
** input origins are re-derived from the stored decision by re-evaluating
** only the winning branch, and only when it is not constant, which keeps the
** result compact and the writer fast on million-node graphs.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "report/gears.h"
#include "eval/judge.h"
#include "report/srclines.h"
#include "model/model.h"
#include "model/qualname.h"

static void origin_text(gr_buf *b, const gr_origin *og){
  if( og==NULL ) return;
  if( og->line ) gr_buf_printf(b, "%s:%u", og->file, og->line);
  else gr_buf_adds(b, og->file);
}

/* Whether a template's text depends on nothing finer than the op type (so it
** can be rendered once per type): no variables, no per-node fields. */
static int tpl_per_type(const gr_template *t){
  size_t i;
  for(i = 0; i < t->n; i++) if( t->parts[i].e && t->parts[i].e->dep > GR_DEP_TYPE ) return 0;
  return 1;
}

/* e is the current node's judge_FIELD (the dtype and engine judge's record,
** which the tail cache keys nodes by, tail_key_of) */
static int judge_field(const gr_expr *e){
  return e && e->op==GR_E_FIELD && e->ref==GR_F_JUDGE && e->a && e->a->op==GR_E_NODE && e->ref2!=GR_JF_ENGINE_SUMMARY;
}

/* every placeholder depends on nothing finer than the op type, or is a judge field */
static int tpl_per_type_or_judge(const gr_template *t){
  size_t i;
  for(i = 0; i < t->n; i++) if( t->parts[i].e && t->parts[i].e->dep > GR_DEP_TYPE && !judge_field(t->parts[i].e) ) return 0;
  return 1;
}

/* A cache of reasons rendered per (source, branch, op type): packed keys and
** their texts in insertion order, indexed by a gr_idmap. */
typedef struct reason_cache {
  uint64_t *keys; const char **vals; size_t n, cap;
  gr_idmap index;
  gr_arena arena;
} reason_cache;

static int rc_eq(const void *ctx, uint32_t id){
  const void *const *k = ctx;
  return ((const reason_cache *)k[0])->keys[id]==*(const uint64_t *)k[1];
}

/* The text slot of key (NULL until the caller fills it). */
static const char **rc_slot(reason_cache *c, uint64_t key){
  uint64_t h = gr_hash_u64(key);
  const void *k[2] = { c, &key };
  int64_t i = gr_idmap_find(&c->index, h, rc_eq, k);
  if( i >= 0 ) return &c->vals[i];
  if( c->n==c->cap ){
    c->cap = c->cap ? c->cap * 2 : 256;
    c->keys = gr_xrealloc(c->keys, c->cap * sizeof *c->keys);
    c->vals = gr_xrealloc(c->vals, c->cap * sizeof *c->vals);
  }
  c->keys[c->n] = key; c->vals[c->n] = NULL;
  gr_idmap_add(&c->index, h, (uint32_t)c->n);
  return &c->vals[c->n++];
}

static void rc_free(reason_cache *c){
  free(c->keys); free(c->vals);
  gr_idmap_free(&c->index);
  gr_arena_free(&c->arena);
}

/* gr_decision_detail, with the reason taken from the cache when it depends
** on nothing finer than the op type. */
static void detail(gr_result *r, uint32_t node, int32_t source, uint16_t branch,
                   gr_buf *reason, const gr_origin **input, reason_cache *cache){
  const gr_branch *br;
  const gr_graph *g = r->g;
  if( input ) *input = NULL;
  if( source < 0 ) return;
  br = &r->rs->sources[source].branches[branch];
  if( cache && reason && !br->because.constant && br->because.n && tpl_per_type(&br->because) ){
    uint32_t type = gr_graph_nodes(g)[node].type;
    const char **slot = rc_slot(cache, ((uint64_t)(uint32_t)source << 40) | ((uint64_t)branch << 24) | (uint64_t)type | 1ULL << 63);
    if( *slot==NULL ){
      gr_env env;
      gr_buf tmp;
      gr_buf_init(&tmp);
      gr_env_init(&env, r);
      env.node = node;
      env.type_name = gr_graph_type_name(g, type);
      gr_render(&env, &br->because, &tmp);
      *slot = gr_arena_strndup(&cache->arena, tmp.p ? tmp.p : "", tmp.n);
      gr_buf_free(&tmp);
    }
    gr_buf_adds(reason, *slot);
    reason = NULL;
  }
  gr_decision_detail(r, node, source, branch, reason, input);
}

/* ------------------------------------------------------------------ */
/* JSON */

void gr_report_diag_json(gr_jw *w, const gr_diag *d){
  gr_jw_obj(w);
  gr_jw_key(w, "severity"); gr_jw_str(w, gr_severity_name(d->sev));
  gr_jw_key(w, "code"); gr_jw_str(w, d->code);
  gr_jw_key(w, "ge_code"); gr_jw_str(w, d->ge_code);
  gr_jw_key(w, "message"); gr_jw_str(w, d->msg);
  gr_jw_key(w, "option"); gr_jw_str(w, d->option);
  gr_jw_key(w, "node"); gr_jw_str(w, d->node);
  gr_jw_key(w, "file"); gr_jw_str(w, d->file);
  gr_jw_key(w, "line"); gr_jw_int(w, d->line);
  gr_jw_key(w, "column"); gr_jw_int(w, d->col);
  gr_jw_key(w, "rule"); gr_jw_str(w, d->rule);
  if( d->changed_by ){
    gr_jw_key(w, "original_severity"); gr_jw_str(w, gr_severity_name(d->orig_sev));
    gr_jw_key(w, "changed_by"); gr_jw_str(w, d->changed_by);
  }
  if( d->ngears ){                   /* ATC's gears: not in every gear */
    uint32_t i;
    gr_jw_key(w, "gears"); gr_jw_arr(w);
    for(i = 0; i < d->ngears; i++) gr_jw_int(w, d->gears[i]);
    gr_jw_end_arr(w);
  }
  gr_jw_end_obj(w);
}

void gr_report_diag_json_brief(gr_jw *w, const gr_diag *d){
  gr_jw_obj(w);
  gr_jw_key(w, "severity"); gr_jw_str(w, gr_severity_name(d->sev));
  gr_jw_key(w, "code"); gr_jw_str(w, d->code);
  gr_jw_key(w, "message"); gr_jw_str(w, d->msg);
  gr_jw_key(w, "node"); gr_jw_str(w, d->node);
  gr_jw_key(w, "option"); gr_jw_str(w, d->option);
  gr_jw_key(w, "rule"); gr_jw_str(w, d->rule);
  gr_jw_end_obj(w);
}

void gr_report_diags_json(gr_jw *w, const gr_diags *d, long nodes){
  size_t i;
  gr_jw_key(w, "diagnostics"); gr_jw_arr(w);
  for(i = 0; i < d->n; i++) gr_report_diag_json(w, &d->v[i]);
  gr_jw_end_arr(w);
  gr_jw_key(w, "summary"); gr_jw_obj(w);
  if( nodes >= 0 ){ gr_jw_key(w, "nodes"); gr_jw_int(w, (int64_t)nodes); }
  gr_jw_key(w, "errors"); gr_jw_int(w, (int64_t)d->count[GR_SEV_ERROR]);
  gr_jw_key(w, "warnings"); gr_jw_int(w, (int64_t)d->count[GR_SEV_WARNING]);
  gr_jw_key(w, "notes"); gr_jw_int(w, (int64_t)d->count[GR_SEV_NOTE]);
  gr_jw_end_obj(w);
}

static const char *input_source(const gr_input *in, gr_buf *b){
  b->n = 0;
  origin_text(b, &in->origin);
  return gr_buf_cstr(b);
}

static void json_options(gr_jw *w, gr_result *r){
  const gr_ruleset *rs = r->rs;
  gr_buf b;
  size_t i;
  gr_buf_init(&b);
  gr_jw_arr(w);
  for(i = 0; i < rs->noptions; i++){
    const gr_option *o = &rs->options[i];
    const gr_optstate *st = gr_option_state(r, (int)i);
    const gr_input *in = st->input >= 0 ? &r->inputs[st->input] : NULL;
    if( in==NULL && st->value==NULL ) continue;
    gr_jw_obj(w);
    gr_jw_key(w, "name"); gr_jw_str(w, o->name);
    gr_jw_key(w, "key"); gr_jw_str(w, o->key);
    gr_jw_key(w, "value"); gr_jw_str(w, in ? in->value : st->value);
    gr_jw_key(w, "source"); gr_jw_str(w, in ? input_source(in, &b) : "default");
    gr_jw_key(w, "effective"); gr_jw_bool(w, in ? (in->effective && in->valid && in->value[0]) : 1);
    gr_jw_key(w, "supported"); gr_jw_bool(w, gr_support_on(&o->support, r->product));
    if( in && !st->effective ){ gr_jw_key(w, "effective_value"); gr_jw_str(w, st->value); }
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_buf_free(&b);
}

/* Renders one provenance entry into b. "input" and "reason" are left out
** when unknown. */
static void render_prov_entry(gr_buf *b, gr_result *r, uint32_t n, const gr_slot *sl, int32_t source,
                              uint16_t branch, const char *value, int won, gr_buf *tmp, reason_cache *cache){
  const gr_source *src = &r->rs->sources[source];
  const gr_branch *br = &src->branches[branch];
  const gr_origin *input = NULL;
  gr_out mem;
  tmp->n = 0;
  detail(r, n, source, branch, tmp, &input, cache);
  gr_out_init_buf(&mem, b);
  gr_out_puts(&mem, "{\"slot\":");
  gr_out_json_str(&mem, sl->name);
  gr_out_puts(&mem, ",\"source\":");
  gr_out_json_str(&mem, src->name);
  gr_out_puts(&mem, ",\"value\":");
  gr_out_json_str(&mem, value);
  gr_out_puts(&mem, won ? ",\"won\":true,\"rule\":\"" : ",\"won\":false,\"rule\":\"");
  gr_out_puts(&mem, gr_ruleset_short_path(r->rs, br->loc.file));
  gr_out_putc(&mem, ':');
  gr_out_int(&mem, br->loc.line);
  gr_out_putc(&mem, '"');
  if( input ){
    gr_buf ib;
    gr_buf_init(&ib);
    origin_text(&ib, input);
    gr_out_puts(&mem, ",\"input\":");
    gr_out_json_str(&mem, gr_buf_cstr(&ib));
    gr_buf_free(&ib);
  }
  if( tmp->n ){
    gr_out_puts(&mem, ",\"reason\":");
    gr_out_json_str(&mem, gr_buf_cstr(tmp));
  }
  gr_out_putc(&mem, '}');
  gr_out_finish_buf(&mem);
}

/* Writes provenance entry s[0..n): the entry itself, or with tab (the
** table form, GR_PROV_TABLE) its index in the table, adding it there when
** it is new. */
static void put_entry(gr_out *o, gr_strpool *tab, const char *s, size_t n){
  if( tab ) gr_out_int(o, (int64_t)gr_strpool_intern(tab, s, n) - 1);   /* id 0 is the pool's empty string */
  else gr_out_write(o, s, n);
}

/* Writes one provenance entry (put_entry). When everything in it depends on
** nothing finer than the op type (the usual default decisions), what it
** writes is cached per (source, branch, type, won) and copied: on a
** million-node graph this is most entries. */
static void json_prov_entry(gr_out *o, gr_result *r, uint32_t n, const gr_slot *sl, int32_t source,
                            uint16_t branch, const char *value, int won, gr_buf *tmp, reason_cache *cache,
                            reason_cache *entries, gr_strpool *tab){
  const gr_branch *br = &r->rs->sources[source].branches[branch];
  gr_buf b;
  if( entries && (br->value==NULL || br->value->dep <= GR_DEP_TYPE)
      && (br->because.constant || br->because.n==0 || tpl_per_type(&br->because)) ){
    uint32_t type = gr_graph_nodes(r->g)[n].type;
    const char **slot = rc_slot(entries, ((uint64_t)(uint32_t)source << 40) | ((uint64_t)branch << 24)
                                         | (uint64_t)type | (uint64_t)(won ? 1 : 0) << 62 | 1ULL << 63);
    if( *slot==NULL ){
      gr_buf ib;
      gr_out mem;
      gr_buf_init(&b);
      render_prov_entry(&b, r, n, sl, source, branch, value, won, tmp, cache);
      gr_buf_init(&ib);   /* what put_entry writes for it */
      gr_out_init_buf(&mem, &ib);
      put_entry(&mem, tab, b.p ? b.p : "", b.n);
      gr_out_finish_buf(&mem);
      *slot = gr_arena_strndup(&entries->arena, ib.p ? ib.p : "", ib.n);
      gr_buf_free(&ib);
      gr_buf_free(&b);
    }
    gr_out_puts(o, *slot);
    return;
  }
  gr_buf_init(&b);
  render_prov_entry(&b, r, n, sl, source, branch, value, won, tmp, cache);
  put_entry(o, tab, b.p ? b.p : "", b.n);
  gr_buf_free(&b);
}

/* Writes the provenance entry of a hook's decision (put_entry). */
static void json_hook_entry(gr_out *o, const gr_slot *sl, const gr_override *ov, gr_strpool *tab){
  gr_buf b, e;
  gr_out mem;
  gr_buf_init(&b);
  gr_buf_init(&e);
  origin_text(&b, &ov->where);
  gr_out_init_buf(&mem, &e);
  gr_out_puts(&mem, "{\"slot\":");
  gr_out_json_str(&mem, sl->name);
  gr_out_puts(&mem, ",\"source\":\"hook\",\"value\":");
  gr_out_json_str(&mem, ov->value);
  gr_out_puts(&mem, ",\"won\":true,\"rule\":");
  gr_out_json_str(&mem, gr_buf_cstr(&b));
  if( ov->reason ){
    gr_out_puts(&mem, ",\"reason\":");
    gr_out_json_str(&mem, ov->reason);
  }
  gr_out_putc(&mem, '}');
  gr_out_finish_buf(&mem);
  put_entry(o, tab, e.p ? e.p : "", e.n);
  gr_buf_free(&e);
  gr_buf_free(&b);
}

/* Pieces of node objects that repeat across nodes, escaped once. */
typedef struct json_parts {
  char **type_json;       /* per op type: ,"type":"X" */
  char **graph_json;      /* per graph: ,"graph":"G" */
  char **slot_key;        /* per slot: ,"SLOT": */
  char **slot_src;        /* per slot: ,"REPORT_KEY": */
  char **source_json;     /* per source: "NAME" */
  char **slot_noeffect;   /* per slot: ,"SLOT_effect":false,"SLOT_no_effect_reason": */
  size_t ntypes, ngraphs, nslots, nsources;
} json_parts;

static char *quoted(const char *prefix, const char *s, const char *suffix){
  gr_buf b;
  gr_out mem;
  gr_buf_init(&b);
  gr_out_init_buf(&mem, &b);
  gr_out_puts(&mem, prefix);
  if( s ) gr_out_json_str(&mem, s);
  gr_out_puts(&mem, suffix);
  gr_out_finish_buf(&mem);
  return gr_buf_detach(&b);
}

static void parts_init(json_parts *jp, const gr_result *r){
  const gr_graph *g = r->g;
  const gr_ruleset *rs = r->rs;
  size_t i;
  jp->ntypes = gr_graph_ntypes(g); jp->ngraphs = gr_graph_ngraphs(g);
  jp->nslots = rs->nslots; jp->nsources = rs->nsources;
  jp->type_json = gr_xcalloc(jp->ntypes + 1, sizeof(char*));
  jp->graph_json = gr_xcalloc(jp->ngraphs + 1, sizeof(char*));
  jp->slot_key = gr_xcalloc(jp->nslots + 1, sizeof(char*));
  jp->slot_src = gr_xcalloc(jp->nslots + 1, sizeof(char*));
  jp->source_json = gr_xcalloc(jp->nsources + 1, sizeof(char*));
  jp->slot_noeffect = gr_xcalloc(jp->nslots + 1, sizeof(char*));
  for(i = 0; i < jp->ntypes; i++) jp->type_json[i] = quoted(",\"type\":", gr_graph_type_name(g, (uint32_t)i), "");
  for(i = 0; i < jp->ngraphs; i++) jp->graph_json[i] = quoted(",\"graph\":", gr_graph_graph_name(g, (uint32_t)i), "");
  for(i = 0; i < jp->nslots; i++){
    char *a = gr_xasprintf(",\"%s\":", rs->slots[i].name), *b = gr_xasprintf(",\"%s\":", rs->slots[i].report_key);
    jp->slot_key[i] = a; jp->slot_src[i] = b;
    jp->slot_noeffect[i] = gr_xasprintf(",\"%s_effect\":false,\"%s_no_effect_reason\":", rs->slots[i].name, rs->slots[i].name);
  }
  for(i = 0; i < jp->nsources; i++) jp->source_json[i] = quoted("", rs->sources[i].name, "");
}

static void parts_free(json_parts *jp){
  size_t i;
  for(i = 0; i < jp->ntypes; i++) free(jp->type_json[i]);
  for(i = 0; i < jp->ngraphs; i++) free(jp->graph_json[i]);
  for(i = 0; i < jp->nslots; i++){ free(jp->slot_key[i]); free(jp->slot_src[i]); free(jp->slot_noeffect[i]); }
  free(jp->slot_noeffect);
  for(i = 0; i < jp->nsources; i++) free(jp->source_json[i]);
  free(jp->type_json); free(jp->graph_json); free(jp->slot_key); free(jp->slot_src); free(jp->source_json);
}

/* The dtype and engine judge's per-tensor outcome of node n (with the
** provenance, for a node FE judged): the strategy, the column and every
** input and output dtype before and after the precision conversion, each
** tensor a pair [before, after]. */
static void json_dtype_detail(gr_out *o, gr_result *r, uint32_t n){
  const gr_node *nd = &gr_graph_nodes(r->g)[n];
  const gr_jnode *jn = gr_judge_node(r, n);
  uint32_t t, nt = (uint32_t)nd->n_in_desc + nd->n_out_desc;
  gr_out_puts(o, ",\"dtype_detail\":{\"strategy\":");
  gr_out_json_str(o, gr_judge_strategy(r, n));
  gr_out_puts(o, ",\"column\":");
  if( jn->column ) gr_out_printf(o, "%u", (unsigned)(jn->column - 1)); else gr_out_puts(o, "null");
  gr_out_printf(o, ",\"casts\":%u,\"inputs\":[", gr_judge_casts(r, n));
  for(t = 0; t < nt; t++){
    if( t==nd->n_in_desc ) gr_out_puts(o, "],\"outputs\":[");
    else if( t ) gr_out_putc(o, ',');
    gr_out_putc(o, '[');
    gr_out_json_str(o, gr_judge_dtype_name(r, gr_judge_tensor_before(r, n, t)));
    gr_out_putc(o, ',');
    gr_out_json_str(o, gr_judge_dtype_name(r, gr_judge_tensor_after(r, n, t)));
    gr_out_putc(o, ']');
  }
  if( nt==nd->n_in_desc ) gr_out_puts(o, "],\"outputs\":[");
  gr_out_puts(o, "]}");
}

/* How the tail cache (below) treats a branch's provenance entry. */
enum {
  TAIL_RENDER = 1,   /* the value depends on the node: render the node's whole tail */
  TAIL_TEXT,         /* the same for every node of the tail's key: part of the cached text */
  TAIL_HOLE          /* only the reason names the node: rendered per node into the cached text */
};

/* The TAIL_* of branch br (won or beaten), given its value: TAIL_TEXT when
** the value's origin ("input") and the reason depend on nothing finer than
** the op type and the judge record, TAIL_HOLE when only the reason does. */
static uint8_t entry_kind(const gr_result *r, const gr_branch *br){
  if( !(br->value==NULL || br->value->dep <= GR_DEP_TYPE || (r->judge && judge_field(br->value))) ) return TAIL_RENDER;
  if( br->because.constant || br->because.n==0 || tpl_per_type(&br->because)
      || (r->judge && tpl_per_type_or_judge(&br->because)) ) return TAIL_TEXT;
  return TAIL_HOLE;
}

/* entry_kind per branch, answered once per branch (a per-node walk of the
** templates was a tenth of the report's per-node work) in one flat array:
** the lookup of a known branch is two loads, inlined. */
typedef struct branch_kinds {
  size_t *branch0;             /* per source, and one past the last: its first branch in kind; NULL until asked */
  uint8_t *kind;               /* per branch of every source: TAIL_*, 0 not known yet */
  size_t nsources;
} branch_kinds;

static uint8_t branch_kind_slow(branch_kinds *bk, const gr_result *r, int32_t source, uint16_t branch){
  size_t i, at;
  if( bk->branch0==NULL ){
    const gr_ruleset *rs = r->rs;
    bk->nsources = rs->nsources;
    bk->branch0 = gr_xcalloc(bk->nsources + 1, sizeof *bk->branch0);
    for(i = 0; i < bk->nsources; i++) bk->branch0[i + 1] = bk->branch0[i] + rs->sources[i].nbranches;
    bk->kind = gr_xcalloc(bk->branch0[bk->nsources] + 1, 1);
  }
  if( source < 0 || (size_t)source >= bk->nsources ) return TAIL_RENDER;
  at = bk->branch0[source] + branch;
  if( at >= bk->branch0[source + 1] ) return TAIL_RENDER;
  if( bk->kind[at]==0 ) bk->kind[at] = entry_kind(r, &r->rs->sources[source].branches[branch]);
  return bk->kind[at];
}

static inline uint8_t branch_kind(branch_kinds *bk, const gr_result *r, int32_t source, uint16_t branch){
  if( bk->branch0 && source >= 0 && (size_t)source < bk->nsources ){
    size_t at = bk->branch0[source] + branch;
    if( at < bk->branch0[source + 1] && bk->kind[at] ) return bk->kind[at];
  }
  return branch_kind_slow(bk, r, source, branch);
}

static void branch_kinds_free(branch_kinds *bk){
  free(bk->branch0);
  free(bk->kind);
}

/* A provenance entry that a cached tail leaves out (TAIL_HOLE): at offset at
** of the tail's text, json_prov_entry renders it for each node. */
typedef struct tail_hole {
  size_t at;
  const char *value;
  int32_t source;
  uint16_t slot, branch;
  int won;
} tail_hole;

/* The holes of the tails in the cache, in order; json_node_tail adds to it
** when it renders a tail for the cache. */
typedef struct tail_holes {
  branch_kinds *kinds;
  tail_hole *v; size_t n, cap;
} tail_holes;

/* One provenance entry of node n's tail, or with th its hole. */
static void node_prov_entry(gr_out *o, gr_result *r, uint32_t n, size_t s, int32_t source, uint16_t branch,
                            const char *value, int won, gr_buf *tmp, reason_cache *cache, reason_cache *entries,
                            gr_strpool *tab, tail_holes *th){
  if( th && branch_kind(th->kinds, r, source, branch)==TAIL_HOLE ){
    tail_hole *h;
    if( th->n==th->cap ){
      th->cap = th->cap ? th->cap * 2 : 64;
      th->v = gr_xrealloc(th->v, th->cap * sizeof *th->v);
    }
    h = &th->v[th->n++];
    h->at = o->mem->n + o->n;    /* o renders into memory (json_node_tail_cached) */
    h->value = value; h->source = source; h->slot = (uint16_t)s; h->branch = branch; h->won = won;
    return;
  }
  json_prov_entry(o, r, n, &r->rs->slots[s], source, branch, value, won, tmp, cache, entries, tab);
}

/* Everything of node n's object after its name: type, graph, the slots and
** the provenance; with th (and o writing into memory), the provenance
** entries that are TAIL_HOLE are left out and recorded in th. */
static void json_node_tail(gr_out *o, gr_result *r, uint32_t n, int prov, gr_buf *tmp, reason_cache *cache,
                           reason_cache *entries, gr_strpool *tab, const json_parts *jp, tail_holes *th){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  size_t s, nslots = rs->nslots;
  int nprov = 0;
  gr_out_puts(o, jp->type_json[nd->type]);
  gr_out_puts(o, jp->graph_json[nd->graph]);
  for(s = 0; s < nslots; s++){
    const gr_decision *d = gr_dec(r, n, s);
    gr_out_puts(o, jp->slot_key[s]);
    gr_out_json_str(o, d->value);
    gr_out_puts(o, jp->slot_src[s]);
    if( d->source==GR_SOURCE_HOOK ) gr_out_write(o, "\"hook\"", 6);
    else if( d->source >= 0 ) gr_out_puts(o, jp->source_json[d->source]);
    else gr_out_write(o, "null", 4);
    if( rs->slots[s].nnoeffect && d->value ){
      /* only where the value does not take effect (most nodes: absent) */
      tmp->n = 0;
      if( !gr_decision_effect(r, n, s, tmp) ){
        gr_out_puts(o, jp->slot_noeffect[s]);
        gr_out_json_str(o, gr_buf_cstr(tmp));
      }
    }
  }
  if( prov && gr_judge_node(r, n) && gr_judge_node(r, n)->strategy ) json_dtype_detail(o, r, n);
  if( prov ){
    gr_out_puts(o, ",\"provenance\":[");
    for(s = 0; s < nslots; s++){
      const gr_decision *d = gr_dec(r, n, s);
      uint32_t c;
      if( d->source==GR_SOURCE_HOOK ){
        const gr_override *ov = gr_result_find_override(r, n, (int)s);
        if( nprov++ ) gr_out_putc(o, ',');
        json_hook_entry(o, &rs->slots[s], ov, tab);
        if( ov->prev_source < 0 ) continue;
        gr_out_putc(o, ',');
        json_prov_entry(o, r, n, &rs->slots[s], ov->prev_source, ov->prev_branch, ov->prev_value, 0, tmp, cache, NULL, tab);
      }else{
        if( d->source < 0 ) continue;
        if( nprov++ ) gr_out_putc(o, ',');
        node_prov_entry(o, r, n, s, d->source, d->branch, d->value, 1, tmp, cache, entries, tab, th);
      }
      if( r->cand_first[n]==GR_NONE ) continue;
      for(c = r->cand_first[n]; c < r->ncand && r->cand[c].node==n; c++){
        if( r->cand[c].slot!=s ) continue;
        gr_out_putc(o, ',');
        node_prov_entry(o, r, n, s, r->cand[c].source, r->cand[c].branch, r->cand[c].value, 0, tmp, cache, entries, tab, th);
      }
    }
    gr_out_putc(o, ']');
  }
  gr_out_putc(o, '}');
}

/* Node tails rendered once and copied. On a big graph most nodes' objects
** differ only in their names: the same op type, graph and decisions (source,
** branch and value per slot, the same "no effect" outcome), the same beaten
** candidates (slot, source, branch and value of each, in order) and the same
** record of the dtype and engine judge give the same bytes after the name,
** provenance included, whenever each provenance entry, won or beaten,
** depends on nothing finer than the op type and that judge record
** (TAIL_TEXT) and the node has no hook decisions. An entry whose value and
** input are that fine but whose reason names the node itself (a producer,
** an input index: TAIL_HOLE) is a hole in the cached text, rendered per
** node. Such a node's tail is looked up by that key; other nodes are
** rendered as before. Measured reason: on the 1M-op graph the writer's own
** work (building each node's object from its cached pieces: 36 lookups and
** copies and as many strlen calls per node) was about 20% of the CPU time
** of the whole eval; the holes: on the 100K-op bench graph about 2% of the
** nodes (tiling_sink, whose reason names the producer) were rendered whole,
** at about 28,000 instructions each. */
#define TAIL_MAX_ENTRIES 65536
#define TAIL_MAX_BYTES   ((size_t)32 << 20)

typedef struct tail_cache {
  size_t nwords;               /* key words per entry */
  uint64_t *keys;              /* n * nwords */
  const char **text; size_t *len;
  size_t *hole0;               /* per entry: its first hole in holes (the last entry's end: holes.n) */
  size_t n, cap, bytes;
  gr_idmap index;
  gr_arena arena;
  gr_strpool effects;          /* "no effect" reasons, interned for the keys */
  gr_strpool judge_sigs;       /* the judge's per-node records (tail_key_of) */
  gr_strpool cand_sigs;        /* the nodes' beaten candidates (tail_key_of) */
  /* per op type: the cand_sigs id and the entry (+1, 0 none) of the type's
  ** last node; a node is most often alike its type's last one, and checking
  ** that first costs less than hashing and looking up its key (measured:
  ** 450 instructions per node of a 100K-op graph went into the two lookups) */
  uint32_t *type_sig, *type_entry;
  branch_kinds kinds;
  tail_holes holes;
} tail_cache;

typedef struct tail_key { const tail_cache *c; const uint64_t *key; } tail_key;

static int tail_eq(const void *ctx, uint32_t id){
  const tail_key *k = ctx;
  return memcmp(k->c->keys + (size_t)id * k->c->nwords, k->key, k->c->nwords * sizeof *k->key)==0;
}

static void tail_init(tail_cache *c, size_t nslots, uint32_t ntypes){
  memset(c, 0, sizeof *c);
  c->type_sig = gr_xcalloc((size_t)ntypes + 1, sizeof *c->type_sig);
  c->type_entry = gr_xcalloc((size_t)ntypes + 1, sizeof *c->type_entry);
  c->nwords = 3 + 2 * nslots;   /* type and graph, 2 per slot, the candidates, the judge record */
  gr_arena_init(&c->arena);
  gr_strpool_init(&c->effects);
  gr_strpool_init(&c->judge_sigs);
  gr_strpool_init(&c->cand_sigs);
  c->holes.kinds = &c->kinds;
}

static void tail_free(tail_cache *c){
  free(c->keys); free(c->text); free(c->len); free(c->hole0);
  free(c->type_sig); free(c->type_entry);
  free(c->holes.v);
  gr_idmap_free(&c->index);
  gr_arena_free(&c->arena);
  gr_strpool_free(&c->effects);
  gr_strpool_free(&c->judge_sigs);
  gr_strpool_free(&c->cand_sigs);
  branch_kinds_free(&c->kinds);
}

/* The key of node n's tail into key[c->nwords]: the op type and graph, per
** slot the decision (value, source, branch, "no effect" reason), the beaten
** candidates and the judge record. 0 when the tail depends on the node
** itself (render it): a hook decision, or with the provenance an entry that
** is TAIL_RENDER. */
static int tail_key_of(tail_cache *c, gr_result *r, uint32_t n, int prov, gr_buf *tmp, uint64_t *key){
  const gr_ruleset *rs = r->rs;
  const gr_node *nd = &gr_graph_nodes(r->g)[n];
  size_t s, nslots = rs->nslots;
  key[0] = (uint64_t)nd->type | (uint64_t)nd->graph << 32;
  /* the beaten candidates (printed with the provenance only): slot, source,
  ** branch and value of each in order, which with the type and the judge
  ** record make their entries; interned so that equal lists have one id.
  ** The count leads so that no list is another's prefix. */
  key[c->nwords - 2] = 0;
  if( prov && r->cand_first[n]!=GR_NONE ){
    uint32_t k, cnt = 0;
    tmp->n = 0;
    gr_buf_add(tmp, &cnt, sizeof cnt);
    for(k = r->cand_first[n]; k < r->ncand && r->cand[k].node==n; k++){
      const gr_cand *cd = &r->cand[k];
      uint64_t v = (uint64_t)(uintptr_t)cd->value;
      if( branch_kind(&c->kinds, r, cd->source, cd->branch)==TAIL_RENDER ) return 0;
      gr_buf_add(tmp, &cd->slot, sizeof cd->slot);
      gr_buf_add(tmp, &cd->branch, sizeof cd->branch);
      gr_buf_add(tmp, &cd->source, sizeof cd->source);
      gr_buf_add(tmp, &v, sizeof v);
      cnt++;
    }
    memcpy(tmp->p, &cnt, sizeof cnt);
    key[c->nwords - 2] = (uint64_t)gr_strpool_intern_hint(&c->cand_sigs, tmp->p, tmp->n, &c->type_sig[nd->type]) + 1;
  }
  /* the judge's record with the node's numbers of inputs and outputs and
  ** its tensor dtypes before and after (dtype_detail and the judge's
  ** reasons are made of nothing else; one op type can have 2 inputs and 1
  ** output on one node, 1 and 2 on another): for a node the judge's memo
  ** covers, its record id (gr_judge_record: one id, all of these equal);
  ** else all of it, interned so that equal records have one id, the counts
  ** in front so that no record is another's prefix */
  key[c->nwords - 1] = 0;
  if( r->judge ){
    uint32_t rec = gr_judge_record(r, n);
    if( rec ) key[c->nwords - 1] = (uint64_t)rec | (uint64_t)1 << 40;
    else{
      const gr_jnode *jn = gr_judge_node(r, n);
      uint32_t t, nt = (uint32_t)nd->n_in_desc + nd->n_out_desc, id;
      unsigned char sig[sizeof *jn + 2 * sizeof nd->n_in_desc + 2 * 512];
      size_t len = sizeof *jn;
      if( nt > 512 ) return 0;
      memcpy(sig, jn, sizeof *jn);
      memcpy(sig + len, &nd->n_in_desc, sizeof nd->n_in_desc); len += sizeof nd->n_in_desc;
      memcpy(sig + len, &nd->n_out_desc, sizeof nd->n_out_desc); len += sizeof nd->n_out_desc;
      for(t = 0; t < nt; t++){ sig[len++] = gr_judge_tensor_before(r, n, t); sig[len++] = gr_judge_tensor_after(r, n, t); }
      id = gr_strpool_intern(&c->judge_sigs, (const char *)sig, len);
      key[c->nwords - 1] = (uint64_t)id + 1;
    }
  }
  for(s = 0; s < nslots; s++){
    const gr_decision *d = gr_dec(r, n, s);
    uint64_t eff = 0;
    if( d->source==GR_SOURCE_HOOK ) return 0;
    if( prov && d->source >= 0 && branch_kind(&c->kinds, r, d->source, d->branch)==TAIL_RENDER ) return 0;
    if( rs->slots[s].nnoeffect && d->value ){
      tmp->n = 0;
      if( !gr_decision_effect(r, n, s, tmp) ){
        uint32_t id = gr_strpool_intern(&c->effects, tmp->p ? tmp->p : "", tmp->n);
        if( id >= 0xfffe ) return 0;
        eff = (uint64_t)id + 1;
      }
    }
    key[1 + 2 * s] = (uint64_t)(uintptr_t)d->value;
    key[2 + 2 * s] = (uint64_t)(uint32_t)d->source | (uint64_t)d->branch << 32 | eff << 48;
  }
  return 1;
}

/* What writing the nodes' objects keeps from one node to the next: the
** caches above and the pieces of every object. */
typedef struct node_writer {
  int prov;                    /* with provenance */
  gr_buf *tmp;                 /* scratch, the caller's */
  reason_cache cache, entries;
  gr_strpool tab;              /* GR_PROV_TABLE: the provenance entries, in the order of their first use */
  gr_strpool *ptab;            /* &tab in the table form, else NULL */
  json_parts jp;
  tail_cache tc;
  uint64_t *key;               /* tc.nwords */
} node_writer;

static void nw_init(node_writer *nw, gr_result *r, int prov, gr_buf *tmp){
  memset(nw, 0, sizeof *nw);
  nw->prov = prov;
  nw->ptab = prov==GR_PROV_TABLE ? &nw->tab : NULL;
  nw->tmp = tmp;
  gr_arena_init(&nw->cache.arena);
  gr_arena_init(&nw->entries.arena);
  gr_strpool_init(&nw->tab);
  parts_init(&nw->jp, r);
  tail_init(&nw->tc, r->rs->nslots, gr_graph_ntypes(r->g));
  nw->key = gr_xmalloc(nw->tc.nwords * sizeof *nw->key);
}

static void nw_free(node_writer *nw){
  free(nw->key);
  tail_free(&nw->tc);
  parts_free(&nw->jp);
  rc_free(&nw->cache);
  rc_free(&nw->entries);
  gr_strpool_free(&nw->tab);
}

/* Cached tail id for node n: its text with its holes rendered for n. */
static void tail_write(gr_out *o, gr_result *r, uint32_t n, node_writer *nw, size_t id){
  const tail_cache *tc = &nw->tc;
  const char *t = tc->text[id];
  size_t at = 0, i, end = id + 1 < tc->n ? tc->hole0[id + 1] : tc->holes.n;
  for(i = tc->hole0[id]; i < end; i++){
    const tail_hole *h = &tc->holes.v[i];
    gr_out_write(o, t + at, h->at - at);
    json_prov_entry(o, r, n, &r->rs->slots[h->slot], h->source, h->branch, h->value, h->won,
                    nw->tmp, &nw->cache, &nw->entries, nw->ptab);
    at = h->at;
  }
  gr_out_write(o, t + at, tc->len[id] - at);
}

/* Node n's object after its name (json_node_tail), from the tail cache
** where its key allows. */
static void json_node_tail_cached(gr_out *o, gr_result *r, uint32_t n, node_writer *nw){
  tail_cache *tc = &nw->tc;
  uint64_t *key = nw->key;
  int prov = nw->prov;
  if( tail_key_of(tc, r, n, prov, nw->tmp, key) ){
    uint32_t ty = gr_graph_nodes(r->g)[n].type, last = tc->type_entry[ty];
    uint64_t h;
    tail_key k = { tc, key };
    int64_t id;
    if( last && tail_eq(&k, last - 1) ){
      tail_write(o, r, n, nw, last - 1);
      return;
    }
    h = gr_hash(key, tc->nwords * sizeof *key);
    id = gr_idmap_find(&tc->index, h, tail_eq, &k);
    if( id >= 0 ){
      tc->type_entry[ty] = (uint32_t)id + 1;
      tail_write(o, r, n, nw, (size_t)id);
      return;
    }
    if( tc->n < TAIL_MAX_ENTRIES && tc->bytes < TAIL_MAX_BYTES ){
      gr_buf b;
      gr_out mem;
      char *t;
      size_t h0 = tc->holes.n;
      gr_buf_init(&b);
      gr_out_init_buf(&mem, &b);
      json_node_tail(&mem, r, n, prov, nw->tmp, &nw->cache, &nw->entries, nw->ptab, &nw->jp, &tc->holes);
      gr_out_finish_buf(&mem);
      if( tc->n==tc->cap ){
        tc->cap = tc->cap ? tc->cap * 2 : 64;
        tc->keys = gr_xrealloc(tc->keys, tc->cap * tc->nwords * sizeof *tc->keys);
        tc->text = gr_xrealloc(tc->text, tc->cap * sizeof *tc->text);
        tc->len = gr_xrealloc(tc->len, tc->cap * sizeof *tc->len);
        tc->hole0 = gr_xrealloc(tc->hole0, tc->cap * sizeof *tc->hole0);
      }
      t = gr_arena_strndup(&tc->arena, b.p ? b.p : "", b.n);
      memcpy(tc->keys + tc->n * tc->nwords, key, tc->nwords * sizeof *key);
      tc->text[tc->n] = t;
      tc->len[tc->n] = b.n;
      tc->hole0[tc->n] = h0;
      gr_idmap_add(&tc->index, h, (uint32_t)tc->n);
      tc->n++;
      tc->type_entry[ty] = (uint32_t)tc->n;
      tc->bytes += b.n + (tc->holes.n - h0) * sizeof *tc->holes.v;
      gr_buf_free(&b);
      tail_write(o, r, n, nw, tc->n - 1);
      return;
    }
  }
  json_node_tail(o, r, n, prov, nw->tmp, &nw->cache, &nw->entries, nw->ptab, &nw->jp, NULL);
}

static void json_node(gr_out *o, gr_result *r, uint32_t n, node_writer *nw){
  gr_out_write(o, "{\"name\":", 8);
  gr_out_json_str(o, gr_graph_str(r->g, gr_graph_nodes(r->g)[n].name));
  json_node_tail_cached(o, r, n, nw);
}

/* The nodes in the HTML page's form (gr_report_opts.shared_tails): their
** names, then per node the index of its tail (its object without the name),
** then each distinct tail once as an object. A 10,000-node graph has a few
** dozen distinct tails, so the page carries about a quarter of the bytes of
** "nodes" and the browser parses that much less (src/report/html.c). */
static void json_nodes_shared(gr_jw *w, gr_out *o, gr_result *r, node_writer *nw){
  const gr_graph *g = r->g;
  uint32_t n, nn = gr_graph_nnodes(g), *tid = gr_xcalloc(nn + 1, sizeof *tid);
  gr_strpool tails;
  gr_buf tb;
  size_t k;
  gr_strpool_init(&tails);
  gr_buf_init(&tb);
  gr_jw_key(w, "node_names"); gr_jw_arr(w);
  for(n = 0; n < nn; n++){
    gr_out mem;
    gr_jw_str(w, gr_graph_str(g, gr_graph_nodes(g)[n].name));
    tb.n = 0;
    gr_out_init_buf(&mem, &tb);
    json_node_tail_cached(&mem, r, n, nw);
    gr_out_finish_buf(&mem);
    tid[n] = gr_strpool_intern(&tails, tb.p ? tb.p : "", tb.n) - 1;
  }
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "node_tail"); gr_jw_arr(w);
  for(n = 0; n < nn; n++) gr_jw_int(w, tid[n]);
  gr_jw_end_arr(w);
  gr_jw_break(w);
  /* each tail is ",\"type\":...}": the object is "{" and the tail without its comma */
  gr_jw_key(w, "node_tails"); gr_jw_arr(w);
  for(k = 1; k < gr_strpool_count(&tails); k++){
    const char *t = gr_strpool_get(&tails, (uint32_t)k);
    gr_jw_value(w);
    gr_out_putc(o, '{');
    gr_out_puts(o, t + 1);
  }
  gr_jw_end_arr(w);
  gr_strpool_free(&tails);
  gr_buf_free(&tb);
  free(tid);
}

/* The table form's provenance entries, which the nodes' "provenance"
** arrays index, one per line: each distinct entry once. Measured reason
** for the form: inline, the entries are 60% of the 1M-op bench graph's
** 1.3 GB report (38 distinct ones; the table form's report is 490 MB), and
** the kernel's copy of a report's bytes into its file was about a fifth
** of the whole process's CPU time (doc/performance.md). */
static void json_prov_table(gr_jw *w, gr_out *o, const gr_strpool *tab){
  size_t k, n = gr_strpool_count(tab);
  gr_jw_key(w, "provenance_entries"); gr_jw_arr(w);
  for(k = 1; k < n; k++){
    gr_out_write(o, k > 1 ? ",\n" : "\n", k > 1 ? 2 : 1);
    gr_out_puts(o, gr_strpool_get(tab, (uint32_t)k));
  }
  if( n > 1 ){ w->first[w->depth] = 0; }
  gr_jw_end_arr(w);
}

void gr_report_json(gr_out *o, gr_result *r, const gr_report_opts *ro){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  gr_jw w;
  gr_buf tmp;
  size_t i;
  gr_buf_init(&tmp);
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_eval_schema_version(&w);
  gr_jw_key(&w, "gerules"); gr_jw_str(&w, PACKAGE_VERSION);
  gr_jw_key(&w, "rules"); gr_jw_obj(&w);
  gr_jw_key(&w, "bundle"); gr_jw_str(&w, rs->bundle_name);
  gr_jw_key(&w, "version"); gr_jw_str(&w, rs->bundle_version);
  gr_jw_key(&w, "path"); gr_jw_str(&w, ro->rules_path);
  if( rs->nlayers > 1 ){
    size_t li;
    gr_jw_key(&w, "stack");
    gr_jw_arr(&w);
    for(li = 0; li < rs->nlayers; li++){
      gr_jw_obj(&w);
      gr_jw_key(&w, "bundle"); gr_jw_str(&w, rs->layers[li].name);
      gr_jw_key(&w, "version"); gr_jw_str(&w, rs->layers[li].version);
      gr_jw_key(&w, "path"); gr_jw_str(&w, rs->layers[li].root);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
  }
  gr_jw_end_obj(&w);
  gr_jw_key(&w, "chip"); gr_jw_obj(&w);
  gr_jw_key(&w, "soc"); gr_jw_str(&w, r->soc_name);
  gr_jw_key(&w, "product"); gr_jw_str(&w, rs->products[r->product].name);
  gr_jw_key(&w, "product_title"); gr_jw_str(&w, rs->products[r->product].title);
  gr_jw_end_obj(&w);
  gr_jw_key(&w, "run_mode"); gr_jw_str(&w, r->run_mode);
  gr_jw_key(&w, "entry_point"); gr_jw_str(&w, r->entry_point);
  if( g ){
    gr_jw_key(&w, "graph"); gr_jw_obj(&w);
    gr_jw_key(&w, "file"); gr_jw_str(&w, ro->graph_path);
    gr_jw_key(&w, "model"); gr_jw_str(&w, gr_graph_model_name(g));
    gr_jw_key(&w, "format"); gr_jw_str(&w, gr_model_format_name(gr_graph_format(g)));
    gr_jw_key(&w, "onnx_opset");
    if( gr_graph_onnx_opset(g) ) gr_jw_int(&w, gr_graph_onnx_opset(g)); else gr_jw_null(&w);
    gr_jw_key(&w, "graphs"); gr_jw_arr(&w);
    for(i = 0; i < gr_graph_ngraphs(g); i++) gr_jw_str(&w, gr_graph_graph_name(g, (uint32_t)i));
    gr_jw_end_arr(&w);
    gr_jw_end_obj(&w);
  }
  gr_jw_key(&w, "options"); json_options(&w, r);
  if( g ){
    node_writer nw;
    nw_init(&nw, r, ro->shared_tails ? 0 : ro->provenance, &tmp);
    if( ro->shared_tails ) json_nodes_shared(&w, o, r, &nw);
    else{
      uint32_t n, nn = gr_graph_nnodes(g);
      gr_jw_key(&w, "nodes"); gr_jw_arr(&w);
      for(n = 0; n < nn; n++){
        gr_out_write(o, n ? ",\n" : "\n", n ? 2 : 1);   /* one node per line, not indented: it is most of the file */
        json_node(o, r, n, &nw);
      }
      if( nn ){ w.first[w.depth] = 0; }
      gr_jw_end_arr(&w);
      if( nw.ptab ) json_prov_table(&w, o, nw.ptab);
    }
    nw_free(&nw);
  }else{
    gr_jw_key(&w, "nodes"); gr_jw_arr(&w);
    gr_jw_end_arr(&w);
  }
  if( ro->gears && g ) gr_report_gears_json(&w, r, ro->gears);
  gr_report_diags_json(&w, &r->diags, g ? (long)gr_graph_nnodes(g) : 0);
  gr_jw_end_obj(&w);
  gr_buf_free(&tmp);
}

/* ------------------------------------------------------------------ */
/* text */

/* Input text (a 16 MB op type) must not make a line that wide. */
#define TEXT_CAP GR_TEXT_CELL_CAP

void gr_report_diag(gr_buf *b, const gr_diag *d, const gr_report_opts *ro){
  const char *snip = NULL;
  size_t snlen = 0, at;
  if( d->snippet==NULL && ro->src && d->line ) snip = gr_srclines_get(ro->src, d->file, d->line, &snlen);
  at = b->n;
  gr_diag_format_ex(b, d, snip, snlen, ro->color);
  if( d->node || d->option ){
    /* "(node X, option Y)" at the end of the first line */
    gr_buf tail;
    char *nl = memchr(b->p + at, '\n', b->n - at);
    size_t cut = nl ? (size_t)(nl - b->p) : b->n;
    gr_buf_init(&tail);
    gr_buf_add(&tail, b->p + cut, b->n - cut);
    b->n = cut;
    gr_buf_adds(b, "  (");
    if( d->node ){ gr_buf_adds(b, "node "); gr_buf_add_printable(b, d->node, strlen(d->node), 0); }
    if( d->node && d->option ) gr_buf_adds(b, ", ");
    if( d->option ){ gr_buf_adds(b, "option "); gr_buf_add_printable(b, d->option, strlen(d->option), 0); }
    gr_buf_adds(b, ")");
    gr_buf_add(b, tail.p, tail.n);
    gr_buf_free(&tail);
  }
}

/* ------------------------------------------------------------------ */
/* explain */

static const gr_expr *failing_conjunct(gr_env *env, const gr_branch *br){
  size_t i;
  for(i = 0; i < br->nconj; i++) if( !gr_eval_cond(env, br->conj[i]) ) return br->conj[i];
  return NULL;
}

void gr_explain_walk(gr_result *r, uint32_t node, void (*fn)(void *ud, const gr_explain_row *row), void *ud){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  const gr_node *nd = &gr_graph_nodes(g)[node];
  size_t s, k, b, nslots = rs->nslots;
  gr_env env;
  gr_buf reason, failed, rule, bundle;
  gr_explain_row row;
  gr_buf_init(&reason);
  gr_buf_init(&failed);
  gr_buf_init(&rule); gr_buf_init(&bundle);
  gr_env_init(&env, r);
  env.node = node;
  env.type_name = gr_graph_type_name(g, nd->type);
  for(s = 0; s < nslots; s++){
    const gr_slot *sl = &rs->slots[s];
    const gr_decision *d = gr_dec(r, node, s);
    const gr_override *ov = d->source==GR_SOURCE_HOOK ? gr_result_find_override(r, node, (int)s) : NULL;
    memset(&row, 0, sizeof row);
    row.kind = GR_XR_SLOT;
    row.slot = s;
    row.value = d->value;
    row.source = d->source==GR_SOURCE_HOOK ? "hook" : d->source >= 0 ? rs->sources[d->source].name : NULL;
    reason.n = 0;
    if( !gr_decision_effect(r, node, s, &reason) ) row.no_effect = gr_buf_cstr(&reason);
    fn(ud, &row);
    for(k = 0; k < sl->ncascade; k++){
      const gr_source *src = &rs->sources[sl->cascade[k]];
      int yielded = 0;
      for(b = 0; b < src->nbranches && !yielded; b++){
        const gr_branch *br = &src->branches[b];
        const gr_expr *fail = failing_conjunct(&env, br);
        gr_val v;
        int won;
        memset(&v, 0, sizeof v);
        if( fail==NULL && br->value ){
          v = gr_eval_expr(&env, br->value);
          if( v.t==GR_T_STR ) yielded = 1;
        }
        won = ov ? (ov->prev_source==src->index && ov->prev_branch==b) : (d->source==src->index && d->branch==b);
        memset(&row, 0, sizeof row);
        row.kind = GR_XR_CAND;
        row.slot = s;
        row.source = src->name;
        row.place = k + 1;
        row.branch = b + 1;
        row.status = yielded ? (won ? (ov ? "replaced by hook" : "won") : "beaten") : fail ? "condition false" : "no value";
        row.value = yielded ? v.u.s : NULL;
        row.input = yielded ? v.origin : NULL;
        reason.n = 0;
        if( yielded && br->because.n ) gr_render(&env, &br->because, &reason);
        row.reason = reason.n ? gr_buf_cstr(&reason) : NULL;
        failed.n = 0;
        if( fail ) gr_expr_print(&failed, fail);
        else if( !yielded && br->value ) gr_expr_print(&failed, br->value);
        row.failed = failed.n ? gr_buf_cstr(&failed) : NULL;
        rule.n = 0;
        gr_buf_printf(&rule, "%s:%u", gr_ruleset_short_path(rs, br->loc.file), br->loc.line);
        row.rule = gr_buf_cstr(&rule);
        if( rs->nlayers > 1 ){
          /* a stack: which bundle wrote the branch */
          const gr_layer *L = &rs->layers[gr_ruleset_layer_of(rs, br->loc.file)];
          bundle.n = 0;
          gr_buf_printf(&bundle, "%s%s%s", L->name ? L->name : "?", L->version ? " " : "", L->version ? L->version : "");
          row.bundle = gr_buf_cstr(&bundle);
        }
        fn(ud, &row);
      }
    }
    if( ov ){
      memset(&row, 0, sizeof row);
      row.kind = GR_XR_HOOK;
      row.slot = s;
      row.source = "hook";
      row.status = "won";
      row.value = ov->value;
      row.replaced = ov->prev_value;
      row.reason = ov->reason;
      rule.n = 0;
      origin_text(&rule, &ov->where);
      row.rule = gr_buf_cstr(&rule);
      fn(ud, &row);
    }
    memset(&row, 0, sizeof row);
    row.kind = GR_XR_SLOT_END;
    row.slot = s;
    fn(ud, &row);
  }
  gr_buf_free(&reason);
  gr_buf_free(&failed);
  gr_buf_free(&rule); gr_buf_free(&bundle);
}

typedef struct explain_out {
  gr_out *o;
  gr_jw w;
  int json;
  const gr_ruleset *rs;
  gr_buf tmp;
} explain_out;

static void explain_json_row(explain_out *x, const gr_explain_row *row){
  gr_jw *w = &x->w;
  switch( row->kind ){
  case GR_XR_SLOT:
    gr_jw_obj(w);
    gr_jw_key(w, "slot"); gr_jw_str(w, x->rs->slots[row->slot].name);
    gr_jw_key(w, "value"); gr_jw_str(w, row->value);
    gr_jw_key(w, "source"); gr_jw_str(w, row->source);
    gr_jw_key(w, "effect"); gr_jw_bool(w, row->no_effect==NULL);
    gr_jw_key(w, "no_effect_reason"); gr_jw_str(w, row->no_effect);
    gr_jw_key(w, "candidates"); gr_jw_arr(w);
    break;
  case GR_XR_CAND:
    gr_jw_obj(w);
    gr_jw_key(w, "source"); gr_jw_str(w, row->source);
    gr_jw_key(w, "place"); gr_jw_int(w, (int64_t)row->place);
    gr_jw_key(w, "branch"); gr_jw_int(w, (int64_t)row->branch);
    gr_jw_key(w, "rule"); gr_jw_str(w, row->rule);
    if( row->bundle ){ gr_jw_key(w, "bundle"); gr_jw_str(w, row->bundle); }
    gr_jw_key(w, "status"); gr_jw_str(w, row->status);
    gr_jw_key(w, "value"); gr_jw_str(w, row->value);
    x->tmp.n = 0;
    if( row->input ) origin_text(&x->tmp, row->input);
    gr_jw_key(w, "input"); gr_jw_str(w, row->input ? gr_buf_cstr(&x->tmp) : NULL);
    gr_jw_key(w, "reason"); gr_jw_str(w, row->reason);
    gr_jw_key(w, "failed"); gr_jw_str(w, row->failed);
    gr_jw_end_obj(w);
    break;
  case GR_XR_HOOK:
    gr_jw_obj(w);
    gr_jw_key(w, "source"); gr_jw_str(w, "hook");
    gr_jw_key(w, "rule"); gr_jw_str(w, row->rule);
    gr_jw_key(w, "status"); gr_jw_str(w, "won");
    gr_jw_key(w, "value"); gr_jw_str(w, row->value);
    gr_jw_key(w, "replaced"); gr_jw_str(w, row->replaced);
    gr_jw_key(w, "reason"); gr_jw_str(w, row->reason);
    gr_jw_end_obj(w);
    break;
  case GR_XR_SLOT_END:
    gr_jw_end_arr(w);
    gr_jw_end_obj(w);
    break;
  }
}

static void explain_text_row(explain_out *x, const gr_explain_row *row){
  gr_out *o = x->o;
  const char *slot = x->rs->slots[row->slot].column;    /* the label a person reads; JSON keeps the name */
  switch( row->kind ){
  case GR_XR_SLOT:
    gr_out_printf(o, "\n%s = ", slot);
    gr_out_text(o, row->value ? row->value : "null (no source yields: the op's own default)", 0, 0);
    if( row->source && strcmp(row->source, "hook") ) gr_out_printf(o, "   from %s", row->source);
    else if( row->source ) gr_out_puts(o, "   from a hook");
    if( row->no_effect ){ gr_out_puts(o, "   (no effect: "); gr_out_text(o, row->no_effect, 0, 0); gr_out_putc(o, ')'); }
    gr_out_puts(o, "\n");
    break;
  case GR_XR_CAND:
    gr_out_printf(o, "  %zu. %-24s %-16s", row->place, row->source, row->status);
    if( row->value ){
      gr_out_putc(o, ' '); gr_out_text(o, row->value, 0, 0);
      if( row->input ){
        x->tmp.n = 0;
        origin_text(&x->tmp, row->input);
        gr_out_puts(o, "  <- "); gr_out_text(o, gr_buf_cstr(&x->tmp), 0, 0);
      }
    }else if( row->failed && strcmp(row->status, "condition false")==0 ){
      gr_out_printf(o, " %s", row->failed);
    }else{
      gr_out_printf(o, " %s is null here", row->failed ? row->failed : "");
    }
    gr_out_printf(o, "   [%s%s%s]\n", row->rule, row->bundle ? ", bundle " : "", row->bundle ? row->bundle : "");
    if( row->reason ){ gr_out_puts(o, "       because "); gr_out_text(o, row->reason, 0, 0); gr_out_putc(o, '\n'); }
    break;
  case GR_XR_HOOK:
    gr_out_printf(o, "  -> hook at %s set %s = ", row->rule, slot);
    gr_out_text(o, row->value ? row->value : "null", 0, 0);
    gr_out_puts(o, " (the cascade gave "); gr_out_text(o, row->replaced ? row->replaced : "null", 0, 0);
    gr_out_puts(o, ")");
    if( row->reason ){ gr_out_puts(o, ": "); gr_out_text(o, row->reason, 0, 0); }
    gr_out_putc(o, '\n');
    break;
  }
}

static void explain_row(void *ud, const gr_explain_row *row){
  explain_out *x = ud;
  if( x->json ) explain_json_row(x, row);
  else explain_text_row(x, row);
}

void gr_report_explain(gr_out *o, gr_result *r, uint32_t node, int json, const gr_report_opts *ro){
  const gr_graph *g = r->g;
  const gr_node *nd = &gr_graph_nodes(g)[node];
  const char *type = gr_graph_type_name(g, nd->type);
  explain_out x;
  memset(&x, 0, sizeof x);
  x.o = o;
  x.json = json;
  x.rs = r->rs;
  gr_buf_init(&x.tmp);
  if( json ){
    gr_jw_init(&x.w, o, 3);
    gr_jw_obj(&x.w);
    gr_jw_eval_schema_version(&x.w);
    gr_jw_key(&x.w, "node"); gr_jw_str(&x.w, gr_graph_str(g, nd->name));
    gr_jw_key(&x.w, "type"); gr_jw_str(&x.w, type);
    gr_jw_key(&x.w, "graph"); gr_jw_str(&x.w, gr_graph_graph_name(g, nd->graph));
    gr_jw_key(&x.w, "file"); gr_jw_str(&x.w, ro->graph_path);
    gr_jw_key(&x.w, "line"); gr_jw_int(&x.w, nd->line);
    gr_jw_key(&x.w, "chip"); gr_jw_str(&x.w, r->soc_name);
    gr_jw_key(&x.w, "slots"); gr_jw_arr(&x.w);
  }else{
    gr_out_puts(o, "node "); gr_out_text(o, gr_graph_str(g, nd->name), 0, 0);
    gr_out_puts(o, " ("); gr_out_text(o, type, 0, TEXT_CAP);
    gr_out_puts(o, ") in graph \""); gr_out_text(o, gr_graph_graph_name(g, nd->graph), 0, 0);
    if( nd->line ){
      gr_out_puts(o, "\" at "); gr_out_text(o, ro->graph_path, 0, 0);
      gr_out_printf(o, ":%u, chip %s\n", nd->line, r->soc_name);
    }else{
      /* a binary model has no lines: the node by its place and, for an ONNX
      ** model, the ONNX node it comes from (onnx.c's provenance attributes) */
      const gr_attr *on = gr_graph_attr(g, nd, "_onnx_node"), *op = gr_graph_attr(g, nd, "_onnx_op");
      gr_out_puts(o, "\" of "); gr_out_text(o, ro->graph_path, 0, 0);
      gr_out_printf(o, ", node %u of %u", node + 1, gr_graph_nnodes(g));
      if( on && on->kind==GR_ATTR_S ){
        gr_out_puts(o, " (ONNX node \""); gr_out_text(o, gr_graph_str(g, on->u.str), 0, 0);
        if( op && op->kind==GR_ATTR_S ){ gr_out_puts(o, "\", "); gr_out_text(o, gr_graph_str(g, op->u.str), 0, TEXT_CAP); gr_out_puts(o, ")"); }
        else gr_out_puts(o, "\")");
      }
      gr_out_printf(o, ", chip %s\n", r->soc_name);
    }
  }
  gr_explain_walk(r, node, explain_row, &x);
  if( json ) gr_jw_end_arr(&x.w);
  if( gr_judge_node(r, node) ){
    /* the dtype and engine judge's steps: each tensor's row, step and columns */
    gr_buf steps;
    const char *p, *e;
    gr_buf_init(&steps);
    gr_judge_explain(r, node, &steps);
    if( json ){ gr_jw_key(&x.w, "dtype_steps"); gr_jw_arr(&x.w); }
    else gr_out_puts(o, "dtype and engine judge:\n");
    for(p = steps.p; p && p < steps.p + steps.n; p = e + 1){
      e = memchr(p, '\n', (size_t)(steps.p + steps.n - p));
      if( e==NULL ) e = steps.p + steps.n;
      if( json ){ x.tmp.n = 0; gr_buf_add(&x.tmp, p, (size_t)(e - p)); gr_jw_str(&x.w, gr_buf_cstr(&x.tmp)); }
      else{ gr_out_puts(o, "  "); gr_out_write(o, p, (size_t)(e - p)); gr_out_putc(o, '\n'); }
    }
    if( json ) gr_jw_end_arr(&x.w);
    gr_buf_free(&steps);
  }else if( json ){ gr_jw_key(&x.w, "dtype_steps"); gr_jw_null(&x.w); }
  if( json ) gr_jw_end_obj(&x.w);
  gr_buf_free(&x.tmp);
}
