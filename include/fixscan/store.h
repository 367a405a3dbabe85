/* fixscan: the user's notmuch mail store.
 *
 * Opened the way notmuch itself opens it (NOTMUCH_CONFIG, NOTMUCH_DATABASE,
 * NOTMUCH_PROFILE, the config's database.path), read-only unless drafts are
 * to be indexed.  fixscan never changes or removes an existing message;
 * the only write is indexing a new draft file it wrote itself.
 */
#ifndef FIXSCAN_STORE_H
#define FIXSCAN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/error.h"

struct fs_store;

/* Open the database.  WRITABLE asks for read-write mode (for indexing
 * drafts); a database locked by another writer is retried for about
 * LOCK_WAIT seconds, then FS_ELOCKED.  Other failures: FS_ENOTFOUND (no
 * config or database), FS_ESTORE, with ERR naming the path.  Free with
 * fs_store_free(), which also commits a writable database. */
int fs_store_open(struct fs_store **out, bool writable, double lock_wait,
		  struct fs_error *err);

/* Who is told, once, that the write lock is held by another process (a
 * "notmuch new", a mail client indexing) before the wait for it: FN(DATA,
 * LOCK, WAIT) with LOCK the lock's file and WAIT the seconds it waits. */
struct fs_store_waiting {
	void (*fn)(void *data, const char *lock, double wait);
	void *data;
};

/* fs_store_open(), telling WAITING (may be NULL) when it waits.  The
 * error after the wait names the lock's file. */
int fs_store_open_waiting(struct fs_store **out, bool writable, double lock_wait,
			  const struct fs_store_waiting *waiting, struct fs_error *err);
void fs_store_free(struct fs_store *st);

/* Close ST (may be NULL) as fs_store_free() does, and say whether a
 * writable database took what was written: a full disk may show only
 * at this commit.  Returns 0, or FS_ESTORE with ERR naming the database
 * and the reason (what was indexed since the open is then not there). */
int fs_store_close(struct fs_store *st, struct fs_error *err);

/* The database's mail root directory (borrowed). */
const char *fs_store_path(const struct fs_store *st);

/* A notmuch configuration value (user.name, user.primary_email, or any
 * key such as "fixscan.drafts"), or NULL when unset; borrowed, valid until
 * fs_store_free().  An empty value counts as unset.  user.name,
 * user.primary_email and user.other_email are NULL unless the user set
 * them (config file or database): notmuch's own guesses from the password
 * file and host name are not an identity to send mail as. */
const char *fs_store_config(struct fs_store *st, const char *key);

/* One message of a search result; its strings are GLib's (g_free()),
 * released by fs_store_message_clear(). */
struct fs_store_message {
	char *message_id; /* without <> */
	char *thread_id;  /* notmuch thread id, without "thread:" */
	char *filename;   /* the first of its files that exists (else the
			   * first of them, and GONE is set) */
	bool gone;        /* none of its files exists any more: moved or
			   * removed since notmuch indexed it */
	time_t date;
	char *subject;    /* as notmuch has it, decoded */
	char *from;       /* header From, decoded */
};

/* A list of messages; free with fs_store_messages_free(). */
struct fs_store_messages {
	struct fs_store_message *v;
	size_t n;
};
void fs_store_messages_free(struct fs_store_messages *m);

/* Every message matching the notmuch QUERY (Xapian syntax, as on the
 * notmuch command line), oldest first, leaving out the messages none of
 * whose files exists any more (a mail client moved or removed them, and
 * notmuch has not caught up yet: nothing to read, and no error).  Returns 0 or FS_ESTORE / FS_EUSAGE
 * (bad query) with ERR set.  *OUT must be freed even when empty. */
int fs_store_search(struct fs_store *st, const char *query,
		    struct fs_store_messages *out, struct fs_error *err);

/* How many messages match QUERY, as fs_store_search() would find them
 * before it leaves out those whose files are gone: *OUT is an upper
 * bound of its count, got without reading a message.  Returns 0 or
 * FS_ESTORE / FS_EUSAGE with ERR set. */
int fs_store_count(struct fs_store *st, const char *query, size_t *out,
		   struct fs_error *err);

/* The ids of the threads matching QUERY, oldest first, as a
 * NULL-terminated array of new strings (g_strfreev()). */
int fs_store_threads(struct fs_store *st, const char *query, char ***out,
		     struct fs_error *err);

/* All messages of thread THREAD_ID (without "thread:"; a leading
 * "thread:" is ignored), oldest first. */
int fs_store_thread(struct fs_store *st, const char *thread_id,
		    struct fs_store_messages *out, struct fs_error *err);

/* The message with id MESSAGE_ID (without <> and "id:"; either is
 * ignored if present): 0 with *OUT filled (free with
 * fs_store_message_clear()), or FS_ENOTFOUND. */
int fs_store_find_message(struct fs_store *st, const char *message_id,
			  struct fs_store_message *out, struct fs_error *err);
void fs_store_message_clear(struct fs_store_message *m);

/* Quote S as a notmuch query phrase ("..." with inner quotes doubled);
 * returns a new string the caller frees with g_free(). */
char *fs_store_quote(const char *s);

/* Index the file PATH (inside the mail root) and add TAGS (a NULL-
 * terminated list) to the message.  Needs a writable store.  Returns 0,
 * or FS_ESTORE with ERR set.  A file already indexed only gets its tags. */
int fs_store_index_file(struct fs_store *st, const char *path,
			const char *const *tags, struct fs_error *err);

/* Forget the file PATH (inside the mail root): the draft module calls it
 * for an outdated draft of its own just before removing the file, so the
 * database does not keep a message whose file is gone.  A file the
 * database does not know is not an error.  Needs a writable store.
 * Returns 0 or FS_ESTORE with ERR set. */
int fs_store_remove_file(struct fs_store *st, const char *path,
			 struct fs_error *err);

/* The size of the posting whose key is KEY (as fs_posting_parse_id()
 * made it) and form FORM, from its first mail in the mail store STORE (a
 * struct fs_store *, passed as void * to fit fs_findings_ctx.posting_size):
 * b4's mail 0, git send-email's mail 1.  A cover ("[PATCH 0/M]") or a
 * first patch ("[PATCH 1/M]") gives *TOTAL = M and *FIRST the number of
 * the mail that carries patch 1 (1, or 2 after a git send-email cover).
 * Returns 0, or FS_ENOTFOUND when the store has no such mail or its
 * subject numbers nothing (then *TOTAL and *FIRST are untouched). */
int fs_store_posting_size(void *store, const char *key, int form, unsigned *total, unsigned *first);

#endif
