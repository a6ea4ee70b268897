/*
** check.h: the checker's internal interface, shared by the files of the
** checking stage and by nothing outside src/lang: check.c (declarations,
** the type checker's driver in passes, relations), check_cascade.c (cascades), check_expr.c
** (expressions and message templates), lint.c (the "can this ever fire"
** analysis), check_onnx.c (the ONNX op mapping), check_cond.c (named conditions). ruleset.c loads the files and calls gr_check_all.
**
** Ownership: a ck context borrows the rule set it fills and the diagnostics
** list it appends to; it owns nothing and lives on the stack of
** gr_check_all. Everything the checker builds is allocated in the rule set's
** arena, or (expression trees of templates) recorded in rs->owned_exprs, so
** gr_ruleset_free releases it without knowing how it was made.
*/
#ifndef GR_CHECK_H
#define GR_CHECK_H

#include <stdarg.h>
#include "lang/ruleset.h"

/* The source files being checked (their texts and line indexes are kept
** only while checking, for the snippet of each error). */
typedef struct ck_sources {
  const char *const *files;   /* rs->files */
  const gr_lineidx *lines;    /* one per file, over the loader's texts */
  size_t n;
} ck_sources;

typedef struct ck {
  gr_ruleset *rs;
  gr_diags *diags;
  const ck_sources *src;
  int nerr;
  /* expression scope */
  int scope;              /* GR_SCOPE_* or -1 for option defaults and table values */
  int allow_other;        /* relation templates */
  int allow_count;        /* `once` templates */
  int in_source;          /* checking a source branch: slot values are not available */
  int in_partition;       /* checking a partition's conditions: no partition outcome yet */
  int in_dtypes;          /* checking a dtypes block's condition: the judge is running (no judge_
                             fields, slot decisions or partitions yet) */
  struct { const char *name; uint8_t type, dep; int slot; } vars[GR_MAXVARS];
  int nvars, maxslots;
  /* named conditions (check_cond.c) */
  gr_item **conds;        /* the condition statements, by index (malloc'ed) */
  uint8_t *cond_bad;      /* 1: recursive, never inlined */
  size_t nconds;
  size_t inlined;         /* expression nodes made by inlining so far */
  int edepth;             /* ck_expr nesting, bounded by GR_MAX_EXPR_DEPTH */
  /* rs->ast's statements in order, with their kinds side by side (built by
  ** gr_check_all once the layers are applied): the passes over the
  ** statements scan the kinds, a few contiguous bytes each, instead of
  ** chasing the list through every statement of a big rule set */
  gr_item **stmts;
  uint8_t *kinds;
  size_t nstmts;
} ck;

/* Each top-level statement st of kind k (index i), in order. */
#define CK_EACH_KIND(c, i, st, k) \
  for((i) = 0; (i) < (c)->nstmts; (i)++) if( (c)->kinds[i]==(k) && ((st) = (c)->stmts[i], 1) )

/* layers.c: turns the paths into bundle layers and applies the layers'
** override / extend / replace statements to rs->ast; errors through c. */
int gr_check_layers(ck *c);

/* check_cond.c: collects the condition statements of rs->ast (a name
** defined twice, a parameter named twice, a condition that calls itself are
** errors); ck_call inlines a call: it replaces e by a copy of the body with
** each parameter replaced by a copy of its argument, and checks the copy;
** ck_conds_free releases what ck_conds collected. */
void ck_conds(ck *c);
uint8_t ck_call(ck *c, gr_expr *e);
void ck_conds_free(ck *c);

/* Runs every check over rs->ast, filling rs; returns the number of errors. */
int gr_check_all(gr_ruleset *rs, const ck_sources *src, gr_diags *diags);

/* codes.c: the rows of table diagnostic_codes, and a row for every code of
** a rule or relation when the table is declared (run last). */
void ck_codes(ck *c);

/* check_cascade.c: merges each slot's cascade statements into one total
** order of its sources (cycles, unordered pairs, sources in no cascade are
** errors). */
void ck_cascades(ck *c);

/* check_onnx.c: checks the onnx mapping statements and compiles them into
** rs->onnx_ops. */
void ck_onnx(ck *c);

/* check_oplib.c: checks the oplib and dtypes statements and builds rs->oplib
** (run after the tables are checked: it reads table dtypes). */
void ck_oplib(ck *c);

/* check_judge.c: checks the dtype and engine judge's tables and compiles
** them into rs->judge (judge_rules.h). */
void ck_judge(ck *c);

/* check_fold.c: ck_table_fold reads a table statement's `fold lower|upper`
** into t->fold; ck_fold_entry refuses an entry string `in` would compare
** with that is not in the table's case. */
void ck_table_fold(ck *c, gr_item *st, gr_table *t);
void ck_fold_entry(ck *c, const gr_table *t, const gr_item *it);

/* ---- messages (check.c) ---- */
const gr_lineidx *ck_lines_of(const ck_sources *src, const char *file);
void ck_err(ck *c, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ck_warn(ck *c, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "file:line" of a location, for "first defined at" */
void ck_where(char *buf, size_t n, gr_loc l);
/* "; did you mean 'x'?" for a name of the given kinds (GR_NK_*), or "" */
const char *ck_did_you_mean(const ck *c, unsigned kinds, const char *word, char *buf, size_t n);
/* a copy of s in the rule set's arena (NULL stays NULL) */
const char *ck_keep(gr_ruleset *rs, const char *s);
/* "an int", "a string"...: a type name with its article */
const char *ck_a_type(int t);

/* ---- expressions and templates (check_expr.c) ---- */
uint8_t ck_expr(ck *c, gr_expr *e);
/* The innermost bound variable named `name` (an index of c->vars), or -1. */
int ck_find_var(const ck *c, const char *name);
/* checks e and reports when its type is not t ("WHAT must be an int, ...") */
uint8_t ck_want(ck *c, gr_expr *e, uint8_t t, const char *what);
gr_option *ck_option_ref(ck *c, const char *name, gr_loc loc);
int ck_option_has_value(const gr_option *o, const char *v);
void ck_template(ck *c, gr_template *t, const char *raw, gr_loc loc);
/* makes the witnesses of cond's top-level `any` conjuncts visible again */
void ck_push_witnesses(ck *c, const gr_expr *cond);
static inline uint8_t ck_maxdep(uint8_t a, uint8_t b){ return a > b ? a : b; }

/* ---- can this ever fire (lint.c) ---- */
/* Static truth of a condition: 1 always, 0 never (why says why), -1 depends. */
int ck_truth(const gr_ruleset *rs, const gr_expr *e, char *why, size_t nwhy);
/* Contradicting top-level conjuncts (option set and not set, ...). */
int ck_contradiction(gr_expr *const *conj, size_t n, char *why, size_t nwhy);
/* Reports "WHAT 'NAME' can never fire" when the branch's condition can never
** hold. Returns the static truth of the condition. */
int ck_never_fires(ck *c, const gr_branch *b, const char *what, const char *name);
/* A source that always yields hides every later source of its slot; a branch
** after an unconditional one is never reached. */
void ck_shadowing(ck *c);

#endif
