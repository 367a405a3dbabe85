/* fixscan: trees and blobs of a repository (see trees.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <git2.h>

#include <glib.h>

#include "base/git-util.h"
#include "trees.h"

/* The cache of objects made, direct-mapped by pack and offset: a blob
 * read in pack order finds its delta base (read just before) there.
 * Its slots (2^12), the largest object kept, all of them. */
#define CACHE_SLOT_BITS 12
#define CACHE_MAX_ONE (1u << 20)
#define CACHE_MAX_ALL (16u << 20)
/* Objects read between two gives-back of the packs' pages in lookups. */
#define DROP_EVERY 128

/* ---- opening and reading ---------------------------------------------------- */

int fsi_objects_open(struct fsi_objects *o, const char *repo_path, struct fs_error *err)
{
	git_repository *repo = NULL;
	char *objects = NULL;

	memset(o, 0, sizeof(*o));
	fs_git_init();
	if (git_repository_open(&repo, repo_path) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open '%s'", repo_path);
	o->repo = repo;
	if (git_repository_odb((git_odb **)&o->odb, repo) < 0) {
		fsi_objects_close(o);
		return fs_error_set_git(err, FS_EGIT, "cannot open the objects of '%s'", repo_path);
	}
	o->cache = fs_objcache_new(CACHE_SLOT_BITS, CACHE_MAX_ONE, CACHE_MAX_ALL);
	o->path = strdup(repo_path);
	if (!o->cache || !o->path ||
	    asprintf(&objects, "%sobjects", git_repository_commondir(repo)) < 0) {
		fsi_objects_close(o);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	o->have_packs = fs_packs_open(&o->packs, objects, FS_PACKS_RANDOM) == 0;
	free(objects);
	o->cache_of = fs_objcache_hooks(o->cache);
	o->r.cache = &o->cache_of;
	return 0;
}

void fsi_objects_close(struct fsi_objects *o)
{
	if (o->have_packs)
		fs_packs_close(&o->packs);
	fs_pack_reader_free(&o->r);
	fs_objcache_free(o->cache);
	git_odb_free(o->odb);
	git_repository_free(o->repo);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

void fsi_objects_drop(struct fsi_objects *o)
{
	if (o->have_packs)
		fs_packs_trim(&o->packs);
}

void fsi_objects_readahead(struct fsi_objects *o, bool on)
{
	size_t i;

	o->readahead = on;
	for (i = 0; o->have_packs && i < o->packs.n; i++)
		madvise((void *)o->packs.p[i].data, o->packs.p[i].data_len,
			on ? MADV_NORMAL : MADV_RANDOM);
}

uint64_t fsi_object_place(struct fsi_objects *o, const uint8_t *oid)
{
	uint32_t pack;
	uint64_t off;

	if (!o->have_packs || fs_packs_find(&o->packs, oid, &o->r.last, &pack, &off) < 0 ||
	    off >= (1ull << 44))
		return UINT64_MAX;
	return (uint64_t)pack << 44 | off;
}

static int git_type(int type)
{
	return type == FS_PACK_COMMIT ? GIT_OBJECT_COMMIT :
	       type == FS_PACK_TREE ? GIT_OBJECT_TREE : GIT_OBJECT_BLOB;
}

int fsi_object_read(struct fsi_objects *o, const uint8_t *oid, int type, unsigned char **data,
		    size_t *len)
{
	uint32_t pack;
	uint64_t off;
	int got;
	git_odb_object *obj = NULL;
	git_oid id;

	*data = NULL;
	*len = 0;
	/* lookups give the packs' pages back now and then, so that a review
	 * that reads trees here and there does not keep the packs resident
	 * (a build drops them itself, between its runs of blobs) */
	if (++o->read % DROP_EVERY == 0 && !o->readahead)
		fsi_objects_drop(o);
	if (o->have_packs && fs_packs_find(&o->packs, oid, &o->r.last, &pack, &off) == 0 &&
	    fs_packs_read(&o->packs, &o->r, pack, off, &got, data, len) == 0) {
		if (got == type)
			return 0;
		g_free(*data);
		*data = NULL;
		return FS_ENOTFOUND;
	}
	/* a loose object, one in an alternate, or one the packs cannot give */
	memcpy(id.id, oid, 20);
	if (git_odb_read(&obj, o->odb, &id) < 0)
		return FS_ENOTFOUND;
	if (git_odb_object_type(obj) != (git_object_t)git_type(type)) {
		git_odb_object_free(obj);
		return FS_ENOTFOUND;
	}
	*len = git_odb_object_size(obj);
	*data = g_try_malloc(*len + 1);
	if (*data) {
		memcpy(*data, git_odb_object_data(obj), *len);
		(*data)[*len] = '\0';
	}
	git_odb_object_free(obj);
	return *data ? 0 : FS_ENOMEM;
}

/* ---- ids --------------------------------------------------------------------- */

void fsi_hex(const uint8_t *oid, char *hex)
{
	static const char d[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 20; i++) {
		hex[2 * i] = d[oid[i] >> 4];
		hex[2 * i + 1] = d[oid[i] & 15];
	}
	hex[40] = '\0';
}

static int nibble(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int fsi_unhex(const char *hex, uint8_t *oid)
{
	int i;

	for (i = 0; i < 20; i++) {
		int a = nibble(hex[2 * i]), b = a < 0 ? -1 : nibble(hex[2 * i + 1]);

		if (a < 0 || b < 0)
			return -1;
		oid[i] = (uint8_t)(a << 4 | b);
	}
	return hex[40] ? -1 : 0;
}

/* ---- commits ------------------------------------------------------------------ */

/* 40 hex digits at S (followed by anything) into OID: 0, or -1. */
static int unhex_at(const char *s, uint8_t *oid)
{
	int i;

	for (i = 0; i < 20; i++) {
		int a = nibble(s[2 * i]), b = a < 0 ? -1 : nibble(s[2 * i + 1]);

		if (a < 0 || b < 0)
			return -1;
		oid[i] = (uint8_t)(a << 4 | b);
	}
	return 0;
}

/* Commit OID's tree, first parent (zeros: none) and number of parents. */
static int commit_read(struct fsi_objects *o, const uint8_t *oid, uint8_t *tree,
		       uint8_t *parent, unsigned *nparents)
{
	unsigned char *data;
	char *p, *body;
	size_t len;
	int rc = fsi_object_read(o, oid, FS_PACK_COMMIT, &data, &len);

	if (rc < 0)
		return rc;
	*nparents = 0;
	memset(parent, 0, 20);
	if ((body = strstr((char *)data, "\n\n")))
		*body = '\0';
	if (len < 46 || strncmp((char *)data, "tree ", 5) || unhex_at((char *)data + 5, tree) < 0) {
		g_free(data);
		return FS_EPARSE;
	}
	for (p = (char *)data; (p = strstr(p, "\nparent ")); p += 8) {
		if (!*nparents && unhex_at(p + 8, parent) < 0) {
			g_free(data);
			return FS_EPARSE;
		}
		(*nparents)++;
	}
	g_free(data);
	return 0;
}

int fsi_commit_trees(struct fsi_objects *o, const uint8_t *oid, uint8_t *tree,
		     uint8_t *parent_tree, unsigned *nparents)
{
	uint8_t parent[20], pp[20];
	unsigned np;
	int rc = commit_read(o, oid, tree, parent, nparents);

	memset(parent_tree, 0, 20);
	if (rc < 0 || !*nparents)
		return rc;
	return commit_read(o, parent, parent_tree, pp, &np);
}

/* ---- trees --------------------------------------------------------------------- */

int fsi_tree_next(const unsigned char **p, const unsigned char *end, struct fsi_tree_entry *e)
{
	const unsigned char *q = *p, *sp, *nul;
	unsigned mode = 0;

	if (q >= end)
		return 0;
	sp = memchr(q, ' ', (size_t)(end - q));
	if (!sp || sp == q || sp - q > 7)
		return -1;
	for (; q < sp; q++) {
		if (*q < '0' || *q > '7')
			return -1;
		mode = mode * 8 + (unsigned)(*q - '0');
	}
	nul = memchr(sp + 1, '\0', (size_t)(end - sp - 1));
	if (!nul || nul == sp + 1 || end - nul < 21)
		return -1;
	e->name = (const char *)sp + 1;
	e->len = (size_t)(nul - sp - 1);
	e->mode = mode;
	e->oid = nul + 1;
	*p = nul + 21;
	return 1;
}

int fsi_tree_path(struct fsi_objects *o, const uint8_t *tree, const char *path, uint8_t *oid,
		  unsigned *mode)
{
	uint8_t cur[20];
	const char *seg = path;

	memcpy(cur, tree, 20);
	for (;;) {
		const char *slash = strchr(seg, '/');
		size_t n = slash ? (size_t)(slash - seg) : strlen(seg);
		const unsigned char *p, *end;
		unsigned char *data;
		struct fsi_tree_entry e;
		size_t len;
		int rc = fsi_object_read(o, cur, FS_PACK_TREE, &data, &len), got;

		if (rc < 0)
			return rc;
		p = data;
		end = data + len;
		while ((got = fsi_tree_next(&p, end, &e)) > 0)
			if (e.len == n && !memcmp(e.name, seg, n))
				break;
		if (got <= 0) {
			g_free(data);
			return got < 0 ? FS_EPARSE : FS_ENOTFOUND;
		}
		memcpy(cur, e.oid, 20);
		*mode = e.mode;
		g_free(data);
		if (!slash) {
			memcpy(oid, cur, 20);
			return 0;
		}
		if (!fsi_mode_tree(*mode))
			return FS_ENOTFOUND;
		seg = slash + 1;
	}
}

/* A path being walked: PREFIX/NAME, grown as needed. */
struct walk {
	struct fsi_objects *o;
	fsi_diff_fn fn;
	void *ctx;
	char *path;
	size_t cap;
};

static int path_push(struct walk *w, size_t at, const char *name, size_t len, size_t *end)
{
	size_t need = at + len + 2;

	if (need > w->cap) {
		char *p = realloc(w->path, need * 2);

		if (!p)
			return FS_ENOMEM;
		w->path = p;
		w->cap = need * 2;
	}
	if (at)
		w->path[at - 1] = '/';
	memcpy(w->path + at, name, len);
	w->path[at + len] = '\0';
	*end = at + len + 1;
	return 0;
}

/* Every file under TREE, whose path so far ends at AT (0 at the root, else
 * after the '/' that follows). */
static int walk_tree(struct walk *w, const uint8_t *tree, size_t at, int old_side)
{
	unsigned char *data;
	const unsigned char *p, *end;
	struct fsi_tree_entry e;
	size_t len, next;
	int rc = fsi_object_read(w->o, tree, FS_PACK_TREE, &data, &len), got;

	if (rc < 0)
		return rc;
	p = data;
	end = data + len;
	while (rc == 0 && (got = fsi_tree_next(&p, end, &e)) > 0) {
		if ((rc = path_push(w, at, e.name, e.len, &next)) < 0)
			break;
		if (fsi_mode_tree(e.mode))
			rc = walk_tree(w, e.oid, next, old_side);
		else if (fsi_mode_file(e.mode))
			rc = old_side ? w->fn(w->ctx, w->path, e.oid, NULL) :
					w->fn(w->ctx, w->path, NULL, e.oid);
		if (at)
			w->path[at - 1] = '\0';
	}
	if (rc == 0 && got < 0)
		rc = FS_EPARSE;
	g_free(data);
	return rc;
}

int fsi_tree_walk(struct fsi_objects *o, const uint8_t *tree, fsi_diff_fn fn, void *ctx)
{
	struct walk w = { o, fn, ctx, NULL, 0 };
	int rc = walk_tree(&w, tree, 0, 0);

	free(w.path);
	return rc;
}

/* git orders a tree's entries by name, a tree's name as if it ended in
 * '/'. */
static int entry_cmp(const struct fsi_tree_entry *a, const struct fsi_tree_entry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = a->len > n ? (unsigned char)a->name[n] : fsi_mode_tree(a->mode) ? '/' : 0;
	cb = b->len > n ? (unsigned char)b->name[n] : fsi_mode_tree(b->mode) ? '/' : 0;
	return (int)ca - (int)cb;
}

/* One side's entry E that the other side does not have (OLD_SIDE: it is
 * the old tree's). */
static int one_side(struct walk *w, const struct fsi_tree_entry *e, size_t next, int old_side)
{
	if (fsi_mode_tree(e->mode))
		return walk_tree(w, e->oid, next, old_side);
	if (!fsi_mode_file(e->mode))
		return 0;
	return old_side ? w->fn(w->ctx, w->path, e->oid, NULL) : w->fn(w->ctx, w->path, NULL, e->oid);
}

/* Two entries of the same name. */
static int both_sides(struct walk *w, const struct fsi_tree_entry *a,
		      const struct fsi_tree_entry *b, size_t next);

static int diff_trees(struct walk *w, const uint8_t *ta, const uint8_t *tb, size_t at)
{
	unsigned char *da = NULL, *db = NULL;
	const unsigned char *pa, *pb, *ea, *eb;
	struct fsi_tree_entry a, b;
	size_t la, lb, next;
	int rc, ga, gb;

	rc = fsi_object_read(w->o, ta, FS_PACK_TREE, &da, &la);
	if (rc == 0)
		rc = fsi_object_read(w->o, tb, FS_PACK_TREE, &db, &lb);
	if (rc < 0) {
		g_free(da);
		return rc;
	}
	pa = da, ea = da + la, pb = db, eb = db + lb;
	ga = fsi_tree_next(&pa, ea, &a);
	gb = fsi_tree_next(&pb, eb, &b);
	while (rc == 0 && ga > 0 && gb > 0) {
		int c = entry_cmp(&a, &b);

		if (c < 0) {
			if (!(rc = path_push(w, at, a.name, a.len, &next)))
				rc = one_side(w, &a, next, 1);
			ga = fsi_tree_next(&pa, ea, &a);
		} else if (c > 0) {
			if (!(rc = path_push(w, at, b.name, b.len, &next)))
				rc = one_side(w, &b, next, 0);
			gb = fsi_tree_next(&pb, eb, &b);
		} else {
			if (!(rc = path_push(w, at, a.name, a.len, &next)))
				rc = both_sides(w, &a, &b, next);
			ga = fsi_tree_next(&pa, ea, &a);
			gb = fsi_tree_next(&pb, eb, &b);
		}
		if (at)
			w->path[at - 1] = '\0';
	}
	for (; rc == 0 && ga > 0; ga = fsi_tree_next(&pa, ea, &a)) {
		if (!(rc = path_push(w, at, a.name, a.len, &next)))
			rc = one_side(w, &a, next, 1);
		if (at)
			w->path[at - 1] = '\0';
	}
	for (; rc == 0 && gb > 0; gb = fsi_tree_next(&pb, eb, &b)) {
		if (!(rc = path_push(w, at, b.name, b.len, &next)))
			rc = one_side(w, &b, next, 0);
		if (at)
			w->path[at - 1] = '\0';
	}
	if (rc == 0 && (ga < 0 || gb < 0))
		rc = FS_EPARSE;
	g_free(da);
	g_free(db);
	return rc;
}

static int both_sides(struct walk *w, const struct fsi_tree_entry *a,
		      const struct fsi_tree_entry *b, size_t next)
{
	bool ta = fsi_mode_tree(a->mode), tb = fsi_mode_tree(b->mode);
	bool fa = fsi_mode_file(a->mode), fb = fsi_mode_file(b->mode);
	int rc = 0;

	if (!memcmp(a->oid, b->oid, 20) && ta == tb && fa == fb)
		return 0;
	if (ta && tb)
		return diff_trees(w, a->oid, b->oid, next);
	if (fa && fb)
		return w->fn(w->ctx, w->path, a->oid, b->oid);
	/* a file became a tree or the other way round, or a link a file */
	if (ta || fa)
		rc = one_side(w, a, next, 1);
	if (rc == 0 && (tb || fb))
		rc = one_side(w, b, next, 0);
	return rc;
}

int fsi_tree_diff(struct fsi_objects *o, const uint8_t *old_tree, const uint8_t *new_tree,
		  fsi_diff_fn fn, void *ctx)
{
	struct walk w = { o, fn, ctx, NULL, 0 };
	int rc = memcmp(old_tree, new_tree, 20) ? diff_trees(&w, old_tree, new_tree, 0) : 0;

	free(w.path);
	return rc;
}
