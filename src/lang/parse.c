/*
** parse.c: drives the re2c lexer and the lemon parser over one rule file, or
** over one `{...}` placeholder of a message template (fed after a synthetic
** TEMPLATE token, so the same grammar parses it as an expression). Errors
** become located diagnostics with the source line for a caret display.
** With ps->lazy_ops it only indexes the ops of `oplib` blocks (skip_op: a
** byte scan to the op's closing brace, one LAZYOP token for the grammar);
** src/lang/oplib.c parses such an op later with gr_parse_op.
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

/* At an `op` token of an oplib block (tok): when the op's name string follows
** and its body's braces balance, moves the lexer past the closing brace,
** widens tok to the whole op, puts the name's token in ps->lazy_name and returns
** 1. Otherwise leaves the lexer where it was and returns 0 (the grammar then
** parses the op now and reports what is wrong with it). The scan knows the
** lexer's strings and comments; every other byte is checked when the op is
** parsed. Measured reason for a byte scan rather than the lexer: it indexes
** the generated op library (several MB) in a few milliseconds. */
static int skip_op(gr_parse *ps, gr_lexer *lx, gr_token *tok){
  gr_lexer save = *lx;
  gr_token name;
  const unsigned char *p, *lim = lx->lim, *bol;
  uint32_t line;
  int depth = 0;
  if( gr_lex(lx, &name)!=GR_TK_STRING ){ *lx = save; return 0; }
  p = lx->cur; bol = lx->bol; line = lx->line;
  while( p < lim ){
    switch( *p ){
      case '\n': line++; bol = ++p; continue;
      case '#': while( p < lim && *p!='\n' ) p++; continue;
      case '"':
        for(p++; p < lim && *p!='"'; p++){
          if( *p=='\n' ) goto fail;
          if( *p=='\\' && (++p >= lim || *p=='\n') ) goto fail;
        }
        if( p >= lim ) goto fail;
        p++;
        continue;
      case '{': depth++; break;
      case '}':
        if( depth==0 ) goto fail;
        if( --depth==0 ){
          p++;
          tok->n = (uint32_t)((const char*)p - tok->z);
          lx->cur = p; lx->bol = bol; lx->line = line;
          ps->lazy_name = name;
          ps->nlazy++;
          return 1;
        }
        break;
      case ';': if( depth==0 ) goto fail; break;
      case 0: goto fail;
      default: break;
    }
    p++;
  }
fail:
  *lx = save;
  return 0;
}

static int drive(gr_parse *ps, gr_lexer *lx, void *parser, uint32_t line, uint32_t col){
  gr_token tok;
  int code;
  int depth = 0, oplib_depth = -1, oplib_next = 0;   /* lazy op bodies: where the oplib block is */
  do{
    code = gr_lex(lx, &tok);
    if( line ){ tok.line = line; tok.col += col - 1; }
    if( code < 0 ){ lex_error(ps, code, tok); break; }
    if( ps->lazy_ops ){
      if( code==GR_TK_LBRACE ){ if( ++depth==1 && oplib_next ) oplib_depth = 1; oplib_next = 0; }
      else if( code==GR_TK_RBRACE ){ if( depth--==oplib_depth ) oplib_depth = -1; }
      else if( code==GR_TK_OPLIB && depth==0 ) oplib_next = 1;
      else if( code==GR_TK_OP && depth==oplib_depth && skip_op(ps, lx, &tok) ){
        /* LAZYOP (the whole op), then its name as the STRING after it */
        ps->tok_loc = gr_tok_loc(ps->file, tok);
        grParser(parser, GR_TK_LAZYOP, tok, ps);
        if( ps->nerr ) break;
        tok = ps->lazy_name;
        code = GR_TK_STRING;
      }
    }
    ps->tok_loc = gr_tok_loc(ps->file, tok);    /* for %stack_overflow, which gets no token */
    grParser(parser, code, tok, ps);
  }while( code!=0 && ps->nerr==0 );
  return ps->nerr ? -1 : 0;
}

int gr_parse_text(gr_parse *ps, const char *text, size_t len){
  gr_lexer lx;
  void *parser;
  int rc;
  ps->text = text;
  ps->head = NULL;
  ps->tail = &ps->head;
  gr_lex_init(&lx, text, len);
  parser = grParserAlloc(gr_xmalloc);
  rc = drive(ps, &lx, parser, 0, 0);
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
  if( drive(&ps, &lx, parser, line, col) != 0 || ps.template_expr==NULL ){
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
