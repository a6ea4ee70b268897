/*
** case_update.c: `gerules test --update`, a golden case rewritten from one
** run. The expect block the author wrote is refreshed, not replaced: every
** key and selector stays, each asserted value becomes the current one, and an
** assertion that can no longer hold (a node, option or diagnostic that is
** gone, a `key!` element now present) is dropped. A case without an expect
** block gets one recorded from the report (its nodes' decisions, its
** diagnostics with their counts, the summary). Strings that hold a temporary
** path go back to their {NAME} / {tmp} form. Only the `exit:` line, `stderr:`
** lines and the expect block change; every other byte of the file is kept.
** Each change is described on one line ("WHERE: OLD -> NEW").
*/
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/cases.h"

typedef struct upd {
  const gr_subst *s;
  gr_buf *changes;
  size_t nchanges;
} upd;

static void note(upd *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(upd *u, const char *fmt, ...){
  va_list ap;
  u->nchanges++;
  gr_buf_adds(u->changes, "    ");
  va_start(ap, fmt);
  gr_buf_vprintf(u->changes, fmt, ap);
  va_end(ap);
  gr_buf_addc(u->changes, '\n');
}

/* ---- building trees ---- */

static gr_jv *jv_new(int t){
  gr_jv *v = gr_xcalloc(1, sizeof *v);
  v->t = t;
  return v;
}

static gr_jv *jv_int(int64_t i){
  gr_jv *v = jv_new(GR_JV_INT);
  v->i = i;
  return v;
}

/* Moves x into the array or object p (key for an object) and frees x's shell. */
static void jv_push(gr_jv *p, const char *key, gr_jv *x){
  p->v = gr_xrealloc(p->v, (p->len + 1) * sizeof *p->v);
  if( p->t==GR_JV_OBJ ){
    p->k = gr_xrealloc(p->k, (p->len + 1) * sizeof *p->k);
    p->k[p->len] = gr_xstrdup(key);
  }
  p->v[p->len++] = *x;
  free(x);
}

/* A string of the report with temporary paths put back as {NAME}: the
** longest value first, so a block's file wins over {tmp}. */
static char *unsubst(const upd *u, const char *text){
  gr_buf b;
  const char *p = text;
  gr_buf_init(&b);
  while( *p ){
    size_t i, best = u->s->n, bl = 0;
    for(i = 0; i < u->s->n; i++){
      size_t l = strlen(u->s->values[i]);
      if( l > bl && strncmp(p, u->s->values[i], l)==0 ){ best = i; bl = l; }
    }
    if( best < u->s->n ){
      gr_buf_printf(&b, "{%s}", u->s->names[best]);
      p += bl;
    }else{
      gr_buf_addc(&b, *p++);
    }
  }
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

/* A deep copy: of an expected value as written (record 0), or of a value of
** the report with its temporary paths put back (record 1). */
static gr_jv *jv_copy(const upd *u, const gr_jv *a, int record){
  gr_jv *v = jv_new(a->t);
  size_t i;
  v->b = a->b;
  v->i = a->i;
  if( a->t==GR_JV_STR && record ){
    v->s = unsubst(u, a->s);
    v->n = strlen(v->s);
  }else if( a->s ){
    v->s = gr_xstrndup(a->s, a->n);
    v->n = a->n;
  }
  for(i = 0; i < a->len; i++) jv_push(v, a->k ? a->k[i] : NULL, jv_copy(u, &a->v[i], record));
  return v;
}

/* ---- refreshing what the author wrote ---- */

static gr_jv *refresh(upd *u, const gr_jv *e, const gr_jv *a, const char *where);

static void changed(upd *u, const char *where, const gr_jv *old, const gr_jv *now){
  char *s1 = gr_jv_short(old, 200), *s2 = gr_jv_short(now, 200);
  note(u, "%s: %s -> %s", where, s1, s2);
  free(s1); free(s2);
}

/* `key!`: keeps the expected elements that still match no actual element. */
static gr_jv *refresh_none_of(upd *u, const gr_jv *ev, const gr_jv *items, const char *where){
  gr_jv *out;
  size_t j, q;
  if( ev->t!=GR_JV_ARR || items==NULL || items->t!=GR_JV_ARR ) return jv_copy(u, ev, 0);
  out = jv_new(GR_JV_ARR);
  for(j = 0; j < ev->len; j++){
    for(q = 0; q < items->len && !gr_case_matches(u->s, &ev->v[j], &items->v[q]); q++) ;
    if( q < items->len ){
      char *s1 = gr_jv_short(&ev->v[j], 200);
      note(u, "%s!: dropped %s (an element matches it now)", where, s1);
      free(s1);
    }else{
      jv_push(out, NULL, jv_copy(u, &ev->v[j], 0));
    }
  }
  return out;
}

static gr_jv *refresh_obj(upd *u, const gr_jv *e, const gr_jv *a, const char *where){
  gr_jv *out = jv_new(GR_JV_OBJ);
  size_t i;
  for(i = 0; i < e->len; i++){
    const char *k = e->k[i];
    size_t kl = strlen(k);
    char *key = gr_xstrdup(k), *w;
    const gr_jv *ev = &e->v[i], *av;
    if( strcmp(k, "#")==0 ){ jv_push(out, k, jv_copy(u, ev, 0)); free(key); continue; }
    if( kl > 1 && (k[kl-1]=='!' || k[kl-1]=='~') ) key[kl-1] = 0;
    av = gr_jv_get(a, key);
    w = gr_xasprintf("%s.%s", where, key);
    if( kl > 1 && k[kl-1]=='!' ){
      jv_push(out, k, refresh_none_of(u, ev, av, w));
    }else if( kl > 1 && k[kl-1]=='~' ){
      gr_jv one;
      char *k1 = (char*)k;
      memset(&one, 0, sizeof one);
      one.t = GR_JV_OBJ; one.len = 1; one.k = &k1; one.v = (gr_jv*)ev;
      if( gr_case_matches(u->s, &one, a) ) jv_push(out, k, jv_copy(u, ev, 0));
      else if( av && av->t==GR_JV_STR ){ changed(u, w, ev, av); jv_push(out, k, jv_copy(u, av, 1)); }
      else note(u, "%s~: dropped (no such string in the report now)", w);
    }else if( av==NULL ){
      note(u, "%s: dropped (not in the report now)", w);
    }else{
      gr_jv *r = refresh(u, ev, av, w);
      if( r ) jv_push(out, k, r);
    }
    free(w);
    free(key);
  }
  return out;
}

/* A list: an element that matches some actual element stays; another is
** refreshed against the actual element at its index, or dropped. */
static gr_jv *refresh_arr(upd *u, const gr_jv *e, const gr_jv *a, const char *where){
  gr_jv *out = jv_new(GR_JV_ARR);
  size_t j, q;
  for(j = 0; j < e->len; j++){
    char *w = gr_xasprintf("%s[%zu]", where, j);
    for(q = 0; q < a->len && !gr_case_matches(u->s, &e->v[j], &a->v[q]); q++) ;
    if( q < a->len ) jv_push(out, NULL, jv_copy(u, &e->v[j], 0));
    else if( j < a->len ){ gr_jv *r = refresh(u, &e->v[j], &a->v[j], w); if( r ) jv_push(out, NULL, r); }
    else{ char *s1 = gr_jv_short(&e->v[j], 200); note(u, "%s: dropped %s (no such element now)", w, s1); free(s1); }
    free(w);
  }
  return out;
}

static gr_jv *refresh(upd *u, const gr_jv *e, const gr_jv *a, const char *where){
  if( a==NULL ){ note(u, "%s: dropped (not in the report now)", where); return NULL; }
  if( e->t==GR_JV_OBJ && a->t==GR_JV_OBJ ) return refresh_obj(u, e, a, where);
  if( e->t==GR_JV_ARR && a->t==GR_JV_ARR ) return refresh_arr(u, e, a, where);
  if( gr_case_matches(u->s, e, a) ) return jv_copy(u, e, 0);
  changed(u, where, e, a);
  return jv_copy(u, a, 1);
}

/* "type:T": refreshed against the first node of the type; a key the other
** nodes of the type do not share is dropped. */
static gr_jv *refresh_type(upd *u, const gr_jv *ev, const gr_jv *nodes, const char *type, const char *where){
  size_t at = 0, from, i;
  const gr_jv *first = gr_jv_find(nodes, "type", type, 0, &at), *nd;
  gr_jv *r;
  if( first==NULL ){ note(u, "%s: dropped (no node of type %s now)", where, type); return NULL; }
  r = refresh(u, ev, first, where);
  if( r==NULL || r->t!=GR_JV_OBJ ) return r;
  for(i = 0; i < r->len; ){
    gr_jv one;
    int all = 1;
    memset(&one, 0, sizeof one);
    one.t = GR_JV_OBJ; one.len = 1; one.k = &r->k[i]; one.v = &r->v[i];
    for(from = at + 1; all && (nd = gr_jv_find(nodes, "type", type, from, &from))!=NULL; from++) all = gr_case_matches(u->s, &one, nd);
    if( all ){ i++; continue; }
    note(u, "%s.%s: dropped (the nodes of type %s differ in it now)", where, r->k[i], type);
    free(r->k[i]);
    {
      gr_jv *shell = jv_new(GR_JV_NULL);      /* gr_jv_free frees a tree and its shell */
      *shell = r->v[i];
      gr_jv_free(shell);
    }
    memmove(&r->v[i], &r->v[i + 1], (r->len - i - 1) * sizeof *r->v);
    memmove(&r->k[i], &r->k[i + 1], (r->len - i - 1) * sizeof *r->k);
    r->len--;
  }
  return r;
}

static gr_jv *refresh_nodes(upd *u, const gr_jv *ev, const gr_jv *nodes){
  gr_jv *out = jv_new(GR_JV_OBJ);
  size_t j;
  for(j = 0; j < ev->len; j++){
    char *sel = gr_subst_apply(u->s, ev->k[j]), *w = gr_xasprintf("nodes[%s]", ev->k[j]);
    gr_jv *r = NULL;
    if( strncmp(sel, "type:", 5)==0 ) r = refresh_type(u, &ev->v[j], nodes, sel + 5, w);
    else{
      const gr_jv *nd = gr_jv_find(nodes, "name", sel, 0, NULL);
      if( nd==NULL ) note(u, "%s: dropped (no such node now)", w);
      else r = refresh(u, &ev->v[j], nd, w);
    }
    if( r ) jv_push(out, ev->k[j], r);
    free(sel); free(w);
  }
  return out;
}

static gr_jv *refresh_options(upd *u, const gr_jv *ev, const gr_jv *opts){
  gr_jv *out = jv_new(GR_JV_OBJ);
  size_t j;
  for(j = 0; j < ev->len; j++){
    const gr_jv *o = gr_jv_find(opts, "name", ev->k[j], 0, NULL), *val = o ? gr_jv_get(o, "value") : NULL;
    char *w = gr_xasprintf("options[%s]", ev->k[j]);
    if( ev->v[j].t==GR_JV_NULL ){
      if( o==NULL ) jv_push(out, ev->k[j], jv_new(GR_JV_NULL));
      else{
        gr_jv *x = jv_new(GR_JV_OBJ);
        jv_push(x, "value", val ? jv_copy(u, val, 1) : jv_new(GR_JV_NULL));
        changed(u, w, &ev->v[j], x);
        jv_push(out, ev->k[j], x);
      }
    }else if( o==NULL ){
      note(u, "%s: -> null (not in the report now)", w);
      jv_push(out, ev->k[j], jv_new(GR_JV_NULL));
    }else{
      gr_jv *r = refresh(u, &ev->v[j], o, w);
      if( r ) jv_push(out, ev->k[j], r);
    }
    free(w);
  }
  return out;
}

static size_t diag_hits(const upd *u, const gr_jv *want, const gr_jv *diags){
  size_t q, n = 0;
  for(q = 0; diags && diags->t==GR_JV_ARR && q < diags->len; q++) n += (size_t)gr_case_diag_matches(u->s, want, &diags->v[q]);
  return n;
}

/* The diagnostic a matcher that matches none was about: one with its code
** that shares the most of its other fields; NULL when its code is gone. */
static const gr_jv *closest_diag(const upd *u, const gr_jv *want, const gr_jv *diags){
  const gr_jv *code = gr_jv_get(want, "code"), *best = NULL;
  size_t q, k, bestn = 0;
  if( want->t!=GR_JV_OBJ || code==NULL || code->t!=GR_JV_STR || diags==NULL || diags->t!=GR_JV_ARR ) return NULL;
  for(q = 0; q < diags->len; q++){
    const gr_jv *dc = gr_jv_get(&diags->v[q], "code");
    size_t n = 0;
    if( dc==NULL || dc->t!=GR_JV_STR || strcmp(dc->s, code->s)!=0 ) continue;
    for(k = 0; k < want->len; k++){
      gr_jv one;
      memset(&one, 0, sizeof one);
      one.t = GR_JV_OBJ; one.len = 1; one.k = &want->k[k]; one.v = &want->v[k];
      if( strcmp(want->k[k], "#")!=0 && gr_case_matches(u->s, &one, &diags->v[q]) ) n++;
    }
    if( best==NULL || n > bestn ){ best = &diags->v[q]; bestn = n; }
  }
  return best;
}

static void set_count(gr_jv *m, size_t n){
  size_t i;
  for(i = 0; m->t==GR_JV_OBJ && i < m->len; i++) if( strcmp(m->k[i], "#")==0 ){ m->v[i].t = GR_JV_INT; m->v[i].i = (int64_t)n; }
}

/* Each matcher stays while a diagnostic matches it ("#" set to the count
** now); one nothing matches is refreshed against the closest diagnostic of
** its code, or dropped when the code is gone (unless it says "#": 0). */
static gr_jv *refresh_diags(upd *u, const gr_jv *ev, const gr_jv *diags){
  gr_jv *out = jv_new(GR_JV_ARR);
  size_t j;
  for(j = 0; j < ev->len; j++){
    const gr_jv *want = &ev->v[j], *cnt = gr_jv_get(want, "#");
    size_t hits = diag_hits(u, want, diags);
    char *s1 = gr_jv_short(want, 200);
    const gr_jv *near = hits==0 ? closest_diag(u, want, diags) : NULL;
    if( hits==0 && cnt && cnt->t==GR_JV_INT && cnt->i==0 ){
      jv_push(out, NULL, jv_copy(u, want, 0));
    }else if( hits==0 && near ){
      char *w = gr_xasprintf("diagnostics[%zu]", j);
      gr_jv *x = refresh_obj(u, want, near, w);
      size_t now = diag_hits(u, x, diags);
      if( cnt && cnt->t==GR_JV_INT && (size_t)cnt->i!=now ){
        note(u, "%s: \"#\": %lld -> %zu", w, (long long)cnt->i, now);
        set_count(x, now);
      }
      jv_push(out, NULL, x);
      free(w);
    }else if( hits==0 ){
      note(u, "diagnostics[%zu]: dropped %s (no diagnostic has its code now)", j, s1);
    }else if( cnt && cnt->t==GR_JV_INT && (size_t)cnt->i!=hits ){
      gr_jv *x = jv_copy(u, want, 0);
      set_count(x, hits);
      note(u, "diagnostics[%zu]: %s: \"#\": %lld -> %zu", j, s1, (long long)cnt->i, hits);
      jv_push(out, NULL, x);
    }else{
      jv_push(out, NULL, jv_copy(u, want, 0));
    }
    free(s1);
  }
  return out;
}

static gr_jv *refresh_absent(upd *u, const gr_jv *ev, const gr_jv *diags){
  gr_jv *out = jv_new(GR_JV_ARR);
  size_t j;
  for(j = 0; j < ev->len; j++){
    if( diag_hits(u, &ev->v[j], diags) ){
      char *s1 = gr_jv_short(&ev->v[j], 200);
      note(u, "absent: dropped %s (such a diagnostic is reported now)", s1);
      free(s1);
    }else{
      jv_push(out, NULL, jv_copy(u, &ev->v[j], 0));
    }
  }
  return out;
}

static gr_jv *refresh_report(upd *u, const gr_jv *exp, const gr_jv *rep){
  gr_jv *out = jv_new(GR_JV_OBJ);
  const gr_jv *nodes = gr_jv_get(rep, "nodes"), *opts = gr_jv_get(rep, "options"), *diags = gr_jv_get(rep, "diagnostics");
  size_t i, kl;
  for(i = 0; i < exp->len; i++){
    const char *key = exp->k[i];
    const gr_jv *ev = &exp->v[i];
    gr_jv *r = NULL;
    kl = strlen(key);
    if( strcmp(key, "nodes")==0 && ev->t==GR_JV_OBJ ) r = refresh_nodes(u, ev, nodes);
    else if( strcmp(key, "options")==0 && ev->t==GR_JV_OBJ ) r = refresh_options(u, ev, opts);
    else if( strcmp(key, "diagnostics")==0 && ev->t==GR_JV_ARR ) r = refresh_diags(u, ev, diags);
    else if( strcmp(key, "absent")==0 && ev->t==GR_JV_ARR ) r = refresh_absent(u, ev, diags);
    else if( kl > 1 && (key[kl-1]=='!' || key[kl-1]=='~') ){
      gr_jv one, *x;
      char *k1 = (char*)key;
      memset(&one, 0, sizeof one);
      one.t = GR_JV_OBJ; one.len = 1; one.k = &k1; one.v = (gr_jv*)ev;
      x = refresh_obj(u, &one, rep, "");
      if( x->len ){ r = jv_new(GR_JV_NULL); *r = x->v[0]; free(x->k[0]); free(x->k); free(x->v); free(x); }
      else gr_jv_free(x);
    }else{
      char *w = gr_xasprintf(".%s", key);
      r = refresh(u, ev, gr_jv_get(rep, key), w);
      free(w);
    }
    if( r ) jv_push(out, key, r);
  }
  return out;
}

/* ---- recording a case that has no expect block ---- */

/* A diagnostic as a matcher: its code, severity, node, option, file, line
** and message (those it has). */
static gr_jv *diag_matcher(const upd *u, const gr_jv *d){
  static const char *const keys[] = { "code", "severity", "node", "option", "file", "line", "message" };
  gr_jv *m = jv_new(GR_JV_OBJ);
  size_t k;
  for(k = 0; k < sizeof keys / sizeof *keys; k++){
    const gr_jv *v = gr_jv_get(d, keys[k]);
    if( v && v->t!=GR_JV_NULL ) jv_push(m, keys[k], jv_copy(u, v, 1));
  }
  return m;
}

static gr_jv *record_report(upd *u, const gr_jv *rep){
  gr_jv *out = jv_new(GR_JV_OBJ), *nodes = jv_new(GR_JV_OBJ), *diags = jv_new(GR_JV_ARR), *summ = jv_new(GR_JV_OBJ);
  const gr_jv *rn = gr_jv_get(rep, "nodes"), *rd = gr_jv_get(rep, "diagnostics"), *rs = gr_jv_get(rep, "summary");
  static const char *const skip[] = { "name", "type", "graph" }, *const counts[] = { "errors", "warnings", "notes" };
  size_t i, k, q;
  int64_t *n = NULL;
  for(i = 0; rn && rn->t==GR_JV_ARR && i < rn->len; i++){
    const gr_jv *nd = &rn->v[i], *name = gr_jv_get(nd, "name");
    gr_jv *x;
    if( name==NULL || name->t!=GR_JV_STR || gr_jv_get(nodes, name->s) ) continue;
    x = jv_new(GR_JV_OBJ);
    for(k = 0; k < nd->len; k++){
      size_t s;
      int t = nd->v[k].t;
      for(s = 0; s < sizeof skip / sizeof *skip && strcmp(nd->k[k], skip[s])!=0; s++) ;
      if( s==sizeof skip / sizeof *skip && (t==GR_JV_STR || t==GR_JV_NULL || t==GR_JV_BOOL || t==GR_JV_INT) )
        jv_push(x, nd->k[k], jv_copy(u, &nd->v[k], 1));
    }
    jv_push(nodes, name->s, x);
  }
  for(i = 0; rd && rd->t==GR_JV_ARR && i < rd->len; i++){
    gr_jv *m = diag_matcher(u, &rd->v[i]);
    char *a = gr_jv_short(m, (size_t)-2), *b;
    for(q = 0; q < diags->len; q++){
      b = gr_jv_short(&diags->v[q], (size_t)-2);
      if( strcmp(a, b)==0 ){ free(b); break; }
      free(b);
    }
    free(a);
    if( q < diags->len ){ n[q]++; gr_jv_free(m); continue; }
    n = gr_xrealloc(n, (diags->len + 1) * sizeof *n);
    n[diags->len] = 1;
    jv_push(diags, NULL, m);
  }
  for(q = 0; q < diags->len; q++) jv_push(&diags->v[q], "#", jv_int(n[q]));
  free(n);
  for(k = 0; k < sizeof counts / sizeof *counts; k++){
    const gr_jv *v = gr_jv_get(rs, counts[k]);
    if( v && v->t==GR_JV_INT ) jv_push(summ, counts[k], jv_int(v->i));
  }
  jv_push(out, "nodes", nodes);
  jv_push(out, "diagnostics", diags);
  jv_push(out, "summary", summ);
  note(u, "expect: recorded from the report (%zu node(s), %zu diagnostic matcher(s), the summary)", out->v[0].len, out->v[1].len);
  return out;
}

/* ---- writing ---- */

/* One top-level key a line; "nodes"/"options" and lists of objects longer
** than a line (100 bytes) one entry a line. */
static void write_expect(gr_buf *b, const gr_jv *e){
  size_t i, j;
  gr_buf_adds(b, "{\n");
  for(i = 0; i < e->len; i++){
    const gr_jv *v = &e->v[i];
    int objs = v->len > 0 && (v->t==GR_JV_OBJ || v->t==GR_JV_ARR);
    size_t at = b->n, after_key;
    gr_jv key;
    for(j = 0; objs && j < v->len; j++) objs = v->v[j].t==GR_JV_OBJ || (v->t==GR_JV_OBJ && v->v[j].t==GR_JV_NULL);
    memset(&key, 0, sizeof key);
    key.t = GR_JV_STR; key.s = e->k[i]; key.n = strlen(e->k[i]);
    gr_buf_adds(b, "  ");
    gr_jv_write(b, &key);                  /* the key, escaped */
    gr_buf_adds(b, ": ");
    after_key = b->n;
    if( objs ){                 /* short enough for one line: kept on one */
      gr_jv_write(b, v);
      if( b->n - at <= 100 ) objs = 0;
      else b->n = after_key;
      if( !objs ){ gr_buf_adds(b, i + 1 < e->len ? ",\n" : "\n"); continue; }
    }
    if( !objs ) gr_jv_write(b, v);
    else{
      gr_buf_addc(b, v->t==GR_JV_OBJ ? '{' : '[');
      for(j = 0; j < v->len; j++){
        gr_buf_adds(b, j ? ",\n    " : "\n    ");
        if( v->t==GR_JV_OBJ ){
          gr_jv one;
          gr_buf tmp;
          memset(&one, 0, sizeof one);
          one.t = GR_JV_OBJ; one.len = 1; one.k = &v->k[j]; one.v = &v->v[j];
          gr_buf_init(&tmp);
          gr_jv_write(&tmp, &one);                 /* {"key": value}: without its braces */
          gr_buf_add(b, tmp.p + 1, tmp.n - 2);
          gr_buf_free(&tmp);
        }else{
          gr_jv_write(b, &v->v[j]);
        }
      }
      gr_buf_adds(b, v->t==GR_JV_OBJ ? "\n  }" : "\n  ]");
    }
    gr_buf_adds(b, i + 1 < e->len ? ",\n" : "\n");
  }
  gr_buf_adds(b, "}\n");
}

char *gr_case_update(const gr_case *c, const char *text, size_t len, const gr_subst *s,
                     int rc, const char *err, const gr_jv *report, gr_buf *changes){
  upd u;
  gr_jv *nexp = NULL;
  gr_buf out, ex;
  const char *p = text, *end = text + len;
  uint32_t line = 0;
  uint8_t *drop = gr_xcalloc(c->nstderr + 1, 1);
  size_t i;
  u.s = s; u.changes = changes; u.nchanges = 0;
  if( c->exit!=rc ){
    if( c->exit < 0 ) note(&u, "exit: recorded %d", rc);
    else note(&u, "exit: %d -> %d", c->exit, rc);
  }
  for(i = 0; i < c->nstderr; i++){
    char *want = gr_subst_apply(s, c->stderr_has[i]);
    if( err==NULL || strstr(err, want)==NULL ){ drop[i] = 1; note(&u, "stderr: dropped \"%s\" (not on stderr now)", c->stderr_has[i]); }
    free(want);
  }
  if( report ) nexp = c->expect ? refresh_report(&u, c->expect, report) : record_report(&u, report);
  else if( c->expect ) note(&u, "expect: dropped (exit %d gives no report)", rc);
  if( u.nchanges==0 ){ gr_jv_free(nexp); free(drop); return NULL; }
  gr_buf_init(&ex);
  if( nexp ) write_expect(&ex, nexp);
  gr_jv_free(nexp);
  gr_buf_init(&out);
  while( p < end ){
    const char *le = memchr(p, '\n', (size_t)(end - p)), *next;
    int keep = 1;
    if( le==NULL ) le = end;
    next = le < end ? le + 1 : end;
    line++;
    if( line==c->exit_line ){ gr_buf_printf(&out, "exit: %d\n", rc); keep = 0; }
    for(i = 0; i < c->nstderr; i++) if( drop[i] && line==c->stderr_line[i] ) keep = 0;
    if( c->exit_line==0 && line==c->first_block_line ) gr_buf_printf(&out, "exit: %d\n", rc);
    if( c->expect_line && line==c->expect_line ){
      if( ex.n ){ gr_buf_add(&out, p, (size_t)(le - p)); gr_buf_addc(&out, '\n'); gr_buf_add(&out, ex.p, ex.n); }
      while( p < end && line + 1 < c->expect_end ){      /* skip the old block */
        const char *e2 = memchr(next, '\n', (size_t)(end - next));
        if( next >= end ) break;
        next = e2 ? e2 + 1 : end;
        line++;
      }
      keep = 0;
    }
    if( keep ){ gr_buf_add(&out, p, (size_t)(le - p)); gr_buf_addc(&out, '\n'); }
    p = next;
  }
  if( c->exit_line==0 && c->first_block_line==0 ) gr_buf_printf(&out, "exit: %d\n", rc);
  if( c->expect_line==0 && ex.n ){ gr_buf_adds(&out, "--- expect\n"); gr_buf_add(&out, ex.p, ex.n); }
  gr_buf_free(&ex);
  free(drop);
  gr_buf_cstr(&out);
  return gr_buf_detach(&out);
}
