/*
** gerules.c: the public C API (gerules.h) over the stages: the rule-set
** loader, the model reader, the options readers, the Lua hooks, the
** evaluator and the reporters. It turns every failure into a located
** diagnostic (as the CLI prints them) instead of printing, and keeps per
** evaluation everything an evaluation needs, so that evaluations sharing a
** rule set share nothing mutable.
*/
#include "config.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "api/gerules.h"
#include "base/diag.h"
#include "base/suggest.h"
#include "base/util.h"
#include "eval/eval.h"
#include "hooks/hooks.h"
#include "lang/ruleset.h"
#include "model/graph.h"
#include "model/model.h"
#include "model/onnx_map.h"
#include "model/onnx_rules.h"
#include "options/optfile.h"
#include "report/out.h"
#include "report/report.h"
#include "report/srclines.h"
#include "report/html.h"
#include "report/dot.h"
#include "report/ci_report.h"
#include "api/load_options.h"
#include "api/gerules_internal.h"

struct gerules_diags {
  const gr_diags *d;            /* the list shown: own, or an evaluation's */
  gr_diags own;
};

struct gerules_rules {
  /* one for the caller's handle, one per live evaluation made from it: the
  ** rule set is freed with the last of them, so gerules_rules_free before
  ** gerules_eval_free is defined (the one field that changes after loading,
  ** atomically, as evaluations may be made from several threads at once) */
  atomic_size_t refs;
  gr_ruleset *rs;
  int borrowed;                 /* rs belongs to the caller (gr_api_rules_adopt) */
  gr_opmap *opmap;              /* the ONNX op mapping of the rules, built once (lookups are reads) */
  char *path;                   /* shown in report headers */
};

/* One option of a request: KEY=VALUE (key/value with their lengths and
** origin) or an options file (file set, key is the path). */
typedef struct req_opt {
  int file;
  char *key, *value; size_t klen, vlen;
  char *origin; unsigned line, col;     /* origin NULL: the command line */
} req_opt;

struct gerules_request {
  char *model;                  /* path, or the display name of buf / fd */
  char *buf; size_t len; int in_mem;
  int fd;                       /* >= 0: read the model from it (set_model_fd) */
  char *chip;
  int format;                   /* GR_FMT_*, GR_FMT_AUTO: detect */
  const char *run_mode;         /* static */
  const char *entry;            /* static: "atc", "ir-build" or "session" */
  GR_VEC(req_opt) opts;
  GR_VEC(char *) hooks;
  gr_hooks_limits lim;
  gerules_log_fn log; void *log_ud;
  gr_api_graph_hook graph_hook; void *graph_hook_ud;   /* gerules_internal.h */
  size_t ngears; gr_api_gear_fn gear_fn; void *gear_ud;   /* gerules_internal.h: ATC's gears */
  int no_hooks;                 /* gerules_internal.h: run no hook, not even the bundle's */
  int no_model;                 /* gerules_internal.h: the options alone, no model */
  int provenance;
  int text_width;            /* text report: columns (0 none known, -1 --wide) */
  char *colour_by;           /* html, dot: the fill slot's name, or NULL */
};

struct gerules_eval {
  const gerules_rules *rules;
  int status;
  gr_optinputs opts;            /* the result borrows the inputs */
  gr_graph *g;
  int graph_borrowed;           /* g is another evaluation's (gr_api_evaluate_on) */
  gr_hooks *hooks;
  gr_result *r;                 /* NULL when status is 2 */
  gerules_diags diags;
  gr_buf log;
  char *graph_name;
  char *chip_asked;             /* the request's chip, for the failure document */
  int provenance;
  int text_width;            /* text report: columns (0 none known, -1 --wide) */
  char *colour_by;           /* html, dot: the fill slot's name, or NULL */
  gr_eval_config cfg;           /* what was evaluated (the text report's "default" run reuses it) */
  GR_VEC(char *) read;          /* the files the request named (model, options files, hooks) */
  gr_arena arena;               /* strings of gerules_eval_decision */
  gr_gears *gears;              /* every gear evaluated (api/gears.c), or NULL */
};

const char *gerules_version(void){ return PACKAGE_VERSION; }
const char *gerules_default_rules(void){ return GR_PKGDATADIR "/rules"; }
void gerules_free(void *p){ free(p); }

/* ------------------------------------------------------------------ diagnostics */

size_t gerules_diags_count(const gerules_diags *d){ return d ? d->d->n : 0; }

size_t gerules_diags_count_severity(const gerules_diags *d, gerules_severity sev){
  if( d==NULL || (int)sev < 0 || (int)sev > 2 ) return 0;
  return d->d->count[sev];
}

int gerules_diags_get(const gerules_diags *d, size_t i, gerules_diag *out){
  const gr_diag *g;
  if( d==NULL || out==NULL || i >= d->d->n ) return -1;
  g = &d->d->v[i];
  out->severity = (gerules_severity)g->sev;
  out->code = g->code;
  out->message = g->msg;
  out->file = g->file;
  out->line = g->line;
  out->column = g->col;
  out->option = g->option;
  out->node = g->node;
  out->rule = g->rule;
  return 0;
}


char *gerules_diag_render(const gerules_diags *d, size_t i, unsigned flags){
  const gr_diag *x;
  gr_srclines *src = NULL;
  const char *snip = NULL;
  size_t snlen = 0;
  gr_buf b;
  if( d==NULL || i >= d->d->n ) return NULL;
  x = &d->d->v[i];
  if( (flags & GERULES_RENDER_SOURCE) && x->snippet==NULL && x->line && x->file ){
    src = gr_srclines_new();
    snip = gr_srclines_get(src, x->file, x->line, &snlen);
  }
  gr_buf_init(&b);
  gr_diag_format_ex(&b, x, snip, snlen, (flags & GERULES_RENDER_COLOR)!=0);
  gr_srclines_free(src);
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

/* Like the command: source lines read from the input files where a record
** has none (one reader for the whole list). */
char *gerules_diags_format(const gerules_diags *d){
  gr_srclines *src = gr_srclines_new();
  gr_buf b;
  size_t i;
  gr_buf_init(&b);
  for(i = 0; d && i < d->d->n; i++){
    const gr_diag *x = &d->d->v[i];
    const char *snip = NULL;
    size_t snlen = 0;
    if( x->snippet==NULL && x->line && x->file ) snip = gr_srclines_get(src, x->file, x->line, &snlen);
    gr_diag_format_ex(&b, x, snip, snlen, 0);
  }
  gr_srclines_free(src);
  gr_buf_cstr(&b);
  return gr_buf_detach(&b);
}

void gerules_diags_free(gerules_diags *d){
  if( d==NULL ) return;
  gr_diags_free(&d->own);
  free(d);
}

static gerules_diags *diags_new(void){
  gerules_diags *d = gr_xcalloc(1, sizeof *d);
  gr_diags_init(&d->own);
  d->d = &d->own;
  return d;
}

/* ------------------------------------------------------------------ rule sets */

gerules_rules *gerules_rules_load(const char *const *paths, size_t npaths, gerules_diags **diags){
  return gerules_rules_load_with(paths, npaths, NULL, diags);
}

gerules_rules *gerules_rules_load_with(const char *const *paths, size_t npaths, const gerules_load_options *o,
                                       gerules_diags **diags){
  const char *def = gerules_default_rules();
  gerules_diags *d = diags_new();
  gerules_rules *rules = NULL;
  gr_ruleset *rs;
  if( paths==NULL || npaths==0 ){ paths = &def; npaths = 1; }
  rs = gr_api_load_guarded(paths, npaths, o, &d->own);    /* verified as the command does (load_options.c) */
  if( rs ){
    gr_opmap *map = gr_onnx_map_from_rules(rs, &d->own);   /* NULL: a bad onnx_shapes entry (an error) */
    if( map ){
      rules = gr_xcalloc(1, sizeof *rules);
      atomic_init(&rules->refs, 1);
      rules->rs = rs;
      rules->opmap = map;
      rules->path = gr_xstrdup(paths[0]);
    }else{
      gr_ruleset_free(rs);
    }
  }
  if( diags ) *diags = d;
  else gerules_diags_free(d);
  return rules;
}

gerules_rules *gr_api_rules_adopt(gr_ruleset *rs, const char *path, gr_diags *d){
  gerules_rules *rules;
  gr_opmap *map = gr_onnx_map_from_rules(rs, d);
  if( map==NULL ) return NULL;
  rules = gr_xcalloc(1, sizeof *rules);
  atomic_init(&rules->refs, 1);
  rules->rs = rs;
  rules->borrowed = 1;
  rules->opmap = map;
  rules->path = gr_xstrdup(path);
  return rules;
}

/* Drops one reference; the last one frees. */
static void rules_release(const gerules_rules *crules){
  gerules_rules *rules = (gerules_rules*)crules;     /* the count is the mutable part */
  if( atomic_fetch_sub_explicit(&rules->refs, 1, memory_order_acq_rel)!=1 ) return;
  gr_opmap_free(rules->opmap);
  if( !rules->borrowed ) gr_ruleset_free(rules->rs);
  free(rules->path);
  free(rules);
}

void gerules_rules_free(gerules_rules *rules){
  if( rules ) rules_release(rules);
}

const char *gerules_rules_name(const gerules_rules *rules){ return rules ? rules->rs->bundle_name : NULL; }
const char *gerules_rules_version(const gerules_rules *rules){ return rules ? rules->rs->bundle_version : NULL; }
size_t gerules_rules_slot_count(const gerules_rules *rules){ return rules ? rules->rs->nslots : 0; }

const char *gerules_rules_slot_name(const gerules_rules *rules, size_t slot){
  return rules && slot < rules->rs->nslots ? rules->rs->slots[slot].name : NULL;
}

long gerules_rules_find_slot(const gerules_rules *rules, const char *name){
  return rules && name ? gr_ruleset_find_slot(rules->rs, name) : -1;
}

const char *gerules_rules_suggest_slot(const gerules_rules *rules, const char *name){
  gr_suggester s;
  size_t i;
  if( rules==NULL || name==NULL ) return NULL;
  gr_suggest_begin(&s, name);
  for(i = 0; i < rules->rs->nslots; i++){
    gr_suggest_offer(&s, rules->rs->slots[i].name);
    gr_suggest_offer(&s, rules->rs->slots[i].column);
  }
  return gr_suggest_best(&s);
}

const char *gerules_suggest(const char *word, const char *const *names, size_t n){
  return word && (names || n==0) ? gr_suggest(word, names, n) : NULL;
}

/* ------------------------------------------------------------------ requests */

gerules_request *gerules_request_new(void){
  gerules_request *q = gr_xcalloc(1, sizeof *q);
  q->run_mode = "inference";
  q->entry = "atc";
  q->fd = -1;
  q->provenance = 1;
  gr_hooks_limits_default(&q->lim);
  return q;
}

void gerules_request_free(gerules_request *q){
  size_t i;
  if( q==NULL ) return;
  free(q->model);
  free(q->buf);
  free(q->chip);
  for(i = 0; i < q->opts.n; i++){ free(q->opts.v[i].key); free(q->opts.v[i].value); free(q->opts.v[i].origin); }
  gr_vec_free(q->opts);
  for(i = 0; i < q->hooks.n; i++) free(q->hooks.v[i]);
  gr_vec_free(q->hooks);
  free(q->colour_by);
  free(q);
}

int gerules_request_set_model(gerules_request *q, const char *path){
  if( q==NULL || path==NULL || !*path ) return -1;
  free(q->model); free(q->buf);
  q->buf = NULL; q->len = 0; q->in_mem = 0; q->fd = -1;
  q->model = gr_xstrdup(path);
  return 0;
}

int gerules_request_set_model_fd(gerules_request *q, int fd, const char *name){
  if( q==NULL || fd < 0 ) return -1;
  free(q->model); free(q->buf);
  q->buf = NULL; q->len = 0; q->in_mem = 0;
  q->fd = fd;
  q->model = gr_xstrdup(name && *name ? name : "<fd>");
  return 0;
}

int gerules_request_set_model_buffer(gerules_request *q, const void *buf, size_t len, const char *name){
  if( q==NULL || (buf==NULL && len) ) return -1;
  free(q->model); free(q->buf);
  q->model = gr_xstrdup(name && *name ? name : "<buffer>");
  q->buf = gr_xmalloc(len + 1);
  if( len ) memcpy(q->buf, buf, len);
  q->buf[len] = 0;
  q->len = len;
  q->in_mem = 1;
  q->fd = -1;
  return 0;
}

int gerules_request_set_model_format(gerules_request *q, const char *format){
  int f;
  if( q==NULL ) return -1;
  if( format==NULL || strcmp(format, "auto")==0 ){ q->format = GR_FMT_AUTO; return 0; }
  if( (f = gr_model_format_by_name(format)) < 0 ) return -1;
  q->format = f;
  return 0;
}

int gerules_request_set_chip(gerules_request *q, const char *chip){
  if( q==NULL ) return -1;
  free(q->chip);
  q->chip = chip ? gr_xstrdup(chip) : NULL;
  return 0;
}

int gerules_request_set_run_mode(gerules_request *q, const char *mode){
  if( q==NULL || mode==NULL ) return -1;
  if( strcmp(mode, "inference")==0 ) q->run_mode = "inference";
  else if( strcmp(mode, "training")==0 ) q->run_mode = "training";
  else return -1;
  return 0;
}

int gerules_request_add_option_at(gerules_request *q, const char *key, size_t klen,
                                  const char *value, size_t vlen,
                                  const char *file, unsigned line, unsigned col){
  req_opt o;
  if( q==NULL || key==NULL || klen==0 || (value==NULL && vlen) ) return -1;
  /* the evaluator's option names and values are C strings: a NUL would make
  ** "ALLOW_HF32\0junk" the option ALLOW_HF32, so it is refused here as the
  ** options files refuse it */
  if( memchr(key, 0, klen) || (vlen && memchr(value, 0, vlen)) ) return -1;
  memset(&o, 0, sizeof o);
  o.key = gr_xstrndup(key, klen);
  o.klen = klen;
  o.value = gr_xstrndup(value ? value : "", vlen);
  o.vlen = vlen;
  o.origin = file ? gr_xstrdup(file) : NULL;
  o.line = line;
  o.col = col;
  gr_vec_push(q->opts, o);
  return 0;
}

int gerules_request_set_option(gerules_request *q, const char *key, const char *value){
  if( key==NULL || value==NULL ) return -1;
  return gerules_request_add_option_at(q, key, strlen(key), value, strlen(value), NULL, 0, 0);
}

int gerules_request_add_options_file(gerules_request *q, const char *path){
  req_opt o;
  if( q==NULL || path==NULL || !*path ) return -1;
  memset(&o, 0, sizeof o);
  o.file = 1;
  o.key = gr_xstrdup(path);
  gr_vec_push(q->opts, o);
  return 0;
}

int gerules_request_set_entry(gerules_request *q, const char *entry){
  static const char *const known[] = { "atc", "ir-build", "session" };
  size_t i;
  if( q==NULL || entry==NULL ) return -1;
  for(i = 0; i < sizeof known / sizeof *known; i++){
    if( strcmp(entry, known[i])==0 && gr_entry_point_valid(entry) ){ q->entry = known[i]; return 0; }
  }
  return -1;
}

int gerules_request_set_hook_limits(gerules_request *q, size_t memory, unsigned long long instructions, double timeout){
  gr_hooks_limits def;
  if( q==NULL || !(timeout >= 0) || timeout > 86400 ) return -1;
  gr_hooks_limits_default(&def);
  q->lim.memory = memory ? memory : def.memory;
  q->lim.instructions = instructions ? (uint64_t)instructions : def.instructions;
  q->lim.timeout = timeout > 0 ? timeout : def.timeout;
  return 0;
}

void gr_api_request_set_graph_hook(gerules_request *q, gr_api_graph_hook fn, void *ud){
  q->graph_hook = fn;
  q->graph_hook_ud = ud;
}

void gr_api_request_set_gears(gerules_request *q, size_t n, gr_api_gear_fn fn, void *ud){
  q->ngears = n;
  q->gear_fn = fn;
  q->gear_ud = ud;
}

void gr_api_request_set_no_hooks(gerules_request *q){ q->no_hooks = 1; }
void gr_api_request_set_no_model(gerules_request *q){ q->no_model = 1; }

int gerules_request_set_log(gerules_request *q, gerules_log_fn fn, void *ud){
  if( q==NULL ) return -1;
  q->log = fn;
  q->log_ud = ud;
  return 0;
}

int gerules_request_add_hook(gerules_request *q, const char *path){
  char *p;
  if( q==NULL || path==NULL || !*path ) return -1;
  p = gr_xstrdup(path);
  gr_vec_push(q->hooks, p);
  return 0;
}

int gerules_request_set_provenance(gerules_request *q, int on){
  if( q==NULL ) return -1;
  q->provenance = on!=0;
  return 0;
}

int gerules_request_set_text_width(gerules_request *q, int columns){
  if( q==NULL || columns < -1 ) return -1;
  q->text_width = columns;
  return 0;
}

int gerules_request_set_colour_by(gerules_request *q, const char *slot){
  if( q==NULL ) return -1;
  free(q->colour_by);
  q->colour_by = slot ? gr_xstrdup(slot) : NULL;
  return 0;
}

/* ------------------------------------------------------------------ evaluations */

/* An input error as the CLI shows it: "file:line:col: error: msg". */
static void input_error(gerules_eval *ev, const char *file, const gr_error *e){
  gr_diags_add(&ev->diags.own, GR_SEV_ERROR, file, e->line, e->col, "%s", e->msg);
  ev->status = 2;
}

static void hook_log(void *ud, const char *line){
  gr_buf *b = ud;
  gr_buf_adds(b, line);
  gr_buf_addc(b, '\n');
  gr_buf_cstr(b);               /* kept NUL-terminated for gerules_eval_log */
}

static int load_hooks(gerules_eval *ev, const gerules_request *q){
  const gr_ruleset *rs = ev->rules->rs;
  gr_error err;
  size_t i;
  if( q->no_hooks || (rs->nhook_files==0 && q->hooks.n==0) ) return 0;
  ev->hooks = gr_hooks_new(rs, &q->lim);
  if( q->log ) gr_hooks_set_log(ev->hooks, q->log, q->log_ud);
  else gr_hooks_set_log(ev->hooks, hook_log, &ev->log);
  for(i = 0; i < rs->nhook_files + q->hooks.n; i++){
    const char *path = i < rs->nhook_files ? rs->hook_files[i] : q->hooks.v[i - rs->nhook_files];
    memset(&err, 0, sizeof err);
    /* a verified hook runs from the bytes the trust guard verified */
    if( (i < rs->nhook_files && rs->hook_texts ? gr_hooks_load_buffer(ev->hooks, path, rs->hook_texts[i], rs->hook_lens[i], &err)
                                                : gr_hooks_load_file(ev->hooks, path, &err))!=0 ){
      err.col = 0;              /* hooks know lines only */
      input_error(ev, path, &err);
      return -1;
    }
  }
  return 0;
}

static void note_read(gerules_eval *ev, const char *path){
  char *p = gr_xstrdup(path);
  gr_vec_push(ev->read, p);
}

/* The chip the evaluation is for, as gr_eval finds it: the request's, else
** the value given last to the first option of type soc that has one (atc's
** --soc_version, -o soc_version=...); NULL when none. */
static const char *eval_chip(const gr_ruleset *rs, const gerules_request *q, const gr_optinputs *opts){
  size_t i, k;
  if( q->chip ) return q->chip;
  for(k = 0; k < rs->noptions; k++){
    const char *v = NULL;
    if( rs->options[k].type!=GR_OT_SOC ) continue;
    for(i = 0; i < opts->n; i++){
      const gr_option *o = gr_ruleset_option_by_spelling(rs, opts->v[i].key);
      if( o && (size_t)o->index==k ) v = opts->v[i].value;
    }
    if( v && v[0] ) return v;
  }
  return NULL;
}

/* The one orchestrator: options, the model (read, or model_of's), the
** command's change to it, the hooks, then the evaluator. */
static gerules_eval *evaluate(const gerules_rules *rules, const gerules_request *q, const gerules_eval *model_of){
  gerules_eval *ev;
  gr_eval_config cfg;
  gr_error err;
  size_t i;
  if( rules==NULL || q==NULL ) return NULL;
  ev = gr_xcalloc(1, sizeof *ev);
  atomic_fetch_add_explicit(&((gerules_rules*)rules)->refs, 1, memory_order_relaxed);
  ev->rules = rules;                  /* a reference: released by gerules_eval_free */
  ev->provenance = q->provenance;
  ev->text_width = q->text_width;
  ev->colour_by = q->colour_by ? gr_xstrdup(q->colour_by) : NULL;
  ev->chip_asked = q->chip ? gr_xstrdup(q->chip) : NULL;
  gr_diags_init(&ev->diags.own);
  ev->diags.d = &ev->diags.own;
  gr_optinputs_init(&ev->opts);
  gr_buf_init(&ev->log);
  gr_arena_init(&ev->arena);

  for(i = 0; i < q->opts.n; i++){
    const req_opt *o = &q->opts.v[i];
    if( !o->file ){
      /* the evaluation outlives the request: its copy of the origin */
      const char *origin = o->origin ? gr_arena_strndup(&ev->opts.arena, o->origin, strlen(o->origin)) : "<command line>";
      gr_optinputs_add(&ev->opts, o->key, o->klen, o->value, o->vlen, origin, o->line, o->col);
      if( o->origin && o->line ) note_read(ev, o->origin);     /* a file the caller read */
      continue;
    }
    note_read(ev, o->key);
    memset(&err, 0, sizeof err);
    if( gr_optfile_read(&ev->opts, o->key, &err)!=0 ){ input_error(ev, o->key, &err); return ev; }
  }
  if( q->no_model ){
    for(i = 0; i < q->hooks.n; i++) note_read(ev, q->hooks.v[i]);
    goto hooks;
  }
  if( q->model==NULL ){
    gr_diags_add(&ev->diags.own, GR_SEV_ERROR, NULL, 0, 0, "no model given");
    ev->status = 2;
    return ev;
  }
  ev->graph_name = gr_xstrdup(q->model);
  if( !q->in_mem ) note_read(ev, q->model);
  for(i = 0; i < q->hooks.n; i++) note_read(ev, q->hooks.v[i]);
  memset(&err, 0, sizeof err);
  if( model_of ){                     /* the same model, read once */
    ev->g = model_of->g;
    ev->graph_borrowed = 1;
  }else{
    gr_model_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.format = q->format;
    mo.opmap = rules->opmap;
    {                                 /* the chip's caps: a mapping row may test them (chip has CAP) */
      const char *chip = eval_chip(rules->rs, q, &ev->opts);
      int soc = chip ? gr_ruleset_find_soc(rules->rs, chip) : -1;
      if( soc >= 0 ) mo.chip_caps = rules->rs->socs[soc].caps;
    }
    ev->g = q->in_mem ? gr_model_load_mem(q->buf, q->len, &mo, &err)
          : q->fd >= 0 ? gr_model_load_fd(q->fd, &mo, &err)
          : gr_model_load_file(q->model, &mo, &err);
  }
  if( ev->g==NULL ){ input_error(ev, q->model, &err); return ev; }
  if( q->graph_hook && !model_of && q->graph_hook(q->graph_hook_ud, ev->g, rules->rs, &ev->diags.own)!=0 ){ ev->status = 2; return ev; }
hooks:
  if( load_hooks(ev, q)!=0 ) return ev;

  memset(&cfg, 0, sizeof cfg);
  cfg.chip = q->chip;
  cfg.run_mode = q->run_mode;
  cfg.entry_point = q->entry;
  cfg.inputs = ev->opts.v;
  cfg.ninputs = ev->opts.n;
  cfg.graph = ev->g;
  cfg.graph_file = ev->graph_name;
  cfg.keep_candidates = q->provenance;
  cfg.hooks = ev->hooks ? gr_hooks_vtable(ev->hooks) : NULL;
  ev->cfg = cfg;
  ev->r = gr_eval(rules->rs, &cfg);
  if( ev->r->fatal ){                 /* no or unknown chip, an unreadable input, a failing hook */
    gr_diags_free(&ev->diags.own);    /* empty so far: take the result's list over */
    ev->diags.own = ev->r->diags;
    gr_diags_init(&ev->r->diags);
    gr_result_free(ev->r);
    ev->r = NULL;
    ev->status = 2;
    return ev;
  }
  ev->diags.d = &ev->r->diags;
  ev->status = ev->r->diags.count[GR_SEV_ERROR] ? 1 : 0;
  /* with gears, r is gear 0's graph; the others are evaluated alike */
  if( q->ngears > 1 && q->gear_fn && !model_of ){
    ev->gears = gr_api_gears_run(rules->rs, &cfg, ev->r, ev->g, q->ngears, q->gear_fn, q->gear_ud);
    ev->status = ev->r->diags.count[GR_SEV_ERROR] ? 1 : 0;     /* another gear's errors count too */
  }
  return ev;
}

gerules_eval *gerules_evaluate(const gerules_rules *rules, const gerules_request *q){
  return evaluate(rules, q, NULL);
}

gerules_eval *gr_api_evaluate_on(const gerules_rules *rules, const gerules_request *q, const gerules_eval *model_of){
  if( model_of==NULL || model_of->g==NULL ) return NULL;
  return evaluate(rules, q, model_of);
}

void gerules_eval_free(gerules_eval *ev){
  if( ev==NULL ) return;
  gr_gears_free(ev->gears);
  free(ev->gears);
  gr_result_free(ev->r);
  gr_hooks_free(ev->hooks);
  if( !ev->graph_borrowed ) gr_graph_free(ev->g);
  gr_optinputs_free(&ev->opts);
  gr_diags_free(&ev->diags.own);
  free(ev->chip_asked);
  free(ev->colour_by);
  gr_buf_free(&ev->log);
  gr_arena_free(&ev->arena);
  for(size_t i = 0; i < ev->read.n; i++) free(ev->read.v[i]);
  gr_vec_free(ev->read);
  free(ev->graph_name);
  rules_release(ev->rules);
  free(ev);
}

const gr_graph *gr_api_eval_graph(const gerules_eval *ev){ return ev && ev->r ? ev->g : NULL; }
gr_result *gr_api_eval_result(gerules_eval *ev){ return ev ? ev->r : NULL; }
gr_hooks *gr_api_eval_hooks(gerules_eval *ev){ return ev && ev->r ? ev->hooks : NULL; }

int gerules_eval_status(const gerules_eval *ev){ return ev ? ev->status : 2; }
const gerules_diags *gerules_eval_diags(const gerules_eval *ev){ return ev ? &ev->diags : NULL; }
gr_diags *gr_api_eval_diags_mut(gerules_eval *ev){ return ev && ev->r ? &ev->r->diags : NULL; }
const char *gerules_eval_chip(const gerules_eval *ev){ return ev && ev->r ? ev->r->soc_name : NULL; }
const char *gerules_eval_log(const gerules_eval *ev){ return ev && ev->log.n ? ev->log.p : ""; }

size_t gerules_eval_node_count(const gerules_eval *ev){
  return ev && ev->r && ev->g ? gr_graph_nnodes(ev->g) : 0;
}

const char *gerules_eval_node_name(const gerules_eval *ev, size_t node){
  if( node >= gerules_eval_node_count(ev) ) return NULL;
  return gr_graph_str(ev->g, gr_graph_nodes(ev->g)[node].name);
}

const char *gerules_eval_node_type(const gerules_eval *ev, size_t node){
  if( node >= gerules_eval_node_count(ev) ) return NULL;
  return gr_graph_type_name(ev->g, gr_graph_nodes(ev->g)[node].type);
}

int gerules_eval_find_node(const gerules_eval *ev, const char *name, size_t *node){
  uint32_t n;
  if( ev==NULL || ev->r==NULL || name==NULL || !gr_graph_find_node(ev->g, name, &n) ) return -1;
  if( node ) *node = n;
  return 0;
}

const char *gerules_eval_suggest_node(const gerules_eval *ev, const char *name){
  gr_suggester s;
  size_t i, n = gerules_eval_node_count(ev);
  if( name==NULL || n==0 ) return NULL;
  gr_suggest_begin(&s, name);
  for(i = 0; i < n; i++) gr_suggest_offer(&s, gerules_eval_node_name(ev, i));
  return gr_suggest_best(&s);
}

static const char *keep(gerules_eval *ev, const gr_buf *b){
  return b->n ? gr_arena_strndup(&ev->arena, b->p, b->n) : NULL;
}

int gerules_eval_decision(gerules_eval *ev, size_t node, size_t slot, gerules_decision *out){
  const gr_ruleset *rs;
  const gr_decision *d;
  const gr_origin *input = NULL;
  gr_buf reason, tmp;
  if( out==NULL || node >= gerules_eval_node_count(ev) || slot >= ev->rules->rs->nslots ) return -1;
  rs = ev->rules->rs;
  d = gr_dec(ev->r, node, slot);
  memset(out, 0, sizeof *out);
  out->slot = rs->slots[slot].name;
  out->value = d->value;
  gr_buf_init(&reason);
  gr_buf_init(&tmp);
  out->effect = gr_decision_effect(ev->r, (uint32_t)node, slot, &tmp);
  out->no_effect_reason = out->effect ? NULL : keep(ev, &tmp);
  tmp.n = 0;
  if( d->source==GR_SOURCE_HOOK ){
    const gr_override *ov = gr_result_find_override(ev->r, (uint32_t)node, (int)slot);
    out->source = "hook";
    if( ov ){
      if( ov->where.line ) gr_buf_printf(&tmp, "%s:%u", ov->where.file, ov->where.line);
      else gr_buf_adds(&tmp, ov->where.file ? ov->where.file : "");
      out->rule = keep(ev, &tmp);
      out->reason = ov->reason;
    }
  }else if( d->source >= 0 ){
    const gr_source *src = &rs->sources[d->source];
    out->source = src->name;
    if( d->branch < src->nbranches ){
      const gr_loc *loc = &src->branches[d->branch].loc;
      gr_buf_printf(&tmp, "%s:%u", gr_ruleset_short_path(rs, loc->file), loc->line);
      out->rule = keep(ev, &tmp);
    }
    gr_decision_detail(ev->r, (uint32_t)node, d->source, d->branch, &reason, &input);
    out->reason = keep(ev, &reason);
    if( input ){
      tmp.n = 0;
      if( input->line ) gr_buf_printf(&tmp, "%s:%u", input->file, input->line);
      else gr_buf_adds(&tmp, input->file);
      out->input = keep(ev, &tmp);
    }
  }
  gr_buf_free(&reason);
  gr_buf_free(&tmp);
  return 0;
}

static void report_opts(const gerules_eval *ev, unsigned flags, gr_report_opts *ro){
  memset(ro, 0, sizeof *ro);
  ro->provenance = !ev->provenance ? 0 : (flags & GERULES_REPORT_PROVENANCE_TABLE) ? GR_PROV_TABLE : GR_PROV_INLINE;
  ro->width = ev->text_width;
  ro->colour_by = ev->colour_by;
  ro->rules_path = ev->rules->path;
  ro->graph_path = ev->graph_name;
  ro->all_nodes = (flags & GERULES_REPORT_ALL_NODES)!=0;
  ro->quiet = (flags & GERULES_REPORT_QUIET)!=0;
  ro->color = (flags & GERULES_REPORT_COLOR)!=0;
  ro->warnings_fail = (flags & GERULES_REPORT_WARNINGS_FAIL)!=0;
  ro->gears = ev->gears;
}

/* The report formats by name; node >= 0 asks for one node's chain. */
enum { RF_TEXT, RF_JSON, RF_SARIF, RF_GITHUB, RF_HTML, RF_DOT, RF_JUNIT };
static const char *const report_names[] = { "text", "json", "sarif", "github", "html", "dot", "junit" };
/* A failed evaluation (status 2) has the CI formats' failure document
** (report/failure.c) and no other report. */
static int report_format(const gerules_eval *ev, const char *format, long node){
  int f;
  if( ev==NULL || format==NULL ) return -1;
  for(f = 0; f < (int)(sizeof report_names / sizeof *report_names); f++) if( strcmp(format, report_names[f])==0 ) break;
  if( f==(int)(sizeof report_names / sizeof *report_names) ) return -1;
  if( ev->r && ev->g==NULL ) return -1;          /* an evaluation of the options alone */
  if( ev->r==NULL ) return node==-1 && (f==RF_JSON || f==RF_SARIF || f==RF_GITHUB || f==RF_JUNIT) ? f : -1;
  if( node >= 0 && ((size_t)node >= gr_graph_nnodes(ev->g) || (f!=RF_TEXT && f!=RF_JSON)) ) return -1;
  if( node < -1 ) return -1;
  return f;
}

/* Writes report f into o (the one place every output path goes through). */
static void write_report(gerules_eval *ev, int f, unsigned flags, long node, gr_out *o){
  gr_report_opts ro;
  if( ev->r==NULL ){
    gr_report_failure(o, report_names[f], ev->rules->rs, ev->diags.d, ev->chip_asked, ev->graph_name);
    return;
  }
  report_opts(ev, flags, &ro);
  if( node >= 0 ){
    gr_report_explain(o, ev->r, (uint32_t)node, f==RF_JSON, &ro);
    return;
  }
  switch( f ){
  case RF_JSON:   gr_report_json(o, ev->r, &ro); break;
  case RF_SARIF:  gr_report_sarif(o, ev->r, &ro); break;
  case RF_GITHUB: gr_report_github(o, ev->r, &ro); break;
  case RF_HTML:   gr_report_html(o, ev->r, &ro); break;
  case RF_DOT:    gr_report_dot(o, ev->r, &ro); break;
  case RF_JUNIT:  gr_report_junit(o, ev->r, &ro); break;
  default: {
    /* "default" means the same chip, run mode and entry point without
    ** options or hooks; a quiet or every-node listing does not need it */
    gr_result *base = NULL;
    if( !ro.all_nodes && !ro.quiet ){
      gr_eval_config bc = ev->cfg;
      bc.inputs = NULL; bc.ninputs = 0; bc.keep_candidates = 0; bc.hooks = NULL;
      bc.chip = ev->r->soc_name;
      base = gr_eval(ev->rules->rs, &bc);
      if( base->fatal ){ gr_result_free(base); base = NULL; }
    }
    ro.src = gr_srclines_new();         /* source lines under the diagnostics */
    gr_report_text(o, ev->r, base, &ro);
    gr_srclines_free(ro.src);
    gr_result_free(base);
  } }
}

static char *finish(gr_out *o, gr_buf *b, size_t *len){
  gr_out_finish_buf(o);
  if( len ) *len = b->n;
  return gr_buf_detach(b);
}

char *gerules_eval_report(gerules_eval *ev, const char *format, size_t *len){
  gr_out o;
  gr_buf b;
  int f = report_format(ev, format, -1);
  if( f < 0 || f==RF_SARIF || f==RF_GITHUB || f==RF_JUNIT || ev->r==NULL ) return NULL;    /* v1 formats only */
  gr_buf_init(&b);
  gr_out_init_buf(&o, &b);
  write_report(ev, f, 0, -1, &o);
  return finish(&o, &b, len);
}

char *gerules_eval_explain(gerules_eval *ev, size_t node, int json, size_t *len){
  gr_out o;
  gr_buf b;
  if( node >= gerules_eval_node_count(ev) ) return NULL;
  gr_buf_init(&b);
  gr_out_init_buf(&o, &b);
  write_report(ev, json ? RF_JSON : RF_TEXT, 0, (long)node, &o);
  return finish(&o, &b, len);
}

static int write_failed(gerules_diags **diags, const char *file, const char *fmt, const char *arg){
  if( diags ){
    *diags = diags_new();
    gr_diags_add(&(*diags)->own, GR_SEV_ERROR, file, 0, 0, fmt, arg);
  }
  return -1;
}

int gerules_eval_write(gerules_eval *ev, const char *format, unsigned flags, long node,
                       int fd, gerules_diags **diags){
  gr_out o;
  gr_error err;
  int f = report_format(ev, format, node);
  if( diags ) *diags = NULL;
  if( f < 0 ) return write_failed(diags, NULL, "no such report: '%s' (or no such node, or a failed evaluation)", format ? format : "");
  if( fd < 0 ) return write_failed(diags, NULL, "%s", "no file descriptor to write to");
  gr_out_init_fd(&o, fd);
  write_report(ev, f, flags, node, &o);
  memset(&err, 0, sizeof err);
  if( gr_out_close(&o, &err)!=0 ) return write_failed(diags, NULL, "%s", err.msg);
  return 0;
}

int gr_api_eval_open_output(const gerules_eval *ev, const char *path, gr_out *o, gr_error *err){
  const gr_ruleset *rs = ev->rules->rs;
  const char **v;
  size_t n = 0, i;
  int rc;
  /* every file this evaluation read: the request's, the rule files, the
  ** bundle's hooks and the files given as option values (an op_precision ini) */
  v = gr_xmalloc((ev->read.n + rs->nfiles + rs->nhook_files + rs->noptions + 1) * sizeof *v);
  for(i = 0; i < ev->read.n; i++) v[n++] = ev->read.v[i];
  for(i = 0; i < rs->nfiles; i++) v[n++] = rs->files[i];
  for(i = 0; i < rs->nhook_files; i++) v[n++] = rs->hook_files[i];
  for(i = 0; ev->r && i < rs->noptions; i++) if( ev->r->opts[i].ini ) v[n++] = ev->r->opts[i].value;
  rc = gr_out_check_inputs(path, v, n, err);
  free(v);
  if( rc==0 ) rc = gr_out_open_file(o, path, err);
  return rc;
}

int gerules_eval_write_file(gerules_eval *ev, const char *format, unsigned flags, long node,
                            const char *path, gerules_diags **diags){
  gr_error err;
  gr_out o;
  int f = report_format(ev, format, node);
  if( diags ) *diags = NULL;
  if( f < 0 ) return write_failed(diags, NULL, "no such report: '%s' (or no such node, or a failed evaluation)", format ? format : "");
  if( path==NULL || !*path ) return write_failed(diags, NULL, "%s", "no output file given");
  memset(&err, 0, sizeof err);
  if( gr_api_eval_open_output(ev, path, &o, &err)!=0 ) return write_failed(diags, NULL, "%s", err.msg);
  write_report(ev, f, flags, node, &o);
  if( gr_out_close(&o, &err)!=0 ) return write_failed(diags, NULL, "%s", err.msg);
  return 0;
}
