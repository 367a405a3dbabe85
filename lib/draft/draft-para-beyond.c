/* fixscan: the paragraphs of a reply about what lies beyond the patch
 * and the branch's history: a fix still on its way to mainline, the
 * rest of the upstream posting, the branch's tree (a backport that
 * cannot build, a fix of files the branch lacks).  Their rows are in
 * draft-para.c's table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "fixscan/text.h"
#include "draft-private.h"

/* Whether pending REF is linux-next: a ref of a remote named "next" or
 * "linux-next", or a local branch whose name starts with "next" or
 * "linux-next". */
static bool is_linux_next(const char *ref)
{
	return ref && (g_str_has_prefix(ref, "refs/remotes/next/") ||
		       g_str_has_prefix(ref, "refs/remotes/linux-next/") ||
		       g_str_has_prefix(ref, "refs/heads/next") ||
		       g_str_has_prefix(ref, "refs/heads/linux-next"));
}

/* Pending REF as the list knows it, for a draft: "linux-next";
 * "net's main" for refs/remotes/net/main; the branch name of a local
 * branch.  Never the clone's own ref name.  New string, cleaned. */
char *fsd_public_ref_name(const char *ref)
{
	const char *rest, *slash;
	char *remote, *branch, *t;

	if (is_linux_next(ref))
		return g_strdup("linux-next");
	if (!ref || !g_str_has_prefix(ref, "refs/remotes/") ||
	    !(slash = strchr(rest = ref + strlen("refs/remotes/"), '/')))
		return fs_report_short_ref(ref);
	remote = fs_text_clean_line(t = g_strndup(rest, (size_t)(slash - rest)));
	g_free(t);
	branch = fs_text_clean_line(slash + 1);
	t = g_strdup_printf("%s's %s", remote, branch);
	g_free(branch);
	g_free(remote);
	return t;
}

/* F's commit reference, marked as an id of the pending tree so that
 * nobody takes it for a mainline or stable id:
 * 'abc ("subject") (linux-next id)'.  New string. */
char *fsd_pending_commit_ref(const struct fs_finding *f)
{
	char *c = fsd_commit_ref(f->commit, f->subject), *name, *t;

	if (is_linux_next(f->ref))
		t = g_strdup_printf("%s (linux-next id)", c);
	else {
		name = fsd_public_ref_name(f->ref);
		t = g_strdup_printf("%s (id in %s)", c, name);
		g_free(name);
	}
	g_free(c);
	return t;
}

/* The opening line of a fix-pending paragraph. */
static char *pending_opening(const struct fs_finding *f)
{
	const char *what = f->cause == FS_CAUSE_REVERT ? "A revert of" : "A fix for";
	char *ref, *t;

	if (!f->commit[0])
		return g_strdup_printf("%s the upstream commit has been posted, but is not in "
				       "mainline yet:", what);
	ref = fsd_public_ref_name(f->ref);
	t = g_strdup_printf("%s the upstream commit %sis in %s, but not in mainline yet:", what,
			    f->mail.message_id ? "has been posted and " : "", ref);
	g_free(ref);
	return t;
}

void fsd_para_fix_pending(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *from = fs_text_clean_line(f->mail.from), *date = fs_text_clean_line(f->mail.date);
	char *subj = fs_text_clean_line(f->subject);
	char *open = pending_opening(f);

	fsd_add_para(s, open);
	if (f->commit[0]) {
		char *ref = fsd_pending_commit_ref(f);
		fsd_add_wrapped(s, "  ", "    ", ref);
		g_free(ref);
	} else {
		fsd_add_mail_lines(s, from, date, subj);
	}
	fsd_add_lore_line(s, f);
	fsd_add_para(s, "Could this one be held back for now, or the two queued together once the fix lands?");
	g_free(open);
	g_free(from);
	g_free(date);
	g_free(subj);
}

/* The closing of a series-partial paragraph: the parts a reply asked
 * for already are asked for with it (the quote is above), the others
 * are a question. */
static void add_partial_closing(GString *s, const struct fs_review_patch *rp,
				const struct fs_finding *f)
{
	const struct fs_finding *asker = NULL;
	size_t i, nasked = 0, nother;
	GString *ids = g_string_new(NULL);
	char *who;

	for (i = 0; i < f->posting.nparts; i++) {
		const struct fs_finding *g = fsd_needs_also_for(rp, f->posting.parts[i].commit, fsd_is_shown);

		if (!g)
			continue;
		asker = asker ? asker : g;
		g_string_append_printf(ids, "%s%.12s", nasked++ ? ", " : "", f->posting.parts[i].commit);
	}
	nother = f->posting.nparts - nasked;
	if (!nasked) {
		fsd_add_para(s, nother == 1 ? "If it was left out on purpose, fine; otherwise is it needed here as well?" :
				 "If they were left out on purpose, fine; otherwise are they needed here as well?");
		g_string_free(ids, TRUE);
		return;
	}
	who = fsd_display_name(asker->mail.from);
	if (!nother)
		fsd_add_paraf(s, "As %s asked, please queue %s too.", who,
			      nasked == 1 ? "that one" : "those");
	else
		fsd_add_paraf(s, "As %s asked, please queue %s too. If the other%s left out on purpose, fine; otherwise %s needed here as well?",
			      who, ids->str, nother == 1 ? " was" : "s were", nother == 1 ? "is it" : "are they");
	g_free(who);
	g_string_free(ids, TRUE);
}

void fsd_para_series_partial(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch), *ref = fsd_commit_ref(f->commit, f->subject);
	size_t i;

	bool one = f->posting.nparts == 1;

	fsd_add_paraf(s, "This patch's upstream commit %s was posted with %s in mainline too, but neither in %s nor in this series:",
		      ref, one ? "another patch that is" : "other patches that are", branch);
	for (i = 0; i < f->posting.nparts; i++) {
		char *pref = fsd_commit_ref(f->posting.parts[i].commit, f->posting.parts[i].subject);
		GString *line = g_string_new(pref);

		g_string_append(line, ", ");
		fs_report_add_part(line, f->posting.parts[i].part, f->posting.parts[i].total);
		g_string_append(line, " of the posting");
		fsd_add_wrapped(s, "  ", "    ", line->str);
		g_string_free(line, TRUE);
		g_free(pref);
	}
	g_string_append_c(s, '\n');
	add_partial_closing(s, rp, f);
	g_free(ref);
	g_free(branch);
}

/* A backport that cannot build: the names it uses, the commit that
 * brings them (when one was found), and the request: that commit first,
 * or a backport reworked without it. */
void fsd_para_symbol_missing(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch);
	GString *names = g_string_new(NULL);

	fs_report_add_symbols(names, f);
	if (!f->commit[0]) {
		fsd_add_paraf(s, "This backport uses %s, which %s has nowhere, so as it is it does not build there. Could it be reworked for %s?",
			      names->str, branch, branch);
	} else {
		char *ref = fsd_commit_ref(f->commit, f->subject);

		fsd_add_paraf(s, "This backport uses %s, which %s has nowhere; mainline got %s with",
			      names->str, branch, f->tree.nsymbols == 1 ? "it" : "them");
		g_string_append_printf(s, "  %s\n\n", ref);
		if (f->series_index >= 0)
			fsd_add_paraf(s, "which this series queues only after this patch, as %s, so this one does not build on its own. Could that commit be queued before this one, or this backport reworked so that it does without it?",
				      fs_report_nn(r, f->series_index));
		else
			fsd_add_paraf(s, "which is neither in %s nor in this series, so as it is this patch does not build. Could that commit be queued before this one, or this backport reworked so that it does without it?",
				      branch);
		g_free(ref);
	}
	g_string_free(names, TRUE);
	g_free(branch);
}

/* A fix of the upstream commit that changes only files the branch does
 * not have: said, so that nobody asks for it. */
void fsd_para_fix_not_applicable(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch), *ref = fsd_commit_ref(f->commit, f->subject);
	GString *files = g_string_new(NULL);

	fs_report_add_files(files, f);
	fsd_add_para(s, "Mainline fixed this patch's upstream commit with");
	g_string_append_printf(s, "  %s\n\n", ref);
	fsd_add_paraf(s, "but that fix changes only %s, which %s does not have, so it is not needed here.",
		      files->str, branch);
	g_string_free(files, TRUE);
	g_free(ref);
	g_free(branch);
}
