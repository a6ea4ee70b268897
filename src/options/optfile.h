/*
** optfile.h: user option inputs gathered from the command line (-o) and from
** options files (--options FILE, JSON object or key=value lines).
**
** Ownership: a gr_optinputs owns its gr_input records and every string in
** them (keys, values, file names), freed by gr_optinputs_free.
*/
#ifndef GR_OPTFILE_H
#define GR_OPTFILE_H

#include "base/util.h"
#include "options/input.h"

typedef struct gr_optinputs {
  gr_input *v; size_t n, cap;
  gr_arena arena;
} gr_optinputs;

void gr_optinputs_init(gr_optinputs *o);
void gr_optinputs_add(gr_optinputs *o, const char *key, size_t kn, const char *val, size_t vn,
                      const char *file, uint32_t line, uint32_t col);
/* Appends the options of a file; on a malformed file returns -1 with err
** located (line/col) and nothing appended after the error. */
int  gr_optfile_read(gr_optinputs *o, const char *path, gr_error *err);
int  gr_optfile_parse(gr_optinputs *o, const char *file, const char *text, size_t len, gr_error *err);
void gr_optinputs_free(gr_optinputs *o);

#endif
