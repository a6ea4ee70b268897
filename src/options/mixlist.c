/*
** mixlist.c: the MODIFY_MIXLIST file reader (dtype_files.h). The file is
** one JSON object read with the project's JSON tokenizer
** (src/model/json_scan.h): top-level keys "black-list", "white-list",
** "gray-list" only, each an object with keys "to-add" / "to-remove" only,
** each an array of op type strings (hicann/ge @ffdcbc9f7
** compiler/engines/nn_engine/utils/common/config_parser/modify_mixlist_config_parser.cc:
** 123-173; anything else is E21002, a missing file E21001). Per op type the
** operations asked form a set that must be one FE allows (:46-60: remove
** black; remove white; add gray; add gray + remove black or white; add
** white, alone or + remove gray or black; add black, alone or + remove gray
** or white), else E20003 (:233-248). gr_mixlist_policy applies them as
** FE's GetPrecisionPolicy does (:265-294).
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/dtype_files.h"
#include "model/json_scan.h"
#include "base/lineidx.h"
#include "options/file_diag.h"

typedef struct mx {
  gr_js js;
  gr_js_tok t;
  const char *path;
  gr_lineidx lines;
  gr_diags *d;
  gr_mixlist *m;
  gr_map index;           /* op type -> entry index + 1 */
  int nerr;
} mx;

static gr_diag *say(mx *r, gr_severity sev, uint32_t line, uint32_t col, const char *code, const char *fmt, const char *a, const char *b){
  return gr_file_diag(r->d, r->path, &r->lines, &r->nerr, sev, line, col, code, fmt, a, b);
}

static void bad(mx *r, const char *fmt, const char *a, const char *b){
  uint32_t line = 0, col = 0;
  if( r->t.type==GR_JS_ERROR ){
    const gr_error *e = gr_js_error(&r->js);
    gr_diag *g = gr_diags_add(r->d, GR_SEV_ERROR, r->path, e->line, e->col,
                              "the file is not in JSON format or its content is invalid: %s", e->msg);
    if( g ){ gr_diag_set(&g->ge_code, "E21002"); if( e->line ) g->snippet = gr_lineidx_dup(&r->lines, e->line); }
    r->nerr++;
    return;
  }
  gr_js_pos(&r->js, r->t.off, &line, &col);
  say(r, GR_SEV_ERROR, line, col, "E21002", fmt, a, b);
}

static int is_key(const mx *r, const char *k){ return r->t.n==strlen(k) && memcmp(r->t.s, k, r->t.n)==0; }

static const char *op_names(unsigned ops, char *buf, size_t n){
  static const char *const names[] = { "add black", "remove black", "add white", "remove white", "add gray", "remove gray" };
  size_t i, o = 0;
  buf[0] = 0;
  for(i = 0; i < 6 && o < n; i++)
    if( ops & (1u << i) ) o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", names[i]);
  return buf;
}

static int allowed(unsigned ops){
  static const unsigned ok[] = {
    GR_MIX_REMOVE_BLACK, GR_MIX_REMOVE_WHITE, GR_MIX_ADD_GRAY,
    GR_MIX_ADD_GRAY | GR_MIX_REMOVE_BLACK, GR_MIX_ADD_GRAY | GR_MIX_REMOVE_WHITE,
    GR_MIX_ADD_WHITE, GR_MIX_ADD_WHITE | GR_MIX_REMOVE_GRAY, GR_MIX_ADD_WHITE | GR_MIX_REMOVE_BLACK,
    GR_MIX_ADD_BLACK, GR_MIX_ADD_BLACK | GR_MIX_REMOVE_GRAY, GR_MIX_ADD_BLACK | GR_MIX_REMOVE_WHITE
  };
  size_t i;
  for(i = 0; i < sizeof ok / sizeof *ok; i++) if( ok[i]==ops ) return 1;
  return 0;
}

static void add(mx *r, const char *type, size_t n, unsigned op){
  char *s = gr_xstrndup(type, n);
  void *v = gr_map_get(&r->index, s);
  if( v ){ r->m->v[(intptr_t)v - 1].ops |= op; free(s); return; }
  r->m->v = gr_xrealloc(r->m->v, (r->m->n + 1) * sizeof *r->m->v);
  r->m->v[r->m->n].op_type = s;
  r->m->v[r->m->n].ops = op;
  gr_js_pos(&r->js, r->t.off, &r->m->v[r->m->n].line, &r->m->v[r->m->n].col);
  r->m->n++;
  gr_map_put(&r->index, s, (void*)(intptr_t)r->m->n);
}

static int read_list(mx *r, unsigned add_op, unsigned remove_op, const char *list){
  if( gr_js_next(&r->js, &r->t)!=GR_JS_OBJECT ){ bad(r, "the value of \"%s\" must be an object with \"to-add\" and \"to-remove\"%s", list, NULL); return -1; }
  for(;;){
    unsigned op;
    int k = gr_js_next(&r->js, &r->t);
    if( k==GR_JS_OBJECT_END ) return 0;
    if( k!=GR_JS_KEY ){ bad(r, "unexpected content%s%s", "", NULL); return -1; }
    if( is_key(r, "to-add") ) op = add_op;
    else if( is_key(r, "to-remove") ) op = remove_op;
    else{
      char key[64];
      snprintf(key, sizeof key, "%.*s", (int)(r->t.n < 60 ? r->t.n : 60), r->t.s);
      bad(r, "unknown key \"%s\" in \"%s\" (only \"to-add\" and \"to-remove\")", key, list);
      return -1;
    }
    if( gr_js_next(&r->js, &r->t)!=GR_JS_ARRAY ){ bad(r, "the value of \"%s\" must be an array of op types%s", op==add_op ? "to-add" : "to-remove", NULL); return -1; }
    for(;;){
      k = gr_js_next(&r->js, &r->t);
      if( k==GR_JS_ARRAY_END ) break;
      if( k!=GR_JS_STRING || r->t.n==0 || memchr(r->t.s, 0, r->t.n) ){ bad(r, "an op type must be a non-empty string%s%s", NULL, NULL); return -1; }
      add(r, r->t.s, r->t.n, op);
    }
  }
}

int gr_mixlist_parse(const char *text, size_t len, const char *path, gr_mixlist *out,
                     const gr_ruleset *rs, const char *family, gr_diags *d){
  mx r;
  size_t i, k;
  memset(out, 0, sizeof *out);
  memset(&r, 0, sizeof r);
  out->path = gr_xstrdup(path);
  r.path = out->path; r.d = d; r.m = out;
  gr_lineidx_init(&r.lines, text, len);
  gr_map_init(&r.index);
  for(k = 0; k < len && (text[k]==' ' || text[k]=='\t' || text[k]=='\n' || text[k]=='\r'); k++) ;
  if( k==len ){
    say(&r, GR_SEV_ERROR, 0, 0, "E21002", "the file is empty: MODIFY_MIXLIST needs a JSON object%s%s", NULL, NULL);
    goto done;
  }
  gr_js_init_mem(&r.js, text, len, 16, 0);
  if( gr_js_next(&r.js, &r.t)!=GR_JS_OBJECT ){
    bad(&r, "the file must be one JSON object with \"black-list\", \"white-list\" or \"gray-list\"%s%s", NULL, NULL);
  }else{
    for(;;){
      int kk = gr_js_next(&r.js, &r.t);
      if( kk==GR_JS_OBJECT_END ){
        if( gr_js_next(&r.js, &r.t)!=GR_JS_EOF ) bad(&r, "unexpected content%s%s", "", NULL);
        break;
      }
      if( kk!=GR_JS_KEY ){ bad(&r, "unexpected content%s%s", "", NULL); break; }
      if( is_key(&r, "black-list") ){ if( read_list(&r, GR_MIX_ADD_BLACK, GR_MIX_REMOVE_BLACK, "black-list") ) break; }
      else if( is_key(&r, "white-list") ){ if( read_list(&r, GR_MIX_ADD_WHITE, GR_MIX_REMOVE_WHITE, "white-list") ) break; }
      else if( is_key(&r, "gray-list") ){ if( read_list(&r, GR_MIX_ADD_GRAY, GR_MIX_REMOVE_GRAY, "gray-list") ) break; }
      else{
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(r.t.n < 60 ? r.t.n : 60), r.t.s);
        bad(&r, "unknown key \"%s\" (only \"black-list\", \"white-list\" and \"gray-list\")%s", key, NULL);
        break;
      }
    }
  }
  gr_js_free(&r.js);
  if( r.nerr ) goto done;
  for(i = 0; i < out->n; i++){
    const gr_mixlist_entry *e = &out->v[i];
    char ops[128];
    if( !allowed(e->ops) )
      say(&r, GR_SEV_ERROR, e->line, e->col, "E20003", "operation [%s] for op %s is invalid", op_names(e->ops, ops, sizeof ops), e->op_type);
  }
  if( r.nerr==0 && rs && gr_oplib_nstores(rs) > 0 ){
    for(i = 0; i < out->n; i++){
      const gr_mixlist_entry *e = &out->v[i];
      int s, found = 0;
      for(s = 0; s < gr_oplib_nstores(rs) && !found; s++){
        const gr_oplib_store *st = gr_oplib_store_at(rs, s);
        if( st->kind==GR_OPLIB_COLUMNS && gr_oplib_serves(st, family) && gr_oplib_nops(rs, st) ){
          int j;
          for(j = 0; j < gr_oplib_nops(rs, st) && !found; j++) found = strcmp(gr_oplib_type_at(rs, st, j), e->op_type)==0;
        }
      }
      if( !found ){
        const char *sug = gr_oplib_suggest_type(rs, family, e->op_type);
        char tail[200];
        if( sug ) snprintf(tail, sizeof tail, "; did you mean '%s'?", sug); else tail[0] = 0;
        say(&r, GR_SEV_WARNING, e->line, e->col, NULL, "op type '%s' is in no AI Core op library of this chip%s", e->op_type, tail);
      }
    }
  }
done:
  gr_map_free(&r.index);
  gr_lineidx_free(&r.lines);
  if( r.nerr ){ gr_mixlist_free(out); return -1; }
  return 0;
}

int gr_mixlist_read(const char *path, gr_mixlist *out, const gr_ruleset *rs, const char *family, gr_diags *d){
  size_t len;
  char *text;
  int rc;
  memset(out, 0, sizeof *out);
  if( (text = gr_file_diag_read(path, &len, d, "E21001", "the MODIFY_MIXLIST file %.0scannot be read: %s"))==NULL ) return -1;
  rc = gr_mixlist_parse(text, len, path, out, rs, family, d);
  free(text);
  return rc;
}

const gr_mixlist_entry *gr_mixlist_find(const gr_mixlist *m, const char *op_type){
  size_t i;
  for(i = 0; m && op_type && i < m->n; i++) if( strcmp(m->v[i].op_type, op_type)==0 ) return &m->v[i];
  return NULL;
}

gr_oplib_policy gr_mixlist_policy(const gr_mixlist *m, const char *op_type, gr_oplib_policy from){
  const gr_mixlist_entry *e = gr_mixlist_find(m, op_type);
  gr_oplib_policy p = from;
  if( e==NULL ) return from;
  if( (p==GR_POLICY_BLACK && (e->ops & GR_MIX_REMOVE_BLACK)) || (p==GR_POLICY_WHITE && (e->ops & GR_MIX_REMOVE_WHITE)) ||
      (p==GR_POLICY_GRAY && (e->ops & GR_MIX_REMOVE_GRAY)) ) p = GR_POLICY_GRAY;
  if( e->ops & GR_MIX_ADD_BLACK ) p = GR_POLICY_BLACK;
  else if( e->ops & GR_MIX_ADD_WHITE ) p = GR_POLICY_WHITE;
  return p;
}

void gr_mixlist_free(gr_mixlist *m){
  size_t i;
  if( m==NULL ) return;
  for(i = 0; i < m->n; i++) free(m->v[i].op_type);
  free(m->v);
  free(m->path);
  memset(m, 0, sizeof *m);
}
