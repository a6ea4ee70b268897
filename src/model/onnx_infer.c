/*
** onnx_infer.c: ONNX shape inference for the ONNX reader (onnx_int.h):
** output 0 of a node as GE's InferShape would give it, for the ops the rule
** set gives a shape function (table onnx_shapes in rules/onnx.rules names an
** ONNX op's class; the functions are ONNX operator semantics, onnx/docs/
** Operators.md), one function per family: element-wise, MatMul/Gemm,
** Conv/pools, Reshape/Flatten, Transpose/Concat/Gather, reductions and
** (Un)Squeeze, Shape, Resize/Upsample, ConvTranspose. Each gives the output
** shape and dtype from the inputs' shapes, the node's attributes and small
** integer constants (a Reshape's shape, axes inputs; a Resize's FLOAT scales;
** never weights), or leaves them unknown: never a guess. A dim that cannot be
** known is -1 while the rank still is (a Resize to sizes computed at run
** time has X's rank): an unknown rank is only for what ONNX does not fix.
*/
#include "config.h"
#include "model/onnx_int.h"
#include "model/pbwire.h"

#include <stdlib.h>
#include <string.h>

static int in_shape(const gr_oinfer *x, size_t i, ishape *s){
  const prod *p;
  const int64_t *d;
  uint32_t nd, k;
  memset(s, 0, sizeof *s);
  if( i >= x->nin || !x->inok[i] ) return 0;
  p = &x->ins[i];
  s->dtype = p->dtype;
  if( p->shape==NO_SHAPE ) return 0;
  d = gr_build_shape_dims(x->b, p->shape, &nd);
  if( nd > GR_INFER_MAX_DIMS || (nd==1 && d[0]==-2) ) return 0;
  for(k = 0; k < nd; k++) s->d[k] = d[k] < 0 ? -1 : d[k];
  s->nd = nd; s->known = 1;
  return 1;
}

static const gr_onnx_attr_view *attr(const onode *o, const char *name){
  size_t i, n = strlen(name);
  for(i = 0; i < o->attrs.n; i++) if( o->attrs.v[i].nlen==n && memcmp(o->attrs.v[i].name, name, n)==0 ) return &o->attrs.v[i];
  return NULL;
}
static int64_t attr_i(const onode *o, const char *name, int64_t def){
  const gr_onnx_attr_view *a = attr(o, name);
  return a && a->kind==1 ? a->i : def;
}

/* The ints of a list attribute (at most max); -1 when absent or not ints. */
static int attr_ints(const onode *o, const char *name, int64_t *v, size_t max){
  size_t i, n = strlen(name), k = 0;
  for(i = 0; i < o->attrs.n; i++){
    const gr_onnx_attr_view *a = &o->attrs.v[i];
    pb_field f;
    pb_cur c;
    if( a->nlen!=n || memcmp(a->name, name, n)!=0 || a->kind!=4 ) continue;
    c.p = o->attr_raw.v[i].p; c.end = c.p + o->attr_raw.v[i].n;
    while( pb_next(&c, &f) > 0 ){
      if( f.num!=8 ) continue;
      if( f.wt==PB_VARINT ){ if( k==max ) return -1; v[k++] = (int64_t)f.v; }
      else if( f.wt==PB_LEN ){
        pb_cur q = { f.data, f.data + f.len };
        uint64_t u;
        while( q.p < q.end ){ if( !pb_varint(&q, &u) || k==max ) return -1; v[k++] = (int64_t)u; }
      }
    }
    return (int)k;
  }
  return -1;
}

/* The TensorProto of input i when it is a constant held in the model (not
** external data): its bytes in *t, data_type in *dt, raw_data in *raw
** (NULL when absent); 0 when the input is no such constant. */
static int const_head(const gr_oinfer *x, size_t i, span *t, int64_t *dt, const unsigned char **raw, size_t *rawn){
  pb_field f;
  pb_cur c;
  *dt = 0; *raw = NULL; *rawn = 0;
  if( i >= x->nin || !x->inok[i] || !x->ins[i].value.p ) return 0;
  *t = x->ins[i].value;
  c.p = t->p; c.end = c.p + t->n;
  while( pb_next(&c, &f) > 0 ){
    if( f.num==2 && f.wt==PB_VARINT ) *dt = (int64_t)f.v;
    else if( f.num==14 && f.wt==PB_VARINT && f.v==1 ) return 0;     /* external */
    else if( f.num==9 && f.wt==PB_LEN ){ *raw = f.data; *rawn = f.len; }
  }
  return 1;
}

/* The little-endian 4 bytes at p (TensorProto's raw_data, packed fixed32). */
static uint32_t le32(const unsigned char *p){
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The values of a small integer constant (an initializer or a Constant
** node's value: INT64 or INT32, in raw_data or the typed field); -1 when the
** input is no such constant or holds more than max values. Only such
** shape-like tensors are ever read, never weights. */
static int const_ints(const gr_oinfer *x, size_t i, int64_t *v, size_t max){
  pb_field f;
  pb_cur c;
  int64_t dt;
  size_t k = 0;
  const unsigned char *raw;
  size_t rawn;
  int typed = 0;
  span t;
  if( !const_head(x, i, &t, &dt, &raw, &rawn) || (dt!=7 && dt!=6) ) return -1;
  c.p = t.p; c.end = c.p + t.n;
  while( pb_next(&c, &f) > 0 ){
    if( !((dt==7 && f.num==7) || (dt==6 && f.num==5)) ) continue;
    typed = 1;
    if( f.wt==PB_VARINT ){ if( k==max ) return -1; v[k++] = dt==6 ? (int32_t)f.v : (int64_t)f.v; }
    else if( f.wt==PB_LEN ){
      pb_cur q = { f.data, f.data + f.len };
      uint64_t u;
      while( q.p < q.end ){ if( !pb_varint(&q, &u) || k==max ) return -1; v[k++] = dt==6 ? (int32_t)u : (int64_t)u; }
    }
  }
  if( !typed && raw ){
    size_t w = dt==7 ? 8 : 4, j;
    if( rawn % w || rawn / w > max ) return -1;
    for(j = 0; j < rawn / w; j++){
      if( w==8 ){ uint64_t u = 0; int b; for(b = 7; b >= 0; b--) u = u << 8 | raw[j * 8 + (size_t)b]; v[k++] = (int64_t)u; }
      else v[k++] = (int32_t)le32(raw + j * 4);
    }
  }
  return (int)k;
}

/* numpy broadcasting of a into r (r starts as a copy of the first input) */
static int bcast(ishape *r, const ishape *a){
  uint32_t n = r->nd > a->nd ? r->nd : a->nd, k;
  int64_t out[GR_INFER_MAX_DIMS];
  for(k = 0; k < n; k++){
    int64_t p = k < n - r->nd ? 1 : r->d[k - (n - r->nd)];
    int64_t q = k < n - a->nd ? 1 : a->d[k - (n - a->nd)];
    if( p==q ) out[k] = p;
    else if( p==1 ) out[k] = q;
    else if( q==1 ) out[k] = p;
    else if( p==-1 || q==-1 ) out[k] = p==-1 ? (q > 1 ? q : -1) : (p > 1 ? p : -1);
    else return 0;                            /* incompatible: unknown */
  }
  memcpy(r->d, out, n * sizeof *out);
  r->nd = n;
  return 1;
}

static int norm_axis(int64_t a, uint32_t rank, uint32_t *out){
  if( a < 0 ) a += rank;
  if( a < 0 || a >= (int64_t)rank ) return 0;
  *out = (uint32_t)a;
  return 1;
}

static uint16_t dt_of(const gr_oinfer *x, int64_t onnx_type){ return gr_onnx_dtype_id(x->b, x->dt, onnx_type); }

/* Element-wise ops: the input's shape (Cast: with `to`'s dtype), or the
** inputs broadcast together (Where: the dtype of its second input). */
static int sf_elementwise(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a;
  int ok;
  switch( fn ){
  case GR_SF_SAME:
    return in_shape(x, 0, out);
  case GR_SF_CAST: {                   /* the dtype is `to`'s even when the shape is not known */
    uint16_t dt = dt_of(x, attr_i(o, "to", 0));
    ok = in_shape(x, 0, out);
    out->dtype = dt;
    return ok;
  }
  default: {                           /* GR_SF_BCAST, GR_SF_BCAST_BOOL, GR_SF_WHERE */
    size_t i;
    int first = 1;
    for(i = 0; i < o->in.n; i++){
      if( !o->in.v[i].n ) continue;
      if( !in_shape(x, i, &a) ) return 0;
      if( first ){ *out = a; first = 0; }
      else if( !bcast(out, &a) ) return 0;
    }
    if( first ) return 0;
    if( fn==GR_SF_BCAST_BOOL ) out->dtype = dt_of(x, 9);
    else if( fn==GR_SF_WHERE ){ ishape t; out->dtype = in_shape(x, 1, &t) ? t.dtype : 0; }
    return 1;
  }
  }
}

/* MatMul (numpy semantics, batch dims broadcast) and Gemm. */
static int sf_matmul(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a, b;
  if( fn==GR_SF_MATMUL ){
    ishape p, q;
    int64_t m, nn;
    if( !in_shape(x, 0, &a) || !in_shape(x, 1, &b) || a.nd==0 || b.nd==0 ) return 0;
    /* 1-D operands are promoted, and the added dim dropped again */
    p = a; q = b;
    if( p.nd==1 ){ p.d[1] = p.d[0]; p.d[0] = 1; p.nd = 2; }
    if( q.nd==1 ){ q.d[1] = 1; q.nd = 2; }
    if( p.d[p.nd - 1] >= 0 && q.d[q.nd - 2] >= 0 && p.d[p.nd - 1]!=q.d[q.nd - 2] ) return 0;
    m = p.d[p.nd - 2]; nn = q.d[q.nd - 1];
    p.nd -= 2; q.nd -= 2;
    if( !bcast(&p, &q) ) return 0;
    *out = p;
    out->known = 1; out->dtype = a.dtype;
    if( a.nd!=1 ) out->d[out->nd++] = m;
    if( b.nd!=1 ) out->d[out->nd++] = nn;
    return 1;
  }else{                               /* GR_SF_GEMM */
    int ta = attr_i(o, "transA", 0)!=0, tb = attr_i(o, "transB", 0)!=0;
    if( !in_shape(x, 0, &a) || !in_shape(x, 1, &b) || a.nd!=2 || b.nd!=2 ) return 0;
    out->known = 1; out->dtype = a.dtype; out->nd = 2;
    out->d[0] = ta ? a.d[1] : a.d[0];
    out->d[1] = tb ? b.d[0] : b.d[1];
    return 1;
  }
}

/* Conv and the pools: N, C (Conv: the filter's M), then each spatial dim
** from its kernel, stride, dilation and pads; global pools give 1s. */
static int sf_window(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a, b;
  uint32_t k;
  if( fn==GR_SF_GPOOL ){
    if( !in_shape(x, 0, out) || out->nd < 3 ) return 0;
    for(k = 2; k < out->nd; k++) out->d[k] = 1;
    return 1;
  }
  {                                    /* GR_SF_CONV, GR_SF_POOL */
    int64_t ks[GR_INFER_MAX_DIMS], st[GR_INFER_MAX_DIMS], dl[GR_INFER_MAX_DIMS], pd[2 * GR_INFER_MAX_DIMS];
    int nk, ns, ndl, np, ceil_mode = attr_i(o, "ceil_mode", 0)!=0, same = 0, valid = 0;
    uint32_t sp;
    const gr_onnx_attr_view *ap = attr(o, "auto_pad");
    if( !in_shape(x, 0, &a) || a.nd < 3 ) return 0;
    sp = a.nd - 2;
    nk = attr_ints(o, "kernel_shape", ks, GR_INFER_MAX_DIMS);
    if( fn==GR_SF_CONV ){
      if( !in_shape(x, 1, &b) || b.nd!=a.nd ) return 0;
      if( nk < 0 ){ for(k = 0; k < sp; k++) ks[k] = b.d[k + 2]; nk = (int)sp; }
    }
    if( nk!=(int)sp ) return 0;
    ns = attr_ints(o, "strides", st, GR_INFER_MAX_DIMS);
    ndl = attr_ints(o, "dilations", dl, GR_INFER_MAX_DIMS);
    np = attr_ints(o, "pads", pd, 2 * GR_INFER_MAX_DIMS);
    if( (ns >= 0 && ns!=(int)sp) || (ndl >= 0 && ndl!=(int)sp) || (np >= 0 && np!=2 * (int)sp) ) return 0;
    if( ap && ap->kind==3 ){
      if( ap->slen==10 && (memcmp(ap->s, "SAME_UPPER", 10)==0 || memcmp(ap->s, "SAME_LOWER", 10)==0) ) same = 1;
      else if( ap->slen==5 && memcmp(ap->s, "VALID", 5)==0 ) valid = 1;
      else if( !(ap->slen==6 && memcmp(ap->s, "NOTSET", 6)==0) ) return 0;
    }
    out->known = 1; out->dtype = a.dtype; out->nd = a.nd;
    out->d[0] = a.d[0];
    out->d[1] = fn==GR_SF_CONV ? b.d[0] : a.d[1];
    for(k = 0; k < sp; k++){
      int64_t in = a.d[k + 2], s = ns >= 0 ? st[k] : 1, dil = ndl >= 0 ? dl[k] : 1;
      int64_t p0 = np >= 0 && !same && !valid ? pd[k] : 0, p1 = np >= 0 && !same && !valid ? pd[k + sp] : 0, pads, ek, num;
      if( p0 < 0 || p1 < 0 || p0 > ((int64_t)1 << 40) || p1 > ((int64_t)1 << 40) ){ out->d[k + 2] = -1; continue; }
      pads = p0 + p1;
      if( s <= 0 || s > ((int64_t)1 << 40) || dil <= 0 || ks[k] <= 0 || pads < 0 || in < 0 || in > ((int64_t)1 << 40)
          || dil > ((int64_t)1 << 20) || ks[k] > ((int64_t)1 << 20) || pads > ((int64_t)1 << 40) ){ out->d[k + 2] = -1; continue; }
      if( same ){ out->d[k + 2] = (in + s - 1) / s; continue; }
      ek = dil * (ks[k] - 1) + 1;
      num = in + pads - ek;
      if( num < 0 ) return 0;
      out->d[k + 2] = (ceil_mode ? (num + s - 1) / s : num / s) + 1;
    }
    return 1;
  }
}

/* Reshape (its shape input a small constant: 0 copies a dim, -1 is what is
** left) and Flatten (two dims around `axis`). */
static int sf_reshape(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a;
  int64_t v[GR_INFER_MAX_DIMS];
  uint32_t k;
  int n, ok;
  if( fn==GR_SF_RESHAPE ){
    int64_t known_prod = 1;
    int neg = -1, allowzero = attr_i(o, "allowzero", 0)!=0;
    n = const_ints(x, 1, v, GR_INFER_MAX_DIMS);
    if( n < 0 ) return 0;
    ok = in_shape(x, 0, &a);
    out->known = 1; out->dtype = x->nin ? x->ins[0].dtype : 0; out->nd = (uint32_t)n;
    for(k = 0; k < (uint32_t)n; k++){
      int64_t d = v[k];
      if( d==0 && !allowzero ){ if( !ok || k >= a.nd ) return 0; d = a.d[k]; }
      else if( d==-1 ){ if( neg >= 0 ) return 0; neg = (int)k; out->d[k] = -1; continue; }
      else if( d < -1 ) return 0;
      out->d[k] = d;
      if( d < 0 ) known_prod = -1;
      else if( known_prod > 0 ){ if( d && known_prod > INT64_MAX / d ) known_prod = -1; else known_prod *= d; }
    }
    if( neg >= 0 && ok ){
      int64_t total = 1;
      for(k = 0; k < a.nd; k++){
        if( a.d[k] < 0 || (a.d[k] && total > INT64_MAX / a.d[k]) ){ total = -1; break; }
        total *= a.d[k];
      }
      if( total >= 0 && known_prod > 0 && total % known_prod==0 ) out->d[neg] = total / known_prod;
    }
    return 1;
  }else{                               /* GR_SF_FLATTEN */
    int64_t l = 1, r = 1, axis = attr_i(o, "axis", 1);
    if( !in_shape(x, 0, &a) ) return 0;
    if( axis < 0 ) axis += a.nd;
    if( axis < 0 || axis > (int64_t)a.nd ) return 0;
    for(k = 0; k < a.nd; k++){
      int64_t *t = (int64_t)k < axis ? &l : &r;
      if( a.d[k] < 0 || *t < 0 || (a.d[k] && *t > INT64_MAX / a.d[k]) ) *t = -1;
      else *t *= a.d[k];
    }
    out->known = 1; out->dtype = a.dtype; out->nd = 2; out->d[0] = l; out->d[1] = r;
    return 1;
  }
}

/* Transpose (by `perm`), Concat (along `axis`) and Gather (the indices'
** dims in place of `axis`). */
static int sf_rearrange(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a, b;
  int64_t v[GR_INFER_MAX_DIMS];
  uint32_t k, ax = 0;
  int n;
  switch( fn ){
  case GR_SF_TRANSPOSE: {
    int seen[GR_INFER_MAX_DIMS] = { 0 };
    if( !in_shape(x, 0, &a) ) return 0;
    n = attr_ints(o, "perm", v, GR_INFER_MAX_DIMS);
    if( n < 0 || (uint32_t)n!=a.nd ) return 0;   /* GE requires perm (no default reversal) */
    out->known = 1; out->dtype = a.dtype; out->nd = a.nd;
    for(k = 0; k < a.nd; k++){
      if( !norm_axis(v[k], a.nd, &ax) || seen[ax]++ ) return 0;
      out->d[k] = a.d[ax];
    }
    return 1;
  }
  case GR_SF_CONCAT: {
    size_t i;
    int first = 1;
    int64_t axis = attr_i(o, "axis", 0);
    for(i = 0; i < o->in.n; i++){
      if( !o->in.v[i].n ) continue;
      if( !in_shape(x, i, &a) ) return 0;
      if( first ){ *out = a; first = 0; if( !norm_axis(axis, a.nd, &ax) ) return 0; continue; }
      if( a.nd!=out->nd ) return 0;
      out->d[ax] = out->d[ax] < 0 || a.d[ax] < 0 || out->d[ax] > INT64_MAX - a.d[ax] ? -1 : out->d[ax] + a.d[ax];
    }
    return !first;
  }
  default: {                           /* GR_SF_GATHER */
    int64_t axis = attr_i(o, "axis", 0);
    if( !in_shape(x, 0, &a) || !in_shape(x, 1, &b) || !norm_axis(axis, a.nd, &ax) ) return 0;
    if( a.nd - 1 + b.nd > GR_INFER_MAX_DIMS ) return 0;
    out->known = 1; out->dtype = a.dtype; out->nd = 0;
    for(k = 0; k < ax; k++) out->d[out->nd++] = a.d[k];
    for(k = 0; k < b.nd; k++) out->d[out->nd++] = b.d[k];
    for(k = ax + 1; k < a.nd; k++) out->d[out->nd++] = a.d[k];
    return 1;
  }
  }
}

/* The reductions (over `axes`, an attribute or a constant input; none:
** every axis), Unsqueeze and Squeeze. */
static int sf_axes(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a;
  int64_t v[GR_INFER_MAX_DIMS];
  uint32_t k, ax = 0;
  int n;
  if( fn==GR_SF_REDUCE ){
    int keep = attr_i(o, "keepdims", 1)!=0, red[GR_INFER_MAX_DIMS] = { 0 };
    if( !in_shape(x, 0, &a) ) return 0;
    n = attr_ints(o, "axes", v, GR_INFER_MAX_DIMS);
    if( n < 0 && o->in.n >= 2 && o->in.v[1].n ){
      n = const_ints(x, 1, v, GR_INFER_MAX_DIMS);
      if( n < 0 ) return 0;                      /* axes from a computed tensor: unknown */
    }
    if( n <= 0 ){
      if( n==0 && attr_i(o, "noop_with_empty_axes", 0) ){ *out = a; return 1; }
      for(k = 0; k < a.nd; k++) red[k] = 1;
    }else for(k = 0; k < (uint32_t)n; k++){ if( !norm_axis(v[k], a.nd, &ax) ) return 0; red[ax] = 1; }
    out->known = 1; out->dtype = a.dtype; out->nd = 0;
    for(k = 0; k < a.nd; k++){
      if( !red[k] ) out->d[out->nd++] = a.d[k];
      else if( keep ) out->d[out->nd++] = 1;
    }
    return 1;
  }
  {                                    /* GR_SF_UNSQUEEZE, GR_SF_SQUEEZE */
    int mark[GR_INFER_MAX_DIMS] = { 0 };
    uint32_t rank, j = 0;
    if( !in_shape(x, 0, &a) ) return 0;
    n = attr_ints(o, "axes", v, GR_INFER_MAX_DIMS);
    if( n < 0 && o->in.n >= 2 && o->in.v[1].n ){ n = const_ints(x, 1, v, GR_INFER_MAX_DIMS); if( n < 0 ) return 0; }
    out->known = 1; out->dtype = a.dtype; out->nd = 0;
    if( fn==GR_SF_UNSQUEEZE ){
      if( n <= 0 ) return 0;
      rank = a.nd + (uint32_t)n;
      if( rank > GR_INFER_MAX_DIMS ) return 0;
      for(k = 0; k < (uint32_t)n; k++) if( !norm_axis(v[k], rank, &ax) || mark[ax]++ ) return 0;
      for(k = 0; k < rank; k++) out->d[out->nd++] = mark[k] ? 1 : a.d[j++];
      return 1;
    }
    if( n < 0 ){                                  /* every dim of 1 (an unknown dim: cannot tell) */
      for(k = 0; k < a.nd; k++){ if( a.d[k] < 0 ) return 0; if( a.d[k]!=1 ) out->d[out->nd++] = a.d[k]; }
      return 1;
    }
    for(k = 0; k < (uint32_t)n; k++){ if( !norm_axis(v[k], a.nd, &ax) ) return 0; mark[ax] = 1; }
    for(k = 0; k < a.nd; k++) if( !mark[k] ) out->d[out->nd++] = a.d[k];
    return 1;
  }
}

/* The values of a small FLOAT constant (as const_ints: an initializer or a
** Constant's value, float_data or raw_data, at most max values; -1 when the
** input is no such constant). Only a Resize's or Upsample's scales are read. */
/* Appends the floats of f (a fixed32 field, or a packed run of them) to
** v[*k..max): 0 when they do not fit or the run is not whole floats. */
static int add_floats(const pb_field *f, float *v, size_t *k, size_t max){
  uint32_t u;
  size_t j;
  if( f->wt==PB_I32 ){ if( *k==max ) return 0; u = (uint32_t)f->v; memcpy(&v[(*k)++], &u, 4); return 1; }
  if( f->wt!=PB_LEN ) return 1;
  if( f->len % 4 || f->len / 4 > max - *k ) return 0;
  for(j = 0; j < f->len; j += 4){ u = le32(f->data + j); memcpy(&v[(*k)++], &u, 4); }
  return 1;
}

static int const_floats(const gr_oinfer *x, size_t i, float *v, size_t max){
  pb_field f;
  pb_cur c;
  int64_t dt;
  size_t k = 0;
  const unsigned char *raw;
  size_t rawn;
  int typed = 0;
  span t;
  if( !const_head(x, i, &t, &dt, &raw, &rawn) || dt!=1 ) return -1;
  c.p = t.p; c.end = c.p + t.n;
  while( pb_next(&c, &f) > 0 ){
    if( f.num!=4 ) continue;
    typed = 1;
    if( !add_floats(&f, v, &k, max) ) return -1;
  }
  if( !typed && raw ){
    /* raw_data: the packed run of float_data's encoding */
    f.wt = PB_LEN; f.data = raw; f.len = rawn;
    if( !add_floats(&f, v, &k, max) ) return -1;
  }
  return (int)k;
}

/* The floats of a list attribute (Upsample-7's scales; at most max); -1 when
** absent or not floats. */
static int attr_floats(const onode *o, const char *name, float *v, size_t max){
  size_t i, n = strlen(name), k = 0;
  for(i = 0; i < o->attrs.n; i++){
    const gr_onnx_attr_view *a = &o->attrs.v[i];
    pb_field f;
    pb_cur c;
    if( a->nlen!=n || memcmp(a->name, name, n)!=0 || a->kind!=4 ) continue;
    c.p = o->attr_raw.v[i].p; c.end = c.p + o->attr_raw.v[i].n;
    while( pb_next(&c, &f) > 0 ) if( f.num==7 && !add_floats(&f, v, &k, max) ) return -1;
    return (int)k;
  }
  return -1;
}

static int attr_is(const onode *o, const char *name, const char *val){
  const gr_onnx_attr_view *a = attr(o, name);
  size_t n = strlen(val);
  return a && a->kind==3 && a->slen==n && memcmp(a->s, val, n)==0;
}

/* floor(d * s), ONNX's output dim of a scaled Resize, only where it is
** certain: d known, s finite in [0, 2^20], and the product in float32 (what
** GE's Cast(Mul(Cast(Shape), scales)) and the runtimes compute) and in
** double give the same floor; else -1. */
static int64_t scaled_dim(int64_t d, float s){
  double r;
  float rf;
  if( d < 0 || d > ((int64_t)1 << 40) || !(s >= 0.0f && s <= 1048576.0f) ) return -1;
  r = (double)d * (double)s;
  rf = (float)d * s;
  if( (int64_t)r!=(int64_t)rf ) return -1;
  return (int64_t)r;
}

/* Resize and Upsample (Operators.md): the output has X's rank whatever the
** sizes or scales, which only resize the dims (with Resize-18's `axes`, the
** dims it names; the others are X's). A dim is known from a constant
** `sizes` (policy stretch), or from constant `scales` and X's dim (not for
** tf_crop_and_resize, whose roi scales it too); else -1. Inputs: Resize-10
** (X, scales), 11 and later (X, roi, scales, sizes); Upsample-9 (X,
** scales), Upsample-7 the `scales` attribute. */
static int sf_resize(const gr_oinfer *x, const onode *o, ishape *out){
  ishape a;
  int64_t ax[GR_INFER_MAX_DIMS], sz[GR_INFER_MAX_DIMS];
  float sc[GR_INFER_MAX_DIMS];
  int sel[GR_INFER_MAX_DIMS] = { 0 }, nax, nsz = -1, nsc = -1, is_resize;
  int has_sizes = 0, has_scales = 0;
  uint32_t k, j, ai = 0;
  if( !in_shape(x, 0, &a) ) return 0;
  is_resize = o->op.n==6 && memcmp(o->op.p, "Resize", 6)==0;
  nax = attr_ints(o, "axes", ax, GR_INFER_MAX_DIMS);
  if( nax > 0 ){
    if( !is_resize ) return 0;
    for(k = 0; k < (uint32_t)nax; k++){ if( !norm_axis(ax[k], a.nd, &ai) || sel[ai]++ ) return 0; }
  }else{
    if( nax==0 || attr(o, "axes") ) return 0;  /* empty, or not a list of at most 16 ints */
    for(k = 0; k < a.nd; k++) sel[k] = 1;
    nax = (int)a.nd;
  }
  if( is_resize && x->ver >= 11 ){
    if( o->in.n >= 4 && o->in.v[3].n ){
      nsz = const_ints(x, 3, sz, GR_INFER_MAX_DIMS);
      has_sizes = nsz!=0;                    /* an empty constant: not given */
    }
    if( !has_sizes && o->in.n >= 3 && o->in.v[2].n ){
      nsc = const_floats(x, 2, sc, GR_INFER_MAX_DIMS);
      has_scales = nsc!=0;
    }
  }else if( is_resize || x->ver >= 9 ){
    if( o->in.n >= 2 && o->in.v[1].n ){ nsc = const_floats(x, 1, sc, GR_INFER_MAX_DIMS); has_scales = nsc!=0; }
  }else{
    nsc = attr_floats(o, "scales", sc, GR_INFER_MAX_DIMS);
    has_scales = nsc > 0;
  }
  if( !has_sizes && !has_scales ) return 0;  /* neither: not a valid node */
  *out = a;
  for(k = 0, j = 0; k < a.nd; k++){
    if( !sel[k] ) continue;
    if( has_sizes ){
      if( nsz < 0 || (attr(o, "keep_aspect_ratio_policy") && !attr_is(o, "keep_aspect_ratio_policy", "stretch")) ) out->d[k] = -1;
      else if( nsz!=nax || sz[j] < 0 ) return 0;
      else out->d[k] = sz[j];
    }else{
      if( nsc < 0 || attr_is(o, "coordinate_transformation_mode", "tf_crop_and_resize") ) out->d[k] = -1;
      else if( nsc!=nax ) return 0;
      else out->d[k] = scaled_dim(a.d[k], sc[j]);
    }
    j++;
  }
  return 1;
}

/* The dtype of ConstantOfShape's output (Operators.md): its `value` tensor
** attribute's data_type, float without one. */
static uint16_t fill_dtype(const gr_oinfer *x, const onode *o){
  pb_cur c;
  pb_field f;
  int64_t dt = 0;
  if( !o->has_value ) return dt_of(x, 1);
  c.p = o->value_tensor.p; c.end = c.p + o->value_tensor.n;
  while( pb_next(&c, &f) > 0 ) if( f.num==2 && f.wt==PB_VARINT ) dt = (int64_t)f.v;
  return dt_of(x, dt);
}

/* ConstantOfShape: the values of input 0 as dims when it is a constant, else
** as many -1 dims as input 0 has elements when its shape says so; the dtype
** fill_dtype's. */
static int sf_const_of_shape(const gr_oinfer *x, const onode *o, ishape *out){
  int64_t v[GR_INFER_MAX_DIMS];
  int n = const_ints(x, 0, v, GR_INFER_MAX_DIMS), i;
  ishape a;
  if( n >= 0 ){
    for(i = 0; i < n; i++) if( v[i] < 0 ) return 0;     /* no such tensor: not inferred */
  }else{
    if( !in_shape(x, 0, &a) || a.nd!=1 || a.d[0] < 0 || a.d[0] > GR_INFER_MAX_DIMS ) return 0;
    n = (int)a.d[0];
    for(i = 0; i < n; i++) v[i] = -1;
  }
  for(i = 0; i < n; i++) out->d[i] = v[i];
  out->known = 1; out->nd = (uint32_t)n; out->dtype = fill_dtype(x, o);
  return 1;
}

/* RandomNormal and RandomUniform (Operators.md): the dims of attribute
** `shape`, the type attribute `dtype` names (float by default);
** RandomNormalLike and RandomUniformLike: input 0's dims, and `dtype`'s
** type, input 0's without it. */
static uint16_t random_dtype(const gr_oinfer *x, int fn, const onode *o){
  const gr_onnx_attr_view *a = attr(o, "dtype");
  if( a && a->kind==1 ) return dt_of(x, a->i);
  if( fn==GR_SF_RANDOM ) return dt_of(x, 1);
  return x->nin > 0 && x->inok[0] ? x->ins[0].dtype : 0;
}
static int sf_random(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  int64_t v[GR_INFER_MAX_DIMS];
  ishape a;
  int n, i;
  if( fn==GR_SF_RANDOM_LIKE ){
    if( !in_shape(x, 0, &a) ) return 0;
    *out = a;
  }else{
    if( (n = attr_ints(o, "shape", v, GR_INFER_MAX_DIMS)) < 0 ) return 0;
    for(i = 0; i < n; i++){ if( v[i] < 0 ) return 0; out->d[i] = v[i]; }
    out->known = 1; out->nd = (uint32_t)n;
  }
  out->dtype = random_dtype(x, fn, o);
  return 1;
}

/* ConvTranspose (Operators.md): N, W's dim 1 times `group`, then each
** spatial dim from `output_shape`, or stride * (in - 1) + output_padding +
** (kernel - 1) * dilation + 1 - pads (SAME_*: in * stride). */
static int sf_conv_transpose(const gr_oinfer *x, const onode *o, ishape *out){
  ishape a, w;
  int64_t ks[GR_INFER_MAX_DIMS], st[GR_INFER_MAX_DIMS], dl[GR_INFER_MAX_DIMS], op[GR_INFER_MAX_DIMS];
  int64_t pd[2 * GR_INFER_MAX_DIMS], os[GR_INFER_MAX_DIMS], group = attr_i(o, "group", 1);
  const int64_t big = (int64_t)1 << 40, small = (int64_t)1 << 20;
  int nk, ns, ndl, nop, np, nos, same = 0, valid = 0, wok;
  uint32_t sp, k;
  const gr_onnx_attr_view *ap = attr(o, "auto_pad");
  if( !in_shape(x, 0, &a) || a.nd < 3 ) return 0;
  sp = a.nd - 2;
  wok = in_shape(x, 1, &w) && w.nd==a.nd;
  nk = attr_ints(o, "kernel_shape", ks, GR_INFER_MAX_DIMS);
  if( nk < 0 && wok ){ for(k = 0; k < sp; k++) ks[k] = w.d[k + 2]; nk = (int)sp; }
  ns = attr_ints(o, "strides", st, GR_INFER_MAX_DIMS);
  ndl = attr_ints(o, "dilations", dl, GR_INFER_MAX_DIMS);
  nop = attr_ints(o, "output_padding", op, GR_INFER_MAX_DIMS);
  np = attr_ints(o, "pads", pd, 2 * GR_INFER_MAX_DIMS);
  nos = attr_ints(o, "output_shape", os, GR_INFER_MAX_DIMS);
  if( (nk >= 0 && nk!=(int)sp) || (ns >= 0 && ns!=(int)sp) || (ndl >= 0 && ndl!=(int)sp)
      || (nop >= 0 && nop!=(int)sp) || (np >= 0 && np!=2 * (int)sp) || (nos >= 0 && nos!=(int)sp) ) return 0;
  if( ap && ap->kind==3 ){
    if( ap->slen==10 && (memcmp(ap->s, "SAME_UPPER", 10)==0 || memcmp(ap->s, "SAME_LOWER", 10)==0) ) same = 1;
    else if( ap->slen==5 && memcmp(ap->s, "VALID", 5)==0 ) valid = 1;
    else if( !(ap->slen==6 && memcmp(ap->s, "NOTSET", 6)==0) ) return 0;
  }
  *out = a;
  out->d[1] = wok && w.d[1] >= 0 && group > 0 && group <= small && w.d[1] <= big ? w.d[1] * group : -1;
  for(k = 0; k < sp; k++){
    int64_t in = a.d[k + 2], s = ns >= 0 ? st[k] : 1, dil = ndl >= 0 ? dl[k] : 1, opad = nop >= 0 ? op[k] : 0;
    int64_t p0 = np >= 0 && !same && !valid ? pd[k] : 0, p1 = np >= 0 && !same && !valid ? pd[k + sp] : 0, r;
    if( nos >= 0 ){ out->d[k + 2] = os[k] >= 0 && os[k] <= big ? os[k] : -1; continue; }
    if( in < 0 || in > big || s <= 0 || s > small || dil <= 0 || dil > small || nk < 0 || ks[k] <= 0 || ks[k] > small
        || opad < 0 || opad > small || p0 < 0 || p0 > big || p1 < 0 || p1 > big ){ out->d[k + 2] = -1; continue; }
    if( same ){ out->d[k + 2] = in * s; continue; }
    r = s * (in - 1) + opad + (ks[k] - 1) * dil + 1 - p0 - p1;
    if( r < 0 ) return 0;
    out->d[k + 2] = r;
  }
  return 1;
}

/* Compress (Operators.md): the slices of input 0 along `axis` whose
** condition is true, or without `axis` the true elements of input 0
** flattened; how many depends on the condition's values, so that dim is -1
** and what reads it dynamic. Input 0's dtype. Unique's output 0 likewise:
** the distinct slices along `axis`, or the distinct elements flattened. */
static int sf_compress(const gr_oinfer *x, const onode *o, ishape *out){
  ishape a;
  uint32_t k;
  if( attr(o, "axis")==NULL ){
    out->known = 1; out->dtype = x->nin && x->inok[0] ? x->ins[0].dtype : 0; out->nd = 1; out->d[0] = -1;
    return 1;
  }
  if( !in_shape(x, 0, &a) || !norm_axis(attr_i(o, "axis", 0), a.nd, &k) ) return 0;
  *out = a;
  out->d[k] = -1;
  return 1;
}

/* Split (Operators.md): output i is input 0 with dim `axis` (default 0) the
** size of part i: the `split` attribute's value (before opset 13) or input
** 1's (from 13); sizes computed in the graph leave the shape unknown, as a
** Reshape's computed shape does (GE folds many such chains to constants
** before its InferShape, which gerules does not follow). Without sizes, an
** equal share of the dim among the outputs (opset 18's num_outputs: the
** last share smaller when the dim does not divide, as Operators.md says;
** before 18 a dim that does not divide has no share, and GE's InferShape of
** Split fails on it), -1 when the dim is. GE's plugin passes the sizes on
** as size_splits (rules/onnx.rules), and the InferShape of SplitV gives each
** output its size. Sizes that do not match the outputs in number, or a
** negative one, leave the shape unknown. At most SPLIT_MAX_PARTS outputs:
** each call reads the sizes once more. */
#define SPLIT_MAX_PARTS 4096
static int sf_split(const gr_oinfer *x, const onode *o, size_t i, ishape *out){
  ishape a;
  uint32_t ax;
  size_t nout = o->out.n;
  int64_t *sz, dim, d;
  int n;
  if( i >= nout || nout > SPLIT_MAX_PARTS || !in_shape(x, 0, &a) || !norm_axis(attr_i(o, "axis", 0), a.nd, &ax) ) return 0;
  dim = a.d[ax];
  if( (x->ver >= 13 && o->in.n > 1 && o->in.v[1].n > 0) || (x->ver < 13 && attr(o, "split")) ){
    if( (sz = malloc(nout * sizeof *sz))==NULL ) return 0;
    n = x->ver >= 13 ? const_ints(x, 1, sz, nout) : attr_ints(o, "split", sz, nout);
    d = n==(int)nout ? sz[i] : -1;
    free(sz);
    if( d < 0 ) return 0;
  }else{
    int64_t parts = attr_i(o, "num_outputs", (int64_t)nout), share;
    if( parts!=(int64_t)nout ) return 0;
    if( dim < 0 ) d = -1;
    else if( x->ver < 18 ){
      if( dim % parts ) return 0;
      d = dim / parts;
    }else{
      int64_t before;
      share = dim / parts + (dim % parts!=0);
      if( __builtin_mul_overflow(share, parts - 1, &before) ) return 0;
      d = (int64_t)i < parts - 1 ? share : dim - before;
      if( d < 0 ) return 0;
    }
  }
  *out = a;
  out->d[ax] = d;
  return 1;
}

/* The output's dtype where its shape is not known (a Reshape whose shape
** input is computed, an input of unknown rank): ONNX's type constraints fix
** it all the same. Shape gives int64, a comparison bool, Where its second
** input's, Cast `to`'s; every other op of the table has one type variable
** for its data inputs and output 0 (Operators.md): input 0's, or for the
** element-wise ops and Concat, whose inputs all share it, the first known. */
static uint16_t dtype_only(const gr_oinfer *x, int fn, const onode *o){
  size_t i, n = fn==GR_SF_BCAST || fn==GR_SF_CONCAT ? x->nin : 1;
  switch( fn ){
  case GR_SF_SHAPE: return dt_of(x, 7);
  case GR_SF_BCAST_BOOL: return dt_of(x, 9);
  case GR_SF_CAST: return dt_of(x, attr_i(o, "to", 0));
  case GR_SF_CONST_OF_SHAPE: return fill_dtype(x, o);
  case GR_SF_RANDOM: case GR_SF_RANDOM_LIKE: return random_dtype(x, fn, o);
  case GR_SF_WHERE: return x->nin > 1 && x->inok[1] ? x->ins[1].dtype : 0;
  default:
    for(i = 0; i < n && i < x->nin; i++) if( x->inok[i] && x->ins[i].dtype ) return x->ins[i].dtype;
    return 0;
  }
}

int gr_onnx_infer(const gr_oinfer *x, int fn, const onode *o, ishape *out){
  ishape a;
  int ok;
  memset(out, 0, sizeof *out);
  switch( fn ){
  case GR_SF_SAME: case GR_SF_CAST: case GR_SF_BCAST: case GR_SF_BCAST_BOOL: case GR_SF_WHERE:
    ok = sf_elementwise(x, fn, o, out); break;
  case GR_SF_MATMUL: case GR_SF_GEMM:
    ok = sf_matmul(x, fn, o, out); break;
  case GR_SF_CONV: case GR_SF_POOL: case GR_SF_GPOOL:
    ok = sf_window(x, fn, o, out); break;
  case GR_SF_RESHAPE: case GR_SF_FLATTEN:
    ok = sf_reshape(x, fn, o, out); break;
  case GR_SF_TRANSPOSE: case GR_SF_CONCAT: case GR_SF_GATHER:
    ok = sf_rearrange(x, fn, o, out); break;
  case GR_SF_REDUCE: case GR_SF_UNSQUEEZE: case GR_SF_SQUEEZE:
    ok = sf_axes(x, fn, o, out); break;
  case GR_SF_RESIZE:
    ok = sf_resize(x, o, out); break;
  case GR_SF_CONVT:
    ok = sf_conv_transpose(x, o, out); break;
  case GR_SF_CONST_OF_SHAPE:
    ok = sf_const_of_shape(x, o, out); break;
  case GR_SF_RANDOM: case GR_SF_RANDOM_LIKE:
    ok = sf_random(x, fn, o, out); break;
  case GR_SF_DTYPE: case GR_SF_DTYPE_OUTPUTS:   /* the dtype alone, below */
    ok = 0; break;
  case GR_SF_SHAPE:
    if( attr(o, "start") || attr(o, "end") || !in_shape(x, 0, &a) ){ ok = 0; break; }
    out->known = 1; out->dtype = dt_of(x, 7); out->nd = 1; out->d[0] = a.nd;
    return 1;
  case GR_SF_SIZE:
    /* the number of input 0's elements, a scalar of type int64 whatever
    ** the input's shape, known or not (Operators.md, Size) */
    out->known = 1; out->dtype = dt_of(x, 7); out->nd = 0;
    return 1;
  case GR_SF_NONZERO:
    /* the indices of input 0's nonzero elements, one row per dim: how many
    ** there are depends on the values, so the second dim is unknown (and a
    ** node reading it dynamic) even where input 0 is static (Operators.md,
    ** NonZero) */
    out->known = 1; out->dtype = dt_of(x, 7); out->nd = 2;
    out->d[0] = in_shape(x, 0, &a) ? (int64_t)a.nd : -1;
    out->d[1] = -1;
    return 1;
  case GR_SF_NMS: {
    /* [batch index, class index, box index] of each box kept, int64 (the
    ** plugin's Cast). ONNX leaves the count to the scores (Operators.md,
    ** NonMaxSuppression), but GE's InferShape of NonMaxSuppressionV6 pads
    ** it to a fixed count when max_output_boxes_per_class (input 2) is a
    ** constant: batch * classes * that value, at most the number of scores
    ** (CANN's ops repository, read from its mirror dengguojie/vue-element-admin
    ** @83709c7a8 ops/built-in/op_proto/nn_detect_ops.cc:1752-1791; it fails
    ** without one, which leaves -1 here). It reads the constant's first 32
    ** bits as an int32, so an int64 2^32 + 5 counts 5 (little-endian, as on
    ** every Ascend host); a negative count, one that overflows or a dynamic
    ** score dim leaves -1. */
    int64_t m, bc, total = 1;
    uint32_t k;
    out->known = 1; out->dtype = dt_of(x, 7); out->nd = 2;
    out->d[0] = -1; out->d[1] = 3;
    if( const_ints(x, 2, &m, 1)!=1 || !in_shape(x, 1, &a) || a.nd < 2 ) return 1;
    m = (int32_t)(uint32_t)(uint64_t)m;
    if( m < 0 ) return 1;
    for(k = 0; k < a.nd; k++) if( a.d[k] < 0 || __builtin_mul_overflow(total, a.d[k], &total) ) return 1;
    if( __builtin_mul_overflow(a.d[0], a.d[1], &bc) || __builtin_mul_overflow(bc, m, &bc) ) return 1;
    out->d[0] = bc < total ? bc : total;
    return 1;
  }
  case GR_SF_COMPRESS: case GR_SF_UNIQUE:
    ok = sf_compress(x, o, out); break;
  case GR_SF_ROI_ALIGN: {
    /* one pooled [C, output_height, output_width] map per roi, of X's
    ** type (Operators.md, RoiAlign; both sizes 1 by default) */
    ishape r;
    int64_t oh = attr_i(o, "output_height", 1), ow = attr_i(o, "output_width", 1);
    const int64_t big = (int64_t)1 << 40;
    if( !in_shape(x, 0, &a) || a.nd!=4 || !in_shape(x, 1, &r) || r.nd!=2 || oh < 1 || oh > big || ow < 1 || ow > big ){ ok = 0; break; }
    out->known = 1; out->dtype = a.dtype; out->nd = 4;
    out->d[0] = r.d[0]; out->d[1] = a.d[1]; out->d[2] = oh; out->d[3] = ow;
    return 1;
  }
  case GR_SF_ARGMAX: {
    /* the index along `axis` (default 0) of each maximum, int64; that dim
    ** 1, or dropped where keepdims is 0 (Operators.md, ArgMax) */
    uint32_t ax, k;
    int keep = attr_i(o, "keepdims", 1)!=0;
    if( !in_shape(x, 0, &a) || !norm_axis(attr_i(o, "axis", 0), a.nd, &ax) ){
      out->dtype = dt_of(x, 7);
      return 0;
    }
    out->known = 1; out->dtype = dt_of(x, 7); out->nd = 0;
    for(k = 0; k < a.nd; k++){
      if( k!=ax ) out->d[out->nd++] = a.d[k];
      else if( keep ) out->d[out->nd++] = 1;
    }
    return 1;
  }
  case GR_SF_SPLIT:
    ok = sf_split(x, o, 0, out); break;
  default:
    return 0;
  }
  /* no shape: the caller still takes the dtype (onnx.c, "knew the dtype only") */
  if( !ok ) out->dtype = dtype_only(x, fn, o);
  return ok;
}

int gr_onnx_infer_output(const gr_oinfer *x, int fn, const onode *o, size_t i, ishape *out){
  if( i==0 ) return gr_onnx_infer(x, fn, o, out);
  memset(out, 0, sizeof *out);
  if( fn!=GR_SF_SPLIT ) return 0;
  if( sf_split(x, o, i, out) ) return 1;
  memset(out, 0, sizeof *out);
  return 0;
}
