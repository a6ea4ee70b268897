/*
** model.h: one interface over every model file format gerules reads. A
** reader per format (ATC JSON, GE protobuf text dump, GE binary ModelDef,
** .om offline model, ONNX) sits behind one function table; the format is
** detected from the content (magic bytes, the first protobuf tag or the first
** token), never from the file name, unless the caller names it. Every reader
** produces the same compact graph (graph.h) that the evaluator uses, and
** records in it which format was read (gr_graph_format) and, for ONNX, the
** model's opset (gr_graph_onnx_opset).
**
** Ownership: the caller owns the returned graph (gr_graph_free). Nothing
** here keeps a pointer to the options or the input buffer after returning;
** input files are opened read-only and never modified. The library never
** prints: failures come back in a gr_error, line and column 1-based for text
** formats, line 0 (and "at byte N" in the message) for binary ones.
*/
#ifndef GR_MODEL_H
#define GR_MODEL_H

#include <stddef.h>
#include "base/util.h"
#include "model/graph.h"

enum gr_model_format {
  GR_FMT_AUTO = 0,      /* detect from the content */
  GR_FMT_GE_JSON,       /* the ModelDef JSON that `atc --mode=1` writes */
  GR_FMT_GE_TEXT,       /* protobuf text format of a ModelDef (ge_proto_*.txt dumps) */
  GR_FMT_GE_BINARY,     /* a serialized ModelDef (binary protobuf) */
  GR_FMT_OM,            /* an .om offline model: header, partition tables, MODEL_DEF partitions */
  GR_FMT_ONNX,          /* an ONNX ModelProto */
  GR_FMT_COUNT
};

struct gr_opmap;        /* the ONNX op mapping (onnx_map.h), built from the rule set */

typedef struct gr_model_opts {
  int format;                     /* GR_FMT_*; GR_FMT_AUTO = detect */
  const struct gr_opmap *opmap;   /* needed to read ONNX; NULL = ONNX input is an error */
  /* the capabilities of the chip the model is read for (one byte per rule
  ** set capability, the SoC's caps), or NULL: no chip (`chip has CAP` in
  ** an ONNX mapping row is then false, as GE's plugin falls back when
  ** rtGetSocVersion fails) */
  const uint8_t *chip_caps;
} gr_model_opts;

/* Format names as --input-format spells them ("json", "ge-text", "ge-binary",
** "om", "onnx") and as the JSON report writes them. */
const char *gr_model_format_name(int format);
int         gr_model_format_by_name(const char *name);   /* GR_FMT_*, -1 when unknown */
const char *gr_model_format_names(void);                 /* "json, ge-text, ..." for messages */

/* What the first bytes of an input are: GR_FMT_* on success; 0 with err set
** when they are none of the formats (or a known format gerules cannot read,
** such as a zip-based OM2). n may be short: detection looks at most at the
** first few KiB and at the whole top level of a binary protobuf message
** when it is given the whole buffer. */
int gr_model_detect(const unsigned char *p, size_t n, gr_error *err);

/* Loading. load_file takes "-" for standard input; any other path must be
** a regular file (base/input.h: a FIFO or a device is refused unread). A
** model read whole from a pipe is capped at GR_MODEL_STREAM_MAX, protobuf's
** own 2 GiB message limit (larger ONNX models keep their weights outside). */
#define GR_MODEL_STREAM_MAX ((size_t)2 << 30)
gr_graph *gr_model_load_file(const char *path, const gr_model_opts *o, gr_error *err);
/* From an open descriptor (not closed): a regular file is mapped (binary
** formats) or streamed from offset 0 (ATC JSON, so a watcher of the offset
** sees the progress); a pipe or a terminal is read whole up to the cap; a
** device or a file that cannot be mapped is an error, never read whole. */
gr_graph *gr_model_load_fd(int fd, const gr_model_opts *o, gr_error *err);
gr_graph *gr_model_load_mem(const void *buf, size_t len, const gr_model_opts *o, gr_error *err);

#endif
