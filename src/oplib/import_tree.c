/*
** import_tree.c: finds the op information files of an installed CANN (a
** directory holding opp/, or opp/ itself) and plans the stores to write, in
** the order GE reads them (ge facts with sources: doc/sources.md, "op
** information library"): per SoC family, the custom vendor stores
** opp/vendors/<name>/op_impl/ai_core/tbe/config/<family>/ in the order of
** the load_priority line of opp/vendors/config.ini (each before the built-in
** store), the built-in AI Core store (every aic-<family>-ops-info*.json of
** opp/built-in/op_impl/ai_core/tbe/config/<family>/, merged in name order),
** the DSA store (opp/built-in/op_impl/dsa_core/config/<family>/dsa-*.json);
** then the AI CPU kernel stores aicpu_kernel.json, host_cpu_kernel.json
** (opp/built-in/op_impl/aicpu/aicpu_kernel/config/) and tf_kernel.json
** (.../aicpu/tf_kernel/config/). Also the plan's lifetime.
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "oplib/import.h"

void gr_imp_plan_free(gr_imp_plan *p){
  size_t i;
  if( p==NULL ) return;
  for(i = 0; i < p->nstores; i++){
    gr_imp_store *s = &p->stores[i];
    free(s->name); free(s->description); free(s->kind); free(s->family); free(s->files);
  }
  free(p->stores);
  for(i = 0; i < p->nfiles; i++){ gr_imp_file_free(p->files[i]); free(p->files[i]); }
  free(p->files);
  free(p->release);
  memset(p, 0, sizeof *p);
}

static int kernel_kind(const char *kind){
  return strcmp(kind, "aicpu_kernel")==0 || strcmp(kind, "tf_kernel")==0 || strcmp(kind, "host_cpu_kernel")==0;
}

int gr_imp_plan_add(gr_imp_plan *p, const char *name, const char *description, const char *kind, const char *family,
                    int priority_offset, const char *const *paths, const char *const *shown, size_t n, gr_diags *d){
  gr_imp_store *s;
  size_t i;
  int rc = 0;
  p->stores = gr_xrealloc(p->stores, (p->nstores + 1) * sizeof *p->stores);
  s = &p->stores[p->nstores++];
  memset(s, 0, sizeof *s);
  s->name = gr_xstrdup(name);
  s->description = gr_xstrdup(description);
  s->kind = gr_xstrdup(kind);
  s->family = family ? gr_xstrdup(family) : NULL;
  s->priority_offset = priority_offset;
  s->files = gr_xcalloc(n + 1, sizeof *s->files);
  for(i = 0; i < n; i++){
    gr_imp_file *f = gr_xcalloc(1, sizeof *f);
    if( gr_imp_read(paths[i], shown ? shown[i] : NULL, kernel_kind(kind), f, d)!=0 ){ free(f); rc = -1; continue; }
    p->files = gr_xrealloc(p->files, (p->nfiles + 1) * sizeof *p->files);
    p->files[p->nfiles++] = f;
    s->files[s->nfiles++] = f;
  }
  return rc;
}

static int is_dir(const char *p){ struct stat st; return stat(p, &st)==0 && S_ISDIR(st.st_mode); }
static int is_file(const char *p){ struct stat st; return stat(p, &st)==0 && S_ISREG(st.st_mode); }
static int cmp_str(const void *a, const void *b){ return strcmp(*(char*const*)a, *(char*const*)b); }

/* names in dir starting with prefix and ending with suffix (sorted; dirs_only: directories) */
static size_t list_dir(const char *dir, const char *prefix, const char *suffix, int dirs_only, char ***out){
  DIR *dd = opendir(dir);
  struct dirent *e;
  size_t n = 0;
  *out = NULL;
  if( dd==NULL ) return 0;
  while( (e = readdir(dd))!=NULL ){
    size_t l = strlen(e->d_name), lp = strlen(prefix), ls = strlen(suffix);
    char *full;
    if( e->d_name[0]=='.' || l < lp + ls || strncmp(e->d_name, prefix, lp)!=0 || strcmp(e->d_name + l - ls, suffix)!=0 ) continue;
    full = gr_xasprintf("%s/%s", dir, e->d_name);
    if( dirs_only ? is_dir(full) : is_file(full) ){
      *out = gr_xrealloc(*out, (n + 1) * sizeof **out);
      (*out)[n++] = gr_xstrdup(e->d_name);
    }
    free(full);
  }
  closedir(dd);
  if( n ) qsort(*out, n, sizeof **out, cmp_str);
  return n;
}
static void free_list(char **v, size_t n){ size_t i; for(i = 0; i < n; i++) free(v[i]); free(v); }

/* a store of every file of dir matching prefix*suffix; nothing when there is none */
static int add_dir_store(gr_imp_plan *p, const char *opp, const char *rel, const char *prefix, const char *suffix,
                         const char *name, const char *desc, const char *kind, const char *family, int offset, gr_diags *d){
  char *dir = gr_xasprintf("%s/%s", opp, rel);
  char **names;
  size_t n = list_dir(dir, prefix, suffix, 0, &names), i;
  int rc = 0;
  if( n ){
    char **paths = gr_xcalloc(n, sizeof *paths), **shown = gr_xcalloc(n, sizeof *shown);
    for(i = 0; i < n; i++){
      paths[i] = gr_xasprintf("%s/%s", dir, names[i]);
      shown[i] = gr_xasprintf("opp/%s/%s", rel, names[i]);
    }
    rc = gr_imp_plan_add(p, name, desc, kind, family, offset, (const char *const*)paths, (const char *const*)shown, n, d);
    free_list(paths, n); free_list(shown, n);
  }
  free_list(names, n);
  free(dir);
  return rc;
}

/* a rule-language identifier from a vendor directory name */
static char *ident(const char *s){
  char *o = gr_xstrdup(s), *q;
  for(q = o; *q; q++){
    if( *q >= 'A' && *q <= 'Z' ) *q = (char)(*q - 'A' + 'a');
    else if( !((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')) ) *q = '_';
  }
  return o;
}

/* opp/vendors/config.ini: the load_priority line's names, in order */
static int vendor_order(const char *opp, char ***out, size_t *n, gr_diags *d){
  char *path = gr_xasprintf("%s/vendors/config.ini", opp), *text, *line, *next;
  size_t len;
  gr_error e;
  uint32_t ln = 0;
  int rc = 0;
  *out = NULL; *n = 0;
  if( !is_file(path) ){ free(path); return 0; }
  text = gr_read_file(path, &len, &e);
  if( text==NULL ){ gr_diags_add(d, GR_SEV_ERROR, path, 0, 0, "%s", e.msg); free(path); return -1; }
  for(line = text; line && *line; line = next){
    char *eq, *p, *end;
    ln++;
    next = strchr(line, '\n');
    if( next ) *next++ = 0;
    end = line + strlen(line);
    if( end > line && end[-1]=='\r' ) *--end = 0;
    for(p = line; *p==' ' || *p=='\t'; p++) ;
    if( strncmp(p, "load_priority", 13)!=0 ) continue;
    eq = strchr(p, '=');
    if( eq==NULL ){
      /* FE refuses such a line (E20003; hicann/ge compiler/engines/nn_engine/utils/common/configuration.cc:788-858) */
      gr_diag *g = gr_diags_add(d, GR_SEV_ERROR, path, ln, (uint32_t)(p - line) + 1, "a load_priority line needs '=' and the vendor names");
      if( g ) g->snippet = gr_xstrdup(line);
      rc = -1;
      continue;
    }
    for(p = eq + 1; p && *p; ){
      char *c = strchr(p, ','), *a, *b;
      if( c ) *c = 0;
      for(a = p; *a==' ' || *a=='\t'; a++) ;
      for(b = a + strlen(a); b > a && (b[-1]==' ' || b[-1]=='\t'); b--) ;
      *b = 0;
      if( *a ){ *out = gr_xrealloc(*out, (*n + 1) * sizeof **out); (*out)[(*n)++] = gr_xstrdup(a); }
      p = c ? c + 1 : NULL;
    }
  }
  free(text);
  free(path);
  return rc;
}

int gr_imp_tree(gr_imp_plan *p, const char *root, const char *const *families, size_t nfamilies, gr_diags *d){
  char *opp = gr_xasprintf("%s/opp", root), *cfg;
  char **fams = NULL, **vendors = NULL;
  size_t nf, nv = 0, i, k;
  int rc = 0;
  if( !is_dir(opp) ){
    free(opp);
    opp = gr_xstrdup(root);
  }
  cfg = gr_xasprintf("%s/built-in/op_impl/ai_core/tbe/config", opp);
  if( !is_dir(cfg) ){
    gr_diags_add(d, GR_SEV_ERROR, root, 0, 0, "not a CANN installation: no opp/built-in/op_impl/ai_core/tbe/config below it");
    free(cfg); free(opp);
    return -1;
  }
  if( nfamilies ){
    fams = gr_xcalloc(nfamilies, sizeof *fams);
    for(nf = 0; nf < nfamilies; nf++){
      char *dir = gr_xasprintf("%s/%s", cfg, families[nf]);
      if( !is_dir(dir) ){
        char **have;
        size_t nh = list_dir(cfg, "", "", 1, &have);
        const char *s = gr_suggest(families[nf], (const char *const*)have, nh);
        gr_diags_add(d, GR_SEV_ERROR, NULL, 0, 0, "family '%s': no directory %s%s%s%s", families[nf], dir,
                     s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
        free_list(have, nh);
        rc = -1;
      }
      free(dir);
      fams[nf] = gr_xstrdup(families[nf]);
    }
  }else{
    nf = list_dir(cfg, "", "", 1, &fams);
  }
  if( rc==0 && vendor_order(opp, &vendors, &nv, d)!=0 ) rc = -1;
  for(i = 0; rc==0 && i < nf; i++){
    const char *fam = fams[i];
    int offset = 0;
    for(k = 0; k < nv; k++){
      char *rel = gr_xasprintf("vendors/%s/op_impl/ai_core/tbe/config/%s", vendors[k], fam);
      char *pre = gr_xasprintf("aic-%s-ops-info", fam), *id = ident(vendors[k]);
      char *name = gr_xasprintf("aicore_%s_%s", id, fam);
      char *desc = gr_xasprintf("AI Core op information library, %s, custom vendor store %s", fam, vendors[k]);
      size_t before = p->nstores;
      if( add_dir_store(p, opp, rel, pre, ".json", name, desc, "aicore_custom", fam, offset, d)!=0 ) rc = -1;
      if( p->nstores > before ) offset++;
      free(rel); free(pre); free(id); free(name); free(desc);
    }
    {
      char *rel = gr_xasprintf("built-in/op_impl/ai_core/tbe/config/%s", fam);
      char *pre = gr_xasprintf("aic-%s-ops-info", fam), *name = gr_xasprintf("aicore_%s", fam);
      char *desc = gr_xasprintf("AI Core op information library, %s (built-in)", fam);
      if( add_dir_store(p, opp, rel, pre, ".json", name, desc, "aicore", fam, 0, d)!=0 ) rc = -1;
      free(rel); free(pre); free(name); free(desc);
      rel = gr_xasprintf("built-in/op_impl/dsa_core/config/%s", fam);
      name = gr_xasprintf("dsa_%s", fam);
      desc = gr_xasprintf("DSA op information library, %s (built-in)", fam);
      if( add_dir_store(p, opp, rel, "dsa-", ".json", name, desc, "dsa", fam, 0, d)!=0 ) rc = -1;
      free(rel); free(name); free(desc);
    }
  }
  if( rc==0 ){
    static const struct { const char *rel, *file, *kind, *desc; } cpu[] = {
      { "built-in/op_impl/aicpu/aicpu_kernel/config", "aicpu_kernel.json", "aicpu_kernel", "AI CPU kernel store AICPUKernel (aicpu_kernel.json)" },
      { "built-in/op_impl/aicpu/tf_kernel/config", "tf_kernel.json", "tf_kernel", "AI CPU kernel store TFKernel (tf_kernel.json)" },
      { "built-in/op_impl/aicpu/aicpu_kernel/config", "host_cpu_kernel.json", "host_cpu_kernel", "host CPU kernel store HOSTCPUKernel (host_cpu_kernel.json)" },
    };
    for(k = 0; k < sizeof cpu / sizeof *cpu; k++){
      char *path = gr_xasprintf("%s/%s/%s", opp, cpu[k].rel, cpu[k].file);
      char *shown = gr_xasprintf("opp/%s/%s", cpu[k].rel, cpu[k].file);
      if( is_file(path) ){
        const char *pp = path, *ss = shown;
        if( gr_imp_plan_add(p, cpu[k].kind, cpu[k].desc, cpu[k].kind, NULL, 0, &pp, &ss, 1, d)!=0 ) rc = -1;
      }
      free(path); free(shown);
    }
  }
  free_list(fams, nf);
  free_list(vendors, nv);
  free(cfg);
  free(opp);
  return rc;
}
