/*
** build.h: building a compact graph (graph.h) op by op, for the readers that
** decode their format into calls rather than streaming into the arrays
** themselves (binary and text ModelDef, .om, ONNX; the ATC JSON reader has
** its own tuned path). Strings are interned as they are given; an op's
** inputs name their source op as "name:index" (or name and index apart) and
** are resolved per graph by gr_build_finish, which also finds duplicate op
** names. Limits are those of the JSON reader (graph.h GR_MAX_*: uint16
** counts per op, 16 MiB strings, 16 Mi list elements); every count is
** checked. A reader that knows a location checks GR_MAX_STR first.
**
** Ownership: a gr_build owns the graph under construction until
** gr_build_finish hands it over (or frees it on failure). Strings passed in
** are copied; nothing keeps a pointer to the caller's buffers.
*/
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "model/graph.h"

typedef struct gr_build gr_build;

gr_build *gr_build_new(void);
/* Frees the builder and, unless finish succeeded, its graph. */
void      gr_build_abort(gr_build *b);

/* The first error wins; every later call is a no-op returning 0. line 0
** means a binary position: the message should say "at byte N". */
int  gr_build_fail(gr_build *b, uint32_t line, uint32_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int  gr_build_failed(const gr_build *b);

int  gr_build_model_name(gr_build *b, const char *s, size_t n);
/* A string attribute of the model (ModelDef.attr); beyond the limit they
** are dropped (they only inform, e.g. of the compiler's release). */
int  gr_build_model_attr(gr_build *b, const char *key, size_t kn, const char *s, size_t n);
/* Starts a graph: the ops added next belong to it. */
int  gr_build_graph(gr_build *b, const char *name, size_t n);
/* From now on, every graph name given (gr_build_graph, gr_build_subgraph)
** is taken as "<prefix>/<name>" (the submodels of a flow model); n 0 ends
** it. */
int  gr_build_graph_prefix(gr_build *b, const char *prefix, size_t n);
/* Starts an op of the current graph (line/col 0 for binary input). */
int  gr_build_op(gr_build *b, const char *name, size_t nn, const char *type, size_t tn, uint32_t line, uint32_t col);
/* Sets the type / name of the current op, or the name of the current graph
** (for formats whose fields come in any order). */
int  gr_build_op_type(gr_build *b, const char *type, size_t tn);
int  gr_build_op_name(gr_build *b, const char *name, size_t nn);
int  gr_build_graph_name(gr_build *b, const char *name, size_t n);
/* An input: "src:idx" (idx -1 = control), "src" (index 0), "" (unconnected). */
int  gr_build_input(gr_build *b, const char *s, size_t n);
/* An input from a named source with an explicit index. */
int  gr_build_edge(gr_build *b, const char *src, size_t n, int32_t index);
/* A tensor descriptor of the current op; dtype/layout "" when absent. */
int  gr_build_tensor(gr_build *b, int output, const char *dtype, size_t dn, const char *layout, size_t ln,
                     const int64_t *dims, uint32_t ndim);

/* Attributes of the current op. */
int  gr_build_attr_i(gr_build *b, const char *key, size_t kn, int64_t v);
int  gr_build_attr_f(gr_build *b, const char *key, size_t kn, double v);
int  gr_build_attr_b(gr_build *b, const char *key, size_t kn, int v);
int  gr_build_attr_s(gr_build *b, const char *key, size_t kn, const char *s, size_t n);
int  gr_build_attr_dt(gr_build *b, const char *key, size_t kn, const char *s, size_t n);
int  gr_build_attr_other(gr_build *b, const char *key, size_t kn);
/* Between these two calls the attribute calls above (lists included) add
** to the input descriptor just added with gr_build_tensor(b, 0, ...), not to
** the op (gr_graph_input_attr). */
int  gr_build_input_attrs_begin(gr_build *b);
void gr_build_input_attrs_end(gr_build *b);
/* The current op owns the subgraph of that name (OpDef.subgraph_name; see
** gr_graph_graph_parent). */
int  gr_build_subgraph(gr_build *b, const char *name, size_t n);
/* Lists: begin with the kind (GR_ATTR_LIST_*), add elements, end. */
int  gr_build_list(gr_build *b, const char *key, size_t kn, int kind);
int  gr_build_list_i(gr_build *b, int64_t v);
int  gr_build_list_f(gr_build *b, double v);
int  gr_build_list_s(gr_build *b, const char *s, size_t n);
void gr_build_list_end(gr_build *b);

/* Id-based forms, for a reader that meets the same strings and shapes again
** and again (the ONNX reader): a string, op type, dtype or shape interned
** once is then given by id, with no hashing per use. The ids are those of
** graph.h (name pool, type pool, dtype pool, shape ids). */
int  gr_build_str(gr_build *b, const char *s, size_t n, uint32_t *id);
int  gr_build_type(gr_build *b, const char *s, size_t n, uint32_t *id);
int  gr_build_dtype(gr_build *b, const char *s, size_t n, uint16_t *id);
int  gr_build_shape(gr_build *b, const int64_t *dims, uint32_t ndim, uint32_t *id);
/* The dims of a shape id (valid until the next shape is added). */
const int64_t *gr_build_shape_dims(const gr_build *b, uint32_t shape, uint32_t *ndim);
/* Sizes the name pool for about n more strings (no rehash while they come). */
void gr_build_reserve(gr_build *b, size_t n);
/* Starts loading the name pool's slot of a string whose gr_hash is h, so
** that interning it a little later (gr_build_str_h) does not wait for
** memory. */
void gr_build_prefetch_str(const gr_build *b, uint64_t h);
int  gr_build_str_h(gr_build *b, const char *s, size_t n, uint64_t h, uint32_t *id);
int  gr_build_op_ids(gr_build *b, uint32_t name, uint32_t type, uint32_t line, uint32_t col);
/* src GR_NONE = an unconnected optional input */
int  gr_build_edge_id(gr_build *b, uint32_t src, int32_t index);
int  gr_build_tensor_ids(gr_build *b, int output, uint16_t dtype, uint16_t layout, uint32_t shape);
int  gr_build_attr_s_ids(gr_build *b, uint32_t key, uint32_t val);
int  gr_build_attr_i_id(gr_build *b, uint32_t key, int64_t v);

/* Number of graphs so far. */
uint32_t gr_build_ngraphs(const gr_build *b);

/* Resolves the edges and hands the graph over; NULL (and the builder freed)
** on failure, with err filled. Errors of resolution are located at the op
** (its line:col, or for binary input the op's name only). */
gr_graph *gr_build_finish(gr_build *b, gr_error *err);

#endif
