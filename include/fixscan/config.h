/* fixscan: configuration, read from git config through libgit2.
 *
 * Keys live in the fixscan.* section of the user's git config (global,
 * XDG and system files) and of the kernel repository's own config, which
 * wins.  Command-line flags override both; that is the callers' business.
 *
 * Ownership: the strings and arrays handed out are GLib's: a string is
 * freed with g_free(), an array with fs_config_strv_free() (g_strfreev()).
 */
#ifndef FIXSCAN_CONFIG_H
#define FIXSCAN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

struct fs_config;

/* Open the user's global configuration, and when REPO_PATH is not NULL
 * the configuration of that repository on top of it.  Returns 0 or FS_EGIT.
 * A missing config file is not an error.  Free with fs_config_free(). */
int fs_config_open(struct fs_config **out, const char *repo_path,
		   struct fs_error *err);
void fs_config_free(struct fs_config *cfg);

/* The value of KEY as a new string (caller frees with g_free()) in *OUT.
 * Returns 0, or FS_ENOTFOUND when unset (*OUT is then NULL). */
int fs_config_get_string(struct fs_config *cfg, const char *key, char **out);

/* The value of KEY as a path, with a leading ~/ or ~user/ expanded as
 * git does for path-type keys; otherwise as fs_config_get_string(). */
int fs_config_get_path(struct fs_config *cfg, const char *key, char **out);

/* Every value of a multi-valued KEY, as a NULL-terminated array of new
 * strings, in file order; free it with fs_config_strv_free().  Returns the
 * number of values (0 when unset) or FS_EGIT. */
int fs_config_get_all(struct fs_config *cfg, const char *key, char ***out,
		      struct fs_error *err);
void fs_config_strv_free(char **v);

/* Every key of the form PATTERN, where "%s" in PATTERN stands for a
 * subsection ("fixscan.%s.branch" matches fixscan.4.4.branch): in *NAMES
 * what stood for %s ("4.4"), in *VALUES the key's value (the one that
 * wins when several files set it), both NULL-terminated arrays of new
 * strings (fs_config_strv_free()) in file order.  Returns their number
 * (0 when none) or FS_EGIT / FS_ENOMEM. */
int fs_config_get_matching(struct fs_config *cfg, const char *pattern, char ***names,
			   char ***values, struct fs_error *err);

/* KEY as a boolean in *OUT; FS_ENOTFOUND when unset, FS_EPARSE with ERR
 * set when it is not a boolean. */
int fs_config_get_bool(struct fs_config *cfg, const char *key, bool *out,
		       struct fs_error *err);

/* The refs the fixes index reads, as fs_index_opts wants them: *MAINLINE
 * the value of fixscan.mainline (a new string, g_free()), NULL when unset;
 * *STABLE_GLOBS every value of fixscan.stable (a NULL-terminated array,
 * fs_config_strv_free()) and *N their number, NULL and 0 when unset.  CFG
 * may be NULL (nothing set).  Returns 0, or FS_EGIT / FS_ENOMEM with ERR
 * set and nothing to free. */
int fs_config_index_refs(struct fs_config *cfg, char **mainline, char ***stable_globs,
			 size_t *n, struct fs_error *err);

/* The pending refs the fixes index reads (fs_index_opts.pending_globs):
 * every value of fixscan.pending, a multi-valued key of ref globs
 * ("refs/remotes/next/master", or globs of several), in *GLOBS (NULL-terminated,
 * fs_config_strv_free()) and their number in *N; NULL and 0 when unset.
 * CFG may be NULL.  A value that does not start with "refs/" is an
 * error.  Returns 0, or FS_EPARSE / FS_EGIT / FS_ENOMEM with ERR set and
 * nothing to free. */
int fs_config_pending_refs(struct fs_config *cfg, char ***globs, size_t *n,
			   struct fs_error *err);

#endif
