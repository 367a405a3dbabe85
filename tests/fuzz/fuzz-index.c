/* fixscan: the cache loader (lib/index/load.c) and the lookups over what
 * it accepts, fed a mutated cache whose size field and checksum are fixed
 * up first, as a crafted file would have them: so the fuzzer reaches the
 * structural checks instead of stopping at the checksum. */
#include "fuzz.h"
#include "fixscan/index.h"
#include "index/format.h"
#include "index/load.h"

enum { MAX_COMMITS = 64 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

static void fix_up(uint8_t *buf, size_t size)
{
	struct fs_disk_header *h = (struct fs_disk_header *)buf;
	struct fsi_body_ck ck;

	if (size < sizeof(*h))
		return;
	h->file_size = size;
	fsi_body_ck_init(&ck, size - sizeof(*h));
	fsi_body_ck_update(&ck, buf + sizeof(*h), size - sizeof(*h));
	h->checksum = fsi_file_checksum(h, fsi_body_ck_final(&ck));
}

static void query(const struct fs_index *idx)
{
	size_t n = fs_index_count(idx), c, i, m;
	struct fs_index_ref refs[16];
	fs_cid list[16], found;
	struct fs_index_fix *fx;
	struct fs_index_pending pending[4];
	char hex[41];
	int nf;

	for (c = 0; c < n && c < MAX_COMMITS; c++) {
		fs_index_commit_hex(idx, (fs_cid)c, hex);
		(void)strlen(fs_index_commit_subject(idx, (fs_cid)c));
		(void)strlen(fs_index_commit_branch(idx, (fs_cid)c));
		fs_index_commit_release(idx, (fs_cid)c);
		fs_index_in_branch(idx, (fs_cid)c, "linux-4.4.y", "v4.4.1");
		fs_index_upstream_of(idx, (fs_cid)c);
		fs_index_backports(idx, (fs_cid)c, list, 16);
		m = fs_index_commit_refs(idx, (fs_cid)c, refs, 16);
		for (i = 0; i < m && i < 16; i++)
			fs_index_ref_target(idx, &refs[i], NULL, NULL);
		fs_index_refs_to(idx, (fs_cid)c, ~0u, refs, 16);
		hex[7] = '\0';
		fs_index_resolve_all(idx, hex, list, 16);
		fs_index_find_subject(idx, fs_index_commit_subject(idx, (fs_cid)c), list, 16);
		nf = fs_index_fixes_of(idx, (fs_cid)c, &fx);
		if (nf > 0)
			g_free(fx);
		fs_index_pending_fixes(idx, (fs_cid)c, pending, 4);
	}
	{
		struct fs_error err = FS_ERROR_INIT;
		fs_index_resolve(idx, "abcd", &found, &err);
	}
	fs_index_branch_fork(idx, "linux-4.4.y");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	uint8_t *buf = malloc(size ? size : 1);
	char path[64];
	int fd;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fix_up(buf, size);
	fd = fuzz_file(NULL, buf, size, path);
	free(buf);
	if (fd < 0)
		return 0;
	if (fsi_load(&idx, path, 1, &err) == 0) {
		query(idx);
		fs_index_free(idx);
	}
	close(fd);
	return 0;
}
