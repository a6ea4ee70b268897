/*
** check.c: turns the syntax trees of all rule files into a gr_ruleset. It
** loads files and directories (following includes, refusing cycles), then
** declares every name, resolves references, type-checks every expression
** and template, merges each slot's cascade statements into one total order,
** and runs the static checks: duplicates, unknown names, type mismatches,
** values an option can never have, conditions that can never hold, sources
** that can never win, unsupported-cell coverage. It reports every semantic
** error it finds, not only the first, each located with a caret line.
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lang/ruleset.h"

#define MAXVARS GR_MAXVARS

typedef struct ck {
  gr_ruleset *rs;
  gr_diags *diags;
  int nerr;
  /* expression scope */
  int scope;              /* GR_SCOPE_* or -1 for option defaults */
  int allow_other;        /* relation templates */
  int allow_count;        /* `once` templates */
  int in_source;          /* checking a source branch: slot values are not available */
  struct { const char *name; uint8_t type, dep; int slot; } vars[MAXVARS];
  int nvars, maxslots;
} ck;

/* ------------------------------------------------------------------ */
/* messages */

static const char *text_of(const gr_ruleset *rs, const char *file){
  size_t i;
  if( rs->texts==NULL ) return NULL;
  for(i = 0; i < rs->nfiles; i++) if( rs->files[i]==file ) return rs->texts[i];
  return NULL;
}

static gr_diag *vreport(ck *c, gr_severity sev, gr_loc loc, const char *fmt, va_list ap){
  gr_diag *d = gr_diags_vadd(c->diags, sev, loc.file, loc.line, loc.col, fmt, ap);
  if( loc.line ) d->snippet = gr_source_line(text_of(c->rs, loc.file), loc.line);
  if( sev==GR_SEV_ERROR ) c->nerr++;
  return d;
}
static void err(ck *c, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(ck *c, gr_loc loc, const char *fmt, ...){
  va_list ap; va_start(ap, fmt); vreport(c, GR_SEV_ERROR, loc, fmt, ap); va_end(ap);
}
static void warn(ck *c, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(ck *c, gr_loc loc, const char *fmt, ...){
  va_list ap; va_start(ap, fmt); vreport(c, GR_SEV_WARNING, loc, fmt, ap); va_end(ap);
}

static void where(char *buf, size_t n, gr_loc l){
  snprintf(buf, n, "%s:%u", l.file ? l.file : "?", l.line);
}

/* ------------------------------------------------------------------ */
/* small helpers */

int gr_ruleset_find(const gr_map *m, const char *name){
  void *v = gr_map_get(m, name);
  return v ? (int)(intptr_t)v - 1 : -1;
}
static void *idx(int i){ return (void*)(intptr_t)(i + 1); }

static const char *suggest_map(const gr_map *m, const char *word, char *buf, size_t n){
  const char **names = gr_xmalloc((m->n + 1) * sizeof *names);
  const char *s;
  size_t i, k = 0;
  for(i = 0; i < m->n; i++) names[k++] = m->e[i].key;
  s = gr_suggest(word, names, k);
  if( s ) snprintf(buf, n, "; did you mean '%s'?", s); else buf[0] = 0;
  free(names);
  return buf;
}

/* Declares name in map m, reporting a duplicate. Returns 0 on duplicate. */
static int declare(ck *c, gr_map *m, const char *what, const char *name, gr_loc loc,
                   const gr_loc *locs, int i){
  void *prev = gr_map_put(m, name, idx(i));
  if( prev ){
    char w[256];
    where(w, sizeof w, locs[(intptr_t)prev - 1]);
    err(c, loc, "duplicate definition of %s '%s' (first defined at %s)", what, name, w);
    return 0;
  }
  return 1;
}

static const char *intern(gr_ruleset *rs, const char *s){
  return s ? gr_arena_strndup(&rs->arena, s, strlen(s)) : NULL;
}

int gr_support_on(const gr_support *s, int product){
  return s->on ? s->on[product] : 1;
}

const char *gr_type_name(int t){
  static const char *names[] = { "any", "null", "bool", "int", "string", "list", "node",
    "input", "inputs", "attributes", "chip", "option", "entry", "relation option", "table", "graph" };
  return t >= 0 && t < (int)(sizeof names / sizeof *names) ? names[t] : "?";
}
/* "an int", "a string"...: a type name with its article, for messages */
static const char *a_type(int t){
  static const char *names[] = { "a value of any type", "null", "a bool", "an int", "a string", "a list", "a node",
    "an input", "node.input", "node.attr", "the chip", "an option", "an entry", "a relation option", "a table", "the graph" };
  return t >= 0 && t < (int)(sizeof names / sizeof *names) ? names[t] : "?";
}

const char *gr_option_type_name(int t){
  static const char *names[] = { "?", "enum", "bool", "int", "string", "file", "list", "soc" };
  return t >= 0 && t <= GR_OT_SOC ? names[t] : "?";
}

/* ------------------------------------------------------------------ */
/* loading files */

typedef struct loader {
  gr_ruleset *rs;
  gr_diags *diags;
  int nerr;
  gr_map seen;            /* real path -> 1 */
  char **stack; size_t nstack, capstack;   /* real paths being loaded (include cycles) */
  gr_item **tail;
} loader;

static const char *add_file(gr_ruleset *rs, const char *name, char *text){
  rs->files = gr_xrealloc(rs->files, (rs->nfiles + 1) * sizeof *rs->files);
  rs->texts = gr_xrealloc(rs->texts, (rs->nfiles + 1) * sizeof *rs->texts);
  rs->files[rs->nfiles] = gr_xstrdup(name);
  rs->texts[rs->nfiles] = text;
  return rs->files[rs->nfiles++];
}

static int load_one(loader *ld, const char *path, const gr_loc *from);

static void load_error(loader *ld, const gr_loc *from, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void load_error(loader *ld, const gr_loc *from, const char *fmt, ...){
  va_list ap;
  gr_diag *d;
  va_start(ap, fmt);
  if( from ){
    d = gr_diags_vadd(ld->diags, GR_SEV_ERROR, from->file, from->line, from->col, fmt, ap);
    d->snippet = gr_source_line(text_of(ld->rs, from->file), from->line);
  }else{
    d = gr_diags_vadd(ld->diags, GR_SEV_ERROR, NULL, 0, 0, fmt, ap);
  }
  va_end(ap);
  ld->nerr++;
}

static int cmp_str(const void *a, const void *b){ return strcmp(*(char*const*)a, *(char*const*)b); }

static void collect_dir(const char *dir, char ***out, size_t *n, int depth){
  DIR *d = opendir(dir);
  struct dirent *e;
  if( d==NULL || depth > 16 ){ if( d ) closedir(d); return; }
  while( (e = readdir(d))!=NULL ){
    char *p;
    struct stat st;
    size_t l = strlen(e->d_name);
    if( e->d_name[0]=='.' ) continue;
    p = gr_xasprintf("%s/%s", dir, e->d_name);
    if( stat(p, &st)==0 && S_ISDIR(st.st_mode) ){
      collect_dir(p, out, n, depth + 1);
      free(p);
    }else if( l > 6 && strcmp(e->d_name + l - 6, ".rules")==0 ){
      *out = gr_xrealloc(*out, (*n + 1) * sizeof **out);
      (*out)[(*n)++] = p;
    }else{
      free(p);
    }
  }
  closedir(d);
}

static int load_path(loader *ld, const char *path){
  struct stat st;
  if( stat(path, &st)!=0 ){
    load_error(ld, NULL, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  if( S_ISDIR(st.st_mode) ){
    char **files = NULL;
    size_t n = 0, i;
    char *dir = gr_xstrdup(path);
    size_t l = strlen(dir);
    while( l > 1 && dir[l-1]=='/' ) dir[--l] = 0;
    collect_dir(dir, &files, &n, 0);
    if( n ) qsort(files, n, sizeof *files, cmp_str);
    if( n==0 ) load_error(ld, NULL, "%s: no .rules file in this directory", path);
    for(i = 0; i < n; i++){ load_one(ld, files[i], NULL); free(files[i]); }
    free(files);
    free(dir);
    return 0;
  }
  return load_one(ld, path, NULL);
}

static int load_one(loader *ld, const char *path, const gr_loc *from){
  char rp[PATH_MAX];
  char *text;
  size_t len, i;
  gr_error e;
  gr_parse ps;
  const char *name;
  gr_item *it, *first;

  if( realpath(path, rp)==NULL ){
    if( from ) load_error(ld, from, "cannot include '%s': %s", path, strerror(errno));
    else load_error(ld, NULL, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  for(i = 0; i < ld->nstack; i++){
    if( strcmp(ld->stack[i], rp)==0 ){
      load_error(ld, from, "include cycle: '%s' includes itself through its includes", path);
      return -1;
    }
  }
  if( gr_map_get(&ld->seen, rp) ) return 0;     /* already read: include once */
  {
    struct stat st;
    if( stat(rp, &st)!=0 || !S_ISREG(st.st_mode) ){
      if( from ) load_error(ld, from, "cannot include '%s': not a regular file", path);
      else load_error(ld, NULL, "%s: not a regular file", path);
      return -1;
    }
  }
  text = gr_read_file(path, &len, &e);
  if( text==NULL ){
    if( from ) load_error(ld, from, "cannot include '%s': %s", path, e.msg);
    else load_error(ld, NULL, "%s: %s", path, e.msg);
    return -1;
  }
  if( strlen(text)!=len ){
    /* an embedded NUL: report where it is, as the lexer would */
    gr_loc l; uint32_t line = 1, col = 1;
    size_t k;
    name = add_file(ld->rs, path, text);
    for(k = 0; text[k]; k++){ if( text[k]=='\n' ){ line++; col = 1; } else col++; }
    l.file = name; l.line = line; l.col = col;
    load_error(ld, &l, "unexpected byte 0x00");
    return -1;
  }
  name = add_file(ld->rs, path, text);
  gr_map_put(&ld->seen, gr_arena_strndup(&ld->rs->arena, rp, strlen(rp)), idx(0));

  memset(&ps, 0, sizeof ps);
  ps.file = name;
  ps.diags = ld->diags;
  gr_parse_text(&ps, text, len);
  ld->nerr += ps.nerr;
  first = ps.head;
  *ld->tail = ps.head;
  while( *ld->tail ) ld->tail = &(*ld->tail)->next;
  if( ps.nerr ) return -1;

  /* includes, relative to this file */
  if( ld->nstack==ld->capstack ){
    ld->capstack = ld->capstack ? ld->capstack * 2 : 8;
    ld->stack = gr_xrealloc(ld->stack, ld->capstack * sizeof *ld->stack);
  }
  ld->stack[ld->nstack++] = gr_xstrdup(rp);
  {
    /* this file's own include statements, collected before nested loads
    ** append their statements to the same list */
    gr_item **incs = NULL;
    size_t ninc = 0, k;
    gr_item *stop = *ld->tail;
    for(it = first; it && it!=stop; it = it->next){
      if( it->kind==GR_I_INCLUDE ){ incs = gr_xrealloc(incs, (ninc + 1) * sizeof *incs); incs[ninc++] = it; }
    }
    for(k = 0; k < ninc; k++){
      it = incs[k];
      char *dir = gr_xstrdup(path), *slash = strrchr(dir, '/'), *target;
      if( it->str[0]=='/' ) target = gr_xstrdup(it->str);
      else if( slash ){ *slash = 0; target = gr_xasprintf("%s/%s", dir, it->str); }
      else target = gr_xstrdup(it->str);
      if( ld->nstack > 64 ) load_error(ld, &it->str_loc, "includes nested too deeply");
      else load_one(ld, target, &it->str_loc);
      free(target);
      free(dir);
    }
    free(incs);
  }
  free(ld->stack[--ld->nstack]);
  return 0;
}

/* ------------------------------------------------------------------ */
/* support statements */

static void check_support(ck *c, gr_support *s, gr_item *it){
  gr_ruleset *rs = c->rs;
  gr_name *n;
  size_t p;
  if( s->stated ){
    char w[256];
    where(w, sizeof w, s->loc);
    err(c, it->loc, "support is already stated at %s", w);
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
      s->reason = intern(rs, it->str);
      break;
  }
  for(n = it->names; n; n = n->next){
    int pi = gr_ruleset_find(&rs->product_map, n->s);
    if( pi < 0 ){
      char sug[128];
      err(c, n->loc, "unknown product line '%s'%s", n->s, suggest_map(&rs->product_map, n->s, sug, sizeof sug));
      continue;
    }
    if( it->flag==GR_SUP_LIST ){
      if( s->on[pi] ) warn(c, n->loc, "product line '%s' is listed twice", n->s);
      s->on[pi] = 1;
    }else{
      s->on[pi] = 0;
    }
  }
}

/* ------------------------------------------------------------------ */
/* expressions */

static uint8_t maxdep(uint8_t a, uint8_t b){ return a > b ? a : b; }
static int compatible(uint8_t a, uint8_t b){
  return a==b || a==GR_T_ANY || b==GR_T_ANY || a==GR_T_NULL || b==GR_T_NULL;
}

static uint8_t check_expr(ck *c, gr_expr *e);

static uint8_t want(ck *c, gr_expr *e, uint8_t t, const char *what){
  uint8_t got = check_expr(c, e);
  if( got!=GR_T_ANY && got!=t && !(got==GR_T_NULL && t!=GR_T_BOOL) ){
    err(c, e->loc, "%s must be %s, not %s", what, a_type(t), a_type(got));
  }
  return got;
}

static gr_option *option_ref(ck *c, const char *name, gr_loc loc){
  int i = gr_ruleset_find(&c->rs->option_map, name);
  if( i < 0 ){
    char sug[128];
    err(c, loc, "unknown option '%s'%s", name, suggest_map(&c->rs->option_map, name, sug, sizeof sug));
    return NULL;
  }
  return &c->rs->options[i];
}

static int option_has_value(const gr_option *o, const char *v){
  size_t i;
  for(i = 0; i < o->nvalues; i++) if( strcmp(o->values[i], v)==0 ) return 1;
  return 0;
}

/* `option X == "lit"`: the literal must be a value X can have. */
static void check_option_literal(ck *c, const gr_expr *opt, const gr_expr *lit){
  const gr_option *o;
  if( opt->op!=GR_E_OPTION || lit->op!=GR_E_STR || opt->ptr==NULL ) return;
  o = opt->ptr;
  if( (o->type==GR_OT_ENUM || o->type==GR_OT_BOOL) && o->nvalues && !option_has_value(o, lit->s) && lit->s[0] ){
    err(c, lit->loc, "option %s can never be '%s' (its values: %s%s)", o->name, lit->s,
        o->values[0], o->nvalues > 1 ? ", ..." : "");
  }
}

static void check_runmode_literal(ck *c, const gr_expr *a, const gr_expr *b){
  if( a->op==GR_E_RUNMODE && b->op==GR_E_STR && strcmp(b->s, "inference") && strcmp(b->s, "training") ){
    err(c, b->loc, "run_mode is \"inference\" or \"training\", never '%s'", b->s);
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
        err(c, e->sloc, "chip has no field '%s' (soc, product, title or a hardware property)%s", f,
            suggest_map(&rs->hw_map, f, sug, sizeof sug));
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
      {
        size_t k;
        for(k = 0; k < rs->nslots; k++){
          int is_src = strcmp(f, rs->slots[k].report_key ? rs->slots[k].report_key : "")==0;
          if( strcmp(f, rs->slots[k].name)!=0 && !is_src ) continue;
          if( c->in_source ){
            err(c, e->sloc, "the decided value of slot %s is available to rules, not to sources (a source cannot depend on a decision)", rs->slots[k].name);
          }else if( e->a->op!=GR_E_NODE ){
            err(c, e->sloc, "only the current node's decisions can be read ('node.%s')", f);
          }
          e->ref = is_src ? GR_F_SLOT_SOURCE : GR_F_SLOT;
          e->ref2 = (int32_t)k;
          return GR_T_STR;
        }
      }
      err(c, e->sloc, "node has no field '%s' (name, type, graph, static, dynamic, inputs, outputs, input, attr, or a slot)", f);
      return GR_T_ANY;
    case GR_T_INPUT:
      F("connected", GR_F_CONNECTED, GR_T_BOOL);
      F("producer", GR_F_PRODUCER, GR_T_NODE);
      F("index", GR_F_INDEX, GR_T_INT);
      err(c, e->sloc, "an input has no field '%s' (connected, producer, index)", f);
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
      err(c, e->sloc, "option has no field '%s' (name, key, value, known, valid, problem, supported, value_supported, effective, given, deprecated, suggestion, origin)", f);
      return GR_T_ANY;
    case GR_T_ENTRY:
      F("option", GR_F_OPTION, GR_T_STR);
      F("section", GR_F_SECTION, GR_T_STR);
      F("key", GR_F_KEY, GR_T_STR);
      F("value", GR_F_VALUE, GR_T_STR);
      F("matched", GR_F_MATCHED, GR_T_BOOL);
      F("file", GR_F_FILE, GR_T_STR);
      F("line", GR_F_LINE, GR_T_INT);
      err(c, e->sloc, "entry has no field '%s' (option, section, key, value, matched, file, line)", f);
      return GR_T_ANY;
    case GR_T_OTHER:
      F("name", GR_F_NAME, GR_T_STR);
      err(c, e->sloc, "'other' has only the field 'name'");
      return GR_T_ANY;
    case GR_T_GRAPH:
      F("name", GR_F_NAME, GR_T_STR);
      F("static", GR_F_STATIC, GR_T_BOOL);
      F("dynamic", GR_F_DYNAMIC, GR_T_BOOL);
      F("nodes", GR_F_NODES, GR_T_INT);
      err(c, e->sloc, "graph has no field '%s' (name, static, dynamic, nodes)", f);
      return GR_T_ANY;
    case GR_T_ANY:
      return GR_T_ANY;
    default:
      err(c, e->sloc, "%s has no fields", a_type(base));
      return GR_T_ANY;
  }
#undef F
}

static uint8_t check_expr_inner(ck *c, gr_expr *e){
  gr_ruleset *rs = c->rs;
  uint8_t ta, tb;
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
        uint8_t t = check_expr(c, x);
        e->dep = maxdep(e->dep, x->dep);
        if( el==GR_T_NULL ) el = t;
        else if( t!=el ) el = GR_T_ANY;
      }
      e->elem = el==GR_T_NULL ? GR_T_ANY : el;
      return GR_T_LIST;
    }
    case GR_E_RUNMODE:
      e->dep = GR_DEP_GLOBAL; return GR_T_STR;
    case GR_E_CHIP:
      e->dep = GR_DEP_GLOBAL; return GR_T_CHIP;
    case GR_E_GRAPH:
      e->dep = GR_DEP_GLOBAL; return GR_T_GRAPH;
    case GR_E_NODE:
      if( c->scope!=GR_SCOPE_NODE ){
        err(c, e->loc, "'node' is only available in sources and in rules 'for each node'");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_NODE;
    case GR_E_ENTRY:
      if( c->scope!=GR_SCOPE_ENTRY ){
        err(c, e->loc, "'entry' is only available in rules 'for each entry'");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_ENTRY;
    case GR_E_OPTSCOPE:
      if( c->scope!=GR_SCOPE_OPTION ){
        err(c, e->loc, "'option.' is only available in rules 'for each option' and relation messages");
        return GR_T_ANY;
      }
      e->dep = GR_DEP_ITEM; return GR_T_OPTREF;
    case GR_E_OPTION: {
      gr_option *o = option_ref(c, e->s, e->sloc);
      e->dep = GR_DEP_GLOBAL;
      if( o==NULL ) return GR_T_ANY;
      e->ptr = o; e->ref = o->index;
      if( o->type==GR_OT_INT ) return GR_T_INT;
      if( o->type==GR_OT_LIST ){ e->elem = GR_T_STR; return GR_T_LIST; }
      return GR_T_STR;
    }
    case GR_E_OPTSET: {
      gr_option *o = option_ref(c, e->s, e->sloc);
      e->dep = GR_DEP_GLOBAL;
      if( o ){ e->ptr = o; e->ref = o->index; }
      return GR_T_BOOL;
    }
    case GR_E_HAS: {
      int ci = gr_ruleset_find(&rs->cap_map, e->s);
      e->dep = GR_DEP_GLOBAL;
      if( ci < 0 ){
        char sug[128];
        err(c, e->sloc, "unknown capability '%s'%s", e->s, suggest_map(&rs->cap_map, e->s, sug, sizeof sug));
      }
      e->ref = ci;
      return GR_T_BOOL;
    }
    case GR_E_SUPPORTS: {
      gr_option *o = option_ref(c, e->s, e->sloc);
      e->dep = GR_DEP_GLOBAL;
      if( o ){ e->ptr = o; e->ref = o->index; }
      if( e->a ){
        want(c, e->a, GR_T_STR, "the value in 'chip supports OPTION = VALUE'");
        e->dep = maxdep(e->dep, e->a->dep);
        if( o && e->a->op==GR_E_STR && o->nvalues && !option_has_value(o, e->a->s) ){
          err(c, e->a->loc, "'%s' is not a value of option %s", e->a->s, o->name);
        }
      }
      return GR_T_BOOL;
    }
    case GR_E_SUPPORTS_MODE:
      want(c, e->a, GR_T_STR, "the mode in 'chip supports mode'");
      e->dep = maxdep(GR_DEP_GLOBAL, e->a->dep);
      if( e->a->op==GR_E_STR && gr_ruleset_find(&rs->mode_map, e->a->s) < 0 ){
        char sug[128];
        err(c, e->a->loc, "unknown mode '%s'%s", e->a->s, suggest_map(&rs->mode_map, e->a->s, sug, sizeof sug));
      }
      return GR_T_BOOL;
    case GR_E_NOT:
      want(c, e->a, GR_T_BOOL, "the operand of 'not'");
      e->dep = e->a->dep;
      return GR_T_BOOL;
    case GR_E_AND: case GR_E_OR:
      want(c, e->a, GR_T_BOOL, e->op==GR_E_AND ? "an operand of 'and'" : "an operand of 'or'");
      want(c, e->b, GR_T_BOOL, e->op==GR_E_AND ? "an operand of 'and'" : "an operand of 'or'");
      e->dep = maxdep(e->a->dep, e->b->dep);
      return GR_T_BOOL;
    case GR_E_EQ: case GR_E_NE:
      ta = check_expr(c, e->a); tb = check_expr(c, e->b);
      e->dep = maxdep(e->a->dep, e->b->dep);
      if( !compatible(ta, tb) || ta==GR_T_TABLE || tb==GR_T_TABLE ){
        err(c, e->loc, "cannot compare %s with %s", a_type(ta), a_type(tb));
      }
      check_option_literal(c, e->a, e->b); check_option_literal(c, e->b, e->a);
      check_runmode_literal(c, e->a, e->b); check_runmode_literal(c, e->b, e->a);
      return GR_T_BOOL;
    case GR_E_LT: case GR_E_LE: case GR_E_GT: case GR_E_GE:
      want(c, e->a, GR_T_INT, "an operand of an ordering comparison");
      want(c, e->b, GR_T_INT, "an operand of an ordering comparison");
      e->dep = maxdep(e->a->dep, e->b->dep);
      return GR_T_BOOL;
    case GR_E_IN: case GR_E_NOTIN:
      ta = check_expr(c, e->a); tb = check_expr(c, e->b);
      e->dep = maxdep(e->a->dep, e->b->dep);
      if( tb==GR_T_TABLE ){
        if( ta!=GR_T_STR && ta!=GR_T_ANY && ta!=GR_T_NULL ) err(c, e->a->loc, "table keys are strings, not %s", a_type(ta));
      }else if( tb==GR_T_LIST ){
        if( !compatible(ta, e->b->elem) ) err(c, e->a->loc, "cannot look for %s in a list of %s values", a_type(ta), gr_type_name(e->b->elem));
        if( e->b->op==GR_E_LIST ){
          gr_expr *x;
          for(x = e->b->a; x; x = x->next) check_option_literal(c, e->a, x);
        }
      }else if( tb!=GR_T_ANY ){
        err(c, e->b->loc, "'in' needs a table or a list on its right, not %s", a_type(tb));
      }
      return GR_T_BOOL;
    case GR_E_ANY: case GR_E_ALL: {
      uint8_t lt = check_expr(c, e->a), vt = GR_T_ANY;
      if( lt==GR_T_LIST ) vt = e->a->elem;
      else if( lt==GR_T_TABLE ) vt = GR_T_STR;
      else if( lt==GR_T_INPUTS ) vt = GR_T_INPUT;
      else if( lt!=GR_T_ANY && lt!=GR_T_NULL ) err(c, e->a->loc, "'%s' needs a list, a table or node.input to range over, not %s",
                                                    e->op==GR_E_ANY ? "any" : "all", a_type(lt));
      if( c->nvars >= MAXVARS || c->maxslots >= GR_MAXVARS ){
        err(c, e->sloc, "too many quantifiers in one condition (at most %d)", GR_MAXVARS);
        return GR_T_BOOL;
      }
      c->vars[c->nvars].name = e->s;
      c->vars[c->nvars].type = vt;
      e->elem = vt;
      c->vars[c->nvars].dep = GR_DEP_ITEM;    /* bound per evaluation of the body */
      c->vars[c->nvars].slot = c->maxslots;
      e->ref = c->maxslots++;
      c->nvars++;
      want(c, e->b, GR_T_BOOL, "the condition of a quantifier");
      c->nvars--;          /* out of scope after the body (templates re-bind the witness) */
      e->dep = maxdep(e->a->dep, e->b->dep);
      return GR_T_BOOL;
    }
    case GR_E_NAME: {
      int i, ti;
      for(i = c->nvars - 1; i >= 0; i--){
        if( strcmp(c->vars[i].name, e->s)==0 ){
          e->ref = GR_NAME_VAR; e->ref2 = c->vars[i].slot; e->dep = c->vars[i].dep;
          return c->vars[i].type;
        }
      }
      if( c->allow_count && strcmp(e->s, "count")==0 ){ e->ref = GR_NAME_COUNT; e->dep = GR_DEP_ITEM; return GR_T_INT; }
      if( c->allow_other && strcmp(e->s, "other")==0 ){ e->ref = GR_NAME_OTHER; e->dep = GR_DEP_ITEM; return GR_T_OTHER; }
      ti = gr_ruleset_find(&rs->table_map, e->s);
      if( ti >= 0 ){ e->ref = GR_NAME_TABLE; e->ptr = &rs->tables[ti]; e->dep = GR_DEP_CONST; return GR_T_TABLE; }
      if( strcmp(e->s, "count")==0 ){
        err(c, e->sloc, "'count' is only available in the message of a rule 'for each node' marked 'once'");
        return GR_T_ANY;
      }
      if( strcmp(e->s, "other")==0 ){
        err(c, e->sloc, "'other' is only available in the message of an exclusive, requires or conflicts relation");
        return GR_T_ANY;
      }
      {
        char sug[128];
        err(c, e->sloc, "unknown name '%s' (not a table or a bound variable)%s", e->s,
            suggest_map(&rs->table_map, e->s, sug, sizeof sug));
      }
      return GR_T_ANY;
    }
    case GR_E_FIELD: {
      uint8_t bt = check_expr(c, e->a), t;
      t = field_type(c, e, bt);
      e->dep = e->a->dep;
      if( bt==GR_T_NODE ){
        /* only the current node's type can be decided per op type */
        e->dep = (e->a->op==GR_E_NODE && e->ref==GR_F_TYPE) ? GR_DEP_TYPE : GR_DEP_ITEM;
      }
      if( e->ref==GR_F_PRODUCER || bt==GR_T_INPUT ) e->dep = GR_DEP_ITEM;
      return t;
    }
    case GR_E_INDEX: {
      uint8_t bt = check_expr(c, e->a), kt = check_expr(c, e->b);
      e->dep = maxdep(e->a->dep, e->b->dep);
      switch( bt ){
        case GR_T_TABLE: {
          const gr_table *t = e->a->ptr;
          if( kt!=GR_T_STR && kt!=GR_T_ANY && kt!=GR_T_NULL ) err(c, e->b->loc, "table keys are strings, not %s", a_type(kt));
          if( e->a->op==GR_E_INI ) return GR_T_STR;
          if( t && !t->is_map ){
            err(c, e->loc, "table '%s' is a set: test membership with 'in' instead of [ ]", t->name);
            return GR_T_ANY;
          }
          if( t && e->b->op==GR_E_STR && gr_map_get(&t->keymap, e->b->s)==NULL ){
            err(c, e->b->loc, "table '%s' has no key '%s'", t->name, e->b->s);
          }
          if( t && t->vtype==GR_T_LIST ) e->elem = GR_T_ANY;
          return t ? t->vtype : GR_T_ANY;
        }
        case GR_T_INPUTS:
          if( kt!=GR_T_INT && kt!=GR_T_ANY ) err(c, e->b->loc, "an input index is an int, not %s", a_type(kt));
          e->dep = GR_DEP_ITEM;
          return GR_T_INPUT;
        case GR_T_ATTRS:
          if( kt!=GR_T_STR && kt!=GR_T_ANY ) err(c, e->b->loc, "an attribute name is a string, not %s", a_type(kt));
          return GR_T_ANY;
        case GR_T_LIST:
          if( kt!=GR_T_INT && kt!=GR_T_ANY ) err(c, e->b->loc, "a list index is an int, not %s", a_type(kt));
          return e->a->elem;
        case GR_T_ANY:
          return GR_T_ANY;
        default:
          err(c, e->loc, "%s cannot be indexed with [ ]", a_type(bt));
          return GR_T_ANY;
      }
    }
    case GR_E_INI: {
      gr_option *o = option_ref(c, e->s, e->sloc);
      size_t k;
      e->dep = GR_DEP_GLOBAL;
      if( o==NULL ) return GR_T_ANY;
      e->ptr = o; e->ref = o->index;
      if( o->format==NULL ){
        err(c, e->sloc, "option %s is not an ini-format file option (it has no 'format ini' block)", o->name);
        return GR_T_ANY;
      }
      for(k = 0; k < o->format->nsections; k++){
        if( strcmp(o->format->sections[k].name, e->s2)==0 ){ e->ref2 = (int32_t)k; return GR_T_TABLE; }
      }
      err(c, e->s2loc, "option %s has no ini section '%s'", o->name, e->s2);
      return GR_T_ANY;
    }
  }
  err(c, e->loc, "unsupported expression");
  return GR_T_ANY;
}

static uint8_t check_expr(ck *c, gr_expr *e){
  e->type = check_expr_inner(c, e);
  return e->type;
}

/* ------------------------------------------------------------------ */
/* templates */

static void check_template(ck *c, gr_template *t, const char *raw, gr_loc loc){
  gr_buf lit;
  const char *p = raw;
  size_t cap = 0;
  t->loc = loc;
  gr_buf_init(&lit);
  while( *p ){
    if( p[0]=='{' && p[1]=='{' ){ gr_buf_addc(&lit, '{'); p += 2; continue; }
    if( p[0]=='}' && p[1]=='}' ){ gr_buf_addc(&lit, '}'); p += 2; continue; }
    if( p[0]=='}' ){
      gr_loc l = loc; l.col += (uint32_t)(p - raw) + 1;
      err(c, l, "unmatched '}' in message template (write '}}' for a literal brace)");
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
        err(c, l, "unclosed '{' in message template (write '{{' for a literal brace)");
        break;
      }
      if( t->n==cap ){ cap = cap ? cap * 2 : 4; t->parts = gr_xrealloc(t->parts, cap * sizeof *t->parts); }
      t->parts[t->n].lit = gr_buf_detach(&lit);
      body = gr_lex_unescape(p + 1, (size_t)(q - p - 1));
      e = gr_parse_placeholder(loc.file, text_of(c->rs, loc.file), body, strlen(body), l.line, l.col + 1, c->diags);
      if( e==NULL ){
        c->nerr++;
      }else{
        uint8_t ty = check_expr(c, e);
        if( ty==GR_T_CHIP || ty==GR_T_INPUT || ty==GR_T_INPUTS || ty==GR_T_ATTRS || ty==GR_T_OPTREF
            || ty==GR_T_ENTRY || ty==GR_T_OTHER || ty==GR_T_TABLE ){
          err(c, e->loc, "%s cannot be written into a message; use one of its fields", a_type(ty));
        }
      }
      t->parts[t->n].e = e;
      t->n++;
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
  if( t->n==cap ){ cap = cap ? cap * 2 : 1; t->parts = gr_xrealloc(t->parts, cap * sizeof *t->parts); }
  t->parts[t->n].lit = gr_buf_detach(&lit);
  t->parts[t->n].e = NULL;
  t->n++;
  if( t->n==1 ) t->constant = t->parts[0].lit;
}

static void free_template(gr_template *t){
  size_t i;
  for(i = 0; i < t->n; i++){ free(t->parts[i].lit); gr_expr_free(t->parts[i].e); }
  free(t->parts);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ */
/* static truth of conditions: 1 always, 0 never, -1 depends */

typedef struct atom { const gr_option *opt; int kind; const char *lit; int pol; const gr_expr *e; } atom;
enum { A_SET = 1, A_EQ, A_STATIC };

static int any_soc_has(const gr_ruleset *rs, int cap){
  size_t i;
  for(i = 0; i < rs->nsocs; i++) if( rs->socs[i].caps[cap] ) return 1;
  return 0;
}

static int truth(const gr_ruleset *rs, const gr_expr *e, char *why, size_t nwhy){
  int a, b;
  if( e==NULL ) return 1;
  switch( e->op ){
    case GR_E_BOOL: return e->i ? 1 : 0;
    case GR_E_NOT:
      a = truth(rs, e->a, why, nwhy);
      return a < 0 ? -1 : !a;
    case GR_E_AND:
      a = truth(rs, e->a, why, nwhy);
      if( a==0 ) return 0;
      b = truth(rs, e->b, why, nwhy);
      if( b==0 ) return 0;
      return (a==1 && b==1) ? 1 : -1;
    case GR_E_OR:
      a = truth(rs, e->a, why, nwhy);
      if( a==1 ) return 1;
      b = truth(rs, e->b, why, nwhy);
      if( b==1 ) return 1;
      if( a==0 && b==0 ) return 0;
      return -1;
    case GR_E_HAS:
      if( e->ref >= 0 && !any_soc_has(rs, e->ref) ){
        snprintf(why, nwhy, "no chip has the capability '%s'", e->s);
        return 0;
      }
      return -1;
    case GR_E_IN:
      if( e->b->op==GR_E_NAME && e->b->ref==GR_NAME_TABLE && ((const gr_table*)e->b->ptr)->n==0 ){
        snprintf(why, nwhy, "table '%s' is empty", ((const gr_table*)e->b->ptr)->name);
        return 0;
      }
      if( e->b->op==GR_E_LIST && e->b->a==NULL ){
        snprintf(why, nwhy, "the list is empty");
        return 0;
      }
      return -1;
    case GR_E_ANY:
      if( e->a->op==GR_E_LIST && e->a->a==NULL ){ snprintf(why, nwhy, "'any' over an empty list"); return 0; }
      if( e->a->op==GR_E_NAME && e->a->ref==GR_NAME_TABLE && ((const gr_table*)e->a->ptr)->n==0 ){
        snprintf(why, nwhy, "'any' over the empty table '%s'", ((const gr_table*)e->a->ptr)->name);
        return 0;
      }
      return -1;
    default:
      return -1;
  }
}

/* Contradictions among the top-level conjuncts: `option X set` and `not
** option X set`; `option X == "a"` and `option X == "b"`; `node.static` and
** `node.dynamic`. */
static int contradiction(gr_expr **conj, size_t n, char *why, size_t nwhy){
  atom *at = gr_xmalloc((n + 1) * sizeof *at);
  size_t k = 0, i, j;
  int found = 0;
  for(i = 0; i < n; i++){
    const gr_expr *e = conj[i];
    int pol = 1;
    while( e->op==GR_E_NOT ){ pol = !pol; e = e->a; }
    if( e->op==GR_E_OPTSET && e->ptr ){
      at[k].opt = e->ptr; at[k].kind = A_SET; at[k].pol = pol; at[k].lit = NULL; at[k++].e = e;
    }else if( e->op==GR_E_EQ && pol && e->a->op==GR_E_OPTION && e->b->op==GR_E_STR && e->a->ptr ){
      at[k].opt = e->a->ptr; at[k].kind = A_EQ; at[k].pol = 1; at[k].lit = e->b->s; at[k++].e = e;
    }else if( e->op==GR_E_FIELD && e->a->op==GR_E_NODE && (e->ref==GR_F_STATIC || e->ref==GR_F_DYNAMIC) ){
      at[k].opt = NULL; at[k].kind = A_STATIC; at[k].pol = (e->ref==GR_F_STATIC) ? pol : !pol; at[k].lit = NULL; at[k++].e = e;
    }
  }
  for(i = 0; i < k && !found; i++){
    for(j = i + 1; j < k && !found; j++){
      if( at[i].kind!=at[j].kind || at[i].opt!=at[j].opt ) continue;
      if( at[i].kind==A_SET && at[i].pol!=at[j].pol ){
        snprintf(why, nwhy, "it requires option %s to be both set and not set", at[i].opt->name);
        found = 1;
      }else if( at[i].kind==A_EQ && strcmp(at[i].lit, at[j].lit)!=0 ){
        snprintf(why, nwhy, "it requires option %s to be both '%s' and '%s'", at[i].opt->name, at[i].lit, at[j].lit);
        found = 1;
      }else if( at[i].kind==A_STATIC && at[i].pol!=at[j].pol ){
        snprintf(why, nwhy, "it requires the node to be both static and dynamic");
        found = 1;
      }
    }
  }
  free(at);
  return found;
}

static void split_conj(gr_expr *e, gr_expr ***v, size_t *n, size_t *cap){
  if( e==NULL ) return;
  if( e->op==GR_E_AND ){ split_conj(e->a, v, n, cap); split_conj(e->b, v, n, cap); return; }
  if( *n==*cap ){ *cap = *cap ? *cap * 2 : 4; *v = gr_xrealloc(*v, *cap * sizeof **v); }
  (*v)[(*n)++] = e;
}

/* Fills the evaluator's view of a branch: conjuncts, dependency levels and
** an optional node-name index key. Returns the static truth of cond. */
static int prepare_branch(ck *c, gr_branch *b, const char *what, const char *name, int report){
  size_t cap = 0, i;
  char why[256];
  int t;
  b->nconj = 0; b->conj = NULL;
  split_conj(b->cond, &b->conj, &b->nconj, &cap);
  b->cond_dep = GR_DEP_CONST;
  for(i = 0; i < b->nconj; i++){
    gr_expr *e = b->conj[i];
    b->cond_dep = maxdep(b->cond_dep, e->dep);
    if( b->name_key==NULL && b->name_table==NULL && e->op==GR_E_EQ ){
      gr_expr *f = e->a, *l = e->b;
      if( f->op==GR_E_STR ){ f = e->b; l = e->a; }
      if( f->op==GR_E_FIELD && f->a->op==GR_E_NODE && f->ref==GR_F_NAME && l->op==GR_E_STR ) b->name_key = l->s;
    }
    if( b->name_key==NULL && b->name_table==NULL && e->op==GR_E_IN && e->a->op==GR_E_FIELD
        && e->a->a->op==GR_E_NODE && e->a->ref==GR_F_NAME && e->b->op==GR_E_NAME && e->b->ref==GR_NAME_TABLE ){
      b->name_table = e->b->ptr;
    }
  }
  b->value_dep = b->value ? b->value->dep : GR_DEP_CONST;
  why[0] = 0;
  t = truth(c->rs, b->cond, why, sizeof why);
  if( t!=0 && contradiction(b->conj, b->nconj, why, sizeof why) ) t = 0;
  if( t==0 && report ){
    err(c, b->cond ? b->cond->loc : b->loc, "%s '%s' can never fire: %s", what, name, why[0] ? why : "its condition is always false");
  }
  return t;
}

/* ------------------------------------------------------------------ */
/* declarations */

static void bad_item(ck *c, gr_item *it, const char *block){
  static const char *names[] = { NULL, "bundle", "include", "capability", "hardware", "product", "soc",
    "option", "mode", "table", "table entry", "slot", "source", "branch", "cascade", "rule",
    "exclusive", "requires", "conflicts", "description", "version", "cann", "caps", "hardware value",
    "key", "alias", "type", "values", "values mode", "range", "pattern", "separator", "default",
    "support statement", "value block", "deprecated", "format", "section", "initial", "entries",
    "entries mode", "hook" };
  const char *n = it->kind > 0 && it->kind < (int)(sizeof names / sizeof *names) ? names[it->kind] : "item";
  if( it->kind==GR_I_HWVAL ) err(c, it->name_loc, "'%s %lld' is not allowed in %s (a hardware value belongs in a soc block)",
                                 it->name, (long long)it->lo, block);
  else err(c, it->loc, "'%s' is not allowed in %s", n, block);
}

static void once_str(ck *c, const char **dst, gr_item *it, const char *what){
  if( *dst ){ err(c, it->loc, "%s is given twice", what); return; }
  *dst = intern(c->rs, it->str);
}

static void do_bundle(ck *c, gr_item *st){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  if( rs->bundle_name ){
    err(c, st->loc, "a rule set has one bundle statement; '%s' is already declared", rs->bundle_name);
    return;
  }
  rs->bundle_name = intern(rs, st->name);
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_VERSION: once_str(c, &rs->bundle_version, it, "the bundle version"); break;
      case GR_I_CANN: once_str(c, &rs->bundle_cann, it, "the CANN range"); break;
      case GR_I_DESCRIPTION: once_str(c, &rs->bundle_description, it, "the bundle description"); break;
      case GR_I_HOOK: {
        const char *slash = strrchr(it->loc.file, '/');
        char *path = (it->str[0]=='/' || slash==NULL) ? gr_xstrdup(it->str)
                   : gr_xasprintf("%.*s/%s", (int)(slash - it->loc.file), it->loc.file, it->str);
        struct stat st;
        if( stat(path, &st)!=0 || !S_ISREG(st.st_mode) ){
          err(c, it->str_loc, "hook file '%s' not found (looked for %s)", it->str, path);
        }else{
          rs->hook_files = gr_xrealloc(rs->hook_files, (rs->nhook_files + 1) * sizeof *rs->hook_files);
          rs->hook_files[rs->nhook_files++] = intern(rs, path);
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
      err(c, n->loc, "unknown capability '%s'%s", n->s, suggest_map(&c->rs->cap_map, n->s, sug, sizeof sug));
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
  p->name = intern(rs, st->name);
  p->title = intern(rs, st->str);
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
        s->name = intern(rs, it->str);
        s->is_pattern = it->flag;
        s->product = pi;
        s->loc = it->str_loc;
        s->hw = gr_arena_calloc(&rs->arena, (rs->nhw + 1) * sizeof *s->hw);
        s->caps = gr_arena_calloc(&rs->arena, rs->ncaps + 1);
        memcpy(s->caps, p->caps, rs->ncaps);
        if( s->is_pattern ){
          char *anchored = gr_xasprintf("^(%s)$", s->name);
          int rc = regcomp(&s->re, anchored, REG_EXTENDED | REG_NOSUB);
          free(anchored);
          if( rc!=0 ){
            char m[256];
            regerror(rc, &s->re, m, sizeof m);
            err(c, it->str_loc, "invalid pattern /%s/: %s", s->name, m);
            s->is_pattern = 2;   /* nothing to regfree */
          }
        }else{
          if( s->name[0]==0 ) err(c, it->str_loc, "a soc name cannot be empty");
          else{
            void *prev = gr_map_put(&rs->soc_map, s->name, idx((int)rs->nsocs));
            if( prev ){
              char w[256];
              where(w, sizeof w, rs->socs[(intptr_t)prev - 1].loc);
              err(c, it->str_loc, "duplicate definition of soc '%s' (first defined at %s)", s->name, w);
            }
          }
        }
        for(x = it->items; x; x = x->next){
          if( x->kind==GR_I_HWVAL ){
            int hi = gr_ruleset_find(&rs->hw_map, x->name);
            if( hi < 0 ){
              char sug[128];
              err(c, x->name_loc, "unknown hardware property '%s'%s", x->name, suggest_map(&rs->hw_map, x->name, sug, sizeof sug));
            }else if( given[hi] ){
              err(c, x->name_loc, "hardware property '%s' is given twice", x->name);
            }else{
              given[hi] = 1;
              if( x->lo < 0 ) err(c, x->str_loc, "hardware property '%s' cannot be negative", x->name);
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
          if( !given[h] ) err(c, it->str_loc, "soc '%s' does not give hardware property '%s'", s->name, rs->hw_names[h]);
        }
        free(given);
        rs->nsocs++;
        nsoc++;
        break;
      }
      default: bad_item(c, it, "a product block");
    }
  }
  if( nsoc==0 ) warn(c, st->name_loc, "product line '%s' has no soc", p->name);
}

static void check_soc_overlaps(ck *c){
  gr_ruleset *rs = c->rs;
  size_t i, j;
  for(i = 0; i < rs->nsocs; i++){
    if( rs->socs[i].is_pattern ) continue;
    for(j = 0; j < rs->nsocs; j++){
      const gr_soc *p = &rs->socs[j];
      if( p->is_pattern!=1 || p->product==rs->socs[i].product ) continue;
      if( regexec(&p->re, rs->socs[i].name, 0, NULL, 0)==0 ){
        char w[256];
        where(w, sizeof w, p->loc);
        err(c, rs->socs[i].loc, "soc '%s' of product '%s' also matches the pattern /%s/ of product '%s' (%s)",
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
  if( *s==0 ){ err(c, loc, "an option spelling cannot be empty"); return 0; }
  s = intern(rs, s);
  prev = gr_map_put(&rs->spelling_map, s, idx(oi));
  if( prev && (intptr_t)prev - 1 != oi ){
    err(c, loc, "the spelling '%s' already names option %s", s, rs->options[(intptr_t)prev - 1].name);
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
    err(c, st->name_loc, "unknown file format '%s' (gerules reads 'ini')", st->name);
    return;
  }
  if( o->format ){ err(c, st->loc, "option %s already has a format", o->name); return; }
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
          if( strcmp(f->sections[k].name, it->name)==0 ){ err(c, it->name_loc, "section '%s' is declared twice", it->name); break; }
        }
        if( k < f->nsections ) break;
        s->name = intern(rs, it->name);
        s->loc = it->name_loc;
        if( it->e->op==GR_E_FIELD && it->e->a->op==GR_E_NODE && strcmp(it->e->s, "name")==0 ) s->matches = GR_MATCH_NAME;
        else if( it->e->op==GR_E_FIELD && it->e->a->op==GR_E_NODE && strcmp(it->e->s, "type")==0 ) s->matches = GR_MATCH_TYPE;
        else err(c, it->e->loc, "a section matches node.name or node.type");
        f->nsections++;
        break;
      }
      case GR_I_INITIAL:
        if( initial ) err(c, it->loc, "the initial section is given twice");
        initial = it->name; initial_loc = it->name_loc;
        break;
      case GR_I_ENTRIES_MODE:
        if( f->entries_mode || f->nentries ) err(c, it->loc, "entries are declared twice");
        f->entries_mode = 1;
        break;
      case GR_I_ENTRIES: {
        gr_name *nm;
        size_t k = 0;
        if( f->entries_mode || f->nentries ){ err(c, it->loc, "entries are declared twice"); break; }
        for(nm = it->names; nm; nm = nm->next) k++;
        f->entries = gr_arena_calloc(&rs->arena, (k + 1) * sizeof *f->entries);
        for(nm = it->names; nm; nm = nm->next) f->entries[f->nentries++] = intern(rs, nm->s);
        break;
      }
      default: bad_item(c, it, "a format block");
    }
  }
  if( f->nsections==0 ) err(c, st->loc, "an ini format declares at least one section");
  if( initial ){
    size_t k;
    for(k = 0; k < f->nsections; k++) if( strcmp(f->sections[k].name, initial)==0 ) f->initial = (int)k;
    if( f->initial < 0 ) err(c, initial_loc, "initial section '%s' is not declared in this format", initial);
  }else if( f->nsections ){
    f->initial = 0;
  }
  o->format = f;
}

static const gr_ruleset *c_rs_for_values;   /* the rule set being checked, for SoC defaults */

static int value_type_ok(const gr_option *o, const gr_expr *e, char *why, size_t nwhy){
  if( e->op==GR_E_NULL ) return 1;
  switch( o->type ){
    case GR_OT_INT:
      if( e->type!=GR_T_INT && e->type!=GR_T_ANY ){ snprintf(why, nwhy, "option %s is an int", o->name); return 0; }
      if( e->op==GR_E_INT && o->has_range && (e->i < o->lo || e->i > o->hi) ){
        snprintf(why, nwhy, "%lld is outside the range %lld .. %lld of option %s", (long long)e->i, (long long)o->lo, (long long)o->hi, o->name);
        return 0;
      }
      return 1;
    case GR_OT_LIST:
      if( e->type!=GR_T_LIST && e->type!=GR_T_STR && e->type!=GR_T_ANY ){ snprintf(why, nwhy, "option %s is a list", o->name); return 0; }
      if( o->nvalues && e->op==GR_E_LIST ){
        const gr_expr *x;
        for(x = e->a; x; x = x->next){
          if( x->op==GR_E_STR && !option_has_value(o, x->s) ){
            snprintf(why, nwhy, "'%s' is not an allowed element of option %s", x->s, o->name);
            return 0;
          }
        }
      }
      if( o->nvalues && e->op==GR_E_STR && e->s[0] ){
        const char *p = e->s, *a;
        size_t len, k;
        while( gr_split_next(&p, o->separator ? o->separator : ",", &a, &len) ){
          int ok = len==0;
          for(k = 0; k < o->nvalues && !ok; k++) ok = strlen(o->values[k])==len && memcmp(o->values[k], a, len)==0;
          if( !ok ){
            snprintf(why, nwhy, "'%.*s' is not an allowed element of option %s", (int)(len > 100 ? 100 : len), a, o->name);
            return 0;
          }
        }
      }
      return 1;
    case GR_OT_SOC:
      if( e->type!=GR_T_STR && e->type!=GR_T_ANY ){ snprintf(why, nwhy, "option %s names a SoC, a string", o->name); return 0; }
      if( e->op==GR_E_STR && e->s[0] && gr_ruleset_find_soc(c_rs_for_values, e->s) < 0 ){
        snprintf(why, nwhy, "'%s' is not a SoC this rule set declares", e->s);
        return 0;
      }
      return 1;
    default:
      if( e->type!=GR_T_STR && e->type!=GR_T_ANY ){
        snprintf(why, nwhy, "option %s is a %s, its values are strings", o->name, gr_option_type_name(o->type));
        return 0;
      }
      if( e->op==GR_E_STR && (o->type==GR_OT_ENUM || o->type==GR_OT_BOOL) && o->nvalues && e->s[0] && !option_has_value(o, e->s) ){
        snprintf(why, nwhy, "'%s' is not one of the values of option %s", e->s, o->name);
        return 0;
      }
      if( e->op==GR_E_STR && o->has_pattern && e->s[0] && regexec(&o->re, e->s, 0, NULL, 0)!=0 ){
        snprintf(why, nwhy, "'%s' does not match the pattern of option %s", e->s, o->name);
        return 0;
      }
      return 1;
  }
}

static void do_option_body(ck *c, gr_item *st, gr_option *o){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  size_t nvals = 0, ndef = 0, k;
  gr_name *nm;
  int have_type = 0;
  /* type and values first: defaults and value blocks are checked against them */
  for(it = st->items; it; it = it->next){
    if( it->kind==GR_I_TYPE ){
      if( have_type ){ err(c, it->loc, "option %s has two types", o->name); continue; }
      have_type = 1;
      o->type = option_type_of(it->name);
      if( o->type==0 ){
        err(c, it->name_loc, "unknown option type '%s' (enum, bool, int, string, file, list, soc)", it->name);
        o->type = GR_OT_STRING;
      }
    }else if( it->kind==GR_I_VALUES ){
      for(nm = it->names; nm; nm = nm->next) nvals++;
    }else if( it->kind==GR_I_DEFAULT ){
      ndef++;
    }
  }
  if( !have_type ){ err(c, st->name_loc, "option %s has no type", o->name); o->type = GR_OT_STRING; }
  if( o->type==GR_OT_BOOL && nvals==0 ){
    o->values = gr_arena_calloc(&rs->arena, 2 * sizeof *o->values);
    o->values[0] = "true"; o->values[1] = "false"; o->nvalues = 2;
  }else{
    o->values = gr_arena_calloc(&rs->arena, (nvals + 1) * sizeof *o->values);
  }
  o->defaults = gr_arena_calloc(&rs->arena, (ndef + 1) * sizeof *o->defaults);
  for(it = st->items; it; it = it->next){
    if( it->kind!=GR_I_VALUES ) continue;
    if( o->type!=GR_OT_ENUM && o->type!=GR_OT_BOOL && o->type!=GR_OT_LIST ){
      err(c, it->loc, "%s %s option has no value list (only enum, bool and list options do)",
          o->type==GR_OT_INT ? "an" : "a", gr_option_type_name(o->type));
      continue;
    }
    for(nm = it->names; nm; nm = nm->next){
      if( option_has_value(o, nm->s) ){ err(c, nm->loc, "value '%s' is listed twice", nm->s); continue; }
      o->values[o->nvalues++] = intern(rs, nm->s);
    }
  }
  if( o->type==GR_OT_ENUM && o->nvalues==0 ) err(c, st->name_loc, "enum option %s lists no values", o->name);
  o->value_support = gr_arena_calloc(&rs->arena, (o->nvalues + 1) * sizeof *o->value_support);
  o->value_desc = gr_arena_calloc(&rs->arena, (o->nvalues + 1) * sizeof *o->value_desc);

  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_TYPE: case GR_I_VALUES: break;
      case GR_I_DESCRIPTION: once_str(c, &o->description, it, "the option description"); break;
      case GR_I_KEY:
        if( o->key ){ err(c, it->loc, "option %s has two keys", o->name); break; }
        o->key = intern(rs, it->str);
        add_spelling(c, it->str, o->index, it->str_loc);
        break;
      case GR_I_ALIAS: {
        size_t n0 = o->naliases, n1 = n0;
        for(nm = it->names; nm; nm = nm->next) n1++;
        o->aliases = gr_xrealloc(o->aliases, (n1 + 1) * sizeof *o->aliases);
        for(nm = it->names; nm; nm = nm->next){
          if( add_spelling(c, nm->s, o->index, nm->loc) ) o->aliases[o->naliases++] = intern(rs, nm->s);
        }
        break;
      }
      case GR_I_RANGE:
        if( o->type!=GR_OT_INT ) err(c, it->loc, "only int options have a range");
        if( it->lo > it->hi ) err(c, it->str_loc, "empty range %lld .. %lld", (long long)it->lo, (long long)it->hi);
        o->has_range = 1; o->lo = it->lo; o->hi = it->hi;
        break;
      case GR_I_PATTERN: {
        char *anchored;
        int rc;
        if( o->type!=GR_OT_STRING ) err(c, it->loc, "only string options have a pattern");
        if( o->has_pattern ){ err(c, it->loc, "option %s has two patterns", o->name); break; }
        anchored = gr_xasprintf("^(%s)$", it->str);
        rc = regcomp(&o->re, anchored, REG_EXTENDED | REG_NOSUB);
        free(anchored);
        if( rc!=0 ){
          char m[256];
          regerror(rc, &o->re, m, sizeof m);
          err(c, it->str_loc, "invalid pattern /%s/: %s", it->str, m);
          regfree(&o->re);
        }else{
          o->has_pattern = 1;
          o->pattern = intern(rs, it->str);
        }
        break;
      }
      case GR_I_SEPARATOR:
        if( o->type!=GR_OT_LIST ) err(c, it->loc, "only list options have a separator");
        if( it->str[0]==0 ) err(c, it->str_loc, "a separator cannot be empty");
        o->separator = intern(rs, it->str);
        break;
      case GR_I_DEFAULT: break;      /* after all options are known (defaults may name others) */
      case GR_I_SUPPORT: check_support(c, &o->support, it); break;
      case GR_I_VALUE_BLOCK: {
        gr_item *x;
        for(nm = it->names; nm; nm = nm->next){
          int vi = -1;
          for(k = 0; k < o->nvalues; k++) if( strcmp(o->values[k], nm->s)==0 ) vi = (int)k;
          if( vi < 0 ){ err(c, nm->loc, "'%s' is not a value of option %s", nm->s, o->name); continue; }
          for(x = it->items; x; x = x->next){
            if( x->kind==GR_I_SUPPORT ) check_support(c, &o->value_support[vi], x);
            else if( x->kind==GR_I_DESCRIPTION ) o->value_desc[vi] = intern(rs, x->str);
            else if( nm==it->names ) bad_item(c, x, "a value block");
          }
        }
        break;
      }
      case GR_I_DEPRECATED: once_str(c, &o->deprecated, it, "the deprecation text"); break;
      case GR_I_FORMAT:
        if( o->type!=GR_OT_FILE ) err(c, it->loc, "only file options have a format");
        do_format(c, o, it);
        break;
      default: bad_item(c, it, "an option block");
    }
  }
  if( o->key==NULL ) err(c, st->name_loc, "option %s has no GE key", o->name);
  if( o->type==GR_OT_LIST && o->separator==NULL ) o->separator = ",";
}

static void do_option_defaults(ck *c, gr_item *st, gr_option *o){
  gr_item *it;
  int uncond = 0;
  c->scope = -1;
  c_rs_for_values = c->rs;
  for(it = st->items; it; it = it->next){
    gr_default *d;
    char why[256];
    if( it->kind!=GR_I_DEFAULT ) continue;
    d = &o->defaults[o->ndefaults++];
    d->value = it->e2; d->cond = it->e; d->loc = it->loc;
    if( uncond ) err(c, it->loc, "this default can never apply: an earlier default of %s has no condition", o->name);
    c->nvars = 0; c->maxslots = 0;
    check_expr(c, d->value);
    if( d->value->dep > GR_DEP_GLOBAL ) err(c, d->value->loc, "a default cannot depend on a node");
    if( !value_type_ok(o, d->value, why, sizeof why) ) err(c, d->value->loc, "bad default: %s", why);
    if( d->cond ){
      char w2[256];
      want(c, d->cond, GR_T_BOOL, "the condition of a default");
      w2[0] = 0;
      if( truth(c->rs, d->cond, w2, sizeof w2)==0 ) err(c, d->cond->loc, "this default can never apply: %s", w2[0] ? w2 : "its condition is always false");
    }else{
      uncond = 1;
    }
    if( c->maxslots ) err(c, it->loc, "quantifiers are not allowed in defaults");
  }
}

static void do_mode(ck *c, gr_item *st, gr_mode *m){
  gr_item *it;
  m->name = intern(c->rs, st->name);
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
  t->name = intern(rs, st->name);
  t->description = intern(rs, st->str);
  t->loc = st->name_loc;
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
      err(c, it->str_loc, "table '%s' mixes plain keys and key: value entries", t->name);
      continue;
    }
    prev = gr_map_put(&t->keymap, intern(rs, it->str), idx((int)t->n));
    if( prev ){
      char w[256];
      where(w, sizeof w, t->locs[(intptr_t)prev - 1]);
      err(c, it->str_loc, "key '%s' appears twice in table '%s' (first at %s)", it->str, t->name, w);
      continue;
    }
    t->keys[t->n] = intern(rs, it->str);
    t->locs[t->n] = it->str_loc;
    if( it->e2 ){
      uint8_t ty;
      c->scope = -1; c->nvars = 0; c->maxslots = 0;
      ty = check_expr(c, it->e2);
      if( !is_literal(it->e2) ) err(c, it->e2->loc, "table values are literals (strings, integers, booleans or lists of them)");
      if( t->vtype==GR_T_NULL ) t->vtype = ty;
      else if( t->vtype!=ty ) t->vtype = GR_T_ANY;
      t->vals[t->n] = it->e2;
    }
    t->n++;
  }
  t->is_map = kind==1;
  if( t->vtype==GR_T_NULL ) t->vtype = GR_T_STR;
}

static void do_slot(ck *c, gr_item *st, gr_slot *s){
  gr_ruleset *rs = c->rs;
  gr_item *it;
  s->name = intern(rs, st->name);
  s->loc = st->name_loc;
  for(it = st->items; it; it = it->next){
    switch( it->kind ){
      case GR_I_DESCRIPTION: once_str(c, &s->description, it, "the slot description"); break;
      case GR_I_KEY: once_str(c, &s->report_key, it, "the report key"); break;
      case GR_I_VALUES_MODE:
        if( s->values_mode || s->nvalues ){ err(c, it->loc, "slot values are declared twice"); break; }
        s->values_mode = 1;
        break;
      case GR_I_VALUES: {
        gr_name *nm;
        size_t k = 0;
        if( s->values_mode || s->nvalues ){ err(c, it->loc, "slot values are declared twice"); break; }
        for(nm = it->names; nm; nm = nm->next) k++;
        s->values = gr_arena_calloc(&rs->arena, (k + 1) * sizeof *s->values);
        for(nm = it->names; nm; nm = nm->next) s->values[s->nvalues++] = intern(rs, nm->s);
        break;
      }
      default: bad_item(c, it, "a slot block");
    }
  }
  if( s->report_key==NULL ){
    char *k = gr_xasprintf("%s_source", s->name);
    s->report_key = intern(rs, k);
    free(k);
  }
  /* slot names and report keys become node fields and report keys */
  {
    static const char *fixed[] = { "name", "type", "graph", "static", "dynamic", "inputs", "outputs",
                                   "input", "attr", "provenance", "class", "plan", "problems", "valid", "execute" };
    size_t k, j;
    for(k = 0; k < sizeof fixed / sizeof *fixed; k++){
      if( strcmp(s->name, fixed[k])==0 ) err(c, st->name_loc, "'%s' cannot name a slot: it is a fixed node field", s->name);
      if( strcmp(s->report_key, fixed[k])==0 ) err(c, st->name_loc, "slot %s: report key '%s' is a fixed node field", s->name, s->report_key);
    }
    for(j = 0; j < rs->nslots; j++){
      const gr_slot *o = &rs->slots[j];
      if( o==s || o->name==NULL || o->report_key==NULL ) continue;
      if( strcmp(o->name, s->report_key)==0 || strcmp(o->report_key, s->name)==0 || strcmp(o->report_key, s->report_key)==0 ){
        err(c, st->name_loc, "slot %s and slot %s would both write the report field '%s'", s->name, o->name,
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
      err(c, v->loc, "'%s' is not a declared mode (slot %s takes modes)%s", v->s, s->name,
          suggest_map(&c->rs->mode_map, v->s, sug, sizeof sug));
    }
  }else if( s->nvalues ){
    for(k = 0; k < s->nvalues; k++) if( strcmp(s->values[k], v->s)==0 ) return;
    err(c, v->loc, "slot %s never takes the value '%s'", s->name, v->s);
  }
}

/* Makes the variables of the condition's top-level `any` conjuncts visible
** again (their witness), for the branch's message or reason template. */
static void push_witnesses(ck *c, const gr_expr *cond){
  if( cond==NULL ) return;
  if( cond->op==GR_E_AND ){ push_witnesses(c, cond->a); push_witnesses(c, cond->b); return; }
  if( cond->op==GR_E_ANY && cond->ref >= 0 && c->nvars < MAXVARS ){
    c->vars[c->nvars].name = cond->s;
    c->vars[c->nvars].type = cond->elem;
    c->vars[c->nvars].dep = GR_DEP_ITEM;
    c->vars[c->nvars].slot = cond->ref;
    c->nvars++;
  }
}

static void check_branch(ck *c, gr_branch *b, const gr_slot *slot, const char *raw_because){
  c->scope = GR_SCOPE_NODE; c->nvars = 0; c->maxslots = 0;
  c->allow_other = 0; c->allow_count = 0; c->in_source = 1;
  if( b->cond ) want(c, b->cond, GR_T_BOOL, "a condition");
  if( b->value ){
    uint8_t t;
    c->nvars = 0;
    push_witnesses(c, b->cond);
    t = check_expr(c, b->value);
    if( t!=GR_T_STR && t!=GR_T_ANY && t!=GR_T_NULL ) err(c, b->value->loc, "a slot value is a string, not %s", a_type(t));
    if( slot ) check_slot_value(c, slot, b->value);
  }
  if( raw_because ){
    c->nvars = 0;
    push_witnesses(c, b->cond);
    check_template(c, &b->because, raw_because, b->because.loc);
  }
  b->nvars = c->maxslots;
  c->in_source = 0;
}

/* ------------------------------------------------------------------ */
/* cascades */

/* Merges every `cascade` statement of each slot into one total order of its
** sources (Kahn's algorithm over adjacency lists, so a cascade of thousands
** of sources stays linear). A cycle, two sources left unordered, or a
** source in no cascade is an error. */
typedef struct cedge { int to; gr_loc loc; } cedge;

static void do_cascades(ck *c, gr_item *all){
  gr_ruleset *rs = c->rs;
  size_t si;
  gr_item *it;
  for(si = 0; si < rs->nslots; si++){
    gr_slot *slot = &rs->slots[si];
    size_t n = 0, i, j, placed = 0, nready = 0;
    int *members, *indeg, *order, *ready;
    size_t *nout, *capout;
    cedge **out;
    uint8_t *in_cascade;
    int reported = 0, had_unknown = 0;
    for(i = 0; i < rs->nsources; i++) if( rs->sources[i].slot==(int)si ) n++;
    if( n==0 ) continue;
    members = gr_xcalloc(n, sizeof *members);
    for(i = 0, j = 0; i < rs->nsources; i++) if( rs->sources[i].slot==(int)si ){ rs->sources[i].order = (int)j; members[j++] = (int)i; }
    out = gr_xcalloc(n, sizeof *out);
    nout = gr_xcalloc(n, sizeof *nout);
    capout = gr_xcalloc(n, sizeof *capout);
    in_cascade = gr_xcalloc(n, 1);
    indeg = gr_xcalloc(n, sizeof *indeg);
    order = gr_xcalloc(n, sizeof *order);
    ready = gr_xcalloc(n, sizeof *ready);
    for(it = all; it; it = it->next){
      gr_name *nm;
      int prev = -1;
      if( it->kind!=GR_I_CASCADE || strcmp(it->name, slot->name)!=0 ) continue;
      for(nm = it->names; nm; nm = nm->next){
        int sj = gr_ruleset_find(&rs->source_map, nm->s), m;
        if( sj < 0 ){
          char sug[128];
          had_unknown = 1;
          err(c, nm->loc, "unknown source '%s' in the cascade of %s%s", nm->s, slot->name, suggest_map(&rs->source_map, nm->s, sug, sizeof sug));
          prev = -1;
          continue;
        }
        if( rs->sources[sj].slot!=(int)si ){
          err(c, nm->loc, "source '%s' decides slot %s, not %s", nm->s, rs->slots[rs->sources[sj].slot].name, slot->name);
          prev = -1;
          continue;
        }
        m = rs->sources[sj].order;
        in_cascade[m] = 1;
        if( prev >= 0 ){
          if( prev==m ){
            err(c, nm->loc, "source '%s' cannot come before itself", nm->s);
          }else{
            if( nout[prev]==capout[prev] ){
              capout[prev] = capout[prev] ? capout[prev] * 2 : 2;
              out[prev] = gr_xrealloc(out[prev], capout[prev] * sizeof **out);
            }
            out[prev][nout[prev]].to = m;
            out[prev][nout[prev]].loc = nm->loc;
            nout[prev]++;
            indeg[m]++;
          }
        }
        prev = m;
      }
    }
    for(i = 0; i < n && !had_unknown; i++){    /* a misspelt name explains a missing one */
      if( !in_cascade[i] && n > 1 ){
        const gr_source *s = &rs->sources[members[i]];
        err(c, s->loc, "source '%s' of slot %s appears in no cascade, so its place is unknown", s->name, slot->name);
      }
    }
    /* Kahn: the ready set is kept sorted by source index, so the result and
    ** any message are deterministic */
    for(i = 0; i < n; i++) if( indeg[i]==0 ) ready[nready++] = (int)i;
    while( nready > 0 ){
      int m = ready[0];
      size_t k;
      if( nready > 1 && !reported && in_cascade[ready[0]] && in_cascade[ready[1]] ){
        const gr_source *x = &rs->sources[members[ready[0]]], *y = &rs->sources[members[ready[1]]];
        err(c, y->loc, "the cascade of %s does not order sources '%s' and '%s'; state which comes first",
            slot->name, x->name, y->name);
        reported = 1;
      }
      memmove(ready, ready + 1, (nready - 1) * sizeof *ready);
      nready--;
      order[placed++] = m;
      for(k = 0; k < nout[m]; k++){
        int t = out[m][k].to;
        if( --indeg[t]==0 ){
          /* insert keeping ready sorted (it is short: usually 0 or 1 entries) */
          size_t p = nready;
          while( p > 0 && ready[p-1] > t ){ ready[p] = ready[p-1]; p--; }
          ready[p] = t;
          nready++;
        }
      }
    }
    if( placed < n ){
      /* a cycle: from any node still blocked, follow edges between blocked
      ** nodes until one repeats, then print that loop */
      int start = -1, cur, steps;
      int *seen = gr_xcalloc(n, sizeof *seen);
      gr_buf b;
      gr_loc where_loc = slot->loc;
      for(i = 0; i < n; i++) if( indeg[i] > 0 ){ start = (int)i; break; }
      cur = start;
      for(steps = 1; steps <= (int)n + 1 && !seen[cur]; steps++){
        size_t k;
        seen[cur] = steps;
        for(k = 0; k < nout[cur]; k++) if( indeg[out[cur][k].to] > 0 ){ cur = out[cur][k].to; break; }
      }
      start = cur;
      gr_buf_init(&b);
      do{
        size_t k;
        int next = -1;
        gr_buf_printf(&b, "%s > ", rs->sources[members[cur]].name);
        for(k = 0; k < nout[cur]; k++) if( indeg[out[cur][k].to] > 0 ){ next = out[cur][k].to; if( next==start ) where_loc = out[cur][k].loc; break; }
        if( next < 0 ) break;
        cur = next;
      }while( cur!=start && b.n < 2000 );
      gr_buf_adds(&b, rs->sources[members[start]].name);
      err(c, where_loc, "precedence cycle in the cascade of %s: %s", slot->name, gr_buf_cstr(&b));
      gr_buf_free(&b);
      free(seen);
    }else{
      slot->cascade = gr_arena_calloc(&rs->arena, n * sizeof *slot->cascade);
      for(i = 0; i < n; i++){
        slot->cascade[i] = members[order[i]];
        rs->sources[members[order[i]]].order = (int)i;
      }
      slot->ncascade = n;
    }
    for(i = 0; i < n; i++) free(out[i]);
    free(out); free(nout); free(capout);
    free(members); free(in_cascade); free(indeg); free(order); free(ready);
  }
  /* cascade statements naming an unknown slot */
  for(it = all; it; it = it->next){
    if( it->kind==GR_I_CASCADE && gr_ruleset_find(&rs->slot_map, it->name) < 0 ){
      char sug[128];
      err(c, it->name_loc, "unknown slot '%s'%s", it->name, suggest_map(&rs->slot_map, it->name, sug, sizeof sug));
    }
  }
}

/* A source that always yields a constant hides every source after it. */
static void check_shadowing(ck *c){
  gr_ruleset *rs = c->rs;
  size_t si, k, b;
  for(si = 0; si < rs->nslots; si++){
    const gr_slot *slot = &rs->slots[si];
    const gr_source *always = NULL;
    for(k = 0; k < slot->ncascade; k++){
      gr_source *s = &rs->sources[slot->cascade[k]];
      if( always ){
        char w[256];
        where(w, sizeof w, always->loc);
        err(c, s->loc, "source '%s' can never win: '%s' comes before it in the cascade of %s and always yields (%s)",
            s->name, always->name, slot->name, w);
        continue;
      }
      for(b = 0; b < s->nbranches; b++){
        gr_branch *br = &s->branches[b];
        char why[8];
        if( b > 0 && s->branches[b-1].cond==NULL ){
          err(c, br->loc, "this branch of source '%s' is never reached: the branch before it has no condition", s->name);
        }
        if( (br->cond==NULL || truth(rs, br->cond, why, sizeof why)==1) && br->value && br->value->op==GR_E_STR ){
          always = s;
        }
      }
    }
  }
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
  r->code = intern(rs, st->code);
  r->a = -1;
  if( r->kind!=GR_REL_CONFLICTS ){
    gr_option *o = option_ref(c, st->names->s, st->names->loc);
    r->a = o ? o->index : -1;
  }
  for(nm = r->kind==GR_REL_CONFLICTS ? st->names : st->names2; nm; nm = nm->next) n++;
  r->others = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *r->others);
  for(nm = r->kind==GR_REL_CONFLICTS ? st->names : st->names2; nm; nm = nm->next){
    gr_option *o = option_ref(c, nm->s, nm->loc);
    size_t k;
    if( o==NULL ) continue;
    if( o->index==r->a ){ err(c, nm->loc, "option %s cannot be related to itself", o->name); continue; }
    for(k = 0; k < r->nothers; k++) if( r->others[k]==o->index ) break;
    if( k < r->nothers ){ err(c, nm->loc, "option %s is named twice", o->name); continue; }
    r->others[r->nothers++] = o->index;
  }
  if( r->kind==GR_REL_CONFLICTS ){
    size_t named = 0;
    for(nm = st->names; nm; nm = nm->next) named++;
    if( named < 2 ) err(c, st->loc, "'conflicts' needs at least two options");
  }
  c->scope = GR_SCOPE_OPTION; c->allow_other = 1; c->allow_count = 0; c->nvars = 0; c->maxslots = 0;
  check_template(c, &r->msg, st->raw, st->str_loc);
  c->allow_other = 0;
}

static int valid_code(const char *s){
  const char *p = s;
  if( !(*p >= 'A' && *p <= 'Z') ) return 0;
  while( *p >= 'A' && *p <= 'Z' ) p++;
  if( !(*p >= '0' && *p <= '9') ) return 0;
  while( *p >= '0' && *p <= '9' ) p++;
  return *p==0;
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
      err(c, rs->options[k].loc, "the defaults of these options depend on each other: %s", gr_buf_cstr(&b));
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

static void check_all(ck *c){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t nprod = 0, nsoc = 0, nopt = 0, nmode = 0, ntab = 0, nslot = 0, nsrc = 0, nrule = 0, nrel = 0, ncap = 0, nhw = 0;
  gr_loc *cap_locs, *hw_locs, *prod_locs, *opt_locs, *mode_locs, *tab_locs, *slot_locs, *src_locs;
  size_t i;

  for(st = rs->ast; st; st = st->next){
    switch( st->kind ){
      case GR_I_CAPABILITY: ncap++; break;
      case GR_I_HARDWARE: nhw++; break;
      case GR_I_PRODUCT: {
        gr_item *x;
        nprod++;
        for(x = st->items; x; x = x->next) if( x->kind==GR_I_SOC ) nsoc++;
        break;
      }
      case GR_I_OPTION: nopt++; break;
      case GR_I_MODE: nmode++; break;
      case GR_I_TABLE: ntab++; break;
      case GR_I_SLOT: nslot++; break;
      case GR_I_SOURCE: nsrc++; break;
      case GR_I_RULE: if( st->flag2==GR_ACT_SET ) nsrc++; else nrule++; break;
      case GR_I_EXCLUSIVE: case GR_I_REQUIRES: case GR_I_CONFLICTS: nrel++; break;
      default: break;
    }
  }
  rs->cap_names = gr_arena_calloc(&rs->arena, (ncap + 1) * sizeof(char*));
  rs->cap_desc = gr_arena_calloc(&rs->arena, (ncap + 1) * sizeof(char*));
  rs->hw_names = gr_arena_calloc(&rs->arena, (nhw + 1) * sizeof(char*));
  rs->hw_desc = gr_arena_calloc(&rs->arena, (nhw + 1) * sizeof(char*));
  rs->products = gr_arena_calloc(&rs->arena, (nprod + 1) * sizeof *rs->products);
  rs->socs = gr_xcalloc(nsoc + 1, sizeof *rs->socs);
  rs->options = gr_xcalloc(nopt + 1, sizeof *rs->options);
  rs->modes = gr_arena_calloc(&rs->arena, (nmode + 1) * sizeof *rs->modes);
  rs->tables = gr_xcalloc(ntab + 1, sizeof *rs->tables);
  rs->slots = gr_arena_calloc(&rs->arena, (nslot + 1) * sizeof *rs->slots);
  rs->sources = gr_xcalloc(nsrc + 1, sizeof *rs->sources);
  rs->rules = gr_xcalloc(nrule + 1, sizeof *rs->rules);
  rs->relations = gr_xcalloc(nrel + 1, sizeof *rs->relations);
  cap_locs = gr_xcalloc(ncap + 1, sizeof(gr_loc));
  hw_locs = gr_xcalloc(nhw + 1, sizeof(gr_loc));
  prod_locs = gr_xcalloc(nprod + 1, sizeof(gr_loc));
  opt_locs = gr_xcalloc(nopt + 1, sizeof(gr_loc));
  mode_locs = gr_xcalloc(nmode + 1, sizeof(gr_loc));
  tab_locs = gr_xcalloc(ntab + 1, sizeof(gr_loc));
  slot_locs = gr_xcalloc(nslot + 1, sizeof(gr_loc));
  src_locs = gr_xcalloc(nsrc + nrule + 1, sizeof(gr_loc));

  /* pass 1: names that everything else refers to */
  for(st = rs->ast; st; st = st->next){
    switch( st->kind ){
      case GR_I_BUNDLE: do_bundle(c, st); break;
      case GR_I_CAPABILITY:
        cap_locs[rs->ncaps] = st->name_loc;
        if( declare(c, &rs->cap_map, "capability", intern(rs, st->name), st->name_loc, cap_locs, (int)rs->ncaps) ){
          rs->cap_names[rs->ncaps] = intern(rs, st->name);
          rs->cap_desc[rs->ncaps++] = intern(rs, st->str);
        }
        break;
      case GR_I_HARDWARE:
        {
          static const char *fixed[] = { "soc", "pattern", "product", "product_title", "title", "caps" };
          size_t k;
          for(k = 0; k < sizeof fixed / sizeof *fixed; k++){
            if( strcmp(st->name, fixed[k])==0 ) err(c, st->name_loc, "'%s' cannot name a hardware property: it is a fixed chip field", st->name);
          }
        }
        hw_locs[rs->nhw] = st->name_loc;
        if( declare(c, &rs->hw_map, "hardware property", intern(rs, st->name), st->name_loc, hw_locs, (int)rs->nhw) ){
          rs->hw_names[rs->nhw] = intern(rs, st->name);
          rs->hw_desc[rs->nhw++] = intern(rs, st->str);
        }
        break;
      case GR_I_PRODUCT:
        prod_locs[rs->nproducts] = st->name_loc;
        if( declare(c, &rs->product_map, "product line", intern(rs, st->name), st->name_loc, prod_locs, (int)rs->nproducts) ){
          rs->products[rs->nproducts].name = intern(rs, st->name);
          rs->nproducts++;
        }
        break;
      case GR_I_OPTION:
        opt_locs[rs->noptions] = st->name_loc;
        if( declare(c, &rs->option_map, "option", intern(rs, st->name), st->name_loc, opt_locs, (int)rs->noptions) ){
          gr_option *o = &rs->options[rs->noptions];
          o->index = (int)rs->noptions;
          o->name = intern(rs, st->name);
          o->loc = st->name_loc;
          add_spelling(c, o->name, o->index, st->name_loc);
          rs->noptions++;
        }
        break;
      case GR_I_MODE:
        mode_locs[rs->nmodes] = st->name_loc;
        if( declare(c, &rs->mode_map, "mode", intern(rs, st->name), st->name_loc, mode_locs, (int)rs->nmodes) ){
          rs->modes[rs->nmodes].index = (int)rs->nmodes;
          rs->modes[rs->nmodes].name = intern(rs, st->name);
          rs->nmodes++;
        }
        break;
      case GR_I_TABLE:
        tab_locs[rs->ntables] = st->name_loc;
        if( declare(c, &rs->table_map, "table", intern(rs, st->name), st->name_loc, tab_locs, (int)rs->ntables) ){
          rs->tables[rs->ntables].index = (int)rs->ntables;
          rs->ntables++;
        }
        break;
      case GR_I_SLOT:
        slot_locs[rs->nslots] = st->name_loc;
        if( declare(c, &rs->slot_map, "slot", intern(rs, st->name), st->name_loc, slot_locs, (int)rs->nslots) ){
          rs->slots[rs->nslots].index = (int)rs->nslots;
          rs->nslots++;
        }
        break;
      default: break;
    }
  }
  /* products need capabilities and hardware; now fill them */
  {
    size_t pi = 0;
    for(st = rs->ast; st; st = st->next){
      if( st->kind!=GR_I_PRODUCT ) continue;
      if( gr_ruleset_find(&rs->product_map, st->name)==(int)pi ) do_product(c, st, (int)pi++);
    }
  }
  check_soc_overlaps(c);
  /* modes, options, tables, slots */
  {
    size_t mi = 0, oi = 0, ti = 0, si = 0;
    for(st = rs->ast; st; st = st->next){
      if( st->kind==GR_I_MODE && gr_ruleset_find(&rs->mode_map, st->name)==(int)mi ) do_mode(c, st, &rs->modes[mi++]);
      else if( st->kind==GR_I_OPTION && gr_ruleset_find(&rs->option_map, st->name)==(int)oi ) do_option_body(c, st, &rs->options[oi++]);
      else if( st->kind==GR_I_TABLE && gr_ruleset_find(&rs->table_map, st->name)==(int)ti ) do_table(c, st, &rs->tables[ti++]);
      else if( st->kind==GR_I_SLOT && gr_ruleset_find(&rs->slot_map, st->name)==(int)si ) do_slot(c, st, &rs->slots[si++]);
    }
    oi = 0;
    for(st = rs->ast; st; st = st->next){
      if( st->kind==GR_I_OPTION && gr_ruleset_find(&rs->option_map, st->name)==(int)oi ) do_option_defaults(c, st, &rs->options[oi++]);
    }
  }
  check_default_cycles(c);
  /* sources and rules share one namespace */
  for(st = rs->ast; st; st = st->next){
    if( st->kind==GR_I_SOURCE || (st->kind==GR_I_RULE && st->flag2==GR_ACT_SET) ){
      gr_source *s = &rs->sources[rs->nsources];
      int sl;
      size_t nb = 0, b;
      gr_item *x;
      src_locs[rs->nsources + rs->nrules] = st->name_loc;
      if( !declare(c, &rs->source_map, st->kind==GR_I_SOURCE ? "source" : "rule", intern(rs, st->name), st->name_loc,
                   src_locs, (int)(rs->nsources + rs->nrules)) ) continue;
      s->index = (int)rs->nsources;
      s->name = intern(rs, st->name);
      s->loc = st->name_loc;
      s->from_rule = st->kind==GR_I_RULE;
      sl = gr_ruleset_find(&rs->slot_map, st->names->s);
      if( sl < 0 ){
        char sug[128];
        err(c, st->names->loc, "unknown slot '%s'%s", st->names->s, suggest_map(&rs->slot_map, st->names->s, sug, sizeof sug));
      }
      s->slot = sl;
      if( st->kind==GR_I_SOURCE ){
        for(x = st->items; x; x = x->next) nb++;
        s->branches = gr_xcalloc(nb + 1, sizeof *s->branches);
        for(x = st->items, b = 0; x; x = x->next, b++){
          gr_branch *br = &s->branches[b];
          br->cond = x->e; br->value = x->e2; br->loc = x->loc; br->source = s->index;
          br->because.loc = x->str2_loc;
          check_branch(c, br, sl >= 0 ? &rs->slots[sl] : NULL, x->raw2);
          prepare_branch(c, br, "source", s->name, 1);
        }
        s->nbranches = nb;
      }else{
        gr_branch *br;
        s->branches = gr_xcalloc(1, sizeof *s->branches);
        br = &s->branches[0];
        br->cond = st->e; br->value = st->e2; br->loc = st->loc; br->source = s->index;
        br->because.loc = st->str2_loc;
        check_branch(c, br, sl >= 0 ? &rs->slots[sl] : NULL, st->raw2);
        prepare_branch(c, br, "rule", s->name, 1);
        s->nbranches = 1;
      }
      rs->nsources++;
    }else if( st->kind==GR_I_RULE ){
      gr_rule *r = &rs->rules[rs->nrules];
      src_locs[rs->nsources + rs->nrules] = st->name_loc;
      if( !declare(c, &rs->source_map, "rule", intern(rs, st->name), st->name_loc, src_locs, (int)(rs->nsources + rs->nrules)) ) continue;
      r->index = (int)rs->nrules;
      r->name = intern(rs, st->name);
      r->loc = st->name_loc;
      r->scope = st->flag;
      r->sev = (gr_severity)st->flag3;
      r->code = intern(rs, st->code);
      r->once = st->lo ? 1 : 0;
      if( !valid_code(r->code) ) err(c, st->code_loc, "diagnostic code '%s' must be capital letters then digits (e.g. GE1001)", r->code);
      if( r->once && r->scope!=GR_SCOPE_NODE ) err(c, st->once_loc, "'once' is for rules 'for each node'");
      r->br.cond = st->e; r->br.loc = st->loc; r->br.source = -1;
      c->scope = r->scope; c->nvars = 0; c->maxslots = 0; c->allow_other = 0; c->allow_count = 0;
      want(c, r->br.cond, GR_T_BOOL, "a rule condition");
      c->allow_count = r->once;
      c->nvars = 0;
      push_witnesses(c, r->br.cond);
      check_template(c, &r->msg, st->raw, st->str_loc);
      c->allow_count = 0;
      r->br.nvars = c->maxslots;
      prepare_branch(c, &r->br, "rule", r->name, 1);
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

  for(st = rs->ast; st; st = st->next){
    if( st->kind==GR_I_EXCLUSIVE || st->kind==GR_I_REQUIRES || st->kind==GR_I_CONFLICTS ){
      if( !valid_code(st->code) ) err(c, st->code_loc, "diagnostic code '%s' must be capital letters then digits (e.g. GE1001)", st->code);
      do_relation(c, st, &rs->relations[rs->nrelations++]);
    }
  }
  do_cascades(c, rs->ast);
  check_shadowing(c);

  /* statements that belong inside a block, found at top level, cannot happen
  ** (the grammar has no such production); coverage warnings: */
  for(i = 0; i < rs->noptions; i++){
    if( !rs->options[i].support.stated ){
      warn(c, rs->options[i].loc, "option %s states no product support (assumed supported on every product line)", rs->options[i].name);
    }
  }
  for(i = 0; i < rs->nmodes; i++){
    if( !rs->modes[i].support.stated ){
      warn(c, rs->modes[i].loc, "mode %s states no product support (assumed supported on every product line)", rs->modes[i].name);
    }
  }
  free(cap_locs); free(hw_locs); free(prod_locs); free(opt_locs); free(mode_locs);
  free(tab_locs); free(slot_locs); free(src_locs);
}

gr_ruleset *gr_ruleset_load(const char *const *paths, size_t npaths, gr_diags *diags){
  gr_ruleset *rs = gr_xcalloc(1, sizeof *rs);
  loader ld;
  ck c;
  size_t i;
  gr_arena_init(&rs->arena);
  memset(&ld, 0, sizeof ld);
  ld.rs = rs; ld.diags = diags; ld.tail = &rs->ast;
  gr_map_init(&ld.seen);
  for(i = 0; i < npaths; i++) load_path(&ld, paths[i]);
  if( npaths==1 ){
    struct stat st;
    if( stat(paths[0], &st)==0 && S_ISDIR(st.st_mode) ){
      size_t l = strlen(paths[0]);
      while( l > 1 && paths[0][l-1]=='/' ) l--;
      rs->root = gr_xstrndup(paths[0], l);
    }
  }
  gr_map_free(&ld.seen);
  free(ld.stack);
  if( ld.nerr ){
    gr_ruleset_free(rs);
    return NULL;
  }
  memset(&c, 0, sizeof c);
  c.rs = rs; c.diags = diags;
  check_all(&c);
  for(i = 0; i < rs->nfiles; i++) free(rs->texts[i]);
  free(rs->texts);
  rs->texts = NULL;
  if( c.nerr ){
    gr_ruleset_free(rs);
    return NULL;
  }
  return rs;
}

void gr_ruleset_free(gr_ruleset *rs){
  size_t i, k;
  if( rs==NULL ) return;
  for(i = 0; i < rs->nsocs; i++) if( rs->socs[i].is_pattern==1 ) regfree(&rs->socs[i].re);
  for(i = 0; i < rs->noptions; i++){
    if( rs->options[i].has_pattern ) regfree(&rs->options[i].re);
    free(rs->options[i].aliases);
  }
  for(i = 0; i < rs->ntables; i++) gr_map_free(&rs->tables[i].keymap);
  for(i = 0; i < rs->nsources; i++){
    for(k = 0; k < rs->sources[i].nbranches; k++){
      free(rs->sources[i].branches[k].conj);
      free_template(&rs->sources[i].branches[k].because);
    }
    free(rs->sources[i].branches);
  }
  for(i = 0; i < rs->nrules; i++){ free(rs->rules[i].br.conj); free_template(&rs->rules[i].msg); }
  for(i = 0; i < rs->nrelations; i++) free_template(&rs->relations[i].msg);
  free(rs->hook_files);
  free(rs->socs); free(rs->options); free(rs->tables); free(rs->sources); free(rs->rules); free(rs->relations);
  gr_map_free(&rs->cap_map); gr_map_free(&rs->hw_map); gr_map_free(&rs->product_map); gr_map_free(&rs->soc_map);
  gr_map_free(&rs->option_map); gr_map_free(&rs->spelling_map); gr_map_free(&rs->mode_map);
  gr_map_free(&rs->table_map); gr_map_free(&rs->slot_map); gr_map_free(&rs->source_map); gr_map_free(&rs->rule_map);
  gr_item_free(rs->ast);
  if( rs->texts ){ for(i = 0; i < rs->nfiles; i++) free(rs->texts[i]); free(rs->texts); }
  for(i = 0; i < rs->nfiles; i++) free(rs->files[i]);
  free(rs->files);
  free(rs->root);
  gr_arena_free(&rs->arena);
  free(rs);
}

const char *gr_ruleset_short_path(const gr_ruleset *rs, const char *file){
  size_t l;
  if( rs->root==NULL || file==NULL ) return file;
  l = strlen(rs->root);
  if( strncmp(file, rs->root, l)==0 && file[l]=='/' ) return file + l + 1;
  return file;
}

int gr_ruleset_find_soc(const gr_ruleset *rs, const char *soc){
  int i = gr_ruleset_find(&rs->soc_map, soc);
  size_t k;
  if( i >= 0 ) return i;
  for(k = 0; k < rs->nsocs; k++){
    if( rs->socs[k].is_pattern==1 && regexec(&rs->socs[k].re, soc, 0, NULL, 0)==0 ) return (int)k;
  }
  return -1;
}

const gr_option *gr_ruleset_option_by_spelling(const gr_ruleset *rs, const char *spelling){
  int i;
  while( *spelling=='-' ) spelling++;
  i = gr_ruleset_find(&rs->spelling_map, spelling);
  return i < 0 ? NULL : &rs->options[i];
}
