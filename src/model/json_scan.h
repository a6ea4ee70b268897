/*
** json_scan.h: a streaming, validating JSON tokenizer (RFC 8259) for the
** graph loader. It pulls its input from a file descriptor in chunks, or
** takes a whole memory buffer at once, and hands out one token per call:
** object and array brackets, keys (with their ':' consumed), strings,
** numbers (integers already converted to int64), true, false, null, and the
** end of input. Commas, colons and the nesting are checked here, so a caller
** only sees well-formed sequences; any error (malformed JSON, invalid UTF-8,
** nesting deeper than the limit, trailing characters, empty input, a read
** failure) ends the scan with a located message. Line and column numbers are
** 1-based, columns count bytes, and are worked out only when asked for.
** Inline fast paths (gr_js_next_fast, gr_js_key) read the commonest tokens
** of a compact file without a call, with the same results.
**
** Ownership: the caller owns the gr_js struct, the file descriptor (never
** closed here) and the memory buffer (never modified; it must outlive the
** scanner); the scanner owns its read and string buffers and its mapping of
** a regular file, freed by
** gr_js_free(). A token's text (t->s, t->n) points into the caller's buffer or
** into the scanner's buffers and is valid only until the next call on that
** scanner. Nothing here prints or exits.
*/
#ifndef GR_JSON_SCAN_H
#define GR_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
# include <emmintrin.h>
#endif
#include "base/util.h"

enum gr_js_type {
  GR_JS_ERROR = 0,      /* the scan failed: see gr_js_error() */
  GR_JS_EOF,            /* end of input after one complete top-level value */
  GR_JS_OBJECT,         /* '{' */
  GR_JS_OBJECT_END,     /* '}' */
  GR_JS_ARRAY,          /* '[' */
  GR_JS_ARRAY_END,      /* ']' */
  GR_JS_KEY,            /* an object key (decoded, like GR_JS_STRING); its ':' is consumed */
  GR_JS_STRING,         /* a string value, decoded: s, n (may contain NUL when escaped) */
  GR_JS_INT,            /* a number without fraction or exponent that fits int64: i; s, n = its text */
  GR_JS_NUMBER,         /* any other valid number: s, n = its text (flag GR_JS_BIGINT when integral) */
  GR_JS_TRUE,
  GR_JS_FALSE,
  GR_JS_NULL
};

enum {
  GR_JS_ESCAPED = 1,    /* string or key: it had escapes, s is a decoded copy */
  GR_JS_BIGINT = 2      /* number: an integer outside the int64 range */
};

typedef struct gr_js_tok {
  int type;             /* enum gr_js_type */
  unsigned flags;       /* GR_JS_ESCAPED, GR_JS_BIGINT */
  const char *s;        /* string/key contents or number text; valid until the next call */
  size_t n;
  int64_t i;            /* GR_JS_INT value */
  uint64_t off;         /* byte offset of the token's first byte in the input */
} gr_js_tok;

/* Error kinds, for callers that word some errors their own way. */
enum gr_js_errkind { GR_JS_E_NONE = 0, GR_JS_E_SYNTAX, GR_JS_E_EMPTY, GR_JS_E_DEPTH, GR_JS_E_LIMIT, GR_JS_E_READ };

#define GR_JS_DEPTH_CAP 4096    /* the largest depth limit a scanner accepts */

typedef struct gr_js {
  const char *p, *end;          /* unread input of the current window */
  const char *win;              /* first byte of the current window */
  uint64_t base;                /* input offset of win[0] */
  int eof;                      /* nothing follows `end` */
  int fd;                       /* -1 for memory input */
  const char *mem; size_t mem_len, mem_off;   /* memory input read in slices (test chunk size) */
  char *buf; size_t cap;        /* owned window for chunked input */
  const char *map; size_t map_len;  /* a regular file mapped read-only (NULL: none) */
  size_t map_drop;              /* bytes at the start of map whose pages were given back */
  uint64_t map_off;             /* file offset of map[0] */
  size_t chunk;                 /* read size */
  size_t max_token;             /* longest string or number token, in input bytes */
  char *sbuf; size_t scap;      /* decoded strings */
  /* grammar */
  unsigned state;
  unsigned depth, max_depth;
  uint64_t stack[GR_JS_DEPTH_CAP / 64];   /* bit set = object */
  int nodecode;                 /* gr_js_skip in progress: validate strings without decoding */
  /* lines, counted lazily up to nl */
  const char *nl;
  uint64_t line, line_start;    /* line number at nl; input offset of that line's first byte */
  /* the array gr_js_ints read whole last (gr_js_ints_remember): its body
  ** and ']' at ints_from[0..ints_n), the scan position just after it */
  const char *ints_from, *ints_after;
  size_t ints_n;
  const char *closed_at;        /* the last closing bracket read (gr_js_obj_remember) */
  /* the error */
  int errkind;
  gr_error err;
} gr_js;

/* Setting up. max_depth is clamped to 1..GR_JS_DEPTH_CAP (nesting of arrays
** and objects, the outermost counting 1); max_token bounds one string or
** number in input bytes (0 = 64 MiB). From an fd, reads of `chunk` bytes
** (0 = 256 KiB); the fd is read until end of file. A regular file is mapped
** instead (from the fd's offset) and scanned in windows of `chunk` bytes
** without a copy: its pages are given back behind the scan, so the mapping
** never holds more than a few MiB of the file resident, and the fd's offset
** follows the scan (a progress meter polls it). The file's size is checked
** before each window: a file that shrinks while being scanned is a read
** error (it would otherwise fault on the vanished pages); what a growing
** file adds after the mapped size is read from the fd. */
void gr_js_init_mem(gr_js *s, const char *buf, size_t len, unsigned max_depth, size_t max_token);
void gr_js_init_fd(gr_js *s, int fd, size_t chunk, unsigned max_depth, size_t max_token);
void gr_js_free(gr_js *s);

/* The next token into *t; returns t->type. After GR_JS_ERROR or GR_JS_EOF
** every further call returns the same. */
int gr_js_next(gr_js *s, gr_js_tok *t);

/* Right after an array's '[' or a ',' in an array: reads up to max plain
** integer elements in one go into v and returns their count, leaving the
** scanner exactly as gr_js_next would have after returning them one by one;
** when the array's ']' followed, it is consumed too and *closed is set (as
** if GR_JS_ARRAY_END had been returned). It reads only the simplest form
** (an optional '-', at most 18 digits without a leading zero, then ',' or
** ']' with no whitespace) and stops before anything else, the end of the
** window included, for gr_js_next to go on: so it never changes a result
** or an error, only the cost of shapes' dims. */
size_t gr_js_ints(gr_js *s, int64_t *v, size_t max, int *closed);

/* ---- integer arrays seen before ----
**
** Measured reason: a graph's tensors have few distinct shapes (23 in the
** 1M-op benchmark graph, for 2.35M tensors), yet each dims array was read
** int by int again, then hashed and looked up among the shapes. A caller
** remembers an array that gr_js_ints has just read whole, with a value of its
** own (a shape id); gr_js_ints_recall compares the bytes after the next '['
** with the remembered ones and, when the same bytes come again up to and
** including the ']', consumes them and gives that value back. Only an array
** read by a single gr_js_ints call right after its '[' is remembered, and only
** byte-identical text matches it, so the values and the scanner's state are
** those that reading it again would give; anything else (whitespace, a
** longer array, the end of the window) is a miss, read as before. */
#define GR_JS_MEMO       64     /* arrays remembered (direct-mapped, a power of two) */
#define GR_JS_MEMO_TEXT  32     /* longest body with its ']' */
typedef struct gr_js_intmemo {
  char text[GR_JS_MEMO][GR_JS_MEMO_TEXT];   /* body and ']' */
  uint8_t n[GR_JS_MEMO];                    /* its length; 0: an empty slot */
  uint32_t val[GR_JS_MEMO];
} gr_js_intmemo;

/* Remembers, with val, the array that the last gr_js_ints call read whole and
** closed, if that call started right after the array's '[' and nothing was
** scanned since; else does nothing. */
void gr_js_ints_remember(gr_js *s, gr_js_intmemo *m, uint32_t val);

/* Right after an array's '[': when the bytes up to its ']' are those of an
** array remembered in m, consumes them (the array is closed, as after
** GR_JS_ARRAY_END) and returns 1 with *val; else 0, nothing consumed.
** Defined below. */
static inline int gr_js_ints_recall(gr_js *s, const gr_js_intmemo *m, uint32_t *val);

/* ---- small objects seen before ----
**
** Measured reason: after the dims, a graph file's tensor descriptors were
** the loader's biggest cost (about 550 instructions each, 2.35 per op in the
** benchmark graphs), and they too are nearly all repeats: the same dtype,
** layout and shape on tensor after tensor. The same scheme as for dims
** arrays, one level up: right after an object's '{' a caller takes a mark;
** once the object's '}' has been read, gr_js_obj_remember keeps its bytes
** (at most GR_JS_OMEMO_TEXT, with at most one object inside it) with a value
** of the caller's; gr_js_obj_recall, right after a later '{' at the same
** depth, compares the bytes up to the first or the second '}' that follows
** with the remembered ones and, when they are the same, consumes them and
** closes the object. The scanner is deterministic from a '{' at a given
** depth, so the same bytes give the same tokens: the caller must only keep
** to objects whose reading has no effect but the value it remembers. */
#define GR_JS_OMEMO       64     /* objects remembered (two-way, a power of two) */
#define GR_JS_OMEMO_TEXT  128    /* longest remembered object, its '}' included */
#define GR_JS_OMEMO_VAL   24     /* bytes of the caller's value */
typedef struct gr_js_objmemo {
  char text[GR_JS_OMEMO][GR_JS_OMEMO_TEXT];   /* members and '}' */
  uint8_t n[GR_JS_OMEMO];                     /* its length; 0: an empty slot */
  uint8_t older[GR_JS_OMEMO / 2];             /* per pair of slots: the one recalled less lately */
  uint32_t depth[GR_JS_OMEMO];                /* the scanner's depth inside it */
  unsigned char val[GR_JS_OMEMO][GR_JS_OMEMO_VAL];
} gr_js_objmemo;

/* Where an object's members start: taken right after its '{'. */
typedef struct gr_js_mark { const char *p, *win; uint64_t base; unsigned depth; } gr_js_mark;
static inline gr_js_mark gr_js_mark_here(const gr_js *s){
  gr_js_mark k;
  k.p = s->p; k.win = s->win; k.base = s->base; k.depth = s->depth;
  return k;
}

/* Remembers, with the GR_JS_OMEMO_VAL bytes at val, the object begun at
** *mark, when the token just read was its closing '}', the whole object is
** in the current window, it holds at most one object and is at most
** GR_JS_OMEMO_TEXT bytes; else does nothing. */
void gr_js_obj_remember(gr_js *s, gr_js_objmemo *m, const gr_js_mark *mark, const void *val);

/* Right after an object's '{': when the bytes up to its '}' are those of an
** object remembered in m at this depth, consumes them (the object is closed,
** as after GR_JS_OBJECT_END) and returns 1 with *val; else 0, nothing
** consumed. *val gets the GR_JS_OMEMO_VAL bytes remembered. Defined below. */
static inline int gr_js_obj_recall(gr_js *s, gr_js_objmemo *m, void *val);

/* gr_js_next with its cheapest tokens inline: an opening bracket where a
** value may start, a closing one where the container may end, and a short
** plain string value (gr_js__short_string), each right at the scan position
** (no whitespace before it). These are about half of a graph file's tokens
** and cost little more than the call to gr_js_next they avoid; everything
** else (and a bracket past the depth limit) is gr_js_next's, so the tokens
** and errors are the same. Defined below. */
static inline int gr_js_next_fast(gr_js *s, gr_js_tok *t);

/* ---- expected keys, matched in place ----
**
** Measured reason: object keys are about a third of a graph file's tokens
** (1.44M of the 100K-op benchmark graph's 4.7M), each a whole gr_js_next
** (prologue, state switch, string scan, ':' check) followed by the caller's
** compares of its text with the keys it knows. A caller that knows which keys
** an object may have gives them as a key set, and gr_js_key matches the next
** bytes against them in place: each key is compared, quotes and ':'
** included, as two masked 8-byte words. Only that compact form is taken
** (whitespace, escapes, a key longer than GR_JS_KEY_MAX bytes or one near the
** window's end all fail the match, for gr_js_next to read as before), so the
** fast path never changes a result or an error, only the cost of the common
** case. */
#define GR_JS_KEYS     8      /* keys in one key set */
#define GR_JS_KEY_MAX  13     /* bytes of a key matched in place; 16 with its quotes and ':' */

typedef struct gr_js_keyset {
  unsigned n;
  uint64_t w[GR_JS_KEYS][2];  /* '"' key '"' ':' as two words, zero-padded */
  uint64_t m[GR_JS_KEYS][2];  /* 0xff for each of those bytes */
  size_t len[GR_JS_KEYS];          /* bytes of the key alone */
  const char *name[GR_JS_KEYS];    /* not owned: string literals */
} gr_js_keyset;

/* Fills *ks with the n keys of names (string literals, not copied); -1 when
** n is more than GR_JS_KEYS. A key longer than GR_JS_KEY_MAX bytes is kept
** but never matched in place. */
int gr_js_keys_init(gr_js_keyset *ks, const char *const *names, unsigned n);

/* ---- private: the grammar and the steps the inline fast paths share with
** gr_js_next ---- */

/* What the next significant byte may be. */
enum {
  GR_JS__S_VALUE,         /* a value: at the top, after ':' or after ',' in an array */
  GR_JS__S_VALUE_OR_END,  /* after '[' */
  GR_JS__S_KEY,           /* after ',' in an object */
  GR_JS__S_KEY_OR_END,    /* after '{' */
  GR_JS__S_AFTER,         /* after a value inside a container: ',' or the closing bracket */
  GR_JS__S_DONE,          /* after the top-level value: only whitespace */
  GR_JS__S_EOF,
  GR_JS__S_FAILED
};

static inline int gr_js__top_is_object(const gr_js *s){
  unsigned d = s->depth - 1;
  return (int)((s->stack[d >> 6] >> (d & 63)) & 1);
}

/* After a value ending just before `after`: a ',' right after it (the
** usual case, compact or pretty) is consumed here, so the next call goes
** straight to the key or value instead of a round through S_AFTER. */
static inline void gr_js__finish_value(gr_js *s, const char *after){
  if( s->depth==0 ){ s->state = GR_JS__S_DONE; s->p = after; return; }
  if( after < s->end && *after==',' ){
    s->p = after + 1;
    s->state = gr_js__top_is_object(s) ? GR_JS__S_KEY : GR_JS__S_VALUE;
    return;
  }
  s->p = after;
  s->state = GR_JS__S_AFTER;
}

/* The '{' (obj) or '[' at p, the depth already checked. */
static inline int gr_js__open(gr_js *s, const char *p, int obj, gr_js_tok *t){
  unsigned d = s->depth;
  if( obj ) s->stack[d >> 6] |= (uint64_t)1 << (d & 63);
  else s->stack[d >> 6] &= ~((uint64_t)1 << (d & 63));
  s->depth = d + 1;
  s->state = obj ? GR_JS__S_KEY_OR_END : GR_JS__S_VALUE_OR_END;
  s->p = p + 1;
  t->flags = 0;
  return t->type = obj ? GR_JS_OBJECT : GR_JS_ARRAY;
}

/* The '}' (obj) or ']' at p, which closes the innermost container. */
static inline int gr_js__close(gr_js *s, const char *p, int obj, gr_js_tok *t){
  s->closed_at = p;
  s->depth--;
  gr_js__finish_value(s, p + 1);
  t->flags = 0;
  return t->type = obj ? GR_JS_OBJECT_END : GR_JS_ARRAY_END;
}

/* The hash both memos place text p[0..n) by (n at least 1): its first and
** last 8 bytes and its length. */
static inline unsigned gr_js__memo_hash(const char *p, size_t n){
  uint64_t a = 0, b = 0;
  if( n >= 8 ){ memcpy(&a, p, 8); memcpy(&b, p + n - 8, 8); }
  else memcpy(&a, p, n);
  return (unsigned)((((a * 0x9e3779b97f4a7c15ULL) ^ b ^ n) * 0xff51afd7ed558ccdULL) >> 40);
}

/* The slot of an array's body p[0..n) in a gr_js_intmemo. */
static inline unsigned gr_js__memo_slot(const char *p, size_t n){ return gr_js__memo_hash(p, n) & (GR_JS_MEMO - 1); }

static inline int gr_js_ints_recall(gr_js *s, const gr_js_intmemo *m, uint32_t *val){
  const char *p = s->p, *q;
  size_t n;
  unsigned k;
  if( s->state!=GR_JS__S_VALUE_OR_END || s->end - p < GR_JS_MEMO_TEXT || s->max_token < 24 ) return 0;
#if defined(__SSE2__) && GR_JS_MEMO_TEXT==32
  {
    const __m128i a = _mm_loadu_si128((const __m128i*)(const void*)p);
    const __m128i b = _mm_loadu_si128((const __m128i*)(const void*)(p + 16));
    const __m128i close = _mm_set1_epi8(']');
    uint32_t at = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, close))
                | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, close)) << 16, same, want;
    if( at==0 ) return 0;
    n = (size_t)__builtin_ctz(at) + 1;
    q = p + n - 1;
    k = gr_js__memo_slot(p, n);
    if( m->n[k]!=n ) return 0;
    same = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_loadu_si128((const __m128i*)(const void*)m->text[k])))
         | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_loadu_si128((const __m128i*)(const void*)(m->text[k] + 16)))) << 16;
    want = (uint32_t)(((uint64_t)1 << n) - 1);
    if( (same & want)!=want ) return 0;
  }
#else
  q = memchr(p, ']', GR_JS_MEMO_TEXT);
  if( q==NULL ) return 0;
  n = (size_t)(q - p) + 1;
  k = gr_js__memo_slot(p, n);
  if( m->n[k]!=n || memcmp(m->text[k], p, n)!=0 ) return 0;
#endif
  *val = m->val[k];
  s->depth--;
  gr_js__finish_value(s, q + 1);
  return 1;
}

/* The pair of slots of an object's bytes p[0..n) in a gr_js_objmemo (the
** even one). */
static inline unsigned gr_js__omemo_slot(const char *p, size_t n){ return gr_js__memo_hash(p, n) & (GR_JS_OMEMO - 2); }

/* The lengths up to and including the first and the second '}' in
** p[0..GR_JS_OMEMO_TEXT), 0 for one not there. */
#if defined(__SSE2__)
static inline uint64_t gr_js__brace64(const char *p){
  const __m128i c = _mm_set1_epi8('}');
  return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)p), c))
       | (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 16)), c)) << 16
       | (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 32)), c)) << 32
       | (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(const void*)(p + 48)), c)) << 48;
}
#endif
static inline void gr_js__two_braces(const char *p, size_t *n0, size_t *n1){
#if defined(__SSE2__) && GR_JS_OMEMO_TEXT==128
  uint64_t lo = gr_js__brace64(p), hi;
  *n0 = *n1 = 0;
  if( lo ){
    *n0 = (size_t)__builtin_ctzll(lo) + 1;
    lo &= lo - 1;
    if( lo ){ *n1 = (size_t)__builtin_ctzll(lo) + 1; return; }
  }
  hi = gr_js__brace64(p + 64);
  if( hi==0 ) return;
  if( *n0==0 ){
    *n0 = (size_t)__builtin_ctzll(hi) + 65;
    hi &= hi - 1;
    if( hi==0 ) return;
  }
  *n1 = (size_t)__builtin_ctzll(hi) + 65;
#else
  const char *q = memchr(p, '}', GR_JS_OMEMO_TEXT);
  *n0 = *n1 = 0;
  if( q==NULL ) return;
  *n0 = (size_t)(q - p) + 1;
  q = *n0 < GR_JS_OMEMO_TEXT ? memchr(q + 1, '}', GR_JS_OMEMO_TEXT - *n0) : NULL;
  if( q ) *n1 = (size_t)(q - p) + 1;
#endif
}

/* Whether p[0..n) is the text of slot k (n at most GR_JS_OMEMO_TEXT). */
static inline int gr_js__omemo_same(const gr_js_objmemo *m, unsigned k, const char *p, size_t n){
#if defined(__SSE2__)
  size_t i;
  for(i = 0; i + 16 <= n; i += 16){
    __m128i a = _mm_loadu_si128((const __m128i*)(const void*)(p + i));
    __m128i b = _mm_loadu_si128((const __m128i*)(const void*)(m->text[k] + i));
    if( _mm_movemask_epi8(_mm_cmpeq_epi8(a, b))!=0xffff ) return 0;
  }
  if( i==n ) return 1;
  if( n < 16 ){                /* a short object: 16 bytes are there to load, in the window and the slot */
    unsigned want = (1u << n) - 1;
    __m128i a = _mm_loadu_si128((const __m128i*)(const void*)p);
    __m128i b = _mm_loadu_si128((const __m128i*)(const void*)m->text[k]);
    return ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & want)==want;
  }
  {                            /* the last 16 bytes, overlapping the ones compared */
    __m128i a = _mm_loadu_si128((const __m128i*)(const void*)(p + n - 16));
    __m128i b = _mm_loadu_si128((const __m128i*)(const void*)(m->text[k] + n - 16));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(a, b))==0xffff;
  }
#else
  return memcmp(m->text[k], p, n)==0;
#endif
}

static inline int gr_js_obj_recall(gr_js *s, gr_js_objmemo *m, void *val){
  const char *p = s->p;
  size_t n[2];
  unsigned c, k, w;
  if( (s->state!=GR_JS__S_KEY_OR_END) || s->end - p < GR_JS_OMEMO_TEXT ) return 0;
  /* the first two '}' within reach: the ends an object of at most one inner object can have */
  gr_js__two_braces(p, &n[0], &n[1]);
  for(c = 2; c-- > 0; ){
    if( n[c]==0 ) continue;
    k = gr_js__omemo_slot(p, n[c]);
    for(w = 0; w < 2; w++){
      if( m->n[k + w]!=n[c] || m->depth[k + w]!=s->depth || !gr_js__omemo_same(m, k + w, p, n[c]) ) continue;
      memcpy(val, m->val[k + w], GR_JS_OMEMO_VAL);
      m->older[k >> 1] = (uint8_t)(w ^ 1);
      s->closed_at = p + n[c] - 1;
      s->depth--;
      gr_js__finish_value(s, p + n[c]);
      return 1;
    }
  }
  return 0;
}

/* When the next token is an object key, written compactly and equal to
** ks->name[k], followed at once by ':': consumes both exactly as gr_js_next
** would have (the next call returns the member's value) and returns k. Else
** returns -1 and changes nothing. The token *t of the last gr_js_next is
** left as it was. Key `first` is tried first: writers put an object's keys
** in one order, so the caller passes the one after the key it last read. */
static inline int gr_js__key_is(const gr_js_keyset *ks, unsigned k, uint64_t a, uint64_t b){
  return (((a ^ ks->w[k][0]) & ks->m[k][0]) | ((b ^ ks->w[k][1]) & ks->m[k][1]))==0;
}
static inline int gr_js_key(gr_js *s, const gr_js_keyset *ks, unsigned first){
  uint64_t a, b;
  unsigned k;
  if( (s->state | 1u)!=GR_JS__S_KEY_OR_END || s->end - s->p < 16 || *s->p!='"' || s->max_token < 16 ) return -1;
  memcpy(&a, s->p, 8);
  memcpy(&b, s->p + 8, 8);
  k = first < ks->n ? first : 0;
  if( !gr_js__key_is(ks, k, a, b) ){
    for(k = 0; k < ks->n && !gr_js__key_is(ks, k, a, b); k++) ;
    if( k==ks->n ) return -1;
  }
  s->p += ks->len[k] + 3;
  s->state = GR_JS__S_VALUE;
  return (int)k;
}

/* Skips the rest of the value whose first token is *t (nothing to do for a
** scalar; for '{' or '[' everything up to the matching bracket, validated).
** Returns 0 when the scan failed. */
int gr_js_skip(gr_js *s, const gr_js_tok *t);

/* Line and column of input offset `off`. Offsets must be asked for in
** increasing order and lie in the current window: the start of the token
** just returned (or later) always does. */
void gr_js_pos(gr_js *s, uint64_t off, uint32_t *line, uint32_t *col);

/* The error after GR_JS_ERROR: kind (enum gr_js_errkind) and the located
** message (line/col 0 for a read error). */
static inline const gr_error *gr_js_error(const gr_js *s){ return &s->err; }
static inline int gr_js_errkind(const gr_js *s){ return s->errkind; }

/* Test hook: when nonzero, every read from an fd and every slice of a memory
** buffer is at most this many bytes, and memory input goes through the
** owned window like fd input (so tokens cross chunk boundaries). Not thread
** safe; for the unit tests and the fuzzer only. */
extern size_t gr_js_test_chunk;

#if defined(__SSE2__)
/* The bytes of the 16 at p that a string scan must stop at, as a bit mask:
** '"', '\\', controls and (signed compare: 0x80-0xff are negative, so < 0x20
** flags them too) every non-ASCII byte. Shared with scan_string. */
static inline unsigned gr_js__special16(const char *p){
  const __m128i v = _mm_loadu_si128((const __m128i*)(const void*)p);
  return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                               _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                                  _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
}
#endif

/* A string value right at p ('"'): when it ends within 32 bytes, holding only
** printable ASCII and no escape, it is the token (1); else 0, and gr_js_next
** reads it (escapes, UTF-8, control bytes and long strings are its). */
static inline int gr_js__short_string(gr_js *s, const char *p, gr_js_tok *t){
#if defined(__SSE2__)
  unsigned m = gr_js__special16(p + 1);
  size_t n;
  if( m==0 ){
    m = gr_js__special16(p + 17) << 16;
    if( m==0 ) return 0;
  }
  n = (size_t)__builtin_ctz(m);
  if( p[1 + n]!='"' ) return 0;
  t->off = s->base + (uint64_t)(p - s->win);
  t->s = p + 1;
  t->n = n;
  t->flags = 0;
  t->type = GR_JS_STRING;
  gr_js__finish_value(s, p + 2 + n);
  return 1;
#else
  (void)s; (void)p; (void)t;
  return 0;
#endif
}

static inline __attribute__((always_inline)) int gr_js_next_fast(gr_js *s, gr_js_tok *t){
  const char *p = s->p;
  if( p < s->end ){
    unsigned c = (unsigned char)*p;
    switch( s->state ){
    case GR_JS__S_VALUE_OR_END:
      if( c==']' ){ t->off = s->base + (uint64_t)(p - s->win); return gr_js__close(s, p, 0, t); }
      /* fall through */
    case GR_JS__S_VALUE:
      if( c=='"' ){
        if( s->end - p >= 33 && s->max_token >= 64 && gr_js__short_string(s, p, t) ) return GR_JS_STRING;
        break;
      }
      if( (c=='{' || c=='[') && s->depth < s->max_depth ){
        t->off = s->base + (uint64_t)(p - s->win);
        return gr_js__open(s, p, c=='{', t);
      }
      break;
    case GR_JS__S_KEY_OR_END:
      if( c=='}' ){ t->off = s->base + (uint64_t)(p - s->win); return gr_js__close(s, p, 1, t); }
      break;
    case GR_JS__S_AFTER:
      if( c==(gr_js__top_is_object(s) ? '}' : ']') ){
        t->off = s->base + (uint64_t)(p - s->win);
        return gr_js__close(s, p, c=='}', t);
      }
      break;
    }
  }
  return gr_js_next(s, t);
}

#endif
