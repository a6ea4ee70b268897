/*
** onnx_map.h: the ONNX op mapping the ONNX reader applies: the rule set's
** `onnx "domain::op_type" { opset ... [when ...] becomes ...; }` statements
** (rules/onnx.rules), checked and compiled by src/lang/check_onnx.c into
** rows (gr_onnx_row, lang/ruleset.h), indexed here with each key's shape
** function. The lookup is GE's: the model's opset for the node's domain
** must be one of a row's opsets exactly (no fallback to a lower version);
** among the rows registered at that version, the first whose tests hold
** gives the IR ops the node becomes: the op without a suffix keeps the ONNX
** node's name, the others are named <node name><suffix>. The tests look
** only at what the node itself shows (its connected inputs, attributes, the
** length of a list attribute). C knows this form only; which op becomes
** what is the rule file's.
**
** Ownership: a gr_opmap borrows the rule set it was built from (its rows and
** strings), which must outlive it; lookups return pointers into the rule
** set, valid as long as both live. gr_opmap_free frees only the index.
*/
#ifndef GR_ONNX_MAP_H
#define GR_ONNX_MAP_H

#include <stddef.h>
#include <stdint.h>
#include "lang/ruleset.h"

typedef struct gr_opmap gr_opmap;

/* The index of rs->onnx_ops (every key without a shape function yet). */
gr_opmap *gr_opmap_new(const gr_ruleset *rs);
void      gr_opmap_free(gr_opmap *m);

/* What a condition can ask of a node. */
typedef struct gr_onnx_attr_view {
  const char *name; size_t nlen;
  int kind;                  /* 1 int, 2 float, 3 string, 4 list (n elements), 5 other */
  int64_t i; double f; const char *s; size_t slen; size_t n;
  size_t nints; int64_t iprod, imax;   /* an INTS list: its elements' count, product (saturating), maximum */
} gr_onnx_attr_view;

typedef struct gr_onnx_node_view {
  size_t ninputs;            /* connected (non-empty) inputs */
  size_t noutputs;           /* outputs, empty names included */
  const unsigned char *named; size_t nnamed;   /* per input slot: 1 when its name is non-empty */
  const gr_onnx_attr_view *attrs; size_t nattrs;
  const uint8_t *caps;       /* the chip's capabilities (`chip has CAP`), NULL: no chip */
} gr_onnx_node_view;

/* One IR op of a row (lang/ruleset.h). Its inputs are either the default
** (the first op of a row takes the node's inputs, every other one the
** previous op's output 0) or the row's list: the ONNX node's input N (left
** out when the node has no such input), or output J of the row's K-th IR
** op, which comes earlier. */
#define GR_OPMAP_MAX_IR GR_ONNX_MAX_IR

/* The lookup, in two steps, for a reader that meets the same op type many
** times: the key's rows once (NULL when unmapped), then the match.
** gr_opmap_match: 1 = mapped (*row set: its ir[0..nir) are the IR ops, nsub
** > 0 when GE expands the node through a plugin subgraph); 0 = no row
** registered at this version (GE's E13010); -1 = registered but no row's
** conditions hold (GE's plugin would fail to parse the node). An int VALUE
** tested against a float attribute compares as GE's plugins compare floats
** (gemm_onnx_plugin.cpp: |a - v| <= FLT_EPSILON, in float). */
typedef struct gr_opmap_entry gr_opmap_entry;
const gr_opmap_entry *gr_opmap_find(const gr_opmap *m, const char *domain, size_t dn, const char *op, size_t on);
int gr_opmap_match(const gr_opmap_entry *e, int64_t version, const gr_onnx_node_view *nv, const gr_onnx_row **row);
/* Shape inference: the shape function of an ONNX op (ONNX operator
** semantics; which op has which is rule data, table onnx_shapes). The
** names, in this order: "same" (output = input 0), "cast" (input 0's shape,
** dtype from `to`), "broadcast", "broadcast_bool", "where" (numpy
** broadcasting of every input; dtype of input 0, bool, input 1), "matmul",
** "gemm", "conv", "pool", "global_pool", "reshape" (a constant shape
** input), "flatten", "transpose", "concat", "gather", "reduce",
** "unsqueeze", "squeeze", "shape", "dtype" (input 0's dtype, the shape
** not inferred), "resize" (Resize, Upsample: X's rank, dims from constant
** sizes or scales), "conv_transpose", "dtype_outputs" (as "dtype", for
** every output: LSTM's Y, Y_h and Y_c are all of type T),
** "constant_of_shape" (the dims input 0's values, the dtype the `value`
** tensor attribute's, float without it), "random" (RandomNormal,
** RandomUniform: the dims of attribute `shape`, the type attribute `dtype`
** names, float without it), "random_like" (input 0's dims, and the type
** `dtype` names, input 0's without it), "size" (Size: an int64 scalar,
** whatever its input), "nonzero" (NonZero: int64 [rank of input 0, -1],
** the count of nonzero elements known only at run time), "nms"
** (NonMaxSuppression: int64 [N, 3], one row per box kept: N as GE's
** InferShape of NonMaxSuppressionV6 fixes it for a constant
** max_output_boxes_per_class, else -1), "compress"
** (Compress: input 0's dtype, [-1] without `axis`, else input 0's shape
** with that dim -1: the count of true conditions), "argmax" (ArgMax: int64,
** input 0's dims with dim `axis` 1, or dropped where `keepdims` is 0),
** "roi_align" (RoiAlign: [rois' dim 0, X's dim 1, output_height,
** output_width] of X's dtype), "unique" (Unique: output 0 as "compress",
** the count of distinct values known only at run time), "split" (Split:
** each output input 0's dims with dim `axis` the output's size: the
** constant `split` (attribute, or input 1 from opset 13), else an equal
** share; gr_onnx_infer_output gives output i). */
enum { GR_SF_NONE, GR_SF_SAME, GR_SF_CAST, GR_SF_BCAST, GR_SF_BCAST_BOOL, GR_SF_WHERE, GR_SF_MATMUL, GR_SF_GEMM,
       GR_SF_CONV, GR_SF_POOL, GR_SF_GPOOL, GR_SF_RESHAPE, GR_SF_FLATTEN, GR_SF_TRANSPOSE, GR_SF_CONCAT,
       GR_SF_GATHER, GR_SF_REDUCE, GR_SF_UNSQUEEZE, GR_SF_SQUEEZE, GR_SF_SHAPE, GR_SF_DTYPE,
       GR_SF_RESIZE, GR_SF_CONVT, GR_SF_DTYPE_OUTPUTS, GR_SF_CONST_OF_SHAPE, GR_SF_RANDOM, GR_SF_RANDOM_LIKE,
       GR_SF_SIZE, GR_SF_NONZERO, GR_SF_NMS, GR_SF_COMPRESS, GR_SF_ARGMAX,
       GR_SF_ROI_ALIGN, GR_SF_UNIQUE, GR_SF_SPLIT, GR_SF_COUNT };
/* Sets the shape function of key "domain::op_type" (which must have rows);
** 0, or -1 with a message in err. */
int gr_opmap_set_shape(gr_opmap *m, const char *key, const char *fn, char *err, size_t errlen);
int gr_opmap_shape(const gr_opmap_entry *e);
/* The attributes a key's plugin passes on under another name (table
** onnx_ir_attrs: Gemm's transB is MatMulV2's transpose_x2): sets the pairs
** (ONNX name, IR name), n names in all (even); 0, or -1 with a message. */
int gr_opmap_set_attr_names(gr_opmap *m, const char *key, const char *const *names, size_t n, char *err, size_t errlen);
/* The IR ops of a key's rows whose output has the node's output shape
** (table onnx_inner_shapes: Gemm's MatMulV2 and Muls); n names. */
int gr_opmap_set_inner_shapes(gr_opmap *m, const char *key, const char *const *names, size_t n, char *err, size_t errlen);
int gr_opmap_inner_shaped(const gr_opmap_entry *e, const char *ir_type);
/* The outputs of an IR op type whose dtype its prototype fixes (table
** onnx_ir_output_dtypes: TopK's indices are DT_INT32), which GE's InferShape
** gives them whatever the model declares: sets output `index` (below
** GR_OPMAP_MAX_OUTDT) of ir_type to model_dtype, the model's spelling (both
** strings borrowed from the rule set); 0, or -1 with a message. The lookup
** gives that spelling, or NULL where the output is not fixed. */
#define GR_OPMAP_MAX_OUTDT 64
int gr_opmap_set_output_dtype(gr_opmap *m, const char *ir_type, size_t index, const char *model_dtype, char *err, size_t errlen);
const char *gr_opmap_output_dtype(const gr_opmap *m, const char *ir_type, size_t index);
/* The integer attributes a key's plugin gives its IR ops when the ONNX
** node does not give them (table onnx_ir_attr_defaults: LayerNormalization's
** LayerNorm has begin_norm_axis -1 and begin_params_axis 0): n pairs of an
** IR attribute name (borrowed from the rule set) and its value; 0, or -1
** with a message. gr_opmap_attr_default gives pair i and returns the
** count, 0 past the end. */
int gr_opmap_set_attr_defaults(gr_opmap *m, const char *key, const char *const *names, const int64_t *vals, size_t n,
                               char *err, size_t errlen);
size_t gr_opmap_attr_default(const gr_opmap_entry *e, size_t i, const char **name, int64_t *val);
/* The IR op types whose outputs are the instances of one dynamic output
** (table onnx_ir_dynamic_outputs: Split's y), which GE's InferShape gives
** one dtype: an inner op's outputs past 0 have output 0's. ir_type is
** borrowed from the rule set. */
void gr_opmap_set_one_dynamic_output(gr_opmap *m, const char *ir_type);
int gr_opmap_one_dynamic_output(const gr_opmap *m, const char *ir_type);
/* The IR op types whose output 0 GE's InferShape gives input 0's shape
** (table onnx_ir_same_shape: Identity, Cast, the one-input elementwise
** ops): an inner op of a row with no shape of its own has its input 0's,
** where that is known. ir_type is borrowed from the rule set. */
void gr_opmap_set_same_shape(gr_opmap *m, const char *ir_type);
int gr_opmap_same_shape(const gr_opmap *m, const char *ir_type);
/* The IR name of an ONNX attribute of e's op, or NULL. */
const char *gr_opmap_ir_attr(const gr_opmap_entry *e, const char *name, size_t nlen);

#endif
