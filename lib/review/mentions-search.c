/* fixscan: regression reports in the user's mail store (mentions.h):
 * people's mails outside the thread that name a patch's upstream commit
 * with words of trouble. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "mentions-private.h"

/* Words that make a mention of a commit a report of trouble with it. */
static const char *const regression_words[] = {
	"regression", "regressed", "revert", "reverting", "breaks", "broke",
	"broken", "bisected", "first bad commit",
};

static bool has_word_ci(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n > len)
		return false;
	for (i = 0; i + n <= len; i++) {
		if (strncasecmp(hay + i, needle, n))
			continue;
		/* Whole words for short needles such as "nak". */
		if (n <= 4 && ((i > 0 && isalnum((unsigned char)hay[i - 1])) ||
			       (i + n < len && isalnum((unsigned char)hay[i + n]))))
			continue;
		return true;
	}
	return false;
}

/* The two parts every report query shares, as new strings (g_free()):
 * *WORDS the disjunction of REGRESSION_WORDS in parentheses, and
 * *OUTSIDE " AND NOT thread:T" for S's own thread (or ""). */
static void report_words(struct fs_store *store, const struct fs_thread_series *s,
			 char **words, char **outside)
{
	const struct fs_patch *anchor = s->cover ? s->cover : s->patches[0];
	struct fs_store_message own;
	GString *w = g_string_new("(");
	size_t k;

	for (k = 0; k < G_N_ELEMENTS(regression_words); k++) {
		char *quoted = fs_store_quote(regression_words[k]);
		g_string_append_printf(w, "%s%s", k ? " OR " : "", quoted ? quoted : "\"\"");
		g_free(quoted);
	}
	g_string_append(w, ")");
	*words = g_string_free(w, FALSE);
	*outside = g_strdup("");
	memset(&own, 0, sizeof(own));
	if (fs_patch_message_id(anchor) &&
	    fs_store_find_message(store, fs_patch_message_id(anchor), &own, NULL) == 0) {
		char *quoted = fs_store_quote(own.thread_id);
		g_free(*outside);
		*outside = g_strdup_printf(" AND NOT thread:%s", quoted ? quoted : "\"\"");
		g_free(quoted);
	}
	fs_store_message_clear(&own);
}

/* The mail in FILE, parsed, if it is one that may report trouble with a
 * commit; NULL for the user's own mail (fixscan's drafts and digest
 * quote ids and "regression"; so do the replies sent from them), for
 * covers and patch mails of other series (they quote ids and subjects in
 * their shortlogs; only people's mails report), and for a mail that
 * cannot be parsed (it cannot be quoted).  Free with fs_patch_free(). */
static struct fs_patch *open_report(const char *file, const char *const *own)
{
	struct fs_patch *m = NULL;

	if (fs_patch_parse_file(&m, file, NULL) < 0)
		return NULL;
	if (fs_identity_is_own_mail(file, m, own) ||
	    (fs_patch_series(m) && strncasecmp(fs_patch_subject(m), "re:", 3))) {
		fs_patch_free(m);
		return NULL;
	}
	return m;
}

/* Whether the mail M (from open_report()) speaks of the commit HEX12 /
 * SUBJ: the id, without case, in its body or subject, or the subject,
 * exactly, in either. */
static bool names_commit(const struct fs_patch *m, const char *hex12, const char *subj)
{
	const char *msubj = fs_patch_subject(m), *body;
	size_t blen;

	body = fs_patch_body(m, &blen);
	return has_word_ci(body, blen, hex12) || has_word_ci(msubj, strlen(msubj), hex12) ||
	       (*subj && (memmem(body, blen, subj, strlen(subj)) || strstr(msubj, subj)));
}

/* Whether the mail in FILE speaks of the commit HEX12 / SUBJ as a
 * person's report would; *DATE gets its own Date header text (a new
 * string, free()) or NULL. */
static bool hit_names_commit(const char *file, const char *hex12, const char *subj,
			     const char *const *own, char **date)
{
	struct fs_patch *m = open_report(file, own);
	bool named = m && names_commit(m, hex12, subj);

	*date = named && fs_patch_date(m) && *fs_patch_date(m) ? strdup(fs_patch_date(m)) : NULL;
	fs_patch_free(m);
	return named;
}

/* Move HIT into M's storage and add a report of UPSTREAM pointing at it,
 * dated DATE (the mail's own Date text, taken; NULL: the store's time,
 * in UTC). */
static int keep_hit(struct fs_mentions *m, struct fs_store_message *hit, fs_cid upstream,
		    char *date)
{
	size_t n = m->hits_.n;
	struct fs_store_message *hv = realloc(m->hits_.v, (n + 1) * sizeof(*hv));
	struct fs_report_mail *rv;
	char **dv, buf[64];
	struct tm tm;

	if (hv)
		m->hits_.v = hv;
	dv = hv ? realloc(m->dates_, (n + 1) * sizeof(*dv)) : NULL;
	if (dv)
		m->dates_ = dv;
	rv = dv ? realloc(m->reports, (m->nreports + 1) * sizeof(*rv)) : NULL;
	if (!rv) {
		free(date);
		return FS_ENOMEM;
	}
	m->reports = rv;
	hv[n] = *hit;
	memset(hit, 0, sizeof(*hit));
	dv[n] = date;
	if (!date && gmtime_r(&hv[n].date, &tm) &&
	    strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", &tm))
		dv[n] = strdup(buf);
	m->hits_.n++;
	rv[m->nreports].upstream = upstream;
	rv[m->nreports].message_id = hv[n].message_id;
	rv[m->nreports].from = hv[n].from;
	rv[m->nreports].date = dv[n];
	rv[m->nreports].subject = hv[n].subject;
	rv[m->nreports].link = NULL;
	m->nreports++;
	return 0;
}

/* A distinct upstream commit of the series, to be searched. */
struct wanted {
	fs_cid id;
	const char *subj; /* borrowed from the index */
	size_t slen;
	guint64 head;     /* SUBJ's first 8 bytes: its key in the subject table */
	char full[41];    /* the id, lower case */
	char hex[13];     /* abbreviated */
	bool named;       /* a candidate mail names it: search it */
};

/* The reports of the commit W: one store query (the id, abbreviated or
 * not, or the subject as a phrase, with WORDS and OUTSIDE from
 * report_words()), then each hit read to check it really names the
 * commit. */
static int search_commit(struct fs_mentions *m, struct fs_store *store, const struct wanted *w,
			 const char *words, const char *outside, const char *const *own,
			 struct fs_error *err)
{
	struct fs_store_messages found = { NULL, 0 };
	char *quoted = fs_store_quote(w->subj), *q;
	size_t h;
	int rc;

	q = g_strdup_printf("(%s OR %s OR %s) AND %s%s", w->hex, w->full, quoted ? quoted : "\"\"",
			    words, outside);
	g_free(quoted);
	rc = fs_store_search(store, q, &found, err);
	g_free(q);
	for (h = 0; rc == 0 && h < found.n; h++) {
		char *date;

		if (!hit_names_commit(found.v[h].filename, w->hex, w->subj, own, &date))
			continue;
		if (keep_hit(m, &found.v[h], w->id, date) < 0)
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	fs_store_messages_free(&found);
	return rc;
}

/* The tables of the commits V[0..N) that mark_named() looks a mail's
 * words up in. */
struct wanted_tables {
	GHashTable *ids;   /* abbreviated id -> GSList of struct wanted */
	GHashTable *heads; /* first 8 bytes of a subject -> GSList */
	GSList *short_subj; /* subjects of 1 to 7 bytes */
};

static void slist_free(gpointer l)
{
	g_slist_free(l);
}

static void add_to(GHashTable *t, gpointer key, struct wanted *w)
{
	GSList *l = g_hash_table_lookup(t, key);

	g_hash_table_steal(t, key);
	g_hash_table_insert(t, key, g_slist_prepend(l, w));
}

static void tables_init(struct wanted_tables *t, struct wanted *v, size_t n)
{
	size_t i;

	t->ids = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, slist_free);
	t->heads = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, slist_free);
	t->short_subj = NULL;
	for (i = 0; i < n; i++) {
		add_to(t->ids, v[i].hex, &v[i]);
		if (v[i].slen >= sizeof(v[i].head)) {
			memcpy(&v[i].head, v[i].subj, sizeof(v[i].head));
			add_to(t->heads, &v[i].head, &v[i]);
		} else if (v[i].slen) {
			t->short_subj = g_slist_prepend(t->short_subj, &v[i]);
		}
	}
}

static void tables_clear(struct wanted_tables *t)
{
	g_hash_table_destroy(t->ids);
	g_hash_table_destroy(t->heads);
	g_slist_free(t->short_subj);
}

/* Mark the commits of T whose abbreviated id is in TEXT (LEN bytes)
 * without case, as names_commit() compares it: every 12 hex digits in a
 * row, wherever they start in a longer run. */
static void mark_ids(const struct wanted_tables *t, const char *text, size_t len)
{
	size_t i = 0, run, k;
	char key[13];
	GSList *l;

	key[12] = '\0';
	while (i < len) {
		for (run = 0; i + run < len && isxdigit((unsigned char)text[i + run]); run++)
			;
		for (k = 0; run >= 12 && k + 12 <= run; k++) {
			size_t j;
			for (j = 0; j < 12; j++)
				key[j] = g_ascii_tolower(text[i + k + j]);
			for (l = g_hash_table_lookup(t->ids, key); l; l = l->next)
				((struct wanted *)l->data)->named = true;
		}
		i += run ? run : 1;
	}
}

/* Mark the commits of T whose subject is in TEXT (LEN bytes), exactly,
 * as names_commit() looks for it. */
static void mark_subjects(const struct wanted_tables *t, const char *text, size_t len)
{
	guint64 head;
	size_t i;
	GSList *l;

	for (i = 0; i + sizeof(head) <= len; i++) {
		memcpy(&head, text + i, sizeof(head));
		for (l = g_hash_table_lookup(t->heads, &head); l; l = l->next) {
			struct wanted *w = l->data;
			if (w->slen <= len - i && !memcmp(text + i, w->subj, w->slen))
				w->named = true;
		}
	}
	for (l = t->short_subj; l; l = l->next) {
		struct wanted *w = l->data;
		if (memmem(text, len, w->subj, w->slen))
			w->named = true;
	}
}

/* Mark in V[0..N) the commits one of the mails matching the query
 * CANDIDATES names (names_commit() of open_report()).  A commit's own
 * query is CANDIDATES and its id or subject, so it finds candidates
 * only, and a report is a hit names_commit() passes: the commits left
 * unmarked have no report, and need no query.  Each candidate is read
 * once whatever N is. */
static int mark_named(struct wanted *v, size_t n, struct fs_store *store, const char *candidates,
		      const char *const *own, struct fs_error *err)
{
	struct fs_store_messages found = { NULL, 0 };
	struct wanted_tables t;
	size_t h;
	int rc;

	rc = fs_store_search(store, candidates, &found, err);
	if (rc < 0 || !found.n)
		goto out;
	tables_init(&t, v, n);
	for (h = 0; h < found.n; h++) {
		struct fs_patch *m = open_report(found.v[h].filename, own);
		const char *msubj, *body;
		size_t blen;

		if (!m)
			continue;
		msubj = fs_patch_subject(m);
		body = fs_patch_body(m, &blen);
		mark_ids(&t, body, blen);
		mark_ids(&t, msubj, strlen(msubj));
		mark_subjects(&t, body, blen);
		mark_subjects(&t, msubj, strlen(msubj));
		fs_patch_free(m);
	}
	tables_clear(&t);
out:
	fs_store_messages_free(&found);
	return rc;
}

/* The distinct commits of UPSTREAM[0..N), in order of first appearance:
 * patches that share an upstream share its reports, so that a mail is
 * one report of it.  *OUT is a new array (free()), all unmarked. */
static int distinct_commits(struct wanted **out, size_t *nout, const struct fs_index *idx,
			    const fs_cid *upstream, size_t n)
{
	GHashTable *done = g_hash_table_new(g_direct_hash, g_direct_equal);
	struct wanted *v = calloc(n + 1, sizeof(*v));
	size_t i, k = 0;

	*out = v;
	*nout = 0;
	for (i = 0; v && i < n; i++) {
		if (upstream[i] == FS_CID_NONE ||
		    !g_hash_table_add(done, GUINT_TO_POINTER(upstream[i] + 1)))
			continue;
		v[k].id = upstream[i];
		v[k].subj = fs_index_commit_subject(idx, upstream[i]);
		v[k].slen = strlen(v[k].subj);
		fs_index_commit_hex(idx, upstream[i], v[k].full);
		memcpy(v[k].hex, v[k].full, 12);
		k++;
	}
	g_hash_table_destroy(done);
	*nout = k;
	return v ? 0 : FS_ENOMEM;
}

int fs_mentions_reports_limit(struct fs_mentions *m, struct fs_store *store,
			      const struct fs_index *idx, const struct fs_thread_series *s,
			      const fs_cid *upstream, size_t n, const char *const *own,
			      size_t per_commit, struct fs_error *err)
{
	struct wanted *v = NULL;
	char *words, *outside, *candidates;
	size_t i, nv = 0, count = 0;
	int rc;

	if (!s->npatches && !s->cover)
		return 0;
	if (distinct_commits(&v, &nv, idx, upstream, n) < 0) {
		free(v);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	report_words(store, s, &words, &outside);
	candidates = g_strconcat(words, outside, NULL);
	/* One query per commit costs notmuch about a millisecond however
	 * little it finds (one query OR-ing many commits costs far more),
	 * and reading a mail far less.  So when the mails any commit's
	 * query could find are few, read them and ask only for the commits
	 * they name; else ask for every commit. */
	rc = nv ? fs_store_count(store, candidates, &count, err) : 0;
	if (rc == 0 && count <= per_commit * nv)
		rc = mark_named(v, nv, store, candidates, own, err);
	else
		for (i = 0; i < nv; i++)
			v[i].named = true;
	for (i = 0; rc == 0 && i < nv; i++)
		if (v[i].named)
			rc = search_commit(m, store, &v[i], words, outside, own, err);
	g_free(candidates);
	g_free(outside);
	g_free(words);
	free(v);
	return rc;
}

int fs_mentions_reports(struct fs_mentions *m, struct fs_store *store,
			const struct fs_index *idx, const struct fs_thread_series *s,
			const fs_cid *upstream, size_t n, const char *const *own,
			struct fs_error *err)
{
	return fs_mentions_reports_limit(m, store, idx, s, upstream, n, own,
					 FS_MENTIONS_CANDIDATES_PER_COMMIT, err);
}
