/* fixscan: the patch-ids of indexed commits, read from the repository on
 * demand.  The cache keeps no diffs: two commits that the subject table
 * finds equal (fs_index_equivalents()) are compared here, a handful per
 * review, never all of them at build time. */
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/index.h"
#include "base/git-util.h"
#include "load.h"
#include "patchid.h"

/* The value stored for a commit whose diff cannot be read. */
static git_oid no_patchid;

/* C's id, from the layer that holds it (the lookups of query.c are not
 * called from here: they call this). */
static void oid_of(const struct fs_index *idx, fs_cid c, git_oid *oid)
{
	const struct fsi_layer *L = idx->nlayers > 1 && c >= idx->layer[1].cid_base ?
				    &idx->layer[1] : &idx->layer[0];

	memcpy(oid->id, L->commits[c - L->cid_base].oid, 20);
}

static int compute(git_repository *repo, const git_oid *oid, git_oid *out)
{
	git_commit *commit = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	int ok = 0;

	if (git_commit_lookup(&commit, repo, oid) < 0)
		return 0;
	if (git_commit_tree(&tree, commit) < 0)
		goto done;
	/* A root commit's diff is against the empty tree; a merge's is
	 * against its first parent, as git show --first-parent gives it. */
	if (git_commit_parentcount(commit) > 0 &&
	    (git_commit_parent(&parent, commit, 0) < 0 || git_commit_tree(&ptree, parent) < 0))
		goto done;
	if (git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL) < 0)
		goto done;
	ok = git_diff_patchid(out, diff, NULL) == 0;
done:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(commit);
	return ok;
}

int fsi_patchid(const struct fs_index *cidx, fs_cid c, git_oid *out)
{
	/* The cache of answers is the one part of an index that lookups
	 * change; it does not change what any lookup answers. */
	struct fs_index *idx = (struct fs_index *)cidx;
	git_oid *known, oid;

	if (!idx->repo_path)
		return 0;
	if (!idx->patchids)
		idx->patchids = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	known = g_hash_table_lookup(idx->patchids, GUINT_TO_POINTER(c + 1));
	if (!known) {
		if (!idx->repo) {
			git_repository *repo = NULL;
			fs_git_init();
			if (git_repository_open(&repo, idx->repo_path) < 0) {
				free(idx->repo_path); /* no repository: no trees */
				idx->repo_path = NULL;
				return 0;
			}
			idx->repo = repo;
		}
		known = g_new(git_oid, 1);
		oid_of(idx, c, &oid);
		if (!compute(idx->repo, &oid, known))
			*known = no_patchid;
		g_hash_table_insert(idx->patchids, GUINT_TO_POINTER(c + 1), known);
	}
	if (!memcmp(known, &no_patchid, sizeof(*known)))
		return 0;
	*out = *known;
	return 1;
}

void fsi_patchid_free(struct fs_index *idx)
{
	if (idx->patchids)
		g_hash_table_destroy(idx->patchids);
	git_repository_free(idx->repo);
	free(idx->repo_path);
	idx->patchids = NULL;
	idx->repo = NULL;
	idx->repo_path = NULL;
}

/* The diff of a mail body BODY (LEN bytes): from its first "diff --git"
 * line to a signature line ("-- ") or the end; *N its length; NULL when
 * there is none. */
static const char *diff_part(const char *body, size_t len, size_t *n)
{
	const char *p = body, *end = body + len, *sig;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if ((size_t)(end - p) >= 11 && !memcmp(p, "diff --git ", 11))
			break;
		p = nl ? nl + 1 : end;
	}
	if (p >= end)
		return NULL;
	for (sig = p; sig < end;) {
		const char *nl = memchr(sig, '\n', (size_t)(end - sig));
		if ((size_t)(end - sig) >= 4 && !memcmp(sig, "-- \n", 4))
			break;
		sig = nl ? nl + 1 : end;
	}
	*n = (size_t)(sig - p);
	return p;
}

int fs_index_diff_matches(const struct fs_index *idx, fs_cid c, const char *body, size_t len)
{
	git_diff *diff = NULL;
	git_oid mine, theirs;
	const char *d;
	size_t n;
	int rc;

	if (!body || !(d = diff_part(body, len, &n)) || !fsi_patchid(idx, c, &theirs))
		return -1;
	fs_git_init();
	if (git_diff_from_buffer(&diff, d, n) < 0)
		return -1;
	rc = git_diff_patchid(&mine, diff, NULL) == 0 ? git_oid_equal(&mine, &theirs) : -1;
	git_diff_free(diff);
	return rc;
}
