/* fixscan: the words of each finding kind's report line, and its colour
 * (report.c prints the line: the kind's name, then these words).
 *
 * One row per kind, by name, beside the functions that write its words;
 * what a kind is (its name, whether it asks for action, its rank) is in
 * the kinds table (lib/review/kinds.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/report.h"
#include "fixscan/text.h"
#include "report-words.h"

/* "second" when fix-missing F of RP directly fixes the second of the
 * several upstream commits RP picks; NULL for a patch of one upstream
 * commit, a fix of a fix, or a commit not among them. */
const char *fs_report_fixed_ordinal(const struct fs_review_patch *rp, const struct fs_finding *f)
{
	static const char *const ordinals[] = { "first", "second", "third", "fourth", "fifth",
						"sixth", "seventh", "eighth", "ninth", "tenth" };
	size_t i, nup = 0;
	const char *const *up;

	if (!rp || !rp->patch || f->nchain != 2 || !fs_patch_trailers(rp->patch))
		return NULL;
	up = fs_trailers_upstream(fs_patch_trailers(rp->patch), &nup);
	for (i = 0; nup > 1 && i < nup && i < G_N_ELEMENTS(ordinals); i++)
		if (*up[i] && (g_str_has_prefix(f->chain[0], up[i]) || g_str_has_prefix(up[i], f->chain[0])))
			return ordinals[i];
	return NULL;
}

/* ---- names and files ------------------------------------------------------- */

/* ", " between items, " and " before the last. */
static void add_sep(GString *s, size_t i, size_t n)
{
	if (i)
		g_string_append(s, i + 1 == n ? " and " : ", ");
}

void fs_report_add_symbols(GString *s, const struct fs_finding *f)
{
	size_t i;

	for (i = 0; i < f->tree.nsymbols; i++) {
		const struct fs_csym_use *u = &f->tree.symbols[i];

		add_sep(s, i, f->tree.nsymbols);
		/* names are identifiers: nothing to clean */
		if (u->role == FS_CSYM_CALL)
			g_string_append_printf(s, "%s()", u->name);
		else if (u->role == FS_CSYM_MEMBER)
			g_string_append_printf(s, "->%s", u->name);
		else if (u->role == FS_CSYM_TYPE && u->tag)
			g_string_append_printf(s, "%s %s", u->tag, u->name);
		else
			g_string_append(s, u->name);
	}
}

/* At most this many files are named; the rest are counted. */
#define FILES_NAMED 3

void fs_report_add_files(GString *s, const struct fs_finding *f)
{
	size_t i, n = f->tree.nfiles > FILES_NAMED + 1 ? FILES_NAMED : f->tree.nfiles;

	for (i = 0; i < n; i++) {
		char *path = fs_text_clean_line(f->tree.files[i]);

		add_sep(s, i, n < f->tree.nfiles ? n + 1 : n);
		g_string_append(s, path);
		g_free(path);
	}
	if (n < f->tree.nfiles)
		g_string_append_printf(s, " and %zu more", f->tree.nfiles - n);
}

/* ---- the words of report lines ------------------------------------------ */

static void rw_fix_missing(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *rel = f->release;
	const char *nth = fs_report_fixed_ordinal(fs_review_patch_of(r, f), f);

	if (f->note)
		g_string_append_printf(s, ", %s", f->note);
	else
		g_string_append_printf(s, " %s%s, neither in %s nor in this series",
				       rel ? "in " : "", rel ? rel : "(unreleased)", r->branch);
	if (nth)
		g_string_append_printf(s, "; it fixes %.12s, the %s upstream commit", f->chain[0], nth);
}

static void rw_fix_queued(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->series_index < 0 && f->note) {
		g_string_append_printf(s, " is %s", f->note);
		return;
	}
	g_string_append_printf(s, " is queued as %s", fs_report_nn(r, f->series_index));
}

static void rw_missing_in_newer(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->release)
		g_string_append_printf(s, " in %s", f->release);
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
}

static void rw_fix_present(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->stable_commit)
		g_string_append_printf(s, " is in %s as %.12s%s%s", r->branch, f->stable_commit,
				       f->stable_release ? " in " : "",
				       f->stable_release ? f->stable_release : "");
	else
		g_string_append_printf(s, " is in %s", r->branch);
}

static void rw_reverted_upstream(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *rel = f->release;

	g_string_append_printf(s, " %s%s", rel ? "in " : "", rel ? rel : "(unreleased)");
	if ((f->cause == FS_CAUSE_REVERT_OF_REVERT || f->cause == FS_CAUSE_FIX_REVERTED) && f->note)
		g_string_append_printf(s, ", %s", f->note);
}

static void rw_reverted_in_stable(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
	if (f->revert.reason)
		g_string_append_printf(s, "; its reason: \"%s\"", f->revert.reason);
}

static void rw_duplicate_in_series(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append_printf(s, " is also %s of this series", fs_report_nn(r, f->series_index));
}

/* The kinds whose note says it all. */
static void rw_note(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
}

static void rw_target_absent(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->release)
		g_string_append_printf(s, " in %s", f->release);
	rw_note(s, r, f);
}

static void rw_no_upstream(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append(s, ": the changelog names no upstream commit");
	if (f->cause == FS_CAUSE_SUBJECT_AUTHOR)
		g_string_append_printf(s, "; the subject and author are those of %.12s (\"%s\")",
				       f->commit, f->subject ? f->subject : "");
}

static void rw_diff_absent(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *branch = r->branch ? r->branch : "the branch";

	if (f->cause == FS_CAUSE_UNREADABLE)
		g_string_append(s, ": the mail's text could not be read (a damaged encoding?): neither "
				"its changelog nor its code was looked at");
	else if (f->note)
		g_string_append_printf(s, ": %s (cut short?): it was not compared with upstream, "
				       "and only what is there was checked against %s's tree", f->note,
				       branch);
	else
		g_string_append_printf(s, ": the mail carries no diff (cut short?): its code was "
				       "neither compared with upstream nor checked against %s's tree",
				       branch);
}

static void rw_objection(GString *s, const struct fs_review *r, const struct fs_finding *f);

static void rw_regression_report(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (!f->commit[0]) { /* a reply in the thread: its own words */
		rw_objection(s, r, f);
		return;
	}
	g_string_append_printf(s, " %.12s: %s from %s", f->commit, f->note ? f->note : "",
			       f->mail.from ? f->mail.from : "?");
	if (f->mail.date)
		g_string_append_printf(s, ", %s", f->mail.date);
	if (f->mail.link)
		g_string_append_printf(s, ": %s", f->mail.link);
	else if (f->mail.message_id)
		g_string_append_printf(s, " <%s>", f->mail.message_id);
}

static void rw_objection(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *round = f->mail.round;

	g_string_append_printf(s, " from %s", f->mail.from ? f->mail.from : "?");
	/* "(yours, on 4.4.7-rc1)": a reply of an earlier round's thread */
	if (f->mail.own || round)
		g_string_append_printf(s, " (%s%s%s%s)", f->mail.own ? "yours" : "",
				       f->mail.own && round ? ", " : "", round ? "on " : "", round ? round : "");
	g_string_append_printf(s, ": \"%s\"", f->note ? f->note : "");
	/* a mail of the archives (a backport posted there): where it is */
	if (f->mail.link)
		g_string_append_printf(s, ": %s", f->mail.link);
}

/* " a67fd55f6a09 ("subject") in v6.2, neither in the branch nor in
 * this series; from X: "..."": a commit a reply asks for, where it is,
 * and the reply's own words. */
static void rw_needs_also(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->commit[0]) {
		g_string_append_printf(s, " %.12s", f->commit);
		if (f->subject)
			g_string_append_printf(s, " (\"%s\")", f->subject);
		if (f->release)
			g_string_append_printf(s, " in %s", f->release);
		if (f->unresolved)
			g_string_append(s, ", not in the kernel repository");
		else if (f->stable_commit)
			g_string_append_printf(s, ", in %s already", r->branch ? r->branch : "the branch");
		else if (f->series_index >= 0)
			g_string_append_printf(s, ", queued as %s", fs_report_nn(r, f->series_index));
		else if (r->branch)
			g_string_append_printf(s, ", neither in %s nor in this series", r->branch);
		g_string_append_c(s, ';');
	}
	rw_objection(s, r, f);
}

/* ---- fix-pending --------------------------------------------------------- */

/* A pending ref as people name it: "next/master" for
 * refs/remotes/next/master, "fixes" for refs/heads/fixes.  New string. */
char *fs_report_short_ref(const char *ref)
{
	static const char *const prefixes[] = { "refs/remotes/", "refs/heads/", "refs/" };
	size_t i;

	for (i = 0; ref && i < G_N_ELEMENTS(prefixes); i++)
		if (g_str_has_prefix(ref, prefixes[i]))
			return fs_text_clean_line(ref + strlen(prefixes[i]));
	return fs_text_clean_line(ref);
}

static void rw_fix_pending(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append_printf(s, " %s: \"%s\"", f->note ? f->note : "",
			       f->subject ? f->subject : "");
	if (f->commit[0]) {
		char *ref = fs_report_short_ref(f->ref);
		g_string_append_printf(s, " in %s (%.12s)", ref, f->commit);
		g_free(ref);
	}
	if (f->mail.from)
		g_string_append_printf(s, "%s %s", f->commit[0] ? ", posted by" : " from", f->mail.from);
	if (f->mail.from && f->mail.date)
		g_string_append_printf(s, ", %s", f->mail.date);
	if (f->mail.message_id) {
		char *link = fs_finding_mail_link(f);
		g_string_append_printf(s, ": %s", link ? link : "");
		g_free(link);
	}
}

/* ---- series-partial ------------------------------------------------------ */

/* "part 3", or "part 3/5" when the posting's size is known; "a part"
 * for a commit that links the posting's cover (part 0). */
void fs_report_add_part(GString *s, unsigned part, unsigned total)
{
	if (!part) {
		g_string_append(s, "a part");
		return;
	}
	g_string_append_printf(s, "part %u", part);
	if (total)
		g_string_append_printf(s, "/%u", total);
}

static void rw_series_partial(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	size_t i;

	g_string_append_printf(s, " %.12s is ", f->commit);
	fs_report_add_part(s, f->posting.part, f->posting.nparts ? f->posting.parts[0].total : 0);
	g_string_append_printf(s, " of a posting; in mainline, neither in %s nor in this series:",
			       r->branch ? r->branch : "the branch");
	for (i = 0; i < f->posting.nparts; i++) {
		const struct fs_finding_part *p = &f->posting.parts[i];

		g_string_append(s, i ? ", " : " ");
		fs_report_add_part(s, p->part, p->total);
		g_string_append_printf(s, " %.12s (\"%s\")", p->commit, p->subject ? p->subject : "");
		if (p->release)
			g_string_append_printf(s, " in %s", p->release);
	}
}

/* A backport that cannot build: the commit that brings what it uses, or
 * the names alone when no commit was found. */
static void rw_symbol_missing(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *branch = r->branch ? r->branch : "the branch";

	if (!f->commit[0]) {
		g_string_append_c(s, ' ');
		fs_report_add_symbols(s, f);
		g_string_append_printf(s, " %s nowhere in %s: the backport cannot build as it is",
				       f->tree.nsymbols == 1 ? "is" : "are", branch);
		return;
	}
	g_string_append_printf(s, " %.12s", f->commit);
	if (f->subject)
		g_string_append_printf(s, " (\"%s\")", f->subject);
	if (f->release)
		g_string_append_printf(s, " in %s", f->release);
	g_string_append(s, " brings ");
	fs_report_add_symbols(s, f);
	g_string_append_printf(s, ", which %s has nowhere: the backport cannot build without it",
			       branch);
	if (f->series_index >= 0)
		g_string_append_printf(s, "; queued as %s, after this patch",
				       fs_report_nn(r, f->series_index));
}

static void rw_fix_not_applicable(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append(s, " changes only ");
	fs_report_add_files(s, f);
	g_string_append_printf(s, ", which %s does not have: nothing to queue",
			       r->branch ? r->branch : "the branch");
}

/* ---- the table ---------------------------------------------------------- */

#define RED "\033[1;31m"
#define YELLOW "\033[33m"
#define GREEN "\033[32m"
#define CYAN "\033[36m"

static const struct fsr_kind report_kinds[FS_FIND_KIND_COUNT] = {
	[FS_FIND_FIX_MISSING] = { .color = RED, .words = rw_fix_missing },
	[FS_FIND_MISSING_IN_NEWER] = { .color = RED, .words = rw_missing_in_newer },
	[FS_FIND_REVERTED_UPSTREAM] = { .color = RED, .words = rw_reverted_upstream },
	[FS_FIND_ALREADY_APPLIED] = { .color = YELLOW, .words = rw_note },
	[FS_FIND_DUPLICATE_IN_SERIES] = { .color = YELLOW, .words = rw_duplicate_in_series },
	[FS_FIND_DEP_MISSING] = { .color = YELLOW, .words = rw_note },
	[FS_FIND_REVERTED_IN_STABLE] = { .color = RED, .words = rw_reverted_in_stable },
	[FS_FIND_BACKPORT_DIFFERS] = { .color = YELLOW, .words = rw_note },
	[FS_FIND_REGRESSION_REPORT] = { .color = RED, .whole = true, .words = rw_regression_report },
	[FS_FIND_OBJECTION] = { .color = YELLOW, .whole = true, .words = rw_objection },
	[FS_FIND_NEEDS_ALSO] = { .color = YELLOW, .whole = true, .words = rw_needs_also },
	[FS_FIND_FIX_PENDING] = { .color = RED, .whole = true, .words = rw_fix_pending },
	[FS_FIND_TARGET_ABSENT] = { .color = YELLOW, .words = rw_target_absent },
	[FS_FIND_REVERTS_STABLE] = { .color = YELLOW, .words = rw_note },
	[FS_FIND_FIXES_TAG_MISMATCH] = { .color = CYAN, .words = rw_note },
	[FS_FIND_UNKNOWN_UPSTREAM] = { .color = CYAN, .words = rw_note },
	[FS_FIND_NO_UPSTREAM] = { .color = CYAN, .whole = true, .words = rw_no_upstream },
	[FS_FIND_SERIES_PARTIAL] = { .color = CYAN, .whole = true, .words = rw_series_partial },
	[FS_FIND_SYMBOL_MISSING] = { .color = RED, .whole = true, .words = rw_symbol_missing },
	[FS_FIND_FIX_NOT_APPLICABLE] = { .color = CYAN, .words = rw_fix_not_applicable },
	[FS_FIND_DIFF_ABSENT] = { .color = CYAN, .whole = true, .words = rw_diff_absent },
	[FS_FIND_FIX_QUEUED] = { .color = GREEN, .words = rw_fix_queued },
	[FS_FIND_FIX_PRESENT] = { .color = GREEN, .words = rw_fix_present },
	[FS_FIND_REPLACEMENT_POSTED] = { .color = CYAN, .whole = true, .words = rw_objection },
	[FS_FIND_REPLY] = { .color = CYAN, .whole = true, .words = rw_objection },
};

/* A kind out of range: the note alone. */
static const struct fsr_kind unknown_kind = { .color = CYAN, .words = rw_note };

const struct fsr_kind *fsr_kind(enum fs_finding_kind kind)
{
	return (unsigned)kind < FS_FIND_KIND_COUNT ? &report_kinds[kind] : &unknown_kind;
}
