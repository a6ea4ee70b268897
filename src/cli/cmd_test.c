/*
** cmd_test.c: `gerules test`, golden cases for bundle authors and the
** project's own t/golden. Each case
** file (format: src/bundle/cases.h, doc/vendor-guide.md) runs `gerules eval
** --format json` as a child process of this same binary, with the same rule
** set and trust options, in the case file's directory, twice (the output
** must be byte-identical); the exit status, stderr and the JSON report are
** checked against the case, and the reports feed a coverage summary of the
** rule set's sources, cascade branches and rules, for the stack and per
** layer. Output is text, TAP or JSON. With --update the runs rewrite the
** case files instead (case_update.c), all or none.
*/
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "bundle/cases.h"
#include "report/out.h"

static const char test_usage[] =
  "usage: gerules test [--format text|tap|json] [-q] [--min-coverage [LAYER:]PERCENT] [--coverage]\n"
  "                    [--update] [CASE|DIR...]\n"
  "Runs golden case files (*.case; default: the tests/ folder of each layer of the rule set in use)\n"
  "against the rule set: each runs 'gerules eval GRAPH --format json' twice and compares the exit\n"
  "status, stderr and a subset of the report with what the case expects. Prints a coverage summary\n"
  "of which sources, cascade branches and rules the cases hit, for the stack and for each layer of it\n"
  "(--coverage: list what none hits); --min-coverage fails (exit 1) when the branches and rules hit\n"
  "are below PERCENT of all of them (LAYER:PERCENT: of that layer's own; repeatable).\n"
  "--format json writes one document (doc/schemas/test.schema.json); -q prints only the failing\n"
  "cases and the summary.\n"
  "--update rewrites each case from the current output instead: its exit line, the stderr lines that\n"
  "no longer hold, and its expect block (same keys, current values; recorded from the report when\n"
  "the case has none); everything else is kept. Refuses (exit 2, nothing written) when an input\n"
  "fails to evaluate.\n"
  "\n"
  "case file (defined in doc/vendor-guide.md, \"Golden cases\"):\n"
  "  # title (required: the first comment lines describe the case)\n"
  "  graph: PATH | inline      relative to the case file; inline: a '--- graph' block\n"
  "  chip: SOC                 run-mode: inference|training\n"
  "  option: KEY=VALUE         arg: RAW ARGUMENTS       (repeatable, in order)\n"
  "  exit: 0|1|2               stderr: TEXT (stderr must contain it)\n"
  "  --- ini [NAME]            a file NAME.ini (default op_precision.ini); {NAME} (default {ini}) is its path\n"
  "  --- file NAME             any other file; {NAME} is its path; {tmp} is the case's directory\n"
  "  --- graph                 the inline graph (JSON)\n"
  "  --- expect                a JSON subset of the report: nodes (by name or \"type:T\"), options,\n"
  "                            diagnostics, absent, summary, any other top-level key; KEY~ a substring,\n"
  "                            KEY! elements that must not occur, \"#\" an exact count of diagnostics\n";

static int is_help(const char *a){ return strcmp(a, "--help")==0 || strcmp(a, "-h")==0; }

static int cmp_str(const void *a, const void *b){ return strcmp(*(char*const*)a, *(char*const*)b); }

/* The case files of a path: itself, or the *.case files of a directory (sorted). */
static int collect(const char *path, char ***files, size_t *n){
  struct stat st;
  DIR *d;
  struct dirent *e;
  size_t first = *n;
  if( stat(path, &st)!=0 ){ fprintf(stderr, "gerules test: error: %s: %s\n", path, strerror(errno)); return -1; }
  if( !S_ISDIR(st.st_mode) ){
    *files = gr_xrealloc(*files, (*n + 1) * sizeof **files);
    (*files)[(*n)++] = gr_xstrdup(path);
    return 0;
  }
  if( (d = opendir(path))==NULL ){ fprintf(stderr, "gerules test: error: %s: %s\n", path, strerror(errno)); return -1; }
  while( (e = readdir(d))!=NULL ){
    size_t l = strlen(e->d_name);
    if( e->d_name[0]=='.' || l < 6 || strcmp(e->d_name + l - 5, ".case")!=0 ) continue;
    *files = gr_xrealloc(*files, (*n + 1) * sizeof **files);
    (*files)[(*n)++] = gr_xasprintf("%s/%s", path, e->d_name);
  }
  closedir(d);
  if( *n > first ) qsort(*files + first, *n - first, sizeof **files, cmp_str);
  return 0;
}

static int write_file(const char *path, const char *text){
  FILE *f = fopen(path, "w");
  int ok;
  if( f==NULL ) return -1;
  ok = fputs(text, f) >= 0;
  return fclose(f)==0 && ok ? 0 : -1;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw){
  (void)st; (void)flag; (void)ftw;
  return remove(p);
}

/* Runs argv in dir with stdout and stderr to files; returns the exit status
** (-1 when the child could not run, 128+N for a signal). */
static int run_child(char **argv, const char *dir, const char *out, const char *err){
  pid_t pid;
  int st;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if( pid < 0 ) return -1;
  if( pid==0 ){
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if( fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 || chdir(dir)!=0 ) _exit(127);
    execv(argv[0], argv);
    _exit(127);
  }
  while( waitpid(pid, &st, 0) < 0 ){ if( errno!=EINTR ) return -1; }
  if( WIFEXITED(st) ) return WEXITSTATUS(st);
  if( WIFSIGNALED(st) ) return 128 + WTERMSIG(st);
  return -1;
}

static char *slurp(const char *path, size_t *n){
  gr_error e;
  char *s = gr_read_file(path, n, &e);
  if( s==NULL ){ *n = 0; s = gr_xstrdup(""); }
  return s;
}

typedef struct tester {
  cli_ctx *c;
  char self[PATH_MAX];
  char **rules; size_t nrules;        /* absolute --rules paths for the child */
  int tap, json, quiet, update;
  const char *min; double minv;       /* --min-coverage PERCENT: the stack */
  char **min_layer; double *min_layer_v; size_t nmin_layer;   /* --min-coverage NAME:PERCENT */
} tester;

/* One case's two runs: the temporary directory with the case's files, the
** substitutions, and what each run gave. */
typedef struct case_run {
  char *base, *casedir;
  const char **names, **values;
  gr_subst s;
  int rc, rc2, setup_failed;
  char *out, *err, *out2;
  size_t nout, nerr, nout2;
  char *tmp;
} case_run;

static void run_free(case_run *r){
  size_t i;
  free(r->out); free(r->err); free(r->out2);
  for(i = 1; i < r->s.n; i++) free((char*)r->values[i]);
  free(r->names); free(r->values);
  if( r->tmp ) nftw(r->tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(r->casedir);
  free(r->base);
  memset(r, 0, sizeof *r);
}

/* Makes the case's directory and files and runs `gerules eval` twice in the
** case file's directory. -1 (reason in fails) when the directory cannot be made. */
static int run_start(tester *t, const gr_case *cs, case_run *r, gr_buf *fails){
  char tmpl[] = "/tmp/gerules-test.XXXXXX", *slash, *graph, *outp, *errp, *out2p;
  const char *tdir = getenv("TMPDIR");
  char **argv = NULL;
  size_t nargv = 0, i;
  memset(r, 0, sizeof *r);
  r->names = gr_xcalloc(cs->nblocks + 1, sizeof *r->names);
  r->values = gr_xcalloc(cs->nblocks + 1, sizeof *r->values);
  if( tdir && *tdir ) r->base = gr_xasprintf("%s/gerules-test.XXXXXX", tdir);
  r->tmp = mkdtemp(r->base ? r->base : tmpl);
  if( r->tmp==NULL ){
    gr_buf_printf(fails, "cannot make a temporary directory: %s\n", strerror(errno));
    r->setup_failed = 1;
    return -1;
  }
  if( r->base==NULL ) r->base = gr_xstrdup(r->tmp);
  r->tmp = r->base;
  r->casedir = gr_xstrdup(cs->path);
  slash = strrchr(r->casedir, '/');
  if( slash ) *slash = 0; else { free(r->casedir); r->casedir = gr_xstrdup("."); }
  r->names[0] = "tmp"; r->values[0] = r->tmp;
  r->s.names = r->names; r->s.values = r->values; r->s.n = 1;
  for(i = 0; i < cs->nblocks; i++){
    char *p = gr_xasprintf("%s/%s", r->tmp, cs->blocks[i].fname);
    if( write_file(p, cs->blocks[i].body)!=0 ){ gr_buf_printf(fails, "cannot write %s\n", p); r->setup_failed = 1; }
    r->names[r->s.n] = cs->blocks[i].name; r->values[r->s.n] = p; r->s.n++;
  }
  if( strcmp(cs->graph, "inline")==0 ){
    graph = gr_xasprintf("%s/graph.json", r->tmp);
    if( write_file(graph, cs->inline_graph)!=0 ){ gr_buf_printf(fails, "cannot write %s\n", graph); r->setup_failed = 1; }
  }else{
    graph = gr_subst_apply(&r->s, cs->graph);
  }
#define ARG(x) do{ argv = gr_xrealloc(argv, (nargv + 2) * sizeof *argv); argv[nargv++] = (x); argv[nargv] = NULL; }while(0)
  ARG(gr_xstrdup(t->self));
  for(i = 0; i < t->nrules; i++){ ARG(gr_xstrdup("--rules")); ARG(gr_xstrdup(t->rules[i])); }
  for(i = 0; i < t->c->ntrust_paths; i++){
    char rp[PATH_MAX];
    ARG(gr_xstrdup("--trust"));
    ARG(gr_xstrdup(realpath(t->c->trust_paths[i], rp) ? rp : t->c->trust_paths[i]));
  }
  if( t->c->allow_downgrade ) ARG(gr_xstrdup("--allow-downgrade"));
  ARG(gr_xstrdup("eval")); ARG(graph); ARG(gr_xstrdup("--format")); ARG(gr_xstrdup("json"));
  if( cs->chip ){ ARG(gr_xstrdup("--chip")); ARG(gr_subst_apply(&r->s, cs->chip)); }
  if( cs->run_mode ){ ARG(gr_xstrdup("--run-mode")); ARG(gr_subst_apply(&r->s, cs->run_mode)); }
  for(i = 0; i < cs->nargs; i++) ARG(gr_subst_apply(&r->s, cs->args[i]));
#undef ARG
  outp = gr_xasprintf("%s/.stdout", r->tmp);
  errp = gr_xasprintf("%s/.stderr", r->tmp);
  out2p = gr_xasprintf("%s/.stdout2", r->tmp);
  r->rc = run_child(argv, r->casedir, outp, errp);
  r->out = slurp(outp, &r->nout);
  r->err = slurp(errp, &r->nerr);
  r->rc2 = run_child(argv, r->casedir, out2p, errp);
  r->out2 = slurp(out2p, &r->nout2);
  free(outp); free(errp); free(out2p);
  for(i = 0; i < nargv; i++) free(argv[i]);
  free(argv);
  return 0;
}

/* Runs one parsed case; appends failures to fails; returns their count. */
static int run_case(tester *t, const gr_case *cs, gr_coverage *cv, gr_buf *fails){
  case_run r;
  int nfail = 0;
  gr_jv *rep = NULL;
  if( run_start(t, cs, &r, fails)!=0 ){ run_free(&r); return 1; }
  if( r.setup_failed ) nfail++;
  if( r.rc < 0 || r.rc > 2 ){ gr_buf_printf(fails, "abnormal exit status %d of %s\n", r.rc, t->self); nfail++; }
  else if( r.rc2!=r.rc ){ gr_buf_printf(fails, "a second run exited %d, the first %d (not deterministic)\n", r.rc2, r.rc); nfail++; }
  nfail += gr_case_check(cs, &r.s, r.rc, r.out, r.nout, r.err, r.out2, r.nout2, &rep, fails);
  if( rep ){ gr_coverage_add(cv, rep); gr_jv_free(rep); }
  run_free(&r);
  return nfail;
}

/* ---- --update ---- */

/* Writes text to path through a temporary file in the same directory and a
** rename: a reader sees the old file or the new one, never a part. */
static int write_atomic(const char *path, const char *text){
  char *tmp = gr_xasprintf("%s.XXXXXX", path);
  struct stat st;
  size_t n = strlen(text), off = 0;
  int fd = mkstemp(tmp), ok = fd >= 0;
  if( ok && stat(path, &st)==0 ) ok = fchmod(fd, st.st_mode & 07777)==0;
  while( ok && off < n ){
    ssize_t w = write(fd, text + off, n - off);
    if( w < 0 && errno==EINTR ) continue;
    if( w <= 0 ) ok = 0; else off += (size_t)w;
  }
  if( ok ) ok = fsync(fd)==0;
  if( fd >= 0 && close(fd)!=0 ) ok = 0;
  if( ok ) ok = rename(tmp, path)==0;
  if( !ok ){
    int e = errno;
    if( fd >= 0 ) unlink(tmp);
    fprintf(stderr, "gerules test: error: %s: cannot write: %s\n", path, strerror(e));
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* Prints the stderr of a refused case's run, indented. */
static void print_indented(FILE *f, const char *text){
  const char *p = text, *e;
  while( *p ){
    e = strchr(p, '\n');
    if( e==NULL ) e = p + strlen(p);
    fprintf(f, "    %.*s\n", (int)(e - p), p);
    p = *e ? e + 1 : e;
  }
}

/* One case's new text (NULL: unchanged) into *out; -1 when the case is
** refused (the reason on stderr). */
static int update_one(tester *t, const gr_case *cs, const char *text, size_t len, char **out, gr_buf *changes){
  case_run r;
  gr_buf fails;
  gr_jv *rep = NULL;
  int ret = 0;
  gr_error e;
  *out = NULL;
  gr_buf_init(&fails);
  memset(&e, 0, sizeof e);
  if( run_start(t, cs, &r, &fails)!=0 || r.setup_failed ){
    fprintf(stderr, "%s:%u:%u: error: the case cannot be set up; nothing recorded\n", cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u);
    print_indented(stderr, gr_buf_cstr(&fails));
    ret = -1;
  }else if( r.rc==2 && cs->exit==2 ){
    /* a case about a failure: nothing to record; it is current or edited by hand */
    gr_jv *none = NULL;
    if( gr_case_check(cs, &r.s, r.rc, r.out, r.nout, r.err, r.out2, r.nout2, &none, &fails)!=0 ){
      fprintf(stderr, "%s:%u:%u: error: the case expects exit 2 and fails; a failure case is edited by hand, not recorded\n",
              cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u);
      print_indented(stderr, gr_buf_cstr(&fails));
      ret = -1;
    }
    gr_jv_free(none);
  }else if( r.rc==2 || r.rc < 0 || r.rc > 2 ){
    fprintf(stderr, "%s:%u:%u: error: the case's input fails to evaluate (gerules eval exits %d); nothing recorded\n",
            cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u, r.rc);
    print_indented(stderr, r.err);
    ret = -1;
  }else if( r.rc2!=r.rc || r.nout2!=r.nout || memcmp(r.out, r.out2, r.nout)!=0 ){
    fprintf(stderr, "%s:%u:%u: error: two runs gave different output (not deterministic); nothing recorded\n", cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u);
    ret = -1;
  }else if( (rep = gr_jv_parse(r.out, r.nout, &e))==NULL ){
    fprintf(stderr, "%s:%u:%u: error: gerules eval's output is not JSON (%u:%u: %s); nothing recorded\n", cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u, e.line, e.col, e.msg);
    ret = -1;
  }else if( (*out = gr_case_update(cs, text, len, &r.s, r.rc, r.err, rep, changes))!=NULL ){
    /* the new text must parse and pass against this very run */
    gr_case nc;
    gr_diags d;
    gr_jv *rep2 = NULL;
    int bad;
    gr_diags_init(&d);
    bad = gr_case_parse(&nc, cs->path, *out, strlen(*out), 0, &d)!=0;
    fails.n = 0;
    if( !bad ) bad = gr_case_check(&nc, &r.s, r.rc, r.out, r.nout, r.err, NULL, 0, &rep2, &fails)!=0;
    if( bad ){
      fprintf(stderr, "%s:%u:%u: error: the refreshed case would still fail; nothing recorded\n", cs->path, cs->graph_line, cs->graph_col ? cs->graph_col : 1u);
      if( gr_diags_errors(&d) ) cli_print_diags(&d);
      print_indented(stderr, gr_buf_cstr(&fails));
      free(*out); *out = NULL;
      ret = -1;
    }
    gr_jv_free(rep2);
    gr_case_free(&nc);
    gr_diags_free(&d);
  }
  gr_jv_free(rep);
  gr_buf_free(&fails);
  run_free(&r);
  return ret;
}

/* `gerules test --update`: every case is run first; when one is refused no
** file is written (exit 2); else each changed file is rewritten and what
** changed is listed under it. */
static int update_all(tester *t, gr_case *cases, char **files, size_t nfiles){
  char **now = gr_xcalloc(nfiles + 1, sizeof *now);
  gr_buf *changes = gr_xcalloc(nfiles + 1, sizeof *changes);
  size_t f, refused = 0, nupd = 0;
  int rc = 0;
  for(f = 0; f < nfiles; f++){
    gr_error e;
    size_t len;
    char *text = gr_read_file(files[f], &len, &e);
    gr_buf_init(&changes[f]);
    if( text==NULL ){ fprintf(stderr, "%s: error: cannot read: %s\n", files[f], e.msg); refused++; continue; }
    if( update_one(t, &cases[f], text, len, &now[f], &changes[f])!=0 ) refused++;
    free(text);
  }
  if( refused ){
    fprintf(stderr, "gerules test: %zu case%s refused; no file written\n", refused, refused==1 ? "" : "s");
    rc = EXIT_INPUT;
  }else{
    for(f = 0; f < nfiles; f++){
      if( now[f]==NULL ){ if( !t->quiet ) printf("unchanged %s\n", files[f]); continue; }
      if( write_atomic(files[f], now[f])!=0 ){ rc = EXIT_INPUT; continue; }
      nupd++;
      printf("updated %s\n%s", files[f], gr_buf_cstr(&changes[f]));
    }
    printf("%zu case%s: %zu updated, %zu unchanged\n", nfiles, nfiles==1 ? "" : "s", nupd, nfiles - nupd);
  }
  for(f = 0; f < nfiles; f++){ free(now[f]); gr_buf_free(&changes[f]); }
  free(now);
  free(changes);
  return rc;
}

/* ---- coverage ---- */

static double pct(size_t a, size_t b){ return b ? 100.0 * (double)a / (double)b : 100.0; }

static void print_uncovered(const gr_coverage *cv, const char *lead){
  const gr_ruleset *rs = cv->rs;
  size_t i, k;
  for(i = 0; i < rs->nsources; i++){
    for(k = 0; k < rs->sources[i].nbranches; k++){
      if( cv->branch_hit[cv->branch_first[i] + k] ) continue;
      printf("%snot hit: source %s, branch %zu (%s:%u)\n", lead, rs->sources[i].name, k + 1,
             gr_ruleset_short_path(rs, rs->sources[i].branches[k].loc.file), rs->sources[i].branches[k].loc.line);
    }
  }
  for(i = 0; i < rs->nrules; i++){
    if( cv->rule_hit[i] ) continue;
    printf("%snot hit: rule %s (%s:%u)\n", lead, rs->rules[i].name, gr_ruleset_short_path(rs, rs->rules[i].loc.file), rs->rules[i].loc.line);
  }
  for(i = 0; i < rs->nrelations; i++){
    if( cv->rule_hit[rs->nrules + i] ) continue;
    printf("%snot hit: relation (%s:%u)\n", lead, gr_ruleset_short_path(rs, rs->relations[i].loc.file), rs->relations[i].loc.line);
  }
}

/* A layer's name for the summary: "name version", or its path. */
static char *layer_label(const gr_layer *L){
  if( L->name ) return L->version ? gr_xasprintf("%s %s", L->name, L->version) : gr_xstrdup(L->name);
  return gr_xstrdup(L->root ? L->root : "(rules)");
}

/* counts[6]: sources, branches, rules (hit, of) of the stack (layer -1) or one layer. */
static void cov_counts(const gr_coverage *cv, size_t layer, size_t n[6]){
  if( layer==(size_t)-1 ) gr_coverage_counts(cv, &n[0], &n[1], &n[2], &n[3], &n[4], &n[5]);
  else gr_coverage_layer_counts(cv, layer, &n[0], &n[1], &n[2], &n[3], &n[4], &n[5]);
}

static void json_hit_of(gr_jw *jw, const char *key, size_t hit, size_t of){
  gr_jw_key(jw, key); gr_jw_obj(jw);
  gr_jw_key(jw, "hit"); gr_jw_int(jw, (int64_t)hit);
  gr_jw_key(jw, "of"); gr_jw_int(jw, (int64_t)of);
  gr_jw_end_obj(jw);
}

static void json_percent(gr_jw *jw, const char *key, double v){
  char b[32];
  snprintf(b, sizeof b, "%.1f", v);
  gr_jw_key(jw, key); gr_jw_raw(jw, b);
}

/* The coverage member of --format json: the stack, then each layer. */
static void json_coverage(tester *t, gr_jw *jw, const gr_coverage *cv){
  size_t n[6], l;
  char b[32];
  cov_counts(cv, (size_t)-1, n);
  gr_jw_key(jw, "coverage"); gr_jw_obj(jw);
  json_hit_of(jw, "sources", n[0], n[1]);
  json_hit_of(jw, "branches", n[2], n[3]);
  json_hit_of(jw, "rules", n[4], n[5]);
  json_percent(jw, "percent", pct(n[2] + n[4], n[3] + n[5]));
  gr_jw_key(jw, "min_coverage");
  if( t->min ){ snprintf(b, sizeof b, "%g", t->minv); gr_jw_raw(jw, b); } else gr_jw_null(jw);
  gr_jw_key(jw, "layers"); gr_jw_arr(jw);
  for(l = 0; l < cv->rs->nlayers; l++){
    const gr_layer *L = &cv->rs->layers[l];
    cov_counts(cv, l, n);
    gr_jw_obj(jw);
    gr_jw_key(jw, "name"); if( L->name ) gr_jw_str(jw, L->name); else gr_jw_null(jw);
    gr_jw_key(jw, "version"); if( L->version ) gr_jw_str(jw, L->version); else gr_jw_null(jw);
    gr_jw_key(jw, "path"); if( L->root ) gr_jw_str(jw, L->root); else gr_jw_null(jw);
    json_hit_of(jw, "sources", n[0], n[1]);
    json_hit_of(jw, "branches", n[2], n[3]);
    json_hit_of(jw, "rules", n[4], n[5]);
    json_percent(jw, "percent", pct(n[2] + n[4], n[3] + n[5]));
    gr_jw_end_obj(jw);
  }
  gr_jw_end_arr(jw);
  gr_jw_end_obj(jw);
}

/* The coverage lines of text and TAP output: the stack, then, when it has
** more than one layer, one line per layer. */
static void print_coverage(const gr_coverage *cv, const char *lead){
  size_t n[6], l;
  cov_counts(cv, (size_t)-1, n);
  printf("%scoverage: sources %zu/%zu (%.1f%%), cascade branches %zu/%zu (%.1f%%), rules %zu/%zu (%.1f%%); "
         "branches and rules %zu/%zu (%.1f%%)\n", lead, n[0], n[1], pct(n[0], n[1]), n[2], n[3], pct(n[2], n[3]),
         n[4], n[5], pct(n[4], n[5]), n[2] + n[4], n[3] + n[5], pct(n[2] + n[4], n[3] + n[5]));
  for(l = 0; cv->rs->nlayers > 1 && l < cv->rs->nlayers; l++){
    char *label = layer_label(&cv->rs->layers[l]);
    cov_counts(cv, l, n);
    printf("%scoverage of layer %s: sources %zu/%zu (%.1f%%), cascade branches %zu/%zu (%.1f%%), rules %zu/%zu (%.1f%%); "
           "branches and rules %zu/%zu (%.1f%%)\n", lead, label, n[0], n[1], pct(n[0], n[1]), n[2], n[3], pct(n[2], n[3]),
           n[4], n[5], pct(n[4], n[5]), n[2] + n[4], n[3] + n[5], pct(n[2] + n[4], n[3] + n[5]));
    free(label);
  }
}

/* The --min-coverage gates: the stack's, then each NAME:PERCENT. 1 when one fails. */
static int coverage_gates(const tester *t, const gr_coverage *cv, const char *lead, int print){
  size_t n[6], g, l;
  int failed = 0;
  double v;
  cov_counts(cv, (size_t)-1, n);
  v = pct(n[2] + n[4], n[3] + n[5]);
  if( t->min && v < t->minv ){
    if( print ) printf("%scoverage %.1f%% is below --min-coverage %s\n", lead, v, t->min);
    fprintf(stderr, "gerules test: coverage %.1f%% is below --min-coverage %s\n", v, t->min);
    failed = 1;
  }
  for(g = 0; g < t->nmin_layer; g++){
    for(l = 0; l < cv->rs->nlayers; l++){
      const char *name = cv->rs->layers[l].name;
      if( name==NULL || strcmp(name, t->min_layer[g])!=0 ) continue;
      cov_counts(cv, l, n);
      v = pct(n[2] + n[4], n[3] + n[5]);
      if( v < t->min_layer_v[g] ){
        if( print ) printf("%scoverage of layer %s %.1f%% is below --min-coverage %s:%g\n", lead, name, v, name, t->min_layer_v[g]);
        fprintf(stderr, "gerules test: coverage of layer %s %.1f%% is below --min-coverage %s:%g\n", name, v, name, t->min_layer_v[g]);
        failed = 1;
      }
    }
  }
  return failed;
}

/* ---- the command ---- */

/* --min-coverage PERCENT or NAME:PERCENT; 0 or a usage error (-1). */
static int parse_min(tester *t, const char *v){
  const char *colon = strrchr(v, ':'), *num = colon ? colon + 1 : v;
  char *e;
  double x = strtod(num, &e);
  if( *num==0 || *e || !(x >= 0 && x <= 100) || (colon && colon==v) ){
    cli_usage_error("test", "--min-coverage needs a percentage from 0 to 100 (or LAYER:PERCENT)");
    return -1;
  }
  if( colon==NULL ){ t->min = v; t->minv = x; return 0; }
  t->min_layer = gr_xrealloc(t->min_layer, (t->nmin_layer + 1) * sizeof *t->min_layer);
  t->min_layer_v = gr_xrealloc(t->min_layer_v, (t->nmin_layer + 1) * sizeof *t->min_layer_v);
  t->min_layer[t->nmin_layer] = gr_xstrndup(v, (size_t)(colon - v));
  t->min_layer_v[t->nmin_layer++] = x;
  return 0;
}

/* Options and paths; 1 after --help, -1 on a usage error. */
static int parse_args(tester *t, int argc, char **argv, char ***paths, size_t *npaths, int *list){
  int i, k;
  const char *v;
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(test_usage, stdout); return 1; }
    if( (k = cli_arg_value("test", "--format", &i, argc, argv, &v))!=0 ){
      if( k < 0 ) return -1;
      t->tap = t->json = 0;
      if( strcmp(v, "tap")==0 ) t->tap = 1;
      else if( strcmp(v, "json")==0 ) t->json = 1;
      else if( strcmp(v, "text")!=0 ){ cli_usage_error("test", "unknown format '%s' (text, tap or json)", v); return -1; }
      continue;
    }
    if( (k = cli_arg_value("test", "--min-coverage", &i, argc, argv, &v))!=0 ){
      if( k < 0 || parse_min(t, v)!=0 ) return -1;
      continue;
    }
    if( strcmp(argv[i], "--coverage")==0 ){ *list = 1; continue; }
    if( strcmp(argv[i], "--update")==0 ){ t->update = 1; continue; }
    if( strcmp(argv[i], "-q")==0 || strcmp(argv[i], "--quiet")==0 ){ t->quiet = 1; continue; }
    if( argv[i][0]=='-' && argv[i][1] ){ cli_unknown_option("test", test_usage, argv[i]); return -1; }
    *paths = gr_xrealloc(*paths, (*npaths + 1) * sizeof **paths);
    (*paths)[(*npaths)++] = argv[i];
  }
  if( t->update && (t->tap || t->json || *list || t->min || t->nmin_layer) ){
    cli_usage_error("test", "--update records cases: it takes no --format, --coverage or --min-coverage");
    return -1;
  }
  return 0;
}

/* The case files: the paths given, or the tests/ folder of every layer. */
static int find_cases(tester *t, char **paths, size_t npaths, char ***files, size_t *nfiles){
  size_t f, r;
  int rc = 0;
  if( npaths ){
    for(f = 0; f < npaths; f++) if( collect(paths[f], files, nfiles)!=0 ) rc = EXIT_INPUT;
    return rc;
  }
  for(r = 0; r < t->nrules; r++){
    struct stat st;
    char *d;
    if( stat(t->rules[r], &st)==0 && S_ISDIR(st.st_mode) ) d = gr_xasprintf("%s/tests", t->rules[r]);
    else { char *sl; d = gr_xstrdup(t->rules[r]); sl = strrchr(d, '/'); if( sl ) strcpy(sl, "/tests"); }
    if( stat(d, &st)==0 && S_ISDIR(st.st_mode) ){ if( collect(d, files, nfiles)!=0 ) rc = EXIT_INPUT; }
    free(d);
  }
  if( *nfiles==0 && rc==0 ){
    fprintf(stderr, "gerules test: error: no case files given, and the rule set has no tests/ folder\n");
    rc = EXIT_INPUT;
  }
  return rc;
}

/* Parses every case first: a malformed case file is bad input (exit 2). */
static gr_case *parse_cases(tester *t, char **files, size_t nfiles){
  gr_diags pd;
  gr_case *cases = gr_xcalloc(nfiles + 1, sizeof *cases);
  size_t f;
  gr_diags_init(&pd);
  for(f = 0; f < nfiles; f++){
    gr_error e;
    size_t len;
    char *text = gr_read_file(files[f], &len, &e);
    if( text==NULL ){ gr_diags_add(&pd, GR_SEV_ERROR, files[f], 0, 0, "cannot read: %s", e.msg); continue; }
    gr_case_parse(&cases[f], files[f], text, len, t->update ? GR_CASE_RECORDING : 0, &pd);
    free(text);
  }
  if( gr_diags_errors(&pd) ){
    cli_print_diags(&pd);
    fprintf(stderr, "gerules test: %zu error%s in the case files\n", gr_diags_errors(&pd), gr_diags_errors(&pd)==1 ? "" : "s");
    for(f = 0; f < nfiles; f++) gr_case_free(&cases[f]);
    free(cases);
    cases = NULL;
  }
  gr_diags_free(&pd);
  return cases;
}

/* One case's result in the JSON document: {"file", "title", "passed", "failures": [line...]}. */
static void json_case(gr_jw *jw, const char *file, const char *title, int nfail, const char *fails){
  const char *p = fails, *e;
  gr_jw_obj(jw);
  gr_jw_key(jw, "file"); gr_jw_str(jw, file);
  gr_jw_key(jw, "title"); gr_jw_str(jw, title);
  gr_jw_key(jw, "passed"); gr_jw_bool(jw, nfail==0);
  gr_jw_key(jw, "failures"); gr_jw_arr(jw);
  for(; *p; p = *e ? e + 1 : e){
    char *line;
    e = strchr(p, '\n');
    if( e==NULL ) e = p + strlen(p);
    line = gr_xstrndup(p, (size_t)(e - p));
    gr_jw_str(jw, line);
    free(line);
  }
  gr_jw_end_arr(jw);
  gr_jw_end_obj(jw);
}

/* Runs every case and prints the results and the coverage; the exit status. */
static int run_all(tester *t, gr_ruleset *rs, gr_case *cases, char **files, size_t nfiles, int list){
  gr_coverage cv;
  gr_out jo;
  gr_jw jw;
  size_t f, npass = 0;
  int rc = 0;
  const char *lead = t->tap ? "# " : "";
  gr_coverage_init(&cv, rs);
  if( t->json ){ gr_out_init_fd(&jo, 1); gr_jw_init(&jw, &jo, 2); gr_jw_obj(&jw); gr_jw_schema_version(&jw);
                 gr_jw_key(&jw, "gerules"); gr_jw_str(&jw, PACKAGE_VERSION); gr_jw_key(&jw, "cases"); gr_jw_arr(&jw); }
  if( t->tap ) printf("1..%zu\n", nfiles);
  for(f = 0; f < nfiles; f++){
    gr_buf fails;
    int n;
    gr_buf_init(&fails);
    n = run_case(t, &cases[f], &cv, &fails);
    if( n==0 ) npass++;
    if( t->json ) json_case(&jw, files[f], cases[f].desc[0], n, gr_buf_cstr(&fails));
    else if( !(t->quiet && n==0) ){
      if( t->tap ) printf("%s %zu - %s: %s\n", n ? "not ok" : "ok", f + 1, files[f], cases[f].desc[0]);
      else printf("%s %s: %s\n", n ? "FAIL" : "PASS", files[f], cases[f].desc[0]);
      if( n ){
        const char *p = gr_buf_cstr(&fails), *e;
        while( *p ){
          e = strchr(p, '\n');
          if( e==NULL ) e = p + strlen(p);
          printf("%s%.*s\n", t->tap ? "#   " : "    ", (int)(e - p), p);
          p = *e ? e + 1 : e;
        }
      }
    }
    gr_buf_free(&fails);
  }
  if( t->json ){
    gr_jw_end_arr(&jw);
    gr_jw_key(&jw, "summary"); gr_jw_obj(&jw);
    gr_jw_key(&jw, "cases"); gr_jw_int(&jw, (int64_t)nfiles);
    gr_jw_key(&jw, "passed"); gr_jw_int(&jw, (int64_t)npass);
    gr_jw_key(&jw, "failed"); gr_jw_int(&jw, (int64_t)(nfiles - npass));
    gr_jw_end_obj(&jw);
    json_coverage(t, &jw, &cv);
    gr_jw_end_obj(&jw);
    if( gr_out_close(&jo, NULL)!=0 ) rc = EXIT_INPUT;
    if( npass < nfiles || coverage_gates(t, &cv, lead, 0) ) rc = EXIT_CONFIG;
    gr_coverage_free(&cv);
    return rc;
  }
  printf("%s%zu case%s: %zu passed, %zu failed\n", lead, nfiles, nfiles==1 ? "" : "s", npass, nfiles - npass);
  print_coverage(&cv, lead);
  if( list ) print_uncovered(&cv, lead);
  if( npass < nfiles ) rc = EXIT_CONFIG;
  if( coverage_gates(t, &cv, lead, 1) ) rc = EXIT_CONFIG;
  if( npass < nfiles ) fprintf(stderr, "gerules test: %zu of %zu case%s failed\n", nfiles - npass, nfiles, nfiles==1 ? "" : "s");
  gr_coverage_free(&cv);
  return rc;
}

int cmd_test(cli_ctx *c, int argc, char **argv){
  tester t;
  int list = 0, rc = 0, k;
  char **files = NULL, **paths = NULL;
  size_t nfiles = 0, npaths = 0, f, u, nu;
  gr_case *cases = NULL;
  gr_ruleset *rs;
  const char *const *use;
  char rp[PATH_MAX];
  memset(&t, 0, sizeof t);
  t.c = c;
  if( (k = parse_args(&t, argc, argv, &paths, &npaths, &list))!=0 ){ rc = k > 0 ? 0 : EXIT_INPUT; goto out; }
  if( (rs = cli_load_rules(c))==NULL ){ rc = EXIT_INPUT; goto out; }
  /* the rule set's paths, absolute, for the child processes and the default tests/ */
  nu = cli_rule_paths(c, &use);
  t.rules = gr_xcalloc(nu + 1, sizeof *t.rules);
  for(u = 0; u < nu; u++) t.rules[t.nrules++] = gr_xstrdup(realpath(use[u], rp) ? rp : use[u]);
  for(f = 0; f < t.nmin_layer; f++){
    size_t l;
    for(l = 0; l < rs->nlayers && !(rs->layers[l].name && strcmp(rs->layers[l].name, t.min_layer[f])==0); l++) ;
    if( l==rs->nlayers ){ cli_usage_error("test", "--min-coverage %s: no layer of the stack is named so", t.min_layer[f]); rc = EXIT_INPUT; goto out; }
  }
  if( readlink("/proc/self/exe", t.self, sizeof t.self - 1) <= 0 ){
    fprintf(stderr, "gerules test: error: cannot find this program (/proc/self/exe): %s\n", strerror(errno));
    rc = EXIT_INPUT;
    goto out;
  }
  if( (rc = find_cases(&t, paths, npaths, &files, &nfiles))!=0 ) goto out;
  if( (cases = parse_cases(&t, files, nfiles))==NULL ){ rc = EXIT_INPUT; goto out; }
  rc = t.update ? update_all(&t, cases, files, nfiles) : run_all(&t, rs, cases, files, nfiles, list);
out:
  for(f = 0; f < nfiles; f++){ if( cases ) gr_case_free(&cases[f]); free(files[f]); }
  free(cases);
  free(files);
  free(paths);
  for(f = 0; f < t.nrules; f++) free(t.rules[f]);
  free(t.rules);
  for(f = 0; f < t.nmin_layer; f++) free(t.min_layer[f]);
  free(t.min_layer); free(t.min_layer_v);
  return rc;
}
