/* fixscan review: a whole stable review thread, cross-referenced. */
#include <getopt.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fixscan/date.h"
#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/mail.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/source.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "review-open.h"

static const char usage_text[] =
	"usage: fixscan review [options] WHAT\n"
	"       fixscan review --all-open [--since WHEN] [options]\n"
	"       fixscan review [options] --mbox FILE\n"
	"       fixscan review [options] --queue DIR\n"
	"\n"
	"Review every patch of a stable review thread in the notmuch store\n"
	"against the kernel repository. WHAT is a Message-Id (with or without\n"
	"id: and <>), a lore link to one of its mails, a thread: id, any\n"
	"notmuch query, or - for a message on standard input.\n"
	"\n"
	"    --mbox FILE      the threads of an mbox instead (mboxo or mboxrd,\n"
	"                     gzip'd or not; - for standard input), without\n"
	"                     the notmuch store\n"
	"    --queue DIR      the patches of a stable-queue directory (queue-4.4/\n"
	"                     with a quilt series file), in series order\n"
	"    --repo PATH      the kernel repository\n"
	"    --branch B       the stable branch (default: from the mails)\n"
	"    --base TAG       the release the series applies on (default: from\n"
	"                     the mails)\n"
	"    --json           one JSON object per series, one per line\n"
	"    --all            list every patch, also those without findings\n"
	"    --all-open       review every open stable review thread together\n"
	"                     (deadline not passed), with the cross-branch\n"
	"                     findings (missing-in-newer, fixes queued in other\n"
	"                     branches, FAILED notices) and a matrix on top\n"
	"    --since WHEN     with --all-open, also the threads that arrived\n"
	"                     since WHEN (1d, 12h, 2w, YYYY-MM-DD, @EPOCH)\n"
	"    -v, --verbose    also how each commit was found ([prefix]: by an\n"
	"                     abbreviated id; [stable id]) and fix chains\n"
	"    --short          one line per flagged patch, most serious first\n"
	"    -q, --quiet      print the summary line only; the exit status says\n"
	"                     the rest\n"
	"    --ignore FILE    pairs to silence (default: fixscan.ignore, or\n"
	"                     $XDG_CONFIG_HOME/fixscan/ignore)\n"
	"    --no-reports     do not search the store for regression reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    --vulns PATH     the kernel CNA's vulns clone, for CVE ids (default:\n"
	"                     fixscan.vulns)\n"
	"    --drafts[=WHICH] write draft replies into the drafts maildir: one\n"
	"                     per patch with findings and a summary to the cover\n"
	"                     (WHICH: all, the default; summary; patches)\n"
	"    --drafts-dir DIR the maildir for drafts (default: fixscan.drafts in\n"
	"                     the notmuch config, else <mail root>/Drafts; with\n"
	"                     --mbox it must be given)\n"
	"    --dry-run        print the drafts to standard output as an mbox (the\n"
	"                     report goes to standard error) and write nothing;\n"
	"                     with --json, in each series' JSON as \"drafts\"\n"
	"    --force          with --drafts, write again the drafts you deleted\n"
	"    --drafts-for=WHAT which patches get a reply of their own: action (the\n"
	"                     default: a fix to queue, a patch to drop, a report\n"
	"                     to answer ...) or every-finding\n"
	"    --color[=WHEN]   colour the finding kinds: always, never or auto (the\n"
	"                     default: fixscan.color, else color.ui, else auto:\n"
	"                     on a terminal, unless NO_COLOR is set)\n"
	"    -h, --help       show this help\n"
	"\n"
	"Text is wrapped at the terminal's width ($COLUMNS, else 80).\n"
	"Exit status: 0 nothing that asks for action, 1 findings that do,\n"
	"2 trouble.\n";

/* The Message-Id in a lore or lkml archive link, the form reviewers
 * paste: https://lore.kernel.org/r/<id>, .../all/<id>/, .../<list>/<id>/T/
 * (percent-escapes decoded).  A new string (free()), or NULL when WHAT
 * is no such link. */
static char *lore_message_id(const char *what)
{
	const char *p, *end;
	char *id, *w;

	if (strncmp(what, "https://", 8) && strncmp(what, "http://", 7))
		return NULL;
	p = strstr(what, "://") + 3;
	p = strchr(p, '/');                /* past the host */
	while (p && *p == '/') {
		const char *seg = p + 1, *next = strchr(seg, '/');
		size_t n = next ? (size_t)(next - seg) : strlen(seg);
		/* The id is the path segment with an @ (or its escape). */
		if (memchr(seg, '@', n) || (n > 3 && strstr(seg, "%40") && strstr(seg, "%40") < seg + n)) {
			end = seg + n;
			id = malloc(n + 1);
			if (!id)
				return NULL;
			for (w = id; seg < end; seg++) {
				int hi, lo;
				if (*seg == '%' && end - seg > 2 &&
				    (hi = g_ascii_xdigit_value(seg[1])) >= 0 &&
				    (lo = g_ascii_xdigit_value(seg[2])) >= 0) {
					*w++ = (char)(hi * 16 + lo);
					seg += 2;
				} else {
					*w++ = *seg;
				}
			}
			*w = '\0';
			return id;
		}
		p = next;
	}
	return NULL;
}

/* Turn WHAT into a notmuch query: a Message-Id (bare, in <>, after id:
 * or mid:, or in a lore link) becomes a quoted id: query; anything else
 * is a query.  *MSGID gets the Message-Id when WHAT named one (free()),
 * else NULL. */
static char *what_to_query(const char *what, char **msgid)
{
	char *lore = lore_message_id(what), *q;

	*msgid = NULL;
	if (lore) {
		q = cli_id_query(lore);
		*msgid = lore;
		return q;
	}
	if (!strncmp(what, "id:", 3) || !strncmp(what, "mid:", 4))
		what += *what == 'i' ? 3 : 4;
	else if (strchr(what, ' ') || strchr(what, ':') || !strchr(what, '@'))
		return strdup(what);
	*msgid = strdup(what);
	return cli_id_query(what);
}

/* The message on standard input, as a query for its own id. */
static int stdin_query(char **query, char **msgid, struct fs_error *err)
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
	*query = cli_id_query(fs_patch_message_id(p));
	*msgid = strdup(fs_patch_message_id(p));
	fs_patch_free(p);
	return *query ? 0 : fs_error_set(err, FS_ENOMEM, "out of memory");
}

/* Print the drafts as an mbox (mboxrd quoting), for --dry-run. */
/* --dry-run: the drafts folder a real run would write into (NULL when
 * there is none to compare with) and --force. */
struct dry_run {
	const char *dir;
	bool force;
};

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
static int write_drafts(struct cli_ctx *ctx, struct fs_store **store, const struct fs_drafts *dl,
			const char *dir, bool force, struct fs_error *err)
{
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	char **tags = fs_drafts_tags(cli_store_config(*store, "fixscan.draftTags", "fixscan.draft_tags"));
	char *skipped;
	size_t i, k;
	int rc;

	cli_drafts_opts(ctx, &opts, force);
	opts.tags = (const char *const *)tags;
	rc = fs_drafts_save(&saved, dl, dir, store, &opts, err);
	if (saved.outside && saved.complete && *store)
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
		default: /* skipped: no path, counted below */
			break;
		}
		/* "replaced" says it already. */
		for (k = 0; x->action != FS_DRAFT_REPLACED && x->removed && x->removed[k]; k++)
			fprintf(stderr, "draft: removed the outdated %s (re: %s)\n", x->removed[k],
				x->label);
	}
	if ((skipped = cli_drafts_skipped(&saved)))
		fprintf(stderr, "%s\n", skipped);
	g_free(skipped);
	fs_drafts_saved_clear(&saved);
	g_strfreev(tags);
	return rc;
}

/* The usage errors of --mbox and --queue (SRC): no WHAT beside them
 * (NARGS is the count of other arguments), not both, drafts only of
 * mails (not of a queue), and into a folder given or on standard output.
 * Returns an exit status, or -1 when all is well. */
static int check_source_usage(const char *cmd, const struct fs_source *src, int nargs,
			      bool drafts, bool dry_run, const char *drafts_dir)
{
	if (nargs)
		return cli_usage_error(cmd, "--mbox and --queue take the place of WHAT: give one of them");
	if (src->kind == FS_SOURCE_QUEUE && drafts)
		return cli_usage_error(cmd, "--drafts answers mails: a queue directory has none to answer");
	if (drafts && !dry_run && !drafts_dir)
		return cli_usage_error(cmd, "--drafts with --mbox needs --drafts-dir DIR (there is no notmuch store to find the drafts folder in) or --dry-run");
	return -1;
}

/* The usage errors of what to review: --all-open takes no WHAT and no
 * --mbox or --queue; --mbox and --queue are checked by
 * check_source_usage(); otherwise one WHAT.  NARGS: the arguments left.
 * Returns an exit status, or -1 when all is well. */
static int check_what_usage(const char *cmd, bool all_open, const struct fs_source *src,
			    int nargs, bool drafts, bool dry_run, const char *drafts_dir)
{
	if (all_open && src->what)
		return cli_usage_error(cmd, "--all-open reviews the store, not --mbox or --queue");
	if (src->what)
		return check_source_usage(cmd, src, nargs, drafts, dry_run, drafts_dir);
	if (all_open && nargs)
		return cli_usage_error(cmd, "--all-open takes no WHAT");
	if (!all_open && nargs != 1)
		return cli_usage_error(cmd, nargs == 0 ? "no thread given" :
					    "give one WHAT (quote a query with spaces)");
	return -1;
}

/* Whether STORE has the message MSGID (with or without <>). */
static bool message_known(struct fs_store *store, const char *msgid)
{
	struct fs_store_message m;
	bool known;

	memset(&m, 0, sizeof(m));
	known = fs_store_find_message(store, msgid, &m, NULL) == 0;
	fs_store_message_clear(&m);
	return known;
}

/* The error when nothing was reviewed: the Message-Id MSGID (may be
 * NULL) is not in the store; WHAT (QUERY) matches no message; or what it
 * matches (NTHREADS threads) is no stable review thread, named by the
 * subject of its first mail. */
static int nothing_reviewed(struct fs_store *store, const char *query, const char *msgid,
			    const char *what, size_t nthreads, struct fs_error *err)
{
	struct fs_store_messages m = { NULL, 0 };
	int rc;

	if (msgid && !message_known(store, msgid))
		return fs_error_set(err, FS_ENOTFOUND,
				    "message <%s> is not in the notmuch store: fetch its thread (b4 mbox '%s') and review it with --mbox FILE, or add it to the store (lei q, then notmuch new)",
				    msgid, msgid);
	if (!nthreads || fs_store_search(store, query, &m, NULL) < 0 || !m.n)
		rc = fs_error_set(err, FS_ENOTFOUND, "no message matches '%s'", what);
	else if (nthreads == 1)
		rc = fs_error_set(err, FS_ENOTFOUND, "'%s' is not a stable review thread",
				  m.v[0].subject ? m.v[0].subject : "");
	else
		rc = fs_error_set(err, FS_ENOTFOUND,
				  "'%s' matches %zu threads, none of them a stable review thread (the first: '%s')",
				  what, nthreads, m.v[0].subject ? m.v[0].subject : "");
	fs_store_messages_free(&m);
	return rc;
}

/* The text report of R on stdout, wrapped at the terminal's width: the
 * library writes whole lines, the wrapping is the terminal's business. */
static int print_text(FILE *out, const struct fs_review *r, const struct fs_report_opts *popts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return -1;
	rc = fs_report_text(mem, r, popts);
	if (fclose(mem) || rc < 0) {
		free(buf);
		return -1;
	}
	cli_print_wrapped(out, buf, popts->width);
	free(buf);
	return 0;
}

/* R's JSON line on OUT; with DL, the drafts DL->v[FIRST..] go into it
 * as a "drafts" array (--json --dry-run), so standard output stays one
 * JSON document per series.  Returns 0 or -1. */
static int print_json(FILE *out, const struct fs_review *r, const struct fs_drafts *dl,
		      size_t first)
{
	struct fs_json *j;
	char *line = NULL, *arr = NULL;
	size_t llen = 0, alen = 0, i;
	FILE *mem;
	int rc = -1;

	if (!dl)
		return fs_report_json(out, r);
	/* Both are documents of the one JSON writer: the array goes in as
	 * the report object's last member. */
	mem = open_memstream(&line, &llen);
	if (!mem || fs_report_json(mem, r) < 0 || fclose(mem))
		goto out;
	j = fs_json_new();
	fs_json_begin_array(j);
	for (i = first; i < dl->n; i++) {
		const struct fs_draft *d = &dl->v[i];
		char *kind = g_strndup(d->key, strcspn(d->key, " "));

		fs_json_begin_object(j);
		fs_json_str(j, "kind", kind);
		fs_json_str(j, "label", d->label);
		fs_json_str(j, "message_id", d->message_id);
		fs_json_str(j, "message", d->text);
		fs_json_end_object(j);
		g_free(kind);
	}
	fs_json_end_array(j);
	mem = open_memstream(&arr, &alen);
	if (mem && fs_json_print_line(j, mem) == 0 && fclose(mem) == 0 &&
	    llen >= 2 && !strcmp(line + llen - 2, "}\n") && alen >= 1) {
		fprintf(out, "%.*s,\"drafts\":%.*s}\n", (int)(llen - 2), line, (int)(alen - 1), arr);
		rc = 0;
	}
	fs_json_free(j);
out:
	free(line);
	free(arr);
	return rc;
}

/* What --dry-run shows is what a real run into DIR would write: the
 * drafts of DL from FIRST on that it would leave out (the patch answered,
 * the draft deleted) are taken out, and counted on standard error.
 * Without DIR (an mbox without --drafts-dir) there is nothing to compare
 * with.  Returns 0 or a negative code with ERR set. */
static int drop_skipped(struct cli_ctx *c, struct fs_drafts *dl, size_t first,
			const struct dry_run *dr, struct fs_error *err)
{
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	struct fs_drafts_saved counts = FS_DRAFTS_SAVED_INIT;
	struct fs_drafts tail = { dl->v + first, dl->n - first };
	char *line;
	int rc;

	if (!dr || !dr->dir || first >= dl->n)
		return 0;
	cli_drafts_opts(c, &opts, dr->force);
	rc = fs_drafts_drop_skipped(&tail, dr->dir, c->store, &opts, &counts.answered,
				    &counts.deleted, err);
	dl->n = first + tail.n;
	if (rc == 0 && (line = cli_drafts_skipped(&counts))) {
		fprintf(stderr, "%s\n", line);
		g_free(line);
	}
	return rc;
}

/* Review every series of THREADS, print each report, and add the drafts
 * each asks for (c->draft_opts) to DL when ME is given; with
 * JSON_DRAFTS, print them inside each series' JSON.  Returns the number
 * of series reviewed; *PROBLEMS and *TROUBLE say whether any had
 * findings or failed. */
static size_t review_threads(struct cli_ctx *c, struct fs_thread **threads, size_t nthreads,
			     FILE *out, const struct fs_report_opts *popts, bool json,
			     struct fs_drafts *dl, const struct fs_identity *me,
			     const struct dry_run *json_drafts, bool *problems, bool *trouble)
{
	size_t i, k, reviewed = 0;
	bool said = false;

	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(threads[i], k);
			struct fs_review *r = NULL;
			struct fs_error one = FS_ERROR_INIT;
			/* Without its patch mails a series is still read for
			 * what its replies say. */
			if (!s->npatches) {
				if (s->cover)
					cli_note("'%s': the cover letter has no patches in the store%s",
						 fs_patch_subject(s->cover),
						 s->nreplies ? ": reading its replies" : "");
				else if (s->nreplies)
					cli_note("%zu replies whose patch mails are absent: reading them",
						 s->nreplies);
				if (!s->nreplies) {
					*trouble |= s->cover != NULL;
					continue;
				}
			}
			if (fs_review_run(&r, s, c->idx, c->store, &c->ropts, &one) < 0) {
				cli_error(&one);
				*trouble = true;
				continue;
			}
			size_t first = dl->n;

			cli_clone_age_notice(c, r, &said);
			if (me && s->npatches && fs_drafts_build_opts(dl, r, me, &c->draft_opts, &one) < 0) {
				cli_error(&one);
				*trouble = true;
			}
			if (reviewed && !json && popts->mode != FS_REPORT_QUIET)
				fputc('\n', out);
			if (json) {
				if (drop_skipped(c, dl, first, json_drafts, &one) < 0) {
					cli_error(&one);
					*trouble = true;
				}
				if (drop_skipped(c, dl, first, json_drafts, &one) < 0) {
				cli_error(&one);
				*trouble = true;
			}
			if (print_json(out, r, json_drafts ? dl : NULL, first) < 0)
					*trouble = true;
			} else if (print_text(out, r, popts) < 0) {
				*trouble = true;
			}
			if (r->problems)
				*problems = true;
			reviewed++;
			fs_review_free(r);
		}
	}
	return reviewed;
}

/* --all-open: review the open series of THREADS together (review-open.c),
 * print the matrix, then each report, and add the drafts to DL. */
static int review_all_open(struct cli_ctx *c, struct fs_thread **threads, size_t nthreads,
			   FILE *out, const struct fs_report_opts *popts, bool json,
			   struct fs_drafts *dl, const struct fs_identity *me,
			   const struct dry_run *json_drafts,
			   time_t now, time_t since, bool *problems, bool *trouble,
			   struct fs_error *err)
{
	struct cli_open_reviews o;
	size_t i;
	int rc;

	rc = cli_open_reviews(c, threads, nthreads, now, since, &o, trouble, err);
	if (rc == 0 && !o.n)
		cli_note("no open stable review thread%s", since ? " and none arrived since --since" : "");
	if (rc == 0 && o.n && !json && popts->mode != FS_REPORT_QUIET) {
		fprintf(out, "open reviews:");
		for (i = 0; i < o.n; i++)
			fprintf(out, "%s %s (%s)", i ? "," : "",
				o.v[i]->series->release ? o.v[i]->series->release : "a lone patch",
				o.v[i]->branch);
		fputc('\n', out);
		fs_cross_matrix_text(out, &o.matrix);
	}
	for (i = 0; rc == 0 && i < o.n; i++) {
		struct fs_review *r = o.v[i];
		struct fs_error one = FS_ERROR_INIT;
		size_t first = dl->n;

		if (me && fs_drafts_build_opts(dl, r, me, &c->draft_opts, &one) < 0) {
			cli_error(&one);
			*trouble = true;
		}
		if (!json && popts->mode != FS_REPORT_QUIET)
			fputc('\n', out);
		if (json) {
			if (drop_skipped(c, dl, first, json_drafts, &one) < 0) {
				cli_error(&one);
				*trouble = true;
			}
			if (print_json(out, r, json_drafts ? dl : NULL, first) < 0)
				*trouble = true;
		} else if (print_text(out, r, popts) < 0) {
			*trouble = true;
		}
		if (r->problems)
			*problems = true;
	}
	cli_open_reviews_clear(&o);
	return rc;
}

/* The store, which the notmuch thread is read from.  An mbox or a queue
 * (FROM_FILE) needs no notmuch configuration at all; when there is a
 * store, it still tells who the reviewer is (their mail is no
 * objection, their replies answer patches), but its regression reports
 * are not searched: the thread is not in it (*SAY_NO_STORE: say so). */
static int open_store(struct cli_ctx *c, bool from_file, bool *say_no_store,
		      struct fs_error *err)
{
	struct fs_error ignored = FS_ERROR_INIT;

	if (!from_file)
		return cli_ctx_open_store(c, false, err);
	(void)cli_ctx_open_store(c, true, &ignored);
	*say_no_store = !c->ropts.no_reports;
	c->ropts.no_reports = true;
	return 0;
}

/* Before the review, so that a missing identity costs nothing: C's
 * identity into ME, the drafts' options, and the drafts maildir into *DIR
 * (FLAG, else with a store its fixscan.drafts or <mail root>/Drafts).  A
 * DRY_RUN writes nothing there, but compares with it; without a folder
 * it leaves *DIR NULL.  Returns 0 or a negative code with ERR set. */
static int prepare_drafts(struct cli_ctx *c, struct fs_identity *me, int mode, bool every,
			  time_t now, const char *flag, bool dry_run, char **dir,
			  struct fs_error *err)
{
	const char *cfg = c->store ? fs_store_config(c->store, "fixscan.drafts") : NULL;
	const char *root = c->store ? fs_store_path(c->store) : NULL;
	int rc = cli_ctx_identity(c, me, err);

	if (rc == 0)
		rc = cli_ctx_draft_opts(c, mode, every, now, err);
	if (rc < 0 || (dry_run && !flag && !root))
		return rc;
	*dir = fs_drafts_dir(flag, cfg, root, err);
	return *dir ? 0 : err->code;
}

int cmd_review(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "branch", required_argument, NULL, 'b' },
		{ "base", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "all-open", no_argument, NULL, 'o' },
		{ "since", required_argument, NULL, 'S' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "vulns", required_argument, NULL, 'V' },
		{ "drafts", optional_argument, NULL, 'D' },
		{ "drafts-dir", required_argument, NULL, 'O' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "drafts-for", required_argument, NULL, 'F' },
		{ "color", optional_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "short", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "mbox", required_argument, NULL, 'M' },
		{ "queue", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_source src = FS_SOURCE_INIT;
	struct cli_ctx ctx;
	struct fs_report_opts popts = FS_REPORT_OPTS_INIT;
	struct fs_thread **threads = NULL;
	size_t nthreads = 0, reviewed;
	char *query = NULL, *msgid = NULL;
	const char *color_when = NULL;
	int c, json = 0, rc, color = 0;
	bool problems = false, trouble = false;
	int drafts = 0, dry_run = 0, mode = FS_DRAFTS_ALL;
	bool force = false, every = false;
	const char *drafts_dir_flag = NULL;
	struct fs_identity me = FS_IDENTITY_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	char *drafts_dir = NULL;
	struct dry_run dr = { NULL, false };
	time_t now = time(NULL), since = 0;
	bool all_open = false, say_no_store = false;
	const char *since_arg = NULL;

	cli_ctx_init(&ctx);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hvq", options, NULL)) != -1) {
		switch (c) {
		case 'r': ctx.repo_flag = optarg; break;
		case 'b': ctx.ropts.branch = optarg; break;
		case 'B': ctx.ropts.base = optarg; break;
		case 'j': json = 1; break;
		case 'a': popts.all = true; break;
		case 'o': all_open = true; break;
		case 'S': since_arg = optarg; break;
		case 'i': ctx.ignore_flag = optarg; break;
		case 'R': ctx.ropts.no_reports = true; break;
		case 'N': ctx.iopts.no_update = true; break;
		case 'V': ctx.vulns_flag = optarg; break;
		case 'D':
			drafts = 1;
			mode = fs_draft_mode_from_name(optarg);
			if (mode < 0)
				return cli_usage_error(argv[0], "--drafts takes all, summary or patches, not '%s'",
						       optarg);
			break;
		case 'O': drafts = 1; drafts_dir_flag = optarg; break;
		case 'n': drafts = 1; dry_run = 1; break;
		case 'f': force = true; break;
		case 'F':
			if (cli_drafts_for(optarg, &every) < 0)
				return cli_usage_error(argv[0], "--drafts-for takes action or every-finding, not '%s'",
						       optarg);
			break;
		case 'c': color_when = optarg ? optarg : "always"; break;
		case 'v': popts.verbose = true; break;
		case 's': popts.mode = FS_REPORT_SHORT; break;
		case 'q': popts.mode = FS_REPORT_QUIET; break;
		case 'M':
		case 'Q':
			if (src.what)
				return cli_usage_error(argv[0], "give one --mbox or --queue");
			src.kind = c == 'M' ? FS_SOURCE_MBOX : FS_SOURCE_QUEUE;
			src.what = optarg;
			break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (since_arg && !all_open)
		return cli_usage_error(argv[0], "--since '%s' goes with --all-open", since_arg);
	if (since_arg && fs_date_parse(since_arg, now, &since, err) < 0)
		return fs_error_prefix(err, "%s: --since", argv[0]);
	if ((rc = check_what_usage(argv[0], all_open, &src, argc - optind, drafts, dry_run,
				   drafts_dir_flag)) >= 0)
		return rc;
	if (all_open || src.what)
		rc = 0; /* --all-open: the query needs the store, below */
	else if (!strcmp(argv[optind], "-"))
		rc = stdin_query(&query, &msgid, err);
	else
		rc = (query = what_to_query(argv[optind], &msgid)) ? 0 :
			fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc == 0)
		rc = cli_ctx_setup(&ctx, err);
	if (rc == 0 && (color = cli_color_wanted(color_when, ctx.cfg)) < 0)
		rc = fs_error_set(err, FS_EUSAGE, "review: --color takes always, never or auto, not '%s'",
				  color_when);
	popts.color = color > 0;
	popts.width = cli_term_width();
	if (rc == 0)
		rc = open_store(&ctx, src.what != NULL, &say_no_store, err);
	if (rc < 0)
		goto out;
	if (drafts) {
		rc = prepare_drafts(&ctx, &me, mode, every, now, drafts_dir_flag, dry_run,
				    &drafts_dir, err);
		if (rc < 0)
			goto out;
	}
	if (src.what) {
		rc = cli_load_source(&src, &threads, &nthreads, err);
		if (rc == 0 && say_no_store)
			cli_note("%s: regression reports not searched",
				 ctx.store ? "not from the mail store" : "no mail store");
	} else {
		if (all_open)
			rc = cli_open_query(ctx.store, now, since, &query, err);
		if (rc == 0 && query)
			rc = cli_load_threads(ctx.store, query, &threads, &nthreads, err);
	}
	/* Nothing to review needs no index (which may take a while);
	 * --all-open says itself that nothing is open. */
	if (rc == 0 && nthreads) {
		rc = cli_ctx_open_index(&ctx, err);
	} else if (rc == 0 && all_open) {
		cli_note("no open stable review thread%s",
			 since ? " and none arrived since --since" : "");
		goto out;
	}
	if (rc < 0)
		goto out;
	dr.dir = drafts_dir;
	dr.force = force;
	/* With --dry-run standard output is the mbox of the drafts alone
	 * (mutt -f opens it); the report goes to standard error.  With
	 * --json too, the drafts go into the JSON on standard output. */
	if (all_open) {
		rc = review_all_open(&ctx, threads, nthreads, dry_run && !json ? stderr : stdout,
				     &popts, json, &dl, drafts ? &me : NULL, dry_run && json ? &dr : NULL,
				     now, since, &problems, &trouble, err);
		if (rc < 0)
			goto out;
		reviewed = 1; /* none open is no error */
	} else {
		reviewed = review_threads(&ctx, threads, nthreads, dry_run && !json ? stderr : stdout,
					  &popts, json, &dl, drafts ? &me : NULL,
					  dry_run && json ? &dr : NULL,
					  &problems, &trouble);
	}
	if (!reviewed && !trouble) {
		if (src.what)
			rc = fs_error_set(err, FS_ENOTFOUND, "no stable review series in '%s'", src.what);
		else
			rc = nothing_reviewed(ctx.store, query, msgid, argv[optind], nthreads, err);
		goto out;
	}
	if (drafts && dry_run && json) {
		/* the drafts are in the JSON */
	} else if (drafts && dry_run) {
		rc = drop_skipped(&ctx, &dl, 0, &dr, err);
		if (rc < 0)
			goto out;
		fflush(stdout);
		print_drafts(stdout, &dl, now);
	} else if (drafts && dl.n) {
		fflush(stdout);
		rc = write_drafts(&ctx, &ctx.store, &dl, drafts_dir, force, err);
		if (rc < 0)
			goto out;
	} else if (drafts) {
		fprintf(stderr, "draft: no findings to answer, no drafts written\n");
	}
	rc = trouble ? FS_EXIT_TROUBLE : problems ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
out:
	fs_drafts_clear(&dl);
	fs_identity_clear(&me);
	g_free(drafts_dir);
	cli_free_threads(threads, nthreads);
	cli_ctx_close(&ctx);
	free(query);
	free(msgid);
	return rc;
}
