/*
** state.c: the anti-rollback state file, the newest version of each signed
** bundle accepted so far ("NAME VERSION" lines). gerules creates and
** replaces this file and its lock, so every access is relative to the
** opened state directory (openat) and never follows a symbolic link: a
** symlinked or non-regular state file or lock is refused with an error,
** never read through, created through or silently replaced.
*/
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bundle/bundle.h"
#include "bundle/internal.h"

/* A state file is a line per bundle name: a few KiB in practice. */
#define STATE_MAX_BYTES ((size_t)1 << 20)

typedef struct state_entry { char *name, *version; } state_entry;

static void state_free(state_entry *v, size_t n){
  size_t i;
  for(i = 0; i < n; i++){ free(v[i].name); free(v[i].version); }
  free(v);
}

static int state_parse(const char *path, const char *text, size_t len, state_entry **out, size_t *n, gr_diags *d){
  const char *p = text, *end = text + len;
  uint32_t line = 0;
  size_t cap = 0;
  *out = NULL; *n = 0;
  if( len >= 3 && memcmp(text, "\xef\xbb\xbf", 3)==0 ) p += 3;     /* a UTF-8 BOM */
  while( p < end ){
    const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p)), *sp;
    char *version;
    if( le==NULL ) le = end;
    p = le < end ? le + 1 : end;
    line++;
    if( le==ls || *ls=='#' ) continue;
    sp = le;
    while( sp > ls && sp[-1]!=' ' ) sp--;
    if( sp <= ls + 1 || memchr(ls, 0, (size_t)(le - ls)) ){
      gr_diags_add(d, GR_SEV_ERROR, path, line, 1, "malformed anti-rollback state line (expected 'NAME VERSION')");
      return -1;
    }
    version = gr_xstrndup(sp, (size_t)(le - sp));
    if( !gr_semver_valid(version) ){
      /* never compared as something else: a component too large would wrap */
      gr_diags_add(d, GR_SEV_ERROR, path, line, (uint32_t)(sp - ls) + 1,
                   "malformed version '%.64s' in the anti-rollback state (MAJOR.MINOR.PATCH, each part at most 18 digits)",
                   version);
      free(version);
      return -1;
    }
    if( *n==cap ){ cap = cap ? cap * 2 : 8; *out = gr_xrealloc(*out, cap * sizeof **out); }
    (*out)[*n].name = gr_xstrndup(ls, (size_t)(sp - 1 - ls));
    (*out)[*n].version = version;
    (*n)++;
  }
  return 0;
}

int gr_state_parse_check(const char *path, const char *text, size_t len, gr_diags *d){
  state_entry *v;
  size_t n;
  int rc = state_parse(path, text, len, &v, &n, d);
  state_free(v, n);
  return rc;
}

/* Reads the state file base of the directory dirfd; no file is no entry. */
static int state_read(int dirfd, const char *base, const char *path, state_entry **out, size_t *n, gr_diags *d){
  struct stat st;
  gr_error e;
  size_t len;
  char *text;
  int fd, rc;
  *out = NULL; *n = 0;
  if( fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW)!=0 ){
    if( errno==ENOENT ) return 0;     /* nothing accepted yet */
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the anti-rollback state: %s", strerror(errno));
    return -1;
  }
  if( !S_ISREG(st.st_mode) ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0,
                 "the anti-rollback state is %s, not a regular file: refusing it (gerules never reads, writes or "
                 "replaces it through a link; remove it or point GERULES_STATE at a regular file)", gr_file_kind(st.st_mode));
    return -1;
  }
  if( (fd = gr_open_input_at(dirfd, base, GR_INPUT_NOFOLLOW, &st, &e)) < 0 ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the anti-rollback state: %s", e.msg);
    return -1;
  }
  text = gr_read_fd_max(fd, &st, STATE_MAX_BYTES, &len, &e);
  close(fd);
  if( text==NULL ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the anti-rollback state: %s", e.msg);
    return -1;
  }
  rc = state_parse(path, text, len, out, n, d);
  free(text);
  return rc;
}

int gr_state_get(const char *state_file, const char *name, char **version, gr_diags *d){
  state_entry *v;
  size_t n, i;
  const char *base;
  gr_error e;
  int dfd;
  *version = NULL;
  if( (dfd = gr_bundle_dir_open(state_file, &base, &e)) < 0 ){
    if( errno==ENOENT ) return 0;     /* no state directory yet: nothing accepted */
    gr_diags_add(d, GR_SEV_ERROR, state_file, 0, 0, "cannot read the anti-rollback state: %s", e.msg);
    return -1;
  }
  if( state_read(dfd, base, state_file, &v, &n, d)!=0 ){ close(dfd); return -1; }
  close(dfd);
  for(i = 0; i < n; i++){
    if( strcmp(v[i].name, name)==0 && (*version==NULL || gr_semver_cmp(v[i].version, *version) > 0) ){
      free(*version);
      *version = gr_xstrdup(v[i].version);
    }
  }
  state_free(v, n);
  return 0;
}

static void mkdirs(const char *path){
  char *p = gr_xstrdup(path), *s;
  for(s = p + 1; *s; s++){
    if( *s=='/' ){ *s = 0; mkdir(p, 0700); *s = '/'; }
  }
  free(p);
}

/* The lock beside the state file: created if missing, never through a link
** (O_NOFOLLOW: a planted `S.lock -> /victim` fails with ELOOP), and it must
** be a regular file. Returns the locked descriptor or -1. */
static int lock_state(int dirfd, const char *base, const char *state_file, gr_diags *d){
  char *lock = gr_xasprintf("%s.lock", base), *shown = gr_xasprintf("%s.lock", state_file);
  struct stat st;
  int fd = openat(dirfd, lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
  if( fd < 0 ){
    if( errno==ELOOP ) gr_diags_add(d, GR_SEV_ERROR, shown, 0, 0, "the anti-rollback lock is a symbolic link: refusing to follow it");
    else gr_diags_add(d, GR_SEV_ERROR, shown, 0, 0, "cannot lock the anti-rollback state: %s", strerror(errno));
  }else if( fstat(fd, &st)!=0 || !S_ISREG(st.st_mode) ){
    gr_diags_add(d, GR_SEV_ERROR, shown, 0, 0, "the anti-rollback lock is %s, not a regular file: refusing it",
                 gr_file_kind(st.st_mode));
    close(fd);
    fd = -1;
  }else if( flock(fd, LOCK_EX)!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, shown, 0, 0, "cannot lock the anti-rollback state: %s", strerror(errno));
    close(fd);
    fd = -1;
  }
  free(lock);
  free(shown);
  return fd;
}

int gr_state_record(const char *state_file, const char *name, const char *version, gr_diags *d){
  state_entry *v = NULL;
  size_t n = 0, i;
  int dfd, fd, found = 0, rc = -1, changed = 0;
  const char *base;
  gr_buf b;
  gr_error e;
  mkdirs(state_file);
  if( (dfd = gr_bundle_dir_open(state_file, &base, &e)) < 0 ){
    gr_diags_add(d, GR_SEV_ERROR, state_file, 0, 0, "%s", e.msg);
    return -1;
  }
  if( (fd = lock_state(dfd, base, state_file, d)) < 0 ){ close(dfd); return -1; }
  gr_buf_init(&b);
  if( state_read(dfd, base, state_file, &v, &n, d)!=0 ) goto out;
  for(i = 0; i < n; i++){
    if( strcmp(v[i].name, name)==0 ){
      found = 1;
      if( gr_semver_cmp(version, v[i].version) > 0 ){ free(v[i].version); v[i].version = gr_xstrdup(version); changed = 1; }
    }
  }
  if( !found ){
    v = gr_xrealloc(v, (n + 1) * sizeof *v);
    v[n].name = gr_xstrdup(name); v[n].version = gr_xstrdup(version);
    n++;
    changed = 1;
  }
  if( !changed ){ rc = 0; goto out; }
  gr_buf_adds(&b, "# gerules: the newest version of each signed bundle accepted so far (anti-rollback)\n");
  for(i = 0; i < n; i++) gr_buf_printf(&b, "%s %s\n", v[i].name, v[i].version);
  if( gr_bundle_write_atomic_at(dfd, base, state_file, b.p, b.n, 0600, &e)!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, state_file, 0, 0, "%s", e.msg);
    goto out;
  }
  rc = 0;
out:
  gr_buf_free(&b);
  state_free(v, n);
  flock(fd, LOCK_UN);
  close(fd);
  close(dfd);
  return rc;
}
