/*
** raw_ge_options.c: `--raw_ge_options=FILE`, ATC's JSON file of raw GE
** compile options, read and applied to an ATC command line as ATC reads and
** applies it (hicann/ge @ffdcbc9f7 api/atc/main_impl.cc:194-492,
** LoadRawGeOptions and ApplyRawGeOptionsToFlags). The file is read with the
** project's JSON tokenizer (src/model/json_scan.h). What C knows is the
** JSON layout's reading order (nlohmann::json: a repeated key keeps its last
** value, keys are visited in sorted byte order) and the sequence of checks;
** the section and level names, the key -> flag map, the flags a raw option
** may not set, the value checks and every message are rule data
** (rules/atc.rules, the --raw_ge_options section, and atc_messages).
**
** The options that pass become flags of the command line (gr_atc_flag with
** the file's location), exactly as if given there; every refusal is one
** gr_atc_error with ATC's code, located in the file where it can be.
*/
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "options/atc_cmdline.h"
#include "base/input.h"
#include "lang/ruleset.h"
#include "model/json_scan.h"

#define message gr_atc_message

typedef struct raw_ent {
  char *key; size_t kn;
  int type;                       /* the value's gr_js type */
  char *val; size_t vn;           /* a string value, decoded */
  uint32_t kline, kcol, vline, vcol;
  size_t seq;                     /* reading order: of a repeated key the last counts */
} raw_ent;

typedef struct raw_level {
  char *name; size_t nn;
  int type;                       /* the level's value type */
  uint32_t line, col;             /* its key */
  size_t seq;
  GR_VEC(raw_ent) ents;
} raw_level;

typedef struct raw_doc {
  int top;                        /* the top-level value's type */
  int section;                    /* the section's value type, 0 when absent */
  uint32_t sline, scol;           /* the section key (else 1:1) */
  uint32_t bad_line, bad_col;     /* a number nlohmann::json refuses (else 0) */
  size_t seq;
  GR_VEC(raw_level) levels;
} raw_doc;

/* one merged option: the value of its last level */
typedef struct raw_opt {
  const raw_ent *e;
  const char *level;
  size_t seq;                     /* level order, then key order */
} raw_opt;
typedef GR_VEC(raw_opt) raw_opts;

static void ents_free(raw_level *l){
  size_t i;
  for(i = 0; i < l->ents.n; i++){ free(l->ents.v[i].key); free(l->ents.v[i].val); }
  free(l->ents.v);
  memset(&l->ents, 0, sizeof l->ents);
}

static void levels_free(raw_doc *d){
  size_t i;
  for(i = 0; i < d->levels.n; i++){ ents_free(&d->levels.v[i]); free(d->levels.v[i].name); }
  free(d->levels.v);
  memset(&d->levels, 0, sizeof d->levels);
}

static const char *str_of(const gr_table *t, const char *key){
  const gr_expr *e = t ? gr_table_value(t, key) : NULL;
  return e && e->op==GR_E_STR ? e->s : NULL;
}

static int has_key(const gr_table *t, const char *key){
  return t && key && gr_map_get(&t->keymap, key)!=NULL;
}

/* key bytes equal to the NUL-terminated s */
static int is(const char *k, size_t n, const char *s){ return strlen(s)==n && memcmp(k, s, n)==0; }

/* std::string's order: bytes, then length; ties by reading order */
static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn){
  int c = memcmp(a, b, an < bn ? an : bn);
  return c ? c : (an < bn ? -1 : an > bn);
}
static int seq_cmp(size_t a, size_t b){ return a < b ? -1 : a > b; }
static int level_cmp(const void *x, const void *y){
  const raw_level *a = x, *b = y;
  int c = bytes_cmp(a->name, a->nn, b->name, b->nn);
  return c ? c : seq_cmp(a->seq, b->seq);
}
static int ent_cmp(const void *x, const void *y){
  const raw_ent *a = x, *b = y;
  int c = bytes_cmp(a->key, a->kn, b->key, b->kn);
  return c ? c : seq_cmp(a->seq, b->seq);
}
static int opt_cmp(const void *x, const void *y){
  const raw_opt *a = x, *b = y;
  int c = bytes_cmp(a->e->key, a->e->kn, b->e->key, b->e->kn);
  return c ? c : seq_cmp(a->seq, b->seq);
}

/* Sorts the levels and keeps the last of each name (nlohmann::json keeps the
** last value of a repeated key and visits keys in order). */
static void dedupe_levels(raw_doc *d){
  size_t i, o = 0;
  if( d->levels.n ) qsort(d->levels.v, d->levels.n, sizeof *d->levels.v, level_cmp);
  for(i = 0; i < d->levels.n; i++){
    raw_level *l = &d->levels.v[i];
    if( i + 1 < d->levels.n && bytes_cmp(l->name, l->nn, l[1].name, l[1].nn)==0 ){ ents_free(l); free(l->name); continue; }
    d->levels.v[o++] = *l;
  }
  d->levels.n = o;
}
static void dedupe_ents(raw_level *l){
  size_t i, o = 0;
  if( l->ents.n ) qsort(l->ents.v, l->ents.n, sizeof *l->ents.v, ent_cmp);
  for(i = 0; i < l->ents.n; i++){
    raw_ent *e = &l->ents.v[i];
    if( i + 1 < l->ents.n && bytes_cmp(e->key, e->kn, e[1].key, e[1].kn)==0 ){ free(e->key); free(e->val); continue; }
    l->ents.v[o++] = *e;
  }
  l->ents.n = o;
}

static int located(gr_atc_error *err, char *msg, const char *code, const char *path, uint32_t line, uint32_t col){
  gr_atc_error_free(err);
  err->msg = msg;
  err->code = code;
  err->loc.file = path;
  err->loc.line = line;
  err->loc.col = col;
  return -1;
}

/* E10032 with the reason of atc_messages[rkey] (pairs after it, NULL-ended) */
static int e10032(const gr_atc_cmdline *c, gr_atc_error *err, const char *path, uint32_t line, uint32_t col,
                  const char *rkey, const char *n1, const char *v1, const char *n2, const char *v2){
  char *reason = message(c, rkey, n1, v1, n2, v2, (char *)NULL);
  char *m = message(c, "E10032", "file_name", path, "reason", reason, (char *)NULL);
  free(reason);
  return located(err, m, "E10032", path, line, col);
}

/* ------------------------------------------------------------------ */
/* the JSON document, as nlohmann::json holds it */

/* nlohmann::json refuses a number that overflows a double ("number
** overflow"): the file is then not JSON to ATC. 1 when t is no such number;
** else 0, with where it is in d. */
static int number_ok(gr_js *js, const gr_js_tok *t, raw_doc *d){
  char buf[64], *copy = buf;
  double v;
  if( t->type!=GR_JS_NUMBER ) return 1;
  if( t->n >= sizeof buf ) copy = gr_xmalloc(t->n + 1);
  memcpy(copy, t->s, t->n);
  copy[t->n] = 0;
  v = strtod(copy, NULL);
  if( copy!=buf ) free(copy);
  if( v - v==0 ) return 1;                    /* finite */
  gr_js_pos(js, t->off, &d->bad_line, &d->bad_col);
  return 0;
}

/* The rest of the value whose first token is *t, each number checked. 0
** when the scan failed or a number overflows. */
static int skip(gr_js *js, gr_js_tok *t, raw_doc *d){
  size_t depth;
  if( t->type!=GR_JS_OBJECT && t->type!=GR_JS_ARRAY ) return t->type!=GR_JS_ERROR && number_ok(js, t, d);
  for(depth = 1; depth > 0;){
    int k = gr_js_next(js, t);
    if( k==GR_JS_ERROR || !number_ok(js, t, d) ) return 0;
    if( k==GR_JS_OBJECT || k==GR_JS_ARRAY ) depth++;
    else if( k==GR_JS_OBJECT_END || k==GR_JS_ARRAY_END ) depth--;
    else if( k==GR_JS_EOF ) return 0;
  }
  return 1;
}

static char *dup_tok(const gr_js_tok *t){
  char *s = gr_xmalloc(t->n + 1);
  memcpy(s, t->s, t->n);
  s[t->n] = 0;
  return s;
}

/* The entries of one level object (its '{' just read). 0, or -1 on a scan error. */
static int read_level(gr_js *js, raw_doc *d, raw_level *l){
  gr_js_tok t;
  for(;;){
    raw_ent e;
    int k = gr_js_next(js, &t);
    if( k==GR_JS_OBJECT_END ) return 0;
    if( k!=GR_JS_KEY ) return -1;
    memset(&e, 0, sizeof e);
    e.seq = d->seq++;
    e.key = dup_tok(&t); e.kn = t.n;
    gr_js_pos(js, t.off, &e.kline, &e.kcol);
    e.type = gr_js_next(js, &t);
    if( e.type==GR_JS_ERROR ){ free(e.key); return -1; }
    gr_js_pos(js, t.off, &e.vline, &e.vcol);
    if( e.type==GR_JS_STRING ){ e.val = dup_tok(&t); e.vn = t.n; }
    else if( !skip(js, &t, d) ){ free(e.key); return -1; }
    gr_vec_push(l->ents, e);
  }
}

/* The section object (its '{' just read). 0, or -1 on a scan error. */
static int read_section(gr_js *js, raw_doc *d){
  gr_js_tok t;
  for(;;){
    raw_level l;
    int k = gr_js_next(js, &t);
    if( k==GR_JS_OBJECT_END ) return 0;
    if( k!=GR_JS_KEY ) return -1;
    memset(&l, 0, sizeof l);
    l.seq = d->seq++;
    l.name = dup_tok(&t); l.nn = t.n;
    gr_js_pos(js, t.off, &l.line, &l.col);
    l.type = gr_js_next(js, &t);
    gr_vec_push(d->levels, l);
    if( l.type==GR_JS_OBJECT ){ if( read_level(js, d, &d->levels.v[d->levels.n - 1]) ) return -1; }
    else if( !skip(js, &t, d) ) return -1;
  }
}

/* The whole document. 0, or -1 when it is not JSON (js's error says where). */
static int read_doc(gr_js *js, const char *section, raw_doc *d){
  gr_js_tok t;
  d->sline = d->scol = 1;
  d->top = gr_js_next(js, &t);
  if( d->top==GR_JS_ERROR ) return -1;
  if( d->top==GR_JS_OBJECT ){
    for(;;){
      int k = gr_js_next(js, &t);
      if( k==GR_JS_OBJECT_END ) break;
      if( k!=GR_JS_KEY ) return -1;
      if( is(t.s, t.n, section) ){
        levels_free(d);                       /* a repeated section: the last one */
        gr_js_pos(js, t.off, &d->sline, &d->scol);
        d->section = gr_js_next(js, &t);
        if( d->section==GR_JS_OBJECT ){ if( read_section(js, d) ) return -1; continue; }
      }else (void)gr_js_next(js, &t);
      if( !skip(js, &t, d) ) return -1;
    }
  }else if( !skip(js, &t, d) ) return -1;
  return gr_js_next(js, &t)==GR_JS_EOF ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* the checks */

static const gr_table *table(const gr_atc_cmdline *c, const char *name){ return gr_ruleset_table(c->rs, name); }

/* ParseRawCompileOptions: the levels, then each level's options merged in
** the levels' order into opts (sorted by key). 0, or -1 with err set. */
static int merge_levels(const gr_atc_cmdline *c, raw_doc *d, const char *path, const gr_expr *levels,
                        raw_opts *opts, gr_atc_error *err){
  const gr_expr *e;
  size_t i, j, o, seq = 0;
  dedupe_levels(d);
  for(i = 0; i < d->levels.n; i++){
    const raw_level *l = &d->levels.v[i];
    for(e = levels->a; e; e = e->next) if( e->op==GR_E_STR && is(l->name, l->nn, e->s) ) break;
    if( e==NULL ){
      gr_buf names;
      int rc;
      gr_buf_init(&names);
      for(e = levels->a; e; e = e->next) if( e->op==GR_E_STR ) gr_buf_printf(&names, "%s%s", gr_buf_cstr(&names)[0] ? ", " : "", e->s);
      rc = e10032(c, err, path, l->line, l->col, "E10032_level", "level", l->name, "levels", gr_buf_cstr(&names));
      gr_buf_free(&names);
      return rc;
    }
  }
  for(e = levels->a; e; e = e->next){
    raw_level *l = NULL;
    if( e->op!=GR_E_STR ) continue;
    for(i = 0; i < d->levels.n; i++) if( is(d->levels.v[i].name, d->levels.v[i].nn, e->s) ) l = &d->levels.v[i];
    if( l==NULL ) continue;
    if( l->type!=GR_JS_OBJECT )
      return e10032(c, err, path, l->line, l->col, "E10032_level_object", "level", e->s, NULL, NULL);
    dedupe_ents(l);                           /* sorted, as ParseRawCompileOptionLevel visits them */
    for(j = 0; j < l->ents.n; j++){
      const raw_ent *x = &l->ents.v[j];
      raw_opt op;
      if( x->kn==0 ) return e10032(c, err, path, x->kline, x->kcol, "E10032_empty_key", "level", e->s, NULL, NULL);
      if( x->type!=GR_JS_STRING )
        return e10032(c, err, path, x->vline, x->vcol, "E10032_not_string", "option", x->key, "level", e->s);
      op.e = x; op.level = e->s; op.seq = seq++;
      gr_vec_push(*opts, op);
    }
  }
  /* a later level overrides the same key */
  if( opts->n ) qsort(opts->v, opts->n, sizeof *opts->v, opt_cmp);
  for(i = o = 0; i < opts->n; i++){
    if( i + 1 < opts->n && bytes_cmp(opts->v[i].e->key, opts->v[i].e->kn, opts->v[i + 1].e->key, opts->v[i + 1].e->kn)==0 ) continue;
    opts->v[o++] = opts->v[i];
  }
  opts->n = o;
  return 0;
}

/* CheckValidValueRange: an optionally signed run of digits in [min, max]. */
static int check_range(const gr_atc_cmdline *c, const gr_expr *range, const char *flag, const raw_ent *x,
                       const char *path, gr_atc_error *err){
  const gr_expr *lo = range && range->op==GR_E_LIST ? range->a : NULL, *hi = lo ? lo->next : NULL;
  const char *p = x->val;
  char smin[32], smax[32], *end;
  long long v;
  if( lo==NULL || hi==NULL || lo->op!=GR_E_INT || hi->op!=GR_E_INT ) return 0;
  snprintf(smin, sizeof smin, "%lld", (long long)lo->i);
  snprintf(smax, sizeof smax, "%lld", (long long)hi->i);
  if( *p=='-' ) p++;
  if( *p==0 || strspn(p, "0123456789")!=strlen(p) || strlen(x->val)!=x->vn ){
    char *r = message(c, "E10001_integer", "min", smin, "max", smax, (char *)NULL);
    char *m = message(c, "E10001", "value", x->val, "parameter", flag, "reason", r, (char *)NULL);
    free(r);
    return located(err, m, "E10001", path, x->vline, x->vcol);
  }
  errno = 0;
  v = strtoll(x->val, &end, 10);
  if( errno==ERANGE || v < lo->i || v > hi->i ){
    char *r = message(c, "E10001_out_of_range", "min", smin, "max", smax, (char *)NULL);
    char *m = message(c, "E10001", "value", x->val, "parameter", flag, "reason", r, (char *)NULL);
    free(r);
    return located(err, m, "E10001", path, x->vline, x->vcol);
  }
  return 0;
}

/* FilterAndValidateRawGeOptions: drops (warns) or refuses the keys without
** a flag, checks every value. 0, or -1 with err set. */
static int validate(gr_atc_cmdline *c, raw_opts *opts, const char *path, int ignore, gr_atc_error *err){
  const gr_table *map = table(c, "atc_raw_ge_option_flags"), *ranges = table(c, "atc_raw_ge_option_ranges");
  const gr_table *checks = table(c, "atc_raw_ge_option_checks"), *reasons = table(c, "atc_raw_ge_option_check_reasons");
  size_t i, o = 0;
  for(i = 0; i < opts->n; i++){
    const raw_ent *x = opts->v[i].e;
    const char *flag = strlen(x->key)==x->kn ? str_of(map, x->key) : NULL;
    if( flag==NULL || !has_key(c->flags_t, flag) ){
      if( !ignore ){
        char *r = message(c, "E10055_raw", "option", x->key, "value", x->val, "level", opts->v[i].level, (char *)NULL);
        char *m = message(c, "E10055", "reason", r, (char *)NULL);
        free(r);
        return located(err, m, "E10055", path, x->kline, x->kcol);
      }else{
        gr_atc_error w;
        memset(&w, 0, sizeof w);
        w.msg = message(c, "raw_ignored", "option", x->key, "level", opts->v[i].level, "value", x->val, (char *)NULL);
        w.loc.file = path; w.loc.line = x->kline; w.loc.col = x->kcol;
        gr_vec_push(c->raw_warnings, w);
        continue;
      }
    }
    if( strlen(x->val)!=x->vn ){
      /* an escaped NUL: no flag value the parser accepts holds one */
      char *m = message(c, "E10001", "value", x->val, "parameter", flag, "reason", "", (char *)NULL);
      return located(err, m, "E10001", path, x->vline, x->vcol);
    }
    if( gr_atc_check_flag_value(c, flag, x->val, err) ){
      err->loc.file = path; err->loc.line = x->vline; err->loc.col = x->vcol;
      return -1;
    }
    if( has_key(ranges, x->key) && check_range(c, gr_table_value(ranges, x->key), flag, x, path, err) ) return -1;
    if( has_key(checks, x->key) ){
      const gr_expr *e = gr_table_value(checks, x->key);
      for(e = e && e->op==GR_E_LIST ? e->a : NULL; e; e = e->next) if( e->op==GR_E_STR && strcmp(e->s, x->val)==0 ) break;
      if( e==NULL ){
        const char *r = str_of(reasons, x->key);
        char *m = message(c, "raw_check_failed", "option", x->key, "value", x->val, "reason", r ? r : "", (char *)NULL);
        return located(err, m, NULL, path, x->vline, x->vcol);
      }
    }
    opts->v[o++] = opts->v[i];
  }
  opts->n = o;
  return 0;
}

/* ApplyRawGeOptionsToFlags. 0, or -1 with err set. */
static int apply(gr_atc_cmdline *c, const raw_opts *opts, const char *path, gr_atc_error *err){
  const gr_table *map = table(c, "atc_raw_ge_option_flags"), *fixed = table(c, "atc_raw_ge_options_non_replaceable");
  char *given = opts->n ? gr_xcalloc(opts->n, 1) : NULL;
  size_t i;
  for(i = 0; i < opts->n; i++) given[i] = gr_atc_flag_value(c, str_of(map, opts->v[i].e->key))!=NULL;
  for(i = 0; i < opts->n; i++){
    const raw_ent *x = opts->v[i].e;
    const char *flag = str_of(map, x->key);
    if( given[i] ) continue;                     /* the command line wins */
    if( has_key(fixed, flag) ){
      char *r = message(c, "E10001_raw_required", (char *)NULL);
      char *m = message(c, "E10001", "value", x->val, "parameter", flag, "reason", r, (char *)NULL);
      free(r);
      free(given);
      return located(err, m, "E10001", path, x->kline, x->kcol);
    }
    gr_atc_flag_push(c, flag, x->val, path, x->kline, x->kcol);
  }
  free(given);
  return 0;
}

int gr_atc_raw_ge_options_text(gr_atc_cmdline *c, const char *path, const char *text, size_t len, gr_atc_error *err){
  const gr_table *fmt = table(c, "atc_raw_ge_options_format"), *flags = table(c, "atc_raw_ge_options_flags");
  const char *section = str_of(fmt, "section"), *ign_flag = str_of(flags, "ignore_unsupported"), *ign;
  const gr_expr *levels = fmt ? gr_table_value(fmt, "levels") : NULL;
  raw_doc d;
  gr_js js;
  raw_opts opts = { NULL, 0, 0 };
  int rc = -1, ignore = 0;
  if( section==NULL || levels==NULL || levels->op!=GR_E_LIST ){
    gr_atc_error_free(err);
    err->msg = gr_xstrdup("the rule set has no table atc_raw_ge_options_format with \"section\" and \"levels\" (rules/atc.rules)");
    return -1;
  }
  ign = ign_flag ? gr_atc_flag_value(c, ign_flag) : NULL;
  /* StringToBool (cmd_flag_info.cc:241-255): the parser took the value, so
  ** it is true unless it is one of the false spellings */
  if( ign ){
    char low[8];
    size_t i, n = strlen(ign);
    for(i = 0; i < n && i < sizeof low - 1; i++) low[i] = (char)(ign[i] >= 'A' && ign[i] <= 'Z' ? ign[i] - 'A' + 'a' : ign[i]);
    low[i] = 0;
    ignore = !(n < sizeof low && (!strcmp(low, "0") || !strcmp(low, "f") || !strcmp(low, "false") || !strcmp(low, "n") || !strcmp(low, "no")));
  }
  memset(&d, 0, sizeof d);
  /* nlohmann::json skips a UTF-8 byte order mark */
  if( len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3)==0 ){ text += 3; len -= 3; }
  gr_js_init_mem(&js, text, len, GR_JS_DEPTH_CAP, 0);
  if( read_doc(&js, section, &d) ){
    const gr_error *e = gr_js_error(&js);
    if( d.bad_line ) e10032(c, err, path, d.bad_line, d.bad_col, "E10032_json", NULL, NULL, NULL, NULL);
    else e10032(c, err, path, e->line, e->col, "E10032_json", NULL, NULL, NULL, NULL);
    goto done;
  }
  if( d.top!=GR_JS_OBJECT ){ e10032(c, err, path, 1, 1, "E10032_top", NULL, NULL, NULL, NULL); goto done; }
  if( d.section!=GR_JS_OBJECT ){ e10032(c, err, path, d.sline, d.scol, "E10032_section", "section", section, NULL, NULL); goto done; }
  if( merge_levels(c, &d, path, levels, &opts, err) ) goto done;
  if( validate(c, &opts, path, ignore, err) ) goto done;
  rc = apply(c, &opts, path, err);
done:
  /* the line of a located error, for the caret */
  if( rc && err->loc.file==path && err->loc.line && err->snippet==NULL ){
    const char *p = text, *end = text + len, *nl;
    uint32_t ln;
    for(ln = 1; ln < err->loc.line && p < end && (nl = memchr(p, '\n', (size_t)(end - p)))!=NULL; ln++) p = nl + 1;
    if( ln==err->loc.line ){
      nl = memchr(p, '\n', (size_t)(end - p));
      err->snippet = gr_xstrndup(p, (size_t)((nl ? nl : end) - p));
    }
  }
  free(opts.v);
  levels_free(&d);
  gr_js_free(&js);
  return rc;
}

int gr_atc_raw_ge_options(gr_atc_cmdline *c, gr_atc_error *err){
  const gr_table *flags = table(c, "atc_raw_ge_options_flags");
  const char *flag = str_of(flags, "file"), *path = flag ? gr_atc_flag_value(c, flag) : NULL;
  char *real, *text;
  struct stat st;
  size_t len;
  gr_error rerr;
  int rc, en = 0;
  if( path==NULL || *path==0 ) return 0;              /* LoadRawGeOptions: no file */
  /* CheckInputPathValid: realpath, then read access */
  if( (real = realpath(path, NULL))==NULL ) en = errno;
  else if( access(real, R_OK)!=0 ) en = errno;
  free(real);
  if( en ){
    char num[16], *r, *m;
    snprintf(num, sizeof num, "%d", en);
    r = message(c, "E10001_errno", "errno", num, "message", strerror(en), (char *)NULL);
    m = message(c, "E10001", "value", path, "parameter", flag, "reason", r, (char *)NULL);
    free(r);
    gr_atc_error_free(err);
    err->msg = m; err->code = "E10001";
    return -1;
  }
  /* a directory opens, and reads as no JSON */
  if( stat(path, &st)==0 && S_ISDIR(st.st_mode) ) return gr_atc_raw_ge_options_text(c, path, "", 0, err);
  if( (text = gr_read_file(path, &len, &rerr))==NULL ){
    char *r = message(c, "E13001_open", (char *)NULL);
    char *m = message(c, "E13001", "file", path, "errmsg", r, (char *)NULL);
    free(r);
    gr_atc_error_free(err);
    err->msg = m; err->code = "E13001";
    return -1;
  }
  rc = gr_atc_raw_ge_options_text(c, path, text, len, err);
  free(text);
  return rc;
}
