/*
** lineidx.c: line starts of an in-memory text (see lineidx.h). The rule
** checker reports every error with its source line; scanning the file from
** the top for each one made 80,000 errors take over 20 s, this makes each
** lookup constant time.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "base/lineidx.h"

void gr_lineidx_init(gr_lineidx *ix, const char *text, size_t len){
  const char *p, *e, *nl;
  size_t n = 1, k = 0;
  memset(ix, 0, sizeof *ix);
  if( text==NULL ) return;
  ix->text = text; ix->len = len;
  e = text + len;
  for(p = text; p < e && (nl = memchr(p, '\n', (size_t)(e - p)))!=NULL; p = nl + 1) n++;
  ix->start = gr_xcalloc(n, sizeof *ix->start);   /* calloc checks n * size */
  ix->start[k++] = 0;
  for(p = text; p < e && (nl = memchr(p, '\n', (size_t)(e - p)))!=NULL; p = nl + 1) ix->start[k++] = (size_t)(nl + 1 - text);
  ix->n = k;
}

const char *gr_lineidx_get(const gr_lineidx *ix, uint32_t line, size_t *len){
  size_t b, end;
  const char *nl;
  if( ix==NULL || ix->text==NULL || line==0 || line > ix->n ) return NULL;
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
