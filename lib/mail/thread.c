/* fixscan: sorting out a stable review thread. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/thread.h"
#include "fixscan/version.h"

struct series_priv {
	struct fs_thread_series pub;
	size_t patches_cap, replies_cap;
	bool single;  /* an un-numbered patch: a series of one, joined by no other */
};

struct fs_thread {
	struct fs_patch **msgs;
	size_t nmsgs;
	struct series_priv *series;
	size_t nseries;
	/* Message-Id -> 1 + index of the series holding it as cover or patch */
	GHashTable *where;
};

static bool is_reply_subject(const char *s)
{
	while (*s == ' ')
		s++;
	return !strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3) ||
	       !strncasecmp(s, "fwd:", 4);
}

/* An un-numbered patch is a backport sent on its own when its prefix
 * names a kernel series (or AUTOSEL) or it starts its thread; a plain
 * "[PATCH] x" offered in the middle of a discussion is a reply. */
static bool is_single_patch(const struct fs_patch *p, const struct fs_series *s)
{
	size_t nrefs = 0;

	if (s->version || s->versions || s->autosel || fs_patch_header(p, "X-KernelTest-Branch"))
		return true;
	(void)fs_patch_references(p, &nrefs);
	return !nrefs && !fs_patch_in_reply_to(p);
}

int fs_thread_patch_number(const struct fs_patch *p)
{
	const struct fs_series *s = fs_patch_series(p);

	if (!s || is_reply_subject(fs_patch_subject(p)))
		return -1;
	if (s->index < 0)
		return is_single_patch(p, s) ? 1 : -1;
	return s->index;
}

static int patch_number(const struct fs_patch *p)
{
	return fs_thread_patch_number(p);
}

/* The K-th nearest message P answers: In-Reply-To, then References from
 * the last (the nearest) to the first; NULL past the end. */
static const char *ancestor(const struct fs_patch *p, size_t k)
{
	const char *irt = fs_patch_in_reply_to(p);
	const char *const *refs;
	size_t n;

	if (irt) {
		if (k == 0)
			return irt;
		k--;
	}
	refs = fs_patch_references(p, &n);
	return k < n ? refs[n - 1 - k] : NULL;
}

static int push(const struct fs_patch ***v, size_t *n, size_t *cap, const struct fs_patch *p)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		const struct fs_patch **g = realloc(*v, nc * sizeof(*g));
		if (!g)
			return -1;
		*v = g;
		*cap = nc;
	}
	(*v)[(*n)++] = p;
	return 0;
}

static struct series_priv *new_series(struct fs_thread *t)
{
	struct series_priv *g = realloc(t->series, (t->nseries + 1) * sizeof(*g));

	if (!g)
		return NULL;
	t->series = g;
	memset(&g[t->nseries], 0, sizeof(*g));
	g[t->nseries].pub.total = -1;
	return &g[t->nseries++];
}

/* A total is what the sender claims: one past any real series is taken
 * as unknown, so that a subject cannot make us allocate or list a
 * million missing patches. */
static int sane_total(int total)
{
	return total > 0 && total <= FS_THREAD_MAX_TOTAL ? total : -1;
}

static int cmp_patch_number(const void *a, const void *b)
{
	const struct fs_patch *x = *(const struct fs_patch *const *)a;
	const struct fs_patch *y = *(const struct fs_patch *const *)b;
	int nx = patch_number(x), ny = patch_number(y);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	/* Earlier arrivals first, so the first copy of a duplicate stays. */
	if (fs_patch_time(x) != fs_patch_time(y))
		return fs_patch_time(x) < fs_patch_time(y) ? -1 : 1;
	return 0;
}

/* "4.4.11-rc1" -> "v4.4.10"; "4.4.1" -> "v4.4". */
char *fs_thread_base_of(const char *release)
{
	struct fs_version v, base;
	char name[FS_VERSION_NAME_MAX];

	if (!fs_version_parse(release, &v) || !fs_version_base(&v, &base) ||
	    !fs_version_format(&base, name, sizeof(name)))
		return NULL;
	return g_strdup(name);
}

/* The first stable release (with an optional -rcN) after KEY in TEXT. */
static char *release_after(const char *text, size_t len, const char *key)
{
	const char *p = text, *end = text + len;
	size_t klen = strlen(key);

	while (p && p < end) {
		const char *hit = memmem(p, end - p, key, klen);
		const char *q;
		if (!hit)
			return NULL;
		q = hit + klen;
		while (q < end && *q == ' ')
			q++;
		/* Without a key, a release starts a word: not "4.11.2"
		 * inside "3.14.11.2". */
		if (!klen && q > text && (isdigit((unsigned char)q[-1]) || q[-1] == '.'))
			q = end;
		if (q < end && isdigit((unsigned char)*q)) {
			struct fs_version v;
			size_t k = fs_version_scan(q, (size_t)(end - q), &v);
			/* ... and ends one: not "4.4.11" of "4.4.11.2" */
			if (k && fs_version_is_stable(&v) &&
			    (q + k == end || (q[k] != '.' && !isdigit((unsigned char)q[k]))))
				return g_strndup(q, k);
		}
		/* An empty key matches where it starts: step past it. */
		p = hit + (klen ? klen : 1);
	}
	return NULL;
}

/* A stable branch name, "linux-4.4.y", anywhere in TEXT, a word of its
 * own at its end. */
static char *branch_in(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t pre = strlen(FS_VERSION_BRANCH_PREFIX);

	while (p < end) {
		const char *hit = memmem(p, end - p, FS_VERSION_BRANCH_PREFIX, pre);
		struct fs_version v;
		size_t k;
		if (!hit)
			return NULL;
		k = fs_version_branch_scan(hit, (size_t)(end - hit), &v);
		if (k && (hit + k == end || !isalnum((unsigned char)hit[k])))
			return g_strndup(hit, k);
		p = hit + pre;
	}
	return NULL;
}

/* What the cover (or the first patch) says about branch, release, base and
 * deadline. */
static int describe(struct series_priv *sp)
{
	struct fs_thread_series *s = &sp->pub;
	const struct fs_patch *src = s->cover ? s->cover : (s->npatches ? s->patches[0] : NULL);
	const struct fs_series *ser;
	const char *h, *body;
	char branch[FS_VERSION_NAME_MAX];
	size_t blen = 0, i;

	/* replies alone: the kernel series their subjects answer */
	for (i = 0; !src && i < s->nreplies; i++)
		if ((ser = fs_patch_series(s->replies[i])) && ser->version)
			src = s->replies[i];
	/* or the branch a report or request they answer names */
	for (i = 0; !src && !s->version && i < s->nreplies; i++)
		if (fs_subject_names_stable(fs_patch_subject(s->replies[i]), &s->version) && s->version &&
		    fs_version_branch_name(s->version, branch, sizeof(branch))) {
			if (!(s->branch = g_strdup(branch)))
				return -1;
			s->branch_source = "subject";
		}
	if (!src)
		return 0;
	ser = fs_patch_series(src);
	if (ser && ser->version && !(s->version = g_strdup(ser->version)))
		return -1;
	body = fs_patch_body(src, &blen);
	if ((h = fs_patch_header(src, "X-KernelTest-Branch")) && *h) {
		if (!(s->branch = g_strdup(h)))
			return -1;
		s->branch_source = "X-KernelTest-Branch";
	}
	if ((h = fs_patch_header(src, "X-KernelTest-Version")) && *h) {
		if (!(s->release = g_strdup(h)))
			return -1;
		if ((s->base = fs_thread_base_of(h)))
			s->base_source = "X-KernelTest-Version";
	}
	if (!s->release && s->cover) {
		s->release = release_after(body, blen, "stable review cycle for the");
		if (!s->release) {
			const char *subj = fs_patch_title(s->cover);
			s->release = release_after(subj, strlen(subj), "");
		}
		if (s->release && (s->base = fs_thread_base_of(s->release)))
			s->base_source = "cover letter";
	}
	if (!s->branch && s->cover && (s->branch = branch_in(body, blen)))
		s->branch_source = "cover letter";
	if (!s->branch && s->version && fs_version_branch_name(s->version, branch, sizeof(branch))) {
		if (!(s->branch = g_strdup(branch)))
			return -1;
		s->branch_source = "subject";
	}
	if ((h = fs_patch_header(src, "X-KernelTest-Deadline")) && *h) {
		s->deadline = g_strdup(h);
	} else if (s->cover) {
		const char *hit = memmem(body, blen, "Responses should be made by ", 28);
		if (hit) {
			const char *e = memchr(hit, '\n', body + blen - hit);
			size_t l = (e ? e : body + blen) - (hit + 28);
			while (l && (hit[28 + l - 1] == '.' || hit[28 + l - 1] == ' '))
				l--;
			s->deadline = g_strndup(hit + 28, l);
		}
	}
	return 0;
}

/* Whether LINE (LEN bytes) ends the shortlog: a rule or the diffstat. */
static bool ends_shortlog(const char *line, size_t len)
{
	return (len >= 5 && !strncmp(line, "-----", 5)) || (len >= 9 && !strncmp(line, "Diffstat:", 9));
}

/* The titles of the cover's "Pseudo-Shortlog of commits:" in its order:
 * each the indented line under an author line. */
static GPtrArray *shortlog_lines(const char *body, size_t blen)
{
	const char *at = memmem(body, blen, "Pseudo-Shortlog of commits:", 27), *end = body + blen;
	const char *q = at ? memchr(at, '\n', end - at) : NULL;
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	bool after_author = false;

	while (q && q < end) {
		const char *l = q + 1, *nl = memchr(l, '\n', end - l), *e = nl ? nl : end;
		if (ends_shortlog(l, e - l))
			break;
		if (e > l && (*l == ' ' || *l == '\t')) {
			if (after_author)
				g_ptr_array_add(v, g_strstrip(g_strndup(l, e - l)));
			after_author = false;
		} else {
			after_author = e > l;
		}
		q = nl;
	}
	return v;
}

/* S's titles from its cover's shortlog (see thread.h), when it lists
 * total + 1 commits, the first the release's own, and every patch mail
 * S holds has the title listed at its number. */
static int read_shortlog(struct fs_thread_series *s)
{
	const char *body;
	size_t blen, i;
	GPtrArray *v;
	int nn;

	if (!s->cover || s->total < 1)
		return 0;
	body = fs_patch_body(s->cover, &blen);
	v = shortlog_lines(body, blen);
	if (v->len != (size_t)s->total + 1 || strncmp(v->pdata[0], "Linux ", 6)) {
		g_ptr_array_free(v, TRUE);
		return 0;
	}
	if (!(s->titles = calloc(s->total + 1, sizeof(*s->titles)))) {
		g_ptr_array_free(v, TRUE);
		return -1;
	}
	for (nn = 1; nn <= s->total; nn++)
		s->titles[nn] = g_strdup(v->pdata[s->total - nn + 1]);
	g_ptr_array_free(v, TRUE);
	for (i = 0; i < s->npatches; i++) {
		const char *title = fs_patch_title(s->patches[i]);
		nn = patch_number(s->patches[i]);
		if (nn >= 1 && nn <= s->total && title && g_ascii_strcasecmp(title, s->titles[nn]))
			break;
	}
	if (i < s->npatches) {
		for (nn = 1; nn <= s->total; nn++)
			g_free(s->titles[nn]);
		free(s->titles);
		s->titles = NULL;
	}
	return 0;
}

static int finish_series(struct series_priv *sp)
{
	struct fs_thread_series *s = &sp->pub;
	size_t i, out = 0;
	int k, have_total = s->total > 0;

	if (s->npatches > 1) /* a cover alone has no array at all */
		qsort(s->patches, s->npatches, sizeof(*s->patches), cmp_patch_number);
	for (i = 0; i < s->npatches; i++) {
		if (out && patch_number(s->patches[out - 1]) == patch_number(s->patches[i])) {
			s->duplicates++;
			continue;
		}
		s->patches[out++] = s->patches[i];
	}
	s->npatches = out;
	if (!have_total)
		for (i = 0; i < s->npatches; i++) {
			const struct fs_series *ser = fs_patch_series(s->patches[i]);
			if (ser && sane_total(ser->total) > s->total)
				s->total = ser->total;
		}
	if (s->total > 0) {
		s->missing = calloc(s->total, sizeof(*s->missing));
		if (!s->missing)
			return -1;
		for (k = 1, i = 0; k <= s->total; k++) {
			while (i < s->npatches && patch_number(s->patches[i]) < k)
				i++;
			if (i == s->npatches || patch_number(s->patches[i]) != k)
				s->missing[s->nmissing++] = k;
		}
	}
	if (read_shortlog(s) < 0)
		return -1;
	return describe(sp);
}

/* Series K as a hash value and back: 0 is "absent" to GHashTable. */
#define WHERE_VALUE(k) GSIZE_TO_POINTER((k) + 1)

static void remember(struct fs_thread *t, const struct fs_patch *p, size_t k)
{
	const char *mid = fs_patch_message_id(p);

	/* The table borrows the ids from the messages, which outlive it. */
	if (mid && !g_hash_table_contains(t->where, mid))
		g_hash_table_insert(t->where, (gpointer)mid, WHERE_VALUE(k));
}

/* The series holding the nearest message P answers, as cover (COVERS_ONLY)
 * or as cover or patch; NULL when P answers none of them. */
static struct series_priv *nearest_series(struct fs_thread *t, const struct fs_patch *p,
					  bool covers_only)
{
	const char *mid;
	size_t k;

	for (k = 0; (mid = ancestor(p, k)); k++) {
		gpointer v = g_hash_table_lookup(t->where, mid);
		struct series_priv *sp;
		if (!v)
			continue;
		sp = &t->series[GPOINTER_TO_SIZE(v) - 1];
		/* A cover may have no Message-Id at all. */
		if (!covers_only || (sp->pub.cover && fs_patch_message_id(sp->pub.cover) &&
				     !strcmp(fs_patch_message_id(sp->pub.cover), mid)))
			return sp;
	}
	return NULL;
}

static bool same_version(const struct fs_series *a, const struct fs_series *b)
{
	return (!a->version && !b->version) ||
	       (a->version && b->version && !strcmp(a->version, b->version));
}

/* A numbered patch that answers no cover: the one covered series of the
 * thread when its numbering fits (threading broken by a mail client),
 * else the coverless series of its version, revision and total. */
static struct series_priv *series_without_cover(struct fs_thread *t, const struct fs_patch *p)
{
	const struct fs_series *a = fs_patch_series(p);
	struct series_priv *covered = NULL;
	size_t k, ncovered = 0;

	for (k = 0; k < t->nseries; k++)
		if (t->series[k].pub.cover) {
			covered = &t->series[k];
			ncovered++;
		}
	if (ncovered == 1 && t->nseries == 1 &&
	    (covered->pub.total <= 0 || covered->pub.total == a->total) &&
	    same_version(a, fs_patch_series(covered->pub.cover)))
		return covered;
	for (k = 0; k < t->nseries; k++) {
		const struct fs_thread_series *s = &t->series[k].pub;
		const struct fs_series *b = s->npatches ? fs_patch_series(s->patches[0]) : NULL;
		if (!s->cover && !t->series[k].single && b && a->total == b->total &&
		    a->revision == b->revision && same_version(a, b))
			return &t->series[k];
	}
	return NULL;
}

/* Each Message-Id once (the same mail stored twice is one), and a series
 * for each cover. */
static int add_messages_and_covers(struct fs_thread *t, struct fs_patch **msgs, size_t n)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i;

	for (i = 0; i < n; i++) {
		const char *mid = fs_patch_message_id(msgs[i]);
		if (mid && g_hash_table_contains(seen, mid)) {
			fs_patch_free(msgs[i]);
			continue;
		}
		if (mid)
			g_hash_table_add(seen, (gpointer)mid);
		t->msgs[t->nmsgs++] = msgs[i];
	}
	g_hash_table_destroy(seen);
	for (i = 0; i < t->nmsgs; i++) {
		struct series_priv *sp;
		if (patch_number(t->msgs[i]) != 0)
			continue;
		if (!(sp = new_series(t)))
			return -1;
		sp->pub.cover = t->msgs[i];
		sp->pub.total = sane_total(fs_patch_series(t->msgs[i])->total);
		remember(t, t->msgs[i], t->nseries - 1);
	}
	return 0;
}

/* Patches join the nearest cover they answer (an -rc2 posted in reply to
 * the -rc1 cover names both, its own last); an un-numbered patch is a
 * series of its own. */
static int add_patches(struct fs_thread *t, bool *used)
{
	size_t i;

	for (i = 0; i < t->nmsgs; i++) {
		struct fs_patch *p = t->msgs[i];
		struct series_priv *sp = NULL;
		int nn = patch_number(p);

		if (nn == 0)
			used[i] = true;
		if (nn < 1)
			continue;
		if (fs_patch_series(p)->index >= 0) {
			sp = nearest_series(t, p, true);
			if (!sp)
				sp = series_without_cover(t, p);
		}
		if (!sp) {
			if (!(sp = new_series(t)))
				return -1;
			sp->single = fs_patch_series(p)->index < 0;
			if (sp->single)
				sp->pub.total = 1;
		}
		if (push(&sp->pub.patches, &sp->pub.npatches, &sp->patches_cap, p))
			return -1;
		remember(t, p, sp - t->series);
		used[i] = true;
	}
	return 0;
}

/* Replies go with the series of the nearest cover or patch they answer,
 * else the first series. */
static int add_replies(struct fs_thread *t, const bool *used)
{
	size_t i;

	for (i = 0; i < t->nmsgs; i++) {
		struct fs_patch *p = t->msgs[i];
		struct series_priv *sp;
		if (used[i])
			continue;
		sp = nearest_series(t, p, false);
		if (!sp && t->nseries)
			sp = &t->series[0];
		if (sp && push(&sp->pub.replies, &sp->pub.nreplies, &sp->replies_cap, p))
			return -1;
	}
	return 0;
}

/* Whether P answers something of a stable series: its subject, past
 * "Re:", has a patch prefix for stable, or names a stable tree or
 * review ("Re: [PATCH net] x" answers a mainline patch). */
static bool answers_stable(const struct fs_patch *p)
{
	const char *subj = fs_patch_subject(p);
	const struct fs_series *s = fs_patch_series(p);

	if (!fs_patch_in_reply_to(p) && !is_reply_subject(subj))
		return false;
	/* a series prefix for stable: a kernel series, AUTOSEL, "stable" */
	if (s && (s->versions || s->autosel || (s->prefix && strcasestr(s->prefix, "stable"))))
		return true;
	/* a robot's report on stable-rc, a backport request: no patch */
	if (!s && fs_subject_names_stable(subj, NULL))
		return true;
	return strstr(subj, "stable tree") || strstr(subj, "stable review");
}

/* A thread whose patch mails are absent (a partial fetch, a reply to a
 * failed-to-apply notice) is one series of replies, without cover or
 * patches, so that what they say is still read. */
/* The total the replies of a series without patch mails give in their
 * subjects ("Re: [PATCH 4.19 053/105] ..."), when all that give one
 * agree; else -1.  It numbers the absent patches they answer. */
static int replies_total(const struct fs_thread_series *s)
{
	int total = -1;
	size_t i;

	for (i = 0; i < s->nreplies; i++) {
		const struct fs_series *ser = fs_patch_series(s->replies[i]);
		int t = ser ? sane_total(ser->total) : -1;

		if (t < 0)
			continue;
		if (total > 0 && t != total)
			return -1;
		total = t;
	}
	return total;
}

static int add_patchless_series(struct fs_thread *t, const bool *used)
{
	struct series_priv *sp = NULL;
	size_t i;

	for (i = 0; i < t->nmsgs; i++) {
		if (used[i] || !answers_stable(t->msgs[i]))
			continue;
		if (!sp && !(sp = new_series(t)))
			return -1;
		if (push(&sp->pub.replies, &sp->pub.nreplies, &sp->replies_cap, t->msgs[i]))
			return -1;
	}
	if (sp)
		sp->pub.total = replies_total(&sp->pub);
	return 0;
}

int fs_thread_build(struct fs_thread **out, struct fs_patch **msgs, size_t n,
		    struct fs_error *err)
{
	struct fs_thread *t = calloc(1, sizeof(*t));
	size_t i, k;
	bool *used = NULL;

	*out = NULL;
	if (!t || !(t->msgs = calloc(n ? n : 1, sizeof(*t->msgs))) ||
	    !(used = calloc(n ? n : 1, sizeof(*used)))) {
		for (i = 0; i < n; i++)
			fs_patch_free(msgs[i]);
		if (t)
			free(t->msgs);
		free(t);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	t->where = g_hash_table_new(g_str_hash, g_str_equal);
	if (add_messages_and_covers(t, msgs, n) < 0 || add_patches(t, used) < 0 ||
	    add_replies(t, used) < 0 || (!t->nseries && add_patchless_series(t, used) < 0))
		goto oom;
	for (k = 0; k < t->nseries; k++)
		if (finish_series(&t->series[k]) < 0)
			goto oom;
	/* Only building needs the table. */
	g_hash_table_destroy(t->where);
	t->where = NULL;
	free(used);
	*out = t;
	return 0;
oom:
	free(used);
	fs_thread_free(t);
	return fs_error_set(err, FS_ENOMEM, "out of memory");
}

void fs_thread_free(struct fs_thread *t)
{
	size_t i, k;

	if (!t)
		return;
	for (i = 0; i < t->nseries; i++) {
		struct fs_thread_series *s = &t->series[i].pub;
		free(s->patches);
		free(s->replies);
		free(s->missing);
		g_free(s->version);
		g_free(s->release);
		g_free(s->branch);
		g_free(s->base);
		g_free(s->deadline);
		for (k = 1; s->titles && k <= (size_t)s->total; k++)
			g_free(s->titles[k]);
		free(s->titles);
	}
	free(t->series);
	if (t->where)
		g_hash_table_destroy(t->where);
	for (i = 0; i < t->nmsgs; i++)
		fs_patch_free(t->msgs[i]);
	free(t->msgs);
	free(t);
}

size_t fs_thread_count(const struct fs_thread *t)
{
	return t->nseries;
}

const struct fs_thread_series *fs_thread_get(const struct fs_thread *t, size_t i)
{
	return i < t->nseries ? &t->series[i].pub : NULL;
}

const struct fs_patch *fs_thread_replied_patch(const struct fs_thread_series *s,
					       const struct fs_patch *reply)
{
	const char *irt = fs_patch_in_reply_to(reply);
	const char *const *refs;
	size_t n, i, k;

	for (i = 0; irt && i < s->npatches; i++)
		if (fs_patch_message_id(s->patches[i]) &&
		    !strcmp(fs_patch_message_id(s->patches[i]), irt))
			return s->patches[i];
	refs = fs_patch_references(reply, &n);
	for (k = n; k > 0; k--)
		for (i = 0; i < s->npatches; i++)
			if (fs_patch_message_id(s->patches[i]) &&
			    !strcmp(fs_patch_message_id(s->patches[i]), refs[k - 1]))
				return s->patches[i];
	return NULL;
}

int fs_thread_replied_absent(const struct fs_thread_series *s, const struct fs_patch *reply)
{
	const struct fs_series *ser = fs_patch_series(reply);
	const char *irt = fs_patch_in_reply_to(reply);
	size_t i;

	if (!ser || ser->index < 1 || ser->total != s->total || !irt ||
	    !is_reply_subject(fs_patch_subject(reply)) || fs_thread_replied_patch(s, reply))
		return 0;
	for (i = 0; i < s->npatches; i++)
		if (patch_number(s->patches[i]) == ser->index)
			return 0;
	return ser->index;
}

char *fs_thread_missing_text(const struct fs_thread_series *s, size_t max_ranges)
{
	GString *out = g_string_new(NULL);
	size_t i = 0, shown = 0;

	while (i < s->nmissing) {
		size_t j = i;
		while (j + 1 < s->nmissing && s->missing[j + 1] == s->missing[j] + 1)
			j++;
		if (max_ranges && shown == max_ranges) {
			g_string_append_printf(out, "%s... (%zu more)", out->len ? ", " : "",
					       s->nmissing - i);
			break;
		}
		g_string_append_printf(out, "%s%03d", out->len ? ", " : "", s->missing[i]);
		if (j > i)
			g_string_append_printf(out, "-%03d", s->missing[j]);
		g_string_append_printf(out, "/%03d", s->total);
		shown++;
		i = j + 1;
	}
	return g_string_free(out, FALSE);
}
