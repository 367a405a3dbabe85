/* fixscan review: a whole stable review thread, cross-referenced. */
#include <getopt.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static const char usage_text[] =
	"usage: fixscan review [options] WHAT\n"
	"\n"
	"Review every patch of a stable review thread in the notmuch store\n"
	"against the kernel repository. WHAT is a Message-Id (with or without\n"
	"id: and <>), a thread: id, any notmuch query, or - for a message on\n"
	"standard input.\n"
	"\n"
	"    --repo PATH      the kernel repository\n"
	"    --branch B       the stable branch (default: from the mails)\n"
	"    --base TAG       the release the series applies on (default: from\n"
	"                     the mails)\n"
	"    --json           one JSON object per series, one per line\n"
	"    --all            list every patch, also those without findings\n"
	"    --ignore FILE    pairs to silence (default: fixscan.ignore, or\n"
	"                     $XDG_CONFIG_HOME/fixscan/ignore)\n"
	"    --no-reports     do not search the store for regression reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    --drafts[=WHICH] write draft replies into the drafts maildir: one\n"
	"                     per patch with findings and a summary to the cover\n"
	"                     (WHICH: all, the default; summary; patches)\n"
	"    --drafts-dir DIR the maildir for drafts (default: fixscan.drafts in\n"
	"                     the notmuch config, else <mail root>/Drafts)\n"
	"    --dry-run        print the drafts to standard output as an mbox and\n"
	"                     write nothing\n"
	"    -h, --help       show this help\n"
	"\n"
	"Exit status: 0 no findings, 1 findings, 2 trouble.\n";

/* Turn WHAT into a notmuch query. */
static char *what_to_query(const char *what)
{
	char *q = NULL;
	size_t n;

	if (!strncmp(what, "id:", 3) || !strncmp(what, "mid:", 4))
		what += *what == 'i' ? 3 : 4;
	else if (strchr(what, ' ') || strchr(what, ':') || !strchr(what, '@'))
		return strdup(what);
	n = strlen(what);
	if (n >= 2 && what[0] == '<' && what[n - 1] == '>') {
		what++;
		n -= 2;
	}
	if (asprintf(&q, "id:\"%.*s\"", (int)n, what) < 0)
		return NULL;
	return q;
}

int cli_load_threads(struct fs_store *store, const char *query,
		     struct fs_thread ***out, size_t *nout, struct fs_error *err)
{
	char **ids = NULL;
	struct fs_thread **threads = NULL;
	size_t n = 0, i, k;
	int rc;

	*out = NULL;
	*nout = 0;
	rc = fs_store_threads(store, query, &ids, err);
	if (rc < 0)
		return rc;
	for (i = 0; ids && ids[i]; i++)
		;
	threads = calloc(i + 1, sizeof(*threads));
	if (!threads) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; ids && ids[i]; i++) {
		struct fs_store_messages msgs = { NULL, 0 };
		struct fs_patch **patches;
		size_t np = 0;
		rc = fs_store_thread(store, ids[i], &msgs, err);
		if (rc < 0) {
			fs_store_messages_free(&msgs);
			goto out;
		}
		patches = calloc(msgs.n + 1, sizeof(*patches));
		if (!patches) {
			fs_store_messages_free(&msgs);
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		for (k = 0; k < msgs.n; k++) {
			struct fs_error one = FS_ERROR_INIT;
			if (fs_patch_parse_file(&patches[np], msgs.v[k].filename, &one) < 0) {
				/* One unreadable mail does not stop the review. */
				cli_error(&one);
				continue;
			}
			/* Unsent drafts (fixscan's own among them) are no
			 * part of the discussion. */
			if (fs_draft_is_draft(msgs.v[k].filename, patches[np])) {
				fs_patch_free(patches[np]);
				patches[np] = NULL;
				continue;
			}
			np++;
		}
		fs_store_messages_free(&msgs);
		rc = fs_thread_build(&threads[n], patches, np, err);
		free(patches);
		if (rc < 0)
			goto out;
		n++;
	}
	*out = threads;
	*nout = n;
	threads = NULL;
	rc = 0;
out:
	if (threads) {
		for (i = 0; i < n; i++)
			fs_thread_free(threads[i]);
		free(threads);
	}
	for (i = 0; ids && ids[i]; i++)
		free(ids[i]);
	free(ids);
	return rc;
}

int cli_ignore_path(struct fs_config *cfg, const char *flag, char **out)
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

int cli_review_setup(const char *repo_flag, const char *ignore_flag, char **repo,
		     struct fs_config **cfg, struct fs_ignore **ignore,
		     struct fs_error *err)
{
	char *ignore_path = NULL;
	int rc;

	*cfg = NULL;
	*ignore = NULL;
	rc = cli_repo_path(repo_flag, repo, err);
	if (rc < 0)
		return rc;
	rc = fs_config_open(cfg, *repo, err);
	if (rc < 0) {
		/* A missing or broken repository is reported by the index,
		 * with a better message; the global config still counts. */
		fs_error_clear(err);
		rc = fs_config_open(cfg, NULL, err);
		if (rc < 0)
			return rc;
	}
	if (cli_ignore_path(*cfg, ignore_flag, &ignore_path) == 0) {
		rc = fs_ignore_load(ignore, ignore_path, err);
		free(ignore_path);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The message on standard input, as a query for its own id. */
static int stdin_query(char **query, struct fs_error *err)
{
	struct fs_mail_reader *r = NULL;
	struct fs_patch *p = NULL;
	int rc;

	*query = NULL;
	rc = fs_mail_reader_open(&r, "-", err);
	if (rc < 0)
		return rc;
	rc = fs_mail_reader_next(r, &p, err);
	fs_mail_reader_free(r);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return fs_error_set(err, FS_EPARSE, "standard input holds no message");
	if (!fs_patch_message_id(p)) {
		fs_patch_free(p);
		return fs_error_set(err, FS_EPARSE, "the message on standard input has no Message-Id");
	}
	if (asprintf(query, "id:\"%s\"", fs_patch_message_id(p)) < 0)
		*query = NULL;
	fs_patch_free(p);
	return *query ? 0 : fs_error_set(err, FS_ENOMEM, "out of memory");
}

const char *cli_shown_path(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(path, root, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/* Print the drafts as an mbox (mboxrd quoting), for --dry-run. */
static void print_drafts(FILE *out, const struct fs_drafts *dl, time_t now)
{
	char stamp[64];
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%a %b %e %H:%M:%S %Y", &tm);
	for (i = 0; i < dl->n; i++) {
		const char *p = dl->v[i].text, *end = p + dl->v[i].len;

		fprintf(out, "From fixscan@localhost %s\n", stamp);
		while (p < end) {
			const char *e = memchr(p, '\n', end - p), *q = p;
			if (!e)
				e = end;
			while (q < e && *q == '>')
				q++;
			if (e - q >= 5 && !strncmp(q, "From ", 5))
				fputc('>', out);
			fwrite(p, 1, e - p, out);
			fputc('\n', out);
			p = e + 1;
		}
		fputc('\n', out);
	}
}

/* Save the drafts DL into DIR (fs_drafts_save()) and say what happened
 * on stderr, one line per draft.  *STORE is the read-only store of the
 * review; it may be closed here. */
static int write_drafts(struct fs_store **store, const struct fs_drafts *dl,
			const char *dir, struct fs_error *err)
{
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	char **tags = fs_drafts_tags(fs_store_config(*store, "fixscan.draft_tags"));
	size_t i, k;
	int rc;

	opts.tags = (const char *const *)tags;
	rc = fs_drafts_save(&saved, dl, dir, store, &opts, err);
	if (saved.outside && saved.complete)
		fprintf(stderr, "draft: '%s' is outside the notmuch mail root '%s'; the drafts are not indexed\n",
			saved.dir, saved.root);
	if (saved.index_err.code)
		cli_error(&saved.index_err);
	for (i = 0; i < saved.n; i++) {
		const struct fs_drafts_saved_draft *x = &saved.v[i];
		const char *late = x->indexed_now ? ", indexed now" : "";

		if (!x->path)
			continue;
		switch (x->action) {
		case FS_DRAFT_WROTE:
			fprintf(stderr, "draft: wrote %s (re: %s)\n", x->path, x->label);
			break;
		case FS_DRAFT_UNCHANGED:
			fprintf(stderr, "draft: unchanged %s%s (re: %s)\n", x->path, late, x->label);
			break;
		case FS_DRAFT_UNCHANGED_EDITED:
			fprintf(stderr, "draft: unchanged, edited by you: %s%s (re: %s)\n", x->path,
				late, x->label);
			break;
		case FS_DRAFT_REPLACED:
			fprintf(stderr, "draft: replaced %s with %s, the findings changed (re: %s)\n",
				x->other, x->path, x->label);
			break;
		case FS_DRAFT_KEPT_EDITED:
			fprintf(stderr, "draft: kept your edited draft %s, wrote %s (re: %s)\n",
				x->other, x->path, x->label);
			break;
		}
		/* "replaced" says it already. */
		for (k = 0; x->action != FS_DRAFT_REPLACED && x->removed && x->removed[k]; k++)
			fprintf(stderr, "draft: removed the outdated %s (re: %s)\n", x->removed[k],
				x->label);
	}
	fs_drafts_saved_clear(&saved);
	g_strfreev(tags);
	return rc;
}

int cmd_review(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "branch", required_argument, NULL, 'b' },
		{ "base", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "drafts", optional_argument, NULL, 'D' },
		{ "drafts-dir", required_argument, NULL, 'O' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_review_opts ropts = FS_REVIEW_OPTS_INIT;
	struct fs_report_opts popts = FS_REPORT_OPTS_INIT;
	struct fs_index_opts iopts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats stats;
	struct fs_index *idx = NULL;
	struct fs_store *store = NULL;
	struct fs_config *cfg = NULL;
	struct fs_ignore *ignore = NULL;
	struct fs_thread **threads = NULL;
	size_t nthreads = 0, i, k, reviewed = 0;
	const char *repo_flag = NULL, *ignore_flag = NULL;
	char *repo = NULL, *query = NULL;
	int c, json = 0, rc, status = FS_EXIT_CLEAN, trouble = 0;
	int drafts = 0, dry_run = 0, mode = FS_DRAFTS_ALL;
	const char *drafts_dir_flag = NULL;
	struct fs_identity me = FS_IDENTITY_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	char *drafts_dir = NULL;
	time_t now = time(NULL);

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'r': repo_flag = optarg; break;
		case 'b': ropts.branch = optarg; break;
		case 'B': ropts.base = optarg; break;
		case 'j': json = 1; break;
		case 'a': popts.all = true; break;
		case 'i': ignore_flag = optarg; break;
		case 'R': ropts.no_reports = true; break;
		case 'N': iopts.no_update = true; break;
		case 'D':
			drafts = 1;
			mode = fs_draft_mode_from_name(optarg);
			if (mode < 0)
				return cli_usage_error(argv[0], "--drafts takes all, summary or patches, not '%s'",
						       optarg);
			break;
		case 'O': drafts = 1; drafts_dir_flag = optarg; break;
		case 'n': drafts = 1; dry_run = 1; break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error(argv[0], optind == argc ? "no thread given" :
					       "give one WHAT (quote a query with spaces)");
	popts.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	if (!strcmp(argv[optind], "-"))
		rc = stdin_query(&query, err);
	else
		rc = (query = what_to_query(argv[optind])) ? 0 :
			fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc < 0)
		goto out;
	rc = cli_review_setup(repo_flag, ignore_flag, &repo, &cfg, &ignore, err);
	if (rc < 0)
		goto out;
	ropts.cfg = cfg;
	ropts.ignore = ignore;
	rc = fs_store_open(&store, false, 5.0, err);
	if (rc < 0)
		goto out;
	if (drafts) {
		/* Before the review, so a missing identity costs nothing. */
		rc = fs_identity_lookup(&me, store, cfg, err);
		if (rc < 0)
			goto out;
		if (!dry_run && !(drafts_dir = fs_drafts_dir(drafts_dir_flag,
							     fs_store_config(store, "fixscan.drafts"),
							     fs_store_path(store), err))) {
			rc = err->code;
			goto out;
		}
	}
	rc = cli_load_threads(store, query, &threads, &nthreads, err);
	if (rc < 0)
		goto out;
	iopts.repo_path = repo;
	rc = fs_index_open(&idx, &iopts, &stats, err);
	if (rc < 0)
		goto out;
	if (stats.note[0])
		fprintf(stderr, "fixscan: %s\n", stats.note);
	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(threads[i], k);
			struct fs_review *r = NULL;
			struct fs_error one = FS_ERROR_INIT;
			if (!s->npatches) {
				if (s->cover) {
					fprintf(stderr, "fixscan: '%s': the cover letter has no patches in the store\n",
						fs_patch_subject(s->cover));
					trouble = 1;
				}
				continue;
			}
			if (fs_review_run(&r, s, idx, store, &ropts, &one) < 0) {
				cli_error(&one);
				trouble = 1;
				continue;
			}
			if (reviewed && !json)
				putchar('\n');
			if (json)
				fs_report_json(stdout, r);
			else
				fs_report_text(stdout, r, &popts);
			if (r->problems)
				status = FS_EXIT_FINDINGS;
			if (drafts && fs_drafts_build(&dl, r, &me, mode, now, &one) < 0) {
				cli_error(&one);
				trouble = 1;
			}
			reviewed++;
			fs_review_free(r);
		}
	}
	if (!reviewed && !trouble) {
		rc = fs_error_set(err, FS_ENOTFOUND, "no stable review thread matches '%s'",
				  argv[optind]);
		goto out;
	}
	if (drafts && dry_run) {
		fflush(stdout);
		print_drafts(stdout, &dl, now);
	} else if (drafts && dl.n) {
		fflush(stdout);
		rc = write_drafts(&store, &dl, drafts_dir, err);
		if (rc < 0)
			goto out;
	} else if (drafts) {
		fprintf(stderr, "draft: no findings to answer, no drafts written\n");
	}
	rc = trouble ? FS_EXIT_TROUBLE : status;
out:
	fs_drafts_clear(&dl);
	fs_identity_clear(&me);
	g_free(drafts_dir);
	for (i = 0; i < nthreads; i++)
		fs_thread_free(threads[i]);
	free(threads);
	fs_index_free(idx);
	fs_store_free(store);
	fs_ignore_free(ignore);
	fs_config_free(cfg);
	free(query);
	free(repo);
	return rc;
}
