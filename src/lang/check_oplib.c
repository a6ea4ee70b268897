/*
** check_oplib.c: the checker of the op information library statements
** (`oplib NAME "desc" { ... }` and `dtypes STORE[, STORE...] "Op" from "cite"
** [when COND] { ... }`, doc/rule-language.md "Op information library").
** ck_oplib checks each store's header lines, indexes its ops by type (a
** type twice in one store is an error), checks each dtypes block's
** condition (a boolean over the node), binds every dtypes block to its op in
** each store it names (a conditional block after the op's unconditional one
** is never used: an error) and fills rs->oplib; a conditional block's lists
** go to a copy of the op (gr_oplib_op.when), the unconditional block's to
** the op itself.
** ol_compile turns one op's item into the gr_oplib_op the evaluator reads:
** its policy and flag words, its tensors and their dtype and format lists
** (dtype names from table `dtypes`; in a `columns` store every list of an op
** has one entry per column). It runs while checking for ops written
** in full and for ops with a dtypes block, and on first lookup (oplib.c) for
** ops the parser only indexed.
*/
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/oplib_int.h"

/* ------------------------------------------------------------------ */
/* reporting: through the checker while checking, else into diags with the
** snippet from the adopted file texts */

static const char *text_of(struct gr_oplib_lib *lib, const char *file, size_t *len, const gr_lineidx **lines){
  size_t i;
  *lines = NULL;
  if( lib->src ){
    const gr_lineidx *ix = ck_lines_of(lib->src, file);
    if( ix ){ *len = ix->len; *lines = ix; return ix->text; }
    return NULL;
  }
  for(i = 0; i < lib->rs->nfiles; i++){
    if( lib->rs->files[i]==file && lib->texts && lib->texts[i] ){ *len = lib->lens[i]; return lib->texts[i]; }
  }
  return NULL;
}

static void rep(ol_report *r, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void rep(ol_report *r, gr_loc loc, const char *fmt, ...){
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->nerr++;
  if( r->c ){ ck_err(r->c, loc, "%s", msg); return; }
  {
    gr_diag *d = gr_diags_add(r->diags, GR_SEV_ERROR, loc.file, loc.line, loc.col, "%s", msg);
    size_t len;
    const gr_lineidx *ix;
    const char *text = text_of(r->lib, loc.file, &len, &ix);
    if( d && loc.line && text ) d->snippet = gr_source_line(text, loc.line);
  }
}

static const char *dym(char *buf, size_t n, const char *s){
  if( s ) snprintf(buf, n, "; did you mean '%s'?", s); else buf[0] = 0;
  return buf;
}

/* ------------------------------------------------------------------ */
/* words of an op */

static const struct { const char *word; unsigned flag; } op_flags[] = {
  { "dynamic_shape", GR_OPF_DYN_SHAPE }, { "dynamic_rank", GR_OPF_DYN_RANK },
  { "dynamic_rank_upgrade", GR_OPF_DYN_RANK_UPGRADE }, { "dynamic_compile_static", GR_OPF_DYN_COMPILE_STATIC },
  { "dynamic_format", GR_OPF_DYN_FORMAT }, { "ge_op", GR_OPF_GE_OP }, { "heavy", GR_OPF_HEAVY },
  { "need_check_support", GR_OPF_NEED_CHECK_SUPPORT }
};
#define NFLAGS (sizeof op_flags / sizeof *op_flags)
static const char *const policy_words[] = { "gray", "white", "black" };   /* gr_oplib_policy order */
static const char *const param_words[] = { "required", "optional", "dynamic" };   /* gr_oplib_param order */
static const char *const kind_words[] = { "columns", "kernel" };               /* gr_oplib_kind order */

static int word_index(const char *const *words, size_t n, const char *w){
  size_t i;
  for(i = 0; i < n; i++) if( strcmp(words[i], w)==0 ) return (int)i;
  return -1;
}

static void op_words(ol_report *r, const gr_item *it, gr_oplib_op *op){
  const gr_name *w;
  int have_policy = 0;
  for(w = it->names; w; w = w->next){
    int p = word_index(policy_words, 3, w->s);
    size_t f;
    if( p >= 0 ){
      if( have_policy ) rep(r, w->loc, "op \"%s\" has two policy words (white, black or gray: one at most)", it->name);
      op->policy = (gr_oplib_policy)p;
      have_policy = 1;
      continue;
    }
    for(f = 0; f < NFLAGS; f++) if( strcmp(op_flags[f].word, w->s)==0 ) break;
    if( f < NFLAGS ){
      if( op->flags & op_flags[f].flag ) rep(r, w->loc, "flag '%s' is given twice", w->s);
      op->flags |= op_flags[f].flag;
      continue;
    }
    {
      const char *all[NFLAGS + 3];
      char b[128];
      size_t k;
      for(k = 0; k < NFLAGS; k++) all[k] = op_flags[k].word;
      for(k = 0; k < 3; k++) all[NFLAGS + k] = policy_words[k];
      rep(r, w->loc, "unknown op word '%s' (a policy: white, black, gray; or a flag: dynamic_shape, dynamic_rank, "
          "dynamic_rank_upgrade, dynamic_compile_static, dynamic_format, ge_op, heavy, need_check_support)%s",
          w->s, dym(b, sizeof b, gr_suggest(w->s, all, NFLAGS + 3)));
    }
  }
}

/* ------------------------------------------------------------------ */
/* lists */

/* Splits a comma list written at loc (a string: its first byte is the
** quote) into interned names. dtypes: names from table dtypes; else formats. */
static int split_list(struct gr_oplib_lib *lib, ol_report *r, const char *s, gr_loc loc, int dtypes,
                      const char ***out){
  gr_ruleset *rs = lib->rs;
  const char **v;
  size_t n = 1, k = 0;
  const char *p, *q;
  int bad = 0;
  for(p = s; *p; p++) if( *p==',' ) n++;
  v = gr_arena_alloc(&rs->arena, n * sizeof *v);
  for(p = s;; p = q + 1){
    const char *a, *b;
    char name[128];
    gr_loc at = loc;
    q = strchr(p, ',');
    if( q==NULL ) q = p + strlen(p);
    for(a = p; a < q && (*a==' ' || *a=='\t'); a++) ;
    for(b = q; b > a && (b[-1]==' ' || b[-1]=='\t'); b--) ;
    at.col = loc.col + 1 + (uint32_t)(a - s);
    if( b==a || (size_t)(b - a) >= sizeof name ){
      rep(r, at, b==a ? "empty entry in a %s list" : "overlong entry in a %s list", dtypes ? "dtype" : "format");
      bad = 1;
    }else{
      memcpy(name, a, (size_t)(b - a)); name[b - a] = 0;
      if( dtypes ){
        void *x = lib->dtypes ? gr_map_get(&lib->dtypes->keymap, name) : NULL;
        if( x==NULL ){
          char dm[160];
          rep(r, at, "unknown dtype '%s' (the dtypes are the keys of table dtypes)%s", name,
              dym(dm, sizeof dm, lib->dtypes ? gr_suggest(name, lib->dtypes->keys, lib->dtypes->n) : NULL));
          bad = 1;
        }else{
          v[k++] = lib->dtypes->keys[(intptr_t)x - 1];
        }
      }else{
        const char *f = gr_map_get(&lib->formats, name);
        if( f==NULL ){
          f = gr_arena_strndup(&rs->arena, name, strlen(name));
          gr_map_put(&lib->formats, f, (void*)f);
        }
        v[k++] = f;
      }
    }
    if( *q==0 ) break;
  }
  *out = v;
  return bad ? -1 : (int)k;
}

/* ------------------------------------------------------------------ */
/* compiling one op */

static const char *dir_word(int kind){ return kind==GR_I_OL_INPUT ? "input" : "output"; }

/* the tensor called name among t[0..n) */
static gr_oplib_tensor *tensor_named(gr_oplib_tensor *t, int n, const char *name){
  int i;
  for(i = 0; i < n; i++) if( strcmp(t[i].name, name)==0 ) return &t[i];
  return NULL;
}

/* fills a tensor's lists from an item (an op's tensor line or a dtypes block's) */
static void tensor_lists(struct gr_oplib_lib *lib, ol_report *r, const gr_item *x, gr_oplib_tensor *t){
  const char **d = NULL, **f = NULL;
  int nd = 0, nf;
  if( x->str==NULL ) return;
  nd = split_list(lib, r, x->str, x->str_loc, 1, &d);
  if( nd < 0 ) return;
  t->ndtypes = nd;
  t->dtypes = d;
  if( x->str2 ){
    nf = split_list(lib, r, x->str2, x->str2_loc, 0, &f);
    if( nf >= 0 && nf!=nd )
      rep(r, x->str2_loc, "%s \"%s\" lists %d formats for %d dtypes (one format per dtype)", dir_word(x->kind), x->name, nf, nd);
    else if( nf >= 0 ) t->formats = f;
  }
}

/* In a columns store every list of an op has one entry per column. */
static void check_columns(ol_report *r, const gr_oplib_op *op, const gr_item *const *lines, int nlines, const gr_loc *where){
  int i, first = -1, n = 0;
  for(i = 0; i < op->ninputs + op->noutputs; i++){
    const gr_oplib_tensor *t = i < op->ninputs ? &op->inputs[i] : &op->outputs[i - op->ninputs];
    if( t->ndtypes==0 ) continue;
    if( first < 0 ){ first = i; n = t->ndtypes; continue; }
    if( t->ndtypes!=n ){
      const gr_oplib_tensor *f = first < op->ninputs ? &op->inputs[first] : &op->outputs[first - op->ninputs];
      gr_loc at = (i < nlines && lines[i]) ? lines[i]->str_loc : *where;
      rep(r, at, "%s \"%s\" lists %d dtypes, but %s \"%s\" lists %d: in a columns store every list of an op "
          "has one entry per column", i < op->ninputs ? "input" : "output", t->name, t->ndtypes,
          first < op->ninputs ? "input" : "output", f->name, n);
      return;
    }
  }
  if( first >= 0 ){
    for(i = 0; i < op->ninputs + op->noutputs; i++){
      const gr_oplib_tensor *t = i < op->ninputs ? &op->inputs[i] : &op->outputs[i - op->ninputs];
      if( t->ndtypes==0 ){
        gr_loc at = (i < nlines && lines[i]) ? lines[i]->loc : *where;
        rep(r, at, "%s \"%s\" has no dtype list while other tensors of op \"%s\" have one: in a columns store "
            "every tensor lists one dtype per column", i < op->ninputs ? "input" : "output", t->name, op->type);
        return;
      }
    }
  }
}

/* dtypes block b of an op (base, as compiled from its own text): lists for
** op, which is base itself or (a conditional block) a copy of it without
** lists. Returns 0 when applied, 1 when left out (a later layer's op has
** lists of its own), -1 after reporting an error. */
static int apply_dtypes(struct gr_oplib_lib *lib, ol_store *s, const gr_item *b, ol_report *r,
                        const gr_oplib_op *base, gr_oplib_op *op){
  const gr_item *x;
  const gr_item **lines;
  int i, n = op->ninputs + op->noutputs;
  char w[300];
  for(i = 0; i < n; i++){
    const gr_oplib_tensor *t = i < base->ninputs ? &base->inputs[i] : &base->outputs[i - base->ninputs];
    if( t->ndtypes && s->st->layer > b->layer ){
      /* a layer's store replaced the one the block was written for, and its
      ** op has lists of its own: they win, the block is left out */
      if( r->c ){
        snprintf(w, sizeof w, "%s:%u", base->file ? base->file : "?", (unsigned)base->line);
        ck_warn(r->c, b->str_loc, "op \"%s\" of store '%s' has dtype lists of its own in a later layer (%s): this dtypes block is "
                "not used", base->type, s->pub.name, w);
      }
      return 1;
    }
    if( t->ndtypes ){
      snprintf(w, sizeof w, "%s:%u", base->file ? base->file : "?", (unsigned)base->line);
      rep(r, b->str_loc, "op \"%s\" of store '%s' already has dtype lists (%s): a dtypes block is only for an op "
          "without them", base->type, s->pub.name, w);
      return -1;
    }
  }
  lines = gr_xcalloc((size_t)n + 1, sizeof *lines);
  for(x = b->items; x; x = x->next){
    gr_oplib_tensor *t;
    int in = x->kind==GR_I_OL_INPUT;
    if( x->kind!=GR_I_OL_INPUT && x->kind!=GR_I_OL_OUTPUT ){
      rep(r, x->loc, "a dtypes block holds only input and output lines (`input \"x\" \"float16,float32\";`)");
      continue;
    }
    if( x->names ){
      rep(r, x->names->loc, "a dtypes block names no parameter kind ('%s'): write `%s \"%s\" \"dtypes\";`",
          x->names->s, dir_word(x->kind), x->name);
      continue;
    }
    t = tensor_named(in ? (gr_oplib_tensor*)op->inputs : (gr_oplib_tensor*)op->outputs, in ? op->ninputs : op->noutputs, x->name);
    if( t==NULL ){
      const char *names[256];
      int k, m = in ? op->ninputs : op->noutputs;
      char dm[160];
      for(k = 0; k < m && k < 256; k++) names[k] = (in ? op->inputs : op->outputs)[k].name;
      rep(r, x->name_loc, "op \"%s\" has no %s \"%s\"%s", op->type, dir_word(x->kind), x->name,
          dym(dm, sizeof dm, gr_suggest(x->name, names, (size_t)k)));
      continue;
    }
    if( lines[(in ? 0 : op->ninputs) + (t - (in ? op->inputs : op->outputs))] ){
      rep(r, x->name_loc, "%s \"%s\" is given twice in this dtypes block", dir_word(x->kind), x->name);
      continue;
    }
    lines[(in ? 0 : op->ninputs) + (t - (in ? op->inputs : op->outputs))] = x;
    tensor_lists(lib, r, x, t);
  }
  if( s->pub.kind==GR_OPLIB_COLUMNS ){
    for(i = 0; i < n; i++){
      const gr_oplib_tensor *t = i < op->ninputs ? &op->inputs[i] : &op->outputs[i - op->ninputs];
      if( lines[i]==NULL ){
        rep(r, b->str_loc, "the dtypes block of op \"%s\" gives no list for %s \"%s\" (a columns store needs one per tensor)",
            op->type, i < op->ninputs ? "input" : "output", t->name);
        free(lines);
        return -1;
      }
    }
    check_columns(r, op, lines, n, &b->str_loc);
  }
  free(lines);
  op->lists_from = ck_keep(lib->rs, b->str2);
  op->file = b->loc.file;
  op->line = (int)b->loc.line;
  return 0;
}

/* a copy of the tensors t[0..n) without lists */
static gr_oplib_tensor *bare_tensors(gr_ruleset *rs, const gr_oplib_tensor *t, int n){
  gr_oplib_tensor *c = gr_arena_calloc(&rs->arena, ((size_t)n + 1) * sizeof *c);
  int i;
  for(i = 0; i < n; i++){ c[i].name = t[i].name; c[i].param = t[i].param; }
  return c;
}

/* the conditional dtypes blocks of op e: one copy of op per block, with
** the block's lists, kept in op->when in the blocks' order */
static void apply_when(struct gr_oplib_lib *lib, ol_store *s, ol_entry *e, ol_report *r, gr_oplib_op *op){
  gr_ruleset *rs = lib->rs;
  gr_oplib_when *w = gr_arena_calloc(&rs->arena, (e->nwhen + 1) * sizeof *w);
  size_t k;
  int n = 0;
  for(k = 0; k < e->nwhen; k++){
    gr_oplib_op *v = gr_arena_calloc(&rs->arena, sizeof *v);
    int rc;
    *v = *op;
    v->inputs = bare_tensors(rs, op->inputs, op->ninputs);
    v->outputs = bare_tensors(rs, op->outputs, op->noutputs);
    v->nwhen = 0; v->when = NULL;
    rc = apply_dtypes(lib, s, e->when[k], r, op, v);
    if( rc < 0 ) return;
    if( rc > 0 ) continue;
    w[n].cond = e->when[k]->e;
    w[n].op = v;
    n++;
  }
  op->nwhen = n;
  op->when = n ? w : NULL;
}

int ol_compile(struct gr_oplib_lib *lib, ol_store *s, ol_entry *e, ol_report *r){
  gr_ruleset *rs = lib->rs;
  gr_item *it = e->it, *parsed = NULL;
  const gr_item *x;
  const gr_item **lines;
  gr_oplib_op *op;
  gr_oplib_tensor *ins, *outs;
  int nin = 0, nout = 0, nerr0 = r->nerr;
  if( e->state ) return e->state > 0 ? 0 : -1;
  if( it==NULL ){
    size_t len;
    const gr_lineidx *ix;
    const char *text = text_of(lib, e->file, &len, &ix);
    gr_diags *d = r->c ? r->c->diags : r->diags;
    size_t before = gr_diags_errors(d);
    if( text ) parsed = gr_parse_op(e->file, text, len, e->off, e->len, e->line, e->col, ix, d);
    if( parsed==NULL ){
      int n = (int)(gr_diags_errors(d) - before);
      if( n==0 ){ rep(r, (gr_loc){ e->file, e->line, e->col }, "op \"%s\": its text is no longer available", e->type); n = 0; }
      if( r->c ) r->c->nerr += n;
      r->nerr += n;
      e->state = -1;
      return -1;
    }
    it = parsed;
  }
  op = gr_arena_calloc(&rs->arena, sizeof *op);
  op->type = e->type;
  op->file = it->loc.file;
  op->line = (int)it->loc.line;
  op_words(r, it, op);
  for(x = it->items; x; x = x->next){
    if( x->kind==GR_I_OL_INPUT ) nin++;
    else if( x->kind==GR_I_OL_OUTPUT ) nout++;
    else rep(r, x->loc, "an op holds only input and output lines (`input \"x\" required \"float16\";`)");
  }
  ins = gr_arena_calloc(&rs->arena, ((size_t)nin + 1) * sizeof *ins);
  outs = gr_arena_calloc(&rs->arena, ((size_t)nout + 1) * sizeof *outs);
  lines = gr_xcalloc((size_t)nin + (size_t)nout + 1, sizeof *lines);
  op->inputs = ins; op->outputs = outs;
  for(x = it->items; x; x = x->next){
    int in = x->kind==GR_I_OL_INPUT, p;
    gr_oplib_tensor *t;
    if( x->kind!=GR_I_OL_INPUT && x->kind!=GR_I_OL_OUTPUT ) continue;
    /* two tensors of one name are allowed: CANN 8.1.RC1's DynamicRNNV2Grad has two outputs "dwcf" */
    if( x->names==NULL ){
      rep(r, x->name_loc, "%s \"%s\" needs its parameter kind: required, optional or dynamic", dir_word(x->kind), x->name);
      continue;
    }
    if( (p = word_index(param_words, 3, x->names->s)) < 0 ){
      char dm[160];
      rep(r, x->names->loc, "unknown parameter kind '%s' (required, optional or dynamic)%s", x->names->s,
          dym(dm, sizeof dm, gr_suggest(x->names->s, param_words, 3)));
      continue;
    }
    if( in ){ lines[op->ninputs] = x; t = &ins[op->ninputs++]; }
    else { lines[nin + op->noutputs] = x; t = &outs[op->noutputs++]; }
    t->name = ck_keep(rs, x->name);
    t->param = (gr_oplib_param)p;
    tensor_lists(lib, r, x, t);
  }
  if( op->ninputs < nin ) memmove(lines + op->ninputs, lines + nin, (size_t)op->noutputs * sizeof *lines);
  if( r->nerr==nerr0 && s->pub.kind==GR_OPLIB_COLUMNS ) check_columns(r, op, lines, op->ninputs + op->noutputs, &it->loc);
  free(lines);
  /* the conditional blocks first: each copies the op while it has no lists */
  if( r->nerr==nerr0 && e->nwhen ) apply_when(lib, s, e, r, op);
  if( r->nerr==nerr0 && e->dtypes ) apply_dtypes(lib, s, e->dtypes, r, op, op);
  gr_item_free(parsed);
  if( r->nerr!=nerr0 ){ e->state = -1; return -1; }
  e->op = op;
  e->state = 1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* stores */

static int is_sha256(const char *s){
  size_t i;
  for(i = 0; s[i]; i++) if( !((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')) ) return 0;
  return i==64;
}

static void store_header(ck *c, ol_store *s, const gr_item *st){
  gr_ruleset *rs = c->rs;
  const gr_item *x;
  const gr_item *engine = NULL, *kind = NULL, *prio = NULL, *family = NULL;
  size_t nfrom = 0, nops = 0, k;
  const char **files, **shas;
  s->st = st;
  s->pub.name = ck_keep(rs, st->name);
  s->pub.description = ck_keep(rs, st->str);
  s->pub.file = st->loc.file;
  s->pub.line = (int)st->loc.line;
  for(x = st->items; x; x = x->next){
    const gr_item **once = NULL;
    const char *what = NULL;
    switch( x->kind ){
      case GR_I_OL_ENGINE: once = &engine; what = "engine"; break;
      case GR_I_OL_KIND: once = &kind; what = "kind"; break;
      case GR_I_OL_PRIORITY: once = &prio; what = "priority"; break;
      case GR_I_OL_FAMILY: once = &family; what = "family"; break;
      case GR_I_OL_FROM: nfrom++; break;
      case GR_I_OL_OP: nops++; break;
      case GR_I_OL_OPS: s->lazy = x; break;
      default:
        ck_err(c, x->loc, "an oplib block holds engine, kind, priority, family, from and op lines only");
        break;
    }
    if( once ){
      if( *once ){
        char w[300];
        ck_where(w, sizeof w, (*once)->loc);
        ck_err(c, x->loc, "the %s of oplib '%s' is given twice (first at %s)", what, st->name, w);
      }else *once = x;
    }
  }
  if( engine==NULL ) ck_err(c, st->name_loc, "oplib '%s' needs an engine line (`engine \"AIcoreEngine\";`)", st->name);
  else if( engine->str[0]==0 ) ck_err(c, engine->str_loc, "the engine name is empty");
  else s->pub.engine = ck_keep(rs, engine->str);
  if( kind==NULL ) ck_err(c, st->name_loc, "oplib '%s' needs a kind line (`kind columns;` or `kind kernel;`)", st->name);
  else{
    int k2 = word_index(kind_words, 2, kind->name);
    char dm[160];
    if( k2 < 0 ) ck_err(c, kind->name_loc, "unknown store kind '%s' (columns or kernel)%s", kind->name,
                        dym(dm, sizeof dm, gr_suggest(kind->name, kind_words, 2)));
    else s->pub.kind = (gr_oplib_kind)k2;
  }
  if( prio ){
    if( prio->lo < -1000000 || prio->lo > 1000000 ) ck_err(c, prio->str_loc, "priority %lld is out of range (-1000000..1000000)", (long long)prio->lo);
    else s->pub.priority = (int)prio->lo;
  }
  if( family ){
    const gr_name *n;
    const char **v;
    int m = 0;
    for(n = family->names; n; n = n->next) m++;
    v = gr_arena_alloc(&rs->arena, (size_t)m * sizeof *v + 1);
    for(m = 0, n = family->names; n; n = n->next){
      int j;
      if( n->s[0]==0 ){ ck_err(c, n->loc, "empty family name"); continue; }
      for(j = 0; j < m; j++) if( strcmp(v[j], n->s)==0 ) break;
      if( j < m ){ ck_err(c, n->loc, "family \"%s\" is named twice", n->s); continue; }
      v[m++] = ck_keep(rs, n->s);
    }
    s->pub.nfamilies = m;
    s->pub.families = v;
  }
  files = gr_arena_calloc(&rs->arena, (nfrom + 1) * sizeof *files);
  shas = gr_arena_calloc(&rs->arena, (nfrom + 1) * sizeof *shas);
  for(k = 0, x = st->items; x; x = x->next){
    if( x->kind!=GR_I_OL_FROM ) continue;
    if( x->str2 && !is_sha256(x->str2) )
      ck_err(c, x->str2_loc, "'%s' is not a SHA-256 (64 lower-case hex digits)", x->str2);
    files[k] = ck_keep(rs, x->str);
    shas[k++] = ck_keep(rs, x->str2);
  }
  s->pub.nsources = (int)k;
  s->pub.source_files = files;
  s->pub.source_sha256 = shas;
  s->pub.from = k ? files[0] : NULL;
  s->pub.sha256 = k ? shas[0] : NULL;
  /* the ops written out, by type (skipped ones are added by ol_index) */
  s->capops = nops + 1;
  s->ops = gr_xcalloc(s->capops, sizeof *s->ops);
  gr_map_init(&s->types);
  for(x = st->items; x; x = x->next){
    void *prev;
    if( x->kind!=GR_I_OL_OP ) continue;
    s->ops[s->nops].it = (gr_item*)x;
    s->ops[s->nops].type = ck_keep(rs, x->name);
    s->ops[s->nops].file = x->loc.file;
    s->ops[s->nops].line = x->loc.line;
    prev = gr_map_put(&s->types, s->ops[s->nops].type, (void*)(intptr_t)(s->nops + 1));
    if( prev ){
      char w[300];
      ck_where(w, sizeof w, s->ops[(intptr_t)prev - 1].it->name_loc);
      ck_err(c, x->name_loc, "op \"%s\" is declared twice in store '%s' (first at %s)", x->name, st->name, w);
      continue;
    }
    s->nops++;
  }
}

/* ------------------------------------------------------------------ */
/* the skipped ops of a big file: indexed on the store's first use */

static int id_char(char c){ return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c=='_'; }

/* skips blanks, newlines and comments */
static const char *skip_space(const char *p, const char *end, uint32_t *line, const char **bol){
  while( p < end ){
    if( *p=='\n' ){ (*line)++; *bol = ++p; }
    else if( *p==' ' || *p=='\t' || *p=='\r' || *p=='\f' || *p=='\v' ) p++;
    else if( *p=='#' ){ while( p < end && *p!='\n' ) p++; }
    else break;
  }
  return p;
}

static void add_entry(struct gr_oplib_lib *lib, ol_store *s, ol_report *r, const char *type, gr_loc name_loc,
                      size_t off, size_t len, uint32_t line, uint32_t col){
  ol_entry *e;
  void *prev = gr_map_get(&s->types, type);
  if( prev ){
    const ol_entry *f = &s->ops[(intptr_t)prev - 1];
    rep(r, name_loc, "op \"%s\" is declared twice in store '%s' (first at %s:%u)", type, s->pub.name, f->file, (unsigned)f->line);
    return;
  }
  if( s->nops==s->capops ){
    s->capops = s->capops * 2 + 16;
    s->ops = gr_xrealloc(s->ops, s->capops * sizeof *s->ops);
  }
  e = &s->ops[s->nops];
  memset(e, 0, sizeof *e);
  e->type = gr_arena_strndup(&lib->rs->arena, type, strlen(type));
  e->file = name_loc.file; e->off = off; e->len = len; e->line = line; e->col = col;
  gr_map_put(&s->types, e->type, (void*)(intptr_t)(s->nops + 1));
  s->nops++;
}

static void bind_one(ol_store *s, const gr_item *b, ol_report *r);
static void compile_bound(struct gr_oplib_lib *lib, ol_store *s, const gr_item *b, ol_report *r);

void ol_index(struct gr_oplib_lib *lib, ol_store *s, ol_report *r){
  const gr_item *z = s->lazy;
  size_t len, k;
  const gr_lineidx *ix;
  const char *text, *p, *end, *bol;
  uint32_t line;
  if( s->indexed ) return;
  s->indexed = 1;
  if( z ){
    text = text_of(lib, z->loc.file, &len, &ix);
    if( text==NULL || (size_t)z->lo > len || (size_t)z->hi > len - (size_t)z->lo || z->loc.col==0 ){
      rep(r, z->loc, "the ops of store '%s': their text is no longer available", s->pub.name);
      return;
    }
    p = text + z->lo; end = p + z->hi; line = z->loc.line; bol = p - (z->loc.col - 1);
    for(;;){
      const char *start, *q, *close;
      uint32_t sline, scol;
      gr_loc nloc;
      char *name;
      p = skip_space(p, end, &line, &bol);
      if( p >= end ) break;
      start = p; sline = line; scol = (uint32_t)(p - bol) + 1;
      if( end - p < 3 || memcmp(p, "op", 2)!=0 || id_char(p[2]) ){
        rep(r, (gr_loc){ z->loc.file, sline, scol }, "after the first op of a big op library file (16 KB or more) only ops "
            "may follow, up to the end of the oplib block%s", "");
        break;
      }
      p = skip_space(p + 2, end, &line, &bol);
      if( p >= end || *p!='"' ){
        rep(r, (gr_loc){ z->loc.file, line, (uint32_t)(p - bol) + 1 }, "an op's type must follow 'op' as a string%s", "");
        break;
      }
      nloc.file = z->loc.file; nloc.line = line; nloc.col = (uint32_t)(p - bol) + 1;
      for(q = p + 1; q < end && *q!='"'; q++) if( *q=='\\' ) q++;
      if( q >= end ) break;
      name = gr_lex_unescape(p + 1, (size_t)(q - p - 1));
      p = q + 1;
      /* the words, then the body */
      for(;;){
        p = skip_space(p, end, &line, &bol);
        if( p < end && id_char(*p) ){ while( p < end && id_char(*p) ) p++; continue; }
        break;
      }
      if( p >= end || *p!='{' ){
        rep(r, (gr_loc){ z->loc.file, line, (uint32_t)(p - bol) + 1 }, "op \"%s\": its body '{ ... }' was expected here", name);
        free(name);
        break;
      }
      close = gr_scan_braces(p + 1, end, 1, 0, &line, &bol);
      if( close==NULL ){
        rep(r, (gr_loc){ z->loc.file, sline, scol }, "op \"%s\": its body does not end%s", name, "");
        free(name);
        break;
      }
      add_entry(lib, s, r, name, nloc, (size_t)(start - text), (size_t)(close + 1 - start), sline, scol);
      free(name);
      p = close + 1;
    }
  }
  for(k = 0; k < s->npending; k++) bind_one(s, s->pending[k], r);
  for(k = 0; k < s->npending; k++) compile_bound(lib, s, s->pending[k], r);
  free(s->pending);
  s->pending = NULL;
  s->npending = 0;
}

static int cmp_store(const void *a, const void *b){
  const ol_store *x = a, *y = b;
  int d = strcmp(x->pub.engine ? x->pub.engine : "", y->pub.engine ? y->pub.engine : "");
  if( d ) return d;
  if( x->pub.priority!=y->pub.priority ) return x->pub.priority < y->pub.priority ? -1 : 1;
  return strcmp(x->pub.name, y->pub.name);
}

static const char *suggest_op(const ol_store *s, const char *word){
  gr_suggester sg;
  size_t i;
  gr_suggest_begin(&sg, word);
  for(i = 0; i < s->nops; i++) gr_suggest_offer(&sg, s->ops[i].type);
  return gr_suggest_best(&sg);
}

/* a dtypes block whose store is known: its op, and the lists */
static void bind_one(ol_store *s, const gr_item *b, ol_report *r){
  void *oi = gr_map_get(&s->types, b->str);
  ol_entry *e;
  char dm[200];
  if( oi==NULL ){
    const char *sug = suggest_op(s, b->str);
    if( sug ) snprintf(dm, sizeof dm, "; did you mean \"%s\"?", sug); else dm[0] = 0;
    rep(r, b->str_loc, "store '%s' has no op \"%s\"%s", s->pub.name, b->str, dm);
    return;
  }
  e = &s->ops[(intptr_t)oi - 1];
  if( e->dtypes ){
    char w[300];
    ck_where(w, sizeof w, e->dtypes->loc);
    if( b->e )
      rep(r, b->e->loc, "this conditional dtypes block is never used: the dtypes block of op \"%s\" of store '%s' at %s "
          "has no condition, so it always holds first (write the conditional blocks before it)", b->str, s->pub.name, w);
    else
      rep(r, b->str_loc, "op \"%s\" of store '%s' already has a dtypes block (%s)%s", b->str, s->pub.name, w,
          e->dtypes->layer==b->layer ? "; give each a condition (`when ...`) to choose between them per node" : "");
    return;
  }
  if( b->e ){
    e->when = gr_xrealloc(e->when, (e->nwhen + 1) * sizeof *e->when);
    e->when[e->nwhen++] = b;
  }else e->dtypes = b;
  /* compiled once every block is bound: by ck_oplib (an op written in
  ** full), else on its first lookup (oplib.c) or by gr_oplib_check_all */
}

/* compiles the op dtypes block b was bound to (once every block is bound:
** an op may have several), so its errors come in the blocks' order */
static void compile_bound(struct gr_oplib_lib *lib, ol_store *s, const gr_item *b, ol_report *r){
  void *oi = gr_map_get(&s->types, b->str);
  if( oi ) ol_compile(lib, s, &s->ops[(intptr_t)oi - 1], r);
}

/* dtypes block b for the store called name (at loc) */
static void bind_store(ck *c, struct gr_oplib_lib *lib, const gr_item *b, const char *name, gr_loc loc){
  void *si = gr_map_get(&lib->store_map, name);
  ol_store *s;
  char dm[200];
  if( si==NULL ){
    gr_suggester sg;
    size_t i;
    gr_suggest_begin(&sg, name);
    for(i = 0; i < lib->nstores; i++) gr_suggest_offer(&sg, lib->stores[i].pub.name);
    ck_err(c, loc, "dtypes for an unknown op store '%s'%s", name, dym(dm, sizeof dm, gr_suggest_best(&sg)));
    return;
  }
  s = &lib->stores[(intptr_t)si - 1];
  if( s->lazy && !s->indexed ){
    /* a big file's ops: bound when the store is indexed */
    s->pending = gr_xrealloc(s->pending, (s->npending + 1) * sizeof *s->pending);
    s->pending[s->npending++] = b;
    return;
  }
  {
    ol_report r;
    memset(&r, 0, sizeof r);
    r.c = c; r.lib = lib;
    bind_one(s, b, &r);
  }
}

static void bind_dtypes(ck *c, struct gr_oplib_lib *lib, const gr_item *b){
  const gr_name *n, *m;
  if( b->e ){
    /* the condition: a boolean over the node, tested while the judge runs */
    int scope = c->scope, in_source = c->in_source;
    c->scope = GR_SCOPE_NODE; c->in_source = 0; c->in_dtypes = 1;
    ck_want(c, b->e, GR_T_BOOL, "the condition of a dtypes block");
    c->scope = scope; c->in_source = in_source; c->in_dtypes = 0;
  }
  for(n = b->names; n; n = n->next){
    for(m = b->names; m!=n && strcmp(m->s, n->s)!=0; m = m->next) ;
    if( m!=n ){
      ck_err(c, n->loc, "store '%s' is named twice in this dtypes block", n->s);
      continue;
    }
    bind_store(c, lib, b, n->s, n->loc);
  }
}

void ck_oplib(ck *c){
  gr_ruleset *rs = c->rs;
  struct gr_oplib_lib *lib;
  gr_item *st;
  size_t i, nstores = 0, ndt = 0;
  int t;
  CK_EACH_KIND(c, i, st, GR_I_OPLIB) nstores++;
  CK_EACH_KIND(c, i, st, GR_I_DTYPES) ndt++;
  if( nstores + ndt==0 ) return;
  lib = gr_xcalloc(1, sizeof *lib);
  rs->oplib = lib;
  lib->rs = rs;
  lib->src = c->src;
  gr_map_init(&lib->store_map);
  gr_map_init(&lib->formats);
  gr_diags_init(&lib->diags);
  t = gr_ruleset_find(&rs->table_map, "dtypes");
  if( t >= 0 ) lib->dtypes = &rs->tables[t];
  else CK_EACH_KIND(c, i, st, GR_I_OPLIB){
    ck_err(c, st->loc, "the op library needs table dtypes: the dtype names its lists may use");
    break;
  }
  lib->stores = gr_xcalloc(nstores + 1, sizeof *lib->stores);
  CK_EACH_KIND(c, i, st, GR_I_OPLIB) store_header(c, &lib->stores[lib->nstores++], st);
  qsort(lib->stores, lib->nstores, sizeof *lib->stores, cmp_store);
  for(i = 0; i < lib->nstores; i++){
    void *prev = gr_map_put(&lib->store_map, lib->stores[i].pub.name, (void*)(intptr_t)(i + 1));
    if( prev ){
      const ol_store *a = &lib->stores[(intptr_t)prev - 1], *b = &lib->stores[i];
      const ol_store *first = a->st->loc.file==b->st->loc.file && a->st->loc.line < b->st->loc.line ? a : b;
      const ol_store *second = first==a ? b : a;
      char w[300];
      ck_where(w, sizeof w, first->st->name_loc);
      ck_err(c, second->st->name_loc, "duplicate definition of oplib '%s' (first defined at %s)", b->pub.name, w);
    }
  }
  CK_EACH_KIND(c, i, st, GR_I_DTYPES) bind_dtypes(c, lib, st);
  /* the ops given lists by a block, in the blocks' order (a big file's are
  ** bound and compiled when its store is indexed) */
  CK_EACH_KIND(c, i, st, GR_I_DTYPES){
    const gr_name *n;
    for(n = st->names; n; n = n->next){
      void *si = gr_map_get(&lib->store_map, n->s);
      ol_store *s = si ? &lib->stores[(intptr_t)si - 1] : NULL;
      ol_report r;
      if( s==NULL || (s->lazy && !s->indexed) ) continue;
      memset(&r, 0, sizeof r);
      r.c = c; r.lib = lib;
      compile_bound(lib, s, st, &r);
    }
  }
  /* ops written in full (not indexed lazily) are checked now */
  for(i = 0; i < lib->nstores; i++){
    ol_store *s = &lib->stores[i];
    size_t k;
    for(k = 0; k < s->nops; k++){
      if( s->ops[k].it!=NULL && s->ops[k].state==0 ){
        ol_report r;
        memset(&r, 0, sizeof r);
        r.c = c; r.lib = lib;
        ol_compile(lib, s, &s->ops[k], &r);
      }
    }
  }
  lib->src = NULL;
}
