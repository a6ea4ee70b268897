/*
** oplib.h: the op information library as rule data (`oplib` and `dtypes`
** statements, doc/rule-language.md "Op information library"): the stores of
** a checked rule set, their ops and each op's dtype (and format) columns, as
** the evaluator reads them. The contract with the evaluator is
** /work/notes/OPLIB-SPEC.md's accessor API; what each field means in GE is
** in doc/rule-language.md.
**
** The ops of a big file (GR_OPLIB_LAZY_BYTES or more: the generated library)
** are not parsed when the rule set is loaded: a store's ops are indexed
** (type -> where its text is) on the store's first use, and gr_oplib_find
** parses and checks an op on its first lookup, so an evaluation pays only
** for the stores and ops of its chip. `gerules check` (gr_oplib_check_all) parses every
** op, so a bad op is reported there with its caret like any other error; an
** op that fails its lazy parse is absent to gr_oplib_find and its errors are
** kept for the caller (gr_oplib_diags).
**
** Ownership: every pointer returned points into the rule set and lives as
** long as it. gr_oplib_find fills the rule set's op cache, so one rule set
** must not be looked up from two threads at once.
*/
#ifndef GR_OPLIB_H
#define GR_OPLIB_H
#include "lang/ruleset.h"

typedef enum { GR_OPLIB_COLUMNS, GR_OPLIB_KERNEL } gr_oplib_kind;
typedef enum { GR_POLICY_GRAY, GR_POLICY_WHITE, GR_POLICY_BLACK } gr_oplib_policy;
enum { GR_OPF_DYN_SHAPE = 1, GR_OPF_DYN_RANK = 2, GR_OPF_DYN_RANK_UPGRADE = 4,
       GR_OPF_DYN_COMPILE_STATIC = 8, GR_OPF_DYN_FORMAT = 16, GR_OPF_GE_OP = 32,
       GR_OPF_HEAVY = 64, GR_OPF_NEED_CHECK_SUPPORT = 128 };
typedef enum { GR_PARAM_REQUIRED, GR_PARAM_OPTIONAL, GR_PARAM_DYNAMIC } gr_oplib_param;

typedef struct {
  const char *name; gr_oplib_param param;
  int ndtypes;                    /* 0 = no list (dynamic_format without a dtypes block) */
  const char *const *dtypes;      /* interned names ("float16"), ndtypes entries */
  const char *const *formats;     /* NULL or ndtypes entries */
} gr_oplib_tensor;

struct gr_oplib_when;

typedef struct gr_oplib_op {
  const char *type; gr_oplib_policy policy; unsigned flags;
  int ninputs, noutputs; const gr_oplib_tensor *inputs, *outputs;
  const char *lists_from;         /* citation of a hand-kept dtypes block, or NULL */
  const char *file; int line;     /* where the op (or its dtypes block) is declared */
  /* conditional dtypes blocks (`dtypes S "Op" from "..." when COND { ... }`),
  ** in the order they are read: for a node, the first whose condition holds
  ** gives the lists (its op); when none holds, this op's own lists (none, or
  ** those of an unconditional block) */
  int nwhen; const struct gr_oplib_when *when;
} gr_oplib_op;

typedef struct gr_oplib_when {
  const gr_expr *cond;            /* checked in node scope (a boolean) */
  const gr_oplib_op *op;          /* the op with this block's lists (nwhen 0) */
} gr_oplib_when;

typedef struct {
  const char *name, *description, *engine; gr_oplib_kind kind; int priority;
  int nfamilies; const char *const *families; const char *from, *sha256;
  const char *file; int line;
  /* every `from` line (a store merged from several files has one each) */
  int nsources; const char *const *source_files, *const *source_sha256;
} gr_oplib_store;

/* The stores, sorted by (engine, priority, name). */
int gr_oplib_nstores(const gr_ruleset *rs);
const gr_oplib_store *gr_oplib_store_at(const gr_ruleset *rs, int i);
/* The store called name, or NULL. */
const gr_oplib_store *gr_oplib_store_named(const gr_ruleset *rs, const char *name);
/* Whether store st serves SoC family `family` (a store without a family line
** serves every family; family NULL: only such stores). */
int gr_oplib_serves(const gr_oplib_store *st, const char *family);

/* The op of TYPE in STORE, or NULL; O(1) average (hash lookup); parses the
** op on its first lookup. */
const gr_oplib_op *gr_oplib_find(const gr_ruleset *rs, const gr_oplib_store *st, const char *type);
/* The op types of a store in declaration order (no parsing), for listing and
** "did you mean". */
int gr_oplib_nops(const gr_ruleset *rs, const gr_oplib_store *st);
const char *gr_oplib_type_at(const gr_ruleset *rs, const gr_oplib_store *st, int i);
/* The op type closest to word among the stores serving family (NULL: all
** stores), or NULL when none is close. */
const char *gr_oplib_suggest_type(const gr_ruleset *rs, const char *family, const char *word);

/* The op library family of a chip (SoC string as --soc_version takes it):
** table oplib_family maps the chip's product line to the lower-cased
** Short_SoC_version FE names its op info directory after ("ascend910b");
** NULL when the chip is unknown or its product line has no family. */
const char *gr_oplib_family(const gr_ruleset *rs, const char *chip);

/* Parses and checks every op not parsed yet (what `gerules check` does);
** errors go to diags. Returns the number of errors (also of earlier lazy
** parses). */
int gr_oplib_check_all(const gr_ruleset *rs, gr_diags *diags);
/* Errors of ops whose lazy parse failed so far (NULL when none). */
const gr_diags *gr_oplib_diags(const gr_ruleset *rs);

/* "float16" -> "float16" as interned by table dtypes, or NULL when the rule
** set declares no such dtype. */
const char *gr_oplib_dtype(const gr_ruleset *rs, const char *name);

/* ---- used by the loader (ruleset.c) only ---- */
/* Files at least this big have their ops skipped, not parsed, when loaded
** (doc/performance.md: the generated library is 2.5 MB); in such a file an
** oplib block with ops that ends the file runs to the file's last '}'. */
#define GR_OPLIB_LAZY_BYTES 16384
/* Takes, from the loader's texts (one per rs->files entry), those holding
** ops still to be parsed; the array entries taken become NULL. */
void gr_oplib_adopt_texts(gr_ruleset *rs, char **texts, const gr_lineidx *lines);
void gr_oplib_free(struct gr_oplib_lib *lib);

#endif
