/*
** oplib.c: the accessor API of the op information library (oplib.h): the
** stores in their order, op lookup by type (a hash lookup; an op the loader
** only indexed is parsed and checked here on its first lookup), the family
** of a chip (table oplib_family, by product line), and the lib's lifetime.
** A big file's ops were skipped by the parser: a store's are indexed
** (check_oplib.c, ol_index) on its first use.
** The checker (check_oplib.c) builds what this file reads.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/oplib_int.h"

gr_item *gr_oplib_lazy_ops(gr_parse *ps, gr_token t){
  gr_item *it = gr_item_new(GR_I_OL_OPS, gr_tok_loc(ps->file, t));
  it->lo = (int64_t)(t.z - ps->text);
  it->hi = (int64_t)t.n;
  return it;
}

/* a store's skipped ops, indexed on its first use (errors kept for gr_oplib_diags) */
static void index_store(const gr_ruleset *rs, ol_store *s){
  if( s->indexed ) return;
  {
    ol_report r;
    memset(&r, 0, sizeof r);
    r.diags = &rs->oplib->diags; r.lib = rs->oplib;
    ol_index(rs->oplib, s, &r);
    rs->oplib->nerr += r.nerr;
  }
}

int gr_oplib_nstores(const gr_ruleset *rs){
  return rs && rs->oplib ? (int)rs->oplib->nstores : 0;
}

const gr_oplib_store *gr_oplib_store_at(const gr_ruleset *rs, int i){
  if( i < 0 || i >= gr_oplib_nstores(rs) ) return NULL;
  return &rs->oplib->stores[i].pub;
}

const gr_oplib_store *gr_oplib_store_named(const gr_ruleset *rs, const char *name){
  void *v;
  if( rs==NULL || rs->oplib==NULL || name==NULL ) return NULL;
  v = gr_map_get(&rs->oplib->store_map, name);
  return v ? &rs->oplib->stores[(intptr_t)v - 1].pub : NULL;
}

int gr_oplib_serves(const gr_oplib_store *st, const char *family){
  int i;
  if( st->nfamilies==0 ) return 1;
  for(i = 0; family && i < st->nfamilies; i++) if( strcmp(st->families[i], family)==0 ) return 1;
  return 0;
}

/* the store struct around a public one (stores are an array of ol_store
** whose first member is the public part) */
static ol_store *store_of(const gr_ruleset *rs, const gr_oplib_store *st){
  ol_store *s = (ol_store*)st;
  if( rs==NULL || rs->oplib==NULL || st==NULL ) return NULL;
  if( s < rs->oplib->stores || s >= rs->oplib->stores + rs->oplib->nstores ) return NULL;
  return s;
}

const gr_oplib_op *gr_oplib_find(const gr_ruleset *rs, const gr_oplib_store *st, const char *type){
  ol_store *s = store_of(rs, st);
  ol_entry *e;
  void *v;
  if( s==NULL || type==NULL ) return NULL;
  index_store(rs, s);
  v = gr_map_get(&s->types, type);
  if( v==NULL ) return NULL;
  e = &s->ops[(intptr_t)v - 1];
  if( e->state==0 ){
    ol_report r;
    memset(&r, 0, sizeof r);
    r.diags = &rs->oplib->diags; r.lib = rs->oplib;
    ol_compile(rs->oplib, s, e, &r);
    rs->oplib->nerr += r.nerr;
  }
  return e->state > 0 ? e->op : NULL;
}

int gr_oplib_nops(const gr_ruleset *rs, const gr_oplib_store *st){
  ol_store *s = store_of(rs, st);
  if( s ) index_store(rs, s);
  return s ? (int)s->nops : 0;
}

const char *gr_oplib_type_at(const gr_ruleset *rs, const gr_oplib_store *st, int i){
  ol_store *s = store_of(rs, st);
  if( s ) index_store(rs, s);
  if( s==NULL || i < 0 || (size_t)i >= s->nops ) return NULL;
  return s->ops[i].type;
}

const char *gr_oplib_suggest_type(const gr_ruleset *rs, const char *family, const char *word){
  gr_suggester sg;
  size_t i, k;
  if( rs==NULL || rs->oplib==NULL || word==NULL ) return NULL;
  gr_suggest_begin(&sg, word);
  for(i = 0; i < rs->oplib->nstores; i++){
    ol_store *s = &rs->oplib->stores[i];
    if( family && !gr_oplib_serves(&s->pub, family) ) continue;
    index_store(rs, s);
    for(k = 0; k < s->nops; k++) gr_suggest_offer(&sg, s->ops[k].type);
  }
  return gr_suggest_best(&sg);
}

const char *gr_oplib_family(const gr_ruleset *rs, const char *chip){
  int soc, t;
  void *v;
  const gr_table *tab;
  const gr_expr *e;
  if( rs==NULL || chip==NULL ) return NULL;
  soc = gr_ruleset_find_soc(rs, chip);
  t = gr_ruleset_find(&rs->table_map, "oplib_family");
  if( soc < 0 || t < 0 ) return NULL;
  tab = &rs->tables[t];
  v = gr_map_get(&tab->keymap, rs->products[rs->socs[soc].product].name);
  if( v==NULL || tab->vals==NULL ) return NULL;
  e = tab->vals[(intptr_t)v - 1];
  return e && e->op==GR_E_STR ? e->s : NULL;
}

const char *gr_oplib_dtype(const gr_ruleset *rs, const char *name){
  void *v;
  if( rs==NULL || rs->oplib==NULL || rs->oplib->dtypes==NULL || name==NULL ) return NULL;
  v = gr_map_get(&rs->oplib->dtypes->keymap, name);
  return v ? rs->oplib->dtypes->keys[(intptr_t)v - 1] : NULL;
}

int gr_oplib_check_all(const gr_ruleset *rs, gr_diags *diags){
  struct gr_oplib_lib *lib = rs ? rs->oplib : NULL;
  size_t i, k;
  int nerr = 0;
  if( lib==NULL ) return 0;
  for(i = 0; i < lib->diags.n; i++){
    /* errors of earlier lookups: hand them on once */
    const gr_diag *d = &lib->diags.v[i];
    gr_diag *n = gr_diags_add(diags, d->sev, d->file, d->line, d->col, "%s", d->msg);
    if( n && d->snippet ) gr_diag_set(&n->snippet, d->snippet);
    if( d->sev==GR_SEV_ERROR ) nerr++;
  }
  for(i = 0; i < lib->nstores; i++){
    ol_store *s = &lib->stores[i];
    if( !s->indexed ){
      ol_report r;
      memset(&r, 0, sizeof r);
      r.diags = diags; r.lib = lib;
      ol_index(lib, s, &r);
      nerr += r.nerr;
    }
    for(k = 0; k < s->nops; k++){
      if( s->ops[k].state==0 ){
        ol_report r;
        memset(&r, 0, sizeof r);
        r.diags = diags; r.lib = lib;
        ol_compile(lib, s, &s->ops[k], &r);
        nerr += r.nerr;
      }
    }
  }
  return nerr;
}

const gr_diags *gr_oplib_diags(const gr_ruleset *rs){
  return rs && rs->oplib && rs->oplib->diags.n ? &rs->oplib->diags : NULL;
}

void gr_oplib_adopt_texts(gr_ruleset *rs, char **texts, const gr_lineidx *lines){
  struct gr_oplib_lib *lib = rs->oplib;
  size_t i, f;
  if( lib==NULL ) return;
  for(i = 0; i < lib->nstores; i++){
    const ol_store *s = &lib->stores[i];
    if( s->lazy==NULL ) continue;
    for(f = 0; f < rs->nfiles && rs->files[f]!=s->lazy->loc.file; f++) ;
    if( f==rs->nfiles ) continue;
    if( lib->texts==NULL ){
      lib->texts = gr_xcalloc(rs->nfiles + 1, sizeof *lib->texts);
      lib->lens = gr_xcalloc(rs->nfiles + 1, sizeof *lib->lens);
    }
    if( lib->texts[f]==NULL && texts[f] ){
      lib->texts[f] = texts[f];
      lib->lens[f] = lines[f].len;
      texts[f] = NULL;
    }
  }
}

void gr_oplib_free(struct gr_oplib_lib *lib){
  size_t i;
  if( lib==NULL ) return;
  for(i = 0; i < lib->nstores; i++){
    size_t k;
    for(k = 0; k < lib->stores[i].nops; k++) free(lib->stores[i].ops[k].when);
    free(lib->stores[i].ops);
    free(lib->stores[i].pending);
    gr_map_free(&lib->stores[i].types);
  }
  free(lib->stores);
  gr_map_free(&lib->store_map);
  gr_map_free(&lib->formats);
  gr_diags_free(&lib->diags);
  if( lib->texts ) for(i = 0; i < lib->rs->nfiles; i++) free(lib->texts[i]);
  free(lib->texts);
  free(lib->lens);
  free(lib);
}
