/*
** optfile.c: reads an options file (gerules eval --options FILE) into user
** option inputs: either a JSON object of key/value pairs (values may be
** strings, numbers or booleans) or `key=value` lines with '#' comments. Every
** input keeps the file, line and column of its value. The JSON form is read
** with the project's own tokenizer (model/json_scan.h), which hands out each
** key with its byte offset; a key or value holding a NUL byte (escaped as
** \u0000) is refused rather than cut short, so "ALLOW_HF32\u0000junk" never
** passes for ALLOW_HF32.
*/
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/json_scan.h"
#include "options/optfile.h"

/* An options file holds a few dozen short pairs: anything bigger is not one. */
#define OPTFILE_MAX_BYTES ((size_t)16 << 20)
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

static void located(gr_js *js, gr_error *err, uint64_t off, const char *msg){
  uint32_t line, col;
  gr_js_pos(js, off, &line, &col);
  gr_error_set(err, line, col, "%s", msg);
}

/* The JSON form: one object of "key": scalar pairs. */
static int read_json(gr_optinputs *out, const char *file, const char *text, size_t len, gr_error *err){
  gr_js js;
  gr_js_tok t;
  char *key = NULL;
  uint32_t kline = 0, kcol = 0;
  int rc = -1;
  gr_js_init_mem(&js, text, len, 2, 0);
  if( gr_js_next(&js, &t)!=GR_JS_OBJECT ){
    if( t.type==GR_JS_ERROR ) goto scan_error;
    located(&js, err, t.off, "expected an object of \"key\": value pairs");
    goto done;
  }
  for(;;){
    switch( gr_js_next(&js, &t) ){
      case GR_JS_ERROR: goto scan_error;
      case GR_JS_OBJECT_END:
        if( gr_js_next(&js, &t)==GR_JS_ERROR ) goto scan_error;
        rc = 0;
        goto done;
      case GR_JS_KEY:
        if( memchr(t.s, 0, t.n) ){
          located(&js, err, t.off, "an option name cannot contain a NUL byte (\\u0000)");
          goto done;
        }
        free(key);
        key = gr_xstrndup(t.s, t.n);
        gr_js_pos(&js, t.off, &kline, &kcol);
        break;
      default:
        located(&js, err, t.off, "expected an object of \"key\": value pairs");
        goto done;
    }
    switch( gr_js_next(&js, &t) ){
      case GR_JS_ERROR: goto scan_error;
      case GR_JS_OBJECT:
        located(&js, err, t.off, "option values must be strings, numbers or booleans, not objects");
        goto done;
      case GR_JS_ARRAY:
        located(&js, err, t.off, "option values must be strings, numbers or booleans, not arrays");
        goto done;
      case GR_JS_STRING:
        if( memchr(t.s, 0, t.n) ){
          located(&js, err, t.off, "an option value cannot contain a NUL byte (\\u0000)");
          goto done;
        }
        gr_optinputs_add(out, key, strlen(key), t.s, t.n, file, kline, kcol);
        break;
      case GR_JS_INT: case GR_JS_NUMBER:
        gr_optinputs_add(out, key, strlen(key), t.s, t.n, file, kline, kcol);
        break;
      case GR_JS_TRUE: gr_optinputs_add(out, key, strlen(key), "true", 4, file, kline, kcol); break;
      case GR_JS_FALSE: gr_optinputs_add(out, key, strlen(key), "false", 5, file, kline, kcol); break;
      default: gr_optinputs_add(out, key, strlen(key), "", 0, file, kline, kcol); break;   /* null */
    }
  }
scan_error:
  gr_error_set(err, gr_js_error(&js)->line, gr_js_error(&js)->col, "malformed JSON: %s", gr_js_error(&js)->msg);
done:
  free(key);
  gr_js_free(&js);
  return rc;
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
  if( len >= 3 && memcmp(text, "\xef\xbb\xbf", 3)==0 ){ text += 3; len -= 3; }   /* a UTF-8 BOM: accepted, not a character */
  while( i < len && isspace((unsigned char)text[i]) ) i++;
  if( i < len && text[i]=='{' ) return read_json(out, file, text, len, err);
  if( i < len && (text[i]=='[' || text[i]=='"') ){
    uint32_t line = 1, col = 1;
    size_t k;
    for(k = 0; k < i; k++){ if( text[k]=='\n' ){ line++; col = 1; } else col++; }
    gr_error_set(err, line, col, "a JSON options file must be an object of \"key\": value pairs");
    return -1;
  }
  {
    const char *nul = memchr(text, 0, len);
    if( nul ){
      uint32_t line = 1, col = 1;
      const char *q;
      for(q = text; q < nul; q++){ if( *q=='\n' ){ line++; col = 1; } else col++; }
      gr_error_set(err, line, col, "a NUL byte (an options file is text)");
      return -1;
    }
  }
  return read_lines(out, file, text, len, err);
}

int gr_optfile_read(gr_optinputs *out, const char *path, gr_error *err){
  size_t len;
  char *text = gr_read_file_max(path, OPTFILE_MAX_BYTES, &len, err);
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
