/*
** html.c: `gerules eval --format html`: one self-contained page (no network:
** the script, the style and the data are inline). The page template is
** src/report/html_page.html, compiled in as a C string at build time
** (html_page.h, made by the awk script in Makefile.am); this file writes
** the data it shows into it as one JSON document:
**
**   report   the JSON report of doc/json-schema.md without provenance
**            (header, options, nodes, diagnostics, summary; with ATC's
**            gears its gears member, from which the page's gear list
**            shows each gear's decisions), its nodes in a shorter form:
**            node_names[i] is node i's name, node_tail[i] the index in
**            node_tails[] of the rest of its object (the page puts each
**            node back together; nodes of one op type and outcome share
**            one tail, so a 10,000-node page shrinks from 4.3 MB to about
**            1 MB and its browser parses a quarter of the bytes)
**   slots    the decision slots: per slot its name (the key of its node
**            members), its column label (what the page shows: the rules'
**            `column`, default the name) and the colour of each value
**            (view.h: the same colours as the DOT report)
**   colour_by  the slot the page colours by first (--colour-by; 0: the first)
**   mark_slot  the slot the page marks by default with a band along each
**            node's left edge (view.h GR_VIEW_MARK; -1 with fewer slots)
**   layout   per node its layer and column (layout.h: each graph from
**            column 0), and the edges between drawn nodes
**   graphs   per graph its name and parent node (-1: the root graph or a
**            graph no op lists); gidx: per node its graph's index
**   fold     per node 1 when the page draws it inside its consumers (an
**            input-less node of an op type of the rule set's table
**            report_folded_ops, with a consumer): no box, no edge
**   io       per node its tensors and attributes, deduplicated: strs[] are
**            strings, node[i] = [inputs, outputs, attributes, producers]:
**            inputs and outputs are indexes of "before\tafter\tshape\t
**            layout" strings (shape "[d0,d1]", "[]" a scalar, "unknown"
**            when the reader could not tell it) (the dtype before and after GE's precision
**            conversion as the dtype judge decided; before only when the
**            judge did not run), attributes of "key\tvalue", producers the
**            node index feeding each data input (-1: none); and the
**            index of the text --explain prints after the chain ("dtype
**            and engine judge:" and its steps), -1 when the judge did not run
**   dynamic  per node 1 when a shape has a dimension below 0
**   line     per node the line of its op in the model file
**   explain  per node its --explain chain (report.h's gr_explain_walk),
**            deduplicated twice: rows[] are arrays of string indexes into
**            strs[], chains[] are arrays of row indexes, node[i] is the
**            index of node i's chain (nodes of one op type and outcome
**            share one: a list per node made half of a 10K-node page)
**
** The JSON is written with the one JSON writer (out.h's gr_jw, compact,
** broken into lines where the page's data always was) in memory, and every
** '<' is written as \u003c, so no
** string of the model can close the <script> element it sits in.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/html.h"
#include "report/layout.h"
#include "report/report.h"
#include "report/view.h"
#include "report/html_page.h"
#include "eval/judge.h"

/* The explain chains are left out above this many nodes (the page then
** says how to get one with --explain): they grow the page by a chain index
** a node plus the distinct chains, and a page of that size no longer loads
** quickly anyway. */
#define EXPLAIN_MAX_NODES 200000u

typedef struct xstate {
  gr_strpool strs;              /* every string of the rows */
  gr_strpool rows;              /* a row's text "[k,s,...]" -> row id */
  gr_buf key, tmp;
  GR_VEC(uint32_t) ids;         /* rows of the current node */
} xstate;

static long str_id(xstate *x, const char *s){
  if( s==NULL ) return -1;
  return (long)gr_strpool_intern(&x->strs, s, strlen(s));
}

static void row_cb(void *ud, const gr_explain_row *r){
  xstate *x = ud;
  long input = -1;
  uint32_t id;
  if( r->input ){
    x->tmp.n = 0;
    if( r->input->line ) gr_buf_printf(&x->tmp, "%s:%u", r->input->file, r->input->line);
    else gr_buf_adds(&x->tmp, r->input->file ? r->input->file : "");
    input = str_id(x, gr_buf_cstr(&x->tmp));
  }
  x->key.n = 0;
  gr_buf_printf(&x->key, "[%d,%zu,%ld,%zu,%zu,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld]", r->kind, r->slot, str_id(x, r->source),
                r->place, r->branch, str_id(x, r->status), str_id(x, r->value), input, str_id(x, r->rule),
                str_id(x, r->reason), str_id(x, r->failed), str_id(x, r->replaced), str_id(x, r->no_effect));
  id = gr_strpool_intern(&x->rows, x->key.p, x->key.n);
  gr_vec_push(x->ids, id - 1);       /* id 0 is the pool's empty string */
}

/* Writes b to o with every '<' escaped (b holds JSON: '<' only occurs in strings). */
static void put_script_safe(gr_out *o, const gr_buf *b){
  const char *p = b->p, *end = b->p + b->n, *lt;
  while( p < end && (lt = memchr(p, '<', (size_t)(end - p)))!=NULL ){
    gr_out_write(o, p, (size_t)(lt - p));
    gr_out_write(o, "\\u003c", 6);
    p = lt + 1;
  }
  if( p < end ) gr_out_write(o, p, (size_t)(end - p));
}

static void html_text(gr_out *o, const char *s){
  for(; s && *s; s++){
    switch( *s ){
      case '<': gr_out_puts(o, "&lt;"); break;
      case '>': gr_out_puts(o, "&gt;"); break;
      case '&': gr_out_puts(o, "&amp;"); break;
      case '"': gr_out_puts(o, "&quot;"); break;
      default: gr_out_putc(o, *s);
    }
  }
}

/* A column: an integer when it is one, else with one decimal. */
static void jw_column(gr_jw *w, double x){
  if( x==(double)(int64_t)x ){ gr_jw_int(w, (int64_t)x); return; }
  gr_jw_value(w);
  gr_out_printf(w->o, "%.1f", x);
}

static void write_slots(gr_jw *w, const gr_ruleset *rs, const char *colour_by){
  size_t s, k;
  int ck = colour_by ? gr_ruleset_find_slot(rs, colour_by) : -1;
  gr_jw_key(w, "slots"); gr_jw_arr(w);
  for(s = 0; s < rs->nslots; s++){
    const gr_slot *sl = &rs->slots[s];
    size_t nv;
    gr_view_values(rs, s, &nv);
    gr_jw_obj(w);
    gr_jw_key(w, "name"); gr_jw_str(w, sl->name);
    gr_jw_key(w, "column"); gr_jw_str(w, sl->column);
    gr_jw_key(w, "source_key"); gr_jw_str(w, sl->report_key);
    gr_jw_key(w, "description"); gr_jw_str(w, sl->description);
    gr_jw_key(w, "colours"); gr_jw_obj(w);
    for(k = 0; k < nv; k++){
      const char *val = sl->values_mode ? rs->modes[k].name : sl->values[k];
      gr_jw_key(w, val); gr_jw_str(w, gr_view_colour(rs, s, val));
    }
    gr_jw_end_obj(w);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "colour_by"); gr_jw_int(w, ck >= 0 ? ck : 0);
  gr_jw_key(w, "mark_slot"); gr_jw_int(w, rs->nslots > GR_VIEW_MARK ? GR_VIEW_MARK : -1);
  gr_jw_break(w);
  gr_jw_key(w, "none_colour"); gr_jw_str(w, GR_VIEW_NONE);
  gr_jw_key(w, "palette"); gr_jw_arr(w);
  for(k = 0; k < GR_VIEW_NPALETTE; k++) gr_jw_str(w, gr_view_palette[k]);
  gr_jw_end_arr(w);
  gr_jw_break(w);
}

static void write_layout(gr_jw *w, const gr_graph *g, uint32_t n, const uint8_t *fold){
  gr_layout lay;
  size_t k;
  uint32_t v;
  if( g ) gr_layout_compute(g, 4, fold, &lay);
  else memset(&lay, 0, sizeof lay);
  gr_jw_key(w, "layout"); gr_jw_obj(w);
  gr_jw_key(w, "layer"); gr_jw_arr(w);
  for(v = 0; v < n; v++) gr_jw_int(w, lay.layer[v]);
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "x"); gr_jw_arr(w);
  for(v = 0; v < n; v++) jw_column(w, lay.x[v]);
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "edges"); gr_jw_arr(w);
  for(k = 0; k < 2 * lay.nedges; k++) gr_jw_int(w, lay.edges[k]);
  gr_jw_end_arr(w);
  gr_jw_key(w, "layers"); gr_jw_int(w, lay.nlayers);
  gr_jw_key(w, "width"); gr_jw_value(w); gr_out_printf(w->o, "%.1f", lay.width);
  gr_jw_end_obj(w);
  gr_jw_break(w);
  gr_layout_free(&lay);
}

/* Which nodes the page folds into their consumers (see the top of the file). */
static uint8_t *fold_nodes(const gr_result *r, uint32_t n){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  int k = gr_ruleset_find(&rs->table_map, "report_folded_ops");
  const gr_table *t = k >= 0 ? &rs->tables[k] : NULL;
  uint8_t *fold = gr_xcalloc((size_t)n + 1, 1), *fed = gr_xcalloc((size_t)n + 1, 1);
  uint32_t v, j;
  for(v = 0; v < n; v++){
    const gr_edge *e = gr_graph_edges(g, &nodes[v]);
    for(j = 0; j < (uint32_t)nodes[v].n_data + nodes[v].n_ctrl; j++)
      if( e[j].src < n && e[j].src!=v ) fed[e[j].src] = 1;
  }
  for(v = 0; v < n; v++)
    fold[v] = t && !t->is_map && fed[v] && nodes[v].n_data + nodes[v].n_ctrl==0
              && gr_map_get(&t->keymap, gr_graph_type_name(g, nodes[v].type))!=NULL;
  free(fed);
  return fold;
}

static void write_graphs(gr_jw *w, const gr_graph *g, uint32_t n){
  uint32_t i, ng = g ? gr_graph_ngraphs(g) : 0, v;
  gr_jw_key(w, "graphs"); gr_jw_arr(w);
  for(i = 0; i < ng; i++){
    uint32_t p = gr_graph_graph_parent(g, i);
    gr_jw_obj(w);
    gr_jw_key(w, "name"); gr_jw_str(w, gr_graph_graph_name(g, i));
    gr_jw_key(w, "parent"); gr_jw_int(w, p==GR_NONE || p >= n ? -1 : (int64_t)p);
    gr_jw_end_obj(w);
  }
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "gidx"); gr_jw_arr(w);
  for(v = 0; v < n; v++) gr_jw_int(w, gr_graph_nodes(g)[v].graph);
  gr_jw_end_arr(w);
  gr_jw_break(w);
}

/* An attribute's value as text: lists show their first 16 elements. */
static void attr_text(gr_buf *b, const gr_graph *g, const gr_attr *a){
  uint32_t i, m = a->n < 16 ? a->n : 16;
  switch( a->kind ){
    case GR_ATTR_S: case GR_ATTR_DT: {
      const char *s = gr_graph_str(g, a->u.str);
      size_t len = strlen(s);
      if( len > 120 ) gr_buf_printf(b, "%.117s...", s); else gr_buf_adds(b, s);
      return;
    }
    case GR_ATTR_I: gr_buf_printf(b, "%lld", (long long)a->u.i); return;
    case GR_ATTR_F: gr_buf_printf(b, "%g", a->u.f); return;
    case GR_ATTR_B: gr_buf_adds(b, a->u.i ? "true" : "false"); return;
    case GR_ATTR_LIST_S: case GR_ATTR_LIST_I: case GR_ATTR_LIST_F: case GR_ATTR_LIST_B:
      gr_buf_addc(b, '[');
      for(i = 0; i < m; i++){
        if( i ) gr_buf_adds(b, ", ");
        if( a->kind==GR_ATTR_LIST_S ) gr_buf_printf(b, "%.40s", gr_graph_str(g, gr_graph_list_u32(g, a->u.list)[i]));
        else if( a->kind==GR_ATTR_LIST_F ) gr_buf_printf(b, "%g", gr_graph_list_f64(g, a->u.list)[i]);
        else if( a->kind==GR_ATTR_LIST_B ) gr_buf_adds(b, gr_graph_list_i64(g, a->u.list)[i] ? "true" : "false");
        else gr_buf_printf(b, "%lld", (long long)gr_graph_list_i64(g, a->u.list)[i]);
      }
      if( a->n > m ) gr_buf_printf(b, ", ... (%u)", a->n);
      gr_buf_addc(b, ']');
      return;
    default: gr_buf_adds(b, "(a tensor, graph or other value)");
  }
}

/* A model dtype name as gerules spells them when the judge has none: "DT_FLOAT16" -> "float16". */
static void raw_dtype(gr_buf *b, const char *s){
  if( strncmp(s, "DT_", 3)==0 ) s += 3;
  for(; *s; s++) gr_buf_addc(b, (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s));
}

/* One tensor descriptor as "before\tafter\tshape\tlayout". */
static void tensor_text(gr_buf *b, gr_result *r, uint32_t v, uint32_t t, const gr_tensor *tn, int judged){
  const gr_graph *g = r->g;
  uint32_t nd, i;
  const int64_t *dims = gr_graph_shape(g, tn->shape, &nd);
  const char *before = judged ? gr_judge_dtype_name(r, gr_judge_tensor_before(r, v, t)) : NULL;
  const char *after = judged ? gr_judge_dtype_name(r, gr_judge_tensor_after(r, v, t)) : NULL;
  if( before ){
    gr_buf_adds(b, before);
    gr_buf_addc(b, '\t');
    if( after ) gr_buf_adds(b, after);
  } else {
    raw_dtype(b, gr_graph_dtype_name(g, tn->dtype));
    gr_buf_addc(b, '\t');
  }
  if( !gr_graph_shape_known(g, tn->shape) ) gr_buf_adds(b, "\tunknown");   /* not a scalar's [] (graph.h) */
  else{
    gr_buf_adds(b, "\t[");
    for(i = 0; i < nd && i < 64; i++) gr_buf_printf(b, i ? ",%lld" : "%lld", (long long)dims[i]);
    if( nd > 64 ) gr_buf_adds(b, ",...");
    gr_buf_addc(b, ']');
  }
  gr_buf_addc(b, '\t');
  gr_buf_adds(b, gr_graph_layout_name(g, tn->layout));
}

/* Every node's tensors, attributes and producers (see the top of the file). */
static void write_io(gr_jw *w, gr_result *r, uint32_t n){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  int judged = gr_judge_node(r, 0)!=NULL;
  gr_strpool strs;
  gr_buf nb, tb, jx;
  uint32_t v, j;
  size_t k;
  gr_strpool_init(&strs);
  gr_buf_init(&nb); gr_buf_init(&tb); gr_buf_init(&jx);
  gr_buf_addc(&nb, '[');
  for(v = 0; v < n; v++){
    const gr_node *nd = &nodes[v];
    const gr_tensor *ts = gr_graph_tensors(g, nd);
    const gr_attr *as = gr_graph_attrs(g, nd);
    const gr_edge *e = gr_graph_edges(g, nd);
    gr_buf_adds(&nb, v ? ",[[" : "[[");
    for(j = 0; j < (uint32_t)nd->n_in_desc + nd->n_out_desc; j++){
      tb.n = 0;
      tensor_text(&tb, r, v, j, &ts[j], judged);
      if( j==nd->n_in_desc ) gr_buf_adds(&nb, "],[");
      else if( j ) gr_buf_addc(&nb, ',');
      gr_buf_printf(&nb, "%u", gr_strpool_intern(&strs, tb.p, tb.n) - 1);
    }
    if( nd->n_in_desc + nd->n_out_desc==nd->n_in_desc ) gr_buf_adds(&nb, "],[");
    gr_buf_adds(&nb, "],[");
    for(j = 0; j < nd->n_attr; j++){
      tb.n = 0;
      gr_buf_printf(&tb, "%s\t", gr_graph_str(g, as[j].key));
      attr_text(&tb, g, &as[j]);
      gr_buf_printf(&nb, j ? ",%u" : "%u", gr_strpool_intern(&strs, tb.p, tb.n) - 1);
    }
    gr_buf_adds(&nb, "],[");
    for(j = 0; j < nd->n_data; j++) gr_buf_printf(&nb, j ? ",%ld" : "%ld", e[j].src < n ? (long)e[j].src : -1L);
    gr_buf_addc(&nb, ']');
    if( judged ){
      /* as gr_report_explain prints it: the header, then each step indented */
      const char *p, *q;
      tb.n = 0; jx.n = 0;
      gr_judge_explain(r, v, &jx);
      gr_buf_adds(&tb, "dtype and engine judge:\n");
      for(p = jx.p; p && p < jx.p + jx.n; p = q + 1){
        q = memchr(p, '\n', (size_t)(jx.p + jx.n - p));
        if( q==NULL ) q = jx.p + jx.n;
        gr_buf_adds(&tb, "  ");
        gr_buf_add(&tb, p, (size_t)(q - p));
        gr_buf_addc(&tb, '\n');
      }
      gr_buf_printf(&nb, ",%u", gr_strpool_intern(&strs, tb.p, tb.n) - 1);
    } else gr_buf_adds(&nb, ",-1");
    gr_buf_addc(&nb, ']');
  }
  gr_buf_addc(&nb, ']');
  gr_jw_key(w, "io"); gr_jw_obj(w);
  gr_jw_key(w, "strs"); gr_jw_arr(w);
  for(k = 1; k < gr_strpool_count(&strs); k++) gr_jw_str(w, gr_strpool_get(&strs, (uint32_t)k));
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "node"); gr_jw_raw(w, gr_buf_cstr(&nb));
  gr_jw_end_obj(w);
  gr_jw_break(w);
  gr_strpool_free(&strs);
  gr_buf_free(&nb); gr_buf_free(&tb); gr_buf_free(&jx);
}

/* Every node's --explain chain, rows deduplicated (see the top of the file). */
static void write_explain(gr_jw *w, gr_result *r, uint32_t n){
  xstate x;
  gr_strpool chains;            /* a chain's text "[row,...]" -> chain id */
  gr_buf nodes;
  size_t k;
  uint32_t v;
  memset(&x, 0, sizeof x);
  gr_strpool_init(&x.strs);
  gr_strpool_init(&x.rows);
  gr_strpool_init(&chains);
  gr_buf_init(&x.key);
  gr_buf_init(&x.tmp);
  gr_buf_init(&nodes);
  gr_buf_addc(&nodes, '[');
  for(v = 0; v < n; v++){
    size_t i;
    x.ids.n = 0;
    gr_explain_walk(r, v, row_cb, &x);
    x.key.n = 0;
    gr_buf_addc(&x.key, '[');
    for(i = 0; i < x.ids.n; i++) gr_buf_printf(&x.key, i ? ",%u" : "%u", x.ids.v[i]);
    gr_buf_addc(&x.key, ']');
    gr_buf_printf(&nodes, v ? ",%u" : "%u", gr_strpool_intern(&chains, x.key.p, x.key.n) - 1);
  }
  gr_buf_addc(&nodes, ']');
  gr_jw_obj(w);
  gr_jw_key(w, "strs"); gr_jw_arr(w);
  for(k = 0; k < gr_strpool_count(&x.strs); k++) gr_jw_str(w, gr_strpool_get(&x.strs, (uint32_t)k));
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "rows"); gr_jw_arr(w);     /* each row's key is its JSON array */
  for(k = 1; k < gr_strpool_count(&x.rows); k++) gr_jw_raw(w, gr_strpool_get(&x.rows, (uint32_t)k));
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "chains"); gr_jw_arr(w);   /* each chain's key is its JSON array */
  for(k = 1; k < gr_strpool_count(&chains); k++) gr_jw_raw(w, gr_strpool_get(&chains, (uint32_t)k));
  gr_jw_end_arr(w);
  gr_jw_break(w);
  gr_jw_key(w, "node"); gr_jw_raw(w, gr_buf_cstr(&nodes));
  gr_jw_end_obj(w);
  gr_strpool_free(&x.strs);
  gr_strpool_free(&x.rows);
  gr_strpool_free(&chains);
  gr_buf_free(&x.key);
  gr_buf_free(&x.tmp);
  gr_buf_free(&nodes);
  gr_vec_free(x.ids);
}

static void write_data(gr_out *o, gr_result *r, const gr_report_opts *ro){
  const gr_graph *g = r->g;
  uint32_t n = g ? gr_graph_nnodes(g) : 0, v;
  gr_report_opts jro = *ro;
  uint8_t *fold = g ? fold_nodes(r, n) : NULL;
  gr_jw w;

  jro.provenance = 0;
  jro.shared_tails = 1;
  gr_jw_init(&w, o, 0);
  gr_jw_obj(&w);
  gr_jw_key(&w, "report"); gr_jw_value(&w);
  gr_report_json(o, r, &jro);
  gr_jw_break(&w);
  write_slots(&w, r->rs, ro->colour_by);
  write_layout(&w, g, n, fold);
  if( g ){
    write_graphs(&w, g, n);
    gr_jw_key(&w, "fold"); gr_jw_arr(&w);
    for(v = 0; v < n; v++) gr_jw_int(&w, fold[v]);
    gr_jw_end_arr(&w);
    gr_jw_break(&w);
    write_io(&w, r, n);
  }
  free(fold);
  gr_jw_key(&w, "dynamic"); gr_jw_arr(&w);
  for(v = 0; v < n; v++) gr_jw_int(&w, gr_graph_nodes(g)[v].flags & GR_NODE_DYNAMIC ? 1 : 0);
  gr_jw_end_arr(&w);
  gr_jw_break(&w);
  gr_jw_key(&w, "line"); gr_jw_arr(&w);
  for(v = 0; v < n; v++) gr_jw_int(&w, gr_graph_nodes(g)[v].line);
  gr_jw_end_arr(&w);
  gr_jw_break(&w);
  gr_jw_key(&w, "explain");
  if( n && n <= EXPLAIN_MAX_NODES ) write_explain(&w, r, n);
  else gr_jw_null(&w);
  gr_jw_break(&w);
  gr_jw_key(&w, "explain_max"); gr_jw_int(&w, EXPLAIN_MAX_NODES);
  gr_jw_end_obj(&w);
}

void gr_report_html(gr_out *o, gr_result *r, const gr_report_opts *ro){
  const char *page = gr_html_page, *mark;
  static const char data_mark[] = "<!--GR-DATA-->", title_mark[] = "<!--GR-TITLE-->";
  gr_buf data;
  gr_out mo;
  const char *model = r->g ? gr_graph_model_name(r->g) : "";
  /* the title first, then the data: both markers appear once, in that order */
  mark = strstr(page, title_mark);
  gr_out_write(o, page, (size_t)(mark - page));
  gr_out_puts(o, "gerules: ");
  html_text(o, model && *model ? model : ro->graph_path);
  gr_out_puts(o, " on ");
  html_text(o, r->soc_name);
  page = mark + sizeof title_mark - 1;
  mark = strstr(page, data_mark);
  gr_out_write(o, page, (size_t)(mark - page));
  gr_buf_init(&data);
  gr_out_init_buf(&mo, &data);
  write_data(&mo, r, ro);
  gr_out_finish_buf(&mo);
  gr_out_puts(o, "<script type=\"application/json\" id=\"gr-data\">");
  put_script_safe(o, &data);
  gr_out_puts(o, "</script>");
  gr_buf_free(&data);
  page = mark + sizeof data_mark - 1;
  gr_out_puts(o, page);
}
