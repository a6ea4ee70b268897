/*
** verify.c: signing a bundle directory and verifying one against a trust
** store (the anti-rollback state file is state.c). Verification reports every
** problem it finds (not only the first), each naming the file concerned, so
** a refused bundle says everything that is wrong with it at once.
*/
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "bundle/bundle.h"
#include "bundle/internal.h"

static char *join(const char *root, const char *rel){ return gr_xasprintf("%s/%s", root, rel); }

int gr_bundle_sign(const char *root, const gr_sign_opts *o, gr_diags *d){
  gr_manifest m;
  char expires[32], *text, *mpath, *spath;
  size_t len, i, k;
  gr_buf sig;
  gr_error e;
  int rc = -1;
  memset(&m, 0, sizeof m);
  if( o->nkeys==0 ){ gr_diags_add(d, GR_SEV_ERROR, root, 0, 0, "no signing key given"); return -1; }
  if( gr_bundle_scan(root, &m.files, &m.nfiles, d)!=0 ) return -1;
  m.name = gr_xstrdup(o->name);
  m.version = gr_xstrdup(o->version);
  m.cann = o->cann ? gr_xstrdup(o->cann) : NULL;
  gr_format_utc(o->expires, expires);
  m.expires_text = gr_xstrdup(expires);
  m.expires = o->expires;
  m.signers = gr_xcalloc(o->nkeys, sizeof *m.signers);
  for(i = 0; i < o->nkeys; i++){
    for(k = 0; k < m.nsigners && strcmp(m.signers[k], o->keys[i].id)!=0; k++) ;
    if( k==m.nsigners ) memcpy(m.signers[m.nsigners++], o->keys[i].id, GR_KEYID_LEN + 1);
  }
  text = gr_manifest_text(&m, &len);
  gr_buf_init(&sig);
  gr_buf_adds(&sig, "gerules-signatures 1\n");
  for(i = 0; i < o->nkeys; i++){
    unsigned char s[crypto_sign_BYTES];
    char pk64[sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_ORIGINAL)];
    char s64[sodium_base64_ENCODED_LEN(crypto_sign_BYTES, sodium_base64_VARIANT_ORIGINAL)];
    for(k = 0; k < i && strcmp(o->keys[k].id, o->keys[i].id)!=0; k++) ;
    if( k < i ) continue;       /* the same key twice */
    crypto_sign_detached(s, NULL, (const unsigned char*)text, len, o->keys[i].sk);
    sodium_bin2base64(pk64, sizeof pk64, o->keys[i].pk, 32, sodium_base64_VARIANT_ORIGINAL);
    sodium_bin2base64(s64, sizeof s64, s, sizeof s, sodium_base64_VARIANT_ORIGINAL);
    gr_buf_printf(&sig, "signature %s %s %s\n", o->keys[i].id, pk64, s64);
  }
  mpath = join(root, GR_MANIFEST_FILE);
  spath = join(root, GR_SIGNATURE_FILE);
  if( gr_bundle_write_atomic(mpath, text, len, 0644, &e)!=0 ||
      gr_bundle_write_atomic(spath, sig.p, sig.n, 0644, &e)!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "%s", e.msg);
  }else{
    rc = 0;
  }
  free(mpath); free(spath);
  free(text);
  gr_buf_free(&sig);
  gr_manifest_free(&m);
  return rc;
}

void gr_verified_free(gr_verified *v){
  size_t i;
  if( v==NULL ) return;
  free(v->root); free(v->name); free(v->version); free(v->cann); free(v->expires);
  for(i = 0; i < v->nsigners; i++) free(v->signers[i]);
  free(v->signers);
  gr_mfiles_free(v->files, v->nfiles);
  memset(v, 0, sizeof *v);
}

/* Reads MANIFEST.sig and checks each signature against the manifest bytes. */
static int read_signatures(const char *spath, const char *mtext, size_t mlen, gr_sigline **out, size_t *nout, gr_diags *d){
  gr_error e;
  size_t len;
  char *text = gr_read_file(spath, &len, &e);
  int rc;
  *out = NULL; *nout = 0;
  if( text==NULL ){
    if( access(spath, F_OK)!=0 ) gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "the bundle is not signed (no %s)", GR_SIGNATURE_FILE);
    else gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "cannot read the signatures: %s", e.msg);
    return -1;
  }
  rc = gr_signatures_parse(spath, text, len, mtext, mlen, out, nout, d);
  free(text);
  return rc;
}

int gr_signatures_parse(const char *spath, const char *text, size_t len, const char *mtext, size_t mlen,
                        gr_sigline **out, size_t *nout, gr_diags *d){
  const char *p = text, *end = text + len;
  uint32_t line = 0;
  int nerr = 0;
  size_t cap = 0;
  *out = NULL; *nout = 0;
  while( p < end ){
    const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p));
    char idw[GR_KEYID_LEN + 2], pkw[64], sw[128];
    char *lbuf;
    int nf;
    gr_sigline s;
    unsigned char sig[crypto_sign_BYTES];
    size_t got;
    if( le==NULL ) le = end;
    p = le < end ? le + 1 : end;
    line++;
    if( line==1 ){
      if( (size_t)(le - ls)!=20 || memcmp(ls, "gerules-signatures 1", 20)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, spath, 1, 1, "not a gerules signature file (the first line is 'gerules-signatures 1')");
        nerr++;
        break;
      }
      continue;
    }
    if( le==ls ) continue;
    lbuf = gr_xstrndup(ls, (size_t)(le - ls));
    memset(&s, 0, sizeof s);
    nf = (strlen(lbuf)==(size_t)(le - ls)) ? sscanf(lbuf, "signature %17s %63s %127s", idw, pkw, sw) : 0;
    free(lbuf);
    if( nf!=3 || strlen(idw)!=GR_KEYID_LEN ||
        sodium_base642bin(s.pk, 32, pkw, strlen(pkw), NULL, &got, NULL, sodium_base64_VARIANT_ORIGINAL)!=0 || got!=32 ||
        sodium_base642bin(sig, sizeof sig, sw, strlen(sw), NULL, &got, NULL, sodium_base64_VARIANT_ORIGINAL)!=0 || got!=sizeof sig ){
      gr_diags_add(d, GR_SEV_ERROR, spath, line, 1, "malformed signature line (expected 'signature KEYID PUBLIC SIGNATURE')");
      nerr++;
      continue;
    }
    gr_key_id(s.pk, s.id);
    if( strcmp(s.id, idw)!=0 ){
      gr_diags_add(d, GR_SEV_ERROR, spath, line, 11, "signature line names key %s but carries the public key of %s", idw, s.id);
      nerr++;
      continue;
    }
    if( crypto_sign_verify_detached(sig, (const unsigned char*)mtext, mlen, s.pk)!=0 ){
      gr_diags_add(d, GR_SEV_ERROR, spath, line, 1,
                   "the signature by key %s does not match %s (the manifest was changed after signing, or the signature is corrupt)",
                   s.id, GR_MANIFEST_FILE);
      nerr++;
      continue;
    }
    s.valid = 1;
    if( *nout==cap ){ cap = cap ? cap * 2 : 4; *out = gr_xrealloc(*out, cap * sizeof **out); }
    (*out)[(*nout)++] = s;
  }
  if( line==0 ){
    gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "the signature file is empty");
    nerr++;
  }
  return nerr ? -1 : 0;
}

static const gr_mfile *find_mfile(const gr_mfile *v, size_t n, const char *path){
  size_t lo = 0, hi = n;
  while( lo < hi ){
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(v[mid].path, path);
    if( c==0 ) return &v[mid];
    if( c < 0 ) lo = mid + 1; else hi = mid;
  }
  return NULL;
}

/* "Renamed to / from": the first file of v (in order) with a given SHA-256
** whose path is not in `other`. An index sorted by (hash, position) with, for
** each hash, that first eligible file precomputed: one binary search per
** lookup, so comparing two lists of 300,000 files stays O(n log n) even when
** every file is missing and many have the same bytes. */
typedef struct hash_key { unsigned char sha[32]; size_t i; } hash_key;
typedef struct hash_index { size_t n; hash_key *ord; const gr_mfile **first; } hash_index;

static int cmp_by_hash(const void *a, const void *b){
  const hash_key *x = a, *y = b;
  int c = memcmp(x->sha, y->sha, 32);
  return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static void hash_index_build(hash_index *h, const gr_mfile *v, size_t n, const gr_mfile *other, size_t nother){
  size_t i, g;
  h->n = n;
  h->ord = gr_xmalloc((n ? n : 1) * sizeof *h->ord);
  h->first = gr_xcalloc(n ? n : 1, sizeof *h->first);
  for(i = 0; i < n; i++){ memcpy(h->ord[i].sha, v[i].sha, 32); h->ord[i].i = i; }
  if( n ) qsort(h->ord, n, sizeof *h->ord, cmp_by_hash);
  for(g = 0; g < n; g = i){
    const gr_mfile *best = NULL;
    for(i = g; i < n && memcmp(h->ord[i].sha, h->ord[g].sha, 32)==0; i++){
      if( best==NULL && find_mfile(other, nother, v[h->ord[i].i].path)==NULL ) best = &v[h->ord[i].i];
    }
    h->first[g] = best;     /* kept at the group's first position */
  }
}

static const gr_mfile *find_by_hash(const hash_index *h, const unsigned char sha[32]){
  size_t lo = 0, hi = h->n;
  while( lo < hi ){             /* the first position whose hash is >= sha */
    size_t mid = lo + (hi - lo) / 2;
    if( memcmp(h->ord[mid].sha, sha, 32) < 0 ) lo = mid + 1; else hi = mid;
  }
  return lo < h->n && memcmp(h->ord[lo].sha, sha, 32)==0 ? h->first[lo] : NULL;
}

static void hash_index_free(hash_index *h){ free(h->ord); free(h->first); }

/* The files on disk against the manifest: changed, missing, added, renamed. */
static int compare_files(const char *root, const char *mpath, const gr_manifest *m,
                         const gr_mfile *disk, size_t ndisk, gr_diags *d){
  size_t i;
  int nerr = 0;
  hash_index on_disk, listed;
  hash_index_build(&on_disk, disk, ndisk, m->files, m->nfiles);
  hash_index_build(&listed, m->files, m->nfiles, disk, ndisk);
  for(i = 0; i < m->nfiles; i++){
    const gr_mfile *f = find_mfile(disk, ndisk, m->files[i].path);
    char *full = join(root, m->files[i].path);
    if( f==NULL ){
      const gr_mfile *to = find_by_hash(&on_disk, m->files[i].sha);
      if( to ) gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "renamed to %s since the bundle was signed (%s:%u lists it under this name)",
                            to->path, mpath, m->files[i].line);
      else gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "removed since the bundle was signed (%s:%u lists it)", mpath, m->files[i].line);
      nerr++;
    }else if( sodium_memcmp(f->sha, m->files[i].sha, 32)!=0 ){
      gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "changed since the bundle was signed (its SHA-256 differs from %s:%u)",
                   mpath, m->files[i].line);
      nerr++;
    }
    free(full);
  }
  for(i = 0; i < ndisk; i++){
    if( find_mfile(m->files, m->nfiles, disk[i].path)==NULL ){
      char *full = join(root, disk[i].path);
      const gr_mfile *from = find_by_hash(&listed, disk[i].sha);
      if( from ) gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "not in the signed manifest %s: renamed from %s", mpath, from->path);
      else gr_diags_add(d, GR_SEV_ERROR, full, 0, 0, "added since the bundle was signed (not in the manifest %s)", mpath);
      free(full);
      nerr++;
    }
  }
  hash_index_free(&on_disk);
  hash_index_free(&listed);
  return nerr;
}

int gr_bundle_verify(const char *root, const gr_verify_opts *o, gr_verified *out, gr_diags *d){
  char *mpath = join(root, GR_MANIFEST_FILE), *spath = join(root, GR_SIGNATURE_FILE);
  char *mtext = NULL;
  size_t mlen = 0, nsig = 0, i, k, ndisk = 0;
  gr_sigline *sigs = NULL;
  gr_manifest m;
  gr_mfile *disk = NULL;
  gr_error e;
  gr_buf unknown;
  int nerr = 0, ntrusted = 0;
  size_t before = d->count[GR_SEV_ERROR];
  memset(out, 0, sizeof *out);
  memset(&m, 0, sizeof m);
  gr_buf_init(&unknown);
  if( (mtext = gr_read_file(mpath, &mlen, &e))==NULL ){
    if( access(mpath, F_OK)!=0 ) gr_diags_add(d, GR_SEV_ERROR, root, 0, 0, "the bundle is not signed (no %s; sign it with 'gerules bundle sign')", GR_MANIFEST_FILE);
    else gr_diags_add(d, GR_SEV_ERROR, mpath, 0, 0, "cannot read the manifest: %s", e.msg);
    goto done;
  }
  if( gr_manifest_parse(&m, mpath, mtext, mlen, d)!=0 ) goto done;
  read_signatures(spath, mtext, mlen, &sigs, &nsig, d);
  /* every valid signature must be by a listed signer, every signer must have signed */
  for(i = 0; i < nsig; i++){
    for(k = 0; k < m.nsigners && strcmp(m.signers[k], sigs[i].id)!=0; k++) ;
    if( k==m.nsigners ) gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "a signature by key %s, which the manifest does not list as a signer", sigs[i].id);
  }
  for(k = 0; k < m.nsigners; k++){
    const gr_key *tk;
    const gr_revoked *rv;
    for(i = 0; i < nsig && strcmp(m.signers[k], sigs[i].id)!=0; i++) ;
    if( i==nsig ){
      gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "no valid signature by key %s, which the manifest lists as a signer", m.signers[k]);
      continue;
    }
    if( (rv = gr_trust_revoked(o->trust, m.signers[k]))!=NULL ){
      gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "signed by key %s, which is revoked (%s:%u%s%s)", m.signers[k],
                   rv->file, rv->line, *rv->reason ? ": " : "", rv->reason);
      continue;
    }
    tk = gr_trust_find(o->trust, m.signers[k]);
    if( tk && sodium_memcmp(tk->pk, sigs[i].pk, 32)==0 ){
      ntrusted++;
      out->signers = gr_xrealloc(out->signers, (out->nsigners + 1) * sizeof *out->signers);
      out->signers[out->nsigners++] = *tk->name ? gr_xasprintf("%s (%s)", tk->id, tk->name) : gr_xstrdup(tk->id);
    }else{
      gr_buf_printf(&unknown, "%s%s", unknown.n ? ", " : "", m.signers[k]);
    }
  }
  if( ntrusted==0 && d->count[GR_SEV_ERROR]==before ){
    gr_diags_add(d, GR_SEV_ERROR, spath, 0, 0, "signed only by unknown key%s %s: no signer is in the trust store",
                 strchr(gr_buf_cstr(&unknown), ',') ? "s" : "", gr_buf_cstr(&unknown));
  }
  if( o->now > m.expires ){
    gr_diags_add(d, GR_SEV_ERROR, mpath, 0, 0, "bundle %s %s expired on %s", m.name, m.version, m.expires_text);
  }
  if( gr_bundle_scan(root, &disk, &ndisk, d)==0 ) compare_files(root, mpath, &m, disk, ndisk, d);
  if( o->state_file && !o->allow_downgrade ){
    char *newest = NULL;
    if( gr_state_get(o->state_file, m.name, &newest, d)==0 && newest && gr_semver_cmp(m.version, newest) < 0 ){
      gr_diags_add(d, GR_SEV_ERROR, mpath, 0, 0,
                   "bundle %s %s is older than version %s accepted before (anti-rollback, recorded in %s); "
                   "allow the downgrade to use it anyway (--allow-downgrade; gerules_load_options_set_allow_downgrade "
                   "in C; Rules(allow_downgrade=True) in Python)", m.name, m.version, newest, o->state_file);
    }
    free(newest);
  }
done:
  nerr = d->count[GR_SEV_ERROR] > before;
  if( !nerr ){
    out->root = gr_xstrdup(root);
    out->name = m.name; m.name = NULL;
    out->version = m.version; m.version = NULL;
    out->cann = m.cann; m.cann = NULL;
    out->expires = m.expires_text; m.expires_text = NULL;
    out->files = m.files; out->nfiles = m.nfiles; m.files = NULL; m.nfiles = 0;
  }else{
    gr_verified_free(out);
  }
  gr_mfiles_free(disk, ndisk);
  gr_manifest_free(&m);
  gr_buf_free(&unknown);
  free(sigs);
  free(mtext);
  free(mpath); free(spath);
  return nerr ? -1 : 0;
}

int gr_verified_has(const gr_verified *v, size_t nv, const char *path,
                    const char *text, size_t len, char *why, size_t nwhy){
  char rp[PATH_MAX], rr[PATH_MAX];
  size_t i;
  if( realpath(path, rp)==NULL ){ snprintf(why, nwhy, "cannot resolve the path: %s", strerror(errno)); return 0; }
  for(i = 0; i < nv; i++){
    size_t l;
    const gr_mfile *f;
    unsigned char sha[32];
    if( realpath(v[i].root, rr)==NULL ) continue;
    l = strlen(rr);
    if( strncmp(rp, rr, l)!=0 || rp[l]!='/' ) continue;
    if( (f = find_mfile(v[i].files, v[i].nfiles, rp + l + 1))==NULL ){
      snprintf(why, nwhy, "not listed in the manifest of the signed bundle %s", v[i].root);
      return 0;
    }
    crypto_hash_sha256(sha, (const unsigned char*)text, len);
    if( sodium_memcmp(sha, f->sha, 32)!=0 ){
      snprintf(why, nwhy, "changed since the bundle %s was verified", v[i].root);
      return 0;
    }
    return 1;
  }
  snprintf(why, nwhy, "outside every signed bundle in use (a trust store is configured)");
  return 0;
}
