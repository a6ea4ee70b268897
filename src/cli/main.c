/*
** main.c: the gerules command. It parses the global options (--rules,
** --version, --help), finds the rule set, dispatches to a subcommand and
** maps outcomes to exit statuses: 0 clean, 1 the configuration has errors,
** 2 usage errors or unreadable/malformed input. Only the CLI prints.
*/
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "report/srclines.h"

static const char usage_text[] =
  "usage: gerules [--rules PATH] COMMAND [ARGS]\n"
  "\n"
  "Tells what the graph compiler (GE/ATC) will do to every node of a graph before compiling it.\n"
  "\n"
  "commands:\n"
  "  eval GRAPH [options]        resolve every node's precision mode and tiling placement\n"
  "  tile GRAPH --chip SOC       plan, validate (and --execute) every node's tiling\n"
  "  atc ATC-FLAGS...            evaluate the configuration of an ATC command line, as given\n"
  "  check [FILE|DIR...]         check rule files (default: the rule set in use)\n"
  "  chips [--format F]          list product lines and SoCs with their hardware\n"
  "  options [--chip SOC]        list options, values, defaults and product support\n"
  "  explain NAME                describe an option, mode, slot, source, rule or chip\n"
  "  test [CASE|DIR...]          run a bundle's golden cases, with coverage\n"
  "  diff OLD NEW [--graph G]    what changes between two bundles (and for one graph)\n"
  "  bundle keygen|sign|verify   make signing keys, sign a bundle, verify one\n"
  "  import-oplib --cann-root D  write CANN's op information files as op library rule files\n"
  "\n"
  "global options:\n"
  "  --rules PATH                use this rule file or directory instead of the installed rules;\n"
  "                              repeat it to stack bundles (base first), or name an installed bundle\n"
  "  --color auto|always|never   colour diagnostics (auto: on a terminal, unless NO_COLOR is set)\n"
  "  --trust FILE                trust the keys of this trust store (repeatable; or $GERULES_TRUST):\n"
  "                              then every command refuses a bundle that fails verification\n"
  "                              (--trust none: verify nothing)\n"
  "  --allow-downgrade           accept a signed bundle older than one accepted before\n"
  "  --cann VERSION              the CANN release in use: picks among installed releases of a\n"
  "                              --rules NAME bundle (default: the graph's atc_version)\n"
  "  --version                   print the version\n"
  "  --help                      print this help (gerules COMMAND --help for a command)\n"
  "\n"
  "exit status: 0 no error, 1 the configuration has errors, 2 usage error or bad input\n";

int cli_usage_error(const char *cmd, const char *fmt, ...){
  va_list ap;
  fprintf(stderr, "gerules%s%s: error: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(try 'gerules %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
  return EXIT_INPUT;
}

int cli_format_arg(const char *cmd, const char *v, int *json){
  if( v==NULL ) return cli_usage_error(cmd, "--format needs a value (text or json)");
  if( strcmp(v, "json")==0 ){ *json = 1; return 0; }
  if( strcmp(v, "text")==0 ){ *json = 0; return 0; }
  return cli_usage_error(cmd, "unknown format '%s' (text or json)", v);
}

static int is_dir(const char *p){
  struct stat st;
  return stat(p, &st)==0 && S_ISDIR(st.st_mode);
}

/* The installed data directory relative to the running binary: the relative
** path from the configured bindir to pkgdatadir (both absolute, from
** configure), applied to the directory /proc/self/exe names, when it holds
** the rules. So a tree installed with DESTDIR, or copied elsewhere whole,
** still finds its own rules and installed bundles. */
static int relocated_datadir(char *out, size_t n){
  char exe[PATH_MAX];
  const char *bin = GR_BINDIR, *data = GR_PKGDATADIR, *p;
  size_t common = 0, i, up = 0;
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash;
  if( len <= 0 ) return 0;
  exe[len] = 0;
  if( (slash = strrchr(exe, '/'))==NULL ) return 0;
  *slash = 0;
  /* the longest common leading run of whole directory names */
  for(i = 0; bin[i] && bin[i]==data[i]; i++) if( bin[i]=='/' ) common = i + 1;
  if( bin[i]==0 && (data[i]=='/' || data[i]==0) ) common = i + (data[i]=='/');
  for(p = bin + common; *p; p++) if( *p!='/' && (p==bin + common || p[-1]=='/') ) up++;
  {
    gr_buf b;
    int ok;
    gr_buf_init(&b);
    gr_buf_adds(&b, exe);
    for(i = 0; i < up; i++) gr_buf_adds(&b, "/..");
    if( data[common] ) gr_buf_printf(&b, "/%s", data + common);
    ok = b.n + 7 < n && realpath(gr_buf_cstr(&b), out)!=NULL;
    gr_buf_free(&b);
    if( ok ){
      size_t l = strlen(out);
      if( (ok = l + 7 <= n) ){ memcpy(out + l, "/rules", 7); ok = is_dir(out); out[l] = 0; }
    }
    return ok;
  }
}

static int data_dir_relocated(const char **dir){
  static char resolved[PATH_MAX];
  static int done, found;
  if( !done ){ found = relocated_datadir(resolved, sizeof resolved - 16); done = 1; }
  *dir = found ? resolved : GR_PKGDATADIR;
  return found;
}

const char *cli_data_dir(void){
  const char *d;
  data_dir_relocated(&d);
  /* where configure put it (also what the errors name when it is missing) */
  return d;
}

/* The source tree of an uninstalled binary: `make` writes its path into
** BUILD_SRCDIR_FILE next to the binary it links (never installed), so
** `src/gerules` run from a build tree finds the rule set and the code texts
** of its own tree. NULL for an installed binary, or when the file or the
** tree's rules directory is missing. */
#define BUILD_SRCDIR_FILE "gerules.srcdir"
const char *cli_build_srcdir(void){
  static char dir[PATH_MAX];
  static int done, found;
  const char *installed;
  if( done ) return found ? dir : NULL;
  done = 1;
  if( data_dir_relocated(&installed) ) return NULL;     /* an installed tree wins */
  {
    char exe[PATH_MAX], path[PATH_MAX + 32], rules[PATH_MAX + 8];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    FILE *f;
    size_t n;
    if( len <= 0 ) return NULL;
    exe[len] = 0;
    if( (slash = strrchr(exe, '/'))==NULL ) return NULL;
    *slash = 0;
    snprintf(path, sizeof path, "%s/" BUILD_SRCDIR_FILE, exe);
    if( (f = fopen(path, "r"))==NULL ) return NULL;
    n = fread(dir, 1, sizeof dir - 1, f);
    fclose(f);
    dir[n] = 0;
    while( n && (dir[n-1]=='\n' || dir[n-1]=='\r') ) dir[--n] = 0;
    snprintf(rules, sizeof rules, "%s/rules", dir);
    found = n > 0 && n < sizeof dir - 1 && is_dir(rules);
  }
  return found ? dir : NULL;
}

const char *cli_default_rules(void){
  static char buf[PATH_MAX + 8];
  const char *env = getenv("GERULES_RULES"), *src;
  if( env && *env ) return env;
  if( (src = cli_build_srcdir())!=NULL ) snprintf(buf, sizeof buf, "%s/rules", src);
  else snprintf(buf, sizeof buf, "%s/rules", cli_data_dir());
  return buf;
}

/* --color: set once by main() before any command runs. */
static int color_mode = CLI_COLOR_AUTO;

int cli_color(int fd){
  const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
  if( color_mode==CLI_COLOR_ALWAYS ) return 1;
  if( color_mode==CLI_COLOR_NEVER ) return 0;
  if( nc && *nc ) return 0;                   /* https://no-color.org */
  if( term && strcmp(term, "dumb")==0 ) return 0;
  return isatty(fd);
}

void cli_print_diags(const gr_diags *d){
  gr_buf b;
  size_t i;
  int color = cli_color(2);
  gr_srclines *src = gr_srclines_new();
  gr_buf_init(&b);
  for(i = 0; i < d->n; i++){
    const gr_diag *x = &d->v[i];
    const char *snip = NULL;
    size_t snlen = 0;
    if( x->snippet==NULL && x->line ) snip = gr_srclines_get(src, x->file, x->line, &snlen);
    gr_diag_format_ex(&b, x, snip, snlen, color);
  }
  if( b.n ) fwrite(b.p, 1, b.n, stderr);
  gr_buf_free(&b);
  gr_srclines_free(src);
}

gr_ruleset *cli_load_rules(cli_ctx *c){
  const char *const *paths;
  size_t n;
  if( c->rs ) return c->rs;
  n = cli_rule_paths(c, &paths);
  c->rs = cli_load_paths(c, paths, n);
  if( c->rs ){                  /* the ONNX shape table is checked with the rest */
    gr_opmap *m = gr_onnx_map_from_rules(c->rs, &c->diags);
    if( m==NULL ){ gr_ruleset_free(c->rs); c->rs = NULL; }
    gr_opmap_free(m);
  }
  if( c->rs==NULL && !c->refused && !c->trust_failed ){
    cli_print_diags(&c->diags);
    fprintf(stderr, "gerules: the rule set %s has errors (run 'gerules check %s')\n", paths[n - 1], paths[n - 1]);
  }
  return c->rs;
}

void cli_ctx_free(cli_ctx *c){
  gr_ruleset_free(c->rs);
  gr_diags_free(&c->diags);
  cli_trust_free(c);
  c->rs = NULL;
}

int main(int argc, char **argv){
  cli_ctx c;
  /* before the first allocation of the run (base/util.h); GERULES_HUGEPAGES=0
  ** leaves the heap on ordinary pages, to measure what this is worth */
  const char *huge = getenv("GERULES_HUGEPAGES");
  /* the arguments of the command, then the --trust paths */
  char **args;
  int nargs = 0, i, rc;
  const char *cmd = NULL;
  if( huge==NULL || strcmp(huge, "0")!=0 ) gr_heap_hugepages((size_t)64 << 20);
  args = calloc(3 * (size_t)argc + 3, sizeof *args);
  memset(&c, 0, sizeof c);
  gr_diags_init(&c.diags);
  if( args==NULL ){ fputs("gerules: out of memory\n", stderr); return EXIT_INPUT; }
  c.trust_paths = (const char **)(args + argc + 1);
  c.rules_paths = (const char **)(args + 2 * argc + 2);
  /* global options may come before or after the command */
  for(i = 1; i < argc; i++){
    if( strcmp(argv[i], "--rules")==0 ){
      if( i + 1 >= argc ){ free(args); return cli_usage_error(NULL, "--rules needs a path"); }
      i++;
      if( c.nrules_paths==0 ) c.rules_path = argv[i];
      c.rules_paths[c.nrules_paths++] = argv[i];
    }else if( strncmp(argv[i], "--rules=", 8)==0 ){
      c.rules_paths[c.nrules_paths++] = argv[i] + 8;
      if( c.nrules_paths==1 ) c.rules_path = argv[i] + 8;
    }else if( strcmp(argv[i], "--color")==0 || strncmp(argv[i], "--color=", 8)==0 ){
      const char *v = argv[i][7]=='=' ? argv[i] + 8 : i + 1 < argc ? argv[++i] : "";
      if( strcmp(v, "auto")==0 ) color_mode = CLI_COLOR_AUTO;
      else if( strcmp(v, "always")==0 ) color_mode = CLI_COLOR_ALWAYS;
      else if( strcmp(v, "never")==0 ) color_mode = CLI_COLOR_NEVER;
      else{ free(args); return cli_usage_error(NULL, "--color is auto, always or never, not '%s'", v); }
    }else if( strcmp(argv[i], "--trust")==0 || strncmp(argv[i], "--trust=", 8)==0 ){
      if( argv[i][7]==0 && i + 1 >= argc ){ free(args); return cli_usage_error(NULL, "--trust needs a file or directory"); }
      c.trust_paths[c.ntrust_paths++] = argv[i][7] ? argv[i] + 8 : argv[++i];
    }else if( strcmp(argv[i], "--allow-downgrade")==0 ){
      c.allow_downgrade = 1;
    }else if( strcmp(argv[i], "--cann")==0 || strncmp(argv[i], "--cann=", 7)==0 ){
      if( argv[i][6]==0 && i + 1 >= argc ){ free(args); return cli_usage_error(NULL, "--cann needs a CANN release (for example 8.1.RC1)"); }
      c.cann = argv[i][6] ? argv[i] + 7 : argv[++i];
      if( !gr_cann_valid(c.cann) ){ free(args); return cli_usage_error(NULL, "--cann: '%s' is not a CANN release (for example 8.0.RC2, 8.1.RC1, 8.0.0)", c.cann); }
    }else if( cmd==NULL && strcmp(argv[i], "--version")==0 ){
      printf("gerules %s\n", PACKAGE_VERSION);
      free(args);
      return 0;
    }else if( cmd==NULL && (strcmp(argv[i], "--help")==0 || strcmp(argv[i], "-h")==0) ){
      fputs(usage_text, stdout);
      free(args);
      return 0;
    }else if( cmd==NULL && argv[i][0]=='-' ){
      free(args);
      return cli_unknown_option(NULL, NULL, argv[i]);
    }else if( cmd==NULL ){
      cmd = argv[i];
    }else{
      args[nargs++] = argv[i];
    }
  }
  if( cmd==NULL ){
    fputs(usage_text, stderr);
    free(args);
    return EXIT_INPUT;
  }
  if( strcmp(cmd, "check")==0 ) rc = cmd_check(&c, nargs, args);
  else if( strcmp(cmd, "chips")==0 ) rc = cmd_chips(&c, nargs, args);
  else if( strcmp(cmd, "options")==0 ) rc = cmd_options(&c, nargs, args);
  else if( strcmp(cmd, "explain")==0 ) rc = cmd_explain(&c, nargs, args);
  else if( strcmp(cmd, "eval")==0 ) rc = cmd_eval(&c, nargs, args);
  else if( strcmp(cmd, "tile")==0 ) rc = cmd_tile(&c, nargs, args);
  else if( strcmp(cmd, "bundle")==0 ) rc = cmd_bundle(&c, nargs, args);
  else if( strcmp(cmd, "test")==0 ) rc = cmd_test(&c, nargs, args);
  else if( strcmp(cmd, "diff")==0 ) rc = cmd_diff(&c, nargs, args);
  else if( strcmp(cmd, "atc")==0 ) rc = cmd_atc(&c, nargs, args);
  else if( strcmp(cmd, "import-oplib")==0 ) rc = cmd_import_oplib(&c, nargs, args);
  else{
    static const char *cmds[] = { "eval", "tile", "check", "chips", "options", "explain", "bundle", "test", "diff", "atc", "import-oplib" };
    const char *s = gr_suggest(cmd, cmds, sizeof cmds / sizeof *cmds);
    if( s ) rc = cli_usage_error(NULL, "unknown command '%s'; did you mean '%s'?", cmd, s);
    else rc = cli_usage_error(NULL, "unknown command '%s'", cmd);
  }
  /* The rule set is not freed at exit: the kernel takes the heap back at
  ** once, while freeing the AST node by node costs 57M of the 339M
  ** instructions of an eval with 10,000 extra rules (callgrind), 3% of a
  ** 10K-op eval. The sanitizer builds still free everything, so their leak
  ** checks keep covering the rule set's ownership. */
#if defined(__SANITIZE_ADDRESS__)
  cli_ctx_free(&c);
#else
  gr_diags_free(&c.diags);
  cli_trust_free(&c);
#endif
  free(args);
  if( fflush(stdout)!=0 ){
    perror("gerules: write error");
    return EXIT_INPUT;
  }
  return rc;
}
