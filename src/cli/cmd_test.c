/*
** cmd_test.c: `gerules test`, golden cases for bundle authors. Each case
** file (format: src/bundle/cases.h, doc/vendor-guide.md) runs `gerules eval
** --format json` as a child process of this same binary, with the same rule
** set and trust options, in the case file's directory, twice (the output
** must be byte-identical); the exit status, stderr and the JSON report are
** checked against the case, and the reports feed a coverage summary of the
** rule set's sources, cascade branches and rules. Output is text or TAP.
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
  "usage: gerules test [--format text|tap|json] [-q] [--min-coverage PERCENT] [--coverage] [CASE|DIR...]\n"
  "Runs golden case files (*.case; default: the tests/ folder of the rule set in use) against the\n"
  "rule set: each runs 'gerules eval GRAPH --format json' and compares the exit status, stderr and\n"
  "a subset of the report with what the case expects. Prints a coverage summary of which sources,\n"
  "cascade branches and rules the cases hit (--coverage: list what none hits); --min-coverage\n"
  "fails (exit 1) when the branches and rules hit are below PERCENT of all of them.\n"
  "--format json writes one document (doc/schemas/test.schema.json); -q prints only the failing\n"
  "cases and the summary.\n"
  "\n"
  "case file:\n"
  "  # title (required: the first comment lines describe the case)\n"
  "  graph: PATH | inline      relative to the case file; inline: a '--- graph' block\n"
  "  chip: SOC                 run-mode: inference|training\n"
  "  option: KEY=VALUE         arg: RAW ARGUMENTS       (repeatable, in order)\n"
  "  exit: 0|1|2               stderr: TEXT (stderr must contain it)\n"
  "  --- ini [NAME]            a file NAME.ini (default op_precision.ini); {NAME} (default {ini}) is its path\n"
  "  --- file NAME             any other file; {NAME} is its path; {tmp} is the case's directory\n"
  "  --- graph                 the inline graph (JSON)\n"
  "  --- expect                a JSON subset of the report: nodes (by name or \"type:T\"), options,\n"
  "                            diagnostics, absent, summary, any other top-level key\n";

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
  int tap, json, quiet;
} tester;

/* Runs one parsed case; appends failures to fails; returns their count. */
static int run_case(tester *t, const gr_case *cs, gr_coverage *cv, gr_buf *fails){
  char tmpl[] = "/tmp/gerules-test.XXXXXX", *tmp;
  const char *tdir = getenv("TMPDIR");
  char *base = NULL, *casedir, *slash, *graph, *outp, *errp, *out2p;
  const char **names = gr_xcalloc(cs->nblocks + 1, sizeof *names), **values = gr_xcalloc(cs->nblocks + 1, sizeof *values);
  char **argv = NULL;
  size_t nargv = 0, i, nout, nerr, nout2;
  gr_subst s;
  int rc, rc2, nfail = 0;
  char *out, *err, *out2;
  gr_jv *rep = NULL;
  if( tdir && *tdir ) base = gr_xasprintf("%s/gerules-test.XXXXXX", tdir);
  tmp = mkdtemp(base ? base : tmpl);
  if( tmp==NULL ){
    gr_buf_printf(fails, "cannot make a temporary directory: %s\n", strerror(errno));
    free(base); free(names); free(values);
    return 1;
  }
  casedir = gr_xstrdup(cs->path);
  slash = strrchr(casedir, '/');
  if( slash ) *slash = 0; else { free(casedir); casedir = gr_xstrdup("."); }
  names[0] = "tmp"; values[0] = tmp;
  s.names = names; s.values = values; s.n = 1;
  for(i = 0; i < cs->nblocks; i++){
    char *p = gr_xasprintf("%s/%s", tmp, cs->blocks[i].fname);
    if( write_file(p, cs->blocks[i].body)!=0 ) { gr_buf_printf(fails, "cannot write %s\n", p); nfail++; }
    names[s.n] = cs->blocks[i].name; values[s.n] = p; s.n++;
  }
  if( strcmp(cs->graph, "inline")==0 ){
    graph = gr_xasprintf("%s/graph.json", tmp);
    if( write_file(graph, cs->inline_graph)!=0 ){ gr_buf_printf(fails, "cannot write %s\n", graph); nfail++; }
  }else{
    graph = gr_subst_apply(&s, cs->graph);
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
  if( cs->chip ){ ARG(gr_xstrdup("--chip")); ARG(gr_subst_apply(&s, cs->chip)); }
  if( cs->run_mode ){ ARG(gr_xstrdup("--run-mode")); ARG(gr_subst_apply(&s, cs->run_mode)); }
  for(i = 0; i < cs->nargs; i++) ARG(gr_subst_apply(&s, cs->args[i]));
#undef ARG
  outp = gr_xasprintf("%s/.stdout", tmp);
  errp = gr_xasprintf("%s/.stderr", tmp);
  out2p = gr_xasprintf("%s/.stdout2", tmp);
  rc = run_child(argv, casedir, outp, errp);
  out = slurp(outp, &nout);
  err = slurp(errp, &nerr);
  rc2 = run_child(argv, casedir, out2p, errp);
  out2 = slurp(out2p, &nout2);
  if( rc < 0 || rc > 2 ){ gr_buf_printf(fails, "abnormal exit status %d of %s\n", rc, t->self); nfail++; }
  else if( rc2!=rc ){ gr_buf_printf(fails, "a second run exited %d, the first %d (not deterministic)\n", rc2, rc); nfail++; }
  nfail += gr_case_check(cs, &s, rc, out, nout, err, out2, nout2, &rep, fails);
  if( rep ){ gr_coverage_add(cv, rep); gr_jv_free(rep); }
  free(out); free(err); free(out2);
  free(outp); free(errp); free(out2p);
  for(i = 0; i < nargv; i++) free(argv[i]);
  free(argv);
  for(i = 1; i < s.n; i++) free((char*)values[i]);
  free(names); free(values);
  nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(casedir);
  free(base);
  return nfail;
}

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

int cmd_test(cli_ctx *c, int argc, char **argv){
  tester t;
  const char *min = NULL, *v;
  double minv = 0;
  int i, k, list = 0, rc = 0;
  char **files = NULL, **paths = NULL;
  size_t nfiles = 0, npaths = 0, f, npass = 0;
  gr_case *cases = NULL;
  gr_ruleset *rs;
  gr_coverage cv;
  gr_diags pd;
  gr_out jo;            /* --format json */
  gr_jw jw;
  gr_buf pb;
  gr_buf_init(&pb);
  memset(&t, 0, sizeof t);
  t.c = c;
  for(i = 0; i < argc; i++){
    if( is_help(argv[i]) ){ fputs(test_usage, stdout); return 0; }
    if( (k = cli_arg_value("test", "--format", &i, argc, argv, &v))!=0 ){
      if( k < 0 ) goto usage;
      t.tap = t.json = 0;
      if( strcmp(v, "tap")==0 ) t.tap = 1;
      else if( strcmp(v, "json")==0 ) t.json = 1;
      else if( strcmp(v, "text")==0 ) t.tap = 0;
      else { cli_usage_error("test", "unknown format '%s' (text, tap or json)", v); goto usage; }
      continue;
    }
    if( (k = cli_arg_value("test", "--min-coverage", &i, argc, argv, &v))!=0 ){
      char *e;
      if( k < 0 ) goto usage;
      min = v;
      minv = strtod(v, &e);
      if( *v==0 || *e || !(minv >= 0 && minv <= 100) ){ cli_usage_error("test", "--min-coverage needs a percentage from 0 to 100"); goto usage; }
      continue;
    }
    if( strcmp(argv[i], "--coverage")==0 ){ list = 1; continue; }
    if( strcmp(argv[i], "-q")==0 || strcmp(argv[i], "--quiet")==0 ){ t.quiet = 1; continue; }
    if( argv[i][0]=='-' && argv[i][1] ){ cli_unknown_option("test", test_usage, argv[i]); goto usage; }
    paths = gr_xrealloc(paths, (npaths + 1) * sizeof *paths);
    paths[npaths++] = argv[i];
  }
  if( (rs = cli_load_rules(c))==NULL ){ free(paths); return EXIT_INPUT; }
  {
    /* the rule set's paths, absolute, for the child processes and the default tests/ */
    const char *const *use;
    size_t u, nu = cli_rule_paths(c, &use);
    char rp[PATH_MAX];
    t.rules = gr_xcalloc(nu + 1, sizeof *t.rules);
    for(u = 0; u < nu; u++) t.rules[t.nrules++] = gr_xstrdup(realpath(use[u], rp) ? rp : use[u]);
  }
  if( readlink("/proc/self/exe", t.self, sizeof t.self - 1) <= 0 ){
    fprintf(stderr, "gerules test: error: cannot find this program (/proc/self/exe): %s\n", strerror(errno));
    rc = EXIT_INPUT;
    goto out;
  }
  if( npaths==0 ){
    size_t r;
    for(r = 0; r < t.nrules; r++){
      struct stat st;
      char *d;
      if( stat(t.rules[r], &st)==0 && S_ISDIR(st.st_mode) ) d = gr_xasprintf("%s/tests", t.rules[r]);
      else { char *sl; d = gr_xstrdup(t.rules[r]); sl = strrchr(d, '/'); if( sl ) strcpy(sl, "/tests"); }
      if( stat(d, &st)==0 && S_ISDIR(st.st_mode) ){ if( collect(d, &files, &nfiles)!=0 ) rc = EXIT_INPUT; }
      free(d);
    }
    if( nfiles==0 && rc==0 ){
      fprintf(stderr, "gerules test: error: no case files given, and the rule set has no tests/ folder\n");
      rc = EXIT_INPUT;
    }
  }else{
    for(f = 0; f < npaths; f++) if( collect(paths[f], &files, &nfiles)!=0 ) rc = EXIT_INPUT;
  }
  if( rc ) goto out;
  /* parse every case first: a malformed case file is bad input (exit 2) */
  gr_diags_init(&pd);
  cases = gr_xcalloc(nfiles + 1, sizeof *cases);
  for(f = 0; f < nfiles; f++){
    gr_error e;
    size_t len;
    char *text = gr_read_file(files[f], &len, &e);
    if( text==NULL ){ gr_diags_add(&pd, GR_SEV_ERROR, files[f], 0, 0, "cannot read: %s", e.msg); continue; }
    gr_case_parse(&cases[f], files[f], text, len, &pd);
    free(text);
  }
  if( gr_diags_errors(&pd) ){
    cli_print_diags(&pd);
    fprintf(stderr, "gerules test: %zu error%s in the case files\n", gr_diags_errors(&pd), gr_diags_errors(&pd)==1 ? "" : "s");
    gr_diags_free(&pd);
    rc = EXIT_INPUT;
    goto out;
  }
  gr_diags_free(&pd);
  gr_coverage_init(&cv, rs);
  if( t.json ){ gr_out_init_fd(&jo, 1); gr_jw_init(&jw, &jo, 2); gr_jw_obj(&jw); gr_jw_schema_version(&jw);
                gr_jw_key(&jw, "gerules"); gr_jw_str(&jw, PACKAGE_VERSION); gr_jw_key(&jw, "cases"); gr_jw_arr(&jw); }
  if( t.tap ) printf("1..%zu\n", nfiles);
  for(f = 0; f < nfiles; f++){
    gr_buf fails;
    int n;
    gr_buf_init(&fails);
    n = run_case(&t, &cases[f], &cv, &fails);
    if( t.json ){       /* {"file", "title", "passed", "failures": [line...]} */
      const char *p = gr_buf_cstr(&fails), *e;
      gr_jw_obj(&jw);
      gr_jw_key(&jw, "file"); gr_jw_str(&jw, files[f]);
      gr_jw_key(&jw, "title"); gr_jw_str(&jw, cases[f].desc[0]);
      gr_jw_key(&jw, "passed"); gr_jw_bool(&jw, n==0);
      gr_jw_key(&jw, "failures"); gr_jw_arr(&jw);
      for(; *p; p = *e ? e + 1 : e){
        char *line;
        e = strchr(p, '\n');
        if( e==NULL ) e = p + strlen(p);
        line = gr_xstrndup(p, (size_t)(e - p));
        gr_jw_str(&jw, line);
        free(line);
      }
      gr_jw_end_arr(&jw);
      gr_jw_end_obj(&jw);
      if( n==0 ) npass++;
      gr_buf_free(&fails);
      continue;
    }
    if( t.quiet && n==0 ){ npass++; gr_buf_free(&fails); continue; }
    if( t.tap ) printf("%s %zu - %s: %s\n", n ? "not ok" : "ok", f + 1, files[f], cases[f].desc[0]);
    else printf("%s %s: %s\n", n ? "FAIL" : "PASS", files[f], cases[f].desc[0]);
    if( n ){
      const char *p = gr_buf_cstr(&fails), *e;
      while( *p ){
        e = strchr(p, '\n');
        if( e==NULL ) e = p + strlen(p);
        printf("%s%.*s\n", t.tap ? "#   " : "    ", (int)(e - p), p);
        p = *e ? e + 1 : e;
      }
    }else{
      npass++;
    }
    gr_buf_free(&fails);
  }
  {
    size_t sh, sa, bh, ba, rh, ra;
    const char *lead = t.tap ? "# " : "";
    double total;
    gr_coverage_counts(&cv, &sh, &sa, &bh, &ba, &rh, &ra);
    total = pct(bh + rh, ba + ra);
    if( t.json ){
      gr_jw_end_arr(&jw);
      gr_jw_key(&jw, "summary"); gr_jw_obj(&jw);
      gr_jw_key(&jw, "cases"); gr_jw_int(&jw, (int64_t)nfiles);
      gr_jw_key(&jw, "passed"); gr_jw_int(&jw, (int64_t)npass);
      gr_jw_key(&jw, "failed"); gr_jw_int(&jw, (int64_t)(nfiles - npass));
      gr_jw_end_obj(&jw);
      gr_jw_key(&jw, "coverage"); gr_jw_obj(&jw);
      gr_jw_key(&jw, "sources"); gr_jw_obj(&jw); gr_jw_key(&jw, "hit"); gr_jw_int(&jw, (int64_t)sh); gr_jw_key(&jw, "of"); gr_jw_int(&jw, (int64_t)sa); gr_jw_end_obj(&jw);
      gr_jw_key(&jw, "branches"); gr_jw_obj(&jw); gr_jw_key(&jw, "hit"); gr_jw_int(&jw, (int64_t)bh); gr_jw_key(&jw, "of"); gr_jw_int(&jw, (int64_t)ba); gr_jw_end_obj(&jw);
      gr_jw_key(&jw, "rules"); gr_jw_obj(&jw); gr_jw_key(&jw, "hit"); gr_jw_int(&jw, (int64_t)rh); gr_jw_key(&jw, "of"); gr_jw_int(&jw, (int64_t)ra); gr_jw_end_obj(&jw);
      gr_jw_key(&jw, "percent"); pb.n = 0; gr_buf_printf(&pb, "%.1f", total); gr_jw_raw(&jw, gr_buf_cstr(&pb));
      gr_jw_key(&jw, "min_coverage"); if( min ){ pb.n = 0; gr_buf_printf(&pb, "%g", minv); gr_jw_raw(&jw, gr_buf_cstr(&pb)); } else gr_jw_null(&jw);
      gr_jw_end_obj(&jw);
      gr_jw_end_obj(&jw);
      if( gr_out_close(&jo, NULL)!=0 ) rc = EXIT_INPUT;
      if( npass < nfiles ) rc = EXIT_CONFIG;
      if( min && total < minv ) rc = EXIT_CONFIG;
      gr_buf_free(&pb);
      gr_coverage_free(&cv);
      goto out;
    }
    printf("%s%zu case%s: %zu passed, %zu failed\n", lead, nfiles, nfiles==1 ? "" : "s", npass, nfiles - npass);
    printf("%scoverage: sources %zu/%zu (%.1f%%), cascade branches %zu/%zu (%.1f%%), rules %zu/%zu (%.1f%%); "
           "branches and rules %zu/%zu (%.1f%%)\n", lead, sh, sa, pct(sh, sa), bh, ba, pct(bh, ba), rh, ra, pct(rh, ra),
           bh + rh, ba + ra, total);
    if( list ) print_uncovered(&cv, lead);
    if( npass < nfiles ) rc = EXIT_CONFIG;
    if( min && total < minv ){
      printf("%scoverage %.1f%% is below --min-coverage %s\n", lead, total, min);
      fprintf(stderr, "gerules test: coverage %.1f%% is below --min-coverage %s\n", total, min);
      rc = EXIT_CONFIG;
    }
    if( npass < nfiles ) fprintf(stderr, "gerules test: %zu of %zu case%s failed\n", nfiles - npass, nfiles, nfiles==1 ? "" : "s");
  }
  gr_coverage_free(&cv);
out:
  for(f = 0; f < nfiles; f++){ if( cases ) gr_case_free(&cases[f]); free(files[f]); }
  free(cases);
  free(files);
  free(paths);
  for(f = 0; f < t.nrules; f++) free(t.rules[f]);
  free(t.rules);
  return rc;
usage:
  free(paths);
  return EXIT_INPUT;
}
