/* fixscan: review --all-open: every open stable review thread, together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "fixscan/mail.h"
#include "fixscan/mentions.h"

#include "cli.h"
#include "fixscan/crossbranch.h"
#include "fixscan/notices.h"
#include "review-open.h"

/* Threads whose mail is older than this cannot be open: a review's
 * deadline is two or three days after it is posted. */
#define OPEN_LOOKBACK (30 * 86400)
/* Notices this long before the oldest open thread still count: a fix
 * that failed to apply months ago still needs its manual backport. */
#define NOTICE_LOOKBACK (365 * 86400)

/* The messages that may belong to a stable review thread. */
#define CANDIDATE_QUERY "subject:PATCH"

/* Whether the message M is the user's own (fs_mentions_is_own_mail():
 * their drafts and sent mail, fixscan's drafts and digest): it makes no
 * thread news. */
static bool own_mail(const struct fs_store_message *m, const char *const *own)
{
	struct fs_patch *p = NULL;
	bool mine;

	if (fs_mentions_is_draft_file(m->filename) || fs_mentions_is_own_address(m->from, own))
		return true;
	if (fs_patch_parse_file(&p, m->filename, NULL) < 0)
		return false;
	mine = fs_mentions_is_own_mail(m->filename, p, own);
	fs_patch_free(p);
	return mine;
}

/* The threads of the messages matching BASE (NULL: the stable patches
 * among CANDIDATE_QUERY) since SINCE, as a query "thread:A OR thread:B
 * ...", or NULL in *OUT when there is none.  The user's own mail (OWN)
 * does not count: a day of their drafts makes no old thread new. */
int cli_stable_threads_query(struct fs_store *store, const char *base, time_t since,
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
	if (q->len && !(*out = strdup(q->str)))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
out:
	g_hash_table_destroy(seen);
	fs_store_messages_free(&msgs);
	g_string_free(q, TRUE);
	free(query);
	return rc;
}

int cli_open_query(struct fs_store *store, time_t now, time_t since, char **out,
		   struct fs_error *err)
{
	time_t from = now > OPEN_LOOKBACK ? now - OPEN_LOOKBACK : 0;

	if (since > 0 && since < from)
		from = since;
	return cli_stable_threads_query(store, NULL, from, NULL, out, err);
}

void cli_open_reviews_clear(struct cli_open_reviews *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		fs_review_free(o->v[i]);
	g_free(o->v);
	fs_cross_matrix_clear(&o->matrix);
	memset(o, 0, sizeof(*o));
}

/* fixscan.maintainedWithin, else six months. */
static int maintained_within(struct cli_ctx *c, int64_t *out, struct fs_error *err)
{
	char *v = NULL;
	int rc;

	*out = 6 * (int64_t)2629746;
	if (!c->cfg || fs_config_get_string(c->cfg, "fixscan.maintainedWithin", &v) < 0 || !v)
		return 0;
	rc = cli_parse_duration(v, out);
	if (rc < 0)
		rc = fs_error_set(err, FS_EUSAGE,
				  "fixscan.maintainedWithin: cannot read '%s' (6 months, 180d, 26w, 1 year)", v);
	free(v);
	return rc;
}

/* Review the open series of THREADS into O->v (superseded ones left out
 * and said on stderr). */
static void review_open(struct cli_ctx *c, struct fs_thread **threads, size_t nthreads,
			time_t now, time_t since, struct cli_open_reviews *o, bool *trouble)
{
	size_t i, k, kept;
	bool said = false;

	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(threads[i], k);
			struct fs_review *r = NULL;
			struct fs_error one = FS_ERROR_INIT;

			if (!s->npatches || !fs_cross_is_open(s, now, since))
				continue;
			if (fs_review_run(&r, s, c->idx, c->store, &c->ropts, &one) < 0) {
				/* A branch the clone does not have (4.19 not
				 * fetched) is the user's choice: said, not
				 * trouble, as digest does. */
				if (one.code == FS_ENOTFOUND) {
					cli_note("not reviewed: %s", one.message);
				} else {
					cli_error(&one);
					*trouble = true;
				}
				continue;
			}
			cli_clone_age_notice(c, r, &said);
			o->v = g_renew(struct fs_review *, o->v, o->n + 1);
			o->v[o->n++] = r;
		}
	}
	for (i = kept = 0; i < o->n; i++) {
		if (fs_cross_superseded(o->v, o->n, i)) {
			cli_note("%s: superseded by a later review of %s, left out",
				 o->v[i]->series->release, o->v[i]->branch);
			/* Freed after the loop: the others still compare to it. */
			continue;
		}
		kept++;
	}
	if (kept != o->n) {
		struct fs_review **v = g_new0(struct fs_review *, kept + 1);
		size_t w = 0;
		for (i = 0; i < o->n; i++) {
			if (fs_cross_superseded(o->v, o->n, i))
				continue;
			v[w++] = o->v[i];
		}
		for (i = 0; i < o->n; i++) {
			for (k = 0; k < w && v[k] != o->v[i]; k++)
				;
			if (k == w)
				fs_review_free(o->v[i]);
		}
		g_free(o->v);
		o->v = v;
		o->n = w;
	}
}

static int review_order(const void *a, const void *b)
{
	const struct fs_review *x = *(struct fs_review *const *)a, *y = *(struct fs_review *const *)b;
	int c = fs_cross_branch_cmp(x->branch, y->branch);

	if (c)
		return c;
	return (x->thread_time > y->thread_time) - (x->thread_time < y->thread_time);
}

int cli_cross_add(struct cli_ctx *c, struct fs_review **v, size_t n,
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
		rc = fs_cross_read_releases(c->repo, &releases, &nreleases, err);
	for (i = 0; i < n; i++)
		if (!oldest || (v[i]->thread_time && v[i]->thread_time < oldest))
			oldest = v[i]->thread_time;
	if (rc == 0 && n)
		rc = fs_cross_load_notices(c->store,
					   oldest > NOTICE_LOOKBACK ? oldest - NOTICE_LOOKBACK : 0,
					   &notices, &nnotices, err);
	if (rc == 0) {
		xo.idx = c->idx;
		xo.releases = releases;
		xo.nreleases = nreleases;
		xo.notices = notices;
		xo.nnotices = nnotices;
		xo.ignore = c->ignore;
		rc = fs_cross_apply(v, n, &xo, matrix, err);
	}
	fs_cross_releases_free(releases, nreleases);
	fs_cross_notices_free(notices, nnotices);
	return rc;
}

int cli_open_reviews(struct cli_ctx *c, struct fs_thread **threads, size_t nthreads,
		     time_t now, time_t since, struct cli_open_reviews *o, bool *trouble,
		     struct fs_error *err)
{
	size_t i;
	int rc;

	memset(o, 0, sizeof(*o));
	review_open(c, threads, nthreads, now, since, o, trouble);
	if (o->n)
		qsort(o->v, o->n, sizeof(*o->v), review_order);
	rc = cli_cross_add(c, o->v, o->n, &o->matrix, err);
	for (i = 0; rc == 0 && i < o->n; i++)
		o->v[i]->matrix = &o->matrix;
	return rc;
}
