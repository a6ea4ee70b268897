/*
** detail.c: re-derives why a decision was made. The evaluator keeps, per
** node and slot, only the winning source and branch (and the beaten
** candidates); the reason text and the input a value came from are
** recomputed on demand by re-running the branch's condition (which binds
** quantifier witnesses) and value for that node. Reporters and the hooks'
** node:provenance call this. It also says whether a decision takes effect,
** from the slot's `no effect when ... because ...` clauses, the same way.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "eval/eval.h"
#include "eval/judge.h"

void gr_decision_detail(gr_result *r, uint32_t node, int32_t source, uint16_t branch,
                        gr_buf *reason, const gr_origin **input){
  const gr_branch *br;
  const gr_graph *g = r->g;
  gr_env env;
  int need_value;
  if( input ) *input = NULL;
  if( source < 0 ) return;
  br = &r->rs->sources[source].branches[branch];
  need_value = input && br->value && br->value->dep!=GR_DEP_CONST;
  if( br->because.constant || br->because.n==0 ){
    if( reason && br->because.constant ) gr_buf_adds(reason, br->because.constant);
    reason = NULL;
  }
  if( reason==NULL && !need_value ) return;
  gr_env_init(&env, r);
  env.node = node;
  env.type_name = gr_graph_type_name(g, gr_graph_nodes(g)[node].type);
  gr_eval_cond(&env, br->cond);            /* binds quantifier witnesses */
  if( need_value ){
    gr_val v = gr_eval_expr(&env, br->value);
    *input = v.origin;
  }
  if( reason ) gr_render(&env, &br->because, reason);
}

/* The `no effect` clauses: their conjuncts that name no node (options, the
** chip, the run mode) are the same for every node, so they are evaluated
** once per result; only the node's own conjuncts run per node. */
static size_t noeffect_index(gr_result *r, size_t slot, size_t k){
  const gr_ruleset *rs = r->rs;
  size_t i, at = k;
  if( r->noeffect_global==NULL ){
    size_t n = 0;
    for(i = 0; i < rs->nslots; i++) n += rs->slots[i].nnoeffect;
    r->noeffect_global = gr_xcalloc(n + 1, 1);
    r->noeffect_text = gr_xcalloc(n + 1, sizeof *r->noeffect_text);
  }
  for(i = 0; i < slot; i++) at += rs->slots[i].nnoeffect;
  return at;
}

static int noeffect_global_holds(gr_result *r, size_t slot, size_t k){
  const gr_ruleset *rs = r->rs;
  const gr_branch *br = &rs->slots[slot].noeffect[k];
  size_t i, at = noeffect_index(r, slot, k);
  if( r->noeffect_global[at]==0 ){
    gr_env env;
    int ok = 1;
    gr_env_init(&env, r);
    for(i = 0; i < br->nconj && ok; i++){
      if( br->conj[i]->dep <= GR_DEP_GLOBAL && !gr_eval_cond(&env, br->conj[i]) ) ok = 0;
    }
    r->noeffect_global[at] = ok ? 1 : 2;
  }
  return r->noeffect_global[at]==1;
}

/* Whether a template's text is the same for every node: each placeholder
** depends on nothing finer than the options and the chip. */
static int tpl_names_no_node(const gr_template *t){
  size_t i;
  for(i = 0; i < t->n; i++) if( t->parts[i].e && t->parts[i].e->dep > GR_DEP_GLOBAL ) return 0;
  return 1;
}

static int effect_eval(gr_result *r, uint32_t node, size_t slot, gr_buf *reason){
  const gr_ruleset *rs = r->rs;
  const gr_slot *sl;
  gr_env env;
  size_t k, i;
  int at_node = 0;
  if( r->g==NULL || r->dec==NULL || slot >= rs->nslots || node >= gr_graph_nnodes(r->g) ) return 1;
  sl = &rs->slots[slot];
  if( sl->nnoeffect==0 || gr_dec(r, node, slot)->value==NULL ) return 1;
  for(k = 0; k < sl->nnoeffect; k++){
    const gr_branch *br = &sl->noeffect[k];
    int ok = 1;
    if( !noeffect_global_holds(r, slot, k) ) continue;
    if( !at_node ){
      gr_env_init(&env, r);
      env.node = node;
      env.type_name = gr_graph_type_name(r->g, gr_graph_nodes(r->g)[node].type);
      at_node = 1;
    }
    for(i = 0; i < br->nconj && ok; i++){
      if( br->conj[i]->dep > GR_DEP_GLOBAL && !gr_eval_cond(&env, br->conj[i]) ) ok = 0;
    }
    if( !ok ) continue;
    if( reason ){
      if( br->because.constant ) gr_buf_adds(reason, br->because.constant);
      else if( br->nvars==0 && tpl_names_no_node(&br->because) ){
        /* the same text for every node (e.g. "PRECISION_MODE={option PRECISION_MODE}"):
        ** rendered once; measured, rendering it per node was a third of the
        ** report's per-node work on the MatMul nodes of the benchmark graph */
        const char **txt = &r->noeffect_text[noeffect_index(r, slot, k)];
        if( *txt==NULL ){
          size_t mark = reason->n;
          gr_render(&env, &br->because, reason);
          *txt = gr_arena_strndup(&r->arena, reason->p + mark, reason->n - mark);
        }else{
          gr_buf_adds(reason, *txt);
        }
      }else{
        if( br->nvars ) gr_eval_cond(&env, br->cond);      /* binds quantifier witnesses */
        gr_render(&env, &br->because, reason);
      }
    }
    return 0;
  }
  return 1;
}

/* ---- the memo of effects ----
** A slot whose `no effect` clauses read of the node only its type, its
** slots' decisions, its tensors' dtypes and the judge's record (options and
** the chip being the same for every node) has one outcome and one reason per
** combination of those: nodes alike in them are evaluated once. Measured:
** evaluating the HF32 clauses for every MatMul-class node was 5% of a
** 100K-node eval with the JSON report. */
struct gr_effect_memo {
  uint8_t *slot_ok;             /* per slot: 0 not known yet, 1 memoisable, 2 not */
  gr_strpool keys;
  GR_VEC(struct effect_seen { int res; const char *text; }) seen;   /* per key id - 1 (id 0 is the pool's "") */
};

/* e reads nothing of the node but the fields above (and nothing of another) */
static int reads_alike(const gr_expr *e){
  const gr_expr *x;
  if( e==NULL ) return 1;
  switch( e->op ){
    case GR_E_NODE: case GR_E_GRAPH: case GR_E_ENTRY: case GR_E_OPTSCOPE: case GR_E_PARTITION: case GR_E_CALL:
      return 0;
    case GR_E_NAME:
      return e->ref==GR_NAME_TABLE || e->ref==GR_NAME_VAR;
    case GR_E_FIELD:
      if( e->a && e->a->op==GR_E_NODE ){
        if( e->ref==GR_F_TYPE || e->ref==GR_F_SLOT || e->ref==GR_F_SLOT_SOURCE || e->ref==GR_F_DTYPES ) return 1;
        return e->ref==GR_F_JUDGE && e->ref2 < GR_JF_REFUSAL_ENGINE && e->ref2!=GR_JF_ENGINE_SUMMARY;
      }
      return e->a && e->a->op==GR_E_CHIP;
    default:
      break;
  }
  if( !reads_alike(e->a) || !reads_alike(e->b) ) return 0;
  if( e->op==GR_E_LIST ) for(x = e->a; x; x = x->next) if( !reads_alike(x) ) return 0;
  return 1;
}

static int slot_memoisable(gr_result *r, struct gr_effect_memo *m, size_t slot){
  if( m->slot_ok[slot]==0 ){
    const gr_slot *sl = &r->rs->slots[slot];
    size_t k, i;
    int ok = 1;
    for(k = 0; k < sl->nnoeffect && ok; k++){
      const gr_branch *br = &sl->noeffect[k];
      for(i = 0; i < br->nconj && ok; i++) ok = reads_alike(br->conj[i]);
      for(i = 0; i < br->because.n && ok; i++) ok = reads_alike(br->because.parts[i].e);
    }
    m->slot_ok[slot] = ok ? 1 : 2;
  }
  return m->slot_ok[slot]==1;
}

int gr_decision_effect(gr_result *r, uint32_t node, size_t slot, gr_buf *reason){
  const gr_ruleset *rs = r->rs;
  struct gr_effect_memo *m;
  unsigned char key[16 + 12 * 64 + 2 * 256];
  const gr_node *nd;
  const gr_tensor *tens;
  size_t len = 0, s, nt, t;
  uint32_t rec = 0, id, known;
  gr_buf txt;
  int res;
  if( r->g==NULL || r->dec==NULL || slot >= rs->nslots || node >= gr_graph_nnodes(r->g) ) return 1;
  if( rs->slots[slot].nnoeffect==0 || gr_dec(r, node, slot)->value==NULL ) return 1;
  if( r->effect_memo==NULL ){
    r->effect_memo = gr_xcalloc(1, sizeof *r->effect_memo);
    r->effect_memo->slot_ok = gr_xcalloc(rs->nslots + 1, 1);
    gr_strpool_init(&r->effect_memo->keys);
  }
  m = r->effect_memo;
  nd = &gr_graph_nodes(r->g)[node];
  nt = (size_t)nd->n_in_desc + nd->n_out_desc;
  if( r->judge ) rec = gr_judge_record(r, node);
  if( rs->nslots > 64 || nt > 256 || (r->judge && rec==0) || !slot_memoisable(r, m, slot) ) return effect_eval(r, node, slot, reason);
  memcpy(key, &slot, sizeof slot); len += sizeof slot;
  memcpy(key + len, &nd->type, sizeof nd->type); len += sizeof nd->type;
  memcpy(key + len, &rec, sizeof rec); len += sizeof rec;
  for(s = 0; s < rs->nslots; s++){
    const gr_decision *d = gr_dec(r, node, s);
    memcpy(key + len, &d->value, sizeof d->value); len += sizeof d->value;
    memcpy(key + len, &d->source, sizeof d->source); len += sizeof d->source;
  }
  tens = gr_graph_tensors(r->g, nd);
  for(t = 0; t < nt; t++){ memcpy(key + len, &tens[t].dtype, sizeof tens[t].dtype); len += sizeof tens[t].dtype; }
  known = (uint32_t)gr_strpool_count(&m->keys);
  id = gr_strpool_intern(&m->keys, (const char *)key, len);
  if( id < known ){
    if( reason && m->seen.v[id - 1].res==0 ) gr_buf_adds(reason, m->seen.v[id - 1].text);
    return m->seen.v[id - 1].res;
  }
  {
    struct effect_seen blank = { 1, "" };
    gr_vec_push(m->seen, blank);        /* id - 1 == its index: ids come in order */
  }
  gr_buf_init(&txt);
  res = effect_eval(r, node, slot, &txt);
  m->seen.v[id - 1].res = res;
  m->seen.v[id - 1].text = res ? "" : gr_arena_strndup(&r->arena, txt.p ? txt.p : "", txt.n);
  if( reason && res==0 ) gr_buf_add(reason, txt.p ? txt.p : "", txt.n);
  gr_buf_free(&txt);
  return res;
}

void gr_decision_effect_free(gr_result *r){
  struct gr_effect_memo *m = r->effect_memo;
  if( m==NULL ) return;
  free(m->slot_ok);
  gr_vec_free(m->seen);
  gr_strpool_free(&m->keys);
  free(m);
  r->effect_memo = NULL;
}
