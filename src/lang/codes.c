/*
** codes.c: the texts of diagnostic codes, as rule data. A rule set may
** declare the table `diagnostic_codes` (GR_CODES_TABLE): each key a code,
** each value the list [TITLE, WHEN IT FIRES, EXAMPLE, FIX] of four strings.
** This file reads a row for `gerules explain CODE` and SARIF help, and
** checks (ck_codes, run last by gr_check_all) that every row has that shape
** and, when the table is declared, that every code a rule or relation of the
** rule set can produce has a row, so no shipped code lacks its text. The
** language knows only the table's name and shape; the texts are GE's.
*/
#include "config.h"
#include <string.h>
#include <stdint.h>
#include "base/suggest.h"
#include "lang/check.h"

static const gr_table *find_table(const gr_ruleset *rs, const char *name){
  int t = gr_ruleset_find(&rs->table_map, name);
  return t < 0 ? NULL : &rs->tables[t];
}

/* The four strings of row i, or 0 when the row is not a list of four strings. */
static int row_fields(const gr_table *t, size_t i, const char *f[4]){
  const gr_expr *v = t->vals ? t->vals[i] : NULL, *e;
  int n = 0;
  if( v==NULL || v->op!=GR_E_LIST ) return 0;
  for(e = v->a; e; e = e->next){
    if( e->op!=GR_E_STR || n==4 ) return 0;
    f[n++] = e->s;
  }
  return n==4;
}

int gr_code_text_get(const gr_ruleset *rs, const char *table, const char *code, gr_code_text *out){
  const gr_table *t;
  const char *f[4];
  void *k;
  size_t i;
  if( rs==NULL || code==NULL || (t = find_table(rs, table ? table : GR_CODES_TABLE))==NULL || !t->is_map ) return 0;
  if( (k = gr_map_get(&t->keymap, code))==NULL ) return 0;
  i = (size_t)(intptr_t)k - 1;
  if( !row_fields(t, i, f) ) return 0;
  out->code = t->keys[i];
  out->title = f[0]; out->fires = f[1]; out->example = f[2]; out->fix = f[3];
  out->loc = t->locs[i];
  return 1;
}

const char *gr_code_suggest(const gr_ruleset *rs, const char *table, const char *word){
  const gr_table *t = rs ? find_table(rs, table ? table : GR_CODES_TABLE) : NULL;
  gr_suggester s;
  size_t i;
  if( t==NULL ) return NULL;
  gr_suggest_begin(&s, word);
  for(i = 0; i < t->n; i++) gr_suggest_offer(&s, t->keys[i]);
  return gr_suggest_best(&s);
}

/* The shape of a code table: a map from codes to four non-empty strings. */
static int ck_code_rows(ck *c, const gr_table *t){
  size_t i;
  if( !t->is_map ){
    ck_err(c, t->loc, "table %s must map each diagnostic code to [TITLE, WHEN, EXAMPLE, FIX]", t->name);
    return 0;
  }
  for(i = 0; i < t->n; i++){
    const char *f[4];
    if( !gr_diag_code_valid(t->keys[i]) )
      ck_err(c, t->locs[i], "%s: '%s' is not a diagnostic code (%s)", t->name, t->keys[i], GR_DIAG_CODE_RULE);
    else if( !row_fields(t, i, f) )
      ck_err(c, t->locs[i], "%s[\"%s\"] must be a list of four strings: [TITLE, WHEN IT FIRES, EXAMPLE, FIX]", t->name, t->keys[i]);
    else if( !f[0][0] || !f[1][0] || !f[2][0] || !f[3][0] )
      ck_err(c, t->locs[i], "%s[\"%s\"]: none of the four texts may be empty", t->name, t->keys[i]);
  }
  return 1;
}

void ck_codes(ck *c){
  gr_ruleset *rs = c->rs;
  const gr_table *t = find_table(rs, GR_CODES_TABLE), *ge = find_table(rs, GR_GE_CODES_TABLE);
  const gr_item *st;
  if( ge && !ck_code_rows(c, ge) ) ge = NULL;
  if( t==NULL || !ck_code_rows(c, t) ) t = NULL;
  for(st = rs->ast; st; st = st->next){
    if( st->kind!=GR_I_RULE && st->kind!=GR_I_EXCLUSIVE && st->kind!=GR_I_REQUIRES && st->kind!=GR_I_CONFLICTS ) continue;
    if( t && st->code && gr_map_get(&t->keymap, st->code)==NULL )
      ck_err(c, st->code_loc, "diagnostic code %s has no text in table %s (what it means, when it fires, an example, the fix: 'gerules explain %s' shows it)",
             st->code, GR_CODES_TABLE, st->code);
    /* a GE code the rule prints beside its own: explained from ge_error_codes */
    if( ge && st->ge_code && gr_map_get(&ge->keymap, st->ge_code)==NULL )
      ck_err(c, st->ge_code_loc, "GE error code %s has no text in table %s ('gerules explain %s' shows it)",
             st->ge_code, GR_GE_CODES_TABLE, st->ge_code);
  }
}
