/* Unit tests of the pack reader (packfile.c) on hand-built repositories
 * packed by git: every object it reads, deltas by offset and by id, is
 * libgit2's; the cache its user keeps is asked and told; what is not in
 * the packs, or not a pack, is not read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <glib.h>

#include <git2.h>

#include "index/packfile.h"

#include "repo-builder.h"

#define GIT "git -c user.name=T -c user.email=t@example.org -C '%s' "

static char ofs[600], ref[600];

/* A file of 200 lines changed in 30 commits, cloned bare twice and
 * repacked with deltas by offset (OFS) and by id (REF). */
static int group_setup(void **state)
{
	char *src;
	GString *text = g_string_new(NULL);
	int i, k;

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-packfile.XXXXXX", g_get_tmp_dir());
	if (!mkdtemp(tmp_root))
		return -1;
	git_libgit2_init();
	src = g_strdup_printf("%s/history", tmp_root);
	snprintf(ofs, sizeof(ofs), "%s/ofs.git", tmp_root);
	snprintf(ref, sizeof(ref), "%s/ref.git", tmp_root);
	run("git init -q '%s'", src);
	for (i = 0; i < 30; i++) {
		char *path = g_strdup_printf("%s/f.c", src);
		g_string_truncate(text, 0);
		for (k = 0; k < 200; k++)
			g_string_append_printf(text, "line %d, revision %d\n", k, k == i * 6 ? i : 0);
		g_file_set_contents(path, text->str, -1, NULL);
		g_free(path);
		run(GIT "add -A && " GIT "commit -q -m 'revision %d'", src, src, i);
	}
	run("git clone -q --bare '%s' '%s' && git -C '%s' repack -q -a -d -f --depth=50", src,
	    ofs, ofs);
	run("git clone -q --bare '%s' '%s' && "
	    "git -C '%s' -c repack.useDeltaBaseOffset=false repack -q -a -d -f --depth=50",
	    src, ref, ref);
	g_string_free(text, TRUE);
	g_free(src);
	return 0;
}

static int group_teardown(void **state)
{
	run("rm -rf '%s'", tmp_root);
	git_libgit2_shutdown();
	return 0;
}

/* A cache of every object made, by pack and offset; counts its use. */
struct cache {
	GHashTable *kept; /* "pack:off" -> GBytes of type byte + data */
	int gets, hits, puts;
};

static int cache_get(void *ctx, uint32_t pack, uint64_t off, int *type, unsigned char **out,
		     size_t *len)
{
	struct cache *c = ctx;
	char key[64];
	GBytes *b;
	const unsigned char *d;
	size_t n;

	c->gets++;
	snprintf(key, sizeof(key), "%u:%llu", pack, (unsigned long long)off);
	b = g_hash_table_lookup(c->kept, key);
	if (!b)
		return 1;
	c->hits++;
	d = g_bytes_get_data(b, &n);
	*type = d[0];
	*len = n - 1;
	*out = g_malloc(n);
	memcpy(*out, d + 1, n - 1);
	(*out)[n - 1] = '\0';
	return 0;
}

static void cache_put(void *ctx, uint32_t pack, uint64_t off, int type,
		      const unsigned char *data, size_t len)
{
	struct cache *c = ctx;
	unsigned char *d = malloc(len + 1);

	c->puts++;
	d[0] = (unsigned char)type;
	memcpy(d + 1, data, len);
	g_hash_table_insert(c->kept, g_strdup_printf("%u:%llu", pack, (unsigned long long)off),
			    g_bytes_new_take(d, len + 1));
}

/* Every object of REPO read through the pack reader (R) is libgit2's;
 * how many there are. */
static int read_all(const char *repo, unsigned flags, struct fs_pack_reader *r)
{
	char *cmd = g_strdup_printf("git -C '%s' cat-file --batch-all-objects "
				    "--batch-check='%%(objectname)'", repo);
	char *objects = g_strdup_printf("%s/objects", repo), *list = NULL;
	struct fs_packs ps;
	git_repository *g = NULL;
	git_odb *odb = NULL;
	gchar **lines;
	int i;

	assert_int_equal(fs_packs_open(&ps, objects, flags), 0);
	assert_int_equal(ps.n, 1);
	assert_true(g_spawn_command_line_sync(cmd, &list, NULL, NULL, NULL));
	assert_int_equal(git_repository_open(&g, repo), 0);
	assert_int_equal(git_repository_odb(&odb, g), 0);
	lines = g_strsplit(list, "\n", -1);
	for (i = 0; lines[i] && *lines[i]; i++) {
		git_odb_object *o = NULL;
		unsigned char *data = NULL;
		uint64_t off;
		uint32_t pack;
		size_t len;
		git_oid oid;
		int type;

		assert_int_equal(git_oid_fromstrn(&oid, lines[i], 40), 0);
		assert_int_equal(fs_packs_find(&ps, oid.id, &r->last, &pack, &off), 0);
		assert_int_equal(fs_packs_read(&ps, r, pack, off, &type, &data, &len), 0);
		assert_int_equal(git_odb_read(&o, odb, &oid), 0);
		assert_int_equal(type, git_odb_object_type(o));
		assert_int_equal(len, git_odb_object_size(o));
		assert_memory_equal(data, git_odb_object_data(o), len);
		assert_int_equal(data[len], '\0');
		g_free(data);
		git_odb_object_free(o);
	}
	g_strfreev(lines);
	git_odb_free(odb);
	git_repository_free(g);
	fs_packs_close(&ps);
	assert_null(ps.p);
	g_free(list);
	g_free(objects);
	g_free(cmd);
	return i;
}

/* 30 commits, 30 trees, 30 revisions of f.c: read alike by offset and by
 * id, mapped for reading ahead or at random, without a cache. */
static void test_read_all(void **state)
{
	struct fs_pack_reader r;

	assert_true(pack_deltas(ofs) > 20);
	assert_true(pack_deltas(ref) > 20);
	memset(&r, 0, sizeof(r));
	assert_int_equal(read_all(ofs, 0, &r), 90);
	assert_int_equal(read_all(ref, FS_PACKS_RANDOM, &r), 90);
	fs_pack_reader_free(&r);
	assert_null(r.dec);
}

/* The cache is asked before each entry of a delta chain is made and told
 * of each one made; what it gives is what is read. */
static void test_cache(void **state)
{
	struct cache c = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)g_bytes_unref), 0, 0, 0 };
	struct fs_pack_cache ops = { cache_get, cache_put, &c };
	struct fs_pack_reader r;

	memset(&r, 0, sizeof(r));
	r.cache = &ops;
	assert_int_equal(read_all(ofs, FS_PACKS_RANDOM, &r), 90);
	/* each object made once, a delta's base found in the cache */
	assert_int_equal(c.puts, 90);
	assert_true(c.hits > 20);
	assert_int_equal(c.gets, c.puts + c.hits);
	c.gets = c.hits = c.puts = 0;
	/* again: from the cache alone */
	assert_int_equal(read_all(ofs, FS_PACKS_RANDOM, &r), 90);
	assert_int_equal(c.puts, 0);
	assert_int_equal(c.hits, 90);
	fs_pack_reader_free(&r);
	g_hash_table_destroy(c.kept);
}

/* A commit's entry: its header and its body inflated; an offset outside
 * the pack is none. */
static void test_entry(void **state)
{
	char *objects = g_strdup_printf("%s/objects", ofs);
	char *cmd = g_strdup_printf("git -C '%s' rev-parse HEAD", ofs), *hex = NULL, *body = NULL;
	struct fs_pack_entry e;
	struct fs_packs ps;
	unsigned char *buf;
	void *dec = NULL;
	uint64_t off;
	uint32_t pack;
	git_oid oid;

	assert_true(g_spawn_command_line_sync(cmd, &hex, NULL, NULL, NULL));
	g_free(cmd);
	cmd = g_strdup_printf("git -C '%s' cat-file commit HEAD", ofs);
	assert_true(g_spawn_command_line_sync(cmd, &body, NULL, NULL, NULL));
	assert_int_equal(git_oid_fromstrn(&oid, hex, 40), 0);
	assert_int_equal(fs_packs_open(&ps, objects, 0), 0);
	assert_int_equal(fs_packs_find(&ps, oid.id, NULL, &pack, &off), 0);
	assert_int_equal(fs_pack_entry(&ps.p[pack], off, &e), 0);
	assert_int_equal(e.type, FS_PACK_COMMIT);
	assert_int_equal(e.size, strlen(body));
	buf = malloc(e.size);
	assert_int_equal(fs_pack_inflate(&dec, e.h, e.avail, buf, (size_t)e.size), 0);
	assert_memory_equal(buf, body, e.size);
	/* a size it does not fill is no object */
	assert_int_equal(fs_pack_inflate(&dec, e.h, e.avail, buf, (size_t)e.size - 1), -1);
	free(buf);
	fs_pack_inflater_free(dec);
	assert_int_equal(fs_pack_entry(&ps.p[pack], 3, &e), -1);
	assert_int_equal(fs_pack_entry(&ps.p[pack], ps.p[pack].data_len - 20, &e), -1);
	fs_packs_close(&ps);
	g_free(body);
	g_free(hex);
	g_free(cmd);
	g_free(objects);
}

/* An id in no pack is not found; a directory without packs, or whose
 * index is cut short, has none. */
static void test_none(void **state)
{
	char *objects = g_strdup_printf("%s/objects", ref);
	unsigned char none[20];
	struct fs_packs ps;
	uint64_t off;
	uint32_t pack;
	size_t last = 7; /* not a pack: the first is tried first */

	memset(none, 0x5a, sizeof(none));
	assert_int_equal(fs_packs_open(&ps, objects, 0), 0);
	assert_int_equal(fs_packs_find(&ps, none, &last, &pack, &off), -1);
	fs_packs_close(&ps);
	assert_int_equal(fs_packs_open(&ps, tmp_root, 0), -1);
	assert_null(ps.p);
	assert_int_equal(ps.n, 0);
	run("cd '%s/pack' && for f in *.idx; do chmod u+w \"$f\" && head -c 2000 \"$f\" > x && "
	    "mv x \"$f\"; done", objects);
	assert_int_equal(fs_packs_open(&ps, objects, 0), -1);
	assert_int_equal(ps.n, 0);
	g_free(objects);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_all),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
