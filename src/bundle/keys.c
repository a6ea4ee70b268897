/*
** keys.c: Ed25519 key pairs and the trust store. A secret key file holds the
** 64-byte libsodium secret key in base64; a public key is one trust-store
** line `key ID PUBLIC NAME...`, so a trust store is any concatenation of
** public key files plus `revoked ID [REASON...]` lines. Key ids are derived
** from the public key (never trusted from the file: a mismatch is an error).
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sodium.h>
#include "bundle/bundle.h"

int gr_crypto_init(void){
  return sodium_init() < 0 ? -1 : 0;
}

void gr_key_id(const unsigned char pk[32], char id[GR_KEYID_LEN + 1]){
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, pk, 32);
  sodium_bin2hex(id, GR_KEYID_LEN + 1, h, GR_KEYID_LEN / 2);
}

static char *b64(const unsigned char *p, size_t n){
  size_t l = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
  char *s = gr_xmalloc(l);
  sodium_bin2base64(s, l, p, n, sodium_base64_VARIANT_ORIGINAL);
  return s;
}

/* Decodes exactly n bytes of base64 from [s, s+len). */
static int unb64(const char *s, size_t len, unsigned char *out, size_t n){
  size_t got = 0;
  const char *end = NULL;
  if( sodium_base642bin(out, n, s, len, NULL, &got, &end, sodium_base64_VARIANT_ORIGINAL)!=0 ) return -1;
  return got==n && end==s + len ? 0 : -1;
}

static int name_ok(const char *name){
  const unsigned char *p;
  for(p = (const unsigned char*)name; *p; p++) if( *p < 0x20 || *p==0x7f ) return 0;
  return 1;
}

int gr_key_generate(const char *name, char **secret_text, char **public_text){
  gr_key k;
  char *s, *p;
  memset(&k, 0, sizeof k);
  if( name==NULL ) name = "";
  if( !name_ok(name) ) return -1;
  crypto_sign_keypair(k.pk, k.sk);
  gr_key_id(k.pk, k.id);
  s = b64(k.sk, sizeof k.sk);
  p = b64(k.pk, sizeof k.pk);
  *secret_text = gr_xasprintf("gerules-secret-key 1\n# keep this file private: whoever holds it signs as key %s\n"
                              "id %s\nname %s\nsecret %s\n", k.id, k.id, name, s);
  *public_text = gr_xasprintf("key %s %s%s%s\n", k.id, p, *name ? " " : "", name);
  sodium_memzero(s, strlen(s));
  sodium_memzero(&k, sizeof k);
  free(s);
  free(p);
  return 0;
}

void gr_key_clear(gr_key *k){
  if( k==NULL ) return;
  free(k->name);
  sodium_memzero(k, sizeof *k);
}

/* One line at a time: [*p, eol), the next line start in *p. */
static int next_line(const char **p, const char *end, const char **ls, size_t *ll){
  const char *e;
  if( *p >= end ) return 0;
  *ls = *p;
  e = memchr(*p, '\n', (size_t)(end - *p));
  if( e==NULL ) e = end;
  *ll = (size_t)(e - *ls);
  if( *ll && (*ls)[*ll - 1]=='\r' ) (*ll)--;
  *p = e < end ? e + 1 : end;
  return 1;
}

/* Splits off the next blank-separated word of [*s, end). */
static int word(const char **s, const char *end, const char **w, size_t *wl){
  while( *s < end && (**s==' ' || **s=='\t') ) (*s)++;
  if( *s >= end ) return 0;
  *w = *s;
  while( *s < end && **s!=' ' && **s!='\t' ) (*s)++;
  *wl = (size_t)(*s - *w);
  return 1;
}

static char *rest(const char *s, const char *end){
  while( s < end && (*s==' ' || *s=='\t') ) s++;
  while( end > s && (end[-1]==' ' || end[-1]=='\t') ) end--;
  return gr_xstrndup(s, (size_t)(end - s));
}

static int is_keyid(const char *w, size_t wl){
  size_t i;
  if( wl!=GR_KEYID_LEN ) return 0;
  for(i = 0; i < wl; i++) if( !((w[i] >= '0' && w[i] <= '9') || (w[i] >= 'a' && w[i] <= 'f')) ) return 0;
  return 1;
}

int gr_key_read_secret(const char *path, gr_key *k, gr_diags *d){
  gr_error e;
  size_t len, ll, wl;
  char *text = gr_read_file(path, &len, &e);
  const char *p, *end, *ls, *s, *w;
  uint32_t line = 0;
  int have_id = 0, have_sk = 0, rc = -1;
  char id[GR_KEYID_LEN + 1] = "";
  memset(k, 0, sizeof *k);
  if( text==NULL ){ gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the secret key: %s", e.msg); return -1; }
  p = text; end = text + len;
  while( next_line(&p, end, &ls, &ll) ){
    line++;
    s = ls;
    if( !word(&s, ls + ll, &w, &wl) || w[0]=='#' ) continue;
    if( line==1 ){
      if( wl!=18 || memcmp(w, "gerules-secret-key", 18)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, path, 1, 1, "not a gerules secret key file (it starts with 'gerules-secret-key 1')");
        goto out;
      }
      continue;
    }
    if( wl==2 && memcmp(w, "id", 2)==0 ){
      if( !word(&s, ls + ll, &w, &wl) || !is_keyid(w, wl) ){
        gr_diags_add(d, GR_SEV_ERROR, path, line, (uint32_t)(s - ls) + 1, "malformed key id (16 lowercase hex digits)");
        goto out;
      }
      memcpy(id, w, wl); id[wl] = 0; have_id = 1;
    }else if( wl==4 && memcmp(w, "name", 4)==0 ){
      free(k->name);
      k->name = rest(s, ls + ll);
    }else if( wl==6 && memcmp(w, "secret", 6)==0 ){
      uint32_t col;
      word(&s, ls + ll, &w, &wl);
      col = (uint32_t)(w - ls) + 1;
      if( wl==0 || unb64(w, wl, k->sk, sizeof k->sk)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, path, line, col, "malformed secret key (base64 of 64 bytes)");
        goto out;
      }
      have_sk = 1;
    }else{
      gr_diags_add(d, GR_SEV_ERROR, path, line, (uint32_t)(w - ls) + 1, "unknown line '%.*s' in a secret key file", (int)wl, w);
      goto out;
    }
  }
  if( !have_sk ){ gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "no 'secret' line: not a secret key file"); goto out; }
  crypto_sign_ed25519_sk_to_pk(k->pk, k->sk);
  gr_key_id(k->pk, k->id);
  if( have_id && strcmp(id, k->id)!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "the key id %s does not match the key (its id is %s)", id, k->id);
    goto out;
  }
  k->has_secret = 1;
  if( k->name==NULL ) k->name = gr_xstrdup("");
  rc = 0;
out:
  sodium_memzero(text, len);
  free(text);
  if( rc ) gr_key_clear(k);
  return rc;
}

void gr_trust_init(gr_trust *t){ memset(t, 0, sizeof *t); }

const gr_key *gr_trust_find(const gr_trust *t, const char *id){
  size_t i;
  for(i = 0; i < t->nkeys; i++) if( strcmp(t->keys[i].id, id)==0 ) return &t->keys[i];
  return NULL;
}

const gr_revoked *gr_trust_revoked(const gr_trust *t, const char *id){
  size_t i;
  for(i = 0; i < t->nrevoked; i++) if( strcmp(t->revoked[i].id, id)==0 ) return &t->revoked[i];
  return NULL;
}

int gr_trust_parse(gr_trust *t, const char *file, const char *text, size_t len, gr_diags *d){
  const char *p = text, *end = text + len, *ls, *s, *w;
  size_t ll, wl;
  uint32_t line = 0;
  int nerr = 0;
  const char *fname;
  t->files = gr_xrealloc(t->files, (t->nfiles + 1) * sizeof *t->files);
  t->files[t->nfiles] = gr_xstrdup(file);
  fname = t->files[t->nfiles++];
  while( next_line(&p, end, &ls, &ll) ){
    const char *le = ls + ll;
    line++;
    s = ls;
    if( memchr(ls, 0, ll) ){ gr_diags_add(d, GR_SEV_ERROR, fname, line, 1, "unexpected byte 0x00"); nerr++; continue; }
    if( !word(&s, le, &w, &wl) || w[0]=='#' ) continue;
    if( wl==3 && memcmp(w, "key", 3)==0 ){
      gr_key k;
      const char *idw = NULL, *pkw = NULL;
      size_t idl = 0, pkl = 0;
      memset(&k, 0, sizeof k);
      if( !word(&s, le, &idw, &idl) || !is_keyid(idw, idl) ){
        gr_diags_add(d, GR_SEV_ERROR, fname, line, (uint32_t)(s - ls) + 1, "malformed key id (16 lowercase hex digits)");
        nerr++; continue;
      }
      if( !word(&s, le, &pkw, &pkl) || unb64(pkw, pkl, k.pk, sizeof k.pk)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, fname, line, (uint32_t)(pkl ? pkw - ls : s - ls) + 1, "malformed public key (base64 of 32 bytes)");
        nerr++; continue;
      }
      gr_key_id(k.pk, k.id);
      if( idl!=strlen(k.id) || memcmp(idw, k.id, idl)!=0 ){
        gr_diags_add(d, GR_SEV_ERROR, fname, line, (uint32_t)(idw - ls) + 1,
                     "key id %.*s does not match its public key (whose id is %s)", (int)idl, idw, k.id);
        nerr++; continue;
      }
      if( gr_trust_find(t, k.id) ) continue;    /* the same key in two files */
      k.name = rest(s, le);
      t->keys = gr_xrealloc(t->keys, (t->nkeys + 1) * sizeof *t->keys);
      t->keys[t->nkeys++] = k;
    }else if( wl==7 && memcmp(w, "revoked", 7)==0 ){
      gr_revoked r;
      const char *idw = NULL;
      size_t idl = 0;
      if( !word(&s, le, &idw, &idl) || !is_keyid(idw, idl) ){
        gr_diags_add(d, GR_SEV_ERROR, fname, line, (uint32_t)(s - ls) + 1, "malformed key id (16 lowercase hex digits)");
        nerr++; continue;
      }
      memcpy(r.id, idw, idl); r.id[idl] = 0;
      r.reason = rest(s, le);
      r.file = (char*)fname; r.line = line;
      t->revoked = gr_xrealloc(t->revoked, (t->nrevoked + 1) * sizeof *t->revoked);
      t->revoked[t->nrevoked++] = r;
    }else{
      gr_diags_add(d, GR_SEV_ERROR, fname, line, (uint32_t)(w - ls) + 1,
                   "unknown line '%.*s' in a trust store (expected 'key ID PUBLIC NAME' or 'revoked ID REASON')", (int)wl, w);
      nerr++;
    }
  }
  return nerr ? -1 : 0;
}

static int cmp_str(const void *a, const void *b){ return strcmp(*(char*const*)a, *(char*const*)b); }

static int add_file(gr_trust *t, const char *path, gr_diags *d){
  gr_error e;
  size_t len;
  char *text = gr_read_file(path, &len, &e);
  int rc;
  if( text==NULL ){ gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot read the trust store: %s", e.msg); return -1; }
  rc = gr_trust_parse(t, path, text, len, d);
  free(text);
  return rc;
}

int gr_trust_add(gr_trust *t, const char *path, gr_diags *d){
  struct stat st;
  DIR *dir;
  struct dirent *de;
  char **names = NULL;
  size_t n = 0, i;
  int rc = 0;
  if( stat(path, &st)!=0 ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot open the trust store: %s", strerror(errno));
    return -1;
  }
  if( !S_ISDIR(st.st_mode) ) return add_file(t, path, d);
  if( (dir = opendir(path))==NULL ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "cannot open the trust store: %s", strerror(errno));
    return -1;
  }
  while( (de = readdir(dir))!=NULL ){
    char *p;
    if( de->d_name[0]=='.' ) continue;
    p = gr_xasprintf("%s/%s", path, de->d_name);
    if( stat(p, &st)==0 && S_ISREG(st.st_mode) ){
      names = gr_xrealloc(names, (n + 1) * sizeof *names);
      names[n++] = p;
    }else{
      free(p);
    }
  }
  closedir(dir);
  if( n ) qsort(names, n, sizeof *names, cmp_str);
  for(i = 0; i < n; i++){ if( add_file(t, names[i], d)!=0 ) rc = -1; free(names[i]); }
  free(names);
  return rc;
}

void gr_trust_free(gr_trust *t){
  size_t i;
  if( t==NULL ) return;
  for(i = 0; i < t->nkeys; i++) gr_key_clear(&t->keys[i]);
  for(i = 0; i < t->nrevoked; i++) free(t->revoked[i].reason);
  for(i = 0; i < t->nfiles; i++) free(t->files[i]);
  free(t->keys); free(t->revoked); free(t->files);
  memset(t, 0, sizeof *t);
}
