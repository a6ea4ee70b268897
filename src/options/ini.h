/*
** ini.h: the reader for ini-format option files (op_precision.ini), following
** GE's own parser line by line: '#' comments, [Section] headers, lines before
** any header in the initial section, key=value split at the first '=', both
** sides trimmed, empty keys or values skipped with a warning, values checked
** against the declared modes or strings (unknown ones skipped with a
** warning), and the first entry of a key in a section wins. Which sections
** exist and what their keys match comes from the rule set (format ini).
**
** Ownership: a gr_ini owns its entries, maps and strings; gr_ini_free frees
** all (NULL is fine). The reader never modifies the file.
*/
#ifndef GR_INI_H
#define GR_INI_H

#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "base/diag.h"

struct gr_format;
struct gr_ruleset;

typedef struct gr_ini_entry {
  const char *key, *value;
  uint32_t line;
  gr_origin origin;       /* file:line:col of the value */
  int section;            /* index into the format's sections */
  int matched;            /* set by the evaluator: the key names something in the graph */
  const char *suggestion; /* set by the evaluator when not matched: "; did you mean 'x'?" or "" */
  const char *parts;      /* set by the evaluator when a node-name key names an ONNX node GE split:
                          ** the names of its parts, ", "-joined (model/onnx_parts.h); else "" */
} gr_ini_entry;

typedef struct gr_ini {
  char *path;
  gr_ini_entry *v; size_t n;      /* kept entries, file order */
  gr_map *by_section;             /* per section: key -> entry index + 1 */
  size_t nsections;
  gr_arena arena;
} gr_ini;

/* Reads path with the given format. Warnings and notes (skipped lines,
** duplicates) go to diags with `option` set to option_name; returns NULL
** with err filled when the file cannot be read. */
gr_ini *gr_ini_read(const char *path, const struct gr_format *fmt, const struct gr_ruleset *rs,
                    const char *option_name, gr_diags *diags, gr_error *err);
gr_ini *gr_ini_parse(const char *path, const char *text, size_t len, const struct gr_format *fmt,
                     const struct gr_ruleset *rs, const char *option_name, gr_diags *diags);
const gr_ini_entry *gr_ini_get(const gr_ini *ini, int section, const char *key);
void gr_ini_free(gr_ini *ini);

#endif
