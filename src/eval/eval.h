/*
** eval.h: one evaluation of a rule set against a chip, a set of user options
** and (optionally) a graph. gr_eval resolves the options (spellings, types,
** relations, defaults), reads ini-format option files, runs the global,
** per-option and per-entry rules, then decides every slot of every node
** through its cascade and runs the per-node rules. The result keeps, per
** node and slot, the winning source and value and the beaten candidates;
** reporters re-derive reasons and input origins from them on demand.
**
** Ownership: a gr_result owns its diagnostics, option states, ini files,
** decisions and every string it made; it borrows the rule set, the graph and
** the gr_inputs passed in gr_eval_config, which must outlive it. Free with
** gr_result_free (NULL is fine).
*/
#ifndef GR_EVAL_H
#define GR_EVAL_H

#include <stddef.h>
#include <stdint.h>
#include "lang/ruleset.h"
#include "model/graph.h"
#include "options/ini.h"
#include "options/input.h"   /* gr_input: the options as the user gave them */

typedef struct gr_optstate {
  int input;                    /* winning input, or -1 */
  int given;                    /* a non-empty value was supplied */
  int effective;                /* given and not excluded */
  const char *value;            /* user value when effective, else the default (NULL if none) */
  const gr_origin *origin;      /* of the user value; NULL for defaults */
  const gr_default *from_default;
  int state;                    /* 0 not computed, 1 in progress, 2 done */
  const char **items; size_t nitems;   /* list options */
  int64_t ival;                 /* int options */
  gr_ini *ini;                  /* ini-format file options */
} gr_optstate;

/* The decision of one slot for one node. */
typedef struct gr_decision {
  const char *value;            /* NULL when no source yields */
  int32_t source;               /* winning source index, -1 none, GR_SOURCE_HOOK for a hook */
  uint16_t branch;
  uint16_t ncand;               /* number of yielding sources (winner included) */
} gr_decision;
#define GR_SOURCE_HOOK (-2)

typedef struct gr_cand {        /* a beaten candidate */
  uint32_t node;
  uint16_t slot, branch;
  int32_t source;
  const char *value;
} gr_cand;

/* A hook override: a slot of a node set by a site policy (Lua). */
typedef struct gr_override {
  uint32_t node;
  uint16_t slot;
  const char *value;
  const char *prev_value;         /* what the cascade decided */
  int32_t prev_source;
  uint16_t prev_branch;
  gr_origin where;                /* the hook script's file:line */
  const char *reason;             /* optional text from the hook */
} gr_override;

/* The outcome of one partition (partition.c): per node, why it is on its
** side (enum gr_pcause; 0 while clustering) and the seed that held (1-based,
** 0 none); and, only when some node is a seed, the size of its static
** cluster and for cause "path" a dynamic node before and after it. The two
** are apart because a graph without a dynamic node, the common case, needs
** only the first: 4 bytes a node instead of 16. */
typedef struct gr_part_node {
  uint8_t cause;
  uint8_t sub;                  /* cause "subgraph": 1 when the node's subgraph runs dynamic */
  uint16_t seed;                /* also set on a neutral node for which a seed holds */
} gr_part_node;
typedef struct gr_part_link {
  uint32_t size;
  uint32_t from, to;            /* GR_NONE: none; cause "group": from is a seed of the group */
} gr_part_link;
typedef struct gr_part_result {
  gr_part_node *v;              /* one per node */
  gr_part_link *w;              /* one per node; NULL when no node is a seed */
  int has_limit;
  int64_t limit;
  uint32_t nseeds;              /* nodes that are seeds */
} gr_part_result;

struct gr_result;
/* Site policies plug in here (src/hooks implements them with Lua). Each call
** returns 0, or -1 after adding an error diagnostic and setting r->fatal. */
typedef struct gr_eval_hooks {
  void *ctx;
  int (*begin)(void *ctx, struct gr_result *r);          /* options resolved, before any node */
  int (*wants_type)(void *ctx, struct gr_result *r, uint32_t type);  /* 0: no node callback for this op type */
  int (*node)(void *ctx, struct gr_result *r, uint32_t node);        /* after the node's cascades */
  int (*end)(void *ctx, struct gr_result *r);            /* after every node */
} gr_eval_hooks;

typedef struct gr_eval_config {
  const char *chip;             /* SoC string (required unless an option of type soc is set) */
  const char *run_mode;         /* "inference" (default) or "training" */
  const char *entry_point;      /* "atc" (default), "ir-build" or "session": whose checks apply */
  gr_input *inputs; size_t ninputs;
  const gr_graph *graph;        /* NULL: options and global rules only */
  const char *graph_file;       /* display name of the graph file, for locations */
  int keep_candidates;          /* record beaten candidates (provenance) */
  const gr_eval_hooks *hooks;   /* site policies, or NULL */
} gr_eval_config;

typedef struct gr_result {
  const gr_ruleset *rs;
  const gr_graph *g;
  const char *graph_file;
  int soc, product;
  const char *soc_name;
  const char *run_mode;
  const char *entry_point;
  gr_input *inputs; size_t ninputs;
  gr_optstate *opts;            /* one per option */
  gr_diags diags;
  /* The decisions, per node and slot (gr_dec): the distinct rows of nslots
  ** decisions that nodes share, since most nodes decide as others of their
  ** type do. Row 0 is all zero (a node not decided yet), row 1 the node
  ** being decided. Measured reason: one row per node was 80 MB for the
  ** 1M-op graph's five slots, and a fresh MiB costs about 0.7 ms to fault
  ** in on this project's machines. */
  gr_decision *dec;             /* ndec_rows rows of max(nslots, 1) */
  uint32_t *dec_row;            /* per node: its row */
  uint32_t *dec_owner;          /* per row: the node it belongs to (gr_dec_own), GR_NONE shared */
  size_t ndec_rows, capdec_rows;
  uint32_t *cand_first;         /* per node: first index in cand, GR_NONE when none */
  gr_cand *cand; size_t ncand, capcand;
  gr_override *ovr; size_t novr, capovr;   /* hook decisions, in the order made */
  uint32_t *ovr_index;          /* per (node, slot): 1 + index of its last override, 0 none; NULL until a first override */
  const gr_eval_hooks *hooks;
  int in_end_stage;
  gr_arena arena;
  int fatal;                    /* evaluation failed (see gr_eval): exit 2 */
  int graph_dynamic;            /* -1 not computed yet, else whether any node is dynamic */
  gr_part_result *part;         /* one per partition of the rule set; NULL without a graph */
  uint8_t *noeffect_global;     /* per `no effect` clause (slot-major): 0 not computed, 1 its
                                   node-independent conjuncts hold, 2 they do not (detail.c) */
  struct gr_judge *judge;       /* the dtype and engine judge (judge.h), NULL when it did not run */
  const struct gr_jnode *jnode; /* its outcomes, shared by nodes judged alike (owned by judge) */
  const uint32_t *jnode_of;     /* per node: the index of its outcome in jnode (gr_judge_node) */
  const uint8_t *jcasts;        /* per node: the Casts GE inserts before it (gr_judge_casts) */
  uint32_t njnode;              /* the graph's nodes when judged, 0 when the judge did not run */
  struct gr_effect_memo *effect_memo;  /* gr_decision_effect's outcomes by node signature (detail.c), NULL until used */
  const char **noeffect_text;   /* per clause: its reason rendered once when it names no node
                                   (in arena), NULL until then (detail.c) */
} gr_result;

/* Node n's decision of slot s (r->dec not NULL, n a node of r->g). */
static inline const gr_decision *gr_dec(const gr_result *r, uint32_t n, size_t s){
  return &r->dec[(size_t)r->dec_row[n] * (r->rs->nslots ? r->rs->nslots : 1) + s];
}
/* Node n's decisions, nslots of them, to write: a row that other nodes share
** is copied for n first. */
gr_decision *gr_dec_own(gr_result *r, uint32_t n);

/* Evaluates. Never returns NULL. It fails in one way only: r->fatal is set
** and the reason is an error diagnostic in r->diags (no or unknown chip, an
** unreadable ini-format option file, a failing hook); the rest of the
** result is then incomplete and must not be reported. Otherwise every
** problem of the configuration is a diagnostic and the result is complete. */
gr_result *gr_eval(const gr_ruleset *rs, const gr_eval_config *cfg);
void gr_result_free(gr_result *r);

/* For hooks: sets a slot of a node (source "hook"). The value must be one the
** slot accepts (a declared mode, or one of its listed values); returns -1 with
** err filled otherwise. The previous decision is kept for provenance. */
int gr_result_override(gr_result *r, uint32_t node, int slot, const char *value,
                       const gr_origin *where, const char *reason, gr_error *err);
/* The last override of (node, slot), or NULL. */
const gr_override *gr_result_find_override(const gr_result *r, uint32_t node, int slot);
/* For hooks: changes a diagnostic's severity; the change and its reason are
** recorded in the diagnostic. Raising is always allowed; lowering an error
** needs a non-empty reason. Returns -1 with err filled when refused. */
int gr_result_set_severity(gr_result *r, size_t diag, gr_severity sev, const gr_origin *where,
                           const char *reason, gr_error *err);

/* The reason (rendered `because`, appended to reason unless NULL) and the
** input origin (*input unless input is NULL; NULL when the value comes from
** no input) of the decision that branch `branch` of source `source` gave
** node `node` (detail.c). */
void gr_decision_detail(gr_result *r, uint32_t node, int32_t source, uint16_t branch,
                        gr_buf *reason, const gr_origin **input);

/* Whether the decision of slot `slot` for node `node` takes effect: 0 when
** one of the slot's `no effect when ... because ...` clauses holds for the
** node (the first one that does appends its rendered reason to reason,
** unless NULL), 1 otherwise, also for a null value (detail.c). */
int gr_decision_effect(gr_result *r, uint32_t node, size_t slot, gr_buf *reason);
/* Frees r->effect_memo (gr_result_free calls it). */
void gr_decision_effect_free(gr_result *r);

/* ---- expression evaluation (expr.c) ---- */
enum gr_list_kind { GR_LK_EXPR = 1, GR_LK_STRS, GR_LK_I64, GR_LK_GSTR, GR_LK_F64, GR_LK_KEYS, GR_LK_INPUTS, GR_LK_INI,
  GR_LK_GTYPES /* the graph's op types (graph.types): element i is type id i + 1 */,
  GR_LK_DTYPES /* node.dtypes: the dtype names of node aux's input then output descs */ };

typedef struct gr_val {
  uint8_t t;                    /* GR_T_* */
  uint8_t lk;                   /* list kind */
  uint8_t fold;                 /* a list value of a folding table: its GR_FOLD_* (contains) */
  uint32_t n;                   /* list length */
  uint32_t aux;                 /* INPUT: node; INI: section */
  union { int64_t i; double f; const char *s; const void *p; uint32_t node; } u;
  const gr_origin *origin;      /* user input behind the value, if any */
} gr_val;

typedef struct gr_env {
  gr_result *r;
  uint32_t node;                /* current node, GR_NONE outside node scope */
  const char *type_name;        /* current node's type (also set for per-type evaluation) */
  const gr_input *in;           /* scope `each option` */
  const gr_ini *ini; const gr_ini_entry *entry;   /* scope `each entry` */
  int option;                   /* the option of scope `each option` or relation messages */
  int other;                    /* relation messages: the other option */
  int64_t count;
  uint32_t refusal;             /* scope `each refusal`: which refusing engine of the node (from 0) */
  gr_val vars[GR_MAXVARS];
  /* named conditions evaluated for this node (gr_eval_cond); gr_env_init
  ** clears nmemo only, the entries are written before they are read */
  unsigned nmemo;
  struct gr_memo { const void *cond; uint32_t node; uint8_t res, nk; uint8_t kt[2]; int64_t k[2]; } memo[8];
} gr_env;

void   gr_env_init(gr_env *env, gr_result *r);
gr_val gr_eval_expr(gr_env *env, const gr_expr *e);
int    gr_eval_cond(gr_env *env, const gr_expr *e);         /* NULL = true */
/* Whether every conjunct of br whose dependency level is in [lo, hi] holds
** (the others are skipped): the evaluator's per-level test of a branch. */
int    gr_conj_holds(gr_env *env, const gr_branch *br, uint8_t lo, uint8_t hi);
/* Renders a template into out (values, lists joined with ", "). */
void   gr_render(gr_env *env, const gr_template *t, gr_buf *out);
/* Value of option `oi` in this evaluation (computing its default lazily). */
const gr_optstate *gr_option_state(gr_result *r, int oi);
int    gr_value_supported(const gr_ruleset *rs, const gr_option *o, const char *value, int product);
int    gr_mode_supported(const gr_ruleset *rs, const char *mode, int product, const char **reason);

/* ---- partitions (partition.c) ---- */
/* Clusters the graph for every partition of the rule set (before the nodes'
** slots are decided, which may read the outcome); frees the outcome. */
void   gr_partition_run(gr_result *r);
void   gr_partition_free(gr_result *r);
/* partition(NAME).FIELD for the current node. */
gr_val gr_partition_field(gr_env *env, const gr_expr *e);

/* Prints an expression back in rule-language syntax (for explain and docs),
** as the rule wrote it: a named condition the checker inlined is printed as
** its call, `constant_input(i)`. gr_expr_print_expanded prints the inlined
** body instead (what is evaluated; `gerules diff` compares that, so a
** changed condition shows in every rule that uses it). */
void gr_expr_print(gr_buf *b, const gr_expr *e);
void gr_expr_print_expanded(gr_buf *b, const gr_expr *e);

#endif
