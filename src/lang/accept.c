/*
** accept.c: whether an option accepts a value. One judgement serves the
** checker (a literal default must be a value its option can have) and the
** evaluator (a value given on the command line, in an options file or by a
** hook), so the two can never disagree about what is valid.
*/
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lang/ruleset.h"

static int reject(char **problem, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int reject(char **problem, const char *fmt, ...){
  if( problem ){
    gr_buf b;
    va_list ap;
    gr_buf_init(&b);
    va_start(ap, fmt); gr_buf_vprintf(&b, fmt, ap); va_end(ap);
    gr_buf_cstr(&b);
    *problem = gr_buf_detach(&b);
  }
  return 0;
}

static int has_value(const gr_option *o, const char *v, size_t len){
  size_t i;
  for(i = 0; i < o->nvalues; i++) if( strlen(o->values[i])==len && memcmp(o->values[i], v, len)==0 ) return 1;
  return 0;
}

int gr_option_accepts(const gr_ruleset *rs, const gr_option *o, const char *v, unsigned flags, char **problem){
  if( problem ) *problem = NULL;
  if( v[0]==0 ) return 1;                  /* empty = not set, as GE treats it */
  switch( o->type ){
    case GR_OT_ENUM: case GR_OT_BOOL: {
      gr_buf b;
      const char *s;
      size_t i;
      if( o->nvalues==0 || has_value(o, v, strlen(v)) ) return 1;
      if( problem==NULL ) return 0;
      s = gr_option_suggest_value(o, v);
      gr_buf_init(&b);
      gr_buf_adds(&b, "expected one of ");
      for(i = 0; i < o->nvalues; i++) gr_buf_printf(&b, "%s\"%s\"", i ? ", " : "", o->values[i]);
      if( s ) gr_buf_printf(&b, "; did you mean \"%s\"?", s);
      gr_buf_cstr(&b);
      *problem = gr_buf_detach(&b);
      return 0;
    }
    case GR_OT_INT: {
      char *end;
      long long x;
      errno = 0;
      x = strtoll(v, &end, 10);
      if( errno || *end || end==v ) return reject(problem, "expected an integer");
      if( o->has_range && (x < o->lo || x > o->hi) )
        return reject(problem, "expected an integer from %lld to %lld", (long long)o->lo, (long long)o->hi);
      return 1;
    }
    case GR_OT_STRING:
      if( o->has_pattern && !gr_regex_whole(&o->re, v) ) return reject(problem, "expected text matching /%s/", o->pattern);
      return 1;
    case GR_OT_FILE: {
      struct stat st;
      if( !(flags & GR_ACCEPT_FILES) || o->format ) return 1;   /* a file gerules reads: an unreadable one is an input error */
      if( stat(v, &st)!=0 ) return reject(problem, "cannot open '%s': %s", v, strerror(errno));
      if( S_ISDIR(st.st_mode) ) return reject(problem, "'%s' is a directory", v);
      return 1;
    }
    case GR_OT_LIST:
      if( o->nvalues ){
        const char *p = v, *a;
        size_t len;
        while( gr_split_next(&p, o->separator ? o->separator : ",", &a, &len) ){
          if( len && !has_value(o, a, len) ) return reject(problem, "'%.*s' is not an allowed element", (int)(len > 1000 ? 1000 : len), a);
        }
      }
      return 1;
    case GR_OT_SOC:
      if( gr_ruleset_find_soc(rs, v) < 0 ){
        const char *s = gr_ruleset_suggest(rs, GR_NK_SOC, v);
        if( s ) return reject(problem, "'%s' is not a SoC this rule set knows; did you mean '%s'?", v, s);
        return reject(problem, "'%s' is not a SoC this rule set knows", v);
      }
      return 1;
  }
  return 1;
}
