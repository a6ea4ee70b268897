/*
** gears.c: the gears section of the text and JSON reports (gears.h): which
** decisions are the same in every gear ATC builds, and per gear its input
** shapes and the decisions that differ.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "report/gears.h"
#include "report/out.h"
#include "eval/eval.h"
#include "lang/ruleset.h"
#include "model/graph.h"

void gr_gears_free(gr_gears *gs){
  size_t i, j;
  if( gs==NULL ) return;
  for(i = 0; i < gs->v.n; i++){
    gr_gear *g = &gs->v.v[i];
    free(g->profile);
    for(j = 0; j < g->inputs.n; j++){ free(g->inputs.v[j].name); free(g->inputs.v[j].dims.v); }
    free(g->inputs.v);
    for(j = 0; j < g->diffs.n; j++) free(g->diffs.v[j].value);
    free(g->diffs.v);
  }
  free(gs->v.v);
  free(gs->flag);
  free(gs->value);
  memset(gs, 0, sizeof *gs);
}

static void input_shapes(gr_out *o, const gr_gear *g){
  size_t i, k;
  for(i = 0; i < g->inputs.n; i++){
    gr_out_printf(o, "%s%s:", i ? ";" : "", g->inputs.v[i].name);
    for(k = 0; k < g->inputs.v[i].dims.n; k++) gr_out_printf(o, "%s%lld", k ? "," : "", (long long)g->inputs.v[i].dims.v[k]);
  }
}

void gr_report_gears_text(gr_out *o, const gr_result *r, const gr_gears *gs){
  const gr_ruleset *rs = r->rs;
  uint32_t nn = gr_graph_nnodes(r->g);
  size_t i, j;
  gr_out_printf(o, "\ngears: %s=%s, %zu static graphs as ATC builds them (the nodes above are gear 1's)\n",
                gs->flag, gs->value, gs->v.n);
  for(i = 0; i < gs->v.n; i++){
    gr_out_printf(o, "  gear %zu (%s): --input_shape=", i + 1, gs->v.v[i].profile);
    input_shapes(o, &gs->v.v[i]);
    gr_out_puts(o, "\n");
  }
  if( gs->nodes_differ==0 ){
    gr_out_printf(o, "every decision of every node (%u) is the same in every gear\n", nn);
    return;
  }
  gr_out_printf(o, "the same in every gear: every decision of %u of %u nodes; %u node%s differ%s per gear:\n",
                nn - gs->nodes_differ, nn, gs->nodes_differ, gs->nodes_differ==1 ? "" : "s", gs->nodes_differ==1 ? "s" : "");
  for(i = 0; i < gs->v.n; i++){
    const gr_gear *g = &gs->v.v[i];
    uint32_t last = UINT32_MAX;
    gr_out_printf(o, "  gear %zu (%s):", i + 1, g->profile);
    for(j = 0; j < g->diffs.n; j++){
      const gr_gear_diff *d = &g->diffs.v[j];
      if( d->node!=last ){
        gr_out_printf(o, "\n    %s", gr_graph_str(r->g, gr_graph_nodes(r->g)[d->node].name));
        last = d->node;
      }
      gr_out_printf(o, " %s=%s", rs->slots[d->slot].column, d->value ? d->value : "-");
    }
    gr_out_puts(o, "\n");
  }
}

/* Gear i's index (from 1), profile and inputs, as members of an open object. */
static void gear_members(gr_jw *w, const gr_gears *gs, size_t i){
  const gr_gear *g = &gs->v.v[i];
  size_t j, k;
  gr_jw_key(w, "index"); gr_jw_int(w, (int64_t)i + 1);
  gr_jw_key(w, "profile"); gr_jw_str(w, g->profile);
  gr_jw_key(w, "inputs"); gr_jw_arr(w);
  for(j = 0; j < g->inputs.n; j++){
    gr_jw_obj(w);
    gr_jw_key(w, "name"); gr_jw_str(w, g->inputs.v[j].name);
    gr_jw_key(w, "dims"); gr_jw_arr(w);
    for(k = 0; k < g->inputs.v[j].dims.n; k++) gr_jw_int(w, g->inputs.v[j].dims.v[k]);
    gr_jw_end_arr(w);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
}

void gr_report_gears_profiles_json(gr_jw *w, const gr_gears *gs){
  size_t i;
  gr_jw_arr(w);
  for(i = 0; i < gs->v.n; i++){ gr_jw_obj(w); gear_members(w, gs, i); gr_jw_end_obj(w); }
  gr_jw_end_arr(w);
}

void gr_report_gears_json(gr_jw *w, const gr_result *r, const gr_gears *gs){
  const gr_ruleset *rs = r->rs;
  size_t i, j;
  gr_jw_key(w, "gears"); gr_jw_obj(w);
  gr_jw_key(w, "flag"); gr_jw_str(w, gs->flag);
  gr_jw_key(w, "value"); gr_jw_str(w, gs->value);
  gr_jw_key(w, "nodes_differ"); gr_jw_int(w, gs->nodes_differ);
  gr_jw_key(w, "gears"); gr_jw_arr(w);
  for(i = 0; i < gs->v.n; i++){
    const gr_gear *g = &gs->v.v[i];
    uint32_t last = UINT32_MAX;
    gr_jw_obj(w);
    gear_members(w, gs, i);
    gr_jw_key(w, "nodes"); gr_jw_arr(w);
    for(j = 0; j < g->diffs.n; j++){
      const gr_gear_diff *d = &g->diffs.v[j];
      if( d->node!=last ){
        if( last!=UINT32_MAX ){ gr_jw_end_obj(w); gr_jw_end_obj(w); }
        gr_jw_obj(w);
        gr_jw_key(w, "name"); gr_jw_str(w, gr_graph_str(r->g, gr_graph_nodes(r->g)[d->node].name));
        gr_jw_key(w, "decisions"); gr_jw_obj(w);
        last = d->node;
      }
      gr_jw_key(w, rs->slots[d->slot].name);
      if( d->value ) gr_jw_str(w, d->value); else gr_jw_null(w);
    }
    if( last!=UINT32_MAX ){ gr_jw_end_obj(w); gr_jw_end_obj(w); }
    gr_jw_end_arr(w);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_jw_end_obj(w);
}
