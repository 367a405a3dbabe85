/* fixscan: the command table.  Each command lives in cli/cmd-<name>.c; this
 * file only dispatches and prints the one error a command returns. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

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
