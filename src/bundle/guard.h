/*
** guard.h: loading a rule set under a trust policy, the one way both the
** gerules command and libgerules load rules. Without a trust store nothing
** is verified (gr_ruleset_load as is); with one (given paths, else
** $GERULES_TRUST, else the installed trust folder when it holds a file and
** the caller did not set no_installed_trust),
** every bundle of the stack is verified before it is read (signatures,
** trusted and revoked keys, expiry, the set of files and their hashes, the
** version against the anti-rollback state), the bytes of every file the
** loader then parses and of every hook file the bundle names (read once,
** kept in the rule set) must be those of a verified file, and only then are the accepted versions recorded in the state file.
**
** Ownership: a gr_guard owns its trust store and the verified bundles (freed
** by gr_guard_free); it borrows the strings of its gr_guard_opts, which must
** outlive it. The loaded rule set belongs to the caller. Nothing here prints.
*/
#ifndef GR_BUNDLE_GUARD_H
#define GR_BUNDLE_GUARD_H

#include <stddef.h>
#include "base/diag.h"
#include "bundle/bundle.h"
#include "lang/ruleset.h"

typedef struct gr_guard_opts {
  const char *const *trust_paths; size_t ntrust;  /* trust stores (files or directories); none: $GERULES_TRUST, else installed_trust */
  const char *installed_trust;    /* the installed trust folder; NULL: the configured one */
  int no_installed_trust;         /* never read the installed trust folder (a binary run from its build tree) */
  const char *state_file;         /* anti-rollback state; NULL: gr_default_state_file() */
  int allow_downgrade;            /* accept a version older than one accepted before */
  int no_record;                  /* verify only: do not record accepted versions */
  /* for tests of the verify-what-you-parse rule: called after each rule file
  ** is read and before its bytes are checked (t/t0501 swaps the file there) */
  void (*after_read)(void *ud, const char *path); void *after_read_ud;
} gr_guard_opts;

typedef struct gr_guard {
  gr_guard_opts o;
  int ready, failed;              /* the trust store was read; it had errors */
  int trusting;                   /* a trust store is configured: bundles are verified */
  gr_trust trust;
  gr_verified *verified; size_t nverified;   /* every bundle verified so far */
  char state_buf[4096];
} gr_guard;

void gr_guard_init(gr_guard *g, const gr_guard_opts *o);   /* o NULL: the defaults */
/* Reads the trust store (once; later calls return the first outcome): -1
** when it has errors, each a diagnostic, then "the trust store has errors". */
int  gr_guard_setup(gr_guard *g, gr_diags *d);
/* Loads paths (gr_ruleset_load) under the policy. Rule-set errors go to d;
** verification problems to vd (each naming the file and the reason, then
** "refusing the rule set: ..."), with *refused set and NULL returned. Once
** loaded, a failure to record the accepted versions is a warning in vd. d
** and vd may be the same list. */
gr_ruleset *gr_guard_load(gr_guard *g, const char *const *paths, size_t n, gr_diags *d, gr_diags *vd, int *refused);
void gr_guard_free(gr_guard *g);

/* $GERULES_STATE, else $XDG_STATE_HOME/gerules/accepted-bundles, else
** $HOME/.local/state/gerules/accepted-bundles; NULL when none is set. */
const char *gr_default_state_file(char *buf, size_t n);
/* The configured installed trust folder (pkgdatadir/trust). */
const char *gr_installed_trust_dir(void);
/* The trust store value that configures none: `--trust none` or
** GERULES_TRUST=none, alone, verifies nothing (and so keeps a machine's
** installed trust folder out of a test run or a development tree). */
#define GR_TRUST_NONE "none"

#endif
