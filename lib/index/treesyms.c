/* fixscan: the identifier sets of trees: the cache files, the handle and
 * the lookups (see fixscan/treesyms.h and idset.h). */
#include <dirent.h>
#include <malloc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "base/cache.h"
#include "fixscan/atomic.h"
#include "fixscan/treesyms.h"
#include "format.h"
#include "idset.h"
#include "load.h"

#define SET_STAMP_SUFFIX ".verified"

/* ---- images ------------------------------------------------------------------ */

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The sections' offsets for the counts in H: 0, or -1 when they do not
 * fit in FILE_SIZE. */
static int layout(const struct idset_disk *h, size_t file_size, size_t off[5])
{
	size_t at = sizeof(*h);

	if (h->nnames > file_size / 8 || h->ndefs > file_size / 16 ||
	    h->npaths > file_size / 4 || h->paths_len > file_size)
		return -1;
	off[0] = at;
	at += align8(h->nnames * 8);
	off[1] = at;
	at += align8(h->nnames * 4);
	off[2] = at;
	at += align8(h->ndefs * sizeof(struct idset_def));
	off[3] = at;
	at += align8(h->npaths * 4);
	off[4] = at;
	at += align8(h->paths_len);
	return at == file_size ? 0 : -1;
}

static void point(struct fs_idset *s, const size_t off[5])
{
	const char *b = s->image;

	s->h = s->image;
	s->names = (const uint64_t *)(b + off[0]);
	s->counts = (const uint32_t *)(b + off[1]);
	s->defs = (const struct idset_def *)(b + off[2]);
	s->path_off = (const uint32_t *)(b + off[3]);
	s->paths = b + off[4];
}

static uint64_t head_checksum(const struct idset_disk *h)
{
	return fsi_checksum(h, offsetof(struct idset_disk, head_checksum));
}

/* P's header in *H, checksums aside. */
static void header_of(const struct idset_parts *p, struct idset_disk *h)
{
	size_t i, plen = 0;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < p->npaths; i++)
		plen += strlen(p->paths[i]) + 1;
	memcpy(h->magic, IDSET_MAGIC, 8);
	h->version = IDSET_VERSION;
	h->bom = IDSET_BOM;
	memcpy(h->tree, p->tree, 20);
	h->flags = p->flags;
	h->nnames = p->nnames;
	h->nfiles = p->nfiles;
	h->ndefs = p->ndefs;
	h->npaths = p->npaths;
	h->paths_len = plen;
	snprintf(h->line, sizeof(h->line), "%s", p->line ? p->line : "");
	h->file_size = sizeof(*h) + align8(h->nnames * 8) + align8(h->nnames * 4) +
		       align8(h->ndefs * sizeof(struct idset_def)) + align8(h->npaths * 4) +
		       align8(plen);
}

/* Where an image's bytes go: a buffer in memory, or a file through one.
 * The body's checksum is summed on the way. */
struct sink {
	char *mem;       /* the whole image, or NULL: the file */
	struct fs_atomic *file;
	char buf[1 << 16];
	size_t n;        /* bytes in BUF */
	size_t at;       /* bytes of the body given so far */
	struct fsi_ck ck;
	int failed;
	struct fs_error err; /* why the file's write failed */
};

static void sink_flush(struct sink *k)
{
	if (k->n && !k->failed && fs_atomic_write(k->file, k->buf, k->n, &k->err) < 0)
		k->failed = 1;
	k->n = 0;
}

/* LEN bytes of the body; the checksum's pieces are whole words but the
 * last, as BUF's size is one. */
static void sink_put(struct sink *k, const void *data, size_t len)
{
	const char *d = data;

	if (!len)
		return; /* an empty table: DATA may be NULL */
	if (k->mem) {
		memcpy(k->mem + sizeof(struct idset_disk) + k->at, d, len);
		k->at += len;
		return;
	}
	while (len) {
		size_t n = sizeof(k->buf) - k->n < len ? sizeof(k->buf) - k->n : len;

		memcpy(k->buf + k->n, d, n);
		k->n += n;
		k->at += n;
		d += n;
		len -= n;
		if (k->n == sizeof(k->buf)) {
			fsi_ck_update(&k->ck, k->buf, k->n);
			sink_flush(k);
		}
	}
}

static void sink_pad(struct sink *k, size_t len)
{
	static const char zeros[8];

	if (len % 8)
		sink_put(k, zeros, 8 - len % 8);
}

/* The image of P, header H, into K. */
static void emit(const struct idset_parts *p, struct idset_disk *h, struct sink *k)
{
	size_t i;
	uint32_t at = 0;

	fsi_ck_init(&k->ck, h->file_size - sizeof(*h));
	sink_put(k, p->names, h->nnames * 8);
	sink_put(k, p->counts, h->nnames * 4);
	sink_pad(k, h->nnames * 4);
	sink_put(k, p->defs, h->ndefs * sizeof(struct idset_def));
	for (i = 0; i < p->npaths; i++) {
		sink_put(k, &at, 4);
		at += (uint32_t)strlen(p->paths[i]) + 1;
	}
	sink_pad(k, h->npaths * 4);
	for (i = 0; i < p->npaths; i++)
		sink_put(k, p->paths[i], strlen(p->paths[i]) + 1);
	sink_pad(k, h->paths_len);
	if (k->mem) {
		fsi_ck_update(&k->ck, k->mem + sizeof(*h), k->at);
	} else if (k->n) {
		fsi_ck_update(&k->ck, k->buf, k->n);
		sink_flush(k);
	}
	h->body_checksum = fsi_ck_final(&k->ck);
	h->head_checksum = head_checksum(h);
}

int idset_image(const struct idset_parts *p, struct fs_idset **out)
{
	struct idset_disk h;
	struct fs_idset *s = calloc(1, sizeof(*s));
	struct sink *k = calloc(1, sizeof(*k));
	size_t off[5];

	header_of(p, &h);
	if (!s || !k || !(k->mem = calloc(1, h.file_size))) {
		free(s);
		free(k);
		return FS_ENOMEM;
	}
	emit(p, &h, k);
	memcpy(k->mem, &h, sizeof(h));
	s->image = k->mem;
	s->len = h.file_size;
	layout(&h, h.file_size, off);
	point(s, off);
	free(k);
	*out = s;
	return 0;
}

void idset_free(struct fs_idset *s)
{
	if (!s)
		return;
	if (s->mapped)
		munmap(s->image, s->len);
	else
		free(s->image);
	free(s);
}

/* Whether the header at H (of a file of SIZE bytes) is one this reads. */
static bool header_ok(const struct idset_disk *h, size_t size, size_t off[5])
{
	return size >= sizeof(*h) && !memcmp(h->magic, IDSET_MAGIC, 8) &&
	       h->version == IDSET_VERSION && h->bom == IDSET_BOM && h->file_size == size &&
	       head_checksum(h) == h->head_checksum && layout(h, size, off) == 0;
}

/* Every table of S within bounds and in order (the checksum is not
 * cryptographic: a crafted file can carry a valid one). */
static bool tables_ok(const struct fs_idset *s)
{
	const struct idset_disk *h = s->h;
	size_t i;

	for (i = 0; i < h->nnames; i++)
		if (!s->counts[i] || (i && s->names[i - 1] >= s->names[i]))
			return false;
	for (i = 0; i < h->ndefs; i++)
		if (s->defs[i].path >= h->npaths ||
		    (i && (s->defs[i - 1].hash > s->defs[i].hash ||
			   (s->defs[i - 1].hash == s->defs[i].hash &&
			    s->defs[i - 1].path >= s->defs[i].path))))
			return false;
	for (i = 0; i < h->npaths; i++)
		if (s->path_off[i] >= h->paths_len)
			return false;
	return !h->paths_len || s->paths[h->paths_len - 1] == '\0';
}

/* A set file that passed the full check (checksum and every table) once
 * need not pass it on every review: that reads the whole file (tens of
 * MB at kernel scale) for a review that then looks up a few thousand
 * names.  "<set>.verified" holds the identity of the file that passed, as
 * the index's stamp does (lib/index/load.c): device, inode, size,
 * modification and change times; any write changes them.  The stamp's
 * own modification time says when the set was last used. */
static void set_stamp_text(const struct stat *st, char *buf, size_t n)
{
	char id[FSI_STAMP_MAX / 2];

	fsi_stat_text(st, id, sizeof(id));
	snprintf(buf, n, "fixscan-idset-verified 1 %s\n", id);
}

/* The set in file PATH: 0 with *OUT, FS_ENOTFOUND when there is none,
 * FS_ECORRUPT when it fails a check.  WRITTEN: this process has just
 * written it from a set it built (its checksums made as it went), so
 * only its header is checked and it is stamped: reading the whole file
 * back would only find what was written, and would hold all its pages
 * at the review's busiest moment. */
static int load_set(const char *path, bool written, struct fs_idset **out)
{
	char stamp[FSI_STAMP_MAX];
	struct fs_idset *s;
	struct stat st;
	size_t off[5];
	void *m;
	bool verify;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*out = NULL;
	if (fd < 0)
		return FS_ENOTFOUND;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(struct idset_disk)) {
		close(fd);
		return FS_ECORRUPT;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return FS_ECORRUPT;
	if (!(s = calloc(1, sizeof(*s)))) {
		munmap(m, (size_t)st.st_size);
		return FS_ENOMEM;
	}
	s->image = m;
	s->len = (size_t)st.st_size;
	s->mapped = true;
	set_stamp_text(&st, stamp, sizeof(stamp));
	verify = !written && !fsi_stamp_matches(path, SET_STAMP_SUFFIX, stamp);
	if (!header_ok(m, s->len, off) ||
	    (verify && fsi_checksum((char *)m + sizeof(struct idset_disk),
				    s->len - sizeof(struct idset_disk)) !=
			       ((const struct idset_disk *)m)->body_checksum)) {
		idset_free(s);
		return FS_ECORRUPT;
	}
	point(s, off);
	if (verify && !tables_ok(s)) {
		idset_free(s);
		return FS_ECORRUPT;
	}
	if (verify || written)
		fsi_stamp_write(path, SET_STAMP_SUFFIX, stamp);
	/* Lookups are binary searches: the pages the check read go back
	 * (they stay in the page cache), and no read-ahead around a fault. */
	madvise(m, s->len, MADV_DONTNEED);
	madvise(m, s->len, MADV_RANDOM);
	*out = s;
	return 0;
}

/* ---- the cache directory ------------------------------------------------------------ */

static char *set_path(const struct fs_treesyms *t, const uint8_t *tree, unsigned flags)
{
	char hex[41], *p = NULL;

	fsi_hex(tree, hex);
	if (asprintf(&p, "%s-%s-%u.ids", t->prefix, hex, flags) < 0)
		return NULL;
	return p;
}

/* Write the image of P to its file through the atomic writer (a
 * temporary renamed into place; not fsynced: the checksums catch a file
 * a crash damaged, and it is built again).  The path, or NULL when it
 * could not be written (a set that could not be kept is built again next
 * time; the review goes on with it in memory). */
static char *save(struct fs_treesyms *t, const struct idset_parts *p)
{
	static const struct idset_disk zero;
	char *path = set_path(t, p->tree, p->flags);
	struct sink *k = calloc(1, sizeof(*k));
	struct fs_error err = FS_ERROR_INIT;
	struct idset_disk h;
	int ok = 0;

	if (k && path &&
	    fs_atomic_begin(&k->file, path, "the identifier set",
			    FS_ATOMIC_MKDIR | FS_ATOMIC_NO_FSYNC, &err) == 0) {
		header_of(p, &h);
		/* the header's place first, then the body; the header last */
		if (fs_atomic_write(k->file, &zero, sizeof(zero), &err) == 0) {
			emit(p, &h, k);
			ok = !k->failed && fs_atomic_pwrite(k->file, &h, sizeof(h), 0, &err) == 0;
		}
		if (ok)
			ok = fs_atomic_commit(k->file, &err) == 0;
		else
			fs_atomic_abort(k->file);
	}
	if (k && k->failed)
		err = k->err;
	free(k);
	if (!ok) {
		/* said once: a cache folder that cannot be written costs
		 * every review the reading of the trees */
		if (!t->noted && err.message[0]) {
			t->noted = true;
			t->note = g_strdup_printf("%s; the names of that tree are read again next time",
						  err.message);
		}
		free(path);
		return NULL;
	}
	return path;
}

struct cached {
	char *path;
	struct timespec mtime;
};

static int newest_first(const void *a, const void *b)
{
	const struct cached *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	return x->mtime.tv_nsec > y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec < y->mtime.tv_nsec;
}

/* When the set at PATH (status ST) was last used: the later of its
 * modification time and its stamp's, into ST. */
static void used_time(const char *path, struct stat *st)
{
	char *stamp = g_strconcat(path, SET_STAMP_SUFFIX, NULL);
	struct stat ss;

	if (stat(stamp, &ss) == 0 &&
	    (ss.st_mtim.tv_sec > st->st_mtim.tv_sec ||
	     (ss.st_mtim.tv_sec == st->st_mtim.tv_sec && ss.st_mtim.tv_nsec > st->st_mtim.tv_nsec)))
		st->st_mtim = ss.st_mtim;
	g_free(stamp);
}

/* The set files of T's directory, most recently used first; temporary
 * files an hour old (a process killed while writing) removed. */
static size_t list_sets(const struct fs_treesyms *t, struct cached **out)
{
	DIR *d = opendir(t->cache_dir);
	struct dirent *de;
	struct cached *v = NULL;
	const char *base = strrchr(t->prefix, '/') + 1;
	size_t n = 0, cap = 0, nbase = strlen(base);
	time_t now = time(NULL);

	*out = NULL;
	while (d && (de = readdir(d))) {
		struct stat st;
		char *p;

		/* this repository's: "<base>-<40 hex>-<flags>.ids" */
		if (strncmp(de->d_name, base, nbase) || de->d_name[nbase] != '-' ||
		    strspn(de->d_name + nbase + 1, "0123456789abcdef") != 40 ||
		    !strstr(de->d_name, ".ids") ||
		    asprintf(&p, "%s/%s", t->cache_dir, de->d_name) < 0)
			continue;
		if (stat(p, &st) < 0) {
			free(p);
			continue;
		}
		if (strstr(de->d_name, ".tmp.")) {
			if (now - st.st_mtime > 3600)
				unlink(p);
			free(p);
			continue;
		}
		if (!g_str_has_suffix(de->d_name, ".ids")) {
			free(p); /* a stamp */
			continue;
		}
		used_time(p, &st);
		if (n == cap) {
			struct cached *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));

			if (!nv) {
				free(p);
				break;
			}
			v = nv;
		}
		v[n].path = p;
		v[n++].mtime = st.st_mtim;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), newest_first);
	*out = v;
	return n;
}

static void cached_free(struct cached *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* Remove set file PATH and its stamp. */
static void remove_set(const char *path)
{
	char *stamp = g_strconcat(path, SET_STAMP_SUFFIX, NULL);

	unlink(path);
	unlink(stamp);
	g_free(stamp);
}

/* Keep the IDSET_MAX_SETS sets used last. */
static void prune(const struct fs_treesyms *t)
{
	struct cached *v;
	size_t n = list_sets(t, &v), i;

	for (i = IDSET_MAX_SETS; i < n; i++)
		remove_set(v[i].path);
	cached_free(v, n);
}

/* A cached set to start the set of LINE with FLAGS from: the most
 * recently used of LINE, else the most recently used of any line; NULL
 * when there is none. */
static struct fs_idset *find_base(const struct fs_treesyms *t, const char *line, unsigned flags)
{
	struct cached *v;
	size_t n = list_sets(t, &v), i;
	struct fs_idset *best = NULL, *s;
	int pass;

	for (pass = 0; pass < 2 && !best; pass++) {
		for (i = 0; i < n && !best; i++) {
			if (load_set(v[i].path, false, &s) < 0)
				continue;
			if ((s->h->flags & flags) == flags &&
			    (pass || !strncmp(s->h->line, line, IDSET_LINE_MAX)))
				best = s;
			else
				idset_free(s);
		}
	}
	cached_free(v, n);
	return best;
}

/* ---- the handle ---------------------------------------------------------------------- */

int fs_treesyms_open(struct fs_treesyms **out, const char *repo_path, struct fs_error *err)
{
	struct fs_treesyms *t = calloc(1, sizeof(*t));
	int rc;

	*out = NULL;
	if (!t)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	rc = fs_cache_path(&t->prefix, repo_path, "idset-", "", "repository", err);
	if (rc == 0 && !(t->cache_dir = g_path_get_dirname(t->prefix)))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	if (rc == 0)
		rc = fsi_objects_open(&t->o, repo_path, err);
	if (rc < 0) {
		g_free(t->prefix);
		g_free(t->cache_dir);
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void fs_treesyms_free(struct fs_treesyms *t)
{
	size_t i;

	if (!t)
		return;
	fsi_paths_save(t); /* before the prefix that names its file goes */
	for (i = 0; i < t->nsets; i++)
		idset_free(t->sets[i]);
	fsi_objects_close(&t->o);
	g_free(t->prefix);
	g_free(t->cache_dir);
	free(t->note);
	if (t->tags)
		g_hash_table_destroy(t->tags);
	fsi_paths_free(t);
	free(t);
}

const struct fs_treesyms_stats *fs_treesyms_last(const struct fs_treesyms *t)
{
	return &t->last;
}

const char *fs_treesyms_take_note(struct fs_treesyms *t)
{
	if (!t || !t->noted || t->note_taken)
		return NULL;
	t->note_taken = true;
	return t->note;
}

static int lacks(struct fs_treesyms *t, const char *hex, struct fs_error *err)
{
	if (!t->noted) {
		t->noted = true;
		t->note = g_strdup_printf("cannot read the files of %.12s: the kernel repository "
					  "lacks objects of its tree (a clone made with "
					  "--filter=blob:none?); backports that use what the "
					  "branch lacks are not looked for", hex);
	}
	return fs_error_set(err, FS_ENOTFOUND, "the clone lacks objects of the tree of %.12s",
			    hex);
}

static void keep(struct fs_treesyms *t, struct fs_idset *s)
{
	if (t->nsets == IDSET_MAX_SETS) {
		idset_free(t->sets[0]);
		memmove(t->sets, t->sets + 1, (IDSET_MAX_SETS - 1) * sizeof(*t->sets));
		t->nsets--;
	}
	t->sets[t->nsets++] = s;
}

/* The set of TREE with FLAGS from this process or the cache: 0, or
 * FS_ENOTFOUND. */
static int cached(struct fs_treesyms *t, const uint8_t *tree, unsigned flags,
		  const struct fs_idset **out)
{
	struct fs_idset *s;
	unsigned f;
	size_t i;

	for (i = 0; i < t->nsets; i++)
		if (!memcmp(t->sets[i]->h->tree, tree, 20) && (t->sets[i]->h->flags & flags) == flags) {
			*out = t->sets[i];
			return 0;
		}
	for (f = flags; f <= FS_IDSET_DEFS; f++) {
		char *path = set_path(t, tree, f);
		int rc;

		if ((f & flags) != flags || !path) {
			free(path);
			continue;
		}
		rc = load_set(path, false, &s);
		if (rc == FS_ECORRUPT) {
			remove_set(path); /* rebuilt below, never trusted */
		} else if (rc == 0) {
			char *stamp = g_strconcat(path, SET_STAMP_SUFFIX, NULL);

			utimensat(AT_FDCWD, stamp, NULL, 0); /* used: kept longer */
			g_free(stamp);
		}
		free(path);
		if (rc == 0) {
			keep(t, s);
			*out = s;
			return 0;
		}
	}
	return FS_ENOTFOUND;
}

int fs_treesyms_set(struct fs_treesyms *t, const char *hex, const char *line, unsigned flags,
		    const struct fs_idset **out, struct fs_error *err)
{
	uint8_t oid[20], tree[20], ptree[20];
	struct idset_parts p;
	struct fs_idset *base = NULL, *s;
	char *path;
	unsigned np;
	bool incr = false;
	int rc;

	*out = NULL;
	memset(&t->last, 0, sizeof(t->last));
	if (fsi_unhex(hex, oid) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is no commit id", hex);
	rc = fsi_commit_trees(&t->o, oid, tree, ptree, &np);
	if (rc == FS_ENOTFOUND)
		return fs_error_set(err, rc, "no commit %.12s in the repository", hex);
	if (rc < 0)
		return fs_error_set(err, rc, "cannot read commit %.12s", hex);
	if (cached(t, tree, flags, out) == 0) {
		t->last.cached = true;
		t->last.files = (*out)->h->nfiles;
		return 0;
	}
	base = find_base(t, line ? line : "", flags);
	rc = idset_build(t, tree, flags, base, &p, &incr);
	idset_free(base);
	if (rc == FS_ENOTFOUND)
		return lacks(t, hex, err);
	if (rc < 0)
		return fs_error_set(err, rc, rc == FS_ENOMEM ? "out of memory" :
					     "the tree of %.12s is damaged", hex);
	p.line = line;
	/* written to its file and mapped from there (the image is not in
	 * memory twice), else made in memory */
	path = save(t, &p);
	if (!path || load_set(path, true, &s) < 0)
		rc = idset_image(&p, &s);
	free(path);
	idset_parts_free(&p);
	fsi_objects_drop(&t->o); /* the pages of the packs it read go back */
	/* and the build's tables, freed, to the system: the review that
	 * follows reads the index and the packs, and would keep them too */
	malloc_trim(0);
	if (rc < 0)
		return fs_error_set(err, rc, "out of memory");
	prune(t);
	keep(t, s);
	t->last.incremental = incr;
	t->last.files = s->h->nfiles;
	*out = s;
	return 0;
}

void fs_treesyms_save(struct fs_treesyms *t)
{
	if (t)
		fsi_paths_save(t);
}

void fs_treesyms_trim(struct fs_treesyms *t)
{
	size_t i;

	fsi_objects_drop(&t->o);
	for (i = 0; i < t->nsets; i++)
		if (t->sets[i]->mapped)
			madvise(t->sets[i]->image, t->sets[i]->len, MADV_DONTNEED);
}

/* ---- lookups ---------------------------------------------------------------------------- */

bool fs_idset_has(const struct fs_idset *s, const char *name)
{
	uint64_t h = idset_hash(name, strlen(name));
	size_t lo = 0, hi = s->h->nnames;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->names[mid] == h)
			return true;
		if (s->names[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t fs_idset_defined_in(const struct fs_idset *s, const char *name, const char **paths,
			   size_t max)
{
	uint64_t h = idset_hash(name, strlen(name));
	size_t lo = 0, hi = s->h->ndefs, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->defs[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->h->ndefs && s->defs[lo].hash == h; lo++, n++)
		if (n < max)
			paths[n] = s->paths + s->path_off[s->defs[lo].path];
	/* in path order, for the same answer whatever the build's order */
	if (n > 1)
		qsort(paths, n < max ? n : max, sizeof(*paths), path_cmp);
	return n;
}

size_t fs_idset_names(const struct fs_idset *s)
{
	return s->h->nnames;
}

size_t fs_idset_files(const struct fs_idset *s)
{
	return s->h->nfiles;
}
