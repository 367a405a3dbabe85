/* fixscan: building the identifier set of a tree (see idset.h): from
 * every C blob of it, or from the set of another tree and the blobs that
 * differ.
 *
 * The names are counted in an open-addressed table of hashes, each once
 * per file (a small table of the file's names so far filters the
 * repeats).  Blobs are read in pack order, so that a blob stored as a
 * delta of its neighbour finds that one in the reader's cache. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "fixscan/csyms.h"
#include "idset.h"

uint64_t idset_hash(const char *name, size_t len)
{
	uint64_t h = fs_fnv1a(FS_FNV1A_BASIS, name, len);

	/* FNV-1a's low bits are its weak ones: mixed, for the tables */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h ? h : 1;
}

/* ---- the table of names ------------------------------------------------------ */

/* Names' hashes (0: an empty slot) and, beside them, the number of files
 * with each: two arrays rather than one of records, twelve bytes a slot
 * instead of sixteen, and the keys, which every probe reads, packed
 * eight to a cache line.  Any capacity, not a power of two: a kernel's
 * two million names in 2.9 million slots, not 4.2 million. */
struct table {
	uint64_t *keys;
	uint32_t *counts;
	size_t cap, n;
};

/* Filled to at most seven tenths: linear probing stays short there. */
#define TABLE_FULL(n, cap) ((n) * 10 > (cap) * 7)

static int table_init(struct table *t, size_t want)
{
	size_t cap = want * 10 / 7 + 1;

	if (cap < 4096)
		cap = 4096;
	t->keys = calloc(cap, sizeof(*t->keys));
	t->counts = calloc(cap, sizeof(*t->counts));
	t->cap = cap;
	t->n = 0;
	return t->keys && t->counts ? 0 : FS_ENOMEM;
}

static void table_free(struct table *t)
{
	free(t->keys);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

/* H's first slot: the hash's high bits scaled to the capacity. */
static size_t slot_start(const struct table *t, uint64_t h)
{
	return (size_t)(((unsigned __int128)(h * 0x9e3779b97f4a7c15ull) * t->cap) >> 64);
}

static size_t slot_of(const struct table *t, uint64_t h)
{
	size_t i = slot_start(t, h);

	while (t->keys[i] && t->keys[i] != h)
		if (++i == t->cap)
			i = 0;
	return i;
}

static int table_grow(struct table *t)
{
	struct table nt;
	size_t i;

	if (table_init(&nt, t->cap * 2) < 0) {
		table_free(&nt);
		return FS_ENOMEM;
	}
	for (i = 0; i < t->cap; i++)
		if (t->keys[i]) {
			size_t k = slot_of(&nt, t->keys[i]);

			nt.keys[k] = t->keys[i];
			nt.counts[k] = t->counts[i];
		}
	nt.n = t->n;
	table_free(t);
	*t = nt;
	return 0;
}

/* Count name H once more (DELTA 1) or once less (-1). */
static int table_count(struct table *t, uint64_t h, int delta)
{
	size_t i = slot_of(t, h);

	if (!t->keys[i]) {
		if (delta < 0)
			return 0; /* a name the base never had: nothing to take */
		if (TABLE_FULL(t->n + 1, t->cap)) {
			if (table_grow(t) < 0)
				return FS_ENOMEM;
			i = slot_of(t, h);
		}
		t->keys[i] = h;
		t->n++;
	}
	if (delta > 0)
		t->counts[i]++;
	else if (t->counts[i])
		t->counts[i]--;
	return 0;
}

/* The names one file has had so far: most of a file's tokens are
 * repeats, and this small table (in the processor's cache) keeps them
 * from the big one, which is touched once per name and file.  A slot is
 * the current file's when its generation is. */
struct seen {
	uint64_t *keys;
	uint32_t *gen;
	size_t cap, n;
	uint32_t cur;
};

static int seen_init(struct seen *f, size_t cap)
{
	f->keys = calloc(cap, sizeof(*f->keys));
	f->gen = calloc(cap, sizeof(*f->gen));
	f->cap = cap;
	f->n = 0;
	return f->keys && f->gen ? 0 : FS_ENOMEM;
}

static void seen_free(struct seen *f)
{
	free(f->keys);
	free(f->gen);
	memset(f, 0, sizeof(*f));
}

/* A new file: every slot free again. */
static void seen_next(struct seen *f)
{
	f->n = 0;
	if (++f->cur == 0) {
		memset(f->gen, 0, f->cap * sizeof(*f->gen));
		f->cur = 1;
	}
}

/* 1 when H is new to this file, 0 when it was seen, or FS_ENOMEM. */
static int seen_add(struct seen *f, uint64_t h)
{
	size_t i = (size_t)h & (f->cap - 1);

	while (f->gen[i] == f->cur) {
		if (f->keys[i] == h)
			return 0;
		i = (i + 1) & (f->cap - 1);
	}
	if ((f->n + 1) * 2 > f->cap) {
		/* a file of very many names: a bigger table, and this file's
		 * names taken again as new (counted by the caller already) */
		struct seen nf;
		size_t k;

		if (seen_init(&nf, f->cap * 4) < 0)
			return FS_ENOMEM;
		nf.cur = 1;
		for (k = 0; k < f->cap; k++)
			if (f->gen[k] == f->cur) {
				size_t j = (size_t)f->keys[k] & (nf.cap - 1);

				while (nf.gen[j] == 1)
					j = (j + 1) & (nf.cap - 1);
				nf.keys[j] = f->keys[k];
				nf.gen[j] = 1;
				nf.n++;
			}
		seen_free(f);
		*f = nf;
		return seen_add(f, h);
	}
	f->keys[i] = h;
	f->gen[i] = f->cur;
	f->n++;
	return 1;
}

/* ---- sorting ------------------------------------------------------------------- */

static int def_cmp(const void *a, const void *b)
{
	const struct idset_def *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->path < y->path ? -1 : x->path > y->path;
}

/* In-place most-significant-digit radix sorts (American flag sort):
 * eight bits a level from the top of the hash, a bucket of a few records
 * finished by insertion.  In place, because the arrays sorted are the
 * largest the build has: a second copy to sort through was a third of
 * the build's peak memory. */
#define FLAG_BITS 8
#define FLAG_SIZE (1u << FLAG_BITS)
#define FLAG_SMALL 32

/* The digit of hash H at SHIFT. */
#define FLAG_DIGIT(h, shift) ((size_t)((h) >> (shift)) & (FLAG_SIZE - 1))

/* Where each bucket of the N digits DIGIT(i) starts (START) and ends
 * (END), from their counts. */
static void flag_bounds(const size_t *count, size_t *start, size_t *end)
{
	size_t d, at = 0;

	for (d = 0; d < FLAG_SIZE; d++) {
		start[d] = at;
		at += count[d];
		end[d] = at;
	}
}

/* The N names KEYS (all different) ascending, COUNTS moved with them. */
static void sort_names(uint64_t *keys, uint32_t *counts, size_t n, int shift)
{
	size_t count[FLAG_SIZE] = { 0 }, start[FLAG_SIZE], end[FLAG_SIZE], i, d;

	if (n < FLAG_SMALL || shift < 0) {
		for (i = 1; i < n; i++) {
			uint64_t k = keys[i];
			uint32_t c = counts[i];
			size_t j = i;

			for (; j > 0 && keys[j - 1] > k; j--) {
				keys[j] = keys[j - 1];
				counts[j] = counts[j - 1];
			}
			keys[j] = k;
			counts[j] = c;
		}
		return;
	}
	for (i = 0; i < n; i++)
		count[FLAG_DIGIT(keys[i], shift)]++;
	flag_bounds(count, start, end);
	/* each record swapped into its bucket until the one in hand belongs */
	for (d = 0; d < FLAG_SIZE; d++)
		while (start[d] < end[d]) {
			uint64_t k = keys[start[d]];
			uint32_t c = counts[start[d]];
			size_t to;

			while ((to = FLAG_DIGIT(k, shift)) != d) {
				uint64_t k2 = keys[start[to]];
				uint32_t c2 = counts[start[to]];

				keys[start[to]] = k;
				counts[start[to]++] = c;
				k = k2;
				c = c2;
			}
			keys[start[d]] = k;
			counts[start[d]++] = c;
		}
	for (d = 0, i = 0; d < FLAG_SIZE; i += count[d++])
		if (count[d] > 1)
			sort_names(keys + i, counts + i, count[d], shift - FLAG_BITS);
}

/* The N definitions A by hash, then path. */
static void sort_defs(struct idset_def *a, size_t n, int shift)
{
	size_t count[FLAG_SIZE] = { 0 }, start[FLAG_SIZE], end[FLAG_SIZE], i, d;

	if (n < FLAG_SMALL || shift < 0) {
		/* few, or one hash throughout: by the whole record */
		if (n > 1)
			qsort(a, n, sizeof(*a), def_cmp);
		return;
	}
	for (i = 0; i < n; i++)
		count[FLAG_DIGIT(a[i].hash, shift)]++;
	flag_bounds(count, start, end);
	for (d = 0; d < FLAG_SIZE; d++)
		while (start[d] < end[d]) {
			struct idset_def r = a[start[d]];
			size_t to;

			while ((to = FLAG_DIGIT(r.hash, shift)) != d) {
				struct idset_def r2 = a[start[to]];

				a[start[to]++] = r;
				r = r2;
			}
			a[start[d]++] = r;
		}
	for (d = 0, i = 0; d < FLAG_SIZE; i += count[d++])
		if (count[d] > 1)
			sort_defs(a + i, count[d], shift - FLAG_BITS);
}

/* ---- reading one blob ---------------------------------------------------------- */

struct build {
	struct fs_treesyms *ts;
	unsigned flags;
	struct table t;
	struct seen seen;
	int delta;
	/* definitions: (hash, path) and the paths named */
	struct idset_def *defs;
	size_t ndefs, capdefs;
	char **paths;
	size_t npaths, cappaths;
	uint32_t cur_path;  /* the path of the blob being read, or UINT32_MAX */
	const char *cur_name;
	size_t since_drop;  /* blobs read since the packs' pages went */
	uint64_t *fresh;    /* the hashes of the names new to the blob */
	size_t nfresh, capfresh;
	int rc;
};

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

/* A token of the blob: its hash kept when it is new to the file. */
static int on_token(void *ctx, const char *name, size_t len)
{
	struct build *b = ctx;
	uint64_t h = idset_hash(name, len);
	int fresh = seen_add(&b->seen, h);

	if (fresh <= 0)
		return fresh;
	if (grow((void **)&b->fresh, &b->capfresh, b->nfresh, sizeof(*b->fresh)) < 0)
		return FS_ENOMEM;
	b->fresh[b->nfresh++] = h;
	return 0;
}

/* Count the blob's names: most of them are in no other file, so each is
 * a slot of the big table far from the last; the slots a few names ahead
 * are fetched into the processor's cache while these are counted. */
static int count_fresh(struct build *b)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < b->nfresh && rc == 0; i++) {
		if (i + 8 < b->nfresh)
			__builtin_prefetch(&b->t.keys[slot_start(&b->t, b->fresh[i + 8])]);
		rc = table_count(&b->t, b->fresh[i], b->delta);
	}
	b->nfresh = 0;
	return rc;
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
	/* what was read of the packs need not stay resident: pages read again
	 * come back from the page cache */
	if (++b->since_drop == 512) {
		fsi_objects_drop(&b->ts->o);
		b->since_drop = 0;
	}
	seen_next(&b->seen);
	b->delta = delta;
	rc = fs_csyms_each_token((const char *)data, len, on_token, b);
	if (rc == 0)
		rc = count_fresh(b);
	if (rc == 0 && defs) {
		b->cur_path = UINT32_MAX;
		b->cur_name = path;
		rc = fs_csyms_each_definition((const char *)data, len, on_definition, b);
	}
	g_free(data);
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

/* The names of B's table that some file has, sorted, into P: the
 * table's own arrays, the empty slots squeezed out and the rest given
 * back. */
static int take_names(struct build *b, struct idset_parts *p)
{
	uint64_t *keys = b->t.keys, *k2;
	uint32_t *counts = b->t.counts, *c2;
	size_t i, k = 0;

	for (i = 0; i < b->t.cap; i++)
		if (keys[i] && counts[i]) {
			keys[k] = keys[i];
			counts[k++] = counts[i];
		}
	if ((k2 = realloc(keys, (k ? k : 1) * sizeof(*keys))))
		keys = k2;
	if ((c2 = realloc(counts, (k ? k : 1) * sizeof(*counts))))
		counts = c2;
	memset(&b->t, 0, sizeof(b->t));
	sort_names(keys, counts, k, 64 - FLAG_BITS);
	p->names = keys;
	p->counts = counts;
	p->nnames = k;
	return 0;
}

/* B's definitions, sorted, each (name, path) once, into P. */
static int take_defs(struct build *b, struct idset_parts *p)
{
	size_t i, k = 0;

	sort_defs(b->defs, b->ndefs, 64 - FLAG_BITS);
	for (i = 0; i < b->ndefs; i++)
		if (!k || b->defs[k - 1].hash != b->defs[i].hash ||
		    b->defs[k - 1].path != b->defs[i].path)
			b->defs[k++] = b->defs[i];
	if (k < b->capdefs) {
		/* room made for the estimate, given back */
		struct idset_def *shrunk = realloc(b->defs, (k ? k : 1) * sizeof(*b->defs));

		if (shrunk)
			b->defs = shrunk;
	}
	p->defs = b->defs;
	p->ndefs = k;
	p->paths = b->paths;
	p->npaths = b->npaths;
	b->defs = NULL;
	b->paths = NULL;
	return 0;
}

/* ---- full and incremental builds ----------------------------------------------------- */

static int full(struct build *b, const uint8_t *tree, size_t *nfiles)
{
	struct changes c = { &b->ts->o, NULL, 0, 0, SIZE_MAX };
	size_t i;
	int rc = fsi_tree_walk(&b->ts->o, tree, on_change, &c);

	/* some 32 names a file, most of them only its own; some 44
	 * definitions (a kernel tree of 60,000 files: two million names, two
	 * and a half million definitions): room for them at once, not grown
	 * (a table twice the size for a while) */
	if (rc == 0)
		rc = table_init(&b->t, c.n * 34);
	if (rc == 0 && (b->flags & FS_IDSET_DEFS) &&
	    !(b->defs = malloc((b->capdefs = c.n * 48 + 1024) * sizeof(*b->defs))))
		rc = FS_ENOMEM;
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
		size_t k = slot_of(&b->t, base->names[i]);

		b->t.keys[k] = base->names[i];
		b->t.counts[k] = base->counts[i];
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
	if (seen_init(&b.seen, 1 << 14) < 0) {
		seen_free(&b.seen);
		return FS_ENOMEM;
	}
	b.ts = t;
	b.flags = flags;
	*incr = false;
	/* blobs are read in pack order: their neighbours are read ahead */
	fsi_objects_readahead(&t->o, true);
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
	if (rc == 0)
		rc = take_defs(&b, p);
	if (rc == 0) {
		memcpy(p->tree, tree, 20);
		p->flags = flags;
		p->nfiles = nfiles;
	}
	fsi_objects_readahead(&t->o, false);
	changes_free(&c);
	table_free(&b.t);
	seen_free(&b.seen);
	free(b.fresh);
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
