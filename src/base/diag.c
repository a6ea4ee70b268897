/*
** diag.c: the diagnostics list and its compiler-style formatting (file:line:
** col: severity: message, then the source line and a caret under the column).
*/
#include "config.h"
#include "base/diag.h"

#include <stdlib.h>
#include <string.h>

void gr_diags_init(gr_diags *d){ memset(d, 0, sizeof *d); }

static void diag_clear(gr_diag *x){
  free(x->code); free(x->ge_code); free(x->msg); free(x->file); free(x->snippet);
  free(x->option); free(x->node); free(x->rule); free(x->changed_by); free(x->gears);
  memset(x, 0, sizeof *x);
}

size_t gr_diags_cap_errors(gr_diags *d, size_t more){
  size_t prev = d->error_cap;
  d->error_cap = more ? d->count[GR_SEV_ERROR] + more : 0;
  return prev;
}

/* A new listed record of severity sev, zeroed but for its severity. */
static gr_diag *new_record(gr_diags *d, gr_severity sev){
  gr_diag *x;
  if( d->n==d->cap ){
    d->cap = d->cap ? d->cap * 2 : 16;
    d->v = gr_xrealloc(d->v, d->cap * sizeof *d->v);
  }
  x = &d->v[d->n++];
  memset(x, 0, sizeof *x);
  d->count[sev]++;
  x->sev = x->orig_sev = sev;
  return x;
}

/* The index of file in d->files, d->nfiles when it has none. The distinct
** files of one run are few (the rule files, an ini, an options file, the
** model), so a linear search is enough. */
static size_t file_index(const gr_diags *d, const char *file){
  size_t i;
  for(i = 0; i < d->nfiles; i++) if( strcmp(d->files[i].file, file)==0 ) break;
  return i;
}

/* Counts one more warning or note from d->files[i]; whether it is past
** GR_DIAGS_PER_FILE (the first time, the note that says so is added). */
static int count_minor(gr_diags *d, size_t i){
  if( d->files[i].n < GR_DIAGS_PER_FILE ){ d->files[i].n++; return 0; }
  if( d->files[i].n++==GR_DIAGS_PER_FILE ){
    gr_diag *x = new_record(d, GR_SEV_NOTE);
    x->file = gr_xstrdup(d->files[i].file);
    x->msg = gr_xasprintf("too many warnings and notes for this file; only the first %d are listed", GR_DIAGS_PER_FILE);
  }
  d->dropped_minor++;
  return 1;
}

/* Whether one more warning or note from file is past GR_DIAGS_PER_FILE. */
static int minor_capped(gr_diags *d, const char *file){
  size_t i = file_index(d, file);
  if( i==d->nfiles ){
    d->files = gr_xrealloc(d->files, (d->nfiles + 1) * sizeof *d->files);
    d->files[i].file = gr_xstrdup(file);
    d->files[i].n = 0;
    d->nfiles++;
  }
  return count_minor(d, i);
}

int gr_diags_drop_minor(gr_diags *d, gr_severity sev, const char *file){
  size_t i;
  if( sev==GR_SEV_ERROR || file==NULL ) return 0;
  i = file_index(d, file);
  if( i==d->nfiles || d->files[i].n < GR_DIAGS_PER_FILE ) return 0;
  return count_minor(d, i);
}

gr_diag *gr_diags_vadd(gr_diags *d, gr_severity sev, const char *file, uint32_t line, uint32_t col,
                       const char *fmt, va_list ap){
  gr_diag *x;
  gr_buf b;
  if( sev!=GR_SEV_ERROR && file && minor_capped(d, file) ){
    /* not listed: the caller may still fill in the record, nothing more */
    x = &d->spill;
    diag_clear(x);
    x->sev = x->orig_sev = sev;
    x->msg = gr_xstrdup("");
    return x;
  }else if( sev==GR_SEV_ERROR && d->error_cap && d->count[GR_SEV_ERROR] >= d->error_cap ){
    if( d->dropped++==0 ){
      size_t cap = d->error_cap;
      d->error_cap = 0;
      gr_diags_add(d, GR_SEV_NOTE, NULL, 0, 0, "too many errors; stopping (only the first %zu are reported)", cap);
      d->error_cap = cap;
    }
    x = &d->spill;
    diag_clear(x);
  }else{
    x = new_record(d, sev);
  }
  x->sev = sev;
  x->orig_sev = sev;
  x->file = file ? gr_xstrdup(file) : NULL;
  x->line = line; x->col = col;
  gr_buf_init(&b);
  gr_buf_vprintf(&b, fmt, ap);
  x->msg = gr_buf_detach(&b);
  return x;
}

gr_diag *gr_diags_add(gr_diags *d, gr_severity sev, const char *file, uint32_t line, uint32_t col,
                      const char *fmt, ...){
  va_list ap;
  gr_diag *x;
  va_start(ap, fmt);
  x = gr_diags_vadd(d, sev, file, line, col, fmt, ap);
  va_end(ap);
  return x;
}

void gr_diag_set(char **field, const char *value){
  free(*field);
  *field = value ? gr_xstrdup(value) : NULL;
}

void gr_diags_free(gr_diags *d){
  size_t i;
  if( d==NULL ) return;
  for(i = 0; i < d->n; i++) diag_clear(&d->v[i]);
  diag_clear(&d->spill);
  for(i = 0; i < d->nfiles; i++) free(d->files[i].file);
  free(d->files);
  free(d->v);
  memset(d, 0, sizeof *d);
}

size_t gr_diags_remove_if(gr_diags *d, int (*drop)(void *ud, const gr_diag *x), void *ud){
  size_t i, k = 0, n = d->n;
  for(i = 0; i < n; i++){
    if( drop(ud, &d->v[i]) ){
      d->count[d->v[i].sev]--;
      diag_clear(&d->v[i]);
      continue;
    }
    if( k!=i ) d->v[k] = d->v[i];
    k++;
  }
  d->n = k;
  return n - k;
}

int gr_diag_code_valid(const char *code){
  const char *p = code;
  if( code==NULL || strlen(code) > 32 || !(*p >= 'A' && *p <= 'Z') ) return 0;
  while( *p >= 'A' && *p <= 'Z' ) p++;
  if( !(*p >= '0' && *p <= '9') ) return 0;
  while( *p >= '0' && *p <= '9' ) p++;
  return *p==0;
}

const char *gr_severity_name(gr_severity s){
  switch( s ){
    case GR_SEV_ERROR: return "error";
    case GR_SEV_WARNING: return "warning";
    default: return "note";
  }
}

/* Everything that came from an input (file names, messages naming nodes,
** source lines) is written through gr_buf_add_printable, so a node name
** holding an escape sequence or a newline cannot reach the terminal raw or
** forge a diagnostic line. */
static void add_text(gr_buf *out, const char *s){ gr_buf_add_printable(out, s, strlen(s), 0); }

/* A message may span lines (a Lua traceback): tabs stay, and every line after
** the first is indented by two spaces, so no line of it starts at column 1
** where it could pass for a diagnostic of its own. */
static void add_message(gr_buf *out, const char *s){
  for(;;){
    size_t n = strcspn(s, "\n\t");
    gr_buf_add_printable(out, s, n, 0);
    s += n;
    if( *s==0 ) break;
    gr_buf_adds(out, *s=='\t' ? "\t" : "\n  ");
    s++;
  }
}

/* SGR colours as gcc uses them (GCC_COLORS' defaults): bold locations,
** bold red errors, bold magenta warnings, bold cyan notes, green carets. */
#define C_BOLD  "\033[1m"
#define C_RESET "\033[m"
static const char *sev_color(gr_severity s){
  return s==GR_SEV_ERROR ? "\033[1;31m" : s==GR_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
}

void gr_diag_gears_text(gr_buf *out, const gr_diag *d){
  uint32_t i = 0, j;
  if( d->ngears==0 ) return;
  gr_buf_adds(out, d->ngears==1 ? "gear " : "gears ");
  while( i < d->ngears ){                /* runs of consecutive gears as "a-b" */
    for(j = i; j + 1 < d->ngears && d->gears[j + 1]==d->gears[j] + 1; j++) ;
    gr_buf_printf(out, "%s%u", i ? ", " : "", d->gears[i]);
    if( j > i ) gr_buf_printf(out, "%s%u", j==i + 1 ? ", " : "-", d->gears[j]);
    i = j + 1;
  }
}

void gr_diag_format_ex(gr_buf *out, const gr_diag *d, const char *snippet, size_t snlen, int color){
  if( snippet==NULL && d->snippet ){ snippet = d->snippet; snlen = strlen(snippet); }
  if( snippet && d->col && d->col - 1 > snlen ) snippet = NULL;    /* past a cut line: no wrong caret */
  if( d->file ){
    if( color ) gr_buf_adds(out, C_BOLD);
    add_text(out, d->file);
    if( d->line ){
      gr_buf_printf(out, ":%u", d->line);
      if( d->col ) gr_buf_printf(out, ":%u", d->col);
    }
    gr_buf_adds(out, ":");
    if( color ) gr_buf_adds(out, C_RESET);
    gr_buf_adds(out, " ");
  }
  if( color ) gr_buf_printf(out, "%s%s:" C_RESET " ", sev_color(d->sev), gr_severity_name(d->sev));
  else gr_buf_printf(out, "%s: ", gr_severity_name(d->sev));
  add_message(out, d->msg);
  if( d->ngears ){
    gr_buf_adds(out, " [");
    gr_diag_gears_text(out, d);
    gr_buf_adds(out, "]");
  }
  if( d->changed_by ){
    gr_buf_printf(out, " [%s by ", d->sev < d->orig_sev ? "downgraded" : "raised");
    add_text(out, d->changed_by);
    gr_buf_adds(out, "]");
  }
  if( d->code ){
    gr_buf_adds(out, " [");
    if( color ) gr_buf_adds(out, sev_color(d->sev));
    add_text(out, d->code);
    if( color ) gr_buf_adds(out, C_RESET);
    gr_buf_adds(out, "]");
  }
  if( d->ge_code ){ gr_buf_adds(out, " [GE "); add_text(out, d->ge_code); gr_buf_adds(out, "]"); }
  gr_buf_addc(out, '\n');
  if( snippet ){
    /* a window of the line around the column, so a huge line stays readable */
    size_t len = snlen, from = 0, to = len, i, w;
    size_t col = d->col ? d->col - 1 : 0;
    if( len && snippet[len-1]=='\r' ) len--, to--;
    if( col > len ) col = len;
    if( len > 160 ){
      from = col > 70 ? col - 70 : 0;
      to = from + 150 < len ? from + 150 : len;
    }
    gr_buf_adds(out, from ? " ..." : " ");
    gr_buf_add_printable(out, snippet + from, to - from, 0);
    gr_buf_adds(out, to < len ? "...\n" : "\n");
    if( d->col==0 ) return;              /* a line but no column: no caret */
    gr_buf_adds(out, " ");
    if( from ) gr_buf_adds(out, "   ");
    /* the caret goes under the same column of the escaped line */
    w = gr_buf_add_printable(NULL, snippet + from, (col < to ? col : to) - from, 0);
    for(i = 0; i < w; i++) gr_buf_addc(out, ' ');
    gr_buf_adds(out, color ? "\033[1;32m^" C_RESET "\n" : "^\n");
  }
}

void gr_diag_format(gr_buf *out, const gr_diag *d){ gr_diag_format_ex(out, d, NULL, 0, 0); }
