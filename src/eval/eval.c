/*
** eval.c: one evaluation of a rule set (see eval.h). The order is fixed and
** deterministic: resolve the chip, resolve and validate the user's options,
** apply the option relations, read ini-format option files, run the global,
** per-option and per-entry rules, then decide every node.
**
** Per-node work is kept flat by specialising every guarded branch in three
** stages: conjuncts that depend only on the chip and the options are decided
** once; conjuncts that depend on the op type are decided once per distinct
** type of the graph (types are interned, so a node finds its candidate list
** by indexing with its type id); branches keyed on a node name go into a
** name index probed once per node. Per-node conjuncts that the graph decides
** for a whole type (node.static when all its nodes are static, an attribute
** no node has) are folded there too. Only the remaining per-node conjuncts
** run for each node, so adding rules for other op types or node names adds no
** per-node cost.
*/
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "eval/eval.h"
#include "model/onnx_parts.h"
#include "eval/judge.h"
#include "model/qualname.h"

typedef struct cand_entry {       /* one branch that may apply to nodes of a type */
  const gr_branch *br;
  int32_t source;                 /* -1 for diagnostic rules */
  int32_t rule;
  uint16_t bidx;
  uint8_t check_type;             /* type conjuncts still to evaluate (name-index hits) */
  uint8_t has_value;              /* value cached */
  uint64_t item_mask;             /* per-node conjuncts still to evaluate (bit i: conj[i]; bit 63: 63 and up) */
  /* when the one per-node conjunct left is partition(P).cause/.seed ==/!= "lit":
  ** that test, compiled (see compile_part_test) */
  uint8_t pt_kind;                /* 0 none, PT_CAUSE, PT_SEED */
  uint8_t pt_eq;                  /* 1 for ==, 0 for != */
  uint8_t pt_null;                /* PT_JUDGE_*_BY against null: the node has no such outcome */
  uint16_t pt_part;               /* the partition */
  uint16_t pt_want;               /* cause value or 1-based seed; 0 = no such name (never equal) */
  uint32_t pt_set;                /* PT_JUDGE_*_BY against a list: bit k for code k (pt_eq 1: in, 0: not in it) */
  /* the value is the node's judge_dtype or judge_engine: read from the judge
  ** (VK_*), not walked by the evaluator (see compile_value) */
  uint8_t vk;
  /* when the one per-node conjunct left is node.SLOT in / not in X (X the same
  ** for every node): its outcome for the last slot value seen (see compile_slot_in) */
  uint8_t sin;                    /* 1 + the conjunct, 0 none */
  uint8_t sin_res, sin_valid;
  uint16_t sin_slot;
  const char *sin_last;
  gr_val value;
} cand_entry;

typedef struct cand_list { cand_entry *v; size_t n, cap; } cand_list;

static void cl_push(cand_list *l, cand_entry e){
  if( l->n==l->cap ){ l->cap = l->cap ? l->cap * 2 : 4; l->v = gr_xrealloc(l->v, l->cap * sizeof *l->v); }
  l->v[l->n++] = e;
}

typedef struct name_hit { uint32_t str; cand_list slots_and_rules; } name_hit;

typedef struct once_state { uint32_t first; int64_t count; } once_state;

/* The memos below keep the outcomes of a type's last few distinct judge
** records, replaced in turn: the nodes of one type often alternate between
** two or three records (an Add after a MatMul, then after a Cast), and a
** memo of the last one alone missed for 37,539 of the 81,795 slot walks of
** a 100K-op eval. */
#define MEMO_WAYS 4

/* one (type, slot)'s decisions, for nodes alike (slot_memoisable, run_node_part) */
typedef struct slot_way {
  uint8_t valid;
  uint32_t rec;                   /* the judge record the decision is for (MEMO_REC), else 0 */
  gr_decision d;
  gr_cand *cand; size_t ncand, capcand;   /* its beaten candidates (node field unused) */
} slot_way;
typedef struct slot_memo {
  uint8_t state;                  /* 0 not known yet, else MEMO_* */
  uint8_t next;                   /* the way to fill next */
  slot_way way[MEMO_WAYS];
} slot_memo;

/* Recent (judge record, row) pairs of a type, for two memos:
** - type_memo: a type whose every slot is memoisable decides alike for
**   nodes with one judge record (every slot_memo): each record's row;
**   state 0 not known yet, 1 memoisable, 2 with the record, 3 not;
** - rules_memo: a type's node rules that read nothing of a node but the
**   judge's record and the node's own decisions (its row): the pairs for
**   which none of them held, so a node alike skips them; state MEMO_*.
**   Measured: the four shipped rules `for each node` cost 378 instructions
**   per node of a 100K-op eval, where almost every node matches none. */
typedef struct recent_memo {
  uint8_t state;
  uint8_t next;                   /* the way to fill next */
  uint8_t valid[MEMO_WAYS];
  uint32_t rec[MEMO_WAYS], row[MEMO_WAYS];
} recent_memo;
typedef recent_memo type_memo;
typedef recent_memo rules_memo;

/* The way to fill next of a memo whose ways are replaced in turn. */
static size_t next_way(uint8_t *next){
  size_t w = *next;
  *next = (uint8_t)((w + 1) % MEMO_WAYS);
  return w;
}

typedef struct plan {
  size_t nslots;
  uint8_t *type_shapes;           /* per type: TS_STATIC and/or TS_DYNAMIC, the kinds of nodes it has */
  uint32_t *type_count, *type_first;   /* per type: its number of nodes, its first node */
  uint32_t **part_kinds;          /* per partition, per type: cause | seed << 8 shared by all its nodes,
                                  ** or PK_MIXED; NULL until a conjunct asks */
  size_t nparts;
  cand_list *per_type;            /* [type * (nslots + 1) + k]; k == nslots: node rules */
  /* name index: graph string id -> candidates */
  gr_idmap nh_index;                /* hash of a string id -> its entry in nh */
  name_hit *nh; size_t nnh;
  uint8_t *live;                  /* per branch (flattened): survived the global stage */
  struct slot_memo *memo;         /* [type * nslots + slot]: its recent records' decisions (run_node_part) */
  struct recent_memo *tmemo;      /* [type]: the rows of its recent records (decide_memoised) */
  struct recent_memo *rmemo;      /* [type]: where its node rules held for none (run_node_part) */
} plan;

/* ------------------------------------------------------------------ */
/* diagnostics helpers */

static char *rule_where(const gr_result *r, const gr_loc *l){
  return gr_xasprintf("%s:%u", gr_ruleset_short_path(r->rs, l->file), l->line);
}

static gr_diag *emit(gr_result *r, gr_severity sev, const char *code, const gr_origin *og, const char *msg){
  gr_diag *d = gr_diags_add(&r->diags, sev, og ? og->file : NULL, og ? og->line : 0, og ? og->col : 0, "%s", msg);
  gr_diag_set(&d->code, code);
  return d;
}

/* The origin of the first user-set option a condition names. */
static const gr_expr *first_set_option(gr_result *r, const gr_expr *e){
  const gr_expr *x;
  if( e==NULL ) return NULL;
  if( (e->op==GR_E_OPTION || e->op==GR_E_OPTSET || e->op==GR_E_INI || e->op==GR_E_SUPPORTS) && e->ref >= 0
      && r->opts[e->ref].input >= 0 && r->opts[e->ref].given ) return e;
  if( (x = first_set_option(r, e->a))!=NULL ) return x;
  return first_set_option(r, e->b);
}

/* ------------------------------------------------------------------ */
/* options */

static const char *spelling_suggestion(gr_result *r, const char *key){
  const gr_ruleset *rs = r->rs;
  const char *s, *k = key;
  char *out;
  while( *k=='-' ) k++;
  s = gr_ruleset_suggest(rs, GR_NK_SPELLING | GR_NK_ATC_FLAG, k);
  if( s==NULL ) return "";
  {
    int oi = gr_ruleset_find(&rs->spelling_map, s);
    out = gr_xasprintf("; did you mean '%s%s'%s%s%s?", oi < 0 ? "--" : "", s, oi >= 0 && strcmp(rs->options[oi].name, s) ? " (" : "",
                       oi >= 0 && strcmp(rs->options[oi].name, s) ? rs->options[oi].name : "",
                       oi >= 0 && strcmp(rs->options[oi].name, s) ? ")" : "");
  }
  s = gr_arena_strndup(&r->arena, out, strlen(out));
  free(out);
  return s;
}

static void validate(gr_result *r, gr_input *in, const gr_option *o){
  char *why;
  in->valid = gr_option_accepts(r->rs, o, in->value, GR_ACCEPT_FILES, &why);
  in->problem = why ? gr_arena_strndup(&r->arena, why, strlen(why)) : NULL;
  free(why);
}

static void resolve_inputs(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i;
  for(i = 0; i < rs->noptions; i++) r->opts[i].input = -1;
  for(i = 0; i < r->ninputs; i++){
    gr_input *in = &r->inputs[i];
    const gr_option *o = gr_ruleset_option_by_spelling(rs, in->key);
    in->overridden_by = -1;
    in->effective = 1;
    in->suggestion = "";
    if( o==NULL ){
      in->option = -1;
      in->valid = 0;
      in->effective = 0;
      in->suggestion = spelling_suggestion(r, in->key);
      continue;
    }
    in->option = o->index;
    validate(r, in, o);
    if( r->opts[o->index].input >= 0 ){
      gr_input *prev = &r->inputs[r->opts[o->index].input];
      char *m;
      gr_diag *d;
      prev->effective = 0;
      prev->overridden_by = (int)i;
      m = gr_xasprintf("%s is given again (%s%s%u); the later value '%s' replaces '%s'", o->name,
                       in->origin.file, in->origin.line ? ":" : "", in->origin.line, in->value, prev->value);
      if( in->origin.line==0 ){ free(m); m = gr_xasprintf("%s is given again on the command line; the later value '%s' replaces '%s'", o->name, in->value, prev->value); }
      d = emit(r, GR_SEV_NOTE, "GR0101", &prev->origin, m);
      gr_diag_set(&d->option, o->name);
      free(m);
    }
    r->opts[o->index].input = (int)i;
  }
  for(i = 0; i < rs->noptions; i++){
    gr_optstate *st = &r->opts[i];
    if( st->input >= 0 ){
      gr_input *in = &r->inputs[st->input];
      st->given = in->value[0]!=0 && in->valid;
      st->effective = st->given;
      if( st->given ){ st->value = in->value; st->origin = &in->origin; }
      else in->effective = in->value[0]!=0 ? 0 : in->effective;
    }
  }
}

/* A value the rule set marks `rejected elsewhere;` given on a product line
** outside its `supported on` list: GE refuses it before it compiles anything
** (the rule set's check says so), so the option is not effective and reads
** as its default, as an invalid value does, and what the nodes show is the
** build without it. Called after the option checks (run_scoped_rules): GE's
** own checks of the option strings run before the one that refuses the
** value, and see it as given (MODIFY_MIXLIST's check accepts a rejected
** mixed bf16 mode); then every option's state is worked out again, since a
** default may read the rejected option (`not option PRECISION_MODE set`). */
static void apply_rejections(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i, v;
  int any = 0;
  for(i = 0; i < rs->noptions; i++){
    const gr_option *o = &rs->options[i];
    gr_optstate *st = &r->opts[i];
    if( !st->given || !st->effective || st->value==NULL ) continue;
    for(v = 0; v < o->nvalues; v++){
      const gr_support *s = &o->value_support[v];
      if( !s->rejected || strcmp(o->values[v], st->value) ) continue;
      if( gr_support_on(s, r->product) ) break;
      st->effective = 0;
      st->value = NULL; st->origin = NULL;
      r->inputs[st->input].effective = 0;
      any = 1;
      break;
    }
  }
  if( !any ) return;
  for(i = 0; i < rs->noptions; i++) if( r->opts[i].state==2 ) r->opts[i].state = 0;
  for(i = 0; i < rs->noptions; i++) gr_option_state(r, (int)i);
}

static void relation_diag(gr_result *r, const gr_relation *rel, int option, int other){
  gr_env env;
  gr_buf b;
  gr_diag *d;
  const gr_optstate *st = &r->opts[option];
  const gr_origin *og = st->input >= 0 ? &r->inputs[st->input].origin : NULL;
  gr_env_init(&env, r);
  env.option = option; env.other = other;
  gr_buf_init(&b);
  gr_render(&env, &rel->msg, &b);
  d = emit(r, rel->sev, rel->code, og, gr_buf_cstr(&b));
  gr_diag_set(&d->ge_code, rel->ge_code);
  gr_diag_set(&d->option, r->rs->options[option].name);
  d->rule = rule_where(r, &rel->loc);
  gr_buf_free(&b);
}

static void apply_relations(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i, k, j;
  for(i = 0; i < rs->nrelations; i++){
    const gr_relation *rel = &rs->relations[i];
    switch( rel->kind ){
      case GR_REL_EXCLUSIVE:
        if( !r->opts[rel->a].given ) break;
        for(k = 0; k < rel->nothers; k++){
          gr_optstate *st = &r->opts[rel->others[k]];
          if( !st->given ) continue;
          st->effective = 0;
          st->value = NULL; st->origin = NULL;
          r->inputs[st->input].effective = 0;
          relation_diag(r, rel, rel->others[k], rel->a);
        }
        break;
      case GR_REL_REQUIRES:
        if( !r->opts[rel->a].given ) break;
        for(k = 0; k < rel->nothers; k++){
          if( !r->opts[rel->others[k]].given ) relation_diag(r, rel, rel->a, rel->others[k]);
        }
        break;
      case GR_REL_CONFLICTS:
        for(k = 0; k < rel->nothers; k++){
          if( !r->opts[rel->others[k]].given ) continue;
          for(j = k + 1; j < rel->nothers; j++){
            if( r->opts[rel->others[j]].given ) relation_diag(r, rel, rel->others[j], rel->others[k]);
          }
        }
        break;
    }
  }
}

/* "; did you mean 'x'?" for an ini key that matches nothing: the closest
** node name of the graph (a subgraph node also by its qualified name), or
** the closest op type of this model (qualname.c); "" when none is close. */
static const char *entry_suggestion(gr_result *r, int m, const char *key){
  const char *s = NULL, *onnx_op = NULL;
  char *out;
  gr_buf b;
  gr_buf_init(&b);
  if( m==GR_MATCH_NAME ){
    uint32_t n = gr_graph_suggest_node(r->g, key);
    if( n!=GR_NONE ){
      s = gr_graph_str(r->g, gr_graph_nodes(r->g)[n].name);
      gr_node_qualified(r->g, n, &b);
    }
  }else if( m==GR_MATCH_TYPE ){
    s = gr_graph_suggest_type(r->g, key, &onnx_op);
  }
  if( s==NULL ){ gr_buf_free(&b); return ""; }
  if( m==GR_MATCH_TYPE && onnx_op ) out = gr_xasprintf("; did you mean '%s' (the IR type GE's ONNX parser gives this model's %s nodes)?", s, onnx_op);
  else if( m==GR_MATCH_TYPE ) out = gr_xasprintf("; did you mean '%s' (an op type of this model)?", s);
  else if( strcmp(gr_buf_cstr(&b), s) ) out = gr_xasprintf("; did you mean '%s' (%s)?", s, gr_buf_cstr(&b));
  else out = gr_xasprintf("; did you mean '%s'?", s);
  s = gr_arena_strndup(&r->arena, out, strlen(out));
  free(out);
  gr_buf_free(&b);
  return s;
}

static void load_ini_files(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i, k;
  for(i = 0; i < rs->noptions; i++){
    const gr_option *o = &rs->options[i];
    gr_optstate *st = &r->opts[i];
    gr_error e;
    if( o->format==NULL || !st->effective ) continue;
    memset(&e, 0, sizeof e);
    st->ini = gr_ini_read(st->value, o->format, rs, o->name, &r->diags, &e);
    if( st->ini==NULL ){
      gr_diag *d = gr_diags_add(&r->diags, GR_SEV_ERROR, st->value, 0, 0, "%s (the file given to %s)", e.msg, o->name);
      gr_diag_set(&d->option, o->name);
      r->fatal = 1;
      continue;
    }
    for(k = 0; k < st->ini->n; k++){
      gr_ini_entry *en = &st->ini->v[k];
      int m = o->format->sections[en->section].matches;
      uint32_t id;
      if( r->g==NULL ) en->matched = 1;
      else if( m==GR_MATCH_NAME ) en->matched = gr_graph_find_node(r->g, en->key, &id);
      else if( m==GR_MATCH_TYPE ) en->matched = gr_graph_find_type(r->g, en->key, &id);
      else en->matched = 1;
      en->suggestion = en->matched ? "" : entry_suggestion(r, m, en->key);
      en->parts = "";
      if( !en->matched && m==GR_MATCH_NAME ){
        gr_buf b;
        gr_buf_init(&b);
        if( gr_onnx_split_parts(r->g, en->key, &b) ) en->parts = gr_arena_strndup(&r->arena, b.p, b.n);
        gr_buf_free(&b);
      }
    }
  }
}

/* ------------------------------------------------------------------ */
/* rules outside nodes */

static void rule_diag(gr_result *r, gr_env *env, const gr_rule *ru, const gr_origin *og, const char *option, const char *node){
  gr_buf b;
  gr_diag *d;
  /* one the per-file cap keeps out of the list is only counted: rendering its
  ** message was most of a rule's cost on a large model (measured: 2,847 of
  ** 3,847 diagnostics of a 100K-op graph, about 6,000 instructions each) */
  if( og && gr_diags_drop_minor(&r->diags, ru->sev, og->file) ) return;
  gr_buf_init(&b);
  gr_render(env, &ru->msg, &b);
  d = emit(r, ru->sev, ru->code, og, gr_buf_cstr(&b));
  gr_diag_set(&d->ge_code, ru->ge_code);
  gr_diag_set(&d->option, option);
  gr_diag_set(&d->node, node);
  d->rule = rule_where(r, &ru->loc);
  gr_buf_free(&b);
}

static void run_scoped_rules(gr_result *r){
  const gr_ruleset *rs = r->rs;
  size_t i, k, e;
  gr_env env;
  for(i = 0; i < rs->nrules; i++){
    const gr_rule *ru = &rs->rules[i];
    if( ru->scope!=GR_SCOPE_GLOBAL ) continue;
    gr_env_init(&env, r);
    if( gr_eval_cond(&env, ru->br.cond) ){
      const gr_expr *x = first_set_option(r, ru->br.cond);
      const gr_origin *og = x ? &r->inputs[r->opts[x->ref].input].origin : NULL;
      rule_diag(r, &env, ru, og, x ? rs->options[x->ref].name : NULL, NULL);
    }
  }
  for(k = 0; k < r->ninputs; k++){
    const gr_input *in = &r->inputs[k];
    for(i = 0; i < rs->nrules; i++){
      const gr_rule *ru = &rs->rules[i];
      if( ru->scope!=GR_SCOPE_OPTION ) continue;
      gr_env_init(&env, r);
      env.in = in; env.option = in->option;
      if( gr_eval_cond(&env, ru->br.cond) ){
        rule_diag(r, &env, ru, &in->origin, in->option >= 0 ? rs->options[in->option].name : in->key, NULL);
      }
    }
  }
  for(k = 0; k < rs->noptions; k++){
    const gr_optstate *st = &r->opts[k];
    if( st->ini==NULL ) continue;
    for(e = 0; e < st->ini->n; e++){
      for(i = 0; i < rs->nrules; i++){
        const gr_rule *ru = &rs->rules[i];
        if( ru->scope!=GR_SCOPE_ENTRY ) continue;
        gr_env_init(&env, r);
        env.ini = st->ini; env.entry = &st->ini->v[e]; env.option = (int)k;
        if( gr_eval_cond(&env, ru->br.cond) ){
          rule_diag(r, &env, ru, &st->ini->v[e].origin, rs->options[k].name, NULL);
        }
      }
    }
  }
}

/* ------------------------------------------------------------------ */
/* the per-node plan */

int gr_conj_holds(gr_env *env, const gr_branch *br, uint8_t lo, uint8_t hi){
  size_t i;
  for(i = 0; i < br->nconj; i++){
    const gr_expr *c = br->conj[i];
    if( c->dep < lo || c->dep > hi ) continue;
    if( !gr_eval_cond(env, c) ) return 0;
  }
  return 1;
}

/* Bit of conjunct i in a cand_entry's item_mask. */
static uint64_t conj_bit(size_t i){ return (uint64_t)1 << (i < 63 ? i : 63); }

/* The per-node conjuncts of br in mask, in order. */
static int item_conj_hold(gr_env *env, const gr_branch *br, uint64_t mask){
  size_t i;
  for(i = 0; i < br->nconj; i++){
    if( !(mask & conj_bit(i)) ) continue;
    if( !gr_eval_cond(env, br->conj[i]) ) return 0;
  }
  return 1;
}

enum { TS_STATIC = 1, TS_DYNAMIC = 2 };

/* Whether e is node.attr["KEY"] for a KEY that is no string of the graph at
** all: no node has that attribute, so it is null for every node. */
static int absent_attr(const gr_graph *g, const gr_expr *e){
  uint32_t id;
  return e->op==GR_E_INDEX && e->a && e->a->op==GR_E_FIELD && e->a->ref==GR_F_ATTR && e->a->a
      && e->a->a->op==GR_E_NODE && e->b && e->b->op==GR_E_STR && !gr_graph_find_str(g, e->b->s, &id);
}

#define PK_UNSET 0xffffffffu
#define PK_MIXED 0xfffffffeu

/* Per type, the partition outcome (cause and seed) its nodes share, if they
** do: one pass over the partition's per-node results, on first use. */
static const uint32_t *part_kinds(const gr_result *r, plan *p, int k){
  uint32_t n, nn, nt = gr_graph_ntypes(r->g), t, *v;
  const gr_node *nodes = gr_graph_nodes(r->g);
  if( r->part==NULL || k < 0 || (size_t)k >= r->rs->npartitions ) return NULL;
  if( p->part_kinds==NULL ){
    p->part_kinds = gr_xcalloc(r->rs->npartitions + 1, sizeof *p->part_kinds);
    p->nparts = r->rs->npartitions;
  }
  if( p->part_kinds[k] ) return p->part_kinds[k];
  v = p->part_kinds[k] = gr_xmalloc(((size_t)nt + 1) * sizeof *v);
  for(t = 0; t <= nt; t++) v[t] = PK_UNSET;
  nn = gr_graph_nnodes(r->g);
  for(n = 0; n < nn; n++){
    const gr_part_node *pn = &r->part[k].v[n];
    uint32_t kind = pn->cause | (uint32_t)pn->seed << 8, *slot = &v[nodes[n].type];
    if( *slot==PK_UNSET ) *slot = kind;
    else if( *slot!=kind ) *slot = PK_MIXED;
  }
  return v;
}

/* partition(P).cause / .seed / .dynamic / .static for every node of type t:
** 1 with the value in *out when all its nodes agree, else 0. */
static int part_uniform(gr_env *env, plan *p, uint32_t t, const gr_expr *e, gr_val *out){
  const gr_result *r = env->r;
  const uint32_t *kinds;
  gr_env one;
  uint32_t first;
  if( e->op!=GR_E_PARTITION || (e->ref!=GR_PF_CAUSE && e->ref!=GR_PF_SEED && e->ref!=GR_PF_DYNAMIC
                                 && e->ref!=GR_PF_STATIC) ) return 0;
  kinds = part_kinds(r, p, e->ref2);
  if( kinds==NULL || p->type_count[t]==0 || kinds[t]==PK_MIXED || kinds[t]==PK_UNSET ) return 0;
  /* these fields depend only on cause and seed: the type's first node stands for all */
  first = p->type_first[t];
  one = *env;
  one.node = first;
  *out = gr_partition_field(&one, e);
  return 1;
}

/* A per-node conjunct decided for every node of one op type, when the graph
** allows it: 1 or 0, or -1 when it takes the node itself. Folded: parts that
** depend on the type only, node.static / node.dynamic when the type's nodes
** are all of one kind, an attribute no node of the graph has, and not / and /
** or over those. Measured reason: on the synthetic graphs every node ran
** `node.dynamic`, `node.static` and two `node.attr[...] != null` tests of
** ONNX-only rules, which doubled the evaluation's instructions per node
** (9.4M to 21.7M on 10K ops). env has the type set and no node. */
static int fold_item(gr_env *env, plan *p, uint32_t type, const gr_expr *e){
  const gr_graph *g = env->r->g;
  gr_val v;
  int a, b;
  if( e->dep <= GR_DEP_TYPE ) return gr_eval_cond(env, e);
  switch( e->op ){
    case GR_E_PARTITION:
      if( (e->ref==GR_PF_DYNAMIC || e->ref==GR_PF_STATIC) && part_uniform(env, p, type, e, &v) ) return v.u.i!=0;
      return -1;
    case GR_E_NOT:
      a = fold_item(env, p, type, e->a);
      return a < 0 ? -1 : !a;
    case GR_E_AND: case GR_E_OR:
      a = fold_item(env, p, type, e->a);
      b = fold_item(env, p, type, e->b);
      if( e->op==GR_E_AND ) return a==0 || b==0 ? 0 : a==1 && b==1 ? 1 : -1;
      return a==1 || b==1 ? 1 : a==0 && b==0 ? 0 : -1;
    case GR_E_FIELD:
      if( e->a && e->a->op==GR_E_NODE && (e->ref==GR_F_STATIC || e->ref==GR_F_DYNAMIC) ){
        uint8_t k = p->type_shapes[type];
        if( k==TS_STATIC ) return e->ref==GR_F_STATIC;
        if( k==TS_DYNAMIC ) return e->ref==GR_F_DYNAMIC;
      }
      return -1;
    case GR_E_EQ: case GR_E_NE: {
      const gr_expr *x = e->a->op==GR_E_STR ? e->b : e->a, *lit = e->a->op==GR_E_STR ? e->a : e->b;
      if( (absent_attr(g, e->a) && e->b->op==GR_E_NULL) || (absent_attr(g, e->b) && e->a->op==GR_E_NULL) )
        return e->op==GR_E_EQ;
      if( lit->op==GR_E_STR && part_uniform(env, p, type, x, &v) )
        return (v.t==GR_T_STR && strcmp(v.u.s, lit->s)==0) == (e->op==GR_E_EQ);
      return -1;
    }
    case GR_E_IN: case GR_E_NOTIN:
      return absent_attr(g, e->a) ? 0 : -1;      /* null is in nothing and not-in nothing */
    default:
      return -1;
  }
}

static int nh_eq(const void *ctx, uint32_t id){
  const void *const *k = ctx;
  return ((const plan *)k[0])->nh[id].str==*(const uint32_t *)k[1];
}

static void nh_add(plan *p, uint32_t str, cand_entry e){
  uint64_t h = gr_hash_u64(str);
  const void *k[2] = { p, &str };
  int64_t i = gr_idmap_find(&p->nh_index, h, nh_eq, k);
  if( i >= 0 ){ cl_push(&p->nh[i].slots_and_rules, e); return; }
  p->nh = gr_xrealloc(p->nh, (p->nnh + 1) * sizeof *p->nh);
  memset(&p->nh[p->nnh], 0, sizeof *p->nh);
  p->nh[p->nnh].str = str;
  cl_push(&p->nh[p->nnh].slots_and_rules, e);
  gr_idmap_add(&p->nh_index, h, (uint32_t)p->nnh);
  p->nnh++;
}

static cand_list *nh_find(plan *p, uint32_t str){
  const void *k[2] = { p, &str };
  int64_t i;
  if( p->nnh==0 ) return NULL;
  i = gr_idmap_find(&p->nh_index, gr_hash_u64(str), nh_eq, k);
  return i >= 0 ? &p->nh[i].slots_and_rules : NULL;
}

/* Orders candidates: slot-major (slot index, then cascade order, then branch),
** rules last in rule order. Encoded as one sort key. */
static uint64_t cand_key(const gr_ruleset *rs, const cand_entry *e){
  if( e->source >= 0 ){
    const gr_source *s = &rs->sources[e->source];
    return ((uint64_t)s->slot << 48) | ((uint64_t)(uint32_t)s->order << 16) | e->bidx;
  }
  return ((uint64_t)0xffff << 48) | ((uint64_t)(uint32_t)e->rule << 16);
}

static void compile_part_test(const gr_result *r, cand_entry *e, size_t c);
static void compile_slot_in(cand_entry *e, size_t c);
static void compile_value(const gr_result *r, cand_entry *e);

static void add_branch(gr_result *r, plan *p, const gr_branch *br, int32_t source, int32_t rule, uint16_t bidx){
  const gr_graph *g = r->g;
  uint32_t t, nt = gr_graph_ntypes(g);
  gr_env env;
  cand_entry e;
  size_t slot_k;
  memset(&e, 0, sizeof e);
  e.br = br; e.source = source; e.rule = rule; e.bidx = bidx;
  gr_env_init(&env, r);
  if( !gr_conj_holds(&env, br, GR_DEP_CONST, GR_DEP_GLOBAL) ) return;
  slot_k = source >= 0 ? (size_t)r->rs->sources[source].slot : p->nslots;
  if( br->name_key || br->name_table ){
    /* indexed by node name: only nodes with that name ever see it */
    size_t i;
    e.check_type = 1;
    for(i = 0; i < br->nconj; i++) if( br->conj[i]->dep==GR_DEP_ITEM ) e.item_mask |= conj_bit(i);
    if( br->name_key ){
      uint32_t id;
      if( gr_graph_find_str(g, br->name_key, &id) ) nh_add(p, id, e);
    }else{
      size_t k;
      for(k = 0; k < br->name_table->n; k++){
        uint32_t id;
        if( gr_graph_find_str(g, br->name_table->keys[k], &id) ) nh_add(p, id, e);
      }
    }
    return;
  }
  for(t = 0; t < nt; t++){
    cand_entry x = e;
    size_t i;
    int dead = 0;
    env.type_name = gr_graph_type_name(g, t);
    if( !gr_conj_holds(&env, br, GR_DEP_TYPE, GR_DEP_TYPE) ) continue;
    for(i = 0; i < br->nconj && !dead; i++){
      int f;
      if( br->conj[i]->dep!=GR_DEP_ITEM ) continue;
      f = fold_item(&env, p, t, br->conj[i]);
      if( f==0 ) dead = 1;
      else if( f < 0 ) x.item_mask |= conj_bit(i);
    }
    if( dead ) continue;
    for(i = 0; i < br->nconj && i < 63; i++) if( x.item_mask==conj_bit(i) ){ compile_part_test(r, &x, i); if( !x.pt_kind ) compile_slot_in(&x, i); }
    compile_value(r, &x);
    if( br->value && br->value_dep <= GR_DEP_TYPE ){
      x.value = gr_eval_expr(&env, br->value);
      x.has_value = 1;
      if( x.value.t==GR_T_NULL ) continue;     /* never yields for this type */
    }
    cl_push(&p->per_type[(size_t)t * (p->nslots + 1) + slot_k], x);
  }
}

static void sort_list(const gr_ruleset *rs, cand_list *l){
  /* insertion sort: lists are short and mostly in order already */
  size_t i, j;
  for(i = 1; i < l->n; i++){
    cand_entry x = l->v[i];
    uint64_t kx = cand_key(rs, &x);
    for(j = i; j > 0 && cand_key(rs, &l->v[j-1]) > kx; j--) l->v[j] = l->v[j-1];
    l->v[j] = x;
  }
}

static void build_plan(gr_result *r, plan *p){
  const gr_ruleset *rs = r->rs;
  size_t s, b, i, nt = gr_graph_ntypes(r->g);
  memset(p, 0, sizeof *p);
  p->nslots = rs->nslots;
  p->per_type = gr_xcalloc(nt * (rs->nslots + 1) + 1, sizeof *p->per_type);
  p->type_shapes = gr_xcalloc(nt + 1, 1);
  p->type_count = gr_xcalloc(nt + 1, sizeof *p->type_count);
  p->type_first = gr_xcalloc(nt + 1, sizeof *p->type_first);
  {
    const gr_node *nodes = gr_graph_nodes(r->g);
    uint32_t n, nn = gr_graph_nnodes(r->g);
    for(n = 0; n < nn; n++){
      uint32_t t = nodes[n].type;
      p->type_shapes[t] |= nodes[n].flags & GR_NODE_DYNAMIC ? TS_DYNAMIC : TS_STATIC;
      if( p->type_count[t]++==0 ) p->type_first[t] = n;
    }
  }
  for(s = 0; s < rs->nslots; s++){
    const gr_slot *sl = &rs->slots[s];
    for(i = 0; i < sl->ncascade; i++){
      const gr_source *src = &rs->sources[sl->cascade[i]];
      for(b = 0; b < src->nbranches; b++) add_branch(r, p, &src->branches[b], src->index, -1, (uint16_t)b);
    }
  }
  for(i = 0; i < rs->nrules; i++){
    if( rs->rules[i].scope==GR_SCOPE_NODE ) add_branch(r, p, &rs->rules[i].br, -1, (int32_t)i, 0);
  }
  for(i = 0; i < p->nnh; i++) sort_list(rs, &p->nh[i].slots_and_rules);
}

static void free_plan(plan *p, size_t nt){
  size_t i;
  free(p->tmemo);
  free(p->rmemo);
  if( p->memo ){
    size_t w;
    for(i = 0; i < nt * p->nslots; i++) for(w = 0; w < MEMO_WAYS; w++) free(p->memo[i].way[w].cand);
    free(p->memo);
  }
  for(i = 0; i < nt * (p->nslots + 1); i++) free(p->per_type[i].v);
  free(p->per_type);
  free(p->type_shapes);
  free(p->type_count);
  free(p->type_first);
  if( p->part_kinds ){
    for(i = 0; i < p->nparts; i++) free(p->part_kinds[i]);
    free(p->part_kinds);
  }
  for(i = 0; i < p->nnh; i++) free(p->nh[i].slots_and_rules.v);
  free(p->nh);
  gr_idmap_free(&p->nh_index);
}

/* ------------------------------------------------------------------ */
/* nodes */

static void node_rule_diag(gr_result *r, gr_env *env, const gr_rule *ru, const gr_node *nd){
  gr_origin og;
  og.file = r->graph_file ? r->graph_file : "<graph>";
  og.line = nd->line; og.col = nd->col;
  if( gr_graph_ngraphs(r->g) > 1 ){     /* the graph-qualified name tells subgraph nodes apart */
    gr_buf b;
    gr_buf_init(&b);
    rule_diag(r, env, ru, &og, NULL, gr_node_qname(r->g, (uint32_t)(nd - gr_graph_nodes(r->g)), &b));
    gr_buf_free(&b);
  }else rule_diag(r, env, ru, &og, NULL, gr_graph_str(r->g, nd->name));
}

enum { PT_CAUSE = 1, PT_SEED, PT_JUDGE_DTYPE_BY, PT_JUDGE_ENGINE_BY, PT_JUDGE_CASTS_GT };

/* Compiles conjunct c of e, when it is partition(P).cause or .seed (or the
** judge's node.judge_dtype_by / judge_engine_by) == or != a string literal
** and the only per-node conjunct left, into a compare of the node's
** partition (or judge) outcome: the evaluator's walk of it costs about 25x
** more, and the execution slot's sources and the partition's own
** conditions put up to a dozen of them on every node of a partially
** dynamic graph (measured: 6,408 of 10K nodes of the synthetic graph). */
static void compile_part_test(const gr_result *r, cand_entry *e, size_t c){
  const gr_expr *x = e->br->conj[c], *f, *lit;
  const gr_partition *pa;
  size_t k;
  if( x->op==GR_E_GT && e->item_mask==conj_bit(c) && c < 63 && r->judge && x->b->op==GR_E_INT && x->b->i >= 0 && x->b->i < 255
      && x->a->op==GR_E_FIELD && x->a->ref==GR_F_JUDGE && x->a->ref2==GR_JF_CASTS && x->a->a && x->a->a->op==GR_E_NODE ){
    /* node.judge_casts > N */
    e->pt_kind = PT_JUDGE_CASTS_GT;
    e->pt_want = (uint16_t)x->b->i;
    return;
  }
  if( e->item_mask!=conj_bit(c) || c >= 63 ) return;
  {
    /* node.judge_dtype_by / judge_engine_by in ["lit", ...], or not (... in
    ** [...]): a bit set of the words' codes (the tiling sources skip nodes
    ** GE deletes or folds with one such test, which keeps their memo) */
    const gr_expr *in = x->op==GR_E_NOT ? x->a : x;
    if( in && in->op==GR_E_IN && in->b && in->b->op==GR_E_LIST && r->judge ){
      const gr_expr *fi = in->a, *w;
      uint32_t set = 0;
      if( fi->op!=GR_E_FIELD || fi->ref!=GR_F_JUDGE || !fi->a || fi->a->op!=GR_E_NODE
          || (fi->ref2!=GR_JF_DTYPE_BY && fi->ref2!=GR_JF_ENGINE_BY) ) return;
      for(w = in->b->a; w; w = w->next){
        int code;
        if( w->op!=GR_E_STR ) return;
        code = gr_judge_by_code(fi->ref2==GR_JF_DTYPE_BY, w->s);
        if( code > 0 && code < 32 ) set |= 1u << code;
      }
      e->pt_kind = fi->ref2==GR_JF_DTYPE_BY ? PT_JUDGE_DTYPE_BY : PT_JUDGE_ENGINE_BY;
      e->pt_set = set | 1u << 31;       /* bit 31: a set test (no code is 31) */
      e->pt_eq = x->op!=GR_E_NOT;
      return;
    }
  }
  if( x->op!=GR_E_EQ && x->op!=GR_E_NE ) return;
  f = x->a->op==GR_E_STR || x->a->op==GR_E_NULL ? x->b : x->a;
  lit = x->a->op==GR_E_STR || x->a->op==GR_E_NULL ? x->a : x->b;
  if( (lit->op==GR_E_STR || lit->op==GR_E_NULL) && f->op==GR_E_FIELD && f->ref==GR_F_JUDGE && f->a && f->a->op==GR_E_NODE
      && (f->ref2==GR_JF_DTYPE_BY || f->ref2==GR_JF_ENGINE_BY) && r->judge ){
    /* node.judge_dtype_by / judge_engine_by == "lit" or null: one byte of the
    ** judge's record (rule dtype_no_oplib's null test walked the evaluator
    ** on every node: 573 instructions a node of the 10K-op graph) */
    int code = lit->op==GR_E_STR ? gr_judge_by_code(f->ref2==GR_JF_DTYPE_BY, lit->s) : 0;
    e->pt_kind = f->ref2==GR_JF_DTYPE_BY ? PT_JUDGE_DTYPE_BY : PT_JUDGE_ENGINE_BY;
    e->pt_want = (uint16_t)(code > 0 ? code : 0);
    e->pt_null = lit->op==GR_E_NULL;
    e->pt_eq = x->op==GR_E_EQ;
    return;
  }
  if( r->part==NULL || lit->op!=GR_E_STR || f->op!=GR_E_PARTITION || f->ref2 < 0 || (size_t)f->ref2 >= r->rs->npartitions
      || f->ref2 > 0xffff ) return;
  pa = &r->rs->partitions[f->ref2];
  e->pt_want = 0;
  if( f->ref==GR_PF_CAUSE ){
    int cause;
    for(cause = 1; gr_pcause_name(cause); cause++) if( strcmp(gr_pcause_name(cause), lit->s)==0 ){ e->pt_want = (uint16_t)cause; break; }
    e->pt_kind = PT_CAUSE;
  }else if( f->ref==GR_PF_SEED ){
    for(k = 0; k < pa->nseeds && k < 0xffff; k++) if( strcmp(pa->seeds[k].name, lit->s)==0 ){ e->pt_want = (uint16_t)(k + 1); break; }
    e->pt_kind = PT_SEED;
  }else{
    return;
  }
  e->pt_eq = x->op==GR_E_EQ;
  e->pt_part = (uint16_t)f->ref2;
}

enum { VK_EXPR = 0, VK_JUDGE_DTYPE, VK_JUDGE_ENGINE };

/* A value node.judge_dtype or node.judge_engine (every dtype and engine
** source's): the judge's string, fetched directly. Measured: the
** evaluator's walk of them was 4% of a 100K-node eval. */
static void compile_value(const gr_result *r, cand_entry *e){
  const gr_expr *v = e->br->value;
  if( v && r->judge && v->op==GR_E_FIELD && v->ref==GR_F_JUDGE && v->a && v->a->op==GR_E_NODE )
    e->vk = v->ref2==GR_JF_DTYPE ? VK_JUDGE_DTYPE : v->ref2==GR_JF_ENGINE ? VK_JUDGE_ENGINE : VK_EXPR;
}

/* Conjunct c, the entry's one per-node conjunct, node.SLOT in / not in X
** where X names no node (a table, a list of options): its outcome depends
** on the slot's value alone, so the entry keeps the outcome for the last
** value (slot values are a few shared strings) and evaluates it again only
** when the value's pointer changes. Measured: the AI CPU fallback rule's
** `node.engine in aicpu_engines` on every node was 5% of a 100K-node eval. */
static void compile_slot_in(cand_entry *e, size_t c){
  const gr_expr *x = e->br->conj[c];
  if( c >= 254 || (x->op!=GR_E_IN && x->op!=GR_E_NOTIN) || !x->a || !x->b ) return;
  if( x->a->op!=GR_E_FIELD || x->a->ref!=GR_F_SLOT || !x->a->a || x->a->a->op!=GR_E_NODE || x->a->ref2 < 0 || x->a->ref2 > 0xffff ) return;
  if( x->b->dep > GR_DEP_GLOBAL ) return;
  e->sin = (uint8_t)(c + 1);
  e->sin_slot = (uint16_t)x->a->ref2;
}

static int part_test(const gr_env *env, const cand_entry *e){
  const gr_part_node *pn;
  int v;
  if( e->pt_kind==PT_JUDGE_CASTS_GT ) return gr_judge_casts(env->r, env->node) > e->pt_want;
  if( e->pt_kind==PT_JUDGE_DTYPE_BY || e->pt_kind==PT_JUDGE_ENGINE_BY ){
    const gr_jnode *jn = gr_judge_node(env->r, env->node);
    v = e->pt_kind==PT_JUDGE_DTYPE_BY ? jn->dtype_by : jn->engine_by;
    if( e->pt_set ) return (v > 0 && v < 31 && (e->pt_set >> v & 1))==e->pt_eq;   /* null is in no list */
    if( e->pt_null ) return (v==0)==e->pt_eq;
    return (e->pt_want!=0 && v==e->pt_want)==e->pt_eq;
  }
  pn = &env->r->part[e->pt_part].v[env->node];
  v = e->pt_kind==PT_CAUSE ? pn->cause : pn->seed;
  return (e->pt_want!=0 && v==e->pt_want)==e->pt_eq;
}

static int entry_applies(gr_env *env, cand_entry *e, gr_val *value){
  const gr_branch *br = e->br;
  if( e->pt_kind ){
    if( !part_test(env, e) ) return 0;
    goto conds_hold;
  }
  if( e->sin ){
    const gr_result *r = env->r;
    const char *sv = gr_dec(r, env->node, e->sin_slot)->value;
    if( !e->sin_valid || sv!=e->sin_last ){
      e->sin_res = (uint8_t)(gr_eval_cond(env, br->conj[e->sin - 1])!=0);
      e->sin_last = sv;
      e->sin_valid = 1;
    }
    if( !e->sin_res ) return 0;
    goto conds_hold;
  }
  if( e->check_type && !gr_conj_holds(env, br, GR_DEP_TYPE, GR_DEP_TYPE) ) return 0;
  if( e->item_mask && !item_conj_hold(env, br, e->item_mask) ) return 0;
conds_hold:
  if( br->value==NULL ){ value->t = GR_T_BOOL; return 1; }
  if( e->has_value ) *value = e->value;
  else if( e->vk ){
    const char *sv = e->vk==VK_JUDGE_DTYPE ? gr_judge_dtype(env->r, env->node) : gr_judge_engine(env->r, env->node);
    if( sv==NULL ) return 0;
    value->t = GR_T_STR;
    value->u.s = sv;
  }
  else *value = gr_eval_expr(env, br->value);
  return value->t==GR_T_STR;
}

static void push_cand(gr_result *r, gr_cand c){
  if( r->ncand==r->capcand ){
    r->capcand = r->capcand ? r->capcand * 2 : 1024;
    r->cand = gr_xrealloc(r->cand, r->capcand * sizeof *r->cand);
  }
  r->cand[r->ncand++] = c;
}

static void add_cand(gr_result *r, uint32_t node, uint16_t slot, const cand_entry *e, const char *value){
  gr_cand c;
  c.node = node; c.slot = slot; c.branch = e->bidx; c.source = e->source; c.value = value;
  push_cand(r, c);
}

/* A slot of a type whose candidates read nothing of a node but its judge
** record (the judge tests and values: the dtype and engine slots), or
** nothing at all (folded to the type), decides alike for nodes with one
** record. Each (type, slot) keeps its decision and beaten candidates for the
** last record seen, and a node with that record takes them (layers repeat a
** type's record). Measured: the dtype and engine slots' cascades were 7% of
** a 100K-node eval with the JSON report. */

#define MEMO_OK 1       /* the decision depends on the type alone, or with: */
#define MEMO_REC 2      /* the judge's record */
#define MEMO_NOT 4
#define MEMO_ROW 8      /* (node rules) the node's own decisions */

/* what (type t, slot s)'s candidates read of a node: MEMO_* */
static uint8_t slot_memoisable(const plan *p, size_t t, size_t s){
  const cand_list *l = &p->per_type[t * (p->nslots + 1) + s];
  size_t i;
  uint8_t st = MEMO_OK;
  for(i = 0; i < l->n; i++){
    const cand_entry *e = &l->v[i];
    if( e->check_type || e->sin ) return MEMO_NOT;
    if( e->pt_kind==PT_JUDGE_DTYPE_BY || e->pt_kind==PT_JUDGE_ENGINE_BY || e->pt_kind==PT_JUDGE_CASTS_GT ) st |= MEMO_REC;
    else if( e->pt_kind || e->item_mask ) return MEMO_NOT;
    if( e->br->value && !e->has_value ){
      if( !e->vk ) return MEMO_NOT;
      st |= MEMO_REC;
    }
  }
  return st;
}

/* Whether type t's node rules read nothing of a node but the judge's
** record (judge tests) and the node's own decisions (`node.SLOT in X`). */
static uint8_t rules_memoisable(const plan *p, size_t t){
  const cand_list *l = &p->per_type[t * (p->nslots + 1) + p->nslots];
  size_t i;
  uint8_t st = MEMO_OK;
  for(i = 0; i < l->n; i++){
    const cand_entry *e = &l->v[i];
    if( e->check_type ) return MEMO_NOT;
    if( e->pt_kind==PT_JUDGE_DTYPE_BY || e->pt_kind==PT_JUDGE_ENGINE_BY || e->pt_kind==PT_JUDGE_CASTS_GT ) st |= MEMO_REC;
    else if( e->sin ) st |= MEMO_ROW;
    else if( e->pt_kind || e->item_mask ) return MEMO_NOT;
  }
  return st;
}

/* Runs the candidates of one slot (s < nslots) or the node rules (s == nslots)
** for node n, merging its type list with its name-index hits in order; a
** memoisable slot of a node without name-index hits first looks at its
** (type, slot)'s last decision (slot_memo). */
static void run_node_part(gr_result *r, plan *p, gr_env *env, uint32_t n, size_t s,
                          cand_list *hits, int keep, once_state *once){
  const gr_ruleset *rs = r->rs;
  const gr_node *nd = &gr_graph_nodes(r->g)[n];
  size_t nslots = rs->nslots;
  cand_list *l = &p->per_type[(size_t)nd->type * (nslots + 1) + s];
  size_t i = 0, j = 0;
  gr_decision *d = s < nslots ? &r->dec[(size_t)r->dec_row[n] * nslots + s] : NULL;   /* row 1 while n is decided */
  int32_t last_source = -1;
  slot_way *m = NULL;
  rules_memo *rm = NULL;
  uint32_t rrec = 0, rrow = 0;
  int held = 0;
  size_t cand0 = r->ncand, w;
  if( d && p->memo && hits==NULL ){
    uint32_t rec = 0;
    slot_memo *sm = &p->memo[(size_t)nd->type * nslots + s];
    if( sm->state==0 ) sm->state = slot_memoisable(p, nd->type, s);
    if( !(sm->state & MEMO_NOT) && (!(sm->state & MEMO_REC) || (rec = gr_judge_record(r, n))!=0) ){
      for(w = 0; w < MEMO_WAYS; w++){
        const slot_way *x = &sm->way[w];
        size_t k;
        if( !x->valid || x->rec!=rec ) continue;
        *d = x->d;
        if( keep ){
          for(k = 0; k < x->ncand; k++){
            gr_cand c = x->cand[k];
            if( r->cand_first[n]==GR_NONE ) r->cand_first[n] = (uint32_t)r->ncand;
            c.node = n;
            push_cand(r, c);
          }
        }
        return;
      }
      m = &sm->way[next_way(&sm->next)];
      m->rec = rec; m->valid = 0;
    }
  }
  if( !d && p->rmemo && hits==NULL ){
    rm = &p->rmemo[nd->type];
    if( rm->state==0 ) rm->state = rules_memoisable(p, nd->type);
    if( (rm->state & MEMO_NOT) || ((rm->state & MEMO_REC) && (rrec = gr_judge_record(r, n))==0) ) rm = NULL;
    else{
      if( rm->state & MEMO_ROW ) rrow = r->dec_row[n];
      for(w = 0; w < MEMO_WAYS; w++) if( rm->valid[w] && rm->rec[w]==rrec && rm->row[w]==rrow ) return;
    }
  }
  if( d ){ d->value = NULL; d->source = -1; d->branch = 0; d->ncand = 0; }
  for(;;){
    cand_entry *e;
    gr_val v;
    if( hits ){
      while( j < hits->n && (hits->v[j].source >= 0 ? (size_t)rs->sources[hits->v[j].source].slot : nslots)!=s ) j++;
    }
    if( i < l->n && (!hits || j >= hits->n || cand_key(rs, &l->v[i]) <= cand_key(rs, &hits->v[j])) ) e = &l->v[i++];
    else if( hits && j < hits->n ) e = &hits->v[j++];
    else break;
    if( e->source >= 0 && e->source==last_source ) continue;   /* the source already yielded */
    memset(&v, 0, sizeof v);
    if( !entry_applies(env, e, &v) ) continue;
    held = 1;
    if( d ){
      last_source = e->source;
      if( d->source < 0 ){
        d->value = v.u.s; d->source = e->source; d->branch = e->bidx;
      }else if( keep ){
        if( r->cand_first[n]==GR_NONE ) r->cand_first[n] = (uint32_t)r->ncand;
        add_cand(r, n, (uint16_t)s, e, v.u.s);
      }
      d->ncand++;
    }else{
      const gr_rule *ru = &rs->rules[e->rule];
      if( ru->once && once ){
        once[e->rule].count++;
        if( n < once[e->rule].first ) once[e->rule].first = n;
      }else if( !ru->once ){
        node_rule_diag(r, env, ru, nd);
      }
    }
  }
  if( rm && !held ){
    w = next_way(&rm->next);
    rm->rec[w] = rrec; rm->row[w] = rrow; rm->valid[w] = 1;
  }
  if( m && keep ){
    m->d = *d;
    m->ncand = r->ncand - cand0;
    if( m->ncand > m->capcand ){
      m->capcand = m->ncand;
      m->cand = gr_xrealloc(m->cand, m->capcand * sizeof *m->cand);
    }
    if( m->ncand ) memcpy(m->cand, r->cand + cand0, m->ncand * sizeof *m->cand);
    m->valid = 1;
  }else if( m ){
    m->d = *d;
    m->ncand = 0;
    m->valid = 1;
  }
}

/* (type t)'s memo state: whether every slot is memoisable, and on what */
static uint8_t type_memo_state(plan *p, size_t t){
  type_memo *tm = &p->tmemo[t];
  size_t s;
  if( tm->state ) return tm->state;
  tm->state = 1;
  for(s = 0; s < p->nslots; s++){
    slot_memo *m = &p->memo[t * p->nslots + s];
    if( m->state==0 ) m->state = slot_memoisable(p, t, s);
    if( m->state & MEMO_NOT ){ tm->state = 3; break; }
    if( m->state & MEMO_REC ) tm->state = 2;
  }
  return tm->state;
}

/* The judge record node n is memoised under, for type memo state st; 0 none. */
static int type_memo_rec(const gr_result *r, uint8_t st, uint32_t n, uint32_t *rec){
  *rec = 0;
  if( st==3 ) return 0;
  if( st==2 && (*rec = gr_judge_record(r, n))==0 ) return 0;
  return 1;
}

/* the way of (type t, slot s)'s memo that holds judge record rec, or NULL */
static const slot_way *slot_way_of(const plan *p, uint32_t t, size_t s, uint32_t rec){
  const slot_memo *m = &p->memo[(size_t)t * p->nslots + s];
  uint32_t key = (m->state & MEMO_REC) ? rec : 0;
  size_t w;
  for(w = 0; w < MEMO_WAYS; w++) if( m->way[w].valid && m->way[w].rec==key ) return &m->way[w];
  return NULL;
}

/* A node whose judge record is one of its type's recent ones and whose
** slots all read nothing else (and no name-index rule names it) takes that
** record's row and each slot memo's beaten candidates for it, without a
** walk of its slots' cascades: what run_node_part's memo gives each slot, at
** once. Measured: run_node_part was 121M instructions of the 100K-op eval,
** 600,000 calls, for most nodes each a memo hit. */
static int decide_memoised(gr_result *r, plan *p, uint32_t n, uint32_t t, const cand_list *hits, int keep){
  type_memo *tm;
  uint32_t rec;
  size_t s, k, w;
  if( p->tmemo==NULL || hits ) return 0;
  tm = &p->tmemo[t];
  if( !type_memo_rec(r, type_memo_state(p, t), n, &rec) ) return 0;
  for(w = 0; w < MEMO_WAYS && !(tm->valid[w] && tm->rec[w]==rec); w++) ;
  if( w==MEMO_WAYS ) return 0;
  if( keep ){
    /* each slot's beaten candidates for the record; a slot memo may have let
    ** it go since: then they are taken back and the slots are walked */
    size_t cand0 = r->ncand;
    for(s = 0; s < p->nslots; s++){
      const slot_way *x = slot_way_of(p, t, s, rec);
      if( x==NULL ){
        r->ncand = cand0;
        r->cand_first[n] = GR_NONE;
        return 0;
      }
      for(k = 0; k < x->ncand; k++){
        gr_cand c = x->cand[k];
        if( r->cand_first[n]==GR_NONE ) r->cand_first[n] = (uint32_t)r->ncand;
        c.node = n;
        push_cand(r, c);
      }
    }
  }
  r->dec_row[n] = tm->row[w];
  return 1;
}

/* After node n (type t) was decided slot by slot: its record and row for
** the next node of its type, when every slot went through its memo. */
static void type_memo_keep(const gr_result *r, plan *p, uint32_t n, uint32_t t, const cand_list *hits){
  type_memo *tm;
  uint32_t rec;
  size_t w;
  if( p->tmemo==NULL ) return;
  tm = &p->tmemo[t];
  if( hits || !type_memo_rec(r, type_memo_state(p, t), n, &rec) ) return;
  for(w = 0; w < MEMO_WAYS && !(tm->valid[w] && tm->rec[w]==rec); w++) ;
  if( w==MEMO_WAYS ) w = next_way(&tm->next);
  tm->rec[w] = rec;
  tm->row[w] = r->dec_row[n];
  tm->valid[w] = 1;
}

static void env_at(gr_env *env, gr_result *r, uint32_t n){
  gr_env_init(env, r);
  env->node = n;
  env->type_name = gr_graph_type_name(r->g, gr_graph_nodes(r->g)[n].type);
}

/* A `once` node rule that holds for every node of a type (nothing left to
** evaluate per node) needs no visit of those nodes: its count grows by the
** type's number of nodes and its first node is the type's first. Such
** entries leave the type's list. Measured reason: with 10,000 extra site
** rules (bench/gen_rules.py), each node walked about ten `once` checks of
** its type. */
static void fold_once_rules(gr_result *r, plan *p, once_state *once){
  const gr_ruleset *rs = r->rs;
  uint32_t t, nt = gr_graph_ntypes(r->g);
  for(t = 0; t < nt; t++){
    cand_list *l = &p->per_type[(size_t)t * (p->nslots + 1) + p->nslots];
    size_t i, k = 0;
    for(i = 0; i < l->n; i++){
      const cand_entry *e = &l->v[i];
      if( e->source < 0 && rs->rules[e->rule].once && e->item_mask==0 && !e->check_type ){
        once[e->rule].count += p->type_count[t];
        if( p->type_count[t] && p->type_first[t] < once[e->rule].first ) once[e->rule].first = p->type_first[t];
        continue;
      }
      l->v[k++] = *e;
    }
    l->n = k;
  }
}

/* Rules `for each refusal`: once per engine whose kernel refused node n,
** in the order GE offers the node, before the engine that took it (every
** one when none did). Rule by rule, each over every refusal: GE raises
** W11001 as each kernel refuses, then one EZ3002 per refusing kernel after
** the search and EZ3003 (dnnengine_manager.cc:394-428), so the rules run
** before the node's own rules, in the order the rule files give them. */
static void run_refusal_rules(gr_result *r, gr_env *env, uint32_t n, const uint32_t *refusal_rules, size_t nrefusal){
  const gr_ruleset *rs = r->rs;
  uint32_t k;
  size_t i;
  if( !gr_judge_has_refusal(r, n) ) return;
  for(i = 0; i < nrefusal; i++){
    const gr_rule *ru = &rs->rules[refusal_rules[i]];
    for(k = 0; gr_judge_refusal(r, n, k, NULL, NULL); k++){
      env_at(env, r, n);
      env->refusal = k;
      if( gr_eval_cond(env, ru->br.cond) ) node_rule_diag(r, env, ru, &gr_graph_nodes(r->g)[n]);
    }
  }
  env_at(env, r, n);
}

/* ---- the decisions' rows (gr_result.dec) ---- */

static size_t row_width(const gr_result *r){ return r->rs->nslots ? r->rs->nslots : 1; }

/* Appends a copy of row `from` (GR_NONE: all zero) owned by `owner`; its index. */
static uint32_t push_row(gr_result *r, uint32_t from, uint32_t owner){
  size_t w = row_width(r);
  if( r->ndec_rows==r->capdec_rows ){
    size_t nc = r->capdec_rows ? r->capdec_rows * 2 : 64;
    if( nc > GR_NONE || nc > SIZE_MAX / (w * sizeof *r->dec) ) gr_oom();
    r->dec = gr_big_realloc(r->dec, r->capdec_rows * w * sizeof *r->dec, nc * w * sizeof *r->dec);
    r->dec_owner = gr_xrealloc(r->dec_owner, nc * sizeof *r->dec_owner);
    r->capdec_rows = nc;
  }
  if( from==GR_NONE ) memset(&r->dec[r->ndec_rows * w], 0, w * sizeof *r->dec);
  else memcpy(&r->dec[r->ndec_rows * w], &r->dec[(size_t)from * w], w * sizeof *r->dec);
  r->dec_owner[r->ndec_rows] = owner;
  return (uint32_t)r->ndec_rows++;
}

gr_decision *gr_dec_own(gr_result *r, uint32_t n){
  uint32_t row = r->dec_row[n];
  if( row!=1 && r->dec_owner[row]!=n ){     /* row 1, n's while it is decided, is n's */
    row = push_row(r, row, n);
    r->dec_row[n] = row;
  }
  return &r->dec[(size_t)row * row_width(r)];
}

/* the rows nodes decided so far, by content: the nodes' pass shares them */
typedef struct row_index {
  gr_idmap map;
  uint32_t *last;               /* per op type: the row of its last node, 0 none */
} row_index;

static int row_eq(const void *ctx, uint32_t id){
  const gr_result *r = ctx;
  size_t w = row_width(r);
  return memcmp(&r->dec[(size_t)id * w], &r->dec[w], w * sizeof *r->dec)==0;
}

/* Node n (of type t) has just been decided into row 1: it takes the row
** with the same decisions, the one its type's last node took or another,
** else a new one. */
static void commit_row(gr_result *r, row_index *ix, uint32_t n, uint32_t t){
  size_t w = row_width(r);
  uint32_t last = ix->last[t];
  uint64_t h;
  int64_t id;
  if( last && row_eq(r, last) ){
    r->dec_row[n] = last;
    return;
  }
  h = gr_hash(&r->dec[w], w * sizeof *r->dec);
  id = gr_idmap_find(&ix->map, h, row_eq, r);
  if( id < 0 ){
    id = push_row(r, 1, GR_NONE);
    gr_idmap_add(&ix->map, h, (uint32_t)id);
  }
  r->dec_row[n] = (uint32_t)id;
  ix->last[t] = (uint32_t)id;
}

static void decide_nodes(gr_result *r, int keep){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  const gr_eval_hooks *h = r->hooks;
  uint32_t n, nn = gr_graph_nnodes(g), nt = gr_graph_ntypes(g);
  size_t nslots = rs->nslots, k, s, first_end_ovr;
  uint8_t *hook_types = NULL;
  uint32_t *refusal_rules = NULL;   /* indices of the rules `for each refusal` */
  size_t nrefusal = 0;
  plan p;
  gr_env env;
  row_index rows;
  once_state *once = gr_xcalloc(rs->nrules + 1, sizeof *once);

  build_plan(r, &p);
  if( nslots ){
    p.memo = gr_xcalloc((size_t)nt * nslots + 1, sizeof *p.memo);
    p.tmemo = gr_xcalloc((size_t)nt + 1, sizeof *p.tmemo);
  }
  p.rmemo = gr_xcalloc((size_t)nt + 1, sizeof *p.rmemo);
  for(k = 0; k < rs->nrules; k++) once[k].first = GR_NONE;
  fold_once_rules(r, &p, once);
  r->dec_row = gr_big_alloc(((size_t)nn + 1) * sizeof *r->dec_row);   /* all row 0 */
  (void)push_row(r, GR_NONE, GR_NONE);    /* row 0: not decided yet */
  (void)push_row(r, GR_NONE, GR_NONE);    /* row 1: the node being decided */
  gr_idmap_init(&rows.map);
  rows.last = gr_xcalloc((size_t)nt + 1, sizeof *rows.last);
  r->cand_first = gr_big_alloc((size_t)nn * sizeof *r->cand_first);
  if( h && h->node ){
    uint32_t t;
    hook_types = gr_xcalloc(nt + 1, 1);
    for(t = 0; t < nt; t++) hook_types[t] = h->wants_type ? (uint8_t)(h->wants_type(h->ctx, r, t)!=0) : 1;
  }
  /* once, not per node: a site layer may add thousands of rules */
  if( r->judge ){
    for(k = 0; k < rs->nrules; k++){
      if( rs->rules[k].scope!=GR_SCOPE_REFUSAL ) continue;
      if( refusal_rules==NULL ) refusal_rules = gr_xcalloc(rs->nrules, sizeof *refusal_rules);
      refusal_rules[nrefusal++] = (uint32_t)k;
    }
  }
  gr_env_init(&env, r);
  for(n = 0; n < nn && !r->fatal; n++){
    const gr_node *nd = &gr_graph_nodes(g)[n];
    cand_list *hits;
    env.node = n;
    env.type_name = gr_graph_type_name(g, nd->type);
    r->cand_first[n] = GR_NONE;
    hits = nh_find(&p, nd->name);     /* once per node, for every slot */
    if( !decide_memoised(r, &p, n, nd->type, hits, keep) ){
      r->dec_row[n] = 1;
      for(s = 0; s < nslots; s++) run_node_part(r, &p, &env, n, s, hits, keep, once);
      if( nslots ) commit_row(r, &rows, n, nd->type);
      else r->dec_row[n] = 0;
      type_memo_keep(r, &p, n, nd->type, hits);
    }
    if( hook_types && hook_types[nd->type] ){
      if( h->node(h->ctx, r, n)!=0 ){ r->fatal = 1; break; }
      env_at(&env, r, n);
    }
    if( nrefusal ) run_refusal_rules(r, &env, n, refusal_rules, nrefusal);
    run_node_part(r, &p, &env, n, nslots, hits, keep, once);
  }
  /* `once` rules report now, so end-stage hooks see (and may re-grade) them */
  for(k = 0; k < rs->nrules && !r->fatal; k++){
    if( once[k].count ){
      const gr_node *nd = &gr_graph_nodes(g)[once[k].first];
      env_at(&env, r, once[k].first);
      env.count = once[k].count;
      /* re-evaluate to bind the witness variables of the first match */
      gr_eval_cond(&env, rs->rules[k].br.cond);
      node_rule_diag(r, &env, &rs->rules[k], nd);
    }
  }
  /* the after-all-nodes stage; nodes it overrides are checked again */
  first_end_ovr = r->novr;
  if( !r->fatal && h && h->end ){
    r->in_end_stage = 1;
    if( h->end(h->ctx, r)!=0 ) r->fatal = 1;
    r->in_end_stage = 0;
    for(k = first_end_ovr; k < r->novr && !r->fatal; k++){
      size_t m;
      for(m = first_end_ovr; m < k; m++) if( r->ovr[m].node==r->ovr[k].node ) break;
      if( m < k ) continue;          /* this node was checked again already */
      env_at(&env, r, r->ovr[k].node);
      run_node_part(r, &p, &env, r->ovr[k].node, nslots, nh_find(&p, gr_graph_nodes(g)[r->ovr[k].node].name), 0, NULL);
    }
  }
  free(hook_types);
  free(refusal_rules);
  free(once);
  free_plan(&p, nt);
  gr_idmap_free(&rows.map);
  free(rows.last);
}

/* ------------------------------------------------------------------ */
/* hook entry points */

int gr_result_override(gr_result *r, uint32_t node, int slot, const char *value,
                       const gr_origin *where, const char *reason, gr_error *err){
  const gr_ruleset *rs = r->rs;
  const gr_slot *sl;
  gr_decision *d;
  gr_override *o;
  size_t k;
  const char *cascade_value;
  int32_t cascade_source;
  uint16_t cascade_branch;
  if( r->g==NULL || r->dec==NULL || node >= gr_graph_nnodes(r->g) ){ gr_error_set(err, 0, 0, "no such node"); return -1; }
  if( slot < 0 || (size_t)slot >= rs->nslots ){ gr_error_set(err, 0, 0, "no such slot"); return -1; }
  sl = &rs->slots[slot];
  if( value ){
    if( sl->values_mode ){
      if( gr_ruleset_find(&rs->mode_map, value) < 0 ){
        const char *sug = gr_ruleset_suggest(rs, GR_NK_MODE, value);
        gr_error_set(err, 0, 0, "'%s' is not a precision mode of this rule set (slot %s)%s%s%s", value, sl->name,
                     sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
        return -1;
      }
    }else if( sl->nvalues ){
      for(k = 0; k < sl->nvalues; k++) if( strcmp(sl->values[k], value)==0 ) break;
      if( k==sl->nvalues ){ gr_error_set(err, 0, 0, "slot %s never takes the value '%s'", sl->name, value); return -1; }
    }
  }
  d = gr_dec_own(r, node);
  d += slot;
  if( d->source==GR_SOURCE_HOOK ){
    /* overriding a hook's decision: keep what the cascade decided */
    const gr_override *prev = gr_result_find_override(r, node, slot);
    cascade_value = prev ? prev->prev_value : NULL;
    cascade_source = prev ? prev->prev_source : -1;
    cascade_branch = prev ? prev->prev_branch : 0;
  }else{
    cascade_value = d->value;
    cascade_source = d->source;
    cascade_branch = d->branch;
  }
  if( r->novr==r->capovr ){
    r->capovr = r->capovr ? r->capovr * 2 : 64;
    r->ovr = gr_xrealloc(r->ovr, r->capovr * sizeof *r->ovr);
  }
  o = &r->ovr[r->novr++];
  memset(o, 0, sizeof *o);
  o->node = node;
  o->slot = (uint16_t)slot;
  o->value = value ? gr_arena_strndup(&r->arena, value, strlen(value)) : NULL;
  o->prev_value = cascade_value;
  o->prev_source = cascade_source;
  o->prev_branch = cascade_branch;
  if( where ){
    o->where = *where;
    o->where.file = where->file ? gr_arena_strndup(&r->arena, where->file, strlen(where->file)) : NULL;
  }
  o->reason = reason && reason[0] ? gr_arena_strndup(&r->arena, reason, strlen(reason)) : NULL;
  d->value = o->value;
  d->source = GR_SOURCE_HOOK;
  d->branch = 0;
  if( r->ovr_index==NULL ){
    r->ovr_index = gr_big_alloc((size_t)gr_graph_nnodes(r->g) * rs->nslots * sizeof *r->ovr_index);
  }
  r->ovr_index[(size_t)node * rs->nslots + (size_t)slot] = (uint32_t)r->novr;
  return 0;
}

const gr_override *gr_result_find_override(const gr_result *r, uint32_t node, int slot){
  uint32_t k;
  if( r->ovr_index==NULL || r->g==NULL || node >= gr_graph_nnodes(r->g) || slot < 0 || (size_t)slot >= r->rs->nslots ) return NULL;
  k = r->ovr_index[(size_t)node * r->rs->nslots + (size_t)slot];
  return k ? &r->ovr[k - 1] : NULL;
}

int gr_result_set_severity(gr_result *r, size_t di, gr_severity sev, const gr_origin *where,
                           const char *reason, gr_error *err){
  gr_diag *d;
  char *by;
  if( di >= r->diags.n ){ gr_error_set(err, 0, 0, "no such diagnostic"); return -1; }
  d = &r->diags.v[di];
  if( sev < d->sev && d->sev==GR_SEV_ERROR && (reason==NULL || reason[0]==0) ){
    gr_error_set(err, 0, 0, "lowering an error needs a reason");
    return -1;
  }
  if( sev==d->sev ) return 0;
  r->diags.count[d->sev]--;
  r->diags.count[sev]++;
  d->sev = sev;
  if( where && where->line ) by = gr_xasprintf("%s:%u%s%s", where->file, where->line, reason && reason[0] ? ": " : "", reason ? reason : "");
  else by = gr_xasprintf("%s%s%s", where && where->file ? where->file : "a hook", reason && reason[0] ? ": " : "", reason ? reason : "");
  free(d->changed_by);
  d->changed_by = by;
  return 0;
}

/* ------------------------------------------------------------------ */

/* The one way gr_eval fails: an error diagnostic and r->fatal. */
static gr_result *fail(gr_result *r, const char *msg){
  gr_diags_add(&r->diags, GR_SEV_ERROR, NULL, 0, 0, "%s", msg);
  r->fatal = 1;
  return r;
}

gr_result *gr_eval(const gr_ruleset *rs, const gr_eval_config *cfg){
  gr_result *r = gr_xcalloc(1, sizeof *r);
  const char *chip = cfg->chip;
  size_t i;
  r->rs = rs;
  r->g = cfg->graph;
  r->graph_file = cfg->graph_file;
  r->run_mode = cfg->run_mode ? cfg->run_mode : "inference";
  r->entry_point = cfg->entry_point ? cfg->entry_point : "atc";
  r->inputs = cfg->inputs;
  r->ninputs = cfg->ninputs;
  r->hooks = cfg->hooks;
  r->soc = r->product = -1;
  r->graph_dynamic = -1;
  gr_arena_init(&r->arena);
  gr_diags_init(&r->diags);
  r->opts = gr_xcalloc(rs->noptions + 1, sizeof *r->opts);

  resolve_inputs(r);
  if( chip==NULL ){
    for(i = 0; i < rs->noptions; i++){
      int in = r->opts[i].input;
      if( rs->options[i].type!=GR_OT_SOC || in < 0 || r->inputs[in].value[0]==0 ) continue;
      chip = r->inputs[in].value;     /* an unknown SoC is reported below, with a suggestion */
      break;
    }
  }
  if( !gr_entry_point_valid(r->entry_point) ){
    char *m = gr_xasprintf("unknown entry point '%s': it is %s", r->entry_point, GR_ENTRY_POINTS);
    fail(r, m);
    free(m);
    return r;
  }
  if( chip==NULL ) return fail(r, "no chip given: use --chip SOC (see 'gerules chips')");
  r->soc = gr_ruleset_find_soc(rs, chip);
  if( r->soc < 0 ){
    const char *s = gr_ruleset_suggest(rs, GR_NK_SOC, chip);
    char *m;
    if( s ) m = gr_xasprintf("unknown chip '%s'; did you mean '%s'? (see 'gerules chips')", chip, s);
    else m = gr_xasprintf("unknown chip '%s' (see 'gerules chips')", chip);
    fail(r, m);
    free(m);
    return r;
  }
  r->product = rs->socs[r->soc].product;
  r->soc_name = gr_arena_strndup(&r->arena, chip, strlen(chip));

  apply_relations(r);
  load_ini_files(r);
  if( r->fatal ) return r;
  for(i = 0; i < rs->noptions; i++) gr_option_state(r, (int)i);
  run_scoped_rules(r);
  apply_rejections(r);
  if( r->hooks && r->hooks->begin && r->hooks->begin(r->hooks->ctx, r)!=0 ){ r->fatal = 1; return r; }
  /* the judge first: the nodes it marks removed (GE deletes them before it
  ** partitions the graph) are not in the graph the partition clusters */
  if( r->g ) gr_judge_run(r);
  if( r->g ) gr_partition_run(r);
  if( r->g ) decide_nodes(r, cfg->keep_candidates);
  else if( r->hooks && r->hooks->end && r->hooks->end(r->hooks->ctx, r)!=0 ) r->fatal = 1;
  return r;
}

void gr_result_free(gr_result *r){
  size_t i;
  if( r==NULL ) return;
  if( r->opts ){
    for(i = 0; i < r->rs->noptions; i++) gr_ini_free(r->opts[i].ini);
    free(r->opts);
  }
  if( r->g ){
    size_t nn = gr_graph_nnodes(r->g);
    gr_big_free(r->dec, r->capdec_rows * row_width(r) * sizeof *r->dec);
    gr_big_free(r->dec_row, (nn + 1) * sizeof *r->dec_row);
    free(r->dec_owner);
    gr_big_free(r->cand_first, nn * sizeof *r->cand_first);
  }
  gr_partition_free(r);
  gr_judge_free(r);
  free(r->cand);
  free(r->ovr);
  free(r->noeffect_global);
  free(r->noeffect_text);
  gr_decision_effect_free(r);
  if( r->ovr_index ) gr_big_free(r->ovr_index, (size_t)gr_graph_nnodes(r->g) * r->rs->nslots * sizeof *r->ovr_index);
  gr_diags_free(&r->diags);
  gr_arena_free(&r->arena);
  free(r);
}
