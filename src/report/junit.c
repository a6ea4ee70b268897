/*
** junit.c: diagnostics as JUnit XML, the test-report format CI servers
** (Jenkins, GitLab, Azure Pipelines) and junitparser read: <testsuites>,
** one <testsuite>, one <testcase> per diagnostic with a <failure> when the
** diagnostic fails the run. There is no formal JUnit schema; the element
** and attribute names are those of the Ant JUnit task's XML report, which
** these consumers follow. Text is escaped for XML 1.0: the five markup
** characters as entities, control bytes XML forbids and bytes that are not
** UTF-8 as U+FFFD, so any input text gives a well-formed document.
*/
#include "config.h"
#include <string.h>
#include "report/ci_report.h"

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s){
  unsigned c = s[0];
  size_t n, i;
  unsigned cp;
  if( c < 0x80 ) return 1;
  if( c >= 0xC2 && c <= 0xDF ){ n = 2; cp = c & 0x1F; }
  else if( c >= 0xE0 && c <= 0xEF ){ n = 3; cp = c & 0x0F; }
  else if( c >= 0xF0 && c <= 0xF4 ){ n = 4; cp = c & 0x07; }
  else return 0;
  for(i = 1; i < n; i++){
    if( (s[i] & 0xC0)!=0x80 ) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if( (n==3 && cp < 0x800) || (n==4 && (cp < 0x10000 || cp > 0x10FFFF)) ) return 0;
  if( cp >= 0xD800 && cp <= 0xDFFF ) return 0;          /* surrogates */
  if( cp==0xFFFE || cp==0xFFFF ) return 0;              /* not XML characters */
  return n;
}

static void xml_text(gr_out *o, const char *s){
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  while( *p ){
    size_t n;
    switch( *p ){
      case '&': gr_out_puts(o, "&amp;"); p++; continue;
      case '<': gr_out_puts(o, "&lt;"); p++; continue;
      case '>': gr_out_puts(o, "&gt;"); p++; continue;
      case '"': gr_out_puts(o, "&quot;"); p++; continue;
      case '\'': gr_out_puts(o, "&apos;"); p++; continue;
      case '\t': gr_out_puts(o, "&#9;"); p++; continue;
      case '\n': gr_out_puts(o, "&#10;"); p++; continue;
      case '\r': gr_out_puts(o, "&#13;"); p++; continue;
      default: break;
    }
    if( *p < 0x20 || (n = utf8_len(p))==0 ){ gr_out_puts(o, "\xEF\xBF\xBD"); p++; continue; }
    gr_out_write(o, p, n);
    p += n;
  }
}

static void attr(gr_out *o, const char *name, const char *v){
  gr_out_printf(o, " %s=\"", name);
  xml_text(o, v);
  gr_out_putc(o, '"');
}

/* The case's name: where the diagnostic is (file:line:col, node, option). */
static void case_name(gr_buf *b, const gr_diag *d){
  b->n = 0;
  if( d->file && d->file[0] ){
    gr_buf_adds(b, d->file);
    if( d->line ) gr_buf_printf(b, ":%u", d->line);
    if( d->line && d->col ) gr_buf_printf(b, ":%u", d->col);
  }
  if( d->node ) gr_buf_printf(b, "%snode %s", b->n ? " " : "", d->node);
  if( d->option ) gr_buf_printf(b, "%soption %s", b->n ? " " : "", d->option);
  if( b->n==0 ) gr_buf_adds(b, d->msg);
}

void gr_report_junit_diags(gr_out *o, const char *suite, const gr_diags *dl, int warnings_fail, int failed){
  size_t i, tests = dl->n ? dl->n : 1, failures = 0, errors = 0;
  gr_buf b, m;
  gr_buf_init(&b); gr_buf_init(&m);
  for(i = 0; i < dl->n; i++){
    const gr_diag *d = &dl->v[i];
    if( failed ){ if( d->sev==GR_SEV_ERROR ) errors++; }
    else if( d->sev==GR_SEV_ERROR || (warnings_fail && d->sev==GR_SEV_WARNING) ) failures++;
  }
  gr_out_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  gr_out_printf(o, "<testsuites name=\"gerules\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", tests, failures, errors);
  gr_out_puts(o, "  <testsuite");
  attr(o, "name", suite);
  gr_out_printf(o, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n", tests, failures, errors);
  if( dl->n==0 ){
    gr_out_puts(o, "    <testcase classname=\"gerules\"");
    attr(o, "name", suite);
    gr_out_puts(o, "/>\n");
  }
  for(i = 0; i < dl->n; i++){
    const gr_diag *d = &dl->v[i];
    const char *code = d->code ? d->code : "gerules";
    int fails = failed ? d->sev==GR_SEV_ERROR : d->sev==GR_SEV_ERROR || (warnings_fail && d->sev==GR_SEV_WARNING);
    case_name(&b, d);
    m.n = 0;
    gr_buf_printf(&m, "%s: %s", gr_severity_name(d->sev), d->msg);
    if( d->ngears ){ gr_buf_adds(&m, " ["); gr_diag_gears_text(&m, d); gr_buf_adds(&m, "]"); }
    if( d->changed_by ) gr_buf_printf(&m, " [%s by %s]", d->sev < d->orig_sev ? "downgraded" : "raised", d->changed_by);
    gr_out_puts(o, "    <testcase");
    attr(o, "classname", code);
    attr(o, "name", gr_buf_cstr(&b));
    if( d->file && d->file[0] && d->file[0]!='<' ){
      attr(o, "file", d->file);
      if( d->line ) gr_out_printf(o, " line=\"%u\"", d->line);
    }
    gr_out_puts(o, ">\n");
    if( fails ){
      gr_out_printf(o, "      <%s", failed ? "error" : "failure");
      attr(o, "type", code);
      attr(o, "message", d->msg);
      gr_out_puts(o, ">");
      xml_text(o, gr_buf_cstr(&m));
      if( d->rule ){ gr_out_puts(o, "&#10;rule: "); xml_text(o, d->rule); }
      gr_out_printf(o, "</%s>\n", failed ? "error" : "failure");
    }else{
      gr_out_puts(o, "      <system-out>");
      xml_text(o, gr_buf_cstr(&m));
      gr_out_puts(o, "</system-out>\n");
    }
    gr_out_puts(o, "    </testcase>\n");
  }
  gr_out_puts(o, "  </testsuite>\n</testsuites>\n");
  gr_buf_free(&b); gr_buf_free(&m);
}

void gr_report_junit(gr_out *o, const gr_result *r, const gr_report_opts *ro){
  gr_buf s;
  gr_buf_init(&s);
  gr_buf_printf(&s, "gerules eval %s", ro->graph_path ? ro->graph_path : "-");
  if( r->soc_name ) gr_buf_printf(&s, " --chip %s", r->soc_name);
  gr_report_junit_diags(o, gr_buf_cstr(&s), &r->diags, ro->warnings_fail, 0);
  gr_buf_free(&s);
}
