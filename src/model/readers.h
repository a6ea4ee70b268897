/*
** readers.h: the readers behind model.h, one per format, as the model stage
** calls them. Only model.c (the dispatcher), the readers themselves and their
** tests and fuzz targets include this; everything else goes through model.h.
**
** Ownership: every reader returns a new graph the caller frees, or NULL with
** err filled. A reader never keeps a pointer into its input buffer, and never
** writes to it.
*/
#ifndef GR_READERS_H
#define GR_READERS_H

#include <stddef.h>
#include "model/model.h"

/* ATC JSON (graph_load.c), strict: JSON that is not a GE ModelDef is an error
** that says what the file seems to be. gr_graph_load_* (graph.h) are the same
** reader without that check, for callers that feed it fragments. */
gr_graph *gr_read_ge_json_mem(const char *buf, size_t len, gr_error *err);
gr_graph *gr_read_ge_json_fd(int fd, gr_error *err);

/* A binary ModelDef (ge_pb.c). gr_ge_pb_add replays one serialized ModelDef
** (n bytes at p, which start at byte `base` of the file, for messages) into
** a builder: its graphs after those already there; the model name is taken
** from it unless first_only_name and a graph is already there. */
struct gr_build;
gr_graph *gr_read_ge_binary(const unsigned char *p, size_t n, gr_error *err);
int gr_ge_pb_add(struct gr_build *b, const unsigned char *p, size_t n, uint64_t base, int first_only_name);

/* An .om offline model (om.c): every model's MODEL_DEF partition. */
gr_graph *gr_read_om(const unsigned char *p, size_t n, gr_error *err);

/* A protobuf text-format ModelDef (ge_text.re). */
gr_graph *gr_read_ge_text(const char *p, size_t n, gr_error *err);

/* An ONNX ModelProto (onnx.c), its ops mapped to Ascend IR by `map` for a
** chip of capabilities caps (model.h gr_model_opts.chip_caps; NULL: none). */
gr_graph *gr_read_onnx(const unsigned char *p, size_t n, const struct gr_opmap *map, const uint8_t *caps, gr_error *err);

/* Sets the format tag (and ONNX opset, 0 otherwise) of a loaded graph. */
void gr_graph_set_format(gr_graph *g, int format, int64_t onnx_opset);

#endif
