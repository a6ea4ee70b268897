/*
** ge_text.re: the reader of a GE ModelDef in protobuf text format (the
** ge_proto_*.txt dumps DUMP_GE_GRAPH writes with TextFormat::Print, also
** what `atc --mode=5` reads), turned into ge_text.c by re2c. The scanner
** knows the text format's tokens (identifiers, numbers, quoted strings with
** C escapes, punctuation, # comments); the parser knows the ModelDef schema
** of hicann/ge graph_metadef/proto/ge_ir.proto (the same subset as
** ge_ir.proto) and replays it into the graph builder exactly as the binary
** reader does: ops with their inputs, tensor descriptors and attributes,
** enum values by name or number, list attributes typed by their first
** non-empty list, other attribute values as "other". Fields it does not know
** are skipped whatever their value. Fields may come in any order and
** repeated scalars may be written as [a, b]. Every error is located
** (line:col of the offending token). The buffer must have a NUL byte at
** p[n] (model.c maps the file with a zero page after it); an embedded NUL
** is an invalid byte, never the end.
*/
#include "config.h"
#include "model/readers.h"
#include "model/build.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

enum { T_EOF = 0, T_ID, T_STR, T_NUM, T_PUNCT, T_BAD };

typedef struct tx {
  const unsigned char *cur, *lim, *mar, *bol, *tok;
  uint32_t line;
  /* the token just read */
  int t; unsigned char punct; uint32_t tline, tcol;
  const char *ts; size_t tn;           /* its text (T_ID, T_NUM, T_BAD) */
  gr_buf str;                          /* decoded string when it had escapes or parts */
  const char *sp; size_t sn;           /* the string of a T_STR: into the input, or str */
  int peeked;
  gr_build *b;
  int depth;
  gr_buf tmp;
} tx;

static int fail(tx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tx *x, const char *fmt, ...){
  char m[400];
  va_list ap;
  va_start(ap, fmt); vsnprintf(m, sizeof m, fmt, ap); va_end(ap);
  return gr_build_fail(x->b, x->tline, x->tcol, "%s", m);
}

/* ---- strings ---- */

static int hexv(unsigned c){ return c >= '0' && c <= '9' ? (int)(c - '0') : c >= 'a' && c <= 'f' ? (int)(c - 'a' + 10) : c >= 'A' && c <= 'F' ? (int)(c - 'A' + 10) : -1; }

static void utf8(gr_buf *b, uint32_t c){
  char u[4];
  if( c < 0x80 ){ gr_buf_addc(b, (char)c); return; }
  if( c < 0x800 ){ u[0] = (char)(0xc0 | c >> 6); u[1] = (char)(0x80 | (c & 0x3f)); gr_buf_add(b, u, 2); return; }
  if( c < 0x10000 ){ u[0] = (char)(0xe0 | c >> 12); u[1] = (char)(0x80 | (c >> 6 & 0x3f)); u[2] = (char)(0x80 | (c & 0x3f)); gr_buf_add(b, u, 3); return; }
  u[0] = (char)(0xf0 | c >> 18); u[1] = (char)(0x80 | (c >> 12 & 0x3f)); u[2] = (char)(0x80 | (c >> 6 & 0x3f)); u[3] = (char)(0x80 | (c & 0x3f));
  gr_buf_add(b, u, 4);
}

/* Decodes the quoted text s..e (without the quotes) onto x->str. */
static int unescape(tx *x, const unsigned char *s, const unsigned char *e){
  while( s < e ){
    unsigned c;
    const unsigned char *bs = memchr(s, '\\', (size_t)(e - s));
    if( bs==NULL ){ gr_buf_add(&x->str, s, (size_t)(e - s)); break; }
    if( bs > s ){ gr_buf_add(&x->str, s, (size_t)(bs - s)); s = bs; }
    c = *s++;
    if( c!='\\' ){ gr_buf_addc(&x->str, (char)c); continue; }
    c = *s++;
    switch( c ){
    case 'n': gr_buf_addc(&x->str, '\n'); break;
    case 't': gr_buf_addc(&x->str, '\t'); break;
    case 'r': gr_buf_addc(&x->str, '\r'); break;
    case 'a': gr_buf_addc(&x->str, '\a'); break;
    case 'b': gr_buf_addc(&x->str, '\b'); break;
    case 'f': gr_buf_addc(&x->str, '\f'); break;
    case 'v': gr_buf_addc(&x->str, '\v'); break;
    case 'x': case 'X': {
      int v = 0, k = 0, h;
      while( k < 2 && s < e && (h = hexv(*s)) >= 0 ){ v = v * 16 + h; s++; k++; }
      if( k==0 ) return fail(x, "bad \\x escape in a string");
      gr_buf_addc(&x->str, (char)v);
      break;
    }
    case 'u': case 'U': {
      int k, n = c=='u' ? 4 : 8, h;
      uint32_t v = 0;
      for(k = 0; k < n; k++){
        if( s >= e || (h = hexv(*s)) < 0 ) return fail(x, "bad \\%c escape in a string", c);
        v = v * 16 + (uint32_t)h; s++;
      }
      if( v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ) return fail(x, "bad \\%c escape in a string (not a code point)", c);
      utf8(&x->str, v);
      break;
    }
    default:
      if( c >= '0' && c <= '7' ){
        int v = (int)(c - '0'), k = 1;
        while( k < 3 && s < e && *s >= '0' && *s <= '7' ){ v = v * 8 + (*s - '0'); s++; k++; }
        if( v > 255 ) return fail(x, "octal escape above \\377 in a string");
        gr_buf_addc(&x->str, (char)v);
      }else{
        gr_buf_addc(&x->str, (char)c);     /* \" \' \\ \? and the like */
      }
    }
  }
  return 1;
}

/* ---- the scanner ---- */

/* A string token over the builder's cap is an error here, at the string's
** line:col, rather than later in the builder, which knows no location. */
static int str_capped(tx *x){
  if( x->sn <= GR_MAX_STR ) return T_STR;
  _Static_assert(GR_MAX_STR==16777216u, "the message names the cap");
  x->ts = "string longer than 16777216 bytes (16 MiB)"; x->tn = 0;
  return T_BAD;
}

static int scan(tx *x){
  const unsigned char *q0;
loop:
  x->tok = x->cur;
  x->tline = x->line;
  x->tcol = (uint32_t)(x->cur - x->bol) + 1;
  /*!re2c
    re2c:define:YYCTYPE  = "unsigned char";
    re2c:define:YYCURSOR = "x->cur";
    re2c:define:YYMARKER = "x->mar";
    re2c:define:YYLIMIT  = "x->lim";
    re2c:yyfill:enable   = 0;
    re2c:eof             = 0;

    id   = [a-zA-Z_][a-zA-Z0-9_]*;
    dig  = [0-9];
    num  = "-"? ( dig+ ("." dig*)? ([eE] [+-]? dig+)? [fF]?
                | "." dig+ ([eE] [+-]? dig+)? [fF]?
                | "0" [xX] [0-9a-fA-F]+ );
    dq   = [^"\\\n\x00] | "\\" [^\n\x00];
    sq   = [^'\\\n\x00] | "\\" [^\n\x00];

    $                 { return x->t = T_EOF; }
    *                 { x->ts = (const char*)x->tok; x->tn = 1; return x->t = T_BAD; }
    "\n"              { x->line++; x->bol = x->cur; goto loop; }
    [ \t\r\f\v]+      { goto loop; }
    "#" [^\n\x00]*    { goto loop; }
    id                { x->ts = (const char*)x->tok; x->tn = (size_t)(x->cur - x->tok); return x->t = T_ID; }
    "-" [ \t]* id     { x->ts = (const char*)x->tok; x->tn = (size_t)(x->cur - x->tok); return x->t = T_NUM; }
    num               { x->ts = (const char*)x->tok; x->tn = (size_t)(x->cur - x->tok); return x->t = T_NUM; }
    ["] dq* ["]       { q0 = x->tok + 1; goto str; }
    ['] sq* [']       { q0 = x->tok + 1; goto str; }
    ["] dq* | ['] sq* { x->ts = "unterminated string"; x->tn = 0; return x->t = T_BAD; }
    [{}<>:[\],;]     { x->punct = x->tok[0]; return x->t = T_PUNCT; }
  */
str:
  /* the common case, no escape and no adjacent part: the bytes in place */
  if( !memchr(q0, '\\', (size_t)(x->cur - 1 - q0)) ){
    const unsigned char *p = x->cur;
    while( *p==' ' || *p=='\t' || *p=='\r' ) p++;
    if( p >= x->lim || (*p!='"' && *p!='\'') ){
      x->sp = (const char*)q0; x->sn = (size_t)(x->cur - 1 - q0);
      return x->t = str_capped(x);
    }
  }
  x->str.n = 0;
  if( !unescape(x, q0, x->cur - 1) ) return x->t = T_BAD;
  /* adjacent strings are one */
  for(;;){
    const unsigned char *p = x->cur;
    unsigned char qc;
    while( *p==' ' || *p=='\t' || *p=='\r' ) p++;
    if( p >= x->lim || (*p!='"' && *p!='\'') ) break;
    qc = *p;
    {
      const unsigned char *s = p + 1, *e = s;
      while( e < x->lim && *e!=qc && *e!='\n' && *e ){ if( *e=='\\' && e + 1 < x->lim && e[1]!='\n' ) e++; e++; }
      if( e >= x->lim || *e!=qc ) break;
      if( !unescape(x, s, e) ) return x->t = T_BAD;
      x->cur = e + 1;
    }
  }
  x->sp = x->str.p ? x->str.p : ""; x->sn = x->str.n;
  return x->t = str_capped(x);
}

static int next(tx *x){
  if( x->peeked ){ x->peeked = 0; return x->t; }
  return scan(x);
}
static void unread(tx *x){ x->peeked = 1; }

static int is_p(tx *x, char c){ return x->t==T_PUNCT && x->punct==(unsigned char)c; }

static int bad_token(tx *x, const char *what){
  if( gr_build_failed(x->b) ) return 0;
  switch( x->t ){
  case T_EOF: return fail(x, "unexpected end of input (expected %s)", what);
  case T_BAD:
    if( x->tn==0 ) return fail(x, "%s", x->ts);
    return fail(x, "unexpected byte 0x%02x (expected %s)", (unsigned char)x->ts[0], what);
  case T_ID: case T_NUM: return fail(x, "expected %s, found '%.*s'", what, (int)(x->tn > 60 ? 60 : x->tn), x->ts);
  case T_STR: return fail(x, "expected %s, found a string", what);
  default: return fail(x, "expected %s, found '%c'", what, x->punct);
  }
}

#define KEY(lit) (x->tn==sizeof(lit) - 1 && memcmp(x->ts, lit, sizeof(lit) - 1)==0)

/* ---- values ---- */

/* After a field name: ':' then a scalar, or an optional ':' then a message
** ('{' or '<'). 1 = scalar follows, 2 = message opened (its closer in *close). */
static int field_start(tx *x, char *close){
  int colon = 0;
  next(x);
  if( is_p(x, ':') ){ colon = 1; next(x); }
  if( is_p(x, '{') ){ *close = '}'; return 2; }
  if( is_p(x, '<') ){ *close = '>'; return 2; }
  if( !colon ) return bad_token(x, "':' or '{'");
  unread(x);
  return 1;
}

static int skip_message(tx *x, char close);

/* Skips one scalar or a [list] of them (the token after ':'). */
static int skip_scalar(tx *x){
  next(x);
  if( is_p(x, '[') ){
    for(;;){
      next(x);
      if( is_p(x, ']') ) return 1;
      if( is_p(x, '{') ){ if( !skip_message(x, '}') ) return 0; }
      else if( x->t!=T_ID && x->t!=T_NUM && x->t!=T_STR ) return bad_token(x, "a value");
      next(x);
      if( is_p(x, ']') ) return 1;
      if( !is_p(x, ',') ) return bad_token(x, "',' or ']'");
    }
  }
  if( x->t!=T_ID && x->t!=T_NUM && x->t!=T_STR ) return bad_token(x, "a value");
  return 1;
}

/* The fields of a message up to its closer, none of them kept. */
static int skip_message(tx *x, char close){
  if( ++x->depth > MAX_DEPTH ) return fail(x, "messages nested more than %d deep", MAX_DEPTH);
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) break;
    if( is_p(x, ';') || is_p(x, ',') ) continue;
    if( x->t!=T_ID ){
      if( x->t==T_PUNCT && x->punct=='[' ){        /* [extension.name] or [type.url/...] */
        while( next(x)!=T_EOF && !is_p(x, ']') ) if( x->t==T_BAD ) return bad_token(x, "']'");
        if( x->t==T_EOF ) return bad_token(x, "']'");
      }else return bad_token(x, "a field name");
    }
    if( (k = field_start(x, &c2))==0 ) return 0;
    if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
  }
  x->depth--;
  return 1;
}

static int parse_int_tok(tx *x, int64_t *v);

/* An enum by number: protobuf enums are int32, so 2147483648 is out of
** range (an error at the token, never a value kept as text). */
static int parse_enum_tok(tx *x, int64_t *v, const char *what){
  if( !parse_int_tok(x, v) ) return bad_token(x, what);
  if( *v < INT32_MIN || *v > INT32_MAX )
    return fail(x, "enum number %.*s out of range (%s is a 32-bit enum)", (int)(x->tn > 30 ? 30 : x->tn), x->ts, what);
  return 1;
}

/* Reads one scalar token after ':' as an integer. */
static int parse_int_tok(tx *x, int64_t *v){
  char buf[64], *end;
  long long r;
  if( x->t!=T_NUM || x->tn >= sizeof buf ) return 0;
  {
    /* plain decimal of at most 18 digits (every dim and most values): no strtoll */
    const char *p = x->ts, *q = x->ts + x->tn;
    int neg = p < q && *p=='-';
    int64_t a = 0;
    if( neg ) p++;
    if( p < q && q - p <= 18 && (*p!='0' || q - p==1) ){
      const char *d = p;
      while( d < q && *d >= '0' && *d <= '9' ){ a = a * 10 + (*d - '0'); d++; }
      if( d==q ){ *v = neg ? -a : a; return 1; }
    }
  }
  memcpy(buf, x->ts, x->tn); buf[x->tn] = 0;
  errno = 0;
  r = strtoll(buf, &end, 0);
  if( errno || *end ) return 0;
  *v = r;
  return 1;
}

static int parse_float_tok(tx *x, double *v){
  char buf[128], *p, *end;
  size_t n = x->tn;
  if( (x->t!=T_NUM && x->t!=T_ID) || n >= sizeof buf ) return 0;
  memcpy(buf, x->ts, n); buf[n] = 0;
  p = buf;
  if( n && (buf[n - 1]=='f' || buf[n - 1]=='F') && n > 1 && buf[n - 2]!='n' && buf[n - 2]!='N' ) buf[--n] = 0;  /* 1.5f, not inf */
  {
    /* "-  inf" */
    char *d = buf, *s = buf;
    for(; *s; s++) if( *s!=' ' && *s!='\t' ) *d++ = *s;
    *d = 0;
  }
  if( strcmp(p, "inf")==0 || strcmp(p, "infinity")==0 || strcmp(p, "-inf")==0 || strcmp(p, "-infinity")==0
      || strcmp(p, "nan")==0 || strcmp(p, "-nan")==0 ){
    *v = strtod(p, NULL);
    return 1;
  }
  errno = 0;
  *v = strtod(p, &end);
  return end!=p && *end==0;
}

static int parse_bool_tok(tx *x, int *v){
  if( x->t==T_ID && (KEY("true") || KEY("True") || KEY("t")) ){ *v = 1; return 1; }
  if( x->t==T_ID && (KEY("false") || KEY("False") || KEY("f")) ){ *v = 0; return 1; }
  if( x->t==T_NUM && x->tn==1 && (x->ts[0]=='0' || x->ts[0]=='1') ){ *v = x->ts[0]=='1'; return 1; }
  return 0;
}

/* Each element of a repeated scalar field: `f: v` or `f: [v, ...]`; calls
** `one` for every value token. */
typedef int (*elem_fn)(tx *x, void *ud);
static int repeated(tx *x, elem_fn one, void *ud){
  next(x);
  if( is_p(x, '[') ){
    next(x);
    if( is_p(x, ']') ) return 1;
    for(;;){
      if( !one(x, ud) ) return 0;
      next(x);
      if( is_p(x, ']') ) return 1;
      if( !is_p(x, ',') ) return bad_token(x, "',' or ']'");
      next(x);
    }
  }
  return one(x, ud);
}

/* ---- the schema ---- */

/* An attribute value, collected then replayed (key and value may come in any order). */
typedef struct tattr {
  int kind;                         /* GR_ATTR_*, 0 = nothing yet */
  int64_t i; double f;
  gr_buf s;                         /* S / DT text */
  /* lists */
  int lkind, vt, other;
  GR_VEC(int64_t) li; GR_VEC(double) lf;
  gr_buf ls; GR_VEC(size_t) lsoff;  /* strings back to back, each end offset */
} tattr;

static const char *const valtypes[] = {
  "VT_LIST_NONE", "VT_LIST_STRING", "VT_LIST_INT", "VT_LIST_FLOAT", "VT_LIST_BOOL", "VT_LIST_BYTES",
  "VT_LIST_TENSOR_DESC", "VT_LIST_TENSOR", "VT_LIST_GRAPH", "VT_LIST_NAMED_ATTRS", "VT_LIST_DATA_TYPE"
};

static int el_i(tx *x, void *ud){
  tattr *a = ud; int64_t v;
  if( !parse_int_tok(x, &v) ) return bad_token(x, "an integer");
  gr_vec_push(a->li, v);
  return 1;
}
static int el_f(tx *x, void *ud){
  tattr *a = ud; double v;
  if( !parse_float_tok(x, &v) ) return bad_token(x, "a number");
  gr_vec_push(a->lf, v);
  return 1;
}
static int el_b(tx *x, void *ud){
  tattr *a = ud; int v;
  if( !parse_bool_tok(x, &v) ) return bad_token(x, "true or false");
  gr_vec_push(a->li, (int64_t)v);
  return 1;
}
static int el_s(tx *x, void *ud){
  tattr *a = ud;
  if( x->t!=T_STR ) return bad_token(x, "a string");
  if( memchr(x->sp, 0, x->sn) ) a->other = 1;
  gr_buf_add(&a->ls, x->sp, x->sn);
  gr_vec_push(a->lsoff, a->ls.n);
  return 1;
}

static int parse_list(tx *x, tattr *a, char close){
  for(;;){
    char c2;
    int k, kind = 0;
    next(x);
    if( is_p(x, close) ) return 1;
    if( x->t!=T_ID ) return bad_token(x, "a field name");
    if( KEY("s") ) kind = GR_ATTR_LIST_S;
    else if( KEY("i") ) kind = GR_ATTR_LIST_I;
    else if( KEY("f") ) kind = GR_ATTR_LIST_F;
    else if( KEY("b") ) kind = GR_ATTR_LIST_B;
    if( KEY("val_type") ){
      if( (k = field_start(x, &c2))!=1 ) return k==2 ? fail(x, "val_type is not a message") : 0;
      next(x);
      a->vt = -1;
      if( x->t==T_ID ){
        int j;
        for(j = 0; j < 11; j++) if( strlen(valtypes[j])==x->tn && memcmp(valtypes[j], x->ts, x->tn)==0 ) a->vt = j;
      }else{
        int64_t v;
        if( !parse_enum_tok(x, &v, "a ListValueType") ) return 0;
        a->vt = v >= 0 && v <= 10 ? (int)v : -1;
      }
      continue;
    }
    if( (k = field_start(x, &c2))==0 ) return 0;
    if( kind==0 || k==2 || (a->lkind && a->lkind!=kind) ){
      /* dt, bt, td, t, g, na, or a second kind of list: the first non-empty one wins */
      if( kind==0 ) a->other = 1;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
      continue;
    }
    a->lkind = kind;
    if( !repeated(x, kind==GR_ATTR_LIST_S ? el_s : kind==GR_ATTR_LIST_I ? el_i : kind==GR_ATTR_LIST_F ? el_f : el_b, a) ) return 0;
  }
}

static int parse_attr_value(tx *x, tattr *a, char close){
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) return 1;
    if( x->t!=T_ID ) return bad_token(x, "a field name");
    if( KEY("list") ){
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k!=2 ) return fail(x, "list is a message");
      a->kind = -1;                          /* a list; typed at the end */
      a->lkind = 0; a->vt = -1; a->other = 0;
      a->li.n = a->lf.n = a->lsoff.n = 0; a->ls.n = 0;
      if( !parse_list(x, a, c2) ) return 0;
      continue;
    }
    if( KEY("s") || KEY("i") || KEY("f") || KEY("b") || KEY("dt") ){
      char what = x->ts[0] == 'd' ? 'd' : x->ts[0];
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==2 ) return fail(x, "%c is a scalar, not a message", what);
      next(x);
      switch( what ){
      case 's':
        if( x->t!=T_STR ) return bad_token(x, "a string");
        a->s.n = 0; gr_buf_add(&a->s, x->sp, x->sn);
        a->kind = memchr(x->sp, 0, x->sn) ? GR_ATTR_OTHER : GR_ATTR_S;
        break;
      case 'i':
        if( !parse_int_tok(x, &a->i) ) return bad_token(x, "an integer");
        a->kind = GR_ATTR_I;
        break;
      case 'f':
        if( !parse_float_tok(x, &a->f) ) return bad_token(x, "a number");
        a->kind = GR_ATTR_F;
        break;
      case 'b': {
        int v;
        if( !parse_bool_tok(x, &v) ) return bad_token(x, "true or false");
        a->kind = GR_ATTR_B; a->i = v;
        break;
      }
      default:
        a->s.n = 0;
        if( x->t==T_ID ) gr_buf_add(&a->s, x->ts, x->tn);
        else {
          int64_t v;
          if( !parse_enum_tok(x, &v, "a DataType") ) return 0;
          if( v==0 ) gr_buf_adds(&a->s, "DT_UNDEFINED");
          else gr_buf_add(&a->s, x->ts, x->tn);
        }
        a->kind = GR_ATTR_DT;
        break;
      }
      continue;
    }
    a->kind = GR_ATTR_OTHER;
    if( (k = field_start(x, &c2))==0 ) return 0;
    if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
  }
}

static int emit_attr(tx *x, const char *key, size_t kn, tattr *a){
  static const unsigned char vt_kind[] = {
    GR_ATTR_LIST_I, GR_ATTR_LIST_S, GR_ATTR_LIST_I, GR_ATTR_LIST_F, GR_ATTR_LIST_B, GR_ATTR_LIST_S,
    GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER, GR_ATTR_OTHER
  };
  gr_build *b = x->b;
  size_t i, prev = 0;
  switch( a->kind ){
  case GR_ATTR_S: return gr_build_attr_s(b, key, kn, a->s.p ? a->s.p : "", a->s.n);
  case GR_ATTR_DT: return gr_build_attr_dt(b, key, kn, a->s.p, a->s.n);
  case GR_ATTR_I: return gr_build_attr_i(b, key, kn, a->i);
  case GR_ATTR_F: return gr_build_attr_f(b, key, kn, a->f);
  case GR_ATTR_B: return gr_build_attr_b(b, key, kn, (int)a->i);
  case -1: break;
  default: return gr_build_attr_other(b, key, kn);
  }
  if( a->lkind==GR_ATTR_LIST_S && a->other ) return gr_build_attr_other(b, key, kn);
  if( a->lkind && (a->li.n || a->lf.n || a->lsoff.n) ){
    if( !gr_build_list(b, key, kn, a->lkind) ) return 0;
    switch( a->lkind ){
    case GR_ATTR_LIST_S:
      for(i = 0; i < a->lsoff.n; i++){ if( !gr_build_list_s(b, a->ls.p + prev, a->lsoff.v[i] - prev) ) return 0; prev = a->lsoff.v[i]; }
      break;
    case GR_ATTR_LIST_F:
      for(i = 0; i < a->lf.n; i++) if( !gr_build_list_f(b, a->lf.v[i]) ) return 0;
      break;
    default:
      for(i = 0; i < a->li.n; i++) if( !gr_build_list_i(b, a->li.v[i]) ) return 0;
    }
    gr_build_list_end(b);
    return 1;
  }
  if( a->vt >= 0 ){
    if( vt_kind[a->vt]==GR_ATTR_OTHER ) return gr_build_attr_other(b, key, kn);
    return gr_build_list(b, key, kn, vt_kind[a->vt]) && (gr_build_list_end(b), 1);
  }
  if( a->other ) return gr_build_attr_other(b, key, kn);
  return gr_build_list(b, key, kn, GR_ATTR_LIST_I) && (gr_build_list_end(b), 1);
}

/* attr { key: "k" value { ... } }: of the current op, or (model 1) of the
** model itself, which keeps string attributes only */
static int parse_attr(tx *x, tattr *a, char close, int model){
  gr_buf *key = &x->tmp;
  int have_key = 0;
  a->kind = GR_ATTR_OTHER;
  key->n = 0;
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) break;
    if( x->t!=T_ID ) return bad_token(x, "key or value");
    if( KEY("key") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "key is a string, not a message") : 0;
      next(x);
      if( x->t!=T_STR ) return bad_token(x, "a string");
      key->n = 0; gr_buf_add(key, x->sp, x->sn);
      have_key = 1;
    }else if( KEY("value") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "value is a message") : 0;
      if( !parse_attr_value(x, a, c2) ) return 0;
    }else{
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
    }
  }
  (void)have_key;
  if( model ) return a->kind!=GR_ATTR_S || !key->n || !a->s.n || gr_build_model_attr(x->b, key->p, key->n, a->s.p, a->s.n);
  return emit_attr(x, key->n ? key->p : "", key->n, a);
}

typedef struct tdesc { gr_buf dtype, layout; GR_VEC(int64_t) dims; } tdesc;

static int el_dim(tx *x, void *ud){
  tdesc *d = ud; int64_t v;
  if( !parse_int_tok(x, &v) ) return bad_token(x, "an integer dim");
  if( d->dims.n >= 65535 ) return fail(x, "shape has more than 65535 dims");
  gr_vec_push(d->dims, v);
  return 1;
}

static int parse_desc(tx *x, int out, tdesc *d, char close){
  d->dtype.n = d->layout.n = 0; d->dims.n = 0;
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) break;
    if( x->t!=T_ID ) return bad_token(x, "a field name");
    if( KEY("dtype") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "dtype is an enum, not a message") : 0;
      next(x);
      d->dtype.n = 0;
      if( x->t==T_ID ){ if( !KEY("DT_UNDEFINED") ) gr_buf_add(&d->dtype, x->ts, x->tn); }
      else {
        int64_t v;
        if( !parse_enum_tok(x, &v, "a DataType") ) return 0;
        if( v ) gr_buf_add(&d->dtype, x->ts, x->tn);
      }
    }else if( KEY("layout") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "layout is a string, not a message") : 0;
      next(x);
      if( x->t!=T_STR ) return bad_token(x, "a string");
      d->layout.n = 0; gr_buf_add(&d->layout, x->sp, x->sn);
    }else if( KEY("shape") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "shape is a message") : 0;
      d->dims.n = 0;
      for(;;){
        char c3;
        next(x);
        if( is_p(x, c2) ) break;
        if( x->t!=T_ID ) return bad_token(x, "a field name");
        if( KEY("dim") ){
          if( (k = field_start(x, &c3))!=1 ) return k ? fail(x, "dim is an integer, not a message") : 0;
          if( !repeated(x, el_dim, d) ) return 0;
        }else{
          if( (k = field_start(x, &c3))==0 ) return 0;
          if( k==1 ? !skip_scalar(x) : !skip_message(x, c3) ) return 0;
        }
      }
    }else{
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
    }
  }
  return gr_build_tensor(x->b, out, d->dtype.p, d->dtype.n, d->layout.p, d->layout.n, d->dims.v, (uint32_t)d->dims.n);
}

static int el_input(tx *x, void *ud){
  (void)ud;
  if( x->t!=T_STR ) return bad_token(x, "a string");
  return gr_build_input(x->b, x->sn ? x->sp : "", x->sn);
}

static int el_subgraph(tx *x, void *ud){
  (void)ud;
  if( x->t!=T_STR ) return bad_token(x, "a string");
  return gr_build_subgraph(x->b, x->sn ? x->sp : "", x->sn);
}

typedef struct tstate { tattr a; tdesc d; } tstate;

static int parse_op(tx *x, tstate *st, char close){
  gr_build *b = x->b;
  if( !gr_build_op(b, "", 0, "", 0, x->tline, x->tcol) ) return 0;
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) return 1;
    if( x->t!=T_ID ) return bad_token(x, "a field name");
    if( KEY("name") || KEY("type") ){
      int is_name = x->ts[0]=='n';
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "%s is a string, not a message", is_name ? "name" : "type") : 0;
      next(x);
      if( x->t!=T_STR ) return bad_token(x, "a string");
      if( is_name ? !gr_build_op_name(b, x->sp, x->sn) : !gr_build_op_type(b, x->sn ? x->sp : "", x->sn) ) return 0;
    }else if( KEY("input") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "input is a string, not a message") : 0;
      if( !repeated(x, el_input, NULL) ) return 0;
    }else if( KEY("subgraph_name") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "subgraph_name is a string, not a message") : 0;
      if( !repeated(x, el_subgraph, NULL) ) return 0;
    }else if( KEY("attr") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "attr is a message") : 0;
      if( !parse_attr(x, &st->a, c2, 0) ) return 0;
    }else if( KEY("input_desc") || KEY("output_desc") ){
      int out = x->ts[0]=='o';
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "%s is a message", out ? "output_desc" : "input_desc") : 0;
      if( !parse_desc(x, out, &st->d, c2) ) return 0;
    }else{
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
    }
  }
}

static int parse_graph(tx *x, tstate *st, char close){
  gr_build *b = x->b;
  if( !gr_build_graph(b, "", 0) ) return 0;
  for(;;){
    char c2;
    int k;
    next(x);
    if( is_p(x, close) ) return 1;
    if( x->t!=T_ID ) return bad_token(x, "a field name");
    if( KEY("name") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "name is a string, not a message") : 0;
      next(x);
      if( x->t!=T_STR ) return bad_token(x, "a string");
      if( !gr_build_graph_name(b, x->sp, x->sn) ) return 0;
    }else if( KEY("op") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "op is a message") : 0;
      if( !parse_op(x, st, c2) ) return 0;
    }else{
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
    }
  }
}

static int parse_model(tx *x, tstate *st){
  gr_build *b = x->b;
  for(;;){
    char c2;
    int k;
    next(x);
    if( x->t==T_EOF ) return 1;
    if( is_p(x, ';') || is_p(x, ',') ) continue;
    if( x->t!=T_ID ) return bad_token(x, "a ModelDef field name");
    if( KEY("name") ){
      if( (k = field_start(x, &c2))!=1 ) return k ? fail(x, "name is a string, not a message") : 0;
      next(x);
      if( x->t!=T_STR ) return bad_token(x, "a string");
      if( !gr_build_model_name(b, x->sp, x->sn) ) return 0;
    }else if( KEY("graph") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "graph is a message") : 0;
      if( !parse_graph(x, st, c2) ) return 0;
    }else if( KEY("attr") ){
      if( (k = field_start(x, &c2))!=2 ) return k ? fail(x, "attr is a message") : 0;
      if( !parse_attr(x, &st->a, c2, 1) ) return 0;
    }else{
      if( (k = field_start(x, &c2))==0 ) return 0;
      if( k==1 ? !skip_scalar(x) : !skip_message(x, c2) ) return 0;
    }
  }
}

gr_graph *gr_read_ge_text(const char *p, size_t n, gr_error *err){
  tx x;
  tstate st;
  int ok;
  memset(&x, 0, sizeof x);
  memset(&st, 0, sizeof st);
  x.cur = x.bol = x.tok = x.mar = (const unsigned char*)p;
  x.lim = (const unsigned char*)p + n;
  x.line = 1;
  x.b = gr_build_new();
  gr_buf_init(&x.str); gr_buf_init(&x.tmp);
  gr_buf_init(&st.a.s); gr_buf_init(&st.a.ls);
  gr_buf_init(&st.d.dtype); gr_buf_init(&st.d.layout);
  ok = parse_model(&x, &st);
  if( ok && gr_build_ngraphs(x.b)==0 ){
    x.tline = x.line; x.tcol = (uint32_t)(x.cur - x.bol) + 1;
    fail(&x, "no graph in the ModelDef (expected `graph { op { ... } }`)");
  }
  gr_buf_free(&x.str); gr_buf_free(&x.tmp);
  gr_buf_free(&st.a.s); gr_buf_free(&st.a.ls);
  gr_vec_free(st.a.li); gr_vec_free(st.a.lf); gr_vec_free(st.a.lsoff);
  gr_buf_free(&st.d.dtype); gr_buf_free(&st.d.layout); gr_vec_free(st.d.dims);
  {
    /* a builder error has no location of its own (a NUL in a name, a table
    ** full): the reader stopped at the token it was handling, so that is where */
    uint32_t line = x.tline, col = x.tcol;
    int failed = gr_build_failed(x.b);
    gr_graph *g = gr_build_finish(x.b, err);
    if( g==NULL && failed && err && err->line==0 ){ err->line = line; err->col = col; }
    return g;
  }
}
