/*
** t0401-layout.c: the layered layout of the HTML report (src/report/
** layout.c). On small graphs with known answers (a chain, a diamond with a
** weight, a cycle, two graphs) and on a generated 20,000-node one: every
** edge that is not a broken cycle's points down a layer or more, columns
** are distinct within a layer, a node without inputs sits right above its
** nearest consumer, graphs do not overlap, barycentre sweeps remove crossings
** of a pseudo-random layered graph, and edges are deduplicated.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/graph.h"
#include "base/util.h"
#include "report/layout.h"
#include "tap.h"

static gr_graph *load(const char *json){
  gr_error err;
  gr_graph *g;
  memset(&err, 0, sizeof err);
  g = gr_graph_load_mem(json, strlen(json), &err);
  if( g==NULL ) diag("load: %u:%u: %s", err.line, err.col, err.msg);
  return g;
}

static uint32_t node(const gr_graph *g, const char *name){
  uint32_t i = GR_NONE;
  gr_graph_find_node(g, name, &i);
  return i;
}

/* every edge down, distinct columns within a layer */
static int sane(const gr_layout *l, int allow_up){
  size_t k;
  uint32_t i, j;
  for(k = 0; k < l->nedges; k++)
    if( !allow_up && l->layer[l->edges[2 * k]] >= l->layer[l->edges[2 * k + 1]] ) return 0;
  for(i = 0; i < l->n; i++){
    if( l->layer[i] >= l->nlayers ) return 0;
    for(j = i + 1; j < l->n && j < i + 64; j++)
      if( l->layer[i]==l->layer[j] && l->x[i]==l->x[j] ) return 0;
  }
  return 1;
}

/* pairs of edges between the same two adjacent layers that cross */
static size_t crossings(const gr_layout *l){
  size_t a, b, c = 0;
  for(a = 0; a < l->nedges; a++){
    uint32_t s1 = l->edges[2 * a], d1 = l->edges[2 * a + 1];
    if( l->layer[d1]!=l->layer[s1] + 1 ) continue;
    for(b = a + 1; b < l->nedges; b++){
      uint32_t s2 = l->edges[2 * b], d2 = l->edges[2 * b + 1];
      if( l->layer[s2]!=l->layer[s1] || l->layer[d2]!=l->layer[d1] ) continue;
      if( (l->x[s1] - l->x[s2]) * (l->x[d1] - l->x[d2]) < 0 ) c++;
    }
  }
  return c;
}

int main(void){
  gr_layout l;
  gr_graph *g;

  g = load("{\"graph\":[{\"name\":\"g\",\"op\":[{\"name\":\"a\",\"type\":\"Data\"},"
           "{\"name\":\"b\",\"type\":\"Relu\",\"input\":[\"a:0\",\"a:0\"]},"
           "{\"name\":\"c\",\"type\":\"Relu\",\"input\":[\"b:0\"]}]}]}");
  gr_layout_compute(g, 4, NULL, &l);
  is(l.nlayers, 3, "a chain: three layers");
  ok(l.layer[node(g, "a")]==0 && l.layer[node(g, "b")]==1 && l.layer[node(g, "c")]==2, "a chain: one layer each, in order");
  is(l.nedges, 2, "a repeated input is one edge");
  ok(sane(&l, 0), "a chain: edges down");
  gr_layout_free(&l);
  gr_graph_free(g);

  g = load("{\"graph\":[{\"name\":\"g\",\"op\":[{\"name\":\"a\",\"type\":\"Data\"},"
           "{\"name\":\"w\",\"type\":\"Const\"},"
           "{\"name\":\"b\",\"type\":\"Relu\",\"input\":[\"a:0\"]},"
           "{\"name\":\"c\",\"type\":\"Relu\",\"input\":[\"a:0\"]},"
           "{\"name\":\"d\",\"type\":\"Add\",\"input\":[\"b:0\",\"c:0\"]},"
           "{\"name\":\"e\",\"type\":\"MatMul\",\"input\":[\"d:0\",\"w:0\"]}]}]}");
  gr_layout_compute(g, 4, NULL, &l);
  ok(sane(&l, 0), "a diamond: edges down, distinct columns");
  is(l.layer[node(g, "d")], 2, "a diamond: the join below both branches");
  is(l.layer[node(g, "w")], l.layer[node(g, "e")] - 1, "a weight sits right above its consumer");
  ok(l.layer[node(g, "b")]==l.layer[node(g, "c")] && l.x[node(g, "b")]!=l.x[node(g, "c")], "the branches share a layer side by side");
  gr_layout_free(&l);
  gr_graph_free(g);

  g = load("{\"graph\":[{\"name\":\"g\",\"op\":[{\"name\":\"a\",\"type\":\"X\",\"input\":[\"c:0\"]},"
           "{\"name\":\"b\",\"type\":\"X\",\"input\":[\"a:0\"]},"
           "{\"name\":\"c\",\"type\":\"X\",\"input\":[\"b:0\"]},"
           "{\"name\":\"d\",\"type\":\"X\",\"input\":[\"c:0\"]}]}]}");
  gr_layout_compute(g, 4, NULL, &l);
  ok(sane(&l, 1), "a cycle: every node placed in a layer, distinct columns");
  ok(l.layer[node(g, "a")] < l.layer[node(g, "b")] && l.layer[node(g, "b")] < l.layer[node(g, "c")] &&
     l.layer[node(g, "c")] < l.layer[node(g, "d")], "a cycle: broken at the first node in file order");
  gr_layout_free(&l);
  gr_graph_free(g);

  g = load("{\"graph\":[{\"name\":\"g1\",\"op\":[{\"name\":\"a\",\"type\":\"X\"},{\"name\":\"b\",\"type\":\"X\"},"
           "{\"name\":\"c\",\"type\":\"X\",\"input\":[\"a:0\",\"b:0\"]}]},"
           "{\"name\":\"g2\",\"op\":[{\"name\":\"p\",\"type\":\"X\"},{\"name\":\"q\",\"type\":\"X\",\"input\":[\"p:0\"]}]}]}");
  gr_layout_compute(g, 4, NULL, &l);
  ok(l.x[node(g, "a")] == 0 && l.x[node(g, "b")] == 1 && l.x[node(g, "p")] == 0 && l.x[node(g, "q")] == 0,
     "two graphs: each from column 0 (the page shows one at a time)");
  ok(l.width == 2, "two graphs: the width is the widest graph's");
  gr_layout_free(&l);
  {
    /* folded nodes (constants drawn in their consumers): no cell, no edge */
    uint8_t fold[5] = { 0, 1, 0, 0, 0 };
    gr_layout_compute(g, 4, fold, &l);
    ok(l.nedges == 2 && l.x[node(g, "a")] == 0 && l.x[node(g, "c")] == 0 && l.layer[node(g, "b")] == 0,
       "a folded node takes no cell and no edge");
    gr_layout_free(&l);
  }
  gr_graph_free(g);

  /* crossings of one-layer edges on a pseudo-random layered graph: the
  ** barycentre sweeps must not add any (and here remove some) */
  {
    gr_buf b;
    unsigned seed = 12345, i, j, L = 12, W = 9;
    size_t c0, c4;
    gr_buf_init(&b);
    gr_buf_adds(&b, "{\"graph\":[{\"name\":\"r\",\"op\":[");
    for(i = 0; i < L; i++)
      for(j = 0; j < W; j++){
        gr_buf_printf(&b, "%s{\"name\":\"v%u_%u\",\"type\":\"X\",\"input\":[", i || j ? "," : "", i, j);
        if( i ){
          unsigned k, m = 1 + (seed >> 16) % 2;
          for(k = 0; k < m; k++){
            seed = seed * 1103515245u + 12345u;
            gr_buf_printf(&b, "%s\"v%u_%u:0\"", k ? "," : "", i - 1, (seed >> 16) % W);
          }
        }
        gr_buf_adds(&b, "]}");
      }
    gr_buf_adds(&b, "]}]}");
    g = gr_graph_load_mem(b.p, b.n, NULL);
    ok(g!=NULL, "the random layered graph loads");
    if( g ){
      gr_layout_compute(g, 0, NULL, &l);
      c0 = crossings(&l);
      gr_layout_free(&l);
      gr_layout_compute(g, 4, NULL, &l);
      c4 = crossings(&l);
      ok(sane(&l, 0), "random graph: edges down, distinct columns");
      ok(c4 < c0, "barycentre sweeps remove crossings");
      diag("crossings of one-layer edges: %zu in topological order, %zu after 4 sweeps", c0, c4);
      gr_layout_free(&l);
      gr_graph_free(g);
    }
    gr_buf_free(&b);
  }

  /* a generated 20,000-node graph: layers of 4 nodes fed by the previous layer and a weight */
  {
    gr_buf b;
    int i, j, n = 5000;
    gr_buf_init(&b);
    gr_buf_adds(&b, "{\"graph\":[{\"name\":\"big\",\"op\":[{\"name\":\"in\",\"type\":\"Data\"}");
    for(i = 0; i < n; i++){
      gr_buf_printf(&b, ",{\"name\":\"w%d\",\"type\":\"Const\"}", i);
      for(j = 0; j < 3; j++){
        gr_buf_printf(&b, ",{\"name\":\"n%d_%d\",\"type\":\"MatMul\",\"input\":[", i, j);
        if( i==0 ) gr_buf_adds(&b, "\"in:0\"");
        else gr_buf_printf(&b, "\"n%d_%d:0\",\"n%d_%d:0\"", i - 1, j, i - 1, (j + 1) % 3);
        gr_buf_printf(&b, ",\"w%d:0\"]}", i);
      }
    }
    gr_buf_adds(&b, "]}]}");
    g = gr_graph_load_mem(b.p, b.n, NULL);
    ok(g!=NULL, "the generated graph loads");
    if( g ){
      gr_layout_compute(g, 4, NULL, &l);
      is(l.n, 4 * n + 1, "every node laid out");
      ok(sane(&l, 0), "20,000 nodes: edges down, distinct columns");
      is(l.nlayers, n + 1, "one layer per step (weights beside their step's inputs)");
      gr_layout_free(&l);
      gr_graph_free(g);
    }
    gr_buf_free(&b);
  }
  return done_testing();
}
