/*
** hashmap.h: gr_idmap, the one hash table of gerules. It maps 64-bit hashes
** to dense 32-bit ids; the caller keeps its entries in its own array (indexed
** by id) and compares keys itself, so one open-addressing table serves every
** kind of key: interned strings, shapes, names of a rule set, tiling plans,
** rendered reasons. A slot is 8 bytes (the hash's upper 32 bits as a tag and
** id + 1), so a table of a million entries costs 16 MB at load 1/2, and
** growing it never needs the keys again: the tag alone places an entry.
**
** Ownership: a gr_idmap owns its slot array only; gr_idmap_free releases it
** (a zeroed map is empty and safe to free). It never sees the keys.
*/
#ifndef GR_HASHMAP_H
#define GR_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gr_idmap {
  uint64_t *slots;        /* tag << 32 | (id + 1); 0 = empty */
  size_t nslots;          /* a power of two, or 0 */
  size_t n;               /* ids added */
} gr_idmap;

/* A walk over the ids whose hash tag equals that of one hash, in probe order. */
typedef struct gr_idmap_it {
  size_t j;
  uint32_t tag;
} gr_idmap_it;

void gr_idmap_init(gr_idmap *m);
/* Sizes the table for n ids in all, so that adding them never rehashes. */
void gr_idmap_reserve(gr_idmap *m, size_t n);
/* Starts a walk over the candidates for hash h. */
gr_idmap_it gr_idmap_probe(const gr_idmap *m, uint64_t h);
/* Next candidate id of the walk (returns 1), or 0 when there is none. */
int  gr_idmap_next(const gr_idmap *m, gr_idmap_it *it, uint32_t *id);
/* Adds id under hash h (no duplicate check: look it up first). */
void gr_idmap_add(gr_idmap *m, uint64_t h, uint32_t id);
void gr_idmap_free(gr_idmap *m);
/* Bytes of the slot array. */
static inline size_t gr_idmap_bytes(const gr_idmap *m){ return m->nslots * sizeof *m->slots; }

/* The usual lookup: the first candidate for which eq(ctx, id) holds, as id,
** or -1. */
int64_t gr_idmap_find(const gr_idmap *m, uint64_t h, int (*eq)(const void *ctx, uint32_t id), const void *ctx);

/* Spreads an integer key (a string id, a packed tuple) over 64 bits. */
static inline uint64_t gr_hash_u64(uint64_t k){
  k ^= k >> 33; k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

#endif
