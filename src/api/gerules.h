/*
** gerules.h: the public C API of libgerules, the engine behind the gerules
** command. Load a rule stack once, then evaluate any number of models
** against it (from several threads if you like), and read every node's
** decisions (precision mode, tiling placement, ...), their provenance and the
** diagnostics, or get a whole report as JSON, text, HTML or Graphviz DOT.
** The library never prints and never exits; every problem is a diagnostic.
** doc/c-api.md has a walk-through; examples/c/decisions.c is a complete
** program. Build with `pkg-config --cflags --libs gerules`.
**
** Ownership (every pointer the API returns):
**   - gerules_rules_load, gerules_request_new and gerules_evaluate return
**     objects the caller owns and frees with gerules_rules_free,
**     gerules_request_free and gerules_eval_free (each accepts NULL).
**   - gerules_rules_load's *diags is a new list the caller frees with
**     gerules_diags_free. gerules_eval_diags returns a list the evaluation
**     owns: do not free it; it lives until gerules_eval_free.
**   - `char *` results (reports, explain chains, formatted diagnostics) are
**     malloc'ed copies the caller frees with gerules_free.
**   - every `const char *` result is borrowed: from the rules object
**     (gerules_rules_*: until gerules_rules_free), from the evaluation
**     (gerules_eval_*, gerules_decision and gerules_diag fields: until
**     gerules_eval_free) or static (gerules_version, gerules_default_rules).
**   - strings passed in are copied; the caller may free them at once.
**   - an evaluation holds a reference to its rule set: gerules_rules_free
**     may come before gerules_eval_free of evaluations made from it (the
**     handle is then gone for the caller; the rule set itself is freed with
**     the last evaluation). Strings an evaluation returns that come from the
**     rule set (rule names, slot names) stay valid until gerules_eval_free.
**
** Threads:
**   - A loaded rule set is immutable: any number of threads may call
**     gerules_evaluate (and the gerules_rules_* readers) on one rule set at
**     the same time. Each evaluation has its own model, options, Lua hook
**     states and results; the library has no global mutable state.
**   - One evaluation (gerules_eval) or one request must be used by one
**     thread at a time: its readers and reporters compute some values
**     lazily and cache them in the evaluation. Distinct evaluations are
**     independent. A request may be reused (sequentially) for many
**     evaluations.
**   - Loading rule sets concurrently is safe too.
**
** Versioning: GERULES_API_VERSION grows when functions are added; the
** shared library's soname changes when anything is removed or changed.
*/
#ifndef GERULES_H
#define GERULES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GERULES_API_VERSION 4    /* 2, 3 and 4 added the functions marked "(v2)", "(v3)", "(v4)" */

/* The package version ("0.1.0"); static. */
const char *gerules_version(void);
/* The installed rule set directory (where `make install` put rules/); static. */
const char *gerules_default_rules(void);
/* Frees a `char *` returned by the library (NULL is fine). */
void gerules_free(void *p);

/* ---------------------------------------------------------------- diagnostics */

typedef enum gerules_severity { GERULES_NOTE = 0, GERULES_WARNING = 1, GERULES_ERROR = 2 } gerules_severity;

typedef struct gerules_diag {
  gerules_severity severity;
  const char *code;       /* stable code from the rules (e.g. "GE1001"), or NULL */
  const char *message;
  const char *file;       /* the input the location refers to, or NULL */
  unsigned line, column;  /* 1-based; 0 when unknown */
  const char *option;     /* the option it is about, or NULL */
  const char *node;       /* the node it is about, or NULL */
  const char *rule;       /* "file:line" of the rule that produced it, or NULL */
} gerules_diag;

typedef struct gerules_diags gerules_diags;

size_t gerules_diags_count(const gerules_diags *d);                  /* 0 for NULL */
size_t gerules_diags_count_severity(const gerules_diags *d, gerules_severity sev);
/* Fills *out with diagnostic i (strings borrowed from d); -1 when out of range. */
int    gerules_diags_get(const gerules_diags *d, size_t i, gerules_diag *out);
/* Every diagnostic compiler-style ("file:line:col: error: message [CODE]",
** then the source line and a caret where the location is known: the line is
** read from the input file when the record carries none), one after the
** other, exactly as the gerules command prints them without colour; caller
** frees with gerules_free. "" when there is none. */
char  *gerules_diags_format(const gerules_diags *d);
/* (v2) Diagnostic i alone: like gerules_diags_format, the source line read
** from the input file only with GERULES_RENDER_SOURCE, and with gcc's
** colours with GERULES_RENDER_COLOR. Caller frees with gerules_free; NULL when i is out
** of range. */
#define GERULES_RENDER_SOURCE 1
#define GERULES_RENDER_COLOR  2
char  *gerules_diag_render(const gerules_diags *d, size_t i, unsigned flags);
void   gerules_diags_free(gerules_diags *d);

/* ---------------------------------------------------------------- rule sets */

typedef struct gerules_rules gerules_rules;

/* Loads and checks rule files and directories (every *.rules below a
** directory); paths NULL or npaths 0 loads gerules_default_rules(). Returns
** NULL when there is any error. When diags is not NULL, *diags receives a
** new list with every error and warning (also on success; free it).
** Bundles are verified as the gerules command verifies them: when a trust
** store is configured ($GERULES_TRUST, colon-separated, else the installed
** trust folder when it holds a file), each bundle of the stack must be
** signed by a trusted, unrevoked key, unexpired, with exactly the files it
** was signed with, and not older than the newest version of its name
** accepted before (the state file $GERULES_STATE, else
** $XDG_STATE_HOME/gerules/accepted-bundles or
** ~/.local/state/gerules/accepted-bundles, which a successful load
** updates); otherwise NULL, with one error per problem naming the file and
** the reason, then "refusing the rule set: ...". doc/vendor-guide.md. */
gerules_rules *gerules_rules_load(const char *const *paths, size_t npaths, gerules_diags **diags);
void gerules_rules_free(gerules_rules *rules);

/* (v2) The trust policy of a load, the options the gerules command has:
** gerules_rules_load_with(paths, n, NULL, diags) is gerules_rules_load. */
typedef struct gerules_load_options gerules_load_options;
gerules_load_options *gerules_load_options_new(void);
void gerules_load_options_free(gerules_load_options *o);
/* A trust store file or directory, as `--trust` (repeatable): replaces
** $GERULES_TRUST and the installed trust folder. */
int gerules_load_options_add_trust(gerules_load_options *o, const char *path);
/* As `--allow-downgrade` (on 1): accept a signed bundle older than one of
** its name accepted before. */
int gerules_load_options_set_allow_downgrade(gerules_load_options *o, int on);
/* The anti-rollback state file, instead of $GERULES_STATE or the default. */
int gerules_load_options_set_state_file(gerules_load_options *o, const char *path);
gerules_rules *gerules_rules_load_with(const char *const *paths, size_t npaths,
                                       const gerules_load_options *o, gerules_diags **diags);

const char *gerules_rules_name(const gerules_rules *rules);      /* the bundle name, or NULL */
const char *gerules_rules_version(const gerules_rules *rules);   /* the bundle version, or NULL */
/* The decision slots every node gets (e.g. "precision_mode", "tiling"). */
size_t      gerules_rules_slot_count(const gerules_rules *rules);
const char *gerules_rules_slot_name(const gerules_rules *rules, size_t slot);   /* NULL when out of range */
/* The index of a slot by name, or by the label the text report shows for
** it (its `column`: "impl_mode" for precision_mode), or -1. */
long        gerules_rules_find_slot(const gerules_rules *rules, const char *name);
/* (v4) "Did you mean": the slot name or label of rules closest to name (see
** gerules_suggest), borrowed from rules; NULL when none is close enough. */
const char *gerules_rules_suggest_slot(const gerules_rules *rules, const char *name);
/* (v4) The one "did you mean" of gerules over any list of names: the name closest
** to word by edit distance (an insertion, deletion, substitution or swap of
** two neighbours is one edit; case is ignored), no farther than 1 edit for a
** word of up to 3 bytes, 2 up to 6, 3 beyond; among equally close names the
** one that differs least in case, then in length, then the first in byte
** order. Returns one of the pointers of names (never a copy), or NULL. */
const char *gerules_suggest(const char *word, const char *const *names, size_t n);

/* ---------------------------------------------------------------- requests */

/* What to evaluate: a model, a chip, options, hooks. Setters return 0, or -1
** for a NULL or invalid argument (said in the comment). */
typedef struct gerules_request gerules_request;

gerules_request *gerules_request_new(void);
void gerules_request_free(gerules_request *req);
/* The model file (any format `gerules eval` reads: the JSON of `atc --mode=1`,
** GE dumps, .om, ...). Read by gerules_evaluate. */
int gerules_request_set_model(gerules_request *req, const char *path);
/* A model already in memory (copied); name is shown in messages. */
int gerules_request_set_model_buffer(gerules_request *req, const void *buf, size_t len, const char *name);
/* The model's format as `--input-format` names it ("json", "ge-text",
** "ge-binary", "om", "onnx"), or "auto" / NULL (the default: detected from
** the content); -1 for an unknown name. */
int gerules_request_set_model_format(gerules_request *req, const char *format);
/* The SoC, e.g. "Ascend910B1" (or set the SOC_VERSION option instead). */
int gerules_request_set_chip(gerules_request *req, const char *chip);
/* "inference" (the default, as ATC) or "training"; -1 for anything else. */
int gerules_request_set_run_mode(gerules_request *req, const char *mode);
/* An option by ir_option name, GE key or ATC flag, as -o KEY=VALUE: in
** order, a later one replaces an earlier one of the same option. */
int gerules_request_set_option(gerules_request *req, const char *key, const char *value);
/* An options file (JSON object or KEY=VALUE lines), read by gerules_evaluate
** at its place among the options. */
int gerules_request_add_options_file(gerules_request *req, const char *path);
/* A Lua site policy (doc/lua-api.md), run after the bundle's own hooks. */
int gerules_request_add_hook(gerules_request *req, const char *path);
/* Whether the JSON report carries per-node provenance (default 1). */
int gerules_request_set_provenance(gerules_request *req, int on);
/* (v3) The width of the text report in columns, for a terminal (the CLI
** gives COLUMNS or the terminal's size): long node names are cut in the
** middle to fit. 0 (the default): no width known, names cut at 60 columns;
** -1: never cut (--wide). -1 returned for a value below -1. */
int gerules_request_set_text_width(gerules_request *req, int columns);
/* (v4) The slot the graph pictures fill their boxes by (html: the first
** "colour by" choice; dot: the fill), by name or label (gerules_rules_find_slot);
** NULL (the default): the rule set's first slot. A name the rule set does
** not know falls back to the first slot; the CLI checks it first. */
int gerules_request_set_colour_by(gerules_request *req, const char *slot);
/* (v2) The model read from an open file descriptor (a pipe, stdin, a file
** the caller opened to watch its progress): read by gerules_evaluate, never
** closed; name is shown in messages. */
int gerules_request_set_model_fd(gerules_request *req, int fd, const char *name);
/* (v2) An option the caller read from its own configuration: key and value
** of the given lengths, and where it came from (file NULL means the command
** line; line and column 0 when unknown), shown as the provenance of the
** decisions it makes. Ordered with the other options. -1 for a key or value
** holding a NUL byte (never taken for the shorter name before it). */
int gerules_request_add_option_at(gerules_request *req, const char *key, size_t key_len,
                                  const char *value, size_t value_len,
                                  const char *file, unsigned line, unsigned column);
/* (v2) The GE entry point whose checks, defaults and error codes apply:
** "atc" (the default), "ir-build" (aclgrphBuildInitialize/Model) or
** "session"; -1 for anything else. */
int gerules_request_set_entry(gerules_request *req, const char *entry);
/* (v2) The limits of the Lua hooks: memory per hook state in bytes, Lua
** instructions and seconds per evaluation (all hooks together); 0 keeps a
** limit's default (64 MiB, 100000000, 10 s). */
int gerules_request_set_hook_limits(gerules_request *req, size_t memory_bytes,
                                    unsigned long long instructions, double timeout_seconds);
/* (v2) Where the lines Lua hooks print go, as they come (fn is called on
** the evaluating thread, with ud). Without it they are kept for
** gerules_eval_log. */
typedef void (*gerules_log_fn)(void *ud, const char *line);
int gerules_request_set_log(gerules_request *req, gerules_log_fn fn, void *ud);

/* ---------------------------------------------------------------- evaluations */

typedef struct gerules_eval gerules_eval;

/* Evaluates. Returns NULL only when rules or req is NULL (or out of memory
** aborts, as everywhere in gerules); otherwise look at gerules_eval_status. */
gerules_eval *gerules_evaluate(const gerules_rules *rules, const gerules_request *req);
void gerules_eval_free(gerules_eval *ev);

/* 0: no error; 1: the configuration has errors (diagnostics of severity
** error; decisions are still made); 2: an input could not be used (no or
** unreadable model, malformed options file, unknown chip, failing hook):
** the diagnostics say why, and there are no decisions (node count 0).
** These are the gerules command's exit statuses. */
int gerules_eval_status(const gerules_eval *ev);
const gerules_diags *gerules_eval_diags(const gerules_eval *ev);   /* borrowed, never NULL */
const char *gerules_eval_chip(const gerules_eval *ev);             /* the SoC, or NULL (status 2) */
/* What Lua hooks printed, one "file:line: text" line each; "" when nothing. */
const char *gerules_eval_log(const gerules_eval *ev);

size_t      gerules_eval_node_count(const gerules_eval *ev);
const char *gerules_eval_node_name(const gerules_eval *ev, size_t node);   /* NULL when out of range */
const char *gerules_eval_node_type(const gerules_eval *ev, size_t node);
/* The first node of that name: 0 with *node set, or -1. */
int         gerules_eval_find_node(const gerules_eval *ev, const char *name, size_t *node);
/* (v4) "Did you mean": the node name of ev closest to name, as every gerules
** message suggests one (see gerules_suggest), borrowed from ev; NULL when
** none is close enough, or ev has no graph (status 2). */
const char *gerules_eval_suggest_node(const gerules_eval *ev, const char *name);

/* One decision with its provenance. */
typedef struct gerules_decision {
  const char *slot;       /* e.g. "precision_mode" */
  const char *value;      /* the decided value, or NULL (no source yields: the op's own default) */
  const char *source;     /* the winning source (e.g. "op_precision_by_name"), "hook", or NULL */
  const char *rule;       /* "file:line" of the winning rule branch or hook, or NULL */
  const char *reason;     /* why, in words, or NULL */
  const char *input;      /* the user input behind the value ("op_precision.ini:3",
                             "<command line>"), or NULL */
  int effect;             /* 1: the value takes effect (also for a NULL value); 0: the rule
                             set says it does not (a slot's `no effect` clause holds) */
  const char *no_effect_reason;   /* when effect is 0, why ("PRECISION_MODE=force_fp16"); else NULL */
} gerules_decision;

/* Fills *out with node's decision for slot (an index of gerules_rules_slot_*);
** -1 when node or slot is out of range. The strings live until
** gerules_eval_free. Not const: reasons are rendered on demand. */
int gerules_eval_decision(gerules_eval *ev, size_t node, size_t slot, gerules_decision *out);

/* A whole report: format "json" (doc/json-schema.md), "text", "html" (one
** self-contained page) or "dot" (Graphviz). NULL for an unknown format or
** an evaluation of status 2. *len (when not NULL) gets the length. Caller
** frees with gerules_free. */
char *gerules_eval_report(gerules_eval *ev, const char *format, size_t *len);
/* The full decision chain of one node (what `gerules eval --explain` shows),
** as text (json 0) or JSON (json 1). NULL when node is out of range. */
char *gerules_eval_explain(gerules_eval *ev, size_t node, int json, size_t *len);

/* (v2) Writes a report while it is made, without holding it in memory (a
** 1M-node JSON report is hundreds of MB): format "text", "json", "sarif"
** (SARIF 2.1.0), "github" (workflow annotations), "junit" (JUnit XML),
** "html" or "dot"; node -1 for the whole report, or a node index for its
** decision chain (format "text" or "json"). An evaluation of status 2
** has a report in the CI formats "json", "sarif", "github" and "junit":
** the failure document that says why (doc/json-schema.md, "failed runs");
** the other formats fail for it. flags: */
#define GERULES_REPORT_ALL_NODES 1   /* text: every node, not only those that differ from the defaults */
#define GERULES_REPORT_QUIET     2   /* text: the diagnostics and the summary only */
#define GERULES_REPORT_COLOR     4   /* text: gcc-style colours */
#define GERULES_REPORT_WARNINGS_FAIL 8   /* junit: a warning is a failing case (--fail-on warning) */
/* (v4) json, with the provenance: each node's "provenance" lists indices
** into one table of the distinct entries, "provenance_entries", instead of
** the entries (--provenance-table; doc/json-schema.md 3.4.1) */
#define GERULES_REPORT_PROVENANCE_TABLE 16
/* gerules_eval_write writes to fd (not closed). gerules_eval_write_file
** replaces path atomically (a temporary beside it, renamed at the end): it
** refuses a path that is one of the files the evaluation read (the model,
** options and ini files, hooks, rule files) or that exists and is not a
** regular file, and leaves path untouched on any error. Both return 0, or
** -1 with *diags (when not NULL) set to a new list saying why (free it). */
int gerules_eval_write(gerules_eval *ev, const char *format, unsigned flags, long node,
                       int fd, gerules_diags **diags);
int gerules_eval_write_file(gerules_eval *ev, const char *format, unsigned flags, long node,
                            const char *path, gerules_diags **diags);

#ifdef __cplusplus
}
#endif

#endif
