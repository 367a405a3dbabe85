/* fixscan: where mainline got a name from, and the trees of branches
 * (see fixscan/treesyms.h).
 *
 * The commit that brought NAME into the files where mainline defines it
 * is found without walking the whole range between a branch's fork and
 * the upstream commit: the release tags of the range are bisected on
 * whether the files have NAME (a few tree lookups and blob reads each),
 * then the first-parent chain from the first tag that has it (or from
 * the upstream commit's parent) down to the last tag that does not, then,
 * when the commit found is a merge, the chain of the parent that brought
 * the name, and so on.  Presence is taken to be monotone along a chain
 * (a name mainline added and removed and added again may give the last
 * of the additions).  Commits, parents and releases come from the fixes
 * index; trees and blobs from the repository. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/csyms.h"
#include "fixscan/treesyms.h"
#include "fixscan/version.h"
#include "idset.h"
#include "load.h"

/* How deep merges are followed, and how long a first-parent chain is. */
#define MAX_DEPTH 16
#define MAX_CHAIN (1u << 22)
#define MEMO_SLOTS 256

/* ---- the index's graph --------------------------------------------------- */

static const struct fs_disk_commit *commit_of(const struct fs_index *idx, fs_cid c,
					      const struct fsi_layer **lp)
{
	const struct fsi_layer *L =
		idx->nlayers > 1 && c >= idx->layer[1].cid_base ? &idx->layer[1] : &idx->layer[0];

	*lp = L;
	return &L->commits[c - L->cid_base];
}

/* C's parent K, or FS_CID_NONE. */
static fs_cid parent_of(const struct fs_index *idx, fs_cid c, unsigned k)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = commit_of(idx, c, &L);
	uint32_t p;

	if (k >= dc->nparents)
		return FS_CID_NONE;
	p = L->parents[dc->parent_first + k];
	return p < fs_index_count(idx) ? p : FS_CID_NONE;
}

static unsigned nparents(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;

	return commit_of(idx, c, &L)->nparents;
}

static const char *lstr(const struct fsi_layer *L, uint32_t off)
{
	return off < L->strings_len ? L->strings + off : "";
}

/* The commit tag NAME ("v4.4") leads to, from the tips the index read:
 * its id into OID.  0, or -1. */
static int tag_commit(const struct fs_index *idx, const char *name, uint8_t *oid)
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 0; i < T->ntips; i++) {
		const char *n = lstr(T, T->tips[i].name);

		if (T->tips[i].kind == FS_TIP_TAG && !strncmp(n, "refs/tags/", 10) &&
		    !strcmp(n + 10, name)) {
			memcpy(oid, T->tips[i].oid, 20);
			return 0;
		}
	}
	return -1;
}

/* The commit tag NAME points at, as tag_commit() finds it, from T's table
 * of the tags (made once per index layer: a linear search per release
 * would read the whole table of refs for each). */
static int tag_oid(struct fs_treesyms *t, const struct fs_index *idx, const char *name,
		   uint8_t *oid)
{
	const struct fsi_layer *T = fsi_top(idx);
	const uint8_t *got;
	size_t i;

	if (!t->tags || t->tags_of != T) {
		if (t->tags)
			g_hash_table_destroy(t->tags);
		t->tags = g_hash_table_new(g_str_hash, g_str_equal);
		t->tags_of = T;
		for (i = 0; i < T->ntips; i++) {
			const char *n = lstr(T, T->tips[i].name);

			/* the first of one name, as tag_commit() */
			if (T->tips[i].kind == FS_TIP_TAG && !strncmp(n, "refs/tags/", 10) &&
			    !g_hash_table_contains(t->tags, n + 10))
				g_hash_table_insert(t->tags, (gpointer)(n + 10),
						    (gpointer)T->tips[i].oid);
		}
	}
	if (!(got = g_hash_table_lookup(t->tags, name)))
		return -1;
	memcpy(oid, got, 20);
	return 0;
}

/* Whether NAME is a mainline release tag ("v4.4", "v4.5-rc3", "v2.6.32"). */
static bool mainline_release(const char *name)
{
	struct fs_version v;

	return fs_version_parse(name, &v) && v.v && fs_version_is_mainline(&v);
}

/* ---- presence ---------------------------------------------------------------- */

struct probe {
	struct fs_treesyms *t;
	const struct fs_index *idx;
	const char *name;
	const char *const *paths;
	size_t npaths;
	struct {
		uint8_t oid[20];
		int has; /* 0 empty, 1 no, 2 yes */
	} memo[MEMO_SLOTS];
	int err;
};

/* Whether blob OID has the name, read once. */
static int blob_has(struct probe *p, const uint8_t *oid)
{
	unsigned k = ((unsigned)oid[0] << 8 | oid[1]) % MEMO_SLOTS;
	unsigned char *data;
	size_t len;
	int rc;

	if (p->memo[k].has && !memcmp(p->memo[k].oid, oid, 20))
		return p->memo[k].has == 2;
	rc = fsi_object_read(&p->t->o, oid, FS_PACK_BLOB, &data, &len);
	if (rc < 0) {
		p->err = rc;
		return 0;
	}
	rc = fs_csyms_text_has((const char *)data, len, p->name);
	g_free(data);
	memcpy(p->memo[k].oid, oid, 20);
	p->memo[k].has = rc ? 2 : 1;
	return rc;
}

/* Whether the files of commit OID have the name. */
static bool has_at(struct probe *p, const uint8_t *oid)
{
	uint8_t tree[20], ptree[20], blob[20];
	unsigned np, mode;
	size_t i;
	int rc = fsi_commit_trees(&p->t->o, oid, tree, ptree, &np);

	if (rc < 0) {
		p->err = rc;
		return false;
	}
	for (i = 0; i < p->npaths && !p->err; i++) {
		rc = fsi_tree_path(&p->t->o, tree, p->paths[i], blob, &mode);
		if (rc == FS_ENOTFOUND || (rc == 0 && !fsi_mode_file(mode)))
			continue;
		if (rc < 0)
			p->err = rc;
		else if (blob_has(p, blob))
			return true;
	}
	return false;
}

static bool has_cid(struct probe *p, fs_cid c)
{
	const struct fsi_layer *L;

	return has_at(p, commit_of(p->idx, c, &L)->oid);
}

/* ---- the search --------------------------------------------------------------- */

/* Whether release REL (NULL: none yet) is BOTTOM or older. */
static bool at_or_before(const char *rel, const char *bottom)
{
	return rel && fs_version_name_cmp(rel, bottom) <= 0;
}

/* From TOP (whose files have the name) down its first-parent chain to a
 * commit of release BOTTOM or older: the commit that brought the name. */
static int descend(struct probe *p, fs_cid top, const char *bottom, int depth, fs_cid *out)
{
	fs_cid *chain = NULL, c = top;
	size_t n = 0, cap = 0, lo, hi;
	unsigned k;
	int rc = 1;

	if (depth > MAX_DEPTH)
		return 1;
	for (;;) {
		if (n == cap) {
			fs_cid *nc = realloc(chain, (cap = cap ? cap * 2 : 256) * sizeof(*chain));

			if (!nc) {
				free(chain);
				return FS_ENOMEM;
			}
			chain = nc;
		}
		chain[n++] = c;
		if ((n > 1 && at_or_before(fs_index_commit_release(p->idx, c), bottom)) ||
		    n >= MAX_CHAIN || (c = parent_of(p->idx, c, 0)) == FS_CID_NONE)
			break;
	}
	/* CHAIN[0] has it: the last that has it, the one after it lacking it
	 * (one that had it at BOTTOM already brought nothing here) */
	lo = 0;
	hi = n - 1;
	if (n > 1 && has_cid(p, chain[hi]))
		hi = 0;
	while (hi - lo > 1 && !p->err) {
		size_t mid = lo + (hi - lo) / 2;

		if (has_cid(p, chain[mid]))
			lo = mid;
		else
			hi = mid;
	}
	c = chain[lo];
	free(chain);
	if (p->err)
		return p->err;
	if (n > 1 && !hi)
		return 1;
	if (nparents(p->idx, c) < 2) {
		*out = c;
		return fs_index_commit_is_mainline(p->idx, c) ? 0 : 1;
	}
	/* a merge: the parent that brought the name */
	for (k = 1; k < nparents(p->idx, c) && rc == 1; k++) {
		fs_cid q = parent_of(p->idx, c, k);

		if (q != FS_CID_NONE && has_cid(p, q))
			rc = descend(p, q, bottom, depth + 1, out);
		if (p->err)
			return p->err;
	}
	return rc;
}

int fs_treesyms_introduced(struct fs_treesyms *t, const struct fs_index *idx, const char *name,
			   const char *const *paths, size_t npaths, fs_cid upstream,
			   const char *fork, fs_cid *out, struct fs_error *err)
{
	const struct fsi_layer *T = fsi_top(idx);
	struct probe *p = calloc(1, sizeof(*p));
	const char *top_rel, *bottom = fork;
	uint8_t oid[20];
	fs_cid top = parent_of(idx, upstream, 0);
	size_t i, lo, hi, ntags = 0;
	uint32_t *tags = NULL;
	int rc = 1;

	*out = FS_CID_NONE;
	if (!p)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	*p = (struct probe){ .t = t, .idx = idx, .name = name, .paths = paths, .npaths = npaths };
	if (top == FS_CID_NONE || !fork || !npaths || !has_cid(p, top) ||
	    tag_oid(t, idx, fork, oid) < 0 || has_at(p, oid))
		goto done;
	/* the mainline tags after the fork, up to the release of TOP */
	top_rel = fs_index_commit_release(idx, top);
	if (!(tags = malloc((T->nreleases + 1) * sizeof(*tags)))) {
		rc = FS_ENOMEM;
		goto done;
	}
	for (i = 1; i < T->nreleases; i++) {
		const char *r = lstr(T, T->releases[i]);

		if (mainline_release(r) && fs_version_name_cmp(r, fork) > 0 &&
		    (!top_rel || fs_version_name_cmp(r, top_rel) <= 0) && tag_oid(t, idx, r, oid) == 0)
			tags[ntags++] = T->releases[i];
	}
	/* the first of them that has it (NTAGS: none, TOP's own window) */
	lo = 0;
	hi = ntags;
	while (lo < hi && !p->err) {
		size_t mid = lo + (hi - lo) / 2;

		tag_oid(t, idx, lstr(T, tags[mid]), oid);
		if (has_at(p, oid))
			hi = mid;
		else
			lo = mid + 1;
	}
	if (hi > 0)
		bottom = lstr(T, tags[hi - 1]);
	if (hi < ntags) {
		char hex[41];

		tag_oid(t, idx, lstr(T, tags[hi]), oid);
		fsi_hex(oid, hex);
		if (fs_index_resolve(idx, hex, &top, NULL) < 0)
			goto done;
	}
	if (!p->err)
		rc = descend(p, top, bottom, 0, out);
done:
	if (p->err)
		rc = p->err;
	free(tags);
	free(p);
	/* the pages of the packs it read go back: a review searches the
	 * history of many names, and the index and the upstream diffs map
	 * the same packs */
	fsi_objects_drop(&t->o);
	if (rc == FS_ENOTFOUND)
		return fs_error_set(err, rc, "the clone lacks objects of mainline's history of %s",
				    name);
	if (rc < 0)
		return fs_error_set(err, rc, "cannot read mainline's history of %s", name);
	return rc;
}

/* ---- the trees of branches ------------------------------------------------------- */

int fs_treesyms_branch_commit(const struct fs_index *idx, const char *branch, const char *base,
			      char hex[41])
{
	const struct fsi_layer *T = fsi_top(idx);
	const uint8_t *best = NULL;
	uint8_t oid[20];
	size_t i, bl;

	hex[0] = '\0';
	if (!branch)
		return fs_index_mainline_tip(idx, hex) < 0 ? FS_ENOTFOUND : 0;
	if (base) {
		if (tag_commit(idx, base, oid) < 0)
			return FS_ENOTFOUND;
		fsi_hex(oid, hex);
		return 0;
	}
	/* the branch's ref: a local one before a remote's */
	bl = strlen(branch);
	for (i = 0; i < T->ntips; i++) {
		const char *n = lstr(T, T->tips[i].name);
		size_t nl = strlen(n);

		if (T->tips[i].kind != FS_TIP_STABLE || nl <= bl || n[nl - bl - 1] != '/' ||
		    strcmp(n + nl - bl, branch))
			continue;
		if (!best || !strncmp(n, "refs/heads/", 11))
			best = T->tips[i].oid;
	}
	if (!best)
		return FS_ENOTFOUND;
	fsi_hex(best, hex);
	return 0;
}

/* ---- files of commits -------------------------------------------------------------- */

static int commit_tree(struct fs_treesyms *t, const char *hex, uint8_t *tree, uint8_t *ptree,
		       unsigned *np, struct fs_error *err)
{
	uint8_t oid[20];
	int rc;

	if (fsi_unhex(hex, oid) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is no commit id", hex);
	rc = fsi_commit_trees(&t->o, oid, tree, ptree, np);
	if (rc == FS_ENOTFOUND)
		return fs_error_set(err, rc, "no commit %.12s in the repository", hex);
	if (rc < 0)
		return fs_error_set(err, rc, "cannot read commit %.12s", hex);
	return 0;
}

int fs_treesyms_has_path(struct fs_treesyms *t, const char *hex, const char *path,
			 struct fs_error *err)
{
	uint8_t tree[20], ptree[20], oid[20];
	unsigned np, mode;
	int rc = commit_tree(t, hex, tree, ptree, &np, err);

	if (rc < 0)
		return rc;
	rc = fsi_tree_path(&t->o, tree, path, oid, &mode);
	if (rc == FS_ENOTFOUND)
		return 0;
	if (rc < 0)
		return fs_error_set(err, rc, "cannot read the tree of %.12s", hex);
	return 1;
}

struct paths {
	char **v;
	size_t n, cap;
};

static int on_path(void *ctx, const char *path, const uint8_t *old_oid, const uint8_t *new_oid)
{
	struct paths *ps = ctx;

	(void)new_oid;
	if (!old_oid)
		return 0; /* a file the commit adds */
	if (ps->n + 1 >= ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		char **v = realloc(ps->v, cap * sizeof(*v));

		if (!v)
			return FS_ENOMEM;
		ps->v = v;
		ps->cap = cap;
	}
	if (ps->n && !strcmp(ps->v[ps->n - 1], path))
		return 0; /* a file that became a directory's file: once */
	if (!(ps->v[ps->n] = strdup(path)))
		return FS_ENOMEM;
	ps->v[++ps->n] = NULL;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fs_treesyms_changed_paths(struct fs_treesyms *t, const char *hex, char ***paths, size_t *n,
			      struct fs_error *err)
{
	uint8_t tree[20], ptree[20], oid[20];
	struct paths ps = { NULL, 0, 0 };
	unsigned np;
	size_t i;
	int rc;

	*paths = NULL;
	*n = 0;
	/* kept from an earlier run: its trees are not read again */
	if (fsi_unhex(hex, oid) == 0 && fsi_paths_get(t, oid, paths)) {
		*n = g_strv_length(*paths);
		return 0;
	}
	rc = commit_tree(t, hex, tree, ptree, &np, err);
	if (rc < 0)
		return rc;
	rc = np ? fsi_tree_diff(&t->o, ptree, tree, on_path, &ps) : 0;
	if (rc == 0 && !ps.v && !(ps.v = calloc(1, sizeof(*ps.v))))
		rc = FS_ENOMEM;
	if (rc < 0) {
		for (i = 0; i < ps.n; i++)
			free(ps.v[i]);
		free(ps.v);
		return fs_error_set(err, rc, rc == FS_ENOMEM ? "out of memory" :
					     "cannot read the trees of %.12s", hex);
	}
	qsort(ps.v, ps.n, sizeof(*ps.v), str_cmp);
	fsi_paths_put(t, oid, ps.v);
	*paths = ps.v;
	*n = ps.n;
	return 0;
}
