/*
** judge_rules.h: the compiled form of the rule set's dtype and engine tables
** (rules/dtype.rules, rules/engines.rules; doc/rule-language.md 6.5), which
** the judge of src/eval/judge.c runs: the dtype names and their priorities,
** FE's per-tensor strategies (rows of guards and steps), the forbidden
** dtypes, the AI Core check's conversions, and the engines in GE's order.
** check_judge.c builds it from the tables while checking the rule set and
** reports every malformed entry with its location.
**
** Ownership: everything lives in the rule set's arena and is released with
** it; rs->judge is NULL when the rule set declares none of the tables.
*/
#ifndef GR_JUDGE_RULES_H
#define GR_JUDGE_RULES_H

#include <stdint.h>
#include "lang/ast.h"

#define GR_JDT_MAX 63           /* dtype ids 1..GR_JDT_MAX (0 = none or unknown) */
#define GR_JDT_SLOTS 128        /* gr_judge_rules.dt_slot: a power of two, over 2 x GR_JDT_MAX */

/* row guards (gr_jrow.guards) */
enum {
  GR_JG_WHITE = 1u << 0, GR_JG_BLACK = 1u << 1, GR_JG_GRAY = 1u << 2, GR_JG_CUBE = 1u << 3,
  GR_JG_FIRST = 1u << 4, GR_JG_16IN32OUT = 1u << 5, GR_JG_FATHER = 1u << 6, GR_JG_REDUCED = 1u << 7
};
/* step kinds */
enum { GR_JS_RISE = 1, GR_JS_REDUCE, GR_JS_MIX, GR_JS_TRY, GR_JS_EXACT };
/* what a rise / reduce / exact step expects: a dtype id, or one of these */
#define GR_JE_OWN 0
#define GR_JE_FATHER 255

/* the option files the judge reads, by format (table dtype_option_files) */
enum { GR_JFILE_MIXLIST = 1, GR_JFILE_KEEP, GR_JFILE_CUSTOM };

#define GR_JSTEPS 4
#define GR_JTRY 6
typedef struct gr_jstep {
  uint8_t kind;
  uint8_t expect;               /* GR_JE_OWN, GR_JE_FATHER or a dtype id */
  uint8_t n;                    /* mix / try: dtype count */
  uint8_t dt[GR_JTRY];          /* mix / try: the dtypes, in order */
} gr_jstep;

typedef struct gr_jrow {
  uint32_t guards;
  uint64_t dtypes;              /* bit d: dtype id d is accepted; 0 = any */
  gr_jstep steps[GR_JSTEPS];
  uint8_t nsteps;
  const char *text;             /* the row as written (explain) */
  gr_loc loc;
} gr_jrow;

/* one AI Core check conversion: a tensor of dtype from may run where the op lists to */
typedef struct gr_jconv { uint8_t from, to, unless_black; } gr_jconv;

typedef struct gr_jstrategy {
  const char *name;
  gr_jrow *rows; uint32_t nrows;
  uint8_t forbid;               /* dtype id never converted to, 0 none */
  uint8_t forbid_unless_own;
  gr_jconv *conv; uint32_t nconv;         /* AI Core check (engines' aicore_dtype_conversions) */
  uint8_t has_conv;             /* the strategy has its own row (else only "*") */
  uint16_t see_through[8]; uint8_t nsee;  /* Casts the gray list looks through: from << 8 | to */
} gr_jstrategy;

typedef struct gr_jengine {
  const char *id;               /* "AIcoreEngine" */
  int64_t cost;
  const char *exclude_name;     /* EXCLUDE_ENGINES spelling, "" none */
  uint8_t fe;                   /* FE checks it with precision conversion */
  uint8_t off_by_default;
  uint8_t aicpu;
  const struct gr_table *op_table;   /* its op types are this table, or NULL (op stores) */
} gr_jengine;

typedef struct gr_judge_rules {
  /* dtypes */
  const char *dt_name[GR_JDT_MAX + 1];    /* gerules spelling by id */
  uint32_t ndt;                           /* ids 1..ndt */
  uint8_t dt_slot[GR_JDT_SLOTS];          /* name hash -> id (0 empty; linear probing) */
  int64_t prio[GR_JDT_MAX + 1]; uint8_t has_prio[GR_JDT_MAX + 1];
  uint64_t floating, complex;             /* dtype id bit sets */
  int64_t gap_low, gap_cross, gap_high;
  const struct gr_table *graph_names;     /* model spelling -> gerules spelling */
  const struct gr_table *fp16_ops, *unjudged_ops, *const_ops, *sensitive_ops, *cast_ops;
  /* strategies */
  gr_jstrategy *strategies; uint32_t nstrategies;
  const struct gr_table *mode_strategy;   /* option value -> strategy name */
  const struct gr_option **mode_options; uint32_t nmode_options;
  int st_keep_dtype, st_sensitive, st_ge_op;   /* node strategies, -1 none */
  int ge_op_except[8]; uint32_t nge_op_except;  /* strategies under which ge_op's does not apply */
  gr_jconv *conv_all; uint32_t nconv_all;        /* row "*" */
  /* engines, sorted by cost (table order among equal costs) */
  gr_jengine *engines; uint32_t nengines;
  const struct gr_table *unplaced_ops;
  /* optional: op types whose node GE deletes before engine placement when its
  ** input 0 and output 0 have the same dtype (table engine_removed_same_dtype_ops) */
  const struct gr_table *removed_same_dtype_ops;
  /* optional: op types whose node GE deletes before the judge when input 0
  ** and output 0 have the same static shape (table engine_removed_same_shape_ops) */
  const struct gr_table *removed_same_shape_ops;
  /* optional: op types (-> the attributes that keep one) whose node GE's
  ** identity pass deletes before placement unless next to a subgraph's
  ** boundary: a node of subgraph_boundary_ops inside a subgraph, or a node
  ** owning a subgraph (table engine_removed_identity_ops) */
  const struct gr_table *removed_identity_ops, *subgraph_boundary_ops;
  const struct gr_table *fused_ops;       /* op type -> [the type a fusion pass of FE makes it before the judge, the pass] */
  /* optional, for some of fused_ops' types: per input of the node, the input
  ** of the op it becomes that takes its tensor (-1: none, the pass folds it
  ** into another); without an entry the inputs are matched as any node's */
  const struct gr_table *fused_inputs;
  /* optional, for some of fused_ops' types: the inputs of the node (by
  ** position) the pass needs as constants to make it that type; a node with
  ** another producer on one of them is left as it is by a pass that leaves
  ** nodes (fused_ops' DYNAMIC_TYPE the op's own), else takes a path of the
  ** pass gerules does not model, and is given no engine and no dtype (table
  ** engine_fused_const_inputs) */
  const struct gr_table *fused_const;
  /* optional, a set of fused_ops' types whose pass asks FE's op support
  ** check first: when the AI Core does not take the type it would make, a
  ** pass that leaves nodes (DYNAMIC_TYPE the op's own) leaves the node, which
  ** is judged as its own type; any other takes a path gerules does not
  ** model, and the node is given no engine and no dtype (table
  ** engine_fused_checked_ops) */
  const struct gr_table *fused_checked;
  /* optional, a set of fused_ops' types without a DYNAMIC_TYPE other than
  ** their own whose pass leaves a node it does not fuse (an input not a
  ** non-empty constant, the AI Core refusing the fused type) as it is, as a
  ** DYNAMIC_TYPE of the op's own says for such a pass that also leaves
  ** dynamic nodes; a type here without a DYNAMIC_TYPE has its dynamic nodes
  ** fused like static ones (table engine_fused_leaving_ops) */
  const struct gr_table *fused_leaving;
  /* optional: op type -> the fusion pass of FE that replaces a node of the
  ** type by other nodes, or by a path gerules does not model: such a node is
  ** given no engine and no dtype (table engine_fused_unmodelled_ops) */
  const struct gr_table *fused_unmodelled;
  /* optional: option keys (as given: ATC flags, GE keys) and the values under
  ** which the removing pass does not run, so those ops are judged like any
  ** other (table engine_removed_same_dtype_kept_by; a map of string lists) */
  const struct gr_table *removed_kept_by;
  /* op types GE deletes before placing engines unless the graph is a
  ** training graph (table engine_removed_inference_ops, a set), and the
  ** options whose value after defaults makes it one, each with the values
  ** that do (engine_removed_inference_kept_by, option name -> strings) */
  /* optional: constant folding before placement. folded_ops: op type ->
  ** the dtype pairs (input 0 > output 0) its kernel converts, none: any
  ** (folded_pairs[i], nfolded_pairs[i] per entry i of the table);
  ** folded_shape_ops: types computed from static input shapes; the node
  ** attributes (-> values, [] any) that keep a node; the attributes (->
  ** values) that give a constant its weight; the option keys (-> values)
  ** that switch folding off */
  const struct gr_table *folded_ops, *folded_shape_ops, *folded_kept_attrs, *const_weight_attrs, *folded_kept_by;
  const struct gr_table *fold_const_ops;  /* the constant types folding reads weights of (table const_ops) */
  gr_jconv **folded_pairs; uint32_t *nfolded_pairs;
  const struct gr_table *removed_inference_ops;
  const struct gr_option **infer_kept_opt;
  const struct gr_expr **infer_kept_vals;
  size_t ninfer_kept;
  const struct gr_option *exclude_option;
  /* the options whose files the judge reads (table dtype_option_files): GR_JF_* */
  const struct gr_option *file_option[4];
} gr_judge_rules;

/* The dtype id of a name in gerules' spelling, 0 when not declared. */
uint32_t gr_judge_dtype_id(const gr_judge_rules *j, const char *name);
/* The strategy of that name, -1 when none. */
int gr_judge_strategy_index(const gr_judge_rules *j, const char *name);

#endif
