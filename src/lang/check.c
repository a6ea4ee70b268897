/*
** check.c: the type checker's driver. It turns the syntax trees of every
** rule file (loaded by ruleset.c) into a gr_ruleset, in passes (check_all):
** declares every name (duplicates refused, each located with where the
** first one was), fills products, SoCs, options, modes, tables, slots,
** sources, rules and relations, checks each statement against its block,
** and finds defaults that depend on each other. Cascades are merged by
** check_cascade.c, expressions and templates checked by check_expr.c, the
** "can this ever fire" analysis is lint.c. It reports every semantic error
** it finds, not only the first, each located with a caret line.
*/
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lang/check.h"
#include "lang/regex.h"

/* ------------------------------------------------------------------ */
/* messages and small helpers */

const gr_lineidx *ck_lines_of(const ck_sources *src, const char *file){
  size_t i;
  if( src==NULL ) return NULL;
  for(i = 0; i < src->n; i++) if( src->files[i]==file ) return &src->lines[i];
  return NULL;
}

static void vreport(ck *c, gr_severity sev, gr_loc loc, const char *fmt, va_list ap){
  gr_diag *d = gr_diags_vadd(c->diags, sev, loc.file, loc.line, loc.col, fmt, ap);
  if( loc.line ) d->snippet = gr_lineidx_dup(ck_lines_of(c->src, loc.file), loc.line);
  if( sev==GR_SEV_ERROR ) c->nerr++;
}
void ck_err(ck *c, gr_loc loc, const char *fmt, ...){
  va_list ap; va_start(ap, fmt); vreport(c, GR_SEV_ERROR, loc, fmt, ap); va_end(ap);
}
void ck_warn(ck *c, gr_loc loc, const char *fmt, ...){
  va_list ap; va_start(ap, fmt); vreport(c, GR_SEV_WARNING, loc, fmt, ap); va_end(ap);
}

void ck_where(char *buf, size_t n, gr_loc l){
  snprintf(buf, n, "%s:%u", l.file ? l.file : "?", l.line);
}

const char *ck_did_you_mean(const ck *c, unsigned kinds, const char *word, char *buf, size_t n){
  const char *s = gr_ruleset_suggest(c->rs, kinds, word);
  if( s ) snprintf(buf, n, "; did you mean '%s'?", s); else buf[0] = 0;
  return buf;
}

const char *ck_keep(gr_ruleset *rs, const char *s){
  return s ? gr_arena_strndup(&rs->arena, s, strlen(s)) : NULL;
}

const char *ck_a_type(int t){
  static const char *names[] = { "a value of any type", "null", "a bool", "an int", "a string", "a list", "a node",
    "an input", "node.input", "node.attr", "the chip", "an option", "an entry", "a relation option", "a table", "the graph" };
  return t >= 0 && t < (int)(sizeof names / sizeof *names) ? names[t] : "?";
}

/* Compiles the /pattern/ body pat written at loc (the opening '/'). On a
** refused pattern, reports it at the construct refused and returns 0. The
** body lost one byte for each \/ the lexer unescaped (regex_body in
** grammar/rules.y), and a '/' can only come from one, so each '/' before
** the offset moves the column one further. What regcomp itself refuses is
** reported at the pattern. */
static int ck_regex(ck *c, regex_t *re, const char *pat, gr_loc loc){
  char m[256];
  size_t off, k;
  if( gr_regex_compile(re, pat, &off, m, sizeof m)==0 ) return 1;
  if( off!=SIZE_MAX ){
    uint32_t col = loc.col + 1;
    for(k = 0; k < off && pat[k]; k++) col += pat[k]=='/' ? 2 : 1;
    loc.col = col;
  }
  ck_err(c, loc, "invalid pattern /%s/: %s", pat, m);
  return 0;
}

/* map values are index + 1, so that NULL means absent */
static void *idx(int i){ return (void*)(intptr_t)(i + 1); }

/* Declares name in map m, reporting a duplicate. Returns 0 on duplicate. */
static int declare(ck *c, gr_map *m, const char *what, const char *name, gr_loc loc,
                   const gr_loc *locs, int i){
  void *prev = gr_map_put(m, name, idx(i));
  if( prev ){
    char w[256];
    ck_where(w, sizeof w, locs[(intptr_t)prev - 1]);
    ck_err(c, loc, "duplicate definition of %s '%s' (first defined at %s)", what, name, w);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* support statements */

static void check_support(ck *c, gr_support *s, gr_item *it){
  gr_ruleset *rs = c->rs;
  gr_name *n;
  size_t p;
  if( s->stated ){
    char w[256];
    ck_where(w, sizeof w, s->loc);
    ck_err(c, it->loc, "support is already stated at %s", w);
    return;
  }
  s->stated = 1;
  s->loc = it->loc;
  s->on = gr_arena_calloc(&rs->arena, rs->nproducts + 1);
  switch( it->flag ){
    case GR_SUP_ALL: case GR_SUP_ALL_EXCEPT:
      for(p = 0; p < rs->nproducts; p++) s->on[p] = 1;
      break;
    case GR_SUP_NONE:
      s->reason = ck_keep(rs, it->str);
      break;
  }
  for(n = it->names; n; n = n->next){
    int pi = gr_ruleset_find(&rs->product_map, n->s);
    if( pi < 0 ){
      char sug[128];
      ck_err(c, n->loc, "unknown product line '%s'%s", n->s, ck_did_you_mean(c, GR_NK_PRODUCT, n->s, sug, sizeof sug));
      continue;
    }
    if( it->flag==GR_SUP_LIST ){
      if( s->on[pi] ) ck_warn(c, n->loc, "product line '%s' is listed twice", n->s);
      s->on[pi] = 1;
    }else{
      s->on[pi] = 0;
    }
  }
}

/* The top-level conjuncts of a condition, in order. */
static void split_conj(gr_expr *e, gr_expr ***v, size_t *n, size_t *cap){
  if( e==NULL ) return;
  if( e->op==GR_E_AND ){ split_conj(e->a, v, n, cap); split_conj(e->b, v, n, cap); return; }
  if( *n==*cap ){ *cap = *cap ? *cap * 2 : 4; *v = gr_xrealloc(*v, *cap * sizeof **v); }
  (*v)[(*n)++] = e;
}


/* Fills the evaluator's view of a branch: conjuncts (in the arena),
** dependency levels and an optional node-name index key; then reports the
** branch when it can never fire. */
static void prepare_branch(ck *c, gr_branch *b, const char *what, const char *name){
  size_t cap = 0, i;
  gr_expr **conj = NULL;
  b->nconj = 0; b->conj = NULL;
  split_conj(b->cond, &conj, &b->nconj, &cap);
  if( b->nconj ){
    b->conj = gr_arena_alloc(&c->rs->arena, b->nconj * sizeof *b->conj);
    memcpy(b->conj, conj, b->nconj * sizeof *b->conj);
  }
  free(conj);
  b->cond_dep = GR_DEP_CONST;
  for(i = 0; i < b->nconj; i++){
    gr_expr *e = b->conj[i];
    b->cond_dep = ck_maxdep(b->cond_dep, e->dep);
    if( b->name_key==NULL && b->name_table==NULL && e->op==GR_E_EQ ){
      gr_expr *f = e->a, *l = e->b;
      if( f->op==GR_E_STR ){ f = e->b; l = e->a; }
      if( f->op==GR_E_FIELD && f->a->op==GR_E_NODE && f->ref==GR_F_NAME && l->op==GR_E_STR ) b->name_key = l->s;
    }
    if( b->name_key==NULL && b->name_table==NULL && e->op==GR_E_IN && e->a->op==GR_E_FIELD
        && e->a->a->op==GR_E_NODE && e->a->ref==GR_F_NAME && e->b->op==GR_E_NAME && e->b->ref==GR_NAME_TABLE
        && !((const gr_table*)e->b->ptr)->fold ){
      b->name_table = e->b->ptr;
    }
  }
  b->value_dep = b->value ? b->value->dep : GR_DEP_CONST;
  ck_never_fires(c, b, what, name);
}

/* ------------------------------------------------------------------ */
/* declarations */

static void bad_item(ck *c, gr_item *it, const char *block){
  static const char *names[] = { NULL, "bundle", "include", "capability", "hardware", "product", "soc",
    "option", "mode", "table", "table entry", "slot", "source", "branch", "cascade", "rule",
    "exclusive", "requires", "conflicts", "description", "version", "cann", "caps", "hardware value",
    "key", "alias", "type", "values", "values mode", "range", "pattern", "separator", "default",
    "support statement", "value block", "deprecated", "format", "section", "initial", "entries",
    "entries mode", "hook", "extends", "partition", "seed", "neutral", "limit", "no effect clause",
    "subgraph seed", "subgraph clause", "group", "threshold", "column" };
  const char *n = it->kind > 0 && it->kind < (int)(sizeof names / sizeof *names) ? names[it->kind]
                : it->kind==GR_I_REJECTED ? "rejected elsewhere" : "item";
  if( it->kind==GR_I_HWVAL ) ck_err(c, it->name_loc, "'%s %lld' is not allowed in %s (a hardware value belongs in a soc block)",
                                 it->name, (long long)it->lo, block);
  else ck_err(c, it->loc, "'%s' is not allowed in %s", n, block);
}

static void once_str(ck *c, const char **dst, gr_item *it, const char *what){
  if( *dst ){ ck_err(c, it->loc, "%s is given twice", what); return; }
  *dst = ck_keep(c->rs, it->str);
}

static void do_bundle(ck *c, gr_item *st){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  if( st->layer==0 && rs->bundle_name ){
    ck_err(c, st->loc, "a rule set has one bundle statement; '%s' is already declared", rs->bundle_name);
    return;
  }
  if( st->layer > 0 ){
    /* a layer above the base: layers.c took its name, version and range */
    gr_item *x;
    const char *v = NULL, *cn = NULL, *d = NULL;
    for(x = st->items; x; x = x->next){
      switch( x->kind ){
        case GR_I_VERSION: once_str(c, &v, x, "the bundle version"); break;
        case GR_I_CANN: once_str(c, &cn, x, "the CANN range"); break;
        case GR_I_DESCRIPTION: once_str(c, &d, x, "the bundle description"); break;
        case GR_I_EXTENDS: break;
        case GR_I_HOOK: ck_err(c, x->loc, "a hook belongs in the base bundle or is given with --hook"); break;
        default: bad_item(c, x, "a bundle block");
      }
    }
    return;
  }
  rs->bundle_name = ck_keep(rs, st->name);
  {
    size_t nhooks = 0;
    for(it = st->items; it; it = it->next) if( it->kind==GR_I_HOOK ) nhooks++;
    rs->hook_files = gr_arena_calloc(&rs->arena, (nhooks + 1) * sizeof *rs->hook_files);
  }
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_VERSION: once_str(c, &rs->bundle_version, it, "the bundle version"); break;
      case GR_I_CANN: once_str(c, &rs->bundle_cann, it, "the CANN range"); break;
      case GR_I_DESCRIPTION: once_str(c, &rs->bundle_description, it, "the bundle description"); break;
      case GR_I_EXTENDS: ck_err(c, it->loc, "the base bundle extends nothing (give it first; layers above it say what they extend)"); break;
      case GR_I_HOOK: {
        const char *slash = strrchr(it->loc.file, '/');
        char *path = (it->str[0]=='/' || slash==NULL) ? gr_xstrdup(it->str)
                   : gr_xasprintf("%.*s/%s", (int)(slash - it->loc.file), it->loc.file, it->str);
        struct stat sb;
        if( stat(path, &sb)!=0 || !S_ISREG(sb.st_mode) ){
          ck_err(c, it->str_loc, "hook file '%s' not found (looked for %s)", it->str, path);
        }else{
          rs->hook_files[rs->nhook_files++] = ck_keep(rs, path);
        }
        free(path);
        break;
      }
      default: bad_item(c, it, "a bundle block");
    }
  }
}

static void add_caps(ck *c, uint8_t *caps, gr_item *it){
  gr_name *n;
  for(n = it->names; n; n = n->next){
    int ci = gr_ruleset_find(&c->rs->cap_map, n->s);
    if( ci < 0 ){
      char sug[128];
      ck_err(c, n->loc, "unknown capability '%s'%s", n->s, ck_did_you_mean(c, GR_NK_CAP, n->s, sug, sizeof sug));
    }else{
      caps[ci] = 1;
    }
  }
}

static void do_product(ck *c, gr_item *st, int pi){
  gr_ruleset *rs = c->rs;
  gr_product *p = &rs->products[pi];
  gr_item *it;
  int nsoc = 0;
  p->name = ck_keep(rs, st->name);
  p->title = ck_keep(rs, st->str);
  p->loc = st->name_loc;
  p->caps = gr_arena_calloc(&rs->arena, rs->ncaps + 1);
  /* product-wide caps first, so every soc inherits them whatever the order */
  for(it = st->items; it; it = it->next) if( it->kind==GR_I_CAPS ) add_caps(c, p->caps, it);
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_CAPS: break;
      case GR_I_DESCRIPTION: once_str(c, &p->description, it, "the product description"); break;
      case GR_I_SOC: {
        gr_soc *s = &rs->socs[rs->nsocs];
        gr_item *x;
        uint8_t *given = gr_xcalloc(rs->nhw + 1, 1);
        size_t h;
        s->name = ck_keep(rs, it->str);
        s->is_pattern = it->flag;
        s->product = pi;
        s->loc = it->str_loc;
        s->hw = gr_arena_calloc(&rs->arena, (rs->nhw + 1) * sizeof *s->hw);
        s->caps = gr_arena_calloc(&rs->arena, rs->ncaps + 1);
        memcpy(s->caps, p->caps, rs->ncaps);
        if( s->is_pattern ){
          if( !ck_regex(c, &s->re, s->name, it->str_loc) ) s->is_pattern = 2;   /* nothing to regfree */
        }else{
          if( s->name[0]==0 ) ck_err(c, it->str_loc, "a soc name cannot be empty");
          else{
            void *prev = gr_map_put(&rs->soc_map, s->name, idx((int)rs->nsocs));
            if( prev ){
              char w[256];
              ck_where(w, sizeof w, rs->socs[(intptr_t)prev - 1].loc);
              ck_err(c, it->str_loc, "duplicate definition of soc '%s' (first defined at %s)", s->name, w);
            }
          }
        }
        for(x = it->items; x; x = x->next){
          if( x->kind==GR_I_HWVAL ){
            int hi = gr_ruleset_find(&rs->hw_map, x->name);
            if( hi < 0 ){
              char sug[128];
              ck_err(c, x->name_loc, "unknown hardware property '%s'%s", x->name, ck_did_you_mean(c, GR_NK_HW, x->name, sug, sizeof sug));
            }else if( given[hi] ){
              ck_err(c, x->name_loc, "hardware property '%s' is given twice", x->name);
            }else{
              given[hi] = 1;
              if( x->lo < 0 ) ck_err(c, x->str_loc, "hardware property '%s' cannot be negative", x->name);
              s->hw[hi] = x->lo;
            }
          }else if( x->kind==GR_I_CAPS ){
            add_caps(c, s->caps, x);
          }else if( x->kind==GR_I_DESCRIPTION ){
            once_str(c, &s->description, x, "the soc description");
          }else{
            bad_item(c, x, "a soc block");
          }
        }
        for(h = 0; h < rs->nhw; h++){
          if( !given[h] ) ck_err(c, it->str_loc, "soc '%s' does not give hardware property '%s'", s->name, rs->hw_names[h]);
        }
        free(given);
        rs->nsocs++;
        nsoc++;
        break;
      }
      default: bad_item(c, it, "a product block");
    }
  }
  if( nsoc==0 ) ck_warn(c, st->name_loc, "product line '%s' has no soc", p->name);
}

static void check_soc_overlaps(ck *c){
  gr_ruleset *rs = c->rs;
  size_t i, j;
  for(i = 0; i < rs->nsocs; i++){
    if( rs->socs[i].is_pattern ) continue;
    for(j = 0; j < rs->nsocs; j++){
      const gr_soc *p = &rs->socs[j];
      if( p->is_pattern!=1 || p->product==rs->socs[i].product ) continue;
      if( gr_regex_whole(&p->re, rs->socs[i].name) ){
        char w[256];
        ck_where(w, sizeof w, p->loc);
        ck_err(c, rs->socs[i].loc, "soc '%s' of product '%s' also matches the pattern /%s/ of product '%s' (%s)",
            rs->socs[i].name, rs->products[rs->socs[i].product].name, p->name, rs->products[p->product].name, w);
      }
    }
  }
}

static int add_spelling(ck *c, const char *spelling, int oi, gr_loc loc){
  gr_ruleset *rs = c->rs;
  const char *s = spelling;
  void *prev;
  while( *s=='-' ) s++;            /* a leading -- is ignored */
  if( *s==0 ){ ck_err(c, loc, "an option spelling cannot be empty"); return 0; }
  s = ck_keep(rs, s);
  prev = gr_map_put(&rs->spelling_map, s, idx(oi));
  if( prev && (intptr_t)prev - 1 != oi ){
    ck_err(c, loc, "the spelling '%s' already names option %s", s, rs->options[(intptr_t)prev - 1].name);
    return 0;
  }
  return 1;
}

static int option_type_of(const char *s){
  if( strcmp(s, "enum")==0 ) return GR_OT_ENUM;
  if( strcmp(s, "bool")==0 ) return GR_OT_BOOL;
  if( strcmp(s, "int")==0 ) return GR_OT_INT;
  if( strcmp(s, "string")==0 ) return GR_OT_STRING;
  if( strcmp(s, "file")==0 ) return GR_OT_FILE;
  if( strcmp(s, "list")==0 ) return GR_OT_LIST;
  if( strcmp(s, "soc")==0 ) return GR_OT_SOC;
  return 0;
}

static void do_format(ck *c, gr_option *o, gr_item *st){
  gr_ruleset *rs = c->rs;
  gr_format *f;
  gr_item *it;
  size_t n = 0;
  const char *initial = NULL;
  gr_loc initial_loc = st->loc;
  if( strcmp(st->name, "ini")!=0 ){
    ck_err(c, st->name_loc, "unknown file format '%s' (gerules reads 'ini')", st->name);
    return;
  }
  if( o->format ){ ck_err(c, st->loc, "option %s already has a format", o->name); return; }
  f = gr_arena_calloc(&rs->arena, sizeof *f);
  for(it = st->items; it; it = it->next) if( it->kind==GR_I_SECTION ) n++;
  f->sections = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *f->sections);
  f->initial = -1;
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_SECTION: {
        size_t k;
        gr_section *s = &f->sections[f->nsections];
        for(k = 0; k < f->nsections; k++){
          if( strcmp(f->sections[k].name, it->name)==0 ){ ck_err(c, it->name_loc, "section '%s' is declared twice", it->name); break; }
        }
        if( k < f->nsections ) break;
        s->name = ck_keep(rs, it->name);
        s->loc = it->name_loc;
        if( it->e->op==GR_E_FIELD && it->e->a->op==GR_E_NODE && strcmp(it->e->s, "name")==0 ) s->matches = GR_MATCH_NAME;
        else if( it->e->op==GR_E_FIELD && it->e->a->op==GR_E_NODE && strcmp(it->e->s, "type")==0 ) s->matches = GR_MATCH_TYPE;
        else ck_err(c, it->e->loc, "a section matches node.name or node.type");
        f->nsections++;
        break;
      }
      case GR_I_INITIAL:
        if( initial ) ck_err(c, it->loc, "the initial section is given twice");
        initial = it->name; initial_loc = it->name_loc;
        break;
      case GR_I_ENTRIES_MODE:
        if( f->entries_mode || f->nentries ) ck_err(c, it->loc, "entries are declared twice");
        f->entries_mode = 1;
        break;
      case GR_I_ENTRIES: {
        gr_name *nm;
        size_t k = 0;
        if( f->entries_mode || f->nentries ){ ck_err(c, it->loc, "entries are declared twice"); break; }
        for(nm = it->names; nm; nm = nm->next) k++;
        f->entries = gr_arena_calloc(&rs->arena, (k + 1) * sizeof *f->entries);
        for(nm = it->names; nm; nm = nm->next) f->entries[f->nentries++] = ck_keep(rs, nm->s);
        break;
      }
      default: bad_item(c, it, "a format block");
    }
  }
  if( f->nsections==0 ) ck_err(c, st->loc, "an ini format declares at least one section");
  if( initial ){
    size_t k;
    for(k = 0; k < f->nsections; k++) if( strcmp(f->sections[k].name, initial)==0 ) f->initial = (int)k;
    if( f->initial < 0 ) ck_err(c, initial_loc, "initial section '%s' is not declared in this format", initial);
  }else if( f->nsections ){
    f->initial = 0;
  }
  o->format = f;
}

/* The type of a default's value must be the option's. */
static int default_type_ok(const gr_option *o, const gr_expr *e, char *why, size_t nwhy){
  if( e->op==GR_E_NULL || e->type==GR_T_ANY ) return 1;
  switch( o->type ){
    case GR_OT_INT:
      if( e->type!=GR_T_INT ){ snprintf(why, nwhy, "option %s is an int", o->name); return 0; }
      return 1;
    case GR_OT_LIST:
      if( e->type!=GR_T_LIST && e->type!=GR_T_STR ){ snprintf(why, nwhy, "option %s is a list", o->name); return 0; }
      return 1;
    case GR_OT_SOC:
      if( e->type!=GR_T_STR ){ snprintf(why, nwhy, "option %s names a SoC, a string", o->name); return 0; }
      return 1;
    default:
      if( e->type!=GR_T_STR ){
        snprintf(why, nwhy, "option %s is a %s, its values are strings", o->name, gr_option_type_name(o->type));
        return 0;
      }
      return 1;
  }
}

/* A literal default (or each literal element of a list default) must be a
** value the option accepts, judged as the evaluator judges a given value. */
static void check_default_literal(ck *c, const gr_option *o, const gr_expr *e){
  char num[32], *problem = NULL;
  const char *text = NULL;
  const gr_expr *x;
  if( e->op==GR_E_LIST ){
    for(x = e->a; x; x = x->next) if( x->op==GR_E_STR ) check_default_literal(c, o, x);
    return;
  }
  if( e->op==GR_E_STR ) text = e->s;
  else if( e->op==GR_E_INT ){ snprintf(num, sizeof num, "%lld", (long long)e->i); text = num; }
  if( text && !gr_option_accepts(c->rs, o, text, 0, &problem) ){
    ck_err(c, e->loc, "bad default '%s' for option %s: %s", text, o->name, problem);
    free(problem);
  }
}

static void do_option_body(ck *c, gr_item *st, gr_option *o){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  size_t nvals = 0, ndef = 0, nalias = 0, k;
  gr_name *nm;
  int have_type = 0;
  /* type and values first: defaults and value blocks are checked against them */
  for(it = st->items; it; it = it->next){
    if( it->kind==GR_I_TYPE ){
      if( have_type ){ ck_err(c, it->loc, "option %s has two types", o->name); continue; }
      have_type = 1;
      o->type = option_type_of(it->name);
      if( o->type==0 ){
        ck_err(c, it->name_loc, "unknown option type '%s' (enum, bool, int, string, file, list, soc)", it->name);
        o->type = GR_OT_STRING;
      }
    }else if( it->kind==GR_I_VALUES ){
      for(nm = it->names; nm; nm = nm->next) nvals++;
    }else if( it->kind==GR_I_DEFAULT ){
      ndef++;
    }else if( it->kind==GR_I_ALIAS ){
      for(nm = it->names; nm; nm = nm->next) nalias++;
    }
  }
  if( !have_type ){ ck_err(c, st->name_loc, "option %s has no type", o->name); o->type = GR_OT_STRING; }
  if( o->type==GR_OT_BOOL && nvals==0 ){
    o->values = gr_arena_calloc(&rs->arena, 2 * sizeof *o->values);
    o->values[0] = "true"; o->values[1] = "false"; o->nvalues = 2;
  }else{
    o->values = gr_arena_calloc(&rs->arena, (nvals + 1) * sizeof *o->values);
  }
  o->defaults = gr_arena_calloc(&rs->arena, (ndef + 1) * sizeof *o->defaults);
  o->aliases = gr_arena_calloc(&rs->arena, (nalias + 1) * sizeof *o->aliases);
  for(it = st->items; it; it = it->next){
    if( it->kind!=GR_I_VALUES ) continue;
    if( o->type!=GR_OT_ENUM && o->type!=GR_OT_BOOL && o->type!=GR_OT_LIST ){
      ck_err(c, it->loc, "%s %s option has no value list (only enum, bool and list options do)",
          o->type==GR_OT_INT ? "an" : "a", gr_option_type_name(o->type));
      continue;
    }
    for(nm = it->names; nm; nm = nm->next){
      if( ck_option_has_value(o, nm->s) ){ ck_err(c, nm->loc, "value '%s' is listed twice", nm->s); continue; }
      o->values[o->nvalues++] = ck_keep(rs, nm->s);
    }
  }
  if( o->type==GR_OT_ENUM && o->nvalues==0 ) ck_err(c, st->name_loc, "enum option %s lists no values", o->name);
  o->value_support = gr_arena_calloc(&rs->arena, (o->nvalues + 1) * sizeof *o->value_support);
  o->value_desc = gr_arena_calloc(&rs->arena, (o->nvalues + 1) * sizeof *o->value_desc);

  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_TYPE: case GR_I_VALUES: break;
      case GR_I_DESCRIPTION: once_str(c, &o->description, it, "the option description"); break;
      case GR_I_KEY:
        if( o->key ){ ck_err(c, it->loc, "option %s has two keys", o->name); break; }
        o->key = ck_keep(rs, it->str);
        add_spelling(c, it->str, o->index, it->str_loc);
        break;
      case GR_I_ALIAS: {
        for(nm = it->names; nm; nm = nm->next){
          if( add_spelling(c, nm->s, o->index, nm->loc) ) o->aliases[o->naliases++] = ck_keep(rs, nm->s);
        }
        break;
      }
      case GR_I_RANGE:
        if( o->type!=GR_OT_INT ) ck_err(c, it->loc, "only int options have a range");
        if( it->lo > it->hi ) ck_err(c, it->str_loc, "empty range %lld .. %lld", (long long)it->lo, (long long)it->hi);
        o->has_range = 1; o->lo = it->lo; o->hi = it->hi;
        break;
      case GR_I_PATTERN: {
        if( o->type!=GR_OT_STRING ) ck_err(c, it->loc, "only string options have a pattern");
        if( o->has_pattern ){ ck_err(c, it->loc, "option %s has two patterns", o->name); break; }
        if( ck_regex(c, &o->re, it->str, it->str_loc) ){
          o->has_pattern = 1;
          o->pattern = ck_keep(rs, it->str);
        }
        break;
      }
      case GR_I_SEPARATOR:
        if( o->type!=GR_OT_LIST ) ck_err(c, it->loc, "only list options have a separator");
        if( it->str[0]==0 ) ck_err(c, it->str_loc, "a separator cannot be empty");
        o->separator = ck_keep(rs, it->str);
        break;
      case GR_I_DEFAULT: break;      /* after all options are known (defaults may name others) */
      case GR_I_SUPPORT: check_support(c, &o->support, it); break;
      case GR_I_VALUE_BLOCK: {
        gr_item *x;
        for(nm = it->names; nm; nm = nm->next){
          int vi = -1;
          gr_item *rej = NULL;
          for(k = 0; k < o->nvalues; k++) if( strcmp(o->values[k], nm->s)==0 ) vi = (int)k;
          if( vi < 0 ){ ck_err(c, nm->loc, "'%s' is not a value of option %s", nm->s, o->name); continue; }
          for(x = it->items; x; x = x->next){
            if( x->kind==GR_I_SUPPORT ) check_support(c, &o->value_support[vi], x);
            else if( x->kind==GR_I_DESCRIPTION ) o->value_desc[vi] = ck_keep(rs, x->str);
            else if( x->kind==GR_I_REJECTED ){
              if( rej && nm==it->names ) ck_err(c, x->loc, "'rejected elsewhere' is given twice in this value block");
              rej = x;
            }else if( nm==it->names ) bad_item(c, x, "a value block");
          }
          /* `rejected elsewhere;` needs the product lines it is rejected off */
          if( rej && !o->value_support[vi].stated && nm==it->names )
            ck_err(c, rej->loc, "'rejected elsewhere' needs a 'supported on' list in the same value block");
          if( rej ) o->value_support[vi].rejected = 1;
        }
        break;
      }
      case GR_I_DEPRECATED: once_str(c, &o->deprecated, it, "the deprecation text"); break;
      case GR_I_FORMAT:
        if( o->type!=GR_OT_FILE ) ck_err(c, it->loc, "only file options have a format");
        do_format(c, o, it);
        break;
      default: bad_item(c, it, "an option block");
    }
  }
  if( o->key==NULL ) ck_err(c, st->name_loc, "option %s has no GE key", o->name);
  if( o->type==GR_OT_LIST && o->separator==NULL ) o->separator = ",";
}

static void do_option_defaults(ck *c, gr_item *st, gr_option *o){
  gr_item *it;
  int uncond = 0;
  c->scope = -1;
  for(it = st->items; it; it = it->next){
    gr_default *d;
    char why[256];
    if( it->kind!=GR_I_DEFAULT ) continue;
    d = &o->defaults[o->ndefaults++];
    d->value = it->e2; d->cond = it->e; d->loc = it->loc;
    if( uncond ) ck_err(c, it->loc, "this default can never apply: an earlier default of %s has no condition", o->name);
    c->nvars = 0; c->maxslots = 0;
    ck_expr(c, d->value);
    if( d->value->dep > GR_DEP_GLOBAL ) ck_err(c, d->value->loc, "a default cannot depend on a node");
    if( !default_type_ok(o, d->value, why, sizeof why) ) ck_err(c, d->value->loc, "bad default: %s", why);
    else check_default_literal(c, o, d->value);
    if( d->cond ){
      char w2[256];
      ck_want(c, d->cond, GR_T_BOOL, "the condition of a default");
      w2[0] = 0;
      if( ck_truth(c->rs, d->cond, w2, sizeof w2)==0 ) ck_err(c, d->cond->loc, "this default can never apply: %s", w2[0] ? w2 : "its condition is always false");
    }else{
      uncond = 1;
    }
    if( c->maxslots ) ck_err(c, it->loc, "quantifiers are not allowed in defaults");
  }
}

static void do_mode(ck *c, gr_item *st, gr_mode *m){
  gr_item *it;
  m->name = ck_keep(c->rs, st->name);
  m->loc = st->name_loc;
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_DESCRIPTION: once_str(c, &m->description, it, "the mode description"); break;
      case GR_I_SUPPORT: check_support(c, &m->support, it); break;
      default: bad_item(c, it, "a mode block");
    }
  }
}

static int is_literal(const gr_expr *e){
  const gr_expr *x;
  switch( e->op ){
    case GR_E_STR: case GR_E_INT: case GR_E_BOOL: return 1;
    case GR_E_LIST:
      for(x = e->a; x; x = x->next) if( !is_literal(x) ) return 0;
      return 1;
    default: return 0;
  }
}

static void do_table(ck *c, gr_item *st, gr_table *t){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  size_t n = 0;
  int kind = -1;
  t->name = ck_keep(rs, st->name);
  t->description = ck_keep(rs, st->str);
  t->loc = st->name_loc;
  ck_table_fold(c, st, t);
  for(it = st->items; it; it = it->next) n++;
  t->keys = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *t->keys);
  t->vals = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *t->vals);
  t->locs = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *t->locs);
  t->vtype = GR_T_NULL;
  for(it = st->items; it; it = it->next){
    int k = it->e2 ? 1 : 0;
    void *prev;
    if( kind < 0 ) kind = k;
    else if( kind!=k ){
      ck_err(c, it->str_loc, "table '%s' mixes plain keys and key: value entries", t->name);
      continue;
    }
    prev = gr_map_put(&t->keymap, ck_keep(rs, it->str), idx((int)t->n));
    if( prev ){
      char w[256];
      ck_where(w, sizeof w, t->locs[(intptr_t)prev - 1]);
      ck_err(c, it->str_loc, "key '%s' appears twice in table '%s' (first at %s)", it->str, t->name, w);
      continue;
    }
    t->keys[t->n] = ck_keep(rs, it->str);
    t->locs[t->n] = it->str_loc;
    if( it->e2 ){
      uint8_t ty;
      c->scope = -1; c->nvars = 0; c->maxslots = 0;
      ty = ck_expr(c, it->e2);
      if( !is_literal(it->e2) ) ck_err(c, it->e2->loc, "table values are literals (strings, integers, booleans or lists of them)");
      if( t->vtype==GR_T_NULL ) t->vtype = ty;
      else if( t->vtype!=ty ) t->vtype = GR_T_ANY;
      t->vals[t->n] = it->e2;
    }
    if( t->fold ) ck_fold_entry(c, t, it);
    t->n++;
  }
  t->is_map = kind==1;
  if( t->vtype==GR_T_NULL ) t->vtype = GR_T_STR;
}

/* A column label is a plain word: [A-Za-z_][A-Za-z0-9_]*, as a name is. */
static int plain_word(const char *w){
  const char *p;
  if( !((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z') || w[0]=='_') ) return 0;
  for(p = w + 1; *p; p++)
    if( !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p=='_') ) return 0;
  return 1;
}

static void do_slot(ck *c, gr_item *st, gr_slot *s){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  s->name = ck_keep(rs, st->name);
  s->loc = st->name_loc;
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_DESCRIPTION: once_str(c, &s->description, it, "the slot description"); break;
      case GR_I_KEY: once_str(c, &s->report_key, it, "the report key"); break;
      case GR_I_COLUMN: {
        const char *had = s->column;
        once_str(c, &s->column, it, "the column label");
        if( s->column==had ) break;
        if( s->column[0]==0 ) ck_err(c, it->str_loc, "slot %s: the column label is empty", s->name);
        else if( !plain_word(s->column) )
          ck_err(c, it->str_loc, "slot %s: column label '%s' is not a plain word (a letter or '_', then letters, digits and '_')",
                 s->name, s->column);
        else s->column_loc = it->str_loc;     /* a valid label: compared with the other slots' below */
        break;
      }
      case GR_I_VALUES_MODE:
        if( s->values_mode || s->nvalues ){ ck_err(c, it->loc, "slot values are declared twice"); break; }
        s->values_mode = 1;
        break;
      case GR_I_VALUES: {
        gr_name *nm;
        size_t k = 0;
        if( s->values_mode || s->nvalues ){ ck_err(c, it->loc, "slot values are declared twice"); break; }
        for(nm = it->names; nm; nm = nm->next) k++;
        s->values = gr_arena_calloc(&rs->arena, (k + 1) * sizeof *s->values);
        for(nm = it->names; nm; nm = nm->next) s->values[s->nvalues++] = ck_keep(rs, nm->s);
        break;
      }
      case GR_I_NOEFFECT: s->nnoeffect++; break;     /* checked once sources exist (check_noeffect) */
      default: bad_item(c, it, "a slot block");
    }
  }
  if( s->column==NULL ) s->column = s->name;
  if( s->report_key==NULL ){
    char *k = gr_xasprintf("%s_source", s->name);
    s->report_key = ck_keep(rs, k);
    free(k);
  }
  /* slot names and report keys become node fields and report keys */
  {
    static const char *fixed[] = { "name", "type", "graph", "static", "dynamic", "inputs", "outputs",
                                   "input", "attr", "dtypes", "provenance", "class", "plan", "problems", "valid", "execute" };
    size_t k, j;
    for(k = 0; k < sizeof fixed / sizeof *fixed; k++){
      if( strcmp(s->name, fixed[k])==0 ) ck_err(c, st->name_loc, "'%s' cannot name a slot: it is a fixed node field", s->name);
      if( strcmp(s->report_key, fixed[k])==0 ) ck_err(c, st->name_loc, "slot %s: report key '%s' is a fixed node field", s->name, s->report_key);
    }
    for(j = 0; j < rs->nslots; j++){
      const gr_slot *o = &rs->slots[j];
      const gr_slot *pair[2][2] = { { s, o }, { o, s } };
      size_t q;
      if( o->name==NULL || o->report_key==NULL ) continue;
      /* a slot with `no effect` clauses also writes SLOT_effect and SLOT_no_effect_reason */
      for(q = 0; q < 2; q++){
        const gr_slot *a = pair[q][0], *x = pair[q][1];
        static const char *suffix[] = { "_effect", "_no_effect_reason" };
        size_t m, len = strlen(a->name);
        if( a->nnoeffect==0 || (q==1 && o==s) ) continue;
        for(m = 0; m < 2; m++){
          const char *f[2] = { x->name, x->report_key };
          size_t z;
          for(z = 0; z < 2; z++){
            if( (x!=a || z==1) && strncmp(f[z], a->name, len)==0 && strcmp(f[z] + len, suffix[m])==0 ){
              ck_err(c, st->name_loc, "slot %s would write the report field '%s' that slot %s's 'no effect' clauses write",
                     x->name, f[z], a->name);
            }
          }
        }
      }
      if( o==s ) continue;
      /* a label is shown in place of the name: it must name one slot only */
      if( s->column_loc.line && strcmp(s->column, o->name)==0 )
        ck_err(c, s->column_loc, "slot %s: column label '%s' is the name of slot %s", s->name, s->column, o->name);
      else if( s->column_loc.line && o->column_loc.line && strcmp(s->column, o->column)==0 ){
        char w[512];
        ck_where(w, sizeof w, o->column_loc);
        ck_err(c, s->column_loc, "slot %s: column label '%s' is already the column label of slot %s (at %s)", s->name, s->column, o->name, w);
      }
      if( o->column_loc.line && strcmp(o->column, s->name)==0 )
        ck_err(c, o->column_loc, "slot %s: column label '%s' is the name of slot %s", o->name, o->column, s->name);
      if( strcmp(o->name, s->report_key)==0 || strcmp(o->report_key, s->name)==0 || strcmp(o->report_key, s->report_key)==0 ){
        ck_err(c, st->name_loc, "slot %s and slot %s would both write the report field '%s'", s->name, o->name,
            strcmp(o->name, s->report_key)==0 || strcmp(o->report_key, s->report_key)==0 ? s->report_key : s->name);
      }
    }
  }
}

static void check_slot_value(ck *c, const gr_slot *s, const gr_expr *v);

/* The slot accepts every value a table lookup can yield? */
static void check_slot_table(ck *c, const gr_slot *s, const gr_expr *v){
  const gr_table *t = v->a->ptr;
  size_t k;
  for(k = 0; k < t->n; k++) if( t->vals[k] ) check_slot_value(c, s, t->vals[k]);
}

/* The slot accepts a constant value? */
static void check_slot_value(ck *c, const gr_slot *s, const gr_expr *v){
  size_t k;
  if( v->op==GR_E_INDEX && v->a->op==GR_E_NAME && v->a->ref==GR_NAME_TABLE && v->a->ptr ){
    check_slot_table(c, s, v);
    return;
  }
  if( v->op!=GR_E_STR ) return;
  if( s->values_mode ){
    if( gr_ruleset_find(&c->rs->mode_map, v->s) < 0 ){
      char sug[128];
      ck_err(c, v->loc, "'%s' is not a declared mode (slot %s takes modes)%s", v->s, s->name,
          ck_did_you_mean(c, GR_NK_MODE, v->s, sug, sizeof sug));
    }
  }else if( s->nvalues ){
    for(k = 0; k < s->nvalues; k++) if( strcmp(s->values[k], v->s)==0 ) return;
    ck_err(c, v->loc, "slot %s never takes the value '%s'", s->name, v->s);
  }
}

static void check_branch(ck *c, gr_branch *b, const gr_slot *slot, const char *raw_because){
  c->scope = GR_SCOPE_NODE; c->nvars = 0; c->maxslots = 0;
  c->allow_other = 0; c->allow_count = 0; c->in_source = 1;
  if( b->cond ) ck_want(c, b->cond, GR_T_BOOL, "a condition");
  if( b->value ){
    uint8_t t;
    c->nvars = 0;
    ck_push_witnesses(c, b->cond);
    t = ck_expr(c, b->value);
    if( t!=GR_T_STR && t!=GR_T_ANY && t!=GR_T_NULL ) ck_err(c, b->value->loc, "a slot value is a string, not %s", ck_a_type(t));
    if( slot ) check_slot_value(c, slot, b->value);
  }
  if( raw_because ){
    c->nvars = 0;
    ck_push_witnesses(c, b->cond);
    ck_template(c, &b->because, raw_because, b->because.loc);
  }
  b->nvars = c->maxslots;
  c->in_source = 0;
}

/* A slot's `no effect when COND because "why";` clauses: node scope, and,
** unlike a source, the decided values of the node's slots are readable
** (node.SLOT): the clause judges a decision already made. */
static void check_noeffect(ck *c, gr_item *st, gr_slot *s){
  gr_item *it;
  size_t k = 0;
  if( s->nnoeffect==0 ) return;
  s->noeffect = gr_arena_calloc(&c->rs->arena, s->nnoeffect * sizeof *s->noeffect);
  for(it = st->items; it; it = it->next){
    gr_branch *b;
    if( it->kind!=GR_I_NOEFFECT ) continue;
    b = &s->noeffect[k++];
    b->cond = it->e; b->loc = it->loc; b->source = -1;
    b->because.loc = it->str2_loc;
    c->scope = GR_SCOPE_NODE; c->nvars = 0; c->maxslots = 0;
    c->allow_other = 0; c->allow_count = 0; c->in_source = 0;
    ck_want(c, b->cond, GR_T_BOOL, "a 'no effect' condition");
    c->nvars = 0;
    ck_push_witnesses(c, b->cond);
    ck_template(c, &b->because, it->raw2, b->because.loc);
    b->nvars = c->maxslots;
    prepare_branch(c, b, "'no effect' clause of slot", s->name);
  }
}

/* ------------------------------------------------------------------ */
/* partitions */

/* One `partition` block: seeds and neutral conditions are node conditions
** (checked like source branches, without slot values and without any
** partition outcome, which they decide); limits are ints that depend on the
** chip and the options only, since one limit holds for the whole graph. */
static void do_partition(ck *c, gr_item *st, gr_partition *p){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  size_t ns = 0, nn = 0, nl = 0, nsg = 0, nt = 0, k;
  p->name = ck_keep(rs, st->name);
  p->loc = st->name_loc;
  for(it = st->items; it; it = it->next){
    if( it->kind==GR_I_SEED ) ns++;
    else if( it->kind==GR_I_NEUTRAL ) nn++;
    else if( it->kind==GR_I_LIMIT ) nl++;
    else if( it->kind==GR_I_SUBSEED ) ns++;
    else if( it->kind==GR_I_SUBGRAPH ) nsg++;
    else if( it->kind==GR_I_THRESHOLD ) nt++;
  }
  p->subgraph = gr_arena_calloc(&rs->arena, (nsg + 1) * sizeof *p->subgraph);
  p->thresholds = gr_arena_calloc(&rs->arena, (nt + 1) * sizeof *p->thresholds);
  p->seeds = gr_arena_calloc(&rs->arena, (ns + 1) * sizeof *p->seeds);
  p->neutral = gr_arena_calloc(&rs->arena, (nn + 1) * sizeof *p->neutral);
  p->limits = gr_arena_calloc(&rs->arena, (nl + 1) * sizeof *p->limits);
  c->in_partition = 1;
  for(it = st->items; it; it = it->next){
    gr_branch *br = NULL;
    switch( it->kind ){
      case GR_I_DESCRIPTION: once_str(c, &p->description, it, "the partition description"); break;
      case GR_I_SEED: case GR_I_SUBSEED:
        for(k = 0; k < p->nseeds; k++){
          if( strcmp(p->seeds[k].name, it->name)==0 ){
            char where[256];
            ck_where(where, sizeof where, p->seeds[k].br.loc);
            ck_err(c, it->name_loc, "partition %s has two seeds named '%s' (first at %s)", p->name, it->name, where);
          }
        }
        p->seeds[p->nseeds].name = ck_keep(rs, it->name);
        if( it->kind==GR_I_SUBSEED ){
          if( p->subgraph_seed ) ck_err(c, it->loc, "partition %s has two 'subgraph seed' lines", p->name);
          p->subgraph_seed = (int)p->nseeds + 1;
          p->seeds[p->nseeds].br.loc = it->loc;
          p->seeds[p->nseeds++].br.source = -1;
          break;
        }
        p->seeds[p->nseeds].weak = it->flag;
        br = &p->seeds[p->nseeds++].br;
        break;
      case GR_I_SUBGRAPH: {
        gr_psub *sg = &p->subgraph[p->nsubgraph++];
        if( strcmp(it->name, "dynamic")==0 ) sg->inherit = 0;
        else if( strcmp(it->name, "inherit")==0 ) sg->inherit = 1;
        else ck_err(c, it->name_loc, "'subgraph %s when ...' is not a partition clause: 'subgraph dynamic when' or 'subgraph inherit when'", it->name);
        br = &sg->br;
        break;
      }
      case GR_I_GROUP:
        c->scope = GR_SCOPE_NODE; c->nvars = 0; c->maxslots = 0; c->allow_other = 0; c->allow_count = 0;
        if( p->group ) ck_err(c, it->loc, "partition %s has two 'group' lines", p->name);
        p->group = it->e2;
        (void)ck_expr(c, it->e2);
        if( c->maxslots ) ck_err(c, it->loc, "a partition group cannot use quantifiers");
        break;
      case GR_I_THRESHOLD: {
        gr_default *d = &p->thresholds[p->nthresholds++];
        c->scope = -1; c->nvars = 0; c->maxslots = 0; c->allow_other = 0; c->allow_count = 0;
        d->value = it->e2; d->cond = it->e; d->loc = it->loc;
        ck_want(c, d->value, GR_T_INT, "a partition threshold");
        if( d->cond ) ck_want(c, d->cond, GR_T_BOOL, "the condition of a partition threshold");
        if( c->maxslots ) ck_err(c, it->loc, "a partition threshold cannot use quantifiers");
        break;
      }
      case GR_I_NEUTRAL: br = &p->neutral[p->nneutral++]; break;
      case GR_I_LIMIT: {
        gr_default *d = &p->limits[p->nlimits++];
        c->scope = -1; c->nvars = 0; c->maxslots = 0; c->allow_other = 0; c->allow_count = 0;
        d->value = it->e2; d->cond = it->e; d->loc = it->loc;
        ck_want(c, d->value, GR_T_INT, "a partition limit");
        if( d->cond ) ck_want(c, d->cond, GR_T_BOOL, "the condition of a partition limit");
        if( c->maxslots ) ck_err(c, it->loc, "a partition limit cannot use quantifiers");
        break;
      }
      default: bad_item(c, it, "a partition block");
    }
    if( br ){
      br->cond = it->e; br->loc = it->loc; br->source = -1;
      check_branch(c, br, NULL, NULL);
      prepare_branch(c, br, it->kind==GR_I_SEED ? "seed" : it->kind==GR_I_SUBGRAPH ? "subgraph condition" : "neutral condition",
                     it->kind==GR_I_SEED ? it->name : p->name);
    }
  }
  c->in_partition = 0;
  for(k = 0, ns = 0; k < p->nseeds; k++) if( !p->seeds[k].weak && p->seeds[k].br.cond ) ns++;
  if( ns==0 ) ck_err(c, st->name_loc, "partition %s has no seed: nothing could ever be on its dynamic side", p->name);
}

/* ------------------------------------------------------------------ */
/* relations and rules */

static void do_relation(ck *c, gr_item *st, gr_relation *r){
  gr_ruleset *rs = c->rs;
  gr_name *nm;
  size_t n = 0;
  r->kind = st->kind==GR_I_EXCLUSIVE ? GR_REL_EXCLUSIVE : st->kind==GR_I_REQUIRES ? GR_REL_REQUIRES : GR_REL_CONFLICTS;
  r->loc = st->loc;
  r->sev = (gr_severity)st->flag3;
  r->code = ck_keep(rs, st->code);
  r->ge_code = ck_keep(rs, st->ge_code);
  if( r->ge_code && !gr_diag_code_valid(r->ge_code) ) ck_err(c, st->ge_code_loc, "ge_code '%s' must be %s", r->ge_code, GR_DIAG_CODE_RULE);
  r->a = -1;
  if( r->kind!=GR_REL_CONFLICTS ){
    gr_option *o = ck_option_ref(c, st->names->s, st->names->loc);
    r->a = o ? o->index : -1;
  }
  for(nm = r->kind==GR_REL_CONFLICTS ? st->names : st->names2; nm; nm = nm->next) n++;
  r->others = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *r->others);
  for(nm = r->kind==GR_REL_CONFLICTS ? st->names : st->names2; nm; nm = nm->next){
    gr_option *o = ck_option_ref(c, nm->s, nm->loc);
    size_t k;
    if( o==NULL ) continue;
    if( o->index==r->a ){ ck_err(c, nm->loc, "option %s cannot be related to itself", o->name); continue; }
    for(k = 0; k < r->nothers; k++) if( r->others[k]==o->index ) break;
    if( k < r->nothers ){ ck_err(c, nm->loc, "option %s is named twice", o->name); continue; }
    r->others[r->nothers++] = o->index;
  }
  if( r->kind==GR_REL_CONFLICTS ){
    size_t named = 0;
    for(nm = st->names; nm; nm = nm->next) named++;
    if( named < 2 ) ck_err(c, st->loc, "'conflicts' needs at least two options");
  }
  c->scope = GR_SCOPE_OPTION; c->allow_other = 1; c->allow_count = 0; c->nvars = 0; c->maxslots = 0;
  ck_template(c, &r->msg, st->raw, st->str_loc);
  c->allow_other = 0;
}

/* ------------------------------------------------------------------ */
/* defaults that depend on each other */

static void option_refs(const gr_expr *e, uint8_t *refs){
  const gr_expr *x;
  if( e==NULL ) return;
  if( e->op==GR_E_OPTION && e->ref >= 0 ) refs[e->ref] = 1;
  option_refs(e->a, refs);
  option_refs(e->b, refs);
  if( e->op==GR_E_LIST ) for(x = e->a; x; x = x->next) option_refs(x->next, refs);
}

static int default_dfs(ck *c, int o, uint8_t *color, int *stack, int depth, uint8_t *adj){
  gr_ruleset *rs = c->rs;
  size_t n = rs->noptions, k;
  color[o] = 1;
  stack[depth] = o;
  for(k = 0; k < n; k++){
    if( !adj[(size_t)o * n + k] ) continue;
    if( color[k]==1 ){
      gr_buf b;
      int i, start = 0;
      for(i = 0; i <= depth; i++) if( stack[i]==(int)k ) start = i;
      gr_buf_init(&b);
      for(i = start; i <= depth; i++) gr_buf_printf(&b, "%s -> ", rs->options[stack[i]].name);
      gr_buf_adds(&b, rs->options[k].name);
      ck_err(c, rs->options[k].loc, "the defaults of these options depend on each other: %s", gr_buf_cstr(&b));
      gr_buf_free(&b);
      return 1;
    }
    if( color[k]==0 && default_dfs(c, (int)k, color, stack, depth + 1, adj) ) return 1;
  }
  color[o] = 2;
  return 0;
}

static void check_default_cycles(ck *c){
  gr_ruleset *rs = c->rs;
  size_t n = rs->noptions, i, d;
  uint8_t *adj, *color;
  int *stack;
  if( n==0 ) return;
  adj = gr_xcalloc(n * n, 1);
  color = gr_xcalloc(n, 1);
  stack = gr_xcalloc(n + 1, sizeof *stack);
  for(i = 0; i < n; i++){
    for(d = 0; d < rs->options[i].ndefaults; d++){
      option_refs(rs->options[i].defaults[d].value, adj + i * n);
      option_refs(rs->options[i].defaults[d].cond, adj + i * n);
    }
  }
  for(i = 0; i < n; i++) if( color[i]==0 && default_dfs(c, (int)i, color, stack, 0, adj) ) break;
  free(adj); free(color); free(stack);
}

/* ------------------------------------------------------------------ */
/* driver */

/* how many of each kind of statement there are: the sizes of the ruleset's arrays */
typedef struct ck_counts {
  size_t prod, soc, opt, mode, tab, slot, src, rule, rel, cap, hw, part;
} ck_counts;

/* where each declared name was first declared, by kind (for "declared twice") */
typedef struct ck_decl_locs {
  gr_loc *cap, *hw, *prod, *opt, *mode, *tab, *slot, *src;
} ck_decl_locs;

static void count_statements(ck *c, ck_counts *n){
  gr_item *st;
  size_t k;
  memset(n, 0, sizeof *n);
  for(k = 0; k < c->nstmts; k++){
    st = c->stmts[k];
    switch( c->kinds[k] ){
      case GR_I_CAPABILITY: n->cap++; break;
      case GR_I_HARDWARE: n->hw++; break;
      case GR_I_PRODUCT: {
        gr_item *x;
        n->prod++;
        for(x = st->items; x; x = x->next) if( x->kind==GR_I_SOC ) n->soc++;
        break;
      }
      case GR_I_OPTION: n->opt++; break;
      case GR_I_MODE: n->mode++; break;
      case GR_I_TABLE: n->tab++; break;
      case GR_I_SLOT: n->slot++; break;
      case GR_I_SOURCE: n->src++; break;
      case GR_I_RULE: if( st->flag2==GR_ACT_SET ) n->src++; else n->rule++; break;
      case GR_I_EXCLUSIVE: case GR_I_REQUIRES: case GR_I_CONFLICTS: n->rel++; break;
      case GR_I_PARTITION: n->part++; break;
      default: break;
    }
  }
}

static void alloc_tables(ck *c, const ck_counts *n){
  gr_ruleset *rs = c->rs;
  rs->cap_names = gr_arena_calloc(&rs->arena, (n->cap + 1) * sizeof(char*));
  rs->cap_desc = gr_arena_calloc(&rs->arena, (n->cap + 1) * sizeof(char*));
  rs->hw_names = gr_arena_calloc(&rs->arena, (n->hw + 1) * sizeof(char*));
  rs->hw_desc = gr_arena_calloc(&rs->arena, (n->hw + 1) * sizeof(char*));
  rs->products = gr_arena_calloc(&rs->arena, (n->prod + 1) * sizeof *rs->products);
  rs->socs = gr_arena_calloc(&rs->arena, (n->soc + 1) * sizeof *rs->socs);
  rs->options = gr_arena_calloc(&rs->arena, (n->opt + 1) * sizeof *rs->options);
  rs->modes = gr_arena_calloc(&rs->arena, (n->mode + 1) * sizeof *rs->modes);
  rs->tables = gr_arena_calloc(&rs->arena, (n->tab + 1) * sizeof *rs->tables);
  rs->slots = gr_arena_calloc(&rs->arena, (n->slot + 1) * sizeof *rs->slots);
  rs->sources = gr_arena_calloc(&rs->arena, (n->src + 1) * sizeof *rs->sources);
  rs->rules = gr_arena_calloc(&rs->arena, (n->rule + 1) * sizeof *rs->rules);
  rs->relations = gr_arena_calloc(&rs->arena, (n->rel + 1) * sizeof *rs->relations);
  rs->partitions = gr_arena_calloc(&rs->arena, (n->part + 1) * sizeof *rs->partitions);
}

/* pass 1: names that everything else refers to */
static void declare_names(ck *c, ck_decl_locs *l){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k;
  for(k = 0; k < c->nstmts; k++){
    st = c->stmts[k];
    switch( c->kinds[k] ){
      case GR_I_BUNDLE: do_bundle(c, st); break;
      case GR_I_CAPABILITY:
        l->cap[rs->ncaps] = st->name_loc;
        if( declare(c, &rs->cap_map, "capability", ck_keep(rs, st->name), st->name_loc, l->cap, (int)rs->ncaps) ){
          rs->cap_names[rs->ncaps] = ck_keep(rs, st->name);
          rs->cap_desc[rs->ncaps++] = ck_keep(rs, st->str);
        }
        break;
      case GR_I_HARDWARE:
        {
          static const char *fixed[] = { "soc", "pattern", "product", "product_title", "title", "caps" };
          size_t f;
          for(f = 0; f < sizeof fixed / sizeof *fixed; f++){
            if( strcmp(st->name, fixed[f])==0 ) ck_err(c, st->name_loc, "'%s' cannot name a hardware property: it is a fixed chip field", st->name);
          }
        }
        l->hw[rs->nhw] = st->name_loc;
        if( declare(c, &rs->hw_map, "hardware property", ck_keep(rs, st->name), st->name_loc, l->hw, (int)rs->nhw) ){
          rs->hw_names[rs->nhw] = ck_keep(rs, st->name);
          rs->hw_desc[rs->nhw++] = ck_keep(rs, st->str);
        }
        break;
      case GR_I_PRODUCT:
        l->prod[rs->nproducts] = st->name_loc;
        if( declare(c, &rs->product_map, "product line", ck_keep(rs, st->name), st->name_loc, l->prod, (int)rs->nproducts) ){
          rs->products[rs->nproducts].name = ck_keep(rs, st->name);
          rs->nproducts++;
        }
        break;
      case GR_I_OPTION:
        l->opt[rs->noptions] = st->name_loc;
        if( declare(c, &rs->option_map, "option", ck_keep(rs, st->name), st->name_loc, l->opt, (int)rs->noptions) ){
          gr_option *o = &rs->options[rs->noptions];
          o->index = (int)rs->noptions;
          o->name = ck_keep(rs, st->name);
          o->loc = st->name_loc;
          add_spelling(c, o->name, o->index, st->name_loc);
          rs->noptions++;
        }
        break;
      case GR_I_MODE:
        l->mode[rs->nmodes] = st->name_loc;
        if( declare(c, &rs->mode_map, "mode", ck_keep(rs, st->name), st->name_loc, l->mode, (int)rs->nmodes) ){
          rs->modes[rs->nmodes].index = (int)rs->nmodes;
          rs->modes[rs->nmodes].name = ck_keep(rs, st->name);
          rs->nmodes++;
        }
        break;
      case GR_I_TABLE:
        l->tab[rs->ntables] = st->name_loc;
        if( declare(c, &rs->table_map, "table", ck_keep(rs, st->name), st->name_loc, l->tab, (int)rs->ntables) ){
          rs->tables[rs->ntables].index = (int)rs->ntables;
          rs->ntables++;
        }
        break;
      case GR_I_SLOT:
        l->slot[rs->nslots] = st->name_loc;
        if( declare(c, &rs->slot_map, "slot", ck_keep(rs, st->name), st->name_loc, l->slot, (int)rs->nslots) ){
          rs->slots[rs->nslots].index = (int)rs->nslots;
          rs->nslots++;
        }
        break;
      default: break;
    }
  }
}

/* the bodies of products (which need capabilities and hardware), modes,
** options, tables and slots; then the options' defaults */
static void fill_declarations(ck *c){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k;
  {
    size_t pi = 0;
    CK_EACH_KIND(c, k, st, GR_I_PRODUCT){
      if( gr_ruleset_find(&rs->product_map, st->name)==(int)pi ) do_product(c, st, (int)pi++);
    }
  }
  check_soc_overlaps(c);
  {
    size_t mi = 0, oi = 0, ti = 0, si = 0;
    for(k = 0; k < c->nstmts; k++){
      unsigned kd = c->kinds[k];
      if( kd!=GR_I_MODE && kd!=GR_I_OPTION && kd!=GR_I_TABLE && kd!=GR_I_SLOT ) continue;
      st = c->stmts[k];
      if( st->kind==GR_I_MODE && gr_ruleset_find(&rs->mode_map, st->name)==(int)mi ) do_mode(c, st, &rs->modes[mi++]);
      else if( st->kind==GR_I_OPTION && gr_ruleset_find(&rs->option_map, st->name)==(int)oi ) do_option_body(c, st, &rs->options[oi++]);
      else if( st->kind==GR_I_TABLE && gr_ruleset_find(&rs->table_map, st->name)==(int)ti ) do_table(c, st, &rs->tables[ti++]);
      else if( st->kind==GR_I_SLOT && gr_ruleset_find(&rs->slot_map, st->name)==(int)si ) do_slot(c, st, &rs->slots[si++]);
    }
    oi = 0;
    CK_EACH_KIND(c, k, st, GR_I_OPTION){
      if( gr_ruleset_find(&rs->option_map, st->name)==(int)oi ) do_option_defaults(c, st, &rs->options[oi++]);
    }
  }
  check_default_cycles(c);
}

/* partitions, before the sources and rules that read their outcome */
static void declare_partitions(ck *c, size_t npart){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k;
  gr_loc *part_locs = gr_xcalloc(npart + 1, sizeof(gr_loc));
  CK_EACH_KIND(c, k, st, GR_I_PARTITION){
    part_locs[rs->npartitions] = st->name_loc;
    if( !declare(c, &rs->partition_map, "partition", ck_keep(rs, st->name), st->name_loc, part_locs, (int)rs->npartitions) ) continue;
    rs->partitions[rs->npartitions].index = (int)rs->npartitions;
    do_partition(c, st, &rs->partitions[rs->npartitions]);
    rs->npartitions++;
  }
  free(part_locs);
}

/* sources and rules share one namespace */
static void declare_sources_and_rules(ck *c, gr_loc *src_locs){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k, i;
  for(k = 0; k < c->nstmts; k++){
    if( c->kinds[k]!=GR_I_SOURCE && c->kinds[k]!=GR_I_RULE ) continue;
    st = c->stmts[k];
    if( st->kind==GR_I_SOURCE || (st->kind==GR_I_RULE && st->flag2==GR_ACT_SET) ){
      gr_source *s = &rs->sources[rs->nsources];
      int sl;
      size_t nb = 0, b;
      gr_item *x;
      src_locs[rs->nsources + rs->nrules] = st->name_loc;
      if( !declare(c, &rs->source_map, st->kind==GR_I_SOURCE ? "source" : "rule", ck_keep(rs, st->name), st->name_loc,
                   src_locs, (int)(rs->nsources + rs->nrules)) ) continue;
      s->index = (int)rs->nsources;
      s->name = ck_keep(rs, st->name);
      s->loc = st->name_loc;
      s->from_rule = st->kind==GR_I_RULE;
      sl = gr_ruleset_find(&rs->slot_map, st->names->s);
      if( sl < 0 ){
        char sug[128];
        ck_err(c, st->names->loc, "unknown slot '%s'%s", st->names->s, ck_did_you_mean(c, GR_NK_SLOT, st->names->s, sug, sizeof sug));
      }
      s->slot = sl;
      if( st->kind==GR_I_SOURCE ){
        for(x = st->items; x; x = x->next) nb++;
        s->branches = gr_arena_calloc(&rs->arena, (nb + 1) * sizeof *s->branches);
        for(x = st->items, b = 0; x; x = x->next, b++){
          gr_branch *br = &s->branches[b];
          br->cond = x->e; br->value = x->e2; br->loc = x->loc; br->source = s->index;
          br->because.loc = x->str2_loc;
          check_branch(c, br, sl >= 0 ? &rs->slots[sl] : NULL, x->raw2);
          prepare_branch(c, br, "source", s->name);
        }
        s->nbranches = nb;
      }else{
        gr_branch *br;
        s->branches = gr_arena_calloc(&rs->arena, sizeof *s->branches);
        br = &s->branches[0];
        br->cond = st->e; br->value = st->e2; br->loc = st->loc; br->source = s->index;
        br->because.loc = st->str2_loc;
        check_branch(c, br, sl >= 0 ? &rs->slots[sl] : NULL, st->raw2);
        prepare_branch(c, br, "rule", s->name);
        s->nbranches = 1;
      }
      rs->nsources++;
    }else if( st->kind==GR_I_RULE ){
      gr_rule *r = &rs->rules[rs->nrules];
      src_locs[rs->nsources + rs->nrules] = st->name_loc;
      if( !declare(c, &rs->source_map, "rule", ck_keep(rs, st->name), st->name_loc, src_locs, (int)(rs->nsources + rs->nrules)) ) continue;
      r->index = (int)rs->nrules;
      r->name = ck_keep(rs, st->name);
      r->loc = st->name_loc;
      r->scope = st->flag;
      r->sev = (gr_severity)st->flag3;
      r->code = ck_keep(rs, st->code);
      r->ge_code = ck_keep(rs, st->ge_code);
      if( r->ge_code && !gr_diag_code_valid(r->ge_code) ) ck_err(c, st->ge_code_loc, "ge_code '%s' must be %s", r->ge_code, GR_DIAG_CODE_RULE);
      r->once = st->lo ? 1 : 0;
      if( !gr_diag_code_valid(r->code) ) ck_err(c, st->code_loc, "diagnostic code '%s' must be %s", r->code, GR_DIAG_CODE_RULE);
      if( r->once && r->scope!=GR_SCOPE_NODE ) ck_err(c, st->once_loc, "'once' is for rules 'for each node'");
      if( r->scope==GR_SCOPE_BAD ) ck_err(c, st->name_loc, "rule '%s' runs 'for each' what gerules has no scope for (node, option, entry, refusal)", r->name);
      r->br.cond = st->e; r->br.loc = st->loc; r->br.source = -1;
      c->scope = r->scope; c->nvars = 0; c->maxslots = 0; c->allow_other = 0; c->allow_count = 0;
      ck_want(c, r->br.cond, GR_T_BOOL, "a rule condition");
      c->allow_count = r->once;
      c->nvars = 0;
      ck_push_witnesses(c, r->br.cond);
      ck_template(c, &r->msg, st->raw, st->str_loc);
      c->allow_count = 0;
      r->br.nvars = c->maxslots;
      prepare_branch(c, &r->br, "rule", r->name);
      if( r->scope!=GR_SCOPE_NODE && r->br.cond_dep==GR_DEP_TYPE ) r->br.cond_dep = GR_DEP_ITEM;
      rs->nrules++;
    }
  }
  /* the source map was filled with combined indexes: rebuild it with source indexes */
  gr_map_free(&rs->source_map);
  gr_map_init(&rs->source_map);
  for(i = 0; i < rs->nsources; i++) gr_map_put(&rs->source_map, rs->sources[i].name, idx((int)i));
  gr_map_free(&rs->rule_map);
  gr_map_init(&rs->rule_map);
  for(i = 0; i < rs->nrules; i++) gr_map_put(&rs->rule_map, rs->rules[i].name, idx((int)i));
}

static void check_relations(ck *c){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k;
  for(k = 0; k < c->nstmts; k++){
    if( c->kinds[k]!=GR_I_EXCLUSIVE && c->kinds[k]!=GR_I_REQUIRES && c->kinds[k]!=GR_I_CONFLICTS ) continue;
    st = c->stmts[k];
    if( !gr_diag_code_valid(st->code) ) ck_err(c, st->code_loc, "diagnostic code '%s' must be %s", st->code, GR_DIAG_CODE_RULE);
    do_relation(c, st, &rs->relations[rs->nrelations++]);
  }
}

/* each slot: statements that can have no effect */
static void check_slots_effect(ck *c){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t k, si = 0;
  CK_EACH_KIND(c, k, st, GR_I_SLOT){
    if( gr_ruleset_find(&rs->slot_map, st->name)==(int)si ) check_noeffect(c, st, &rs->slots[si++]);
  }
}

/* statements that belong inside a block, found at top level, cannot happen
** (the grammar has no such production); coverage warnings: */
static void warn_unstated_support(ck *c){
  gr_ruleset *rs = c->rs;
  size_t i;
  for(i = 0; i < rs->noptions; i++){
    if( !rs->options[i].support.stated ){
      ck_warn(c, rs->options[i].loc, "option %s states no product support (assumed supported on every product line)", rs->options[i].name);
    }
  }
  for(i = 0; i < rs->nmodes; i++){
    if( !rs->modes[i].support.stated ){
      ck_warn(c, rs->modes[i].loc, "mode %s states no product support (assumed supported on every product line)", rs->modes[i].name);
    }
  }
}

static void check_all(ck *c){
  ck_counts n;
  ck_decl_locs l;
  count_statements(c, &n);
  alloc_tables(c, &n);
  l.cap = gr_xcalloc(n.cap + 1, sizeof(gr_loc));
  l.hw = gr_xcalloc(n.hw + 1, sizeof(gr_loc));
  l.prod = gr_xcalloc(n.prod + 1, sizeof(gr_loc));
  l.opt = gr_xcalloc(n.opt + 1, sizeof(gr_loc));
  l.mode = gr_xcalloc(n.mode + 1, sizeof(gr_loc));
  l.tab = gr_xcalloc(n.tab + 1, sizeof(gr_loc));
  l.slot = gr_xcalloc(n.slot + 1, sizeof(gr_loc));
  l.src = gr_xcalloc(n.src + n.rule + 1, sizeof(gr_loc));
  declare_names(c, &l);
  fill_declarations(c);
  declare_partitions(c, n.part);
  declare_sources_and_rules(c, l.src);
  check_relations(c);
  ck_cascades(c);
  ck_shadowing(c);
  ck_onnx(c);
  ck_judge(c);
  check_slots_effect(c);
  warn_unstated_support(c);
  free(l.cap); free(l.hw); free(l.prod); free(l.opt); free(l.mode);
  free(l.tab); free(l.slot); free(l.src);
}

int gr_check_all(gr_ruleset *rs, const ck_sources *src, gr_diags *diags){
  ck c;
  memset(&c, 0, sizeof c);
  c.rs = rs; c.diags = diags; c.src = src;
  gr_check_layers(&c);
  if( c.nerr ) return c.nerr;
  {
    gr_item *st;
    size_t n = 0;
    for(st = rs->ast; st; st = st->next) n++;
    c.stmts = gr_xmalloc((n + 1) * sizeof *c.stmts);
    c.kinds = gr_xmalloc(n + 1);
    for(st = rs->ast; st; st = st->next){ c.stmts[c.nstmts] = st; c.kinds[c.nstmts++] = (uint8_t)st->kind; }
  }
  ck_conds(&c);
  check_all(&c);
  if( c.nerr==0 ) ck_oplib(&c);
  ck_conds_free(&c);
  if( c.nerr==0 ) ck_codes(&c);
  free(c.stmts); free(c.kinds);
  return c.nerr;
}
