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
 * new string in *OUT (free with free()) or a negative code with ERR
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

/* What a command works with, opened step by step as it needs them and
 * closed together by cli_ctx_close().  The command sets the flag fields,
 * then calls the steps it needs in order: setup (repository, config,
 * ignore file, and the config keys resolved into the option structs),
 * then the store and the index. */
struct cli_ctx {
	/* from the command's flags */
	const char *repo_flag;       /* --repo */
	const char *ignore_flag;     /* --ignore */
	struct fs_review_opts ropts; /* --branch, --base, --no-reports */
	struct fs_index_opts iopts;  /* --no-update, --rebuild ... */
	bool no_index_note;          /* no cli_index_note() (digest --mail) */

	/* filled by the steps; owned by the context */
	char *repo;
	struct fs_config *cfg;
	struct fs_ignore *ignore;
	struct fs_store *store;
	struct fs_index *idx;
	struct fs_index_stats istats;
	struct cli_progress progress;

	/* storage behind ropts.branch_names and the iopts refs */
	struct fs_branch_name *branch_names_;
	char **branch_keys_, **branch_values_;
	char *mainline_, **stable_globs_;
	/* storage behind ropts.own_addresses (g_strfreev()) */
	char **own_addresses_;
	/* storage behind the drafts' state file (cli_drafts_opts()) */
	char *drafts_state_;
	/* --vulns; the CVE data (cli_ctx_open_vulns()), behind ropts.vulns */
	const char *vulns_flag;
	struct fs_vulns *vulns;
	/* how drafts are written (cli_ctx_draft_opts()), and the storage
	 * behind it: the signature and template texts, the answered
	 * patches already looked up */
	struct fs_draft_opts draft_opts;
	char *draft_signature_, *draft_template_;
	void *answered_cache_;
};
void cli_ctx_init(struct cli_ctx *c);

/* The kernel repository (cli_repo_path()), its config over the global
 * one (the global one alone when the repository cannot be read: the
 * index reports that better), the ignore file, fixscan.<version>.branch
 * into ropts, and fixscan.mainline and fixscan.stable into iopts.  Returns 0 or a negative code with ERR set. */
int cli_ctx_setup(struct cli_ctx *c, struct fs_error *err);

/* The notmuch store, read-only.  With OPTIONAL, a store that cannot be
 * opened (other than for a lock) leaves c->store NULL and returns 0.
 * The user's addresses (notmuch user.primary_email and user.other_email,
 * and git user.email, which drafts fall back to) go into
 * ropts.own_addresses: their mail is no evidence. */
int cli_ctx_open_store(struct cli_ctx *c, bool optional, struct fs_error *err);

/* The fixes index of c->repo, built or updated as needed; a note on why
 * it was rebuilt is printed on stderr.  Also sets ropts.mainline_time
 * (for the stale-clone check) and the reader of commit messages.  The
 * CVE data (cli_ctx_open_vulns()) is opened first. */
int cli_ctx_open_index(struct cli_ctx *c, struct fs_error *err);

/* "mainline in REPO ends on DATE, older than this thread": once per run
 * (*SAID), when review R found the clone older than its thread. */
void cli_clone_age_notice(const struct cli_ctx *c, const struct fs_review *r, bool *said);

void cli_ctx_close(struct cli_ctx *c);

/* "fixscan: indexed REPO: N new commits" on stderr, when opening the
 * index read commits (a build or an update): every command but index,
 * which prints its own line, says once which repository it used.
 * Nothing when the index printed a note of its own (STATS->note). */
void cli_index_note(const char *repo, const struct fs_index_stats *stats);

/* Who the drafts are from: notmuch's user.name and user.primary_email
 * (c->store may be NULL), else git's user.name and user.email from
 * c->cfg (fs_identity_pick()). */
int cli_ctx_identity(const struct cli_ctx *c, struct fs_identity *out, struct fs_error *err);

/* The options of fs_drafts_save() every command shares: the state file
 * $XDG_STATE_HOME/fixscan/drafts (else ~/.local/state/fixscan/drafts;
 * none without either), the user's addresses (after
 * cli_ctx_open_store()), and FORCE (--force). */
void cli_drafts_opts(struct cli_ctx *c, struct fs_drafts_save_opts *opts, bool force);

/* c->draft_opts for the drafts of this run: MODE, EVERY (--drafts-for)
 * and NOW; the texts of the files git config fixscan.signature and
 * fixscan.draftTemplate name (~ expanded), the template checked; and
 * whether a patch was answered, from c->store and the user's addresses
 * (after cli_ctx_open_store()).  Returns 0, or FS_EIO / FS_EUSAGE with
 * ERR naming the file and the key. */
int cli_ctx_draft_opts(struct cli_ctx *c, int mode, bool every, time_t now,
		       struct fs_error *err);

/* $XDG_STATE_HOME/fixscan/NAME, else ~/.local/state/fixscan/NAME; NULL
 * with neither.  New string (g_free()). */
char *cli_state_path(const char *name);

/* The line on the drafts fs_drafts_save() left out (S->answered,
 * S->deleted), "draft: skipped ..." without a newline; NULL when none
 * was.  New string (g_free()). */
char *cli_drafts_skipped(const struct fs_drafts_saved *s);

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

/* The notmuch config value of KEY (camelCase, "fixscan.draftTags"), or
 * of OLD_KEY, its name before keys followed git's style, with a note on
 * stderr that says to rename it.  Borrowed from STORE (may be NULL). */
const char *cli_store_config(struct fs_store *store, const char *key, const char *old_key);

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
 * stderr.  Returns 0 or a negative code with ERR set.  (cli/vulns.c) */
int cli_vulns_open(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
		   const char *repo, struct fs_error *err);
/* cli_vulns_open() for C: c->vulns_flag, c->cfg; the result in c->vulns
 * and c->ropts.vulns.  cli_ctx_open_index() calls it first. */
int cli_ctx_open_vulns(struct cli_ctx *c, struct fs_error *err);
/* A length of time as git config writes one: "6 months", "6.months",
 * "180d", "26 weeks", "1 year".  Returns 0 with *OUT in seconds, or
 * FS_EUSAGE. */
int cli_parse_duration(const char *s, int64_t *out);

int cmd_review(int argc, char **argv, struct fs_error *err);
int cmd_parse(int argc, char **argv, struct fs_error *err);
int cmd_index(int argc, char **argv, struct fs_error *err);
int cmd_show(int argc, char **argv, struct fs_error *err);
int cmd_stats(int argc, char **argv, struct fs_error *err);
int cmd_check(int argc, char **argv, struct fs_error *err);
int cmd_digest(int argc, char **argv, struct fs_error *err);

#endif
