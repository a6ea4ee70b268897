/*
** optfile.c: reads an options file (gerules eval --options FILE) into user
** option inputs: either a JSON object of key/value pairs (values may be
** strings, numbers or booleans) or `key=value` lines with '#' comments. Every
** input keeps the file, line and column of its value. The JSON form is parsed
** with yajl's event interface so each key keeps its position.
*/
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include "options/optfile.h"

typedef struct ofp {
  gr_optinputs *out;
  const char *text;
  size_t len;
  yajl_handle h;
  int depth;
  char *key;
  uint32_t key_line, key_col;
  gr_error *err;
  int failed;
  const char *file;
  /* line/column of `off`, advanced incrementally (offsets only grow) */
  size_t off; uint32_t line, col;
} ofp;

static void advance(ofp *p, size_t to, uint32_t *line, uint32_t *col){
  if( to > p->len ) to = p->len;
  if( to < p->off ){ p->off = 0; p->line = 1; p->col = 1; }
  for(; p->off < to; p->off++){
    if( p->text[p->off]=='\n' ){ p->line++; p->col = 1; } else p->col++;
  }
  *line = p->line; *col = p->col;
}

/* The position of the last byte yajl consumed (the end of the current token). */
static void here(ofp *p, uint32_t *line, uint32_t *col){
  size_t off = yajl_get_bytes_consumed(p->h);
  advance(p, off ? off - 1 : 0, line, col);
}

void gr_optinputs_add(gr_optinputs *o, const char *key, size_t kn, const char *val, size_t vn,
                      const char *file, uint32_t line, uint32_t col){
  gr_input *in;
  if( o->n==o->cap ){
    o->cap = o->cap ? o->cap * 2 : 16;
    o->v = gr_xrealloc(o->v, o->cap * sizeof *o->v);
  }
  in = &o->v[o->n++];
  memset(in, 0, sizeof *in);
  in->key = gr_arena_strndup(&o->arena, key, kn);
  in->value = gr_arena_strndup(&o->arena, val, vn);
  in->origin.file = file;
  in->origin.line = line;
  in->origin.col = col;
  in->option = -1;
  in->overridden_by = -1;
}

static int value_cb(ofp *p, const char *v, size_t n){
  uint32_t line, col;
  if( p->depth!=1 || p->key==NULL ){
    here(p, &line, &col);
    gr_error_set(p->err, line, col, "expected an object of \"key\": value pairs");
    p->failed = 1;
    return 0;
  }
  here(p, &line, &col);
  gr_optinputs_add(p->out, p->key, strlen(p->key), v, n, p->file, p->key_line, p->key_col);
  free(p->key);
  p->key = NULL;
  return 1;
}

static int on_null(void *ctx){
  ofp *p = ctx;
  return value_cb(p, "", 0);
}
static int on_bool(void *ctx, int b){
  ofp *p = ctx;
  return b ? value_cb(p, "true", 4) : value_cb(p, "false", 5);
}
static int on_number(void *ctx, const char *s, size_t n){ return value_cb(ctx, s, n); }
static int on_string(void *ctx, const unsigned char *s, size_t n){ return value_cb(ctx, (const char*)s, n); }
static int on_map_key(void *ctx, const unsigned char *s, size_t n){
  ofp *p = ctx;
  free(p->key);
  p->key = gr_xstrndup((const char*)s, n);
  here(p, &p->key_line, &p->key_col);
  p->key_col = p->key_col >= n + 1 ? p->key_col - (uint32_t)n - 1 : 1;   /* point at the opening quote */
  return 1;
}
static int on_start_map(void *ctx){
  ofp *p = ctx;
  if( p->depth!=0 ){
    uint32_t line, col;
    here(p, &line, &col);
    gr_error_set(p->err, line, col, "option values must be strings, numbers or booleans, not objects");
    p->failed = 1;
    return 0;
  }
  p->depth++;
  return 1;
}
static int on_end_map(void *ctx){ ofp *p = ctx; p->depth--; return 1; }
static int on_start_array(void *ctx){
  ofp *p = ctx;
  uint32_t line, col;
  here(p, &line, &col);
  gr_error_set(p->err, line, col, p->depth ? "option values must be strings, numbers or booleans, not arrays"
                                           : "expected an object of \"key\": value pairs");
  p->failed = 1;
  return 0;
}
static int on_end_array(void *ctx){ (void)ctx; return 0; }

static const yajl_callbacks json_cb = {
  on_null, on_bool, NULL, NULL, on_number, on_string,
  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array
};

static int read_json(gr_optinputs *out, const char *file, const char *text, size_t len, gr_error *err){
  ofp p;
  yajl_status st;
  int at_end = 0;
  memset(&p, 0, sizeof p);
  p.out = out; p.text = text; p.len = len; p.err = err; p.file = file;
  p.line = p.col = 1;
  p.h = yajl_alloc(&json_cb, NULL, &p);
  st = yajl_parse(p.h, (const unsigned char*)text, len);
  if( st==yajl_status_ok ){ st = yajl_complete_parse(p.h); at_end = 1; }
  if( st!=yajl_status_ok && !p.failed ){
    unsigned char *m = yajl_get_error(p.h, 0, (const unsigned char*)text, len);
    size_t off = at_end ? len : yajl_get_bytes_consumed(p.h);
    uint32_t line, col;
    char *nl;
    /* at the end of input: just after the last byte; else the offending byte */
    advance(&p, at_end ? len : (off ? off - 1 : 0), &line, &col);
    if( (nl = strchr((char*)m, '\n'))!=NULL ) *nl = 0;
    gr_error_set(err, line, col, "malformed JSON: %s", (char*)m);
    yajl_free_error(p.h, m);
    p.failed = 1;
  }
  free(p.key);
  yajl_free(p.h);
  return p.failed ? -1 : 0;
}

static int read_lines(gr_optinputs *out, const char *file, const char *text, size_t len, gr_error *err){
  size_t pos = 0;
  uint32_t line = 0;
  while( pos < len ){
    const char *s = text + pos, *eol = memchr(s, '\n', len - pos), *e, *eq, *k0, *k1, *v0, *v1;
    size_t n = eol ? (size_t)(eol - s) : len - pos;
    line++;
    pos += n + (eol ? 1 : 0);
    e = s + n;
    while( s < e && isspace((unsigned char)*s) ) s++;
    while( e > s && isspace((unsigned char)e[-1]) ) e--;
    if( s==e || *s=='#' ) continue;
    eq = memchr(s, '=', (size_t)(e - s));
    if( eq==NULL ){
      gr_error_set(err, line, (uint32_t)(s - (text + pos - n - (eol ? 1 : 0))) + 1, "expected KEY=VALUE");
      return -1;
    }
    k0 = s; k1 = eq; v0 = eq + 1; v1 = e;
    while( k1 > k0 && isspace((unsigned char)k1[-1]) ) k1--;
    while( v0 < v1 && isspace((unsigned char)*v0) ) v0++;
    if( k1==k0 ){
      gr_error_set(err, line, (uint32_t)(s - (text + pos - n - (eol ? 1 : 0))) + 1, "empty option name before '='");
      return -1;
    }
    gr_optinputs_add(out, k0, (size_t)(k1 - k0), v0, (size_t)(v1 - v0), file, line,
                     (uint32_t)(k0 - (text + pos - n - (eol ? 1 : 0))) + 1);
  }
  return 0;
}

int gr_optfile_parse(gr_optinputs *out, const char *file, const char *text, size_t len, gr_error *err){
  size_t i = 0;
  file = gr_arena_strndup(&out->arena, file, strlen(file));
  while( i < len && isspace((unsigned char)text[i]) ) i++;
  if( i < len && text[i]=='{' ) return read_json(out, file, text, len, err);
  if( i < len && (text[i]=='[' || text[i]=='"') ){
    uint32_t line = 1, col = 1;
    size_t k;
    for(k = 0; k < i; k++){ if( text[k]=='\n' ){ line++; col = 1; } else col++; }
    gr_error_set(err, line, col, "a JSON options file must be an object of \"key\": value pairs");
    return -1;
  }
  if( memchr(text, 0, len) ){
    gr_error_set(err, 0, 0, "the file contains a NUL byte");
    return -1;
  }
  return read_lines(out, file, text, len, err);
}

int gr_optfile_read(gr_optinputs *out, const char *path, gr_error *err){
  size_t len;
  char *text = gr_read_file(path, &len, err);
  int rc;
  if( text==NULL ) return -1;
  rc = gr_optfile_parse(out, path, text, len, err);
  free(text);
  return rc;
}

void gr_optinputs_init(gr_optinputs *o){ memset(o, 0, sizeof *o); gr_arena_init(&o->arena); }
void gr_optinputs_free(gr_optinputs *o){
  if( o==NULL ) return;
  free(o->v);
  gr_arena_free(&o->arena);
  memset(o, 0, sizeof *o);
}
