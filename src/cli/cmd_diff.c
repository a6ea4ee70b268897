/*
** cmd_diff.c: `gerules diff OLD NEW`: what changes between two bundles (or
** two stacks of bundles, each a colon-separated list of paths), as text or
** JSON; with --graph, also the node decisions and diagnostics of that graph
** whose outcome changes, with both outcomes (one model read, evaluated under
** each rule set through the library's orchestrator). Both rule sets are
** loaded through cli_load_paths, so a trust store verifies both.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "bundle/diff.h"
#include "report/out.h"
#include "report/report.h"
#include "api/gerules_internal.h"

static const char diff_usage[] =
  "usage: gerules diff [--format text|json] OLD NEW [--graph GRAPH --chip SOC [-o KEY=VALUE]...\n"
  "                    [--options FILE] [--run-mode MODE]]\n"
  "Lists the declarations added (+), removed (-) and changed (~) from OLD to NEW (each a bundle\n"
  "directory or rule file, or a stack of them separated by ':'): product lines, SoCs and their\n"
  "hardware numbers, options and their values, defaults and support, modes, tables, slots and\n"
  "cascades, sources and their branches, rules and relations. With --graph, evaluates the graph\n"
  "under both with the same chip and options and lists every node decision and diagnostic whose\n"
  "outcome changes, with both outcomes (site hooks are not run).\n";

static int is_help(const char *a){ return strcmp(a, "--help")==0 || strcmp(a, "-h")==0; }

static gr_ruleset *load_side(cli_ctx *c, const char *spec){
  const char **paths = NULL, *p = spec, *el;
  size_t n = 0, l, i;
  char **own = NULL;
  gr_ruleset *rs;
  while( gr_split_next(&p, ":", &el, &l) ){
    if( l==0 ) continue;
    own = gr_xrealloc(own, (n + 1) * sizeof *own);
    own[n++] = gr_xstrndup(el, l);
  }
  paths = gr_xcalloc(n + 1, sizeof *paths);
  for(i = 0; i < n; i++) paths[i] = own[i];
  rs = n ? cli_load_paths(c, paths, n) : NULL;
  if( rs==NULL && !c->refused && !c->trust_failed ){
    cli_print_diags(&c->diags);
    fprintf(stderr, "gerules diff: error: the rule set %s has errors (run 'gerules check %s')\n", spec, spec);
  }
  gr_diags_free(&c->diags);
  gr_diags_init(&c->diags);
  for(i = 0; i < n; i++) free(own[i]);
  free(own);
  free(paths);
  return rs;
}

static const char *op_mark(int op){ return op==GR_CH_ADDED ? "+" : op==GR_CH_REMOVED ? "-" : "~"; }
static const char *op_name(int op){ return op==GR_CH_ADDED ? "added" : op==GR_CH_REMOVED ? "removed" : "changed"; }

static void side_json(gr_jw *w, const char *key, const char *spec, const gr_ruleset *rs){
  gr_jw_key(w, key);
  gr_jw_obj(w);
  gr_jw_key(w, "rules"); gr_jw_str(w, spec);
  gr_jw_key(w, "bundle"); gr_jw_str(w, rs->bundle_name);
  gr_jw_key(w, "version"); gr_jw_str(w, rs->bundle_version);
  gr_jw_end_obj(w);
}

static void changes_json(gr_jw *w, const gr_diff *d){
  size_t i, k;
  gr_jw_arr(w);
  for(i = 0; i < d->n; i++){
    const gr_change *c = &d->v[i];
    gr_jw_obj(w);
    gr_jw_key(w, "change"); gr_jw_str(w, op_name(c->op));
    gr_jw_key(w, "kind"); gr_jw_str(w, c->kind);
    gr_jw_key(w, "name"); gr_jw_str(w, c->name);
    if( c->old_value ){
      gr_jw_key(w, "slot"); gr_jw_str(w, c->ndetails ? c->details[0] : NULL);
      gr_jw_key(w, "old"); gr_jw_str(w, c->old_value);
      gr_jw_key(w, "new"); gr_jw_str(w, c->new_value);
    }else if( c->diag.n ){
      gr_jw_key(w, "diagnostic");
      gr_report_diag_json_brief(w, &c->diag.v[0]);
    }else if( c->op==GR_CH_CHANGED ){
      gr_jw_key(w, "details");
      gr_jw_arr(w);
      for(k = 0; k < c->ndetails; k++) gr_jw_str(w, c->details[k]);
      gr_jw_end_arr(w);
    }
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
}

static void changes_text(gr_out *o, const gr_diff *d){
  size_t i, k, na = 0, nr = 0, nc = 0;
  for(i = 0; i < d->n; i++){
    const gr_change *c = &d->v[i];
    na += c->op==GR_CH_ADDED; nr += c->op==GR_CH_REMOVED; nc += c->op==GR_CH_CHANGED;
    if( c->old_value ){
      gr_out_printf(o, "~ node %s: %s: %s -> %s\n", c->name, c->ndetails > 1 ? c->details[1] : c->ndetails ? c->details[0] : "?",
                    c->old_value, c->new_value);
      continue;
    }
    if( c->diag.n ){
      const gr_diag *x = &c->diag.v[0];
      gr_out_printf(o, "%s diagnostic %s%s%s%s%s%s: %s: %s\n", op_mark(c->op), gr_severity_name(x->sev), x->code ? " " : "",
                    x->code ? x->code : "", x->rule ? " (" : "", x->rule ? x->rule : "", x->rule ? ")" : "",
                    x->node ? x->node : x->option ? x->option : "-", x->msg);
      continue;
    }
    if( c->ndetails==1 ){
      gr_out_printf(o, "%s %s %s: %s\n", op_mark(c->op), c->kind, c->name, c->details[0]);
      continue;
    }
    gr_out_printf(o, "%s %s %s%s\n", op_mark(c->op), c->kind, c->name, c->ndetails ? ":" : "");
    for(k = 0; k < c->ndetails; k++) gr_out_printf(o, "    %s\n", c->details[k]);
  }
  if( d->n==0 ) gr_out_puts(o, "(no changes)\n");
  else gr_out_printf(o, "%zu added, %zu removed, %zu changed\n", na, nr, nc);
}

/* What diff found, computed once for both writers. */
typedef struct diff_run {
  const char *old, *neu;        /* the two specs as given */
  const gr_ruleset *ra, *rb;
  const gr_diff *decl;          /* the declarations that change */
  const char *graph, *chip;     /* --graph and the chip evaluated (graph NULL: none) */
  const gr_diff *outc;          /* the outcomes that change on the graph */
} diff_run;

static void diff_json(gr_out *o, const diff_run *dr){
  gr_jw w;
  gr_jw_init(&w, o, 2);
  gr_jw_obj(&w);
  gr_jw_schema_version(&w);
  side_json(&w, "old", dr->old, dr->ra);
  side_json(&w, "new", dr->neu, dr->rb);
  gr_jw_key(&w, "changes");
  changes_json(&w, dr->decl);
  if( dr->graph ){
    gr_jw_key(&w, "outcomes");
    gr_jw_obj(&w);
    gr_jw_key(&w, "graph"); gr_jw_str(&w, dr->graph);
    gr_jw_key(&w, "chip"); gr_jw_str(&w, dr->chip);
    gr_jw_key(&w, "changes");
    changes_json(&w, dr->outc);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_obj(&w);
  gr_out_putc(o, '\n');
}

static void diff_text(gr_out *o, const diff_run *dr){
  const gr_layer *ta = dr->ra->nlayers ? &dr->ra->layers[dr->ra->nlayers - 1] : NULL, *tb = dr->rb->nlayers ? &dr->rb->layers[dr->rb->nlayers - 1] : NULL;
  const char *na = ta && ta->name ? ta->name : dr->ra->bundle_name, *va = ta && ta->name ? ta->version : dr->ra->bundle_version;
  const char *nb = tb && tb->name ? tb->name : dr->rb->bundle_name, *vb = tb && tb->name ? tb->version : dr->rb->bundle_version;
  gr_out_printf(o, "gerules diff: %s %s (%s) -> %s %s (%s)\n", na ? na : "?", va ? va : "", dr->old, nb ? nb : "?", vb ? vb : "", dr->neu);
  gr_out_puts(o, "declarations:\n");
  changes_text(o, dr->decl);
  if( dr->graph ){
    gr_out_printf(o, "outcomes for %s on %s:\n", dr->graph, dr->chip);
    changes_text(o, dr->outc);
  }
}

int cmd_diff(cli_ctx *c, int argc, char **argv){
  const char *old = NULL, *neu = NULL;
  int json = 0, i, k, rc = EXIT_INPUT;
  cli_input in;
  gr_ruleset *ra = NULL, *rb = NULL;
  gr_diff decl, outc;
  gerules_rules *wa = NULL, *wb = NULL;
  gerules_eval *ea = NULL, *eb = NULL;
  gr_result *xa = NULL;
  gr_out o;
  gr_error err;
  diff_run dr;
  cli_input_init(&in, "diff");
  gr_diff_init(&decl);
  gr_diff_init(&outc);
  for(i = 0; i < argc; i++){
    const char *v;
    if( is_help(argv[i]) ){ fputs(diff_usage, stdout); cli_input_free(&in); return 0; }
    if( (k = cli_arg_value("diff", "--format", &i, argc, argv, &v))!=0 ){
      if( k < 0 || cli_format_arg("diff", v, &json) ) goto out;
      continue;
    }
    if( (k = cli_arg_value("diff", "--graph", &i, argc, argv, &v))!=0 ){ if( k < 0 ) goto out; in.graph = v; continue; }
    if( argv[i][0]!='-' || argv[i][1]==0 ){
      if( old==NULL ) old = argv[i];
      else if( neu==NULL ) neu = argv[i];
      else { cli_usage_error("diff", "unexpected argument '%s' (the graph is given with --graph)", argv[i]); goto out; }
      continue;
    }
    {
      const char *graph = in.graph;
      in.graph = NULL;
      k = cli_input_arg(&in, &i, argc, argv);
      if( in.graph ){ cli_usage_error("diff", "unexpected argument '%s'", in.graph); goto out; }
      in.graph = graph;
      if( k < 0 ) goto out;
      if( k > 0 ) continue;
    }
    cli_unknown_option("diff", diff_usage, argv[i]);
    goto out;
  }
  if( neu==NULL ){ cli_usage_error("diff", "give two rule sets: OLD NEW"); goto out; }
  if( in.graph==NULL && (in.chip || in.opts.n) ){ cli_usage_error("diff", "--chip and options go with --graph"); goto out; }
  if( (ra = load_side(c, old))==NULL || (rb = load_side(c, neu))==NULL ) goto out;
  gr_diff_rulesets(ra, rb, &decl);
  if( in.graph ){
    /* one request, through the library's orchestrator: the model is read
    ** once (with OLD's ONNX mapping) and evaluated under both rule sets,
    ** without hooks */
    gerules_request *q;
    if( (wa = gr_api_rules_adopt(ra, old, &c->diags))==NULL || (wb = gr_api_rules_adopt(rb, neu, &c->diags))==NULL ){
      cli_print_diags(&c->diags);
      goto out;
    }
    q = cli_request_new(&in);
    gerules_request_set_provenance(q, 0);
    gr_api_request_set_no_hooks(q);
    ea = cli_input_evaluate(&in, wa, q);
    if( gerules_eval_status(ea)!=2 ){
      eb = gr_api_evaluate_on(wb, q, ea);
      if( gerules_eval_status(eb)==2 ) cli_print_failure("diff", gerules_eval_diags(eb));
    }
    gerules_request_free(q);
    if( gerules_eval_status(ea)==2 || gerules_eval_status(eb)==2 ) goto out;
    xa = gr_api_eval_result(ea);
    gr_diff_results(xa, gr_api_eval_result(eb), &outc);
  }
  gr_out_init_fd(&o, 1);
  dr.old = old; dr.neu = neu; dr.ra = ra; dr.rb = rb; dr.decl = &decl;
  dr.graph = in.graph; dr.chip = xa ? xa->soc_name : NULL; dr.outc = &outc;
  if( json ) diff_json(&o, &dr);
  else diff_text(&o, &dr);
  if( gr_out_close(&o, &err)!=0 ){ fprintf(stderr, "gerules diff: error: %s\n", err.msg); goto out; }
  rc = 0;
out:
  gerules_eval_free(eb);                /* before ea: it borrows ea's model */
  gerules_eval_free(ea);
  gerules_rules_free(wa);
  gerules_rules_free(wb);
  gr_ruleset_free(ra);
  gr_ruleset_free(rb);
  gr_diff_free(&decl);
  gr_diff_free(&outc);
  cli_input_free(&in);
  return rc;
}
