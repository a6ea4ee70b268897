/*
** partition.c: the graph clustering behind `partition NAME { ... }` (see
** doc/rule-language.md section 7.2). The rule file says which nodes are seeds
** of the dynamic side, which are neutral and how small a static cluster may
** be; this file only clusters, in time linear in nodes + edges:
**
**   1. classify every node: neutral, a seed (the first seed that holds), or
**      static. Conditions are specialised as eval.c does: conjuncts that
**      depend on the chip and options are decided once, those on the op type
**      once per type, and only the rest per node;
**   2. a negative limit makes every non-neutral node dynamic ("all"); a graph
**      without seeds stays static ("static_graph");
**   3. seeds joined by an edge form dynamic groups (union-find). A static
**      node on a path from a group back to the same group lies, once each
**      group is contracted to one vertex, on a cycle through a group: the
**      strongly connected components of the contracted graph (Tarjan, one
**      pass) find every such node exactly, also where the path runs through
**      other groups, as GE's merges of an unknown cluster with every cluster
**      on a path to its unknown input do; one topological pass and one
**      reverse pass name a dynamic node before and one after it ("path");
**   4. the remaining static nodes joined by an edge form static clusters
**      (union-find); a cluster with fewer nodes than the limit becomes
**      dynamic ("small"), the others stay static ("cluster").
** Around these: neutral nodes are tested against the seeds too (a neutral
** seed counts for the graph but is not clustered); weak seeds count only
** beside a strong one; a `subgraph seed` marks the owners of subgraphs that
** hold a seed; with `subgraph` lines, subgraph nodes are not clustered but
** take their whole subgraph's status (subgraph_status); `group` sets are
** contracted like dynamic groups (make_groups); a graph without seeds and
** below the `threshold` is dynamic as a whole.
** Edges are data and control inputs alike; neutral nodes carry no path and
** count in no cluster. Nodes the judge marks removed (GE deletes them before
** it partitions, judge.c) are not in the graph at all: cause "removed", no
** seed, no cluster, counted nowhere, and an edge from one is an edge from the
** producer of its input 0 (as `node.input[i].producer` reads it, expr.c). What this approximates of GE's partitioner (static
** merges refused because they would close a cycle) is stated in
** rules/partition.rules, next to the GE facts.
*/
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "eval/eval.h"
#include "eval/judge.h"


static uint32_t uf_find(uint32_t *up, uint32_t x){
  while( up[x]!=x ){ up[x] = up[up[x]]; x = up[x]; }
  return x;
}
static void uf_union(uint32_t *up, uint32_t a, uint32_t b){
  a = uf_find(up, a); b = uf_find(up, b);
  if( a!=b ){ if( a < b ) up[b] = a; else up[a] = b; }
}

/* Per op type, the kinds of nodes it has. */
enum { TS_STATIC = 1, TS_DYNAMIC = 2 };
static uint8_t *type_shapes(const gr_graph *g){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t n, nn = gr_graph_nnodes(g);
  uint8_t *ts = gr_xcalloc((size_t)gr_graph_ntypes(g) + 1, 1);
  for(n = 0; n < nn; n++) ts[nodes[n].type] |= nodes[n].flags & GR_NODE_DYNAMIC ? TS_DYNAMIC : TS_STATIC;
  return ts;
}

static int absent_attr(const gr_graph *g, const gr_expr *e){
  uint32_t id;
  return e->op==GR_E_INDEX && e->a && e->a->op==GR_E_FIELD && e->a->ref==GR_F_ATTR && e->a->a
      && e->a->a->op==GR_E_NODE && e->b && e->b->op==GR_E_STR && !gr_graph_find_str(g, e->b->s, &id);
}
static int is_lit(const gr_expr *e){
  return e->op==GR_E_STR || e->op==GR_E_INT || e->op==GR_E_BOOL || e->op==GR_E_NULL;
}

/* A seed's per-node conjunct decided for every node of one op type: 1 or 0,
** -1 when it takes the node. Folded: node.static / node.dynamic when the
** type's nodes are all of one kind, an attribute no node of the graph has
** compared with a literal, and not / and / or over those. Measured reason:
** the shipped seeds test three attributes on every node, which made the
** partition's classification the largest part of its cost on the 100K-op
** benchmark graph. env has the type set and no node. */
static int fold(gr_env *env, const uint8_t *ts, uint32_t type, const gr_expr *e){
  const gr_graph *g = env->r->g;
  int a, b;
  if( e->dep <= GR_DEP_TYPE ) return gr_eval_cond(env, e);
  switch( e->op ){
    case GR_E_NOT:
      a = fold(env, ts, type, e->a);
      return a < 0 ? -1 : !a;
    case GR_E_AND: case GR_E_OR:
      a = fold(env, ts, type, e->a);
      b = fold(env, ts, type, e->b);
      if( e->op==GR_E_AND ) return a==0 || b==0 ? 0 : a==1 && b==1 ? 1 : -1;
      return a==1 || b==1 ? 1 : a==0 && b==0 ? 0 : -1;
    case GR_E_FIELD:
      if( e->a && e->a->op==GR_E_NODE && (e->ref==GR_F_STATIC || e->ref==GR_F_DYNAMIC) ){
        if( ts[type]==TS_STATIC ) return e->ref==GR_F_STATIC;
        if( ts[type]==TS_DYNAMIC ) return e->ref==GR_F_DYNAMIC;
      }
      return -1;
    case GR_E_EQ: case GR_E_NE:      /* an absent attribute is null */
      if( (absent_attr(g, e->a) && is_lit(e->b)) || (absent_attr(g, e->b) && is_lit(e->a)) ){
        const gr_expr *lit = absent_attr(g, e->a) ? e->b : e->a;
        return (lit->op==GR_E_NULL) == (e->op==GR_E_EQ);
      }
      return -1;
    default:
      return -1;
  }
}

/* Branches of one partition (neutral first, then seeds) and, per op type,
** which of them can still hold after the global and per-type conjuncts. */
typedef struct pbranches {
  const gr_branch **v; size_t n, nneutral;
  uint8_t *ok;                      /* [type * n + b]: 0 never, 1 test the node, 2 always */
} pbranches;

static void prepare(gr_result *r, const gr_partition *p, const uint8_t *shapes, pbranches *pb){
  const gr_graph *g = r->g;
  uint32_t t, nt = gr_graph_ntypes(g);
  size_t b;
  gr_env env;
  pb->n = p->nneutral + p->nseeds;
  pb->nneutral = p->nneutral;
  pb->v = gr_xcalloc(pb->n + 1, sizeof *pb->v);
  for(b = 0; b < p->nneutral; b++) pb->v[b] = &p->neutral[b];
  for(b = 0; b < p->nseeds; b++) pb->v[p->nneutral + b] = &p->seeds[b].br;
  pb->ok = gr_xcalloc((size_t)nt * pb->n + 1, 1);
  gr_env_init(&env, r);
  for(b = 0; b < pb->n; b++){
    const gr_branch *br = pb->v[b];
    if( b >= p->nneutral && (int)(b - p->nneutral + 1)==p->subgraph_seed ) continue;   /* set from subgraphs */
    if( !gr_conj_holds(&env, br, GR_DEP_CONST, GR_DEP_GLOBAL) ) continue;
    for(t = 0; t < nt; t++){
      uint8_t ok = 2;
      size_t i;
      env.type_name = gr_graph_type_name(g, t);
      if( !gr_conj_holds(&env, br, GR_DEP_TYPE, GR_DEP_TYPE) ) continue;
      /* per-node conjuncts the graph decides for the whole type (eval.c) */
      for(i = 0; i < br->nconj && ok; i++){
        int f;
        if( br->conj[i]->dep!=GR_DEP_ITEM ) continue;
        f = fold(&env, shapes, t, br->conj[i]);
        if( f==0 ) ok = 0;
        else if( f < 0 ) ok = 1;
      }
      pb->ok[(size_t)t * pb->n + b] = ok;
    }
  }
}

/* A topological order of every node over predecessor edges (iterative
** post-order DFS; an edge back into the current path, which a valid graph
** does not have, is ignored). */
static uint32_t *topo_order(const gr_graph *g){
  uint32_t nn = gr_graph_nnodes(g), n, k = 0;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t *order = gr_big_alloc((size_t)nn * sizeof *order + 1);
  uint32_t *stack = gr_big_alloc((size_t)nn * sizeof *stack + 1);
  uint32_t *next = gr_big_alloc((size_t)nn * sizeof *next + 1);    /* next edge to look at */
  uint8_t *state = gr_big_alloc((size_t)nn + 1);                   /* 0 new, 1 on stack, 2 done */
  for(n = 0; n < nn; n++){
    uint32_t sp = 0;
    if( state[n] ) continue;
    stack[sp++] = n; state[n] = 1;
    while( sp ){
      uint32_t x = stack[sp - 1];
      const gr_node *nd = &nodes[x];
      const gr_edge *ed = gr_graph_edges(g, nd);
      uint32_t ne = (uint32_t)nd->n_data + nd->n_ctrl;
      while( next[x] < ne && (ed[next[x]].src==GR_NONE || state[ed[next[x]].src]) ) next[x]++;
      if( next[x] < ne ){
        uint32_t y = ed[next[x]++].src;
        state[y] = 1;
        stack[sp++] = y;
        continue;
      }
      state[x] = 2;
      order[k++] = x;
      sp--;
    }
  }
  gr_big_free(stack, (size_t)nn * sizeof *stack + 1);
  gr_big_free(next, (size_t)nn * sizeof *next + 1);
  gr_big_free(state, (size_t)nn + 1);
  return order;
}

/* Static nodes on a path between two nodes of one dynamic group, exactly:
** with each group contracted to one vertex, such a node lies on a cycle
** through a group, i.e. in a strongly connected component that holds a group
** (the graph itself being acyclic, every cycle of the contracted graph passes
** through a group). Tarjan's algorithm, iterative, over predecessor edges
** (the components of the reversed graph are the same), in O(nodes + edges).
** On return scc[x] is the component of vertex x (a static node, or the
** representative of a group) and hot[c] is 1 when component c holds a group
** and more than one vertex. up is the union-find of the groups; v the nodes'
** causes (0 static, GR_PC_SEED, GR_PC_NEUTRAL). */
typedef struct tframe { uint32_t v, mi, ei; } tframe;

/* Neutral nodes and (whole) subgraph nodes take no part in the clustering;
** seeds and members of a `group` are contracted to their set's vertex. */
static int outside(const gr_part_node *v, uint32_t y){
  return v[y].cause==GR_PC_NEUTRAL || v[y].cause==GR_PC_SUBGRAPH || v[y].cause==GR_PC_REMOVED;
}
/* The node an edge from y comes from once removed nodes are gone: fwd maps a
** removed node to the producer of its input 0 (GR_NONE when it has none, or
** when the chain reaches a node folded into a Const, which joins no cluster),
** every other node to itself; NULL when no node is removed. */
static uint32_t from_node(const uint32_t *fwd, uint32_t y){
  return fwd && y!=GR_NONE ? fwd[y] : y;
}
static int grouped(const gr_part_node *v, const uint8_t *ing, uint32_t y){
  return v[y].cause==GR_PC_SEED || (ing && ing[y]);
}
static uint32_t vertex_of(uint32_t *up, const gr_part_node *v, const uint8_t *ing, uint32_t y){
  if( y==GR_NONE || outside(v, y) ) return GR_NONE;
  return grouped(v, ing, y) ? uf_find(up, y) : y;
}

static void group_sccs(const gr_graph *g, const gr_part_node *v, const uint8_t *ing, const uint32_t *fwd,
                       uint32_t *up, uint32_t *scc, uint8_t **hot_out){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, x, next_index = 1, nscc = 0, sp = 0, fp = 0;
  uint32_t *mstart = gr_big_alloc(((size_t)nn + 1) * sizeof *mstart);   /* group members, by representative */
  uint32_t *mem = gr_big_alloc((size_t)nn * sizeof *mem + 1);
  uint32_t *idx = gr_big_alloc((size_t)nn * sizeof *idx + 1);         /* 0 not visited */
  uint32_t *low = gr_big_alloc((size_t)nn * sizeof *low + 1);
  uint32_t *stk = gr_big_alloc((size_t)nn * sizeof *stk + 1);
  tframe *fr = gr_big_alloc((size_t)nn * sizeof *fr + 1);
  uint8_t *on = gr_big_alloc((size_t)nn + 1), *hot;
  /* members of each group, contiguous (counting sort by representative) */
  for(n = 0; n < nn; n++) if( grouped(v, ing, n) ) mstart[uf_find(up, n) + 1]++;
  for(n = 0; n < nn; n++) mstart[n + 1] += mstart[n];
  for(n = 0; n < nn; n++) if( grouped(v, ing, n) ) mem[mstart[uf_find(up, n)] + idx[uf_find(up, n)]++] = n;
  memset(idx, 0, (size_t)nn * sizeof *idx);
  for(x = 0; x < nn; x++){
    if( outside(v, x) || (grouped(v, ing, x) && uf_find(up, x)!=x) || idx[x] ) continue;
    fr[fp].v = x; fr[fp].mi = 0; fr[fp].ei = 0; fp++;
    idx[x] = low[x] = next_index++; stk[sp++] = x; on[x] = 1;
    while( fp ){
      tframe *f = &fr[fp - 1];
      uint32_t u = f->v, w = GR_NONE;
      int group = grouped(v, ing, u);
      uint32_t nm = group ? mstart[u + 1] - mstart[u] : 1;
      while( f->mi < nm ){
        uint32_t m = group ? mem[mstart[u] + f->mi] : u;
        const gr_edge *ed = gr_graph_edges(g, &nodes[m]);
        uint32_t ne = (uint32_t)nodes[m].n_data + nodes[m].n_ctrl;
        while( f->ei < ne ){
          w = vertex_of(up, v, ing, from_node(fwd, ed[f->ei++].src));
          if( w==GR_NONE || w==u ){ w = GR_NONE; continue; }
          if( idx[w]==0 ) break;               /* descend into w */
          if( on[w] && idx[w] < low[u] ) low[u] = idx[w];
          w = GR_NONE;
        }
        if( w!=GR_NONE ) break;
        f->mi++; f->ei = 0;
      }
      if( w!=GR_NONE ){
        fr[fp].v = w; fr[fp].mi = 0; fr[fp].ei = 0; fp++;
        idx[w] = low[w] = next_index++; stk[sp++] = w; on[w] = 1;
        continue;
      }
      /* u is done */
      if( low[u]==idx[u] ){
        uint32_t y;
        do{ y = stk[--sp]; on[y] = 0; scc[y] = nscc; }while( y!=u );
        nscc++;
      }
      fp--;
      if( fp ){
        uint32_t p = fr[fp - 1].v;
        if( on[u] && low[u] < low[p] ) low[p] = low[u];   /* u's component still open */
      }
    }
  }
  /* components that hold a group and more than one vertex */
  hot = gr_xcalloc((size_t)nscc + 1, 1);
  {
    uint32_t *csize = gr_xcalloc((size_t)nscc + 1, sizeof *csize);
    uint8_t *cgroup = gr_xcalloc((size_t)nscc + 1, 1);
    for(x = 0; x < nn; x++){
      if( outside(v, x) || (grouped(v, ing, x) && uf_find(up, x)!=x) ) continue;
      csize[scc[x]]++;
    }
    for(x = 0; x < nn; x++) if( v[x].cause==GR_PC_SEED ) cgroup[scc[uf_find(up, x)]] = 1;
    for(x = 0; x < nscc; x++) hot[x] = cgroup[x] && csize[x] > 1;
    free(csize);
    free(cgroup);
  }
  *hot_out = hot;
  gr_big_free(mstart, ((size_t)nn + 1) * sizeof *mstart);
  gr_big_free(mem, (size_t)nn * sizeof *mem + 1);
  gr_big_free(idx, (size_t)nn * sizeof *idx + 1);
  gr_big_free(low, (size_t)nn * sizeof *low + 1);
  gr_big_free(stk, (size_t)nn * sizeof *stk + 1);
  gr_big_free(fr, (size_t)nn * sizeof *fr + 1);
  gr_big_free(on, (size_t)nn + 1);
}

/* The first `limit` or `threshold` line whose condition holds and whose
** value is an int (an unset option is skipped): 1 and *out, or 0. */
static int first_int(gr_env *env, const gr_default *d, size_t nd, int64_t *out){
  size_t b;
  for(b = 0; b < nd; b++){
    gr_val lv;
    if( d[b].cond && !gr_eval_cond(env, d[b].cond) ) continue;
    lv = gr_eval_expr(env, d[b].value);
    if( lv.t!=GR_T_INT ) continue;
    *out = lv.u.i;
    return 1;
  }
  return 0;
}

/* The graph holding each subgraph's parent node, and each graph's depth
** (0 for a graph without a parent). A parent chain longer than the number
** of graphs is a cycle of a malformed model: it stops there. */
static uint32_t *graph_depths(const gr_graph *g, uint32_t *maxdepth){
  uint32_t ng = gr_graph_ngraphs(g), i, *depth = gr_xcalloc((size_t)ng + 1, sizeof *depth);
  const gr_node *nodes = gr_graph_nodes(g);
  *maxdepth = 0;
  for(i = 0; i < ng; i++){
    uint32_t x = i, d = 0, pn;
    while( d < ng && (pn = gr_graph_graph_parent(g, x))!=GR_NONE ){ x = nodes[pn].graph; d++; }
    depth[i] = d;
    if( d > *maxdepth ) *maxdepth = d;
  }
  return depth;
}

/* `subgraph seed NAME;`: a node owning a subgraph that holds a seed, at any
** depth, becomes seed NAME (a neutral node records it and stays neutral).
** Deepest graphs first, so a seed carries up through every level. */
static void seed_owners(const gr_graph *g, const gr_partition *p, gr_part_node *v){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t ng = gr_graph_ngraphs(g), nn = gr_graph_nnodes(g), n, i, d, maxd;
  uint32_t *depth;
  uint8_t *has;
  if( ng < 2 ) return;
  depth = graph_depths(g, &maxd);
  has = gr_xcalloc((size_t)ng + 1, 1);
  for(n = 0; n < nn; n++) if( v[n].seed && !p->seeds[v[n].seed - 1].weak ) has[nodes[n].graph] = 1;
  for(d = maxd; d > 0; d--){
    for(i = 0; i < ng; i++){
      uint32_t pn = gr_graph_graph_parent(g, i);
      if( depth[i]!=d || !has[i] || pn==GR_NONE ) continue;
      if( !v[pn].seed ){
        v[pn].seed = (uint16_t)p->subgraph_seed;
        if( v[pn].cause==0 ) v[pn].cause = GR_PC_SEED;
      }
      has[nodes[pn].graph] = 1;
    }
  }
  free(has);
  free(depth);
}

/* Whole subgraphs (`subgraph dynamic` / `subgraph inherit`): a subgraph is
** dynamic when a `subgraph dynamic` condition holds for one of its nodes or
** for a node of a graph nested in it; otherwise, when a `subgraph inherit`
** condition holds for its parent node, it is dynamic when the parent is: a
** `subgraph dynamic` condition holds for the parent or for a node of any
** graph nested under the parent. Sets v[n].sub of every subgraph node. */
static void subgraph_status(gr_result *r, const gr_partition *p, gr_part_node *v){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t ng = gr_graph_ngraphs(g), nn = gr_graph_nnodes(g), n, i, d, maxd;
  uint32_t *depth = graph_depths(g, &maxd);
  uint8_t *deep = gr_xcalloc((size_t)ng + 1, 1), *dyn = gr_xcalloc((size_t)ng + 1, 1);
  gr_env env;
  size_t b;
  gr_env_init(&env, r);
  /* a node for which a `subgraph dynamic` condition holds */
#define SUB_HOLDS(x, inh, out) do{ (out) = 0; env.node = (x); \
    env.type_name = gr_graph_type_name(g, nodes[x].type); \
    for(b = 0; b < p->nsubgraph && !(out); b++) \
      if( p->subgraph[b].inherit==(inh) && gr_conj_holds(&env, &p->subgraph[b].br, GR_DEP_CONST, GR_DEP_ITEM) ) (out) = 1; \
  }while(0)
  for(n = 0; n < nn; n++){
    int h;
    if( deep[nodes[n].graph] || v[n].cause==GR_PC_REMOVED ) continue;
    SUB_HOLDS(n, 0, h);
    if( h ) deep[nodes[n].graph] = 1;
  }
  for(d = maxd; d > 0; d--){                 /* nested graphs count for their ancestors */
    for(i = 0; i < ng; i++){
      uint32_t pn = gr_graph_graph_parent(g, i);
      if( depth[i]==d && deep[i] && pn!=GR_NONE ) deep[nodes[pn].graph] = 1;
    }
  }
  for(i = 0; i < ng; i++){
    uint32_t pn = gr_graph_graph_parent(g, i), j;
    int inh, pdyn;
    dyn[i] = deep[i];
    if( dyn[i] || pn==GR_NONE ) continue;
    SUB_HOLDS(pn, 1, inh);
    if( !inh ) continue;
    SUB_HOLDS(pn, 0, pdyn);
    for(j = 0; j < ng && !pdyn; j++) if( gr_graph_graph_parent(g, j)==pn && deep[j] ) pdyn = 1;
    dyn[i] = (uint8_t)pdyn;
  }
#undef SUB_HOLDS
  for(n = 0; n < nn; n++) if( v[n].cause==GR_PC_SUBGRAPH ) v[n].sub = dyn[nodes[n].graph];
  free(depth);
  free(deep);
  free(dyn);
}

/* `group EXPR;`: members[] lists the nodes (not outside the clustering)
** whose value is not null, ordered so that equal values are adjacent; their
** values are compared as ints or strings. */
typedef struct gkey { gr_val val; uint32_t node; } gkey;
static int gkey_cmp(const void *x, const void *y){
  const gkey *a = x, *b = y;
  if( a->val.t!=b->val.t ) return a->val.t < b->val.t ? -1 : 1;
  if( a->val.t==GR_T_STR ){
    int c = strcmp(a->val.u.s, b->val.u.s);
    if( c ) return c;
  }else if( a->val.u.i!=b->val.u.i ) return a->val.u.i < b->val.u.i ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}
static int gkey_same(const gkey *a, const gkey *b){
  if( a->val.t!=b->val.t ) return 0;
  return a->val.t==GR_T_STR ? strcmp(a->val.u.s, b->val.u.s)==0 : a->val.u.i==b->val.u.i;
}

/* Marks ing[] for members of a group of two or more and joins them in up; a group holding a seed
** makes its other members seeds (seed 0: cause "group" once clustered,
** from = one of its seeds). Returns ing, or NULL when no group has two. */
static uint8_t *make_groups(gr_result *r, const gr_partition *p, gr_part_node *v, gr_part_link *lk, uint32_t *up){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, nk = 0, a, b2;
  gkey *keys;
  uint8_t *ing = NULL;
  gr_env env;
  if( p->group==NULL ) return NULL;
  gr_env_init(&env, r);
  keys = gr_big_alloc((size_t)nn * sizeof *keys + 1);
  for(n = 0; n < nn; n++){
    gr_val k;
    if( outside(v, n) ) continue;
    env.node = n; env.type_name = gr_graph_type_name(g, nodes[n].type);
    k = gr_eval_expr(&env, p->group);
    if( k.t!=GR_T_INT && k.t!=GR_T_STR && k.t!=GR_T_BOOL ) continue;
    if( k.t==GR_T_STR && k.u.s==NULL ) continue;
    keys[nk].val = k; keys[nk].node = n; nk++;
  }
  qsort(keys, nk, sizeof *keys, gkey_cmp);
  for(a = 0; a < nk; a = b2){
    uint32_t seed = GR_NONE, k;
    for(b2 = a + 1; b2 < nk && gkey_same(&keys[a], &keys[b2]); b2++) ;
    if( b2 - a < 2 ) continue;
    if( ing==NULL ) ing = gr_xcalloc((size_t)nn + 1, 1);
    for(k = a; k < b2; k++){
      ing[keys[k].node] = 1;
      uf_union(up, keys[a].node, keys[k].node);
      if( seed==GR_NONE && v[keys[k].node].cause==GR_PC_SEED ) seed = keys[k].node;
    }
    if( seed==GR_NONE ) continue;
    for(k = a; k < b2; k++){
      uint32_t m = keys[k].node;
      if( v[m].cause==GR_PC_SEED ) continue;
      v[m].cause = GR_PC_SEED;      /* seed 0: a member, not a seed itself */
      lk[m].from = seed;
    }
  }
  gr_big_free(keys, (size_t)nn * sizeof *keys + 1);
  return ing;
}

/* fwd (from_node) for the nodes the judge marks removed, or NULL when there
** are none. A chain of removed nodes is followed to its first kept producer
** (at most 64 links, as expr.c's input_edge; a longer chain or a cycle of a
** malformed model ends at GR_NONE). */
static uint32_t *removed_forward(const gr_result *r){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, *fwd = NULL;
  if( r->judge==NULL ) return NULL;
  for(n = 0; n < nn; n++){
    const gr_jnode *jn = gr_judge_node(r, n);
    uint32_t y = n, hops;
    if( jn==NULL || (jn->engine_by!=GR_JE_REMOVED && jn->engine_by!=GR_JE_FOLDED) ) continue;
    if( fwd==NULL ){
      uint32_t k;
      fwd = gr_big_alloc((size_t)nn * sizeof *fwd + 1);
      for(k = 0; k < nn; k++) fwd[k] = k;
    }
    for(hops = 0; hops < 64 && y!=GR_NONE; hops++){
      const gr_jnode *jy = gr_judge_node(r, y);
      /* a node folded into a Const: its consumers read a new Const, which
      ** joins no cluster (as an edge from no node) */
      if( jy && jy->engine_by==GR_JE_FOLDED ){ y = GR_NONE; break; }
      if( jy==NULL || jy->engine_by!=GR_JE_REMOVED ) break;
      y = nodes[y].n_data ? gr_graph_edges(g, &nodes[y])[0].src : GR_NONE;
    }
    fwd[n] = hops < 64 ? y : GR_NONE;
  }
  return fwd;
}

static void cluster(gr_result *r, const gr_partition *p, gr_part_result *pr, const uint32_t *fwd);

static void run_one(gr_result *r, const gr_partition *p, gr_part_result *pr){
  uint32_t *fwd = removed_forward(r);
  cluster(r, p, pr, fwd);
  if( fwd ) gr_big_free(fwd, (size_t)gr_graph_nnodes(r->g) * sizeof *fwd + 1);
}

static void cluster(gr_result *r, const gr_partition *p, gr_part_result *pr, const uint32_t *fwd){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, k, nseed = 0, nroot = 0, weak = 0;
  size_t b;
  pbranches pb;
  gr_env env;
  gr_part_node *v;
  int whole_subgraphs = p->nsubgraph > 0;

  /* the limit: the first whose condition holds */
  gr_env_init(&env, r);
  pr->has_limit = first_int(&env, p->limits, p->nlimits, &pr->limit);

  /* 1. classify: the first neutral condition, then the first seed (a
  ** neutral node records its seed and stays neutral) */
  pr->v = v = gr_big_alloc((size_t)nn * sizeof *v + 1);
  memset(&pb, 0, sizeof pb);
  {
    uint8_t *shapes = type_shapes(g);
    prepare(r, p, shapes, &pb);
    free(shapes);
  }
  for(n = 0; n < nn; n++){
    const uint8_t *ok = &pb.ok[(size_t)nodes[n].type * pb.n];
    env.node = n;
    env.type_name = gr_graph_type_name(g, nodes[n].type);
    for(b = 0; b < pb.n; b++){
      if( !ok[b] || (ok[b]==1 && !gr_conj_holds(&env, pb.v[b], GR_DEP_ITEM, GR_DEP_ITEM)) ) continue;
      if( b < pb.nneutral ){ v[n].cause = GR_PC_NEUTRAL; b = pb.nneutral - 1; continue; }
      v[n].seed = (uint16_t)(b - pb.nneutral + 1);
      if( v[n].cause==0 ) v[n].cause = GR_PC_SEED;
      break;
    }
  }
  free(pb.v);
  free(pb.ok);
  if( fwd ){                                /* removed nodes: not in GE's graph */
    for(n = 0; n < nn; n++) if( fwd[n]!=n ){ v[n].cause = GR_PC_REMOVED; v[n].seed = 0; }
  }
  if( p->subgraph_seed ) seed_owners(g, p, v);
  for(n = 0; n < nn; n++){
    if( v[n].cause==GR_PC_REMOVED ) continue;
    if( whole_subgraphs && gr_graph_graph_parent(g, nodes[n].graph)!=GR_NONE ){
      v[n].cause = GR_PC_SUBGRAPH;          /* decided with its whole subgraph */
      continue;
    }
    nroot++;
    if( v[n].seed && !p->seeds[v[n].seed - 1].weak ) nseed++;
  }
  for(n = 0; n < nn; n++){                  /* weak seeds: only beside a strong one */
    if( !v[n].seed || !p->seeds[v[n].seed - 1].weak ) continue;
    if( nseed ){ if( v[n].cause!=GR_PC_SUBGRAPH ) weak++; continue; }
    v[n].seed = 0;
    if( v[n].cause==GR_PC_SEED ) v[n].cause = 0;
  }
  nseed += weak;
  pr->nseeds = nseed;

  /* 2. the whole-graph outcomes: a negative limit, or seeds but no node to
  ** cluster (every root node neutral): the whole graph is dynamic */
  for(n = 0; n < nn && nseed; n++) if( !outside(v, n) ) break;
  if( nseed && n==nn ){
    for(n = 0; n < nn; n++) if( v[n].cause!=GR_PC_REMOVED ) v[n].cause = GR_PC_ALL;
    return;
  }
  if( pr->has_limit && pr->limit < 0 ){
    for(n = 0; n < nn; n++) if( v[n].cause!=GR_PC_REMOVED ) v[n].cause = GR_PC_ALL;
    return;
  }
  if( nseed==0 ){
    int64_t thr = 0;
    int small = first_int(&env, p->thresholds, p->nthresholds, &thr) && (int64_t)nroot < thr;
    for(n = 0; n < nn; n++){
      int sub = v[n].cause==GR_PC_SUBGRAPH;
      if( v[n].cause==GR_PC_REMOVED ) continue;
      v[n].sub = 0;
      if( small && !sub ){ v[n].cause = GR_PC_THRESHOLD; continue; }
      /* a neutral node stays neutral unless its own tensors are dynamic:
      ** then only the graph's outcome says it runs static */
      if( v[n].cause==GR_PC_NEUTRAL && !(nodes[n].flags & GR_NODE_DYNAMIC) ) continue;
      v[n].cause = GR_PC_STATIC_GRAPH;
    }
    return;
  }
  if( whole_subgraphs ) subgraph_status(r, p, v);

  {
    gr_part_link *lk = pr->w = gr_big_alloc((size_t)nn * sizeof *lk + 1);
    uint32_t *up = gr_big_alloc((size_t)nn * sizeof *up + 1);
    uint32_t *order = topo_order(g);
    uint32_t *scc = gr_big_alloc((size_t)nn * sizeof *scc + 1);
    uint8_t *hot, *ing;
    for(n = 0; n < nn; n++){ up[n] = n; lk[n].from = lk[n].to = GR_NONE; }
    ing = make_groups(r, p, v, lk, up);

    /* 3. dynamic groups (seeds joined by an edge) and `group` sets, then
    ** the static nodes on a path between nodes of one dynamic group, with a
    ** node of it before and after */
    for(n = 0; n < nn; n++){
      const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
      uint32_t ne = (uint32_t)nodes[n].n_data + nodes[n].n_ctrl;
      if( v[n].cause!=GR_PC_SEED ) continue;
      for(k = 0; k < ne; k++){
        uint32_t y = from_node(fwd, ed[k].src);
        if( y!=GR_NONE && v[y].cause==GR_PC_SEED ) uf_union(up, n, y);
      }
    }
    group_sccs(g, v, ing, fwd, up, scc, &hot);
    for(k = 0; k < nn; k++){          /* forward: a dynamic node before, inside the component */
      uint32_t x = order[k], wx = vertex_of(up, v, ing, x);
      const gr_edge *ed = gr_graph_edges(g, &nodes[x]);
      uint32_t ne = (uint32_t)nodes[x].n_data + nodes[x].n_ctrl, e;
      if( v[x].cause!=0 || !hot[scc[wx]] ) continue;
      for(e = 0; e < ne && lk[x].from==GR_NONE; e++){
        uint32_t y = from_node(fwd, ed[e].src), w = vertex_of(up, v, ing, y);
        if( w==GR_NONE || scc[w]!=scc[wx] ) continue;
        lk[x].from = v[y].cause==GR_PC_SEED ? (v[y].seed ? y : lk[y].from) : lk[y].from;
      }
    }
    for(k = nn; k-- > 0; ){           /* backward: a dynamic node after */
      uint32_t x = order[k], wx = vertex_of(up, v, ing, x), wit;
      const gr_edge *ed = gr_graph_edges(g, &nodes[x]);
      uint32_t ne = (uint32_t)nodes[x].n_data + nodes[x].n_ctrl, e;
      if( wx==GR_NONE || !hot[scc[wx]] ) continue;
      wit = v[x].cause==GR_PC_SEED ? (v[x].seed ? x : lk[x].from) : lk[x].to;
      if( wit==GR_NONE ) continue;
      for(e = 0; e < ne; e++){
        uint32_t y = from_node(fwd, ed[e].src), wy = vertex_of(up, v, ing, y);
        if( wy==GR_NONE || v[y].cause!=0 || scc[wy]!=scc[wx] || lk[y].to!=GR_NONE ) continue;
        lk[y].to = wit;
      }
    }
    for(n = 0; n < nn; n++){
      if( v[n].cause==0 && hot[scc[vertex_of(up, v, ing, n)]] ) v[n].cause = GR_PC_PATH;
      else if( v[n].cause==GR_PC_SEED && v[n].seed==0 ) v[n].cause = GR_PC_GROUP;
    }
    {
    uint32_t *size = gr_big_alloc((size_t)nn * sizeof *size + 1);
    uint32_t *crep;

    /* 4. static clusters and their sizes: static nodes joined by an edge,
    ** with the static nodes of a `group` set and those on a path between
    ** its members (one strongly connected component) */
    if( ing ){                         /* component of each static node, before more unions */
      uint32_t *comp = gr_big_alloc((size_t)nn * sizeof *comp + 1);
      crep = gr_big_alloc((size_t)nn * sizeof *crep + 1);
      for(n = 0; n < nn; n++){ crep[n] = GR_NONE; comp[n] = v[n].cause==0 ? scc[vertex_of(up, v, ing, n)] : GR_NONE; }
      for(n = 0; n < nn; n++){
        if( comp[n]==GR_NONE ) continue;
        if( crep[comp[n]]==GR_NONE ) crep[comp[n]] = n;
        else uf_union(up, n, crep[comp[n]]);
      }
      gr_big_free(comp, (size_t)nn * sizeof *comp + 1);
      gr_big_free(crep, (size_t)nn * sizeof *crep + 1);
    }
    for(n = 0; n < nn; n++){
      const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
      uint32_t ne = (uint32_t)nodes[n].n_data + nodes[n].n_ctrl;
      if( v[n].cause!=0 ) continue;
      for(k = 0; k < ne; k++){
        uint32_t y = from_node(fwd, ed[k].src);
        if( y!=GR_NONE && v[y].cause==0 ) uf_union(up, n, y);
      }
    }
    for(n = 0; n < nn; n++) if( v[n].cause==0 ) size[uf_find(up, n)]++;
    for(n = 0; n < nn; n++){
      if( v[n].cause!=0 ) continue;
      lk[n].size = size[uf_find(up, n)];
      v[n].cause = pr->has_limit && (int64_t)lk[n].size < pr->limit ? GR_PC_SMALL : GR_PC_CLUSTER;
    }
    gr_big_free(size, (size_t)nn * sizeof *size + 1);
    }
    free(hot);
    free(ing);
    gr_big_free(scc, (size_t)nn * sizeof *scc + 1);
    gr_big_free(up, (size_t)nn * sizeof *up + 1);
    gr_big_free(order, (size_t)nn * sizeof *order + 1);
  }
}

void gr_partition_run(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i;
  if( r->g==NULL || rs->npartitions==0 ) return;
#if SIZE_MAX <= UINT32_MAX
  /* per-node arrays of at most 12 bytes: only a 32-bit size_t can overflow */
  if( gr_graph_nnodes(r->g) > (SIZE_MAX - 1) / sizeof(gr_part_link) ){ r->fatal = 1; return; }
#endif
  r->part = gr_xcalloc(rs->npartitions, sizeof *r->part);
  for(i = 0; i < rs->npartitions; i++){
    run_one(r, &rs->partitions[i], &r->part[i]);
  }
}

void gr_partition_free(gr_result *r){
  size_t i;
  if( r->part==NULL ) return;
  for(i = 0; i < r->rs->npartitions; i++){
    if( r->part[i].v ) gr_big_free(r->part[i].v, (size_t)gr_graph_nnodes(r->g) * sizeof *r->part[i].v + 1);
    if( r->part[i].w ) gr_big_free(r->part[i].w, (size_t)gr_graph_nnodes(r->g) * sizeof *r->part[i].w + 1);
  }
  free(r->part);
  r->part = NULL;
}

gr_val gr_partition_field(gr_env *env, const gr_expr *e){
  const gr_result *r = env->r;
  const gr_part_result *pr;
  const gr_part_node *pn;
  gr_val v;
  memset(&v, 0, sizeof v);
  v.t = GR_T_NULL;
  if( r->part==NULL || env->node==GR_NONE || e->ref2 < 0 ) return v;
  pr = &r->part[e->ref2];
  pn = &pr->v[env->node];
  switch( e->ref ){
    case GR_PF_DYNAMIC: case GR_PF_STATIC: {
      int dyn = pn->cause==GR_PC_SEED || pn->cause==GR_PC_PATH || pn->cause==GR_PC_SMALL || pn->cause==GR_PC_ALL
             || pn->cause==GR_PC_GROUP || pn->cause==GR_PC_THRESHOLD || (pn->cause==GR_PC_SUBGRAPH && pn->sub);
      v.t = GR_T_BOOL; v.u.i = e->ref==GR_PF_DYNAMIC ? dyn : !dyn;
      return v;
    }
    case GR_PF_CAUSE:
      if( gr_pcause_name(pn->cause) ){ v.t = GR_T_STR; v.u.s = gr_pcause_name(pn->cause); }
      return v;
    case GR_PF_SEED:
      if( pn->seed ){ v.t = GR_T_STR; v.u.s = r->rs->partitions[e->ref2].seeds[pn->seed - 1].name; }
      return v;
    case GR_PF_SIZE:
      if( pr->w && (pn->cause==GR_PC_SMALL || pn->cause==GR_PC_CLUSTER) ){ v.t = GR_T_INT; v.u.i = pr->w[env->node].size; }
      return v;
    case GR_PF_LIMIT:
      if( pr->has_limit ){ v.t = GR_T_INT; v.u.i = pr->limit; }
      return v;
    case GR_PF_FROM: case GR_PF_TO: {
      uint32_t x = pr->w==NULL ? GR_NONE : e->ref==GR_PF_FROM ? pr->w[env->node].from : pr->w[env->node].to;
      if( x!=GR_NONE ){ v.t = GR_T_NODE; v.u.node = x; }
      return v;
    }
  }
  return v;
}
