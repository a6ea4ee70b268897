/*
** graph.h: the compact in-memory form of a GE model graph (the JSON that
** `atc --mode=1` writes: a ModelDef with graph[].op[]), and its streaming
** loader. Names, op types, dtypes, layouts and attribute keys are interned;
** shapes are interned (transformer graphs repeat a few shapes millions of
** times); edges, tensor descriptors and attributes live in flat arrays
** indexed from each node. No DOM of the file is ever built.
**
** Ownership: a gr_graph owns everything reachable from it; every pointer and
** string returned by an accessor stays valid until gr_graph_free(). The
** loader never modifies its input.
*/
#ifndef GR_GRAPH_H
#define GR_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "base/util.h"

#define GR_NONE 0xffffffffu

/* One input_desc / output_desc entry. */
typedef struct gr_tensor {
  uint32_t shape;     /* shape id, see gr_graph_shape(); GR_SHAPE_SCALAR (0) = dims [], GR_SHAPE_UNKNOWN = not known */
  uint16_t dtype;     /* dtype id, see gr_graph_dtype_name(); 0 = absent (DT_UNDEFINED) */
  uint16_t layout;    /* layout id, see gr_graph_layout_name(); 0 = absent ("") */
} gr_tensor;

/* One entry of an op's "input" array. */
typedef struct gr_edge {
  uint32_t src;       /* producing node index; GR_NONE for an empty ("") optional input */
  int32_t  index;     /* the producer's output index; -1 for a control edge */
} gr_edge;

enum gr_attr_kind {
  GR_ATTR_S = 1,      /* string (also bytes); u.str = string id */
  GR_ATTR_I,          /* int64; u.i */
  GR_ATTR_F,          /* double (singular floats arrive as strings like "0.5"); u.f */
  GR_ATTR_B,          /* bool; u.i = 0/1 */
  GR_ATTR_DT,         /* data type; u.str = dtype name string id */
  GR_ATTR_LIST_S,     /* list of strings; u.list = first index in gr_graph_list_u32, n = count */
  GR_ATTR_LIST_I,     /* list of int64; u.list into gr_graph_list_i64 */
  GR_ATTR_LIST_F,     /* list of double; u.list into gr_graph_list_f64 */
  GR_ATTR_LIST_B,     /* list of bool; u.list into gr_graph_list_i64 (0/1) */
  GR_ATTR_OTHER       /* tensor, graph, func, list_list_*, expression...: kept as a marker only */
};

typedef struct gr_attr {
  uint32_t key;       /* string id of the attribute name */
  uint32_t kind;      /* enum gr_attr_kind */
  uint32_t n;         /* element count for lists */
  uint32_t pad;
  union { int64_t i; double f; uint32_t str; uint64_t list; } u;
} gr_attr;

enum { GR_NODE_DYNAMIC = 1 };   /* some input/output dim is below 0 */

typedef struct gr_node {
  uint32_t name;      /* string id */
  uint32_t type;      /* type id: dense, 0 .. gr_graph_ntypes()-1 */
  uint32_t edge0;     /* first edge: n_data data inputs, then n_ctrl control inputs */
  uint32_t tensor0;   /* first tensor: n_in_desc input descs, then n_out_desc output descs */
  uint32_t attr0;     /* first attribute */
  uint32_t line;      /* where the op object starts in the file (1-based) */
  uint32_t col;
  uint16_t n_data, n_ctrl;
  uint16_t n_in_desc, n_out_desc;
  uint16_t n_attr;
  uint16_t graph;     /* index of the graph holding the node; 0 = main graph */
  uint32_t flags;     /* GR_NODE_* */
} gr_node;

typedef struct gr_graph gr_graph;

/* Loading. `display_name` is used in error messages only. On failure returns
** NULL and fills err with the line and column (1-based) of the offending
** byte or value and a message such as "expected a string for \"name\"",
** "op 'x' input 2 refers to unknown op 'y'", "duplicate op name 'x' (first
** defined at line 12)". Bounded: nesting depth, string and array sizes. */
gr_graph *gr_graph_load_fd(int fd, gr_error *err);
gr_graph *gr_graph_load_file(const char *path, gr_error *err);   /* "-" = stdin */
gr_graph *gr_graph_load_mem(const char *buf, size_t len, gr_error *err);
void      gr_graph_free(gr_graph *g);

/* Whole graph. */
uint32_t       gr_graph_nnodes(const gr_graph *g);
const gr_node *gr_graph_nodes(const gr_graph *g);              /* array of nnodes */
uint32_t       gr_graph_ngraphs(const gr_graph *g);
const char    *gr_graph_graph_name(const gr_graph *g, uint32_t i);  /* "" when unnamed */
const char    *gr_graph_model_name(const gr_graph *g);          /* ModelDef.name or "" */
/* A string attribute of the model itself (ModelDef.attr, e.g. the release of
** the compiler that wrote it), the last one of that key; NULL when absent. */
const char    *gr_graph_model_attr(const gr_graph *g, const char *key);
/* The format the graph was read from (model.h, gr_model_format_name: "json",
** "om", "onnx", ...) and, for ONNX, the model's ai.onnx opset (0 otherwise). */
int            gr_graph_format(const gr_graph *g);
int64_t        gr_graph_onnx_opset(const gr_graph *g);

/* Interned strings: node names, attribute keys and string values. */
const char *gr_graph_str(const gr_graph *g, uint32_t id);
int         gr_graph_find_str(const gr_graph *g, const char *s, uint32_t *id);

/* Op types. */
uint32_t    gr_graph_ntypes(const gr_graph *g);
const char *gr_graph_type_name(const gr_graph *g, uint32_t type);
int         gr_graph_find_type(const gr_graph *g, const char *s, uint32_t *type);

/* Node lookup by name: the first node with that name, in file order. */
int gr_graph_find_node(const gr_graph *g, const char *name, uint32_t *node);

/* Per node. */
const gr_edge   *gr_graph_edges(const gr_graph *g, const gr_node *n);    /* n_data + n_ctrl */
const gr_tensor *gr_graph_tensors(const gr_graph *g, const gr_node *n);  /* n_in_desc + n_out_desc */
const gr_attr   *gr_graph_attrs(const gr_graph *g, const gr_node *n);    /* n_attr, file order */
const gr_attr   *gr_graph_attr(const gr_graph *g, const gr_node *n, const char *key);  /* NULL if absent */
/* The same by key string id (from gr_graph_find_str), without hashing the key
** per node. When a key occurs twice in one op, both lookups return the last. */
const gr_attr   *gr_graph_attr_id(const gr_graph *g, const gr_node *n, uint32_t key);

/* The IR names of a node's inputs, where the model keeps them: GE's model
** serializer writes an op's input names and their input indices as the
** list attributes _input_name_key and _input_name_value (GE JSON dumps, .om
** files). gr_graph_input_names gives the two keys' string ids, 0 when the
** model holds not both strings (then no node has names: callers skip the
** lookup);
** gr_graph_input_name the string id of the name of input `slot` (an index
** into the node's data edges, which follow the op's inputs), GR_NONE when
** the node names none there. */
int      gr_graph_input_names(const gr_graph *g, uint32_t *key_id, uint32_t *value_id);
uint32_t gr_graph_input_name(const gr_graph *g, const gr_node *n, uint32_t key_id, uint32_t value_id, uint32_t slot);
/* The same for every input of a node at once: the node's names (string ids)
** and their input indices, *names and *slots pointing into the graph; their
** count, 0 when the node names none. A caller that asks for several inputs
** of one node reads its attributes once. */
uint32_t gr_graph_input_name_list(const gr_graph *g, const gr_node *n, uint32_t key_id, uint32_t value_id,
                                  const uint32_t **names, const int64_t **slots);

/* Tensor details. Two shape ids are reserved, both with ndim 0 and empty
** dims: GR_SHAPE_SCALAR, a scalar (dims [], one element: what GE's formats
** mean by a descriptor without dims), and GR_SHAPE_UNKNOWN, a shape the
** reader could not tell (an ONNX tensor whose shape gerules did not infer;
** GE's own InferShape knows it, so it is not dynamic). Interning dims []
** gives GR_SHAPE_SCALAR, never GR_SHAPE_UNKNOWN; a reader writes
** GR_SHAPE_UNKNOWN itself. Every consumer of dims asks gr_graph_shape_known
** first: an unknown shape must not be read as one element. */
#define GR_SHAPE_SCALAR  0u
#define GR_SHAPE_UNKNOWN 1u
const int64_t *gr_graph_shape(const gr_graph *g, uint32_t shape, uint32_t *ndim);
int            gr_graph_shape_known(const gr_graph *g, uint32_t shape);   /* 0 for GR_SHAPE_UNKNOWN (and an id out of range) */
const char    *gr_graph_dtype_name(const gr_graph *g, uint16_t dtype);   /* "DT_FLOAT16"; "" for 0 */
const char    *gr_graph_layout_name(const gr_graph *g, uint16_t layout); /* "ND"; "" for 0 */

/* The attributes of input descriptor `in` of node `node` (TensorDescriptor.attr
** of OpDef.input_desc[in]), file order; *n = 0 and an empty array when it has
** none. The ATC JSON, binary ModelDef and .om readers keep them; the text
** dump and ONNX readers give none. */
const gr_attr   *gr_graph_input_attrs(const gr_graph *g, uint32_t node, uint32_t in, uint32_t *n);
const gr_attr   *gr_graph_input_attr(const gr_graph *g, uint32_t node, uint32_t in, const char *key);  /* NULL if absent; the last of that key */

/* The node whose OpDef.subgraph_name lists graph i (the parent node of a
** subgraph); GR_NONE for the root graph and for a graph no op lists. Every
** reader records it: the GE formats from subgraph_name, the ONNX reader for
** the branches of each If. */
uint32_t         gr_graph_graph_parent(const gr_graph *g, uint32_t i);

/* List attribute payloads. */
const uint32_t *gr_graph_list_u32(const gr_graph *g, uint64_t first);
const int64_t  *gr_graph_list_i64(const gr_graph *g, uint64_t first);
const double   *gr_graph_list_f64(const gr_graph *g, uint64_t first);

/* Statistics for benchmarks and tests. */
size_t gr_graph_memory(const gr_graph *g);   /* bytes held */

/* ---- internals: shared by graph.c and the two builders that fill the
** arrays (graph_load.c for ATC JSON, build.c for every other reader) only.
** Everything else uses the accessors above; the layout may change without
** notice. ---- */

/* The limits both builders keep; they follow from the types here. */
#define GR_MAX_PER_OP 65535u           /* inputs, descs, attrs of one op: uint16 counts */
#define GR_MAX_DIMS   65535u           /* dims in one shape */
#define GR_MAX_GRAPHS 65535u           /* gr_node.graph is uint16 */
#define GR_MAX_STR    (16u << 20)      /* one kept string */
#define GR_MAX_LIST   (16u << 20)      /* elements of one list attribute */
#define GR_MAX_IDS    0xfffffffeu      /* nodes, edges, tensors, attrs (uint32 indexes, GR_NONE reserved) */
typedef struct gr_shape_info {
  uint64_t off;       /* first dim in dims[] */
  uint32_t ndim;
  uint16_t neg;       /* 1 when some dim is below 0 */
  uint16_t unknown;   /* 1 for GR_SHAPE_UNKNOWN only: not known (ndim 0, neg 0) */
} gr_shape_info;

typedef struct gr_graph_info {
  uint32_t name;      /* string id */
  uint32_t node0;     /* the graph's nodes are node0 .. node0+nnodes-1 */
  uint32_t nnodes;
  uint32_t parent;    /* gr_graph_graph_parent(); set by gr_graph_resolve */
} gr_graph_info;

/* Where the attributes of one input descriptor are (sorted by node, then in). */
typedef struct gr_dattr_ix {
  uint32_t node;
  uint16_t in, n;     /* input descriptor index; attribute count */
  uint32_t first;     /* into dattrs */
} gr_dattr_ix;

/* One entry of an op's subgraph_name: the op, the graph's name (string id). */
typedef struct gr_subg { uint32_t node, name; } gr_subg;

struct gr_graph {
  gr_strpool strs;                 /* node names, attr keys and strings, graph/model names */
  gr_strpool types;                /* op types; id 0 is "" (op without a type) */
  gr_strpool dtypes, layouts;      /* id 0 is "" (absent) */
  gr_node   *nodes;   size_t nnodes, cap_nodes;
  gr_edge   *edges;   size_t nedges, cap_edges;
  gr_tensor *tensors; size_t ntensors, cap_tensors;
  gr_attr   *attrs;   size_t nattrs, cap_attrs;
  uint32_t  *lu32;    size_t nlu32, cap_lu32;   /* list payloads */
  int64_t   *li64;    size_t nli64, cap_li64;
  double    *lf64;    size_t nlf64, cap_lf64;
  int64_t   *dims;    size_t ndims, cap_dims;   /* all distinct shapes, back to back */
  gr_shape_info *shapes; size_t nshapes, cap_shapes;
  gr_idmap   shape_index;                       /* hash of a dim vector -> shape id */
  gr_graph_info *graphs; size_t ngraphs, cap_graphs;
  uint32_t   model_name;           /* string id */
  uint32_t  *mattrs; size_t nmattrs;            /* model string attributes: key, value id pairs */
  int        format;               /* enum gr_model_format (model.h); 0 = not set */
  int64_t    onnx_opset;
  uint32_t  *name_node; size_t n_name_node;     /* string id -> first node of that name, GR_NONE */
  gr_attr   *dattrs;  size_t ndattrs, cap_dattrs;   /* input-descriptor attributes */
  gr_dattr_ix *dix;   size_t ndix, cap_dix;
  gr_subg   *subg;    size_t nsubg, cap_subg;   /* subgraph_name entries */
};

gr_graph *gr_graph_new(void);      /* empty graph: pools initialised, shapes GR_SHAPE_SCALAR and GR_SHAPE_UNKNOWN */
uint32_t  gr_graph_intern_shape(gr_graph *g, const int64_t *dims, uint32_t ndim);
/* Records a model string attribute (ids in strs); 0 past GR_MAX_MODEL_ATTRS. */
#define GR_MAX_MODEL_ATTRS 4096
int       gr_graph_add_model_attr(gr_graph *g, uint32_t key, uint32_t value);

/* The steps both builders take for every table and op. gr_graph_grow
** makes room for entry n of an array of elsz-byte entries (doubling, 64 KiB
** at first); 0 when n reaches GR_MAX_IDS, which the caller reports at its
** location. gr_graph_begin appends an empty graph (room already made,
** GR_MAX_GRAPHS checked) and returns its index. gr_graph_op_begin appends
** an empty op to graph `graph` (room already made) and returns its index.
** gr_graph_op_finish puts the op's data
** inputs before its control inputs when edge_sort (a data input came after
** a control one), and, when tkind is not NULL (tkind[i] 1: its i-th
** descriptor is an output), its input descriptors before its output
** descriptors; both stable (gr_graph_op_sort, called only then). */
int       gr_graph_grow(void **p, size_t *cap, size_t n, size_t elsz);
uint32_t  gr_graph_begin(gr_graph *g);
void      gr_graph_op_sort(gr_graph *g, uint32_t node, int edge_sort, const unsigned char *tkind);
/* Inline: they run once per op of every model read. */
static inline uint32_t gr_graph_op_begin(gr_graph *g, uint32_t graph){
  gr_node *n = &g->nodes[g->nnodes];
  memset(n, 0, sizeof *n);
  n->edge0 = (uint32_t)g->nedges;
  n->tensor0 = (uint32_t)g->ntensors;
  n->attr0 = (uint32_t)g->nattrs;
  n->graph = (uint16_t)graph;
  return (uint32_t)g->nnodes++;
}
static inline void gr_graph_op_finish(gr_graph *g, uint32_t node, int edge_sort, const unsigned char *tkind){
  if( edge_sort || tkind ) gr_graph_op_sort(g, node, edge_sort, tkind);    /* rare: fields interleaved */
}

/* After loading: every edge's src, a string id of the source op's name, is
** replaced by that op's node index within the same graph, name_node is
** built, and each graph's parent is found from the subg pairs (a graph
** listed by several ops gets the first in file order). Returns 0, or GR_RESOLVE_EDGE (f->node's edge f->pos names no op of
** its graph; src is still the name id) or GR_RESOLVE_DUP (f->node repeats the
** name of f->first in the same graph). */
enum { GR_RESOLVE_EDGE = 1, GR_RESOLVE_DUP };
typedef struct gr_resolve_fail { uint32_t node, pos, first; } gr_resolve_fail;
int gr_graph_resolve(gr_graph *g, gr_resolve_fail *f);

#endif
