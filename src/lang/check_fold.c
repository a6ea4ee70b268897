/*
** check_fold.c: the `fold lower` / `fold upper` of a table (GE compares some
** option values after tolower / toupper). Reads the two words the grammar
** kept after the table's name, and refuses a string `in` compares with that
** is not already in the table's case (it could never match). The evaluator
** folds the looked-up value (expr.c, contains).
*/
#include "config.h"
#include <string.h>
#include "lang/check.h"

/* `fold lower|upper` after a table's name: the two words the grammar kept. */
void ck_table_fold(ck *c, gr_item *st, gr_table *t){
  const gr_name *f = st->names, *w = f ? f->next : NULL;
  if( f==NULL ) return;
  if( strcmp(f->s, "fold")!=0 ){
    ck_err(c, f->loc, "unexpected '%s' after the name of table '%s' (a table takes a description and 'fold lower' or 'fold upper')", f->s, st->name);
    return;
  }
  if( strcmp(w->s, "lower")==0 ) t->fold = GR_FOLD_LOWER;
  else if( strcmp(w->s, "upper")==0 ) t->fold = GR_FOLD_UPPER;
  else ck_err(c, w->loc, "table '%s': 'fold %s' is neither 'fold lower' nor 'fold upper'", st->name, w->s);
}

/* A string of a folding table that `in` compares with must already be in the
** table's case: a value folded to lower case never equals "TRUE". */
static void fold_str(ck *c, const gr_table *t, const char *s, gr_loc loc){
  const char *p;
  for(p = s; *p; p++){
    if( (t->fold==GR_FOLD_LOWER && *p >= 'A' && *p <= 'Z') || (t->fold==GR_FOLD_UPPER && *p >= 'a' && *p <= 'z') ){
      ck_err(c, loc, "table '%s' folds to %s case: \"%s\" can never match (write it in %s case)", t->name,
             t->fold==GR_FOLD_LOWER ? "lower" : "upper", s, t->fold==GR_FOLD_LOWER ? "lower" : "upper");
      return;
    }
  }
}

void ck_fold_entry(ck *c, const gr_table *t, const gr_item *it){
  const gr_expr *x;
  if( it->e2==NULL ){ fold_str(c, t, it->str, it->str_loc); return; }
  if( it->e2->op!=GR_E_LIST ) return;
  for(x = it->e2->a; x; x = x->next) if( x->op==GR_E_STR ) fold_str(c, t, x->s, x->loc);
}
