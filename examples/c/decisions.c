/*
** decisions.c: an example program over libgerules (gerules.h). It loads the
** rule set once, evaluates one model for a chip with KEY=VALUE options, and
** prints every node's decisions, one node per line:
**
**   NODE<TAB>TYPE<TAB>slot=value (source)<TAB>slot=value (source)...
**
** ("-" for a slot no source decided; " [no effect: why]" after a value the
** rule set says does not take effect), then the diagnostics compiler-style on
** stderr. Exit status: that of the evaluation (0, 1 configuration errors,
** 2 bad input). Build it against an installed gerules:
**
**   cc decisions.c $(pkg-config --cflags --libs gerules) -o decisions
**   ./decisions model.json Ascend910B1 ALLOW_HF32=true
**
** The rule set is $GERULES_RULES when set, else the installed one.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gerules.h>

int main(int argc, char **argv){
  const char *rules_path = getenv("GERULES_RULES");
  gerules_diags *load_diags = NULL;
  gerules_rules *rules;
  gerules_request *req;
  gerules_eval *ev;
  size_t n, s, nslots;
  char *text;
  int i, status;

  if( argc < 3 ){
    fprintf(stderr, "usage: %s MODEL CHIP [KEY=VALUE...]\n", argv[0]);
    return 2;
  }
  rules = gerules_rules_load(rules_path && *rules_path ? &rules_path : NULL, rules_path && *rules_path ? 1 : 0, &load_diags);
  if( rules==NULL ){
    text = gerules_diags_format(load_diags);
    fprintf(stderr, "%sthe rule set has errors\n", text);
    gerules_free(text);
    gerules_diags_free(load_diags);
    return 2;
  }
  gerules_diags_free(load_diags);

  req = gerules_request_new();
  gerules_request_set_model(req, argv[1]);
  gerules_request_set_chip(req, argv[2]);
  for(i = 3; i < argc; i++){
    char *eq = strchr(argv[i], '=');
    if( eq==NULL ){ fprintf(stderr, "%s: expected KEY=VALUE, got '%s'\n", argv[0], argv[i]); return 2; }
    *eq = 0;
    gerules_request_set_option(req, argv[i], eq + 1);
  }

  ev = gerules_evaluate(rules, req);
  status = gerules_eval_status(ev);
  nslots = gerules_rules_slot_count(rules);
  for(n = 0; n < gerules_eval_node_count(ev); n++){
    printf("%s\t%s", gerules_eval_node_name(ev, n), gerules_eval_node_type(ev, n));
    for(s = 0; s < nslots; s++){
      gerules_decision d;
      gerules_eval_decision(ev, n, s, &d);
      printf("\t%s=%s", d.slot, d.value ? d.value : "-");
      if( d.source ) printf(" (%s)", d.source);
      if( !d.effect ) printf(" [no effect: %s]", d.no_effect_reason);
    }
    printf("\n");
  }
  text = gerules_diags_format(gerules_eval_diags(ev));
  fputs(text, stderr);
  gerules_free(text);

  gerules_eval_free(ev);
  gerules_request_free(req);
  gerules_rules_free(rules);
  return status;
}
