/*
** expr.c: evaluates checked rule-language expressions against one
** evaluation (chip, options, graph, current node or option or ini entry),
** renders message templates, computes option values and defaults lazily,
** answers product-support questions, and prints expressions back as rule
** text for `gerules explain`. Values are small tagged records (gr_val) that
** point into the rule set, the graph or the result; nothing is copied.
*/
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "eval/eval.h"
#include "eval/judge.h"

/* Values start as a copy of this constant rather than a memset and a byte
** store: measured, GCC built them in a temporary and copied it with 16-byte
** loads that overlapped the byte store (a failed store-to-load forward at
** every call), a quarter of gr_eval_expr's own time on the 1M-op graph. */
static const gr_val k_null = { .t = GR_T_NULL };
static gr_val v_null(void){ return k_null; }
static gr_val v_bool(int b){ gr_val v = v_null(); v.t = GR_T_BOOL; v.u.i = b ? 1 : 0; return v; }
static gr_val v_int(int64_t i){ gr_val v = v_null(); v.t = GR_T_INT; v.u.i = i; return v; }
static gr_val v_str(const char *s){ gr_val v = v_null(); if( s ){ v.t = GR_T_STR; v.u.s = s; } return v; }

void gr_env_init(gr_env *env, gr_result *r){
  memset(env, 0, offsetof(gr_env, memo));
  env->r = r;
  env->node = GR_NONE;
  env->option = env->other = -1;
}

/* ------------------------------------------------------------------ */
/* support */

int gr_value_supported(const gr_ruleset *rs, const gr_option *o, const char *value, int product){
  size_t i;
  (void)rs;
  for(i = 0; i < o->nvalues; i++){
    if( strcmp(o->values[i], value)==0 ){
      if( o->value_support[i].stated ) return gr_support_on(&o->value_support[i], product);
      break;
    }
  }
  return gr_support_on(&o->support, product);
}

int gr_mode_supported(const gr_ruleset *rs, const char *mode, int product, const char **reason){
  int mi = gr_ruleset_find(&rs->mode_map, mode);
  if( reason ) *reason = NULL;
  if( mi < 0 ) return 0;
  if( reason ) *reason = rs->modes[mi].support.reason;
  return gr_support_on(&rs->modes[mi].support, product);
}

/* ------------------------------------------------------------------ */
/* options */

static void split_list(gr_result *r, gr_optstate *st, const char *sep){
  const char *p = st->value, *a;
  size_t n = 0, cap = 0, len;
  const char **items = NULL;
  while( gr_split_next(&p, sep, &a, &len) ){
    if( len==0 ) continue;
    if( n==cap ){
      const char **ni;
      cap = cap ? cap * 2 : 8;
      ni = gr_arena_alloc(&r->arena, cap * sizeof *ni);
      if( n ) memcpy(ni, items, n * sizeof *ni);
      items = ni;
    }
    items[n++] = gr_arena_strndup(&r->arena, a, len);
  }
  st->items = items; st->nitems = n;
}

const gr_optstate *gr_option_state(gr_result *r, int oi){
  gr_optstate *st = &r->opts[oi];
  const gr_option *o = &r->rs->options[oi];
  size_t k;
  if( st->state==2 ) return st;
  if( st->state==1 ){
    /* a default that depends on itself: treat as absent */
    return st;
  }
  st->state = 1;
  if( !st->effective ){
    gr_env env;
    gr_env_init(&env, r);
    st->value = NULL;
    st->origin = NULL;
    for(k = 0; k < o->ndefaults; k++){
      if( gr_eval_cond(&env, o->defaults[k].cond) ){
        gr_val v = gr_eval_expr(&env, o->defaults[k].value);
        st->from_default = &o->defaults[k];
        if( v.t==GR_T_STR ) st->value = v.u.s;
        else if( v.t==GR_T_INT ){
          char tmp[32];
          snprintf(tmp, sizeof tmp, "%" PRId64, v.u.i);
          st->value = gr_arena_strndup(&r->arena, tmp, strlen(tmp));
        }
        break;
      }
    }
  }
  if( st->value && o->type==GR_OT_LIST ) split_list(r, st, o->separator ? o->separator : ",");
  if( st->value && o->type==GR_OT_INT ) st->ival = strtoll(st->value, NULL, 10);
  st->state = 2;
  return st;
}

/* ------------------------------------------------------------------ */
/* lists */

static gr_val list_at(gr_env *env, const gr_val *l, uint32_t i, const gr_expr **cursor){
  gr_val v = v_null();
  const gr_graph *g = env->r->g;
  switch( l->lk ){
    case GR_LK_EXPR:
      if( *cursor ){ v = gr_eval_expr(env, *cursor); *cursor = (*cursor)->next; }
      return v;
    case GR_LK_STRS: return v_str(((const char*const*)l->u.p)[i]);
    case GR_LK_I64: return v_int(((const int64_t*)l->u.p)[i]);
    case GR_LK_F64: {
      char tmp[40];
      snprintf(tmp, sizeof tmp, "%g", ((const double*)l->u.p)[i]);
      return v_str(gr_arena_strndup(&env->r->arena, tmp, strlen(tmp)));
    }
    case GR_LK_GSTR: return v_str(gr_graph_str(g, ((const uint32_t*)l->u.p)[i]));
    case GR_LK_KEYS: return v_str(((const gr_table*)l->u.p)->keys[i]);
    case GR_LK_GTYPES: return v_str(gr_graph_type_name(g, i + 1));
    case GR_LK_DTYPES: return v_str(gr_graph_dtype_name(g, gr_graph_tensors(g, &gr_graph_nodes(g)[l->aux])[i].dtype));
    case GR_LK_INI: {
      const gr_ini *ini = l->u.p;
      uint32_t k, seen = 0;
      for(k = 0; k < ini->n; k++){
        if( ini->v[k].section==(int)l->aux ){
          if( seen==i ) return v_str(ini->v[k].key);
          seen++;
        }
      }
      return v;
    }
    case GR_LK_INPUTS:
      v.t = GR_T_INPUT; v.aux = l->aux; v.u.i = i;
      return v;
  }
  return v;
}

static uint32_t list_len(const gr_val *l){
  if( l->lk==GR_LK_INI ){
    const gr_ini *ini = l->u.p;
    uint32_t k, n = 0;
    for(k = 0; k < ini->n; k++) if( ini->v[k].section==(int)l->aux ) n++;
    return n;
  }
  return l->n;
}

static int val_eq(const gr_val *a, const gr_val *b){
  if( a->t==GR_T_NULL || b->t==GR_T_NULL ) return a->t==b->t;
  if( a->t==GR_T_STR && b->t==GR_T_STR ) return a->u.s==b->u.s || strcmp(a->u.s, b->u.s)==0;
  if( (a->t==GR_T_INT || a->t==GR_T_BOOL) && a->t==b->t ) return a->u.i==b->u.i;
  if( a->t==GR_T_NODE && b->t==GR_T_NODE ) return a->u.node==b->u.node;
  return 0;
}

/* Converts a table value (a literal expression) to a value. */
static gr_val literal(gr_env *env, const gr_expr *e){
  gr_val v = v_null();
  switch( e->op ){
    case GR_E_STR: return v_str(e->s);
    case GR_E_INT: return v_int(e->i);
    case GR_E_BOOL: return v_bool((int)e->i);
    case GR_E_LIST: {
      const gr_expr *x;
      v.t = GR_T_LIST; v.lk = GR_LK_EXPR; v.u.p = e->a;
      for(x = e->a; x; x = x->next) v.n++;
      return v;
    }
    default: return gr_eval_expr(env, e);
  }
}

/* An attribute of the node (in 0) or of its input descriptor in - 1. One of a
** kind the language has no value for (a tensor, a graph, ...) reads as "",
** so `!= null` tests its presence: GE's `_value` on an input descriptor and
** a Const's weight `value` are tensors. */
static gr_val attr_value(gr_env *env, uint32_t node, uint32_t in, const char *key){
  const gr_graph *g = env->r->g;
  const gr_attr *a;
  gr_val v = v_null();
  if( g==NULL ) return v;
  a = in ? gr_graph_input_attr(g, node, in - 1, key) : gr_graph_attr(g, &gr_graph_nodes(g)[node], key);
  if( a==NULL ) return v;
  switch( a->kind ){
    case GR_ATTR_S: case GR_ATTR_DT: return v_str(gr_graph_str(g, a->u.str));
    case GR_ATTR_I: return v_int(a->u.i);
    case GR_ATTR_B: return v_bool((int)a->u.i);
    case GR_ATTR_F: {
      char tmp[40];
      snprintf(tmp, sizeof tmp, "%g", a->u.f);
      return v_str(gr_arena_strndup(&env->r->arena, tmp, strlen(tmp)));
    }
    case GR_ATTR_LIST_S: v.t = GR_T_LIST; v.lk = GR_LK_GSTR; v.n = a->n; v.u.p = gr_graph_list_u32(g, a->u.list); return v;
    case GR_ATTR_LIST_I: case GR_ATTR_LIST_B: v.t = GR_T_LIST; v.lk = GR_LK_I64; v.n = a->n; v.u.p = gr_graph_list_i64(g, a->u.list); return v;
    case GR_ATTR_LIST_F: v.t = GR_T_LIST; v.lk = GR_LK_F64; v.n = a->n; v.u.p = gr_graph_list_f64(g, a->u.list); return v;
    default: return v_str("");
  }
}

/* The edge feeding a node's input as GE sees it once it has deleted the
** nodes the judge marks removed (a Cast whose input and output dtypes agree,
** rules/engines.rules engine_removed_same_dtype_ops, deleted before GE
** compiles the graph): their consumers read the removed node's input 0, so
** `node.input[i].producer` looks through them (at most 64 in a row). */
static const gr_edge *input_edge(gr_env *env, const gr_val *in){
  const gr_graph *g = env->r->g;
  const gr_node *n;
  const gr_edge *ed;
  unsigned hops;
  if( g==NULL || in->aux==GR_NONE ) return NULL;
  n = &gr_graph_nodes(g)[in->aux];
  if( in->u.i < 0 || in->u.i >= n->n_data ) return NULL;
  ed = &gr_graph_edges(g, n)[in->u.i];
  for(hops = 0; hops < 64 && env->r->judge && ed->src!=GR_NONE; hops++){
    const gr_jnode *jn = gr_judge_node(env->r, ed->src);
    const gr_node *p;
    if( jn==NULL || jn->engine_by!=GR_JE_REMOVED ) break;
    p = &gr_graph_nodes(g)[ed->src];
    if( p->n_data==0 ) break;
    ed = &gr_graph_edges(g, p)[0];
  }
  return ed;
}

static gr_val node_field(gr_env *env, uint32_t node, const gr_expr *e){
  const gr_graph *g = env->r->g;
  const gr_node *n;
  gr_val v = v_null();
  if( g==NULL || node==GR_NONE ){
    if( e->ref==GR_F_TYPE && env->type_name ) return v_str(env->type_name);
    return v;
  }
  n = &gr_graph_nodes(g)[node];
  switch( e->ref ){
    case GR_F_NAME: return v_str(gr_graph_str(g, n->name));
    case GR_F_TYPE: return v_str(gr_graph_type_name(g, n->type));
    case GR_F_GRAPH: return v_str(gr_graph_graph_name(g, n->graph));
    case GR_F_STATIC: return v_bool(!(n->flags & GR_NODE_DYNAMIC));
    case GR_F_DYNAMIC: return v_bool(n->flags & GR_NODE_DYNAMIC);
    case GR_F_INPUTS: return v_int(n->n_data);
    case GR_F_OUTPUTS: return v_int(n->n_out_desc);
    case GR_F_INPUT: v.t = GR_T_INPUTS; v.lk = GR_LK_INPUTS; v.aux = node; v.n = n->n_data; return v;
    case GR_F_ATTR: v.t = GR_T_ATTRS; v.aux = node; return v;
    case GR_F_PARENT: {
      uint32_t p = gr_graph_graph_parent(g, n->graph);
      if( p==GR_NONE ) return v;
      v.t = GR_T_NODE; v.u.node = p; return v;
    }
    case GR_F_JUDGE: {
      gr_result *r = env->r;
      const gr_jnode *jn = gr_judge_node(r, node);
      if( jn==NULL ) return v;
      switch( e->ref2 ){
        case GR_JF_DTYPE: return v_str(gr_judge_dtype(r, node));
        case GR_JF_DTYPE_BY: return v_str(gr_judge_dtype_by(r, node));
        case GR_JF_ENGINE: return v_str(gr_judge_engine(r, node));
        case GR_JF_ENGINE_BY: return v_str(gr_judge_engine_by(r, node));
        case GR_JF_STRATEGY: return v_str(gr_judge_strategy(r, node));
        case GR_JF_TYPE: return v_str(gr_judge_type(r, node));
        case GR_JF_CASTS: return v_int(gr_judge_casts(r, node));
        case GR_JF_REFUSAL_ENGINE: case GR_JF_REFUSAL_WHY: case GR_JF_REFUSAL_GE_OP: {
          gr_buf b;
          int e1, ge = 0;
          gr_buf_init(&b);
          e1 = gr_judge_refusal(r, node, env->refusal, e->ref2==GR_JF_REFUSAL_WHY ? &b : NULL, &ge);
          if( e1 ) v = e->ref2==GR_JF_REFUSAL_ENGINE ? v_str(gr_judge_engine_id(r, e1))
                     : e->ref2==GR_JF_REFUSAL_GE_OP ? v_bool(ge)
                     : v_str(gr_arena_strndup(&r->arena, b.p ? b.p : "", b.n));
          gr_buf_free(&b);
          return v;
        }
        case GR_JF_DTYPE_WHY: case GR_JF_ENGINE_WHY: case GR_JF_ENGINE_SUMMARY: {
          gr_buf b;
          gr_buf_init(&b);
          if( e->ref2==GR_JF_DTYPE_WHY ) gr_judge_dtype_why(r, node, &b);
          else if( e->ref2==GR_JF_ENGINE_WHY ) gr_judge_engine_why(r, node, &b);
          else gr_judge_engine_summary(r, node, &b);
          v = v_str(gr_arena_strndup(&r->arena, b.p ? b.p : "", b.n));
          gr_buf_free(&b);
          return v;
        }
      }
      return v;
    }
    case GR_F_DTYPES: v.t = GR_T_LIST; v.lk = GR_LK_DTYPES; v.aux = node; v.n = (uint32_t)n->n_in_desc + n->n_out_desc; return v;
    case GR_F_SLOT: case GR_F_SLOT_SOURCE: {
      const gr_result *r = env->r;
      const gr_decision *d;
      if( r->dec==NULL ) return v;
      d = gr_dec(r, node, e->ref2);
      if( e->ref==GR_F_SLOT ) return v_str(d->value);
      if( d->source==GR_SOURCE_HOOK ) return v_str("hook");
      return d->source >= 0 ? v_str(r->rs->sources[d->source].name) : v;
    }
  }
  return v;
}

static gr_val option_field(gr_env *env, const gr_expr *e){
  const gr_input *in = env->in;
  const gr_ruleset *rs = env->r->rs;
  int oi = in ? in->option : env->option;
  const gr_option *o = oi >= 0 ? &rs->options[oi] : NULL;
  switch( e->ref ){
    case GR_F_NAME: return v_str(o ? o->name : (in ? in->key : NULL));
    case GR_F_KEY: return v_str(in ? in->key : (o ? o->key : NULL));
    case GR_F_VALUE: {
      if( in ){ gr_val v = v_str(in->value); v.origin = &in->origin; return v; }
      if( oi >= 0 ) return v_str(gr_option_state(env->r, oi)->value);
      return v_null();
    }
    case GR_F_KNOWN: return v_bool(oi >= 0);
    case GR_F_VALID: return v_bool(in ? in->valid : 1);
    case GR_F_PROBLEM: return v_str(in && in->problem ? in->problem : "");
    case GR_F_SUPPORTED: return v_bool(o && gr_support_on(&o->support, env->r->product));
    case GR_F_VALUE_SUPPORTED:
      if( o==NULL ) return v_bool(0);
      return v_bool(gr_value_supported(rs, o, in ? in->value : gr_option_state(env->r, oi)->value ? gr_option_state(env->r, oi)->value : "", env->r->product));
    case GR_F_EFFECTIVE: return v_bool(in ? in->effective : (oi >= 0 && env->r->opts[oi].effective));
    case GR_F_GIVEN: return v_bool(in ? in->value[0]!=0 : (oi >= 0 && env->r->opts[oi].given));
    case GR_F_DEPRECATED: return o && o->deprecated ? v_str(o->deprecated) : v_null();
    case GR_F_SUGGESTION: return v_str(in && in->suggestion ? in->suggestion : "");
    case GR_F_ORIGIN: {
      const gr_origin *og = in ? &in->origin : (oi >= 0 ? env->r->opts[oi].origin : NULL);
      char tmp[600];
      if( og==NULL ) return v_str("default");
      if( og->line ) snprintf(tmp, sizeof tmp, "%s:%u", og->file, og->line);
      else snprintf(tmp, sizeof tmp, "%s", og->file);
      return v_str(gr_arena_strndup(&env->r->arena, tmp, strlen(tmp)));
    }
  }
  return v_null();
}

static gr_val entry_field(gr_env *env, const gr_expr *e){
  const gr_ini_entry *en = env->entry;
  gr_val v;
  if( en==NULL ) return v_null();
  switch( e->ref ){
    case GR_F_OPTION: return v_str(env->option >= 0 ? env->r->rs->options[env->option].name : NULL);
    case GR_F_SECTION: {
      const gr_option *o = env->option >= 0 ? &env->r->rs->options[env->option] : NULL;
      return v_str(o && o->format ? o->format->sections[en->section].name : NULL);
    }
    case GR_F_KEY: v = v_str(en->key); v.origin = &en->origin; return v;
    case GR_F_VALUE: v = v_str(en->value); v.origin = &en->origin; return v;
    case GR_F_MATCHED: return v_bool(en->matched);
    case GR_F_FILE: return v_str(env->ini ? env->ini->path : NULL);
    case GR_F_LINE: return v_int(en->line);
    case GR_F_SUGGESTION: return v_str(en->suggestion ? en->suggestion : "");
    case GR_F_PARTS: return v_str(en->parts ? en->parts : "");
  }
  return v_null();
}

/* The value s, its letters folded (ASCII) to the case of fold, equals the
** table string t. The checker keeps every string of a folding table that
** `in` compares with in the table's case (check_fold.c), so this is GE's
** transform-then-compare. */
static int fold_eq(const char *s, const char *t, uint8_t fold){
  for(; *s && *t; s++, t++){
    char ch = *s;
    if( fold==GR_FOLD_LOWER && ch >= 'A' && ch <= 'Z' ) ch = (char)(ch - 'A' + 'a');
    if( fold==GR_FOLD_UPPER && ch >= 'a' && ch <= 'z' ) ch = (char)(ch - 'a' + 'A');
    if( ch!=*t ) return 0;
  }
  return *s==*t;
}

static int contains(gr_env *env, const gr_val *hay, const gr_val *needle){
  if( needle->t==GR_T_NULL ) return 0;
  if( hay->t==GR_T_TABLE ){
    const gr_table *t = hay->u.p;
    size_t k;
    if( needle->t!=GR_T_STR ) return 0;
    if( hay->lk==GR_LK_INI ) return gr_ini_get(hay->u.p, (int)hay->aux, needle->u.s)!=NULL;
    if( !t->fold || t->is_map ) return gr_map_get(&t->keymap, needle->u.s)!=NULL;
    for(k = 0; k < t->n; k++) if( fold_eq(needle->u.s, t->keys[k], t->fold) ) return 1;
    return 0;
  }
  if( hay->t==GR_T_LIST ){
    const gr_expr *cur = hay->lk==GR_LK_EXPR ? hay->u.p : NULL;
    uint32_t i, n = list_len(hay);
    for(i = 0; i < n; i++){
      gr_val x = list_at(env, hay, i, &cur);
      if( hay->fold && x.t==GR_T_STR && needle->t==GR_T_STR ){
        if( fold_eq(needle->u.s, x.u.s, hay->fold) ) return 1;
      }else if( val_eq(&x, needle) ) return 1;
    }
  }
  return 0;
}

static int truthy(const gr_val *v){
  return v->t==GR_T_BOOL ? v->u.i!=0 : 0;
}

/* and / or / not are taken here, without a round through gr_eval_expr:
** the rules' conditions are deep chains of them, and gr_eval_expr's frame
** (room for every kind of value) is large. Measured reason: on the 1M-op
** graph, gr_eval_expr was 9% of the eval's CPU time, most of it entering
** and leaving frames for the and / or nests of the tiling and partition
** conditions. The result is the same: truthy() of the value. */
static int memo_cond(gr_env *env, const gr_expr *e);

static inline int cond_body(gr_env *env, const gr_expr *e){
  gr_val v;
  switch( e->op ){
    case GR_E_AND: return gr_eval_cond(env, e->a) && gr_eval_cond(env, e->b);
    case GR_E_OR: return gr_eval_cond(env, e->a) || gr_eval_cond(env, e->b);
    case GR_E_NOT: return !gr_eval_cond(env, e->a);
    default: break;
  }
  v = gr_eval_expr(env, e);
  return truthy(&v);
}

int gr_eval_cond(gr_env *env, const gr_expr *e){
  if( e==NULL ) return 1;
  if( e->shown && e->shown->ref2 && env->node!=GR_NONE ) return memo_cond(env, e);
  return cond_body(env, e);
}

/* A named condition's body inlined at e, which the checker found pure for
** one node (check_cond.c, memo_safe: no slot decisions, partitions, scopes
** or binders of its own) and called with bound variables or literals: its
** value for this node and these arguments is kept in env, so the same call
** from another rule (constant_input(i) is in six) is not evaluated again.
** Measured reason: the tiling and partition rules' constant-input tests
** made gr_eval_expr 7.5% of the 1M-op eval's CPU time, on the 2% of nodes
** with value-dependent inputs, mostly the same calls again. */
#define MEMO_N (sizeof ((gr_env*)0)->memo / sizeof ((gr_env*)0)->memo[0])
static int memo_cond(gr_env *env, const gr_expr *e){
  const gr_expr *call = e->shown, *x;
  struct gr_memo key, *m;
  unsigned i, n;
  memset(&key, 0, sizeof key);
  key.cond = call->ptr;
  key.node = env->node;
  for(x = call->a; x; x = x->next){
    gr_val v = x->op==GR_E_NAME ? env->vars[x->ref2] : gr_eval_expr(env, x);
    if( key.nk==2 || (v.t!=GR_T_INT && v.t!=GR_T_BOOL && v.t!=GR_T_NODE) ) return cond_body(env, e);
    key.kt[key.nk] = v.t;
    key.k[key.nk++] = v.t==GR_T_NODE ? (int64_t)v.u.node : v.u.i;
  }
  n = env->nmemo < MEMO_N ? env->nmemo : (unsigned)MEMO_N;
  for(i = 0; i < n; i++){
    m = &env->memo[i];
    if( m->cond==key.cond && m->node==key.node && m->nk==key.nk && m->kt[0]==key.kt[0] && m->k[0]==key.k[0]
        && m->kt[1]==key.kt[1] && m->k[1]==key.k[1] ) return m->res;
  }
  key.res = (uint8_t)cond_body(env, e);
  env->memo[env->nmemo++ % MEMO_N] = key;       /* full: the oldest goes */
  return key.res;
}

gr_val gr_eval_expr(gr_env *env, const gr_expr *e){
  gr_result *r = env->r;
  gr_val a, b, v = v_null();
  switch( e->op ){
    case GR_E_STR: return v_str(e->s);
    case GR_E_INT: return v_int(e->i);
    case GR_E_BOOL: return v_bool((int)e->i);
    case GR_E_NULL: return v;
    case GR_E_LIST: return literal(env, e);
    case GR_E_RUNMODE: return v_str(r->run_mode);
    case GR_E_ENTRYPOINT: return v_str(r->entry_point);
    case GR_E_CHIP: v.t = GR_T_CHIP; return v;
    case GR_E_GRAPH: v.t = GR_T_GRAPH; return v;
    case GR_E_NODE: v.t = GR_T_NODE; v.u.node = env->node; return v;
    case GR_E_ENTRY: v.t = GR_T_ENTRY; return v;
    case GR_E_OPTSCOPE: v.t = GR_T_OPTREF; return v;
    case GR_E_OPTION: {
      const gr_optstate *st = gr_option_state(r, e->ref);
      const gr_option *o = &r->rs->options[e->ref];
      if( st->value==NULL ) return v;
      if( o->type==GR_OT_INT ) v = v_int(st->ival);
      else if( o->type==GR_OT_LIST ){ v.t = GR_T_LIST; v.lk = GR_LK_STRS; v.u.p = st->items; v.n = (uint32_t)st->nitems; }
      else v = v_str(st->value);
      v.origin = st->origin;
      return v;
    }
    case GR_E_OPTSET:
      return v_bool(r->opts[e->ref].effective);
    case GR_E_HAS:
      return v_bool(e->ref >= 0 && r->soc >= 0 && r->rs->socs[r->soc].caps[e->ref]);
    case GR_E_SUPPORTS: {
      const gr_option *o = &r->rs->options[e->ref];
      if( e->a ){
        a = gr_eval_expr(env, e->a);
        if( a.t!=GR_T_STR ) return v_bool(0);
        return v_bool(gr_value_supported(r->rs, o, a.u.s, r->product));
      }
      return v_bool(gr_support_on(&o->support, r->product));
    }
    case GR_E_SUPPORTS_MODE:
      a = gr_eval_expr(env, e->a);
      if( a.t!=GR_T_STR ) return v_bool(0);
      return v_bool(gr_mode_supported(r->rs, a.u.s, r->product, NULL));
    case GR_E_NOT: case GR_E_AND: case GR_E_OR:
      return v_bool(gr_eval_cond(env, e));
    case GR_E_EQ: case GR_E_NE:
      a = gr_eval_expr(env, e->a); b = gr_eval_expr(env, e->b);
      return v_bool(val_eq(&a, &b) == (e->op==GR_E_EQ));
    case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE:
      a = gr_eval_expr(env, e->a); b = gr_eval_expr(env, e->b);
      if( a.t!=GR_T_INT || b.t!=GR_T_INT ) return v_bool(0);
      switch( e->op ){
        case GR_E_LT: return v_bool(a.u.i < b.u.i);
        case GR_E_LE: return v_bool(a.u.i <= b.u.i);
        case GR_E_GT: return v_bool(a.u.i > b.u.i);
        default: return v_bool(a.u.i >= b.u.i);
      }
    case GR_E_IN: case GR_E_NOTIN:
      a = gr_eval_expr(env, e->a); b = gr_eval_expr(env, e->b);
      if( a.t==GR_T_NULL ) return v_bool(0);
      return v_bool(contains(env, &b, &a) == (e->op==GR_E_IN));
    case GR_E_ANY: case GR_E_ALL: {
      gr_val l = gr_eval_expr(env, e->a);
      const gr_expr *cur;
      uint32_t i, n;
      int want_any = e->op==GR_E_ANY;
      if( l.t==GR_T_TABLE && l.lk!=GR_LK_INI ){
        l.t = GR_T_LIST; l.lk = GR_LK_KEYS; l.n = (uint32_t)((const gr_table*)l.u.p)->n;
      }else if( l.t==GR_T_TABLE ){
        l.t = GR_T_LIST;
      }else if( l.t==GR_T_INPUTS ){
        l.t = GR_T_LIST;
      }else if( l.t!=GR_T_LIST ){
        return v_bool(!want_any);
      }
      cur = l.lk==GR_LK_EXPR ? l.u.p : NULL;
      n = list_len(&l);
      for(i = 0; i < n; i++){
        env->vars[e->ref] = list_at(env, &l, i, &cur);
        if( gr_eval_cond(env, e->b)==want_any ) return v_bool(want_any);
      }
      if( want_any ) env->vars[e->ref] = v_null();
      return v_bool(!want_any);
    }
    case GR_E_NAME:
      switch( e->ref ){
        case GR_NAME_TABLE: v.t = GR_T_TABLE; v.u.p = e->ptr; return v;
        case GR_NAME_VAR: return env->vars[e->ref2];
        case GR_NAME_COUNT: return v_int(env->count);
        case GR_NAME_OTHER: v.t = GR_T_OTHER; return v;
      }
      return v;
    case GR_E_FIELD:
      a = gr_eval_expr(env, e->a);
      switch( a.t ){
        case GR_T_CHIP: {
          const gr_ruleset *rs = r->rs;
          if( r->soc < 0 ) return v;
          switch( e->ref ){
            case GR_F_SOC: return v_str(r->soc_name);
            case GR_F_PRODUCT: return v_str(rs->products[r->product].name);
            case GR_F_TITLE: return v_str(rs->products[r->product].title);
            case GR_F_HW: return v_int(rs->socs[r->soc].hw[e->ref2]);
          }
          return v;
        }
        case GR_T_NODE: return node_field(env, a.u.node, e);
        case GR_T_INPUT: {
          const gr_edge *ed = input_edge(env, &a);
          switch( e->ref ){
            case GR_F_CONNECTED: return v_bool(ed && ed->src!=GR_NONE);
            case GR_F_PRODUCER:
              if( ed==NULL || ed->src==GR_NONE ) return v;
              v.t = GR_T_NODE; v.u.node = ed->src; return v;
            case GR_F_INDEX: return ed ? v_int(ed->index) : v;
            case GR_F_ATTR:      /* the input descriptor's attributes (n = index + 1) */
              if( a.aux==GR_NONE || a.u.i < 0 || a.u.i >= 0xffff ) return v;
              v.t = GR_T_ATTRS; v.aux = a.aux; v.n = (uint32_t)a.u.i + 1; return v;
            case GR_F_RANK: case GR_F_DIMS: {
              /* the input descriptor's shape as the model gives it (no
              ** descriptor, or a shape the reader could not tell, graph.h
              ** GR_SHAPE_UNKNOWN: null; no shape field: [], rank 0) */
              const gr_node *nd;
              const int64_t *dims;
              uint32_t nd2;
              if( r->g==NULL || a.aux==GR_NONE || a.u.i < 0 ) return v;
              nd = &gr_graph_nodes(r->g)[a.aux];
              if( a.u.i >= nd->n_in_desc ) return v;
              if( !gr_graph_shape_known(r->g, gr_graph_tensors(r->g, nd)[a.u.i].shape) ) return v;
              dims = gr_graph_shape(r->g, gr_graph_tensors(r->g, nd)[a.u.i].shape, &nd2);
              if( e->ref==GR_F_RANK ) return v_int(nd2);
              v.t = GR_T_LIST; v.lk = GR_LK_I64; v.n = nd2; v.u.p = dims;
              return v;
            }
          }
          return v;
        }
        case GR_T_OPTREF: return option_field(env, e);
        case GR_T_ENTRY: return entry_field(env, e);
        case GR_T_OTHER: return v_str(env->other >= 0 ? r->rs->options[env->other].name : NULL);
        case GR_T_GRAPH:
          if( r->g==NULL ) return v;
          switch( e->ref ){
            case GR_F_NAME: return v_str(gr_graph_model_name(r->g));
            case GR_F_NODES: return v_int(gr_graph_nnodes(r->g));
            case GR_F_TYPES:       /* type id 0 is "" (an op without a type): left out */
              v.t = GR_T_LIST; v.lk = GR_LK_GTYPES; v.n = gr_graph_ntypes(r->g) ? gr_graph_ntypes(r->g) - 1 : 0; v.u.p = r->g;
              return v;
            case GR_F_STATIC: case GR_F_DYNAMIC: {
              if( r->graph_dynamic < 0 ){
                uint32_t n, nn = gr_graph_nnodes(r->g);
                const gr_node *nodes = gr_graph_nodes(r->g);
                r->graph_dynamic = 0;
                for(n = 0; n < nn; n++) if( nodes[n].flags & GR_NODE_DYNAMIC ){ r->graph_dynamic = 1; break; }
              }
              return v_bool(e->ref==GR_F_DYNAMIC ? r->graph_dynamic : !r->graph_dynamic);
            }
          }
          return v;
        default: return v;
      }
    case GR_E_INDEX:
      a = gr_eval_expr(env, e->a);
      b = gr_eval_expr(env, e->b);
      switch( a.t ){
        case GR_T_TABLE:
          if( b.t!=GR_T_STR ) return v;
          if( a.lk==GR_LK_INI ){
            const gr_ini_entry *en = gr_ini_get(a.u.p, (int)a.aux, b.u.s);
            if( en==NULL ) return v;
            v = v_str(en->value);
            v.origin = &en->origin;
            return v;
          }else{
            const gr_table *t = a.u.p;
            void *k = gr_map_get(&t->keymap, b.u.s);
            if( k==NULL || !t->is_map ) return v;
            v = literal(env, t->vals[(intptr_t)k - 1]);
            if( v.t==GR_T_LIST ) v.fold = t->fold;
            v.origin = b.origin;
            return v;
          }
        case GR_T_INPUTS:
          if( b.t!=GR_T_INT ) return v;
          v.t = GR_T_INPUT; v.aux = a.aux; v.u.i = b.u.i;
          return v;
        case GR_T_ATTRS:
          if( b.t!=GR_T_STR ) return v;
          return attr_value(env, a.aux, a.n, b.u.s);
        case GR_T_LIST: {
          const gr_expr *cur = a.lk==GR_LK_EXPR ? a.u.p : NULL;
          uint32_t i;
          int64_t k = b.u.i;
          if( b.t!=GR_T_INT ) return v;
          if( k < 0 ) k += (int64_t)list_len(&a);      /* from the end, as Python's */
          if( k < 0 || (uint64_t)k >= list_len(&a) ) return v;
          for(i = 0; i < (uint32_t)k && a.lk==GR_LK_EXPR; i++) cur = cur->next;
          return list_at(env, &a, (uint32_t)k, &cur);
        }
        default: return v;
      }
    case GR_E_PARTITION: return gr_partition_field(env, e);
    case GR_E_ADD: case GR_E_MOD:
      a = gr_eval_expr(env, e->a); b = gr_eval_expr(env, e->b);
      if( a.t!=GR_T_INT || b.t!=GR_T_INT ) return v;
      if( e->op==GR_E_ADD ){
        if( (b.u.i > 0 && a.u.i > INT64_MAX - b.u.i) || (b.u.i < 0 && a.u.i < INT64_MIN - b.u.i) ) return v;
        return v_int(a.u.i + b.u.i);
      }
      if( b.u.i==0 ) return v;
      if( b.u.i==-1 ) return v_int(0);                /* INT64_MIN % -1 traps in C */
      {
        int64_t m = a.u.i % b.u.i;                    /* floored, as Python's: the sign of b */
        if( m!=0 && ((m < 0)!=(b.u.i < 0)) ) m += b.u.i;
        return v_int(m);
      }
    case GR_E_INI: {
      const gr_optstate *st = &r->opts[e->ref];
      if( st->ini==NULL || !st->effective ) return v;
      v.t = GR_T_TABLE; v.lk = GR_LK_INI; v.u.p = st->ini; v.aux = (uint32_t)e->ref2;
      return v;
    }
  }
  return v;
}

/* ------------------------------------------------------------------ */
/* templates */

/* A string put into a message: one longer than RENDER_MAX bytes (a 16 MB op
** type read from a hostile model) keeps its head and its tail, cut at UTF-8
** character boundaries, around "...", so that a message stays readable and
** its size bounded whatever the model holds. */
#define RENDER_MAX 1024
static void render_str(gr_buf *out, const char *s){
  size_t n = strlen(s), h, t;
  if( n <= RENDER_MAX ){ gr_buf_add(out, s, n); return; }
  h = RENDER_MAX / 2 - 2;
  while( h > 0 && ((unsigned char)s[h] & 0xC0)==0x80 ) h--;
  t = n - (RENDER_MAX / 2 - 2);
  while( t < n && ((unsigned char)s[t] & 0xC0)==0x80 ) t++;
  gr_buf_add(out, s, h);
  gr_buf_adds(out, "...");
  gr_buf_add(out, s + t, n - t);
}

static void render_val(gr_env *env, const gr_val *v, gr_buf *out){
  switch( v->t ){
    case GR_T_STR: render_str(out, v->u.s); break;
    case GR_T_INT: gr_buf_printf(out, "%" PRId64, v->u.i); break;
    case GR_T_BOOL: gr_buf_adds(out, v->u.i ? "true" : "false"); break;
    case GR_T_NODE:
      if( env->r->g && v->u.node!=GR_NONE ) render_str(out, gr_graph_str(env->r->g, gr_graph_nodes(env->r->g)[v->u.node].name));
      break;
    case GR_T_LIST: {
      const gr_expr *cur = v->lk==GR_LK_EXPR ? v->u.p : NULL;
      uint32_t i, n = list_len(v);
      for(i = 0; i < n; i++){
        gr_val x = list_at(env, v, i, &cur);
        if( i ) gr_buf_adds(out, ", ");
        render_val(env, &x, out);
      }
      break;
    }
    default: break;
  }
}

void gr_render(gr_env *env, const gr_template *t, gr_buf *out){
  size_t i;
  if( t->constant ){ gr_buf_adds(out, t->constant); return; }
  for(i = 0; i < t->n; i++){
    gr_buf_adds(out, t->parts[i].lit);
    if( t->parts[i].e ){
      gr_val v = gr_eval_expr(env, t->parts[i].e);
      render_val(env, &v, out);
    }
  }
}

/* ------------------------------------------------------------------ */
/* printing */

static int prec(const gr_expr *e, int expanded){
  if( e->shown && !expanded ) return 7;    /* a call */
  switch( e->op ){
    case GR_E_ANY: case GR_E_ALL: return 0;
    case GR_E_OR: return 1;
    case GR_E_AND: return 2;
    case GR_E_NOT: return 3;
    case GR_E_EQ: case GR_E_NE: case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE:
    case GR_E_IN: case GR_E_NOTIN: case GR_E_HAS: case GR_E_SUPPORTS: case GR_E_SUPPORTS_MODE: case GR_E_OPTSET:
      return 4;
    case GR_E_ADD: return 5;
    case GR_E_MOD: return 6;
    default: return 7;
  }
}

static void expr_print(gr_buf *b, const gr_expr *e, int expanded);
static void print_sub(gr_buf *b, const gr_expr *e, int min, int expanded){
  if( prec(e, expanded) < min ){ gr_buf_addc(b, '('); expr_print(b, e, expanded); gr_buf_addc(b, ')'); }
  else expr_print(b, e, expanded);
}

static void print_str(gr_buf *b, const char *s){
  gr_buf_addc(b, '"');
  for(; *s; s++){
    if( *s=='"' || *s=='\\' ) gr_buf_addc(b, '\\');
    if( *s=='\n' ){ gr_buf_adds(b, "\\n"); continue; }
    if( *s=='\t' ){ gr_buf_adds(b, "\\t"); continue; }
    gr_buf_addc(b, *s);
  }
  gr_buf_addc(b, '"');
}

static void expr_print(gr_buf *b, const gr_expr *e, int expanded){
  static const char *ops[] = { [GR_E_EQ] = " == ", [GR_E_NE] = " != ", [GR_E_LT] = " < ", [GR_E_LE] = " <= ",
    [GR_E_GT] = " > ", [GR_E_GE] = " >= ", [GR_E_IN] = " in ", [GR_E_NOTIN] = " not in ",
    [GR_E_AND] = " and ", [GR_E_OR] = " or ", [GR_E_ADD] = " + ", [GR_E_MOD] = " % " };
  const gr_expr *x;
  if( e==NULL ){ gr_buf_adds(b, "true"); return; }
  if( e->shown && !expanded ){
    gr_buf_printf(b, "%s(", e->shown->s);
    for(x = e->shown->a; x; x = x->next){ if( x!=e->shown->a ) gr_buf_adds(b, ", "); expr_print(b, x, expanded); }
    gr_buf_addc(b, ')');
    return;
  }
  switch( e->op ){
    case GR_E_STR: print_str(b, e->s); break;
    case GR_E_INT: gr_buf_printf(b, "%" PRId64, e->i); break;
    case GR_E_BOOL: gr_buf_adds(b, e->i ? "true" : "false"); break;
    case GR_E_NULL: gr_buf_adds(b, "null"); break;
    case GR_E_LIST:
      gr_buf_addc(b, '[');
      for(x = e->a; x; x = x->next){ if( x!=e->a ) gr_buf_adds(b, ", "); expr_print(b, x, expanded); }
      gr_buf_addc(b, ']');
      break;
    case GR_E_NAME: gr_buf_adds(b, e->s); break;
    case GR_E_CHIP: gr_buf_adds(b, "chip"); break;
    case GR_E_GRAPH: gr_buf_adds(b, "graph"); break;
    case GR_E_NODE: gr_buf_adds(b, "node"); break;
    case GR_E_ENTRY: gr_buf_adds(b, "entry"); break;
    case GR_E_OPTSCOPE: gr_buf_adds(b, "option"); break;
    case GR_E_RUNMODE: gr_buf_adds(b, "run_mode"); break;
    case GR_E_ENTRYPOINT: gr_buf_adds(b, "entry_point"); break;
    case GR_E_OPTION: gr_buf_printf(b, "option %s", e->s); break;
    case GR_E_OPTSET: gr_buf_printf(b, "option %s set", e->s); break;
    case GR_E_FIELD: print_sub(b, e->a, 7, expanded); gr_buf_printf(b, ".%s", e->s); break;
    case GR_E_INDEX: print_sub(b, e->a, 7, expanded); gr_buf_addc(b, '['); expr_print(b, e->b, expanded); gr_buf_addc(b, ']'); break;
    case GR_E_INI: gr_buf_printf(b, "ini(%s).%s", e->s, e->s2); break;
    case GR_E_PARTITION: gr_buf_printf(b, "partition(%s).%s", e->s, e->s2); break;
    case GR_E_HAS: gr_buf_printf(b, "chip has %s", e->s); break;
    case GR_E_SUPPORTS:
      gr_buf_printf(b, "chip supports %s", e->s);
      if( e->a ){ gr_buf_adds(b, " = "); print_sub(b, e->a, 7, expanded); }
      break;
    case GR_E_SUPPORTS_MODE: gr_buf_adds(b, "chip supports mode "); print_sub(b, e->a, 7, expanded); break;
    case GR_E_NOT: gr_buf_adds(b, "not "); print_sub(b, e->a, 4, expanded); break;
    case GR_E_AND: case GR_E_OR: case GR_E_ADD: case GR_E_MOD:
      print_sub(b, e->a, prec(e, expanded), expanded); gr_buf_adds(b, ops[e->op]); print_sub(b, e->b, prec(e, expanded) + 1, expanded);
      break;
    case GR_E_ANY: case GR_E_ALL:
      gr_buf_printf(b, "%s %s in ", e->op==GR_E_ANY ? "any" : "all", e->s);
      print_sub(b, e->a, 7, expanded); gr_buf_adds(b, " : "); expr_print(b, e->b, expanded);
      break;
    default:
      print_sub(b, e->a, 5, expanded); gr_buf_adds(b, ops[e->op]); print_sub(b, e->b, 5, expanded);
      break;
  }
}

void gr_expr_print(gr_buf *b, const gr_expr *e){ expr_print(b, e, 0); }
void gr_expr_print_expanded(gr_buf *b, const gr_expr *e){ expr_print(b, e, 1); }
