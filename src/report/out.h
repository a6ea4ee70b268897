/*
** out.h: buffered output for reports. A gr_out collects bytes in a buffer and
** writes them to a file descriptor in large blocks; when a report goes to a
** file it is written to a temporary name beside it and renamed at the end, so
** a reader never sees a partial report. gr_jw writes JSON on top of it, with
** string escaping and comma bookkeeping; elements down to `pretty` levels of
** nesting go on their own indented lines, deeper ones stay compact.
**
** Ownership: a gr_out owns its buffer and, for files, the temporary file until
** gr_out_close commits (rename) or gr_out_abort removes it.
*/
#ifndef GR_OUT_H
#define GR_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "base/util.h"

typedef struct gr_out {
  int fd;
  char *buf; size_t n, cap;
  int failed;               /* a write failed (errno kept in err) */
  int err;
  char *path, *tmp;         /* atomic file output */
  gr_buf *mem;              /* memory mode: drained into this buffer */
  gr_buf scratch;           /* gr_out_text's rendering */
} gr_out;

void gr_out_init_fd(gr_out *o, int fd);
/* Writes into a growable memory buffer instead of a file descriptor (for
** rendering pieces to cache); gr_out_finish_buf flushes into b. */
void gr_out_init_buf(gr_out *o, gr_buf *b);
void gr_out_finish_buf(gr_out *o);
/* A temporary beside path (mkstemp in its directory), renamed over path by
** gr_out_close. Refuses a path that exists and is not a regular file (a
** symlink, device, FIFO or directory). */
int  gr_out_open_file(gr_out *o, const char *path, gr_error *e);
/* -1 with e set when path names the same file (device and inode) as one of
** inputs[0..n) (NULL and "-" entries are skipped). */
int  gr_out_check_inputs(const char *path, const char *const *inputs, size_t n, gr_error *e);
void gr_out_write_slow(gr_out *o, const void *p, size_t n);
static inline void gr_out_write(gr_out *o, const void *p, size_t n){
  if( o->n + n <= o->cap ){
    memcpy(o->buf + o->n, p, n);
    o->n += n;
  }else{
    gr_out_write_slow(o, p, n);
  }
}
void gr_out_puts(gr_out *o, const char *s);
static inline void gr_out_putc(gr_out *o, char c){
  if( o->n < o->cap ) o->buf[o->n++] = c;
  else gr_out_write_slow(o, &c, 1);
}
void gr_out_printf(gr_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gr_out_int(gr_out *o, int64_t v);
void gr_out_json_str(gr_out *o, const char *s);     /* quoted, escaped; NULL -> null */
/* Text from an input (a node name, an op type, an option value) for a text
** report: control bytes escaped (gr_buf_add_printable), cut at cap columns
** (0 = no cap), then padded with spaces to width. NULL writes "-". */
void gr_out_text(gr_out *o, const char *s, size_t width, size_t cap);
/* The width gr_out_text would give s under cap. */
size_t gr_text_width(const char *s, size_t cap);
/* Column caps of the text reports (eval's node table, tile's node lines):
** input text (a 16 MB op type) must not make a line that wide. */
#define GR_TEXT_NAME_CAP 60
#define GR_TEXT_TYPE_CAP 40
#define GR_TEXT_CELL_CAP 80
int  gr_out_flush(gr_out *o);
int  gr_out_close(gr_out *o, gr_error *e);          /* flush, fsync-free rename for files */
void gr_out_abort(gr_out *o);                       /* discard (removes the temp file) */

/* The schema_version member every JSON document of gerules starts with
** (doc/schemas/ states it; bumped when a document changes incompatibly). */
#define GR_JSON_SCHEMA_VERSION 1
#define gr_jw_schema_version(w) (gr_jw_key((w), "schema_version"), gr_jw_int((w), GR_JSON_SCHEMA_VERSION))
/* The eval report and its --explain document (eval.schema.json,
** eval-explain.schema.json): 2 since nodes carry dtype_detail (the dtype
** and engine judge's per-tensor outcome; doc/json-schema.md section 9). */
#define GR_JSON_EVAL_SCHEMA_VERSION 2
#define gr_jw_eval_schema_version(w) (gr_jw_key((w), "schema_version"), gr_jw_int((w), GR_JSON_EVAL_SCHEMA_VERSION))

typedef struct gr_jw {
  gr_out *o;
  int depth, pretty;
  int brk;                      /* gr_jw_break: a newline after the next ',' */
  uint8_t first[64];
} gr_jw;

void gr_jw_init(gr_jw *w, gr_out *o, int pretty);
void gr_jw_obj(gr_jw *w);
void gr_jw_end(gr_jw *w, char close);   /* '}' or ']' */
void gr_jw_arr(gr_jw *w);
void gr_jw_key(gr_jw *w, const char *k);
void gr_jw_str(gr_jw *w, const char *s);
void gr_jw_int(gr_jw *w, int64_t v);
void gr_jw_bool(gr_jw *w, int b);
void gr_jw_null(gr_jw *w);
void gr_jw_raw(gr_jw *w, const char *s);   /* a value already in JSON form */
/* A value the caller writes to w->o itself, right after this call (another
** writer's document, a number in a fixed format). */
void gr_jw_value(gr_jw *w);
/* A compact document (pretty 0) broken into lines: the next separator ','
** is followed by a newline (the HTML page's data). */
void gr_jw_break(gr_jw *w);
#define gr_jw_end_obj(w) gr_jw_end((w), '}')
#define gr_jw_end_arr(w) gr_jw_end((w), ']')

#endif
