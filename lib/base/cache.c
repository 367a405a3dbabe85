/* fixscan: where caches go (see cache.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cache.h"
#include "hash.h"

int fs_cache_dir(char **out, const char *sub, struct fs_error *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *dir, *top;
	size_t n;

	*out = NULL;
	if (fs_cache_no_home())
		return fs_error_set(err, FS_ENOTFOUND, "no cache directory: set XDG_CACHE_HOME or HOME");
	/* the XDG rules ignore a relative XDG_CACHE_HOME */
	if (xdg && *xdg == '/') {
		dir = xdg;
		top = "fixscan";
	} else {
		dir = home;
		top = ".cache/fixscan";
	}
	/* "/" ends DIR once: "/cache/" and "/cache" give one path */
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1)
		n = 0;
	*out = g_strdup_printf("%.*s/%s%s%s", (int)n, dir, top, sub ? "/" : "", sub ? sub : "");
	return 0;
}

int fs_cache_path(char **out, const char *repo_path, const char *prefix, const char *suffix,
		  const char *what, struct fs_error *err)
{
	char *abs = realpath(repo_path, NULL), *name = NULL, *dir = NULL, *p;
	size_t n;
	int rc;

	*out = NULL;
	if (!abs)
		return fs_error_set(err, FS_ENOTFOUND, "cannot open %s '%s': %s", what, repo_path,
				    strerror(errno));
	n = strlen(abs);
	if (n > 5 && !strcmp(abs + n - 5, "/.git"))
		abs[n - 5] = '\0';
	rc = fs_cache_dir(&dir, NULL, err);
	if (rc < 0) {
		free(abs);
		return rc;
	}
	name = g_strdup(abs);
	for (p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	*out = g_strdup_printf("%s/%s%.80s-%016llx%s", dir, prefix, name + (name[0] == '_'),
			       (unsigned long long)fs_fnv1a_str(abs), suffix);
	g_free(name);
	g_free(dir);
	free(abs);
	return 0;
}

int fs_cache_no_home(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	return !(xdg && *xdg == '/') && !(home && *home);
}
