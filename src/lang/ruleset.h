/*
** ruleset.h: the checked and indexed form of a rule set: ruleset.c loads the
** rule files (following includes) and the checker (check.c, check_expr.c,
** lint.c) builds it from their syntax trees. Names are resolved to
** indexes, expressions carry their static type and dependency level, tables
** and option spellings are hashed, each slot's cascade is one total order,
** and every source branch and rule has its condition split into top-level
** conjuncts so the evaluator can decide most of them once per evaluation or
** once per op type instead of once per node.
**
** Ownership: a gr_ruleset owns everything reachable from it, including the
** syntax trees its expressions live in and the names of the files it read.
** Every array and string of it lives in its arena; besides the arena it owns
** only the syntax trees (rs->ast, rs->owned_exprs), the compiled regular
** expressions and the name maps, and gr_ruleset_free releases all of it
** (NULL is fine). Nothing here is
** modified after gr_ruleset_load returns, so one rule set may serve any
** number of evaluations.
*/
#ifndef GR_RULESET_H
#define GR_RULESET_H

#include "lang/regex.h"
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "base/diag.h"
#include "base/suggest.h"
#include "lang/ast.h"

/* quantifier variables per condition (their values live in gr_env.vars) */
#define GR_MAXVARS 32

/* static types of expressions */
enum gr_type {
  GR_T_ANY = 0, GR_T_NULL, GR_T_BOOL, GR_T_INT, GR_T_STR, GR_T_LIST,
  GR_T_NODE, GR_T_INPUT, GR_T_INPUTS, GR_T_ATTRS, GR_T_CHIP, GR_T_OPTREF, GR_T_ENTRY,
  GR_T_OTHER, GR_T_TABLE, GR_T_GRAPH
};

/* what an expression's value depends on; the evaluator decides DEP_CONST and
** DEP_GLOBAL parts once, DEP_TYPE parts once per op type, DEP_ITEM per node
** (or per option / entry for those scopes) */
enum gr_dep { GR_DEP_CONST = 0, GR_DEP_GLOBAL, GR_DEP_TYPE, GR_DEP_ITEM };

/* fields reachable with `.` (gr_expr.ref of a GR_E_FIELD) */
enum gr_field {
  GR_F_SOC = 1, GR_F_PRODUCT, GR_F_TITLE, GR_F_HW,                      /* chip */
  GR_F_NAME, GR_F_TYPE, GR_F_GRAPH, GR_F_STATIC, GR_F_DYNAMIC, GR_F_INPUTS,
  GR_F_OUTPUTS, GR_F_INPUT, GR_F_ATTR,                                   /* node */
  GR_F_SLOT, GR_F_SLOT_SOURCE,                                           /* node: a decided slot */
  GR_F_CONNECTED, GR_F_PRODUCER, GR_F_INDEX,                             /* input */
  GR_F_KEY, GR_F_VALUE, GR_F_KNOWN, GR_F_VALID, GR_F_PROBLEM, GR_F_SUPPORTED,
  GR_F_VALUE_SUPPORTED, GR_F_EFFECTIVE, GR_F_GIVEN, GR_F_DEPRECATED, GR_F_SUGGESTION,
  GR_F_ORIGIN,                                                           /* option */
  GR_F_OPTION, GR_F_SECTION, GR_F_MATCHED, GR_F_FILE, GR_F_LINE,        /* entry */
  GR_F_NODES,                                                            /* graph: also NAME, STATIC, DYNAMIC */
  GR_F_TYPES,                                                            /* graph: the op types its nodes have */
  GR_F_DTYPES,                                                           /* node: dtypes of its input and output descs */
  GR_F_PARENT,                                                           /* node: the node owning its subgraph */
  GR_F_PARTS,                                                            /* entry: the names GE gives a split ONNX node's parts */
  GR_F_JUDGE,                                                            /* node: the judge's outcome, ref2 = GR_JF_* */
  GR_F_RANK, GR_F_DIMS                                                   /* input: its descriptor's shape */
};

/* node.judge_FIELD (GR_F_JUDGE's ref2): the dtype and engine judge's outcome
** (src/eval/judge.h) */
enum gr_judge_field { GR_JF_DTYPE = 1, GR_JF_DTYPE_BY, GR_JF_DTYPE_WHY, GR_JF_ENGINE, GR_JF_ENGINE_BY,
  GR_JF_ENGINE_WHY, GR_JF_STRATEGY, GR_JF_CASTS, GR_JF_ENGINE_SUMMARY, GR_JF_TYPE,
  GR_JF_REFUSAL_ENGINE, GR_JF_REFUSAL_WHY, GR_JF_REFUSAL_GE_OP };   /* the last three: rules `for each refusal` only */

/* special names (gr_expr.ref of a GR_E_NAME that is not a table) */
enum { GR_NAME_TABLE = 1, GR_NAME_VAR, GR_NAME_COUNT, GR_NAME_OTHER };

enum gr_option_type { GR_OT_ENUM = 1, GR_OT_BOOL, GR_OT_INT, GR_OT_STRING, GR_OT_FILE, GR_OT_LIST, GR_OT_SOC };
enum gr_match { GR_MATCH_NONE = 0, GR_MATCH_NAME, GR_MATCH_TYPE };
enum gr_rel_kind { GR_REL_EXCLUSIVE = 1, GR_REL_REQUIRES, GR_REL_CONFLICTS };

/* Which product lines support an option, a value or a mode. */
typedef struct gr_support {
  uint8_t *on;            /* one byte per product: 1 = supported */
  const char *reason;     /* text of `unsupported "..."`, or NULL */
  int stated;             /* a support statement was written */
  int rejected;           /* a value's `rejected elsewhere;`: off its product lines GE refuses it,
                          ** and the option reads as its default (not effective) */
  gr_loc loc;
} gr_support;

typedef struct gr_product {
  const char *name, *title, *description;
  uint8_t *caps;          /* one byte per capability */
  gr_loc loc;
} gr_product;

typedef struct gr_soc {
  const char *name;       /* the SoC string, or the pattern text */
  int is_pattern;
  regex_t re;
  int product;
  int64_t *hw;            /* one value per declared hardware property */
  uint8_t *caps;          /* product caps | soc caps */
  const char *description;
  gr_loc loc;
} gr_soc;

typedef struct gr_section { const char *name; int matches; gr_loc loc; } gr_section;

typedef struct gr_format {  /* `format ini { ... }` */
  gr_section *sections; size_t nsections;
  int initial;            /* index of the section of lines before any header */
  int entries_mode;       /* values must be declared modes */
  const char **entries; size_t nentries;   /* else: allowed strings (0 = any) */
} gr_format;

typedef struct gr_default { gr_expr *value, *cond; gr_loc loc; } gr_default;

typedef struct gr_option {
  int index;
  const char *name, *key, *description, *deprecated;
  const char **aliases; size_t naliases;
  int type;               /* GR_OT_* */
  const char **values; size_t nvalues;
  gr_support *value_support;      /* per value; inherits the option's */
  const char **value_desc;        /* per value, or NULL */
  int has_range; int64_t lo, hi;
  int has_pattern; regex_t re; const char *pattern;
  const char *separator;
  gr_default *defaults; size_t ndefaults;
  gr_support support;
  gr_format *format;
  gr_loc loc;
} gr_option;

typedef struct gr_mode {
  int index;
  const char *name, *description;
  gr_support support;
  gr_loc loc;
} gr_mode;

/* A table declared `fold lower` / `fold upper`: `e in T` (a set table) and
** `e in T[k]` (a list value) compare e with its letters folded to that case
** (ASCII), as GE compares a value it transforms with tolower / toupper. */
enum { GR_FOLD_NONE = 0, GR_FOLD_LOWER, GR_FOLD_UPPER };
typedef struct gr_table {
  int index;
  const char *name, *description;
  int is_map;             /* else a set */
  uint8_t vtype;          /* GR_T_* of the values (GR_T_ANY if mixed) */
  uint8_t fold;           /* GR_FOLD_*: `in` folds the case of what it looks up */
  size_t n;
  const char **keys;
  gr_expr **vals;         /* constant expressions (NULL for sets) */
  gr_loc *locs;
  gr_map keymap;          /* key -> (entry index + 1) cast to pointer */
  gr_loc loc;
} gr_table;

/* A message or reason template: literal text and placeholders. */
typedef struct gr_tpl_part { char *lit; gr_expr *e; } gr_tpl_part;
typedef struct gr_template {
  gr_tpl_part *parts; size_t n;
  const char *constant;   /* the whole text when there is no placeholder */
  gr_loc loc;
} gr_template;

/* A guarded value: a source branch, a `rule ... then set`, or the condition
** of a diagnostic rule (value NULL). */
typedef struct gr_branch {
  gr_expr *cond;          /* NULL = always */
  gr_expr *value;
  gr_template because;
  gr_loc loc;
  int source;             /* owning source, or -1 for a diagnostic rule */
  gr_expr **conj; size_t nconj;   /* top-level conjuncts of cond, in order */
  uint8_t value_dep;      /* dependency level of value */
  uint8_t cond_dep;       /* highest level among the conjuncts */
  const char *name_key;   /* a conjunct `node.name == "lit"`: index by that name */
  const gr_table *name_table;  /* a conjunct `node.name in T`: index by T's keys */
  int nvars;              /* variable slots used by quantifiers */
} gr_branch;

typedef struct gr_source {
  int index;
  const char *name;
  int slot;
  gr_branch *branches; size_t nbranches;
  int order;              /* position in the slot's cascade, 0 = wins first */
  int from_rule;          /* written as `rule ... then set` */
  gr_loc loc;
} gr_source;

typedef struct gr_slot {
  int index;
  const char *name, *description;
  const char *report_key;         /* report field naming the winning source */
  const char *column;             /* the label outputs a person reads give the slot (text report
                                     columns, "slot: old -> new", --explain, gear lines, DOT, HTML,
                                     diff's node lines): `column "...";`, default the name; machine
                                     keys (JSON, Lua, case files, --colour-by) stay the name */
  gr_loc column_loc;              /* the label's string; line 0 when it is the default */
  int values_mode;
  const char **values; size_t nvalues;
  int *cascade; size_t ncascade;   /* source indexes, highest precedence first */
  /* `no effect when COND because "why"` clauses, in order: the first that
  ** holds for a node says why its decided value does not take effect
  ** (branches with a condition and a reason, no value; source -1) */
  gr_branch *noeffect; size_t nnoeffect;
  gr_loc loc;
} gr_slot;

typedef struct gr_rule {
  int index;
  const char *name;
  int scope;              /* GR_SCOPE_* */
  gr_severity sev;
  const char *code;
  const char *ge_code;    /* `ge_code "E10006"`: GE's own error code, or NULL */
  gr_template msg;
  int once;
  gr_branch br;           /* the condition, split for specialisation */
  gr_loc loc;
} gr_rule;

typedef struct gr_relation {
  int kind;               /* GR_REL_* */
  int a;                  /* exclusive/requires: the first option; conflicts: -1 */
  int *others; size_t nothers;
  gr_severity sev;
  const char *code;
  const char *ge_code;    /* `ge_code "E10006"`: GE's own error code, or NULL */
  gr_template msg;
  gr_loc loc;
} gr_relation;

/* A graph clustering (`partition NAME { ... }`, evaluated by
** src/eval/partition.c): which nodes are seeds of the "dynamic" side (each
** seed names why), which are neutral (in no cluster, counted nowhere), and
** the smallest static cluster kept static (the first `limit` whose
** condition holds; none = no limit; negative = every node dynamic). */
/* A seed; a weak seed (`weak seed`) counts only when a node of the root
** graphs is a seed that is not weak. */
typedef struct gr_pseed { const char *name; int weak; gr_branch br; } gr_pseed;
/* `subgraph dynamic when C;` (inherit 0: a subgraph holding a node for which
** C holds, directly or nested, runs dynamic) or `subgraph inherit when C;`
** (inherit 1: a subgraph whose parent node satisfies C takes the parent's
** status). */
typedef struct gr_psub { int inherit; gr_branch br; } gr_psub;
typedef struct gr_partition {
  int index;
  const char *name, *description;
  gr_pseed *seeds; size_t nseeds;   /* the `subgraph seed` is one of them, without a condition */
  int subgraph_seed;                /* 1-based index of the `subgraph seed NAME;` in seeds; 0 none */
  gr_branch *neutral; size_t nneutral;
  gr_default *limits; size_t nlimits;
  gr_psub *subgraph; size_t nsubgraph;
  const gr_expr *group;             /* `group EXPR;`: nodes with one non-null value are clustered together; NULL none */
  gr_default *thresholds; size_t nthresholds;   /* `threshold`: a graph without seeds and with fewer nodes is dynamic */
  gr_loc loc;
} gr_partition;

/* The outcome of a partition for one node, as partition(NAME).cause reads
** it (the checker accepts only the words gr_pcause_name gives). */
enum gr_pcause { GR_PC_NEUTRAL = 1, GR_PC_SEED, GR_PC_PATH, GR_PC_SMALL, GR_PC_ALL, GR_PC_CLUSTER, GR_PC_STATIC_GRAPH,
                 GR_PC_GROUP, GR_PC_SUBGRAPH, GR_PC_THRESHOLD, GR_PC_REMOVED };
/* The fields of partition(NAME).FIELD (gr_expr.ref of a GR_E_PARTITION). */
enum gr_pfield { GR_PF_DYNAMIC = 1, GR_PF_STATIC, GR_PF_CAUSE, GR_PF_SEED, GR_PF_SIZE, GR_PF_LIMIT, GR_PF_FROM, GR_PF_TO };
const char *gr_pcause_name(int cause);     /* "seed"...; NULL for 0 */

/* The ONNX op mapping (`onnx "domain::op_type" { opset ... becomes ...; }`,
** checked and compiled by check_onnx.c, applied by the ONNX reader through
** src/model/onnx_map.h). A row's condition is compiled to the conjunction of
** the few node tests a mapping can make, so the reader tests it without the
** evaluator: `node.inputs OP N` (GR_OC_INPUTS), `node.attr["A"] != null` /
** `== null` (HAS / HASNOT), `node.attr["A"] == V` / `!= V` (EQ / NE, V an
** int or a string), `len(node.attr["A"]) OP N` (LEN; 0 when A is absent or
** not a list). OP is a GR_E_EQ..GR_E_GE comparison. */
/* `node.outputs OP N` (GR_OC_OUTPUTS: the node's outputs, empty names
** included, as GE's plugins count them); `node.inputs[N] == null` / `!= null` (input N empty or absent / named):
** GR_OC_IN_EMPTY / GR_OC_IN_GIVEN with n = N; `prod(node.attr["A"]) OP N`,
** `max(node.attr["A"]) OP N` (GR_OC_PROD / GR_OC_MAX: the product, the
** largest element of an int list attribute; false when A is absent or not an
** int list, as MaxPool's plugin tests kh*kw > 255 and a stride > 63);
** `chip has CAP`, `not chip has CAP` (GR_OC_CAP / GR_OC_NOCAP, n = the
** capability's index: whether the chip the model is read for has it, as
** MaxPool's plugin asks rtGetSocVersion; no chip has none) */
enum { GR_OC_INPUTS = 1, GR_OC_HAS, GR_OC_HASNOT, GR_OC_EQ, GR_OC_NE, GR_OC_LEN, GR_OC_IN_EMPTY, GR_OC_IN_GIVEN, GR_OC_OUTPUTS,
       GR_OC_PROD, GR_OC_MAX, GR_OC_CAP, GR_OC_NOCAP };
typedef struct gr_onnx_cond {
  int kind, op;
  const char *name;       /* the attribute */
  int is_str; int64_t n; const char *s;
} gr_onnx_cond;
/* An IR op's inputs: default (the first op of a row takes the node's
** inputs, every other one output 0 of the op before it) or the explicit
** list: from_op 0: the ONNX node's input src; 1: output index of the row's
** src-th IR op, which comes earlier. */
typedef struct gr_onnx_in { int from_op; int src; int index; } gr_onnx_in;
typedef struct gr_onnx_ir {
  const char *type; const char *suffix;   /* suffix "" keeps the ONNX node's name */
  int explicit_inputs; size_t nin; gr_onnx_in *in;
  int pos;                                /* a subgraph row: the op's place in GE's subgraph (-1: none) */
  /* a Const's `output "DTYPE" [DIMS]` (the TensorDesc the plugin gives the
  ** tensor it holds): dtype as written (a key of table dtypes) or NULL;
  ** model_dtype its spelling in the model (the key of table
  ** graph_dtype_names whose value it is; without that table, dtype itself);
  ** ndims -1 without a shape, else dims[0..ndims); with dtype_attr
  ** (`output node.attr["A"] default "DTYPE"`) the dtype is the ONNX node's
  ** tensor attribute A's, dtype only where the node has no such attribute;
  ** dtype_input >= 0 (`output node.attr["A"] default input N`, dtype NULL):
  ** without attribute A, the dtype of the ONNX node's input N */
  const char *dtype, *model_dtype, *dtype_attr;
  int dtype_input;
  int ndims; const int64_t *dims;
} gr_onnx_ir;
#define GR_ONNX_MAX_DIMS 16         /* dims of a Const's shape in a row */
#define GR_ONNX_MAX_IR 32           /* IR ops of one row */
typedef struct gr_onnx_row {
  int64_t *lo, *hi; size_t nranges;       /* the opsets: lo[i]..hi[i] */
  gr_onnx_cond *conds; size_t nconds;
  gr_onnx_ir *ir; size_t nir;
  /* nsub > 0: a ParseOpToGraphFn plugin (GE's one-to-many expansion,
  ** hicann/ge parser/parser/common/parser_utils.cc) whose subgraph has nsub
  ** nodes, Data included, and ir lists every non-Data one; 0: a plain
  ** mapping (one IR op, or a decomposition written with suffixes) */
  int nsub;
  /* `yields (@K[:J], ...)`: the ONNX node's output i is output J of the
  ** row's K-th IR op (yields[i], from_op always 1); nyields 0: the row's
  ** last op gives them all */
  gr_onnx_in *yields; size_t nyields;
  gr_loc loc;
} gr_onnx_row;
typedef struct gr_onnx_op {
  const char *key;        /* "domain::op_type" */
  gr_onnx_row *rows; size_t nrows;
  gr_loc loc;
} gr_onnx_op;

/* Appends row r as it is written: `opset 8..18 when ... becomes A, B "/b" (@0);` */
void gr_onnx_row_print(gr_buf *b, const gr_onnx_row *r);

/* An expression tree the rule set owns outside rs->ast (a template
** placeholder); the list nodes live in the arena. */
typedef struct gr_owned_expr { gr_expr *e; struct gr_owned_expr *next; } gr_owned_expr;

/* One bundle of a stack of layers (base, vendor, site): every path given to
** gr_ruleset_load that holds a bundle statement starts a new layer. */
typedef struct gr_layer {
  const char *name, *version, *cann;
  const char *root;         /* the path given for it (directory or file) */
  size_t first_file, nfiles;   /* its files in rs->files */
  gr_loc loc;               /* its bundle statement */
} gr_layer;

typedef struct gr_ruleset {
  /* the stack of bundles, base first (one layer without a bundle statement
  ** when none is declared); bundle_* are the base layer's */
  gr_layer *layers; size_t nlayers;
  /* bundle metadata */
  const char *bundle_name, *bundle_version, *bundle_cann, *bundle_description;
  const char **hook_files; size_t nhook_files;   /* `hook "x.lua";` in the bundle, resolved paths */
  /* when a trust store verified them (bundle/guard.c): the verified bytes of
  ** each hook file (arena), which hook loaders run instead of reading the
  ** path again; NULL otherwise */
  const char **hook_texts; size_t *hook_lens;
  /* files read, in load order (gr_loc.file points here) */
  const char **files; size_t nfiles;
  const char *root;         /* the directory given to gr_ruleset_load, if one was */

  const char **cap_names, **cap_desc; size_t ncaps;
  const char **hw_names, **hw_desc; size_t nhw;
  gr_product *products; size_t nproducts;
  gr_soc *socs; size_t nsocs;
  gr_option *options; size_t noptions;
  gr_mode *modes; size_t nmodes;
  gr_table *tables; size_t ntables;
  gr_slot *slots; size_t nslots;
  gr_source *sources; size_t nsources;
  gr_rule *rules; size_t nrules;
  gr_relation *relations; size_t nrelations;
  gr_partition *partitions; size_t npartitions;
  gr_onnx_op *onnx_ops; size_t nonnx_ops;   /* the ONNX op mapping, in source order */
  gr_map onnx_map;          /* "domain::op_type" -> onnx_ops index + 1 */
  /* the dtype and engine judge's tables, compiled (judge_rules.h; check_judge.c),
  ** NULL when the rule set declares no table graph_dtype_names */
  struct gr_judge_rules *judge;

  gr_map cap_map, hw_map, product_map, soc_map, option_map, spelling_map,
         mode_map, table_map, slot_map, source_map, rule_map, partition_map;   /* name -> index + 1 */

  struct gr_oplib_lib *oplib;   /* the op information library (oplib.h), or NULL */

  gr_item *ast;             /* every statement of every file */
  struct gr_owned_expr *owned_exprs;   /* parsed template placeholders */
  gr_arena arena;
} gr_ruleset;

/* Loads rule files and directories (every *.rules below a directory, sorted),
** follows includes, and checks everything. Returns NULL when there is any
** error; every error and warning is appended to diags (compiler style, with
** the source line), errors up to GR_MAX_RULE_ERRORS, then one note saying
** the rest were not reported (the load still fails). */
#define GR_MAX_RULE_ERRORS 100
gr_ruleset *gr_ruleset_load(const char *const *paths, size_t npaths, gr_diags *diags);
/* The same, with check called on the bytes of each rule file as read, before
** they are parsed: a nonzero return refuses the file (check reports why; the
** load fails without a diagnostic of its own). The trust guard verifies the
** very bytes that are parsed this way, never a second read. */
typedef int (*gr_file_check)(void *ctx, const char *path, const char *text, size_t len);
gr_ruleset *gr_ruleset_load_checked(const char *const *paths, size_t npaths, gr_file_check check, void *ctx,
                                    gr_diags *diags);
void gr_ruleset_free(gr_ruleset *rs);

/* A rule file's name relative to the rule-set directory (for reports); a
** file of a layer above the base is named relative to the directory holding
** that layer's directory ("acme/acme.rules"). */
const char *gr_ruleset_short_path(const gr_ruleset *rs, const char *file);
/* The layer a rule file belongs to (0 when unknown), and "name version". */
size_t gr_ruleset_layer_of(const gr_ruleset *rs, const char *file);

/* Lookups (NULL / -1 when absent). */
int  gr_ruleset_find(const gr_map *m, const char *name);
int  gr_ruleset_find_soc(const gr_ruleset *rs, const char *soc);     /* exact first, then patterns */
/* A slot by its name, else by its column label (what the reports a person
** reads call it: `impl_mode` for precision_mode), so a user may name it as
** the text report shows it. */
int  gr_ruleset_find_slot(const gr_ruleset *rs, const char *name);
const gr_table *gr_ruleset_table(const gr_ruleset *rs, const char *name);
const gr_expr *gr_table_value(const gr_table *t, const char *key);  /* a map table's value; NULL for a set */
const gr_option *gr_ruleset_option_by_spelling(const gr_ruleset *rs, const char *spelling);
/* How a model spells dtype dt (gerules' name, a key of table dtypes): the
** key of table graph_dtype_names whose value it is; dt itself when the rule
** set has no such map; NULL when the map has no spelling for it. */
const char *gr_ruleset_dtype_spelling(const gr_ruleset *rs, const char *dt);
int  gr_support_on(const gr_support *s, int product);
/* The GE entry points an evaluation can model (`entry_point` in the rule
** language, --entry on the command line): ATC, the aclgrph IR build API and
** GE sessions. The language knows their names; what differs between them
** is rule data. */
#define GR_ENTRY_POINTS "\"atc\", \"ir-build\" or \"session\""
int  gr_entry_point_valid(const char *s);
const char *gr_type_name(int t);
const char *gr_option_type_name(int t);

/* Whether option o accepts the text v as its value, the one judgement the
** checker (literal defaults) and the evaluator (given values) share. The
** empty text is accepted (it means "not set", as GE reads it). Returns 1
** when accepted; else 0 and, when problem is not NULL, a malloc'ed
** description ("expected one of ...", with a suggestion where one is close).
** GR_ACCEPT_FILES also requires the value of a file option without a format
** to name an existing file that is not a directory (the evaluator; the
** checker does not look at the disk). */
#define GR_ACCEPT_FILES 1u
int gr_option_accepts(const gr_ruleset *rs, const gr_option *o, const char *v, unsigned flags, char **problem);

/* The kinds of names gr_ruleset_suggest looks among (or them together). */
enum gr_name_kind {
  GR_NK_OPTION   = 1u << 0,   /* option names */
  GR_NK_SPELLING = 1u << 1,   /* every spelling of an option: name, GE key, aliases */
  GR_NK_MODE     = 1u << 2,
  GR_NK_SLOT     = 1u << 3,
  GR_NK_SOURCE   = 1u << 4,
  GR_NK_RULE     = 1u << 5,
  GR_NK_TABLE    = 1u << 6,
  GR_NK_PRODUCT  = 1u << 7,
  GR_NK_SOC      = 1u << 8,   /* exact SoC names (not patterns) */
  GR_NK_CAP      = 1u << 9,   /* capabilities */
  GR_NK_HW       = 1u << 10,  /* hardware properties */
  GR_NK_ATC_FLAG = 1u << 11,  /* ATC command-line flags: the keys of table atc_flags
                              ** (doc/rule-language.md 6.4), offered and returned
                              ** without their leading dashes */
  GR_NK_ONNX     = 1u << 12   /* the keys of the onnx mapping ("ai.onnx::Gemm") */
};
/* "Did you mean": the declared name of one of the given kinds closest to
** word, or NULL when none is close. The one entry point for every kind of
** rule-set name; the result points into the rule set. */
const char *gr_ruleset_suggest(const gr_ruleset *rs, unsigned kinds, const char *word);
/* codes.c: the text of a diagnostic code, from a table that maps each code
** to [TITLE, WHEN IT FIRES, EXAMPLE, FIX] (GR_CODES_TABLE for the rule set's
** codes; gerules' own GR codes use another table in another file). The
** strings point into the rule set. 1 found, 0 not. */
#define GR_CODES_TABLE "diagnostic_codes"
/* GE's own error codes gerules prints (a rule's ge_code, ATC's command-line
** codes), in the same [TITLE, WHEN IT FIRES, EXAMPLE, FIX] shape. */
#define GR_GE_CODES_TABLE "ge_error_codes"
typedef struct gr_code_text { const char *code, *title, *fires, *example, *fix; gr_loc loc; } gr_code_text;
int gr_code_text_get(const gr_ruleset *rs, const char *table, const char *code, gr_code_text *out);
/* The code of that table closest to word (a mistyped code), or NULL. */
const char *gr_code_suggest(const gr_ruleset *rs, const char *table, const char *word);
/* The same over the declared values of an option. */
const char *gr_option_suggest_value(const gr_option *o, const char *word);

#endif
