/*
** installed.c: the releases of one bundle installed side by side in the
** bundles folder of the data directory, and the choice among them by the
** CANN release they describe. Each directory of the folder is one installed
** bundle (named NAME or NAME-VERSION by convention); what it is comes from
** its bundle statement (name, version, cann range), read by parsing its
** top-level rule files, not from the directory name. Choosing: the newest
** release whose CANN range contains the release asked for; when none does,
** the one whose range is nearest to it (the caller warns); without a
** release, the newest.
*/
#include "config.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bundle/bundle.h"
#include "lang/ast.h"

static int cmp_str(const void *a, const void *b){ return strcmp(*(char *const *)a, *(char *const *)b); }

/* The bundle statement of the top-level *.rules files of dir, if any. */
static int read_statement(const char *dir, gr_installed *out){
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, i;
  int found = 0;
  if( d==NULL ) return 0;
  while( (e = readdir(d))!=NULL ){
    size_t l = strlen(e->d_name);
    if( e->d_name[0]!='.' && l > 6 && strcmp(e->d_name + l - 6, ".rules")==0 ){
      names = gr_xrealloc(names, (n + 1) * sizeof *names);
      names[n++] = gr_xstrdup(e->d_name);
    }
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  for(i = 0; i < n; i++){
    char *path = gr_xasprintf("%s/%s", dir, names[i]);
    gr_error err;
    size_t len;
    char *text = found ? NULL : gr_read_file(path, &len, &err);
    if( text && strlen(text)==len ){
      gr_parse ps;
      gr_diags dg;
      gr_item *it, *x;
      gr_diags_init(&dg);
      memset(&ps, 0, sizeof ps);
      ps.file = path;
      ps.diags = &dg;
      gr_parse_text(&ps, text, len);
      for(it = ps.head; it && !found; it = it->next){
        if( it->kind!=GR_I_BUNDLE || it->name==NULL ) continue;
        found = 1;
        out->name = gr_xstrdup(it->name);
        for(x = it->items; x; x = x->next){
          if( x->kind==GR_I_VERSION && x->str && !out->version ) out->version = gr_xstrdup(x->str);
          if( x->kind==GR_I_CANN && x->str && !out->cann ) out->cann = gr_xstrdup(x->str);
        }
      }
      gr_item_free(ps.head);
      gr_diags_free(&dg);
    }
    free(text);
    free(path);
    free(names[i]);
  }
  free(names);
  return found;
}

/* Newest first; releases without a valid version last. */
static int cmp_release(const void *a, const void *b){
  const gr_installed *x = a, *y = b;
  int c = gr_semver_cmp(y->version, x->version);
  return c ? c : strcmp(x->dir, y->dir);
}

size_t gr_installed_list(const char *folder, const char *name, gr_installed **out){
  DIR *d = opendir(folder);
  struct dirent *e;
  gr_installed *v = NULL;
  size_t n = 0;
  *out = NULL;
  if( d==NULL ) return 0;
  while( (e = readdir(d))!=NULL ){
    struct stat st;
    gr_installed one;
    char *dir;
    if( e->d_name[0]=='.' ) continue;
    dir = gr_xasprintf("%s/%s", folder, e->d_name);
    memset(&one, 0, sizeof one);
    if( stat(dir, &st)==0 && S_ISDIR(st.st_mode) && read_statement(dir, &one) && strcmp(one.name, name)==0 ){
      one.dir = dir;
      v = gr_xrealloc(v, (n + 1) * sizeof *v);
      v[n++] = one;
    }else{
      free(one.name); free(one.version); free(one.cann);
      free(dir);
    }
  }
  closedir(d);
  if( n ) qsort(v, n, sizeof *v, cmp_release);
  *out = v;
  return n;
}

void gr_installed_free(gr_installed *v, size_t n){
  size_t i;
  for(i = 0; i < n; i++){ free(v[i].dir); free(v[i].name); free(v[i].version); free(v[i].cann); }
  free(v);
}

size_t gr_installed_pick(const gr_installed *v, size_t n, const char *cann, int *covered){
  size_t i, best = 0;
  char best_bound[64] = "", bound[64];
  int have = 0, side;
  *covered = 1;
  if( cann==NULL || n==0 ) return 0;
  for(i = 0; i < n; i++) if( gr_cann_in_range(cann, v[i].cann, NULL, NULL)==1 ) return i;   /* newest first */
  *covered = 0;
  /* the release whose range ends (or starts) nearest to cann; the newer on a tie */
  for(i = 0; i < n; i++){
    if( gr_cann_in_range(cann, v[i].cann, bound, &side)!=0 ) continue;   /* no or a malformed range */
    if( !have || gr_cann_closer(cann, bound, best_bound) < 0 ){ best = i; memcpy(best_bound, bound, sizeof bound); have = 1; }
  }
  return best;
}
