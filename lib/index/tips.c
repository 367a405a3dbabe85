/* fixscan: the refs and tags the index reads: the mainline ref, the
 * stable branch refs and the release tags, as the caller's options name
 * them.  No config is read here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/version.h"
#include "base/git-util.h"
#include "base/hash.h"
#include "format.h"
#include "tips.h"

void fsi_tips_clear(struct fsi_tips *ts)
{
	size_t i;

	for (i = 0; i < ts->t.n; i++) {
		g_free(ts->t.v[i].name);
		g_free(ts->t.v[i].release);
		g_free(ts->t.v[i].branch);
	}
	for (i = 0; i < ts->pending.n; i++)
		g_free(ts->pending.v[i].name);
	free(ts->t.v);
	free(ts->pending.v);
	g_free(ts->mainline);
	memset(ts, 0, sizeof(*ts));
}

/* Whether NAME is a release tag, and of which line: "v4.4", "v4.4-rc3"
 * are mainline releases of line "4.4", "v4.4.7" a stable release of it
 * (branch linux-4.4.y); "v2.6.32", "v2.6.32.5" those of line "2.6.32"
 * (fixscan/version.h).  Anything else is not a release. */
int fsi_classify_tag(const char *name, char line[FSI_LINE_MAX], int *stable)
{
	struct fs_version v, series;

	if (!fs_version_parse(name, &v) || !v.v || !fs_version_is_release(&v) ||
	    !fs_version_series(&v, &series) || !fs_version_format(&series, line, FSI_LINE_MAX))
		return 0;
	*stable = fs_version_is_stable(&v);
	return 1;
}

/* ---- the fingerprint of the refs ------------------------------------------ */

/* splitmix64's finaliser: spreads every input bit over the output, so
 * that a sum of mixed values is a fair hash of the set. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The hash of one ref: its name, and the id it holds or none. */
static uint64_t ref_hash(const char *name, const git_oid *oid)
{
	static const unsigned char none[GIT_OID_RAWSZ];
	uint64_t h = fs_fnv1a(FS_FNV1A_BASIS, name, strlen(name) + 1);

	return mix64(fs_fnv1a(h, oid ? oid->id : none, GIT_OID_RAWSZ));
}

/* The fingerprint as it is gathered: what is looked up by name (the
 * mainline candidates, the globs) in order, the refs a glob lists as a
 * sum, so that the order of a listing does not count. */
struct fingerprint {
	uint64_t ordered, sum, n;
};

static void fp_ordered(struct fingerprint *fp, const char *name, const git_oid *oid)
{
	fp->ordered = mix64(fp->ordered ^ ref_hash(name, oid));
}

static void fp_listed(struct fingerprint *fp, const char *name, const git_oid *oid)
{
	fp->sum += ref_hash(name, oid);
	fp->n++;
}

static uint64_t fp_final(const struct fingerprint *fp)
{
	uint64_t h = mix64(mix64(fp->ordered ^ fp->sum) ^ fp->n);

	return h ? h : 1;
}

/* ---- reading the refs ------------------------------------------------------ */

const struct fs_disk_tip *fsi_tip_hint_find(const struct fsi_tip_hint *h, const char *name)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->strings + h->v[mid].name, name);
		if (c == 0)
			return &h->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int add_tip(struct fsi_tips *ts, const char *name, int kind, const git_oid *oid,
		   const git_oid *target)
{
	struct fsi_tip t;

	memset(&t, 0, sizeof(t));
	t.name = g_strdup(name);
	t.kind = kind;
	t.oid = *oid;
	t.target = *target;
	if (!t.name || VEC_PUSH(ts->t, t)) {
		g_free(t.name);
		return -1;
	}
	return 0;
}

/* One pass over the refs: the fingerprint always, the tips when TS. */
/* ---- one reading of the refs ---------------------------------------------- */

enum ref_source { SRC_MAINLINE, SRC_STABLE, SRC_TAG, SRC_PENDING };

struct ref_entry {
	char *name;
	git_oid target;
	int held;	/* it holds an id (a symbolic ref may lead nowhere) */
	enum ref_source source;
};

/* What one listing found, in the order tips are made from it: the
 * mainline candidates found, the refs of each stable glob, the release
 * tags. */
struct fsi_refs {
	VEC(struct ref_entry) e;
	uint64_t fingerprint;
	int oom;
};

void fsi_refs_free(struct fsi_refs *refs)
{
	size_t i;

	if (!refs)
		return;
	for (i = 0; i < refs->e.n; i++)
		g_free(refs->e.v[i].name);
	free(refs->e.v);
	free(refs);
}

uint64_t fsi_refs_fingerprint(const struct fsi_refs *refs)
{
	return refs->fingerprint;
}

/* The id REF holds, a symbolic ref resolved; <0 when it leads nowhere. */
static int ref_target(const git_reference *ref, git_oid *out)
{
	git_reference *resolved = NULL;

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC) {
		if (git_reference_resolve(&resolved, ref) < 0)
			return -1;
		ref = resolved;
	}
	git_oid_cpy(out, git_reference_target(ref));
	git_reference_free(resolved);
	return 0;
}

static void add_entry(struct fsi_refs *refs, const git_reference *ref, enum ref_source source)
{
	struct ref_entry e;

	memset(&e, 0, sizeof(e));
	e.held = ref_target(ref, &e.target) == 0;
	e.source = source;
	e.name = g_strdup(git_reference_name(ref));
	if (!e.name || VEC_PUSH(refs->e, e)) {
		g_free(e.name);
		refs->oom = 1;
	}
}

/* The mainline's candidates: OPTS->mainline as git would expand it, else
 * the defaults in order, all of them; the text looked up and what was
 * found go into the fingerprint in that order. */
const char *const fsi_mainline_defaults[FSI_NMAINLINE_DEFAULTS] = {
	"refs/remotes/origin/master", "refs/heads/master", "refs/heads/main",
};

static void list_mainline(git_repository *repo, const struct fs_index_opts *opts,
			  struct fsi_refs *refs, struct fingerprint *fp)
{
	const char *const *names = opts->mainline ? &opts->mainline : fsi_mainline_defaults;
	size_t n = opts->mainline ? 1 : FSI_NMAINLINE_DEFAULTS, i;

	for (i = 0; i < n; i++) {
		git_reference *ref = NULL;
		int rc = opts->mainline ? git_reference_dwim(&ref, repo, names[i]) :
			 git_reference_lookup(&ref, repo, names[i]);

		fp_ordered(fp, names[i], NULL);
		if (rc == 0) {
			add_entry(refs, ref, SRC_MAINLINE);
			if (!refs->oom) {
				struct ref_entry *e = &refs->e.v[refs->e.n - 1];
				fp_ordered(fp, e->name, e->held ? &e->target : NULL);
			}
		}
		git_reference_free(ref);
	}
}

/* The refs matching GLOB (for tags, only release tags). */
static int list_glob(git_repository *repo, const char *glob, enum ref_source source,
		     struct fsi_refs *refs, struct fingerprint *fp)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int rc;

	if (git_reference_iterator_glob_new(&it, repo, glob) < 0)
		return -1;
	while ((rc = git_reference_next(&ref, it)) == 0) {
		const char *name = git_reference_name(ref);
		char line[FSI_LINE_MAX];
		int stable;

		if (source != SRC_TAG || fsi_classify_tag(name + strlen("refs/tags/"), line, &stable)) {
			add_entry(refs, ref, source);
			if (!refs->oom) {
				struct ref_entry *e = &refs->e.v[refs->e.n - 1];
				fp_listed(fp, e->name, e->held ? &e->target : NULL);
			}
		}
		git_reference_free(ref);
		if (refs->oom)
			break;
	}
	git_reference_iterator_free(it);
	return rc == GIT_ITEROVER || rc == 0 ? 0 : -1;
}

int fsi_refs_read(git_repository *repo, const struct fs_index_opts *opts,
		  struct fsi_refs **out, struct fs_error *err)
{
	static const char *const defaults[] = {
		"refs/remotes/*/linux-*.y", "refs/heads/linux-*.y",
	};
	const char *const *globs = opts->nstable_globs ? opts->stable_globs : defaults;
	size_t nglobs = opts->nstable_globs ? opts->nstable_globs : 2, i;
	struct fsi_refs *refs = calloc(1, sizeof(*refs));
	struct fingerprint fp = { 0, 0, 0 };
	int rc = 0;

	*out = NULL;
	if (!refs)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	/* whether the clone is shallow: unshallowing it may move no ref */
	fp_ordered(&fp, git_repository_is_shallow(repo) == 1 ? "shallow" : "complete", NULL);
	list_mainline(repo, opts, refs, &fp);
	/* The globs are part of it: another fixscan.stable reads other
	 * refs even where no ref moved. */
	for (i = 0; i < nglobs && rc == 0 && !refs->oom; i++) {
		fp_ordered(&fp, globs[i], NULL);
		if (list_glob(repo, globs[i], SRC_STABLE, refs, &fp) < 0)
			rc = fs_error_set_git(err, FS_EGIT, "cannot list refs of '%s'",
					      opts->repo_path);
	}
	if (rc == 0 && !refs->oom && list_glob(repo, "refs/tags/v*", SRC_TAG, refs, &fp) < 0)
		rc = fs_error_set_git(err, FS_EGIT, "cannot list tags of '%s'", opts->repo_path);
	/* The pending globs, apart: a ref both stable and pending is read
	 * as both. */
	for (i = 0; i < opts->npending_globs && rc == 0 && !refs->oom; i++) {
		fp_ordered(&fp, "pending", NULL);
		fp_ordered(&fp, opts->pending_globs[i], NULL);
		if (list_glob(repo, opts->pending_globs[i], SRC_PENDING, refs, &fp) < 0)
			rc = fs_error_set_git(err, FS_EGIT, "cannot list refs of '%s'",
					      opts->repo_path);
	}
	if (rc == 0 && refs->oom)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc < 0) {
		fsi_refs_free(refs);
		return rc;
	}
	refs->fingerprint = fp_final(&fp);
	*out = refs;
	return 0;
}

/* ---- the tips, from a reading --------------------------------------------- */

struct tips_ctx {
	git_repository *repo;
	const char *repo_path;
	git_odb *odb;
	const struct fsi_tip_hint *hint;
	struct fsi_tips *ts;
	int oom;
	struct fs_error *err;
};

/* A ref leads to no commit (a tag of a tree or a blob): not a tip. */
#define NO_COMMIT (-1)

/* The object OID, which ref NAME leads to, cannot be read: the
 * repository is damaged (a pack missing or cut short, a loose object
 * that does not inflate, a ref to an object that is not there).  An
 * index built without it would miss a branch without saying so. */
static int damaged(struct tips_ctx *g, const char *name, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	return fs_error_set_git(g->err, FS_EGIT, "cannot read object %s (%s) in '%s'", hex, name,
				g->repo_path);
}

/* The commit the ref NAME holding TARGET leads to: 0, NO_COMMIT, or
 * FS_EGIT with G->err set when an object on the way cannot be read.  The
 * index's tips say it when the ref held TARGET then too (objects never
 * change, so neither does where a tag leads): a release tag is peeled
 * once, not on every update.  Otherwise object headers tell commits
 * from tags, so a ref to a commit costs no inflating. */
static int target_commit(struct tips_ctx *g, const char *name, const git_oid *target,
			 git_oid *out)
{
	git_oid oid = *target;
	int depth;

	if (g->hint) {
		const struct fs_disk_tip *t = fsi_tip_hint_find(g->hint, name);
		if (t && !memcmp(t->target, target->id, GIT_OID_RAWSZ)) {
			memcpy(out->id, t->oid, GIT_OID_RAWSZ);
			return 0;
		}
	}
	if (!g->odb && git_repository_odb(&g->odb, g->repo) < 0)
		return fs_error_set_git(g->err, FS_EGIT, "cannot open the objects of '%s'",
					g->repo_path);
	for (depth = 0; depth < 16; depth++) {
		git_object_t type;
		git_tag *tag;
		size_t len;

		if (git_odb_read_header(&len, &type, g->odb, &oid) < 0)
			return damaged(g, name, &oid);
		if (type == GIT_OBJECT_COMMIT) {
			git_oid_cpy(out, &oid);
			return 0;
		}
		if (type != GIT_OBJECT_TAG)
			return NO_COMMIT;
		if (git_tag_lookup(&tag, g->repo, &oid) < 0)
			return damaged(g, name, &oid);
		git_oid_cpy(&oid, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	return NO_COMMIT;
}

static int stable_tip(struct tips_ctx *g, const struct ref_entry *e, const git_oid *commit)
{
	const char *base = strrchr(e->name, '/');
	size_t i;

	base = base ? base + 1 : e->name;
	/* The same branch on two remotes (a stale origin, a fresh stable
	 * remote) is one branch: every such ref is a tip, and the branch is
	 * what any of them reaches. */
	for (i = 0; i < g->ts->t.n; i++)
		if (!strcmp(g->ts->t.v[i].name, e->name))
			return 0;
	if (add_tip(g->ts, e->name, FS_TIP_STABLE, commit, &e->target) < 0 ||
	    !(g->ts->t.v[g->ts->t.n - 1].branch = g_strdup(base))) {
		g->oom = 1;
		return -1;
	}
	return 0;
}

/* A pending ref, once however many globs list it. */
static int pending_tip(struct tips_ctx *g, const struct ref_entry *e, const git_oid *commit)
{
	struct fsi_tip t;
	size_t i;

	for (i = 0; i < g->ts->pending.n; i++)
		if (!strcmp(g->ts->pending.v[i].name, e->name))
			return 0;
	memset(&t, 0, sizeof(t));
	t.name = g_strdup(e->name);
	t.kind = FS_TIP_PENDING;
	t.oid = *commit;
	t.target = e->target;
	if (!t.name || VEC_PUSH(g->ts->pending, t)) {
		g_free(t.name);
		g->oom = 1;
		return -1;
	}
	return 0;
}

/* A tag of a tree or a blob leads to no commit and names no release. */
static int tag_tip(struct tips_ctx *g, const struct ref_entry *e, const git_oid *commit)
{
	struct fsi_tip *t;
	char line[FSI_LINE_MAX];
	int stable;
	const char *short_name = e->name + strlen("refs/tags/");

	if (!fsi_classify_tag(short_name, line, &stable))
		return 0;
	if (add_tip(g->ts, e->name, FS_TIP_TAG, commit, &e->target) < 0) {
		g->oom = 1;
		return -1;
	}
	t = &g->ts->t.v[g->ts->t.n - 1];
	t->release = g_strdup(short_name);
	t->stable_tag = stable;
	memcpy(t->line, line, sizeof(t->line));
	if (stable && t->release) {
		char branch[FS_VERSION_NAME_MAX];
		/* a line is a series: its branch name always fits */
		if (!fs_version_branch_name(line, branch, sizeof(branch)) ||
		    !(t->branch = g_strdup(branch)))
			g->oom = 1;
	}
	if (!t->release)
		g->oom = 1;
	return g->oom ? -1 : 0;
}

static int tip_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct fsi_tip *)a)->name, ((const struct fsi_tip *)b)->name);
}

struct fsi_tip *fsi_tips_find(const struct fsi_tips *ts, const char *name)
{
	struct fsi_tip key;

	key.name = (char *)name;
	return bsearch(&key, ts->t.v, ts->t.n, sizeof(key), tip_cmp_name);
}

/* The mainline: the first candidate found that leads to a commit.  The
 * messages name fixscan.mainline, where callers take it from. */
static int mainline_tip(struct tips_ctx *g, const struct fs_index_opts *opts,
			const struct fsi_refs *refs, struct fs_error *err)
{
	const struct ref_entry *found = NULL;
	git_oid commit;
	size_t i;
	int rc;

	for (i = 0; i < refs->e.n; i++) {
		const struct ref_entry *e = &refs->e.v[i];
		if (e->source != SRC_MAINLINE)
			continue;
		if (!found)
			found = e;
		rc = e->held ? target_commit(g, e->name, &e->target, &commit) : NO_COMMIT;
		if (rc < NO_COMMIT)
			return rc;
		if (rc == 0) {
			if (!(g->ts->mainline = g_strdup(e->name)) ||
			    add_tip(g->ts, e->name, FS_TIP_MAINLINE, &commit, &e->target) < 0)
				return fs_error_set(err, FS_ENOMEM, "out of memory");
			return 0;
		}
	}
	if (opts->mainline && !found)
		return fs_error_set(err, FS_ENOTFOUND,
				    "fixscan.mainline names '%s', which is not a ref in '%s'",
				    opts->mainline, opts->repo_path);
	if (opts->mainline)
		return fs_error_set(err, FS_EGIT, "cannot read mainline ref '%s'", found->name);
	return fs_error_set(err, FS_ENOTFOUND,
			    "no mainline ref in '%s' (looked for origin/master, master, main; set fixscan.mainline)",
			    opts->repo_path);
}

int fsi_tips_read(git_repository *repo, const struct fs_index_opts *opts,
		  const struct fsi_refs *given, const struct fsi_tip_hint *hint,
		  struct fsi_tips *ts, struct fs_error *err)
{
	struct fsi_refs *own = NULL;
	const struct fsi_refs *refs = given;
	struct tips_ctx g;
	size_t i;
	int rc = 0;

	memset(ts, 0, sizeof(*ts));
	memset(&g, 0, sizeof(g));
	g.repo = repo;
	g.repo_path = opts->repo_path;
	g.hint = hint;
	g.ts = ts;
	g.err = err;
	ts->shallow = git_repository_is_shallow(repo) == 1;
	if (!refs) {
		rc = fsi_refs_read(repo, opts, &own, err);
		refs = own;
	}
	if (rc == 0)
		rc = mainline_tip(&g, opts, refs, err);
	for (i = 0; rc == 0 && i < refs->e.n; i++) {
		const struct ref_entry *e = &refs->e.v[i];
		git_oid commit;

		if (e->source == SRC_MAINLINE || !e->held)
			continue;
		rc = target_commit(&g, e->name, &e->target, &commit);
		if (rc == NO_COMMIT) {
			rc = 0;
			continue;
		}
		if (rc < 0)
			break;
		if (e->source == SRC_PENDING) {
			if (pending_tip(&g, e, &commit) < 0)
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			continue;
		}
		if ((e->source == SRC_STABLE ? stable_tip(&g, e, &commit) : tag_tip(&g, e, &commit)) < 0)
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (rc == 0) {
		qsort(ts->t.v, ts->t.n, sizeof(*ts->t.v), tip_cmp_name);
		if (ts->pending.n)
			qsort(ts->pending.v, ts->pending.n, sizeof(*ts->pending.v), tip_cmp_name);
		ts->fingerprint = refs->fingerprint;
	}
	git_odb_free(g.odb);
	fsi_refs_free(own);
	if (rc < 0)
		fsi_tips_clear(ts);
	return rc;
}

int fsi_repo_open(git_repository **out, const char *path, struct fs_error *err)
{
	int rc;

	fs_git_init();
	rc = git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND) {
		struct stat st;
		if (stat(path, &st) < 0)
			return fs_error_set(err, FS_ENOTFOUND, "cannot open repository '%s': %s",
					    path, strerror(errno));
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is not a git repository", path);
	}
	if (rc < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open repository '%s'", path);
	return 0;
}
