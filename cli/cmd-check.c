/* fixscan check: the findings for the one message a mail client pipes in.
 *
 * Made for mutt's <pipe-message>: the message arrives on standard input
 * (nothing of it is ever put on a command line), and the output goes to
 * the pager, so it is plain text wrapped under 80 columns, without colour
 * or progress.  The patch is judged within its series when the notmuch
 * store has its thread, else on its own. */
#include <getopt.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/mail.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

#define CHECK_WIDTH 78

static const char usage_text[] =
	"usage: fixscan check [options] [FILE|-]\n"
	"\n"
	"Check the one message in FILE (default: standard input, as mutt's\n"
	"pipe-message gives it). Without --thread: the findings for that patch,\n"
	"judged within its series when the notmuch store has its thread, else\n"
	"on its own. Plain text under 80 columns, for a mail client's pager.\n"
	"\n"
	"    --thread         review the whole thread the message belongs to\n"
	"    --drafts[=WHICH] write draft replies into the drafts maildir: with\n"
	"                     --thread one per patch with findings and a summary\n"
	"                     to the cover (WHICH: all, the default; summary;\n"
	"                     patches), else the reply to this patch\n"
	"    --drafts-dir DIR the maildir for drafts (default: fixscan.drafts in\n"
	"                     the notmuch config, else <mail root>/Drafts)\n"
	"    --repo PATH      the kernel repository\n"
	"    --ignore FILE    pairs to silence (default: fixscan.ignore, or\n"
	"                     $XDG_CONFIG_HOME/fixscan/ignore)\n"
	"    --no-reports     do not search the store for regression reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    -h, --help       show this help\n"
	"\n"
	"A message that is not a stable patch gets one line saying so.\n"
	"Exit status: 0 no findings, 1 findings, 2 trouble.\n";

/* Print one line of TEXT wrapped at WIDTH columns (bytes; good enough
 * for the mostly ASCII text of reports).  Continuation lines are indented
 * four columns deeper than the line itself.  A word longer than the width
 * (a URL) is left whole. */
static void print_wrapped_line(FILE *out, const char *line, size_t len, int width)
{
	size_t indent = 0, col, start = 0;
	int first = 1;

	while (indent < len && line[indent] == ' ')
		indent++;
	if (width <= 0 || len <= (size_t)width) {
		fprintf(out, "%.*s\n", (int)len, line);
		return;
	}
	while (start < len) {
		size_t lead = first ? 0 : indent + 4;
		size_t room = (size_t)width > lead + 20 ? (size_t)width - lead : 20;
		size_t brk = len, i;

		if (!first)
			while (start < len && line[start] == ' ')
				start++;
		if (start >= len)
			break;
		if (len - start > room) {
			/* The last space within the room, else the first
			 * after it. */
			brk = 0;
			for (i = start + room; i > start; i--) {
				if (line[i] == ' ' && (first ? i > indent : 1)) {
					brk = i;
					break;
				}
			}
			if (!brk) {
				for (i = start + room; i < len && line[i] != ' '; i++)
					;
				brk = i;
			}
		}
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

/* Fill *ONE with review R narrowed to its patch PATCH, so the report's
 * header and summary (and the drafts) speak of that patch only.  *SERIES
 * is the storage for the narrowed series: what is missing from the series
 * is not this patch's business.  Both borrow from R. */
static void narrow_review(struct fs_review *one, struct fs_thread_series *series,
			  const struct fs_review *r, const struct fs_review_patch *patch)
{
	size_t k;

	*one = *r;
	*series = *r->series;
	series->nmissing = 0;
	series->duplicates = 0;
	one->series = series;
	one->patches = (struct fs_review_patch *)patch;
	one->npatches = 1;
	one->ignored = 0;
	one->problems = 0;
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		one->counts[k] = fs_findings_count(&patch->findings, k);
		if (fs_finding_kind_is_problem(k))
			one->problems += one->counts[k];
	}
	for (k = 0; k < patch->findings.n; k++)
		one->ignored += patch->findings.v[k].ignored != NULL;
}

/* Print the text report of R to stdout, wrapped; ALL lists patches
 * without findings too.  Returns R's number of problems, or -1. */
static int print_review(const struct fs_review *r, bool all)
{
	struct fs_report_opts popts = FS_REPORT_OPTS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	popts.color = false;
	popts.width = CHECK_WIDTH;
	popts.all = all;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -1;
	rc = fs_report_text(mem, r, &popts);
	if (fclose(mem) || rc < 0) {
		free(buf);
		return -1;
	}
	cli_print_wrapped(stdout, buf, CHECK_WIDTH);
	free(buf);
	return (int)r->problems;
}

/* Save the drafts DL into the maildir DIR (fs_drafts_save()); *STORE
 * (read-only, may be NULL) may be closed here.  Says what it did on
 * stdout, one line per draft: that is the pager the user looks at. */
static int write_drafts(struct fs_store **store, const struct fs_drafts *dl,
			const char *dir, struct fs_error *err)
{
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	char **tags = fs_drafts_tags(*store ? fs_store_config(*store, "fixscan.draft_tags") : NULL);
	size_t i;
	int rc;

	opts.tags = (const char *const *)tags;
	rc = fs_drafts_save(&saved, dl, dir, store, &opts, err);
	if (saved.outside)
		printf("draft: '%s' is outside the notmuch mail root; the drafts are not indexed\n",
		       saved.dir);
	for (i = 0; i < saved.n; i++) {
		const struct fs_drafts_saved_draft *x = &saved.v[i];
		const char *other = x->other ? x->other : "";
		char *line;

		if (!x->path)
			continue;
		switch (x->action) {
		case FS_DRAFT_WROTE:
			printf("draft: wrote %s\n", x->path);
			break;
		case FS_DRAFT_UNCHANGED:
			printf("draft: unchanged %s\n", x->path);
			break;
		case FS_DRAFT_UNCHANGED_EDITED:
			printf("draft: unchanged, edited by you: %s\n", x->path);
			break;
		case FS_DRAFT_REPLACED:
			printf("draft: replaced %s with %s, the findings changed\n", other, x->path);
			break;
		case FS_DRAFT_KEPT_EDITED:
			printf("draft: kept your edited draft %s, wrote %s\n", other, x->path);
			break;
		}
		line = g_strdup_printf("    (re: %s)", x->label);
		cli_print_wrapped(stdout, line, CHECK_WIDTH);
		g_free(line);
	}
	fs_drafts_saved_clear(&saved);
	g_strfreev(tags);
	return rc;
}

/* Whether P looks like a patch of a stable series (or, with COVER_OK, a
 * stable cover letter): a "[PATCH x.y NN/MM]" or AUTOSEL subject that is
 * not a reply. */
static bool is_stable_patch(const struct fs_patch *p, bool cover_ok)
{
	const struct fs_series *s = fs_patch_series(p);
	const char *subj = fs_patch_subject(p);

	if (!s || !strncasecmp(subj, "re:", 3) || !strncasecmp(subj, "aw:", 3))
		return false;
	if (!s->version && !s->autosel && !fs_patch_header(p, "X-KernelTest-Branch"))
		return false;
	return cover_ok || s->index != 0;
}

int cmd_check(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "thread", no_argument, NULL, 't' },
		{ "drafts", optional_argument, NULL, 'D' },
		{ "drafts-dir", required_argument, NULL, 'O' },
		{ "repo", required_argument, NULL, 'r' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_review_opts ropts = FS_REVIEW_OPTS_INIT;
	struct fs_index_opts iopts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats stats;
	struct fs_store_message found;
	struct fs_mail_reader *reader = NULL;
	struct fs_patch *msg = NULL;
	struct fs_index *idx = NULL;
	struct fs_store *store = NULL;
	struct fs_config *cfg = NULL;
	struct fs_ignore *ignore = NULL;
	struct fs_thread **threads = NULL;
	struct fs_thread *alone = NULL;
	size_t nthreads = 0, i, k, reviewed = 0;
	const char *repo_flag = NULL, *ignore_flag = NULL, *file = "-";
	char *msgid = NULL, *repo = NULL, *query = NULL;
	bool whole = false, in_store = false, matched = false;
	int c, rc, status = FS_EXIT_CLEAN, trouble = 0, mode = FS_DRAFTS_ALL;
	bool drafts = false;
	const char *drafts_dir_flag = NULL;
	struct fs_identity me = FS_IDENTITY_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	char *drafts_dir = NULL;
	time_t now = time(NULL);

	memset(&found, 0, sizeof(found));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 't': whole = true; break;
		case 'D':
			drafts = true;
			mode = fs_draft_mode_from_name(optarg);
			if (mode < 0)
				return cli_usage_error(argv[0], "--drafts takes all, summary or patches, not '%s'",
						       optarg);
			break;
		case 'O': drafts = true; drafts_dir_flag = optarg; break;
		case 'r': repo_flag = optarg; break;
		case 'i': ignore_flag = optarg; break;
		case 'R': ropts.no_reports = true; break;
		case 'N': iopts.no_update = true; break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(argv[0], "give at most one FILE");
	if (optind < argc)
		file = argv[optind];

	rc = fs_mail_reader_open(&reader, file, err);
	if (rc < 0)
		goto out;
	rc = fs_mail_reader_next(reader, &msg, err);
	if (rc == 0)
		rc = fs_error_set(err, FS_EPARSE, "'%s' holds no message",
				  strcmp(file, "-") ? file : "standard input");
	if (rc < 0)
		goto out;
	/* A cover letter is checked as its whole thread: it has no
	 * findings of its own. */
	if (is_stable_patch(msg, true) && fs_patch_series(msg)->index == 0)
		whole = true;
	if (!is_stable_patch(msg, whole)) {
		printf("fixscan: not a stable patch: %s\n",
		       *fs_patch_subject(msg) ? fs_patch_subject(msg) : "(no subject)");
		rc = FS_EXIT_CLEAN;
		goto out;
	}
	/* A copy: MSG is given away or freed before the review. */
	if (fs_patch_message_id(msg) && !(msgid = strdup(fs_patch_message_id(msg)))) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}

	rc = cli_review_setup(repo_flag, ignore_flag, &repo, &cfg, &ignore, err);
	if (rc < 0)
		goto out;
	ropts.cfg = cfg;
	ropts.ignore = ignore;

	/* The store is optional here: without it (or without the message
	 * in it) the patch is judged alone. */
	{
		struct fs_error serr = FS_ERROR_INIT;
		if (fs_store_open(&store, false, 5.0, &serr) < 0) {
			if (serr.code == FS_ELOCKED) {
				rc = fs_error_set(err, serr.code, "%s", serr.message);
				goto out;
			}
			store = NULL;
		}
	}
	if (store && msgid && fs_store_find_message(store, msgid, &found, NULL) == 0)
		in_store = true;
	if (drafts) {
		/* Before the review, so a missing identity costs nothing. */
		rc = fs_identity_lookup(&me, store, cfg, err);
		if (rc < 0)
			goto out;
		if (!store && !drafts_dir_flag) {
			rc = fs_error_set(err, FS_ENOTFOUND,
					  "no notmuch store to find the drafts folder in: use --drafts-dir");
			goto out;
		}
		if (!(drafts_dir = fs_drafts_dir(drafts_dir_flag,
						 store ? fs_store_config(store, "fixscan.drafts") : NULL,
						 store ? fs_store_path(store) : NULL, err))) {
			rc = err->code;
			goto out;
		}
	}
	if (in_store) {
		if (asprintf(&query, "thread:%s", found.thread_id) < 0) {
			query = NULL;
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		rc = cli_load_threads(store, query, &threads, &nthreads, err);
		if (rc < 0)
			goto out;
		fs_patch_free(msg); /* the store's copy is used instead */
		msg = NULL;
	} else if (whole) {
		rc = fs_error_set(err, FS_ENOTFOUND,
				  "the message %s%s%s is not in the notmuch store: cannot review its thread",
				  msgid ? "<" : "", msgid ? msgid : "without Message-Id",
				  msgid ? ">" : "");
		goto out;
	} else {
		/* A series of one.  The thread owns the message from here. */
		struct fs_patch *one[1] = { msg };
		msg = NULL;
		rc = fs_thread_build(&alone, one, 1, err);
		if (rc < 0)
			goto out;
		threads = calloc(1, sizeof(*threads));
		if (!threads) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		threads[0] = alone;
		alone = NULL;
		nthreads = 1;
	}

	iopts.repo_path = repo;
	rc = fs_index_open(&idx, &iopts, &stats, err);
	if (rc < 0)
		goto out;
	if (stats.note[0])
		fprintf(stderr, "fixscan: %s\n", stats.note);
	if (!in_store)
		printf("(not in the notmuch store: judged on its own, without its series)\n");

	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(threads[i], k);
			const struct fs_review_patch *mine = NULL;
			struct fs_review *r = NULL, narrowed;
			const struct fs_review *view;
			struct fs_thread_series nseries;
			struct fs_error one = FS_ERROR_INIT;
			size_t j;
			int problems;

			if (!s->npatches)
				continue;
			if (!whole) {
				/* Only the series that holds the message. */
				for (j = 0; j < s->npatches; j++) {
					const char *id = fs_patch_message_id(s->patches[j]);
					if (!msgid || (id && !strcmp(id, msgid)))
						break;
				}
				if (j == s->npatches)
					continue;
			}
			if (fs_review_run(&r, s, idx, in_store ? store : NULL, &ropts, &one) < 0) {
				cli_error(&one);
				trouble = 1;
				continue;
			}
			if (!whole) {
				for (j = 0; j < r->npatches; j++) {
					const char *id = fs_patch_message_id(r->patches[j].patch);
					if (!msgid || (id && !strcmp(id, msgid))) {
						mine = &r->patches[j];
						break;
					}
				}
				if (!mine) {
					fs_review_free(r);
					continue;
				}
				matched = true;
			}
			if (reviewed)
				putchar('\n');
			if (mine) {
				narrow_review(&narrowed, &nseries, r, mine);
				view = &narrowed;
			} else {
				view = r;
			}
			problems = print_review(view, mine != NULL);
			/* Without --thread only the reply to this patch. */
			if (problems >= 0 && drafts &&
			    fs_drafts_build(&dl, view, &me, mine ? FS_DRAFTS_PATCHES : mode,
					    now, &one) < 0) {
				cli_error(&one);
				trouble = 1;
			}
			if (problems < 0) {
				fs_review_free(r);
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
			if (problems)
				status = FS_EXIT_FINDINGS;
			reviewed++;
			fs_review_free(r);
			if (matched)
				break;
		}
		if (matched)
			break;
	}
	if (!reviewed && !trouble) {
		rc = fs_error_set(err, FS_ENOTFOUND, "no stable review series found for %s%s%s",
				  msgid ? "<" : "the message", msgid ? msgid : "",
				  msgid ? ">" : "");
		goto out;
	}
	if (drafts && dl.n) {
		fflush(stdout);
		rc = write_drafts(&store, &dl, drafts_dir, err);
		if (rc < 0)
			goto out;
	} else if (drafts) {
		printf("draft: no findings to answer, no drafts written\n");
	}
	rc = trouble ? FS_EXIT_TROUBLE : status;
out:
	fs_drafts_clear(&dl);
	fs_identity_clear(&me);
	g_free(drafts_dir);
	for (i = 0; i < nthreads; i++)
		fs_thread_free(threads[i]);
	free(threads);
	fs_thread_free(alone);
	fs_patch_free(msg);
	fs_mail_reader_free(reader);
	fs_store_message_clear(&found);
	fs_index_free(idx);
	fs_store_free(store);
	fs_ignore_free(ignore);
	fs_config_free(cfg);
	free(query);
	free(msgid);
	free(repo);
	return rc;
}
