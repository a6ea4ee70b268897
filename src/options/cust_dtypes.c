/*
** cust_dtypes.c: the CUSTOMIZE_DTYPES file reader (dtype_files.h), as FE
** reads it (hicann/ge @ffdcbc9f7 compiler/engines/nn_engine/utils/common/
** config_parser/op_cust_dtypes_config_parser.cc, ParseFileContent and
** ParseDTypeFromLine): every line, blank ones included, must parse, else
** E20101 and the file is refused. A line starting with `OpType::` names an
** op type (those 8 bytes dropped), any other a node name; then the line is
** trimmed and the name is the text before its first ':' (none, or at the
** start: E20101). The text after "InputDtype" + 1 byte up to "OutputDtype"
** is the input list, the text after "OutputDtype" + 1 byte the output list
** ("OutputDtype" before "InputDtype" is E20003; neither: E20101); each list
** is split at ',' as FE's StringUtils::Split does (compiler/engines/nn_engine/inc/common/string_utils.h) (a trailing ',' gives a
** last empty entry), entries trimmed; an empty entry is "don't care", any
** other is upper-cased and prefixed with DT_ and must name a GE DataType
** (here: a DT_ key of table oplib_dtype_spelling), else E20003. A line of
** 1024 bytes or more ends FE's reading silently (getline into a 1024-byte
** buffer): the rest of the file is ignored, with a warning here. The first
** entry of a name or type wins; later ones are warned about and ignored.
*/
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options/dtype_files.h"
#include "base/lineidx.h"
#include "options/file_diag.h"

typedef struct cx {
  const char *path;
  gr_lineidx lines;
  gr_diags *d;
  int nerr;
} cx;

static gr_diag *say(cx *r, gr_severity sev, uint32_t line, uint32_t col, const char *code, const char *fmt, const char *a, const char *b){
  return gr_file_diag(r->d, r->path, &r->lines, &r->nerr, sev, line, col, code, fmt, a, b);
}

static int ws(char c){ return isspace((unsigned char)c); }

/* the dtype list text[a..b) into names (*out the caller's to free); -1 after an error, with *out NULL */
static int parse_list(cx *r, const gr_ruleset *rs, const char *line_text, size_t a, size_t b, uint32_t line,
                      const char ***out, size_t *n){
  const gr_table *spell = NULL, *dt = NULL;
  int t;
  size_t p = a;
  *out = NULL; *n = 0;
  if( rs ){
    if( (t = gr_ruleset_find(&rs->table_map, "oplib_dtype_spelling")) >= 0 ) spell = &rs->tables[t];
    if( (t = gr_ruleset_find(&rs->table_map, "dtypes")) >= 0 ) dt = &rs->tables[t];
  }
  if( a >= b ) return 0;               /* an empty list: no entries */
  for(;;){
    size_t q = p, s, e;
    while( q < b && line_text[q]!=',' ) q++;
    for(s = p; s < q && ws(line_text[s]); s++) ;
    for(e = q; e > s && ws(line_text[e-1]); e--) ;
    *out = gr_xrealloc((void*)*out, (*n + 1) * sizeof **out);
    if( s==e ) (*out)[(*n)++] = NULL;
    else{
      char name[80], word[64];
      size_t k, l = e - s;
      void *v = NULL;
      const char *mapped = NULL;
      if( l < sizeof word ){
        memcpy(word, line_text + s, l); word[l] = 0;
        snprintf(name, sizeof name, "DT_%s", word);
        for(k = 3; name[k]; k++) name[k] = (char)toupper((unsigned char)name[k]);
        v = spell ? gr_map_get(&spell->keymap, name) : NULL;
        if( v && spell->vals && spell->vals[(intptr_t)v - 1]->op==GR_E_STR ){
          mapped = spell->vals[(intptr_t)v - 1]->s;
          if( dt ){
            void *x = gr_map_get(&dt->keymap, mapped);
            mapped = x ? dt->keys[(intptr_t)x - 1] : NULL;
          }
        }
      }else{
        snprintf(word, sizeof word, "%.60s", line_text + s);
      }
      if( mapped==NULL ){
        say(r, GR_SEV_ERROR, line, (uint32_t)s + 1, "E20003", "CUSTOMIZE_DTYPES: %s is an invalid dtype%s", word, NULL);
        free((void*)*out); *out = NULL; *n = 0;     /* the caller owns nothing after an error */
        return -1;
      }
      (*out)[(*n)++] = mapped;
    }
    if( q >= b ){
      /* FE's Split gives no entry after a last ',' only when the text was empty */
      break;
    }
    p = q + 1;
    if( p==b ){ *out = gr_xrealloc((void*)*out, (*n + 1) * sizeof **out); (*out)[(*n)++] = NULL; break; }
  }
  return 0;
}

static const char *find_in(const char *s, size_t a, size_t b, const char *word){
  size_t l = strlen(word), i;
  for(i = a; i + l <= b; i++) if( memcmp(s + i, word, l)==0 ) return s + i;
  return NULL;
}

int gr_cust_dtypes_parse(const char *text, size_t len, const char *path, gr_cust_dtypes *out,
                         const gr_ruleset *rs, const char *family, gr_diags *d){
  cx r;
  size_t pos = 0;
  uint32_t line = 0;
  gr_map names_seen, types_seen;
  memset(out, 0, sizeof *out);
  memset(&r, 0, sizeof r);
  out->path = gr_xstrdup(path);
  r.path = out->path; r.d = d;
  gr_lineidx_init(&r.lines, text, len);
  gr_map_init(&names_seen); gr_map_init(&types_seen);
  while( pos < len && r.nerr==0 ){
    const char *s = text + pos, *nl = memchr(s, '\n', len - pos), *e = nl ? nl : text + len;
    size_t a = 0, b = (size_t)(e - s), colon;
    int by_type = 0;
    const char *pi, *po;
    gr_cust_entry ent;
    line++;
    pos = (size_t)(e - text) + (nl ? 1 : 0);
    if( b >= 1024 ){
      say(&r, GR_SEV_WARNING, line, 1024, NULL, "CUSTOMIZE_DTYPES: a line of 1024 bytes or more ends GE's reading of the file: "
          "this line and the rest are ignored%s%s", NULL, NULL);
      break;
    }
    if( b >= 8 && memcmp(s, "OpType::", 8)==0 ){ by_type = 1; a = 8; }
    while( a < b && ws(s[a]) ) a++;
    while( b > a && ws(s[b-1]) ) b--;
    for(colon = a; colon < b && s[colon]!=':'; colon++) ;
    if( colon==b || colon==a ){
      say(&r, GR_SEV_ERROR, line, (uint32_t)a + 1, "E20101", "CUSTOMIZE_DTYPES: the content format of the customization file is incorrect: "
          "%s%s", a==b ? "an empty line (every line must read NAME::InputDtype:...,OutputDtype:...)"
                         : "no ':' after the op name or type", NULL);
      break;
    }
    memset(&ent, 0, sizeof ent);
    ent.by_type = by_type;
    ent.key = gr_xstrndup(s + a, colon - a);
    ent.line = line;
    ent.col = (uint32_t)a + 1;
    pi = find_in(s, a, b, "InputDtype");
    po = find_in(s, a, b, "OutputDtype");
    if( pi==NULL && po==NULL ){
      say(&r, GR_SEV_ERROR, line, (uint32_t)a + 1, "E20101", "CUSTOMIZE_DTYPES: the content format of the customization file is incorrect: "
          "neither InputDtype nor OutputDtype on this line%s%s", NULL, NULL);
      free(ent.key);
      break;
    }
    if( pi && po && pi > po ){
      say(&r, GR_SEV_ERROR, line, (uint32_t)(pi - s) + 1, "E20003", "CUSTOMIZE_DTYPES: InputDtype must be on the left of OutputDtype%s%s", NULL, NULL);
      free(ent.key);
      break;
    }
    {
      size_t ia = pi ? (size_t)(pi - s) + 11 : 0, ib = po ? (size_t)(po - s) : b;
      size_t oa = po ? (size_t)(po - s) + 12 : 0;
      if( pi && parse_list(&r, rs, s, ia < ib ? ia : ib, ib, line, &ent.in, &ent.nin)!=0 ){ free(ent.key); break; }
      if( po && parse_list(&r, rs, s, oa < b ? oa : b, b, line, &ent.out, &ent.nout)!=0 ){ free((void*)ent.in); free(ent.key); break; }
    }
    {
      gr_map *m = by_type ? &types_seen : &names_seen;
      void *prev = gr_map_get(m, ent.key);
      if( prev ){
        char at[64];
        snprintf(at, sizeof at, "line %u", out->v[(intptr_t)prev - 1].line);
        say(&r, GR_SEV_WARNING, line, ent.col, NULL, "CUSTOMIZE_DTYPES: '%s' is given again (first at %s): GE keeps the first", ent.key, at);
        free(ent.key); free((void*)ent.in); free((void*)ent.out);
        continue;
      }
      out->v = gr_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
      out->v[out->n++] = ent;
      gr_map_put(m, out->v[out->n - 1].key, (void*)(intptr_t)out->n);
    }
  }
  gr_map_free(&names_seen); gr_map_free(&types_seen);
  if( r.nerr ){ gr_lineidx_free(&r.lines); gr_cust_dtypes_free(out); return -1; }
  if( rs && gr_oplib_nstores(rs) > 0 ){
    size_t i;
    for(i = 0; i < out->n; i++){
      const gr_cust_entry *e = &out->v[i];
      const char *sug;
      int s2, found = 0;
      if( !e->by_type ) continue;
      for(s2 = 0; s2 < gr_oplib_nstores(rs) && !found; s2++){
        const gr_oplib_store *st = gr_oplib_store_at(rs, s2);
        int j;
        if( !gr_oplib_serves(st, family) ) continue;
        for(j = 0; j < gr_oplib_nops(rs, st) && !found; j++) found = strcmp(gr_oplib_type_at(rs, st, j), e->key)==0;
      }
      if( !found ){
        char tail[200];
        sug = gr_oplib_suggest_type(rs, family, e->key);
        if( sug ) snprintf(tail, sizeof tail, "; did you mean '%s'?", sug); else tail[0] = 0;
        say(&r, GR_SEV_WARNING, e->line, e->col, NULL, "CUSTOMIZE_DTYPES: op type '%s' is in no op library of this chip%s", e->key, tail);
      }
    }
  }
  gr_lineidx_free(&r.lines);
  return 0;
}

int gr_cust_dtypes_read(const char *path, gr_cust_dtypes *out, const gr_ruleset *rs, const char *family, gr_diags *d){
  size_t len;
  char *text;
  int rc;
  memset(out, 0, sizeof *out);
  if( (text = gr_file_diag_read(path, &len, d, "E20101", "CUSTOMIZE_DTYPES: the customize file%.0s does not exist or its access permission is denied (%s)"))==NULL ) return -1;
  rc = gr_cust_dtypes_parse(text, len, path, out, rs, family, d);
  free(text);
  return rc;
}

const gr_cust_entry *gr_cust_dtypes_find(const gr_cust_dtypes *c, const char *node_name, const char *op_type){
  size_t i;
  for(i = 0; c && node_name && i < c->n; i++) if( !c->v[i].by_type && strcmp(c->v[i].key, node_name)==0 ) return &c->v[i];
  for(i = 0; c && op_type && i < c->n; i++) if( c->v[i].by_type && strcmp(c->v[i].key, op_type)==0 ) return &c->v[i];
  return NULL;
}

int gr_cust_dtypes_check(const gr_cust_dtypes *c, int (*matches)(void *ctx, const gr_cust_entry *e),
                         const char *(*suggest)(void *ctx, const gr_cust_entry *e), void *ctx, gr_diags *d){
  size_t i;
  for(i = 0; c && i < c->n; i++){
    const gr_cust_entry *e = &c->v[i];
    const char *sug;
    char tail[200];
    if( matches(ctx, e) ) continue;
    sug = suggest ? suggest(ctx, e) : NULL;
    if( sug && strcmp(sug, e->key)!=0 ) snprintf(tail, sizeof tail, "; did you mean '%s'?", sug); else tail[0] = 0;
    gr_diags_add(d, GR_SEV_WARNING, c->path, e->line, e->col, "CUSTOMIZE_DTYPES: %s '%s' matches no node of the graph%s",
                 e->by_type ? "op type" : "node name", e->key, tail);
  }
  return 0;
}

void gr_cust_dtypes_free(gr_cust_dtypes *c){
  size_t i;
  if( c==NULL ) return;
  for(i = 0; i < c->n; i++){ free(c->v[i].key); free((void*)c->v[i].in); free((void*)c->v[i].out); }
  free(c->v);
  free(c->path);
  memset(c, 0, sizeof *c);
}
