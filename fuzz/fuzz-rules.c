/*
** fuzz-rules.c: libFuzzer target for the rule-language front end. Each input
** is parsed from memory with gr_parse_text (lexer + lemon grammar), then
** written to a private temporary file and loaded with gr_ruleset_load, so the
** loader (includes relative to that file), the checker and every diagnostic
** path run exactly as under `gerules check`. Diagnostics are formatted with
** their caret line; a rule set that loads is probed through the lookups and
** evaluated (options, defaults and global rules, no graph) on its first
** exact SoC; every op of its op library is looked up. The text is also
** parsed with the op library's lazy op bodies (parse.c's skip). Build: fuzz/build.sh (fuzz/README.md).
** Run: fuzz/bin/fuzz-rules -max_total_time=180 corpus-dir fuzz/corpus/rules
** Seeds: fuzz/corpus/rules/ (the broken rule files of t/broken and the valid
** fixtures).
*/
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lang/ast.h"
#include "eval/eval.h"
#include "lang/ruleset.h"
#include "lang/oplib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], path[320];
static volatile size_t sink;

static void cleanup(void){
  unlink(path);
  rmdir(dir);
}

static int setup(void){
  const char *t = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/fuzz-rules.XXXXXX", t && *t ? t : "/tmp");
  if( mkdtemp(dir)==NULL ){ perror("mkdtemp"); abort(); }
  snprintf(path, sizeof path, "%s/input.rules", dir);
  atexit(cleanup);
  return 1;
}

static void parse_only(const uint8_t *data, size_t size){
  char *text = malloc(size + 1);
  gr_diags d;
  gr_parse ps;
  if( text==NULL ) return;
  memcpy(text, data, size);
  text[size] = 0;
  gr_diags_init(&d);
  memset(&ps, 0, sizeof ps);
  ps.file = "input.rules";
  ps.diags = &d;
  gr_parse_text(&ps, text, size);
  gr_item_free(ps.head);
  /* again with the op library's lazy op bodies (the driver's byte scan) */
  memset(&ps, 0, sizeof ps);
  ps.file = "input.rules";
  ps.diags = &d;
  ps.lazy_ops = 1;
  gr_parse_text(&ps, text, size);
  gr_item_free(ps.head);
  gr_diags_free(&d);
  free(text);
}

static void probe(const gr_ruleset *rs){
  size_t i, acc = 0;
  int si, k;
  /* every op of the op library, parsed on lookup */
  for(si = 0; si < gr_oplib_nstores(rs); si++){
    const gr_oplib_store *st = gr_oplib_store_at(rs, si);
    for(k = 0; k < gr_oplib_nops(rs, st); k++) acc += gr_oplib_find(rs, st, gr_oplib_type_at(rs, st, k))!=NULL;
  }
  const char *chip = NULL;
  for(i = 0; i < rs->nsocs; i++){
    acc += (size_t)gr_ruleset_find_soc(rs, rs->socs[i].name);
    if( !rs->socs[i].is_pattern && chip==NULL ) chip = rs->socs[i].name;
  }
  for(i = 0; i < rs->noptions; i++){
    acc += gr_ruleset_option_by_spelling(rs, rs->options[i].name)!=NULL;
    if( rs->options[i].key ) acc += gr_ruleset_option_by_spelling(rs, rs->options[i].key)!=NULL;
  }
  if( chip ){
    static const char *modes[] = { "inference", "training" };
    int m;
    for(m = 0; m < 2; m++){
      gr_eval_config cfg;
      gr_result *r;
      memset(&cfg, 0, sizeof cfg);
      cfg.chip = chip;
      cfg.run_mode = modes[m];
      r = gr_eval(rs, &cfg);
      acc += r->diags.n;
      gr_result_free(r);
    }
  }
  sink += acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size){
  static int ready;
  FILE *f;
  gr_diags d;
  gr_ruleset *rs;
  const char *p = path;
  gr_buf b;
  size_t i;
  if( !ready ) ready = setup();
  if( size > (1u << 20) ) return 0;       /* the shipped set is about 100 KB */
  parse_only(data, size);

  f = fopen(path, "wb");
  if( f==NULL ) abort();
  if( size && fwrite(data, 1, size, f)!=size ) abort();
  if( fclose(f)!=0 ) abort();

  gr_diags_init(&d);
  rs = gr_ruleset_load(&p, 1, &d);
  gr_buf_init(&b);
  for(i = 0; i < d.n; i++) gr_diag_format(&b, &d.v[i]);
  sink += b.n;
  gr_buf_free(&b);
  if( rs ){
    if( gr_diags_errors(&d) ) abort();     /* a loaded rule set has no errors */
    probe(rs);
  }else if( gr_diags_errors(&d)==0 ){
    abort();                               /* a refused rule set says why */
  }
  gr_ruleset_free(rs);
  gr_diags_free(&d);
  return 0;
}
