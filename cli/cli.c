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

int cli_start_pager(void)
{
	const char *pager = getenv("FIXSCAN_PAGER");
	int fds[2];

	/* The width is that of the terminal, which the pager is about to
	 * take. */
	cli_term_width();
	if (!cli_stdout_is_tty() || pager_pid)
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

void cli_ctx_init(struct cli_ctx *c)
{
	static const struct fs_review_opts ropts = FS_REVIEW_OPTS_INIT;
	static const struct fs_index_opts iopts = FS_INDEX_OPTS_INIT;

	memset(c, 0, sizeof(*c));
	c->ropts = ropts;
	c->iopts = iopts;
}

/* The ignore file: the flag, else fixscan.ignore, else
 * $XDG_CONFIG_HOME/fixscan/ignore.  A new string in *OUT. */
static int ignore_path(struct fs_config *cfg, const char *flag, char **out)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	*out = NULL;
	if (flag)
		return (*out = strdup(flag)) ? 0 : FS_ENOMEM;
	if (cfg && fs_config_get_string(cfg, "fixscan.ignore", out) == 0)
		return 0;
	if (xdg && *xdg == '/') {
		if (asprintf(out, "%s/fixscan/ignore", xdg) < 0)
			*out = NULL;
	} else if (home) {
		if (asprintf(out, "%s/.config/fixscan/ignore", home) < 0)
			*out = NULL;
	}
	return *out ? 0 : FS_ENOTFOUND;
}

/* fixscan.<version>.branch = <branch>, for series whose mails do not say
 * which branch they are for.  (The version is a subsection: git takes no
 * key whose last part starts with a digit, such as fixscan.branch.4.4.) */
static int read_branch_names(struct cli_ctx *c, struct fs_error *err)
{
	int n = fs_config_get_matching(c->cfg, "fixscan.%s.branch", &c->branch_keys_,
				       &c->branch_values_, err);
	int i;

	if (n <= 0)
		return n;
	c->branch_names_ = calloc(n, sizeof(*c->branch_names_));
	if (!c->branch_names_)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		c->branch_names_[i].version = c->branch_keys_[i];
		c->branch_names_[i].branch = c->branch_values_[i];
	}
	c->ropts.branch_names = c->branch_names_;
	c->ropts.nbranch_names = n;
	return 0;
}

int cli_ctx_setup(struct cli_ctx *c, struct fs_error *err)
{
	char *path = NULL;
	int rc;

	rc = cli_repo_path(c->repo_flag, &c->repo, err);
	if (rc < 0)
		return rc;
	rc = fs_config_open(&c->cfg, c->repo, err);
	if (rc < 0) {
		/* A missing or broken repository is reported by the index,
		 * with a better message; the global config still counts. */
		fs_error_clear(err);
		rc = fs_config_open(&c->cfg, NULL, err);
		if (rc < 0)
			return rc;
	}
	if (ignore_path(c->cfg, c->ignore_flag, &path) == 0) {
		rc = fs_ignore_load(&c->ignore, path, err);
		free(path);
		if (rc < 0)
			return rc;
	}
	c->ropts.ignore = c->ignore;
	rc = fs_config_index_refs(c->cfg, &c->mainline_, &c->stable_globs_,
				  &c->iopts.nstable_globs, err);
	if (rc < 0)
		return rc;
	c->iopts.mainline = c->mainline_;
	c->iopts.stable_globs = (const char *const *)c->stable_globs_;
	return read_branch_names(c, err);
}

/* The user's addresses: notmuch's user.primary_email and
 * user.other_email (a list separated by ';'), and git's user.email. */
static void read_own_addresses(struct cli_ctx *c)
{
	const char *keys[] = { "user.primary_email", "user.other_email" };
	GPtrArray *v = g_ptr_array_new();
	char *git_email = NULL;
	size_t k, i;

	for (k = 0; k <= G_N_ELEMENTS(keys); k++) {
		const char *value = k < G_N_ELEMENTS(keys) && c->store ?
				    fs_store_config(c->store, keys[k]) : NULL;
		char **parts;
		if (k == G_N_ELEMENTS(keys) && c->cfg &&
		    fs_config_get_string(c->cfg, "user.email", &git_email) == 0)
			value = git_email;
		parts = value ? g_strsplit_set(value, ";, ", -1) : NULL;
		for (i = 0; parts && parts[i]; i++)
			if (*parts[i])
				g_ptr_array_add(v, g_strdup(parts[i]));
		g_strfreev(parts);
	}
	free(git_email);
	g_ptr_array_add(v, NULL);
	c->own_addresses_ = (char **)g_ptr_array_free(v, FALSE);
	c->ropts.own_addresses = (const char *const *)c->own_addresses_;
}

int cli_ctx_open_store(struct cli_ctx *c, bool optional, struct fs_error *err)
{
	struct fs_error serr = FS_ERROR_INIT;
	int rc = fs_store_open(&c->store, false, 5.0, &serr);

	if (rc == 0) {
		read_own_addresses(c);
		return 0;
	}
	c->store = NULL;
	if (optional && rc != FS_ELOCKED) {
		/* git's user.email still says whose mail is whose */
		read_own_addresses(c);
		return 0;
	}
	*err = serr;
	return rc;
}

int cli_ctx_open_index(struct cli_ctx *c, struct fs_error *err)
{
	int rc;

	/* A wrong fixscan.vulns fails before the index takes its time. */
	rc = cli_ctx_open_vulns(c, err);
	if (rc < 0)
		return rc;
	c->iopts.repo_path = c->repo;
	/* A cold or outdated cache takes seconds to bring up to date: the
	 * same progress line as fixscan index, on a terminal. */
	cli_progress_attach(&c->progress, &c->iopts, cli_progress_wanted());
	rc = fs_index_open(&c->idx, &c->iopts, &c->istats, err);
	cli_progress_done(&c->progress);
	if (rc < 0)
		return rc;
	if (c->istats.note[0])
		fprintf(stderr, "fixscan: %s\n", c->istats.note);
	if (!c->no_index_note)
		cli_index_note(c->repo, &c->istats);
	/* The mainline tip's time, so that ids a clone older than the
	 * thread lacks are not taken for wrong ones (a repository that
	 * cannot say leaves the check out), and the reader of the reasons
	 * stable-only reverts give. */
	{
		struct fs_error e = FS_ERROR_INIT;
		if (fs_index_mainline_time(c->idx, c->repo, &c->ropts.mainline_time, &e) < 0)
			c->ropts.mainline_time = 0;
	}
	c->ropts.message = fs_index_read_message;
	c->ropts.message_data = c->repo;
	return 0;
}

void cli_clone_age_notice(const struct cli_ctx *c, const struct fs_review *r, bool *said)
{
	char tip[16], thread[16];
	time_t a = (time_t)c->ropts.mainline_time, b = (time_t)r->thread_time;
	struct tm tm;

	if (!r->stale_clone || *said)
		return;
	*said = true;
	strftime(tip, sizeof(tip), "%Y-%m-%d", gmtime_r(&a, &tm));
	strftime(thread, sizeof(thread), "%Y-%m-%d", gmtime_r(&b, &tm));
	cli_note("mainline in %s ends on %s, older than this thread (%s): run git fetch",
		 c->repo, tip, thread);
}

int cli_ctx_identity(const struct cli_ctx *c, struct fs_identity *out, struct fs_error *err)
{
	char *git_name = NULL, *git_email = NULL;
	int rc;

	if (c->cfg) {
		fs_config_get_string(c->cfg, "user.name", &git_name);
		fs_config_get_string(c->cfg, "user.email", &git_email);
	}
	rc = fs_identity_pick(out, c->store ? fs_store_config(c->store, "user.name") : NULL,
			      c->store ? fs_store_config(c->store, "user.primary_email") : NULL,
			      git_name, git_email, err);
	free(git_name);
	free(git_email);
	return rc;
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
	char *mainline = NULL, **stable = NULL;
	size_t nstable = 0;
	int rc;

	if (fs_config_open(&cfg, repo, NULL) < 0)
		(void)fs_config_open(&cfg, NULL, NULL);
	rc = fs_config_index_refs(cfg, &mainline, &stable, &nstable, err);
	fs_config_free(cfg);
	opts->repo_path = repo;
	opts->mainline = mainline;
	opts->stable_globs = (const char *const *)stable;
	opts->nstable_globs = nstable;
	cli_progress_attach(&prog, opts, progress);
	if (rc == 0)
		rc = fs_index_open(idx, opts, stats, err);
	cli_progress_done(&prog);
	/* The options must not point at what is freed here. */
	opts->mainline = NULL;
	opts->stable_globs = NULL;
	opts->nstable_globs = 0;
	free(mainline);
	fs_config_strv_free(stable);
	return rc;
}

void cli_ctx_close(struct cli_ctx *c)
{
	fs_index_free(c->idx);
	fs_vulns_free(c->vulns);
	fs_store_free(c->store);
	fs_ignore_free(c->ignore);
	fs_config_free(c->cfg);
	free(c->branch_names_);
	fs_config_strv_free(c->branch_keys_);
	fs_config_strv_free(c->branch_values_);
	free(c->mainline_);
	fs_config_strv_free(c->stable_globs_);
	g_strfreev(c->own_addresses_);
	g_free(c->drafts_state_);
	g_free(c->draft_signature_);
	g_free(c->draft_template_);
	if (c->answered_cache_)
		g_hash_table_destroy(c->answered_cache_);
	free(c->repo);
	memset(c, 0, sizeof(*c));
}

/* ---- drafts -------------------------------------------------------------- */

/* $XDG_STATE_HOME/fixscan/NAME, else ~/.local/state/fixscan/NAME (the XDG
 * base directory rules: a relative XDG_STATE_HOME is ignored), or NULL
 * with neither that nor HOME.  New string (g_free()). */
static char *state_path(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return g_build_filename(xdg, "fixscan", name, NULL);
	if (home && *home)
		return g_build_filename(home, ".local", "state", "fixscan", name, NULL);
	return NULL;
}

char *cli_state_path(const char *name)
{
	return state_path(name);
}

void cli_drafts_opts(struct cli_ctx *c, struct fs_drafts_save_opts *opts, bool force)
{
	if (!c->drafts_state_)
		c->drafts_state_ = state_path("drafts");
	opts->state_file = c->drafts_state_;
	opts->own = c->ropts.own_addresses;
	opts->force = force;
}

/* Whether the user answered patch P (fs_drafts_answered()), asked of
 * the store once per patch. */
static bool patch_answered(void *data, const struct fs_patch *p)
{
	struct cli_ctx *c = data;
	const char *id = fs_patch_message_id(p);
	gpointer hit;
	bool answered;

	if (!id || !c->store)
		return false;
	if (!c->answered_cache_)
		c->answered_cache_ = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (g_hash_table_lookup_extended(c->answered_cache_, id, NULL, &hit))
		return hit != NULL;
	answered = fs_drafts_answered(c->store, id, c->ropts.own_addresses);
	g_hash_table_insert(c->answered_cache_, g_strdup(id), answered ? (gpointer)1 : NULL);
	return answered;
}

/* The text of the file git config KEY names into *OUT (NULL when KEY is
 * unset), trailing white space kept; WHAT names it in errors. */
static int read_config_file(struct cli_ctx *c, const char *key, const char *what, char **out,
			    struct fs_error *err)
{
	char *path = NULL;
	GError *gerr = NULL;
	struct stat st;
	FILE *fp;
	int rc = 0;

	*out = NULL;
	st.st_mode = 0;
	if (!c->cfg || fs_config_get_path(c->cfg, key, &path) < 0 || !path || !*path) {
		free(path);
		return 0;
	}
	fp = fopen(path, "r");
	if (fp && (fstat(fileno(fp), &st) < 0 || !S_ISREG(st.st_mode)))
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	if (!fp || !S_ISREG(st.st_mode) || !g_file_get_contents(path, out, NULL, &gerr)) {
		rc = fs_error_set(err, FS_EIO, "cannot read the %s '%s' (%s): %s", what, path, key,
				  gerr ? gerr->message : strerror(errno));
		if (gerr)
			g_error_free(gerr);
		*out = NULL;
	} else if (!g_utf8_validate(*out, -1, NULL) || strlen(*out) > 64 * 1024) {
		rc = fs_error_set(err, FS_EUSAGE, "the %s '%s' (%s) is not UTF-8 text of at most 64 KiB",
				  what, path, key);
		g_free(*out);
		*out = NULL;
	}
	if (fp)
		fclose(fp);
	free(path);
	return rc;
}

int cli_ctx_draft_opts(struct cli_ctx *c, int mode, bool every, time_t now,
		       struct fs_error *err)
{
	struct fs_draft_opts init = FS_DRAFT_OPTS_INIT;
	int rc;

	c->draft_opts = init;
	c->draft_opts.mode = mode;
	c->draft_opts.every_finding = every;
	c->draft_opts.now = now;
	c->draft_opts.answered = patch_answered;
	c->draft_opts.answered_data = c;
	rc = read_config_file(c, "fixscan.signature", "signature file", &c->draft_signature_, err);
	if (rc == 0)
		rc = read_config_file(c, "fixscan.draftTemplate", "draft template", &c->draft_template_,
				      err);
	if (rc == 0 && c->draft_template_ &&
	    (rc = fs_draft_template_check(c->draft_template_, err)) < 0) {
		char *path = NULL;

		fs_config_get_path(c->cfg, "fixscan.draftTemplate", &path);
		fs_error_prefix(err, "draft template '%s' (fixscan.draftTemplate)", path ? path : "?");
		free(path);
	}
	c->draft_opts.signature = c->draft_signature_;
	c->draft_opts.template_text = c->draft_template_;
	return rc;
}

char *cli_drafts_skipped(const struct fs_drafts_saved *s)
{
	GString *line = g_string_new(NULL);

	if (s->answered)
		g_string_append_printf(line, "%zu you answered already", s->answered);
	if (s->deleted)
		g_string_append_printf(line, "%s%zu you deleted (--force writes %s again)",
				       line->len ? ", " : "", s->deleted,
				       s->deleted == 1 ? "it" : "them");
	if (!line->len) {
		g_string_free(line, TRUE);
		return NULL;
	}
	g_string_prepend(line, "draft: skipped ");
	return g_string_free(line, FALSE);
}

/* ---- threads and queries ------------------------------------------------- */

int cli_load_threads(struct fs_store *store, const char *query,
		     struct fs_thread ***out, size_t *nout, struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	size_t i;
	int rc;

	rc = fs_review_load(out, nout, store, query, &notes, err);
	for (i = 0; i < notes.n; i++)
		cli_note("%s", notes.v[i]);
	fs_review_notes_clear(&notes);
	return rc;
}

int cli_load_source(const struct fs_source *src, struct fs_thread ***out, size_t *nout,
		    struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	size_t i;
	int rc;

	rc = fs_source_load(out, nout, src, &notes, err);
	for (i = 0; i < notes.n; i++)
		cli_note("%s", notes.v[i]);
	fs_review_notes_clear(&notes);
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

const char *cli_store_config(struct fs_store *store, const char *key, const char *old_key)
{
	const char *v;

	if (!store)
		return NULL;
	if ((v = fs_store_config(store, key)) || !old_key)
		return v;
	if ((v = fs_store_config(store, old_key)))
		cli_note("the notmuch config key %s is now %s (notmuch config set %s '%s')",
			 old_key, key, key, v);
	return v;
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
