#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

#include <git2.h>

#include "git-util.h"

static pthread_once_t git_once = PTHREAD_ONCE_INIT;

static void git_init_once(void)
{
	git_libgit2_init();
	/* The kernel repository is only ever read: skip the costly checks
	 * libgit2 makes on every object it writes or inflates. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/* Every object is read once: libgit2's object cache would only
	 * hold up to 256 MB of commits nobody asks for again, and its
	 * lookups and evictions cost a third of an index build. */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
}

void fs_git_init(void)
{
	pthread_once(&git_once, git_init_once);
}

int fs_error_set_git(struct fs_error *err, int code, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	char head[FS_ERROR_MESSAGE_MAX];
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message)
		return fs_error_set(err, code, "%s: %s", head, e->message);
	return fs_error_set(err, code, "%s", head);
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

void fs_git_drop_pack_pages(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096 + 128];

	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long start, end;
		char perms[8];
		int path_at = 0;
		const char *path;
		size_t len;

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &path_at) < 3 ||
		    !path_at)
			continue;
		path = line + path_at;
		len = strcspn(path, "\n");
		/* Only read-only mappings of pack files: their pages come
		 * back unchanged from the file on the next read. */
		if (perms[0] != 'r' || perms[1] != '-' || !strstr(path, "/objects/pack/") ||
		    !(ends_with(path, len, ".pack") || ends_with(path, len, ".idx")))
			continue;
		madvise((void *)start, end - start, MADV_DONTNEED);
	}
	fclose(maps);
}
