/*
** github.c: diagnostics as GitHub Actions workflow commands
** (`::error file=F,line=L,col=C,title=CODE::message`), which the runner
** turns into annotations on the files of a pull request. Data is escaped as
** the runner's toolkit does (% CR LF as %25 %0D %0A; in properties also
** ':' and ',' as %3A and %2C), so a message cannot end its own command.
*/
#include "config.h"
#include <string.h>
#include "report/ci_report.h"

static void esc(gr_out *o, const char *s, int prop){
  for(; *s; s++){
    switch( *s ){
      case '%': gr_out_puts(o, "%25"); break;
      case '\r': gr_out_puts(o, "%0D"); break;
      case '\n': gr_out_puts(o, "%0A"); break;
      case ':': if( prop ) gr_out_puts(o, "%3A"); else gr_out_putc(o, ':'); break;
      case ',': if( prop ) gr_out_puts(o, "%2C"); else gr_out_putc(o, ','); break;
      default: gr_out_putc(o, *s);
    }
  }
}

void gr_report_github(gr_out *o, const gr_result *r, const gr_report_opts *ro){
  (void)ro;
  gr_report_github_diags(o, &r->diags);
}

void gr_report_github_diags(gr_out *o, const gr_diags *dl){
  size_t i;
  for(i = 0; i < dl->n; i++){
    const gr_diag *d = &dl->v[i];
    const char *sep = " ";
    gr_out_puts(o, d->sev==GR_SEV_ERROR ? "::error" : d->sev==GR_SEV_WARNING ? "::warning" : "::notice");
    if( d->file && d->file[0] && d->file[0]!='<' ){
      gr_out_puts(o, " file="); esc(o, d->file, 1); sep = ",";
      if( d->line ){ gr_out_printf(o, ",line=%u", d->line); if( d->col ) gr_out_printf(o, ",col=%u", d->col); }
    }
    if( d->code ){ gr_out_puts(o, sep); gr_out_puts(o, "title="); esc(o, d->code, 1); }
    gr_out_puts(o, "::");
    esc(o, d->msg, 0);
    if( d->ngears ){                   /* ATC's gears: not in every gear */
      gr_buf t;
      gr_buf_init(&t);
      gr_diag_gears_text(&t, d);
      gr_out_puts(o, " ["); esc(o, gr_buf_cstr(&t), 0); gr_out_puts(o, "]");
      gr_buf_free(&t);
    }
    if( d->node ){ gr_out_puts(o, " (node "); esc(o, d->node, 0); gr_out_puts(o, ")"); }
    if( d->option ){ gr_out_puts(o, " (option "); esc(o, d->option, 0); gr_out_puts(o, ")"); }
    gr_out_putc(o, '\n');
  }
}
