/* fixscan: the command table.  Each command lives in src/cmd-<name>.c; this
 * file only dispatches and prints the one error a command returns. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>

#include <git2.h>

#include "cli.h"
#include "fixscan/config.h"

struct cli_command {
	const char *name;
	cli_fn fn;
	const char *summary;
};

static const struct cli_command commands[] = {
	{ "check", cmd_check, "check one patch mail from standard input or a file (for mutt)" },
	{ "digest", cmd_digest, "the risky patches of the review threads that arrived lately" },
	{ "index", cmd_index, "build or update the fixes index of the kernel repository" },
	{ "parse", cmd_parse, "print the headers and changelog tags of patch mails" },
	{ "review", cmd_review, "review a stable review thread from the notmuch store" },
	{ "show", cmd_show, "show what the index knows of commits: fixes, reverts, backports" },
	{ "stats", cmd_stats, "how many patches of a stable series needed a fix from it" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: fixscan [--version] [--help] <command> [<args>]\n\n"
		     "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'fixscan <command> --help' describes one command.\n");
}

void cli_error(const struct fs_error *err)
{
	fprintf(stderr, "fixscan: %s\n",
		err->message[0] ? err->message : "unknown error");
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

int cli_repo_path(const char *flag, char **out, struct fs_error *err)
{
	struct fs_config *cfg = NULL;
	git_buf found = GIT_BUF_INIT;
	int rc;

	*out = NULL;
	if (flag) {
		*out = strdup(flag);
		return *out ? 0 : fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (fs_config_open(&cfg, NULL, NULL) == 0) {
		fs_config_get_string(cfg, "fixscan.repo", out);
		fs_config_free(cfg);
		if (*out)
			return 0;
	}
	git_libgit2_init();
	rc = git_repository_discover(&found, ".", 0, NULL);
	if (rc < 0) {
		git_libgit2_shutdown();
		return fs_error_set(err, FS_ENOTFOUND,
				    "no kernel repository: use --repo PATH or set fixscan.repo");
	}
	*out = strdup(found.ptr);
	git_buf_dispose(&found);
	git_libgit2_shutdown();
	return *out ? 0 : fs_error_set(err, FS_ENOMEM, "out of memory");
}

int cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

int main(int argc, char **argv)
{
	struct fs_error err = FS_ERROR_INIT;
	size_t i;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return FS_EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return FS_EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("fixscan %s\n", FIXSCAN_VERSION);
		return FS_EXIT_CLEAN;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		rc = commands[i].fn(argc - 1, argv + 1, &err);
		if (rc < 0) {
			cli_error(&err);
			return FS_EXIT_TROUBLE;
		}
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "fixscan: cannot write to standard output\n");
			return FS_EXIT_TROUBLE;
		}
		return rc;
	}
	fprintf(stderr, "fixscan: '%s' is not a command (see 'fixscan --help')\n",
		argv[1]);
	return FS_EXIT_TROUBLE;
}
