/*
** diff.c: declaration-level and outcome-level differences between two rule
** sets. Each kind of declaration is matched by name; a changed declaration
** gets one detail line per field that differs, written so that a release
** note can quote it ("hardware ub_bytes 196608 -> 262144"). Expressions and
** templates are compared in their printed rule-language form, so a change in
** layout or comments is no change.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/diff.h"
#include "model/graph.h"

void gr_diff_init(gr_diff *d){ memset(d, 0, sizeof *d); }

void gr_diff_free(gr_diff *d){
  size_t i, k;
  for(i = 0; i < d->n; i++){
    free(d->v[i].name);
    for(k = 0; k < d->v[i].ndetails; k++) free(d->v[i].details[k]);
    free(d->v[i].details);
    free(d->v[i].old_value); free(d->v[i].new_value);
    gr_diags_free(&d->v[i].diag);
  }
  free(d->v);
  memset(d, 0, sizeof *d);
}

static gr_change *add(gr_diff *d, int op, const char *kind, const char *name){
  gr_change *c;
  if( d->n==d->cap ){
    d->cap = d->cap ? d->cap * 2 : 16;
    d->v = gr_xrealloc(d->v, d->cap * sizeof *d->v);
  }
  c = &d->v[d->n++];
  memset(c, 0, sizeof *c);
  c->op = op; c->kind = kind; c->name = gr_xstrdup(name);
  gr_diags_init(&c->diag);
  return c;
}

static void detail(gr_change *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void detail(gr_change *c, const char *fmt, ...){
  va_list ap;
  gr_buf b;
  gr_buf_init(&b);
  va_start(ap, fmt);
  gr_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  c->details = gr_xrealloc(c->details, (c->ndetails + 1) * sizeof *c->details);
  c->details[c->ndetails++] = gr_buf_detach(&b);
}

/* Details are gathered into a pending change that is kept only when one is added. */
typedef struct pending { gr_diff *d; const char *kind; const char *name; gr_change *c; } pending;
static void pdetail(pending *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pdetail(pending *p, const char *fmt, ...){
  va_list ap;
  gr_buf b;
  if( p->c==NULL ) p->c = add(p->d, GR_CH_CHANGED, p->kind, p->name);
  gr_buf_init(&b);
  va_start(ap, fmt);
  gr_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  p->c->details = gr_xrealloc(p->c->details, (p->c->ndetails + 1) * sizeof *p->c->details);
  p->c->details[p->c->ndetails++] = gr_buf_detach(&b);
}

static const char *nz(const char *s){ return s ? s : ""; }
static int streq(const char *a, const char *b){ return strcmp(nz(a), nz(b))==0; }

static void str_field(pending *p, const char *what, const char *a, const char *b){
  if( !streq(a, b) ) pdetail(p, "%s \"%s\" -> \"%s\"", what, nz(a), nz(b));
}

static char *expr_text(const gr_expr *e){
  gr_buf b;
  gr_buf_init(&b);
  if( e ) gr_expr_print_expanded(&b, e);
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

static char *tpl_text(const gr_template *t){
  gr_buf b;
  size_t i;
  gr_buf_init(&b);
  if( t->constant ) gr_buf_adds(&b, t->constant);
  else for(i = 0; i < t->n; i++){
    if( t->parts[i].lit ) gr_buf_adds(&b, t->parts[i].lit);
    if( t->parts[i].e ){ gr_buf_addc(&b, '{'); gr_expr_print_expanded(&b, t->parts[i].e); gr_buf_addc(&b, '}'); }
  }
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

static void expr_field(pending *p, const char *what, const gr_expr *a, const gr_expr *b){
  char *x = expr_text(a), *y = expr_text(b);
  if( strcmp(x, y)!=0 ) pdetail(p, "%s %s -> %s", what, *x ? x : "(none)", *y ? y : "(none)");
  free(x); free(y);
}

static void tpl_field(pending *p, const char *what, const gr_template *a, const gr_template *b){
  char *x = tpl_text(a), *y = tpl_text(b);
  if( strcmp(x, y)!=0 ) pdetail(p, "%s \"%s\" -> \"%s\"", what, x, y);
  free(x); free(y);
}

/* Support by product-line name: the lines both sets know. */
static void support_field(pending *p, const char *what, const gr_ruleset *ra, const gr_support *a,
                          const gr_ruleset *rb, const gr_support *b){
  size_t i;
  for(i = 0; i < ra->nproducts; i++){
    int j = gr_ruleset_find(&rb->product_map, ra->products[i].name);
    int x, y;
    if( j < 0 ) continue;
    x = gr_support_on(a, (int)i); y = gr_support_on(b, j);
    if( x!=y ) pdetail(p, "%s%son %s: %s -> %s", what, *what ? " " : "", ra->products[i].name,
                       x ? "supported" : "unsupported", y ? "supported" : "unsupported");
  }
  if( !streq(a->reason, b->reason) ) pdetail(p, "%s%sreason \"%s\" -> \"%s\"", what, *what ? " " : "", nz(a->reason), nz(b->reason));
  if( a->rejected!=b->rejected ) pdetail(p, "%s%srejected elsewhere: %s -> %s", what, *what ? " " : "",
                                         a->rejected ? "yes" : "no", b->rejected ? "yes" : "no");
}

static void caps_field(pending *p, const gr_ruleset *ra, const uint8_t *a, const gr_ruleset *rb, const uint8_t *b){
  size_t i;
  for(i = 0; i < ra->ncaps; i++){
    int j = gr_ruleset_find(&rb->cap_map, ra->cap_names[i]);
    if( a[i] && (j < 0 || !b[j]) ) pdetail(p, "capability %s removed", ra->cap_names[i]);
  }
  for(i = 0; i < rb->ncaps; i++){
    int j = gr_ruleset_find(&ra->cap_map, rb->cap_names[i]);
    if( b[i] && (j < 0 || !a[j]) ) pdetail(p, "capability %s added", rb->cap_names[i]);
  }
}

/* SoC patterns are not in soc_map: SoCs are matched by their written name */
static int soc_by_name(const gr_ruleset *rs, const char *name){
  size_t i;
  for(i = 0; i < rs->nsocs; i++) if( strcmp(rs->socs[i].name, name)==0 ) return (int)i;
  return -1;
}
#define FIND_MAP(rs, map, name) gr_ruleset_find(&(rs)->map, (name))
#define FIND_SOC(rs, map, name) soc_by_name((rs), (name))

#define FOR_NAMES(A, B, arr, n, map, KIND, ...) FOR_NAMES_BY(FIND_MAP, A, B, arr, n, map, KIND, __VA_ARGS__)
#define FOR_NAMES_BY(FIND, A, B, arr, n, map, KIND, ...) do{ \
    size_t i_; \
    for(i_ = 0; i_ < (A)->n; i_++){ \
      int j_ = FIND((B), map, (A)->arr[i_].name); \
      if( j_ < 0 ) add(out, GR_CH_REMOVED, KIND, (A)->arr[i_].name); \
      else { const size_t ia = i_; const size_t ib = (size_t)j_; pending p_ = { out, KIND, (A)->arr[i_].name, NULL }; pending *p = &p_; (void)ia; (void)ib; __VA_ARGS__ } \
    } \
    for(i_ = 0; i_ < (B)->n; i_++){ \
      if( FIND((A), map, (B)->arr[i_].name) < 0 ) add(out, GR_CH_ADDED, KIND, (B)->arr[i_].name); \
    } \
  }while(0)

static void names_list(pending *p, const char *what, const char *const *a, size_t na, const char *const *b, size_t nb){
  size_t i, k;
  for(i = 0; i < na; i++){
    for(k = 0; k < nb && strcmp(a[i], b[k])!=0; k++) ;
    if( k==nb ) pdetail(p, "%s \"%s\" removed", what, a[i]);
  }
  for(i = 0; i < nb; i++){
    for(k = 0; k < na && strcmp(b[i], a[k])!=0; k++) ;
    if( k==na ) pdetail(p, "%s \"%s\" added", what, b[i]);
  }
}

static int find_str(const char *const *v, size_t n, const char *s){
  size_t i;
  for(i = 0; i < n; i++) if( strcmp(v[i], s)==0 ) return (int)i;
  return -1;
}

static void option_diff(pending *p, const gr_ruleset *A, const gr_option *a, const gr_ruleset *B, const gr_option *b){
  size_t i, n;
  str_field(p, "key", a->key, b->key);
  if( a->type!=b->type ) pdetail(p, "type %s -> %s", gr_option_type_name(a->type), gr_option_type_name(b->type));
  str_field(p, "description", a->description, b->description);
  str_field(p, "deprecated", a->deprecated, b->deprecated);
  names_list(p, "alias", a->aliases, a->naliases, b->aliases, b->naliases);
  names_list(p, "value", a->values, a->nvalues, b->values, b->nvalues);
  for(i = 0; i < a->nvalues; i++){
    int k = find_str(b->values, b->nvalues, a->values[i]);
    char *what;
    if( k < 0 ) continue;
    what = gr_xasprintf("value \"%s\"", a->values[i]);
    support_field(p, what, A, &a->value_support[i], B, &b->value_support[k]);
    free(what);
  }
  if( a->has_range!=b->has_range || a->lo!=b->lo || a->hi!=b->hi ){
    char *x = a->has_range ? gr_xasprintf("%lld..%lld", (long long)a->lo, (long long)a->hi) : gr_xstrdup("(none)");
    char *y = b->has_range ? gr_xasprintf("%lld..%lld", (long long)b->lo, (long long)b->hi) : gr_xstrdup("(none)");
    pdetail(p, "range %s -> %s", x, y);
    free(x); free(y);
  }
  str_field(p, "pattern", a->pattern, b->pattern);
  n = a->ndefaults > b->ndefaults ? a->ndefaults : b->ndefaults;
  for(i = 0; i < n; i++){
    char *x = i < a->ndefaults ? expr_text(a->defaults[i].value) : gr_xstrdup("(none)");
    char *xc = i < a->ndefaults ? expr_text(a->defaults[i].cond) : gr_xstrdup("");
    char *y = i < b->ndefaults ? expr_text(b->defaults[i].value) : gr_xstrdup("(none)");
    char *yc = i < b->ndefaults ? expr_text(b->defaults[i].cond) : gr_xstrdup("");
    if( strcmp(x, y)!=0 || strcmp(xc, yc)!=0 ){
      pdetail(p, "default %zu: %s%s%s -> %s%s%s", i + 1, x, *xc ? " if " : "", xc, y, *yc ? " if " : "", yc);
    }
    free(x); free(xc); free(y); free(yc);
  }
  support_field(p, "", A, &a->support, B, &b->support);
}

static void branches_diff(pending *p, const gr_source *a, const gr_source *b){
  size_t i, n = a->nbranches > b->nbranches ? a->nbranches : b->nbranches;
  for(i = 0; i < n; i++){
    char *what = gr_xasprintf("branch %zu", i + 1);
    if( i >= a->nbranches ){
      char *c = expr_text(b->branches[i].cond), *v = expr_text(b->branches[i].value);
      pdetail(p, "%s added: %s%s%s", what, v, *c ? " if " : "", c);
      free(c); free(v);
    }else if( i >= b->nbranches ){
      pdetail(p, "%s removed", what);
    }else{
      char *w1 = gr_xasprintf("%s condition", what), *w2 = gr_xasprintf("%s value", what), *w3 = gr_xasprintf("%s reason", what);
      expr_field(p, w1, a->branches[i].cond, b->branches[i].cond);
      expr_field(p, w2, a->branches[i].value, b->branches[i].value);
      tpl_field(p, w3, &a->branches[i].because, &b->branches[i].because);
      free(w1); free(w2); free(w3);
    }
    free(what);
  }
}

static void cascade_text(gr_buf *b, const gr_ruleset *rs, const gr_slot *s){
  size_t i;
  for(i = 0; i < s->ncascade; i++) gr_buf_printf(b, "%s%s", i ? " > " : "", rs->sources[s->cascade[i]].name);
  gr_buf_cstr(b);
}

void gr_diff_rulesets(const gr_ruleset *A, const gr_ruleset *B, gr_diff *out){
  size_t i;
  if( A->nlayers <= 1 && B->nlayers <= 1 ){
    if( !streq(A->bundle_name, B->bundle_name) || !streq(A->bundle_version, B->bundle_version) || !streq(A->bundle_cann, B->bundle_cann) ){
      gr_change *c = add(out, GR_CH_CHANGED, "bundle", nz(B->bundle_name));
      if( !streq(A->bundle_name, B->bundle_name) ) detail(c, "name \"%s\" -> \"%s\"", nz(A->bundle_name), nz(B->bundle_name));
      if( !streq(A->bundle_version, B->bundle_version) ) detail(c, "version %s -> %s", nz(A->bundle_version), nz(B->bundle_version));
      if( !streq(A->bundle_cann, B->bundle_cann) ) detail(c, "CANN range \"%s\" -> \"%s\"", nz(A->bundle_cann), nz(B->bundle_cann));
    }
  }else{
    /* stacks: bundles matched by name */
    for(i = 0; i < A->nlayers; i++){
      size_t k;
      for(k = 0; k < B->nlayers && !streq(A->layers[i].name, B->layers[k].name); k++) ;
      if( k==B->nlayers ){ add(out, GR_CH_REMOVED, "bundle", nz(A->layers[i].name)); continue; }
      if( !streq(A->layers[i].version, B->layers[k].version) || !streq(A->layers[i].cann, B->layers[k].cann) ){
        gr_change *c = add(out, GR_CH_CHANGED, "bundle", nz(A->layers[i].name));
        if( !streq(A->layers[i].version, B->layers[k].version) ) detail(c, "version %s -> %s", nz(A->layers[i].version), nz(B->layers[k].version));
        if( !streq(A->layers[i].cann, B->layers[k].cann) ) detail(c, "CANN range \"%s\" -> \"%s\"", nz(A->layers[i].cann), nz(B->layers[k].cann));
      }
    }
    for(i = 0; i < B->nlayers; i++){
      size_t k;
      for(k = 0; k < A->nlayers && !streq(B->layers[i].name, A->layers[k].name); k++) ;
      if( k==A->nlayers ) add(out, GR_CH_ADDED, "bundle", nz(B->layers[i].name));
    }
  }
  /* capabilities and hardware properties: plain name lists */
  for(i = 0; i < A->ncaps; i++) if( gr_ruleset_find(&B->cap_map, A->cap_names[i]) < 0 ) add(out, GR_CH_REMOVED, "capability", A->cap_names[i]);
  for(i = 0; i < B->ncaps; i++) if( gr_ruleset_find(&A->cap_map, B->cap_names[i]) < 0 ) add(out, GR_CH_ADDED, "capability", B->cap_names[i]);
  for(i = 0; i < A->nhw; i++) if( gr_ruleset_find(&B->hw_map, A->hw_names[i]) < 0 ) add(out, GR_CH_REMOVED, "hardware", A->hw_names[i]);
  for(i = 0; i < B->nhw; i++) if( gr_ruleset_find(&A->hw_map, B->hw_names[i]) < 0 ) add(out, GR_CH_ADDED, "hardware", B->hw_names[i]);

  FOR_NAMES(A, B, products, nproducts, product_map, "product", {
    str_field(p, "title", A->products[ia].title, B->products[ib].title);
    str_field(p, "description", A->products[ia].description, B->products[ib].description);
    caps_field(p, A, A->products[ia].caps, B, B->products[ib].caps);
  });
  FOR_NAMES_BY(FIND_SOC, A, B, socs, nsocs, soc_map, "soc", {
    const gr_soc *x = &A->socs[ia], *y = &B->socs[ib];
    size_t h;
    if( !streq(A->products[x->product].name, B->products[y->product].name) )
      pdetail(p, "product %s -> %s", A->products[x->product].name, B->products[y->product].name);
    for(h = 0; h < A->nhw; h++){
      int k = gr_ruleset_find(&B->hw_map, A->hw_names[h]);
      if( k >= 0 && x->hw[h]!=y->hw[k] ) pdetail(p, "hardware %s %lld -> %lld", A->hw_names[h], (long long)x->hw[h], (long long)y->hw[k]);
    }
    caps_field(p, A, x->caps, B, y->caps);
    str_field(p, "description", x->description, y->description);
  });
  FOR_NAMES(A, B, options, noptions, option_map, "option", {
    option_diff(p, A, &A->options[ia], B, &B->options[ib]);
  });
  FOR_NAMES(A, B, modes, nmodes, mode_map, "mode", {
    str_field(p, "description", A->modes[ia].description, B->modes[ib].description);
    support_field(p, "", A, &A->modes[ia].support, B, &B->modes[ib].support);
  });
  FOR_NAMES(A, B, tables, ntables, table_map, "table", {
    const gr_table *x = &A->tables[ia], *y = &B->tables[ib];
    static const char *const folds[] = { "none", "lower", "upper" };
    size_t k;
    if( x->fold!=y->fold ) pdetail(p, "fold: %s -> %s", folds[x->fold], folds[y->fold]);
    for(k = 0; k < x->n; k++){
      uintptr_t at = (uintptr_t)gr_map_get(&y->keymap, x->keys[k]);
      if( at==0 ) pdetail(p, "entry \"%s\" removed", x->keys[k]);
      else if( x->is_map && y->is_map ){
        char *v1 = expr_text(x->vals[k]), *v2 = expr_text(y->vals[at - 1]);
        if( strcmp(v1, v2)!=0 ) pdetail(p, "entry \"%s\": %s -> %s", x->keys[k], v1, v2);
        free(v1); free(v2);
      }
    }
    for(k = 0; k < y->n; k++){
      if( gr_map_get(&x->keymap, y->keys[k])==NULL ){
        if( y->is_map ){ char *v = expr_text(y->vals[k]); pdetail(p, "entry \"%s\" added: %s", y->keys[k], v); free(v); }
        else pdetail(p, "entry \"%s\" added", y->keys[k]);
      }
    }
  });
  FOR_NAMES(A, B, slots, nslots, slot_map, "slot", {
    gr_buf c1, c2;
    gr_buf_init(&c1); gr_buf_init(&c2);
    cascade_text(&c1, A, &A->slots[ia]);
    cascade_text(&c2, B, &B->slots[ib]);
    if( strcmp(c1.p ? c1.p : "", c2.p ? c2.p : "")!=0 ) pdetail(p, "cascade %s -> %s", c1.p ? c1.p : "", c2.p ? c2.p : "");
    names_list(p, "value", A->slots[ia].values, A->slots[ia].nvalues, B->slots[ib].values, B->slots[ib].nvalues);
    str_field(p, "column", A->slots[ia].column, B->slots[ib].column);
    gr_buf_free(&c1); gr_buf_free(&c2);
  });
  FOR_NAMES(A, B, sources, nsources, source_map, "source", {
    if( !streq(A->slots[A->sources[ia].slot].name, B->slots[B->sources[ib].slot].name) )
      pdetail(p, "slot %s -> %s", A->slots[A->sources[ia].slot].name, B->slots[B->sources[ib].slot].name);
    branches_diff(p, &A->sources[ia], &B->sources[ib]);
  });
  FOR_NAMES(A, B, rules, nrules, rule_map, "rule", {
    const gr_rule *x = &A->rules[ia], *y = &B->rules[ib];
    if( x->sev!=y->sev ) pdetail(p, "severity %s -> %s", gr_severity_name(x->sev), gr_severity_name(y->sev));
    str_field(p, "code", x->code, y->code);
    if( x->scope!=y->scope ) pdetail(p, "scope changed");
    expr_field(p, "condition", x->br.cond, y->br.cond);
    tpl_field(p, "message", &x->msg, &y->msg);
  });
  /* relations have no names: compared by code */
  for(i = 0; i < A->nrelations; i++){
    size_t k;
    for(k = 0; k < B->nrelations && !streq(A->relations[i].code, B->relations[k].code); k++) ;
    if( k==B->nrelations ) add(out, GR_CH_REMOVED, "relation", nz(A->relations[i].code));
    else{
      pending p_ = { out, "relation", nz(A->relations[i].code), NULL };
      if( A->relations[i].sev!=B->relations[k].sev )
        pdetail(&p_, "severity %s -> %s", gr_severity_name(A->relations[i].sev), gr_severity_name(B->relations[k].sev));
      tpl_field(&p_, "message", &A->relations[i].msg, &B->relations[k].msg);
    }
  }
  for(i = 0; i < B->nrelations; i++){
    size_t k;
    for(k = 0; k < A->nrelations && !streq(B->relations[i].code, A->relations[k].code); k++) ;
    if( k==A->nrelations ) add(out, GR_CH_ADDED, "relation", nz(B->relations[i].code));
  }
}

/* ------------------------------------------------------------------ */
/* outcomes */

static char *decision_text(const gr_result *r, uint32_t node, int slot){
  const gr_decision *d = gr_dec(r, node, slot);
  const char *src = d->source==GR_SOURCE_HOOK ? "hook" : d->source >= 0 ? r->rs->sources[d->source].name : "none";
  return gr_xasprintf("%s (%s)", d->value ? d->value : "-", src);
}

/* The change is named by code and subject; the record keeps every field. */
static void keep_diag(gr_change *c, const gr_diag *d){
  gr_diag *x = gr_diags_add(&c->diag, d->sev, d->file, d->line, d->col, "%s", d->msg);
  gr_diag_set(&x->code, d->code);
  gr_diag_set(&x->node, d->node);
  gr_diag_set(&x->option, d->option);
  gr_diag_set(&x->rule, d->rule);
  free(c->name);
  c->name = gr_xasprintf("%s%s%s%s%s", d->code ? d->code : gr_severity_name(d->sev), d->node ? " node " : "", d->node ? d->node : "",
                         d->option ? " option " : "", d->option ? d->option : "");
}

static char *diag_key_loose(const gr_diag *d){   /* without the rule location, which moves between releases */
  return gr_xasprintf("%s %s%s%s%s%s: %s", gr_severity_name(d->sev), d->code ? d->code : "-",
                      d->node ? " node " : "", d->node ? d->node : "", d->option ? " option " : "", d->option ? d->option : "", d->msg);
}

void gr_diff_results(const gr_result *a, const gr_result *b, gr_diff *out){
  uint32_t n;
  size_t s, i, k;
  if( a->g && b->g ){
    uint32_t nn = gr_graph_nnodes(a->g) < gr_graph_nnodes(b->g) ? gr_graph_nnodes(a->g) : gr_graph_nnodes(b->g);
    const gr_node *nodes = gr_graph_nodes(a->g);
    for(n = 0; n < nn; n++){
      for(s = 0; s < a->rs->nslots; s++){
        int sb = gr_ruleset_find(&b->rs->slot_map, a->rs->slots[s].name);
        char *x, *y;
        if( sb < 0 ) continue;
        x = decision_text(a, n, (int)s);
        y = decision_text(b, n, sb);
        if( strcmp(x, y)!=0 ){
          gr_change *c = add(out, GR_CH_CHANGED, "node", gr_graph_str(a->g, nodes[n].name));
          detail(c, "%s", a->rs->slots[s].name);
          detail(c, "%s", b->rs->slots[sb].column);    /* the label the text shows, the new rule set's */
          c->old_value = x; c->new_value = y;
        }else{
          free(x); free(y);
        }
      }
    }
  }
  /* diagnostics: compared without the rule location (so moving a rule is no change) */
  {
    char **ka = gr_xcalloc(a->diags.n + 1, sizeof *ka), **kb = gr_xcalloc(b->diags.n + 1, sizeof *kb);
    uint8_t *used = gr_xcalloc(b->diags.n + 1, 1);
    for(i = 0; i < a->diags.n; i++) ka[i] = diag_key_loose(&a->diags.v[i]);
    for(i = 0; i < b->diags.n; i++) kb[i] = diag_key_loose(&b->diags.v[i]);
    for(i = 0; i < a->diags.n; i++){
      for(k = 0; k < b->diags.n && (used[k] || strcmp(ka[i], kb[k])!=0); k++) ;
      if( k < b->diags.n ) used[k] = 1;
      else keep_diag(add(out, GR_CH_REMOVED, "diagnostic", ""), &a->diags.v[i]);
    }
    for(k = 0; k < b->diags.n; k++){
      if( !used[k] ) keep_diag(add(out, GR_CH_ADDED, "diagnostic", ""), &b->diags.v[k]);
    }
    for(i = 0; i < a->diags.n; i++) free(ka[i]);
    for(i = 0; i < b->diags.n; i++) free(kb[i]);
    free(ka); free(kb); free(used);
  }
}
