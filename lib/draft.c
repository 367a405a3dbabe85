/* fixscan: draft replies, composed with GMime (no I/O here).
 *
 * Text that comes from mail (subjects, names, addresses, ids, dates) is
 * passed through fs_draft_clean_line() or fs_draft_clean_id() before it
 * goes anywhere near a header, so a CR or LF in it can never start a
 * header of its own.  Nothing here reads or writes a file or runs a
 * program: saving is fixscan/drafts.h's business.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/draft.h"
#include "fixscan/findings.h"
#include "fixscan/report.h"

#define WRAP 72

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_init_once(void)
{
	/* g_mime_init counts its callers, so sharing it with mail.c is
	 * harmless. */
	g_mime_init();
}

/* ---- text helpers --------------------------------------------------------- */

char *fs_draft_clean_line(const char *s)
{
	GString *o = g_string_new(NULL);
	bool space = false;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == ' ') {
			space = o->len > 0;
			continue;
		}
		if (space)
			g_string_append_c(o, ' ');
		space = false;
		g_string_append_c(o, (char)c);
	}
	return g_string_free(o, FALSE);
}

char *fs_draft_clean_id(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > 0x20 && c < 0x7f && c != '<' && c != '>')
			g_string_append_c(o, (char)c);
	}
	if (!o->len) {
		g_string_free(o, TRUE);
		return NULL;
	}
	return g_string_free(o, FALSE);
}

/* Split "Name <addr>" (as fs_patch_from gives it) into its parts; a bare
 * address has an empty name.  Both new strings, cleaned. */
static void split_mailbox(const char *from, char **name, char **addr)
{
	const char *lt = from ? strrchr(from, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;
	char *n, *a;

	if (lt && gt) {
		n = g_strndup(from, lt - from);
		a = g_strndup(lt + 1, gt - lt - 1);
	} else {
		n = g_strdup("");
		a = g_strdup(from ? from : "");
	}
	g_strstrip(n);
	/* An RFC 5322 quoted name keeps its quotes in the decoded text. */
	if (strlen(n) >= 2 && n[0] == '"' && n[strlen(n) - 1] == '"') {
		memmove(n, n + 1, strlen(n) - 2);
		n[strlen(n) - 2] = '\0';
	}
	*name = fs_draft_clean_line(n);
	*addr = fs_draft_clean_line(a);
	g_free(n);
	g_free(a);
}

/* The name to address a person by: the display name, else the address. */
static char *display_name(const char *from)
{
	char *name, *addr;

	split_mailbox(from, &name, &addr);
	if (*name) {
		g_free(addr);
		return name;
	}
	g_free(name);
	return *addr ? addr : (g_free(addr), g_strdup("you"));
}

/* Append TEXT as a paragraph wrapped at WRAP columns, then a blank line. */
static void add_para(GString *s, const char *text)
{
	char **words = g_strsplit(text, " ", -1);
	size_t col = 0, i;

	for (i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);

		if (!n)
			continue;
		if (col && col + 1 + n > WRAP) {
			g_string_append_c(s, '\n');
			col = 0;
		} else if (col) {
			g_string_append_c(s, ' ');
			col++;
		}
		g_string_append(s, words[i]);
		col += n;
	}
	g_string_append(s, "\n\n");
	g_strfreev(words);
}

static void add_paraf(GString *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_paraf(GString *s, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	add_para(s, text);
	g_free(text);
}

/* '0123456789ab ("subject")', the way a Fixes: tag names a commit. */
static char *commit_ref(const char *hex, const char *subject)
{
	char *subj = fs_draft_clean_line(subject), *ret;

	if (*subj)
		ret = g_strdup_printf("%.12s (\"%s\")", hex, subj);
	else
		ret = g_strdup_printf("%.12s", hex);
	g_free(subj);
	return ret;
}

static int series_total(const struct fs_review *r)
{
	return r->series && r->series->total > 0 ? r->series->total : 0;
}

/* The width of NN and MM as the subjects write them ("03/24"), so that
 * a draft names a patch the way the thread does. */
static int series_width(const struct fs_review *r)
{
	return r->series ? fs_report_number_width(r->series) : 2;
}

/* The index of the patch (in R) whose upstream commit is HEX, or -1. */
static const struct fs_finding *queued_finding(const struct fs_review_patch *rp,
					       const char *hex)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind == FS_FIND_FIX_QUEUED && !f->ignored && !strcmp(f->commit, hex))
			return f;
	}
	return NULL;
}

int fs_draft_mode_from_name(const char *name)
{
	if (!name || !strcmp(name, "all"))
		return FS_DRAFTS_ALL;
	if (!strcmp(name, "summary"))
		return FS_DRAFTS_SUMMARY;
	if (!strcmp(name, "patches"))
		return FS_DRAFTS_PATCHES;
	return -1;
}

/* ---- subjects and digests --------------------------------------------------- */

char *fs_draft_reply_subject(const char *subject)
{
	char *clean = fs_draft_clean_line(subject), *p = clean, *ret;

	for (;;) {
		char *q = p;

		if (g_ascii_strncasecmp(q, "re", 2))
			break;
		q += 2;
		/* "Re[2]:", as some clients count replies */
		if (*q == '[') {
			char *e = q + 1;

			while (g_ascii_isdigit(*e))
				e++;
			if (*e != ']')
				break;
			q = e + 1;
		}
		while (*q == ' ')
			q++;
		if (*q != ':')
			break;
		q++;
		while (*q == ' ')
			q++;
		p = q;
	}
	ret = g_strdup_printf("Re: %s", p);
	g_free(clean);
	return ret;
}

char *fs_draft_digest(const char *body, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	size_t end = len, i, start = 0;
	char *ret;

	while (end > 0 && g_ascii_isspace(body[end - 1]))
		end--;
	for (i = 0; i < end; i++) {
		if (body[i] != '\r')
			continue;
		g_checksum_update(sum, (const guchar *)body + start, i - start);
		start = i + 1;
	}
	g_checksum_update(sum, (const guchar *)body + start, end - start);
	ret = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return ret;
}

/* ---- bodies --------------------------------------------------------------- */

/* "On <date>, <name> wrote:" for message P. */
static void add_attribution(GString *s, const struct fs_patch *p)
{
	char *date = fs_draft_clean_line(fs_patch_date(p));
	char *who = display_name(fs_patch_from(p));

	if (*date)
		g_string_append_printf(s, "On %s, %s wrote:\n", date, who);
	else
		g_string_append_printf(s, "%s wrote:\n", who);
	g_free(date);
	g_free(who);
}

/* The line of P's body that names its upstream commit ("commit X
 * upstream.", "[ Upstream commit X ]", "(cherry picked from commit X)"),
 * as a new string, or NULL. */
static char *upstream_line(const struct fs_patch *p)
{
	const char *const *ids;
	const char *body, *hit = NULL, *bol, *eol, *hay;
	size_t n, len;
	char *lower, *needle;

	ids = fs_patch_tags(p) ? fs_tags_upstream(fs_patch_tags(p), &n) : NULL;
	body = fs_patch_body(p, &len);
	if (!ids || !n || !body)
		return NULL;
	lower = g_ascii_strdown(body, len);
	needle = g_ascii_strdown(ids[0], -1);
	hay = lower;
	hit = strstr(hay, needle);
	g_free(needle);
	if (!hit) {
		g_free(lower);
		return NULL;
	}
	bol = hit;
	while (bol > lower && bol[-1] != '\n')
		bol--;
	eol = strchr(hit, '\n');
	if (!eol)
		eol = lower + strlen(lower);
	/* Take the bytes from the original body: same offsets. */
	hay = g_strndup(body + (bol - lower), eol - bol);
	g_free(lower);
	lower = fs_draft_clean_line(hay);
	g_free((char *)hay);
	return lower;
}

/* The first line of text of P's body (the cover's opening sentence). */
static char *first_body_line(const struct fs_patch *p)
{
	size_t len;
	const char *body = fs_patch_body(p, &len), *e, *end;

	if (!body)
		return NULL;
	end = body + len;
	while (body < end) {
		e = memchr(body, '\n', end - body);
		if (!e)
			e = end;
		if (e > body && strspn(body, " \t\r") < (size_t)(e - body)) {
			char *raw = g_strndup(body, e - body), *ret = fs_draft_clean_line(raw);
			g_free(raw);
			return ret;
		}
		body = e + 1;
	}
	return NULL;
}

/* Whether F belongs in a reply: not ignored, and not about an id that a
 * clone older than the thread may just not have yet (asking the
 * maintainer to check it would be the reviewer's mistake). */
static bool is_shown(const struct fs_finding *f)
{
	return !f->ignored && f->unresolved != FS_CAUSE_NOT_IN_CLONE;
}

/* The "(a fix of ...)" note of a fix-of-a-fix: which commit of the chain
 * this one fixes, and where that one is. */
static void add_chain_note(GString *s, const struct fs_review_patch *rp,
			   const struct fs_finding *f, const struct fs_review *r)
{
	const char *prev;
	const struct fs_finding *q;
	size_t i;
	bool listed = false;

	if (f->nchain < 3)
		return;
	prev = f->chain[f->nchain - 2];
	q = queued_finding(rp, prev);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *o = &rp->findings.v[i];

		if (o != f && o->kind == FS_FIND_FIX_MISSING && is_shown(o) &&
		    !strcmp(o->commit, prev))
			listed = true;
	}
	g_string_append_printf(s, "    which %s %.12s", f->evidence != FS_FEV_REVERT ? "fixes" : "reverts",
			       prev);
	if (q && q->series_index < 0)
		g_string_append(s, ", queued for this branch already");
	else if (q)
		g_string_append_printf(s, ", queued here as %0*d/%0*d", series_width(r),
				       q->series_index, series_width(r), series_total(r));
	else if (listed)
		g_string_append(s, " above");
	g_string_append_c(s, '\n');
}

/* The indented line of a commit in a list: id, subject, release. */
static void add_commit_item(GString *s, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *rel = fs_draft_clean_line(f->release);

	g_string_append_printf(s, "  %s%s%s\n", ref, *rel ? " in " : "", rel);
	g_free(ref);
	g_free(rel);
}

/* "4.5" of "linux-4.5.y", for people. */
static char *short_branch_name(const char *b)
{
	size_t n = b ? strlen(b) : 0;

	if (n > 8 && !strncmp(b, "linux-", 6) && !strcmp(b + n - 2, ".y"))
		return g_strndup(b + 6, n - 8);
	return fs_draft_clean_line(b);
}

/* review --all-open on a fix-missing: where else it is queued, and a
 * FAILED notice.  *ELSEWHERE gets the first other branch ("6.1"). */
static void add_cross_note(GString *s, const struct fs_finding *f, char **elsewhere, bool *failed)
{
	size_t i;

	for (i = 0; i < f->nqueued_elsewhere; i++) {
		const struct fs_finding_queued *q = &f->queued_elsewhere[i];
		char *b = short_branch_name(q->branch);

		if (q->index >= 0)
			g_string_append_printf(s, "    (queued for %s as %02d/%02d)\n", b, q->index, q->total);
		else
			g_string_append_printf(s, "    (queued for %s)\n", b);
		if (!*elsewhere)
			*elsewhere = g_strdup(b);
		g_free(b);
	}
	if (f->failed_to_apply) {
		char *date = fs_draft_clean_line(f->failed_date);
		g_string_append_printf(s, "    (FAILED to apply to this branch%s%s)\n", *date ? ", notice of " : "",
				       date);
		g_free(date);
		*failed = true;
	}
}

/* review --all-open: the newer stable branches that lack the patch. */
static void para_missing_in_newer(GString *s, const struct fs_review *r,
				  const struct fs_review_patch *rp)
{
	GString *list = g_string_new(NULL);
	size_t i, n = 0, total = 0;
	char *here = short_branch_name(r->branch);

	for (i = 0; i < rp->findings.n; i++)
		total += rp->findings.v[i].kind == FS_FIND_MISSING_IN_NEWER && is_shown(&rp->findings.v[i]);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];
		char *b;

		if (f->kind != FS_FIND_MISSING_IN_NEWER || !is_shown(f))
			continue;
		b = short_branch_name(f->newer_branch);
		if (n)
			g_string_append(list, n + 1 == total ? " and " : ", ");
		g_string_append_printf(list, "%s.y", b);
		g_free(b);
		n++;
	}
	if (n)
		add_paraf(s, "This is not in %s yet, %s: a user upgrading from %s.y would lose the fix. Please queue it there too, or drop it here until it is.",
			  list->str, n == 1 ? "a newer stable branch" : "newer stable branches", here);
	g_string_free(list, TRUE);
	g_free(here);
}

static void para_fix_missing(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp)
{
	size_t i, n = 0;
	bool subject_only = false, failed = false;
	char *elsewhere = NULL;

	for (i = 0; i < rp->findings.n; i++)
		n += rp->findings.v[i].kind == FS_FIND_FIX_MISSING && is_shown(&rp->findings.v[i]);
	if (!n)
		return;
	add_para(s, n == 1 ?
		 "This commit has a known follow-up fix upstream that is not in this series:" :
		 "This commit has known follow-up fixes upstream that are not in this series:");
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind != FS_FIND_FIX_MISSING || !is_shown(f))
			continue;
		add_commit_item(s, f);
		if (f->cause == FS_CAUSE_STABLE_FIX && f->note) {
			/* a stable-only fix: the note says where it is */
			char *note = fs_draft_clean_line(f->note);
			g_string_append_printf(s, "    (%s)\n", note);
			g_free(note);
		}
		add_chain_note(s, rp, f, r);
		add_cross_note(s, f, &elsewhere, &failed);
		if (f->evidence == FS_FEV_SUBJECT)
			subject_only = true;
	}
	g_string_append_c(s, '\n');
	if (subject_only)
		add_para(s, "(One of these names its target only by subject in its Fixes: tag, so it is worth a second look.)");
	if (failed)
		add_para(s, n == 1 ?
			 "It did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one." :
			 "At least one of them did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one.");
	if (elsewhere && !failed)
		add_paraf(s, "%s, as %s does.", n == 1 ? "Please queue it as well" : "Please queue them as well",
			  elsewhere);
	else if (!failed)
		add_para(s, n == 1 ? "Please queue it as well." : "Please queue them as well.");
	g_free(elsewhere);
}

static void para_fix_queued(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	if (f->series_index < 0)
		add_paraf(s, "Its follow-up fix %s is queued for this branch already, so that one is covered.",
			  ref);
	else
		add_paraf(s, "Its follow-up fix %s is queued as %0*d/%0*d, so that one is covered.",
			  ref, series_width(r), f->series_index, series_width(r), series_total(r));
	g_free(ref);
}

static void para_fix_present(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *branch = fs_draft_clean_line(r->branch);

	if (f->stable_commit)
		add_paraf(s, "Its known follow-up fix %s is already in %s as %.12s%s%s, so nothing more is needed for this one.",
			  ref, branch, f->stable_commit, f->stable_release ? " in " : "",
			  f->stable_release ? f->stable_release : "");
	else
		add_paraf(s, "Its known follow-up fix %s is already in %s, so nothing more is needed for this one.",
			  ref, branch);
	g_free(branch);
	g_free(ref);
}

static void para_reverted(GString *s, const struct fs_finding *f)
{
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT) {
		char *rel = fs_draft_clean_line(f->reapplied_release);

		add_para(s, "This commit was reverted upstream by");
		add_commit_item(s, f);
		g_string_append_c(s, '\n');
		add_paraf(s, "and then applied again by %.12s%s%s, a revert of that revert, so mainline has it. Nothing more is needed for that.",
			  f->reapplied_commit ? f->reapplied_commit : "", *rel ? " in " : "", rel);
		g_free(rel);
		return;
	}
	add_para(s, "This commit was reverted upstream:");
	add_commit_item(s, f);
	g_string_append_c(s, '\n');
	add_para(s, "Please drop it from this series, unless there is a reason the revert does not apply here.");
}

static void para_applied(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);

	if (f->stable_commit) {
		char *ref = commit_ref(f->stable_commit, f->subject);
		char *rel = fs_draft_clean_line(f->stable_release);

		add_paraf(s, "This commit is already in %s: it was backported before as", branch);
		g_string_append_printf(s, "  %s%s%s\n\n", ref, *rel ? " in " : "", rel);
		add_para(s, "so this looks like a duplicate. Please drop it.");
		g_free(rel);
		g_free(ref);
	} else {
		char *rel = fs_draft_clean_line(f->release);

		add_paraf(s, "This commit is already in %s: it went into mainline in %s, before the branch was forked, so this backport is a duplicate. Please drop it.",
			  branch, *rel ? rel : "a release the branch contains");
		g_free(rel);
	}
	g_free(branch);
}

static void para_target_absent(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *base = fs_draft_clean_line(r->base);

	bool revert = f->cause == FS_CAUSE_REVERT_TARGET;

	add_para(s, revert ? "The commit this one reverts," : "The commit this one fixes,");
	add_commit_item(s, f);
	g_string_append_c(s, '\n');
	add_paraf(s, "is neither in %s%s%s nor in this series, so this %s may not be needed here. Is it?",
		  branch, *base ? " as of " : "", base, revert ? "revert" : "fix");
	g_free(base);
	g_free(branch);
}

static void para_unknown(GString *s, const struct fs_finding *f)
{
	char *id = fs_draft_clean_line(f->commit);

	if (f->unresolved == FS_CAUSE_AMBIGUOUS)
		add_paraf(s, "The upstream id in the changelog, %s, is ambiguous: it matches more than one commit. Could you give the full id?",
			  id);
	else
		add_paraf(s, "I cannot find the upstream commit the changelog names, %s, in mainline. Could you check the id?",
			  id);
	g_free(id);
}

static void para_report(GString *s, const struct fs_finding *f)
{
	char *from = fs_draft_clean_line(f->from), *date = fs_draft_clean_line(f->date);
	char *subj = fs_draft_clean_line(f->note), *id = fs_draft_clean_id(f->message_id);
	size_t n = strlen(subj);

	/* The findings module quotes the subject in the note. */
	if (n >= 2 && subj[0] == '"' && subj[n - 1] == '"') {
		memmove(subj, subj + 1, n - 2);
		subj[n - 2] = '\0';
	}
	add_para(s, "There is a regression report for the upstream commit:");
	if (*from)
		g_string_append_printf(s, "  From: %s\n", from);
	if (*date)
		g_string_append_printf(s, "  Date: %s\n", date);
	if (*subj)
		g_string_append_printf(s, "  Subject: %s\n", subj);
	if (id)
		g_string_append_printf(s, "  https://lore.kernel.org/r/%s\n", id);
	g_string_append_c(s, '\n');
	add_para(s, "Has it been resolved upstream? If not, this one may be better left out for now.");
	g_free(from);
	g_free(date);
	g_free(subj);
	g_free(id);
}

static void para_dep(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *ref = commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_DEP_OF) {
		add_para(s, "This patch is here as a prerequisite (Stable-dep-of) of");
		g_string_append_printf(s, "  %s\n\n", ref);
		add_paraf(s, "but that commit is neither in %s nor in this series, so on its own this one may not be needed.",
			  branch);
	} else if (f->unresolved) {
		add_paraf(s, "The changelog names %s as a prerequisite, but I cannot find that commit. Could you check the id?",
			  ref);
	} else {
		add_para(s, "The changelog names a prerequisite that is neither in this series nor in the branch:");
		g_string_append_printf(s, "  %s\n\n", ref);
		add_para(s, "Please queue it too, or drop this one.");
	}
	g_free(ref);
	g_free(branch);
}

static void para_mismatch(GString *s, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_ID) {
		char *note = fs_draft_clean_line(f->note);

		add_paraf(s, "The Fixes: tag in the changelog names a stable commit, not a mainline one%s%s%s. The mainline commit it means is",
			  *note ? " (" : "", note, *note ? ")" : "");
		g_free(note);
	} else {
		add_para(s, "The Fixes: tag in the changelog does not match itself: the subject it quotes is that of");
	}
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause != FS_CAUSE_STABLE_ID)
		add_para(s, "but the id is another commit's. Going by the subject, the commit above is the one it fixes.");
	g_free(ref);
}

static void para_reverts_stable(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *ref = commit_ref(f->commit, f->subject);

	if (f->stable_commit && strcmp(f->stable_commit, f->commit))
		add_paraf(s, "This reverts %.12s, the %s backport of", f->stable_commit, branch);
	else
		add_paraf(s, "This reverts a commit of %s:", branch);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause == FS_CAUSE_DUPLICATE)
		add_paraf(s, "%s already has that commit from mainline, so the backport was a duplicate and the revert makes sense.",
			  branch);
	else
		add_para(s, "Should the revert go upstream as well, or is only the backport broken?");
	g_free(ref);
	g_free(branch);
}

/* Another branch dropped its backport of this commit: a warning sign to
 * ask about, never a commit to queue. */
static void para_reverted_in_stable(GString *s, const struct fs_review *r,
				    const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *other = fs_draft_clean_line(f->branch);
	char *rel = fs_draft_clean_line(f->release);
	char *branch = fs_draft_clean_line(r->branch);

	add_paraf(s, "Note that %s reverted its backport of this commit%s%s:", other,
		  *rel ? " in " : "", rel);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->reason) {
		char *why = fs_draft_clean_line(f->reason);

		add_para(s, "The reason it gives:");
		g_string_append_printf(s, "> %s\n\n", why);
		g_free(why);
	}
	add_paraf(s, "Does that reason apply to %s as well?", branch);
	g_free(branch);
	g_free(rel);
	g_free(other);
	g_free(ref);
}

static void para_duplicate_in_series(GString *s, const struct fs_review *r,
				     const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	add_paraf(s, "This is the same upstream commit as %0*d/%0*d of this series:",
		  series_width(r), f->series_index, series_width(r), series_total(r));
	g_string_append_printf(s, "  %s\n\n", ref);
	add_para(s, "so one of the two looks like a duplicate. Please drop this one.");
	g_free(ref);
}

static void para_objection(GString *s, const struct fs_finding *f)
{
	char *who = display_name(f->from), *line = fs_draft_clean_line(f->note);
	char *id = fs_draft_clean_id(f->message_id);

	add_paraf(s, "%s objected to this patch in the thread:", who);
	g_string_append_printf(s, "> %s\n", line);
	if (id)
		g_string_append_printf(s, "(https://lore.kernel.org/r/%s)\n", id);
	g_string_append_c(s, '\n');
	g_free(id);
	g_free(line);
	g_free(who);
}

/* The order of the paragraphs: what to act on first. */
static const enum fs_finding_kind patch_order[] = {
	FS_FIND_FIX_MISSING, FS_FIND_MISSING_IN_NEWER, FS_FIND_DEP_MISSING,
	FS_FIND_REVERTED_UPSTREAM, FS_FIND_ALREADY_APPLIED, FS_FIND_DUPLICATE_IN_SERIES, FS_FIND_REGRESSION_REPORT,
	FS_FIND_REVERTED_IN_STABLE, FS_FIND_OBJECTION,
	FS_FIND_FIXES_TAG_MISMATCH, FS_FIND_TARGET_ABSENT, FS_FIND_REVERTS_STABLE,
	FS_FIND_UNKNOWN_UPSTREAM, FS_FIND_NO_UPSTREAM, FS_FIND_FIX_QUEUED,
	FS_FIND_FIX_PRESENT,
};

char *fs_draft_patch_body(const struct fs_review *r, const struct fs_review_patch *rp)
{
	const struct fs_patch *p = rp->patch;
	size_t i, k, shown = 0, present = 0;
	GString *s;
	char *title, *up;

	for (i = 0; i < rp->findings.n; i++) {
		if (!is_shown(&rp->findings.v[i]))
			continue;
		shown++;
		present += rp->findings.v[i].kind == FS_FIND_FIX_PRESENT;
	}
	if (!shown)
		return NULL;

	s = g_string_new(NULL);
	add_attribution(s, p);
	title = fs_draft_clean_line(fs_patch_title(p));
	g_string_append_printf(s, "> %s\n", title);
	up = upstream_line(p);
	if (up)
		g_string_append_printf(s, ">\n> %s\n", up);
	g_string_append_c(s, '\n');
	g_free(up);
	g_free(title);

	for (k = 0; k < G_N_ELEMENTS(patch_order); k++) {
		enum fs_finding_kind kind = patch_order[k];

		if (kind == FS_FIND_FIX_MISSING) {
			para_fix_missing(s, r, rp);
			continue;
		}
		if (kind == FS_FIND_MISSING_IN_NEWER) {
			para_missing_in_newer(s, r, rp);
			continue;
		}
		/* A fix that is there already is worth a line only when
		 * there is nothing else to say. */
		if (kind == FS_FIND_FIX_PRESENT && present != shown)
			continue;
		for (i = 0; i < rp->findings.n; i++) {
			const struct fs_finding *f = &rp->findings.v[i];

			if (f->kind != kind || !is_shown(f))
				continue;
			switch (kind) {
			case FS_FIND_FIX_QUEUED: para_fix_queued(s, r, f); break;
			case FS_FIND_FIX_PRESENT: para_fix_present(s, r, f); break;
			case FS_FIND_REVERTED_UPSTREAM: para_reverted(s, f); break;
			case FS_FIND_ALREADY_APPLIED: para_applied(s, r, f); break;
			case FS_FIND_TARGET_ABSENT: para_target_absent(s, r, f); break;
			case FS_FIND_NO_UPSTREAM:
				add_para(s, "The changelog does not say which upstream commit this is. If it is a stable-only change, please say why in the changelog; otherwise please add the upstream commit id.");
				break;
			case FS_FIND_UNKNOWN_UPSTREAM: para_unknown(s, f); break;
			case FS_FIND_REGRESSION_REPORT: para_report(s, f); break;
			case FS_FIND_DEP_MISSING: para_dep(s, r, f); break;
			case FS_FIND_FIXES_TAG_MISMATCH: para_mismatch(s, f); break;
			case FS_FIND_REVERTS_STABLE: para_reverts_stable(s, r, f); break;
			case FS_FIND_OBJECTION: para_objection(s, f); break;
			case FS_FIND_REVERTED_IN_STABLE: para_reverted_in_stable(s, r, f); break;
			case FS_FIND_DUPLICATE_IN_SERIES: para_duplicate_in_series(s, r, f); break;
			default: break;
			}
		}
	}
	/* One blank line at the end, not two. */
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

/* ---- the summary ---------------------------------------------------------- */

enum group { G_FIXES, G_NEWER, G_DUPLICATES, G_REVERTED, G_STABLE_REVERTED, G_REPORTS, G_OTHER, G_NONE };

static const char *const group_title[] = {
	"Fixes to add:",
	"Not in a newer stable branch yet (lost on upgrade):",
	"Likely duplicates:",
	"Reverted upstream:",
	"Reverted in another stable branch (worth asking why):",
	"Reports:",
	"Other notes:",
};

static enum group group_of(const struct fs_finding *f)
{
	/* Reverted and applied again: nothing for the maintainer to do. */
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT)
		return G_NONE;
	switch (f->kind) {
	case FS_FIND_FIX_MISSING:
	case FS_FIND_DEP_MISSING:
		return G_FIXES;
	case FS_FIND_MISSING_IN_NEWER:
		return G_NEWER;
	case FS_FIND_ALREADY_APPLIED:
	case FS_FIND_DUPLICATE_IN_SERIES:
		return G_DUPLICATES;
	case FS_FIND_REVERTED_UPSTREAM:
		return G_REVERTED;
	case FS_FIND_REVERTED_IN_STABLE:
		return G_STABLE_REVERTED;
	case FS_FIND_REGRESSION_REPORT:
	case FS_FIND_OBJECTION:
		return G_REPORTS;
	case FS_FIND_TARGET_ABSENT:
	case FS_FIND_NO_UPSTREAM:
	case FS_FIND_UNKNOWN_UPSTREAM:
	case FS_FIND_FIXES_TAG_MISMATCH:
	case FS_FIND_REVERTS_STABLE:
		return G_OTHER;
	default:
		/* fix-queued, fix-present: nothing for the maintainer to do */
		return G_NONE;
	}
}

/* One summary line (after the patch's own line) for F. */
static void add_summary_item(GString *s, const struct fs_review *r,
			     const struct fs_finding *f)
{
	char *ref = f->commit[0] ? commit_ref(f->commit, f->subject) : g_strdup("");
	char *rel = fs_draft_clean_line(f->release);
	char *branch = fs_draft_clean_line(r->branch);

	switch (f->kind) {
	case FS_FIND_FIX_MISSING:
		g_string_append_printf(s, "    %s%s%s\n", ref, *rel ? " in " : "", rel);
		break;
	case FS_FIND_DEP_MISSING:
		if (f->cause == FS_CAUSE_STABLE_DEP_OF)
			g_string_append_printf(s, "    is only a prerequisite of %s, which is not queued\n", ref);
		else
			g_string_append_printf(s, "    needs its prerequisite %s\n", ref);
		break;
	case FS_FIND_ALREADY_APPLIED:
		if (f->stable_commit)
			g_string_append_printf(s, "    already backported as %.12s%s%s\n", f->stable_commit,
					       f->stable_release ? " in " : "",
					       f->stable_release ? f->stable_release : "");
		else
			g_string_append_printf(s, "    %.12s is in %s since %s\n", f->commit, branch,
					       *rel ? rel : "before it forked");
		break;
	case FS_FIND_REVERTED_UPSTREAM:
		g_string_append_printf(s, "    reverted by %s%s%s\n", ref, *rel ? " in " : "", rel);
		break;
	case FS_FIND_REGRESSION_REPORT: {
		char *who = display_name(f->from), *id = fs_draft_clean_id(f->message_id);

		g_string_append_printf(s, "    regression report from %s%s%s\n", who,
				       id ? ": https://lore.kernel.org/r/" : "", id ? id : "");
		g_free(id);
		g_free(who);
		break;
	}
	case FS_FIND_OBJECTION: {
		char *who = display_name(f->from), *line = fs_draft_clean_line(f->note);

		g_string_append_printf(s, "    %s objected: \"%s\"\n", who, line);
		g_free(line);
		g_free(who);
		break;
	}
	case FS_FIND_TARGET_ABSENT:
		g_string_append_printf(s, "    %s %s, which %s does not have\n",
				       f->cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes", ref, branch);
		break;
	case FS_FIND_MISSING_IN_NEWER: {
		char *b = short_branch_name(f->newer_branch);

		g_string_append_printf(s, "    not in %s.y yet\n", b);
		g_free(b);
		break;
	}
	case FS_FIND_DUPLICATE_IN_SERIES:
		g_string_append_printf(s, "    %s again, as %0*d/%0*d\n", ref, series_width(r),
				       f->series_index, series_width(r), series_total(r));
		break;
	case FS_FIND_REVERTED_IN_STABLE: {
		char *other = fs_draft_clean_line(f->branch);

		g_string_append_printf(s, "    %s reverted its backport: %.12s%s%s\n", other,
				       f->commit, *rel ? " in " : "", rel);
		g_free(other);
		break;
	}
	case FS_FIND_NO_UPSTREAM:
		g_string_append(s, "    the changelog names no upstream commit\n");
		break;
	case FS_FIND_UNKNOWN_UPSTREAM:
		g_string_append_printf(s, "    upstream id %.40s %s\n", f->commit,
				       f->unresolved == FS_CAUSE_AMBIGUOUS ? "is ambiguous" :
				       "not found in mainline");
		break;
	case FS_FIND_FIXES_TAG_MISMATCH:
		if (f->cause == FS_CAUSE_STABLE_ID)
			g_string_append_printf(s, "    its Fixes: tag names a stable commit instead of %s\n", ref);
		else
			g_string_append_printf(s, "    its Fixes: tag quotes the subject of %s but gives another id\n", ref);
		break;
	case FS_FIND_REVERTS_STABLE:
		if (f->stable_commit && strcmp(f->stable_commit, f->commit))
			g_string_append_printf(s, "    reverts %.12s, the backport of %s\n", f->stable_commit, ref);
		else
			g_string_append_printf(s, "    reverts %s\n", ref);
		break;
	default:
		break;
	}
	g_free(branch);
	g_free(rel);
	g_free(ref);
}

char *fs_draft_summary_body(const struct fs_review *r, bool patch_replies)
{
	const struct fs_patch *cover = r->series ? r->series->cover : NULL;
	int total = series_total(r), w = series_width(r);
	size_t g, i, k, listed = 0;
	GString *s;
	char *line, *branch, *base;

	if (!cover)
		return NULL;
	s = g_string_new(NULL);
	add_attribution(s, cover);
	line = first_body_line(cover);
	g_string_append_printf(s, "> %s\n\n", line ? line : "");
	g_free(line);
	branch = fs_draft_clean_line(r->branch);
	base = fs_draft_clean_line(r->base);
	add_paraf(s, "I went through this series against %s%s%s%s looking for known upstream follow-up fixes, reverts and duplicates. These patches need a look:",
		  branch, *base ? " (" : "", base, *base ? ")" : "");
	g_free(base);
	g_free(branch);

	for (g = 0; g < G_NONE; g++) {
		bool header = false;

		for (i = 0; i < r->npatches; i++) {
			const struct fs_review_patch *rp = &r->patches[i];
			bool patch_line = false;

			for (k = 0; k < rp->findings.n; k++) {
				const struct fs_finding *f = &rp->findings.v[k];

				if (!is_shown(f) || group_of(f) != (enum group)g)
					continue;
				if (!header) {
					g_string_append_printf(s, "%s\n\n", group_title[g]);
					header = true;
				}
				if (!patch_line) {
					char *title = fs_draft_clean_line(fs_patch_title(rp->patch));
					g_string_append_printf(s, "  %0*d/%0*d %s\n", w, rp->index, w, total,
							       title);
					g_free(title);
					patch_line = true;
					listed++;
				}
				add_summary_item(s, r, f);
			}
		}
		if (header)
			g_string_append_c(s, '\n');
	}
	if (!listed) {
		g_string_free(s, TRUE);
		return NULL;
	}
	if (patch_replies)
		add_para(s, "Details are in my replies to the patches.");
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

/* ---- composing ------------------------------------------------------------ */

static bool same_addr(const char *a, const char *b)
{
	return a && b && !g_ascii_strcasecmp(a, b);
}

/* Add the mailboxes of LIST (groups flattened) to DST, skipping any
 * address in SKIP (a hash set of lower-case addresses), which grows with
 * each one added so nobody is named twice. */
static void add_addresses(InternetAddressList *dst, InternetAddressList *list,
			  GHashTable *skip)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			add_addresses(dst, internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)),
				      skip);
		} else if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
			char *a = fs_draft_clean_id(addr), *name, *lower;
			InternetAddress *mb;

			if (!a || !strchr(a, '@')) {
				g_free(a);
				continue;
			}
			lower = g_ascii_strdown(a, -1);
			if (g_hash_table_contains(skip, lower)) {
				g_free(lower);
				g_free(a);
				continue;
			}
			g_hash_table_add(skip, lower);
			name = fs_draft_clean_line(internet_address_get_name(ia));
			mb = internet_address_mailbox_new(*name ? name : NULL, a);
			internet_address_set_charset(mb, "utf-8");
			internet_address_list_add(dst, mb);
			g_object_unref(mb);
			g_free(name);
			g_free(a);
		}
	}
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Parse a decoded address list as fs_patch_to/cc give it. */
static InternetAddressList *parse_list(const char *s)
{
	return s && *s ? internet_address_list_parse(NULL, s) : NULL;
}

char *fs_draft_id_prefix(const char *key)
{
	char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char *ret = g_strdup_printf("fixscan.%.12s.", hash);

	g_free(hash);
	return ret;
}

/* A new Message-Id on ME's domain: a part derived from KEY, so ids of
 * drafts answering the same mail look alike (and a later run finds them
 * by it), then the time and random bits so every draft's id is unique. */
static char *new_message_id(const char *email, const char *key, time_t now)
{
	const char *at = strrchr(email, '@');
	char *prefix = fs_draft_id_prefix(key);
	GString *dom = g_string_new(NULL);
	struct tm tm;
	char stamp[32];
	char *id;

	for (at = at ? at + 1 : ""; *at; at++)
		if (g_ascii_isalnum(*at) || *at == '.' || *at == '-')
			g_string_append_c(dom, *at);
	if (!dom->len)
		g_string_append(dom, "localhost");
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	id = g_strdup_printf("%s%s.%08x@%s", prefix, stamp, g_random_int(), dom->str);
	g_string_free(dom, TRUE);
	g_free(prefix);
	return id;
}

int fs_draft_compose(struct fs_draft *out, const struct fs_patch *orig,
		     const struct fs_identity *me, const char *key,
		     const char *label, const char *body, time_t now,
		     struct fs_error *err)
{
	GMimeMessage *msg = NULL;
	GMimeTextPart *part = NULL;
	GMimeStream *stream = NULL;
	GMimeDataWrapper *wrapper = NULL;
	GMimeContentType *ctype;
	GMimeContentEncoding enc;
	GDateTime *date = NULL;
	GHashTable *skip = NULL;
	InternetAddressList *to_list = NULL, *cc_list = NULL;
	InternetAddress *mb;
	GString *refs = NULL;
	char *orig_id = NULL, *subject = NULL, *ckey = NULL, *sname = NULL, *saddr = NULL;
	char *myname = NULL, *myaddr = NULL;
	char *hdr;
	const char *const *r;
	size_t nr, i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	pthread_once(&gmime_once, gmime_init_once);
	orig_id = fs_draft_clean_id(fs_patch_message_id(orig));
	if (!orig_id)
		return fs_error_set(err, FS_EPARSE, "cannot reply to '%s': it has no Message-Id",
				    fs_patch_subject(orig));
	ckey = fs_draft_clean_line(key);
	msg = g_mime_message_new(TRUE);
	skip = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	/* From: the reviewer.  Nobody gets their own reply. */
	/* The identity may not come from fs_identity_pick: clean it too. */
	myname = fs_draft_clean_line(me->name);
	myaddr = fs_draft_clean_id(me->email);
	if (!myaddr) {
		rc = fs_error_set(err, FS_EUSAGE, "no address to send the reply to '%s' from", orig_id);
		goto out;
	}
	mb = internet_address_mailbox_new(*myname ? myname : NULL, myaddr);
	internet_address_set_charset(mb, "utf-8");
	internet_address_list_add(g_mime_message_get_from(msg), mb);
	g_object_unref(mb);
	g_hash_table_add(skip, g_ascii_strdown(myaddr, -1));

	/* To: the sender; Cc: everyone else the mail went to. */
	split_mailbox(fs_patch_from(orig), &sname, &saddr);
	if (*saddr && !same_addr(saddr, myaddr)) {
		mb = internet_address_mailbox_new(*sname ? sname : NULL, saddr);
		internet_address_set_charset(mb, "utf-8");
		internet_address_list_add(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), mb);
		g_object_unref(mb);
	}
	if (*saddr)
		g_hash_table_add(skip, g_ascii_strdown(saddr, -1));
	to_list = parse_list(fs_patch_to(orig));
	cc_list = parse_list(fs_patch_cc(orig));
	add_addresses(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC), to_list, skip);
	add_addresses(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC), cc_list, skip);

	subject = fs_draft_reply_subject(fs_patch_subject(orig));
	g_mime_message_set_subject(msg, subject, "utf-8");
	out->message_id = new_message_id(myaddr, ckey, now);
	g_mime_message_set_message_id(msg, out->message_id);
	date = g_date_time_new_from_unix_local(now);
	g_mime_message_set_date(msg, date);

	hdr = g_strdup_printf("<%s>", orig_id);
	g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", hdr, NULL);
	g_free(hdr);
	refs = g_string_new(NULL);
	r = fs_patch_references(orig, &nr);
	for (i = 0; i < nr; i++) {
		char *id = fs_draft_clean_id(r[i]);

		if (id && strcmp(id, orig_id))
			g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", id);
		g_free(id);
	}
	g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", orig_id);
	g_mime_object_set_header(GMIME_OBJECT(msg), "References", refs->str, NULL);

	/* The key and digest stay out of the mail: it goes to a public list
	 * under the reviewer's name.  fixscan/drafts.h remembers them. */
	out->digest = fs_draft_digest(body, strlen(body));

	/* The body as UTF-8 whatever it holds: g_mime_text_part_set_text
	 * would pick ISO-8859-1 for text that fits it, and recode. */
	part = g_mime_text_part_new_with_subtype("plain");
	stream = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(GMIME_PART(part), wrapper);
	ctype = g_mime_object_get_content_type(GMIME_OBJECT(part));
	g_mime_content_type_set_parameter(ctype, "charset", "utf-8");
	/* For an 8-bit channel GMime only says when an encoding is needed
	 * (quoted-printable for lines over 998 bytes, base64 for NULs);
	 * otherwise it answers "default", and the header must still say
	 * 8bit when the text is not ASCII. */
	enc = g_mime_part_get_best_content_encoding(GMIME_PART(part),
						    GMIME_ENCODING_CONSTRAINT_8BIT);
	if (enc == GMIME_CONTENT_ENCODING_DEFAULT)
		enc = is_ascii(body) ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_8BIT;
	g_mime_part_set_content_encoding(GMIME_PART(part), enc);
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));

	out->text = g_mime_object_to_string(GMIME_OBJECT(msg), NULL);
	out->len = out->text ? strlen(out->text) : 0;
	out->key = g_strdup(ckey);
	out->label = fs_draft_clean_line(label);
	if (!out->text)
		rc = fs_error_set(err, FS_ENOMEM, "cannot compose the reply to '%s'", orig_id);
out:
	if (rc < 0)
		fs_draft_clear(out);

	if (refs)
		g_string_free(refs, TRUE);
	if (to_list)
		g_object_unref(to_list);
	if (cc_list)
		g_object_unref(cc_list);
	if (date)
		g_date_time_unref(date);
	if (wrapper)
		g_object_unref(wrapper);
	if (stream)
		g_object_unref(stream);
	if (part)
		g_object_unref(part);
	g_object_unref(msg);
	g_hash_table_destroy(skip);
	g_free(subject);
	g_free(sname);
	g_free(saddr);
	g_free(myname);
	g_free(myaddr);
	g_free(ckey);
	g_free(orig_id);
	return rc;
}

void fs_draft_clear(struct fs_draft *d)
{
	if (!d)
		return;
	g_free(d->key);
	g_free(d->label);
	g_free(d->message_id);
	g_free(d->digest);
	g_free(d->text);
	memset(d, 0, sizeof(*d));
}

void fs_drafts_clear(struct fs_drafts *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		fs_draft_clear(&d->v[i]);
	g_free(d->v);
	d->v = NULL;
	d->n = 0;
}

static int append_draft(struct fs_drafts *out, const struct fs_patch *orig,
			const struct fs_identity *me, const char *kind,
			const char *label, const char *body, time_t now,
			struct fs_error *err)
{
	struct fs_draft d;
	char *key = g_strdup_printf("%s <%s>", kind, fs_patch_message_id(orig) ?
				    fs_patch_message_id(orig) : "");
	int rc;

	rc = fs_draft_compose(&d, orig, me, key, label, body, now, err);
	g_free(key);
	if (rc < 0)
		return rc;
	out->v = g_renew(struct fs_draft, out->v, out->n + 1);
	out->v[out->n++] = d;
	return 1;
}

bool fs_draft_finding_asks(const struct fs_finding *f)
{
	if (!is_shown(f) || !fs_finding_is_problem(f))
		return false;
	switch (f->kind) {
	case FS_FIND_FIXES_TAG_MISMATCH: /* the upstream commit's own tag: stable cannot change it */
	case FS_FIND_REVERTS_STABLE:     /* the maintainer's own revert */
	case FS_FIND_NO_UPSTREAM:        /* a stable-only patch may have none */
		return false;
	case FS_FIND_UNKNOWN_UPSTREAM:
		/* An id a clone older than the thread lacks may be right. */
		return f->cause != FS_CAUSE_NOT_IN_CLONE;
	default:
		return true;
	}
}

/* Whether patch RP gets a reply of its own: some finding asks the
 * maintainer to act, or EVERY_FINDING. */
static bool patch_asks(const struct fs_review_patch *rp, bool every_finding)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++)
		if (every_finding ? is_shown(&rp->findings.v[i]) :
		    fs_draft_finding_asks(&rp->findings.v[i]))
			return true;
	return false;
}

int fs_drafts_build(struct fs_drafts *out, const struct fs_review *r,
		    const struct fs_identity *me, enum fs_draft_mode mode,
		    bool every_finding, time_t now, struct fs_error *err)
{
	int added = 0, rc, total = series_total(r), w = series_width(r);
	size_t i;

	if (mode != FS_DRAFTS_PATCHES && r->series && r->series->cover) {
		char *body = fs_draft_summary_body(r, mode == FS_DRAFTS_ALL);

		if (body) {
			char *label = g_strdup_printf("%0*d/%0*d %s", w, 0, w, total,
						      fs_patch_subject(r->series->cover));
			rc = append_draft(out, r->series->cover, me, "summary", label, body, now, err);
			g_free(label);
			g_free(body);
			if (rc < 0)
				return rc;
			added += rc;
		}
	}
	if (mode == FS_DRAFTS_SUMMARY)
		return added;
	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		char *body, *label;

		if (!patch_asks(rp, every_finding))
			continue;
		if (!(body = fs_draft_patch_body(r, rp)))
			continue;
		label = g_strdup_printf("%0*d/%0*d %s", w, rp->index, w, total,
					fs_patch_title(rp->patch));
		rc = append_draft(out, rp->patch, me, "patch", label, body, now, err);
		g_free(label);
		g_free(body);
		if (rc < 0)
			return rc;
		added += rc;
	}
	return added;
}
