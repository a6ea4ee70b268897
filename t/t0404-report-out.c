/*
** t0404-report-out.c: the report output of report/out.c, on reports of many
** buffers: the bytes arrive whole and in order (small pieces, pieces that
** straddle a buffer, a piece bigger than a buffer), gr_out_flush returns only
** when everything is in the kernel, a write error (a full device, a closed
** pipe) is reported by gr_out_close however many buffers came before, and
** gr_out_abort of an atomic file leaves nothing behind; and gr_out_json_str
** against its byte-at-a-time definition.
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/out.h"
#include "tap.h"

static char dir[] = "/tmp/gerules-t0404.XXXXXX";

/* The expected bytes: a pattern that makes a lost, doubled or reordered
** piece visible (each position's byte depends on the position). */
static unsigned char byte_at(size_t i){ return (unsigned char)((i * 2654435761u) >> 13); }

/* Writes total bytes through o in pieces of varying size, one of them
** bigger than a buffer; returns the bytes written. */
static size_t write_pattern(gr_out *o, size_t total){
  unsigned char *piece = malloc(3u << 20);
  size_t at = 0, k = 0;
  while( at < total ){
    size_t n = (k % 97) * 13 + 1, i;
    if( k==400 ) n = 3u << 20;              /* bigger than the 256 KiB buffer */
    if( n > total - at ) n = total - at;
    for(i = 0; i < n; i++) piece[i] = byte_at(at + i);
    gr_out_write(o, piece, n);
    at += n; k++;
  }
  free(piece);
  return at;
}

/* 1 when path holds exactly the pattern's first n bytes. */
static int file_is_pattern(const char *path, size_t n){
  FILE *f = fopen(path, "rb");
  size_t i = 0;
  int c, good = 1;
  if( f==NULL ) return 0;
  while( (c = getc(f))!=EOF ){
    if( i >= n || (unsigned char)c!=byte_at(i) ){ good = 0; break; }
    i++;
  }
  fclose(f);
  return good && i==n;
}

static void test_order(void){
  char path[1100];
  gr_out o;
  gr_error e;
  size_t n;
  int fd;
  struct stat st;
  snprintf(path, sizeof path, "%s/big.out", dir);
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  gr_out_init_fd(&o, fd);
  n = write_pattern(&o, 20u << 20);
  ok(gr_out_flush(&o)==0, "flush: no error");
  ok(fstat(fd, &st)==0 && (size_t)st.st_size==n, "after gr_out_flush every byte written so far is in the file");
  gr_out_write(&o, "tail", 0);
  memset(&e, 0, sizeof e);
  is(gr_out_close(&o, &e), 0, "close: no error");
  close(fd);
  ok(file_is_pattern(path, n), "20 MiB in pieces of 1 to 1249 bytes and one of 3 MiB arrive whole and in order");
}

static void test_small(void){
  char path[1100];
  gr_out o;
  gr_error e;
  int fd;
  snprintf(path, sizeof path, "%s/small.out", dir);
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  gr_out_init_fd(&o, fd);
  write_pattern(&o, 1000);
  ok(gr_out_flush(&o)==0, "flush of a report smaller than a buffer");
  memset(&e, 0, sizeof e);
  is(gr_out_close(&o, &e), 0, "close of a small report");
  close(fd);
  ok(file_is_pattern(path, 1000), "the small report is whole");
}

static void test_errors(void){
  gr_out o;
  gr_error e;
  int fd, p[2];
  fd = open("/dev/full", O_WRONLY);
  if( fd < 0 ){
    ok(1, "# SKIP no /dev/full");
  }else{
    gr_out_init_fd(&o, fd);
    write_pattern(&o, 4u << 20);
    memset(&e, 0, sizeof e);
    is(gr_out_close(&o, &e), -1, "a full device: close fails");
    like(e.msg, "No space left on device", "... with the device's error");
    close(fd);
  }
  /* SIGPIPE ignored here, so write(2) gets EPIPE (the CLI keeps the
  ** default: the process ends, as `gerules eval | head` expects) */
  signal(SIGPIPE, SIG_IGN);
  if( pipe(p)!=0 ){ ok(0, "pipe"); return; }
  close(p[0]);
  gr_out_init_fd(&o, p[1]);
  write_pattern(&o, 4u << 20);
  memset(&e, 0, sizeof e);
  is(gr_out_close(&o, &e), -1, "a pipe closed by its reader: close fails");
  like(e.msg, "Broken pipe", "... with EPIPE");
  close(p[1]);
  signal(SIGPIPE, SIG_DFL);
}

static void test_abort(void){
  char path[1100];
  gr_out o;
  gr_error e;
  DIR *d;
  struct dirent *de;
  int others = 0;
  snprintf(path, sizeof path, "%s/atomic.json", dir);
  memset(&e, 0, sizeof e);
  if( !ok(gr_out_open_file(&o, path, &e)==0, "an atomic file opens") ) return;
  write_pattern(&o, 6u << 20);
  gr_out_abort(&o);
  ok(access(path, F_OK)!=0 && errno==ENOENT, "abort: the target was never created");
  d = opendir(dir);
  while( d && (de = readdir(d))!=NULL )
    if( strncmp(de->d_name, ".atomic.json.", 13)==0 ) others++;
  if( d ) closedir(d);
  is(others, 0, "abort: no temporary is left beside it");
  memset(&e, 0, sizeof e);
  if( ok(gr_out_open_file(&o, path, &e)==0, "it opens again") ){
    size_t n = write_pattern(&o, 6u << 20);
    is(gr_out_close(&o, &e), 0, "close renames it into place");
    ok(file_is_pattern(path, n), "the committed file is whole");
  }
}

/* gr_out_json_str against a byte-at-a-time definition: every class of byte
** (plain, control, '"', '\\', DEL, valid and broken UTF-8) at every length
** up to 80 and every offset, and strings that end right before an unmapped
** page, which a 16-byte load past their end would touch. */
static size_t ref_utf8(const unsigned char *p){
  if( p[0] >= 0xc2 && p[0] <= 0xdf ) return (p[1] & 0xc0)==0x80 ? 2 : 0;
  if( p[0] >= 0xe0 && p[0] <= 0xef ){
    if( (p[1] & 0xc0)!=0x80 || (p[2] & 0xc0)!=0x80 || (p[0]==0xe0 && p[1] < 0xa0) || (p[0]==0xed && p[1] >= 0xa0) ) return 0;
    return 3;
  }
  if( p[0] >= 0xf0 && p[0] <= 0xf4 ){
    if( (p[1] & 0xc0)!=0x80 || (p[2] & 0xc0)!=0x80 || (p[3] & 0xc0)!=0x80 ) return 0;
    if( (p[0]==0xf0 && p[1] < 0x90) || (p[0]==0xf4 && p[1] >= 0x90) ) return 0;
    return 4;
  }
  return 0;
}
static void ref_json_str(gr_buf *b, const char *s){
  const unsigned char *p = (const unsigned char*)s;
  gr_buf_adds(b, "\"");
  while( *p ){
    size_t k;
    if( *p >= 0x20 && *p < 0x7f && *p!='"' && *p!='\\' ){ gr_buf_add(b, (const char*)p, 1); p++; continue; }
    if( *p >= 0x80 ){
      k = ref_utf8(p);
      if( k ){ gr_buf_add(b, (const char*)p, k); p += k; }
      else{ gr_buf_adds(b, "\\ufffd"); p++; }
      continue;
    }
    switch( *p ){
      case '"': gr_buf_adds(b, "\\\""); break;
      case '\\': gr_buf_adds(b, "\\\\"); break;
      case '\n': gr_buf_adds(b, "\\n"); break;
      case '\t': gr_buf_adds(b, "\\t"); break;
      case '\r': gr_buf_adds(b, "\\r"); break;
      default: gr_buf_printf(b, "\\u%04x", *p);
    }
    p++;
  }
  gr_buf_adds(b, "\"");
}
static int json_str_same(const char *s){
  gr_buf got, want;
  gr_out o;
  int same;
  gr_buf_init(&got); gr_buf_init(&want);
  gr_out_init_buf(&o, &got);
  gr_out_json_str(&o, s);
  gr_out_finish_buf(&o);
  ref_json_str(&want, s);
  same = got.n==want.n && memcmp(got.p, want.p, got.n)==0;
  if( !same ) diag("json_str of %zu bytes: got %.*s, want %.*s", strlen(s), (int)got.n, got.p, (int)want.n, want.p);
  gr_buf_free(&got); gr_buf_free(&want);
  return same;
}
static void test_json_str(void){
  static const char *const pieces[] = { "a", "layers.12", "\x01", "\"", "\\", "\x7f", "\n", "\t", "\r", "\xc3\xa9",
    "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\x80" };
  enum { NP = sizeof pieces / sizeof *pieces };
  char buf[200];
  unsigned i, len, bad = 0;
  long pg = sysconf(_SC_PAGESIZE);
  char *two;
  for(i = 0; i < 3000 && bad < 3; i++){
    unsigned k = 0, x = i * 2654435761u;
    size_t n = 0;
    len = i % 40;
    buf[0] = 0;
    for(k = 0; k < len && n + 8 < 90; k++){
      const char *pc = (x >> (k % 13)) % 5 ? pieces[(x >> (k % 7)) % 2] : pieces[(x + k * 7) % NP];
      memcpy(buf + n, pc, strlen(pc));
      n += strlen(pc);
    }
    buf[n] = 0;
    if( !json_str_same(buf + (i % 3 && n ? 1 : 0)) ) bad++;
  }
  ok(bad==0, "gr_out_json_str equals the byte-at-a-time definition on 3,000 mixed strings");
  /* a string whose NUL is the last byte of a page followed by an unreadable one */
  two = mmap(NULL, 2 * (size_t)pg, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  if( two==MAP_FAILED || mprotect(two + pg, (size_t)pg, PROT_NONE)!=0 ){ ok(0, "guard page"); return; }
  bad = 0;
  for(len = 0; len < 40; len++){
    char *s = two + pg - 1 - len;
    memset(s, len % 3 ? 'x' : '"', len);
    s[len] = 0;
    if( !json_str_same(s) ) bad++;
  }
  ok(bad==0, "strings of 0..39 bytes ending at a page before an unreadable one are read without touching it (ASan checks the rest)");
  munmap(two, 2 * (size_t)pg);
}

static void cleanup(void){
  DIR *d = opendir(dir);
  struct dirent *de;
  char p[1200];
  while( d && (de = readdir(d))!=NULL ){
    if( de->d_name[0]=='.' && (de->d_name[1]==0 || (de->d_name[1]=='.' && de->d_name[2]==0)) ) continue;
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    unlink(p);
  }
  if( d ) closedir(d);
  rmdir(dir);
}

int main(void){
  if( mkdtemp(dir)==NULL ){ printf("1..0 # SKIP no temporary directory\n"); return 0; }
  test_order();
  test_small();
  test_errors();
  test_abort();
  test_json_str();
  cleanup();
  return done_testing();
}
