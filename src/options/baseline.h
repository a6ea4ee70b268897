/*
** baseline.h: the findings a CI gate accepts (gerules eval --baseline FILE):
** either a previous JSON report of `gerules eval --format json` (its
** diagnostics[] are accepted as they are) or a suppression file, a JSON
** object {"suppressions": [{"code", "reason", optional "node", "option",
** "message" (a part of the message) and "expires" (YYYY-MM-DD)}]}
** (doc/json-schema.md, "baselines"). Read with the gr_js tokenizer like
** every JSON input. Accepting a finding keeps it in the report as a note
** whose changed_by says which entry accepted it and why; a suppression
** past its expiry date accepts nothing and is an error (GR0401) at its line.
**
** Ownership: a gr_baseline owns its entries and every string in them,
** released by gr_baseline_free; the file name is copied.
*/
#ifndef GR_BASELINE_H
#define GR_BASELINE_H

#include "base/diag.h"
#include "base/util.h"

typedef struct gr_baseline_entry {
  char *code, *node, *option, *message;   /* NULL: any (a report's null: none) */
  char *reason;                 /* a suppression's reason; NULL for a report entry */
  char *expires;                /* "YYYY-MM-DD", or NULL */
  uint32_t line, col;           /* where the entry starts in the file */
} gr_baseline_entry;

typedef struct gr_baseline {
  char *file;
  int report;                   /* 1: a previous report (exact match), 0: suppressions */
  gr_baseline_entry *v; size_t n, cap;
} gr_baseline;

/* 0, or -1 with err located (line, col) on a malformed or unreadable file. */
int  gr_baseline_read(gr_baseline *b, const char *path, gr_error *err);
int  gr_baseline_parse(gr_baseline *b, const char *file, const char *text, size_t len, gr_error *err);
void gr_baseline_free(gr_baseline *b);
/* Accepts the findings of d the baseline lists (warnings and errors become
** notes, changed_by naming the entry); adds a GR0401 error per suppression
** expired before today ("YYYY-MM-DD"). Returns the number accepted. */
size_t gr_baseline_apply(const gr_baseline *b, gr_diags *d, const char *today);

#endif
