/* fixscan: where the mails of a review come from: the loaders. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/source.h"
#include "source-fetch.h"
#include "source-queue.h"

void fs_source_free(struct fs_thread **threads, size_t n)
{
	size_t i;

	for (i = 0; threads && i < n; i++)
		fs_thread_free(threads[i]);
	g_free(threads);
}

/* ---- grouping the mails of an mbox into threads --------------------------- */

/* A union-find over nodes: each message, and each Message-Id a message
 * has or names (a thread's root may be missing from the file, yet the
 * mails answering it belong together). */
struct groups {
	GHashTable *node_of; /* Message-Id (borrowed) -> 1 + node */
	GArray *parent;      /* of guint */
};

static guint find_root(struct groups *g, guint x)
{
	guint *p = (guint *)g->parent->data;

	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static guint new_node(struct groups *g)
{
	guint n = g->parent->len;

	g_array_append_val(g->parent, n);
	return n;
}

static guint node_for_id(struct groups *g, const char *id)
{
	gpointer v = g_hash_table_lookup(g->node_of, id);
	guint n;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	n = new_node(g);
	g_hash_table_insert(g->node_of, (gpointer)id, GUINT_TO_POINTER(n + 1));
	return n;
}

static void join(struct groups *g, guint a, guint b)
{
	guint ra = find_root(g, a), rb = find_root(g, b);

	if (ra != rb)
		((guint *)g->parent->data)[rb] = ra;
}

/* The node of each of the N messages MSGS in NODES, joined with the
 * nodes of the ids they answer. */
static void group_messages(struct groups *g, struct fs_patch **msgs, size_t n, guint *nodes)
{
	size_t i, k, nrefs;

	for (i = 0; i < n; i++) {
		const char *id = fs_patch_message_id(msgs[i]);
		const char *irt = fs_patch_in_reply_to(msgs[i]);
		const char *const *refs = fs_patch_references(msgs[i], &nrefs);

		nodes[i] = id ? node_for_id(g, id) : new_node(g);
		if (irt)
			join(g, nodes[i], node_for_id(g, irt));
		for (k = 0; k < nrefs; k++)
			join(g, nodes[i], node_for_id(g, refs[k]));
	}
}

/* SUBJ past any "Re:" (or "Aw:"), and the spaces after each. */
static const char *past_re(const char *subj)
{
	bool more = true;

	while (more) {
		while (*subj == ' ')
			subj++;
		more = !g_ascii_strncasecmp(subj, "re:", 3) || !g_ascii_strncasecmp(subj, "aw:", 3);
		if (more)
			subj += 3;
	}
	return subj;
}

/* A reply that names no mail it answers (no In-Reply-To, no References:
 * a mail client that dropped them) joins the cover letter among MSGS
 * whose subject its own is, past "Re:": "Re: [PATCH 4.14 00/53]
 * 4.14.128-stable review" answers that review. */
static void group_by_subject(struct groups *g, struct fs_patch **msgs, size_t n,
			     const guint *nodes)
{
	GHashTable *covers = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, nrefs;

	for (i = 0; i < n; i++) {
		const struct fs_series *s = fs_patch_series(msgs[i]);
		const char *subj = fs_patch_subject(msgs[i]);
		if (s && s->index == 0 && subj && past_re(subj) == subj)
			g_hash_table_insert(covers, (gpointer)subj, GUINT_TO_POINTER(nodes[i] + 1));
	}
	for (i = 0; i < n && g_hash_table_size(covers); i++) {
		const char *subj = fs_patch_subject(msgs[i]);
		gpointer v;
		nrefs = 0;
		(void)fs_patch_references(msgs[i], &nrefs);
		if (fs_patch_in_reply_to(msgs[i]) || nrefs || !subj || past_re(subj) == subj)
			continue;
		if ((v = g_hash_table_lookup(covers, past_re(subj))))
			join(g, GPOINTER_TO_UINT(v) - 1, nodes[i]);
	}
	g_hash_table_destroy(covers);
}

/* Sort the N messages MSGS (given away, also on error) into threads:
 * one per group of mails that answer one another, in the order of each
 * group's first mail. */
static int build_threads(struct fs_thread ***out, size_t *nout, struct fs_patch **msgs,
			 size_t n, struct fs_error *err)
{
	struct groups g;
	guint *nodes = calloc(n + 1, sizeof(*nodes));
	struct fs_patch **one = calloc(n + 1, sizeof(*one));
	struct fs_thread **threads = g_try_new0(struct fs_thread *, n + 1);
	bool *done = calloc(n + 1, sizeof(*done));
	size_t i, j, m, nt = 0;
	int rc = 0;

	g.node_of = g_hash_table_new(g_str_hash, g_str_equal);
	g.parent = g_array_new(FALSE, FALSE, sizeof(guint));
	if (!nodes || !one || !threads || !done) {
		for (i = 0; i < n; i++)
			fs_patch_free(msgs[i]);
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	group_messages(&g, msgs, n, nodes);
	group_by_subject(&g, msgs, n, nodes);
	for (i = 0; i < n; i++) {
		guint root;

		if (done[i])
			continue;
		root = find_root(&g, nodes[i]);
		for (m = 0, j = i; j < n; j++)
			if (!done[j] && find_root(&g, nodes[j]) == root) {
				one[m++] = msgs[j];
				done[j] = true;
			}
		if (rc == 0)
			rc = fs_thread_build(&threads[nt], one, m, err);
		else
			for (j = 0; j < m; j++)
				fs_patch_free(one[j]);
		if (rc == 0)
			nt++;
	}
	if (rc == 0) {
		*out = threads;
		*nout = nt;
		threads = NULL;
	}
out:
	fs_source_free(threads, nt);
	g_hash_table_destroy(g.node_of);
	g_array_free(g.parent, TRUE);
	free(done);
	free(one);
	free(nodes);
	return rc;
}

/* Whether any series of the N THREADS has a patch. */
static bool has_patches(struct fs_thread **threads, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < fs_thread_count(threads[i]); k++)
			if (fs_thread_get(threads[i], k)->npatches ||
			    fs_thread_get(threads[i], k)->nreplies)
				return true;
	return false;
}

/* Every message of the mbox PATH, fixscan's own mail left out, in
 * *MSGS (named SHOWN in notes). */
static int read_mbox(GPtrArray *msgs, const char *path, const char *shown,
		     struct fs_review_notes *notes, struct fs_error *err)
{
	struct fs_mail_reader *r = NULL;
	struct fs_patch *p;
	int rc;

	rc = fs_mail_reader_open(&r, path, err);
	while (rc == 0) {
		struct fs_error one = FS_ERROR_INIT;
		int got = fs_mail_reader_next(r, &p, &one);

		if (got == 0)
			break;
		if (got < 0 && !msgs->len) {
			*err = one;
			rc = got;
			break;
		}
		if (got < 0) {
			/* What was read is still a thread to review. */
			char *note = g_strdup_printf("%s; the rest of '%s' is not read",
						     one.message, shown);
			if (notes)
				fs_review_notes_add(notes, note);
			g_free(note);
			break;
		}
		/* Unsent drafts and fixscan's own mail are no part of the
		 * discussion, as in the store. */
		if (fs_identity_is_own_mail(NULL, p, NULL)) {
			fs_patch_free(p);
			continue;
		}
		g_ptr_array_add(msgs, p);
	}
	fs_mail_reader_free(r);
	return rc;
}

/* The threads of the mbox PATH, named SHOWN in messages (NULL: PATH). */
static int load_mbox(struct fs_thread ***out, size_t *nout, const char *path,
		     const char *shown, struct fs_review_notes *notes, struct fs_error *err)
{
	GPtrArray *msgs = g_ptr_array_new();
	size_t i;
	int rc;

	if (!shown)
		shown = strcmp(path, "-") ? path : "standard input";
	rc = read_mbox(msgs, path, shown, notes, err);
	if (rc < 0) {
		for (i = 0; i < msgs->len; i++)
			fs_patch_free(msgs->pdata[i]);
	} else {
		rc = build_threads(out, nout, (struct fs_patch **)msgs->pdata, msgs->len, err);
	}
	g_ptr_array_free(msgs, TRUE);
	if (rc == 0 && !has_patches(*out, *nout)) {
		fs_source_free(*out, *nout);
		*out = NULL;
		*nout = 0;
		rc = fs_error_set(err, FS_ENOTFOUND, "'%s' holds no patch of a stable series",
				  shown);
	}
	return rc;
}

/* FS_SOURCE_FETCH: the thread SRC->tool fetches, read as an mbox from a
 * temporary file; the messages name the program and the id. */
static int load_fetched(struct fs_thread ***out, size_t *nout, const struct fs_source *src,
			struct fs_review_notes *notes, struct fs_error *err)
{
	const char *tool = src->tool ? src->tool : fs_source_fetch_tool();
	char *path = NULL, *shown;
	int rc;

	rc = fs_source_fetch_file(&path, src->what, tool, src->timeout, err);
	if (rc < 0)
		return rc;
	shown = g_strdup_printf("the thread of <%s> from %s", src->what, tool);
	rc = load_mbox(out, nout, path, shown, notes, err);
	if (rc < 0 && rc != FS_ENOTFOUND)
		fs_error_prefix(err, "%s", shown);
	unlink(path);
	g_free(path);
	g_free(shown);
	return rc;
}

int fs_source_load(struct fs_thread ***out, size_t *nout, const struct fs_source *src,
		   struct fs_review_notes *notes, struct fs_error *err)
{
	*out = NULL;
	*nout = 0;
	switch (src->kind) {
	case FS_SOURCE_STORE:
		if (!src->store)
			return fs_error_set(err, FS_EUSAGE, "no notmuch store to search");
		return fs_review_load(out, nout, src->store, src->what, notes, err);
	case FS_SOURCE_MBOX:
		return load_mbox(out, nout, src->what, NULL, notes, err);
	case FS_SOURCE_FETCH:
		return load_fetched(out, nout, src, notes, err);
	case FS_SOURCE_QUEUE:
		return fs_source_load_queue(out, nout, src->what, src->version, err);
	}
	return fs_error_set(err, FS_EUSAGE, "unknown kind of source");
}

/* ---- the notmuch store (moved from review.c) ------------------------------ */

void fs_review_notes_clear(struct fs_review_notes *notes)
{
	size_t i;

	for (i = 0; i < notes->n; i++)
		g_free(notes->v[i]);
	g_free(notes->v);
	notes->v = NULL;
	notes->n = 0;
}

void fs_review_notes_add(struct fs_review_notes *notes, const char *text)
{
	char **g = g_try_renew(char *, notes->v, notes->n + 1);
	char *copy = g_strdup(text);

	if (!g || !copy) {
		/* A note lost to a lack of memory is only a note. */
		g_free(copy);
		if (g)
			notes->v = g;
		return;
	}
	notes->v = g;
	notes->v[notes->n++] = copy;
}

/* The mails of thread ID parsed, unsent drafts left out, and sorted into
 * series in *OUT. */
static int load_thread(struct fs_thread **out, struct fs_store *store, const char *id,
		       struct fs_review_notes *notes, struct fs_error *err)
{
	struct fs_store_messages msgs = { NULL, 0 };
	struct fs_patch **patches = NULL;
	size_t np = 0, k;
	int rc;

	rc = fs_store_thread(store, id, &msgs, err);
	if (rc == 0 && !(patches = calloc(msgs.n + 1, sizeof(*patches))))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	for (k = 0; rc == 0 && k < msgs.n; k++) {
		struct fs_error one = FS_ERROR_INIT;
		if (fs_patch_parse_file(&patches[np], msgs.v[k].filename, &one) < 0) {
			/* One unreadable mail does not stop the review. */
			if (notes)
				fs_review_notes_add(notes, one.message);
			continue;
		}
		/* Unsent drafts and fixscan's own mail are no part of the
		 * discussion.  (Mail the user sent stays: their series is
		 * still theirs to review; mentions leaves out their word.) */
		if (fs_identity_is_own_mail(msgs.v[k].filename, patches[np], NULL)) {
			fs_patch_free(patches[np]);
			patches[np] = NULL;
			continue;
		}
		np++;
	}
	fs_store_messages_free(&msgs);
	if (rc == 0)
		rc = fs_thread_build(out, patches, np, err);
	else
		for (k = 0; k < np; k++)
			fs_patch_free(patches[k]);
	free(patches);
	return rc;
}

int fs_review_load(struct fs_thread ***out, size_t *nout, struct fs_store *store,
		   const char *query, struct fs_review_notes *notes, struct fs_error *err)
{
	struct fs_thread **threads = NULL;
	char **ids = NULL;
	size_t n = 0, i;
	int rc;

	*out = NULL;
	*nout = 0;
	rc = fs_store_threads(store, query, &ids, err);
	if (rc < 0)
		return rc;
	for (i = 0; ids && ids[i]; i++)
		;
	if (!(threads = g_try_new0(struct fs_thread *, i + 1)))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && ids && ids[i]; i++) {
		rc = load_thread(&threads[n], store, ids[i], notes, err);
		if (rc == 0)
			n++;
	}
	if (rc == 0) {
		*out = threads;
		*nout = n;
		threads = NULL;
	}
	for (i = 0; threads && i < n; i++)
		fs_thread_free(threads[i]);
	g_free(threads);
	g_strfreev(ids);
	return rc;
}
