/*
** bundle.h: signed rule bundles. A bundle is a directory of rule files (and
** whatever else it ships: hooks, test cases). Signing writes two files at its
** root: MANIFEST (the bundle's name, version, CANN range, expiry, signer key
** ids, and the SHA-256 of every other file) and MANIFEST.sig (one Ed25519
** signature of the MANIFEST bytes per signer). Verification checks the
** signatures against a trust store (trusted and revoked keys), the expiry,
** every file's hash and the set of files, and the version against the newest
** one of that name accepted before (anti-rollback state file). Cryptography
** is libsodium's (Ed25519, SHA-256, base64, constant-time compare).
**
** Ownership: gr_manifest, gr_trust and gr_verified own all their strings and
** arrays (freed by their *_free, NULL is fine). Functions that fail append
** located diagnostics to a gr_diags and return -1 or NULL; nothing here
** prints or exits.
*/
#ifndef GR_BUNDLE_H
#define GR_BUNDLE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "base/util.h"
#include "base/diag.h"
#include "base/semver.h"

#define GR_MANIFEST_FILE "MANIFEST"
#define GR_SIGNATURE_FILE "MANIFEST.sig"
#define GR_KEYID_LEN 16              /* hex digits of a key id */

/* Loads libsodium once; -1 when it cannot be initialised. */
int gr_crypto_init(void);

/* ---- keys ---- */
typedef struct gr_key {
  char id[GR_KEYID_LEN + 1];         /* hex of the first 8 bytes of SHA-256(public key) */
  unsigned char pk[32];
  unsigned char sk[64];              /* only for a secret key */
  int has_secret;
  char *name;                        /* free text, may be empty */
} gr_key;

/* Makes a new key pair; returns the text of the secret key file and of the
** public key line (malloc'ed, caller frees). */
int  gr_key_generate(const char *name, char **secret_text, char **public_text);
/* Reads a secret key file. -1 with a located diagnostic on error. */
int  gr_key_read_secret(const char *path, gr_key *k, gr_diags *d);
void gr_key_clear(gr_key *k);        /* wipes the secret and frees the name */
void gr_key_id(const unsigned char pk[32], char id[GR_KEYID_LEN + 1]);

/* ---- trust store: `key ID PUBLIC NAME...` and `revoked ID [REASON...]` lines ---- */
typedef struct gr_revoked { char id[GR_KEYID_LEN + 1]; char *reason; char *file; uint32_t line; } gr_revoked;
typedef struct gr_trust {
  gr_key *keys; size_t nkeys;
  gr_revoked *revoked; size_t nrevoked;
  char **files; size_t nfiles;       /* files read, in order */
} gr_trust;

void gr_trust_init(gr_trust *t);
/* Adds a trust file, or every regular file of a directory (sorted). */
int  gr_trust_add(gr_trust *t, const char *path, gr_diags *d);
/* Parses one trust file's text (also the fuzz target's entry point). */
int  gr_trust_parse(gr_trust *t, const char *file, const char *text, size_t len, gr_diags *d);
const gr_key *gr_trust_find(const gr_trust *t, const char *id);
const gr_revoked *gr_trust_revoked(const gr_trust *t, const char *id);
void gr_trust_free(gr_trust *t);

/* ---- manifest ---- */
typedef struct gr_mfile { char *path; unsigned char sha[32]; uint32_t line; } gr_mfile;
typedef struct gr_manifest {
  char *name, *version, *cann;
  time_t expires; char *expires_text;
  char (*signers)[GR_KEYID_LEN + 1]; size_t nsigners;
  gr_mfile *files; size_t nfiles;    /* sorted by path */
} gr_manifest;

/* Parses MANIFEST text (`file` names it in diagnostics). */
int  gr_manifest_parse(gr_manifest *m, const char *file, const char *text, size_t len, gr_diags *d);
/* Serialises canonically (this is what is signed). */
char *gr_manifest_text(const gr_manifest *m, size_t *len);
void gr_manifest_free(gr_manifest *m);

/* Every file of a bundle directory except MANIFEST and MANIFEST.sig at its
** root, with its SHA-256, sorted by path relative to root. Symbolic links
** and special files are errors (a signed bundle is plain files). */
int  gr_bundle_scan(const char *root, gr_mfile **files, size_t *n, gr_diags *d);
void gr_mfiles_free(gr_mfile *files, size_t n);

/* Parses "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ" (UTC). -1 when malformed. */
int  gr_parse_utc(const char *s, time_t *out);
void gr_format_utc(time_t t, char buf[32]);

/* ---- signing ---- */
typedef struct gr_sign_opts {
  const char *name, *version, *cann;  /* from the bundle statement */
  time_t expires;
  const gr_key *keys; size_t nkeys;   /* secret keys */
} gr_sign_opts;
/* Writes MANIFEST and MANIFEST.sig at root (each atomically). */
int  gr_bundle_sign(const char *root, const gr_sign_opts *o, gr_diags *d);

/* ---- verification ---- */
typedef struct gr_verified {
  char *root;                         /* the bundle directory */
  char *name, *version, *cann, *expires;
  char **signers; size_t nsigners;    /* "ID (name)" of every trusted signer */
  gr_mfile *files; size_t nfiles;     /* the verified hashes, paths relative to root */
} gr_verified;

typedef struct gr_verify_opts {
  const gr_trust *trust;
  time_t now;
  const char *state_file;             /* anti-rollback state, or NULL: not checked */
  int allow_downgrade;
} gr_verify_opts;

/* Verifies the bundle at root (a directory). Every problem found is one
** error diagnostic naming the file and the reason; returns -1 when there is
** any. Does not write the state file (see gr_state_record). */
int  gr_bundle_verify(const char *root, const gr_verify_opts *o, gr_verified *out, gr_diags *d);
void gr_verified_free(gr_verified *v);
/* Is this file (any path naming it) one of the verified ones with exactly
** these bytes? 1 yes; 0 with the reason in why. */
int  gr_verified_has(const gr_verified *v, size_t nv, const char *path,
                     const char *text, size_t len, char *why, size_t nwhy);

/* ---- anti-rollback state: `NAME VERSION` lines ---- */
/* The newest accepted version of name, malloc'ed, or NULL (none, or no
** state file yet). -1 when the file exists but cannot be read or parsed. */
int  gr_state_get(const char *state_file, const char *name, char **version, gr_diags *d);
/* Records version for name when newer than the stored one. The file is
** replaced atomically (temporary file, fsync, rename) under a lock. */
int  gr_state_record(const char *state_file, const char *name, const char *version, gr_diags *d);

/* ---- versions ---- */
/* Semantic versions: gr_semver_valid, gr_semver_cmp (base/semver.h). */
/* CANN releases ("8.0.RC2", "8.1.RC1", "8.0.0", "9.1", "8.0.RC2.alpha003"):
** valid 1 / 0 (a number or RC number of more than 18 digits is malformed);
** compared part by part (a number after an "RCn" after a build
** name; a missing part is 0). A range is comparisons separated by commas,
** ">=8.0.RC2, <=9.1": 1 when v is in it, 0 not, -1 when v or the range is
** malformed. When v is outside, bound (64 bytes, may be NULL) gets the first
** bound it misses and *side -1 (v is below the range) or 1 (above).
** gr_cann_closer: <0 when a is nearer to v than b, >0 farther, 0 as near. */
int  gr_cann_valid(const char *v);
int  gr_cann_cmp(const char *a, const char *b);
int  gr_cann_in_range(const char *v, const char *range, char bound[64], int *side);
int  gr_cann_closer(const char *v, const char *a, const char *b);

/* ---- installed releases (installed.c) ---- */
typedef struct gr_installed { char *dir, *name, *version, *cann; } gr_installed;
/* The directories of folder whose bundle statement names `name`, newest
** version first (unreadable or unparsable directories are not releases;
** loading the chosen one reports its errors). */
size_t gr_installed_list(const char *folder, const char *name, gr_installed **out);
void   gr_installed_free(gr_installed *v, size_t n);
/* The release to use for CANN release cann: the newest whose range contains
** it (*covered 1), else the nearest (*covered 0); cann NULL: the newest. */
size_t gr_installed_pick(const gr_installed *v, size_t n, const char *cann, int *covered);

#endif
