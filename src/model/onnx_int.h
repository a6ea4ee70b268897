/*
** onnx_int.h: what the ONNX reader (onnx.c) and its shape inference
** (onnx_infer.c) share, and nothing else includes: a view of bytes in the
** model, the producer of a tensor name, a parsed node, and the inference
** entry point. Internal to src/model.
**
** Ownership: every span points into the mapped model (or the reader's
** arena) and is never copied; an onode's vectors belong to the reader, which
** reuses them node after node. Inference borrows all of it for the call and
** keeps nothing.
*/
#ifndef GR_ONNX_INT_H
#define GR_ONNX_INT_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "model/build.h"
#include "model/onnx_map.h"

#define NO_SHAPE 0xffffffffu       /* prod.shape: not known */
#define GR_INFER_MAX_DIMS 16       /* shapes of higher rank are not inferred */

typedef struct span { const unsigned char *p; size_t n; } span;
typedef GR_VEC(span) spans;

/* What produced a tensor name in a graph scope. Ids are the builder's. */
typedef struct prod {
  uint32_t op;                     /* name id of the producing IR op */
  int32_t index;
  uint16_t dtype;                  /* dtype id, 0 = unknown */
  uint32_t shape;                  /* shape id, NO_SHAPE = unknown */
  int is_init;                     /* an initializer (so an input of that name is no Data) */
  span value;                      /* the TensorProto of a constant (initializer, Constant), else NULL */
} prod;

/* One NodeProto as the reader parsed it. */
typedef struct onode {
  span name, op, domain;
  spans in, out;
  GR_VEC(gr_onnx_attr_view) attrs;
  GR_VEC(span) attr_raw;              /* each attribute message, parallel to attrs */
  span then_g, else_g; int nbranch_attrs, nattrs_total;
  span value_tensor; int has_value;
} onode;

/* An inferred shape: known, its dtype id and dims (-1 = unknown dim). */
typedef struct ishape { int known; uint16_t dtype; uint32_t nd; int64_t d[GR_INFER_MAX_DIMS]; } ishape;

/* What inference sees of the node being added: the builder (shapes, dtype
** names), the producers of its input slots and whether each was found, and
** the reader's cache of dtype ids by ONNX elem type. */
typedef struct gr_oinfer {
  gr_build *b;
  const prod *ins;
  const unsigned char *inok;
  size_t nin;
  uint16_t *dt;                    /* 23 entries, 0xffff = not yet interned */
  int64_t ver;                     /* the model's opset of the node's domain (Resize's inputs differ by it) */
} gr_oinfer;

/* The dtype id of an ONNX elem type (0 when GE has none), interned in the
** builder on first use and cached in dt[23]. */
uint16_t gr_onnx_dtype_id(gr_build *b, uint16_t *dt, int64_t t);

/* Infers output 0 of the node with shape function fn (GR_SF_*, table
** onnx_shapes); 1 when *out is known. */
int gr_onnx_infer(const gr_oinfer *x, int fn, const onode *o, ishape *out);
/* Infers output i of the node: output 0 as gr_onnx_infer; a later one only
** for the functions whose outputs differ by index (split); 1 when *out is
** known. */
int gr_onnx_infer_output(const gr_oinfer *x, int fn, const onode *o, size_t i, ishape *out);

#endif
