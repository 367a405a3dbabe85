/* fixscan: what the drafts files of lib/draft/ share: the state file's
 * records (drafts-state.c), the drafts found in a folder and the one
 * decision about each draft (drafts-match.c), writing and indexing them
 * (drafts-write.c), for the save policy (drafts.c).  Private to
 * lib/draft/.
 *
 * Ownership: the state owns its entries (an entry moved between its
 * arrays moves with its strings); struct existing owns its strings but
 * PATH, borrowed from the scan's struct fs_maildir_files.
 */
#ifndef FIXSCAN_DRAFTS_PRIVATE_H
#define FIXSCAN_DRAFTS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

#include "fixscan/drafts.h"
#include "fixscan/maildir.h"
#include "fixscan/store.h"

/* One draft fixscan wrote. */
struct state_entry {
	char *message_id;
	char *digest;
	char *key;
	gint64 time;
};

struct fs_drafts_state {
	char *path;
	GPtrArray *entries;   /* struct state_entry *, in the order written */
	GHashTable *by_id;    /* message id -> entry */
	GHashTable *latest;   /* key -> its newest entry */
	/* Drafts the reviewer was seen to delete (their entries, moved
	 * here): what they said stays unsaid. */
	GPtrArray *deleted;
	GPtrArray *pending;   /* drafts about to be written ("pending:" lines) */
	bool dirty;
};

/* Add E to S's entries (it replaces an entry of the same Message-Id). */
void fsds_state_add(struct fs_drafts_state *s, struct state_entry *e);

/* The entry of S->pending for MESSAGE_ID, or NULL. */
struct state_entry *fsds_pending_entry(const struct fs_drafts_state *s, const char *message_id);

/* A draft a run noted as pending and then wrote: it is fixscan's, with
 * its digest, as if that run had finished. */
void fsds_promote_pending(struct fs_drafts_state *s, const char *message_id);

/* The entry of S->deleted for KEY and DIGEST, or NULL. */
struct state_entry *fsds_deleted_entry(const struct fs_drafts_state *s, const char *key,
				       const char *digest);

/* A draft found in the folder. */
struct existing {
	char *path;       /* borrowed from the scan */
	char *key;        /* from the state file or an old X-Fixscan-Key, or NULL */
	char *digest;     /* the digest it was written with, or NULL */
	char *message_id;
	char *in_reply_to; /* the id of the mail it answers, or NULL */
	int edited;       /* -1 not yet known, 0 no, 1 yes */
};

/* What the store says about one draft, found before writing. */
struct draft_facts {
	bool answered;  /* the reviewer has answered the mail it answers */
	bool elsewhere; /* its latest earlier draft is in the store, with a
			 * file, though maybe not in the folder */
};

/* How one run writes: the folder, what was found in it, what is known. */
struct write_ctx {
	const char *dir;
	struct existing *found;
	size_t nfound;
	struct fs_drafts_state *state;
	const struct draft_facts *facts; /* one per draft, or NULL */
	bool force;
};

/* Every mail of DIR, as struct existing (free with fsds_existings_free());
 * the paths are borrowed from *FILES.  Key and digest come from STATE,
 * else from the headers drafts of older versions carry; a pending draft
 * found is promoted. */
struct existing *fsds_scan(struct fs_maildir_files *files, const char *dir,
			   struct fs_drafts_state *state);
void fsds_existings_free(struct existing *v, size_t n);

/* Whether ID is the Message-Id of a draft of an earlier version:
 * "fixscan", a dot and a hash of its key (fs_draft_id_prefix()). */
bool fsds_is_old_id(const char *id);

/* What DR needs, the one decision of a save and of
 * fs_drafts_drop_skipped(): FS_DRAFT_SKIPPED_ANSWERED (F says the
 * reviewer answered), FS_DRAFT_UNCHANGED(_EDITED) (*MATCH in the folder
 * says the same), FS_DRAFT_SKIPPED_DELETED, or FS_DRAFT_WROTE: it is to
 * be written, replacing *UNEDITED or beside *EDITED; STALE gets the
 * paths (new strings) of the unedited others. */
enum fs_draft_action fsds_decide(const struct write_ctx *w, const struct fs_draft *dr,
				 const struct draft_facts *f, struct existing **match,
				 struct existing **unedited, struct existing **edited,
				 GPtrArray *stale);

/* fs_drafts_write() with FACTS (one per draft, or NULL) and FORCE. */
int fsds_write_all(struct fs_draft_result **results, const struct fs_drafts *d,
		   const char *dir, struct fs_drafts_state *state,
		   const struct draft_facts *facts, bool force, struct fs_error *err);

/* fs_drafts_index(), also noting in SAVED (when not NULL) which stale
 * files were removed. */
int fsds_index_results(struct fs_draft_result *res, size_t n, struct fs_store *st,
		       const char *const *tags, struct fs_drafts_saved *saved,
		       struct fs_error *err);

/* PATH as shown to the user: relative to ROOT when inside it.  New string. */
char *fsds_shown_path(const char *path, const char *root);

#endif
