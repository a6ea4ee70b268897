/*
** tiler.h: tiling a whole graph. For every node the evaluator resolved, a
** gr_tiler finds its tiling class (or a custom tiling source, e.g. a Lua
** tiling function), builds its spec, and plans, validates and (optionally)
** executes it; the result of one node is a gr_tnode the caller reads (a
** reporter, a test) before asking for the next node, so a graph of any size
** is tiled in constant memory per distinct node shape.
**
** Nodes of the same tiling class with the same spec (shapes, formats,
** attributes) get the same plan, so each distinct (class, spec) is planned,
** validated and executed once (a gr_tshared) and every node that shares it
** points at that result. Custom tilings are run per node: the source may
** look at the node.
**
** Ownership: a gr_tiler borrows the tiling rules, the evaluation result (and
** through it the graph) and the custom source, which must outlive it; it owns
** its shared results and the node result it hands out. The gr_tnode returned
** by gr_tiler_node is owned by the tiler and valid until the next call or
** gr_tiler_free. The library never prints.
*/
#ifndef GR_TILER_H
#define GR_TILER_H

#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "eval/eval.h"
#include "tiling/tiling.h"

/* Where custom tilings come from (the CLI plugs the Lua hooks in). */
typedef struct gr_tcustom_source {
  /* 1 when op_type has a custom tiling (which then wins over any class) */
  int  (*has)(void *ctx, const char *op_type);
  /* fills out for the node: 0, or -1 with err filled (a failing function) */
  int  (*run)(void *ctx, uint32_t node, gr_custom_tiling *out, gr_error *err);
  /* releases what run filled in (also after a failed run) */
  void (*release)(void *ctx, gr_custom_tiling *t);
  void *ctx;
} gr_tcustom_source;

typedef struct gr_tiler_opts {
  int execute;                      /* run every valid plan on the CPU */
  uint64_t seed;                    /* of the executed inputs */
  const gr_tcustom_source *custom;  /* NULL: no custom tilings */
} gr_tiler_opts;

/* One distinct (class, spec): its plan, findings and execution. */
typedef struct gr_tshared {
  const char *cls;
  gr_tparams prm;
  gr_tspec spec;
  int planned;                /* the planner produced a plan */
  int valid;                  /* ... and it passed validation */
  int executed;               /* the executor ran it (see x.ran) */
  gr_tplan plan;
  gr_diags notes;             /* planning, validation and execution findings */
  gr_texec x;
  size_t nodes;               /* nodes that share it so far */
  uint64_t hash;
} gr_tshared;

/* The result of one node. */
typedef struct gr_tnode {
  uint32_t node;
  const char *cls;            /* the tiling class; NULL: the node has no strategy */
  int strategy;               /* GR_TS_* (GR_TS_NONE when the spec failed early) */
  int skipped;                /* 1 dynamic shapes: no static plan exists; 2 no shape known (the reader could not tell it, graph.h GR_SHAPE_UNKNOWN; or no dims for a convolution) */
  const char *placement;      /* where GE runs the tiling (the placement slot), or NULL */
  gr_diags notes;             /* the node's own findings (spec, rules, hook) */
  const gr_tshared *shared;   /* the shared plan of built-in classes, or NULL */
  /* custom tilings (per node) */
  int custom_planned, custom_valid;
  gr_tplan custom_plan;
  gr_tparams custom_prm;
  gr_tspec custom_spec;
} gr_tnode;

/* The plan of a node (shared or custom), or NULL when none was built. */
const gr_tplan *gr_tnode_plan(const gr_tnode *n);
/* The node has a class, a plan, and no error finding (own or shared). */
int gr_tnode_valid(const gr_tnode *n);
/* The execution of the node's plan, or NULL when it was not executed. */
const gr_texec *gr_tnode_exec(const gr_tnode *n);
/* The shared findings after the node's own (NULL when there are none). */
const gr_diags *gr_tnode_shared_notes(const gr_tnode *n);

typedef struct gr_tsummary {
  size_t nodes;               /* nodes tiled (asked for) */
  size_t planned;             /* with a class, not skipped */
  size_t invalid;             /* of those, not valid */
  size_t skipped;             /* dynamic shapes, or no shape known */
  size_t skipped_unknown;     /* ... of which no shape known (tnode.skipped 2) */
  size_t no_strategy;         /* without a class */
  size_t executed, mismatched;   /* nodes whose plan ran; whose execution did not match */
  size_t distinct;            /* distinct (class, spec) planned */
  size_t executions;          /* times the executor ran (distinct executions) */
  size_t *no_strategy_by_type;   /* per type id (gr_graph_ntypes entries) */
} gr_tsummary;

typedef struct gr_tiler gr_tiler;

/* NULL with err filled when the evaluation has no chip the rules describe. */
gr_tiler *gr_tiler_new(const gr_tiling_rules *tr, gr_result *r, const gr_tiler_opts *opts, gr_error *err);
const gr_tchip *gr_tiler_chip(const gr_tiler *t);
/* Tiles one node (counted in the summary). */
const gr_tnode *gr_tiler_node(gr_tiler *t, uint32_t node);
const gr_tsummary *gr_tiler_summary(const gr_tiler *t);
void gr_tiler_free(gr_tiler *t);

#endif
