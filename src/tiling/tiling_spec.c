/*
** tiling_spec.c: a graph node turned into a gr_tspec (shapes, formats,
** attributes) for one of the four strategies (element-wise, last-axis
** reduction, matrix multiply, attention), and the limits a spec must keep to
** be planned. The library never prints; findings go to gr_diags.
*/
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiling/tiling_int.h"
#include "model/model.h"

/* ------------------------------------------------------------------ node -> spec */

/* A known shape's dims (the callers asked shape_unknown first). */
static const int64_t *tensor_dims(const gr_graph *g, const gr_tensor *t, uint32_t *nd){
  static const int64_t one = 1;
  const int64_t *d = gr_graph_shape(g, t->shape, nd);
  if( *nd==0 ){ *nd = 1; return &one; }    /* a scalar is one element */
  return d;
}

static int tensor_fmt(const gr_tiling_rules *tr, const gr_graph *g, const gr_tensor *t, const char *what, gr_diags *notes){
  const char *dt = gr_graph_dtype_name(g, t->dtype);
  const char *f = tstr(tr->dtypes, dt);
  int fmt = gr_tfmt_parse(f);
  if( fmt==GR_FMT_NONE ){
    if( f ) gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "%s has dtype %s, which %s maps to the unknown format '%s'", what, dt, tr->dtypes->name, f);
    else gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has dtype '%s', which %s does not list", what, *dt ? dt : "(none)", tr->dtypes->name);
  }
  return fmt;
}

/* Whether descriptor k of node n (an input below n_in_desc, else an output)
** has a shape the model reader could not tell (graph.h, GR_SHAPE_UNKNOWN):
** then the spec is GR_TS_NONE with a note saying why and what gives the
** reader the shape, and 1 is returned. An unknown shape is not a scalar:
** planning it as one element would be a false plan. */
static int shape_unknown(const gr_graph *g, const gr_node *n, uint32_t k, gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  char what[48];
  if( k >= (uint32_t)n->n_in_desc + n->n_out_desc || gr_graph_shape_known(g, t[k].shape) ) return 0;
  if( k < n->n_in_desc ) snprintf(what, sizeof what, "input %u", k);
  else snprintf(what, sizeof what, "output %u", k - n->n_in_desc);
  if( strcmp(gr_model_format_name(gr_graph_format(g)), "onnx")==0 )
    gr_tnote(notes, GR_SEV_NOTE, GR_TC_SHAPE, "%s has no shape gerules knows: the ONNX reader did not infer it (table onnx_shapes gives the op "
             "that makes it no shape function, or its shape is computed from other tensors; GE infers it when it compiles), so there is "
             "no static plan to check; folding the model's shape computations to constants (onnx-simplifier, static input shapes) gives one", what);
  else
    gr_tnote(notes, GR_SEV_NOTE, GR_TC_SHAPE, "%s has no shape gerules knows: the model gives it only as dynamic and --input_shape made its inputs static, "
             "but gerules does not infer the new dims, so there is no static plan to check; a graph dumped after GE's shape inference with those input shapes gets one", what);
  s->strategy = GR_TS_NONE;
  return 1;
}

/* The same for the descriptors ks[0 .. nk-1]; the first unknown one is noted. */
static int any_unknown(const gr_graph *g, const gr_node *n, const uint32_t *ks, uint32_t nk, gr_tspec *s, gr_diags *notes){
  uint32_t i;
  for(i = 0; i < nk; i++) if( shape_unknown(g, n, ks[i], s, notes) ) return 1;
  return 0;
}

static int static_dims(const int64_t *d, uint32_t nd, const char *what, gr_diags *notes){
  uint32_t i;
  for(i = 0; i < nd; i++) if( d[i] < 0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has the dynamic shape %s: a plan needs static shapes (its tiling runs on the host at run time)",
                  what, dims_str(d, nd).s);
    return -1;
  }
  if( nd > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s has %u dims, more than the %d supported", what, nd, GR_TMAXDIM);
    return -1;
  }
  return 0;
}
/* Every dim and every tensor of a spec within GR_TMAX_ELEMS; -1 with a
** "limit" error otherwise. After this, products of two values of a spec fit
** 96 bits, and are computed saturating where they could pass 63. */
static int spec_limits(const gr_tspec *s, gr_diags *notes){
  uint32_t i, d;
  if( s->ndim > GR_TMAXDIM ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "the output has %u dims, more than %d", s->ndim, GR_TMAXDIM);
    return -1;
  }
  for(d = 0; d < s->ndim; d++) if( over_limit(s->out[d]) ) return limit_dim(notes, "a dim of the output", s->out[d]);
  if( over_limit(volume(s->out, s->ndim)) ) return limit_err(notes, "the output's element count", volume(s->out, s->ndim));
  switch( s->strategy ){
    case GR_TS_ELEMENTWISE:
      for(i = 0; i < s->nin && i < GR_TMAXIN; i++){
        if( s->in_ndim[i] > GR_TMAXDIM ){
          gr_tnote(notes, GR_SEV_ERROR, GR_TC_LIMIT, "input %u has %u dims, more than %d", i, s->in_ndim[i], GR_TMAXDIM);
          return -1;
        }
        if( over_limit(volume(s->in[i], s->in_ndim[i])) ) return limit_err(notes, "an input's element count", volume(s->in[i], s->in_ndim[i]));
      }
      break;
    case GR_TS_REDUCE_LAST:
      if( over_limit(s->rows) || over_limit(s->cols) || over_limit(sat_mul(s->rows, s->cols)) )
        return limit_err(notes, "the input's rows x cols", s->rows < 0 || s->cols < 0 ? -1 : sat_mul(s->rows, s->cols));
      break;
    case GR_TS_MATMUL:
    case GR_TS_CONV2D: {
      const int64_t v[6] = { s->batch, s->m, s->n, s->k, s->batch_a, s->batch_b };
      for(i = 0; i < 6; i++) if( over_limit(v[i]) ) return limit_dim(notes, "a dim of batch x M x N x K", v[i]);
      if( over_limit(sat_mul(sat_mul(s->batch, s->m), s->n)) ) return limit_err(notes, "the output's batch x M x N", sat_mul(sat_mul(s->batch, s->m), s->n));
      if( s->strategy==GR_TS_CONV2D ){
        int64_t xin = sat_mul(sat_mul(sat_mul(s->batch, sat_mul(s->c1, s->c0)), s->hi), s->wi);
        if( over_limit(xin) ) return limit_err(notes, "the input's element count (C padded to C0)", xin);
      }else if( over_limit(sat_mul(sat_mul(s->batch_a, s->m), s->k)) ) return limit_err(notes, "input a's batch x M x K", sat_mul(sat_mul(s->batch_a, s->m), s->k));
      if( over_limit(sat_mul(sat_mul(s->batch_b, s->k), s->n)) ) return limit_err(notes, "input b's batch x K x N", sat_mul(sat_mul(s->batch_b, s->k), s->n));
      break;
    }
    case GR_TS_ATTENTION: {
      const int64_t v[6] = { s->b, s->heads, s->kv_heads, s->sq, s->skv, s->d };
      int64_t q, k;
      for(i = 0; i < 6; i++) if( over_limit(v[i]) ) return limit_dim(notes, "a dim of B x heads x S x D", v[i]);
      q = sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d);
      k = sat_mul(sat_mul(sat_mul(s->b, s->kv_heads), s->skv), s->d);
      if( over_limit(q) ) return limit_err(notes, "the query's element count", q);
      if( over_limit(k) ) return limit_err(notes, "the key's element count", k);
      break;
    }
    default: break;
  }
  return 0;
}

int gr_tspec_check(const gr_tspec *s, gr_diags *notes){ return spec_limits(s, notes); }

static const gr_attr *node_attr(const gr_graph *g, const gr_node *n, const char *key){
  return key ? gr_graph_attr(g, n, key) : NULL;
}
static int attr_bool(const gr_graph *g, const gr_node *n, const char *key, int dflt){
  const gr_attr *a = node_attr(g, n, key);
  if( a && (a->kind==GR_ATTR_B || a->kind==GR_ATTR_I) ) return a->u.i != 0;
  return dflt;
}
static int attr_int(const gr_graph *g, const gr_node *n, const char *key, int64_t *out){
  const gr_attr *a = node_attr(g, n, key);
  if( a && a->kind==GR_ATTR_I ){ *out = a->u.i; return 1; }
  return 0;
}
static int attr_float(const gr_graph *g, const gr_node *n, const char *key, double *out){
  const gr_attr *a = node_attr(g, n, key);
  if( a==NULL ) return 0;
  if( a->kind==GR_ATTR_F ){ *out = a->u.f; return 1; }
  if( a->kind==GR_ATTR_I ){ *out = (double)a->u.i; return 1; }
  if( a->kind==GR_ATTR_S ){
    char *end;
    const char *s = gr_graph_str(g, a->u.str);
    double v = strtod(s, &end);
    if( end!=s && *end==0 ){ *out = v; return 1; }
  }
  return 0;
}

static int spec_elementwise(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                            gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d;
  uint32_t nd, i, j;
  char what[64];
  if( n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no output descriptor"); return -1; }
  if( n->n_in_desc < 1 || n->n_in_desc > GR_TMAXIN ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has %u input descriptors (1 to %d supported)", n->n_in_desc, GR_TMAXIN);
    return -1;
  }
  if( (uint32_t)n->n_in_desc + 1 != p->buffers ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s moves %u tile buffers per tile (inputs + 1 output) but the node has %u input%s",
                  p->cls, p->buffers, n->n_in_desc, n->n_in_desc==1 ? "" : "s");
    return -1;
  }
  for(i = 0; i <= n->n_in_desc; i++) if( shape_unknown(g, n, i, s, notes) ) return 0;   /* the inputs, output 0 */
  d = tensor_dims(g, &t[n->n_in_desc], &nd);
  if( static_dims(d, nd, "output 0", notes) ) return -1;
  s->ndim = nd;
  memcpy(s->out, d, nd * sizeof *d);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->nin = n->n_in_desc;
  for(i = 0; i < s->nin; i++){
    snprintf(what, sizeof what, "input %u", i);
    d = tensor_dims(g, &t[i], &nd);
    if( static_dims(d, nd, what, notes) ) return -1;
    if( nd > s->ndim ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %u %s has more dims than the output %s", i, dims_str(d, nd).s, dims_str(s->out, s->ndim).s);
      return -1;
    }
    for(j = 0; j < nd; j++){
      int64_t od = s->out[s->ndim - nd + j];
      if( d[j] != od && d[j] != 1 ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %u %s does not broadcast to the output %s", i, dims_str(d, nd).s, dims_str(s->out, s->ndim).s);
        return -1;
      }
    }
    s->in_ndim[i] = nd;
    memcpy(s->in[i], d, nd * sizeof *d);
    s->fin[i] = (uint8_t)tensor_fmt(tr, g, &t[i], what, notes);
  }
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

static int spec_reduce(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                       gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d, *y;
  uint32_t nd, ny, i;
  const gr_attr *a;
  char what[64];
  if( n->n_in_desc < 1 || n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node needs an input and an output descriptor"); return -1; }
  {                        /* input 0, every output, the resident inputs */
    uint32_t k0[2] = { 0, n->n_in_desc };
    if( any_unknown(g, n, k0, 2, s, notes) ) return 0;
    for(i = 1; i < n->n_out_desc; i++) if( shape_unknown(g, n, n->n_in_desc + i, s, notes) ) return 0;
    for(i = 0; i < p->nresident; i++)
      if( p->resident[i] >= 0 && p->resident[i] < n->n_in_desc && shape_unknown(g, n, (uint32_t)p->resident[i], s, notes) ) return 0;
  }
  d = tensor_dims(g, &t[0], &nd);
  if( static_dims(d, nd, "input 0", notes) ) return -1;
  y = tensor_dims(g, &t[n->n_in_desc], &ny);
  if( static_dims(y, ny, "output 0", notes) ) return -1;
  if( volume(d, nd) != volume(y, ny) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output 0 %s does not have the shape of input 0 %s", dims_str(y, ny).s, dims_str(d, nd).s);
    return -1;
  }
  if( p->attr_axes && (a = gr_graph_attr(g, n, p->attr_axes))!=NULL ){
    if( a->kind==GR_ATTR_LIST_I ){
      const int64_t *ax = gr_graph_list_i64(g, a->u.list);
      if( a->n != 1 || (ax[0] != -1 && ax[0] != (int64_t)nd - 1) ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node reduces over %s=%s; the reduce_last strategy handles only the last axis",
                      p->attr_axes, a->n ? dims_str(ax, a->n).s : "[]");
        return -1;
      }
    }else if( a->kind==GR_ATTR_I && a->u.i != -1 && a->u.i != (int64_t)nd - 1 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node reduces over %s=%lld; only the last axis is handled", p->attr_axes, (long long)a->u.i);
      return -1;
    }
  }
  s->cols = d[nd - 1];
  s->rows = volume(d, nd - 1);
  s->ndim = nd;
  memcpy(s->out, d, nd * sizeof *d);
  s->nin = 1;
  s->in_ndim[0] = nd;
  memcpy(s->in[0], d, nd * sizeof *d);
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[0], "input 0", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  for(i = 0; i < p->nresident; i++){
    int64_t ri = p->resident[i];
    const int64_t *rd;
    uint32_t rn;
    snprintf(what, sizeof what, "input %lld", (long long)ri);
    if( ri >= n->n_in_desc ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s keeps input %lld resident but the node has %u inputs", p->cls, (long long)ri, n->n_in_desc);
      return -1;
    }
    rd = tensor_dims(g, &t[ri], &rn);
    if( static_dims(rd, rn, what, notes) ) return -1;
    if( volume(rd, rn) != s->cols ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input %lld %s should hold one value per element of the last axis (%lld)",
                    (long long)ri, dims_str(rd, rn).s, (long long)s->cols);
      return -1;
    }
    s->fres[s->nres++] = (uint8_t)tensor_fmt(tr, g, &t[ri], what, notes);
  }
  for(i = 1; i < n->n_out_desc && s->nstat < GR_TMAXIN; i++){
    const int64_t *sd;
    uint32_t sn;
    snprintf(what, sizeof what, "output %u", i);
    sd = tensor_dims(g, &t[n->n_in_desc + i], &sn);
    if( static_dims(sd, sn, what, notes) ) return -1;
    if( volume(sd, sn) != s->rows ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %u %s should hold one value per row (%lld rows)", i, dims_str(sd, sn).s, (long long)s->rows);
      return -1;
    }
    s->fstat[s->nstat++] = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc + i], what, notes);
  }
  s->eps = 1e-6;
  if( p->attr_eps ) attr_float(g, n, p->attr_eps, &s->eps);
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

static int spec_matmul(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                       gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *a, *b, *c;
  uint32_t na, nb, nc, i;
  int64_t k2, lead_a, lead_b;
  if( p->in_a >= n->n_in_desc || p->in_b >= n->n_in_desc || n->n_out_desc < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s reads inputs %lld and %lld, but the node has %u input descriptors",
                  p->cls, (long long)p->in_a, (long long)p->in_b, n->n_in_desc);
    return -1;
  }
  {
    uint32_t ks[3] = { (uint32_t)p->in_a, (uint32_t)p->in_b, n->n_in_desc };
    if( any_unknown(g, n, ks, 3, s, notes) ) return 0;
  }
  a = tensor_dims(g, &t[p->in_a], &na);
  b = tensor_dims(g, &t[p->in_b], &nb);
  c = tensor_dims(g, &t[n->n_in_desc], &nc);
  if( static_dims(a, na, "input a", notes) || static_dims(b, nb, "input b", notes) || static_dims(c, nc, "output 0", notes) ) return -1;
  if( na < 2 || nb < 2 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "matrix inputs need 2 dims or more, got %s and %s", dims_str(a, na).s, dims_str(b, nb).s);
    return -1;
  }
  s->trans_a = attr_bool(g, n, p->attr_ta, 0);
  s->trans_b = attr_bool(g, n, p->attr_tb, 0);
  s->m = s->trans_a ? a[na - 1] : a[na - 2];
  s->k = s->trans_a ? a[na - 2] : a[na - 1];
  k2 = s->trans_b ? b[nb - 1] : b[nb - 2];
  s->n = s->trans_b ? b[nb - 2] : b[nb - 1];
  if( k2 != s->k ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "inner dims differ: a %s%s has K=%lld, b %s%s has K=%lld", dims_str(a, na).s,
                  s->trans_a ? " (transposed)" : "", (long long)s->k, dims_str(b, nb).s, s->trans_b ? " (transposed)" : "", (long long)k2);
    return -1;
  }
  lead_a = volume(a, na - 2);
  lead_b = volume(b, nb - 2);
  if( lead_a < 0 || lead_b < 0 || over_limit(lead_a) || over_limit(lead_b) )
    return limit_err(notes, "the batch (the product of the leading dims)", lead_a < 0 || lead_b < 0 ? -1 : max64(lead_a, lead_b));
  if( nb==2 && !s->trans_a ){          /* fold x1's leading dims into M */
    s->m = sat_mul(s->m, lead_a);
    s->batch = s->batch_a = s->batch_b = 1;
  }else{
    if( nb > 2 && na > 2 && lead_a != lead_b && lead_a != 1 && lead_b != 1 ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "batch dims of %s and %s do not broadcast", dims_str(a, na).s, dims_str(b, nb).s);
      return -1;
    }
    s->batch_a = lead_a;
    s->batch_b = lead_b;
    s->batch = max64(lead_a, lead_b);
  }
  if( over_limit(s->m) ) return limit_err(notes, "M", s->m);
  if( over_limit(s->n) ) return limit_dim(notes, "N", s->n);
  if( over_limit(s->k) ) return limit_dim(notes, "the inner dim K", s->k);
  if( over_limit(sat_mul(sat_mul(s->batch, s->m), s->n)) )
    return limit_err(notes, "the output (batch x M x N)", sat_mul(sat_mul(s->batch, s->m), s->n));
  if( volume(c, nc) != s->batch * s->m * s->n ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %s does not hold batch x M x N = %lld x %lld x %lld elements",
                  dims_str(c, nc).s, (long long)s->batch, (long long)s->m, (long long)s->n);
    return -1;
  }
  s->nin = 2;
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[p->in_a], "input a", notes);
  s->fin[1] = (uint8_t)tensor_fmt(tr, g, &t[p->in_b], "input b", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->ndim = 3;
  s->out[0] = s->batch; s->out[1] = s->m; s->out[2] = s->n;
  for(i = 0; i < 2; i++) s->in_ndim[i] = 0;
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
}

/* A list attribute of 2 entries (H, W: ONNX's form) or 4 (in the data
** format's order: GE's form) as (H, W); pads: 4 entries, GE's order
** [top, bottom, left, right] or ONNX's [top, left, bottom, right]. */
static int attr_hw(const gr_graph *g, const gr_node *n, const char *key, int hpos, int wpos, int64_t *h, int64_t *w){
  const gr_attr *a = node_attr(g, n, key);
  const int64_t *v;
  if( a==NULL ) return 0;
  if( a->kind!=GR_ATTR_LIST_I ) return -1;
  v = gr_graph_list_i64(g, a->u.list);
  if( a->n==2 ){ *h = v[0]; *w = v[1]; return 1; }
  if( a->n==4 ){ *h = v[hpos]; *w = v[wpos]; return 1; }
  return -1;
}

/* Conv2D as a cube matmul through img2col: input x [N, C, H, W] (NCHW),
** [N, H, W, C] (NHWC) or [N, C1, H, W, C0] (NC1HWC0), filter [Cout, Cin/groups,
** kh, kw] (NHWC graphs: [kh, kw, Cin/groups, Cout]). A node of an ONNX model
** keeps ONNX's attributes (gerules does not rewrite them as GE's plugin does):
** strides / dilations of 2 entries, pads [top, left, bottom, right], `group`
** and auto_pad; a GE node has 4-entry lists in its data format's order,
** pads [top, bottom, left, right] and `groups`. */
static int spec_conv2d(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                       gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *x, *w, *y;
  uint32_t nx, nw, ny;
  const char *fmt = p->default_format;
  const gr_attr *fa;
  int onnx = gr_graph_onnx_opset(g) > 0, nhwc, hpos, wpos, r;
  int64_t ctot, wk_c, wk_o, pads4[4] = { 0, 0, 0, 0 }, ea, eb;
  if( p->in_a >= n->n_in_desc || p->in_b >= n->n_in_desc || n->n_out_desc < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s reads inputs %lld (x) and %lld (filter), but the node has %u input descriptors",
             p->cls, (long long)p->in_a, (long long)p->in_b, n->n_in_desc);
    return -1;
  }
  {
    uint32_t ks[3] = { (uint32_t)p->in_a, (uint32_t)p->in_b, n->n_in_desc };
    if( any_unknown(g, n, ks, 3, s, notes) ) return 0;
  }
  {                        /* no dims at all (a scalar descriptor): no convolution's, nothing to check */
    uint32_t rx, ry;
    gr_graph_shape(g, t[p->in_a].shape, &rx);
    gr_graph_shape(g, t[n->n_in_desc].shape, &ry);
    if( rx==0 || ry==0 ){
      gr_tnote(notes, GR_SEV_NOTE, GR_TC_SHAPE, "%s has no shape (unknown rank: the graph file gives none and gerules's shape inference did not reach it): there is no static plan to check",
               rx==0 ? "input x" : "output 0");
      s->strategy = GR_TS_NONE;
      return 0;
    }
  }
  x = tensor_dims(g, &t[p->in_a], &nx);
  w = tensor_dims(g, &t[p->in_b], &nw);
  y = tensor_dims(g, &t[n->n_in_desc], &ny);
  if( static_dims(x, nx, "input x", notes) || static_dims(w, nw, "the filter", notes) || static_dims(y, ny, "output 0", notes) ) return -1;
  if( onnx && p->onnx_format ) fmt = p->onnx_format;
  if( p->attr_format && (fa = gr_graph_attr(g, n, p->attr_format))!=NULL && fa->kind==GR_ATTR_S ) fmt = gr_graph_str(g, fa->u.str);
  nhwc = fmt && strcmp(fmt, "NHWC")==0;
  if( fmt==NULL || (!nhwc && strcmp(fmt, "NCHW")!=0) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "data format '%s' is not handled (NCHW, NHWC; NC1HWC0 by a 5-D input)", fmt ? fmt : "(none)");
    return -1;
  }
  if( nw != 4 || (nx != 4 && nx != 5) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input x %s and filter %s are not a 2-D convolution's (4-D or NC1HWC0 input, 4-D filter)",
             dims_str(x, nx).s, dims_str(w, nw).s);
    return -1;
  }
  s->cn = x[0];
  if( nx==5 ){ ctot = sat_mul(x[1], x[4]); s->hi = x[2]; s->wi = x[3]; nhwc = 0; }
  else if( nhwc ){ ctot = x[3]; s->hi = x[1]; s->wi = x[2]; }
  else { ctot = x[1]; s->hi = x[2]; s->wi = x[3]; }
  if( nhwc ){ s->kh = w[0]; s->kw = w[1]; wk_c = w[2]; wk_o = w[3]; hpos = 1; wpos = 2; }
  else { wk_o = w[0]; wk_c = w[1]; s->kh = w[2]; s->kw = w[3]; hpos = 2; wpos = 3; }
  s->groups = 1;
  s->sh = s->sw = s->dh = s->dw = 1;
  if( !attr_int(g, n, onnx && p->onnx_attr_groups ? p->onnx_attr_groups : p->attr_groups, &s->groups) ) s->groups = 1;
  r = attr_hw(g, n, p->attr_strides, hpos, wpos, &s->sh, &s->sw);
  if( r >= 0 ) r = attr_hw(g, n, p->attr_dilations, hpos, wpos, &s->dh, &s->dw);
  if( r < 0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s / %s are not lists of 2 or 4 integers", p->attr_strides, p->attr_dilations);
    return -1;
  }
  {
    const gr_attr *a = node_attr(g, n, p->attr_pads);
    if( a ){
      const int64_t *v = a->kind==GR_ATTR_LIST_I ? gr_graph_list_i64(g, a->u.list) : NULL;
      if( v==NULL || a->n != 4 ){
        gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%s is not a list of 4 integers", p->attr_pads);
        return -1;
      }
      memcpy(pads4, v, sizeof pads4);
    }
    if( onnx ){ s->pt = pads4[0]; s->pl = pads4[1]; s->pb = pads4[2]; s->pr = pads4[3]; }
    else { s->pt = pads4[0]; s->pb = pads4[1]; s->pl = pads4[2]; s->pr = pads4[3]; }
  }
  if( onnx && p->onnx_attr_auto_pad ){         /* ONNX auto_pad: SAME_UPPER / SAME_LOWER / VALID */
    const gr_attr *a = node_attr(g, n, p->onnx_attr_auto_pad);
    const char *ap = a && a->kind==GR_ATTR_S ? gr_graph_str(g, a->u.str) : NULL;
    if( ap && strcmp(ap, "VALID")==0 ) s->pt = s->pb = s->pl = s->pr = 0;
    else if( ap && strncmp(ap, "SAME_", 5)==0 && s->sh > 0 && s->sw > 0 && s->dh > 0 && s->dw > 0 ){
      int lower = strcmp(ap, "SAME_LOWER")==0;
      int64_t th = max64(0, (ceil_div(s->hi, s->sh) - 1) * s->sh + (s->kh - 1) * s->dh + 1 - s->hi);
      int64_t tw = max64(0, (ceil_div(s->wi, s->sw) - 1) * s->sw + (s->kw - 1) * s->dw + 1 - s->wi);
      s->pt = lower ? th - th / 2 : th / 2; s->pb = th - s->pt;
      s->pl = lower ? tw - tw / 2 : tw / 2; s->pr = tw - s->pl;
    }
  }
  if( s->groups < 1 || ctot % s->groups || wk_o % s->groups || wk_c * s->groups != ctot ){
    if( nx != 5 || s->groups != 1 || wk_c > ctot ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input x %s, filter %s and groups=%lld do not agree on the channels",
               dims_str(x, nx).s, dims_str(w, nw).s, (long long)s->groups);
      return -1;
    }
  }
  s->cin = wk_c;
  s->cout = wk_o / s->groups;
  if( s->pt < 0 || s->pb < 0 || s->pl < 0 || s->pr < 0 || s->sh < 1 || s->sw < 1 || s->dh < 1 || s->dw < 1
      || s->kh < 1 || s->kw < 1 || s->cin < 1 || s->cout < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "kernel %lldx%lld, strides %lldx%lld, dilations %lldx%lld or pads [%lld, %lld, %lld, %lld] are not a convolution's",
             (long long)s->kh, (long long)s->kw, (long long)s->sh, (long long)s->sw, (long long)s->dh, (long long)s->dw,
             (long long)s->pt, (long long)s->pb, (long long)s->pl, (long long)s->pr);
    return -1;
  }
  {
    int64_t v[12] = { s->cn, s->hi, s->wi, s->kh, s->kw, s->sh, s->sw, s->dh, s->dw, s->pt + s->pb, s->pl + s->pr, ctot };
    uint32_t i;
    for(i = 0; i < 12; i++) if( over_limit(v[i]) ) return limit_dim(notes, "a dim of the convolution", v[i]);
  }
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[p->in_a], "input x", notes);
  s->fin[1] = (uint8_t)tensor_fmt(tr, g, &t[p->in_b], "the filter", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  if( notes->count[GR_SEV_ERROR] ) return -1;
  ea = gr_tfmt_bytes(s->fin[0]); eb = gr_tfmt_bytes(s->fin[1]);
  s->c0 = max64(1, (int64_t)p->k_unit_bytes / min64(ea, eb));   /* C0: one K unit, 32 bytes (16 fp16, 8 fp32) */
  if( gr_tconv_derive(s) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the %lldx%lld window (dilation %lldx%lld) does not fit input %s with pads [%lld, %lld, %lld, %lld]",
             (long long)s->kh, (long long)s->kw, (long long)s->dh, (long long)s->dw, dims_str(x, nx).s,
             (long long)s->pt, (long long)s->pb, (long long)s->pl, (long long)s->pr);
    return -1;
  }
  if( volume(y, ny) != sat_mul(sat_mul(s->batch, s->m), s->n) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %s does not hold N x Cout x Ho x Wo = %lld x %lld x %lld x %lld elements",
             dims_str(y, ny).s, (long long)s->cn, (long long)(s->cout * s->groups), (long long)s->ho, (long long)s->wo);
    return -1;
  }
  s->nin = 2;
  s->trans_a = s->trans_b = 0;
  if( s->groups > 1 )
    gr_tnote(notes, GR_SEV_NOTE, GR_TC_SHAPE, "groups=%lld%s: planned as %lld separate cube matmuls of K = %lld (Cin %lld per group padded to C0 %lld); CANN's packing of several groups into one C0 (conv2d tiling's 'enlarge') is not modelled",
             (long long)s->groups, s->groups==ctot ? " (depthwise)" : "", (long long)s->groups, (long long)s->k, (long long)s->cin, (long long)s->c0);
  return 0;
}

static int parse_layout(const char *l){
  if( l==NULL ) return 0;
  if( strcmp(l, "BSH")==0 ) return GR_LAYOUT_BSH;
  if( strcmp(l, "BNSD")==0 ) return GR_LAYOUT_BNSD;
  if( strcmp(l, "BSND")==0 ) return GR_LAYOUT_BSND;
  return 0;
}

static int spec_attention(const gr_tiling_rules *tr, const gr_graph *g, const gr_node *n, const gr_tparams *p,
                          gr_tspec *s, gr_diags *notes){
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *q, *k, *v, *o;
  uint32_t nq, nk, nv, no;
  const char *lname = p->default_layout;
  const gr_attr *la;
  int64_t kvh = 0;
  if( p->in_q >= n->n_in_desc || p->in_k >= n->n_in_desc || p->in_v >= n->n_in_desc || n->n_out_desc < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "class %s reads query/key/value inputs %lld/%lld/%lld, but the node has %u input descriptors",
                  p->cls, (long long)p->in_q, (long long)p->in_k, (long long)p->in_v, n->n_in_desc);
    return -1;
  }
  {
    uint32_t ks[4] = { (uint32_t)p->in_q, (uint32_t)p->in_k, (uint32_t)p->in_v, n->n_in_desc };
    if( any_unknown(g, n, ks, 4, s, notes) ) return 0;
  }
  q = tensor_dims(g, &t[p->in_q], &nq);
  k = tensor_dims(g, &t[p->in_k], &nk);
  v = tensor_dims(g, &t[p->in_v], &nv);
  o = tensor_dims(g, &t[n->n_in_desc], &no);
  if( static_dims(q, nq, "query", notes) || static_dims(k, nk, "key", notes) || static_dims(v, nv, "value", notes)
      || static_dims(o, no, "output 0", notes) ) return -1;
  if( !attr_int(g, n, p->attr_heads, &s->heads) || s->heads < 1 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no positive integer attribute %s", p->attr_heads);
    return -1;
  }
  if( p->attr_kv_heads ) attr_int(g, n, p->attr_kv_heads, &kvh);
  s->kv_heads = kvh > 0 ? kvh : s->heads;
  if( p->attr_layout && (la = gr_graph_attr(g, n, p->attr_layout))!=NULL && la->kind==GR_ATTR_S )
    lname = gr_graph_str(g, la->u.str);
  if( (s->layout = parse_layout(lname))==0 ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "input layout '%s' is not handled (BSH, BNSD, BSND)", lname ? lname : "(none)");
    return -1;
  }
  if( s->heads % s->kv_heads ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "%lld heads are not a multiple of %lld key/value heads", (long long)s->heads, (long long)s->kv_heads);
    return -1;
  }
  if( s->layout==GR_LAYOUT_BSH ){
    if( nq != 3 || nk != 3 || nv != 3 ) goto bad_rank;
    if( q[2] % s->heads ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "hidden size %lld is not a multiple of %lld heads", (long long)q[2], (long long)s->heads);
      return -1;
    }
    s->b = q[0]; s->sq = q[1]; s->d = q[2] / s->heads; s->skv = k[1];
    if( k[0] != s->b || k[2] != sat_mul(s->kv_heads, s->d) || v[0] != s->b || v[1] != s->skv || v[2] != k[2] ) goto bad_kv;
  }else{
    int bn = s->layout==GR_LAYOUT_BNSD;
    if( nq != 4 || nk != 4 || nv != 4 ) goto bad_rank;
    s->b = q[0]; s->sq = bn ? q[2] : q[1]; s->d = q[3]; s->skv = bn ? k[2] : k[1];
    if( (bn ? q[1] : q[2]) != s->heads ){
      gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "query %s does not have %lld heads", dims_str(q, nq).s, (long long)s->heads);
      return -1;
    }
    if( k[0] != s->b || (bn ? k[1] : k[2]) != s->kv_heads || k[3] != s->d || memcmp(k, v, 4 * sizeof *k) ) goto bad_kv;
  }
  if( over_limit(sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d)) )
    return limit_err(notes, "the query's element count", sat_mul(sat_mul(sat_mul(s->b, s->heads), s->sq), s->d));
  if( volume(o, no) != s->b * s->heads * s->sq * s->d ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "output %s does not have the query's %lld elements", dims_str(o, no).s,
                  (long long)(s->b * s->heads * s->sq * s->d));
    return -1;
  }
  s->scale = 1.0 / sqrt((double)s->d);
  if( p->attr_scale ) attr_float(g, n, p->attr_scale, &s->scale);
  s->nin = 3;
  s->fin[0] = (uint8_t)tensor_fmt(tr, g, &t[p->in_q], "query", notes);
  s->fin[1] = (uint8_t)tensor_fmt(tr, g, &t[p->in_k], "key", notes);
  s->fin[2] = (uint8_t)tensor_fmt(tr, g, &t[p->in_v], "value", notes);
  s->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  s->ndim = 4;
  s->out[0] = s->b; s->out[1] = s->heads; s->out[2] = s->sq; s->out[3] = s->d;
  return notes->count[GR_SEV_ERROR] ? -1 : 0;
bad_rank:
  gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "query %s, key %s, value %s do not have the rank of layout %s",
                dims_str(q, nq).s, dims_str(k, nk).s, dims_str(v, nv).s, lname);
  return -1;
bad_kv:
  gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "key %s / value %s do not match query %s with %lld heads and %lld key/value heads",
                dims_str(k, nk).s, dims_str(v, nv).s, dims_str(q, nq).s, (long long)s->heads, (long long)s->kv_heads);
  return -1;
}

int gr_tiling_spec_custom(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node, gr_tspec *spec, gr_diags *notes){
  const gr_node *n = &gr_graph_nodes(g)[node];
  const gr_tensor *t = gr_graph_tensors(g, n);
  const int64_t *d;
  uint32_t nd;
  size_t before = notes->count[GR_SEV_ERROR];
  spec->strategy = GR_TS_CUSTOM;
  if( n->n_out_desc < 1 ){ gr_tnote(notes, GR_SEV_ERROR, GR_TC_SHAPE, "the node has no output descriptor"); return -1; }
  if( shape_unknown(g, n, n->n_in_desc, spec, notes) ) return 0;    /* GR_TS_NONE, noted */
  d = tensor_dims(g, &t[n->n_in_desc], &nd);
  if( static_dims(d, nd, "output 0", notes) ) return -1;
  spec->ndim = nd;
  memcpy(spec->out, d, nd * sizeof *d);
  spec->fout = (uint8_t)tensor_fmt(tr, g, &t[n->n_in_desc], "output 0", notes);
  if( notes->count[GR_SEV_ERROR] > before ) return -1;
  return spec_limits(spec, notes);
}

int gr_tiling_spec(const gr_tiling_rules *tr, const gr_graph *g, uint32_t node,
                   gr_tparams *params, gr_tspec *spec, gr_diags *notes){
  const gr_node *n = &gr_graph_nodes(g)[node];
  const char *type = gr_graph_type_name(g, n->type);
  const char *cls = gr_tiling_class_of(tr, type);
  gr_error err;
  int rc = 0;
  memset(spec, 0, sizeof *spec);
  memset(params, 0, sizeof *params);
  if( cls==NULL ) return GR_TS_NONE;
  memset(&err, 0, sizeof err);
  if( gr_tiling_params(tr, cls, params, &err) ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "%s", err.msg);
    return GR_TS_NONE;
  }
  spec->strategy = params->strategy;
  spec->kernel = tr->compute ? gr_tkernel_parse(tstr(tr->compute, type)) : GR_K_NONE;
  switch( params->strategy ){
    case GR_TS_ELEMENTWISE: rc = spec_elementwise(tr, g, n, params, spec, notes); break;
    case GR_TS_REDUCE_LAST: rc = spec_reduce(tr, g, n, params, spec, notes); break;
    case GR_TS_MATMUL: rc = spec_matmul(tr, g, n, params, spec, notes); break;
    case GR_TS_ATTENTION: rc = spec_attention(tr, g, n, params, spec, notes); break;
    case GR_TS_CONV2D: rc = spec_conv2d(tr, g, n, params, spec, notes); break;
    default:
      rc = gr_tiling_spec_custom(tr, g, node, spec, notes);
  }
  if( rc==0 && spec->strategy==GR_TS_NONE ) return GR_TS_NONE;     /* shape unknown: nothing to plan (a note says why) */
  if( rc==0 ) rc = spec_limits(spec, notes);
  if( rc==0 && spec->kernel != GR_K_NONE && gr_tkernel_arity(spec->kernel) && params->strategy==GR_TS_ELEMENTWISE
      && (uint32_t)gr_tkernel_arity(spec->kernel) != spec->nin ){
    gr_tnote(notes, GR_SEV_ERROR, GR_TC_RULES, "kernel %s takes %d input%s but the node has %u", gr_tkernel_name(spec->kernel),
                  gr_tkernel_arity(spec->kernel), gr_tkernel_arity(spec->kernel)==1 ? "" : "s", spec->nin);
  }
  return params->strategy;
}

