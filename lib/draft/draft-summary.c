/* fixscan: the summary draft, the reply to the cover letter: the fixes
 * to queue, then the patches of each group of the table of kinds. */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"
#include "draft-private.h"

/* Append an item line of the summary: TEXT indented four columns,
 * wrapped with six; a commit reference is never broken (a line of its
 * own when it is longer than one). */
static void add_item(GString *s, const char *text)
{
	fsd_add_wrapped(s, "    ", "      ", text);
}

bool fs_draft_finding_asks(const struct fs_finding *f)
{
	return fsd_is_shown(f) && fs_finding_is_problem(f) && fs_kind_asks(f);
}

/* Whether F is listed in the summary: it asks the maintainer to act
 * (fs_draft_finding_asks()), and its group is one the summary has. */
static bool is_listed(const struct fs_finding *f)
{
	return fs_draft_finding_asks(f) && fs_kind_group_of(f) != FS_GROUP_NONE;
}

/* Whether a finding of FS before the I-th, listed in the summary, is of
 * the same kind and from the same reply: the reply is listed once (a
 * request for three commits, one of them asking for action, is listed by
 * that one). */
static bool listed_reply_earlier(const struct fs_findings *fs, size_t i)
{
	return fsd_same_reply_before(fs, i, is_listed);
}

/* Whether the reviewer has answered patch P already (O->answered). */
static bool was_answered(const struct fs_draft_opts *o, const struct fs_patch *p)
{
	return o && o->answered && o->answered(o->answered_data, p);
}

/* "03/27", with " (already answered)" when the reviewer answered it. */
static void add_patch_number(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_draft_opts *o)
{
	g_string_append(s, fs_report_nn(r, rp->index));
	if (was_answered(o, rp->patch))
		g_string_append(s, " (already answered)");
}

/* The patches HITS (of R) as "03/27", "20/27 and 21/27", "01/27, 02/27
 * and 03/27"; frees HITS.  New string (g_free()). */
static char *patch_list(const struct fs_review *r, GPtrArray *hits, const struct fs_draft_opts *o)
{
	GString *s = g_string_new(NULL);
	size_t i;

	for (i = 0; i < hits->len; i++) {
		if (i)
			g_string_append(s, i + 1 == hits->len ? " and " : ", ");
		add_patch_number(s, r, g_ptr_array_index(hits, i), o);
	}
	g_ptr_array_free(hits, TRUE);
	return g_string_free(s, FALSE);
}

/* The patch of HITS that queues the fix F of RP fixes in turn (F fixes
 * a fix of RP's commit, and HITS has that fix's patch), or NULL. */
static const struct fs_review_patch *chain_parent(const struct fs_review_patch *rp,
						  const struct fs_finding *f, GPtrArray *hits)
{
	const struct fs_finding *q;
	size_t i;

	if (f->nchain < 3 || !(q = fsd_queued_finding(rp, f->chain[f->nchain - 2])) || q->series_index < 0)
		return NULL;
	for (i = 0; i < hits->len; i++) {
		const struct fs_review_patch *h = g_ptr_array_index(hits, i);

		if (h != rp && h->index == q->series_index)
			return h;
	}
	return NULL;
}

/* The patches of R whose finding of FS_GROUP_FIXES names commit HEX, as
 * patch_list() gives them, for findings of KIND; a patch that needs HEX
 * only because it fixes the fix another patch queues is said after that
 * one: "21/27 (a fix of 20/27)". */
static char *patches_naming(const struct fs_review *r, const char *hex, enum fs_finding_kind kind,
			    const struct fs_draft_opts *o)
{
	GPtrArray *hits = g_ptr_array_new(), *via = g_ptr_array_new(), *direct = g_ptr_array_new();
	GString *s;
	size_t i, k;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];

		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];

			if (f->kind == kind && is_listed(f) && fs_kind_group_of(f) == FS_GROUP_FIXES &&
			    !strcmp(f->commit, hex)) {
				g_ptr_array_add(hits, (gpointer)rp);
				g_ptr_array_add(via, (gpointer)f);
				break;
			}
		}
	}
	for (i = 0; i < hits->len; i++)
		if (!chain_parent(g_ptr_array_index(hits, i), g_ptr_array_index(via, i), hits))
			g_ptr_array_add(direct, g_ptr_array_index(hits, i));
	s = g_string_new(NULL);
	for (i = 0; i < direct->len; i++) {
		const struct fs_review_patch *d = g_ptr_array_index(direct, i);
		GPtrArray *kids = g_ptr_array_new();
		char *list;

		if (i)
			g_string_append(s, i + 1 == direct->len ? " and " : ", ");
		add_patch_number(s, r, d, o);
		for (k = 0; k < hits->len; k++)
			if (chain_parent(g_ptr_array_index(hits, k), g_ptr_array_index(via, k), hits) == d)
				g_ptr_array_add(kids, g_ptr_array_index(hits, k));
		if (kids->len) {
			list = patch_list(r, kids, o);
			g_string_append_printf(s, " (a fix of %s)", list);
			g_free(list);
		} else {
			g_ptr_array_free(kids, TRUE);
		}
	}
	g_ptr_array_free(direct, TRUE);
	g_ptr_array_free(via, TRUE);
	g_ptr_array_free(hits, TRUE);
	return g_string_free(s, FALSE);
}

/* Whether F is a reply of someone in the thread (its item is "a reply
 * from X"), as opposed to what fixscan found. */
static bool is_reply_item(const struct fs_finding *f)
{
	return f->mail.message_id && (f->kind == FS_FIND_OBJECTION || f->kind == FS_FIND_NEEDS_ALSO ||
				 (f->kind == FS_FIND_REGRESSION_REPORT && !f->commit[0]));
}

/* Whether F, a finding of the series (r->series_findings), is a reply
 * to the cover asking for a commit the index knows, which neither the
 * branch has nor the series queues (is_listed(), as for a patch's
 * needs-also: fs_finding_is_problem()): the commit gets a line under the
 * commits to add, with who asked, as a patch's finding would.  An id
 * that named no commit stays the reply's own words (add_series_replies()),
 * as does a reply about a patch whose mail is absent: it is that
 * patch's reply, not the cover's. */
static bool cover_asks(const struct fs_finding *f)
{
	return f->kind == FS_FIND_NEEDS_ALSO && is_listed(f) && f->mail.message_id &&
	       !f->mail.absent_index && f->commit[0] && f->unresolved == FS_CAUSE_NONE;
}

/* Whether F, a finding of a patch, is a reply asking for a commit the
 * index knows, which neither the branch has nor the series queues: the
 * commit gets a line under the commits to add, naming the patch and who
 * asked, as a fix would ("a reply from X" said nothing of the commit). */
static bool patch_asks(const struct fs_finding *f)
{
	return f->kind == FS_FIND_NEEDS_ALSO && is_listed(f) && f->mail.message_id && f->commit[0] &&
	       f->unresolved == FS_CAUSE_NONE;
}

/* Whether a reply to a patch of R asks for commit HEX (patch_asks()). */
static bool patch_reply_asks_for(const struct fs_review *r, const char *hex)
{
	size_t i, k;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++)
			if (patch_asks(&r->patches[i].findings.v[k]) &&
			    !strcmp(r->patches[i].findings.v[k].commit, hex))
				return true;
	return false;
}

/* Whether some reply to the cover asks for commit HEX (cover_asks()). */
static bool cover_asks_for(const struct fs_review *r, const char *hex)
{
	size_t k;

	for (k = 0; k < r->series_findings.n; k++)
		if (cover_asks(&r->series_findings.v[k]) && !strcmp(r->series_findings.v[k].commit, hex))
			return true;
	return false;
}

/* Whether F of RP is a series-partial whose part HEX a reply to RP asks
 * for: the reply to RP asks for it with the reply (draft-para-beyond.c),
 * so the summary lists it among the commits to add, not among the parts
 * maybe left out on purpose. */
static bool part_asked_on(const struct fs_review_patch *rp, const struct fs_finding *f,
			  const char *hex)
{
	size_t m;

	if (f->kind != FS_FIND_SERIES_PARTIAL || !fsd_is_shown(f))
		return false;
	for (m = 0; m < f->posting.nparts && strcmp(f->posting.parts[m].commit, hex); m++)
		;
	return m < f->posting.nparts && fsd_needs_also_for(rp, hex, is_listed);
}

/* Whether a part of series-partial F of RP is asked for in a reply. */
static bool asked_part_of(const struct fs_review_patch *rp, const struct fs_finding *f)
{
	size_t m;

	for (m = 0; f->kind == FS_FIND_SERIES_PARTIAL && m < f->posting.nparts; m++)
		if (part_asked_on(rp, f, f->posting.parts[m].commit))
			return true;
	return false;
}

/* Whether some patch of R has part HEX of its posting asked for in a
 * reply (part_asked_on()). */
static bool part_asked(const struct fs_review *r, const char *hex)
{
	size_t i, k;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++)
			if (part_asked_on(&r->patches[i], &r->patches[i].findings.v[k], hex))
				return true;
	return false;
}

/* Whether a finding of a patch of R asks for commit HEX on a line of
 * its own (a fix, a prerequisite, a commit that brings what a patch
 * uses). */
static bool patch_requests(const struct fs_review *r, const char *hex)
{
	size_t i, k;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];

			if (is_listed(f) && fs_kind_group_of(f) == FS_GROUP_FIXES && !is_reply_item(f) &&
			    !strcmp(f->commit, hex))
				return true;
		}
	return false;
}

/* Whether commit HEX has a line of its own under the commits to add. */
static bool in_fix_requests(const struct fs_review *r, const char *hex)
{
	return part_asked(r, hex) || patch_requests(r, hex) || cover_asks_for(r, hex) ||
	       patch_reply_asks_for(r, hex);
}

/* The group F of RP is listed in.  A reply asking for a commit that has
 * a line under the commits to add is said on that line
 * (FS_GROUP_FIXES); another reply on a patch listed in another group is
 * an item of that patch there, so that no patch is asked about twice. */
static enum fs_kind_group placed_group(const struct fs_review *r, const struct fs_review_patch *rp,
				       const struct fs_finding *f)
{
	enum fs_kind_group g = fs_kind_group_of(f), home = FS_GROUP_NONE;
	size_t k;

	if (!is_reply_item(f))
		return g;
	if (f->kind == FS_FIND_NEEDS_ALSO && f->commit[0] && in_fix_requests(r, f->commit))
		return FS_GROUP_FIXES;
	for (k = 0; k < rp->findings.n; k++) {
		const struct fs_finding *h = &rp->findings.v[k];
		enum fs_kind_group hg = fs_kind_group_of(h);

		if (is_listed(h) && !is_reply_item(h) && hg != FS_GROUP_FIXES && hg < home)
			home = hg;
	}
	return home != FS_GROUP_NONE ? home : g;
}

/* "Dmitri Orlov asked for it too: <link>" for reply F, after "; " when
 * WHO has an asker already, unless SEEN has its mail already.  TOO: the
 * line gives a reason before, so this one asked for it too. */
static void add_asker(GString *who, const struct fs_finding *f, GHashTable *seen, bool too)
{
	char *name, *id;

	if (g_hash_table_contains(seen, f->mail.message_id))
		return;
	g_hash_table_add(seen, f->mail.message_id);
	name = fsd_display_name(f->mail.from);
	id = fs_finding_mail_link(f);
	g_string_append_printf(who, "%s%s asked for it%s%s%s", who->len ? "; " : "", name,
			       too || who->len ? " too" : "", id ? ": " : "", id ? id : "");
	g_free(id);
	g_free(name);
}

/* " (Dmitri Orlov asked for it too: <link>; ...)": who asked for commit
 * HEX, once per reply, the replies to the patches, then those to the
 * cover (cover_asks()); after a line that ends in a patch's mark
 * ("03/27 (already answered)"), "; Dmitri Orlov asked for it too:
 * <link>".  ALONE: the line gives no reason of its own, and the first
 * asker asked for it, not "too". */
static void add_askers(GString *line, const struct fs_review *r, const char *hex, bool alone)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GString *who = g_string_new(NULL);
	size_t i, k;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];

			if (f->kind == FS_FIND_NEEDS_ALSO && is_listed(f) && f->mail.message_id &&
			    !strcmp(f->commit, hex))
				add_asker(who, f, seen, !alone);
		}
	for (k = 0; k < r->series_findings.n; k++)
		if (cover_asks(&r->series_findings.v[k]) && !strcmp(r->series_findings.v[k].commit, hex))
			add_asker(who, &r->series_findings.v[k], seen, !alone);
	if (who->len && !alone && line->len && line->str[line->len - 1] == ')')
		g_string_append_printf(line, "; %s", who->str);
	else if (who->len)
		g_string_append_printf(line, " (%s)", who->str);
	g_string_free(who, TRUE);
	g_hash_table_destroy(seen);
}

/* Whether a commit to add is a prerequisite, not a fix, or one only a
 * reply to the cover asks for, which may be either: the heading says
 * "Commits to add:". */
static bool has_prerequisite(const struct fs_review *r)
{
	size_t i, k;

	for (k = 0; k < r->series_findings.n; k++)
		if (cover_asks(&r->series_findings.v[k]) &&
		    !patch_requests(r, r->series_findings.v[k].commit))
			return true;
	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++)
			if (patch_asks(&r->patches[i].findings.v[k]) &&
			    !patch_requests(r, r->patches[i].findings.v[k].commit))
				return true;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];

			if (is_listed(f) && fs_kind_group_of(f) == FS_GROUP_FIXES && f->kind != FS_FIND_FIX_MISSING)
				return true;
			if (f->kind == FS_FIND_SERIES_PARTIAL && asked_part_of(&r->patches[i], f))
				return true;
		}
	return false;
}

/* " brings hub_port_settle_ms(), without which 06/07 does not build (or
 * it needs a reworked backport)": what commit F's symbol-missing
 * findings ask of it, for the patches BUILDS (AND: after another
 * clause). */
static void add_build_need(GString *line, const struct fs_review *r, const struct fs_finding *f,
			   const char *builds, bool and)
{
	bool one = !strchr(builds, ',') && !strstr(builds, " and ");

	g_string_append_printf(line, "%s brings ", and ? " and" : "");
	fs_report_add_symbols(line, f);
	g_string_append_printf(line, ", without which %s %s not build (or %s a reworked backport)",
			       builds, one ? "does" : "do", one ? "it needs" : "they need");
}

static char *series_patches(const struct fs_review *r, const char *hex, const struct fs_draft_opts *o);

/* The line of part P of an upstream posting: 'abc ("...") in v4.6,
 * posted with 03/27', with who asked for it (ASKERS). */
static void add_part_line(GString *s, const struct fs_review *r, const struct fs_finding_part *p,
			  const struct fs_draft_opts *o, bool askers)
{
	char *ref = fsd_commit_ref(p->commit, p->subject), *rel = fs_text_clean_line(p->release);
	char *from = series_patches(r, p->commit, o);
	GString *line = g_string_new(ref);

	if (*rel)
		g_string_append_printf(line, " in %s,", rel);
	g_string_append_printf(line, " posted with %s", from);
	if (askers)
		add_askers(line, r, p->commit, false);
	fsd_add_wrapped(s, "  ", "    ", line->str);
	g_string_free(line, TRUE);
	g_free(from);
	g_free(rel);
	g_free(ref);
}

/* The parts of upstream postings that a reply asks for (part_asked()),
 * each a line under the commits to add: 'abc ("...") in v4.6, posted
 * with 03/27 (Nadia Perez asked for it too: <link>)'.  Adds to *N, the
 * lines so far (the heading comes with the first); DONE the commits
 * listed. */
static void add_asked_parts(GString *s, const struct fs_review *r, const struct fs_draft_opts *o,
			    GHashTable *done, size_t *n)
{
	size_t i, k, m;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];

			for (m = 0; f->kind == FS_FIND_SERIES_PARTIAL && m < f->posting.nparts; m++) {
				const struct fs_finding_part *p = &f->posting.parts[m];

				if (!part_asked_on(&r->patches[i], f, p->commit) ||
				    g_hash_table_contains(done, p->commit))
					continue;
				g_hash_table_add(done, (gpointer)p->commit);
				if (!(*n)++)
					g_string_append(s, "Commits to add:\n\n");
				add_part_line(s, r, p, o, true);
			}
		}
}

/* The line of commit F a reply asks for, under the commits to add:
 * 'abc ("...") in v4.6, for 03/27 (X asked for it: <link>)', "for ON"
 * when a patch's reply asks (ON NULL: the cover's). */
static void add_asked_line(GString *s, const struct fs_review *r, const struct fs_finding *f,
			   const char *on)
{
	char *ref = fsd_commit_ref(f->commit, f->subject), *rel = fs_text_clean_line(f->release);
	GString *line = g_string_new(ref);

	fsd_add_cve_phrase(line, f);
	if (*rel)
		g_string_append_printf(line, " in %s%s", rel, on ? "," : "");
	if (on)
		g_string_append_printf(line, " for %s", on);
	add_askers(line, r, f->commit, true);
	fsd_add_wrapped(s, "  ", "    ", line->str);
	g_string_free(line, TRUE);
	g_free(rel);
	g_free(ref);
}

/* The commits replies to the patches ask for (patch_asks()) that no
 * line has yet, each a line under the commits to add naming the patches
 * whose replies ask: 'abc ("...") in v4.7-rc1, for 03/27 (Dmitri Orlov
 * asked for it: <link>)'.  BEFORE: the lines so far (the heading comes
 * with the first); DONE the commits listed.  Returns the number of
 * lines. */
static size_t add_reply_requests(GString *s, const struct fs_review *r, const struct fs_draft_opts *o,
				 GHashTable *done, size_t before)
{
	size_t i, k, j, n = 0;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];
			GPtrArray *hits;
			char *on;

			if (!patch_asks(f) || g_hash_table_contains(done, f->commit))
				continue;
			g_hash_table_add(done, (gpointer)f->commit);
			if (!n++ && !before)
				g_string_append(s, "Commits to add:\n\n");
			hits = g_ptr_array_new();
			for (j = i; j < r->npatches; j++)
				if (fsd_needs_also_for(&r->patches[j], f->commit, patch_asks))
					g_ptr_array_add(hits, (gpointer)&r->patches[j]);
			on = patch_list(r, hits, o);
			add_asked_line(s, r, f, on);
			g_free(on);
		}
	return n;
}

/* The commits the replies to the cover ask for (cover_asks()) that no
 * line has yet, each a line under the commits to add: 'abc ("...") in
 * v4.6 (Pam Ode asked for it: <link>)'.  BEFORE: the lines so far (the
 * heading comes with the first); DONE the commits listed.  Returns the
 * number of lines. */
static size_t add_cover_requests(GString *s, const struct fs_review *r, GHashTable *done,
				 size_t before)
{
	size_t k, n = 0;

	for (k = 0; k < r->series_findings.n; k++) {
		const struct fs_finding *f = &r->series_findings.v[k];

		if (!cover_asks(f) || g_hash_table_contains(done, f->commit))
			continue;
		g_hash_table_add(done, (gpointer)f->commit);
		if (!n++ && !before)
			g_string_append(s, "Commits to add:\n\n");
		add_asked_line(s, r, f, NULL);
	}
	return n;
}

/* The requests of the summary, one line per commit to queue, naming
 * every patch that needs it: 'c5fef009a731 ("..."), in v4.7-rc1, fixes
 * 20/27 and 21/27'.  Returns the number of lines for the patches; *COVER
 * gets that of the commits only the replies to the cover ask for. */
static size_t add_fix_requests(GString *s, const struct fs_review *r, const struct fs_draft_opts *o,
			       size_t *cover)
{
	GHashTable *done = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, k, n = 0;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];

		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];
			char *ref, *fixes, *needs, *builds, *rel;
			GString *line;

			if (!is_listed(f) || fs_kind_group_of(f) != FS_GROUP_FIXES || is_reply_item(f) ||
			    g_hash_table_contains(done, f->commit))
				continue;
			g_hash_table_add(done, (gpointer)f->commit);
			if (!n++)
				g_string_append_printf(s, "%s\n\n", has_prerequisite(r) ? "Commits to add:" :
						       fsd_group_title(FS_GROUP_FIXES));
			ref = fsd_commit_ref(f->commit, f->subject);
			fixes = patches_naming(r, f->commit, FS_FIND_FIX_MISSING, o);
			needs = patches_naming(r, f->commit, FS_FIND_DEP_MISSING, o);
			builds = patches_naming(r, f->commit, FS_FIND_SYMBOL_MISSING, o);
			rel = fs_text_clean_line(f->release);
			line = g_string_new(ref);
			fsd_add_cve_phrase(line, f);
			if (*rel)
				g_string_append_printf(line, " in %s,", rel);
			else if (f->kind == FS_FIND_FIX_MISSING)
				g_string_append(line, " in no release yet,");
			if (*fixes)
				g_string_append_printf(line, " fixes %s", fixes);
			if (*needs)
				g_string_append_printf(line, "%s is a prerequisite of %s",
						       *fixes ? " and" : "", needs);
			if (*builds)
				add_build_need(line, r, f, builds, *fixes || *needs);
			/* what the patch's own reply says of it, said here too */
			if (f->cross.failed_to_apply)
				g_string_append(line, "; it did not apply when tagged for stable, so it needs a manual backport");
			add_askers(line, r, f->commit, false);
			fsd_add_wrapped(s, "  ", "    ", line->str);
			g_string_free(line, TRUE);
			g_free(rel);
			g_free(builds);
			g_free(needs);
			g_free(fixes);
			g_free(ref);
		}
	}
	add_asked_parts(s, r, o, done, &n);
	n += add_reply_requests(s, r, o, done, n);
	*cover = add_cover_requests(s, r, done, n);
	if (n || *cover)
		g_string_append_c(s, '\n');
	g_hash_table_destroy(done);
	return n;
}

/* The groups after the requests: per patch, its line and an item per
 * finding.  Returns the number of patch lines. */
static size_t add_patch_groups(GString *s, const struct fs_review *r, const struct fs_draft_opts *o)
{
	size_t g, i, k, listed = 0;

	for (g = FS_GROUP_FIXES + 1; g < FS_GROUP_NONE; g++) {
		bool header = false;

		for (i = 0; i < r->npatches; i++) {
			const struct fs_review_patch *rp = &r->patches[i];
			bool patch_line = false;

			for (k = 0; k < rp->findings.n; k++) {
				const struct fs_finding *f = &rp->findings.v[k];
				char *item;

				if (!is_listed(f) || placed_group(r, rp, f) != (enum fs_kind_group)g ||
				    listed_reply_earlier(&rp->findings, k))
					continue;
				if (!header) {
					g_string_append_printf(s, "%s\n\n", fsd_group_title(g));
					header = true;
				}
				if (!patch_line) {
					char *title = fs_text_clean_line(fs_patch_title(rp->patch));
					GString *line = g_string_new(NULL);
					char *hang = g_strnfill(2 + strlen(fs_report_nn(r, rp->index)) + 1, ' ');

					add_patch_number(line, r, rp, o);
					g_string_append_printf(line, " %s", title);
					fsd_add_wrapped(s, "  ", hang, line->str);
					g_string_free(line, TRUE);
					g_free(hang);
					g_free(title);
					patch_line = true;
					listed++;
				}
				item = fsd_summary_item(r, f);
				if (item)
					add_item(s, item);
				g_free(item);
			}
		}
		if (header)
			g_string_append_c(s, '\n');
	}
	return listed;
}

/* The patches of R whose series-partial finding names part HEX, as
 * patch_list() gives them. */
static char *series_patches(const struct fs_review *r, const char *hex, const struct fs_draft_opts *o)
{
	GPtrArray *hits = g_ptr_array_new();
	size_t i, k, m;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_findings *fs = &r->patches[i].findings;
		bool hit = false;

		for (k = 0; k < fs->n && !hit; k++)
			for (m = 0; fs->v[k].kind == FS_FIND_SERIES_PARTIAL && fsd_is_shown(&fs->v[k]) &&
				    m < fs->v[k].posting.nparts; m++)
				hit = hit || !strcmp(fs->v[k].posting.parts[m].commit, hex);
		if (hit)
			g_ptr_array_add(hits, (gpointer)&r->patches[i]);
	}
	return patch_list(r, hits, o);
}

/* series-partial (advisory): one line per part of an upstream posting
 * that mainline has and that neither the branch nor the series does,
 * naming the patches of the series that came from that posting.
 * Returns the number of lines. */
static size_t add_series_parts(GString *s, const struct fs_review *r, const struct fs_draft_opts *o)
{
	GHashTable *done = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, k, m, n = 0;

	for (i = 0; i < r->npatches; i++) {
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];

			for (m = 0; f->kind == FS_FIND_SERIES_PARTIAL && fsd_is_shown(f) && m < f->posting.nparts; m++) {
				const struct fs_finding_part *p = &f->posting.parts[m];

				if (g_hash_table_contains(done, p->commit) || part_asked(r, p->commit))
					continue;
				g_hash_table_add(done, (gpointer)p->commit);
				if (!n++)
					fsd_add_para(s, "In mainline from the same upstream postings as patches here, but not queued (maybe on purpose):");
				add_part_line(s, r, p, o, false);
			}
		}
	}
	if (n)
		g_string_append_c(s, '\n');
	g_hash_table_destroy(done);
	return n;
}

/* Whether series finding F is quoted among the replies: it is listed,
 * and not said on a commit's line instead (cover_asks()). */
static bool quoted_reply(const struct fs_finding *f)
{
	return is_listed(f) && !cover_asks(f);
}

/* The replies to the cover that ask for action and name no patch whose
 * mail is here (R's series findings): each attributed, in its author's
 * own words, without a word of what kind of reply it is; one that is on
 * a patch whose mail is absent says which.  A reply whose every request
 * is a commit's line under the commits to add is not quoted again.
 * Returns how many. */
static size_t add_series_replies(GString *s, const struct fs_review *r)
{
	size_t k, n = 0;

	for (k = 0; k < r->series_findings.n; k++) {
		const struct fs_finding *f = &r->series_findings.v[k];
		char *who, *id, *line, *on;

		if (!fs_draft_finding_asks(f) || !f->mail.message_id || cover_asks(f) ||
		    fsd_same_reply_before(&r->series_findings, k, quoted_reply))
			continue;
		if (!n++)
			fsd_add_para(s, "In the replies to this series:");
		who = fsd_display_name(f->mail.from);
		id = fs_finding_mail_link(f);
		line = fs_text_clean_line(f->note);
		on = f->mail.absent_index > 0 ? g_strdup_printf("about %s", fs_report_nn(r, f->mail.absent_index)) :
					   g_strdup("in reply to the cover");
		if (id)
			fsd_add_paraf(s, "%s wrote %s (%s):", who, on, id);
		else
			fsd_add_paraf(s, "%s wrote %s:", who, on);
		fsd_add_quote(s, line);
		g_string_append_c(s, '\n');
		g_free(on);
		g_free(line);
		g_free(id);
		g_free(who);
	}
	return n;
}

/* The opening of the summary: the attribution and the cover's first
 * line, quoted.  New string ending in "\n". */
char *fsd_summary_quote(const struct fs_patch *cover)
{
	GString *s = g_string_new(NULL);
	char *line = fsd_first_body_line(cover);

	fsd_add_attribution(s, cover);
	g_string_append_printf(s, "> %s\n", line ? line : "");
	g_free(line);
	return g_string_free(s, FALSE);
}

/* What the summary says, or NULL when there is nothing to list: the
 * patches that need a look, then the replies to the series. */
char *fsd_summary_findings(const struct fs_review *r, bool patch_replies,
			   const struct fs_draft_opts *o)
{
	size_t listed, said, asked;
	GString *s = g_string_new(NULL), *p = g_string_new(NULL), *q = g_string_new(NULL);
	char *branch = fs_text_clean_line(r->branch), *base = fs_text_clean_line(r->base);

	listed = add_fix_requests(p, r, o, &asked);
	listed += add_patch_groups(p, r, o);
	listed += add_series_parts(p, r, o);
	/* what only the replies to the cover ask for is theirs, not a
	 * patch that needs a look */
	said = asked + add_series_replies(q, r);
	if (listed)
		fsd_add_paraf(s, "I went through this series against %s%s%s%s looking for known upstream follow-up fixes, reverts and duplicates. These patches need a look:",
			  branch, *base ? " (" : "", base, *base ? ")" : "");
	g_free(base);
	g_free(branch);
	g_string_append(s, p->str);
	g_string_append(s, q->str);
	g_string_free(p, TRUE);
	g_string_free(q, TRUE);
	if (!listed && !said) {
		g_string_free(s, TRUE);
		return NULL;
	}
	if (patch_replies && listed)
		fsd_add_para(s, "Details are in my replies to the patches.");
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

char *fs_draft_summary_body(const struct fs_review *r, bool patch_replies)
{
	const struct fs_patch *cover = r->series ? r->series->cover : NULL;
	char *findings, *quote, *ret;

	if (!cover || !(findings = fsd_summary_findings(r, patch_replies, NULL)))
		return NULL;
	quote = fsd_summary_quote(cover);
	ret = g_strconcat(quote, "\n", findings, NULL);
	g_free(quote);
	g_free(findings);
	return ret;
}
