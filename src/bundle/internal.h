/*
** internal.h: helpers the files of src/bundle share and nothing else uses.
**
** Ownership: none of these keep pointers to their arguments; the caller
** frees what they return in *out.
*/
#ifndef GR_BUNDLE_INTERNAL_H
#define GR_BUNDLE_INTERNAL_H

#include <stddef.h>
#include "base/util.h"
#include "base/diag.h"

/* A relative path without "", ".", ".." components or control bytes. */
int gr_bundle_path_ok(const char *p);
/* Replaces path with data: a temporary file beside it, fsync, rename. */
int gr_bundle_write_atomic(const char *path, const void *data, size_t len, int mode, gr_error *e);
/* The same for base in the directory dirfd (shown: the path for messages). */
int gr_bundle_write_atomic_at(int dirfd, const char *base, const char *shown, const void *data, size_t len, int mode, gr_error *e);
/* Opens the directory holding path (O_DIRECTORY); *base is the last component. */
int gr_bundle_dir_open(const char *path, const char **base, gr_error *e);

/* One checked line of MANIFEST.sig. */
typedef struct gr_sigline { char id[17]; unsigned char pk[32]; int valid; } gr_sigline;
/* Parses MANIFEST.sig text and verifies each signature against the manifest
** bytes; *out (malloc'ed) holds the valid ones. -1 when any line is bad. */
int gr_signatures_parse(const char *spath, const char *text, size_t len, const char *mtext, size_t mlen,
                        gr_sigline **out, size_t *nout, gr_diags *d);
/* Parses anti-rollback state text (for the fuzz target). */
int gr_state_parse_check(const char *path, const char *text, size_t len, gr_diags *d);

#endif
