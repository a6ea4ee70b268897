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

#include "ruleset.h"
#include "diag.h"

#define EXIT_CONFIG 1      /* the configuration has errors */
#define EXIT_INPUT 2       /* usage error, unreadable or malformed input */

typedef struct cli_ctx {
  const char *rules_path;       /* --rules, or NULL for the default */
  gr_ruleset *rs;
  gr_diags diags;
} cli_ctx;

/* Loads the rule set (--rules, $GERULES_RULES, the installed set, or the
** source tree's rules/ for an uninstalled build). Prints the errors and
** returns NULL on failure. */
gr_ruleset *cli_load_rules(cli_ctx *c);
const char *cli_default_rules(void);
void cli_print_diags(const gr_diags *d);
void cli_ctx_free(cli_ctx *c);
int  cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  cli_format_arg(const char *cmd, const char *v, int *json);

int cmd_check(cli_ctx *c, int argc, char **argv);
int cmd_chips(cli_ctx *c, int argc, char **argv);
int cmd_options(cli_ctx *c, int argc, char **argv);
int cmd_explain(cli_ctx *c, int argc, char **argv);
int cmd_eval(cli_ctx *c, int argc, char **argv);
int cmd_tile(cli_ctx *c, int argc, char **argv);

#endif
