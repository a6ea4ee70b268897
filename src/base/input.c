/*
** input.c: opening and reading input files (input.h): the regular-file
** check before any blocking read and the bounded read every reader shares.
*/
#include "config.h"
#include "base/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *gr_file_kind(mode_t mode){
  if( S_ISREG(mode) ) return "a regular file";
  if( S_ISDIR(mode) ) return "a directory";
  if( S_ISCHR(mode) ) return "a character device";
  if( S_ISBLK(mode) ) return "a block device";
  if( S_ISFIFO(mode) ) return "a FIFO";
  if( S_ISSOCK(mode) ) return "a socket";
  if( S_ISLNK(mode) ) return "a symbolic link";
  return "a special file";
}

int gr_open_input_at(int dirfd, const char *path, int flags, struct stat *st, gr_error *err){
  struct stat own;
  gr_error ignored;
  int fd, fl;
  if( st==NULL ) st = &own;
  if( err==NULL ) err = &ignored;
  if( strcmp(path, "-")==0 ){
    if( fstat(0, st)!=0 ){ gr_error_set(err, 0, 0, "cannot read standard input: %s", strerror(errno)); return -1; }
    /* a pipe, a terminal or a file; not a device that never ends */
    if( S_ISDIR(st->st_mode) || S_ISBLK(st->st_mode) || (S_ISCHR(st->st_mode) && !isatty(0)) ){
      gr_error_set(err, 0, 0, "not a regular file (%s)", gr_file_kind(st->st_mode));
      return -1;
    }
    return 0;
  }
  /* O_NONBLOCK: opening a FIFO with no writer must not block before the check */
  fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | ((flags & GR_INPUT_NOFOLLOW) ? O_NOFOLLOW : 0));
  if( fd < 0 ){
    if( errno==ELOOP && (flags & GR_INPUT_NOFOLLOW) ) gr_error_set(err, 0, 0, "refusing a symbolic link");
    else gr_error_set(err, 0, 0, "cannot open: %s", strerror(errno));
    return -1;
  }
  if( fstat(fd, st)!=0 ){
    gr_error_set(err, 0, 0, "cannot open: %s", strerror(errno));
    close(fd);
    return -1;
  }
  if( !S_ISREG(st->st_mode) ){
    gr_error_set(err, 0, 0, "not a regular file (%s)", gr_file_kind(st->st_mode));
    close(fd);
    return -1;
  }
  if( (fl = fcntl(fd, F_GETFL))!=-1 ) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

int gr_open_input(const char *path, struct stat *st, gr_error *err){
  return gr_open_input_at(AT_FDCWD, path, 0, st, err);
}

/* Grows b to at least need bytes (need <= limit): doubling, but never past
** limit, with a plain realloc: running out of memory on an input is the
** input's error, not an abort. Returns 0, or -1 with b unchanged. */
static int grow_capped(gr_buf *b, size_t need, size_t limit){
  size_t nc = b->cap==0 ? 65536 : b->cap > limit / 2 ? limit : b->cap * 2;
  char *p;
  if( nc < need ) nc = need;
  if( nc > limit ) nc = limit;
  if( (p = realloc(b->p, nc))==NULL ) return -1;
  b->p = p;
  b->cap = nc;
  return 0;
}

char *gr_read_fd_max(int fd, const struct stat *st, size_t max, size_t *len, gr_error *err){
  gr_buf b;
  gr_buf_init(&b);
  if( max > SIZE_MAX - 2 ) max = SIZE_MAX - 2;
  /* a regular file: one allocation of its claimed size, capped, so a
  ** 60 MB file is not read through a dozen reallocations; a stream grows
  ** by doubling up to max + 2 (one byte past the cap, and the NUL), so an
  ** endless pipe costs at most the cap, never twice it */
  if( st && S_ISREG(st->st_mode) && st->st_size > 0 &&
      grow_capped(&b, (uint64_t)st->st_size < max ? (size_t)st->st_size + 2 : max + 2, max + 2)!=0 ) goto oom;
  for(;;){
    ssize_t k;
    size_t want;
    if( b.cap - b.n < 2 && grow_capped(&b, b.n + 2, max + 2)!=0 ) goto oom;
    want = b.cap - b.n - 1;
    if( want > max + 1 - b.n ) want = max + 1 - b.n;      /* one byte past the cap tells "too big" */
    k = read(fd, b.p + b.n, want);
    if( k < 0 ){
      if( errno==EINTR ) continue;
      gr_error_set(err, 0, 0, "cannot read: %s", strerror(errno));
      gr_buf_free(&b);
      return NULL;
    }
    if( k==0 ) break;
    b.n += (size_t)k;
    if( b.n > max ){
      gr_error_set(err, 0, 0, "at byte %zu: the file is larger than the limit of %zu bytes for this kind of input", max, max);
      gr_buf_free(&b);
      return NULL;
    }
  }
  if( len ) *len = b.n;
  return gr_buf_detach(&b);
oom:
  gr_error_set(err, 0, 0, "at byte %zu: out of memory reading this input", b.n);
  gr_buf_free(&b);
  return NULL;
}

char *gr_read_file_max(const char *path, size_t max, size_t *len, gr_error *err){
  struct stat st;
  int fd = gr_open_input(path, &st, err);
  char *text;
  if( fd < 0 ) return NULL;
  text = gr_read_fd_max(fd, &st, max, len, err);
  if( fd ) close(fd);
  return text;
}

char *gr_read_file(const char *path, size_t *len, gr_error *err){
  return gr_read_file_max(path, GR_READ_MAX, len, err);
}
