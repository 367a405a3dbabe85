/* fixscan: sorting out a stable review thread. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/thread.h"

struct series_priv {
	struct fs_thread_series pub;
	size_t patches_cap, replies_cap;
};

struct fs_thread {
	struct fs_patch **msgs;
	size_t nmsgs;
	struct series_priv *series;
	size_t nseries;
};

static bool is_reply_subject(const char *s)
{
	while (*s == ' ')
		s++;
	return !strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3) ||
	       !strncasecmp(s, "fwd:", 4);
}

/* The NN a message carries as a patch: -1 for replies and mails without a
 * series prefix. */
static int patch_number(const struct fs_patch *p)
{
	const struct fs_series *s = fs_patch_series(p);

	if (!s || is_reply_subject(fs_patch_subject(p)))
		return -1;
	return s->index;
}

static bool names_message(const struct fs_patch *p, const char *mid)
{
	const char *const *refs;
	size_t n, i;

	if (!mid)
		return false;
	if (fs_patch_in_reply_to(p) && !strcmp(fs_patch_in_reply_to(p), mid))
		return true;
	refs = fs_patch_references(p, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(refs[i], mid))
			return true;
	return false;
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
	long a, b, c;
	char *s = NULL;
	int n = 0;

	if (!release)
		return NULL;
	if (*release == 'v')
		release++;
	if (sscanf(release, "%ld.%ld.%ld%n", &a, &b, &c, &n) != 3 || c < 1)
		return NULL;
	if (release[n] && release[n] != '-')
		return NULL;
	if (c == 1)
		n = asprintf(&s, "v%ld.%ld", a, b);
	else
		n = asprintf(&s, "v%ld.%ld.%ld", a, b, c - 1);
	return n < 0 ? NULL : s;
}

/* The first "X.Y.Z" (with an optional -rcN) after KEY in TEXT. */
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
			const char *e = q;
			int dots = 0;
			while (e < end && (isdigit((unsigned char)*e) || *e == '.')) {
				dots += *e == '.';
				e++;
			}
			if (e + 3 < end && !strncmp(e, "-rc", 3) && isdigit((unsigned char)e[3])) {
				e += 3;
				while (e < end && isdigit((unsigned char)*e))
					e++;
			}
			if (dots == 2)
				return strndup(q, e - q);
		}
		/* An empty key matches where it starts: step past it. */
		p = hit + (klen ? klen : 1);
	}
	return NULL;
}

/* "linux-4.4.y" anywhere in TEXT. */
static char *branch_in(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *hit = memmem(p, end - p, "linux-", 6), *q;
		if (!hit)
			return NULL;
		q = hit + 6;
		while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
			q++;
		if (q > hit + 6 && q[-1] == '.' && q < end && *q == 'y' &&
		    (q + 1 == end || !isalnum((unsigned char)q[1])))
			return strndup(hit, q + 1 - hit);
		p = hit + 6;
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
	size_t blen = 0;

	if (!src)
		return 0;
	ser = fs_patch_series(src);
	if (ser && ser->version && !(s->version = strdup(ser->version)))
		return -1;
	body = fs_patch_body(src, &blen);
	if ((h = fs_patch_header(src, "X-KernelTest-Branch")) && *h) {
		if (!(s->branch = strdup(h)))
			return -1;
		s->branch_source = "X-KernelTest-Branch";
	}
	if ((h = fs_patch_header(src, "X-KernelTest-Version")) && *h) {
		if (!(s->release = strdup(h)))
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
	if (!s->branch && s->version) {
		if (asprintf(&s->branch, "linux-%s.y", s->version) < 0) {
			s->branch = NULL;
			return -1;
		}
		s->branch_source = "subject";
	}
	if ((h = fs_patch_header(src, "X-KernelTest-Deadline")) && *h) {
		s->deadline = strdup(h);
	} else if (s->cover) {
		const char *hit = memmem(body, blen, "Responses should be made by ", 28);
		if (hit) {
			const char *e = memchr(hit, '\n', body + blen - hit);
			size_t l = (e ? e : body + blen) - (hit + 28);
			while (l && (hit[28 + l - 1] == '.' || hit[28 + l - 1] == ' '))
				l--;
			s->deadline = strndup(hit + 28, l);
		}
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
			if (ser && ser->total > s->total)
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
	return describe(sp);
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
	/* Keep each Message-Id once: the same mail stored twice is one. */
	for (i = 0; i < n; i++) {
		const char *mid = fs_patch_message_id(msgs[i]);
		for (k = 0; mid && k < t->nmsgs; k++)
			if (fs_patch_message_id(t->msgs[k]) &&
			    !strcmp(fs_patch_message_id(t->msgs[k]), mid))
				break;
		if (mid && k < t->nmsgs) {
			fs_patch_free(msgs[i]);
			continue;
		}
		t->msgs[t->nmsgs++] = msgs[i];
	}
	/* Covers first: NN 0, not a reply. */
	for (i = 0; i < t->nmsgs; i++) {
		struct series_priv *sp;
		const struct fs_series *ser;
		if (patch_number(t->msgs[i]) != 0)
			continue;
		if (!(sp = new_series(t)))
			goto oom;
		sp->pub.cover = t->msgs[i];
		ser = fs_patch_series(t->msgs[i]);
		sp->pub.total = ser->total;
		used[i] = true;
	}
	/* Patches join the cover they reference; others a coverless series
	 * of their version. */
	for (i = 0; i < t->nmsgs; i++) {
		struct fs_patch *p = t->msgs[i];
		struct series_priv *sp = NULL;
		int nn = patch_number(p);
		if (used[i] || nn < 1)
			continue;
		for (k = 0; k < t->nseries && !sp; k++)
			if (t->series[k].pub.cover &&
			    names_message(p, fs_patch_message_id(t->series[k].pub.cover)))
				sp = &t->series[k];
		if (!sp && t->nseries == 1 && t->series[0].pub.cover)
			sp = &t->series[0];
		for (k = 0; k < t->nseries && !sp; k++) {
			const struct fs_series *a = fs_patch_series(p);
			const struct fs_thread_series *s = &t->series[k].pub;
			const struct fs_series *b = s->npatches ? fs_patch_series(s->patches[0]) : NULL;
			if (!s->cover && b && a->total == b->total &&
			    ((!a->version && !b->version) ||
			     (a->version && b->version && !strcmp(a->version, b->version))))
				sp = &t->series[k];
		}
		if (!sp && !(sp = new_series(t)))
			goto oom;
		if (push(&sp->pub.patches, &sp->pub.npatches, &sp->patches_cap, p))
			goto oom;
		used[i] = true;
	}
	/* Replies go with the series whose cover or patch they answer. */
	for (i = 0; i < t->nmsgs; i++) {
		struct fs_patch *p = t->msgs[i];
		struct series_priv *sp = NULL;
		size_t j;
		if (used[i])
			continue;
		for (k = 0; k < t->nseries && !sp; k++) {
			struct fs_thread_series *s = &t->series[k].pub;
			if (s->cover && names_message(p, fs_patch_message_id(s->cover)))
				sp = &t->series[k];
			for (j = 0; j < s->npatches && !sp; j++)
				if (names_message(p, fs_patch_message_id(s->patches[j])))
					sp = &t->series[k];
		}
		if (!sp && t->nseries)
			sp = &t->series[0];
		if (sp && push(&sp->pub.replies, &sp->pub.nreplies, &sp->replies_cap, p))
			goto oom;
	}
	for (k = 0; k < t->nseries; k++)
		if (finish_series(&t->series[k]) < 0)
			goto oom;
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
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nseries; i++) {
		struct fs_thread_series *s = &t->series[i].pub;
		free(s->patches);
		free(s->replies);
		free(s->missing);
		free(s->version);
		free(s->release);
		free(s->branch);
		free(s->base);
		free(s->deadline);
	}
	free(t->series);
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
