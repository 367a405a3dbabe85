/* fixscan: printing the digest, as text and as JSON, next to review's
 * report (report.c): the layout of fixscan-digest(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "fixscan/date.h"
#include "fixscan/digest.h"
#include "fixscan/json.h"
#include "fixscan/report.h"

#define LORE "https://lore.kernel.org/r/"

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

/* What a series without a release number is: AUTOSEL's selections name
 * none (they are proposals, not a release under review), other postings
 * did not say.  Static. */
static const char *no_release(const struct fs_thread_series *s)
{
	const struct fs_patch *a = fs_digest_anchor(s);
	const struct fs_series *prefix = a ? fs_patch_series(a) : NULL;

	return prefix && prefix->autosel ? "AUTOSEL, no release" : "release not named";
}

/* ---- text -------------------------------------------------------------- */

void fs_digest_text(FILE *out, const struct fs_digest *d, time_t since, time_t clock)
{
	char when[64], dl[64], at[64];
	size_t i, k;

	format_time(when, sizeof(when), since);
	format_time(at, sizeof(at), clock);
	fprintf(out, "stable review digest: %zu series since %s%s%s%s, %zu risky patch%s\n",
		d->nseries, when, clock ? " (counted back from this machine's clock, " : "",
		clock ? at : "", clock ? ")" : "", d->nrisky, d->nrisky == 1 ? "" : "es");
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
	for (i = 0; i < d->nsuperseded; i++) {
		const struct fs_patch *a = fs_digest_anchor(d->superseded[i]);

		fprintf(out, "%s  %s\n", i ? "" : "\nleft out, a later round of their branch is above:\n",
			a ? fs_patch_subject(a) : "?");
		fprintf(out, "    %s, %s\n", d->superseded_branch[i],
			d->superseded[i]->release ? d->superseded[i]->release : no_release(d->superseded[i]));
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
		if (ds->s->release)
			fprintf(out, "  release %s (%s)", ds->s->release, r->branch);
		else
			fprintf(out, "  %s (%s)", no_release(ds->s), r->branch);
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

int fs_digest_json(FILE *out, const struct fs_digest *d, time_t since, time_t clock,
		   const char *query)
{
	struct fs_json *b = fs_json_new();
	GDateTime *dt = g_date_time_new_from_unix_utc((gint64)since);
	char *iso = dt ? g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ") : NULL, at[32];
	size_t i, k;
	int rc;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
	fs_json_str(b, "since", iso);
	fs_json_str(b, "clock", clock ? fs_date_rfc3339(clock, at, sizeof(at)) : NULL);
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
	fs_json_member(b, "superseded");
	fs_json_begin_array(b);
	for (i = 0; i < d->nsuperseded; i++) {
		const struct fs_patch *a = fs_digest_anchor(d->superseded[i]);

		fs_json_begin_object(b);
		fs_json_str(b, "message_id", a ? fs_patch_message_id(a) : NULL);
		fs_json_str(b, "subject", a ? fs_patch_subject(a) : NULL);
		fs_json_str(b, "branch", d->superseded_branch[i]);
		fs_json_str(b, "release", d->superseded[i]->release);
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
			fs_json_str(b, "message_id", f->mail.message_id);
			if (f->mail.link) /* a mail found on lore (fixscan.lore) */
				fs_json_str(b, "link", f->mail.link);
			if (f->kind == FS_FIND_FIX_PENDING)
				fs_json_str(b, "ref", f->ref);
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
