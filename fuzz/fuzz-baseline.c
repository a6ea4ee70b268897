/*
** fuzz-baseline.c: libFuzzer target for the baseline reader of gerules eval
** --baseline (gr_baseline_parse in src/options/baseline.c): a previous JSON
** report or a suppression file. Each input is parsed from an exact-size
** copy; on failure the error must carry a message; on success every
** suppression must have a code and a reason and a valid expiry date, and
** applying the baseline to a fixed list of diagnostics must keep the
** counts by severity equal to the records (accepting only lowers
** severities; expiry adds GR0401 errors). Build with fuzz/build.sh.
** Seeds: fuzz/corpus/baseline/.
*/
#include "config.h"
#include "options/baseline.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_baseline b;
  gr_error err;
  gr_diags d;
  size_t i, n[3] = { 0, 0, 0 };
  char *text = malloc(size ? size : 1);
  if( text==NULL ) return 0;
  if( size ) memcpy(text, data, size);
  memset(&err, 0, sizeof err);
  if( gr_baseline_parse(&b, "fuzz.json", text, size, &err)!=0 ){
    if( err.msg[0]==0 ) abort();
    sink = err.line + err.col;
    gr_baseline_free(&b);
    free(text);
    return 0;
  }
  for(i = 0; i < b.n; i++){
    if( !b.report && (b.v[i].code==NULL || b.v[i].reason==NULL || !b.v[i].reason[0]) ) abort();
    if( b.v[i].expires && strlen(b.v[i].expires)!=10 ) abort();
  }
  gr_diags_init(&d);
  gr_diag_set(&gr_diags_add(&d, GR_SEV_WARNING, "a.ini", 2, 3, "%s", "a warning")->code, "GE4004");
  gr_diag_set(&gr_diags_add(&d, GR_SEV_ERROR, NULL, 0, 0, "%s", "an error")->code, "GE1002");
  gr_diags_add(&d, GR_SEV_NOTE, NULL, 0, 0, "%s", "a note without a code");
  gr_baseline_apply(&b, &d, "2026-06-15");
  for(i = 0; i < d.n; i++) n[d.v[i].sev]++;
  if( n[0]!=d.count[0] || n[1]!=d.count[1] || n[2]!=d.count[2] ) abort();
  sink = d.n;
  gr_diags_free(&d);
  gr_baseline_free(&b);
  free(text);
  return 0;
}
