/*
** onnx_rules.c: the bridge from the rule set to the ONNX reader: the table
** onnx_ops of the rule files (rules/onnx.rules) becomes the op mapping of
** onnx_map.h. Each entry is "domain::op_type": [row, row, ...] with rows as
** onnx_map.h describes; a row that does not parse is an error located at
** its table entry, so `gerules check` and every command that loads the rule
** set report it like any other rule-file error. The table onnx_shapes
** names each key's shape function (onnx_map.h), checked the same way.
*/
#include "config.h"
#include "model/onnx_rules.h"

#include <string.h>

#define TABLE "onnx_ops"
#define SHAPES "onnx_shapes"

gr_opmap *gr_onnx_map_from_rules(const gr_ruleset *rs, gr_diags *d){
  const gr_table *t = NULL;
  gr_opmap *m = gr_opmap_new();
  size_t i, bad = 0;
  int k = gr_ruleset_find(&rs->table_map, TABLE);
  if( k >= 0 ) t = &rs->tables[k];
  if( t==NULL ) return m;
  if( !t->is_map ){
    gr_diags_add(d, GR_SEV_ERROR, t->loc.file, t->loc.line, t->loc.col,
                 "table %s must map \"domain::op_type\" keys to lists of mapping rows", TABLE);
    gr_opmap_free(m);
    return NULL;
  }
  for(i = 0; i < t->n; i++){
    const gr_expr *v = t->vals[i], *e;
    const gr_loc *loc = &t->locs[i];
    if( v==NULL || (v->op!=GR_E_LIST && v->op!=GR_E_STR) ){
      gr_diags_add(d, GR_SEV_ERROR, loc->file, loc->line, loc->col, "%s[\"%s\"]: expected a list of mapping rows (strings)", TABLE, t->keys[i]);
      bad++;
      continue;
    }
    for(e = v->op==GR_E_LIST ? v->a : v; e; e = v->op==GR_E_LIST ? e->next : NULL){
      char msg[256];
      unsigned col = 0;
      if( e->op!=GR_E_STR ){
        gr_diags_add(d, GR_SEV_ERROR, e->loc.file, e->loc.line, e->loc.col, "%s[\"%s\"]: a mapping row is a string", TABLE, t->keys[i]);
        bad++;
        continue;
      }
      if( gr_opmap_add(m, t->keys[i], e->s, msg, sizeof msg, &col)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, e->loc.file, e->loc.line, e->loc.col + (col ? col : 1),
                     "%s[\"%s\"]: bad mapping row \"%s\": %s", TABLE, t->keys[i], e->s, msg);
        bad++;
      }
    }
  }
  if( !bad && (k = gr_ruleset_find(&rs->table_map, SHAPES)) >= 0 ){
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
  if( bad ){ gr_opmap_free(m); return NULL; }
  return m;
}
