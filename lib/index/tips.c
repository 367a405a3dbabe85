/* fixscan: the refs and tags the index reads: the mainline ref, the
 * stable branch refs and the release tags, as the caller's options name
 * them.  No config is read here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include "fixscan/index.h"
#include "git-util.h"
#include "format.h"
#include "tips.h"

void fsi_tips_clear(struct fsi_tips *ts)
{
	size_t i;

	for (i = 0; i < ts->t.n; i++) {
		free(ts->t.v[i].name);
		free(ts->t.v[i].release);
		free(ts->t.v[i].branch);
	}
	free(ts->t.v);
	free(ts->mainline);
	memset(ts, 0, sizeof(*ts));
}

/* Read the decimal number at *P into *N, moving *P past it. */
static int take_number(const char **p, long *n)
{
	char *end;

	if (**p < '0' || **p > '9')
		return 0;
	errno = 0;
	*n = strtol(*p, &end, 10);
	*p = end;
	return errno == 0 && *n >= 0 && *n < 100000;
}

/* Whether NAME is a release tag, and of which line.  "v4.4", "v4.4-rc3"
 * are mainline releases of line "4.4", "v4.4.7" a stable release of line
 * "4.4" (branch linux-4.4.y).  Before 3.0 the mainline had three numbers:
 * "v2.6.32" and "v2.6.32-rc1" are mainline releases of line "2.6.32", and
 * "v2.6.32.5" a stable release of it (branch linux-2.6.32.y).  Anything
 * else is not a release. */
int fsi_classify_tag(const char *name, char line[FSI_LINE_MAX], int *stable)
{
	const char *p = name;
	long n[4];
	int parts = 0, rc = 0, mainline_parts;

	if (*p++ != 'v')
		return 0;
	for (;;) {
		if (!take_number(&p, &n[parts]))
			return 0;
		parts++;
		if (*p != '.' || parts == 4)
			break;
		p++;
	}
	if (!strncmp(p, "-rc", 3)) {
		long k;
		p += 3;
		if (!take_number(&p, &k))
			return 0;
		rc = 1;
	}
	if (*p != '\0' || parts < 2)
		return 0;
	mainline_parts = n[0] == 2 && n[1] == 6 ? 3 : 2;
	if (parts < mainline_parts || parts > mainline_parts + 1 || (rc && parts != mainline_parts))
		return 0;
	*stable = parts > mainline_parts;
	if (mainline_parts == 3)
		snprintf(line, FSI_LINE_MAX, "%ld.%ld.%ld", n[0], n[1], n[2]);
	else
		snprintf(line, FSI_LINE_MAX, "%ld.%ld", n[0], n[1]);
	return 1;
}

static int add_tip(struct fsi_tips *ts, const char *name, int kind, const git_oid *oid)
{
	struct fsi_tip t;

	memset(&t, 0, sizeof(t));
	t.name = strdup(name);
	t.kind = kind;
	t.oid = *oid;
	if (!t.name || VEC_PUSH(ts->t, t)) {
		free(t.name);
		return -1;
	}
	return 0;
}

static int peel_commit(git_repository *repo, const char *refname, git_oid *out)
{
	git_reference *ref = NULL;
	git_object *obj = NULL;
	int rc;

	rc = git_reference_lookup(&ref, repo, refname);
	if (rc == 0)
		rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
	if (rc == 0)
		git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	git_reference_free(ref);
	return rc;
}

struct glob_ctx {
	git_repository *repo;
	git_odb *odb;
	struct fsi_tips *ts;
	int kind;
	int oom;
};

/* The commit REF leads to, through a symbolic ref and tags; <0 when it
 * leads to none.  Object headers tell commits from tags, so a ref to a
 * commit costs no inflating. */
static int ref_commit(struct glob_ctx *g, const git_reference *ref, git_oid *out)
{
	git_reference *resolved = NULL;
	git_oid oid;
	int depth;

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC) {
		if (git_reference_resolve(&resolved, ref) < 0)
			return -1;
		ref = resolved;
	}
	git_oid_cpy(&oid, git_reference_target(ref));
	git_reference_free(resolved);
	for (depth = 0; depth < 16; depth++) {
		git_object_t type;
		git_tag *tag;
		size_t len;

		if (git_odb_read_header(&len, &type, g->odb, &oid) < 0)
			return -1;
		if (type == GIT_OBJECT_COMMIT) {
			git_oid_cpy(out, &oid);
			return 0;
		}
		if (type != GIT_OBJECT_TAG || git_tag_lookup(&tag, g->repo, &oid) < 0)
			return -1;
		git_oid_cpy(&oid, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	return -1;
}

/* CB(G, name, commit) for each ref matching GLOB that leads to a commit;
 * stops at a non-zero return of CB, which it returns.  Each ref is read
 * once (a lookup by name after a listing would read it again). */
static int foreach_commit_ref(struct glob_ctx *g, const char *glob,
			      int (*cb)(struct glob_ctx *, const char *, const git_oid *))
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int rc;

	if (git_reference_iterator_glob_new(&it, g->repo, glob) < 0)
		return -1;
	while ((rc = git_reference_next(&ref, it)) == 0) {
		git_oid oid;
		if (ref_commit(g, ref, &oid) == 0)
			rc = cb(g, git_reference_name(ref), &oid);
		git_reference_free(ref);
		if (rc)
			break;
	}
	git_reference_iterator_free(it);
	return rc == GIT_ITEROVER ? 0 : rc;
}

static int stable_ref_cb(struct glob_ctx *g, const char *name, const git_oid *commit)
{
	const char *base = strrchr(name, '/');
	git_oid oid = *commit;
	size_t i;

	base = base ? base + 1 : name;
	/* The same branch on two remotes (a stale origin, a fresh stable
	 * remote) is one branch: every such ref is a tip, and the branch is
	 * what any of them reaches. */
	for (i = 0; i < g->ts->t.n; i++)
		if (!strcmp(g->ts->t.v[i].name, name))
			return 0;
	if (add_tip(g->ts, name, FS_TIP_STABLE, &oid) < 0 ||
	    !(g->ts->t.v[g->ts->t.n - 1].branch = strdup(base))) {
		g->oom = 1;
		return -1;
	}
	return 0;
}

/* A tag of a tree or a blob leads to no commit and names no release. */
static int tag_cb(struct glob_ctx *g, const char *name, const git_oid *commit)
{
	struct fsi_tip *t;
	char line[FSI_LINE_MAX];
	int stable;
	const char *short_name = name + strlen("refs/tags/");

	if (!fsi_classify_tag(short_name, line, &stable))
		return 0;
	if (add_tip(g->ts, name, FS_TIP_TAG, commit) < 0) {
		g->oom = 1;
		return -1;
	}
	t = &g->ts->t.v[g->ts->t.n - 1];
	t->release = strdup(short_name);
	t->stable_tag = stable;
	memcpy(t->line, line, sizeof(t->line));
	if (stable && t->release &&
	    asprintf(&t->branch, "linux-%s.y", line) < 0)
		t->branch = NULL, g->oom = 1;
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

/* The mainline ref: OPTS->mainline as git would expand it, else the first
 * default that exists.  The messages name fixscan.mainline, where callers
 * take it from. */
static int read_mainline(git_repository *repo, const struct fs_index_opts *opts,
			 struct fsi_tips *ts, struct fs_error *err)
{
	static const char *const defaults[] = {
		"refs/remotes/origin/master", "refs/heads/master", "refs/heads/main",
	};
	git_oid oid;
	int rc, i;

	if (opts->mainline) {
		git_reference *ref = NULL;
		/* Accept "origin/master" as well as a full ref name. */
		rc = git_reference_dwim(&ref, repo, opts->mainline);
		if (rc == 0) {
			ts->mainline = strdup(git_reference_name(ref));
			git_reference_free(ref);
		}
		if (rc < 0 || !ts->mainline)
			return fs_error_set(err, FS_ENOTFOUND,
					    "fixscan.mainline names '%s', which is not a ref in '%s'",
					    opts->mainline, opts->repo_path);
	} else {
		for (i = 0; i < 3 && !ts->mainline; i++)
			if (peel_commit(repo, defaults[i], &oid) == 0)
				ts->mainline = strdup(defaults[i]);
		if (!ts->mainline)
			return fs_error_set(err, FS_ENOTFOUND,
					    "no mainline ref in '%s' (looked for origin/master, master, main; set fixscan.mainline)",
					    opts->repo_path);
	}
	if (peel_commit(repo, ts->mainline, &oid) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot read mainline ref '%s'",
					ts->mainline);
	if (add_tip(ts, ts->mainline, FS_TIP_MAINLINE, &oid) < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 0;
}

/* The stable refs (OPTS->stable_globs, else the defaults), then the
 * release tags. */
static int read_stable_and_tags(struct glob_ctx *g, const struct fs_index_opts *opts,
				struct fs_error *err)
{
	static const char *const defaults[] = {
		"refs/remotes/*/linux-*.y", "refs/heads/linux-*.y",
	};
	const char *const *globs = opts->nstable_globs ? opts->stable_globs : defaults;
	size_t nglobs = opts->nstable_globs ? opts->nstable_globs : 2, i;
	int rc;

	g->kind = FS_TIP_STABLE;
	for (i = 0; i < nglobs; i++) {
		rc = foreach_commit_ref(g, globs[i], stable_ref_cb);
		if (g->oom)
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		if (rc < 0)
			return fs_error_set_git(err, FS_EGIT, "cannot list refs of '%s'",
						opts->repo_path);
	}
	g->kind = FS_TIP_TAG;
	rc = foreach_commit_ref(g, "refs/tags/v*", tag_cb);
	if (g->oom)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot list tags of '%s'", opts->repo_path);
	return 0;
}

int fsi_tips_read(git_repository *repo, const struct fs_index_opts *opts,
		  struct fsi_tips *ts, struct fs_error *err)
{
	struct glob_ctx g = { repo, NULL, ts, 0, 0 };
	int rc;

	memset(ts, 0, sizeof(*ts));
	ts->shallow = git_repository_is_shallow(repo) == 1;
	if (git_repository_odb(&g.odb, repo) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open the object database of '%s'",
					opts->repo_path);
	rc = read_mainline(repo, opts, ts, err);
	if (rc == 0)
		rc = read_stable_and_tags(&g, opts, err);
	if (rc == 0)
		qsort(ts->t.v, ts->t.n, sizeof(*ts->t.v), tip_cmp_name);
	git_odb_free(g.odb);
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
