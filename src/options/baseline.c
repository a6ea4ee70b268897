/*
** baseline.c: reads a baseline (a previous JSON report, or a suppression
** file) and accepts the findings it lists (see baseline.h). A report's
** diagnostics match on code, node, option and message, not on file
** positions, which move when an options file is edited; a suppression
** matches on its code and on whichever of node, option and message (a
** substring) it gives.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/baseline.h"
#include "model/json_scan.h"

#define BASELINE_MAX_BYTES ((size_t)64 << 20)

static void entry_free(gr_baseline_entry *e){
  free(e->code); free(e->node); free(e->option); free(e->message); free(e->reason); free(e->expires);
}

void gr_baseline_free(gr_baseline *b){
  size_t i;
  for(i = 0; i < b->n; i++) entry_free(&b->v[i]);
  free(b->v);
  free(b->file);
  memset(b, 0, sizeof *b);
}

static void located(gr_js *js, gr_error *err, uint64_t off, const char *fmt, const char *arg){
  uint32_t line, col;
  gr_js_pos(js, off, &line, &col);
  gr_error_set(err, line, col, fmt, arg);
}

/* YYYY-MM-DD with a real month and day. */
static int valid_date(const char *s){
  static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  int y, m, d, i;
  for(i = 0; i < 10; i++) if( (i==4 || i==7) ? s[i]!='-' : (s[i] < '0' || s[i] > '9') ) return 0;
  if( s[10] ) return 0;
  y = atoi(s); m = atoi(s + 5); d = atoi(s + 8);
  if( m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ) return 0;
  if( m==2 && d==29 && !(y % 4==0 && (y % 100!=0 || y % 400==0)) ) return 0;
  return 1;
}

/* One object of the array: a report diagnostic (unknown members skipped, as
** a report of a later gerules may have more) or a suppression (unknown
** members are errors: a misspelt "node" would widen what it accepts). */
static int read_entry(gr_js *js, gr_baseline *b, gr_baseline_entry *e, gr_error *err){
  gr_js_tok t;
  for(;;){
    char **field = NULL;
    char key[16];
    uint64_t koff;
    switch( gr_js_next(js, &t) ){
      case GR_JS_ERROR: return -2;
      case GR_JS_OBJECT_END: goto check;
      case GR_JS_KEY: break;
      default: located(js, err, t.off, "%s", "expected a member name"); return -1;
    }
    koff = t.off;
    snprintf(key, sizeof key, "%.*s", (int)(t.n < 15 ? t.n : 15), t.s);
    if( t.n < 15 && memchr(t.s, 0, t.n)==NULL ){
      if( strcmp(key, "code")==0 ) field = &e->code;
      else if( strcmp(key, "node")==0 ) field = &e->node;
      else if( strcmp(key, "option")==0 ) field = &e->option;
      else if( strcmp(key, "message")==0 ) field = &e->message;
      else if( !b->report && strcmp(key, "reason")==0 ) field = &e->reason;
      else if( !b->report && strcmp(key, "expires")==0 ) field = &e->expires;
    }
    if( gr_js_next(js, &t)==GR_JS_ERROR ) return -2;
    if( field==NULL ){
      if( !b->report ){
        located(js, err, koff, "unknown member '%s' of a suppression (code, reason, node, option, message, expires)", key);
        return -1;
      }
      if( !gr_js_skip(js, &t) ) return -2;
      continue;
    }
    if( t.type==GR_JS_NULL && b->report ) continue;
    if( t.type!=GR_JS_STRING ){ located(js, err, t.off, "'%s' must be a string", key); return -1; }
    if( memchr(t.s, 0, t.n) ){ located(js, err, t.off, "'%s' cannot contain a NUL byte (\\u0000)", key); return -1; }
    free(*field);
    *field = gr_xstrndup(t.s, t.n);
  }
check:
  if( b->report ) return 0;
  if( e->code==NULL ){ gr_error_set(err, e->line, e->col, "%s", "a suppression needs a \"code\""); return -1; }
  if( e->reason==NULL || !e->reason[0] ){
    gr_error_set(err, e->line, e->col, "the suppression of %s needs a \"reason\"", e->code);
    return -1;
  }
  if( e->expires && !valid_date(e->expires) ){
    gr_error_set(err, e->line, e->col, "\"expires\" is a date YYYY-MM-DD, not '%s'", e->expires);
    return -1;
  }
  return 0;
}

int gr_baseline_parse(gr_baseline *b, const char *file, const char *text, size_t len, gr_error *err){
  gr_js js;
  gr_js_tok t;
  int rc = -1, seen = 0, k;
  memset(b, 0, sizeof *b);
  b->file = gr_xstrdup(file);
  gr_js_init_mem(&js, text, len, 8, 0);
  if( gr_js_next(&js, &t)!=GR_JS_OBJECT ){
    if( t.type==GR_JS_ERROR ) goto scan_error;
    located(&js, err, t.off, "%s", "expected a JSON object: a gerules eval report or {\"suppressions\": [...]}");
    goto done;
  }
  for(;;){
    int is_list = 0;
    switch( gr_js_next(&js, &t) ){
      case GR_JS_ERROR: goto scan_error;
      case GR_JS_OBJECT_END:
        if( gr_js_next(&js, &t)==GR_JS_ERROR ) goto scan_error;
        if( !seen ){
          gr_error_set(err, 1, 1, "%s", "neither \"diagnostics\" (a gerules eval report) nor \"suppressions\"");
          goto done;
        }
        rc = 0;
        goto done;
      case GR_JS_KEY: break;
      default: goto scan_error;
    }
    if( t.n==11 && memcmp(t.s, "diagnostics", 11)==0 ){ is_list = 1; b->report = 1; }
    else if( t.n==12 && memcmp(t.s, "suppressions", 12)==0 ){ is_list = 1; b->report = 0; }
    if( is_list && seen ){
      located(&js, err, t.off, "%s", "both \"diagnostics\" and \"suppressions\": a baseline is one or the other");
      goto done;
    }
    if( gr_js_next(&js, &t)==GR_JS_ERROR ) goto scan_error;
    if( !is_list ){ if( !gr_js_skip(&js, &t) ) goto scan_error; continue; }
    seen = 1;
    if( t.type!=GR_JS_ARRAY ){ located(&js, err, t.off, "%s", "expected an array of objects"); goto done; }
    for(;;){
      gr_baseline_entry *e;
      if( gr_js_next(&js, &t)==GR_JS_ERROR ) goto scan_error;
      if( t.type==GR_JS_ARRAY_END ) break;
      if( t.type!=GR_JS_OBJECT ){ located(&js, err, t.off, "%s", "expected an object"); goto done; }
      /* at most BASELINE_MAX_BYTES / 2 entries ("{}"): the size cannot overflow */
      if( b->n==b->cap ){ b->cap = b->cap ? b->cap * 2 : 8; b->v = gr_xrealloc(b->v, b->cap * sizeof *b->v); }
      e = &b->v[b->n++];
      memset(e, 0, sizeof *e);
      gr_js_pos(&js, t.off, &e->line, &e->col);
      if( (k = read_entry(&js, b, e, err))==-2 ) goto scan_error;
      if( k < 0 ) goto done;
    }
  }
scan_error:
  gr_error_set(err, gr_js_error(&js)->line, gr_js_error(&js)->col, "malformed JSON: %s", gr_js_error(&js)->msg);
done:
  gr_js_free(&js);
  return rc;
}

int gr_baseline_read(gr_baseline *b, const char *path, gr_error *err){
  size_t len;
  char *text = gr_read_file_max(path, BASELINE_MAX_BYTES, &len, err);
  int rc;
  if( text==NULL ){ memset(b, 0, sizeof *b); b->file = gr_xstrdup(path); return -1; }
  rc = gr_baseline_parse(b, path, text, len, err);
  free(text);
  return rc;
}

static int same(const char *a, const char *b){ return a==NULL ? b==NULL : b!=NULL && strcmp(a, b)==0; }

static int matches(const gr_baseline *b, const gr_baseline_entry *e, const gr_diag *d){
  if( b->report ) return same(e->code, d->code) && same(e->node, d->node) && same(e->option, d->option) && same(e->message, d->msg);
  return d->code && strcmp(e->code, d->code)==0 &&
         (e->node==NULL || same(e->node, d->node)) && (e->option==NULL || same(e->option, d->option)) &&
         (e->message==NULL || strstr(d->msg, e->message)!=NULL);
}

size_t gr_baseline_apply(const gr_baseline *b, gr_diags *dl, const char *today){
  size_t i, j, n0 = dl->n, accepted = 0;
  char *expired = gr_xcalloc(b->n ? b->n : 1, 1);
  for(j = 0; j < b->n; j++){
    const gr_baseline_entry *e = &b->v[j];
    if( e->expires && strcmp(e->expires, today) < 0 ){
      gr_diag *x = gr_diags_add(dl, GR_SEV_ERROR, b->file, e->line, e->col,
                                "the suppression of %s expired on %s (reason given: %s); fix the finding or renew the suppression",
                                e->code, e->expires, e->reason);
      gr_diag_set(&x->code, "GR0401");
      expired[j] = 1;
    }
  }
  for(i = 0; i < n0; i++){
    gr_diag *d = &dl->v[i];
    if( d->sev==GR_SEV_NOTE ) continue;
    for(j = 0; j < b->n; j++){
      const gr_baseline_entry *e = &b->v[j];
      char *why;
      if( expired[j] || !matches(b, e, d) ) continue;
      why = b->report ? gr_xasprintf("%s:%u: in the baseline report", b->file, e->line)
                      : gr_xasprintf("%s:%u: %s", b->file, e->line, e->reason);
      if( !d->changed_by ) d->orig_sev = d->sev;
      dl->count[d->sev]--;
      d->sev = GR_SEV_NOTE;
      dl->count[GR_SEV_NOTE]++;
      free(d->changed_by);
      d->changed_by = why;
      accepted++;
      break;
    }
  }
  free(expired);
  return accepted;
}
