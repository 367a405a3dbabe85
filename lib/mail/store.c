/* fixscan: the user's notmuch mail store, through libnotmuch: finding
 * and opening the database (waiting for its write lock) and its config.
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

#include "store-private.h"

/* How long one wait step for the write lock lasts. */
#define LOCK_STEP_NS 100000000L

/* Copy the first line of a notmuch message, without its "Error: " prefix
 * and final full stop, into BUF: notmuch writes multi-line, capitalised
 * sentences, fixscan's errors are one line. */
const char *fsst_first_line(const char *msg, char *buf, size_t size)
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
				  fsst_first_line(msg, line, sizeof(line)), cfg);
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
				  dbpath, fsst_first_line(msg, line, sizeof(line)));
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
				  path ? path : "?", why ? fsst_first_line(why, line, sizeof(line)) :
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
