/*
** t0007-dtype-files.c: unit tests of the precision option file readers
** (src/options/dtype_files.h): MODIFY_MIXLIST (the JSON's shape, FE's
** allowed combinations and GE's codes E21001 E21002 E20003, the policy an op
** gets, op types suggested from the op library), KEEP_DTYPE (entries by
** name and by type, E10410, the graph check with E10003 and warnings) and
** CUSTOMIZE_DTYPES (FE's line grammar, don't-care entries, DT_ names, E20101
** and E20003, the first entry of a key winning, lookup by name before type).
** Every expected value cites the source line it follows.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "options/dtype_files.h"
#include "tap.h"

static char tmpdir[256];

static gr_ruleset *rules(void){
  /* a rule set with the dtype tables and a small op library of one family */
  static const char *text =
    "table dtypes \"d\" { \"float32\", \"float16\", \"bfloat16\", \"int8\", \"int32\", \"hifloat8\" }\n"
    "table oplib_dtype_spelling \"s\" { \"DT_FLOAT\": \"float32\", \"DT_FLOAT16\": \"float16\", \"DT_BF16\": \"bfloat16\",\n"
    "  \"DT_INT8\": \"int8\", \"DT_INT32\": \"int32\", \"DT_HIFLOAT8\": \"hifloat8\" }\n"
    "oplib aicore_x \"x\" { engine \"AIcoreEngine\"; kind columns; family \"fam\";\n"
    "  op \"MatMulV2\" white { input \"x1\" required; output \"y\" required; }\n"
    "  op \"LogSigmoid\" black { input \"x\" required; output \"y\" required; }\n"
    "  op \"Exp\" gray { input \"x\" required; output \"y\" required; }\n"
    "}\n";
  char path[400];
  const char *paths[1];
  FILE *f;
  gr_diags d;
  gr_ruleset *rs;
  snprintf(path, sizeof path, "%s/r.rules", tmpdir);
  f = fopen(path, "w");
  if( f==NULL ) exit(99);
  fputs(text, f);
  fclose(f);
  paths[0] = path;
  gr_diags_init(&d);
  rs = gr_ruleset_load(paths, 1, &d);
  if( rs==NULL ){ size_t i; for(i = 0; i < d.n; i++) diag("%u:%u %s", d.v[i].line, d.v[i].col, d.v[i].msg); exit(99); }
  gr_diags_free(&d);
  return rs;
}

/* "line:col CODE message" of the first diagnostic of severity sev */
static const char *first(const gr_diags *d, gr_severity sev){
  static char buf[600];
  size_t i;
  for(i = 0; i < d->n; i++)
    if( d->v[i].sev==sev ){
      snprintf(buf, sizeof buf, "%u:%u %s %s", d->v[i].line, d->v[i].col, d->v[i].ge_code ? d->v[i].ge_code : "-", d->v[i].msg);
      return buf;
    }
  return "(none)";
}

static void test_mixlist(const gr_ruleset *rs){
  gr_mixlist m;
  gr_diags d;
  static const char *good =
    "{\n"
    "  \"black-list\": { \"to-add\": [\"Exp\"], \"to-remove\": [\"LogSigmoid\"] },\n"
    "  \"white-list\": { \"to-remove\": [\"MatMulV2\"], \"to-add\": [\"LogSigmoid\"] },\n"
    "  \"gray-list\": { \"to-add\": [\"MatMulV2\", \"Abs\"] }\n"
    "}\n";
  gr_diags_init(&d);
  ok(gr_mixlist_parse(good, strlen(good), "m.json", &m, rs, "fam", &d)==0, "mixlist: a valid file reads");
  is(m.n, 4, "four op types");
  ok(gr_mixlist_find(&m, "Exp") && gr_mixlist_find(&m, "Exp")->ops==GR_MIX_ADD_BLACK, "Exp: add black");
  is(gr_mixlist_find(&m, "LogSigmoid")->ops, GR_MIX_REMOVE_BLACK | GR_MIX_ADD_WHITE, "LogSigmoid: remove black + add white");
  /* FE-MIX GetPrecisionPolicy :265-294 */
  is(gr_mixlist_policy(&m, "Exp", GR_POLICY_GRAY), GR_POLICY_BLACK, "gray Exp added to black -> black");
  is(gr_mixlist_policy(&m, "LogSigmoid", GR_POLICY_BLACK), GR_POLICY_WHITE, "black LogSigmoid removed from black, added to white -> white");
  is(gr_mixlist_policy(&m, "MatMulV2", GR_POLICY_WHITE), GR_POLICY_GRAY, "white MatMulV2 removed from white (+ add gray) -> gray");
  is(gr_mixlist_policy(&m, "Abs", GR_POLICY_BLACK), GR_POLICY_BLACK, "add gray alone changes nothing (a black op stays black)");
  is(gr_mixlist_policy(&m, "Relu", GR_POLICY_WHITE), GR_POLICY_WHITE, "an op not in the file keeps its policy");
  like(first(&d, GR_SEV_WARNING), "4:41 - op type 'Abs' is in no AI Core op library of this chip", "an op type absent from the library: warning");
  gr_mixlist_free(&m);
  gr_diags_free(&d);

  {
    static const struct { const char *name, *text, *want; } bad[] = {
      /* FE-MIX :46-60 the allowed sets; :233-248 E20003 */
      { "add white and add black", "{\"white-list\": {\"to-add\": [\"Exp\"]},\n \"black-list\": {\"to-add\": [\"Exp\"]}}",
        "1:28 E20003 operation [add black, add white] for op Exp is invalid" },
      { "remove gray alone", "{\"gray-list\": {\"to-remove\": [\"Exp\"]}}", "1:30 E20003 operation [remove gray] for op Exp is invalid" },
      { "add gray and remove gray", "{\"gray-list\": {\"to-remove\": [\"Exp\"], \"to-add\": [\"Exp\"]}}",
        "E20003 operation [add gray, remove gray] for op Exp is invalid" },
      /* :148-173 the shape, :123-130 E21002 */
      { "an unknown list", "{\"grey-list\": {}}", "1:2 E21002 unknown key \"grey-list\"" },
      { "an unknown operation", "{\"gray-list\": {\"add\": []}}", "1:16 E21002 unknown key \"add\" in \"gray-list\"" },
      { "not an array", "{\"gray-list\": {\"to-add\": \"Exp\"}}", "1:26 E21002 the value of \"to-add\" must be an array" },
      { "not a string", "{\"gray-list\": {\"to-add\": [3]}}", "1:27 E21002 an op type must be a non-empty string" },
      { "not JSON", "{\"gray-list\": {\"to-add\": [\"Exp\"]}", "E21002 the file is not in JSON format or its content is invalid" },
      { "empty", "  \n", "0:0 E21002 the file is empty" },
      { "not an object", "[]", "1:1 E21002 the file must be one JSON object" },
    };
    size_t i;
    for(i = 0; i < sizeof bad / sizeof *bad; i++){
      gr_diags_init(&d);
      ok(gr_mixlist_parse(bad[i].text, strlen(bad[i].text), "m.json", &m, rs, "fam", &d)==-1, bad[i].name);
      like(first(&d, GR_SEV_ERROR), bad[i].want, "... its error");
      ok(m.n==0 && m.v==NULL, "... and no entries");
      gr_diags_free(&d);
    }
  }
  gr_diags_init(&d);
  ok(gr_mixlist_read("/nonexistent/m.json", &m, rs, "fam", &d)==-1, "a missing file");
  like(first(&d, GR_SEV_ERROR), "E21001", "... is E21001");
  gr_diags_free(&d);
}

static int keep_match(void *ctx, const gr_keep_entry *e){
  (void)ctx;
  return e->by_type ? strcmp(e->text, "MatMulV2")==0 : strcmp(e->text, "conv1")==0;
}
/* the graph's closest type or name; "conv2" suggests itself (a caller's
** suggester may: the check must not print "did you mean 'conv2'" for conv2) */
static const char *keep_suggest(void *ctx, const gr_keep_entry *e){
  (void)ctx;
  return e->by_type ? "MatMulV2" : strcmp(e->text, "conv2")==0 ? "conv2" : "conv1";
}

static void test_keep(const gr_ruleset *rs){
  gr_keep_dtype k;
  gr_diags d;
  /* GE-KEEP keep_dtype_option.cc:68-123, utils.cc:20-65: trimmed lines, empty skipped, OpType:: prefix */
  static const char *text = "conv1\n\n  OpType::MatMulV2  \r\n# not a comment\nOpType::matmulv2\nconv2\nOpType::\n";
  gr_diags_init(&d);
  ok(gr_keep_dtype_parse(text, strlen(text), "k.cfg", &k, &d)==0, "keep: parses");
  is(k.n, 6, "six entries (the empty line skipped, '#' is a name)");
  ok(!k.v[0].by_type && strcmp(k.v[0].text, "conv1")==0, "a node name");
  ok(k.v[1].by_type && strcmp(k.v[1].text, "MatMulV2")==0 && k.v[1].line==3 && k.v[1].col==11, "a type, trimmed, located at the type");
  ok(!k.v[2].by_type && strcmp(k.v[2].text, "# not a comment")==0, "no comment syntax");
  /* keep_dtype_option.cc:24-29, 46-55: an unmatched OpType:: that is empty or not PascalCase is E10003 */
  is(gr_keep_dtype_check(&k, keep_match, keep_suggest, NULL, &d), 2, "two errors: matmulv2 and the empty type (E10003)");
  like(first(&d, GR_SEV_ERROR), "5:9 E10003 KEEP_DTYPE: op type 'matmulv2' matches no node", "... located");
  is(d.count[GR_SEV_WARNING], 2, "two warnings: '# not a comment' and conv2 match nothing");
  {
    size_t i; int seen = 0;
    for(i = 0; i < d.n; i++) if( strstr(d.v[i].msg, "'matmulv2'") && strstr(d.v[i].msg, "did you mean 'MatMulV2'?") && d.v[i].sev==GR_SEV_ERROR ) seen = 1;
    ok(seen, "matmulv2 is not PascalCase: E10003 with the suggestion");
    seen = 0;
    for(i = 0; i < d.n; i++) if( strstr(d.v[i].msg, "'conv2'") ) seen = strstr(d.v[i].msg, "did you mean") ? 2 : 1;
    is(seen, 1, "conv2: the warning, without a suggestion that is its own name");
    seen = 0;
    for(i = 0; i < d.n; i++) if( strstr(d.v[i].msg, "'# not a comment'") && strstr(d.v[i].msg, "did you mean 'conv1'?") ) seen = 1;
    ok(seen, "a node name: the suggester's name");
  }
  gr_keep_dtype_free(&k);
  gr_diags_free(&d);
  gr_diags_init(&d);
  ok(gr_keep_dtype_read("/nonexistent/k.cfg", &k, &d)==-1, "keep: a missing file");
  like(first(&d, GR_SEV_ERROR), "E10410 File [/nonexistent/k.cfg] does not exist", "... is E10410");
  gr_diags_free(&d);
}

static void test_cust(const gr_ruleset *rs){
  gr_cust_dtypes c;
  gr_diags d;
  const gr_cust_entry *e;
  /* FE-CUST op_cust_dtypes_config_parser.cc ParseFileContent / SplitInoutDtype / FeedOpCustomizeDtype */
  static const char *text =
    "OpType::MatMulV2:InputDtype:float16,float16,OutputDtype:float16\n"
    "conv1::InputDtype:float,,bf16\n"
    "OpType::Exp:OutputDtype:hifloat8\n"
    "OpType::MatMulV2:InputDtype:float,float,OutputDtype:float\n"
    "OpType::Relux:InputDtype:float16\n";
  gr_diags_init(&d);
  ok(gr_cust_dtypes_parse(text, strlen(text), "c.cfg", &c, rs, "fam", &d)==0, "cust: parses");
  is(c.n, 4, "four entries (the second MatMulV2 ignored)");
  e = &c.v[0];
  ok(e->by_type && strcmp(e->key, "MatMulV2")==0, "by type");
  /* Split keeps a last empty entry after the ',' before OutputDtype */
  is(e->nin, 3, "InputDtype:float16,float16, gives three entries (FE's Split)");
  ok(e->in[0] && strcmp(e->in[0], "float16")==0 && e->in[2]==NULL, "float16, float16, don't care");
  ok(e->nout==1 && strcmp(e->out[0], "float16")==0, "one output");
  e = &c.v[1];
  ok(!e->by_type && strcmp(e->key, "conv1")==0, "by name");
  ok(e->nin==3 && strcmp(e->in[0], "float32")==0 && e->in[1]==NULL && strcmp(e->in[2], "bfloat16")==0, "float -> float32, empty = don't care, bf16 -> bfloat16");
  ok(e->nout==0, "no OutputDtype: no outputs");
  ok(c.v[2].nin==0 && c.v[2].nout==1 && strcmp(c.v[2].out[0], "hifloat8")==0, "OutputDtype alone");
  like(first(&d, GR_SEV_WARNING), "4:9 - CUSTOMIZE_DTYPES: 'MatMulV2' is given again (first at line 1)", "a repeated type: warning, the first wins");
  {
    size_t i; int seen = 0;
    for(i = 0; i < d.n; i++) if( strstr(d.v[i].msg, "op type 'Relux' is in no op library of this chip") && d.v[i].line==5 ) seen = 1;
    ok(seen, "an unknown op type: a warning");
  }
  ok(gr_cust_dtypes_find(&c, "conv1", "MatMulV2")==&c.v[1], "by name beats by type");
  ok(gr_cust_dtypes_find(&c, "other", "MatMulV2")==&c.v[0], "else by type");
  ok(gr_cust_dtypes_find(&c, "other", "Add")==NULL, "else none");
  gr_cust_dtypes_free(&c);
  gr_diags_free(&d);
  {
    static const struct { const char *name, *text, *want; } bad[] = {
      { "float32 is no DataType (DT_FLOAT32)", "OpType::Exp:InputDtype:float32\n", "1:24 E20003 CUSTOMIZE_DTYPES: float32 is an invalid dtype" },
      { "an empty line", "OpType::Exp:InputDtype:float\n\nconv1::OutputDtype:float\n", "2:1 E20101 CUSTOMIZE_DTYPES: the content format" },
      { "no ':' after the name", "conv1 InputDtype float\n", "1:1 E20101" },
      { "neither list", "conv1::float16\n", "1:1 E20101 CUSTOMIZE_DTYPES: the content format of the customization file is incorrect: neither" },
      { "OutputDtype first", "conv1::OutputDtype:float,InputDtype:float\n", "1:26 E20003 CUSTOMIZE_DTYPES: InputDtype must be on the left" },
      { "a ':' first", ":InputDtype:float\n", "1:1 E20101" },
    };
    size_t i;
    for(i = 0; i < sizeof bad / sizeof *bad; i++){
      gr_diags_init(&d);
      ok(gr_cust_dtypes_parse(bad[i].text, strlen(bad[i].text), "c.cfg", &c, rs, "fam", &d)==-1, bad[i].name);
      like(first(&d, GR_SEV_ERROR), bad[i].want, "... its error");
      gr_diags_free(&d);
    }
  }
  {
    /* getline into 1024 bytes: a longer line ends the reading */
    char big[3000];
    memset(big, 'x', 1500);
    strcpy(big, "OpType::Exp:InputDtype:float\n");
    memset(big + strlen(big), 'y', 1200);
    strcpy(big + 29 + 1200, "\nOpType::Add:InputDtype:float\n");
    gr_diags_init(&d);
    ok(gr_cust_dtypes_parse(big, strlen(big), "c.cfg", &c, rs, "fam", &d)==0 && c.n==1, "a line of 1024 bytes or more ends the file");
    like(first(&d, GR_SEV_WARNING), "2:1024 - CUSTOMIZE_DTYPES: a line of 1024 bytes or more", "... with a warning");
    gr_cust_dtypes_free(&c);
    gr_diags_free(&d);
  }
  gr_diags_init(&d);
  ok(gr_cust_dtypes_read("/nonexistent/c.cfg", &c, rs, "fam", &d)==-1, "cust: a missing file");
  like(first(&d, GR_SEV_ERROR), "E20101 CUSTOMIZE_DTYPES: the customize file does not exist", "... is E20101");
  gr_diags_free(&d);
}

int main(void){
  char cmd[400];
  gr_ruleset *rs;
  snprintf(tmpdir, sizeof tmpdir, "%s/t0007.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if( mkdtemp(tmpdir)==NULL ){ perror("mkdtemp"); return 99; }
  rs = rules();
  test_mixlist(rs);
  test_keep(rs);
  test_cust(rs);
  gr_ruleset_free(rs);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if( system(cmd)!=0 ) diag("could not remove %s", tmpdir);
  return done_testing();
}
