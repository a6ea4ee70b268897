/*
** token_names.c: how a token of the rule language is spelled in a message
** ("expected ';'", "expected 'then'"): the inverse of lexer.re for keywords
** and punctuation, a description for the tokens that stand for a class of
** lexemes (a name, a string, a number). t0001-lexer checks that lexing each
** spelling gives its token back, so the table cannot drift from the lexer.
*/
#include "config.h"
#include "lang/lexer.h"
#include "rules.h"

static const char *const spelling[] = {
  [GR_TK_ID] = "a name", [GR_TK_STRING] = "a string", [GR_TK_INT] = "a number",
  [GR_TK_VERNUM] = "a version number", [GR_TK_REGEX] = "a /pattern/",
  [GR_TK_ALL] = "all", [GR_TK_ALIAS] = "alias", [GR_TK_BECAUSE] = "because", [GR_TK_BUNDLE] = "bundle",
  [GR_TK_CANN] = "cann", [GR_TK_CAPABILITY] = "capability", [GR_TK_CAPS] = "caps", [GR_TK_CASCADE] = "cascade",
  [GR_TK_COLUMN] = "column", [GR_TK_CONFLICTS] = "conflicts", [GR_TK_DEFAULT] = "default", [GR_TK_DEPRECATED] = "deprecated",
  [GR_TK_DESCRIPTION] = "description", [GR_TK_EACH] = "each", [GR_TK_ENTRIES] = "entries", [GR_TK_ERROR] = "error",
  [GR_TK_EXCEPT] = "except", [GR_TK_EXCLUSIVE] = "exclusive", [GR_TK_FOR] = "for", [GR_TK_FORMAT] = "format",
  [GR_TK_GRAPH] = "graph", [GR_TK_HARDWARE] = "hardware", [GR_TK_HOOK] = "hook", [GR_TK_INCLUDE] = "include",
  [GR_TK_INI] = "ini", [GR_TK_INITIAL] = "initial", [GR_TK_KEY] = "key", [GR_TK_MATCHES] = "matches",
  [GR_TK_MODE] = "mode", [GR_TK_NEEDS] = "needs", [GR_TK_NOTE] = "note", [GR_TK_ON] = "on", [GR_TK_ONCE] = "once",
  [GR_TK_OVER] = "over", [GR_TK_PATTERN] = "pattern", [GR_TK_PRODUCT] = "product", [GR_TK_RANGE] = "range",
  [GR_TK_REQUIRES] = "requires", [GR_TK_RULE] = "rule", [GR_TK_OVERRIDE] = "override", [GR_TK_EXTEND] = "extend",
  [GR_TK_EXTENDS] = "extends", [GR_TK_REPLACE] = "replace", [GR_TK_PARTITION] = "partition", [GR_TK_SEED] = "seed",
  [GR_TK_NEUTRAL] = "neutral", [GR_TK_LIMIT] = "limit", [GR_TK_SUBGRAPH] = "subgraph", [GR_TK_GROUP] = "group",
  [GR_TK_THRESHOLD] = "threshold", [GR_TK_WEAK] = "weak", [GR_TK_SECTION] = "section",
  [GR_TK_REJECTED] = "rejected", [GR_TK_ELSEWHERE] = "elsewhere",
  [GR_TK_SEPARATOR] = "separator", [GR_TK_SET] = "set", [GR_TK_SLOT] = "slot", [GR_TK_SOC] = "soc",
  [GR_TK_SOURCE] = "source", [GR_TK_SUPPORTED] = "supported", [GR_TK_TABLE] = "table", [GR_TK_THEN] = "then",
  [GR_TK_TYPE] = "type", [GR_TK_UNSUPPORTED] = "unsupported", [GR_TK_VALUE] = "value", [GR_TK_GE_CODE] = "ge_code",
  [GR_TK_VALUES] = "values", [GR_TK_VERSION] = "version", [GR_TK_WARNING] = "warning", [GR_TK_WHEN] = "when",
  [GR_TK_NO] = "no", [GR_TK_EFFECT] = "effect", [GR_TK_ONNX] = "onnx", [GR_TK_OPSET] = "opset",
  [GR_TK_BECOMES] = "becomes", [GR_TK_LEN] = "len", [GR_TK_CONDITION] = "condition", [GR_TK_OPLIB] = "oplib",
  [GR_TK_DTYPES] = "dtypes", [GR_TK_OP] = "op", [GR_TK_ENGINE] = "engine", [GR_TK_KIND] = "kind",
  [GR_TK_PRIORITY] = "priority", [GR_TK_FAMILY] = "family", [GR_TK_FROM] = "from", [GR_TK_SHA256] = "sha256",
  [GR_TK_INPUT] = "input", [GR_TK_OUTPUT] = "output", [GR_TK_OR] = "or", [GR_TK_AND] = "and", [GR_TK_NOT] = "not",
  [GR_TK_IN] = "in", [GR_TK_HAS] = "has", [GR_TK_SUPPORTS] = "supports", [GR_TK_OPTION] = "option",
  [GR_TK_NODE] = "node", [GR_TK_ENTRY] = "entry", [GR_TK_CHIP] = "chip", [GR_TK_ANY] = "any", [GR_TK_TRUE] = "true",
  [GR_TK_FALSE] = "false", [GR_TK_NULL] = "null", [GR_TK_RUN_MODE] = "run_mode", [GR_TK_ENTRY_POINT] = "entry_point",
  [GR_TK_COLON] = ":", [GR_TK_EQ] = "==", [GR_TK_NE] = "!=", [GR_TK_LT] = "<", [GR_TK_LE] = "<=", [GR_TK_GT] = ">",
  [GR_TK_GE] = ">=", [GR_TK_ASSIGN] = "=", [GR_TK_DOT] = ".", [GR_TK_LBRACKET] = "[", [GR_TK_RBRACKET] = "]",
  [GR_TK_LBRACE] = "{", [GR_TK_RBRACE] = "}", [GR_TK_SEMI] = ";", [GR_TK_LPAREN] = "(", [GR_TK_RPAREN] = ")",
  [GR_TK_COMMA] = ",", [GR_TK_DOTDOT] = "..", [GR_TK_AT] = "@", [GR_TK_YIELDS] = "yields",
  [GR_TK_PLUS] = "+", [GR_TK_PERCENT] = "%",
  /* GR_TK_TEMPLATE, GR_TK_OPBODY and GR_TK_LAZYOPS are made by parse.c, never written */
};

const char *gr_token_spelling(int code, int *is_class){
  const char *s = code > 0 && (size_t)code < sizeof spelling / sizeof spelling[0] ? spelling[code] : NULL;
  if( is_class ) *is_class = s && s[0]=='a' && s[1]==' ';
  return s;
}
