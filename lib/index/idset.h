/* fixscan: the identifier sets of trees (fixscan/treesyms.h): the file
 * layout, the handle, and the builder.  Private to lib/index/.
 *
 * A set is one image, the cache file's bytes, mapped from the file or
 * built in memory:
 *
 *   struct idset_disk      the header
 *   uint64_t names[]       the names' hashes, ascending
 *   uint32_t counts[]      per name, the C files that have it
 *   struct idset_def defs[] (hash, path) ascending: where names are
 *                          defined (FS_IDSET_DEFS)
 *   uint32_t path_off[]    offsets into paths
 *   char paths[]           NUL-terminated paths
 *
 * each section 8-byte aligned.  The counts are what lets a set be
 * carried to another tree: a file's old version takes its names away,
 * the new one brings them.  Integers are in host byte order (a local
 * cache: another byte order is another BOM, and rebuilt). */
#ifndef FIXSCAN_INDEX_IDSET_H
#define FIXSCAN_INDEX_IDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "fixscan/treesyms.h"
#include "trees.h"

#define IDSET_MAGIC "FSIDSET\n"
#define IDSET_VERSION 1
#define IDSET_BOM 0x01020304u
#define IDSET_MAX_SETS 8   /* kept in the cache directory */
#define IDSET_LINE_MAX 64

struct idset_disk {
	char magic[8];
	uint32_t version;
	uint32_t bom;
	uint64_t file_size;
	uint8_t tree[20];
	uint32_t flags;
	uint64_t nnames, nfiles, ndefs, npaths, paths_len;
	char line[IDSET_LINE_MAX];
	uint64_t body_checksum;  /* fsi_checksum() of the bytes after the header */
	uint64_t head_checksum;  /* of the header up to this field */
};

struct idset_def {
	uint64_t hash;
	uint32_t path;
	uint32_t pad;
};

struct fs_idset {
	const struct idset_disk *h;
	const uint64_t *names;
	const uint32_t *counts;
	const struct idset_def *defs;
	const uint32_t *path_off;
	const char *paths;
	void *image;    /* the bytes */
	size_t len;
	bool mapped;    /* IMAGE is a mapping (munmap), else malloc'd */
};

struct fs_treesyms {
	struct fsi_objects o;
	/* Where its set files go: "<prefix>-<tree>-<flags>.ids", the prefix
	 * fs_cache_path() gives the repository (base/cache.h), so that each
	 * repository keeps its own; CACHE_DIR is the directory of it. */
	char *prefix, *cache_dir;
	struct fs_idset *sets[IDSET_MAX_SETS];
	size_t nsets;
	struct fs_treesyms_stats last;
	char *note;
	bool noted, note_taken;
	/* The index's tags by name ("v4.5" -> its commit's id, both borrowed
	 * from the index layer TAGS_OF), made on the first history search:
	 * a search looks up every mainline release. */
	GHashTable *tags;
	const void *tags_of;
	/* The files commits change (treesyms-paths.c): id -> paths, read
	 * from "<prefix>-paths" on first use; DIRTY when the run added some. */
	GHashTable *paths;
	bool paths_dirty;
};

/* The files commit OID changes, as fs_treesyms_changed_paths() gives
 * them, when a run (this one or an earlier) has had them: true with
 * *PATHS a copy (g_strfreev()).  fsi_paths_put() keeps a copy of PATHS;
 * fsi_paths_save() writes them for the next run (at fs_treesyms_free()),
 * fsi_paths_free() lets them go. */
bool fsi_paths_get(struct fs_treesyms *t, const uint8_t *oid, char ***paths);
void fsi_paths_put(struct fs_treesyms *t, const uint8_t *oid, char *const *paths);
void fsi_paths_save(struct fs_treesyms *t);
void fsi_paths_free(struct fs_treesyms *t);

/* The hash a set keeps of NAME (LEN bytes): never 0. */
uint64_t idset_hash(const char *name, size_t len);

/* What a build gives, owned by the builder until idset_image() copies it. */
struct idset_parts {
	uint8_t tree[20];
	unsigned flags;
	const char *line;
	size_t nfiles;
	uint64_t *names;
	uint32_t *counts;
	size_t nnames;
	struct idset_def *defs;
	size_t ndefs;
	char **paths;
	size_t npaths;
};
void idset_parts_free(struct idset_parts *p);

/* The image of P as a set: 0 with *OUT, or FS_ENOMEM. */
int idset_image(const struct idset_parts *p, struct fs_idset **out);
void idset_free(struct fs_idset *s);

/* Build the set of TREE into *P: from BASE (a set of another tree with at
 * least FLAGS; NULL: every blob) when it is worth it.  *INCREMENTAL says
 * which was done.  0, FS_ENOTFOUND (a tree or blob the clone lacks),
 * FS_EPARSE, FS_ENOMEM. */
int idset_build(struct fs_treesyms *t, const uint8_t *tree, unsigned flags,
		const struct fs_idset *base, struct idset_parts *p, bool *incremental);

#endif
