/*
** input.h: one option as the user gave it (-o KEY=VALUE, a line of an
** --options file, a flag of an ATC command line), with what the evaluator
** found out about it. options/ gathers these records (optfile.h); eval/
** fills their second half and reports on them (eval.h).
**
** Ownership: a gr_input borrows its key, value and origin strings from
** whoever gathered it (gr_optinputs owns those it made); problem and
** suggestion belong to the gr_result that set them.
*/
#ifndef GR_OPTIONS_INPUT_H
#define GR_OPTIONS_INPUT_H

#include "base/diag.h"

/* One option as the user gave it (-o KEY=VALUE or a line of --options FILE). */
typedef struct gr_input {
  const char *key, *value;      /* as written */
  gr_origin origin;
  /* filled by gr_eval: */
  int option;                   /* option index, -1 when unknown */
  int valid;
  const char *problem;          /* why it is invalid, or NULL */
  const char *suggestion;       /* "; did you mean 'X'?" or "" */
  int effective;                /* not overridden by a later input, not excluded by a relation */
  int overridden_by;            /* index of the later input that replaced it, or -1 */
} gr_input;

#endif
