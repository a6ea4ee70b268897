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
** contributes its graphs. Encrypted models, bundles and flow models are
** refused with a message that says so.
*/
#include "config.h"
#include "model/readers.h"
#include "model/build.h"

#include <stdio.h>
#include <string.h>

#define HEADER_LEN 256
#define MODEL_DEF 0
#define MAX_PARTITIONS 8        /* CheckPartitionTableNum (om_file_helper.cc) for non-flow models */

static uint32_t rd32(const unsigned char *p){ return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const unsigned char *p){ return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

gr_graph *gr_read_om(const unsigned char *p, size_t n, gr_error *err){
  gr_build *b;
  uint32_t version, legacy_len, model_num, m;
  uint64_t model_length, payload, expect, pos, defat = 0;
  unsigned modeltype, encrypted;
  int wide;
  if( n < HEADER_LEN ){
    gr_error_set(err, 0, 0, "truncated .om: %zu bytes, less than the %u-byte model file header", n, HEADER_LEN);
    return NULL;
  }
  if( memcmp(p, "IMOD", 4)!=0 ){
    gr_error_set(err, 0, 0, "not an .om offline model: the first 4 bytes are not the magic \"IMOD\"");
    return NULL;
  }
  version = rd32(p + 8);
  legacy_len = rd32(p + 76);
  encrypted = p[80];
  modeltype = p[82];
  model_num = rd32(p + 156);
  model_length = rd64(p + 184);
  if( encrypted ){
    gr_error_set(err, 0, 0, "encrypted .om model (header is_encrypt=%u at byte 80): its ModelDef cannot be read "
                 "without the key; give gerules the unencrypted model or the model it was built from", encrypted);
    return NULL;
  }
  if( modeltype==5 ){
    gr_error_set(err, 0, 0, "bundle .om model (header modeltype 5 at byte 82): read each bundled model on its own");
    return NULL;
  }
  if( modeltype==3 ){
    gr_error_set(err, 0, 0, "flow model .om (header modeltype 3 at byte 82): flow models hold FLOW_MODEL partitions, not a ModelDef gerules can read");
    return NULL;
  }
  payload = (uint64_t)(n - HEADER_LEN);
  expect = model_length ? model_length : legacy_len;
  if( payload!=expect ){
    gr_error_set(err, 0, 0, "%s .om: the header gives %llu bytes after the 256-byte header (%s at byte %u), the file has %llu",
                 payload < expect ? "truncated" : "inconsistent", (unsigned long long)expect,
                 model_length ? "model_length" : "length", model_length ? 184u : 76u, (unsigned long long)payload);
    return NULL;
  }
  if( version < 0x20000000u || model_num==0 ) model_num = 1;
  wide = model_length!=0;
  b = gr_build_new();
  pos = HEADER_LEN;
  for(m = 0; m < model_num; m++){
    uint64_t tpos = pos, tlen, entry = wide ? 24 : 12;
    uint32_t num, k, ndef = 0;
    if( n - pos < (wide ? 8u : 4u) ){
      gr_build_fail(b, 0, 0, "truncated .om at byte %llu: model %u's partition table is missing (header model_num %u)",
                    (unsigned long long)pos, m, model_num);
      break;
    }
    num = rd32(p + pos);
    if( num < 1 || num > MAX_PARTITIONS ){
      gr_build_fail(b, 0, 0, "bad .om partition table at byte %llu: %u partitions (1 to %u expected)",
                    (unsigned long long)pos, num, MAX_PARTITIONS);
      break;
    }
    tlen = (wide ? 8 : 4) + entry * num;
    if( n - pos < tlen ){
      gr_build_fail(b, 0, 0, "truncated .om at byte %llu: model %u's partition table needs %llu bytes",
                    (unsigned long long)pos, m, (unsigned long long)tlen);
      break;
    }
    pos += tlen;
    for(k = 0; k < num && !gr_build_failed(b); k++){
      const unsigned char *ent = p + tpos + (wide ? 8 : 4) + entry * k;
      uint32_t type = rd32(ent);
      uint64_t size = wide ? rd64(ent + 16) : rd32(ent + 8);
      if( size > n - pos ){
        gr_build_fail(b, 0, 0, "truncated .om at byte %llu: partition %u of model %u (type %u) declares %llu bytes, %llu remain",
                      (unsigned long long)pos, k, m, type, (unsigned long long)size, (unsigned long long)(n - pos));
        break;
      }
      if( type==MODEL_DEF ){
        ndef++;
        defat = pos;
        gr_ge_pb_add(b, p + pos, (size_t)size, pos, 1);
      }
      pos += size;
    }
    if( gr_build_failed(b) ) break;
    if( ndef==0 ){
      gr_build_fail(b, 0, 0, "model %u of the .om (partition table at byte %llu) has no MODEL_DEF partition", m, (unsigned long long)tpos);
      break;
    }
  }
  if( !gr_build_failed(b) && pos!=n )
    gr_build_fail(b, 0, 0, "inconsistent .om: the partitions of %u model%s end at byte %llu, the file at byte %zu",
                  model_num, model_num==1 ? "" : "s", (unsigned long long)pos, n);
  if( !gr_build_failed(b) && gr_build_ngraphs(b)==0 )
    gr_build_fail(b, 0, 0, "at byte %llu: the .om's ModelDef holds no graph", (unsigned long long)defat);
  return gr_build_finish(b, err);
}
