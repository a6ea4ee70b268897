/*
** load-rules.h: the shipped rule set for the fuzz targets that read
** input with it (fuzz-ini, fuzz-atc), loaded once from $GERULES_RULES, else
** the source tree's rules/ (GR_SRCDIR, in the replays of make check), else
** ./rules. A rule set that does not load aborts the target with a message:
** a fuzzer without its rules would test nothing.
**
** Ownership: the returned rule set belongs to the caller, who keeps it for
** the life of the process; *path_out (optional) is the path it came from
** (static or environment storage).
*/
#ifndef GR_FUZZ_LOAD_RULES_H
#define GR_FUZZ_LOAD_RULES_H

#include <stdio.h>
#include <stdlib.h>
#include "lang/ruleset.h"

static gr_ruleset *fuzz_load_rules(const char *target, const char **path_out){
  const char *path = getenv("GERULES_RULES");
  gr_ruleset *rs;
  gr_diags diags;
#ifdef GR_SRCDIR
  if( path==NULL || path[0]==0 ) path = GR_SRCDIR "/rules";
#endif
  if( path==NULL || path[0]==0 ) path = "rules";
  gr_diags_init(&diags);
  rs = gr_ruleset_load(&path, 1, &diags);
  gr_diags_free(&diags);
  if( rs==NULL ){
    fprintf(stderr, "%s: cannot load the rule set %s (set GERULES_RULES)\n", target, path);
    abort();
  }
  if( path_out ) *path_out = path;
  return rs;
}

#endif
