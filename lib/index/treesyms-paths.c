/* fixscan: the files each commit changes, kept across runs (see idset.h).
 *
 * fs_treesyms_changed_paths() diffs a commit's tree with its parent's: a
 * few dozen tree objects found in the packs' indexes and read, each
 * lookup a page fault or two in a large mapping.  A review asks it for
 * every mainline fix it finds missing, on every run, and the answer never
 * changes (a commit's id names its trees).  The answers are kept in one
 * small file beside the sets, "<prefix>-paths", read on the first
 * question of a run and written again, whole and atomically, at the end
 * of a run that learned new ones.  It is a cache: a file that is
 * missing, damaged or cannot be written costs the diffs, never a wrong
 * answer.
 *
 * The file: PATHS_MAGIC, then per commit its id (20 bytes), the number
 * of its paths (4 bytes, little-endian) and the paths, each ended by a
 * NUL; last the FNV-1a of all that comes before (8 bytes, little-endian).
 * It keeps at most PATHS_MAX commits: beyond, only those the run used. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "fixscan/atomic.h"
#include "idset.h"

#define PATHS_MAGIC "fixscan-paths 1\n"
#define PATHS_MAX 200000
/* A larger file is not read (it is not one this code wrote). */
#define PATHS_FILE_MAX ((size_t)256 << 20)
/* A commit with more paths is not kept: a tree-wide change, rare. */
#define PATHS_ONE_MAX 4096

struct known {
	char **paths; /* NULL-terminated (g_strfreev()) */
	bool used;    /* asked for by this run */
};

static guint oid_hash(gconstpointer k)
{
	guint h;

	memcpy(&h, k, sizeof(h)); /* an object id is a hash already */
	return h;
}

static gboolean oid_equal(gconstpointer a, gconstpointer b)
{
	return !memcmp(a, b, 20);
}

static void known_free(gpointer v)
{
	struct known *k = v;

	g_strfreev(k->paths);
	g_free(k);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The records of the LEN bytes B (a whole file, checked) into TABLE;
 * false when they do not read back whole (TABLE then keeps what was
 * read, all of it correct records). */
static bool parse(GHashTable *table, const unsigned char *b, size_t len)
{
	size_t magic = strlen(PATHS_MAGIC), at = magic, end;

	if (len < magic + 8 || memcmp(b, PATHS_MAGIC, magic))
		return false;
	end = len - 8;
	if (le64(b + end) != fs_fnv1a(FS_FNV1A_BASIS, b, end))
		return false;
	while (at < end) {
		struct known *k;
		uint32_t n, i;

		if (end - at < 24 || (n = le32(b + at + 20)) > PATHS_ONE_MAX)
			return false;
		k = g_new0(struct known, 1);
		k->paths = g_new0(char *, n + 1);
		g_hash_table_replace(table, g_memdup2(b + at, 20), k);
		at += 24;
		for (i = 0; i < n; i++) {
			const unsigned char *nul = memchr(b + at, '\0', end - at);

			if (!nul)
				return false;
			k->paths[i] = g_strndup((const char *)b + at, (size_t)(nul - (b + at)));
			at = (size_t)(nul - b) + 1;
		}
	}
	return true;
}

static char *paths_file(const struct fs_treesyms *t)
{
	return g_strconcat(t->prefix, "-paths", NULL);
}

/* The table, read from the file on first use. */
static GHashTable *table_of(struct fs_treesyms *t)
{
	gchar *data = NULL;
	gsize len = 0;
	char *path;

	if (t->paths)
		return t->paths;
	t->paths = g_hash_table_new_full(oid_hash, oid_equal, g_free, known_free);
	path = paths_file(t);
	if (g_file_get_contents(path, &data, &len, NULL) && len <= PATHS_FILE_MAX &&
	    !parse(t->paths, (const unsigned char *)data, len)) {
		/* damaged: none of it trusted, and replaced at the end */
		g_hash_table_remove_all(t->paths);
		t->paths_dirty = true;
	}
	g_free(data);
	g_free(path);
	return t->paths;
}

bool fsi_paths_get(struct fs_treesyms *t, const uint8_t *oid, char ***paths)
{
	struct known *k = g_hash_table_lookup(table_of(t), oid);

	if (!k)
		return false;
	k->used = true;
	*paths = g_strdupv(k->paths);
	return true;
}

void fsi_paths_put(struct fs_treesyms *t, const uint8_t *oid, char *const *paths)
{
	struct known *k;

	if (g_strv_length((char **)paths) > PATHS_ONE_MAX)
		return;
	k = g_new0(struct known, 1);
	k->paths = g_strdupv((char **)paths);
	k->used = true;
	g_hash_table_replace(table_of(t), g_memdup2(oid, 20), k);
	t->paths_dirty = true;
}

static void put_le32(GByteArray *b, uint32_t v)
{
	unsigned char x[4] = { v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24 & 255 };

	g_byte_array_append(b, x, 4);
}

/* Write the table when this run changed it.  A file that cannot be
 * written is said once (fs_treesyms_take_note()): the next run diffs
 * again. */
void fsi_paths_save(struct fs_treesyms *t)
{
	struct fs_error err = FS_ERROR_INIT;
	GHashTableIter it;
	gpointer key, value;
	GByteArray *b;
	bool all;
	uint64_t sum;
	char *path;

	if (!t->paths || !t->paths_dirty)
		return;
	all = g_hash_table_size(t->paths) <= PATHS_MAX;
	b = g_byte_array_new();
	g_byte_array_append(b, (const guint8 *)PATHS_MAGIC, strlen(PATHS_MAGIC));
	g_hash_table_iter_init(&it, t->paths);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const struct known *k = value;
		uint32_t i, n = g_strv_length(k->paths);

		if (!all && !k->used)
			continue;
		g_byte_array_append(b, key, 20);
		put_le32(b, n);
		for (i = 0; i < n; i++)
			g_byte_array_append(b, (const guint8 *)k->paths[i], strlen(k->paths[i]) + 1);
	}
	sum = fs_fnv1a(FS_FNV1A_BASIS, b->data, b->len);
	put_le32(b, (uint32_t)sum);
	put_le32(b, (uint32_t)(sum >> 32));
	path = paths_file(t);
	if (fs_atomic_replace(path, b->data, b->len, "the files of the fixes",
			      FS_ATOMIC_MKDIR | FS_ATOMIC_NO_FSYNC, &err) < 0 &&
	    !t->noted && err.message[0]) {
		t->noted = true;
		t->note = g_strdup_printf("%s; they are read from the trees again next time",
					  err.message);
	}
	g_free(path);
	g_byte_array_unref(b);
	t->paths_dirty = false;
}

void fsi_paths_free(struct fs_treesyms *t)
{
	if (t->paths)
		g_hash_table_destroy(t->paths);
	t->paths = NULL;
}
