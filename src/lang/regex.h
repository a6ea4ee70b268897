/*
** regex.h: the rule language's regular expressions (soc /patterns/ and
** option `pattern /.../`): a checked subset of POSIX extended regular
** expressions, compiled by the C library's regcomp and matched against a
** whole subject.
**
** Ownership: gr_regex_compile fills a caller-owned regex_t; on success the
** caller releases it with regfree, on failure there is nothing to release.
** Nothing here keeps a pointer to the pattern or to the subject.
*/
#ifndef GR_LANG_REGEX_H
#define GR_LANG_REGEX_H
#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* The limits of the accepted subset (doc/rule-language.md, "Patterns"). */
#define GR_REGEX_MAX_LEN    4096   /* bytes of pattern */
#define GR_REGEX_MAX_BOUND  255    /* n and m of {n}, {n,}, {n,m} (POSIX's _POSIX_RE_DUP_MAX) */
#define GR_REGEX_MAX_DEPTH  32     /* nested groups */
#define GR_REGEX_MAX_NODES  10000  /* pattern size once every repetition is expanded */

/* Checks that pat is in the accepted subset. Returns 0 if it is; otherwise
** returns -1, sets *off to the byte offset in pat of the construct refused
** and writes why into msg. */
int gr_regex_check(const char *pat, size_t *off, char *msg, size_t msgsz);

/* gr_regex_check, then regcomp (REG_EXTENDED, with the match span kept so
** that gr_regex_whole can anchor). Returns 0 on success; otherwise -1 with
** *off and msg as for gr_regex_check, *off being SIZE_MAX for what regcomp
** itself refuses (the pattern as a whole). */
int gr_regex_compile(regex_t *re, const char *pat, size_t *off, char *msg, size_t msgsz);

/* 1 if re matches the whole of s, else 0. Anchored by the span of the
** match, never by rewriting the pattern: POSIX matching is leftmost-longest,
** so a match covering all of s exists exactly when the match found starts at
** 0 and ends at strlen(s). */
int gr_regex_whole(const regex_t *re, const char *s);

#endif
