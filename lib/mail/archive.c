/* fixscan: searching public-inbox archives over HTTP (see archive.h).
 *
 * One libcurl easy handle per client, reused, so that the searches of a
 * run share one connection.  An answer is inflated as it arrives into
 * the replacement of its cache file (fixscan/atomic.h: a temporary beside
 * it), checked (gzip whole, mbox, not over the bound) and only then
 * renamed to its cache name: a cache file is always a whole answer, and
 * an empty one is a search that found nothing (404), which is worth
 * keeping as much as the others.  The cache directory is fixscan's
 * (base/cache.h), "lore" in it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>
#include <glib.h>
#include <zlib.h>

#include "base/cache.h"
#include "base/hash.h"
#include "fixscan/archive.h"
#include "fixscan/atomic.h"

#ifndef FIXSCAN_VERSION
#define FIXSCAN_VERSION "0"
#endif

/* How much of a refusal (a status other than 200 and 404) is kept to be
 * named: its first words say enough. */
#define REFUSAL_MAX 64
/* Stale temporary files of a client that died are removed after this. */
#define TMP_STALE_SECONDS 3600

struct fs_archive {
	char *cache_dir;
	int64_t ttl;
	long timeout_ms;
	size_t max_size;
	time_t now;
	CURL *curl;
	size_t requests;
	GHashTable *down; /* base -> why it could not be reached (g_free) */
	char *failure;    /* the first search's error message, or NULL */
	size_t nfailed;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc = CURLE_FAILED_INIT;

static void curl_init(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* An answer's file name: 16 hex digits (answer_path()) and ".mbox". */
#define ANSWER_NAME_LEN (16 + 5)

/* Whether the first ANSWER_NAME_LEN bytes of NAME are an answer's name. */
static bool answer_name_prefix(const char *name)
{
	size_t i;

	for (i = 0; i < 16; i++)
		if (!g_ascii_isxdigit(name[i]))
			return false;
	return !strncmp(name + 16, ".mbox", 5);
}

/* Whether NAME is one of ours: an answer's name, exactly. */
static bool is_answer_name(const char *name)
{
	return answer_name_prefix(name) && name[ANSWER_NAME_LEN] == '\0';
}

/* Whether NAME is the temporary of an answer being written
 * (fs_atomic_begin()): left behind only by a client that died. */
static bool is_answer_temp(const char *name)
{
	char answer[ANSWER_NAME_LEN + 1];

	if (!answer_name_prefix(name))
		return false;
	memcpy(answer, name, ANSWER_NAME_LEN);
	answer[ANSWER_NAME_LEN] = '\0';
	return fs_atomic_is_temp_of(name, answer);
}

/* Remove the answers of DIR older than the TTL, and temporary files
 * left by a client that died: the cache holds what may still be used. */
static void prune(const struct fs_archive *c)
{
	DIR *d = opendir(c->cache_dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;
		bool answer = is_answer_name(e->d_name);
		int64_t age;

		if (!answer && !is_answer_temp(e->d_name))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		age = (int64_t)c->now - (int64_t)st.st_mtime;
		if ((answer && age >= c->ttl) || (!answer && age >= TMP_STALE_SECONDS))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int fs_archive_open(struct fs_archive **out, const struct fs_archive_opts *o,
		       struct fs_error *err)
{
	struct fs_archive_opts def = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c;

	*out = NULL;
	if (!o)
		o = &def;
	c = g_new0(struct fs_archive, 1);
	if (o->cache_dir) {
		c->cache_dir = g_strdup(o->cache_dir);
	} else {
		char *dir = NULL;
		int rc = fs_cache_dir(&dir, "lore", err);

		if (rc < 0) {
			fs_archive_free(c);
			return rc;
		}
		c->cache_dir = dir;
	}
	c->ttl = o->ttl < 0 ? FS_ARCHIVE_DEFAULT_TTL : o->ttl;
	c->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : FS_ARCHIVE_DEFAULT_TIMEOUT_MS;
	c->max_size = o->max_size ? o->max_size : FS_ARCHIVE_DEFAULT_MAX_SIZE;
	c->now = o->now ? o->now : time(NULL);
	c->down = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (g_mkdir_with_parents(c->cache_dir, 0700) < 0) {
		int e = errno;
		fs_error_set(err, FS_EIO, "cannot make the cache directory '%s': %s", c->cache_dir,
			     strerror(e));
		fs_archive_free(c);
		return FS_EIO;
	}
	prune(c);
	*out = c;
	return 0;
}

void fs_archive_free(struct fs_archive *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	if (c->down)
		g_hash_table_destroy(c->down);
	g_free(c->failure);
	g_free(c->cache_dir);
	g_free(c);
}

size_t fs_archive_requests(const struct fs_archive *c)
{
	return c->requests;
}

const char *fs_archive_failure(const struct fs_archive *c, size_t *nfailed)
{
	if (nfailed)
		*nfailed = c->nfailed;
	return c->failure;
}

bool fs_archive_base_valid(const char *base)
{
	const char *host, *p;
	size_t n;

	if (!base)
		return false;
	if (!strncmp(base, "https://", 8))
		host = base + 8;
	else if (!strncmp(base, "http://", 7))
		host = base + 7;
	else
		return false;
	n = strlen(base);
	if (*host == '/' || *host == '\0' || base[n - 1] != '/')
		return false;
	for (p = base; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '?' || *p == '#')
			return false;
	return true;
}

/* ---- queries ------------------------------------------------------------ */

static bool kept_as_is(unsigned char ch)
{
	return g_ascii_isalnum(ch) || strchr("-._~:*()", ch);
}

/* The length of S percent-encoded by fs_archive_encode(). */
static size_t encoded_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += kept_as_is((unsigned char)*s) || *s == ' ' ? 1 : 3;
	return n;
}

char *fs_archive_encode(const char *query)
{
	GString *out = g_string_sized_new(encoded_len(query) + 1);
	const unsigned char *p;

	for (p = (const unsigned char *)query; *p; p++) {
		if (kept_as_is(*p))
			g_string_append_c(out, (char)*p);
		else if (*p == ' ')
			g_string_append_c(out, '+');
		else
			g_string_append_printf(out, "%%%02X", *p);
	}
	return g_string_free(out, FALSE);
}

char **fs_archive_queries(const char *const *terms, size_t n, const char *tail, size_t *nq)
{
	GPtrArray *v = g_ptr_array_new();
	GString *q = NULL;
	size_t i, len = 0, tail_len, or_len = encoded_len(" OR ");
	bool has_tail = tail && *tail;

	/* "(" + ")" and " TAIL", as encoded. */
	tail_len = 2 + (has_tail ? 1 + encoded_len(tail) : 0);
	for (i = 0; i < n; i++) {
		size_t tl = encoded_len(terms[i]);

		if (q && len + or_len + tl + tail_len > FS_ARCHIVE_QUERY_MAX) {
			g_string_append_printf(q, ")%s%s", has_tail ? " " : "", has_tail ? tail : "");
			g_ptr_array_add(v, g_string_free(q, FALSE));
			q = NULL;
		}
		if (!q) {
			q = g_string_new("(");
			g_string_append(q, terms[i]);
			len = tl;
		} else {
			g_string_append_printf(q, " OR %s", terms[i]);
			len += or_len + tl;
		}
	}
	if (q) {
		g_string_append_printf(q, ")%s%s", has_tail ? " " : "", has_tail ? tail : "");
		g_ptr_array_add(v, g_string_free(q, FALSE));
	}
	if (nq)
		*nq = v->len;
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

/* ---- one request -------------------------------------------------------- */

/* What the callbacks of one transfer share. */
struct fetch {
	CURL *curl;
	struct fs_atomic *file; /* the cache file's replacement, the answer's */
	size_t max;
	long status;        /* the HTTP status, once the body begins */
	z_stream z;
	bool z_ready;
	bool z_ended;       /* the last gzip member ended */
	size_t in, out;     /* bytes received, bytes inflated */
	char head[5];       /* the answer's first bytes: "From " */
	char refusal[REFUSAL_MAX + 1]; /* the start of a refusal's text */
	size_t nrefusal;
	const char *why;    /* why the transfer was stopped, or NULL */
	struct fs_error werr; /* with why "write": the writer's error */
};

/* Take N inflated bytes at P: bounded, checked to begin as an mbox, and
 * written to the cache file's replacement. */
static bool emit(struct fetch *f, const unsigned char *p, size_t n)
{
	size_t k;

	if (n > f->max - f->out) {
		f->why = "size";
		return false;
	}
	for (k = 0; k < n && f->out + k < sizeof(f->head); k++)
		f->head[f->out + k] = (char)p[k];
	f->out += n;
	if (f->out >= sizeof(f->head) && memcmp(f->head, "From ", sizeof(f->head))) {
		f->why = "mbox";
		return false;
	}
	if (fs_atomic_write(f->file, p, n, &f->werr) < 0) {
		f->why = "write";
		return false;
	}
	return true;
}

/* Inflate the N gzip'd bytes at P, every member of the stream. */
static bool inflate_some(struct fetch *f, const unsigned char *p, size_t n)
{
	unsigned char buf[65536];

	if (!f->z_ready) {
		memset(&f->z, 0, sizeof(f->z));
		if (inflateInit2(&f->z, 16 + MAX_WBITS) != Z_OK) {
			f->why = "memory";
			return false;
		}
		f->z_ready = true;
	}
	f->z.next_in = (Bytef *)p;
	f->z.avail_in = (uInt)n;
	while (f->z.avail_in > 0) {
		int rc;
		size_t have;

		if (f->z_ended) { /* another member follows */
			inflateReset(&f->z);
			f->z_ended = false;
		}
		f->z.next_out = buf;
		f->z.avail_out = sizeof(buf);
		rc = inflate(&f->z, Z_NO_FLUSH);
		have = sizeof(buf) - f->z.avail_out;
		if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && have)) {
			f->why = "gzip";
			return false;
		}
		if (have && !emit(f, buf, have))
			return false;
		if (rc == Z_STREAM_END)
			f->z_ended = true;
	}
	return true;
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct fetch *f = data;
	size_t n = size * nmemb;

	if (!f->status)
		curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &f->status);
	if (f->status != 200) {
		/* 404 "No results found", or a refusal: keep its first words,
		 * read no more than a page of it. */
		size_t k = n < REFUSAL_MAX - f->nrefusal ? n : REFUSAL_MAX - f->nrefusal;
		memcpy(f->refusal + f->nrefusal, ptr, k);
		f->nrefusal += k;
		f->in += n;
		return f->in > 65536 ? 0 : n;
	}
	if (n > f->max - f->in) {
		f->why = "size";
		return 0;
	}
	f->in += n;
	if (f->in == n && n >= 2 && ((unsigned char)ptr[0] != 0x1f || (unsigned char)ptr[1] != 0x8b)) {
		f->why = "gzip";
		return 0;
	}
	return inflate_some(f, (const unsigned char *)ptr, n) ? n : 0;
}

static int setup_curl(struct fs_archive *c, const char *url, struct fetch *f,
		      char *errbuf, struct fs_error *err)
{
	CURL *h;

	/* libcurl (and TLS under it) starts only for a request: a run the
	 * cache answers pays nothing for it. */
	pthread_once(&curl_once, curl_init);
	if (curl_init_rc != CURLE_OK)
		return fs_error_set(err, FS_ENOMEM, "cannot start libcurl: %s",
				    curl_easy_strerror(curl_init_rc));
	if (!c->curl && !(c->curl = curl_easy_init()))
		return fs_error_set(err, FS_ENOMEM, "cannot start libcurl");
	h = c->curl;
	curl_easy_reset(h);
	f->curl = h;
	errbuf[0] = '\0';
	if (curl_easy_setopt(h, CURLOPT_URL, url) != CURLE_OK)
		return fs_error_set(err, FS_EUSAGE, "cannot search '%s': not a URL libcurl takes",
				    url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/* A search is a POST; a GET of the same URL gives a web page. */
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(h, CURLOPT_POSTREDIR, (long)CURL_REDIR_POST_ALL);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->timeout_ms);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "fixscan/" FIXSCAN_VERSION);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, f);
	if (c->max_size < (size_t)INT64_MAX)
		curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)c->max_size);
	return 0;
}

/* Printable text of the N bytes at S, for a message: control characters
 * and bytes past ASCII as '?'. */
static void printable(char *s, size_t n)
{
	size_t i;

	s[n] = '\0';
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] >= 0x7f)
			s[i] = s[i] == '\n' ? ' ' : '?';
	g_strchomp(s);
}

/* Whether the libcurl result RC says the server cannot be reached at all
 * (rather than that it answered badly). */
static bool unreachable(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_TOO_MANY_REDIRECTS:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return true;
	default:
		return false;
	}
}

/* The error of a transfer that ended with RC, from F's state, set in ERR;
 * a base that cannot be reached is remembered as down. */
static int transfer_error(struct fs_archive *c, const char *base, struct fetch *f,
			  CURLcode rc, const char *errbuf, struct fs_error *err)
{
	int code = FS_EPARSE;

	if (f->why && !strcmp(f->why, "size"))
		fs_error_set(err, code, "'%s' answered more than %zu MiB; not read", base,
			     c->max_size >> 20);
	else if (rc == CURLE_FILESIZE_EXCEEDED)
		fs_error_set(err, code, "'%s' answered more than %zu MiB; not read", base,
			     c->max_size >> 20);
	else if (f->why && !strcmp(f->why, "gzip"))
		fs_error_set(err, code, "'%s' answered with broken gzip data", base);
	else if (f->why && !strcmp(f->why, "mbox"))
		fs_error_set(err, code, "'%s' answered with something that is no mbox", base);
	else if (f->why && !strcmp(f->why, "write"))
		code = fs_error_set(err, FS_EIO, "%s", f->werr.message);
	else if (f->why)
		code = fs_error_set(err, FS_ENOMEM, "out of memory");
	else if (rc != CURLE_OK) {
		code = unreachable(rc) ? FS_EIO : FS_EPARSE;
		fs_error_set(err, code, "cannot search '%s': %s", base,
			     *errbuf ? errbuf : curl_easy_strerror(rc));
	} else if (f->status == 200) {
		fs_error_set(err, code, "'%s' answered with a truncated gzip stream", base);
	} else {
		printable(f->refusal, f->nrefusal);
		fs_error_set(err, code, "'%s' answered HTTP %ld%s%s", base, f->status,
			     *f->refusal ? ": " : "", f->refusal);
		/* A server that fails (5xx) or refuses (429) will do it again:
		 * the rest of the run asks it nothing more. */
		if (f->status >= 500 || f->status == 429)
			code = FS_EIO;
	}
	if (code == FS_EIO && !(f->why && !strcmp(f->why, "write")))
		g_hash_table_replace(c->down, g_strdup(base), g_strdup(err ? err->message : ""));
	return code;
}

/* Ask BASE for QUERY into FILE, a cache file's replacement.  Returns 0
 * with *HITS (an answer of mails, else 404: none), or a negative code
 * with ERR set. */
static int fetch(struct fs_archive *c, const char *base, const char *query,
		 struct fs_atomic *file, bool *hits, struct fs_error *err)
{
	char *enc = fs_archive_encode(query), *url = g_strconcat(base, "?q=", enc, "&x=m", NULL);
	char errbuf[CURL_ERROR_SIZE];
	struct fetch f;
	CURLcode rc;
	int ret;

	memset(&f, 0, sizeof(f));
	f.file = file;
	f.max = c->max_size;
	ret = setup_curl(c, url, &f, errbuf, err);
	g_free(url);
	g_free(enc);
	if (ret < 0)
		return ret;
	c->requests++;
	rc = curl_easy_perform(c->curl);
	if (rc == CURLE_OK && !f.status)
		curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &f.status);
	if (f.z_ready)
		inflateEnd(&f.z);
	if (rc == CURLE_OK && f.status == 404) {
		*hits = false;
		return 0;
	}
	if (rc == CURLE_OK && f.status == 200 && f.z_ended && f.out >= sizeof(f.head)) {
		*hits = true;
		return 0;
	}
	return transfer_error(c, base, &f, rc, errbuf, err);
}

/* ---- the cache ---------------------------------------------------------- */

/* The cache file of QUERY on BASE: the hash of both (base/hash.h)
 * names it.  Queries are fixscan's own, a few per series: two that
 * collide in 64 bits are not to be met. */
static char *answer_path(const struct fs_archive *c, const char *base, const char *query)
{
	uint64_t h = fs_fnv1a(FS_FNV1A_BASIS, base, strlen(base) + 1);

	h = fs_fnv1a(h, query, strlen(query));
	return g_strdup_printf("%s/%016llx.mbox", c->cache_dir, (unsigned long long)h);
}

/* Whether PATH holds an answer young enough to use; *EMPTY says it found
 * nothing.  A file from the future (a clock set back) is not used. */
static bool fresh(const struct fs_archive *c, const char *path, bool *empty)
{
	struct stat st;
	int64_t age;

	if (c->ttl <= 0 || lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	age = (int64_t)c->now - (int64_t)st.st_mtime;
	if (age < 0 || age >= c->ttl)
		return false;
	*empty = st.st_size == 0;
	return true;
}

static int search_one(struct fs_archive *c, const char *base, const char *query, char **mbox,
		      bool *cached, struct fs_error *err)
{
	struct fs_atomic *file = NULL;
	char *path;
	const char *why;
	bool empty = false, hits = false;
	int rc;

	*mbox = NULL;
	if (cached)
		*cached = false;
	if (!fs_archive_base_valid(base))
		return fs_error_set(err, FS_EUSAGE,
				    "'%s' is no public-inbox base URL (http:// or https://, ending in '/')",
				    base);
	if ((why = g_hash_table_lookup(c->down, base)))
		return fs_error_set(err, FS_EIO, "%s", why);
	path = answer_path(c, base, query);
	if (fresh(c, path, &empty)) {
		if (cached)
			*cached = true;
		if (!empty)
			*mbox = path;
		else
			g_free(path);
		return 0;
	}
	rc = fs_atomic_begin(&file, path, "the lore cache file", 0, err);
	if (rc == 0)
		rc = fetch(c, base, query, file, &hits, err);
	if (rc == 0) {
		rc = fs_atomic_commit(file, err);
		file = NULL;
	}
	fs_atomic_abort(file);
	if (rc == 0 && hits) {
		*mbox = path;
		path = NULL;
	}
	g_free(path);
	return rc;
}

int fs_archive_search(struct fs_archive *c, const char *base, const char *query, char **mbox,
		   bool *cached, struct fs_error *err)
{
	struct fs_error mine = FS_ERROR_INIT;
	int rc;

	if (!err)
		err = &mine;
	rc = search_one(c, base, query, mbox, cached, err);
	if (rc < 0) {
		c->nfailed++;
		if (!c->failure)
			c->failure = g_strdup(err->message);
	}
	return rc;
}
