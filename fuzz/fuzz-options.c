/*
** fuzz-options.c: libFuzzer target for the options-file reader
** (gr_optfile_parse in src/options/optfile.c): a JSON object of "key": value pairs
** (read with the gr_js tokenizer) or KEY=VALUE lines with '#' comments.
** Each input is parsed from memory; on success every input record is read
** (key, value, origin); on failure the error must carry a message. Options
** are appended to one gr_optinputs per input, then freed. Build:
** fuzz/build.sh (fuzz/README.md).
** Seeds: fuzz/corpus/options/.
*/
#include "config.h"
#include "options/optfile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_optinputs in;
  gr_error err;
  uint64_t acc = 0;
  size_t i;
  /* an exact-size copy: the reader must not look past `size` (no NUL after it) */
  char *text = malloc(size ? size : 1);
  if( text==NULL ) return 0;
  if( size ) memcpy(text, data, size);
  memset(&err, 0, sizeof err);
  gr_optinputs_init(&in);
  if( gr_optfile_parse(&in, "fuzz.opts", text, size, &err)!=0 ){
    if( err.msg[0]==0 ) abort();            /* a failure is always explained */
    acc += err.line + err.col + strlen(err.msg);
  }
  {
    /* KEY=VALUE form (the text does not start with '{'): each record's origin
    ** must point at its key in the text (line/col are 1-based, col in bytes). */
    /* the reader drops a UTF-8 BOM before either form (issue 30): what
    ** follows it is line 1, column 1 */
    size_t bom = size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3)==0 ? 3 : 0, k = bom;
    int lines_form;
    while( k < size && (text[k]==' ' || text[k]=='\t' || text[k]=='\n' || text[k]=='\r' || text[k]=='\v' || text[k]=='\f') ) k++;
    lines_form = !(k < size && text[k]=='{');
    for(i = 0; i < in.n; i++){
      const gr_input *r = &in.v[i];
      if( r->key==NULL || r->value==NULL || r->origin.file==NULL ) abort();
      if( strcmp(r->origin.file, "fuzz.opts")!=0 ) abort();
      if( lines_form ){
        size_t off = bom, kl = strlen(r->key);
        uint32_t l = 1;
        while( off < size && l < r->origin.line ){ if( text[off]=='\n' ) l++; off++; }
        if( l!=r->origin.line || r->origin.col==0 ) abort();
        off += r->origin.col - 1;
        if( off + kl > size || memcmp(text + off, r->key, kl)!=0 ) abort();
      }
      acc += strlen(r->key) + strlen(r->value) + r->origin.line + r->origin.col;
    }
  }
  sink = acc;
  gr_optinputs_free(&in);
  free(text);
  return 0;
}
