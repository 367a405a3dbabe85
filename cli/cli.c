/* fixscan: what the command-line front ends share (see cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	free(mainline);
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
		*out = strdup(flag);
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
		free(here);
		if ((rc = check_kernel(configured, err)) < 0) {
			free(configured);
			return rc;
		}
		*out = configured;
		return 0;
	}
	if (here) {
		/* Only a repository that is not a kernel tree: say why. */
		free(here);
		*err = why;
		return err->code ? err->code : FS_ENOTFOUND;
	}
	return fs_error_set(err, FS_ENOTFOUND,
			    "no kernel repository: use --repo PATH or set fixscan.repo");
}

/* ---- the pager and colour ------------------------------------------------ */

static int stdout_tty = -1;
static pid_t pager_pid;

bool cli_stdout_is_tty(void)
{
	if (stdout_tty < 0)
		stdout_tty = isatty(STDOUT_FILENO);
	return stdout_tty;
}

/* The terminal's width, taken at the first call: main asks before the
 * pager takes standard output. */
static int term_width = -1;

int cli_term_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (term_width > 0)
		return term_width;
	/* git's order: $COLUMNS, then the terminal, then 80. */
	term_width = 80;
	if (env && *env && (n = strtol(env, &end, 10)) > 0 && !*end && n < 10000)
		term_width = (int)n;
	else if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		term_width = ws.ws_col;
	return term_width;
}

/* Whether NAME is an executable in a directory of $PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) + strlen(name) + 2 > sizeof(buf))
			continue;
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, name);
		if (end > p && access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

static void wait_for_pager(void)
{
	int status;

	fflush(stdout);
	fclose(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* --no-pager: no pager, whoever asks. */
static bool pager_off;

void cli_pager_off(void)
{
	pager_off = true;
}

int cli_start_pager(void)
{
	const char *pager = getenv("FIXSCAN_PAGER");
	int fds[2];

	/* The width is that of the terminal, which the pager is about to
	 * take. */
	cli_term_width();
	if (pager_off || !cli_stdout_is_tty() || pager_pid)
		return 0;
	if (!pager)
		pager = getenv("PAGER");
	/* Without a pager named and without less, the output stays as it
	 * is: a pager that cannot start would swallow it. */
	if (!pager && !on_path("less"))
		return 0;
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return 0;
	fflush(stdout);
	if (pipe(fds) < 0)
		return -1;
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fds[0]);
		close(fds[1]);
		pager_pid = 0;
		return -1;
	}
	if (pager_pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 0);
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	atexit(wait_for_pager);
	return 0;
}

int cli_color_wanted(const char *when, struct fs_config *cfg)
{
	char *configured = NULL;
	int rc = -1;

	if (!when && cfg && (fs_config_get_string(cfg, "fixscan.color", &configured) == 0 ||
			     fs_config_get_string(cfg, "color.ui", &configured) == 0))
		when = configured;
	if (!when || !strcmp(when, "auto"))
		rc = cli_stdout_is_tty() && !getenv("NO_COLOR");
	else if (!strcmp(when, "always") || !strcmp(when, "true"))
		rc = 1;
	else if (!strcmp(when, "never") || !strcmp(when, "false"))
		rc = 0;
	/* A config value git would take but we do not know: auto. */
	if (rc < 0 && configured)
		rc = cli_stdout_is_tty() && !getenv("NO_COLOR");
	free(configured);
	return rc;
}

int cli_color_option(const char *cmd, const char *when, struct fs_config *cfg, bool *color,
		     struct fs_error *err)
{
	int rc = cli_color_wanted(when, cfg);

	if (rc < 0)
		return fs_error_set(err, FS_EUSAGE, "%s: --color takes always, never or auto, not '%s'",
				    cmd, when);
	*color = rc > 0;
	return 0;
}

int cli_color_for_repo(const char *cmd, const char *when, const char *repo, bool *color,
		       struct fs_error *err)
{
	struct fs_config *cfg = NULL;
	int rc;

	if (fs_config_open(&cfg, repo, NULL) < 0)
		(void)fs_config_open(&cfg, NULL, NULL);
	rc = cli_color_option(cmd, when, cfg, color, err);
	fs_config_free(cfg);
	return rc;
}

int cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void show_progress(size_t done, size_t total, void *data)
{
	struct cli_progress *p = data;
	struct timespec now;
	double secs, rate;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->shown && elapsed(&p->last, &now) < 0.25)
		return;
	p->last = now;
	p->shown = 1;
	secs = elapsed(&p->start, &now);
	rate = secs > 0 ? done / secs : 0;
	if (total > done && rate > 0)
		fprintf(stderr, "\rindexing: %zu/%zu commits, %.0f/s, ETA %.0fs   ", done,
			total, rate, (total - done) / rate);
	else
		fprintf(stderr, "\rindexing: %zu commits, %.0f/s   ", done, rate);
}

void cli_progress_attach(struct cli_progress *p, struct fs_index_opts *opts, int wanted)
{
	memset(p, 0, sizeof(*p));
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	if (!wanted)
		return;
	opts->progress = show_progress;
	opts->progress_data = p;
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
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
	free(mainline);
	fs_config_strv_free(stable);
	fs_config_strv_free(pending);
	return rc;
}

void cli_ctx_close(struct cli_ctx *c)
{
	fs_session_free(c->s);
	free(c->repo);
	memset(c, 0, sizeof(*c));
}

/* ---- drafts -------------------------------------------------------------- */

/* What became of draft X, "wrote PATH", or NULL for a draft left out;
 * LONG adds the label and whether it was indexed now (review). */
static char *saved_line(const struct fs_drafts_saved_draft *x, bool wide)
{
	const char *late = wide && x->indexed_now ? ", indexed now" : "";
	const char *other = x->other ? x->other : "";

	switch (x->action) {
	case FS_DRAFT_WROTE:
		return g_strdup_printf("wrote %s", x->path);
	case FS_DRAFT_UNCHANGED:
		return g_strdup_printf("unchanged %s%s", x->path, late);
	case FS_DRAFT_UNCHANGED_EDITED:
		return g_strdup_printf("unchanged, edited by you: %s%s", x->path, late);
	case FS_DRAFT_REPLACED:
		return g_strdup_printf("replaced %s with %s, the findings changed", other, x->path);
	case FS_DRAFT_KEPT_EDITED:
		return g_strdup_printf("kept your edited draft %s, wrote %s", other, x->path);
	default: /* skipped: no path, counted at the end */
		return NULL;
	}
}

/* "draft: LINE" for the draft labelled LABEL: one line with the label
 * (WIDTH 0), or the label wrapped on a line of its own. */
static void print_saved_line(FILE *out, const char *line, const char *label, int width)
{
	char *re;

	if (!width) {
		fprintf(out, "draft: %s (re: %s)\n", line, label);
		return;
	}
	fprintf(out, "draft: %s\n", line);
	re = g_strdup_printf("    (re: %s)", label);
	cli_print_wrapped(out, re, width);
	g_free(re);
}

/* What cli_print_saved() and cli_print_saved_brief() say before the
 * drafts: a folder outside the mail root, an error indexing them. */
static void print_saved_head(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	if (saved->outside && width)
		fprintf(out, "draft: '%s' is outside the notmuch mail root; the drafts are not indexed\n",
			saved->dir);
	else if (saved->outside && saved->complete && saved->root)
		fprintf(out, "draft: '%s' is outside the notmuch mail root '%s'; the drafts are not indexed\n",
			saved->dir, saved->root);
	if (saved->index_err.code)
		cli_error(&saved->index_err);
}

/* ... and after them: the drafts left out, counted. */
static void print_saved_tail(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	char *skipped = fs_session_skipped_text(saved);

	if (!skipped)
		return;
	if (width)
		cli_print_wrapped(out, skipped, width);
	else
		fprintf(out, "%s\n", skipped);
	g_free(skipped);
}

void cli_print_saved_brief(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	static const struct {
		int action;
		const char *what;
	} groups[] = {
		{ FS_DRAFT_WROTE, "wrote" },
		{ FS_DRAFT_REPLACED, "rewrote (the findings changed)" },
		{ FS_DRAFT_KEPT_EDITED, "wrote beside your edited draft" },
		{ FS_DRAFT_UNCHANGED, "unchanged" },
		{ FS_DRAFT_UNCHANGED_EDITED, "unchanged, edited by you" },
	};
	size_t g, i;

	print_saved_head(out, saved, width);
	for (g = 0; g < G_N_ELEMENTS(groups); g++) {
		GString *line = g_string_new(NULL);
		size_t n = 0;

		for (i = 0; i < saved->n; i++) {
			const struct fs_drafts_saved_draft *x = &saved->v[i];

			if (!x->path || (int)x->action != groups[g].action)
				continue;
			g_string_append_printf(line, " %.*s", (int)strcspn(x->label, " "), x->label);
			n++;
		}
		if (n) {
			char *text = g_strdup_printf("draft: %s %zu:%s", groups[g].what, n, line->str);
			cli_print_wrapped(out, text, width);
			g_free(text);
		}
		g_string_free(line, TRUE);
	}
	print_saved_tail(out, saved, width);
	if (saved->dir && saved->n)
		fprintf(out, "draft: in %s\n", saved->dir);
}

void cli_print_saved(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	size_t i, k;

	print_saved_head(out, saved, width);
	for (i = 0; i < saved->n; i++) {
		const struct fs_drafts_saved_draft *x = &saved->v[i];
		char *line = x->path ? saved_line(x, !width) : NULL;

		if (!x->path)
			continue;
		if (line)
			print_saved_line(out, line, x->label, width);
		g_free(line);
		/* "replaced" says it already. */
		for (k = 0; x->action != FS_DRAFT_REPLACED && x->removed && x->removed[k]; k++) {
			line = g_strdup_printf("removed the outdated %s", x->removed[k]);
			print_saved_line(out, line, x->label, width);
			g_free(line);
		}
	}
	print_saved_tail(out, saved, width);
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
	free(threads);
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
	free(quoted);
	free(bare);
	return q;
}

/* ---- output -------------------------------------------------------------- */

/* The columns the byte at P takes: none for a colour code (ESC [ ... m,
 * skipped whole: *SKIP gets its length) or a UTF-8 continuation byte,
 * else one.  Good enough for the mostly ASCII text of reports. */
static size_t byte_columns(const char *p, const char *end, size_t *skip)
{
	const char *q = p + 2;

	*skip = 1;
	if (p[0] == '\033' && p + 1 < end && p[1] == '[') {
		while (q < end && !(*q >= 0x40 && *q <= 0x7e))
			q++;
		*skip = (size_t)(q < end ? q + 1 - p : end - p);
		return 0;
	}
	return ((unsigned char)*p & 0xc0) == 0x80 ? 0 : 1;
}

/* Where to end the piece of LINE from START that fits ROOM columns: the
 * last space within it (not in the leading indent NOINDENT bytes), else
 * the first after it, else the end. */
static size_t wrap_break(const char *line, size_t len, size_t start, size_t room, size_t noindent)
{
	size_t i = start, col = 0, brk = 0, skip;

	while (i < len) {
		size_t w = byte_columns(line + i, line + len, &skip);
		if (line[i] == ' ' && i > noindent) {
			if (col > room && brk)
				return brk;
			brk = i;
			if (col > room)
				return brk;
		}
		col += w;
		i += skip;
	}
	return col > room && brk ? brk : len;
}

/* Print one line of TEXT wrapped at WIDTH columns.  Continuation lines
 * are indented four columns deeper than the line itself.  A word longer
 * than the width (a URL) is left whole.  Colour codes take no column and
 * are never split: a break is only ever at a space. */
static void print_wrapped_line(FILE *out, const char *line, size_t len, int width)
{
	size_t indent = 0, start = 0, col;
	int first = 1;

	while (indent < len && line[indent] == ' ')
		indent++;
	while (start < len || first) {
		size_t lead = first ? 0 : indent + 4;
		size_t room = width <= 0 ? (size_t)-1 :
			      (size_t)width > lead + 20 ? (size_t)width - lead : 20;
		size_t brk;

		if (!first)
			while (start < len && line[start] == ' ')
				start++;
		if (start >= len && !first)
			break;
		brk = wrap_break(line, len, start, room, first ? indent : 0);
		for (col = 0; col < lead; col++)
			fputc(' ', out);
		fprintf(out, "%.*s\n", (int)(brk - start), line + start);
		start = brk;
		first = 0;
	}
}

void cli_print_wrapped(FILE *out, const char *text, int width)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		print_wrapped_line(out, p, len, width);
		if (!nl)
			break;
		p = nl + 1;
	}
}

int cli_drafts_for(const char *what, bool *every)
{
	if (!strcmp(what, "action"))
		*every = false;
	else if (!strcmp(what, "every-finding"))
		*every = true;
	else
		return -1;
	return 0;
}

const char *cli_shown_path(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(path, root, n) && path[n] == '/')
		return path + n + 1;
	return path;
}
