/* fixscan stats: how many patches of a stable series later needed a fix
 * from the same series. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/report.h"
#include "fixscan/stats.h"

static const char usage_text[] =
	"usage: fixscan stats [--repo PATH] [--no-update] [--json] [--list] [--color[=WHEN]]\n"
	"                     RANGE...\n"
	"\n"
	"For each RANGE of a stable branch (\"v4.4..v4.4.14\", or a branch name\n"
	"such as \"linux-4.4.y\" for the release it forked from up to its tip):\n"
	"its patches, those carrying a Fixes: tag or revert line, the pairs of\n"
	"patches of the range where one fixes or reverts the other, and the\n"
	"regression rate as a range from fixed/patches to fixed/with-fixes.\n"
	"\n"
	"    --repo PATH   the kernel repository\n"
	"    --no-update   use the index as it is, even if the refs moved\n"
	"    --list        also list the pairs: introducing and fixing patch\n"
	"    --json        one JSON object with the rows and the pairs\n"
	"    --color[=WHEN] bold headings: always, never or auto (the default:\n"
	"                  fixscan.color, else color.ui, else auto: on a\n"
	"                  terminal, unless NO_COLOR is set)\n"
	"    -h, --help    show this help\n";

/* Columns on a terminal, not bytes: the en dash of "2.3%–6.2%" is three
 * bytes of UTF-8. */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void put_cell(const char *s, int width, int right, int last)
{
	int pad = width - columns(s);

	if (right)
		printf("%*s%s", pad > 0 ? pad : 0, "", s);
	else if (last)
		fputs(s, stdout);
	else
		printf("%s%*s", s, pad > 0 ? pad : 0, "");
	fputs(last ? "\n" : " | ", stdout);
}

/* 1712 -> "1,712", as the article writes counts. */
static void thousands(char buf[32], size_t n)
{
	char tmp[32];
	int len, i, j = 0;

	len = snprintf(tmp, sizeof(tmp), "%zu", n);
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
}

#define NCOLS 7

static void row_cells(const struct fs_stats *st, char cells[NCOLS][96])
{
	struct fs_stats_counts k;
	char a[FS_STATS_PERCENT_MAX], b[FS_STATS_PERCENT_MAX];

	fs_stats_get_counts(st, &k);
	snprintf(cells[0], 96, "%s", fs_stats_series(st));
	thousands(cells[1], k.patches);
	thousands(cells[2], k.with_fixes);
	thousands(cells[3], k.fixed);
	fs_stats_percent(a, k.fixed, k.patches);
	fs_stats_percent(b, k.fixed, k.with_fixes);
	snprintf(cells[4], 96, "%s\u2013%s", a, b);
	fs_stats_percent(cells[5], k.mapped, k.patches);
	snprintf(cells[6], 96, "%s", fs_stats_spec(st));
}

static void print_table(struct fs_stats **rows, int n, bool color)
{
	static const char *const head[NCOLS] = {
		"Series", "Patches", "Fixes:", "# fixed", "%regressions", "Mapped", "Range",
	};
	static const int right[NCOLS] = { 0, 1, 1, 1, 0, 1, 0 };
	char (*cells)[NCOLS][96] = calloc(n ? n : 1, sizeof(*cells));
	int width[NCOLS], i, j;

	if (!cells)
		return;
	for (j = 0; j < NCOLS; j++)
		width[j] = columns(head[j]);
	for (i = 0; i < n; i++) {
		row_cells(rows[i], cells[i]);
		for (j = 0; j < NCOLS; j++)
			if (columns(cells[i][j]) > width[j])
				width[j] = columns(cells[i][j]);
	}
	fputs(CLI_COLOR_HEAD(color), stdout);
	for (j = 0; j < NCOLS - 1; j++)
		put_cell(head[j], width[j], 0, 0);
	printf("%s%s\n", head[NCOLS - 1], CLI_COLOR_RESET(color));
	for (i = 0; i < n; i++)
		for (j = 0; j < NCOLS; j++)
			put_cell(cells[i][j], width[j], right[j], j == NCOLS - 1);
	free(cells);
}

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static void print_pairs(const struct fs_stats *st, bool color)
{
	const struct fs_stats_pair *pv;
	size_t n, i;
	int rw = 0, w;

	pv = fs_stats_pairs(st, &n);
	printf("\n%s%s-stable patches with bugs (%s)%s\n", CLI_COLOR_HEAD(color), fs_stats_series(st),
	       fs_stats_spec(st), CLI_COLOR_RESET(color));
	for (i = 0; i < n; i++) {
		w = columns(or_dash(fs_stats_patch_release(st, pv[i].introducer)));
		rw = w > rw ? w : rw;
		w = columns(or_dash(fs_stats_patch_release(st, pv[i].fixer)));
		rw = w > rw ? w : rw;
	}
	printf("%s%-*s | %s%s\n", CLI_COLOR_HEAD(color), rw + 3 + 16, "Introduced", "Fixed",
	       CLI_COLOR_RESET(color));
	for (i = 0; i < n; i++)
		printf("%-*s | %.16s | %-*s | %.16s\n",
		       rw, or_dash(fs_stats_patch_release(st, pv[i].introducer)),
		       fs_stats_patch_id(st, pv[i].introducer),
		       rw, or_dash(fs_stats_patch_release(st, pv[i].fixer)),
		       fs_stats_patch_id(st, pv[i].fixer));
}

static void json_patch(struct fs_json *b, const char *key, const struct fs_stats *st, size_t p)
{
	fs_json_member(b, key);
	fs_json_begin_object(b);
	fs_json_str(b, "release", fs_stats_patch_release(st, p));
	fs_json_str(b, "id", fs_stats_patch_id(st, p));
	fs_json_str(b, "subject", fs_stats_patch_subject(st, p));
	fs_json_end_object(b);
}

static void json_percent(struct fs_json *b, const char *key, size_t num, size_t den)
{
	char buf[FS_STATS_PERCENT_MAX];

	/* A string, as printed: a double would come out as 2.2999999... */
	fs_json_str(b, key, den ? fs_stats_percent(buf, num, den) : NULL);
}

static void print_json(struct fs_stats **rows, int n)
{
	struct fs_json *b = fs_json_new();
	const struct fs_stats_pair *pv;
	struct fs_stats_counts k;
	char cells[NCOLS][96];
	size_t np, j;
	int i;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
	fs_json_member(b, "rows");
	fs_json_begin_array(b);
	for (i = 0; i < n; i++) {
		fs_stats_get_counts(rows[i], &k);
		row_cells(rows[i], cells);
		fs_json_begin_object(b);
		fs_json_str(b, "series", fs_stats_series(rows[i]));
		fs_json_str(b, "range", fs_stats_spec(rows[i]));
		fs_json_str(b, "base", fs_stats_base(rows[i]));
		fs_json_int(b, "patches", (long)k.patches);
		fs_json_int(b, "mapped", (long)k.mapped);
		fs_json_int(b, "with_fixes", (long)k.with_fixes);
		fs_json_int(b, "fixed", (long)k.fixed);
		json_percent(b, "floor", k.fixed, k.patches);
		json_percent(b, "ceiling", k.fixed, k.with_fixes);
		json_percent(b, "mapped_percent", k.mapped, k.patches);
		fs_json_str(b, "regressions", cells[4]);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_member(b, "pairs");
	fs_json_begin_array(b);
	for (i = 0; i < n; i++) {
		pv = fs_stats_pairs(rows[i], &np);
		for (j = 0; j < np; j++) {
			fs_json_begin_object(b);
			fs_json_str(b, "series", fs_stats_series(rows[i]));
			fs_json_str(b, "range", fs_stats_spec(rows[i]));
			json_patch(b, "introduced", rows[i], pv[j].introducer);
			json_patch(b, "fixed", rows[i], pv[j].fixer);
			fs_json_end_object(b);
		}
	}
	fs_json_end_array(b);
	fs_json_end_object(b);
	fs_json_print_line(b, stdout);
	fs_json_free(b);
}

int cmd_stats(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, 'l' },
		{ "color", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_index_opts opts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats istats;
	struct fs_index *idx = NULL;
	struct fs_stats **rows = NULL;
	const char *repo_flag = NULL, *color_when = NULL;
	char *repo = NULL;
	int c, json = 0, list = 0, rc, i, nrows = 0;
	bool color = false;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'r': repo_flag = optarg; break;
		case 'N': opts.no_update = true; break;
		case 'j': json = 1; break;
		case 'l': list = 1; break;
		case 'c': color_when = optarg ? optarg : "always"; break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cli_usage_error(argv[0], "no RANGE given");
	rc = cli_repo_path(repo_flag, &repo, err);
	if (rc == 0)
		rc = cli_color_for_repo(argv[0], color_when, repo, &color, err);
	if (rc < 0) {
		g_free(repo);
		return rc;
	}
	opts.repo_path = repo;
	rc = cli_open_index(&idx, repo, &opts, cli_progress_wanted(), &istats, err);
	if (rc < 0)
		goto out;
	if (istats.note[0])
		fprintf(stderr, "fixscan: %s\n", istats.note);
	cli_index_note(repo, &istats);
	rows = calloc(argc - optind, sizeof(*rows));
	if (!rows) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	/* Every range is measured before anything is printed, so a bad one
	 * gives one error line and no half table. */
	for (i = optind; i < argc; i++) {
		rc = fs_stats_compute(&rows[nrows], idx, repo, argv[i], err);
		if (rc < 0)
			goto out;
		nrows++;
	}
	if (json) {
		print_json(rows, nrows);
	} else {
		print_table(rows, nrows, color);
		for (i = 0; list && i < nrows; i++)
			print_pairs(rows[i], color);
	}
	rc = FS_EXIT_CLEAN;
out:
	for (i = 0; i < nrows; i++)
		fs_stats_free(rows[i]);
	free(rows);
	fs_index_free(idx);
	g_free(repo);
	return rc;
}
