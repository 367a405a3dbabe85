/* fixscan: what fixscan writes into the notmuch store: its drafts
 * indexed and tagged, and the entries of drafts it removed. */
#include <stdlib.h>
#include <string.h>

#include "store-private.h"

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
				    fsst_db_status(st, s, buf, sizeof(buf)));

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
					  path, fsst_db_status(st, s, buf, sizeof(buf)));
		goto out;
	} else if (s != NOTMUCH_STATUS_SUCCESS || !msg) {
		rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s", path,
				  fsst_db_status(st, s, buf, sizeof(buf)));
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
				  fsst_db_status(st, s, buf, sizeof(buf)));
out:
	if (msg)
		notmuch_message_destroy(msg);
	s = notmuch_database_end_atomic(st->db);
	if (!rc && s != NOTMUCH_STATUS_SUCCESS)
		rc = fs_error_set(err, FS_ESTORE, "cannot index '%s': %s", path,
				  fsst_db_status(st, s, buf, sizeof(buf)));
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
			    path, fsst_db_status(st, s, buf, sizeof(buf)));
}
