/*
** layers.c: a rule set as an ordered stack of bundles (base, vendor, site).
** Runs before the declarations are checked, on the statement list: every
** path given to gr_ruleset_load that holds a bundle statement starts a new
** layer (a path without one joins the layer before it, so several files of
** one bundle may still be given separately). A later layer adds
** declarations freely but changes an earlier one only explicitly:
**   override KIND NAME { ... }   replaces the declaration (a SoC inside its
**                                product line; any top-level kind)
**   extend table NAME { ... }    appends entries to a table
**   replace cascade SLOT: ...    replaces a slot's cascade
** and the pass rejects, each at its location: a redefinition without one of
** these, an override/extend/replace of a name no earlier layer declares, a
** second override of something an earlier non-base layer already overrode
** when this layer does not `extends` that one (no order between them), and
** an `extends "NAME" >= 1.1, < 2` whose range is malformed or empty or
** that the layers below do not satisfy. The statement
** list is then rewritten (the override takes the overridden statement's
** place) so the checker sees one consistent rule set whose every item keeps
** the location, hence the layer, it was written in.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lang/check.h"
#include "base/semver.h"
#include "base/suggest.h"

static const char *kind_word(int k){
  switch( k ){
    case GR_I_CAPABILITY: return "capability";
    case GR_I_HARDWARE: return "hardware";
    case GR_I_PRODUCT: return "product";
    case GR_I_SOC: return "soc";
    case GR_I_OPTION: return "option";
    case GR_I_MODE: return "mode";
    case GR_I_TABLE: return "table";
    case GR_I_SLOT: return "slot";
    case GR_I_SOURCE: return "source";
    case GR_I_CASCADE: return "cascade";
    case GR_I_RULE: return "rule";
    case GR_I_PARTITION: return "partition";
    case GR_I_ONNX: return "onnx";
    case GR_I_CONDITION: return "condition";
    case GR_I_OPLIB: return "oplib";
    default: return NULL;
  }
}

static const char *item_name(const gr_item *it){ return it->kind==GR_I_SOC ? it->str : it->name; }
/* the name as a statement writes it: an onnx key is a string */
static const char *item_shown(const gr_item *it, char *buf, size_t n){
  if( it->kind!=GR_I_ONNX ) return item_name(it);
  snprintf(buf, n, "\"%s\"", it->name);
  return buf;
}
static gr_loc item_loc(const gr_item *it){ return it->kind==GR_I_SOC ? it->str_loc : it->name_loc; }

/* ---- version ranges: `extends "NAME" >= 1.1, < 2` (parsed by the grammar
** into one GR_I_VERSION item per comparison) ---- */

static const char *op_text(int op){
  switch( op ){ case GR_E_GE: return ">="; case GR_E_GT: return ">"; case GR_E_LE: return "<="; case GR_E_LT: return "<"; default: return "=="; }
}

/* A version of a range as a full semantic version ("1.1" is 1.1.0): 0 when
** it is none (more than three numbers, leading zeros, a sign, '_', hex). */
static int full_version(const char *v, char *out, size_t n){
  const char *p;
  int parts = 1;
  for(p = v; *p && *p!='-' && *p!='+'; p++) if( *p=='.' ) parts++;
  if( parts > 3 || strlen(v) + 5 >= n ) return 0;
  snprintf(out, n, "%.*s%s%s", (int)(p - v), v, parts==1 ? ".0.0" : parts==2 ? ".0" : "", p);
  return gr_semver_valid(out);
}

static int holds(int op, int c){
  switch( op ){ case GR_E_GE: return c >= 0; case GR_E_GT: return c > 0; case GR_E_LE: return c <= 0; case GR_E_LT: return c < 0; default: return c==0; }
}

/* 1 when version v is in the range of x. */
static int in_range(const char *v, const gr_item *x){
  const gr_item *a;
  char fv[128];
  for(a = x->items; a; a = a->next){
    full_version(a->str, fv, sizeof fv);
    if( !holds(a->flag, gr_semver_cmp(v, fv)) ) return 0;
  }
  return 1;
}

/* Checks the range of an extends item: each version well-formed, and some
** version in it (every bound against every other). 0 when it is usable. */
static int check_range(ck *c, const gr_item *x, gr_buf *text){
  const gr_item *a;
  char va[128];
  int bad = 0;
  for(a = x->items; a; a = a->next){
    gr_buf_printf(text, "%s%s%s", a==x->items ? "" : ", ", op_text(a->flag), a->str);
    if( !full_version(a->str, va, sizeof va) ){
      ck_err(c, a->str_loc, "malformed version '%s' in the range of extends \"%s\" (MAJOR[.MINOR[.PATCH]][-PRE], e.g. 1.1 or 2.0.0-rc.1)",
             a->str, x->name);
      bad = 1;
    }
  }
  if( bad ) return -1;
  {
    /* the greatest lower bound, the least upper bound, and any == */
    char lo[128] = "", hi[128] = "", eq[128] = "";
    int lo_strict = 0, hi_strict = 0, empty = 0;
    for(a = x->items; a; a = a->next){
      full_version(a->str, va, sizeof va);
      if( a->flag==GR_E_GE || a->flag==GR_E_GT ){
        int k = lo[0] ? gr_semver_cmp(va, lo) : 1;
        if( k > 0 || (k==0 && a->flag==GR_E_GT) ){ memcpy(lo, va, sizeof lo); lo_strict = a->flag==GR_E_GT; }
      }else if( a->flag==GR_E_LE || a->flag==GR_E_LT ){
        int k = hi[0] ? gr_semver_cmp(va, hi) : -1;
        if( k < 0 || (k==0 && a->flag==GR_E_LT) ){ memcpy(hi, va, sizeof hi); hi_strict = a->flag==GR_E_LT; }
      }else if( eq[0] && gr_semver_cmp(eq, va)!=0 ) empty = 1;
      else memcpy(eq, va, sizeof eq);
    }
    if( lo[0] && hi[0] ){
      int k = gr_semver_cmp(lo, hi);
      if( k > 0 || (k==0 && (lo_strict || hi_strict)) ) empty = 1;
    }
    if( eq[0] && !in_range(eq, x) ) empty = 1;
    if( !empty ) return 0;
  }
  ck_err(c, x->items->loc, "the range '%s' of extends \"%s\" holds no version", gr_buf_cstr(text), x->name);
  return -1;
}

/* ---- finding declarations of earlier layers ---- */

/* The latest statement of kind/name from a layer below `below` (for SoCs:
** the soc item, with its product statement in *parent). *prev_link is the
** link that points at it (for replacing it in place). */
static gr_item *find_decl(gr_item *ast, int kind, const char *name, int below, gr_item ***link, gr_item **parent){
  gr_item **l, *found = NULL;
  for(l = &ast; *l; l = &(*l)->next){
    gr_item *it = *l;
    if( it->layer >= below ) continue;
    if( kind==GR_I_SOC && it->kind==GR_I_PRODUCT ){
      gr_item **sl;
      for(sl = &it->items; *sl; sl = &(*sl)->next){
        if( (*sl)->kind==GR_I_SOC && (*sl)->str && strcmp((*sl)->str, name)==0 ){ found = *sl; *link = sl; *parent = it; }
      }
    }else if( it->kind==kind && item_name(it) && strcmp(item_name(it), name)==0 && !(kind==GR_I_TABLE && it->mod==GR_MOD_EXTEND) ){
      found = it; *link = l; *parent = NULL;
    }
  }
  return found;
}

/* "; did you mean 'x'?" among the declarations of kind (SoCs inside their
** lines) that the layers below `below` hold, or "". */
static const char *decl_suggestion(const gr_item *ast, int kind, const char *name, int below, char *buf, size_t n){
  gr_suggester sg;
  const gr_item *it, *x;
  gr_suggest_begin(&sg, name);
  for(it = ast; it; it = it->next){
    if( it->layer >= below ) continue;
    if( kind==GR_I_SOC && it->kind==GR_I_PRODUCT ){
      for(x = it->items; x; x = x->next) if( x->kind==GR_I_SOC && x->str ) gr_suggest_offer(&sg, x->str);
    }else if( it->kind==kind && item_name(it) ) gr_suggest_offer(&sg, item_name(it));
  }
  if( gr_suggest_best(&sg)==NULL ) return "";
  snprintf(buf, n, "; did you mean '%s'?", gr_suggest_best(&sg));
  return buf;
}

/* An `extend product NAME { ... }` holds SoCs and caps only: the title, the
** description and the rest stay the base's (override product changes them). */
static int extension_of_product_ok(ck *c, const gr_item *st){
  const gr_item *it;
  int ok = 1;
  if( st->str ){
    ck_err(c, st->str_loc, "extend product %s takes no title: it adds SoCs and caps to the line; 'override product' changes the rest", st->name);
    ok = 0;
  }
  for(it = st->items; it; it = it->next)
    if( it->kind!=GR_I_SOC && it->kind!=GR_I_CAPS ){
      ck_err(c, it->loc, "extend product %s adds only 'soc' and 'caps'; 'override product %s' changes the rest", st->name, st->name);
      ok = 0;
    }
  return ok;
}

/* The SoCs of a new or extended product line must not be an earlier
** layer's: a layer changes one only with `override soc`. */
static void socs_are_new(ck *c, const gr_ruleset *rs, const gr_item *st, int below){
  const gr_item *s2;
  char where[256];
  for(s2 = st->items; s2; s2 = s2->next){
    gr_item **t2, *p2;
    if( s2->kind==GR_I_SOC && s2->str && find_decl(rs->ast, GR_I_SOC, s2->str, below, &t2, &p2) ){
      ck_where(where, sizeof where, (*t2)->str_loc);
      ck_err(c, s2->str_loc, "soc \"%s\" is already declared by bundle '%s' (%s); a layer changes it only with 'override soc \"%s\" { ... }'",
             s2->str, rs->layers[p2->layer].name ? rs->layers[p2->layer].name : "?", where, s2->str);
    }
  }
}

static int has_soc(const gr_item *product, const char *name){
  const gr_item *it;
  for(it = product->items; it; it = it->next) if( it->kind==GR_I_SOC && it->str && strcmp(it->str, name)==0 ) return 1;
  return 0;
}

static int has_cap(const gr_item *product, const char *name){
  const gr_item *it;
  const gr_name *n;
  for(it = product->items; it; it = it->next)
    if( it->kind==GR_I_CAPS ) for(n = it->names; n; n = n->next) if( strcmp(n->s, name)==0 ) return 1;
  return 0;
}

/* `override product` restates the whole line: SoCs or caps of the line it
** replaces that it does not list are gone, which `check` says (a warning:
** dropping them may be the point), naming them and the way to add
** without dropping. */
static void warn_dropped(ck *c, const gr_ruleset *rs, const gr_item *st, const gr_item *target){
  const gr_item *it;
  const gr_name *n;
  gr_buf socs, caps;
  size_t nsoc = 0, ncap = 0;
  const char *by = rs->layers[target->layer].name ? rs->layers[target->layer].name : "?";
  gr_buf_init(&socs); gr_buf_init(&caps);
  for(it = target->items; it; it = it->next){
    if( it->kind==GR_I_SOC && it->str && !has_soc(st, it->str) ){
      if( nsoc < 4 ) gr_buf_printf(&socs, "%s%s", nsoc ? ", " : "", it->str);
      nsoc++;
    }else if( it->kind==GR_I_CAPS ){
      for(n = it->names; n; n = n->next) if( !has_cap(st, n->s) ){
        if( ncap < 4 ) gr_buf_printf(&caps, "%s%s", ncap ? ", " : "", n->s);
        ncap++;
      }
    }
  }
  if( nsoc )
    ck_warn(c, st->mod_loc, "override product %s drops %zu SoC(s) that bundle '%s' declares (%s%s): they are no longer known; "
            "'extend product %s { soc ...; }' adds SoCs without dropping any", st->name, nsoc, by, gr_buf_cstr(&socs),
            nsoc > 4 ? ", ..." : "", st->name);
  if( ncap )
    ck_warn(c, st->mod_loc, "override product %s drops %zu cap(s) that bundle '%s' gives the line (%s%s); "
            "'extend product %s { caps ...; }' adds caps without dropping any", st->name, ncap, by, gr_buf_cstr(&caps),
            ncap > 4 ? ", ..." : "", st->name);
  gr_buf_free(&socs); gr_buf_free(&caps);
}

static int layer_extends(const gr_ruleset *rs, const gr_item *bundle, const char *name){
  const gr_item *x;
  (void)rs;
  for(x = bundle ? bundle->items : NULL; x; x = x->next) if( x->kind==GR_I_EXTENDS && strcmp(x->name, name)==0 ) return 1;
  return 0;
}

int gr_check_layers(ck *c){
  gr_ruleset *rs = c->rs;
  size_t npaths = rs->nlayers, i, nl = 0;
  gr_item *it, **bundles, **l;
  int *map;
  char where[512], shown[512];
  if( npaths==0 ) return 0;
  /* paths -> layers: a path with a bundle statement starts a layer when the
  ** current one already has a bundle statement */
  bundles = gr_xcalloc(npaths + 1, sizeof *bundles);
  map = gr_xcalloc(npaths + 1, sizeof *map);
  for(i = 0; i < npaths; i++){
    gr_item *b = NULL;
    for(it = rs->ast; it; it = it->next) if( it->layer==(int)i && it->kind==GR_I_BUNDLE ){ b = it; break; }
    if( nl==0 || (b && bundles[nl - 1]) ){
      rs->layers[nl] = rs->layers[i];      /* nl <= i: moves down in place */
      bundles[nl++] = b;
    }else{
      gr_layer *L = &rs->layers[nl - 1];   /* joins the layer before, files too */
      if( b ) bundles[nl - 1] = b;
      L->nfiles = rs->layers[i].first_file + rs->layers[i].nfiles - L->first_file;
    }
    map[i] = (int)nl - 1;
  }
  for(it = rs->ast; it; it = it->next){
    it->layer = map[it->layer];
    if( it->kind==GR_I_BUNDLE && it!=bundles[it->layer] && it->layer > 0 )
      ck_err(c, it->loc, "a bundle has one bundle statement; '%s' is already declared for %s", bundles[it->layer]->name, rs->layers[it->layer].root);
  }
  rs->nlayers = nl;
  for(i = 0; i < nl; i++){
    gr_layer *L = &rs->layers[i];
    gr_item *x;
    L->name = bundles[i] ? ck_keep(rs, bundles[i]->name) : NULL;
    L->version = L->cann = NULL;
    if( bundles[i] ){
      L->loc = bundles[i]->loc;
      for(x = bundles[i]->items; x; x = x->next){
        if( x->kind==GR_I_VERSION && !L->version ) L->version = ck_keep(rs, x->str);
        if( x->kind==GR_I_CANN && !L->cann ) L->cann = ck_keep(rs, x->str);
      }
    }
  }
  /* extends: each named bundle must be a layer below, in range */
  for(i = 0; i < nl; i++){
    gr_item *x;
    for(x = bundles[i] ? bundles[i]->items : NULL; x; x = x->next){
      size_t k;
      if( x->kind!=GR_I_EXTENDS ) continue;
      for(k = 0; k < i && !(rs->layers[k].name && strcmp(rs->layers[k].name, x->name)==0); k++) ;
      if( k==i ){
        ck_err(c, x->name_loc, "bundle '%s' extends '%s', which is not below it in the stack (give it first: --rules BASE --rules %s)",
               bundles[i]->name, x->name, rs->layers[i].root);
      }
      if( x->flag ){                       /* the range written as a string */
        ck_err(c, x->str_loc, "a version range is written without quotes: extends \"%s\" %s;", x->name, x->str);
      }else if( x->items ){
        gr_buf text;
        gr_buf_init(&text);
        if( check_range(c, x, &text)==0 && k < i &&
            !(rs->layers[k].version && gr_semver_valid(rs->layers[k].version) && in_range(rs->layers[k].version, x)) )
          ck_err(c, x->str_loc, "bundle '%s' needs '%s' %s, but the stack has version %s", bundles[i]->name, x->name, gr_buf_cstr(&text),
                 rs->layers[k].version ? rs->layers[k].version : "(none)");
        gr_buf_free(&text);
      }
    }
  }
  /* the statements of layers above the base */
  for(l = &rs->ast; *l; ){
    gr_item *st = *l, **tl = NULL, *parent = NULL, *target;
    const char *kw = kind_word(st->kind), *nm = item_shown(st, shown, sizeof shown);
    int below = st->layer;
    if( st->kind==GR_I_BUNDLE || st->kind==GR_I_INCLUDE || kw==NULL ){
      if( st->mod ){ ck_err(c, st->mod_loc, "this statement cannot be overridden, extended or replaced"); }
      l = &st->next;
      continue;
    }
    if( st->layer==0 ){
      if( st->mod ) ck_err(c, st->mod_loc, "the base bundle cannot %s: there is no earlier bundle",
                           st->mod==GR_MOD_OVERRIDE ? "override" : st->mod==GR_MOD_EXTEND ? "extend" : "replace");
      l = &st->next;
      continue;
    }
    if( st->mod==GR_MOD_EXTEND && st->kind!=GR_I_TABLE && st->kind!=GR_I_PRODUCT ){
      ck_err(c, st->mod_loc, "only a table or a product line can be extended (extend table NAME { ... }, extend product NAME { ... })");
      l = &st->next;
      continue;
    }
    if( st->mod==GR_MOD_EXTEND && st->kind==GR_I_PRODUCT && !extension_of_product_ok(c, st) ){ l = &st->next; continue; }
    if( st->mod==GR_MOD_EXTEND && st->kind==GR_I_TABLE && st->names ){
      ck_err(c, st->names->loc, "extend table %s adds entries only: the table keeps its own fold ('override table' changes it)", st->name);
      l = &st->next;
      continue;
    }
    if( st->mod==GR_MOD_REPLACE && st->kind!=GR_I_CASCADE ){ ck_err(c, st->mod_loc, "only a cascade can be replaced (replace cascade SLOT: ...)"); l = &st->next; continue; }
    if( st->mod==GR_MOD_OVERRIDE && st->kind==GR_I_CASCADE ){ ck_err(c, st->mod_loc, "a cascade is changed with 'replace cascade %s: ...'", st->name); l = &st->next; continue; }
    if( st->kind==GR_I_PRODUCT && st->mod!=GR_MOD_OVERRIDE ) socs_are_new(c, rs, st, below);
    if( st->mod==GR_MOD_NONE ){
      /* a new declaration: it must not redefine an earlier layer's name */
      target = find_decl(rs->ast, st->kind, item_name(st), below, &tl, &parent);
      if( target ){
        ck_where(where, sizeof where, item_loc(target));
        ck_err(c, item_loc(st), "%s %s is already declared by bundle '%s' (%s); a layer changes it only with '%s %s %s ...'",
               kw, nm, rs->layers[target->layer].name ? rs->layers[target->layer].name : "?", where,
               st->kind==GR_I_TABLE ? "override' or 'extend" : st->kind==GR_I_CASCADE ? "replace" : "override", kw, nm);
      }
      l = &st->next;
      continue;
    }
    target = find_decl(rs->ast, st->kind, item_name(st), below, &tl, &parent);
    if( target==NULL ){
      char sug[160];
      ck_err(c, item_loc(st), "%s of %s %s, which no earlier bundle declares%s",
             st->mod==GR_MOD_OVERRIDE ? "override" : st->mod==GR_MOD_EXTEND ? "extension" : "replacement", kw, nm,
             item_name(st) ? decl_suggestion(rs->ast, st->kind, item_name(st), below, sug, sizeof sug) : "");
      l = &st->next;
      continue;
    }
    /* overriding what another non-base layer already changed needs an order */
    if( target->mod && target->layer > 0 && target->layer!=st->layer && rs->layers[target->layer].name &&
        !layer_extends(rs, bundles[st->layer], rs->layers[target->layer].name) ){
      const char *me = rs->layers[st->layer].name ? rs->layers[st->layer].name : "?", *other = rs->layers[target->layer].name;
      ck_where(where, sizeof where, target->mod_loc);
      ck_err(c, st->mod_loc, "bundles '%s' and '%s' (%s) both change %s %s, and '%s' does not extend '%s': "
             "say which comes first with 'extends \"%s\";' in this bundle", me, other, where, kw, nm, me, other, other);
    }
    if( st->mod==GR_MOD_OVERRIDE && st->kind==GR_I_PRODUCT ) warn_dropped(c, rs, st, target);
    /* rewrite: take the statement out of its place ... */
    *l = st->next;
    st->next = NULL;
    if( st->mod==GR_MOD_EXTEND ){
      /* ... and append its entries to the table (its SoCs and caps to the product) */
      gr_item **e = &target->items;
      while( *e ) e = &(*e)->next;
      *e = st->items;
      st->items = NULL;
      gr_item_free(st);
      continue;
    }
    /* ... and put it where the overridden statement was */
    st->next = target->next;
    target->next = NULL;
    *tl = st;                 /* a soc lands in its product block, keeping its layer */
    if( l==&target->next ) l = &st->next;   /* target was just before st */
    gr_item_free(target);
  }
  free(bundles);
  free(map);
  return c->nerr;
}
