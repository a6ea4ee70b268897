/*
** text_report.c: the text report of `gerules eval`, the one a person reads.
** It answers "what will GE do differently because of my options": after the
** header (which says what "the defaults" are: the same model, chip, run mode
** and entry point with no option and no hook, evaluated the same way), the
** diagnostics and the summary line, it gives
**   - a one-line headline when most nodes take one value of a slot the rule
**     set names (report_mostly: a mostly dynamic model), naming the model
**     inputs with unknown dims;
**   - the changes grouped by op type and outcome, "slot: old -> new (why)",
**     with counts;
**   - the changed nodes, one per row, with old -> new for every slot that
**     changed ("--all-nodes" lists every node with every slot instead).
** A slot is shown by its label (its `column "..."` in the rules, default its
** name) in every header and cell; the rule tables below are keyed by name.
** Source ids become plain words (rules table report_source_words; the JSON
** report keeps the ids); a slot that does not apply to an op type
** (report_not_applicable: no tiling for a Data node) shows nothing. Node
** names are cut in the middle so the node's own tail stays, at a width from
** the terminal (gr_report_opts.width), and two rows never show one label for
** two nodes.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "report/gears.h"
#include "model/qualname.h"

#define NAME_CAP GR_TEXT_NAME_CAP
#define TYPE_CAP GR_TEXT_TYPE_CAP
#define TEXT_CAP GR_TEXT_CELL_CAP
#define CELL_CAP 120      /* a slot cell: value, source and a "no effect" reason */
#define CHANGE_CAP 400    /* a node's changes: every changed slot, old -> new */
#define NAME_MIN 20       /* the narrowest name column a terminal width gives */

/* The rule tables this report reads (rules/report.rules). */
#define T_WORDS "report_source_words"
#define T_NA "report_not_applicable"
#define T_MOSTLY "report_mostly"
#define T_INPUTS "report_input_ops"



static int set_has(const gr_table *t, const char *key){
  return t && !t->is_map && gr_map_get(&t->keymap, key)!=NULL;
}

/* Element i of a list expression, as a string, or NULL. */
static const char *list_str(const gr_expr *e, size_t i){
  if( e==NULL || e->op!=GR_E_LIST ) return NULL;
  for(e = e->a; e && i; e = e->next) i--;
  return e && e->op==GR_E_STR ? e->s : NULL;
}

typedef struct text_ctx {
  gr_result *r;
  const gr_result *base;
  const gr_ruleset *rs;
  const gr_graph *g;
  const char **words;     /* per source: its plain words */
  uint8_t *na;            /* [slot * ntypes + type]: the slot does not apply */
  size_t ntypes, nslots;
  gr_buf tmp;
} text_ctx;

static const char *src_words(const text_ctx *x, int32_t source){
  if( source==GR_SOURCE_HOOK ) return "hook";
  return source >= 0 ? x->words[source] : NULL;
}

static int not_applicable(const text_ctx *x, uint32_t n, size_t s){
  return x->na[s * x->ntypes + gr_graph_nodes(x->g)[n].type];
}

static void ctx_init(text_ctx *x, gr_result *r, const gr_result *base){
  const gr_ruleset *rs = r->rs;
  const gr_table *w = gr_ruleset_table(rs, T_WORDS), *na = gr_ruleset_table(rs, T_NA);
  size_t i, s, t;
  memset(x, 0, sizeof *x);
  x->r = r; x->base = base; x->rs = rs; x->g = r->g;
  x->nslots = rs->nslots;
  x->ntypes = x->g ? gr_graph_ntypes(x->g) : 0;
  x->words = gr_xcalloc(rs->nsources + 1, sizeof *x->words);
  for(i = 0; i < rs->nsources; i++){
    const gr_expr *e = gr_table_value(w, rs->sources[i].name);
    x->words[i] = e && e->op==GR_E_STR ? e->s : rs->sources[i].name;
  }
  x->na = gr_xcalloc(x->nslots * x->ntypes + 1, 1);
  for(s = 0; s < x->nslots; s++){
    const gr_expr *e = gr_table_value(na, rs->slots[s].name);
    const char *ty;
    if( e==NULL ) continue;
    for(i = 0; (ty = list_str(e, i))!=NULL; i++)
      for(t = 0; t < x->ntypes; t++)
        if( strcmp(gr_graph_type_name(x->g, (uint32_t)t), ty)==0 ) x->na[s * x->ntypes + t] = 1;
  }
  gr_buf_init(&x->tmp);
}

static void ctx_free(text_ctx *x){
  free(x->words); free(x->na);
  gr_buf_free(&x->tmp);
}

/* ------------------------------------------------------------------ names */

/* Appends s, made printable, cut in the middle when it is wider than
** head + 3 + tail columns: its first head columns, "...", and its last tail
** columns, which name the node itself (a long inlined prefix is what the
** nodes of a subgraph share). head 0 and tail 0: never cut. */
static void cut_middle(gr_buf *b, const char *s, size_t head, size_t tail){
  gr_buf full;
  size_t w, i, cols, from;
  gr_buf_init(&full);
  w = gr_buf_add_printable(&full, s ? s : "-", s ? strlen(s) : 1, 0);
  if( (head==0 && tail==0) || w <= head + 3 + tail ){
    gr_buf_add(b, full.p, full.n);
    gr_buf_free(&full);
    return;
  }
  /* the escaped text is printable ASCII and whole UTF-8 sequences: one column per code point */
  for(i = 0, cols = 0; i < full.n && cols < head; i++) if( ((unsigned char)full.p[i] & 0xc0)!=0x80 ) cols++;
  while( i < full.n && ((unsigned char)full.p[i] & 0xc0)==0x80 ) i++;
  gr_buf_add(b, full.p, i);
  gr_buf_adds(b, "...");
  for(from = full.n, cols = 0; from > 0; from--)
    if( ((unsigned char)full.p[from - 1] & 0xc0)!=0x80 ){ if( cols==tail ) break; cols++; }
  gr_buf_add(b, full.p + from, full.n - from);
  gr_buf_free(&full);
}

/* The head and tail widths of a cut at cap columns: a third, two thirds. */
static void cap_split(size_t cap, size_t *head, size_t *tail){
  if( cap==0 ){ *head = *tail = 0; return; }
  if( cap < 8 ) cap = 8;
  *head = cap / 3 - 1;
  *tail = cap - 3 - *head;
}

static const char *full_name(const text_ctx *x, uint32_t n, gr_buf *b){
  return gr_graph_ngraphs(x->g) > 1 ? gr_node_qname(x->g, n, b) : gr_graph_str(x->g, gr_graph_nodes(x->g)[n].name);
}

/* The labels of the nodes shown (show[n]), cut at cap, and never the same
** label for two nodes: two nodes whose cut labels clash are cut again with
** the head or the tail (whichever is shorter) reaching past where their
** names differ (encoder.0 and encoder.1; the then or else branch), then not
** at all, and nodes whose
** whole names are the same get " #N" (their place in the file). labels[n]
** is set for shown nodes; the texts live in arena. */
#define LABEL_ROUNDS 6     /* 1-4 widen, 5 whole names, 6 numbered */
static void make_labels(const text_ctx *x, const uint8_t *show, size_t cap, const char **labels, gr_arena *arena){
  uint32_t n, nn = gr_graph_nnodes(x->g);
  gr_buf qa, qb, lb;
  gr_map seen;
  uint8_t *redo = gr_xcalloc(nn + 1, 1);
  size_t *head = gr_xcalloc(nn + 1, sizeof *head), *tail = gr_xcalloc(nn + 1, sizeof *tail), h0, t0;
  int round;
  gr_buf_init(&qa); gr_buf_init(&qb); gr_buf_init(&lb);
  cap_split(cap, &h0, &t0);
  memset(redo, 1, nn);
  for(round = 0; round <= LABEL_ROUNDS; round++){
    int any = 0;
    gr_map_init(&seen);
    for(n = 0; n < nn; n++){
      void *prev;
      if( !show[n] ) continue;
      if( redo[n] ){
        lb.n = 0;
        if( round==0 ) cut_middle(&lb, full_name(x, n, &qa), h0, t0);
        else if( round < LABEL_ROUNDS - 1 && cap ) cut_middle(&lb, full_name(x, n, &qa), head[n] > h0 ? head[n] : h0, tail[n] > t0 ? tail[n] : t0);
        else cut_middle(&lb, full_name(x, n, &qa), 0, 0);
        if( round==LABEL_ROUNDS ) gr_buf_printf(&lb, " #%u", n + 1);
        labels[n] = gr_arena_strndup(arena, lb.p ? lb.p : "", lb.n);
        redo[n] = 0;
      }
      if( (prev = gr_map_put(&seen, labels[n], (void *)(uintptr_t)(n + 1)))!=NULL ){
        uint32_t other = (uint32_t)(uintptr_t)prev - 1;
        const char *a = full_name(x, n, &qa), *b = full_name(x, other, &qb);
        size_t la = strlen(a), lbn = strlen(b), pre = 0, suf = 0;
        while( a[pre] && a[pre]==b[pre] ) pre++;
        while( suf < la && suf < lbn && a[la - 1 - suf]==b[lbn - 1 - suf] ) suf++;
        /* widen the cheaper end a few columns past where the names differ */
        if( suf <= pre ){
          if( suf + 4 > tail[n] ) tail[n] = suf + 4;
          if( suf + 4 > tail[other] ) tail[other] = suf + 4;
        }else{
          if( pre + 4 > head[n] ) head[n] = pre + 4;
          if( pre + 4 > head[other] ) head[other] = pre + 4;
        }
        redo[n] = redo[other] = 1;
        any = 1;
      }
    }
    gr_map_free(&seen);
    if( !any ) break;
  }
  free(redo); free(head); free(tail);
  gr_buf_free(&qa); gr_buf_free(&qb); gr_buf_free(&lb);
}

/* ------------------------------------------------------------------ cells */

/* " (no effect: why)" when the decided value does not take effect. */
static void add_no_effect(gr_buf *b, gr_result *r, uint32_t n, size_t s){
  size_t at;
  if( !r->rs->slots[s].nnoeffect || gr_dec(r, n, s)->value==NULL ) return;
  at = b->n;
  gr_buf_adds(b, " (no effect: ");
  if( gr_decision_effect(r, n, s, b) ) b->n = at;
  else gr_buf_adds(b, ")");
}

/* A slot's cell of the every-node table: "value (source words)", and
** "(no effect: why)"; nothing where the slot does not apply. */
static void cell_text(gr_buf *b, const text_ctx *x, uint32_t n, size_t s){
  const gr_decision *d = gr_dec(x->r, n, s);
  const char *w;
  if( not_applicable(x, n, s) ) return;
  gr_buf_adds(b, d->value ? d->value : "-");
  if( (w = src_words(x, d->source))!=NULL ) gr_buf_printf(b, " (%s)", w);
  add_no_effect(b, x->r, n, s);
}

static int slot_changed(const text_ctx *x, uint32_t n, size_t s){
  const gr_decision *a = gr_dec(x->r, n, s), *b = gr_dec(x->base, n, s);
  if( not_applicable(x, n, s) ) return 0;
  return (a->value==NULL)!=(b->value==NULL) || (a->value && strcmp(a->value, b->value)) || a->source!=b->source;
}

/* Why the default's source no longer decides: the false conjunct of its
** winning branch, evaluated for this node under the user's options. */
static void lost_because(gr_buf *b, const text_ctx *x, uint32_t n, const gr_decision *old){
  const gr_branch *br;
  gr_env env;
  size_t i;
  if( old->source < 0 ) return;
  br = &x->rs->sources[old->source].branches[old->branch];
  gr_env_init(&env, x->r);
  env.node = n;
  env.type_name = gr_graph_type_name(x->g, gr_graph_nodes(x->g)[n].type);
  for(i = 0; i < br->nconj; i++){
    if( !gr_eval_cond(&env, br->conj[i]) ){
      gr_buf_printf(b, " (%s needs: ", x->words[old->source]);
      gr_expr_print(b, br->conj[i]);
      gr_buf_adds(b, ")");
      return;
    }
  }
}

/* "slot: old (words) -> new (words)" for a changed slot; the value alone
** (and its "no effect") for an unchanged one. */
static void change_text(gr_buf *b, const text_ctx *x, uint32_t n, size_t s, int changed){
  const gr_decision *a = gr_dec(x->r, n, s), *o = gr_dec(x->base, n, s);
  const char *wa = src_words(x, a->source), *wo = src_words(x, o->source);
  gr_buf_printf(b, "%s: ", x->rs->slots[s].column);
  if( !changed ){
    gr_buf_adds(b, a->value ? a->value : "-");
    add_no_effect(b, x->r, n, s);
    return;
  }
  if( a->value && o->value && strcmp(a->value, o->value)==0 ){
    /* the same value from another source */
    gr_buf_printf(b, "%s (%s -> %s)", a->value, wo ? wo : "-", wa ? wa : "-");
    add_no_effect(b, x->r, n, s);
    return;
  }
  gr_buf_adds(b, o->value ? o->value : "-");
  if( wo ) gr_buf_printf(b, " (%s)", wo);
  gr_buf_adds(b, " -> ");
  gr_buf_adds(b, a->value ? a->value : "-");
  if( wa ) gr_buf_printf(b, " (%s)", wa);
  else lost_because(b, x, n, o);
  add_no_effect(b, x->r, n, s);
}

/* ------------------------------------------------------------------ sections */

/* One option input of the header: NAME=VALUE, the option's name for a
** known spelling. */
static void put_input(gr_out *o, const gr_ruleset *rs, const gr_input *in){
  gr_out_text(o, in->option >= 0 ? rs->options[in->option].name : in->key, 0, TEXT_CAP);
  gr_out_putc(o, '=');
  gr_out_text(o, in->value, 0, TEXT_CAP);
}

static void header(gr_out *o, gr_result *r, const gr_report_opts *ro, int baseline){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  size_t i, ngiven = 0, shown = 0;
  if( rs->nlayers > 1 ){
    /* the whole stack, base first */
    size_t li;
    gr_out_printf(o, "gerules %s: rules", PACKAGE_VERSION);
    for(li = 0; li < rs->nlayers; li++){
      const gr_layer *L = &rs->layers[li];
      gr_out_printf(o, "%s %s%s%s (%s)", li ? " +" : "", L->name ? L->name : "?", L->version ? " " : "", L->version ? L->version : "", L->root);
    }
    gr_out_putc(o, '\n');
  }else
    gr_out_printf(o, "gerules %s: rules %s%s%s (%s)\n", PACKAGE_VERSION, rs->bundle_name ? rs->bundle_name : "?",
                  rs->bundle_version ? " " : "", rs->bundle_version ? rs->bundle_version : "", ro->rules_path);
  gr_out_printf(o, "chip:  %s, %s (%s), run mode %s, entry point %s\n", r->soc_name, rs->products[r->product].title,
                rs->products[r->product].name, r->run_mode, r->entry_point);
  if( g ){
    gr_out_puts(o, "graph: "); gr_out_text(o, ro->graph_path, 0, 0);
    if( gr_graph_model_name(g)[0] ){ gr_out_puts(o, ", model \""); gr_out_text(o, gr_graph_model_name(g), 0, TEXT_CAP); gr_out_puts(o, "\""); }
    gr_out_printf(o, ", %u node%s in %u graph%s\n", gr_graph_nnodes(g), gr_graph_nnodes(g)==1 ? "" : "s",
                  gr_graph_ngraphs(g), gr_graph_ngraphs(g)==1 ? "" : "s");
  }
  for(i = 0; i < r->ninputs; i++) if( r->inputs[i].effective && r->inputs[i].valid ) ngiven++;
  gr_out_printf(o, "options: %zu given", ngiven);
  for(i = 0; i < r->ninputs; i++){
    const gr_input *in = &r->inputs[i];
    if( !(in->effective && in->valid) ) continue;
    gr_out_puts(o, shown++ ? ", " : " (");
    put_input(o, rs, in);
  }
  gr_out_puts(o, ngiven ? ")" : "");
  /* the other options the user set (an invalid value, a value GE refuses
  ** on this chip, a later repeat's earlier value, an option another one
  ** excludes): each has its diagnostic, and the header says they are not
  ** used. Names no option models (a typo, an ATC flag such as --output)
  ** have their own diagnostics and are not listed. */
  shown = 0;
  for(i = 0; i < r->ninputs; i++){
    const gr_input *in = &r->inputs[i];
    if( (in->effective && in->valid) || in->option < 0 ) continue;
    gr_out_puts(o, shown++ ? ", " : "; not in effect: ");
    put_input(o, rs, in);
  }
  gr_out_putc(o, '\n');
  if( baseline )
    gr_out_puts(o, "defaults: the same model, chip, run mode and entry point with no option given; \"old -> new\" compares with them\n");
}

/* The headline of a model that runs mostly one way (report_mostly). */
static void headline(gr_out *o, const text_ctx *x){
  const gr_table *m = gr_ruleset_table(x->rs, T_MOSTLY), *inputs = gr_ruleset_table(x->rs, T_INPUTS);
  const gr_graph *g = x->g;
  uint32_t n, nn = gr_graph_nnodes(g);
  size_t s, k;
  if( m==NULL || !m->is_map ) return;
  for(k = 0; k < m->n; k++){
    const char *value = list_str(m->vals[k], 0), *advice = list_str(m->vals[k], 1);
    uint32_t total = 0, hit = 0, nin = 0;
    for(s = 0; s < x->nslots && strcmp(x->rs->slots[s].name, m->keys[k]); s++){}
    if( s==x->nslots || value==NULL ) continue;
    for(n = 0; n < nn; n++){
      const gr_node *nd = &gr_graph_nodes(g)[n];
      const char *v = gr_dec(x->r, n, s)->value;
      size_t t;
      int skip = set_has(inputs, gr_graph_type_name(g, nd->type));
      for(t = 0; t < x->nslots && !skip; t++) skip = not_applicable(x, n, t);
      if( skip ) continue;
      total++;
      if( v && strcmp(v, value)==0 ) hit++;
    }
    if( total==0 || (uint64_t)hit * 2 <= total ) continue;
    gr_out_printf(o, "\nmostly %s: %u of %u nodes run with %s %s", value, hit, total, x->rs->slots[s].column, value);
    for(n = 0; n < nn; n++){
      const gr_node *nd = &gr_graph_nodes(g)[n];
      if( !(nd->flags & GR_NODE_DYNAMIC) || !set_has(inputs, gr_graph_type_name(g, nd->type)) || nd->graph!=0 ) continue;
      if( nin < 8 ){
        gr_out_puts(o, nin ? ", " : "; model inputs with unknown dims: ");
        gr_out_text(o, gr_graph_str(g, nd->name), 0, NAME_CAP);
      }
      nin++;
    }
    if( nin > 8 ) gr_out_printf(o, " and %u more", nin - 8);
    if( nin && advice ){ gr_out_puts(o, ": "); gr_out_puts(o, advice); }
    gr_out_puts(o, "\n");
  }
}

/* The name column's cap from the terminal's width. */
static size_t name_cap(const gr_report_opts *ro){
  size_t w;
  if( ro->width < 0 ) return 0;
  if( ro->width==0 ) return NAME_CAP;
  w = (size_t)ro->width / 3;
  return w < NAME_MIN ? NAME_MIN : w;
}

typedef struct group { const char *key; uint32_t first, count; } group;

static int group_cmp(const void *a, const void *b){
  const group *x = a, *y = b;
  if( x->count!=y->count ) return x->count > y->count ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* What GE does differently, by op type and outcome: one line per group of
** nodes with the same type and the same changes. */
static void by_type(gr_out *o, text_ctx *x, const uint8_t *show){
  const gr_graph *g = x->g;
  uint32_t n, nn = gr_graph_nnodes(g);
  gr_map index;
  gr_arena arena;
  gr_buf b;
  group *v = NULL;
  size_t nv = 0, cap = 0, i, s, wlead = 0;
  gr_map_init(&index);
  gr_arena_init(&arena);
  gr_buf_init(&b);
  for(n = 0; n < nn; n++){
    const gr_node *nd = &gr_graph_nodes(g)[n];
    void *k;
    int first = 1;
    if( !show[n] ) continue;
    b.n = 0;
    gr_buf_add_printable(&b, gr_graph_type_name(g, nd->type), strlen(gr_graph_type_name(g, nd->type)), TYPE_CAP);
    gr_buf_addc(&b, '\t');
    for(s = 0; s < x->nslots; s++){
      if( not_applicable(x, n, s) ) continue;
      if( !first ) gr_buf_adds(&b, "  ");
      first = 0;
      change_text(&b, x, n, s, slot_changed(x, n, s));
    }
    if( (k = gr_map_get(&index, gr_buf_cstr(&b)))!=NULL ){ v[(size_t)(uintptr_t)k - 1].count++; continue; }
    if( nv==cap ){ cap = cap ? cap * 2 : 32; v = gr_xrealloc(v, cap * sizeof *v); }
    v[nv].key = gr_arena_strndup(&arena, b.p, b.n);
    v[nv].first = n; v[nv].count = 1;
    gr_map_put(&index, v[nv].key, (void *)(uintptr_t)(nv + 1));
    nv++;
  }
  if( nv ){
    qsort(v, nv, sizeof *v, group_cmp);
    for(i = 0; i < nv; i++){
      b.n = 0;
      gr_buf_printf(&b, "%.*s x%u", (int)(strchr(v[i].key, '\t') - v[i].key), v[i].key, v[i].count);
      if( b.n > wlead ) wlead = b.n;
    }
    gr_out_puts(o, "\nwhat GE does differently, by op type (old -> new):\n");
    for(i = 0; i < nv; i++){
      const char *tab = strchr(v[i].key, '\t');
      b.n = 0;
      gr_buf_printf(&b, "%.*s x%u", (int)(tab - v[i].key), v[i].key, v[i].count);
      gr_out_write(o, b.p, b.n);
      for(; b.n < wlead; b.n++) gr_out_putc(o, ' ');
      gr_out_puts(o, "  ");
      gr_out_text(o, tab + 1, 0, CHANGE_CAP);
      gr_out_putc(o, '\n');
    }
  }
  free(v);
  gr_map_free(&index);
  gr_arena_free(&arena);
  gr_buf_free(&b);
}

/* A table of the shown nodes: NODE, TYPE and either every slot's cell
** (changes 0) or the changed slots, old -> new. */
static void node_table(gr_out *o, text_ctx *x, const uint8_t *show, int changes, const gr_report_opts *ro){
  const gr_graph *g = x->g;
  uint32_t n, nn = gr_graph_nnodes(g);
  size_t s, w, wname = 4, wtype = 4, ncols = changes ? 1 : x->nslots;
  size_t *wv = gr_xcalloc(ncols + 1, sizeof *wv);
  const char **labels = gr_xcalloc(nn + 1, sizeof *labels);
  gr_arena arena;
  gr_buf b;
  gr_arena_init(&arena);
  gr_buf_init(&b);
  make_labels(x, show, name_cap(ro), labels, &arena);
  if( changes ) wv[0] = 7;
  else for(s = 0; s < ncols; s++) wv[s] = strlen(x->rs->slots[s].column);
  for(n = 0; n < nn; n++){
    const gr_node *nd = &gr_graph_nodes(g)[n];
    if( !show[n] ) continue;
    if( (w = gr_text_width(labels[n], 0)) > wname ) wname = w;
    if( (w = gr_text_width(gr_graph_type_name(g, nd->type), TYPE_CAP)) > wtype ) wtype = w;
    if( changes ) continue;
    for(s = 0; s < ncols; s++){
      b.n = 0;
      cell_text(&b, x, n, s);
      if( (w = gr_text_width(gr_buf_cstr(&b), CELL_CAP)) > wv[s] ) wv[s] = w;
    }
  }
  gr_out_printf(o, "%-*s  %-*s", (int)wname, "NODE", (int)wtype, "TYPE");
  if( changes ) gr_out_puts(o, "  CHANGES");
  else for(s = 0; s < ncols; s++) gr_out_printf(o, "  %-*s", s + 1 < ncols ? (int)wv[s] : 0, x->rs->slots[s].column);
  gr_out_puts(o, "\n");
  for(n = 0; n < nn; n++){
    const gr_node *nd = &gr_graph_nodes(g)[n];
    if( !show[n] ) continue;
    gr_out_text(o, labels[n], wname, 0);
    gr_out_puts(o, "  ");
    gr_out_text(o, gr_graph_type_name(g, nd->type), changes || ncols ? wtype : 0, TYPE_CAP);
    if( changes ){
      int first = 1;
      b.n = 0;
      for(s = 0; s < x->nslots; s++){
        if( !slot_changed(x, n, s) ) continue;
        if( !first ) gr_buf_adds(&b, "  ");
        first = 0;
        change_text(&b, x, n, s, 1);
      }
      gr_out_puts(o, "  ");
      gr_out_text(o, gr_buf_cstr(&b), 0, CHANGE_CAP);
    }else for(s = 0; s < ncols; s++){
      b.n = 0;
      cell_text(&b, x, n, s);
      gr_out_puts(o, "  ");
      gr_out_text(o, b.n ? gr_buf_cstr(&b) : "", s + 1 < ncols ? wv[s] : 0, CELL_CAP);
    }
    gr_out_puts(o, "\n");
  }
  free(wv);
  free(labels);
  gr_arena_free(&arena);
  gr_buf_free(&b);
}

void gr_report_text(gr_out *o, gr_result *r, const gr_result *baseline, const gr_report_opts *ro){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  gr_buf b;
  size_t i;
  gr_buf_init(&b);
  if( !ro->quiet ) header(o, r, ro, baseline!=NULL && !ro->all_nodes);
  if( r->diags.n ){
    if( !ro->quiet ) gr_out_puts(o, "\n");
    for(i = 0; i < r->diags.n; i++){
      b.n = 0;
      gr_report_diag(&b, &r->diags.v[i], ro);
      gr_out_write(o, b.p, b.n);
    }
  }
  gr_out_printf(o, "%ssummary: %u nodes, %zu error%s, %zu warning%s, %zu note%s\n", ro->quiet ? "" : "\n", g ? gr_graph_nnodes(g) : 0,
                r->diags.count[GR_SEV_ERROR], r->diags.count[GR_SEV_ERROR]==1 ? "" : "s",
                r->diags.count[GR_SEV_WARNING], r->diags.count[GR_SEV_WARNING]==1 ? "" : "s",
                r->diags.count[GR_SEV_NOTE], r->diags.count[GR_SEV_NOTE]==1 ? "" : "s");
  if( g && rs->nslots && !ro->quiet ){
    text_ctx x;
    uint32_t n, nn = gr_graph_nnodes(g), shown = 0;
    uint8_t *show = gr_xcalloc(nn + 1, 1);
    int diff = baseline!=NULL && !ro->all_nodes;
    size_t s;
    ctx_init(&x, r, diff ? baseline : NULL);
    headline(o, &x);
    for(n = 0; n < nn; n++){
      int d = !diff;
      for(s = 0; s < rs->nslots && !d; s++) d = slot_changed(&x, n, s);
      if( d ){ show[n] = 1; shown++; }
    }
    if( diff ){
      by_type(o, &x, show);
      gr_out_printf(o, "\n%u node%s differ%s from the defaults (--all-nodes lists every node):\n", shown, shown==1 ? "" : "s", shown==1 ? "s" : "");
    }else gr_out_printf(o, "\nall %u nodes:\n", nn);
    if( shown ) node_table(o, &x, show, diff, ro);
    free(show);
    ctx_free(&x);
  }
  if( g && ro->gears && !ro->quiet ) gr_report_gears_text(o, r, ro->gears);
  gr_buf_free(&b);
}
