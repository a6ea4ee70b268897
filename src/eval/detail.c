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
#include "eval/eval.h"

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

int gr_decision_effect(gr_result *r, uint32_t node, size_t slot, gr_buf *reason){
  const gr_ruleset *rs = r->rs;
  const gr_slot *sl;
  gr_env env;
  size_t k, i;
  int at_node = 0;
  if( r->g==NULL || r->dec==NULL || slot >= rs->nslots || node >= gr_graph_nnodes(r->g) ) return 1;
  sl = &rs->slots[slot];
  if( sl->nnoeffect==0 || r->dec[(size_t)node * rs->nslots + slot].value==NULL ) return 1;
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
