/*
** lint.c: the "can this ever fire" analysis of a checked rule set. It
** decides the static truth of conditions (a capability no chip has, an
** empty table or list), finds contradicting conjuncts (an option both set
** and not set, or equal to two literals; a node both static and dynamic),
** and finds sources that can never win their slot's cascade because an
** earlier one always yields. Each finding is an error located at the
** condition or the source.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/check.h"

/* ------------------------------------------------------------------ */
/* static truth of conditions: 1 always, 0 never, -1 depends */

typedef struct atom { const gr_option *opt; int kind; const char *lit; int pol; const gr_expr *e; } atom;
enum { A_SET = 1, A_EQ, A_STATIC };

static int any_soc_has(const gr_ruleset *rs, int cap){
  size_t i;
  for(i = 0; i < rs->nsocs; i++) if( rs->socs[i].caps[cap] ) return 1;
  return 0;
}

int ck_truth(const gr_ruleset *rs, const gr_expr *e, char *why, size_t nwhy){
  int a, b;
  if( e==NULL ) return 1;
  switch( e->op ){
    case GR_E_BOOL: return e->i ? 1 : 0;
    case GR_E_NOT:
      a = ck_truth(rs, e->a, why, nwhy);
      return a < 0 ? -1 : !a;
    case GR_E_AND:
      a = ck_truth(rs, e->a, why, nwhy);
      if( a==0 ) return 0;
      b = ck_truth(rs, e->b, why, nwhy);
      if( b==0 ) return 0;
      return (a==1 && b==1) ? 1 : -1;
    case GR_E_OR:
      a = ck_truth(rs, e->a, why, nwhy);
      if( a==1 ) return 1;
      b = ck_truth(rs, e->b, why, nwhy);
      if( b==1 ) return 1;
      if( a==0 && b==0 ) return 0;
      return -1;
    case GR_E_HAS:
      if( e->ref >= 0 && !any_soc_has(rs, e->ref) ){
        snprintf(why, nwhy, "no chip has the capability '%s'", e->s);
        return 0;
      }
      return -1;
    case GR_E_IN:
      if( e->b->op==GR_E_NAME && e->b->ref==GR_NAME_TABLE && ((const gr_table*)e->b->ptr)->n==0 ){
        snprintf(why, nwhy, "table '%s' is empty", ((const gr_table*)e->b->ptr)->name);
        return 0;
      }
      if( e->b->op==GR_E_LIST && e->b->a==NULL ){
        snprintf(why, nwhy, "the list is empty");
        return 0;
      }
      return -1;
    case GR_E_ANY:
      if( e->a->op==GR_E_LIST && e->a->a==NULL ){ snprintf(why, nwhy, "'any' over an empty list"); return 0; }
      if( e->a->op==GR_E_NAME && e->a->ref==GR_NAME_TABLE && ((const gr_table*)e->a->ptr)->n==0 ){
        snprintf(why, nwhy, "'any' over the empty table '%s'", ((const gr_table*)e->a->ptr)->name);
        return 0;
      }
      return -1;
    default:
      return -1;
  }
}

/* Contradictions among the top-level conjuncts: `option X set` and `not
** option X set`; `option X == "a"` and `option X == "b"`; `node.static` and
** `node.dynamic`. */
int ck_contradiction(gr_expr *const *conj, size_t n, char *why, size_t nwhy){
  atom *at = gr_xmalloc((n + 1) * sizeof *at);
  size_t k = 0, i, j;
  int found = 0;
  for(i = 0; i < n; i++){
    const gr_expr *e = conj[i];
    int pol = 1;
    while( e->op==GR_E_NOT ){ pol = !pol; e = e->a; }
    if( e->op==GR_E_OPTSET && e->ptr ){
      at[k].opt = e->ptr; at[k].kind = A_SET; at[k].pol = pol; at[k].lit = NULL; at[k++].e = e;
    }else if( e->op==GR_E_EQ && pol && e->a->op==GR_E_OPTION && e->b->op==GR_E_STR && e->a->ptr ){
      at[k].opt = e->a->ptr; at[k].kind = A_EQ; at[k].pol = 1; at[k].lit = e->b->s; at[k++].e = e;
    }else if( e->op==GR_E_FIELD && e->a->op==GR_E_NODE && (e->ref==GR_F_STATIC || e->ref==GR_F_DYNAMIC) ){
      at[k].opt = NULL; at[k].kind = A_STATIC; at[k].pol = (e->ref==GR_F_STATIC) ? pol : !pol; at[k].lit = NULL; at[k++].e = e;
    }
  }
  for(i = 0; i < k && !found; i++){
    for(j = i + 1; j < k && !found; j++){
      if( at[i].kind!=at[j].kind || at[i].opt!=at[j].opt ) continue;
      if( at[i].kind==A_SET && at[i].pol!=at[j].pol ){
        snprintf(why, nwhy, "it requires option %s to be both set and not set", at[i].opt->name);
        found = 1;
      }else if( at[i].kind==A_EQ && strcmp(at[i].lit, at[j].lit)!=0 ){
        snprintf(why, nwhy, "it requires option %s to be both '%s' and '%s'", at[i].opt->name, at[i].lit, at[j].lit);
        found = 1;
      }else if( at[i].kind==A_STATIC && at[i].pol!=at[j].pol ){
        snprintf(why, nwhy, "it requires the node to be both static and dynamic");
        found = 1;
      }
    }
  }
  free(at);
  return found;
}

/* Reports "WHAT 'NAME' can never fire" when the branch's condition can
** never hold: statically false, or two of its conjuncts contradict. */
int ck_never_fires(ck *c, const gr_branch *b, const char *what, const char *name){
  char why[256];
  int t;
  why[0] = 0;
  t = ck_truth(c->rs, b->cond, why, sizeof why);
  if( t!=0 && ck_contradiction(b->conj, b->nconj, why, sizeof why) ) t = 0;
  if( t==0 ){
    ck_err(c, b->cond ? b->cond->loc : b->loc, "%s '%s' can never fire: %s", what, name, why[0] ? why : "its condition is always false");
  }
  return t;
}

/* A source that always yields a constant hides every source after it. */
void ck_shadowing(ck *c){
  gr_ruleset *rs = c->rs;
  size_t si, k, b;
  for(si = 0; si < rs->nslots; si++){
    const gr_slot *slot = &rs->slots[si];
    const gr_source *always = NULL;
    for(k = 0; k < slot->ncascade; k++){
      gr_source *s = &rs->sources[slot->cascade[k]];
      if( always ){
        char w[256];
        ck_where(w, sizeof w, always->loc);
        ck_err(c, s->loc, "source '%s' can never win: '%s' comes before it in the cascade of %s and always yields (%s)",
            s->name, always->name, slot->name, w);
        continue;
      }
      for(b = 0; b < s->nbranches; b++){
        gr_branch *br = &s->branches[b];
        char why[8];
        if( b > 0 && s->branches[b-1].cond==NULL ){
          ck_err(c, br->loc, "this branch of source '%s' is never reached: the branch before it has no condition", s->name);
        }
        if( (br->cond==NULL || ck_truth(rs, br->cond, why, sizeof why)==1) && br->value && br->value->op==GR_E_STR ){
          always = s;
        }
      }
    }
  }
}

