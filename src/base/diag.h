/*
** diag.h: diagnostics as data. Every stage (rule parser, checker, option and
** ini readers, evaluator, hooks) appends gr_diag records to a gr_diags list;
** reporters format them (compiler style with a caret line, or JSON). The
** library never prints.
**
** Ownership: a gr_diags owns its records and every string in them;
** gr_diags_free releases all. Strings passed to gr_diags_add and the
** gr_diag_set_* helpers are copied.
*/
#ifndef GR_DIAG_H
#define GR_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include "base/util.h"

/* Where a user-supplied value came from (an option, an ini entry). */
typedef struct gr_origin {
  const char *file;       /* "<command line>", an options file or an ini file */
  uint32_t line, col;     /* 0 when not from a file */
} gr_origin;

typedef enum gr_severity { GR_SEV_NOTE = 0, GR_SEV_WARNING = 1, GR_SEV_ERROR = 2 } gr_severity;

typedef struct gr_diag {
  gr_severity sev;
  char *code;          /* stable code from the rules (e.g. "GE1001"), or NULL */
  char *ge_code;       /* the error code GE itself raises for this (e.g. "E10006"), or NULL */
  char *msg;
  char *file;          /* input file the location refers to, or NULL */
  uint32_t line, col;  /* 1-based; 0 = unknown */
  char *snippet;       /* the source line for a caret display, or NULL */
  char *option;        /* option the diagnostic is about, or NULL */
  char *node;          /* node the diagnostic is about, or NULL */
  char *rule;          /* "file:line" of the rule that produced it, or NULL */
  char *changed_by;    /* a hook that changed its severity: "file:line: reason", or NULL */
  gr_severity orig_sev;/* the severity the rules gave it */
  /* With ATC's gears (api/gears.h): the 1-based gears this diagnostic
  ** arises in, ascending, when not every gear has it; else NULL, 0. */
  uint32_t *gears;
  uint32_t ngears;
} gr_diag;

typedef struct gr_diags {
  gr_diag *v;
  size_t n, cap;
  size_t count[3];     /* by severity */
  /* An optional cap on the errors kept (gr_diags_cap_errors): past it an
  ** error is counted in `dropped` and written to `spill`, a scratch record
  ** reused for each, so callers may still fill in the record they get. */
  size_t error_cap;    /* 0: no cap */
  size_t dropped;
  /* Warnings and notes kept per input file: at most GR_DIAGS_PER_FILE. An
  ** input of many small bad lines (a 64 MB ini of lines without '=') would
  ** otherwise make tens of millions of records, gigabytes of memory. Past
  ** the cap one note says so, and the rest go to `spill`, counted in
  ** `dropped_minor`. Diagnostics without a file are not capped. */
  struct gr_diags_file { char *file; size_t n; } *files;
  size_t nfiles;
  size_t dropped_minor;
  gr_diag spill;
} gr_diags;

void     gr_diags_init(gr_diags *d);
gr_diag *gr_diags_add(gr_diags *d, gr_severity sev, const char *file, uint32_t line, uint32_t col,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
gr_diag *gr_diags_vadd(gr_diags *d, gr_severity sev, const char *file, uint32_t line, uint32_t col,
                       const char *fmt, va_list ap);
void     gr_diag_set(char **field, const char *value);       /* copies value (NULL clears) */
/* Keeps at most `more` further errors (0: no cap); returns the previous cap
** to restore. The first error past the cap adds one note, "too many errors;
** stopping (only the first N are reported)", as gcc's -fmax-errors does;
** later ones are only counted in d->dropped. */
size_t   gr_diags_cap_errors(gr_diags *d, size_t more);
#define GR_DIAGS_PER_FILE 1000
/* When a warning or note from file would not be listed (its file is past
** GR_DIAGS_PER_FILE): counts it as gr_diags_add would and returns 1, so the
** caller need not build its message; else 0, nothing changed. */
int      gr_diags_drop_minor(gr_diags *d, gr_severity sev, const char *file);
void     gr_diags_free(gr_diags *d);
/* Removes (and frees) the records drop says to, keeping the others in
** order and the counts by severity right; returns how many went. */
size_t   gr_diags_remove_if(gr_diags *d, int (*drop)(void *ud, const gr_diag *x), void *ud);
static inline size_t gr_diags_errors(const gr_diags *d){ return d->count[GR_SEV_ERROR]; }

const char *gr_severity_name(gr_severity s);

/* Whether code is a valid diagnostic code: capital letters then digits,
** at most 32 bytes ("GE1001"). The one rule for the codes of rule files and
** of hooks; GR_DIAG_CODE_RULE says it in words for error messages. */
int gr_diag_code_valid(const char *code);
#define GR_DIAG_CODE_RULE "capital letters then digits (e.g. GE1001)"

/* Formats one diagnostic the way gcc does into out:
**   file:line:col: severity: message [CODE] [GE E10001]
**    source line
**        ^
** (the last two lines only when a snippet is present). Input text is
** escaped (gr_buf_add_printable). _ex takes the source line from the caller
** when the record has none (snippet NULL: the record's own), and colours
** the line with SGR escapes as gcc does when color is set. */
void gr_diag_format(gr_buf *out, const gr_diag *d);
/* d's gears as the text reports tag it ("gear 2", "gears 1-3, 5"); nothing
** when d->ngears is 0. */
void gr_diag_gears_text(gr_buf *out, const gr_diag *d);
void gr_diag_format_ex(gr_buf *out, const gr_diag *d, const char *snippet, size_t snippet_len, int color);

#endif
