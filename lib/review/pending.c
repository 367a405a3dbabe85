/* fixscan: fixes on their way to mainline, from the mail store. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/pending.h"
#include "fixscan/trailers.h"

/* The shortest Fixes: id that counts: shorter ones name too many commits
 * in a kernel's history to be trusted from a mail. */
#define MIN_ID_LEN 8

void fs_pending_clear(struct fs_pending *p)
{
	free(p->v);
	if (p->strings_)
		g_ptr_array_free(p->strings_, TRUE);
	p->v = NULL;
	p->n = 0;
	p->strings_ = NULL;
}

/* A record found, with the keys it is sorted by. */
struct found_fix {
	struct fs_pending_fix fix;
	size_t order; /* of its commit in UPSTREAM */
	size_t seq;   /* of its mail in the search result (oldest first) */
};

/* What one search needs. */
struct pending_search {
	const struct fs_index *idx;
	GHashTable *wanted; /* fs_cid + 1 -> its order + 1 */
	const char *const *own;
	GArray *found;      /* struct found_fix */
	GPtrArray *strings;
	const char *link;   /* of the mail being read (archives), or NULL */
};

/* The commit of the abbreviated ID if it is one of S's, else
 * FS_CID_NONE: an id of MIN_ID_LEN digits or more that names one commit,
 * or a stable backport of one. */
static fs_cid wanted_commit(const struct pending_search *s, const char *id, size_t *order)
{
	fs_cid c;
	gpointer v;

	if (!id || strlen(id) < MIN_ID_LEN || fs_index_resolve(s->idx, id, &c, NULL) < 0)
		return FS_CID_NONE;
	v = g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(c + 1));
	if (!v && !fs_index_commit_is_mainline(s->idx, c)) {
		c = fs_index_upstream_of(s->idx, c);
		v = c == FS_CID_NONE ? NULL : g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(c + 1));
	}
	if (!v)
		return FS_CID_NONE;
	*order = GPOINTER_TO_UINT(v) - 1;
	return c;
}

/* Whether mainline has the patch mail M as a commit already: a mainline
 * commit with its title, or a mainline fix of U with its diff. */
static bool in_mainline(const struct fs_index *idx, const struct fs_patch *m, fs_cid u)
{
	struct fs_index_fix *fixes = NULL;
	fs_cid same[8];
	size_t i, n = fs_index_find_subject(idx, fs_patch_title(m), same, G_N_ELEMENTS(same));
	const char *body;
	size_t blen;
	int nf;
	bool there = false;

	for (i = 0; i < n && i < G_N_ELEMENTS(same); i++)
		if (fs_index_commit_is_mainline(idx, same[i]))
			return true;
	/* Without a diff there is nothing to compare: no walk of U's fixes. */
	if (!fs_patch_has_diff(m))
		return false;
	nf = fs_index_fixes_of(idx, u, &fixes);
	body = fs_patch_body(m, &blen);
	for (i = 0; nf > 0 && i < (size_t)nf && !there; i++)
		there = fixes[i].depth == 1 && fs_index_commit_is_mainline(idx, fixes[i].fixer) &&
			fs_index_diff_matches(idx, fixes[i].fixer, body, blen) == 1;
	g_free(fixes);
	return there;
}

static const char *keep(struct pending_search *s, const char *text)
{
	char *copy = g_strdup(text);

	if (copy)
		g_ptr_array_add(s->strings, copy);
	return copy;
}

/* Add a record of the mail M fixing (or reverting) U, once per commit. */
static void add_fix(struct pending_search *s, const struct fs_patch *m, fs_cid u, size_t order,
		    size_t seq, bool revert)
{
	struct found_fix f;
	guint i;

	for (i = 0; i < s->found->len; i++) {
		const struct found_fix *g = &g_array_index(s->found, struct found_fix, i);
		if (g->seq == seq && g->fix.upstream == u)
			return;
	}
	if (in_mainline(s->idx, m, u))
		return;
	memset(&f, 0, sizeof(f));
	f.fix.upstream = u;
	f.fix.message_id = keep(s, fs_patch_message_id(m));
	f.fix.subject = keep(s, fs_patch_subject(m));
	f.fix.title = keep(s, fs_patch_title(m));
	f.fix.from = keep(s, fs_patch_from(m));
	f.fix.date = keep(s, fs_patch_date(m));
	f.fix.link = s->link ? keep(s, s->link) : NULL;
	f.fix.revert = revert;
	f.order = order;
	f.seq = seq;
	g_array_append_val(s->found, f);
}

/* Whether SUBJECT (as notmuch has it) is that of a patch mail of no
 * stable series: a "[PATCH ...]" prefix without a kernel version, not a
 * reply or a forward. */
static bool mainline_patch_subject(const char *subject)
{
	struct fs_series ser;
	bool ok;

	if (!subject)
		return false;
	while (*subject == ' ' || *subject == '\t')
		subject++;
	if (!strncasecmp(subject, "re:", 3) || !strncasecmp(subject, "fwd:", 4) ||
	    !strncasecmp(subject, "aw:", 3))
		return false;
	memset(&ser, 0, sizeof(ser));
	if (!fs_series_parse(subject, &ser, NULL))
		return false;
	ok = ser.version == NULL && !ser.autosel;
	fs_series_clear(&ser);
	return ok;
}

/* Record the commits of S the patch mail M (number SEQ) fixes or
 * reverts. */
static void read_fixes(struct pending_search *s, const struct fs_patch *m, size_t seq)
{
	const struct fs_trailer_ref *fixes;
	const struct fs_trailer_revert *reverts;
	size_t i, nf = 0, nr = 0, order = 0;
	fs_cid u;

	fixes = fs_trailers_fixes(fs_patch_trailers(m), &nf);
	for (i = 0; i < nf; i++)
		if ((u = wanted_commit(s, fixes[i].id, &order)) != FS_CID_NONE)
			add_fix(s, m, u, order, seq, false);
	reverts = fs_trailers_reverts(fs_patch_trailers(m), &nr);
	for (i = 0; i < nr; i++)
		if ((u = wanted_commit(s, reverts[i].id, &order)) != FS_CID_NONE)
			add_fix(s, m, u, order, seq, true);
}

/* Read the candidate HIT (number SEQ) and record the commits of S it
 * fixes or reverts. */
static void read_candidate(struct pending_search *s, const struct fs_store_message *hit,
			   size_t seq)
{
	struct fs_patch *m = NULL;

	if (!mainline_patch_subject(hit->subject) ||
	    fs_patch_parse_file(&m, hit->filename, NULL) < 0)
		return;
	if (!fs_identity_is_own_mail(hit->filename, m, s->own) &&
	    mainline_patch_subject(fs_patch_subject(m)))
		read_fixes(s, m, seq);
	fs_patch_free(m);
}

static int by_order(const void *a, const void *b)
{
	const struct found_fix *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The query for every candidate mail of the series S: patch mails with a
 * Fixes: tag or a revert line and a word that begins with the first
 * MIN_ID_LEN hex digits of one of the commits WANTED, outside S's thread.
 * notmuch expands each such prefix to the few words of the store that
 * have it, so that however large the store, only mails that may name a
 * commit of the series are read. */
static char *candidates_query(struct fs_store *store, const struct fs_thread_series *s,
			      const struct fs_index *idx, GHashTable *wanted)
{
	const struct fs_patch *anchor = s->cover ? s->cover : s->patches[0];
	struct fs_store_message own;
	GString *q = g_string_new("subject:patch AND (fixes OR \"reverts commit\") AND (");
	GHashTableIter it;
	gpointer key;
	char hex[41], *quoted = NULL;
	bool first = true;

	g_hash_table_iter_init(&it, wanted);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		fs_index_commit_hex(idx, (fs_cid)(GPOINTER_TO_UINT(key) - 1), hex);
		g_string_append_printf(q, "%s%.*s*", first ? "" : " OR ", MIN_ID_LEN, hex);
		first = false;
	}
	g_string_append_c(q, ')');
	memset(&own, 0, sizeof(own));
	if (fs_patch_message_id(anchor) &&
	    fs_store_find_message(store, fs_patch_message_id(anchor), &own, NULL) == 0)
		quoted = fs_store_quote(own.thread_id);
	if (quoted)
		g_string_append_printf(q, " AND NOT thread:%s", quoted);
	g_free(quoted);
	fs_store_message_clear(&own);
	return g_string_free(q, FALSE);
}

/* Move the records of S into P, sorted. */
static int keep_found(struct fs_pending *p, struct pending_search *s, struct fs_error *err)
{
	struct fs_pending_fix *v;
	guint i;

	if (!s->found->len)
		return 0;
	g_array_sort(s->found, by_order);
	v = realloc(p->v, (p->n + s->found->len) * sizeof(*v));
	if (!v)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	p->v = v;
	for (i = 0; i < s->found->len; i++)
		p->v[p->n++] = g_array_index(s->found, struct found_fix, i).fix;
	if (!p->strings_)
		p->strings_ = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < s->strings->len; i++)
		g_ptr_array_add(p->strings_, g_ptr_array_index(s->strings, i));
	g_ptr_array_set_free_func(s->strings, NULL);
	return 0;
}

/* The commits of UPSTREAM[0..N) S looks for, each once, in the order of
 * their first appearance; returns how many. */
static size_t want_all(struct pending_search *s, const fs_cid *upstream, size_t n)
{
	size_t i, nwanted = 0;

	s->wanted = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (i = 0; i < n; i++)
		if (upstream[i] != FS_CID_NONE &&
		    !g_hash_table_contains(s->wanted, GUINT_TO_POINTER(upstream[i] + 1)))
			g_hash_table_insert(s->wanted, GUINT_TO_POINTER(upstream[i] + 1),
					    GUINT_TO_POINTER(++nwanted));
	return nwanted;
}

int fs_pending_from_store(struct fs_pending *p, struct fs_store *store,
			  const struct fs_index *idx, const struct fs_thread_series *s,
			  const fs_cid *upstream, size_t n, const char *const *own,
			  struct fs_error *err)
{
	struct fs_store_messages found = { NULL, 0 };
	struct pending_search ps;
	size_t i, nwanted = 0;
	char *q;
	int rc;

	if (!s->npatches && !s->cover)
		return 0;
	memset(&ps, 0, sizeof(ps));
	ps.idx = idx;
	ps.own = own;
	nwanted = want_all(&ps, upstream, n);
	rc = 0;
	if (nwanted) {
		q = candidates_query(store, s, idx, ps.wanted);
		rc = fs_store_search(store, q, &found, err);
		g_free(q);
	}
	ps.found = g_array_new(FALSE, FALSE, sizeof(struct found_fix));
	ps.strings = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; rc == 0 && i < found.n; i++)
		if (!found.v[i].gone)
			read_candidate(&ps, &found.v[i], i);
	if (rc == 0)
		rc = keep_found(p, &ps, err);
	g_ptr_array_free(ps.strings, TRUE);
	g_array_free(ps.found, TRUE);
	g_hash_table_destroy(ps.wanted);
	fs_store_messages_free(&found);
	return rc;
}

/* The record of P for U whose subject is SUBJECT's (normalised), or
 * NULL. */
static struct fs_pending_fix *same_fix(struct fs_pending *p, fs_cid u, const char *subject)
{
	char *want = fs_trailers_normalize_subject(subject);
	struct fs_pending_fix *found = NULL;
	size_t i;

	for (i = 0; want && i < p->n && !found; i++) {
		char *have;
		if (p->v[i].upstream != u || p->v[i].commit || !p->v[i].title)
			continue;
		have = fs_trailers_normalize_subject(p->v[i].title);
		if (have && !strcmp(have, want))
			found = &p->v[i];
		g_free(have);
	}
	g_free(want);
	return found;
}

static const char *keep_in(struct fs_pending *p, const char *text)
{
	char *copy = g_strdup(text);

	if (!p->strings_)
		p->strings_ = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(p->strings_, copy);
	return copy;
}

/* Insert R after the last record of P for R's commit (or at the end). */
static int insert_after_commit(struct fs_pending *p, const struct fs_pending_fix *r)
{
	struct fs_pending_fix *v = realloc(p->v, (p->n + 1) * sizeof(*v));
	size_t at = p->n, i;

	if (!v)
		return -1;
	p->v = v;
	for (i = 0; i < p->n; i++)
		if (v[i].upstream == r->upstream)
			at = i + 1;
	memmove(v + at + 1, v + at, (p->n - at) * sizeof(*v));
	v[at] = *r;
	p->n++;
	return 0;
}

int fs_pending_from_index(struct fs_pending *p, const struct fs_index *idx,
			  const fs_cid *upstream, size_t n, struct fs_error *err)
{
	struct fs_index_pending found[32];
	size_t i, j, k, nf;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && upstream[j] != upstream[i]; j++)
			;
		if (j < i || upstream[i] == FS_CID_NONE)
			continue;
		nf = fs_index_pending_fixes(idx, upstream[i], found, G_N_ELEMENTS(found));
		for (k = 0; k < nf && k < G_N_ELEMENTS(found); k++) {
			struct fs_pending_fix *m = same_fix(p, upstream[i], found[k].subject);
			struct fs_pending_fix r;

			if (m) {
				m->commit = keep_in(p, found[k].hex);
				m->ref = keep_in(p, found[k].ref);
				continue;
			}
			memset(&r, 0, sizeof(r));
			r.upstream = upstream[i];
			r.subject = keep_in(p, found[k].subject);
			r.title = r.subject;
			r.commit = keep_in(p, found[k].hex);
			r.ref = keep_in(p, found[k].ref);
			r.revert = found[k].revert;
			if (!r.subject || !r.commit || !r.ref || insert_after_commit(p, &r) < 0)
				return fs_error_set(err, FS_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* The record of P of the mail MESSAGE_ID fixing U, or NULL. */
static struct fs_pending_fix *same_mail(struct fs_pending *p, fs_cid u, const char *message_id)
{
	size_t i;

	for (i = 0; message_id && i < p->n; i++)
		if (p->v[i].upstream == u && p->v[i].message_id &&
		    !strcmp(p->v[i].message_id, message_id))
			return &p->v[i];
	return NULL;
}

int fs_pending_from_mails(struct fs_pending *p, const struct fs_index *idx,
			  const struct fs_patch *const *mails, const char *const *links, size_t n,
			  const fs_cid *upstream, size_t nu, const char *const *own,
			  struct fs_error *err)
{
	struct pending_search ps;
	size_t i;
	int rc = 0;

	memset(&ps, 0, sizeof(ps));
	ps.idx = idx;
	ps.own = own;
	want_all(&ps, upstream, nu);
	ps.found = g_array_new(FALSE, FALSE, sizeof(struct found_fix));
	ps.strings = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < n; i++) {
		if (fs_identity_is_own_mail(NULL, mails[i], own) ||
		    !mainline_patch_subject(fs_patch_subject(mails[i])))
			continue;
		ps.link = links ? links[i] : NULL;
		read_fixes(&ps, mails[i], i);
	}
	g_array_sort(ps.found, by_order);
	if (!p->strings_)
		p->strings_ = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < ps.strings->len; i++)
		g_ptr_array_add(p->strings_, g_ptr_array_index(ps.strings, i));
	g_ptr_array_set_free_func(ps.strings, NULL);
	for (i = 0; rc == 0 && i < ps.found->len; i++) {
		const struct fs_pending_fix *f = &g_array_index(ps.found, struct found_fix, i).fix;
		struct fs_pending_fix *known = same_mail(p, f->upstream, f->message_id);

		if (known)
			known->link = f->link;
		else if (insert_after_commit(p, f) < 0)
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	g_ptr_array_free(ps.strings, TRUE);
	g_array_free(ps.found, TRUE);
	g_hash_table_destroy(ps.wanted);
	return rc;
}
