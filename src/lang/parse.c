/*
** parse.c: drives the re2c lexer and the lemon parser over one rule file, or
** over one `{...}` placeholder of a message template (fed after a synthetic
** TEMPLATE token, so the same grammar parses it as an expression). Errors
** become located diagnostics with the source line for a caret display.
** With ps->lazy_ops the ops of an `oplib` block are not parsed: from its
** first `op` a byte scan (gr_scan_braces) finds the block's end and the
** grammar gets one LAZYOPS token; src/lang/oplib.c indexes the ops when the
** store is first used and parses each op (gr_parse_op) on its first lookup.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/ast.h"
#include "rules.h"

char *gr_source_line(const char *text, uint32_t line){
  const char *p = text, *e;
  uint32_t l = 1;
  if( text==NULL || line==0 ) return NULL;
  while( l < line ){
    p = strchr(p, '\n');
    if( p==NULL ) return NULL;
    p++; l++;
  }
  e = strchr(p, '\n');
  if( e==NULL ) e = p + strlen(p);
  if( e > p && e[-1]=='\r' ) e--;
  return gr_xstrndup(p, (size_t)(e - p));
}

gr_loc gr_parse_eof_loc(const gr_parse *ps){
  gr_loc l = { ps->file, 1, 1 };
  const char *t = ps->text, *last = NULL, *p;
  uint32_t line = 1, col = 1;
  if( ps->eof_loc.line ) return ps->eof_loc;
  if( t==NULL ) return l;
  /* the last byte that is not blank and not inside a comment */
  for(p = t; *p; p++){
    if( *p=='#' ){ while( p[1] && p[1]!='\n' ) p++; continue; }
    if( *p!=' ' && *p!='\t' && *p!='\r' && *p!='\n' ) last = p;
  }
  if( last==NULL ) return l;
  for(p = t; p < last; p++){ if( *p=='\n' ){ line++; col = 1; } else col++; }
  l.line = line; l.col = col + 1;
  return l;
}

void gr_parse_error(gr_parse *ps, gr_loc loc, const char *fmt, ...){
  va_list ap;
  gr_diag *d;
  va_start(ap, fmt);
  d = gr_diags_vadd(ps->diags, GR_SEV_ERROR, loc.file ? loc.file : ps->file, loc.line, loc.col, fmt, ap);
  va_end(ap);
  if( loc.line ) d->snippet = ps->lines ? gr_lineidx_dup(ps->lines, loc.line) : gr_source_line(ps->text, loc.line);
  ps->nerr++;
}

static void lex_error(gr_parse *ps, int code, gr_token tok){
  gr_loc loc = gr_tok_loc(ps->file, tok);
  switch( code ){
    case GR_LEX_BAD_STRING:  gr_parse_error(ps, loc, "unterminated string"); break;
    case GR_LEX_BAD_PATTERN: gr_parse_error(ps, loc, "unterminated /pattern/"); break;
    case GR_LEX_EMPTY_PATTERN: gr_parse_error(ps, loc, "empty /pattern/"); break;
    case GR_LEX_BAD_ESCAPE:  gr_parse_error(ps, loc, "unknown escape '%.*s' in string (use \\\" \\\\ \\n \\t)", (int)tok.n, tok.z); break;
    default: {
      unsigned char c = (unsigned char)tok.z[0];
      if( c >= 0x20 && c < 0x7f ) gr_parse_error(ps, loc, "unexpected character '%c'", c);
      else gr_parse_error(ps, loc, "unexpected byte 0x%02x", c);
    }
  }
}

/* The byte scan of lazy op bodies: from p (just after an opening brace,
** depth open braces) to the brace that closes the first of them. It knows
** the lexer's strings and comments, counts lines, and refuses (returns NULL)
** a NUL byte, an unterminated string, a raw newline in a string and a ';'
** at depth semi_depth (0: none refused; the block scan refuses one between
** ops: an item after the first op is for the grammar to see).
** Returns the closing brace, or NULL. The text must go on to a NUL byte at
** or after limit (a rule file's text does). Measured reason for a hand-written
** scan with memchr over strings rather than the lexer: the generated op
** library (2.5 MB) is skipped in a few million instructions. */
static const unsigned char scan_stop[256] = { [0] = 1, ['\n'] = 1, ['#'] = 1, ['"'] = 1, ['{'] = 1, ['}'] = 1, [';'] = 1 };
const char *gr_scan_braces(const char *from, const char *limit, int depth, int semi_depth, uint32_t *line, const char **bol){
  const unsigned char *p = (const unsigned char*)from, *lim = (const unsigned char*)limit;
  for(;;){
    while( p < lim && !scan_stop[*p] ) p++;
    if( p >= lim ) return NULL;
    switch( *p ){
      case '\n': (*line)++; *bol = (const char*)++p; continue;
      case '#': {
        const unsigned char *e = memchr(p, '\n', (size_t)(lim - p));
        p = e ? e : lim;
        continue;
      }
      case '"': {
        const unsigned char *q = p + 1, *e;
        for(;;){
          /* the first quote, newline or NUL (one pass: the text ends with a
          ** NUL at or after lim); a string must close before the other two */
          e = q + strcspn((const char*)q, "\"\n");
          if( e >= lim || *e!='"' ) return NULL;
          /* a quote after an odd number of backslashes is escaped */
          {
            const unsigned char *k = e;
            size_t nb = 0;
            while( k > q && k[-1]=='\\' ){ k--; nb++; }
            if( nb % 2==0 ) break;
          }
          q = e + 1;
        }
        p = e + 1;
        continue;
      }
      case '{': depth++; p++; continue;
      case '}': if( --depth==0 ) return (const char*)p; p++; continue;
      case ';': if( depth==semi_depth ) return NULL; p++; continue;
      default: return NULL;     /* NUL */
    }
  }
}

/* At the first `op` token of an oplib block (tok), in lazy mode: moves the
** lexer to the block's closing brace (a file that ends with a '}': its last
** one, so the block must be the file's last statement; else found by
** gr_scan_braces), widens tok to every op (its first byte to just before
** that brace) and returns 1; the grammar gets one
** LAZYOPS token and src/lang/oplib.c indexes the ops on the store's first
** lookup. Otherwise (the braces do not balance) leaves the lexer and returns
** 0: the grammar parses the ops now and reports what is wrong. */
static int skip_ops(gr_parse *ps, gr_lexer *lx, gr_token *tok){
  uint32_t line = lx->line;
  const char *bol = (const char*)lx->bol, *end = (const char*)lx->lim;
  /* A file ending with the block (the generated ones): its last '}' closes
  ** it, found from the end and placed by counting the newlines between the
  ** lexer and it (memchr), without reading what lies between otherwise
  ** (ol_index checks it when the store is first used). */
  while( end > tok->z && (end[-1]==' ' || end[-1]=='\t' || end[-1]=='\r' || end[-1]=='\n') ) end--;
  if( ps->lines && ps->lines->text==ps->text && end > tok->z && end[-1]=='}' && (const char*)lx->cur < end ){
    const char *p = (const char*)lx->cur, *nl;
    end--;
    while( (nl = memchr(p, '\n', (size_t)(end - p)))!=NULL ){ line++; p = bol = nl + 1; }
  }else{
    end = gr_scan_braces((const char*)lx->cur, (const char*)lx->lim, 1, 1, &line, &bol);
    if( end==NULL ) return 0;
  }
  tok->n = (uint32_t)(end - tok->z);
  lx->cur = (const unsigned char*)end;
  lx->line = line;
  lx->bol = (const unsigned char*)bol;
  return 1;
}

/* Feeds the lexer's tokens to the parser until the end, the first error or
** (stop not NULL) the token at stop, which is not fed. */
static int drive(gr_parse *ps, gr_lexer *lx, void *parser, uint32_t line, uint32_t col, const char *stop){
  gr_token tok;
  int code;
  int depth = 0, oplib_depth = -1, oplib_next = 0;   /* lazy op bodies: where the oplib block is */
  do{
    code = gr_lex(lx, &tok);
    if( line ){ tok.line = line; tok.col += col - 1; }
    if( stop && tok.z >= stop ) break;
    if( code < 0 ){ lex_error(ps, code, tok); break; }
    if( ps->lazy_ops ){
      if( code==GR_TK_LBRACE ){ if( ++depth==1 && oplib_next ) oplib_depth = 1; oplib_next = 0; }
      else if( code==GR_TK_RBRACE ){ if( depth--==oplib_depth ) oplib_depth = -1; }
      else if( code==GR_TK_OPLIB && depth==0 ) oplib_next = 1;
      else if( code==GR_TK_OP && depth==oplib_depth && (size_t)((const char*)lx->lim - tok.z) < UINT32_MAX && skip_ops(ps, lx, &tok) ){
        code = GR_TK_LAZYOPS;
        ps->nlazy++;
      }
    }
    ps->tok_loc = gr_tok_loc(ps->file, tok);    /* for %stack_overflow, which gets no token */
    grParser(parser, code, tok, ps);
  }while( code!=0 && ps->nerr==0 );
  return ps->nerr ? -1 : 0;
}

void gr_parse_expected(gr_parse *ps, void *parser, gr_token bad, char *out, size_t n){
  gr_parse again;
  gr_diags scratch;
  gr_lexer lx;
  void *p2;
  if( ps->text_len==0 || bad.z < ps->text || bad.z > ps->text + ps->text_len ){
    gr_parser_expected(parser, out, n);
    return;
  }
  /* the tokens before `bad` all parsed without an error the first time, so
  ** this run stops at `bad` with nothing reported; its trees are dropped */
  memset(&again, 0, sizeof again);
  gr_diags_init(&scratch);
  again.file = ps->file; again.text = ps->text; again.lines = ps->lines; again.diags = &scratch;
  again.lazy_ops = ps->lazy_ops;
  again.head = NULL; again.tail = &again.head;
  gr_lex_init(&lx, ps->text, ps->text_len);
  p2 = grParserAlloc(gr_xmalloc);
  if( drive(&again, &lx, p2, 0, 0, bad.z)==0 ) gr_parser_expected(p2, out, n);
  else gr_parser_expected(parser, out, n);
  grParserFree(p2, free);
  gr_item_free(again.head);
  gr_item_free(again.op_item);
  gr_expr_free(again.template_expr);
  gr_diags_free(&scratch);
}

int gr_parse_text(gr_parse *ps, const char *text, size_t len){
  gr_lexer lx;
  void *parser;
  int rc;
  ps->text = text;
  ps->text_len = len;
  ps->head = NULL;
  ps->tail = &ps->head;
  gr_lex_init(&lx, text, len);
  parser = grParserAlloc(gr_xmalloc);
  rc = drive(ps, &lx, parser, 0, 0, NULL);
  grParserFree(parser, free);
  return rc;
}

gr_expr *gr_parse_placeholder(const char *file, const gr_lineidx *file_lines, const char *text, size_t len,
                              uint32_t line, uint32_t col, gr_diags *diags){
  gr_parse ps;
  gr_lexer lx;
  gr_token start;
  void *parser;
  char *copy = gr_xstrndup(text, len);     /* the lexer needs a NUL sentinel */
  memset(&ps, 0, sizeof ps);
  ps.file = file; ps.lines = file_lines; ps.diags = diags;
  ps.eof_loc.file = file; ps.eof_loc.line = line; ps.eof_loc.col = col + (uint32_t)len;
  ps.head = NULL; ps.tail = &ps.head;
  gr_lex_init(&lx, copy, len);
  parser = grParserAlloc(gr_xmalloc);
  start.z = copy; start.n = 0; start.line = line; start.col = col;
  grParser(parser, GR_TK_TEMPLATE, start, &ps);
  if( drive(&ps, &lx, parser, line, col, NULL) != 0 || ps.template_expr==NULL ){
    if( ps.nerr==0 ) gr_parse_error(&ps, (gr_loc){file, line, col}, "empty placeholder");
    gr_expr_free(ps.template_expr);
    ps.template_expr = NULL;
  }
  grParserFree(parser, free);
  gr_item_free(ps.head);
  free(copy);
  return ps.template_expr;
}

gr_item *gr_parse_op(const char *file, const char *text, size_t len, size_t off, size_t n,
                     uint32_t line, uint32_t col, const gr_lineidx *lines, gr_diags *diags){
  gr_parse ps;
  gr_lexer lx;
  gr_token tok;
  void *parser;
  const char *end = text + off + n;
  int code;
  memset(&ps, 0, sizeof ps);
  ps.file = file; ps.text = text; ps.lines = lines; ps.diags = diags;
  ps.head = NULL; ps.tail = &ps.head;
  if( off > len || n > len - off || col==0 || col - 1 > off ) return NULL;
  gr_lex_init(&lx, text + off, len - off);
  lx.line = line;
  lx.bol = (const unsigned char*)text + off - (col - 1);
  parser = grParserAlloc(gr_xmalloc);
  tok.z = text + off; tok.n = 0; tok.line = line; tok.col = col;
  grParser(parser, GR_TK_OPBODY, tok, &ps);
  do{
    code = gr_lex(&lx, &tok);
    if( code < 0 ){ lex_error(&ps, code, tok); break; }
    if( code!=0 && tok.z >= end ) code = 0;      /* the op's text ends at its closing brace */
    if( code==0 ){ tok.n = 0; ps.eof_loc = gr_tok_loc(file, tok); }
    ps.tok_loc = gr_tok_loc(file, tok);
    grParser(parser, code, tok, &ps);
  }while( code!=0 && ps.nerr==0 );
  grParserFree(parser, free);
  gr_item_free(ps.head);
  if( ps.nerr ){ gr_item_free(ps.op_item); return NULL; }
  return ps.op_item;
}
