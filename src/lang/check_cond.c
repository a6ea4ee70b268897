/*
** check_cond.c: named conditions, `condition NAME(P, ...) = EXPR;`. The
** checker inlines them: each call NAME(ARG, ...) is replaced in place by a
** copy of the body in which every parameter is a copy of its argument, and
** the copy is then checked where the call was. After checking, no call is
** left in any tree to evaluate, so the evaluator and the per-type folding see
** exactly the expression a rule would have written out by hand; the call as
** written stays beside the copy (gr_expr.shown), so `explain` and reports
** print `constant_input(i)` where the rule says it, while `gerules diff`
** compares the expanded text (a changed body changes every rule using it).
** A call whose arguments are bound variables or literals, into a body pure
** for one node, is marked on its `shown` form (ref2, and ptr = the body as
** written, the key) for the evaluator to keep its value (gr_eval_cond).
** Refused: a name defined twice, a parameter named twice, a condition that
** calls itself (directly or through others), an unknown name, a wrong number
** of arguments, an argument that a binder of the body would capture, and an
** inlining that grows past GR_MAX_INLINED nodes or GR_MAX_EXPR_DEPTH levels.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/check.h"
#include "base/suggest.h"

/* expression nodes that inlining may create over the whole rule set: a
** bound on conditions that call each other twice per level (2^n growth) */
#define GR_MAX_INLINED ((size_t)1 << 22)

static int find_cond(const ck *c, const char *name){
  size_t i;
  for(i = 0; i < c->nconds; i++) if( strcmp(c->conds[i]->name, name)==0 ) return (int)i;
  return -1;
}

/* ---- recursion: a depth-first walk of the call graph; the target of every
** back edge is marked bad, which breaks every cycle ---- */

static void calls_dfs(ck *c, int i, uint8_t *color);

static void walk_calls(ck *c, int from, const gr_expr *e, uint8_t *color){
  const gr_expr *x;
  if( e==NULL ) return;
  if( e->op==GR_E_CALL ){
    int j = find_cond(c, e->s);
    if( j >= 0 && color[j]==1 ){
      if( j==from ) ck_err(c, e->sloc, "condition '%s' calls itself (a condition cannot be recursive)", e->s);
      else ck_err(c, e->sloc, "condition '%s' calls '%s', which calls '%s' again (a condition cannot be recursive)",
                  c->conds[from]->name, e->s, c->conds[from]->name);
      c->cond_bad[j] = 1;
    }else if( j >= 0 && color[j]==0 ){
      calls_dfs(c, j, color);
    }
  }
  if( e->op==GR_E_LIST || e->op==GR_E_CALL ){
    for(x = e->a; x; x = x->next) walk_calls(c, from, x, color);
  }else{
    walk_calls(c, from, e->a, color);
  }
  walk_calls(c, from, e->b, color);
}

static void calls_dfs(ck *c, int i, uint8_t *color){
  color[i] = 1;
  walk_calls(c, i, c->conds[i]->e, color);
  color[i] = 2;
}

void ck_conds(ck *c){
  gr_item *st;
  uint8_t *color;
  size_t n = 0, i;
  char where[512];
  CK_EACH_KIND(c, i, st, GR_I_CONDITION) n++;
  if( n==0 ) return;
  c->conds = gr_xcalloc(n, sizeof *c->conds);
  c->cond_bad = gr_xcalloc(n, 1);
  CK_EACH_KIND(c, i, st, GR_I_CONDITION){
    const gr_name *p, *q;
    int k;
    k = find_cond(c, st->name);
    if( k >= 0 ){
      ck_where(where, sizeof where, c->conds[k]->name_loc);
      ck_err(c, st->name_loc, "duplicate definition of condition '%s' (first defined at %s)", st->name, where);
      continue;
    }
    for(p = st->names; p; p = p->next){
      for(q = st->names; q!=p; q = q->next){
        if( strcmp(p->s, q->s)==0 ){ ck_err(c, p->loc, "condition '%s' names parameter '%s' twice", st->name, p->s); break; }
      }
    }
    c->conds[c->nconds++] = st;
  }
  color = gr_xcalloc(c->nconds + 1, 1);
  for(i = 0; i < c->nconds; i++) if( color[i]==0 ) calls_dfs(c, (int)i, color);
  free(color);
}

void ck_conds_free(ck *c){
  free(c->conds); free(c->cond_bad);
  c->conds = NULL; c->cond_bad = NULL; c->nconds = 0;
}

/* ---- inlining ---- */

typedef struct bound { const char *v; const struct bound *up; } bound;

/* does e use the name v (as a variable, table or parameter)? */
static int uses_name(const gr_expr *e, const char *v){
  const gr_expr *x;
  if( e==NULL ) return 0;
  if( e->op==GR_E_NAME && strcmp(e->s, v)==0 ) return 1;
  if( e->op==GR_E_LIST || e->op==GR_E_CALL ){
    for(x = e->a; x; x = x->next) if( uses_name(x, v) ) return 1;
  }else if( uses_name(e->a, v) ) return 1;
  return uses_name(e->b, v);
}

typedef struct inliner {
  ck *c;
  const gr_item *cond;
  gr_expr *const *args;    /* one per parameter */
  size_t made;
  int failed;
} inliner;

/* ---- what the evaluator may keep (gr_eval_cond's memo) ----
** A call whose arguments are all bound variables or integer or boolean
** literals, into a body whose value depends on nothing but the node and the
** arguments while one node is evaluated: no slot decision (they are made in
** cascade order), no partition outcome (computed in passes), no option,
** entry or `count` scope, no binder of its own (a witness would go unset)
** and no call left uninlined. The arguments' variables are resolved here,
** in the call's scope, as the checker resolves names. */
static int memo_args(const ck *c, gr_expr *call){
  gr_expr *x;
  int i;
  for(x = call->a; x; x = x->next){
    if( x->op==GR_E_INT || x->op==GR_E_BOOL ) continue;
    if( x->op!=GR_E_NAME ) return 0;
    if( (i = ck_find_var(c, x->s)) < 0 ) return 0;
    x->ref = GR_NAME_VAR;
    x->ref2 = c->vars[i].slot;
  }
  return 1;
}

static int memo_safe(const gr_expr *e){
  const gr_expr *x;
  if( e==NULL ) return 1;
  switch( e->op ){
    case GR_E_STR: case GR_E_INT: case GR_E_BOOL: case GR_E_NULL: case GR_E_NODE: case GR_E_CHIP: case GR_E_GRAPH:
    case GR_E_RUNMODE: case GR_E_ENTRYPOINT: case GR_E_NOT: case GR_E_AND: case GR_E_OR:
    case GR_E_EQ: case GR_E_NE: case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE:
    case GR_E_IN: case GR_E_NOTIN: case GR_E_INDEX: case GR_E_HAS: case GR_E_LEN: case GR_E_ADD: case GR_E_MOD:
      break;
    case GR_E_NAME:
      if( e->ref!=GR_NAME_TABLE && e->ref!=GR_NAME_VAR ) return 0;
      break;
    case GR_E_FIELD:
      if( e->ref==GR_F_SLOT || e->ref==GR_F_SLOT_SOURCE ) return 0;
      break;
    case GR_E_LIST:
      for(x = e->a; x; x = x->next) if( !memo_safe(x) ) return 0;
      return 1;
    default:
      return 0;
  }
  return memo_safe(e->a) && memo_safe(e->b);
}

static gr_expr *copy_expr(const gr_expr *e){
  gr_expr *x = gr_xmalloc(sizeof *x);
  *x = *e;
  x->s = e->s ? gr_xstrdup(e->s) : NULL;
  x->s2 = e->s2 ? gr_xstrdup(e->s2) : NULL;
  x->a = x->b = x->next = x->shown = NULL;
  return x;
}

static gr_expr *dup_tree(inliner *in, const gr_expr *e);

static gr_expr *dup_list(inliner *in, const gr_expr *e, gr_expr *(*one)(inliner *, const gr_expr *, const bound *), const bound *b){
  gr_expr *head = NULL, **t = &head;
  for(; e; e = e->next){ *t = one(in, e, b); t = &(*t)->next; }
  return head;
}

/* a plain copy (of an argument) */
static gr_expr *dup_tree(inliner *in, const gr_expr *e){
  gr_expr *x, **t;
  const gr_expr *y;
  if( e==NULL ) return NULL;
  x = copy_expr(e);
  in->made++;
  if( e->op==GR_E_LIST || e->op==GR_E_CALL ){
    for(t = &x->a, y = e->a; y; y = y->next){ *t = dup_tree(in, y); t = &(*t)->next; }
  }else{
    x->a = dup_tree(in, e->a);
  }
  x->b = dup_tree(in, e->b);
  return x;
}

static void set_depth(gr_expr *x){
  uint16_t d = 0;
  const gr_expr *y;
  if( x->a && x->a->depth > d ) d = x->a->depth;
  if( x->b && x->b->depth > d ) d = x->b->depth;
  if( x->op==GR_E_LIST || x->op==GR_E_CALL ) for(y = x->a; y; y = y->next) if( y->depth > d ) d = y->depth;
  x->depth = (uint16_t)(d < GR_MAX_EXPR_DEPTH ? d + 1 : GR_MAX_EXPR_DEPTH);
}

/* a copy of the body with the parameters replaced; b: the variables bound
** by the body's any/all around e */
static gr_expr *subst(inliner *in, const gr_expr *e, const bound *b){
  gr_expr *x;
  const gr_name *p;
  size_t k;
  if( e==NULL ) return NULL;
  if( e->op==GR_E_NAME ){
    const bound *s;
    for(s = b; s && strcmp(s->v, e->s); s = s->up) ;
    for(p = in->cond->names, k = 0; p && s==NULL; p = p->next, k++){
      if( strcmp(p->s, e->s) ) continue;
      /* an argument naming a variable that a binder of the body declares
      ** here would be captured by it: refuse rather than mean something else */
      for(s = b; s; s = s->up){
        if( uses_name(in->args[k], s->v) && !in->failed ){
          ck_err(in->c, in->args[k]->loc, "this argument uses '%s', which condition '%s' binds where it uses '%s' (rename the variable)",
                 s->v, in->cond->name, p->s);
          in->failed = 1;
        }
      }
      x = dup_tree(in, in->args[k]);
      return x;
    }
  }
  x = copy_expr(e);
  in->made++;
  if( e->op==GR_E_LIST || e->op==GR_E_CALL ){
    x->a = dup_list(in, e->a, subst, b);
    x->b = subst(in, e->b, b);
  }else if( e->op==GR_E_ANY || e->op==GR_E_ALL ){
    bound nb = { e->s, b };
    x->a = subst(in, e->a, b);       /* the list is outside the binder */
    x->b = subst(in, e->b, &nb);
  }else{
    x->a = subst(in, e->a, b);
    x->b = subst(in, e->b, b);
  }
  set_depth(x);
  return x;
}

static size_t count_args(const gr_expr *a){ size_t n = 0; for(; a; a = a->next) n++; return n; }
static size_t count_params(const gr_name *p){ size_t n = 0; for(; p; p = p->next) n++; return n; }

uint8_t ck_call(ck *c, gr_expr *e){
  int i = find_cond(c, e->s);
  const gr_item *cond;
  size_t na = count_args(e->a), np, k;
  gr_expr **args, *x, *nx;
  inliner in;
  if( i < 0 ){
    const char *names[64], *s;
    size_t n = 0;
    for(k = 0; k < c->nconds && n < 64; k++) names[n++] = c->conds[k]->name;
    s = gr_suggest(e->s, names, n);
    if( s ) ck_err(c, e->sloc, "unknown condition '%s'; did you mean '%s'?", e->s, s);
    else ck_err(c, e->sloc, "unknown condition '%s'", e->s);
    return GR_T_ANY;
  }
  cond = c->conds[i];
  np = count_params(cond->names);
  if( na!=np ){
    ck_err(c, e->sloc, "condition '%s' takes %zu argument%s, not %zu", e->s, np, np==1 ? "" : "s", na);
    return GR_T_ANY;
  }
  if( c->cond_bad[i] || c->inlined > GR_MAX_INLINED ) return GR_T_ANY;   /* already reported */
  args = gr_xcalloc(np + 1, sizeof *args);
  for(k = 0, x = e->a; x; x = x->next) args[k++] = x;
  memset(&in, 0, sizeof in);
  in.c = c; in.cond = cond; in.args = args;
  x = subst(&in, cond->e, NULL);
  free(args);
  c->inlined += in.made;
  if( in.failed || c->inlined > GR_MAX_INLINED ){
    if( !in.failed ) ck_err(c, e->sloc, "inlining condition '%s' here makes the rules more than %zu expression nodes (do conditions call each other too often?)",
                            e->s, GR_MAX_INLINED);
    gr_expr_free(x);
    return GR_T_ANY;
  }
  /* the call becomes the copy, in place (it may be an element of a list);
  ** the call itself is kept as the node's `shown` form, for explain */
  nx = e->next;
  {
    gr_expr *call = gr_xmalloc(sizeof *call);
    int args_ok;
    uint8_t t;
    *call = *e;
    call->next = NULL;
    *e = *x;
    e->next = nx;
    e->shown = call;
    free(x);
    args_ok = memo_args(c, call);
    t = ck_expr(c, e);
    if( args_ok && memo_safe(e) ){ call->ptr = cond->e; call->ref2 = 1; }
    return t;
  }
}
