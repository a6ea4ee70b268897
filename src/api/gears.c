/*
** gears.c: every gear evaluated as a static graph, the decisions that are
** not the same in every gear, and every gear's diagnostics, each once,
** tagged with its gears when not every gear has it (gears.h).
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "api/gears.h"
#include "lang/ruleset.h"

static int same(const char *a, const char *b){
  return a==b || (a && b && strcmp(a, b)==0);
}

/* ---- diagnostics: which gears each arises in ---- */

/* Every diagnostic seen, by identity; in[k * ngears + g] says whether key k
** arises in gear g. */
typedef struct diag_sets {
  gr_map map;                         /* key -> its number + 1 */
  GR_VEC(char *) keys;                /* owned: the map's keys */
  uint8_t *in;
  size_t ngears;
} diag_sets;

static char *str0(const char *s){ return s ? gr_xstrdup(s) : NULL; }

/* A diagnostic's identity across gears: everything a report shows of it. */
static char *diag_key(const gr_diag *x){
  return gr_xasprintf("%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%u:%u\x1f%s", (int)x->sev,
                      x->code ? x->code : "", x->ge_code ? x->ge_code : "", x->node ? x->node : "",
                      x->option ? x->option : "", x->msg ? x->msg : "", x->rule ? x->rule : "",
                      x->file ? x->file : "", x->line, x->col, x->changed_by ? x->changed_by : "");
}

/* Marks x as arising in gear g; returns 1 when no gear had it before. */
static int diag_seen(diag_sets *ds, const gr_diag *x, size_t g){
  char *key = diag_key(x);
  size_t k = (size_t)(uintptr_t)gr_map_get(&ds->map, key);
  int fresh = k==0;
  if( fresh ){
    k = ds->keys.n + 1;
    gr_vec_push(ds->keys, key);
    gr_map_put(&ds->map, key, (void *)(uintptr_t)k);
    ds->in = gr_xrealloc(ds->in, k * ds->ngears);
    memset(ds->in + (k - 1) * ds->ngears, 0, ds->ngears);
  }else{
    free(key);
  }
  ds->in[(k - 1) * ds->ngears + g] = 1;
  return fresh;
}

/* Gear g's diagnostics that no gear before it had are added to r0's. */
static void diags_add_gear(diag_sets *ds, gr_result *r0, const gr_result *rk, size_t g){
  size_t i;
  for(i = 0; i < rk->diags.n; i++){
    const gr_diag *x = &rk->diags.v[i];
    gr_diag *d;
    if( !diag_seen(ds, x, g) ) continue;
    d = gr_diags_add(&r0->diags, x->sev, x->file, x->line, x->col, "%s", x->msg ? x->msg : "");
    d->code = str0(x->code); d->ge_code = str0(x->ge_code); d->option = str0(x->option);
    d->node = str0(x->node); d->rule = str0(x->rule); d->snippet = str0(x->snippet);
    d->changed_by = str0(x->changed_by); d->orig_sev = x->orig_sev;
  }
}

/* Tags each of r0's diagnostics that not every gear has with its gears. */
static void diags_tag(diag_sets *ds, gr_result *r0){
  size_t i, g;
  for(i = 0; i < r0->diags.n; i++){
    gr_diag *d = &r0->diags.v[i];
    char *key = diag_key(d);
    size_t k = (size_t)(uintptr_t)gr_map_get(&ds->map, key);
    const uint8_t *in = k ? ds->in + (k - 1) * ds->ngears : NULL;
    free(key);
    if( in==NULL || memchr(in, 0, ds->ngears)==NULL ) continue;    /* in every gear */
    d->gears = gr_xcalloc(ds->ngears, sizeof *d->gears);
    for(g = 0; g < ds->ngears; g++) if( in[g] ) d->gears[d->ngears++] = (uint32_t)g + 1;
  }
}

static void diag_sets_free(diag_sets *ds){
  size_t i;
  gr_map_free(&ds->map);
  for(i = 0; i < ds->keys.n; i++) free(ds->keys.v[i]);
  free(ds->keys.v);
  free(ds->in);
}

/* ---- decisions ---- */

static gr_gear_diff diff_of(uint32_t node, uint32_t slot, const char *value){
  gr_gear_diff d;
  d.node = node; d.slot = slot;
  d.value = value ? gr_xstrdup(value) : NULL;
  return d;
}

gr_gears *gr_api_gears_run(const gr_ruleset *rs, const gr_eval_config *cfg, gr_result *r0, gr_graph *g,
                           size_t n, gr_api_gear_fn fn, void *ud){
  diag_sets ds;
  gr_gears *gs = gr_xcalloc(1, sizeof *gs);
  size_t ns = rs->nslots, nn = gr_graph_nnodes(g), k, i;
  uint8_t *differs = gr_xcalloc(nn * ns + 1, 1);
  GR_VEC(gr_gear_diff) *seen = gr_xcalloc(n, sizeof *seen);   /* per gear: where it differs from gear 0 */
  gs->v.v = gr_xcalloc(n, sizeof *gs->v.v);
  gs->v.n = gs->v.cap = n;
  memset(&ds, 0, sizeof ds);
  gr_map_init(&ds.map);
  ds.ngears = n;
  fn(ud, g, 0, gs);
  for(i = 0; i < r0->diags.n; i++) diag_seen(&ds, &r0->diags.v[i], 0);
  for(k = 1; k < n; k++){
    gr_eval_config c = *cfg;
    gr_result *rk;
    fn(ud, g, k, gs);
    c.keep_candidates = 0;
    rk = gr_eval(rs, &c);
    diags_add_gear(&ds, r0, rk, k);    /* a gear that failed says why, too */
    if( !rk->fatal )
      for(i = 0; i < nn * ns; i++)
        if( !same(gr_dec(r0, (uint32_t)(i / ns), i % ns)->value, gr_dec(rk, (uint32_t)(i / ns), i % ns)->value) ){
          differs[i] = 1;
          gr_vec_push(seen[k], diff_of((uint32_t)(i / ns), (uint32_t)(i % ns), gr_dec(rk, (uint32_t)(i / ns), i % ns)->value));
        }
    gr_result_free(rk);
  }
  fn(ud, g, 0, NULL);                 /* back to the graph r0 describes */
  diags_tag(&ds, r0);
  diag_sets_free(&ds);
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
        gr_vec_push(gs->v.v[k].diffs, diff_of((uint32_t)(i / ns), (uint32_t)(i % ns), gr_dec(r0, (uint32_t)(i / ns), i % ns)->value));
      }
    }
    free(seen[k].v);
  }
  free(seen);
  free(differs);
  return gs;
}
