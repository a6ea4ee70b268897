/*
** scan-only.c: the second floor for the graph-loading benchmarks. It runs
** the loader's own tokenizer (src/json_scan.c) over a JSON file (or stdin
** for "-"), read in 256 KiB chunks exactly like the graph loader, and builds
** nothing. It prints nothing unless the input cannot be read or is not valid
** JSON (then "FILE:LINE:COL: message" and exit status 1); with -c it prints
** the number of tokens. Also the accept/reject oracle for differential
** testing of the tokenizer. Links json_scan.c and util.c only.
*/
#include "config.h"
#include "model/json_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv){
  gr_js s;
  gr_js_tok t;
  unsigned long long ntok = 0;
  int fd, k, count = 0;
  const char *path;
  if( argc==3 && strcmp(argv[1], "-c")==0 ){ count = 1; path = argv[2]; }
  else if( argc==2 ) path = argv[1];
  else {
    fprintf(stderr, "usage: scan-only [-c] FILE.json\n");
    return 2;
  }
  fd = strcmp(path, "-")==0 ? 0 : open(path, O_RDONLY);
  if( fd < 0 ){
    fprintf(stderr, "scan-only: %s: %s\n", path, strerror(errno));
    return 1;
  }
  gr_js_init_fd(&s, fd, 0, 256, 0);
  while( (k = gr_js_next(&s, &t))!=GR_JS_EOF && k!=GR_JS_ERROR ) ntok++;
  if( fd ) close(fd);
  if( k==GR_JS_ERROR ){
    const gr_error *e = gr_js_error(&s);
    fprintf(stderr, "scan-only: %s:%u:%u: %s\n", path, e->line, e->col, e->msg);
    gr_js_free(&s);
    return 1;
  }
  gr_js_free(&s);
  if( count ) printf("%llu tokens\n", ntok);
  return 0;
}
