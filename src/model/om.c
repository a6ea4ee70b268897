/*
** om.c: the .om offline model reader. The layout follows hicann/ge
** (commit ffdcbc9f7): the 256-byte ModelFileHeader of
** inc/framework/common/framework_types_internal.h (little-endian, natural
** alignment: magic "IMOD" at 0, version at 8, legacy length at 76,
** is_encrypt at 80, modeltype at 82, name at 84, model_num at 156,
** model_length at 184), then one partition table per model, each followed
** by its payloads back to back in table order, as
** base/common/helper/om_file_helper.cc loads them. A table is either the
** 64-bit form (uint32 num, 4 pad, then {uint32 type, 4 pad, uint64 offset,
** uint64 size} entries), used when model_length is set or the model is a flow
** model, or the legacy form (uint32 num, then {uint32 type, offset, size}).
** Payloads are walked sequentially by size, as GE does (offsets are not
** trusted), and the walk must end exactly at the end of the file. Only the
** MODEL_DEF partitions (type 0) are read, each with the binary ModelDef
** reader (ge_pb.c); weights, kernels and task partitions are stepped over
** without being touched (the file is mapped, so their pages are never read).
** Every model of a multi-model file (root and submodels, model_num > 1)
** contributes its graphs. A flow model (header modeltype 3; hicann/ge
** dflow/base/model/flow_model_om_loader.cc) has its flow graph (MODEL_DEF),
** a FLOW_MODEL partition and one FLOW_SUBMODEL per submodel, whose om_data
** is the submodel's own .om: each is read, its graphs named
** <submodel name>/<graph>. Encrypted models and bundles are refused with a
** message that says so.
*/
#include "config.h"
#include "model/readers.h"
#include "model/build.h"
#include "model/pbwire.h"

#include <stdio.h>
#include <string.h>

#define HEADER_LEN 256
#define MODEL_DEF 0
#define MAX_PARTITIONS 8        /* CheckPartitionTableNum (om_file_helper.cc) for non-flow models */
#define FLOW_MODEL 6
#define FLOW_SUBMODEL 7
#define MAX_FLOW_PARTITIONS 4096 /* a flow model's submodels: a bound of gerules', far above real ones */
#define MAX_NESTING 8           /* flow submodels inside flow submodels */

typedef struct span_t { const unsigned char *p; size_t n; } span_t;

static uint32_t rd32(const unsigned char *p){ return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const unsigned char *p){ return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* A SubmodelDef (flow_model.proto): model_name (1), om_data (3), the .om of
** the submodel; om_data_file_path (9) when it was saved beside the model. */
static int submodel(gr_build *b, const unsigned char *p, size_t n, uint64_t base, span_t *name, span_t *om, span_t *file){
  pb_cur c = { p, p + n };
  pb_field f;
  int r;
  name->p = om->p = file->p = NULL; name->n = om->n = file->n = 0;
  while( (r = pb_next(&c, &f)) > 0 ){
    if( f.wt!=PB_LEN ) continue;
    if( f.num==1 ){ name->p = f.data; name->n = f.len; }
    else if( f.num==3 ){ om->p = f.data; om->n = f.len; }
    else if( f.num==9 ){ file->p = f.data; file->n = f.len; }
  }
  if( r < 0 ) return gr_build_fail(b, 0, 0, "malformed FLOW_SUBMODEL partition at byte %llu: a field runs past its end", (unsigned long long)base);
  return 1;
}

static int read_om(gr_build *b, const unsigned char *p, size_t n, uint64_t base, int depth, uint64_t *defat);

/* The partitions of a flow model (dflow/base/model/flow_model_om_loader.cc,
** CheckModelPartitions): [0] MODEL_DEF (the flow graph), [1] FLOW_MODEL
** (the relations between submodels), then one FLOW_SUBMODEL each, whose
** om_data is the submodel's own .om: read, its graphs named
** <submodel>/<graph>. */
static int flow_partition(gr_build *b, const unsigned char *p, uint64_t pos, uint64_t size, uint32_t k, uint32_t type,
                          uint64_t base, int depth, uint64_t *defat){
  span_t name, om, file;
  static const uint32_t want[2] = { MODEL_DEF, FLOW_MODEL };
  if( type!=(k < 2 ? want[k] : FLOW_SUBMODEL) )
    return gr_build_fail(b, 0, 0, "flow model partition %u at byte %llu has type %u, GE expects %u (flow_model_om_loader.cc)",
                         k, (unsigned long long)(base + pos), type, k < 2 ? want[k] : FLOW_SUBMODEL);
  if( type==MODEL_DEF ) return gr_ge_pb_add(b, p + pos, (size_t)size, base + pos, 1);
  if( type!=FLOW_SUBMODEL ) return 1;
  if( !submodel(b, p + pos, (size_t)size, base + pos, &name, &om, &file) ) return 0;
  if( name.n==0 || memchr(name.p, 0, name.n) || memchr(name.p, '/', name.n) )
    return gr_build_fail(b, 0, 0, "flow submodel at byte %llu has no usable model_name", (unsigned long long)(base + pos));
  if( om.n==0 )
    return gr_build_fail(b, 0, 0, "flow submodel '%.*s' at byte %llu has no om_data%s: its model is not in this file",
                         (int)name.n, (const char*)name.p, (unsigned long long)(base + pos),
                         file.n ? " (GE loads it from om_data_file_path, beside the model it was saved with)" : "");
  if( !gr_build_graph_prefix(b, (const char*)name.p, name.n) ) return 0;
  if( !read_om(b, om.p, om.n, base + (uint64_t)(om.p - p), depth + 1, defat) ) return 0;
  return gr_build_graph_prefix(b, "", 0);
}

/* *defat: where the first MODEL_DEF partition starts (for messages) */
static int read_om(gr_build *b, const unsigned char *p, size_t n, uint64_t base, int depth, uint64_t *defat){
  uint32_t version, legacy_len, model_num, m;
  uint64_t model_length, payload, expect, pos;
  unsigned modeltype, encrypted;
  int wide, flow;
  if( depth > MAX_NESTING ) return gr_build_fail(b, 0, 0, "flow submodels nested more than %d deep", MAX_NESTING);
  if( n < HEADER_LEN )
    return gr_build_fail(b, 0, 0, "truncated .om%s: %zu bytes, less than the %u-byte model file header", depth ? " submodel" : "", n, HEADER_LEN);
  if( memcmp(p, "IMOD", 4)!=0 )
    return gr_build_fail(b, 0, 0, "not an .om offline model%s: the first 4 bytes are not the magic \"IMOD\"", depth ? " (a flow submodel's om_data)" : "");
  version = rd32(p + 8);
  legacy_len = rd32(p + 76);
  encrypted = p[80];
  modeltype = p[82];
  model_num = rd32(p + 156);
  model_length = rd64(p + 184);
  if( encrypted )
    return gr_build_fail(b, 0, 0, "encrypted .om model (header is_encrypt=%u at byte %llu): its ModelDef cannot be read "
                         "without the key; give gerules the unencrypted model or the model it was built from", encrypted, (unsigned long long)(base + 80));
  if( modeltype==5 )
    return gr_build_fail(b, 0, 0, "bundle .om model (header modeltype 5 at byte %llu): read each bundled model on its own", (unsigned long long)(base + 82));
  flow = modeltype==3;
  payload = (uint64_t)(n - HEADER_LEN);
  expect = model_length ? model_length : legacy_len;
  if( payload!=expect )
    return gr_build_fail(b, 0, 0, "%s .om%s: the header gives %llu bytes after the 256-byte header (%s at byte %llu), the %s has %llu",
                         payload < expect ? "truncated" : "inconsistent", depth ? " (a flow submodel's om_data)" : "", (unsigned long long)expect,
                         model_length ? "model_length" : "length", (unsigned long long)(base + (model_length ? 184u : 76u)),
                         depth ? "om_data" : "file", (unsigned long long)payload);
  if( version < 0x20000000u || model_num==0 || flow ) model_num = 1;
  wide = model_length!=0 || flow;
  pos = HEADER_LEN;
  for(m = 0; m < model_num; m++){
    uint64_t tpos = pos, tlen, entry = wide ? 24 : 12;
    uint32_t num, k, ndef = 0;
    if( n - pos < (wide ? 8u : 4u) )
      return gr_build_fail(b, 0, 0, "truncated .om at byte %llu: model %u's partition table is missing (header model_num %u)",
                           (unsigned long long)(base + pos), m, model_num);
    num = rd32(p + pos);
    if( num < (flow ? 2u : 1u) || num > (flow ? MAX_FLOW_PARTITIONS : MAX_PARTITIONS) )
      return gr_build_fail(b, 0, 0, "bad .om partition table at byte %llu: %u partitions (%u to %u expected)",
                           (unsigned long long)(base + pos), num, flow ? 2u : 1u, flow ? MAX_FLOW_PARTITIONS : MAX_PARTITIONS);
    tlen = (wide ? 8 : 4) + entry * num;
    if( n - pos < tlen )
      return gr_build_fail(b, 0, 0, "truncated .om at byte %llu: model %u's partition table needs %llu bytes",
                           (unsigned long long)(base + pos), m, (unsigned long long)tlen);
    pos += tlen;
    for(k = 0; k < num; k++){
      const unsigned char *ent = p + tpos + (wide ? 8 : 4) + entry * k;
      uint32_t type = rd32(ent);
      uint64_t size = wide ? rd64(ent + 16) : rd32(ent + 8);
      if( size > n - pos )
        return gr_build_fail(b, 0, 0, "truncated .om at byte %llu: partition %u of model %u (type %u) declares %llu bytes, %llu remain",
                             (unsigned long long)(base + pos), k, m, type, (unsigned long long)size, (unsigned long long)(n - pos));
      if( type==MODEL_DEF && *defat==0 ) *defat = base + pos;
      if( flow ){
        if( !flow_partition(b, p, pos, size, k, type, base, depth, defat) ) return 0;
        ndef += type==MODEL_DEF;
      }else if( type==MODEL_DEF ){
        ndef++;
        if( !gr_ge_pb_add(b, p + pos, (size_t)size, base + pos, 1) ) return 0;
      }
      pos += size;
    }
    if( ndef==0 )
      return gr_build_fail(b, 0, 0, "model %u of the .om (partition table at byte %llu) has no MODEL_DEF partition", m, (unsigned long long)(base + tpos));
  }
  if( pos!=n )
    return gr_build_fail(b, 0, 0, "inconsistent .om: the partitions of %u model%s end at byte %llu, the file at byte %llu",
                         model_num, model_num==1 ? "" : "s", (unsigned long long)(base + pos), (unsigned long long)(base + n));
  return 1;
}

gr_graph *gr_read_om(const unsigned char *p, size_t n, gr_error *err){
  gr_build *b = gr_build_new();
  uint64_t defat = 0;
  if( read_om(b, p, n, 0, 0, &defat) && gr_build_ngraphs(b)==0 )
    gr_build_fail(b, 0, 0, "at byte %llu: the .om's ModelDef holds no graph", (unsigned long long)defat);
  return gr_build_finish(b, err);
}
