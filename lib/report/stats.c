/* fixscan: stable-series statistics, see include/fixscan/stats.h. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/stats.h"
#include "fixscan/trailers.h"
#include "fixscan/version.h"
#include "base/git-util.h"

/* Ids shorter than this name too many commits to count as a match. */
#define MIN_HEX 7

struct st_patch {
	char id[41];
	char *release; /* owned, NULL when none */
	char *subject; /* owned, NULL when unknown */
	long order;
	bool mapped;
	bool with_fixes;
};

struct st_key {
	char hex[41];
	size_t patch;
};

struct st_fix {
	char hex[41];
	char alt[41]; /* "" when none */
	size_t patch;
};

struct fs_stats {
	char *spec;
	char *series;
	char *base; /* the release measured from, when known */
	GArray *patches; /* struct st_patch */
	GArray *keys;    /* struct st_key, sorted by fs_stats_finish() */
	GArray *fixes;   /* struct st_fix */
	GArray *pairs;   /* struct fs_stats_pair */
	uint64_t short_lens; /* bit L - MIN_HEX set: some key has L < 40 digits */
};

/* ------------------------------------------------------------------ */
/* Ranges, series names, percentages */

void fs_stats_range_clear(struct fs_stats_range *r)
{
	if (!r)
		return;
	g_free(r->spec);
	g_free(r->base);
	g_free(r->tip);
	g_free(r->branch);
	memset(r, 0, sizeof(*r));
}

int fs_stats_range_parse(struct fs_stats_range *out, const char *spec,
			 struct fs_error *err)
{
	const char *dots, *s;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return fs_error_set(err, FS_EUSAGE, "bad range ''");
	for (s = spec; *s; s++)
		if (isspace((unsigned char)*s))
			return fs_error_set(err, FS_EUSAGE, "bad range '%s'", spec);
	dots = strstr(spec, "..");
	if (dots) {
		/* "A...B" is git's symmetric difference, not a series. */
		if (dots == spec || dots[2] == '\0' || dots[2] == '.' ||
		    strstr(dots + 2, ".."))
			return fs_error_set(err, FS_EUSAGE, "bad range '%s'", spec);
		out->base = g_strndup(spec, dots - spec);
		out->tip = g_strdup(dots + 2);
	} else {
		out->branch = g_strdup(spec);
	}
	out->spec = g_strdup(spec);
	if (!out->spec || (dots && (!out->base || !out->tip)) || (!dots && !out->branch)) {
		fs_stats_range_clear(out);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	return 0;
}

/* The series a ref NAME names: "4.4" of a stable branch ("linux-4.4.y",
 * "refs/remotes/stable/linux-4.4.y"), or of a name that starts with a
 * version of two numbers or more, then ends or goes on with '.' or '-'
 * ("v4.4.14", "v4.5-rc1", "4.4.y"); NULL for other names.  New string
 * (free()). */
static char *version_of(const char *name)
{
	struct fs_version v, series;
	char buf[FS_VERSION_NAME_MAX];
	const char *p;
	size_t k;

	if (!name)
		return NULL;
	p = strrchr(name, '/');
	p = p ? p + 1 : name;
	if (fs_version_branch_series(p, buf, sizeof(buf)))
		return g_strdup(buf);
	k = fs_version_scan(p, strlen(p), &v);
	if (k && (!p[k] || p[k] == '.' || p[k] == '-') && fs_version_series(&v, &series) &&
	    fs_version_format(&series, buf, sizeof(buf)))
		return g_strdup(buf);
	return NULL;
}

char *fs_stats_series_name(const struct fs_stats_range *r)
{
	char *v;

	if (r->branch)
		v = version_of(r->branch);
	else if (!(v = version_of(r->tip)))
		v = version_of(r->base);
	return v ? v : g_strdup(r->spec);
}

long fs_stats_tenths(size_t num, size_t den)
{
	unsigned long long n = num, d = den;

	if (!den)
		return -1;
	/* num * 1000 / den rounded half up, in integers so that 39/632
	 * (6.1708...) and an exact .x5 both round as the article does. */
	return (long)((n * 2000 + d) / (2 * d));
}

char *fs_stats_percent(char buf[FS_STATS_PERCENT_MAX], size_t num, size_t den)
{
	long t = fs_stats_tenths(num, den);

	if (t < 0)
		snprintf(buf, FS_STATS_PERCENT_MAX, "-");
	else
		snprintf(buf, FS_STATS_PERCENT_MAX, "%ld.%ld%%", t / 10, t % 10);
	return buf;
}

/* ------------------------------------------------------------------ */
/* The table and the pair count */

int fs_stats_new(struct fs_stats **out, const char *spec, const char *series,
		 struct fs_error *err)
{
	struct fs_stats *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	st->spec = strdup(spec ? spec : "");
	st->series = strdup(series ? series : (spec ? spec : ""));
	st->patches = g_array_new(FALSE, TRUE, sizeof(struct st_patch));
	st->keys = g_array_new(FALSE, TRUE, sizeof(struct st_key));
	st->fixes = g_array_new(FALSE, TRUE, sizeof(struct st_fix));
	st->pairs = g_array_new(FALSE, TRUE, sizeof(struct fs_stats_pair));
	if (!st->spec || !st->series) {
		fs_stats_free(st);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	*out = st;
	return 0;
}

void fs_stats_free(struct fs_stats *st)
{
	guint i;

	if (!st)
		return;
	for (i = 0; st->patches && i < st->patches->len; i++) {
		struct st_patch *p = &g_array_index(st->patches, struct st_patch, i);
		free(p->release);
		free(p->subject);
	}
	if (st->patches)
		g_array_free(st->patches, TRUE);
	if (st->keys)
		g_array_free(st->keys, TRUE);
	if (st->fixes)
		g_array_free(st->fixes, TRUE);
	if (st->pairs)
		g_array_free(st->pairs, TRUE);
	free(st->spec);
	free(st->series);
	free(st->base);
	free(st);
}

/* Copy HEX lower-cased into OUT when it is 1..40 hex digits; else "". */
static bool norm_hex(char out[41], const char *hex)
{
	size_t i;

	out[0] = '\0';
	if (!hex)
		return false;
	for (i = 0; hex[i]; i++) {
		if (i >= 40 || !isxdigit((unsigned char)hex[i])) {
			out[0] = '\0';
			return false;
		}
		out[i] = (char)tolower((unsigned char)hex[i]);
	}
	out[i] = '\0';
	return i > 0;
}

long fs_stats_add_patch(struct fs_stats *st, const char *id, const char *release,
			long order, bool mapped)
{
	struct st_patch p;
	size_t n = st->patches->len;

	memset(&p, 0, sizeof(p));
	norm_hex(p.id, id);
	p.order = order;
	p.mapped = mapped;
	if (release && !(p.release = strdup(release)))
		return FS_ENOMEM;
	g_array_append_val(st->patches, p);
	if (fs_stats_add_key(st, n, p.id) < 0)
		return FS_ENOMEM;
	return (long)n;
}

int fs_stats_add_key(struct fs_stats *st, size_t p, const char *hex)
{
	struct st_key k;
	size_t len;

	if (p >= st->patches->len || !norm_hex(k.hex, hex))
		return 0;
	len = strlen(k.hex);
	if (len < MIN_HEX)
		return 0;
	if (len < 40)
		st->short_lens |= UINT64_C(1) << (len - MIN_HEX);
	k.patch = p;
	g_array_append_val(st->keys, k);
	return 0;
}

int fs_stats_add_fix(struct fs_stats *st, size_t p, const char *hex, const char *alt)
{
	struct st_fix f;

	if (p >= st->patches->len)
		return 0;
	/* Any fix line makes a patch one "with fixes", even one whose id is
	 * too short or malformed to name anything. */
	g_array_index(st->patches, struct st_patch, p).with_fixes = true;
	memset(&f, 0, sizeof(f));
	norm_hex(f.hex, hex);
	norm_hex(f.alt, alt);
	f.patch = p;
	g_array_append_val(st->fixes, f);
	return 0;
}

int fs_stats_set_subject(struct fs_stats *st, size_t p, const char *subject)
{
	struct st_patch *sp;

	if (p >= st->patches->len)
		return 0;
	sp = &g_array_index(st->patches, struct st_patch, p);
	free(sp->subject);
	sp->subject = subject ? strdup(subject) : NULL;
	return subject && !sp->subject ? FS_ENOMEM : 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct st_key *x = a, *y = b;
	int c = strcmp(x->hex, y->hex);

	if (c)
		return c;
	return x->patch < y->patch ? -1 : x->patch > y->patch;
}

/* First key >= HEX. */
static size_t key_lower_bound(const struct fs_stats *st, const char *hex)
{
	const struct st_key *k = (const struct st_key *)st->keys->data;
	size_t lo = 0, hi = st->keys->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k[mid].hex, hex) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The patches HEX names, appended to OUT (patch numbers, maybe repeated).
 * A key names HEX's commit when one of the two is a prefix of the other;
 * when the matching keys are not all prefixes of the longest one, they are
 * different commits and HEX is ambiguous: nothing is appended. */
static void match_hex(const struct fs_stats *st, const char *hex, GArray *out)
{
	const struct st_key *k = (const struct st_key *)st->keys->data;
	size_t len = strlen(hex), i, first = out->len, l;
	const char *longest = NULL;
	char probe[41];

	if (len < MIN_HEX)
		return;
	for (i = key_lower_bound(st, hex); i < st->keys->len; i++) {
		if (strncmp(k[i].hex, hex, len))
			break;
		if (!longest || strlen(k[i].hex) > strlen(longest))
			longest = k[i].hex;
		g_array_append_val(out, k[i].patch);
	}
	/* Keys shorter than HEX: an upstream id written abbreviated. */
	for (l = MIN_HEX; l < len; l++) {
		if (!(st->short_lens & (UINT64_C(1) << (l - MIN_HEX))))
			continue;
		memcpy(probe, hex, l);
		probe[l] = '\0';
		for (i = key_lower_bound(st, probe); i < st->keys->len; i++) {
			if (strcmp(k[i].hex, probe))
				break;
			g_array_append_val(out, k[i].patch);
		}
		/* A short key that is a prefix of HEX agrees with it; the
		 * longest candidate stays HEX-or-longer. */
	}
	if (!longest)
		return;
	for (i = key_lower_bound(st, hex); i < st->keys->len; i++) {
		if (strncmp(k[i].hex, hex, len))
			break;
		if (strncmp(longest, k[i].hex, strlen(k[i].hex))) {
			g_array_set_size(out, first); /* ambiguous */
			return;
		}
	}
}

static int pair_id_cmp(const void *a, const void *b)
{
	const struct fs_stats_pair *x = a, *y = b;

	if (x->introducer != y->introducer)
		return x->introducer < y->introducer ? -1 : 1;
	return x->fixer < y->fixer ? -1 : x->fixer > y->fixer;
}

static int release_cmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b; /* no release sorts last */
	return fs_version_name_cmp(a, b);
}

static int patch_cmp(const struct st_patch *x, const struct st_patch *y)
{
	int c = release_cmp_null(x->release, y->release);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int pair_release_cmp(const void *a, const void *b, void *data)
{
	const struct fs_stats *st = data;
	const struct fs_stats_pair *x = a, *y = b;
	const struct st_patch *p = (const struct st_patch *)st->patches->data;
	int c = patch_cmp(&p[x->introducer], &p[y->introducer]);

	if (c)
		return c;
	if (x->introducer != y->introducer)
		return x->introducer < y->introducer ? -1 : 1;
	c = patch_cmp(&p[x->fixer], &p[y->fixer]);
	if (c)
		return c;
	return x->fixer < y->fixer ? -1 : x->fixer > y->fixer;
}

int fs_stats_finish(struct fs_stats *st, struct fs_error *err)
{
	GArray *hits = g_array_new(FALSE, FALSE, sizeof(size_t));
	struct fs_stats_pair *pv;
	guint i, j, n;

	g_array_set_size(st->pairs, 0);
	if (st->keys->len > 1)
		qsort(st->keys->data, st->keys->len, sizeof(struct st_key), key_cmp);
	for (i = 0; i < st->fixes->len; i++) {
		const struct st_fix *f = &g_array_index(st->fixes, struct st_fix, i);

		g_array_set_size(hits, 0);
		match_hex(st, f->hex, hits);
		if (!hits->len && f->alt[0])
			match_hex(st, f->alt, hits);
		for (j = 0; j < hits->len; j++) {
			struct fs_stats_pair pr;
			pr.introducer = g_array_index(hits, size_t, j);
			pr.fixer = f->patch;
			if (pr.introducer != pr.fixer)
				g_array_append_val(st->pairs, pr);
		}
	}
	g_array_free(hits, TRUE);
	/* One pair per (introducer, fixer), however many lines name it. */
	if (st->pairs->len < 2)
		return 0; /* qsort() must not see the NULL data of an empty array */
	pv = (struct fs_stats_pair *)st->pairs->data;
	qsort(pv, st->pairs->len, sizeof(*pv), pair_id_cmp);
	for (i = 0, n = 0; i < st->pairs->len; i++)
		if (!n || pair_id_cmp(&pv[n - 1], &pv[i]))
			pv[n++] = pv[i];
	g_array_set_size(st->pairs, n);
	g_qsort_with_data(st->pairs->data, (gint)st->pairs->len,
			  sizeof(struct fs_stats_pair), pair_release_cmp, st);
	(void)err;
	return 0;
}

void fs_stats_get_counts(const struct fs_stats *st, struct fs_stats_counts *out)
{
	guint i;

	memset(out, 0, sizeof(*out));
	out->patches = st->patches->len;
	for (i = 0; i < st->patches->len; i++) {
		const struct st_patch *p = &g_array_index(st->patches, struct st_patch, i);
		out->mapped += p->mapped;
		out->with_fixes += p->with_fixes;
	}
	out->fixed = st->pairs->len;
}

const char *fs_stats_spec(const struct fs_stats *st)
{
	return st->spec;
}

const char *fs_stats_series(const struct fs_stats *st)
{
	return st->series;
}

const char *fs_stats_base(const struct fs_stats *st)
{
	return st->base;
}

const struct fs_stats_pair *fs_stats_pairs(const struct fs_stats *st, size_t *n)
{
	*n = st->pairs->len;
	return (const struct fs_stats_pair *)st->pairs->data;
}

const char *fs_stats_patch_id(const struct fs_stats *st, size_t p)
{
	return p < st->patches->len ? g_array_index(st->patches, struct st_patch, p).id : NULL;
}

const char *fs_stats_patch_release(const struct fs_stats *st, size_t p)
{
	return p < st->patches->len ? g_array_index(st->patches, struct st_patch, p).release : NULL;
}

const char *fs_stats_patch_subject(const struct fs_stats *st, size_t p)
{
	return p < st->patches->len ? g_array_index(st->patches, struct st_patch, p).subject : NULL;
}

/* ------------------------------------------------------------------ */
/* Filling the table from a repository and its index */

/* "Linux 4.4.1", "Linux 4.5", "Linux 4.6-rc3": a release commit. */
static bool is_release_subject(const char *s)
{
	struct fs_version v;

	return s && !strncmp(s, "Linux ", 6) && fs_version_parse(s + 6, &v) && !v.v && v.nparts >= 2;
}

/* HEX as a fix line names it: the full id of the one commit it resolves
 * to, or for an ambiguous id the one the quoted subject picks; else as
 * written (an id the repository does not have can still match a patch's
 * upstream line textually). */
static void resolve_ref(const struct fs_index *idx, const struct fs_index_ref *ref,
			char out[41])
{
	fs_cid cand[2], t;
	size_t n = fs_index_resolve_all(idx, ref->hex, cand, 2);

	if (n == 1) {
		fs_index_commit_hex(idx, cand[0], out);
		return;
	}
	if (n > 1) {
		t = fs_index_ref_target(idx, ref, NULL, NULL);
		if (t != FS_CID_NONE) {
			fs_index_commit_hex(idx, t, out);
			return;
		}
	}
	snprintf(out, 41, "%s", ref->hex);
}

/* Feed the refs of indexed commit C into patch P. */
static int feed_indexed(struct fs_stats *st, const struct fs_index *idx, fs_cid c,
			size_t p)
{
	struct fs_index_ref small[32], *refs = small;
	size_t n, i;
	char hex[41], alt[41];
	fs_cid up;
	int rc = 0;

	up = fs_index_upstream_of(idx, c);
	if (up != FS_CID_NONE) {
		fs_index_commit_hex(idx, up, hex);
		rc = fs_stats_add_key(st, p, hex);
	}
	n = fs_index_commit_refs(idx, c, small, 32);
	if (n > 32) {
		refs = malloc(n * sizeof(*refs));
		if (!refs)
			return FS_ENOMEM;
		n = fs_index_commit_refs(idx, c, refs, n);
	}
	for (i = 0; i < n && rc == 0; i++) {
		switch (refs[i].kind) {
		case FS_REF_UPSTREAM:
			rc = fs_stats_add_key(st, p, refs[i].hex);
			break;
		case FS_REF_FIXES:
			resolve_ref(idx, &refs[i], hex);
			rc = fs_stats_add_fix(st, p, hex, NULL);
			break;
		case FS_REF_REVERTS:
			/* "This reverts commit X which was commit Y upstream.":
			 * Y names X's upstream, used only when X names nothing. */
			resolve_ref(idx, &refs[i], hex);
			alt[0] = '\0';
			if (i + 1 < n && refs[i + 1].kind == FS_REF_REVERTS_UPSTREAM) {
				resolve_ref(idx, &refs[i + 1], alt);
				i++;
			}
			rc = fs_stats_add_fix(st, p, hex, alt[0] ? alt : NULL);
			break;
		case FS_REF_REVERTS_UPSTREAM:
			resolve_ref(idx, &refs[i], hex);
			rc = fs_stats_add_fix(st, p, hex, NULL);
			break;
		default:
			break;
		}
	}
	if (refs != small)
		free(refs);
	return rc;
}

/* A commit the index does not have (a range beyond every indexed ref):
 * read its changelog here. */
static int feed_unindexed(struct fs_stats *st, const struct fs_index *idx,
			  const git_commit *commit, size_t p, bool *mapped,
			  struct fs_error *err)
{
	const char *msg = git_commit_message(commit);
	struct fs_trailers *tags = NULL;
	struct fs_index_ref ref;
	const char *const *up;
	const struct fs_trailer_ref *fx;
	const struct fs_trailer_revert *rv;
	char hex[41], alt[41];
	size_t n, i;
	fs_cid c;
	int rc;

	*mapped = false;
	rc = fs_trailers_parse(&tags, msg, strlen(msg), err);
	if (rc < 0)
		return rc;
	memset(&ref, 0, sizeof(ref));
	ref.source = FS_CID_NONE;
	up = fs_trailers_upstream(tags, &n);
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(ref.hex, sizeof(ref.hex), "%s", up[i]);
		ref.kind = FS_REF_UPSTREAM;
		resolve_ref(idx, &ref, hex);
		if (!*mapped && fs_index_resolve(idx, hex, &c, NULL) == 0 &&
		    fs_index_commit_is_mainline(idx, c))
			*mapped = true;
		rc = fs_stats_add_key(st, p, up[i]);
		if (rc == 0)
			rc = fs_stats_add_key(st, p, hex);
	}
	fx = fs_trailers_fixes(tags, &n);
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(ref.hex, sizeof(ref.hex), "%s", fx[i].id);
		ref.kind = FS_REF_FIXES;
		ref.subject = fx[i].subject;
		resolve_ref(idx, &ref, hex);
		rc = fs_stats_add_fix(st, p, hex, NULL);
	}
	ref.subject = NULL;
	rv = fs_trailers_reverts(tags, &n);
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(ref.hex, sizeof(ref.hex), "%s", rv[i].id);
		ref.kind = FS_REF_REVERTS;
		resolve_ref(idx, &ref, hex);
		alt[0] = '\0';
		if (rv[i].upstream) {
			snprintf(ref.hex, sizeof(ref.hex), "%s", rv[i].upstream);
			resolve_ref(idx, &ref, alt);
		}
		rc = fs_stats_add_fix(st, p, hex, alt[0] ? alt : NULL);
	}
	fs_trailers_free(tags);
	return rc < 0 ? fs_error_set(err, FS_ENOMEM, "out of memory") : 0;
}

static int peel_rev(git_oid *out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL, *peeled = NULL;
	int rc = git_revparse_single(&obj, repo, rev);

	if (rc == 0)
		rc = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	if (rc == 0)
		git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
	return rc;
}

/* The tip and base of R in REPO; a branch is looked up as a ref
 * ("linux-4.4.y", "stable/linux-4.4.y") and measured from the release
 * the index says it forked from. */
static int range_ends(const struct fs_stats_range *r, git_repository *repo,
		      const struct fs_index *idx, git_oid *tip, git_oid *base,
		      const char **base_name, struct fs_error *err)
{
	*base_name = r->base;
	if (r->branch) {
		git_reference *ref = NULL;
		git_object *obj = NULL;
		const char *name, *fork;
		int rc;

		rc = git_reference_dwim(&ref, repo, r->branch);
		if (rc == 0)
			rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
		if (rc == 0)
			git_oid_cpy(tip, git_object_id(obj));
		git_object_free(obj);
		if (rc < 0 || (!git_reference_is_branch(ref) && !git_reference_is_remote(ref))) {
			git_reference_free(ref);
			return fs_error_set(err, FS_ENOTFOUND, "unknown branch '%s'", r->branch);
		}
		git_reference_free(ref);
		name = strrchr(r->branch, '/');
		name = name ? name + 1 : r->branch;
		fork = fs_index_branch_fork(idx, name);
		if (!fork)
			return fs_error_set(err, FS_ENOTFOUND,
					    "cannot tell which release branch '%s' forked from",
					    r->branch);
		if (peel_rev(base, repo, fork) < 0)
			return fs_error_set(err, FS_ENOTFOUND, "unknown tag '%s'", fork);
		*base_name = fork;
		return 0;
	}
	if (peel_rev(base, repo, r->base) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "unknown tag or revision '%s' in range '%s'",
				    r->base, r->spec);
	if (peel_rev(tip, repo, r->tip) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "unknown tag or revision '%s' in range '%s'",
				    r->tip, r->spec);
	return 0;
}

int fs_stats_compute(struct fs_stats **out, const struct fs_index *idx,
		     const char *repo_path, const char *range, struct fs_error *err)
{
	struct fs_stats_range r;
	struct fs_stats *st = NULL;
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_commit *commit = NULL;
	git_oid tip, base, oid;
	const char *base_name = NULL;
	char *series = NULL;
	long order = 0;
	int rc;

	*out = NULL;
	rc = fs_stats_range_parse(&r, range, err);
	if (rc < 0)
		return rc;
	fs_git_init();
	if (git_repository_open(&repo, repo_path) < 0) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot open repository '%s'", repo_path);
		goto out;
	}
	rc = range_ends(&r, repo, idx, &tip, &base, &base_name, err);
	if (rc < 0)
		goto out;
	series = fs_stats_series_name(&r);
	if (!series) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	rc = fs_stats_new(&st, range, series, err);
	if (rc < 0)
		goto out;
	if (base_name && !(st->base = strdup(base_name))) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(walk, &tip) < 0 || git_revwalk_hide(walk, &base) < 0) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot walk '%s'", range);
		goto out;
	}
	while ((rc = git_revwalk_next(&oid, walk)) == 0) {
		char hex[41];
		const char *subject;
		fs_cid c;
		long p;
		bool mapped = false;

		if (git_commit_lookup(&commit, repo, &oid) < 0) {
			rc = fs_error_set_git(err, FS_EGIT, "cannot read a commit of '%s'", range);
			goto out;
		}
		if (git_commit_parentcount(commit) > 1)
			goto next;
		git_oid_tostr(hex, sizeof(hex), &oid);
		if (fs_index_resolve_all(idx, hex, &c, 1) == 1) {
			fs_cid up = fs_index_upstream_of(idx, c);
			subject = fs_index_commit_subject(idx, c);
			if (is_release_subject(subject))
				goto next;
			mapped = up != FS_CID_NONE && fs_index_commit_is_mainline(idx, up);
			p = fs_stats_add_patch(st, hex, fs_index_commit_release(idx, c), order++,
					       mapped);
			if (p < 0 || fs_stats_set_subject(st, (size_t)p, subject) < 0 ||
			    feed_indexed(st, idx, c, (size_t)p) < 0) {
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
		} else {
			subject = git_commit_summary(commit);
			if (is_release_subject(subject))
				goto next;
			p = fs_stats_add_patch(st, hex, NULL, order++, false);
			if (p < 0 || fs_stats_set_subject(st, (size_t)p, subject) < 0) {
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
			rc = feed_unindexed(st, idx, commit, (size_t)p, &mapped, err);
			if (rc < 0)
				goto out;
			g_array_index(st->patches, struct st_patch, p).mapped = mapped;
		}
next:
		git_commit_free(commit);
		commit = NULL;
	}
	if (rc != GIT_ITEROVER) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot walk '%s'", range);
		goto out;
	}
	rc = fs_stats_finish(st, err);
	if (rc == 0) {
		*out = st;
		st = NULL;
	}
out:
	git_commit_free(commit);
	git_revwalk_free(walk);
	git_repository_free(repo);
	fs_stats_free(st);
	g_free(series);
	fs_stats_range_clear(&r);
	return rc;
}
