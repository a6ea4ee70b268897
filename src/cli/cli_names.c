/*
** cli_names.c: names the user types on the command line. Flags: a command's
** flags are the ones its usage text lists (each "--word" in it), so "did
** you mean" never offers a flag the command does not document and a new
** flag needs no second list; the global options (main.c) are offered to
** every command. Node names (--explain, tile --node): a graph-qualified
** name (then_g/mm) or a plain one; a plain name two nodes share is an error
** that lists the qualified candidates, the name of an ONNX node GE's parser
** split lists the parts' names, an unknown one gets the closest.
*/
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "base/suggest.h"
#include "model/qualname.h"
#include "model/onnx_parts.h"

static const char global_flags[] = "--rules --color --trust --allow-downgrade --help --version";

/* Offers every "--word" of text to s; names are copied into store (cap
** bytes, NUL-separated) because the suggester borrows them. */
static void offer_flags(gr_suggester *s, const char *text, char *store, size_t cap, size_t *used){
  const char *p = text;
  while( (p = strstr(p, "--"))!=NULL ){
    size_t n = 2;
    if( p > text && (isalnum((unsigned char)p[-1]) || p[-1]=='-') ){ p += 2; continue; }
    while( isalnum((unsigned char)p[n]) || p[n]=='-' || p[n]=='_' ) n++;
    if( n > 2 && *used + n + 1 <= cap ){
      memcpy(store + *used, p, n);
      store[*used + n] = 0;
      gr_suggest_offer(s, store + *used);
      *used += n + 1;
    }
    p += n;
  }
}

int cli_unknown_option(const char *cmd, const char *usage, const char *arg){
  char word[128], store[8192];
  size_t used = 0, n = strcspn(arg, "=");
  gr_suggester s;
  const char *best;
  if( n >= sizeof word ) n = sizeof word - 1;
  memcpy(word, arg, n);
  word[n] = 0;
  gr_suggest_begin(&s, word);
  if( usage ) offer_flags(&s, usage, store, sizeof store, &used);
  offer_flags(&s, global_flags, store, sizeof store, &used);
  best = gr_suggest_best(&s);
  if( best ) return cli_usage_error(cmd, "unknown option '%s'; did you mean '%s'?", arg, best);
  return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int cli_find_node(const char *cmd, const gr_graph *g, const char *name, const char *graph_path, uint32_t *node){
  uint32_t ids[8], near;
  size_t n = gr_graph_resolve_node(g, name, ids, 8), i;
  gr_buf b;
  if( n==1 ){ *node = ids[0]; return 0; }
  gr_buf_init(&b);
  if( n > 1 ){
    fprintf(stderr, "gerules %s: error: '%s' names %zu nodes of %s; give the graph-qualified name of one:", cmd, name, n, graph_path);
    for(i = 0; i < n && i < 8; i++) fprintf(stderr, "%s '%s'", i ? "," : "", gr_node_qname(g, ids[i], &b));
    fprintf(stderr, "%s\n", n > 8 ? ", ..." : "");
  }else if( gr_onnx_split_parts(g, name, &b) > 0 ){
    fprintf(stderr, "gerules %s: error: no node named '%s' in %s: GE's parser split that ONNX node into %.*s; give one of those names\n",
            cmd, name, graph_path, (int)b.n, b.p);
  }else if( (near = gr_graph_suggest_node(g, name))!=GR_NONE ){
    fprintf(stderr, "gerules %s: error: no node named '%s' in %s; did you mean '%s'?\n", cmd, name, graph_path, gr_node_qname(g, near, &b));
  }else{
    fprintf(stderr, "gerules %s: error: no node named '%s' in %s\n", cmd, name, graph_path);
  }
  gr_buf_free(&b);
  return -1;
}
