/*
** fuzz-bundle.c: libFuzzer target for the readers of signed bundles
** (src/bundle): the MANIFEST parser, the trust-store parser, the
** MANIFEST.sig parser and verifier, and the anti-rollback state parser. The
** first byte of an input picks the reader (mod 4; 0xff: the version
** comparisons, two versions on two lines, which must be an order: a valid
** version equals itself, swapping the two negates the result, and no part
** too large is ever valid); the rest is its text. A
** manifest that parses is serialised and parsed again, and the two texts must
** be identical (the form signers sign is canonical); signatures are checked
** against a fixed manifest. Every diagnostic is formatted. Built by
** fuzz/build.sh; seeds: fuzz/corpus/bundle/.
*/
#include "config.h"
#include "bundle/bundle.h"
#include "bundle/internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed_manifest[] =
  "gerules-manifest 1\nbundle b\nversion 1.0.0\nexpires 2099-01-01T00:00:00Z\nsigner 0123456789abcdef\n";

int LLVMFuzzerInitialize(int *argc, char ***argv){
  (void)argc; (void)argv;
  if( gr_crypto_init()!=0 ) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_diags d;
  gr_buf b;
  size_t i;
  const char *text = (const char*)data + 1;
  size_t len = size ? size - 1 : 0;
  if( size==0 ) return 0;
  gr_diags_init(&d);
  if( data[0]==0xff ){
    /* versions (issue 30 class 3: a part too large wrapped below 1.0.0) */
    char *a = gr_xstrndup(text, len), *nl = strchr(a, '\n'), *bv = nl ? nl + 1 : (char*)"1.0.0";
    int c1, c2;
    if( nl ) *nl = 0;
    c1 = gr_semver_cmp(a, bv); c2 = gr_semver_cmp(bv, a);
    if( (c1 > 0) - (c1 < 0) != -((c2 > 0) - (c2 < 0)) ) abort();
    if( gr_semver_valid(a) && gr_semver_cmp(a, a)!=0 ) abort();
    if( gr_semver_valid(a) && strspn(a, "0123456789") > 18 ) abort();
    if( gr_cann_valid(a) && gr_cann_valid(bv) ){
      c1 = gr_cann_cmp(a, bv); c2 = gr_cann_cmp(bv, a);
      if( (c1 > 0) - (c1 < 0) != -((c2 > 0) - (c2 < 0)) || gr_cann_cmp(a, a)!=0 ) abort();
    }
    free(a);
    gr_diags_free(&d);
    return 0;
  }
  switch( data[0] % 4 ){
    case 0: {
      gr_manifest m, m2;
      if( gr_manifest_parse(&m, "MANIFEST", text, len, &d)==0 ){
        size_t n1, n2;
        char *t1 = gr_manifest_text(&m, &n1), *t2;
        if( gr_manifest_parse(&m2, "MANIFEST", t1, n1, &d)!=0 ) abort();
        t2 = gr_manifest_text(&m2, &n2);
        if( n1!=n2 || memcmp(t1, t2, n1)!=0 ) abort();
        free(t1); free(t2);
        gr_manifest_free(&m2);
        gr_manifest_free(&m);
      }
      break;
    }
    case 1: {
      gr_trust t;
      gr_trust_init(&t);
      gr_trust_parse(&t, "trust", text, len, &d);
      for(i = 0; i < t.nkeys; i++) if( gr_trust_find(&t, t.keys[i].id)==NULL ) abort();
      for(i = 0; i < t.nrevoked; i++) if( gr_trust_revoked(&t, t.revoked[i].id)==NULL ) abort();
      gr_trust_free(&t);
      break;
    }
    case 2: {
      gr_sigline *s = NULL;
      size_t n = 0;
      gr_signatures_parse("MANIFEST.sig", text, len, fixed_manifest, sizeof fixed_manifest - 1, &s, &n, &d);
      if( n ) abort();            /* nobody can forge a signature of the fixed manifest */
      free(s);
      break;
    }
    default:
      gr_state_parse_check("state", text, len, &d);
  }
  gr_buf_init(&b);
  for(i = 0; i < d.n; i++) gr_diag_format(&b, &d.v[i]);
  gr_buf_free(&b);
  gr_diags_free(&d);
  return 0;
}
