/*
** cli_config.c: the project configuration of `gerules eval`: a file
** .gerules.conf found from the working directory upwards (or --config FILE;
** --no-config ignores it), so that a CI line can be `gerules eval
** model.onnx`. It is an options file (src/options/optfile.c: KEY=VALUE lines
** with '#' comments, or a JSON object), so no new reader: each key is one of
** eval's flags, spelled without dashes (rules, chip, run-mode, entry,
** input-format, option, options, hook, format, fail-on, Werror, Wno,
** baseline, output). Paths are relative to the file's directory. The
** settings become arguments placed before the command's own, and a setting
** the command line also gives is dropped: the command line wins (for
** `option`, per option key; list settings -- rules, options, hook, Werror,
** Wno -- add to the command line's, except rules, which --rules replaces).
** The config's rules also beat $GERULES_RULES: the file is the project's
** explicit choice, the variable a machine-wide default.
**
** Ownership: cli_config owns the merged argv array, the strings it built
** and the records read; the other argv strings are the caller's.
*/
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "base/suggest.h"

#define CONFIG_NAME ".gerules.conf"

enum { K_PATH = 1, K_LIST = 2 };
static const struct ckey { const char *name, *flag; unsigned kind; } keys[] = {
  { "rules", "--rules", K_PATH | K_LIST },
  { "chip", "--chip", 0 },
  { "run-mode", "--run-mode", 0 },
  { "entry", "--entry", 0 },
  { "input-format", "--input-format", 0 },
  { "option", "-o", K_LIST },
  { "options", "--options", K_PATH | K_LIST },
  { "hook", "--hook", K_PATH | K_LIST },
  { "format", "--format", 0 },
  { "fail-on", "--fail-on", 0 },
  { "Werror", "-Werror=", K_LIST },
  { "Wno", "-Wno-", K_LIST },
  { "baseline", "--baseline", K_PATH },
  { "output", "--output", K_PATH },
};
#define NKEYS (sizeof keys / sizeof *keys)

static const struct ckey *find_key(const char *name){
  size_t i;
  for(i = 0; i < NKEYS; i++) if( strcmp(keys[i].name, name)==0 ) return &keys[i];
  return NULL;
}

static char *own(cli_config *cf, char *s){
  cf->owned = gr_xrealloc(cf->owned, (cf->nowned + 1) * sizeof *cf->owned);
  cf->owned[cf->nowned++] = s;
  return s;
}

/* The key of -o KEY=VALUE, its length up to '='. */
static size_t kv_key(const char *kv){ const char *e = strchr(kv, '='); return e ? (size_t)(e - kv) : strlen(kv); }

/* Whether the command line gives the setting itself (then it wins). */
static int on_command_line(cli_ctx *c, const struct ckey *k, const char *value, int argc, char **argv){
  size_t fl = strlen(k->flag);
  int i;
  if( strcmp(k->name, "rules")==0 ) return c->nrules_paths > 0;
  if( k->kind & K_LIST && strcmp(k->name, "option")!=0 ) return 0;     /* lists add up */
  for(i = 0; i < argc; i++){
    const char *a = argv[i];
    if( strcmp(k->name, "option")==0 ){
      const char *kv = NULL;
      if( strcmp(a, "-o")==0 && i + 1 < argc ) kv = argv[++i];
      else if( strncmp(a, "-o", 2)==0 && a[2] ) kv = a + 2;
      if( kv && kv_key(kv)==kv_key(value) && strncmp(kv, value, kv_key(value))==0 ) return 1;
      continue;
    }
    if( strncmp(a, k->flag, fl)==0 && (a[fl]==0 || a[fl]=='=') ) return 1;
  }
  return 0;
}

/* .gerules.conf in the working directory or the nearest parent, or NULL. */
static char *find_config(void){
  char dir[PATH_MAX];
  if( getcwd(dir, sizeof dir)==NULL ) return NULL;
  for(;;){
    char *p = gr_xasprintf("%s%s%s", dir, strcmp(dir, "/")==0 ? "" : "/", CONFIG_NAME);
    char *slash;
    if( access(p, F_OK)==0 ) return p;
    free(p);
    if( strcmp(dir, "/")==0 ) return NULL;
    slash = strrchr(dir, '/');
    if( slash==dir ) dir[1] = 0; else *slash = 0;
  }
}

static int config_error(const char *file, uint32_t line, uint32_t col, const char *fmt, const char *a, const char *b){
  gr_diags d;
  gr_diags_init(&d);
  gr_diags_add(&d, GR_SEV_ERROR, file, line, col, fmt, a, b);
  cli_print_diags(&d);
  gr_diags_free(&d);
  return -1;
}

int cli_config_load(cli_ctx *c, const char *cmd, int argc, char **argv, cli_config *cf){
  const char *explicit_path = NULL;
  char **user;
  int nuser = 0, i, none = 0;
  size_t r;
  gr_error err;
  memset(cf, 0, sizeof *cf);
  gr_optinputs_init(&cf->in);
  user = gr_xcalloc((size_t)argc + 1, sizeof *user);
  for(i = 0; i < argc; i++){
    const char *v;
    int k;
    if( strcmp(argv[i], "--no-config")==0 ){ none = 1; continue; }
    if( (k = cli_arg_value(cmd, "--config", &i, argc, argv, &v))!=0 ){
      if( k < 0 ){ free(user); return -1; }
      explicit_path = v;
      continue;
    }
    user[nuser++] = argv[i];
  }
  cf->user = user; cf->nuser = nuser;
  if( explicit_path ) cf->path = gr_xstrdup(explicit_path);
  else if( !none ) cf->path = find_config();
  if( cf->path ){
    char *slash;
    memset(&err, 0, sizeof err);
    if( gr_optfile_read(&cf->in, cf->path, &err)!=0 )
      return config_error(cf->path, err.line, err.col, "%s%s", err.msg, "");
    cf->dir = gr_xstrdup(cf->path);
    if( (slash = strrchr(cf->dir, '/'))!=NULL ) slash[slash==cf->dir ? 1 : 0] = 0;
    else{ free(cf->dir); cf->dir = gr_xstrdup("."); }
  }
  cf->dropped = gr_xcalloc(cf->in.n + 1, 1);
  cf->value = gr_xcalloc(cf->in.n + 1, sizeof *cf->value);
  /* at most two arguments per record, then the command's own */
  cf->argv = gr_xcalloc(2 * cf->in.n + (size_t)nuser + 1, sizeof *cf->argv);
  for(r = 0; r < cf->in.n; r++){
    const gr_input *x = &cf->in.v[r];
    const struct ckey *k = find_key(x->key);
    char *val;
    if( k==NULL ){
      const char *names[NKEYS], *s;
      size_t j;
      for(j = 0; j < NKEYS; j++) names[j] = keys[j].name;
      s = gr_suggest(x->key, names, NKEYS);
      return config_error(cf->path, x->origin.line, x->origin.col,
                          s ? "unknown setting '%s'; did you mean '%s'?" : "unknown setting '%s'%s (rules, chip, run-mode, entry, input-format, option, options, hook, format, fail-on, Werror, Wno, baseline, output)",
                          x->key, s ? s : "");
    }
    if( !x->value[0] ) return config_error(cf->path, x->origin.line, x->origin.col, "'%s' needs a value%s", x->key, "");
    if( on_command_line(c, k, x->value, nuser, user) ){ cf->dropped[r] = 1; continue; }
    val = (k->kind & K_PATH) && x->value[0]!='/' && strcmp(cf->dir, ".")!=0
        ? own(cf, gr_xasprintf("%s/%s", cf->dir, x->value)) : (char *)x->value;
    cf->value[r] = val;
    if( strcmp(k->name, "rules")==0 ){
      cf->rules = gr_xrealloc(cf->rules, (cf->nrules + 1) * sizeof *cf->rules);
      cf->rules[cf->nrules++] = val;
      continue;
    }
    if( k->flag[strlen(k->flag) - 1]=='=' || k->flag[strlen(k->flag) - 1]=='-' )
      cf->argv[cf->argc++] = own(cf, gr_xasprintf("%s%s", k->flag, val));
    else{
      cf->argv[cf->argc++] = (char *)k->flag;
      cf->argv[cf->argc++] = val;
    }
  }
  for(i = 0; i < nuser; i++) cf->argv[cf->argc++] = user[i];
  if( cf->nrules ){         /* the config's stack, unless --rules gave one */
    c->rules_paths = cf->rules;
    c->nrules_paths = cf->nrules;
    c->rules_path = cf->rules[0];
    c->rules_from_config = 1;
  }
  return 0;
}

void cli_config_print(const cli_config *cf, const cli_ctx *c, FILE *f){
  size_t r, j;
  int i;
  fprintf(f, "# config: %s\n", cf->path ? cf->path : "(none: no " CONFIG_NAME " in the working directory or above)");
  if( !c->rules_from_config ){
    for(j = 0; j < c->nrules_paths; j++) fprintf(f, "rules = %s\t# command line\n", c->rules_paths[j]);
    if( c->nrules_paths==0 && getenv("GERULES_RULES") && *getenv("GERULES_RULES") )
      fprintf(f, "rules = %s\t# $GERULES_RULES\n", getenv("GERULES_RULES"));
  }
  for(r = 0; r < cf->in.n; r++){
    const gr_input *x = &cf->in.v[r];
    fprintf(f, "%s%s = %s\t# %s:%u%s\n", cf->dropped[r] ? "# " : "", x->key, cf->value[r] ? cf->value[r] : x->value, cf->path, x->origin.line,
            cf->dropped[r] ? ", overridden by the command line" : "");
  }
  /* what the command line sets of the same settings */
  for(i = 0; i < cf->nuser; i++){
    const char *a = cf->user[i];
    for(j = 0; j < NKEYS; j++){
      const struct ckey *k = &keys[j];
      size_t fl = strlen(k->flag);
      if( strcmp(k->name, "rules")==0 ) continue;
      if( strcmp(k->name, "option")==0 ){
        if( strcmp(a, "-o")==0 && i + 1 < cf->nuser ){ fprintf(f, "option = %s\t# command line\n", cf->user[++i]); break; }
        if( strncmp(a, "-o", 2)==0 && a[2] ){ fprintf(f, "option = %s\t# command line\n", a + 2); break; }
        continue;
      }
      if( strncmp(a, k->flag, fl)!=0 ) continue;
      if( k->flag[fl - 1]=='=' || k->flag[fl - 1]=='-' ){ fprintf(f, "%s = %s\t# command line\n", k->name, a + fl); break; }
      if( a[fl]=='=' ){ fprintf(f, "%s = %s\t# command line\n", k->name, a + fl + 1); break; }
      if( a[fl]==0 && i + 1 < cf->nuser ){ fprintf(f, "%s = %s\t# command line\n", k->name, cf->user[++i]); break; }
    }
  }
}

void cli_config_free(cli_config *cf){
  size_t i;
  for(i = 0; i < cf->nowned; i++) free(cf->owned[i]);
  free(cf->owned);
  free(cf->argv);
  free(cf->user);
  free(cf->rules);
  free(cf->dropped);
  free(cf->value);
  free(cf->path);
  free(cf->dir);
  gr_optinputs_free(&cf->in);
  memset(cf, 0, sizeof *cf);
}
