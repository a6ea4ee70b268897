/*
** build.h: building a compact graph (graph.h) op by op, for the readers that
** decode their format into calls rather than streaming into the arrays
** themselves (binary and text ModelDef, .om, ONNX; the ATC JSON reader has
** its own tuned path). Strings are interned as they are given; an op's
** inputs name their source op as "name:index" (or name and index apart) and
** are resolved per graph by gr_build_finish, which also finds duplicate op
** names. Limits are those of the JSON reader (uint16 counts per op, 16 MiB
** strings, 16 Mi list elements); every count is checked.
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
/* Lists: begin with the kind (GR_ATTR_LIST_*), add elements, end. */
int  gr_build_list(gr_build *b, const char *key, size_t kn, int kind);
int  gr_build_list_i(gr_build *b, int64_t v);
int  gr_build_list_f(gr_build *b, double v);
int  gr_build_list_s(gr_build *b, const char *s, size_t n);
void gr_build_list_end(gr_build *b);

/* Number of ops so far, and of graphs. */
uint32_t gr_build_nops(const gr_build *b);
uint32_t gr_build_ngraphs(const gr_build *b);

/* Resolves the edges and hands the graph over; NULL (and the builder freed)
** on failure, with err filled. Errors of resolution are located at the op
** (its line:col, or for binary input the op's name only). */
gr_graph *gr_build_finish(gr_build *b, gr_error *err);

#endif
