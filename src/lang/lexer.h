/*
** lexer.h: the rule-language tokenizer (generated from lexer.re by re2c).
** Tokens are plain values pointing into the caller's source buffer, in the
** SQLite Token style: they own nothing and are not NUL-terminated.
**
** Ownership: the lexer borrows the buffer given to gr_lex_init (which must
** have a NUL at buf[len] and outlive every token); it allocates nothing.
*/
#ifndef GR_LEXER_H
#define GR_LEXER_H

#include <stddef.h>
#include <stdint.h>

typedef struct gr_token {
  const char *z;      /* first byte of the lexeme, inside the source buffer */
  uint32_t n;         /* length in bytes */
  uint32_t line, col; /* 1-based start position; columns count bytes */
} gr_token;

typedef struct gr_lexer {
  const unsigned char *cur, *lim, *mar, *bol, *tok;
  uint32_t line;
} gr_lexer;

/* Negative results of gr_lex (lemon's codes are positive, 0 is end of input). */
enum {
  GR_LEX_BAD_CHAR = -1,       /* a byte that starts no token */
  GR_LEX_BAD_STRING = -2,     /* unterminated string or raw newline inside it */
  GR_LEX_BAD_PATTERN = -3,    /* unterminated /pattern/ */
  GR_LEX_BAD_ESCAPE = -4,     /* unknown backslash escape in a string */
  GR_LEX_EMPTY_PATTERN = -5   /* // */
};

void gr_lex_init(gr_lexer *lx, const char *buf, size_t len);
int  gr_lex(gr_lexer *lx, gr_token *tok);

/* Decodes the escapes of a string token body (without quotes) into a new
** malloc'ed string. */
char *gr_lex_unescape(const char *z, size_t n);

/* How token `code` (grammar/rules.h) is written in a message: the keyword
** or punctuation itself ("then", ";"), or for a class of lexemes a phrase
** ("a name", "a string"; *is_class set, may be NULL). NULL for the tokens
** only the parser's driver makes (parse.c) and out-of-range codes. Static. */
const char *gr_token_spelling(int code, int *is_class);

#endif
