/* fixscan: reviewing one stable series. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "base/resident.h"
#include "fixscan/diffstat.h"
#include "fixscan/listmail.h"
#include "fixscan/mentions.h"
#include "fixscan/pending.h"
#include "fixscan/posting.h"
#include "fixscan/review.h"
#include "fixscan/rounds.h"
#include "fixscan/text.h"
#include "fixscan/trailers.h"
#include "fixscan/treecheck.h"
#include "fixscan/version.h"

#define MAX_UPSTREAM 16

void fs_review_free(struct fs_review *r)
{
	size_t i;

	if (!r)
		return;
	if (!r->view_) {
		for (i = 0; i < r->npatches; i++)
			fs_findings_clear(&r->patches[i].findings);
		g_free(r->patches);
		fs_findings_clear(&r->series_findings);
		fs_round_free(r->previous);
	}
	free(r->own_series_);
	g_free(r->branch);
	g_free(r->base);
	free(r);
}

/* The subject prefix of S when it names a range of kernel series
 * ("[PATCH AUTOSEL 6.18-6.1]"), else NULL. */
static const struct fs_series *range_of(const struct fs_thread_series *s)
{
	const struct fs_patch *src = s->cover ? s->cover : s->npatches ? s->patches[0] : NULL;
	const struct fs_series *ser = src ? fs_patch_series(src) : NULL;

	return ser && ser->version_range && ser->versions && ser->versions[0] && ser->versions[1] ?
	       ser : NULL;
}

/* Branch and base: flags, then what the mails say, then the branch the
 * user named for the series version (fixscan.<version>.branch), then the
 * one the subject implies. */
static int choose_branch(struct fs_review *r, const struct fs_thread_series *s,
			 const struct fs_index *idx, const struct fs_review_opts *o,
			 struct fs_error *err)
{
	size_t i;

	if (o->branch) {
		r->branch = g_strdup(o->branch);
		r->branch_source = o->branch_source ? o->branch_source : "--branch";
	} else if (s->branch && strcmp(s->branch_source, "subject") != 0) {
		r->branch = g_strdup(s->branch);
		r->branch_source = s->branch_source;
	} else if (s->version) {
		for (i = 0; i < o->nbranch_names; i++) {
			if (strcmp(o->branch_names[i].version, s->version))
				continue;
			r->branch = g_strdup(o->branch_names[i].branch);
			r->branch_source = "fixscan.<version>.branch config";
			break;
		}
	}
	if (!r->branch && s->branch) {
		r->branch = g_strdup(s->branch);
		r->branch_source = s->branch_source;
	}
	/* Replies without their patches are read on the branch their
	 * subjects name when the index has it, else on none. */
	if (!s->npatches && r->branch && !o->branch && !fs_index_has_branch(idx, r->branch)) {
		g_free(r->branch);
		r->branch = NULL;
	}
	if (!r->branch && !s->npatches)
		return 0;
	if (!r->branch && range_of(s))
		return fs_error_set(err, FS_ENOTFOUND,
				    "'%s' is for the kernel series %s to %s, and the index has none of their branches: use --branch",
				    fs_patch_subject(s->cover ? s->cover : s->patches[0]),
				    range_of(s)->versions[1], range_of(s)->versions[0]);
	if (!r->branch)
		return fs_error_set(err, FS_ENOTFOUND,
				    "cannot tell which stable branch '%s' is for: use --branch",
				    s->cover ? fs_patch_subject(s->cover) : "the series");
	if (!fs_index_has_branch(idx, r->branch))
		return fs_error_set(err, FS_ENOTFOUND,
				    "branch '%s' (from %s) is not in the kernel repository's index (see fixscan.stable)",
				    r->branch, r->branch_source);
	if (o->base && !fs_index_has_release(idx, o->base))
		return fs_error_set(err, FS_ENOTFOUND,
				    "--base '%s' is not a release tag in the kernel repository's index",
				    o->base);
	if (o->base) {
		r->base = g_strdup(o->base);
		r->base_source = "--base";
	} else if (s->base) {
		r->base = g_strdup(s->base);
		r->base_source = s->base_source;
	}
	return 0;
}

/* "6.18" as 6 * 1000 + 18; -1 when V is no series of two numbers. */
static int version_key(const char *v)
{
	struct fs_version ver;

	if (!fs_version_parse(v, &ver) || !fs_version_is_series(&ver) || ver.nparts != 2 ||
	    ver.part[0] > 99 || ver.part[1] > 999)
		return -1;
	return (int)(ver.part[0] * 1000 + ver.part[1]);
}

/* The branch of kernel series VERSION: O's fixscan.<version>.branch,
 * else the kernel's name for it (linux-VERSION.y).  New string, or NULL
 * when VERSION is no series. */
static char *branch_of(const char *version, const struct fs_review_opts *o)
{
	char branch[FS_VERSION_NAME_MAX];
	size_t i;

	for (i = 0; i < o->nbranch_names; i++)
		if (!strcmp(o->branch_names[i].version, version))
			return g_strdup(o->branch_names[i].branch);
	return fs_version_branch_name(version, branch, sizeof(branch)) ? g_strdup(branch) : NULL;
}

size_t fs_review_branches(char ***out, const struct fs_thread_series *s,
			  const struct fs_index *idx, const struct fs_review_opts *o)
{
	const struct fs_series *ser = range_of(s);
	GPtrArray *v;
	int lo, hi, k;

	*out = NULL;
	if (o->branch || !ser || (s->branch && strcmp(s->branch_source, "subject")))
		return 0;
	lo = version_key(ser->versions[0]);
	hi = version_key(ser->versions[1]);
	if (lo < 0 || hi < 0)
		return 0;
	if (lo > hi) {
		k = lo;
		lo = hi;
		hi = k;
	}
	v = g_ptr_array_new();
	/* minors up to 999 within a major; a range spans few majors */
	for (k = lo; k <= hi && hi - lo < 10 * 1000; k++) {
		char version[16], *b;
		if (k % 1000 > 99) {
			k = (k / 1000 + 1) * 1000 - 1;
			continue;
		}
		snprintf(version, sizeof(version), "%d.%d", k / 1000, k % 1000);
		b = branch_of(version, o);
		if (b && fs_index_has_branch(idx, b))
			g_ptr_array_add(v, b);
		else
			g_free(b);
	}
	if (!v->len) {
		g_ptr_array_free(v, TRUE);
		return 0;
	}
	g_ptr_array_add(v, NULL);
	*out = (char **)g_ptr_array_free(v, FALSE);
	return g_strv_length(*out);
}

struct upstream_list {
	fs_cid ids[MAX_UPSTREAM];
	size_t n;
	/* the patch's changelog does not read as text
	 * (fs_text_reads_as_text()): a damaged encoding */
	bool unreadable;
};

/* The upstream commit of a patch mail whose changelog could not be read:
 * the one mainline commit of its TITLE, if there is exactly one, so that
 * the other patches know what the series carries.  Its own findings stay
 * those of a mail not read.  0 or 1 ids into OUT. */
static size_t resolve_unreadable(const struct fs_index *idx, const char *title, fs_cid *out)
{
	fs_cid found[2];
	size_t n;

	if (!title)
		return 0;
	n = fs_index_find_subject(idx, title, found, 2);
	if (n == 0 || !fs_index_commit_is_mainline(idx, found[0]) ||
	    (n > 1 && fs_index_commit_is_mainline(idx, found[1])))
		return 0;
	out[0] = found[0];
	return 1;
}

/* The upstream commits of each patch of S, and the series entries the
 * findings module compares against, pointing into UPS. */
static void resolve_series(struct fs_review *r, const struct fs_index *idx,
			   struct upstream_list *ups, struct fs_series_entry *entries)
{
	size_t i;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_patch *p = r->series->patches[i];
		size_t len = 0;
		const char *body = fs_patch_body(p, &len);

		r->patches[i].patch = p;
		r->patches[i].index = fs_thread_patch_number(p);
		ups[i].n = fs_findings_resolve_patch(idx, fs_patch_trailers(p), fs_patch_title(p),
						     fs_patch_author(p), body, len, ups[i].ids,
						     MAX_UPSTREAM, NULL);
		if (ups[i].n > MAX_UPSTREAM)
			ups[i].n = MAX_UPSTREAM;
		ups[i].unreadable = !fs_text_reads_as_text(body, fs_trailers_changelog_len(body, len, NULL));
		if (!ups[i].n && ups[i].unreadable)
			ups[i].n = resolve_unreadable(idx, fs_patch_title(p), ups[i].ids);
		entries[i].index = r->patches[i].index;
		entries[i].upstream = ups[i].ids;
		entries[i].nupstream = ups[i].n;
	}
}

/* The upstream commits of every patch, in patch order, as one new array
 * (free()) of *N; NULL when out of memory. */
static fs_cid *flat_upstream(const struct fs_review *r, const struct upstream_list *ups,
			     size_t *n)
{
	fs_cid *flat = calloc(r->npatches * MAX_UPSTREAM + 1, sizeof(*flat));
	size_t i, k;

	*n = 0;
	for (i = 0; flat && i < r->npatches; i++)
		for (k = 0; k < ups[i].n; k++)
			flat[(*n)++] = ups[i].ids[k];
	return flat;
}

/* What the store says of the series' upstream commits, searched once
 * for the whole series: regression reports (each distinct commit once,
 * in patch order) and fixes posted but not in mainline yet. */
static int search_store(struct fs_mentions *said, struct fs_pending *pending,
			const struct fs_review *r, const struct fs_index *idx,
			struct fs_store *store, const struct upstream_list *ups,
			const char *const *own, struct fs_error *err)
{
	size_t n;
	fs_cid *flat = flat_upstream(r, ups, &n);
	int rc;

	if (!flat)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	rc = fs_mentions_reports(said, store, idx, r->series, flat, n, own, err);
	if (rc == 0)
		rc = fs_pending_from_store(pending, store, idx, r->series, flat, n, own, err);
	free(flat);
	return rc;
}

/* The kernel series of the branch R reviews ("4.4" of "linux-4.4.y"),
 * for the backports posted for it: the series' own, else the branch's.
 * New string (g_free()), or NULL. */
static char *branch_version(const struct fs_review *r)
{
	char series[FS_VERSION_NAME_MAX];

	if (r->series->version)
		return g_strdup(r->series->version);
	return r->branch && fs_version_branch_series(r->branch, series, sizeof(series))
		       ? g_strdup(series)
		       : NULL;
}

/* The records of FOUND's backports for R's patches: one per patch whose
 * upstream commits UPS include the backport's, placed at it as a reply
 * carrying a replacement (replacement-posted), into SAID. */
static int add_backports(struct fs_mentions *said, const struct fs_listmail_found *found,
			 const struct fs_review *r, const struct upstream_list *ups,
			 struct fs_error *err)
{
	GArray *v = g_array_new(FALSE, TRUE, sizeof(struct fs_objection));
	size_t b, i, k;
	int rc;

	for (b = 0; b < found->nbackports; b++) {
		const struct fs_listmail_backport *bp = &found->backports[b];
		for (i = 0; i < r->npatches; i++)
			for (k = 0; k < ups[i].n; k++) {
				struct fs_objection o;
				if (ups[i].ids[k] != bp->upstream)
					continue;
				memset(&o, 0, sizeof(o));
				o.series_index = r->patches[i].index;
				o.message_id = fs_patch_message_id(bp->mail);
				o.from = fs_patch_from(bp->mail);
				o.date = fs_patch_date(bp->mail);
				o.line = fs_patch_subject(bp->mail);
				o.cls = FS_REPLY_REPLACEMENT;
				o.link = bp->link;
				g_array_append_val(v, o);
			}
	}
	rc = fs_mentions_add_posted(said, (const struct fs_objection *)(void *)v->data, v->len, err);
	g_array_free(v, TRUE);
	return rc;
}

/* What the mail archives (fixscan.lore) say of the series' upstream
 * commits, asked once for the whole series (a few requests): fixes
 * posted, into PENDING (merged with the store's), regression reports,
 * into SAID (likewise), backports posted for the branch since the
 * patch, into SAID's replies (replacement-posted).  FOUND keeps the
 * mails the records lend.  A search that fails is left out; the client
 * remembers why. */
static int search_archives(struct fs_mentions *said, struct fs_pending *pending,
			   struct fs_listmail_found *found, const struct fs_review *r,
			   const struct fs_index *idx, const struct upstream_list *ups,
			   const struct fs_review_opts *o, struct fs_error *err)
{
	struct fs_listmail_want *want = g_new0(struct fs_listmail_want, r->npatches * MAX_UPSTREAM + 1);
	struct fs_listmail_ask ask;
	GArray *reports = g_array_new(FALSE, TRUE, sizeof(struct fs_report_mail));
	size_t i, k, n = 0, nflat;
	fs_cid *flat = flat_upstream(r, ups, &nflat);
	char *version = branch_version(r);
	int rc;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < ups[i].n; k++) {
			want[n].upstream = ups[i].ids[k];
			want[n++].posted = fs_patch_time(r->patches[i].patch);
		}
	memset(&ask, 0, sizeof(ask));
	ask.client = o->archive;
	ask.bases = o->archive_bases;
	ask.idx = idx;
	ask.series = r->series;
	ask.version = version;
	ask.own = o->own_addresses;
	rc = flat ? fs_listmail_review(found, &ask, want, n, err) :
		    fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc == 0)
		rc = fs_pending_from_mails(pending, idx, found->patches, found->patch_links,
					   found->npatches, flat, nflat, o->own_addresses, err);
	for (i = 0; rc == 0 && i < found->nreports; i++) {
		const struct fs_patch *m = found->reports[i].mail;
		struct fs_report_mail rm = { found->reports[i].upstream, fs_patch_message_id(m),
					     fs_patch_from(m), fs_patch_date(m), fs_patch_subject(m),
					     found->reports[i].link };
		g_array_append_val(reports, rm);
	}
	if (rc == 0)
		rc = fs_mentions_add_archived(said, (const struct fs_report_mail *)(void *)reports->data,
					      reports->len, err);
	if (rc == 0)
		rc = add_backports(said, found, r, ups, err);
	g_array_free(reports, TRUE);
	g_free(version);
	g_free(want);
	free(flat);
	return rc;
}

/* The commits of the pending refs that fix the series' upstream commits,
 * merged with the posted fixes in PENDING (fs_pending_from_index()). */
static int pending_commits(struct fs_pending *pending, const struct fs_review *r,
			   const struct fs_index *idx, const struct upstream_list *ups,
			   struct fs_error *err)
{
	size_t n;
	fs_cid *flat = flat_upstream(r, ups, &n);
	int rc;

	if (!flat)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	rc = fs_pending_from_index(pending, idx, flat, n, err);
	free(flat);
	return rc;
}

/* The newest Date of the series' mails, and whether it is after the
 * mainline tip: then the clone is older than the thread. */
static void check_stale(struct fs_review *r, const struct fs_review_opts *o)
{
	const struct fs_thread_series *s = r->series;
	size_t i;

	for (i = 0; i <= s->npatches; i++) {
		const struct fs_patch *p = i < s->npatches ? s->patches[i] : s->cover;
		const char *d = p ? fs_patch_date(p) : NULL;
		GDateTime *dt = d ? g_mime_utils_header_decode_date(d) : NULL;

		if (!dt)
			continue;
		if (g_date_time_to_unix(dt) > r->thread_time)
			r->thread_time = g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}
	r->stale_clone = o->mainline_time > 0 && r->thread_time > o->mainline_time;
}

/* The diff of patch RP against that of its one upstream commit UP, into
 * *RES; false when none was made (no diff, several upstream commits, a
 * clone without the objects: the comparer notes that once). */
static bool compare_diff(const struct fs_review_patch *rp, const struct upstream_list *up,
			 const struct fs_index *idx, struct fs_diffcmp *dc,
			 struct fs_diffcmp_result *res)
{
	struct fs_error e = FS_ERROR_INIT;
	const char *body;
	char hex[41];
	size_t len;

	if (!dc || up->n != 1 || !fs_patch_has_diff(rp->patch))
		return false;
	body = fs_patch_body(rp->patch, &len);
	fs_index_commit_hex(idx, up->ids[0], hex);
	return body && fs_diffcmp_commit(dc, hex, body, len, res, &e) == 0;
}

/* The check of R's patches against the branch's tree (symbol-missing,
 * fix-not-applicable), every patch added in series order: *TC, or NULL
 * without O's trees.  Returns 0 or FS_ENOMEM. */
static int open_treecheck(struct fs_treecheck **tc, const struct fs_review *r,
			  const struct fs_index *idx, const struct upstream_list *ups,
			  const struct fs_review_opts *o, struct fs_error *err)
{
	size_t i;
	int rc;

	*tc = NULL;
	if (!o->treesyms || !r->branch || !r->npatches)
		return 0;
	rc = fs_treecheck_open(tc, o->treesyms, idx, r->branch, r->base, err);
	for (i = 0; rc == 0 && i < r->npatches; i++) {
		const struct fs_patch *p = r->patches[i].patch;
		size_t len = 0;
		const char *body = fs_patch_has_diff(p) ? fs_patch_body(p, &len) : NULL;

		rc = fs_treecheck_add_patch(*tc, r->patches[i].index, body, len, ups[i].ids, ups[i].n,
					    err);
	}
	return rc;
}

void fs_review_count(struct fs_review *r)
{
	size_t i, k;

	memset(r->counts, 0, sizeof(r->counts));
	r->ignored = 0;
	r->problems = 0;
	for (i = 0; i < r->npatches; i++) {
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];
			if (f->ignored) {
				r->ignored++;
				continue;
			}
			r->counts[f->kind]++;
			r->problems += fs_finding_is_problem(f);
		}
	}
	/* a reply to the series is never silenced by the ignore file */
	for (k = 0; k < r->series_findings.n; k++) {
		r->counts[r->series_findings.v[k].kind]++;
		r->problems += fs_finding_is_problem(&r->series_findings.v[k]);
	}
}

/* A review reads the index and the packs at a few places a patch, but
 * the kernel maps each fault's neighbours in from the page cache too
 * (fault-around, large folios): in a long thread most of those files
 * ends up resident when the cache holds them, 280 MB of a 500-patch
 * review at kernel scale.  Above this many bytes of mapped pages they go
 * back (MADV_DONTNEED; read again, they come back from the cache): a
 * few times a long review, at no cost measured; below it nothing is
 * done. */
#define REVIEW_MAPPED_MAX ((size_t)128 << 20)
/* Patches judged between two looks at the resident size. */
#define REVIEW_RESIDENT_EVERY 16

/* Give back the mapped pages the review's readers touched. */
static void give_back(const struct fs_index *idx, struct fs_diffcmp *dc, struct fs_treecheck *tc)
{
	fs_index_trim(idx);
	fs_diffcmp_trim(dc);
	fs_treecheck_trim(tc);
}

static void keep_resident_down(const struct fs_index *idx, struct fs_diffcmp *dc,
			       struct fs_treecheck *tc)
{
	if (fs_resident_mapped() > REVIEW_MAPPED_MAX)
		give_back(idx, dc, tc);
}

/* Judge every patch and count the findings. */
static int judge_all(struct fs_review *r, const struct fs_findings_ctx *shared,
		     const struct upstream_list *ups, struct fs_diffcmp *dc,
		     struct fs_treecheck *tc, struct fs_error *err)
{
	size_t i;
	int rc;

	for (i = 0; i < r->npatches; i++) {
		struct fs_review_patch *rp = &r->patches[i];
		struct fs_diffcmp_result diff = FS_DIFFCMP_RESULT_INIT;
		struct fs_findings_ctx ctx = *shared;
		struct fs_diffstat_gap gap = FS_DIFFSTAT_GAP_INIT;

		if (i % REVIEW_RESIDENT_EVERY == 0)
			keep_resident_down(shared->idx, dc, tc);
		ctx.author = fs_patch_author(rp->patch);
		ctx.body = fs_patch_body(rp->patch, &ctx.body_len);
		fs_diffstat_gap(ctx.body, ctx.body_len, &gap);
		ctx.diffless = !fs_patch_has_diff(rp->patch) || gap.in_diff == 0;
		ctx.unreadable = ups[i].unreadable;
		ctx.diff_stops_inside = gap.cut_inside;
		ctx.diff_stops_before = gap.first_missing;
		/* A diff cut short would be "different from upstream" by
		 * what is missing: it is not compared. */
		if (!gap.cut_inside && !gap.first_missing && !ctx.unreadable &&
		    compare_diff(rp, &ups[i], shared->idx, dc, &diff))
			ctx.diff = &diff;
		rc = fs_findings_judge(&rp->findings, &ctx, fs_patch_trailers(rp->patch),
				       fs_patch_title(rp->patch), rp->index, err);
		fs_diffcmp_result_clear(&diff);
		fs_diffstat_gap_clear(&gap);
		if (rc == 0 && tc)
			rc = fs_treecheck_judge(tc, i, &rp->findings, shared->ignore, err);
		if (rc < 0)
			return rc;
	}
	rc = fs_findings_series_replies(&r->series_findings, shared, err);
	fs_review_count(r);
	return rc;
}

/* The patches of a review and their upstream commits, for
 * patch_of_upstream(). */
struct by_upstream {
	const struct fs_review *r;
	const struct upstream_list *ups;
};

/* The number of the one patch of D whose upstream commits include C;
 * -1 when none or several. */
static int patch_of_upstream(void *data, fs_cid c)
{
	const struct by_upstream *d = data;
	size_t i, k;
	int found = -1;

	for (i = 0; i < d->r->npatches; i++)
		for (k = 0; k < d->ups[i].n; k++)
			if (d->ups[i].ids[k] == c)
				found = found == -1 || found == d->r->patches[i].index ?
					d->r->patches[i].index : -2;
	return found < 0 ? -1 : found;
}

/* The upstream commits of a series' patches and how to read their
 * messages, for upstream_message(). */
struct by_patch {
	const struct fs_thread_series *s;
	const struct fs_index *idx;
	const struct upstream_list *ups;
	const struct fs_review_opts *o;
};

/* The message of the first upstream commit of PATCH (a patch of D's
 * series), for a replier's standing. */
static int upstream_message(void *data, const struct fs_patch *patch, char **out)
{
	const struct by_patch *d = data;
	char hex[41];
	size_t i;

	*out = NULL;
	for (i = 0; i < d->s->npatches && d->s->patches[i] != patch; i++)
		;
	if (i >= d->s->npatches || !d->ups[i].n || !d->o->message)
		return -1;
	fs_index_commit_hex(d->idx, d->ups[i].ids[0], hex);
	return d->o->message(d->o->message_data, hex, out);
}

int fs_review_run(struct fs_review **out, const struct fs_thread_series *s,
		  const struct fs_index *idx, struct fs_store *store,
		  const struct fs_review_opts *o, struct fs_error *err)
{
	struct fs_review *r = calloc(1, sizeof(*r));
	struct upstream_list *ups = NULL;
	struct fs_series_entry *entries = NULL;
	struct fs_mentions said = FS_MENTIONS_INIT;
	struct fs_pending pending = FS_PENDING_INIT;
	struct fs_listmail_found found = FS_LISTMAIL_FOUND_INIT;
	struct fs_findings_ctx ctx;
	struct fs_treecheck *tc = NULL;
	struct by_upstream place; /* which patch a commit is: replies placed by it */
	size_t k;
	int rc;

	*out = NULL;
	if (!r)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	r->series = s;
	rc = choose_branch(r, s, idx, o, err);
	if (rc < 0)
		goto out;
	r->npatches = s->npatches;
	r->patches = g_try_new0(struct fs_review_patch, s->npatches + 1);
	ups = calloc(s->npatches + 1, sizeof(*ups));
	entries = calloc(s->npatches + 1, sizeof(*entries));
	if (!r->patches || !ups || !entries) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	resolve_series(r, idx, ups, entries);
	place = (struct by_upstream){ r, ups };
	{
		struct by_patch bp = { s, idx, ups, o };
		struct fs_reply_standing standing = { o->stable_maintainers, upstream_message, &bp };

		rc = fs_mentions_objections(&said, s, o->own_addresses, &standing, err);
	}
	if (rc == 0) {
		fs_mentions_place_by_commit(&said, s, idx, patch_of_upstream, &place);
		if (fs_mentions_name_by_subject(&said, s, idx) < 0)
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (rc == 0 && store && !o->no_reports && s->npatches) {
		rc = search_store(&said, &pending, r, idx, store, ups, o->own_addresses, err);
		/* what answered the same patches in another round is a reply */
		if (rc == 0)
			rc = fs_mentions_earlier_rounds(&said, s, patch_of_upstream, &place, err);
	}
	if (rc == 0 && o->archive && o->archive_bases && s->npatches)
		rc = search_archives(&said, &pending, &found, r, idx, ups, o, err);
	/* after both searches: a report of theirs that is a carried reply
	 * (the store's copy and the archives', merged) gives way to it */
	for (k = 0; rc == 0 && o->earlier_rounds && o->earlier_rounds[k]; k++) {
		/* its patches' upstream messages are not read: the earlier
		 * round's repliers have the standing their mails give */
		struct fs_reply_standing plain = { o->stable_maintainers, NULL, NULL };

		rc = fs_mentions_earlier_thread(&said, s, o->earlier_rounds[k], o->own_addresses, &plain,
						err);
	}
	if (rc == 0 && s->npatches && fs_index_pending_count(idx))
		rc = pending_commits(&pending, r, idx, ups, err);
	if (rc < 0)
		goto out;
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = idx;
	ctx.branch = r->branch;
	ctx.base = r->base;
	ctx.series = entries;
	ctx.nseries = s->npatches;
	ctx.reports = said.reports;
	ctx.nreports = said.nreports;
	ctx.objections = said.objections;
	ctx.nobjections = said.nobjections;
	ctx.ignore = o->ignore;
	check_stale(r, o);
	ctx.stale_clone = r->stale_clone;
	ctx.message = o->message;
	ctx.message_data = o->message_data;
	ctx.vulns = o->vulns;
	ctx.pending = pending.v;
	ctx.npending = pending.n;
	if (store && !o->no_reports) {
		ctx.posting_size = fs_store_posting_size;
		ctx.posting_data = store;
	}
	/* what the stages before touched goes before the trees' sets are
	 * read: building one takes a hundred MB for a while */
	give_back(idx, o->diffcmp, NULL);
	rc = open_treecheck(&tc, r, idx, ups, o, err);
	if (rc == 0)
		rc = judge_all(r, &ctx, ups, o->diffcmp, tc, err);
	fs_treecheck_save(tc); /* before its note is taken, after this */
	fs_treecheck_free(tc);
	if (rc < 0)
		goto out;
	*out = r;
	r = NULL;
out:
	fs_mentions_clear(&said);
	fs_pending_clear(&pending);
	fs_listmail_found_clear(&found);
	free(entries);
	free(ups);
	fs_review_free(r);
	return rc;
}

int fs_review_narrow(struct fs_review **out, const struct fs_review *r, size_t k,
		     struct fs_error *err)
{
	const struct fs_review_patch *patch = &r->patches[k];
	struct fs_review *one = calloc(1, sizeof(*one));
	struct fs_thread_series *series = calloc(1, sizeof(*series));
	size_t i;

	*out = NULL;
	if (one)
		*one = *r;
	if (one && series) {
		one->branch = r->branch ? g_strdup(r->branch) : NULL;
		one->base = r->base ? g_strdup(r->base) : NULL;
	}
	if (!one || !series || (r->branch && !one->branch) || (r->base && !one->base)) {
		if (one) {
			g_free(one->branch);
			g_free(one->base);
		}
		free(one);
		free(series);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	/* What is missing from the series is not this patch's business. */
	*series = *r->series;
	series->nmissing = 0;
	series->duplicates = 0;
	one->series = series;
	one->own_series_ = series;
	one->patches = (struct fs_review_patch *)patch;
	one->npatches = 1;
	one->view_ = true;
	memset(&one->series_findings, 0, sizeof(one->series_findings));
	one->ignored = 0;
	one->problems = 0;
	for (i = 0; i < FS_FIND_KIND_COUNT; i++)
		one->counts[i] = fs_findings_count(&patch->findings, i);
	for (i = 0; i < patch->findings.n; i++) {
		one->ignored += patch->findings.v[i].ignored != NULL;
		one->problems += !patch->findings.v[i].ignored &&
				 fs_finding_is_problem(&patch->findings.v[i]);
	}
	*out = one;
	return 0;
}

const struct fs_review_patch *fs_review_find_patch(const struct fs_review *r,
						   const char *message_id, size_t *k)
{
	size_t i;

	for (i = 0; i < r->npatches; i++) {
		const char *id = message_id ? fs_patch_message_id(r->patches[i].patch) : NULL;
		if (!message_id || (id && !strcmp(id, message_id))) {
			if (k)
				*k = i;
			return &r->patches[i];
		}
	}
	return NULL;
}

const struct fs_review_patch *fs_review_patch_of(const struct fs_review *r,
						 const struct fs_finding *f)
{
	size_t i;

	for (i = 0; r && i < r->npatches; i++)
		if (f >= r->patches[i].findings.v && f < r->patches[i].findings.v + r->patches[i].findings.n)
			return &r->patches[i];
	return NULL;
}
