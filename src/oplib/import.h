/*
** import.h: `gerules import-oplib`, CANN's op information files as rule
** data. The reader (import_read.c) takes one op info JSON file (AI Core,
** DSA, or AI CPU kernel store) into the few fields the rule language keeps;
** the tree walker (import_tree.c) finds a CANN installation's files and
** stores in the order GE reads them; the writer (import_write.c) writes one
** `oplib` statement per store (doc/rule-language.md 6.5), mapping dtype
** spellings through the rule set's table oplib_dtype_spelling and taking
** each store's engine, kind and priority from table oplib_stores.
**
** Ownership: a gr_imp_file owns its strings and ops (gr_imp_file_free); a
** gr_imp_plan owns its stores and files (gr_imp_plan_free). Nothing here
** prints or exits: errors go to the gr_diags given, located
** file:line:col in the JSON file they are about.
*/
#ifndef GR_OPLIB_IMPORT_H
#define GR_OPLIB_IMPORT_H
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/util.h"
#include "lang/ruleset.h"

#define GR_IMPORT_OPLIB_VERSION "1"

typedef struct gr_imp_tensor {
  char *key;            /* "input3", "dynamic_output0" */
  int is_output;
  int index;            /* the number in the key */
  char *name, *param;   /* IR name (NULL: none, AI CPU only); paramType (AI Core) or NULL */
  char *dtype;          /* "dtype" (AI Core) or "type" (AI CPU), as written; NULL: none */
  char *format;         /* "format", as written; NULL: none */
  uint32_t line, col;   /* where the key is */
} gr_imp_tensor;

typedef struct gr_imp_op {
  char *type;
  uint32_t line, col;
  gr_imp_tensor *t; size_t nt;      /* in the order the writer uses (see gr_imp_read) */
  /* the flags' texts as written, NULL when absent */
  char *precision_reduce, *dyn_shape, *dyn_rank, *dyn_compile_static, *dyn_format,
       *need_check, *heavy, *op_file;
} gr_imp_op;

typedef struct gr_imp_file {
  char *path;           /* as opened (for messages) */
  char *shown;          /* as the generated header and `from` line name it */
  unsigned char sha256[32];
  gr_imp_op *ops; size_t nops;
} gr_imp_file;

/* Reads one op info file. kernel: an AI CPU kernel store (tensors keep the
** file's order; `type` lists); else AI Core / DSA (tensors in input0..N,
** output0..N order; `dtype`, `format`, `paramType`). shown: how the header
** names it (NULL: path). Returns 0, or -1 after adding located errors. */
int gr_imp_read(const char *path, const char *shown, int kernel, gr_imp_file *out, gr_diags *d);
/* The same from memory (the fuzz target); sha256 of the bytes given. */
int gr_imp_read_mem(const char *text, size_t len, const char *path, int kernel, gr_imp_file *out, gr_diags *d);
void gr_imp_file_free(gr_imp_file *f);

/* One store to write. */
typedef struct gr_imp_store {
  char *name;           /* the oplib statement's name */
  char *description;
  char *kind;           /* a key of table oplib_stores: "aicore", "aicore_custom", "dsa", "aicpu_kernel"... */
  char *family;         /* NULL: serves every family */
  int priority_offset;  /* added to the table's priority (custom stores: their order) */
  int override;         /* write `override oplib` (a layer replacing a store of the same name) */
  gr_imp_file **files; size_t nfiles;   /* merged in this order */
} gr_imp_store;

typedef struct gr_imp_plan {
  char *release;        /* "8.1.RC1" */
  gr_imp_store *stores; size_t nstores;
  gr_imp_file **files; size_t nfiles;   /* owned */
} gr_imp_plan;
void gr_imp_plan_free(gr_imp_plan *p);
/* Adds a store of files (read now) to p. Returns 0 or -1. */
int gr_imp_plan_add(gr_imp_plan *p, const char *name, const char *description, const char *kind, const char *family,
                    int priority_offset, const char *const *paths, const char *const *shown, size_t n, gr_diags *d);

/* import_tree.c: fills p from an installed CANN (root holds opp/): for each
** family (NULL, 0: every directory of opp/built-in/op_impl/ai_core/tbe/config/),
** the custom vendor stores in opp/vendors/config.ini's load_priority order,
** the built-in AI Core store (every aic-<family>-ops-info*.json, merged)
** and DSA store, then the AI CPU stores. Returns 0 or -1. */
int gr_imp_tree(gr_imp_plan *p, const char *root, const char *const *families, size_t nfamilies, gr_diags *d);

/* import_write.c: the rule text of store st (header, oplib statement) into
** out, with rs's tables oplib_dtype_spelling, oplib_stores and dtypes.
** Returns 0, or -1 with errors in d. */
int gr_imp_write(gr_buf *out, const gr_ruleset *rs, const gr_imp_plan *p, const gr_imp_store *st, gr_diags *d);
/* The file name a store is written to: NAME.rules. */

#endif
