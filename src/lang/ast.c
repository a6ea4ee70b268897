/*
** ast.c: constructors and destructors for the rule-language syntax tree
** (ast.h). Grammar actions call these; the checker later annotates the same
** nodes in place.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/ast.h"

char *gr_tok_str(gr_token t){ return gr_xstrndup(t.z, t.n); }

gr_expr *gr_expr_new(int op, gr_loc loc){
  gr_expr *e = gr_xcalloc(1, sizeof *e);
  e->op = (uint8_t)op;
  e->loc = loc;
  e->ref = e->ref2 = -1;
  return e;
}

/* Sets e's depth from its operands; refuses trees deeper than
** GR_MAX_EXPR_DEPTH so every recursive walk stays bounded. */
gr_expr *gr_expr_deep(gr_parse *ps, gr_expr *e){
  uint16_t d = 0;
  const gr_expr *x;
  if( e->a && e->a->depth > d ) d = e->a->depth;
  if( e->b && e->b->depth > d ) d = e->b->depth;
  if( e->op==GR_E_LIST || e->op==GR_E_CALL ) for(x = e->a; x; x = x->next) if( x->depth > d ) d = x->depth;
  e->depth = (uint16_t)(d + 1);
  if( e->depth > GR_MAX_EXPR_DEPTH ){
    if( ps->nerr==0 ) gr_parse_error(ps, e->loc, "expression nested too deeply (more than %d levels)", GR_MAX_EXPR_DEPTH);
    e->depth = GR_MAX_EXPR_DEPTH;
  }
  return e;
}

void gr_expr_free(gr_expr *e){
  while( e ){
    gr_expr *nx = e->next;
    gr_expr_free(e->a);
    gr_expr_free(e->b);
    gr_expr_free(e->shown);
    free(e->s);
    free(e->s2);
    free(e);
    e = nx;
  }
}

gr_item *gr_item_new(int kind, gr_loc loc){
  gr_item *it = gr_xcalloc(1, sizeof *it);
  it->kind = kind;
  it->loc = loc;
  return it;
}

void gr_item_free(gr_item *it){
  while( it ){
    gr_item *nx = it->next;
    free(it->name); free(it->str); free(it->raw); free(it->code); free(it->ge_code);
    free(it->str2); free(it->raw2);
    gr_name_free(it->names);
    gr_name_free(it->names2);
    gr_expr_free(it->e);
    gr_expr_free(it->e2);
    gr_item_free(it->items);
    gr_item_free(it->items2);
    gr_item_free(it->items3);
    free(it);
    it = nx;
  }
}

gr_name *gr_name_new(char *s, gr_loc loc){
  gr_name *n = gr_xcalloc(1, sizeof *n);
  n->s = s; n->loc = loc;
  return n;
}

void gr_name_free(gr_name *n){
  while( n ){
    gr_name *nx = n->next;
    free(n->s);
    free(n);
    n = nx;
  }
}

gr_name *gr_name_reverse(gr_name *n){
  gr_name *rev = NULL, *nx;
  for(; n; n = nx){ nx = n->next; n->next = rev; rev = n; }
  return rev;
}

gr_item *gr_item_reverse(gr_item *it){
  gr_item *rev = NULL, *nx;
  for(; it; it = nx){ nx = it->next; it->next = rev; rev = it; }
  return rev;
}
