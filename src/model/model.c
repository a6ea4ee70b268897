/*
** model.c: the model interface of model.h. It tells the formats apart by
** their content (the .om magic "IMOD", the zip magic of OM2, a JSON opening
** brace, the first identifier of a protobuf text file, the top-level field
** numbers and wire types of a binary protobuf message, which differ between
** a GE ModelDef and an ONNX ModelProto), maps or reads the input once, and
** hands it to the format's reader through one table. Regular files are
** memory-mapped read-only (the binary readers never copy weights, so the
** pages holding them are never touched); ATC JSON from a regular file is
** streamed in chunks as before; standard input and pipes are read whole,
** up to GR_MODEL_STREAM_MAX.
*/
#include "config.h"
#include "model/model.h"
#include "model/readers.h"
#include "model/pbwire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the readers ---- */

typedef struct reader {
  const char *name;       /* --input-format spelling, report value */
  const char *title;      /* for messages */
  gr_graph *(*mem)(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err);
  gr_graph *(*fd)(int fd, const gr_model_opts *o, gr_error *err);   /* streaming; NULL = use mem */
} reader;

static gr_graph *json_mem(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err){
  (void)o; return gr_read_ge_json_mem((const char*)p, n, err);
}
static gr_graph *json_fd(int fd, const gr_model_opts *o, gr_error *err){
  (void)o; return gr_read_ge_json_fd(fd, err);
}

static gr_graph *text_mem(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err){
  (void)o; return gr_read_ge_text((const char*)p, n, err);
}
static gr_graph *binary_mem(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err){
  (void)o; return gr_read_ge_binary(p, n, err);
}
static gr_graph *om_mem(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err){
  (void)o; return gr_read_om(p, n, err);
}

static gr_graph *onnx_mem(const unsigned char *p, size_t n, const gr_model_opts *o, gr_error *err){
  if( o==NULL || o->opmap==NULL ){
    gr_error_set(err, 0, 0, "this is an ONNX model, and no ONNX op mapping was given to convert it to Ascend IR");
    return NULL;
  }
  return gr_read_onnx(p, n, o->opmap, o->chip_caps, err);
}

static const reader readers[GR_FMT_COUNT] = {
  [GR_FMT_GE_JSON]   = { "json", "ATC JSON (GE ModelDef)", json_mem, json_fd },
  [GR_FMT_GE_TEXT]   = { "ge-text", "GE ModelDef in protobuf text format", text_mem, NULL },
  [GR_FMT_GE_BINARY] = { "ge-binary", "GE ModelDef in binary protobuf", binary_mem, NULL },
  [GR_FMT_OM]        = { "om", ".om offline model", om_mem, NULL },
  [GR_FMT_ONNX]      = { "onnx", "ONNX model", onnx_mem, NULL },
};

const char *gr_model_format_name(int f){
  return f > 0 && f < GR_FMT_COUNT ? readers[f].name : "";
}

int gr_model_format_by_name(const char *name){
  int f;
  if( strcmp(name, "auto")==0 ) return GR_FMT_AUTO;
  for(f = 1; f < GR_FMT_COUNT; f++) if( strcmp(readers[f].name, name)==0 ) return f;
  return -1;
}

const char *gr_model_format_names(void){ return "auto, json, ge-text, ge-binary, om, onnx"; }

void gr_graph_set_format(gr_graph *g, int format, int64_t onnx_opset){
  g->format = format;
  g->onnx_opset = onnx_opset;
}

/* ---- detection ---- */

static const char expected[] =
  "expected ATC JSON (a GE ModelDef), a GE protobuf text dump (ge_proto_*.txt), a binary GE ModelDef, "
  "an .om offline model or an ONNX model";

static int is_space(unsigned c){ return c==' ' || c=='\t' || c=='\n' || c=='\r' || c=='\f' || c=='\v'; }

/* Text: no control byte other than white space in the first KiBs. */
static int looks_text(const unsigned char *p, size_t n){
  size_t i, m = n < 4096 ? n : 4096;
  for(i = 0; i < m; i++) if( (p[i] < 0x20 && !is_space(p[i])) || p[i]==0x7f ) return 0;
  return 1;
}

/* The identifier at *i (after white space and # comments); its length, 0 if none. */
static size_t text_ident(const unsigned char *p, size_t n, size_t *i){
  size_t k;
  for(;;){
    while( *i < n && is_space(p[*i]) ) (*i)++;
    if( *i < n && p[*i]=='#' ){ while( *i < n && p[*i]!='\n' ) (*i)++; continue; }
    break;
  }
  k = *i;
  if( k >= n || !((p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= 'a' && p[k] <= 'z') || p[k]=='_') ) return 0;
  while( k < n && ((p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k]=='_') ) k++;
  return k - *i;
}

#define IS(s, len, lit) ((len)==sizeof(lit) - 1 && memcmp((s), lit, (len))==0)

/* Protobuf text: the first field names a ModelDef field (GE) or an ONNX
** ModelProto field; inside "graph {", GE's GraphDef has name/op and ONNX's
** GraphProto has node. 1 = GE text, 0 = not text format, -1 = ONNX text. */
static int text_kind(const unsigned char *p, size_t n){
  size_t i = 0, len = text_ident(p, n, &i), j;
  const unsigned char *w = p + i;
  if( len==0 ) return 0;
  j = i + len;
  while( j < n && is_space(p[j]) ) j++;
  if( j >= n || (p[j]!=':' && p[j]!='{' && p[j]!='<') ) return 0;
  if( IS(w, len, "ir_version") || IS(w, len, "producer_name") || IS(w, len, "producer_version")
      || IS(w, len, "opset_import") || IS(w, len, "model_version") || IS(w, len, "metadata_props")
      || IS(w, len, "doc_string") || IS(w, len, "domain") ) return -1;
  if( IS(w, len, "graph") && p[j]=='{' ){
    size_t k = j + 1, l2 = text_ident(p, n, &k);
    if( IS(p + k, l2, "node") || IS(p + k, l2, "initializer") || IS(p + k, l2, "value_info") ) return -1;
  }
  return 1;
}

/* A binary protobuf: walks the top-level fields and weighs the evidence.
** ONNX ModelProto: ir_version=1 varint, producer_*=2,3, domain=4,
** model_version=5 varint, doc_string=6, opset_import=8, metadata_props=14,
** training_info=20, functions=25. GE ModelDef: name=1 and custom_version=3
** bytes, version=2 varint, attr=11, attr_groups=12. Both have graph=7, whose
** first fields differ (GraphProto: node=1, name=2, doc_string=10,
** value_info=13; GraphDef: name=1, op=6). */
static int pb_kind(const unsigned char *p, size_t n){
  pb_cur c = { p, p + n };
  pb_field f;
  int onnx = 0, ge = 0, r, nf = 0;
  while( (r = pb_next(&c, &f)) > 0 ){
    nf++;
    switch( f.num ){
    case 1: if( f.wt==PB_VARINT ) onnx += 2; else if( f.wt==PB_LEN ) ge++; break;
    case 2: if( f.wt==PB_LEN ) onnx++; else if( f.wt==PB_VARINT ) ge++; break;
    case 4: case 6: case 8: case 14: case 20: case 25: if( f.wt==PB_LEN ) onnx += 2; break;
    case 5: if( f.wt==PB_VARINT ) onnx++; break;
    case 11: case 12: if( f.wt==PB_LEN ) ge += 2; break;
    case 7:
      if( f.wt==PB_LEN ){
        pb_cur g = { f.data, f.data + f.len };
        pb_field h;
        int k;
        for(k = 0; k < 64 && pb_next(&g, &h) > 0; k++){
          if( h.num==6 && h.wt==PB_LEN ) ge++;
          if( (h.num==2 || h.num==10 || h.num==13) && h.wt==PB_LEN ) onnx++;
        }
      }
      break;
    default: break;
    }
    if( nf > 4096 ) break;
  }
  if( nf==0 ) return 0;
  if( r < 0 && nf < 2 && onnx < 2 && ge < 2 ) return 0;   /* garbage from the start */
  if( onnx > ge ) return GR_FMT_ONNX;
  if( ge > onnx ) return GR_FMT_GE_BINARY;
  return 0;
}

static int has_bom(const unsigned char *p, size_t n){ return n >= 3 && p[0]==0xef && p[1]==0xbb && p[2]==0xbf; }

/* Text meant as JSON: the JSON reader's file:line:col says what is wrong
** with it, where "unrecognised model format" would say nothing. Byte 0 '{'
** or '[' is never a protobuf message (both are group tags, which neither
** GE nor ONNX writes), so that holds even with a raw NUL or a control byte
** inside a name; after white space, a text file whose first character is a
** JSON opener, a string or a comment is meant as JSON too. */
static int looks_json(const unsigned char *p, size_t n){
  size_t i = 0;
  if( n && (p[0]=='{' || p[0]=='[') ) return 1;
  if( !looks_text(p, n) ) return 0;
  while( i < n && is_space(p[i]) ) i++;
  if( i < n && (p[i]=='{' || p[i]=='[' || p[i]=='"') ) return 1;
  return i + 1 < n && p[i]=='/' && (p[i+1]=='/' || p[i+1]=='*');
}

int gr_model_detect(const unsigned char *p, size_t n, gr_error *err){
  size_t i = 0;
  int k;
  if( has_bom(p, n) ){ p += 3; n -= 3; }       /* a UTF-8 BOM is accepted before any text format */
  if( n==0 ){
    gr_error_set(err, 0, 0, "empty file (%s)", expected);
    return 0;
  }
  if( n >= 4 && memcmp(p, "IMOD", 4)==0 ) return GR_FMT_OM;
  if( n >= 4 && memcmp(p, "PK\x03\x04", 4)==0 ){
    gr_error_set(err, 0, 0, "this is a zip archive, such as a zip-based OM2 model (`atc --mode=7`); "
                 "gerules reads classic .om files (magic \"IMOD\"), not OM2: give it the model the OM2 was built from");
    return 0;
  }
  if( looks_json(p, n) ) return GR_FMT_GE_JSON;
  if( looks_text(p, n) ){
    while( i < n && is_space(p[i]) ) i++;
    if( i==n ){
      gr_error_set(err, 0, 0, "the file holds only white space (%s)", expected);
      return 0;
    }
    if( p[i]=='{' || p[i]=='[' ) return GR_FMT_GE_JSON;
    k = text_kind(p, n);
    if( k > 0 ) return GR_FMT_GE_TEXT;
    if( k < 0 ){
      gr_error_set(err, 0, 0, "this is an ONNX model in protobuf text format, such as the ge_onnx_*.pbtxt "
                   "view that DUMP_GE_GRAPH writes for Netron; gerules reads the ge_proto_*.txt dump of the "
                   "same graph, or the binary .onnx model");
      return 0;
    }
  }
  k = pb_kind(p, n);
  if( k ) return k;
  {
    char hex[64];
    size_t j, m = n < 8 ? n : 8, h = 0;
    for(j = 0; j < m; j++) h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", j ? " " : "", p[j]);
    gr_error_set(err, 0, 0, "unrecognised model format (first bytes %s): %s; --input-format names the format "
                 "when detection fails", hex, expected);
  }
  return 0;
}

/* ---- loading ---- */

static gr_graph *dispatch(int f, const unsigned char *p, size_t n, int fd, const gr_model_opts *o, gr_error *err){
  gr_graph *g;
  if( f <= 0 || f >= GR_FMT_COUNT ){
    gr_error_set(err, 0, 0, "unknown input format");
    return NULL;
  }
  if( readers[f].mem==NULL ){
    gr_error_set(err, 0, 0, "this is %s %s, which this gerules cannot read yet", f==GR_FMT_OM || f==GR_FMT_ONNX ? "an" : "a",
                 readers[f].title);
    return NULL;
  }
  if( n==0 && fd < 0 ){
    gr_error_set(err, 0, 0, "empty file (expected %s)", readers[f].title);
    return NULL;
  }
  if( f==GR_FMT_GE_JSON || f==GR_FMT_GE_TEXT ){
    /* a UTF-8 BOM before a text format is skipped, not a character (line 1's
    ** columns then count from after it, as an editor shows them) */
    unsigned char head[3];
    if( fd >= 0 && readers[f].fd ){
      ssize_t k = pread(fd, head, 3, 0);
      if( lseek(fd, k==3 && has_bom(head, 3) ? 3 : 0, SEEK_SET) < 0 ){
        gr_error_set(err, 0, 0, "cannot read: %s", strerror(errno));
        return NULL;
      }
    }else if( has_bom(p, n) ){ p += 3; n -= 3; }
  }
  g = fd >= 0 && readers[f].fd ? readers[f].fd(fd, o, err) : readers[f].mem(p, n, o, err);
  if( g && g->format==0 ) gr_graph_set_format(g, f, 0);
  return g;
}

gr_graph *gr_model_load_mem(const void *buf, size_t len, const gr_model_opts *o, gr_error *err){
  int f = o ? o->format : GR_FMT_AUTO;
  gr_graph *g;
  char *copy;
  if( f==GR_FMT_AUTO && (f = gr_model_detect(buf, len, err))==0 ) return NULL;
  if( f!=GR_FMT_GE_TEXT ) return dispatch(f, buf, len, -1, o, err);
  /* the text scanner needs a NUL after the last byte */
  copy = gr_xmalloc(len + 1);
  memcpy(copy, buf, len);
  copy[len] = 0;
  g = dispatch(f, (const unsigned char*)copy, len, -1, o, err);
  free(copy);
  return g;
}

/* Standard input or a pipe: read whole, up to GR_MODEL_STREAM_MAX. */
static gr_graph *load_stream(int fd, const gr_model_opts *o, gr_error *err){
  size_t n;
  gr_graph *g;
  char *p = gr_read_fd_max(fd, NULL, GR_MODEL_STREAM_MAX, &n, err);
  if( p==NULL ) return NULL;
  g = gr_model_load_mem(p, n, o, err);
  free(p);
  return g;
}

gr_graph *gr_model_load_fd(int fd, const gr_model_opts *o, gr_error *err){
  struct stat st;
  gr_graph *g = NULL;
  int f = o ? o->format : GR_FMT_AUTO;
  void *map;
  size_t n, page, mlen;
  if( fstat(fd, &st)!=0 ){
    gr_error_set(err, 0, 0, "cannot read: %s", strerror(errno));
    return NULL;
  }
  if( !S_ISREG(st.st_mode) ){
    /* standard input may be a pipe; a device or a FIFO given by name never
    ** gets here (gr_open_input refuses it before any read) */
    if( S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(fd)) ) return load_stream(fd, o, err);
    gr_error_set(err, 0, 0, "not a regular file (%s)", gr_file_kind(st.st_mode));
    return NULL;
  }
  if( st.st_size==0 ){
    if( f==GR_FMT_AUTO ) gr_model_detect((const unsigned char*)"", 0, err);
    else gr_error_set(err, 0, 0, "empty file (expected %s)", f < GR_FMT_COUNT ? readers[f].title : "a model");
    return NULL;
  }
  if( (uint64_t)st.st_size > SIZE_MAX ){
    gr_error_set(err, 0, 0, "file too large to map");
    return NULL;
  }
  n = (size_t)st.st_size;
  /* the file over an anonymous zero mapping one page longer: the text
  ** reader's scanner finds a NUL sentinel at map[n] whatever the size */
  page = (size_t)sysconf(_SC_PAGESIZE);
  if( n > SIZE_MAX - 2 * page ){
    gr_error_set(err, 0, 0, "file too large to map");
    return NULL;
  }
  mlen = (n + page) / page * page + page;
  /* no fallback to reading the file whole when it cannot be mapped: a
  ** sparse file may claim 64 GiB (or a terabyte) that no read should copy */
  map = mmap(NULL, mlen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if( map==MAP_FAILED ){
    gr_error_set(err, 0, 0, "cannot map the file (%zu bytes): %s", n, strerror(errno));
    return NULL;
  }
  if( mmap(map, n, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0)==MAP_FAILED ){
    int e = errno;
    munmap(map, mlen);
    gr_error_set(err, 0, 0, "cannot map the file (%zu bytes): %s", n, strerror(e));
    return NULL;
  }
  if( f==GR_FMT_AUTO ) f = gr_model_detect(map, n, err);
  if( f > 0 && f < GR_FMT_COUNT ){
    /* the binary readers skip weights: no read-ahead into them */
    if( f!=GR_FMT_GE_JSON && f!=GR_FMT_GE_TEXT ) madvise(map, n, MADV_RANDOM);
    if( readers[f].fd && lseek(fd, 0, SEEK_SET)==0 ){
      munmap(map, mlen);
      return dispatch(f, NULL, 0, fd, o, err);
    }
    g = dispatch(f, map, n, -1, o, err);
  }else if( f ){
    gr_error_set(err, 0, 0, "unknown input format");
  }
  munmap(map, mlen);
  return g;
}

gr_graph *gr_model_load_file(const char *path, const gr_model_opts *o, gr_error *err){
  gr_graph *g;
  int fd;
  if( (fd = gr_open_input(path, NULL, err)) < 0 ) return NULL;
  g = gr_model_load_fd(fd, o, err);
  if( fd ) close(fd);
  return g;
}
