/* fixscan: what the mail archives know about the patches of a series
 * (see listmail.h).  Ask once per batch of commits, read every mail of
 * the answers, sort each into what it is to the series. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "fixscan/listmail.h"
#include "fixscan/identity.h"
#include "fixscan/trailers.h"

/* Leave out what the stable maintainers' tools post about every commit
 * they pick: the review patches ("6.1-stable review patch.  If anyone
 * has any objections..."), AUTOSEL postings and the "added to the
 * stable tree" and FAILED notices (their replies stay: people answer
 * them).  Nothing left out this way is a fix, a report or a backport
 * for the branch; a commit of a popular series is named by dozens of
 * them, and a whole series' answer would be megabytes more. */
const char fs_listmail_tail[] =
	"NOT nq:\"stable review patch\" NOT (s:autosel NOT s:re) NOT (s:\"stable tree\" NOT s:re)";

void fs_listmail_found_clear(struct fs_listmail_found *f)
{
	g_free(f->patches);
	g_free(f->patch_links);
	g_free(f->reports);
	g_free(f->backports);
	if (f->mails_)
		g_ptr_array_free(f->mails_, TRUE);
	if (f->strings_)
		g_ptr_array_free(f->strings_, TRUE);
	memset(f, 0, sizeof(*f));
}

char *fs_listmail_link(const char *base, const char *message_id)
{
	GString *s = g_string_new(base);
	const unsigned char *p;

	for (p = (const unsigned char *)message_id; *p; p++) {
		if (g_ascii_isalnum(*p) || strchr("-._~!$&'()*+,;=:@", *p))
			g_string_append_c(s, (char)*p);
		else
			g_string_append_printf(s, "%%%02X", *p);
	}
	g_string_append_c(s, '/');
	return g_string_free(s, FALSE);
}

/* The search of one series. */
struct search {
	const struct fs_listmail_ask *a;
	GHashTable *wanted;   /* fs_cid + 1 -> its position in WANT + 1 */
	const struct fs_listmail_want *want;
	GHashTable *seen;     /* Message-Ids met (thread's and read ones) */
	GArray *patches, *links, *reports, *backports;
	GPtrArray *mails, *strings;
};

static const char *keep(struct search *s, char *owned)
{
	g_ptr_array_add(s->strings, owned);
	return owned;
}

/* The commit of the series the id ID (12 to 40 hex digits) names,
 * itself or through a stable backport of it, or FS_CID_NONE; *POS gets
 * its position in WANT. */
static fs_cid wanted_commit(const struct search *s, const char *id, size_t *pos)
{
	gpointer v;
	fs_cid c;

	if (fs_index_resolve(s->a->idx, id, &c, NULL) < 0)
		return FS_CID_NONE;
	v = g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(c + 1));
	if (!v && !fs_index_commit_is_mainline(s->a->idx, c)) {
		c = fs_index_upstream_of(s->a->idx, c);
		v = c == FS_CID_NONE ? NULL : g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(c + 1));
	}
	if (!v)
		return FS_CID_NONE;
	*pos = GPOINTER_TO_UINT(v) - 1;
	return c;
}

static bool is_reply(const char *subject)
{
	while (*subject == ' ' || *subject == '\t')
		subject++;
	return !strncasecmp(subject, "re:", 3) || !strncasecmp(subject, "fwd:", 4) ||
	       !strncasecmp(subject, "aw:", 3) || !strncasecmp(subject, "fw:", 3);
}

/* Whether the series prefix SER is that of a backport posted for the
 * kernel series VERSION: it names VERSION ("[PATCH 6.1.y]", "[PATCH
 * 5.15/6.1]"), or only "stable" ("[PATCH stable]"); AUTOSEL's picks are
 * candidates, not backports people made. */
static bool for_branch(const struct fs_series *ser, const char *version)
{
	size_t i;

	if (!version || ser->autosel || ser->version_range)
		return false;
	if (!ser->versions)
		return ser->prefix && strcasestr(ser->prefix, "stable");
	for (i = 0; ser->versions[i]; i++)
		if (!strcmp(ser->versions[i], version))
			return true;
	return false;
}

/* Whether BODY is a stable maintainer's review patch ("6.1-stable review
 * patch.  If anyone has any objections..."), which a query leaves out
 * but a mirror may not. */
static bool is_review_patch(const char *body)
{
	const char *nl = strchr(body, '\n');
	size_t l = nl ? (size_t)(nl - body) : strlen(body);

	return l < 120 && g_strstr_len(body, l, "-stable review patch");
}

/* The backport M for the branch: a record for each commit of the series
 * its upstream line names, when it came after the series' patch. */
static void read_backport(struct search *s, const struct fs_patch *m, const char *link)
{
	size_t i, n = 0, pos = 0;
	const char *const *ups = fs_trailers_upstream(fs_patch_trailers(m), &n);
	size_t blen;

	if (is_review_patch(fs_patch_body(m, &blen)))
		return;
	for (i = 0; i < n; i++) {
		struct fs_listmail_backport b;
		fs_cid c = strlen(ups[i]) >= 12 ? wanted_commit(s, ups[i], &pos) : FS_CID_NONE;
		time_t posted = c == FS_CID_NONE ? 0 : s->want[pos].posted;

		/* The posting the patch was made from came before it. */
		if (c == FS_CID_NONE || !posted || fs_patch_time(m) <= posted)
			continue;
		b.upstream = c;
		b.mail = m;
		b.link = link;
		g_array_append_val(s->backports, b);
	}
}

/* The report M: a record for each commit of the series it blames. */
static void read_report(struct search *s, const struct fs_patch *m, const char *link)
{
	struct fs_culprit *v = NULL;
	size_t len, i, pos;
	const char *body = fs_patch_body(m, &len);
	size_t n = fs_culprits_find(body, len, &v);

	for (i = 0; i < n; i++) {
		struct fs_listmail_report r;
		fs_cid c = wanted_commit(s, v[i].id, &pos);
		size_t k;
		bool dup = false;

		for (k = 0; k < s->reports->len && !dup; k++) {
			const struct fs_listmail_report *o = &g_array_index(s->reports, struct fs_listmail_report, k);
			dup = o->mail == m && o->upstream == c;
		}
		if (c == FS_CID_NONE || dup)
			continue;
		r.upstream = c;
		r.mail = m;
		r.link = link;
		r.how = v[i].how;
		r.line = keep(s, v[i].line);
		v[i].line = NULL;
		g_array_append_val(s->reports, r);
	}
	fs_culprits_free(v, n);
}

/* Sort the mail M, read from BASE, into what it is to the series.
 * Returns whether it is kept (the caller then keeps M). */
static bool read_mail(struct search *s, struct fs_patch *m, const char *base)
{
	const struct fs_series *ser = fs_patch_series(m);
	const char *id = fs_patch_message_id(m), *link;
	size_t before = s->patches->len + s->reports->len + s->backports->len;

	if (!id || g_hash_table_contains(s->seen, id) ||
	    fs_identity_is_own_mail(NULL, m, s->a->own))
		return false;
	link = keep(s, fs_listmail_link(base, id));
	if (ser && !is_reply(fs_patch_subject(m))) {
		if (!ser->version && !ser->autosel && !ser->versions) {
			g_array_append_val(s->patches, m);
			g_array_append_val(s->links, link);
		} else if (for_branch(ser, s->a->version)) {
			read_backport(s, m, link);
		}
	} else {
		read_report(s, m, link);
	}
	if (s->patches->len + s->reports->len + s->backports->len == before)
		return false;
	g_hash_table_add(s->seen, (gpointer)id);
	return true;
}

/* Read the answer in MBOX (from BASE): every mail, none trusted. */
static void read_answer(struct search *s, const char *mbox, const char *base)
{
	struct fs_mail_reader *r = NULL;
	struct fs_patch *m;

	if (fs_mail_reader_open(&r, mbox, NULL) < 0)
		return;
	while (fs_mail_reader_next(r, &m, NULL) == 1) {
		if (read_mail(s, m, base))
			g_ptr_array_add(s->mails, m);
		else
			fs_patch_free(m);
	}
	fs_mail_reader_free(r);
}

/* "nq:<12 hex digits>*" for each distinct commit of WANT, in order. */
static char **terms_of(struct search *s, const struct fs_listmail_want *want, size_t n, size_t *nt)
{
	char **terms = g_new0(char *, n + 1);
	size_t i;

	*nt = 0;
	for (i = 0; i < n; i++) {
		char hex[41];
		if (want[i].upstream == FS_CID_NONE ||
		    g_hash_table_contains(s->wanted, GUINT_TO_POINTER(want[i].upstream + 1)))
			continue;
		g_hash_table_insert(s->wanted, GUINT_TO_POINTER(want[i].upstream + 1),
				    GUINT_TO_POINTER(i + 1));
		fs_index_commit_hex(s->a->idx, want[i].upstream, hex);
		terms[(*nt)++] = g_strdup_printf("nq:%.12s*", hex);
	}
	return terms;
}

/* The series' own mails: never evidence about themselves. */
static void see_thread(struct search *s)
{
	const struct fs_thread_series *t = s->a->series;
	size_t i;

	if (!t)
		return;
	if (t->cover && fs_patch_message_id(t->cover))
		g_hash_table_add(s->seen, (gpointer)fs_patch_message_id(t->cover));
	for (i = 0; i < t->npatches; i++)
		if (fs_patch_message_id(t->patches[i]))
			g_hash_table_add(s->seen, (gpointer)fs_patch_message_id(t->patches[i]));
	for (i = 0; i < t->nreplies; i++)
		if (fs_patch_message_id(t->replies[i]))
			g_hash_table_add(s->seen, (gpointer)fs_patch_message_id(t->replies[i]));
}

/* Records of commit order, then mail date. */
static int by_commit_then_date(const struct search *s, fs_cid a, const struct fs_patch *ma,
			       fs_cid b, const struct fs_patch *mb)
{
	size_t pa = GPOINTER_TO_UINT(g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(a + 1)));
	size_t pb = GPOINTER_TO_UINT(g_hash_table_lookup(s->wanted, GUINT_TO_POINTER(b + 1)));

	if (pa != pb)
		return pa < pb ? -1 : 1;
	if (fs_patch_time(ma) != fs_patch_time(mb))
		return fs_patch_time(ma) < fs_patch_time(mb) ? -1 : 1;
	/* the same second: by Message-Id, the same every run */
	return g_strcmp0(fs_patch_message_id(ma), fs_patch_message_id(mb));
}

static int report_order(gconstpointer x, gconstpointer y, gpointer data)
{
	const struct fs_listmail_report *a = x, *b = y;

	return by_commit_then_date(data, a->upstream, a->mail, b->upstream, b->mail);
}

static int backport_order(gconstpointer x, gconstpointer y, gpointer data)
{
	const struct fs_listmail_backport *a = x, *b = y;

	return by_commit_then_date(data, a->upstream, a->mail, b->upstream, b->mail);
}

/* Sort the patch mails of S oldest first (their links with them). */
static void sort_patches(struct search *s)
{
	size_t n = s->patches->len, i, j;

	/* Insertion sort: a series' fixes are a handful. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			const struct fs_patch **p = &g_array_index(s->patches, const struct fs_patch *, 0);
			const char **l = &g_array_index(s->links, const char *, 0), *lt;
			const struct fs_patch *pt;

			if (fs_patch_time(p[j - 1]) <= fs_patch_time(p[j]))
				break;
			pt = p[j - 1], p[j - 1] = p[j], p[j] = pt;
			lt = l[j - 1], l[j - 1] = l[j], l[j] = lt;
		}
}

/* Move what S found into OUT. */
static void hand_over(struct fs_listmail_found *out, struct search *s)
{
	sort_patches(s);
	g_array_sort_with_data(s->reports, report_order, s);
	g_array_sort_with_data(s->backports, backport_order, s);
	out->npatches = s->patches->len;
	out->patches = (const struct fs_patch **)(void *)g_array_free(s->patches, FALSE);
	out->patch_links = (const char **)(void *)g_array_free(s->links, FALSE);
	out->nreports = s->reports->len;
	out->reports = (struct fs_listmail_report *)(void *)g_array_free(s->reports, FALSE);
	out->nbackports = s->backports->len;
	out->backports = (struct fs_listmail_backport *)(void *)g_array_free(s->backports, FALSE);
	out->mails_ = s->mails;
	out->strings_ = s->strings;
}

int fs_listmail_review(struct fs_listmail_found *out, const struct fs_listmail_ask *a,
		   const struct fs_listmail_want *want, size_t n, struct fs_error *err)
{
	struct search s;
	char **terms, **queries;
	size_t nt, nq, b, q;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.a = a;
	s.want = want;
	s.wanted = g_hash_table_new(g_direct_hash, g_direct_equal);
	s.seen = g_hash_table_new(g_str_hash, g_str_equal);
	s.patches = g_array_new(FALSE, FALSE, sizeof(const struct fs_patch *));
	s.links = g_array_new(FALSE, FALSE, sizeof(const char *));
	s.reports = g_array_new(FALSE, FALSE, sizeof(struct fs_listmail_report));
	s.backports = g_array_new(FALSE, FALSE, sizeof(struct fs_listmail_backport));
	s.mails = g_ptr_array_new_with_free_func((GDestroyNotify)fs_patch_free);
	s.strings = g_ptr_array_new_with_free_func(g_free);
	see_thread(&s);
	terms = terms_of(&s, want, n, &nt);
	queries = fs_archive_queries((const char *const *)terms, nt, fs_listmail_tail, &nq);
	for (b = 0; a->bases && a->bases[b]; b++) {
		for (q = 0; q < nq; q++) {
			char *mbox = NULL;
			out->searches++;
			if (fs_archive_search(a->client, a->bases[b], queries[q], &mbox, NULL, NULL) == 0 &&
			    mbox)
				read_answer(&s, mbox, a->bases[b]);
			g_free(mbox);
		}
	}
	g_strfreev(queries);
	g_strfreev(terms);
	hand_over(out, &s);
	g_hash_table_destroy(s.seen);
	g_hash_table_destroy(s.wanted);
	(void)err;
	return 0;
}
