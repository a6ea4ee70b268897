/*
** onnx_rules.c: the bridge from the rule set to the ONNX reader: the onnx
** mapping statements of the rule files (rules/onnx.rules), checked and
** compiled by the rule-set checker, become the op mapping of onnx_map.h;
** the table onnx_shapes names each key's shape function, onnx_ir_attrs
** the attributes a plugin passes on under an IR name and onnx_inner_shapes
** the inner IR ops shaped like the node's output, onnx_ir_output_dtypes the
** outputs whose dtype an IR op's prototype fixes, onnx_ir_attr_defaults
** the integer attributes a plugin's IR ops have by default,
** onnx_ir_dynamic_outputs the IR ops whose outputs share one dtype,
** onnx_ir_same_shape the IR ops whose output has input 0's shape
** (onnx_map.h), all
** checked here, each bad entry an error located at its table entry, so
** `gerules check` and every command that loads the rule set report it like
** any other rule-file error.
*/
#include "config.h"
#include "model/onnx_rules.h"

#include <stdio.h>
#include <string.h>

#define SHAPES "onnx_shapes"
#define ATTRS "onnx_ir_attrs"
#define INNER "onnx_inner_shapes"
#define OUTDT "onnx_ir_output_dtypes"
#define ATTRDEF "onnx_ir_attr_defaults"
#define ONEOUT "onnx_ir_dynamic_outputs"
#define SAMESHAPE "onnx_ir_same_shape"

/* The model's spelling of dtype name dt (a key of table dtypes): the key of
** table graph_dtype_names whose value it is, dt itself without that table;
** NULL when dt is not a dtype or has no spelling. */
static const char *model_dtype(const gr_ruleset *rs, const char *dt){
  const gr_table *k = gr_ruleset_table(rs, "dtypes");
  return k && gr_map_get(&k->keymap, dt) ? gr_ruleset_dtype_spelling(rs, dt) : NULL;
}

/* Table `name`, when the rule set has it, a set of IR op types each given
** to set; 1 (an error in d) when it is a map, else 0. */
static int ir_type_set(const gr_ruleset *rs, gr_diags *d, gr_opmap *m, const char *name,
                       void (*set)(gr_opmap *, const char *)){
  const gr_table *t = gr_ruleset_table(rs, name);
  size_t i;
  if( t==NULL ) return 0;
  if( t->is_map ){
    gr_diags_add(d, GR_SEV_ERROR, t->loc.file, t->loc.line, t->loc.col, "table %s must be a set of IR op types", name);
    return 1;
  }
  for(i = 0; i < t->n; i++) set(m, t->keys[i]);
  return 0;
}

gr_opmap *gr_onnx_map_from_rules(const gr_ruleset *rs, gr_diags *d){
  const gr_table *t;
  gr_opmap *m = gr_opmap_new(rs);
  size_t i, bad = 0;
  int k, pass;
  /* the mapping's former form (a table of strings) would silently map nothing */
  if( (k = gr_ruleset_find(&rs->table_map, "onnx_ops")) >= 0 ){
    t = &rs->tables[k];
    gr_diags_add(d, GR_SEV_ERROR, t->loc.file, t->loc.line, t->loc.col,
                 "table onnx_ops is not read: the ONNX op mapping is written as onnx \"domain::op_type\" { opset 8..18 becomes IR; } statements");
    bad++;
  }
  if( (k = gr_ruleset_find(&rs->table_map, SHAPES)) >= 0 ){
    t = &rs->tables[k];
    if( !t->is_map ){
      gr_diags_add(d, GR_SEV_ERROR, t->loc.file, t->loc.line, t->loc.col,
                   "table %s must map \"domain::op_type\" keys to shape function names", SHAPES);
      bad++;
    }
    for(i = 0; t->is_map && i < t->n; i++){
      const gr_expr *v = t->vals[i];
      const gr_loc *loc = &t->locs[i];
      char msg[400];
      if( v==NULL || v->op!=GR_E_STR ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, "%s[\"%s\"]: expected a shape function name (a string)", SHAPES, t->keys[i]);
        bad++;
      }else if( gr_opmap_set_shape(m, t->keys[i], v->s, msg, sizeof msg)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, v->loc.file, v->loc.line, v->loc.col, "%s[\"%s\"]: %s", SHAPES, t->keys[i], msg);
        bad++;
      }
    }
  }
  for(pass = 0; pass < 2; pass++){
    const char *tn = pass ? INNER : ATTRS;
    if( (k = gr_ruleset_find(&rs->table_map, tn)) < 0 ) continue;
    t = &rs->tables[k];
    for(i = 0; i < t->n; i++){
      const gr_expr *v = t->is_map ? t->vals[i] : NULL, *x;
      const gr_loc *loc = t->is_map ? &t->locs[i] : &t->loc;
      const char *names[64];
      size_t nn = 0;
      char msg[400];
      int ok = v && v->op==GR_E_LIST, r;
      for(x = ok ? v->a : NULL; x; x = x->next){
        if( x->op!=GR_E_STR || nn==64 ){ ok = 0; break; }
        names[nn++] = x->s;
      }
      if( !ok ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, pass ? "%s: each entry maps \"domain::op_type\" to [\"IR op type\", ...] (at most 64)"
                     : "%s: each entry maps \"domain::op_type\" to [\"ONNX attribute\", \"IR attribute\", ...] (at most 32 pairs)", tn);
        bad++;
        if( !t->is_map ) break;
        continue;
      }
      r = pass ? gr_opmap_set_inner_shapes(m, t->keys[i], names, nn, msg, sizeof msg)
               : gr_opmap_set_attr_names(m, t->keys[i], names, nn, msg, sizeof msg);
      if( r!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, "%s[\"%s\"]: %s", tn, t->keys[i], msg);
        bad++;
      }
    }
  }
  if( (k = gr_ruleset_find(&rs->table_map, OUTDT)) >= 0 ){
    /* "IR op type": [output index, "dtype", ...] */
    t = &rs->tables[k];
    for(i = 0; i < t->n; i++){
      const gr_expr *v = t->is_map ? t->vals[i] : NULL, *x;
      const gr_loc *loc = t->is_map ? &t->locs[i] : &t->loc;
      int ok = v && v->op==GR_E_LIST && v->a;
      for(x = ok ? v->a : NULL; x && ok; x = x->next ? x->next->next : NULL){
        const char *md;
        char msg[400];
        if( x->op!=GR_E_INT || x->next==NULL || x->next->op!=GR_E_STR ){ ok = 0; break; }
        if( (md = model_dtype(rs, x->next->s))==NULL ){
          const gr_table *dk = gr_ruleset_table(rs, "dtypes");
          const char *sug = dk ? gr_suggest(x->next->s, dk->keys, dk->n) : NULL;
          gr_diags_add(d, GR_SEV_ERROR, x->next->loc.file, x->next->loc.line, x->next->loc.col,
                       "%s[\"%s\"]: '%s' is not a dtype with a spelling in the model (tables dtypes, graph_dtype_names)%s%s%s",
                       OUTDT, t->keys[i], x->next->s, sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
          bad++;
        }else if( x->i < 0 || gr_opmap_set_output_dtype(m, t->keys[i], (size_t)x->i, md, msg, sizeof msg)!=0 ){
          if( x->i < 0 ) snprintf(msg, sizeof msg, "output %lld: an output index is 0 or more", (long long)x->i);
          gr_diags_add(d, GR_SEV_ERROR, x->loc.file, x->loc.line, x->loc.col, "%s[\"%s\"]: %s", OUTDT, t->keys[i], msg);
          bad++;
        }
      }
      if( !ok ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, "%s: each entry maps an IR op type to [output index, \"dtype\", ...]", OUTDT);
        bad++;
        if( !t->is_map ) break;
      }
    }
  }
  if( (k = gr_ruleset_find(&rs->table_map, ATTRDEF)) >= 0 ){
    /* "domain::op_type": ["IR attribute", integer, ...] */
    t = &rs->tables[k];
    for(i = 0; i < t->n; i++){
      const gr_expr *v = t->is_map ? t->vals[i] : NULL, *x;
      const gr_loc *loc = t->is_map ? &t->locs[i] : &t->loc;
      const char *names[32];
      int64_t vals[32];
      size_t nn = 0;
      char msg[400];
      int ok = v && v->op==GR_E_LIST && v->a;
      for(x = ok ? v->a : NULL; x && ok; x = x->next->next){
        if( x->op!=GR_E_STR || !x->s[0] || x->next==NULL || x->next->op!=GR_E_INT || nn==32 ){ ok = 0; break; }
        names[nn] = x->s;
        vals[nn++] = x->next->i;
      }
      if( !ok ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col,
                     "%s: each entry maps \"domain::op_type\" to [\"IR attribute\", integer, ...] (at most 32 pairs)", ATTRDEF);
        bad++;
        if( !t->is_map ) break;
        continue;
      }
      if( gr_opmap_set_attr_defaults(m, t->keys[i], names, vals, nn, msg, sizeof msg)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, "%s[\"%s\"]: %s", ATTRDEF, t->keys[i], msg);
        bad++;
      }
    }
  }
  bad += ir_type_set(rs, d, m, ONEOUT, gr_opmap_set_one_dynamic_output);
  bad += ir_type_set(rs, d, m, SAMESHAPE, gr_opmap_set_same_shape);
  if( bad ){ gr_opmap_free(m); return NULL; }
  return m;
}
