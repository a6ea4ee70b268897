/*
** file_diag.c: a located diagnostic of an option file (file_diag.h).
*/
#include "config.h"
#include "options/file_diag.h"
#include "base/util.h"

gr_diag *gr_file_diag(gr_diags *d, const char *path, const gr_lineidx *lines, int *nerr, gr_severity sev,
                      uint32_t line, uint32_t col, const char *code, const char *fmt, const char *a, const char *b){
  gr_diag *g = gr_diags_add(d, sev, path, line, col, fmt, a ? a : "", b ? b : "");
  if( g ){
    if( code ) gr_diag_set(&g->ge_code, code);
    if( line ) g->snippet = gr_lineidx_dup(lines, line);
  }
  if( sev==GR_SEV_ERROR ) (*nerr)++;
  return g;
}

char *gr_file_diag_read(const char *path, size_t *len, gr_diags *d, const char *code, const char *fmt){
  gr_error e;
  char *text = gr_read_file(path, len, &e);
  if( text==NULL ){
    gr_diag *g = gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, fmt, path, e.msg);
    if( g ) gr_diag_set(&g->ge_code, code);
  }
  return text;
}
