/*
** check_onnx.c: the checker of the ONNX op mapping statements,
** `onnx "domain::op_type" { opset 8..18 [when COND] becomes IR, ...; }`
** (doc/rule-language.md 6.1). It checks each statement and compiles it into
** rs->onnx_ops (ruleset.h): the opsets become ranges, the condition (an
** ordinary rule-language expression, parsed by the grammar) becomes the
** conjunction of node tests the ONNX reader makes without the evaluator,
** and the IR ops with their input wiring become the row the reader expands.
** Everything it refuses is an error at the token concerned: a key that is
** not domain::op_type, a key mapped twice, a statement without rows, an
** empty or reversed opset range, an opset listed twice in a row, a
** condition that is not one of the tests the reader makes, a row no node can
** reach (an earlier row matches first at every one of its opsets), an empty
** IR list, two IR ops of a row that would both keep the node's name or get
** the same name, and an input @K that does not name an earlier op of its
** row. A Const's `output "DTYPE" [DIMS]` (the TensorDesc the plugin gives
** its tensor) is compiled to the dtype, its model spelling (through table
** graph_dtype_names) and the dims; `output` on another op, twice, with a
** dtype not in table dtypes or a negative dim is refused.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "base/suggest.h"
#include "lang/check.h"

/* An input index or output number written in a row: small enough for an
** int, far above any real node (GE's ops have at most a few dozen inputs). */
#define MAX_INDEX 1000

#define COND_KINDS "node.inputs OP N, node.outputs OP N, node.inputs[N] == null or != null, node.attr[\"A\"] == null or != null, node.attr[\"A\"] == VALUE or != VALUE, len(node.attr[\"A\"]) OP N, prod(node.attr[\"A\"]) OP N, max(node.attr[\"A\"]) OP N, chip has CAP, not chip has CAP"

static const char *op_text(int op){
  switch( op ){
    case GR_E_EQ: return "=="; case GR_E_NE: return "!="; case GR_E_LT: return "<";
    case GR_E_LE: return "<="; case GR_E_GT: return ">"; default: return ">=";
  }
}

static int is_cmp(int op){ return op >= GR_E_EQ && op <= GR_E_GE; }

/* `node.attr["NAME"]`: the attribute name, or NULL (reported) */
static const char *attr_name(ck *c, const gr_expr *e){
  if( e->op==GR_E_INDEX && e->a->op==GR_E_FIELD && e->a->a->op==GR_E_NODE && strcmp(e->a->s, "attr")==0 ){
    if( e->b->op!=GR_E_STR || e->b->s[0]==0 ){
      ck_err(c, e->b->loc, "the attribute of an onnx mapping condition is named by a non-empty string: node.attr[\"NAME\"]");
      return NULL;
    }
    return e->b->s;
  }
  return NULL;
}

/* An int literal on the right of a comparison, or reported. */
static int want_int(ck *c, const gr_expr *e, const char *what, int64_t *v){
  if( e->op!=GR_E_INT ){
    ck_err(c, e->loc, "%s compares with an integer", what);
    return 0;
  }
  *v = e->i;
  return 1;
}

/* One conjunct of a row's condition into *out; 0 (reported) when it is not
** one of the tests a mapping can make. */
static int compile_test(ck *c, const gr_expr *e, gr_onnx_cond *out){
  gr_ruleset *rs = c->rs;
  const char *a;
  memset(out, 0, sizeof *out);
  /* chip has CAP, not chip has CAP: the chip the model is read for */
  if( e->op==GR_E_HAS || (e->op==GR_E_NOT && e->a->op==GR_E_HAS) ){
    const gr_expr *h = e->op==GR_E_HAS ? e : e->a;
    int ci = gr_ruleset_find(&rs->cap_map, h->s);
    if( ci < 0 ){
      char sug[128];
      ck_err(c, h->sloc, "unknown capability '%s'%s", h->s, ck_did_you_mean(c, GR_NK_CAP, h->s, sug, sizeof sug));
      return 0;
    }
    out->kind = e->op==GR_E_HAS ? GR_OC_CAP : GR_OC_NOCAP;
    out->n = ci;
    out->name = rs->cap_names[ci];
    return 1;
  }
  if( e->op==GR_E_OR || e->op==GR_E_NOT ){
    ck_err(c, e->op==GR_E_OR ? e->sloc : e->loc, "an onnx mapping condition is tests joined by 'and' ('%s' is not allowed: write one row per case)",
           e->op==GR_E_OR ? "or" : "not");
    return 0;
  }
  if( !is_cmp(e->op) ){
    ck_err(c, e->loc, "unknown condition kind in an onnx mapping row: expected %s", COND_KINDS);
    return 0;
  }
  out->op = e->op;
  /* node.inputs[N] == / != null: whether input N is named */
  if( e->a->op==GR_E_INDEX && e->a->a->op==GR_E_FIELD && e->a->a->a->op==GR_E_NODE && strcmp(e->a->a->s, "inputs")==0 ){
    if( e->a->b->op!=GR_E_INT || e->a->b->i < 0 || e->a->b->i > MAX_INDEX ){
      ck_err(c, e->a->b->loc, "node.inputs[N] names an input by its index, 0 to %d", MAX_INDEX);
      return 0;
    }
    if( (e->op!=GR_E_EQ && e->op!=GR_E_NE) || e->b->op!=GR_E_NULL ){
      ck_err(c, e->sloc, "node.inputs[%lld] compares with == null (input empty or absent) or != null (named)", (long long)e->a->b->i);
      return 0;
    }
    out->kind = e->op==GR_E_EQ ? GR_OC_IN_EMPTY : GR_OC_IN_GIVEN;
    out->n = e->a->b->i;
    return 1;
  }
  /* node.inputs OP N */
  if( e->a->op==GR_E_FIELD && e->a->a->op==GR_E_NODE ){
    if( strcmp(e->a->s, "inputs")!=0 && strcmp(e->a->s, "outputs")!=0 ){
      ck_err(c, e->a->sloc, "an onnx mapping condition cannot test node.%s: it tests node.inputs, node.outputs, node.attr[\"A\"] and len(node.attr[\"A\"])", e->a->s);
      return 0;
    }
    out->kind = e->a->s[0]=='i' ? GR_OC_INPUTS : GR_OC_OUTPUTS;
    return want_int(c, e->b, e->a->s[0]=='i' ? "node.inputs" : "node.outputs", &out->n);
  }
  /* len(node.attr["A"]) OP N */
  if( e->a->op==GR_E_LEN ){
    if( (a = attr_name(c, e->a->a))==NULL ){
      if( !(e->a->a->op==GR_E_INDEX && e->a->a->a->op==GR_E_FIELD && e->a->a->a->a->op==GR_E_NODE && strcmp(e->a->a->a->s, "attr")==0) )
        ck_err(c, e->a->a->loc, "len(...) in an onnx mapping row counts the elements of a list attribute: len(node.attr[\"NAME\"])");
      return 0;
    }
    out->kind = GR_OC_LEN; out->name = ck_keep(rs, a);
    return want_int(c, e->b, "len(...)", &out->n);
  }
  /* prod(node.attr["A"]) OP N, max(node.attr["A"]) OP N: of an int list */
  if( e->a->op==GR_E_CALL && (strcmp(e->a->s, "prod")==0 || strcmp(e->a->s, "max")==0) ){
    const char *fn = e->a->s;
    if( e->a->a==NULL || e->a->a->next || (a = attr_name(c, e->a->a))==NULL ){
      if( !(e->a->a && !e->a->a->next && e->a->a->op==GR_E_INDEX && e->a->a->a->op==GR_E_FIELD && e->a->a->a->a->op==GR_E_NODE
            && strcmp(e->a->a->a->s, "attr")==0) )
        ck_err(c, e->a->loc, "%s(...) in an onnx mapping row takes one int list attribute: %s(node.attr[\"NAME\"])", fn, fn);
      return 0;
    }
    out->kind = fn[0]=='p' ? GR_OC_PROD : GR_OC_MAX; out->name = ck_keep(rs, a);
    return want_int(c, e->b, fn[0]=='p' ? "prod(...)" : "max(...)", &out->n);
  }
  /* node.attr["A"] == / != null, VALUE */
  if( e->a->op==GR_E_INDEX && e->a->a->op==GR_E_FIELD && e->a->a->a->op==GR_E_NODE && strcmp(e->a->a->s, "attr")==0 ){
    if( (a = attr_name(c, e->a))==NULL ) return 0;
    out->name = ck_keep(rs, a);
    if( e->op!=GR_E_EQ && e->op!=GR_E_NE ){
      ck_err(c, e->sloc, "an attribute compares with == or != only (use len(node.attr[\"%s\"]) %s N for a list's length)", a, op_text(e->op));
      return 0;
    }
    switch( e->b->op ){
      case GR_E_NULL: out->kind = e->op==GR_E_EQ ? GR_OC_HASNOT : GR_OC_HAS; return 1;
      case GR_E_INT: out->kind = e->op==GR_E_EQ ? GR_OC_EQ : GR_OC_NE; out->n = e->b->i; return 1;
      case GR_E_STR: out->kind = e->op==GR_E_EQ ? GR_OC_EQ : GR_OC_NE; out->is_str = 1; out->s = ck_keep(rs, e->b->s); return 1;
      default:
        ck_err(c, e->b->loc, "an attribute of an onnx mapping condition compares with null, an integer or a string");
        return 0;
    }
  }
  ck_err(c, e->a->loc, "unknown condition kind in an onnx mapping row: expected %s", COND_KINDS);
  return 0;
}

static void split_and(const gr_expr *e, const gr_expr ***v, size_t *n){
  if( e->op==GR_E_AND ){ split_and(e->a, v, n); split_and(e->b, v, n); return; }
  *v = gr_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = e;
}

static int same_cond(const gr_onnx_cond *a, const gr_onnx_cond *b){
  if( a->kind!=b->kind || a->op!=b->op || a->n!=b->n || a->is_str!=b->is_str ) return 0;
  if( (a->name==NULL)!=(b->name==NULL) || (a->name && strcmp(a->name, b->name)!=0) ) return 0;
  return !a->is_str || strcmp(a->s, b->s)==0;
}

/* Whether every opset of row r is one of row q's. */
static int opsets_within(const gr_onnx_row *r, const gr_onnx_row *q){
  size_t i, k;
  for(i = 0; i < r->nranges; i++){
    int64_t v = r->lo[i];
    while( v <= r->hi[i] ){       /* walk r's range through q's ranges */
      int64_t next = v;
      for(k = 0; k < q->nranges; k++) if( v >= q->lo[k] && v <= q->hi[k] ){ next = q->hi[k]; break; }
      if( k==q->nranges ) return 0;
      if( next >= r->hi[i] ) break;
      v = next + 1;
    }
  }
  return 1;
}

/* Whether row q (earlier) matches whenever row r does: its opsets cover r's
** and each of its tests is one of r's. */
static int covers(const gr_onnx_row *q, const gr_onnx_row *r){
  size_t i, k;
  if( !opsets_within(r, q) ) return 0;
  for(i = 0; i < q->nconds; i++){
    for(k = 0; k < r->nconds; k++) if( same_cond(&q->conds[i], &r->conds[k]) ) break;
    if( k==r->nconds ) return 0;
  }
  return 1;
}

/* An output's `node.attr["A"]`: the field is attr and A has a name. */
static int attr_field_ok(ck *c, const gr_item *o){
  if( strcmp(o->name, "attr")!=0 ){
    ck_err(c, o->name_loc, "node.%s: an output's dtype is read from node.attr[\"NAME\"], an attribute of the ONNX node", o->name);
    return 0;
  }
  if( o->str2[0]==0 ){
    ck_err(c, o->code_loc, "node.attr[\"\"]: the attribute needs a name");
    return 0;
  }
  return 1;
}

/* An IR op's `output "DTYPE" [DIMS]` clauses (x->items2) into ir: the
** dtype of the tensor the plugin gives a Const it creates (and its shape),
** or `output node.attr["A"] default "DTYPE"`, the dtype of the ONNX node's
** tensor attribute A (ConstantOfShape's `value`), DTYPE without one,
** or of output 0 of an inner op whose dtype the plugin fixes (a Shape's, a
** Cast's dst_type), once; on the row's last op (`last`), whose outputs are
** the ONNX node's, only a plain dtype the plugin fixes for output 0 (ArgMin's
** dtype attribute), without a shape; a shape on a Const, or on
** an op whose output has a dim GE's InferShape leaves to the values (-1). The
** dtype is a key of table dtypes, spelled in the model as the key of table
** graph_dtype_names whose value it is; each dim 0 or more (or -1, not on a
** Const). 0 when something was reported. */
static int do_output(ck *c, const gr_item *x, gr_onnx_ir *ir, int last){
  gr_ruleset *rs = c->rs;
  const gr_item *o = x->items2, *d;
  const gr_table *dt;
  int t, is_const = strcmp(x->name, "Const")==0;
  size_t nd = 0;
  if( o==NULL ) return 1;
  if( o->flag2==2 && is_const ){
    if( o->str2 ) ck_err(c, o->str_loc, "default input %lld: a Const has no input to take its dtype from (write default \"DTYPE\")", (long long)o->lo);
    else ck_err(c, o->str_loc, "output input %lld: a Const has no input to take its dtype from (write output \"DTYPE\")", (long long)o->lo);
    return 0;
  }
  if( last && o->flag2==0 && o->flag && !is_const ){
    ck_err(c, o->str2_loc, "a shape for the %s's output: the row's last op gives the ONNX node's outputs, whose shapes come from the model (table onnx_shapes)", x->name);
    return 0;
  }
  if( last && o->flag2!=0 && !is_const ){
    /* the last op's `output "DTYPE"`: the dtype the plugin fixes for the
    ** node's output 0 (ArgMin's dtype attribute); its other forms read the
    ** node, whose outputs the model types */
    if( o->flag2==2 && o->str2==NULL )
      ck_err(c, o->loc, "output input %lld: the row's last op (%s) gives the ONNX node's outputs, whose dtypes come from the model",
             (long long)o->lo, x->name);
    else if( o->flag2==2 )
      ck_err(c, o->loc, "output node.attr[\"%s\"] default input %lld: the row's last op (%s) gives the ONNX node's outputs, whose dtypes come from the model",
             o->str2, (long long)o->lo, x->name);
    else ck_err(c, o->loc, "output node.attr[\"%s\"] default \"%s\": the row's last op (%s) gives the ONNX node's outputs, whose dtypes come from the model (write output \"DTYPE\" where the plugin fixes it)",
                o->str2, o->str, x->name);
    return 0;
  }
  if( o->flag && !is_const ){
    /* an op's shape follows its inputs, but where GE's InferShape leaves a
    ** dim to the values (a Where's count of true elements) the row says so */
    for(d = o->items; d && d->lo!=-1; d = d->next) ;
    if( d==NULL ){
      ck_err(c, o->str2_loc, "a shape for the %s's output without a -1 dim: a row states the shape of a Const it creates, or of an op's output with a dim known only when it runs (-1); an op's shape otherwise follows its inputs", x->name);
      return 0;
    }
  }
  if( o->next ){
    char w[256];
    ck_where(w, sizeof w, o->loc);
    ck_err(c, o->next->loc, "the %s's output is given twice (first at %s)", x->name, w);
    return 0;
  }
  if( o->flag2==2 ){
    /* `output node.attr["A"] default input N`, `output input N`: no dtype of its own */
    if( o->str2 && !attr_field_ok(c, o) ) return 0;
    if( o->flag ){
      ck_err(c, o->str2_loc, "a shape after input %lld's dtype: a row states a shape only with a dtype of its own (output \"DTYPE\" [DIMS])", (long long)o->lo);
      return 0;
    }
    if( o->lo < 0 || o->lo > 65535 ){
      ck_err(c, o->str_loc, "input %lld: an ONNX node has inputs 0 to 65535", (long long)o->lo);
      return 0;
    }
    ir->dtype_attr = o->str2 ? ck_keep(rs, o->str2) : NULL;
    ir->dtype_input = (int)o->lo;
    return 1;
  }
  t = gr_ruleset_find(&rs->table_map, "dtypes");
  if( t < 0 ){
    ck_err(c, o->str_loc, "output \"%s\": dtype names are the keys of table dtypes, which is not declared", o->str);
    return 0;
  }
  dt = &rs->tables[t];
  if( gr_map_get(&dt->keymap, o->str)==NULL ){
    const char *sug = gr_suggest(o->str, dt->keys, dt->n);
    ck_err(c, o->str_loc, "unknown dtype '%s' (not in table dtypes)%s%s%s", o->str,
           sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
    return 0;
  }
  if( o->flag2 ){
    /* `output node.attr["A"] default "DTYPE"` */
    if( !attr_field_ok(c, o) ) return 0;
    ir->dtype_attr = ck_keep(rs, o->str2);
  }
  ir->dtype = ck_keep(rs, o->str);
  if( (ir->model_dtype = gr_ruleset_dtype_spelling(rs, ir->dtype))==NULL ){
    ck_err(c, o->str_loc, "dtype '%s' has no spelling in the model: it is not a value of table graph_dtype_names", o->str);
    return 0;
  }
  ir->ndims = -1;
  if( !o->flag ) return 1;
  for(d = o->items; d; d = d->next) nd++;
  if( nd > GR_ONNX_MAX_DIMS ){
    ck_err(c, o->str2_loc, "a shape of %zu dims: a shape in a row has at most %d", nd, GR_ONNX_MAX_DIMS);
    return 0;
  }
  {
    int64_t *dims = gr_arena_calloc(&rs->arena, (nd + 1) * sizeof *dims);
    for(nd = 0, d = o->items; d; d = d->next){
      if( d->lo < (is_const ? 0 : -1) || d->lo > INT32_MAX ){
        if( is_const ) ck_err(c, d->str_loc, "dim %lld: a dim of a Const's shape is 0 to %ld", (long long)d->lo, (long)INT32_MAX);
        else ck_err(c, d->str_loc, "dim %lld: a dim of an op's shape in a row is -1 (known only when it runs) or 0 to %ld", (long long)d->lo, (long)INT32_MAX);
        return 0;
      }
      dims[nd++] = d->lo;
    }
    ir->dims = dims;
    ir->ndims = (int)nd;
  }
  return 1;
}

/* Whether J of `@K:J` (an op input or a `yields` entry, item y) is an
** output number; else an error at J. */
static int out_number_ok(ck *c, const gr_item *y){
  if( y->hi >= 0 && y->hi <= MAX_INDEX ) return 1;
  ck_err(c, y->name_loc, "output %lld: an output number is 0 to %d", (long long)y->hi, MAX_INDEX);
  return 0;
}

static int do_row(ck *c, const gr_onnx_op *op, gr_item *it, gr_onnx_row *r){
  gr_ruleset *rs = c->rs;
  gr_item *x, *y;
  size_t n, i, keep = 0;
  int ok = 1;
  memset(r, 0, sizeof *r);
  r->loc = it->loc;
  /* opsets */
  for(n = 0, x = it->items2; x; x = x->next) n++;
  r->lo = gr_arena_calloc(&rs->arena, n * sizeof *r->lo);
  r->hi = gr_arena_calloc(&rs->arena, n * sizeof *r->hi);
  for(x = it->items2; x; x = x->next){
    if( x->lo < 1 ){ ck_err(c, x->loc, "opset %lld: an opset version is 1 or more", (long long)x->lo); ok = 0; continue; }
    if( x->hi < x->lo ){ ck_err(c, x->str_loc, "empty opset range %lld..%lld", (long long)x->lo, (long long)x->hi); ok = 0; continue; }
    for(i = 0; i < r->nranges; i++){
      if( x->lo <= r->hi[i] && r->lo[i] <= x->hi ){
        ck_err(c, x->loc, "opset %lld is listed twice in this row", (long long)(x->lo > r->lo[i] ? x->lo : r->lo[i]));
        ok = 0;
        break;
      }
    }
    if( i < r->nranges ) continue;
    r->lo[r->nranges] = x->lo; r->hi[r->nranges] = x->hi; r->nranges++;
  }
  /* the condition */
  if( it->e ){
    const gr_expr **v = NULL;
    size_t nv = 0;
    split_and(it->e, &v, &nv);
    r->conds = gr_arena_calloc(&rs->arena, nv * sizeof *r->conds);
    for(i = 0; i < nv; i++){
      if( compile_test(c, v[i], &r->conds[r->nconds]) ) r->nconds++;
      else ok = 0;
    }
    free(v);
  }
  /* the IR ops */
  for(n = 0, x = it->items; x; x = x->next) n++;
  if( n==0 ){
    ck_err(c, it->str_loc, "no IR op after 'becomes': a row of onnx \"%s\" names the ops the node becomes", op->key);
    return 0;
  }
  if( n > GR_ONNX_MAX_IR ){
    ck_err(c, it->str_loc, "%zu IR ops in one row: a row makes at most %d", n, GR_ONNX_MAX_IR);
    return 0;
  }
  if( it->flag2 ){
    if( it->hi < (int64_t)n || it->hi > MAX_INDEX ){
      ck_err(c, it->str2_loc, "in %lld: a plugin subgraph of %zu IR ops has %zu to %d nodes (Data included)", (long long)it->hi, n, n, MAX_INDEX);
      ok = 0;
    }else r->nsub = (int)it->hi;
  }
  r->ir = gr_arena_calloc(&rs->arena, n * sizeof *r->ir);
  for(x = it->items; x; x = x->next){
    gr_onnx_ir *ir = &r->ir[r->nir];
    gr_item *p;
    ir->type = ck_keep(rs, x->name);
    ir->suffix = ck_keep(rs, x->str ? x->str : "");
    ir->pos = -1;
    ir->ndims = -1;
    ir->dtype_input = -1;
    if( !do_output(c, x, ir, x->next==NULL) ) ok = 0;
    if( x->flag2 ){
      if( !it->flag2 ){ ck_err(c, x->str2_loc, "@%lld places an op in GE's plugin subgraph: the row must end with `in N` (the subgraph's node count)", (long long)x->lo); ok = 0; }
      else if( x->lo < 0 || x->lo >= it->hi ){ ck_err(c, x->str2_loc, "place @%lld is outside the row's subgraph of %lld nodes (@0 to @%lld)", (long long)x->lo, (long long)it->hi, (long long)it->hi - 1); ok = 0; }
      for(p = it->items; p!=x; p = p->next)
        if( p->flag2 && p->lo==x->lo ){ ck_err(c, x->str2_loc, "place @%lld is already the IR op %s's in this row", (long long)x->lo, p->name); ok = 0; break; }
      ir->pos = (int)x->lo;
    }
    if( x->str && x->str[0]==0 ){ ck_err(c, x->str_loc, "an empty suffix: leave it out for the op that keeps the node's name"); ok = 0; }
    /* "=NAME": a sub-node the plugin names without the ONNX node's name
    ** (slice_onnx_plugin.cpp's op::Const("begin")): GE renames it
    ** PartitionedCall_NAME_<counter>, so only a renamed subgraph has one */
    if( x->str && x->str[0]=='=' && (x->str[1]==0 || !it->flag2 || n < 2) ){
      ck_err(c, x->str_loc, x->str[1]==0 ? "\"=\" needs the sub-node's whole name after it (\"=begin\")"
             : "\"%s\": a whole sub-node name (=NAME) is for a plugin subgraph of several ops, which GE renames PartitionedCall_NAME_<counter>", x->str);
      ok = 0;
    }
    if( it->flag2 && n > 1 && (!x->str || !x->flag2) ){
      ck_err(c, x->name_loc, "%s needs GE's sub-node name and place (%s \"_NAME\" @P): with more than one node besides Data, GE renames every node of the plugin's subgraph PartitionedCall_<node><_NAME>_<counter>", x->name, x->name);
      ok = 0;
    }
    if( !it->flag2 && !x->str && keep++ ){
      ck_err(c, x->name_loc, "a second IR op without a suffix: only one op of a row keeps the ONNX node's name (write %s \"/SUFFIX\")", x->name);
      ok = 0;
    }
    for(p = it->items; x->str && x->str[0] && p!=x; p = p->next){
      if( p->str && strcmp(p->str, x->str)==0 ){ ck_err(c, x->str_loc, "suffix \"%s\" is already used by the IR op %s of this row", x->str, p->name); ok = 0; break; }
    }
    if( x->flag ){
      size_t nin = 0, j = 0;
      for(y = x->items; y; y = y->next) nin++;
      ir->explicit_inputs = 1;
      ir->in = gr_arena_calloc(&rs->arena, (nin + 1) * sizeof *ir->in);
      for(y = x->items; y; y = y->next){
        gr_onnx_in *in = &ir->in[j];
        if( y->flag==0 ){
          if( y->lo < 0 || y->lo > MAX_INDEX ){ ck_err(c, y->str_loc, "node input %lld: an input is 0 to %d", (long long)y->lo, MAX_INDEX); ok = 0; continue; }
        }else{
          if( y->lo < 0 || y->lo >= (int64_t)r->nir ){
            if( r->nir==0 ) ck_err(c, y->loc, "@%lld: the first IR op of a row has no earlier op to take an output from", (long long)y->lo);
            else ck_err(c, y->loc, "@%lld does not name an earlier IR op of this row (@0 to @%zu, counted from 0)", (long long)y->lo, r->nir - 1);
            ok = 0;
            continue;
          }
          if( !out_number_ok(c, y) ){ ok = 0; continue; }
        }
        in->from_op = y->flag; in->src = (int)y->lo; in->index = (int)y->hi;
        j++;
      }
      ir->nin = j;
    }
    r->nir++;
  }
  /* `yields (...)`: each an output of an IR op of the row */
  for(n = 0, x = it->items3; x; x = x->next) n++;
  if( n > GR_ONNX_MAX_IR ){
    ck_err(c, it->items3->loc, "yields %zu outputs: a row gives the ONNX node at most %d", n, GR_ONNX_MAX_IR);
    return 0;
  }
  if( n ) r->yields = gr_arena_calloc(&rs->arena, n * sizeof *r->yields);
  for(x = it->items3; x; x = x->next){
    if( !x->flag ){
      ck_err(c, x->str_loc, "yields %lld: the node's outputs are outputs of the row's IR ops, written @K or @K:J", (long long)x->lo);
      ok = 0;
      continue;
    }
    if( x->lo < 0 || x->lo >= (int64_t)r->nir ){
      ck_err(c, x->str_loc, "yields @%lld: no such IR op in this row (@0 to @%zu, counted from 0)", (long long)x->lo, r->nir - 1);
      ok = 0;
      continue;
    }
    if( !out_number_ok(c, x) ){ ok = 0; continue; }
    r->yields[r->nyields].from_op = 1;
    r->yields[r->nyields].src = (int)x->lo;
    r->yields[r->nyields].index = (int)x->hi;
    r->nyields++;
  }
  return ok;
}

static void do_onnx(ck *c, gr_item *st){
  gr_ruleset *rs = c->rs;
  gr_onnx_op *op = &rs->onnx_ops[rs->nonnx_ops];
  const char *sep = strstr(st->name, "::");
  gr_item *x;
  size_t n = 0, k;
  void *prev;
  if( sep==NULL || sep==st->name || sep[2]==0 || strstr(sep + 2, "::") ){
    ck_err(c, st->name_loc, "onnx \"%s\": the key is \"domain::op_type\" (\"ai.onnx::Relu\")", st->name);
    return;
  }
  op->key = ck_keep(rs, st->name);
  op->loc = st->name_loc;
  prev = gr_map_put(&rs->onnx_map, op->key, (void*)(intptr_t)(rs->nonnx_ops + 1));
  if( prev ){
    char w[256];
    ck_where(w, sizeof w, rs->onnx_ops[(intptr_t)prev - 1].loc);
    ck_err(c, st->name_loc, "duplicate definition of onnx mapping '%s' (first defined at %s)", st->name, w);
    return;
  }
  for(x = st->items; x; x = x->next) n++;
  if( n==0 ){ ck_err(c, st->name_loc, "onnx \"%s\" has no row (opset ... becomes ...;)", st->name); }
  op->rows = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *op->rows);
  for(x = st->items; x; x = x->next){
    gr_onnx_row *r = &op->rows[op->nrows];
    if( !do_row(c, op, x, r) ) continue;
    for(k = 0; k < op->nrows; k++){
      if( covers(&op->rows[k], r) ){
        char w[256];
        ck_where(w, sizeof w, op->rows[k].loc);
        ck_err(c, x->loc, "this row of onnx \"%s\" is never used: the row at %s matches first at every one of its opsets", st->name, w);
        break;
      }
    }
    op->nrows++;
  }
  rs->nonnx_ops++;
}

void ck_onnx(ck *c){
  gr_ruleset *rs = c->rs;
  gr_item *st;
  size_t n = 0, i;
  CK_EACH_KIND(c, i, st, GR_I_ONNX) n++;
  rs->onnx_ops = gr_arena_calloc(&rs->arena, (n + 1) * sizeof *rs->onnx_ops);
  CK_EACH_KIND(c, i, st, GR_I_ONNX) do_onnx(c, st);
}
