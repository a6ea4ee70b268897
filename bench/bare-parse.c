/*
** bare-parse.c: the floor for the graph-loading benchmarks. It reads a JSON
** file (or stdin for "-") in 256 KiB chunks, exactly like the graph loader,
** and runs yajl over it with callbacks that do nothing (yajl_number is set,
** as in the loader, so yajl never converts numbers). It prints nothing unless
** the input cannot be read or is not valid JSON (then exit status 1). Stand-
** alone: links only yajl.
*/
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#define CHUNK (256u << 10)

static int on_null(void *c){ (void)c; return 1; }
static int on_bool(void *c, int b){ (void)c; (void)b; return 1; }
static int on_number(void *c, const char *s, size_t n){ (void)c; (void)s; (void)n; return 1; }
static int on_string(void *c, const unsigned char *s, size_t n){ (void)c; (void)s; (void)n; return 1; }
static int on_start_map(void *c){ (void)c; return 1; }
static int on_key(void *c, const unsigned char *s, size_t n){ (void)c; (void)s; (void)n; return 1; }
static int on_end_map(void *c){ (void)c; return 1; }
static int on_start_array(void *c){ (void)c; return 1; }
static int on_end_array(void *c){ (void)c; return 1; }

static const yajl_callbacks callbacks = {
  on_null, on_bool, NULL, NULL, on_number, on_string,
  on_start_map, on_key, on_end_map, on_start_array, on_end_array
};

int main(int argc, char **argv){
  static unsigned char buf[CHUNK];
  yajl_handle h;
  yajl_status st = yajl_status_ok;
  int fd;
  if( argc!=2 ){
    fprintf(stderr, "usage: bare-parse FILE.json\n");
    return 2;
  }
  fd = strcmp(argv[1], "-")==0 ? 0 : open(argv[1], O_RDONLY);
  if( fd < 0 ){
    fprintf(stderr, "bare-parse: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  h = yajl_alloc(&callbacks, NULL, NULL);
  if( h==NULL ){
    fprintf(stderr, "bare-parse: out of memory\n");
    return 1;
  }
  for(;;){
    ssize_t k = read(fd, buf, sizeof buf);
    if( k < 0 ){
      if( errno==EINTR ) continue;
      fprintf(stderr, "bare-parse: %s: %s\n", argv[1], strerror(errno));
      yajl_free(h);
      if( fd ) close(fd);
      return 1;
    }
    if( k==0 ){ st = yajl_complete_parse(h); break; }
    st = yajl_parse(h, buf, (size_t)k);
    if( st!=yajl_status_ok ) break;
  }
  if( st!=yajl_status_ok ){
    unsigned char *msg = yajl_get_error(h, 0, NULL, 0);
    fprintf(stderr, "bare-parse: %s: %s", argv[1], msg ? (char*)msg : "error\n");
    if( msg ) yajl_free_error(h, msg);
    yajl_free(h);
    if( fd ) close(fd);
    return 1;
  }
  yajl_free(h);
  if( fd ) close(fd);
  return 0;
}
