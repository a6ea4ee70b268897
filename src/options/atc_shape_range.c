/*
** atc_shape_range.c: shape ranges, as GE reads them from --input_shape_range
** (input_shape_range of aclgrphBuildModel) and from a dynamic --input_shape
** given without gear flags, and as it sets them on the input ops.
**
** The syntax is GE's code (hicann/ge @ffdcbc9f7 compiler/api/aclgrph/
** option_utils.cc): CheckAndTransferInputShapeToRange (:737-782) turns a
** dynamic --input_shape ('~' or "-1", no gear flag) into a range, by index
** (ParserShapeRangeByIndex :677-693) or by name (ParserShapeRangeByName
** :695-735; CheckInputShapeValueValid :646-660, E10002), and drops
** --input_shape; an --input_shape_range given drops --input_shape too.
** ParseInputShapeRange parses the name form "name:[a~b,c,...];..." (:543-579,
** ParseSingleShapeRange :495-536) and the index form "[a~b,c],[...]"
** (:586-648); ParseShapeRangePair and StringToLongNoThrow (:215-269) read
** one dim (E10048 for every refusal). On the graph, TensorUtils::
** CheckShapeByShapeRange (graph_metadef/graph/utils/tensor_utils.cc:356-428:
** E10049, E10048, E10050) checks the op's shape against its range, and
** UpdateDataOpShapeRange (option_utils.cc:1490-1592) sets the shape: a dim
** whose bounds differ becomes -1.
**
** What differs by entry point is rule data (rules/atc.rules, section "shape
** ranges"): which forms an entry parses (atc_shape_range_forms), the
** frameworks whose models skip ATC's graph checks, the lower bound of a
** negative single dim and the messages. ATC (api/atc/omg.cc:850-884) checks
** a named range's inputs exist and are input ops (CheckInputShapeRangeNode,
** E10016, E10017); aclgrphBuildModel (compiler/api/aclgrph/ge_ir_build.cc:
** 647-755) ignores names it does not find and requires the index attribute
** of every input op for the by-index form (CheckDataOpAttrIndexValid, E13025).
**
** Every refusal is a gr_atc_error in GE's words; nothing is printed.
*/
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/atc_cmdline.h"
#include "lang/ruleset.h"
#include "model/graph.h"
#include "model/input_dims.h"

#define M gr_atc_message

/* Sets err (taking m), located where the range's flag was written: -1. */
static int fail(const gr_atc_cmdline *c, gr_atc_error *err, char *m, const char *code){
  gr_atc_error_free(err);
  err->msg = m;
  err->code = code;
  err->loc = gr_atc_flag_loc(c, c->range_flag);
  return -1;
}

/* E10048 with reason and sample keys of atc_messages. */
static int e10048(const gr_atc_cmdline *c, gr_atc_error *err, const char *value, const char *reason_key, const char *sample_key){
  char *r = M(c, reason_key, (char *)NULL), *s = M(c, sample_key, (char *)NULL);
  char *m = M(c, "E10048", "shape_range", value, "reason", r, "sample", s, (char *)NULL);
  free(r); free(s);
  return fail(c, err, m, "E10048");
}

static int e10002(const gr_atc_cmdline *c, gr_atc_error *err, const char *shape, const char *reason_key){
  char *r = M(c, reason_key, (char *)NULL), *s = M(c, "E10002_sample_range", (char *)NULL);
  char *m = M(c, "E10002", "shape", shape, "reason", r, "sample", s, (char *)NULL);
  free(r); free(s);
  return fail(c, err, m, "E10002");
}


static char *dup(gr_atc_span s){ return gr_xstrndup(s.p, s.n); }

/* StringToLongNoThrow: the field, trimmed, read whole as a long. */
static int to_long(gr_atc_span s, int64_t *out){
  char buf[64], *end;
  size_t a = 0, b = s.n, k;
  long long v;
  while( a < b && isspace((unsigned char)s.p[a]) ) a++;
  while( b > a && isspace((unsigned char)s.p[b - 1]) ) b--;
  if( b - a==0 || b - a >= sizeof buf ) return -1;
  memcpy(buf, s.p + a, b - a); buf[b - a] = 0;
  k = buf[0]=='+' || buf[0]=='-';
  if( !isdigit((unsigned char)buf[k]) ) return -1;
  errno = 0;
  v = strtoll(buf, &end, 10);
  if( errno || *end ) return -1;
  *out = v;
  return 0;
}

static int64_t lower_limit(const gr_atc_cmdline *c){
  const gr_expr *e = gr_table_value(gr_ruleset_table(c->rs, "atc_shape_range_limits"), "lower_limit");
  return e && e->op==GR_E_INT ? e->i : 0;
}

/* ParseShapeRangePair: one dim, "a", "-a" or "a~b"; whole is the range for
** messages. */
static int pair(const gr_atc_cmdline *c, const char *whole, gr_atc_span dim, gr_atc_dim_range *out, gr_atc_error *err){
  gr_atc_spans parts = { NULL, 0, 0 };
  int64_t lo = 0, hi = 0;
  int rc = 0;
  gr_atc_split(dim.p, dim.n, '~', &parts);
  if( parts.n==1 || parts.n==2 ){
    size_t k;
    for(k = 0; k < parts.n && rc==0; k++){
      if( to_long(parts.v[k], k ? &hi : &lo) ){
        char *t = dup(parts.v[k]);
        rc = e10048(c, err, t, "E10048_convert", "E10048_sample5");
        free(t);
      }
    }
    if( rc==0 && parts.n==1 ){ hi = lo; if( lo < 0 ) lo = lower_limit(c); }
    else if( rc==0 && (lo < 0 || hi < 0) ) rc = e10048(c, err, whole, "E10048_invalid", "E10048_sample3");
  }else{
    rc = e10048(c, err, whole, "E10048_invalid", "E10048_sample3");
  }
  free(parts.v);
  out->lo = lo; out->hi = hi;
  return rc;
}

static void range_free(gr_atc_range *r){ free(r->name); free(r->dims.v); memset(r, 0, sizeof *r); }

/* The dims of one input ("1~20,3,-1"), split at ','; an empty field is a
** scalar's [0, 0] in the index form and an error in the name form. */
static int dims(const gr_atc_cmdline *c, const char *whole, gr_atc_span s, int empty_is_scalar, gr_atc_range *r, gr_atc_error *err){
  gr_atc_spans f = { NULL, 0, 0 };
  size_t k;
  int rc = 0;
  gr_atc_split(s.p, s.n, ',', &f);
  for(k = 0; k < f.n && rc==0; k++){
    gr_atc_dim_range d;
    if( f.v[k].n==0 && empty_is_scalar ){ d.lo = d.hi = 0; gr_vec_push(r->dims, d); continue; }
    if( (rc = pair(c, whole, f.v[k], &d, err))==0 ) gr_vec_push(r->dims, d);
  }
  free(f.v);
  return rc;
}

/* ParseInputShapeRange, the name form: items at ';', each split at its last
** ':', the value one pair of brackets around the dims. A name given twice
** keeps its first range (std::map::emplace). */
static int parse_named(gr_atc_cmdline *c, const char *text, gr_atc_error *err){
  gr_atc_spans items = { NULL, 0, 0 };
  gr_map seen;
  size_t i;
  int rc = 0;
  gr_map_init(&seen);
  gr_atc_split(text, strlen(text), ';', &items);
  for(i = 0; i < items.n && rc==0; i++){
    gr_atc_span it = items.v[i], v;
    size_t colon = it.n, k, nb = 0;
    char br[2] = { 0, 0 };
    gr_atc_range r;
    char *value, *name;
    for(k = it.n; k > 0; k--) if( it.p[k - 1]==':' ){ colon = k - 1; break; }
    if( colon==it.n ){ rc = e10048(c, err, text, "E10048_split", "E10048_sample1"); break; }
    v.p = it.p + colon + 1; v.n = it.n - colon - 1;
    if( v.n==0 ){ rc = e10048(c, err, text, "E10048_empty", "E10048_sample1"); break; }
    for(k = 0; k < v.n; k++) if( v.p[k]=='[' || v.p[k]==']' ){ if( nb < 2 ) br[nb] = v.p[k]; nb++; }
    if( nb!=2 || br[0]!='[' || br[1]!=']' ){
      value = dup(v);
      rc = e10048(c, err, value, "E10048_brackets", "E10048_sample1");
      free(value);
      break;
    }
    if( v.n && v.p[0]=='[' ){ v.p++; v.n--; }
    if( v.n && v.p[v.n - 1]==']' ) v.n--;
    memset(&r, 0, sizeof r);
    value = dup(v);
    rc = dims(c, value, v, 0, &r, err);
    free(value);
    if( rc ){ range_free(&r); break; }
    /* the name trimmed (StringUtils::Trim) */
    {
      size_t a = 0, b = colon;
      while( a < b && isspace((unsigned char)it.p[a]) ) a++;
      while( b > a && isspace((unsigned char)it.p[b - 1]) ) b--;
      name = gr_xstrndup(it.p + a, b - a);
    }
    if( gr_map_get(&seen, name) ){ free(name); range_free(&r); continue; }
    r.name = name;
    gr_vec_push(c->ranges, r);
    gr_map_put(&seen, name, (void *)1);
  }
  gr_map_free(&seen);
  free(items.v);
  return rc;
}

/* ParseInputShapeRange, the index form: pieces split at ']', each without
** its leading '[' or ",[". */
static int parse_indexed(gr_atc_cmdline *c, const char *text, gr_atc_error *err){
  gr_atc_spans sets = { NULL, 0, 0 };
  size_t i;
  int rc = 0;
  if( strlen(text) < 2 ) return e10048(c, err, text, "E10048_size", "E10048_sample4");
  gr_atc_split(text, strlen(text), ']', &sets);
  for(i = 0; i < sets.n && rc==0; i++){
    gr_atc_span s = sets.v[i];
    gr_atc_range r;
    char *whole;
    if( s.n < 1 ) continue;
    if( s.p[0]=='[' ){ s.p++; s.n--; }
    if( s.n && s.p[0]==',' ){
      /* substr(2): a lone ',' is past the end (std::out_of_range in GE) */
      if( s.n < 2 ){ rc = e10048(c, err, text, "E10048_invalid", "E10048_sample4"); break; }
      s.p += 2; s.n -= 2;
    }
    memset(&r, 0, sizeof r);
    whole = dup(s);
    rc = dims(c, whole, s, 1, &r, err);
    free(whole);
    if( rc ){ range_free(&r); break; }
    gr_vec_push(c->ranges, r);
  }
  free(sets.v);
  return rc;
}

/* CheckInputShapeValueValid: digits, ' ', ',', '~' and '-' only. */
static int value_ok(const char *p, size_t n){
  size_t k;
  for(k = 0; k < n; k++) if( !isdigit((unsigned char)p[k]) && !strchr(" ,~-", p[k]) ) return 0;
  return 1;
}

/* CheckAndTransferInputShapeToRange for a dynamic --input_shape: the range
** text into *out (malloc'ed). */
static int transfer(gr_atc_cmdline *c, const char *shapes, char **out, gr_atc_error *err){
  gr_atc_spans items = { NULL, 0, 0 };
  gr_buf b;
  size_t i;
  int rc = 0, by_name = strchr(shapes, ':')!=NULL;
  gr_buf_init(&b);
  gr_atc_split(shapes, strlen(shapes), ';', &items);
  for(i = 0; i < items.n && rc==0; i++){
    gr_atc_span it = items.v[i], v;
    size_t colon = it.n, k;
    char *t;
    if( !by_name ){
      /* ParserShapeRangeByIndex */
      if( !value_ok(it.p, it.n) ){ t = dup(it); rc = e10002(c, err, t, "E10002_split"); free(t); break; }
      gr_buf_printf(&b, "%s[%.*s]", i ? "," : "", (int)it.n, it.p);
      continue;
    }
    /* ParserShapeRangeByName: split at the last ':' */
    for(k = it.n; k > 0; k--) if( it.p[k - 1]==':' ){ colon = k - 1; break; }
    if( colon==it.n ){ t = dup(it); rc = e10002(c, err, t, "E10002_split"); free(t); break; }
    if( colon==0 ){ t = dup(it); rc = e10002(c, err, t, "E10002_name"); free(t); break; }
    v.p = it.p + colon + 1; v.n = it.n - colon - 1;
    if( v.n==0 ) continue;                  /* a scalar: no range */
    if( !value_ok(v.p, v.n) ){ t = dup(v); rc = e10002(c, err, t, "E10002_split"); free(t); break; }
    gr_buf_printf(&b, "%.*s:[%.*s];", (int)colon, it.p, (int)v.n, v.p);
  }
  free(items.v);
  if( rc==0 ){
    size_t n = b.n;
    if( by_name && n ) n--;                 /* the last ';' */
    *out = gr_xstrndup(gr_buf_cstr(&b), n);
  }
  gr_buf_free(&b);
  return rc;
}

static const char *entry(const gr_atc_cmdline *c){ return c->ir_build ? "ir-build" : "atc"; }

/* atc_shape_range_forms: does the entry point parse this form? */
static int entry_parses(const gr_atc_cmdline *c, const char *form){
  const gr_expr *e = gr_table_value(gr_ruleset_table(c->rs, "atc_shape_range_forms"), entry(c));
  for(e = e && e->op==GR_E_LIST ? e->a : NULL; e; e = e->next) if( e->op==GR_E_STR && strcmp(e->s, form)==0 ) return 1;
  return 0;
}

int gr_atc_ranges_finish(gr_atc_cmdline *c, const char *shapes, int *consumed, gr_atc_error *err){
  const char *rflag = gr_atc_role_flag(c, "input_shape_range"), *range = rflag ? gr_atc_flag_value(c, rflag) : NULL;
  const gr_table *skip = gr_ruleset_table(c->rs, "atc_shape_range_unchecked_frameworks");
  size_t g;
  int gears = 0;
  static const char *const gear_roles[] = { "dynamic_batch_size", "dynamic_image_size", "dynamic_dims" };
  *consumed = 0;
  c->range_skip_graph = c->framework && skip && gr_map_get(&skip->keymap, c->framework)!=NULL;
  if( range && *range ){
    c->range_text = gr_xstrdup(range);
    c->range_flag = rflag;
    *consumed = 1;
  }else{
    for(g = 0; g < sizeof gear_roles / sizeof *gear_roles; g++){
      const char *f = gr_atc_role_flag(c, gear_roles[g]), *v = f ? gr_atc_flag_value(c, f) : NULL;
      if( v && *v ) gears = 1;
    }
    if( gears || shapes==NULL || *shapes==0 || (strchr(shapes, '~')==NULL && strstr(shapes, "-1")==NULL) ) return 0;
    c->range_flag = c->shape_flag;
    *consumed = 1;
    if( transfer(c, shapes, &c->range_text, err) ) return -1;
  }
  if( *c->range_text==0 ) return 0;       /* only scalars: nothing to parse */
  if( strchr(c->range_text, ':') ) return parse_named(c, c->range_text, err);
  c->range_by_index = 1;
  if( entry_parses(c, "index") ){
    /* aclgrphBuildModel checks the index attributes first: the error waits for the graph */
    if( parse_indexed(c, c->range_text, &c->range_err) ){
      size_t i;
      for(i = 0; i < c->ranges.n; i++) range_free(&c->ranges.v[i]);
      c->ranges.n = 0;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* on the graph */

static int is_input_op(const gr_atc_cmdline *c, const gr_graph *g, const gr_node *n){
  return n->graph==0 && gr_atc_is_input_op(c, g, (uint32_t)(n - gr_graph_nodes(g)));
}

/* The shape GE checks: the op's input descriptor 0 (a Data op's output
** descriptor when the file gives it no input descriptor). A shape the
** reader could not tell (graph.h GR_SHAPE_UNKNOWN; no reader writes it for
** an input op of the root graph) has no dims, so nothing is checked against
** it, as for a scalar: the range then sets the dims. */
static const int64_t *op_shape(const gr_graph *g, const gr_node *n, uint32_t *nd){
  const gr_tensor *t = gr_graph_tensors(g, n);
  *nd = 0;
  if( n->n_in_desc + n->n_out_desc==0 ) return NULL;
  return gr_graph_shape(g, n->n_in_desc ? t[0].shape : t[n->n_in_desc].shape, nd);
}

static char *num(int64_t v){ return gr_xasprintf("%lld", (long long)v); }

/* CheckShapeByShapeRange, then the op's new shape. */
static int set_range(const gr_atc_cmdline *c, gr_graph *g, uint32_t node, const gr_atc_range *r, gr_atc_error *err){
  const gr_node *n = &gr_graph_nodes(g)[node];
  uint32_t nd, k;
  const int64_t *sh = op_shape(g, n, &nd);
  int64_t *d;
  if( nd && r->dims.n ){
    if( nd!=r->dims.n ){
      char *a = num((int64_t)r->dims.n), *b = num(nd);
      int rc = fail(c, err, M(c, "E10049", "shape_range_size", a, "cur_dim_size", b, (char *)NULL), "E10049");
      free(a); free(b);
      return rc;
    }
    for(k = 0; k < nd; k++){
      int64_t cur = sh[k], lo = r->dims.v[k].lo, hi = r->dims.v[k].hi;
      if( cur==-1 ) continue;
      if( lo < 0 || (hi < 0 && hi!=-1) ){
        char *t = gr_xasprintf("%lld ~ %lld", (long long)lo, (long long)hi);
        int rc = e10048(c, err, t, "E10048_invalid", "E10048_sample3");
        free(t);
        return rc;
      }
      if( cur < lo || (hi >= 0 && cur > hi) ){
        char *a = num(cur), *b = num(lo), *e = num(hi);
        int rc = fail(c, err, M(c, "E10050", "cur_dim", a, "shape_range_left", b, "shape_range_right", e, (char *)NULL), "E10050");
        free(a); free(b); free(e);
        return rc;
      }
    }
  }
  d = gr_xmalloc((r->dims.n ? r->dims.n : 1) * sizeof *d);
  for(k = 0; k < r->dims.n; k++) d[k] = r->dims.v[k].lo==r->dims.v[k].hi ? r->dims.v[k].lo : -1;
  gr_graph_set_node_dims(g, node, d, (uint32_t)r->dims.n);
  free(d);
  return 0;
}

static int e13025(const gr_atc_cmdline *c, gr_atc_error *err, const char *reason_key, int64_t index){
  char *i = num(index), *r = M(c, reason_key, "index", i, (char *)NULL);
  int rc = fail(c, err, M(c, "E13025", "reason", r, (char *)NULL), "E13025");
  free(i); free(r);
  return rc;
}

/* ge_ir_build.cc CheckDataOpAttrIndexValid / IsAttrIndexSetByUser, for the
** by-index form: every input op 0 .. n-1 has its index attribute, and
** several input ops do not all say 0. */
static int check_indexes(const gr_atc_cmdline *c, const gr_graph *g, gr_atc_error *err){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t i, n = gr_graph_nnodes(g);
  GR_VEC(int64_t) idx = { NULL, 0, 0 };
  size_t data = 0, k;
  int all_zero = 1, rc = 0;
  for(i = 0; i < n; i++){
    const gr_attr *a;
    if( !is_input_op(c, g, &nodes[i]) ) continue;
    data++;
    if( (a = gr_graph_attr(g, &nodes[i], "index"))!=NULL && a->kind==GR_ATTR_I ){
      if( a->u.i!=0 ) all_zero = 0;
      gr_vec_push(idx, a->u.i);
    }
  }
  if( data > 1 && idx.n==data && all_zero ) rc = e13025(c, err, "E13025_index_unset", 0);
  for(i = 0; rc==0 && i < data; i++){
    for(k = 0; k < idx.n && idx.v[k]!=(int64_t)i; k++) ;
    if( k==idx.n ) rc = e13025(c, err, "E13025_index_missing", (int64_t)i);
  }
  free(idx.v);
  return rc;
}

static int by_name(const void *a, const void *b){
  return strcmp((*(const gr_atc_range *const *)a)->name, (*(const gr_atc_range *const *)b)->name);
}

/* ATC's CheckInputShapeRangeNode, in name order (a std::map): each name an
** op of the root graph, and an input op. */
static int check_names(const gr_atc_cmdline *c, const gr_graph *g, gr_atc_error *err){
  const gr_node *nodes = gr_graph_nodes(g);
  const gr_atc_range **v = gr_xmalloc((c->ranges.n ? c->ranges.n : 1) * sizeof *v);
  size_t k;
  uint32_t node;
  int rc = 0;
  for(k = 0; k < c->ranges.n; k++) v[k] = &c->ranges.v[k];
  qsort(v, c->ranges.n, sizeof *v, by_name);
  for(k = 0; k < c->ranges.n && rc==0; k++){
    if( !gr_graph_find_node(g, v[k]->name, &node) || nodes[node].graph!=0 )
      rc = fail(c, err, M(c, "E10016", "opname", v[k]->name, "parameter", "input_shape", (char *)NULL), "E10016");
    else if( !is_input_op(c, g, &nodes[node]) )
      rc = fail(c, err, M(c, "E10017", "opname", v[k]->name, "parameter", "input_shape", (char *)NULL), "E10017");
  }
  free(v);
  return rc;
}

static int copy_err(gr_atc_error *err, const gr_atc_error *from){
  gr_atc_error_free(err);
  err->msg = gr_xstrdup(from->msg);
  err->code = from->code;
  err->hint = from->hint ? gr_xstrdup(from->hint) : NULL;
  err->loc = from->loc;
  return -1;
}

int gr_atc_ranges_apply(const gr_atc_cmdline *c, gr_graph *g, gr_atc_error *err){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t i, n = gr_graph_nnodes(g);
  GR_VEC(uint32_t) changed = { NULL, 0, 0 };
  gr_map names;
  size_t k;
  int rc = 0;
  if( c->range_text==NULL || *c->range_text==0 ) return 0;
  if( !c->ir_build ){
    /* ATC's UpdateDynamicInputShapeRange parses the name form only
    ** (omg.cc:883, option_utils.cc:1618-1650); not run for the models
    ** GenerateModelBySingleGraph loads itself */
    if( c->range_skip_graph ) return 0;
    if( c->range_by_index ) return e10048(c, err, c->range_text, "E10048_split", "E10048_sample1");
    if( check_names(c, g, err) ) return -1;
  }else if( c->range_by_index ){
    if( check_indexes(c, g, err) ) return -1;
    if( c->range_err.msg ) return copy_err(err, &c->range_err);
  }
  /* UpdateDataOpShapeRange, for each input op of the root graph in order */
  gr_map_init(&names);
  for(k = 0; !c->range_by_index && k < c->ranges.n; k++) gr_map_put(&names, c->ranges.v[k].name, &c->ranges.v[k]);
  for(i = 0; i < n && rc==0; i++){
    const gr_atc_range *r = NULL;
    if( !is_input_op(c, g, &nodes[i]) ) continue;
    if( c->range_by_index ){
      const gr_attr *a = gr_graph_attr(g, &nodes[i], "index");
      if( a==NULL || a->kind!=GR_ATTR_I ) continue;       /* GE logs a warning and goes on */
      if( a->u.i < 0 || (uint64_t)a->u.i >= c->ranges.n ){ rc = e13025(c, err, "E13025_index_exceeds", a->u.i); break; }
      r = &c->ranges.v[a->u.i];
    }else{
      if( (r = gr_map_get(&names, gr_graph_str(g, nodes[i].name)))==NULL ) continue;
    }
    if( (rc = set_range(c, g, i, r, err))==0 ) gr_vec_push(changed, i);
  }
  if( rc==0 ) gr_graph_propagate_dims(g, changed.v, changed.n);
  gr_map_free(&names);
  free(changed.v);
  return rc;
}
