/* fixscan: releases and branches in the fixes index: a branch's fork, what
 * a branch holds as of a release, whether a change is present net of
 * reverts, and the mainline tip. */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/version.h"
#include "base/git-util.h"
#include "format.h"
#include "load.h"
#include "query-private.h"

static int release_index(const struct fs_index *idx, const char *name)
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 1; i < T->nreleases; i++)
		if (!strcmp(fsi_lstr(T, T->releases[i]), name))
			return (int)i;
	return -1;
}

static int branch_index(const struct fs_index *idx, const char *name)
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 1; i < T->nbranches; i++)
		if (!strcmp(fsi_lstr(T, T->branches[i].name), name))
			return (int)i;
	return -1;
}

bool fs_index_has_branch(const struct fs_index *idx, const char *branch)
{
	return branch_index(idx, branch) > 0;
}

const char *fs_index_branch_fork(const struct fs_index *idx, const char *branch)
{
	const struct fsi_layer *T = fsi_top(idx);
	int b = branch_index(idx, branch);

	if (b <= 0 || !T->branches[b].fork)
		return NULL;
	return fsi_lstr(T, T->releases[T->branches[b].fork]);
}

bool fs_index_in_branch(const struct fs_index *idx, fs_cid c, const char *branch,
			const char *base)
{
	const struct fsi_layer *T = fsi_top(idx);
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, NULL);
	unsigned rel = fsi_release_of(idx, c);
	int b = branch_index(idx, branch), r;

	if (b <= 0)
		return false;
	if (dc->branch == 0) {
		uint16_t fork = T->branches[b].fork;
		return fork && rel && rel <= fork;
	}
	if (dc->branch != b)
		return false;
	if (!base)
		return true;
	if (!rel)
		return false;
	r = release_index(idx, base);
	if (r > 0)
		return rel <= (unsigned)r;
	return fs_version_name_cmp(fsi_lstr(T, T->releases[rel]), base) <= 0;
}

bool fs_index_has_release(const struct fs_index *idx, const char *name)
{
	return name && release_index(idx, name) > 0;
}

int fs_index_mainline_tip(const struct fs_index *idx, char hex[41])
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 0; i < T->ntips; i++) {
		if (T->tips[i].kind != FS_TIP_MAINLINE)
			continue;
		git_oid_tostr(hex, 41, (const git_oid *)T->tips[i].oid);
		return 0;
	}
	hex[0] = '\0';
	return FS_ENOTFOUND;
}

/* The commit HEX of REPO_PATH, for the two readers below.  Free both
 * with git_commit_free() and git_repository_free(). */
static int open_commit(const char *repo_path, const char *hex, git_repository **repo,
		       git_commit **commit, struct fs_error *err)
{
	git_oid oid;

	fs_git_init();
	*repo = NULL;
	*commit = NULL;
	if (git_oid_fromstr(&oid, hex) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is not a commit id", hex);
	if (git_repository_open(repo, repo_path) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open '%s'", repo_path);
	if (git_commit_lookup(commit, *repo, &oid) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
		return fs_error_set_git(err, FS_ENOTFOUND, "no commit %s in '%s'", hex, repo_path);
	}
	return 0;
}

int fs_index_mainline_time(const struct fs_index *idx, const char *repo_path,
			   int64_t *when, struct fs_error *err)
{
	git_repository *repo;
	git_commit *commit;
	char hex[41];
	int rc;

	*when = 0;
	if (fs_index_mainline_tip(idx, hex) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "the index has no mainline tip");
	rc = open_commit(repo_path, hex, &repo, &commit, err);
	if (rc < 0)
		return rc;
	*when = (int64_t)git_commit_time(commit);
	git_commit_free(commit);
	git_repository_free(repo);
	return 0;
}

int fs_index_read_message(void *repo_path, const char *hex, char **out)
{
	struct fs_error err = FS_ERROR_INIT;
	git_repository *repo;
	git_commit *commit;
	const char *msg;
	int rc;

	*out = NULL;
	rc = open_commit(repo_path, hex, &repo, &commit, &err);
	if (rc < 0)
		return rc;
	msg = git_commit_message(commit);
	*out = g_strdup(msg ? msg : "");
	git_commit_free(commit);
	git_repository_free(repo);
	return *out ? 0 : FS_ENOMEM;
}

/* ---- presence net of reverts ----------------------------------------------- */

/* The commit of BRANCH (NULL: mainline) as of BASE that brings X as it
 * is, reverts aside: X itself, or a backport of X; FS_CID_NONE. */
static fs_cid bringer(const struct fs_index *idx, fs_cid x, const char *branch, const char *base)
{
	struct fsi_u32vec bp = { NULL, 0, 0 };
	fs_cid found = FS_CID_NONE;
	size_t i;

	if (!branch)
		return fs_index_commit_is_mainline(idx, x) ? x : FS_CID_NONE;
	if (fs_index_in_branch(idx, x, branch, base))
		return x;
	if (!fs_index_commit_is_mainline(idx, x))
		return FS_CID_NONE;
	fsi_backports_all(idx, x, &bp);
	for (i = 0; i < bp.n && found == FS_CID_NONE; i++)
		if (fs_index_in_branch(idx, bp.v[i], branch, base))
			found = bp.v[i];
	free(bp.v);
	return found;
}

/* The revert in BRANCH that undoes BROUGHT (which brings mainline M
 * there, or is M), not itself undone; FS_CID_NONE when none does.  An
 * even chain of reverts restores, an odd one undoes. */
static fs_cid undone_by(const struct fs_index *idx, fs_cid brought, fs_cid m,
			const char *branch, const char *base, unsigned depth)
{
	const unsigned kinds = FS_REF_BIT(FS_REF_REVERTS) | FS_REF_BIT(FS_REF_REVERTS_UPSTREAM);
	struct fsi_u32vec pos = { NULL, 0, 0 };
	fs_cid targets[2] = { brought, m }, res = FS_CID_NONE;
	size_t t, i;

	if (depth > 16)
		return FS_CID_NONE;
	for (t = 0; t < 2 && res == FS_CID_NONE; t++) {
		if (targets[t] == FS_CID_NONE || (t == 1 && m == brought))
			continue;
		if (fsi_refs_naming(idx, targets[t], kinds, &pos) < 0)
			break;
		for (i = 0; i < pos.n && res == FS_CID_NONE; i++) {
			fs_cid s = fsi_ref_at(idx, pos.v[i])->source, sb, sm;
			if (s == brought || s == m)
				continue;
			sb = bringer(idx, s, branch, base);
			if (sb == FS_CID_NONE)
				continue;
			sm = fs_index_commit_is_mainline(idx, s) ? s : fs_index_upstream_of(idx, s);
			if (undone_by(idx, sb, sm == FS_CID_NONE ? sb : sm, branch, base,
				      depth + 1) == FS_CID_NONE)
				res = sb;
		}
	}
	free(pos.v);
	return res;
}

bool fs_index_present(const struct fs_index *idx, fs_cid c, const char *branch,
		      const char *base, struct fs_index_presence *p)
{
	struct fs_index_presence local;
	fs_cid names[9], m = c;
	size_t n = 1, i;

	if (!p)
		p = &local;
	p->present = false;
	p->brought = p->reverted_by = FS_CID_NONE;
	if (!fs_index_commit_is_mainline(idx, c)) {
		fs_cid u = fs_index_upstream_of(idx, c);
		if (u != FS_CID_NONE)
			m = u;
	}
	names[0] = m;
	if (fs_index_commit_is_mainline(idx, m)) {
		size_t ne = fs_index_equivalents(idx, m, names + 1, 8);
		n += ne < 8 ? ne : 8;
	}
	if (m != c && fs_index_in_branch(idx, c, branch ? branch : "", base))
		names[0] = c; /* the stable commit itself brings it */
	for (i = 0; i < n; i++) {
		fs_cid b = bringer(idx, names[i], branch, base), r;
		if (b == FS_CID_NONE)
			continue;
		r = undone_by(idx, b, names[i] == c ? m : names[i], branch, base, 0);
		if (r == FS_CID_NONE) {
			p->present = true;
			p->brought = b;
			p->reverted_by = FS_CID_NONE;
			return true;
		}
		if (p->brought == FS_CID_NONE) {
			p->brought = b;
			p->reverted_by = r;
		}
	}
	return false;
}
