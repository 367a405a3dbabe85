/* fixscan: the open review threads of several stable branches, together. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/crossbranch.h"
#include "fixscan/json.h"
#include "fixscan/version.h"

#define MAX_UPS 16

/* ---- names, versions, dates --------------------------------------------- */

int fs_cross_branch_cmp(const char *a, const char *b)
{
	struct fs_version sa, sb;
	bool va = fs_version_branch_parse(a, &sa), vb = fs_version_branch_parse(b, &sb);

	if (va != vb)
		return va ? 1 : -1;
	if (!va)
		return strcmp(a, b);
	return fs_version_cmp(&sa, &sb);
}

/* "4.5" of "linux-4.5.y", for people; else the name. */
static char *short_branch(const char *b)
{
	char series[FS_VERSION_NAME_MAX];

	return g_strdup(fs_version_branch_series(b, series, sizeof(series)) ? series : b);
}

bool fs_cross_release_branch(const char *name, char *branch, size_t size)
{
	struct fs_version v, series;
	char s[FS_VERSION_NAME_MAX];

	return fs_version_parse(name, &v) && v.v && !v.rc && fs_version_is_release(&v) &&
	       fs_version_series(&v, &series) && fs_version_format(&series, s, sizeof(s)) &&
	       fs_version_branch_name(s, branch, size);
}

int64_t fs_cross_deadline(const struct fs_thread_series *s)
{
	GDateTime *dt;
	GTimeZone *utc;
	int64_t t;

	if (!s->deadline || !*s->deadline)
		return 0;
	utc = g_time_zone_new_utc();
	dt = g_date_time_new_from_iso8601(s->deadline, utc);
	g_time_zone_unref(utc);
	if (!dt) {
		/* "2020-01-13T09:49+00:00": GLib wants seconds. */
		int y, mo, d, h, mi, n = 0;
		if (sscanf(s->deadline, "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &d, &h, &mi, &n) == 5 &&
		    (s->deadline[n] == '+' || s->deadline[n] == '-' || s->deadline[n] == 'Z')) {
			char *fixed = g_strdup_printf("%.*s:00%s", n, s->deadline, s->deadline + n);
			utc = g_time_zone_new_utc();
			dt = g_date_time_new_from_iso8601(fixed, utc);
			g_time_zone_unref(utc);
			g_free(fixed);
		}
	}
	if (!dt)
		dt = g_mime_utils_header_decode_date(s->deadline);
	if (!dt)
		return 0;
	t = g_date_time_to_unix(dt);
	g_date_time_unref(dt);
	return t > 0 ? t : 0;
}

int64_t fs_cross_series_time(const struct fs_thread_series *s)
{
	int64_t best = s->cover ? (int64_t)fs_patch_time(s->cover) : 0;
	size_t i;

	for (i = 0; i < s->npatches; i++)
		if ((int64_t)fs_patch_time(s->patches[i]) > best)
			best = (int64_t)fs_patch_time(s->patches[i]);
	return best;
}

bool fs_cross_is_open(const struct fs_thread_series *s, int64_t now, int64_t since)
{
	int64_t deadline = fs_cross_deadline(s);

	if (deadline && deadline > now)
		return true;
	return since > 0 && fs_cross_series_time(s) >= since;
}

bool fs_cross_superseded(struct fs_review *const *v, size_t n, size_t i)
{
	const char *rel = v[i]->series->release;
	size_t k;

	if (!rel || !v[i]->branch)
		return false;
	for (k = 0; k < n; k++) {
		const char *other = v[k]->series->release;
		int c;

		if (k == i || !other || !v[k]->branch || strcmp(v[k]->branch, v[i]->branch))
			continue;
		/* the release, then the round: "5.15.3-rc2" after "5.15.3-rc1";
		 * the same round posted again: the later posting (not the later
		 * reply: an answer today does not make an old posting new) */
		c = fs_version_name_cmp(other, rel);
		if (c > 0)
			return true;
		if (c == 0) {
			int64_t tk = fs_cross_series_time(v[k]->series);
			int64_t ti = fs_cross_series_time(v[i]->series);

			if (tk > ti || (tk == ti && k > i))
				return true;
		}
	}
	return false;
}

/* ---- notices -------------------------------------------------------------- */

void fs_cross_notice_clear(struct fs_cross_notice *n)
{
	g_free(n->branch);
	g_free(n->message_id);
	g_free(n->date);
	g_free(n->subject);
	memset(n, 0, sizeof(*n));
}

static bool is_hex40(const char *p, const char *end)
{
	int i;

	if (end - p < 40)
		return false;
	for (i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return end - p == 40 || !isxdigit((unsigned char)p[40]);
}

/* The first 40-hex id after PREFIX at the start of a line of BODY (after
 * spaces when INDENT), or NULL. */
static const char *line_id(const char *body, size_t len, const char *prefix, bool indent)
{
	const char *p = body, *end = body + len;
	size_t pl = strlen(prefix);

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *q = p;
		if (!e)
			e = end;
		while (indent && q < e && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(e - q) >= pl + 40 && !strncmp(q, prefix, pl) && is_hex40(q + pl, e))
			return q + pl;
		p = e + 1;
	}
	return NULL;
}

/* The subject of the patch between OPEN and CLOSE in SUBJECT, and the
 * version before "-stable tree" after AFTER. */
static int notice_subject(struct fs_cross_notice *out, const char *subject, const char *open,
			  const char *close, const char *after)
{
	const char *a = strstr(subject, open), *b, *v, *ve;
	char version[32], branch[FS_VERSION_NAME_MAX];
	struct fs_version ver, series;

	if (!a)
		return FS_ENOTFOUND;
	a += strlen(open);
	b = strstr(a, close);
	if (!b)
		return FS_ENOTFOUND;
	v = strstr(b, after);
	if (!v)
		return FS_ENOTFOUND;
	v += strlen(after);
	ve = strstr(v, "-stable tree");
	if (!ve || ve == v || (size_t)(ve - v) >= sizeof(version))
		return FS_ENOTFOUND;
	memcpy(version, v, (size_t)(ve - v));
	version[ve - v] = '\0';
	/* "5.15-stable tree": the branch of that series */
	if (!fs_version_parse(version, &ver) || ver.v || ver.rc || !fs_version_series(&ver, &series) ||
	    !fs_version_format(&series, version, sizeof(version)) ||
	    !fs_version_branch_name(version, branch, sizeof(branch)))
		return FS_ENOTFOUND;
	out->subject = g_strndup(a, (gsize)(b - a));
	out->branch = g_strdup(branch);
	return 0;
}

int fs_cross_notice_parse(struct fs_cross_notice *out, const char *subject,
			  const char *body, size_t len)
{
	const char *id;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!subject || !body)
		return FS_ENOTFOUND;
	if (!strncmp(subject, "FAILED: patch \"", 15)) {
		out->kind = FS_NOTICE_FAILED;
		rc = notice_subject(out, subject, "\"[PATCH] ", "\" failed to apply to ", "failed to apply to ");
	} else if (!strncmp(subject, "Patch \"", 7)) {
		out->kind = FS_NOTICE_ADDED;
		rc = notice_subject(out, subject, "Patch \"", "\" has been added to the ",
				    "has been added to the ");
	} else {
		rc = FS_ENOTFOUND;
	}
	if (rc < 0) {
		fs_cross_notice_clear(out);
		return rc;
	}
	/* The original commit: "From <id> Mon Sep 17 ...", "git
	 * cherry-pick -x <id>", or a "commit <id>" line of git show. */
	id = line_id(body, len, "From ", false);
	if (!id)
		id = line_id(body, len, "git cherry-pick -x ", true);
	if (!id)
		id = line_id(body, len, "commit ", false);
	if (!id) {
		fs_cross_notice_clear(out);
		return FS_ENOTFOUND;
	}
	memcpy(out->upstream, id, 40);
	out->upstream[40] = '\0';
	for (char *p = out->upstream; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* ---- the set of reviews ----------------------------------------------------- */

struct xpatch {
	fs_cid ups[MAX_UPS];
	size_t nups;
};

struct cross {
	const struct fs_cross_opts *o;
	const struct fs_index *idx;
	struct fs_review **v;
	size_t n;
	struct xpatch **p;    /* per review, per patch */
	char **branches;      /* every branch the releases or reviews name */
	size_t nbranches;
	int oom;
};

static void add_branch(struct cross *x, const char *b)
{
	size_t i;

	for (i = 0; i < x->nbranches; i++)
		if (!strcmp(x->branches[i], b))
			return;
	if (!fs_index_has_branch(x->idx, b))
		return;
	x->branches = g_renew(char *, x->branches, x->nbranches + 1);
	x->branches[x->nbranches++] = g_strdup(b);
}

static int branch_qsort(const void *a, const void *b)
{
	return fs_cross_branch_cmp(*(char *const *)a, *(char *const *)b);
}

static void cross_init(struct cross *x, struct fs_review **v, size_t n,
		       const struct fs_cross_opts *o)
{
	size_t i, k;

	memset(x, 0, sizeof(*x));
	x->o = o;
	x->idx = o->idx;
	x->v = v;
	x->n = n;
	x->p = g_new0(struct xpatch *, n + 1);
	for (i = 0; i < n; i++) {
		x->p[i] = g_new0(struct xpatch, v[i]->npatches + 1);
		for (k = 0; k < v[i]->npatches; k++) {
			const struct fs_patch *p = v[i]->patches[k].patch;
			struct xpatch *xp = &x->p[i][k];
			size_t len = 0;
			const char *body = fs_patch_body(p, &len);

			xp->nups = fs_findings_resolve_patch(x->idx, fs_patch_trailers(p),
							     fs_patch_title(p), fs_patch_author(p),
							     body, len, xp->ups, MAX_UPS, NULL);
			if (xp->nups > MAX_UPS)
				xp->nups = MAX_UPS;
		}
		add_branch(x, v[i]->branch);
	}
	for (i = 0; i < o->nreleases; i++)
		add_branch(x, o->releases[i].branch);
	qsort(x->branches, x->nbranches, sizeof(*x->branches), branch_qsort);
}

static void cross_free(struct cross *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		g_free(x->p[i]);
	g_free(x->p);
	for (i = 0; i < x->nbranches; i++)
		g_free(x->branches[i]);
	g_free(x->branches);
}

/* The review of BRANCH that has a release (the branch's review thread),
 * else any review of it, else NULL. */
static const struct fs_review *review_of(const struct cross *x, const char *branch)
{
	const struct fs_review *any = NULL;
	size_t i;

	for (i = 0; i < x->n; i++) {
		if (!x->v[i]->branch || strcmp(x->v[i]->branch, branch))
			continue;
		if (x->v[i]->series->release)
			return x->v[i];
		if (!any)
			any = x->v[i];
	}
	return any;
}

/* The base BRANCH is judged at: its review thread's base, else its tip. */
static const char *base_of(const struct cross *x, const char *branch)
{
	const struct fs_review *r = review_of(x, branch);

	return r ? r->base : NULL;
}

/* Whether a review of BRANCH queues C: its review and patch in *RI, *PI. */
static bool queued_in(const struct cross *x, const char *branch, fs_cid c, size_t *ri, size_t *pi)
{
	size_t i, k, u;

	for (i = 0; i < x->n; i++) {
		if (!x->v[i]->branch || strcmp(x->v[i]->branch, branch))
			continue;
		for (k = 0; k < x->v[i]->npatches; k++)
			for (u = 0; u < x->p[i][k].nups; u++)
				if (x->p[i][k].ups[u] == c) {
					if (ri)
						*ri = i;
					if (pi)
						*pi = k;
					return true;
				}
	}
	return false;
}

/* The notice of KIND for BRANCH about C, or NULL. */
static const struct fs_cross_notice *notice_for(const struct cross *x, enum fs_notice_kind kind,
						const char *branch, fs_cid c)
{
	char hex[41];
	size_t i;

	fs_index_commit_hex(x->idx, c, hex);
	for (i = 0; i < x->o->nnotices; i++) {
		const struct fs_cross_notice *n = &x->o->notices[i];
		if (n->kind == kind && !strcmp(n->branch, branch) && !strcmp(n->upstream, hex))
			return n;
	}
	return NULL;
}

/* Whether BRANCH has the mainline commit C as of BASE, by ancestry or as
 * a backport, net of the branch's reverts (fs_index_present(), the one
 * answer to that question); *RELEASE (may be NULL) gets the release that
 * brought it. */
static bool in_branch(const struct cross *x, fs_cid c, const char *branch, const char *base,
		      const char **release)
{
	struct fs_index_presence p;

	if (!fs_index_present(x->idx, c, branch, base, &p))
		return false;
	/* By ancestry: the branch has had it since it forked. */
	if (release)
		*release = fs_index_commit_is_mainline(x->idx, p.brought) ?
			   fs_index_branch_fork(x->idx, branch) :
			   fs_index_commit_release(x->idx, p.brought);
	return true;
}

/* Whether BRANCH took C (as of BASE) and reverted it since: its choice,
 * with the reason in its revert (reverted-in-stable cites it). */
static bool reverted_in(const struct cross *x, fs_cid c, const char *branch, const char *base)
{
	struct fs_index_presence p;

	return !fs_index_present(x->idx, c, branch, base, &p) && p.reverted_by != FS_CID_NONE;
}

/* Whether BRANCH has C as of BASE (NULL: its tip), queues it, or a
 * notice says it is added. */
static bool has_or_queues(const struct cross *x, fs_cid c, const char *branch, const char *base)
{
	return in_branch(x, c, branch, base, NULL) ||
	       queued_in(x, branch, c, NULL, NULL) ||
	       notice_for(x, FS_NOTICE_ADDED, branch, c);
}

static fs_cid mainline_of(const struct fs_index *idx, fs_cid c)
{
	fs_cid u;

	if (c == FS_CID_NONE || fs_index_commit_is_mainline(idx, c))
		return c;
	u = fs_index_upstream_of(idx, c);
	return u != FS_CID_NONE ? u : c;
}

/* Whether BRANCH (as of BASE) needs C at all: a fix or revert is needed
 * only where the commit it fixes or reverts is (or is queued). */
static bool needed_in(const struct cross *x, fs_cid c, const char *branch, const char *base)
{
	struct fs_index_ref refs[16];
	size_t n = fs_index_commit_refs(x->idx, c, refs, 16), i, targets = 0;

	for (i = 0; i < n && i < 16; i++) {
		fs_cid t;
		if (refs[i].kind != FS_REF_FIXES && refs[i].kind != FS_REF_REVERTS)
			continue;
		t = mainline_of(x->idx, fs_index_ref_target(x->idx, &refs[i], NULL, NULL));
		if (t == FS_CID_NONE)
			continue;
		targets++;
		if (has_or_queues(x, t, branch, base))
			return true;
	}
	return targets == 0;
}

/* Whether BRANCH is maintained as of WHEN: it has an open thread, or a
 * release within the window before WHEN.  *LAST gets its last release at
 * or before WHEN, or NULL. */
static bool maintained(const struct cross *x, const char *branch, int64_t when, const char **last)
{
	int64_t best = 0;
	size_t i;

	*last = NULL;
	for (i = 0; i < x->o->nreleases; i++) {
		const struct fs_cross_release *rel = &x->o->releases[i];
		if (strcmp(rel->branch, branch) || rel->time > when)
			continue;
		if (!*last || rel->time > best || (rel->time == best && fs_version_name_cmp(rel->name, *last) > 0)) {
			best = rel->time;
			*last = rel->name;
		}
	}
	if (review_of(x, branch))
		return true;
	return *last && best >= when - x->o->maintained_within;
}

/* ---- adding findings ---------------------------------------------------------- */

static struct fs_finding *push(struct cross *x, struct fs_findings *fs)
{
	struct fs_finding *g = g_try_realloc(fs->v, (fs->n + 1) * sizeof(*g)), *f;

	if (!g) {
		x->oom = 1;
		return NULL;
	}
	fs->v = g;
	f = &fs->v[fs->n++];
	memset(f, 0, sizeof(*f));
	f->series_index = -1;
	return f;
}

static char *dup_or_null(const char *s)
{
	return s ? g_strdup(s) : NULL;
}

static void missing_in_newer(struct cross *x, size_t ri, size_t pi, fs_cid u,
			     const char *newer, const char *last)
{
	struct fs_review_patch *rp = &x->v[ri]->patches[pi];
	const struct fs_review *yr = review_of(x, newer);
	struct fs_finding *f = push(x, &rp->findings);
	if (!f)
		return;
	f->kind = FS_FIND_MISSING_IN_NEWER;
	f->cause = FS_CAUSE_NONE;
	fs_index_commit_hex(x->idx, u, f->commit);
	f->subject = dup_or_null(fs_index_commit_subject(x->idx, u));
	f->release = dup_or_null(fs_index_commit_release(x->idx, u));
	f->branch = dup_or_null(fs_index_commit_branch(x->idx, u));
	f->evidence = FS_FEV_EXACT;
	f->cross.newer_branch = g_strdup(newer);
	f->cross.newer_release = yr ? dup_or_null(yr->series->release) : NULL;
	f->cross.newer_last_release = dup_or_null(last);
	f->cross.newer_thread = yr != NULL;
	if (yr && yr->series->release)
		f->note = g_strdup_printf("not in %s%s%s, and its open review %s does not queue it",
					  newer, yr->base ? " as of " : "", yr->base ? yr->base : "",
					  yr->series->release);
	else if (yr)
		f->note = g_strdup_printf("not in %s, and its open threads do not queue it", newer);
	else
		f->note = g_strdup_printf("not in %s (maintained: last release %s), which has no open review thread",
					  newer, last ? last : "unknown");
	if (!f->cross.newer_branch || !f->note)
		x->oom = 1;
	if (x->o->ignore) {
		const char *why = fs_ignore_match(x->o->ignore, f->commit, rp->findings.upstream);
		if (why && !(f->ignored = g_strdup(why)))
			x->oom = 1;
	}
}

/* Whether each branch is maintained as of review RI's thread, and its
 * last release then: once per review, not per patch. */
struct maint {
	bool *on;
	const char **last;
};

static void maint_of(struct cross *x, size_t ri, struct maint *m)
{
	size_t b;

	m->on = g_new0(bool, x->nbranches + 1);
	m->last = g_new0(const char *, x->nbranches + 1);
	for (b = 0; b < x->nbranches; b++)
		m->on[b] = fs_cross_branch_cmp(x->branches[b], x->v[ri]->branch) > 0 &&
			   maintained(x, x->branches[b], x->v[ri]->thread_time, &m->last[b]);
}

/* The missing-in-newer findings of patch PI of review RI. */
/* A patch whose upstream commit was reverted upstream (and not applied
 * again) is to be dropped: asking for it in the newer branches as well
 * would contradict that. */
static bool reverted_upstream(const struct fs_findings *fs)
{
	size_t k;

	for (k = 0; k < fs->n; k++)
		if (fs->v[k].kind == FS_FIND_REVERTED_UPSTREAM && fs_finding_is_problem(&fs->v[k]))
			return true;
	return false;
}

static void check_newer(struct cross *x, size_t ri, size_t pi, const struct maint *m)
{
	const struct fs_review *r = x->v[ri];
	const struct xpatch *xp = &x->p[ri][pi];
	size_t b, u;

	if (!xp->nups || !r->branch || reverted_upstream(&r->patches[pi].findings))
		return;
	for (b = 0; b < x->nbranches; b++) {
		const char *y = x->branches[b], *ybase;
		bool has = false, needed = false, undone = false;

		/* Only newer branches, and only maintained ones. */
		if (!m->on[b])
			continue;
		/* Y as its open review has it, else as of its last release
		 * before this thread: an old store gives the same answer
		 * after Y took the commit. */
		ybase = base_of(x, y);
		if (!ybase)
			ybase = m->last[b];
		for (u = 0; u < xp->nups && !has; u++)
			has = has_or_queues(x, xp->ups[u], y, ybase);
		/* a newer branch that took it and reverted it, by its base or
		 * since (its tip: the revert the series' review cites), is not
		 * asked to take it again: that would contradict its revert */
		for (u = 0; u < xp->nups && !has && !undone; u++)
			undone = reverted_in(x, xp->ups[u], y, ybase) ||
				 reverted_in(x, xp->ups[u], y, NULL);
		for (u = 0; u < xp->nups && !has && !undone && !needed; u++)
			needed = needed_in(x, xp->ups[u], y, ybase);
		if (!has && !undone && needed)
			missing_in_newer(x, ri, pi, xp->ups[0], y, m->last[b]);
	}
}

static void add_queued(struct cross *x, struct fs_finding *f, const char *branch,
		       const char *release, int index, int total, const char *msgid)
{
	struct fs_finding_queued *g = g_try_realloc(f->cross.queued,
					      (f->cross.nqueued + 1) * sizeof(*g));
	struct fs_finding_queued *q;

	if (!g) {
		x->oom = 1;
		return;
	}
	f->cross.queued = g;
	q = &g[f->cross.nqueued++];
	q->branch = g_strdup(branch);
	q->release = dup_or_null(release);
	q->index = index;
	q->total = total;
	q->message_id = dup_or_null(msgid);
	if (!q->branch)
		x->oom = 1;
}

/* A fix-missing F of review RI: queued elsewhere, added here, FAILED. */
static void check_fix(struct cross *x, size_t ri, struct fs_finding *f)
{
	const struct fs_review *r = x->v[ri];
	const struct fs_cross_notice *nt;
	size_t b, oi, pi;
	fs_cid c;

	if (!f->commit[0] || fs_index_resolve(x->idx, f->commit, &c, NULL) < 0)
		return;
	c = mainline_of(x->idx, c);
	if ((nt = notice_for(x, FS_NOTICE_ADDED, r->branch, c))) {
		/* Queued for this branch already: nothing to ask for. */
		f->kind = FS_FIND_FIX_QUEUED;
		g_free(f->note);
		f->note = g_strdup_printf("queued for %s: \"added to the stable tree\" notice <%s>",
					  r->branch, nt->message_id ? nt->message_id : "?");
		return;
	}
	for (b = 0; b < x->nbranches; b++) {
		const char *y = x->branches[b];
		if (!strcmp(y, r->branch))
			continue;
		if (queued_in(x, y, c, &oi, &pi)) {
			const struct fs_review *o = x->v[oi];
			add_queued(x, f, y, o->series->release, o->patches[pi].index,
				   o->series->total, fs_patch_message_id(o->patches[pi].patch));
		} else if ((nt = notice_for(x, FS_NOTICE_ADDED, y, c))) {
			add_queued(x, f, y, NULL, -1, -1, nt->message_id);
		}
	}
	if ((nt = notice_for(x, FS_NOTICE_FAILED, r->branch, c))) {
		f->cross.failed_to_apply = true;
		f->cross.failed_message_id = dup_or_null(nt->message_id);
		f->cross.failed_date = dup_or_null(nt->date);
	}
}

/* ---- the matrix ------------------------------------------------------------------ */

void fs_cross_matrix_clear(struct fs_cross_matrix *m)
{
	size_t i, k;

	for (i = 0; i < m->nrows; i++) {
		for (k = 0; k < m->nbranches; k++)
			g_free(m->rows[i].cells[k].release);
		g_free(m->rows[i].cells);
		g_free(m->rows[i].subject);
	}
	g_free(m->rows);
	for (i = 0; i < m->nbranches; i++)
		g_free(m->branches[i]);
	g_free(m->branches);
	memset(m, 0, sizeof(*m));
}

/* Whether a finding of review RI flags C for BRANCH: missing-in-newer
 * naming BRANCH, or a fix-missing of the review of BRANCH. */
static bool flagged(const struct cross *x, fs_cid c, const char *branch)
{
	char hex[41];
	size_t i, k, f;

	fs_index_commit_hex(x->idx, c, hex);
	for (i = 0; i < x->n; i++)
		for (k = 0; k < x->v[i]->npatches; k++)
			for (f = 0; f < x->v[i]->patches[k].findings.n; f++) {
				const struct fs_finding *g = &x->v[i]->patches[k].findings.v[f];
				if (g->ignored || strcmp(g->commit, hex))
					continue;
				if (g->kind == FS_FIND_MISSING_IN_NEWER && !strcmp(g->cross.newer_branch, branch))
					return true;
				if (g->kind == FS_FIND_FIX_MISSING && !strcmp(x->v[i]->branch, branch))
					return true;
			}
	return false;
}

/* Whether C is a row: in more than one thread, or flagged anywhere. */
static bool is_row(const struct cross *x, fs_cid c)
{
	size_t threads = 0, i, k, f;
	char hex[41];

	for (i = 0; i < x->n; i++) {
		size_t pi;
		bool in = false;
		for (pi = 0; pi < x->v[i]->npatches && !in; pi++)
			for (k = 0; k < x->p[i][pi].nups; k++)
				in = in || x->p[i][pi].ups[k] == c;
		threads += in;
	}
	if (threads > 1)
		return true;
	fs_index_commit_hex(x->idx, c, hex);
	for (i = 0; i < x->n; i++)
		for (k = 0; k < x->v[i]->npatches; k++)
			for (f = 0; f < x->v[i]->patches[k].findings.n; f++) {
				const struct fs_finding *g = &x->v[i]->patches[k].findings.v[f];
				if (!g->ignored && !strcmp(g->commit, hex) &&
				    (g->kind == FS_FIND_MISSING_IN_NEWER ||
				     (g->kind == FS_FIND_FIX_MISSING && (g->cross.nqueued || g->cross.failed_to_apply))))
					return true;
			}
	return false;
}

static void fill_cell(const struct cross *x, fs_cid c, const char *branch, struct fs_cross_cell *cell)
{
	size_t ri, pi;
	const char *rel = NULL;

	cell->index = cell->total = -1;
	if (queued_in(x, branch, c, &ri, &pi)) {
		cell->state = FS_CROSS_QUEUED;
		cell->index = x->v[ri]->patches[pi].index;
		cell->total = x->v[ri]->series->total;
	} else if (in_branch(x, c, branch, base_of(x, branch), &rel)) {
		cell->state = FS_CROSS_IN;
		cell->release = g_strdup(rel);
	} else if (notice_for(x, FS_NOTICE_ADDED, branch, c)) {
		cell->state = FS_CROSS_ADDED;
	} else if (notice_for(x, FS_NOTICE_FAILED, branch, c)) {
		cell->state = FS_CROSS_FAILED;
	} else if (reverted_in(x, c, branch, base_of(x, branch))) {
		cell->state = FS_CROSS_REVERTED;
	} else if (flagged(x, c, branch)) {
		cell->state = FS_CROSS_MISSING;
	}
}

/* The candidate rows: every patch's upstream commit and every flagged
 * fix, each once, in review and patch order. */
static void add_candidate(GArray *cand, fs_cid c)
{
	guint i;

	for (i = 0; i < cand->len; i++)
		if (g_array_index(cand, fs_cid, i) == c)
			return;
	g_array_append_val(cand, c);
}

static void build_matrix(struct cross *x, struct fs_cross_matrix *m)
{
	GArray *cand = g_array_new(FALSE, FALSE, sizeof(fs_cid));
	size_t i, k, f, b;
	guint ci;

	for (i = 0; i < x->n; i++)
		for (k = 0; k < x->v[i]->npatches; k++) {
			if (x->p[i][k].nups)
				add_candidate(cand, x->p[i][k].ups[0]);
			for (f = 0; f < x->v[i]->patches[k].findings.n; f++) {
				const struct fs_finding *g = &x->v[i]->patches[k].findings.v[f];
				fs_cid c;
				if (g->kind == FS_FIND_FIX_MISSING && g->commit[0] &&
				    fs_index_resolve(x->idx, g->commit, &c, NULL) == 0)
					add_candidate(cand, c);
			}
		}
	/* Columns: the branches of the threads and those flagged. */
	for (b = 0; b < x->nbranches; b++) {
		bool col = review_of(x, x->branches[b]) != NULL;
		for (i = 0; i < x->n && !col; i++)
			for (k = 0; k < x->v[i]->npatches && !col; k++)
				for (f = 0; f < x->v[i]->patches[k].findings.n && !col; f++) {
					const struct fs_finding *g = &x->v[i]->patches[k].findings.v[f];
					col = g->cross.newer_branch && !strcmp(g->cross.newer_branch, x->branches[b]);
				}
		if (!col)
			continue;
		m->branches = g_renew(char *, m->branches, m->nbranches + 1);
		m->branches[m->nbranches++] = g_strdup(x->branches[b]);
	}
	for (ci = 0; ci < cand->len; ci++) {
		fs_cid c = g_array_index(cand, fs_cid, ci);
		struct fs_cross_row *row;
		if (!is_row(x, c))
			continue;
		m->rows = g_renew(struct fs_cross_row, m->rows, m->nrows + 1);
		row = &m->rows[m->nrows++];
		fs_index_commit_hex(x->idx, c, row->commit);
		row->subject = g_strdup(fs_index_commit_subject(x->idx, c));
		row->cells = g_new0(struct fs_cross_cell, m->nbranches + 1);
		for (b = 0; b < m->nbranches; b++)
			fill_cell(x, c, m->branches[b], &row->cells[b]);
	}
	g_array_free(cand, TRUE);
}

int fs_cross_apply(struct fs_review **v, size_t n, const struct fs_cross_opts *o,
		   struct fs_cross_matrix *matrix, struct fs_error *err)
{
	struct cross x;
	size_t i, k, f, n0;

	cross_init(&x, v, n, o);
	for (i = 0; i < n; i++) {
		struct maint m;

		if (!v[i]->branch)
			continue;
		maint_of(&x, i, &m);
		for (k = 0; k < v[i]->npatches; k++) {
			struct fs_findings *fs = &v[i]->patches[k].findings;
			n0 = fs->n;
			for (f = 0; f < n0; f++)
				if (fs->v[f].kind == FS_FIND_FIX_MISSING && !fs->v[f].ignored)
					check_fix(&x, i, &fs->v[f]);
			check_newer(&x, i, k, &m);
		}
		g_free(m.on);
		g_free(m.last);
	}
	for (i = 0; i < n; i++)
		fs_review_count(v[i]);
	if (matrix && !x.oom)
		build_matrix(&x, matrix);
	cross_free(&x);
	if (x.oom)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 0;
}

/* ---- printing the matrix ----------------------------------------------------------- */

static char *cell_text(const struct fs_cross_cell *c)
{
	switch (c->state) {
	case FS_CROSS_QUEUED:
		return g_strdup_printf("queued %02d/%02d", c->index, c->total > 0 ? c->total : 0);
	case FS_CROSS_ADDED:
		return g_strdup("added");
	case FS_CROSS_IN:
		return c->release ? g_strdup_printf("in %s", c->release) : g_strdup("in (tip)");
	case FS_CROSS_MISSING:
		return g_strdup("MISSING");
	case FS_CROSS_FAILED:
		return g_strdup("FAILED");
	case FS_CROSS_REVERTED:
		return g_strdup("reverted");
	default:
		return g_strdup("-");
	}
}

static const char *state_name(enum fs_cross_state s)
{
	static const char *const names[] = { "none", "queued", "added", "in", "missing", "failed",
						       "reverted" };

	return (unsigned)s < G_N_ELEMENTS(names) ? names[s] : "none";
}

int fs_cross_matrix_text(FILE *out, const struct fs_cross_matrix *m)
{
	size_t i, b;

	if (!m->nrows) {
		fputs("matrix: no commit in more than one open thread, none flagged\n", out);
		return ferror(out) ? -1 : 0;
	}
	fprintf(out, "matrix: %zu commit%s across the open threads\n", m->nrows,
		m->nrows == 1 ? "" : "s");
	fprintf(out, "%-12s", "commit");
	for (b = 0; b < m->nbranches; b++) {
		char *v = short_branch(m->branches[b]);
		fprintf(out, "  %-14s", v);
		g_free(v);
	}
	fputs("  subject\n", out);
	for (i = 0; i < m->nrows; i++) {
		fprintf(out, "%.12s", m->rows[i].commit);
		for (b = 0; b < m->nbranches; b++) {
			char *t = cell_text(&m->rows[i].cells[b]);
			fprintf(out, "  %-14s", t);
			g_free(t);
		}
		fprintf(out, "  %s\n", m->rows[i].subject ? m->rows[i].subject : "");
	}
	/* What the cells of cell_text() mean. */
	fputs("cells:  queued NN/MM  patch NN of the branch's open thread\n"
	      "        added         an \"added to the stable tree\" notice for the branch\n"
	      "        in vX.Y.Z     in the branch since that release (in (tip): not released)\n"
	      "        MISSING       flagged: missing-in-newer or fix-missing\n"
	      "        FAILED        a FAILED notice for the branch\n"
	      "        reverted      the branch took it and reverted it\n"
	      "        -             not in the branch, and nothing asks for it\n", out);
	return ferror(out) ? -1 : 0;
}

void fs_cross_matrix_json(struct fs_json *j, const struct fs_cross_matrix *m)
{
	size_t i, b;

	fs_json_begin_object(j);
	fs_json_member(j, "branches");
	fs_json_begin_array(j);
	for (b = 0; b < m->nbranches; b++)
		fs_json_add_str(j, m->branches[b]);
	fs_json_end_array(j);
	fs_json_member(j, "rows");
	fs_json_begin_array(j);
	for (i = 0; i < m->nrows; i++) {
		fs_json_begin_object(j);
		fs_json_str(j, "commit", m->rows[i].commit);
		fs_json_str(j, "subject", m->rows[i].subject);
		fs_json_member(j, "cells");
		fs_json_begin_object(j);
		for (b = 0; b < m->nbranches; b++) {
			const struct fs_cross_cell *c = &m->rows[i].cells[b];
			fs_json_member(j, m->branches[b]);
			fs_json_begin_object(j);
			fs_json_str(j, "state", state_name(c->state));
			if (c->state == FS_CROSS_QUEUED) {
				fs_json_int(j, "index", c->index);
				fs_json_int(j, "total", c->total);
			}
			if (c->state == FS_CROSS_IN)
				fs_json_str(j, "release", c->release);
			fs_json_end_object(j);
		}
		fs_json_end_object(j);
		fs_json_end_object(j);
	}
	fs_json_end_array(j);
	fs_json_end_object(j);
}
