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
#define LORE "https://lore.kernel.org/r/"

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

static void format_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, n, "@%lld", (long long)t);
}

static const char *series_release(const struct fs_digest_series *ds)
{
	if (ds->s->release)
		return ds->s->release;
	return ds->r ? ds->r->branch : ds->s->branch;
}

/* ---- text -------------------------------------------------------------- */

static void text_digest(FILE *out, const struct fs_digest *d, time_t since)
{
	char when[64], dl[64];
	size_t i, k;

	format_time(when, sizeof(when), since);
	fprintf(out, "stable review digest: %zu series since %s, %zu risky patch%s\n",
		d->nseries, when, d->nrisky, d->nrisky == 1 ? "" : "es");
	if (!d->nseries)
		return;
	fprintf(out, "\nseries:\n");
	for (i = 0; i < d->nseries; i++) {
		const struct fs_digest_series *ds = &d->series[i];
		const struct fs_patch *a = fs_digest_anchor(ds->s);
		fprintf(out, "  %s%s\n", a ? fs_patch_subject(a) : "?",
			ds->s->cover ? "" : " (no cover letter)");
		if (!ds->r) {
			fprintf(out, "    not reviewed: %s\n", ds->error ? ds->error : "?");
			continue;
		}
		fprintf(out, "    %s, base %s", ds->r->branch, ds->r->base ? ds->r->base : "the branch tip");
		if (ds->deadline) {
			format_time(dl, sizeof(dl), ds->deadline);
			fprintf(out, ", deadline %s", dl);
		}
		fprintf(out, ": %zu patch%s, %zu risky\n", ds->r->npatches,
			ds->r->npatches == 1 ? "" : "es", ds->risky);
	}
	if (!d->nrisky)
		return;
	fprintf(out, "\nrisky patches, highest score first:\n");
	for (i = 0; i < d->nrisky; i++) {
		const struct fs_digest_risky *rk = &d->risky[i];
		const struct fs_digest_series *ds = &d->series[rk->series];
		const struct fs_review *r = ds->r;
		const char *id = fs_patch_message_id(rk->rp->patch);

		char number[32];

		fprintf(out, "\n%zu. [score %d] %s %s %s\n", i + 1, rk->score, series_release(ds),
			fs_report_patch_number(r->series, rk->rp->index, number, sizeof(number)),
			fs_patch_title(rk->rp->patch));
		fprintf(out, "  release %s (%s)", ds->s->release ? ds->s->release : "unknown",
			r->branch);
		if (ds->deadline) {
			format_time(dl, sizeof(dl), ds->deadline);
			fprintf(out, ", deadline %s", dl);
		}
		fputc('\n', out);
		for (k = 0; k < rk->rp->findings.n; k++) {
			const struct fs_finding *f = &rk->rp->findings.v[k];
			char *line;
			if (f->ignored)
				continue;
			line = fs_report_finding_line(r, f, false);
			fprintf(out, "  %s\n", line);
			g_free(line);
		}
		if (id)
			fprintf(out, "  " LORE "%s\n", id);
	}
}

/* ---- JSON -------------------------------------------------------------- */

static void json_summary(struct fs_json *b, const struct fs_review *r)
{
	size_t k;

	fs_json_member(b, "summary");
	fs_json_begin_object(b);
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		fs_json_member(b, fs_finding_kind_name(k));
		fs_json_add_int(b, r ? (gint64)r->counts[k] : 0);
	}
	fs_json_end_object(b);
}

static int json_digest(FILE *out, const struct fs_digest *d, time_t since,
		       const char *query)
{
	struct fs_json *b = fs_json_new();
	GDateTime *dt = g_date_time_new_from_unix_utc((gint64)since);
	char *iso = dt ? g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ") : NULL;
	size_t i, k;
	int rc;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
	fs_json_str(b, "since", iso);
	fs_json_str(b, "query", query);
	fs_json_member(b, "series");
	fs_json_begin_array(b);
	for (i = 0; i < d->nseries; i++) {
		const struct fs_digest_series *ds = &d->series[i];
		const struct fs_patch *a = fs_digest_anchor(ds->s);
		fs_json_begin_object(b);
		fs_json_str(b, "message_id", a ? fs_patch_message_id(a) : NULL);
		fs_json_str(b, "subject", a ? fs_patch_subject(a) : NULL);
		fs_json_bool(b, "cover", ds->s->cover != NULL);
		fs_json_str(b, "branch", ds->r ? ds->r->branch : ds->s->branch);
		fs_json_str(b, "base", ds->r ? ds->r->base : ds->s->base);
		fs_json_str(b, "release", ds->s->release);
		fs_json_str(b, "deadline", ds->s->deadline);
		fs_json_int(b, "patches", ds->r ? (long)ds->r->npatches : (long)ds->s->npatches);
		fs_json_int(b, "risky", (long)ds->risky);
		json_summary(b, ds->r);
		fs_json_str(b, "error", ds->error);
		fs_json_rfc3339(b, "deadline_rfc3339", ds->s->deadline);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_member(b, "risky");
	fs_json_begin_array(b);
	for (i = 0; i < d->nrisky; i++) {
		const struct fs_digest_risky *rk = &d->risky[i];
		const struct fs_digest_series *ds = &d->series[rk->series];
		const struct fs_review *r = ds->r;
		const char *id = fs_patch_message_id(rk->rp->patch);
		char *link = id ? g_strconcat(LORE, id, NULL) : NULL;

		fs_json_begin_object(b);
		fs_json_int(b, "rank", (long)i + 1);
		fs_json_int(b, "score", rk->score);
		fs_json_int(b, "series", (long)rk->series);
		fs_json_str(b, "branch", r->branch);
		fs_json_str(b, "release", ds->s->release);
		fs_json_str(b, "deadline", ds->s->deadline);
		fs_json_int(b, "index", rk->rp->index);
		fs_json_int(b, "total", r->series->total);
		fs_json_str(b, "message_id", id);
		fs_json_str(b, "subject", fs_patch_subject(rk->rp->patch));
		fs_json_str(b, "upstream", rk->rp->findings.upstream[0] ? rk->rp->findings.upstream : NULL);
		fs_json_str(b, "link", link);
		fs_json_member(b, "findings");
		fs_json_begin_array(b);
		for (k = 0; k < rk->rp->findings.n; k++) {
			const struct fs_finding *f = &rk->rp->findings.v[k];
			char *line;
			if (f->ignored)
				continue;
			/* The whole line, evidence too: a program may show it. */
			line = fs_report_finding_line(r, f, true);
			fs_json_begin_object(b);
			fs_json_str(b, "kind", fs_finding_kind_name(f->kind));
			fs_json_int(b, "weight", fs_digest_finding_weight(f));
			fs_json_str(b, "commit", f->commit[0] ? f->commit : NULL);
			fs_json_str(b, "subject", f->subject);
			fs_json_str(b, "release", f->release);
			fs_json_str(b, "message_id", f->message_id);
			fs_json_str(b, "evidence", fs_finding_evidence_name(f->evidence));
			fs_json_str(b, "text", line);
			fs_json_str(b, "cause", f->cause ? fs_finding_cause_name(f->cause) : NULL);
			if (f->ncves) {
				size_t m;
				fs_json_member(b, "cves");
				fs_json_begin_array(b);
				for (m = 0; m < f->ncves; m++)
					fs_json_add_str(b, f->cves[m]);
				fs_json_end_array(b);
			}
			fs_json_end_object(b);
			g_free(line);
		}
		fs_json_end_array(b);
		fs_json_rfc3339(b, "deadline_rfc3339", ds->s->deadline);
		fs_json_end_object(b);
		g_free(link);
	}
	fs_json_end_array(b);
	fs_json_end_object(b);
	rc = fs_json_print_line(b, out);
	fs_json_free(b);
	g_free(iso);
	if (dt)
		g_date_time_unref(dt);
	return rc;
}

/* ---- --mail ------------------------------------------------------------ */

/* A config value: the notmuch config first (where the drafts folder lives
 * too), then git config.  New string or NULL. */
static char *config_value(struct fs_store *st, struct fs_config *cfg, const char *key)
{
	const char *v = st ? fs_store_config(st, key) : NULL;
	char *s = NULL;

	if (v)
		return strdup(v);
	if (cfg && fs_config_get_string(cfg, key, &s) == 0 && s && !*s) {
		free(s);
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
	free(folder);
	g_free(state);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

/* ---- the reviews (fs_session_review()'s callbacks) ----------------------- */

/* A series that cannot be reviewed (unknown branch) is listed in the
 * digest with the reason, not fatal: the digest is for all the others
 * too.  The cross-branch step failing (S NULL) is said. */
static void on_failed(void *data, const struct fs_thread_series *s, const struct fs_error *err)
{
	if (s)
		fs_digest_add(data, s, NULL, err->message);
	else
		cli_error(err);
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
	struct fs_review_set set = { threads, nthreads, FS_SET_CROSS, 0, 0, false, false };
	struct fs_review_set_cbs cb = { d, NULL, NULL, on_failed, NULL, NULL, on_review };
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
			 const char *query, time_t now, struct fs_store **store,
			 struct fs_config *cfg, struct fs_error *err)
{
	char *text = NULL, *wrapped = NULL;
	size_t len = 0;
	FILE *mem;
	int rc = 0;

	if (json) {
		if (json_digest(stdout, d, since, query) < 0)
			return fs_error_set(err, FS_EIO, "cannot write to standard output");
		return 0;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	text_digest(mem, d, since);
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
			free(shown);
			shown = strdup(colored);
			g_free(colored);
			if (!shown) {
				free(text);
				return fs_error_set(err, FS_ENOMEM, "out of memory");
			}
		}
		cli_print_wrapped(stdout, shown, DIGEST_WIDTH);
		free(shown);
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

int cmd_digest(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "since", required_argument, NULL, 's' },
		{ "query", required_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "mail", no_argument, NULL, 'm' },
		{ "repo", required_argument, NULL, 'r' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "vulns", required_argument, NULL, 'V' },
		{ "color", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_ctx ctx;
	struct fs_thread **threads = NULL;
	struct fs_digest dg = FS_DIGEST_INIT;
	size_t nthreads = 0, i;
	const char *since_arg = "1d", *color_when = NULL;
	char *query = NULL, *base_query = NULL;
	time_t now = time(NULL), since;
	int c, rc, json = 0, mail = 0;

	cli_ctx_init(&ctx);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 's': since_arg = optarg; break;
		case 'q':
			free(base_query);
			base_query = strdup(optarg);
			break;
		case 'j': json = 1; break;
		case 'm': mail = 1; break;
		case 'r': ctx.repo_flag = optarg; break;
		case 'i': ctx.sopts.ignore = optarg; break;
		case 'R': ctx.sopts.review.no_reports = true; break;
		case 'N': ctx.sopts.index.no_update = true; break;
		case 'V': ctx.sopts.vulns = optarg; break;
		case 'c': color_when = optarg ? optarg : "always"; break;
		case 'h':
			free(base_query);
			fputs(usage_text, stdout);
			return FS_EXIT_CLEAN;
		default:
			free(base_query);
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc) {
		free(base_query);
		return cli_usage_error(argv[0], "no arguments expected, got '%s'", argv[optind]);
	}
	if (json && mail) {
		free(base_query);
		return cli_usage_error(argv[0], "--json and --mail do not go together");
	}
	if (fs_date_parse(since_arg, now, &since, err) < 0) {
		free(base_query);
		return fs_error_prefix(err, "%s: --since", argv[0]);
	}

	if (mail) {
		/* Once a day: a second run (by hand, or a timer catching up)
		 * writes nothing, and says so. */
		char *state = fs_session_state_path("digest"), *last = NULL;
		bool done = fs_digest_mailed_today(state, now, &last);

		if (done)
			fprintf(stderr, "digest: today's digest is mailed already (<%s>), nothing written\n",
				last);
		g_free(last);
		g_free(state);
		if (done) {
			free(base_query);
			return FS_EXIT_CLEAN;
		}
	}
	/* --mail prints nothing: it runs from a timer. */
	ctx.no_index_note = mail;
	rc = cli_ctx_setup(&ctx, err);
	if (rc == 0)
		rc = cli_color_option(argv[0], color_when, fs_session_config(ctx.s), &digest_color, err);
	if (rc == 0)
		rc = cli_ctx_open_store(&ctx, false, err);
	if (rc < 0)
		goto out;
	if (!base_query)
		base_query = config_value(fs_session_store(ctx.s), fs_session_config(ctx.s),
					  "fixscan.digestQuery");
	/* notmuch's date: range matches the Date header of each message; a
	 * thread is in when any of its messages is. */
	rc = fs_session_stable_threads_query(ctx.s, base_query, since, &query, err);
	if (rc < 0)
		goto out;
	if (query) {
		rc = cli_load_threads(fs_session_store(ctx.s), query, &threads, &nthreads, err);
		if (rc < 0)
			goto out;
	}
	if (nthreads) {
		rc = cli_ctx_open_index(&ctx, err);
		if (rc < 0)
			goto out;
	}
	rc = review_all(&dg, threads, nthreads, &ctx, err);
	if (rc == 0)
		rc = output_digest(&dg, json, mail, since, base_query, now,
				   fs_session_store_slot(ctx.s), fs_session_config(ctx.s), err);
	if (rc < 0)
		goto out;
	/* A series that could not be reviewed is listed in the digest; it
	 * does not change the exit status, or one odd thread would fail the
	 * daily run every day. */
	for (i = 0; i < dg.nseries && !mail; i++)
		if (dg.series[i].error)
			cli_note("not reviewed: %s", dg.series[i].error);
	rc = dg.nrisky ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
out:
	fs_digest_clear(&dg);
	cli_free_threads(threads, nthreads);
	cli_ctx_close(&ctx);
	free(base_query);
	free(query);
	return rc;
}
