/* fixscan: the command table.  Each command lives in cli/cmd-<name>.c; this
 * file only dispatches, and prints the one error a command returns. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

struct cli_command {
	const char *name;
	cli_fn fn;
	const char *summary;
	bool pager;    /* its output goes through the pager on a terminal */
};

static const struct cli_command commands[] = {
	/* check writes into the mail client's own screen; check --short
	 * starts the pager itself. */
	{ "check", cmd_check, "check one patch mail from standard input or a file (for mutt)", false },
	{ "digest", cmd_digest, "the risky patches of the review threads that arrived lately", true },
	{ "index", cmd_index, "build or update the fixes index of the kernel repository", false },
	{ "parse", cmd_parse, "print the headers and changelog tags of patch mails", true },
	{ "review", cmd_review, "review a stable review thread from the notmuch store", true },
	{ "show", cmd_show, "show what the index knows of commits: fixes, reverts, backports", true },
	{ "stats", cmd_stats, "how many patches of a stable series needed a fix from it", true },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: fixscan [--version] [--help] [-C PATH] [--no-pager] <command> [<args>]\n\n"
		     "commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'fixscan help <command>' or 'fixscan <command> --help' describes one command.\n");
}

static const struct cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* Edit distance between A and B, counting a swap of two neighbours as
 * one edit (typing "reveiw" for "review"); both are short. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[32][32];

	if (la >= 32 || lb >= 32)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* How far NAME is from command C: its edit distance, or 1 when NAME
 * is the start of C ("rev" for "review"). */
static size_t how_far(const char *name, const struct cli_command *c)
{
	if (*name && !strncmp(c->name, name, strlen(name)))
		return 1;
	return distance(name, c->name);
}

/* "fixscan: 'NAME' is not a command", and the commands it may have
 * meant: the nearest ones, when within two edits. */
static int unknown_command(const char *name)
{
	size_t i, best = 3, n = 0;

	for (i = 0; i < NCOMMANDS; i++) {
		size_t d = how_far(name, &commands[i]);
		if (d < best) {
			best = d;
			n = 0;
		}
		n += d == best;
	}
	cli_note("'%s' is not a command (see 'fixscan --help')", name);
	if (best > 2)
		return FS_EXIT_TROUBLE;
	fprintf(stderr, "\nThe most similar command%s\n", n > 1 ? "s are" : " is");
	for (i = 0; i < NCOMMANDS; i++)
		if (how_far(name, &commands[i]) == best)
			fprintf(stderr, "\t%s\n", commands[i].name);
	return FS_EXIT_TROUBLE;
}

/* Whether man(1) runs and has PAGE. */
static bool man_has(const char *page)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execlp("man", "man", "-w", page, (char *)NULL);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* fixscan help [COMMAND]: the command's man page, as git help and
 * notmuch help do; its --help text when man cannot be run. */
static int help(int argc, char **argv, struct fs_error *err)
{
	const struct cli_command *c;
	char page[64], *help_argv[3];

	if (argc < 2) {
		usage(stdout);
		return FS_EXIT_CLEAN;
	}
	if (!(c = find_command(argv[1])))
		return unknown_command(argv[1]);
	snprintf(page, sizeof(page), "fixscan-%s", c->name);
	if (man_has(page))
		execlp("man", "man", page, (char *)NULL);
	/* No man, or the pages are not installed (a build tree): the
	 * short help will do. */
	help_argv[0] = (char *)c->name;
	help_argv[1] = (char *)"--help";
	help_argv[2] = NULL;
	return c->fn(2, help_argv, err);
}

/* The command's exit status, or trouble when standard output could not
 * be written.  A reader that went away (fixscan ... | head) is no
 * trouble worth a word, as with git. */
static int finish(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (errno == EPIPE)
		return rc;
	fprintf(stderr, "fixscan: cannot write to standard output: %s\n", strerror(errno));
	return FS_EXIT_TROUBLE;
}

int main(int argc, char **argv)
{
	struct fs_error err = FS_ERROR_INIT;
	const struct cli_command *c;
	bool no_pager = false;
	int rc;

	/* A closed pipe shows as EPIPE from a write, handled in finish(). */
	signal(SIGPIPE, SIG_IGN);
	/* Before a pager can take standard output. */
	cli_stdout_is_tty();
	/* -C PATH, as git: run as if started in PATH; --no-pager. */
	while (argc >= 2 && (!strcmp(argv[1], "-C") || !strcmp(argv[1], "--no-pager"))) {
		if (!strcmp(argv[1], "--no-pager")) {
			no_pager = true;
			cli_pager_off();
			argc--;
			argv++;
			continue;
		}
		if (argc < 3)
			return cli_usage_error("-C", "needs a directory");
		if (chdir(argv[2]) < 0) {
			cli_note("cannot change to '%s': %s", argv[2], strerror(errno));
			return FS_EXIT_TROUBLE;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc < 2) {
		usage(stderr);
		return FS_EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return FS_EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("fixscan %s\n", FIXSCAN_VERSION);
		return finish(FS_EXIT_CLEAN);
	}
	if (!strcmp(argv[1], "help"))
		rc = help(argc - 1, argv + 1, &err);
	else if ((c = find_command(argv[1]))) {
		if (c->pager && !no_pager && cli_start_pager() < 0)
			cli_note("cannot start the pager: %s", strerror(errno));
		rc = c->fn(argc - 1, argv + 1, &err);
	}
	else
		return unknown_command(argv[1]);
	if (rc < 0) {
		cli_error(&err);
		return FS_EXIT_TROUBLE;
	}
	return finish(rc);
}
