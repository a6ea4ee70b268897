/*
** cmd_info.c: the subcommands that read only the rule set: `check` (load and
** verify rule files), `chips` (product lines, SoCs, hardware, capabilities),
** `options` (every option with key, values, defaults and product support, or
** a verdict for one chip) and `explain` (the description and facts of one
** name). Each has a text form and a JSON form with stable field names.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "lang/oplib.h"
#include "eval/eval.h"
#include "report/out.h"
#include "report/report.h"
#include "report/ci_report.h"
#include "api/gerules_internal.h"

#define S(n) ((n)==1 ? "" : "s")

static int is_help(const char *a){ return strcmp(a, "--help")==0 || strcmp(a, "-h")==0; }

/* ------------------------------------------------------------------ */
/* check */

static const char check_usage[] =
  "usage: gerules check [--format text|json|sarif] [--fail-on error|warning|never] [-q] [FILE|DIR...]\n"
  "Checks rule files (default: the rule set in use) and reports every error.\n"
  "  --format FMT               text (default), json (doc/schemas/check.schema.json) or sarif\n"
  "  --fail-on LEVEL            exit 1 on warnings too (warning), or never for warnings (never);\n"
  "                             a rule set with errors always exits 2\n"
  "  -q, --quiet                text: the diagnostics only, no summary line\n";

/* `gerules check --format json`: the rule set's counts, its diagnostics. */
static void check_json(gr_out *o, const gr_ruleset *rs, const gr_diags *d){
  gr_jw w;
  size_t i;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "gerules"); gr_jw_str(&w, PACKAGE_VERSION);
  gr_jw_key(&w, "ok"); gr_jw_bool(&w, rs!=NULL);
  gr_jw_key(&w, "rules");
  if( rs==NULL ) gr_jw_null(&w);
  else{
    gr_jw_obj(&w);
    gr_jw_key(&w, "layers"); gr_jw_arr(&w);
    for(i = 0; i < rs->nlayers; i++){
      gr_jw_obj(&w);
      gr_jw_key(&w, "bundle"); gr_jw_str(&w, rs->layers[i].name);
      gr_jw_key(&w, "version"); gr_jw_str(&w, rs->layers[i].version);
      gr_jw_key(&w, "path"); gr_jw_str(&w, rs->layers[i].root);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
    gr_jw_key(&w, "files"); gr_jw_int(&w, (int64_t)rs->nfiles);
    gr_jw_key(&w, "products"); gr_jw_int(&w, (int64_t)rs->nproducts);
    gr_jw_key(&w, "socs"); gr_jw_int(&w, (int64_t)rs->nsocs);
    gr_jw_key(&w, "options"); gr_jw_int(&w, (int64_t)rs->noptions);
    gr_jw_key(&w, "modes"); gr_jw_int(&w, (int64_t)rs->nmodes);
    gr_jw_key(&w, "tables"); gr_jw_int(&w, (int64_t)rs->ntables);
    gr_jw_key(&w, "slots"); gr_jw_int(&w, (int64_t)rs->nslots);
    gr_jw_key(&w, "sources"); gr_jw_int(&w, (int64_t)rs->nsources);
    gr_jw_key(&w, "rules"); gr_jw_int(&w, (int64_t)rs->nrules);
    gr_jw_key(&w, "relations"); gr_jw_int(&w, (int64_t)rs->nrelations);
    gr_jw_end_obj(&w);
  }
  gr_report_diags_json(&w, d, -1);
  gr_jw_end_obj(&w);
}

int cmd_check(cli_ctx *c, int argc, char **argv){
  const char **paths = calloc((size_t)argc + 1, sizeof *paths);
  size_t n = 0;
  int i, k;
  gr_ruleset *rs;
  cli_gate g;
  memset(&g, 0, sizeof g);
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(check_usage, stdout); free(paths); return 0; }
    if( (k = cli_gate_arg("check", 1u << CLI_FMT_TEXT | 1u << CLI_FMT_JSON | 1u << CLI_FMT_SARIF, &g, &i, argc, argv))!=0 ){
      if( k < 0 ){ free(paths); return EXIT_INPUT; }
      continue;
    }
    if( argv[i][0]=='-' && argv[i][1] ){ free(paths); return cli_unknown_option("check", check_usage, argv[i]); }
    paths[n++] = argv[i];
  }
  if( n==0 ){
    const char *const *use;
    size_t nu = cli_rule_paths(c, &use);
    paths = gr_xrealloc(paths, (nu + 1) * sizeof *paths);
    for(k = 0; k < (int)nu; k++) paths[n++] = use[k];
  }
  rs = cli_load_paths(c, paths, n);
  if( c->refused || c->trust_failed ){ free(paths); return EXIT_INPUT; }
  if( rs ){                     /* the ONNX shape table is rule data too */
    gr_opmap *m = gr_onnx_map_from_rules(rs, &c->diags);
    if( m==NULL ){ gr_ruleset_free(rs); rs = NULL; }
    gr_opmap_free(m);
  }
  /* every op of the op library, also those the loader only indexed */
  if( rs && gr_oplib_check_all(rs, &c->diags) ){ gr_ruleset_free(rs); rs = NULL; }
  if( g.format!=CLI_FMT_TEXT ){
    /* the document describes the rule set's errors too, so it is written
    ** whatever the outcome (the exit status still says 2 for errors) */
    gr_out o;
    fflush(stdout);
    gr_out_init_fd(&o, 1);
    if( g.format==CLI_FMT_JSON ) check_json(&o, rs, &c->diags);
    else gr_report_sarif_diags(&o, rs, &c->diags, NULL, NULL);
    free(paths);
    k = gr_out_close(&o, NULL)!=0 ? EXIT_INPUT : rs==NULL ? EXIT_INPUT : cli_gate_fails(&g, &c->diags) ? EXIT_CONFIG : 0;
    gr_ruleset_free(rs);
    return k;
  }
  cli_print_diags(&c->diags);
  free(paths);
  if( rs==NULL ){
    fprintf(stderr, "gerules check: %zu error%s\n", gr_diags_errors(&c->diags), gr_diags_errors(&c->diags)==1 ? "" : "s");
    return EXIT_INPUT;
  }
  if( !g.quiet ){
    if( rs->nlayers > 1 ){
      size_t li;
      for(li = 0; li + 1 < rs->nlayers; li++)
        printf("%s%s%s + ", rs->layers[li].name ? rs->layers[li].name : "?", rs->layers[li].version ? " " : "",
               rs->layers[li].version ? rs->layers[li].version : "");
    }
    printf("%s%s%s: %zu file%s, %zu product line%s, %zu SoC%s, %zu option%s, %zu mode%s, %zu table%s, "
           "%zu slot%s, %zu source%s, %zu rule%s, %zu relation%s: ok",
           rs->nlayers > 1 ? rs->layers[rs->nlayers - 1].name : rs->bundle_name ? rs->bundle_name : "rules",
           (rs->nlayers > 1 ? rs->layers[rs->nlayers - 1].version : rs->bundle_version) ? " " : "",
           rs->nlayers > 1 ? (rs->layers[rs->nlayers - 1].version ? rs->layers[rs->nlayers - 1].version : "") : rs->bundle_version ? rs->bundle_version : "",
           rs->nfiles, S(rs->nfiles),
           rs->nproducts, S(rs->nproducts), rs->nsocs, S(rs->nsocs), rs->noptions, S(rs->noptions),
           rs->nmodes, S(rs->nmodes), rs->ntables, S(rs->ntables), rs->nslots, S(rs->nslots),
           rs->nsources, S(rs->nsources), rs->nrules, S(rs->nrules), rs->nrelations, S(rs->nrelations));
    if( c->diags.count[GR_SEV_WARNING] ) printf(" (%zu warning%s)", c->diags.count[GR_SEV_WARNING], c->diags.count[GR_SEV_WARNING]==1 ? "" : "s");
    printf("\n");
  }
  gr_ruleset_free(rs);
  return cli_gate_fails(&g, &c->diags) ? EXIT_CONFIG : 0;
}

/* ------------------------------------------------------------------ */
/* chips */

static const char chips_usage[] =
  "usage: gerules chips [--format text|json]\n"
  "Lists every product line and SoC of the rule set with its hardware numbers and capabilities.\n";

static void caps_list(const gr_ruleset *rs, const uint8_t *caps, gr_buf *b){
  size_t k, n = 0;
  for(k = 0; k < rs->ncaps; k++) if( caps[k] ) gr_buf_printf(b, "%s%s", n++ ? "," : "", rs->cap_names[k]);
  if( n==0 ) gr_buf_adds(b, "-");
}

/* `gerules chips --format json`: every SoC with its product line, hardware and capabilities. */
static void chips_json(gr_out *o, const gr_ruleset *rs){
  size_t s, k;
  gr_jw w;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "chips"); gr_jw_arr(&w);
  for(s = 0; s < rs->nsocs; s++){
    const gr_soc *sc = &rs->socs[s];
    gr_jw_obj(&w);
    gr_jw_key(&w, "soc"); gr_jw_str(&w, sc->name);
    gr_jw_key(&w, "pattern"); gr_jw_bool(&w, sc->is_pattern);
    gr_jw_key(&w, "product"); gr_jw_str(&w, rs->products[sc->product].name);
    gr_jw_key(&w, "product_title"); gr_jw_str(&w, rs->products[sc->product].title);
    for(k = 0; k < rs->nhw; k++){ gr_jw_key(&w, rs->hw_names[k]); gr_jw_int(&w, sc->hw[k]); }
    gr_jw_key(&w, "caps"); gr_jw_arr(&w);
    for(k = 0; k < rs->ncaps; k++) if( sc->caps[k] ) gr_jw_str(&w, rs->cap_names[k]);
    gr_jw_end_arr(&w);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);
}

/* `gerules chips`: a table per product line, SoCs in rule order, then the product lines. */
static void chips_text(gr_out *o, const gr_ruleset *rs){
  size_t p, s, k;
  size_t wsoc = 3, wprod = 7;
  gr_buf b;
  gr_buf_init(&b);
  for(s = 0; s < rs->nsocs; s++){
    size_t l = strlen(rs->socs[s].name) + (rs->socs[s].is_pattern ? 2 : 0);
    if( l > wsoc ) wsoc = l;
    if( strlen(rs->products[rs->socs[s].product].name) > wprod ) wprod = strlen(rs->products[rs->socs[s].product].name);
  }
  gr_out_printf(o, "%-*s  %-*s", (int)wprod, "PRODUCT", (int)wsoc, "SOC");
  for(k = 0; k < rs->nhw; k++) gr_out_printf(o, "  %s", rs->hw_names[k]);
  gr_out_puts(o, "  caps\n");
  for(p = 0; p < rs->nproducts; p++){
    for(s = 0; s < rs->nsocs; s++){
      const gr_soc *sc = &rs->socs[s];
      char name[300];
      if( sc->product!=(int)p ) continue;
      snprintf(name, sizeof name, sc->is_pattern ? "/%s/" : "%s", sc->name);
      gr_out_printf(o, "%-*s  %-*s", (int)wprod, rs->products[p].name, (int)wsoc, name);
      for(k = 0; k < rs->nhw; k++) gr_out_printf(o, "  %*lld", (int)strlen(rs->hw_names[k]), (long long)sc->hw[k]);
      b.n = 0;
      caps_list(rs, sc->caps, &b);
      gr_out_printf(o, "  %s\n", gr_buf_cstr(&b));
    }
  }
  gr_out_puts(o, "\n");
  for(p = 0; p < rs->nproducts; p++) gr_out_printf(o, "%-*s  %s\n", (int)wprod, rs->products[p].name, rs->products[p].title);
  gr_buf_free(&b);
}

int cmd_chips(cli_ctx *c, int argc, char **argv){
  int json = 0, i;
  gr_ruleset *rs;
  gr_out o;
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(chips_usage, stdout); return 0; }
    if( strcmp(argv[i], "--format")==0 ){ if( cli_format_arg("chips", i + 1 < argc ? argv[++i] : NULL, &json) ) return EXIT_INPUT; }
    else if( strncmp(argv[i], "--format=", 9)==0 ){ if( cli_format_arg("chips", argv[i] + 9, &json) ) return EXIT_INPUT; }
    else if( argv[i][0]=='-' ) return cli_unknown_option("chips", chips_usage, argv[i]);
    else return cli_usage_error("chips", "unexpected argument '%s'", argv[i]);
  }
  if( (rs = cli_load_rules(c))==NULL ) return EXIT_INPUT;
  fflush(stdout);
  gr_out_init_fd(&o, 1);
  if( json ) chips_json(&o, rs);
  else chips_text(&o, rs);
  if( gr_out_close(&o, NULL)!=0 ) return EXIT_INPUT;
  return 0;
}

/* ------------------------------------------------------------------ */
/* options */

static const char options_usage[] =
  "usage: gerules options [--chip SOC] [--run-mode inference|training] [--format text|json]\n"
  "Lists every option with its GE key, values, defaults and product support; with --chip,\n"
  "a supported/unsupported verdict for that chip, each value and each precision mode.\n";

static void support_names(const gr_ruleset *rs, const gr_support *s, gr_buf *b){
  size_t p, n = 0, start = b->n;
  for(p = 0; p < rs->nproducts; p++) if( gr_support_on(s, (int)p) ) gr_buf_printf(b, "%s%s", n++ ? "," : "", rs->products[p].name);
  if( n==0 ) gr_buf_adds(b, "none");
  else if( n==rs->nproducts && n > 1 ){ b->n = start; gr_buf_adds(b, "all"); }
}

static void jw_support(gr_jw *w, const gr_ruleset *rs, const gr_support *s){
  size_t p;
  gr_jw_arr(w);
  for(p = 0; p < rs->nproducts; p++) if( gr_support_on(s, (int)p) ) gr_jw_str(w, rs->products[p].name);
  gr_jw_end_arr(w);
}

static const gr_support *value_support(const gr_option *o, size_t v){
  return o->value_support[v].stated ? &o->value_support[v] : &o->support;
}

static void jw_expr(gr_jw *w, const char *key, const gr_expr *e){
  gr_buf b;
  gr_buf_init(&b);
  if( e ) gr_expr_print(&b, e);
  gr_jw_key(w, key); gr_jw_str(w, e ? gr_buf_cstr(&b) : NULL);
  gr_buf_free(&b);
}

/* An option's "values" (each with its description when desc) and
** "defaults" arrays, as `options` and `explain` write them. */
static void jw_option_values(gr_jw *w, const gr_ruleset *rs, const gr_option *op, int desc){
  size_t v;
  gr_jw_key(w, "values"); gr_jw_arr(w);
  for(v = 0; v < op->nvalues; v++){
    gr_jw_obj(w);
    gr_jw_key(w, "value"); gr_jw_str(w, op->values[v]);
    if( desc ){ gr_jw_key(w, "description"); gr_jw_str(w, op->value_desc[v]); }
    gr_jw_key(w, "supported_on"); jw_support(w, rs, value_support(op, v));
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_jw_key(w, "defaults"); gr_jw_arr(w);
  for(v = 0; v < op->ndefaults; v++){
    gr_jw_obj(w);
    jw_expr(w, "value", op->defaults[v].value);
    jw_expr(w, "when", op->defaults[v].cond);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
}

static int find_chip(cli_ctx *c, const char *chip, const char *cmd){
  const gr_ruleset *rs = c->rs;
  int soc = gr_ruleset_find_soc(rs, chip);
  if( soc < 0 ){
    const char *s = gr_ruleset_suggest(rs, GR_NK_SOC, chip);
    if( s ) cli_usage_error(cmd, "unknown chip '%s'; did you mean '%s'? (see 'gerules chips')", chip, s);
    else cli_usage_error(cmd, "unknown chip '%s' (see 'gerules chips')", chip);
  }
  return soc;
}

/* The options under one chip and run mode, no model and no hooks, through
** the library's orchestrator; NULL (printed) when the evaluation fails. */
static gerules_eval *options_evaluate(cli_ctx *c, gr_ruleset *rs, const char *chip, const char *run_mode){
  const char *const *use;
  gerules_rules *rules;
  gerules_request *q;
  gerules_eval *ev;
  if( (rules = gr_api_rules_adopt(rs, cli_rule_paths(c, &use) ? use[0] : "", &c->diags))==NULL ){
    cli_print_diags(&c->diags);
    return NULL;
  }
  q = gerules_request_new();
  gerules_request_set_chip(q, chip);
  gerules_request_set_run_mode(q, run_mode);
  gerules_request_set_provenance(q, 0);
  gr_api_request_set_no_model(q);
  gr_api_request_set_no_hooks(q);
  ev = gerules_evaluate(rules, q);
  gerules_request_free(q);
  gerules_rules_free(rules);           /* the evaluation keeps its reference */
  if( gerules_eval_status(ev)==2 ){
    cli_print_failure("options", gerules_eval_diags(ev));
    gerules_eval_free(ev);
    return NULL;
  }
  return ev;
}

/* One chip's verdict, computed once for both writers: per option whether
** it is supported, its default under the chip and run mode, and per value
** whether it is supported; per mode whether it is supported. */
typedef struct chip_verdict {
  const char *chip, *run_mode;
  int product;
  const char **defaults;        /* per option (NULL: no default) */
  uint8_t *opt_on, **value_on, *mode_on;
} chip_verdict;

static void verdict_init(chip_verdict *cv, const gr_ruleset *rs, gr_result *r, const char *chip, const char *run_mode){
  size_t k, v;
  cv->chip = chip;
  cv->run_mode = run_mode;
  cv->product = r->product;
  cv->defaults = gr_xcalloc(rs->noptions + 1, sizeof *cv->defaults);
  cv->opt_on = gr_xcalloc(rs->noptions + 1, 1);
  cv->value_on = gr_xcalloc(rs->noptions + 1, sizeof *cv->value_on);
  cv->mode_on = gr_xcalloc(rs->nmodes + 1, 1);
  for(k = 0; k < rs->noptions; k++){
    const gr_option *op = &rs->options[k];
    cv->defaults[k] = gr_option_state(r, (int)k)->value;
    cv->opt_on[k] = (uint8_t)gr_support_on(&op->support, cv->product);
    cv->value_on[k] = gr_xcalloc(op->nvalues + 1, 1);
    for(v = 0; v < op->nvalues; v++) cv->value_on[k][v] = (uint8_t)gr_support_on(value_support(op, v), cv->product);
  }
  for(k = 0; k < rs->nmodes; k++) cv->mode_on[k] = (uint8_t)gr_support_on(&rs->modes[k].support, cv->product);
}

static void verdict_free(chip_verdict *cv, const gr_ruleset *rs){
  size_t k;
  for(k = 0; k < rs->noptions; k++) free(cv->value_on[k]);
  free(cv->value_on); free(cv->defaults); free(cv->opt_on); free(cv->mode_on);
}

/* The members every option and mode object of `chips`/`options --format json` opens with. */
static void jw_option_head(gr_jw *w, const gr_option *op){
  gr_jw_obj(w);
  gr_jw_key(w, "name"); gr_jw_str(w, op->name);
  gr_jw_key(w, "key"); gr_jw_str(w, op->key);
}

static void jw_mode_head(gr_jw *w, const gr_mode *m){
  gr_jw_obj(w);
  gr_jw_key(w, "name"); gr_jw_str(w, m->name);
}

static void jw_reason(gr_jw *w, const gr_support *s){
  if( s->reason ){ gr_jw_key(w, "reason"); gr_jw_str(w, s->reason); }
}

static void verdict_json(gr_out *o, const gr_ruleset *rs, const chip_verdict *cv){
  gr_jw w;
  size_t k, v;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "chip"); gr_jw_obj(&w);
  gr_jw_key(&w, "soc"); gr_jw_str(&w, cv->chip);
  gr_jw_key(&w, "product"); gr_jw_str(&w, rs->products[cv->product].name);
  gr_jw_key(&w, "product_title"); gr_jw_str(&w, rs->products[cv->product].title);
  gr_jw_end_obj(&w);
  gr_jw_key(&w, "run_mode"); gr_jw_str(&w, cv->run_mode);
  gr_jw_key(&w, "options"); gr_jw_arr(&w);
  for(k = 0; k < rs->noptions; k++){
    const gr_option *op = &rs->options[k];
    jw_option_head(&w, op);
    gr_jw_key(&w, "supported"); gr_jw_bool(&w, cv->opt_on[k]);
    jw_reason(&w, &op->support);
    gr_jw_key(&w, "default"); gr_jw_str(&w, cv->defaults[k]);
    gr_jw_key(&w, "values"); gr_jw_arr(&w);
    for(v = 0; v < op->nvalues; v++){
      gr_jw_obj(&w);
      gr_jw_key(&w, "value"); gr_jw_str(&w, op->values[v]);
      gr_jw_key(&w, "supported"); gr_jw_bool(&w, cv->value_on[k][v]);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_key(&w, "modes"); gr_jw_arr(&w);
  for(k = 0; k < rs->nmodes; k++){
    jw_mode_head(&w, &rs->modes[k]);
    gr_jw_key(&w, "supported"); gr_jw_bool(&w, cv->mode_on[k]);
    jw_reason(&w, &rs->modes[k].support);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);
}

static void verdict_text(gr_out *o, const gr_ruleset *rs, const chip_verdict *cv){
  size_t k, v;
  size_t wn = 6;
  for(k = 0; k < rs->noptions; k++) if( strlen(rs->options[k].name) > wn ) wn = strlen(rs->options[k].name);
  for(k = 0; k < rs->nmodes; k++) if( strlen(rs->modes[k].name) > wn ) wn = strlen(rs->modes[k].name);
  gr_out_printf(o, "chip %s: %s (%s), run mode %s\n\n", cv->chip, rs->products[cv->product].title, rs->products[cv->product].name, cv->run_mode);
  gr_out_printf(o, "%-*s  %-11s  %-22s  %s\n", (int)wn, "OPTION", "SUPPORTED", "DEFAULT", "VALUES NOT SUPPORTED HERE");
  for(k = 0; k < rs->noptions; k++){
    const gr_option *op = &rs->options[k];
    size_t bad = 0;
    char def[64];
    snprintf(def, sizeof def, cv->defaults[k] ? "\"%s\"" : "-", cv->defaults[k] ? cv->defaults[k] : "");
    gr_out_printf(o, "%-*s  %-11s  %-22s  ", (int)wn, op->name, cv->opt_on[k] ? "yes" : "no", def);
    for(v = 0; v < op->nvalues; v++){
      if( !cv->value_on[k][v] ) gr_out_printf(o, "%s%s", bad++ ? ", " : "", op->values[v]);
    }
    gr_out_puts(o, bad ? "\n" : "-\n");
  }
  gr_out_printf(o, "\n%-*s  %s\n", (int)wn, "MODE", "SUPPORTED");
  for(k = 0; k < rs->nmodes; k++){
    const gr_mode *m = &rs->modes[k];
    int on = cv->mode_on[k];
    gr_out_printf(o, "%-*s  %s%s%s\n", (int)wn, m->name, on ? "yes" : "no",
                  !on && m->support.reason ? ": " : "", !on && m->support.reason ? m->support.reason : "");
  }
}

/* `gerules options --format json`: every option and mode with the product lines supporting it. */
static void options_json(gr_out *o, const gr_ruleset *rs){
  gr_jw w;
  size_t k, v;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "products"); gr_jw_arr(&w);
  for(k = 0; k < rs->nproducts; k++) gr_jw_str(&w, rs->products[k].name);
  gr_jw_end_arr(&w);
  gr_jw_key(&w, "options"); gr_jw_arr(&w);
  for(k = 0; k < rs->noptions; k++){
    const gr_option *op = &rs->options[k];
    jw_option_head(&w, op);
    gr_jw_key(&w, "aliases"); gr_jw_arr(&w);
    for(v = 0; v < op->naliases; v++) gr_jw_str(&w, op->aliases[v]);
    gr_jw_end_arr(&w);
    gr_jw_key(&w, "type"); gr_jw_str(&w, gr_option_type_name(op->type));
    gr_jw_key(&w, "supported_on"); jw_support(&w, rs, &op->support);
    jw_reason(&w, &op->support);
    jw_option_values(&w, rs, op, 0);
    if( op->deprecated ){ gr_jw_key(&w, "deprecated"); gr_jw_str(&w, op->deprecated); }
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_key(&w, "modes"); gr_jw_arr(&w);
  for(k = 0; k < rs->nmodes; k++){
    jw_mode_head(&w, &rs->modes[k]);
    gr_jw_key(&w, "supported_on"); jw_support(&w, rs, &rs->modes[k].support);
    jw_reason(&w, &rs->modes[k].support);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);
}

/* `gerules options`: every option as a paragraph, then the modes. */
static void options_text(gr_out *o, const gr_ruleset *rs){
  gr_buf b;
  size_t k, v, d;
  gr_buf_init(&b);
  for(k = 0; k < rs->noptions; k++){
    const gr_option *op = &rs->options[k];
    gr_out_printf(o, "%s  (%s)\n", op->name, gr_option_type_name(op->type));
    gr_out_printf(o, "  key:       %s\n", op->key);
    if( op->naliases ){
      gr_out_puts(o, "  aliases:   ");
      for(v = 0; v < op->naliases; v++) gr_out_printf(o, "%s%s", v ? ", " : "", op->aliases[v]);
      gr_out_puts(o, "\n");
    }
    if( op->nvalues ){
      gr_out_puts(o, "  values:    ");
      for(v = 0; v < op->nvalues; v++) gr_out_printf(o, "%s\"%s\"", v ? ", " : "", op->values[v]);
      gr_out_puts(o, "\n");
    }
    for(d = 0; d < op->ndefaults; d++){
      b.n = 0; gr_expr_print(&b, op->defaults[d].value);
      gr_out_printf(o, "  default:   %s", gr_buf_cstr(&b));
      if( op->defaults[d].cond ){ b.n = 0; gr_expr_print(&b, op->defaults[d].cond); gr_out_printf(o, " when %s", gr_buf_cstr(&b)); }
      gr_out_puts(o, "\n");
    }
    b.n = 0; support_names(rs, &op->support, &b);
    gr_out_printf(o, "  supported: %s%s%s\n", gr_buf_cstr(&b), op->support.reason ? ": " : "", op->support.reason ? op->support.reason : "");
    for(v = 0; v < op->nvalues; v++){
      if( !op->value_support[v].stated ) continue;
      b.n = 0; support_names(rs, &op->value_support[v], &b);
      gr_out_printf(o, "    \"%s\" supported: %s%s\n", op->values[v], gr_buf_cstr(&b),
                    op->value_support[v].rejected ? " (rejected elsewhere: the option then reads as its default)" : "");
    }
    if( op->deprecated ) gr_out_printf(o, "  deprecated: %s\n", op->deprecated);
    gr_out_puts(o, "\n");
  }
    gr_out_puts(o, "modes:\n");
    for(k = 0; k < rs->nmodes; k++){
      b.n = 0; support_names(rs, &rs->modes[k].support, &b);
      gr_out_printf(o, "  %-30s %s%s%s\n", rs->modes[k].name, gr_buf_cstr(&b),
                    rs->modes[k].support.reason ? ": " : "", rs->modes[k].support.reason ? rs->modes[k].support.reason : "");
    }
  gr_buf_free(&b);
}

int cmd_options(cli_ctx *c, int argc, char **argv){
  int json = 0, i;
  const char *chip = NULL, *run_mode = "inference";
  gr_ruleset *rs;
  gr_out o;
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(options_usage, stdout); return 0; }
    if( strcmp(argv[i], "--format")==0 ){ if( cli_format_arg("options", i + 1 < argc ? argv[++i] : NULL, &json) ) return EXIT_INPUT; }
    else if( strncmp(argv[i], "--format=", 9)==0 ){ if( cli_format_arg("options", argv[i] + 9, &json) ) return EXIT_INPUT; }
    else if( strcmp(argv[i], "--chip")==0 ){ if( i + 1 >= argc ) return cli_usage_error("options", "--chip needs a SoC"); chip = argv[++i]; }
    else if( strncmp(argv[i], "--chip=", 7)==0 ) chip = argv[i] + 7;
    else if( strcmp(argv[i], "--run-mode")==0 ){ if( i + 1 >= argc ) return cli_usage_error("options", "--run-mode needs a value"); run_mode = argv[++i]; }
    else if( strncmp(argv[i], "--run-mode=", 11)==0 ) run_mode = argv[i] + 11;
    else if( argv[i][0]=='-' ) return cli_unknown_option("options", options_usage, argv[i]);
    else return cli_usage_error("options", "unexpected argument '%s'", argv[i]);
  }
  if( strcmp(run_mode, "inference") && strcmp(run_mode, "training") ) return cli_usage_error("options", "--run-mode is inference or training, not '%s'", run_mode);
  if( (rs = cli_load_rules(c))==NULL ) return EXIT_INPUT;
  fflush(stdout);
  if( chip ){
    gerules_eval *ev;
    gr_result *r;
    chip_verdict cv;
    if( find_chip(c, chip, "options") < 0 ) return EXIT_INPUT;
    if( (ev = options_evaluate(c, rs, chip, run_mode))==NULL ) return EXIT_INPUT;
    r = gr_api_eval_result(ev);
    verdict_init(&cv, rs, r, chip, run_mode);     /* the values the writers show, the evaluation's held while they are */
    gr_out_init_fd(&o, 1);
    if( json ) verdict_json(&o, rs, &cv);
    else verdict_text(&o, rs, &cv);
    verdict_free(&cv, rs);
    gerules_eval_free(ev);
  }else{
    gr_out_init_fd(&o, 1);
    if( json ) options_json(&o, rs);
    else options_text(&o, rs);
  }
  if( gr_out_close(&o, NULL)!=0 ) return EXIT_INPUT;
  return 0;
}

/* ------------------------------------------------------------------ */
/* explain */

static const char explain_usage[] =
  "usage: gerules explain NAME|CODE [--format text|json]\n"
  "Describes an option (by name, GE key or alias), a precision mode, a slot, a source,\n"
  "a rule, a table, a product line, a SoC or an ONNX op's mapping (ai.onnx::Gemm), from\n"
  "the rule set; or a diagnostic code (GE2004, GR0204): what it means, when it fires,\n"
  "an example and the fix.\n";

static void where_line(gr_buf *b, gr_loc l){ gr_buf_printf(b, "%s:%u", l.file, l.line); }

static void jw_loc(gr_jw *w, const char *key, gr_loc l){
  gr_buf b;
  gr_buf_init(&b);
  gr_buf_printf(&b, "%s:%u", l.file, l.line);
  gr_jw_key(w, key); gr_jw_str(w, gr_buf_cstr(&b));
  gr_buf_free(&b);
}

static void explain_suggest(const gr_ruleset *rs, const char *name);

/* What NAME designates in the rule set, each kind looked up once for both
** writers (-1, NULL: not that kind); a SoC only when nothing else matches. */
typedef struct explain_hits {
  const gr_option *op;
  int mode, slot, source, rule, table, onnx, product, soc;
  int n;                        /* how many kinds matched */
} explain_hits;

static void explain_lookup(const gr_ruleset *rs, const char *name, explain_hits *h){
  h->op = gr_ruleset_option_by_spelling(rs, name);
  h->mode = gr_ruleset_find(&rs->mode_map, name);
  h->slot = gr_ruleset_find_slot(rs, name);    /* by its label (`column`) too, as the reports show it */
  h->source = gr_ruleset_find(&rs->source_map, name);
  h->rule = gr_ruleset_find(&rs->rule_map, name);
  h->table = gr_ruleset_find(&rs->table_map, name);
  h->onnx = gr_ruleset_find(&rs->onnx_map, name);
  h->product = gr_ruleset_find(&rs->product_map, name);
  h->n = (h->op!=NULL) + (h->mode >= 0) + (h->slot >= 0) + (h->source >= 0) + (h->rule >= 0)
       + (h->table >= 0) + (h->onnx >= 0) + (h->product >= 0);
  h->soc = h->n==0 ? gr_ruleset_find_soc(rs, name) : -1;
  h->n += h->soc >= 0;
}

/* `gerules explain NAME --format json`: {"name", "matches": [{"kind", ...}]} */
static int explain_json(const gr_ruleset *rs, const char *name, const explain_hits *h){
  gr_out o;
  gr_jw w;
  const gr_option *op = h->op;
  int i;
  size_t k, v;
  fflush(stdout);
  gr_out_init_fd(&o, 1);
  gr_jw_init(&w, &o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  gr_jw_key(&w, "name"); gr_jw_str(&w, name);
  gr_jw_key(&w, "matches"); gr_jw_arr(&w);
  if( op ){
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "option");
    gr_jw_key(&w, "name"); gr_jw_str(&w, op->name);
    gr_jw_key(&w, "description"); gr_jw_str(&w, op->description);
    gr_jw_key(&w, "key"); gr_jw_str(&w, op->key);
    gr_jw_key(&w, "aliases"); gr_jw_arr(&w);
    for(v = 0; v < op->naliases; v++) gr_jw_str(&w, op->aliases[v]);
    gr_jw_end_arr(&w);
    gr_jw_key(&w, "type"); gr_jw_str(&w, gr_option_type_name(op->type));
    jw_option_values(&w, rs, op, 1);
    gr_jw_key(&w, "supported_on"); jw_support(&w, rs, &op->support);
    gr_jw_key(&w, "reason"); gr_jw_str(&w, op->support.reason);
    gr_jw_key(&w, "deprecated"); gr_jw_str(&w, op->deprecated);
    jw_loc(&w, "defined_at", op->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->mode) >= 0 ){
    const gr_mode *m = &rs->modes[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "mode");
    gr_jw_key(&w, "name"); gr_jw_str(&w, m->name);
    gr_jw_key(&w, "description"); gr_jw_str(&w, m->description);
    gr_jw_key(&w, "supported_on"); jw_support(&w, rs, &m->support);
    gr_jw_key(&w, "reason"); gr_jw_str(&w, m->support.reason);
    jw_loc(&w, "defined_at", m->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->slot) >= 0 ){
    const gr_slot *sl = &rs->slots[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "slot");
    gr_jw_key(&w, "name"); gr_jw_str(&w, sl->name);
    gr_jw_key(&w, "column"); gr_jw_str(&w, sl->column);
    gr_jw_key(&w, "description"); gr_jw_str(&w, sl->description);
    gr_jw_key(&w, "cascade"); gr_jw_arr(&w);
    for(k = 0; k < sl->ncascade; k++) gr_jw_str(&w, rs->sources[sl->cascade[k]].name);
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", sl->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->source) >= 0 ){
    const gr_source *src = &rs->sources[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "source");
    gr_jw_key(&w, "name"); gr_jw_str(&w, src->name);
    gr_jw_key(&w, "slot"); gr_jw_str(&w, rs->slots[src->slot].name);
    gr_jw_key(&w, "place"); gr_jw_int(&w, src->order + 1);
    gr_jw_key(&w, "branches"); gr_jw_arr(&w);
    for(k = 0; k < src->nbranches; k++){
      gr_jw_obj(&w);
      jw_expr(&w, "when", src->branches[k].cond);
      jw_expr(&w, "value", src->branches[k].value);
      jw_loc(&w, "rule", src->branches[k].loc);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", src->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->rule) >= 0 ){
    const gr_rule *ru = &rs->rules[i];
    static const char *scopes[] = { "global", "node", "option", "entry" };
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "rule");
    gr_jw_key(&w, "name"); gr_jw_str(&w, ru->name);
    gr_jw_key(&w, "scope"); gr_jw_str(&w, scopes[ru->scope]);
    gr_jw_key(&w, "severity"); gr_jw_str(&w, gr_severity_name(ru->sev));
    gr_jw_key(&w, "code"); gr_jw_str(&w, ru->code);
    jw_expr(&w, "when", ru->br.cond);
    jw_loc(&w, "defined_at", ru->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->table) >= 0 ){
    const gr_table *t = &rs->tables[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "table");
    gr_jw_key(&w, "name"); gr_jw_str(&w, t->name);
    gr_jw_key(&w, "description"); gr_jw_str(&w, t->description);
    if( t->fold ){ gr_jw_key(&w, "fold"); gr_jw_str(&w, t->fold==GR_FOLD_LOWER ? "lower" : "upper"); }
    gr_jw_key(&w, "entries"); gr_jw_arr(&w);
    for(k = 0; k < t->n; k++){
      gr_jw_obj(&w);
      gr_jw_key(&w, "key"); gr_jw_str(&w, t->keys[k]);
      if( t->vals[k] ) jw_expr(&w, "value", t->vals[k]);
      gr_jw_end_obj(&w);
    }
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", t->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->onnx) >= 0 ){
    const gr_onnx_op *x = &rs->onnx_ops[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "onnx");
    gr_jw_key(&w, "name"); gr_jw_str(&w, x->key);
    gr_jw_key(&w, "rows"); gr_jw_arr(&w);
    for(k = 0; k < x->nrows; k++){
      gr_buf b;
      gr_buf_init(&b);
      gr_onnx_row_print(&b, &x->rows[k]);
      gr_jw_obj(&w);
      gr_jw_key(&w, "row"); gr_jw_str(&w, gr_buf_cstr(&b));
      jw_loc(&w, "rule", x->rows[k].loc);
      gr_jw_end_obj(&w);
      gr_buf_free(&b);
    }
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", x->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->product) >= 0 ){
    const gr_product *p = &rs->products[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "product");
    gr_jw_key(&w, "name"); gr_jw_str(&w, p->name);
    gr_jw_key(&w, "title"); gr_jw_str(&w, p->title);
    gr_jw_key(&w, "description"); gr_jw_str(&w, p->description);
    gr_jw_key(&w, "socs"); gr_jw_arr(&w);
    for(k = 0; k < rs->nsocs; k++) if( rs->socs[k].product==i ) gr_jw_str(&w, rs->socs[k].name);
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", p->loc);
    gr_jw_end_obj(&w);
  }
  if( (i = h->soc) >= 0 ){
    const gr_soc *sc = &rs->socs[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "kind"); gr_jw_str(&w, "soc");
    gr_jw_key(&w, "name"); gr_jw_str(&w, name);
    gr_jw_key(&w, "pattern"); gr_jw_str(&w, sc->is_pattern ? sc->name : NULL);
    gr_jw_key(&w, "product"); gr_jw_str(&w, rs->products[sc->product].name);
    gr_jw_key(&w, "hardware"); gr_jw_obj(&w);
    for(k = 0; k < rs->nhw; k++){ gr_jw_key(&w, rs->hw_names[k]); gr_jw_int(&w, sc->hw[k]); }
    gr_jw_end_obj(&w);
    gr_jw_key(&w, "caps"); gr_jw_arr(&w);
    for(k = 0; k < rs->ncaps; k++) if( sc->caps[k] ) gr_jw_str(&w, rs->cap_names[k]);
    gr_jw_end_arr(&w);
    jw_loc(&w, "defined_at", sc->loc);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);
  if( gr_out_close(&o, NULL)!=0 ) return EXIT_INPUT;
  return 0;
}

static void explain_suggest(const gr_ruleset *rs, const char *name){
  const char *sug = gr_ruleset_suggest(rs, GR_NK_SPELLING | GR_NK_MODE | GR_NK_SLOT | GR_NK_SOURCE | GR_NK_RULE
                                       | GR_NK_TABLE | GR_NK_PRODUCT | GR_NK_SOC | GR_NK_ONNX, name);
  if( sug ) fprintf(stderr, "gerules explain: error: '%s' is not an option, mode, slot, source, rule, table, product, SoC or ONNX op; did you mean '%s'?\n", name, sug);
  else fprintf(stderr, "gerules explain: error: '%s' is not an option, mode, slot, source, rule, table, product, SoC or ONNX op\n", name);
}

/* `gerules explain NAME`: each match as a paragraph (blank-line separated). */
static int explain_text(const gr_ruleset *rs, const char *name, const explain_hits *h){
  const gr_option *op;
  gr_buf b;
  size_t k;
  int i;
  gr_buf_init(&b);
  gr_buf_init(&b);
  if( (op = h->op)!=NULL ){
    size_t v;
    gr_buf_printf(&b, "option %s (%s)\n", op->name, gr_option_type_name(op->type));
    if( op->description ) gr_buf_printf(&b, "  %s\n", op->description);
    gr_buf_printf(&b, "  GE key: %s\n", op->key);
    for(v = 0; v < op->naliases; v++) gr_buf_printf(&b, "%s%s", v ? ", " : "  also written: ", op->aliases[v]);
    if( op->naliases ) gr_buf_adds(&b, "\n");
    for(v = 0; v < op->nvalues; v++){
      gr_buf_printf(&b, "  value \"%s\"", op->values[v]);
      if( op->value_desc[v] ) gr_buf_printf(&b, ": %s", op->value_desc[v]);
      if( op->value_support[v].stated ){
        gr_buf_adds(&b, " [supported on "); support_names(rs, &op->value_support[v], &b);
        gr_buf_adds(&b, op->value_support[v].rejected ? "; rejected elsewhere]" : "]");
      }
      gr_buf_adds(&b, "\n");
    }
    for(v = 0; v < op->ndefaults; v++){
      gr_buf_adds(&b, "  default: ");
      gr_expr_print(&b, op->defaults[v].value);
      if( op->defaults[v].cond ){ gr_buf_adds(&b, " when "); gr_expr_print(&b, op->defaults[v].cond); }
      gr_buf_adds(&b, "\n");
    }
    gr_buf_adds(&b, "  supported on: ");
    support_names(rs, &op->support, &b);
    if( op->support.reason ) gr_buf_printf(&b, " (%s)", op->support.reason);
    gr_buf_adds(&b, "\n");
    if( op->deprecated ) gr_buf_printf(&b, "  deprecated: %s\n", op->deprecated);
    for(k = 0; k < rs->nrelations; k++){
      const gr_relation *r = &rs->relations[k];
      size_t j;
      int involved = r->a==op->index;
      for(j = 0; j < r->nothers; j++) if( r->others[j]==op->index ) involved = 1;
      if( !involved ) continue;
      gr_buf_adds(&b, "  relation: ");
      if( r->kind==GR_REL_EXCLUSIVE ) gr_buf_printf(&b, "exclusive %s over", rs->options[r->a].name);
      else if( r->kind==GR_REL_REQUIRES ) gr_buf_printf(&b, "requires %s needs", rs->options[r->a].name);
      else gr_buf_adds(&b, "conflicts");
      for(j = 0; j < r->nothers; j++) gr_buf_printf(&b, "%s %s", j ? "," : "", rs->options[r->others[j]].name);
      gr_buf_printf(&b, " (%s, ", r->code);
      where_line(&b, r->loc);
      gr_buf_adds(&b, ")\n");
    }
    gr_buf_adds(&b, "  defined at ");
    where_line(&b, op->loc);
    gr_buf_adds(&b, "\n");
  }
  if( (i = h->mode) >= 0 ){
    const gr_mode *m = &rs->modes[i];
    gr_buf_printf(&b, "%smode %s\n", b.n ? "\n" : "", m->name);
    if( m->description ) gr_buf_printf(&b, "  %s\n", m->description);
    gr_buf_adds(&b, "  supported on: ");
    support_names(rs, &m->support, &b);
    if( m->support.reason ) gr_buf_printf(&b, " (%s)", m->support.reason);
    gr_buf_adds(&b, "\n  defined at ");
    where_line(&b, m->loc);
    gr_buf_adds(&b, "\n");
  }
  if( (i = h->slot) >= 0 ){
    const gr_slot *s = &rs->slots[i];
    gr_buf_printf(&b, "%sslot %s\n", b.n ? "\n" : "", s->name);
    if( s->description ) gr_buf_printf(&b, "  %s\n", s->description);
    if( strcmp(s->column, s->name) ) gr_buf_printf(&b, "  column: %s (the label the text report, --explain, HTML and DOT show)\n", s->column);
    gr_buf_adds(&b, "  cascade: ");
    for(k = 0; k < s->ncascade; k++) gr_buf_printf(&b, "%s%s", k ? " > " : "", rs->sources[s->cascade[k]].name);
    gr_buf_adds(&b, "\n");
  }
  if( (i = h->source) >= 0 ){
    const gr_source *s = &rs->sources[i];
    gr_buf_printf(&b, "%ssource %s for %s (place %d in its cascade)\n", b.n ? "\n" : "", s->name, rs->slots[s->slot].name, s->order + 1);
    for(k = 0; k < s->nbranches; k++){
      gr_buf_adds(&b, "  when ");
      gr_expr_print(&b, s->branches[k].cond);
      gr_buf_adds(&b, "\n    value ");
      gr_expr_print(&b, s->branches[k].value);
      gr_buf_adds(&b, "   (");
      where_line(&b, s->branches[k].loc);
      gr_buf_adds(&b, ")\n");
    }
  }
  if( (i = h->rule) >= 0 ){
    const gr_rule *r = &rs->rules[i];
    static const char *scopes[] = { "", " for each node", " for each option", " for each entry" };
    gr_buf_printf(&b, "%srule %s%s: %s %s\n  when ", b.n ? "\n" : "", r->name, scopes[r->scope], gr_severity_name(r->sev), r->code);
    gr_expr_print(&b, r->br.cond);
    gr_buf_adds(&b, "\n  defined at ");
    where_line(&b, r->loc);
    gr_buf_adds(&b, "\n");
  }
  if( (i = h->table) >= 0 ){
    const gr_table *t = &rs->tables[i];
    gr_buf_printf(&b, "%stable %s (%zu entr%s)\n", b.n ? "\n" : "", t->name, t->n, t->n==1 ? "y" : "ies");
    if( t->description ) gr_buf_printf(&b, "  %s\n", t->description);
    if( t->fold ) gr_buf_printf(&b, "  fold %s: 'in' compares a value with its letters in %s case\n",
                                t->fold==GR_FOLD_LOWER ? "lower" : "upper", t->fold==GR_FOLD_LOWER ? "lower" : "upper");
    for(k = 0; k < t->n; k++){
      gr_buf_printf(&b, "  \"%s\"", t->keys[k]);
      if( t->vals[k] ){ gr_buf_adds(&b, ": "); gr_expr_print(&b, t->vals[k]); }
      gr_buf_adds(&b, "\n");
    }
  }
  if( (i = h->onnx) >= 0 ){
    const gr_onnx_op *x = &rs->onnx_ops[i];
    gr_buf_printf(&b, "%sonnx \"%s\" (%zu row%s, first match wins)\n", b.n ? "\n" : "", x->key, x->nrows, x->nrows==1 ? "" : "s");
    for(k = 0; k < x->nrows; k++){
      gr_buf_adds(&b, "  ");
      gr_onnx_row_print(&b, &x->rows[k]);
      gr_buf_adds(&b, "    # ");
      where_line(&b, x->rows[k].loc);
      gr_buf_adds(&b, "\n");
    }
  }
  if( (i = h->product) >= 0 ){
    const gr_product *p = &rs->products[i];
    gr_buf_printf(&b, "%sproduct line %s: %s\n", b.n ? "\n" : "", p->name, p->title);
    if( p->description ) gr_buf_printf(&b, "  %s\n", p->description);
    for(k = 0; k < rs->nsocs; k++) if( rs->socs[k].product==i ) gr_buf_printf(&b, rs->socs[k].is_pattern ? "  soc /%s/\n" : "  soc %s\n", rs->socs[k].name);
  }
  if( (i = h->soc) >= 0 ){
    const gr_soc *s = &rs->socs[i];
    gr_buf_printf(&b, "soc %s: product line %s (%s)\n", name, rs->products[s->product].name, rs->products[s->product].title);
    if( s->is_pattern ) gr_buf_printf(&b, "  matched by /%s/\n", s->name);
    for(k = 0; k < rs->nhw; k++) gr_buf_printf(&b, "  %s: %lld\n", rs->hw_names[k], (long long)s->hw[k]);
    gr_buf_adds(&b, "  capabilities: ");
    caps_list(rs, s->caps, &b);
    gr_buf_adds(&b, "\n");
  }
  fwrite(b.p, 1, b.n, stdout);
  gr_buf_free(&b);
  return 0;
}

int cmd_explain(cli_ctx *c, int argc, char **argv){
  gr_ruleset *rs;
  const char *name;
  explain_hits h;
  int i, json = 0;
  name = NULL;
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(explain_usage, stdout); return 0; }
    if( strcmp(argv[i], "--format")==0 ){ if( cli_format_arg("explain", i + 1 < argc ? argv[++i] : NULL, &json) ) return EXIT_INPUT; }
    else if( strncmp(argv[i], "--format=", 9)==0 ){ if( cli_format_arg("explain", argv[i] + 9, &json) ) return EXIT_INPUT; }
    else if( name==NULL ) name = argv[i];
    else return cli_usage_error("explain", "expected exactly one NAME, got '%s' and '%s'", name, argv[i]);
  }
  if( name==NULL ) return cli_usage_error("explain", "expected a NAME");
  if( (rs = cli_load_rules(c))==NULL ) return EXIT_INPUT;
  if( gr_diag_code_valid(name) ) return cli_explain_code(c, rs, name, json);   /* cmd_explain.c */
  explain_lookup(rs, name, &h);
  if( h.n==0 ){
    explain_suggest(rs, name);
    return EXIT_INPUT;
  }
  return json ? explain_json(rs, name, &h) : explain_text(rs, name, &h);
}
