/*
** cases.c: golden case files for `gerules test` (the one runner of a rule
** set's tests/ and of the project's t/golden), a JSON tree over the
** project's validating scanner, the subset matcher, and coverage of sources,
** cascade branches and rules. The matching rules (doc/vendor-guide.md
** defines them): an object matches when every
** expected key matches (`key~`: the actual string contains the expected one;
** `key!`: no element of the actual list matches any expected item), a list
** when every expected element matches some actual element, scalars when
** equal; "nodes", "options", "diagnostics" and "absent" select by name, type
** or diagnostic code.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/cases.h"
#include "model/json_scan.h"

/* ------------------------------------------------------------------ */
/* JSON tree */

void gr_jv_free(gr_jv *v);

static void jv_clear(gr_jv *v){
  size_t i;
  if( v==NULL ) return;
  free(v->s);
  for(i = 0; i < v->len; i++){
    jv_clear(&v->v[i]);
    if( v->k ) free(v->k[i]);
  }
  free(v->v);
  free(v->k);
  memset(v, 0, sizeof *v);
}

void gr_jv_free(gr_jv *v){
  jv_clear(v);
  free(v);
}

static int jv_build(gr_js *s, gr_js_tok *t, gr_jv *out){
  memset(out, 0, sizeof *out);
  switch( t->type ){
    case GR_JS_NULL: out->t = GR_JV_NULL; return 0;
    case GR_JS_TRUE: out->t = GR_JV_BOOL; out->b = 1; return 0;
    case GR_JS_FALSE: out->t = GR_JV_BOOL; return 0;
    case GR_JS_INT: out->t = GR_JV_INT; out->i = t->i; return 0;
    case GR_JS_NUMBER: out->t = GR_JV_NUM; out->s = gr_xstrndup(t->s, t->n); out->n = t->n; return 0;
    case GR_JS_STRING: out->t = GR_JV_STR; out->s = gr_xstrndup(t->s, t->n); out->n = t->n; return 0;
    case GR_JS_ARRAY: case GR_JS_OBJECT: {
      int obj = t->type==GR_JS_OBJECT;
      size_t cap = 0;
      out->t = obj ? GR_JV_OBJ : GR_JV_ARR;
      for(;;){
        char *key = NULL;
        int k = gr_js_next(s, t);
        if( k==(obj ? GR_JS_OBJECT_END : GR_JS_ARRAY_END) ) return 0;
        if( k==GR_JS_ERROR ) return -1;
        if( obj ){
          key = gr_xstrndup(t->s, t->n);
          if( gr_js_next(s, t)==GR_JS_ERROR ){ free(key); return -1; }
        }
        if( out->len==cap ){
          cap = cap ? cap * 2 : 4;
          out->v = gr_xrealloc(out->v, cap * sizeof *out->v);
          if( obj ) out->k = gr_xrealloc(out->k, cap * sizeof *out->k);
        }
        if( obj ) out->k[out->len] = key;
        if( jv_build(s, t, &out->v[out->len])!=0 ){ out->len++; return -1; }
        out->len++;
      }
    }
    default: return -1;
  }
}

gr_jv *gr_jv_parse(const char *text, size_t len, gr_error *err){
  gr_js s;
  gr_js_tok t;
  gr_jv *v = gr_xcalloc(1, sizeof *v);
  int ok;
  gr_js_init_mem(&s, text, len, 256, 0);
  ok = gr_js_next(&s, &t)!=GR_JS_ERROR && jv_build(&s, &t, v)==0 && gr_js_next(&s, &t)==GR_JS_EOF;
  if( !ok ){
    if( gr_js_error(&s)->msg[0] ) *err = *gr_js_error(&s);
    else gr_error_set(err, 0, 0, "malformed JSON");
    gr_jv_free(v);
    v = NULL;
  }
  gr_js_free(&s);
  return v;
}

const gr_jv *gr_jv_get(const gr_jv *o, const char *key){
  size_t i;
  if( o==NULL || o->t!=GR_JV_OBJ ) return NULL;
  for(i = 0; i < o->len; i++) if( strcmp(o->k[i], key)==0 ) return &o->v[i];
  return NULL;
}

static void write_str(gr_buf *b, const char *s, size_t n){
  size_t i;
  gr_buf_addc(b, '"');
  for(i = 0; i < n; i++){
    unsigned char c = (unsigned char)s[i];
    if( c=='"' || c=='\\' ){ gr_buf_addc(b, '\\'); gr_buf_addc(b, (char)c); }
    else if( c < 0x20 ) gr_buf_printf(b, "\\u%04x", c);
    else gr_buf_addc(b, (char)c);
  }
  gr_buf_addc(b, '"');
}

void gr_jv_write(gr_buf *b, const gr_jv *v){
  size_t i;
  switch( v->t ){
    case GR_JV_NULL: gr_buf_adds(b, "null"); break;
    case GR_JV_BOOL: gr_buf_adds(b, v->b ? "true" : "false"); break;
    case GR_JV_INT: gr_buf_printf(b, "%lld", (long long)v->i); break;
    case GR_JV_NUM: gr_buf_add(b, v->s, v->n); break;
    case GR_JV_STR: write_str(b, v->s, v->n); break;
    case GR_JV_ARR: case GR_JV_OBJ:
      gr_buf_addc(b, v->t==GR_JV_ARR ? '[' : '{');
      for(i = 0; i < v->len; i++){
        if( i ) gr_buf_adds(b, ", ");
        if( v->t==GR_JV_OBJ ){ write_str(b, v->k[i], strlen(v->k[i])); gr_buf_adds(b, ": "); }
        gr_jv_write(b, &v->v[i]);
      }
      gr_buf_addc(b, v->t==GR_JV_ARR ? ']' : '}');
      break;
  }
}

/* A short rendering for failure messages. */
char *gr_jv_short(const gr_jv *v, size_t max){
  gr_buf b;
  gr_buf_init(&b);
  if( v==NULL ) gr_buf_adds(&b, "nothing");
  else gr_jv_write(&b, v);
  if( b.n > max ){ b.n = max; gr_buf_adds(&b, "..."); }
  return gr_buf_detach(&b);
}

/* ------------------------------------------------------------------ */
/* case files */

void gr_case_free(gr_case *c){
  size_t i;
  if( c==NULL ) return;
  free(c->path);
  for(i = 0; i < c->ndesc; i++) free(c->desc[i]);
  free(c->desc);
  free(c->graph); free(c->inline_graph); free(c->chip); free(c->run_mode);
  for(i = 0; i < c->nargs; i++) free(c->args[i]);
  free(c->args);
  for(i = 0; i < c->nstderr; i++) free(c->stderr_has[i]);
  free(c->stderr_has);
  free(c->stderr_line);
  for(i = 0; i < c->nblocks; i++){ free(c->blocks[i].name); free(c->blocks[i].fname); free(c->blocks[i].body); }
  free(c->blocks);
  gr_jv_free(c->expect);
  memset(c, 0, sizeof *c);
}

static void push_str(char ***v, size_t *n, char *s){
  *v = gr_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = s;
}

static char *trim(const char *s, size_t n){
  while( n && (*s==' ' || *s=='\t') ){ s++; n--; }
  while( n && (s[n-1]==' ' || s[n-1]=='\t' || s[n-1]=='\r') ) n--;
  return gr_xstrndup(s, n);
}

/* Splits like a POSIX shell word list (blanks, '...', "...", backslash);
** -1 on an unterminated quote. */
static int shell_split(const char *s, char ***out, size_t *n){
  gr_buf w;
  int in_word = 0;
  gr_buf_init(&w);
  for(;;){
    char c = *s;
    if( c==0 || c==' ' || c=='\t' ){
      if( in_word ){ push_str(out, n, gr_xstrndup(w.p ? w.p : "", w.n)); w.n = 0; in_word = 0; }
      if( c==0 ) break;
      s++;
    }else if( c=='\'' ){
      const char *e = strchr(s + 1, '\'');
      if( e==NULL ){ gr_buf_free(&w); return -1; }
      gr_buf_add(&w, s + 1, (size_t)(e - s - 1));
      in_word = 1;
      s = e + 1;
    }else if( c=='"' ){
      s++;
      while( *s && *s!='"' ){
        if( *s=='\\' && (s[1]=='"' || s[1]=='\\' || s[1]=='$' || s[1]=='`') ) s++;
        gr_buf_addc(&w, *s++);
      }
      if( *s!='"' ){ gr_buf_free(&w); return -1; }
      s++;
      in_word = 1;
    }else if( c=='\\' && s[1] ){
      gr_buf_addc(&w, s[1]);
      s += 2;
      in_word = 1;
    }else{
      gr_buf_addc(&w, c);
      s++;
      in_word = 1;
    }
  }
  gr_buf_free(&w);
  return 0;
}

int gr_case_parse(gr_case *c, const char *path, const char *text, size_t len, int flags, gr_diags *d){
  const char *p = text, *end = text + len;
  uint32_t line = 0;
  int nerr = 0, in_header = 1, have_exit = 0;
  memset(c, 0, sizeof *c);
  c->path = gr_xstrdup(path);
  if( memchr(text, 0, len) ){
    gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "unexpected byte 0x00 in a case file");
    return -1;
  }
#define CERR(col, ...) do{ gr_diags_add(d, GR_SEV_ERROR, path, line, (col), __VA_ARGS__); nerr++; }while(0)
  /* the description: the leading comment lines */
  while( p < end && *p=='#' ){
    const char *le = memchr(p, '\n', (size_t)(end - p));
    char *t;
    if( le==NULL ) le = end;
    line++;
    t = trim(p + 1, (size_t)(le - p - 1));
    if( *t ) push_str(&c->desc, &c->ndesc, t); else free(t);
    p = le < end ? le + 1 : end;
  }
  if( c->ndesc==0 ){ line = 1; CERR(1, "a case starts with a description comment (# what the case proves)"); }
  while( p < end ){
    const char *ls = p, *le = memchr(p, '\n', (size_t)(end - p));
    if( le==NULL ) le = end;
    p = le < end ? le + 1 : end;
    line++;
    if( (size_t)(le - ls) >= 4 && memcmp(ls, "--- ", 4)==0 ){
      /* a block: up to the next line starting with "--- " */
      char **words = NULL;
      size_t nw = 0, k;
      uint32_t start = line;
      const char *body = p, *bend;
      char *head = gr_xstrndup(ls, (size_t)(le - ls));
      gr_buf b;
      in_header = 0;
      if( c->first_block_line==0 ) c->first_block_line = start;
      shell_split(head, &words, &nw);
      free(head);
      while( p < end && !((size_t)(end - p) >= 4 && memcmp(p, "--- ", 4)==0) ){
        const char *e2 = memchr(p, '\n', (size_t)(end - p));
        p = e2 ? e2 + 1 : end;
        line++;
      }
      bend = p;
      gr_buf_init(&b);
      gr_buf_add(&b, body, (size_t)(bend - body));
      if( b.n==0 || b.p[b.n-1]!='\n' ) gr_buf_addc(&b, '\n');
      gr_buf_cstr(&b);
      if( nw >= 2 && strcmp(words[1], "ini")==0 ){
        gr_case_block bl;
        bl.name = gr_xstrdup(nw > 2 ? words[2] : "ini");
        bl.fname = gr_xasprintf("%s.ini", nw > 2 ? words[2] : "op_precision");
        bl.body = gr_buf_detach(&b);
        c->blocks = gr_xrealloc(c->blocks, (c->nblocks + 1) * sizeof *c->blocks);
        c->blocks[c->nblocks++] = bl;
      }else if( nw >= 2 && strcmp(words[1], "file")==0 ){
        if( nw < 3 || strchr(words[2], '/') || strcmp(words[2], "graph.json")==0 || words[2][0]=='.' ){
          uint32_t l = line; line = start - 1;
          CERR(5, "'--- file' needs a plain file name");
          line = l;
          gr_buf_free(&b);
        }else{
          gr_case_block bl;
          bl.name = gr_xstrdup(words[2]);
          bl.fname = gr_xstrdup(words[2]);
          bl.body = gr_buf_detach(&b);
          c->blocks = gr_xrealloc(c->blocks, (c->nblocks + 1) * sizeof *c->blocks);
          c->blocks[c->nblocks++] = bl;
        }
      }else if( nw >= 2 && strcmp(words[1], "graph")==0 ){
        free(c->inline_graph);
        c->inline_graph = gr_buf_detach(&b);
      }else if( nw >= 2 && strcmp(words[1], "expect")==0 ){
        gr_error e;
        memset(&e, 0, sizeof e);
        c->expect_line = start;
        c->expect_end = line + 1;
        gr_jv_free(c->expect);
        c->expect = gr_jv_parse(b.p, b.n, &e);
        if( c->expect==NULL ){
          uint32_t l = line;
          line = start + (e.line ? e.line : 1);
          CERR(e.col, "the expect block is not JSON: %s", e.msg);
          line = l;
        }else if( c->expect->t!=GR_JV_OBJ ){
          uint32_t l = line; line = start + 1;
          CERR(1, "the expect block is a JSON object");
          line = l;
        }
        gr_buf_free(&b);
      }else{
        uint32_t l = line; line = start;
        CERR(5, "unknown block '%s' (ini, file, graph or expect)", nw >= 2 ? words[1] : "");
        line = l;
        gr_buf_free(&b);
      }
      for(k = 0; k < nw; k++) free(words[k]);
      free(words);
      continue;
    }
    if( !in_header ) continue;
    {
      char *ln = trim(ls, (size_t)(le - ls)), *colon, *v;
      const char *vp = memchr(ls, ':', (size_t)(le - ls));
      uint32_t vcol;
      if( *ln==0 || *ln=='#' ){ free(ln); continue; }
      if( (colon = strchr(ln, ':'))==NULL || vp==NULL ){ CERR(1, "expected 'key: value'"); free(ln); continue; }
      for(vp++; vp < le && (*vp==' ' || *vp=='\t'); vp++) ;
      vcol = (uint32_t)(vp - ls) + 1;        /* the value's column in the line */
      *colon = 0;
      v = trim(colon + 1, strlen(colon + 1));
      {
        char *k = trim(ln, strlen(ln));
        if( strcmp(k, "graph")==0 ){ free(c->graph); c->graph = v; v = NULL; c->graph_line = line; c->graph_col = vcol; }
        else if( strcmp(k, "chip")==0 ){ free(c->chip); c->chip = v; v = NULL; }
        else if( strcmp(k, "run-mode")==0 ){ free(c->run_mode); c->run_mode = v; v = NULL; }
        else if( strcmp(k, "option")==0 ){ push_str(&c->args, &c->nargs, gr_xstrdup("-o")); push_str(&c->args, &c->nargs, v); v = NULL; }
        else if( strcmp(k, "arg")==0 ){
          if( shell_split(v, &c->args, &c->nargs)!=0 ) CERR(vcol, "unterminated quote");
        }else if( strcmp(k, "exit")==0 ){
          char *e;
          long x = strtol(v, &e, 10);
          if( *v==0 || *e || x < 0 || x > 2 ) CERR(vcol, "the exit status is 0, 1 or 2");
          c->exit = (int)x; have_exit = 1; c->exit_line = line;
        }else if( strcmp(k, "stderr")==0 ){
          c->stderr_line = gr_xrealloc(c->stderr_line, (c->nstderr + 1) * sizeof *c->stderr_line);
          c->stderr_line[c->nstderr] = line;
          push_str(&c->stderr_has, &c->nstderr, v); v = NULL;
        }
        else CERR(1, "unknown header '%s' (graph, chip, run-mode, option, arg, exit, stderr)", k);
        free(k);
      }
      free(v);
      free(ln);
    }
  }
  line = 0;
  if( c->graph==NULL ) CERR(0, "no 'graph:' line");
  else if( strcmp(c->graph, "inline")==0 && c->inline_graph==NULL ) CERR(0, "'graph: inline' needs a '--- graph' block");
  if( !have_exit && !(flags & GR_CASE_RECORDING) ) CERR(0, "no 'exit:' line");
  if( have_exit && c->exit!=2 && c->expect==NULL && nerr==0 && !(flags & GR_CASE_RECORDING) )
    CERR(0, "no '--- expect' block (required unless exit is 2)");
  if( !have_exit ) c->exit = -1;
#undef CERR
  return nerr ? -1 : 0;
}

char *gr_subst_apply(const gr_subst *s, const char *text){
  gr_buf b;
  const char *p = text;
  gr_buf_init(&b);
  while( *p ){
    size_t i, best = s->n;
    if( *p=='{' ){
      for(i = 0; i < s->n; i++){
        size_t l = strlen(s->names[i]);
        if( strncmp(p + 1, s->names[i], l)==0 && p[l + 1]=='}' ){ best = i; break; }
      }
    }
    if( best < s->n ){
      gr_buf_adds(&b, s->values[best]);
      p += strlen(s->names[best]) + 2;
    }else{
      gr_buf_addc(&b, *p++);
    }
  }
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

/* ------------------------------------------------------------------ */
/* matching */

typedef struct matcher { const gr_subst *s; gr_buf *fails; int nfail; } matcher;

static void fail(matcher *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(matcher *m, const char *fmt, ...){
  va_list ap;
  m->nfail++;
  if( m->fails==NULL ) return;
  va_start(ap, fmt);
  gr_buf_vprintf(m->fails, fmt, ap);
  va_end(ap);
  gr_buf_addc(m->fails, '\n');
}

static double num_of(const gr_jv *v){ return v->t==GR_JV_INT ? (double)v->i : strtod(v->s, NULL); }

static int match(matcher *m, const gr_jv *e, const gr_jv *a, const char *where);

/* Does e match a, without reporting? */
static int quiet_match(const matcher *m, const gr_jv *e, const gr_jv *a){
  matcher q;
  q.s = m->s; q.fails = NULL; q.nfail = 0;
  return match(&q, e, a, "");
}

static int str_eq(const matcher *m, const gr_jv *e, const gr_jv *a){
  char *x = gr_subst_apply(m->s, e->s);
  int r = a->n==strlen(x) && memcmp(x, a->s, a->n)==0;
  free(x);
  return r;
}

static int match(matcher *m, const gr_jv *e, const gr_jv *a, const char *where){
  int n0 = m->nfail;
  size_t i, j;
  if( e->t==GR_JV_OBJ ){
    if( a==NULL || a->t!=GR_JV_OBJ ){ char *s = gr_jv_short(a, 300); fail(m, "%s: expected an object, got %s", where, s); free(s); return 0; }
    for(i = 0; i < e->len; i++){
      const char *k = e->k[i];
      size_t kl = strlen(k);
      char *key = gr_subst_apply(m->s, k);
      if( strcmp(k, "#")==0 ){ free(key); continue; }
      if( kl > 1 && k[kl-1]=='!' ){
        const gr_jv *items;
        key[strlen(key)-1] = 0;
        items = gr_jv_get(a, key);
        if( e->v[i].t==GR_JV_ARR && items && items->t==GR_JV_ARR ){
          for(j = 0; j < e->v[i].len; j++){
            size_t q;
            for(q = 0; q < items->len; q++){
              if( quiet_match(m, &e->v[i].v[j], &items->v[q]) ){
                char *s1 = gr_jv_short(&e->v[i].v[j], 300), *s2 = gr_jv_short(&items->v[q], 300);
                fail(m, "%s.%s: unexpected element matching %s: %s", where, key, s1, s2);
                free(s1); free(s2);
                break;
              }
            }
          }
        }
      }else if( kl > 1 && k[kl-1]=='~' ){
        const gr_jv *av;
        char *want = e->v[i].t==GR_JV_STR ? gr_subst_apply(m->s, e->v[i].s) : NULL;
        key[strlen(key)-1] = 0;
        av = gr_jv_get(a, key);
        if( want==NULL || av==NULL || av->t!=GR_JV_STR || strstr(av->s, want)==NULL ){
          char *s = gr_jv_short(av, 300);
          fail(m, "%s.%s: expected a string containing \"%s\", got %s", where, key, want ? want : "?", s);
          free(s);
        }
        free(want);
      }else{
        const gr_jv *av = gr_jv_get(a, key);
        if( av==NULL ){
          char *s = gr_jv_short(&e->v[i], 300);
          fail(m, "%s.%s: missing (expected %s)", where, key, s);
          free(s);
        }else{
          char *w = gr_xasprintf("%s.%s", where, key);
          match(m, &e->v[i], av, w);
          free(w);
        }
      }
      free(key);
    }
  }else if( e->t==GR_JV_ARR ){
    if( a==NULL || a->t!=GR_JV_ARR ){ char *s = gr_jv_short(a, 300); fail(m, "%s: expected a list, got %s", where, s); free(s); return 0; }
    for(i = 0; i < e->len; i++){
      for(j = 0; j < a->len && !quiet_match(m, &e->v[i], &a->v[j]); j++) ;
      if( j==a->len ){
        char *s1 = gr_jv_short(&e->v[i], 300), *s2 = gr_jv_short(a, 2000);
        fail(m, "%s[%zu]: no element matches %s; have %s", where, i, s1, s2);
        free(s1); free(s2);
      }
    }
  }else{
    int ok;
    if( a==NULL ) ok = 0;
    else if( e->t==GR_JV_STR ) ok = a->t==GR_JV_STR && str_eq(m, e, a);
    else if( (e->t==GR_JV_INT || e->t==GR_JV_NUM) && (a->t==GR_JV_INT || a->t==GR_JV_NUM) ) ok = num_of(e)==num_of(a);
    else if( e->t==GR_JV_BOOL ) ok = a->t==GR_JV_BOOL && a->b==e->b;
    else ok = e->t==a->t;
    if( !ok ){
      char *s1 = gr_jv_short(e, 300), *s2 = gr_jv_short(a, 300);
      fail(m, "%s: expected %s, got %s", where, s1, s2);
      free(s1); free(s2);
    }
  }
  return m->nfail==n0;
}

const gr_jv *gr_jv_find(const gr_jv *list, const char *field, const char *value, size_t from, size_t *at){
  size_t i;
  if( list==NULL || list->t!=GR_JV_ARR ) return NULL;
  for(i = from; i < list->len; i++){
    const gr_jv *f = gr_jv_get(&list->v[i], field);
    if( f && f->t==GR_JV_STR && strcmp(f->s, value)==0 ){ if( at ) *at = i; return &list->v[i]; }
  }
  return NULL;
}

/* A diagnostic matcher: a code string, or an object. */
static int diag_matches(const matcher *m, const gr_jv *want, const gr_jv *d){
  if( want->t==GR_JV_STR ){
    const gr_jv *c = gr_jv_get(d, "code");
    return c && c->t==GR_JV_STR && str_eq(m, want, c);
  }
  return quiet_match(m, want, d);
}

int gr_case_matches(const gr_subst *s, const gr_jv *e, const gr_jv *a){
  matcher q;
  q.s = s; q.fails = NULL; q.nfail = 0;
  return match(&q, e, a, "");
}

int gr_case_diag_matches(const gr_subst *s, const gr_jv *want, const gr_jv *d){
  matcher q;
  q.s = s; q.fails = NULL; q.nfail = 0;
  return diag_matches(&q, want, d);
}

static void check_report(matcher *m, const gr_jv *exp, const gr_jv *rep){
  size_t i, j, at;
  const gr_jv *nodes = gr_jv_get(rep, "nodes"), *opts = gr_jv_get(rep, "options"), *diags = gr_jv_get(rep, "diagnostics");
  for(i = 0; i < exp->len; i++){
    const char *key = exp->k[i];
    const gr_jv *ev = &exp->v[i];
    if( strcmp(key, "nodes")==0 && ev->t==GR_JV_OBJ ){
      for(j = 0; j < ev->len; j++){
        char *sel = gr_subst_apply(m->s, ev->k[j]);
        if( strncmp(sel, "type:", 5)==0 ){
          size_t from = 0, n = 0;
          const gr_jv *nd;
          while( (nd = gr_jv_find(nodes, "type", sel + 5, from, &at))!=NULL ){
            const gr_jv *nm = gr_jv_get(nd, "name");
            char *w = gr_xasprintf("nodes[%s]", nm && nm->t==GR_JV_STR ? nm->s : "?");
            match(m, &ev->v[j], nd, w);
            free(w);
            from = at + 1; n++;
          }
          if( n==0 ) fail(m, "nodes[%s]: no node of type %s", sel, sel + 5);
        }else{
          const gr_jv *nd = gr_jv_find(nodes, "name", sel, 0, NULL);
          char *w = gr_xasprintf("nodes[%s]", sel);
          if( nd==NULL ) fail(m, "%s: no such node", w);
          else match(m, &ev->v[j], nd, w);
          free(w);
        }
        free(sel);
      }
    }else if( strcmp(key, "options")==0 && ev->t==GR_JV_OBJ ){
      for(j = 0; j < ev->len; j++){
        const gr_jv *o = gr_jv_find(opts, "name", ev->k[j], 0, NULL);
        char *w = gr_xasprintf("options[%s]", ev->k[j]);
        if( ev->v[j].t==GR_JV_NULL ){
          if( o ){ char *s = gr_jv_short(o, 300); fail(m, "%s: expected absent, got %s", w, s); free(s); }
        }else if( o==NULL ){
          fail(m, "%s: not in the report", w);
        }else{
          match(m, &ev->v[j], o, w);
        }
        free(w);
      }
    }else if( strcmp(key, "diagnostics")==0 && ev->t==GR_JV_ARR ){
      for(j = 0; j < ev->len; j++){
        const gr_jv *want = &ev->v[j], *cnt = gr_jv_get(want, "#");
        size_t hits = 0, q;
        for(q = 0; diags && diags->t==GR_JV_ARR && q < diags->len; q++) if( diag_matches(m, want, &diags->v[q]) ) hits++;
        if( cnt && cnt->t==GR_JV_INT ){
          if( (int64_t)hits!=cnt->i ){
            char *s1 = gr_jv_short(want, 300), *s2 = gr_jv_short(diags, 3000);
            fail(m, "diagnostics[%zu]: %zu diagnostic(s) match %s, expected %lld; have %s", j, hits, s1, (long long)cnt->i, s2);
            free(s1); free(s2);
          }
        }else if( hits==0 ){
          char *s1 = gr_jv_short(want, 300), *s2 = gr_jv_short(diags, 3000);
          fail(m, "diagnostics[%zu]: none matches %s; have %s", j, s1, s2);
          free(s1); free(s2);
        }
      }
    }else if( strcmp(key, "absent")==0 && ev->t==GR_JV_ARR ){
      for(j = 0; j < ev->len; j++){
        size_t q;
        for(q = 0; diags && diags->t==GR_JV_ARR && q < diags->len; q++){
          if( diag_matches(m, &ev->v[j], &diags->v[q]) ){
            char *s1 = gr_jv_short(&ev->v[j], 300), *s2 = gr_jv_short(&diags->v[q], 300);
            fail(m, "absent: diagnostic matching %s is present: %s", s1, s2);
            free(s1); free(s2);
          }
        }
      }
    }else if( strlen(key) > 1 && (key[strlen(key)-1]=='!' || key[strlen(key)-1]=='~') ){
      /* a top-level `key!` or `key~`: the object rules, on the report itself */
      gr_jv one;
      char *k1 = (char*)key;
      memset(&one, 0, sizeof one);
      one.t = GR_JV_OBJ; one.len = 1; one.k = &k1; one.v = (gr_jv*)ev;
      match(m, &one, rep, "");
    }else{
      const gr_jv *av = gr_jv_get(rep, key);
      char *w = gr_xasprintf(".%s", key);
      if( av==NULL ){ char *s = gr_jv_short(ev, 300); fail(m, "%s: missing (expected %s)", w, s); free(s); }
      else match(m, ev, av, w);
      free(w);
    }
  }
}

/* What every report must satisfy: summary counts equal the diagnostics, the
** exit status says whether there is an error. */
static void sanity(matcher *m, const gr_jv *rep, int rc){
  static const char *sev[] = { "error", "warning", "note" }, *key[] = { "errors", "warnings", "notes" };
  const gr_jv *diags = gr_jv_get(rep, "diagnostics"), *summ = gr_jv_get(rep, "summary"), *nodes = gr_jv_get(rep, "nodes");
  const gr_jv *x;
  size_t k, i;
  int64_t errors = 0;
  for(k = 0; k < 3; k++){
    int64_t n = 0;
    for(i = 0; diags && diags->t==GR_JV_ARR && i < diags->len; i++){
      const gr_jv *s = gr_jv_get(&diags->v[i], "severity");
      if( s && s->t==GR_JV_STR && strcmp(s->s, sev[k])==0 ) n++;
    }
    x = gr_jv_get(summ, key[k]);
    if( x==NULL || x->t!=GR_JV_INT || x->i!=n ) fail(m, "summary.%s does not equal the %lld %s diagnostics", key[k], (long long)n, sev[k]);
    if( k==0 ) errors = n;
  }
  x = gr_jv_get(summ, "nodes");
  if( nodes && nodes->t==GR_JV_ARR && (x==NULL || x->t!=GR_JV_INT || x->i!=(int64_t)nodes->len) ){
    fail(m, "summary.nodes does not equal the %zu nodes listed", nodes->len);
  }
  if( rc!=(errors ? 1 : 0) ) fail(m, "exit status %d but the report has %lld error(s)", rc, (long long)errors);
}

/* What a sanitizer prints (for runs against the ASan/UBSan build). */
static const char *const sanitizer_marks[] = { "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:" };

int gr_case_check(const gr_case *c, const gr_subst *s, int rc, const char *out, size_t nout,
                  const char *err, const char *out2, size_t nout2, gr_jv **report, gr_buf *fails){
  matcher m;
  size_t i;
  m.s = s; m.fails = fails; m.nfail = 0;
  *report = NULL;
  if( rc!=c->exit ) fail(&m, "exit status %d, expected %d", rc, c->exit);
  if( out2 && (nout2!=nout || memcmp(out, out2, nout)!=0) ) fail(&m, "a second run gave different output (not deterministic)");
  for(i = 0; i < sizeof sanitizer_marks / sizeof *sanitizer_marks; i++)
    if( err && strstr(err, sanitizer_marks[i]) ) fail(&m, "sanitizer report on stderr (%s)", sanitizer_marks[i]);
  for(i = 0; i < c->nstderr; i++){
    char *want = gr_subst_apply(s, c->stderr_has[i]);
    if( strstr(err, want)==NULL ) fail(&m, "stderr does not contain \"%s\"", want);
    free(want);
  }
  if( rc==2 ){
    /* nothing (a usage error), or the failure document of --format json */
    if( nout ){
      gr_error e;
      gr_jv *doc;
      const gr_jv *st, *dg;
      memset(&e, 0, sizeof e);
      doc = gr_jv_parse(out, nout, &e);
      st = doc ? gr_jv_get(doc, "status") : NULL;
      dg = doc ? gr_jv_get(doc, "diagnostics") : NULL;
      if( st==NULL || st->t!=GR_JV_STR || strcmp(st->s, "failed")!=0 || dg==NULL || dg->t!=GR_JV_ARR || dg->len==0 )
        fail(&m, "exit status 2 but stdout is neither empty nor a failure document (status \"failed\" and its diagnostics)");
      gr_jv_free(doc);
    }
  }else if( rc==0 || rc==1 ){
    gr_error e;
    gr_jv *rep;
    memset(&e, 0, sizeof e);
    rep = gr_jv_parse(out, nout, &e);
    if( rep==NULL ){
      fail(&m, "stdout is not one JSON document (%u:%u: %s)", e.line, e.col, e.msg);
    }else{
      sanity(&m, rep, rc);
      if( c->expect ) check_report(&m, c->expect, rep);
      *report = rep;
    }
  }
  if( m.nfail && err && *err ){
    gr_buf_adds(fails, "stderr: ");
    gr_buf_adds(fails, err);
    if( fails->n && fails->p[fails->n-1]!='\n' ) gr_buf_addc(fails, '\n');
  }
  return m.nfail;
}

/* ------------------------------------------------------------------ */
/* coverage */

static void cov_key(gr_coverage *cv, const gr_loc *l, size_t index){
  char *k = gr_xasprintf("%s:%u", gr_ruleset_short_path(cv->rs, l->file), l->line);
  if( gr_map_get(&cv->where, k) ){ free(k); return; }   /* two on one line: the first */
  gr_map_put(&cv->where, k, (void*)(uintptr_t)(index + 1));
  cv->keys = gr_xrealloc(cv->keys, (cv->nkeys + 1) * sizeof *cv->keys);
  cv->keys[cv->nkeys++] = k;
}

void gr_coverage_init(gr_coverage *cv, const gr_ruleset *rs){
  size_t i, k, n = 0;
  memset(cv, 0, sizeof *cv);
  cv->rs = rs;
  gr_map_init(&cv->where);
  cv->branch_first = gr_xcalloc(rs->nsources + 1, sizeof *cv->branch_first);
  for(i = 0; i < rs->nsources; i++){ cv->branch_first[i] = n; n += rs->sources[i].nbranches; }
  cv->branch_first[rs->nsources] = n;
  cv->nbranches = n;
  cv->branch_hit = gr_xcalloc(n + 1, 1);
  cv->nrules = rs->nrules + rs->nrelations;
  cv->rule_hit = gr_xcalloc(cv->nrules + 1, 1);
  for(i = 0; i < rs->nsources; i++)
    for(k = 0; k < rs->sources[i].nbranches; k++) cov_key(cv, &rs->sources[i].branches[k].loc, cv->branch_first[i] + k);
  for(i = 0; i < rs->nrules; i++) cov_key(cv, &rs->rules[i].loc, n + i);
  for(i = 0; i < rs->nrelations; i++) cov_key(cv, &rs->relations[i].loc, n + rs->nrules + i);
}

static void mark(gr_coverage *cv, const gr_jv *where){
  uintptr_t x;
  if( where==NULL || where->t!=GR_JV_STR ) return;
  x = (uintptr_t)gr_map_get(&cv->where, where->s);
  if( x==0 ) return;
  x--;
  if( x < cv->nbranches ) cv->branch_hit[x] = 1;
  else if( x - cv->nbranches < cv->nrules ) cv->rule_hit[x - cv->nbranches] = 1;
}

void gr_coverage_add(gr_coverage *cv, const gr_jv *rep){
  const gr_jv *nodes = gr_jv_get(rep, "nodes"), *diags = gr_jv_get(rep, "diagnostics"), *opts = gr_jv_get(rep, "options");
  size_t i, k;
  for(i = 0; nodes && nodes->t==GR_JV_ARR && i < nodes->len; i++){
    const gr_jv *pv = gr_jv_get(&nodes->v[i], "provenance");
    for(k = 0; pv && pv->t==GR_JV_ARR && k < pv->len; k++) mark(cv, gr_jv_get(&pv->v[k], "rule"));
  }
  for(i = 0; opts && opts->t==GR_JV_ARR && i < opts->len; i++) mark(cv, gr_jv_get(&opts->v[i], "rule"));
  for(i = 0; diags && diags->t==GR_JV_ARR && i < diags->len; i++) mark(cv, gr_jv_get(&diags->v[i], "rule"));
}

#define ALL_LAYERS ((size_t)-1)

/* Counts over the whole stack (layer ALL_LAYERS) or over one layer. */
static void counts_in(const gr_coverage *cv, size_t layer, size_t *src_hit, size_t *src_all, size_t *br_hit,
                      size_t *br_all, size_t *rule_hit, size_t *rule_all){
  const gr_ruleset *rs = cv->rs;
  size_t i, k;
  *src_hit = *src_all = *br_hit = *br_all = *rule_hit = *rule_all = 0;
  for(i = 0; i < rs->nsources; i++){
    int any = 0, mine = 0;
    for(k = cv->branch_first[i]; k < cv->branch_first[i + 1]; k++){
      if( layer!=ALL_LAYERS && gr_ruleset_layer_of(rs, rs->sources[i].branches[k - cv->branch_first[i]].loc.file)!=layer ) continue;
      mine = 1;
      (*br_all)++;
      if( cv->branch_hit[k] ){ any = 1; (*br_hit)++; }
    }
    if( layer==ALL_LAYERS ) mine = 1;
    *src_all += (size_t)mine;
    *src_hit += (size_t)any;
  }
  for(i = 0; i < cv->nrules; i++){
    const gr_loc *l = i < rs->nrules ? &rs->rules[i].loc : &rs->relations[i - rs->nrules].loc;
    if( layer!=ALL_LAYERS && gr_ruleset_layer_of(rs, l->file)!=layer ) continue;
    (*rule_all)++;
    *rule_hit += cv->rule_hit[i];
  }
}

void gr_coverage_counts(const gr_coverage *cv, size_t *src_hit, size_t *src_all, size_t *br_hit, size_t *br_all,
                        size_t *rule_hit, size_t *rule_all){
  counts_in(cv, ALL_LAYERS, src_hit, src_all, br_hit, br_all, rule_hit, rule_all);
}

void gr_coverage_layer_counts(const gr_coverage *cv, size_t layer, size_t *src_hit, size_t *src_all, size_t *br_hit,
                              size_t *br_all, size_t *rule_hit, size_t *rule_all){
  counts_in(cv, layer, src_hit, src_all, br_hit, br_all, rule_hit, rule_all);
}

void gr_coverage_free(gr_coverage *cv){
  size_t i;
  if( cv==NULL ) return;
  gr_map_free(&cv->where);
  for(i = 0; i < cv->nkeys; i++) free(cv->keys[i]);
  free(cv->keys);
  free(cv->branch_hit); free(cv->branch_first); free(cv->rule_hit);
  memset(cv, 0, sizeof *cv);
}
