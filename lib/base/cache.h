/* fixscan: where caches go, of a repository or not (private to the
 * library). */
#ifndef FIXSCAN_CACHE_H
#define FIXSCAN_CACHE_H

#include "fixscan/error.h"

/* The default cache file, in *OUT, of the repository at REPO_PATH:
 * "<dir>/<PREFIX><name>-<hash><SUFFIX>" in $XDG_CACHE_HOME/fixscan (when
 * XDG_CACHE_HOME is absolute: the XDG rules ignore a relative one), else
 * $HOME/.cache/fixscan.  <name> is the repository's absolute path with
 * its slashes as '_' (the leading one dropped, at most 80 bytes), for
 * people; <hash> (16 hex digits, fs_fnv1a_str() of that path) tells apart
 * two paths that give one name.  "R" and "R/.git" (what repository
 * discovery gives) are one repository and share one file.  The directory
 * is not made.
 *
 * Returns 0 with a new string in *OUT (g_free()), else *OUT NULL and
 * FS_ENOTFOUND (REPO_PATH cannot be resolved: "cannot open WHAT 'path':
 * ..."; neither variable set) or FS_ENOMEM, with ERR set. */
int fs_cache_path(char **out, const char *repo_path, const char *prefix, const char *suffix,
		  const char *what, struct fs_error *err);

/* The cache directory of fixscan, or its subdirectory SUB (NULL: none),
 * in *OUT: $XDG_CACHE_HOME/fixscan[/SUB] when XDG_CACHE_HOME is absolute,
 * else $HOME/.cache/fixscan[/SUB]; the directory fs_cache_path() puts
 * its files in, for caches of no repository (lore's answers).  It is not
 * made.  Returns 0 with a new string in *OUT (g_free()), else *OUT NULL
 * and FS_ENOTFOUND ("no cache directory: set XDG_CACHE_HOME or HOME")
 * with ERR set. */
int fs_cache_dir(char **out, const char *sub, struct fs_error *err);

/* Whether there is no folder for caches: neither an absolute
 * XDG_CACHE_HOME nor HOME (the index and the CVE data then run without
 * their caches, and say so once). */
int fs_cache_no_home(void);

#endif
