/*
** cli.h: what the gerules command's source files share: the parsed global
** options, rule-set loading, diagnostic printing and the subcommand entry
** points. Only the CLI prints and exits; the library never does.
**
** Ownership: cli_ctx owns the rule set it loads (freed by cli_ctx_free) and
** the diagnostics gathered while loading.
*/
#ifndef GR_CLI_H
#define GR_CLI_H

#include <stdio.h>
#include "lang/ruleset.h"
#include "base/diag.h"
#include "eval/eval.h"
#include "model/graph.h"
#include "model/model.h"
#include "model/onnx_rules.h"
#include "hooks/hooks.h"
#include "options/optfile.h"
#include "bundle/bundle.h"
#include "bundle/guard.h"
#include "api/gerules.h"

#define EXIT_CONFIG 1      /* the configuration has errors */
#define EXIT_INPUT 2       /* usage error, unreadable or malformed input */

typedef struct cli_ctx {
  const char *rules_path;       /* the first --rules, or NULL for the default */
  const char **rules_paths; size_t nrules_paths;   /* every --rules, in order (main's storage) */
  char **use_paths; size_t nuse_paths;             /* resolved (cli_rule_paths), owned */
  gr_ruleset *rs;
  gr_diags diags;
  /* bundle verification (cli_rules.c) */
  const char **trust_paths; size_t ntrust_paths;   /* --trust (main's storage; strings in argv) */
  int allow_downgrade;          /* --allow-downgrade */
  int trust_ready, trust_failed, trusting, refused;
  int no_record;                /* bundle verify: do not update the anti-rollback state */
  gr_guard guard;               /* the trust policy and the bundles it verified (src/bundle/guard.h) */
  /* choosing among installed releases of a bundle (cli_rules.c) */
  const char *cann;             /* --cann, or NULL */
  const char *graph_hint;       /* the graph of this run, whose atc_version says the release when --cann is absent */
  char *graph_cann; const char *graph_cann_key; int graph_cann_done;   /* read from graph_hint */
  int choice_deferred;          /* choose silently: the graph is not known yet (gerules atc) */
  int choice_made;              /* a release was chosen among several, or by --cann */
  int rules_from_config;        /* rules_paths are the project config's (cli_config.c) */
} cli_ctx;

/* Loads the rule set (--rules, $GERULES_RULES, the installed set, or the
** source tree's rules/ for an uninstalled build). Prints the errors and
** returns NULL on failure. */
gr_ruleset *cli_load_rules(cli_ctx *c);
/* cli_rules.c: loads rule files and directories, verifying each bundle first
** when a trust store is configured (the one place every command loads rules). */
gr_ruleset *cli_load_paths(cli_ctx *c, const char *const *paths, size_t n);
/* Forgets the loaded rule set and the paths resolved for it, so that the
** next cli_load_rules chooses again (gerules atc, once it knows the model). */
void cli_forget_rules(cli_ctx *c);
int  cli_trust_setup(cli_ctx *c);          /* -1: the trust store has errors (printed) */
const char *cli_installed_trust(void);
void cli_trust_free(cli_ctx *c);
const char *cli_default_rules(void);
/* cmd_explain.c: `gerules explain CODE` (cmd_explain hands it every name
** shaped like a diagnostic code), and where gerules' own code texts are:
** $GERULES_CODES, else gerules-codes.rules in the installed pkgdatadir. */
int  cli_explain_code(cli_ctx *c, const gr_ruleset *rs, const char *code, int json);
const char *cli_own_codes_path(void);

/* The stack of rule-set paths in use, base first: every --rules (a name
** that is no path is an installed bundle, DATADIR/gerules/bundles/NAME),
** else $GERULES_RULES split at ':', else the installed rule set. */
size_t cli_rule_paths(cli_ctx *c, const char *const **out);
const char *cli_installed_bundles(void);
/* The data directory: relocated beside the binary when it holds rules/, else
** the configured one (static storage). */
const char *cli_data_dir(void);
/* The source tree of an uninstalled binary run from its build tree (make
** writes it next to the binary), or NULL. */
const char *cli_build_srcdir(void);
/* Diagnostics on stderr, gcc style: the source line and a caret (read from
** the input file when the record has none), colour per cli_color(2). */
void cli_print_diags(const gr_diags *d);
/* Whether to colour output on fd: --color always/never, else a terminal
** and NO_COLOR unset or empty (and TERM not "dumb"). */
enum { CLI_COLOR_AUTO = 0, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
int  cli_color(int fd);
void cli_ctx_free(cli_ctx *c);
int  cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  cli_format_arg(const char *cmd, const char *v, int *json);
/* cli_names.c: "unknown option 'ARG'; did you mean '--x'?" among the flags
** the command's usage text lists and the global ones (returns exit 2), and
** the node a user-typed name designates (graph-qualified or plain; 0 with
** *node set, else -1 with the error printed: unknown, with the closest
** name, or ambiguous, with the qualified candidates). */
int  cli_unknown_option(const char *cmd, const char *usage, const char *arg);
int  cli_find_node(const char *cmd, const gr_graph *g, const char *name, const char *graph_path, uint32_t *node);

/* cli_input.c: the inputs the evaluating commands share (graph, --chip,
** --run-mode, -o, --options, --hook and its limits) and their evaluation. cli_input owns its option inputs
** and hook list; the strings point into argv. */
typedef struct cli_input {
  const char *cmd;
  const char *graph, *chip, *run_mode, *entry_point;
  int input_format;             /* --input-format, GR_FMT_AUTO by default */
  gr_optinputs opts;
  const char **hooks; size_t nhooks;
  const char **optfiles; size_t noptfiles;     /* --options files, in order */
  gr_hooks_limits lim;
  /* run on the loaded graph before it is evaluated (`gerules atc`:
  ** --framework and --input_shape); nonzero = exit 2, already printed */
  int (*graph_hook)(const struct cli_input *in, gr_graph *g, const gr_ruleset *rs);
  void *graph_hook_data;
  /* ATC's shape and gear flags (options/atc_cmdline.h), or NULL: atc's
  ** command line (borrowed), or eval's and tile's own (cli_input_atc_flags,
  ** owned, applied to the graph before graph_hook). With gears, every gear
  ** is evaluated (gr_api_request_set_gears). */
  struct gr_atc_cmdline *atc;
  int atc_own;
} cli_input;
void cli_input_init(cli_input *in, const char *cmd);
void cli_input_free(cli_input *in);
/* argv[*i] is "--opt VALUE" or "--opt=VALUE": 1 with *out set, 0 not this
** option, -1 usage error (printed). */
int  cli_arg_value(const char *cmd, const char *opt, int *i, int argc, char **argv, const char **out);
/* Takes argv[*i] when it is a shared input or the graph path: 1 taken, 0 not
** ours (a command option), -1 error (printed; exit 2). */
int  cli_input_arg(cli_input *in, int *i, int argc, char **argv);
const char *cli_graph_name(const cli_input *in);
/* The request in describes, in the public API's terms (gerules.h): chip,
** run mode, entry point, format, hook limits, the options in their order
** with the place each came from, the --hook files; hook output to stderr.
** The model is set by cli_input_evaluate. */
gerules_request *cli_request_new(const cli_input *in);
/* The one way the command evaluates: q with in's model (read with a meter
** on a terminal) and in's graph_hook, through gerules_evaluate. Never NULL;
** for status 2 the failure is printed (cli_print_failure). */
gerules_eval *cli_input_evaluate(const cli_input *in, const gerules_rules *rules, gerules_request *q);
/* Why an evaluation failed (status 2), on stderr: located diagnostics gcc
** style with the source line, those about the command itself as
** "gerules CMD: error: ..." (the one printer of a failed evaluation). */
void cli_print_failure(const char *cmd, const gerules_diags *d);

/* cmd_eval.c: the options of `eval` that are about the report, shared with
** `atc`, and the evaluation and reporting of one configuration. */
enum { CLI_FMT_TEXT = 0, CLI_FMT_JSON, CLI_FMT_SARIF, CLI_FMT_GITHUB, CLI_FMT_HTML, CLI_FMT_DOT };
enum { CLI_FAIL_ERROR = 0, CLI_FAIL_WARNING, CLI_FAIL_NEVER };
/* cli_gate.c: the per-code gates (-Werror=CODE, -Wno-CODE, --fail-on
** CODE[,CODE], --baseline FILE); the code lists are owned copies. */
typedef struct cli_codegates {
  char **werror; size_t nwerror;
  char **wno; size_t nwno;
  char **fail_codes; size_t nfail_codes;
  const char *baseline;         /* in argv */
} cli_codegates;
/* 1 taken, 0 not a per-code gate option, -1 usage error (printed). */
int  cli_codegate_arg(const char *cmd, cli_codegates *cg, int *i, int argc, char **argv);
/* --fail-on's value: error, warning, never or (cg not NULL) a code list. */
int  cli_fail_on_value(const char *cmd, const char *v, int *fail_on, cli_codegates *cg);
/* Drops what -Wno- silences, raises to errors what -Werror= and --fail-on
** CODE name (changed_by says which flag), then accepts what the baseline
** lists (notes, changed_by its entry). -1: the baseline is unreadable or
** malformed (printed; exit 2). */
int  cli_codegates_apply(const char *cmd, const cli_codegates *cg, gr_diags *d);
void cli_codegates_free(cli_codegates *cg);

enum { CLI_FMT_JUNIT = CLI_FMT_DOT + 1 };
typedef struct cli_eval_args {
  const char *explain, *output;
  int format, fail_on, quiet, all_nodes, provenance, provenance_table;
  int wide;                   /* --wide: never cut node names in the text report */
  const char *colour_by;      /* --colour-by SLOT: html, dot */
  cli_codegates cg;
} cli_eval_args;
void cli_eval_args_init(cli_eval_args *a);
/* argv[*i] is a report option (--format, --fail-on, -q, --output, ...): 1
** taken, 0 not one, -1 usage error (printed). */
int  cli_eval_arg(const char *cmd, cli_eval_args *a, int *i, int argc, char **argv);
/* Loads rules, hooks and the graph, evaluates and writes the report; the
** exit status (0, 1 per --fail-on, or 2). */
int  cli_eval_run(cli_ctx *c, cli_input *in, const cli_eval_args *a);

/* cli_gate.c: --format, --fail-on and -q for the commands besides eval
** (check, tile, test), which gate a CI step the same way eval does. */
typedef struct cli_gate { int format, fail_on, quiet; } cli_gate;
/* formats: a mask of 1u << CLI_FMT_*, the ones the command writes. 1 taken,
** 0 not a gate option, -1 usage error (printed). */
int  cli_gate_arg(const char *cmd, unsigned formats, cli_gate *g, int *i, int argc, char **argv);
/* 1 when d holds what --fail-on fails on (errors by default, also warnings
** with --fail-on warning, nothing with never), else 0. */
int  cli_gate_fails(const cli_gate *g, const gr_diags *d);

/* cli_config.c: the project config file of eval (.gerules.conf from the
** working directory upwards, --config FILE, --no-config): its settings as
** arguments before the command's own, those the command line gives
** dropped; its rules become c's stack unless --rules was given. */
typedef struct cli_config {
  char *path, *dir;             /* the file read, or NULL; its directory */
  gr_optinputs in;              /* its records */
  unsigned char *dropped;       /* per record: the command line gives it */
  const char **value;           /* per record: its value, a path resolved against dir */
  char **user; int nuser;       /* the command's own arguments (without --config, --no-config) */
  char **argv; int argc;        /* merged: the config's arguments, then the command's */
  const char **rules; size_t nrules;
  char **owned; size_t nowned;  /* strings built for argv */
} cli_config;
/* 0, or -1 with the error printed (exit 2). */
int  cli_config_load(cli_ctx *c, const char *cmd, int argc, char **argv, cli_config *cf);
/* --print-config: every setting with where it came from. */
void cli_config_print(const cli_config *cf, const cli_ctx *c, FILE *f);
void cli_config_free(cli_config *cf);

int cmd_check(cli_ctx *c, int argc, char **argv);
int cmd_chips(cli_ctx *c, int argc, char **argv);
int cmd_options(cli_ctx *c, int argc, char **argv);
int cmd_explain(cli_ctx *c, int argc, char **argv);
int cmd_eval(cli_ctx *c, int argc, char **argv);
int cmd_tile(cli_ctx *c, int argc, char **argv);
int cmd_bundle(cli_ctx *c, int argc, char **argv);
int cmd_test(cli_ctx *c, int argc, char **argv);
int cmd_diff(cli_ctx *c, int argc, char **argv);
/* cmd_atc.c: `gerules atc ATC-FLAGS...`, and eval's --FLAG=VALUE for an
** option alias: 1 taken (added to in's options), 0 not an alias, -1 error. */
int cmd_atc(cli_ctx *c, int argc, char **argv);
/* cmd_import.c: `gerules import-oplib`, CANN's op information files as rule files */
int cmd_import_oplib(cli_ctx *c, int argc, char **argv);
int cli_alias_arg(cli_ctx *c, cli_input *in, int *i, int argc, char **argv);
/* cmd_atc.c: eval's and tile's --FLAG=VALUE (or --FLAG VALUE) for an ATC
** flag of atc_eval_flags (--input_shape, the gear flags ...): 1 taken (added
** to in's options as "--FLAG"), 0 not one, -1 error. */
int cli_atc_eval_flag_arg(cli_ctx *c, cli_input *in, int *i, int argc, char **argv);
/* cli_input.c: takes the ATC shape flags out of in's options (given with
** --FLAG or -o, cli_atc_eval_flag_arg) into in->atc, read and checked as
** `gerules atc` reads them: 0, or the exit status (the error printed). */
int cli_input_atc_flags(cli_ctx *c, cli_input *in);

#endif
