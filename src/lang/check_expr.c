/*
** check_expr.c: the type checker of expressions and message templates. It
** resolves every name in an expression (options, tables, capabilities,
** fields, bound variables), gives each node its static type and its
** dependency level (constant, global, per op type, per item) for the
** evaluator's specialisation, and reports each mismatch located at the
** operand. Templates are split into literal text and {placeholders}, each
** parsed with the rule grammar and checked in the scope of its rule.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/check.h"

/* ------------------------------------------------------------------ */
/* expressions */

static int compatible(uint8_t a, uint8_t b){
  return a==b || a==GR_T_ANY || b==GR_T_ANY || a==GR_T_NULL || b==GR_T_NULL;
}

uint8_t ck_want(ck *c, gr_expr *e, uint8_t t, const char *what){
  uint8_t got = ck_expr(c, e);
  if( got!=GR_T_ANY && got!=t && !(got==GR_T_NULL && t!=GR_T_BOOL) ){
    ck_err(c, e->loc, "%s must be %s, not %s", what, ck_a_type(t), ck_a_type(got));
  }
  return got;
}

gr_option *ck_option_ref(ck *c, const char *name, gr_loc loc){
  int i = gr_ruleset_find(&c->rs->option_map, name);
  if( i < 0 ){
    char sug[128];
    ck_err(c, loc, "unknown option '%s'%s", name, ck_did_you_mean(c, GR_NK_OPTION, name, sug, sizeof sug));
    return NULL;
  }
  return &c->rs->options[i];
}

int ck_option_has_value(const gr_option *o, const char *v){
  size_t i;
  for(i = 0; i < o->nvalues; i++) if( strcmp(o->values[i], v)==0 ) return 1;
  return 0;
}

/* `option X == "lit"`: the literal must be a value X can have. */
static void check_option_literal(ck *c, const gr_expr *opt, const gr_expr *lit){
  const gr_option *o;
  if( opt->op!=GR_E_OPTION || lit->op!=GR_E_STR || opt->ptr==NULL ) return;
  o = opt->ptr;
  if( (o->type==GR_OT_ENUM || o->type==GR_OT_BOOL) && o->nvalues && !ck_option_has_value(o, lit->s) && lit->s[0] ){
    ck_err(c, lit->loc, "option %s can never be '%s' (its values: %s%s)", o->name, lit->s,
        o->values[0], o->nvalues > 1 ? ", ..." : "");
  }
}

static void check_runmode_literal(ck *c, const gr_expr *a, const gr_expr *b){
  if( a->op==GR_E_RUNMODE && b->op==GR_E_STR && strcmp(b->s, "inference") && strcmp(b->s, "training") ){
    ck_err(c, b->loc, "run_mode is \"inference\" or \"training\", never '%s'", b->s);
  }
  if( a->op==GR_E_ENTRYPOINT && b->op==GR_E_STR && !gr_entry_point_valid(b->s) ){
    ck_err(c, b->loc, "entry_point is %s, never '%s'", GR_ENTRY_POINTS, b->s);
  }
}

/* `partition(P).cause == "lit"` and `.seed == "lit"`: a word it can have. */
static void check_partition_literal(ck *c, const gr_expr *a, const gr_expr *b){
  const gr_partition *p = a->ptr;
  size_t k;
  if( a->op!=GR_E_PARTITION || b->op!=GR_E_STR || p==NULL ) return;
  if( a->ref==GR_PF_CAUSE ){
    gr_buf words;
    for(k = 1; gr_pcause_name((int)k); k++) if( strcmp(gr_pcause_name((int)k), b->s)==0 ) return;
    gr_buf_init(&words);                 /* the words, from the one list of them */
    for(k = 1; gr_pcause_name((int)k); k++)
      gr_buf_printf(&words, "%s\"%s\"", k==1 ? "" : gr_pcause_name((int)k + 1) ? ", " : " or ", gr_pcause_name((int)k));
    gr_buf_addc(&words, 0);
    ck_err(c, b->loc, "partition(%s).cause is %s, never '%s'", p->name, words.p, b->s);
    gr_buf_free(&words);
  }else if( a->ref==GR_PF_SEED ){
    for(k = 0; k < p->nseeds; k++) if( strcmp(p->seeds[k].name, b->s)==0 ) return;
    ck_err(c, b->loc, "partition %s has no seed '%s'", p->name, b->s);
  }
}

static uint8_t field_type(ck *c, gr_expr *e, uint8_t base){
  const char *f = e->s;
  gr_ruleset *rs = c->rs;
  int hw;
#define F(name, code, type) if( strcmp(f, name)==0 ){ e->ref = code; return type; }
  switch( base ){
    case GR_T_CHIP:
      F("soc", GR_F_SOC, GR_T_STR);
      F("product", GR_F_PRODUCT, GR_T_STR);
      F("title", GR_F_TITLE, GR_T_STR);
      hw = gr_ruleset_find(&rs->hw_map, f);
      if( hw >= 0 ){ e->ref = GR_F_HW; e->ref2 = hw; return GR_T_INT; }
      {
        char sug[128];
        ck_err(c, e->sloc, "chip has no field '%s' (soc, product, title or a hardware property)%s", f,
            ck_did_you_mean(c, GR_NK_HW, f, sug, sizeof sug));
      }
      return GR_T_ANY;
    case GR_T_NODE:
      F("name", GR_F_NAME, GR_T_STR);
      F("type", GR_F_TYPE, GR_T_STR);
      F("graph", GR_F_GRAPH, GR_T_STR);
      F("static", GR_F_STATIC, GR_T_BOOL);
      F("dynamic", GR_F_DYNAMIC, GR_T_BOOL);
      F("inputs", GR_F_INPUTS, GR_T_INT);
      F("outputs", GR_F_OUTPUTS, GR_T_INT);
      F("input", GR_F_INPUT, GR_T_INPUTS);
      F("attr", GR_F_ATTR, GR_T_ATTRS);
      F("parent", GR_F_PARENT, GR_T_NODE);
      if( strcmp(f, "dtypes")==0 ){ e->ref = GR_F_DTYPES; e->elem = GR_T_STR; return GR_T_LIST; }
      {
        /* the dtype and engine judge's outcome (doc/rule-language.md 6.5) */
        static const struct { const char *n; int f; uint8_t t; } J[] = {
          {"judge_dtype", GR_JF_DTYPE, GR_T_STR}, {"judge_dtype_by", GR_JF_DTYPE_BY, GR_T_STR},
          {"judge_dtype_why", GR_JF_DTYPE_WHY, GR_T_STR}, {"judge_engine", GR_JF_ENGINE, GR_T_STR},
          {"judge_engine_by", GR_JF_ENGINE_BY, GR_T_STR}, {"judge_engine_why", GR_JF_ENGINE_WHY, GR_T_STR},
          {"judge_strategy", GR_JF_STRATEGY, GR_T_STR}, {"judge_casts", GR_JF_CASTS, GR_T_INT},
          {"judge_engine_summary", GR_JF_ENGINE_SUMMARY, GR_T_STR}, {"judge_type", GR_JF_TYPE, GR_T_STR},
          {"judge_refusal_engine", GR_JF_REFUSAL_ENGINE, GR_T_STR}, {"judge_refusal_why", GR_JF_REFUSAL_WHY, GR_T_STR},
          {"judge_refusal_ge_op", GR_JF_REFUSAL_GE_OP, GR_T_BOOL} };
        size_t k;
        for(k = 0; k < sizeof J / sizeof *J; k++){
          if( strcmp(f, J[k].n) ) continue;
          e->ref = GR_F_JUDGE; e->ref2 = J[k].f;
          if( c->in_dtypes ){
            ck_err(c, e->sloc, "a dtypes block's condition is tested while the judge decides: it cannot read '%s'", f);
            return J[k].t;
          }
          if( J[k].f >= GR_JF_REFUSAL_ENGINE
              && (c->scope!=GR_SCOPE_REFUSAL || e->a==NULL || e->a->op!=GR_E_NODE) )
            ck_err(c, e->sloc, "'%s' is the refusing engine's: only 'node.%s' in rules 'for each refusal'", f, f);
          return J[k].t;
        }
      }
      {
        size_t k;
        for(k = 0; k < rs->nslots; k++){
          int is_src = strcmp(f, rs->slots[k].report_key ? rs->slots[k].report_key : "")==0;
          if( strcmp(f, rs->slots[k].name)!=0 && !is_src ) continue;
          if( c->in_dtypes ){
            ck_err(c, e->sloc, "a dtypes block's condition is tested while the judge decides, before any slot: it cannot read slot %s", rs->slots[k].name);
          }else if( c->in_source ){
            ck_err(c, e->sloc, "the decided value of slot %s is available to rules, not to sources (a source cannot depend on a decision)", rs->slots[k].name);
          }else if( e->a->op!=GR_E_NODE ){
            ck_err(c, e->sloc, "only the current node's decisions can be read ('node.%s')", f);
          }
          e->ref = is_src ? GR_F_SLOT_SOURCE : GR_F_SLOT;
          e->ref2 = (int32_t)k;
          return GR_T_STR;
        }
      }
      ck_err(c, e->sloc, "node has no field '%s' (name, type, graph, static, dynamic, inputs, outputs, input, attr, parent, dtypes, a judge_ field, or a slot)", f);
      return GR_T_ANY;
    case GR_T_INPUT:
      F("connected", GR_F_CONNECTED, GR_T_BOOL);
      F("producer", GR_F_PRODUCER, GR_T_NODE);
      F("index", GR_F_INDEX, GR_T_INT);
      F("attr", GR_F_ATTR, GR_T_ATTRS);
      F("rank", GR_F_RANK, GR_T_INT);
      if( strcmp(f, "dims")==0 ){ e->ref = GR_F_DIMS; e->elem = GR_T_INT; return GR_T_LIST; }
      ck_err(c, e->sloc, "an input has no field '%s' (connected, producer, index, attr, rank, dims)", f);
      return GR_T_ANY;
    case GR_T_OPTREF:
      F("name", GR_F_NAME, GR_T_STR);
      F("key", GR_F_KEY, GR_T_STR);
      F("value", GR_F_VALUE, GR_T_STR);
      F("known", GR_F_KNOWN, GR_T_BOOL);
      F("valid", GR_F_VALID, GR_T_BOOL);
      F("problem", GR_F_PROBLEM, GR_T_STR);
      F("supported", GR_F_SUPPORTED, GR_T_BOOL);
      F("value_supported", GR_F_VALUE_SUPPORTED, GR_T_BOOL);
      F("effective", GR_F_EFFECTIVE, GR_T_BOOL);
      F("given", GR_F_GIVEN, GR_T_BOOL);
      F("deprecated", GR_F_DEPRECATED, GR_T_STR);
      F("suggestion", GR_F_SUGGESTION, GR_T_STR);
      F("origin", GR_F_ORIGIN, GR_T_STR);
      ck_err(c, e->sloc, "option has no field '%s' (name, key, value, known, valid, problem, supported, value_supported, effective, given, deprecated, suggestion, origin)", f);
      return GR_T_ANY;
    case GR_T_ENTRY:
      F("option", GR_F_OPTION, GR_T_STR);
      F("section", GR_F_SECTION, GR_T_STR);
      F("key", GR_F_KEY, GR_T_STR);
      F("value", GR_F_VALUE, GR_T_STR);
      F("matched", GR_F_MATCHED, GR_T_BOOL);
      F("file", GR_F_FILE, GR_T_STR);
      F("line", GR_F_LINE, GR_T_INT);
      F("suggestion", GR_F_SUGGESTION, GR_T_STR);
      F("parts", GR_F_PARTS, GR_T_STR);
      ck_err(c, e->sloc, "entry has no field '%s' (option, section, key, value, matched, file, line, suggestion, parts)", f);
      return GR_T_ANY;
    case GR_T_OTHER:
      F("name", GR_F_NAME, GR_T_STR);
      ck_err(c, e->sloc, "'other' has only the field 'name'");
      return GR_T_ANY;
    case GR_T_GRAPH:
      F("name", GR_F_NAME, GR_T_STR);
      F("static", GR_F_STATIC, GR_T_BOOL);
      F("dynamic", GR_F_DYNAMIC, GR_T_BOOL);
      F("nodes", GR_F_NODES, GR_T_INT);
      if( strcmp(f, "types")==0 ){ e->ref = GR_F_TYPES; e->elem = GR_T_STR; return GR_T_LIST; }
      ck_err(c, e->sloc, "graph has no field '%s' (name, static, dynamic, nodes, types)", f);
      return GR_T_ANY;
    case GR_T_ANY:
      return GR_T_ANY;
    default:
      ck_err(c, e->sloc, "%s has no fields", ck_a_type(base));
      return GR_T_ANY;
  }
#undef F
}

/* option X, option X set, chip has CAP, chip supports OPTION [= VALUE], chip supports mode M */
static uint8_t check_option_ref(ck *c, gr_expr *e){
  gr_ruleset *rs = c->rs;
  switch( e->op ){
    case GR_E_OPTION: {
      gr_option *o = ck_option_ref(c, e->s, e->sloc);
      e->dep = GR_DEP_GLOBAL;
      if( o==NULL ) return GR_T_ANY;
      e->ptr = o; e->ref = o->index;
      if( o->type==GR_OT_INT ) return GR_T_INT;
      if( o->type==GR_OT_LIST ){ e->elem = GR_T_STR; return GR_T_LIST; }
      return GR_T_STR;
  }
  case GR_E_OPTSET: {
    gr_option *o = ck_option_ref(c, e->s, e->sloc);
    e->dep = GR_DEP_GLOBAL;
    if( o ){ e->ptr = o; e->ref = o->index; }
    return GR_T_BOOL;
  }
  case GR_E_HAS: {
    int ci = gr_ruleset_find(&rs->cap_map, e->s);
    e->dep = GR_DEP_GLOBAL;
    if( ci < 0 ){
      char sug[128];
      ck_err(c, e->sloc, "unknown capability '%s'%s", e->s, ck_did_you_mean(c, GR_NK_CAP, e->s, sug, sizeof sug));
    }
    e->ref = ci;
    return GR_T_BOOL;
  }
  case GR_E_SUPPORTS: {
    gr_option *o = ck_option_ref(c, e->s, e->sloc);
    e->dep = GR_DEP_GLOBAL;
    if( o ){ e->ptr = o; e->ref = o->index; }
    if( e->a ){
      ck_want(c, e->a, GR_T_STR, "the value in 'chip supports OPTION = VALUE'");
      e->dep = ck_maxdep(e->dep, e->a->dep);
      if( o && e->a->op==GR_E_STR && o->nvalues && !ck_option_has_value(o, e->a->s) ){
        ck_err(c, e->a->loc, "'%s' is not a value of option %s", e->a->s, o->name);
      }
    }
    return GR_T_BOOL;
  }
  case GR_E_SUPPORTS_MODE:
    ck_want(c, e->a, GR_T_STR, "the mode in 'chip supports mode'");
    e->dep = ck_maxdep(GR_DEP_GLOBAL, e->a->dep);
    if( e->a->op==GR_E_STR && gr_ruleset_find(&rs->mode_map, e->a->s) < 0 ){
      char sug[128];
      ck_err(c, e->a->loc, "unknown mode '%s'%s", e->a->s, ck_did_you_mean(c, GR_NK_MODE, e->a->s, sug, sizeof sug));
    }
    return GR_T_BOOL;
  default: break;
  }
  return GR_T_ANY;
}

/* ==, !=, the orderings, in and not in */
static uint8_t check_comparison(ck *c, gr_expr *e){
  uint8_t ta, tb;
  switch( e->op ){
    case GR_E_EQ: case GR_E_NE:
      ta = ck_expr(c, e->a); tb = ck_expr(c, e->b);
      e->dep = ck_maxdep(e->a->dep, e->b->dep);
      if( !compatible(ta, tb) || ta==GR_T_TABLE || tb==GR_T_TABLE ){
        ck_err(c, e->loc, "cannot compare %s with %s", ck_a_type(ta), ck_a_type(tb));
      }
      check_option_literal(c, e->a, e->b); check_option_literal(c, e->b, e->a);
      check_runmode_literal(c, e->a, e->b); check_runmode_literal(c, e->b, e->a);
      check_partition_literal(c, e->a, e->b); check_partition_literal(c, e->b, e->a);
      return GR_T_BOOL;
    case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE:
      ck_want(c, e->a, GR_T_INT, "an operand of an ordering comparison");
      ck_want(c, e->b, GR_T_INT, "an operand of an ordering comparison");
      e->dep = ck_maxdep(e->a->dep, e->b->dep);
      return GR_T_BOOL;
    case GR_E_IN: case GR_E_NOTIN:
      ta = ck_expr(c, e->a); tb = ck_expr(c, e->b);
      e->dep = ck_maxdep(e->a->dep, e->b->dep);
      if( tb==GR_T_TABLE ){
        if( ta!=GR_T_STR && ta!=GR_T_ANY && ta!=GR_T_NULL ) ck_err(c, e->a->loc, "table keys are strings, not %s", ck_a_type(ta));
      }else if( tb==GR_T_LIST ){
        if( !compatible(ta, e->b->elem) ) ck_err(c, e->a->loc, "cannot look for %s in a list of %s values", ck_a_type(ta), gr_type_name(e->b->elem));
        if( e->b->op==GR_E_LIST ){
          gr_expr *x;
          for(x = e->b->a; x; x = x->next) check_option_literal(c, e->a, x);
        }
      }else if( tb!=GR_T_ANY ){
        ck_err(c, e->b->loc, "'in' needs a table or a list on its right, not %s", ck_a_type(tb));
      }
      return GR_T_BOOL;
    default: break;
  }
  return GR_T_ANY;
}

/* any / all NAME in RANGE: CONDITION (NAME bound in the condition) */
static uint8_t check_quantifier(ck *c, gr_expr *e){
  uint8_t lt = ck_expr(c, e->a), vt = GR_T_ANY;
  if( lt==GR_T_LIST ) vt = e->a->elem;
  else if( lt==GR_T_TABLE ) vt = GR_T_STR;
  else if( lt==GR_T_INPUTS ) vt = GR_T_INPUT;
  else if( lt!=GR_T_ANY && lt!=GR_T_NULL ) ck_err(c, e->a->loc, "'%s' needs a list, a table or node.input to range over, not %s",
                                                e->op==GR_E_ANY ? "any" : "all", ck_a_type(lt));
  if( c->nvars >= GR_MAXVARS || c->maxslots >= GR_MAXVARS ){
    ck_err(c, e->sloc, "too many quantifiers in one condition (at most %d)", GR_MAXVARS);
    return GR_T_BOOL;
  }
  c->vars[c->nvars].name = e->s;
  c->vars[c->nvars].type = vt;
  e->elem = vt;
  c->vars[c->nvars].dep = GR_DEP_ITEM;    /* bound per evaluation of the body */
  c->vars[c->nvars].slot = c->maxslots;
  e->ref = c->maxslots++;
  c->nvars++;
  ck_want(c, e->b, GR_T_BOOL, "the condition of a quantifier");
  c->nvars--;          /* out of scope after the body (templates re-bind the witness) */
  e->dep = ck_maxdep(e->a->dep, e->b->dep);
  return GR_T_BOOL;
}

/* a bare name: a bound variable, count, other, or a table */
static uint8_t check_name(ck *c, gr_expr *e){
  gr_ruleset *rs = c->rs;
  int i = ck_find_var(c, e->s), ti;
  if( i >= 0 ){
    e->ref = GR_NAME_VAR; e->ref2 = c->vars[i].slot; e->dep = c->vars[i].dep;
    return c->vars[i].type;
  }
  if( c->allow_count && strcmp(e->s, "count")==0 ){ e->ref = GR_NAME_COUNT; e->dep = GR_DEP_ITEM; return GR_T_INT; }
  if( c->allow_other && strcmp(e->s, "other")==0 ){ e->ref = GR_NAME_OTHER; e->dep = GR_DEP_ITEM; return GR_T_OTHER; }
  ti = gr_ruleset_find(&rs->table_map, e->s);
  if( ti >= 0 ){ e->ref = GR_NAME_TABLE; e->ptr = &rs->tables[ti]; e->dep = GR_DEP_CONST; return GR_T_TABLE; }
  if( strcmp(e->s, "count")==0 ){
    ck_err(c, e->sloc, "'count' is only available in the message of a rule 'for each node' marked 'once'");
    return GR_T_ANY;
  }
  if( strcmp(e->s, "other")==0 ){
    ck_err(c, e->sloc, "'other' is only available in the message of an exclusive, requires or conflicts relation");
    return GR_T_ANY;
  }
  {
    char sug[128];
    ck_err(c, e->sloc, "unknown name '%s' (not a table or a bound variable)%s", e->s,
        ck_did_you_mean(c, GR_NK_TABLE, e->s, sug, sizeof sug));
  }
  return GR_T_ANY;
}

/* BASE[KEY]: a table, node.input, node.attr or a list */
static uint8_t check_index(ck *c, gr_expr *e){
  uint8_t bt = ck_expr(c, e->a), kt = ck_expr(c, e->b);
  e->dep = ck_maxdep(e->a->dep, e->b->dep);
  switch( bt ){
    case GR_T_TABLE: {
      const gr_table *t = e->a->ptr;
      if( kt!=GR_T_STR && kt!=GR_T_ANY && kt!=GR_T_NULL ) ck_err(c, e->b->loc, "table keys are strings, not %s", ck_a_type(kt));
      if( e->a->op==GR_E_INI ) return GR_T_STR;
      if( t && !t->is_map ){
        ck_err(c, e->loc, "table '%s' is a set: test membership with 'in' instead of [ ]", t->name);
        return GR_T_ANY;
      }
      if( t && e->b->op==GR_E_STR && gr_map_get(&t->keymap, e->b->s)==NULL ){
        ck_err(c, e->b->loc, "table '%s' has no key '%s'", t->name, e->b->s);
      }
      if( t && t->vtype==GR_T_LIST ) e->elem = GR_T_ANY;
      return t ? t->vtype : GR_T_ANY;
    }
    case GR_T_INPUTS:
      if( kt!=GR_T_INT && kt!=GR_T_ANY ) ck_err(c, e->b->loc, "an input index is an int, not %s", ck_a_type(kt));
      e->dep = GR_DEP_ITEM;
      return GR_T_INPUT;
    case GR_T_ATTRS:
      if( kt!=GR_T_STR && kt!=GR_T_ANY ) ck_err(c, e->b->loc, "an attribute name is a string, not %s", ck_a_type(kt));
      return GR_T_ANY;
    case GR_T_LIST:
      if( kt!=GR_T_INT && kt!=GR_T_ANY ) ck_err(c, e->b->loc, "a list index is an int, not %s", ck_a_type(kt));
      return e->a->elem;
    case GR_T_ANY:
      return GR_T_ANY;
    default:
      ck_err(c, e->loc, "%s cannot be indexed with [ ]", ck_a_type(bt));
      return GR_T_ANY;
  }
}

/* partition(P).FIELD */
static uint8_t check_partition(ck *c, gr_expr *e){
  gr_ruleset *rs = c->rs;
  static const struct { const char *name; uint8_t code, type; } pf[] = {
    { "dynamic", GR_PF_DYNAMIC, GR_T_BOOL }, { "static", GR_PF_STATIC, GR_T_BOOL },
    { "cause", GR_PF_CAUSE, GR_T_STR }, { "seed", GR_PF_SEED, GR_T_STR },
    { "size", GR_PF_SIZE, GR_T_INT }, { "limit", GR_PF_LIMIT, GR_T_INT },
    { "from", GR_PF_FROM, GR_T_NODE }, { "to", GR_PF_TO, GR_T_NODE } };
  int pi = gr_ruleset_find(&rs->partition_map, e->s);
  size_t k;
  e->dep = GR_DEP_ITEM;
  if( c->scope!=GR_SCOPE_NODE && c->scope!=GR_SCOPE_REFUSAL ){
    ck_err(c, e->loc, "'partition(%s)' is a node's outcome: only available in sources and in rules 'for each node'", e->s);
    return GR_T_ANY;
  }
  if( c->in_dtypes ){
    ck_err(c, e->loc, "a dtypes block's condition stands for what op_select_format sees (the node's attributes and shapes): it cannot read 'partition(%s)'", e->s);
    return GR_T_ANY;
  }
  if( c->in_partition ){
    ck_err(c, e->loc, "a partition's seeds, neutral conditions and limits cannot read a partition's outcome");
    return GR_T_ANY;
  }
  if( pi < 0 ){
    ck_err(c, e->sloc, "unknown partition '%s'", e->s);
    return GR_T_ANY;
  }
  e->ptr = &rs->partitions[pi]; e->ref2 = pi;
  for(k = 0; k < sizeof pf / sizeof *pf; k++){
    if( strcmp(pf[k].name, e->s2)==0 ){ e->ref = pf[k].code; return pf[k].type; }
  }
  ck_err(c, e->s2loc, "a partition has no field '%s' (dynamic, static, cause, seed, size, limit, from, to)", e->s2);
  return GR_T_ANY;
}

/* ini(OPTION).SECTION: the section of an ini-format file option, as a table */
static uint8_t check_ini(ck *c, gr_expr *e){
  gr_option *o = ck_option_ref(c, e->s, e->sloc);
  size_t k;
  e->dep = GR_DEP_GLOBAL;
  if( o==NULL ) return GR_T_ANY;
  e->ptr = o; e->ref = o->index;
  if( o->format==NULL ){
    ck_err(c, e->sloc, "option %s is not an ini-format file option (it has no 'format ini' block)", o->name);
    return GR_T_ANY;
  }
  for(k = 0; k < o->format->nsections; k++){
    if( strcmp(o->format->sections[k].name, e->s2)==0 ){ e->ref2 = (int32_t)k; return GR_T_TABLE; }
  }
  ck_err(c, e->s2loc, "option %s has no ini section '%s'", o->name, e->s2);
  return GR_T_ANY;
}

static uint8_t check_expr_inner(ck *c, gr_expr *e){
  switch( e->op ){
    case GR_E_STR:  e->dep = GR_DEP_CONST; return GR_T_STR;
    case GR_E_INT:  e->dep = GR_DEP_CONST; return GR_T_INT;
    case GR_E_BOOL: e->dep = GR_DEP_CONST; return GR_T_BOOL;
    case GR_E_NULL: e->dep = GR_DEP_CONST; return GR_T_NULL;
    case GR_E_LIST: {
      gr_expr *x;
      uint8_t el = GR_T_NULL;
      e->dep = GR_DEP_CONST;
      for(x = e->a; x; x = x->next){
        uint8_t t = ck_expr(c, x);
        e->dep = ck_maxdep(e->dep, x->dep);
        if( el==GR_T_NULL ) el = t;
        else if( t!=el ) el = GR_T_ANY;
      }
      e->elem = el==GR_T_NULL ? GR_T_ANY : el;
      return GR_T_LIST;
    }
    case GR_E_RUNMODE: case GR_E_ENTRYPOINT:
      e->dep = GR_DEP_GLOBAL; return GR_T_STR;
    case GR_E_CHIP:
      e->dep = GR_DEP_GLOBAL; return GR_T_CHIP;
    case GR_E_GRAPH:
      e->dep = GR_DEP_GLOBAL; return GR_T_GRAPH;
    case GR_E_NODE:
      if( c->scope!=GR_SCOPE_NODE && c->scope!=GR_SCOPE_REFUSAL ){
        ck_err(c, e->loc, "'node' is only available in sources and in rules 'for each node'");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_NODE;
    case GR_E_ENTRY:
      if( c->scope!=GR_SCOPE_ENTRY ){
        ck_err(c, e->loc, "'entry' is only available in rules 'for each entry'");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_ENTRY;
    case GR_E_OPTSCOPE:
      if( c->scope!=GR_SCOPE_OPTION ){
        ck_err(c, e->loc, "'option.' is only available in rules 'for each option' and relation messages");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_OPTREF;
    case GR_E_OPTION: case GR_E_OPTSET: case GR_E_HAS: case GR_E_SUPPORTS: case GR_E_SUPPORTS_MODE:
      return check_option_ref(c, e);
    case GR_E_NOT:
      ck_want(c, e->a, GR_T_BOOL, "the operand of 'not'");
      e->dep = e->a->dep;
      return GR_T_BOOL;
    case GR_E_AND: case GR_E_OR:
      ck_want(c, e->a, GR_T_BOOL, e->op==GR_E_AND ? "an operand of 'and'" : "an operand of 'or'");
      ck_want(c, e->b, GR_T_BOOL, e->op==GR_E_AND ? "an operand of 'and'" : "an operand of 'or'");
      e->dep = ck_maxdep(e->a->dep, e->b->dep);
      return GR_T_BOOL;
    case GR_E_EQ: case GR_E_NE: case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE: case GR_E_IN: case GR_E_NOTIN:
      return check_comparison(c, e);
    case GR_E_ANY: case GR_E_ALL:
      return check_quantifier(c, e);
    case GR_E_NAME:
      return check_name(c, e);
    case GR_E_FIELD: {
      uint8_t bt = ck_expr(c, e->a), t;
      t = field_type(c, e, bt);
      e->dep = e->a->dep;
      if( bt==GR_T_NODE ){
        /* only the current node's type can be decided per op type */
        e->dep = (e->a->op==GR_E_NODE && e->ref==GR_F_TYPE) ? GR_DEP_TYPE : GR_DEP_ITEM;
      }
      if( e->ref==GR_F_PRODUCER || bt==GR_T_INPUT ) e->dep = GR_DEP_ITEM;
      return t;
    }
    case GR_E_INDEX:
      return check_index(c, e);
    case GR_E_PARTITION:
      return check_partition(c, e);
    case GR_E_INI:
      return check_ini(c, e);
    case GR_E_CALL:
      return ck_call(c, e);
    case GR_E_ADD: case GR_E_MOD:
      ck_want(c, e->a, GR_T_INT, e->op==GR_E_ADD ? "an operand of '+'" : "an operand of '%'");
      ck_want(c, e->b, GR_T_INT, e->op==GR_E_ADD ? "an operand of '+'" : "an operand of '%'");
      e->dep = ck_maxdep(e->a->dep, e->b->dep);
      if( e->op==GR_E_MOD && e->b->op==GR_E_INT && e->b->i==0 ) ck_err(c, e->b->loc, "'%%' by 0 (its value would always be null)");
      return GR_T_INT;
    case GR_E_LEN:
      ck_err(c, e->loc, "len(...) tests an ONNX node's list attribute: only in the condition of an onnx mapping row");
      return GR_T_ANY;
  }
  ck_err(c, e->loc, "unsupported expression");
  return GR_T_ANY;
}

int ck_find_var(const ck *c, const char *name){
  int i;
  for(i = c->nvars - 1; i >= 0; i--) if( strcmp(c->vars[i].name, name)==0 ) return i;
  return -1;
}

uint8_t ck_expr(ck *c, gr_expr *e){
  /* the parser bounds the depth of what is written; inlined conditions can
  ** nest deeper, and the evaluator recurses as deep as the tree */
  if( c->edepth >= GR_MAX_EXPR_DEPTH ){
    if( c->edepth++==GR_MAX_EXPR_DEPTH ) ck_err(c, e->loc, "expression nested too deeply once its conditions are inlined (more than %d levels)", GR_MAX_EXPR_DEPTH);
    c->edepth--;
    e->type = GR_T_ANY;
    return GR_T_ANY;
  }
  c->edepth++;
  e->type = check_expr_inner(c, e);
  c->edepth--;
  return e->type;
}

/* ------------------------------------------------------------------ */
/* templates */

/* Splits a message template into literal text and {placeholder}
** expressions, each parsed and checked in the current scope. The parts and
** literals live in the arena; each placeholder's tree is recorded in
** rs->owned_exprs. */
void ck_template(ck *c, gr_template *t, const char *raw, gr_loc loc){
  gr_ruleset *rs = c->rs;
  gr_buf lit;
  GR_VEC(gr_tpl_part) parts = { NULL, 0, 0 };
  gr_tpl_part part;
  const char *p = raw;
  t->loc = loc;
  gr_buf_init(&lit);
  while( *p ){
    if( p[0]=='{' && p[1]=='{' ){ gr_buf_addc(&lit, '{'); p += 2; continue; }
    if( p[0]=='}' && p[1]=='}' ){ gr_buf_addc(&lit, '}'); p += 2; continue; }
    if( p[0]=='}' ){
      gr_loc l = loc; l.col += (uint32_t)(p - raw) + 1;
      ck_err(c, l, "unmatched '}' in message template (write '}}' for a literal brace)");
      p++;
      continue;
    }
    if( p[0]=='{' ){
      const char *q = strchr(p, '}');
      gr_loc l = loc;
      char *body;
      gr_expr *e;
      l.col += (uint32_t)(p - raw) + 1;
      if( q==NULL ){
        ck_err(c, l, "unclosed '{' in message template (write '{{' for a literal brace)");
        break;
      }
      part.lit = gr_arena_strndup(&rs->arena, lit.p ? lit.p : "", lit.n);
      lit.n = 0;
      body = gr_lex_unescape(p + 1, (size_t)(q - p - 1));
      e = gr_parse_placeholder(loc.file, ck_lines_of(c->src, loc.file), body, strlen(body), l.line, l.col + 1, c->diags);
      if( e==NULL ){
        c->nerr++;
      }else{
        gr_owned_expr *own = gr_arena_alloc(&rs->arena, sizeof *own);
        uint8_t ty;
        own->e = e; own->next = rs->owned_exprs; rs->owned_exprs = own;
        ty = ck_expr(c, e);
        if( ty==GR_T_CHIP || ty==GR_T_INPUT || ty==GR_T_INPUTS || ty==GR_T_ATTRS || ty==GR_T_OPTREF
            || ty==GR_T_ENTRY || ty==GR_T_OTHER || ty==GR_T_TABLE ){
          ck_err(c, e->loc, "%s cannot be written into a message; use one of its fields", ck_a_type(ty));
        }
      }
      part.e = e;
      gr_vec_push(parts, part);
      free(body);
      p = q + 1;
      continue;
    }
    if( p[0]=='\\' && p[1] ){
      gr_buf_addc(&lit, p[1]=='n' ? '\n' : p[1]=='t' ? '\t' : p[1]);
      p += 2;
      continue;
    }
    gr_buf_addc(&lit, *p++);
  }
  part.lit = gr_arena_strndup(&rs->arena, lit.p ? lit.p : "", lit.n);
  part.e = NULL;
  gr_vec_push(parts, part);
  gr_buf_free(&lit);
  t->n = parts.n;
  t->parts = gr_arena_alloc(&rs->arena, parts.n * sizeof *t->parts);
  memcpy(t->parts, parts.v, parts.n * sizeof *t->parts);
  gr_vec_free(parts);
  if( t->n==1 ) t->constant = t->parts[0].lit;
}

/* Makes the variables of the condition's top-level `any` conjuncts visible
** again (their witness), for the branch's message or reason template. */
void ck_push_witnesses(ck *c, const gr_expr *cond){
  if( cond==NULL ) return;
  if( cond->op==GR_E_AND ){ ck_push_witnesses(c, cond->a); ck_push_witnesses(c, cond->b); return; }
  if( cond->op==GR_E_ANY && cond->ref >= 0 && c->nvars < GR_MAXVARS ){
    c->vars[c->nvars].name = cond->s;
    c->vars[c->nvars].type = cond->elem;
    c->vars[c->nvars].dep = GR_DEP_ITEM;
    c->vars[c->nvars].slot = cond->ref;
    c->nvars++;
  }
}
