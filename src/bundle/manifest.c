/*
** manifest.c: the bundle manifest (its text form, which is what signers
** sign), the scan of a bundle directory into (path, SHA-256) pairs, UTC
** timestamps, and the atomic file replacement signing and the state file
** use. The text form is line-oriented and canonical (fixed key order, files
** sorted by path) so that a manifest diff in a release review is readable
** and the same bundle always yields the same bytes.
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "bundle/bundle.h"
#include "bundle/internal.h"

int gr_parse_utc(const char *s, time_t *out){
  struct tm tm;
  const char *end;
  memset(&tm, 0, sizeof tm);
  end = strptime(s, "%Y-%m-%d", &tm);
  if( end==NULL ) return -1;
  if( *end=='T' ){
    end = strptime(end + 1, "%H:%M:%S", &tm);
    if( end==NULL || *end!='Z' ) return -1;
    end++;
  }
  if( *end ) return -1;
  if( tm.tm_year < 70 || tm.tm_year > 1100 ) return -1;
  *out = timegm(&tm);
  return 0;
}

void gr_format_utc(time_t t, char buf[32]){
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void gr_mfiles_free(gr_mfile *files, size_t n){
  size_t i;
  for(i = 0; i < n; i++) free(files[i].path);
  free(files);
}

void gr_manifest_free(gr_manifest *m){
  if( m==NULL ) return;
  free(m->name); free(m->version); free(m->cann); free(m->expires_text);
  free(m->signers);
  gr_mfiles_free(m->files, m->nfiles);
  memset(m, 0, sizeof *m);
}

static int cmp_mfile(const void *a, const void *b){
  return strcmp(((const gr_mfile*)a)->path, ((const gr_mfile*)b)->path);
}

/* A path a manifest may name: relative, no "." or ".." component, no empty
** component, printable (no control bytes: a file name is one line). */
int gr_bundle_path_ok(const char *p){
  const char *c = p;
  if( *p==0 || *p=='/' ) return 0;
  for(;;){
    const char *e = strchr(c, '/');
    size_t l = e ? (size_t)(e - c) : strlen(c);
    if( l==0 || (l==1 && c[0]=='.') || (l==2 && c[0]=='.' && c[1]=='.') ) return 0;
    if( e==NULL ) break;
    c = e + 1;
  }
  for(c = p; *c; c++) if( (unsigned char)*c < 0x20 || *c==0x7f ) return 0;
  return 1;
}

static int hexval(int c){
  if( c >= '0' && c <= '9' ) return c - '0';
  if( c >= 'a' && c <= 'f' ) return c - 'a' + 10;
  return -1;
}

int gr_manifest_parse(gr_manifest *m, const char *file, const char *text, size_t len, gr_diags *d){
  const char *p = text, *end = text + len;
  uint32_t line = 0;
  int nerr = 0;
  size_t capfiles = 0, capsigners = 0;   /* arrays grow by doubling: a 300,000-line manifest is linear */
  memset(m, 0, sizeof *m);
#define MERR(col, ...) do{ gr_diags_add(d, GR_SEV_ERROR, file, line, (col), __VA_ARGS__); nerr++; }while(0)
  while( p < end ){
    const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p)), *sp;
    size_t kl;
    char **dst = NULL;
    if( le==NULL ){ line++; MERR((uint32_t)(end - ls) + 1, "the manifest does not end with a newline"); break; }
    p = le + 1;
    line++;
    if( memchr(ls, 0, (size_t)(le - ls)) ){ MERR(1, "unexpected byte 0x00"); continue; }
    if( line==1 ){
      if( (size_t)(le - ls)!=18 || memcmp(ls, "gerules-manifest 1", 18)!=0 ){
        MERR(1, "not a gerules manifest (the first line is 'gerules-manifest 1')");
        break;
      }
      continue;
    }
    sp = memchr(ls, ' ', (size_t)(le - ls));
    if( sp==NULL ){ MERR(1, "malformed manifest line (expected 'KEY VALUE')"); continue; }
    kl = (size_t)(sp - ls);
#define KEY(k) (kl==sizeof(k) - 1 && memcmp(ls, k, kl)==0)
    if( KEY("bundle") ) dst = &m->name;
    else if( KEY("version") ) dst = &m->version;
    else if( KEY("cann") ) dst = &m->cann;
    else if( KEY("expires") ) dst = &m->expires_text;
    if( dst ){
      if( *dst ){ MERR(1, "'%.*s' appears twice", (int)kl, ls); continue; }
      *dst = gr_xstrndup(sp + 1, (size_t)(le - sp - 1));
      if( dst==&m->expires_text && gr_parse_utc(m->expires_text, &m->expires)!=0 ){
        MERR((uint32_t)(sp - ls) + 2, "malformed expiry '%s' (YYYY-MM-DDTHH:MM:SSZ)", m->expires_text);
      }
    }else if( KEY("signer") ){
      const char *v = sp + 1;
      size_t vl = (size_t)(le - v), i;
      int ok = vl==GR_KEYID_LEN;
      for(i = 0; ok && i < vl; i++) ok = hexval(v[i]) >= 0;
      if( !ok ){ MERR((uint32_t)(v - ls) + 1, "malformed signer key id (16 lowercase hex digits)"); continue; }
      if( m->nsigners==capsigners ){
        capsigners = capsigners ? capsigners * 2 : 4;
        m->signers = gr_xrealloc(m->signers, capsigners * sizeof *m->signers);
      }
      memcpy(m->signers[m->nsigners], v, vl);
      m->signers[m->nsigners++][vl] = 0;
    }else if( KEY("file") ){
      const char *h = sp + 1, *path = h + 65;
      gr_mfile f;
      int k, ok = le - h > 65 && h[64]==' ';
      memset(&f, 0, sizeof f);
      for(k = 0; ok && k < 32; k++){
        int a = hexval(h[2*k]), b = hexval(h[2*k + 1]);
        if( a < 0 || b < 0 ) ok = 0;
        else f.sha[k] = (unsigned char)(a << 4 | b);
      }
      if( !ok ){ MERR((uint32_t)(h - ls) + 1, "malformed file line (expected 'file SHA256 PATH', 64 lowercase hex digits)"); continue; }
      f.path = gr_xstrndup(path, (size_t)(le - path));
      f.line = line;
      if( !gr_bundle_path_ok(f.path) ){
        MERR((uint32_t)(path - ls) + 1, "file path '%s' is not a plain relative path inside the bundle", f.path);
        free(f.path);
        continue;
      }
      if( m->nfiles && strcmp(m->files[m->nfiles - 1].path, f.path) >= 0 ){
        MERR((uint32_t)(path - ls) + 1, "file '%s' is out of order or listed twice (paths are sorted)", f.path);
        free(f.path);
        continue;
      }
      if( m->nfiles==capfiles ){
        capfiles = capfiles ? capfiles * 2 : 64;
        m->files = gr_xrealloc(m->files, capfiles * sizeof *m->files);
      }
      m->files[m->nfiles++] = f;
    }else{
      MERR(1, "unknown manifest line '%.*s'", (int)kl, ls);
    }
#undef KEY
  }
  if( nerr==0 ){
    line = 0;
    if( m->name==NULL ) MERR(0, "the manifest names no bundle");
    if( m->version==NULL ) MERR(0, "the manifest gives no version");
    if( m->expires_text==NULL ) MERR(0, "the manifest gives no expiry");
    if( m->nsigners==0 ) MERR(0, "the manifest names no signer");
  }
#undef MERR
  if( nerr ){ gr_manifest_free(m); return -1; }
  return 0;
}

char *gr_manifest_text(const gr_manifest *m, size_t *len){
  gr_buf b;
  size_t i;
  gr_buf_init(&b);
  gr_buf_printf(&b, "gerules-manifest 1\nbundle %s\nversion %s\n", m->name, m->version);
  if( m->cann ) gr_buf_printf(&b, "cann %s\n", m->cann);
  gr_buf_printf(&b, "expires %s\n", m->expires_text);
  for(i = 0; i < m->nsigners; i++) gr_buf_printf(&b, "signer %s\n", m->signers[i]);
  for(i = 0; i < m->nfiles; i++){
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, m->files[i].sha, 32);
    gr_buf_printf(&b, "file %s %s\n", hex, m->files[i].path);
  }
  *len = b.n;
  return gr_buf_detach(&b);
}

static int hash_file(const char *path, unsigned char sha[32], gr_error *e){
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  crypto_hash_sha256_state st;
  unsigned char buf[65536];
  ssize_t r;
  if( fd < 0 ){ gr_error_set(e, 0, 0, "%s", strerror(errno)); return -1; }
  crypto_hash_sha256_init(&st);
  while( (r = read(fd, buf, sizeof buf)) != 0 ){
    if( r < 0 ){
      if( errno==EINTR ) continue;
      gr_error_set(e, 0, 0, "%s", strerror(errno));
      close(fd);
      return -1;
    }
    crypto_hash_sha256_update(&st, buf, (size_t)r);
  }
  close(fd);
  crypto_hash_sha256_final(&st, sha);
  return 0;
}

typedef GR_VEC(gr_mfile) mfile_vec;

static int scan_dir(const char *root, const char *rel, mfile_vec *out, int depth, gr_diags *d){
  char *dir = *rel ? gr_xasprintf("%s/%s", root, rel) : gr_xstrdup(root);
  DIR *dp = opendir(dir);
  struct dirent *e;
  int nerr = 0;
  if( dp==NULL ){
    gr_diags_add(d, GR_SEV_ERROR, dir, 0, 0, "cannot read the bundle directory: %s", strerror(errno));
    free(dir);
    return 1;
  }
  if( depth > 32 ){
    gr_diags_add(d, GR_SEV_ERROR, dir, 0, 0, "directories nested too deeply in the bundle");
    closedir(dp);
    free(dir);
    return 1;
  }
  while( (e = readdir(dp))!=NULL ){
    char *r, *full;
    struct stat st;
    if( strcmp(e->d_name, ".")==0 || strcmp(e->d_name, "..")==0 ) continue;
    if( *rel==0 && (strcmp(e->d_name, GR_MANIFEST_FILE)==0 || strcmp(e->d_name, GR_SIGNATURE_FILE)==0) ) continue;
    r = *rel ? gr_xasprintf("%s/%s", rel, e->d_name) : gr_xstrdup(e->d_name);
    full = gr_xasprintf("%s/%s", root, r);
    if( lstat(full, &st)!=0 ){
      gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "cannot read: %s", strerror(errno));
      nerr++;
    }else if( S_ISDIR(st.st_mode) ){
      nerr += scan_dir(root, r, out, depth + 1, d);
    }else if( !S_ISREG(st.st_mode) ){
      gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "%s in the bundle: a signed bundle holds only regular files and directories",
                   S_ISLNK(st.st_mode) ? "a symbolic link" : "a special file");
      nerr++;
    }else if( !gr_bundle_path_ok(r) ){
      gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "a file name with control characters cannot be listed in a manifest");
      nerr++;
    }else{
      gr_mfile f;
      gr_error er;
      memset(&f, 0, sizeof f);
      if( hash_file(full, f.sha, &er)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "cannot read: %s", er.msg);
        nerr++;
      }else{
        f.path = r;
        r = NULL;
        gr_vec_push(*out, f);
      }
    }
    free(r);
    free(full);
  }
  closedir(dp);
  free(dir);
  return nerr;
}

int gr_bundle_scan(const char *root, gr_mfile **files, size_t *n, gr_diags *d){
  mfile_vec v = { NULL, 0, 0 };
  int nerr = scan_dir(root, "", &v, 0, d);
  if( nerr ){ gr_mfiles_free(v.v, v.n); *files = NULL; *n = 0; return -1; }
  if( v.n ) qsort(v.v, v.n, sizeof *v.v, cmp_mfile);
  *files = v.v;
  *n = v.n;
  return 0;
}

int gr_bundle_dir_open(const char *path, const char **base, gr_error *e){
  const char *slash = strrchr(path, '/');
  char *dir;
  int fd;
  if( slash==NULL ){ *base = path; dir = gr_xstrdup("."); }
  else{ *base = slash + 1; dir = slash==path ? gr_xstrdup("/") : gr_xstrndup(path, (size_t)(slash - path)); }
  if( **base==0 ){
    gr_error_set(e, 0, 0, "%s names a directory, not a file", path);
    free(dir);
    return -1;
  }
  fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if( fd < 0 ){ int en = errno; gr_error_set(e, 0, 0, "cannot open the directory %s: %s", dir, strerror(en)); errno = en; }
  free(dir);
  return fd;
}

/* The temporary is a fresh name opened with O_CREAT|O_EXCL|O_NOFOLLOW
** relative to the directory: a planted file or symbolic link under any name
** makes the open fail, it is never followed or reused. The rename replaces
** the directory entry itself, never the target of a link there. */
int gr_bundle_write_atomic_at(int dirfd, const char *base, const char *shown, const void *data, size_t len, int mode, gr_error *e){
  char *tmp = NULL;
  int fd = -1, tries;
  const char *p = data;
  size_t left = len;
  for(tries = 0; tries < 16 && fd < 0; tries++){
    unsigned char r[8];
    char hex[17];
    randombytes_buf(r, sizeof r);
    sodium_bin2hex(hex, sizeof hex, r, sizeof r);
    free(tmp);
    tmp = gr_xasprintf(".%s.%s.tmp", base, hex);
    fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if( fd < 0 && errno!=EEXIST ) break;
  }
  if( fd < 0 ){
    gr_error_set(e, 0, 0, "cannot create a temporary file beside %s: %s", shown, strerror(errno));
    free(tmp);
    return -1;
  }
  while( left ){
    ssize_t w = write(fd, p, left);
    if( w < 0 && errno==EINTR ) continue;
    if( w <= 0 ) goto fail;
    p += w;
    left -= (size_t)w;
  }
  if( fchmod(fd, (mode_t)mode)!=0 || fsync(fd)!=0 ) goto fail;
  if( close(fd)!=0 ){ fd = -1; goto fail; }
  fd = -1;
  if( renameat(dirfd, tmp, dirfd, base)!=0 ) goto fail;
  free(tmp);
  return 0;
fail:
  gr_error_set(e, 0, 0, "cannot write %s: %s", shown, strerror(errno));
  if( fd >= 0 ) close(fd);
  unlinkat(dirfd, tmp, 0);
  free(tmp);
  return -1;
}

int gr_bundle_write_atomic(const char *path, const void *data, size_t len, int mode, gr_error *e){
  const char *base;
  int dfd = gr_bundle_dir_open(path, &base, e), rc;
  if( dfd < 0 ) return -1;
  rc = gr_bundle_write_atomic_at(dfd, base, path, data, len, mode, e);
  close(dfd);
  return rc;
}
