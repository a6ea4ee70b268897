/*
** file_diag.h: one located diagnostic of an option file (the MODIFY_MIXLIST,
** KEEP_DTYPE and CUSTOMIZE_DTYPES readers): the message, GE's error code and
** the source line, so that the CLI can print the caret.
**
** Ownership: the diagnostic belongs to d; lines and the strings are borrowed.
** gr_file_diag_read's text is the caller's (free()).
*/
#ifndef GR_OPTIONS_FILE_DIAG_H
#define GR_OPTIONS_FILE_DIAG_H

#include <stdint.h>
#include "base/diag.h"
#include "base/lineidx.h"

/* Adds to d a diagnostic at path:line:col with the message fmt (two %s,
** a and b, NULL for ""), GE code `code` (NULL for none) and, when line is
** not 0, that line of `lines` as its snippet; counts an error in *nerr.
** Returns the diagnostic, NULL past d's cap. */
gr_diag *gr_file_diag(gr_diags *d, const char *path, const gr_lineidx *lines, int *nerr, gr_severity sev,
                      uint32_t line, uint32_t col, const char *code, const char *fmt, const char *a, const char *b);

/* Reads the option file at path whole (gr_read_file's bounds and checks).
** On failure adds one error to d with GE code `code` and the message fmt,
** whose two %s are the path and the reason (%.0s skips the path), and
** returns NULL. On success returns the text and its length in *len. */
char *gr_file_diag_read(const char *path, size_t *len, gr_diags *d, const char *code, const char *fmt);

#endif
