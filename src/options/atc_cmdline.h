/*
** atc_cmdline.h: an ATC command line read as ATC's own parser reads it, and
** its --input_shape applied to a loaded graph. The flag list, the values
** ATC's parser checks, the frameworks, the input op types and ATC's messages
** are rule data (rules/atc.rules, tables atc_*; doc/rule-language.md 6.4);
** this file knows only the syntax of the command line (hicann/ge @ffdcbc9f7
** api/atc/cmd_flag_info.cc, a getopt_long parser) and of --input_shape
** (compiler/api/aclgrph/option_utils.cc ParseInputShape,
** CheckAndTransferInputShapeToRange).
**
** A caller (the `gerules atc` command; fuzz/fuzz-atc.c) feeds the arguments
** that are ATC flags one by one to gr_atc_flag_arg, then calls
** gr_atc_finish, then, once the model is loaded, gr_atc_apply. Every
** failure is one gr_atc_error, worded as ATC words it, with ATC's error
** code; nothing is printed.
**
** Ownership: a gr_atc_cmdline borrows the rule set given to gr_atc_init
** (it must outlive the command line) and owns copies of every argument it
** keeps; gr_atc_free frees them (a zeroed struct is fine). The flag names
** and values it hands out live as long as it does. A gr_atc_error owns its
** msg, hint and snippet (gr_atc_error_free); its code and loc.file point into static
** or rule-set storage.
*/
#ifndef GR_ATC_CMDLINE_H
#define GR_ATC_CMDLINE_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "lang/ast.h"

struct gr_ruleset;
struct gr_table;
struct gr_graph;

typedef struct gr_atc_error {
  char *msg;              /* ATC's message, NULL while there is no error */
  const char *code;       /* ATC's error code ("E10001"), or NULL */
  char *hint;             /* "; did you mean '--x'?", or NULL */
  gr_loc loc;             /* a malformed atc_* table or a --raw_ge_options file: where it is (file NULL otherwise) */
  char *snippet;          /* the source line at loc for a caret display, or NULL */
} gr_atc_error;

void gr_atc_error_free(gr_atc_error *e);

typedef struct gr_atc_flag {
  const char *name;       /* the atc_flags key, "--model" */
  const char *value;
  int argi;               /* argument index (the order of the options) */
  int last;               /* the last occurrence of this flag (the one ATC keeps) */
  gr_loc at;              /* where the value was written (gr_atc_take_at; file NULL: the command line) */
} gr_atc_flag;

typedef struct gr_atc_shape {
  char *name;             /* NULL for the by-index form */
  long index;
  GR_VEC(int64_t) dims;
  char *text;             /* the item as written, for messages */
} gr_atc_shape;

/* One input's shape range (atc_shape_range.c): per dim [lo, hi]; hi -1 is
** unbounded. name is NULL in the by-index form (the k-th range is input k). */
typedef struct gr_atc_dim_range { int64_t lo, hi; } gr_atc_dim_range;
typedef struct gr_atc_range {
  char *name;
  GR_VEC(gr_atc_dim_range) dims;
} gr_atc_range;

/* One --out_nodes item by node and output index (atc_out_nodes.c). */
typedef struct gr_atc_out_node { char *name; long index; } gr_atc_out_node;

typedef struct gr_atc_gear {
  GR_VEC(int64_t) v;      /* one profile of a gear flag, as ATC parses it */
} gr_atc_gear;

typedef struct gr_atc_cmdline {
  const struct gr_ruleset *rs;
  const struct gr_table *flags_t, *roles, *values, *value_errors, *frameworks, *formats, *input_ops, *messages;
  const struct gr_table *framework_modes;   /* the --mode values that need --framework (a set) */
  const struct gr_table *defaults;          /* ATC's default values of some flags */
  const struct gr_table *required;          /* flag -> the --mode values that require it (E10054) */
  const struct gr_table *mode_refused;      /* --mode value -> the flags CheckFlags refuses in it (E10001) */
  GR_VEC(gr_atc_flag) flags;                /* every flag taken, command-line order */
  size_t *last_of;                          /* per atc_flags key (its keymap index): 1 + its last entry in flags, 0 none
                                            ** (so 100,000 flags are taken in linear time) */
  GR_VEC(char *) owned;                     /* normalised arguments */
  int help;                                 /* -h, or --help with a true value */
  int ir_build;                             /* aclgrphBuildModel's reading (--entry ir-build): an --input_shape
                                            ** name that is no input op of the root graph is ignored */
  /* set by gr_atc_finish: the flags with a role (atc_flag_roles) and their values */
  const char *model_flag, *framework_flag, *shape_flag;
  const char *model, *framework, *mode, *mode_default;
  GR_VEC(gr_atc_shape) shapes;              /* --input_shape, parsed */
  /* set by gr_atc_finish_shapes (atc_gears.c): the gear flag given (its
  ** role, "dynamic_batch_size", ...; NULL without gears), its flag and value,
  ** its profiles, --input_format (or its default) */
  const char *gear_role, *gear_flag, *gear_value, *input_format;
  GR_VEC(gr_atc_gear) gears;
  uint32_t *shape_nodes;                    /* per shapes item: its input node (set by gr_atc_apply_shapes) */
  GR_VEC(gr_atc_error) raw_warnings;        /* raw GE options ignored (--raw_ge_options_ignore_unsupported) */
  /* set by gr_atc_ranges_finish (atc_shape_range.c): the shape range GE
  ** works with, --input_shape_range or a dynamic --input_shape turned into
  ** one (then --input_shape itself is dropped, as GE clears it), parsed */
  char *range_text;                         /* NULL: no shape range */
  const char *range_flag;                   /* the flag it came from */
  int range_by_index;                       /* the by-index form ("[..],[..]") */
  int range_skip_graph;                     /* the model is not read by ParseGraph (--framework=1): no graph checks */
  GR_VEC(gr_atc_range) ranges;
  gr_atc_error range_err;                   /* a parse error reported only on the graph (deferred) */
  /* set by gr_atc_outputs_finish (atc_out_nodes.c): --out_nodes by node and index */
  GR_VEC(gr_atc_out_node) out_nodes;
} gr_atc_cmdline;

/* Takes the atc_* tables of rs, checking their shape: -1 (err set, located
** at the table) when one is missing or malformed. */
int gr_atc_init(gr_atc_cmdline *c, const struct gr_ruleset *rs, gr_atc_error *err);
void gr_atc_free(gr_atc_cmdline *c);

/* argv[*i], an argument that starts with '-', as an ATC flag; a flag that
** takes its value as the next argument advances *i. 0 taken, -1 refused
** (err set: an unknown flag, a missing or bad value). */
int gr_atc_flag_arg(gr_atc_cmdline *c, int *i, int argc, char **argv, gr_atc_error *err);

/* A flag (a key of atc_flags) set to value as if given after the last
** argument, from a --raw_ge_options file at file:line:col (file borrowed). */
void gr_atc_flag_push(gr_atc_cmdline *c, const char *flag, const char *value, const char *file, uint32_t line, uint32_t col);

/* The checks ATC's parser makes of a flag's value (flgs::CheckFlagValue:
** atc_flag_values and the value type), option aliases included. 0, or -1
** with err set. */
int gr_atc_check_flag_value(const gr_atc_cmdline *c, const char *flag, const char *value, gr_atc_error *err);

/* raw_ge_options.c: after the last flag and before gr_atc_finish, the file
** of --raw_ge_options (none when the flag is absent or empty) read, checked
** and applied as ATC's LoadRawOptionsForAtc does: each option that passes
** becomes a flag (gr_atc_flag_push) unless the command line gave that flag;
** ignored options are in c->raw_warnings. 0, or -1 with err set (located in
** the file when it can be). _text: the same on the file's text. */
int gr_atc_raw_ge_options(gr_atc_cmdline *c, gr_atc_error *err);
int gr_atc_raw_ge_options_text(gr_atc_cmdline *c, const char *path, const char *text, size_t len, gr_atc_error *err);

/* The error ATC gives for a non-option argument (getopt_long moves them to
** the end and ATC refuses them). Always -1. */
int gr_atc_non_option(const gr_atc_cmdline *c, const char *arg, gr_atc_error *err);

/* After the last flag: the model, framework and mode flags by their roles,
** the flags ATC's CheckFlags requires in the run mode (atc_required_flags,
** in its order, E10054), --model present, --framework one gerules can read, --input_shape parsed.
** 0, or -1 with err set. */
int gr_atc_finish(gr_atc_cmdline *c, gr_atc_error *err);

/* The shape part of gr_atc_finish, alone (`gerules eval` and `tile` take
** the shape flags without a whole ATC command line): the checks ATC makes
** before parsing --input_shape with gear flags (E10040, E10009, E10004),
** --input_shape parsed, then the gear flags parsed and checked as
** CheckDynamicInputParamValid and CheckDynamicParams do. 0, or -1 with err. */
int gr_atc_finish_shapes(gr_atc_cmdline *c, gr_atc_error *err);

/* atc_gears.c: the gear checks and profiles, after --input_shape is parsed
** (called by gr_atc_finish_shapes). 0, or -1 with err set. */
int gr_atc_gears_precheck(gr_atc_cmdline *c, const char *shapes, gr_atc_error *err);
int gr_atc_gears_parse(gr_atc_cmdline *c, gr_atc_error *err);
/* The dims of --input_shape item `item` in gear k (n dims into out, which
** holds shapes.v[item].dims.n): the item's -1 dims replaced as GE's
** multi-batch passes replace them (CalcShape, ParserDataToDynamicInfo). */
void gr_atc_gear_dims(const gr_atc_cmdline *c, size_t k, size_t item, int64_t *out);
/* Sets every --input_shape item on its node with gear k's dims and
** propagates them (after gr_atc_apply_shapes). */
void gr_atc_gear_apply(const gr_atc_cmdline *c, struct gr_graph *g, size_t k);

/* atc_shape_range.c: the shape range of --input_shape_range, or of a
** dynamic --input_shape without gear flags (CheckAndTransferInputShapeToRange),
** parsed as ParseInputShapeRange parses it. *consumed is set when
** --input_shape became the range (it is not to be parsed as a shape). 0, or
** -1 with err set. */
int gr_atc_ranges_finish(gr_atc_cmdline *c, const char *shapes, int *consumed, gr_atc_error *err);
/* On the loaded graph: the checks GE makes there (ATC's UpdateDynamicInputShapeRange,
** aclgrphBuildModel's UpdateDataOpAttr) and the ranges set on the input ops
** (dims: the range's bound when both are equal, else -1). 0, or -1 with err. */
int gr_atc_ranges_apply(const gr_atc_cmdline *c, struct gr_graph *g, gr_atc_error *err);

/* atc_out_nodes.c: ATC's own checks of the flags that name nodes of the
** model. Before the model: --out_nodes parsed as ParseOutNodes parses it
** (api/atc/omg.cc:632-713). On the model, for the models ParseGraph reads:
** --input_fp16_nodes (CheckInputFp16Nodes, omg.cc:172-215) before the
** input shapes, --output_type and the --out_nodes nodes (SetOutputNodeInfo,
** omg.cc:355-470) after them. Nothing under --entry ir-build. 0, or -1
** with err set. */
int gr_atc_outputs_finish(gr_atc_cmdline *c, gr_atc_error *err);
int gr_atc_inputs_apply(const gr_atc_cmdline *c, const struct gr_graph *g, gr_atc_error *err);
int gr_atc_outputs_apply(const gr_atc_cmdline *c, const struct gr_graph *g, gr_atc_error *err);

/* Takes one flag given to `eval` or `tile` (--FLAG=VALUE, or -o with a key
** of atc_flag_option_keys): as gr_atc_flag_arg takes "--FLAG=VALUE". */
int gr_atc_take(gr_atc_cmdline *c, const char *flag, const char *value, gr_atc_error *err);
/* The same, remembering where the value was written (file, line, col; the
** file string must outlive c): errors about the value are located there. */
int gr_atc_take_at(gr_atc_cmdline *c, const char *flag, const char *value, gr_loc at, gr_atc_error *err);
/* Where the value of a flag taken was written (file NULL when unknown). */
gr_loc gr_atc_flag_loc(const gr_atc_cmdline *c, const char *flag);
/* The atc_eval_flags flag that key names ("--input_shape", "input_shape",
** "ge.inputShape"), or NULL. */
const char *gr_atc_eval_flag(const struct gr_ruleset *rs, const char *key);

/* ATC's message `key` of atc_messages with its {name} placeholders filled
** from the pairs (name, value, ..., NULL); malloc'ed. */
char *gr_atc_message(const gr_atc_cmdline *c, const char *key, ...);
/* Sets err to msg (taken, malloc'ed) and code (static or rule-set storage),
** freeing what err held: always -1. */
int gr_atc_fail(gr_atc_error *err, char *msg, const char *code);

/* A piece of a flag's value (not NUL-terminated). */
typedef struct gr_atc_span { const char *p; size_t n; } gr_atc_span;
typedef GR_VEC(gr_atc_span) gr_atc_spans;
/* p[0..n) split at delim as GE's StringUtils::Split splits: every field,
** empty ones too ("" is one empty field); out is emptied first. */
void gr_atc_split(const char *p, size_t n, char delim, gr_atc_spans *out);
/* Whether node is of an op type --input_shape may name (table atc_input_ops). */
int gr_atc_is_input_op(const gr_atc_cmdline *c, const struct gr_graph *g, uint32_t node);

/* The flag with that role (atc_flag_roles), or NULL; the last value given
** for a flag, or NULL. */
const char *gr_atc_role_flag(const gr_atc_cmdline *c, const char *role);
const char *gr_atc_flag_value(const gr_atc_cmdline *c, const char *flag);

/* On the loaded model (model_path names it in messages): the reader ATC
** would use for --framework, then every --input_shape item set on its input
** op and the new dims propagated downstream. 0, or -1 with err set. */
int gr_atc_apply(const gr_atc_cmdline *c, struct gr_graph *g, const char *model_path, gr_atc_error *err);
/* The --input_shape part of gr_atc_apply alone (no --framework check): what
** `eval` and `tile` run; with gears, the graph gets gear 0's dims. */
int gr_atc_apply_shapes(const gr_atc_cmdline *c, struct gr_graph *g, gr_atc_error *err);

#endif
