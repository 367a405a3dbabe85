/* fixscan: searching the notmuch store: messages, counts, threads, one
 * message by its id, and the size of a posting from its first mail. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/posting.h"
#include "fixscan/subject.h"
#include "store-private.h"

void fs_store_message_clear(struct fs_store_message *m)
{
	if (!m)
		return;
	g_free(m->message_id);
	g_free(m->thread_id);
	g_free(m->filename);
	g_free(m->subject);
	g_free(m->from);
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
	return g_strdup(s ? s : "");
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
			found = g_strdup(name);
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
const char *fsst_db_status(struct fs_store *st, notmuch_status_t s,
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
	return fsst_first_line(msg, buf, size);
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
				    query, fsst_db_status(st, s, buf, sizeof(buf)));
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
				    query, fsst_db_status(st, s, buf, sizeof(buf)));
	return fs_error_set(err, FS_ESTORE,
			    "cannot search the notmuch database at '%s': %s",
			    st->path, fsst_db_status(st, s, buf, sizeof(buf)));
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
	ids = g_ptr_array_new_with_free_func(g_free);
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
			id = g_strdup(tid ? tid : "");
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
	/* The vector and its strings are GLib's: the caller's g_strfreev(). */
	*out = (char **)g_ptr_array_free(ids, FALSE);
	ids = NULL;
out:
	g_hash_table_destroy(seen);
	if (msgs)
		notmuch_messages_destroy(msgs);
	notmuch_query_destroy(q);
	if (ids)
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
	g_free(quoted);
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
				    id, st->path, fsst_db_status(st, s, buf, sizeof(buf)));
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
	q = g_try_malloc(n + 1);
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
