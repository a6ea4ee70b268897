/*
** t0403-api-write.c: the functions API version 2 added to gerules.h, which
** the gerules command itself evaluates and reports through: options with the
** caller's own origin (kept after the request is freed), the model from a
** file descriptor, the entry point, hook limits and a streaming hook log, a
** report written to a descriptor or atomically to a file (byte-identical to
** gerules_eval_report / gerules_eval_explain; refusing to replace an input),
** and a diagnostic rendered with its source line. Also API version 4's
** "did you mean" for nodes, slots and any list of names.
*/
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "api/gerules.h"
#include "tap.h"

static char dir[] = "/tmp/gerules-t0403.XXXXXX";
static char model[1024], ini[1024];

static void put(const char *path, const char *text){
  FILE *f = fopen(path, "w");
  if( f ){ fputs(text, f); fclose(f); }
}

/* The whole content of path (malloc'ed), or NULL. */
static char *slurp(const char *path, size_t *len){
  FILE *f = fopen(path, "rb");
  char *p = NULL;
  size_t n = 0, cap = 0, k;
  if( f==NULL ) return NULL;
  do{
    if( n + 4096 + 1 > cap ){ cap = (n + 4096 + 1) * 2; p = realloc(p, cap); }
    k = fread(p + n, 1, 4096, f);
    n += k;
  }while( k > 0 );
  fclose(f);
  p[n] = 0;
  if( len ) *len = n;
  return p;
}

static int lines;
static void count_line(void *ud, const char *line){
  (void)ud;
  if( strstr(line, "hello from the hook") ) lines++;
}

static void origins(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  gerules_decision d;
  char *json;
  long slot = gerules_rules_find_slot(rules, "precision_mode");
  size_t node;
  static const char key[] = "PRECISION_MODE\0junk";
  gerules_request_set_model(q, model);
  gerules_request_set_chip(q, "Ascend910B1");
  ok(gerules_request_add_option_at(q, "PRECISION_MODE", 14, "force_fp32", 10, "site.yaml", 3, 7)==0, "an option with the caller's origin");
  is(gerules_request_add_option_at(q, key, sizeof key - 1, "force_fp16", 10, "site.yaml", 4, 1), -1,
     "a key with a NUL in it is refused, not taken for the name before it");
  is(gerules_request_add_option_at(q, "ALLOW_HF32", 10, "true\0x", 6, NULL, 0, 0), -1, "so is a value with a NUL");
  ev = gerules_evaluate(rules, q);
  gerules_request_free(q);                      /* the evaluation must not borrow from it */
  is(gerules_eval_status(ev), 0, "evaluates");
  json = gerules_eval_report(ev, "json", NULL);
  like(json, "site.yaml:3", "the origin is the provenance of the option");
  ok(strstr(json, "force_fp16")==NULL, "nothing of the refused options reached the evaluation");
  ok(gerules_eval_find_node(ev, "layer0/attn/q_proj", &node)==0 &&
     gerules_eval_decision(ev, node, (size_t)slot, &d)==0, "a decision");
  is_str(d.value, "enable_float_32_execution", "made by the option (force_fp32)");
  gerules_free(json);
  gerules_eval_free(ev);
}

/* (v3) the text report's width: names cut in the middle to a third of it,
** never cut with -1. */
static void text_width(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  char *narrow, *wide;
  gerules_request_set_model(q, model);
  gerules_request_set_chip(q, "Ascend910B1");
  gerules_request_set_option(q, "TILING_SCHEDULE_OPTIMIZE", "1");
  is(gerules_request_set_text_width(q, -2), -1, "a width below -1 is refused");
  ok(gerules_request_set_text_width(q, 60)==0, "a terminal of 60 columns");
  ev = gerules_evaluate(rules, q);
  narrow = gerules_eval_report(ev, "text", NULL);
  gerules_eval_free(ev);
  gerules_request_set_text_width(q, -1);
  ev = gerules_evaluate(rules, q);
  wide = gerules_eval_report(ev, "text", NULL);
  like(narrow, "\nlayer...er_attention  ", "a name cut to 20 columns keeps its start and its tail");
  like(wide, "\nlayer0/attn/fused_infer_attention  ", "and is whole with -1");
  gerules_free(narrow); gerules_free(wide);
  gerules_eval_free(ev);
  gerules_request_free(q);
}

static void writing(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  gerules_diags *wd = NULL;
  gerules_diag d;
  char out[1100], *want, *got, *before, *after;
  size_t wn, gn, node;
  int fd, p[2];
  struct stat st;

  /* the model from a pipe */
  ok(pipe(p)==0, "a pipe");
  {
    size_t n;
    char *m = slurp(model, &n);
    if( fork()==0 ){ close(p[0]); (void)!write(p[1], m, n); _exit(0); }
    close(p[1]);
    free(m);
  }
  gerules_request_set_model_fd(q, p[0], "<pipe>");
  gerules_request_set_chip(q, "Ascend910B1");
  gerules_request_set_option(q, "OP_PRECISION_MODE", ini);
  ok(gerules_request_set_entry(q, "ir-build")==0, "entry ir-build");
  is(gerules_request_set_entry(q, "notebook"), -1, "an unknown entry point is refused");
  gerules_request_set_entry(q, "atc");
  ev = gerules_evaluate(rules, q);
  close(p[0]);
  is(gerules_eval_status(ev), 0, "a model read from a descriptor evaluates");

  /* to a descriptor: the same bytes as the in-memory report */
  snprintf(out, sizeof out, "%s/report.json", dir);
  want = gerules_eval_report(ev, "json", &wn);
  fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ok(gerules_eval_write(ev, "json", 0, -1, fd, &wd)==0 && wd==NULL, "gerules_eval_write to a descriptor");
  close(fd);
  got = slurp(out, &gn);
  ok(got && gn==wn && memcmp(got, want, wn)==0, "byte-identical to gerules_eval_report");
  free(got); gerules_free(want);

  /* atomically to a file, one node's chain */
  ok(gerules_eval_find_node(ev, "layer0/attn/q_proj", &node)==0, "a node to explain");
  snprintf(out, sizeof out, "%s/explain.txt", dir);
  want = gerules_eval_explain(ev, node, 0, &wn);
  ok(gerules_eval_write_file(ev, "text", 0, (long)node, out, &wd)==0, "gerules_eval_write_file, a node's chain");
  got = slurp(out, &gn);
  ok(got && gn==wn && memcmp(got, want, wn)==0, "byte-identical to gerules_eval_explain");
  free(got); gerules_free(want);

  /* SARIF and a quiet text report go through the same writer */
  snprintf(out, sizeof out, "%s/report.sarif", dir);
  ok(gerules_eval_write_file(ev, "sarif", 0, -1, out, NULL)==0, "sarif");
  got = slurp(out, NULL);
  like(got, "\"version\": \"2.1.0\"", "a SARIF 2.1.0 log");
  free(got);

  /* never over an input: the ini the options named, the model */
  before = slurp(ini, NULL);
  ok(gerules_eval_write_file(ev, "json", 0, -1, ini, &wd)==-1, "refuses to replace the ini file it read");
  ok(wd && gerules_diags_get(wd, 0, &d)==0 && d.severity==GERULES_ERROR, "and says why");
  gerules_diags_free(wd); wd = NULL;
  after = slurp(ini, NULL);
  ok(before && after && strcmp(before, after)==0, "the ini file is untouched");
  free(before); free(after);
  ok(gerules_eval_write_file(ev, "json", 0, -1, dir, &wd)==-1, "refuses a directory");
  gerules_diags_free(wd); wd = NULL;
  ok(stat(dir, &st)==0 && S_ISDIR(st.st_mode), "which stays a directory");
  ok(gerules_eval_write(ev, "yaml", 0, -1, 1, &wd)==-1 && gerules_diags_count(wd)==1, "an unknown format is refused");
  gerules_diags_free(wd); wd = NULL;
  ok(gerules_eval_write(ev, "html", 0, (long)node, 1, NULL)==-1, "an explain chain is text or json only");
  ok(gerules_eval_write(ev, "json", 0, 1000000, 1, NULL)==-1, "a node out of range is refused");
  gerules_eval_free(ev);
  gerules_request_free(q);
}

static void hooks(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  gerules_diag d;
  char hook[1100], loop[1100];
  snprintf(hook, sizeof hook, "%s/hello.lua", dir);
  put(hook, "print('hello from the hook')\n");
  snprintf(loop, sizeof loop, "%s/loop.lua", dir);
  put(loop, "local n = 0\nwhile true do n = n + 1 end\n");
  gerules_request_set_model(q, model);
  gerules_request_set_chip(q, "Ascend910B1");
  gerules_request_add_hook(q, hook);
  gerules_request_set_log(q, count_line, NULL);
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 0, "a printing hook");
  is(lines, 1, "its line went to the log function");
  is_str(gerules_eval_log(ev), "", "and not to the kept log");
  gerules_eval_free(ev);

  gerules_request_add_hook(q, loop);
  ok(gerules_request_set_hook_limits(q, 0, 100000, 0)==0, "an instruction limit");
  ok(gerules_request_set_hook_limits(q, 0, 100000, -1)==-1, "a negative timeout is refused");
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 2, "a looping hook hits the instruction limit: status 2");
  ok(gerules_diags_get(gerules_eval_diags(ev), 0, &d)==0, "a diagnostic");
  like(d.message, "instruction", "about the instruction limit");
  gerules_eval_free(ev);
  gerules_request_free(q);
}

static void render(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  char bad[1100], *s;
  snprintf(bad, sizeof bad, "%s/bad.json", dir);
  put(bad, "{\"graph\": [{\"op\": [\n  {\"name\": \"a\", \"type\": 7}]}]}\n");
  gerules_request_set_model(q, bad);
  gerules_request_set_chip(q, "Ascend910B1");
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 2, "a malformed model");
  s = gerules_diag_render(gerules_eval_diags(ev), 0, GERULES_RENDER_SOURCE);
  like(s, "bad.json:2:25: error: ", "rendered compiler-style");
  like(s, "\n   {\"name\": \"a\", \"type\": 7}]}]}\n                         ^\n", "with the source line and the caret");
  gerules_free(s);
  s = gerules_diag_render(gerules_eval_diags(ev), 0, 0);
  ok(s && strchr(s, '^')==NULL, "without the flag, no source line");
  gerules_free(s);
  s = gerules_diag_render(gerules_eval_diags(ev), 0, GERULES_RENDER_SOURCE | GERULES_RENDER_COLOR);
  like(s, "\033[", "colours on request");
  gerules_free(s);
  ok(gerules_diag_render(gerules_eval_diags(ev), 5, 0)==NULL, "out of range: NULL");
  s = gerules_diags_format(gerules_eval_diags(ev));
  like(s, "                         ^\n", "gerules_diags_format shows the source line too");
  gerules_free(s);
  gerules_eval_free(ev);
  gerules_request_free(q);
}

/* (v4) the suggestion of src/base/suggest.c through the API */
static void suggest(gerules_rules *rules){
  gerules_request *q = gerules_request_new();
  gerules_eval *ev;
  static const char *const names[] = { "tiling", "Tiling", "precision_mode", "" };
  static const char *const tie[] = { "abd", "abc" };
  const char *s;
  gerules_request_set_model(q, model);
  gerules_request_set_chip(q, "Ascend910B1");
  ev = gerules_evaluate(rules, q);
  is(gerules_eval_status(ev), 0, "suggest: the example evaluates");
  is_str(gerules_eval_suggest_node(ev, "layer0/attn/q_prj"), "layer0/attn/q_proj", "a node one edit away");
  is_str(gerules_eval_suggest_node(ev, "LAYER0/ATTN/Q_PROJ"), "layer0/attn/q_proj", "case is ignored");
  ok(gerules_eval_suggest_node(ev, "nothing_like_any_node") == NULL, "no node close enough: NULL");
  ok(gerules_eval_suggest_node(ev, NULL) == NULL && gerules_eval_suggest_node(NULL, "x") == NULL, "NULL arguments: NULL");
  is_str(gerules_rules_suggest_slot(rules, "tilling"), "tiling", "a slot one edit away");
  is_str(gerules_rules_suggest_slot(rules, "precison_mode"), "precision_mode", "a slot with a letter missing");
  ok(gerules_rules_suggest_slot(rules, "zzzzzz") == NULL, "no slot close enough: NULL");
  s = gerules_suggest("tilign", names, 4);
  ok(s == names[0], "gerules_suggest returns the pointer it was given (a swap of neighbours is one edit)");
  is_str(gerules_suggest("TILING", names, 4), "Tiling", "among equally close names the one differing least in case");
  is_str(gerules_suggest("abx", tie, 2), "abc", "then the first in byte order, whatever the order offered");
  ok(gerules_suggest("x", NULL, 0) == NULL, "no names: NULL");
  gerules_eval_free(ev);
  gerules_request_free(q);
}

int main(void){
  const char *rp = getenv("GERULES_RULES"), *src = getenv("top_srcdir");
  gerules_diags *ld = NULL;
  gerules_rules *rules;
  if( src==NULL ) src = ".";
  if( mkdtemp(dir)==NULL ){ ok(0, "a temporary directory"); return done_testing(); }
  snprintf(model, sizeof model, "%s/examples/llm_decoder.json", src);
  snprintf(ini, sizeof ini, "%s/op_precision.ini", dir);
  put(ini, "[ByOpType]\nSoftmaxV2=high_precision\n");
  ok(GERULES_API_VERSION >= 3, "API version 3");
  rules = gerules_rules_load(rp ? &rp : NULL, rp ? 1 : 0, &ld);
  gerules_diags_free(ld);
  if( !ok(rules!=NULL, "the shipped rule set loads") ) return done_testing();
  origins(rules);
  text_width(rules);
  writing(rules);
  hooks(rules);
  render(rules);
  suggest(rules);
  gerules_rules_free(rules);
  {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if( system(cmd)!=0 ) diag("could not remove %s", dir);
  }
  return done_testing();
}
