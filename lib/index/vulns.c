/* fixscan: CVE ids from a clone of the kernel CNA's vulns repository.
 *
 * The cache file, in host byte order:
 *
 *   header    magic "FSVULN01", HEAD (40 hex), ncve, nfix, nvuln, byte-order mark
 *   names     ncve x 24 bytes, NUL-padded, in CVE order (year, number)
 *   fix       nfix x { id[20], cve }: .sha1 ids, sorted by id then cve
 *   vuln      nvuln x { id[20], cve }: .vulnerable ids, likewise
 *   fix_off   ncve + 1 x uint32: where each CVE's fixes start in by_cve
 *   by_cve    nfix x id[20]: the fix ids again, in CVE order
 *   sum       SHA-256 of everything before it
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/vulns.h"
#include "base/git-util.h"
#include "base/cache.h"

#define MAGIC "FSVULN01"
#define NAME_LEN 24
#define BOM 0x01020304u
#define SUM_LEN 32

struct vhdr {
	char magic[8];
	char head[40];
	uint32_t ncve, nfix, nvuln, bom;
};

struct vrec {
	uint8_t id[20];
	uint32_t cve;
};

struct fs_vulns {
	char *cache_path;
	unsigned char *buf;     /* the whole cache file */
	size_t len;
	const struct vhdr *h;
	const char (*names)[NAME_LEN];
	const struct vrec *fix, *vuln;
	const uint32_t *fix_off;
	const uint8_t (*by_cve)[20];
};

/* ---- ids and names ----------------------------------------------------- */

/* HEX (exactly 40 hex digits, any case) as 20 bytes; false otherwise. */
static bool parse_id(const char *hex, size_t n, uint8_t id[20])
{
	size_t i;

	if (n != 40)
		return false;
	for (i = 0; i < 40; i++) {
		int v = g_ascii_xdigit_value(hex[i]);
		if (v < 0)
			return false;
		if (i % 2 == 0)
			id[i / 2] = (uint8_t)(v << 4);
		else
			id[i / 2] |= (uint8_t)v;
	}
	return true;
}

static void id_hex(const uint8_t id[20], char hex[41])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < 20; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[40] = '\0';
}

/* "CVE-2024-26921" sorts by year, then number, then as text. */
static int cve_cmp(const char *a, const char *b)
{
	unsigned long ya = 0, yb = 0, na = 0, nb = 0;

	sscanf(a, "CVE-%lu-%lu", &ya, &na);
	sscanf(b, "CVE-%lu-%lu", &yb, &nb);
	if (ya != yb)
		return ya < yb ? -1 : 1;
	if (na != nb)
		return na < nb ? -1 : 1;
	return strcmp(a, b);
}

/* The CVE of a file name "CVE-2024-26921.sha1" with suffix SUFFIX: the
 * stem in STEM; false for any other name. */
static bool cve_stem(const char *name, const char *suffix, char stem[NAME_LEN])
{
	size_t n = strlen(name), s = strlen(suffix), i;

	if (n <= s || strcmp(name + n - s, suffix) || strncmp(name, "CVE-", 4))
		return false;
	n -= s;
	if (n >= NAME_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!g_ascii_isalnum(name[i]) && name[i] != '-')
			return false;
	memcpy(stem, name, n);
	stem[n] = '\0';
	return true;
}

/* ---- reading the tree -------------------------------------------------- */

/* What the tree says, before it is laid out. */
struct gather {
	GHashTable *cves;     /* stem -> GUINT index + 1 into names */
	GPtrArray *names;     /* stems (owned) */
	GArray *fix, *vuln;   /* struct vrec, cve = index into names */
	GHashTable *rejected; /* stems under cve/rejected/ */
};

static uint32_t cve_index(struct gather *g, const char *stem)
{
	gpointer v = g_hash_table_lookup(g->cves, stem);
	char *copy;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	copy = g_strdup(stem);
	g_ptr_array_add(g->names, copy);
	g_hash_table_insert(g->cves, copy, GUINT_TO_POINTER(g->names->len));
	return g->names->len - 1;
}

/* Every line of BLOB that is an id, as records of CVE STEM in TO. */
static void add_lines(struct gather *g, git_blob *blob, const char *stem, GArray *to)
{
	const char *p = git_blob_rawcontent(blob), *end = p + git_blob_rawsize(blob);
	uint32_t cve = UINT32_MAX;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *s = p;
		struct vrec r;

		while (s < e && g_ascii_isspace(*s))
			s++;
		while (e > s && g_ascii_isspace(e[-1]))
			e--;
		if (parse_id(s, (size_t)(e - s), r.id)) {
			if (cve == UINT32_MAX)
				cve = cve_index(g, stem);
			r.cve = cve;
			g_array_append_val(to, r);
		}
		p = nl ? nl + 1 : end;
	}
}

/* The stems of every file under the tree of cve/rejected/ (years). */
static void read_rejected(struct gather *g, git_repository *repo, const git_tree *rejected)
{
	size_t i, k, n = git_tree_entrycount(rejected);

	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(rejected, i);
		git_tree *year = NULL;

		if (git_tree_entry_type(e) != GIT_OBJECT_TREE ||
		    git_tree_lookup(&year, repo, git_tree_entry_id(e)) < 0)
			continue;
		for (k = 0; k < git_tree_entrycount(year); k++) {
			const char *name = git_tree_entry_name(git_tree_entry_byindex(year, k));
			const char *dot = strchr(name, '.');
			char stem[NAME_LEN];

			if (dot && (size_t)(dot - name) < NAME_LEN &&
			    cve_stem(name, dot, stem))
				g_hash_table_add(g->rejected, g_strdup(stem));
		}
		git_tree_free(year);
	}
}

/* The .sha1 and .vulnerable files of one year's tree. */
static int read_year(struct gather *g, git_repository *repo, const git_tree *year,
		     struct fs_error *err)
{
	size_t i, n = git_tree_entrycount(year);

	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(year, i);
		const char *name = git_tree_entry_name(e);
		char stem[NAME_LEN];
		git_blob *blob = NULL;
		GArray *to;

		if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
			continue;
		if (cve_stem(name, ".sha1", stem))
			to = g->fix;
		else if (cve_stem(name, ".vulnerable", stem))
			to = g->vuln;
		else
			continue;
		if (g_hash_table_contains(g->rejected, stem))
			continue;
		if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
			return fs_error_set_git(err, FS_EGIT, "cannot read %s", name);
		add_lines(g, blob, stem, to);
		git_blob_free(blob);
	}
	return 0;
}

/* The subtree PATH of TREE, or NULL. */
static git_tree *subtree(git_repository *repo, const git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	git_tree *t = NULL;

	if (git_tree_entry_bypath(&e, tree, path) < 0)
		return NULL;
	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		(void)git_tree_lookup(&t, repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	return t;
}

static int read_tree(struct gather *g, git_repository *repo, const git_tree *root,
		     struct fs_error *err)
{
	git_tree *published = subtree(repo, root, "cve/published");
	git_tree *rejected = subtree(repo, root, "cve/rejected");
	size_t i;
	int rc = 0;

	if (rejected)
		read_rejected(g, repo, rejected);
	for (i = 0; published && rc == 0 && i < git_tree_entrycount(published); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(published, i);
		git_tree *year = NULL;

		if (git_tree_entry_type(e) != GIT_OBJECT_TREE)
			continue;
		if (git_tree_lookup(&year, repo, git_tree_entry_id(e)) < 0)
			return fs_error_set_git(err, FS_EGIT, "cannot read cve/published/%s",
						git_tree_entry_name(e));
		rc = read_year(g, repo, year, err);
		git_tree_free(year);
	}
	git_tree_free(published);
	git_tree_free(rejected);
	return rc;
}

/* ---- laying out the cache ---------------------------------------------- */

static int rec_cmp(const void *a, const void *b)
{
	const struct vrec *x = a, *y = b;
	int c = memcmp(x->id, y->id, 20);

	if (c)
		return c;
	return (x->cve > y->cve) - (x->cve < y->cve);
}

static int name_cmp(const void *a, const void *b)
{
	return cve_cmp(*(char *const *)a, *(char *const *)b);
}

/* Records renumbered from gather order to CVE order (MAP), sorted, each
 * pair once, appended to OUT. */
static void add_recs(GByteArray *out, GArray *recs, const uint32_t *map)
{
	size_t i;

	for (i = 0; i < recs->len; i++) {
		struct vrec *r = &g_array_index(recs, struct vrec, i);
		r->cve = map[r->cve];
	}
	if (recs->len)
		qsort(recs->data, recs->len, sizeof(struct vrec), rec_cmp);
	for (i = 0; i < recs->len; i++) {
		const struct vrec *r = &g_array_index(recs, struct vrec, i);
		if (i && !rec_cmp(r, r - 1))
			continue;
		g_byte_array_append(out, (const guint8 *)r, sizeof(*r));
	}
}

static int cve_rec_cmp(const void *a, const void *b)
{
	const struct vrec *x = a, *y = b;

	if (x->cve != y->cve)
		return x->cve < y->cve ? -1 : 1;
	return memcmp(x->id, y->id, 20);
}

/* The file image of G for HEAD (a new byte array). */
static GByteArray *layout(struct gather *g, const char head[41])
{
	GByteArray *out = g_byte_array_new();
	char **sorted = g_new(char *, g->names->len + 1);
	uint32_t *map = g_new(uint32_t, g->names->len + 1), off;
	struct vhdr h;
	struct vrec *fix;
	size_t i, nfix, at;
	guint8 sum[SUM_LEN];
	gsize sumlen = SUM_LEN;
	GChecksum *ck;

	for (i = 0; i < g->names->len; i++)
		sorted[i] = g_ptr_array_index(g->names, i);
	if (g->names->len)
		qsort(sorted, g->names->len, sizeof(*sorted), name_cmp);
	for (i = 0; i < g->names->len; i++)
		map[GPOINTER_TO_UINT(g_hash_table_lookup(g->cves, sorted[i])) - 1] = (uint32_t)i;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, 8);
	memcpy(h.head, head, 40);
	h.ncve = g->names->len;
	h.bom = BOM;
	g_byte_array_append(out, (const guint8 *)&h, sizeof(h));
	for (i = 0; i < g->names->len; i++) {
		char name[NAME_LEN];
		memset(name, 0, sizeof(name));
		snprintf(name, sizeof(name), "%s", sorted[i]);
		g_byte_array_append(out, (const guint8 *)name, NAME_LEN);
	}
	add_recs(out, g->fix, map);
	nfix = (out->len - sizeof(h) - (size_t)h.ncve * NAME_LEN) / sizeof(struct vrec);
	add_recs(out, g->vuln, map);
	h.nfix = (uint32_t)nfix;
	h.nvuln = (uint32_t)((out->len - sizeof(h) - (size_t)h.ncve * NAME_LEN) /
			     sizeof(struct vrec) - nfix);
	memcpy(out->data, &h, sizeof(h));
	/* The fixes again, by CVE, with where each CVE's start. */
	fix = g_new(struct vrec, nfix + 1);
	if (nfix)
		memcpy(fix, out->data + sizeof(h) + (size_t)h.ncve * NAME_LEN, nfix * sizeof(*fix));
	if (nfix)
		qsort(fix, nfix, sizeof(*fix), cve_rec_cmp);
	for (i = 0, at = 0; i <= h.ncve; i++) {
		while (at < nfix && fix[at].cve < i)
			at++;
		off = (uint32_t)at;
		g_byte_array_append(out, (const guint8 *)&off, sizeof(off));
	}
	for (i = 0; i < nfix; i++)
		g_byte_array_append(out, fix[i].id, 20);
	ck = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(ck, out->data, out->len);
	g_checksum_get_digest(ck, sum, &sumlen);
	g_checksum_free(ck);
	g_byte_array_append(out, sum, SUM_LEN);
	g_free(fix);
	g_free(map);
	g_free(sorted);
	return out;
}

/* ---- the cache file ---------------------------------------------------- */

/* Point V's tables into V->buf, after checking every count, bound, order
 * and the checksum.  False when anything is off. */
static bool map_tables(struct fs_vulns *v)
{
	const struct vhdr *h = (const struct vhdr *)v->buf;
	guint8 sum[SUM_LEN];
	gsize sumlen = SUM_LEN;
	GChecksum *ck;
	size_t want, i;
	bool ok;

	if (v->len < sizeof(*h) + SUM_LEN || memcmp(h->magic, MAGIC, 8) || h->bom != BOM ||
	    h->ncve > (1u << 24) || h->nfix > (1u << 24) || h->nvuln > (1u << 24))
		return false;
	want = sizeof(*h) + (size_t)h->ncve * NAME_LEN +
	       ((size_t)h->nfix + h->nvuln) * sizeof(struct vrec) +
	       ((size_t)h->ncve + 1) * 4 + (size_t)h->nfix * 20 + SUM_LEN;
	if (v->len != want)
		return false;
	ck = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(ck, v->buf, v->len - SUM_LEN);
	g_checksum_get_digest(ck, sum, &sumlen);
	g_checksum_free(ck);
	if (memcmp(sum, v->buf + v->len - SUM_LEN, SUM_LEN))
		return false;
	v->h = h;
	v->names = (const void *)(v->buf + sizeof(*h));
	v->fix = (const void *)(v->buf + sizeof(*h) + (size_t)h->ncve * NAME_LEN);
	v->vuln = v->fix + h->nfix;
	v->fix_off = (const void *)(v->vuln + h->nvuln);
	v->by_cve = (const void *)(v->fix_off + h->ncve + 1);
	ok = v->fix_off[h->ncve] == h->nfix;
	for (i = 0; ok && i < h->ncve; i++)
		ok = v->names[i][NAME_LEN - 1] == '\0' && v->fix_off[i] <= v->fix_off[i + 1];
	for (i = 0; ok && i < h->nfix; i++)
		ok = v->fix[i].cve < h->ncve && (!i || rec_cmp(&v->fix[i - 1], &v->fix[i]) < 0);
	for (i = 0; ok && i < h->nvuln; i++)
		ok = v->vuln[i].cve < h->ncve && (!i || rec_cmp(&v->vuln[i - 1], &v->vuln[i]) < 0);
	return ok;
}

/* Read the cache at V->cache_path; true when it is sound and of HEAD. */
static bool load_cache(struct fs_vulns *v, const char head[41])
{
	gchar *data = NULL;
	gsize len = 0;

	if (!v->cache_path || !g_file_get_contents(v->cache_path, &data, &len, NULL))
		return false;
	v->buf = (unsigned char *)data;
	v->len = len;
	if (map_tables(v) && !memcmp(v->h->head, head, 40))
		return true;
	g_free(v->buf);
	v->buf = NULL;
	v->len = 0;
	v->h = NULL;
	return false;
}

/* ---- opening ----------------------------------------------------------- */

/* The id of the clone's HEAD commit and its tree. */
static int open_head(git_repository **repo, git_tree **tree, char head[41], const char *path,
		     struct fs_error *err)
{
	git_object *obj = NULL;
	int rc;

	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return fs_error_set_git(err, FS_ENOTFOUND,
					"cannot open the vulns repository '%s' (fixscan.vulns, --vulns)",
					path);
	rc = git_revparse_single(&obj, *repo, "HEAD^{commit}");
	if (rc < 0)
		return fs_error_set_git(err, FS_ENOTFOUND,
					"the vulns repository '%s' has no HEAD commit", path);
	git_oid_tostr(head, 41, git_object_id(obj));
	rc = git_commit_tree(tree, (git_commit *)obj);
	git_object_free(obj);
	if (rc < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot read the tree of '%s'", path);
	return 0;
}

/* Read the tree into V (and try to save it as the cache). */
static int rebuild(struct fs_vulns *v, git_repository *repo, git_tree *tree,
		   const char head[41], struct fs_vulns_stats *st, struct fs_error *err)
{
	struct gather g;
	GByteArray *img;
	struct fs_error werr = FS_ERROR_INIT;
	int rc;

	g.cves = g_hash_table_new(g_str_hash, g_str_equal);
	g.names = g_ptr_array_new_with_free_func(g_free);
	g.fix = g_array_new(FALSE, FALSE, sizeof(struct vrec));
	g.vuln = g_array_new(FALSE, FALSE, sizeof(struct vrec));
	g.rejected = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	rc = read_tree(&g, repo, tree, err);
	if (rc == 0) {
		img = layout(&g, head);
		/* Without the cache the data is read from the tree again
		 * next time: slower, never wrong. */
		if (v->cache_path &&
		    fs_atomic_replace(v->cache_path, img->data, img->len, "the vulns cache",
				      FS_ATOMIC_MKDIR, &werr) < 0 && st)
			snprintf(st->note, sizeof(st->note), "%.500s", werr.message);
		v->len = img->len;
		v->buf = g_byte_array_free(img, FALSE);
		if (!map_tables(v))
			rc = fs_error_set(err, FS_ECORRUPT, "the CVE data of '%s' does not lay out",
					  head);
	}
	g_hash_table_destroy(g.cves);
	g_ptr_array_free(g.names, TRUE);
	g_array_free(g.fix, TRUE);
	g_array_free(g.vuln, TRUE);
	g_hash_table_destroy(g.rejected);
	return rc;
}

int fs_vulns_open(struct fs_vulns **out, const struct fs_vulns_opts *opts,
		  struct fs_vulns_stats *stats, struct fs_error *err)
{
	struct fs_vulns *v = g_new0(struct fs_vulns, 1);
	git_repository *repo = NULL;
	git_tree *tree = NULL;
	char head[41] = "";
	int rc = 0;

	*out = NULL;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	fs_git_init();
	/* $XDG_CACHE_HOME/fixscan/vulns-<readable path>-<hash>.cache; with no
	 * folder for caches the data is read without one, said once */
	if (opts->cache_path) {
		if (!(v->cache_path = g_strdup(opts->cache_path)))
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	} else if (fs_cache_no_home()) {
		if (stats)
			snprintf(stats->note, sizeof(stats->note), "no folder for the vulns cache "
				 "(neither XDG_CACHE_HOME nor HOME is set): read without it");
	} else {
		rc = fs_cache_path(&v->cache_path, opts->path, "vulns-", ".cache",
				   "the vulns repository", err);
	}
	if (rc == 0)
		rc = open_head(&repo, &tree, head, opts->path, err);
	if (rc == 0 && !load_cache(v, head)) {
		if (stats)
			stats->rebuilt = true;
		rc = rebuild(v, repo, tree, head, stats, err);
	}
	git_tree_free(tree);
	git_repository_free(repo);
	if (rc < 0) {
		fs_vulns_free(v);
		return rc;
	}
	if (stats) {
		stats->cves = v->h->ncve;
		memcpy(stats->head, head, sizeof(stats->head));
	}
	*out = v;
	return 0;
}

void fs_vulns_free(struct fs_vulns *v)
{
	if (!v)
		return;
	g_free(v->buf);
	g_free(v->cache_path);
	g_free(v);
}

const char *fs_vulns_cache_path(const struct fs_vulns *v)
{
	return v->cache_path;
}

/* ---- lookups ----------------------------------------------------------- */

/* The first record of TABLE (N sorted) with id ID, and how many follow. */
static size_t find_recs(const struct vrec *table, size_t n, const uint8_t id[20],
			size_t *first)
{
	size_t lo = 0, hi = n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(table[mid].id, id, 20) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && !memcmp(table[k].id, id, 20); k++)
		;
	*first = lo;
	return k - lo;
}

size_t fs_vulns_cves(const struct fs_vulns *v, const char *hex, const char **out,
		     size_t max)
{
	uint8_t id[20];
	size_t first, n, i;

	if (!v || !hex || !parse_id(hex, strlen(hex), id))
		return 0;
	n = find_recs(v->fix, v->h->nfix, id, &first);
	for (i = 0; i < n && i < max; i++)
		out[i] = v->names[v->fix[first + i].cve];
	return n;
}

size_t fs_vulns_fixes_of(const struct fs_vulns *v, const char *hex,
			 struct fs_vulns_fix *out, size_t max)
{
	uint8_t id[20];
	size_t first, n, i, total = 0;
	uint32_t k;

	if (!v || !hex || !parse_id(hex, strlen(hex), id))
		return 0;
	n = find_recs(v->vuln, v->h->nvuln, id, &first);
	for (i = 0; i < n; i++) {
		uint32_t cve = v->vuln[first + i].cve;
		for (k = v->fix_off[cve]; k < v->fix_off[cve + 1]; k++, total++) {
			if (total >= max)
				continue;
			out[total].cve = v->names[cve];
			id_hex(v->by_cve[k], out[total].fix);
		}
	}
	return total;
}
