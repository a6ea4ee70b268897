/*
** check_cascade.c: the checker's cascade pass. Merges every `cascade`
** statement of each slot into one total order of its sources; a cycle, two
** sources left unordered, or a source in no cascade is an error, located
** with a caret line.
*/
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lang/check.h"

/* Merges every `cascade` statement of each slot into one total order of its
** sources (Kahn's algorithm over adjacency lists, so a cascade of thousands
** of sources stays linear). A cycle, two sources left unordered, or a
** source in no cascade is an error. */
typedef struct cedge { int to; gr_loc loc; } cedge;

void ck_cascades(ck *c){
  gr_ruleset *rs = c->rs;
  size_t si, k;
  gr_item *it;
  for(si = 0; si < rs->nslots; si++){
    gr_slot *slot = &rs->slots[si];
    size_t n = 0, i, j, placed = 0, nready = 0;
    int *members, *indeg, *order, *ready;
    size_t *nout, *capout;
    cedge **out;
    uint8_t *in_cascade;
    int reported = 0, had_unknown = 0;
    for(i = 0; i < rs->nsources; i++) if( rs->sources[i].slot==(int)si ) n++;
    if( n==0 ) continue;
    members = gr_xcalloc(n, sizeof *members);
    for(i = 0, j = 0; i < rs->nsources; i++) if( rs->sources[i].slot==(int)si ){ rs->sources[i].order = (int)j; members[j++] = (int)i; }
    out = gr_xcalloc(n, sizeof *out);
    nout = gr_xcalloc(n, sizeof *nout);
    capout = gr_xcalloc(n, sizeof *capout);
    in_cascade = gr_xcalloc(n, 1);
    indeg = gr_xcalloc(n, sizeof *indeg);
    order = gr_xcalloc(n, sizeof *order);
    ready = gr_xcalloc(n, sizeof *ready);
    CK_EACH_KIND(c, k, it, GR_I_CASCADE){
      gr_name *nm;
      int prev = -1;
      if( strcmp(it->name, slot->name)!=0 ) continue;
      for(nm = it->names; nm; nm = nm->next){
        int sj = gr_ruleset_find(&rs->source_map, nm->s), m;
        if( sj < 0 ){
          char sug[128];
          had_unknown = 1;
          ck_err(c, nm->loc, "unknown source '%s' in the cascade of %s%s", nm->s, slot->name, ck_did_you_mean(c, GR_NK_SOURCE, nm->s, sug, sizeof sug));
          prev = -1;
          continue;
        }
        if( rs->sources[sj].slot!=(int)si ){
          ck_err(c, nm->loc, "source '%s' decides slot %s, not %s", nm->s, rs->slots[rs->sources[sj].slot].name, slot->name);
          prev = -1;
          continue;
        }
        m = rs->sources[sj].order;
        in_cascade[m] = 1;
        if( prev >= 0 ){
          if( prev==m ){
            ck_err(c, nm->loc, "source '%s' cannot come before itself", nm->s);
          }else{
            if( nout[prev]==capout[prev] ){
              capout[prev] = capout[prev] ? capout[prev] * 2 : 2;
              out[prev] = gr_xrealloc(out[prev], capout[prev] * sizeof **out);
            }
            out[prev][nout[prev]].to = m;
            out[prev][nout[prev]].loc = nm->loc;
            nout[prev]++;
            indeg[m]++;
          }
        }
        prev = m;
      }
    }
    for(i = 0; i < n && !had_unknown; i++){    /* a misspelt name explains a missing one */
      if( !in_cascade[i] && n > 1 ){
        const gr_source *s = &rs->sources[members[i]];
        ck_err(c, s->loc, "source '%s' of slot %s appears in no cascade, so its place is unknown", s->name, slot->name);
      }
    }
    /* Kahn: the ready set is kept sorted by source index, so the result and
    ** any message are deterministic */
    for(i = 0; i < n; i++) if( indeg[i]==0 ) ready[nready++] = (int)i;
    while( nready > 0 ){
      int m = ready[0];
      size_t ei;
      if( nready > 1 && !reported && in_cascade[ready[0]] && in_cascade[ready[1]] ){
        const gr_source *x = &rs->sources[members[ready[0]]], *y = &rs->sources[members[ready[1]]];
        ck_err(c, y->loc, "the cascade of %s does not order sources '%s' and '%s'; state which comes first",
            slot->name, x->name, y->name);
        reported = 1;
      }
      memmove(ready, ready + 1, (nready - 1) * sizeof *ready);
      nready--;
      order[placed++] = m;
      for(ei = 0; ei < nout[m]; ei++){
        int t = out[m][ei].to;
        if( --indeg[t]==0 ){
          /* insert keeping ready sorted (it is short: usually 0 or 1 entries) */
          size_t p = nready;
          while( p > 0 && ready[p-1] > t ){ ready[p] = ready[p-1]; p--; }
          ready[p] = t;
          nready++;
        }
      }
    }
    if( placed < n ){
      /* a cycle: from any node still blocked, follow edges between blocked
      ** nodes until one repeats, then print that loop */
      int start = -1, cur, steps;
      int *seen = gr_xcalloc(n, sizeof *seen);
      gr_buf b;
      gr_loc where_loc = slot->loc;
      for(i = 0; i < n; i++) if( indeg[i] > 0 ){ start = (int)i; break; }
      cur = start;
      for(steps = 1; steps <= (int)n + 1 && !seen[cur]; steps++){
        size_t ei;
        seen[cur] = steps;
        for(ei = 0; ei < nout[cur]; ei++) if( indeg[out[cur][ei].to] > 0 ){ cur = out[cur][ei].to; break; }
      }
      start = cur;
      gr_buf_init(&b);
      do{
        size_t ei;
        int next = -1;
        gr_buf_printf(&b, "%s > ", rs->sources[members[cur]].name);
        for(ei = 0; ei < nout[cur]; ei++) if( indeg[out[cur][ei].to] > 0 ){ next = out[cur][ei].to; if( next==start ) where_loc = out[cur][ei].loc; break; }
        if( next < 0 ) break;
        cur = next;
      }while( cur!=start && b.n < 2000 );
      gr_buf_adds(&b, rs->sources[members[start]].name);
      ck_err(c, where_loc, "precedence cycle in the cascade of %s: %s", slot->name, gr_buf_cstr(&b));
      gr_buf_free(&b);
      free(seen);
    }else{
      slot->cascade = gr_arena_calloc(&rs->arena, n * sizeof *slot->cascade);
      for(i = 0; i < n; i++){
        slot->cascade[i] = members[order[i]];
        rs->sources[members[order[i]]].order = (int)i;
      }
      slot->ncascade = n;
    }
    for(i = 0; i < n; i++) free(out[i]);
    free(out); free(nout); free(capout);
    free(members); free(in_cascade); free(indeg); free(order); free(ready);
  }
  /* cascade statements naming an unknown slot */
  CK_EACH_KIND(c, k, it, GR_I_CASCADE){
    if( gr_ruleset_find(&rs->slot_map, it->name) < 0 ){
      char sug[128];
      ck_err(c, it->name_loc, "unknown slot '%s'%s", it->name, ck_did_you_mean(c, GR_NK_SLOT, it->name, sug, sizeof sug));
    }
  }
}
