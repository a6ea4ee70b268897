/*
** atc_cmdline.c: an ATC command line read as ATC's parser reads it, and its
** --input_shape applied to a loaded graph (atc_cmdline.h says what C knows
** and what is rule data). Every refusal is a gr_atc_error in ATC's words.
*/
#include "config.h"
#include <errno.h>
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/atc_cmdline.h"
#include "base/suggest.h"
#include "lang/ruleset.h"
#include "model/graph.h"
#include "model/model.h"
#include "model/input_dims.h"

#define GR_ISALPHA(c) isalpha((unsigned char)(c))
#define GR_ISDIGIT(c) ((c) >= '0' && (c) <= '9')
#define GR_TOLOWER(c) tolower((unsigned char)(c))

typedef gr_atc_cmdline atc_data;
#define message gr_atc_message

void gr_atc_error_free(gr_atc_error *e){
  if( e==NULL ) return;
  free(e->msg);
  free(e->hint);
  free(e->snippet);
  memset(e, 0, sizeof *e);
}

/* Sets err (taking msg and hint, both malloc'ed or NULL): always -1. */
static int atc_error(gr_atc_error *err, char *msg, const char *code, char *hint){
  gr_atc_error_free(err);
  err->msg = msg;
  err->code = code;
  err->hint = hint;
  return -1;
}

int gr_atc_fail(gr_atc_error *err, char *msg, const char *code){
  return atc_error(err, msg, code, NULL);
}

void gr_atc_split(const char *p, size_t n, char delim, gr_atc_spans *out){
  size_t i, at = 0;
  out->n = 0;
  for(i = 0; i <= n; i++){
    if( i==n || p[i]==delim ){ gr_atc_span s; s.p = p + at; s.n = i - at; gr_vec_push(*out, s); at = i + 1; }
  }
}

int gr_atc_is_input_op(const gr_atc_cmdline *c, const struct gr_graph *g, uint32_t node){
  return c->input_ops && gr_map_get(&c->input_ops->keymap, gr_graph_type_name(g, gr_graph_nodes(g)[node].type))!=NULL;
}

/* ------------------------------------------------------------------ */
/* the rule data */



static int has_key(const gr_table *t, const char *key){
  return t && gr_map_get(&t->keymap, key)!=NULL;
}

/* The index of a key of t (which has it), from its key map: O(1). */
static size_t key_index(const gr_table *t, const char *key){
  return (size_t)((intptr_t)gr_map_get(&t->keymap, key) - 1);
}

static const char *str_of(const gr_table *t, const char *key){
  const gr_expr *e = gr_table_value(t, key);
  return e && e->op==GR_E_STR ? e->s : NULL;
}

/* element k of a list value, as a string (NULL when absent) */
static const char *list_str(const gr_expr *e, int k){
  if( e==NULL || e->op!=GR_E_LIST ) return NULL;
  for(e = e->a; e && k > 0; e = e->next) k--;
  return e && e->op==GR_E_STR ? e->s : NULL;
}

/* The tables are checked here, where they are used: a malformed one is an
** error located at the rule file. */
int gr_atc_init(gr_atc_cmdline *d, const gr_ruleset *rs, gr_atc_error *err){
  static const char *const maps[] = { "atc_flags", "atc_flag_roles", "atc_flag_values", "atc_flag_value_errors",
                                      "atc_frameworks", "atc_framework_formats", "atc_messages" };
  const gr_table **slots[] = { &d->flags_t, &d->roles, &d->values, &d->value_errors, &d->frameworks, &d->formats, &d->messages };
  size_t i, j;
  memset(d, 0, sizeof *d);
  d->rs = rs;
  for(i = 0; i < sizeof maps / sizeof *maps; i++){
    const gr_table *t = gr_ruleset_table(rs, maps[i]);
    if( t==NULL )
      return atc_error(err, gr_xasprintf("the rule set has no table %s (rules/atc.rules of the shipped rules)", maps[i]), NULL, NULL);
    if( !t->is_map ){
      atc_error(err, gr_xasprintf("table %s must map keys to values", maps[i]), NULL, NULL);
      err->loc = t->loc;
      return -1;
    }
    *slots[i] = t;
  }
  d->input_ops = gr_ruleset_table(rs, "atc_input_ops");
  d->framework_modes = gr_ruleset_table(rs, "atc_framework_modes");
  d->defaults = gr_ruleset_table(rs, "atc_flag_defaults");
  d->required = gr_ruleset_table(rs, "atc_required_flags");
  d->mode_refused = gr_ruleset_table(rs, "atc_mode_refused_flags");
  for(j = 0; j < d->flags_t->n; j++){
    const char *ty = list_str(d->flags_t->vals[j], 0);
    if( strncmp(d->flags_t->keys[j], "--", 2)!=0 || ty==NULL
        || (strcmp(ty, "string") && strcmp(ty, "int32") && strcmp(ty, "bool")) ){
      atc_error(err, gr_xasprintf("atc_flags[\"%s\"]: a flag is \"--name\": [\"string\"|\"int32\"|\"bool\", \"description\"]",
                                  d->flags_t->keys[j]), NULL, NULL);
      err->loc = d->flags_t->locs[j];
      return -1;
    }
  }
  return 0;
}

void gr_atc_free(gr_atc_cmdline *c){
  size_t i;
  for(i = 0; i < c->gears.n; i++) free(c->gears.v[i].v.v);
  free(c->gears.v);
  free(c->shape_nodes);
  for(i = 0; i < c->shapes.n; i++){ free(c->shapes.v[i].name); free(c->shapes.v[i].dims.v); free(c->shapes.v[i].text); }
  free(c->shapes.v);
  for(i = 0; i < c->ranges.n; i++){ free(c->ranges.v[i].name); free(c->ranges.v[i].dims.v); }
  free(c->ranges.v);
  for(i = 0; i < c->out_nodes.n; i++) free(c->out_nodes.v[i].name);
  free(c->out_nodes.v);
  free(c->range_text);
  gr_atc_error_free(&c->range_err);
  for(i = 0; i < c->owned.n; i++) free(c->owned.v[i]);
  free(c->owned.v);
  free(c->flags.v);
  free(c->last_of);
  for(i = 0; i < c->raw_warnings.n; i++) gr_atc_error_free(&c->raw_warnings.v[i]);
  free(c->raw_warnings.v);
  memset(c, 0, sizeof *c);
}

/* ATC's message `key` with {name} placeholders filled from the pairs
** (name, value, ..., NULL); malloc'ed. An unknown key or placeholder is
** kept visibly rather than dropped. */
char *gr_atc_message(const atc_data *d, const char *key, ...){
  const char *tpl = str_of(d->messages, key), *p;
  gr_buf b;
  va_list ap;
  char *out;
  gr_buf_init(&b);
  if( tpl==NULL ){ gr_buf_printf(&b, "(atc_messages has no \"%s\")", key); tpl = ""; }
  for(p = tpl; *p; p++){
    const char *end;
    if( *p=='{' && (end = strchr(p, '}'))!=NULL ){
      const char *name, *val = NULL;
      va_start(ap, key);
      while( (name = va_arg(ap, const char *))!=NULL ){
        const char *v = va_arg(ap, const char *);
        if( strlen(name)==(size_t)(end - p - 1) && memcmp(name, p + 1, (size_t)(end - p - 1))==0 ){ val = v; break; }
      }
      va_end(ap);
      if( val ){ gr_buf_adds(&b, val); p = end; continue; }
    }
    gr_buf_addc(&b, *p);
  }
  out = gr_xstrdup(gr_buf_cstr(&b));
  gr_buf_free(&b);
  return out;
}

/* ------------------------------------------------------------------ */
/* the command line, as ATC's parser reads it */

/* cmd_flag_info.cc FormatArgv: "-ab..." (a dash and two letters) becomes
** "--ab...", and in "--ab..." every '-' of the name from the fifth byte
** on, up to '=', becomes '_'. */
static char *normalise(const char *arg){
  size_t n = strlen(arg), i;
  char *s = gr_xmalloc(n + 2);
  if( arg[0]=='-' && arg[1]!='-' && GR_ISALPHA(arg[1]) && GR_ISALPHA(arg[2]) ){ s[0] = '-'; memcpy(s + 1, arg, n + 1); n++; }
  else memcpy(s, arg, n + 1);
  if( s[0]=='-' && s[1]=='-' && GR_ISALPHA(s[2]) && GR_ISALPHA(s[3]) )
    for(i = 4; i < n && s[i]!='='; i++) if( s[i]=='-' ) s[i] = '_';
  return s;
}

/* The flag NAME (without dashes, before any '=') names: exact, else the one
** flag it is a prefix of (getopt_long); NULL when none or several. */
static const char *find_flag(const atc_data *d, const char *name, size_t len){
  const char *hit = NULL;
  size_t j;
  char whole[128];
  /* the flag spelled out, the usual case, from the table's key map: a
  ** command line of 100,000 flags spent most of its time in the scan below */
  if( len + 3 <= sizeof whole ){
    void *at;
    whole[0] = whole[1] = '-';
    memcpy(whole + 2, name, len);
    whole[len + 2] = 0;
    if( (at = gr_map_get(&d->flags_t->keymap, whole))!=NULL ) return d->flags_t->keys[(intptr_t)at - 1];
  }
  for(j = 0; j < d->flags_t->n; j++){
    const char *k = d->flags_t->keys[j] + 2;
    if( strncmp(k, name, len)!=0 ) continue;
    if( k[len]==0 ) return d->flags_t->keys[j];
    if( hit ) return NULL;          /* ambiguous: getopt_long says '?' */
    hit = d->flags_t->keys[j];
  }
  return hit;
}

static int is_option_alias(const atc_data *d, const char *flag){
  const gr_option *o = gr_ruleset_option_by_spelling(d->rs, flag);
  size_t k;
  if( o==NULL ) return 0;
  for(k = 0; k < o->naliases; k++) if( strcmp(o->aliases[k], flag)==0 ) return 1;
  return 0;
}

/* cmd_flag_info.cc SetFlagValue: the value range of the parser, then the
** value type. Option aliases are left to their option's rules. */
static int check_value(const atc_data *d, const char *flag, const char *v, gr_atc_error *err){
  if( is_option_alias(d, flag) ) return 0;
  return gr_atc_check_flag_value(d, flag, v, err);
}

int gr_atc_check_flag_value(const atc_data *d, const char *flag, const char *v, gr_atc_error *err){
  const gr_expr *range = gr_table_value(d->values, flag), *e;
  const char *ty = list_str(gr_table_value(d->flags_t, flag), 0), *bare = flag + 2;
  if( range && range->op==GR_E_LIST ){
    const char *code;
    gr_buf r;
    for(e = range->a; e; e = e->next) if( e->op==GR_E_STR && strcmp(e->s, v)==0 ) break;
    if( e ) goto typed;
    code = str_of(d->value_errors, flag);
    if( code==NULL ) code = "E10001";
    if( strcmp(code, "E10001")==0 ){
      char *reason, *m;
      gr_buf_init(&r);
      for(e = range->a; e; e = e->next) if( e->op==GR_E_STR ) gr_buf_printf(&r, "[%s] ", e->s);
      reason = message(d, "E10001_range", "range", gr_buf_cstr(&r), (char *)NULL);
      m = message(d, "E10001", "value", v, "parameter", flag, "reason", reason, (char *)NULL);
      free(reason);
      gr_buf_free(&r);
      return atc_error(err, m, code, NULL);
    }
    if( strcmp(code, "E10007")==0 ){
      char *sup = message(d, "E10007_framework", (char *)NULL);
      char *m = message(d, code, "parameter", bare, "support", sup, (char *)NULL);
      free(sup);
      return atc_error(err, m, code, NULL);
    }
    return atc_error(err, message(d, code, "value", v, "parameter", bare, (char *)NULL), code, NULL);
  }
typed:
  if( ty && strcmp(ty, "int32")==0 ){
    const char *p;
    int ok = *v!=0;
    for(p = v; *p; p++) if( !GR_ISDIGIT(*p) ) ok = 0;
    if( ok ){ errno = 0; if( strtoll(v, NULL, 10) > INT_MAX || errno ) ok = 0; }
    if( !ok ) return atc_error(err, message(d, "E10003", "value", v, "parameter", bare, "type", "int32", (char *)NULL), "E10003", NULL);
  }
  if( ty && strcmp(ty, "bool")==0 ){
    static const char *const ok[] = { "", "1", "t", "true", "y", "yes", "0", "f", "false", "n", "no" };
    char low[8];
    size_t i, n = strlen(v);
    int good = 0;
    for(i = 0; i < n && i < sizeof low - 1; i++) low[i] = (char)GR_TOLOWER(v[i]);
    low[i] = 0;
    for(i = 0; n < sizeof low && i < sizeof ok / sizeof *ok; i++) if( strcmp(low, ok[i])==0 ) good = 1;
    if( !good ) return atc_error(err, message(d, "E10003", "value", v, "parameter", bare, "type", "bool", (char *)NULL), "E10003", NULL);
  }
  return 0;
}

static int unknown_flag(const atc_data *d, const char *arg, gr_atc_error *err){
  /* cmd_flag_info.cc GetFlagName: the argument without leading dashes and '=...' */
  const char *p = arg, *s;
  char *name, *hint = NULL;
  int rc;
  while( *p=='-' ) p++;
  name = gr_xstrndup(p, strcspn(p, "="));
  s = gr_ruleset_suggest(d->rs, GR_NK_ATC_FLAG, name);
  if( s ) hint = gr_xasprintf("; did you mean '--%s'?", s);
  rc = atc_error(err, message(d, "unknown_flag", "flag", name, (char *)NULL), NULL, hint);
  free(name);
  return rc;
}

static void take(gr_atc_cmdline *cmd, gr_atc_flag *f);

int gr_atc_flag_arg(gr_atc_cmdline *cmd, int *i, int argc, char **argv, gr_atc_error *err){
  const atc_data *d = cmd;
  char *s = normalise(argv[*i]);
  const char *eq, *flag, *ty, *v;
  gr_atc_flag f;
  gr_vec_push(cmd->owned, s);
  if( strcmp(s, "-h")==0 ){ cmd->help = 1; return 0; }
  if( s[0]!='-' || s[1]!='-' || s[2]==0 ) return unknown_flag(d, s, err);
  eq = strchr(s, '=');
  flag = find_flag(d, s + 2, eq ? (size_t)(eq - s - 2) : strlen(s + 2));
  if( flag==NULL ) return unknown_flag(d, s, err);
  ty = list_str(gr_table_value(d->flags_t, flag), 0);
  if( eq ) v = eq + 1;
  else if( strcmp(ty, "bool")==0 ) v = "";                 /* optional argument: only with = */
  else if( *i + 1 < argc ){ char *n2 = normalise(argv[++*i]); gr_vec_push(cmd->owned, n2); v = n2; }
  else{
    const char *desc = list_str(gr_table_value(d->flags_t, flag), 1);
    return atc_error(err, message(d, "missing_argument", "flag", flag + 2, "description", desc ? desc : "", (char *)NULL), NULL, NULL);
  }
  if( check_value(d, flag, v, err) ) return -1;
  if( strcmp(flag, "--help")==0 ){
    /* cmd_flag_info.cc: help shows the usage when its value reads true */
    if( strcmp(v, "0") && GR_TOLOWER(v[0])!='f' && GR_TOLOWER(v[0])!='n' ) cmd->help = 1;
    return 0;
  }
  memset(&f, 0, sizeof f);
  f.name = flag; f.value = v; f.argi = *i;
  take(cmd, &f);
  return 0;
}

/* f as the last occurrence of its flag */
static void take(gr_atc_cmdline *cmd, gr_atc_flag *f){
  size_t k = key_index(cmd->flags_t, f->name);
  if( cmd->last_of==NULL ) cmd->last_of = gr_xcalloc(cmd->flags_t->n + 1, sizeof *cmd->last_of);
  if( cmd->last_of[k] ) cmd->flags.v[cmd->last_of[k] - 1].last = 0;    /* no scan of the flags taken so far */
  f->last = 1;
  gr_vec_push(cmd->flags, *f);
  cmd->last_of[k] = cmd->flags.n;
}

void gr_atc_flag_push(gr_atc_cmdline *cmd, const char *flag, const char *value, const char *file, uint32_t line, uint32_t col){
  gr_atc_flag f;
  char *v;
  if( !has_key(cmd->flags_t, flag) ) return;
  v = gr_xstrdup(value);
  gr_vec_push(cmd->owned, v);
  memset(&f, 0, sizeof f);
  f.name = cmd->flags_t->keys[key_index(cmd->flags_t, flag)];
  f.value = v;
  f.argi = INT_MAX;
  f.at.file = file; f.at.line = line; f.at.col = col;
  take(cmd, &f);
}

const char *gr_atc_flag_value(const gr_atc_cmdline *cmd, const char *flag){
  size_t k;
  if( cmd->last_of==NULL || !has_key(cmd->flags_t, flag) ) return NULL;
  k = key_index(cmd->flags_t, flag);
  return cmd->last_of[k] ? cmd->flags.v[cmd->last_of[k] - 1].value : NULL;
}

gr_loc gr_atc_flag_loc(const gr_atc_cmdline *cmd, const char *flag){
  gr_loc none = { NULL, 0, 0 };
  size_t k;
  if( cmd->last_of==NULL || flag==NULL || !has_key(cmd->flags_t, flag) ) return none;
  k = key_index(cmd->flags_t, flag);
  return cmd->last_of[k] ? cmd->flags.v[cmd->last_of[k] - 1].at : none;
}

const char *gr_atc_role_flag(const gr_atc_cmdline *d, const char *role){
  size_t j;
  for(j = 0; j < d->roles->n; j++){
    const char *r = d->roles->vals[j] && d->roles->vals[j]->op==GR_E_STR ? d->roles->vals[j]->s : NULL;
    if( r && strcmp(r, role)==0 ) return d->roles->keys[j];
  }
  return NULL;
}

int gr_atc_non_option(const gr_atc_cmdline *d, const char *arg, gr_atc_error *err){
  return atc_error(err, message(d, "non_option", "arg", arg, (char *)NULL), NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* --input_shape */

static char *trim(char *s){
  char *e;
  while( *s==' ' ) s++;
  e = s + strlen(s);
  while( e > s && e[-1]==' ' ) *--e = 0;
  return s;
}

/* One static dim (ParseInputShape): an integer above 0. */
static int static_dim(const atc_data *d, const char *item, char *str, int64_t *out, gr_atc_error *err){
  char *t = trim(str), *end;
  const char *p;
  long long x;
  if( strchr(str, '.') ){
    char *r = message(d, "E10002_float", (char *)NULL), *smp = message(d, "E10002_sample_static", (char *)NULL);
    char *m = message(d, "E10002", "shape", item, "reason", r, "sample", smp, (char *)NULL);
    free(r); free(smp);
    return atc_error(err, m, "E10002", NULL);
  }
  errno = 0;
  x = strtoll(t, &end, 10);
  if( end==t ) return atc_error(err, message(d, "E10014", "value", str, "parameter", "input_shape", (char *)NULL), "E10014", NULL);
  if( errno==ERANGE ) return atc_error(err, message(d, "E10013", "value", str, "parameter", "input_shape", (char *)NULL), "E10013", NULL);
  for(p = str[0]=='-' ? str + 1 : str; *p; p++){
    if( !GR_ISDIGIT(*p) ){
      char *r = message(d, "E10002_digit", (char *)NULL), *smp = message(d, "E10002_sample_static", (char *)NULL);
      char *m = message(d, "E10002", "shape", item, "reason", r, "sample", smp, (char *)NULL);
      free(r); free(smp);
      return atc_error(err, m, "E10002", NULL);
    }
  }
  if( x <= 0 ){
    char num[32];
    snprintf(num, sizeof num, "%lld", x);
    return atc_error(err, message(d, "E10011", "shape", item, "result", num, (char *)NULL), "E10011", NULL);
  }
  *out = x;
  return 0;
}

/* One dim of a dynamic shape (the shape-range form): -1 or a range a~b is
** dynamic (-1), a number is itself. */
static int dynamic_dim(const atc_data *d, const char *item, char *str, int64_t *out, gr_atc_error *err){
  char *t = trim(str), *p;
  int ok = *t!=0;
  for(p = t; *p; p++) if( !GR_ISDIGIT(*p) && *p!='-' && *p!='~' ) ok = 0;
  if( ok && strchr(t, '~') ){ *out = -1; return 0; }
  if( ok && strcmp(t, "-1")==0 ){ *out = -1; return 0; }
  if( ok && t[0]!='-' ){
    errno = 0;
    *out = strtoll(t, &p, 10);
    if( errno==0 && *p==0 ) return 0;
  }
  {
    char *r = message(d, "E10002_digit", (char *)NULL), *smp = message(d, "E10002_sample_range", (char *)NULL);
    char *m = message(d, "E10002", "shape", item, "reason", r, "sample", smp, (char *)NULL);
    free(r); free(smp);
    return atc_error(err, m, "E10002", NULL);
  }
}

/* CheckAndTransferInputShapeToRange / ParseInputShape: "name:d,d,...;..."
** split at ';', each item at its last ':'; without '~' and "-1" the shape
** is static (every dim above 0), else it is a shape range (-1 and a~b are
** dynamic dims), which may also be given by input index without names. */
static int parse_shapes(gr_atc_cmdline *d, const char *text, gr_atc_error *err){
  int dynamic = strchr(text, '~') || strstr(text, "-1");
  int by_index = dynamic && strchr(text, ':')==NULL;
  char *copy = gr_xstrdup(text), *item, *save = NULL;
  long index = 0;
  int rc = 0;
  for(item = strtok_r(copy, ";", &save); item && rc==0; item = strtok_r(NULL, ";", &save), index++){
    gr_atc_shape it;
    char *colon = by_index ? NULL : strrchr(item, ':'), *dims, *dim, *s2 = NULL;
    memset(&it, 0, sizeof it);
    it.text = gr_xstrdup(item);
    it.index = index;
    if( !by_index && colon==NULL ){
      char *r = message(d, "E10002_split", (char *)NULL);
      char *smp = message(d, dynamic ? "E10002_sample_range" : "E10002_sample", (char *)NULL);
      rc = atc_error(err, message(d, "E10002", "shape", item, "reason", r, "sample", smp, (char *)NULL), "E10002", NULL);
      free(r); free(smp); free(it.text);
      break;
    }
    if( colon ){
      *colon = 0;
      it.name = gr_xstrdup(trim(item));
      dims = colon + 1;
      if( *it.name==0 ){
        char *r = message(d, "E10002_name", (char *)NULL), *smp = message(d, "E10002_sample_range", (char *)NULL);
        rc = atc_error(err, message(d, "E10002", "shape", it.text, "reason", r, "sample", smp, (char *)NULL), "E10002", NULL);
        free(r); free(smp); free(it.name); free(it.text);
        break;
      }
    }else{
      dims = item;
    }
    if( *dims ){
      /* split at ',' keeping empty fields (strtok would skip them) */
      for(dim = dims; rc==0; dim = s2 + 1){
        int64_t v = 0;
        s2 = strchr(dim, ',');
        if( s2 ) *s2 = 0;
        rc = dynamic ? dynamic_dim(d, it.text, dim, &v, err) : static_dim(d, it.text, dim, &v, err);
        if( rc==0 ) gr_vec_push(it.dims, v);
        if( s2==NULL ) break;
      }
    }
    if( rc ){ free(it.name); free(it.dims.v); free(it.text); break; }
    gr_vec_push(d->shapes, it);
  }
  free(copy);
  return rc;
}

/* main_impl.cc CheckFlags, --mode=7 (OM2): a flag of the mode's list in
** atc_mode_refused_flags given on the command line, even empty, is E10001
** (CheckOm2UserOptionsValid); the first one in command-line order. */
static int mode_refused(const gr_atc_cmdline *c, gr_atc_error *err){
  const char *mode = c->mode ? c->mode : c->mode_default;
  const gr_expr *e = c->mode_refused && c->mode_refused->is_map ? gr_table_value(c->mode_refused, mode) : NULL;
  size_t i;
  int k;
  for(i = 0; e && i < c->flags.n; i++){
    const gr_atc_flag *f = &c->flags.v[i];
    for(k = 0; list_str(e, k); k++){
      if( strcmp(list_str(e, k), f->name)==0 ){
        char *reason = message(c, "E10001_mode", "mode", mode, (char *)NULL);
        char *m = message(c, "E10001", "value", f->value, "parameter", f->name + 2, "reason", reason, (char *)NULL);
        free(reason);
        return atc_error(err, m, "E10001", NULL);
      }
    }
  }
  return 0;
}

/* main_impl.cc CheckInputFormat, before CheckFlags in the modes of
** atc_input_format_modes: a given --input_format must be one the
** framework's parser takes (atc_framework_input_formats, E10001). */
static int input_format_refused(const gr_atc_cmdline *c, const char *mode, gr_atc_error *err){
  const gr_table *modes = gr_ruleset_table(c->rs, "atc_input_format_modes");
  const char *f = gr_atc_role_flag(c, "input_format"), *v = f ? gr_atc_flag_value(c, f) : NULL;
  const gr_expr *ok = c->framework ? gr_table_value(gr_ruleset_table(c->rs, "atc_framework_input_formats"), c->framework) : NULL;
  const char *why;
  int k;
  if( v==NULL || *v==0 || ok==NULL || modes==NULL || gr_map_get(&modes->keymap, mode)==NULL ) return 0;
  for(k = 0; list_str(ok, k); k++) if( strcmp(list_str(ok, k), v)==0 ) return 0;
  why = str_of(gr_ruleset_table(c->rs, "atc_framework_input_format_reasons"), c->framework);
  return atc_error(err, message(c, "E10001", "value", v, "parameter", f, "reason", why ? why : "", (char *)NULL), "E10001", NULL);
}

int gr_atc_finish(gr_atc_cmdline *c, gr_atc_error *err){
  const char *mode_flag;
  size_t j;
  c->model_flag = gr_atc_role_flag(c, "model");
  c->framework_flag = gr_atc_role_flag(c, "framework");
  c->shape_flag = gr_atc_role_flag(c, "input_shape");
  mode_flag = gr_atc_role_flag(c, "mode");
  c->model = c->model_flag ? gr_atc_flag_value(c, c->model_flag) : NULL;
  c->framework = c->framework_flag ? gr_atc_flag_value(c, c->framework_flag) : NULL;
  c->mode = mode_flag ? gr_atc_flag_value(c, mode_flag) : NULL;
  c->mode_default = mode_flag ? str_of(c->defaults, mode_flag) : NULL;
  if( c->mode_default==NULL ) c->mode_default = "";
  if( input_format_refused(c, c->mode ? c->mode : c->mode_default, err) ) return -1;
  /* main_impl.cc CheckFlags: the first required flag that is missing or empty */
  for(j = 0; c->required && c->required->is_map && j < c->required->n; j++){
    const gr_expr *e = c->required->vals[j];
    const char *mode = c->mode ? c->mode : c->mode_default, *v;
    int k, needed = 0;
    for(k = 0; list_str(e, k); k++) if( strcmp(list_str(e, k), mode)==0 ) needed = 1;
    if( !needed || ((v = gr_atc_flag_value(c, c->required->keys[j]))!=NULL && *v) ) continue;
    return atc_error(err, message(c, "E10054", "parameter", c->required->keys[j], (char *)NULL), "E10054", NULL);
  }
  if( c->model==NULL || *c->model==0 )
    return atc_error(err, message(c, "E10054", "parameter", c->model_flag ? c->model_flag : "--model", (char *)NULL), "E10054", NULL);
  if( mode_refused(c, err) ) return -1;
  if( c->framework && str_of(c->formats, c->framework)==NULL ){
    const char *name = str_of(c->frameworks, c->framework);
    return atc_error(err, message(c, "framework_unreadable", "framework", c->framework, "name", name ? name : "these",
                                  "model", c->model, (char *)NULL), NULL, NULL);
  }
  return gr_atc_finish_shapes(c, err);
}

int gr_atc_finish_shapes(gr_atc_cmdline *c, gr_atc_error *err){
  const char *shapes;
  int consumed = 0;
  c->shape_flag = gr_atc_role_flag(c, "input_shape");
  shapes = c->shape_flag ? gr_atc_flag_value(c, c->shape_flag) : NULL;
  if( gr_atc_ranges_finish(c, shapes, &consumed, err) ) return -1;
  if( consumed ) shapes = NULL;           /* GE clears --input_shape once it is a shape range */
  if( gr_atc_gears_precheck(c, shapes, err) ) return -1;
  if( shapes && *shapes && parse_shapes(c, shapes, err) ) return -1;
  if( c->shapes.n ) c->shape_nodes = gr_xcalloc(c->shapes.n, sizeof *c->shape_nodes);
  if( gr_atc_gears_parse(c, err) ) return -1;
  return gr_atc_outputs_finish(c, err);       /* ParseGraph, after CheckFlags */
}

/* ------------------------------------------------------------------ */
/* on the loaded model */

/* The names of the graph's input ops (for "did you mean"). */
static const char *near_input(const gr_graph *g, const atc_data *d, const char *name){
  gr_suggester sg;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t i, n = gr_graph_nnodes(g);
  gr_suggest_begin(&sg, name);
  for(i = 0; i < n; i++)
    if( nodes[i].graph==0 && has_key(d->input_ops, gr_graph_type_name(g, nodes[i].type)) )
      gr_suggest_offer(&sg, gr_graph_str(g, nodes[i].name));
  return gr_suggest_best(&sg);
}

static int format_is_framework(const atc_data *d, int fmt){
  size_t j;
  for(j = 0; j < d->formats->n; j++){
    const gr_expr *v = d->formats->vals[j];
    if( v && v->op==GR_E_STR && gr_model_format_by_name(v->s)==fmt ) return 1;
  }
  return 0;
}

/* Run on the loaded graph before the evaluation: the reader ATC would use
** (--framework) and the input shapes. */
int gr_atc_apply(const gr_atc_cmdline *d, gr_graph *g, const char *model_path, gr_atc_error *err){
  int fmt = gr_graph_format(g);
  if( d->framework ){
    const char *want = str_of(d->formats, d->framework);
    if( want && gr_model_format_by_name(want)!=fmt && format_is_framework(d, fmt) ){
      atc_error(err, message(d, "framework_mismatch", "framework", d->framework, "name", str_of(d->frameworks, d->framework),
                        "model", model_path, "format", gr_model_format_name(fmt), (char *)NULL), NULL, NULL);
      return -1;
    }
  }else if( format_is_framework(d, fmt) && has_key(d->framework_modes, d->mode ? d->mode : d->mode_default) ){
    char *sup = message(d, "E10007_framework", (char *)NULL);
    atc_error(err, message(d, "E10007", "parameter", "framework", "support", sup, (char *)NULL), "E10007", NULL);
    free(sup);
    return -1;
  }
  return gr_atc_apply_shapes(d, g, err);
}

int gr_atc_apply_shapes(const gr_atc_cmdline *d, gr_graph *g, gr_atc_error *err){
  GR_VEC(uint32_t) changed = { NULL, 0, 0 };
  size_t i;
  if( gr_atc_inputs_apply(d, g, err) ) return -1;
  for(i = 0; i < d->shapes.n; i++){
    const gr_atc_shape *it = &d->shapes.v[i];
    uint32_t node = GR_NONE;
    const gr_node *nodes = gr_graph_nodes(g);
    if( it->name && d->ir_build ){
      /* aclgrphBuildModel updates the Data ops the map names and ignores
      ** other names (hicann/ge @ffdcbc9f7 compiler/api/aclgrph/
      ** ge_ir_build.cc:711-755, UpdateDataOpAttr) */
      if( !gr_graph_find_node(g, it->name, &node) || nodes[node].graph!=0
          || !has_key(d->input_ops, gr_graph_type_name(g, nodes[node].type)) ){
        if( d->shape_nodes ) d->shape_nodes[i] = GR_NONE;
        continue;
      }
    }else if( it->name ){
      if( !gr_graph_find_node(g, it->name, &node) || nodes[node].graph!=0 ){
        const char *s = near_input(g, d, it->name);
        char *hint = s ? gr_xasprintf("; did you mean '%s'?", s) : NULL;
        atc_error(err, message(d, "E10016", "opname", it->name, "parameter", "input_shape", (char *)NULL), "E10016", hint);
        goto fail;
      }
      if( !has_key(d->input_ops, gr_graph_type_name(g, nodes[node].type)) ){
        atc_error(err, message(d, "E10017", "opname", it->name, "parameter", "input_shape", (char *)NULL), "E10017", NULL);
        goto fail;
      }
    }else{
      /* by index: the input op whose attribute index is it->index */
      uint32_t k, n = gr_graph_nnodes(g);
      for(k = 0; k < n && node==GR_NONE; k++){
        const gr_attr *a;
        if( nodes[k].graph!=0 || !has_key(d->input_ops, gr_graph_type_name(g, nodes[k].type)) ) continue;
        a = gr_graph_attr(g, &nodes[k], "index");
        if( a && a->kind==GR_ATTR_I && a->u.i==it->index ) node = k;
      }
      if( node==GR_NONE ){
        char idx[32];
        snprintf(idx, sizeof idx, "%ld", it->index);
        atc_error(err, message(d, "E10016", "opname", idx, "parameter", "input_shape", (char *)NULL), "E10016", NULL);
        goto fail;
      }
    }
    if( d->shape_nodes ) d->shape_nodes[i] = node;
    gr_graph_set_node_dims(g, node, it->dims.v, (uint32_t)it->dims.n);
    gr_vec_push(changed, node);
  }
  gr_graph_propagate_dims(g, changed.v, changed.n);
  free(changed.v);
  if( gr_atc_ranges_apply(d, g, err) ) return -1;
  if( gr_atc_outputs_apply(d, g, err) ) return -1;
  if( d->gears.n ) gr_atc_gear_apply(d, g, 0);
  return 0;
fail:
  free(changed.v);
  return -1;
}

