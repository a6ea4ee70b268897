/*
** cases.h: golden cases for bundle authors (`gerules test`). A case file
** says how to run `gerules eval` (graph, chip, run mode, options, extra
** arguments, files to create) and what must come out (exit status, stderr
** text, a subset of the JSON report). This module parses case files, holds a
** small JSON tree (built on the project's JSON scanner) for the expected and
** actual reports, matches one against the other, and works out which
** sources, cascade branches and rules of a rule set the reports show firing
** (coverage), and rewrites a case from a run (case_update.c, `--update`).
** Running the evaluation is the CLI's job (cmd_test.c). The file format is
** defined in doc/vendor-guide.md ("Golden cases") and summed up in
** `gerules test --help`.
**
** Ownership: a gr_case owns every string and tree in it (gr_case_free); a
** gr_jv tree is owned by its root (gr_jv_free); a gr_coverage owns its
** arrays (gr_coverage_free); gr_case_update's text is the caller's to free.
** Nothing here prints, writes files or exits.
*/
#ifndef GR_CASES_H
#define GR_CASES_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "base/diag.h"
#include "lang/ruleset.h"

/* ---- a JSON tree ---- */
enum { GR_JV_NULL = 0, GR_JV_BOOL, GR_JV_INT, GR_JV_NUM, GR_JV_STR, GR_JV_ARR, GR_JV_OBJ };
typedef struct gr_jv {
  int t;
  int b;                      /* BOOL */
  int64_t i;                  /* INT */
  char *s; size_t n;          /* STR (decoded) and NUM (its text) */
  struct gr_jv *v; char **k; size_t len;   /* ARR items; OBJ values and keys */
} gr_jv;

/* Parses one JSON document; NULL with err filled (line:col) on error. */
gr_jv *gr_jv_parse(const char *text, size_t len, gr_error *err);
void   gr_jv_free(gr_jv *v);
const gr_jv *gr_jv_get(const gr_jv *obj, const char *key);   /* NULL when absent or not an object */
void   gr_jv_write(gr_buf *b, const gr_jv *v);              /* compact JSON */
/* The first element of the array list, from index from on, whose member
** field is the string value (its index in *at); NULL when none. */
const gr_jv *gr_jv_find(const gr_jv *list, const char *field, const char *value, size_t from, size_t *at);

/* ---- case files ---- */
typedef struct gr_case_block { char *name, *fname, *body; } gr_case_block;
typedef struct gr_case {
  char *path;
  char **desc; size_t ndesc;  /* description lines; desc[0] is the title */
  char *graph;                /* a path relative to the case file, or "inline" */
  char *inline_graph;
  char *chip, *run_mode;
  char **args; size_t nargs;  /* -o and arg: lines, split, in order */
  int exit;
  char **stderr_has; size_t nstderr;
  gr_case_block *blocks; size_t nblocks;
  gr_jv *expect;              /* NULL when none */
  /* where things are, for `gerules test --update` (1-based lines; 0: none) */
  uint32_t exit_line, graph_line, graph_col;
  uint32_t *stderr_line;      /* one per stderr_has */
  uint32_t first_block_line;  /* the first "--- " line */
  uint32_t expect_line, expect_end;   /* the "--- expect" line; the first line after its block */
} gr_case;

/* Parses a case file. GR_CASE_RECORDING accepts a case without its `exit:`
** line or its expect block (`gerules test --update` writes them). */
enum { GR_CASE_RECORDING = 1 };
int  gr_case_parse(gr_case *c, const char *path, const char *text, size_t len, int flags, gr_diags *d);
void gr_case_free(gr_case *c);

/* Substitution of {NAME} (a block's file) and {tmp} in strings. */
typedef struct gr_subst { const char **names, **values; size_t n; } gr_subst;
char *gr_subst_apply(const gr_subst *s, const char *text);   /* malloc'ed */

/* Checks one run: exit status, stderr, stdout (the JSON report) and, when
** given, the second run's stdout (determinism). Appends one line per failure
** to fails; returns the number of failures. On success *report holds the
** parsed report (caller frees) when stdout was JSON. */
int gr_case_check(const gr_case *c, const gr_subst *s, int rc, const char *out, size_t nout,
                  const char *err, const char *out2, size_t nout2, gr_jv **report, gr_buf *fails);

/* Does the expected value e match the actual a (the matching rules above,
** {NAME} substituted)? And does a diagnostic matcher (a code string or an
** object) match the diagnostic d? Neither reports anything. */
int gr_case_matches(const gr_subst *s, const gr_jv *e, const gr_jv *a);
int gr_case_diag_matches(const gr_subst *s, const gr_jv *want, const gr_jv *d);
char *gr_jv_short(const gr_jv *v, size_t max);              /* compact, cut at max bytes; malloc'ed */

/* ---- recording (`gerules test --update`, case_update.c) ---- */
/* The case file's new text from one run (exit status rc, stderr err, the
** parsed report or NULL when rc is 2): the `exit:` line set to rc, the
** `stderr:` lines the run no longer prints dropped, the expect block
** refreshed (every value it asserts set to the current one, assertions that
** no longer hold and cannot be refreshed dropped) or, when the case has none,
** recorded from the report. Everything else (comments, inputs, blocks) is
** kept byte for byte. Returns NULL when nothing changes; appends one line per
** change to changes. text/len are the file as parsed into c. */
char *gr_case_update(const gr_case *c, const char *text, size_t len, const gr_subst *s,
                     int rc, const char *err, const gr_jv *report, gr_buf *changes);

/* ---- coverage ---- */
typedef struct gr_coverage {
  const gr_ruleset *rs;
  uint8_t *branch_hit;        /* per source, per branch: flattened; see branch_first */
  size_t *branch_first;       /* per source: index of its first branch in branch_hit */
  size_t nbranches;
  uint8_t *rule_hit;          /* rules, then relations */
  size_t nrules;
  gr_map where;               /* "short:line" -> 1 + index (branches, then rules + nbranches) */
  char **keys; size_t nkeys;
} gr_coverage;

void gr_coverage_init(gr_coverage *cv, const gr_ruleset *rs);
/* Marks what one report shows: each provenance entry's "rule" (a branch)
** and each diagnostic's "rule" (a rule or relation). */
void gr_coverage_add(gr_coverage *cv, const gr_jv *report);
void gr_coverage_counts(const gr_coverage *cv, size_t *src_hit, size_t *src_all, size_t *br_hit, size_t *br_all,
                        size_t *rule_hit, size_t *rule_all);
/* The same counts for one layer of the stack (cv->rs->layers[layer]): the
** branches, rules and relations declared in its files, and the sources with
** a branch declared there (a layer that extends a base source counts that
** source, and only its own branches of it). */
void gr_coverage_layer_counts(const gr_coverage *cv, size_t layer, size_t *src_hit, size_t *src_all, size_t *br_hit,
                              size_t *br_all, size_t *rule_hit, size_t *rule_all);
void gr_coverage_free(gr_coverage *cv);

#endif
