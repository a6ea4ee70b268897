/*
** t0500-bundle-versions.c: the version arithmetic of src/bundle/version.c.
** CANN releases (RC before the release, builds before the RC, a missing part
** is 0), CANN ranges (in, out, which bound is missed and on which side,
** malformed ones), the "nearest release" order, and semantic versions; plus
** the model attributes the readers keep (where a graph's CANN release comes
** from), for the JSON and the GE text reader.
*/
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "bundle/bundle.h"
#include "model/model.h"
#include "tap.h"

static const char *model_attr(const char *text, const char *key){
  static char buf[64];
  gr_model_opts mo;
  gr_error err;
  gr_graph *g;
  const char *v;
  memset(&mo, 0, sizeof mo);
  memset(&err, 0, sizeof err);
  if( (g = gr_model_load_mem(text, strlen(text), &mo, &err))==NULL ){ diag("load: %s", err.msg); return NULL; }
  v = gr_graph_model_attr(g, key);
  if( v ) snprintf(buf, sizeof buf, "%s", v);
  gr_graph_free(g);
  return v ? buf : NULL;
}

int main(void){
  char bound[64];
  int side = 9;

  ok(gr_cann_valid("8.0.RC2") && gr_cann_valid("9.1") && gr_cann_valid("8.0.RC2.alpha003") && gr_cann_valid("8"), "cann: valid releases");
  ok(!gr_cann_valid("") && !gr_cann_valid("8.") && !gr_cann_valid("8..1") && !gr_cann_valid("RC1") && !gr_cann_valid("8.0 RC1") &&
     !gr_cann_valid(".8"), "cann: malformed releases");
  ok(gr_cann_cmp("8.0.RC1", "8.0.RC2") < 0, "cann: RC1 before RC2");
  ok(gr_cann_cmp("8.0.RC3", "8.0.0") < 0, "cann: a release candidate before the release");
  ok(gr_cann_cmp("8.0.RC2.alpha003", "8.0.RC2") < 0, "cann: a build before its RC");
  ok(gr_cann_cmp("9.1", "9.1.0")==0 && gr_cann_cmp("9.1", "9.1.1") < 0, "cann: a missing part is 0");
  ok(gr_cann_cmp("8.10.0", "8.9.0") > 0, "cann: parts compare as numbers");
  ok(gr_cann_cmp("8.0.rc2", "8.0.RC2")==0, "cann: rc is RC");

  is(gr_cann_in_range("8.1.RC1", ">=8.0.RC2, <=9.1", NULL, NULL), 1, "range: inside");
  is(gr_cann_in_range("8.0.RC2", ">=8.0.RC2", NULL, NULL), 1, "range: on the lower bound");
  is(gr_cann_in_range("9.1.1", ">=8.0.RC2, <=9.1", bound, &side), 0, "range: above");
  ok(strcmp(bound, "9.1")==0 && side==1, "range: the upper bound missed, above it");
  is(gr_cann_in_range("7.0.0", ">=8.0.RC2, <=9.1", bound, &side), 0, "range: below");
  ok(strcmp(bound, "8.0.RC2")==0 && side==-1, "range: the lower bound missed, below it");
  is(gr_cann_in_range("8.0.0", "8.0.0", NULL, NULL), 1, "range: a bare release is equality");
  is(gr_cann_in_range("8.0.0", ">=8.0.0,", NULL, NULL), -1, "range: an empty comparison is malformed");
  is(gr_cann_in_range("8.0.0", "~>8.0", NULL, NULL), -1, "range: an unknown operator is malformed");
  is(gr_cann_in_range("8.0.0", ">=eight", NULL, NULL), -1, "range: a bound that is no release is malformed");
  is(gr_cann_in_range("x", ">=8.0", NULL, NULL), -1, "range: a release that is none is malformed");

  ok(gr_cann_closer("7.0.0", "8.0.RC2", "8.1.RC1") < 0, "nearest: below both bounds, the lower one");
  ok(gr_cann_closer("9.5", "9.1", "8.1") < 0, "nearest: above both bounds, the higher one");
  ok(gr_cann_closer("9.1.5", "9.1", "9.2") < 0, "nearest: between, the one sharing more parts");

  ok(gr_semver_valid("1.2.3") && gr_semver_valid("1.0.0-rc.1+b5") && !gr_semver_valid("1.2") && !gr_semver_valid("01.2.3"), "semver: valid and not");
  ok(gr_semver_cmp("1.0.0-rc.1", "1.0.0") < 0 && gr_semver_cmp("1.10.0", "1.9.9") > 0, "semver: precedence");
  /* issue 30 class 3: a part too large is malformed, never a wrapped value */
  ok(!gr_semver_valid("99999999999999999999999.0.0") && !gr_semver_valid("1.0.18446744073709551617") &&
     gr_semver_valid("999999999999999999.0.0") && !gr_semver_valid("1000000000000000000.0.0"),
     "semver: a part of more than 18 digits is malformed");
  ok(gr_semver_cmp("999999999999999999.0.0", "1.0.0") > 0 && gr_semver_cmp("1.0.999999999999999999", "1.0.999999999999999998") > 0 &&
     gr_semver_cmp("1.0.0-999999999999999999999", "1.0.0-1000") > 0,
     "semver: the largest parts compare exactly (digits, not a converted integer)");
  ok(!gr_cann_valid("8.99999999999999999999") && !gr_cann_valid("8.0.RC99999999999999999999") &&
     gr_cann_valid("8.999999999999999999"),
     "cann: a number or RC number of more than 18 digits is malformed, not a build name");

  is_str(model_attr("{\"attr\": [{\"key\": \"atc_version\", \"value\": {\"s\": \"8.1.RC1\"}}, {\"key\": \"n\", \"value\": {\"i\": 3}}],"
                    " \"graph\": [{\"op\": [{\"name\": \"a\", \"type\": \"Data\"}]}]}", "atc_version"), "8.1.RC1", "json: a model string attribute");
  ok(model_attr("{\"attr\": [{\"key\": \"n\", \"value\": {\"i\": 3}}], \"graph\": [{\"op\": [{\"name\": \"a\"}]}]}", "n")==NULL,
     "json: a model attribute that is no string is not kept");
  is_str(model_attr("graph { op { name: \"a\" type: \"Data\" } }\nattr { key: \"opp_version\" value { s: \"9.0.0\" } }\n", "opp_version"),
         "9.0.0", "ge text: a model string attribute after the graph");
  return done_testing();
}
