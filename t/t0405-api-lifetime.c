/*
** t0405-api-lifetime.c: an evaluation keeps its rule set alive (issue 30,
** class 4: freeing the rules before an evaluation made from them was a
** use-after-free). Two evaluations are made from one rule set, the rules are
** freed first, and the evaluations are then read (reports, a decision whose
** slot and rule name come from the rule set) and freed one by one; under
** ASan any access to freed rules fails this test. The reports after the
** free must equal those before it.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/gerules.h"
#include "tap.h"

static const char model[] =
  "{\"graph\": [{\"name\": \"g\", \"op\": [{\"name\": \"a\", \"type\": \"Data\"},"
  " {\"name\": \"b\", \"type\": \"Relu\", \"input\": [\"a:0\"]}]}]}";

static gerules_eval *evaluate(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  gerules_request_set_model_buffer(q, model, strlen(model), "m.json");
  gerules_request_set_chip(q, "Ascend910B1");
  ev = gerules_evaluate(rules, q);
  gerules_request_free(q);
  return ev;
}

int main(void){
  const char *rp = getenv("GERULES_RULES");
  gerules_diags *ld = NULL;
  gerules_rules *rules = gerules_rules_load(rp ? &rp : NULL, rp ? 1 : 0, &ld);
  gerules_eval *e1, *e2;
  gerules_decision d;
  char *before, *after, slot[64] = "", rule[256] = "";
  long k;
  size_t n;
  gerules_diags_free(ld);
  if( !ok(rules!=NULL, "the shipped rule set loads") ) return done_testing();
  k = gerules_rules_find_slot(rules, "precision_mode");
  e1 = evaluate(rules);
  e2 = evaluate(rules);
  ok(e1 && e2 && gerules_eval_status(e1)==0 && gerules_eval_status(e2)==0, "two evaluations from one rule set");
  before = gerules_eval_report(e1, "json", &n);
  if( gerules_eval_decision(e1, 1, (size_t)k, &d)==0 ){
    snprintf(slot, sizeof slot, "%s", d.slot ? d.slot : "");
    snprintf(rule, sizeof rule, "%s", d.rule ? d.rule : "");
  }

  gerules_rules_free(rules);          /* before the evaluations: defined, not a use-after-free */
  after = gerules_eval_report(e1, "json", &n);
  ok(before && after && strcmp(before, after)==0, "the report after the rules were freed is the same");
  ok(k >= 0 && gerules_eval_decision(e1, 1, (size_t)k, &d)==0 && d.slot && strcmp(d.slot, slot)==0 &&
     strcmp(d.rule ? d.rule : "", rule)==0, "a decision's slot and rule (strings of the rule set) are still valid");
  gerules_free(after);
  gerules_eval_free(e1);
  after = gerules_eval_report(e2, "text", &n);
  ok(after && strstr(after, "summary:"), "the second evaluation still reads after the first is freed");
  gerules_free(after);
  gerules_eval_free(e2);              /* the last reference: the rule set goes now */
  ok(1, "freed in the order rules, evaluation, evaluation");
  gerules_free(before);
  return done_testing();
}
