/*
** tiling-fixture.h: the rule set the tiling unit tests share
** (t/data/tiling/fixture.rules, which includes rules/tiling_classes.rules),
** loaded once, its tiling rules read and chips looked up by SoC name; any
** failure is a TAP "Bail out!" with the loader's diagnostics.
**
** Ownership: the rule set and tiling rules live until the test exits (the
** tests never free them); a chip is filled into the caller's struct.
** Include after tap.h in exactly one test file each.
*/
#ifndef GR_T_TILING_FIXTURE_H
#define GR_T_TILING_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling.h"

static gr_ruleset *fixture_rs;
static gr_tiling_rules fixture_tr;

static void tiling_fixture_load(void){
  const char *path = GR_SRCDIR "/t/data/tiling/fixture.rules";
  gr_diags d;
  gr_error err;
  gr_diags_init(&d);
  fixture_rs = gr_ruleset_load(&path, 1, &d);
  if( fixture_rs==NULL ){
    size_t i;
    for(i = 0; i < d.n; i++) diag("%s:%u: %s", d.v[i].file ? d.v[i].file : "", d.v[i].line, d.v[i].msg);
    printf("Bail out! cannot load %s\n", path);
    exit(1);
  }
  gr_diags_free(&d);
  memset(&err, 0, sizeof err);
  if( gr_tiling_rules_init(&fixture_tr, fixture_rs, &err) ){ printf("Bail out! %s\n", err.msg); exit(1); }
}

static void tiling_fixture_chip(const char *soc, gr_tchip *out){
  int s = gr_ruleset_find_soc(fixture_rs, soc);
  if( s < 0 ){ printf("Bail out! the fixture has no SoC %s\n", soc); exit(1); }
  gr_tiling_chip(&fixture_tr, s, out);
}

#endif
