/*
** rules.y: the lemon grammar of the gerules rule language. It turns the
** token stream of lexer.re into the syntax tree of ast.h: statements
** (gr_item) with nested block items and expression trees (gr_expr). Block
** contents are accepted generically here and the checker says which items
** belong in which block, which gives better messages than a syntax error.
** The first syntax error is final (YYNOERRORRECOVERY, as SQLite does); the
** destructors free every partial tree left on the stack.
*/

%include {
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The driver's tracing hooks and invariant asserts are for debugging lemon
** itself (gerules never calls grParserTrace); as in SQLite's release
** builds they are compiled out, except in the sanitizer and fuzzing builds
** (GR_PARSER_ASSERTS). Measured reason: with them, every shift called
** yyTraceShift, 4% of the instructions of loading a rule set of 10,000
** extra rules (callgrind). */
#if !defined(NDEBUG) && !defined(GR_PARSER_ASSERTS)
# define NDEBUG 1
#endif
#include <assert.h>
#include "lang/ast.h"
#define YYNOERRORRECOVERY 1
#define LOC(t) gr_tok_loc(ps->file, (t))

/* Builders shared by the actions below. */
static gr_item *mk(gr_parse *ps, int kind, gr_token k){ return gr_item_new(kind, LOC(k)); }
static char *sbody(gr_token t){ return gr_lex_unescape(t.z + 1, t.n - 2); }
static char *rbody(gr_token t){ return gr_xstrndup(t.z + 1, t.n - 2); }
static char *regex_body(gr_token t){
  /* drop the backslash of \/ ; keep every other escape for regcomp */
  char *out = gr_xmalloc(t.n), *o = out;
  uint32_t i;
  for(i = 1; i + 1 < t.n; i++){
    if( t.z[i]=='\\' && t.z[i+1]=='/' && i + 2 < t.n ){ *o++ = '/'; i++; }
    else *o++ = t.z[i];
  }
  *o = 0;
  return out;
}
static int64_t int_value(gr_parse *ps, gr_token t){
  const char *p = t.z, *e = t.z + t.n;
  int neg = 0, base = 10;
  uint64_t v = 0;
  if( p < e && *p=='-' ){ neg = 1; p++; }
  if( e - p > 2 && p[0]=='0' && (p[1]=='x' || p[1]=='X') ){ base = 16; p += 2; }
  for(; p < e; p++){
    int d;
    if( *p=='_' ) continue;
    d = (*p >= '0' && *p <= '9') ? *p - '0' : ((*p | 32) - 'a' + 10);
    if( v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base || v*base + (uint64_t)d > (uint64_t)INT64_MAX ){
      gr_parse_error(ps, LOC(t), "integer '%.*s' is out of range", (int)t.n, t.z);
      return 0;
    }
    v = v * (uint64_t)base + (uint64_t)d;
  }
  return neg ? -(int64_t)v : (int64_t)v;
}
static gr_name *name_of_id(gr_parse *ps, gr_token t){ return gr_name_new(gr_tok_str(t), LOC(t)); }
static gr_name *name_of_str(gr_parse *ps, gr_token t){ return gr_name_new(sbody(t), LOC(t)); }
static gr_expr *bin(gr_parse *ps, int op, gr_token k, gr_expr *a, gr_expr *b){
  gr_expr *e = gr_expr_new(op, a ? a->loc : LOC(k));
  e->a = a; e->b = b;
  e->sloc = LOC(k);             /* the operator, for messages about it */
  return gr_expr_deep(ps, e);
}
static int vop_code(gr_token t){
  return t.z[0]=='=' ? GR_E_EQ : t.z[0]=='>' ? (t.n==2 ? GR_E_GE : GR_E_GT) : (t.n==2 ? GR_E_LE : GR_E_LT);
}
/* a tensor of an op or of a dtypes block: name = tensor name, names = its
** parameter word, str = dtype list, str2 = format list */
static gr_item *tensor(gr_parse *ps, int kind, gr_token k, gr_token n, const gr_token *param,
                       const gr_token *dtypes, const gr_token *formats){
  gr_item *it = gr_item_new(kind, LOC(k));
  it->name = sbody(n); it->name_loc = LOC(n);
  if( param ) it->names = name_of_id(ps, *param);
  if( dtypes ){ it->str = sbody(*dtypes); it->str_loc = LOC(*dtypes); }
  if( formats ){ it->str2 = sbody(*formats); it->str2_loc = LOC(*formats); }
  return it;
}
static void set_ge_code(gr_parse *ps, gr_item *it, gr_token s){
  if( s.z ){ it->ge_code = sbody(s); it->ge_code_loc = LOC(s); }
}
static void set_diag(gr_parse *ps, gr_item *it, int sev, gr_token code, gr_token tmpl, const gr_token *once){
  it->flag3 = sev;
  it->code = gr_tok_str(code); it->code_loc = LOC(code);
  it->str = sbody(tmpl); it->raw = rbody(tmpl); it->str_loc = LOC(tmpl);
  if( once ){ it->lo = 1; it->once_loc = LOC(*once); }
}
}

%name grParser
%token_prefix GR_TK_
%token_type {gr_token}
%default_type {gr_token}
%extra_argument {gr_parse *ps}
%stack_size 1000

%syntax_error {
  char want[160];
  (void)yymajor;
  gr_parse_expected(ps, yypParser, TOKEN, want, sizeof want);
  if( TOKEN.n==1 && TOKEN.z[0]=='=' && TOKEN.z[1]=='>' )
    /* the arrow of the string rows onnx mappings were once written in */
    gr_parse_error(ps, LOC(TOKEN), "syntax error near '=>': the rule language has no '=>'; an onnx row reads "
                   "'opset A..B [when CONDITION] becomes IR, ...;'");
  else if( TOKEN.n ) gr_parse_error(ps, LOC(TOKEN), "syntax error near '%.*s'%s", (int)TOKEN.n, TOKEN.z, want);
  else gr_parse_error(ps, gr_parse_eof_loc(ps), "unexpected end of input%s", want);
}

/* What the parser would have taken instead of the token it choked on, for
** the message ("expected ';'"). Each terminal is tried on a copy of the
** parser's state stack, replaying lemon's own reduce loop (its tables,
** default reductions and keyword fallbacks included) until the token is
** shifted or refused. As with bison's expected-token lists without LAC, a
** default reduction the bad token already caused can have narrowed the
** list (after `"a": "b"` in a table, ',' is no longer offered), but every
** token listed would have been taken. Runs once per failed parse, never on
** the success path. */
%code {
static int would_shift(const yyParser *p, YYCODETYPE tok){
  YYACTIONTYPE st[YYSTACKDEPTH + 1];
  int top = (int)(p->yytos - p->yystack), i, steps;
  YYACTIONTYPE act;
  for(i = 0; i <= top; i++) st[i] = p->yystack[i].stateno;
  act = st[top];
  for(steps = 0; steps < 10000; steps++){
    act = yy_find_shift_action(tok, act);
    if( act >= YY_MIN_REDUCE ){
      unsigned rule = act - YY_MIN_REDUCE;
      top += yyRuleInfoNRhs[rule] + 1;           /* pop the right side, push the left */
      if( top < 1 || top > YYSTACKDEPTH ) return 0;
      act = yy_find_reduce_action(st[top - 1], yyRuleInfoLhs[rule]);
      st[top] = act;
    }else return act <= YY_MAX_SHIFTREDUCE || act==YY_ACCEPT_ACTION;
  }
  return 0;
}

void gr_parser_expected(void *parser, char *out, size_t n){
  const yyParser *p = parser;
  const char *w[8];
  int k = 0, t, cls, name_ok = would_shift(p, GR_TK_ID);
  size_t o = 0;
  out[0] = 0;
  for(t = 1; t < YYNTOKEN; t++){
    const char *s = gr_token_spelling(t, &cls);
    if( s==NULL || !would_shift(p, (YYCODETYPE)t) ) continue;
    if( t!=GR_TK_ID && name_ok && yyFallback[t]==GR_TK_ID && !cls ) continue;   /* a keyword taken as a name */
    if( k==8 ) return;                           /* too many to help: say nothing */
    w[k++] = s;
  }
  for(t = 0; t < k; t++){
    int quote = !(w[t][0]=='a' && w[t][1]==' ');
    const char *sep = t==0 ? (k > 2 ? ": expected one of " : ": expected ") : t==k - 1 ? " or " : ", ";
    o += (size_t)snprintf(out + o, n - o, "%s%s%s%s", sep, quote ? "'" : "", w[t], quote ? "'" : "");
    if( o >= n ){ out[0] = 0; return; }
  }
}
}
%stack_overflow {
  gr_parse_error(ps, ps->tok_loc, "nested too deeply (the parser holds at most 1000 open constructs)");
}

/* Keywords that may also serve as identifiers (a field called `type`, a
** source called `default`...). Expression words are not in this list. */
%fallback ID ALL ALIAS BECAUSE BUNDLE CANN CAPABILITY CAPS CASCADE COLUMN CONFLICTS DEFAULT
  DEPRECATED DESCRIPTION EACH ENTRIES ERROR EXCEPT EXCLUSIVE FOR FORMAT GRAPH HARDWARE HOOK INCLUDE
  INI INITIAL KEY MATCHES MODE NEEDS NOTE ON ONCE OVER PATTERN PRODUCT RANGE REQUIRES RULE
  OVERRIDE EXTEND EXTENDS REPLACE PARTITION SEED NEUTRAL LIMIT SUBGRAPH GROUP THRESHOLD WEAK
  SECTION SEPARATOR SET SLOT SOC SOURCE SUPPORTED TABLE THEN TYPE UNSUPPORTED VALUE GE_CODE
  VALUES VERSION WARNING WHEN NO EFFECT ONNX OPSET BECOMES YIELDS LEN CONDITION
  OPLIB DTYPES OP ENGINE KIND PRIORITY FAMILY FROM SHA256 INPUT OUTPUT REJECTED ELSEWHERE.

%right COLON.
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE IN HAS SUPPORTS ASSIGN.
%left PLUS.
%left PERCENT.
%left DOT LBRACKET.

input ::= stmts.
input ::= TEMPLATE expr(E). { ps->template_expr = E; }
/* one op of an op library, parsed on its first lookup (src/lang/oplib.c) */
input ::= OPBODY item(I). { ps->op_item = I; }

stmts ::= .
stmts ::= stmts stmt(S). { *ps->tail = S; ps->tail = &S->next; }

%type stmt {gr_item*}
%destructor stmt { (void)ps; gr_item_free($$); }

stmt(A) ::= BUNDLE(K) STRING(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_BUNDLE, K); A->name = sbody(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
/* layers: a later bundle changes an earlier one's declaration only explicitly */
stmt(A) ::= OVERRIDE(K) stmt(S).  { A = S; A->mod = GR_MOD_OVERRIDE; A->mod_loc = LOC(K); }
stmt(A) ::= EXTEND(K) stmt(S).    { A = S; A->mod = GR_MOD_EXTEND; A->mod_loc = LOC(K); }
stmt(A) ::= REPLACE(K) stmt(S).   { A = S; A->mod = GR_MOD_REPLACE; A->mod_loc = LOC(K); }
stmt(A) ::= OVERRIDE(K) SOC(X) STRING(S) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_SOC, X); A->str = sbody(S); A->str_loc = LOC(S); A->items = gr_item_reverse(L);
    A->mod = GR_MOD_OVERRIDE; A->mod_loc = LOC(K); }
/* a product line grows without being restated: new SoCs and caps, no title */
stmt(A) ::= EXTEND(K) PRODUCT(X) ID(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_PRODUCT, X); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L);
    A->mod = GR_MOD_EXTEND; A->mod_loc = LOC(K); }
stmt(A) ::= INCLUDE(K) STRING(N) SEMI.
  { A = mk(ps, GR_I_INCLUDE, K); A->str = sbody(N); A->str_loc = LOC(N); }
stmt(A) ::= CAPABILITY(K) ID(N) STRING(D) SEMI.
  { A = mk(ps, GR_I_CAPABILITY, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->str = sbody(D); A->str_loc = LOC(D); }
stmt(A) ::= HARDWARE(K) ID(N) STRING(D) SEMI.
  { A = mk(ps, GR_I_HARDWARE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->str = sbody(D); A->str_loc = LOC(D); }
stmt(A) ::= PRODUCT(K) ID(N) STRING(T) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_PRODUCT, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->str = sbody(T); A->str_loc = LOC(T); A->items = gr_item_reverse(L); }
stmt(A) ::= OPTION(K) ID(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_OPTION, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
stmt(A) ::= MODE(K) ID(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_MODE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
stmt(A) ::= TABLE(K) ID(N) LBRACE tentries(L) RBRACE.
  { A = mk(ps, GR_I_TABLE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
stmt(A) ::= TABLE(K) ID(N) STRING(D) LBRACE tentries(L) RBRACE.
  { A = mk(ps, GR_I_TABLE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->str = sbody(D); A->str_loc = LOC(D); A->items = gr_item_reverse(L); }
/* `table NAME ["DESC"] fold lower|upper { ... }`: `in` folds the letter case
** of the value it looks up (section 6 of doc/rule-language.md); the two words
** are kept as names and checked by the checker (do_table) */
stmt(A) ::= TABLE(K) ID(N) ID(F) ID(C) LBRACE tentries(L) RBRACE.
  { A = mk(ps, GR_I_TABLE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L);
    A->names = gr_name_new(gr_tok_str(F), LOC(F)); A->names->next = gr_name_new(gr_tok_str(C), LOC(C)); }
stmt(A) ::= TABLE(K) ID(N) STRING(D) ID(F) ID(C) LBRACE tentries(L) RBRACE.
  { A = mk(ps, GR_I_TABLE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->str = sbody(D); A->str_loc = LOC(D); A->items = gr_item_reverse(L);
    A->names = gr_name_new(gr_tok_str(F), LOC(F)); A->names->next = gr_name_new(gr_tok_str(C), LOC(C)); }
stmt(A) ::= SLOT(K) ID(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_SLOT, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
/* `partition NAME { seed ...; neutral ...; limit ...; }`: a graph clustering
** whose per-node outcome reads as partition(NAME).FIELD */
stmt(A) ::= PARTITION(K) ID(N) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_PARTITION, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
/* `onnx "domain::op_type" { opset 8..18 [when COND] becomes IR, ...; ... }`:
** how GE's ONNX parser maps an ONNX op (section 6.1 of doc/rule-language.md);
** the rows are items, each with its opsets in items2 and its IR ops in items */
stmt(A) ::= ONNX(K) STRING(N) LBRACE orows(L) RBRACE.
  { A = mk(ps, GR_I_ONNX, K); A->name = sbody(N); A->name_loc = LOC(N); A->items = gr_item_reverse(L); }
/* `condition NAME(P, ...) = EXPR;`: a named condition, inlined by the
** checker at every call NAME(ARG, ...) (check_cond.c); names: the parameters */
stmt(A) ::= CONDITION(K) ID(N) LPAREN RPAREN ASSIGN expr(E) SEMI.
  { A = mk(ps, GR_I_CONDITION, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->e = E; }
stmt(A) ::= CONDITION(K) ID(N) LPAREN idlist(P) RPAREN ASSIGN expr(E) SEMI.
  { A = mk(ps, GR_I_CONDITION, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->names = gr_name_reverse(P); A->e = E; }
/* the op information library (doc/rule-language.md, "Op information library"):
** a store of ops, and hand-kept dtype columns for one op of a store */
stmt(A) ::= OPLIB(K) ID(N) STRING(D) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_OPLIB, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->str = sbody(D); A->str_loc = LOC(D);
    A->items = gr_item_reverse(L); }
/* several stores (`dtypes S1, S2 "Op" ...`): the same block for each; name
** is the first, names all of them */
stmt(A) ::= DTYPES(K) idlist(S) STRING(T) FROM STRING(F) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_DTYPES, K); A->names = gr_name_reverse(S); A->name = gr_xstrdup(A->names->s); A->name_loc = A->names->loc;
    A->str = sbody(T); A->str_loc = LOC(T); A->str2 = sbody(F); A->str2_loc = LOC(F); A->items = gr_item_reverse(L); }
/* a conditional block: the first of an op's blocks whose condition holds for
** the node gives its lists (doc/rule-language.md 6.5) */
stmt(A) ::= DTYPES(K) idlist(S) STRING(T) FROM STRING(F) WHEN expr(C) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_DTYPES, K); A->names = gr_name_reverse(S); A->name = gr_xstrdup(A->names->s); A->name_loc = A->names->loc;
    A->str = sbody(T); A->str_loc = LOC(T); A->str2 = sbody(F); A->str2_loc = LOC(F); A->e = C; A->items = gr_item_reverse(L); }
stmt(A) ::= SOURCE(K) ID(N) FOR ID(S) branch(B) SEMI.
  { A = mk(ps, GR_I_SOURCE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->names = name_of_id(ps, S); A->items = B; }
stmt(A) ::= SOURCE(K) ID(N) FOR ID(S) LBRACE branches(L) RBRACE.
  { A = mk(ps, GR_I_SOURCE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->names = name_of_id(ps, S); A->items = gr_item_reverse(L); }
stmt(A) ::= CASCADE(K) ID(S) COLON chain(C) SEMI.
  { A = mk(ps, GR_I_CASCADE, K); A->name = gr_tok_str(S); A->name_loc = LOC(S); A->names = gr_name_reverse(C); }
stmt(A) ::= RULE(K) ID(N) scope(SC) WHEN expr(C) THEN action(X) SEMI.
  { A = X; A->kind = GR_I_RULE; A->loc = LOC(K); A->name = gr_tok_str(N); A->name_loc = LOC(N);
    A->flag = SC; A->e = C; }
stmt(A) ::= EXCLUSIVE(K) ID(N) OVER idlist(L) THEN diag(X) SEMI.
  { A = X; A->kind = GR_I_EXCLUSIVE; A->loc = LOC(K); A->names = name_of_id(ps, N); A->names2 = gr_name_reverse(L); }
stmt(A) ::= REQUIRES(K) ID(N) NEEDS idlist(L) THEN diag(X) SEMI.
  { A = X; A->kind = GR_I_REQUIRES; A->loc = LOC(K); A->names = name_of_id(ps, N); A->names2 = gr_name_reverse(L); }
stmt(A) ::= CONFLICTS(K) idlist(L) THEN diag(X) SEMI.
  { A = X; A->kind = GR_I_CONFLICTS; A->loc = LOC(K); A->names = gr_name_reverse(L); }

%type scope {int}
scope(A) ::= .                  { A = GR_SCOPE_GLOBAL; }
scope(A) ::= FOR EACH NODE.     { A = GR_SCOPE_NODE; }
scope(A) ::= FOR EACH OPTION.   { A = GR_SCOPE_OPTION; }
scope(A) ::= FOR EACH ENTRY.    { A = GR_SCOPE_ENTRY; }
/* `for each refusal` is spelt with an identifier, not a keyword, so that no
** rule file using the word as a name breaks; any other word is an error the
** checker reports at the rule */
scope(A) ::= FOR EACH ID(W).
  { A = (W.n==7 && memcmp(W.z, "refusal", 7)==0) ? GR_SCOPE_REFUSAL : GR_SCOPE_BAD;
    if( A==GR_SCOPE_BAD )
      gr_parse_error(ps, LOC(W), "syntax error near '%.*s': expected one of 'option', 'node', 'entry' or 'refusal'", (int)W.n, W.z); }

%type action {gr_item*}
%destructor action { (void)ps; gr_item_free($$); }
action(A) ::= diag(A).
action(A) ::= SET(K) ID(S) ASSIGN expr(V).
  { A = mk(ps, GR_I_RULE, K); A->flag2 = GR_ACT_SET; A->names = name_of_id(ps, S); A->e2 = V; }
action(A) ::= SET(K) ID(S) ASSIGN expr(V) BECAUSE STRING(T).
  { A = mk(ps, GR_I_RULE, K); A->flag2 = GR_ACT_SET; A->names = name_of_id(ps, S); A->e2 = V;
    A->str2 = sbody(T); A->raw2 = rbody(T); A->str2_loc = LOC(T); }

%type diag {gr_item*}
%destructor diag { (void)ps; gr_item_free($$); }
diag(A) ::= sev(S) ID(C) gecode(G) STRING(T).
  { A = gr_item_new(GR_I_RULE, LOC(C)); set_diag(ps, A, S, C, T, NULL); set_ge_code(ps, A, G); }
diag(A) ::= sev(S) ID(C) gecode(G) STRING(T) ONCE(O).
  { A = gr_item_new(GR_I_RULE, LOC(C)); set_diag(ps, A, S, C, T, &O); set_ge_code(ps, A, G); }

/* `ge_code "E10006"`: the error code GE itself raises for this diagnostic */
gecode(A) ::= .                    { A.z = NULL; A.n = 0; }
gecode(A) ::= GE_CODE STRING(S).   { A = S; }

%type sev {int}
sev(A) ::= ERROR.    { A = GR_SEV_ERROR; }
sev(A) ::= WARNING.  { A = GR_SEV_WARNING; }
sev(A) ::= NOTE.     { A = GR_SEV_NOTE; }

%type chain {gr_name*}
%destructor chain { (void)ps; gr_name_free($$); }
chain(A) ::= ID(N).                 { A = name_of_id(ps, N); }
chain(A) ::= chain(B) GT ID(N).     { A = name_of_id(ps, N); A->next = B; }

%type idlist {gr_name*}
%destructor idlist { (void)ps; gr_name_free($$); }
idlist(A) ::= ID(N).                    { A = name_of_id(ps, N); }
idlist(A) ::= idlist(B) COMMA ID(N).    { A = name_of_id(ps, N); A->next = B; }

%type strlist {gr_name*}
%destructor strlist { (void)ps; gr_name_free($$); }
strlist(A) ::= STRING(N).                   { A = name_of_str(ps, N); }
strlist(A) ::= strlist(B) COMMA STRING(N).  { A = name_of_str(ps, N); A->next = B; }

/* ---- block items (reversed while parsing, put back in order by the block) ---- */
%type items {gr_item*}
%destructor items { (void)ps; gr_item_free($$); }
items(A) ::= .                  { A = NULL; }
items(A) ::= items(B) item(C).  { C->next = B; A = C; }

%type item {gr_item*}
%destructor item { (void)ps; gr_item_free($$); }
item(A) ::= DESCRIPTION(K) STRING(S) SEMI.  { A = mk(ps, GR_I_DESCRIPTION, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= VERSION(K) STRING(S) SEMI.      { A = mk(ps, GR_I_VERSION, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= EXTENDS(K) STRING(N) SEMI.
  { A = mk(ps, GR_I_EXTENDS, K); A->name = sbody(N); A->name_loc = LOC(N); }
item(A) ::= EXTENDS(K) STRING(N) vrange(R) SEMI.
  { A = mk(ps, GR_I_EXTENDS, K); A->name = sbody(N); A->name_loc = LOC(N); A->items = gr_item_reverse(R); A->str_loc = A->items->loc; }
/* the range as a string, as before the range was grammar: the checker says how to write it */
item(A) ::= EXTENDS(K) STRING(N) STRING(R) SEMI.
  { A = mk(ps, GR_I_EXTENDS, K); A->name = sbody(N); A->name_loc = LOC(N); A->str = sbody(R); A->str_loc = LOC(R); A->flag = 1; }
/* a version range: comparisons separated by commas, `>= 1.1, < 2`; each is
** an item (flag: the GR_E_* comparison, str: the version as written) */
%type vrange {gr_item*}
%destructor vrange { (void)ps; gr_item_free($$); }
vrange(A) ::= vcmp(C).                    { A = C; }
vrange(A) ::= vrange(B) COMMA vcmp(C).    { A = C; C->next = B; }
%type vcmp {gr_item*}
%destructor vcmp { (void)ps; gr_item_free($$); }
vcmp(A) ::= vop(O) vnum(V).               { A = gr_item_new(GR_I_VERSION, LOC(O)); A->flag = vop_code(O); A->str = gr_xstrndup(V.z, V.n); A->str_loc = LOC(V); }
vcmp(A) ::= vnum(V).                      { A = gr_item_new(GR_I_VERSION, LOC(V)); A->flag = GR_E_EQ; A->str = gr_xstrndup(V.z, V.n); A->str_loc = LOC(V); }
vop(A) ::= GE(T).     { A = T; }
vop(A) ::= GT(T).     { A = T; }
vop(A) ::= LE(T).     { A = T; }
vop(A) ::= LT(T).     { A = T; }
vop(A) ::= EQ(T).     { A = T; }
vnum(A) ::= VERNUM(T). { A = T; }
vnum(A) ::= INT(T).    { A = T; }
item(A) ::= CANN(K) STRING(S) SEMI.         { A = mk(ps, GR_I_CANN, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= HOOK(K) STRING(S) SEMI.         { A = mk(ps, GR_I_HOOK, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= CAPS(K) idlist(L) SEMI.         { A = mk(ps, GR_I_CAPS, K); A->names = gr_name_reverse(L); }
item(A) ::= SOC(K) STRING(S) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_SOC, K); A->str = sbody(S); A->str_loc = LOC(S); A->items = gr_item_reverse(L); }
item(A) ::= SOC(K) REGEX(S) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_SOC, K); A->str = regex_body(S); A->str_loc = LOC(S); A->flag = 1; A->items = gr_item_reverse(L); }
item(A) ::= ID(N) INT(V) SEMI.
  { A = mk(ps, GR_I_HWVAL, N); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->lo = int_value(ps, V); A->str_loc = LOC(V); }
item(A) ::= KEY(K) STRING(S) SEMI.          { A = mk(ps, GR_I_KEY, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= COLUMN(K) STRING(S) SEMI.       { A = mk(ps, GR_I_COLUMN, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= ALIAS(K) strlist(L) SEMI.       { A = mk(ps, GR_I_ALIAS, K); A->names = gr_name_reverse(L); }
item(A) ::= TYPE(K) ID(N) SEMI.             { A = mk(ps, GR_I_TYPE, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); }
item(A) ::= VALUES(K) strlist(L) SEMI.      { A = mk(ps, GR_I_VALUES, K); A->names = gr_name_reverse(L); }
item(A) ::= VALUES(K) MODE SEMI.            { A = mk(ps, GR_I_VALUES_MODE, K); }
item(A) ::= RANGE(K) INT(LO) DOTDOT INT(HI) SEMI.
  { A = mk(ps, GR_I_RANGE, K); A->lo = int_value(ps, LO); A->hi = int_value(ps, HI); A->str_loc = LOC(LO); }
item(A) ::= PATTERN(K) REGEX(S) SEMI.       { A = mk(ps, GR_I_PATTERN, K); A->str = regex_body(S); A->str_loc = LOC(S); }
item(A) ::= SEPARATOR(K) STRING(S) SEMI.    { A = mk(ps, GR_I_SEPARATOR, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= DEFAULT(K) expr(E) SEMI.        { A = mk(ps, GR_I_DEFAULT, K); A->e2 = E; }
item(A) ::= DEFAULT(K) expr(E) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_DEFAULT, K); A->e2 = E; A->e = C; }
item(A) ::= SUPPORTED(K) ON idlist(L) SEMI. { A = mk(ps, GR_I_SUPPORT, K); A->flag = GR_SUP_LIST; A->names = gr_name_reverse(L); }
item(A) ::= SUPPORTED(K) ON ALL SEMI.       { A = mk(ps, GR_I_SUPPORT, K); A->flag = GR_SUP_ALL; }
item(A) ::= SUPPORTED(K) ON ALL EXCEPT idlist(L) SEMI.
  { A = mk(ps, GR_I_SUPPORT, K); A->flag = GR_SUP_ALL_EXCEPT; A->names = gr_name_reverse(L); }
item(A) ::= UNSUPPORTED(K) STRING(S) SEMI.
  { A = mk(ps, GR_I_SUPPORT, K); A->flag = GR_SUP_NONE; A->str = sbody(S); A->str_loc = LOC(S); }
/* `rejected elsewhere;` in an option's value block: GE refuses the value on
** a product line outside the block's `supported on` list */
item(A) ::= REJECTED(K) ELSEWHERE SEMI.     { A = mk(ps, GR_I_REJECTED, K); }
item(A) ::= VALUE(K) strlist(L) LBRACE items(I) RBRACE.
  { A = mk(ps, GR_I_VALUE_BLOCK, K); A->names = gr_name_reverse(L); A->items = gr_item_reverse(I); }
item(A) ::= DEPRECATED(K) STRING(S) SEMI.   { A = mk(ps, GR_I_DEPRECATED, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= FORMAT(K) ID(N) LBRACE items(I) RBRACE.
  { A = mk(ps, GR_I_FORMAT, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->items = gr_item_reverse(I); }
item(A) ::= SECTION(K) ID(N) MATCHES expr(E) SEMI.
  { A = mk(ps, GR_I_SECTION, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->e = E; }
item(A) ::= INITIAL(K) ID(N) SEMI.          { A = mk(ps, GR_I_INITIAL, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); }
item(A) ::= SEED(K) ID(N) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_SEED, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->e = C; }
item(A) ::= NEUTRAL(K) WHEN expr(C) SEMI.   { A = mk(ps, GR_I_NEUTRAL, K); A->e = C; }
/* `subgraph seed NAME;`, `subgraph dynamic when C;`, `subgraph inherit when C;`
** (the word after `subgraph` is checked by the checker), `group EXPR;`,
** `threshold EXPR [when C];` (doc/rule-language.md 7.2) */
item(A) ::= WEAK(K) SEED ID(N) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_SEED, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); A->e = C; A->flag = 1; }
item(A) ::= SUBGRAPH(K) SEED ID(N) SEMI.
  { A = mk(ps, GR_I_SUBSEED, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); }
item(A) ::= SUBGRAPH(K) ID(W) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_SUBGRAPH, K); A->name = gr_tok_str(W); A->name_loc = LOC(W); A->e = C; }
item(A) ::= GROUP(K) expr(E) SEMI.          { A = mk(ps, GR_I_GROUP, K); A->e2 = E; }
item(A) ::= THRESHOLD(K) expr(E) SEMI.      { A = mk(ps, GR_I_THRESHOLD, K); A->e2 = E; }
item(A) ::= THRESHOLD(K) expr(E) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_THRESHOLD, K); A->e2 = E; A->e = C; }
item(A) ::= LIMIT(K) expr(E) SEMI.          { A = mk(ps, GR_I_LIMIT, K); A->e2 = E; }
item(A) ::= LIMIT(K) expr(E) WHEN expr(C) SEMI.
  { A = mk(ps, GR_I_LIMIT, K); A->e2 = E; A->e = C; }
item(A) ::= ENTRIES(K) MODE SEMI.           { A = mk(ps, GR_I_ENTRIES_MODE, K); }
item(A) ::= ENTRIES(K) strlist(L) SEMI.     { A = mk(ps, GR_I_ENTRIES, K); A->names = gr_name_reverse(L); }
/* in a slot: `no effect when COND because "why";` (the decided value does not take effect) */
item(A) ::= NO(K) EFFECT WHEN expr(C) BECAUSE STRING(T) SEMI.
  { A = mk(ps, GR_I_NOEFFECT, K); A->e = C; A->str2 = sbody(T); A->raw2 = rbody(T); A->str2_loc = LOC(T); }

/* in an oplib block and its ops (check_oplib.c says which item goes where) */
item(A) ::= ENGINE(K) STRING(S) SEMI.        { A = mk(ps, GR_I_OL_ENGINE, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= KIND(K) ID(N) SEMI.              { A = mk(ps, GR_I_OL_KIND, K); A->name = gr_tok_str(N); A->name_loc = LOC(N); }
item(A) ::= PRIORITY(K) INT(V) SEMI.         { A = mk(ps, GR_I_OL_PRIORITY, K); A->lo = int_value(ps, V); A->str_loc = LOC(V); }
item(A) ::= FAMILY(K) strlist(L) SEMI.       { A = mk(ps, GR_I_OL_FAMILY, K); A->names = gr_name_reverse(L); }
item(A) ::= FROM(K) STRING(S) SEMI.          { A = mk(ps, GR_I_OL_FROM, K); A->str = sbody(S); A->str_loc = LOC(S); }
item(A) ::= FROM(K) STRING(S) SHA256 STRING(H) SEMI.
  { A = mk(ps, GR_I_OL_FROM, K); A->str = sbody(S); A->str_loc = LOC(S); A->str2 = sbody(H); A->str2_loc = LOC(H); }
item(A) ::= OP(K) STRING(N) words(W) LBRACE items(L) RBRACE.
  { A = mk(ps, GR_I_OL_OP, K); A->name = sbody(N); A->name_loc = LOC(N); A->names = gr_name_reverse(W); A->items = gr_item_reverse(L); }
/* the ops of a big file, skipped by the driver (parse.c): indexed and parsed on use (oplib.c) */
item(A) ::= LAZYOPS(T).                      { A = gr_oplib_lazy_ops(ps, T); }
/* a tensor: `input "x" required ["dtypes" [format "formats"]];` in an op,
** `input "x" "dtypes" [format "formats"];` in a dtypes block */
item(A) ::= INPUT(K) STRING(N) ID(P) SEMI.   { A = tensor(ps, GR_I_OL_INPUT, K, N, &P, NULL, NULL); }
item(A) ::= INPUT(K) STRING(N) ID(P) STRING(D) SEMI.   { A = tensor(ps, GR_I_OL_INPUT, K, N, &P, &D, NULL); }
item(A) ::= INPUT(K) STRING(N) ID(P) STRING(D) FORMAT STRING(F) SEMI.   { A = tensor(ps, GR_I_OL_INPUT, K, N, &P, &D, &F); }
item(A) ::= INPUT(K) STRING(N) STRING(D) SEMI.   { A = tensor(ps, GR_I_OL_INPUT, K, N, NULL, &D, NULL); }
item(A) ::= INPUT(K) STRING(N) STRING(D) FORMAT STRING(F) SEMI.   { A = tensor(ps, GR_I_OL_INPUT, K, N, NULL, &D, &F); }
item(A) ::= OUTPUT(K) STRING(N) ID(P) SEMI.  { A = tensor(ps, GR_I_OL_OUTPUT, K, N, &P, NULL, NULL); }
item(A) ::= OUTPUT(K) STRING(N) ID(P) STRING(D) SEMI.   { A = tensor(ps, GR_I_OL_OUTPUT, K, N, &P, &D, NULL); }
item(A) ::= OUTPUT(K) STRING(N) ID(P) STRING(D) FORMAT STRING(F) SEMI.   { A = tensor(ps, GR_I_OL_OUTPUT, K, N, &P, &D, &F); }
item(A) ::= OUTPUT(K) STRING(N) STRING(D) SEMI.   { A = tensor(ps, GR_I_OL_OUTPUT, K, N, NULL, &D, NULL); }
item(A) ::= OUTPUT(K) STRING(N) STRING(D) FORMAT STRING(F) SEMI.   { A = tensor(ps, GR_I_OL_OUTPUT, K, N, NULL, &D, &F); }

%type words {gr_name*}
%destructor words { (void)ps; gr_name_free($$); }
words(A) ::= .                  { A = NULL; }
words(A) ::= words(B) ID(W).    { A = name_of_id(ps, W); A->next = B; }

/* ---- table entries ---- */
%type tentries {gr_item*}
%destructor tentries { (void)ps; gr_item_free($$); }
tentries(A) ::= .                   { A = NULL; }
tentries(A) ::= tlist(A).
tentries(A) ::= tlist(A) COMMA.

%type tlist {gr_item*}
%destructor tlist { (void)ps; gr_item_free($$); }
tlist(A) ::= tentry(A).
tlist(A) ::= tlist(B) COMMA tentry(C).  { C->next = B; A = C; }

%type tentry {gr_item*}
%destructor tentry { (void)ps; gr_item_free($$); }
tentry(A) ::= STRING(S).
  { A = mk(ps, GR_I_TENTRY, S); A->str = sbody(S); A->str_loc = LOC(S); }
tentry(A) ::= STRING(S) COLON expr(E).
  { A = mk(ps, GR_I_TENTRY, S); A->str = sbody(S); A->str_loc = LOC(S); A->e2 = E; }

/* ---- onnx mapping rows ---- */
%type orows {gr_item*}
%destructor orows { (void)ps; gr_item_free($$); }
orows(A) ::= .                    { A = NULL; }
orows(A) ::= orows(B) orow(C).    { C->next = B; A = C; }

/* a row: flag 1 when it has a condition (e); str_loc is where `becomes` is;
** items the IR ops, items3 the `yields` list */
%type orow {gr_item*}
%destructor orow { (void)ps; gr_item_free($$); }
orow(A) ::= orowh(A) irops(I) oyields(Y) SEMI.
  { A->items = gr_item_reverse(I); A->items3 = Y; }
/* `... becomes IR "_SUB" @P, ... in N;`: a ParseOpToGraphFn plugin whose
** subgraph has N nodes (Data included): flag2 1, hi = N, str2_loc at N */
orow(A) ::= orowh(A) irops(I) oyields(Y) IN INT(N) SEMI.
  { A->items = gr_item_reverse(I); A->items3 = Y; A->flag2 = 1; A->hi = int_value(ps, N); A->str2_loc = LOC(N); }
%type orowh {gr_item*}
%destructor orowh { (void)ps; gr_item_free($$); }
orowh(A) ::= OPSET(K) opsets(O) BECOMES(B).
  { A = mk(ps, GR_I_ONNX_ROW, K); A->items2 = gr_item_reverse(O); A->str_loc = LOC(B); }
orowh(A) ::= OPSET(K) opsets(O) WHEN expr(C) BECOMES(B).
  { A = mk(ps, GR_I_ONNX_ROW, K); A->items2 = gr_item_reverse(O); A->e = C; A->flag = 1; A->str_loc = LOC(B); }
/* `yields (@K[:J], ...)`: the ONNX node's outputs, in order, as outputs of
** the row's IR ops (Unique's plugin gives them from two ops); without it
** the row's last op gives them. The list's items are irin's. */
%type oyields {gr_item*}
%destructor oyields { (void)ps; gr_item_free($$); }
oyields(A) ::= .                                   { A = NULL; }
oyields(A) ::= YIELDS LPAREN irinl(L) RPAREN.      { A = gr_item_reverse(L); }

/* opsets: versions and ranges, `1, 8..12`; each a GR_I_RANGE item (lo, hi) */
%type opsets {gr_item*}
%destructor opsets { (void)ps; gr_item_free($$); }
opsets(A) ::= oset(A).
opsets(A) ::= opsets(B) COMMA oset(C).    { C->next = B; A = C; }
%type oset {gr_item*}
%destructor oset { (void)ps; gr_item_free($$); }
oset(A) ::= INT(V).
  { A = mk(ps, GR_I_RANGE, V); A->lo = A->hi = int_value(ps, V); A->str_loc = LOC(V); }
oset(A) ::= INT(V) DOTDOT INT(W).
  { A = mk(ps, GR_I_RANGE, V); A->lo = int_value(ps, V); A->hi = int_value(ps, W); A->str_loc = LOC(W); }

/* the IR ops (empty: the checker says so); each a GR_I_ONNX_IR item: name the
** type, str the suffix, flag 1 with an input list (items) */
%type irops {gr_item*}
%destructor irops { (void)ps; gr_item_free($$); }
irops(A) ::= .                       { A = NULL; }
irops(A) ::= irlist(A).
%type irlist {gr_item*}
%destructor irlist { (void)ps; gr_item_free($$); }
irlist(A) ::= irop(A).
irlist(A) ::= irlist(B) COMMA irop(C).   { C->next = B; A = C; }
/* an IR op, then what a row fixes of its output (`Const "_data1" @3 ()
** output "float32" []`: the dtype and shape the plugin's TensorDesc gives a
** Const it creates): GR_I_ONNX_OUT items in items2, in source order */
%type irop {gr_item*}
%destructor irop { (void)ps; gr_item_free($$); }
irop(A) ::= irop0(A).
irop(A) ::= irop0(B) irouts(O).      { B->items2 = gr_item_reverse(O); A = B; }
/* `output DT` [ `[` [ N ( `,` N )* ] `]` ]: DT (irdt) the dtype; flag 1 with
** a shape, its dims GR_I_RANGE items (lo) in items; str2_loc at `[` */
%type irouts {gr_item*}
%destructor irouts { (void)ps; gr_item_free($$); }
irouts(A) ::= irout(A).
irouts(A) ::= irouts(B) irout(C).    { C->next = B; A = C; }
%type irout {gr_item*}
%destructor irout { (void)ps; gr_item_free($$); }
irout(A) ::= irdt(A).
irout(A) ::= irdt(A) LBRACKET(L) RBRACKET.          { A->flag = 1; A->str2_loc = LOC(L); }
irout(A) ::= irdt(A) LBRACKET(L) irdims(D) RBRACKET.
  { A->flag = 1; A->str2_loc = LOC(L); A->items = gr_item_reverse(D); }
/* the dtype: `output "DTYPE"` (str), or `output node.attr["A"] default
** "DTYPE"`, the dtype of the ONNX node's tensor attribute A, DTYPE without
** it: flag2 1, name the field after `node.` (the checker wants `attr`), str2
** the attribute; or `output node.attr["A"] default input N`, input N's
** dtype without it: flag2 2, lo = N, str NULL, str_loc at N; or `output
** input N`, input N's dtype: the same without name and str2 */
%type irdt {gr_item*}
%destructor irdt { (void)ps; gr_item_free($$); }
irdt(A) ::= OUTPUT(K) STRING(S).
  { A = mk(ps, GR_I_ONNX_OUT, K); A->str = sbody(S); A->str_loc = LOC(S); }
irdt(A) ::= OUTPUT(K) NODE DOT ID(F) LBRACKET STRING(N) RBRACKET DEFAULT STRING(S).
  { A = mk(ps, GR_I_ONNX_OUT, K); A->str = sbody(S); A->str_loc = LOC(S); A->flag2 = 1;
    A->name = gr_tok_str(F); A->name_loc = LOC(F); A->str2 = sbody(N); A->code_loc = LOC(N); }
irdt(A) ::= OUTPUT(K) INPUT INT(X).
  { A = mk(ps, GR_I_ONNX_OUT, K); A->str_loc = LOC(X); A->flag2 = 2; A->lo = int_value(ps, X); }
irdt(A) ::= OUTPUT(K) NODE DOT ID(F) LBRACKET STRING(N) RBRACKET DEFAULT INPUT INT(X).
  { A = mk(ps, GR_I_ONNX_OUT, K); A->str_loc = LOC(X); A->flag2 = 2; A->lo = int_value(ps, X);
    A->name = gr_tok_str(F); A->name_loc = LOC(F); A->str2 = sbody(N); A->code_loc = LOC(N); }
%type irdims {gr_item*}
%destructor irdims { (void)ps; gr_item_free($$); }
irdims(A) ::= irdim(A).
irdims(A) ::= irdims(B) COMMA irdim(C).  { C->next = B; A = C; }
%type irdim {gr_item*}
%destructor irdim { (void)ps; gr_item_free($$); }
irdim(A) ::= INT(N).
  { A = mk(ps, GR_I_RANGE, N); A->lo = int_value(ps, N); A->str_loc = LOC(N); }
%type irop0 {gr_item*}
%destructor irop0 { (void)ps; gr_item_free($$); }
irop0(A) ::= ID(T).
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); }
irop0(A) ::= ID(T) STRING(S).
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); A->str = sbody(S); A->str_loc = LOC(S); }
irop0(A) ::= ID(T) LPAREN irins(I) RPAREN.
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); A->flag = 1; A->items = gr_item_reverse(I); }
irop0(A) ::= ID(T) STRING(S) LPAREN irins(I) RPAREN.
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); A->str = sbody(S); A->str_loc = LOC(S);
    A->flag = 1; A->items = gr_item_reverse(I); }
/* `IR "_SUB" @P`: the op's place P (from 0) in the order GE's graph builder
** adds the plugin's subgraph nodes: flag2 1, lo = P, str2_loc at P */
irop0(A) ::= ID(T) STRING(S) AT INT(P).
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); A->str = sbody(S); A->str_loc = LOC(S);
    A->flag2 = 1; A->lo = int_value(ps, P); A->str2_loc = LOC(P); }
irop0(A) ::= ID(T) STRING(S) AT INT(P) LPAREN irins(I) RPAREN.
  { A = mk(ps, GR_I_ONNX_IR, T); A->name = gr_tok_str(T); A->name_loc = LOC(T); A->str = sbody(S); A->str_loc = LOC(S);
    A->flag = 1; A->items = gr_item_reverse(I); A->flag2 = 1; A->lo = int_value(ps, P); A->str2_loc = LOC(P); }
/* inputs: N (the ONNX node's input N) or @K[:J] (output J of the row's K-th
** IR op); GR_I_ONNX_IN items: flag 1 for @K, lo = N or K, hi = J */
%type irins {gr_item*}
%destructor irins { (void)ps; gr_item_free($$); }
irins(A) ::= .                       { A = NULL; }
irins(A) ::= irinl(A).
%type irinl {gr_item*}
%destructor irinl { (void)ps; gr_item_free($$); }
irinl(A) ::= irin(A).
irinl(A) ::= irinl(B) COMMA irin(C).     { C->next = B; A = C; }
%type irin {gr_item*}
%destructor irin { (void)ps; gr_item_free($$); }
irin(A) ::= INT(N).
  { A = mk(ps, GR_I_ONNX_IN, N); A->lo = int_value(ps, N); A->str_loc = LOC(N); }
irin(A) ::= AT(K) INT(N).
  { A = mk(ps, GR_I_ONNX_IN, K); A->flag = 1; A->lo = int_value(ps, N); A->str_loc = LOC(N); }
irin(A) ::= AT(K) INT(N) COLON INT(J).
  { A = mk(ps, GR_I_ONNX_IN, K); A->flag = 1; A->lo = int_value(ps, N); A->hi = int_value(ps, J); A->str_loc = LOC(N);
    A->name_loc = LOC(J); }

/* ---- source branches ---- */
%type branch {gr_item*}
%destructor branch { (void)ps; gr_item_free($$); }
branch(A) ::= WHEN(K) expr(C) VALUE expr(V).
  { A = mk(ps, GR_I_BRANCH, K); A->e = C; A->e2 = V; }
branch(A) ::= WHEN(K) expr(C) VALUE expr(V) BECAUSE STRING(T).
  { A = mk(ps, GR_I_BRANCH, K); A->e = C; A->e2 = V; A->str2 = sbody(T); A->raw2 = rbody(T); A->str2_loc = LOC(T); }

%type branches {gr_item*}
%destructor branches { (void)ps; gr_item_free($$); }
branches(A) ::= branch(A) SEMI.
branches(A) ::= branches(B) branch(C) SEMI.  { C->next = B; A = C; }

/* ---- expressions ---- */
%type expr {gr_expr*}
%destructor expr { (void)ps; gr_expr_free($$); }
%type elist {gr_expr*}
%destructor elist { (void)ps; gr_expr_free($$); }

expr(A) ::= expr(B) OR(K) expr(C).       { A = bin(ps, GR_E_OR, K, B, C); }
expr(A) ::= expr(B) AND(K) expr(C).      { A = bin(ps, GR_E_AND, K, B, C); }
expr(A) ::= NOT(K) expr(B).              { A = gr_expr_new(GR_E_NOT, LOC(K)); A->a = B; A = gr_expr_deep(ps, A); }
expr(A) ::= expr(B) EQ(K) expr(C).       { A = bin(ps, GR_E_EQ, K, B, C); }
expr(A) ::= expr(B) NE(K) expr(C).       { A = bin(ps, GR_E_NE, K, B, C); }
expr(A) ::= expr(B) LT(K) expr(C).       { A = bin(ps, GR_E_LT, K, B, C); }
expr(A) ::= expr(B) LE(K) expr(C).       { A = bin(ps, GR_E_LE, K, B, C); }
expr(A) ::= expr(B) GT(K) expr(C).       { A = bin(ps, GR_E_GT, K, B, C); }
expr(A) ::= expr(B) GE(K) expr(C).       { A = bin(ps, GR_E_GE, K, B, C); }
expr(A) ::= expr(B) IN(K) expr(C).       { A = bin(ps, GR_E_IN, K, B, C); }
expr(A) ::= expr(B) NOT(K) IN expr(C). [IN] { A = bin(ps, GR_E_NOTIN, K, B, C); }
expr(A) ::= expr(B) PLUS(K) expr(C).     { A = bin(ps, GR_E_ADD, K, B, C); }
expr(A) ::= expr(B) PERCENT(K) expr(C).  { A = bin(ps, GR_E_MOD, K, B, C); }
expr(A) ::= CHIP(K) HAS ID(N).
  { A = gr_expr_new(GR_E_HAS, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= CHIP(K) SUPPORTS ID(N).
  { A = gr_expr_new(GR_E_SUPPORTS, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= CHIP(K) SUPPORTS ID(N) ASSIGN expr(V).
  { A = gr_expr_new(GR_E_SUPPORTS, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N); A->a = V; A = gr_expr_deep(ps, A); }
expr(A) ::= CHIP(K) SUPPORTS MODE expr(V). [SUPPORTS]
  { A = gr_expr_new(GR_E_SUPPORTS_MODE, LOC(K)); A->a = V; A = gr_expr_deep(ps, A); }
expr(A) ::= OPTION(K) ID(N) SET.
  { A = gr_expr_new(GR_E_OPTSET, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= ANY(K) ID(V) IN expr(L) COLON expr(B). [COLON]
  { A = gr_expr_new(GR_E_ANY, LOC(K)); A->s = gr_tok_str(V); A->sloc = LOC(V); A->a = L; A->b = B; A = gr_expr_deep(ps, A); }
expr(A) ::= ALL(K) ID(V) IN expr(L) COLON expr(B). [COLON]
  { A = gr_expr_new(GR_E_ALL, LOC(K)); A->s = gr_tok_str(V); A->sloc = LOC(V); A->a = L; A->b = B; A = gr_expr_deep(ps, A); }

expr(A) ::= STRING(S).     { A = gr_expr_new(GR_E_STR, LOC(S)); A->s = sbody(S); }
expr(A) ::= INT(I).        { A = gr_expr_new(GR_E_INT, LOC(I)); A->i = int_value(ps, I); }
expr(A) ::= TRUE(K).       { A = gr_expr_new(GR_E_BOOL, LOC(K)); A->i = 1; }
expr(A) ::= FALSE(K).      { A = gr_expr_new(GR_E_BOOL, LOC(K)); A->i = 0; }
expr(A) ::= NULL(K).       { A = gr_expr_new(GR_E_NULL, LOC(K)); }
expr(A) ::= LBRACKET(K) RBRACKET.            { A = gr_expr_new(GR_E_LIST, LOC(K)); }
expr(A) ::= LBRACKET(K) elist(E) RBRACKET.
  { gr_expr *x, *rev = NULL, *nx;
    for(x = E; x; x = nx){ nx = x->next; x->next = rev; rev = x; }
    A = gr_expr_new(GR_E_LIST, LOC(K)); A->a = rev; A = gr_expr_deep(ps, A); }
expr(A) ::= LPAREN expr(B) RPAREN.           { A = B; }
expr(A) ::= OPTION(K) ID(N).
  { A = gr_expr_new(GR_E_OPTION, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= OPTION(K).     { A = gr_expr_new(GR_E_OPTSCOPE, LOC(K)); }
expr(A) ::= RUN_MODE(K).   { A = gr_expr_new(GR_E_RUNMODE, LOC(K)); }
expr(A) ::= ENTRY_POINT(K). { A = gr_expr_new(GR_E_ENTRYPOINT, LOC(K)); }
expr(A) ::= CHIP(K).       { A = gr_expr_new(GR_E_CHIP, LOC(K)); }
expr(A) ::= NODE(K).       { A = gr_expr_new(GR_E_NODE, LOC(K)); }
expr(A) ::= GRAPH(K).      { A = gr_expr_new(GR_E_GRAPH, LOC(K)); }
expr(A) ::= ENTRY(K).      { A = gr_expr_new(GR_E_ENTRY, LOC(K)); }
expr(A) ::= ID(N).         { A = gr_expr_new(GR_E_NAME, LOC(N)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= expr(B) DOT ID(F).
  { A = gr_expr_new(GR_E_FIELD, B->loc); A->a = B; A->s = gr_tok_str(F); A->sloc = LOC(F); A = gr_expr_deep(ps, A); }
expr(A) ::= expr(B) DOT OPTION(F).
  { A = gr_expr_new(GR_E_FIELD, B->loc); A->a = B; A->s = gr_tok_str(F); A->sloc = LOC(F); A = gr_expr_deep(ps, A); }
expr(A) ::= expr(B) LBRACKET(K) expr(C) RBRACKET.
  { A = bin(ps, GR_E_INDEX, K, B, C); }
expr(A) ::= INI(K) LPAREN ID(N) RPAREN DOT ID(S).
  { A = gr_expr_new(GR_E_INI, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N);
    A->s2 = gr_tok_str(S); A->s2loc = LOC(S); }

/* len(E): elements of a list attribute (onnx mapping conditions only) */
expr(A) ::= LEN(K) LPAREN expr(B) RPAREN.
  { A = gr_expr_new(GR_E_LEN, LOC(K)); A->a = B; A = gr_expr_deep(ps, A); }

expr(A) ::= PARTITION(K) LPAREN ID(N) RPAREN DOT ID(F).
  { A = gr_expr_new(GR_E_PARTITION, LOC(K)); A->s = gr_tok_str(N); A->sloc = LOC(N);
    A->s2 = gr_tok_str(F); A->s2loc = LOC(F); }

/* NAME(ARG, ...): a call of a named condition; the arguments in a, linked by next */
expr(A) ::= ID(N) LPAREN RPAREN.
  { A = gr_expr_new(GR_E_CALL, LOC(N)); A->s = gr_tok_str(N); A->sloc = LOC(N); }
expr(A) ::= ID(N) LPAREN elist(E) RPAREN.
  { gr_expr *x, *rev = NULL, *nx;
    for(x = E; x; x = nx){ nx = x->next; x->next = rev; rev = x; }
    A = gr_expr_new(GR_E_CALL, LOC(N)); A->s = gr_tok_str(N); A->sloc = LOC(N); A->a = rev; A = gr_expr_deep(ps, A); }

elist(A) ::= expr(A).
elist(A) ::= elist(B) COMMA expr(C).  { C->next = B; A = C; }
