/* fixscan: building the identifier set of a tree (see idset.h): from
 * every C blob of it, or from the set of another tree and the blobs that
 * differ.
 *
 * The names are counted in an open-addressed table of hashes (a name is
 * counted once per file: a stamp per slot says which file counted it
 * last).  Blobs are read in pack order, so that a blob stored as a delta
 * of its neighbour finds that one in the reader's cache. */
#include <stdlib.h>
#include <string.h>

#include "fixscan/csyms.h"
#include "idset.h"

uint64_t idset_hash(const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
	/* FNV-1a's low bits are its weak ones: mixed, for the tables */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h ? h : 1;
}

/* ---- the table of names ------------------------------------------------------ */

struct table {
	uint64_t *keys;
	uint32_t *counts;
	uint32_t *stamps;
	size_t cap, n;
};

static int table_init(struct table *t, size_t want)
{
	size_t cap = 1 << 16;

	while (cap < want * 2)
		cap *= 2;
	t->keys = calloc(cap, sizeof(*t->keys));
	t->counts = calloc(cap, sizeof(*t->counts));
	t->stamps = calloc(cap, sizeof(*t->stamps));
	t->cap = cap;
	t->n = 0;
	return t->keys && t->counts && t->stamps ? 0 : FS_ENOMEM;
}

static void table_free(struct table *t)
{
	free(t->keys);
	free(t->counts);
	free(t->stamps);
	memset(t, 0, sizeof(*t));
}

static size_t slot_of(const struct table *t, uint64_t h)
{
	size_t i = (size_t)(h * 0x9e3779b97f4a7c15ull) & (t->cap - 1);

	while (t->keys[i] && t->keys[i] != h)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static int table_grow(struct table *t)
{
	struct table nt;
	size_t i;

	if (table_init(&nt, t->cap) < 0) {
		table_free(&nt);
		return FS_ENOMEM;
	}
	for (i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->keys[i])
			continue;
		j = slot_of(&nt, t->keys[i]);
		nt.keys[j] = t->keys[i];
		nt.counts[j] = t->counts[i];
		nt.stamps[j] = t->stamps[i];
	}
	nt.n = t->n;
	table_free(t);
	*t = nt;
	return 0;
}

/* Count name H once for file STAMP, up (DELTA 1) or down (-1). */
static int table_count(struct table *t, uint64_t h, uint32_t stamp, int delta)
{
	size_t i = slot_of(t, h);

	if (!t->keys[i]) {
		if (delta < 0)
			return 0; /* a name the base never had: nothing to take */
		if ((t->n + 1) * 2 > t->cap) {
			if (table_grow(t) < 0)
				return FS_ENOMEM;
			i = slot_of(t, h);
		}
		t->keys[i] = h;
		t->n++;
	}
	if (t->stamps[i] == stamp)
		return 0;
	t->stamps[i] = stamp;
	if (delta > 0)
		t->counts[i]++;
	else if (t->counts[i])
		t->counts[i]--;
	return 0;
}

/* ---- reading one blob ---------------------------------------------------------- */

struct build {
	struct fs_treesyms *ts;
	unsigned flags;
	struct table t;
	uint32_t stamp;
	int delta;
	/* definitions: (hash, path) and the paths named */
	struct idset_def *defs;
	size_t ndefs, capdefs;
	char **paths;
	size_t npaths, cappaths;
	uint32_t cur_path;  /* the path of the blob being read, or UINT32_MAX */
	const char *cur_name;
	int rc;
};

static int on_token(void *ctx, const char *name, size_t len)
{
	struct build *b = ctx;

	return table_count(&b->t, idset_hash(name, len), b->stamp, b->delta);
}

static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t c;
	void *nv;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 1024;
	if (!(nv = realloc(*v, c * elem)))
		return FS_ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

/* A new path of the definitions: its number, or -1 out of memory. */
static long add_path(struct build *b, const char *path)
{
	char *copy;

	if (grow((void **)&b->paths, &b->cappaths, b->npaths, sizeof(*b->paths)) < 0 ||
	    !(copy = strdup(path)))
		return -1;
	b->paths[b->npaths] = copy;
	return (long)b->npaths++;
}

static int on_definition(void *ctx, const char *name, size_t len)
{
	struct build *b = ctx;

	if (b->cur_path == UINT32_MAX) {
		long k = add_path(b, b->cur_name);

		if (k < 0)
			return FS_ENOMEM;
		b->cur_path = (uint32_t)k;
	}
	if (grow((void **)&b->defs, &b->capdefs, b->ndefs, sizeof(*b->defs)) < 0)
		return FS_ENOMEM;
	b->defs[b->ndefs++] = (struct idset_def){ idset_hash(name, len), b->cur_path, 0 };
	return 0;
}

/* Read blob OID of PATH: its names counted with DELTA, and with DEFS its
 * definitions kept. */
static int read_blob(struct build *b, const uint8_t *oid, const char *path, int delta, bool defs)
{
	unsigned char *data;
	size_t len;
	int rc = fsi_object_read(&b->ts->o, oid, FS_PACK_BLOB, &data, &len);

	if (rc < 0)
		return rc;
	b->ts->last.blobs_read++;
	b->stamp++;
	b->delta = delta;
	rc = fs_csyms_each_token((const char *)data, len, on_token, b);
	if (rc == 0 && defs) {
		b->cur_path = UINT32_MAX;
		b->cur_name = path;
		rc = fs_csyms_each_definition((const char *)data, len, on_definition, b);
	}
	free(data);
	return rc < 0 ? rc : 0;
}

/* ---- which blobs ------------------------------------------------------------------ */

static bool c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

struct change {
	char *path;
	uint8_t old_oid[20], new_oid[20];
	bool has_old, has_new;
	uint64_t place; /* of the new blob, else the old */
};

struct changes {
	struct fsi_objects *o;
	struct change *v;
	size_t n, cap;
	size_t limit; /* stop when there are more */
};

#define TOO_MANY 1

static int on_change(void *ctx, const char *path, const uint8_t *old_oid, const uint8_t *new_oid)
{
	struct changes *c = ctx;
	struct change *e;

	if (!c_source(path))
		return 0;
	if (c->n >= c->limit)
		return TOO_MANY;
	if (grow((void **)&c->v, &c->cap, c->n, sizeof(*c->v)) < 0)
		return FS_ENOMEM;
	e = &c->v[c->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(path)))
		return FS_ENOMEM;
	if ((e->has_old = old_oid != NULL))
		memcpy(e->old_oid, old_oid, 20);
	if ((e->has_new = new_oid != NULL))
		memcpy(e->new_oid, new_oid, 20);
	e->place = fsi_object_place(c->o, new_oid ? new_oid : old_oid);
	c->n++;
	return 0;
}

static void changes_free(struct changes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].path);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static int place_cmp(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	return x->place < y->place ? -1 : x->place > y->place;
}

/* ---- the result --------------------------------------------------------------------- */

static int def_cmp(const void *a, const void *b)
{
	const struct idset_def *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->path < y->path ? -1 : x->path > y->path;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The names of B's table that some file has, sorted, into P. */
static int take_names(struct build *b, struct idset_parts *p)
{
	size_t i, k = 0;

	p->names = malloc((b->t.n ? b->t.n : 1) * sizeof(*p->names));
	p->counts = malloc((b->t.n ? b->t.n : 1) * sizeof(*p->counts));
	if (!p->names || !p->counts)
		return FS_ENOMEM;
	for (i = 0; i < b->t.cap; i++)
		if (b->t.keys[i] && b->t.counts[i])
			p->names[k++] = b->t.keys[i];
	qsort(p->names, k, sizeof(*p->names), u64_cmp);
	for (i = 0; i < k; i++)
		p->counts[i] = b->t.counts[slot_of(&b->t, p->names[i])];
	p->nnames = k;
	return 0;
}

/* B's definitions, sorted, each (name, path) once, into P. */
static void take_defs(struct build *b, struct idset_parts *p)
{
	size_t i, k = 0;

	qsort(b->defs, b->ndefs, sizeof(*b->defs), def_cmp);
	for (i = 0; i < b->ndefs; i++)
		if (!k || def_cmp(&b->defs[k - 1], &b->defs[i]))
			b->defs[k++] = b->defs[i];
	p->defs = b->defs;
	p->ndefs = k;
	p->paths = b->paths;
	p->npaths = b->npaths;
	b->defs = NULL;
	b->paths = NULL;
}

/* ---- full and incremental builds ----------------------------------------------------- */

static int full(struct build *b, const uint8_t *tree, size_t *nfiles)
{
	struct changes c = { &b->ts->o, NULL, 0, 0, SIZE_MAX };
	size_t i;
	int rc = fsi_tree_walk(&b->ts->o, tree, on_change, &c);

	if (rc == 0)
		rc = table_init(&b->t, 1 << 18);
	qsort(c.v, c.n, sizeof(*c.v), place_cmp);
	for (i = 0; rc == 0 && i < c.n; i++)
		rc = read_blob(b, c.v[i].new_oid, c.v[i].path, 1, b->flags & FS_IDSET_DEFS);
	*nfiles = c.n;
	changes_free(&c);
	return rc;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* BASE's definitions but those of the files in C into B. */
static int keep_defs(struct build *b, const struct fs_idset *base, const struct changes *c)
{
	size_t np = base->h->npaths, i;
	/* per path of BASE: 0 not mapped yet, UINT32_MAX a changed file's,
	 * else its number in B plus one */
	uint32_t *map = calloc(np ? np : 1, sizeof(*map));
	const char **changed = malloc((c->n ? c->n : 1) * sizeof(*changed));
	int rc = 0;

	if (!map || !changed)
		rc = FS_ENOMEM;
	for (i = 0; rc == 0 && i < c->n; i++)
		changed[i] = c->v[i].path;
	if (rc == 0)
		qsort(changed, c->n, sizeof(*changed), str_cmp);
	for (i = 0; rc == 0 && i < np; i++) {
		const char *path = base->paths + base->path_off[i];

		if (c->n && bsearch(&path, changed, c->n, sizeof(*changed), str_cmp))
			map[i] = UINT32_MAX;
	}
	for (i = 0; rc == 0 && i < base->h->ndefs; i++) {
		const struct idset_def *d = &base->defs[i];

		if (map[d->path] == UINT32_MAX)
			continue;
		if (!map[d->path]) {
			long k = add_path(b, base->paths + base->path_off[d->path]);

			if (k < 0) {
				rc = FS_ENOMEM;
				break;
			}
			map[d->path] = (uint32_t)k + 1;
		}
		if (grow((void **)&b->defs, &b->capdefs, b->ndefs, sizeof(*b->defs)) < 0)
			rc = FS_ENOMEM;
		else
			b->defs[b->ndefs++] = (struct idset_def){ d->hash, map[d->path] - 1, 0 };
	}
	free(map);
	free(changed);
	return rc;
}

static int incremental(struct build *b, const struct fs_idset *base, struct changes *c,
		       size_t *nfiles)
{
	size_t i;
	int rc = table_init(&b->t, base->h->nnames + c->n * 64);

	for (i = 0; rc == 0 && i < base->h->nnames; i++) {
		size_t s = slot_of(&b->t, base->names[i]);

		b->t.keys[s] = base->names[i];
		b->t.counts[s] = base->counts[i];
		b->t.n++;
	}
	if (rc == 0 && (b->flags & FS_IDSET_DEFS))
		rc = keep_defs(b, base, c);
	qsort(c->v, c->n, sizeof(*c->v), place_cmp);
	*nfiles = base->h->nfiles;
	for (i = 0; rc == 0 && i < c->n; i++) {
		const struct change *e = &c->v[i];

		if (e->has_old)
			rc = read_blob(b, e->old_oid, e->path, -1, false);
		if (rc == 0 && e->has_new)
			rc = read_blob(b, e->new_oid, e->path, 1, b->flags & FS_IDSET_DEFS);
		*nfiles += e->has_new;
		*nfiles -= *nfiles && e->has_old;
	}
	return rc;
}

int idset_build(struct fs_treesyms *t, const uint8_t *tree, unsigned flags,
		const struct fs_idset *base, struct idset_parts *p, bool *incr)
{
	struct build b;
	struct changes c = { &t->o, NULL, 0, 0, 0 };
	size_t nfiles = 0;
	int rc = 1;

	memset(&b, 0, sizeof(b));
	memset(p, 0, sizeof(*p));
	b.ts = t;
	b.flags = flags;
	*incr = false;
	if (base) {
		/* from BASE when at most a quarter of its files changed: beyond
		 * that, reading each changed file twice (its old version takes
		 * its names away) costs about what a full build does */
		c.limit = base->h->nfiles / 4 + 64;
		rc = fsi_tree_diff(&t->o, base->h->tree, tree, on_change, &c);
		if (rc == 0)
			rc = incremental(&b, base, &c, &nfiles);
		*incr = rc == 0;
		if (rc == TOO_MANY) {
			table_free(&b.t);
			rc = 1;
		}
	}
	if (rc == 1)
		rc = full(&b, tree, &nfiles);
	if (rc == 0)
		rc = take_names(&b, p);
	if (rc == 0) {
		take_defs(&b, p);
		memcpy(p->tree, tree, 20);
		p->flags = flags;
		p->nfiles = nfiles;
	}
	changes_free(&c);
	table_free(&b.t);
	free(b.defs);
	for (size_t i = 0; i < b.npaths && b.paths; i++)
		free(b.paths[i]);
	free(b.paths);
	if (rc < 0)
		idset_parts_free(p);
	return rc;
}

void idset_parts_free(struct idset_parts *p)
{
	size_t i;

	free(p->names);
	free(p->counts);
	free(p->defs);
	for (i = 0; i < p->npaths; i++)
		free(p->paths[i]);
	free(p->paths);
	memset(p, 0, sizeof(*p));
}
