/*
** read-model.c: the model readers against their baselines, for
** bench/readers.sh. One run does one thing and prints "WALL_SECONDS PEAK_RSS_KB COUNT CPU_SECONDS":
**   read FILE            read the file into memory (the baseline of a
**                        hand-written reader: the text dump, ONNX)
**   pb-modeldef FILE     protobuf-c's bare unpack of a binary ModelDef (the
**                        baseline of the binary reader)
**   pb-onnx FILE         protobuf-c's bare unpack of an ONNX ModelProto, with
**                        onnx.proto from python3-onnx (what a protobuf-c based
**                        ONNX reader would cost: it copies every weight)
**   reader FILE RULES    gerules' reader for the file's format (the model
**                        interface, with the rule set's ONNX mapping)
** Timing is wall-clock around the work only; RSS is the process's peak.
*/
#include "config.h"
#include "model/model.h"
#include "model/onnx_rules.h"
#include "model/ge_ir.pb-c.h"
#ifdef HAVE_ONNX_PBC
#include "onnx.pb-c.h"
#endif

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* a point in time: wall-clock, and this process's CPU time (the figure that
** stays meaningful on a loaded machine) */
typedef struct mark { double wall, cpu; } mark;
static double clk(clockid_t c){ struct timespec t; clock_gettime(c, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static mark now(void){ mark m; m.wall = clk(CLOCK_MONOTONIC); m.cpu = clk(CLOCK_PROCESS_CPUTIME_ID); return m; }
static void report(mark a, mark b, long rss_kb, size_t sink){
  printf("%.4f %ld %zu %.4f\n", b.wall - a.wall, rss_kb, sink, b.cpu - a.cpu);
}

/* The whole file into memory (no size limit: the 1 GB model is the point). */
static char *read_all(const char *path, size_t *n){
  int fd = open(path, O_RDONLY);
  size_t cap = 1u << 20;
  char *b;
  ssize_t r;
  if( fd < 0 ) return NULL;
  b = malloc(cap);
  *n = 0;
  while( b && (r = read(fd, b + *n, cap - *n)) > 0 ){
    *n += (size_t)r;
    if( *n==cap ){ cap *= 2; b = realloc(b, cap); }
  }
  close(fd);
  return b;
}

static long peak_kb(void){ struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_maxrss; }

int main(int argc, char **argv){
  mark t0, t1;
  size_t n = 0;
  gr_error err;
  char *buf = NULL;
  volatile size_t sink = 0;
  if( argc < 3 ){ fprintf(stderr, "usage: read-model read|pb-modeldef|pb-onnx|reader FILE [RULES]\n"); return 2; }
  memset(&err, 0, sizeof err);
  if( strcmp(argv[1], "reader")==0 ){
    gr_diags d;
    const char *paths[1];
    gr_ruleset *rs;
    gr_opmap *m;
    gr_model_opts mo;
    gr_graph *g;
    gr_diags_init(&d);
    paths[0] = argc > 3 ? argv[3] : "rules";
    if( (rs = gr_ruleset_load(paths, 1, &d))==NULL || (m = gr_onnx_map_from_rules(rs, &d))==NULL ){ fprintf(stderr, "rules do not load\n"); return 2; }
    memset(&mo, 0, sizeof mo);
    mo.opmap = m;
    t0 = now();
    g = gr_model_load_file(argv[2], &mo, &err);
    t1 = now();
    if( !g ){ fprintf(stderr, "%s: %s\n", argv[2], err.msg); return 2; }
    sink = gr_graph_nnodes(g);
    report(t0, t1, peak_kb(), (size_t)sink);
    return 0;
  }
  t0 = now();
  if( (buf = read_all(argv[2], &n))==NULL ){ fprintf(stderr, "%s: cannot read\n", argv[2]); return 2; }
  if( strcmp(argv[1], "read")==0 ){
    size_t i;
    for(i = 0; i < n; i += 4096) sink += (unsigned char)buf[i];
  }else if( strcmp(argv[1], "pb-modeldef")==0 ){
    Ge__Proto__ModelDef *md = ge__proto__model_def__unpack(NULL, n, (const uint8_t*)buf);
    if( !md ){ fprintf(stderr, "unpack failed\n"); return 2; }
    sink = md->n_graph;
    ge__proto__model_def__free_unpacked(md, NULL);
#ifdef HAVE_ONNX_PBC
  }else if( strcmp(argv[1], "pb-onnx")==0 ){
    Onnx__ModelProto *mp = onnx__model_proto__unpack(NULL, n, (const uint8_t*)buf);
    long pk;
    if( !mp ){ fprintf(stderr, "unpack failed\n"); return 2; }
    sink = mp->graph ? mp->graph->n_node : 0;
    pk = peak_kb();
    t1 = now();
    onnx__model_proto__free_unpacked(mp, NULL);
    free(buf);
    report(t0, t1, pk, (size_t)sink);
    return 0;
#endif
  }else{
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
  }
  t1 = now();
  free(buf);
  report(t0, t1, peak_kb(), (size_t)sink);
  return 0;
}
