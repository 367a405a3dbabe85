/* fixscan: what the commands share (cli.h): errors and notes, the
 * repository, the context that opens the library's session step by
 * step, and the threads a command reviews. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/repo.h"
#include "fixscan/source.h"
#include "fixscan/text.h"

void cli_note(const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	/* Messages quote subjects and file names: anyone's words. */
	fputs("fixscan: ", stderr);
	fs_text_fputs(n < 0 ? "out of memory" : msg, false, stderr);
	fputc('\n', stderr);
	free(msg);
}

void cli_error(const struct fs_error *err)
{
	cli_note("%s", err->message[0] ? err->message : "unknown error");
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fixscan: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'fixscan %s --help')\n", cmd);
	return FS_EXIT_TROUBLE;
}

/* Whether PATH is a kernel tree (fs_repo_check_kernel()), with the
 * mainline ref fixscan.mainline names in PATH's config over the global
 * one.  A path that is no repository at all returns 0: the index says
 * that better. */
static int check_kernel(const char *path, struct fs_error *err)
{
	struct fs_config *cfg = NULL;
	char *mainline = NULL;
	int rc;

	if (fs_config_open(&cfg, path, NULL) < 0)
		return 0;
	fs_config_get_string(cfg, "fixscan.mainline", &mainline);
	fs_config_free(cfg);
	rc = fs_repo_check_kernel(path, mainline, err);
	g_free(mainline);
	if (rc == FS_EGIT) {
		fs_error_clear(err);
		return 0;
	}
	return rc;
}

int cli_repo_path(const char *flag, char **out, struct fs_error *err)
{
	struct fs_config *cfg = NULL;
	char *here = NULL, *configured = NULL;
	struct fs_error why = FS_ERROR_INIT;
	int rc;

	*out = NULL;
	if (flag) {
		if ((rc = check_kernel(flag, err)) < 0)
			return rc;
		*out = g_strdup(flag);
		return *out ? 0 : fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	/* As for git, the repository of the current directory (-C moved
	 * there already) comes first, when it is a kernel tree: fixscan.repo
	 * is for when it is not (a mail folder, fixscan's own checkout). */
	if (fs_repo_discover(".", &here, NULL) == 0 && check_kernel(here, &why) == 0) {
		*out = here;
		return 0;
	}
	if (fs_config_open(&cfg, NULL, NULL) == 0) {
		fs_config_get_path(cfg, "fixscan.repo", &configured);
		fs_config_free(cfg);
	}
	if (configured) {
		g_free(here);
		struct stat st;
		int missing = stat(configured, &st) < 0 ? errno : 0;

		/* a path from the config: its errors name the key */
		if (missing || !S_ISDIR(st.st_mode)) {
			rc = fs_error_set(err, FS_ENOTFOUND, "fixscan.repo names '%s': %s", configured,
					  missing ? strerror(missing) : "not a directory");
			g_free(configured);
			return rc;
		}
		if ((rc = check_kernel(configured, err)) < 0) {
			fs_error_prefix(err, "fixscan.repo");
			g_free(configured);
			return rc;
		}
		*out = configured;
		return 0;
	}
	if (here) {
		/* Only a repository that is not a kernel tree: say why. */
		g_free(here);
		*err = why;
		return err->code ? err->code : FS_ENOTFOUND;
	}
	return fs_error_set(err, FS_ENOTFOUND,
			    "no kernel repository: use --repo PATH or set fixscan.repo");
}

/* ---- the context --------------------------------------------------------- */

/* Said once when the drafts wait for another writer of the notmuch
 * database ("notmuch new", a mail client): the wait is not a hang. */
static void store_waiting(void *data, const char *lock, double wait)
{
	(void)data;
	fprintf(stderr, "fixscan: the notmuch database is locked by another process ('%s'): "
		"waiting up to %.0f s\n", lock, wait);
}

void cli_ctx_init(struct cli_ctx *c)
{
	static const struct fs_session_opts sopts = FS_SESSION_OPTS_INIT;
	static const struct fs_store_waiting waiting = { store_waiting, NULL };

	memset(c, 0, sizeof(*c));
	c->sopts = sopts;
	c->sopts.store_waiting = &waiting;
}

void cli_print_notes(struct fs_review_notes *notes)
{
	size_t i;

	for (i = 0; i < notes->n; i++)
		cli_note("%s", notes->v[i]);
	fs_review_notes_clear(notes);
}

void cli_print_own_notes(struct fs_review_notes *notes)
{
	size_t i;

	for (i = 0; i < notes->n; i++)
		fprintf(stderr, "fixscan: %s\n", notes->v[i]);
	fs_review_notes_clear(notes);
}

int cli_ctx_setup(struct cli_ctx *c, struct fs_error *err)
{
	int rc;

	rc = cli_repo_path(c->repo_flag, &c->repo, err);
	if (rc < 0)
		return rc;
	c->sopts.repo = c->repo;
	return fs_session_open(&c->s, &c->sopts, err);
}

int cli_ctx_open_store(struct cli_ctx *c, bool optional, struct fs_error *err)
{
	return fs_session_open_store(c->s, optional, err);
}

int cli_ctx_open_index(struct cli_ctx *c, struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	const struct fs_index_stats *st;
	int rc;

	/* A wrong fixscan.vulns fails before the index takes its time;
	 * its note is the CVE data's own words. */
	rc = fs_session_open_vulns(c->s, &notes, err);
	cli_print_own_notes(&notes);
	if (rc < 0)
		return rc;
	/* A cold or outdated cache takes seconds to bring up to date: the
	 * same progress line as fixscan index, on a terminal. */
	cli_progress_attach(&c->progress, fs_session_index_opts(c->s), cli_progress_wanted());
	rc = fs_session_open_index(c->s, NULL, err);
	cli_progress_done(&c->progress);
	if (rc < 0)
		return rc;
	st = fs_session_index_stats(c->s);
	if (st->note[0])
		fprintf(stderr, "fixscan: %s\n", st->note);
	if (!c->no_index_note)
		cli_index_note(c->repo, st);
	return 0;
}

void cli_clone_age_notice(const struct cli_ctx *c, const struct fs_review *r, bool *said)
{
	char tip[16], thread[16];
	time_t a = (time_t)fs_session_review_opts(c->s)->mainline_time;
	time_t b = (time_t)r->thread_time;
	struct tm tm;

	if (!r->stale_clone || *said)
		return;
	*said = true;
	strftime(tip, sizeof(tip), "%Y-%m-%d", gmtime_r(&a, &tm));
	strftime(thread, sizeof(thread), "%Y-%m-%d", gmtime_r(&b, &tm));
	cli_note("mainline in %s ends on %s, older than this thread (%s): run git fetch",
		 c->repo, tip, thread);
}

void cli_index_note(const char *repo, const struct fs_index_stats *stats)
{
	/* The index said why it rebuilt, naming the cache: once is enough. */
	if (stats->note[0])
		return;
	if (stats->rebuilt)
		cli_note("indexed %s: %zu commit%s", repo, stats->commits,
			 stats->commits == 1 ? "" : "s");
	else if (stats->new_commits)
		cli_note("indexed %s: %zu new commit%s", repo, stats->new_commits,
			 stats->new_commits == 1 ? "" : "s");
}

int cli_open_index(struct fs_index **idx, const char *repo, struct fs_index_opts *opts,
		   int progress, struct fs_index_stats *stats, struct fs_error *err)
{
	struct cli_progress prog;
	struct fs_config *cfg = NULL;
	char *mainline = NULL, **stable = NULL, **pending = NULL;
	size_t nstable = 0, npending = 0;
	int rc;

	if (fs_config_open(&cfg, repo, NULL) < 0)
		(void)fs_config_open(&cfg, NULL, NULL);
	rc = fs_config_index_refs(cfg, &mainline, &stable, &nstable, err);
	if (rc == 0)
		rc = fs_config_pending_refs(cfg, &pending, &npending, err);
	fs_config_free(cfg);
	opts->repo_path = repo;
	opts->mainline = mainline;
	opts->stable_globs = (const char *const *)stable;
	opts->nstable_globs = nstable;
	opts->pending_globs = (const char *const *)pending;
	opts->npending_globs = npending;
	cli_progress_attach(&prog, opts, progress);
	if (rc == 0)
		rc = fs_index_open(idx, opts, stats, err);
	cli_progress_done(&prog);
	/* The options must not point at what is freed here. */
	opts->mainline = NULL;
	opts->stable_globs = NULL;
	opts->nstable_globs = 0;
	opts->pending_globs = NULL;
	opts->npending_globs = 0;
	g_free(mainline);
	fs_config_strv_free(stable);
	fs_config_strv_free(pending);
	return rc;
}

void cli_ctx_close(struct cli_ctx *c)
{
	size_t nfailed = 0;
	const char *failed = c->s ? fs_session_lore_failure(c->s, &nfailed) : NULL;

	/* Once for the whole run, however many searches failed: the
	 * review is the same but for what lore would have added. */
	if (failed && !nfailed)
		cli_note("lore: %s; not searched", failed);
	else if (failed)
		cli_note("lore: %s; %zu search%s left out of the review", failed, nfailed,
			 nfailed == 1 ? "" : "es");
	fs_session_free(c->s);
	g_free(c->repo);
	memset(c, 0, sizeof(*c));
}

/* ---- threads and queries ------------------------------------------------- */

int cli_load_threads(struct fs_store *store, const char *query,
		     struct fs_thread ***out, size_t *nout, struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	int rc;

	rc = fs_review_load(out, nout, store, query, &notes, err);
	cli_print_notes(&notes);
	return rc;
}

int cli_load_source(const struct fs_source *src, struct fs_thread ***out, size_t *nout,
		    struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	int rc;

	rc = fs_source_load(out, nout, src, &notes, err);
	cli_print_notes(&notes);
	return rc;
}

void cli_free_threads(struct fs_thread **threads, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fs_thread_free(threads[i]);
	g_free(threads);
}

char *cli_id_query(const char *message_id)
{
	size_t n = strlen(message_id);
	char *bare, *quoted, *q = NULL;

	if (n >= 2 && message_id[0] == '<' && message_id[n - 1] == '>') {
		message_id++;
		n -= 2;
	}
	bare = strndup(message_id, n);
	/* notmuch keeps ids without the white space a header may fold in
	 * (<"a b"@x> is stored as "ab"@x). */
	if (bare) {
		char *r = bare, *w = bare;
		for (; *r; r++)
			if (*r != ' ' && *r != '\t' && *r != '\r' && *r != '\n')
				*w++ = *r;
		*w = '\0';
	}
	quoted = bare ? fs_store_quote(bare) : NULL;
	if (quoted && asprintf(&q, "id:%s", quoted) < 0)
		q = NULL;
	g_free(quoted);
	free(bare);
	return q;
}
