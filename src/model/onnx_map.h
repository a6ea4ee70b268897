/*
** onnx_map.h: the ONNX op mapping the ONNX reader applies, built from rule
** data (rules/onnx.rules, table onnx_ops): for every `domain::op_type` key,
** rows of "OPSETS [if CONDITION [and CONDITION]...] => IR[SUFFIX][(INPUTS)] ...". The
** lookup is GE's: the model's opset for the node's domain must be one of a
** row's opsets exactly (no fallback to a lower version); among the rows
** registered at that version, the first whose conditions hold gives the IR
** ops the node becomes: one op keeps the ONNX node's name, the others are
** named <node name><suffix>. Conditions test only what the node itself shows:
**   inputs OP N          the number of connected inputs (OP: == != < <= > >=)
**   attr NAME            the attribute is present      (!attr NAME: absent)
**   attr NAME == VALUE   an int or a "string" attribute equals VALUE (also !=)
**   len NAME OP N        the number of elements of a list attribute
** C knows this syntax only; which op becomes what is the rule file's.
**
** Ownership: a gr_opmap owns copies of every string given to it; lookups
** return pointers into it, valid until gr_opmap_free.
*/
#ifndef GR_ONNX_MAP_H
#define GR_ONNX_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gr_opmap gr_opmap;

gr_opmap *gr_opmap_new(void);
void      gr_opmap_free(gr_opmap *m);
/* Adds one row for key "domain::op_type". 0 on success; -1 with a message
** in err (the column of the row text it points at in *col, 1-based). */
int       gr_opmap_add(gr_opmap *m, const char *key, const char *row, char *err, size_t errlen, unsigned *col);
size_t    gr_opmap_nkeys(const gr_opmap *m);

/* What a condition can ask of a node. */
typedef struct gr_onnx_attr_view {
  const char *name; size_t nlen;
  int kind;                  /* 1 int, 2 float, 3 string, 4 list (n elements), 5 other */
  int64_t i; const char *s; size_t slen; size_t n;
} gr_onnx_attr_view;

typedef struct gr_onnx_node_view {
  size_t ninputs;            /* connected (non-empty) inputs */
  const gr_onnx_attr_view *attrs; size_t nattrs;
} gr_onnx_node_view;

/* One IR op of a row. Its inputs are either the default (the first op of a
** row takes the node's inputs, every other one the previous op's output 0)
** or the list the row gives in parentheses: N is the ONNX node's input N
** (left out when the node has no such input), @K (or @K:J) is output 0 (J)
** of the row's K-th IR op, counted from 0, which must come earlier. */
#define GR_OPMAP_MAX_IR 32
typedef struct gr_opmap_in { int from_op; int src; int index; } gr_opmap_in;
typedef struct gr_opmap_ir {
  const char *type; const char *suffix;
  int explicit_inputs; size_t nin; gr_opmap_in *in;
} gr_opmap_ir;

/* The lookup: 1 = mapped (*ir, *nir set); 0 = no row registered at this
** version (GE's E13010); -1 = registered but no row's conditions hold
** (GE's plugin would fail to parse the node). */
int gr_opmap_lookup(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on, int64_t version,
                    const gr_onnx_node_view *nv, const gr_opmap_ir **ir, size_t *nir);
/* The same lookup in two steps, for a reader that meets the same op type
** many times: the key's rows once (NULL when unmapped), then the match. */
typedef struct gr_opmap_entry gr_opmap_entry;
const gr_opmap_entry *gr_opmap_find(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on);
int gr_opmap_match(const gr_opmap_entry *e, int64_t version, const gr_onnx_node_view *nv, const gr_opmap_ir **ir, size_t *nir);
/* Shape inference: the shape function of an ONNX op (ONNX operator
** semantics; which op has which is rule data, table onnx_shapes). The
** names, in this order: "same" (output = input 0), "cast" (input 0's shape,
** dtype from `to`), "broadcast", "broadcast_bool", "where" (numpy
** broadcasting of every input; dtype of input 0, bool, input 1), "matmul",
** "gemm", "conv", "pool", "global_pool", "reshape" (a constant shape
** input), "flatten", "transpose", "concat", "gather", "reduce",
** "unsqueeze", "squeeze", "shape". */
enum { GR_SF_NONE, GR_SF_SAME, GR_SF_CAST, GR_SF_BCAST, GR_SF_BCAST_BOOL, GR_SF_WHERE, GR_SF_MATMUL, GR_SF_GEMM,
       GR_SF_CONV, GR_SF_POOL, GR_SF_GPOOL, GR_SF_RESHAPE, GR_SF_FLATTEN, GR_SF_TRANSPOSE, GR_SF_CONCAT,
       GR_SF_GATHER, GR_SF_REDUCE, GR_SF_UNSQUEEZE, GR_SF_SQUEEZE, GR_SF_SHAPE, GR_SF_COUNT };
/* Sets the shape function of key "domain::op_type" (which must have rows);
** 0, or -1 with a message in err. */
int gr_opmap_set_shape(gr_opmap *m, const char *key, const char *fn, char *err, size_t errlen);
int gr_opmap_shape(const gr_opmap_entry *e);

/* Whether the key has any row at any version (for messages). */
int gr_opmap_known(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on);

#endif
