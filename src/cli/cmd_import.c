/*
** cmd_import.c: `gerules import-oplib`, CANN's op information files as rule
** files (src/oplib/import.h, doc/vendor-guide.md): from an installed CANN
** (--cann-root DIR --output DIR: one NAME.rules per store; --layer writes
** `override oplib` for the stores the rule set in use already has) or from given
** files (--store NAME --kind KIND FILE...: one store, to --output or
** stdout), and `--dump`, every op of the loaded rule set's op library in one
** canonical line per tensor (what the round-trip test compares with the
** JSON). The dtype spellings, engines and priorities come from the rule set
** (--rules), so the command needs one.
*/
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "lang/oplib.h"
#include "oplib/import.h"

static const char import_usage[] =
  "usage: gerules import-oplib --cann-root DIR --output DIR [--family F]... [--release R] [--layer]\n"
  "       gerules import-oplib --store NAME --kind KIND [--family F] [--priority N] [--release R]\n"
  "                            [--description TEXT] [--output FILE] FILE...\n"
  "       gerules import-oplib --dump\n"
  "Writes CANN's op information files as op library rule files (doc/vendor-guide.md).\n"
  "  --cann-root DIR   an installed CANN (the directory holding opp/): every SoC family\n"
  "                    (or those given with --family), custom vendor stores in\n"
  "                    opp/vendors/config.ini's load_priority order, DSA and AI CPU stores\n"
  "  --output DIR      where NAME.rules is written for each store (tree mode)\n"
  "  --store NAME      file mode: the store's name; KIND is a key of table oplib_stores\n"
  "                    (aicore, aicore_custom, dsa, aicpu_kernel, tf_kernel, host_cpu_kernel)\n"
  "  --priority N      file mode: added to the kind's priority (the order of custom stores)\n"
  "  --release R       the CANN release named in the files (default: opp/version.info)\n"
  "  --layer           write 'override oplib' for each store the rule set in use declares\n"
  "                    (a site layer over the base bundle's stores)\n"
  "  --dump            print every op of the rule set's op library, one line per tensor\n";

static int write_text(const char *path, const char *text, size_t n){
  char *tmp = gr_xasprintf("%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  int ok = f!=NULL && fwrite(text, 1, n, f)==n;
  if( f && fclose(f)!=0 ) ok = 0;
  if( ok && rename(tmp, path)!=0 ) ok = 0;
  if( !ok ){
    fprintf(stderr, "gerules import-oplib: %s: cannot write: %s\n", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* "Version=8.1.RC1" in opp/version.info, or NULL */
static char *release_of(const char *root){
  char *path = gr_xasprintf("%s/opp/version.info", root), *text, *p;
  size_t len;
  gr_error e;
  text = gr_read_file(path, &len, &e);
  free(path);
  if( text==NULL ) return NULL;
  for(p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL){
    if( strncmp(p, "Version=", 8)==0 ){
      size_t l = strcspn(p + 8, "\r\n");
      char *v = gr_xstrndup(p + 8, l);
      free(text);
      return v;
    }
  }
  free(text);
  return NULL;
}

static void dump(const gr_ruleset *rs){
  static const char *const pol[] = { "gray", "white", "black" };
  static const char *const par[] = { "required", "optional", "dynamic" };
  static const char *const flags[] = { "dynamic_shape", "dynamic_rank", "dynamic_rank_upgrade", "dynamic_compile_static",
                                       "dynamic_format", "ge_op", "heavy", "need_check_support" };
  int s, k, i, j, f;
  for(s = 0; s < gr_oplib_nstores(rs); s++){
    const gr_oplib_store *st = gr_oplib_store_at(rs, s);
    for(k = 0; k < gr_oplib_nops(rs, st); k++){
      const gr_oplib_op *op = gr_oplib_find(rs, st, gr_oplib_type_at(rs, st, k));
      char fl[256] = "";
      if( op==NULL ) continue;
      for(f = 0; f < 8; f++) if( op->flags & (1u << f) ){ if( fl[0] ) strcat(fl, ","); strcat(fl, flags[f]); }
      for(i = 0; i < op->ninputs + op->noutputs; i++){
        const gr_oplib_tensor *t = i < op->ninputs ? &op->inputs[i] : &op->outputs[i - op->ninputs];
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t", st->name, op->type, pol[op->policy], fl, i < op->ninputs ? "input" : "output",
               t->name, par[t->param]);
        for(j = 0; j < t->ndtypes; j++) printf("%s%s", j ? "," : "", t->dtypes[j]);
        printf("\t");
        for(j = 0; t->formats && j < t->ndtypes; j++) printf("%s%s", j ? "," : "", t->formats[j]);
        /* the citation of the block giving the lists; an op whose lists come
        ** from conditional blocks only: the first of them, marked so */
        if( op->lists_from ) printf("\t%s\n", op->lists_from);
        else if( op->nwhen > 0 ) printf("\twhen: %s\n", op->when[0].op->lists_from ? op->when[0].op->lists_from : "");
        else printf("\t\n");
      }
      if( op->ninputs + op->noutputs==0 ) printf("%s\t%s\t%s\t%s\t-\t\t\t\t\t\n", st->name, op->type, pol[op->policy], fl);
    }
  }
}

int cmd_import_oplib(cli_ctx *c, int argc, char **argv){
  const char *root = NULL, *output = NULL, *store = NULL, *kind = NULL, *release = NULL, *desc = NULL;
  const char **families = gr_xcalloc((size_t)argc + 1, sizeof *families), **files = gr_xcalloc((size_t)argc + 1, sizeof *files);
  size_t nfam = 0, nfiles = 0, i;
  int k, want_dump = 0, priority = 0, layer = 0, rc = EXIT_INPUT;
  gr_ruleset *rs;
  gr_imp_plan plan;
  memset(&plan, 0, sizeof plan);
  for(k = 0; k < argc; k++){
    const char *a = argv[k];
    const char **dst = NULL;
    if( strcmp(a, "--help")==0 || strcmp(a, "-h")==0 ){ fputs(import_usage, stdout); rc = 0; goto out; }
    if( strcmp(a, "--dump")==0 ){ want_dump = 1; continue; }
    if( strcmp(a, "--layer")==0 ){ layer = 1; continue; }
    if( strcmp(a, "--cann-root")==0 ) dst = &root;
    else if( strcmp(a, "--output")==0 || strcmp(a, "-o")==0 ) dst = &output;
    else if( strcmp(a, "--store")==0 ) dst = &store;
    else if( strcmp(a, "--kind")==0 ) dst = &kind;
    else if( strcmp(a, "--release")==0 ) dst = &release;
    else if( strcmp(a, "--description")==0 ) dst = &desc;
    else if( strcmp(a, "--family")==0 || strcmp(a, "--priority")==0 ){
      if( k + 1 >= argc ){ rc = cli_usage_error("import-oplib", "%s needs a value", a); goto out; }
      if( a[2]=='f' ) families[nfam++] = argv[++k];
      else{
        char *e;
        long v = strtol(argv[++k], &e, 10);
        if( *e || e==argv[k] || v < 0 || v > 100000 ){ rc = cli_usage_error("import-oplib", "--priority needs a number 0..100000"); goto out; }
        priority = (int)v;
      }
      continue;
    }else if( a[0]=='-' && a[1] ){
      rc = cli_usage_error("import-oplib", "unknown option '%s'", a);
      goto out;
    }else{ files[nfiles++] = a; continue; }
    if( k + 1 >= argc ){ rc = cli_usage_error("import-oplib", "%s needs a value", a); goto out; }
    *dst = argv[++k];
  }
  if( want_dump + (root!=NULL) + (store!=NULL) != 1 ){
    rc = cli_usage_error("import-oplib", "give one of --cann-root DIR, --store NAME FILE... or --dump");
    goto out;
  }
  rs = cli_load_rules(c);
  if( rs==NULL ) goto out;
  if( want_dump ){
    gr_diags d;
    gr_diags_init(&d);
    if( gr_oplib_check_all(rs, &d) ){ cli_print_diags(&d); gr_diags_free(&d); goto out; }
    gr_diags_free(&d);
    dump(rs);
    rc = 0;
    goto out;
  }
  if( root ){
    struct stat st;
    if( output==NULL || stat(output, &st)!=0 || !S_ISDIR(st.st_mode) ){
      rc = cli_usage_error("import-oplib", "--cann-root needs --output DIR, an existing directory");
      goto out;
    }
    if( nfiles ){ rc = cli_usage_error("import-oplib", "--cann-root takes no file arguments"); goto out; }
    plan.release = release ? gr_xstrdup(release) : release_of(root);
    if( gr_imp_tree(&plan, root, families, nfam, &c->diags)!=0 ){ cli_print_diags(&c->diags); goto out; }
    if( plan.nstores==0 ){ fprintf(stderr, "gerules import-oplib: %s: no op information file found\n", root); goto out; }
  }else{
    if( kind==NULL || nfiles==0 ){ rc = cli_usage_error("import-oplib", "--store needs --kind KIND and at least one FILE"); goto out; }
    if( nfam > 1 ){ rc = cli_usage_error("import-oplib", "--store takes one --family"); goto out; }
    plan.release = release ? gr_xstrdup(release) : NULL;
    if( gr_imp_plan_add(&plan, store, desc ? desc : store, kind, nfam ? families[0] : NULL, priority, files, NULL, nfiles, &c->diags)!=0 ){
      cli_print_diags(&c->diags);
      goto out;
    }
  }
  /* every store's text first: nothing is written unless all of them are right */
  {
    gr_buf *bufs = gr_xcalloc(plan.nstores + 1, sizeof *bufs);
    rc = 0;
    for(i = 0; i < plan.nstores; i++){
      gr_buf_init(&bufs[i]);
      /* --layer: a store the rule set in use declares is replaced (override) */
      plan.stores[i].override = layer && gr_oplib_store_named(rs, plan.stores[i].name)!=NULL;
      if( gr_imp_write(&bufs[i], rs, &plan, &plan.stores[i], &c->diags)!=0 ) rc = EXIT_INPUT;
    }
    if( rc ) cli_print_diags(&c->diags);
    for(i = 0; rc==0 && i < plan.nstores; i++){
      if( root ){
        char *path = gr_xasprintf("%s/%s.rules", output, plan.stores[i].name);
        if( write_text(path, bufs[i].p, bufs[i].n)!=0 ) rc = EXIT_INPUT;
        else fprintf(stderr, "gerules import-oplib: wrote %s\n", path);
        free(path);
      }else if( output && strcmp(output, "-")!=0 ){
        if( write_text(output, bufs[i].p, bufs[i].n)!=0 ) rc = EXIT_INPUT;
      }else if( fwrite(bufs[i].p, 1, bufs[i].n, stdout)!=bufs[i].n ) rc = EXIT_INPUT;
    }
    for(i = 0; i < plan.nstores; i++) gr_buf_free(&bufs[i]);
    free(bufs);
  }
out:
  gr_imp_plan_free(&plan);
  free(families);
  free(files);
  return rc;
}
