/*
** pbwire.h: the protobuf wire format at its smallest (varints, tags, the four
** wire types still in use), as inline functions over a bounded byte range.
** Used by format detection (model.c) and by the zero-copy ONNX walker
** (onnx.c); the GE ModelDef reader uses protobuf-c instead.
**
** Ownership: a pb_cur points into a buffer the caller owns and keeps alive;
** nothing here allocates or writes.
*/
#ifndef GR_PBWIRE_H
#define GR_PBWIRE_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_cur { const unsigned char *p, *end; } pb_cur;

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

/* One field: number, wire type and value. For PB_LEN, data/len is the
** payload (inside the cursor's range); for the others, v is the value. */
typedef struct pb_field {
  uint32_t num;
  int wt;
  uint64_t v;
  const unsigned char *data;
  size_t len;
} pb_field;

/* 1 = read, 0 = malformed (truncated or over 10 bytes). */
static inline int pb_varint(pb_cur *c, uint64_t *out){
  uint64_t v = 0;
  int shift;
  for(shift = 0; shift < 70 && c->p < c->end; shift += 7){
    unsigned b = *c->p++;
    if( shift==63 && b > 1 ) return 0;
    v |= (uint64_t)(b & 0x7f) << shift;
    if( !(b & 0x80) ){ *out = v; return 1; }
  }
  return 0;
}

/* The next field: 1 = read, 0 = end of range, -1 = malformed (the cursor is
** then left at the bad field's start). Groups (wire types 3, 4) and field
** number 0 are malformed. */
static inline int pb_next(pb_cur *c, pb_field *f){
  const unsigned char *start = c->p;
  uint64_t tag;
  if( c->p >= c->end ) return 0;
  if( !pb_varint(c, &tag) || (tag >> 3)==0 || (tag >> 3) > 0x1fffffff ) goto bad;
  f->num = (uint32_t)(tag >> 3);
  f->wt = (int)(tag & 7);
  f->data = NULL; f->len = 0; f->v = 0;
  switch( f->wt ){
  case PB_VARINT:
    if( !pb_varint(c, &f->v) ) goto bad;
    return 1;
  case PB_I64:
    if( c->end - c->p < 8 ) goto bad;
    { int i; for(i = 7; i >= 0; i--) f->v = f->v << 8 | c->p[i]; }
    c->p += 8;
    return 1;
  case PB_I32:
    if( c->end - c->p < 4 ) goto bad;
    f->v = (uint64_t)c->p[0] | (uint64_t)c->p[1] << 8 | (uint64_t)c->p[2] << 16 | (uint64_t)c->p[3] << 24;
    c->p += 4;
    return 1;
  case PB_LEN: {
    uint64_t n;
    if( !pb_varint(c, &n) || n > (uint64_t)(c->end - c->p) ) goto bad;
    f->data = c->p; f->len = (size_t)n;
    c->p += n;
    return 1;
  }
  default:
    goto bad;
  }
bad:
  c->p = start;
  return -1;
}

#endif
