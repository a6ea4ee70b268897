/*
** cmd_explain.c: `gerules explain CODE`: what a diagnostic code means, when
** it fires, an example and the fix, and which rules or relations of the rule
** set raise it. The texts are rule data: the rule set's codes (GEnnnn) in its
** table diagnostic_codes (rules/codes.rules), GE's own codes that gerules
** prints (E10016, a rule's ge_code) in its table ge_error_codes (with GE's
** message from atc_messages when it has one), gerules' own codes (GRnnnn) in
** the table gerules_codes of gerules-codes.rules, installed with the program
** in pkgdatadir (doc/gerules-codes.rules in the source tree) because the C
** code raises them whatever rule set is in use. cmd_info.c's `explain NAME`
** hands every code-shaped name here.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/out.h"
#include "base/suggest.h"

#define GR_OWN_CODES_TABLE "gerules_codes"
#define GR_OWN_CODES_FILE "gerules-codes.rules"

const char *cli_own_codes_path(void){
  static char path[4096];
  const char *env = getenv("GERULES_CODES"), *src;
  if( env && *env ) return env;
  if( (src = cli_build_srcdir())!=NULL ) snprintf(path, sizeof path, "%s/doc/%s", src, GR_OWN_CODES_FILE);   /* an uninstalled build */
  else snprintf(path, sizeof path, "%s/%s", cli_data_dir(), GR_OWN_CODES_FILE);   /* relocated like the rules */
  return path;
}

/* gerules' own code texts, loaded once per run (NULL when the file is
** missing or broken: the error is printed). */
static gr_ruleset *own_codes(void){
  const char *p = cli_own_codes_path();
  gr_diags d;
  gr_ruleset *rs;
  gr_diags_init(&d);
  rs = gr_ruleset_load(&p, 1, &d);
  if( rs==NULL ){
    cli_print_diags(&d);
    fprintf(stderr, "gerules explain: error: cannot read the texts of gerules' own codes from %s (set GERULES_CODES to the file)\n", p);
  }
  gr_diags_free(&d);
  return rs;
}

/* What raises code in the rule set: rules and relations, by their own code
** or by the GE code they print beside it (as: that own code, else NULL). */
typedef struct raiser { const char *kind, *name, *as; gr_severity sev; gr_loc loc; } raiser;

static size_t raisers(const gr_ruleset *rs, const char *code, raiser **out){
  size_t i, n = 0;
  raiser *v = gr_xcalloc(rs->nrules + rs->nrelations + 1, sizeof *v);
  static const char *rel[] = { "exclusive", "requires", "conflicts" };
  for(i = 0; i < rs->nrules; i++){
    const gr_rule *r = &rs->rules[i];
    int own = r->code && strcmp(r->code, code)==0, ge = r->ge_code && strcmp(r->ge_code, code)==0;
    if( own || ge ){ v[n].kind = "rule"; v[n].name = r->name; v[n].as = own ? NULL : r->code; v[n].sev = r->sev; v[n].loc = r->loc; n++; }
  }
  for(i = 0; i < rs->nrelations; i++){
    const gr_relation *r = &rs->relations[i];
    int own = r->code && strcmp(r->code, code)==0, ge = r->ge_code && strcmp(r->ge_code, code)==0;
    if( own || ge ){
      v[n].kind = "relation";
      v[n].name = r->kind >= GR_REL_EXCLUSIVE && r->kind <= GR_REL_CONFLICTS ? rel[r->kind - GR_REL_EXCLUSIVE] : "relation";
      v[n].as = own ? NULL : r->code;
      v[n].sev = r->sev; v[n].loc = r->loc; n++;
    }
  }
  *out = v;
  return n;
}

/* GE's own message for a GE code, when the rule set's ATC data has it
** (atc.rules atc_messages), or NULL. */
#define GR_ATC_MESSAGES_TABLE "atc_messages"
static const char *ge_message(const gr_ruleset *rs, const char *code){
  int k = gr_ruleset_find(&rs->table_map, GR_ATC_MESSAGES_TABLE);
  const gr_table *t;
  void *i;
  const gr_expr *e;
  if( k < 0 ) return NULL;
  t = &rs->tables[k];
  if( !t->is_map || (i = gr_map_get(&t->keymap, code))==NULL ) return NULL;
  e = t->vals[(size_t)(intptr_t)i - 1];
  return e && e->op==GR_E_STR ? e->s : NULL;
}

static void jw_where(gr_jw *w, const gr_ruleset *rs, gr_loc l){
  gr_buf b;
  gr_buf_init(&b);
  gr_buf_printf(&b, "%s:%u", gr_ruleset_short_path(rs, l.file), l.line);
  gr_jw_str(w, gr_buf_cstr(&b));
  gr_buf_free(&b);
}

/* Text wrapped at 76 columns, each line indented by two spaces. */
static void print_wrapped(const char *s){
  while( *s ){
    size_t n = strlen(s), cut = n;
    if( n > 76 ){
      for(cut = 76; cut > 0 && s[cut]!=' '; cut--){}
      if( cut==0 ) for(cut = 76; s[cut] && s[cut]!=' '; cut++){}
    }
    printf("  %.*s\n", (int)cut, s);
    s += cut;
    while( *s==' ' ) s++;
  }
}

static int print_code(const gr_ruleset *rs, const gr_code_text *t, const gr_ruleset *trs, int ge,
                      const raiser *rv, size_t nr, const char *code, int json){
  const char *gemsg = ge ? ge_message(rs, code) : NULL;
  size_t i;
  if( json ){
    gr_out o;
    gr_jw w;
    fflush(stdout);
    gr_out_init_fd(&o, 1);
    gr_jw_init(&w, &o, 2);
    gr_jw_obj(&w);
    gr_jw_schema_version(&w);
    gr_jw_key(&w, "name"); gr_jw_str(&w, code);
    gr_jw_key(&w, "matches"); gr_jw_arr(&w);
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "code");
    gr_jw_key(&w, "name"); gr_jw_str(&w, code);
    gr_jw_key(&w, "code"); gr_jw_str(&w, code);
    gr_jw_key(&w, "origin"); gr_jw_str(&w, ge ? "ge" : trs==rs ? "rules" : "gerules");
    if( gemsg ){ gr_jw_key(&w, "ge_message"); gr_jw_str(&w, gemsg); }
    gr_jw_key(&w, "title"); gr_jw_str(&w, t ? t->title : NULL);
    gr_jw_key(&w, "fires"); gr_jw_str(&w, t ? t->fires : NULL);
    gr_jw_key(&w, "example"); gr_jw_str(&w, t ? t->example : NULL);
    gr_jw_key(&w, "fix"); gr_jw_str(&w, t ? t->fix : NULL);
    gr_jw_key(&w, "raised_by"); gr_jw_arr(&w);
    for(i = 0; i < nr; i++){
      gr_jw_obj(&w);
      gr_jw_key(&w, "kind"); gr_jw_str(&w, rv[i].kind);
      gr_jw_key(&w, "name"); gr_jw_str(&w, rv[i].name);
      gr_jw_key(&w, "severity"); gr_jw_str(&w, gr_severity_name(rv[i].sev));
      if( rv[i].as ){ gr_jw_key(&w, "as"); gr_jw_str(&w, rv[i].as); }
      gr_jw_key(&w, "defined_at"); jw_where(&w, rs, rv[i].loc);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
    gr_jw_key(&w, "defined_at");
    if( t ) jw_where(&w, trs, t->loc); else gr_jw_null(&w);
    gr_jw_end_obj(&w);
    gr_jw_end_arr(&w);
    gr_jw_end_obj(&w);
    return gr_out_close(&o, NULL)!=0 ? EXIT_INPUT : 0;
  }
  printf("%s: %s%s\n", code, ge ? "GE error code: " : "", t ? t->title : "(no text in the rule set)");
  if( gemsg ) printf("  GE's message: %s\n", gemsg);
  for(i = 0; i < nr; i++){
    printf("  raised by %s %s (%s) at %s:%u", rv[i].kind, rv[i].name, gr_severity_name(rv[i].sev),
           gr_ruleset_short_path(rs, rv[i].loc.file), rv[i].loc.line);
    if( rv[i].as ) printf(", reported as %s [GE %s]", rv[i].as, code);
    printf("\n");
  }
  if( nr==0 && ge ) printf("  raised by gerules' checks of an ATC command line (gerules atc, ATC flags in options)\n");
  else if( nr==0 && trs!=rs ) printf("  raised by gerules itself, whatever rule set is in use\n");
  if( t ){
    printf("\nWhen it fires:\n"); print_wrapped(t->fires);
    printf("\nExample:\n"); print_wrapped(t->example);
    printf("\nFix:\n"); print_wrapped(t->fix);
    printf("\n(text at %s:%u)\n", gr_ruleset_short_path(trs, t->loc.file), t->loc.line);
  }else{
    printf("\nThe rule set declares no text for %s (table " GR_CODES_TABLE "); the message of the diagnostic is all there is.\n", code);
  }
  return 0;
}

int cli_explain_code(cli_ctx *c, const gr_ruleset *rs, const char *code, int json){
  gr_ruleset *own = NULL;
  const gr_ruleset *trs = NULL;
  gr_code_text t;
  raiser *rv;
  size_t nr = raisers(rs, code, &rv);
  int found, rc, ge = 0;
  (void)c;
  found = gr_code_text_get(rs, GR_CODES_TABLE, code, &t);
  if( found ) trs = rs;
  else if( (found = ge = gr_code_text_get(rs, GR_GE_CODES_TABLE, code, &t)) ) trs = rs;
  else{
    if( (own = own_codes())==NULL ){ free(rv); return EXIT_INPUT; }
    if( (found = gr_code_text_get(own, GR_OWN_CODES_TABLE, code, &t)) ) trs = own;
  }
  if( !found && nr==0 ){
    gr_suggester s;
    const char *a = gr_code_suggest(rs, GR_CODES_TABLE, code), *b = own ? gr_code_suggest(own, GR_OWN_CODES_TABLE, code) : NULL;
    const char *g = gr_code_suggest(rs, GR_GE_CODES_TABLE, code);
    const char *sug;
    gr_suggest_begin(&s, code);
    if( a ) gr_suggest_offer(&s, a);
    if( g ) gr_suggest_offer(&s, g);
    if( b ) gr_suggest_offer(&s, b);
    sug = gr_suggest_best(&s);
    if( sug ) fprintf(stderr, "gerules explain: error: no diagnostic code %s in the rule set or in gerules; did you mean '%s'?\n", code, sug);
    else fprintf(stderr, "gerules explain: error: no diagnostic code %s in the rule set or in gerules\n", code);
    gr_ruleset_free(own);
    free(rv);
    return EXIT_INPUT;
  }
  rc = print_code(rs, found ? &t : NULL, trs, ge, rv, nr, code, json);
  gr_ruleset_free(own);
  free(rv);
  return rc;
}
