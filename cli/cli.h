/* fixscan: what the command-line front ends share.  Not a library header:
 * only src/main.c and src/cmd-*.c include it. */
#ifndef FIXSCAN_CLI_H
#define FIXSCAN_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "fixscan/error.h"

/* Exit statuses, as diff(1): 0 nothing found, 1 findings, 2 trouble. */
enum {
	FS_EXIT_CLEAN = 0,
	FS_EXIT_FINDINGS = 1,
	FS_EXIT_TROUBLE = 2,
};

/* Every command has this signature.  ARGV[0] is the command name.  It
 * returns an exit status; on trouble it may instead return a negative
 * FS_E* code with ERR filled, and main prints ERR and exits 2.  A command
 * that goes on after an error (several files) prints it with cli_error()
 * and returns FS_EXIT_TROUBLE at the end. */
typedef int (*cli_fn)(int argc, char **argv, struct fs_error *err);

/* Print "fixscan: <message>" on stderr. */
void cli_error(const struct fs_error *err);

/* Print a usage error "fixscan: <cmd>: <fmt>" plus a hint to run --help,
 * and return FS_EXIT_TROUBLE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The kernel repository to use: FLAG (from --repo) when given, else the
 * fixscan.repo config key, else the repository containing the current
 * directory.  Returns a new string in *OUT (free with free()) or a negative
 * code with ERR set. */
int cli_repo_path(const char *flag, char **out, struct fs_error *err);

/* Whether to draw a progress line: stderr is a terminal. */
int cli_progress_wanted(void);

struct fs_store;
struct fs_thread;
struct fs_config;

/* Every thread matching QUERY, each sorted out into series, in *OUT (an
 * array of *NOUT threads; free each with fs_thread_free() and the array
 * with free()).  A mail that cannot be read is reported and skipped. */
int cli_load_threads(struct fs_store *store, const char *query,
		     struct fs_thread ***out, size_t *nout, struct fs_error *err);

/* The ignore file: FLAG, else fixscan.ignore, else
 * $XDG_CONFIG_HOME/fixscan/ignore.  A new string in *OUT. */
int cli_ignore_path(struct fs_config *cfg, const char *flag, char **out);

struct fs_ignore;

/* What review, check and digest all start with: the kernel repository
 * (cli_repo_path()), its config over the global one (the global one alone
 * when the repository cannot be read: the index reports that better), and
 * the ignore file.  On error the caller still frees *REPO, *CFG and
 * *IGNORE, which are NULL or valid. */
int cli_review_setup(const char *repo_flag, const char *ignore_flag, char **repo,
		     struct fs_config **cfg, struct fs_ignore **ignore,
		     struct fs_error *err);

/* Print TEXT (lines separated by '\n') on OUT with each line wrapped at
 * WIDTH columns, continuation lines indented four columns deeper. */
void cli_print_wrapped(FILE *out, const char *text, int width);

/* PATH for people: relative to the mail root ROOT when inside it
 * (ROOT may be NULL).  Borrowed from PATH. */
const char *cli_shown_path(const char *path, const char *root);

int cmd_review(int argc, char **argv, struct fs_error *err);
int cmd_parse(int argc, char **argv, struct fs_error *err);
int cmd_index(int argc, char **argv, struct fs_error *err);
int cmd_show(int argc, char **argv, struct fs_error *err);
int cmd_stats(int argc, char **argv, struct fs_error *err);
int cmd_check(int argc, char **argv, struct fs_error *err);
int cmd_digest(int argc, char **argv, struct fs_error *err);

#endif
