/*
** sarif.c: the SARIF 2.1.0 report (OASIS SARIF v2.1.0, the "sarif-2.1.0"
** JSON schema) of one evaluation, for code-scanning services and IDEs.
** Column numbers are counted in bytes like every gerules location, which is
** what "unicodeCodePoints" gives for ASCII input; file names become URIs
** relative to the working directory (uriBaseId SRCROOT) or file:// URIs.
*/
#include "config.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/ci_report.h"
#include "report/gears.h"

/* RFC 3986: keep unreserved characters and '/', percent-encode the rest. */
static void uri_path(gr_buf *b, const char *p){
  static const char hex[] = "0123456789ABCDEF";
  for(; *p; p++){
    unsigned char c = (unsigned char)*p;
    if( (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c=='-' || c=='.' || c=='_' || c=='~' || c=='/' ) gr_buf_addc(b, (char)c);
    else{ gr_buf_addc(b, '%'); gr_buf_addc(b, hex[c >> 4]); gr_buf_addc(b, hex[c & 15]); }
  }
}

/* A diagnostic's file is an artifact when it names a file (not "<command line>"). */
static int is_file(const char *f){ return f && f[0] && f[0]!='<' && strcmp(f, "-"); }

/* Whether a path has a ".." segment (SARIF consumers may resolve it
** differently once symbolic links are involved: such paths are resolved). */
static int has_dotdot(const char *p){
  const char *q;
  for(q = p; (q = strstr(q, "..")) != NULL; q += 2)
    if( (q==p || q[-1]=='/') && (q[2]==0 || q[2]=='/') ) return 1;
  return 0;
}

static void artifact(gr_jw *w, gr_buf *b, const char *file){
  char real[PATH_MAX];
  if( has_dotdot(file) && realpath(file, real) ) file = real;
  gr_jw_key(w, "artifactLocation"); gr_jw_obj(w);
  b->n = 0;
  if( file[0]=='/' ){ gr_buf_adds(b, "file://"); uri_path(b, file); }
  else uri_path(b, file);
  gr_jw_key(w, "uri"); gr_jw_str(w, gr_buf_cstr(b));
  if( file[0]!='/' ){ gr_jw_key(w, "uriBaseId"); gr_jw_str(w, "SRCROOT"); }
  gr_jw_end_obj(w);
}

/* The index of code in codes[0..n), appending it when new. */
static size_t code_index(const char ***codes, size_t *n, const char *code){
  size_t i;
  for(i = 0; i < *n; i++) if( strcmp((*codes)[i], code)==0 ) return i;
  *codes = gr_xrealloc(*codes, (*n + 1) * sizeof **codes);
  (*codes)[*n] = code;
  return (*n)++;
}

/* The rule or relation of the rule set that produces code, for its help. */
static void describe(const gr_ruleset *rs, const char *code, gr_buf *shortd, gr_buf *help){
  size_t i;
  gr_code_text t;
  if( rs && gr_code_text_get(rs, GR_CODES_TABLE, code, &t) ){     /* the code's own text (rules/codes.rules) */
    gr_buf_adds(shortd, t.title);
    gr_buf_printf(help, "%s Fix: %s Run 'gerules explain %s' for an example.", t.fires, t.fix, code);
    return;
  }
  for(i = 0; rs && i < rs->nrules; i++){
    const gr_rule *ru = &rs->rules[i];
    if( ru->code && strcmp(ru->code, code)==0 ){
      gr_buf_printf(shortd, "rule %s (%s)", ru->name, gr_severity_name(ru->sev));
      gr_buf_printf(help, "Reported by the rule '%s' at %s:%u of the rule bundle. "
                    "Run 'gerules explain %s' for what it means and how to fix it.",
                    ru->name, gr_ruleset_short_path(rs, ru->loc.file), ru->loc.line, code);
      return;
    }
  }
  for(i = 0; rs && i < rs->nrelations; i++){
    const gr_relation *rl = &rs->relations[i];
    if( rl->code && strcmp(rl->code, code)==0 ){
      gr_buf_printf(shortd, "option relation (%s)", gr_severity_name(rl->sev));
      gr_buf_printf(help, "Reported by the option relation at %s:%u of the rule bundle: options that "
                    "exclude, require or conflict with each other. Run 'gerules explain %s'.",
                    gr_ruleset_short_path(rs, rl->loc.file), rl->loc.line, code);
      return;
    }
  }
  if( strcmp(code, "gerules")==0 ){
    gr_buf_adds(shortd, "a diagnostic without a code");
    gr_buf_adds(help, "A diagnostic gerules itself or a site hook reported without a code.");
    return;
  }
  gr_buf_printf(shortd, "input diagnostic %s", code);
  gr_buf_printf(help, "Reported while reading an input file (an ini-format option file, an options "
                "file) or by a site hook. Run 'gerules explain %s'.", code);
}

/* A diagnostic's place: the file region and the node and option. */
static void locations(gr_jw *w, gr_buf *b, const gr_diag *d){
  if( !is_file(d->file) && !d->node && !d->option ) return;
  gr_jw_key(w, "locations"); gr_jw_arr(w);
  gr_jw_obj(w);
  if( is_file(d->file) ){
    gr_jw_key(w, "physicalLocation"); gr_jw_obj(w);
    artifact(w, b, d->file);
    if( d->line ){
      gr_jw_key(w, "region"); gr_jw_obj(w);
      gr_jw_key(w, "startLine"); gr_jw_int(w, d->line);
      if( d->col ){ gr_jw_key(w, "startColumn"); gr_jw_int(w, d->col); }
      gr_jw_end_obj(w);
    }
    gr_jw_end_obj(w);
  }
  if( d->node || d->option ){
    gr_jw_key(w, "logicalLocations"); gr_jw_arr(w);
    if( d->node ){
      gr_jw_obj(w);
      gr_jw_key(w, "name"); gr_jw_str(w, d->node);
      gr_jw_key(w, "fullyQualifiedName"); gr_jw_str(w, d->node);
      gr_jw_key(w, "kind"); gr_jw_str(w, "object");
      gr_jw_end_obj(w);
    }
    if( d->option ){
      gr_jw_obj(w);
      gr_jw_key(w, "name"); gr_jw_str(w, d->option);
      gr_jw_key(w, "kind"); gr_jw_str(w, "variable");
      gr_jw_end_obj(w);
    }
    gr_jw_end_arr(w);
  }
  gr_jw_end_obj(w);
  gr_jw_end_arr(w);
}

static const char *level(gr_severity s){
  return s==GR_SEV_ERROR ? "error" : s==GR_SEV_WARNING ? "warning" : "note";
}

/* invocations[0]: whether the run did its job, and when it did not, why, as
** tool execution notifications (the input that could not be read, with its
** location; SARIF 2.1.0 section 3.20.21). */
static void invocation(gr_jw *w, gr_buf *b, const gr_diags *why, int success){
  size_t i;
  gr_jw_key(w, "invocations"); gr_jw_arr(w);
  gr_jw_obj(w);
  gr_jw_key(w, "executionSuccessful"); gr_jw_bool(w, success);
  if( !success ){
    gr_jw_key(w, "exitCode"); gr_jw_int(w, 2);
    gr_jw_key(w, "toolExecutionNotifications"); gr_jw_arr(w);
    for(i = 0; i < why->n; i++){
      const gr_diag *d = &why->v[i];
      gr_jw_obj(w);
      gr_jw_key(w, "level"); gr_jw_str(w, level(d->sev));
      gr_jw_key(w, "message"); gr_jw_obj(w); gr_jw_key(w, "text"); gr_jw_str(w, d->msg); gr_jw_end_obj(w);
      locations(w, b, d);
      if( d->code ){
        gr_jw_key(w, "descriptor"); gr_jw_obj(w); gr_jw_key(w, "id"); gr_jw_str(w, d->code); gr_jw_end_obj(w);
      }
      gr_jw_end_obj(w);
    }
    gr_jw_end_arr(w);
  }
  gr_jw_end_obj(w);
  gr_jw_end_arr(w);
}

static void sarif_run(gr_out *o, const gr_ruleset *rs, const gr_diags *all, const char *chip, const char *graph_path,
                      int success, const gr_gears *gs);

void gr_report_sarif(gr_out *o, const gr_result *r, const gr_report_opts *ro){
  sarif_run(o, r->rs, &r->diags, r->soc_name, ro->graph_path, 1, ro->gears);
}

void gr_report_sarif_diags(gr_out *o, const gr_ruleset *rs, const gr_diags *dl, const char *chip, const char *graph_path){
  sarif_run(o, rs, dl, chip, graph_path, 1, NULL);
}

void gr_report_sarif_run(gr_out *o, const gr_ruleset *rs, const gr_diags *all, const char *chip, const char *graph_path, int success){
  sarif_run(o, rs, all, chip, graph_path, success, NULL);
}

/* A result's properties: its rule, GE's code and, with ATC's gears, the
** gears that give it when not every gear does. */
static void result_properties(gr_jw *w, const gr_diag *d){
  uint32_t k;
  if( !d->rule && !d->ge_code && !d->ngears ) return;
  gr_jw_key(w, "properties"); gr_jw_obj(w);
  if( d->rule ){ gr_jw_key(w, "rule"); gr_jw_str(w, d->rule); }
  if( d->ge_code ){ gr_jw_key(w, "ge_code"); gr_jw_str(w, d->ge_code); }
  if( d->ngears ){
    gr_jw_key(w, "gears"); gr_jw_arr(w);
    for(k = 0; k < d->ngears; k++) gr_jw_int(w, d->gears[k]);
    gr_jw_end_arr(w);
  }
  gr_jw_end_obj(w);
}

/* With gears (success only): every run's result is of one of them. */
static void sarif_run(gr_out *o, const gr_ruleset *rs, const gr_diags *all, const char *chip, const char *graph_path,
                      int success, const gr_gears *gs){
  static const gr_diags none;
  const gr_diags *dl = success ? all : &none;     /* a failed run has notifications, no results */
  const char **codes = NULL;
  size_t ncodes = 0, i, *idx;
  gr_buf b, sd, help;
  gr_jw w;
  char cwd[PATH_MAX];
  gr_buf_init(&b); gr_buf_init(&sd); gr_buf_init(&help);
  idx = gr_xmalloc((dl->n + 1) * sizeof *idx);
  for(i = 0; i < dl->n; i++) idx[i] = code_index(&codes, &ncodes, dl->v[i].code ? dl->v[i].code : "gerules");

  gr_jw_init(&w, o, 6);
  gr_jw_obj(&w);
  gr_jw_key(&w, "$schema"); gr_jw_str(&w, "https://json.schemastore.org/sarif-2.1.0.json");
  gr_jw_key(&w, "version"); gr_jw_str(&w, "2.1.0");
  gr_jw_key(&w, "runs"); gr_jw_arr(&w);
  gr_jw_obj(&w);
  gr_jw_key(&w, "tool"); gr_jw_obj(&w);
  gr_jw_key(&w, "driver"); gr_jw_obj(&w);
  gr_jw_key(&w, "name"); gr_jw_str(&w, "gerules");
  gr_jw_key(&w, "version"); gr_jw_str(&w, PACKAGE_VERSION);
  gr_jw_key(&w, "semanticVersion"); gr_jw_str(&w, PACKAGE_VERSION);
  gr_jw_key(&w, "rules"); gr_jw_arr(&w);
  for(i = 0; i < ncodes; i++){
    sd.n = 0; help.n = 0;
    describe(rs, codes[i], &sd, &help);
    gr_jw_obj(&w);
    gr_jw_key(&w, "id"); gr_jw_str(&w, codes[i]);
    gr_jw_key(&w, "shortDescription"); gr_jw_obj(&w); gr_jw_key(&w, "text"); gr_jw_str(&w, gr_buf_cstr(&sd)); gr_jw_end_obj(&w);
    gr_jw_key(&w, "fullDescription"); gr_jw_obj(&w); gr_jw_key(&w, "text"); gr_jw_str(&w, gr_buf_cstr(&help)); gr_jw_end_obj(&w);
    gr_jw_key(&w, "help"); gr_jw_obj(&w); gr_jw_key(&w, "text"); gr_jw_str(&w, gr_buf_cstr(&help)); gr_jw_end_obj(&w);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);     /* driver */
  /* the rule bundle stack, base first */
  gr_jw_key(&w, "extensions"); gr_jw_arr(&w);
  for(i = 0; rs && i < (rs->nlayers ? rs->nlayers : 1); i++){
    const char *name = rs->nlayers ? rs->layers[i].name : rs->bundle_name;
    const char *version = rs->nlayers ? rs->layers[i].version : rs->bundle_version;
    const char *cann = rs->nlayers ? rs->layers[i].cann : rs->bundle_cann;
    gr_jw_obj(&w);
    gr_jw_key(&w, "name"); gr_jw_str(&w, name ? name : "rules");
    if( version ){ gr_jw_key(&w, "version"); gr_jw_str(&w, version); }
    if( i==0 && rs->bundle_description ){
      gr_jw_key(&w, "shortDescription"); gr_jw_obj(&w); gr_jw_key(&w, "text"); gr_jw_str(&w, rs->bundle_description); gr_jw_end_obj(&w);
    }
    gr_jw_key(&w, "properties"); gr_jw_obj(&w);
    gr_jw_key(&w, "layer"); gr_jw_int(&w, (int64_t)i);
    if( cann ){ gr_jw_key(&w, "cann"); gr_jw_str(&w, cann); }
    if( rs->nlayers && rs->layers[i].root ){ gr_jw_key(&w, "root"); gr_jw_str(&w, rs->layers[i].root); }
    gr_jw_end_obj(&w);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);     /* tool */
  if( getcwd(cwd, sizeof cwd) ){
    gr_jw_key(&w, "originalUriBaseIds"); gr_jw_obj(&w);
    gr_jw_key(&w, "SRCROOT"); gr_jw_obj(&w);
    b.n = 0; gr_buf_adds(&b, "file://"); uri_path(&b, cwd); gr_buf_addc(&b, '/');
    gr_jw_key(&w, "uri"); gr_jw_str(&w, gr_buf_cstr(&b));
    gr_jw_end_obj(&w);
    gr_jw_end_obj(&w);
  }
  invocation(&w, &b, all, success);
  gr_jw_key(&w, "columnKind"); gr_jw_str(&w, "unicodeCodePoints");
  gr_jw_key(&w, "results"); gr_jw_arr(&w);
  for(i = 0; i < dl->n; i++){
    const gr_diag *d = &dl->v[i];
    gr_jw_obj(&w);
    gr_jw_key(&w, "ruleId"); gr_jw_str(&w, codes[idx[i]]);
    gr_jw_key(&w, "ruleIndex"); gr_jw_int(&w, (int64_t)idx[i]);
    gr_jw_key(&w, "level"); gr_jw_str(&w, level(d->sev));
    b.n = 0;
    gr_buf_adds(&b, d->msg);
    if( d->ngears ){ gr_buf_adds(&b, " ["); gr_diag_gears_text(&b, d); gr_buf_adds(&b, "]"); }
    if( d->changed_by ) gr_buf_printf(&b, " [%s by %s]", d->sev < d->orig_sev ? "downgraded" : "raised", d->changed_by);
    gr_jw_key(&w, "message"); gr_jw_obj(&w); gr_jw_key(&w, "text"); gr_jw_str(&w, gr_buf_cstr(&b)); gr_jw_end_obj(&w);
    locations(&w, &b, d);
    result_properties(&w, d);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_arr(&w);
  gr_jw_key(&w, "properties"); gr_jw_obj(&w);
  if( chip ){ gr_jw_key(&w, "chip"); gr_jw_str(&w, chip); }
  if( graph_path ){ gr_jw_key(&w, "graph"); gr_jw_str(&w, graph_path); }
  if( gs && success ){
    gr_jw_key(&w, "gears"); gr_jw_obj(&w);
    gr_jw_key(&w, "flag"); gr_jw_str(&w, gs->flag);
    gr_jw_key(&w, "value"); gr_jw_str(&w, gs->value);
    gr_jw_key(&w, "gears"); gr_report_gears_profiles_json(&w, gs);
    gr_jw_end_obj(&w);
  }
  gr_jw_end_obj(&w);
  gr_jw_end_obj(&w);     /* run */
  gr_jw_end_arr(&w);
  gr_jw_end_obj(&w);
  free(idx);
  free(codes);
  gr_buf_free(&b); gr_buf_free(&sd); gr_buf_free(&help);
}
