/*
** ruleset.c: the rule set as a whole. It loads rule files and directories
** (every *.rules below a directory, sorted; includes relative to the
** including file, each file read once, cycles refused), hands the syntax
** trees to the checker (gr_check_all), and implements the lookups every
** later stage uses: names to indexes, the chip lookup (exact SoC first,
** then patterns), option spellings, and the one "did you mean" entry point
** for every kind of name. gr_ruleset_free releases everything.
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
#include "lang/check.h"
#include "lang/oplib.h"

/* ------------------------------------------------------------------ */
/* lookups */

int gr_ruleset_find(const gr_map *m, const char *name){
  void *v = gr_map_get(m, name);
  return v ? (int)(intptr_t)v - 1 : -1;
}

int gr_ruleset_find_slot(const gr_ruleset *rs, const char *name){
  int k = gr_ruleset_find(&rs->slot_map, name);
  size_t i;
  for(i = 0; k < 0 && i < rs->nslots; i++) if( rs->slots[i].column && strcmp(rs->slots[i].column, name)==0 ) k = (int)i;
  return k;
}

const gr_table *gr_ruleset_table(const gr_ruleset *rs, const char *name){
  int k = gr_ruleset_find(&rs->table_map, name);
  return k >= 0 ? &rs->tables[k] : NULL;
}

const char *gr_ruleset_dtype_spelling(const gr_ruleset *rs, const char *dt){
  const gr_table *gn = gr_ruleset_table(rs, "graph_dtype_names");
  size_t i;
  if( gn==NULL || !gn->is_map ) return dt;
  for(i = 0; i < gn->n; i++)
    if( gn->vals[i] && gn->vals[i]->op==GR_E_STR && strcmp(gn->vals[i]->s, dt)==0 ) return gn->keys[i];
  return NULL;
}

const gr_expr *gr_table_value(const gr_table *t, const char *key){
  void *i;
  if( t==NULL || !t->is_map || (i = gr_map_get(&t->keymap, key))==NULL ) return NULL;
  return t->vals[(size_t)(intptr_t)i - 1];
}

int gr_support_on(const gr_support *s, int product){
  return s->on ? s->on[product] : 1;
}

int gr_entry_point_valid(const char *s){
  return s && (strcmp(s, "atc")==0 || strcmp(s, "ir-build")==0 || strcmp(s, "session")==0);
}

/* A compiled onnx mapping row in the syntax it was written in (6.1). */
void gr_onnx_row_print(gr_buf *b, const gr_onnx_row *r){
  static const char *ops[] = { "==", "!=", "<", "<=", ">", ">=" };
  size_t i, k;
  gr_buf_adds(b, "opset ");
  for(i = 0; i < r->nranges; i++){
    gr_buf_printf(b, "%s%lld", i ? ", " : "", (long long)r->lo[i]);
    if( r->hi[i]!=r->lo[i] ) gr_buf_printf(b, "..%lld", (long long)r->hi[i]);
  }
  for(i = 0; i < r->nconds; i++){
    const gr_onnx_cond *c = &r->conds[i];
    const char *op = c->op >= GR_E_EQ && c->op <= GR_E_GE ? ops[c->op - GR_E_EQ] : "?";
    gr_buf_adds(b, i ? " and " : " when ");
    switch( c->kind ){
      case GR_OC_INPUTS: gr_buf_printf(b, "node.inputs %s %lld", op, (long long)c->n); break;
      case GR_OC_OUTPUTS: gr_buf_printf(b, "node.outputs %s %lld", op, (long long)c->n); break;
      case GR_OC_LEN: gr_buf_printf(b, "len(node.attr[\"%s\"]) %s %lld", c->name, op, (long long)c->n); break;
      case GR_OC_PROD: gr_buf_printf(b, "prod(node.attr[\"%s\"]) %s %lld", c->name, op, (long long)c->n); break;
      case GR_OC_MAX: gr_buf_printf(b, "max(node.attr[\"%s\"]) %s %lld", c->name, op, (long long)c->n); break;
      case GR_OC_HAS: gr_buf_printf(b, "node.attr[\"%s\"] != null", c->name); break;
      case GR_OC_HASNOT: gr_buf_printf(b, "node.attr[\"%s\"] == null", c->name); break;
      case GR_OC_IN_EMPTY: gr_buf_printf(b, "node.inputs[%lld] == null", (long long)c->n); break;
      case GR_OC_IN_GIVEN: gr_buf_printf(b, "node.inputs[%lld] != null", (long long)c->n); break;
      case GR_OC_CAP: gr_buf_printf(b, "chip has %s", c->name); break;
      case GR_OC_NOCAP: gr_buf_printf(b, "not chip has %s", c->name); break;
      default:
        gr_buf_printf(b, "node.attr[\"%s\"] %s ", c->name, op);
        if( c->is_str ) gr_buf_printf(b, "\"%s\"", c->s); else gr_buf_printf(b, "%lld", (long long)c->n);
    }
  }
  gr_buf_adds(b, " becomes ");
  for(i = 0; i < r->nir; i++){
    const gr_onnx_ir *ir = &r->ir[i];
    gr_buf_printf(b, "%s%s", i ? ", " : "", ir->type);
    if( ir->suffix[0] ) gr_buf_printf(b, " \"%s\"", ir->suffix);
    if( ir->pos >= 0 ) gr_buf_printf(b, " @%d", ir->pos);
    if( ir->explicit_inputs ){
      gr_buf_adds(b, ir->suffix[0] ? " (" : "(");
      for(k = 0; k < ir->nin; k++){
        const gr_onnx_in *in = &ir->in[k];
        gr_buf_adds(b, k ? ", " : "");
        if( !in->from_op ) gr_buf_printf(b, "%d", in->src);
        else if( in->index ) gr_buf_printf(b, "@%d:%d", in->src, in->index);
        else gr_buf_printf(b, "@%d", in->src);
      }
      gr_buf_adds(b, ")");
    }
    if( ir->dtype_input >= 0 && ir->dtype_attr )
      gr_buf_printf(b, " output node.attr[\"%s\"] default input %d", ir->dtype_attr, ir->dtype_input);
    else if( ir->dtype_input >= 0 ) gr_buf_printf(b, " output input %d", ir->dtype_input);
    if( ir->dtype ){
      if( ir->dtype_attr ) gr_buf_printf(b, " output node.attr[\"%s\"] default \"%s\"", ir->dtype_attr, ir->dtype);
      else gr_buf_printf(b, " output \"%s\"", ir->dtype);
      if( ir->ndims >= 0 ){
        gr_buf_adds(b, " [");
        for(k = 0; k < (size_t)ir->ndims; k++) gr_buf_printf(b, "%s%lld", k ? ", " : "", (long long)ir->dims[k]);
        gr_buf_adds(b, "]");
      }
    }
  }
  for(i = 0; i < r->nyields; i++){
    const gr_onnx_in *y = &r->yields[i];
    gr_buf_adds(b, i ? ", " : " yields (");
    if( y->index ) gr_buf_printf(b, "@%d:%d", y->src, y->index); else gr_buf_printf(b, "@%d", y->src);
  }
  if( r->nyields ) gr_buf_adds(b, ")");
  if( r->nsub ) gr_buf_printf(b, " in %d", r->nsub);
  gr_buf_adds(b, ";");
}

const char *gr_pcause_name(int cause){
  static const char *const names[] = { NULL, "neutral", "seed", "path", "small", "all", "cluster", "static_graph",
                                       "group", "subgraph", "threshold", "removed" };
  return cause > 0 && cause < (int)(sizeof names / sizeof *names) ? names[cause] : NULL;
}

const char *gr_type_name(int t){
  static const char *names[] = { "any", "null", "bool", "int", "string", "list", "node",
    "input", "inputs", "attributes", "chip", "option", "entry", "relation option", "table", "graph" };
  return t >= 0 && t < (int)(sizeof names / sizeof *names) ? names[t] : "?";
}

const char *gr_option_type_name(int t){
  static const char *names[] = { "?", "enum", "bool", "int", "string", "file", "list", "soc" };
  return t >= 0 && t <= GR_OT_SOC ? names[t] : "?";
}

size_t gr_ruleset_layer_of(const gr_ruleset *rs, const char *file){
  size_t i, k;
  for(i = 0; file && i < rs->nlayers; i++)
    for(k = rs->layers[i].first_file; k < rs->layers[i].first_file + rs->layers[i].nfiles; k++)
      if( rs->files[k]==file || strcmp(rs->files[k], file)==0 ) return i;
  return 0;
}

const char *gr_ruleset_short_path(const gr_ruleset *rs, const char *file){
  if( rs->nlayers > 1 && file ){
    /* a layer's files: relative to the directory holding its root */
    size_t li = gr_ruleset_layer_of(rs, file), l;
    const char *root = rs->layers[li].root, *slash;
    char buf[4096];
    l = strlen(root);
    while( l > 1 && root[l-1]=='/' ) l--;
    if( l >= sizeof buf ) return file;
    memcpy(buf, root, l); buf[l] = 0;
    if( li==0 ){
      if( strncmp(file, buf, l)==0 && file[l]=='/' ) return file + l + 1;
      return file;
    }
    slash = strrchr(buf, '/');
    if( strncmp(file, buf, l)==0 && file[l]=='/' ) return slash ? file + (slash - buf) + 1 : file;
    return file;
  }
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
    if( rs->socs[k].is_pattern==1 && gr_regex_whole(&rs->socs[k].re, soc) ) return (int)k;
  }
  return -1;
}

const gr_option *gr_ruleset_option_by_spelling(const gr_ruleset *rs, const char *spelling){
  int i;
  while( *spelling=='-' ) spelling++;
  i = gr_ruleset_find(&rs->spelling_map, spelling);
  return i < 0 ? NULL : &rs->options[i];
}

/* ------------------------------------------------------------------ */
/* did you mean */

const char *gr_ruleset_suggest(const gr_ruleset *rs, unsigned kinds, const char *word){
  const gr_map *maps[16];
  gr_suggester sg;
  size_t nm = 0, m, j;
  if( kinds & GR_NK_OPTION ) maps[nm++] = &rs->option_map;
  if( kinds & GR_NK_SPELLING ) maps[nm++] = &rs->spelling_map;
  if( kinds & GR_NK_MODE ) maps[nm++] = &rs->mode_map;
  if( kinds & GR_NK_SLOT ) maps[nm++] = &rs->slot_map;
  if( kinds & GR_NK_SOURCE ) maps[nm++] = &rs->source_map;
  if( kinds & GR_NK_RULE ) maps[nm++] = &rs->rule_map;
  if( kinds & GR_NK_TABLE ) maps[nm++] = &rs->table_map;
  if( kinds & GR_NK_PRODUCT ) maps[nm++] = &rs->product_map;
  if( kinds & GR_NK_SOC ) maps[nm++] = &rs->soc_map;
  if( kinds & GR_NK_CAP ) maps[nm++] = &rs->cap_map;
  if( kinds & GR_NK_HW ) maps[nm++] = &rs->hw_map;
  if( kinds & GR_NK_ONNX ) maps[nm++] = &rs->onnx_map;
  gr_suggest_begin(&sg, word);
  for(m = 0; m < nm; m++) for(j = 0; j < maps[m]->n; j++) gr_suggest_offer(&sg, maps[m]->e[j].key);
  if( kinds & GR_NK_ATC_FLAG ){
    int t = gr_ruleset_find(&rs->table_map, "atc_flags");
    for(j = 0; t >= 0 && j < rs->tables[t].n; j++){
      const char *k = rs->tables[t].keys[j];
      while( *k=='-' ) k++;
      gr_suggest_offer(&sg, k);
    }
  }
  return gr_suggest_best(&sg);
}

const char *gr_option_suggest_value(const gr_option *o, const char *word){
  return gr_suggest(word, o->values, o->nvalues);
}

/* ------------------------------------------------------------------ */
/* loading files */

typedef struct loader {
  gr_ruleset *rs;
  gr_diags *diags;
  int nerr;
  char **texts; size_t captexts;   /* one per rs->files entry */
  gr_lineidx *lines;               /* the line index of each text */
  gr_map seen;            /* real path -> 1 */
  char **stack; size_t nstack, capstack;   /* real paths being loaded (include cycles) */
  gr_item **tail;
  gr_file_check check; void *check_ctx;   /* verifies the bytes read (may be NULL) */
} loader;

static const char *add_file(loader *ld, const char *name, char *text){
  gr_ruleset *rs = ld->rs;
  if( rs->nfiles==ld->captexts ){
    /* both arrays grow together; the file-name array lives in the arena,
    ** so the old copy is simply left there (doubling bounds the waste) */
    size_t cap = ld->captexts ? ld->captexts * 2 : 16;
    const char **files = gr_arena_alloc(&rs->arena, cap * sizeof *files);
    if( rs->nfiles ) memcpy(files, rs->files, rs->nfiles * sizeof *files);
    rs->files = files;
    ld->texts = gr_xrealloc(ld->texts, cap * sizeof *ld->texts);
    ld->lines = gr_xrealloc(ld->lines, cap * sizeof *ld->lines);
    ld->captexts = cap;
  }
  rs->files[rs->nfiles] = gr_arena_strndup(&rs->arena, name, strlen(name));
  ld->texts[rs->nfiles] = text;
  gr_lineidx_init(&ld->lines[rs->nfiles], text, strlen(text));
  return rs->files[rs->nfiles++];
}

static int load_one(loader *ld, const char *path, const gr_loc *from);

static void load_error(loader *ld, const gr_loc *from, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void load_error(loader *ld, const gr_loc *from, const char *fmt, ...){
  va_list ap;
  gr_diag *d;
  va_start(ap, fmt);
  if( from ){
    ck_sources src = { ld->rs->files, ld->lines, ld->rs->nfiles };
    d = gr_diags_vadd(ld->diags, GR_SEV_ERROR, from->file, from->line, from->col, fmt, ap);
    d->snippet = gr_lineidx_dup(ck_lines_of(&src, from->file), from->line);
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
  if( ld->check && ld->check(ld->check_ctx, path, text, len)!=0 ){
    free(text);
    ld->nerr++;
    return -1;
  }
  if( strlen(text)!=len ){
    /* an embedded NUL: report where it is, as the lexer would */
    gr_loc l; uint32_t line = 1, col = 1;
    size_t k;
    name = add_file(ld, path, text);
    for(k = 0; text[k]; k++){ if( text[k]=='\n' ){ line++; col = 1; } else col++; }
    l.file = name; l.line = line; l.col = col;
    load_error(ld, &l, "unexpected byte 0x00");
    return -1;
  }
  name = add_file(ld, path, text);
  gr_map_put(&ld->seen, gr_arena_strndup(&ld->rs->arena, rp, strlen(rp)), (void*)(intptr_t)1);

  memset(&ps, 0, sizeof ps);
  ps.file = name;
  ps.lines = &ld->lines[ld->rs->nfiles - 1];
  ps.diags = ld->diags;
  /* the ops of a big op library file (the generated ones) are indexed now
  ** and parsed on lookup (oplib.h); smaller files are parsed whole */
  ps.lazy_ops = len >= GR_OPLIB_LAZY_BYTES;
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

gr_ruleset *gr_ruleset_load(const char *const *paths, size_t npaths, gr_diags *diags){
  return gr_ruleset_load_checked(paths, npaths, NULL, NULL, diags);
}

gr_ruleset *gr_ruleset_load_checked(const char *const *paths, size_t npaths, gr_file_check check, void *ctx,
                                    gr_diags *diags){
  gr_ruleset *rs = gr_xcalloc(1, sizeof *rs);
  loader ld;
  size_t i;
  int nerr;
  size_t prev_cap = gr_diags_cap_errors(diags, GR_MAX_RULE_ERRORS);
  gr_arena_init(&rs->arena);
  memset(&ld, 0, sizeof ld);
  ld.rs = rs; ld.diags = diags; ld.tail = &rs->ast;
  ld.check = check; ld.check_ctx = ctx;
  gr_map_init(&ld.seen);
  /* each path's statements and files are marked with the path's index; the
  ** layer pass (layers.c) turns paths into bundle layers */
  rs->layers = gr_arena_calloc(&rs->arena, (npaths + 1) * sizeof *rs->layers);
  for(i = 0; i < npaths; i++){
    gr_item **from = ld.tail, *it;
    rs->layers[i].root = gr_arena_strndup(&rs->arena, paths[i], strlen(paths[i]));
    rs->layers[i].first_file = rs->nfiles;
    load_path(&ld, paths[i]);
    rs->layers[i].nfiles = rs->nfiles - rs->layers[i].first_file;
    for(it = *from; it; it = it->next) it->layer = (int)i;
  }
  rs->nlayers = npaths;
  if( npaths==1 ){
    struct stat st;
    if( stat(paths[0], &st)==0 && S_ISDIR(st.st_mode) ){
      size_t l = strlen(paths[0]);
      while( l > 1 && paths[0][l-1]=='/' ) l--;
      rs->root = gr_arena_strndup(&rs->arena, paths[0], l);
    }
  }
  gr_map_free(&ld.seen);
  free(ld.stack);
  nerr = ld.nerr;
  if( nerr==0 ){
    ck_sources src = { rs->files, ld.lines, rs->nfiles };
    nerr = gr_check_all(rs, &src, diags);
    if( nerr==0 ) gr_oplib_adopt_texts(rs, ld.texts, ld.lines);
  }
  for(i = 0; i < rs->nfiles; i++){ free(ld.texts[i]); gr_lineidx_free(&ld.lines[i]); }
  free(ld.texts);
  free(ld.lines);
  diags->error_cap = prev_cap;
  if( nerr ){
    gr_ruleset_free(rs);
    return NULL;
  }
  return rs;
}

void gr_ruleset_free(gr_ruleset *rs){
  size_t i;
  gr_owned_expr *x;
  if( rs==NULL ) return;
  for(i = 0; i < rs->nsocs; i++) if( rs->socs[i].is_pattern==1 ) regfree(&rs->socs[i].re);
  for(i = 0; i < rs->noptions; i++) if( rs->options[i].has_pattern ) regfree(&rs->options[i].re);
  for(i = 0; i < rs->ntables; i++) gr_map_free(&rs->tables[i].keymap);
  for(x = rs->owned_exprs; x; x = x->next) gr_expr_free(x->e);
  gr_map_free(&rs->cap_map); gr_map_free(&rs->hw_map); gr_map_free(&rs->product_map); gr_map_free(&rs->soc_map);
  gr_map_free(&rs->option_map); gr_map_free(&rs->spelling_map); gr_map_free(&rs->mode_map);
  gr_map_free(&rs->table_map); gr_map_free(&rs->slot_map); gr_map_free(&rs->source_map); gr_map_free(&rs->rule_map);
  gr_map_free(&rs->partition_map); gr_map_free(&rs->onnx_map);
  gr_oplib_free(rs->oplib);
  gr_item_free(rs->ast);
  gr_arena_free(&rs->arena);
  free(rs);
}
