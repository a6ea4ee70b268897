/*
** atc_gears.c: ATC's gear flags (--dynamic_batch_size, --dynamic_image_size,
** --dynamic_dims) checked as ATC checks them and turned into per-gear input
** dims, and the shape flags `eval` and `tile` take. Which flags have which
** role, the H/W axes per --input_format, the limits and the messages are
** rule data (rules/atc.rules: atc_flag_roles, atc_flag_defaults, atc_flag_defaults_absent, atc_image_size_axes,
** atc_gear_limits, atc_messages, atc_eval_flags, atc_flag_option_keys);
** what each gear flag means is GE's code (hicann/ge @ffdcbc9f7):
** compiler/api/aclgrph/option_utils.cc CheckAndTransferInputShapeToRange
** (E10040), CheckDynamicInputParamValid (E10009, E10004),
** CheckDynamicBatchSizeInputShapeValid (E10012, E10031, E10003),
** CheckDynamicImagesizeInputShapeValid (E10019, E10003, E10020),
** CheckDynamicDimsInputShapeValid and CheckAndParseDynamicDims (E10001,
** E10058, E10003); compiler/graph/preprocess/multi_batch_options.cc
** CheckDynamicBatchShape (E10018), CheckDynamicImageSizeShape,
** InitDynamicParams / ParseDynamicSize (the profiles), CheckDynamicParams
** (E10035, E10037, E10039), ParserDataToDynamicInfo and CalcShape (which
** dims of which input a profile fills).
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/atc_cmdline.h"
#include "lang/ruleset.h"
#include "model/graph.h"
#include "model/input_dims.h"



static int64_t limit(const gr_atc_cmdline *c, const char *key, int64_t dflt){
  const gr_expr *e = gr_table_value(gr_ruleset_table(c->rs, "atc_gear_limits"), key);
  return e && e->op==GR_E_INT ? e->i : dflt;
}

static int fail_reason(const gr_atc_cmdline *c, gr_atc_error *err, const char *param, const char *value, const char *reason_key){
  char *r = gr_atc_message(c, reason_key, (char *)NULL);
  char *m = gr_atc_message(c, "E10003_reason", "value", value, "parameter", param, "reason", r, (char *)NULL);
  free(r);
  return gr_atc_fail(err, m, "E10003");
}

static int fail_e10001(const gr_atc_cmdline *c, gr_atc_error *err, const char *param, const char *value, const char *reason_key){
  char *r = gr_atc_message(c, reason_key, (char *)NULL);
  char *m = gr_atc_message(c, "E10001", "value", value, "parameter", param, "reason", r, (char *)NULL);
  free(r);
  return gr_atc_fail(err, m, "E10001");
}

static const char *role_value(const gr_atc_cmdline *c, const char *role, const char **flag){
  const char *f = gr_atc_role_flag(c, role), *v = f ? gr_atc_flag_value(c, f) : NULL;
  if( flag ) *flag = f;
  return v && *v ? v : NULL;
}

static const char *const gear_roles[] = { "dynamic_batch_size", "dynamic_image_size", "dynamic_dims" };

/* atc_flag_defaults_absent: this entry point has no default for flag. */
static int default_absent(const gr_atc_cmdline *c, const char *flag){
  const gr_expr *e = gr_table_value(gr_ruleset_table(c->rs, "atc_flag_defaults_absent"), c->ir_build ? "ir-build" : "atc");
  for(e = e && e->op==GR_E_LIST ? e->a : NULL; e; e = e->next) if( e->op==GR_E_STR && strcmp(e->s, flag)==0 ) return 1;
  return 0;
}

int gr_atc_gears_precheck(gr_atc_cmdline *c, const char *shapes, gr_atc_error *err){
  const char *range = role_value(c, "input_shape_range", NULL), *f = NULL, *v;
  size_t i;
  int n = 0;
  c->gear_role = NULL;
  for(i = 0; i < sizeof gear_roles / sizeof *gear_roles; i++)
    if( (v = role_value(c, gear_roles[i], &f))!=NULL ){ n++; c->gear_role = gear_roles[i]; c->gear_flag = f; c->gear_value = v; }
  c->input_format = role_value(c, "input_format", &f);
  if( c->input_format==NULL ){
    const gr_expr *d = f ? gr_table_value(gr_ruleset_table(c->rs, "atc_flag_defaults"), f) : NULL;
    c->input_format = d && d->op==GR_E_STR && !default_absent(c, f) ? d->s : "";
  }
  if( n==0 ){
    if( range ) c->gear_role = NULL;
    return 0;
  }
  /* CheckAndTransferInputShapeToRange, then CheckDynamicInputParamValid */
  if( shapes && strchr(shapes, '~') ) return gr_atc_fail(err, gr_atc_message(c, "E10040", (char *)NULL), "E10040");
  if( n + (range!=NULL) > 1 ) return gr_atc_fail(err, gr_atc_message(c, "E10009", (char *)NULL), "E10009");
  if( shapes==NULL || *shapes==0 )
    return gr_atc_fail(err, gr_atc_message(c, "E10004", "parameter", "input_shape", (char *)NULL), "E10004");
  return 0;
}

static size_t count_neg1(const gr_atc_shape *s){
  size_t i, n = 0;
  for(i = 0; i < s->dims.n; i++) n += s->dims.v[i]==-1;
  return n;
}

/* ParseDynamicSize: profiles split at ';', values at ',', empty parts
** skipped (the values are digits by now). */
static void profiles(gr_atc_cmdline *c, const char *text, int one_per_value){
  const char *p = text;
  gr_atc_gear cur;
  memset(&cur, 0, sizeof cur);
  while( 1 ){
    size_t n = strcspn(p, one_per_value ? "," : ",;");
    if( n ){
      char buf[32];
      size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
      memcpy(buf, p, k); buf[k] = 0;
      gr_vec_push(cur.v, (int64_t)strtoll(buf, NULL, 10));
    }
    p += n;
    if( one_per_value || *p==';' || *p==0 ){
      if( cur.v.n ){ gr_vec_push(c->gears, cur); memset(&cur, 0, sizeof cur); }
    }
    if( *p==0 ) break;
    p++;
  }
  free(cur.v.v);
}

static int chars_ok(const char *v, const char *extra){
  for(; *v; v++) if( !(*v >= '0' && *v <= '9') && strchr(extra, *v)==NULL ) return 0;
  return 1;
}

static int batch(gr_atc_cmdline *c, gr_atc_error *err){
  size_t i, j, size = 0;
  for(i = 0; i < c->shapes.n; i++){
    const gr_atc_shape *s = &c->shapes.v[i];
    if( s->dims.n==0 ) return gr_atc_fail(err, gr_atc_message(c, "E10012", (char *)NULL), "E10012");
    if( count_neg1(s)==0 || s->dims.v[0]!=-1 ) continue;
    for(j = 1; j < s->dims.n; j++){
      if( s->dims.v[j] < 0 ){
        char idx[32], val[32];
        snprintf(idx, sizeof idx, "%zu", j);
        snprintf(val, sizeof val, "%lld", (long long)s->dims.v[j]);
        return gr_atc_fail(err, gr_atc_message(c, "E10018", "index", idx, "shape", val, (char *)NULL), "E10018");
      }
    }
    size++;
  }
  if( size==0 ) return gr_atc_fail(err, gr_atc_message(c, "E10031", (char *)NULL), "E10031");
  if( !chars_ok(c->gear_value, ",") ) return fail_reason(c, err, "dynamic_batch_size", c->gear_value, "E10003_batch");
  profiles(c, c->gear_value, 1);
  return 0;
}

/* The H and W axes of --input_format, or -1 (a format without them). */
static int hw_axes(const gr_atc_cmdline *c, int64_t *h, int64_t *w){
  const gr_expr *e = gr_table_value(gr_ruleset_table(c->rs, "atc_image_size_axes"), c->input_format);
  if( e==NULL || e->op!=GR_E_LIST || e->a==NULL || e->a->next==NULL || e->a->op!=GR_E_INT || e->a->next->op!=GR_E_INT ) return -1;
  *h = e->a->i; *w = e->a->next->i;
  return 0;
}

static int image(gr_atc_cmdline *c, gr_atc_error *err){
  size_t i, size = 0, len;
  int64_t h = 0, w = 0, want = limit(c, "image_size_values", 2);
  char *v;
  const char *p;
  for(i = 0; i < c->shapes.n; i++){
    const gr_atc_shape *s = &c->shapes.v[i];
    size_t neg = count_neg1(s);
    if( s->dims.n!=4 ){
      if( neg ) return gr_atc_fail(err, gr_atc_message(c, "E10019", (char *)NULL), "E10019");
      continue;
    }
    if( neg==0 ) continue;
    if( hw_axes(c, &h, &w) ) return fail_reason(c, err, "input_format", c->input_format, "E10003_image_format");
    if( s->dims.v[h]!=-1 || s->dims.v[w]!=-1 || neg!=2 ) return gr_atc_fail(err, gr_atc_message(c, "E10019", (char *)NULL), "E10019");
    size++;
  }
  if( size==0 ) return gr_atc_fail(err, gr_atc_message(c, "E10019", (char *)NULL), "E10019");
  /* EraseEndSemicolon, then the characters, then 2 values per profile */
  v = gr_xstrdup(c->gear_value);
  len = strlen(v);
  if( len && v[len - 1]==';' ) v[len - 1] = 0;
  if( !chars_ok(v, ", ;") ){ int rc = fail_reason(c, err, "dynamic_image_size", v, "E10003_image"); free(v); return rc; }
  for(p = v; ; ){
    size_t n = strcspn(p, ";"), commas = 0, k;
    for(k = 0; k < n; k++) commas += p[k]==',';
    if( (int64_t)commas + 1!=want ){
      int rc = gr_atc_fail(err, gr_atc_message(c, "E10020", "value", v, (char *)NULL), "E10020");
      free(v);
      return rc;
    }
    if( p[n]==0 ) break;
    p += n + 1;
  }
  profiles(c, v, 0);
  free(v);
  return 0;
}

static int dims(gr_atc_cmdline *c, gr_atc_error *err){
  size_t i, neg = 0, len;
  char *v;
  const char *p, *q;
  for(i = 0; i < c->shapes.n; i++) neg += count_neg1(&c->shapes.v[i]);
  if( neg==0 ) return fail_e10001(c, err, "--input_shape's dynamic dim num", "0", "E10001_dims_none");
  v = gr_xstrdup(c->gear_value);
  len = strlen(v);
  if( len && v[len - 1]==';' ) v[--len] = 0;
  if( len==0 ){ free(v); return gr_atc_fail(err, gr_atc_message(c, "E10058", "parameter", "--dynamic_dims", (char *)NULL), "E10058"); }
  for(p = v; ; ){
    size_t n = strcspn(p, ";"), commas = 0, k;
    for(k = 0; k < n; k++) commas += p[k]==',';
    if( commas + 1!=neg ){ int rc = fail_reason(c, err, "dynamic_dims", v, "E10003_dims"); free(v); return rc; }
    for(q = p; ; ){
      size_t m = 0, j;
      int ok;
      while( q + m < p + n && q[m]!=',' ) m++;
      ok = m > 0;
      for(j = 0; j < m; j++) if( q[j] < '0' || q[j] > '9' ) ok = 0;
      if( !ok ){
        char *dim = gr_xstrndup(q, m);
        int rc = fail_e10001(c, err, "--dynamic_dims", dim, "E10001_dims_digit");
        free(dim); free(v);
        return rc;
      }
      if( q + m >= p + n ) break;
      q += m + 1;
    }
    if( p[n]==0 ) break;
    p += n + 1;
  }
  profiles(c, v, 0);
  free(v);
  return 0;
}

/* CheckDynamicParams: how many profiles, of one size, none twice. */
static int check_profiles(gr_atc_cmdline *c, gr_atc_error *err){
  int64_t min = limit(c, "min_profiles", 2);
  size_t i, j;
  if( (int64_t)c->gears.n < min ){
    char n1[32], n2[32];
    snprintf(n1, sizeof n1, "%zu", c->gears.n);
    snprintf(n2, sizeof n2, "%lld", (long long)min);
    return gr_atc_fail(err, gr_atc_message(c, "E10035", "count", n1, "min", n2, (char *)NULL), "E10035");
  }
  for(i = 0; i < c->gears.n; i++){
    if( c->gears.v[i].v.n!=c->gears.v[0].v.n ){
      char n1[32], n2[32];
      snprintf(n1, sizeof n1, "%zu", c->gears.v[0].v.n);
      snprintf(n2, sizeof n2, "%zu", c->gears.v[i].v.n);
      return gr_atc_fail(err, gr_atc_message(c, "E10037", "n1", n1, "n2", n2, (char *)NULL), "E10037");
    }
    for(j = 0; j < i; j++)
      if( memcmp(c->gears.v[i].v.v, c->gears.v[j].v.v, c->gears.v[i].v.n * sizeof(int64_t))==0 )
        return gr_atc_fail(err, gr_atc_message(c, "E10039", (char *)NULL), "E10039");
  }
  return 0;
}

int gr_atc_gears_parse(gr_atc_cmdline *c, gr_atc_error *err){
  int rc;
  const char *aipp;
  if( c->gear_role==NULL ) return 0;
  if( strcmp(c->gear_role, "dynamic_batch_size")==0 ) rc = batch(c, err);
  else if( strcmp(c->gear_role, "dynamic_image_size")==0 ) rc = image(c, err);
  else rc = dims(c, err);
  if( rc==0 ) rc = check_profiles(c, err);
  /* main_impl.cc:939-945: --dynamic_dims with an AIPP config (--insert_op_conf), E10001 */
  if( rc==0 && strcmp(c->gear_role, "dynamic_dims")==0 && (aipp = role_value(c, "insert_op_conf", NULL))!=NULL )
    rc = fail_e10001(c, err, "--insert_op_conf", aipp, "E10001_dims_aipp");
  return rc;
}

void gr_atc_gear_dims(const gr_atc_cmdline *c, size_t k, size_t item, int64_t *out){
  const gr_atc_shape *s = &c->shapes.v[item];
  const gr_atc_gear *p = &c->gears.v[k];
  size_t i, at = 0, neg = count_neg1(s);
  int64_t h = -1, w = -1;
  memcpy(out, s->dims.v, s->dims.n * sizeof *out);
  if( neg==0 ) return;
  if( strcmp(c->gear_role, "dynamic_batch_size")==0 ){
    if( s->dims.v[0]==-1 ) out[0] = p->v.v[0];
    return;
  }
  if( strcmp(c->gear_role, "dynamic_image_size")==0 ){
    if( s->dims.n==4 && hw_axes(c, &h, &w)==0 ){ out[h] = p->v.v[0]; out[w] = p->v.v[1]; }
    return;
  }
  /* ParserDataToDynamicInfo: a profile as long as this input's -1 dims is
  ** all of it, a longer one is read on from where the inputs before it
  ** stopped; CalcShape fills the -1 dims in order */
  if( p->v.n!=neg ) for(i = 0; i < item; i++) at += count_neg1(&c->shapes.v[i]);
  for(i = 0; i < s->dims.n; i++)
    if( s->dims.v[i]==-1 && at < p->v.n ) out[i] = p->v.v[at++];
}

void gr_atc_gear_apply(const gr_atc_cmdline *c, gr_graph *g, size_t k){
  GR_VEC(uint32_t) changed = { NULL, 0, 0 };
  size_t i;
  for(i = 0; i < c->shapes.n; i++){
    const gr_atc_shape *s = &c->shapes.v[i];
    int64_t *d;
    if( c->shape_nodes[i]==GR_NONE ) continue;      /* a name aclgrphBuildModel ignores */
    d = gr_xmalloc((s->dims.n ? s->dims.n : 1) * sizeof *d);
    gr_atc_gear_dims(c, k, i, d);
    gr_graph_set_node_dims(g, c->shape_nodes[i], d, (uint32_t)s->dims.n);
    gr_vec_push(changed, c->shape_nodes[i]);
    free(d);
  }
  gr_graph_propagate_dims(g, changed.v, changed.n);
  free(changed.v);
}

/* ------------------------------------------------------------------ */
/* the flags eval and tile take */

const char *gr_atc_eval_flag(const gr_ruleset *rs, const char *key){
  const gr_table *set = gr_ruleset_table(rs, "atc_eval_flags"), *keys = gr_ruleset_table(rs, "atc_flag_option_keys");
  const gr_expr *e;
  void *p;
  if( set==NULL ) return NULL;
  if( (p = gr_map_get(&set->keymap, key))!=NULL ) return set->keys[(intptr_t)p - 1];
  if( (e = gr_table_value(keys, key))!=NULL && e->op==GR_E_STR && (p = gr_map_get(&set->keymap, e->s))!=NULL )
    return set->keys[(intptr_t)p - 1];
  return NULL;
}

int gr_atc_take_at(gr_atc_cmdline *c, const char *flag, const char *value, gr_loc at, gr_atc_error *err){
  char *arg = gr_xasprintf("%s=%s", flag, value), *argv[1];
  int i = 0, rc;
  argv[0] = arg;
  rc = gr_atc_flag_arg(c, &i, 1, argv, err);
  free(arg);
  if( rc==0 && c->flags.n ) c->flags.v[c->flags.n - 1].at = at;
  return rc;
}

int gr_atc_take(gr_atc_cmdline *c, const char *flag, const char *value, gr_atc_error *err){
  gr_loc none = { NULL, 0, 0 };
  return gr_atc_take_at(c, flag, value, none, err);
}
