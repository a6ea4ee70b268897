/*
** dtype_files.h: the readers of the three precision option files GE's
** compiler reads (doc/sources.md, "precision option files"), one file each:
**   - MODIFY_MIXLIST (mixlist.c): a JSON object {"black-list"|"white-list"|
**     "gray-list": {"to-add"|"to-remove": ["OpType", ...]}}; per op type the
**     operations asked, checked against FE's allowed combinations (E20003),
**     and the policy they give an op (gr_mixlist_policy, FE's GetPrecisionPolicy);
**   - KEEP_DTYPE (keep_dtype.c): one node name or `OpType::Type` per line;
**   - CUSTOMIZE_DTYPES (cust_dtypes.c): `OpType::Type:InputDtype:...,OutputDtype:...`
**     or `name::InputDtype:...` per line, dtypes as gerules names.
** Each reader takes a path (or, for tests and the fuzz targets, a text) and
** gives its entries, or errors located file:line:col with GE's own code in
** gr_diag.ge_code (E21001 E21002 E20003 for MODIFY_MIXLIST, E10410 E10003
** for KEEP_DTYPE, E20101 E20003 for CUSTOMIZE_DTYPES). When a rule set and
** a family are given, op types that no op library store of that family has
** get a warning with the closest type ("did you mean"); GE itself does not
** check them. What needs the graph (whether a name or type matches a node)
** is checked by gr_keep_dtype_check / gr_cust_dtypes_check with the caller's
** matcher.
**
** Ownership: every struct owns its entries and their strings; the _free
** functions release them (a zeroed struct is empty and may be freed). The
** readers never print or exit.
*/
#ifndef GR_DTYPE_FILES_H
#define GR_DTYPE_FILES_H
#include <stddef.h>
#include <stdint.h>
#include "base/diag.h"
#include "lang/ruleset.h"
#include "lang/oplib.h"

/* ---- MODIFY_MIXLIST ---- */
enum {
  GR_MIX_ADD_BLACK = 1, GR_MIX_REMOVE_BLACK = 2, GR_MIX_ADD_WHITE = 4,
  GR_MIX_REMOVE_WHITE = 8, GR_MIX_ADD_GRAY = 16, GR_MIX_REMOVE_GRAY = 32
};
typedef struct gr_mixlist_entry {
  char *op_type;
  unsigned ops;           /* GR_MIX_* asked for this type */
  uint32_t line, col;     /* its first mention */
} gr_mixlist_entry;
typedef struct gr_mixlist { gr_mixlist_entry *v; size_t n; char *path; } gr_mixlist;

/* Reads the file at path. Returns 0, or -1 with errors in d. rs, family:
** op types absent from the family's op library are warned about (NULL: no
** such check). */
int gr_mixlist_read(const char *path, gr_mixlist *out, const gr_ruleset *rs, const char *family, gr_diags *d);
int gr_mixlist_parse(const char *text, size_t len, const char *path, gr_mixlist *out,
                     const gr_ruleset *rs, const char *family, gr_diags *d);
/* The entry for op_type, or NULL. */
const gr_mixlist_entry *gr_mixlist_find(const gr_mixlist *m, const char *op_type);
/* The policy of an op whose op information says `from`, after the file
** (FE's GetPrecisionPolicy): a to-remove of the list the op is on makes it
** gray (a to-remove of another list does nothing), then to-add black makes
** it black, else to-add white white; to-add gray alone changes nothing. */
gr_oplib_policy gr_mixlist_policy(const gr_mixlist *m, const char *op_type, gr_oplib_policy from);
void gr_mixlist_free(gr_mixlist *m);

/* ---- KEEP_DTYPE ---- */
typedef struct gr_keep_entry {
  char *text;             /* a node name, or the type after `OpType::` */
  int by_type;
  uint32_t line, col;
} gr_keep_entry;
typedef struct gr_keep_dtype { gr_keep_entry *v; size_t n; char *path; } gr_keep_dtype;

int gr_keep_dtype_read(const char *path, gr_keep_dtype *out, gr_diags *d);
int gr_keep_dtype_parse(const char *text, size_t len, const char *path, gr_keep_dtype *out, gr_diags *d);
/* After matching against the graph: matches(ctx, e) says whether entry e
** marks some node; suggest(ctx, e) the closest node name or op type of the
** graph for an unmatched entry (or NULL; suggest may be NULL). An unmatched
** entry is a warning (GE warns), with the suggestion unless it is the entry's
** own text; an unmatched `OpType::` line whose type is empty or not
** PascalCase ([A-Z][A-Za-z0-9]*) is error E10003, as GE reports it.
** Returns the number of errors. */
int gr_keep_dtype_check(const gr_keep_dtype *k, int (*matches)(void *ctx, const gr_keep_entry *e),
                        const char *(*suggest)(void *ctx, const gr_keep_entry *e), void *ctx, gr_diags *d);
void gr_keep_dtype_free(gr_keep_dtype *k);

/* ---- CUSTOMIZE_DTYPES ---- */
typedef struct gr_cust_entry {
  char *key;              /* the op type (by_type) or node name */
  int by_type;
  const char **in, **out; /* gerules dtype names (table dtypes); NULL = "don't care" (an empty entry) */
  size_t nin, nout;
  uint32_t line, col;
} gr_cust_entry;
typedef struct gr_cust_dtypes { gr_cust_entry *v; size_t n; char *path; } gr_cust_dtypes;

/* rs: the rule set whose tables dtypes and oplib_dtype_spelling name the
** dtypes (DT_ + the upper-cased text, as FE reads it). */
int gr_cust_dtypes_read(const char *path, gr_cust_dtypes *out, const gr_ruleset *rs, const char *family, gr_diags *d);
int gr_cust_dtypes_parse(const char *text, size_t len, const char *path, gr_cust_dtypes *out,
                         const gr_ruleset *rs, const char *family, gr_diags *d);
/* The entry for a node: by name first, then by type (FE's order); NULL when none. */
const gr_cust_entry *gr_cust_dtypes_find(const gr_cust_dtypes *c, const char *node_name, const char *op_type);
/* As gr_keep_dtype_check, for by-name entries matching no node (warnings). */
int gr_cust_dtypes_check(const gr_cust_dtypes *c, int (*matches)(void *ctx, const gr_cust_entry *e),
                         const char *(*suggest)(void *ctx, const gr_cust_entry *e), void *ctx, gr_diags *d);
void gr_cust_dtypes_free(gr_cust_dtypes *c);

#endif
