/*
** semver.h: semantic versions (semver.org 2.0.0: MAJOR.MINOR.PATCH, an
** optional pre-release after '-', build metadata after '+' ignored for
** precedence). Read by the rule language (a bundle's version, an
** `extends "NAME" >= 1.1` range) and by the bundle tools (manifests, the
** anti-rollback state), so it sits in base/ below both.
**
** Ownership: nothing is allocated or kept; the strings are borrowed for the
** call.
*/
#ifndef GR_SEMVER_H
#define GR_SEMVER_H

/* The most digits of a numeric version part: a longer one is malformed (an
** error, never a value that wraps). Also the limit of a CANN release's
** numbers (bundle/version.c). */
#define GR_VERSION_MAX_DIGITS 18

/* Semantic versions (MAJOR.MINOR.PATCH[-PRE][+BUILD]): 1 valid, 0 not. A
** numeric part of more than 18 digits is not valid (an error wherever a
** version is read: manifest, state file, bundle statement), never a wrap. */
int  gr_semver_valid(const char *v);
/* <0, 0, >0 by semantic-version precedence, without converting a part to an
** integer; invalid versions sort first (callers validate before comparing). */
int  gr_semver_cmp(const char *a, const char *b);

#endif
