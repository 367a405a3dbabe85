/* fixscan show: what the fixes index knows of commits. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/text.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/report.h"
#include "fixscan/vulns.h"

static const char usage_text[] =
	"usage: fixscan show [--repo PATH] [--no-update] [--json] [--color[=WHEN]] COMMIT...\n"
	"\n"
	"For each COMMIT (an id or an abbreviation of at least 4 hex digits):\n"
	"its subject, branch and release, the mainline commit it backports, its\n"
	"backports per stable branch, the commits its own tags name, and every\n"
	"commit that fixes or reverts it, transitively; with CVE data, the CVEs\n"
	"each of them fixes, and the fixes CVE records name.\n"
	"\n"
	"    --repo PATH   the kernel repository\n"
	"    --no-update   use the index as it is, even if the refs moved\n"
	"    --json        one JSON object per commit, one per line\n"
	"    --vulns PATH  the kernel CNA's vulns clone, for CVE ids (default:\n"
	"                  fixscan.vulns)\n"
	"    --color[=WHEN] colour the commit lines: always, never or auto (the\n"
	"                  default: fixscan.color, else color.ui, else auto: on a\n"
	"                  terminal, unless NO_COLOR is set)\n"
	"    -h, --help    show this help\n";

#define MAX_LIST 256
#define MAX_CVES 32

/* The CVE data, when fixscan.vulns or --vulns names it. */
static struct fs_vulns *vulns;

/* " CVE-2024-1 CVE-2024-2" of commit C, on OUT. */
static void print_cves(FILE *out, const struct fs_index *idx, fs_cid c)
{
	const char *ids[MAX_CVES];
	char hex[41];
	size_t n, i;

	fs_index_commit_hex(idx, c, hex);
	n = fs_vulns_cves(vulns, hex, ids, MAX_CVES);
	for (i = 0; i < n && i < MAX_CVES; i++)
		fprintf(out, " %s", ids[i]);
}

/* The fixes of C that CVE records name (C is their vulnerable commit)
 * and no tag does: up to MAX in OUT with their CVE in CVES; how many. */
static size_t cve_fixes(const struct fs_index *idx, fs_cid c, const struct fs_index_fix *known,
			int nknown, fs_cid *out, const char **cves, size_t max)
{
	struct fs_vulns_fix vf[MAX_CVES];
	char hex[41];
	size_t n, i, k = 0;
	int j;

	fs_index_commit_hex(idx, c, hex);
	n = fs_vulns_fixes_of(vulns, hex, vf, MAX_CVES);
	for (i = 0; i < n && i < MAX_CVES && k < max; i++) {
		fs_cid f;
		if (fs_index_resolve(idx, vf[i].fix, &f, NULL) < 0 || f == c)
			continue;
		for (j = 0; j < nknown && known[j].fixer != f; j++)
			;
		if (j < nknown)
			continue;
		out[k] = f;
		cves[k++] = vf[i].cve;
	}
	return k;
}

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static void print_text(FILE *out, const struct fs_index *idx, fs_cid c)
{
	const char *cves[MAX_CVES];
	struct fs_index_ref refs[MAX_LIST];
	fs_cid list[MAX_LIST];
	struct fs_index_fix *fixes = NULL;
	char hex[41], other[41];
	size_t n, i;
	int nf;
	fs_cid up;

	fs_index_commit_hex(idx, c, hex);
	fprintf(out, "commit %s\n", hex);
	fprintf(out, "  subject:  %s\n", fs_index_commit_subject(idx, c));
	fprintf(out, "  branch:   %s\n", fs_index_commit_branch(idx, c));
	fprintf(out, "  release:  %s\n", or_dash(fs_index_commit_release(idx, c)));
	if (fs_vulns_cves(vulns, hex, NULL, 0)) {
		fputs("  cve:     ", out);
		print_cves(out, idx, c);
		fputc('\n', out);
	}
	up = fs_index_upstream_of(idx, c);
	if (up != FS_CID_NONE) {
		fs_index_commit_hex(idx, up, other);
		fprintf(out, "  upstream: %.12s (\"%s\") %s\n", other,
		       fs_index_commit_subject(idx, up), or_dash(fs_index_commit_release(idx, up)));
	}
	n = fs_index_backports(idx, c, list, MAX_LIST);
	for (i = 0; i < n && i < MAX_LIST; i++) {
		fs_index_commit_hex(idx, list[i], other);
		fprintf(out, "  backport: %.12s %s %s\n", other, fs_index_commit_branch(idx, list[i]),
		       or_dash(fs_index_commit_release(idx, list[i])));
	}
	n = fs_index_commit_refs(idx, c, refs, MAX_LIST);
	for (i = 0; i < n && i < MAX_LIST; i++) {
		enum fs_evidence ev;
		bool mismatch;
		fs_cid t = fs_index_ref_target(idx, &refs[i], &ev, &mismatch);
		fprintf(out, "  %-9s %s", fs_ref_kind_name(refs[i].kind), refs[i].hex);
		if (refs[i].subject)
			fprintf(out, " (\"%s\")", refs[i].subject);
		if (t == FS_CID_NONE) {
			fprintf(out, " -> unknown\n");
			continue;
		}
		fs_index_commit_hex(idx, t, other);
		fprintf(out, " -> %.12s [%s%s]\n", other, fs_evidence_name(ev),
		       mismatch ? ", id does not match subject" : "");
	}
	nf = fs_index_fixes_of(idx, c, &fixes);
	for (i = 0; nf > 0 && i < (size_t)nf; i++) {
		fs_index_commit_hex(idx, fixes[i].fixer, other);
		fprintf(out, "  %*s%s %.12s (\"%s\") %s %s [%s]", (int)(fixes[i].depth - 1) * 2, "",
		       fixes[i].revert ? "reverted-by" : "fixed-by", other,
		       fs_index_commit_subject(idx, fixes[i].fixer),
		       fs_index_commit_branch(idx, fixes[i].fixer),
		       or_dash(fs_index_commit_release(idx, fixes[i].fixer)),
		       fs_evidence_name(fixes[i].evidence));
		print_cves(out, idx, fixes[i].fixer);
		fputc('\n', out);
	}
	n = cve_fixes(idx, c, fixes, nf, list, cves, MAX_CVES);
	for (i = 0; i < n; i++) {
		fs_index_commit_hex(idx, list[i], other);
		fprintf(out, "  fixed-by %.12s (\"%s\") %s %s [cve: %s names this commit as vulnerable]",
			other, fs_index_commit_subject(idx, list[i]),
			fs_index_commit_branch(idx, list[i]),
			or_dash(fs_index_commit_release(idx, list[i])), cves[i]);
		print_cves(out, idx, list[i]);
		fputc('\n', out);
	}
	g_free(fixes);
}

/* The text of C with control characters shown visibly: commit subjects
 * are anyone's words too. */
static void print_visible(const struct fs_index *idx, fs_cid c, bool color)
{
	char *buf = NULL, *rest;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	print_text(mem, idx, c);
	if (fclose(mem) == 0) {
		/* "commit <hex>": nothing to escape in it, and coloured as
		 * git colours it. */
		rest = strchr(buf, '\n');
		rest = rest ? rest + 1 : buf + len;
		printf("%s%.*s%s\n", CLI_COLOR_COMMIT(color), (int)(rest - buf - 1), buf,
		       CLI_COLOR_RESET(color));
		fs_text_fputs(rest, true, stdout);
	}
	free(buf);
}

static void json_commit_ref(struct fs_json *b, const struct fs_index *idx, fs_cid c)
{
	const char *ids[MAX_CVES];
	char hex[41];
	size_t n, i;

	fs_index_commit_hex(idx, c, hex);
	fs_json_str(b, "id", hex);
	fs_json_str(b, "subject", fs_index_commit_subject(idx, c));
	fs_json_str(b, "branch", fs_index_commit_branch(idx, c));
	fs_json_str(b, "release", fs_index_commit_release(idx, c));
	/* "cves" only for a commit that fixes one. */
	n = fs_vulns_cves(vulns, hex, ids, MAX_CVES);
	if (!n)
		return;
	fs_json_member(b, "cves");
	fs_json_begin_array(b);
	for (i = 0; i < n && i < MAX_CVES; i++)
		fs_json_add_str(b, ids[i]);
	fs_json_end_array(b);
}

static void print_json(struct fs_json *b, const struct fs_index *idx, fs_cid c)
{
	const char *cves[MAX_CVES];
	struct fs_index_ref refs[MAX_LIST];
	fs_cid list[MAX_LIST];
	struct fs_index_fix *fixes = NULL;
	char hex[41];
	size_t n, i;
	int nf;
	fs_cid up;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
	json_commit_ref(b, idx, c);
	up = fs_index_upstream_of(idx, c);
	fs_json_member(b, "upstream");
	if (up == FS_CID_NONE) {
		fs_json_add_null(b);
	} else {
		fs_json_begin_object(b);
		json_commit_ref(b, idx, up);
		fs_json_end_object(b);
	}
	fs_json_member(b, "backports");
	fs_json_begin_array(b);
	n = fs_index_backports(idx, c, list, MAX_LIST);
	for (i = 0; i < n && i < MAX_LIST; i++) {
		fs_json_begin_object(b);
		json_commit_ref(b, idx, list[i]);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_member(b, "refs");
	fs_json_begin_array(b);
	n = fs_index_commit_refs(idx, c, refs, MAX_LIST);
	for (i = 0; i < n && i < MAX_LIST; i++) {
		enum fs_evidence ev;
		bool mismatch;
		fs_cid t = fs_index_ref_target(idx, &refs[i], &ev, &mismatch);
		fs_json_begin_object(b);
		fs_json_str(b, "kind", fs_ref_kind_name(refs[i].kind));
		fs_json_str(b, "id", refs[i].hex);
		fs_json_str(b, "subject", refs[i].subject);
		if (t != FS_CID_NONE)
			fs_index_commit_hex(idx, t, hex);
		fs_json_str(b, "target", t != FS_CID_NONE ? hex : NULL);
		fs_json_str(b, "evidence", t != FS_CID_NONE ? fs_evidence_name(ev) : NULL);
		fs_json_bool(b, "mismatch", t != FS_CID_NONE && mismatch);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_member(b, "fixed_by");
	fs_json_begin_array(b);
	nf = fs_index_fixes_of(idx, c, &fixes);
	for (i = 0; nf > 0 && i < (size_t)nf; i++) {
		fs_json_begin_object(b);
		json_commit_ref(b, idx, fixes[i].fixer);
		fs_index_commit_hex(idx, fixes[i].fixed, hex);
		fs_json_str(b, "fixes", hex);
		fs_json_int(b, "depth", fixes[i].depth);
		fs_json_str(b, "kind", fixes[i].revert ? "revert" : "fix");
		fs_json_str(b, "evidence", fs_evidence_name(fixes[i].evidence));
		fs_json_end_object(b);
	}
	n = cve_fixes(idx, c, fixes, nf, list, cves, MAX_CVES);
	for (i = 0; i < n; i++) {
		fs_json_begin_object(b);
		json_commit_ref(b, idx, list[i]);
		fs_index_commit_hex(idx, c, hex);
		fs_json_str(b, "fixes", hex);
		fs_json_int(b, "depth", 1);
		fs_json_str(b, "kind", "fix");
		fs_json_str(b, "evidence", "cve");
		fs_json_str(b, "cve", cves[i]);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	g_free(fixes);
	fs_json_end_object(b);
}

int cmd_show(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "vulns", required_argument, NULL, 'V' },
		{ "color", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_index_opts opts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats stats;
	struct fs_index *idx = NULL;
	struct fs_json *b = NULL;
	const char *repo_flag = NULL, *vulns_flag = NULL, *color_when = NULL;
	char *repo = NULL;
	int c, json = 0, rc, status = FS_EXIT_CLEAN, i;
	bool color = false;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'r': repo_flag = optarg; break;
		case 'N': opts.no_update = true; break;
		case 'j': json = 1; break;
		case 'V': vulns_flag = optarg; break;
		case 'c': color_when = optarg ? optarg : "always"; break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cli_usage_error(argv[0], "no COMMIT given");
	rc = cli_repo_path(repo_flag, &repo, err);
	if (rc == 0)
		rc = cli_color_for_repo(argv[0], color_when, repo, &color, err);
	if (rc < 0) {
		g_free(repo);
		return rc;
	}
	opts.repo_path = repo;
	rc = cli_vulns_open(&vulns, vulns_flag, NULL, repo, err);
	if (rc < 0) {
		g_free(repo);
		return rc;
	}
	rc = cli_open_index(&idx, repo, &opts, cli_progress_wanted(), &stats, err);
	if (rc < 0) {
		fs_vulns_free(vulns);
		vulns = NULL;
		g_free(repo);
		return rc;
	}
	if (stats.note[0])
		fprintf(stderr, "fixscan: %s\n", stats.note);
	cli_index_note(repo, &stats);
	if (json)
		b = fs_json_new();
	for (i = optind; i < argc; i++) {
		struct fs_error one = FS_ERROR_INIT;
		fs_cid cid;
		if (fs_index_resolve(idx, argv[i], &cid, &one) < 0) {
			cli_error(&one);
			status = FS_EXIT_TROUBLE;
			continue;
		}
		if (json) {
			print_json(b, idx, cid);
			fs_json_print_line(b, stdout);
		} else {
			if (i > optind)
				putchar('\n');
			print_visible(idx, cid, color);
		}
		/* Hundreds of ids touch most of a kernel-sized cache;
		 * giving the pages back every 64 keeps the memory to what
		 * 64 lookups touch, for a little more time. */
		if ((i - optind) % 64 == 63)
			fs_index_trim(idx);
	}
	if (b)
		fs_json_free(b);
	fs_index_free(idx);
	fs_vulns_free(vulns);
	vulns = NULL;
	g_free(repo);
	return status;
}
