/*
** check_judge.c: checks the tables the dtype and engine judge reads
** (doc/rule-language.md 6.5: graph_dtype_names, floating_dtypes,
** dtype_priority, dtype_priority_gaps, fp16_op_types, the dtype_* tables,
** precision_strategy, dtype_strategy, engines, aicore_dtype_conversions...)
** and compiles them into rs->judge (judge_rules.h). Every malformed entry is
** an error at the entry, at the word inside a string where the string has a
** small syntax of its own (a strategy row), with "did you mean" for names.
** A rule set without table graph_dtype_names has no judge (rs->judge NULL):
** nothing here is required of it.
*/
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "lang/check.h"
#include "lang/judge_rules.h"

typedef struct jck {
  ck *c;
  gr_judge_rules *j;
} jck;

static const gr_table *tab(ck *c, const char *name){
  int k = gr_ruleset_find(&c->rs->table_map, name);
  return k >= 0 ? &c->rs->tables[k] : NULL;
}

/* table t maps keys to lists of strings: 1, else each fault reported
** ("table T must map WHAT", "T[\"K\"]: expected LIST", "...: expected ITEM";
** nonempty: an empty string is a fault too) and 0 */
static int string_lists(ck *c, const gr_table *t, const char *what, const char *list, const char *item, int nonempty){
  int ok = 1;
  size_t i;
  if( !t->is_map ){ ck_err(c, t->loc, "table %s must map %s", t->name, what); return 0; }
  for(i = 0; i < t->n; i++){
    const gr_expr *v = t->vals[i], *x;
    if( v==NULL || v->op!=GR_E_LIST ){
      ck_err(c, v ? v->loc : t->locs[i], "%s[\"%s\"]: expected %s", t->name, t->keys[i], list);
      ok = 0;
      continue;
    }
    for(x = v->a; x; x = x->next)
      if( x->op!=GR_E_STR || (nonempty && !x->s[0]) ){ ck_err(c, x->loc, "%s[\"%s\"]: expected %s", t->name, t->keys[i], item); ok = 0; }
  }
  return ok;
}

/* table t is a set of op types of table fused (engine_fused_ops): 1, else
** each fault reported and 0 */
static int fused_type_set(ck *c, const gr_table *t, const gr_table *fused){
  int ok = 1;
  size_t i;
  if( t->is_map ){ ck_err(c, t->loc, "table %s must be a set of op types", t->name); return 0; }
  for(i = 0; i < t->n; i++){
    if( fused==NULL || gr_map_get(&fused->keymap, t->keys[i])==NULL ){
      ck_err(c, t->locs[i], "%s: \"%s\" is not an op type of table engine_fused_ops (which says what it becomes)", t->name, t->keys[i]);
      ok = 0;
    }
  }
  return ok;
}

/* table t maps op types of table fused (engine_fused_ops) to lists of input
** indices from lo (-1 or 0; 0: the list may not be empty) to 254, at most 254
** of them, `list` saying what a list is: 1, else each fault reported and 0 */
static int fused_index_lists(ck *c, const gr_table *t, const gr_table *fused, int lo, const char *list){
  int ok = 1;
  size_t i;
  if( !t->is_map ){ ck_err(c, t->loc, "table %s must map op types to lists of input indices", t->name); return 0; }
  for(i = 0; i < t->n; i++){
    const gr_expr *v = t->vals[i], *x;
    size_t n = 0;
    if( fused==NULL || gr_map_get(&fused->keymap, t->keys[i])==NULL ){
      ck_err(c, t->locs[i], "%s[\"%s\"]: not an op type of table engine_fused_ops (which says what it becomes)", t->name, t->keys[i]);
      ok = 0;
      continue;
    }
    if( v==NULL || v->op!=GR_E_LIST || (lo >= 0 && v->a==NULL) ){
      ck_err(c, v ? v->loc : t->locs[i], "%s[\"%s\"]: expected %s", t->name, t->keys[i], list);
      ok = 0;
      continue;
    }
    for(x = v->a; x; x = x->next, n++){
      if( x->op!=GR_E_INT || x->i < lo || x->i > 254 ){
        ck_err(c, x->loc, "%s[\"%s\"]: entry %zu: expected an input index from 0 to 254%s", t->name, t->keys[i], n, lo < 0 ? ", or -1" : "");
        ok = 0;
      }
    }
    if( n > 254 ){ ck_err(c, v->loc, "%s[\"%s\"]: more than 254 inputs", t->name, t->keys[i]); ok = 0; }
  }
  return ok;
}

/* an optional table that must be a set of strings where it is declared; NULL when it is not one */
static const gr_table *opt_set(ck *c, const char *name){
  const gr_table *t = tab(c, name);
  if( t && t->is_map ){ ck_err(c, t->loc, "table %s must be a set of strings", name); return NULL; }
  return t;
}

/* a table that must exist once the judge is declared */
static const gr_table *need(ck *c, const gr_table *anchor, const char *name, int map){
  const gr_table *t = tab(c, name);
  if( t==NULL ){
    ck_err(c, anchor->loc, "the dtype judge needs table %s (doc/rule-language.md 6.5), which is not declared", name);
    return NULL;
  }
  if( map && !t->is_map ){ ck_err(c, t->loc, "table %s must be a map", name); return NULL; }
  if( !map && t->is_map ){ ck_err(c, t->loc, "table %s must be a set of strings", name); return NULL; }
  return t;
}

/* the first slot of a dtype name in dt_slot (FNV-1a): the judge looks up
** every dtype of every op it compiles, so a lookup is one hash and one strcmp */
static uint32_t dt_hash(const char *s){
  uint32_t h = 2166136261u;
  for(; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h & (GR_JDT_SLOTS - 1);
}

uint32_t gr_judge_dtype_id(const gr_judge_rules *j, const char *name){
  uint32_t h, id;
  if( name==NULL ) return 0;
  for(h = dt_hash(name); (id = j->dt_slot[h])!=0; h = (h + 1) & (GR_JDT_SLOTS - 1))
    if( strcmp(j->dt_name[id], name)==0 ) return id;
  return 0;
}

static void dt_add(gr_judge_rules *j, const char *name){
  uint32_t h;
  j->dt_name[++j->ndt] = name;
  for(h = dt_hash(name); j->dt_slot[h]; h = (h + 1) & (GR_JDT_SLOTS - 1)) ;
  j->dt_slot[h] = (uint8_t)j->ndt;
}

int gr_judge_strategy_index(const gr_judge_rules *j, const char *name){
  uint32_t i;
  if( name==NULL ) return -1;
  for(i = 0; i < j->nstrategies; i++) if( strcmp(j->strategies[i].name, name)==0 ) return (int)i;
  return -1;
}

/* the dtype name closest to w, for did-you-mean */
static const char *dt_suggest(const gr_judge_rules *j, const char *w){
  const char *cand[GR_JDT_MAX + 1];
  uint32_t i;
  for(i = 1; i <= j->ndt; i++) cand[i - 1] = j->dt_name[i];
  return gr_suggest(w, cand, j->ndt);
}

static uint32_t want_dt(jck *k, gr_loc loc, const char *w, const char *what){
  uint32_t d = gr_judge_dtype_id(k->j, w);
  if( d==0 ){
    const char *s = dt_suggest(k->j, w);
    ck_err(k->c, loc, "%s: '%s' is not a dtype of table graph_dtype_names%s%s%s", what, w,
           s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
  }
  return d;
}

static int want_strategy(jck *k, gr_loc loc, const char *w, const char *what){
  int s = gr_judge_strategy_index(k->j, w);
  if( s < 0 ){
    const char *cand[64];
    uint32_t i, n = 0;
    const char *sug;
    for(i = 0; i < k->j->nstrategies && n < 64; i++) cand[n++] = k->j->strategies[i].name;
    sug = gr_suggest(w, cand, n);
    ck_err(k->c, loc, "%s: '%s' is not a strategy of table dtype_strategy%s%s%s", what, w,
           sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
  }
  return s;
}

/* the location of byte off of a string literal written at loc */
static gr_loc at(gr_loc loc, size_t off){ loc.col += (uint32_t)off + 1; return loc; }

/* ---- words of a strategy row ---- */
typedef struct word { const char *p; size_t n, off; } word;

static size_t split_words(const char *s, word *w, size_t max){
  size_t n = 0, i = 0;
  while( s[i] ){
    while( s[i]==' ' ) i++;
    if( !s[i] ) break;
    if( n < max ){ w[n].p = s + i; w[n].off = i; }
    while( s[i] && s[i]!=' ' ) i++;
    if( n < max ) w[n].n = (size_t)(s + i - w[n].p);
    n++;
  }
  return n;
}

static int weq(const word *w, const char *s){ return strlen(s)==w->n && memcmp(w->p, s, w->n)==0; }

/* a comma-separated dtype list into out (at most max); 0 on error */
static size_t dt_list(jck *k, gr_loc loc, const word *w, uint8_t *out, size_t max, const char *what){
  size_t n = 0, i = 0;
  while( i <= w->n ){
    size_t b = i;
    char name[64];
    uint32_t d;
    while( i < w->n && w->p[i]!=',' ) i++;
    if( i - b==0 || i - b >= sizeof name ){ ck_err(k->c, at(loc, w->off + b), "%s: expected a dtype name", what); return 0; }
    memcpy(name, w->p + b, i - b); name[i - b] = 0;
    d = want_dt(k, at(loc, w->off + b), name, what);
    if( d==0 ) return 0;
    if( n==max ){ ck_err(k->c, at(loc, w->off + b), "%s: at most %zu dtypes", what, max); return 0; }
    out[n++] = (uint8_t)d;
    i++;
  }
  return n;
}

static void parse_row(jck *k, gr_jrow *row, const gr_expr *e, const char *sname){
  word w[32];
  size_t n = split_words(e->s, w, 32), i, arrow = n;
  char what[160];
  gr_loc loc = e->loc;
  snprintf(what, sizeof what, "dtype_strategy[\"%s\"]", sname);
  memset(row, 0, sizeof *row);
  row->text = e->s; row->loc = e->loc;
  if( n > 32 ){ ck_err(k->c, loc, "%s: a row has at most 32 words", what); return; }
  for(i = 0; i < n; i++) if( weq(&w[i], "->") ){ arrow = i; break; }
  if( arrow==n ){ ck_err(k->c, at(loc, 0), "%s: a row reads 'GUARDS -> STEPS' (no '->' found)", what); return; }
  for(i = 0; i < arrow; i++){
    static const struct { const char *w; uint32_t g; } G[] = {
      {"white", GR_JG_WHITE}, {"black", GR_JG_BLACK}, {"gray", GR_JG_GRAY}, {"cube", GR_JG_CUBE},
      {"first", GR_JG_FIRST}, {"16in32out", GR_JG_16IN32OUT}, {"father", GR_JG_FATHER}, {"reduced", GR_JG_REDUCED} };
    size_t g;
    if( weq(&w[i], "*") ) continue;
    for(g = 0; g < sizeof G / sizeof *G; g++) if( weq(&w[i], G[g].w) ){ row->guards |= G[g].g; break; }
    if( g < sizeof G / sizeof *G ) continue;
    {
      uint8_t dts[GR_JDT_MAX];
      size_t m = dt_list(k, loc, &w[i], dts, GR_JDT_MAX, what), x;
      if( m==0 ){
        ck_err(k->c, at(loc, w[i].off), "%s: a guard is white, black, gray, cube, first, 16in32out, father, reduced, * or a dtype list", what);
        return;
      }
      for(x = 0; x < m; x++) row->dtypes |= (uint64_t)1 << dts[x];
    }
  }
  /* steps: KIND [ARG] separated by `then` */
  for(i = arrow + 1; i < n; ){
    gr_jstep *st;
    size_t b = i;
    if( row->nsteps==GR_JSTEPS ){ ck_err(k->c, at(loc, w[i].off), "%s: at most %d steps", what, GR_JSTEPS); return; }
    st = &row->steps[row->nsteps++];
    if( weq(&w[i], "rise") ) st->kind = GR_JS_RISE;
    else if( weq(&w[i], "reduce") ) st->kind = GR_JS_REDUCE;
    else if( weq(&w[i], "mix") ) st->kind = GR_JS_MIX;
    else if( weq(&w[i], "try") ) st->kind = GR_JS_TRY;
    else if( weq(&w[i], "exact") ) st->kind = GR_JS_EXACT;
    else{
      ck_err(k->c, at(loc, w[i].off), "%s: a step is rise, reduce, mix, try or exact, not '%.*s'", what, (int)w[i].n, w[i].p);
      return;
    }
    i++;
    if( i < n && !weq(&w[i], "then") ){
      if( st->kind==GR_JS_MIX || st->kind==GR_JS_TRY ){
        st->n = (uint8_t)dt_list(k, loc, &w[i], st->dt, GR_JTRY, what);
        if( st->n==0 ) return;
      }else if( weq(&w[i], "father") ){
        if( !(row->guards & GR_JG_FATHER) ){
          ck_err(k->c, at(loc, w[i].off), "%s: 'father' in a step needs the guard 'father' (a tensor fed by a node)", what);
          return;
        }
        st->expect = GR_JE_FATHER;
      }else{
        uint8_t d;
        if( dt_list(k, loc, &w[i], &d, 1, what)==0 ) return;
        st->expect = d;
      }
      i++;
    }else if( st->kind==GR_JS_MIX || st->kind==GR_JS_TRY ){
      ck_err(k->c, at(loc, w[b].off), "%s: '%.*s' needs a dtype list", what, (int)w[b].n, w[b].p);
      return;
    }
    if( i < n ){
      if( !weq(&w[i], "then") ){ ck_err(k->c, at(loc, w[i].off), "%s: expected 'then' between steps", what); return; }
      i++;
      if( i==n ){ ck_err(k->c, at(loc, w[i - 1].off), "%s: a step must follow 'then'", what); return; }
    }
  }
  if( row->nsteps==0 ) ck_err(k->c, at(loc, w[arrow].off), "%s: no step after '->'", what);
}

static int want_str(jck *k, const gr_expr *v, const gr_loc *loc, const char *tname, const char *key){
  if( v && v->op==GR_E_STR ) return 1;
  ck_err(k->c, v ? v->loc : *loc, "%s[\"%s\"]: expected a string", tname, key);
  return 0;
}

/* "from>to [unless black]" */
static int parse_conv(jck *k, const gr_expr *e, gr_jconv *cv, const char *what){
  word w[4];
  size_t n = split_words(e->s, w, 4);
  const char *gt;
  char a[64], b[64];
  memset(cv, 0, sizeof *cv);
  if( n==0 || (gt = memchr(w[0].p, '>', w[0].n))==NULL || (size_t)(gt - w[0].p) >= sizeof a || w[0].n - (size_t)(gt - w[0].p) - 1 >= sizeof b ){
    ck_err(k->c, at(e->loc, 0), "%s: a conversion reads 'FROM>TO' or 'FROM>TO unless black'", what);
    return 0;
  }
  memcpy(a, w[0].p, (size_t)(gt - w[0].p)); a[gt - w[0].p] = 0;
  memcpy(b, gt + 1, w[0].n - (size_t)(gt - w[0].p) - 1); b[w[0].n - (size_t)(gt - w[0].p) - 1] = 0;
  cv->from = (uint8_t)want_dt(k, at(e->loc, 0), a, what);
  cv->to = (uint8_t)want_dt(k, at(e->loc, (size_t)(gt - w[0].p) + 1), b, what);
  if( n==3 && weq(&w[1], "unless") && weq(&w[2], "black") ) cv->unless_black = 1;
  else if( n!=1 ){
    ck_err(k->c, at(e->loc, n > 1 ? w[1].off : 0), "%s: after the conversion only 'unless black' may follow", what);
    return 0;
  }
  return cv->from && cv->to;
}

static void conv_list_of(jck *k, const char *tname, const gr_expr *v, const gr_loc *loc, const char *key, gr_jconv **out, uint32_t *nout){
  const gr_expr *x;
  char what[128];
  uint32_t n = 0;
  snprintf(what, sizeof what, "%s[\"%s\"]", tname, key);
  if( v==NULL || v->op!=GR_E_LIST ){ ck_err(k->c, v ? v->loc : *loc, "%s: expected a list of conversions", what); return; }
  for(x = v->a; x; x = x->next) n++;
  *out = gr_arena_calloc(&k->c->rs->arena, (n ? n : 1) * sizeof **out);
  for(x = v->a; x; x = x->next){
    if( x->op!=GR_E_STR ){ ck_err(k->c, x->loc, "%s: expected a string", what); continue; }
    if( parse_conv(k, x, &(*out)[*nout], what) ) (*nout)++;
  }
}

static void conv_list(jck *k, const gr_expr *v, const gr_loc *loc, const char *key, gr_jconv **out, uint32_t *nout){
  conv_list_of(k, "aicore_dtype_conversions", v, loc, key, out, nout);
}

/* graph_dtype_names (the dtypes the judge knows), the dtype sets and
** priorities, and the op type sets */
static void judge_dtypes(jck *k, const gr_table *names){
  ck *c = k->c;
  gr_judge_rules *j = k->j;
  const gr_table *t;
  size_t i;
  j->graph_names = names;
  for(i = 0; i < names->n; i++){
    const gr_expr *v = names->vals[i];
    if( !want_str(k, v, &names->locs[i], "graph_dtype_names", names->keys[i]) ) continue;
    if( gr_judge_dtype_id(j, v->s) ) continue;
    if( j->ndt==GR_JDT_MAX ){ ck_err(c, v->loc, "graph_dtype_names: at most %d distinct dtypes", GR_JDT_MAX); break; }
    dt_add(j, v->s);
  }
  /* dtype sets and priorities */
  if( (t = need(c, names, "floating_dtypes", 0)) ){
    for(i = 0; i < t->n; i++){ uint32_t d = want_dt(k, t->locs[i], t->keys[i], "floating_dtypes"); if( d ) j->floating |= (uint64_t)1 << d; }
  }
  if( (t = need(c, names, "complex_dtypes", 0)) ){
    for(i = 0; i < t->n; i++){ uint32_t d = want_dt(k, t->locs[i], t->keys[i], "complex_dtypes"); if( d ) j->complex |= (uint64_t)1 << d; }
  }
  if( (t = need(c, names, "dtype_priority", 1)) ){
    for(i = 0; i < t->n; i++){
      uint32_t d = want_dt(k, t->locs[i], t->keys[i], "dtype_priority");
      if( t->vals[i]==NULL || t->vals[i]->op!=GR_E_INT ){ ck_err(c, t->locs[i], "dtype_priority[\"%s\"]: expected an int", t->keys[i]); continue; }
      if( d ){ j->prio[d] = t->vals[i]->i; j->has_prio[d] = 1; }
    }
  }
  if( (t = need(c, names, "dtype_priority_gaps", 1)) ){
    static const char *const gk[] = { "low", "cross", "high" };
    int64_t *gv[] = { &j->gap_low, &j->gap_cross, &j->gap_high };
    size_t g;
    for(g = 0; g < 3; g++){
      int e = -1;
      size_t x;
      for(x = 0; x < t->n; x++) if( strcmp(t->keys[x], gk[g])==0 ) e = (int)x;
      if( e < 0 || t->vals[e]==NULL || t->vals[e]->op!=GR_E_INT ) ck_err(c, t->loc, "dtype_priority_gaps needs an int for \"%s\"", gk[g]);
      else *gv[g] = t->vals[e]->i;
    }
    for(i = 0; i < t->n; i++){
      if( strcmp(t->keys[i], "low") && strcmp(t->keys[i], "cross") && strcmp(t->keys[i], "high") )
        ck_err(c, t->locs[i], "dtype_priority_gaps has the keys low, cross and high, not '%s'", t->keys[i]);
    }
  }
  j->fp16_ops = need(c, names, "fp16_op_types", 0);
  j->unjudged_ops = need(c, names, "dtype_unjudged_ops", 0);
  j->const_ops = need(c, names, "dtype_const_ops", 0);
  j->sensitive_ops = need(c, names, "dtype_sensitive_ops", 0);
  j->cast_ops = need(c, names, "cast_ops", 0);
}

/* the strategies (their names first: every other table refers to them),
** which apply under which precision mode and to which nodes, and what each
** forbids or looks through */
static void judge_strategies(jck *k, const gr_table *names){
  ck *c = k->c;
  gr_ruleset *rs = c->rs;
  gr_judge_rules *j = k->j;
  const gr_table *t;
  size_t i;
  if( (t = need(c, names, "dtype_strategy", 1)) ){
    j->strategies = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->strategies);
    for(i = 0; i < t->n; i++) j->strategies[j->nstrategies++].name = t->keys[i];
    for(i = 0; i < t->n; i++){
      gr_jstrategy *s = &j->strategies[i];
      const gr_expr *v = t->vals[i], *x;
      uint32_t n = 0;
      if( v==NULL || v->op!=GR_E_LIST ){ ck_err(c, v ? v->loc : t->locs[i], "dtype_strategy[\"%s\"]: expected a list of rows", t->keys[i]); continue; }
      for(x = v->a; x; x = x->next) n++;
      if( n==0 ){ ck_err(c, v->loc, "dtype_strategy[\"%s\"]: a strategy needs at least one row", t->keys[i]); continue; }
      s->rows = gr_arena_calloc(&rs->arena, n * sizeof *s->rows);
      for(x = v->a; x; x = x->next){
        if( x->op!=GR_E_STR ){ ck_err(c, x->loc, "dtype_strategy[\"%s\"]: a row is a string", t->keys[i]); continue; }
        parse_row(k, &s->rows[s->nrows++], x, t->keys[i]);
      }
    }
  }
  if( (t = need(c, names, "precision_strategy", 1)) ){
    j->mode_strategy = t;
    for(i = 0; i < t->n; i++){
      if( want_str(k, t->vals[i], &t->locs[i], "precision_strategy", t->keys[i]) )
        want_strategy(k, t->vals[i]->loc, t->vals[i]->s, "precision_strategy");
    }
  }
  if( (t = need(c, names, "precision_mode_options", 0)) ){
    j->mode_options = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->mode_options);
    for(i = 0; i < t->n; i++){
      const gr_option *o = ck_option_ref(c, t->keys[i], t->locs[i]);
      if( o ) j->mode_options[j->nmode_options++] = o;
    }
  }
  j->st_keep_dtype = j->st_sensitive = j->st_ge_op = -1;
  if( (t = need(c, names, "dtype_node_strategy", 1)) ){
    for(i = 0; i < t->n; i++){
      const gr_expr *v = t->vals[i], *x;
      int *slot = strcmp(t->keys[i], "keep_dtype")==0 ? &j->st_keep_dtype
                : strcmp(t->keys[i], "dtype_sensitive")==0 ? &j->st_sensitive
                : strcmp(t->keys[i], "ge_op")==0 ? &j->st_ge_op : NULL;
      if( slot==NULL ){ ck_err(c, t->locs[i], "dtype_node_strategy has the keys keep_dtype, dtype_sensitive and ge_op, not '%s'", t->keys[i]); continue; }
      if( v==NULL || v->op!=GR_E_LIST || v->a==NULL || v->a->op!=GR_E_STR ){
        ck_err(c, v ? v->loc : t->locs[i], "dtype_node_strategy[\"%s\"]: expected [STRATEGY, MODE-STRATEGY-IT-DOES-NOT-APPLY-UNDER...]", t->keys[i]);
        continue;
      }
      *slot = want_strategy(k, v->a->loc, v->a->s, "dtype_node_strategy");
      for(x = v->a->next; x; x = x->next){
        int s;
        if( x->op!=GR_E_STR ){ ck_err(c, x->loc, "dtype_node_strategy[\"%s\"]: expected a strategy name", t->keys[i]); continue; }
        s = want_strategy(k, x->loc, x->s, "dtype_node_strategy");
        if( s < 0 ) continue;
        if( slot!=&j->st_ge_op ){ ck_err(c, x->loc, "dtype_node_strategy[\"%s\"]: only ge_op has exceptions", t->keys[i]); continue; }
        if( j->nge_op_except < 8 ) j->ge_op_except[j->nge_op_except++] = s;
      }
    }
  }
  if( (t = need(c, names, "dtype_forbidden", 1)) ){
    for(i = 0; i < t->n; i++){
      int s = want_strategy(k, t->locs[i], t->keys[i], "dtype_forbidden");
      word w[4];
      size_t n;
      uint8_t d = 0;
      if( !want_str(k, t->vals[i], &t->locs[i], "dtype_forbidden", t->keys[i]) || s < 0 ) continue;
      n = split_words(t->vals[i]->s, w, 4);
      if( n==0 || dt_list(k, t->vals[i]->loc, &w[0], &d, 1, "dtype_forbidden")==0 ) continue;
      j->strategies[s].forbid = d;
      if( n==3 && weq(&w[1], "unless") && weq(&w[2], "own") ) j->strategies[s].forbid_unless_own = 1;
      else if( n!=1 ) ck_err(c, at(t->vals[i]->loc, n > 1 ? w[1].off : 0), "dtype_forbidden[\"%s\"]: reads 'DTYPE' or 'DTYPE unless own'", t->keys[i]);
    }
  }
  if( (t = need(c, names, "gray_cast_see_through", 1)) ){
    for(i = 0; i < t->n; i++){
      int s = want_strategy(k, t->locs[i], t->keys[i], "gray_cast_see_through");
      const gr_expr *x;
      if( t->vals[i]==NULL || t->vals[i]->op!=GR_E_LIST ){ ck_err(c, t->locs[i], "gray_cast_see_through[\"%s\"]: expected a list of conversions", t->keys[i]); continue; }
      for(x = t->vals[i]->a; x; x = x->next){
        gr_jconv cv;
        if( x->op!=GR_E_STR ){ ck_err(c, x->loc, "gray_cast_see_through: expected a string"); continue; }
        if( !parse_conv(k, x, &cv, "gray_cast_see_through") || s < 0 ) continue;
        if( cv.unless_black ){ ck_err(c, x->loc, "gray_cast_see_through: 'unless black' does not apply (a black Cast is never looked through)"); continue; }
        if( j->strategies[s].nsee < 8 ) j->strategies[s].see_through[j->strategies[s].nsee++] = (uint16_t)(cv.from << 8 | cv.to);
      }
    }
  }
}

/* the engines, sorted by cost, their sets and op tables, and the AI Core
** dtype conversions */
static void judge_engines(jck *k, const gr_table *names){
  ck *c = k->c;
  gr_ruleset *rs = c->rs;
  gr_judge_rules *j = k->j;
  const gr_table *t;
  size_t i;
  if( (t = need(c, names, "engines", 1)) ){
    const gr_table *fe = need(c, names, "fe_engines", 0), *off = need(c, names, "engines_off_by_default", 0),
                  *cpu = need(c, names, "aicpu_engines", 0), *optab = need(c, names, "engine_op_tables", 1);
    j->engines = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->engines);
    for(i = 0; i < t->n; i++){
      const gr_expr *v = t->vals[i];
      gr_jengine *e = &j->engines[j->nengines];
      if( v==NULL || v->op!=GR_E_LIST || v->a==NULL || v->a->op!=GR_E_INT || v->a->next==NULL || v->a->next->op!=GR_E_STR || v->a->next->next ){
        ck_err(c, v ? v->loc : t->locs[i], "engines[\"%s\"]: expected [COMPUTE_COST, \"EXCLUDE_ENGINES name\"]", t->keys[i]);
        continue;
      }
      e->id = t->keys[i]; e->cost = v->a->i; e->exclude_name = v->a->next->s;
      e->fe = fe && gr_map_get(&fe->keymap, e->id)!=NULL;
      e->off_by_default = off && gr_map_get(&off->keymap, e->id)!=NULL;
      e->aicpu = cpu && gr_map_get(&cpu->keymap, e->id)!=NULL;
      j->nengines++;
    }
    /* stable insertion sort by cost: GE sorts by compute cost */
    for(i = 1; i < j->nengines; i++){
      gr_jengine x = j->engines[i];
      size_t m = i;
      while( m > 0 && j->engines[m - 1].cost > x.cost ){ j->engines[m] = j->engines[m - 1]; m--; }
      j->engines[m] = x;
    }
    {
      const gr_table *sets[] = { fe, off, cpu };
      const char *sn[] = { "fe_engines", "engines_off_by_default", "aicpu_engines" };
      size_t s, x;
      for(s = 0; s < 3; s++) for(x = 0; sets[s] && x < sets[s]->n; x++){
        if( gr_map_get(&t->keymap, sets[s]->keys[x])==NULL )
          ck_err(c, sets[s]->locs[x], "%s: '%s' is not an engine of table engines", sn[s], sets[s]->keys[x]);
      }
    }
    for(i = 0; optab && i < optab->n; i++){
      const gr_expr *v = optab->vals[i];
      int ek = -1;
      size_t x;
      for(x = 0; x < j->nengines; x++) if( strcmp(j->engines[x].id, optab->keys[i])==0 ) ek = (int)x;
      if( ek < 0 ){ ck_err(c, optab->locs[i], "engine_op_tables: '%s' is not an engine of table engines", optab->keys[i]); continue; }
      if( !want_str(k, v, &optab->locs[i], "engine_op_tables", optab->keys[i]) ) continue;
      j->engines[ek].op_table = tab(c, v->s);
      if( j->engines[ek].op_table==NULL || j->engines[ek].op_table->is_map ){
        char sug[128];
        ck_err(c, v->loc, "engine_op_tables[\"%s\"]: '%s' is not a set table%s", optab->keys[i], v->s,
               ck_did_you_mean(c, GR_NK_TABLE, v->s, sug, sizeof sug));
      }
    }
  }
  j->unplaced_ops = need(c, names, "engine_unplaced_ops", 0);
  if( (t = tab(c, "engine_removed_identity_ops")) ){
    /* op type -> [attribute names that keep the node]; needs the boundary set */
    int ok = string_lists(c, t, "op types to lists of attribute names", "a list of attribute names (those that keep the node)",
                          "an attribute name", 1);
    if( ok ){
      j->subgraph_boundary_ops = need(c, names, "subgraph_boundary_ops", 0);
      if( j->subgraph_boundary_ops ) j->removed_identity_ops = t;
    }
  }
  if( (t = tab(c, "engine_fused_ops")) ){
    /* op type -> [the type it becomes, the fusion pass(, the type it
    ** becomes when the node is dynamic)]: plain strings */
    int ok = 1;
    if( !t->is_map ){ ck_err(c, t->loc, "table engine_fused_ops must map op types to [type, pass] lists"); ok = 0; }
    for(i = 0; ok && i < t->n; i++){
      const gr_expr *v = t->vals[i], *x;
      size_t n = 0;
      int strs = v && v->op==GR_E_LIST;
      for(x = strs ? v->a : NULL; x; x = x->next, n++) if( x->op!=GR_E_STR || !x->s[0] ) strs = 0;
      if( !strs || n < 2 || n > 3 ){
        ck_err(c, v ? v->loc : t->locs[i], "engine_fused_ops[\"%s\"]: expected [\"TYPE\", \"PASS\"] or [\"TYPE\", \"PASS\", \"DYNAMIC_TYPE\"] "
               "(the type a fusion pass makes the op, the pass, and the type it makes a dynamic node if another, the op's own if it leaves them)", t->keys[i]);
        ok = 0;
        continue;
      }
      /* DYNAMIC_TYPE may be the op's own type: the pass leaves a dynamic node */
      if( strcmp(v->a->s, t->keys[i])==0 ){
        ck_err(c, v->a->loc, "engine_fused_ops[\"%s\"]: an op fused into its own type", t->keys[i]);
        ok = 0;
      }
    }
    if( ok ) j->fused_ops = t;
  }
  if( (t = tab(c, "engine_fused_inputs")) ){
    /* op type of engine_fused_ops -> per input of the node, the index of the
    ** fused op's input that takes it, or -1 */
    if( fused_index_lists(c, t, j->fused_ops, -1, "a list, per input of the node, of the fused op's input that takes it "
                          "(0 the first) or -1 (none: the pass folds it into another)") ) j->fused_inputs = t;
  }
  if( (t = tab(c, "engine_fused_const_inputs")) ){
    /* op type of engine_fused_ops -> the inputs of the node (0 the first)
    ** that must be constants for the pass to make it that type */
    if( fused_index_lists(c, t, j->fused_ops, 0, "a non-empty list of the node's inputs (0 the first) the pass needs as "
                          "constants") ) j->fused_const = t;
  }
  if( (t = tab(c, "engine_fused_checked_ops")) ){
    /* a set of op types of engine_fused_ops whose pass asks FE's op support
    ** check before it fuses */
    if( fused_type_set(c, t, j->fused_ops) ) j->fused_checked = t;
  }
  if( (t = tab(c, "engine_fused_leaving_ops")) ){
    /* a set of op types of engine_fused_ops whose pass leaves a node it does
    ** not fuse as it is; not one whose dynamic nodes become a third type
    ** (the judge has one other row per type: the dynamic or the left one) */
    int ok = fused_type_set(c, t, j->fused_ops);
    for(i = 0; !t->is_map && j->fused_ops && i < t->n; i++){
      void *at = gr_map_get(&j->fused_ops->keymap, t->keys[i]);
      const gr_expr *dyn = at ? j->fused_ops->vals[(size_t)(intptr_t)at - 1]->a->next->next : NULL;
      if( dyn && strcmp(dyn->s, t->keys[i])!=0 ){
        ck_err(c, t->locs[i], "engine_fused_leaving_ops: \"%s\" becomes %s when dynamic (table engine_fused_ops): a pass that leaves "
               "nodes makes a dynamic node the fused type or leaves it", t->keys[i], dyn->s);
        ok = 0;
      }
    }
    if( ok ) j->fused_leaving = t;
  }
  if( (t = tab(c, "engine_fused_unmodelled_ops")) ){
    /* op type -> the pass (a non-empty string); no type of engine_fused_ops */
    int ok = 1;
    if( !t->is_map ){ ck_err(c, t->loc, "table engine_fused_unmodelled_ops must map op types to the names of their fusion passes"); ok = 0; }
    for(i = 0; t->is_map && i < t->n; i++){
      const gr_expr *v = t->vals[i];
      if( v==NULL || v->op!=GR_E_STR || !v->s[0] ){
        ck_err(c, v ? v->loc : t->locs[i], "engine_fused_unmodelled_ops[\"%s\"]: expected the name of the fusion pass, a non-empty string", t->keys[i]);
        ok = 0;
      }else if( j->fused_ops && gr_map_get(&j->fused_ops->keymap, t->keys[i]) ){
        ck_err(c, t->locs[i], "engine_fused_unmodelled_ops[\"%s\"]: also in table engine_fused_ops, which says what the pass makes of it", t->keys[i]);
        ok = 0;
      }
    }
    if( ok ) j->fused_unmodelled = t;
  }
  j->removed_same_dtype_ops = opt_set(c, "engine_removed_same_dtype_ops");
  j->removed_same_shape_ops = opt_set(c, "engine_removed_same_shape_ops");
  if( (t = tab(c, "engine_removed_same_dtype_kept_by")) ){
    if( string_lists(c, t, "option keys to lists of values", "a list of values", "a string", 0) ) j->removed_kept_by = t;
  }
  /* constant folding: op type -> the dtype pairs it converts ([] any), the
  ** shape-computed types, the attributes that keep a node, the weight
  ** attributes of a constant, and the options that switch it off */
  if( (t = tab(c, "engine_folded_ops")) ){
    if( !t->is_map ) ck_err(c, t->loc, "table engine_folded_ops must map op types to lists of dtype pairs 'FROM>TO'");
    else{
      j->folded_pairs = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->folded_pairs);
      j->nfolded_pairs = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->nfolded_pairs);
      for(i = 0; i < t->n; i++){
        uint32_t p;
        conv_list_of(k, "engine_folded_ops", t->vals[i], &t->locs[i], t->keys[i], &j->folded_pairs[i], &j->nfolded_pairs[i]);
        for(p = 0; p < j->nfolded_pairs[i]; p++)
          if( j->folded_pairs[i][p].unless_black )
            ck_err(c, t->vals[i]->loc, "engine_folded_ops[\"%s\"]: a dtype pair reads 'FROM>TO' ('unless black' is for aicore_dtype_conversions)", t->keys[i]);
      }
      j->folded_ops = t;
    }
  }
  j->folded_shape_ops = opt_set(c, "engine_folded_shape_ops");
  j->fold_const_ops = opt_set(c, "const_ops");
  if( (t = tab(c, "engine_folded_kept_attrs")) && string_lists(c, t, "attribute names to lists of values", "a list of values", "a string", 1) )
    j->folded_kept_attrs = t;
  if( (t = tab(c, "engine_const_weight_attrs")) && string_lists(c, t, "attribute names to lists of values", "a list of values", "a string", 1) )
    j->const_weight_attrs = t;
  if( (t = tab(c, "engine_folded_kept_by")) && string_lists(c, t, "option keys to lists of values", "a list of values", "a string", 0) )
    j->folded_kept_by = t;
  if( j->folded_ops && j->const_weight_attrs==NULL )
    ck_err(c, j->folded_ops->loc, "table engine_folded_ops needs table engine_const_weight_attrs (which constants have a weight GE folds with)");
  j->removed_inference_ops = opt_set(c, "engine_removed_inference_ops");
  if( (t = tab(c, "engine_removed_inference_kept_by")) && string_lists(c, t, "option names to lists of values", "a list of values", "a string", 0) ){
    /* option name -> the values that keep the ops: names checked like every option reference */
    j->infer_kept_opt = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->infer_kept_opt);
    j->infer_kept_vals = gr_arena_calloc(&rs->arena, (t->n ? t->n : 1) * sizeof *j->infer_kept_vals);
    for(i = 0; i < t->n; i++){
      const gr_option *o = ck_option_ref(c, t->keys[i], t->locs[i]);
      if( o==NULL ) continue;
      j->infer_kept_opt[j->ninfer_kept] = o;
      j->infer_kept_vals[j->ninfer_kept++] = t->vals[i];
    }
  }
  if( (t = need(c, names, "aicore_dtype_conversions", 1)) ){
    for(i = 0; i < t->n; i++){
      int s;
      if( strcmp(t->keys[i], "*")==0 ){ conv_list(k, t->vals[i], &t->locs[i], "*", &j->conv_all, &j->nconv_all); continue; }
      s = want_strategy(k, t->locs[i], t->keys[i], "aicore_dtype_conversions");
      if( s < 0 ) continue;
      j->strategies[s].has_conv = 1;
      conv_list(k, t->vals[i], &t->locs[i], t->keys[i], &j->strategies[s].conv, &j->strategies[s].nconv);
    }
  }
}

/* the options that name dtype files and exclude engines */
static void judge_option_files(jck *k, const gr_table *names){
  ck *c = k->c;
  gr_judge_rules *j = k->j;
  const gr_table *t;
  size_t i;
  if( (t = need(c, names, "dtype_option_files", 1)) ){
    static const char *const fmt[] = { NULL, "modify_mixlist", "keep_dtype", "customize_dtypes" };
    for(i = 0; i < t->n; i++){
      const gr_option *o = ck_option_ref(c, t->keys[i], t->locs[i]);
      size_t f;
      if( !want_str(k, t->vals[i], &t->locs[i], "dtype_option_files", t->keys[i]) || o==NULL ) continue;
      for(f = 1; f < 4; f++) if( strcmp(fmt[f], t->vals[i]->s)==0 ) break;
      if( f==4 ){ ck_err(c, t->vals[i]->loc, "dtype_option_files[\"%s\"]: the file formats are modify_mixlist, keep_dtype and customize_dtypes, not '%s'", t->keys[i], t->vals[i]->s); continue; }
      if( o->type!=GR_OT_FILE ){ ck_err(c, t->locs[i], "dtype_option_files: option %s must be of type file", o->name); continue; }
      j->file_option[f] = o;
    }
  }
  if( (t = need(c, names, "engine_exclude_options", 0)) ){
    for(i = 0; i < t->n; i++){
      const gr_option *o = ck_option_ref(c, t->keys[i], t->locs[i]);
      if( o && o->type!=GR_OT_LIST ) ck_err(c, t->locs[i], "engine_exclude_options: option %s must be of type list", o->name);
      else if( o ) j->exclude_option = o;
    }
  }
}

void ck_judge(ck *c){
  gr_ruleset *rs = c->rs;
  const gr_table *names = tab(c, "graph_dtype_names");
  gr_judge_rules *j;
  jck k;
  int nerr0 = c->nerr;
  if( names==NULL ) return;
  j = gr_arena_calloc(&rs->arena, sizeof *j);
  k.c = c; k.j = j;
  if( !names->is_map ){ ck_err(c, names->loc, "table graph_dtype_names must map the model's dtype names to gerules' spelling"); return; }
  judge_dtypes(&k, names);
  judge_strategies(&k, names);
  judge_engines(&k, names);
  judge_option_files(&k, names);
  if( c->nerr==nerr0 ) rs->judge = j;
}
