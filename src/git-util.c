#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
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
