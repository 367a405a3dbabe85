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
#include "fixscan/lore.h"
#include "fixscan/drafts.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/mail.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/source.h"
#include "fixscan/text.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "fixscan/crossbranch.h"
#include "fixscan/session.h"

static const char usage_text[] =
	"usage: fixscan review [options] WHAT\n"
	"       fixscan review --all-open [--since WHEN] [options]\n"
	"       fixscan review [options] --mbox FILE\n"
	"       fixscan review [options] --queue DIR\n"
	"\n"
	"Review every patch of a stable review thread in the notmuch store\n"
	"against the kernel repository. WHAT is a Message-Id (with or without\n"
	"id: and <>), a lore link to one of its mails, a thread: id, any\n"
	"notmuch query, or - for a message on standard input.  A Message-Id\n"
	"or link whose thread is not in the store is fetched with b4 (else\n"
	"lei) when it is on PATH.\n"
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
	"    --no-lore        do not search lore (fixscan.lore) for fixes and reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    --no-fetch       never fetch a thread missing from the store with\n"
	"                     b4 or lei (also: git config fixscan.fetch false)\n"
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

/* Turn WHAT into a notmuch query: a Message-Id (bare, in <>, after id:
 * or mid:, or in a lore link) becomes a quoted id: query; anything else
 * is a query.  *MSGID gets the Message-Id when WHAT named one (g_free()),
 * else NULL. */
static char *what_to_query(const char *what, char **msgid)
{
	char *lore = fs_lore_message_id(what), *q;
	size_t n;

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
	/* The id without its <> ("message <x@y>", not "<<x@y>>"). */
	n = strlen(what);
	if (n >= 2 && what[0] == '<' && what[n - 1] == '>')
		*msgid = g_strndup(what + 1, n - 2);
	else
		*msgid = g_strdup(what);
	return cli_id_query(what);
}

/* Whether WHAT is a web link that names no plain Message-Id (none in
 * its path, or one whose escapes give white space or control bytes):
 * such a link is neither a query nor anything to fetch. */
static bool is_link_without_id(const char *what)
{
	char *id;

	if (strncmp(what, "https://", 8) && strncmp(what, "http://", 7))
		return false;
	id = fs_lore_message_id(what);
	g_free(id);
	return id == NULL;
}

static int link_refused(const char *what, struct fs_error *err)
{
	char *shown = fs_text_visible(what, false);
	int rc = fs_error_set(err, FS_EUSAGE,
			      "'%s' names no plain Message-Id (none in its path, or one with white space or control characters): not fetched",
			      shown ? shown : "?");

	g_free(shown);
	return rc;
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
	*msgid = g_strdup(fs_patch_message_id(p));
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

/* Whether STORE has the message MSGID (with or without <>): a mail of
 * it, not only the ghost notmuch keeps for an id that others answer or
 * name (the reviewer's drafts to a thread fetched earlier). */
static bool message_known(struct fs_store *store, const char *msgid)
{
	struct fs_store_messages m = { NULL, 0 };
	char *q = cli_id_query(msgid);
	bool known = q && fs_store_search(store, q, &m, NULL) == 0 && m.n;

	fs_store_messages_free(&m);
	free(q);
	return known;
}

/* The error when nothing was reviewed: the Message-Id MSGID (may be
 * NULL) is not in the store; WHAT (QUERY) matches no message; or what it
 * matches (NTHREADS threads) is no stable review thread, named by the
 * subject of its first mail. */
static int nothing_reviewed(struct fs_store *store, const char *query, const char *msgid,
			    const char *what, size_t nthreads, bool fetch_off, struct fs_error *err)
{
	struct fs_store_messages m = { NULL, 0 };
	int rc;

	if (msgid && !message_known(store, msgid))
		return fs_error_set(err, FS_ENOTFOUND,
				    "message <%s> is not in the notmuch store%s: fetch its thread (b4 mbox '%s') and review it with --mbox FILE, or add it to the store (lei q, then notmuch new)",
				    msgid, fetch_off ? " and fetching is off (--no-fetch, fixscan.fetch)" :
				    " and neither b4 nor lei is on PATH", msgid);
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

/* What one review run works with. */
struct run {
	struct cli_ctx ctx;
	struct fs_report_opts popts;
	FILE *out;            /* the reports: stdout, stderr with --dry-run */
	bool json;
	bool all_open;
	bool drafts, dry_run, force, every;
	int mode;             /* enum fs_draft_mode */
	const char *drafts_dir_flag;
	char *drafts_dir;
	const char *color_when;
	struct fs_identity me;
	struct fs_drafts dl;
	/* --json --dry-run: the drafts go into the JSON (NULL otherwise) */
	const struct dry_run *json_drafts;
	struct dry_run dr;
	size_t reviewed;
	bool problems, trouble, clone_age_said;
	time_t now, since;
	const char *msgid;    /* the Message-Id WHAT names, or NULL */
	bool no_fetch;        /* --no-fetch or fixscan.fetch false */
	const char *fetched;  /* the program that fetched the thread, or NULL */
};

/* Save the drafts into the drafts maildir (fs_session_write_drafts())
 * and say what happened on stderr, one line per draft. */
static int write_drafts(struct run *x, struct fs_error *err)
{
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	int rc;

	rc = fs_session_write_drafts(x->ctx.s, &x->dl, x->drafts_dir, x->force, &saved, &notes, err);
	cli_print_notes(&notes);
	cli_print_saved(stderr, &saved, 0);
	fs_drafts_saved_clear(&saved);
	return rc;
}

/* What --dry-run shows is what a real run into DIR would write: the
 * drafts of DL from FIRST on that it would leave out (the patch answered,
 * the draft deleted) are taken out, and counted on standard error.
 * Without DIR (an mbox without --drafts-dir) there is nothing to compare
 * with.  Returns 0 or a negative code with ERR set. */
static int drop_skipped(struct run *x, size_t first, const struct dry_run *dr,
			struct fs_error *err)
{
	struct fs_drafts_saved counts = FS_DRAFTS_SAVED_INIT;
	struct fs_drafts tail = { x->dl.v + first, x->dl.n - first };
	char *line;
	int rc;

	if (!dr || !dr->dir || first >= x->dl.n)
		return 0;
	rc = fs_session_drop_skipped(x->ctx.s, &tail, dr->dir, dr->force, &counts, err);
	x->dl.n = first + tail.n;
	if (rc == 0 && (line = fs_session_skipped_text(&counts))) {
		fprintf(stderr, "%s\n", line);
		g_free(line);
	}
	return rc;
}

/* ---- the reviews (fs_session_review()'s callbacks) ----------------------- */

static void on_reviewed(void *data, const struct fs_review *r)
{
	struct run *x = data;

	cli_clone_age_notice(&x->ctx, r, &x->clone_age_said);
}

static void on_failed(void *data, const struct fs_thread_series *s, const struct fs_error *err)
{
	struct run *x = data;

	/* --all-open: a branch the clone does not have (4.19 not fetched)
	 * is the user's choice: said, not trouble, as digest does. */
	if (x->all_open && err->code == FS_ENOTFOUND) {
		cli_note("not reviewed: %s", err->message);
		return;
	}
	cli_error(err);
	x->trouble = true;
}

static void on_note(void *data, const char *text)
{
	cli_note("%s", text);
}

/* --all-open: the open reviews and their matrix on top. */
static void on_open(void *data, struct fs_review *const *v, size_t n,
		    const struct fs_cross_matrix *matrix)
{
	struct run *x = data;
	size_t i;

	if (!n)
		cli_note("no open stable review thread%s",
			 x->since ? " and none arrived since --since" : "");
	if (!n || x->json || x->popts.mode == FS_REPORT_QUIET)
		return;
	fprintf(x->out, "open reviews:");
	for (i = 0; i < n; i++)
		fprintf(x->out, "%s %s (%s)", i ? "," : "",
			v[i]->series->release ? v[i]->series->release : "a lone patch", v[i]->branch);
	fputc('\n', x->out);
	fs_cross_matrix_text(x->out, matrix);
}

/* Print the report of R, and add the drafts it asks for to x->dl; with
 * --json --dry-run, print them inside its JSON. */
static int on_review(void *data, const struct fs_thread_series *s, struct fs_review *r,
		     struct fs_error *err)
{
	struct run *x = data;
	struct fs_error one = FS_ERROR_INIT;
	size_t first = x->dl.n;

	/* A series read only for its replies has no patch mail to answer. */
	if (x->drafts && s->npatches &&
	    fs_drafts_build_opts(&x->dl, r, &x->me, fs_session_draft_opts(x->ctx.s), &one) < 0) {
		cli_error(&one);
		x->trouble = true;
	}
	/* A blank line between reports (and after the matrix). */
	if ((x->reviewed || x->all_open) && !x->json && x->popts.mode != FS_REPORT_QUIET)
		fputc('\n', x->out);
	if (x->json) {
		if (drop_skipped(x, first, x->json_drafts, &one) < 0) {
			cli_error(&one);
			x->trouble = true;
		}
		if (print_json(x->out, r, x->json_drafts ? &x->dl : NULL, first) < 0)
			x->trouble = true;
	} else if (print_text(x->out, r, &x->popts) < 0) {
		x->trouble = true;
	}
	if (r->problems)
		x->problems = true;
	x->reviewed++;
	fs_review_free(r);
	return 0;
}

/* Review the series of THREADS: every one, or with --all-open the open
 * ones together. */
static int review_set(struct run *x, struct fs_thread **threads, size_t nthreads,
		      struct fs_error *err)
{
	struct fs_review_set set = {
		.threads = threads, .nthreads = nthreads, .mode = FS_SET_EACH,
		.now = x->now, .since = x->since, .lone_covers = true, .patchless_replies = true,
	};
	struct fs_review_set_cbs cb = {
		.data = x, .reviewed = on_reviewed, .failed = on_failed, .note = on_note,
		.open = on_open, .review = on_review,
	};

	if (x->all_open) {
		set.mode = FS_SET_OPEN;
		set.lone_covers = false;
		set.patchless_replies = false;
	}
	return fs_session_review(x->ctx.s, &set, &cb, err);
}

/* ---- the command --------------------------------------------------------- */

/* The store, which the notmuch thread is read from.  An mbox or a queue
 * (FROM_FILE) needs no notmuch configuration at all; when there is a
 * store, it still tells who the reviewer is (their mail is no
 * objection, their replies answer patches), but its regression reports
 * are not searched: the thread is not in it (*SAY_NO_STORE: say so). */
static int open_store(struct cli_ctx *c, bool from_file, bool *say_no_store,
		      struct fs_error *err)
{
	struct fs_error ignored = FS_ERROR_INIT;
	struct fs_review_opts *ro;

	if (!from_file)
		return cli_ctx_open_store(c, false, err);
	(void)cli_ctx_open_store(c, true, &ignored);
	ro = fs_session_review_opts(c->s);
	*say_no_store = !ro->no_reports;
	ro->no_reports = true;
	return 0;
}

/* Before the review, so that a missing identity costs nothing: the
 * identity into x->me, the drafts' options, and the drafts maildir into
 * x->drafts_dir (--drafts-dir, else with a store its fixscan.drafts or
 * <mail root>/Drafts).  A dry run writes nothing there, but compares
 * with it; without a folder it leaves the folder NULL. */
static int prepare_drafts(struct run *x, struct fs_error *err)
{
	struct fs_store *store = fs_session_store(x->ctx.s);
	const char *cfg = store ? fs_store_config(store, "fixscan.drafts") : NULL;
	const char *root = store ? fs_store_path(store) : NULL;
	int rc = fs_session_identity(x->ctx.s, &x->me, err);

	if (rc == 0)
		rc = fs_session_prepare_drafts(x->ctx.s, x->mode, x->every, x->now, err);
	if (rc < 0 || (x->dry_run && !x->drafts_dir_flag && !root))
		return rc;
	x->drafts_dir = fs_drafts_dir(x->drafts_dir_flag, cfg, root, err);
	if (x->drafts_dir)
		fs_session_drafts_folder(x->ctx.s, x->drafts_dir, x->force);
	return x->drafts_dir ? 0 : err->code;
}

/* After the reviews: the drafts written, or with --dry-run printed as an
 * mbox on standard output (with --json they are in the JSON already). */
static int finish_drafts(struct run *x, struct fs_error *err)
{
	int rc = 0;

	if (!x->drafts || (x->dry_run && x->json))
		return 0;
	if (x->dry_run) {
		rc = drop_skipped(x, 0, &x->dr, err);
		if (rc < 0)
			return rc;
		fflush(stdout);
		print_drafts(stdout, &x->dl, x->now);
	} else if (x->dl.n) {
		fflush(stdout);
		rc = write_drafts(x, err);
	} else {
		fprintf(stderr, "draft: no findings to answer, no drafts written\n");
	}
	return rc;
}

/* The options into X and SRC; WHAT is argv[optind] after it.  Returns -1
 * when all is well, else an exit status or a negative code with ERR set
 * (--since). */
static int parse_options(struct run *x, struct fs_source *src, int argc, char **argv,
			 struct fs_error *err)
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
		{ "no-lore", no_argument, NULL, 'L' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "no-fetch", no_argument, NULL, 'X' },
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
	const char *since_arg = NULL;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hvq", options, NULL)) != -1) {
		switch (c) {
		case 'r': x->ctx.repo_flag = optarg; break;
		case 'b': x->ctx.sopts.review.branch = optarg; break;
		case 'B': x->ctx.sopts.review.base = optarg; break;
		case 'j': x->json = true; break;
		case 'a': x->popts.all = true; break;
		case 'o': x->all_open = true; break;
		case 'S': since_arg = optarg; break;
		case 'i': x->ctx.sopts.ignore = optarg; break;
		case 'R': x->ctx.sopts.review.no_reports = true; break;
		case 'L': x->ctx.sopts.no_lore = true; break;
		case 'N': x->ctx.sopts.index.no_update = true; break;
		case 'X': x->no_fetch = true; break;
		case 'V': x->ctx.sopts.vulns = optarg; break;
		case 'D':
			x->drafts = true;
			x->mode = fs_draft_mode_from_name(optarg);
			if (x->mode < 0)
				return cli_usage_error(argv[0], "--drafts takes all, summary or patches, not '%s'",
						       optarg);
			break;
		case 'O': x->drafts = true; x->drafts_dir_flag = optarg; break;
		case 'n': x->drafts = true; x->dry_run = true; break;
		case 'f': x->force = true; break;
		case 'F':
			if (cli_drafts_for(optarg, &x->every) < 0)
				return cli_usage_error(argv[0], "--drafts-for takes action or every-finding, not '%s'",
						       optarg);
			break;
		case 'c': x->color_when = optarg ? optarg : "always"; break;
		case 'v': x->popts.verbose = true; break;
		case 's': x->popts.mode = FS_REPORT_SHORT; break;
		case 'q': x->popts.mode = FS_REPORT_QUIET; break;
		case 'M':
		case 'Q':
			if (src->what)
				return cli_usage_error(argv[0], "give one --mbox or --queue");
			src->kind = c == 'M' ? FS_SOURCE_MBOX : FS_SOURCE_QUEUE;
			src->what = optarg;
			break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (since_arg && !x->all_open)
		return cli_usage_error(argv[0], "--since '%s' goes with --all-open", since_arg);
	if (since_arg && fs_date_parse(since_arg, x->now, &x->since, err) < 0)
		return fs_error_prefix(err, "%s: --since", argv[0]);
	return check_what_usage(argv[0], x->all_open, src, argc - optind, x->drafts, x->dry_run,
				x->drafts_dir_flag);
}

/* The Message-Id x->msgid is in no thread of the store: its thread in
 * *THREADS, fetched with b4 or lei, unless fetching is off (--no-fetch,
 * fixscan.fetch false), neither is on PATH, or the store has the message
 * (then nothing_reviewed() says why there is nothing).  An id that is no
 * plain Message-Id is refused before anything runs.  Returns 0 or a
 * negative code with ERR set. */
static int fetch_thread(struct run *x, struct fs_thread ***threads, size_t *nthreads,
			struct fs_error *err)
{
	struct fs_source src = FS_SOURCE_INIT;
	bool on = true;
	int rc;

	if (x->no_fetch || message_known(fs_session_store(x->ctx.s), x->msgid))
		return 0;
	rc = fs_config_get_bool(fs_session_config(x->ctx.s), "fixscan.fetch", &on, err);
	if (rc == FS_EPARSE)
		return rc;
	x->no_fetch = !on;
	if (x->no_fetch || !(src.tool = fs_source_fetch_tool()))
		return 0;
	if ((rc = fs_source_fetch_check_id(x->msgid, err)) < 0)
		return rc;
	cli_note("message <%s> is not in the notmuch store: fetching its thread with %s",
		 x->msgid, !strcmp(src.tool, "b4") ? "b4 mbox" : "lei q");
	src.kind = FS_SOURCE_FETCH;
	src.what = x->msgid;
	/* The store's answer, an empty array, makes way for the fetched. */
	cli_free_threads(*threads, *nthreads);
	*threads = NULL;
	*nthreads = 0;
	rc = cli_load_source(&src, threads, nthreads, err);
	if (rc < 0)
		return rc;
	x->fetched = src.tool;
	/* The thread is not in the store: as with --mbox, its replies
	 * there (regression reports) are not searched. */
	if (!fs_session_review_opts(x->ctx.s)->no_reports)
		cli_note("not from the mail store: regression reports not searched");
	fs_session_review_opts(x->ctx.s)->no_reports = true;
	return 0;
}

/* The session, the store, the drafts' options and the threads to review
 * (WHAT's QUERY, --all-open's, or SRC), then the index when there is
 * anything to review.  Returns 0, 1 when --all-open has nothing open
 * (said), or a negative code. */
static int open_all(struct run *x, const struct fs_source *src, const char *query_in,
		    struct fs_thread ***threads, size_t *nthreads, struct fs_error *err)
{
	char *query = NULL;
	bool say_no_store = false;
	int color = 0, rc;

	rc = cli_ctx_setup(&x->ctx, err);
	if (rc == 0 && (color = cli_color_wanted(x->color_when, fs_session_config(x->ctx.s))) < 0)
		rc = fs_error_set(err, FS_EUSAGE, "review: --color takes always, never or auto, not '%s'",
				  x->color_when);
	x->popts.color = rc == 0 && color > 0;
	x->popts.width = cli_term_width();
	if (rc == 0)
		rc = open_store(&x->ctx, src->what != NULL, &say_no_store, err);
	if (rc == 0 && x->drafts)
		rc = prepare_drafts(x, err);
	if (rc < 0)
		return rc;
	if (src->what) {
		rc = cli_load_source(src, threads, nthreads, err);
		if (rc == 0 && say_no_store)
			cli_note("%s: regression reports not searched",
				 fs_session_store(x->ctx.s) ? "not from the mail store" : "no mail store");
	} else {
		if (x->all_open)
			rc = fs_session_open_query(x->ctx.s, x->now, x->since, &query, err);
		if (rc == 0 && (query || query_in))
			rc = cli_load_threads(fs_session_store(x->ctx.s), query ? query : query_in,
					      threads, nthreads, err);
		g_free(query);
		if (rc == 0 && !*nthreads && x->msgid && !x->all_open)
			rc = fetch_thread(x, threads, nthreads, err);
	}
	/* Nothing to review needs no index (which may take a while);
	 * --all-open says itself that nothing is open. */
	if (rc == 0 && *nthreads)
		return cli_ctx_open_index(&x->ctx, err);
	if (rc == 0 && x->all_open) {
		cli_note("no open stable review thread%s",
			 x->since ? " and none arrived since --since" : "");
		return 1;
	}
	return rc;
}

int cmd_review(int argc, char **argv, struct fs_error *err)
{
	static const struct fs_report_opts popts = FS_REPORT_OPTS_INIT;
	static const struct fs_identity no_one = FS_IDENTITY_INIT;
	static const struct fs_drafts no_drafts = FS_DRAFTS_INIT;
	struct fs_source src = FS_SOURCE_INIT;
	struct fs_thread **threads = NULL;
	size_t nthreads = 0;
	char *query = NULL, *msgid = NULL;
	struct run x;
	int rc;

	memset(&x, 0, sizeof(x));
	cli_ctx_init(&x.ctx);
	x.popts = popts;
	x.me = no_one;
	x.dl = no_drafts;
	x.mode = FS_DRAFTS_ALL;
	x.now = time(NULL);
	if ((rc = parse_options(&x, &src, argc, argv, err)) != -1)
		return rc;
	if (x.all_open || src.what)
		rc = 0; /* --all-open: the query needs the store, below */
	else if (!strcmp(argv[optind], "-"))
		rc = stdin_query(&query, &msgid, err);
	else if (is_link_without_id(argv[optind]))
		rc = link_refused(argv[optind], err);
	else
		rc = (query = what_to_query(argv[optind], &msgid)) ? 0 :
			fs_error_set(err, FS_ENOMEM, "out of memory");
	x.msgid = msgid;
	if (rc == 0)
		rc = open_all(&x, &src, query, &threads, &nthreads, err);
	if (rc != 0) {
		rc = rc < 0 ? rc : FS_EXIT_CLEAN;
		goto out;
	}
	x.dr.dir = x.drafts_dir;
	x.dr.force = x.force;
	/* With --dry-run standard output is the mbox of the drafts alone
	 * (mutt -f opens it); the report goes to standard error.  With
	 * --json too, the drafts go into the JSON on standard output. */
	x.out = x.dry_run && !x.json ? stderr : stdout;
	x.json_drafts = x.dry_run && x.json ? &x.dr : NULL;
	rc = review_set(&x, threads, nthreads, err);
	if (rc < 0)
		goto out;
	/* --all-open: none open is no error */
	if (!x.reviewed && !x.trouble && !x.all_open) {
		if (src.what)
			rc = fs_error_set(err, FS_ENOTFOUND, "no stable review series in '%s'", src.what);
		else if (x.fetched)
			rc = fs_error_set(err, FS_ENOTFOUND,
					  "no stable review series in the thread of <%s> from %s",
					  msgid, x.fetched);
		else
			rc = nothing_reviewed(fs_session_store(x.ctx.s), query, msgid, argv[optind],
					      nthreads, x.no_fetch, err);
		goto out;
	}
	rc = finish_drafts(&x, err);
	if (rc == 0)
		rc = x.trouble ? FS_EXIT_TROUBLE : x.problems ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
out:
	fs_drafts_clear(&x.dl);
	fs_identity_clear(&x.me);
	g_free(x.drafts_dir);
	cli_free_threads(threads, nthreads);
	cli_ctx_close(&x.ctx);
	free(query);
	g_free(msgid);
	return rc;
}
