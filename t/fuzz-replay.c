/*
** fuzz-replay.c: replays a libFuzzer seed corpus as an ordinary TAP test.
** Linked with one fuzz target (its LLVMFuzzerTestOneInput), it feeds every
** file of the directory FUZZ_CORPUS (compiled in) to the target, in name
** order so the output is stable. A target that sets itself up once
** (LLVMFuzzerInitialize, e.g. loading the shipped rule set) is set up first,
** as libFuzzer does. The target checks its own invariants and aborts when one
** breaks (under ASan+UBSan also on any memory error or undefined behaviour),
** which fails the test; a corpus that is missing or empty fails too.
**
** Each target's corpus is replayed by one test of make check
** (t/t02NN-*-corpus, Makefile.am), so the sanitizer build of CI replays
** every corpus.
*/
#include "config.h"
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional in a target: weak, so a target without it links (its address is
** then null). */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int by_name(const void *a, const void *b){
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void){
  const char *dir = FUZZ_CORPUS;
  DIR *d = opendir(dir);
  struct dirent *de;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  if( d==NULL ){
    printf("1..1\nnot ok 1 - corpus %s cannot be opened\n", dir);
    return 1;
  }
  while( (de = readdir(d))!=NULL ){
    if( de->d_name[0]=='.' ) continue;
    if( n==cap ){                  /* corpora hold thousands of files */
      cap = cap ? cap * 2 : 256;
      names = gr_xrealloc(names, cap * sizeof *names);
    }
    names[n++] = gr_xstrdup(de->d_name);
  }
  closedir(d);
  if( n==0 ){
    printf("1..1\nnot ok 1 - corpus %s is empty\n", dir);
    return 1;
  }
  qsort(names, n, sizeof *names, by_name);
  if( LLVMFuzzerInitialize ){
    static char arg0[] = "fuzz-replay";
    char *args[] = { arg0, NULL };
    char **argv = args;
    int argc = 1;
    LLVMFuzzerInitialize(&argc, &argv);
  }
  printf("1..%zu\n", n);
  for(i = 0; i < n; i++){
    char *path = gr_xasprintf("%s/%s", dir, names[i]);
    gr_error err;
    size_t len;
    char *buf = gr_read_file(path, &len, &err);
    if( buf==NULL ) printf("not ok %zu - %s: %s\n", i + 1, names[i], err.msg);
    else{
      fflush(stdout);
      LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
      printf("ok %zu - %s\n", i + 1, names[i]);
    }
    free(buf);
    free(path);
    free(names[i]);
  }
  free(names);
  return 0;
}
