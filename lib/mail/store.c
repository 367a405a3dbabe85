/* fixscan: the user's notmuch mail store, through libnotmuch.
 *
 * Everything notmuch hands out (message ids, headers, config values) dies
 * with the notmuch object it came from, so whatever goes to a caller is
 * copied here first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <notmuch.h>

#include "fixscan/posting.h"
#include "fixscan/store.h"
#include "fixscan/subject.h"

struct fs_store {
	notmuch_database_t *db;
	bool writable;
	char *path;          /* the mail root; owned */
	GHashTable *config;  /* key -> value or NULL; both owned */
};

/* How long one wait step for the write lock lasts. */
#define LOCK_STEP_NS 100000000L

/* Copy the first line of a notmuch message, without its "Error: " prefix
 * and final full stop, into BUF: notmuch writes multi-line, capitalised
 * sentences, fixscan's errors are one line. */
static const char *first_line(const char *msg, char *buf, size_t size)
{
	size_t n;

	if (!msg || !*msg)
		return "unknown error";
	if (!strncmp(msg, "Error: ", 7))
		msg += 7;
	n = strcspn(msg, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(buf, msg, n);
	while (n > 0 && (buf[n - 1] == '.' || buf[n - 1] == ' ' ||
			 buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return buf;
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The Xapian directory of the database at DBPATH: notmuch puts it in
 * DBPATH/.notmuch/xapian when the database lives in the mail root, and
 * in DBPATH/xapian when it lives apart (the XDG layout).  New string or
 * NULL. */
static char *xapian_dir(const char *dbpath)
{
	char *dir;

	dir = g_strdup_printf("%s/.notmuch/xapian", dbpath);
	if (is_dir(dir))
		return dir;
	g_free(dir);
	dir = g_strdup_printf("%s/xapian", dbpath);
	if (is_dir(dir))
		return dir;
	g_free(dir);
	return NULL;
}

/* Whether another process holds the Xapian write lock of the database in
 * XAPIAN_DIR.  Xapian takes an fcntl lock (an OFD lock, or a classic one
 * held by a helper child) on the whole of "flintlock"; F_GETLK reports
 * either kind.  Closing our probe descriptor cannot drop a lock of ours:
 * fixscan holds no classic lock on that file. */
static bool write_locked(const char *xdir)
{
	struct flock fl;
	char *file;
	int fd, rc;

	if (!xdir)
		return false;
	file = g_strdup_printf("%s/flintlock", xdir);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	g_free(file);
	if (fd < 0)
		return false;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 0;
	rc = fcntl(fd, F_GETLK, &fl);
	close(fd);
	return rc == 0 && fl.l_type != F_UNLCK;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The file of the write lock of the database at DBPATH (new string). */
static char *lock_file(const char *dbpath)
{
	char *xdir = xapian_dir(dbpath), *file;

	file = g_strdup_printf("%s/flintlock", xdir ? xdir : dbpath);
	g_free(xdir);
	return file;
}

/* Wait up to LOCK_WAIT seconds for the write lock on the database at
 * DBPATH to be free, telling WAITING once when it is not.  Returns true
 * when it is. */
static bool wait_for_lock(const char *dbpath, double lock_wait,
			  const struct fs_store_waiting *waiting)
{
	double deadline = now_seconds() + (lock_wait > 0 ? lock_wait : 0);
	char *xdir = xapian_dir(dbpath);
	bool free_now, told = false;

	for (;;) {
		double left;
		struct timespec ts = { 0, LOCK_STEP_NS };

		free_now = !write_locked(xdir);
		left = deadline - now_seconds();
		if (free_now || left <= 0)
			break;
		if (!told && waiting && waiting->fn) {
			char *lock = lock_file(dbpath);

			waiting->fn(waiting->data, lock, lock_wait);
			g_free(lock);
		}
		told = true;
		if (left < LOCK_STEP_NS / 1e9)
			ts.tv_nsec = (long)(left * 1e9) + 1;
		nanosleep(&ts, NULL);
	}
	g_free(xdir);
	return free_now;
}

/* The config file notmuch reads when NOTMUCH_CONFIG and the arguments
 * leave it to its defaults: the same search order as libnotmuch, so the
 * "no config" message names the file notmuch looked for.  New string. */
static char *default_config_path(void)
{
	const char *env = getenv("NOTMUCH_CONFIG");
	const char *profile = getenv("NOTMUCH_PROFILE");
	const char *home = getenv("HOME");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	char *path;

	if (env && *env)
		return g_strdup(env);
	if (xdg && *xdg)
		path = g_strdup_printf("%s/notmuch/%s/config", xdg,
				       profile ? profile : "default");
	else
		path = g_strdup_printf("%s/.config/notmuch/%s/config",
				       home ? home : "",
				       profile ? profile : "default");
	if (access(path, R_OK) == 0)
		return path;
	g_free(path);
	if (profile && *profile)
		return g_strdup_printf("%s/.notmuch-config.%s",
				       home ? home : "", profile);
	return g_strdup_printf("%s/.notmuch-config", home ? home : "");
}

/* The database path notmuch would use, for error messages when opening
 * failed: NOTMUCH_DATABASE, else the config file's database.path, else
 * the XDG location.  Read with GKeyFile, the parser notmuch itself uses;
 * notmuch_database_load_config would do the same, but in 0.37 it leaks a
 * message when the database is missing, which is exactly this case.  New
 * string or NULL. */
static char *configured_db_path(void)
{
	const char *env = getenv("NOTMUCH_DATABASE");
	const char *profile = getenv("NOTMUCH_PROFILE");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	GKeyFile *kf;
	char *cfg, *path = NULL;

	if (env && *env)
		return g_strdup(env);
	cfg = default_config_path();
	kf = g_key_file_new();
	if (g_key_file_load_from_file(kf, cfg, G_KEY_FILE_NONE, NULL))
		path = g_key_file_get_value(kf, "database", "path", NULL);
	g_key_file_free(kf);
	g_free(cfg);
	if (path && *path)
		return path;
	g_free(path);
	if (xdg && *xdg)
		return g_strdup_printf("%s/notmuch/%s", xdg,
				       profile ? profile : "default");
	if (home && *home)
		return g_strdup_printf("%s/.local/share/notmuch/%s", home,
				       profile ? profile : "default");
	return NULL;
}

/* Whether the database at DBPATH is simply not there (as opposed to
 * being there and failing). */
static bool db_missing(const char *dbpath)
{
	char *xdir;

	if (!dbpath)
		return true;
	xdir = xapian_dir(dbpath);
	g_free(xdir);
	return xdir == NULL;
}

/* Turn a failed notmuch_database_open_with_config into an fs_error. */
static int open_error(notmuch_status_t s, const char *msg,
		      struct fs_error *err)
{
	char line[FS_ERROR_MESSAGE_MAX / 2];
	char *cfg, *dbpath;
	int rc;

	if (s == NOTMUCH_STATUS_NO_CONFIG) {
		cfg = default_config_path();
		rc = fs_error_set(err, FS_ENOTFOUND,
				  "cannot open the notmuch database: no notmuch config file '%s' (set NOTMUCH_CONFIG or run 'notmuch setup')",
				  cfg);
		g_free(cfg);
		return rc;
	}
	dbpath = configured_db_path();
	if (s == NOTMUCH_STATUS_NO_DATABASE || !dbpath) {
		cfg = default_config_path();
		rc = fs_error_set(err, FS_ENOTFOUND,
				  "cannot open the notmuch database: %s (set database.path in '%s')",
				  first_line(msg, line, sizeof(line)), cfg);
		g_free(cfg);
	} else if (db_missing(dbpath)) {
		rc = fs_error_set(err, FS_ENOTFOUND,
				  "cannot open the notmuch database at '%s': %s",
				  dbpath,
				  is_dir(dbpath) ?
				  "no notmuch database there (run 'notmuch new')" :
				  strerror(ENOENT));
	} else if (!msg && !getenv("HOME")) {
		/* libnotmuch fails without a word when HOME is unset */
		rc = fs_error_set(err, FS_ESTORE,
				  "cannot open the notmuch database at '%s': notmuch needs HOME, "
				  "which is not set", dbpath);
	} else if (msg && strstr(msg, "lock")) {
		rc = fs_error_set(err, FS_ELOCKED,
				  "the notmuch database at '%s' is locked by another process",
				  dbpath);
	} else {
		rc = fs_error_set(err, FS_ESTORE,
				  "cannot open the notmuch database at '%s': %s",
				  dbpath, first_line(msg, line, sizeof(line)));
	}
	g_free(dbpath);
	return rc;
}

static int open_db(notmuch_database_t **db, notmuch_database_mode_t mode,
		   struct fs_error *err)
{
	notmuch_status_t s;
	char *msg = NULL;
	int rc = 0;

	/* NULL path, config and profile: notmuch picks all three from
	 * NOTMUCH_DATABASE, NOTMUCH_CONFIG, NOTMUCH_PROFILE and the config
	 * file, exactly as its command line does. */
	s = notmuch_database_open_with_config(NULL, mode, NULL, NULL, db, &msg);
	if (s != NOTMUCH_STATUS_SUCCESS) {
		rc = open_error(s, msg, err);
		if (*db)
			notmuch_database_destroy(*db);
		*db = NULL;
	}
	free(msg);
	return rc;
}

static void config_value_free(gpointer p)
{
	g_free(p);
}

int fs_store_open(struct fs_store **out, bool writable, double lock_wait,
		  struct fs_error *err)
{
	return fs_store_open_waiting(out, writable, lock_wait, NULL, err);
}

int fs_store_open_waiting(struct fs_store **out, bool writable, double lock_wait,
			  const struct fs_store_waiting *waiting, struct fs_error *err)
{
	struct fs_store *st;
	const char *root;
	char *dbpath = NULL;
	int rc;

	*out = NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	st->writable = writable;
	st->config = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   config_value_free);

	/* Always open read-only first: it never blocks, it reports a
	 * missing database, and it tells where the database is. */
	rc = open_db(&st->db, NOTMUCH_DATABASE_MODE_READ_ONLY, err);
	if (rc)
		goto out;
	dbpath = g_strdup(notmuch_database_get_path(st->db));

	if (writable) {
		/* libnotmuch asks Xapian to wait for the write lock with no
		 * time limit, so wait here, with one, before asking.  Another
		 * writer could still slip in between the check and the open;
		 * then notmuch waits for it to finish, which is only slower. */
		if (!wait_for_lock(dbpath, lock_wait, waiting)) {
			char *lock = lock_file(dbpath);

			rc = fs_error_set(err, FS_ELOCKED,
					  "the notmuch database at '%s' is locked by another process "
					  "(waited %.0f s for its lock '%s')", dbpath, lock_wait, lock);
			g_free(lock);
			goto out;
		}
		notmuch_database_destroy(st->db);
		st->db = NULL;
		rc = open_db(&st->db, NOTMUCH_DATABASE_MODE_READ_WRITE, err);
		if (rc)
			goto out;
	}

	root = notmuch_config_get(st->db, NOTMUCH_CONFIG_MAIL_ROOT);
	st->path = strdup(root && *root ? root : dbpath);
	if (!st->path) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	*out = st;
	st = NULL;
out:
	g_free(dbpath);
	fs_store_free(st);
	return rc;
}

int fs_store_close(struct fs_store *st, struct fs_error *err)
{
	notmuch_status_t s = NOTMUCH_STATUS_SUCCESS;
	char *path;
	int rc = 0;

	if (!st)
		return 0;
	/* the commit, before the handle goes: its status is lost after */
	if (st->db && st->writable)
		s = notmuch_database_close(st->db);
	if (s != NOTMUCH_STATUS_SUCCESS) {
		const char *why = notmuch_database_status_string(st->db);
		char line[FS_ERROR_MESSAGE_MAX / 2];

		path = g_strdup(notmuch_database_get_path(st->db));
		rc = fs_error_set(err, FS_ESTORE, "cannot commit to the notmuch database at '%s': %s",
				  path ? path : "?", why ? first_line(why, line, sizeof(line)) :
				  notmuch_status_to_string(s));
		g_free(path);
	}
	fs_store_free(st);
	return rc;
}

void fs_store_free(struct fs_store *st)
{
	if (!st)
		return;
	/* Closes the database, committing a writable one. */
	if (st->db)
		notmuch_database_destroy(st->db);
	if (st->config)
		g_hash_table_destroy(st->config);
	free(st->path);
	free(st);
}

const char *fs_store_path(const struct fs_store *st)
{
	return st->path;
}

static const struct {
	const char *name;
	notmuch_config_key_t key;
} known_keys[] = {
	{ "database.path", NOTMUCH_CONFIG_DATABASE_PATH },
	{ "database.mail_root", NOTMUCH_CONFIG_MAIL_ROOT },
	{ "database.hook_dir", NOTMUCH_CONFIG_HOOK_DIR },
	{ "database.backup_dir", NOTMUCH_CONFIG_BACKUP_DIR },
	{ "database.autocommit", NOTMUCH_CONFIG_AUTOCOMMIT },
	{ "search.exclude_tags", NOTMUCH_CONFIG_EXCLUDE_TAGS },
	{ "new.tags", NOTMUCH_CONFIG_NEW_TAGS },
	{ "new.ignore", NOTMUCH_CONFIG_NEW_IGNORE },
	{ "maildir.synchronize_flags", NOTMUCH_CONFIG_SYNC_MAILDIR_FLAGS },
	{ "user.primary_email", NOTMUCH_CONFIG_PRIMARY_EMAIL },
	{ "user.other_email", NOTMUCH_CONFIG_OTHER_EMAIL },
	{ "user.name", NOTMUCH_CONFIG_USER_NAME },
	{ "index.header", NOTMUCH_CONFIG_EXTRA_HEADERS },
};

/* Whether the user really set KEY, in the config file or in the
 * database.  libnotmuch fills user.name and user.primary_email with
 * guesses (the password file's full name, user@host) when they are not
 * set; a reply must not go out from such a guess, so for those keys
 * fixscan reports "unset" instead. */
static bool user_set(struct fs_store *st, const char *key)
{
	const char *cfg = notmuch_config_path(st->db);
	const char *dot = strchr(key, '.');
	notmuch_config_list_t *list = NULL;
	bool set = false;

	if (cfg && dot) {
		GKeyFile *kf = g_key_file_new();
		char *group = g_strndup(key, dot - key);

		if (g_key_file_load_from_file(kf, cfg, G_KEY_FILE_NONE, NULL) &&
		    g_key_file_has_key(kf, group, dot + 1, NULL))
			set = true;
		g_free(group);
		g_key_file_free(kf);
	}
	/* This list comes from the database's own metadata only. */
	if (!set && notmuch_database_get_config_list(st->db, key, &list) ==
	    NOTMUCH_STATUS_SUCCESS) {
		for (; notmuch_config_list_valid(list);
		     notmuch_config_list_move_to_next(list)) {
			const char *k = notmuch_config_list_key(list);
			const char *v = notmuch_config_list_value(list);

			if (k && !strcmp(k, key) && v && *v)
				set = true;
		}
	}
	if (list)
		notmuch_config_list_destroy(list);
	return set;
}

const char *fs_store_config(struct fs_store *st, const char *key)
{
	gpointer cached;
	char *value = NULL;
	const char *v = NULL;
	bool known = false;
	size_t i;

	if (!key)
		return NULL;
	if (g_hash_table_lookup_extended(st->config, key, NULL, &cached))
		return cached;

	for (i = 0; i < G_N_ELEMENTS(known_keys); i++) {
		if (strcmp(known_keys[i].name, key))
			continue;
		known = true;
		if (strncmp(key, "user.", 5) || user_set(st, key))
			v = notmuch_config_get(st->db, known_keys[i].key);
		if (v && *v)
			value = g_strdup(v);
		break;
	}
	if (!known) {
		char *raw = NULL;

		/* Since notmuch 0.32 this sees the config file's keys too,
		 * with the file taking precedence; unset keys read "". */
		if (notmuch_database_get_config(st->db, key, &raw) ==
		    NOTMUCH_STATUS_SUCCESS && raw && *raw)
			value = g_strdup(raw);
		free(raw);
	}
	g_hash_table_insert(st->config, g_strdup(key), value);
	return value;
}

void fs_store_message_clear(struct fs_store_message *m)
{
	if (!m)
		return;
	free(m->message_id);
	free(m->thread_id);
	free(m->filename);
	free(m->subject);
	free(m->from);
	memset(m, 0, sizeof(*m));
}

void fs_store_messages_free(struct fs_store_messages *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		fs_store_message_clear(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* The first of MSG's files that is still there, else its first file
 * with *GONE set.  A mail client renames a file when its flags change
 * and removes a draft it sends; the database only hears of that at the
 * next "notmuch new", and until then its first name may be gone. */
static char *existing_filename(notmuch_message_t *msg, bool *gone)
{
	notmuch_filenames_t *names = notmuch_message_get_filenames(msg);
	char *found = NULL;

	for (; names && notmuch_filenames_valid(names); notmuch_filenames_move_to_next(names)) {
		const char *name = notmuch_filenames_get(names);

		if (name && access(name, F_OK) == 0) {
			found = strdup(name);
			break;
		}
	}
	if (names)
		notmuch_filenames_destroy(names);
	*gone = !found;
	return found ? found : dup_or_empty(notmuch_message_get_filename(msg));
}

/* Copy what a caller needs out of notmuch message MSG. */
static int fill_message(struct fs_store_message *m, notmuch_message_t *msg)
{
	memset(m, 0, sizeof(*m));
	m->message_id = dup_or_empty(notmuch_message_get_message_id(msg));
	m->thread_id = dup_or_empty(notmuch_message_get_thread_id(msg));
	m->filename = existing_filename(msg, &m->gone);
	m->subject = dup_or_empty(notmuch_message_get_header(msg, "subject"));
	m->from = dup_or_empty(notmuch_message_get_header(msg, "from"));
	m->date = notmuch_message_get_date(msg);
	if (!m->message_id || !m->thread_id || !m->filename || !m->subject ||
	    !m->from) {
		fs_store_message_clear(m);
		return FS_ENOMEM;
	}
	return 0;
}

/* notmuch's explanation of its last failure on ST, or a fallback. */
static const char *db_status(struct fs_store *st, notmuch_status_t s,
			     char *buf, size_t size)
{
	const char *msg = notmuch_database_status_string(st->db);
	const char *p;

	/* The status string reads "A Xapian exception occurred parsing
	 * query: <what>\nQuery string was: ..."; the <what> is the news. */
	if (msg && (p = strstr(msg, "query: ")) && p < msg + strcspn(msg, "\n"))
		msg = p + 7;
	if (!msg || !*msg)
		msg = notmuch_status_to_string(s);
	return first_line(msg, buf, size);
}

/* A query on ST for QUERY, sorted oldest first, excluding nothing. */
static int make_query(struct fs_store *st, const char *query,
		      notmuch_query_t **out, struct fs_error *err)
{
	char buf[FS_ERROR_MESSAGE_MAX / 2];
	notmuch_status_t s;

	*out = NULL;
	s = notmuch_query_create_with_syntax(st->db, query,
					     NOTMUCH_QUERY_SYNTAX_XAPIAN, out);
	if (s == NOTMUCH_STATUS_BAD_QUERY_SYNTAX)
		return fs_error_set(err, FS_EUSAGE, "bad notmuch query '%s': %s",
				    query, db_status(st, s, buf, sizeof(buf)));
	if (s != NOTMUCH_STATUS_SUCCESS || !*out)
		return fs_error_set(err, FS_ESTORE,
				    "cannot search the notmuch database at '%s': %s",
				    st->path, notmuch_status_to_string(s));
	notmuch_query_set_sort(*out, NOTMUCH_SORT_OLDEST_FIRST);
	/* fixscan looks for specific messages; a user's exclude_tags (say,
	 * "deleted" or "spam") must not hide a review mail or a report. */
	notmuch_query_set_omit_excluded(*out, NOTMUCH_EXCLUDE_FALSE);
	return 0;
}

/* A failed search: Xapian parses the query only when it runs, so a query
 * error shows up here as a Xapian exception about parsing. */
static int search_error(struct fs_store *st, const char *query,
			notmuch_status_t s, struct fs_error *err)
{
	const char *msg = notmuch_database_status_string(st->db);
	char buf[FS_ERROR_MESSAGE_MAX / 2];

	if (s == NOTMUCH_STATUS_BAD_QUERY_SYNTAX ||
	    (msg && strstr(msg, "parsing query")))
		return fs_error_set(err, FS_EUSAGE, "bad notmuch query '%s': %s",
				    query, db_status(st, s, buf, sizeof(buf)));
	return fs_error_set(err, FS_ESTORE,
			    "cannot search the notmuch database at '%s': %s",
			    st->path, db_status(st, s, buf, sizeof(buf)));
}

/* Whether ST's last failure was Xapian dropping the revision this handle
 * reads: another process (a second fixscan indexing its drafts, notmuch
 * new) committed meanwhile.  Reopening the database and asking again is
 * Xapian's own cure, and what notmuch's commands do. */
static bool revision_discarded(struct fs_store *st)
{
	const char *msg = notmuch_database_status_string(st->db);

	return msg && (strstr(msg, "has been discarded") || strstr(msg, "reopen()"));
}

/* Reopen ST's database at its newest revision. */
static bool reopen(struct fs_store *st)
{
	return notmuch_database_reopen(st->db, st->writable ? NOTMUCH_DATABASE_MODE_READ_WRITE :
				       NOTMUCH_DATABASE_MODE_READ_ONLY) == NOTMUCH_STATUS_SUCCESS;
}

/* After a failure RC of a read on ST: whether to read again, the
 * database reopened (a few times at most, counted in *TRIES). */
static bool read_again(struct fs_store *st, int rc, int *tries, struct fs_error *err)
{
	if (rc != FS_ESTORE || ++*tries > 5 || !revision_discarded(st) || !reopen(st))
		return false;
	fs_error_clear(err);
	return true;
}

static int search_once(struct fs_store *st, const char *query,
		       struct fs_store_messages *out, struct fs_error *err);
static int count_once(struct fs_store *st, const char *query, size_t *out,
		      struct fs_error *err);
static int threads_once(struct fs_store *st, const char *query, char ***out,
			struct fs_error *err);

int fs_store_search(struct fs_store *st, const char *query,
		    struct fs_store_messages *out, struct fs_error *err)
{
	int rc, tries = 0;

	while ((rc = search_once(st, query, out, err)) && read_again(st, rc, &tries, err))
		;
	return rc;
}

int fs_store_count(struct fs_store *st, const char *query, size_t *out,
		   struct fs_error *err)
{
	int rc, tries = 0;

	while ((rc = count_once(st, query, out, err)) && read_again(st, rc, &tries, err))
		;
	return rc;
}

int fs_store_threads(struct fs_store *st, const char *query, char ***out,
		     struct fs_error *err)
{
	int rc, tries = 0;

	while ((rc = threads_once(st, query, out, err)) && read_again(st, rc, &tries, err))
		;
	return rc;
}

static int search_once(struct fs_store *st, const char *query,
		       struct fs_store_messages *out, struct fs_error *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	notmuch_status_t s;
	size_t alloc = 0;
	int rc;

	out->v = NULL;
	out->n = 0;
	rc = make_query(st, query, &q, err);
	if (rc)
		return rc;
	s = notmuch_query_search_messages(q, &msgs);
	if (s != NOTMUCH_STATUS_SUCCESS) {
		rc = search_error(st, query, s, err);
		goto out;
	}
	for (; notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *msg = notmuch_messages_get(msgs);

		/* Xapian dropped the revision under the iteration: read again. */
		if (!msg) {
			rc = search_error(st, query, NOTMUCH_STATUS_XAPIAN_EXCEPTION, err);
			goto out;
		}
		if (out->n == alloc) {
			size_t nalloc = alloc ? alloc * 2 : 16;
			struct fs_store_message *nv;

			nv = realloc(out->v, nalloc * sizeof(*nv));
			if (!nv) {
				notmuch_message_destroy(msg);
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
			out->v = nv;
			alloc = nalloc;
		}
		rc = fill_message(&out->v[out->n], msg);
		notmuch_message_destroy(msg);
		if (rc) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		/* Moved or removed since it was indexed: not there to read. */
		if (out->v[out->n].gone)
			fs_store_message_clear(&out->v[out->n]);
		else
			out->n++;
	}
out:
	if (msgs)
		notmuch_messages_destroy(msgs);
	notmuch_query_destroy(q);
	if (rc)
		fs_store_messages_free(out);
	return rc;
}

static int count_once(struct fs_store *st, const char *query, size_t *out,
		      struct fs_error *err)
{
	notmuch_query_t *q = NULL;
	notmuch_status_t s;
	unsigned int count = 0;
	int rc;

	*out = 0;
	rc = make_query(st, query, &q, err);
	if (rc)
		return rc;
	s = notmuch_query_count_messages(q, &count);
	if (s != NOTMUCH_STATUS_SUCCESS)
		rc = search_error(st, query, s, err);
	else
		*out = count;
	notmuch_query_destroy(q);
	return rc;
}

/* The threads come in the order notmuch_query_search_threads() gives
 * them: that of the first message of each among the matching messages,
 * oldest first.  Taken from the messages themselves: notmuch builds each
 * thread whole and sorts its messages by date, reading a message's date
 * anew for every comparison, which costs a 5,000-patch thread more than
 * reading all its mails does. */
static int threads_once(struct fs_store *st, const char *query, char ***out,
			struct fs_error *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	notmuch_status_t s;
	GHashTable *seen;
	GPtrArray *ids;
	int rc;

	*out = NULL;
	rc = make_query(st, query, &q, err);
	if (rc)
		return rc;
	ids = g_ptr_array_new_with_free_func(free);
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	s = notmuch_query_search_messages(q, &msgs);
	if (s != NOTMUCH_STATUS_SUCCESS) {
		rc = search_error(st, query, s, err);
		goto out;
	}
	for (; notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *msg = notmuch_messages_get(msgs);
		const char *tid;
		char *id = NULL;
		bool dup;

		if (!msg) {
			rc = search_error(st, query, NOTMUCH_STATUS_XAPIAN_EXCEPTION, err);
			goto out;
		}
		tid = notmuch_message_get_thread_id(msg);

		/* TID belongs to MSG: copied, if new, before MSG goes. */
		dup = g_hash_table_contains(seen, tid ? tid : "");
		if (!dup)
			id = dup_or_empty(tid);
		notmuch_message_destroy(msg);
		if (dup)
			continue;
		if (!id) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		g_ptr_array_add(ids, id);
		g_hash_table_add(seen, id);
	}
	g_ptr_array_add(ids, NULL);
	/* The array's strings came from malloc, so the caller frees them and
	 * the array with free(); hand over a malloc'ed copy of the vector. */
	*out = malloc(ids->len * sizeof(char *));
	if (!*out) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		g_ptr_array_remove_index(ids, ids->len - 1);
		goto out;
	}
	memcpy(*out, ids->pdata, ids->len * sizeof(char *));
	g_ptr_array_set_free_func(ids, NULL);
out:
	g_hash_table_destroy(seen);
	if (msgs)
		notmuch_messages_destroy(msgs);
	notmuch_query_destroy(q);
	g_ptr_array_free(ids, TRUE);
	return rc;
}

/* Drop a query prefix and angle brackets callers may have left on. */
static const char *bare_id(const char *id, const char *prefix, size_t *len)
{
	size_t plen = strlen(prefix);
	size_t n;

	if (!strncmp(id, prefix, plen))
		id += plen;
	n = strlen(id);
	if (n >= 2 && id[0] == '<' && id[n - 1] == '>') {
		id++;
		n -= 2;
	}
	*len = n;
	return id;
}

int fs_store_thread(struct fs_store *st, const char *thread_id,
		    struct fs_store_messages *out, struct fs_error *err)
{
	char *id, *quoted, *query;
	const char *p;
	size_t n;
	int rc;

	out->v = NULL;
	out->n = 0;
	p = bare_id(thread_id, "thread:", &n);
	id = g_strndup(p, n);
	quoted = fs_store_quote(id);
	query = quoted ? g_strdup_printf("thread:%s", quoted) : NULL;
	if (!query)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	else
		rc = fs_store_search(st, query, out, err);
	g_free(query);
	free(quoted);
	g_free(id);
	return rc;
}

/* Look up ID (bare, no white space) once. */
static int find_once(struct fs_store *st, const char *id, struct fs_store_message *out,
		     struct fs_error *err)
{
	char buf[FS_ERROR_MESSAGE_MAX / 2];
	notmuch_message_t *msg = NULL;
	notmuch_status_t s;
	int rc;

	s = notmuch_database_find_message(st->db, id, &msg);
	if (s != NOTMUCH_STATUS_SUCCESS)
		return fs_error_set(err, FS_ESTORE,
				    "cannot look up message '%s' in the notmuch database at '%s': %s",
				    id, st->path, db_status(st, s, buf, sizeof(buf)));
	if (!msg)
		return fs_error_set(err, FS_ENOTFOUND,
				    "no message '%s' in the notmuch database at '%s'",
				    id, st->path);
	rc = fill_message(out, msg);
	if (rc)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	notmuch_message_destroy(msg);
	return rc;
}

int fs_store_find_message(struct fs_store *st, const char *message_id,
			  struct fs_store_message *out, struct fs_error *err)
{
	const char *p;
	char *id;
	size_t n;
	int rc, tries = 0;

	memset(out, 0, sizeof(*out));
	p = bare_id(message_id, "id:", &n);
	id = g_strndup(p, n);
	/* notmuch stores an id without the white space a header may have
	 * in it (<"a b"@x> is "ab"@x); look it up the same way. */
	{
		char *r = id, *w = id;
		for (; *r; r++)
			if (!g_ascii_isspace(*r))
				*w++ = *r;
		*w = '\0';
	}
	while ((rc = find_once(st, id, out, err)) && read_again(st, rc, &tries, err))
		;
	g_free(id);
	return rc;
}

char *fs_store_quote(const char *s)
{
	size_t n = 2, i, j = 0;
	char *q;

	if (!s)
		s = "";
	for (i = 0; s[i]; i++)
		n += s[i] == '"' ? 2 : 1;
	q = malloc(n + 1);
	if (!q)
		return NULL;
	q[j++] = '"';
	for (i = 0; s[i]; i++) {
		/* Xapian reads "" inside a quoted term as one quote. */
		if (s[i] == '"')
			q[j++] = '"';
		q[j++] = s[i];
	}
	q[j++] = '"';
	q[j] = '\0';
	return q;
}

int fs_store_index_file(struct fs_store *st, const char *path,
			const char *const *tags, struct fs_error *err)
{
	char buf[FS_ERROR_MESSAGE_MAX / 2];
	notmuch_message_t *msg = NULL;
	notmuch_status_t s;
	int rc = 0;

	size_t rootlen = strlen(st->path);

	if (!st->writable)
		return fs_error_set(err, FS_ESTORE,
				    "cannot index '%s': the notmuch database at '%s' is open read-only",
				    path, st->path);
	/* notmuch takes relative names from the mail root and needs absolute
	 * ones inside it; say so plainly rather than pass on its generic
	 * file error. */
	if (path[0] == '/' &&
	    (strncmp(path, st->path, rootlen) || path[rootlen] != '/'))
		return fs_error_set(err, FS_ESTORE,
				    "cannot index '%s': not inside the mail root '%s'",
				    path, st->path);
	/* Indexing and tagging land together or not at all, so a draft is
	 * never in the database without its tags. */
	s = notmuch_database_begin_atomic(st->db);
	if (s != NOTMUCH_STATUS_SUCCESS)
		return fs_error_set(err, FS_ESTORE, "cannot index '%s': %s", path,
				    db_status(st, s, buf, sizeof(buf)));

	s = notmuch_database_index_file(st->db, path, NULL, &msg);
	if (s == NOTMUCH_STATUS_DUPLICATE_MESSAGE_ID)
		s = NOTMUCH_STATUS_SUCCESS; /* known already: only tag it */
	if (s == NOTMUCH_STATUS_FILE_NOT_EMAIL) {
		rc = fs_error_set(err, FS_ESTORE,
				  "cannot index '%s': not an email message", path);
		goto out;
	} else if (s == NOTMUCH_STATUS_PATH_ERROR) {
		rc = fs_error_set(err, FS_ESTORE,
				  "cannot index '%s': not inside the mail root '%s'",
				  path, st->path);
		goto out;
	} else if (s == NOTMUCH_STATUS_FILE_ERROR) {
		if (access(path, R_OK))
			rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s",
					  path, strerror(errno));
		else
			rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s",
					  path, db_status(st, s, buf, sizeof(buf)));
		goto out;
	} else if (s != NOTMUCH_STATUS_SUCCESS || !msg) {
		rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s", path,
				  db_status(st, s, buf, sizeof(buf)));
		goto out;
	}

	/* Frozen, the tags are written once, as one change. */
	s = notmuch_message_freeze(msg);
	if (s == NOTMUCH_STATUS_SUCCESS) {
		notmuch_status_t thaw;

		for (; s == NOTMUCH_STATUS_SUCCESS && tags && *tags; tags++)
			s = notmuch_message_add_tag(msg, *tags);
		thaw = notmuch_message_thaw(msg);
		if (s == NOTMUCH_STATUS_SUCCESS)
			s = thaw;
	}
	if (s != NOTMUCH_STATUS_SUCCESS)
		rc = fs_error_set(err, FS_ESTORE, "cannot tag '%s': %s", path,
				  db_status(st, s, buf, sizeof(buf)));
out:
	if (msg)
		notmuch_message_destroy(msg);
	s = notmuch_database_end_atomic(st->db);
	if (!rc && s != NOTMUCH_STATUS_SUCCESS)
		rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s", path,
				  db_status(st, s, buf, sizeof(buf)));
	return rc;
}

int fs_store_remove_file(struct fs_store *st, const char *path,
			 struct fs_error *err)
{
	char buf[FS_ERROR_MESSAGE_MAX / 2];
	notmuch_status_t s;

	if (!st->writable)
		return fs_error_set(err, FS_ESTORE,
				    "cannot remove '%s' from the index: the notmuch database at '%s' is open read-only",
				    path, st->path);
	s = notmuch_database_remove_message(st->db, path);
	/* DUPLICATE_MESSAGE_ID: the message lives on in another file. */
	if (s == NOTMUCH_STATUS_SUCCESS || s == NOTMUCH_STATUS_DUPLICATE_MESSAGE_ID)
		return 0;
	return fs_error_set(err, FS_ESTORE, "cannot remove '%s' from the index: %s",
			    path, db_status(st, s, buf, sizeof(buf)));
}

/* ---- the size of a posting ---------------------------------------------- */

int fs_store_posting_size(void *store, const char *key, int form, unsigned *total, unsigned *first)
{
	struct fs_store_message m = { 0 };
	struct fs_error err = FS_ERROR_INIT;
	struct fs_series ser;
	char id[600];
	int rc = FS_ENOTFOUND;
	unsigned mail = form == FS_POSTING_B4 ? 0 : 1;

	if (!store || form == FS_POSTING_NONE || !fs_posting_part_id(key, mail, id, sizeof(id)) ||
	    fs_store_find_message(store, id, &m, &err) < 0)
		return FS_ENOTFOUND;
	if (m.subject && fs_series_parse(m.subject, &ser, NULL)) {
		/* 0/M: a cover, patch 1 the next mail; 1/M: no cover */
		if (ser.total > 0 && (ser.index == 0 || (ser.index == 1 && mail == 1))) {
			*total = (unsigned)ser.total;
			*first = ser.index == 0 ? mail + 1 : 1;
			rc = 0;
		}
		fs_series_clear(&ser);
	}
	fs_store_message_clear(&m);
	return rc;
}
