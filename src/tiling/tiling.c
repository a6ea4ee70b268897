/*
** tiling.c: tiling plans and their validation. It reads the tiling roles,
** classes and class parameters from the rule set, turns a graph node into a
** gr_tspec (shapes, formats, attributes), plans it with one of four
** strategies (element-wise over the flattened tensor; last-axis reduction in
** blocks of rows, splitting rows too long for the UB; matrix multiply in
** M x N output blocks with K blocked through L1 and L0A/L0B and accumulated in
** L0C; flash-style attention in blocks of query rows per batch and head),
** lays out the buffers a tile needs in each memory level, converts a Lua
** hook's tiling into the same plan form, and validates any plan: memory fit
** (recomputed from the tile shape, not trusted), exact coverage of the output
** by coordinate compression, bounds, core assignment, load balance and the
** stated counts. The library never prints; findings go to gr_diags.
*/
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling.h"

#define MAX_TILES GR_TMAX_TILES
#define MAX_CELLS ((uint64_t)1 << 25)    /* cells of the coverage grid */

/* ------------------------------------------------------------------ names */

static const char *const mem_names[GR_MEM_N] = { "ub", "l1", "l0a", "l0b", "l0c" };
const char *gr_tmem_name(int level){ return level >= 0 && level < GR_MEM_N ? mem_names[level] : "?"; }

static const char *const strategy_names[] = { "none", "elementwise", "reduce_last", "matmul", "attention", "custom" };
const char *gr_tstrategy_name(int s){
  return s >= 0 && s <= GR_TS_CUSTOM ? strategy_names[s] : "none";
}

static const struct { const char *name; int bytes; } fmts[GR_FMT_N] = {
  { "none", 0 }, { "fp16", 2 }, { "bf16", 2 }, { "fp32", 4 }, { "fp64", 8 }, { "i8", 1 }, { "u8", 1 },
  { "i16", 2 }, { "u16", 2 }, { "i32", 4 }, { "u32", 4 }, { "i64", 8 }, { "u64", 8 }
};
int gr_tfmt_bytes(int f){ return f > 0 && f < GR_FMT_N ? fmts[f].bytes : 0; }
int gr_tfmt_parse(const char *s){
  int i;
  for(i = 1; s && i < GR_FMT_N; i++) if( strcmp(s, fmts[i].name)==0 ) return i;
  return GR_FMT_NONE;
}

static const struct { const char *name; int arity; } kernels[GR_K_N] = {
  { "none", 0 }, { "copy", 1 }, { "add", 2 }, { "sub", 2 }, { "mul", 2 }, { "div", 2 }, { "maximum", 2 },
  { "minimum", 2 }, { "relu", 1 }, { "abs", 1 }, { "neg", 1 }, { "exp", 1 }, { "sqrt", 1 }, { "square", 1 },
  { "rsqrt", 1 }, { "sigmoid", 1 }, { "swish", 1 }, { "tanh", 1 }, { "gelu", 1 },
  { "softmax", 0 }, { "rms_norm", 0 }, { "layer_norm", 0 }, { "matmul", 0 }, { "attention", 0 }
};
int gr_tkernel_parse(const char *s){
  int i;
  for(i = 1; s && i < GR_K_N; i++) if( strcmp(s, kernels[i].name)==0 ) return i;
  return GR_K_NONE;
}
const char *gr_tkernel_name(int k){ return k > 0 && k < GR_K_N ? kernels[k].name : "none"; }
int gr_tkernel_arity(int k){ return k > 0 && k < GR_K_N ? kernels[k].arity : 0; }

/* ------------------------------------------------------------------ findings */

/* check names and their stable codes, in enum gr_tcheck order */
static const char *const check_names[GR_TC_N] = {
  "none", "memory", "stated", "alignment", "bounds", "shape", "coverage", "cores", "balance",
  "rules", "hook", "execute", "limit"
};
static const char *const check_codes[GR_TC_N] = {
  NULL, "GR0301", "GR0302", "GR0303", "GR0304", "GR0305", "GR0306", "GR0307", "GR0308",
  "GR0309", "GR0310", "GR0311", "GR0312"
};
const char *gr_tcheck_name(int c){ return c > 0 && c < GR_TC_N ? check_names[c] : "none"; }
const char *gr_tcheck_code(int c){ return c > 0 && c < GR_TC_N ? check_codes[c] : NULL; }

int gr_tcheck_of(const gr_diag *d){
  const char *c = d->code;
  int v;
  /* "GR03NN": the number is the check (the table above keeps them in step) */
  if( c==NULL || strncmp(c, "GR03", 4) || c[4] < '0' || c[4] > '9' || c[5] < '0' || c[5] > '9' || c[6] ) return GR_TC_NONE;
  v = (c[4] - '0') * 10 + (c[5] - '0');
  return v > 0 && v < GR_TC_N ? v : GR_TC_NONE;
}

gr_diag *gr_tnote(gr_diags *d, gr_severity sev, int check, const char *fmt, ...){
  va_list ap;
  gr_diag *x;
  if( d==NULL ) return NULL;
  va_start(ap, fmt);
  x = gr_diags_vadd(d, sev, NULL, 0, 0, fmt, ap);
  va_end(ap);
  gr_diag_set(&x->code, gr_tcheck_code(check));
  return x;
}

int gr_tdiags_has(const gr_diags *d, int check){
  size_t i;
  for(i = 0; i < d->n; i++) if( d->v[i].sev==GR_SEV_ERROR && gr_tcheck_of(&d->v[i])==check ) return 1;
  return 0;
}

/* ------------------------------------------------------------------ small helpers */

/* Checked arithmetic. Sizes saturate instead of wrapping: INT64_MAX (or
** UINT64_MAX) never fits a memory and is above every limit, so a saturated
** value is refused by the next comparison, and no operation is undefined. */
static int64_t sat_mul(int64_t a, int64_t b){
  int64_t r;
  if( a < 0 || b < 0 ) return -1;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t sat_add(int64_t a, int64_t b){
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? (a > 0 ? INT64_MAX : INT64_MIN) : r;
}
static uint64_t usat_mul(uint64_t a, uint64_t b){
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t usat_add(uint64_t a, uint64_t b){
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
/* for a >= 0, b > 0; 0 otherwise (never overflows) */
static int64_t ceil_div(int64_t a, int64_t b){ return b > 0 && a > 0 ? a / b + (a % b != 0) : 0; }
static int64_t align_up(int64_t a, int64_t b){ return b > 0 ? sat_mul(ceil_div(a, b), b) : a; }
static uint64_t ualign_up(uint64_t a, uint64_t b){ return b > 0 ? usat_mul(a / b + (a % b != 0), b) : a; }
static int64_t min64(int64_t a, int64_t b){ return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b){ return a > b ? a : b; }

/* the product of dims: -1 when one is negative, INT64_MAX when it overflows */
static int64_t volume(const int64_t *d, uint32_t n){
  int64_t v = 1;
  uint32_t i;
  for(i = 0; i < n; i++){
    if( d[i] < 0 ) return -1;
    v = sat_mul(v, d[i]);
  }
  return v;
}

static void dims_text(gr_buf *b, const int64_t *d, uint32_t n){
  uint32_t i;
  gr_buf_addc(b, '[');
  for(i = 0; i < n; i++) gr_buf_printf(b, "%s%lld", i ? ", " : "", (long long)d[i]);
  gr_buf_addc(b, ']');
}

/* A dims vector rendered for a message, returned by value: the text lives
** until the end of the full expression that asked for it (C11 6.2.4p8), so
** several may appear in one message and nothing is shared between calls. */
typedef struct dims_txt { char s[160]; } dims_txt;
static dims_txt dims_str(const int64_t *d, uint32_t n){
  dims_txt t;
  gr_buf b;
  gr_buf_init(&b);
  dims_text(&b, d, n);
  snprintf(t.s, sizeof t.s, "%s", gr_buf_cstr(&b));
  gr_buf_free(&b);
  return t;
}

/* ------------------------------------------------------------------ rules */

static const gr_table *find_table(const gr_ruleset *rs, const char *name){
  int i = name ? gr_ruleset_find(&rs->table_map, name) : -1;
  return i >= 0 ? &rs->tables[i] : NULL;
}

static const gr_expr *tget(const gr_table *t, const char *key){
  void *v;
  if( t==NULL || !t->is_map || key==NULL ) return NULL;
  v = gr_map_get(&t->keymap, key);
  return v ? t->vals[(intptr_t)v - 1] : NULL;
}
static const char *tstr(const gr_table *t, const char *key){
  const gr_expr *e = tget(t, key);
  return e && e->op==GR_E_STR ? e->s : NULL;
}
static int tint(const gr_table *t, const char *key, int64_t *out){
  const gr_expr *e = tget(t, key);
  if( e==NULL || e->op!=GR_E_INT ) return 0;
  *out = e->i;
  return 1;
}

int gr_tiling_rules_init(gr_tiling_rules *tr, const gr_ruleset *rs, gr_error *err){
  static const char *const mem_roles[GR_MEM_N] = { "ub", "l1", "l0a", "l0b", "l0c" };
  static const char *const core_roles[3] = { "cores_vector", "cores_cube", "cores_any" };
  const gr_table *roles = find_table(rs, GR_TILING_ROLES_TABLE);
  const char *s;
  int i;
  memset(tr, 0, sizeof *tr);
  tr->rs = rs;
  tr->slot = -1;
  if( roles==NULL || !roles->is_map ){
    gr_error_set(err, 0, 0, "the rule set has no table '%s' (rules/tiling_classes.rules): no tiling classes", GR_TILING_ROLES_TABLE);
    return -1;
  }
  for(i = 0; i < GR_MEM_N; i++){
    tr->hw_mem[i] = -1;
    if( (s = tstr(roles, mem_roles[i]))==NULL ){
      if( i==GR_MEM_UB ){ gr_error_set(err, 0, 0, "%s has no \"ub\" role", GR_TILING_ROLES_TABLE); return -1; }
      continue;
    }
    if( (tr->hw_mem[i] = gr_ruleset_find(&rs->hw_map, s)) < 0 ){
      gr_error_set(err, 0, 0, "%s maps \"%s\" to '%s', which is not a declared hardware property",
                   GR_TILING_ROLES_TABLE, mem_roles[i], s);
      return -1;
    }
  }
  for(i = 0; i < 3; i++){
    tr->hw_cores[i] = -1;
    if( (s = tstr(roles, core_roles[i]))==NULL ){
      if( i==2 ){ gr_error_set(err, 0, 0, "%s has no \"cores_any\" role", GR_TILING_ROLES_TABLE); return -1; }
      continue;
    }
    if( (tr->hw_cores[i] = gr_ruleset_find(&rs->hw_map, s)) < 0 ){
      gr_error_set(err, 0, 0, "%s maps \"%s\" to '%s', which is not a declared hardware property",
                   GR_TILING_ROLES_TABLE, core_roles[i], s);
      return -1;
    }
  }
  if( (s = tstr(roles, "placement_slot"))!=NULL && (tr->slot = gr_ruleset_find(&rs->slot_map, s)) < 0 ){
    gr_error_set(err, 0, 0, "%s names the placement slot '%s', which is not declared", GR_TILING_ROLES_TABLE, s);
    return -1;
  }
  s = tstr(roles, "class_table");
  if( (tr->classes = find_table(rs, s))==NULL || !tr->classes->is_map ){
    gr_error_set(err, 0, 0, "%s: class_table '%s' is not a map table of the rule set", GR_TILING_ROLES_TABLE, s ? s : "");
    return -1;
  }
  s = tstr(roles, "dtype_table");
  if( (tr->dtypes = find_table(rs, s))==NULL || !tr->dtypes->is_map ){
    gr_error_set(err, 0, 0, "%s: dtype_table '%s' is not a map table of the rule set", GR_TILING_ROLES_TABLE, s ? s : "");
    return -1;
  }
  tr->compute = find_table(rs, tstr(roles, "compute_table"));   /* optional: no --execute kernels */
  tr->params_prefix = tstr(roles, "params_prefix");
  if( tr->params_prefix==NULL ){
    gr_error_set(err, 0, 0, "%s has no \"params_prefix\" role", GR_TILING_ROLES_TABLE);
    return -1;
  }
  tr->custom_class = tstr(roles, "custom_class");
  return 0;
}

const char *gr_tiling_class_of(const gr_tiling_rules *tr, const char *op_type){
  return tstr(tr->classes, op_type);
}

static int need_int(const gr_table *t, const char *cls, const char *key, int64_t lo, int64_t *out, gr_error *err){
  if( !tint(t, key, out) ){
    gr_error_set(err, 0, 0, "class '%s': table %s has no integer \"%s\"", cls, t->name, key);
    return -1;
  }
  if( *out < lo ){
    gr_error_set(err, 0, 0, "class '%s': \"%s\" is %lld, below %lld", cls, key, (long long)*out, (long long)lo);
    return -1;
  }
  return 0;
}
static int need_str(const gr_table *t, const char *cls, const char *key, const char **out, gr_error *err){
  if( (*out = tstr(t, key))==NULL ){
    gr_error_set(err, 0, 0, "class '%s': table %s has no string \"%s\"", cls, t->name, key);
    return -1;
  }
  return 0;
}
static int64_t opt_int(const gr_table *t, const char *key, int64_t dflt){
  int64_t v;
  return tint(t, key, &v) ? v : dflt;
}

int gr_tiling_params(const gr_tiling_rules *tr, const char *cls, gr_tparams *p, gr_error *err){
  char name[256];
  const gr_table *t;
  const char *s;
  int64_t v;
  const gr_expr *e;
  memset(p, 0, sizeof *p);
  p->cls = cls;
  snprintf(name, sizeof name, "%s%s", tr->params_prefix, cls);
  if( (t = find_table(tr->rs, name))==NULL || !t->is_map ){
    gr_error_set(err, 0, 0, "class '%s' has no parameter table '%s'", cls, name);
    return -1;
  }
  if( need_str(t, cls, "strategy", &s, err) ) return -1;
  for(p->strategy = GR_TS_ELEMENTWISE; p->strategy <= GR_TS_CUSTOM; p->strategy++)
    if( strcmp(s, strategy_names[p->strategy])==0 ) break;
  if( p->strategy > GR_TS_CUSTOM ){
    gr_error_set(err, 0, 0, "class '%s': unknown strategy '%s' (elementwise, reduce_last, matmul, attention, custom)", cls, s);
    return -1;
  }
  if( need_str(t, cls, "cores", &s, err) ) return -1;
  if( strcmp(s, "cores_vector")==0 ) p->core_role = 0;
  else if( strcmp(s, "cores_cube")==0 ) p->core_role = 1;
  else if( strcmp(s, "cores_any")==0 ) p->core_role = 2;
  else { gr_error_set(err, 0, 0, "class '%s': \"cores\" is '%s', not a core role (cores_vector, cores_cube, cores_any)", cls, s); return -1; }
  if( need_int(t, cls, "align_bytes", 1, &v, err) ) return -1;
  if( v > 4096 || (v & (v - 1)) ){ gr_error_set(err, 0, 0, "class '%s': align_bytes %lld is not a power of two up to 4096", cls, (long long)v); return -1; }
  p->align = (uint32_t)v;
  p->double_buffer = opt_int(t, "double_buffer", 0) ? 1 : 0;
  p->buffers = (uint32_t)max64(0, min64(64, opt_int(t, "buffers", 0)));
  p->tmp_buffers = (uint32_t)max64(0, min64(4, opt_int(t, "tmp_buffers", 0)));
  p->tmp_elem_bytes = (uint32_t)max64(1, min64(8, opt_int(t, "tmp_elem_bytes", 4)));
  if( (e = tget(t, "resident_inputs"))!=NULL && e->op==GR_E_LIST ){
    const gr_expr *x;
    for(x = e->a; x; x = x->next){
      if( x->op!=GR_E_INT || x->i < 0 || p->nresident >= GR_TMAXIN ){
        gr_error_set(err, 0, 0, "class '%s': resident_inputs must list up to %d input indexes", cls, GR_TMAXIN);
        return -1;
      }
      p->resident[p->nresident++] = x->i;
    }
  }
  p->attr_axes = tstr(t, "attr_axes");
  p->attr_eps = tstr(t, "attr_epsilon");
  switch( p->strategy ){
    case GR_TS_ELEMENTWISE:
      if( need_int(t, cls, "buffers", 2, &v, err) ) return -1;
      break;
    case GR_TS_REDUCE_LAST:
      if( need_int(t, cls, "buffers", 2, &v, err) ) return -1;
      break;
    case GR_TS_MATMUL:
    case GR_TS_ATTENTION:
      if( need_int(t, cls, "block_unit", 1, &v, err) ) return -1;
      p->unit = (uint32_t)v;
      if( need_int(t, cls, "acc_bytes", 1, &v, err) ) return -1;
      p->acc_bytes = (uint32_t)v;
      if( need_int(t, cls, "mac_per_cycle", 1, &v, err) ) return -1;
      p->mac_per_cycle = (double)v;
      if( need_int(t, cls, "gm_bytes_per_cycle", 1, &v, err) ) return -1;
      p->gm_bytes_per_cycle = (double)v;
      if( p->strategy==GR_TS_MATMUL ){
        if( need_int(t, cls, "k_unit_bytes", 1, &v, err) ) return -1;
        p->k_unit_bytes = (uint32_t)v;
        if( need_int(t, cls, "max_block_m", p->unit, &p->max_m, err) ) return -1;
        if( need_int(t, cls, "max_block_n", p->unit, &p->max_n, err) ) return -1;
        if( need_int(t, cls, "max_block_k", 1, &p->max_k, err) ) return -1;
        if( need_int(t, cls, "input_a", 0, &p->in_a, err) ) return -1;
        if( need_int(t, cls, "input_b", 0, &p->in_b, err) ) return -1;
        p->attr_ta = tstr(t, "attr_transpose_a");
        p->attr_tb = tstr(t, "attr_transpose_b");
        p->l0c_double_buffer = opt_int(t, "l0c_double_buffer", 0) ? 1 : 0;
        p->ub_out = opt_int(t, "ub_out", 0) ? 1 : 0;
      }else{
        if( need_int(t, cls, "max_block_q", p->unit, &p->max_q, err) ) return -1;
        if( need_int(t, cls, "max_block_kv", p->unit, &p->max_kv, err) ) return -1;
        if( need_int(t, cls, "input_q", 0, &p->in_q, err) ) return -1;
        if( need_int(t, cls, "input_k", 0, &p->in_k, err) ) return -1;
        if( need_int(t, cls, "input_v", 0, &p->in_v, err) ) return -1;
        if( need_str(t, cls, "attr_heads", &p->attr_heads, err) ) return -1;
        p->attr_kv_heads = tstr(t, "attr_kv_heads");
        p->attr_layout = tstr(t, "attr_layout");
        p->attr_scale = tstr(t, "attr_scale");
        p->default_layout = tstr(t, "default_layout");
      }
      break;
    default: break;
  }
  return 0;
}

int gr_tiling_chip(const gr_tiling_rules *tr, int soc, gr_tchip *chip){
  const gr_soc *s;
  int i;
  memset(chip, 0, sizeof *chip);
  if( soc < 0 || (size_t)soc >= tr->rs->nsocs ) return -1;
  s = &tr->rs->socs[soc];
  chip->soc = s->name;
  for(i = 0; i < GR_MEM_N; i++) chip->cap[i] = tr->hw_mem[i] >= 0 && s->hw[tr->hw_mem[i]] > 0 ? (uint64_t)s->hw[tr->hw_mem[i]] : 0;
  for(i = 0; i < 3; i++) chip->cores[i] = tr->hw_cores[i] >= 0 && s->hw[tr->hw_cores[i]] > 0 ? (uint32_t)s->hw[tr->hw_cores[i]] : 0;
  return 0;
}

uint32_t gr_tchip_cores(const gr_tchip *chip, const gr_tparams *p){
  uint32_t c = chip->cores[p->core_role < 3 ? p->core_role : 2];
  return c ? c : chip->cores[2];
}

/* ------------------------------------------------------------------ node -> spec */

static const int64_t *tensor_dims(const gr_graph *g, const gr_tensor *t, uint32_t *nd){
  static const int64_t one = 1;
  const int64_t *d = gr_graph_shape(g, t->shape, nd);
  if( *nd==0 ){ *nd = 1; return &one; }    /* a scalar is one element */
  return d;
}

static int tensor_fmt(const gr_tiling_rules *tr, const gr_graph *g, const gr_tensor *t, const char *what, gr_diags *notes){
  const char *dt = gr_graph_dtype_name(g, t->dtype);
  const char *f = tstr(tr->dtypes, dt);
  int fmt = gr_tfmt_parse(f);
  if( fmt==GR_FMT_NONE ){
    if( f ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "%s has dtype %s, which %s maps to the unknown format '%s'", what, dt, tr->dtypes->name, f);
    else gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has dtype '%s', which %s does not list", what, *dt ? dt : "(none)", tr->dtypes->name);
  }
  return fmt;
}

static int static_dims(const int64_t *d, uint32_t nd, const char *what, gr_diags *notes){
  uint32_t i;
  for(i = 0; i < nd; i++) if( d[i] < 0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has the dynamic shape %s: a plan needs static shapes (its tiling runs on the host at run time)",
                  what, dims_str(d, nd).s);
    return -1;
  }
  if( nd > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has %u dims, more than the %d supported", what, nd, GR_TMAXDIM);
    return -1;
  }
  return 0;
}

/* ---- what a plan may describe ---- */

static int over_limit(int64_t v){ return v < 0 || v > GR_TMAX_ELEMS; }

/* v: the offending count (INT64_MAX when its computation overflowed) */
static int limit_err(gr_diags *notes, const char *what, int64_t v){
  if( v < 0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is negative", what);
  else if( v==INT64_MAX ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is 2^63 or more (the product overflows 64 bits); a plan describes at most %lld (2^48) elements",
                                 what, (long long)GR_TMAX_ELEMS);
  else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is %lld; a plan describes at most %lld (2^48) elements",
                what, (long long)v, (long long)GR_TMAX_ELEMS);
  return -1;
}

/* a single dim (its value is exact, not a saturated product) */
static int limit_dim(gr_diags *notes, const char *what, int64_t v){
  if( v < 0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is negative", what);
  else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "%s is %lld; a plan describes at most %lld (2^48) elements", what, (long long)v, (long long)GR_TMAX_ELEMS);
  return -1;
}

/* Every dim and every tensor of a spec within GR_TMAX_ELEMS; -1 with a
** "limit" error otherwise. After this, products of two values of a spec fit
** 96 bits, and are computed saturating where they could pass 63. */
static int spec_limits(const gr_tspec *s, gr_diags *notes){
  uint32_t i, d;
  if( s->ndim > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the output has %u dims, more than %d", s->ndim, GR_TMAXDIM);
    return -1;
  }
  for(d = 0; d < s->ndim; d++) if( over_limit(s->out[d]) ) return limit_dim(notes, "a dim of the output", s->out[d]);
  if( over_limit(volume(s->out, s->ndim)) ) return limit_err(notes, "the output's element count", volume(s->out, s->ndim));
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE:
      for(i = 0; i < s->nin && i < GR_TMAXIN; i++){
        if( s->in_ndim[i] > GR_TMAXDIM ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "input %u has %u dims, more than %d", i, s->in_ndim[i], GR_TMAXDIM);
          return -1;
        }
        if( over_limit(volume(s->in[i], s->in_ndim[i])) ) return limit_err(notes, "an input's element count", volume(s->in[i], s->in_ndim[i]));
      }
      break;
    case GR_TS_REDUCE_LAST:
      if( over_limit(s->rows) || over_limit(s->cols) || over_limit(sat_mul(s->rows, s->cols)) )
        return limit_err(notes, "the input's rows x cols", s->rows < 0 || s->cols < 0 ? -1 : sat_mul(s->rows, s->cols));
      break;
    case GR_TS_MATMUL: {
      const int64_t v[6] = { s->batch, s->m, s->n, s->k, s->batch_a, s->batch_b };
      for(i = 0; i < 6; i++) if( over_limit(v[i]) ) return limit_dim(notes, "a dim of batch x M x N x K", v[i]);
      if( over_limit(sat_mul(sat_mul(s->batch, s->m), s->n)) ) return limit_err(notes, "the output's batch x M x N", sat_mul(sat_mul(s->batch, s->m), s->n));
      if( over_limit(sat_mul(sat_mul(s->batch_a, s->m), s->k)) ) return limit_err(notes, "input a's batch x M x K", sat_mul(sat_mul(s->batch_a, s->m), s->k));
      if( over_limit(sat_mul(sat_mul(s->batch_b, s->k), s->n)) ) return limit_err(notes, "input b's batch x K x N", sat_mul(sat_mul(s->batch_b, s->k), s->n));
      break;
    }
    case GR_TS_ATTENTION: {
      const int64_t v[6] = { s->b, s->heads, s->kv_heads, s->sq, s->skv, s->d };
      int64_t q, k;
      for(i = 0; i < 6; i++) if( over_limit(v[i]) ) return limit_dim(notes, "a dim of B x heads x S x D", v[i]);
      q = sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d);
      k = sat_mul(sat_mul(sat_mul(s->b, s->kv_heads), s->skv), s->d);
      if( over_limit(q) ) return limit_err(notes, "the query's element count", q);
      if( over_limit(k) ) return limit_err(notes, "the key's element count", k);
      break;
    }
    default: break;
  }
  return 0;
}

int gr_tspec_check(const gr_tspec *s, gr_diags *notes){ return spec_limits(s, notes); }

static const gr_attr *node_attr(const gr_graph *g, const gr_node *n, const char *key){
  return key ? gr_graph_attr(g, n, key) : NULL;
}
static int attr_bool(const gr_graph *g, const gr_node *n, const char *key, int dflt){
  const gr_attr *a = node_attr(g, n, key);
  if( a && (a->kind==GR_ATTR_B || a->kind==GR_ATTR_I) ) return a->u.i != 0;
  return dflt;
}
static int attr_int(const gr_graph *g, const gr_node *n, const char *key, int64_t *out){
  const gr_attr *a = node_attr(g, n, key);
  if( a && a->kind==GR_ATTR_I ){ *out = a->u.i; return 1; }
  return 0;
}
static int attr_float(const gr_graph *g, const gr_node *n, const char *key, double *out){
  const gr_attr *a = node_attr(g, n, key);
  if( a==NULL ) return 0;
  if( a->kind==GR_ATTR_F ){ *out = a->u.f; return 1; }
  if( a->kind==GR_ATTR_I ){ *out = (double)a->u.i; return 1; }
  if( a->kind==GR_ATTR_S ){
    char *end;
    const char *s = gr_graph_str(g, a->u.str);
    double v = strtod(s, &end);
    if( end!=s && *end==0 ){ *out = v; return 1; }
  }
  return 0;
}

static int spec_elementwise(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                            gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d;
  uint32_t nd, i, j;
  char what[64];
  if( n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no output descriptor"); return -1; }
  if( n->n_in_desc < 1 || n->n_in_desc > GR_TMAXIN ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has %u input descriptors (1 to %d supported)", n->n_in_desc, GR_TMAXIN);
    return -1;
  }
  if( (uint32_t)n->n_in_desc + 1 != p->buffers ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s moves %u tile buffers per tile (inputs + 1 output) but the node has %u input%s",
                  p->cls, p->buffers, n->n_in_desc, n->n_in_desc==1 ? "" : "s");
    return -1;
  }
  d = tensor_dims(g, &t[n->n_in_desc], &nd);
  if( static_dims(d, nd, "output 0", notes) ) return -1;
  s->ndim = nd;
  memcpy(s->out, d, nd * sizeof *d);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->nin = n->n_in_desc;
  for(i = 0; i < s->nin; i++){
    snprintf(what, sizeof what, "input %u", i);
    d = tensor_dims(g, &t[i], &nd);
    if( static_dims(d, nd, what, notes) ) return -1;
    if( nd > s->ndim ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %u %s has more dims than the output %s", i, dims_str(d, nd).s, dims_str(s->out, s->ndim).s);
      return -1;
    }
    for(j = 0; j < nd; j++){
      int64_t od = s->out[s->ndim - nd + j];
      if( d[j] != od && d[j] != 1 ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %u %s does not broadcast to the output %s", i, dims_str(d, nd).s, dims_str(s->out, s->ndim).s);
        return -1;
      }
    }
    s->in_ndim[i] = nd;
    memcpy(s->in[i], d, nd * sizeof *d);
    s->fin[i] = (uint8_t)tensor_fmt(tr, g, &t[i], what, notes);
  }
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

static int spec_reduce(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                       gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d, *y;
  uint32_t nd, ny, i;
  const gr_attr *a;
  char what[64];
  if( n->n_in_desc < 1 || n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node needs an input and an output descriptor"); return -1; }
  d = tensor_dims(g, &t[0], &nd);
  if( static_dims(d, nd, "input 0", notes) ) return -1;
  y = tensor_dims(g, &t[n->n_in_desc], &ny);
  if( static_dims(y, ny, "output 0", notes) ) return -1;
  if( volume(d, nd) != volume(y, ny) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output 0 %s does not have the shape of input 0 %s", dims_str(y, ny).s, dims_str(d, nd).s);
    return -1;
  }
  if( p->attr_axes && (a = gr_graph_attr(g, n, p->attr_axes))!=NULL ){
    if( a->kind==GR_ATTR_LIST_I ){
      const int64_t *ax = gr_graph_list_i64(g, a->u.list);
      if( a->n != 1 || (ax[0] != -1 && ax[0] != (int64_t)nd - 1) ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node reduces over %s=%s; the reduce_last strategy handles only the last axis",
                      p->attr_axes, a->n ? dims_str(ax, a->n).s : "[]");
        return -1;
      }
    }else if( a->kind==GR_ATTR_I && a->u.i != -1 && a->u.i != (int64_t)nd - 1 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node reduces over %s=%lld; only the last axis is handled", p->attr_axes, (long long)a->u.i);
      return -1;
    }
  }
  s->cols = d[nd - 1];
  s->rows = volume(d, nd - 1);
  s->ndim = nd;
  memcpy(s->out, d, nd * sizeof *d);
  s->nin = 1;
  s->in_ndim[0] = nd;
  memcpy(s->in[0], d, nd * sizeof *d);
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[0], "input 0", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  for(i = 0; i < p->nresident; i++){
    int64_t ri = p->resident[i];
    const int64_t *rd;
    uint32_t rn;
    snprintf(what, sizeof what, "input %lld", (long long)ri);
    if( ri >= n->n_in_desc ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s keeps input %lld resident but the node has %u inputs", p->cls, (long long)ri, n->n_in_desc);
      return -1;
    }
    rd = tensor_dims(g, &t[ri], &rn);
    if( static_dims(rd, rn, what, notes) ) return -1;
    if( volume(rd, rn) != s->cols ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %lld %s should hold one value per element of the last axis (%lld)",
                    (long long)ri, dims_str(rd, rn).s, (long long)s->cols);
      return -1;
    }
    s->fres[s->nres++] = (uint8_t)tensor_fmt(tr, g, &t[ri], what, notes);
  }
  for(i = 1; i < n->n_out_desc && s->nstat < GR_TMAXIN; i++){
    const int64_t *sd;
    uint32_t sn;
    snprintf(what, sizeof what, "output %u", i);
    sd = tensor_dims(g, &t[n->n_in_desc + i], &sn);
    if( static_dims(sd, sn, what, notes) ) return -1;
    if( volume(sd, sn) != s->rows ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %u %s should hold one value per row (%lld rows)", i, dims_str(sd, sn).s, (long long)s->rows);
      return -1;
    }
    s->fstat[s->nstat++] = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc + i], what, notes);
  }
  s->eps = 1e-6;
  if( p->attr_eps ) attr_float(g, n, p->attr_eps, &s->eps);
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

static int spec_matmul(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                       gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *a, *b, *c;
  uint32_t na, nb, nc, i;
  int64_t k2, lead_a, lead_b;
  if( p->in_a >= n->n_in_desc || p->in_b >= n->n_in_desc || n->n_out_desc < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s reads inputs %lld and %lld, but the node has %u input descriptors",
                  p->cls, (long long)p->in_a, (long long)p->in_b, n->n_in_desc);
    return -1;
  }
  a = tensor_dims(g, &t[p->in_a], &na);
  b = tensor_dims(g, &t[p->in_b], &nb);
  c = tensor_dims(g, &t[n->n_in_desc], &nc);
  if( static_dims(a, na, "input a", notes) || static_dims(b, nb, "input b", notes) || static_dims(c, nc, "output 0", notes) ) return -1;
  if( na < 2 || nb < 2 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "matrix inputs need 2 dims or more, got %s and %s", dims_str(a, na).s, dims_str(b, nb).s);
    return -1;
  }
  s->trans_a = attr_bool(g, n, p->attr_ta, 0);
  s->trans_b = attr_bool(g, n, p->attr_tb, 0);
  s->m = s->trans_a ? a[na - 1] : a[na - 2];
  s->k = s->trans_a ? a[na - 2] : a[na - 1];
  k2 = s->trans_b ? b[nb - 1] : b[nb - 2];
  s->n = s->trans_b ? b[nb - 2] : b[nb - 1];
  if( k2 != s->k ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "inner dims differ: a %s%s has K=%lld, b %s%s has K=%lld", dims_str(a, na).s,
                  s->trans_a ? " (transposed)" : "", (long long)s->k, dims_str(b, nb).s, s->trans_b ? " (transposed)" : "", (long long)k2);
    return -1;
  }
  lead_a = volume(a, na - 2);
  lead_b = volume(b, nb - 2);
  if( lead_a < 0 || lead_b < 0 || over_limit(lead_a) || over_limit(lead_b) )
    return limit_err(notes, "the batch (the product of the leading dims)", lead_a < 0 || lead_b < 0 ? -1 : max64(lead_a, lead_b));
  if( nb==2 && !s->trans_a ){          /* fold x1's leading dims into M */
    s->m = sat_mul(s->m, lead_a);
    s->batch = s->batch_a = s->batch_b = 1;
  }else{
    if( nb > 2 && na > 2 && lead_a != lead_b && lead_a != 1 && lead_b != 1 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "batch dims of %s and %s do not broadcast", dims_str(a, na).s, dims_str(b, nb).s);
      return -1;
    }
    s->batch_a = lead_a;
    s->batch_b = lead_b;
    s->batch = max64(lead_a, lead_b);
  }
  if( over_limit(s->m) ) return limit_err(notes, "M", s->m);
  if( over_limit(s->n) ) return limit_dim(notes, "N", s->n);
  if( over_limit(s->k) ) return limit_dim(notes, "the inner dim K", s->k);
  if( over_limit(sat_mul(sat_mul(s->batch, s->m), s->n)) )
    return limit_err(notes, "the output (batch x M x N)", sat_mul(sat_mul(s->batch, s->m), s->n));
  if( volume(c, nc) != s->batch * s->m * s->n ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %s does not hold batch x M x N = %lld x %lld x %lld elements",
                  dims_str(c, nc).s, (long long)s->batch, (long long)s->m, (long long)s->n);
    return -1;
  }
  s->nin = 2;
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[p->in_a], "input a", notes);
  s->fin[1] = (uint8_t)tensor_fmt(tr, g, &t[p->in_b], "input b", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->ndim = 3;
  s->out[0] = s->batch; s->out[1] = s->m; s->out[2] = s->n;
  for(i = 0; i < 2; i++) s->in_ndim[i] = 0;
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

static int parse_layout(const char *l){
  if( l==NULL ) return 0;
  if( strcmp(l, "BSH")==0 ) return GR_LAYOUT_BSH;
  if( strcmp(l, "BNSD")==0 ) return GR_LAYOUT_BNSD;
  if( strcmp(l, "BSND")==0 ) return GR_LAYOUT_BSND;
  return 0;
}

static int spec_attention(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                          gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *q, *k, *v, *o;
  uint32_t nq, nk, nv, no;
  const char *lname = p->default_layout;
  const gr_attr *la;
  int64_t kvh = 0;
  if( p->in_q >= n->n_in_desc || p->in_k >= n->n_in_desc || p->in_v >= n->n_in_desc || n->n_out_desc < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s reads query/key/value inputs %lld/%lld/%lld, but the node has %u input descriptors",
                  p->cls, (long long)p->in_q, (long long)p->in_k, (long long)p->in_v, n->n_in_desc);
    return -1;
  }
  q = tensor_dims(g, &t[p->in_q], &nq);
  k = tensor_dims(g, &t[p->in_k], &nk);
  v = tensor_dims(g, &t[p->in_v], &nv);
  o = tensor_dims(g, &t[n->n_in_desc], &no);
  if( static_dims(q, nq, "query", notes) || static_dims(k, nk, "key", notes) || static_dims(v, nv, "value", notes)
      || static_dims(o, no, "output 0", notes) ) return -1;
  if( !attr_int(g, n, p->attr_heads, &s->heads) || s->heads < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no positive integer attribute %s", p->attr_heads);
    return -1;
  }
  if( p->attr_kv_heads ) attr_int(g, n, p->attr_kv_heads, &kvh);
  s->kv_heads = kvh > 0 ? kvh : s->heads;
  if( p->attr_layout && (la = gr_graph_attr(g, n, p->attr_layout))!=NULL && la->kind==GR_ATTR_S )
    lname = gr_graph_str(g, la->u.str);
  if( (s->layout = parse_layout(lname))==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input layout '%s' is not handled (BSH, BNSD, BSND)", lname ? lname : "(none)");
    return -1;
  }
  if( s->heads % s->kv_heads ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%lld heads are not a multiple of %lld key/value heads", (long long)s->heads, (long long)s->kv_heads);
    return -1;
  }
  if( s->layout==GR_LAYOUT_BSH ){
    if( nq != 3 || nk != 3 || nv != 3 ) goto bad_rank;
    if( q[2] % s->heads ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "hidden size %lld is not a multiple of %lld heads", (long long)q[2], (long long)s->heads);
      return -1;
    }
    s->b = q[0]; s->sq = q[1]; s->d = q[2] / s->heads; s->skv = k[1];
    if( k[0] != s->b || k[2] != sat_mul(s->kv_heads, s->d) || v[0] != s->b || v[1] != s->skv || v[2] != k[2] ) goto bad_kv;
  }else{
    int bn = s->layout==GR_LAYOUT_BNSD;
    if( nq != 4 || nk != 4 || nv != 4 ) goto bad_rank;
    s->b = q[0]; s->sq = bn ? q[2] : q[1]; s->d = q[3]; s->skv = bn ? k[2] : k[1];
    if( (bn ? q[1] : q[2]) != s->heads ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "query %s does not have %lld heads", dims_str(q, nq).s, (long long)s->heads);
      return -1;
    }
    if( k[0] != s->b || (bn ? k[1] : k[2]) != s->kv_heads || k[3] != s->d || memcmp(k, v, 4 * sizeof *k) ) goto bad_kv;
  }
  if( over_limit(sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d)) )
    return limit_err(notes, "the query's element count", sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d));
  if( volume(o, no) != s->b * s->heads * s->sq * s->d ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %s does not have the query's %lld elements", dims_str(o, no).s,
                  (long long)(s->b * s->heads * s->sq * s->d));
    return -1;
  }
  s->scale = 1.0 / sqrt((double)s->d);
  if( p->attr_scale ) attr_float(g, n, p->attr_scale, &s->scale);
  s->nin = 3;
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[p->in_q], "query", notes);
  s->fin[1] = (uint8_t)tensor_fmt(tr, g, &t[p->in_k], "key", notes);
  s->fin[2] = (uint8_t)tensor_fmt(tr, g, &t[p->in_v], "value", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->ndim = 4;
  s->out[0] = s->b; s->out[1] = s->heads; s->out[2] = s->sq; s->out[3] = s->d;
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
bad_rank:
  gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "query %s, key %s, value %s do not have the rank of layout %s",
                dims_str(q, nq).s, dims_str(k, nk).s, dims_str(v, nv).s, lname);
  return -1;
bad_kv:
  gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "key %s / value %s do not match query %s with %lld heads and %lld key/value heads",
                dims_str(k, nk).s, dims_str(v, nv).s, dims_str(q, nq).s, (long long)s->heads, (long long)s->kv_heads);
  return -1;
}

int gr_tiling_spec_custom(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node, gr_tspec *spec, gr_diags *notes){
  const gr_node *n = &gr_graph_nodes(g)[node];
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d;
  uint32_t nd;
  size_t before = notes->count[GR_SEV_ERROR];
  spec->strategy = GR_TS_CUSTOM;
  if( n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no output descriptor"); return -1; }
  d = tensor_dims(g, &t[n->n_in_desc], &nd);
  if( static_dims(d, nd, "output 0", notes) ) return -1;
  spec->ndim = nd;
  memcpy(spec->out, d, nd * sizeof *d);
  spec->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  if( notes->count[GR_SEV_ERROR] > before ) return -1;
  return spec_limits(spec, notes);
}

int gr_tiling_spec(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node,
                   gr_tparams *params, gr_tspec *spec, gr_diags *notes){
  const gr_node *n = &gr_graph_nodes(g)[node];
  const char *type = gr_graph_type_name(g, n->type);
  const char *cls = gr_tiling_class_of(tr, type);
  gr_error err;
  int rc = 0;
  memset(spec, 0, sizeof *spec);
  memset(params, 0, sizeof *params);
  if( cls==NULL ) return GR_TS_NONE;
  memset(&err, 0, sizeof err);
  if( gr_tiling_params(tr, cls, params, &err) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "%s", err.msg);
    return GR_TS_NONE;
  }
  spec->strategy = params->strategy;
  spec->kernel = tr->compute ? gr_tkernel_parse(tstr(tr->compute, type)) : GR_K_NONE;
  switch( params->strategy ){
    case GR_TS_ELEMENTWISE: rc = spec_elementwise(tr, g, n, params, spec, notes); break;
    case GR_TS_REDUCE_LAST: rc = spec_reduce(tr, g, n, params, spec, notes); break;
    case GR_TS_MATMUL: rc = spec_matmul(tr, g, n, params, spec, notes); break;
    case GR_TS_ATTENTION: rc = spec_attention(tr, g, n, params, spec, notes); break;
    default:
      rc = gr_tiling_spec_custom(tr, g, node, spec, notes);
  }
  if( rc==0 ) rc = spec_limits(spec, notes);
  if( rc==0 && spec->kernel != GR_K_NONE && gr_tkernel_arity(spec->kernel) && params->strategy==GR_TS_ELEMENTWISE
      && (uint32_t)gr_tkernel_arity(spec->kernel) != spec->nin ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "kernel %s takes %d input%s but the node has %u", gr_tkernel_name(spec->kernel),
                  gr_tkernel_arity(spec->kernel), gr_tkernel_arity(spec->kernel)==1 ? "" : "s", spec->nin);
  }
  return params->strategy;
}

/* ------------------------------------------------------------------ layout */

typedef struct lay { gr_tbuf *buf; size_t n; uint64_t *used; int fail; } lay;

/* "in0", "tmp3"...: a buffer name with its number, without snprintf (hot) */
static void numbered(char *out, size_t n, const char *prefix, uint32_t i){
  size_t k = 0;
  char digits[12];
  int d = 0;
  while( prefix[k] && k + 1 < n ){ out[k] = prefix[k]; k++; }
  do{ digits[d++] = (char)('0' + i % 10); i /= 10; }while( i && d < 11 );
  while( d > 0 && k + 1 < n ) out[k++] = digits[--d];
  out[k] = 0;
}

static void lay_add(lay *l, const char *name, int level, uint64_t bytes, int copies, uint32_t align){
  gr_tbuf *b;
  if( l->n >= GR_TMAXBUF ){ l->fail = 1; return; }
  b = &l->buf[l->n++];
  memset(b, 0, sizeof *b);
  {
    /* a plain bounded copy: layouts are rebuilt thousands of times per node
    ** during the block search, where snprintf dominated the run time */
    size_t k = 0;
    while( name[k] && k + 1 < sizeof b->name ){ b->name[k] = name[k]; k++; }
  }
  b->level = (uint8_t)level;
  b->copies = (uint8_t)copies;
  b->bytes = ualign_up(bytes, align);
  b->offset = l->used[level];
  l->used[level] = usat_add(l->used[level], usat_mul(b->bytes, (uint64_t)copies));
  if( b->bytes==UINT64_MAX || l->used[level]==UINT64_MAX ) l->fail = 1;    /* sizes beyond 64 bits */
}

/* products of tile dims and element widths, saturating (a saturated size fails the layout) */
#define M2(a, b) usat_mul((uint64_t)(a), (uint64_t)(b))
#define M3(a, b, c) usat_mul(M2(a, b), (uint64_t)(c))

int gr_tiling_layout(const gr_tspec *s, const gr_tparams *p, const int64_t *tile, const int64_t *inner,
                     gr_tbuf *buf, size_t *nbuf, uint64_t *used){
  lay l;
  uint32_t i, al = p->align ? p->align : 1;
  int db = p->double_buffer ? 2 : 1;
  char nm[16];
  l.buf = buf; l.n = 0; l.used = used; l.fail = 0;
  uint32_t tnd = s->strategy==GR_TS_ELEMENTWISE ? 1 : s->strategy==GR_TS_REDUCE_LAST ? 2
               : s->strategy==GR_TS_MATMUL ? 3 : s->strategy==GR_TS_ATTENTION ? 4 : s->ndim;
  memset(used, 0, GR_MEM_N * sizeof *used);
  *nbuf = 0;
  for(i = 0; i < tnd && i < GR_TMAXDIM; i++) if( tile[i] <= 0 ) return -1;
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE: {
      uint64_t te = (uint64_t)tile[0];
      for(i = 0; i < s->nin; i++){
        numbered(nm, sizeof nm, "in", i);
        lay_add(&l, nm, GR_MEM_UB, M2(te, gr_tfmt_bytes(s->fin[i])), db, al);
      }
      lay_add(&l, "out", GR_MEM_UB, M2(te, gr_tfmt_bytes(s->fout)), db, al);
      for(i = 0; i < p->tmp_buffers; i++){
        numbered(nm, sizeof nm, "tmp", i);
        lay_add(&l, nm, GR_MEM_UB, M2(te, p->tmp_elem_bytes), 1, al);
      }
      break;
    }
    case GR_TS_REDUCE_LAST: {
      uint64_t rt = (uint64_t)tile[0], dc = (uint64_t)tile[1];
      lay_add(&l, "x", GR_MEM_UB, M2(rt, ualign_up(M2(dc, gr_tfmt_bytes(s->fin[0])), al)), db, al);
      lay_add(&l, "y", GR_MEM_UB, M2(rt, ualign_up(M2(dc, gr_tfmt_bytes(s->fout)), al)), db, al);
      for(i = 0; i < p->tmp_buffers; i++){
        numbered(nm, sizeof nm, "tmp", i);
        lay_add(&l, nm, GR_MEM_UB, M2(rt, ualign_up(M2(dc, p->tmp_elem_bytes), al)), 1, al);
      }
      for(i = 0; i < s->nres; i++){
        numbered(nm, sizeof nm, "res", i);
        lay_add(&l, nm, GR_MEM_UB, M2(dc, gr_tfmt_bytes(s->fres[i])), 1, al);
      }
      for(i = 0; i < s->nstat; i++){
        numbered(nm, sizeof nm, "stat", i);
        lay_add(&l, nm, GR_MEM_UB, M2(rt, gr_tfmt_bytes(s->fstat[i])), 1, al);
      }
      lay_add(&l, "acc", GR_MEM_UB, M2(rt, 8), 1, al);    /* two FP32 running values per row */
      break;
    }
    case GR_TS_MATMUL: {
      uint64_t bm = (uint64_t)tile[1], bn = (uint64_t)tile[2];
      uint64_t ea = (uint64_t)gr_tfmt_bytes(s->fin[0]), eb = (uint64_t)gr_tfmt_bytes(s->fin[1]), bk, bk1;
      if( inner[0] <= 0 || inner[1] <= 0 || inner[1] % inner[0] ) return -1;
      bk = (uint64_t)inner[0]; bk1 = (uint64_t)inner[1];
      lay_add(&l, "a1", GR_MEM_L1, M3(bm, bk1, ea), db, al);
      lay_add(&l, "b1", GR_MEM_L1, M3(bk1, bn, eb), db, al);
      lay_add(&l, "a0", GR_MEM_L0A, M3(bm, bk, ea), db, al);
      lay_add(&l, "b0", GR_MEM_L0B, M3(bk, bn, eb), db, al);
      lay_add(&l, "c0", GR_MEM_L0C, M3(bm, bn, p->acc_bytes), p->l0c_double_buffer ? 2 : 1, al);
      if( p->ub_out ) lay_add(&l, "c", GR_MEM_UB, M3(bm, bn, gr_tfmt_bytes(s->fout)), db, al);
      break;
    }
    case GR_TS_ATTENTION: {
      uint64_t sq = (uint64_t)tile[2], dp = (uint64_t)align_up(tile[3], p->unit ? p->unit : 1), skv;
      uint64_t eq = (uint64_t)gr_tfmt_bytes(s->fin[0]), ek = (uint64_t)gr_tfmt_bytes(s->fin[1]);
      uint64_t ev = (uint64_t)gr_tfmt_bytes(s->fin[2]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
      uint64_t ekv = ek > ev ? ek : ev, sqdp, sqkv;
      if( inner[0] <= 0 ) return -1;
      skv = (uint64_t)inner[0];
      sqdp = M2(sq, dp); sqkv = M2(sq, skv);
      lay_add(&l, "q1", GR_MEM_L1, M2(sqdp, eq), 1, al);
      lay_add(&l, "k1", GR_MEM_L1, M3(skv, dp, ek), db, al);
      lay_add(&l, "v1", GR_MEM_L1, M3(skv, dp, ev), db, al);
      lay_add(&l, "a0", GR_MEM_L0A, M2(sqdp > sqkv ? sqdp : sqkv, eq), db, al);
      lay_add(&l, "b0", GR_MEM_L0B, M3(skv, dp, ekv), db, al);
      lay_add(&l, "c0", GR_MEM_L0C, M2(sqkv > sqdp ? sqkv : sqdp, p->acc_bytes), 1, al);
      lay_add(&l, "s", GR_MEM_UB, M2(sqkv, p->acc_bytes), 1, al);
      lay_add(&l, "p", GR_MEM_UB, M2(sqkv, eq), 1, al);
      lay_add(&l, "acc", GR_MEM_UB, M2(sqdp, p->acc_bytes), 1, al);
      lay_add(&l, "ml", GR_MEM_UB, M3(sq, 2, p->acc_bytes), 1, al);
      lay_add(&l, "o", GR_MEM_UB, M2(sqdp, eo), db, al);
      break;
    }
    case GR_TS_CUSTOM: {
      int64_t v = volume(tile, s->ndim);
      if( v <= 0 || v==INT64_MAX ) return -1;
      for(i = 0; i < p->buffers && i < GR_TMAXBUF; i++){
        numbered(nm, sizeof nm, "buf", i);
        lay_add(&l, nm, GR_MEM_UB, M2(v, gr_tfmt_bytes(s->fout)), db, al);
      }
      break;
    }
    default:
      return -1;
  }
  *nbuf = l.n;
  return l.fail ? -1 : 0;
}
#undef M2
#undef M3

/* ------------------------------------------------------------------ plan building */

typedef struct tb {
  gr_tplan *p;
  size_t cap;
  int over;                   /* more tiles than a plan may enumerate */
  uint64_t need;              /* ... how many */
} tb;

static void tb_add(tb *t, const int64_t *off, const int64_t *len, uint32_t core){
  gr_tplan *p = t->p;
  if( p->ntiles >= MAX_TILES ){ t->over = 1; return; }
  if( p->ntiles == t->cap ){
    t->cap = t->cap ? 2 * t->cap : 64;
    p->off = gr_xrealloc(p->off, t->cap * p->ndim * sizeof *p->off);
    p->len = gr_xrealloc(p->len, t->cap * p->ndim * sizeof *p->len);
    p->core = gr_xrealloc(p->core, t->cap * sizeof *p->core);
  }
  memcpy(p->off + p->ntiles * p->ndim, off, p->ndim * sizeof *off);
  memcpy(p->len + p->ntiles * p->ndim, len, p->ndim * sizeof *len);
  p->core[p->ntiles++] = core;
}

/* Tiles are counted before they are enumerated: a plan that would need more
** than MAX_TILES is refused at once (no loop runs over a huge count). */
static int tb_count(tb *t, uint64_t n){
  if( n <= MAX_TILES ) return 0;
  t->over = 1;
  t->need = n;
  return -1;
}

/* The balance the validator asks for: every core of block_dim has a tile,
** and the busiest and the least busy core differ by at most the largest tile.
** The strategies assign tiles the way kernels do (contiguous runs per core,
** or round robin); when that leaves the cores further apart (a short last
** run, tails piling up on a few cores), the tiles are reassigned in order by
** list scheduling: each to the least loaded core so far, the lowest on ties.
** That keeps the spread within the largest tile at every step (a tile lands
** on the least loaded core, so the new maximum is at most the old minimum
** plus one tile), and with at least block_dim tiles no core is idle, so a
** planned plan never fails its own balance check. */
static void rebalance(gr_tplan *p){
  uint64_t *load, maxl = 0, minl = UINT64_MAX, maxvol = 0;
  size_t *ntl, t;
  uint32_t c, d, idle = 0;
  if( p->block_dim==0 || p->ntiles==0 ) return;
  load = gr_xcalloc(p->block_dim, sizeof *load);
  ntl = gr_xcalloc(p->block_dim, sizeof *ntl);
  for(t = 0; t < p->ntiles; t++){
    uint64_t v = 1;
    for(d = 0; d < p->ndim; d++) v = usat_mul(v, (uint64_t)p->len[t * p->ndim + d]);
    if( v > maxvol ) maxvol = v;
    if( p->core[t] < p->block_dim ){ load[p->core[t]] = usat_add(load[p->core[t]], v); ntl[p->core[t]]++; }
  }
  for(c = 0; c < p->block_dim; c++){
    if( ntl[c]==0 ) idle++;
    if( load[c] > maxl ) maxl = load[c];
    if( load[c] < minl ) minl = load[c];
  }
  if( idle || maxl > usat_add(minl, maxvol) ){
    memset(load, 0, p->block_dim * sizeof *load);
    for(t = 0; t < p->ntiles; t++){
      uint64_t v = 1;
      uint32_t best = 0;
      for(d = 0; d < p->ndim; d++) v = usat_mul(v, (uint64_t)p->len[t * p->ndim + d]);
      for(c = 1; c < p->block_dim; c++) if( load[c] < load[best] ) best = c;
      load[best] = usat_add(load[best], v);
      p->core[t] = best;
    }
  }
  free(load);
  free(ntl);
}

/* loops per core and tails, from the tile list (the planner states them) */
static void plan_counts(gr_tplan *p){
  uint64_t *per = gr_xcalloc(p->block_dim ? p->block_dim : 1, sizeof *per);
  size_t i;
  uint32_t d;
  p->loops_per_core = 0;
  p->tail_tiles = 0;
  for(i = 0; i < p->ntiles; i++){
    if( p->core[i] < p->block_dim && ++per[p->core[i]] > p->loops_per_core ) p->loops_per_core = per[p->core[i]];
    for(d = 0; d < p->ndim; d++) if( p->len[i * p->ndim + d] < min64(p->tile[d], p->shape[d]) ){ p->tail_tiles++; break; }
  }
  free(per);
}

static int finish(gr_tplan *p, const gr_tspec *s, const gr_tparams *prm, tb *t, gr_diags *notes){
  if( t->over ){
    if( t->need ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan of tile %s over %s needs %llu tiles, more than the %zu a plan may enumerate; not enumerated",
                           dims_str(p->tile, p->ndim).s, dims_str(p->shape, p->ndim).s, (unsigned long long)t->need, MAX_TILES);
    else gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan needs more than %zu tiles; not enumerated", MAX_TILES);
    gr_tplan_free(p);
    return -1;
  }
  if( gr_tiling_layout(s, prm, p->tile, p->inner, p->buf, &p->nbuf, p->used) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the tile %s cannot be laid out", dims_str(p->tile, p->ndim).s);
    return -1;
  }
  if( p->strategy != GR_TS_CUSTOM ) rebalance(p);
  plan_counts(p);
  return 0;
}

static void plan_init(gr_tplan *p, int strategy, uint32_t ndim, const int64_t *shape){
  memset(p, 0, sizeof *p);
  p->strategy = strategy;
  p->ndim = ndim;
  memcpy(p->shape, shape, ndim * sizeof *shape);
}

/* the tile shape fits every memory level */
static int tile_fits(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, const int64_t *tile, const int64_t *inner){
  gr_tbuf bufs[GR_TMAXBUF];
  size_t nb;
  uint64_t used[GR_MEM_N];
  int i;
  if( gr_tiling_layout(s, prm, tile, inner, bufs, &nb, used) ) return 0;
  for(i = 0; i < GR_MEM_N; i++) if( used[i] > chip->cap[i] ) return 0;
  return 1;
}

/* Element-wise: each core a contiguous run of `chunk` elements (the last
** one shorter), in tiles of `tile`. */
static void enum_elementwise(gr_tplan *p, tb *t, const gr_tspec *s, int64_t total, int64_t tile, int64_t chunk){
  int64_t c, o, bd = ceil_div(total, chunk);
  uint64_t count = 0;
  uint32_t i;
  p->block_dim = (uint32_t)bd;
  for(c = 0; c < bd; c++) count += (uint64_t)ceil_div(min64(total - c * chunk, chunk), tile);
  for(i = 0; i < s->nin; i++) p->bytes_in = usat_add(p->bytes_in, usat_mul((uint64_t)total, (uint64_t)gr_tfmt_bytes(s->fin[i])));
  p->bytes_out = usat_mul((uint64_t)total, (uint64_t)gr_tfmt_bytes(s->fout));
  if( tb_count(t, count) ) return;
  for(c = 0; c < bd; c++){
    int64_t end = min64(total, (c + 1) * chunk);
    for(o = c * chunk; o < end; o += tile){
      int64_t len = min64(tile, end - o);
      tb_add(t, &o, &len, (uint32_t)c);
    }
  }
}

/* the smallest element width of the node's tensors */
static int ew_minb(const gr_tspec *s){
  int minb = gr_tfmt_bytes(s->fout);
  uint32_t i;
  for(i = 0; i < s->nin; i++) if( gr_tfmt_bytes(s->fin[i]) < minb ) minb = gr_tfmt_bytes(s->fin[i]);
  return minb;
}

/* Element-wise: the flattened output is cut into per-core chunks (aligned to
** the UB granularity), each chunk into equal tiles no larger than the UB
** allows (checked against the real layout, padding included). */
static int plan_elementwise(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t total = volume(s->out, s->ndim), unit, per_elem = 0, tile_max, chunk, loops, tile;
  int minb = 8, db = prm->double_buffer ? 2 : 1;
  uint32_t i, cores = gr_tchip_cores(chip, prm);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_ELEMENTWISE, 1, &total);
  for(i = 0; i < s->nin; i++){
    if( gr_tfmt_bytes(s->fin[i]) < minb ) minb = gr_tfmt_bytes(s->fin[i]);
    per_elem += db * gr_tfmt_bytes(s->fin[i]);
  }
  if( gr_tfmt_bytes(s->fout) < minb ) minb = gr_tfmt_bytes(s->fout);
  per_elem += db * gr_tfmt_bytes(s->fout) + (int64_t)prm->tmp_buffers * prm->tmp_elem_bytes;
  if( minb <= 0 || per_elem <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  unit = max64(1, (int64_t)prm->align / minb);
  tile_max = (int64_t)(chip->cap[GR_MEM_UB] / (uint64_t)per_elem) / unit * unit;
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  chunk = total ? align_up(ceil_div(total, cores), unit) : unit;
  tile = tile_max;
  if( tile >= unit ){
    loops = ceil_div(chunk, tile_max);
    tile = min64(tile_max, align_up(ceil_div(chunk, loops), unit));
  }
  /* padding can make the real layout larger than the per-element estimate */
  if( tile < unit || !tile_fits(s, prm, chip, &tile, p->inner) ){
    int64_t lo = 0, hi = max64(1, tile / unit);
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl = mid * unit;
      if( tile_fits(s, prm, chip, &tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    if( lo==0 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one aligned tile of %lld elements (%lld bytes per element over all buffers)",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)unit, (long long)per_elem);
      return -1;
    }
    tile = lo * unit;
  }
  p->tile[0] = tile;
  if( total > 0 ) enum_elementwise(p, &t, s, total, tile, chunk);
  return finish(p, s, prm, &t, notes);
}

/* Last-axis reduction, enumerated: rows over the cores in contiguous blocks
** of rpc rows, each block in tiles of rt rows and dc columns. */
static void enum_reduce(gr_tplan *p, tb *t, const gr_tspec *s, int64_t rt, int64_t dc, int64_t rpc){
  int64_t c, r, col, bd = ceil_div(s->rows, rpc), nch = ceil_div(s->cols, dc);
  uint64_t count = 0;
  uint32_t i;
  p->block_dim = (uint32_t)bd;
  for(c = 0; c < bd; c++) count = usat_add(count, usat_mul((uint64_t)ceil_div(min64(s->rows - c * rpc, rpc), rt), (uint64_t)nch));
  {
    uint64_t n = usat_mul((uint64_t)s->rows, (uint64_t)s->cols), passes = dc < s->cols ? 2 : 1;
    p->bytes_in = usat_mul(usat_mul(n, (uint64_t)gr_tfmt_bytes(s->fin[0])), passes);
    for(i = 0; i < s->nres; i++)
      p->bytes_in = usat_add(p->bytes_in, usat_mul(usat_mul((uint64_t)s->cols, (uint64_t)gr_tfmt_bytes(s->fres[i])), p->block_dim));
    p->bytes_out = usat_mul(n, (uint64_t)gr_tfmt_bytes(s->fout));
    for(i = 0; i < s->nstat; i++) p->bytes_out = usat_add(p->bytes_out, usat_mul((uint64_t)s->rows, (uint64_t)gr_tfmt_bytes(s->fstat[i])));
  }
  if( tb_count(t, count) ) return;
  for(c = 0; c < bd; c++){
    int64_t end = min64(s->rows, (c + 1) * rpc);
    for(r = c * rpc; r < end; r += rt){
      for(col = 0; col < s->cols; col += dc){
        int64_t off[2] = { r, col }, len[2] = { min64(rt, end - r), min64(dc, s->cols - col) };
        tb_add(t, off, len, (uint32_t)c);
      }
    }
  }
}

/* Last-axis reduction: rows over cores in contiguous blocks, each core in
** tiles of whole rows; a row too long for the UB is cut into column chunks. */
static int plan_reduce(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t shape[2] = { s->rows, s->cols }, rt, dc, loops, unit, rpc;
  uint32_t cores = gr_tchip_cores(chip, prm);
  int minb = gr_tfmt_bytes(s->fin[0]);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_REDUCE_LAST, 2, shape);
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  if( gr_tfmt_bytes(s->fout) < minb ) minb = gr_tfmt_bytes(s->fout);
  if( minb <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  unit = max64(1, (int64_t)prm->align / minb);
  if( s->rows==0 || s->cols==0 ){
    /* nothing to compute: the smallest tile, which must still fit */
    p->tile[0] = 1; p->tile[1] = max64(1, min64(s->cols, unit));
    if( !tile_fits(s, prm, chip, p->tile, p->inner) ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one row chunk of %lld elements",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)p->tile[1]);
      return -1;
    }
    return finish(p, s, prm, &t, notes);
  }
  /* the most rows of full length that fit */
  {
    int64_t lo = 0, hi = s->rows;
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl[2] = { mid, s->cols };
      if( tile_fits(s, prm, chip, tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    rt = lo;
  }
  rpc = ceil_div(s->rows, cores);
  if( rt >= 1 ){
    dc = s->cols;
    loops = ceil_div(rpc, rt);
    rt = ceil_div(rpc, loops);
  }else{
    int64_t lo = 0, hi = ceil_div(s->cols, unit);
    while( lo < hi ){
      int64_t mid = lo + (hi - lo + 1) / 2, tl[2] = { 1, mid * unit };
      if( tile_fits(s, prm, chip, tl, p->inner) ) lo = mid; else hi = mid - 1;
    }
    if( lo==0 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the UB of %s (%llu bytes) cannot hold one row chunk of %lld elements",
               chip->soc, (unsigned long long)chip->cap[GR_MEM_UB], (long long)unit);
      return -1;
    }
    rt = 1;
    dc = lo * unit;
    loops = ceil_div(s->cols, dc);
    dc = align_up(ceil_div(s->cols, loops), unit);   /* equal chunks */
  }
  p->tile[0] = rt;
  p->tile[1] = dc;
  enum_reduce(p, &t, s, rt, dc, rpc);
  return finish(p, s, prm, &t, notes);
}

/* matmul tiles: every (batch, M block, N block), round robin over the cores */
static void enum_matmul(gr_tplan *p, tb *t, const gr_tspec *s, uint32_t cores){
  int64_t bm = p->tile[1], bn = p->tile[2], b, mi, ni;
  uint64_t ea = (uint64_t)gr_tfmt_bytes(s->fin[0]), eb = (uint64_t)gr_tfmt_bytes(s->fin[1]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
  uint64_t count = usat_mul(usat_mul((uint64_t)s->batch, (uint64_t)ceil_div(s->m, bm)), (uint64_t)ceil_div(s->n, bn));
  p->block_dim = (uint32_t)(count < cores ? count : cores);
  p->bytes_out = usat_mul(usat_mul(usat_mul((uint64_t)s->batch, (uint64_t)s->m), (uint64_t)s->n), eo);
  if( tb_count(t, count) ) return;
  for(b = 0; b < s->batch; b++)
    for(mi = 0; mi < s->m; mi += bm)
      for(ni = 0; ni < s->n; ni += bn){
        int64_t off[3] = { b, mi, ni }, len[3] = { 1, min64(bm, s->m - mi), min64(bn, s->n - ni) };
        tb_add(t, off, len, (uint32_t)(p->ntiles % p->block_dim));
        p->bytes_in = usat_add(p->bytes_in, usat_add(usat_mul(usat_mul((uint64_t)len[1], (uint64_t)s->k), ea),
                                                     usat_mul(usat_mul((uint64_t)s->k, (uint64_t)len[2]), eb)));
      }
}

/* Matrix multiply: search output blocks (multiples of the cube unit) and K
** blocks that fit L0A/L0B/L0C, L1 and the UB, minimising loops per core x the
** larger of compute and GM traffic per block. */
static int plan_matmul(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t shape[3] = { s->batch, s->m, s->n }, u = prm->unit, ku, kal, bm, bn, bk, best_bm = 0, best_bn = 0, best_bk = 0, best_bk1 = 0;
  int64_t ea = gr_tfmt_bytes(s->fin[0]), eb = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  double best = 0;
  uint32_t cores = gr_tchip_cores(chip, prm);
  gr_tbuf bufs[GR_TMAXBUF];
  size_t nb;
  uint64_t used[GR_MEM_N];
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_MATMUL, 3, shape);
  if( ea <= 0 || eb <= 0 || eo <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  ku = max64(1, (int64_t)prm->k_unit_bytes / min64(ea, eb));
  kal = align_up(max64(s->k, 1), ku);
  for(bm = u; bm <= min64(prm->max_m, align_up(max64(s->m, 1), u)); bm += u){
    for(bn = u; bn <= min64(prm->max_n, align_up(max64(s->n, 1), u)); bn += u){
      int64_t tl[3] = { 1, bm, bn }, in[2], ntiles, loops, bd, bk1, step;
      double comp, move, cost;
      /* the largest K block (power-of-two multiple of the unit) that fits L0A/L0B */
      bk = 0;
      for(step = ku; step <= min64(prm->max_k, kal); step *= 2){
        in[0] = in[1] = step;
        if( gr_tiling_layout(s, prm, tl, in, bufs, &nb, used)==0 && used[GR_MEM_L0A] <= chip->cap[GR_MEM_L0A]
            && used[GR_MEM_L0B] <= chip->cap[GR_MEM_L0B] ) bk = step;
        if( step > INT64_MAX / 2 ) break;
      }
      if( bk==0 ) continue;
      in[0] = bk; in[1] = bk;
      if( !tile_fits(s, prm, chip, tl, in) ) continue;
      /* the longest K slab (multiple of bk, at most K) that fits L1: binary search */
      {
        int64_t lo = 1, hi = max64(1, kal / bk);
        while( lo < hi ){
          int64_t mid = lo + (hi - lo + 1) / 2;
          in[1] = mid * bk;
          if( tile_fits(s, prm, chip, tl, in) ) lo = mid; else hi = mid - 1;
        }
        bk1 = lo * bk;
      }
      ntiles = sat_mul(sat_mul(max64(s->batch, 1), ceil_div(max64(s->m, 1), bm)), ceil_div(max64(s->n, 1), bn));
      bd = min64(cores, ntiles);
      loops = ceil_div(ntiles, bd);
      comp = (double)bm * (double)bn * (double)kal / prm->mac_per_cycle;
      move = ((double)bm * (double)kal * (double)ea + (double)kal * (double)bn * (double)eb + (double)bm * (double)bn * (double)eo)
             / prm->gm_bytes_per_cycle;
      cost = (double)loops * (comp > move ? comp : move);
      if( best_bm==0 || cost < best - 1e-9 || (cost <= best + 1e-9 && bm * bn > best_bm * best_bn) ){
        best = cost; best_bm = bm; best_bn = bn; best_bk = bk; best_bk1 = bk1;
      }
    }
  }
  if( best_bm==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "no block of %lld x %lld x %lld elements fits the L0A/L0B/L0C/L1/UB of %s",
             (long long)u, (long long)u, (long long)ku, chip->soc);
    return -1;
  }
  p->tile[0] = 1; p->tile[1] = best_bm; p->tile[2] = best_bn;
  p->inner[0] = best_bk; p->inner[1] = best_bk1;
  if( s->batch > 0 && s->m > 0 && s->n > 0 ) enum_matmul(p, &t, s, cores);
  return finish(p, s, prm, &t, notes);
}

/* attention tiles: every (batch, head, query block), round robin over the cores */
static void enum_attention(gr_tplan *p, tb *t, const gr_tspec *s, uint32_t cores){
  int64_t sq = p->tile[2], b, h, q0;
  uint64_t eq = (uint64_t)gr_tfmt_bytes(s->fin[0]), ek = (uint64_t)gr_tfmt_bytes(s->fin[1]), eo = (uint64_t)gr_tfmt_bytes(s->fout);
  uint64_t count = usat_mul(usat_mul((uint64_t)s->b, (uint64_t)s->heads), (uint64_t)ceil_div(s->sq, sq));
  uint64_t kv = usat_mul(usat_mul(usat_mul(2, (uint64_t)s->skv), (uint64_t)s->d), ek);
  p->block_dim = (uint32_t)(count < cores ? count : cores);
  p->bytes_out = usat_mul(usat_mul(usat_mul(usat_mul((uint64_t)s->b, (uint64_t)s->heads), (uint64_t)s->sq), (uint64_t)s->d), eo);
  if( tb_count(t, count) ) return;
  for(b = 0; b < s->b; b++)
    for(h = 0; h < s->heads; h++)
      for(q0 = 0; q0 < s->sq; q0 += sq){
        int64_t off[4] = { b, h, q0, 0 }, len[4] = { 1, 1, min64(sq, s->sq - q0), s->d };
        tb_add(t, off, len, (uint32_t)(p->ntiles % p->block_dim));
        p->bytes_in = usat_add(p->bytes_in, usat_add(usat_mul(usat_mul((uint64_t)len[2], (uint64_t)s->d), eq), kv));
      }
}

/* Attention: tiles are blocks of query rows of one (batch, head); the key and
** value sequence is walked in blocks that fit L1/L0 and the UB. */
static int plan_attention(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_tplan *p, gr_diags *notes){
  int64_t u = prm->unit, sq, skv, best_sq = 0, best_kv = 0, dp = align_up(s->d, u);
  int64_t eq = gr_tfmt_bytes(s->fin[0]), ek = gr_tfmt_bytes(s->fin[1]), eo = gr_tfmt_bytes(s->fout);
  double best = 0;
  uint32_t cores = gr_tchip_cores(chip, prm);
  tb t = { p, 0, 0, 0 };
  plan_init(p, GR_TS_ATTENTION, 4, s->out);
  if( eq <= 0 || ek <= 0 || eo <= 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "unknown element formats"); return -1; }
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  for(sq = u; sq <= min64(prm->max_q, align_up(max64(s->sq, 1), u)); sq += u){
    for(skv = u; skv <= min64(prm->max_kv, align_up(max64(s->skv, 1), u)); skv += u){
      int64_t tl[4] = { 1, 1, sq, max64(s->d, 1) }, in[2] = { skv, 0 }, ntiles, bd, loops;
      double comp, move, cost;
      if( !tile_fits(s, prm, chip, tl, in) ) continue;
      ntiles = sat_mul(sat_mul(max64(s->b, 1), max64(s->heads, 1)), ceil_div(max64(s->sq, 1), sq));
      bd = min64(cores, ntiles);
      loops = ceil_div(ntiles, bd);
      comp = 2.0 * (double)sq * (double)align_up(s->skv, u) * (double)dp / prm->mac_per_cycle;
      move = ((double)sq * (double)dp * (double)(eq + eo) + 2.0 * (double)s->skv * (double)dp * (double)ek)
             / prm->gm_bytes_per_cycle;
      /* fewer, longer KV steps cost less loop overhead: a small tie-breaker */
      cost = (double)loops * ((comp > move ? comp : move) + 64.0 * (double)ceil_div(s->skv, skv));
      if( best_sq==0 || cost < best - 1e-9 ){ best = cost; best_sq = sq; best_kv = skv; }
    }
  }
  if( best_sq==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "no block of %lld query rows x %lld key rows (head dim %lld) fits the memories of %s",
             (long long)u, (long long)u, (long long)s->d, chip->soc);
    return -1;
  }
  p->tile[0] = 1; p->tile[1] = 1; p->tile[2] = best_sq; p->tile[3] = max64(s->d, 1);
  p->inner[0] = best_kv;
  if( s->b > 0 && s->heads > 0 && s->sq > 0 && s->d > 0 ) enum_attention(p, &t, s, cores);
  return finish(p, s, prm, &t, notes);
}

int gr_tiling_plan(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                   gr_tplan *plan, gr_diags *notes){
  memset(plan, 0, sizeof *plan);
  if( spec_limits(spec, notes) ) return -1;
  if( chip->cap[GR_MEM_UB]==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "%s has no UB (0 bytes)", chip->soc);
    return -1;
  }
  switch( spec->strategy ){
    case GR_TS_ELEMENTWISE: return plan_elementwise(spec, params, chip, plan, notes);
    case GR_TS_REDUCE_LAST: return plan_reduce(spec, params, chip, plan, notes);
    case GR_TS_MATMUL: return plan_matmul(spec, params, chip, plan, notes);
    case GR_TS_ATTENTION: return plan_attention(spec, params, chip, plan, notes);
    case GR_TS_CUSTOM:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "class %s is tiled by a Lua hook, and none is registered for this op type", params->cls);
      return -1;
    default:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "no strategy");
      return -1;
  }
}

int gr_tiling_replan(const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, const gr_tplan *like,
                     gr_tplan *p, gr_diags *notes){
  uint32_t cores = gr_tchip_cores(chip, prm), d;
  tb t = { p, 0, 0, 0 };
  int64_t shape[4];
  memset(p, 0, sizeof *p);
  if( spec_limits(s, notes) ) return -1;
  if( cores==0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "%s has no cores for class %s", chip->soc, prm->cls); return -1; }
  for(d = 0; d < GR_TMAXDIM; d++) if( like->tile[d] < 0 || like->tile[d] > GR_TMAX_ELEMS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the tile shape to replan has a dim outside [0, 2^48]");
    return -1;
  }
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE: {
      int64_t total = volume(s->out, s->ndim), tile = like->tile[0];
      int minb = ew_minb(s);
      plan_init(p, GR_TS_ELEMENTWISE, 1, &total);
      p->tile[0] = tile;
      if( total > 0 && minb > 0 && tile > 0 )
        enum_elementwise(p, &t, s, total, tile, align_up(ceil_div(total, cores), max64(1, (int64_t)prm->align / minb)));
      break;
    }
    case GR_TS_REDUCE_LAST: {
      int64_t rt = like->tile[0], dc = like->tile[1];
      shape[0] = s->rows; shape[1] = s->cols;
      plan_init(p, GR_TS_REDUCE_LAST, 2, shape);
      p->tile[0] = rt; p->tile[1] = dc;
      if( s->rows > 0 && s->cols > 0 && rt > 0 && dc > 0 ) enum_reduce(p, &t, s, rt, dc, ceil_div(s->rows, cores));
      break;
    }
    case GR_TS_MATMUL:
      shape[0] = s->batch; shape[1] = s->m; shape[2] = s->n;
      plan_init(p, GR_TS_MATMUL, 3, shape);
      memcpy(p->tile, like->tile, sizeof p->tile);
      memcpy(p->inner, like->inner, sizeof p->inner);
      if( s->batch > 0 && s->m > 0 && s->n > 0 && p->tile[1] > 0 && p->tile[2] > 0 ) enum_matmul(p, &t, s, cores);
      break;
    case GR_TS_ATTENTION:
      plan_init(p, GR_TS_ATTENTION, 4, s->out);
      memcpy(p->tile, like->tile, sizeof p->tile);
      p->tile[3] = s->d;
      memcpy(p->inner, like->inner, sizeof p->inner);
      if( s->b > 0 && s->heads > 0 && s->sq > 0 && s->d > 0 && p->tile[2] > 0 ) enum_attention(p, &t, s, cores);
      break;
    default:
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "no strategy to replan");
      return -1;
  }
  return finish(p, s, prm, &t, notes);
}

void gr_tplan_free(gr_tplan *p){
  if( p==NULL ) return;
  free(p->off);
  free(p->len);
  free(p->core);
  p->off = p->len = NULL;
  p->core = NULL;
  p->ntiles = 0;
}

int gr_tplan_copy(gr_tplan *dst, const gr_tplan *src){
  *dst = *src;
  dst->off = dst->len = NULL;
  dst->core = NULL;
  if( src->ntiles ){
    size_t n = src->ntiles * src->ndim;
    dst->off = gr_xmalloc(n * sizeof *dst->off);
    dst->len = gr_xmalloc(n * sizeof *dst->len);
    dst->core = gr_xmalloc(src->ntiles * sizeof *dst->core);
    memcpy(dst->off, src->off, n * sizeof *dst->off);
    memcpy(dst->len, src->len, n * sizeof *dst->len);
    memcpy(dst->core, src->core, src->ntiles * sizeof *dst->core);
  }
  return 0;
}

/* ------------------------------------------------------------------ custom (Lua) plans */

int gr_tplan_from_custom(gr_tplan *plan, const gr_custom_tiling *c, const gr_tspec *spec,
                         const gr_tparams *params, gr_diags *notes){
  uint32_t d;
  size_t i;
  (void)params;
  memset(plan, 0, sizeof *plan);
  plan->strategy = GR_TS_CUSTOM;
  if( c->ndim==0 || c->ndim > GR_TMAXDIM || c->ndim != spec->ndim ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the hook's tiling has %u dims; the output %s has %u", c->ndim, dims_str(spec->out, spec->ndim).s, spec->ndim);
    return -1;
  }
  if( c->ntiles && (c->offsets==NULL || c->sizes==NULL) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the hook's tiling lists %zu tiles without offsets or sizes", c->ntiles);
    return -1;
  }
  if( c->ntiles > MAX_TILES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the hook's tiling has %zu tiles, more than the %zu a plan may enumerate", c->ntiles, MAX_TILES);
    return -1;
  }
  if( c->block_dim > GR_TMAX_CORES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the hook's tiling has block_dim %u, more than the %u cores a plan may use", c->block_dim, GR_TMAX_CORES);
    return -1;
  }
  if( spec_limits(spec, notes) ) return -1;
  plan->ndim = c->ndim;
  memcpy(plan->shape, spec->out, c->ndim * sizeof *plan->shape);
  for(d = 0; d < c->ndim; d++) plan->tile[d] = c->tile_shape[d];
  plan->block_dim = c->block_dim;
  plan->ntiles = c->ntiles;
  if( c->ntiles ){
    plan->off = gr_xmalloc(c->ntiles * c->ndim * sizeof *plan->off);
    plan->len = gr_xmalloc(c->ntiles * c->ndim * sizeof *plan->len);
    plan->core = gr_xmalloc(c->ntiles * sizeof *plan->core);
    memcpy(plan->off, c->offsets, c->ntiles * c->ndim * sizeof *plan->off);
    memcpy(plan->len, c->sizes, c->ntiles * c->ndim * sizeof *plan->len);
    for(i = 0; i < c->ntiles; i++) plan->core[i] = c->cores ? c->cores[i] : (c->block_dim ? (uint32_t)(i % c->block_dim) : 0);
  }
  /* buffers as the hook declares them: `buffers` tile buffers, doubled when
  ** double-buffered, sharing the declared UB bytes */
  plan->nbuf = 0;
  {
    uint32_t nb = c->buffers < GR_TMAXBUF ? c->buffers : GR_TMAXBUF, k;
    int copies = c->double_buffer ? 2 : 1;
    uint64_t each = nb ? c->ub_bytes / ((uint64_t)nb * (uint64_t)copies) : 0, off = 0;   /* the sum stays <= ub_bytes */
    for(k = 0; k < nb; k++){
      gr_tbuf *b = &plan->buf[plan->nbuf++];
      memset(b, 0, sizeof *b);
      snprintf(b->name, sizeof b->name, "buf%u", (unsigned)(uint8_t)k);
      b->level = GR_MEM_UB;
      b->copies = (uint8_t)copies;
      b->bytes = each;
      b->offset = off;
      off += each * (uint64_t)copies;
    }
  }
  plan->used[GR_MEM_UB] = c->ub_bytes;
  plan->used[GR_MEM_L1] = c->l1_bytes;
  plan->used[GR_MEM_L0A] = c->l0a_bytes;
  plan->used[GR_MEM_L0B] = c->l0b_bytes;
  plan->used[GR_MEM_L0C] = c->l0c_bytes;
  plan_counts(plan);
  {
    int64_t v = volume(spec->out, spec->ndim);
    plan->bytes_in = 0;
    plan->bytes_out = v > 0 ? usat_mul((uint64_t)v, (uint64_t)gr_tfmt_bytes(spec->fout)) : 0;
  }
  return 0;
}

/* ------------------------------------------------------------------ validation */

static int cmp_i64(const void *a, const void *b){
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

static size_t lower(const int64_t *v, size_t n, int64_t x){
  size_t lo = 0, hi = n;
  while( lo < hi ){ size_t m = (lo + hi) / 2; if( v[m] < x ) lo = m + 1; else hi = m; }
  return lo;
}

static int tile_contains(const gr_tplan *p, size_t t, const int64_t *pt){
  uint32_t d;
  for(d = 0; d < p->ndim; d++){
    int64_t o = p->off[t * p->ndim + d], l = p->len[t * p->ndim + d];
    if( pt[d] < o || pt[d] >= sat_add(o, l) ) return 0;
  }
  return 1;
}

static void tile_text(gr_buf *b, const gr_tplan *p, size_t t){
  uint32_t d;
  gr_buf_addc(b, '[');
  for(d = 0; d < p->ndim; d++){
    int64_t o = p->off[t * p->ndim + d], l = p->len[t * p->ndim + d];
    gr_buf_printf(b, "%s%lld:%lld", d ? ", " : "", (long long)o, (long long)sat_add(o, l));
  }
  gr_buf_addc(b, ']');
}

/* Coverage by coordinate compression: the boundaries of every tile cut each
** dim into intervals; every cell of the resulting grid must be covered once. */
static void check_coverage(const gr_tplan *p, gr_diags *notes){
  int64_t *cuts[GR_TMAXDIM];
  size_t ncut[GR_TMAXDIM], i, t;
  uint32_t d, nd = p->ndim;
  uint64_t cells = 1, ci, gap_cells = 0, gap_elems = 0, over_elems = 0, over_cell = UINT64_MAX;
  size_t over_tile = 0;
  uint8_t *cnt;
  int64_t total = volume(p->shape, nd);
  if( total==0 ) return;
  if( total < 0 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "the output is too large to check"); return; }
  for(d = 0; d < nd; d++){
    size_t n = 0;
    cuts[d] = gr_xmalloc((2 * p->ntiles + 2) * sizeof *cuts[d]);
    cuts[d][n++] = 0;
    cuts[d][n++] = p->shape[d];
    for(t = 0; t < p->ntiles; t++){
      int64_t o = p->off[t * nd + d], e = sat_add(o, p->len[t * nd + d]);
      if( o > 0 && o < p->shape[d] ) cuts[d][n++] = o;
      if( e > 0 && e < p->shape[d] ) cuts[d][n++] = e;
    }
    qsort(cuts[d], n, sizeof *cuts[d], cmp_i64);
    for(i = 1, ncut[d] = 1; i < n; i++) if( cuts[d][i] != cuts[d][ncut[d] - 1] ) cuts[d][ncut[d]++] = cuts[d][i];
    if( cells > MAX_CELLS / (ncut[d] - 1 ? ncut[d] - 1 : 1) ) cells = MAX_CELLS + 1;
    else cells *= ncut[d] - 1;
  }
  if( cells > MAX_CELLS ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "the tiles cut the output into more than %llu distinct blocks; coverage cannot be checked, so the plan is not accepted",
                  (unsigned long long)MAX_CELLS);
    goto out;
  }
  cnt = gr_xcalloc(cells, 1);
  for(t = 0; t < p->ntiles; t++){
    size_t lo[GR_TMAXDIM], hi[GR_TMAXDIM], idx[GR_TMAXDIM];
    int empty = 0;
    for(d = 0; d < nd; d++){
      int64_t o = max64(0, p->off[t * nd + d]), e = min64(p->shape[d], sat_add(p->off[t * nd + d], p->len[t * nd + d]));
      if( e <= o ){ empty = 1; break; }
      lo[d] = lower(cuts[d], ncut[d], o);
      hi[d] = lower(cuts[d], ncut[d], e);
      idx[d] = lo[d];
    }
    if( empty ) continue;
    for(;;){
      uint64_t c = 0;
      for(d = 0; d < nd; d++) c = c * (ncut[d] - 1) + idx[d];
      if( cnt[c] ){
        uint64_t v = 1;
        for(d = 0; d < nd; d++) v *= (uint64_t)(cuts[d][idx[d] + 1] - cuts[d][idx[d]]);
        over_elems = usat_add(over_elems, v);
        if( over_cell==UINT64_MAX ){ over_cell = c; over_tile = t; }
      }
      if( cnt[c] < 255 ) cnt[c]++;
      for(d = nd; d-- > 0; ){
        if( ++idx[d] < hi[d] ) break;
        idx[d] = lo[d];
      }
      if( d==(uint32_t)-1 ) break;
    }
  }
  for(ci = 0; ci < cells; ci++) if( cnt[ci]==0 ){
    uint64_t v = 1, rest = ci;
    for(d = nd; d-- > 0; ){
      size_t k = rest % (ncut[d] - 1);
      rest /= ncut[d] - 1;
      v *= (uint64_t)(cuts[d][k + 1] - cuts[d][k]);
    }
    if( gap_cells++==0 ){
      int64_t pt[GR_TMAXDIM], ext[GR_TMAXDIM];
      rest = ci;
      for(d = nd; d-- > 0; ){
        size_t k = rest % (ncut[d] - 1);
        rest /= ncut[d] - 1;
        pt[d] = cuts[d][k];
        ext[d] = cuts[d][k + 1] - cuts[d][k];
      }
      gap_elems = v;
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "element %s of the output %s is covered by no tile (gap of extent %s)",
                    dims_str(pt, nd).s, dims_str(p->shape, nd).s, dims_str(ext, nd).s);
    }else gap_elems += v;
  }
  if( gap_cells ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "%llu of %lld output elements are never computed (%llu gap block%s)",
                  (unsigned long long)gap_elems, (long long)total, (unsigned long long)gap_cells, gap_cells==1 ? "" : "s");
  }
  if( over_cell != UINT64_MAX ){
    int64_t pt[GR_TMAXDIM];
    uint64_t rest = over_cell;
    size_t other = p->ntiles;
    gr_buf b1, b2;
    for(d = nd; d-- > 0; ){
      size_t k = rest % (ncut[d] - 1);
      rest /= ncut[d] - 1;
      pt[d] = cuts[d][k];
    }
    for(t = 0; t < p->ntiles; t++) if( t != over_tile && tile_contains(p, t, pt) ){ other = t; break; }
    gr_buf_init(&b1); gr_buf_init(&b2);
    tile_text(&b1, p, over_tile);
    if( other < p->ntiles ) tile_text(&b2, p, other);
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_COVERAGE, "tiles %zu %s and %zu %s overlap at element %s: %llu output elements are computed more than once",
                  other, other < p->ntiles ? gr_buf_cstr(&b2) : "?", over_tile, gr_buf_cstr(&b1), dims_str(pt, nd).s,
                  (unsigned long long)over_elems);
    gr_buf_free(&b1); gr_buf_free(&b2);
  }
  free(cnt);
out:
  for(d = 0; d < nd; d++) free(cuts[d]);
}

static void bufs_text(gr_buf *b, const gr_tbuf *buf, size_t n, int level){
  size_t i;
  int first = 1;
  for(i = 0; i < n; i++) if( buf[i].level==level ){
    gr_buf_printf(b, "%s%s %u x %llu", first ? "" : " + ", buf[i].name, buf[i].copies, (unsigned long long)buf[i].bytes);
    first = 0;
  }
}

size_t gr_tiling_validate(gr_tplan *p, const gr_tspec *s, const gr_tparams *prm, const gr_tchip *chip, gr_diags *notes){
  size_t before = notes->count[GR_SEV_ERROR], t, i, j, tails = 0, reported = 0;
  uint32_t d, nd = p->ndim, cores = gr_tchip_cores(chip, prm);
  gr_tbuf need[GR_TMAXBUF];
  size_t nneed = 0;
  uint64_t needu[GR_MEM_N], *load = NULL, maxload = 0, minload = UINT64_MAX, *ntl = NULL, maxtiles = 0;
  int64_t total, maxvol = 0;
  int lay_ok, percore;

  if( nd==0 || nd > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the plan has %u dims", nd);
    return notes->count[GR_SEV_ERROR] - before;
  }
  /* ---- what a plan may describe: checked before anything is sized from it ---- */
  total = volume(p->shape, nd);
  if( over_limit(total) ){
    limit_err(notes, "the plan's index space element count", total);
    return notes->count[GR_SEV_ERROR] - before;
  }
  for(d = 0; d < nd; d++) if( over_limit(p->tile[d]) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the tile shape %s has a dim beyond the %lld elements a plan may describe",
             dims_str(p->tile, nd).s, (long long)GR_TMAX_ELEMS);
    return notes->count[GR_SEV_ERROR] - before;
  }
  if( p->ntiles > MAX_TILES ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the plan has %zu tiles, more than the %zu a plan may enumerate", p->ntiles, MAX_TILES);
    return notes->count[GR_SEV_ERROR] - before;
  }
  /* ---- cores ---- */
  if( p->ntiles && p->block_dim==0 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "block_dim is 0 but the plan has %zu tiles", p->ntiles);
  if( p->block_dim > cores )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "block_dim %u exceeds the %u cores %s has for class %s", p->block_dim, cores, chip->soc, prm->cls);
  /* ---- the nominal tile ---- */
  for(d = 0; d < nd; d++) if( p->tile[d] <= 0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the tile shape %s has a dim below 1", dims_str(p->tile, nd).s);
    break;
  }
  /* per-core accounting only for a block_dim the chip has (never sized from
  ** an unchecked number) */
  percore = p->block_dim > 0 && p->block_dim <= cores;
  if( percore ){
    load = gr_xcalloc(p->block_dim, sizeof *load);
    ntl = gr_xcalloc(p->block_dim, sizeof *ntl);
  }
  /* ---- every tile: bounds, extent, core ---- */
  for(t = 0; t < p->ntiles; t++){
    const int64_t *o = p->off + t * nd, *l = p->len + t * nd;
    int64_t v = 1;
    int bad = 0, tail = 0;
    for(d = 0; d < nd; d++){
      if( l[d] < 1 ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "tile %zu has extent %lld in dim %u (an empty tile)", t, (long long)l[d], d);
        bad = 1; break;
      }
      if( o[d] < 0 || l[d] > p->shape[d] - o[d] ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "tile %zu covers [%lld, %lld) in dim %u, outside the output's [0, %lld)",
                                           t, (long long)o[d], (long long)sat_add(o[d], l[d]), d, (long long)p->shape[d]);
        bad = 1;
      }
      if( p->tile[d] > 0 && l[d] > p->tile[d] ){
        if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "tile %zu has extent %lld in dim %u, larger than the tile shape %s its buffers are sized for",
                                           t, (long long)l[d], d, dims_str(p->tile, nd).s);
        bad = 1;
      }
      if( bad ) break;
      if( l[d] < min64(p->tile[d], p->shape[d]) ) tail = 1;
      v *= l[d];
    }
    if( tail ) tails++;
    if( !bad && v > maxvol ) maxvol = v;
    if( p->core[t] >= p->block_dim ){
      if( reported++ < 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_CORES, "tile %zu is assigned to core %u, beyond block_dim %u", t, p->core[t], p->block_dim);
      continue;
    }
    if( !percore ) continue;
    if( !bad ) load[p->core[t]] = usat_add(load[p->core[t]], (uint64_t)v);
    ntl[p->core[t]]++;
  }
  if( reported > 8 ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_BOUNDS, "%zu tile problems in all (the first 8 are listed)", reported);
  /* ---- coverage ---- */
  check_coverage(p, notes);
  /* ---- memory: recompute what the nominal tile needs ---- */
  lay_ok = gr_tiling_layout(s, prm, p->tile, p->inner, need, &nneed, needu)==0;
  if( !lay_ok ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the tile shape %s (inner %lld, %lld) cannot be laid out", dims_str(p->tile, nd).s,
                  (long long)p->inner[0], (long long)p->inner[1]);
  }else{
    int lvl;
    for(lvl = 0; lvl < GR_MEM_N; lvl++){
      uint64_t needed = needu[lvl];
      if( p->strategy==GR_TS_CUSTOM && p->used[lvl] > needed ) needed = p->used[lvl];
      if( needed > chip->cap[lvl] ){
        gr_buf b;
        gr_buf_init(&b);
        bufs_text(&b, need, nneed, lvl);
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "the %s working set of tile %s is %llu bytes (%s), more than the %llu bytes of %s's %s",
                      gr_tmem_name(lvl), dims_str(p->tile, nd).s, (unsigned long long)needed, b.n ? gr_buf_cstr(&b) : "declared",
                      (unsigned long long)chip->cap[lvl], chip->soc, gr_tmem_name(lvl));
        gr_buf_free(&b);
      }
      if( p->used[lvl] < needu[lvl] || (p->strategy != GR_TS_CUSTOM && p->used[lvl] != needu[lvl]) ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %llu bytes of %s, but tile %s needs %llu",
                      (unsigned long long)p->used[lvl], gr_tmem_name(lvl), dims_str(p->tile, nd).s, (unsigned long long)needu[lvl]);
      }
    }
    /* buffer by buffer (built-in strategies state each one) */
    if( p->strategy != GR_TS_CUSTOM ){
      if( p->nbuf != nneed ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %zu buffers, the tile needs %zu", p->nbuf, nneed);
      for(i = 0; i < nneed && i < p->nbuf; i++){
        const gr_tbuf *a = &p->buf[i], *b = &need[i];
        if( strcmp(a->name, b->name) || a->level != b->level ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %zu is %s in %s, expected %s in %s", i, a->name, gr_tmem_name(a->level), b->name, gr_tmem_name(b->level));
        }else if( a->bytes < b->bytes ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %s states %llu bytes, but tile %s needs %llu (with padding to %u bytes)",
                        a->name, (unsigned long long)a->bytes, dims_str(p->tile, nd).s, (unsigned long long)b->bytes, prm->align);
        }else if( a->copies < b->copies ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "buffer %s states %u cop%s, but double buffering needs %u", a->name, a->copies,
                        a->copies==1 ? "y" : "ies", b->copies);
        }
      }
    }
  }
  /* alignment and placement of the stated buffers */
  for(i = 0; i < p->nbuf; i++){
    const gr_tbuf *a = &p->buf[i];
    if( prm->align && (a->bytes % prm->align || a->offset % prm->align) )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_ALIGNMENT, "buffer %s (%llu bytes at offset %llu in %s) is not aligned to %u bytes",
                    a->name, (unsigned long long)a->bytes, (unsigned long long)a->offset, gr_tmem_name(a->level), prm->align);
    uint64_t aend = usat_add(a->offset, usat_mul(a->bytes, a->copies));
    if( a->level < GR_MEM_N && aend > chip->cap[a->level] )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_MEMORY, "buffer %s ends at byte %llu of %s, beyond its %llu bytes", a->name,
                    (unsigned long long)aend, gr_tmem_name(a->level), (unsigned long long)chip->cap[a->level]);
    for(j = 0; j < i; j++){
      const gr_tbuf *b = &p->buf[j];
      uint64_t bend = usat_add(b->offset, usat_mul(b->bytes, b->copies));
      if( a->level==b->level && a->bytes && b->bytes && a->offset < bend && b->offset < aend )
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_ALIGNMENT, "buffers %s [%llu, %llu) and %s [%llu, %llu) overlap in %s", b->name,
                      (unsigned long long)b->offset, (unsigned long long)bend, a->name,
                      (unsigned long long)a->offset, (unsigned long long)aend, gr_tmem_name(a->level));
    }
  }
  /* ---- stated counts ---- */
  for(i = 0; percore && i < p->block_dim; i++) if( ntl[i] > maxtiles ) maxtiles = ntl[i];
  if( percore && p->loops_per_core != maxtiles )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %llu loops per core, but its busiest core runs %llu tiles",
                  (unsigned long long)p->loops_per_core, (unsigned long long)maxtiles);
  if( p->tail_tiles != tails )
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_STATED, "the plan states %zu tail tiles, but %zu tiles are smaller than the tile shape %s",
                  p->tail_tiles, tails, dims_str(p->tile, nd).s);
  /* ---- balance ---- */
  p->imbalance = 0;
  if( percore && total > 0 ){
    double mean = (double)total / p->block_dim;
    uint32_t idle = 0, first_idle = 0;
    for(i = 0; i < p->block_dim; i++){
      if( load[i] > maxload ) maxload = load[i];
      if( load[i] < minload ) minload = load[i];
      if( ntl[i]==0 && idle++==0 ) first_idle = (uint32_t)i;
    }
    p->imbalance = mean > 0 ? (double)maxload / mean - 1.0 : 0;
    if( idle )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_BALANCE, "%u of the %u cores of block_dim have no tile (core %u is the first)", idle, p->block_dim, first_idle);
    else if( maxload > usat_add(minload, (uint64_t)maxvol) )
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_BALANCE, "the busiest core computes %llu elements and the least busy %llu: a spread of more than one tile (%lld elements), imbalance %.1f%%",
                    (unsigned long long)maxload, (unsigned long long)minload, (long long)maxvol, 100.0 * p->imbalance);
  }
  free(load);
  free(ntl);
  return notes->count[GR_SEV_ERROR] - before;
}
