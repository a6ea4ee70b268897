/*
** fuzz-ini.c: libFuzzer target for the ini reader (gr_ini_parse in src/options/ini.c)
** with the format the shipped rule set declares for OP_PRECISION_MODE
** (sections ByOpType / ByNodeName, initial ByOpType, entries must be modes).
** The rule set is loaded once in LLVMFuzzerInitialize (load-rules.h:
** $GERULES_RULES, the source tree's, or ./rules). Each input is parsed from memory as one file; every
** kept entry is looked up again through gr_ini_get and its strings and origin
** are read, so that every index the reader stored is dereferenced; the
** diagnostics it produced are formatted. Build: fuzz/build.sh (fuzz/README.md).
** Seeds: fuzz/corpus/ini/.
*/
#include "config.h"
#include "load-rules.h"
#include "options/ini.h"
#include "lang/ruleset.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gr_ruleset *rs;
static const gr_format *fmt;
static const char *opt_name;
static volatile uint64_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv){
  const char *path;
  const gr_option *o;
  (void)argc; (void)argv;
  rs = fuzz_load_rules("fuzz-ini", &path);
  o = gr_ruleset_option_by_spelling(rs, "OP_PRECISION_MODE");
  if( o==NULL || o->format==NULL ){
    fprintf(stderr, "fuzz-ini: the rule set %s has no ini-format OP_PRECISION_MODE option\n", path);
    abort();
  }
  fmt = o->format;
  opt_name = o->name;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  gr_diags diags;
  gr_ini *ini;
  gr_buf b;
  uint64_t acc = 0;
  size_t i;
  int has_nul = size > 0 && memchr(data, 0, size)!=NULL;
  gr_diags_init(&diags);
  ini = gr_ini_parse("fuzz.ini", (const char*)data, size, fmt, rs, opt_name, &diags);
  if( ini==NULL ) abort();                  /* the in-memory parser never fails */
  if( ini->nsections!=fmt->nsections ) abort();
  for(i = 0; i < ini->n; i++){
    const gr_ini_entry *e = &ini->v[i], *again;
    (void)again;
    if( e->section < 0 || (size_t)e->section >= ini->nsections ) abort();
    /* Empty keys/values are skipped, and each kept key is the first of its
    ** section. Known finding: a NUL byte in a line truncates the C strings
    ** (an entry "\0=keep_fp16" is kept with an empty key, "x=keep_fp16\0y"
    ** is accepted as keep_fp16), so these checks only hold without NULs. */
    if( !has_nul ){
      if( e->key[0]==0 || e->value[0]==0 ) abort();
      again = gr_ini_get(ini, e->section, e->key);
      if( again!=e ) abort();
    }
    if( e->line==0 || e->line!=e->origin.line || e->origin.col==0 ) abort();
    acc += strlen(e->key) + strlen(e->value) + strlen(e->origin.file);
  }
  acc += gr_ini_get(ini, -1, "x")==NULL;
  acc += gr_ini_get(ini, (int)ini->nsections, "x")==NULL;
  gr_buf_init(&b);
  for(i = 0; i < diags.n; i++) gr_diag_format(&b, &diags.v[i]);
  acc += b.n;
  gr_buf_free(&b);
  sink = acc;
  gr_ini_free(ini);
  gr_diags_free(&diags);
  return 0;
}
