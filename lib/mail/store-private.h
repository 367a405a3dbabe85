/* fixscan: what the files of the store module share (store.c,
 * store-search.c, store-write.c): the store object and its helpers.
 * Private to them. */
#ifndef FIXSCAN_STORE_PRIVATE_H
#define FIXSCAN_STORE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>
#include <notmuch.h>

#include "fixscan/store.h"

struct fs_store {
	notmuch_database_t *db;
	bool writable;
	char *path;          /* the mail root; owned */
	GHashTable *config;  /* key -> value or NULL; both owned */
};

/* store.c: the first line of notmuch's message MSG, without its "Error: "
 * prefix and final full stop, in BUF (SIZE bytes); returns BUF. */
const char *fsst_first_line(const char *msg, char *buf, size_t size);

/* store-search.c: the database's status S as one line in BUF (SIZE
 * bytes), with its last message when it has one; returns BUF. */
const char *fsst_db_status(struct fs_store *st, notmuch_status_t s, char *buf, size_t size);

#endif
