/*
** ast.h: the syntax tree of rule files, as built by the lemon grammar
** (grammar/rules.y) and consumed by the checker (check.c, check_expr.c, lint.c). A file is a list
** of statements (gr_item); block statements hold nested items; conditions
** and values are gr_expr trees. The checker annotates expressions in place
** (type, dependency level, resolved references) and the checked rule set
** keeps the tree alive, so there is no second intermediate form.
**
** Ownership: every gr_item owns its strings, names, expressions, nested items
** and the items after it (`next`); gr_item_free(list) frees a whole list and
** gr_expr_free frees a tree. A gr_loc's `file` is borrowed from the rule set's
** file list and outlives every tree. The parser entry points declared here
** take a gr_parse context that they do not own.
*/
#ifndef GR_AST_H
#define GR_AST_H

#include <stddef.h>
#include <stdint.h>
#include "lang/lexer.h"
#include "base/diag.h"
#include "base/lineidx.h"

typedef struct gr_loc { const char *file; uint32_t line, col; } gr_loc;

/* ---- expressions ---- */
enum gr_expr_op {
  GR_E_STR = 1, GR_E_INT, GR_E_BOOL, GR_E_NULL, GR_E_LIST,
  GR_E_NAME,          /* identifier: a table, a bound variable, `count`, `other` */
  GR_E_CHIP, GR_E_NODE, GR_E_ENTRY, GR_E_OPTSCOPE,   /* the objects `chip`, `node`, `entry`, `option.` */
  GR_E_GRAPH,         /* the object `graph` (the whole model) */
  GR_E_RUNMODE,
  GR_E_OPTION,        /* option NAME */
  GR_E_OPTSET,        /* option NAME set */
  GR_E_FIELD,         /* a.s */
  GR_E_INDEX,         /* a[b] */
  GR_E_INI,           /* ini(s).s2 */
  GR_E_HAS,           /* chip has s */
  GR_E_SUPPORTS,      /* chip supports s [value a] */
  GR_E_SUPPORTS_MODE, /* chip supports mode a */
  GR_E_NOT, GR_E_AND, GR_E_OR,
  GR_E_EQ, GR_E_NE, GR_E_LT, GR_E_LE, GR_E_GT, GR_E_GE,
  GR_E_IN, GR_E_NOTIN,
  GR_E_ANY, GR_E_ALL, /* s = variable, a = list, b = body */
  GR_E_ENTRYPOINT,    /* entry_point: "atc", "ir-build" or "session" */
  GR_E_PARTITION,     /* partition(s).s2: the current node's outcome of a partition */
  GR_E_LEN,           /* len(a): elements of a list (onnx mapping conditions only) */
  GR_E_CALL,          /* s(a, a->next, ...): a named condition; the checker inlines it */
  GR_E_ADD, GR_E_MOD  /* a + b, a % b: ints (a % b floored, as Python's; null on overflow or % 0) */
};

typedef struct gr_expr {
  uint8_t op;
  uint8_t type;       /* checker: GR_T_* */
  uint8_t dep;        /* checker: GR_DEP_* */
  uint8_t elem;       /* checker: element type of lists */
  uint16_t depth;     /* nesting depth (bounded by the parser) */
  gr_loc loc;         /* the expression's first token */
  char *s;            /* identifier, string, field name or variable (owned) */
  gr_loc sloc;        /* where s was written; a binary operator: the operator */
  char *s2;           /* section name of ini() (owned) */
  gr_loc s2loc;
  int64_t i;
  struct gr_expr *a, *b;
  struct gr_expr *next;   /* list literal elements */
  struct gr_expr *shown;  /* a named condition's call as written, where the checker
                          ** inlined its body into this node (printing); owned */
  /* resolved by the checker */
  int32_t ref, ref2;
  const void *ptr;        /* table, option, ... */
} gr_expr;

/* ---- statements and block items ---- */
enum gr_item_kind {
  GR_I_BUNDLE = 1, GR_I_INCLUDE, GR_I_CAPABILITY, GR_I_HARDWARE, GR_I_PRODUCT, GR_I_SOC,
  GR_I_OPTION, GR_I_MODE, GR_I_TABLE, GR_I_TENTRY, GR_I_SLOT, GR_I_SOURCE, GR_I_BRANCH,
  GR_I_CASCADE, GR_I_RULE, GR_I_EXCLUSIVE, GR_I_REQUIRES, GR_I_CONFLICTS,
  /* nested items */
  GR_I_DESCRIPTION, GR_I_VERSION, GR_I_CANN, GR_I_CAPS, GR_I_HWVAL, GR_I_KEY, GR_I_ALIAS,
  GR_I_TYPE, GR_I_VALUES, GR_I_VALUES_MODE, GR_I_RANGE, GR_I_PATTERN, GR_I_SEPARATOR,
  GR_I_DEFAULT, GR_I_SUPPORT, GR_I_VALUE_BLOCK, GR_I_DEPRECATED, GR_I_FORMAT, GR_I_SECTION,
  GR_I_INITIAL, GR_I_ENTRIES, GR_I_ENTRIES_MODE, GR_I_HOOK, GR_I_EXTENDS,
  GR_I_PARTITION, GR_I_SEED, GR_I_NEUTRAL, GR_I_LIMIT,
  GR_I_NOEFFECT,
  GR_I_SUBSEED, GR_I_SUBGRAPH, GR_I_GROUP, GR_I_THRESHOLD,   /* partition: subgraph seed / dynamic / inherit, group, threshold */
  GR_I_COLUMN,               /* a slot's `column "label";`: the label human-facing reports give it */
  GR_I_ONNX, GR_I_ONNX_ROW, GR_I_ONNX_IR, GR_I_ONNX_IN,  /* onnx mappings: statement, row, IR op, input */
  GR_I_CONDITION,            /* condition name(names) = e; */
  /* the op information library (check_oplib.c): `oplib NAME "desc" { ... }`,
  ** `dtypes STORE "Op" from "cite" { ... }`, and the items of their blocks */
  GR_I_OPLIB, GR_I_DTYPES,
  GR_I_OL_ENGINE, GR_I_OL_KIND, GR_I_OL_PRIORITY, GR_I_OL_FAMILY, GR_I_OL_FROM,
  GR_I_OL_OP,                /* name = op type, names = policy and flag words, items = tensors;
                             */
  GR_I_OL_INPUT, GR_I_OL_OUTPUT,
  GR_I_OL_OPS,               /* the ops of a big file, not parsed: lo, hi = byte offset and length */
  GR_I_ONNX_OUT,             /* an onnx mapping IR op's `output "DTYPE" [DIMS]` (in the op's items2) */
  GR_I_REJECTED              /* `rejected elsewhere;` in an option's value block */
};

/* how a layer's statement changes an earlier layer's declaration (gr_item.mod) */
enum { GR_MOD_NONE = 0, GR_MOD_OVERRIDE, GR_MOD_EXTEND, GR_MOD_REPLACE };

/* GR_I_SUPPORT flavours (flag) */
enum { GR_SUP_LIST = 0, GR_SUP_ALL, GR_SUP_ALL_EXCEPT, GR_SUP_NONE };
/* GR_I_RULE scopes (flag) */
/* GR_SCOPE_REFUSAL: once per engine that refused a node no engine takes
** (node fields as in GR_SCOPE_NODE); GR_SCOPE_BAD: `for each` an unknown word */
enum { GR_SCOPE_GLOBAL = 0, GR_SCOPE_NODE, GR_SCOPE_OPTION, GR_SCOPE_ENTRY, GR_SCOPE_REFUSAL, GR_SCOPE_BAD };
/* actions of rules and relations (flag2) */
enum { GR_ACT_DIAG = 0, GR_ACT_SET };

typedef struct gr_name {     /* an identifier or string in a list */
  char *s;
  gr_loc loc;
  struct gr_name *next;
} gr_name;

typedef struct gr_item {
  int kind;
  gr_loc loc;                /* the statement's first token */
  char *name; gr_loc name_loc;
  char *str;  gr_loc str_loc;    /* string argument, unescaped */
  char *raw;                 /* templates: the string body as written (escapes kept) */
  gr_name *names, *names2;
  gr_expr *e, *e2;           /* condition / value (table entry: value) */
  int64_t lo, hi;            /* range bounds, hardware value; a rule: lo = 1 when marked `once` */
  int flag;                  /* rule: scope (GR_SCOPE_*); support: flavour (GR_SUP_*); soc: 1 = pattern; seed: 1 = weak */
  int flag2;                 /* rule: action (GR_ACT_*) */
  int flag3;                 /* rules and relations: severity (gr_severity) */
  char *code; gr_loc code_loc;   /* diagnostic code */
  char *ge_code; gr_loc ge_code_loc;   /* rules and relations: GE's own error code, or NULL */
  char *str2; char *raw2; gr_loc str2_loc;   /* `because` template of a set-rule or branch */
  gr_loc once_loc;           /* where `once` was written */
  struct gr_item *items;     /* nested items, in source order */
  struct gr_item *items2;    /* an onnx mapping row: its opsets (GR_I_RANGE items) */
  struct gr_item *items3;    /* an onnx mapping row: its `yields` list (GR_I_ONNX_IN items), in source order */
  struct gr_item *next;
  int mod; gr_loc mod_loc;   /* `override`, `extend` or `replace` before a statement (GR_MOD_*) */
  int layer;                 /* top-level statements: the bundle layer they come from */
} gr_item;

/* constructors used by the grammar actions */
/* The location of token t in file: inline, since the grammar calls it for
** nearly every token it keeps (a call was 3% of loading a big rule set). */
static inline gr_loc gr_tok_loc(const char *file, gr_token t){
  gr_loc l;
  l.file = file; l.line = t.line; l.col = t.col;
  return l;
}
char    *gr_tok_str(gr_token t);                  /* identifier text, malloc'ed */
gr_expr *gr_expr_new(int op, gr_loc loc);
void     gr_expr_free(gr_expr *e);
gr_item *gr_item_new(int kind, gr_loc loc);
void     gr_item_free(gr_item *list);
gr_name *gr_name_new(char *s, gr_loc loc);
void     gr_name_free(gr_name *list);
gr_name *gr_name_reverse(gr_name *list);
gr_item *gr_item_reverse(gr_item *list);

/* ---- the parser context and entry points (lemon emits no prototypes) ---- */
typedef struct gr_parse {
  const char *file;          /* display name, borrowed */
  const char *text;          /* the whole source, for snippets */
  const gr_lineidx *lines;   /* its line index, borrowed; NULL: scan text */
  gr_loc tok_loc;            /* the token being fed to the parser */
  gr_loc eof_loc;            /* where input ends, when it is not text's end (a placeholder) */
  gr_diags *diags;
  int nerr;
  gr_item *head, **tail;     /* statements in source order */
  gr_expr *template_expr;    /* result of a placeholder parse */
  /* lazy op bodies (the op library): when lazy_ops is set, the driver
  ** skips the ops of an `oplib` block and feeds the grammar one LAZYOPS
  ** token for all of them; src/lang/oplib.c parses one op on its first
  ** lookup, after an OPBODY token, and the op lands in op_item */
  int lazy_ops;
  size_t nlazy;              /* blocks skipped so far */
  gr_item *op_item;
  size_t text_len;           /* gr_parse_text: text's length; 0 in the other drivers */
} gr_parse;

void gr_parse_error(gr_parse *ps, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The tokens the parser would have taken instead of `bad`, as a message
** tail (": expected ';'", "" when there are too many to help). For a whole
** file (gr_parse_text) the text is parsed again, with a scratch parser, up
** to just before `bad`, so that the reductions `bad` caused are not yet done
** (exact); otherwise parser's current state is used (grammar/rules.y). */
void gr_parse_expected(gr_parse *ps, void *parser, gr_token bad, char *out, size_t n);
/* grammar/rules.y: the same, from a lemon parser's current state. */
void gr_parser_expected(void *parser, char *out, size_t n);
/* Where to report "unexpected end of input": just after the last token. */
gr_loc gr_parse_eof_loc(const gr_parse *ps);
/* Expressions deeper than this are refused (recursion in the checker and
** evaluator is bounded by it). */
#define GR_MAX_EXPR_DEPTH 512
gr_expr *gr_expr_deep(gr_parse *ps, gr_expr *e);

/* oplib.c: the item of the ops the driver skipped (t: their text, the
** first `op` to just before the block's closing brace) */
gr_item *gr_oplib_lazy_ops(gr_parse *ps, gr_token t);
/* parse.c: from `from` (inside `depth` open braces) to the brace closing the
** outermost of them, or NULL (unbalanced, an unterminated string, a NUL, a
** ';' at depth semi_depth; 0: none refused); counts lines into *line, *bol. */
const char *gr_scan_braces(const char *from, const char *limit, int depth, int semi_depth, uint32_t *line, const char **bol);

void *grParserAlloc(void *(*mallocProc)(size_t));
void  grParser(void *p, int major, gr_token minor, gr_parse *ps);
void  grParserFree(void *p, void (*freeProc)(void *));

/* parse.c: one file (or one template placeholder) into statements. Errors
** go to ps->diags; the result list is ps->head. Returns 0 on success. */
int gr_parse_text(gr_parse *ps, const char *text, size_t len);
gr_expr *gr_parse_placeholder(const char *file, const gr_lineidx *file_lines, const char *text, size_t len,
                              uint32_t line, uint32_t col, gr_diags *diags);

/* One op indexed by a lazy parse: its text text[off .. off+n) (`op` to the
** closing brace, at line:col) of a file text[0..len) with a NUL at len.
** Returns its GR_I_OL_OP item (the caller frees it), or NULL after adding
** the errors to diags. lines: the file's line index, or NULL. */
gr_item *gr_parse_op(const char *file, const char *text, size_t len, size_t off, size_t n,
                     uint32_t line, uint32_t col, const gr_lineidx *lines, gr_diags *diags);

/* The source line containing `line` (without newline), malloc'ed; a scan
** from the top of text, for a one-off (every repeated use goes through a
** gr_lineidx). */
char *gr_source_line(const char *text, uint32_t line);

#endif
