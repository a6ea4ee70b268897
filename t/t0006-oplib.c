/*
** t0006-oplib.c: unit tests of the op information library (oplib and
** dtypes statements: check_oplib.c, the accessor API of oplib.h) on small
** rule files written to a temporary directory: a valid set of hand-written
** ops (stores in (engine, priority, name) order, policies, flags, tensors,
** lists and formats, a dtypes block, conditional dtypes blocks, the family
** of a chip, suggestions), a
** big file whose ops are parsed on lookup (also a bad one: absent, with a
** located error), and each checker error with its location and suggestion.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lang/ruleset.h"
#include "lang/oplib.h"
#include "tap.h"

static char tmpdir[256];

static const char *path_of(const char *name){
  static char p[4][512];
  static int k;
  char *s = p[k++ & 3];
  snprintf(s, 512, "%s/%s", tmpdir, name);
  return s;
}

static void write_file(const char *name, const char *text){
  FILE *f = fopen(path_of(name), "w");
  if( f==NULL ){ perror(name); exit(99); }
  fputs(text, f);
  fclose(f);
}

/* the part of every set: dtype names, one product with two SoCs, the family table */
static const char *base_rules =
  "table dtypes \"dtypes\" { \"float32\", \"float16\", \"bfloat16\", \"int32\", \"int64\", \"float64\", \"bool\" }\n"
  "product a2 \"A2\" { soc \"Ascend910B1\" { } soc \"Ascend910B2\" { } }\n"
  "product p910 \"910\" { soc \"Ascend910A\" { } }\n"
  "product p950 \"950\" { soc \"Ascend950\" { } }\n"
  "table oplib_family \"families\" { \"a2\": \"ascend910b\", \"p910\": \"ascend910\" }\n";

static const char *valid_rules =
  "oplib aicore_910b \"AI Core, ascend910b\" {\n"                                     /* 1 */
  "    engine \"AIcoreEngine\";\n"
  "    kind columns;\n"
  "    priority 2;\n"
  "    family \"ascend910b\";\n"                                                      /* 5 */
  "    from \"CANN 8.1.RC1 aic-ascend910b-ops-info.json\" sha256 \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\";\n"
  "    op \"Exp\" gray dynamic_shape dynamic_rank {\n"
  "        input \"x\" required \"float16,float32,bfloat16\" format \"ND,ND,NCHW\";\n"
  "        output \"y\" required \"float16,float32,bfloat16\";\n"
  "    }\n"                                                                           /* 10 */
  "    op \"MatMulV2\" white dynamic_format need_check_support {\n"
  "        input \"x1\" required; input \"x2\" required; input \"bias\" optional;\n"
  "        output \"y\" required;\n"
  "    }\n"
  "    op \"LogSigmoid\" black { input \"x\" required \"float16\"; output \"y\" required \"float16\"; }\n"   /* 15 */
  "    op \"Reshape\" ge_op { input \"x\" required; input \"shape\" required; output \"y\" required; }\n"
  "}\n"
  "oplib aicore_custom \"a custom store\" { engine \"AIcoreEngine\"; kind columns; priority 0; family \"ascend910b\", \"ascend910\";\n"
  "    op \"Exp\" white { input \"x\" required \"float16\"; output \"y\" required \"float16\"; }\n"
  "}\n"                                                                               /* 20 */
  "oplib aicpu_kernel \"AI CPU\" { engine \"DNN_VM_AICPU_ASCEND\"; kind kernel; priority 1;\n"
  "    op \"GatherV2\" { input \"x\" required \"float64,float16\"; input \"indices\" required \"int32,int64\"; input \"axis\" required \"int32\"; output \"y\" required \"float64\"; }\n"
  "}\n"
  "dtypes aicore_910b \"MatMulV2\" from \"impl/dynamic/mat_mul.py:88-147\" {\n"
  "    input \"x1\" \"float16,float16\";\n"                                             /* 25 */
  "    input \"x2\" \"float16,float16\";\n"
  "    input \"bias\" \"float16,float32\";\n"
  "    output \"y\" \"float16,float32\";\n"
  "}\n";

static gr_ruleset *load2(const char *a, const char *b, gr_diags *d){
  const char *paths[1];
  char dir[300];
  snprintf(dir, sizeof dir, "%s/set", tmpdir);
  {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", dir, dir);
    if( system(cmd)!=0 ) exit(99);
  }
  write_file("set/a.rules", a);
  write_file("set/b.rules", b);
  paths[0] = dir;
  return gr_ruleset_load(paths, 1, d);
}

/* the first error's text "file:line:col: message" (file without directory) */
static const char *first_error(const gr_diags *d){
  static char buf[1200];
  size_t i;
  for(i = 0; i < d->n; i++){
    if( d->v[i].sev==GR_SEV_ERROR ){
      const char *f = d->v[i].file ? strrchr(d->v[i].file, '/') : NULL;
      snprintf(buf, sizeof buf, "%s:%u:%u: %s", f ? f + 1 : d->v[i].file ? d->v[i].file : "", d->v[i].line, d->v[i].col, d->v[i].msg);
      return buf;
    }
  }
  return "(no error)";
}

static void test_valid(void){
  gr_diags d;
  gr_ruleset *rs;
  const gr_oplib_store *s910, *scus, *scpu;
  const gr_oplib_op *op;
  gr_diags_init(&d);
  rs = load2(base_rules, valid_rules, &d);
  ok(rs!=NULL, "a valid op library loads");
  if( rs==NULL ){ diag("%s", first_error(&d)); gr_diags_free(&d); return; }
  is(gr_oplib_nstores(rs), 3, "three stores");
  /* (engine, priority, name): AIcoreEngine 0 custom, AIcoreEngine 2 910b, DNN_VM_AICPU_ASCEND */
  is_str(gr_oplib_store_at(rs, 0)->name, "aicore_custom", "store 0 is the custom AI Core store (priority 0)");
  is_str(gr_oplib_store_at(rs, 1)->name, "aicore_910b", "store 1 is the built-in AI Core store (priority 2)");
  is_str(gr_oplib_store_at(rs, 2)->name, "aicpu_kernel", "store 2 is the AI CPU store (engine sorts after)");
  ok(gr_oplib_store_at(rs, 3)==NULL, "no store 3");
  s910 = gr_oplib_store_named(rs, "aicore_910b");
  scus = gr_oplib_store_named(rs, "aicore_custom");
  scpu = gr_oplib_store_named(rs, "aicpu_kernel");
  ok(s910 && scus && scpu, "stores by name");
  if( !(s910 && scus && scpu) ){ gr_ruleset_free(rs); gr_diags_free(&d); return; }
  is_str(s910->engine, "AIcoreEngine", "engine");
  is(s910->kind, GR_OPLIB_COLUMNS, "kind columns");
  is(scpu->kind, GR_OPLIB_KERNEL, "kind kernel");
  is(s910->priority, 2, "priority");
  is(s910->nfamilies, 1, "one family");
  is_str(s910->families[0], "ascend910b", "family");
  is_str(s910->sha256, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "sha256");
  like(s910->from, "aic-ascend910b-ops-info.json", "from");
  is(s910->line, 1, "store line");
  ok(gr_oplib_serves(s910, "ascend910b") && !gr_oplib_serves(s910, "ascend910"), "the 910b store serves ascend910b only");
  ok(gr_oplib_serves(scus, "ascend910") && gr_oplib_serves(scpu, "anything") && !gr_oplib_serves(s910, NULL),
     "two families; no family line serves every chip");

  op = gr_oplib_find(rs, s910, "Exp");
  ok(op!=NULL, "find Exp");
  if( op ){
    is(op->policy, GR_POLICY_GRAY, "Exp is gray");
    is(op->flags, GR_OPF_DYN_SHAPE | GR_OPF_DYN_RANK, "Exp flags");
    is(op->ninputs, 1, "one input"); is(op->noutputs, 1, "one output");
    is_str(op->inputs[0].name, "x", "input name");
    is(op->inputs[0].param, GR_PARAM_REQUIRED, "required");
    is(op->inputs[0].ndtypes, 3, "three columns");
    is_str(op->inputs[0].dtypes[2], "bfloat16", "third column bfloat16");
    ok(op->inputs[0].dtypes[0]==gr_oplib_dtype(rs, "float16"), "dtype names are interned");
    ok(op->inputs[0].formats && strcmp(op->inputs[0].formats[2], "NCHW")==0, "formats");
    ok(op->outputs[0].formats==NULL, "no format list: NULL");
    ok(op->lists_from==NULL, "no dtypes block");
    is(op->line, 7, "op line");
    ok(gr_oplib_find(rs, s910, "Exp")==op, "the second lookup gives the same op");
  }
  op = gr_oplib_find(rs, scus, "Exp");
  ok(op && op->policy==GR_POLICY_WHITE && op->inputs[0].ndtypes==1, "the custom store's own Exp");
  op = gr_oplib_find(rs, s910, "MatMulV2");
  ok(op!=NULL, "find MatMulV2");
  if( op ){
    is(op->policy, GR_POLICY_WHITE, "MatMulV2 is white");
    is(op->flags, GR_OPF_DYN_FORMAT | GR_OPF_NEED_CHECK_SUPPORT, "MatMulV2 flags");
    is(op->ninputs, 3, "three inputs");
    is(op->inputs[2].param, GR_PARAM_OPTIONAL, "bias optional");
    is(op->inputs[2].ndtypes, 2, "lists from the dtypes block");
    is_str(op->outputs[0].dtypes[1], "float32", "output column 2 from the dtypes block");
    is_str(op->lists_from, "impl/dynamic/mat_mul.py:88-147", "lists_from cites the block");
    is(op->line, 24, "the op's line is the dtypes block's");
  }
  op = gr_oplib_find(rs, s910, "LogSigmoid");
  ok(op && op->policy==GR_POLICY_BLACK, "LogSigmoid is black");
  op = gr_oplib_find(rs, s910, "Reshape");
  ok(op && op->flags==GR_OPF_GE_OP && op->inputs[0].ndtypes==0, "Reshape: ge_op, no lists");
  op = gr_oplib_find(rs, scpu, "GatherV2");
  ok(op && op->inputs[1].ndtypes==2 && op->inputs[2].ndtypes==1, "kernel store: each tensor its own list");
  ok(gr_oplib_find(rs, s910, "GatherV2")==NULL, "an op a store lacks: NULL");
  ok(gr_oplib_find(rs, NULL, "Exp")==NULL, "no store: NULL");
  is(gr_oplib_nops(rs, s910), 4, "four ops in the 910b store");
  is_str(gr_oplib_type_at(rs, s910, 1), "MatMulV2", "ops in declaration order");
  is_str(gr_oplib_suggest_type(rs, "ascend910b", "MatMulv2"), "MatMulV2", "suggest an op type");
  is_str(gr_oplib_family(rs, "Ascend910B2"), "ascend910b", "family of Ascend910B2");
  is_str(gr_oplib_family(rs, "Ascend910A"), "ascend910", "family of Ascend910A");
  ok(gr_oplib_family(rs, "Ascend950")==NULL, "a product line without a family: NULL");
  ok(gr_oplib_family(rs, "Ascend999")==NULL, "an unknown chip: NULL");
  ok(gr_oplib_dtype(rs, "float")==NULL, "'float' is no dtype name");
  is(gr_oplib_check_all(rs, &d), 0, "check_all: no error");
  gr_ruleset_free(rs);
  gr_diags_free(&d);
}

/* conditional dtypes blocks: each compiled into its own copy of the op, in
** order, and an unconditional block after them gives the op's own lists */
static void test_when(void){
  gr_diags d;
  gr_ruleset *rs;
  const gr_oplib_store *st;
  const gr_oplib_op *op;
  gr_diags_init(&d);
  rs = load2(base_rules,
    "oplib s \"s\" { engine \"AIcoreEngine\"; kind columns;\n"
    " op \"N\" dynamic_format { input \"x\" required; input \"g\" required; output \"y\" required; }\n"
    " op \"M\" dynamic_format { input \"x\" required; }\n"
    "}\n"
    "dtypes s \"N\" from \"n.py:10-20\" when node.attr[\"axis\"] == 0 and node.input[1].rank + 1 >= 2 {\n"   /* 5 */
    "    input \"x\" \"float16,float32\" format \"ND,ND\"; input \"g\" \"float16,float32\"; output \"y\" \"float16,float32\"; }\n"
    "dtypes s \"N\" from \"n.py:21-30\" when node.input[0].dims[-1] % 16 == 0 {\n"
    "    input \"x\" \"float16\"; input \"g\" \"float32\"; output \"y\" \"float16\"; }\n"
    "dtypes s \"N\" from \"n.py:31-40\" { input \"x\" \"bfloat16\"; input \"g\" \"bfloat16\"; output \"y\" \"bfloat16\"; }\n"
    "dtypes s \"M\" from \"m.py:1\" when node.input[0].rank == 1 { input \"x\" \"int32\"; }\n"   /* 10 */
    "oplib t1 \"t\" { engine \"AIcoreEngine\"; kind columns; op \"P\" dynamic_format { input \"x\" required; } }\n"
    "oplib t2 \"t\" { engine \"AIcoreEngine\"; kind columns; op \"P\" dynamic_format { input \"x\" required; } }\n"
    "dtypes t1, t2 \"P\" from \"p.py:1\" when node.attr[\"mode\"] == \"constant\" { input \"x\" \"int32\"; }\n", &d);
  ok(rs!=NULL, "conditional dtypes blocks load");
  if( rs==NULL ){ diag("%s", first_error(&d)); gr_diags_free(&d); return; }
  is(gr_oplib_check_all(rs, &d), 0, "and check clean");
  st = gr_oplib_store_named(rs, "s");
  op = gr_oplib_find(rs, st, "N");
  ok(op!=NULL, "the op is there");
  if( op ){
    is(op->nwhen, 2, "two conditional blocks, in order");
    is_str(op->lists_from, "n.py:31-40", "the unconditional block gives the op's own lists");
    is_str(op->inputs[0].dtypes[0], "bfloat16", "... bfloat16");
    is(op->line, 9, "... and its line");
    if( op->nwhen==2 ){
      const gr_oplib_op *a = op->when[0].op, *b = op->when[1].op;
      ok(op->when[0].cond && op->when[0].cond->op==GR_E_AND, "the first condition is kept, checked");
      is_str(a->lists_from, "n.py:10-20", "block 1's citation");
      is(a->inputs[0].ndtypes, 2, "block 1's lists");
      is_str(a->inputs[0].formats[1], "ND", "block 1's formats");
      is_str(a->outputs[0].dtypes[1], "float32", "block 1's output");
      is(a->line, 5, "block 1's line");
      is_str(b->inputs[1].dtypes[0], "float32", "block 2's lists");
      is(b->nwhen, 0, "a block's op has no blocks of its own");
      is_str(a->type, "N", "same type");
      ok(a->flags==op->flags && a->ninputs==2 && a->noutputs==1, "same flags and tensors");
    }
  }
  op = gr_oplib_find(rs, st, "M");
  ok(op && op->nwhen==1 && op->inputs[0].ndtypes==0 && op->lists_from==NULL,
     "an op with only a conditional block has no lists of its own");
  {
    /* one block for several stores: each gets it */
    const gr_oplib_op *o1 = gr_oplib_find(rs, gr_oplib_store_named(rs, "t1"), "P");
    const gr_oplib_op *o2 = gr_oplib_find(rs, gr_oplib_store_named(rs, "t2"), "P");
    ok(o1 && o2 && o1->nwhen==1 && o2->nwhen==1, "a block for two stores binds to both");
    ok(o1 && o2 && o1->nwhen==1 && o2->nwhen==1 && o1->when[0].cond==o2->when[0].cond
       && strcmp(o2->when[0].op->inputs[0].dtypes[0], "int32")==0, "... with one condition and the same lists");
  }
  gr_ruleset_free(rs);
  gr_diags_free(&d);
}

/* a file big enough to be loaded lazily: many ops, one of them bad */
static void test_lazy(void){
  gr_buf b;
  gr_diags d;
  gr_ruleset *rs;
  const gr_oplib_store *st;
  const gr_oplib_op *op;
  int i, bad_line = 0, line = 3;
  gr_buf_init(&b);
  gr_buf_adds(&b, "# generated\n"
                  "oplib big \"big\" { engine \"AIcoreEngine\"; kind columns;\n");
  for(i = 0; i < 1200; i++){
    if( i==777 ){
      gr_buf_adds(&b, "    op \"Op777\" gray {\n        input \"x\" required \"float16,flaot32\";\n        output \"y\" required \"float16,float32\";\n    }\n");
      bad_line = line + 1;
    }else{
      gr_buf_printf(&b, "    op \"Op%d\" gray dynamic_shape {\n        input \"x\" required \"float16,float32\" format \"ND,ND\";\n"
                        "        output \"y\" required \"float16,float32\";\n    }\n", i);
    }
    line += 4;
  }
  gr_buf_adds(&b, "}\n");
  ok(b.n >= GR_OPLIB_LAZY_BYTES, "the file is big enough for lazy loading");
  gr_diags_init(&d);
  rs = load2(base_rules, gr_buf_cstr(&b), &d);
  ok(rs!=NULL, "a big file with a bad op still loads (its ops are only indexed)");
  if( rs==NULL ){ diag("%s", first_error(&d)); gr_buf_free(&b); gr_diags_free(&d); return; }
  st = gr_oplib_store_named(rs, "big");
  is(gr_oplib_nops(rs, st), 1200, "every op indexed");
  ok(gr_oplib_diags(rs)==NULL, "no lazy error yet");
  op = gr_oplib_find(rs, st, "Op1199");
  ok(op && op->inputs[0].ndtypes==2 && strcmp(op->inputs[0].formats[1], "ND")==0 && op->flags==GR_OPF_DYN_SHAPE,
     "an op parsed on lookup");
  ok(op && op->line==3 + 4 * 1199, "its line is right");
  ok(gr_oplib_find(rs, st, "Op777")==NULL, "the bad op is absent");
  ok(gr_oplib_diags(rs)!=NULL, "its error is kept");
  if( gr_oplib_diags(rs) ){
    char want[300];
    snprintf(want, sizeof want, "b.rules:%d:37: unknown dtype 'flaot32'", bad_line);
    like(first_error(gr_oplib_diags(rs)), want, "located at the bad name");
    like(first_error(gr_oplib_diags(rs)), "did you mean 'float32'?", "with a suggestion");
    ok(gr_oplib_diags(rs)->v[0].snippet && strstr(gr_oplib_diags(rs)->v[0].snippet, "flaot32"), "and its source line");
  }
  {
    gr_diags d2;
    gr_diags_init(&d2);
    is(gr_oplib_check_all(rs, &d2), 1, "check_all reports the bad op once");
    gr_diags_free(&d2);
  }
  gr_ruleset_free(rs);
  gr_diags_free(&d);
  gr_buf_free(&b);
}

/* each checker error: the rules, the error expected (file:line:col: text) */
static const struct { const char *name, *rules, *want; } errors[] = {
  { "unknown dtype, with a suggestion",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" required \"float16, flaot32\"; output \"y\" required \"float16,float32\"; } }\n",
    "b.rules:2:40: unknown dtype 'flaot32' (the dtypes are the keys of table dtypes); did you mean 'float32'?" },
  { "duplicate op in one store",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { }\n op \"A\" { } }\n",
    "b.rules:3:5: op \"A\" is declared twice in store 's' (first at " },
  { "unequal column counts",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" required \"float16,float32\";\n output \"y\" required \"float16\"; } }\n",
    "b.rules:3:22: output \"y\" lists 1 dtypes, but input \"x\" lists 2" },
  { "a tensor without a list among tensors with lists",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" required \"float16\";\n output \"y\" required; } }\n",
    "b.rules:3:2: output \"y\" has no dtype list while other tensors" },
  { "formats and dtypes of unequal length",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" required \"float16\" format \"ND,ND\"; } }\n",
    "b.rules:2:47: input \"x\" lists 2 formats for 1 dtypes" },
  { "dtypes block for an unknown store",
    "oplib store1 \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes stor1 \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:8: dtypes for an unknown op store 'stor1'; did you mean 'store1'?" },
  { "dtypes block for an unknown op",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"MatMulV2\" { input \"x\" required; } }\n"
    "dtypes s \"MatMulV3\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:10: store 's' has no op \"MatMulV3\"; did you mean \"MatMulV2\"?" },
  { "dtypes block for an op that has lists",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required \"float16\"; } }\n"
    "dtypes s \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:10: op \"A\" of store 's' already has dtype lists" },
  { "dtypes block naming an unknown tensor",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"bias\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" { input \"bais\" \"float16\"; }\n",
    "b.rules:2:36: op \"A\" has no input \"bais\"; did you mean 'bias'?" },
  { "dtypes block missing a tensor",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; output \"y\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:10: the dtypes block of op \"A\" gives no list for output \"y\"" },
  { "a conditional dtypes block after an unconditional one: never used",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n"
    "dtypes s \"A\" from \"x.py:2\" when node.attr[\"k\"] == 0 { input \"x\" \"float32\"; }\n",
    "b.rules:3:33: this conditional dtypes block is never used: the dtypes block of op \"A\" of store 's' at " },
  { "two unconditional dtypes blocks: a condition is suggested",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n"
    "dtypes s \"A\" from \"x.py:2\" { input \"x\" \"float32\"; }\n",
    "b.rules:3:10: op \"A\" of store 's' already has a dtypes block (" },
  { "a dtypes condition that is not a boolean",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" when node.input[0].rank { input \"x\" \"float16\"; }\n",
    "b.rules:2:33: the condition of a dtypes block must be a bool, not an int" },
  { "a dtypes condition reading the judge",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" when node.judge_dtype == \"float16\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:38: a dtypes block's condition is tested while the judge decides: it cannot read 'judge_dtype'" },
  { "a dtypes condition with a misspelt input field",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" when node.input[0].rnak == 2 { input \"x\" \"float16\"; }\n",
    "b.rules:2:47: an input has no field 'rnak' (connected, producer, index, attr, rank, dims)" },
  { "a conditional dtypes block for an op that has lists",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required \"float16\"; } }\n"
    "dtypes s \"A\" from \"x.py:1\" when node.input[0].rank == 2 { input \"x\" \"float16\"; }\n",
    "b.rules:2:10: op \"A\" of store 's' already has dtype lists" },
  { "'%' by 0 in a dtypes condition",
    "oplib s \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s \"A\" from \"x.py:1\" when node.input[0].rank % 0 == 1 { input \"x\" \"float16\"; }\n",
    "b.rules:2:54: '%' by 0 (its value would always be null)" },
  { "a dtypes block for several stores, one of them unknown: located at its name",
    "oplib s1 \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "oplib s2 \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s1, s3 \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:3:12: dtypes for an unknown op store 's3'; did you mean 's1'?" },
  { "a dtypes block naming a store twice",
    "oplib s1 \"s\" { engine \"E\"; kind columns; op \"A\" { input \"x\" required; } }\n"
    "dtypes s1, s1 \"A\" from \"x.py:1\" { input \"x\" \"float16\"; }\n",
    "b.rules:2:12: store 's1' is named twice in this dtypes block" },
  { "unknown flag, with a suggestion",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" gray dynamic_shap { } }\n",
    "b.rules:2:14: unknown op word 'dynamic_shap'" },
  { "a flag twice",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" heavy heavy { } }\n",
    "b.rules:2:15: flag 'heavy' is given twice" },
  { "two policies",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" white black { } }\n",
    "b.rules:2:15: op \"A\" has two policy words" },
  { "unknown parameter kind",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" optinal; } }\n",
    "b.rules:2:21: unknown parameter kind 'optinal' (required, optional or dynamic); did you mean 'optional'?" },
  { "unknown store kind",
    "oplib s \"s\" { engine \"E\";\n kind kernal; }\n",
    "b.rules:2:7: unknown store kind 'kernal' (columns or kernel); did you mean 'kernel'?" },
  { "no engine",
    "oplib s \"s\" { kind columns; }\n",
    "b.rules:1:7: oplib 's' needs an engine line" },
  { "a bad sha256",
    "oplib s \"s\" { engine \"E\"; kind columns;\n from \"f.json\" sha256 \"ABCD\"; }\n",
    "b.rules:2:23: 'ABCD' is not a SHA-256" },
  { "an item that does not belong",
    "oplib s \"s\" { engine \"E\"; kind columns;\n description \"x\"; }\n",
    "b.rules:2:2: an oplib block holds engine, kind, priority, family, from and op lines only" },
  { "two stores of one name",
    "oplib s \"s\" { engine \"E\"; kind columns; }\noplib s \"t\" { engine \"E\"; kind columns; }\n",
    "b.rules:2:7: duplicate definition of oplib 's'" },
  { "a syntax error in an op",
    "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" { input \"x\" required \"float16\" } }\n",
    "b.rules:2:40: syntax error near '}'" },
};

static void test_errors(void){
  size_t i;
  for(i = 0; i < sizeof errors / sizeof *errors; i++){
    gr_diags d;
    gr_ruleset *rs;
    gr_diags_init(&d);
    rs = load2(base_rules, errors[i].rules, &d);
    if( rs && gr_oplib_check_all(rs, &d)==0 ){
      ok(0, errors[i].name);
      diag("no error");
    }else{
      like(first_error(&d), errors[i].want, errors[i].name);
    }
    gr_ruleset_free(rs);
    gr_diags_free(&d);
  }
  {
    /* the same error in a lazily loaded file is found by check_all */
    gr_buf b;
    gr_diags d;
    gr_ruleset *rs;
    int k;
    gr_buf_init(&b);
    gr_buf_adds(&b, "oplib s \"s\" { engine \"E\"; kind columns;\n op \"A\" gray dynamic_shap { }\n");
    for(k = 0; k < 3000; k++) gr_buf_printf(&b, " op \"Pad%d\" { input \"x\" required \"float16\"; }\n", k);
    gr_buf_adds(&b, "}\n");
    gr_diags_init(&d);
    rs = load2(base_rules, gr_buf_cstr(&b), &d);
    ok(rs!=NULL, "big file: loads");
    is(rs ? gr_oplib_check_all(rs, &d) : -1, 1, "big file: check_all finds the bad op");
    like(first_error(&d), "b.rules:2:14: unknown op word 'dynamic_shap'", "big file: same location");
    gr_ruleset_free(rs);
    gr_diags_free(&d);
    gr_buf_free(&b);
  }
  {
    /* a big file whose op block is not its last statement: the block is taken
    ** to end at the file's last '}', and indexing the store says where it went wrong */
    gr_buf b;
    gr_diags d;
    gr_ruleset *rs;
    int k;
    gr_buf_init(&b);
    gr_buf_adds(&b, "oplib s \"s\" { engine \"E\"; kind columns;\n");
    for(k = 0; k < 3000; k++) gr_buf_printf(&b, " op \"Pad%d\" { input \"x\" required \"float16\"; }\n", k);
    gr_buf_adds(&b, "}\ntable late \"a table after the op library\" { \"x\" }\n");
    gr_diags_init(&d);
    rs = load2(base_rules, gr_buf_cstr(&b), &d);
    ok(rs!=NULL, "a big file with a statement after its op block: loads");
    is(rs ? gr_oplib_check_all(rs, &d) : -1, 1, "... check_all reports it");
    like(first_error(&d), "b.rules:3002:1: after the first op of a big op library file", "... located at the block's end");
    gr_ruleset_free(rs);
    gr_diags_free(&d);
    gr_buf_free(&b);
  }
}

int main(void){
  char cmd[600];
  snprintf(tmpdir, sizeof tmpdir, "%s/t0006.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if( mkdtemp(tmpdir)==NULL ){ perror("mkdtemp"); return 99; }
  test_valid();
  test_lazy();
  test_when();
  test_errors();
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if( system(cmd)!=0 ) diag("could not remove %s", tmpdir);
  return done_testing();
}
