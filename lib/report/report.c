/* fixscan: printing reviews. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/crossbranch.h"
#include "fixscan/json.h"
#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "fixscan/rounds.h"
#include "fixscan/text.h"
#include "fixscan/version.h"
#include "report-words.h"

const char *fs_report_kind_color(enum fs_finding_kind k)
{
	return fsr_kind(k)->color;
}

/* ---- numbers and helpers ----------------------------------------------- */

char *fs_report_ellipsize(const char *text, size_t cols)
{
	const char *end;

	if (g_utf8_strlen(text, -1) <= (glong)cols)
		return g_strdup(text);
	if (cols <= 3)
		return g_strndup("...", cols);
	end = g_utf8_offset_to_pointer(text, (glong)cols - 3);
	return g_strdup_printf("%.*s...", (int)(end - text), text);
}

/* "03/27": NN/MM of R's series, as wide as its subjects write them. */
static void add_number(GString *s, const struct fs_review *r, int nn)
{
	char buf[32];

	g_string_append(s, fs_report_patch_number(r->series, nn, buf, sizeof(buf)));
}

/* ---- one finding ------------------------------------------------------- */

static void cross_text(GString *s, const struct fs_finding *f);

static void add_commit(GString *s, const char *hex, const char *subject)
{
	g_string_append_printf(s, " %.12s", hex);
	if (subject)
		g_string_append_printf(s, " (\"%s\")", subject);
}

/* " CVE-2024-1 CVE-2024-2": the CVE ids whose fix is the commit. */
static void add_cves(GString *s, char *const *cves, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		g_string_append_printf(s, " %s", cves[i]);
}

/* How the commit was found.  A subject match is always told: the id may
 * be wrong.  The others only with VERBOSE: they are sound. */
static void add_evidence(GString *s, const struct fs_finding *f, bool verbose)
{
	if (f->evidence == FS_FEV_SUBJECT)
		g_string_append(s, " [matched by subject only]");
	else if (f->evidence == FS_FEV_CVE)
		g_string_append(s, " [no Fixes: tag; a CVE record names the upstream commit as vulnerable]");
	else if (verbose && (f->evidence == FS_FEV_PREFIX || f->evidence == FS_FEV_STABLE))
		g_string_append_printf(s, " [%s]", fs_finding_evidence_name(f->evidence));
}

static char *finding_line(const struct fs_review *r, const struct fs_finding *f, bool verbose);

/* The line, and what settled it in the thread: every output that shows
 * the finding says so (the report, the digest, check). */
char *fs_report_finding_line(const struct fs_review *r, const struct fs_finding *f, bool verbose)
{
	char *line = finding_line(r, f, verbose), *settled, *t;

	if (!f->settled)
		return line;
	settled = fs_text_clean_line(f->settled);
	t = g_strdup_printf("%s (settled: %s)", line, settled);
	g_free(settled);
	g_free(line);
	return t;
}

static char *finding_line(const struct fs_review *r, const struct fs_finding *f, bool verbose)
{
	const struct fsr_kind *words = fsr_kind(f->kind);
	GString *s = g_string_new(fs_kind(f->kind)->name);
	size_t i;

	if (words->whole) {
		words->words(s, r, f);
		return g_string_free(s, FALSE);
	}
	add_commit(s, f->commit, f->subject);
	add_cves(s, f->cves, f->ncves);
	words->words(s, r, f);
	cross_text(s, f);
	add_evidence(s, f, verbose);
	if (verbose && f->nchain > 2) {
		g_string_append(s, "\n    chain:");
		for (i = 0; i < f->nchain; i++)
			g_string_append_printf(s, "%s%.12s", i ? " -> " : " ", f->chain[i]);
	}
	/* backport-differs: the differing lines (cleaned by diffcmp) */
	for (i = 0; verbose && i < f->diff.nlines; i++)
		g_string_append_printf(s, "\n    %s", f->diff.lines[i]);
	if (verbose && f->diff.lines_differ > f->diff.nlines)
		g_string_append_printf(s, "\n    (%zu more)", f->diff.lines_differ - f->diff.nlines);
	return g_string_free(s, FALSE);
}

/* What the other open threads and the notices say of a fix-missing:
 * "; queued for 4.5 as 07/31", "; FAILED to apply to linux-4.4.y". */
static void cross_text(GString *s, const struct fs_finding *f)
{
	size_t i;

	for (i = 0; i < f->cross.nqueued; i++) {
		const struct fs_finding_queued *q = &f->cross.queued[i];
		int w = q->total >= 100 ? 3 : 2;
		char number[32], series[FS_VERSION_NAME_MAX];

		g_string_append_printf(s, "%s queued for %s", i ? "," : ";",
				       fs_version_branch_series(q->branch, series, sizeof(series)) ?
				       series : q->branch);
		if (q->index >= 0)
			g_string_append_printf(s, " as %s",
					       fs_report_format_number(number, sizeof(number), w, q->index,
									       q->total));
		else
			g_string_append(s, " (added notice)");
	}
	if (f->cross.failed_to_apply)
		g_string_append_printf(s, "; FAILED to apply to this branch%s%s: needs a manual backport",
				       f->cross.failed_date ? ", notice of " : "",
				       f->cross.failed_date ? f->cross.failed_date : "");
}

/* ---- the text report ---------------------------------------------------- */

int fs_report_rank(const struct fs_finding *f)
{
	const struct fs_kind *row = fs_kind(f->kind);

	/* A revert undone by a revert of the revert is a note. */
	if (row->cls != FS_KIND_NOTE && !fs_finding_is_problem(f))
		return fs_kind_rank(f->kind) + FS_FIND_KIND_COUNT;
	return fs_kind_rank(f->kind);
}

/* "2 objections", "1 fix-missing": the kinds that are nouns take an s. */
static void add_count(GString *s, size_t n, enum fs_finding_kind k)
{
	const struct fs_kind *row = fs_kind(k);

	g_string_append_printf(s, "%zu %s%s", n, row->name, row->noun && n != 1 ? "s" : "");
}

static void print_summary(FILE *out, const struct fs_review *r)
{
	GString *s = g_string_new("summary:");
	size_t k;
	bool first = true;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		if (!r->counts[k])
			continue;
		g_string_append(s, first ? " " : ", ");
		add_count(s, r->counts[k], k);
		first = false;
	}
	if (first)
		g_string_append(s, " no findings");
	g_string_append_printf(s, " in %zu patch%s", r->npatches, r->npatches == 1 ? "" : "es");
	if (r->ignored)
		g_string_append_printf(s, " (%zu ignored)", r->ignored);
	fprintf(out, "%s\n", s->str);
	g_string_free(s, TRUE);
}

/* The numbers of the patches that did not arrive, as ranges: "05-07/27,
 * 12/27", at most MAX ranges (the numbers come from subjects). */
static char *missing_text(const struct fs_review *r, size_t max)
{
	const struct fs_thread_series *s = r->series;
	GString *out = g_string_new(NULL);
	size_t i = 0, j, shown = 0;
	int w = fs_report_number_width(s);

	for (; i < s->nmissing; i = j + 1, shown++) {
		for (j = i; j + 1 < s->nmissing && s->missing[j + 1] == s->missing[j] + 1; j++)
			;
		if (shown == max) {
			g_string_append_printf(out, ", ... (%zu more)", s->nmissing - i);
			break;
		}
		g_string_append_printf(out, "%s%0*d", out->len ? ", " : "", w, s->missing[i]);
		if (j > i)
			g_string_append_printf(out, "-%0*d", w, s->missing[j]);
		g_string_append_printf(out, "/%0*d", w, s->total);
	}
	return g_string_free(out, FALSE);
}

static void print_header(FILE *out, const struct fs_review *r)
{
	const struct fs_thread_series *s = r->series;

	if (s->cover) {
		fputs("review: ", out);
		fs_text_fputs(fs_patch_subject(s->cover), false, out);
		fputc('\n', out);
	} else if (!s->npatches) {
		fprintf(out, "review: %zu repl%s whose cover and patches are absent\n", s->nreplies,
			s->nreplies == 1 ? "y" : "ies");
	} else
		fprintf(out, "review: %zu patch%s without a cover letter\n", s->npatches,
			s->npatches == 1 ? "" : "es");
	if (!r->branch)
		fputs("branch: none named\n", out);
	else
		fprintf(out, "branch: %s (from %s), base: %s%s%s%s\n", r->branch, r->branch_source,
		r->base ? r->base : "the branch tip", r->base ? " (from " : "",
		r->base ? r->base_source : "", r->base ? ")" : "");
	if (s->deadline) {
		fputs("deadline: ", out);
		fs_text_fputs(s->deadline, false, out);
		fputc('\n', out);
	}
	if (s->nmissing) {
		char *text = missing_text(r, 20);
		fprintf(out, "missing from the series: %s\n", text);
		g_free(text);
	}
	if (s->duplicates)
		fprintf(out, "received twice: %zu patch%s, reviewed once\n", s->duplicates,
			s->duplicates == 1 ? "" : "es");
	if (r->previous) {
		char *text = fs_round_text(r->previous);
		fs_text_fputs(text, false, out);
		fputc('\n', out);
		g_free(text);
	}
}

static void print_kind(FILE *out, const struct fs_finding *f, const struct fs_report_opts *o)
{
	const char *kind = fs_finding_kind_name(f->kind);

	if (o->color)
		fprintf(out, "%s%s\033[0m", fs_report_kind_color(f->kind), kind);
	else
		fputs(kind, out);
}

static size_t shown_findings(const struct fs_review_patch *rp)
{
	size_t k, n = 0;

	for (k = 0; k < rp->findings.n; k++)
		n += !rp->findings.v[k].ignored;
	return n;
}

static void print_patch(FILE *out, const struct fs_review *r, const struct fs_review_patch *rp,
			const struct fs_report_opts *o)
{
	GString *num = g_string_new(NULL);
	size_t k;

	add_number(num, r, rp->index);
	fprintf(out, "\n%s ", num->str);
	g_string_free(num, TRUE);
	fs_text_fputs(fs_patch_title(rp->patch), false, out);
	if (rp->findings.nupstream_cves) {
		GString *c = g_string_new(" (fixes");
		add_cves(c, rp->findings.upstream_cves, rp->findings.nupstream_cves);
		fprintf(out, "%s)", c->str);
		g_string_free(c, TRUE);
	}
	fputc('\n', out);
	if (rp->findings.upstream[0]) {
		fprintf(out, "  upstream %.12s (\"", rp->findings.upstream);
		fs_text_fputs(rp->findings.upstream_subject, false, out);
		fputs("\")\n", out);
	}
	for (k = 0; k < rp->findings.n; k++) {
		const struct fs_finding *f = &rp->findings.v[k];
		char *line;
		if (f->ignored)
			continue;
		line = fs_report_finding_line(r, f, o->verbose);
		fputs("  ", out);
		print_kind(out, f, o);
		fs_text_fputs(line + strlen(fs_finding_kind_name(f->kind)), true, out);
		if (f->mail.absent_index > 0) {
			char nn[32];
			fprintf(out, " (on %s, whose mail is absent)",
				fs_report_patch_number(r->series, f->mail.absent_index, nn, sizeof(nn)));
		}
		fputc('\n', out);
		g_free(line);
	}
}

/* ---- --short ------------------------------------------------------------ */

struct flagged {
	int rank;
	const struct fs_review_patch *rp;
	const struct fs_finding *worst;
	size_t shown;
};

static int flagged_cmp(const void *a, const void *b)
{
	const struct flagged *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->rp->index > y->rp->index) - (x->rp->index < y->rp->index);
}

/* "03/27 fix-missing 80e046b0715b ("subject...") +1", the subject cut
 * so that the line fits O->width; for a commit the repository does not
 * know, "12/27 unknown-upstream cdf4294f5a34 (not found), the patch
 * "its subject..."". */
static void print_short_line(FILE *out, const struct fs_review *r, const struct flagged *x,
			     const struct fs_report_opts *o)
{
	const struct fs_finding *f = x->worst;
	GString *head = g_string_new(NULL), *tail = g_string_new(NULL);
	const char *subject = f->subject && f->commit[0] ? f->subject : fs_patch_title(x->rp->patch);
	char *visible = fs_text_visible(subject, false), *cut;
	/* A commit the repository does not know has no subject: the one
	 * shown is the patch's own, and says so. */
	bool unknown = f->commit[0] && !f->subject;
	size_t used;

	add_number(head, r, x->rp->index);
	g_string_append_c(head, ' ');
	if (f->commit[0])
		g_string_append_printf(tail, " %.12s%s", f->commit, unknown ? " (not found)" : "");
	add_cves(tail, f->cves, f->ncves);
	used = head->len + strlen(fs_finding_kind_name(f->kind)) + tail->len + (unknown ? 14 : 5);
	if (x->shown > 1)
		used += snprintf(NULL, 0, " +%zu", x->shown - 1);
	cut = o->width > 0 ? fs_report_ellipsize(visible ? visible : "",
						 (size_t)o->width > used ? (size_t)o->width - used : 0)
			   : g_strdup(visible ? visible : "");
	fputs(head->str, out);
	print_kind(out, f, o);
	if (unknown)
		fprintf(out, "%s, the patch \"%s\"", tail->str, cut);
	else
		fprintf(out, "%s (\"%s\")", tail->str, cut);
	if (x->shown > 1)
		fprintf(out, " +%zu", x->shown - 1);
	fputc('\n', out);
	g_free(cut);
	g_free(visible);
	g_string_free(head, TRUE);
	g_string_free(tail, TRUE);
}

static void print_short(FILE *out, const struct fs_review *r, const struct fs_report_opts *o)
{
	struct flagged *v = g_new0(struct flagged, r->npatches + 1);
	size_t i, k, n = 0;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		struct flagged *x = &v[n];
		x->rp = rp;
		x->shown = shown_findings(rp);
		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];
			if (!f->ignored && (!x->worst || fs_report_rank(f) < x->rank)) {
				x->worst = f;
				x->rank = fs_report_rank(f);
			}
		}
		n += x->worst != NULL;
	}
	qsort(v, n, sizeof(*v), flagged_cmp);
	if (n)
		fputc('\n', out);
	for (i = 0; i < n; i++)
		print_short_line(out, r, &v[i], o);
	g_free(v);
}

/* The replies that speak of the whole series, under "series". */
static void print_series_findings(FILE *out, const struct fs_review *r,
				  const struct fs_report_opts *o)
{
	size_t k;

	if (!r->series_findings.n)
		return;
	fputs("\nseries (replies that name no one patch)\n", out);
	for (k = 0; k < r->series_findings.n; k++) {
		const struct fs_finding *f = &r->series_findings.v[k];
		char *line = fs_report_finding_line(r, f, o->verbose);

		fputs("  ", out);
		print_kind(out, f, o);
		fs_text_fputs(line + strlen(fs_finding_kind_name(f->kind)), true, out);
		if (f->mail.absent_index > 0) {
			char nn[32];
			fprintf(out, " (on %s, whose mail is absent)",
				fs_report_patch_number(r->series, f->mail.absent_index, nn, sizeof(nn)));
		}
		fputc('\n', out);
		g_free(line);
	}
}

int fs_report_text(FILE *out, const struct fs_review *r, const struct fs_report_opts *o)
{
	size_t i;

	if (o->mode == FS_REPORT_QUIET) {
		print_summary(out, r);
		return ferror(out) ? -1 : 0;
	}
	print_header(out, r);
	if (o->mode != FS_REPORT_SHORT)
		print_series_findings(out, r, o);
	if (o->mode == FS_REPORT_SHORT)
		print_short(out, r, o);
	else
		for (i = 0; i < r->npatches; i++)
			if (o->all || shown_findings(&r->patches[i]) ||
			    r->patches[i].findings.nupstream_cves)
				print_patch(out, r, &r->patches[i], o);
	fputc('\n', out);
	print_summary(out, r);
	return ferror(out) ? -1 : 0;
}

/* "cves": [...], left out when there is none. */
static void json_cves(struct fs_json *b, char *const *cves, size_t n)
{
	size_t i;

	if (!n)
		return;
	fs_json_member(b, "cves");
	fs_json_begin_array(b);
	for (i = 0; i < n; i++)
		fs_json_add_str(b, cves[i]);
	fs_json_end_array(b);
}

/* The fields the crossbranch module fills (review --all-open). */
static void json_cross_finding(struct fs_json *b, const struct fs_finding *f)
{
	size_t i;

	if (f->kind == FS_FIND_MISSING_IN_NEWER) {
		fs_json_str(b, "newer_branch", f->cross.newer_branch);
		fs_json_bool(b, "newer_thread", f->cross.newer_thread);
		fs_json_str(b, "newer_release", f->cross.newer_release);
		fs_json_str(b, "newer_last_release", f->cross.newer_last_release);
	}
	if (f->kind != FS_FIND_FIX_MISSING)
		return;
	fs_json_member(b, "queued_elsewhere");
	fs_json_begin_array(b);
	for (i = 0; i < f->cross.nqueued; i++) {
		const struct fs_finding_queued *q = &f->cross.queued[i];
		fs_json_begin_object(b);
		fs_json_str(b, "branch", q->branch);
		fs_json_str(b, "release", q->release);
		fs_json_int(b, "index", q->index);
		fs_json_str(b, "message_id", q->message_id);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
	fs_json_bool(b, "failed_to_apply", f->cross.failed_to_apply);
	fs_json_str(b, "failed_message_id", f->cross.failed_message_id);
	fs_json_str(b, "failed_date", f->cross.failed_date);
}

static void json_strv(struct fs_json *b, const char *key, char *const *v, size_t n)
{
	size_t i;

	fs_json_member(b, key);
	fs_json_begin_array(b);
	for (i = 0; i < n; i++)
		fs_json_add_str(b, v[i]);
	fs_json_end_array(b);
}

/* backport-differs: what differs. */
static void json_diff_finding(struct fs_json *b, const struct fs_finding *f)
{
	if (f->kind != FS_FIND_BACKPORT_DIFFERS)
		return;
	json_strv(b, "files_dropped", f->diff.files_dropped, f->diff.nfiles_dropped);
	json_strv(b, "files_added", f->diff.files_added, f->diff.nfiles_added);
	fs_json_int(b, "lines_differ", (gint64)f->diff.lines_differ);
	json_strv(b, "lines", f->diff.lines, f->diff.nlines);
}

/* series-partial: the upstream commit's part, and the posting's other
 * parts that mainline has and the branch and series do not. */
static void json_series_finding(struct fs_json *b, const struct fs_finding *f)
{
	size_t i;

	if (f->kind != FS_FIND_SERIES_PARTIAL)
		return;
	fs_json_int(b, "part", (long)f->posting.part);
	fs_json_member(b, "commits");
	fs_json_begin_array(b);
	for (i = 0; i < f->posting.nparts; i++) {
		const struct fs_finding_part *p = &f->posting.parts[i];

		fs_json_begin_object(b);
		fs_json_str(b, "commit", p->commit);
		fs_json_str(b, "subject", p->subject);
		fs_json_str(b, "release", p->release);
		fs_json_int(b, "part", (long)p->part);
		fs_json_member(b, "total");
		if (p->total)
			fs_json_add_int(b, (long)p->total);
		else
			fs_json_add_null(b);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
}

/* symbol-missing: the first name ("symbol") and every name with how and
 * where the patch uses it; fix-not-applicable: the fix's files. */
static void json_tree_finding(struct fs_json *b, const struct fs_finding *f)
{
	size_t i;

	if (f->kind == FS_FIND_SYMBOL_MISSING) {
		fs_json_str(b, "symbol", f->tree.nsymbols ? f->tree.symbols[0].name : NULL);
		fs_json_member(b, "symbols");
		fs_json_begin_array(b);
		for (i = 0; i < f->tree.nsymbols; i++) {
			const struct fs_csym_use *u = &f->tree.symbols[i];

			fs_json_begin_object(b);
			fs_json_str(b, "name", u->name);
			fs_json_str(b, "role", fs_csym_role_name(u->role));
			fs_json_str(b, "tag", u->tag);
			fs_json_str(b, "file", u->file);
			fs_json_int(b, "line", (long)u->line);
			fs_json_end_object(b);
		}
		fs_json_end_array(b);
	} else if (f->kind == FS_FIND_FIX_NOT_APPLICABLE) {
		json_strv(b, "files", f->tree.files, f->tree.nfiles);
	}
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
	fs_json_str(b, "message_id", f->mail.message_id);
	fs_json_str(b, "from", f->mail.from);
	fs_json_str(b, "date", f->mail.date);
	fs_json_str(b, "evidence", fs_finding_evidence_name(f->evidence));
	fs_json_str(b, "note", f->note);
	fs_json_str(b, "ignored", f->ignored);
	/* Added later; the fields above keep their names and meaning. */
	fs_json_str(b, "cause", f->cause ? fs_finding_cause_name(f->cause) : NULL);
	fs_json_str(b, "branch", f->branch);
	fs_json_str(b, "unresolved", f->unresolved ? fs_finding_cause_name(f->unresolved) : NULL);
	fs_json_str(b, "reapplied_commit", f->revert.reapplied_commit);
	fs_json_str(b, "reapplied_release", f->revert.reapplied_release);
	fs_json_str(b, "reason", f->revert.reason);
	fs_json_str(b, "reverted_commit", f->revert.commit);
	fs_json_str(b, "reverted_release", f->revert.release);
	fs_json_str(b, "written", f->written);
	if (f->kind == FS_FIND_FIX_PENDING)
		fs_json_str(b, "ref", f->ref);
	json_cves(b, f->cves, f->ncves);
	json_cross_finding(b, f);
	fs_json_rfc3339(b, "date_rfc3339", f->mail.date);
	json_diff_finding(b, f);
	json_series_finding(b, f);
	json_tree_finding(b, f);
	fs_json_int(b, "patch", f->mail.absent_index > 0 ? f->mail.absent_index : -1);
	fs_json_str(b, "link", f->mail.link);
	fs_json_str(b, "settled", f->settled);
	fs_json_str(b, "round", f->mail.round);
	fs_json_bool(b, "own", f->mail.own);
	fs_json_bool(b, "unkept", f->mail.unkept);
	fs_json_end_object(b);
}

static void json_round_findings(struct fs_json *b, const char *key,
				const struct fs_round_finding *v, size_t n)
{
	size_t i;

	fs_json_member(b, key);
	fs_json_begin_array(b);
	for (i = 0; i < n; i++) {
		fs_json_begin_object(b);
		fs_json_str(b, "kind", fs_finding_kind_name(v[i].kind));
		fs_json_str(b, "commit", v[i].commit[0] ? v[i].commit : NULL);
		fs_json_str(b, "upstream", v[i].upstream[0] ? v[i].upstream : NULL);
		fs_json_int(b, "index", v[i].index);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
}

static void json_ids(struct fs_json *b, const char *key, const char (*v)[41], size_t n)
{
	size_t i;

	fs_json_member(b, key);
	fs_json_begin_array(b);
	for (i = 0; i < n; i++)
		fs_json_add_str(b, v[i]);
	fs_json_end_array(b);
}

static void json_numbers(struct fs_json *b, const char *key, const int *v, size_t n)
{
	size_t i;

	fs_json_member(b, key);
	fs_json_begin_array(b);
	for (i = 0; i < n; i++)
		fs_json_add_int(b, v[i]);
	fs_json_end_array(b);
}

/* "previous_round": what changed since the earlier round, or null. */
static void json_previous_round(struct fs_json *b, const struct fs_round *rd)
{
	fs_json_member(b, "previous_round");
	if (!rd) {
		fs_json_add_null(b);
		return;
	}
	fs_json_begin_object(b);
	fs_json_str(b, "cover", rd->cover);
	fs_json_str(b, "release", rd->release);
	json_ids(b, "added", rd->added, rd->nadded);
	json_ids(b, "dropped", rd->dropped, rd->ndropped);
	json_numbers(b, "patches_added", rd->patches_added, rd->npatches_added);
	json_numbers(b, "patches_dropped", rd->patches_dropped, rd->npatches_dropped);
	json_round_findings(b, "findings_new", rd->findings_new, rd->nfindings_new);
	json_round_findings(b, "findings_resolved", rd->findings_resolved, rd->nfindings_resolved);
	fs_json_end_object(b);
}

int fs_report_json(FILE *out, const struct fs_review *r)
{
	struct fs_json *b = fs_json_new();
	const struct fs_thread_series *s = r->series;
	size_t i, k;
	int rc;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
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
		json_cves(b, rp->findings.upstream_cves, rp->findings.nupstream_cves);
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
	if (r->matrix) {
		fs_json_member(b, "matrix");
		fs_cross_matrix_json(b, r->matrix);
	}
	/* Added later, as every key after this. */
	fs_json_rfc3339(b, "deadline_rfc3339", s->deadline);
	fs_json_member(b, "series_findings");
	fs_json_begin_array(b);
	for (k = 0; k < r->series_findings.n; k++)
		json_finding(b, &r->series_findings.v[k]);
	fs_json_end_array(b);
	json_previous_round(b, r->previous);
	fs_json_end_object(b);
	rc = fs_json_print_line(b, out);
	fs_json_free(b);
	return rc;
}
