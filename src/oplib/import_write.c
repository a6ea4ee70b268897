/*
** import_write.c: writes one op store read by import_read.c as an `oplib`
** statement (doc/rule-language.md 6.5): a header naming the importer's
** version, the CANN release and each source file with its SHA-256, the
** store's engine / kind / priority (table oplib_stores of the rule set),
** its family, then every op with its policy and flag words and its tensors
** (dtype spellings mapped through table oplib_dtype_spelling to names of
** table dtypes). Whatever the files say that the language does not take is
** written as a comment, never guessed: a dtype spelling the table lacks (its
** whole column is left out of an AI Core op, the entry out of an AI CPU
** list), a flag text other than "true"/"false", an empty AI CPU type list.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "oplib/import.h"

typedef struct wr {
  gr_buf *b;
  const gr_ruleset *rs;
  const gr_table *spell, *dtypes;
  gr_diags *d;
  int nerr;
} wr;

static const gr_table *table_named(const gr_ruleset *rs, const char *name){
  int t = gr_ruleset_find(&rs->table_map, name);
  return t < 0 ? NULL : &rs->tables[t];
}

static const gr_expr *table_value(const gr_table *t, const char *key){
  void *v = t ? gr_map_get(&t->keymap, key) : NULL;
  return v && t->vals ? t->vals[(intptr_t)v - 1] : NULL;
}

/* a string literal of the rule language */
static void put_str(gr_buf *b, const char *s){
  gr_buf_addc(b, '"');
  for(; *s; s++){
    if( *s=='"' || *s=='\\' ){ gr_buf_addc(b, '\\'); gr_buf_addc(b, *s); }
    else if( *s=='\n' ) gr_buf_adds(b, "\\n");
    else if( *s=='\t' ) gr_buf_adds(b, "\\t");
    else if( (unsigned char)*s < 0x20 ) gr_buf_addc(b, ' ');
    else gr_buf_addc(b, *s);
  }
  gr_buf_addc(b, '"');
}

/* a comment's text: one line */
static void put_comment_text(gr_buf *b, const char *s){
  for(; *s; s++) gr_buf_addc(b, (*s=='\n' || *s=='\r') ? ' ' : *s);
}

/* splits a comma list into trimmed entries (malloc'ed array of malloc'ed strings) */
static size_t split(const char *s, char ***out){
  size_t n = 1, k = 0;
  const char *p, *q;
  char **v;
  for(p = s; *p; p++) if( *p==',' ) n++;
  v = gr_xcalloc(n, sizeof *v);
  for(p = s;; p = q + 1){
    const char *a, *e;
    q = strchr(p, ',');
    if( q==NULL ) q = p + strlen(p);
    for(a = p; a < q && (*a==' ' || *a=='\t'); a++) ;
    for(e = q; e > a && (e[-1]==' ' || e[-1]=='\t'); e--) ;
    v[k++] = gr_xstrndup(a, (size_t)(e - a));
    if( *q==0 ) break;
  }
  *out = v;
  return k;
}
static void free_split(char **v, size_t n){ size_t i; for(i = 0; i < n; i++) free(v[i]); free(v); }

/* the gerules dtype of a spelling, or NULL */
static const char *map_dtype(const wr *w, const char *spelling){
  const gr_expr *e = table_value(w->spell, spelling);
  if( e==NULL || e->op!=GR_E_STR ) return NULL;
  if( w->dtypes && gr_map_get(&w->dtypes->keymap, e->s)==NULL ) return NULL;
  return e->s;
}

static void err(wr *w, const gr_imp_file *f, uint32_t line, uint32_t col, const char *fmt, const char *a, const char *b2){
  gr_diags_add(w->d, GR_SEV_ERROR, f->path, line, col, fmt, a, b2 ? b2 : "");
  w->nerr++;
}

static int is_true(const char *s){ return s && strcmp(s, "true")==0; }

static void flag_note(gr_buf *b, const char *key, const char *v){
  if( v && strcmp(v, "true")!=0 && strcmp(v, "false")!=0 ){
    gr_buf_adds(b, "        # ");
    gr_buf_adds(b, key);
    gr_buf_adds(b, " is \"");
    put_comment_text(b, v);
    gr_buf_adds(b, "\", not \"true\": not set\n");
  }
}

static const char *param_of(const gr_imp_tensor *t, int kernel){
  if( kernel ) return strncmp(t->key, "dynamic_", 8)==0 ? "dynamic" : "required";
  return t->param;
}

static void write_op(wr *w, const gr_imp_file *f, const gr_imp_op *op, int kernel){
  gr_buf *b = w->b;
  gr_buf notes;
  size_t i, j, ncols = 0;
  char ***dl, ***fl;
  size_t *nd, *nf;
  unsigned char *drop = NULL;
  int have_lists = 0;
  gr_buf_init(&notes);
  /* the lists of every tensor, split */
  dl = gr_xcalloc(op->nt + 1, sizeof *dl); fl = gr_xcalloc(op->nt + 1, sizeof *fl);
  nd = gr_xcalloc(op->nt + 1, sizeof *nd); nf = gr_xcalloc(op->nt + 1, sizeof *nf);
  for(i = 0; i < op->nt; i++){
    const gr_imp_tensor *t = &op->t[i];
    const char *p = param_of(t, kernel);
    if( p==NULL || (strcmp(p, "required") && strcmp(p, "optional") && strcmp(p, "dynamic")) ){
      char where[300];
      snprintf(where, sizeof where, "%s of op %s", t->key, op->type);
      err(w, f, t->line, t->col, p ? "%s: paramType '%s' is not required, optional or dynamic" : "%s has no paramType%s", where, p);
      goto out;
    }
    if( t->name==NULL ){
      /* AI CPU: GE matches tensors by IR name, so one without a name constrains nothing */
      gr_buf_printf(&notes, "        # %s has no name: GE matches AI CPU tensors by name, so it constrains nothing\n", t->key);
      continue;
    }
    if( t->dtype && t->dtype[0] ){ nd[i] = split(t->dtype, &dl[i]); have_lists = 1; }
    else if( t->dtype ){
      gr_buf_printf(&notes, "        # %s \"", t->is_output ? "output" : "input");
      put_comment_text(&notes, t->name);
      gr_buf_adds(&notes, "\": the file gives an empty type list\n");
    }
    if( t->format && t->format[0] && !kernel ) nf[i] = split(t->format, &fl[i]);
    if( !kernel && nf[i] && nf[i]!=nd[i] ){
      char where[300];
      snprintf(where, sizeof where, "%s of op %s", t->key, op->type);
      err(w, f, t->line, t->col, "%s: its format and dtype lists differ in length%s", where, NULL);
      goto out;
    }
  }
  if( !kernel && have_lists ){
    /* columns: every tensor lists the same number */
    for(i = 0; i < op->nt; i++){
      if( ncols==0 ) ncols = nd[i];
      if( nd[i]!=ncols ){
        char where[300];
        snprintf(where, sizeof where, "%s of op %s", op->t[i].key, op->type);
        err(w, f, op->t[i].line, op->t[i].col, "%s: its dtype list differs in length from the op's other tensors "
            "(the i-th entries of all lists form column i)%s", where, NULL);
        goto out;
      }
    }
    drop = gr_xcalloc(ncols + 1, 1);
    for(i = 0; i < op->nt; i++)
      for(j = 0; j < nd[i]; j++)
        if( !drop[j] && map_dtype(w, dl[i][j])==NULL ){
          drop[j] = 1;
          gr_buf_printf(&notes, "        # column %zu left out: %s \"", j + 1, op->t[i].is_output ? "output" : "input");
          put_comment_text(&notes, op->t[i].name);
          gr_buf_adds(&notes, "\" spells it \"");
          put_comment_text(&notes, dl[i][j]);
          gr_buf_adds(&notes, "\", which table oplib_dtype_spelling does not map\n");
        }
  }
  /* the op line */
  gr_buf_adds(b, "    op ");
  put_str(b, op->type);
  if( !kernel ){
    const char *pr = op->precision_reduce;
    gr_buf_adds(b, is_true(pr) ? " white" : pr && strcmp(pr, "false")==0 ? " black" : " gray");
    if( pr && strcmp(pr, "true") && strcmp(pr, "false") ){
      gr_buf_adds(&notes, "        # precision_reduce is \"");
      put_comment_text(&notes, pr);
      gr_buf_adds(&notes, "\", neither \"true\" nor \"false\": gray\n");
    }
  }
  if( is_true(op->dyn_shape) ) gr_buf_adds(b, " dynamic_shape");
  if( is_true(op->dyn_rank) ) gr_buf_adds(b, " dynamic_rank");
  else if( op->dyn_rank && strcmp(op->dyn_rank, "upgrade_to_dynamic_rank")==0 ) gr_buf_adds(b, " dynamic_rank_upgrade");
  if( is_true(op->dyn_compile_static) ) gr_buf_adds(b, " dynamic_compile_static");
  if( is_true(op->dyn_format) ) gr_buf_adds(b, " dynamic_format");
  if( op->op_file && (strcmp(op->op_file, "Null")==0 || strcmp(op->op_file, "AICore_Null")==0) ) gr_buf_adds(b, " ge_op");
  if( is_true(op->heavy) ) gr_buf_adds(b, " heavy");
  if( is_true(op->need_check) ) gr_buf_adds(b, " need_check_support");
  gr_buf_adds(b, " {\n");
  flag_note(&notes, "dynamicShapeSupport", op->dyn_shape);
  if( !(op->dyn_rank && strcmp(op->dyn_rank, "upgrade_to_dynamic_rank")==0) ) flag_note(&notes, "dynamicRankSupport", op->dyn_rank);
  flag_note(&notes, "dynamicCompileStatic", op->dyn_compile_static);
  flag_note(&notes, "dynamicFormat", op->dyn_format);
  flag_note(&notes, "heavyOp", op->heavy);
  flag_note(&notes, "needCheckSupport", op->need_check);
  if( notes.n ) gr_buf_add(b, notes.p, notes.n);
  for(i = 0; i < op->nt; i++){
    const gr_imp_tensor *t = &op->t[i];
    size_t k = 0;
    if( t->name==NULL ) continue;
    gr_buf_adds(b, t->is_output ? "        output " : "        input ");
    put_str(b, t->name);
    gr_buf_adds(b, " ");
    gr_buf_adds(b, param_of(t, kernel));
    if( nd[i] ){
      gr_buf line;
      gr_buf_init(&line);
      for(j = 0; j < nd[i]; j++){
        const char *m = map_dtype(w, dl[i][j]);
        if( drop && drop[j] ) continue;
        if( m==NULL ) continue;     /* kernel: this entry alone (said after the line) */
        if( k++ ) gr_buf_addc(&line, ',');
        gr_buf_adds(&line, m);
      }
      if( k ){
        gr_buf_adds(b, " ");
        put_str(b, gr_buf_cstr(&line));
        if( nf[i] ){
          gr_buf fmt;
          size_t m2 = 0;
          gr_buf_init(&fmt);
          for(j = 0; j < nf[i]; j++){
            if( drop && drop[j] ) continue;
            if( m2++ ) gr_buf_addc(&fmt, ',');
            gr_buf_adds(&fmt, fl[i][j]);
          }
          gr_buf_adds(b, " format ");
          put_str(b, gr_buf_cstr(&fmt));
          gr_buf_free(&fmt);
        }
      }
      gr_buf_free(&line);
    }
    gr_buf_adds(b, ";");
    if( kernel && nd[i] ){
      /* entries left out of this tensor's own list */
      int first = 1;
      for(j = 0; j < nd[i]; j++){
        if( map_dtype(w, dl[i][j]) ) continue;
        gr_buf_adds(b, first ? "   # left out, not mapped by table oplib_dtype_spelling: \"" : ", \"");
        put_comment_text(b, dl[i][j]);
        gr_buf_adds(b, "\"");
        first = 0;
      }
    }
    gr_buf_adds(b, "\n");
  }
  gr_buf_adds(b, "    }\n");
out:
  for(i = 0; i < op->nt; i++){ if( nd[i] ) free_split(dl[i], nd[i]); if( nf[i] ) free_split(fl[i], nf[i]); }
  free(dl); free(fl); free(nd); free(nf); free(drop);
  gr_buf_free(&notes);
}

int gr_imp_write(gr_buf *out, const gr_ruleset *rs, const gr_imp_plan *p, const gr_imp_store *st, gr_diags *d){
  wr w;
  const gr_expr *row = NULL, *engine, *kind, *prio;
  gr_map seen;
  size_t i, k;
  int kernel;
  char hex[65];
  memset(&w, 0, sizeof w);
  w.b = out; w.rs = rs; w.d = d;
  w.spell = table_named(rs, "oplib_dtype_spelling");
  w.dtypes = table_named(rs, "dtypes");
  if( w.spell==NULL || w.dtypes==NULL ){
    gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "the rule set has no table %s (rules/dtypes.rules)",
                 w.spell==NULL ? "oplib_dtype_spelling" : "dtypes");
    return -1;
  }
  row = table_value(table_named(rs, "oplib_stores"), st->kind);
  engine = row && row->op==GR_E_LIST ? row->a : NULL;
  kind = engine ? engine->next : NULL;
  prio = kind ? kind->next : NULL;
  if( engine==NULL || engine->op!=GR_E_STR || kind==NULL || kind->op!=GR_E_STR || prio==NULL || prio->op!=GR_E_INT ){
    gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "table oplib_stores has no row [engine, kind, priority] for store kind '%s'", st->kind);
    return -1;
  }
  kernel = strcmp(kind->s, "kernel")==0;
  gr_buf_printf(out, "# %s.rules: generated by `gerules import-oplib` (importer version %s) from CANN %s;\n"
                     "# do not edit: regenerate it (doc/vendor-guide.md). Source files and their SHA-256:\n",
                st->name, GR_IMPORT_OPLIB_VERSION, p->release ? p->release : "(release unknown)");
  for(i = 0; i < st->nfiles; i++){
    sodium_bin2hex(hex, sizeof hex, st->files[i]->sha256, 32);
    gr_buf_adds(out, "#   ");
    put_comment_text(out, st->files[i]->shown);
    gr_buf_printf(out, "  %s\n", hex);
  }
  gr_buf_adds(out, st->override ? "\noverride oplib " : "\noplib ");
  gr_buf_adds(out, st->name);
  gr_buf_adds(out, " ");
  put_str(out, st->description);
  gr_buf_adds(out, " {\n    engine ");
  put_str(out, engine->s);
  gr_buf_printf(out, ";\n    kind %s;\n    priority %lld;\n", kind->s, (long long)prio->i + st->priority_offset);
  if( st->family ){ gr_buf_adds(out, "    family "); put_str(out, st->family); gr_buf_adds(out, ";\n"); }
  for(i = 0; i < st->nfiles; i++){
    char *from = gr_xasprintf("CANN %s %s", p->release ? p->release : "(release unknown)", st->files[i]->shown);
    sodium_bin2hex(hex, sizeof hex, st->files[i]->sha256, 32);
    gr_buf_adds(out, "    from ");
    put_str(out, from);
    gr_buf_printf(out, " sha256 \"%s\";\n", hex);
    free(from);
  }
  gr_map_init(&seen);
  for(i = 0; i < st->nfiles; i++){
    const gr_imp_file *f = st->files[i];
    for(k = 0; k < f->nops; k++){
      const gr_imp_op *op = &f->ops[k];
      if( gr_map_put(&seen, op->type, (void*)f)!=NULL ){
        const gr_imp_file *first = gr_map_get(&seen, op->type);
        gr_diags_add(d, GR_SEV_ERROR, f->path, op->line, op->col, "op %s is also in %s, merged into the same store '%s'",
                     op->type, first->path, st->name);
        w.nerr++;
        continue;
      }
      write_op(&w, f, op, kernel);
    }
  }
  gr_map_free(&seen);
  gr_buf_adds(out, "}\n");
  return w.nerr ? -1 : 0;
}
