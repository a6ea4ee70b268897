/*
** hashmap.c: gr_idmap, an open-addressing index from 64-bit hashes to dense
** ids with linear probing and load at most 1/2. Slots hold only the hash's
** upper 32 bits and the id, and the probe position comes from the same bits,
** so growing the table re-places slots without asking the caller for keys.
** Large tables come from gr_big_alloc (mapped, so untouched slots cost no
** page faults).
*/
#include "config.h"
#include <string.h>
#include "base/hashmap.h"
#include "base/util.h"

void gr_idmap_init(gr_idmap *m){ memset(m, 0, sizeof *m); }

static void rehash(gr_idmap *m, size_t nslots){
  uint64_t *s = gr_big_alloc(nslots * sizeof *s);
  size_t i, mask = nslots - 1;
  for(i = 0; i < m->nslots; i++){
    uint64_t e = m->slots[i];
    size_t j;
    if( e==0 ) continue;
    for(j = (size_t)(e >> 32) & mask; s[j]; j = (j + 1) & mask){}
    s[j] = e;
  }
  gr_big_free(m->slots, m->nslots * sizeof *m->slots);
  m->slots = s;
  m->nslots = nslots;
}

void gr_idmap_reserve(gr_idmap *m, size_t n){
  size_t ns = m->nslots ? m->nslots : 16;
  while( ns / 2 < n + 1 ) ns *= 2;
  if( ns > m->nslots ) rehash(m, ns);
}

gr_idmap_it gr_idmap_probe(const gr_idmap *m, uint64_t h){
  gr_idmap_it it;
  it.tag = (uint32_t)(h >> 32);
  it.j = m->nslots ? (size_t)it.tag & (m->nslots - 1) : 0;
  return it;
}

int gr_idmap_next(const gr_idmap *m, gr_idmap_it *it, uint32_t *id){
  size_t mask;
  if( m->nslots==0 ) return 0;
  mask = m->nslots - 1;
  for(; m->slots[it->j]; it->j = (it->j + 1) & mask){
    uint64_t e = m->slots[it->j];
    if( (uint32_t)(e >> 32)==it->tag ){
      *id = (uint32_t)e - 1;
      it->j = (it->j + 1) & mask;
      return 1;
    }
  }
  return 0;
}

void gr_idmap_add(gr_idmap *m, uint64_t h, uint32_t id){
  size_t j, mask;
  uint32_t tag = (uint32_t)(h >> 32);
  if( (m->n + 1) * 2 > m->nslots ) rehash(m, m->nslots ? m->nslots * 2 : 16);
  mask = m->nslots - 1;
  for(j = (size_t)tag & mask; m->slots[j]; j = (j + 1) & mask){}
  m->slots[j] = (uint64_t)tag << 32 | ((uint64_t)id + 1);
  m->n++;
}

int64_t gr_idmap_find(const gr_idmap *m, uint64_t h, int (*eq)(const void *ctx, uint32_t id), const void *ctx){
  gr_idmap_it it = gr_idmap_probe(m, h);
  uint32_t id;
  while( gr_idmap_next(m, &it, &id) ) if( eq(ctx, id) ) return id;
  return -1;
}

void gr_idmap_free(gr_idmap *m){
  if( m==NULL ) return;
  gr_big_free(m->slots, m->nslots * sizeof *m->slots);
  memset(m, 0, sizeof *m);
}
