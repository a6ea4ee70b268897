/*
** t0001-lexer.c: unit tests of the rule-language tokenizer (lexer.h,
** generated from src/lang/lexer.re): every keyword of the language, identifiers
** against keywords (longest match), strings and each escape, bad escapes and
** unterminated strings, integers in every form, /patterns/ with \/, comments,
** every punctuation token, line/column tracking across lines, tabs and CRLF,
** an embedded NUL byte, the end of input, and gr_lex_unescape.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/lexer.h"
#include "rules.h"
#include "tap.h"

/* Lexes the first token of a NUL-terminated string. */
static int lex1(const char *s, gr_token *t){
  gr_lexer lx;
  gr_lex_init(&lx, s, strlen(s));
  return gr_lex(&lx, t);
}

static const char *tkname(int code);

/* Lexes a whole buffer of len bytes (buf[len] must be NUL) into a compact
** description: "NAME:line:col:text NAME:line:col:text ..." where NAME is the
** token's GR_TK_ name without the prefix (or BAD_CHAR, BAD_STRING...); stops
** after an error or at the end of input, which is written "EOF:line:col". */
static const char *lexall(const char *buf, size_t len){
  static char out[2048];
  gr_lexer lx;
  gr_token t;
  size_t o = 0;
  int code, guard = 0;
  gr_lex_init(&lx, buf, len);
  out[0] = 0;
  do{
    code = gr_lex(&lx, &t);
    o += (size_t)snprintf(out + o, sizeof out - o, "%s%s:%u:%u", o ? " " : "", tkname(code), t.line, t.col);
    if( code!=0 ) o += (size_t)snprintf(out + o, sizeof out - o, ":%.*s", (int)t.n, t.z);
  }while( code > 0 && ++guard < 100 && o < sizeof out - 100 );
  return out;
}
#define LEXALL(s) lexall((s), strlen(s))

/* Token length of the first token. */
static unsigned len1(const char *s){ gr_token t; lex1(s, &t); return t.n; }

static const struct { const char *word; int code; } keywords[] = {
  {"alias", GR_TK_ALIAS}, {"all", GR_TK_ALL}, {"and", GR_TK_AND}, {"any", GR_TK_ANY},
  {"because", GR_TK_BECAUSE}, {"bundle", GR_TK_BUNDLE}, {"cann", GR_TK_CANN},
  {"capability", GR_TK_CAPABILITY}, {"caps", GR_TK_CAPS}, {"cascade", GR_TK_CASCADE},
  {"chip", GR_TK_CHIP}, {"column", GR_TK_COLUMN}, {"conflicts", GR_TK_CONFLICTS}, {"default", GR_TK_DEFAULT},
  {"deprecated", GR_TK_DEPRECATED}, {"description", GR_TK_DESCRIPTION}, {"each", GR_TK_EACH}, {"effect", GR_TK_EFFECT},
  {"entries", GR_TK_ENTRIES}, {"entry", GR_TK_ENTRY}, {"error", GR_TK_ERROR},
  {"except", GR_TK_EXCEPT}, {"exclusive", GR_TK_EXCLUSIVE}, {"false", GR_TK_FALSE},
  {"for", GR_TK_FOR}, {"format", GR_TK_FORMAT}, {"has", GR_TK_HAS}, {"hardware", GR_TK_HARDWARE}, {"hook", GR_TK_HOOK},
  {"in", GR_TK_IN}, {"include", GR_TK_INCLUDE}, {"ini", GR_TK_INI}, {"initial", GR_TK_INITIAL},
  {"key", GR_TK_KEY}, {"len", GR_TK_LEN}, {"onnx", GR_TK_ONNX}, {"opset", GR_TK_OPSET},
  {"becomes", GR_TK_BECOMES}, {"matches", GR_TK_MATCHES}, {"mode", GR_TK_MODE}, {"needs", GR_TK_NEEDS}, {"no", GR_TK_NO},
  {"node", GR_TK_NODE}, {"not", GR_TK_NOT}, {"note", GR_TK_NOTE}, {"null", GR_TK_NULL},
  {"on", GR_TK_ON}, {"once", GR_TK_ONCE}, {"option", GR_TK_OPTION}, {"or", GR_TK_OR},
  {"over", GR_TK_OVER}, {"pattern", GR_TK_PATTERN}, {"product", GR_TK_PRODUCT},
  {"range", GR_TK_RANGE}, {"requires", GR_TK_REQUIRES}, {"rule", GR_TK_RULE},
  {"run_mode", GR_TK_RUN_MODE}, {"section", GR_TK_SECTION}, {"separator", GR_TK_SEPARATOR},
  {"set", GR_TK_SET}, {"slot", GR_TK_SLOT}, {"soc", GR_TK_SOC}, {"source", GR_TK_SOURCE},
  {"supported", GR_TK_SUPPORTED}, {"supports", GR_TK_SUPPORTS}, {"table", GR_TK_TABLE},
  {"then", GR_TK_THEN}, {"true", GR_TK_TRUE}, {"type", GR_TK_TYPE},
  {"unsupported", GR_TK_UNSUPPORTED}, {"value", GR_TK_VALUE}, {"values", GR_TK_VALUES},
  {"version", GR_TK_VERSION}, {"warning", GR_TK_WARNING}, {"when", GR_TK_WHEN},
  {"oplib", GR_TK_OPLIB}, {"dtypes", GR_TK_DTYPES}, {"op", GR_TK_OP}, {"engine", GR_TK_ENGINE},
  {"kind", GR_TK_KIND}, {"priority", GR_TK_PRIORITY}, {"family", GR_TK_FAMILY}, {"from", GR_TK_FROM},
  {"sha256", GR_TK_SHA256}, {"input", GR_TK_INPUT}, {"output", GR_TK_OUTPUT},
};
#define NKEYWORDS (sizeof keywords / sizeof *keywords)

static const struct { const char *text; int code; } puncts[] = {
  {"{", GR_TK_LBRACE}, {"}", GR_TK_RBRACE}, {"(", GR_TK_LPAREN}, {")", GR_TK_RPAREN},
  {"[", GR_TK_LBRACKET}, {"]", GR_TK_RBRACKET}, {";", GR_TK_SEMI}, {",", GR_TK_COMMA},
  {":", GR_TK_COLON}, {".", GR_TK_DOT}, {"..", GR_TK_DOTDOT}, {">", GR_TK_GT},
  {"=", GR_TK_ASSIGN}, {"==", GR_TK_EQ}, {"!=", GR_TK_NE}, {"<", GR_TK_LT},
  {"<=", GR_TK_LE}, {">=", GR_TK_GE}, {"@", GR_TK_AT},
};
#define NPUNCTS (sizeof puncts / sizeof *puncts)

static const char *tkname(int code){
  static char other[32];
  static const struct { const char *name; int code; } names[] = {
    {"EOF", 0}, {"BAD_CHAR", GR_LEX_BAD_CHAR}, {"BAD_STRING", GR_LEX_BAD_STRING},
    {"BAD_PATTERN", GR_LEX_BAD_PATTERN}, {"BAD_ESCAPE", GR_LEX_BAD_ESCAPE},
    {"ID", GR_TK_ID}, {"INT", GR_TK_INT}, {"VERNUM", GR_TK_VERNUM}, {"STRING", GR_TK_STRING}, {"REGEX", GR_TK_REGEX},
    {"LBRACE", GR_TK_LBRACE}, {"RBRACE", GR_TK_RBRACE}, {"LPAREN", GR_TK_LPAREN},
    {"RPAREN", GR_TK_RPAREN}, {"LBRACKET", GR_TK_LBRACKET}, {"RBRACKET", GR_TK_RBRACKET},
    {"SEMI", GR_TK_SEMI}, {"COMMA", GR_TK_COMMA}, {"COLON", GR_TK_COLON}, {"DOT", GR_TK_DOT},
    {"DOTDOT", GR_TK_DOTDOT}, {"GT", GR_TK_GT}, {"ASSIGN", GR_TK_ASSIGN}, {"EQ", GR_TK_EQ},
    {"NE", GR_TK_NE}, {"LT", GR_TK_LT}, {"LE", GR_TK_LE}, {"GE", GR_TK_GE}, {"AT", GR_TK_AT},
  };
  size_t i, k;
  for(i = 0; i < sizeof names / sizeof *names; i++) if( names[i].code==code ) return names[i].name;
  for(i = 0; i < NKEYWORDS; i++){
    if( keywords[i].code==code ){
      for(k = 0; keywords[i].word[k] && k < sizeof other - 1; k++) other[k] = (char)(keywords[i].word[k] - 32*(keywords[i].word[k]>='a'));
      other[k] = 0;
      return other;
    }
  }
  snprintf(other, sizeof other, "?%d", code);
  return other;
}

static void test_keywords(void){
  size_t i;
  size_t bad = 0, badid = 0, badcaps = 0;
  char name[64];
  for(i = 0; i < NKEYWORDS; i++){
    gr_token t;
    char buf[64];
    int code = lex1(keywords[i].word, &t);
    if( code!=keywords[i].code || t.n!=strlen(keywords[i].word) ){
      bad++;
      diag("keyword '%s' lexed as %d (n=%u), expected %d", keywords[i].word, code, t.n, keywords[i].code);
    }
    /* longest match: a keyword followed by identifier characters is an identifier */
    snprintf(buf, sizeof buf, "%s_x", keywords[i].word);
    if( lex1(buf, &t)!=GR_TK_ID || t.n!=strlen(buf) ){ badid++; diag("'%s' is not one identifier", buf); }
    /* keywords are case-sensitive */
    snprintf(buf, sizeof buf, "%s", keywords[i].word);
    buf[0] = (char)(buf[0] - 'a' + 'A');
    if( lex1(buf, &t)!=GR_TK_ID ){ badcaps++; diag("'%s' is not an identifier", buf); }
  }
  snprintf(name, sizeof name, "all %zu keywords of the language lex as their own token", NKEYWORDS);
  is(bad, 0, name);
  is(NKEYWORDS, 86, "the keyword table covers the 86 keywords of doc/rule-language.md section 1");
  is(badid, 0, "a keyword followed by identifier characters is one identifier (longest match)");
  is(badcaps, 0, "keywords are case-sensitive: a capitalised keyword is an identifier");
}

static void test_identifiers(void){
  gr_token t;
  is(lex1("rules", &t), GR_TK_ID, "'rules' is an identifier, not 'rule' + 's'");
  is(t.n, 5, "... of length 5");
  is(lex1("inx", &t), GR_TK_ID, "'inx' is an identifier, not 'in'");
  is(lex1("notin", &t), GR_TK_ID, "'notin' is an identifier");
  is(lex1("_private9", &t), GR_TK_ID, "identifiers may start with '_' and hold digits");
  is(len1("_private9"), 9, "... the whole word is one token");
  is(lex1("x9y", &t), GR_TK_ID, "'x9y' is an identifier");
  is_str(LEXALL("ini initial include in"), "INI:1:1:ini INITIAL:1:5:initial INCLUDE:1:13:include IN:1:21:in EOF:1:23",
         "ini / initial / include / in are told apart by longest match");
  is_str(LEXALL("node.type"), "NODE:1:1:node DOT:1:5:. TYPE:1:6:type EOF:1:10",
         "node.type lexes as keyword, dot, keyword (the grammar falls back to ID)");
  is_str(LEXALL("9abc"), "INT:1:1:9 ID:1:2:abc EOF:1:5", "a digit cannot start an identifier: '9abc' is INT then ID");
}

static void test_strings(void){
  gr_token t;
  is(lex1("\"hello world\"", &t), GR_TK_STRING, "a plain string");
  is(t.n, 13, "a string token includes its quotes");
  is(lex1("\"\"", &t), GR_TK_STRING, "the empty string");
  is(lex1("\"a\\\"b\"", &t), GR_TK_STRING, "escape \\\" inside a string");
  is(t.n, 6, "... does not end the string");
  is(lex1("\"a\\\\\"", &t), GR_TK_STRING, "escape \\\\ inside a string (and the quote after it ends it)");
  is(t.n, 5, "... length 5");
  is(lex1("\"a\\nb\"", &t), GR_TK_STRING, "escape \\n inside a string");
  is(lex1("\"a\\tb\"", &t), GR_TK_STRING, "escape \\t inside a string");
  is(lex1("\"{x} # not a comment\"", &t), GR_TK_STRING, "'#' inside a string is not a comment");
  is(t.n, 21, "... the string runs to its closing quote");
  is(lex1("\"caf\xc3\xa9\"", &t), GR_TK_STRING, "UTF-8 bytes inside a string");

  /* bad escapes: the token is the two-byte escape, located at the backslash */
  is(lex1("  \"ab\\q\"", &t), GR_LEX_BAD_ESCAPE, "unknown escape \\q is GR_LEX_BAD_ESCAPE");
  is(t.col, 6, "... located at the backslash (column 6)");
  is(t.n, 2, "... the token is the two bytes of the escape");
  ok(t.n==2 && memcmp(t.z, "\\q", 2)==0, "... and points at '\\q'");
  is(lex1("\"\\/\"", &t), GR_LEX_BAD_ESCAPE, "\\/ is a pattern escape, not a string escape");
  is(lex1("\"ok\\n\\x41\"", &t), GR_LEX_BAD_ESCAPE, "a bad escape after a good one is found");
  is(t.col, 6, "... at its own column");

  /* unterminated strings */
  is(lex1("\"abc", &t), GR_LEX_BAD_STRING, "a string without its closing quote is GR_LEX_BAD_STRING");
  is(t.col, 1, "... located at the opening quote");
  is(t.n, 4, "... spanning the rest of the input");
  is(lex1("\"abc\ndef\"", &t), GR_LEX_BAD_STRING, "a raw newline inside a string is GR_LEX_BAD_STRING");
  is(t.n, 4, "... the token stops before the newline");
  is(lex1("\"abc\\\nd\"", &t), GR_LEX_BAD_STRING, "a backslash before a newline does not continue the string");
  is(lex1("\"abc\\", &t), GR_LEX_BAD_STRING, "a string ending in a lone backslash is unterminated");
}

static void test_integers(void){
  gr_token t;
  is(lex1("42", &t), GR_TK_INT, "decimal integer");
  is(lex1("196_608", &t), GR_TK_INT, "decimal with '_' separators");
  is(t.n, 7, "... one token");
  is(lex1("0x1F", &t), GR_TK_INT, "hex integer");
  is(t.n, 4, "... one token of 4 bytes");
  is(lex1("0XdeadBEEF", &t), GR_TK_INT, "hex with 0X and mixed case");
  is(t.n, 10, "... one token");
  is(lex1("0x_ff_ff", &t), GR_TK_INT, "hex with separators");
  is(t.n, 8, "... one token");
  is(lex1("-5", &t), GR_TK_INT, "a negative decimal is one INT token");
  is(t.n, 2, "... including its '-'");
  is(lex1("-0x10", &t), GR_TK_INT, "a negative hex is one INT token");
  is(t.n, 5, "... of 5 bytes");
  is_str(LEXALL("0..7"), "INT:1:1:0 DOTDOT:1:2:.. INT:1:4:7 EOF:1:5", "'0..7' is INT DOTDOT INT");
  is_str(LEXALL("1 .. -3"), "INT:1:1:1 DOTDOT:1:3:.. INT:1:6:-3 EOF:1:8", "a range with a negative bound");
  is_str(LEXALL(">= 1.1, <2.0.0-rc.1+b7"), "GE:1:1:>= VERNUM:1:4:1.1 COMMA:1:7:, LT:1:9:< VERNUM:1:10:2.0.0-rc.1+b7 EOF:1:23",
         "versions of an extends range are VERNUM tokens, pre-release and build included");
  is_str(LEXALL("1.2..3"), "VERNUM:1:1:1.2 DOTDOT:1:4:.. INT:1:6:3 EOF:1:7", "'1.2..3' is a version, then '..'");
  is_str(LEXALL("0xg"), "INT:1:1:0 ID:1:2:xg EOF:1:4", "'0x' without a hex digit is INT 0 then an identifier");
  is(lex1("-", &t), GR_LEX_BAD_CHAR, "a lone '-' is a bad character");
  is(lex1("- 5", &t), GR_LEX_BAD_CHAR, "'-' separated from its digits is a bad character");
}

static void test_patterns(void){
  gr_token t;
  is(lex1("/Ascend910B[1-4]/", &t), GR_TK_REGEX, "a /pattern/");
  is(t.n, 17, "... includes both slashes");
  is(lex1("/a\\/b/", &t), GR_TK_REGEX, "\\/ inside a pattern does not end it");
  is(t.n, 6, "... the pattern is 6 bytes long");
  is(lex1("/a\\.b\\d/", &t), GR_TK_REGEX, "other backslash escapes are kept in a pattern");
  is(lex1("/abc", &t), GR_LEX_BAD_PATTERN, "a pattern without its closing slash is GR_LEX_BAD_PATTERN");
  is(t.n, 4, "... spanning the rest of the line");
  is(lex1("/ab\nc/", &t), GR_LEX_BAD_PATTERN, "a newline inside a pattern ends it unterminated");
  is(t.n, 3, "... the token stops before the newline");
  is_str(LEXALL("/a/b/"), "REGEX:1:1:/a/ ID:1:4:b BAD_PATTERN:1:5:/", "'/a/b/' is a pattern, an identifier, then an unterminated pattern");
}

static void test_comments_and_space(void){
  is_str(LEXALL("# a comment\nrule"), "RULE:2:1:rule EOF:2:5", "a comment runs to the end of its line");
  is_str(LEXALL("x # trailing \"not a string\n y"), "ID:1:1:x ID:2:2:y EOF:2:3", "a comment after a token; strings inside comments are ignored");
  is_str(LEXALL("#"), "EOF:1:2", "a file that is only '#' has no token");
  is_str(LEXALL("a#b\nc"), "ID:1:1:a ID:2:1:c EOF:2:2", "a comment may follow a token without a space");
  is_str(LEXALL(" \t\r\f\v"), "EOF:1:6", "blanks, tabs, CR, FF and VT are white space");
  is_str(LEXALL(""), "EOF:1:1", "empty input is end of input at 1:1");
}

static void test_punctuation(void){
  size_t i, bad = 0;
  gr_token t;
  for(i = 0; i < NPUNCTS; i++){
    int code = lex1(puncts[i].text, &t);
    if( code!=puncts[i].code || t.n!=strlen(puncts[i].text) ){
      bad++;
      diag("'%s' lexed as %d (n=%u), expected %d", puncts[i].text, code, t.n, puncts[i].code);
    }
  }
  is(bad, 0, "every punctuation token of the language lexes to its own code");
  is_str(LEXALL("a<=b>=c==d!=e<f>g=h"),
         "ID:1:1:a LE:1:2:<= ID:1:4:b GE:1:5:>= ID:1:7:c EQ:1:8:== ID:1:10:d NE:1:11:!= ID:1:13:e LT:1:14:< ID:1:15:f GT:1:16:> ID:1:17:g ASSIGN:1:18:= ID:1:19:h EOF:1:20",
         "two-character operators win over one-character ones (longest match)");
  is_str(LEXALL("..."), "DOTDOT:1:1:.. DOT:1:3:. EOF:1:4", "'...' is DOTDOT then DOT");
  is_str(LEXALL("==="), "EQ:1:1:== ASSIGN:1:3:= EOF:1:4", "'===' is EQ then ASSIGN");
  is(lex1("!", &t), GR_LEX_BAD_CHAR, "a lone '!' is a bad character");
  is(lex1("$", &t), GR_LEX_BAD_CHAR, "'$' is a bad character");
  is(t.n, 1, "... a bad character token is one byte");
  is_str(LEXALL("(@0:1, 2) 8..18"), "LPAREN:1:1:( AT:1:2:@ INT:1:3:0 COLON:1:4:: INT:1:5:1 COMMA:1:6:, INT:1:8:2 RPAREN:1:9:) INT:1:11:8 DOTDOT:1:12:.. INT:1:14:18 EOF:1:16",
         "an onnx input list and an opset range");
  is(lex1("'x'", &t), GR_LEX_BAD_CHAR, "single quotes do not make a string");
  is(lex1("\xc3\xa9t\xc3\xa9", &t), GR_LEX_BAD_CHAR, "a non-ASCII byte outside a string is a bad character");
}

static void test_positions(void){
  static const char crlf[] = "a\r\nb";
  is_str(LEXALL("rule x\n  when y"), "RULE:1:1:rule ID:1:6:x WHEN:2:3:when ID:2:8:y EOF:2:9", "line and column across a newline");
  is_str(LEXALL("\tx\n\t\ty"), "ID:1:2:x ID:2:3:y EOF:2:4", "a tab counts as one byte of column");
  is_str(lexall(crlf, sizeof crlf - 1), "ID:1:1:a ID:2:1:b EOF:2:2", "CRLF line ends: CR is white space, LF starts a line");
  is_str(LEXALL("\n\n\n   z"), "ID:4:4:z EOF:4:5", "empty lines are counted");
  is_str(LEXALL("# c1\n# c2\nq"), "ID:3:1:q EOF:3:2", "comment lines are counted");
  is_str(LEXALL("\"a\" \"b\"\n\"c\""), "STRING:1:1:\"a\" STRING:1:5:\"b\" STRING:2:1:\"c\" EOF:2:4", "columns after strings");
  is_str(LEXALL("x \"unterminated\ny"), "ID:1:1:x BAD_STRING:1:3:\"unterminated", "an unterminated string stops the token stream");
  is_str(LEXALL("caf\xc3\xa9"), "ID:1:1:caf BAD_CHAR:1:4:\xc3", "columns count bytes: the bad UTF-8 byte is at column 4");
}

static void test_nul(void){
  static const char buf[] = "ab\0cd";   /* 5 bytes, sentinel at buf[5] */
  static const char buf2[] = "x\n\0";
  gr_lexer lx;
  gr_token t;
  int c;
  gr_lex_init(&lx, buf, sizeof buf - 1);
  c = gr_lex(&lx, &t);
  is(c, GR_TK_ID, "the identifier before an embedded NUL");
  is(t.n, 2, "... stops at the NUL");
  c = gr_lex(&lx, &t);
  is(c, GR_LEX_BAD_CHAR, "an embedded NUL is a bad character, not the end of input");
  is(t.col, 3, "... located at column 3");
  ok(t.n==1 && t.z[0]==0, "... the token is the NUL byte");
  c = gr_lex(&lx, &t);
  is(c, GR_TK_ID, "lexing can continue after the NUL");
  c = gr_lex(&lx, &t);
  is(c, 0, "the real end of input follows");
  is(gr_lex(&lx, &t), 0, "the end of input is returned again when asked again");
  is_str(lexall(buf2, sizeof buf2 - 1), "ID:1:1:x BAD_CHAR:2:1:", "a NUL at the start of a line is at column 1 of that line");
  is_str(lexall("\"a\0b\"", 5), "BAD_STRING:1:1:\"a", "... GR_LEX_BAD_STRING at the opening quote");
  is_str(lexall("/a\0/", 4), "BAD_PATTERN:1:1:/a", "a NUL inside a pattern makes it unterminated");
}

static void test_unescape(void){
  struct { const char *in; const char *out; const char *name; } cases[] = {
    { "plain", "plain", "unescape: no escapes" },
    { "a\\nb", "a\nb", "unescape: \\n is a newline" },
    { "a\\tb", "a\tb", "unescape: \\t is a tab" },
    { "say \\\"hi\\\"", "say \"hi\"", "unescape: \\\" is a quote" },
    { "c:\\\\dir", "c:\\dir", "unescape: \\\\ is one backslash" },
    { "\\\\n", "\\n", "unescape: \\\\n is a backslash then 'n' (escapes do not chain)" },
    { "", "", "unescape: the empty string" },
    { "end\\", "end\\", "unescape: a trailing lone backslash is kept" },
  };
  size_t i;
  for(i = 0; i < sizeof cases / sizeof *cases; i++){
    char *s = gr_lex_unescape(cases[i].in, strlen(cases[i].in));
    is_str(s, cases[i].out, cases[i].name);
    free(s);
  }
  {
    char *s = gr_lex_unescape("abcdef", 3);
    is_str(s, "abc", "unescape: only n bytes are read");
    free(s);
  }
}

/* token_names.c spells every token the lexer makes for messages ("expected
** ';'"): each keyword and punctuation spelling lexes back to its token, the
** classes are phrases, and only the driver's own tokens have none. */
static void test_spellings(void){
  int code, bad = 0, missing = 0, cls;
  for(code = 1; code <= GR_TK_ENTRY_POINT; code++){
    const char *s = gr_token_spelling(code, &cls);
    gr_lexer lx;
    gr_token t;
    if( s==NULL ){
      if( code!=GR_TK_TEMPLATE && code!=GR_TK_OPBODY && code!=GR_TK_LAZYOPS ){ diag("token %d has no spelling", code); missing++; }
      continue;
    }
    if( cls ) continue;
    gr_lex_init(&lx, s, strlen(s));
    if( gr_lex(&lx, &t)!=code || t.n!=strlen(s) ){ diag("'%s' does not lex back to token %d", s, code); bad++; }
  }
  ok(missing==0, "every token the lexer makes has a spelling for messages");
  ok(bad==0, "every keyword and punctuation spelling lexes back to its own token");
  is_str(gr_token_spelling(GR_TK_ID, &cls), "a name", "a name is spelled as a class");
  ok(cls==1, "... and flagged as one");
  ok(gr_token_spelling(0, NULL)==NULL && gr_token_spelling(GR_TK_ENTRY_POINT + 1, NULL)==NULL, "out-of-range codes have none");
}

int main(void){
  test_keywords();
  test_spellings();
  test_identifiers();
  test_strings();
  test_integers();
  test_patterns();
  test_comments_and_space();
  test_punctuation();
  test_positions();
  test_nul();
  test_unescape();
  return done_testing();
}
