/*
** fuzz-oplib-json.c: libFuzzer target for the op information file reader of
** `gerules import-oplib` (gr_imp_read_mem, src/oplib/import_read.c). Byte 0
** picks the store kind (odd: an AI CPU kernel store, even: AI Core / DSA);
** the rest is the file. A failure must carry a located error; a success
** must give ops with a type and tensors with a key (and, AI Core, a name), AI Core
** tensors in input0..N, output0..N order. Build like the other targets
** (fuzz/README.md, fuzz/build.sh). Seeds: fuzz/corpus/oplib-json/.
*/
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "oplib/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_imp_file f;
  gr_diags d;
  int kernel;
  size_t i, k, acc = 0;
  char *text;
  if( size==0 ) return 0;
  kernel = data[0] & 1;
  text = malloc(size);
  if( text==NULL ) return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;                    /* the reader's buffers carry a NUL after the text */
  gr_diags_init(&d);
  if( gr_imp_read_mem(text, size - 1, "fuzz.json", kernel, &f, &d)!=0 ){
    if( gr_diags_errors(&d)==0 || d.v[0].msg==NULL || d.v[0].msg[0]==0 ) abort();
  }else{
    for(i = 0; i < f.nops; i++){
      const gr_imp_op *op = &f.ops[i];
      if( op->type==NULL || op->type[0]==0 ) abort();
      for(k = 0; k < op->nt; k++){
        if( op->t[k].key==NULL || (op->t[k].name==NULL && !kernel) ) abort();
        if( !kernel && k > 0 && (op->t[k-1].is_output > op->t[k].is_output ||
            (op->t[k-1].is_output==op->t[k].is_output && op->t[k-1].index > op->t[k].index)) ) abort();
        acc += op->t[k].name ? strlen(op->t[k].name) : 0;
      }
    }
    gr_imp_file_free(&f);
  }
  sink += acc;
  gr_diags_free(&d);
  free(text);
  return 0;
}
