/*
** out.c: buffered, atomic report output and a small JSON writer. The string
** escaper scans runs of plain bytes and copies them in one go, because node
** names dominate the size of a JSON report on large graphs.
*/
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "report/out.h"
#if defined(__SSE2__)
# include <emmintrin.h>
#endif

#define OUT_CAP (1u << 18)

void gr_out_init_fd(gr_out *o, int fd){
  memset(o, 0, sizeof *o);
  o->fd = fd;
  o->cap = OUT_CAP;
  o->buf = gr_xmalloc(o->cap);
}

/* The target must be a regular file or not exist yet: a device, FIFO,
** directory or symbolic link would be replaced by a regular file by the
** rename (or the write would go where the user did not ask), so it is
** refused with a message saying so. The temporary is created with mkstemp
** (O_CREAT|O_EXCL, a random name, never following a symlink) in the target's
** directory, so the rename stays on one file system; it gets the mode a new
** file would get (0666 minus the umask), or the replaced file's mode. */
int gr_out_open_file(gr_out *o, const char *path, gr_error *e){
  struct stat st;
  const char *slash = strrchr(path, '/');
  char *tmp;
  mode_t mode, um;
  int fd;
  if( *path==0 ){ gr_error_set(e, 0, 0, "--output needs a file name"); return -1; }
  if( lstat(path, &st)==0 ){
    if( S_ISLNK(st.st_mode) ){
      gr_error_set(e, 0, 0, "will not write %s: it is a symbolic link (give the file it points to)", path);
      return -1;
    }
    if( !S_ISREG(st.st_mode) ){
      gr_error_set(e, 0, 0, "will not write %s: it is not a regular file (%s)", path,
                   S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a character device" :
                   S_ISBLK(st.st_mode) ? "a block device" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a special file");
      return -1;
    }
    mode = st.st_mode & 07777;
  }else if( errno!=ENOENT ){
    gr_error_set(e, 0, 0, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }else{
    um = umask(0); umask(um);
    mode = 0666 & ~um;
  }
  if( slash ) tmp = gr_xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
  else tmp = gr_xasprintf(".%s.XXXXXX", path);
  fd = mkostemp(tmp, O_CLOEXEC);
  if( fd < 0 ){
    gr_error_set(e, 0, 0, "cannot write %s: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  if( fchmod(fd, mode)!=0 ){ /* keep mkstemp's 0600: safe, only less open */ }
  gr_out_init_fd(o, fd);
  o->path = gr_xstrdup(path);
  o->tmp = tmp;
  return 0;
}

int gr_out_check_inputs(const char *path, const char *const *inputs, size_t n, gr_error *e){
  struct stat out, in;
  size_t i;
  if( stat(path, &out)!=0 ) return 0;           /* a new file is no input */
  for(i = 0; i < n; i++){
    if( inputs[i]==NULL || strcmp(inputs[i], "-")==0 || stat(inputs[i], &in)!=0 ) continue;
    if( in.st_dev==out.st_dev && in.st_ino==out.st_ino ){
      gr_error_set(e, 0, 0, "will not write %s: it is one of the inputs (%s)", path, inputs[i]);
      return -1;
    }
  }
  return 0;
}

void gr_out_init_buf(gr_out *o, gr_buf *b){
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->mem = b;
  o->cap = 4096;
  o->buf = gr_xmalloc(o->cap);
}

static void drain(gr_out *o){
  size_t off = 0;
  if( o->mem ){
    gr_buf_add(o->mem, o->buf, o->n);
    o->n = 0;
    return;
  }
  while( off < o->n && !o->failed ){
    ssize_t k = write(o->fd, o->buf + off, o->n - off);
    if( k < 0 ){
      if( errno==EINTR ) continue;
      o->failed = 1; o->err = errno;
      break;
    }
    off += (size_t)k;
  }
  o->n = 0;
}

void gr_out_write_slow(gr_out *o, const void *p, size_t n){
  if( o->n + n > o->cap ){
    drain(o);
    if( n > o->cap ){
      size_t save = o->n;
      char *b = o->buf;
      o->buf = (char*)p; o->n = n;
      drain(o);
      o->buf = b; o->n = save;
      return;
    }
  }
  memcpy(o->buf + o->n, p, n);
  o->n += n;
}
void gr_out_puts(gr_out *o, const char *s){ gr_out_write(o, s, strlen(s)); }

void gr_out_printf(gr_out *o, const char *fmt, ...){
  char small[512];
  va_list ap;
  int k;
  va_start(ap, fmt);
  k = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if( k < 0 ) return;
  if( (size_t)k < sizeof small ){ gr_out_write(o, small, (size_t)k); return; }
  {
    char *big = gr_xmalloc((size_t)k + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)k + 1, fmt, ap);
    va_end(ap);
    gr_out_write(o, big, (size_t)k);
    free(big);
  }
}
void gr_out_int(gr_out *o, int64_t v){
  char tmp[24], *p = tmp + sizeof tmp;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do{ *--p = (char)('0' + u % 10); u /= 10; }while( u );
  if( v < 0 ) *--p = '-';
  gr_out_write(o, p, (size_t)(tmp + sizeof tmp - p));
}

/* Length of the valid UTF-8 sequence starting at p (>= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p){
  if( p[0] >= 0xc2 && p[0] <= 0xdf ) return (p[1] & 0xc0)==0x80 ? 2 : 0;
  if( p[0] >= 0xe0 && p[0] <= 0xef ){
    if( (p[1] & 0xc0)!=0x80 || (p[2] & 0xc0)!=0x80 ) return 0;
    if( p[0]==0xe0 && p[1] < 0xa0 ) return 0;            /* overlong */
    if( p[0]==0xed && p[1] >= 0xa0 ) return 0;           /* surrogates */
    return 3;
  }
  if( p[0] >= 0xf0 && p[0] <= 0xf4 ){
    if( (p[1] & 0xc0)!=0x80 || (p[2] & 0xc0)!=0x80 || (p[3] & 0xc0)!=0x80 ) return 0;
    if( p[0]==0xf0 && p[1] < 0x90 ) return 0;
    if( p[0]==0xf4 && p[1] >= 0x90 ) return 0;
    return 4;
  }
  return 0;
}

/* True when one of the 8 bytes of w needs attention in a JSON string: a
** control byte (< 0x20), '"', '\\', DEL or a non-ASCII byte (checked for
** UTF-8 validity one at a time). Classic SWAR byte tests. */
static inline int word_special(uint64_t w){
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  uint64_t lt20 = (w - ones * 0x20) & ~w;
  uint64_t q = w ^ (ones * 0x22), bs = w ^ (ones * 0x5c), del = w ^ (ones * 0x7f);
  uint64_t eq = ((q - ones) & ~q) | ((bs - ones) & ~bs) | ((del - ones) & ~del);
  return ((lt20 | eq) & high) != 0 || (w & high) != 0;
}

#if defined(__SSE2__)
/* The bytes of the 16 at p that a JSON string cannot hold as they are. */
static inline unsigned special16(const unsigned char *p){
  const __m128i v = _mm_loadu_si128((const __m128i*)(const void*)p);
  return (unsigned)_mm_movemask_epi8(_mm_or_si128(
    _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))),
    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
}
#endif

/* How many of the n bytes at p a JSON string can hold as they are, before
** the first control byte, '"', '\\', DEL or non-ASCII byte: sixteen per SSE2
** compare, the last few in one 16-byte block that ends with the string (so
** nothing past it is read), eight at a time with word_special without SSE2. */
static size_t plain_prefix(const unsigned char *p, size_t n){
  size_t i = 0;
#if defined(__SSE2__)
  while( n - i >= 16 ){
    unsigned m = special16(p + i);
    if( m ) return i + (size_t)__builtin_ctz(m);
    i += 16;
  }
  if( i < n && n >= 16 ){       /* the rest, as the end of the last 16 bytes */
    unsigned m = special16(p + n - 16) >> (16 - (n - i));   /* the bits of p[i..n) */
    return m ? i + (size_t)__builtin_ctz(m) : n;
  }
#else
  while( n - i >= 8 ){
    uint64_t w;
    memcpy(&w, p + i, 8);
    if( word_special(w) ) break;
    i += 8;
  }
#endif
  while( i < n && p[i] >= 0x20 && p[i] < 0x7f && p[i]!='"' && p[i]!='\\' ) i++;
  return i;
}

/* Writes s as a JSON string. Inputs (option values, ini keys) may hold any
** bytes: invalid UTF-8 becomes U+FFFD so the report is always valid JSON.
** Runs of plain ASCII are found 16 bytes at a time (plain_prefix): node
** names and reasons make up most of a large report. */
void gr_out_json_str(gr_out *o, const char *s){
  const unsigned char *p = (const unsigned char*)s, *run, *end;
  if( s==NULL ){ gr_out_write(o, "null", 4); return; }
  end = p + strlen(s);
  gr_out_putc(o, '"');
  for(;;){
    run = p;
    p += plain_prefix(p, (size_t)(end - p));
    if( p > run ) gr_out_write(o, run, (size_t)(p - run));
    if( p >= end ) break;
    if( *p >= 0x80 ){
      size_t k = utf8_len(p);
      if( k ){ gr_out_write(o, p, k); p += k; }
      else{ gr_out_write(o, "\\ufffd", 6); p++; }
      continue;
    }
    switch( *p ){
      case '"': gr_out_write(o, "\\\"", 2); break;
      case '\\': gr_out_write(o, "\\\\", 2); break;
      case '\n': gr_out_write(o, "\\n", 2); break;
      case '\t': gr_out_write(o, "\\t", 2); break;
      case '\r': gr_out_write(o, "\\r", 2); break;
      default: {
        char u[8];
        snprintf(u, sizeof u, "\\u%04x", *p);
        gr_out_write(o, u, 6);
      }
    }
    p++;
  }
  gr_out_putc(o, '"');
}

void gr_out_text(gr_out *o, const char *s, size_t width, size_t cap){
  size_t w;
  if( s==NULL ) s = "-";
  o->scratch.n = 0;
  w = gr_buf_add_printable(&o->scratch, s, strlen(s), cap);
  gr_out_write(o, o->scratch.p, o->scratch.n);
  for(; w < width; w++) gr_out_putc(o, ' ');
}

size_t gr_text_width(const char *s, size_t cap){
  return gr_buf_add_printable(NULL, s ? s : "-", s ? strlen(s) : 1, cap);
}

void gr_out_finish_buf(gr_out *o){
  drain(o);
  gr_buf_free(&o->scratch);
  free(o->buf);
  o->buf = NULL;
}

int gr_out_flush(gr_out *o){
  drain(o);
  return o->failed ? -1 : 0;
}

int gr_out_close(gr_out *o, gr_error *e){
  int rc = gr_out_flush(o);
  if( rc!=0 ) gr_error_set(e, 0, 0, "write error: %s", strerror(o->err));
  if( o->tmp ){
    if( close(o->fd)!=0 && rc==0 ){ rc = -1; gr_error_set(e, 0, 0, "write error: %s", strerror(errno)); }
    if( rc==0 && rename(o->tmp, o->path)!=0 ){ rc = -1; gr_error_set(e, 0, 0, "cannot rename to %s: %s", o->path, strerror(errno)); }
    if( rc!=0 ) unlink(o->tmp);
  }
  free(o->buf); free(o->tmp); free(o->path);
  gr_buf_free(&o->scratch);
  o->buf = o->tmp = o->path = NULL;
  return rc;
}

void gr_out_abort(gr_out *o){
  if( o->tmp ){ close(o->fd); unlink(o->tmp); }
  free(o->buf); free(o->tmp); free(o->path);
  gr_buf_free(&o->scratch);
  o->buf = o->tmp = o->path = NULL;
  o->n = 0;
}

/* ---- JSON ---- */
void gr_jw_init(gr_jw *w, gr_out *o, int pretty){
  memset(w, 0, sizeof *w);
  w->o = o; w->pretty = pretty;
  w->first[0] = 1;
}
static void jw_sep(gr_jw *w){
  if( w->depth > 0 ){
    if( !w->first[w->depth] ){
      gr_out_putc(w->o, ',');
      if( w->brk ){ gr_out_putc(w->o, '\n'); w->brk = 0; }
    }
    if( w->depth <= w->pretty ){
      int i;
      gr_out_putc(w->o, '\n');
      for(i = 0; i < w->depth; i++) gr_out_write(w->o, "  ", 2);
    }
  }
  w->first[w->depth] = 0;
}
static void jw_open(gr_jw *w, char c){
  gr_out_putc(w->o, c);
  if( w->depth < 63 ) w->depth++;
  w->first[w->depth] = 1;
}
void gr_jw_end(gr_jw *w, char close){
  int empty = w->first[w->depth];
  w->depth--;
  if( !empty && w->depth < w->pretty ){
    int i;
    gr_out_putc(w->o, '\n');
    for(i = 0; i < w->depth; i++) gr_out_write(w->o, "  ", 2);
  }
  gr_out_putc(w->o, close);
  if( w->depth==0 && w->pretty ) gr_out_putc(w->o, '\n');
}
void gr_jw_key(gr_jw *w, const char *k){
  jw_sep(w);
  gr_out_json_str(w->o, k);
  gr_out_putc(w->o, ':');
  if( w->depth <= w->pretty ) gr_out_putc(w->o, ' ');
  w->first[w->depth] = 2;     /* the value follows without a separator */
}
static void jw_val(gr_jw *w){
  if( w->first[w->depth]==2 ) w->first[w->depth] = 0;
  else jw_sep(w);
}
void gr_jw_obj(gr_jw *w){ jw_val(w); jw_open(w, '{'); }
void gr_jw_arr(gr_jw *w){ jw_val(w); jw_open(w, '['); }
void gr_jw_str(gr_jw *w, const char *s){ jw_val(w); gr_out_json_str(w->o, s); }
void gr_jw_int(gr_jw *w, int64_t v){ jw_val(w); gr_out_int(w->o, v); }
void gr_jw_bool(gr_jw *w, int b){ jw_val(w); gr_out_puts(w->o, b ? "true" : "false"); }
void gr_jw_null(gr_jw *w){ jw_val(w); gr_out_puts(w->o, "null"); }
void gr_jw_raw(gr_jw *w, const char *s){ jw_val(w); gr_out_puts(w->o, s); }
void gr_jw_value(gr_jw *w){ jw_val(w); }
void gr_jw_break(gr_jw *w){ w->brk = 1; }
