/* fixscan: what the command-line front ends share.  Not a library header:
 * only the files of cli/ include it.  Every helper here lives in cli/cli.c; a
 * command never calls into another command's file. */
#ifndef FIXSCAN_CLI_H
#define FIXSCAN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/error.h"
#include "fixscan/identity.h"
#include "fixscan/ignore.h"
#include "fixscan/index.h"
#include "fixscan/review.h"
#include "fixscan/session.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "fixscan/vulns.h"

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

/* Print "fixscan: <message>" on stderr, control characters shown
 * visibly (see fixscan/text.h). */
void cli_error(const struct fs_error *err);
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a usage error "fixscan: <cmd>: <fmt>" plus a hint to run --help,
 * and return FS_EXIT_TROUBLE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The kernel repository to use: FLAG (from --repo) when given, else the
 * repository containing the current directory when it is a kernel tree
 * (fs_repo_check_kernel(); -C has moved there already), else the
 * fixscan.repo config key.  A repository that is not a kernel tree (no
 * mainline ref, no release tag) is refused with the reason.  Returns a
 * new string in *OUT (free with g_free()) or a negative code with ERR
 * set. */
int cli_repo_path(const char *flag, char **out, struct fs_error *err);

/* Whether standard output was a terminal when fixscan started (before
 * a pager took it). */
bool cli_stdout_is_tty(void);

/* The width to wrap text output at: $COLUMNS when set, else the
 * terminal's width when standard output is one (asked before a pager
 * takes it), else 80. */
int cli_term_width(void);

/* Start the pager for standard output when it is a terminal: $FIXSCAN_PAGER,
 * else $PAGER, else less, with LESS=FRX when LESS is unset (git's way: a
 * short output stays on the screen, colours pass).  "cat" or "" means
 * none.  Returns 0 also when no pager was started; the pager is waited
 * for at exit. */
int cli_start_pager(void);
/* fixscan --no-pager: cli_start_pager() starts none from now on. */
void cli_pager_off(void);

/* Whether to colour text output: WHEN is "always", "never" or "auto"
 * (NULL: fixscan.color, else color.ui from CFG, else auto); auto means
 * standard output is a terminal and NO_COLOR is unset.  Returns 1 or 0,
 * or -1 when WHEN is none of those words. */
int cli_color_wanted(const char *when, struct fs_config *cfg);

/* --color[=WHEN] of command CMD (WHEN NULL: not given) into *COLOR, as
 * cli_color_wanted() decides with CFG (may be NULL).  Returns 0, or
 * FS_EUSAGE with ERR set to "CMD: --color takes always, never or auto,
 * not 'WHEN'". */
int cli_color_option(const char *cmd, const char *when, struct fs_config *cfg, bool *color,
		     struct fs_error *err);

/* The same with the config of the repository REPO over the global one
 * (the global one alone when REPO's cannot be read), for the commands
 * that open no context. */
int cli_color_for_repo(const char *cmd, const char *when, const char *repo, bool *color,
		       struct fs_error *err);

/* The escape sequences of the colours text output uses ("" when COLOR is
 * false): git's yellow for commit ids, bold for headings, and the reset. */
#define CLI_COLOR_COMMIT(color) ((color) ? "\033[33m" : "")
#define CLI_COLOR_HEAD(color) ((color) ? "\033[1m" : "")
#define CLI_COLOR_RESET(color) ((color) ? "\033[m" : "")

/* Whether to draw a progress line: stderr is a terminal. */
int cli_progress_wanted(void);

/* The "indexing: N/M commits, R/s, ETA Ss" line on stderr while the index
 * is built or updated: attach to OPTS before opening the index (nothing
 * when WANTED is 0), done after, which clears the line if one was drawn. */
struct cli_progress {
	struct timespec start;
	struct timespec last;
	int shown;
};
void cli_progress_attach(struct cli_progress *p, struct fs_index_opts *opts, int wanted);
void cli_progress_done(struct cli_progress *p);

/* What a command works with: the library's session (fixscan/session.h),
 * opened step by step as the command needs it and closed by
 * cli_ctx_close().  The command sets the flag fields, then calls the
 * steps it needs in order: setup (the repository and the session), then
 * the store and the index.  The cli_ctx_ steps print the session's notes
 * on stderr. */
struct cli_ctx {
	/* from the command's flags */
	const char *repo_flag;       /* --repo */
	/* --ignore, --vulns, --branch, --base, --no-reports, --no-update */
	struct fs_session_opts sopts;
	bool no_index_note;          /* no cli_index_note() (digest --mail) */

	/* filled by the steps; owned by the context */
	char *repo;
	struct fs_session *s;
	struct cli_progress progress;
};
void cli_ctx_init(struct cli_ctx *c);

/* The kernel repository (cli_repo_path()) and the session on it
 * (fs_session_open()).  Returns 0 or a negative code with ERR set. */
int cli_ctx_setup(struct cli_ctx *c, struct fs_error *err);

/* The notmuch store (fs_session_open_store()). */
int cli_ctx_open_store(struct cli_ctx *c, bool optional, struct fs_error *err);

/* The fixes index (fs_session_open_index()), with the progress line on a
 * terminal; a note on why it was rebuilt and the CVE data's note are
 * printed on stderr, then cli_index_note() unless C->no_index_note. */
int cli_ctx_open_index(struct cli_ctx *c, struct fs_error *err);

/* "mainline in REPO ends on DATE, older than this thread": once per run
 * (*SAID), when review R found the clone older than its thread. */
void cli_clone_age_notice(const struct cli_ctx *c, const struct fs_review *r, bool *said);

/* The session's end: the one line that says lore (fixscan.lore) could
 * not be searched, when it could not, then everything freed. */
void cli_ctx_close(struct cli_ctx *c);

/* "fixscan: indexed REPO: N new commits" on stderr, when opening the
 * index read commits (a build or an update): every command but index,
 * which prints its own line, says once which repository it used.
 * Nothing when the index printed a note of its own (STATS->note). */
void cli_index_note(const char *repo, const struct fs_index_stats *stats);

/* Print each of NOTES with cli_note() and clear them. */
void cli_print_notes(struct fs_review_notes *notes);
/* The same for notes that are fixscan's own words (the index's, the CVE
 * cache's): printed as they are. */
void cli_print_own_notes(struct fs_review_notes *notes);

/* "draft: ..." on OUT for each draft SAVED says was written, kept or
 * replaced, and the drafts left out; with WIDTH (check: the pager's
 * 78 columns) the short form, wrapped, the label on a line of its own;
 * else one line per draft with its label (review).  An error indexing
 * them is said on stderr. */
void cli_print_saved(FILE *out, const struct fs_drafts_saved *saved, int width);
/* The same in brief (check --short): one line per kind of action with
 * the drafts' numbers ("draft: wrote 3: 00/27 03/27 07/27"), wrapped at
 * WIDTH, the drafts left out, and the folder. */
void cli_print_saved_brief(FILE *out, const struct fs_drafts_saved *saved, int width);

/* Open the index of REPO with OPTS, whose refs (mainline and stable
 * globs) are taken from fixscan.mainline and fixscan.stable: REPO's config
 * over the global one, the global one alone when REPO's cannot be read
 * (the index then says why, better), with the progress line when
 * PROGRESS.  For the commands that need no more of the context than
 * this. */
int cli_open_index(struct fs_index **idx, const char *repo, struct fs_index_opts *opts,
		   int progress, struct fs_index_stats *stats, struct fs_error *err);

/* The threads matching QUERY, sorted into series (fs_review_load()); a
 * mail that cannot be read is reported on stderr and skipped. */
int cli_load_threads(struct fs_store *store, const char *query,
		     struct fs_thread ***out, size_t *nout, struct fs_error *err);
void cli_free_threads(struct fs_thread **threads, size_t n);

/* The threads of SRC (fs_source_load(): the store, an mbox, a queue
 * directory), sorted into series; notes go to stderr.  Free with
 * cli_free_threads(). */
struct fs_source;
int cli_load_source(const struct fs_source *src, struct fs_thread ***out, size_t *nout,
		    struct fs_error *err);

/* The notmuch query for the message MESSAGE_ID (with or without <>),
 * quoted so that no character of it can change the query.  New string
 * (free()), or NULL when out of memory. */
char *cli_id_query(const char *message_id);

/* Print TEXT (lines separated by '\n') on OUT with each line wrapped at
 * WIDTH columns (0: not wrapped), continuation lines indented four
 * columns deeper.  Colour codes count no column and are kept whole. */
void cli_print_wrapped(FILE *out, const char *text, int width);

/* --drafts-for=WHAT: "action" (the default: only patches with a finding
 * that asks for action get a reply) or "every-finding".  Sets *EVERY;
 * returns 0, or -1 for any other word. */
int cli_drafts_for(const char *what, bool *every);

/* PATH for people: relative to the mail root ROOT when inside it
 * (ROOT may be NULL).  Borrowed from PATH. */
const char *cli_shown_path(const char *path, const char *root);

/* The CVE data of the kernel CNA's vulns clone named by FLAG (--vulns),
 * else by fixscan.vulns in CFG (NULL: REPO's config over the global
 * one): *OUT stays NULL, and no file is opened, when neither names one
 * (an empty fixscan.vulns names none).  A note on the cache goes to
 * stderr (fs_session_vulns_at()).  Returns 0 or a negative code with
 * ERR set.  (cli/vulns.c) */
int cli_vulns_open(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
		   const char *repo, struct fs_error *err);

int cmd_review(int argc, char **argv, struct fs_error *err);
int cmd_parse(int argc, char **argv, struct fs_error *err);
int cmd_index(int argc, char **argv, struct fs_error *err);
int cmd_show(int argc, char **argv, struct fs_error *err);
int cmd_stats(int argc, char **argv, struct fs_error *err);
int cmd_check(int argc, char **argv, struct fs_error *err);
int cmd_digest(int argc, char **argv, struct fs_error *err);

#endif
