/*
** t0400-api-threads.c: the public C API (src/api/gerules.h) from several
** threads. One rule set is loaded once; a set of requests (different models,
** options, an options file, a Lua hook) is first evaluated one after the
** other to get the reference reports (JSON, text, one node's explain chain,
** decisions); then THREADS threads evaluate every request ROUNDS times each,
** all at once against the same rule set, and every report must be identical
** byte for byte. Run under ASan (and TSan in a separate build) this finds
** shared mutable state. Also checks the API's error paths and ownership
** rules on the way (located diagnostics, status 2, NULL arguments).
*/
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/gerules.h"
#include "tap.h"

#define THREADS 4
#define ROUNDS 3
#define NREQ 5

static gerules_rules *rules;
static char path[NREQ][4][1024];      /* model, options file, hook, ini */
static gerules_request *reqs[NREQ];
static char *want[NREQ][3];           /* json, text, explain */
static const char *explain_node[NREQ] = { "layer0/attn/q_proj", "conv0", "layer0/attn/q_proj", "softmax", "conv0" };

static void build(void){
  const char *src = getenv("top_srcdir");
  int i;
  if( src==NULL ) src = ".";
  for(i = 0; i < NREQ; i++) reqs[i] = gerules_request_new();
  snprintf(path[0][0], 1024, "%s/examples/llm_decoder.json", src);
  snprintf(path[0][3], 1024, "%s/examples/op_precision.ini", src);
  gerules_request_set_model(reqs[0], path[0][0]);
  gerules_request_set_chip(reqs[0], "Ascend910B1");
  gerules_request_set_option(reqs[0], "OP_PRECISION_MODE", path[0][3]);
  gerules_request_set_option(reqs[0], "ALLOW_HF32", "true");
  gerules_request_set_option(reqs[0], "TILING_SCHEDULE_OPTIMIZE", "1");

  snprintf(path[1][0], 1024, "%s/examples/convnet.json", src);
  snprintf(path[1][3], 1024, "%s/examples/op_precision_mistakes.ini", src);
  gerules_request_set_model(reqs[1], path[1][0]);
  gerules_request_set_chip(reqs[1], "Ascend310P3");
  gerules_request_set_option(reqs[1], "ge.exec.op_precision_mode", path[1][3]);
  gerules_request_set_option(reqs[1], "PRECISION_MODE", "allow_mix_precision");

  snprintf(path[2][0], 1024, "%s/examples/llm_decoder_dynamic.json", src);
  gerules_request_set_model(reqs[2], path[2][0]);
  gerules_request_set_chip(reqs[2], "Ascend910B1");
  gerules_request_set_run_mode(reqs[2], "training");

  snprintf(path[3][0], 1024, "%s/examples/convnet.json", src);
  snprintf(path[3][2], 1024, "%s/examples/hooks/softmax_high_precision.lua", src);
  gerules_request_set_model(reqs[3], path[3][0]);
  gerules_request_set_chip(reqs[3], "Ascend910B1");
  gerules_request_add_hook(reqs[3], path[3][2]);

  snprintf(path[4][0], 1024, "%s/examples/convnet.json", src);
  snprintf(path[4][3], 1024, "%s/examples/op_precision_convnet.ini", src);
  gerules_request_set_model(reqs[4], path[4][0]);
  gerules_request_set_chip(reqs[4], "Ascend910B1");
  gerules_request_set_option(reqs[4], "OP_PRECISION_MODE", path[4][3]);
  gerules_request_set_provenance(reqs[4], 0);
}

/* The three reports of one evaluation of request i, plus a digest of every
** decision through gerules_eval_decision (appended to the explain text). */
static void reports(int i, char *out[3]){
  gerules_eval *ev = gerules_evaluate(rules, reqs[i]);
  size_t node = 0, n, s;
  char *ex;
  size_t len = 0, cap = 1 << 16;
  char *dig = malloc(cap);
  out[0] = gerules_eval_report(ev, "json", NULL);
  out[1] = gerules_eval_report(ev, "text", NULL);
  if( gerules_eval_find_node(ev, explain_node[i], &node)!=0 ) node = 0;
  ex = gerules_eval_explain(ev, node, i & 1, NULL);
  len = (size_t)snprintf(dig, cap, "%s", ex ? ex : "(none)");
  for(n = 0; n < gerules_eval_node_count(ev); n++){
    for(s = 0; s < gerules_rules_slot_count(rules); s++){
      gerules_decision d;
      if( gerules_eval_decision(ev, n, s, &d)!=0 ) continue;
      if( len + 4096 > cap ){ cap *= 2; dig = realloc(dig, cap); }
      len += (size_t)snprintf(dig + len, cap - len, "%s %s %s %s %s %s\n", d.slot, d.value ? d.value : "-",
                              d.source ? d.source : "-", d.rule ? d.rule : "-", d.reason ? d.reason : "-",
                              d.input ? d.input : "-");
    }
  }
  out[2] = dig;
  gerules_free(ex);
  gerules_eval_free(ev);
}

static int mismatches;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg){
  int t = (int)(size_t)arg, r, k, j;
  for(r = 0; r < ROUNDS; r++){
    for(k = 0; k < NREQ; k++){
      int i = (k + t) % NREQ;             /* threads start on different requests */
      char *got[3];
      reports(i, got);
      for(j = 0; j < 3; j++){
        if( got[j]==NULL || strcmp(got[j], want[i][j])!=0 ){
          pthread_mutex_lock(&mu);
          mismatches++;
          pthread_mutex_unlock(&mu);
        }
        free(got[j]);
      }
    }
  }
  return NULL;
}

static void error_paths(void){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  gerules_diag d;
  gerules_diags *ld = NULL;
  const char *bad = "/nonexistent/gerules-rules";
  static const char model[] = "{\"graph\": [{\"op\": [\n  {\"name\": \"a\", \"type\": 7}]}]}";
  char *txt;

  ok(gerules_evaluate(NULL, q)==NULL && gerules_evaluate(rules, NULL)==NULL, "NULL arguments: no evaluation");
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 2, "no model: status 2");
  ok(gerules_diags_get(gerules_eval_diags(ev), 0, &d)==0 && d.severity==GERULES_ERROR, "no model: an error diagnostic");
  like(d.message, "no model", "no model: says so");
  is(gerules_eval_node_count(ev), 0, "status 2: no decisions");
  ok(gerules_eval_report(ev, "json", NULL)==NULL, "status 2: no report");
  gerules_eval_free(ev);

  gerules_request_set_model_buffer(q, model, sizeof model - 1, "mem.json");
  gerules_request_set_chip(q, "Ascend910B1");
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 2, "a malformed model: status 2");
  ok(gerules_diags_get(gerules_eval_diags(ev), 0, &d)==0, "a malformed model: a diagnostic");
  is_str(d.file, "mem.json", "located in the model's name");
  is(d.line, 2, "at the line of the bad value");
  ok(d.column > 0, "with a column");
  txt = gerules_diags_format(gerules_eval_diags(ev));
  like(txt, "mem.json:2:", "formatted compiler-style");
  gerules_free(txt);
  gerules_eval_free(ev);

  is(gerules_request_set_run_mode(q, "sometimes"), -1, "a bad run mode is refused");
  is(gerules_request_set_option(q, "", "x"), -1, "an empty option key is refused");
  gerules_request_free(q);

  ok(gerules_rules_load(&bad, 1, &ld)==NULL, "a missing rule directory does not load");
  ok(gerules_diags_count_severity(ld, GERULES_ERROR) >= 1, "and says why");
  gerules_diags_free(ld);
}

int main(void){
  const char *rp = getenv("GERULES_RULES");
  gerules_diags *ld = NULL;
  pthread_t th[THREADS];
  int i, j, t;

  rules = gerules_rules_load(rp ? &rp : NULL, rp ? 1 : 0, &ld);
  if( !ok(rules!=NULL, "the shipped rule set loads") ){
    char *s = gerules_diags_format(ld);
    diag("%s", s);
    gerules_free(s);
    return done_testing();
  }
  gerules_diags_free(ld);
  ok(gerules_rules_find_slot(rules, "precision_mode") >= 0, "a precision_mode slot");
  is(gerules_rules_find_slot(rules, "no such slot"), -1, "an unknown slot is -1");
  build();
  for(i = 0; i < NREQ; i++){
    reports(i, want[i]);
    ok(want[i][0] && strstr(want[i][0], "\"summary\""), "reference JSON report");
    ok(want[i][1] && strstr(want[i][1], "summary:"), "reference text report");
  }
  ok(want[3][0] && strstr(want[3][0], "\"precision_source\":\"hook\""), "the hook request has hook decisions");
  ok(want[3][2] && strstr(want[3][2], "precision_mode high_precision hook "), "gerules_eval_decision sees the hook's decision");
  for(t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
  for(t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  is(mismatches, 0, "threads evaluating against one rule set give identical reports");
  error_paths();

  for(i = 0; i < NREQ; i++){
    for(j = 0; j < 3; j++) free(want[i][j]);
    gerules_request_free(reqs[i]);
  }
  gerules_rules_free(rules);
  return done_testing();
}
