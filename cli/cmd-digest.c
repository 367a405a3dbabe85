/* fixscan digest: the risky patches of every stable review thread that
 * arrived lately, ranked, for a daily look (or a daily mail from a timer).
 *
 * Each thread is reviewed exactly as fixscan review does; the digest only
 * adds the ranking (fixscan/digest.h) and the layout.  With --mail the
 * digest becomes one message in a maildir, once a day: the day is
 * remembered in $XDG_STATE_HOME/fixscan/digest, and a second run that
 * day writes nothing.  The user's own mail makes no thread "arrived
 * lately". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/crossbranch.h"
#include "fixscan/session.h"
#include "fixscan/text.h"
#include "fixscan/config.h"
#include "fixscan/date.h"
#include "fixscan/digest.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

#define DIGEST_WIDTH 78

/* Without fixscan.digestQuery or --query: every message with PATCH in its
 * subject is a candidate, and fixscan keeps the threads of those whose
 * "[...]" prefix names a kernel version or AUTOSEL ("[PATCH 4.4 03/24]",
 * "[PATCH AUTOSEL 4.5 01/05]", "[PATCH 5.10.y]"), replies included.  This is
 * done on the subjects notmuch returns rather than with a subject:/regex/
 * query, which costs as much and leaks in libnotmuch. */

static const char usage_text[] =
	"usage: fixscan digest [options]\n"
	"\n"
	"Review every stable review thread that arrived in the notmuch store\n"
	"since a time, and list the risky patches of all of them, highest risk\n"
	"first (the score is in fixscan-digest(1)), with the release, the\n"
	"deadline and a lore.kernel.org link.\n"
	"\n"
	"    --since WHEN     1d (default), yesterday, 2.weeks.ago, 3 days ago,\n"
	"                     YYYY-MM-DD[THH:MM], @EPOCH (fixscan-digest(1))\n"
	"    --query Q        the notmuch query for review threads (default:\n"
	"                     fixscan.digestQuery, or stable review subjects)\n"
	"    --json           one JSON object instead of text\n"
	"    --mail           write the digest as a message into the maildir\n"
	"                     fixscan.digestFolder (default: <mail root>/INBOX),\n"
	"                     once a day (a second run that day writes nothing\n"
	"                     and says so); print nothing else\n"
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
	"                     on a terminal, unless NO_COLOR is set); never in\n"
	"                     the --mail digest\n"
	"    -h, --help       show this help\n"
	"\n"
	"Exit status: 0 no risky patch, 1 risky patches, 2 trouble.\n";

/* ---- --mail ------------------------------------------------------------ */

/* A config value: the notmuch config first (where the drafts folder lives
 * too), then git config.  New string (g_free()) or NULL. */
static char *config_value(struct fs_store *st, struct fs_config *cfg, const char *key)
{
	const char *v = st ? fs_store_config(st, key) : NULL;
	char *s = NULL;

	if (v)
		return g_strdup(v);
	if (cfg && fs_config_get_string(cfg, key, &s) == 0 && s && !*s) {
		g_free(s);
		s = NULL;
	}
	return s;
}

/* --mail: TEXT as the digest mail (fs_digest_save()), from and to the
 * user of the notmuch config, into fixscan.digestFolder.  *STORE is the
 * read-only store of the review; it may be closed here. */
static int mail_digest(struct fs_store **store, struct fs_config *cfg, const char *text,
		       const struct fs_digest *d, time_t now, struct fs_error *err)
{
	struct fs_digest_mail m = FS_DIGEST_MAIL_INIT;
	char *folder = config_value(*store, cfg, "fixscan.digestFolder");
	char *state = fs_session_state_path("digest");
	int rc;

	m.state_file = state;
	m.folder = folder;
	m.name = fs_store_config(*store, "user.name");
	m.email = fs_store_config(*store, "user.primary_email");
	rc = fs_digest_save(d, text, store, &m, now, err);
	g_free(folder);
	g_free(state);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

/* ---- the reviews (fs_session_review()'s callbacks) ----------------------- */

/* A series that cannot be reviewed (unknown branch) is listed in the
 * digest with the reason, not fatal: the digest is for all the others
 * too.  The cross-branch step failing (S NULL) is said. */
/* A note of the review ("cannot compare backports ..."), on stderr. */
static void on_note(void *data, const char *text)
{
	cli_note("%s", text);
}

static void on_failed(void *data, const struct fs_thread_series *s, const struct fs_error *err)
{
	if (s)
		fs_digest_add(data, s, NULL, err->message);
	else
		cli_error(err);
}

static void on_superseded(void *data, const struct fs_thread_series *s, const char *branch)
{
	fs_digest_superseded(data, s, branch);
}

static int on_review(void *data, const struct fs_thread_series *s, struct fs_review *r,
		     struct fs_error *err)
{
	fs_digest_add(data, s, r, NULL);
	return 0;
}

/* Review every series of THREADS into D (a cover alone has nothing to
 * rank), with the cross-branch findings of the series judged together
 * (a superseded -rc left out of that), and rank the risky patches. */
static int review_all(struct fs_digest *d, struct fs_thread **threads, size_t nthreads,
		      struct cli_ctx *c, struct fs_error *err)
{
	struct fs_review_set set = { .threads = threads, .nthreads = nthreads, .mode = FS_SET_CROSS };
	struct fs_review_set_cbs cb = {
		.data = d, .failed = on_failed, .note = on_note, .review = on_review,
		.superseded = on_superseded,
	};
	int rc = fs_session_review(c->s, &set, &cb, err);

	fs_digest_rank(d);
	return rc;
}

/* --color: set once by cmd_digest(); the digest mail has none. */
static bool digest_color;

/* TEXT (made visible already) with the finding kind that starts a
 * finding line ("  fix-missing ...") coloured as review colours it.  New
 * string (g_free()). */
static char *color_kinds(const char *text)
{
	GString *out = g_string_new(NULL);
	const char *p = text;
	size_t k, n;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		for (k = 0; k < FS_FIND_KIND_COUNT && len > 2 && !strncmp(p, "  ", 2); k++) {
			const char *name = fs_finding_kind_name(k);
			n = strlen(name);
			if (!strncmp(p + 2, name, n) && (p[2 + n] == ' ' || p[2 + n] == '\n')) {
				g_string_append_printf(out, "  %s%s\033[0m", fs_report_kind_color(k), name);
				p += 2 + n;
				len -= 2 + n;
				break;
			}
		}
		g_string_append_len(out, p, len);
		p += len;
	}
	return g_string_free(out, FALSE);
}

/* Print D as JSON, or as text wrapped for a terminal; with MAIL, save the
 * wrapped text as the digest mail instead (when there is any series). */
static int output_digest(const struct fs_digest *d, int json, int mail, time_t since,
			 time_t clock, const char *query, time_t now, struct fs_store **store,
			 struct fs_config *cfg, struct fs_error *err)
{
	char *text = NULL, *wrapped = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = 0;

	if (json) {
		if (fs_digest_json(stdout, d, since, clock, query) < 0)
			return fs_error_set(err, FS_EIO, "cannot write to standard output");
		return 0;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	fs_digest_text(mem, d, since, clock);
	if (fclose(mem)) {
		free(text);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (!mail) {
		/* Subjects are anyone's words: no control character of
		 * theirs reaches the terminal. */
		char *shown = fs_text_visible(text, true);
		if (!shown) {
			free(text);
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		}
		if (digest_color) {
			char *colored = color_kinds(shown);
			g_free(shown);
			shown = colored;
		}
		cli_print_wrapped(stdout, shown, DIGEST_WIDTH);
		g_free(shown);
	} else if (d->nseries) {
		/* Wrapped as printed, then handed to the mail. */
		mem = open_memstream(&wrapped, &len);
		if (mem)
			cli_print_wrapped(mem, text, DIGEST_WIDTH);
		if (!mem || fclose(mem))
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		else
			rc = mail_digest(store, cfg, wrapped, d, now, err);
		free(wrapped);
	}
	free(text);
	return rc;
}

/* What one digest run works with. */
struct digest_run {
	struct cli_ctx ctx;
	const char *since_arg, *color_when;
	char *base_query;    /* --query, else fixscan.digestQuery */
	bool json, mail;
	time_t now, since;
	time_t clock;      /* NOW when SINCE was counted back from it, else 0 */
};

/* The options into X.  Returns -1 when all is well, else an exit status
 * or a negative code with ERR set (--since). */
static int parse_options(struct digest_run *x, int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "since", required_argument, NULL, 's' },
		{ "query", required_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "mail", no_argument, NULL, 'm' },
		{ "repo", required_argument, NULL, 'r' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-lore", no_argument, NULL, 'L' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "vulns", required_argument, NULL, 'V' },
		{ "color", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	time_t other;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 's': x->since_arg = optarg; break;
		case 'q':
			g_free(x->base_query);
			x->base_query = g_strdup(optarg);
			break;
		case 'j': x->json = true; break;
		case 'm': x->mail = true; break;
		case 'r': x->ctx.repo_flag = optarg; break;
		case 'i': x->ctx.sopts.ignore = optarg; break;
		case 'R': x->ctx.sopts.review.no_reports = true; break;
		case 'L': x->ctx.sopts.no_lore = true; break;
		case 'N': x->ctx.sopts.index.no_update = true; break;
		case 'V': x->ctx.sopts.vulns = optarg; break;
		case 'c': x->color_when = optarg ? optarg : "always"; break;
		case 'h':
			fputs(usage_text, stdout);
			return FS_EXIT_CLEAN;
		default:
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return cli_usage_error(argv[0], "no arguments expected, got '%s'", argv[optind]);
	if (x->json && x->mail)
		return cli_usage_error(argv[0], "--json and --mail do not go together");
	if (fs_date_parse(x->since_arg, x->now, &x->since, err) < 0)
		return fs_error_prefix(err, "%s: --since", argv[0]);
	/* relative ("1d", "yesterday") when another clock moves it */
	if (fs_date_parse(x->since_arg, x->now - 86400, &other, NULL) == 0 && other != x->since)
		x->clock = x->now;
	return -1;
}

/* --mail, once a day: whether today's digest is mailed already (a second
 * run, by hand or a timer catching up, writes nothing, and says so). */
static bool mailed_today(time_t now)
{
	char *state = fs_session_state_path("digest"), *last = NULL;
	bool done = fs_digest_mailed_today(state, now, &last);

	if (done)
		fprintf(stderr, "digest: today's digest is mailed already (<%s>), nothing written\n",
			last);
	g_free(last);
	g_free(state);
	return done;
}

/* The session, its store, and the threads of the digest (*QUERY, from
 * x->base_query), then the index when there is any thread. */
static int open_all(struct digest_run *x, const char *cmd, char **query,
		    struct fs_thread ***threads, size_t *nthreads, struct fs_error *err)
{
	int rc;

	/* --mail prints nothing: it runs from a timer. */
	x->ctx.no_index_note = x->mail;
	rc = cli_ctx_setup(&x->ctx, err);
	if (rc == 0)
		rc = cli_color_option(cmd, x->color_when, fs_session_config(x->ctx.s), &digest_color,
				      err);
	if (rc == 0)
		rc = cli_ctx_open_store(&x->ctx, false, err);
	if (rc < 0)
		return rc;
	if (!x->base_query)
		x->base_query = config_value(fs_session_store(x->ctx.s), fs_session_config(x->ctx.s),
					     "fixscan.digestQuery");
	/* notmuch's date: range matches the Date header of each message; a
	 * thread is in when any of its messages is. */
	rc = fs_session_stable_threads_query(x->ctx.s, x->base_query, x->since, query, err);
	if (rc == 0 && *query)
		rc = cli_load_threads(fs_session_store(x->ctx.s), *query, threads, nthreads, err);
	if (rc == 0 && *nthreads)
		rc = cli_ctx_open_index(&x->ctx, err);
	return rc;
}

int cmd_digest(int argc, char **argv, struct fs_error *err)
{
	struct digest_run x;
	struct fs_thread **threads = NULL;
	struct fs_digest dg = FS_DIGEST_INIT;
	size_t nthreads = 0, i;
	char *query = NULL;
	int rc;

	memset(&x, 0, sizeof(x));
	cli_ctx_init(&x.ctx);
	x.since_arg = "1d";
	x.now = time(NULL);
	rc = parse_options(&x, argc, argv, err);
	if (rc == -1 && x.mail && mailed_today(x.now))
		rc = FS_EXIT_CLEAN;
	if (rc != -1) {
		g_free(x.base_query);
		return rc;
	}
	rc = open_all(&x, argv[0], &query, &threads, &nthreads, err);
	if (rc == 0)
		rc = review_all(&dg, threads, nthreads, &x.ctx, err);
	if (rc == 0)
		rc = output_digest(&dg, x.json, x.mail, x.since, x.clock, x.base_query, x.now,
				   fs_session_store_slot(x.ctx.s), fs_session_config(x.ctx.s), err);
	if (rc < 0)
		goto out;
	/* A series that could not be reviewed is listed in the digest; it
	 * does not change the exit status, or one odd thread would fail the
	 * daily run every day. */
	for (i = 0; i < dg.nseries && !x.mail; i++)
		if (dg.series[i].error)
			cli_note("not reviewed: %s", dg.series[i].error);
	rc = dg.nrisky ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
out:
	fs_digest_clear(&dg);
	cli_free_threads(threads, nthreads);
	cli_ctx_close(&x.ctx);
	g_free(x.base_query);
	g_free(query);
	return rc;
}
