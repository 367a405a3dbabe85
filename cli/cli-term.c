/* fixscan: the terminal the commands print to (cli.h): whether it is
 * one, its width, the pager, colour, the progress line, and text
 * wrapped to the width. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/text.h"

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
	g_free(configured);
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
