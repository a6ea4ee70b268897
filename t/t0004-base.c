/*
** t0004-base.c: the shared building blocks: the one hash table (gr_idmap)
** under forced tag collisions, growth and reserve; the strpool and string
** map on top of it; and the suggestion distance (transpositions count one
** edit, case is ignored, ties do not depend on the order names come in);
** the line index of a text (caret snippets) and the diagnostics list's cap
** on errors; gr_hash against its plain definition.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/lineidx.h"
#include "base/suggest.h"
#include "base/util.h"
#include "tap.h"

static const uint64_t *keys_of;
static void test_lineidx(void){
  gr_lineidx ix;
  const char *t = "one\r\ntwo\n\nlast";
  size_t len = 0;
  const char *p;
  char *s;
  gr_lineidx_init(&ix, t, strlen(t));
  is(gr_lineidx_count(&ix), 4, "lineidx: four lines, the last without a newline");
  s = gr_lineidx_dup(&ix, 1); is_str(s, "one", "lineidx: line 1 without its \\r\\n"); free(s);
  s = gr_lineidx_dup(&ix, 2); is_str(s, "two", "lineidx: line 2"); free(s);
  p = gr_lineidx_get(&ix, 3, &len); ok(p && len==0, "lineidx: an empty line");
  s = gr_lineidx_dup(&ix, 4); is_str(s, "last", "lineidx: the last line"); free(s);
  ok(gr_lineidx_dup(&ix, 5)==NULL && gr_lineidx_dup(&ix, 0)==NULL, "lineidx: no line 0, none past the end");
  gr_lineidx_free(&ix);
  gr_lineidx_init(&ix, "a\n", 2);
  is(gr_lineidx_count(&ix), 2, "lineidx: a final newline starts an empty last line");
  p = gr_lineidx_get(&ix, 2, &len); ok(p && len==0, "... which is empty");
  gr_lineidx_free(&ix);
  gr_lineidx_init(&ix, NULL, 0);
  ok(gr_lineidx_dup(&ix, 1)==NULL && gr_lineidx_dup(NULL, 1)==NULL, "lineidx: no text, no lines");
  gr_lineidx_free(&ix);
}

static void test_diag_cap(void){
  gr_diags d;
  gr_diag *x;
  int k;
  size_t prev;
  gr_diags_init(&d);
  gr_diags_add(&d, GR_SEV_ERROR, "f", 1, 1, "before");
  prev = gr_diags_cap_errors(&d, 3);
  is(prev, 0, "cap: there was no cap");
  for(k = 0; k < 10; k++){
    x = gr_diags_add(&d, GR_SEV_ERROR, "f", (uint32_t)k + 2, 1, "e%d", k);
    x->snippet = gr_xstrdup("line");           /* a dropped record may still be filled in */
    gr_diags_add(&d, GR_SEV_WARNING, "f", 1, 1, "w%d", k);
  }
  is(d.count[GR_SEV_ERROR], 4, "cap: the error before and 3 more are kept");
  is(d.dropped, 7, "cap: the other 7 are counted as dropped");
  is(d.count[GR_SEV_WARNING], 10, "cap: warnings are not capped");
  is(d.count[GR_SEV_NOTE], 1, "cap: one note says so");
  ok(d.n==15 && d.v[7].sev==GR_SEV_NOTE && d.v[7].file==NULL, "... right after the last error kept");
  like(d.v[7].msg, "too many errors; stopping (only the first 4 are reported)", "... in gcc's words");
  is_str(d.v[5].msg, "e2", "cap: the errors kept are the first ones");
  d.error_cap = prev;
  gr_diags_add(&d, GR_SEV_ERROR, "f", 1, 1, "after");
  is(d.count[GR_SEV_ERROR], 5, "cap: restoring the previous cap keeps errors again");
  gr_diags_free(&d);                              /* frees the spill record too (ASan) */
}

static int key_eq(const void *ctx, uint32_t id){ return keys_of[id]==*(const uint64_t *)ctx; }

/* gr_hash against the plain definition (its tail read with memcpy): the
** same value for every length 0..40 at every alignment, so the tail's
** overlapping loads read exactly the string's bytes. */
static uint64_t ref_mix(uint64_t h){ h ^= h >> 32; h *= 0xd6e8feb86659fd93ULL; h ^= h >> 32; return h; }
static uint64_t ref_hash(const unsigned char *p, size_t n){
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while( n >= 8 ){
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    p += 8; n -= 8;
  }
  if( n ){
    uint64_t t = 0;
    memcpy(&t, p, n);
    h = (h ^ t) * 0x94d049bb133111ebULL;
  }
  return ref_mix(h);
}
static void test_hash(void){
  unsigned char buf[64];
  size_t n, a, i, bad = 0;
  for(i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 151 + 7);
  for(a = 0; a < 8; a++)
    for(n = 0; n <= 40; n++){
      uint64_t h = gr_hash(buf + a, n);
      /* the bytes around the string change: they must not count */
      if( a ) buf[a - 1] ^= 0x5a;
      buf[a + n] ^= 0xa5;
      if( h!=ref_hash(buf + a, n) || gr_hash(buf + a, n)!=h ) bad++;
    }
  ok(bad==0, "gr_hash of 0..40 bytes at 8 alignments is the plain definition, bytes around it ignored");
}

int main(void){
  test_hash();
  enum { N = 100000 };
  uint64_t *keys = malloc(N * sizeof *keys);
  gr_idmap m;
  gr_strpool p;
  gr_map sm;
  size_t i, bad = 0;
  uint32_t id;
  static const char *names[] = { "force_fp16", "force_fp32", "must_keep_origin_dtype", "allow_fp32_to_fp16" };
  static const char *rev[] = { "allow_fp32_to_fp16", "must_keep_origin_dtype", "force_fp32", "force_fp16" };

  /* every key shares its tag with 15 others: finds must compare keys */
  gr_idmap_init(&m);
  keys_of = keys;
  for(i = 0; i < N; i++){
    keys[i] = i * 7919u + 3;
    gr_idmap_add(&m, (uint64_t)(i / 16) << 32, (uint32_t)i);
  }
  for(i = 0; i < N; i++)
    if( gr_idmap_find(&m, (uint64_t)(i / 16) << 32, key_eq, &keys[i]) != (int64_t)i ) bad++;
  is(bad, 0, "idmap: 100000 ids under colliding tags are all found after growing");
  { uint64_t absent = 5; is(gr_idmap_find(&m, 0, key_eq, &absent), -1, "idmap: an absent key is not found"); }
  ok(m.nslots >= 2 * m.n, "idmap: load stays at most 1/2");
  gr_idmap_free(&m);
  gr_idmap_init(&m);
  gr_idmap_reserve(&m, 1000);
  { size_t ns = m.nslots;
    for(i = 0; i < 1000; i++) gr_idmap_add(&m, gr_hash_u64(i), (uint32_t)i);
    is(m.nslots, ns, "idmap: reserve(1000) means adding 1000 never rehashes"); }
  gr_idmap_free(&m);
  gr_idmap_free(&m);                                     /* freeing twice is safe */

  gr_strpool_init(&p);
  for(i = 0; i < 5000; i++){ char b[32]; int n = snprintf(b, sizeof b, "node/%zu", i); gr_strpool_intern(&p, b, (size_t)n); }
  ok(gr_strpool_find(&p, "node/4321", 9, &id) && strcmp(gr_strpool_get(&p, id), "node/4321")==0, "strpool: interned names are found");
  ok(!gr_strpool_find(&p, "node/43210", 10, &id), "strpool: a name that extends an interned one is not found");
  is(gr_strpool_intern(&p, "node/7", 6), gr_strpool_intern(&p, "node/7", 6), "strpool: interning twice gives one id");
  gr_strpool_free(&p);

  gr_map_init(&sm);
  ok(gr_map_put(&sm, "b", (void*)1)==NULL && gr_map_put(&sm, "a", (void*)2)==NULL, "map: new keys insert");
  ok(gr_map_put(&sm, "b", (void*)3)==(void*)1 && gr_map_get(&sm, "b")==(void*)1, "map: a duplicate keeps the first value");
  is_str(sm.e[0].key, "b", "map: entries keep insertion order");
  gr_map_free(&sm);

  is(gr_edit_distance("force_fp23", "force_fp32", 3), 1, "distance: a transposition is one edit");
  is(gr_edit_distance("MATMULV2", "MatMulV2", 3), 0, "distance: case is ignored");
  is(gr_edit_distance("abc", "abcdefgh", 3), 4, "distance: past the cap gives cap+1");
  is_str(gr_suggest("force_fp23", names, 4), "force_fp32", "suggest: force_fp23 -> force_fp32, not force_fp16");
  is_str(gr_suggest("force_fp23", rev, 4), "force_fp32", "suggest: the same whatever the order of names");
  ok(gr_suggest("completely_else", names, 4)==NULL, "suggest: nothing when no name is close");
  { static const char *sec[] = { "ByOpType", "ByNodeName" };
    is_str(gr_suggest("ByNodename", sec, 2), "ByNodeName", "suggest: a case slip finds the section"); }
  free(keys);
  test_lineidx();
  test_diag_cap();
  return done_testing();
}
