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
** Edges are data and control inputs alike; neutral nodes carry no path and
** count in no cluster. What this approximates of GE's partitioner (static
** merges refused because they would close a cycle) is stated in
** rules/partition.rules, next to the GE facts.
*/
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "eval/eval.h"


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

static uint32_t vertex_of(uint32_t *up, const gr_part_node *v, uint32_t y){
  if( y==GR_NONE || v[y].cause==GR_PC_NEUTRAL ) return GR_NONE;
  return v[y].cause==GR_PC_SEED ? uf_find(up, y) : y;
}

static void group_sccs(const gr_graph *g, const gr_part_node *v, uint32_t *up, uint32_t *scc, uint8_t **hot_out){
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
  for(n = 0; n < nn; n++) if( v[n].cause==GR_PC_SEED ) mstart[uf_find(up, n) + 1]++;
  for(n = 0; n < nn; n++) mstart[n + 1] += mstart[n];
  for(n = 0; n < nn; n++) if( v[n].cause==GR_PC_SEED ) mem[mstart[uf_find(up, n)] + idx[uf_find(up, n)]++] = n;
  memset(idx, 0, (size_t)nn * sizeof *idx);
  for(x = 0; x < nn; x++){
    if( v[x].cause==GR_PC_NEUTRAL || (v[x].cause==GR_PC_SEED && uf_find(up, x)!=x) || idx[x] ) continue;
    fr[fp].v = x; fr[fp].mi = 0; fr[fp].ei = 0; fp++;
    idx[x] = low[x] = next_index++; stk[sp++] = x; on[x] = 1;
    while( fp ){
      tframe *f = &fr[fp - 1];
      uint32_t u = f->v, w = GR_NONE;
      int group = v[u].cause==GR_PC_SEED;
      uint32_t nm = group ? mstart[u + 1] - mstart[u] : 1;
      while( f->mi < nm ){
        uint32_t m = group ? mem[mstart[u] + f->mi] : u;
        const gr_edge *ed = gr_graph_edges(g, &nodes[m]);
        uint32_t ne = (uint32_t)nodes[m].n_data + nodes[m].n_ctrl;
        while( f->ei < ne ){
          w = vertex_of(up, v, ed[f->ei++].src);
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
      if( v[x].cause==GR_PC_NEUTRAL || (v[x].cause==GR_PC_SEED && uf_find(up, x)!=x) ) continue;
      csize[scc[x]]++;
      if( v[x].cause==GR_PC_SEED ) cgroup[scc[x]] = 1;
    }
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

static void run_one(gr_result *r, const gr_partition *p, gr_part_result *pr){
  const gr_graph *g = r->g;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, k, nseed = 0;
  size_t b;
  pbranches pb;
  gr_env env;
  gr_part_node *v;

  /* the limit: the first whose condition holds */
  gr_env_init(&env, r);
  pr->has_limit = 0;
  for(b = 0; b < p->nlimits; b++){
    if( p->limits[b].cond && !gr_eval_cond(&env, p->limits[b].cond) ) continue;
    {
      gr_val lv = gr_eval_expr(&env, p->limits[b].value);
      if( lv.t!=GR_T_INT ) continue;        /* an unset option: the next limit applies */
      pr->has_limit = 1; pr->limit = lv.u.i;
    }
    break;
  }

  /* 1. classify */
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
      if( b < pb.nneutral ) v[n].cause = GR_PC_NEUTRAL;
      else { v[n].cause = GR_PC_SEED; v[n].seed = (uint16_t)(b - pb.nneutral + 1); nseed++; }
      break;
    }
  }
  free(pb.v);
  free(pb.ok);

  /* 2. the whole-graph outcomes */
  if( (pr->has_limit && pr->limit < 0) || nseed==0 ){
    uint8_t c = nseed==0 && !(pr->has_limit && pr->limit < 0) ? GR_PC_STATIC_GRAPH : GR_PC_ALL;
    for(n = 0; n < nn; n++) if( v[n].cause!=GR_PC_NEUTRAL ) v[n].cause = c;
    pr->nseeds = nseed;
    return;
  }
  pr->nseeds = nseed;

  {
    gr_part_link *lk = pr->w = gr_big_alloc((size_t)nn * sizeof *lk + 1);
    uint32_t *up = gr_big_alloc((size_t)nn * sizeof *up + 1);
    uint32_t *order = topo_order(g);
    uint32_t *scc = gr_big_alloc((size_t)nn * sizeof *scc + 1);
    uint8_t *hot;
    for(n = 0; n < nn; n++){ up[n] = n; lk[n].from = lk[n].to = GR_NONE; }

    /* 3. dynamic groups (seeds joined by an edge), then the static nodes on
    ** a path between nodes of one group, with a node of it before and after */
    for(n = 0; n < nn; n++){
      const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
      uint32_t ne = (uint32_t)nodes[n].n_data + nodes[n].n_ctrl;
      if( v[n].cause!=GR_PC_SEED ) continue;
      for(k = 0; k < ne; k++) if( ed[k].src!=GR_NONE && v[ed[k].src].cause==GR_PC_SEED ) uf_union(up, n, ed[k].src);
    }
    group_sccs(g, v, up, scc, &hot);
    for(k = 0; k < nn; k++){          /* forward: a dynamic node before, inside the component */
      uint32_t x = order[k];
      const gr_edge *ed = gr_graph_edges(g, &nodes[x]);
      uint32_t ne = (uint32_t)nodes[x].n_data + nodes[x].n_ctrl, e;
      if( v[x].cause!=0 || !hot[scc[x]] ) continue;
      for(e = 0; e < ne && lk[x].from==GR_NONE; e++){
        uint32_t y = ed[e].src, w = vertex_of(up, v, y);
        if( w==GR_NONE || scc[w]!=scc[x] ) continue;
        lk[x].from = v[y].cause==GR_PC_SEED ? y : lk[y].from;
      }
    }
    for(k = nn; k-- > 0; ){           /* backward: a dynamic node after */
      uint32_t x = order[k], wx = vertex_of(up, v, x), wit;
      const gr_edge *ed = gr_graph_edges(g, &nodes[x]);
      uint32_t ne = (uint32_t)nodes[x].n_data + nodes[x].n_ctrl, e;
      if( wx==GR_NONE || !hot[scc[wx]] ) continue;
      wit = v[x].cause==GR_PC_SEED ? x : lk[x].to;
      if( wit==GR_NONE ) continue;
      for(e = 0; e < ne; e++){
        uint32_t y = ed[e].src;
        if( y==GR_NONE || v[y].cause!=0 || scc[y]!=scc[wx] || lk[y].to!=GR_NONE ) continue;
        lk[y].to = wit;
      }
    }
    for(n = 0; n < nn; n++) if( v[n].cause==0 && hot[scc[n]] ) v[n].cause = GR_PC_PATH;
    free(hot);
    gr_big_free(scc, (size_t)nn * sizeof *scc + 1);
    {
    uint32_t *size = gr_big_alloc((size_t)nn * sizeof *size + 1);

    /* 4. static clusters and their sizes */
    for(n = 0; n < nn; n++) up[n] = n;
    for(n = 0; n < nn; n++){
      const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
      uint32_t ne = (uint32_t)nodes[n].n_data + nodes[n].n_ctrl;
      if( v[n].cause!=0 ) continue;
      for(k = 0; k < ne; k++) if( ed[k].src!=GR_NONE && v[ed[k].src].cause==0 ) uf_union(up, n, ed[k].src);
    }
    for(n = 0; n < nn; n++) if( v[n].cause==0 ) size[uf_find(up, n)]++;
    for(n = 0; n < nn; n++){
      if( v[n].cause!=0 ) continue;
      lk[n].size = size[uf_find(up, n)];
      v[n].cause = pr->has_limit && (int64_t)lk[n].size < pr->limit ? GR_PC_SMALL : GR_PC_CLUSTER;
    }
    gr_big_free(size, (size_t)nn * sizeof *size + 1);
    }
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
      int dyn = pn->cause==GR_PC_SEED || pn->cause==GR_PC_PATH || pn->cause==GR_PC_SMALL || pn->cause==GR_PC_ALL;
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
