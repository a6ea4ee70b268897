/*
** util.h: the small building blocks every stage shares: an error record, a
** bump arena, growable arrays, a string interning pool, a byte buffer and
** file reading. Nothing here knows about rules, graphs or GE.
**
** Ownership: a gr_arena owns every block it hands out (freed together by
** gr_arena_free); a gr_strpool owns its strings (pointers stay valid until
** gr_strpool_free, ids are stable); a gr_buf owns its bytes. File reading is
** base/input.h (included here for every stage). All *_free
** functions accept NULL.
*/
#ifndef GR_UTIL_H
#define GR_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include "base/hashmap.h"

/* A located error message; line/col are 1-based, 0 when unknown. The
** library fills one of these and returns; only the CLI prints. */
typedef struct gr_error {
  uint32_t line, col;
  char msg[512];
} gr_error;

void gr_error_set(gr_error *e, uint32_t line, uint32_t col, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

/* Allocation that never returns NULL: out of memory aborts the process with a
** message (the only exit outside the CLI, as malloc failure is unrecoverable). */
void *gr_xmalloc(size_t n);
void *gr_xcalloc(size_t n, size_t m);
void *gr_xrealloc(void *p, size_t n);
char *gr_xstrdup(const char *s);
char *gr_xstrndup(const char *s, size_t n);
/* The same abort, for a size whose computation overflows. */
void gr_oom(void);
char *gr_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- bump arena ---- */
typedef struct gr_arena_block gr_arena_block;
typedef struct gr_arena {
  gr_arena_block *head;
  size_t used, cap;     /* of head */
  size_t total;         /* bytes reserved, for statistics */
} gr_arena;

void  gr_arena_init(gr_arena *a);
void *gr_arena_alloc(gr_arena *a, size_t n);          /* 8-byte aligned, not zeroed */
void *gr_arena_calloc(gr_arena *a, size_t n);
char *gr_arena_strndup(gr_arena *a, const char *s, size_t n);
void  gr_arena_free(gr_arena *a);

/* Large zero-initialised allocations that may grow: backed by mmap with
** transparent huge pages requested, because page faults dominate the cost of
** touching hundreds of megabytes on the target machines (doc/performance.md). */
void *gr_big_alloc(size_t n);
void *gr_big_realloc(void *p, size_t old_n, size_t new_n);
void  gr_big_free(void *p, size_t n);

/* Puts the first `reserve` bytes of malloc's heap on transparent huge pages,
** for a program whose run is mostly small allocations (loading the rule set:
** about 8 MB of syntax trees in some 50,000 blocks). A process-wide setting
** (it changes malloc's parameters), so only a program calls it, first thing
** in main; the library never does. Does nothing where the C library or the
** kernel lacks the means (not glibc, no MADV_HUGEPAGE, a sanitizer's malloc). */
void  gr_heap_hugepages(size_t reserve);

/* ---- growable array of fixed-size elements ---- */
#define GR_VEC(T) struct { T *v; size_t n, cap; }
#define gr_vec_push(vec, x) do{ \
    if( (vec).n == (vec).cap ){ \
      (vec).cap = (vec).cap ? (vec).cap * 2 : 8; \
      (vec).v = gr_xrealloc((vec).v, (vec).cap * sizeof *(vec).v); \
    } \
    (vec).v[(vec).n++] = (x); \
  }while(0)
#define gr_vec_free(vec) do{ free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; }while(0)

/* ---- hashing ---- */
uint64_t gr_hash(const void *p, size_t n);

/* ---- string interning pool ----
** Strings are stored NUL-terminated; id 0 is the empty string. Lookup and
** insertion are O(1) expected. */
typedef struct gr_strpool {
  char *bytes; size_t nbytes, capbytes;   /* all strings, back to back */
  uint32_t *off; size_t n, cap;           /* id -> offset into bytes */
  gr_idmap index;                         /* gr_hash of a string -> its id */
} gr_strpool;

void        gr_strpool_init(gr_strpool *p);
uint32_t    gr_strpool_intern(gr_strpool *p, const char *s, size_t n);
/* The same with h = gr_hash(s, n) already computed (e.g. for a prefetch). */
uint32_t    gr_strpool_intern_h(gr_strpool *p, const char *s, size_t n, uint64_t h);
/* Sizes the hash table for about n strings, avoiding repeated rehashing. */
void        gr_strpool_reserve(gr_strpool *p, size_t n);
int         gr_strpool_find(const gr_strpool *p, const char *s, size_t n, uint32_t *id);
/* Starts loading the hash slot of a string whose gr_hash is h (a loader that
** knows the hash early overlaps the cache miss with its own work). */
static inline void gr_strpool_prefetch(const gr_strpool *p, uint64_t h){
  if( p->index.nslots ) __builtin_prefetch(&p->index.slots[(size_t)(h >> 32) & (p->index.nslots - 1)], 1);
}
static inline const char *gr_strpool_get(const gr_strpool *p, uint32_t id){ return p->bytes + p->off[id]; }
static inline size_t gr_strpool_count(const gr_strpool *p){ return p->n; }
/* gr_strpool_intern, first comparing s with the string of id *hint (the
** id the caller expects, e.g. the last one of a kind), which costs less than
** hashing and looking s up; *hint becomes s's id. */
uint32_t    gr_strpool_intern_hint(gr_strpool *p, const char *s, size_t n, uint32_t *hint);
void        gr_strpool_free(gr_strpool *p);

/* ---- a string-keyed map to pointers (small tables: names in a rule set) ----
** Entries stay in insertion order: iterate e[0 .. n-1]. */
typedef struct gr_map_entry { const char *key; void *val; } gr_map_entry;
typedef struct gr_map { gr_map_entry *e; size_t n, cap; gr_idmap index; } gr_map;
void  gr_map_init(gr_map *m);
void *gr_map_get(const gr_map *m, const char *key);
/* Returns the previous value (and keeps it) when the key exists, else inserts
** and returns NULL. The key pointer must outlive the map. */
void *gr_map_put(gr_map *m, const char *key, void *val);
void  gr_map_free(gr_map *m);

/* ---- growable byte buffer ---- */
typedef struct gr_buf { char *p; size_t n, cap; } gr_buf;
void gr_buf_init(gr_buf *b);
void gr_buf_grow(gr_buf *b, size_t extra);
void gr_buf_add(gr_buf *b, const void *p, size_t n);
void gr_buf_adds(gr_buf *b, const char *s);
void gr_buf_addc(gr_buf *b, char c);
void gr_buf_printf(gr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gr_buf_vprintf(gr_buf *b, const char *fmt, va_list ap);
char *gr_buf_cstr(gr_buf *b);          /* NUL-terminates, returns b->p */
char *gr_buf_detach(gr_buf *b);        /* caller owns the result */
void gr_buf_free(gr_buf *b);

/* Iterates over the elements of a separated list ("a, b,c" with sep ","),
** each trimmed of spaces and tabs; empty elements are returned too. Start with
** *p = s; returns 0 when the list is exhausted (*p becomes NULL). */
int gr_split_next(const char **p, const char *sep, const char **elem, size_t *len);

/* Appends s[0..n) in a form safe for a terminal and one line of text: control
** bytes become \n, \t, \r or \xNN, C1 controls \u00NN, invalid UTF-8
** bytes \xNN; printable ASCII and valid UTF-8 are kept. When cap > 0 (at
** least 4) the result is at most cap columns (one per code point), cut with
** "...". Returns the width in columns; b NULL only measures. */
size_t gr_buf_add_printable(gr_buf *b, const char *s, size_t n, size_t cap);

/* File reading (after gr_error, which it uses). */
#include "base/input.h"

#endif
