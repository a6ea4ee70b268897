/*
** cases.h: golden cases for bundle authors (`gerules test`). A case file
** says how to run `gerules eval` (graph, chip, run mode, options, extra
** arguments, files to create) and what must come out (exit status, stderr
** text, a subset of the JSON report). This module parses case files, holds a
** small JSON tree (built on the project's JSON scanner) for the expected and
** actual reports, matches one against the other, and works out which
** sources, cascade branches and rules of a rule set the reports show firing
** (coverage). Running the evaluation is the CLI's job (cmd_test.c). The file
** format is documented in doc/vendor-guide.md and `gerules test --help`.
**
** Ownership: a gr_case owns every string and tree in it (gr_case_free); a
** gr_jv tree is owned by its root (gr_jv_free); a gr_coverage owns its
** arrays (gr_coverage_free). Nothing here prints or exits.
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
} gr_case;

int  gr_case_parse(gr_case *c, const char *path, const char *text, size_t len, gr_diags *d);
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
void gr_coverage_free(gr_coverage *cv);

#endif
