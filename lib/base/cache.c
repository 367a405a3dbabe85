/* fixscan: where caches of a repository go (see cache.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cache.h"
#include "hash.h"

int fs_cache_path(char **out, const char *repo_path, const char *prefix, const char *suffix,
		  const char *what, struct fs_error *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *abs = realpath(repo_path, NULL), *name = NULL, *p;
	const char *dir, *sub;
	size_t n;

	*out = NULL;
	if (!abs)
		return fs_error_set(err, FS_ENOTFOUND, "cannot open %s '%s': %s", what, repo_path,
				    strerror(errno));
	n = strlen(abs);
	if (n > 5 && !strcmp(abs + n - 5, "/.git"))
		abs[n - 5] = '\0';
	if (xdg && *xdg == '/') {
		dir = xdg;
		sub = "fixscan";
	} else if (home && *home) {
		dir = home;
		sub = ".cache/fixscan";
	} else {
		free(abs);
		return fs_error_set(err, FS_ENOTFOUND, "no cache directory: set XDG_CACHE_HOME or HOME");
	}
	/* "/" ends DIR once: "/cache/" and "/cache" give one path */
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1)
		n = 0;
	name = strdup(abs);
	for (p = name; p && *p; p++)
		if (*p == '/')
			*p = '_';
	*out = name ? g_strdup_printf("%.*s/%s/%s%.80s-%016llx%s", (int)n, dir, sub, prefix,
				      name + (name[0] == '_'),
				      (unsigned long long)fs_fnv1a_str(abs), suffix)
		    : NULL;
	free(name);
	free(abs);
	if (!*out) {
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	return 0;
}

int fs_cache_no_home(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	return !(xdg && *xdg == '/') && !(home && *home);
}
