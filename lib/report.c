/* fixscan: printing reviews. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/json.h"
#include "fixscan/report.h"
#include "fixscan/text.h"

static const char *kind_color(enum fs_finding_kind k)
{
	switch (k) {
	case FS_FIND_FIX_MISSING:
	case FS_FIND_REVERTED_UPSTREAM:
	case FS_FIND_REGRESSION_REPORT:
	case FS_FIND_REVERTED_IN_STABLE:
		return "\033[1;31m";
	case FS_FIND_DUPLICATE_IN_SERIES:
	case FS_FIND_ALREADY_APPLIED:
	case FS_FIND_TARGET_ABSENT:
	case FS_FIND_DEP_MISSING:
	case FS_FIND_OBJECTION:
	case FS_FIND_REVERTS_STABLE:
		return "\033[33m";
	case FS_FIND_FIX_PRESENT:
	case FS_FIND_FIX_QUEUED:
		return "\033[32m";
	default:
		return "\033[36m";
	}
}

static void add_commit(GString *s, const char *hex, const char *subject)
{
	g_string_append_printf(s, " %.12s", hex);
	if (subject)
		g_string_append_printf(s, " (\"%s\")", subject);
}

static void add_evidence(GString *s, const struct fs_finding *f)
{
	if (f->evidence == FS_FEV_SUBJECT)
		g_string_append(s, " [matched by subject only]");
	else if (f->evidence == FS_FEV_PREFIX || f->evidence == FS_FEV_STABLE)
		g_string_append_printf(s, " [%s]", fs_finding_evidence_name(f->evidence));
}

char *fs_report_finding_line(const struct fs_review *r, const struct fs_finding *f)
{
	GString *s = g_string_new(fs_finding_kind_name(f->kind));
	const char *rel = f->release;

	switch (f->kind) {
	case FS_FIND_FIX_MISSING:
		add_commit(s, f->commit, f->subject);
		if (f->note)
			g_string_append_printf(s, ", %s", f->note);
		else
			g_string_append_printf(s, " %s%s, not in %s nor in this series",
					       rel ? "in " : "", rel ? rel : "(unreleased)", r->branch);
		break;
	case FS_FIND_FIX_QUEUED:
		add_commit(s, f->commit, f->subject);
		g_string_append_printf(s, " is queued as %03d/%03d", f->series_index,
				       r->series->total > 0 ? r->series->total : 0);
		break;
	case FS_FIND_FIX_PRESENT:
		add_commit(s, f->commit, f->subject);
		if (f->stable_commit)
			g_string_append_printf(s, " is in %s as %.12s%s%s", r->branch, f->stable_commit,
					       f->stable_release ? " in " : "",
					       f->stable_release ? f->stable_release : "");
		else
			g_string_append_printf(s, " is in %s", r->branch);
		break;
	case FS_FIND_REVERTED_UPSTREAM:
		add_commit(s, f->commit, f->subject);
		g_string_append_printf(s, " %s%s", rel ? "in " : "", rel ? rel : "(unreleased)");
		if (f->cause == FS_CAUSE_REVERT_OF_REVERT && f->note)
			g_string_append_printf(s, ", %s", f->note);
		break;
	case FS_FIND_REVERTED_IN_STABLE:
		add_commit(s, f->commit, f->subject);
		if (f->note)
			g_string_append_printf(s, ": %s", f->note);
		if (f->reason)
			g_string_append_printf(s, "; its reason: \"%s\"", f->reason);
		break;
	case FS_FIND_DUPLICATE_IN_SERIES:
		add_commit(s, f->commit, f->subject);
		g_string_append_printf(s, " is also %03d/%03d of this series", f->series_index,
				       r->series->total > 0 ? r->series->total : 0);
		break;
	case FS_FIND_NO_UPSTREAM:
		g_string_append(s, ": the changelog names no upstream commit");
		break;
	case FS_FIND_REGRESSION_REPORT:
		g_string_append_printf(s, " %.12s: %s from %s", f->commit, f->note ? f->note : "",
				       f->from ? f->from : "?");
		if (f->date)
			g_string_append_printf(s, ", %s", f->date);
		if (f->message_id)
			g_string_append_printf(s, " <%s>", f->message_id);
		break;
	case FS_FIND_OBJECTION:
		g_string_append_printf(s, " from %s: \"%s\"", f->from ? f->from : "?",
				       f->note ? f->note : "");
		break;
	default:
		add_commit(s, f->commit, f->subject);
		if (rel && f->kind == FS_FIND_TARGET_ABSENT)
			g_string_append_printf(s, " in %s", rel);
		if (f->note)
			g_string_append_printf(s, ": %s", f->note);
		break;
	}
	if (f->kind != FS_FIND_REGRESSION_REPORT && f->kind != FS_FIND_OBJECTION &&
	    f->kind != FS_FIND_NO_UPSTREAM)
		add_evidence(s, f);
	if (f->nchain > 2) {
		size_t i;
		g_string_append(s, "\n    chain:");
		for (i = 0; i < f->nchain; i++)
			g_string_append_printf(s, "%s%.12s", i ? " -> " : " ", f->chain[i]);
	}
	return g_string_free(s, FALSE);
}

static void print_header(FILE *out, const struct fs_review *r)
{
	const struct fs_thread_series *s = r->series;

	if (s->cover) {
		fputs("review: ", out);
		fs_text_fputs(fs_patch_subject(s->cover), false, out);
		fputc('\n', out);
	} else
		fprintf(out, "review: %zu patches without a cover letter\n", s->npatches);
	fprintf(out, "branch: %s (from %s), base: %s%s%s%s\n", r->branch, r->branch_source,
		r->base ? r->base : "the branch tip", r->base ? " (from " : "",
		r->base ? r->base_source : "", r->base ? ")" : "");
	if (s->nmissing) {
		/* Ranges, capped: the numbers come from a subject. */
		char *text = fs_thread_missing_text(s, 20);
		fprintf(out, "missing from the series: %s\n", text);
		g_free(text);
	}
	if (s->duplicates)
		fprintf(out, "received twice: %zu patch%s, reviewed once\n", s->duplicates,
			s->duplicates == 1 ? "" : "es");
}

int fs_report_text(FILE *out, const struct fs_review *r, const struct fs_report_opts *o)
{
	size_t i, k, shown;
	int first;

	print_header(out, r);
	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		for (k = 0, shown = 0; k < rp->findings.n; k++)
			shown += !rp->findings.v[k].ignored;
		if (!shown && !o->all)
			continue;
		fprintf(out, "\n%03d/%03d ", rp->index, r->series->total > 0 ? r->series->total : 0);
		fs_text_fputs(fs_patch_title(rp->patch), false, out);
		fputc('\n', out);
		if (rp->findings.upstream[0]) {
			fprintf(out, "  upstream %.12s (\"", rp->findings.upstream);
			fs_text_fputs(rp->findings.upstream_subject, false, out);
			fputs("\")\n", out);
		}
		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];
			char *line;
			const char *kind = fs_finding_kind_name(f->kind);
			if (f->ignored)
				continue;
			line = fs_report_finding_line(r, f);
			fputs("  ", out);
			if (o->color)
				fprintf(out, "%s%s\033[0m", kind_color(f->kind), kind);
			else
				fputs(kind, out);
			fs_text_fputs(line + strlen(kind), true, out);
			fputc('\n', out);
			g_free(line);
		}
	}
	fprintf(out, "\nsummary:");
	first = 1;
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		if (!r->counts[k])
			continue;
		fprintf(out, "%s %zu %s", first ? "" : ",", r->counts[k], fs_finding_kind_name(k));
		first = 0;
	}
	if (first)
		fprintf(out, " no findings");
	fprintf(out, " in %zu patches", r->npatches);
	if (r->ignored)
		fprintf(out, " (%zu ignored)", r->ignored);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

static void json_finding(struct fs_json *b, const struct fs_finding *f)
{
	size_t i;

	fs_json_begin_object(b);
	fs_json_str(b, "kind", fs_finding_kind_name(f->kind));
	fs_json_str(b, "commit", f->commit[0] ? f->commit : NULL);
	fs_json_str(b, "subject", f->subject);
	fs_json_str(b, "release", f->release);
	fs_json_int(b, "series_index", f->series_index);
	fs_json_member(b, "chain");
	fs_json_begin_array(b);
	for (i = 0; i < f->nchain; i++)
		fs_json_add_str(b, f->chain[i]);
	fs_json_end_array(b);
	fs_json_str(b, "stable_commit", f->stable_commit);
	fs_json_str(b, "stable_release", f->stable_release);
	fs_json_str(b, "message_id", f->message_id);
	fs_json_str(b, "from", f->from);
	fs_json_str(b, "date", f->date);
	fs_json_str(b, "evidence", fs_finding_evidence_name(f->evidence));
	fs_json_str(b, "note", f->note);
	fs_json_str(b, "ignored", f->ignored);
	/* Added later; the fields above keep their names and meaning. */
	fs_json_str(b, "cause", f->cause ? fs_finding_cause_name(f->cause) : NULL);
	fs_json_str(b, "branch", f->branch);
	fs_json_str(b, "unresolved", f->unresolved ? fs_finding_cause_name(f->unresolved) : NULL);
	fs_json_str(b, "reapplied_commit", f->reapplied_commit);
	fs_json_str(b, "reapplied_release", f->reapplied_release);
	fs_json_str(b, "reason", f->reason);
	fs_json_end_object(b);
}

int fs_report_json(FILE *out, const struct fs_review *r)
{
	struct fs_json *b = fs_json_new();
	const struct fs_thread_series *s = r->series;
	size_t i, k;
	int rc;

	fs_json_begin_object(b);
	fs_json_str(b, "branch", r->branch);
	fs_json_str(b, "branch_source", r->branch_source);
	fs_json_str(b, "base", r->base);
	fs_json_str(b, "base_source", r->base ? r->base_source : NULL);
	fs_json_str(b, "release", s->release);
	fs_json_str(b, "deadline", s->deadline);
	fs_json_member(b, "cover");
	if (s->cover) {
		fs_json_begin_object(b);
		fs_json_str(b, "message_id", fs_patch_message_id(s->cover));
		fs_json_str(b, "subject", fs_patch_subject(s->cover));
		fs_json_end_object(b);
	} else {
		fs_json_add_null(b);
	}
	fs_json_member(b, "missing");
	fs_json_begin_array(b);
	for (i = 0; i < s->nmissing; i++)
		fs_json_add_int(b, s->missing[i]);
	fs_json_end_array(b);
	fs_json_member(b, "patches");
	fs_json_begin_array(b);
	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		fs_json_begin_object(b);
		fs_json_int(b, "index", rp->index);
		fs_json_int(b, "total", s->total);
		fs_json_str(b, "message_id", fs_patch_message_id(rp->patch));
		fs_json_str(b, "subject", fs_patch_subject(rp->patch));
		fs_json_str(b, "upstream", rp->findings.upstream[0] ? rp->findings.upstream : NULL);
		fs_json_member(b, "findings");
		fs_json_begin_array(b);
		for (k = 0; k < rp->findings.n; k++)
			json_finding(b, &rp->findings.v[k]);
		fs_json_end_array(b);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_member(b, "summary");
	fs_json_begin_object(b);
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		fs_json_member(b, fs_finding_kind_name(k));
		fs_json_add_int(b, (gint64)r->counts[k]);
	}
	fs_json_member(b, "ignored");
	fs_json_add_int(b, (gint64)r->ignored);
	fs_json_end_object(b);
	fs_json_end_object(b);
	rc = fs_json_print_line(b, out);
	fs_json_free(b);
	return rc;
}
