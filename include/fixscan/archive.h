/* fixscan: searching public-inbox archives (lore.kernel.org, or a
 * mirror of it) over HTTP.
 *
 * A public-inbox base URL (an inbox, "https://lore.kernel.org/linux-usb/",
 * or an extindex over many, "https://lore.kernel.org/all/") answers a
 * POST of "BASE?q=QUERY&x=m" with the matching mails as gzip'd mboxrd,
 * or 404 when nothing matches (QUERY is Xapian's query language with
 * public-inbox's prefixes: nq: unquoted body text, s: subject, ...).
 * This module sends such searches with libcurl, bounded in time and
 * size, and keeps each answer, uncompressed, in a cache file that later
 * runs reuse for a time (the TTL) instead of asking again.  What it
 * hands back is a path to an mbox file, for fs_mail_reader_open(): the
 * mails in it are anyone's and are read as hostile, as any mbox.
 *
 * The module knows nothing of kernels or reviews: the caller says what
 * to search; fs_archive_queries() only packs many terms into few queries of
 * a length every server takes.
 */
#ifndef FIXSCAN_ARCHIVE_H
#define FIXSCAN_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fixscan/error.h"

/* The base searched when none is configured. */
#define FS_ARCHIVE_DEFAULT_BASE "https://lore.kernel.org/all/"
/* How long an answer is reused, in seconds, when nothing else is said. */
#define FS_ARCHIVE_DEFAULT_TTL 3600
/* How long one request may take, in milliseconds (connection included). */
#define FS_ARCHIVE_DEFAULT_TIMEOUT_MS 10000
/* The largest answer taken, uncompressed: a few hundred patches' mails
 * come to a few megabytes; more is a server gone wrong, or a bomb. */
#define FS_ARCHIVE_DEFAULT_MAX_SIZE ((size_t)64 << 20)
/* The longest query fs_archive_queries() packs, as it goes into the URL
 * (percent-encoded): public-inbox-httpd refuses a request whose head
 * passes 16 KiB, and web servers in front of it often 8 KiB per line. */
#define FS_ARCHIVE_QUERY_MAX 6000

struct fs_archive_opts {
	const char *cache_dir; /* NULL: $XDG_CACHE_HOME/fixscan/lore, else
				* ~/.cache/fixscan/lore */
	int64_t ttl;           /* seconds an answer is reused; 0: never
				* reused (each search asks); < 0: the default */
	long timeout_ms;       /* per request; <= 0: the default */
	size_t max_size;       /* 0: the default */
	time_t now;            /* 0: time(NULL) (tests give their own) */
};
#define FS_ARCHIVE_OPTS_INIT { NULL, -1, 0, 0, 0 }

struct fs_archive;

/* A client with options O (may be NULL: the defaults); O's strings are
 * copied.  Answers older than the TTL are removed from the cache here.
 * Returns 0 with *OUT set (fs_archive_free()), or with ERR set
 * FS_ENOTFOUND (no cache directory can be named: neither XDG_CACHE_HOME
 * nor HOME, base/cache.h) or FS_EIO (it cannot be made). */
int fs_archive_open(struct fs_archive **out, const struct fs_archive_opts *o,
		       struct fs_error *err);
void fs_archive_free(struct fs_archive *c);

/* Whether BASE can be searched: an http:// or https:// URL with a host,
 * ending in '/', without spaces, control characters, '?' or '#'. */
bool fs_archive_base_valid(const char *base);

/* Search BASE (fs_archive_base_valid()) for QUERY.  On success *MBOX is a
 * new string (g_free()), the path of an mbox file in the cache holding the
 * mails that match, newest first, or NULL when none does; *CACHED (may
 * be NULL) says whether the answer came from the cache, no request sent.
 * The file stays until a later client finds it older than its TTL; read
 * it at once.  Returns 0, or with ERR set and *MBOX NULL:
 * - FS_EIO: BASE cannot be reached (no such host, refused, timed out):
 *   every later search of BASE by this client fails the same way, at
 *   once, with no request;
 * - FS_EPARSE: a hostile or broken answer (an HTTP status other than 200
 *   and 404, not gzip'd mbox, larger than the bound), not kept;
 * - FS_EUSAGE: BASE is not valid;
 * - FS_EIO / FS_ENOMEM: the cache cannot be written. */
int fs_archive_search(struct fs_archive *c, const char *base, const char *query, char **mbox,
		   bool *cached, struct fs_error *err);

/* How many HTTP requests C has sent so far. */
size_t fs_archive_requests(const struct fs_archive *c);

/* The message of the first search of C that failed (fs_archive_search()
 * returned an error), lent until fs_archive_free(), or NULL when
 * none did; *NFAILED (may be NULL) gets how many did.  What the
 * commands say once, at the end, for a whole run. */
const char *fs_archive_failure(const struct fs_archive *c, size_t *nfailed);

/* Pack the N terms TERMS into as few queries as fit: each query is
 * "(T OR T OR ...)" followed by " TAIL" (TAIL may be NULL or "") and is
 * at most FS_ARCHIVE_QUERY_MAX bytes once percent-encoded (a term too long
 * for that has a query of its own).  Terms keep their order.  Returns a
 * NULL-terminated array of new strings (g_strfreev()), with their number
 * in *NQ (may be NULL); an empty array when N is 0. */
char **fs_archive_queries(const char *const *terms, size_t n, const char *tail, size_t *nq);

/* QUERY as it goes into a URL's query string: unreserved characters and
 * the ":*()" of Xapian's syntax as they are, a space as '+', every other
 * byte as %XX.  A new string (g_free()). */
char *fs_archive_encode(const char *query);

#endif
