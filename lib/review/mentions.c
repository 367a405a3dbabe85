/* fixscan: the replies of a thread, read and placed on the patches they
 * speak of (the store's reports: mentions-search.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "mentions-read.h"

void fs_mentions_clear(struct fs_mentions *m)
{
	size_t i;

	for (i = 0; m->dates_ && i < m->hits_.n; i++)
		free(m->dates_[i]);
	free(m->dates_);
	for (i = 0; m->lines_ && i < m->nobjections; i++)
		g_free(m->lines_[i]);
	for (i = 0; m->objections && i < m->nobjections; i++)
		g_strfreev(m->objections[i].named);
	free(m->lines_);
	fs_store_messages_free(&m->hits_);
	free(m->reports);
	free(m->objections);
	memset(m, 0, sizeof(*m));
}

/* Whether the L digits at P (in TEXT) are written as a commit: '<id>
 * ("subject")', or after "commit" or "introduced" (regzbot's), a colon,
 * a bracket or spaces between ("commit <id>", "introduced: <id>", "first
 * bad commit: [<id>]"), or after "..", the end of a range of them. */
static bool written_as_commit(const char *text, const char *p, size_t l)
{
	const char *b = p;

	if (!strncmp(p + l, " (\"", 3) || (p - text >= 2 && !strncmp(p - 2, "..", 2)))
		return true;
	while (b > text && (b[-1] == ' ' || b[-1] == ':' || b[-1] == '['))
		b--;
	return (b - text >= 6 && !g_ascii_strncasecmp(b - 6, "commit", 6)) ||
	       (b - text >= 10 && !g_ascii_strncasecmp(b - 10, "introduced", 10));
}

/* The commit ids in TEXT: words of 8 to 40 hex digits with a digit and
 * a letter among them (or 12 digits or more written as a commit:
 * written_as_commit()), lowered, each once, at most 16.
 * NULL-terminated (g_strfreev()); *N their number. */
static char **named_ids(const char *text, size_t *n)
{
	GPtrArray *v = g_ptr_array_new();
	const char *p = text;

	while (*p && v->len < 16) {
		size_t l = 0, k;
		bool digit = false, letter = false, seen = false;
		if (p != text && (isalnum((unsigned char)p[-1]) || p[-1] == '/' || p[-1] == '=')) {
			p++;
			continue;
		}
		while (isxdigit((unsigned char)p[l])) {
			digit |= isdigit((unsigned char)p[l]);
			letter |= !isdigit((unsigned char)p[l]);
			l++;
		}
		if (l >= 8 && l <= 40 && digit && !isalnum((unsigned char)p[l]) &&
		    (letter || (l >= 12 && written_as_commit(text, p, l)))) {
			char *id = g_ascii_strdown(p, l);
			for (k = 0; k < v->len && !seen; k++)
				seen = !strcmp(v->pdata[k], id);
			if (seen)
				g_free(id);
			else
				g_ptr_array_add(v, id);
		}
		p += l ? l : 1;
	}
	*n = v->len;
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

/* Whether TEXT names patch P: its title, or the first 12 digits of an
 * upstream id it gives. */
static bool names_patch(const char *text, const struct fs_patch *p)
{
	const char *title = fs_patch_title(p);
	const char *const *ups;
	size_t n, k;

	if (title && strlen(title) >= 12 && strcasestr(text, title))
		return true;
	ups = fs_patch_trailers(p) ? fs_trailers_upstream(fs_patch_trailers(p), &n) : NULL;
	for (k = 0; ups && k < n; k++) {
		char hex12[13];
		snprintf(hex12, sizeof(hex12), "%.12s", ups[k]);
		if (strlen(hex12) == 12 && strcasestr(text, hex12))
			return true;
	}
	return false;
}

/* Whether WORD (LEN bytes) stands in TEXT as a whole word or path part. */
static bool has_token(const char *text, const char *word, size_t len)
{
	const char *at;

	for (at = memmem(text, strlen(text), word, len); at;
	     at = memmem(at + 1, strlen(at + 1), word, len)) {
		bool before = at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
		bool after = !(isalnum((unsigned char)at[len]) || at[len] == '_');
		if (before && after)
			return true;
	}
	return false;
}

/* Whether TEXT names what patch P changes: a file its diff touches (the
 * path from its top directory), or a function a hunk of it is in (a
 * name of 6 or more characters, as a trace or a compiler names it). */
static bool names_patch_code(const char *text, const struct fs_patch *p)
{
	size_t blen;
	const char *body = fs_patch_body(p, &blen), *q = body, *end = body + blen;

	while (q && q < end) {
		const char *nl = memchr(q, '\n', end - q), *e = nl ? nl : end;
		if (e - q > 13 && !strncmp(q, "diff --git a/", 13)) {
			const char *path = q + 13, *sp = memchr(path, ' ', e - path);
			if (sp && sp - path >= 6 && has_token(text, path, sp - path))
				return true;
		} else if (e - q > 4 && !strncmp(q, "@@ ", 3)) {
			const char *ctx = memmem(q + 3, e - q - 3, " @@ ", 4), *paren, *w;
			paren = ctx ? memchr(ctx, '(', e - ctx) : NULL;
			for (w = paren; w && w > ctx && (isalnum((unsigned char)w[-1]) || w[-1] == '_'); w--)
				;
			if (paren && paren - w >= 6 && has_token(text, w, paren - w))
				return true;
		}
		q = nl ? nl + 1 : NULL;
	}
	return false;
}

/* The number of the one patch of S that NAMED finds in TEXT; -1 when
 * none does, -2 when several do. */
static int only_named(const struct fs_thread_series *s, const char *text,
		      bool (*named)(const char *, const struct fs_patch *))
{
	int found = -1;
	size_t i;

	for (i = 0; i < s->npatches; i++) {
		if (!named(text, s->patches[i]))
			continue;
		if (found >= 0)
			return -2;
		found = fs_thread_patch_number(s->patches[i]);
	}
	return found;
}

/* Whether S holds the mail of its patch NN. */
static bool has_patch(const struct fs_thread_series *s, int nn)
{
	size_t i;

	for (i = 0; i < s->npatches; i++)
		if (fs_thread_patch_number(s->patches[i]) == nn)
			return true;
	return false;
}

/* The one announced patch whose mail S lacks and whose title (from the
 * cover's shortlog) TEXT names; -1 when none does, -2 when several do. */
static int only_named_absent(const struct fs_thread_series *s, const char *text)
{
	int nn, found = -1;

	for (nn = 1; s->titles && nn <= s->total; nn++) {
		if (strlen(s->titles[nn]) < 12 || !strcasestr(text, s->titles[nn]) || has_patch(s, nn))
			continue;
		if (found >= 0)
			return -2;
		found = nn;
	}
	return found;
}

/* The number of the patch of S (its mail there or not) whose title LINE
 * (LEN bytes) holds; -1 when none does, -2 when several do. */
static int title_in_line(const struct fs_thread_series *s, const char *line, size_t len)
{
	char *l = g_strndup(line, len);
	int found = -1, nn;
	size_t i;

	for (i = 0; i < s->npatches && found != -2; i++) {
		const char *t = fs_patch_title(s->patches[i]);
		if (t && strlen(t) >= 12 && strcasestr(l, t))
			found = found == -1 ? fs_thread_patch_number(s->patches[i]) : -2;
	}
	for (nn = 1; s->titles && nn <= s->total && found != -2; nn++)
		if (strlen(s->titles[nn]) >= 12 && strcasestr(l, s->titles[nn]) && !has_patch(s, nn))
			found = found == -1 ? nn : -2;
	g_free(l);
	return found;
}

/* The one patch of S named by the last quoted line above the replier's
 * own text ("> Ann <ann@x>\n>     foo: fix bar\n\nThe above breaks
 * the build"): a reply to the cover that keeps one entry of its
 * shortlog speaks of that patch.  -1 when no such line names one, or
 * such lines name several. */
static int quoted_above(const struct fs_thread_series *s, const char *body, size_t blen)
{
	const char *q = body, *end = body + blen, *last = NULL;
	size_t lastlen = 0;
	int found = -1, nn;

	while (q < end) {
		const char *nl = memchr(q, '\n', end - q), *e = nl ? nl : end, *c = q;
		while (c < e && (*c == ' ' || *c == '\t'))
			c++;
		if (c < e && *c == '>') {
			const char *t = c;
			while (t < e && (*t == '>' || *t == ' ' || *t == '\t'))
				t++;
			if (t < e) {
				last = c;
				lastlen = e - c;
			}
		} else if (c < e && last) {
			nn = title_in_line(s, last, lastlen);
			if (nn == -2 || (nn > 0 && found > 0 && nn != found))
				return -1;
			if (nn > 0)
				found = nn;
			last = NULL;
		}
		q = nl ? nl + 1 : end;
	}
	return found;
}

/* The number of the patch of S that REPLY speaks of: the one it answers,
 * else (a reply to the cover, or to a mail not in the thread) the one
 * patch its own words name, or the only patch of a series of one; -1
 * when it names none or several.  *ABSENT is the number of an announced
 * patch whose mail S lacks that the reply answers or names (then the
 * result is -1), else 0. */
static int placed_patch(const struct fs_thread_series *s, const struct fs_patch *reply,
			const char *body, size_t blen, int *absent)
{
	const struct fs_patch *target = fs_thread_replied_patch(s, reply);
	char *own;
	int found, gone;

	*absent = 0;
	if (target)
		return fs_thread_patch_number(target);
	if ((*absent = fs_thread_replied_absent(s, reply)) > 0)
		return -1;
	if (s->total == 1 && s->npatches == 1)
		return fs_thread_patch_number(s->patches[0]);
	own = fs_mentions_own_words(body, blen, NULL);
	found = only_named(s, own, names_patch);
	gone = only_named_absent(s, own);
	/* none in its own words: the one patch quoted just above them */
	if (found == -1 && gone == -1 && (found = quoted_above(s, body, blen)) > 0 &&
	    !has_patch(s, found)) {
		gone = found;
		found = -1;
	}
	/* no subject or id: a file or function of one patch, in a trace */
	if (found == -1 && gone == -1)
		found = only_named(s, own, names_patch_code);
	g_free(own);
	if (found >= 0 && gone == -1)
		return found;
	if (gone > 0 && found == -1)
		*absent = gone;
	return -1;
}

/* Where each reply of S is, in AT[] and ABSENT[] (placed_patch()); a
 * reply that names no patch is where the reply it answers is (a
 * maintainer's "dropped, thanks" under a tester's report on one patch
 * goes with that report). */
static void place_all(const struct fs_thread_series *s, int *at, int *absent)
{
	GHashTable *pos = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, k;

	for (i = 0; i < s->nreplies; i++) {
		const char *body, *mid = fs_patch_message_id(s->replies[i]);
		size_t blen;
		body = fs_patch_body(s->replies[i], &blen);
		at[i] = placed_patch(s, s->replies[i], body, blen, &absent[i]);
		if (mid)
			g_hash_table_insert(pos, (gpointer)mid, GSIZE_TO_POINTER(i + 1));
	}
	for (i = 0; i < s->nreplies; i++) {
		const struct fs_patch *up = s->replies[i];
		gpointer v;
		for (k = 0; at[i] == -1 && !absent[i] && k < 16 && fs_patch_in_reply_to(up); k++) {
			if (!(v = g_hash_table_lookup(pos, fs_patch_in_reply_to(up))))
				break;
			up = s->replies[GPOINTER_TO_SIZE(v) - 1];
			at[i] = at[GPOINTER_TO_SIZE(v) - 1];
			absent[i] = absent[GPOINTER_TO_SIZE(v) - 1];
		}
	}
	g_hash_table_destroy(pos);
}

/* Whether the cover P opens a stable review cycle (the stable scripts
 * write so), not a developer's series of backports. */
static bool review_cover(const struct fs_patch *p)
{
	size_t len;
	const char *body = fs_patch_body(p, &len);

	return body && g_strstr_len(body, len < 2000 ? (gssize)len : 2000, "stable review cycle");
}

char **fsmn_stable_senders(const struct fs_thread_series *s, const char *const *more)
{
	GPtrArray *a = g_ptr_array_new();
	size_t i;

	for (; more && *more; more++)
		g_ptr_array_add(a, g_strdup(*more));

	for (i = 0; i <= s->npatches; i++) {
		const struct fs_patch *p = i ? s->patches[i - 1] : s->cover;
		const char *from = p ? fs_patch_from(p) : NULL, *lt, *gt;
		enum fs_reply_parent k = fs_mentions_parent_kind(p);

		if (!from || (k != FS_PARENT_COVER && k != FS_PARENT_REVIEW && k != FS_PARENT_AUTOSEL))
			continue;
		/* a developer's cover of their own backports is no review's */
		if (k == FS_PARENT_COVER && !review_cover(p))
			continue;
		lt = strrchr(from, '<');
		gt = lt ? strchr(lt, '>') : NULL;
		g_ptr_array_add(a, lt && gt ? g_strndup(lt + 1, (gsize)(gt - lt - 1)) : g_strdup(from));
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* The mail of S that REPLY answers, for its context: the patch it
 * replies to, else the patch it was placed on (NN AT), else the cover. */
static const struct fs_patch *parent_of(const struct fs_thread_series *s,
					const struct fs_patch *reply, int at)
{
	const struct fs_patch *p = fs_thread_replied_patch(s, reply);
	size_t i;

	for (i = 0; !p && at > 0 && i < s->npatches; i++)
		if (fs_thread_patch_number(s->patches[i]) == at)
			p = s->patches[i];
	return p ? p : s->cover;
}

/* The context of REPLY, answering PARENT, in S with STANDING (may be
 * NULL) and the stable SENDERS: who wrote it, by the mails and, for a
 * stranger to them, by the upstream commit of the patch it answers. */
static void context_of(struct fs_reply_context *c, const struct fs_thread_series *s,
		       const struct fs_patch *reply, const struct fs_patch *parent,
		       const struct fs_reply_standing *standing, const char *const *senders)
{
	const struct fs_patch *answered;
	char *msg = NULL;
	size_t i;

	fs_mentions_reply_context(c, reply, parent, senders);
	if (c->answers_reply && (answered = fsmn_reply_by_id(s, fs_patch_in_reply_to(reply))))
		c->answered_body = fs_patch_body(answered, &c->answered_len);
	if (c->role != FS_ROLE_OTHER || !standing || !standing->upstream_message || !parent)
		return;
	for (i = 0; i < s->npatches; i++)
		if (s->patches[i] == parent)
			break;
	if (i < s->npatches && standing->upstream_message(standing->data, parent, &msg) == 0 && msg)
		fs_mentions_context_signers(c, reply, msg, strlen(msg));
	g_free(msg);
}

int fs_mentions_objections(struct fs_mentions *m, const struct fs_thread_series *s,
			   const char *const *own, const struct fs_reply_standing *standing,
			   struct fs_error *err)
{
	char **senders;
	size_t i, cap = m->nobjections + s->nreplies + 1;
	struct fs_objection *ov = realloc(m->objections, cap * sizeof(*ov));
	int *at = calloc(2 * s->nreplies + 1, sizeof(*at));
	char **lv;

	if (ov)
		m->objections = ov;
	lv = ov && at ? realloc(m->lines_, cap * sizeof(*lv)) : NULL;
	if (!lv) {
		free(at);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	m->lines_ = lv;
	place_all(s, at, at + s->nreplies);
	senders = fsmn_stable_senders(s, standing ? standing->stable : NULL);
	for (i = 0; i < s->nreplies; i++) {
		const struct fs_patch *reply = s->replies[i];
		struct fs_objection *o = &m->objections[m->nobjections];
		struct fs_reply_context ctx;
		enum fs_reply_class cls;
		const char *body;
		size_t blen;
		char *line;

		/* The user's own word is not evidence to cite back to them. */
		if (fs_identity_is_own_mail(fs_patch_file(reply), reply, own))
			continue;
		body = fs_patch_body(reply, &blen);
		context_of(&ctx, s, reply, parent_of(s, reply, at[i]), standing,
			   (const char *const *)senders);
		line = fs_mentions_classify_in(body, blen, &ctx, &cls);
		if (!line)
			continue;
		m->lines_[m->nobjections] = line;
		memset(o, 0, sizeof(*o));
		/* -1: the series' own (a reply naming no one patch) */
		o->series_index = at[i];
		o->absent_index = at[s->nreplies + i];
		o->message_id = fs_patch_message_id(reply);
		o->from = fs_patch_from(reply);
		o->date = fs_patch_date(reply);
		o->line = line;
		o->cls = cls;
		o->named = NULL;
		o->nnamed = 0;
		o->link = NULL;
		if (cls == FS_REPLY_NEEDS_ALSO) {
			char *text = fs_mentions_asked_words(body, blen);
			o->named = named_ids(text, &o->nnamed);
			g_free(text);
		}
		m->nobjections++;
	}
	fsmn_read_course(m->objections, m->nobjections, s, (const char *const *)senders);
	g_strfreev(senders);
	free(at);
	return 0;
}

/* The one patch (PATCH_OF) the ids of 12 hex digits or more in REPLY's
 * own words resolve to, through IDX; -1 when none, -2 when several. */
static int patch_by_commit(const struct fs_patch *reply, const struct fs_index *idx,
			   int (*patch_of)(void *data, fs_cid c), void *data)
{
	size_t blen, n, i;
	const char *body = fs_patch_body(reply, &blen);
	char *own = fs_mentions_own_words(body, blen, NULL);
	char **ids = named_ids(own, &n);
	int found = -1;

	for (i = 0; i < n && found != -2; i++) {
		fs_cid c[2], u;
		int nn;
		if (strlen(ids[i]) < 12 || fs_index_resolve_all(idx, ids[i], c, 2) != 1)
			continue;
		u = fs_index_commit_is_mainline(idx, c[0]) ? c[0] : fs_index_upstream_of(idx, c[0]);
		if (u == FS_CID_NONE || (nn = patch_of(data, u)) < 0 || nn == found)
			continue;
		found = found == -1 ? nn : -2;
	}
	g_strfreev(ids);
	g_free(own);
	return found;
}

void fs_mentions_place_by_commit(struct fs_mentions *m, const struct fs_thread_series *s,
				 const struct fs_index *idx, int (*patch_of)(void *data, fs_cid c),
				 void *data)
{
	size_t i, k, moved = 0;

	for (i = 0; i < m->nobjections; i++) {
		struct fs_objection *o = &m->objections[i];
		const struct fs_patch *reply;
		int nn;
		/* a reply to a patch's mail is that patch's */
		if (o->absent_index || o->cls == FS_REPLY_NEEDS_ALSO ||
		    !(reply = fsmn_reply_by_id(s, o->message_id)) ||
		    (o->series_index >= 0 && (fs_thread_replied_patch(s, reply) || s->total == 1)))
			continue;
		nn = patch_by_commit(reply, idx, patch_of, data);
		if (nn > 0 && o->series_index == -1) {
			o->series_index = nn;
			moved++;
		} else if ((nn > 0 && nn != o->series_index) || (nn == -2 && o->series_index >= 0)) {
			/* its words name two patches: the series' */
			o->series_index = -1;
		}
	}
	/* a reply naming nothing goes where the reply it answers went */
	for (i = 0; moved && i < m->nobjections; i++) {
		struct fs_objection *o = &m->objections[i];
		const struct fs_patch *up = fsmn_reply_by_id(s, o->message_id);
		for (k = 0; o->series_index == -1 && !o->absent_index && up && k < 16; k++) {
			size_t j;
			up = fsmn_reply_by_id(s, fs_patch_in_reply_to(up));
			for (j = 0; up && j < m->nobjections; j++)
				if (m->objections[j].message_id &&
				    !strcmp(m->objections[j].message_id, fs_patch_message_id(up)))
					o->series_index = m->objections[j].series_index;
		}
	}
}

/* The one mainline commit of IDX whose subject is SUBJ, or FS_CID_NONE
 * when none or several. */
static fs_cid mainline_by_subject(const struct fs_index *idx, const char *subj)
{
	fs_cid c[8], found = FS_CID_NONE;
	size_t n = fs_index_find_subject(idx, subj, c, 8), i, mainline = 0;

	for (i = 0; i < n && i < 8; i++)
		if (fs_index_commit_is_mainline(idx, c[i])) {
			found = c[i];
			mainline++;
		}
	return mainline == 1 ? found : FS_CID_NONE;
}

/* The ids of the mainline commits TEXT names by subject in double
 * quotes, each once, at most 16, or NULL when none. */
static char **ids_by_subject(const struct fs_index *idx, const char *text, size_t *n)
{
	GPtrArray *v = g_ptr_array_new();
	const char *open = strchr(text, '"'), *close;

	while (open && (close = strchr(open + 1, '"')) && v->len < 16) {
		size_t len = close - open - 1, k;
		char *subj = g_strndup(open + 1, len), hex[41];
		fs_cid c = len >= 8 && len <= 200 && !strchr(subj, '\n') ?
			   mainline_by_subject(idx, subj) : FS_CID_NONE;
		bool seen = false;
		if (c != FS_CID_NONE) {
			fs_index_commit_hex(idx, c, hex);
			for (k = 0; k < v->len && !seen; k++)
				seen = !strcmp(v->pdata[k], hex);
			if (!seen)
				g_ptr_array_add(v, g_strdup(hex));
		}
		g_free(subj);
		open = strchr(close + 1, '"');
	}
	*n = v->len;
	if (!v->len) {
		g_ptr_array_free(v, TRUE);
		return NULL;
	}
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

int fs_mentions_name_by_subject(struct fs_mentions *m, const struct fs_thread_series *s,
				const struct fs_index *idx)
{
	size_t i, blen;

	for (i = 0; i < m->nobjections; i++) {
		struct fs_objection *o = &m->objections[i];
		const struct fs_patch *reply;
		const char *body;
		char *own;
		if (o->cls != FS_REPLY_NEEDS_ALSO || o->nnamed || !(reply = fsmn_reply_by_id(s, o->message_id)))
			continue;
		body = fs_patch_body(reply, &blen);
		if (!(own = fs_mentions_own_words(body, blen, NULL)))
			return FS_ENOMEM;
		g_strfreev(o->named);
		o->named = ids_by_subject(idx, own, &o->nnamed);
		g_free(own);
	}
	return 0;
}
