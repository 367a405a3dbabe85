/* fixscan: a thread fetched from the public archives by b4 or lei (the
 * fetching half of FS_SOURCE_FETCH; source.c reads what it gives). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/source.h"
#include "fixscan/text.h"
#include "source-fetch.h"

extern char **environ;

#define ID_MAX 250

/* What is wrong with ID as a plain Message-Id, or NULL. */
static const char *id_problem(const char *id)
{
	const char *at = strchr(id, '@'), *p;

	if (!*id)
		return "it is empty";
	if (strlen(id) > ID_MAX)
		return "it is too long";
	if (*id == '-' || *id == '.')
		return "it starts with '-' or '.'";
	for (p = id; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			return "it holds white space";
		if (c < 0x20 || c == 0x7f)
			return "it holds a control character";
		if (c > 0x7e)
			return "it holds a character that is not ASCII";
		if (strchr("\"'`\\$;&|<>()[]*", c))
			return "it holds a shell or quote character";
	}
	if (!at || at == id || !at[1])
		return "it has no '@' between two parts";
	return NULL;
}

int fs_source_fetch_check_id(const char *id, struct fs_error *err)
{
	const char *why = id_problem(id);
	char *shown;
	int rc;

	if (!why)
		return 0;
	shown = fs_text_visible(id, false);
	rc = fs_error_set(err, FS_EUSAGE, "'%.*s' is no plain Message-Id (%s): not fetched",
			  200, shown ? shown : "", why);
	g_free(shown);
	return rc;
}

const char *fs_source_fetch_tool(void)
{
	static const char *const tools[] = { "b4", "lei" };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(tools); i++) {
		char *path = g_find_program_in_path(tools[i]);

		if (path) {
			g_free(path);
			return tools[i];
		}
	}
	return NULL;
}

/* The argument vector that fetches the thread of ID with TOOL (free with
 * g_strfreev()), or NULL for a tool fixscan does not know. */
static char **fetch_argv(const char *tool, const char *id)
{
	if (!strcmp(tool, "b4")) {
		const char *v[] = { "b4", "mbox", "-o", "-", "--", id, NULL };
		return g_strdupv((char **)v);
	}
	if (!strcmp(tool, "lei")) {
		char *term = g_strconcat("m:", id, NULL);
		const char *v[] = { "lei", "q", "--no-save", "-f", "mboxrd", "--threads", "--",
				    term, NULL };
		char **out = g_strdupv((char **)v);

		g_free(term);
		return out;
	}
	return NULL;
}

/* The last non-empty line of the file open on FD (what a program said
 * last on its standard error), shown safely; a new string (g_free()),
 * or NULL when there is none. */
static char *last_line(int fd)
{
	char buf[4096], *end, *start, *line;
	off_t size = lseek(fd, 0, SEEK_END);
	off_t from = size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0;
	ssize_t n;

	if (size <= 0 || lseek(fd, from, SEEK_SET) < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	end = buf + strlen(buf);
	while (end > buf && strchr("\r\n \t", end[-1]))
		*--end = '\0';
	if (end == buf)
		return NULL;
	start = strrchr(buf, '\n');
	start = start ? start + 1 : buf;
	line = fs_text_visible(start, false);
	start = line ? g_strndup(line, 300) : NULL;
	g_free(line);
	return start;
}

/* Wait for PID, at most TIMEOUT seconds; then kill it (*KILLED) and
 * reap it.  Returns 0 with *STATUS, or -1 with errno. */
static int wait_child(pid_t pid, int timeout, int *status, bool *killed)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout * G_USEC_PER_SEC;
	pid_t got;

	*killed = false;
	for (;;) {
		got = waitpid(pid, status, WNOHANG);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -1;
		if (!*killed && g_get_monotonic_time() >= end) {
			kill(pid, SIGKILL);
			*killed = true;
		}
		g_usleep(20000);
	}
}

/* Run ARGV with standard input /dev/null, standard output OUT_FD and
 * standard error ERR_FD, and wait for it, at most TIMEOUT seconds.
 * Returns 0 when it exits with status 0, else FS_EIO (FS_ENOTFOUND when
 * it cannot be run) with ERR saying so, in WHAT's name. */
static int run_child(char **argv, int out_fd, int err_fd, int timeout, const char *what,
		     struct fs_error *err)
{
	bool killed;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, e;
	char *said;

	if (posix_spawn_file_actions_init(&fa))
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	e = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	if (!e)
		e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e)
		return fs_error_set(err, e == ENOENT ? FS_ENOTFOUND : FS_EIO, "%s: cannot run %s: %s",
				    what, argv[0], strerror(e));
	if (wait_child(pid, timeout, &status, &killed) < 0)
		return fs_error_set(err, FS_EIO, "%s: %s", what, strerror(errno));
	if (killed)
		return fs_error_set(err, FS_EIO, "%s did not finish within %ds: stopped", what,
				    timeout);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	said = last_line(err_fd);
	if (WIFSIGNALED(status))
		e = fs_error_set(err, FS_EIO, "%s was killed by signal %d%s%s", what,
				 WTERMSIG(status), said ? ": " : "", said ? said : "");
	else
		e = fs_error_set(err, FS_EIO, "%s failed (exit status %d)%s%s", what,
				 WEXITSTATUS(status), said ? ": " : "", said ? said : "");
	g_free(said);
	return e;
}

/* A new temporary file, open for reading and writing, its name in *PATH
 * (g_free()).  Returns the descriptor or -1 with ERR set. */
static int temp_file(char **path, struct fs_error *err)
{
	GError *gerr = NULL;
	int fd = g_file_open_tmp("fixscan-fetch-XXXXXX", path, &gerr);

	if (fd < 0) {
		fs_error_set(err, FS_EIO, "cannot make a temporary file: %s",
			     gerr ? gerr->message : "unknown error");
		g_clear_error(&gerr);
	}
	return fd;
}

int fs_source_fetch_file(char **path, const char *id, const char *tool, int timeout,
			 struct fs_error *err)
{
	char **argv = NULL, *errpath = NULL, *what;
	int out_fd = -1, err_fd = -1, rc;
	struct stat st;

	*path = NULL;
	if ((rc = fs_source_fetch_check_id(id, err)) < 0)
		return rc;
	if (!tool && !(tool = fs_source_fetch_tool()))
		return fs_error_set(err, FS_ENOTFOUND,
				    "neither b4 nor lei is on PATH to fetch the thread of <%s>", id);
	if (!(argv = fetch_argv(tool, id)))
		return fs_error_set(err, FS_EUSAGE, "'%s' is no program fixscan fetches threads with",
				    tool);
	what = g_strdup_printf("%s %s <%s>", tool, !strcmp(tool, "b4") ? "mbox" : "q", id);
	out_fd = temp_file(path, err);
	if (out_fd >= 0 && (err_fd = temp_file(&errpath, err)) >= 0)
		unlink(errpath);
	if (timeout <= 0)
		timeout = FS_SOURCE_FETCH_TIMEOUT;
	rc = out_fd < 0 || err_fd < 0 ? FS_EIO :
		run_child(argv, out_fd, err_fd, timeout, what, err);
	if (rc == 0 && (fstat(out_fd, &st) < 0 || st.st_size == 0))
		rc = fs_error_set(err, FS_ENOTFOUND, "%s gave no mail", what);
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	if (rc < 0 && *path) {
		unlink(*path);
		g_free(*path);
		*path = NULL;
	}
	g_free(errpath);
	g_free(what);
	g_strfreev(argv);
	return rc;
}
