/*
** lexer.re: the rule-language tokenizer, turned into lexer.c by re2c. It
** recognises comments, identifiers and keywords, strings, integers, versions
** (1.1, 1.2.0-rc.1: only `extends` ranges take them), /patterns/
** and punctuation (`@` only in the input lists of an onnx mapping), and tracks line and column. The buffer carries a NUL
** sentinel at its end; an embedded NUL is an ordinary (invalid) byte, so a
** stray NUL never ends the input early.
*/
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "lang/lexer.h"
#include "rules.h"

void gr_lex_init(gr_lexer *lx, const char *buf, size_t len){
  lx->cur = lx->bol = lx->tok = (const unsigned char*)buf;
  lx->mar = lx->cur;
  lx->lim = (const unsigned char*)buf + len;
  lx->line = 1;
}

#define TOK(c) do{ tok->n = (uint32_t)(lx->cur - lx->tok); return (c); }while(0)

int gr_lex(gr_lexer *lx, gr_token *tok){
  const unsigned char *p;
loop:
  lx->tok = lx->cur;
  tok->z = (const char*)lx->cur;
  tok->line = lx->line;
  tok->col = (uint32_t)(lx->cur - lx->bol) + 1;
  tok->n = 0;
  /*!re2c
    re2c:define:YYCTYPE  = "unsigned char";
    re2c:define:YYCURSOR = "lx->cur";
    re2c:define:YYMARKER = "lx->mar";
    re2c:define:YYLIMIT  = "lx->lim";
    re2c:yyfill:enable   = 0;
    re2c:eof             = 0;

    id   = [a-zA-Z_][a-zA-Z0-9_]*;
    dec  = "-"? [0-9][0-9_]*;
    hex  = "-"? "0" [xX] [0-9a-fA-F_]+;
    sch  = [^"\\\n\x00] | "\\" [^\n\x00];
    pch  = [^/\\\n\x00] | "\\" [^\n\x00];
    vid  = [0-9A-Za-z-]+;
    vnum = [0-9]+ ("." [0-9]+)+ ("-" vid ("." vid)*)? ("+" vid ("." vid)*)?;

    $                 { return 0; }
    *                 { tok->n = 1; return GR_LEX_BAD_CHAR; }
    "\n"              { lx->line++; lx->bol = lx->cur; goto loop; }
    [ \t\r\f\v]+      { goto loop; }
    "#" [^\n\x00]*    { goto loop; }

    "all"         { TOK(GR_TK_ALL); }
    "alias"       { TOK(GR_TK_ALIAS); }
    "and"         { TOK(GR_TK_AND); }
    "any"         { TOK(GR_TK_ANY); }
    "becomes"     { TOK(GR_TK_BECOMES); }
    "because"     { TOK(GR_TK_BECAUSE); }
    "bundle"      { TOK(GR_TK_BUNDLE); }
    "cann"        { TOK(GR_TK_CANN); }
    "capability"  { TOK(GR_TK_CAPABILITY); }
    "caps"        { TOK(GR_TK_CAPS); }
    "cascade"     { TOK(GR_TK_CASCADE); }
    "column"      { TOK(GR_TK_COLUMN); }
    "chip"        { TOK(GR_TK_CHIP); }
    "conflicts"   { TOK(GR_TK_CONFLICTS); }
    "default"     { TOK(GR_TK_DEFAULT); }
    "deprecated"  { TOK(GR_TK_DEPRECATED); }
    "description" { TOK(GR_TK_DESCRIPTION); }
    "each"        { TOK(GR_TK_EACH); }
    "effect"      { TOK(GR_TK_EFFECT); }
    "entries"     { TOK(GR_TK_ENTRIES); }
    "entry"       { TOK(GR_TK_ENTRY); }
    "error"       { TOK(GR_TK_ERROR); }
    "except"      { TOK(GR_TK_EXCEPT); }
    "extend"      { TOK(GR_TK_EXTEND); }
    "extends"     { TOK(GR_TK_EXTENDS); }
    "exclusive"   { TOK(GR_TK_EXCLUSIVE); }
    "false"       { TOK(GR_TK_FALSE); }
    "condition"   { TOK(GR_TK_CONDITION); }
    "for"         { TOK(GR_TK_FOR); }
    "format"      { TOK(GR_TK_FORMAT); }
    "graph"       { TOK(GR_TK_GRAPH); }
    "hardware"    { TOK(GR_TK_HARDWARE); }
    "hook"        { TOK(GR_TK_HOOK); }
    "has"         { TOK(GR_TK_HAS); }
    "in"          { TOK(GR_TK_IN); }
    "include"     { TOK(GR_TK_INCLUDE); }
    "ini"         { TOK(GR_TK_INI); }
    "initial"     { TOK(GR_TK_INITIAL); }
    "key"         { TOK(GR_TK_KEY); }
    "len"         { TOK(GR_TK_LEN); }
    "limit"       { TOK(GR_TK_LIMIT); }
    "matches"     { TOK(GR_TK_MATCHES); }
    "mode"        { TOK(GR_TK_MODE); }
    "needs"       { TOK(GR_TK_NEEDS); }
    "neutral"     { TOK(GR_TK_NEUTRAL); }
    "no"          { TOK(GR_TK_NO); }
    "node"        { TOK(GR_TK_NODE); }
    "not"         { TOK(GR_TK_NOT); }
    "note"        { TOK(GR_TK_NOTE); }
    "null"        { TOK(GR_TK_NULL); }
    "on"          { TOK(GR_TK_ON); }
    "once"        { TOK(GR_TK_ONCE); }
    "onnx"        { TOK(GR_TK_ONNX); }
    "opset"       { TOK(GR_TK_OPSET); }
    "option"      { TOK(GR_TK_OPTION); }
    "or"          { TOK(GR_TK_OR); }
    "over"        { TOK(GR_TK_OVER); }
    "override"    { TOK(GR_TK_OVERRIDE); }
    "partition"   { TOK(GR_TK_PARTITION); }
    "pattern"     { TOK(GR_TK_PATTERN); }
    "product"     { TOK(GR_TK_PRODUCT); }
    "range"       { TOK(GR_TK_RANGE); }
    "replace"     { TOK(GR_TK_REPLACE); }
    "requires"    { TOK(GR_TK_REQUIRES); }
    "rule"        { TOK(GR_TK_RULE); }
    "run_mode"    { TOK(GR_TK_RUN_MODE); }
    "entry_point" { TOK(GR_TK_ENTRY_POINT); }
    "ge_code"     { TOK(GR_TK_GE_CODE); }
    "section"     { TOK(GR_TK_SECTION); }
    "seed"        { TOK(GR_TK_SEED); }
    "subgraph"    { TOK(GR_TK_SUBGRAPH); }
    "group"       { TOK(GR_TK_GROUP); }
    "threshold"   { TOK(GR_TK_THRESHOLD); }
    "weak"        { TOK(GR_TK_WEAK); }
    "separator"   { TOK(GR_TK_SEPARATOR); }
    "rejected"    { TOK(GR_TK_REJECTED); }
    "elsewhere"   { TOK(GR_TK_ELSEWHERE); }
    "set"         { TOK(GR_TK_SET); }
    "slot"        { TOK(GR_TK_SLOT); }
    "soc"         { TOK(GR_TK_SOC); }
    "source"      { TOK(GR_TK_SOURCE); }
    "supported"   { TOK(GR_TK_SUPPORTED); }
    "supports"    { TOK(GR_TK_SUPPORTS); }
    "table"       { TOK(GR_TK_TABLE); }
    "then"        { TOK(GR_TK_THEN); }
    "true"        { TOK(GR_TK_TRUE); }
    "type"        { TOK(GR_TK_TYPE); }
    "unsupported" { TOK(GR_TK_UNSUPPORTED); }
    "value"       { TOK(GR_TK_VALUE); }
    "values"      { TOK(GR_TK_VALUES); }
    "version"     { TOK(GR_TK_VERSION); }
    "warning"     { TOK(GR_TK_WARNING); }
    "yields"      { TOK(GR_TK_YIELDS); }
    "when"        { TOK(GR_TK_WHEN); }
    /* op information library statements (oplib, dtypes) */
    "oplib"       { TOK(GR_TK_OPLIB); }
    "dtypes"      { TOK(GR_TK_DTYPES); }
    "op"          { TOK(GR_TK_OP); }
    "engine"      { TOK(GR_TK_ENGINE); }
    "kind"        { TOK(GR_TK_KIND); }
    "priority"    { TOK(GR_TK_PRIORITY); }
    "family"      { TOK(GR_TK_FAMILY); }
    "from"        { TOK(GR_TK_FROM); }
    "sha256"      { TOK(GR_TK_SHA256); }
    "input"       { TOK(GR_TK_INPUT); }
    "output"      { TOK(GR_TK_OUTPUT); }

    id            { TOK(GR_TK_ID); }
    dec | hex     { TOK(GR_TK_INT); }
    vnum          { TOK(GR_TK_VERNUM); }

    ["] sch* ["]  {
                    for(p = lx->tok + 1; p < lx->cur - 1; p++){
                      if( *p=='\\' ){
                        p++;
                        if( *p!='"' && *p!='\\' && *p!='n' && *p!='t' ){
                          tok->col += (uint32_t)(p - 1 - lx->tok);
                          tok->z = (const char*)p - 1;
                          tok->n = 2;
                          return GR_LEX_BAD_ESCAPE;
                        }
                      }
                    }
                    TOK(GR_TK_STRING);
                  }
    ["] sch*      { tok->n = (uint32_t)(lx->cur - lx->tok); return GR_LEX_BAD_STRING; }
    "/" pch+ "/"  { TOK(GR_TK_REGEX); }
    "//"          { tok->n = 2; return GR_LEX_EMPTY_PATTERN; }
    "/" pch*      { tok->n = (uint32_t)(lx->cur - lx->tok); return GR_LEX_BAD_PATTERN; }

    "{"   { TOK(GR_TK_LBRACE); }
    "}"   { TOK(GR_TK_RBRACE); }
    "("   { TOK(GR_TK_LPAREN); }
    ")"   { TOK(GR_TK_RPAREN); }
    "["   { TOK(GR_TK_LBRACKET); }
    "]"   { TOK(GR_TK_RBRACKET); }
    ";"   { TOK(GR_TK_SEMI); }
    ","   { TOK(GR_TK_COMMA); }
    ":"   { TOK(GR_TK_COLON); }
    ".."  { TOK(GR_TK_DOTDOT); }
    "."   { TOK(GR_TK_DOT); }
    "=="  { TOK(GR_TK_EQ); }
    "!="  { TOK(GR_TK_NE); }
    "<="  { TOK(GR_TK_LE); }
    ">="  { TOK(GR_TK_GE); }
    "<"   { TOK(GR_TK_LT); }
    ">"   { TOK(GR_TK_GT); }
    "="   { TOK(GR_TK_ASSIGN); }
    "@"   { TOK(GR_TK_AT); }
    "+"   { TOK(GR_TK_PLUS); }
    "%"   { TOK(GR_TK_PERCENT); }
  */
}

char *gr_lex_unescape(const char *z, size_t n){
  char *out = malloc(n + 1), *o = out;
  const char *bs;
  size_t i;
  if( out==NULL ) return NULL;
  /* most strings (reasons, messages, names) have no escape: one copy */
  bs = memchr(z, '\\', n);
  if( bs==NULL ){
    memcpy(out, z, n);
    out[n] = 0;
    return out;
  }
  i = (size_t)(bs - z);
  memcpy(out, z, i);
  o = out + i;
  for(; i < n; i++){
    if( z[i]=='\\' && i + 1 < n ){
      i++;
      switch( z[i] ){
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        default:  *o++ = z[i]; break;   /* \" \\ \/ and checked-elsewhere others */
      }
    }else{
      *o++ = z[i];
    }
  }
  *o = 0;
  return out;
}
