/*
** util.c: error records, arenas, growable buffers, the string interning pool,
** a small string map, file reading and edit distance. These are shared by
** every stage (rule parser, checker, graph loader, evaluator, reporters) and
** know nothing of the rule language or of GE.
*/
#include "config.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void gr_error_set(gr_error *e, uint32_t line, uint32_t col, const char *fmt, ...){
  va_list ap;
  if( e==NULL ) return;
  e->line = line; e->col = col;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
}

static void oom(void){
  static const char m[] = "gerules: out of memory\n";
  if( write(2, m, sizeof m - 1) < 0 ){ /* nothing more to do */ }
  abort();
}

void gr_oom(void){ oom(); }
void *gr_xmalloc(size_t n){ void *p = malloc(n ? n : 1); if( !p ) oom(); return p; }
void *gr_xcalloc(size_t n, size_t m){ void *p = calloc(n ? n : 1, m ? m : 1); if( !p ) oom(); return p; }
void *gr_xrealloc(void *p, size_t n){ p = realloc(p, n ? n : 1); if( !p ) oom(); return p; }
char *gr_xstrdup(const char *s){ return gr_xstrndup(s, strlen(s)); }
char *gr_xstrndup(const char *s, size_t n){
  char *p = gr_xmalloc(n + 1);
  memcpy(p, s, n); p[n] = 0;
  return p;
}
char *gr_xasprintf(const char *fmt, ...){
  gr_buf b; va_list ap;
  gr_buf_init(&b);
  va_start(ap, fmt); gr_buf_vprintf(&b, fmt, ap); va_end(ap);
  return gr_buf_detach(&b);
}

/* ---- arena ---- */
struct gr_arena_block { gr_arena_block *next; size_t size; };
#define ARENA_HDR ((sizeof(gr_arena_block) + 15) & ~(size_t)15)

void gr_arena_init(gr_arena *a){ memset(a, 0, sizeof *a); }

void *gr_arena_alloc(gr_arena *a, size_t n){
  n = (n + 7) & ~(size_t)7;
  if( a->head==NULL || a->used + n > a->cap ){
    size_t sz = a->total < (1u<<20) ? 64u<<10 : 1u<<20;
    gr_arena_block *b;
    if( sz < n + ARENA_HDR ) sz = n + ARENA_HDR;
    b = gr_xmalloc(sz);
    b->next = a->head; b->size = sz;
    a->head = b; a->used = ARENA_HDR; a->cap = sz; a->total += sz;
  }
  {
    void *p = (char*)a->head + a->used;
    a->used += n;
    return p;
  }
}
void *gr_arena_calloc(gr_arena *a, size_t n){ void *p = gr_arena_alloc(a, n); memset(p, 0, n); return p; }
char *gr_arena_strndup(gr_arena *a, const char *s, size_t n){
  char *p = gr_arena_alloc(a, n + 1);
  memcpy(p, s, n); p[n] = 0;
  return p;
}
void gr_arena_free(gr_arena *a){
  gr_arena_block *b, *nx;
  if( a==NULL ) return;
  for(b = a->head; b; b = nx){ nx = b->next; free(b); }
  memset(a, 0, sizeof *a);
}

/* ---- big allocations ---- */
#define BIG_MIN (1u<<21)
static size_t big_round(size_t n){ return (n + 4095) & ~(size_t)4095; }

void *gr_big_alloc(size_t n){
  void *p;
  if( n < BIG_MIN ) return gr_xcalloc(1, n);
  p = mmap(NULL, big_round(n), PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  if( p==MAP_FAILED ) oom();
#ifdef MADV_HUGEPAGE
  madvise(p, big_round(n), MADV_HUGEPAGE);
#endif
  return p;
}
void *gr_big_realloc(void *p, size_t old_n, size_t new_n){
  void *q;
  if( p==NULL ) return gr_big_alloc(new_n);
  if( old_n < BIG_MIN && new_n < BIG_MIN ){
    q = gr_xrealloc(p, new_n);
    if( new_n > old_n ) memset((char*)q + old_n, 0, new_n - old_n);
    return q;
  }
  if( old_n < BIG_MIN ){
    q = gr_big_alloc(new_n);
    memcpy(q, p, old_n < new_n ? old_n : new_n);
    free(p);
    return q;
  }
#ifdef MREMAP_MAYMOVE
  q = mremap(p, big_round(old_n), big_round(new_n), MREMAP_MAYMOVE);
  if( q==MAP_FAILED ) oom();
# ifdef MADV_HUGEPAGE
  madvise(q, big_round(new_n), MADV_HUGEPAGE);
# endif
  return q;
#else
  q = gr_big_alloc(new_n);
  memcpy(q, p, old_n < new_n ? old_n : new_n);
  gr_big_free(p, old_n);
  return q;
#endif
}
void gr_big_free(void *p, size_t n){
  if( p==NULL ) return;
  if( n < BIG_MIN ) free(p);
  else munmap(p, big_round(n));
}

/* The heap: glibc's malloc takes small blocks from one region it grows with
** brk, and a region is advised as a whole. So the region is grown once,
** now, by `reserve` (M_TOP_PAD: the extra malloc asks the kernel for when it
** next grows the heap), and advised MADV_HUGEPAGE: its pages are then
** faulted in 2 MiB at a time. Measured (doc/performance.md 7.2): the 63-node
** eval touches about 2,300 pages of 4 KiB, which cost more than half its CPU
** time on these machines; with this, 650 faults. Then M_TOP_PAD goes back to
** glibc's default, so that later growths (a new region on ordinary pages)
** ask for no more than before: under a tight address-space limit (ulimit
** -v) the reserve may fail, and the run must not. M_TRIM_THRESHOLD keeps
** free() from handing the reserve back at once (the probes are freed at the
** top of the heap), and M_MMAP_THRESHOLD is set because setting the others
** turns off malloc's own raising of it: blocks under 32 MiB come from the
** heap, bigger arrays use gr_big_alloc. */
void gr_heap_hugepages(size_t reserve){
#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)2 << 20;
  const int default_pad = 128 << 10;     /* glibc's M_TOP_PAD and M_TRIM_THRESHOLD (mallopt(3)) */
  char *lo = sbrk(0), *hi;
  void *probe[8];
  int n = 0;
  if( lo==(char*)-1 || reserve==0 ) return;
  if( reserve > (size_t)1 << 30 ) reserve = (size_t)1 << 30;
  if( mallopt(M_TOP_PAD, (int)reserve)==0 ) return;
  mallopt(M_TRIM_THRESHOLD, (int)(reserve + (reserve >> 1)));
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  /* the top of the heap may already hold a few hundred KiB free: allocate
  ** until malloc has grown it once (by reserve), then give the blocks back */
  while( n < 8 && sbrk(0)==lo ){
    if( (probe[n] = malloc(64u << 10))==NULL ) break;
    n++;
  }
  while( n > 0 ) free(probe[--n]);
  mallopt(M_TOP_PAD, default_pad);
  hi = sbrk(0);
  if( hi==(char*)-1 || hi==lo ){
    mallopt(M_TRIM_THRESHOLD, default_pad);     /* no reserve: trim as before */
    return;
  }
  {
    uintptr_t a = ((uintptr_t)lo + huge - 1) & ~(huge - 1);
    if( a < (uintptr_t)hi ) (void)madvise((void*)a, (uintptr_t)hi - a, MADV_HUGEPAGE);
  }
#else
  (void)reserve;
#endif
}

/* ---- hashing: a word-at-a-time multiply/xor hash; quality is enough for
** open addressing with full-hash comparison ---- */
static inline uint64_t rd64(const unsigned char *p){ uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint64_t mix(uint64_t h){
  h ^= h >> 32; h *= 0xd6e8feb86659fd93ULL; h ^= h >> 32;
  return h;
}
uint64_t gr_hash(const void *vp, size_t n){
  const unsigned char *p = vp;
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while( n >= 8 ){
    h = (h ^ rd64(p)) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    p += 8; n -= 8;
  }
  if( n ){
    uint64_t t = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__==__ORDER_LITTLE_ENDIAN__
    /* The same value as the memcpy below, without its byte loop (measured:
    ** the tail was a quarter of this function's instructions): a string of 8
    ** bytes or more reads the word that ends with it and shifts the tail
    ** down; a shorter one ORs two overlapping loads of the same bytes. */
    if( p - (const unsigned char*)vp >= 8 ){
      t = rd64(p + n - 8) >> (8 * (8 - n));
    }else if( n >= 4 ){
      uint32_t lo, hi;
      memcpy(&lo, p, 4); memcpy(&hi, p + n - 4, 4);
      t = (uint64_t)lo | (uint64_t)hi << (8 * (n - 4));
    }else{
      t = (uint64_t)p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) | (uint64_t)p[n - 1] << (8 * (n - 1));
    }
#else
    memcpy(&t, p, n);
#endif
    h = (h ^ t) * 0x94d049bb133111ebULL;
  }
  return mix(h);
}

/* ---- string pool ---- */
void gr_strpool_init(gr_strpool *p){
  memset(p, 0, sizeof *p);
  gr_strpool_intern(p, "", 0);
}

typedef struct pool_key { const gr_strpool *p; const char *s; size_t n; } pool_key;
static int pool_eq(const void *ctx, uint32_t id){
  const pool_key *k = ctx;
  const char *t = k->p->bytes + k->p->off[id];
  return memcmp(t, k->s, k->n)==0 && t[k->n]==0;
}

void gr_strpool_reserve(gr_strpool *p, size_t n){ gr_idmap_reserve(&p->index, n); }

int gr_strpool_find(const gr_strpool *p, const char *s, size_t n, uint32_t *id){
  pool_key k = { p, s, n };
  int64_t i = gr_idmap_find(&p->index, gr_hash(s, n), pool_eq, &k);
  if( i < 0 ) return 0;
  *id = (uint32_t)i;
  return 1;
}

uint32_t gr_strpool_intern(gr_strpool *p, const char *s, size_t n){ return gr_strpool_intern_h(p, s, n, gr_hash(s, n)); }

uint32_t gr_strpool_intern_hint(gr_strpool *p, const char *s, size_t n, uint32_t *hint){
  uint32_t id = *hint;
  size_t end = (size_t)id + 1 < p->n ? p->off[id + 1] : p->nbytes;
  if( id < p->n && end - p->off[id]==n + 1 && memcmp(p->bytes + p->off[id], s, n)==0 ) return id;
  return *hint = gr_strpool_intern(p, s, n);
}

uint32_t gr_strpool_intern_h(gr_strpool *p, const char *s, size_t n, uint64_t h){
  pool_key k = { p, s, n };
  int64_t found = gr_idmap_find(&p->index, h, pool_eq, &k);
  uint32_t id;
  if( found >= 0 ) return (uint32_t)found;
  if( n >= UINT32_MAX - p->nbytes ) oom();                 /* offsets are 32-bit */
  if( p->nbytes + n + 1 > p->capbytes ){
    size_t nc = p->capbytes ? p->capbytes * 2 : 4096;
    while( nc < p->nbytes + n + 1 ) nc *= 2;
    p->bytes = gr_big_realloc(p->bytes, p->capbytes, nc);
    p->capbytes = nc;
  }
  if( p->n==p->cap ){
    size_t nc = p->cap ? p->cap * 2 : 64;
    p->off = gr_big_realloc(p->off, p->cap * sizeof *p->off, nc * sizeof *p->off);
    p->cap = nc;
  }
  id = (uint32_t)p->n++;
  p->off[id] = (uint32_t)p->nbytes;
  memcpy(p->bytes + p->nbytes, s, n);
  p->bytes[p->nbytes + n] = 0;
  p->nbytes += n + 1;
  gr_idmap_add(&p->index, h, id);
  return id;
}

void gr_strpool_free(gr_strpool *p){
  if( p==NULL ) return;
  gr_big_free(p->bytes, p->capbytes);
  gr_big_free(p->off, p->cap * sizeof *p->off);
  gr_idmap_free(&p->index);
  memset(p, 0, sizeof *p);
}

/* ---- string map ---- */
void gr_map_init(gr_map *m){ memset(m, 0, sizeof *m); }

static int map_eq(const void *ctx, uint32_t id){
  const void *const *k = ctx;
  const gr_map *m = k[0];
  return strcmp(m->e[id].key, k[1])==0;
}
static int64_t map_find(const gr_map *m, const char *key, uint64_t h){
  const void *k[2] = { m, key };
  return gr_idmap_find(&m->index, h, map_eq, k);
}
void *gr_map_get(const gr_map *m, const char *key){
  int64_t i;
  if( m->n==0 ) return NULL;
  i = map_find(m, key, gr_hash(key, strlen(key)));
  return i >= 0 ? m->e[i].val : NULL;
}
void *gr_map_put(gr_map *m, const char *key, void *val){
  uint64_t h = gr_hash(key, strlen(key));
  int64_t i = map_find(m, key, h);
  if( i >= 0 ) return m->e[i].val;
  if( m->n==m->cap ){
    m->cap = m->cap ? m->cap * 2 : 16;
    m->e = gr_xrealloc(m->e, m->cap * sizeof *m->e);
  }
  m->e[m->n].key = key; m->e[m->n].val = val;
  gr_idmap_add(&m->index, h, (uint32_t)m->n);
  m->n++;
  return NULL;
}
void gr_map_free(gr_map *m){ if( m ){ free(m->e); gr_idmap_free(&m->index); memset(m, 0, sizeof *m); } }

/* ---- buffer ---- */
void gr_buf_init(gr_buf *b){ b->p = NULL; b->n = b->cap = 0; }
void gr_buf_grow(gr_buf *b, size_t extra){
  if( b->n + extra + 1 > b->cap ){
    size_t nc = b->cap ? b->cap * 2 : 256;
    while( nc < b->n + extra + 1 ) nc *= 2;
    b->p = gr_xrealloc(b->p, nc);
    b->cap = nc;
  }
}
void gr_buf_add(gr_buf *b, const void *p, size_t n){
  gr_buf_grow(b, n);
  if( n ) memcpy(b->p + b->n, p, n);   /* an empty piece may come as (NULL, 0): memcpy(NULL) is UB */
  b->n += n;
}
void gr_buf_adds(gr_buf *b, const char *s){ gr_buf_add(b, s, strlen(s)); }
void gr_buf_addc(gr_buf *b, char c){ gr_buf_grow(b, 1); b->p[b->n++] = c; }
void gr_buf_vprintf(gr_buf *b, const char *fmt, va_list ap){
  /* one vsnprintf into the room left when the text fits (nearly always:
  ** the buffer keeps 64 bytes spare), a second only when it does not;
  ** measuring first made every call two (callgrind: 5% of a 100K-node eval) */
  va_list ap2;
  size_t room;
  int k;
  gr_buf_grow(b, 64);
  room = b->cap - b->n;
  va_copy(ap2, ap);
  k = vsnprintf(b->p + b->n, room, fmt, ap2);
  va_end(ap2);
  if( k < 0 ){ b->p[b->n] = 0; return; }
  if( (size_t)k >= room ){
    gr_buf_grow(b, (size_t)k);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
  }
  b->n += (size_t)k;
}
void gr_buf_printf(gr_buf *b, const char *fmt, ...){
  va_list ap;
  va_start(ap, fmt); gr_buf_vprintf(b, fmt, ap); va_end(ap);
}
char *gr_buf_cstr(gr_buf *b){ gr_buf_grow(b, 0); b->p[b->n] = 0; return b->p; }
char *gr_buf_detach(gr_buf *b){ char *p = gr_buf_cstr(b); gr_buf_init(b); return p; }
void gr_buf_free(gr_buf *b){ if( b ){ free(b->p); gr_buf_init(b); } }

int gr_split_next(const char **p, const char *sep, const char **elem, size_t *len){
  const char *a = *p, *b, *q;
  if( a==NULL ) return 0;
  q = sep[0] ? strstr(a, sep) : NULL;
  b = q ? q : a + strlen(a);
  while( a < b && (*a==' ' || *a=='\t') ) a++;
  while( b > a && (b[-1]==' ' || b[-1]=='\t') ) b--;
  *elem = a;
  *len = (size_t)(b - a);
  *p = q ? q + strlen(sep) : NULL;
  return 1;
}

/* ---- terminal-safe text ---- */

/* Length of the valid UTF-8 sequence at p (p[0] >= 0x80, n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n){
  size_t k, i;
  if( p[0] >= 0xc2 && p[0] <= 0xdf ) k = 2;
  else if( p[0] >= 0xe0 && p[0] <= 0xef ) k = 3;
  else if( p[0] >= 0xf0 && p[0] <= 0xf4 ) k = 4;
  else return 0;
  if( n < k ) return 0;
  for(i = 1; i < k; i++) if( (p[i] & 0xc0)!=0x80 ) return 0;
  if( k==3 && p[0]==0xe0 && p[1] < 0xa0 ) return 0;     /* overlong */
  if( k==3 && p[0]==0xed && p[1] >= 0xa0 ) return 0;    /* surrogate */
  if( k==4 && p[0]==0xf0 && p[1] < 0x90 ) return 0;
  if( k==4 && p[0]==0xf4 && p[1] >= 0x90 ) return 0;
  return k;
}

/* Appends s escaped (b NULL: only measures), stopping before the width
** would pass cap (0 = no cap); *cut tells whether it stopped early. */
static size_t printable(gr_buf *b, const unsigned char *p, size_t n, size_t cap, int *cut){
  const unsigned char *end = p + n;
  size_t w = 0;
  char esc[8];
  *cut = 0;
  while( p < end ){
    const unsigned char *q = p;
    size_t k = 1, ew;
    /* the longest run of plain printable ASCII, copied at once */
    while( q < end && *q >= 0x20 && *q < 0x7f ) q++;
    if( q > p ){
      size_t m = (size_t)(q - p);
      if( cap && w + m > cap ){ m = cap - w; *cut = 1; }
      if( b ) gr_buf_add(b, p, m);
      w += m; p += m;
      if( *cut ) return w;
      continue;
    }
    if( *p >= 0x80 && (k = utf8_seq(p, (size_t)(end - p)))!=0 &&
        !(k==2 && p[0]==0xc2 && p[1] < 0xa0) ){          /* C1 controls (U+0080..U+009F) are escaped */
      if( cap && w + 1 > cap ){ *cut = 1; return w; }
      if( b ) gr_buf_add(b, p, k);
      w += 1; p += k;
      continue;
    }
    if( k==2 ){ snprintf(esc, sizeof esc, "\\u%04x", p[1]); ew = 6; }
    else{
      k = 1;
      switch( *p ){
        case '\n': memcpy(esc, "\\n", 3); ew = 2; break;
        case '\t': memcpy(esc, "\\t", 3); ew = 2; break;
        case '\r': memcpy(esc, "\\r", 3); ew = 2; break;
        default: snprintf(esc, sizeof esc, "\\x%02x", *p); ew = 4;
      }
    }
    if( cap && w + ew > cap ){ *cut = 1; return w; }
    if( b ) gr_buf_add(b, esc, ew);
    w += ew; p += k;
  }
  return w;
}

size_t gr_buf_add_printable(gr_buf *b, const char *s, size_t n, size_t cap){
  int cut;
  size_t w;
  if( cap && cap < 4 ) cap = 4;
  w = printable(NULL, (const unsigned char*)s, n, cap, &cut);
  if( !cut ) return b ? printable(b, (const unsigned char*)s, n, 0, &cut) : w;
  w = printable(b, (const unsigned char*)s, n, cap - 3, &cut);
  if( b ) gr_buf_add(b, "...", 3);
  return w + 3;
}
