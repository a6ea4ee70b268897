/*
** atc_out_nodes.c: ATC's checks of the flags that name nodes of the model
** other than --input_shape: --out_nodes, --output_type and
** --input_fp16_nodes, as ATC's ParseGraph and SetOutputNodeInfo make them
** (hicann/ge @ffdcbc9f7 api/atc/omg.cc, api/atc/main_impl.cc:1659-1680).
**
** The syntax is GE's code: ParseOutNodes (omg.cc:632-713) splits
** --out_nodes at ';' and each item at ':' (name:index, the index all digits
** and an int32; a bare name is an output tensor name for the frameworks of
** kSupportTensorAsOutput, omg.cc:65, and both kinds together are refused);
** ParseOutputType (omg.cc:355-404) reads --output_type as one dtype, or as
** name:index:dtype items each of which --out_nodes must list
** (VerifyOutputTypeAndOutNodes :322-341); CheckInputFp16Nodes (:172-215)
** finds each --input_fp16_nodes name, an input op; SetOutputNodeInfo
** (:452-505) finds each --out_nodes node and checks its index against the
** node's outputs (CheckOutNode :405-420). The flags' roles, the dtypes, the
** frameworks that take tensor names and the messages are rule data
** (rules/atc.rules: atc_flag_roles, atc_output_types,
** atc_out_nodes_tensor_frameworks, atc_messages).
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

#define M gr_atc_message

static int e10001(const gr_atc_cmdline *c, gr_atc_error *err, const char *param, const char *value, const char *reason_key){
  char *r = M(c, reason_key, (char *)NULL);
  char *m = M(c, "E10001", "value", value, "parameter", param, "reason", r, (char *)NULL);
  free(r);
  return gr_atc_fail(err, m, "E10001");
}

static const char *value_of(const gr_atc_cmdline *c, const char *role){
  const char *f = gr_atc_role_flag(c, role), *v = f ? gr_atc_flag_value(c, f) : NULL;
  return v && *v ? v : NULL;
}

static int in_set(const gr_atc_cmdline *c, const char *table, const char *key){
  const gr_table *t = gr_ruleset_table(c->rs, table);
  return t && key && gr_map_get(&t->keymap, key)!=NULL;
}


static gr_atc_span trim(gr_atc_span s){
  while( s.n && isspace((unsigned char)s.p[0]) ){ s.p++; s.n--; }
  while( s.n && isspace((unsigned char)s.p[s.n - 1]) ) s.n--;
  return s;
}

static int digits(gr_atc_span s){
  size_t k;
  for(k = 0; k < s.n; k++) if( !isdigit((unsigned char)s.p[k]) ) return 0;
  return 1;
}

/* std::stoi of an all-digit field: 0 ok, 1 empty (invalid_argument), 2
** above INT_MAX (out_of_range). */
static int stoi_digits(gr_atc_span s, long *out){
  char buf[32];
  size_t a = 0;
  while( a < s.n && s.p[a]=='0' ) a++;   /* leading zeros do not overflow */
  if( s.n==0 ) return 1;
  if( s.n - a > 10 ) return 2;
  memcpy(buf, s.p + a, s.n - a); buf[s.n - a] = 0;
  *out = buf[0] ? strtol(buf, NULL, 10) : 0;
  return *out > INT_MAX ? 2 : 0;
}

/* Only the models ParseGraph reads, and only ATC's reading. */
static int parse_graph_checks(const gr_atc_cmdline *c){
  return !c->ir_build && !c->range_skip_graph;
}

int gr_atc_outputs_finish(gr_atc_cmdline *c, gr_atc_error *err){
  const char *v = value_of(c, "out_nodes");
  gr_atc_spans items = { NULL, 0, 0 }, kv = { NULL, 0, 0 };
  size_t i;
  int mode = 0, rc = 0;
  /* a tensor name is refused only where the framework is known not to take
  ** one (`gerules eval` names no framework) */
  int tensors = c->framework==NULL || in_set(c, "atc_out_nodes_tensor_frameworks", c->framework);
  if( v==NULL || !parse_graph_checks(c) ) return 0;
  gr_atc_split(v, strlen(v), ';', &items);
  for(i = 0; i < items.n && rc==0; i++){
    gr_atc_span it = items.v[i];
    gr_atc_out_node o;
    long idx = 0;
    int r;
    gr_atc_split(it.p, it.n, ':', &kv);
    if( kv.n!=2 ){
      if( kv.n==1 && tensors ){ mode |= 2; if( mode==3 ) break; continue; }
      {
        char *t = gr_xstrndup(it.p, it.n);
        rc = e10001(c, err, "--out_nodes", t, "E10001_out_nodes_format");
        free(t);
      }
      break;
    }
    mode |= 1;
    if( mode==3 ) break;
    if( !digits(kv.v[1]) ){ rc = e10001(c, err, "--out_nodes", v, "E10001_out_nodes_index"); break; }
    if( (r = stoi_digits(trim(kv.v[1]), &idx))!=0 ){
      const char *code = r==1 ? "E10014" : "E10013";
      rc = gr_atc_fail(err, M(c, code, "value", v, "parameter", "--out_nodes", (char *)NULL), code);
      break;
    }
    o.name = gr_xstrndup(kv.v[0].p, kv.v[0].n);
    o.index = idx;
    gr_vec_push(c->out_nodes, o);
  }
  if( rc==0 && mode==3 ) rc = e10001(c, err, "--out_nodes", v, "E10001_out_nodes_mixed");
  free(items.v); free(kv.v);
  return rc;
}

/* ComputeGraph::FindNode: an op of the root graph with that name. */
static int find_root(const gr_graph *g, gr_atc_span name, uint32_t *node){
  char *s = gr_xstrndup(name.p, name.n);
  int ok = gr_graph_find_node(g, s, node) && gr_graph_nodes(g)[*node].graph==0;
  free(s);
  return ok;
}

int gr_atc_inputs_apply(const gr_atc_cmdline *c, const gr_graph *g, gr_atc_error *err){
  const char *v = value_of(c, "input_fp16_nodes");
  gr_atc_spans items = { NULL, 0, 0 };
  size_t i;
  int rc = 0;
  if( v==NULL || !parse_graph_checks(c) ) return 0;
  gr_atc_split(v, strlen(v), ';', &items);
  for(i = 0; i < items.n && rc==0; i++){
    uint32_t node;
    char *t = gr_xstrndup(items.v[i].p, items.v[i].n);
    if( !find_root(g, items.v[i], &node) )
      rc = gr_atc_fail(err, M(c, "E10016", "opname", t, "parameter", "input_fp16_nodes", (char *)NULL), "E10016");
    else if( !gr_atc_is_input_op(c, g, node) )
      rc = gr_atc_fail(err, M(c, "E10017", "opname", t, "parameter", "input_fp16_nodes", (char *)NULL), "E10017");
    free(t);
  }
  free(items.v);
  return rc;
}

/* ParseOutputType and VerifyOutputTypeAndOutNodes. */
static int output_type(const gr_atc_cmdline *c, const char *v, gr_atc_error *err){
  gr_atc_spans items = { NULL, 0, 0 }, f = { NULL, 0, 0 };
  size_t i, k;
  int rc = 0;
  if( strchr(v, ':')==NULL )
    return in_set(c, "atc_output_types", v) ? 0 : e10001(c, err, "--output_type", v, "E10001_output_type_support");
  gr_atc_split(v, strlen(v), ';', &items);
  for(i = 0; i < items.n && rc==0; i++){
    gr_atc_span name, idx, dt;
    char *t;
    long index = 0;
    int r;
    gr_atc_split(items.v[i].p, items.v[i].n, ':', &f);
    if( f.n!=3 ){
      t = gr_xstrndup(items.v[i].p, items.v[i].n);
      rc = e10001(c, err, "--output_type", t, "E10001_output_type_sample");
      free(t);
      break;
    }
    name = trim(f.v[0]); idx = trim(f.v[1]); dt = trim(f.v[2]);
    t = gr_xstrndup(idx.p, idx.n);
    if( !digits(idx) ) rc = e10001(c, err, "--output_type", t, "E10001_output_type_index");
    else if( (r = stoi_digits(idx, &index))!=0 ){
      const char *code = r==1 ? "E10014" : "E10013";
      rc = gr_atc_fail(err, M(c, code, "value", t, "parameter", "--output_type", (char *)NULL), code);
    }
    free(t);
    if( rc ) break;
    t = gr_xstrndup(dt.p, dt.n);
    if( !in_set(c, "atc_output_types", t) ) rc = e10001(c, err, "--output_type", t, "E10001_output_type_support");
    free(t);
    if( rc ) break;
    /* the node and index must be an --out_nodes item */
    for(k = 0; k < c->out_nodes.n; k++)
      if( c->out_nodes.v[k].index==index && strlen(c->out_nodes.v[k].name)==name.n && memcmp(c->out_nodes.v[k].name, name.p, name.n)==0 ) break;
    if( k==c->out_nodes.n ){
      t = gr_xasprintf("%.*s:%ld", (int)name.n, name.p, index);
      rc = e10001(c, err, "--output_type", t, "E10001_output_type_out_nodes");
      free(t);
    }
  }
  free(items.v); free(f.v);
  return rc;
}

int gr_atc_outputs_apply(const gr_atc_cmdline *c, const gr_graph *g, gr_atc_error *err){
  const char *v = value_of(c, "output_type");
  size_t i;
  if( !parse_graph_checks(c) ) return 0;
  if( v && output_type(c, v, err) ) return -1;
  for(i = 0; i < c->out_nodes.n; i++){
    const gr_atc_out_node *o = &c->out_nodes.v[i];
    uint32_t node;
    gr_atc_span s;
    s.p = o->name; s.n = strlen(o->name);
    if( !find_root(g, s, &node) )
      return gr_atc_fail(err, M(c, "E10016", "opname", o->name, "parameter", "out_nodes", (char *)NULL), "E10016");
    if( o->index < 0 || o->index >= (long)gr_graph_nodes(g)[node].n_out_desc ){
      char *idx = gr_xasprintf("%ld", o->index), *size = gr_xasprintf("%u", (unsigned)gr_graph_nodes(g)[node].n_out_desc);
      char *r = M(c, "E10003_out_node_index", "index", idx, "size", size, (char *)NULL);
      int rc = gr_atc_fail(err, M(c, "E10003_reason", "value", o->name, "parameter", "out_nodes", "reason", r, (char *)NULL), "E10003");
      free(idx); free(size); free(r);
      return rc;
    }
  }
  return 0;
}
