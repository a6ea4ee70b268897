/*
** ini.c: reads ini-format option files exactly the way GE reads
** op_precision.ini (see ini.h for the rules). Every kept entry remembers its
** line so a decision can point at the line that supplied it.
*/
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "options/ini.h"
#include "lang/ruleset.h"
#include "base/suggest.h"

#define INI_MAX_BYTES (64u << 20)

static const char *trim(char *s, size_t *n){
  size_t a = 0, b = *n;
  while( a < b && isspace((unsigned char)s[a]) ) a++;
  while( b > a && isspace((unsigned char)s[b-1]) ) b--;
  *n = b - a;
  return s + a;
}

static int allowed(const gr_format *f, const gr_ruleset *rs, const char *v){
  size_t i;
  if( f->entries_mode ) return gr_ruleset_find(&rs->mode_map, v) >= 0;
  if( f->nentries==0 ) return 1;
  for(i = 0; i < f->nentries; i++) if( strcmp(f->entries[i], v)==0 ) return 1;
  return 0;
}

gr_ini *gr_ini_parse(const char *path, const char *text, size_t len, const gr_format *f,
                     const gr_ruleset *rs, const char *option_name, gr_diags *diags){
  gr_ini *ini = gr_xcalloc(1, sizeof *ini);
  size_t cap = 0, pos = 0, k;
  uint32_t line = 0;
  int section = f->initial < 0 ? 0 : f->initial;
  gr_arena_init(&ini->arena);
  ini->path = gr_xstrdup(path);
  ini->nsections = f->nsections;
  ini->by_section = gr_xcalloc(f->nsections + 1, sizeof *ini->by_section);
  for(k = 0; k < f->nsections; k++) gr_map_init(&ini->by_section[k]);
  if( len >= 3 && memcmp(text, "\xef\xbb\xbf", 3)==0 ) pos = 3;   /* a UTF-8 BOM: accepted, not a character */
  while( pos < len ){
    const char *eol = memchr(text + pos, '\n', len - pos);
    size_t n = eol ? (size_t)(eol - (text + pos)) : len - pos;
    char *raw = gr_arena_strndup(&ini->arena, text + pos, n);
    const char *s, *eq;
    size_t sn = n;
    gr_diag *d;
    line++;
    pos += n + (eol ? 1 : 0);
    if( memchr(text + pos - n - (eol ? 1 : 0), 0, n) ){
      d = gr_diags_add(diags, GR_SEV_WARNING, path, line, 1, "line with a NUL byte is skipped");
      gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0206");
      continue;
    }
    s = trim(raw, &sn);
    if( sn==0 ) continue;
    if( raw[0]=='#' ) continue;                 /* GE tests the first character of the line */
    eq = memchr(s, '=', sn);
    if( eq==NULL ){
      if( sn > 2 && s[0]=='[' && s[sn-1]==']' ){
        for(k = 0; k < f->nsections; k++){
          if( strlen(f->sections[k].name)==sn - 2 && memcmp(f->sections[k].name, s + 1, sn - 2)==0 ){ section = (int)k; break; }
        }
        if( k==f->nsections ){
          char *word = gr_arena_strndup(&ini->arena, s + 1, sn - 2);
          gr_suggester sg;
          gr_suggest_begin(&sg, word);
          for(k = 0; k < f->nsections; k++) gr_suggest_offer(&sg, f->sections[k].name);
          d = gr_diags_add(diags, GR_SEV_WARNING, path, line, 1, "unknown section '%.*s' is ignored; its entries stay in the current section%s%s%s",
                           (int)sn, s, gr_suggest_best(&sg) ? "; did you mean '[" : "", gr_suggest_best(&sg) ? gr_suggest_best(&sg) : "", gr_suggest_best(&sg) ? "]'?" : "");
          gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0201");
        }
      }else{
        d = gr_diags_add(diags, GR_SEV_WARNING, path, line, 1, "line without '=' is ignored: '%.*s'", (int)sn, s);
        gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0202");
      }
      continue;
    }
    {
      char *kbuf = (char*)s, *vbuf = (char*)eq + 1;
      size_t kn = (size_t)(eq - s), vn = sn - kn - 1;
      const char *key = trim(kbuf, &kn), *val = trim(vbuf, &vn);
      uint32_t col = (uint32_t)(s - raw) + 1;
      char *keyz, *valz;
      gr_map *m = &ini->by_section[section];
      void *prev;
      if( kn==0 || vn==0 ){
        d = gr_diags_add(diags, GR_SEV_WARNING, path, line, col, "entry with an empty %s is skipped", kn==0 ? "key" : "value");
        gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0203");
        continue;
      }
      keyz = gr_arena_strndup(&ini->arena, key, kn);
      valz = gr_arena_strndup(&ini->arena, val, vn);
      if( !allowed(f, rs, valz) ){
        const char *sug = NULL;
        if( f->entries_mode ){
          sug = gr_ruleset_suggest(rs, GR_NK_MODE, valz);
        }
        d = gr_diags_add(diags, GR_SEV_WARNING, path, line, (uint32_t)(val - raw) + 1,
                         "unknown %s '%s' for '%s' is skipped%s%s%s", f->entries_mode ? "mode" : "value", valz, keyz,
                         sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
        gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0204");
        continue;
      }
      if( ini->n==cap ){ cap = cap ? cap * 2 : 16; ini->v = gr_xrealloc(ini->v, cap * sizeof *ini->v); }
      prev = gr_map_put(m, keyz, (void*)(intptr_t)(ini->n + 1));
      if( prev ){
        const gr_ini_entry *first = &ini->v[(intptr_t)prev - 1];
        d = gr_diags_add(diags, GR_SEV_NOTE, path, line, col,
                         "'%s' is already set in [%s] at line %u ('%s'); the first entry wins and this one is ignored",
                         keyz, f->sections[section].name, first->line, first->value);
        gr_diag_set(&d->option, option_name); gr_diag_set(&d->code, "GR0205");
        continue;
      }
      ini->v[ini->n].key = keyz;
      ini->v[ini->n].value = valz;
      ini->v[ini->n].line = line;
      ini->v[ini->n].origin.file = ini->path;
      ini->v[ini->n].origin.line = line;
      ini->v[ini->n].origin.col = (uint32_t)(val - raw) + 1;
      ini->v[ini->n].section = section;
      ini->v[ini->n].matched = 0;
      ini->n++;
    }
  }
  return ini;
}

gr_ini *gr_ini_read(const char *path, const gr_format *f, const gr_ruleset *rs,
                    const char *option_name, gr_diags *diags, gr_error *err){
  size_t len;
  char *text = gr_read_file_max(path, INI_MAX_BYTES, &len, err);
  gr_ini *ini;
  if( text==NULL ) return NULL;
  ini = gr_ini_parse(path, text, len, f, rs, option_name, diags);
  free(text);
  return ini;
}

const gr_ini_entry *gr_ini_get(const gr_ini *ini, int section, const char *key){
  void *v;
  if( section < 0 || (size_t)section >= ini->nsections ) return NULL;
  v = gr_map_get(&ini->by_section[section], key);
  return v ? &ini->v[(intptr_t)v - 1] : NULL;
}

void gr_ini_free(gr_ini *ini){
  size_t k;
  if( ini==NULL ) return;
  for(k = 0; k < ini->nsections; k++) gr_map_free(&ini->by_section[k]);
  free(ini->by_section);
  free(ini->v);
  free(ini->path);
  gr_arena_free(&ini->arena);
  free(ini);
}
