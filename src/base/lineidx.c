/*
** lineidx.c: line starts of an in-memory text (see lineidx.h). The rule
** checker reports every error with its source line; scanning the file from
** the top for each one made 80,000 errors take over 20 s, this makes each
** lookup constant time. The index is built on the first lookup, not when the
** text is registered: a rule set's texts (2.5 MB with the op library) are
** loaded on every run, and most runs report no line of them.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "base/lineidx.h"

void gr_lineidx_init(gr_lineidx *ix, const char *text, size_t len){
  memset(ix, 0, sizeof *ix);
  ix->text = text; ix->len = len;
}

/* the line starts, found in one memchr pass over the text (first use) */
static void build(gr_lineidx *ix){
  const char *p, *e, *nl;
  size_t n = 1, k = 0;
  ix->built = 1;
  if( ix->text==NULL ) return;
  e = ix->text + ix->len;
  for(p = ix->text; p < e && (nl = memchr(p, '\n', (size_t)(e - p)))!=NULL; p = nl + 1) n++;
  ix->start = gr_xcalloc(n, sizeof *ix->start);   /* calloc checks n * size */
  ix->start[k++] = 0;
  for(p = ix->text; p < e && (nl = memchr(p, '\n', (size_t)(e - p)))!=NULL; p = nl + 1) ix->start[k++] = (size_t)(nl + 1 - ix->text);
  ix->n = k;
}

size_t gr_lineidx_count(const gr_lineidx *ix){
  if( ix==NULL ) return 0;
  if( !ix->built ) build((gr_lineidx*)ix);   /* the index is the object's own state */
  return ix->n;
}

const char *gr_lineidx_get(const gr_lineidx *ix, uint32_t line, size_t *len){
  size_t b, end;
  const char *nl;
  if( ix==NULL || ix->text==NULL || line==0 || line > gr_lineidx_count(ix) ) return NULL;
  b = ix->start[line - 1];
  if( line < ix->n ) end = ix->start[line] - 1;       /* the '\n' ending it */
  else{
    nl = memchr(ix->text + b, '\n', ix->len - b);
    end = nl ? (size_t)(nl - ix->text) : ix->len;
  }
  if( end > b && ix->text[end - 1]=='\r' ) end--;
  *len = end - b;
  return ix->text + b;
}

char *gr_lineidx_dup(const gr_lineidx *ix, uint32_t line){
  size_t len;
  const char *p = gr_lineidx_get(ix, line, &len);
  return p ? gr_xstrndup(p, len) : NULL;
}

void gr_lineidx_free(gr_lineidx *ix){
  free(ix->start);
  memset(ix, 0, sizeof *ix);
}
