/*
** judge.h: the dtype and engine judge: for every node, in one topological
** pass, the dtype FE's judge gives it (the column of its op's dtype lists
** the precision strategy picks, each gray input following its producer's
** decided dtype) and the engine GE places it on (the engines of the rule
** set's table engines in order, each checking the node against its op
** stores: AI Core with the conversions the mode allows, AI CPU exactly, GE
** local by op type). Every GE fact comes from the compiled tables of
** rs->judge (src/lang/judge_rules.h) and from the op library
** (src/lang/oplib.h); the rule language reads the outcome as node.judge_*
** fields (doc/rule-language.md 6.5), which the shipped dtype and engine
** slots' sources turn into decisions.
**
** Ownership: the gr_judge hangs off the gr_result (r->judge) and is freed
** with it (gr_judge_free); strings it returns point into the rule set, the
** graph or the result's arena.
*/
#ifndef GR_JUDGE_H
#define GR_JUDGE_H

#include <stdint.h>
#include "eval/eval.h"
#include "lang/judge_rules.h"

/* why a node has its dtype (gr_jnode.dtype_by) */
enum { GR_JD_NONE = 0, GR_JD_GRAPH, GR_JD_MODE, GR_JD_KEEP, GR_JD_CUSTOM, GR_JD_UNKNOWN };
/* why a node has its engine (gr_jnode.engine_by) */
enum { GR_JE_NONE = 0, GR_JE_FIRST, GR_JE_REFUSED, GR_JE_ABSENT, GR_JE_GE_OP, GR_JE_EXCLUDED,
       GR_JE_UNPLACED, GR_JE_NO_ENGINE, GR_JE_REMOVED, GR_JE_FOLDED, GR_JE_UNMODELLED };
/* why an engine's store refused the node (gr_jnode.refuse, kernel_refuse) */
enum { GR_JR_NONE = 0, GR_JR_DTYPE, GR_JR_DYNAMIC, GR_JR_RANK, GR_JR_CUSTOM, GR_JR_EXACT };

typedef struct gr_jnode {
  uint8_t dtype;                /* dtype id (rs->judge->dt_name), 0 none / unknown */
  uint8_t dtype_by, engine_by;
  uint8_t engine;               /* 1 + index in rs->judge->engines, 0 none */
  uint8_t strategy;             /* 1 + strategy used by the dtype judge, 0 not judged */
  uint8_t policy;               /* GR_POLICY_* of the op that judged it (gray when none) */
  uint8_t refuse;               /* GR_JR_*: why the first AI Core store refused */
  uint8_t refuse_dt;            /* the refused dtype */
  uint8_t refuse_output;        /* the refused tensor is an output */
  uint16_t refuse_tensor;       /* its index */
  uint16_t fe_store;            /* 1 + index (gr_oplib_store_at) of the AI Core store that judged or refused */
  uint16_t engine_store;        /* 1 + index of the store that took the node, 0 none (or a table) */
  uint16_t column;              /* 1 + the column the judge picked, 0 none */
  uint8_t kernel_refuse, kernel_refuse_dt;   /* the first refusal by a non-FE store */
  uint16_t kernel_refuse_tensor, kernel_store;
  uint8_t kernel_refuse_output;
  uint8_t custom_by_name;       /* CUSTOMIZE_DTYPES matched the node by name (else by type, when dtype_by says so) */
  uint8_t unknown_producer;     /* dtype_by GR_JD_UNKNOWN: 1 a producer's dtype is unknown, 2 no descriptor has a dtype,
                                ** 3 one input has none and the columns left differ on it, 4 a node FE does
                                ** not judge whose input 0 has none and no tensor is floating, 5 a node FE
                                ** does not judge none of whose tensors has a dtype, 6 a node of a fused type whose
                                ** pass takes a path not modelled (GR_JE_UNMODELLED), 0 no list */
  uint16_t unknown_tensor;      /* 3: that input's index among the op's inputs; 6: the node's input that is no
                                ** constant, 0xffff the AI Core refused the fused type, 0 for a type the pass replaces */
  uint16_t unknown_ncol;        /* 3: the columns left */
  uint8_t when;                 /* 1 + the conditional dtypes block (gr_oplib_op.when) of the op that judged it, 0 none */
  uint8_t ge_op;                /* an AI Core store took it as a GE op (opFile Null): FE set _is_ge_op and declined it */
  uint8_t fe_excluded;          /* an AI Core store has the op, but EXCLUDE_ENGINES excludes the AI Core */
  /* a static node of a fused type whose pass leaves some nodes as they are
  ** (engine_fused_ops' DYNAMIC_TYPE its own type), judged as its own type:
  ** 1 + its input the pass needs as a constant and that is not one, or
  ** GR_JLEFT_REFUSED (the AI Core does not take the fused type); 0 not left */
  uint16_t left;
} gr_jnode;
#define GR_JLEFT_REFUSED 0xffffu

typedef struct gr_judge gr_judge;

/* Judges every node of r->g (nothing when the rule set has no judge or no
** op library for the chip is loaded: every accessor then gives NULL). */
void gr_judge_run(gr_result *r);
void gr_judge_free(gr_result *r);

/* The outcome of node n, or NULL when the judge did not run. Nodes judged
** alike share one outcome (the judge's memo), so a node holds only its
** index. Inline: the rules' judge fields and the report read it about a
** dozen times a node (callgrind: 3% of a 100K-node eval as a call). */
static inline const gr_jnode *gr_judge_node(const gr_result *r, uint32_t n){
  return n < r->njnode ? &r->jnode[r->jnode_of[n]] : NULL;
}
/* The Casts GE inserts before node n: its inputs whose producer's dtype
** differs from the one the node takes, capped at 255; 0 without a judge. */
static inline unsigned gr_judge_casts(const gr_result *r, uint32_t n){
  return n < r->njnode ? r->jcasts[n] : 0;
}
/* The node's dtype (gerules' spelling) and engine id, NULL when none. */
const char *gr_judge_dtype(const gr_result *r, uint32_t n);
const char *gr_judge_engine(const gr_result *r, uint32_t n);
/* "graph", "precision_mode", "keep_dtype", "customize_dtypes", "unknown"... and
** "ai_core", "refused", "absent", "ge_op", "excluded", "unplaced", "none" */
const char *gr_judge_dtype_by(const gr_result *r, uint32_t n);
const char *gr_judge_engine_by(const gr_result *r, uint32_t n);
/* The code (GR_JD_* when dtype, else GR_JE_*) of a judge_dtype_by /
** judge_engine_by word, 0 when it is none of them. */
int gr_judge_by_code(int dtype, const char *word);
/* the strategy the dtype judge used, NULL when the node was not judged */
const char *gr_judge_strategy(const gr_result *r, uint32_t n);
/* the op type the judge and engine placement see: the one a fusion pass
** makes the node (table engine_fused_ops), else the node's own; NULL
** without a judge */
const char *gr_judge_type(const gr_result *r, uint32_t n);
/* The reasons, appended to b. */
void gr_judge_dtype_why(gr_result *r, uint32_t n, gr_buf *b);
void gr_judge_engine_why(gr_result *r, uint32_t n, gr_buf *b);
/* Whether an engine's kernel refused node n before one took it (or when
** none did): the node has refusals for gr_judge_refusal. */
int gr_judge_has_refusal(const gr_result *r, uint32_t n);
/* The k-th engine (from 0, in the order GE offers the node) whose kernel
** refused node n before the engine that took it (every refusing engine when
** none took it), as 1 + its index in rs->judge->engines, with the reason
** appended to why (when not NULL); 0 past the last. *ge_op (when not NULL) is set to 1 when
** FE had marked the node a GE op (_is_ge_op) by that refusal: FE's own
** refusal of an opFile-Null op, or any refusal after it. */
int gr_judge_refusal(gr_result *r, uint32_t n, uint32_t k, gr_buf *why, int *ge_op);
/* the id of engine e1 (1 + index), NULL when none */
const char *gr_judge_engine_id(const gr_result *r, int e1);
/* Every node placed on node n's engine, counted by op type with the first
** node of each ("GatherV2 x3 (first 'g1'), Where x1 ('w')"), appended to b. */
void gr_judge_engine_summary(gr_result *r, uint32_t n, gr_buf *b);
/* Every input and output dtype before and after the judge (dtype ids; 0 =
** none): tensor t of the node's descriptors (inputs first, then outputs). */
/* Node n's record id: nodes with one nonzero id have equal records
** (gr_judge_node), types and tensor dtypes before and after the judge; 0
** for a node judged on its own (see judge.c, "the memo"). */
uint32_t gr_judge_record(const gr_result *r, uint32_t n);
uint8_t gr_judge_tensor_before(const gr_result *r, uint32_t n, uint32_t t);
uint8_t gr_judge_tensor_after(const gr_result *r, uint32_t n, uint32_t t);
const char *gr_judge_dtype_name(const gr_result *r, uint8_t dt);
/* The matching steps of node n (each tensor: the row, each step and the
** columns left), re-derived, appended to b one line each; "" when the node
** was not judged. */
void gr_judge_explain(gr_result *r, uint32_t n, gr_buf *b);

#endif
