/* fixscan index: build or update the fixes index of the kernel repository. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/index.h"

static const char usage_text[] =
	"usage: fixscan index [--repo PATH] [--progress|--no-progress] [--rebuild]\n"
	"\n"
	"Build the fixes index of the kernel repository, or bring it up to date\n"
	"by reading only the commits it does not have yet.\n"
	"\n"
	"    --repo PATH     the kernel repository (default: the repository of the\n"
	"                    current directory when it is a kernel tree, else\n"
	"                    fixscan.repo)\n"
	"    --progress      show a progress line on stderr (default: when it is a\n"
	"                    terminal)\n"
	"    --no-progress   never show one\n"
	"    --rebuild       ignore the cache and index everything again\n"
	"    -h, --help      show this help\n";

int cmd_index(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "rebuild", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_index_opts opts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats stats;
	struct fs_index *idx = NULL;
	const char *repo_flag = NULL;
	char *repo = NULL;
	int c, want_progress = cli_progress_wanted(), rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'r': repo_flag = optarg; break;
		case 'p': want_progress = 1; break;
		case 'P': want_progress = 0; break;
		case 'R': opts.rebuild = true; break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	rc = cli_repo_path(repo_flag, &repo, err);
	if (rc < 0)
		return rc;
	opts.repo_path = repo;
	rc = cli_open_index(&idx, repo, &opts, want_progress, &stats, err);
	if (rc < 0) {
		g_free(repo);
		return rc;
	}
	if (stats.note[0])
		fprintf(stderr, "fixscan: %s\n", stats.note);
	/* Which repository: --repo, the current directory (after -C) and
	 * fixscan.repo all pick one, and the user should see which. */
	printf("indexed %zu commit%s (%zu new%s)", stats.commits,
	       stats.commits == 1 ? "" : "s", stats.new_commits,
	       stats.rebuilt && stats.new_commits ? ", full build" : "");
	/* fixscan.pending: the commits of the pending refs, apart */
	if (fs_index_pending_count(idx))
		printf(", %zu pending (%zu read)", fs_index_pending_count(idx), stats.pending_read);
	printf(" in %.2fs: %s\n", stats.seconds, repo);
	fs_index_free(idx);
	g_free(repo);
	return FS_EXIT_CLEAN;
}
