/*
** onnx_order.c: GE's graph-builder walk order of a parsed graph (see
** onnx_order.h): the ONNX reader numbers GE's one-to-many expansions in it.
*/
#include "config.h"
#include "model/onnx_order.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* links sorted for the walk: by source, then source output, then link
** order (forward); by destination, then destination input (backward) */
typedef struct lk { uint32_t key, sub, seq, other; } lk;

static int cmp_lk(const void *a, const void *b){
  const lk *p = a, *q = b;
  if( p->key!=q->key ) return p->key < q->key ? -1 : 1;
  if( p->sub!=q->sub ) return p->sub < q->sub ? -1 : 1;
  return (p->seq > q->seq) - (p->seq < q->seq);
}

int gr_ge_walk_order(size_t nops, const gr_ge_link *links, size_t nlinks, const uint32_t *starts, size_t nstarts,
                     uint32_t *order){
  lk *fw, *bw;
  size_t *fo, *bo, i, n = 0, head = 0, tail = 0, qcap;
  unsigned char *seen;
  /* the queue holds runs of operators, each run pushed as one vector by GE;
  ** every operator pushes its consumers and producers once, so the queue
  ** holds at most nstarts + 2 * nlinks entries */
  uint32_t *q;
  if( nlinks > (SIZE_MAX / sizeof *fw) / 2 || nops >= SIZE_MAX / sizeof *fo - 1 ) return 0;
  qcap = nstarts + 2 * nlinks + 1;
  fw = gr_xmalloc((nlinks + 1) * sizeof *fw);
  bw = gr_xmalloc((nlinks + 1) * sizeof *bw);
  fo = gr_xcalloc(nops + 1, sizeof *fo);
  bo = gr_xcalloc(nops + 1, sizeof *bo);
  seen = gr_xcalloc(nops + 1, 1);
  q = gr_xmalloc(qcap * sizeof *q);
  for(i = 0; i < nlinks; i++){
    fw[i].key = links[i].src; fw[i].sub = links[i].src_out; fw[i].seq = (uint32_t)i; fw[i].other = links[i].dst;
    bw[i].key = links[i].dst; bw[i].sub = links[i].dst_in; bw[i].seq = (uint32_t)i; bw[i].other = links[i].src;
  }
  if( nlinks ){ qsort(fw, nlinks, sizeof *fw, cmp_lk); qsort(bw, nlinks, sizeof *bw, cmp_lk); }
  /* fo[k]..fo[k+1]: the forward links of operator k (counting sort offsets) */
  for(i = 0; i < nlinks; i++){ if( fw[i].key < nops ) fo[fw[i].key + 1]++; if( bw[i].key < nops ) bo[bw[i].key + 1]++; }
  for(i = 0; i < nops; i++){ fo[i + 1] += fo[i]; bo[i + 1] += bo[i]; }
  for(i = 0; i < nstarts; i++) q[tail++] = starts[i];
  while( head < tail ){
    uint32_t k = q[head++];
    size_t j;
    if( k >= nops || seen[k] ) continue;
    seen[k] = 1;
    order[n++] = k;
    for(j = fo[k]; j < fo[k + 1]; j++) q[tail++] = fw[j].other;
    for(j = bo[k]; j < bo[k + 1]; j++) q[tail++] = bw[j].other;
  }
  for(i = 0; i < nops; i++) if( !seen[i] ) order[n++] = (uint32_t)i;
  free(fw); free(bw); free(fo); free(bo); free(seen); free(q);
  return 1;
}
