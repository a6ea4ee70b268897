/*
** tiling.h: the tiling executor. For a node of a graph and a chip it builds a
** tiling plan (cores used, tile shape, loops per core, tails, the bytes every
** buffer keeps resident in UB/L1/L0A/L0B/L0C with double buffering and
** alignment padding, the data moved in and out), validates any plan (built-in
** or from a Lua hook) against the chip's memories, exact coverage of the
** output and load balance, and runs a plan on the CPU through staging buffers
** the size of the chip's memories, comparing with an untiled reference
** (tiling_exec.c).
**
** Everything GE-specific (op type -> class, class parameters, dtype widths,
** which hardware property is the UB, which slot says where tiling runs) is
** read from the rule set through the table named by GR_TILING_ROLES_TABLE
** (rules/tiling_classes.rules); the strategies here are algorithms only.
**
** Ownership: a gr_tiling_rules borrows the rule set it was built from (which
** must outlive it) and owns nothing else. A gr_tplan owns its tile arrays
** (free with gr_tplan_free; a zeroed plan is empty and safe to free).
** Findings go to a gr_diags the caller owns. gr_tspec and gr_tchip are
** plain values; their string pointers borrow the rule set or the graph.
*/
#ifndef GR_TILING_H
#define GR_TILING_H

#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "lang/ruleset.h"
#include "model/graph.h"

#define GR_TILING_ROLES_TABLE "tiling_roles"
#define GR_TMAXDIM 8          /* dims of a tile index space (also hooks' limit) */
#define GR_TMAXIN 4           /* element-wise inputs */
#define GR_TMAXBUF 16         /* buffers of one plan */

/* What a plan may describe (doc/tiling.md section 9). A node or plan beyond
** these is a GR_TC_LIMIT error, never a wrapped-around number: every shape,
** volume, offset and byte count is computed with checked arithmetic, and
** with tensors of at most 2^48 elements of at most 8 bytes every byte count
** of a whole tensor fits 64 bits. */
#define GR_TMAX_ELEMS ((int64_t)1 << 48)   /* elements of any tensor, index space or tile dim */
#define GR_TMAX_TILES ((size_t)1 << 20)    /* tiles a plan may enumerate (counted first) */
#define GR_TMAX_CORES 65536u               /* block_dim of any plan */

/* memory levels of an AI core */
enum gr_tmem { GR_MEM_UB = 0, GR_MEM_L1, GR_MEM_L0A, GR_MEM_L0B, GR_MEM_L0C, GR_MEM_N };
const char *gr_tmem_name(int level);       /* "ub", "l1", "l0a", "l0b", "l0c" */

enum gr_tstrategy { GR_TS_NONE = 0, GR_TS_ELEMENTWISE, GR_TS_REDUCE_LAST, GR_TS_MATMUL,
                    GR_TS_ATTENTION, GR_TS_CONV2D, GR_TS_CUSTOM };
const char *gr_tstrategy_name(int s);      /* "elementwise", "reduce_last", ... */

/* storage formats of tensor elements (width and encoding) */
enum gr_tfmt { GR_FMT_NONE = 0, GR_FMT_FP16, GR_FMT_BF16, GR_FMT_FP32, GR_FMT_FP64,
               GR_FMT_I8, GR_FMT_U8, GR_FMT_I16, GR_FMT_U16, GR_FMT_I32, GR_FMT_U32,
               GR_FMT_I64, GR_FMT_U64, GR_FMT_N };
int gr_tfmt_bytes(int fmt);
int gr_tfmt_parse(const char *s);          /* GR_FMT_NONE when unknown */

/* CPU kernels (tiling_exec.c) */
enum gr_tkernel { GR_K_NONE = 0, GR_K_COPY, GR_K_ADD, GR_K_SUB, GR_K_MUL, GR_K_DIV, GR_K_MAXIMUM,
                  GR_K_MINIMUM, GR_K_RELU, GR_K_ABS, GR_K_NEG, GR_K_EXP, GR_K_SQRT, GR_K_SQUARE,
                  GR_K_RSQRT, GR_K_SIGMOID, GR_K_SWISH, GR_K_TANH, GR_K_GELU,
                  GR_K_SOFTMAX, GR_K_RMS_NORM, GR_K_LAYER_NORM, GR_K_MATMUL, GR_K_ATTENTION, GR_K_CONV2D, GR_K_N };
int gr_tkernel_parse(const char *s);
const char *gr_tkernel_name(int k);
int gr_tkernel_arity(int k);               /* element-wise inputs; 0 for the others */

/* ---- findings ----
** Tiling reports on the shared diagnostic carrier (base/diag.h): a failed
** check is a GR_SEV_ERROR diagnostic with the numbers that broke it, remarks
** are notes. Every finding carries the stable code of its check ("GR0301" ..
** "GR0312", listed in doc/json-schema.md); reporters show the check's name. */
enum gr_tcheck { GR_TC_NONE = 0, GR_TC_MEMORY, GR_TC_STATED, GR_TC_ALIGNMENT, GR_TC_BOUNDS, GR_TC_SHAPE,
                 GR_TC_COVERAGE, GR_TC_CORES, GR_TC_BALANCE, GR_TC_RULES, GR_TC_HOOK, GR_TC_EXECUTE,
                 GR_TC_LIMIT, GR_TC_N };
const char *gr_tcheck_name(int check);     /* "memory", "stated", ... */
const char *gr_tcheck_code(int check);     /* "GR0301", ...; NULL for GR_TC_NONE */
int gr_tcheck_of(const gr_diag *d);        /* the check of a tiling finding (from its code), or GR_TC_NONE */
gr_diag *gr_tnote(gr_diags *d, gr_severity sev, int check, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
int gr_tdiags_has(const gr_diags *d, int check);   /* an error of that check */

/* ---- what the rule set says ---- */
typedef struct gr_tparams {
  const char *cls;            /* class name (borrowed from the rule set) */
  int strategy;               /* GR_TS_* */
  int core_role;              /* 0 vector, 1 cube */
  uint32_t align;             /* align_bytes */
  int double_buffer;
  uint32_t buffers, tmp_buffers, tmp_elem_bytes;
  int64_t resident[GR_TMAXIN]; uint32_t nresident;   /* reduce_last */
  const char *attr_axes, *attr_eps;
  /* matmul / attention */
  int l0c_double_buffer, ub_out;
  uint32_t acc_bytes, unit, k_unit_bytes;
  int64_t max_m, max_n, max_k, max_q, max_kv;
  double mac_per_cycle, gm_bytes_per_cycle;
  int64_t in_a, in_b, in_q, in_k, in_v;
  const char *attr_ta, *attr_tb, *attr_heads, *attr_kv_heads, *attr_layout, *attr_scale;
  const char *default_layout;
  /* conv2d: input x = in_a, filter = in_b; attribute names; the layout
  ** assumed when the node has no format attribute */
  const char *attr_strides, *attr_pads, *attr_dilations, *attr_groups, *attr_format, *default_format;
  const char *onnx_attr_groups, *onnx_attr_auto_pad, *onnx_format;   /* the same, on an ONNX model's node */
} gr_tparams;

typedef struct gr_tiling_rules {
  const gr_ruleset *rs;
  int hw_mem[GR_MEM_N];       /* hardware property index per level */
  int hw_cores[3];            /* vector, cube, any */
  int slot;                   /* placement slot, -1 when the role is absent */
  const gr_table *classes, *compute, *dtypes;
  const char *params_prefix, *custom_class;
} gr_tiling_rules;

/* Resolves the roles table. Returns -1 with err filled when the rule set has
** no usable tiling_roles table (missing table, unknown property or slot). */
int gr_tiling_rules_init(gr_tiling_rules *tr, const gr_ruleset *rs, gr_error *err);
/* The parameters of class `cls`; -1 with err filled when missing or malformed. */
int gr_tiling_params(const gr_tiling_rules *tr, const char *cls, gr_tparams *p, gr_error *err);
/* The class of an op type (borrowed string), or NULL. */
const char *gr_tiling_class_of(const gr_tiling_rules *tr, const char *op_type);

/* ---- the chip ---- */
typedef struct gr_tchip {
  const char *soc;
  uint64_t cap[GR_MEM_N];     /* bytes per level */
  uint32_t cores[3];          /* vector, cube, any */
} gr_tchip;
int gr_tiling_chip(const gr_tiling_rules *tr, int soc, gr_tchip *chip);
uint32_t gr_tchip_cores(const gr_tchip *chip, const gr_tparams *p);  /* with the fallback */

/* ---- what to tile (derived from a node, or written by tests) ---- */
enum gr_tlayout { GR_LAYOUT_BSH = 1, GR_LAYOUT_BNSD, GR_LAYOUT_BSND };

typedef struct gr_tspec {
  int strategy, kernel;
  /* element-wise: output shape and broadcast input shapes (right-aligned) */
  uint32_t ndim; int64_t out[GR_TMAXDIM];
  uint32_t nin; uint32_t in_ndim[GR_TMAXIN]; int64_t in[GR_TMAXIN][GR_TMAXDIM];
  uint8_t fin[GR_TMAXIN], fout;             /* formats (inputs; output) */
  /* reduce_last: rows x cols, resident vectors, per-row statistics outputs */
  int64_t rows, cols;
  uint32_t nres, nstat; uint8_t fres[GR_TMAXIN], fstat[GR_TMAXIN];
  double eps;
  /* matmul: batch x M x N, inner K; x1 batch broadcast (1 when x1 has no batch) */
  int64_t batch, m, n, k; int64_t batch_a, batch_b; int trans_a, trans_b;
  /* attention */
  int64_t b, heads, kv_heads, sq, skv, d; int layout; double scale;
  /* conv2d: the img2col geometry of the cube matmul (gr_tconv_derive fills
  ** batch = N x groups, m = Ho*Wo, n = Cout / groups, k = C1*kh*kw*C0 with
  ** C1 = ceil(cin / C0), batch_a = batch, batch_b = groups); cin and cout are
  ** per group */
  int64_t cn, groups, cin, cout, hi, wi, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, ho, wo, c0, c1;
  /* custom (Lua): the output shape is out/ndim, format fout */
} gr_tspec;

/* ---- a plan ---- */
typedef struct gr_tbuf {
  char name[16];
  uint8_t level;              /* GR_MEM_* */
  uint8_t copies;             /* 2 when double-buffered */
  uint64_t offset;            /* of copy 0 in the level; copies follow back to back */
  uint64_t bytes;             /* one copy, padded to the alignment */
} gr_tbuf;

typedef struct gr_tplan {
  int strategy;
  uint32_t ndim;
  int64_t shape[GR_TMAXDIM];  /* the index space that is tiled */
  int64_t tile[GR_TMAXDIM];   /* the nominal tile: buffers are sized for it */
  int64_t inner[2];           /* matmul, conv2d: K block in L0, K slab in L1; attention: KV block */
  uint32_t block_dim;         /* cores used */
  size_t ntiles;
  int64_t *off, *len;         /* ntiles x ndim */
  uint32_t *core;             /* ntiles */
  uint64_t loops_per_core;    /* most tiles on one core (stated) */
  size_t tail_tiles;          /* tiles smaller than the nominal tile (stated) */
  gr_tbuf buf[GR_TMAXBUF]; size_t nbuf;
  uint64_t used[GR_MEM_N];    /* stated bytes per level */
  uint64_t bytes_in, bytes_out;   /* global memory traffic */
  double imbalance;           /* busiest core's load / mean load - 1 (set by validation) */
} gr_tplan;
void gr_tplan_free(gr_tplan *p);
int  gr_tplan_copy(gr_tplan *dst, const gr_tplan *src);   /* deep copy; 0 */

/* Builds the spec of a node: class, shapes, formats, attributes. Returns the
** strategy (GR_TS_NONE when the op type has no class), with problems that make
** the node untileable added to notes as errors. */
int gr_tiling_spec(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node,
                   gr_tparams *params, gr_tspec *spec, gr_diags *notes);

/* The spec within what a plan may describe (GR_TMAX_*): 0, or -1 with a
** "limit" error. The planner, validator and executor call it first. */
int gr_tspec_check(const gr_tspec *spec, gr_diags *notes);

/* The spec of a node tiled by a Lua hook: its output 0 (shape, format). */
int gr_tiling_spec_custom(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node, gr_tspec *spec, gr_diags *notes);

/* Plans with the strategy of params. Returns 0, or -1 with an error in notes
** (nothing fits, bad shapes). */
int gr_tiling_plan(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                   gr_tplan *plan, gr_diags *notes);

/* Enumerates the tiles of spec with the tile shape and inner blocks of an
** existing plan `like` (used to execute a plan's tiles over scaled-down
** shapes); the buffers are those of `like`'s tile. */
int gr_tiling_replan(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                     const gr_tplan *like, gr_tplan *plan, gr_diags *notes);

/* The buffer layout a tile shape needs (used by the planner and, independently
** of what a plan states, by validation). Returns -1 with a note when the
** strategy cannot lay the tile out. */
int gr_tiling_layout(const gr_tspec *spec, const gr_tparams *params, const int64_t *tile,
                     const int64_t *inner, gr_tbuf *buf, size_t *nbuf, uint64_t *used);

/* Validates a plan: every tile's working set fits each memory level (numbers
** recomputed from the tile shape, and stated numbers checked against them);
** the tiles cover every output element exactly once (no gap, overlap or
** out-of-bounds); cores are valid and the load is balanced; stated counts
** agree. Every failed check is an error note with its numbers. Sets
** plan->imbalance. Returns the number of errors added. */
size_t gr_tiling_validate(gr_tplan *plan, const gr_tspec *spec, const gr_tparams *params,
                          const gr_tchip *chip, gr_diags *notes);

/* ---- custom (Lua) tilings ----
** The plan a Lua tiling function returns (filled by the hooks' tiling bridge,
** which owns and frees the arrays: gr_custom_tiling_free in hooks/hooks.h).
** This is the only definition of the struct. */
typedef struct gr_custom_tiling {
  uint32_t block_dim, ndim;           /* cores used; rank of the tiled output */
  int64_t tile_shape[GR_TMAXDIM];
  size_t ntiles; int64_t *offsets, *sizes; uint32_t *cores;   /* ntiles*ndim offsets/sizes, ntiles cores (NULL: round robin) */
  uint64_t ub_bytes, l1_bytes, l0a_bytes, l0b_bytes, l0c_bytes;   /* resident bytes per tile, declared */
  uint32_t buffers; int double_buffer;
} gr_custom_tiling;
/* Converts a hook's tiling into a plan over the spec's output (spec->out,
** spec->ndim, spec->fout; strategy GR_TS_CUSTOM). Malformed input (ndim of 0
** or above GR_TMAXDIM, ndim different from the output's) is an error note and
** returns -1; everything else is left for gr_tiling_validate to judge. */
int gr_tplan_from_custom(gr_tplan *plan, const gr_custom_tiling *c, const gr_tspec *spec,
                         const gr_tparams *params, gr_diags *notes);

/* ---- execution (tiling_exec.c) ---- */
#define GR_TEXEC_MAX_ELEMS  (1 << 21)     /* largest tensor executed, elements */
#define GR_TEXEC_MAX_WORK   (1 << 25)     /* largest multiply-accumulate count executed */
#define GR_TEXEC_MAX_STAGING ((uint64_t)1 << 28)   /* bytes of one staged memory level */

typedef struct gr_texec {
  int ran;                    /* the executor ran (0: refused, see notes) */
  int scaled;                 /* the spec was scaled down to the budgets above */
  char scale_text[160];       /* what was scaled, e.g. "N 4096 -> 64 (factor 64)" */
  size_t tiles_executed;
  double max_abs_err, max_rel_err;
  double tolerance;           /* relative tolerance of the comparison */
  size_t mismatches;          /* elements outside the tolerance (NaN = never written) */
  size_t never_written, written_twice;
  int match;                  /* ran, every element written once and within tolerance */
  gr_tplan plan;              /* the plan executed: when scaled, the same tile shape and
                                 buffers over the scaled-down shapes */
} gr_texec;
void gr_texec_free(gr_texec *x);

/* Shrinks a spec to the execution budgets (keeping the dims the tile depends
** on when possible). Returns 1 when scaled (with a text), 0 when unchanged. */
int gr_tspec_scale(const gr_tspec *spec, gr_tspec *out, char *text, size_t ntext);

/* Runs `plan` (which must be a plan of `spec`) on the CPU with seeded random
** inputs, every tile moved through staging buffers of the chip's UB/L1/L0
** sizes, and compares with the untiled reference. Problems (a plan the
** staging cannot hold, a mismatch) are error notes with check "execute". */
int gr_tiling_run(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                  const gr_tplan *plan, uint64_t seed, gr_texec *x, gr_diags *notes);

/* Scales when needed, replans, validates and runs. */
int gr_tiling_execute(const gr_tspec *spec, const gr_tparams *params, const gr_tchip *chip,
                      const gr_tplan *plan, uint64_t seed, gr_texec *x, gr_diags *notes);

#endif
