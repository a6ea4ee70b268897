/*
** dot.c: the Graphviz report of dot.h. Node and graph names are written as
** DOT quoted strings (a backslash and a double quote escaped; control
** characters replaced by spaces, as Graphviz would otherwise treat them as
** layout escapes). The font turns white on dark fills (relative luminance
** below 0.45, WCAG's formula without the gamma step, enough for a label).
** Data edges are solid, control edges dashed; an edge repeated between the
** same two nodes is drawn once per kind. The fill is the first slot's, or
** the slot of --colour-by (gr_report_opts.colour_by: dtype, engine...). The
** second slot colours the outline; the third slot (view.h GR_VIEW_MARK)
** sets the outline's style: its first declared value solid, the second
** dashed, the third dotted, any other bold; a node without a decision has
** square corners. A decision the rule set says has no effect (`no effect
** when`) is labelled "(no effect)", its reason is in the tooltip, and a fill
** value without effect keeps its colour with Graphviz's `diagonals` style
** (chords across the corners) and a legend entry of its own.
** With ATC's gears (report/gears.h) the picture is gear 1's, as the title
** says: a node whose decisions differ in another gear has a double outline
** and, per such gear, a label line "gear K: SLOT=VALUE" (and the same in its
** tooltip); a legend cluster lists every gear's profile and input shapes.
** Slots are named by their label (gr_slot.column: the rules' `column`,
** default the slot's name) in the title, tooltips, gear lines and legends.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "report/dot.h"
#include "report/view.h"
#include "report/gears.h"

/* A quoted DOT string of n bytes: quotes and backslashes escaped, other
** control bytes blanked, a newline written as `nl` (DOT's \n centres the
** line, \l left-justifies it; NULL blanks it as any control byte). */
static void dot_strn(gr_out *o, const char *s, size_t n, const char *nl){
  size_t i;
  gr_out_putc(o, '"');
  for(i = 0; s && i < n; i++){
    unsigned char c = (unsigned char)s[i];
    if( c=='\n' && nl ) gr_out_puts(o, nl);
    else if( c=='"' || c=='\\' ){ gr_out_putc(o, '\\'); gr_out_putc(o, (char)c); }
    else if( c < 0x20 || c==0x7f ) gr_out_putc(o, ' ');
    else gr_out_putc(o, (char)c);
  }
  gr_out_putc(o, '"');
}

static void dot_str(gr_out *o, const char *s){ dot_strn(o, s, s ? strlen(s) : 0, NULL); }

static int hexv(char c){ return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

static int dark(const char *hex){
  double r = hexv(hex[1]) * 16 + hexv(hex[2]), g = hexv(hex[3]) * 16 + hexv(hex[4]), b = hexv(hex[5]) * 16 + hexv(hex[6]);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0 < 0.45;
}

/* The node style that marks `value` of the mark slot. */
static const char *mark_style(const gr_ruleset *rs, const char *value){
  static const char *const st[] = { "filled,rounded", "filled,rounded,dashed", "filled,rounded,dotted", "filled,rounded,bold" };
  int k;
  if( value==NULL ) return "filled";
  k = gr_view_index(rs, GR_VIEW_MARK, value);
  return st[k >= 0 && k < 3 ? k : 3];
}

/* Whether node v's decision of slot s takes effect (the rule set's `no
** effect when`); the reason into why (may be NULL) when it does not. */
static int takes_effect(gr_result *r, uint32_t v, size_t s, gr_buf *why){
  gr_buf tmp;
  int eff;
  if( r->rs->slots[s].nnoeffect==0 || gr_dec(r, v, s)->value==NULL ) return 1;
  gr_buf_init(&tmp);
  eff = gr_decision_effect(r, v, s, why ? why : &tmp);
  gr_buf_free(&tmp);
  return eff;
}

/* A legend entry per value used in slot s, shown as `how` (the slot's role);
** for the fill, a value that has no effect on some node is its own entry,
** drawn as those nodes are (diagonals). */
enum { L_FILL, L_OUTLINE, L_STYLE };
static void legend(gr_out *o, gr_result *r, size_t s, const char *what, int how){
  const gr_ruleset *rs = r->rs;
  uint32_t v, n = gr_graph_nnodes(r->g);
  gr_map seen;
  gr_buf key;
  size_t k = 0;
  gr_map_init(&seen);
  gr_buf_init(&key);
  gr_out_printf(o, "  subgraph \"cluster_legend_%zu\" {\n    label=", s);
  dot_str(o, what);
  gr_out_puts(o, "; fontsize=11; style=dashed; color=\"#8a9099\";\n");
  for(v = 0; v < n; v++){
    const char *val = gr_dec(r, v, s)->value;
    const char *col = gr_view_colour(rs, s, val);
    int none = how==L_FILL && !takes_effect(r, v, s, NULL);
    key.n = 0;
    gr_buf_printf(&key, "%c%s", none ? '-' : '+', val ? val : "");
    if( !val ) key.p[0] = '0';
    if( gr_map_get(&seen, gr_buf_cstr(&key)) ) continue;
    gr_map_put(&seen, gr_buf_cstr(&key), (void *)1);
    gr_out_printf(o, "    \"legend_%zu_%zu\" [label=", s, k++);
    if( none ){
      gr_buf lab;
      gr_buf_init(&lab);
      gr_buf_printf(&lab, "%s (no effect)", val);
      dot_str(o, gr_buf_cstr(&lab));
      gr_buf_free(&lab);
      gr_out_printf(o, ", fillcolor=\"%s\", color=\"#555b63\", fontcolor=\"%s\", style=\"filled,diagonals\"];\n", col, dark(col) ? "white" : "black");
      continue;
    }
    dot_str(o, val ? val : "no decision");
    if( how==L_FILL ) gr_out_printf(o, ", fillcolor=\"%s\", color=\"%s\", fontcolor=\"%s\"];\n", col, col, dark(col) ? "white" : "black");
    else if( how==L_OUTLINE ) gr_out_printf(o, ", fillcolor=white, color=\"%s\", penwidth=3];\n", col);
    else gr_out_printf(o, ", fillcolor=white, color=\"#555b63\", penwidth=3, style=\"%s\"];\n", mark_style(rs, val));
  }
  gr_out_puts(o, "  }\n");
  gr_map_free(&seen);
  gr_buf_free(&key);
}

/* Node v's decisions in the gears after the first where they are not gear
** 1's, each as sep "gear K: SLOT=VALUE"; returns how many. */
static size_t gear_lines(gr_buf *b, const gr_result *r, const gr_gears *gs, uint32_t v, const char *sep){
  size_t k, lo, hi, added = 0;
  for(k = 1; gs && k < gs->v.n; k++){
    const gr_gear *gk = &gs->v.v[k];
    lo = 0; hi = gk->diffs.n;            /* the first diff of node v (node-major) */
    while( lo < hi ){ size_t m = (lo + hi) / 2; if( gk->diffs.v[m].node < v ) lo = m + 1; else hi = m; }
    for(; lo < gk->diffs.n && gk->diffs.v[lo].node==v; lo++){
      const gr_gear_diff *d = &gk->diffs.v[lo];
      const char *v1 = gr_dec(r, v, d->slot)->value;
      if( v1==d->value || (v1 && d->value && strcmp(v1, d->value)==0) ) continue;
      gr_buf_printf(b, "%sgear %zu: %s=%s", sep, k + 1, r->rs->slots[d->slot].column, d->value ? d->value : "-");
      added++;
    }
  }
  return added;
}

/* The gears' legend: each gear's profile and input shapes. */
static void gears_legend(gr_out *o, const gr_gears *gs){
  gr_buf lab;
  size_t k, i, j;
  gr_buf_init(&lab);
  gr_buf_printf(&lab, "%s=%s: the picture is gear 1's; a double outline: decisions that differ in another gear", gs->flag, gs->value);
  for(k = 0; k < gs->v.n; k++){
    const gr_gear *g = &gs->v.v[k];
    gr_buf_printf(&lab, "\ngear %zu (%s): ", k + 1, g->profile);
    for(i = 0; i < g->inputs.n; i++){
      gr_buf_printf(&lab, "%s%s:", i ? ";" : "", g->inputs.v[i].name);
      for(j = 0; j < g->inputs.v[i].dims.n; j++) gr_buf_printf(&lab, "%s%lld", j ? "," : "", (long long)g->inputs.v[i].dims.v[j]);
    }
  }
  gr_out_puts(o, "  subgraph \"cluster_legend_gears\" {\n    label=\"gears\"; fontsize=11; style=dashed; color=\"#8a9099\";\n"
                 "    \"legend_gears\" [shape=box, peripheries=2, fillcolor=white, color=\"#555b63\", penwidth=1, label=");
  gr_buf_adds(&lab, "\n");             /* DOT left-justifies the line a \l ends */
  dot_strn(o, lab.p, lab.n, "\\l");
  gr_out_puts(o, "];\n  }\n");
  gr_buf_free(&lab);
}

void gr_report_dot(gr_out *o, gr_result *r, const gr_report_opts *ro){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  uint32_t n = g ? gr_graph_nnodes(g) : 0, v, cur = GR_NONE;
  size_t ns = rs->nslots;
  const gr_node *nodes = g ? gr_graph_nodes(g) : NULL;
  uint32_t *mark;
  gr_buf title;
  /* the fill slot: --colour-by, else the first */
  int fk = ro->colour_by && ns ? gr_ruleset_find_slot(rs, ro->colour_by) : -1;
  size_t fs = fk >= 0 ? (size_t)fk : 0;

  gr_buf_init(&title);
  gr_buf_printf(&title, "gerules %s: %s on %s (%s)", PACKAGE_VERSION,
                g && gr_graph_model_name(g)[0] ? gr_graph_model_name(g) : ro->graph_path, r->soc_name, r->run_mode);
  if( ns ) gr_buf_printf(&title, "; fill: %s", rs->slots[fs].column);
  if( ns > 1 ) gr_buf_printf(&title, "; outline: %s", rs->slots[1].column);
  if( ns > GR_VIEW_MARK ) gr_buf_printf(&title, "; outline style: %s", rs->slots[GR_VIEW_MARK].column);
  if( ro->gears ) gr_buf_printf(&title, "; gear 1 of %zu (%s=%s)", ro->gears->v.n, ro->gears->flag, ro->gears->value);
  gr_out_puts(o, "digraph gerules {\n  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, label=");
  dot_str(o, gr_buf_cstr(&title));
  gr_out_puts(o, "];\n  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=10, penwidth=3];\n"
                 "  edge [color=\"#8a9099\", arrowsize=0.6];\n");
  gr_buf_free(&title);
  for(v = 0; v < n; v++){
    const gr_node *nd = &nodes[v];
    const char *fill = ns ? gr_view_colour(rs, fs, gr_dec(r, v, fs)->value) : GR_VIEW_NONE;
    const char *line = ns > 1 ? gr_view_colour(rs, 1, gr_dec(r, v, 1)->value) : fill;
    gr_buf lab;
    size_t s;
    int differs;
    /* a fill value without effect: the colour kept, struck through */
    int void_fill = ns && !takes_effect(r, v, fs, NULL);
    if( nd->graph!=cur ){
      if( cur!=GR_NONE ) gr_out_puts(o, "  }\n");
      cur = nd->graph;
      gr_out_printf(o, "  subgraph \"cluster_g%u\" {\n    label=", cur);
      dot_str(o, gr_graph_graph_name(g, cur)[0] ? gr_graph_graph_name(g, cur) : "(unnamed graph)");
      gr_out_puts(o, "; color=\"#c0c4ca\";\n");
    }
    gr_buf_init(&lab);
    gr_buf_printf(&lab, "%s\n%s", gr_graph_str(g, nd->name), gr_graph_type_name(g, nd->type));
    for(s = 0; s < ns; s++){
      const gr_decision *d = gr_dec(r, v, s);
      if( d->value ) gr_buf_printf(&lab, "\n%s%s", d->value, takes_effect(r, v, s, NULL) ? "" : " (no effect)");
    }
    differs = gear_lines(&lab, r, ro->gears, v, "\n")!=0;
    gr_out_printf(o, "    n%u [label=", v);
    dot_strn(o, lab.p, lab.n, "\\n");    /* the label's newlines are DOT's \n */
    gr_out_printf(o, ", fillcolor=\"%s\", color=\"%s\", fontcolor=\"%s\"", fill, line, dark(fill) ? "white" : "black");
    if( ns > GR_VIEW_MARK || void_fill )
      gr_out_printf(o, ", style=\"%s%s\"", ns > GR_VIEW_MARK ? mark_style(rs, gr_dec(r, v, GR_VIEW_MARK)->value) : "filled,rounded",
                    void_fill ? ",diagonals" : "");
    if( differs ) gr_out_puts(o, ", peripheries=2");
    gr_out_puts(o, ", tooltip=");
    {
      gr_buf tip;
      gr_buf_init(&tip);
      gr_buf_printf(&tip, "%s (%s)", gr_graph_str(g, nd->name), gr_graph_type_name(g, nd->type));
      for(s = 0; s < ns; s++){
        const gr_decision *d = gr_dec(r, v, s);
        gr_buf_printf(&tip, "; %s=%s", rs->slots[s].column, d->value ? d->value : "-");
        if( d->source >= 0 ) gr_buf_printf(&tip, " (%s)", rs->sources[d->source].name);
        else if( d->source==GR_SOURCE_HOOK ) gr_buf_adds(&tip, " (hook)");
        {
          gr_buf why;
          gr_buf_init(&why);
          if( !takes_effect(r, v, s, &why) ) gr_buf_printf(&tip, " (no effect: %s)", gr_buf_cstr(&why));
          gr_buf_free(&why);
        }
      }
      gear_lines(&tip, r, ro->gears, v, "; ");
      dot_str(o, gr_buf_cstr(&tip));
      gr_buf_free(&tip);
    }
    gr_out_puts(o, "];\n");
    gr_buf_free(&lab);
  }
  if( cur!=GR_NONE ) gr_out_puts(o, "  }\n");
  /* edges: mark[src] = 2*v+1 (data) or 2*v+2 (control) already drawn for node v */
  mark = gr_xcalloc((size_t)n + 1, 2 * sizeof *mark);
  for(v = 0; v < n; v++){
    const gr_edge *e = gr_graph_edges(g, &nodes[v]);
    uint32_t j, m = (uint32_t)nodes[v].n_data + nodes[v].n_ctrl;
    for(j = 0; j < m; j++){
      uint32_t src = e[j].src;
      int ctrl = e[j].index < 0;
      if( src==GR_NONE || src >= n || mark[2 * (size_t)src + ctrl]==v + 1 ) continue;
      mark[2 * (size_t)src + ctrl] = v + 1;
      gr_out_printf(o, "  n%u -> n%u%s;\n", src, v, ctrl ? " [style=dashed]" : "");
    }
  }
  free(mark);
  if( n && ns ){
    gr_buf w;
    gr_buf_init(&w);
    gr_buf_printf(&w, "%s (fill)", rs->slots[fs].column);
    legend(o, r, fs, gr_buf_cstr(&w), L_FILL);
    if( ns > 1 ){
      w.n = 0;
      gr_buf_printf(&w, "%s (outline)", rs->slots[1].column);
      legend(o, r, 1, gr_buf_cstr(&w), L_OUTLINE);
    }
    if( ns > GR_VIEW_MARK ){
      w.n = 0;
      gr_buf_printf(&w, "%s (outline style)", rs->slots[GR_VIEW_MARK].column);
      legend(o, r, GR_VIEW_MARK, gr_buf_cstr(&w), L_STYLE);
    }
    gr_buf_free(&w);
  }
  if( n && ro->gears ) gears_legend(o, ro->gears);
  gr_out_puts(o, "}\n");
}
