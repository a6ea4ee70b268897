/*
** gears.c: every gear evaluated as a static graph, and the decisions that
** are not the same in every gear (gears.h).
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "api/gears.h"
#include "lang/ruleset.h"

static int same(const char *a, const char *b){
  return a==b || (a && b && strcmp(a, b)==0);
}

static gr_gear_diff diff_of(uint32_t node, uint32_t slot, const char *value){
  gr_gear_diff d;
  d.node = node; d.slot = slot;
  d.value = value ? gr_xstrdup(value) : NULL;
  return d;
}

gr_gears *gr_api_gears_run(const gr_ruleset *rs, const gr_eval_config *cfg, const gr_result *r0, gr_graph *g,
                           size_t n, gr_api_gear_fn fn, void *ud){
  gr_gears *gs = gr_xcalloc(1, sizeof *gs);
  size_t ns = rs->nslots, nn = gr_graph_nnodes(g), k, i;
  uint8_t *differs = gr_xcalloc(nn * ns + 1, 1);
  GR_VEC(gr_gear_diff) *seen = gr_xcalloc(n, sizeof *seen);   /* per gear: where it differs from gear 0 */
  gs->v.v = gr_xcalloc(n, sizeof *gs->v.v);
  gs->v.n = gs->v.cap = n;
  fn(ud, g, 0, gs);
  for(k = 1; k < n; k++){
    gr_eval_config c = *cfg;
    gr_result *rk;
    fn(ud, g, k, gs);
    c.keep_candidates = 0;
    rk = gr_eval(rs, &c);
    if( !rk->fatal )
      for(i = 0; i < nn * ns; i++)
        if( !same(r0->dec[i].value, rk->dec[i].value) ){
          differs[i] = 1;
          gr_vec_push(seen[k], diff_of((uint32_t)(i / ns), (uint32_t)(i % ns), rk->dec[i].value));
        }
    gr_result_free(rk);
  }
  fn(ud, g, 0, NULL);                 /* back to the graph r0 describes */
  for(i = 0; i < nn; i++){
    size_t s;
    for(s = 0; s < ns; s++) if( differs[i * ns + s] ){ gs->nodes_differ++; break; }
  }
  /* every gear lists every differing (node, slot): its own value where it
  ** differs from gear 0, else gear 0's */
  for(k = 0; k < n; k++){
    size_t at = 0;
    for(i = 0; i < nn * ns; i++){
      if( !differs[i] ) continue;
      if( at < seen[k].n && (size_t)seen[k].v[at].node * ns + seen[k].v[at].slot==i ){
        gr_vec_push(gs->v.v[k].diffs, seen[k].v[at]);
        at++;
      }else{
        gr_vec_push(gs->v.v[k].diffs, diff_of((uint32_t)(i / ns), (uint32_t)(i % ns), r0->dec[i].value));
      }
    }
    free(seen[k].v);
  }
  free(seen);
  free(differs);
  return gs;
}
