/* fixscan: the vulns tree reader (lib/index/vulns.c) on a clone whose HEAD
 * holds any files.  The input is split at lines "%%%"; each part is a
 * file, its first line the path under cve/ (published/2024/CVE-2024-1.sha1,
 * rejected/..., anything), the rest its content.  The harness commits
 * them with libgit2 into a scratch repository, opens it (the tree is
 * read), opens it again (the cache is read) and wants the same answers. */
#include <git2.h>
#include <glib/gstdio.h>

#include "fuzz.h"
#include "fixscan/vulns.h"

static char *dir, *cache;
static git_repository *repo;

static char *scratch;
static unsigned long runs;

/* A fresh repository every 500 inputs: each commits new objects, which
 * would fill the scratch file system in a long run. */
static void fresh_repo(void)
{
	char *argv[] = { "rm", "-rf", dir, NULL };

	if (repo) {
		git_repository_free(repo);
		repo = NULL;
		g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
		g_free(dir);
		g_free(cache);
	}
	dir = g_strdup_printf("%s/r%lu", scratch, runs);
	if (git_repository_init(&repo, dir, 0) < 0)
		abort();
	cache = g_build_filename(dir, "vulns.cache", NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	git_libgit2_init();
	scratch = fuzz_scratch("vulns");
	return 0;
}

/* Whether two parts name a file and a folder of the same path
 * ("published/2024" and "published/2024/CVE-..."): libgit2 1.5 leaks an
 * index entry when it refuses to write such a tree, which is no bug of
 * fixscan's, so such an input is not tried. */
static bool file_and_folder(char **parts)
{
	size_t i, j, n;

	for (i = 0; parts[i]; i++) {
		n = strcspn(parts[i], "\n");
		for (j = 0; parts[j]; j++)
			if (j != i && !strncmp(parts[i], parts[j], n) && parts[j][n] == '/')
				return true;
	}
	return false;
}

/* Commit the parts of TEXT as HEAD's tree; false when none makes a file. */
static bool commit_parts(char **parts)
{
	git_index *idx = NULL;
	git_oid tree_id, commit_id;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_reference *ref = NULL;
	bool ok = false;
	size_t i, files = 0;

	/* The repository's own index: an index without one cannot take
	 * blobs from a buffer. */
	if (file_and_folder(parts))
		return false;
	if (git_repository_index(&idx, repo) < 0 || git_index_clear(idx) < 0) {
		git_index_free(idx);
		return false;
	}
	for (i = 0; parts[i]; i++) {
		char *nl = strchr(parts[i], '\n');
		char *name = g_strndup(parts[i], nl ? (size_t)(nl - parts[i]) : strlen(parts[i]));
		char *path = g_strconcat("cve/", name, NULL);
		const char *body = nl ? nl + 1 : "";
		git_index_entry e;

		memset(&e, 0, sizeof(e));
		e.path = path;
		e.mode = GIT_FILEMODE_BLOB;
		files += git_index_add_from_buffer(idx, &e, body, strlen(body)) == 0;
		g_free(path);
		g_free(name);
	}
	if (files && git_index_write_tree_to(&tree_id, idx, repo) == 0 &&
	    git_tree_lookup(&tree, repo, &tree_id) == 0 &&
	    git_signature_new(&sig, "fuzz", "fuzz@example.org", 0, 0) == 0)
		ok = git_commit_create_v(&commit_id, repo, NULL, sig, sig, NULL, "fuzz", tree, 0) == 0 &&
		     git_reference_create(&ref, repo, "refs/heads/master", &commit_id, 1, NULL) == 0;
	git_reference_free(ref);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	char **parts = g_strsplit(text, "\n%%%\n", 64);
	struct fs_vulns_opts opts = FS_VULNS_OPTS_INIT;
	struct fs_vulns *a = NULL, *b = NULL;
	struct fs_vulns_stats sa, sb;
	struct fs_error err = FS_ERROR_INIT;
	static const char *probe = "0123456789abcdef0123456789abcdef01234567";
	const char *ca[8], *cb[8];
	size_t na, nb, i, k;

	if (runs++ % 500 == 0)
		fresh_repo();
	opts.path = dir;
	opts.cache_path = cache;
	g_unlink(cache);
	if (commit_parts(parts) && fs_vulns_open(&a, &opts, &sa, &err) == 0) {
		if (fs_vulns_open(&b, &opts, &sb, &err) < 0 || sa.cves != sb.cves)
			abort(); /* the cache says what the tree said */
		/* Probe the ids the files hold: the first 40 bytes of each. */
		for (k = 0; parts[k]; k++) {
			const char *nl = strchr(parts[k], '\n');
			char hex[41];
			struct fs_vulns_fix fa[8], fb[8];

			snprintf(hex, sizeof(hex), "%s", nl && strlen(nl + 1) >= 40 ? nl + 1 : probe);
			na = fs_vulns_cves(a, hex, ca, 8);
			nb = fs_vulns_cves(b, hex, cb, 8);
			if (na != nb)
				abort();
			for (i = 0; i < na && i < 8; i++)
				if (strcmp(ca[i], cb[i]))
					abort();
			if (fs_vulns_fixes_of(a, hex, fa, 8) != fs_vulns_fixes_of(b, hex, fb, 8))
				abort();
		}
	}
	fs_vulns_free(a);
	fs_vulns_free(b);
	g_strfreev(parts);
	g_free(text);
	return 0;
}
