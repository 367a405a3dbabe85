/* fixscan: CVE ids from a clone of the kernel CNA's vulns repository.
 *
 * The repository publishes one set of files per CVE under
 * cve/published/<year>/: CVE-<year>-<n>.sha1 holds the full id of the
 * mainline commit that fixes it, CVE-<year>-<n>.vulnerable (when present)
 * the ids of the commits that introduced the bug.  Only those two are
 * read, from the tree of the clone's HEAD (a work tree or a bare clone:
 * nothing is checked out).  A line of either file counts when it is 40 hex
 * digits (any case; surrounding white space and a CR are ignored); other
 * lines are skipped.  A CVE that also has a file under cve/rejected/ is
 * left out, as is everything under cve/rejected/ itself.
 *
 * What was read is kept in a cache file of its own (by default
 * $XDG_CACHE_HOME/fixscan/vulns-<path>-<hash>.cache, one per clone),
 * holding the HEAD it was read from, checksummed, written to a temporary
 * file and renamed into place.  Opening compares the clone's HEAD with
 * the cache's and reads the tree again only when HEAD moved (or the cache
 * fails its checks); otherwise it reads the one cache file.  Lookups are
 * binary searches in memory.
 */
#ifndef FIXSCAN_VULNS_H
#define FIXSCAN_VULNS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

struct fs_vulns;

struct fs_vulns_opts {
	const char *path;       /* the vulns clone; required */
	const char *cache_path; /* NULL: the default under $XDG_CACHE_HOME */
};
#define FS_VULNS_OPTS_INIT { .path = NULL }

struct fs_vulns_stats {
	size_t cves;        /* CVEs read (with a .sha1 or .vulnerable id) */
	bool rebuilt;       /* the tree was read (no cache, or HEAD moved) */
	char head[41];      /* the clone's HEAD */
	char note[512];     /* e.g. why the cache could not be written; "" */
};

/* Open the CVE data of OPTS->path as described above.  Returns 0, or
 * FS_ENOTFOUND (no such repository, no HEAD), FS_EGIT, FS_EIO, FS_ENOMEM
 * with ERR set naming the path.  STATS may be NULL.  Free with
 * fs_vulns_free(). */
int fs_vulns_open(struct fs_vulns **out, const struct fs_vulns_opts *opts,
		  struct fs_vulns_stats *stats, struct fs_error *err);
void fs_vulns_free(struct fs_vulns *v);

/* The cache file in use (borrowed). */
const char *fs_vulns_cache_path(const struct fs_vulns *v);

/* The CVEs whose fix (.sha1) is the commit HEX (40 hex digits, any
 * case): up to MAX of them in OUT (borrowed strings, valid until
 * fs_vulns_free()), in CVE order (year, then number).  Returns how many
 * there are; 0 for an id that is not 40 hex digits.  V may be NULL. */
size_t fs_vulns_cves(const struct fs_vulns *v, const char *hex, const char **out,
		     size_t max);

/* One CVE that names a commit as vulnerable, and a commit that fixes it. */
struct fs_vulns_fix {
	const char *cve; /* borrowed */
	char fix[41];    /* full id, lower case */
};

/* Every (CVE, fix) pair of the CVEs whose .vulnerable names the commit
 * HEX (40 hex digits, any case): up to MAX in OUT, in CVE order.
 * Returns how many there are.  V may be NULL. */
size_t fs_vulns_fixes_of(const struct fs_vulns *v, const char *hex,
			 struct fs_vulns_fix *out, size_t max);

#endif
