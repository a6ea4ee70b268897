/*
** fuzz-dtype-files.c: libFuzzer target for the precision option file readers
** (src/options/dtype_files.h). Byte 0 picks the reader (0 MODIFY_MIXLIST, 1
** KEEP_DTYPE, 2 CUSTOMIZE_DTYPES, by its value mod 3); the rest is the file,
** read from an exact-size copy (no NUL after it), without a rule set (no
** dtype table: every CUSTOMIZE_DTYPES dtype is refused, which the target
** also checks). A failure must carry a located error with GE's code; a
** success must give entries with a key and a location. Build like the other
** targets (fuzz/README.md). Seeds: fuzz/corpus/dtype-files/.
*/
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "options/dtype_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

/* a refused file: at least one error, and every error carries GE's code and a
** message (warnings, such as a duplicate entry, may come before the error) */
static void failed(const gr_diags *d){
  size_t i;
  if( gr_diags_errors(d)==0 ) abort();
  for(i = 0; i < d->n; i++){
    if( d->v[i].sev!=GR_SEV_ERROR ) continue;
    if( d->v[i].ge_code==NULL || d->v[i].msg==NULL || d->v[i].msg[0]==0 ) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_diags d;
  char *text;
  size_t i, n, acc = 0;
  if( size==0 ) return 0;
  n = size - 1;
  text = malloc(n ? n : 1);
  if( text==NULL ) return 0;
  if( n ) memcpy(text, data + 1, n);
  gr_diags_init(&d);
  switch( data[0] % 3 ){
    case 0: {
      gr_mixlist m;
      if( gr_mixlist_parse(text, n, "f.json", &m, NULL, NULL, &d)!=0 ) failed(&d);
      for(i = 0; i < m.n; i++){
        if( m.v[i].op_type==NULL || m.v[i].line==0 || m.v[i].ops==0 ) abort();
        acc += (size_t)gr_mixlist_policy(&m, m.v[i].op_type, GR_POLICY_GRAY);
      }
      gr_mixlist_free(&m);
      break;
    }
    case 1: {
      gr_keep_dtype k;
      if( gr_keep_dtype_parse(text, n, "f.cfg", &k, &d)!=0 ) abort();   /* every text reads */
      for(i = 0; i < k.n; i++){ if( k.v[i].text==NULL || k.v[i].line==0 ) abort(); acc += strlen(k.v[i].text); }
      gr_keep_dtype_free(&k);
      break;
    }
    default: {
      gr_cust_dtypes c;
      if( gr_cust_dtypes_parse(text, n, "f.cfg", &c, NULL, NULL, &d)!=0 ) failed(&d);
      for(i = 0; i < c.n; i++){
        size_t k;
        if( c.v[i].key==NULL || c.v[i].line==0 ) abort();
        for(k = 0; k < c.v[i].nin; k++) if( c.v[i].in[k] ) abort();    /* no table: only don't-care entries */
        for(k = 0; k < c.v[i].nout; k++) if( c.v[i].out[k] ) abort();
        acc += c.v[i].nin + c.v[i].nout;
      }
      gr_cust_dtypes_free(&c);
    }
  }
  sink += acc;
  gr_diags_free(&d);
  free(text);
  return 0;
}
