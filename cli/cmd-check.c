/* fixscan check: the findings for the one message a mail client pipes in.
 *
 * Made for mutt's <pipe-message>: the message arrives on standard input
 * (nothing of it is ever put on a command line), and the output goes to
 * the pager, so it is plain text wrapped under 80 columns, without
 * progress and without colour unless asked (--color, or color.ui set to
 * always: a pipe is no terminal).  The patch is judged within its series when the notmuch
 * store has its thread, else on its own. */
#include <errno.h>
#include <getopt.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fixscan/text.h"
#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/kinds.h"
#include "fixscan/mail.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/session.h"
#include "fixscan/source.h"
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
	"    --mbox MBOX      find the message's thread in the mbox MBOX (gzip'd\n"
	"                     or not), not in the notmuch store\n"
	"    --drafts[=WHICH] write draft replies into the drafts maildir: with\n"
	"                     --thread one per patch with findings and a summary\n"
	"                     to the cover (WHICH: all, the default; summary;\n"
	"                     patches), else the reply to this patch\n"
	"    --drafts-dir DIR the maildir for drafts (default: fixscan.drafts in\n"
	"                     the notmuch config, else <mail root>/Drafts; with\n"
	"                     --mbox it must be given)\n"
	"    --force          with --drafts, write again the drafts you deleted\n"
	"    --short          one line per flagged patch, most serious first, and\n"
	"                     the drafts in one line per kind of action, through\n"
	"                     the pager on a terminal (what the mutt macro ,r\n"
	"                     shows)\n"
	"    --drafts-for=WHAT which patches get a reply of their own: action (the\n"
	"                     default: a fix to queue, a patch to drop, a report\n"
	"                     to answer ...) or every-finding\n"
	"    --repo PATH      the kernel repository\n"
	"    --ignore FILE    pairs to silence (default: fixscan.ignore, or\n"
	"                     $XDG_CONFIG_HOME/fixscan/ignore)\n"
	"    --no-reports     do not search the store for regression reports\n"
	"    --no-lore        do not search lore (fixscan.lore) for fixes and reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    --vulns PATH     the kernel CNA's vulns clone, for CVE ids (default:\n"
	"                     fixscan.vulns)\n"
	"    --color[=WHEN]   colour the finding kinds: always, never or auto (the\n"
	"                     default: fixscan.color, else color.ui, else auto:\n"
	"                     on a terminal, unless NO_COLOR is set)\n"
	"    --format=b4      print one JSON array for b4 review's per-patch check\n"
	"                     (b4.review-perpatch-check-cmd) and exit 0 whenever\n"
	"                     the check ran; status fail, warn or pass\n"
	"    -h, --help       show this help\n"
	"\n"
	"A message that is not a stable patch gets one line saying so.\n"
	"Exit status: 0 nothing that asks for action, 1 findings that do,\n"
	"2 trouble.\n";

/* The text report of R, wrapped, into OUT; ALL lists patches without
 * findings too; BRIEF (--short): one line per flagged patch.  Returns
 * R's number of problems, or -1. */
static int print_review_to(FILE *out, const struct fs_review *r, bool all, bool color, bool brief)
{
	struct fs_report_opts popts = FS_REPORT_OPTS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	popts.color = color;
	popts.width = CHECK_WIDTH;
	popts.all = all;
	if (brief)
		popts.mode = FS_REPORT_SHORT;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -1;
	rc = fs_report_text(mem, r, &popts);
	if (fclose(mem) || rc < 0) {
		free(buf);
		return -1;
	}
	cli_print_wrapped(out, buf, CHECK_WIDTH);
	free(buf);
	return (int)r->problems;
}

/* ---- --format=b4 ---------------------------------------------------------- */

/* What b4 review's per-patch check gets: one result. */
struct b4_result {
	const char *status;      /* "pass", "warn" or "fail" */
	char *summary;           /* one line */
	char *url;               /* the patch on lore, or NULL */
	char *details;           /* the patch's report */
};

/* "fail" when a finding of R asks for action, "warn" when the findings
 * shown are advisory only (a kind that can ask but not this time, a
 * reply, a partly picked series), else "pass" (none, or only a fix
 * present or queued). */
static const char *b4_status(const struct fs_review *r)
{
	size_t i, k;
	bool advisory = false;

	if (r->problems)
		return "fail";
	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];
			advisory |= !f->ignored && !fs_kind_says_covered(f->kind);
		}
	return advisory ? "warn" : "pass";
}

/* "1 fix-missing, 1 backport-differs", or "no findings". */
static char *b4_summary(const struct fs_review *r)
{
	GString *s = g_string_new(NULL);
	int k;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++)
		if (r->counts[k])
			g_string_append_printf(s, "%s%zu %s", s->len ? ", " : "", r->counts[k],
					       fs_finding_kind_name(k));
	if (!s->len)
		g_string_append(s, "no findings");
	return g_string_free(s, FALSE);
}

/* Fill *B from the view R of the one patch checked. */
static int b4_fill(struct b4_result *b, const struct fs_review *r, const char *msgid)
{
	char *buf = NULL, *id;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return -1;
	if (print_review_to(mem, r, true, false, false) < 0) {
		fclose(mem);
		free(buf);
		return -1;
	}
	if (fclose(mem)) {
		free(buf);
		return -1;
	}
	b->status = b4_status(r);
	b->summary = b4_summary(r);
	b->details = g_strdup(buf);
	free(buf);
	id = msgid ? fs_text_clean_id(msgid) : NULL;
	b->url = id ? g_strdup_printf("https://lore.kernel.org/r/%s", id) : NULL;
	g_free(id);
	return 0;
}

/* Print B as b4 reads it: a JSON array of one object, on one line. */
static int b4_print(const struct b4_result *b)
{
	struct fs_json *j = fs_json_new();
	int rc;

	fs_json_begin_array(j);
	fs_json_begin_object(j);
	fs_json_str(j, "tool", "fixscan");
	fs_json_str(j, "status", b->status);
	fs_json_str(j, "summary", b->summary);
	fs_json_str(j, "url", b->url);
	fs_json_str(j, "details", b->details ? b->details : "");
	fs_json_end_object(j);
	fs_json_end_array(j);
	rc = fs_json_print_line(j, stdout);
	fs_json_free(j);
	return rc;
}

static void b4_clear(struct b4_result *b)
{
	g_free(b->summary);
	g_free(b->url);
	g_free(b->details);
	memset(b, 0, sizeof(*b));
}

/* Print the text report of R to stdout (see print_review_to()). */
static int print_review(const struct fs_review *r, bool all, bool color, bool brief)
{
	return print_review_to(stdout, r, all, color, brief);
}

/* Save the drafts into the drafts maildir (fs_session_write_drafts()).
 * Says what it did on stdout, one line per draft (BRIEF: per kind of
 * action): that is the pager the user looks at. */
static int write_drafts(struct cli_ctx *ctx, const struct fs_drafts *dl, const char *dir,
			bool force, bool brief, struct fs_error *err)
{
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	int rc;

	rc = fs_session_write_drafts(ctx->s, dl, dir, force, &saved, &notes, err);
	cli_print_notes(&notes);
	if (brief)
		cli_print_saved_brief(stdout, &saved, CHECK_WIDTH);
	else
		cli_print_saved(stdout, &saved, CHECK_WIDTH);
	fs_drafts_saved_clear(&saved);
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

/* What one check run works with. */
struct check {
	struct cli_ctx ctx;
	const char *file;        /* FILE, or "-" */
	const char *mbox;        /* --mbox: the threads come from there */
	bool whole;              /* --thread, or the message is a cover */
	bool drafts;
	int mode;                /* enum fs_draft_mode, for --thread */
	const char *drafts_dir_flag;
	bool force;              /* --force */
	bool every;              /* --drafts-for=every-finding */
	bool brief;              /* --short */
	struct fs_patch *msg;    /* the message read, until the thread owns it */
	char *msgid;             /* its Message-Id, or NULL */
	bool in_store;           /* the store (or the --mbox file) has it:
				  * review its series */
	struct fs_thread **threads;
	size_t nthreads;
	struct fs_identity me;
	bool clone_age_said;     /* the stale-clone notice was given */
	size_t reviewed;         /* series reported */
	bool problems, trouble;
	const char *color_when;  /* --color=WHEN, or NULL */
	bool color;
	bool b4;                 /* --format=b4 */
	struct b4_result b4r;    /* its result */
	struct fs_drafts dl;
	char *drafts_dir;
	time_t now;
};

/* Read the one message of C->file into C->msg.  Returns 1 when it is a
 * stable patch (or cover) to check, 0 when it is not (said on stdout),
 * or a negative code. */
static int read_message(struct check *c, struct fs_error *err)
{
	struct fs_mail_reader *reader = NULL;
	int rc;

	rc = fs_mail_reader_open(&reader, c->file, err);
	if (rc == 0)
		rc = fs_mail_reader_next(reader, &c->msg, err);
	fs_mail_reader_free(reader);
	if (rc == 0)
		rc = fs_error_set(err, FS_EPARSE, "'%s' holds no message",
				  strcmp(c->file, "-") ? c->file : "standard input");
	if (rc < 0)
		return rc;
	/* A cover letter is checked as its whole thread: it has no
	 * findings of its own. */
	if (is_stable_patch(c->msg, true) && fs_patch_series(c->msg)->index == 0)
		c->whole = true;
	if (c->b4 && (c->whole || !is_stable_patch(c->msg, false))) {
		c->b4r.status = "pass";
		c->b4r.summary = g_strdup(c->whole ? "a cover letter: no findings of its own" :
					  "not a stable patch: nothing to check");
		return 0;
	}
	if (!is_stable_patch(c->msg, c->whole)) {
		fputs("fixscan: not a stable patch: ", stdout);
		fs_text_fputs(*fs_patch_subject(c->msg) ? fs_patch_subject(c->msg) : "(no subject)",
			      false, stdout);
		putchar('\n');
		return 0;
	}
	/* A copy: MSG is given away or freed before the review. */
	if (fs_patch_message_id(c->msg) && !(c->msgid = strdup(fs_patch_message_id(c->msg))))
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 1;
}

/* The identity and the folder drafts are written as, before the review
 * so that a missing identity costs nothing. */
static int prepare_drafts(struct check *c, struct fs_error *err)
{
	struct fs_store *store = fs_session_store(c->ctx.s);
	int rc = fs_session_identity(c->ctx.s, &c->me, err);

	if (rc == 0)
		rc = fs_session_prepare_drafts(c->ctx.s, c->mode, c->every, c->now, err);
	if (rc < 0)
		return rc;
	if (!store && !c->drafts_dir_flag)
		return fs_error_set(err, FS_ENOTFOUND,
				    "no notmuch store to find the drafts folder in: use --drafts-dir");
	if (!(c->drafts_dir = fs_drafts_dir(c->drafts_dir_flag,
					    store ? fs_store_config(store, "fixscan.drafts") : NULL,
					    store ? fs_store_path(store) : NULL, err)))
		return err->code;
	fs_session_drafts_folder(c->ctx.s, c->drafts_dir, c->force);
	return 0;
}

/* The threads of the --mbox file when one of them holds the message (by
 * its Message-Id): 0 with C->threads set, 1 when none does (nothing
 * kept), or a negative code. */
static int load_from_mbox(struct check *c, struct fs_error *err)
{
	struct fs_source src = FS_SOURCE_INIT;
	size_t i, k, j;
	int rc;

	src.kind = FS_SOURCE_MBOX;
	src.what = c->mbox;
	rc = cli_load_source(&src, &c->threads, &c->nthreads, err);
	if (rc < 0)
		return rc;
	for (i = 0; c->msgid && i < c->nthreads; i++)
		for (k = 0; k < fs_thread_count(c->threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(c->threads[i], k);
			for (j = 0; j < s->npatches + (s->cover != NULL); j++) {
				const struct fs_patch *p = j < s->npatches ? s->patches[j] : s->cover;
				const char *id = fs_patch_message_id(p);
				if (id && !strcmp(id, c->msgid)) {
					c->in_store = true;
					fs_patch_free(c->msg); /* the mbox's copy is used */
					c->msg = NULL;
					return 0;
				}
			}
		}
	cli_free_threads(c->threads, c->nthreads);
	c->threads = NULL;
	c->nthreads = 0;
	return 1;
}

/* The threads to review: the message's thread from the store (or the
 * --mbox file) when it is there, else the message alone as a series of
 * one. */
static int load_series(struct check *c, struct fs_error *err)
{
	struct fs_store_message found;
	struct fs_patch *one[1];
	char *quoted, *query = NULL;
	int rc;

	if (c->mbox && (rc = load_from_mbox(c, err)) <= 0)
		return rc;
	if (c->mbox && c->whole)
		return fs_error_set(err, FS_ENOTFOUND,
				    "the message %s%s%s is not in '%s': cannot review its thread",
				    c->msgid ? "<" : "", c->msgid ? c->msgid : "without Message-Id",
				    c->msgid ? ">" : "", c->mbox);
	memset(&found, 0, sizeof(found));
	if (fs_session_store(c->ctx.s) && c->msgid &&
	    fs_store_find_message(fs_session_store(c->ctx.s), c->msgid, &found, NULL) == 0) {
		c->in_store = true;
		quoted = fs_store_quote(found.thread_id);
		if (quoted && asprintf(&query, "thread:%s", quoted) < 0)
			query = NULL;
		g_free(quoted);
		fs_store_message_clear(&found);
		rc = query ? cli_load_threads(fs_session_store(c->ctx.s), query, &c->threads, &c->nthreads, err) :
			fs_error_set(err, FS_ENOMEM, "out of memory");
		free(query);
		fs_patch_free(c->msg); /* the store's copy is used instead */
		c->msg = NULL;
		return rc;
	}
	if (c->whole)
		return fs_error_set(err, FS_ENOTFOUND,
				    "the message %s%s%s is not in the notmuch store: cannot review its thread",
				    c->msgid ? "<" : "", c->msgid ? c->msgid : "without Message-Id",
				    c->msgid ? ">" : "");
	if (!(c->threads = calloc(1, sizeof(*c->threads))))
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	/* A series of one.  The thread owns the message from here. */
	one[0] = c->msg;
	c->msg = NULL;
	rc = fs_thread_build(&c->threads[0], one, 1, err);
	if (rc == 0)
		c->nthreads = 1;
	return rc;
}

/* Whether series S holds the message being checked. */
static bool holds_message(const struct check *c, const struct fs_thread_series *s)
{
	size_t j;

	for (j = 0; j < s->npatches; j++) {
		const char *id = fs_patch_message_id(s->patches[j]);
		if (!c->msgid || (id && !strcmp(id, c->msgid)))
			return true;
	}
	return false;
}

/* ---- the reviews (fs_session_review()'s callbacks) ----------------------- */

/* Every series with --thread, else the one holding the message. */
static bool on_want(void *data, const struct fs_thread_series *s)
{
	const struct check *c = data;

	return c->whole || holds_message(c, s);
}

static void on_reviewed(void *data, const struct fs_review *r)
{
	struct check *c = data;

	cli_clone_age_notice(&c->ctx, r, &c->clone_age_said);
}

/* A note of the review ("cannot compare backports ..."), on stderr. */
static void on_note(void *data, const char *text)
{
	cli_note("%s", text);
}

static void on_failed(void *data, const struct fs_thread_series *s, const struct fs_error *err)
{
	struct check *c = data;

	cli_error(err);
	c->trouble = true;
}

/* Print the report of R: of the whole series with --thread, else of the
 * message's patch alone (nothing when R does not hold it), and add the
 * drafts.  Returns 0 to go on, 1 when done, or a negative code. */
static int on_review(void *data, const struct fs_thread_series *s, struct fs_review *r,
		     struct fs_error *err)
{
	struct check *c = data;
	struct fs_review *view = NULL;
	struct fs_error one = FS_ERROR_INIT;
	struct fs_draft_opts *dopts = fs_session_draft_opts(c->ctx.s);
	size_t k;
	int problems, rc = 0;

	if (!c->whole) {
		if (!fs_review_find_patch(r, c->msgid, &k)) {
			fs_review_free(r);
			return 0;
		}
		rc = fs_review_narrow(&view, r, k, err);
		if (rc < 0) {
			fs_review_free(r);
			return rc;
		}
	}
	if (c->b4) {
		problems = b4_fill(&c->b4r, view ? view : r, c->msgid) < 0 ? -1 : 0;
	} else {
		if (c->reviewed)
			putchar('\n');
		problems = print_review(view ? view : r, view != NULL, c->color, c->brief);
	}
	/* Without --thread only the reply to this patch. */
	dopts->mode = view ? FS_DRAFTS_PATCHES : c->mode;
	if (problems >= 0 && c->drafts &&
	    fs_drafts_build_opts(&c->dl, view ? view : r, &c->me, dopts, &one) < 0) {
		cli_error(&one);
		c->trouble = true;
	}
	fs_review_free(view);
	fs_review_free(r);
	if (problems < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	c->problems |= problems > 0;
	c->reviewed++;
	/* Without --thread, only the message's series. */
	return c->whole ? 0 : 1;
}

/* Check every series that concerns the message; returns the exit status
 * or a negative code. */
static int check_all(struct check *c, struct fs_error *err)
{
	struct fs_review_set set = {
		.threads = c->threads, .nthreads = c->nthreads, .mode = FS_SET_EACH,
		.no_store = !c->in_store,
	};
	struct fs_review_set_cbs cb = {
		.data = c, .want = on_want, .reviewed = on_reviewed, .failed = on_failed,
		.note = on_note, .review = on_review,
	};
	int rc;

	rc = fs_session_review(c->ctx.s, &set, &cb, err);
	if (rc < 0)
		return rc;
	if (!c->reviewed && !c->trouble)
		return fs_error_set(err, FS_ENOTFOUND, "no stable review series found for %s%s%s",
				    c->msgid ? "<" : "the message", c->msgid ? c->msgid : "",
				    c->msgid ? ">" : "");
	if (c->b4 && !c->trouble)
		return b4_print(&c->b4r) < 0 ? fs_error_set(err, FS_EIO, "cannot write standard output") :
		       FS_EXIT_CLEAN;
	if (c->drafts && c->dl.n) {
		fflush(stdout);
		rc = write_drafts(&c->ctx, &c->dl, c->drafts_dir, c->force, c->brief, err);
		if (rc < 0)
			return rc;
	} else if (c->drafts) {
		printf("draft: no findings to answer, no drafts written\n");
	}
	return c->trouble ? FS_EXIT_TROUBLE : c->problems ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
}

static int parse_options(struct check *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "thread", no_argument, NULL, 't' },
		{ "mbox", required_argument, NULL, 'M' },
		{ "drafts", optional_argument, NULL, 'D' },
		{ "drafts-dir", required_argument, NULL, 'O' },
		{ "force", no_argument, NULL, 'f' },
		{ "drafts-for", required_argument, NULL, 'F' },
		{ "repo", required_argument, NULL, 'r' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-lore", no_argument, NULL, 'L' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "vulns", required_argument, NULL, 'V' },
		{ "color", optional_argument, NULL, 'c' },
		{ "short", no_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 't': c->whole = true; break;
		case 's': c->brief = true; break;
		case 'M': c->mbox = optarg; break;
		case 'D':
			c->drafts = true;
			c->mode = fs_draft_mode_from_name(optarg);
			if (c->mode < 0)
				return cli_usage_error(argv[0], "--drafts takes all, summary or patches, not '%s'",
						       optarg);
			break;
		case 'O': c->drafts = true; c->drafts_dir_flag = optarg; break;
		case 'f': c->force = true; break;
		case 'F':
			if (cli_drafts_for(optarg, &c->every) < 0)
				return cli_usage_error(argv[0], "--drafts-for takes action or every-finding, not '%s'",
						       optarg);
			break;
		case 'r': c->ctx.repo_flag = optarg; break;
		case 'i': c->ctx.sopts.ignore = optarg; break;
		case 'R': c->ctx.sopts.review.no_reports = true; break;
		case 'L': c->ctx.sopts.no_lore = true; break;
		case 'N': c->ctx.sopts.index.no_update = true; break;
		case 'V': c->ctx.sopts.vulns = optarg; break;
		case 'c': c->color_when = optarg ? optarg : "always"; break;
		case 'o':
			if (strcmp(optarg, "b4") && strcmp(optarg, "text"))
				return cli_usage_error(argv[0], "--format takes text or b4, not '%s'", optarg);
			c->b4 = !strcmp(optarg, "b4");
			break;
		case 'h': fputs(usage_text, stdout); return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error(argv[0], "give at most one FILE");
	if (optind < argc)
		c->file = argv[optind];
	if (c->mbox && !strcmp(c->mbox, "-") && !strcmp(c->file, "-"))
		return cli_usage_error(argv[0], "--mbox - and the message cannot both be standard input");
	if (c->b4 && (c->whole || c->drafts))
		return cli_usage_error(argv[0], "--format=b4 checks one patch: no --thread, no --drafts");
	return -1;
}

int cmd_check(int argc, char **argv, struct fs_error *err)
{
	static const struct fs_identity no_one = FS_IDENTITY_INIT;
	static const struct fs_drafts no_drafts = FS_DRAFTS_INIT;
	struct check c;
	int rc;

	memset(&c, 0, sizeof(c));
	cli_ctx_init(&c.ctx);
	c.file = "-";
	c.mode = FS_DRAFTS_ALL;
	c.me = no_one;
	c.dl = no_drafts;
	c.now = time(NULL);
	rc = parse_options(&c, argc, argv);
	if (rc >= 0)
		return rc;
	/* --short (mutt's ,r): what does not fit the screen is paged, so
	 * the most serious lines on top do not scroll away. */
	if (c.brief && cli_start_pager() < 0)
		cli_note("cannot start the pager: %s", strerror(errno));
	rc = read_message(&c, err);
	if (rc == 0 && c.b4)
		rc = b4_print(&c.b4r) < 0 ? fs_error_set(err, FS_EIO, "cannot write standard output") : 0;
	if (rc <= 0)
		goto out;
	rc = cli_ctx_setup(&c.ctx, err);
	if (rc == 0)
		rc = cli_color_option(argv[0], c.color_when, fs_session_config(c.ctx.s), &c.color, err);
	/* The store is optional here: without it (or without the message
	 * in it) the patch is judged alone. */
	if (rc == 0 && !c.mbox)
		rc = cli_ctx_open_store(&c.ctx, true, err);
	if (rc == 0 && c.drafts)
		rc = prepare_drafts(&c, err);
	if (rc == 0)
		rc = load_series(&c, err);
	if (rc == 0)
		rc = cli_ctx_open_index(&c.ctx, err);
	if (rc < 0)
		goto out;
	if (c.b4) {
		/* standard output is b4's JSON alone */
	} else if (!c.in_store && c.mbox) {
		fputs("(not in ", stdout);
		fs_text_fputs(c.mbox, false, stdout);
		fputs(": judged on its own, without its series)\n", stdout);
	} else if (!c.in_store) {
		printf("(not in the notmuch store: judged on its own, without its series)\n");
	}
	if (c.mbox && !fs_session_review_opts(c.ctx.s)->no_reports)
		cli_note("no mail store: regression reports not searched");
	rc = check_all(&c, err);
out:
	b4_clear(&c.b4r);
	fs_drafts_clear(&c.dl);
	fs_identity_clear(&c.me);
	g_free(c.drafts_dir);
	cli_free_threads(c.threads, c.nthreads);
	fs_patch_free(c.msg);
	free(c.msgid);
	cli_ctx_close(&c.ctx);
	return rc;
}
