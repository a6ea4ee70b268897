/*
** import_read.c: reads one CANN op information file (aic-<family>-ops-info.json,
** dsa-<family>-ops-info.json, aicpu_kernel.json, tf_kernel.json,
** host_cpu_kernel.json) with the project's JSON tokenizer (src/model/json_scan.h)
** into gr_imp_file: per op type its tensors (name, paramType, dtype or type,
** format) and the flag objects the rule language keeps (precision_reduce,
** dynamicShapeSupport, dynamicRankSupport, dynamicCompileStatic,
** dynamicFormat, needCheckSupport, heavyOp, opFile). Every other key is
** skipped (validated). Malformed JSON, an op that is not an object, a kept
** field that is not a string, an op or tensor key twice: located errors.
** The file's SHA-256 (libsodium) goes into the generated header.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "oplib/import.h"
#include "model/json_scan.h"

typedef struct rd {
  gr_js js;
  gr_js_tok t;
  const char *path;
  gr_diags *d;
  int nerr;
} rd;

static void err_at(rd *r, uint64_t off, const char *fmt, const char *a, const char *b){
  uint32_t line = 0, col = 0;
  gr_js_pos(&r->js, off, &line, &col);
  gr_diags_add(r->d, GR_SEV_ERROR, r->path, line, col, fmt, a, b ? b : "");
  r->nerr++;
}

static int next(rd *r){
  int k = gr_js_next(&r->js, &r->t);
  if( k==GR_JS_ERROR && r->nerr==0 ){
    const gr_error *e = gr_js_error(&r->js);
    gr_diags_add(r->d, GR_SEV_ERROR, r->path, e->line, e->col, "%s", e->msg);
    r->nerr++;
  }
  return k;
}

static char *tokstr(const rd *r){ return gr_xstrndup(r->t.s, r->t.n); }

/* the value of a kept string field; NULL after an error */
static char *string_value(rd *r, const char *key, const char *where){
  if( next(r)!=GR_JS_STRING ){
    if( r->t.type!=GR_JS_ERROR ) err_at(r, r->t.off, "'%s' of %s must be a string", key, where);
    return NULL;
  }
  return tokstr(r);
}

/* {"flag": "..."} or {"value": "..."}: the text of member `member` (other members skipped) */
static int flag_object(rd *r, const char *key, const char *member, const char *op, char **out){
  char where[300];
  snprintf(where, sizeof where, "op %s", op);
  if( next(r)!=GR_JS_OBJECT ){
    if( r->t.type!=GR_JS_ERROR ) err_at(r, r->t.off, "'%s' of %s must be an object", key, where);
    return -1;
  }
  for(;;){
    int k = next(r);
    if( k==GR_JS_OBJECT_END ) return 0;
    if( k!=GR_JS_KEY ) return -1;
    if( r->t.n==strlen(member) && memcmp(r->t.s, member, r->t.n)==0 ){
      char *v;
      snprintf(where, sizeof where, "'%s' of op %s", key, op);
      if( *out ){ err_at(r, r->t.off, "'%s' is given twice in %s", member, where); return -1; }
      v = string_value(r, member, where);
      if( v==NULL ) return -1;
      *out = v;
    }else{
      if( next(r)==GR_JS_ERROR || !gr_js_skip(&r->js, &r->t) ) return -1;
    }
  }
}

/* "input3" -> 0, 3; "output0" -> 1, 0; "dynamic_input1" (kernel stores only) -> 0, 1; else -1 */
static int tensor_key(const char *s, size_t n, int kernel, int *index){
  static const char *const pre[] = { "input", "output", "dynamic_input", "dynamic_output" };
  int k;
  for(k = 0; k < (kernel ? 4 : 2); k++){
    size_t l = strlen(pre[k]), i;
    long v = 0;
    if( n <= l || memcmp(s, pre[k], l)!=0 ) continue;
    for(i = l; i < n; i++){
      if( s[i] < '0' || s[i] > '9' || v > 100000 ) break;
      v = v * 10 + (s[i] - '0');
    }
    if( i < n ) continue;
    *index = (int)v;
    return k & 1;
  }
  return -1;
}

static int read_tensor(rd *r, gr_imp_tensor *t, int kernel, const char *op){
  char where[300];
  snprintf(where, sizeof where, "%s of op %s", t->key, op);
  if( next(r)!=GR_JS_OBJECT ){
    if( r->t.type!=GR_JS_ERROR ) err_at(r, r->t.off, "%s must be an object%s", where, NULL);
    return -1;
  }
  for(;;){
    int k = next(r);
    char **dst = NULL;
    if( k==GR_JS_OBJECT_END ) break;
    if( k!=GR_JS_KEY ) return -1;
#define IS(lit) (r->t.n==sizeof(lit) - 1 && memcmp(r->t.s, lit, r->t.n)==0)
    if( IS("name") ) dst = &t->name;
    else if( IS("paramType") && !kernel ) dst = &t->param;
    else if( (IS("dtype") && !kernel) || (IS("type") && kernel) ) dst = &t->dtype;
    else if( IS("format") && !kernel ) dst = &t->format;
#undef IS
    if( dst ){
      char key[32];
      snprintf(key, sizeof key, "%.*s", (int)(r->t.n < 31 ? r->t.n : 31), r->t.s);
      if( *dst ){ err_at(r, r->t.off, "'%s' is given twice in %s", key, where); return -1; }
      if( (*dst = string_value(r, key, where))==NULL ) return -1;
    }else{
      if( next(r)==GR_JS_ERROR || !gr_js_skip(&r->js, &r->t) ) return -1;
    }
  }
  if( t->name==NULL && !kernel ){
    /* AI CPU stores match tensors by name: one without is written as a comment */
    gr_diags_add(r->d, GR_SEV_ERROR, r->path, t->line, t->col, "%s has no 'name'", where);
    r->nerr++;
    return -1;
  }
  return 0;
}

static int cmp_tensor(const void *a, const void *b){
  const gr_imp_tensor *x = a, *y = b;
  if( x->is_output!=y->is_output ) return x->is_output - y->is_output;
  return (x->index > y->index) - (x->index < y->index);
}

static int read_op(rd *r, gr_imp_op *op, int kernel){
  size_t cap = 0;
  if( next(r)!=GR_JS_OBJECT ){
    if( r->t.type!=GR_JS_ERROR ) err_at(r, r->t.off, "op %s must be an object%s", op->type, NULL);
    return -1;
  }
  for(;;){
    int k = next(r), index = 0, out;
    if( k==GR_JS_OBJECT_END ) break;
    if( k!=GR_JS_KEY ) return -1;
    if( (out = tensor_key(r->t.s, r->t.n, kernel, &index)) >= 0 ){
      gr_imp_tensor *t;
      size_t i;
      char *key = tokstr(r);
      for(i = 0; i < op->nt; i++) if( strcmp(op->t[i].key, key)==0 ) break;
      if( i < op->nt ){
        err_at(r, r->t.off, "'%s' is given twice in op %s", key, op->type);
        free(key);
        return -1;
      }
      if( op->nt==cap ){
        cap = cap ? cap * 2 : 8;
        op->t = gr_xrealloc(op->t, cap * sizeof *op->t);
      }
      t = &op->t[op->nt++];
      memset(t, 0, sizeof *t);
      t->key = key;
      t->is_output = out;
      t->index = index;
      gr_js_pos(&r->js, r->t.off, &t->line, &t->col);
      if( read_tensor(r, t, kernel, op->type)!=0 ) return -1;
      continue;
    }
    {
      static const struct { const char *key, *member; size_t off; } flags[] = {
        { "precision_reduce", "flag", offsetof(gr_imp_op, precision_reduce) },
        { "dynamicShapeSupport", "flag", offsetof(gr_imp_op, dyn_shape) },
        { "dynamicRankSupport", "flag", offsetof(gr_imp_op, dyn_rank) },
        { "dynamicCompileStatic", "flag", offsetof(gr_imp_op, dyn_compile_static) },
        { "dynamicFormat", "flag", offsetof(gr_imp_op, dyn_format) },
        { "needCheckSupport", "flag", offsetof(gr_imp_op, need_check) },
        { "heavyOp", "flag", offsetof(gr_imp_op, heavy) },
        { "opFile", "value", offsetof(gr_imp_op, op_file) },
      };
      size_t f;
      for(f = 0; f < sizeof flags / sizeof *flags; f++)
        if( r->t.n==strlen(flags[f].key) && memcmp(r->t.s, flags[f].key, r->t.n)==0 ) break;
      if( f < sizeof flags / sizeof *flags && !kernel ){
        char **dst = (char**)((char*)op + flags[f].off);
        if( *dst ){ err_at(r, r->t.off, "'%s' is given twice in op %s", flags[f].key, op->type); return -1; }
        if( flag_object(r, flags[f].key, flags[f].member, op->type, dst)!=0 ) return -1;
        continue;
      }
    }
    if( next(r)==GR_JS_ERROR || !gr_js_skip(&r->js, &r->t) ) return -1;
  }
  if( !kernel && op->nt > 1 ) qsort(op->t, op->nt, sizeof *op->t, cmp_tensor);
  return 0;
}

static void op_free(gr_imp_op *op){
  size_t i;
  for(i = 0; i < op->nt; i++){
    free(op->t[i].key); free(op->t[i].name); free(op->t[i].param); free(op->t[i].dtype); free(op->t[i].format);
  }
  free(op->t);
  free(op->type);
  free(op->precision_reduce); free(op->dyn_shape); free(op->dyn_rank); free(op->dyn_compile_static);
  free(op->dyn_format); free(op->need_check); free(op->heavy); free(op->op_file);
}

void gr_imp_file_free(gr_imp_file *f){
  size_t i;
  if( f==NULL ) return;
  for(i = 0; i < f->nops; i++) op_free(&f->ops[i]);
  free(f->ops);
  free(f->path);
  free(f->shown);
  memset(f, 0, sizeof *f);
}

int gr_imp_read_mem(const char *text, size_t len, const char *path, int kernel, gr_imp_file *out, gr_diags *d){
  rd r;
  size_t cap = 0;
  gr_map seen;
  int rc = -1;
  memset(out, 0, sizeof *out);
  memset(&r, 0, sizeof r);
  out->path = gr_xstrdup(path);
  out->shown = gr_xstrdup(path);
  crypto_hash_sha256(out->sha256, (const unsigned char*)text, len);
  r.path = out->path;
  r.d = d;
  gr_map_init(&seen);
  gr_js_init_mem(&r.js, text, len, 64, 0);
  if( next(&r)!=GR_JS_OBJECT ){
    if( r.t.type!=GR_JS_ERROR ) err_at(&r, r.t.off, "an op information file is one JSON object (op type -> op)%s%s", "", NULL);
    goto done;
  }
  for(;;){
    int k = next(&r);
    gr_imp_op *op;
    if( k==GR_JS_OBJECT_END ) break;
    if( k!=GR_JS_KEY ) goto done;
    if( out->nops==cap ){
      cap = cap ? cap * 2 : 64;
      out->ops = gr_xrealloc(out->ops, cap * sizeof *out->ops);
    }
    op = &out->ops[out->nops++];
    memset(op, 0, sizeof *op);
    op->type = tokstr(&r);
    gr_js_pos(&r.js, r.t.off, &op->line, &op->col);
    if( op->type[0]==0 || strlen(op->type)!=r.t.n ){
      err_at(&r, r.t.off, "an op type must be a non-empty name%s%s", "", NULL);
      goto done;
    }
    if( gr_map_put(&seen, op->type, (void*)(intptr_t)out->nops)!=NULL ){
      const gr_imp_op *first = &out->ops[(intptr_t)gr_map_get(&seen, op->type) - 1];
      char at[64];
      snprintf(at, sizeof at, "line %u", first->line);
      err_at(&r, r.t.off, "op %s is given twice in this file (first at %s)", op->type, at);
      goto done;
    }
    if( read_op(&r, op, kernel)!=0 ) goto done;
  }
  if( next(&r)!=GR_JS_EOF ) goto done;
  rc = 0;
done:
  gr_js_free(&r.js);
  gr_map_free(&seen);
  if( rc!=0 && r.nerr==0 ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the op information file");
  }
  if( rc!=0 ) gr_imp_file_free(out);
  return rc;
}

int gr_imp_read(const char *path, const char *shown, int kernel, gr_imp_file *out, gr_diags *d){
  size_t len;
  gr_error e;
  char *text = gr_read_file(path, &len, &e);
  int rc;
  if( text==NULL ){
    memset(out, 0, sizeof *out);
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "%s", e.msg);
    return -1;
  }
  rc = gr_imp_read_mem(text, len, path, kernel, out, d);
  free(text);
  if( rc==0 && shown ){ free(out->shown); out->shown = gr_xstrdup(shown); }
  return rc;
}
