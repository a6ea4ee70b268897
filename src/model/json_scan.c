/*
** json_scan.c: the streaming JSON tokenizer of json_scan.h.
**
** Why hand-written: the whole `gerules eval --format json` on the 1M-op,
** 290 MB benchmark graph must cost at most the CPU time of a bare yajl
** parse of the file (yajl with no-op callbacks, bench/bare-parse), and yajl
** alone already uses that budget: a yajl-based loader took 1.43-1.71 s where
** the bare parse took 0.87 s (1.65x), before evaluation and report even
** started. This tokenizer does only what the loader needs: it finds string
** ends 16 bytes at a time with SSE2 (one signed compare flags control and
** non-ASCII bytes together; UTF-8 is checked only where such bytes occur),
** hands out unescaped strings in place and decodes only escaped ones,
** converts integers straight to int64 while checking the number grammar,
** folds ':' into the key token and a ',' after a value into that value,
** counts newlines 64 bytes per test and only up to a position asked for,
** and scans a regular file where it is mapped, without a copy. Measured
** (2026-12-01, 1M-op graph, 7 alternating paired runs on the loaded 2-core
** VM, CPU user+sys): this tokenizer alone (bench/scan-only, reading and
** scanning) 0.56x the bare yajl parse; folding the commas took its
** instructions from 125 to 112 per token (callgrind, 10K-op graph) and the
** whole eval from 1.33x to 1.27x the yajl parse. The cheapest tokens
** (brackets, short plain strings, the compact keys a caller expects) are
** also read by inline fast paths in json_scan.h, which share this file's
** steps and leave every other case to gr_js_next: 100K-op eval 1,005.7M to
** 813.0M instructions (callgrind).
**
** Input comes in windows: the whole buffer for memory input, or a buffer
** refilled from the fd in chunks. A token that reaches the end of a window is
** re-scanned from its first byte once more input follows it (its bytes are
** moved to the front of the buffer first, so every token is contiguous); a
** refill then reads at least as many new bytes as the partial token had, so
** re-scanning stays linear. Each token is bounded by max_token bytes, checked
** the same way in both modes, so chunking never changes a result.
*/
#include "config.h"
#include "model/json_scan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
# include <emmintrin.h>
#endif

size_t gr_js_test_chunk;

#define DEF_CHUNK     (256u << 10)
#define DEF_MAX_TOKEN ((size_t)64 << 20)
#define MAP_DROP      ((size_t)8 << 20)     /* give back mapped pages in steps of this */

/* What the next significant byte may be: the grammar states of json_scan.h
** (there, because its inline fast paths need them). */
enum {
  S_VALUE = GR_JS__S_VALUE, S_VALUE_OR_END = GR_JS__S_VALUE_OR_END, S_KEY = GR_JS__S_KEY,
  S_KEY_OR_END = GR_JS__S_KEY_OR_END, S_AFTER = GR_JS__S_AFTER, S_DONE = GR_JS__S_DONE,
  S_EOF = GR_JS__S_EOF, S_FAILED = GR_JS__S_FAILED
};
#define top_is_object   gr_js__top_is_object
#define finish_value    gr_js__finish_value
#define close_container gr_js__close

#define IS_WS(c)    ((c)==' ' || (c)=='\n' || (c)=='\r' || (c)=='\t')
#define IS_DIGIT(c) ((unsigned)((unsigned char)(c) - '0') < 10u)

/* ---- positions ---- */

/* Counts the newlines of [s->nl, q). */
static void count_to(gr_js *s, const char *q){
  const char *p = s->nl, *last = NULL;
  uint64_t n = 0;
  if( q <= p ) return;
  /* a compact file has (nearly) no newlines: skip to the first one with
  ** memchr, whose vector loop is wider than the one below; measured on the
  ** 1M-op graph (one line), counting went from 2.1% of the eval's CPU time
  ** to about a tenth of that */
  {
    const char *first = memchr(p, '\n', (size_t)(q - p));
    if( first==NULL ){ s->nl = q; return; }
    p = first;
  }
#if defined(__SSE2__)
  {
    const __m128i nlv = _mm_set1_epi8('\n');
    /* one test per 64 bytes: most 64-byte blocks of a graph have no newline
    ** (a compact file has none); measured, this halves the counting's
    ** instructions on the benchmark graph */
    while( q - p >= 64 ){
      __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)p), nlv);
      __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 16)), nlv);
      __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 32)), nlv);
      __m128i d = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 48)), nlv);
      if( _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) ){
        uint64_t m = (uint64_t)(unsigned)_mm_movemask_epi8(a) | (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16
                   | (uint64_t)(unsigned)_mm_movemask_epi8(c) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8(d) << 48;
        n += (unsigned)__builtin_popcountll(m);
        last = p + 63 - __builtin_clzll(m);
      }
      p += 64;
    }
    while( q - p >= 16 ){
      unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)p), nlv));
      if( m ){ n += (unsigned)__builtin_popcount(m); last = p + 31 - __builtin_clz(m); }
      p += 16;
    }
  }
#endif
  for(; p < q; p++) if( *p=='\n' ){ n++; last = p; }
  if( n ){
    s->line += n;
    s->line_start = s->base + (uint64_t)(last - s->win) + 1;
  }
  s->nl = q;
}

static uint32_t clamp32(uint64_t v){ return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v; }

void gr_js_pos(gr_js *s, uint64_t off, uint32_t *line, uint32_t *col){
  const char *q;
  uint64_t ln, ls;
  if( off < s->base ) off = s->base;
  if( off - s->base > (uint64_t)(s->end - s->win) ) off = s->base + (uint64_t)(s->end - s->win);
  q = s->win + (off - s->base);
  if( q >= s->nl ){
    count_to(s, q);
    ln = s->line; ls = s->line_start;
  }else{
    /* behind what was counted (not done by the loader): count back */
    const char *p, *nlp = NULL;
    uint64_t n = 0;
    for(p = q; p < s->nl; p++) if( *p=='\n' ) n++;
    ln = s->line - n; ls = s->line_start;
    if( n ){
      for(p = q; p > s->win; p--) if( p[-1]=='\n' ){ nlp = p; break; }
      ls = nlp ? s->base + (uint64_t)(nlp - s->win) : s->base;
    }
  }
  *line = clamp32(ln);
  *col = clamp32(off >= ls ? off - ls + 1 : 1);
}

/* ---- errors ---- */

static int fail_at(gr_js *s, int kind, const char *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail_at(gr_js *s, int kind, const char *at, const char *fmt, ...){
  va_list ap;
  uint32_t line, col;
  gr_js_pos(s, s->base + (uint64_t)(at - s->win), &line, &col);
  s->err.line = line; s->err.col = col;
  va_start(ap, fmt);
  vsnprintf(s->err.msg, sizeof s->err.msg, fmt, ap);
  va_end(ap);
  s->errkind = kind;
  s->state = S_FAILED;
  return GR_JS_ERROR;
}

/* "<what>, found 'c'" at p, or "unexpected end of input" at the end. */
static int fail_expect(gr_js *s, const char *p, const char *what){
  unsigned c;
  if( p >= s->end ) return fail_at(s, GR_JS_E_SYNTAX, s->end, "unexpected end of input");
  c = (unsigned char)*p;
  if( c > 0x20 && c < 0x7f ) return fail_at(s, GR_JS_E_SYNTAX, p, "%s, found '%c'", what, (int)c);
  return fail_at(s, GR_JS_E_SYNTAX, p, "%s, found byte 0x%02x", what, c);
}

static int too_long(gr_js *s, const char *q, const char *what){
  return fail_at(s, GR_JS_E_LIMIT, q, "%s longer than %zu bytes", what, s->max_token);
}

/* ---- windows ---- */

/* Mapped input: the window [win, end) only grows over the mapping, so a
** token that reached its end is simply scanned again with more bytes after
** it. The pages behind keep go back to the kernel (they stay in the page
** cache; only this process's resident size drops), and the fd's offset is
** moved to the window's end for a progress meter. Returns 1 when bytes
** were added, 0 after an error (reported), -1 when the mapping is used up
** (the caller goes on with read()). */
static int extend_map(gr_js *s, const char *keep){
  const char *mend = s->map + s->map_len;
  size_t klen = (size_t)(s->end - keep), step = s->chunk, done;
  struct stat st;
  if( s->end==mend ) return -1;
  if( gr_js_test_chunk && step > gr_js_test_chunk ) step = gr_js_test_chunk;
  if( step < klen ) step = klen;                 /* re-scanning stays linear */
  if( step > (size_t)(mend - s->end) ) step = (size_t)(mend - s->end);
  /* a shrunk file would fault on its vanished pages: stop before them */
  if( fstat(s->fd, &st)==0 && (uint64_t)st.st_size < s->map_off + s->map_len ){
    fail_at(s, GR_JS_E_READ, keep, "cannot read: the file shrank while it was being read");
    s->err.line = s->err.col = 0;
    return 0;
  }
  done = (size_t)(keep - s->map) / MAP_DROP * MAP_DROP;
  if( done > s->map_drop ){
    madvise((void*)(uintptr_t)(s->map + s->map_drop), done - s->map_drop, MADV_DONTNEED);
    s->map_drop = done;
  }
  s->end += step;
  lseek(s->fd, (off_t)(s->map_off + (uint64_t)(s->end - s->map)), SEEK_SET);
  return 1;
}

/* Keeps [keep, end) and adds input after it. Returns 1 when bytes were
** added; 0 at the end of input (s->eof is set) or after a read error
** (reported). The kept bytes start the new window at s->p. */
static int refill(gr_js *s, const char *keep){
  size_t klen = (size_t)(s->end - keep), need = klen ? klen : 1, got = 0, want;
  size_t nl_off;
  s->ints_from = NULL;          /* the window moves: forget the last array's bytes */
  count_to(s, keep);
  if( s->map ){
    int r = extend_map(s, keep);
    if( r >= 0 ){ s->p = keep; return r; }
  }
  nl_off = (size_t)(s->nl - keep);       /* newlines are counted up to here (normally keep itself) */
  s->base += (uint64_t)(keep - s->win);
  want = klen + (klen > s->chunk ? klen : s->chunk);
  if( s->cap < want ){
    size_t nc = s->cap * 2 > want ? s->cap * 2 : want;
    char *nb = gr_xmalloc(nc);
    memcpy(nb, keep, klen);
    free(s->buf);
    s->buf = nb; s->cap = nc;
  }else if( keep!=s->buf && klen ){
    memmove(s->buf, keep, klen);
  }
  s->win = s->p = s->buf;
  s->nl = s->buf + nl_off;
  s->end = s->buf + klen;
  if( s->map ){       /* the kept bytes are copied out: the mapping is done with */
    munmap((void*)(uintptr_t)s->map, s->map_len);
    s->map = NULL;
  }
  while( got < need ){
    size_t room = s->cap - klen - got, req = room < s->chunk ? room : s->chunk;
    if( gr_js_test_chunk && req > gr_js_test_chunk ) req = gr_js_test_chunk;
    if( s->fd >= 0 ){
      ssize_t r = read(s->fd, s->buf + klen + got, req);
      if( r < 0 ){
        if( errno==EINTR ) continue;
        s->end = s->buf + klen + got;
        fail_at(s, GR_JS_E_READ, s->end, "cannot read: %s", strerror(errno));
        s->err.line = s->err.col = 0;
        return 0;
      }
      if( r==0 ){ s->eof = 1; break; }
      got += (size_t)r;
    }else{
      size_t r = s->mem_len - s->mem_off;
      if( r > req ) r = req;
      memcpy(s->buf + klen + got, s->mem + s->mem_off, r);
      s->mem_off += r;
      got += r;
      if( s->mem_off==s->mem_len ){ s->eof = 1; break; }
    }
  }
  s->end = s->buf + klen + got;
  return got > 0;
}

/* ---- strings ---- */

static int hex4(const char *p){
  int v = 0, k;
  for(k = 0; k < 4; k++){
    unsigned c = (unsigned char)p[k], d;
    if( c - '0' < 10u ) d = c - '0';
    else if( (c | 0x20) - 'a' < 6u ) d = (c | 0x20) - 'a' + 10;
    else return -1;
    v = v * 16 + (int)d;
  }
  return v;
}

/* Decodes the escaped body [q, e) (already validated) into s->sbuf. */
static void decode(gr_js *s, const char *q, const char *e, gr_js_tok *t){
  size_t n = (size_t)(e - q);
  char *o;
  if( s->scap < n + 1 ){
    size_t nc = s->scap * 2 > n + 1 ? s->scap * 2 : n + 1;
    if( nc < 256 ) nc = 256;
    free(s->sbuf);
    s->sbuf = gr_xmalloc(nc);
    s->scap = nc;
  }
  o = s->sbuf;
  while( q < e ){
    const char *b = memchr(q, '\\', (size_t)(e - q));
    unsigned u;
    if( b==NULL ){ memcpy(o, q, (size_t)(e - q)); o += e - q; break; }
    memcpy(o, q, (size_t)(b - q)); o += b - q;
    switch( b[1] ){
    case 'b': *o++ = '\b'; break;
    case 'f': *o++ = '\f'; break;
    case 'n': *o++ = '\n'; break;
    case 'r': *o++ = '\r'; break;
    case 't': *o++ = '\t'; break;
    case 'u':
      u = (unsigned)hex4(b + 2);
      if( u >= 0xd800 && u < 0xdc00 ){
        u = 0x10000 + ((u - 0xd800) << 10) + ((unsigned)hex4(b + 8) - 0xdc00);
        b += 6;
      }
      if( u < 0x80 ) *o++ = (char)u;
      else if( u < 0x800 ){ *o++ = (char)(0xc0 | u >> 6); *o++ = (char)(0x80 | (u & 0x3f)); }
      else if( u < 0x10000 ){
        *o++ = (char)(0xe0 | u >> 12); *o++ = (char)(0x80 | ((u >> 6) & 0x3f)); *o++ = (char)(0x80 | (u & 0x3f));
      }else{
        *o++ = (char)(0xf0 | u >> 18); *o++ = (char)(0x80 | ((u >> 12) & 0x3f));
        *o++ = (char)(0x80 | ((u >> 6) & 0x3f)); *o++ = (char)(0x80 | (u & 0x3f));
      }
      q = b + 6;
      continue;
    default: *o++ = b[1]; break;     /* " \ / */
    }
    q = b + 2;
  }
  t->s = s->sbuf;
  t->n = (size_t)(o - s->sbuf);
}

/* The string token whose '"' is at q. 1: t->s/n/flags set, *after = the byte
** after the closing quote; 0: the window ends first (only before eof); -1:
** error, reported. */
static inline __attribute__((always_inline)) int scan_string(gr_js *s, const char *q, gr_js_tok *t, const char **after){
  const char *p = q + 1, *end = s->end;
  const char *lim = (size_t)(end - q) > s->max_token ? q + s->max_token : end;
  int esc = 0;
  unsigned c;
  for(;;){
#if defined(__SSE2__)
    while( lim - p >= 16 ){
      unsigned m = gr_js__special16(p);
      if( m ){ p += __builtin_ctz(m); goto special; }
      p += 16;
    }
#endif
    while( p < lim ){
      c = (unsigned char)*p;
      if( c=='"' || c=='\\' || c - 0x20u >= 0x60u ) goto special;
      p++;
    }
    goto short_input;
  special:
    c = (unsigned char)*p;
    if( c=='"' ) break;
    if( c=='\\' ){
      int u;
      if( lim - p < 2 ) goto short_input;
      switch( p[1] ){
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        p += 2; esc = 1; continue;
      case 'u': break;
      default:
        if( (unsigned char)p[1] > 0x20 && (unsigned char)p[1] < 0x7f )
          return fail_at(s, GR_JS_E_SYNTAX, p, "invalid escape '\\%c' in string", p[1]), -1;
        return fail_at(s, GR_JS_E_SYNTAX, p, "invalid escape (backslash before byte 0x%02x) in string",
                       (unsigned char)p[1]), -1;
      }
      if( lim - p < 6 ){
        const char *h;
        for(h = p + 2; h < lim; h++)
          if( (unsigned)(unsigned char)*h - '0' >= 10u && ((unsigned)(unsigned char)*h | 0x20) - 'a' >= 6u )
            return fail_at(s, GR_JS_E_SYNTAX, p, "invalid \\u escape in string (expected 4 hex digits)"), -1;
        goto short_input;
      }
      u = hex4(p + 2);
      if( u < 0 ) return fail_at(s, GR_JS_E_SYNTAX, p, "invalid \\u escape in string (expected 4 hex digits)"), -1;
      if( u >= 0xdc00 && u < 0xe000 )
        return fail_at(s, GR_JS_E_SYNTAX, p, "unpaired UTF-16 surrogate \\u%.4s in string", p + 2), -1;
      if( u >= 0xd800 && u < 0xdc00 ){
        int lo;
        if( (lim - p > 6 && p[6]!='\\') || (lim - p > 7 && p[7]!='u') )
          return fail_at(s, GR_JS_E_SYNTAX, p, "unpaired UTF-16 surrogate \\u%.4s in string", p + 2), -1;
        if( lim - p < 12 ) goto short_input;
        lo = hex4(p + 8);
        if( lo < 0 ) return fail_at(s, GR_JS_E_SYNTAX, p + 6, "invalid \\u escape in string (expected 4 hex digits)"), -1;
        if( lo < 0xdc00 || lo >= 0xe000 )
          return fail_at(s, GR_JS_E_SYNTAX, p, "unpaired UTF-16 surrogate \\u%.4s in string", p + 2), -1;
        p += 12;
      }else{
        p += 6;
      }
      esc = 1;
      continue;
    }
    if( c < 0x20 ) return fail_at(s, GR_JS_E_SYNTAX, p, "unescaped control character 0x%02x in string", c), -1;
    /* UTF-8: the second byte's range depends on the first (no overlongs,
    ** no surrogates, nothing above U+10FFFF), the others are 80..BF */
    {
      unsigned lo = 0x80, hi = 0xbf, len, k;
      if( c >= 0xc2 && c <= 0xdf ) len = 2;
      else if( c >= 0xe0 && c <= 0xef ){ len = 3; if( c==0xe0 ) lo = 0xa0; else if( c==0xed ) hi = 0x9f; }
      else if( c >= 0xf0 && c <= 0xf4 ){ len = 4; if( c==0xf0 ) lo = 0x90; else if( c==0xf4 ) hi = 0x8f; }
      else return fail_at(s, GR_JS_E_SYNTAX, p, "invalid UTF-8 byte 0x%02x in string", c), -1;
      for(k = 1; k < len; k++){
        unsigned b;
        if( p + k >= lim ) goto short_input;
        b = (unsigned char)p[k];
        if( b < lo || b > hi ) return fail_at(s, GR_JS_E_SYNTAX, p + k, "invalid UTF-8 byte 0x%02x in string", b), -1;
        lo = 0x80; hi = 0xbf;
      }
      p += len;
    }
  }
  *after = p + 1;
  if( esc ){
    t->flags = GR_JS_ESCAPED;
    if( s->nodecode ){ t->s = q + 1; t->n = (size_t)(p - q - 1); }
    else decode(s, q + 1, p, t);
  }else{
    t->flags = 0;
    t->s = q + 1; t->n = (size_t)(p - q - 1);
  }
  return 1;
short_input:
  if( lim!=end || (size_t)(end - q) >= s->max_token ) return too_long(s, q, "string"), -1;
  if( s->eof ) return fail_at(s, GR_JS_E_SYNTAX, q, "unterminated string"), -1;
  return 0;
}

/* ---- numbers and literals ---- */

/* "invalid number 'TEXT'" at q: -1; 0 when the quoted text may go on past
** the window (so that chunking never changes the message). */
static int bad_number(gr_js *s, const char *q){
  const char *p = q;
  while( p < s->end && p - q < 40 && (IS_DIGIT(*p) || *p=='-' || *p=='+' || *p=='.'
         || ((unsigned)(*p | 0x20) - 'a' < 26u)) ) p++;
  if( p==s->end && !s->eof && p - q < 40 ) return 0;
  return fail_at(s, GR_JS_E_SYNTAX, q, "invalid number '%.*s'", (int)(p - q), q), -1;
}

/* Like scan_string, for the number starting at q ('-' or a digit). */
static int scan_number(gr_js *s, const char *q, gr_js_tok *t, const char **after){
  const char *p = q, *end = s->end, *d0;
  const char *lim = (size_t)(end - q) > s->max_token ? q + s->max_token : end;
  uint64_t acc = 0;
  int neg = 0, isint = 1;
  if( *p=='-' ){ neg = 1; p++; }
  if( p==lim ) goto short_input;
  d0 = p;
  if( *p=='0' ) p++;
  else if( IS_DIGIT(*p) ){
    do{
      if( p - d0 < 19 ) acc = acc * 10 + (uint64_t)(*p - '0');
      p++;
    }while( p < lim && IS_DIGIT(*p) );
  }else return bad_number(s, q);
  if( p < lim && *p=='.' ){
    isint = 0;
    if( ++p==lim ) goto short_input;
    if( !IS_DIGIT(*p) ) return bad_number(s, q);
    while( ++p < lim && IS_DIGIT(*p) ){}
  }
  if( p < lim && (*p | 0x20)=='e' ){
    isint = 0;
    if( ++p==lim ) goto short_input;
    if( *p=='+' || *p=='-' ){ if( ++p==lim ) goto short_input; }
    if( !IS_DIGIT(*p) ) return bad_number(s, q);
    while( ++p < lim && IS_DIGIT(*p) ){}
  }
  if( p==lim ){
    if( lim!=end || (size_t)(end - q) >= s->max_token ) return too_long(s, q, "number"), -1;
    if( !s->eof ) return 0;               /* it may go on */
  }else if( IS_DIGIT(*p) || *p=='.' || (*p | 0x20)=='e' || *p=='+' || *p=='-' ){
    return bad_number(s, q);              /* 01, 1.2.3, 1e5e, 1-2 */
  }
  t->s = q; t->n = (size_t)(p - q);
  t->flags = 0;
  if( isint ){
    uint64_t lim64 = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if( p - d0 > 19 || acc > lim64 ){
      t->type = GR_JS_NUMBER; t->flags = GR_JS_BIGINT;
    }else{
      t->type = GR_JS_INT;
      t->i = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    }
  }else{
    t->type = GR_JS_NUMBER;
  }
  *after = p;
  return 1;
short_input:
  if( lim!=end || (size_t)(end - q) >= s->max_token ) return too_long(s, q, "number"), -1;
  if( !s->eof ) return 0;
  return bad_number(s, q);
}

/* true, false, null at q. */
static int scan_literal(gr_js *s, const char *q, const char *word, size_t wn, const char **after){
  size_t avail = (size_t)(s->end - q);
  if( memcmp(q, word, avail < wn ? avail : wn)!=0 ) goto bad;
  if( avail <= wn && !s->eof ) return 0;     /* the byte after it decides */
  if( avail < wn ) goto bad;
  if( avail > wn ){
    unsigned c = (unsigned char)q[wn];
    if( IS_DIGIT(c) || (c | 0x20) - 'a' < 26u || c=='_' ) goto bad;
  }
  *after = q + wn;
  return 1;
bad:
  return fail_at(s, GR_JS_E_SYNTAX, q, "invalid literal (expected true, false or null)"), -1;
}

/* ---- the grammar ---- */

static int open_container(gr_js *s, const char *p, int obj, gr_js_tok *t){
  if( s->depth >= s->max_depth )
    return fail_at(s, GR_JS_E_DEPTH, p, "nesting deeper than %u levels", s->max_depth);
  return gr_js__open(s, p, obj, t);
}

static int at_eof(gr_js *s, gr_js_tok *t){
  t->off = s->base + (uint64_t)(s->end - s->win);
  if( s->state==S_DONE ){
    s->state = S_EOF;
    return t->type = GR_JS_EOF;
  }
  if( s->state==S_VALUE && s->depth==0 ){
    t->type = fail_at(s, GR_JS_E_EMPTY, s->end, "empty input");
    return GR_JS_ERROR;
  }
  return t->type = fail_at(s, GR_JS_E_SYNTAX, s->end, "unexpected end of input");
}

int gr_js_next(gr_js *s, gr_js_tok *t){
  const char *p, *after;
  unsigned c;
  int r;
  if( s->state >= S_EOF ){
    t->flags = 0; t->s = NULL; t->n = 0;
    return t->type = s->state==S_EOF ? GR_JS_EOF : GR_JS_ERROR;
  }
  for(;;){
    p = s->p;
    if( p < s->end && (unsigned char)*p <= ' ' ) while( p < s->end && IS_WS(*p) ) p++;
    if( p==s->end ){
      if( s->eof ) return at_eof(s, t);
      s->p = p;
      if( !refill(s, p) && s->state==S_FAILED ) return t->type = GR_JS_ERROR;
      continue;
    }
    c = (unsigned char)*p;
    t->off = s->base + (uint64_t)(p - s->win);
    switch( s->state ){
    case S_AFTER:
      if( c==',' ){
        s->p = p + 1;
        s->state = top_is_object(s) ? S_KEY : S_VALUE;
        continue;
      }
      if( top_is_object(s) ){
        if( c=='}' ) return close_container(s, p, 1, t);
        return t->type = fail_expect(s, p, "expected ',' or '}' after an object member");
      }
      if( c==']' ) return close_container(s, p, 0, t);
      return t->type = fail_expect(s, p, "expected ',' or ']' after an array element");

    case S_KEY_OR_END:
      if( c=='}' ) return close_container(s, p, 1, t);
      /* fall through */
    case S_KEY: {
      const char *k;
      if( c!='"' )
        return t->type = fail_expect(s, p, s->state==S_KEY ? "expected a string key after ','"
                                                             : "expected a string key or '}'");
      r = scan_string(s, p, t, &after);
      if( r < 0 ) return t->type = GR_JS_ERROR;
      if( r==0 ) goto more;
      k = after;
      if( k < s->end && *k!=':' ) while( k < s->end && IS_WS(*k) ) k++;
      if( k==s->end && !s->eof ) goto more;
      if( k==s->end || *k!=':' ) return t->type = fail_expect(s, k, "expected ':' after an object key");
      s->p = k + 1;
      s->state = S_VALUE;
      return t->type = GR_JS_KEY;
    }

    case S_VALUE_OR_END:
      if( c==']' ) return close_container(s, p, 0, t);
      /* fall through */
    case S_VALUE:
      switch( c ){
      case '{': return open_container(s, p, 1, t);
      case '[': return open_container(s, p, 0, t);
      case '"':
        r = scan_string(s, p, t, &after);
        if( r < 0 ) return t->type = GR_JS_ERROR;
        if( r==0 ) goto more;
        t->type = GR_JS_STRING;
        break;
      case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        r = scan_number(s, p, t, &after);
        if( r < 0 ) return t->type = GR_JS_ERROR;
        if( r==0 ) goto more;
        break;
      case '+': case '.':
        if( bad_number(s, p)==0 ) goto more;
        return t->type = GR_JS_ERROR;
      case 't': case 'f': case 'n':
        r = c=='t' ? scan_literal(s, p, "true", 4, &after)
          : c=='f' ? scan_literal(s, p, "false", 5, &after) : scan_literal(s, p, "null", 4, &after);
        if( r < 0 ) return t->type = GR_JS_ERROR;
        if( r==0 ) goto more;
        t->type = c=='t' ? GR_JS_TRUE : c=='f' ? GR_JS_FALSE : GR_JS_NULL;
        t->flags = 0; t->s = p; t->n = (size_t)(after - p);
        break;
      default:
        return t->type = fail_expect(s, p, s->state==S_VALUE_OR_END ? "expected a value or ']'"
                                         : s->depth==0 ? "expected a JSON value"
                                         : top_is_object(s) ? "expected a value after ':'"
                                         : "expected a value after ','");
      }
      finish_value(s, after);
      return t->type;

    case S_DONE:
      return t->type = fail_at(s, GR_JS_E_SYNTAX, p, "trailing characters after the top-level value");
    default:
      return t->type = GR_JS_ERROR;
    }
  more:
    /* the token at p goes on past the window */
    if( !refill(s, p) && s->state==S_FAILED ) return t->type = GR_JS_ERROR;
  }
}

/* Measured reason: the dims of the tensor shapes are about a fifth of the
** tokens of a graph file, and each went through a whole gr_js_next (its
** state switch and its prologue saving six registers): this loop took the
** 100K-op eval from 1,083M to 1,001M instructions (callgrind). */
size_t gr_js_ints(gr_js *s, int64_t *v, size_t max, int *closed){
  const char *p = s->p, *end = s->end;
  const char *from = p;
  int whole = s->state==S_VALUE_OR_END;
  size_t k = 0;
  *closed = 0;
  if( s->max_token < 24 ) return 0;
  if( s->state!=S_VALUE_OR_END && !(s->state==S_VALUE && s->depth && !top_is_object(s)) ) return 0;
  while( k < max && end - p >= 24 ){      /* sign, 18 digits, one more and the separator fit */
    const char *q = p;
    uint64_t acc = 0;
    int neg = 0, nd = 0;
    if( *q=='-' ){ neg = 1; q++; }
    if( *q=='0' ){
      q++;
    }else if( IS_DIGIT(*q) ){
      do{ acc = acc * 10 + (uint64_t)(*q - '0'); q++; nd++; }while( nd < 18 && IS_DIGIT(*q) );
    }else break;
    if( *q==',' ){
      v[k++] = neg ? (int64_t)(0 - acc) : (int64_t)acc;
      p = q + 1;
      s->state = S_VALUE;
      continue;
    }
    if( *q==']' ){
      v[k++] = neg ? (int64_t)(0 - acc) : (int64_t)acc;
      s->depth--;
      finish_value(s, q + 1);
      *closed = 1;
      s->ints_from = whole ? from : NULL;
      s->ints_n = (size_t)(q + 1 - from);
      s->ints_after = s->p;
      return k;
    }
    break;
  }
  s->p = p;
  return k;
}

void gr_js_ints_remember(gr_js *s, gr_js_intmemo *m, uint32_t val){
  unsigned k;
  if( s->ints_from==NULL || s->ints_after!=s->p || s->ints_n > GR_JS_MEMO_TEXT ) return;
  k = gr_js__memo_slot(s->ints_from, s->ints_n);
  memcpy(m->text[k], s->ints_from, s->ints_n);
  m->n[k] = (uint8_t)s->ints_n;
  m->val[k] = val;
  s->ints_from = NULL;
}

void gr_js_obj_remember(gr_js *s, gr_js_objmemo *m, const gr_js_mark *mark, const void *val){
  const char *q = s->closed_at;
  size_t n, i, braces = 0;
  unsigned k;
  if( mark->win!=s->win || mark->base!=s->base || s->depth + 1!=mark->depth || q==NULL || q < mark->p || *q!='}' ) return;
  /* the '}' is the token just read: right behind the scan position, or behind the ',' consumed with it */
  if( !(s->p==q + 1 || (s->p==q + 2 && q[1]==',')) ) return;
  n = (size_t)(q + 1 - mark->p);
  if( n > GR_JS_OMEMO_TEXT ) return;
  for(i = 0; i < n && braces <= 2; i++) braces += mark->p[i]=='}';
  if( braces > 2 ) return;
  k = gr_js__omemo_slot(mark->p, n);
  for(i = 0; i < 2; i++)         /* already there (its recall was not tried: the window ended) */
    if( m->n[k + i]==n && m->depth[k + i]==mark->depth && memcmp(m->text[k + i], mark->p, n)==0 ) return;
  k += m->n[k]==0 ? 0 : m->n[k + 1]==0 ? 1 : m->older[k >> 1];   /* an empty slot of the pair, else the older */
  m->older[k >> 1] = (uint8_t)((k & 1) ^ 1);
  memcpy(m->text[k], mark->p, n);     /* bytes past n are never compared (gr_js__omemo_same masks them) */
  m->n[k] = (uint8_t)n;
  m->depth[k] = mark->depth;
  memcpy(m->val[k], val, GR_JS_OMEMO_VAL);
}

int gr_js_keys_init(gr_js_keyset *ks, const char *const *names, unsigned n){
  unsigned k, i;
  if( n > GR_JS_KEYS ) return -1;
  memset(ks, 0, sizeof *ks);
  ks->n = n;
  for(k = 0; k < n; k++){
    unsigned char w[16] = {0}, m[16];
    size_t len = strlen(names[k]);
    memset(m, 0xff, sizeof m);          /* a key too long to match in place: w[0] is no '"' */
    if( len <= GR_JS_KEY_MAX ){
      w[0] = '"';
      memcpy(w + 1, names[k], len);
      w[len + 1] = '"';
      w[len + 2] = ':';
      for(i = len + 3; i < 16; i++) m[i] = 0;
    }
    memcpy(ks->w[k], w, 16);
    memcpy(ks->m[k], m, 16);
    ks->len[k] = len;
    ks->name[k] = names[k];
  }
  return 0;
}

int gr_js_skip(gr_js *s, const gr_js_tok *t){
  gr_js_tok u;
  unsigned d;
  if( t->type==GR_JS_ERROR ) return 0;
  if( t->type!=GR_JS_OBJECT && t->type!=GR_JS_ARRAY ) return 1;
  d = s->depth - 1;
  s->nodecode = 1;
  for(;;){
    int k = gr_js_next(s, &u);
    if( k==GR_JS_ERROR ){ s->nodecode = 0; return 0; }
    if( (k==GR_JS_OBJECT_END || k==GR_JS_ARRAY_END) && s->depth==d ) break;
  }
  s->nodecode = 0;
  return 1;
}

/* ---- setting up ---- */

static void init_common(gr_js *s, unsigned max_depth, size_t max_token){
  memset(s, 0, sizeof *s);
  s->fd = -1;
  s->line = 1;
  s->state = S_VALUE;
  s->max_depth = max_depth < 1 ? 1 : max_depth > GR_JS_DEPTH_CAP ? GR_JS_DEPTH_CAP : max_depth;
  s->max_token = max_token ? max_token : DEF_MAX_TOKEN;
}

static void own_window(gr_js *s, size_t chunk){
  s->chunk = chunk ? chunk : DEF_CHUNK;
  s->cap = s->chunk + s->chunk / 4;
  s->buf = gr_xmalloc(s->cap);
  s->win = s->p = s->end = s->nl = s->buf;
}

void gr_js_init_mem(gr_js *s, const char *buf, size_t len, unsigned max_depth, size_t max_token){
  init_common(s, max_depth, max_token);
  if( buf==NULL ){ buf = ""; len = 0; }
  if( gr_js_test_chunk ){
    s->mem = buf; s->mem_len = len;
    own_window(s, 0);
    if( len==0 ) s->eof = 1;
  }else{
    s->win = s->p = s->nl = buf;
    s->end = buf + len;
    s->eof = 1;
  }
}

/* Maps the rest of a regular file from the fd's offset (the offset rounded
** down to a page; the window starts at the offset itself). Measured on the
** 290 MB benchmark graph: the read() copy into the window was about 5% of
** a whole `eval --format json`. Anything that cannot be mapped (a pipe, an
** empty rest, a file system without mmap) is read instead. */
static void map_file(gr_js *s){
  struct stat st;
  off_t pos;
  uint64_t start, page;
  void *m;
  if( fstat(s->fd, &st)!=0 || !S_ISREG(st.st_mode) ) return;
  pos = lseek(s->fd, 0, SEEK_CUR);
  if( pos < 0 || st.st_size <= pos ) return;
  page = (uint64_t)sysconf(_SC_PAGESIZE);
  start = (uint64_t)pos / page * page;
  if( (uint64_t)st.st_size - start > SIZE_MAX / 2 ) return;
  m = mmap(NULL, (size_t)((uint64_t)st.st_size - start), PROT_READ, MAP_PRIVATE, s->fd, (off_t)start);
  if( m==MAP_FAILED ) return;
  s->map = m;
  s->map_len = (size_t)((uint64_t)st.st_size - start);
  s->map_off = start;
  madvise(m, s->map_len, MADV_SEQUENTIAL);
  s->win = s->p = s->end = s->nl = s->map + ((uint64_t)pos - start);
}

void gr_js_init_fd(gr_js *s, int fd, size_t chunk, unsigned max_depth, size_t max_token){
  init_common(s, max_depth, max_token);
  s->fd = fd;
  s->chunk = chunk ? chunk : DEF_CHUNK;
  map_file(s);
  if( s->map==NULL ) own_window(s, chunk);
}

void gr_js_free(gr_js *s){
  if( s==NULL ) return;
  if( s->map ) munmap((void*)(uintptr_t)s->map, s->map_len);
  s->map = NULL;
  free(s->buf);
  free(s->sbuf);
  s->buf = s->sbuf = NULL;
  s->cap = s->scap = 0;
}
