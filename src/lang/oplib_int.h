/*
** oplib_int.h: the op library's storage, shared by the two files that build
** and read it and by nothing else: check_oplib.c (checks the oplib and
** dtypes statements, compiles an op's item into a gr_oplib_op) and oplib.c
** (the accessor API of oplib.h, lazy parsing on lookup).
**
** Ownership: a gr_oplib_lib belongs to its rule set (rs->oplib) and is
** released by gr_oplib_free. The strings and arrays of the public structs
** live in the rule set's arena; the lib owns its maps, its entry arrays, the
** file texts it adopted and the diagnostics of lazy parses. Items it points
** to are in rs->ast.
*/
#ifndef GR_OPLIB_INT_H
#define GR_OPLIB_INT_H
#include "lang/oplib.h"
#include "lang/check.h"

typedef struct ol_entry {
  gr_item *it;              /* the op's item in rs->ast, or NULL for an op of a skipped block */
  const char *type;
  const char *file; size_t off, len; uint32_t line, col;   /* where its text is (a skipped op) */
  const gr_item *dtypes;    /* the unconditional dtypes block giving its lists, or NULL */
  const gr_item **when; size_t nwhen;   /* its conditional dtypes blocks, in order (malloc'ed) */
  gr_oplib_op *op;          /* compiled on first lookup */
  int state;                /* 0 not yet, 1 compiled, -1 failed (errors reported) */
} ol_entry;

typedef struct ol_store {
  gr_oplib_store pub;
  const gr_item *st;        /* its oplib statement */
  const gr_item *lazy;      /* its skipped ops (GR_I_OL_OPS), indexed on first use, or NULL */
  int indexed;              /* the skipped ops are indexed */
  const gr_item **pending; size_t npending;   /* dtypes blocks bound once indexed */
  ol_entry *ops; size_t nops, capops;
  gr_map types;             /* op type -> index in ops + 1 */
} ol_store;

struct gr_oplib_lib {
  gr_ruleset *rs;
  ol_store *stores; size_t nstores;     /* sorted by (engine, priority, name) */
  gr_map store_map;                     /* name -> index + 1 */
  const gr_table *dtypes;               /* table dtypes, or NULL */
  gr_map formats;                       /* interned format names (keys in the arena) */
  const ck_sources *src;                /* while checking: the loader's texts */
  char **texts; size_t *lens;           /* adopted file texts, per rs->files entry */
  gr_diags diags;                       /* errors of lazy parses after loading */
  int nerr;
};

/* Where an op's errors go: the checker's context (c) or, after loading,
** diags with snippets from the lib's texts. */
typedef struct ol_report {
  ck *c;
  gr_diags *diags;
  struct gr_oplib_lib *lib;
  int nerr;
} ol_report;

/* check_oplib.c: compiles entry e of store s (parsing it first when it was
** only indexed). Returns 0, or -1 after reporting its errors. */
int ol_compile(struct gr_oplib_lib *lib, ol_store *s, ol_entry *e, ol_report *r);
/* Indexes the skipped ops of store s (once), then binds its pending dtypes
** blocks. Errors through r. */
void ol_index(struct gr_oplib_lib *lib, ol_store *s, ol_report *r);

#endif
