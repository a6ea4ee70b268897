/*
** detail.c: re-derives why a decision was made. The evaluator keeps, per
** node and slot, only the winning source and branch (and the beaten
** candidates); the reason text and the input a value came from are
** recomputed on demand by re-running the branch's condition (which binds
** quantifier witnesses) and value for that node. Reporters and the hooks'
** node:provenance call this.
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
