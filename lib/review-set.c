/* fixscan: reviewing a set of series with a session (session.h): every
 * series of some threads, the open ones of --all-open, or all of them
 * with the cross-branch findings of the digest.  The one place
 * fs_review_run() is called. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/crossbranch.h"
#include "fixscan/date.h"
#include "fixscan/draft.h"
#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/notices.h"
#include "fixscan/report.h"
#include "fixscan/rounds.h"
#include "fixscan/text.h"
#include "fixscan/session.h"
#include "fixscan/subject.h"
#include "base/git-util.h"

/* Threads whose mail is older than this cannot be open: a review's
 * deadline is two or three days after it is posted. */
#define OPEN_LOOKBACK (30 * 86400)
/* Notices this long before the oldest open thread still count: a fix
 * that failed to apply months ago still needs its manual backport. */
#define NOTICE_LOOKBACK (365 * 86400)

/* The messages that may belong to a stable review thread. */
#define CANDIDATE_QUERY "subject:PATCH"

/* Whether the message M is the user's own (fs_identity_is_own_mail():
 * their drafts and sent mail, fixscan's drafts and digest): it makes no
 * thread news. */
static bool own_mail(const struct fs_store_message *m, const char *const *own)
{
	struct fs_patch *p = NULL;
	bool mine;

	if (fs_identity_is_draft_file(m->filename) || fs_identity_is_own_address(m->from, own))
		return true;
	if (fs_patch_parse_file(&p, m->filename, NULL) < 0)
		return false;
	mine = fs_identity_is_own_mail(m->filename, p, own);
	fs_patch_free(p);
	return mine;
}

/* The threads of the messages matching BASE (NULL: the stable patches
 * among CANDIDATE_QUERY) since SINCE, as a query "thread:A OR thread:B
 * ...", or NULL in *OUT when there is none.  The user's own mail (OWN)
 * does not count: a day of their drafts makes no old thread new. */
static int stable_threads_query(struct fs_store *store, const char *base, time_t since,
				const char *const *own, char **out, struct fs_error *err)
{
	struct fs_store_messages msgs = { NULL, 0 };
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GString *q = g_string_new(NULL);
	char *query = NULL;
	size_t i;
	int rc;

	*out = NULL;
	if (asprintf(&query, "(%s) AND date:@%lld..", base ? base : CANDIDATE_QUERY,
		     (long long)since) < 0) {
		query = NULL;
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	rc = fs_store_search(store, query, &msgs, err);
	if (rc < 0)
		goto out;
	for (i = 0; i < msgs.n; i++) {
		const char *subj = msgs.v[i].subject ? msgs.v[i].subject : "";
		struct fs_series ser;
		bool stable;

		if (!msgs.v[i].thread_id || g_hash_table_contains(seen, msgs.v[i].thread_id))
			continue;
		/* Replies count: a thread with fresh answers is news too,
		 * and fs_series_parse() looks past "Re:".  A query of the
		 * user's own picks its threads itself. */
		if (!base) {
			if (!fs_series_parse(subj, &ser, NULL))
				continue;
			stable = ser.version || ser.autosel;
			fs_series_clear(&ser);
			if (!stable)
				continue;
		}
		if (own_mail(&msgs.v[i], own))
			continue;
		g_hash_table_add(seen, msgs.v[i].thread_id);
		g_string_append_printf(q, "%sthread:%s", q->len ? " OR " : "", msgs.v[i].thread_id);
	}
	if (q->len)
		*out = g_strdup(q->str);
out:
	g_hash_table_destroy(seen);
	fs_store_messages_free(&msgs);
	g_string_free(q, TRUE);
	free(query);
	return rc;
}

int fs_session_stable_threads_query(const struct fs_session *s, const char *base,
				    time_t since, char **out, struct fs_error *err)
{
	return stable_threads_query(fs_session_store(s), base, since,
				    fs_session_review_opts((struct fs_session *)s)->own_addresses,
				    out, err);
}

int fs_session_open_query(const struct fs_session *s, time_t now, time_t since, char **out,
			  struct fs_error *err)
{
	time_t from = now > OPEN_LOOKBACK ? now - OPEN_LOOKBACK : 0;

	if (since > 0 && since < from)
		from = since;
	return stable_threads_query(fs_session_store(s), NULL, from, NULL, out, err);
}

/* fixscan.maintainedWithin, else six months. */
static int maintained_within(struct fs_session *s, int64_t *out, struct fs_error *err)
{
	char *v = NULL;
	int rc;

	*out = 6 * (int64_t)2629746;
	if (!fs_session_config(s) ||
	    fs_config_get_string(fs_session_config(s), "fixscan.maintainedWithin", &v) < 0 || !v)
		return 0;
	rc = fs_date_parse_duration(v, out);
	if (rc < 0)
		rc = fs_error_set(err, FS_EUSAGE,
				  "fixscan.maintainedWithin: cannot read '%s' (6 months, 180d, 26w, 1 year)", v);
	g_free(v);
	return rc;
}

static int review_order(const void *a, const void *b)
{
	const struct fs_review *x = *(struct fs_review *const *)a, *y = *(struct fs_review *const *)b;
	int c = fs_cross_branch_cmp(x->branch, y->branch);

	if (c)
		return c;
	return (x->thread_time > y->thread_time) - (x->thread_time < y->thread_time);
}

/* Add the cross-branch findings to the reviews V (N of them, none
 * superseded; fs_cross_apply()), with the release tags of the session's
 * repository, the notices of its store and fixscan.maintainedWithin;
 * fill *MATRIX (may be NULL). */
static int cross_add(struct fs_session *c, struct fs_review **v, size_t n,
		     struct fs_cross_matrix *matrix, struct fs_error *err)
{
	struct fs_cross_release *releases = NULL;
	struct fs_cross_notice *notices = NULL;
	size_t nreleases = 0, nnotices = 0, i;
	struct fs_cross_opts xo;
	int64_t oldest = 0;
	int rc;

	memset(&xo, 0, sizeof(xo));
	rc = maintained_within(c, &xo.maintained_within, err);
	if (rc == 0)
		rc = fs_cross_read_releases(fs_session_repo(c), &releases, &nreleases, err);
	for (i = 0; i < n; i++)
		if (!oldest || (v[i]->thread_time && v[i]->thread_time < oldest))
			oldest = v[i]->thread_time;
	if (rc == 0 && n)
		rc = fs_cross_load_notices(fs_session_store(c),
					   oldest > NOTICE_LOOKBACK ? oldest - NOTICE_LOOKBACK : 0,
					   &notices, &nnotices, err);
	if (rc == 0) {
		xo.idx = fs_session_index(c);
		xo.releases = releases;
		xo.nreleases = nreleases;
		xo.notices = notices;
		xo.nnotices = nnotices;
		xo.ignore = fs_session_ignore(c);
		rc = fs_cross_apply(v, n, &xo, matrix, err);
	}
	fs_cross_releases_free(releases, nreleases);
	fs_cross_notices_free(notices, nnotices);
	return rc;
}

/* ---- the review of a set ------------------------------------------------ */

/* The reviews of a set, with their series, in the order reviewed. */
struct reviews {
	struct fs_review **v;
	const struct fs_thread_series **s;
	size_t n;
};

static void reviews_add(struct reviews *x, const struct fs_thread_series *s, struct fs_review *r)
{
	x->v = g_renew(struct fs_review *, x->v, x->n + 1);
	x->s = g_renew(const struct fs_thread_series *, x->s, x->n + 1);
	x->v[x->n] = r;
	x->s[x->n++] = s;
}

/* Free the reviews from FIRST on (those not handed over) and the lists. */
static void reviews_clear(struct reviews *x, size_t first)
{
	size_t i;

	for (i = first; i < x->n; i++)
		fs_review_free(x->v[i]);
	g_free(x->v);
	g_free(x->s);
	memset(x, 0, sizeof(*x));
}

/* The series of THREADS that is round R of release BASE, of the same
 * kernel series as S (of a round posted twice, the one found last);
 * NULL when none. */
static const struct fs_thread_series *round_of(struct fs_thread **threads, size_t n,
					       const struct fs_thread_series *s, const char *base, int r)
{
	const struct fs_thread_series *best = NULL;
	size_t i, k;
	char *b;
	int got;

	for (i = 0; i < n; i++)
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *t = fs_thread_get(threads[i], k);

			if (!t->npatches || !fs_round_parse(t->release, &b, &got))
				continue;
			if (!strcmp(b, base) && got == r && !g_strcmp0(t->version, s->version))
				best = t;
			g_free(b);
		}
	return best;
}

/* What a draft in an earlier round answers, for a list of them: its
 * patch's "NN/MM" when its subject has one, else the subject; *DROPPED
 * whether ROUND says that patch is not in the new round.  New string
 * (g_free()). */
static char *draft_answers(const char *subject, const struct fs_round *round, bool *dropped)
{
	struct fs_series p;
	char *out;

	*dropped = false;
	if (subject && fs_series_parse(subject, &p, NULL) && p.index >= 0 && p.total > 0) {
		out = g_strdup_printf("%02d/%02d", p.index, p.total);
		*dropped = p.index > 0 && fs_round_dropped(round, p.index);
		fs_series_clear(&p);
		return out;
	}
	return fs_text_clean_line(subject ? subject : "");
}

/* "; 4.4.7-rc2 dropped the patches 09/27 and 27/27" for the NNs in
 * DROPPED (a list "A, B, C"), "" when none.  New string. */
static char *dropped_clause(const GString *dropped, size_t n, const char *release)
{
	const char *last = strrchr(dropped->str, ',');

	if (!n)
		return g_strdup("");
	if (n == 1)
		return g_strdup_printf("; %s dropped the patch %s", release, dropped->str);
	return g_strdup_printf("; %s dropped the patches %.*s and %s", release,
			       (int)(last - dropped->str), dropped->str, last + 2);
}

/* Name the unsent drafts in the thread of PREV, the earlier round R
 * replaces: a reply there comes too late (said in one note: the draft,
 * or how many and what they answer). */
static gint by_text(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The strings of V, sorted ("00/27" before "03/27": numbers are
 * zero-padded), joined by ", " into S; frees V and its strings. */
static void join_sorted(GString *s, GPtrArray *v)
{
	size_t i;

	g_ptr_array_sort(v, by_text);
	for (i = 0; i < v->len; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", (const char *)g_ptr_array_index(v, i));
	g_ptr_array_free(v, TRUE);
}

static void name_stale_drafts(struct fs_store *store, const struct fs_thread_series *prev,
			      const struct fs_review *r, const struct fs_review_set_cbs *cb)
{
	const struct fs_patch *first = prev->cover ? prev->cover : prev->patches[0];
	struct fs_store_messages msgs = { NULL, 0 };
	struct fs_store_message found;
	struct fs_error e = FS_ERROR_INIT;
	GString *list = g_string_new(NULL), *dropped = g_string_new(NULL);
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free), *gone_v = g_ptr_array_new_with_free_func(g_free);
	size_t i, n = 0, one = 0, ndropped = 0;
	char *gone;

	memset(&found, 0, sizeof(found));
	if (!cb->note || !fs_patch_message_id(first) ||
	    fs_store_find_message(store, fs_patch_message_id(first), &found, &e) < 0) {
		g_string_free(list, TRUE);
		g_string_free(dropped, TRUE);
		g_ptr_array_free(all, TRUE);
		g_ptr_array_free(gone_v, TRUE);
		return;
	}
	if (fs_store_thread(store, found.thread_id, &msgs, &e) == 0)
		for (i = 0; i < msgs.n; i++) {
			char *what;
			bool was_dropped;

			if (!fs_identity_is_draft_file(msgs.v[i].filename))
				continue;
			what = draft_answers(msgs.v[i].subject, r->previous, &was_dropped);
			if (was_dropped)
				g_ptr_array_add(gone_v, g_strdup(what));
			g_ptr_array_add(all, what);
			one = i;
			n++;
		}
	ndropped = gone_v->len;
	join_sorted(list, all);
	join_sorted(dropped, gone_v);
	gone = dropped_clause(dropped, ndropped, r->series->release);
	if (n == 1) {
		char *subj = fs_text_clean_line(msgs.v[one].subject), *note;

		note = g_strdup_printf("%s replaces %s: your draft \"%s\" (%s) is for the earlier round%s",
				       r->series->release, prev->release, subj, msgs.v[one].filename, gone);
		cb->note(cb->data, note);
		g_free(note);
		g_free(subj);
	} else if (n > 1) {
		char *note = g_strdup_printf("%s replaces %s: %zu drafts of yours are for the earlier "
					     "round (answering %s%s)", r->series->release,
					     prev->release, n, list->str, gone);
		cb->note(cb->data, note);
		g_free(note);
	}
	g_free(gone);
	g_string_free(list, TRUE);
	g_string_free(dropped, TRUE);
	fs_store_messages_free(&msgs);
	fs_store_message_clear(&found);
}

/* The earlier rounds of a series' release in the store, loaded: their
 * threads ALL (NULL-terminated, the latest first; ALL[0] the round
 * compared with) among THREADS, or why they could not be read. */
struct earlier {
	struct fs_thread **threads;
	size_t n;
	const struct fs_thread_series **all;
	struct fs_error err;
};

/* Load into *E the earlier rounds of S -rcN (N >= 2) from the store:
 * nothing for a first round, a series of no round, or no store. */
static void load_earlier(struct fs_session *ss, const struct fs_thread_series *s, struct earlier *e)
{
	struct fs_store *store = fs_session_store(ss);
	char *base = NULL, *quoted, *query;
	int round;

	memset(e, 0, sizeof(*e));
	if (!store || !s->release || !fs_round_parse(s->release, &base, &round) || round < 2) {
		g_free(base);
		return;
	}
	quoted = fs_store_quote(base);
	query = g_strdup_printf("subject:%s", quoted ? quoted : "\"\"");
	if (fs_review_load(&e->threads, &e->n, store, query, NULL, &e->err) == 0) {
		GPtrArray *a = g_ptr_array_new();
		const struct fs_thread_series *t;

		while (--round >= 1)
			if ((t = round_of(e->threads, e->n, s, base, round)))
				g_ptr_array_add(a, (gpointer)t);
		g_ptr_array_add(a, NULL);
		e->all = (const struct fs_thread_series **)g_ptr_array_free(a, FALSE);
	}
	g_free(query);
	g_free(quoted);
	g_free(base);
}

static void earlier_clear(struct earlier *e)
{
	g_free(e->all);
	fs_source_free(e->threads, e->n);
	memset(e, 0, sizeof(*e));
}

/* Review R -rcN (N >= 2) against E, the earlier rounds of its release
 * that the store has: the latest reviewed with the same options, and
 * with the rounds before it as R was (what its report said), and
 * compared (R->previous); nothing when there is none.  Trouble there is
 * a note, never a failure of R. */
static void add_previous_round(struct fs_session *ss, struct fs_review *r, struct earlier *e,
			       const struct fs_review_set_cbs *cb)
{
	struct fs_store *store = fs_session_store(ss);
	struct fs_review_opts ro = *fs_session_review_opts(ss);
	const struct fs_thread_series *prev = e->all ? e->all[0] : NULL;
	struct fs_review *pr = NULL;

	ro.earlier_rounds = prev ? e->all + 1 : NULL;
	if (prev && !e->err.code &&
	    fs_review_run(&pr, prev, fs_session_index(ss), store, &ro, &e->err) == 0 &&
	    fs_round_compare(&r->previous, pr, r, &e->err) == 0)
		name_stale_drafts(store, prev, r, cb);
	if (e->err.code && cb->note) {
		char *note = g_strdup_printf("%s: the previous round not compared: %s",
					     r->series->release, e->err.message);
		cb->note(cb->data, note);
		g_free(note);
	}
	fs_review_free(pr);
}

/* Say which patches of R carry no diff: a mail cut short, or a patch
 * sent some other way.  Its code was neither compared with upstream nor
 * checked against the branch's tree, so "no findings" says less there.
 * A review and check say so in their output (diff-absent); the digest
 * shows only what asks for action, so it is said here. */
static void name_diffless(const struct fs_review *r, const struct fs_review_set_cbs *cb)
{
	size_t i, k;

	for (i = 0; cb->note && i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		const char *id = fs_patch_message_id(rp->patch);

		for (k = 0; k < rp->findings.n; k++) {
			char number[32], *line, *note;

			if (rp->findings.v[k].kind != FS_FIND_DIFF_ABSENT)
				continue;
			/* in the report's words: a kind's words are said in
			 * one place (report-words.c) */
			line = fs_report_finding_line(r, &rp->findings.v[k], false);
			fs_report_patch_number(r->series, rp->index, number, sizeof(number));
			note = g_strdup_printf("%s: patch %s <%s>: %s", r->branch ? r->branch : "?",
					       number, id ? id : "?", line);
			cb->note(cb->data, note);
			g_free(note);
			g_free(line);
			break;
		}
	}
}

/* Review series S with the session, on BRANCH (from SOURCE) when not
 * NULL; NULL when it could not be (said to CB->failed). */
static struct fs_review *review_one(struct fs_session *ss, const struct fs_review_set *set,
				    const struct fs_review_set_cbs *cb,
				    const struct fs_thread_series *s, const char *branch,
				    const char *source)
{
	struct fs_review *r = NULL;
	struct fs_error one = FS_ERROR_INIT;
	struct fs_review_opts ro = *fs_session_review_opts(ss);
	struct earlier e;
	const char *note;

	if (branch) {
		ro.branch = branch;
		ro.branch_source = source;
	}
	/* what the earlier round's replies asked of a patch still asks */
	memset(&e, 0, sizeof(e));
	if (!set->no_store)
		load_earlier(ss, s, &e);
	ro.earlier_rounds = e.all;
	if (fs_review_run(&r, s, fs_session_index(ss), set->no_store ? NULL : fs_session_store(ss),
			  &ro, &one) < 0) {
		if (cb->failed)
			cb->failed(cb->data, s, &one);
		earlier_clear(&e);
		return NULL;
	}
	/* The digest ranks patches and shows no report: an earlier round
	 * would be reviewed for nothing. */
	if (!set->no_store && set->mode != FS_SET_CROSS)
		add_previous_round(ss, r, &e, cb);
	earlier_clear(&e);
	if (set->mode == FS_SET_CROSS)
		name_diffless(r, cb);
	note = fs_diffcmp_take_note(fs_session_review_opts(ss)->diffcmp);
	if (note && cb->note)
		cb->note(cb->data, note);
	note = fs_treesyms_take_note(fs_session_review_opts(ss)->treesyms);
	if (note && cb->note)
		cb->note(cb->data, note);
	if (cb->reviewed)
		cb->reviewed(cb->data, r);
	return r;
}

/* Whether series S of SET is one to review (a cover letter without
 * patches is said, when SET asks for that). */
static bool wanted(const struct fs_review_set *set, const struct fs_review_set_cbs *cb,
		   const struct fs_thread_series *s)
{
	if (!s->npatches && set->patchless_replies && s->nreplies) {
		if (cb->note) {
			char *note = s->cover ?
				g_strdup_printf("'%s': the cover letter has no patches in the store: reading its replies",
						fs_patch_subject(s->cover)) :
				g_strdup_printf("%zu repl%s whose patch mails are absent: reading %s",
						s->nreplies, s->nreplies == 1 ? "y" : "ies",
						s->nreplies == 1 ? "it" : "them");

			cb->note(cb->data, note);
			g_free(note);
		}
		return !cb->want || cb->want(cb->data, s);
	}
	if (!s->npatches) {
		if (set->lone_covers && s->cover && cb->failed) {
			struct fs_error e = FS_ERROR_INIT;

			fs_error_set(&e, FS_ENOTFOUND, "'%s': the cover letter has no patches in the store",
				     fs_patch_subject(s->cover));
			cb->failed(cb->data, s, &e);
		}
		return false;
	}
	if (set->mode == FS_SET_OPEN && !fs_cross_is_open(s, set->now, set->since))
		return false;
	return !cb->want || cb->want(cb->data, s);
}

/* The local branch the repository at PATH has checked out, or NULL. */
static char *head_branch(const char *path)
{
	git_repository *g = NULL;
	git_reference *h = NULL;
	char *out = NULL;

	fs_git_init();
	if (!path || git_repository_open(&g, path) < 0)
		return NULL;
	if (git_repository_head(&h, g) == 0 && git_reference_is_branch(h))
		out = g_strdup(git_reference_shorthand(h));
	git_reference_free(h);
	git_repository_free(g);
	return out;
}

/* The branches to review S on when its subject names a range of kernel
 * series (fs_review_branches()): the one the repository has checked
 * out when it is in the range, else each; NULL for the usual one
 * review.  A note names them when there are several. */
static char **range_branches(struct fs_session *ss, const struct fs_review_set_cbs *cb,
			     const struct fs_thread_series *s, const char **source)
{
	char **v = NULL, *head;
	size_t n = fs_review_branches(&v, s, fs_session_index(ss), fs_session_review_opts(ss)), i;

	*source = "the subject's range";
	if (n < 2)
		return v;
	head = head_branch(fs_session_repo(ss));
	for (i = 0; head && i < n; i++) {
		if (strcmp(v[i], head))
			continue;
		g_strfreev(v);
		v = g_new0(char *, 2);
		v[0] = head;
		*source = "the subject's range and the checked-out branch";
		return v;
	}
	g_free(head);
	if (cb->note) {
		char *list = g_strjoinv(", ", v);
		char *note = g_strdup_printf("'%s' is for a range of branches: reviewed on each the repository has (%s), without drafts; --branch reviews and drafts for one",
					     fs_patch_subject(s->cover ? s->cover : s->patches[0]), list);
		cb->note(cb->data, note);
		g_free(note);
		g_free(list);
	}
	return v;
}

/* Review every wanted series of SET into X, or (FS_SET_EACH) hand each
 * over as it comes.  Returns 0 or the code of CB->review. */
static int review_all(struct fs_session *ss, const struct fs_review_set *set,
		      const struct fs_review_set_cbs *cb, struct reviews *x, struct fs_error *err)
{
	size_t i, k;
	int rc;

	for (i = 0; i < set->nthreads; i++) {
		for (k = 0; k < fs_thread_count(set->threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(set->threads[i], k);
			const char *source = NULL;
			char **branches;
			size_t b = 0;

			if (!wanted(set, cb, s))
				continue;
			branches = range_branches(ss, cb, s, &source);
			do {
				const char *br = branches ? branches[b] : NULL;
				struct fs_review *r = review_one(ss, set, cb, s, br, source);
				if (!r)
					continue;
				r->one_of_branches = branches && branches[1];
				if (set->mode != FS_SET_EACH) {
					reviews_add(x, s, r);
					continue;
				}
				rc = cb->review(cb->data, s, r, err);
				if (rc) {
					g_strfreev(branches);
					return rc < 0 ? rc : 1;
				}
			} while (branches && branches[++b]);
			g_strfreev(branches);
		}
	}
	return 0;
}

/* --all-open and the digest: leave out of X the reviews a later review
 * of their branch supersedes (said in a note): a new round carries what
 * is still queued, and an old one would count its patches twice. */
static void drop_superseded(struct reviews *x, const struct fs_review_set_cbs *cb)
{
	bool *gone = g_new0(bool, x->n + 1);
	size_t i, w = 0;

	for (i = 0; i < x->n; i++) {
		if (!fs_cross_superseded(x->v, x->n, i))
			continue;
		gone[i] = true;
		if (cb->superseded) {
			cb->superseded(cb->data, x->s[i], x->v[i]->branch);
		} else if (cb->note) {
			char *note = g_strdup_printf("%s: superseded by a later review of %s, left out",
						     x->v[i]->series->release, x->v[i]->branch);
			cb->note(cb->data, note);
			g_free(note);
		}
	}
	/* Freed after the loop: the others still compare to them. */
	for (i = 0; i < x->n; i++) {
		if (gone[i]) {
			fs_review_free(x->v[i]);
			continue;
		}
		x->v[w] = x->v[i];
		x->s[w++] = x->s[i];
	}
	x->n = w;
	g_free(gone);
}

/* FS_SET_CROSS: the cross-branch findings of the reviews of X (none
 * superseded); an error there is said to CB->failed. */
static void cross_current(struct fs_session *ss, struct reviews *x,
			  const struct fs_review_set_cbs *cb)
{
	struct fs_error one = FS_ERROR_INIT;

	if (x->n && cross_add(ss, x->v, x->n, NULL, &one) < 0 && cb->failed)
		cb->failed(cb->data, NULL, &one);
}

/* FS_SET_OPEN: sort X, add the cross-branch findings and the matrix. */
static int cross_open(struct fs_session *ss, struct reviews *x, struct fs_cross_matrix *matrix,
		      struct fs_error *err)
{
	size_t i;
	int rc;

	if (x->n) {
		qsort(x->v, x->n, sizeof(*x->v), review_order);
		/* The series follow their reviews. */
		for (i = 0; i < x->n; i++)
			x->s[i] = x->v[i]->series;
	}
	rc = cross_add(ss, x->v, x->n, matrix, err);
	for (i = 0; rc == 0 && i < x->n; i++)
		x->v[i]->matrix = matrix;
	return rc;
}

int fs_session_review(struct fs_session *ss, const struct fs_review_set *set,
		      const struct fs_review_set_cbs *cb, struct fs_error *err)
{
	struct reviews x = { NULL, NULL, 0 };
	struct fs_cross_matrix matrix;
	size_t i, handed = 0;
	int rc;

	memset(&matrix, 0, sizeof(matrix));
	rc = review_all(ss, set, cb, &x, err);
	if (rc || set->mode == FS_SET_EACH)
		return rc < 0 ? rc : 0;
	if (set->mode == FS_SET_OPEN) {
		drop_superseded(&x, cb);
		rc = cross_open(ss, &x, &matrix, err);
		if (rc == 0 && cb->open)
			cb->open(cb->data, x.v, x.n, &matrix);
	} else {
		drop_superseded(&x, cb);
		cross_current(ss, &x, cb);
	}
	for (i = 0; rc == 0 && i < x.n; i++) {
		int one = cb->review(cb->data, x.s[i], x.v[i], err);

		handed = i + 1;
		if (one < 0)
			rc = one;
		if (one)
			break;
	}
	reviews_clear(&x, handed);
	fs_cross_matrix_clear(&matrix);
	return rc < 0 ? rc : 0;
}
