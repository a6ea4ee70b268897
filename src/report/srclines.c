/*
** srclines.c: source lines of input files for caret diagnostics (see
** srclines.h). mmap rather than reading: a graph file may be hundreds of
** megabytes and only a few of its lines are ever shown.
*/
#include "config.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/util.h"
#include "report/srclines.h"

typedef struct srcfile {
  char *path;
  const char *data; size_t len;     /* NULL when the file cannot be mapped */
  size_t *start; size_t nstart, cap; /* offsets of the line starts found so far */
  size_t scanned;                    /* bytes scanned for newlines */
} srcfile;

struct gr_srclines {
  srcfile *v; size_t n, cap;
};

gr_srclines *gr_srclines_new(void){ return gr_xcalloc(1, sizeof(gr_srclines)); }

static srcfile *get_file(gr_srclines *s, const char *path){
  size_t i;
  srcfile *f;
  struct stat st;
  int fd;
  for(i = 0; i < s->n; i++) if( strcmp(s->v[i].path, path)==0 ) return &s->v[i];
  if( s->n==s->cap ){
    s->cap = s->cap ? s->cap * 2 : 4;
    s->v = gr_xrealloc(s->v, s->cap * sizeof *s->v);
  }
  f = &s->v[s->n++];
  memset(f, 0, sizeof *f);
  f->path = gr_xstrdup(path);
  if( (fd = gr_open_input(path, NULL, NULL)) <= 0 ) return f;   /* a regular file, never stdin */
  if( fstat(fd, &st)==0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX ){
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if( p!=MAP_FAILED ){ f->data = p; f->len = (size_t)st.st_size; }
  }
  close(fd);
  if( f->data ){
    f->cap = 64;
    f->start = gr_xmalloc(f->cap * sizeof *f->start);
    f->start[f->nstart++] = 0;
  }
  return f;
}

const char *gr_srclines_get(gr_srclines *s, const char *file, uint32_t line, size_t *len){
  srcfile *f;
  const char *nl;
  size_t b, lim;
  if( s==NULL || file==NULL || line==0 ) return NULL;
  f = get_file(s, file);
  if( f->data==NULL ) return NULL;
  /* index line starts up to the one asked for */
  while( f->nstart < line && f->scanned < f->len ){
    nl = memchr(f->data + f->scanned, '\n', f->len - f->scanned);
    if( nl==NULL ){ f->scanned = f->len; break; }
    f->scanned = (size_t)(nl - f->data) + 1;
    if( f->nstart==f->cap ){ f->cap *= 2; f->start = gr_xrealloc(f->start, f->cap * sizeof *f->start); }
    f->start[f->nstart++] = f->scanned;
  }
  if( f->nstart < line ) return NULL;
  b = f->start[line - 1];
  if( b >= f->len ) return NULL;
  /* the end of the line, looked for at most GR_SRCLINE_MAX bytes on: a
  ** sparse terabyte of zeros or a 300 MB one-line graph is not scanned to
  ** its end for one caret (a longer line comes back cut; a column past the
  ** cut gets no caret line, see gr_diag_format_ex) */
  lim = f->len - b < GR_SRCLINE_MAX ? f->len - b : GR_SRCLINE_MAX;
  nl = memchr(f->data + b, '\n', lim);
  *len = nl ? (size_t)(nl - (f->data + b)) : lim;
  return f->data + b;
}

void gr_srclines_free(gr_srclines *s){
  size_t i;
  if( s==NULL ) return;
  for(i = 0; i < s->n; i++){
    if( s->v[i].data ) munmap((void*)s->v[i].data, s->v[i].len);
    free(s->v[i].start);
    free(s->v[i].path);
  }
  free(s->v);
  free(s);
}
