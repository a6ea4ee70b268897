/*
** keep_dtype.c: the KEEP_DTYPE file reader (dtype_files.h), as GE reads it
** (hicann/ge @ffdcbc9f7 compiler/api/aclgrph/attr_options/keep_dtype_option.cc:68-123,
** attr_options/utils.cc:20-65): one entry per line, each line trimmed, empty
** lines skipped, no comment syntax; a line starting with `OpType::` names
** an op type, any other line a node name. A missing file is E10410. Which
** nodes an entry marks needs the graph: gr_keep_dtype_check reports the
** entries that mark none (a warning, as GE gives; E10003 for an `OpType::`
** whose type is empty or not PascalCase, keep_dtype_option.cc:24-29, 46-55).
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/dtype_files.h"
#include "base/lineidx.h"
#include "options/file_diag.h"

static int is_blank(char c){ return c==' ' || c=='\t' || c=='\r' || c=='\v' || c=='\f'; }

int gr_keep_dtype_parse(const char *text, size_t len, const char *path, gr_keep_dtype *out, gr_diags *d){
  size_t pos = 0;
  uint32_t line = 0;
  (void)d;
  memset(out, 0, sizeof *out);
  out->path = gr_xstrdup(path);
  while( pos < len ){
    const char *s = text + pos, *nl = memchr(s, '\n', len - pos), *e = nl ? nl : text + len, *a, *b;
    gr_keep_entry *k;
    line++;
    pos = (size_t)(e - text) + (nl ? 1 : 0);
    for(a = s; a < e && is_blank(*a); a++) ;
    for(b = e; b > a && is_blank(b[-1]); b--) ;
    if( a==b ) continue;
    out->v = gr_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
    k = &out->v[out->n++];
    memset(k, 0, sizeof *k);
    k->line = line;
    k->col = (uint32_t)(a - s) + 1;
    if( b - a >= 8 && memcmp(a, "OpType::", 8)==0 ){
      k->by_type = 1;
      k->text = gr_xstrndup(a + 8, (size_t)(b - a - 8));
      k->col += 8;
    }else{
      k->text = gr_xstrndup(a, (size_t)(b - a));
    }
  }
  return 0;
}

int gr_keep_dtype_read(const char *path, gr_keep_dtype *out, gr_diags *d){
  size_t len;
  char *text;
  int rc;
  memset(out, 0, sizeof *out);
  if( (text = gr_file_diag_read(path, &len, d, "E10410", "File [%s] does not exist (%s)"))==NULL ) return -1;
  rc = gr_keep_dtype_parse(text, len, path, out, d);
  free(text);
  return rc;
}

static int pascal(const char *s){
  if( !(s[0] >= 'A' && s[0] <= 'Z') ) return 0;
  for(s++; *s; s++) if( !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) ) return 0;
  return 1;
}

int gr_keep_dtype_check(const gr_keep_dtype *k, int (*matches)(void *ctx, const gr_keep_entry *e),
                        const char *(*suggest)(void *ctx, const gr_keep_entry *e), void *ctx, gr_diags *d){
  size_t i;
  int nerr = 0;
  for(i = 0; k && i < k->n; i++){
    const gr_keep_entry *e = &k->v[i];
    const char *sug;
    char tail[200];
    gr_diag *g;
    if( matches(ctx, e) ) continue;
    sug = suggest ? suggest(ctx, e) : NULL;
    if( sug && strcmp(sug, e->text)!=0 ) snprintf(tail, sizeof tail, "; did you mean '%s'?", sug); else tail[0] = 0;
    if( e->by_type && !pascal(e->text) ){
      g = gr_diags_add(d, GR_SEV_ERROR, k->path, e->line, e->col, "KEEP_DTYPE: op type '%s' matches no node and is not a valid op type "
                       "(a capital letter, then letters and digits)%s", e->text, tail);
      if( g ) gr_diag_set(&g->ge_code, "E10003");
      nerr++;
    }else{
      g = gr_diags_add(d, GR_SEV_WARNING, k->path, e->line, e->col, "KEEP_DTYPE: %s '%s' matches no node of the graph%s",
                       e->by_type ? "op type" : "node name", e->text, tail);
    }
    (void)g;
  }
  return nerr;
}

void gr_keep_dtype_free(gr_keep_dtype *k){
  size_t i;
  if( k==NULL ) return;
  for(i = 0; i < k->n; i++) free(k->v[i].text);
  free(k->v);
  free(k->path);
  memset(k, 0, sizeof *k);
}
