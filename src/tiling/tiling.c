/*
** tiling.c: the tiling executor's names, its findings (check names and
** their stable codes) and the rules it reads: the tiling roles, classes and
** class parameters, and a chip's memories and cores. Turning a node into a
** gr_tspec is tiling_spec.c, planning and laying out tiling_plan.c,
** validating a plan tiling_validate.c. The library never prints; findings
** go to gr_diags.
*/
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling_int.h"

/* ------------------------------------------------------------------ names */

static const char *const mem_names[GR_MEM_N] = { "ub", "l1", "l0a", "l0b", "l0c" };
const char *gr_tmem_name(int level){ return level >= 0 && level < GR_MEM_N ? mem_names[level] : "?"; }

static const char *const strategy_names[] = { "none", "elementwise", "reduce_last", "matmul", "attention", "conv2d", "custom" };
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
  { "softmax", 0 }, { "rms_norm", 0 }, { "layer_norm", 0 }, { "matmul", 0 }, { "attention", 0 }, { "conv2d", 0 }
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

/* ------------------------------------------------------------------ rules */
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
    gr_error_set(err, 0, 0, "class '%s': unknown strategy '%s' (elementwise, reduce_last, matmul, attention, conv2d, custom)", cls, s);
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
    case GR_TS_CONV2D:
    case GR_TS_ATTENTION:
      if( need_int(t, cls, "block_unit", 1, &v, err) ) return -1;
      p->unit = (uint32_t)v;
      if( need_int(t, cls, "acc_bytes", 1, &v, err) ) return -1;
      p->acc_bytes = (uint32_t)v;
      if( need_int(t, cls, "mac_per_cycle", 1, &v, err) ) return -1;
      p->mac_per_cycle = (double)v;
      if( need_int(t, cls, "gm_bytes_per_cycle", 1, &v, err) ) return -1;
      p->gm_bytes_per_cycle = (double)v;
      if( p->strategy==GR_TS_MATMUL || p->strategy==GR_TS_CONV2D ){
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
        if( p->strategy==GR_TS_CONV2D ){
          if( need_str(t, cls, "attr_strides", &p->attr_strides, err) || need_str(t, cls, "attr_pads", &p->attr_pads, err)
              || need_str(t, cls, "attr_dilations", &p->attr_dilations, err) || need_str(t, cls, "attr_groups", &p->attr_groups, err)
              || need_str(t, cls, "attr_format", &p->attr_format, err) || need_str(t, cls, "default_format", &p->default_format, err) ) return -1;
          p->onnx_attr_groups = tstr(t, "onnx_attr_groups");
          p->onnx_attr_auto_pad = tstr(t, "onnx_attr_auto_pad");
          p->onnx_format = tstr(t, "onnx_format");
        }
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

