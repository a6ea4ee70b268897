/*
** judge.c: the dtype and engine judge (judge.h). One pass over the nodes in
** topological order; per node: the engines of rs->judge in GE's order, each
** checking the node against its op stores (AI Core per tensor with the
** conversions the mode allows, other stores exactly, table engines by
** type); the AI Core store that accepts the node also gives its dtype
** (FE's column match: inputs fed by non-constant nodes first, then the
** others, then the outputs, each narrowing the columns by the strategy's
** row for it; the first column left wins). Per-type work (the op of each
** store, its dtype ids, the 16in32out test) is done once per op type; per
** node the cost is its tensors times the op's columns. An op with
** conditional dtypes blocks (doc/rule-language.md 6.5) has each block
** compiled once too; only for such an op are the blocks' conditions tested
** per node (node_op), in order, until one holds.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "eval/judge.h"
#include "lang/oplib.h"
#include "options/dtype_files.h"
#include "base/suggest.h"

/* one op of one store, compiled for the judge */
typedef struct jop {
  const gr_oplib_op *op;
  const gr_oplib_store *st;
  uint32_t ncol;                /* columns (columns stores); 0 when a tensor has no list */
  uint32_t nin, nout;
  int dyn_in;                   /* index of its dynamic input, -1 none */
  uint8_t *col;                 /* (nin + nout) * ncol dtype ids, tensor-major */
  uint64_t *mask;               /* nin + nout: every dtype the tensor lists */
  uint8_t has_lists, has16in32out, ge_op, kernel;
  uint8_t policy;               /* the op's list after MODIFY_MIXLIST (GR_POLICY_*) */
  uint32_t nwhen;               /* conditional dtypes blocks (op->when), tested per node in order */
  struct jop **alt;             /* nwhen: the op compiled with each block's lists */
} jop;

#define WHY_HOT 1024            /* entries of gr_judge.why_hot, a power of two */

struct gr_judge {
  const gr_judge_rules *j;
  /* the outcomes: nodes judged alike (one memo id) share one, so that a
  ** node costs 5 bytes, not a gr_jnode (measured: on this project's
  ** machines a fresh MiB costs about 0.7 ms to fault in, and the 1M-op
  ** graph's per-node outcomes were 30 MB). outs[0] is all zero (a node not
  ** judged yet); outs[nouts] is the one being judged, made an outcome of
  ** its own unless the memo has it (judge_node). Mapped for nnodes + 2,
  ** touched only as far as used. */
  gr_jnode *outs;
  uint32_t nouts;
  uint32_t *out_of;             /* per node: the index of its outcome in outs */
  uint8_t *casts;               /* per node: the Casts GE inserts before it (count_casts) */
  uint32_t nnodes;              /* the graph's nodes when judged */
  uint8_t *after;               /* per graph tensor */
  size_t ntensors;
  uint8_t *gdt;                 /* graph dtype id -> dtype id */
  uint32_t ngdt;
  uint16_t *type_flags;         /* per graph type: the TF_ bits below */
  const char **judged_as;       /* per graph type: the type FE's fusion gives it before the judge (table
                                ** engine_fused_ops), NULL none */
  const char **fused_by;        /* per graph type: the pass that does it */
  /* the chip's stores, by engine */
  uint32_t *est0, *estn;        /* per engine: first index in stores[], count */
  const gr_oplib_store **stores; uint32_t nstores;
  uint16_t *store_index;        /* stores[i] is gr_oplib_store_at(store_index[i]) */
  jop **ops;                    /* ntypes * nstores, NULL when absent; then as many again for the
                                ** types a fusion pass makes something else when the node is dynamic */
  uint32_t ntypes;              /* the graph's types */
  /* per graph type, who is judged on its second row (judged_as[ntypes + t]):
  ** FUSED_DYN, its dynamic nodes are judged as judged_as[ntypes + t];
  ** FUSED_LEAVES, its pass leaves a node it does not fuse, which is judged as
  ** judged_as[ntypes + t] (NULL: its own type) */
  uint8_t *fused_rows;
  const gr_node *nodes0;        /* the graph's nodes (judge_row: a node's outcome by its index) */
  /* per graph type: for a fused type with an entry of engine_fused_inputs,
  ** per input of the node the fused op's input that takes it (FUSED_NONE:
  ** none), fused_nin[t] of them; NULL: matched as any node's */
  uint8_t **fused_in; uint8_t *fused_nin;
  /* per graph type: for a fused type with an entry of engine_fused_const_inputs,
  ** the node's inputs the pass needs as constants, fused_ncin[t] of them; NULL none */
  uint8_t **fused_cin; uint8_t *fused_ncin;
  uint8_t *id_type;             /* per graph type: 1 + its entry of engine_removed_identity_ops, 0 none */
  uint8_t *id_removed;          /* per node: GE's pass deletes it (engine_removed_identity_ops), NULL none */
  uint8_t *shape_removed;       /* per node: it changes no shape and GE deletes it (engine_removed_same_shape_ops), NULL none */
  uint8_t *folded;              /* per node: GE's constant folding replaces it by a Const (engine_folded_ops), NULL none */
  int fold_off;                 /* the input that switches constant folding off (engine_folded_kept_by), else -1 */
  uint8_t *excluded;            /* per engine */
  int removal_off;              /* the input that switches off the deleting of same-dtype ops, else -1 */
  int infer_kept;               /* the entry of engine_removed_inference_kept_by that keeps its ops (a training graph), else -1 */
  /* the string ids of the attributes that name a node's inputs
  ** (gr_graph_input_names); has_names 0: the model names none */
  uint32_t in_name_key, in_name_value; int has_names;
  int strategy;                 /* the mode's strategy, -1 none */
  const char *mode_option, *mode_value, *family;
  uint8_t *keep;                /* per node: KEEP_DTYPE, or NULL */
  gr_mixlist mix; int has_mix;  /* MODIFY_MIXLIST */
  gr_keep_dtype keepf; int has_keep;   /* KEEP_DTYPE */
  gr_cust_dtypes cust; int has_cust;   /* CUSTOMIZE_DTYPES */
  /* the outcomes already judged, by node signature (memo_key) */
  gr_strpool memo;
  /* per memo id - 1 (id 0 is the pool's ""): the index of its outcome and
  ** the offset of its tensors' after dtypes in memo_bytes */
  GR_VEC(struct memo_entry { uint32_t out; uint32_t after; uint8_t casts; }) memo_v;
  gr_buf memo_bytes;
  /* per op type: the memo id the type's last memoised node had (0: none). A
  ** node is most often alike its type's last one (a model's layers repeat),
  ** and comparing its key with that one's costs a tenth of interning it
  ** (measured: interning was 214 instructions per node on a 100K-op graph) */
  uint32_t *type_last;
  uint32_t *rec;                /* per node: its record id (gr_judge_record), 0 none */
  gr_strpool why_keys;          /* (what, k, record) of the reasons written so far (why_memo) */
  /* in front of why_keys, a direct-mapped cache of its recent ids: the rules
  ** `for each refusal` and the report ask for a node's reasons several times
  ** (measured: interning the key was 200 instructions of why_memo's 350) */
  struct why_hot { uint32_t key[3]; uint32_t id; } why_hot[WHY_HOT];
  GR_VEC(struct why_text { const char *text; size_t len; int ret; }) why;   /* per why_keys id - 1 */
  /* the per-node match's scratch, grown to the widest op and node */
  uint32_t *scratch; int64_t *gaps; size_t nscratch;
  gr_arena arena;
};

/* node n's outcome */
#define JN(J, n) (&(J)->outs[(J)->out_of[n]])
/* an input of a fused node that no input of the fused op takes */
#define FUSED_NONE 255

/* scratch for n columns (cand + tmp) and n inputs (order) */
static void grow_scratch(gr_judge *J, size_t n){
  if( n <= J->nscratch ) return;
  J->nscratch = n * 2;
  J->scratch = gr_xrealloc(J->scratch, (J->nscratch * 3 + 1) * sizeof *J->scratch);
  J->gaps = gr_xrealloc(J->gaps, (J->nscratch + 1) * sizeof *J->gaps);
}

#define TF_CUBE 1
#define TF_UNJUDGED 2
#define TF_SENSITIVE 4
#define TF_CAST 8
#define TF_UNPLACED 16
#define TF_CONST 32
#define TF_REMOVED_SAME 64     /* deleted before placement when input 0 and output 0 dtypes agree */
#define TF_WHEN 128            /* some store's op has conditional dtypes blocks: the blocks a node takes join its memo key */
#define TF_REMOVED_INFER 256   /* deleted before placement: not a training graph (engine_removed_inference_ops) */
#define TF_FOLD 512            /* folded into a Const when every input is a constant (engine_folded_ops) */
#define TF_FOLD_SHAPE 1024     /* folded into a Const when its input shapes are static (engine_folded_shape_ops) */
#define TF_FOLD_CONST 2048     /* a constant whose weight constant folding reads (table const_ops) */
#define TF_REMOVED_SHAPE 4096  /* deleted before the judge when input 0 and output 0 shapes agree and are static */
#define TF_FUSED_AWAY 8192     /* a fusion pass replaces it in a way not modelled (engine_fused_unmodelled_ops) */
#define TF_FUSED_CONST 16384   /* its fusion pass needs some inputs as constants (engine_fused_const_inputs: fused_cin) */
#define TF_FUSED_CHECKED 32768 /* its fusion pass asks FE's op support check before it fuses (engine_fused_checked_ops) */

/* The judge's dtype id of a graph dtype id (0: none, or one it does not know). */
static uint8_t model_dt(const gr_judge *J, uint16_t id){ return J->gdt[id < J->ngdt ? id : 0]; }

static int in_set(const gr_table *t, const char *k){ return t && k && gr_map_get(&t->keymap, k)!=NULL; }

static const char *table_str(const gr_table *t, const char *k){
  void *v;
  const gr_expr *e;
  if( t==NULL || k==NULL || (v = gr_map_get(&t->keymap, k))==NULL ) return NULL;
  e = t->vals[(size_t)(intptr_t)v - 1];
  return e && e->op==GR_E_STR ? e->s : NULL;
}

/* ---- compiling the ops of the chip's stores ---- */

/* dtype ids of an op's column names: the names are the dtypes table's own
** strings (check_oplib.c split_list), repeated along the columns, so a few
** pointers remembered per op spare most lookups */
typedef struct dt_memo { const char *name[16]; uint8_t id[16]; } dt_memo;

/* the row of J->ops, J->judged_as for node nd: its type's, or for a
** dynamic node of a type a fusion pass makes another type when dynamic,
** that one's */
#define FUSED_DYN 1
#define FUSED_LEAVES 2
static uint32_t judge_row(const gr_judge *J, const gr_node *nd){
  uint8_t f = J->fused_rows[nd->type];
  if( !f ) return nd->type;
  if( (f & FUSED_DYN) && (nd->flags & GR_NODE_DYNAMIC) ) return J->ntypes + nd->type;
  /* a node the pass leaves as it is (gr_jnode.left): its own type */
  return J->outs[J->out_of[nd - J->nodes0]].left ? J->ntypes + nd->type : nd->type;
}
/* node nd's ops, one per store */
static jop *const *node_ops(const gr_judge *J, const gr_node *nd){
  return J->ops + (size_t)judge_row(J, nd) * J->nstores;
}
/* whether type t's pass leaves some nodes as they are: a DYNAMIC_TYPE that
** is its own (engine_fused_ops), or the type in engine_fused_leaving_ops, so
** that a node it cannot fuse (an input not a non-empty constant, the AI Core
** refusing the fused type) keeps its type */
static int pass_leaves(const gr_judge *J, uint32_t t){ return (J->fused_rows[t] & FUSED_LEAVES)!=0; }
/* whether a fusion pass makes node nd another type (engine_fused_ops): not
** for a node the pass leaves as it is */
static int fused_here(const gr_judge *J, const gr_node *nd){ return J->judged_as[judge_row(J, nd)]!=NULL; }
/* the type node nd is judged as: the fused one (engine_fused_ops) or its own */
static const char *judged_type(const gr_judge *J, const gr_graph *g, const gr_node *nd){
  const char *as = J->judged_as[judge_row(J, nd)];
  return as ? as : gr_graph_type_name(g, nd->type);
}

/* type's list of input indices in table t (engine_fused_inputs,
** engine_fused_const_inputs; check_judge.c: ints -1..254, at most 254) into
** *out as bytes, -1 as FUSED_NONE, and its length into *n; nothing when t has
** no entry for the type */
static void fused_list(gr_judge *J, const gr_table *t, const char *type, uint8_t **out, uint8_t *n){
  void *at = t ? gr_map_get(&t->keymap, type) : NULL;
  const gr_expr *x;
  uint32_t k = 0;
  if( at==NULL ) return;
  for(x = t->vals[(size_t)(intptr_t)at - 1]->a; x; x = x->next) k++;
  *out = gr_arena_calloc(&J->arena, k ? k : 1);
  *n = (uint8_t)k;
  for(k = 0, x = t->vals[(size_t)(intptr_t)at - 1]->a; x; x = x->next, k++) (*out)[k] = x->i >= 0 ? (uint8_t)x->i : FUSED_NONE;
}

static uint32_t dt_id(const gr_judge_rules *j, dt_memo *m, const char *name){
  unsigned k = (unsigned)(((uintptr_t)name >> 3) & 15);
  if( name==NULL || m->name[k]!=name ){
    uint32_t d = gr_judge_dtype_id(j, name);
    if( name==NULL ) return d;
    m->name[k] = name; m->id[k] = (uint8_t)d;
  }
  return m->id[k];
}

static jop *compile_op(gr_judge *J, const gr_oplib_store *st, const gr_oplib_op *op){
  const gr_judge_rules *j = J->j;
  jop *o = gr_arena_calloc(&J->arena, sizeof *o);
  uint32_t t, c, nt;
  dt_memo memo;
  memset(&memo, 0, sizeof memo);
  o->op = op; o->st = st;
  o->nin = (uint32_t)op->ninputs; o->nout = (uint32_t)op->noutputs;
  o->dyn_in = -1;
  o->kernel = st->kind==GR_OPLIB_KERNEL;
  o->ge_op = (op->flags & GR_OPF_GE_OP)!=0;
  nt = o->nin + o->nout;
  o->mask = gr_arena_calloc(&J->arena, (nt ? nt : 1) * sizeof *o->mask);
  o->has_lists = nt > 0;
  for(t = 0; t < nt; t++){
    const gr_oplib_tensor *ts = t < o->nin ? &op->inputs[t] : &op->outputs[t - o->nin];
    if( t < o->nin && ts->param==GR_PARAM_DYNAMIC && o->dyn_in < 0 ) o->dyn_in = (int)t;
    if( ts->ndtypes <= 0 ){ o->has_lists = 0; continue; }
    if( !o->kernel && (uint32_t)ts->ndtypes > o->ncol ) o->ncol = (uint32_t)ts->ndtypes;
    for(c = 0; c < (uint32_t)ts->ndtypes; c++){
      uint32_t d = dt_id(j, &memo, ts->dtypes[c]);
      if( d ) o->mask[t] |= (uint64_t)1 << d;
    }
  }
  if( !o->kernel && o->has_lists && o->ncol ){
    o->col = gr_arena_calloc(&J->arena, (size_t)nt * o->ncol);
    for(t = 0; t < nt; t++){
      const gr_oplib_tensor *ts = t < o->nin ? &op->inputs[t] : &op->outputs[t - o->nin];
      for(c = 0; c < o->ncol && c < (uint32_t)ts->ndtypes; c++) o->col[(size_t)t * o->ncol + c] = (uint8_t)dt_id(j, &memo, ts->dtypes[c]);
    }
  }else if( !o->kernel ) o->ncol = 0;
  return o;
}

/* the 16in32out guard: a column with input 0 float16 and output 0 float32
** (FE-JUDGE :218-265); the two names are the guard's definition */
static void mark_16in32out(const gr_judge_rules *j, jop *o){
  uint32_t c, f16 = gr_judge_dtype_id(j, "float16"), f32 = gr_judge_dtype_id(j, "float32");
  if( o->kernel || o->col==NULL || o->nin==0 || o->nout==0 ) return;
  for(c = 0; c < o->ncol; c++){
    if( o->col[c]==f16 && o->col[(size_t)o->nin * o->ncol + c]==f32 ){ o->has16in32out = 1; return; }
  }
}

/* The input position (index into the node's data edges) of input
** descriptor k: the same, unless the model gives descriptors only for the
** inputs that are connected (an optional input left empty, "", has none):
** then the k-th connected input. GE matches an op's tensors by IR input
** name, which such a model keeps only as this position. */
static uint32_t desc_pos(const gr_graph *g, const gr_node *nd, uint32_t k){
  const gr_edge *ed;
  uint32_t i, seen = 0;
  if( nd->n_in_desc >= nd->n_data ) return k;
  ed = gr_graph_edges(g, nd);
  for(i = 0; i < nd->n_data; i++){
    if( ed[i].src==GR_NONE ) continue;
    if( seen++==k ) return i;
  }
  return k;
}

/* which op tensor graph input i maps to (a dynamic input takes the surplus), -1 none */
static int op_input(const jop *o, uint32_t i, uint32_t ngraph){
  if( o->dyn_in >= 0 ){
    uint32_t k = (uint32_t)o->dyn_in, extra = ngraph > o->nin ? ngraph - o->nin : 0;
    if( i < k ) return (int)i;
    if( i <= k + extra ) return (int)k;
    return (int)(i - extra) < (int)o->nin ? (int)(i - extra) : -1;
  }
  return i < o->nin ? (int)i : -1;
}

/* The op tensor input `slot` of node nd maps to: by the IR name the model
** gives the slot (GE matches an op's tensors by name: a dynamic input's
** instances are named `key0`, `key1`...), else by position (op_input), a
** dynamic input taking the positions the op's inputs do not have, up to the
** last connected one. A name the op's inputs do not have falls back to the
** position too. */
static int slot_input(const gr_judge *J, const gr_graph *g, const gr_node *nd, const jop *o, uint32_t slot){
  uint32_t nin = nd->n_in_desc;
  if( J->fused_in[nd->type] && fused_here(J, nd) ){
    /* a fusion pass rewires the node's inputs (table engine_fused_inputs) */
    uint8_t k = slot < J->fused_nin[nd->type] ? J->fused_in[nd->type][slot] : FUSED_NONE;
    return k!=FUSED_NONE && k < o->nin ? (int)k : -1;
  }
  if( J->has_names ){
    uint32_t id = gr_graph_input_name(g, nd, J->in_name_key, J->in_name_value, slot);
    if( id!=GR_NONE ){
      const char *nm = gr_graph_str(g, id);
      size_t len = strlen(nm);
      uint32_t t, n = o->nin < (uint32_t)o->op->ninputs ? o->nin : (uint32_t)o->op->ninputs;
      for(t = 0; t < n; t++) if( strcmp(nm, o->op->inputs[t].name)==0 ) return (int)t;
      for(t = 0; t < n; t++){
        /* an instance of a dynamic input: its name and a number */
        const gr_oplib_tensor *ts = &o->op->inputs[t];
        size_t tl = strlen(ts->name), d;
        if( ts->param!=GR_PARAM_DYNAMIC || len <= tl || memcmp(nm, ts->name, tl)!=0 ) continue;
        for(d = tl; d < len && nm[d] >= '0' && nm[d] <= '9'; d++) ;
        if( d==len ) return (int)t;
      }
    }
  }
  {
    /* the positions up to the last connected one: trailing unconnected
    ** positions are optional inputs of the model's IR (a newer IR than the
    ** op library's has more, at the end), not instances of a dynamic input */
    const gr_edge *ed = gr_graph_edges(g, nd);
    uint32_t used = nd->n_data;
    while( used > 0 && ed[used - 1].src==GR_NONE ) used--;
    return op_input(o, slot, used > nin ? used : nin);
  }
}

/* ---- setup ---- */

/* Moves the readers' diagnostics into the result's, with their codes. */
static void take_diags(gr_result *r, gr_diags *d, const char *option){
  size_t i;
  for(i = 0; i < d->n; i++){
    const gr_diag *x = &d->v[i];
    gr_diag *y = gr_diags_add(&r->diags, x->sev, x->file, x->line, x->col, "%s", x->msg);
    if( y==NULL ) continue;
    gr_diag_set(&y->code, x->code);
    gr_diag_set(&y->ge_code, x->ge_code);
    gr_diag_set(&y->snippet, x->snippet);
    gr_diag_set(&y->option, option);
  }
  gr_diags_free(d);
}

/* KEEP_DTYPE matching (GE's utils.cc:20-65): a name entry marks the node of
** that name, a type entry every node of that type. */
typedef struct keep_ctx { gr_result *r; gr_judge *J; unsigned suggested; } keep_ctx;
static int keep_matches(void *ctx, const gr_keep_entry *e){
  const gr_graph *g = ((keep_ctx *)ctx)->r->g;
  uint32_t id;
  return e->by_type ? gr_graph_find_type(g, e->text, &id) : gr_graph_find_node(g, e->text, &id);
}
static int cust_matches(void *ctx, const gr_cust_entry *e){
  const gr_graph *g = ((keep_ctx *)ctx)->r->g;
  uint32_t id;
  return e->by_type ? gr_graph_find_type(g, e->key, &id) : gr_graph_find_node(g, e->key, &id);
}

/* "Did you mean" for a KEEP_DTYPE or CUSTOMIZE_DTYPES line that matches no
** node: the closest op type or node name of the graph (a name from elsewhere,
** an op library type say, would match no node either). Each call walks the
** graph's names, so only the first SUGGEST_MAX unmatched lines of a file get
** one: a 10,000-line file of stale names must not cost 10,000 walks of a
** million nodes. */
#define SUGGEST_MAX 32
static const char *graph_suggest(keep_ctx *kc, const char *word, int by_type){
  const gr_graph *g = kc->r->g;
  gr_suggester sg;
  uint32_t i, n;
  if( kc->suggested >= SUGGEST_MAX ) return NULL;
  kc->suggested++;
  gr_suggest_begin(&sg, word);
  if( by_type ) for(i = 0, n = gr_graph_ntypes(g); i < n; i++) gr_suggest_offer(&sg, gr_graph_type_name(g, i));
  else for(i = 0, n = gr_graph_nnodes(g); i < n; i++) gr_suggest_offer(&sg, gr_graph_str(g, gr_graph_nodes(g)[i].name));
  return gr_suggest_best(&sg);
}
static const char *keep_suggest(void *ctx, const gr_keep_entry *e){ return graph_suggest(ctx, e->text, e->by_type); }
static const char *cust_suggest(void *ctx, const gr_cust_entry *e){ return graph_suggest(ctx, e->key, e->by_type); }

/* Reads the option files of table dtype_option_files; -1 when one is
** malformed (its errors are in r->diags and the evaluation fails). */
static int load_files(gr_result *r, gr_judge *J){
  const gr_judge_rules *j = J->j;
  const gr_graph *g = r->g;
  int f, bad = 0;
  for(f = GR_JFILE_MIXLIST; f <= GR_JFILE_CUSTOM; f++){
    const gr_option *o = j->file_option[f];
    const gr_optstate *os;
    gr_diags d;
    int rc;
    keep_ctx kc = { r, J, 0 };
    if( o==NULL ) continue;
    os = gr_option_state(r, o->index);
    if( !os->effective || os->value==NULL || os->value[0]==0 ) continue;
    gr_diags_init(&d);
    if( f==GR_JFILE_MIXLIST ){
      rc = gr_mixlist_read(os->value, &J->mix, r->rs, J->family, &d);
      J->has_mix = rc==0;
    }else if( f==GR_JFILE_KEEP ){
      rc = gr_keep_dtype_read(os->value, &J->keepf, &d);
      if( rc==0 && gr_keep_dtype_check(&J->keepf, keep_matches, keep_suggest, &kc, &d) > 0 ) rc = -1;
      J->has_keep = rc==0;
    }else{
      rc = gr_cust_dtypes_read(os->value, &J->cust, r->rs, J->family, &d);
      if( rc==0 && gr_cust_dtypes_check(&J->cust, cust_matches, cust_suggest, &kc, &d) > 0 ) rc = -1;
      J->has_cust = rc==0;
    }
    if( rc!=0 || gr_diags_errors(&d) ) bad = 1;
    take_diags(r, &d, o->name);
  }
  if( J->has_keep ){
    size_t k;
    uint32_t n, nn = gr_graph_nnodes(g);
    uint8_t *bytype = gr_xcalloc(gr_graph_ntypes(g) + 1, 1);
    J->keep = gr_arena_calloc(&J->arena, nn + 1);
    for(k = 0; k < J->keepf.n; k++){
      const gr_keep_entry *e = &J->keepf.v[k];
      uint32_t id;
      if( e->by_type ){ if( gr_graph_find_type(g, e->text, &id) ) bytype[id] = 1; }
      else if( gr_graph_find_node(g, e->text, &id) ){
        /* every node of that name (one per subgraph at most) */
        uint32_t sid;
        if( gr_graph_find_str(g, e->text, &sid) ) for(n = 0; n < nn; n++) if( gr_graph_nodes(g)[n].name==sid ) J->keep[n] = 1;
      }
    }
    for(n = 0; n < nn; n++) if( bytype[gr_graph_nodes(g)[n].type] ) J->keep[n] = 1;
    free(bytype);
  }
  return bad ? -1 : 0;
}

/* The input that switches a pass off by table t (option keys as given ->
** the values that do; the last input of a key wins), else -1. */
static int switched_off(const gr_result *r, const gr_table *t){
  int off = -1;
  size_t i;
  for(i = 0; t && i < r->ninputs; i++){
    const gr_input *in = &r->inputs[i];
    void *at = in->key ? gr_map_get(&t->keymap, in->key) : NULL;
    const gr_expr *x;
    if( !at ) continue;
    off = -1;
    for(x = t->vals[(uintptr_t)at - 1]->a; x; x = x->next)
      if( in->value && strcmp(x->s, in->value)==0 ) off = (int)i;
  }
  return off;
}

static void setup(gr_result *r, gr_judge *J){
  const gr_ruleset *rs = r->rs;
  const gr_judge_rules *j = J->j;
  const gr_graph *g = r->g;
  uint32_t e, i, ns = (uint32_t)gr_oplib_nstores(rs), nt = gr_graph_ntypes(g), t;
  J->family = r->soc_name ? gr_oplib_family(rs, r->soc_name) : NULL;
  J->has_names = gr_graph_input_names(g, &J->in_name_key, &J->in_name_value);
  if( load_files(r, J)!=0 ) r->fatal = 1;
  /* the mode's strategy: the first of precision_mode_options with a value */
  J->strategy = -1;
  for(i = 0; i < j->nmode_options; i++){
    const gr_optstate *os = gr_option_state(r, j->mode_options[i]->index);
    if( os->value && os->value[0] ){
      J->mode_option = j->mode_options[i]->name;
      J->mode_value = os->value;
      J->strategy = gr_judge_strategy_index(j, table_str(j->mode_strategy, os->value));
      break;
    }
  }
  /* excluded engines */
  J->excluded = gr_arena_calloc(&J->arena, j->nengines + 1);
  if( j->exclude_option ){
    const gr_optstate *os = gr_option_state(r, j->exclude_option->index);
    size_t k;
    for(k = 0; k < os->nitems; k++)
      for(e = 0; e < j->nengines; e++) if( j->engines[e].exclude_name[0] && strcmp(j->engines[e].exclude_name, os->items[k])==0 ) J->excluded[e] = 1;
  }
  /* the passes that delete same-dtype (same-shape, identity) ops and
  ** constant folding are off when a given option says so (tables
  ** engine_removed_same_dtype_kept_by, engine_folded_kept_by) */
  J->removal_off = (j->removed_same_dtype_ops || j->removed_identity_ops || j->removed_same_shape_ops)
                   ? switched_off(r, j->removed_kept_by) : -1;
  J->fold_off = j->folded_ops || j->folded_shape_ops ? switched_off(r, j->folded_kept_by) : -1;
  /* a training graph keeps the ops an inference graph loses (table
  ** engine_removed_inference_kept_by: an option's value after defaults) */
  J->infer_kept = -1;
  for(i = 0; j->removed_inference_ops && i < j->ninfer_kept; i++){
    const gr_optstate *os = gr_option_state(r, j->infer_kept_opt[i]->index);
    const gr_expr *x;
    for(x = j->infer_kept_vals[i]->a; x && J->infer_kept < 0; x = x->next)
      if( os->value && strcmp(x->s, os->value)==0 ) J->infer_kept = (int)i;
  }
  /* the stores serving the chip, grouped by engine in engine order */
  J->est0 = gr_arena_calloc(&J->arena, (j->nengines + 1) * sizeof *J->est0);
  J->estn = gr_arena_calloc(&J->arena, (j->nengines + 1) * sizeof *J->estn);
  J->stores = gr_arena_calloc(&J->arena, (ns + 1) * sizeof *J->stores);
  J->store_index = gr_arena_calloc(&J->arena, (ns + 1) * sizeof *J->store_index);
  for(e = 0; e < j->nengines; e++){
    J->est0[e] = J->nstores;
    for(i = 0; i < ns; i++){
      const gr_oplib_store *st = gr_oplib_store_at(rs, (int)i);
      if( strcmp(st->engine, j->engines[e].id)!=0 || !gr_oplib_serves(st, J->family) ) continue;
      J->store_index[J->nstores] = (uint16_t)i;
      J->stores[J->nstores++] = st;
    }
    J->estn[e] = J->nstores - J->est0[e];
    /* stores come sorted by (engine, priority, name): keep priority order */
  }
  /* per type: flags and the op of every store */
  J->type_flags = gr_arena_calloc(&J->arena, (nt + 1) * sizeof *J->type_flags);
  J->ntypes = nt;
  J->judged_as = gr_arena_calloc(&J->arena, (2 * (size_t)nt + 1) * sizeof *J->judged_as);
  J->fused_by = gr_arena_calloc(&J->arena, (nt + 1) * sizeof *J->fused_by);
  J->fused_rows = gr_arena_calloc(&J->arena, nt + 1);
  J->fused_in = gr_arena_calloc(&J->arena, (nt + 1) * sizeof *J->fused_in);
  J->fused_nin = gr_arena_calloc(&J->arena, nt + 1);
  J->fused_cin = gr_arena_calloc(&J->arena, (nt + 1) * sizeof *J->fused_cin);
  J->fused_ncin = gr_arena_calloc(&J->arena, nt + 1);
  J->id_type = gr_arena_calloc(&J->arena, nt + 1);
  J->type_last = gr_arena_calloc(&J->arena, (nt + 1) * sizeof *J->type_last);
  J->ops = gr_arena_calloc(&J->arena, (2 * (size_t)nt * J->nstores + 1) * sizeof *J->ops);
  /* t < nt: graph type t; nt + t: graph type t's dynamic nodes, where a
  ** fusion pass makes them another type than the static ones */
  for(t = 0; t < 2 * nt; t++){
    uint32_t gt = t < nt ? t : t - nt;
    const char *own = gr_graph_type_name(g, gt), *tn = own;   /* tn: the type it is judged as */
    uint16_t f = 0;
    /* a type a fusion pass of FE replaces before the judge: judged and
    ** placed as the type it becomes (the node keeps its name) */
    void *at = j->fused_ops ? gr_map_get(&j->fused_ops->keymap, tn) : NULL;
    if( at ){
      /* [type, pass] or [type, pass, type when dynamic] (check_judge.c checks the shape) */
      const gr_expr *v = j->fused_ops->vals[(size_t)(intptr_t)at - 1];
      const gr_expr *dyn = v->a->next->next;
      int own_dyn = dyn && strcmp(dyn->s, own)==0, leaves = own_dyn || in_set(j->fused_leaving, own);
      if( t >= nt && dyn==NULL && !leaves ) continue;
      /* a DYNAMIC_TYPE that is the op's own: the pass leaves a dynamic node
      ** as it is (judged_as NULL: judged and placed as its own type), and
      ** any node it cannot fuse; so does a pass of engine_fused_leaving_ops
      ** (check_judge.c: its DYNAMIC_TYPE, if any, is its own) */
      if( t >= nt ) J->fused_rows[gt] = (uint8_t)((dyn ? FUSED_DYN : 0) | (leaves ? FUSED_LEAVES : 0));
      J->judged_as[t] = t < nt ? v->a->s : dyn==NULL || own_dyn ? NULL : dyn->s;
      J->fused_by[gt] = v->a->next->s;
      if( t < nt ){
        fused_list(J, j->fused_inputs, gr_graph_type_name(g, gt), &J->fused_in[gt], &J->fused_nin[gt]);
        fused_list(J, j->fused_const, gr_graph_type_name(g, gt), &J->fused_cin[gt], &J->fused_ncin[gt]);
      }
      if( J->judged_as[t] ) tn = J->judged_as[t];
    }else if( t >= nt ) continue;
    if( in_set(j->fp16_ops, tn) ) f |= TF_CUBE;
    if( in_set(j->unjudged_ops, tn) ) f |= TF_UNJUDGED;
    if( in_set(j->sensitive_ops, tn) ) f |= TF_SENSITIVE;
    if( in_set(j->cast_ops, tn) ) f |= TF_CAST;
    if( in_set(j->unplaced_ops, tn) ) f |= TF_UNPLACED;
    if( t < nt && J->fused_cin[gt] ) f |= TF_FUSED_CONST;
    if( t < nt && J->fused_by[gt] && in_set(j->fused_checked, own) ) f |= TF_FUSED_CHECKED;
    if( j->fused_unmodelled && (at = gr_map_get(&j->fused_unmodelled->keymap, tn))!=NULL ){
      /* check_judge.c: a non-empty string, never a type of engine_fused_ops */
      f |= TF_FUSED_AWAY;
      J->fused_by[gt] = j->fused_unmodelled->vals[(size_t)(intptr_t)at - 1]->s;
    }
    if( in_set(j->const_ops, tn) ) f |= TF_CONST;
    if( J->removal_off < 0 && in_set(j->removed_same_dtype_ops, tn) ) f |= TF_REMOVED_SAME;
    if( J->infer_kept < 0 && in_set(j->removed_inference_ops, tn) ) f |= TF_REMOVED_INFER;
    if( t < nt && J->removal_off < 0 && in_set(j->removed_same_shape_ops, own) ) f |= TF_REMOVED_SHAPE;
    /* folding happens before fusion: by the graph's own type name */
    if( t < nt && J->fold_off < 0 && in_set(j->folded_ops, own) ) f |= TF_FOLD;
    if( t < nt && J->fold_off < 0 && in_set(j->folded_shape_ops, own) ) f |= TF_FOLD_SHAPE;
    if( t < nt && in_set(j->fold_const_ops, own) ) f |= TF_FOLD_CONST;
    if( t < nt ) J->type_flags[t] = f;
    if( t < nt && J->removal_off < 0 && j->removed_identity_ops ){
      void *k = gr_map_get(&j->removed_identity_ops->keymap, tn);
      if( k ) J->id_type[t] = (uint8_t)(uintptr_t)k;
    }
    for(i = 0; i < J->nstores; i++){
      const gr_oplib_op *op = gr_oplib_find(rs, J->stores[i], tn);
      if( op ){
        jop *o = compile_op(J, J->stores[i], op);
        int k;
        mark_16in32out(j, o);
        o->policy = (uint8_t)(J->has_mix ? gr_mixlist_policy(&J->mix, tn, op->policy) : op->policy);
        J->ops[(size_t)t * J->nstores + i] = o;
        if( op->nwhen > 0 ){
          /* conditional dtypes blocks: each compiled once, chosen per node (node_op) */
          J->type_flags[gt] |= TF_WHEN;
          o->nwhen = (uint32_t)op->nwhen;
          o->alt = gr_arena_calloc(&J->arena, (size_t)op->nwhen * sizeof *o->alt);
          for(k = 0; k < op->nwhen; k++){
            jop *a = compile_op(J, J->stores[i], op->when[k].op);
            mark_16in32out(j, a);
            a->policy = o->policy;
            o->alt[k] = a;
          }
        }
      }
    }
  }
  /* graph dtype ids */
  {
    uint32_t id;
    for(id = 1; ; id++){
      const char *nm = gr_graph_dtype_name(g, (uint16_t)id);
      if( nm==NULL || nm[0]==0 || id > 0xfffe ) break;
    }
    J->ngdt = id;
    J->gdt = gr_arena_calloc(&J->arena, J->ngdt + 1);
    for(id = 1; id < J->ngdt; id++){
      const char *nm = gr_graph_dtype_name(g, (uint16_t)id);
      const char *sp = table_str(j->graph_names, nm);
      J->gdt[id] = (uint8_t)gr_judge_dtype_id(j, sp ? sp : nm);
    }
  }
}

/* ---- the topological order ---- */

static uint32_t *topo_order(const gr_graph *g){
  uint32_t nn = gr_graph_nnodes(g), n, k, head = 0, tail = 0;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t *order = gr_big_alloc((size_t)(nn ? nn : 1) * sizeof *order);
  uint32_t *indeg, *first, *next_edge, *dst;
  size_t ne = 0, m;
  int sorted = 1;
  for(n = 0; n < nn && sorted; n++){
    const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
    for(k = 0; k < (uint32_t)nodes[n].n_data + nodes[n].n_ctrl; k++){
      if( ed[k].src!=GR_NONE && ed[k].src >= n ){ sorted = 0; break; }
    }
  }
  if( sorted ){
    for(n = 0; n < nn; n++) order[n] = n;
    return order;
  }
  /* Kahn over data and control edges; nodes on a cycle follow in file order */
  for(n = 0; n < nn; n++) ne += (size_t)nodes[n].n_data + nodes[n].n_ctrl;
  indeg = gr_xcalloc(nn + 1, sizeof *indeg);
  first = gr_xmalloc((nn + 1) * sizeof *first);
  next_edge = gr_xmalloc((ne + 1) * sizeof *next_edge);
  dst = gr_xmalloc((ne + 1) * sizeof *dst);
  for(n = 0; n < nn; n++) first[n] = GR_NONE;
  m = 0;
  for(n = 0; n < nn; n++){
    const gr_edge *ed = gr_graph_edges(g, &nodes[n]);
    for(k = 0; k < (uint32_t)nodes[n].n_data + nodes[n].n_ctrl; k++){
      if( ed[k].src==GR_NONE || ed[k].src >= nn ) continue;
      dst[m] = n; next_edge[m] = first[ed[k].src]; first[ed[k].src] = (uint32_t)m; m++;
      indeg[n]++;
    }
  }
  for(n = 0; n < nn; n++) if( indeg[n]==0 ) order[tail++] = n;
  while( head < tail ){
    uint32_t x = order[head++], eix;
    for(eix = first[x]; eix!=GR_NONE; eix = next_edge[eix]) if( --indeg[dst[eix]]==0 ) order[tail++] = dst[eix];
  }
  if( tail < nn ){
    for(n = 0; n < nn; n++) if( indeg[n] ){ order[tail++] = n; indeg[n] = 0; }
  }
  free(indeg); free(first); free(next_edge); free(dst);
  return order;
}

/* ---- the per-tensor match ---- */

typedef struct mctx {
  gr_judge *J;
  const gr_judge_rules *j;
  const jop *o;
  const gr_jstrategy *s;
  uint32_t *cand; uint32_t ncand;
  uint32_t *tmp;
  int64_t *gaps;
  gr_buf *trace;
} mctx;

static int forbidden(const mctx *m, uint32_t cd, uint32_t own){
  return m->s->forbid && cd==m->s->forbid && !(m->s->forbid_unless_own && own==m->s->forbid);
}

static void trace_cols(mctx *m, const uint32_t *v, uint32_t n){
  uint32_t i;
  if( !m->trace ) return;
  gr_buf_adds(m->trace, " -> column");
  if( n!=1 ) gr_buf_addc(m->trace, 's');
  for(i = 0; i < n; i++) gr_buf_printf(m->trace, "%s%u", i ? "," : " ", v[i]);
  if( n==0 ) gr_buf_adds(m->trace, " none (no match: columns unchanged)");
}

/* the candidates whose dtype k has a priority gap sign * (prio(k) - prio(e))
** in (lo, high), ordered by gap, stable; their count */
static uint32_t by_gap(mctx *m, const uint8_t *cd, uint32_t own, uint32_t e, int sign, int64_t lo, uint32_t *out){
  const gr_judge_rules *j = m->j;
  int64_t *gaps = m->gaps;
  uint32_t i, n = 0;
  for(i = 0; i < m->ncand; i++){
    uint32_t k = cd[m->cand[i]], x;
    int64_t gap;
    if( k==0 || k==e || !j->has_prio[k] || forbidden(m, k, own) ) continue;
    gap = sign * (j->prio[k] - j->prio[e]);
    if( !(gap > lo && gap < j->gap_high) ) continue;
    /* insertion, stable by gap (n stays small: one op's columns) */
    x = n++;
    while( x > 0 && gaps[x - 1] > gap ){ gaps[x] = gaps[x - 1]; out[x] = out[x - 1]; x--; }
    gaps[x] = gap; out[x] = m->cand[i];
  }
  return n;
}

/* one step over tensor column dtypes cd[]; 1 when it matched (m->cand replaced) */
static int apply_step(mctx *m, const gr_jstep *st, const uint8_t *cd, uint32_t own, uint32_t father){
  const gr_judge_rules *j = m->j;
  uint32_t i, n = 0, e = st->expect==GR_JE_OWN ? own : st->expect==GR_JE_FATHER ? father : st->expect;
  uint32_t *out = m->tmp;
  static const char *const kname[] = { "", "rise", "reduce", "mix", "try", "exact" };
  if( m->trace ){
    gr_buf_printf(m->trace, "; %s", kname[st->kind]);
    if( st->kind==GR_JS_MIX || st->kind==GR_JS_TRY ){
      for(i = 0; i < st->n; i++) gr_buf_printf(m->trace, "%s%s", i ? "," : " ", j->dt_name[st->dt[i]]);
    }else gr_buf_printf(m->trace, " %s", e ? j->dt_name[e] : "(none)");
  }
  switch( st->kind ){
    case GR_JS_RISE:
      if( e==0 ) break;
      if( !j->has_prio[e] ){
        for(i = 0; i < m->ncand; i++) if( cd[m->cand[i]]==e ) out[n++] = m->cand[i];
        break;
      }
      for(i = 0; i < m->ncand; i++) if( cd[m->cand[i]]==e && !forbidden(m, e, own) ) out[n++] = m->cand[i];
      if( n ) break;
      /* higher precision of the same family: priority lower by a gap in
      ** (cross, high), the smallest gap first */
      n = by_gap(m, cd, own, e, -1, j->gap_cross, out);
      break;
    case GR_JS_REDUCE:
      /* lower precision: priority higher by a gap in (low, high), the smallest first */
      if( e==0 || !j->has_prio[e] ) break;
      n = by_gap(m, cd, own, e, 1, j->gap_low, out);
      break;
    case GR_JS_MIX: {
      uint32_t k2 = 0;
      /* forbidden columns go even when nothing matches (mix_precision_matcher :21-51) */
      for(i = 0; i < m->ncand; i++) if( !forbidden(m, cd[m->cand[i]], own) ) m->cand[k2++] = m->cand[i];
      m->ncand = k2;
      for(i = 0; i < m->ncand; i++){
        uint32_t x;
        for(x = 0; x < st->n; x++) if( cd[m->cand[i]]==st->dt[x] ){ out[n++] = m->cand[i]; break; }
      }
      break;
    }
    case GR_JS_TRY: {
      uint32_t x;
      for(x = 0; x < st->n && n==0; x++) for(i = 0; i < m->ncand; i++) if( cd[m->cand[i]]==st->dt[x] ) out[n++] = m->cand[i];
      break;
    }
    case GR_JS_EXACT:
      if( e==0 ) break;
      for(i = 0; i < m->ncand; i++) if( cd[m->cand[i]]==e ) out[n++] = m->cand[i];
      break;
  }
  trace_cols(m, out, n);
  if( n==0 ) return 0;
  memcpy(m->cand, out, n * sizeof *out);
  m->ncand = n;
  return 1;
}

/* ---- one node ---- */

/* Whether GE deletes node n before FE judges anything: IdentityPass and,
** in an inference graph, DropOutPass run in GraphPrepare (tables
** engine_removed_identity_ops, engine_removed_inference_ops); the same-dtype
** Cast goes after the judge and is not one of them. */
static int removed_early(const gr_judge *J, const gr_node *nodes, uint32_t n){
  return (J->type_flags[nodes[n].type] & TF_REMOVED_INFER) || (J->id_removed && J->id_removed[n])
         || (J->shape_removed && J->shape_removed[n]);
}

/* The producer FE sees on an edge from output *idx of src: GE relinks the
** consumers of output 0 of a node deleted early to the producer of that
** node's input 0 (IsolateAndDeleteNode with {0}), through chains of them. */
static uint32_t live_src(const gr_judge *J, const gr_graph *g, uint32_t src, int32_t *idx){
  const gr_node *nodes = gr_graph_nodes(g);
  unsigned hops;
  for(hops = 0; hops < 64 && *idx==0 && removed_early(J, nodes, src); hops++){
    const gr_edge *e = nodes[src].n_data ? &gr_graph_edges(g, &nodes[src])[0] : NULL;
    if( e==NULL || e->src==GR_NONE ) break;
    src = e->src;
    *idx = e->index;
  }
  return src;
}

/* Why GE deletes node n (of type `type`) before it places engines: the
** pass and its table, for the trace and the engine's reason alike. */
static void removed_why(const gr_judge *J, const gr_graph *g, uint32_t n, const char *type, gr_buf *b){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  if( J->type_flags[nd->type] & TF_REMOVED_INFER )
    gr_buf_printf(b, "GE deletes this %s before it places engines: the graph is not a training graph "
                  "(table engine_removed_inference_ops)", type);
  else if( J->id_removed && J->id_removed[n] )
    gr_buf_printf(b, "GE deletes this %s before it places engines: no subgraph's input or output is next to it, and it has "
                  "none of the attributes that keep it (table engine_removed_identity_ops)", type);
  else if( J->shape_removed && J->shape_removed[n] )
    gr_buf_printf(b, "GE deletes this %s before it places engines: its input and output have the same static shape "
                  "(table engine_removed_same_shape_ops)", type);
  else
    gr_buf_printf(b, "GE deletes this %s before it places engines: its input and output are both %s "
                  "(table engine_removed_same_dtype_ops)", type, J->j->dt_name[J->after[nd->tensor0]]);
}

/* Why GE's constant folding replaces node n (of type `type`) by a Const. */
static void folded_why(const gr_judge *J, const gr_graph *g, uint32_t n, const char *type, gr_buf *b){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  if( J->type_flags[nd->type] & TF_FOLD_SHAPE )
    gr_buf_printf(b, "GE's constant folding replaces this %s by a Const before it places engines: its input shapes are "
                  "static (table engine_folded_shape_ops)", type);
  else
    gr_buf_printf(b, "GE's constant folding replaces this %s by a Const before it places engines: every input is a "
                  "constant (table engine_folded_ops)", type);
}

static int is_folded(const gr_judge *J, uint32_t n){ return J->folded && J->folded[n]; }

/* Whether FE sees a constant on an edge from src: a producer of
** dtype_const_ops, or a node folded into a Const. */
static int const_src(const gr_judge *J, const gr_node *nodes, uint32_t src){
  return (J->type_flags[nodes[src].type] & TF_CONST) || is_folded(J, src);
}

/* Whether output idx of node src has a known shape with no element (a 0
** dim): an empty constant, whose value no pass takes (ConstToAttrReduceSumFusion
** leaves a node whose axes are one: reduce_sum_fusion_pass.cc IsEmptyTensor) */
static int empty_output(const gr_graph *g, uint32_t src, int32_t idx){
  const gr_node *pn = &gr_graph_nodes(g)[src];
  uint32_t nd, d, sh;
  const int64_t *dims;
  if( idx < 0 || idx >= pn->n_out_desc ) return 0;
  sh = gr_graph_tensors(g, pn)[pn->n_in_desc + (uint32_t)idx].shape;
  if( !gr_graph_shape_known(g, sh) ) return 0;
  dims = gr_graph_shape(g, sh, &nd);
  for(d = 0; dims && d < nd; d++) if( dims[d]==0 ) return 1;
  return 0;
}

/* what input `in` of node nd gives a pass that needs it as a constant: NULL
** a constant with elements, else why not: absent (the pass reads no value
** there), fed by another node, or an empty constant */
static const char *const_input_state(const gr_judge *J, const gr_graph *g, const gr_node *nd, uint32_t in){
  const gr_edge *e;
  int32_t idx;
  uint32_t src;
  if( in >= nd->n_data || (e = &gr_graph_edges(g, nd)[in])->src==GR_NONE ) return "absent";
  idx = e->index;
  src = live_src(J, g, e->src, &idx);
  if( !const_src(J, gr_graph_nodes(g), src) ) return "not a constant";
  return empty_output(g, src, idx) ? "an empty constant" : NULL;
}

/* For a node of a fused type whose pass needs some inputs as constants
** (engine_fused_const_inputs): 1 + the first of them that is no constant
** with elements (const_input_state), else 0 */
static uint32_t fused_nonconst(const gr_judge *J, const gr_graph *g, const gr_node *nd){
  uint32_t k;
  for(k = 0; k < J->fused_ncin[nd->type]; k++)
    if( const_input_state(J, g, nd, J->fused_cin[nd->type][k]) ) return J->fused_cin[nd->type][k] + 1u;
  return 0;
}

/* unmodelled_why's `in` when the AI Core does not take the fused type */
#define UNMODELLED_REFUSED 0xffffu

/* why a node of a fused type gets no engine and no dtype (GR_JE_UNMODELLED):
** a pass replaces its type in a way not modelled (TF_FUSED_AWAY), or its
** input `in` is one its pass needs as a constant and is not one, or
** (UNMODELLED_REFUSED) the AI Core does not take the type the pass makes */
static void unmodelled_why(const gr_judge *J, const gr_graph *g, uint32_t n, uint32_t in, gr_buf *b){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  uint32_t k, nc = J->fused_ncin[nd->type];
  int checked = (J->type_flags[nd->type] & TF_FUSED_CHECKED)!=0;
  if( J->type_flags[nd->type] & TF_FUSED_AWAY ){
    gr_buf_printf(b, "FE's fusion pass %s replaces this %s before GE places engines (table engine_fused_unmodelled_ops), and what it "
                  "makes of the node is not modelled, so gerules decides neither its engine nor its dtype",
                  J->fused_by[nd->type], gr_graph_type_name(g, nd->type));
    return;
  }
  gr_buf_printf(b, "FE's fusion pass %s makes this %s a %s only when", J->fused_by[nd->type], gr_graph_type_name(g, nd->type),
                J->judged_as[nd->type]);
  if( nc ){
    gr_buf_printf(b, " input%s", nc > 1 ? "s" : "");
    for(k = 0; k < nc; k++) gr_buf_printf(b, "%s%u", k==0 ? " " : k + 1==nc ? " and " : ", ", J->fused_cin[nd->type][k]);
    gr_buf_printf(b, " %s a constant", nc > 1 ? "are each" : "is");
  }
  if( checked ) gr_buf_printf(b, "%s the AI Core takes the %s", nc ? " and" : "", J->judged_as[nd->type]);
  gr_buf_adds(b, nc && checked ? " (tables engine_fused_const_inputs, engine_fused_checked_ops)"
                 : nc ? " (table engine_fused_const_inputs)" : " (table engine_fused_checked_ops)");
  if( in==UNMODELLED_REFUSED ) gr_buf_printf(b, ", and the AI Core's op information library does not take a %s with this node's dtypes and shapes",
                                             J->judged_as[nd->type]);
  else gr_buf_printf(b, ", and input %u is %s", in, const_input_state(J, g, nd, in));
  gr_buf_printf(b, ": what the pass makes of the node then is not modelled, so gerules decides neither its engine nor its dtype");
}

/* why the pass of a node's fused type leaves it as it is (gr_jnode.left) */
static void left_why(const gr_judge *J, const gr_graph *g, uint32_t n, gr_buf *b){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  uint16_t left = J->outs[J->out_of[n]].left;
  gr_buf_printf(b, "FE's fusion pass %s leaves this %s as it is, since ", J->fused_by[nd->type], gr_graph_type_name(g, nd->type));
  if( left==GR_JLEFT_REFUSED )
    gr_buf_printf(b, "the AI Core's op information library does not take a %s with this node's dtypes and shapes (table engine_fused_checked_ops)",
                  J->judged_as[nd->type]);
  else gr_buf_printf(b, "input %u is %s (table engine_fused_const_inputs)", left - 1u, const_input_state(J, g, nd, left - 1u));
}

static uint8_t out_after(const gr_judge *J, const gr_graph *g, uint32_t p, int32_t idx){
  const gr_node *pn = &gr_graph_nodes(g)[p];
  if( idx < 0 || idx >= pn->n_out_desc ) return 0;
  return J->after[pn->tensor0 + pn->n_in_desc + (uint32_t)idx];
}

/* the producer a gray input follows (through one Cast of the strategy's
** see-through list that is not black), and its decided dtype */
static uint8_t father_dtype(const gr_judge *J, const gr_graph *g, const gr_jstrategy *s, uint32_t src, int32_t idx,
                            uint32_t *who, int *unknown){
  const gr_node *nodes = gr_graph_nodes(g);
  const gr_node *pn = &nodes[src];
  if( s->nsee && (J->type_flags[pn->type] & TF_CAST) && !is_folded(J, src) && JN(J, src)->policy!=GR_POLICY_BLACK && pn->n_data > 0
      && pn->n_in_desc > 0 && pn->n_out_desc > 0 ){
    uint16_t conv = (uint16_t)(J->after[pn->tensor0] << 8 | J->after[pn->tensor0 + pn->n_in_desc]);
    uint32_t k;
    const gr_edge *ce = gr_graph_edges(g, pn);
    for(k = 0; k < s->nsee; k++) if( s->see_through[k]==conv ) break;
    if( k < s->nsee && ce[0].src!=GR_NONE ){ src = ce[0].src; idx = ce[0].index; }
  }
  *who = src;
  *unknown = JN(J, src)->dtype_by==GR_JD_UNKNOWN;
  return out_after(J, g, src, idx);
}

static int row_holds(const gr_jrow *row, uint32_t guards, uint32_t dt){
  uint32_t pol = row->guards & (GR_JG_WHITE | GR_JG_BLACK | GR_JG_GRAY);
  if( pol && !(pol & guards) ) return 0;
  if( (row->guards & ~(GR_JG_WHITE | GR_JG_BLACK | GR_JG_GRAY)) & ~guards ) return 0;
  if( row->dtypes && !(dt && (row->dtypes >> dt & 1)) ) return 0;
  return 1;
}

/* CUSTOMIZE_DTYPES (FE-JUDGE InitMatchedIndexByCustomDtype :610-672): the
** columns whose dtype equals every dtype the entry gives (by the op's
** input and output index; an empty one does not care), in order; their count */
static uint32_t custom_columns(const gr_judge *J, const jop *o, const gr_cust_entry *ce, uint32_t *out){
  uint32_t c, n = 0;
  size_t i;
  for(c = 0; c < o->ncol; c++){
    int ok = 1;
    for(i = 0; i < ce->nin && ok; i++){
      if( ce->in[i]==NULL ) continue;
      if( i >= o->nin || o->col[i * o->ncol + c]!=gr_judge_dtype_id(J->j, ce->in[i]) ) ok = 0;
    }
    for(i = 0; i < ce->nout && ok; i++){
      if( ce->out[i]==NULL ) continue;
      if( i >= o->nout || o->col[(o->nin + i) * o->ncol + c]!=gr_judge_dtype_id(J->j, ce->out[i]) ) ok = 0;
    }
    if( ok ) out[n++] = c;
  }
  return n;
}

/* The op of store entry o that judges node n: o itself, or for an op with
** conditional dtypes blocks the first whose condition holds for the node
** (none holding: o, with its unconditional block's lists or none). Only
** such ops evaluate anything here; *when gets 1 + the block, 0 for o. */
static const jop *node_op(gr_result *r, uint32_t n, const jop *o, uint8_t *when, gr_buf *trace){
  gr_env env;
  uint32_t k;
  if( when ) *when = 0;
  if( o==NULL || o->nwhen==0 ) return o;
  gr_env_init(&env, r);
  env.node = n;
  env.type_name = o->op->type;
  for(k = 0; k < o->nwhen; k++){
    if( gr_eval_cond(&env, o->op->when[k].cond) ){
      const gr_oplib_op *a = o->alt[k]->op;
      const char *f = a->file ? strrchr(a->file, '/') : NULL;
      if( trace ) gr_buf_printf(trace, "%s: the dtypes block at %s:%d holds for the node%s%s%s\n", o->st->name,
                                f ? f + 1 : a->file ? a->file : "?", a->line,
                                a->lists_from ? " (lists from " : "", a->lists_from ? a->lists_from : "",
                                a->lists_from ? ")" : "");
      if( when ) *when = (uint8_t)(k + 1 < 255 ? k + 1 : 255);
      return o->alt[k];
    }
  }
  if( trace ) gr_buf_printf(trace, "%s: no conditional dtypes block of %s holds for the node\n", o->st->name, o->op->type);
  return o;
}

/* the dtype judge with op o: returns the dtype_by outcome and fills after[] */
static int judge_dtypes(gr_result *r, gr_judge *J, uint32_t n, const jop *o, int strategy, int keep,
                        const gr_cust_entry *ce, gr_buf *trace){
  const gr_graph *g = r->g;
  const gr_judge_rules *j = J->j;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  const gr_tensor *tens = gr_graph_tensors(g, nd);
  const gr_edge *ed = gr_graph_edges(g, nd);
  gr_jnode *jn = JN(J, n);
  uint32_t nin = nd->n_in_desc, nout = nd->n_out_desc, i, k, pass, nord = 0, nknown = 0;
  uint32_t *order, chosen;
  uint32_t guards_base = 0;
  int reduced = 0;
  mctx m;
  if( !o->has_lists || o->ncol==0 ){
    if( trace ) gr_buf_printf(trace, "%s lists no dtypes for %s (dynamicFormat: decided by its op_select_format at compile time)\n", o->st->name, o->op->type);
    return GR_JD_UNKNOWN;
  }
  memset(&m, 0, sizeof m);
  m.J = J; m.j = j; m.o = o; m.s = &j->strategies[strategy]; m.trace = trace;
  grow_scratch(J, o->ncol > nin ? o->ncol : nin);
  m.cand = J->scratch;
  m.tmp = J->scratch + J->nscratch;
  m.gaps = J->gaps;
  for(i = 0; i < o->ncol; i++) m.cand[i] = i;
  m.ncand = o->ncol;
  if( ce ){
    m.ncand = custom_columns(J, o, ce, m.cand);
    if( trace ) gr_buf_printf(trace, "CUSTOMIZE_DTYPES %s '%s' (line %u) leaves %u column(s)\n", ce->by_type ? "type" : "name",
                              ce->key, ce->line, m.ncand);
  }
  order = J->scratch + 2 * J->nscratch;
  /* non-constant-fed inputs first, then the others (SortInputBySequence) */
  for(pass = 0; pass < 2; pass++){
    for(i = 0; i < nin; i++){
      uint32_t pi = desc_pos(g, nd, i);
      int32_t idx = pi < nd->n_data ? ed[pi].index : 0;
      int konst = pi >= nd->n_data || ed[pi].src==GR_NONE || const_src(J, gr_graph_nodes(g), live_src(J, g, ed[pi].src, &idx));
      if( konst==(int)pass ) order[nord++] = i;
    }
  }
  guards_base |= o->policy==GR_POLICY_WHITE ? GR_JG_WHITE : o->policy==GR_POLICY_BLACK ? GR_JG_BLACK : GR_JG_GRAY;
  if( (J->type_flags[nd->type] & TF_CUBE) && !keep ) guards_base |= GR_JG_CUBE;
  if( o->has16in32out ) guards_base |= GR_JG_16IN32OUT;
  if( trace ) gr_buf_printf(trace, "strategy %s, %s op, %u column(s) of %s\n", m.s->name,
                            o->policy==GR_POLICY_WHITE ? "white" : o->policy==GR_POLICY_BLACK ? "black" : "gray",
                            o->ncol, o->st->name);
  for(k = 0; k < nord + nout; k++){
    int isout = k >= nord;
    uint32_t ti = isout ? nin + (k - nord) : order[k];
    uint32_t pi = isout ? 0 : desc_pos(g, nd, ti);
    int opt = isout ? ((k - nord) < o->nout ? (int)(o->nin + (k - nord)) : -1) : slot_input(J, g, nd, o, pi);
    uint32_t own = model_dt(J, tens[ti].dtype), father = 0, who = GR_NONE, guards = guards_base, r2;
    const uint8_t *cd;
    if( opt < 0 ){
      if( trace && !isout && J->fused_in[nd->type] && fused_here(J, nd) )
        gr_buf_printf(trace, "input %u: no input of %s takes it (table engine_fused_inputs)\n", ti, judged_type(J, g, nd));
      continue;
    }
    cd = o->col + (size_t)opt * o->ncol;
    if( !isout && pi==0 ) guards |= GR_JG_FIRST;
    if( reduced ) guards |= GR_JG_REDUCED;
    if( !isout && pi < nd->n_data && ed[pi].src!=GR_NONE ){
      int unknown = 0;
      int32_t idx = ed[pi].index;
      uint32_t src = live_src(J, g, ed[pi].src, &idx);
      father = father_dtype(J, g, m.s, src, idx, &who, &unknown);
      guards |= GR_JG_FATHER;
      if( unknown ){
        /* only matters when a father row is used */
        for(r2 = 0; r2 < m.s->nrows; r2++) if( row_holds(&m.s->rows[r2], guards, father) || row_holds(&m.s->rows[r2], guards, own) ) break;
        if( r2 < m.s->nrows && (m.s->rows[r2].guards & GR_JG_FATHER) ){
          if( trace ) gr_buf_printf(trace, "input %u follows '%s', whose dtype is unknown\n", ti, gr_graph_str(g, gr_graph_nodes(g)[who].name));
          JN(J, n)->unknown_producer = 1;
          return GR_JD_UNKNOWN;
        }
      }
    }
    if( own==0 ) continue;
    nknown++;
    for(r2 = 0; r2 < m.s->nrows; r2++){
      const gr_jrow *row = &m.s->rows[r2];
      uint32_t s2;
      if( !row_holds(row, guards, (row->guards & GR_JG_FATHER) ? father : own) ) continue;
      if( trace ){
        if( isout ) gr_buf_printf(trace, "output %u %s", ti - nin, j->dt_name[own]);
        else gr_buf_printf(trace, "input %u %s", ti, j->dt_name[own]);
        if( (row->guards & GR_JG_FATHER) && who!=GR_NONE )
          gr_buf_printf(trace, " (producer '%s' %s)", gr_graph_str(g, gr_graph_nodes(g)[who].name), father ? j->dt_name[father] : "none");
        gr_buf_printf(trace, ": row \"%s\"", row->text);
      }
      for(s2 = 0; s2 < row->nsteps; s2++){
        if( apply_step(&m, &row->steps[s2], cd, own, father) ){
          if( row->steps[s2].kind==GR_JS_REDUCE ) reduced = 1;
          break;
        }
      }
      if( trace ) gr_buf_addc(trace, '\n');
      break;
    }
  }
  if( nknown==0 && m.ncand > 1 && !ce ){
    /* no descriptor of the node has a dtype (a graph dumped before infershape
    ** leaves them empty): nothing tells the columns apart, and taking the
    ** first would invent a dtype */
    if( trace ) gr_buf_printf(trace, "no input or output of the node has a dtype: %u columns stay, none picked\n", m.ncand);
    JN(J, n)->unknown_producer = 2;
    return GR_JD_UNKNOWN;
  }
  if( !ce && m.ncand > 1 ){
    /* an input FE would match has no dtype in the model (a reader that could
    ** not infer it): when the columns left give it different dtypes, FE's
    ** match of the real one could pick any of them, and taking the first
    ** would invent the node's dtype. Only an input with a producer counts (an
    ** absent optional input is not matched). Outputs do not: the node's dtype
    ** is its inputs', and a graph dumped before infershape has no output
    ** dtypes, which GE infers from the inputs before the judge. */
    for(k = 0; k < nord; k++){
      uint32_t ti = order[k], pi = desc_pos(g, nd, ti), c;
      int opt = slot_input(J, g, nd, o, pi);
      const uint8_t *cd;
      if( opt < 0 || model_dt(J, tens[ti].dtype) ) continue;
      if( pi >= nd->n_data || ed[pi].src==GR_NONE ) continue;
      cd = o->col + (size_t)opt * o->ncol;
      for(c = 1; c < m.ncand && cd[m.cand[c]]==cd[m.cand[0]]; c++) ;
      if( c < m.ncand ){
        if( trace ) gr_buf_printf(trace, "input %u has no dtype, and the %u column(s) left differ on it: none picked\n", ti, m.ncand);
        jn->unknown_producer = 3;
        jn->unknown_tensor = (uint16_t)opt;
        jn->unknown_ncol = (uint16_t)(m.ncand > 65535 ? 65535 : m.ncand);
        return GR_JD_UNKNOWN;
      }
    }
  }
  chosen = m.ncand ? m.cand[0] : 0;
  if( m.ncand==0 && ce ){ uint32_t first; if( custom_columns(J, o, ce, &first) ) chosen = first; }
  jn->column = (uint16_t)(chosen + 1);
  if( trace ) gr_buf_printf(trace, "column %u wins%s\n", chosen, m.ncand ? "" : " (no column left: the first)");
  for(i = 0; i < nin; i++){
    int opt = slot_input(J, g, nd, o, desc_pos(g, nd, i));
    if( opt >= 0 && o->col[(size_t)opt * o->ncol + chosen] ) J->after[nd->tensor0 + i] = o->col[(size_t)opt * o->ncol + chosen];
  }
  for(i = 0; i < nout && i < o->nout; i++){
    uint8_t d = o->col[(size_t)(o->nin + i) * o->ncol + chosen];
    if( d ) J->after[nd->tensor0 + nin + i] = d;
  }
  return ce ? GR_JD_CUSTOM : keep ? GR_JD_KEEP : GR_JD_MODE;
}

/* AI Core's check (fe_ops_kernel_info_store / sub_ops_store): 0 accepted, else GR_JR_* */
static int fe_check(gr_result *r, gr_judge *J, uint32_t n, const jop *o, int keep, const gr_cust_entry *ce,
                    uint8_t *rdt, uint16_t *rt, uint8_t *rout){
  const gr_graph *g = r->g;
  const gr_judge_rules *j = J->j;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  const gr_tensor *tens = gr_graph_tensors(g, nd);
  uint32_t i, nin = nd->n_in_desc, nout = nd->n_out_desc;
  const gr_jstrategy *cs = NULL;
  if( nd->flags & GR_NODE_DYNAMIC ){
    int rank = 0;
    if( !(o->op->flags & GR_OPF_DYN_SHAPE) ) return GR_JR_DYNAMIC;
    for(i = 0; i < nin + nout && !rank; i++){
      uint32_t nd2, d;
      const int64_t *dims = gr_graph_shape(g, tens[i].shape, &nd2);
      for(d = 0; d < nd2; d++) if( dims[d]==-2 ){ rank = 1; break; }
    }
    if( rank && !(o->op->flags & GR_OPF_DYN_RANK) ) return GR_JR_RANK;
  }
  if( !o->has_lists ) return 0;
  if( ce && o->ncol ){
    /* custom dtypes: some column has them, and the dtype check is skipped
    ** (is_force_dtype_support); none: refused (sub_ops_store.cc:1170-1180, 1280-1302) */
    grow_scratch(J, o->ncol);
    return custom_columns(J, o, ce, J->scratch) ? 0 : GR_JR_CUSTOM;
  }
  if( J->type_flags[nd->type] & TF_SENSITIVE ){
    /* accuracy mode: an exact column (sub_ops_store.cc:494-506, 906-948) */
    uint32_t c;
    if( o->ncol==0 ) return 0;
    for(c = 0; c < o->ncol; c++){
      for(i = 0; i < nin + nout; i++){
        int opt = i < nin ? slot_input(J, g, nd, o, desc_pos(g, nd, i)) : (i - nin < o->nout ? (int)(o->nin + i - nin) : -1);
        uint8_t d = model_dt(J, tens[i].dtype);
        if( opt < 0 || d==0 ) continue;
        if( o->col[(size_t)opt * o->ncol + c]!=d ) break;
      }
      if( i==nin + nout ) return 0;
    }
    *rdt = J->gdt[nin ? tens[0].dtype : 0]; *rt = 0; *rout = 0;
    return GR_JR_EXACT;
  }
  if( keep ) cs = &j->strategies[j->st_keep_dtype >= 0 ? j->st_keep_dtype : 0];
  else if( J->strategy >= 0 ) cs = &j->strategies[J->strategy];
  for(i = 0; i < nin + nout; i++){
    int isout = i >= nin;
    int opt = isout ? (i - nin < o->nout ? (int)(o->nin + i - nin) : -1) : slot_input(J, g, nd, o, desc_pos(g, nd, i));
    uint32_t d = model_dt(J, tens[i].dtype), c;
    uint64_t mask;
    int ok = 0;
    if( opt < 0 || d==0 ) continue;
    mask = o->mask[opt];
    if( mask >> d & 1 ) continue;
    for(c = 0; c < j->nconv_all && !ok; c++) if( j->conv_all[c].from==d && (mask >> j->conv_all[c].to & 1) ) ok = 1;
    if( cs && (cs->has_conv || keep) ){
      for(c = 0; c < cs->nconv && !ok; c++){
        const gr_jconv *cv = &cs->conv[c];
        if( cv->from==d && (mask >> cv->to & 1) && !(cv->unless_black && o->policy==GR_POLICY_BLACK) ) ok = 1;
      }
    }
    if( !ok ){
      *rdt = (uint8_t)d; *rt = (uint16_t)(isout ? i - nin : (uint32_t)opt); *rout = (uint8_t)isout;
      return GR_JR_DTYPE;
    }
  }
  return 0;
}

/* an AI CPU store's check: every listed tensor takes the node's dtype exactly */
static int kernel_check(gr_result *r, gr_judge *J, uint32_t n, const jop *o, uint8_t *rdt, uint16_t *rt, uint8_t *rout){
  const gr_graph *g = r->g;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  uint32_t i, nin = nd->n_in_desc, nout = nd->n_out_desc;
  for(i = 0; i < nin + nout; i++){
    int isout = i >= nin;
    int opt = isout ? (i - nin < o->nout ? (int)(o->nin + i - nin) : -1) : slot_input(J, g, nd, o, desc_pos(g, nd, i));
    uint8_t d = J->after[nd->tensor0 + i];
    if( opt < 0 || d==0 || o->mask[opt]==0 ) continue;
    if( !(o->mask[opt] >> d & 1) ){ *rdt = d; *rt = (uint16_t)(isout ? i - nin : (uint32_t)opt); *rout = (uint8_t)isout; return GR_JR_DTYPE; }
  }
  return 0;
}

static int node_sensitive(const gr_judge *J, const gr_graph *g, const gr_node *nd){
  const gr_tensor *tens = gr_graph_tensors(g, nd);
  uint32_t i;
  if( J->type_flags[nd->type] & TF_SENSITIVE ) return 1;
  for(i = 0; i < (uint32_t)nd->n_in_desc + nd->n_out_desc; i++){
    uint8_t d = model_dt(J, tens[i].dtype);
    if( d && (J->j->complex >> d & 1) ) return 1;
  }
  return 0;
}

static int node_strategy(const gr_judge *J, const gr_graph *g, const gr_node *nd, const jop *o, int keep){
  const gr_judge_rules *j = J->j;
  uint32_t k;
  if( keep && j->st_keep_dtype >= 0 ) return j->st_keep_dtype;
  if( j->st_sensitive >= 0 && node_sensitive(J, g, nd) ) return j->st_sensitive;
  if( o->ge_op && j->st_ge_op >= 0 ){
    for(k = 0; k < j->nge_op_except; k++) if( j->ge_op_except[k]==J->strategy ) break;
    if( k==j->nge_op_except ) return j->st_ge_op;
  }
  return J->strategy;
}

static uint8_t node_dtype(const gr_judge *J, const gr_node *nd){
  uint32_t i;
  for(i = 0; i < nd->n_in_desc; i++){
    uint8_t d = J->after[nd->tensor0 + i];
    if( d && (J->j->floating >> d & 1) ) return d;
  }
  /* no floating input: a floating result says what the node computes in (a
  ** random or fill op reads an integer shape and makes floats) */
  for(i = 0; i < nd->n_out_desc; i++){
    uint8_t d = J->after[nd->tensor0 + nd->n_in_desc + i];
    if( d && (J->j->floating >> d & 1) ) return d;
  }
  for(i = 0; i < nd->n_in_desc; i++) if( J->after[nd->tensor0 + i] ) return J->after[nd->tensor0 + i];
  for(i = 0; i < nd->n_out_desc; i++) if( J->after[nd->tensor0 + nd->n_in_desc + i] ) return J->after[nd->tensor0 + nd->n_in_desc + i];
  return 0;
}

/* The dtype of a node FE does not judge: the model's (node_dtype), except
** that when input 0, the data, has none and no tensor of the node is
** floating, a later input's dtype (a Squeeze's axes, a Gather's indices)
** says nothing of it: then the dtype is unknown (unknown_producer 4). A
** node whose tensors all lack a dtype is unknown too (unknown_producer 5). */
static void graph_dtype(const gr_judge *J, const gr_node *nd, gr_jnode *jn){
  uint32_t i;
  jn->dtype_by = GR_JD_GRAPH;
  jn->dtype = node_dtype(J, nd);
  if( jn->dtype==0 && (uint32_t)nd->n_in_desc + nd->n_out_desc > 0 ){
    /* tensors, none with a dtype (a subgraph's Data for an input GE's
    ** parser leaves unconnected): unknown, and said so (unknown_producer 5);
    ** a node with no tensor at all (a NoOp) computes in nothing */
    jn->dtype_by = GR_JD_UNKNOWN;
    jn->unknown_producer = 5;
    jn->unknown_tensor = 0;
    return;
  }
  if( nd->n_in_desc==0 || J->after[nd->tensor0] || (J->j->floating >> jn->dtype & 1) ) return;
  for(i = 1; i < nd->n_in_desc; i++) if( J->after[nd->tensor0 + i] ) break;
  if( i==nd->n_in_desc ) return;           /* it came from an output: the model's dtype of the node's result */
  jn->dtype_by = GR_JD_UNKNOWN;
  jn->unknown_producer = 4;
  jn->unknown_tensor = 0;
  jn->dtype = 0;
}

/* ---- the memo ----
** A node's outcome is a function of its type, its tensors' dtypes and, per
** input, the input's position, whether a constant or nothing feeds it, and
** what its producer (and, through a Cast the strategy may see through, that
** Cast's producer) decided. Nodes alike in all of these (the layers of a
** model) are judged once: measured on a 100K-node graph, judging was 15% of
** the evaluation's instructions, and the memoised lookup a fifth of that.
** A dynamic node's key also says whether a dimension is -2 (unknown rank),
** all the judge reads of shapes (fe_check). For an op with conditional
** dtypes blocks (their conditions read the node: its ranks and dims), the
** block each store takes for the node is part of the key (when_key): the
** outcome is a function of the lists the node is judged with. KEEP_DTYPE
** and CUSTOMIZE_DTYPES nodes and traced runs (--explain) are judged each
** time. Where the model names a node's inputs, each input's name is part of
** the key too: the op's tensors are matched by it (slot_input). */
#define MEMO_KEY_MAX 4096

static void put16(unsigned char *k, size_t *len, uint32_t v){ k[(*len)++] = (unsigned char)(v & 0xff); k[(*len)++] = (unsigned char)(v >> 8 & 0xff); }

/* node nd's signature into key; its length, 0 when it does not fit */
static size_t memo_key(const gr_judge *J, const gr_graph *g, const gr_node *nd, unsigned char *key){
  const gr_edge *ed = gr_graph_edges(g, nd);
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nin = nd->n_in_desc, nt = nin + nd->n_out_desc, i, nnames = 0;
  const uint32_t *names = NULL;
  const int64_t *slots = NULL;
  size_t len = 0;
  unsigned char shape = 0;
  if( 11 + (size_t)nt + (J->has_names ? 11 : 7) * (size_t)nin > MEMO_KEY_MAX ) return 0;
  if( J->has_names ) nnames = gr_graph_input_name_list(g, nd, J->in_name_key, J->in_name_value, &names, &slots);
  if( nd->flags & GR_NODE_DYNAMIC ){
    /* all AI Core's check reads of the shapes (fe_check): dynamic, and an unknown rank */
    const gr_tensor *tens = gr_graph_tensors(g, nd);
    shape = 1;
    for(i = 0; i < nt && shape==1; i++){
      uint32_t nd2, d;
      const int64_t *dims = gr_graph_shape(g, tens[i].shape, &nd2);
      for(d = 0; d < nd2; d++) if( dims[d]==-2 ){ shape = 3; break; }
    }
  }
  put16(key, &len, nd->type); put16(key, &len, nd->type >> 16);
  put16(key, &len, nin); put16(key, &len, nd->n_out_desc); put16(key, &len, nd->n_data);
  key[len++] = shape;
  for(i = 0; i < nt; i++) key[len++] = J->after[nd->tensor0 + i];
  for(i = 0; i < nin; i++){
    uint32_t pi = desc_pos(g, nd, i);
    unsigned char flags = 0, dafter = 0, c0 = 0, c1 = 0, gafter = 0;
    if( pi >= nd->n_data || ed[pi].src==GR_NONE ) flags = 1;
    else{
      int32_t idx = ed[pi].index;
      uint32_t src = live_src(J, g, ed[pi].src, &idx);
      const gr_node *pn = &nodes[src];
      flags = 2;
      if( const_src(J, nodes, src) ) flags |= 1;
      dafter = out_after(J, g, src, idx);
      if( JN(J, src)->dtype_by==GR_JD_UNKNOWN ) flags |= 8;
      if( (J->type_flags[pn->type] & TF_CAST) && !is_folded(J, src) && JN(J, src)->policy!=GR_POLICY_BLACK && pn->n_data > 0
          && pn->n_in_desc > 0 && pn->n_out_desc > 0 && gr_graph_edges(g, pn)[0].src!=GR_NONE ){
        const gr_edge *ce = gr_graph_edges(g, pn);
        flags |= 4;
        c0 = J->after[pn->tensor0]; c1 = J->after[pn->tensor0 + pn->n_in_desc];
        gafter = out_after(J, g, ce[0].src, ce[0].index);
        if( JN(J, ce[0].src)->dtype_by==GR_JD_UNKNOWN ) flags |= 16;
      }
    }
    put16(key, &len, pi);
    key[len++] = flags; key[len++] = dafter; key[len++] = c0; key[len++] = c1; key[len++] = gafter;
    if( J->has_names ){
      /* the input's IR name, which the op's tensor is matched by (slot_input) */
      uint32_t nm = GR_NONE, k;
      for(k = 0; k < nnames; k++) if( slots[k]==(int64_t)pi ){ nm = names[k]; break; }
      put16(key, &len, nm); put16(key, &len, nm >> 16);
    }
  }
  return len;
}

/* The block of its conditional dtypes blocks that each store's op takes for
** node n (node_op: 0 none, else 1 + the block), appended to key at len; the
** new length, 0 when it does not fit. The node's conditions are evaluated
** here once more on a memo miss, which costs less than judging it (the
** MatMul family on every AI Core family has them: `node.static`, ranks). */
static size_t when_key(gr_result *r, const gr_judge *J, uint32_t n, const gr_node *nd, unsigned char *key, size_t len){
  uint32_t s;
  for(s = 0; s < J->nstores; s++){
    const jop *o = node_ops(J, nd)[s];
    uint8_t when = 0;
    if( o==NULL || o->nwhen==0 ) continue;
    if( len + 1 > MEMO_KEY_MAX ) return 0;
    (void)node_op(r, n, o, &when, NULL);
    key[len++] = when;
  }
  return len;
}

/* the outcome of memo id (its entry pushed when the id was made): outs[out],
** and the Casts GE inserts before such a node (a function of the key, which
** holds each producer's dtype, and of the dtypes after) */
static void memo_store(gr_judge *J, uint32_t id, uint32_t out, const uint8_t *after, uint32_t nt, uint8_t casts){
  J->memo_v.v[id - 1].out = out;
  J->memo_v.v[id - 1].after = (uint32_t)J->memo_bytes.n;
  J->memo_v.v[id - 1].casts = casts;
  gr_buf_add(&J->memo_bytes, after, nt);
}

/* node n's record id: one per (memo id, casts), so that nodes with one id
** have one record and tensor dtypes before and after (gr_judge_record); 0
** past 2^24 memo ids */
static void set_record(gr_judge *J, uint32_t n, uint32_t memo_id){
  J->rec[n] = memo_id < (1u << 24) ? memo_id << 8 | J->casts[n] : 0;
}

/* Casts GE inserts: inputs whose producer's output dtype differs from the
** input's dtype after the judge */
static void count_casts(gr_judge *J, const gr_graph *g, uint32_t n, gr_buf *trace){
  const gr_node *nd = &gr_graph_nodes(g)[n];
  const gr_edge *ed = gr_graph_edges(g, nd);
  uint32_t nc = 0, i;
  for(i = 0; i < nd->n_in_desc; i++){
    uint8_t a, b;
    uint32_t pi = desc_pos(g, nd, i), src;
    int32_t idx;
    if( pi >= nd->n_data || ed[pi].src==GR_NONE ) continue;
    idx = ed[pi].index;
    src = live_src(J, g, ed[pi].src, &idx);
    a = out_after(J, g, src, idx);
    b = J->after[nd->tensor0 + i];
    if( a && b && a!=b ){
      nc++;
      if( trace ) gr_buf_printf(trace, "GE inserts a Cast on input %u: producer '%s' gives %s, the node takes %s\n", i,
                                gr_graph_str(g, gr_graph_nodes(g)[src].name), J->j->dt_name[a], J->j->dt_name[b]);
    }
  }
  J->casts[n] = (uint8_t)(nc > 255 ? 255 : nc);
}

/* Which nodes of an engine_removed_identity_ops type GE's pass deletes
** before placing engines: all but those it keeps, a node with one of the
** entry's attributes, or next to a subgraph's boundary: a producer of a
** subgraph_boundary_ops type inside a subgraph (a subgraph's input), or a
** consumer of such a type (its output), or a neighbour that owns a subgraph.
** One pass over the edges, only when the graph has such a node. */
static void mark_removed_identities(gr_judge *J, const gr_graph *g){
  const gr_judge_rules *j = J->j;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, i, ng = gr_graph_ngraphs(g), any = 0;
  uint8_t *owner;
  for(n = 0; n < J->ntypes && !any; n++) any = J->id_type[n]!=0;   /* a type no node has costs one pass */
  if( !any ) return;
  J->id_removed = gr_arena_calloc(&J->arena, nn);
  owner = gr_xcalloc(nn ? nn : 1, 1);
  for(i = 1; i < ng; i++){
    uint32_t p = gr_graph_graph_parent(g, i);
    if( p < nn ) owner[p] = 1;
  }
  for(n = 0; n < nn; n++) if( J->id_type[nodes[n].type] ) J->id_removed[n] = 1;
  for(n = 0; n < nn; n++){
    const gr_node *nd = &nodes[n];
    const gr_edge *ed = gr_graph_edges(g, nd);
    int here_id = J->id_type[nd->type]!=0;
    int boundary_out = nd->graph!=0 && in_set(j->subgraph_boundary_ops, gr_graph_type_name(g, nd->type));
    if( here_id ){
      const gr_attr *a = gr_graph_attrs(g, nd);
      const gr_expr *x = j->removed_identity_ops->vals[J->id_type[nd->type] - 1];
      for(i = 0; i < nd->n_attr && J->id_removed[n]; i++){
        const gr_expr *y;
        for(y = x ? x->a : NULL; y; y = y->next)
          if( strcmp(gr_graph_str(g, a[i].key), y->s)==0 ){ J->id_removed[n] = 0; break; }
      }
    }
    for(i = 0; i < nd->n_data; i++){
      uint32_t src = ed[i].src;
      if( src==GR_NONE || src >= nn ) continue;
      /* an identity fed by a subgraph's input or by a node owning a subgraph */
      if( here_id && (owner[src] || (nodes[src].graph!=0 && in_set(j->subgraph_boundary_ops, gr_graph_type_name(g, nodes[src].type)))) )
        J->id_removed[n] = 0;
      /* an identity feeding a subgraph's output or a node owning a subgraph */
      if( J->id_type[nodes[src].type] && (boundary_out || owner[n]) ) J->id_removed[src] = 0;
    }
  }
  free(owner);
}

/* Whether node nd has an attribute of table t (name -> values) with one of
** its values: a string attribute's text, a bool's "true" or "false"; an
** entry with no values takes any. */
static int has_listed_attr(const gr_graph *g, const gr_node *nd, const gr_table *t){
  const gr_attr *a = gr_graph_attrs(g, nd);
  uint32_t i;
  if( t==NULL ) return 0;
  for(i = 0; i < nd->n_attr; i++){
    void *at = gr_map_get(&t->keymap, gr_graph_str(g, a[i].key));
    const gr_expr *x;
    const char *v;
    if( at==NULL ) continue;
    x = t->vals[(uintptr_t)at - 1]->a;
    if( x==NULL ) return 1;
    v = a[i].kind==GR_ATTR_S ? gr_graph_str(g, a[i].u.str) : a[i].kind==GR_ATTR_B ? (a[i].u.i ? "true" : "false") : NULL;
    for(; x && v; x = x->next) if( strcmp(v, x->s)==0 ) return 1;
  }
  return 0;
}

/* Whether producer p has a weight constant folding can read: a constant
** type with an attribute of engine_const_weight_attrs, or a node folded
** already (its new Const has one). */
static int folding_weight(const gr_judge *J, const gr_graph *g, uint32_t p){
  const gr_node *pn = &gr_graph_nodes(g)[p];
  if( J->folded[p] ) return 1;
  return (J->type_flags[pn->type] & TF_FOLD_CONST) && has_listed_attr(g, pn, J->j->const_weight_attrs);
}

/* Which nodes of an engine_removed_same_shape_ops type change no shape: input
** 0 and output 0 known, static and equal (NoUseReshapeRemovePass). One pass
** over the nodes, only when the graph has such a type. */
static void mark_removed_shapes(gr_judge *J, const gr_graph *g){
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), n, t, any = 0;
  for(t = 0; t < J->ntypes && !any; t++) any = (J->type_flags[t] & TF_REMOVED_SHAPE)!=0;
  if( !any ) return;
  J->shape_removed = gr_arena_calloc(&J->arena, nn ? nn : 1);
  for(n = 0; n < nn; n++){
    const gr_node *nd = &nodes[n];
    const gr_tensor *tens;
    const int64_t *a, *b;
    uint32_t na, nb, k;
    if( !(J->type_flags[nd->type] & TF_REMOVED_SHAPE) || nd->n_in_desc==0 || nd->n_out_desc==0 ) continue;
    tens = gr_graph_tensors(g, nd);
    if( !gr_graph_shape_known(g, tens[0].shape) || !gr_graph_shape_known(g, tens[nd->n_in_desc].shape) ) continue;
    a = gr_graph_shape(g, tens[0].shape, &na);
    b = gr_graph_shape(g, tens[nd->n_in_desc].shape, &nb);
    if( na!=nb ) continue;
    for(k = 0; k < na; k++) if( a[k] < 0 || b[k] < 0 || a[k]!=b[k] ) break;
    J->shape_removed[n] = k==na;
  }
}

/* Whether a node's input shapes are all known and static (DimensionComputePass). */
static int static_inputs(const gr_graph *g, const gr_node *nd){
  const gr_tensor *tens = gr_graph_tensors(g, nd);
  uint32_t i, k, ndim;
  if( nd->n_in_desc==0 ) return 0;
  for(i = 0; i < nd->n_in_desc; i++){
    const int64_t *dims;
    if( !gr_graph_shape_known(g, tens[i].shape) ) return 0;
    dims = gr_graph_shape(g, tens[i].shape, &ndim);
    for(k = 0; k < ndim; k++) if( dims[k] < 0 ) return 0;
  }
  return 1;
}

/* Which nodes GE's constant folding replaces by a Const before FE judges
** them (tables engine_folded_ops, engine_folded_shape_ops): in topological
** order, so that a chain folds as GE's passes fold it, to a fixed point. A
** node of engine_folded_ops folds when it has inputs and each comes from a
** constant with a weight or a folded node, and its dtype pair (input 0 >
** output 0) is one the table lists (any, when it lists none); one of
** engine_folded_shape_ops when its input shapes are known and static. A
** node with an attribute (and value) of engine_folded_kept_attrs stays. One pass over
** the nodes of those types, only when the graph has one. */
static void mark_folded(gr_judge *J, const gr_graph *g, const uint32_t *order){
  const gr_judge_rules *j = J->j;
  const gr_node *nodes = gr_graph_nodes(g);
  uint32_t nn = gr_graph_nnodes(g), k, t, any = 0;
  for(t = 0; t < J->ntypes && !any; t++) any = (J->type_flags[t] & (TF_FOLD | TF_FOLD_SHAPE))!=0;
  if( !any ) return;
  J->folded = gr_arena_calloc(&J->arena, nn ? nn : 1);
  for(k = 0; k < nn; k++){
    uint32_t n = order[k], i;
    const gr_node *nd = &nodes[n];
    uint16_t f = J->type_flags[nd->type];
    int fold = 0;
    if( !(f & (TF_FOLD | TF_FOLD_SHAPE)) ) continue;
    if( f & TF_FOLD_SHAPE ) fold = static_inputs(g, nd);
    if( !fold && (f & TF_FOLD) && nd->n_data > 0 ){
      const gr_edge *ed = gr_graph_edges(g, nd);
      fold = 1;
      for(i = 0; i < nd->n_data && fold; i++) fold = ed[i].src!=GR_NONE && folding_weight(J, g, ed[i].src);
      if( fold ){
        void *at = gr_map_get(&j->folded_ops->keymap, gr_graph_type_name(g, nd->type));
        uint32_t e = (uint32_t)(uintptr_t)at - 1, np = j->nfolded_pairs[e];
        if( np ){
          const gr_tensor *tens = gr_graph_tensors(g, nd);
          uint8_t a = nd->n_in_desc ? model_dt(J, tens[0].dtype) : 0;
          uint8_t b = nd->n_out_desc ? model_dt(J, tens[nd->n_in_desc].dtype) : 0;
          fold = 0;
          for(i = 0; i < np && !fold; i++) fold = j->folded_pairs[e][i].from==a && j->folded_pairs[e][i].to==b;
        }
      }
    }
    if( fold && has_listed_attr(g, nd, j->folded_kept_attrs) ) fold = 0;
    J->folded[n] = (uint8_t)fold;
  }
}

/* node nd's outcome before the judge: nothing decided, gray, every tensor
** of the model's dtype (also when a pass's path makes the judge start over) */
static void blank_outcome(gr_judge *J, gr_jnode *jn, const gr_node *nd, const gr_tensor *tens){
  uint32_t i;
  memset(jn, 0, sizeof *jn);
  jn->policy = GR_POLICY_GRAY;
  for(i = 0; i < (uint32_t)nd->n_in_desc + nd->n_out_desc; i++) J->after[nd->tensor0 + i] = model_dt(J, tens[i].dtype);
}

/* Node n of a fused type takes a path of its pass gerules does not model
** (GR_JE_UNMODELLED, unmodelled_why's `in`): no engine, an unknown dtype,
** inputs of the model's dtypes (whatever the judge tried) and outputs of no
** known dtype, so that no consumer claims a Cast from it */
static void set_unmodelled(gr_judge *J, gr_jnode *jn, const gr_node *nd, const gr_tensor *tens, uint32_t n, uint32_t in){
  uint32_t i;
  blank_outcome(J, jn, nd, tens);
  jn->engine_by = GR_JE_UNMODELLED;
  jn->dtype_by = GR_JD_UNKNOWN;
  jn->unknown_producer = 6;
  jn->unknown_tensor = (uint16_t)in;
  for(i = 0; i < nd->n_out_desc; i++) J->after[nd->tensor0 + nd->n_in_desc + i] = 0;
  J->casts[n] = 0;
}

static void judge_node(gr_result *r, gr_judge *J, uint32_t n, gr_buf *trace){
  const gr_graph *g = r->g;
  const gr_judge_rules *j = J->j;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  gr_jnode *jn;
  uint32_t e, s, i;
  int keep = J->keep ? J->keep[n] : 0;
  const gr_cust_entry *ce = J->has_cust ? gr_cust_dtypes_find(&J->cust, gr_graph_str(g, nd->name), gr_graph_type_name(g, nd->type)) : NULL;
  int fe_absent = 1, fe_excluded = 0, judged = 0, refused = 0;
  uint32_t memo_id = 0;         /* the signature's memo id to fill, 0 none */
  int nomemo = 0;
  const gr_tensor *tens = gr_graph_tensors(g, nd);
  /* judged into the next free outcome, kept unless the memo has the node's */
  J->out_of[n] = J->nouts;
  jn = &J->outs[J->nouts++];
  blank_outcome(J, jn, nd, tens);
  if( removed_early(J, gr_graph_nodes(g), n)
      || ((J->type_flags[nd->type] & TF_REMOVED_SAME) && nd->n_in_desc && nd->n_out_desc
          && J->after[nd->tensor0] && J->after[nd->tensor0]==J->after[nd->tensor0 + nd->n_in_desc]) ){
    /* GE deletes the node before it places engines (the engine_removed_* tables) */
    if( trace ){ removed_why(J, g, n, gr_graph_type_name(g, nd->type), trace); gr_buf_addc(trace, '\n'); }
    jn->engine_by = GR_JE_REMOVED;
    graph_dtype(J, nd, jn);
    return;
  }
  if( is_folded(J, n) ){
    /* GE's constant folding replaces it by a Const (engine_folded_ops) */
    if( trace ){ folded_why(J, g, n, gr_graph_type_name(g, nd->type), trace); gr_buf_addc(trace, '\n'); }
    jn->engine_by = GR_JE_FOLDED;
    graph_dtype(J, nd, jn);
    return;
  }
  if( J->type_flags[nd->type] & TF_UNPLACED ){
    jn->engine_by = GR_JE_UNPLACED;
    graph_dtype(J, nd, jn);
    return;
  }
  i = 0;
  if( (J->type_flags[nd->type] & TF_FUSED_CONST) && fused_here(J, nd) && (i = fused_nonconst(J, g, nd))!=0 && pass_leaves(J, nd->type) ){
    /* an input its pass needs as a constant is not one, and the pass leaves
    ** the node as it is: judged as its own type (judge_row), not remembered
    ** by the memo, whose key does not say which inputs are constants */
    jn->left = (uint16_t)i;
    if( trace ){ left_why(J, g, n, trace); gr_buf_addc(trace, '\n'); }
    nomemo = 1;
  }else if( i || (J->type_flags[nd->type] & TF_FUSED_AWAY) ){
    /* a fusion pass replaces it in a way gerules does not model, or takes
    ** such a path for this node (an input it needs as a constant is not one) */
    uint32_t in = i ? i - 1 : 0;
    set_unmodelled(J, jn, nd, tens, n, in);
    if( trace ){ unmodelled_why(J, g, n, in, trace); gr_buf_addc(trace, '\n'); }
    return;
  }
  if( trace==NULL && !keep && ce==NULL && !nomemo ){
    unsigned char key[MEMO_KEY_MAX];
    size_t len = memo_key(J, g, nd, key);
    if( len && (J->type_flags[nd->type] & TF_WHEN) ) len = when_key(r, J, n, nd, key, len);
    if( len ){
      size_t known = gr_strpool_count(&J->memo);
      uint32_t id = gr_strpool_intern_hint(&J->memo, (const char *)key, len, &J->type_last[nd->type]);
      if( id < known ){
        J->nouts--;
        J->out_of[n] = J->memo_v.v[id - 1].out;
        memcpy(&J->after[nd->tensor0], J->memo_bytes.p + J->memo_v.v[id - 1].after, (size_t)nd->n_in_desc + nd->n_out_desc);
        J->casts[n] = J->memo_v.v[id - 1].casts;
        set_record(J, n, id);
        return;
      }
      {
        struct memo_entry blank;
        memset(&blank, 0, sizeof blank);
        gr_vec_push(J->memo_v, blank);    /* id - 1 == its index: ids come in order */
      }
      memo_id = id;
    }
  }
retry:
  for(e = 0; e < j->nengines && jn->engine==0; e++){
    const gr_jengine *en = &j->engines[e];
    int skip = J->excluded[e] || en->off_by_default;
    if( en->fe ){
      for(s = J->est0[e]; s < J->est0[e] + J->estn[e]; s++){
        const jop *o = node_ops(J, nd)[s];
        int rc;
        uint8_t rdt = 0, rout = 0;
        uint16_t rt = 0;
        uint8_t when = 0;
        if( o==NULL ) continue;
        fe_absent = 0;
        if( skip ){ fe_excluded = 1; continue; }
        o = node_op(r, n, o, &when, trace);
        rc = fe_check(r, J, n, o, keep, ce, &rdt, &rt, &rout);
        if( rc ){
          if( !refused ){
            refused = 1;
            jn->refuse = (uint8_t)rc; jn->refuse_dt = rdt; jn->refuse_tensor = rt; jn->refuse_output = rout;
            jn->fe_store = (uint16_t)(J->store_index[s] + 1);
          }
          if( trace ) gr_buf_printf(trace, "%s refuses the node\n", o->st->name);
          continue;
        }
        /* accepted: FE judges its dtype */
        jn->fe_store = (uint16_t)(J->store_index[s] + 1);
        jn->policy = o->policy;
        jn->when = when;
        if( !(J->type_flags[nd->type] & TF_UNJUDGED) ){
          int st = node_strategy(J, g, nd, o, keep);
          if( st >= 0 ){
            jn->strategy = (uint8_t)(st + 1);
            jn->dtype_by = (uint8_t)judge_dtypes(r, J, n, o, st, keep, ce, trace);
            jn->custom_by_name = (uint8_t)(ce && !ce->by_type);
            judged = 1;
          }
        }
        if( o->ge_op ){ jn->ge_op = 1; break; }
        jn->engine = (uint8_t)(e + 1);
        jn->engine_store = (uint16_t)(J->store_index[s] + 1);
        break;
      }
      continue;
    }
    if( skip ) continue;
    if( en->op_table ){
      if( in_set(en->op_table, judged_type(J, g, nd)) ) jn->engine = (uint8_t)(e + 1);
      continue;
    }
    for(s = J->est0[e]; s < J->est0[e] + J->estn[e]; s++){
      const jop *o = node_ops(J, nd)[s];
      uint8_t rdt = 0, rout = 0;
      uint16_t rt = 0;
      int rc;
      if( o==NULL ) continue;
      o = node_op(r, n, o, NULL, trace);
      rc = kernel_check(r, J, n, o, &rdt, &rt, &rout);
      if( rc==0 ){
        jn->engine = (uint8_t)(e + 1);
        jn->engine_store = (uint16_t)(J->store_index[s] + 1);
        break;
      }
      if( jn->kernel_refuse==0 ){
        jn->kernel_refuse = (uint8_t)rc; jn->kernel_refuse_dt = rdt; jn->kernel_refuse_tensor = rt;
        jn->kernel_refuse_output = rout; jn->kernel_store = (uint16_t)(J->store_index[s] + 1);
      }
    }
  }
  if( (J->type_flags[nd->type] & TF_FUSED_CHECKED) && fused_here(J, nd) && (jn->engine==0 || !j->engines[jn->engine - 1].fe) ){
    /* the pass asks FE's op support check before it fuses, and the AI Core
    ** does not take the type it would make (engine_fused_checked_ops) */
    if( pass_leaves(J, nd->type) ){
      /* the pass leaves the node as it is: judged again, as its own type */
      blank_outcome(J, jn, nd, tens);
      jn->left = GR_JLEFT_REFUSED;
      fe_absent = 1; fe_excluded = 0; judged = 0; refused = 0;
      if( trace ){ left_why(J, g, n, trace); gr_buf_addc(trace, '\n'); }
      goto retry;
    }
    /* else it takes a path gerules does not model */
    set_unmodelled(J, jn, nd, tens, n, UNMODELLED_REFUSED);
    if( trace ){ unmodelled_why(J, g, n, UNMODELLED_REFUSED, trace); gr_buf_addc(trace, '\n'); }
    if( memo_id ){
      memo_store(J, memo_id, J->out_of[n], &J->after[nd->tensor0], (uint32_t)nd->n_in_desc + nd->n_out_desc, J->casts[n]);
      set_record(J, n, memo_id);
    }
    return;
  }
  if( jn->engine==0 ) jn->engine_by = GR_JE_NO_ENGINE;
  else if( j->engines[jn->engine - 1].fe ) jn->engine_by = GR_JE_FIRST;
  else if( jn->ge_op ) jn->engine_by = GR_JE_GE_OP;
  else if( refused ) jn->engine_by = GR_JE_REFUSED;
  else if( fe_excluded ) jn->engine_by = GR_JE_EXCLUDED;
  else jn->engine_by = GR_JE_ABSENT;
  (void)fe_absent;
  jn->fe_excluded = (uint8_t)fe_excluded;
  if( !judged ) graph_dtype(J, nd, jn);
  else jn->dtype = jn->dtype_by==GR_JD_UNKNOWN ? 0 : node_dtype(J, nd);
  /* a node whose dtype is unknown takes unknown dtypes: no Cast is claimed */
  if( jn->dtype_by==GR_JD_UNKNOWN ) J->casts[n] = 0;
  else count_casts(J, g, n, trace);
  if( memo_id ){
    memo_store(J, memo_id, J->out_of[n], &J->after[nd->tensor0], (uint32_t)nd->n_in_desc + nd->n_out_desc, J->casts[n]);
    set_record(J, n, memo_id);
  }
}

void gr_judge_run(gr_result *r){
  const gr_ruleset *rs = r->rs;
  const gr_graph *g = r->g;
  gr_judge *J;
  uint32_t *order, k, nn;
  size_t nt;
  if( rs->judge==NULL || g==NULL || gr_oplib_nstores(rs)==0 ) return;
  J = gr_xcalloc(1, sizeof *J);
  J->j = rs->judge;
  gr_arena_init(&J->arena);
  gr_strpool_init(&J->memo);
  gr_strpool_init(&J->why_keys);
  gr_buf_init(&J->memo_bytes);
  r->judge = J;
  setup(r, J);
  if( r->fatal ) return;
  {
    /* no AI Core store serves the chip (no op library family for it): the
    ** judge knows nothing of its AI Core and decides nothing */
    uint32_t e, any = 0;
    for(e = 0; e < J->j->nengines; e++) if( J->j->engines[e].fe ) any += J->estn[e];
    if( any==0 ){ gr_judge_free(r); return; }
  }
  nn = gr_graph_nnodes(g);
  nt = 0;
  for(k = 0; k < nn; k++){
    const gr_node *nd = &gr_graph_nodes(g)[k];
    size_t end = (size_t)nd->tensor0 + nd->n_in_desc + nd->n_out_desc;
    if( end > nt ) nt = end;
  }
  J->ntensors = nt;
  J->outs = gr_big_alloc(((size_t)nn + 2) * sizeof *J->outs);
  J->nouts = 1;                 /* outs[0]: all zero */
  J->out_of = gr_big_alloc(((size_t)nn + 1) * sizeof *J->out_of);
  J->casts = gr_big_alloc((size_t)nn + 1);
  J->nnodes = nn;
  J->nodes0 = gr_graph_nodes(g);
  r->jnode = J->outs;
  r->jnode_of = J->out_of;
  r->jcasts = J->casts;
  r->njnode = nn;
  J->rec = gr_big_alloc((size_t)(nn ? nn : 1) * sizeof *J->rec);
  J->after = gr_big_alloc(nt ? nt : 1);
  mark_removed_identities(J, g);
  mark_removed_shapes(J, g);
  order = topo_order(g);
  mark_folded(J, g, order);
  for(k = 0; k < nn; k++) judge_node(r, J, order[k], NULL);
  gr_big_free(order, (size_t)(nn ? nn : 1) * sizeof *order);
}

void gr_judge_free(gr_result *r){
  gr_judge *J = r->judge;
  if( J==NULL ) return;
  if( J->outs ) gr_big_free(J->outs, ((size_t)J->nnodes + 2) * sizeof *J->outs);
  if( J->out_of ) gr_big_free(J->out_of, ((size_t)J->nnodes + 1) * sizeof *J->out_of);
  if( J->casts ) gr_big_free(J->casts, (size_t)J->nnodes + 1);
  if( J->after ) gr_big_free(J->after, J->ntensors ? J->ntensors : 1);
  gr_arena_free(&J->arena);
  gr_strpool_free(&J->memo);
  gr_strpool_free(&J->why_keys);
  gr_vec_free(J->why);
  if( J->rec ) gr_big_free(J->rec, (size_t)(J->nnodes ? J->nnodes : 1) * sizeof *J->rec);
  gr_buf_free(&J->memo_bytes);
  gr_vec_free(J->memo_v);
  free(J->scratch); free(J->gaps);
  gr_mixlist_free(&J->mix);
  gr_keep_dtype_free(&J->keepf);
  gr_cust_dtypes_free(&J->cust);
  free(J);
  r->judge = NULL;
  r->jnode = NULL;
  r->jnode_of = NULL;
  r->jcasts = NULL;
  r->njnode = 0;
}

/* ---- accessors ---- */

const char *gr_judge_dtype_name(const gr_result *r, uint8_t dt){
  return r->judge && dt && dt <= r->judge->j->ndt ? r->judge->j->dt_name[dt] : NULL;
}

const char *gr_judge_dtype(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn ? gr_judge_dtype_name(r, jn->dtype) : NULL;
}

const char *gr_judge_engine(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn && jn->engine ? r->judge->j->engines[jn->engine - 1].id : NULL;
}

static const char *const dtype_by[] = { NULL, "graph", "precision_mode", "keep_dtype", "customize_dtypes",
                                        "unknown" };
static const char *const engine_by[] = { NULL, "ai_core", "refused", "absent", "ge_op", "excluded", "unplaced", "none",
                                          "removed", "folded", "unmodelled" };

const char *gr_judge_dtype_by(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn ? dtype_by[jn->dtype_by] : NULL;
}

const char *gr_judge_engine_by(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn ? engine_by[jn->engine_by] : NULL;
}

int gr_judge_by_code(int dtype, const char *word){
  const char *const *w = dtype ? dtype_by : engine_by;
  int k, n = dtype ? (int)(sizeof dtype_by / sizeof *dtype_by) : (int)(sizeof engine_by / sizeof *engine_by);
  for(k = 1; k < n; k++) if( strcmp(w[k], word)==0 ) return k;
  return 0;
}

const char *gr_judge_strategy(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn && jn->strategy ? r->judge->j->strategies[jn->strategy - 1].name : NULL;
}

const char *gr_judge_type(const gr_result *r, uint32_t n){
  return gr_judge_node(r, n) ? judged_type(r->judge, r->g, &gr_graph_nodes(r->g)[n]) : NULL;
}

uint32_t gr_judge_record(const gr_result *r, uint32_t n){
  return r->judge && r->judge->rec && n < r->judge->nnodes ? r->judge->rec[n] : 0;
}

uint8_t gr_judge_tensor_before(const gr_result *r, uint32_t n, uint32_t t){
  const gr_node *nd;
  if( !gr_judge_node(r, n) ) return 0;
  nd = &gr_graph_nodes(r->g)[n];
  if( t >= (uint32_t)nd->n_in_desc + nd->n_out_desc ) return 0;
  {
    uint16_t id = gr_graph_tensors(r->g, nd)[t].dtype;
    return id < r->judge->ngdt ? r->judge->gdt[id] : 0;
  }
}

uint8_t gr_judge_tensor_after(const gr_result *r, uint32_t n, uint32_t t){
  const gr_node *nd;
  if( !gr_judge_node(r, n) ) return 0;
  nd = &gr_graph_nodes(r->g)[n];
  if( t >= (uint32_t)nd->n_in_desc + nd->n_out_desc ) return 0;
  return r->judge->after[nd->tensor0 + t];
}

static const char *tensor_name(const gr_oplib_op *op, int output, uint32_t t){
  if( op==NULL ) return NULL;
  if( output ) return t < (uint32_t)op->noutputs ? op->outputs[t].name : NULL;
  return t < (uint32_t)op->ninputs ? op->inputs[t].name : NULL;
}

static void tensor_text(gr_buf *b, const gr_oplib_op *op, int output, uint32_t t){
  const char *nm = tensor_name(op, output, t);
  gr_buf_printf(b, "%s %u", output ? "output" : "input", t);
  if( nm ) gr_buf_printf(b, " (%s)", nm);
}

static const gr_oplib_store *store_of(const gr_result *r, uint16_t s1){
  return s1 ? gr_oplib_store_at(r->rs, s1 - 1) : NULL;
}

static const char *store_text(const gr_oplib_store *st){
  return st->description && st->description[0] ? st->description : st->name;
}

/* why the first AI Core store refused node n (jn->refuse != 0), appended to b */
static void fe_refusal_text(gr_result *r, uint32_t n, const gr_jnode *jn, const gr_oplib_store *fs, const char *type, gr_buf *b){
  gr_buf_printf(b, "%s ", fs ? store_text(fs) : "AI Core's op information library");
  switch( jn->refuse ){
    case GR_JR_DTYPE: {
      const gr_oplib_op *op = fs ? gr_oplib_find(r->rs, fs, type) : NULL;
      gr_buf_printf(b, "lists no %s for ", gr_judge_dtype_name(r, jn->refuse_dt));
      tensor_text(b, op, jn->refuse_output, jn->refuse_tensor);
      gr_buf_printf(b, " of %s, nor a dtype %s lets it convert to", type, jn->strategy==0 && r->judge->keep && r->judge->keep[n] ? "KEEP_DTYPE" : "the precision mode");
      break;
    }
    case GR_JR_EXACT: gr_buf_printf(b, "has no column of %s matching its dtypes exactly (a dtype-sensitive op is checked exactly)", type); break;
    case GR_JR_DYNAMIC: gr_buf_printf(b, "does not set dynamicShapeSupport for %s, and the node has a dynamic shape", type); break;
    case GR_JR_RANK: gr_buf_printf(b, "does not set dynamicRankSupport for %s, and the node has an unknown rank", type); break;
    case GR_JR_CUSTOM: gr_buf_printf(b, "has no column of %s with the dtypes CUSTOMIZE_DTYPES sets", type); break;
  }
}

/* "FE's PASS makes this TYPE a TYPE2 first: " for a node of a fused type */
static void fused_text(gr_result *r, uint32_t n, gr_buf *b){
  const gr_graph *g = r->g;
  const gr_node *nd = &gr_graph_nodes(g)[n];
  const char *as = r->judge->judged_as[judge_row(r->judge, nd)];
  if( as==NULL && (r->judge->fused_rows[nd->type] & FUSED_DYN) && (nd->flags & GR_NODE_DYNAMIC) )
    gr_buf_printf(b, "FE's fusion pass %s leaves this dynamic %s as it is (table engine_fused_ops); ", r->judge->fused_by[nd->type],
                  gr_graph_type_name(g, nd->type));
  else if( as==NULL && pass_leaves(r->judge, nd->type) && JN(r->judge, n)->left ){
    left_why(r->judge, g, n, b);
    gr_buf_adds(b, "; ");
  }
  if( as )
    gr_buf_printf(b, "FE's fusion pass %s makes this %s%s a %s before it judges it (table engine_fused_ops); ", r->judge->fused_by[nd->type],
                  r->judge->fused_rows[nd->type] & FUSED_DYN ? (nd->flags & GR_NODE_DYNAMIC ? "dynamic " : "static ") : "",
                  gr_graph_type_name(g, nd->type), as);
}

static void engine_why(gr_result *r, uint32_t n, gr_buf *b){
  const gr_jnode *jn = gr_judge_node(r, n);
  const gr_graph *g = r->g;
  const char *type, *eng;
  const gr_oplib_store *fs, *es, *ks;
  if( jn==NULL ) return;
  if( jn->engine_by==GR_JE_UNMODELLED ){ unmodelled_why(r->judge, g, n, jn->unknown_tensor, b); return; }
  type = judged_type(r->judge, g, &gr_graph_nodes(g)[n]);
  eng = gr_judge_engine(r, n);
  fused_text(r, n, b);
  fs = store_of(r, jn->fe_store); es = store_of(r, jn->engine_store); ks = store_of(r, jn->kernel_store);
  /* why AI Core did not take it */
  switch( jn->engine_by ){
    case GR_JE_FIRST:
      /* the common case: short (it is on most nodes of the JSON report) */
      gr_buf_printf(b, "op store %s takes %s", fs ? fs->name : "?", type);
      return;
    case GR_JE_UNPLACED:
      gr_buf_printf(b, "gerules does not decide the engine of %s (no engine registers it in GE's source)", type);
      return;
    case GR_JE_REMOVED:
      removed_why(r->judge, g, n, type, b);
      return;
    case GR_JE_FOLDED:
      folded_why(r->judge, g, n, type, b);
      return;
    case GR_JE_GE_OP:
      gr_buf_printf(b, "%s is a GE op in %s (opFile Null)", type, fs ? store_text(fs) : "AI Core's op information library");
      break;
    case GR_JE_EXCLUDED:
      gr_buf_printf(b, "EXCLUDE_ENGINES excludes the AI Core, whose op information library has %s", type);
      break;
    case GR_JE_ABSENT:
      if( eng && !es ){ gr_buf_printf(b, "%s registers %s (no AI Core op info for it)", eng, type); return; }
      gr_buf_printf(b, "AI Core's op information library%s%s has no %s", r->judge->family ? " for " : "",
                    r->judge->family ? r->judge->family : "", type);
      break;
    case GR_JE_REFUSED: case GR_JE_NO_ENGINE:
      if( jn->refuse==0 ){
        if( jn->engine_by==GR_JE_NO_ENGINE && jn->fe_excluded )
          gr_buf_printf(b, "EXCLUDE_ENGINES excludes the AI Core, whose op information library has %s", type);
        else if( jn->engine_by==GR_JE_NO_ENGINE ) gr_buf_printf(b, "AI Core's op information library%s%s has no %s",
                                                           r->judge->family ? " for " : "", r->judge->family ? r->judge->family : "", type);
        break;
      }
      fe_refusal_text(r, n, jn, fs, type, b);
      break;
  }
  if( eng ){
    if( es ) gr_buf_printf(b, ": runs on %s, whose %s kernel (%s) takes it", eng, type, es->name);
    else gr_buf_printf(b, ": runs on %s, which registers %s", eng, type);
    return;
  }
  if( ks ){
    const gr_oplib_op *op = gr_oplib_find(r->rs, ks, type);
    gr_buf_printf(b, "%s%s lists no %s for ", b->n ? "; " : "", ks->name, gr_judge_dtype_name(r, jn->kernel_refuse_dt));
    tensor_text(b, op, jn->kernel_refuse_output, jn->kernel_refuse_tensor);
  }
  gr_buf_printf(b, "%sno engine takes %s", b->n ? "; " : "", type);
}

/* GE's search for an engine (dnnengine_manager.cc:339-400): the engines
** that have the op type, in cost order, each asked until one takes the
** node; each that refuses raises W11001 (unless the node is a GE op by
** then) and, when none takes it, EZ3002. refusal() re-derives the k-th
** refusing engine (from 0) from the judge's record, as judge_node walked
** them: AI Core with the reason of its first refusing store, each other
** engine with the first of its stores that lists the op (all of them refuse
** it, or the engine took it). The flag REFUSAL_GE_OP in the result: FE had
** set _is_ge_op by this refusal. */
#define REFUSAL_GE_OP 0x10000

int gr_judge_has_refusal(const gr_result *r, uint32_t n){
  const gr_jnode *jn = gr_judge_node(r, n);
  return jn && (jn->refuse || jn->kernel_refuse || jn->ge_op || jn->engine_by==GR_JE_NO_ENGINE);
}

static int refusal(gr_result *r, uint32_t n, uint32_t k, gr_buf *why){
  const gr_jnode *jn = gr_judge_node(r, n);
  gr_judge *J = r->judge;
  const gr_graph *g = r->g;
  const char *type;
  uint32_t e, s;
  int ge = 0;
  if( !gr_judge_has_refusal(r, n) || jn->engine_by==GR_JE_REMOVED || jn->engine_by==GR_JE_FOLDED || jn->engine_by==GR_JE_UNPLACED ) return 0;
  type = judged_type(J, g, &gr_graph_nodes(g)[n]);
  for(e = 0; e < J->j->nengines; e++){
    const gr_jengine *en = &J->j->engines[e];
    const jop *o = NULL;
    uint8_t rdt = 0, rout = 0;
    uint16_t rt = 0;
    if( jn->engine==e + 1 ) return 0;          /* the engine that took it: GE asks no further */
    if( J->excluded[e] || en->off_by_default || en->op_table ) continue;
    for(s = J->est0[e]; s < J->est0[e] + J->estn[e]; s++){
      const jop *x = node_ops(J, &gr_graph_nodes(g)[n])[s];
      if( x==NULL ) continue;
      x = node_op(r, n, x, NULL, NULL);
      if( en->fe ){ o = x; break; }
      if( kernel_check(r, J, n, x, &rdt, &rt, &rout) ){ o = x; break; }
    }
    if( o==NULL ) continue;
    if( en->fe && jn->ge_op ) ge = 1;          /* FE sets _is_ge_op, then declines (sub_ops_store.cc:1270-1272) */
    if( k-- > 0 ) continue;
    if( en->fe ){
      const gr_oplib_store *fs = store_of(r, jn->fe_store);
      if( !jn->ge_op && jn->refuse ) fe_refusal_text(r, n, jn, fs, type, why);
      else gr_buf_printf(why, "%s is a GE op in %s (opFile Null): FE leaves it to GE", type, fs ? store_text(fs) : "AI Core's op information library");
    }else{
      const gr_oplib_op *op = gr_oplib_find(r->rs, o->st, type);
      gr_buf_printf(why, "%s lists no %s for ", o->st->name, gr_judge_dtype_name(r, rdt));
      tensor_text(why, op, rout, rt);
    }
    return ((int)e + 1) | (ge ? REFUSAL_GE_OP : 0);
  }
  return 0;
}

const char *gr_judge_engine_id(const gr_result *r, int e1){
  return r->judge && e1 > 0 && (uint32_t)e1 <= r->judge->j->nengines ? r->judge->j->engines[e1 - 1].id : NULL;
}

static void dtype_why(gr_result *r, uint32_t n, gr_buf *b){
  const gr_jnode *jn = gr_judge_node(r, n);
  const gr_graph *g = r->g;
  const gr_node *nd;
  const char *type;
  if( jn==NULL ) return;
  nd = &gr_graph_nodes(g)[n];
  type = judged_type(r->judge, g, nd);
  if( jn->engine_by!=GR_JE_UNMODELLED && (jn->dtype_by!=GR_JD_GRAPH || !(r->judge->type_flags[nd->type] & TF_UNJUDGED)) ) fused_text(r, n, b);
  switch( jn->dtype_by ){
    case GR_JD_GRAPH:
      if( r->judge->type_flags[nd->type] & TF_UNJUDGED ) gr_buf_printf(b, "FE does not judge %s: the model's dtype", type);
      else if( jn->engine_by==GR_JE_REMOVED )
        gr_buf_printf(b, "GE deletes this %s before it places engines%s: the model's dtype", type,
                      removed_early(r->judge, gr_graph_nodes(g), n) ? "" : " (its dtypes agree)");
      else if( jn->engine_by==GR_JE_FOLDED )
        gr_buf_printf(b, "GE's constant folding replaces this %s by a Const before it places engines: the model's dtype", type);
      else if( jn->engine ) gr_buf_printf(b, "not judged by FE (runs on %s): the model's dtype stays", gr_judge_engine(r, n));
      else gr_buf_printf(b, "not judged by FE (no engine takes it): the model's dtype stays");
      return;
    case GR_JD_UNKNOWN: {
      if( jn->unknown_producer==3 ){
        const gr_oplib_store *fs = store_of(r, jn->fe_store);
        const gr_oplib_op *op = fs ? gr_oplib_find(r->rs, fs, type) : NULL;
        gr_buf_printf(b, "the model gives no dtype for ");
        tensor_text(b, op, 0, jn->unknown_tensor);
        gr_buf_printf(b, " of this %s, and the %u op information column(s) its other tensors leave "
                      "differ on it: FE matches the real dtype, gerules does not guess", type, jn->unknown_ncol);
        return;
      }
      if( jn->unknown_producer==4 ){
        gr_buf_printf(b, "the model gives no dtype for input 0 of this %s, which FE does not judge (%s), and a later input's "
                      "dtype says nothing of its data: gerules does not guess", type,
                      jn->engine_by==GR_JE_REMOVED ? "GE deletes it first" : jn->engine_by==GR_JE_FOLDED ? "GE folds it into a Const first"
                      : jn->engine_by==GR_JE_UNPLACED ? "gerules places it on no engine"
                      : jn->engine ? gr_judge_engine(r, n) : "no engine takes it");
        return;
      }
      if( jn->unknown_producer==6 ){ unmodelled_why(r->judge, g, n, jn->unknown_tensor, b); return; }
      if( jn->unknown_producer==5 ){
        gr_buf_printf(b, "the model gives no dtype for any input or output of this %s, which FE does not judge: gerules does not guess", type);
        return;
      }
      if( jn->unknown_producer==2 ){
        gr_buf_printf(b, "the model gives no dtype for any input or output of this %s, so none of its op information columns can be picked", type);
        return;
      }
      if( jn->unknown_producer ){
        gr_buf_printf(b, "%s follows the dtype of a producer whose dtype is unknown", type);
        return;
      }
      const gr_oplib_store *fs = store_of(r, jn->fe_store);
      const gr_oplib_op *op = fs ? gr_oplib_find(r->rs, fs, type) : NULL;
      gr_buf_printf(b, "%s gives no dtype list for %s (dynamicFormat: its op_select_format decides when GE compiles) "
                    "and no dtypes block supplies one", fs ? store_text(fs) : "the op library", type);
      if( op && op->nwhen > 0 ){
        int k;
        gr_buf_printf(b, " for this node: the condition of none of its %d conditional dtypes block%s (", op->nwhen, op->nwhen==1 ? "" : "s");
        for(k = 0; k < op->nwhen && k < 8; k++){
          const gr_oplib_op *a = op->when[k].op;
          const char *f = a->file ? strrchr(a->file, '/') : NULL;
          gr_buf_printf(b, "%s%s:%d", k ? ", " : "", f ? f + 1 : a->file ? a->file : "?", a->line);
        }
        gr_buf_printf(b, "%s) holds", op->nwhen > 8 ? ", ..." : "");
      }
      gr_buf_printf(b, "; gerules does not guess: a layer can add one, citing the op's op_select_format (doc/rule-language.md 6.5)");
      return;
    }
    default: break;
  }
  {
    uint32_t i;
    const char *st = gr_judge_strategy(r, n);
    if( jn->dtype_by==GR_JD_KEEP ) gr_buf_printf(b, "KEEP_DTYPE lists the node (strategy %s)", st);
    else if( jn->dtype_by==GR_JD_CUSTOM ) gr_buf_printf(b, "CUSTOMIZE_DTYPES sets the %s's dtypes (by name beats by type), then %s=%s picks among those columns (%s)",
                                                        jn->custom_by_name ? "node" : "op type",
                                                        r->judge->mode_option ? r->judge->mode_option : "precision mode",
                                                        r->judge->mode_value ? r->judge->mode_value : "", st);
    else{
      const char *mv = r->judge->mode_value ? r->judge->mode_value : "";
      gr_buf_printf(b, "%s=%s, %s op", r->judge->mode_option ? r->judge->mode_option : "precision mode", mv,
                    jn->policy==GR_POLICY_WHITE ? "white" : jn->policy==GR_POLICY_BLACK ? "black" : "gray");
      /* the strategy only where its name is not the mode's own (force_fp16) */
      if( strcmp(st, mv)!=0 ) gr_buf_printf(b, " (%s)", st);
    }
    for(i = 0; i < nd->n_in_desc; i++){
      uint8_t a = gr_judge_tensor_before(r, n, i), c = gr_judge_tensor_after(r, n, i);
      if( c && a && (r->judge->j->floating >> c & 1) ){
        if( a==c ) gr_buf_printf(b, ": input %u stays %s", i, gr_judge_dtype_name(r, a));
        else gr_buf_printf(b, ": input %u %s -> %s", i, gr_judge_dtype_name(r, a), gr_judge_dtype_name(r, c));
        break;
      }
    }
    if( jn->column ) gr_buf_printf(b, " (column %u)", jn->column - 1);
    if( jn->when ){
      /* the conditional dtypes block that held: which branch of the impl's
      ** op_select_format it transcribes, and where */
      const gr_oplib_store *fs = store_of(r, jn->fe_store);
      const gr_oplib_op *op = fs ? gr_oplib_find(r->rs, fs, type) : NULL;
      if( op && jn->when <= op->nwhen ){
        const gr_oplib_op *a = op->when[jn->when - 1].op;
        const char *f = a->file ? strrchr(a->file, '/') : NULL;
        gr_buf_printf(b, ", dtypes from \"%s\" (%s:%d)", a->lists_from ? a->lists_from : "",
                      f ? f + 1 : a->file ? a->file : "?", a->line);
      }
    }
  }
}

void gr_judge_explain(gr_result *r, uint32_t n, gr_buf *b){
  gr_judge *J = r->judge;
  uint32_t save_out, save_nouts;
  uint8_t save_casts;
  uint8_t *after_save;
  const gr_node *nd;
  uint32_t nt;
  if( J==NULL || r->g==NULL || n >= gr_graph_nnodes(r->g) || n >= J->nnodes ) return;
  nd = &gr_graph_nodes(r->g)[n];
  nt = (uint32_t)nd->n_in_desc + nd->n_out_desc;
  /* judged again with the trace into the spare outcome (outs[nnodes + 1] at
  ** most), then put back */
  save_out = J->out_of[n]; save_nouts = J->nouts; save_casts = J->casts[n];
  after_save = gr_xmalloc(nt + 1);
  memcpy(after_save, J->after + nd->tensor0, nt);
  judge_node(r, J, n, b);
  J->out_of[n] = save_out; J->nouts = save_nouts; J->casts[n] = save_casts;
  memcpy(J->after + nd->tensor0, after_save, nt);
  free(after_save);
}

void gr_judge_engine_summary(gr_result *r, uint32_t n, gr_buf *b){
  const gr_jnode *jn = gr_judge_node(r, n);
  const gr_graph *g = r->g;
  uint32_t nn, k, nt, shown = 0, ntypes = 0;
  uint32_t *count, *first;
  if( jn==NULL || jn->engine==0 ) return;
  nn = gr_graph_nnodes(g); nt = gr_graph_ntypes(g);
  count = gr_xcalloc(nt + 1, sizeof *count);
  first = gr_xmalloc((nt + 1) * sizeof *first);
  for(k = 0; k < nn; k++){
    uint32_t t = gr_graph_nodes(g)[k].type;
    if( JN(r->judge, k)->engine!=jn->engine ) continue;
    if( count[t]++==0 ){ first[t] = k; ntypes++; }
  }
  /* in the order of each type's first node */
  for(k = 0; k < nn && shown < 8; k++){
    uint32_t t = gr_graph_nodes(g)[k].type;
    if( JN(r->judge, k)->engine!=jn->engine || first[t]!=k ) continue;
    gr_buf_printf(b, "%s%s x%u (%s'%s')", shown ? ", " : "", gr_graph_type_name(g, t), count[t], shown ? "" : "first ",
                  gr_graph_str(g, gr_graph_nodes(g)[k].name));
    shown++;
  }
  if( ntypes > shown ) gr_buf_printf(b, " and %u more op type(s)", ntypes - shown);
  gr_buf_printf(b, " on %s", r->judge->j->engines[jn->engine - 1].id);
  free(count); free(first);
}

/* ---- the reasons, once per record ----
** A reason is made of the node's record, type and tensor dtypes only, so
** nodes with one record (gr_judge_record) share it: written once, in the
** judge's arena. Measured: the refusal reasons of the AI CPU warnings were
** written per node, 14,000 instructions each. */
enum { WHY_ENGINE = 1, WHY_DTYPE, WHY_REFUSAL };

/* the reason itself, appended to b (the refusal's engine, else 0) */
static int why_write(gr_result *r, uint32_t n, uint32_t what, uint32_t k, gr_buf *b){
  if( what==WHY_ENGINE ){ engine_why(r, n, b); return 0; }
  if( what==WHY_DTYPE ){ dtype_why(r, n, b); return 0; }
  return refusal(r, n, k, b);
}

/* b may be NULL: the caller wants the return value alone */
static int why_memo(gr_result *r, uint32_t n, uint32_t what, uint32_t k, gr_buf *b){
  gr_judge *J = r->judge;
  uint32_t rec = gr_judge_record(r, n), key[3], known, id;
  struct why_hot *hot;
  gr_buf t;
  int ret, fresh = 0;
  if( rec==0 ){
    gr_buf_init(&t);
    ret = why_write(r, n, what, k, b ? b : &t);
    gr_buf_free(&t);
    return ret;
  }
  key[0] = what; key[1] = k; key[2] = rec;
  hot = &J->why_hot[((rec * 0x9e3779b1u) ^ ((what << 8 | k) * 0x85ebca6bu)) >> 22 & (WHY_HOT - 1)];
  if( hot->id && hot->key[0]==what && hot->key[1]==k && hot->key[2]==rec ) id = hot->id;
  else{
    known = (uint32_t)gr_strpool_count(&J->why_keys);
    id = gr_strpool_intern(&J->why_keys, (const char *)key, sizeof key);
    fresh = id >= known;
    memcpy(hot->key, key, sizeof key);
    hot->id = id;
  }
  if( !fresh ){
    if( b ) gr_buf_add(b, J->why.v[id - 1].text, J->why.v[id - 1].len);
    return J->why.v[id - 1].ret;
  }
  {
    struct why_text blank = { "", 0, 0 };
    gr_vec_push(J->why, blank);         /* id - 1 == its index: ids come in order */
  }
  gr_buf_init(&t);
  ret = why_write(r, n, what, k, &t);
  J->why.v[id - 1].text = gr_arena_strndup(&J->arena, t.p ? t.p : "", t.n);
  J->why.v[id - 1].len = t.n;
  J->why.v[id - 1].ret = ret;
  if( b ) gr_buf_add(b, t.p ? t.p : "", t.n);
  gr_buf_free(&t);
  return ret;
}

void gr_judge_engine_why(gr_result *r, uint32_t n, gr_buf *b){ if( gr_judge_node(r, n) ) why_memo(r, n, WHY_ENGINE, 0, b); }
void gr_judge_dtype_why(gr_result *r, uint32_t n, gr_buf *b){ if( gr_judge_node(r, n) ) why_memo(r, n, WHY_DTYPE, 0, b); }
int gr_judge_refusal(gr_result *r, uint32_t n, uint32_t k, gr_buf *why, int *ge_op){
  int ret = gr_judge_has_refusal(r, n) ? why_memo(r, n, WHY_REFUSAL, k, why) : 0;
  if( ge_op ) *ge_op = (ret & REFUSAL_GE_OP)!=0;
  return ret & ~REFUSAL_GE_OP;
}
