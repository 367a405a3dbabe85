/* fixscan: saving composed drafts into the reviewer's drafts folder.
 *
 * The one save policy review and check share: write the drafts into a
 * maildir (fixscan/maildir.h), and when that folder is inside the
 * notmuch mail root, index them with their tags and remove the outdated
 * drafts they replace.  What happened comes back as typed results; the
 * commands print them, each in its own format.
 *
 * A draft whose key already has a file in the folder is not written
 * twice: enum fs_draft_action says what is done instead.  The only file
 * ever removed is a draft fixscan wrote itself whose body still matches
 * the digest it was written with (fixscan/draft.h), and only once its
 * replacement is safely indexed.
 *
 * What fixscan wrote is remembered in a state file (struct
 * fs_drafts_state: key, Message-Id and digest of every draft), the one
 * source of truth for "fixscan wrote this draft, with this body": it
 * outlives the draft (so a draft the reviewer deleted stays deleted),
 * works for a folder outside the mail root, and needs no writable
 * database.  A draft is matched to its key by its Message-Id in the
 * state (a "pending" line is written before the draft is, so a run
 * killed while writing leaves drafts the next one knows); without the
 * state, by answering the same mail with the very body fixscan would
 * write.  Drafts of older versions are matched by their Message-Id
 * (fs_draft_id_prefix()) or their X-Fixscan-Key and X-Fixscan-Digest
 * headers.
 *
 * Configuration is resolved by the caller: the functions here take the
 * values (the --drafts-dir flag, the notmuch config's fixscan.drafts and
 * fixscan.draftTags) and never read a config themselves.
 */
#ifndef FIXSCAN_DRAFTS_H
#define FIXSCAN_DRAFTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/draft.h"
#include "fixscan/error.h"
#include "fixscan/store.h"

/* ---- where and how ------------------------------------------------------ */

/* The drafts folder: FLAG (--drafts-dir) when given, else CFG (the
 * notmuch config's fixscan.drafts), else ROOT/Drafts.  A relative CFG is
 * taken from the mail root ROOT.  Any may be NULL.  New string (g_free()),
 * or NULL with ERR set when there is neither a flag, nor CFG, nor ROOT. */
char *fs_drafts_dir(const char *flag, const char *cfg, const char *root,
		    struct fs_error *err);

/* The tags a new draft gets: CFG (the notmuch config's
 * fixscan.draftTags, names separated by ';'), else "draft" and
 * "fixscan".  A NULL-terminated array (g_strfreev()). */
char **fs_drafts_tags(const char *cfg);

/* ---- what fixscan remembers of its drafts -------------------------------- */

struct fs_drafts_state;

/* Read the state file PATH (a missing file is an empty state).  Returns 0
 * with *OUT set (free with fs_drafts_state_free()), or FS_EIO with ERR
 * set when the file cannot be read.  Lines it cannot parse are dropped. */
int fs_drafts_state_load(struct fs_drafts_state **out, const char *path,
			 struct fs_error *err);
void fs_drafts_state_free(struct fs_drafts_state *s);

/* Write S back to its file when it changed: into a temporary file that
 * is renamed over it, so a crash leaves the old or the new file, never
 * half of one; the directory is created (0700) when missing.  Entries
 * older than a year are dropped.  Returns 0 or FS_EIO with ERR set. */
int fs_drafts_state_save(struct fs_drafts_state *s, struct fs_error *err);

/* Remember that the draft MESSAGE_ID answers KEY with a body of DIGEST,
 * written (or last seen) at time NOW: it becomes KEY's latest draft. */
void fs_drafts_state_note(struct fs_drafts_state *s, const char *key,
			  const char *message_id, const char *digest, time_t now);

/* The key and digest remembered for the draft MESSAGE_ID (borrowed), or
 * false when S does not know it. */
bool fs_drafts_state_find(const struct fs_drafts_state *s, const char *message_id,
			  const char **key, const char **digest);

/* The Message-Id and digest of the latest draft of KEY (borrowed), or
 * false when S knows none. */
bool fs_drafts_state_latest(const struct fs_drafts_state *s, const char *key,
			    const char **message_id, const char **digest);

/* ---- the save policy ---------------------------------------------------- */

enum fs_draft_action {
	FS_DRAFT_WROTE,          /* a new file */
	FS_DRAFT_UNCHANGED,      /* the draft there says the same already */
	FS_DRAFT_UNCHANGED_EDITED, /* ... and the reviewer has edited it */
	FS_DRAFT_REPLACED,       /* a new file; the outdated unedited one goes */
	FS_DRAFT_KEPT_EDITED,    /* a new file; the reviewer's edited one stays */
	FS_DRAFT_SKIPPED_ANSWERED, /* not written: the reviewer has answered
				    * that mail already (sent, not a draft) */
	FS_DRAFT_SKIPPED_DELETED, /* not written: fixscan wrote the same draft
				   * before and the reviewer deleted it */
};

/* What fs_drafts_save() did with one draft.  Paths are shown paths:
 * relative to the mail root when inside it, else absolute. */
struct fs_drafts_saved_draft {
	enum fs_draft_action action;
	char *label;       /* the draft's label ("003/024 ...") */
	char *path;        /* the file holding the draft now; NULL when the
			    * save stopped before this draft or SKIPPED_* */
	char *other;       /* REPLACED / KEPT_EDITED: the older file */
	char **removed;    /* outdated unedited drafts of the same key that
			    * were removed; NULL-terminated, or NULL */
	bool indexed_now;  /* UNCHANGED*: the file was there but not in the
			    * database, and now is */
};

/* What fs_drafts_save() did; start with FS_DRAFTS_SAVED_INIT, release
 * with fs_drafts_saved_clear(). */
struct fs_drafts_saved {
	struct fs_drafts_saved_draft *v; /* one per draft, in order */
	size_t n;
	char *dir;          /* the folder, canonical */
	char *root;         /* the mail root, canonical; NULL without a store */
	bool outside;       /* DIR is not inside ROOT: nothing was indexed,
			     * outdated drafts were only removed from disk */
	bool complete;      /* every draft is in the folder: writing did not
			     * stop half way */
	struct fs_error index_err; /* writing failed (ERR says why) and indexing
				    * what was written failed too: why */
	size_t answered;    /* drafts SKIPPED_ANSWERED */
	size_t deleted;     /* drafts SKIPPED_DELETED */
};
#define FS_DRAFTS_SAVED_INIT { .v = NULL }
void fs_drafts_saved_clear(struct fs_drafts_saved *s);

struct fs_drafts_save_opts {
	const char *const *tags; /* tags for new drafts; NULL: fs_drafts_tags(NULL) */
	double lock_wait;        /* seconds to wait for a locked database */
	const char *state_file;  /* what fixscan remembers of its drafts
				  * (fs_drafts_state_load()); NULL: nothing
				  * is remembered, deleted drafts come back */
	const char *const *own;  /* the reviewer's addresses: a mail of theirs
				  * answering a draft's mail means answered */
	bool force;              /* write drafts the reviewer deleted again */
	/* told when the database is locked and the save waits (may be NULL) */
	const struct fs_store_waiting *waiting;
};
#define FS_DRAFTS_SAVE_OPTS_INIT { .lock_wait = 5.0 }

/* The patches whose reply the reviewer withdrew: fixscan wrote a draft
 * answering it (STATE_FILE's latest draft of its key), and that draft is
 * in neither DIR nor STORE (which may be NULL) any more (a sent draft
 * keeps its Message-Id in the store).  Read once; free with
 * fs_drafts_withdrawn_free().  NULL when there is nothing to know (no
 * state file, or one that cannot be read): nothing is withdrawn. */
struct fs_drafts_withdrawn;
struct fs_drafts_withdrawn *fs_drafts_withdrawn_load(const char *state_file, const char *dir,
						     struct fs_store *store);
bool fs_drafts_withdrawn_patch(const struct fs_drafts_withdrawn *w, const struct fs_patch *p);
void fs_drafts_withdrawn_free(struct fs_drafts_withdrawn *w);

/* Take out of D the drafts fs_drafts_save() into DIR with OPTS would
 * leave out (the patch answered in STORE, which may be NULL; the draft
 * deleted by the reviewer), counting them in *ANSWERED and *DELETED,
 * without writing, removing or indexing anything (--dry-run shows what a
 * real run would write).  Returns 0, or FS_EIO with ERR set when the
 * state file cannot be read. */
int fs_drafts_drop_skipped(struct fs_drafts *d, const char *dir, struct fs_store *store,
			   const struct fs_drafts_save_opts *opts, size_t *answered,
			   size_t *deleted, struct fs_error *err);

/* Save the drafts D into the maildir DIR (created when missing) and fill
 * *OUT.  One run at a time: the folder and the folder of the state file
 * are locked (flock(), see fs_maildir_lock()) for the whole save,
 * waiting up to FS_MAILDIR_LOCK_WAIT (fixscan/maildir.h) (then FS_ELOCKED, nothing done); a
 * killed run's leftovers in DIR/tmp are swept, its drafts noted as
 * pending are known, and database entries of drafts fixscan wrote
 * whose files are gone are removed.  *STORE is the caller's read-only store, or NULL (then DIR counts
 * as outside the mail root, and nothing counts as answered).  A draft is
 * not written when the store holds a mail From one of OPTS->own, not an
 * unsent draft, whose In-Reply-To or References name the patch it
 * answers (for the summary: whose parent is the cover): the reviewer has
 * answered.  Nor when the latest draft fixscan wrote for its key (see
 * OPTS->state_file) had the same body and is gone from DIR and from the
 * store (the reviewer deleted it), unless OPTS->force.  The state file
 * is updated with what was written.  When DIR is inside the mail root and there
 * is anything to index or remove, *STORE is closed (and set to NULL) and
 * the database opened writable for the time it takes, waiting for a lock
 * as OPTS says; what was written is indexed even when writing stopped
 * half way.
 *
 * Returns 0; or the writing error (FS_EIO) with ERR set; or the indexing
 * error (FS_ESTORE, FS_EIO).  A locked database gives FS_ELOCKED with the
 * drafts written, *OUT filled, and ERR saying "N drafts written but not
 * indexed (run again to index them): ...": the next run indexes them.
 * *OUT is filled in every case and must be cleared. */
int fs_drafts_save(struct fs_drafts_saved *out, const struct fs_drafts *d,
		   const char *dir, struct fs_store **store,
		   const struct fs_drafts_save_opts *opts, struct fs_error *err);

/* Whether the store ST holds a mail From one of OWN, not an unsent
 * draft, that answers the mail MESSAGE_ID (its In-Reply-To or References
 * name it): the reviewer has answered it, as fs_drafts_save() decides
 * for a patch.  False when ST, MESSAGE_ID or OWN is NULL. */
bool fs_drafts_answered(struct fs_store *st, const char *message_id, const char *const *own);

/* ---- the steps of the policy -------------------------------------------- */

/* What happened to one draft, with full paths. */
struct fs_draft_result {
	enum fs_draft_action action;
	char *path;        /* the file holding the draft now (new or existing) */
	char *message_id;  /* the Message-Id of that file, without <> */
	char *other;       /* REPLACED / KEPT_EDITED: the older file */
	char **stale;      /* unedited outdated drafts with the same key,
			    * removed by fs_drafts_index(); NULL-terminated
			    * (g_strfreev()), may be NULL */
	bool indexed;      /* set by fs_drafts_index() or by the caller */
};

/* Write the N drafts of D into the maildir DIR (created with cur/, new/
 * and tmp/ when missing), knowing and noting in STATE (may be NULL: then
 * only drafts of older versions with their headers are recognised) what
 * fixscan wrote.  A draft whose key already has a file in cur/
 * or new/ is handled as enum fs_draft_action says; a new file goes into
 * cur/ with the ":2,D" flag through fs_maildir_write().  *RESULTS gets one
 * entry per draft (release with fs_draft_results_free()), also when an
 * error stops the writing half way (entries not reached have a NULL
 * path).  Returns 0, or FS_EIO with ERR naming the file; no partial file
 * is ever left in cur/. */
int fs_drafts_write(struct fs_draft_result **results, const struct fs_drafts *d,
		    const char *dir, struct fs_drafts_state *state, struct fs_error *err);
void fs_draft_results_free(struct fs_draft_result *res, size_t n);

/* Mark the results whose Message-Id the store ST (read-only will do)
 * knows already as indexed.  ST may be NULL: nothing is marked. */
void fs_drafts_check_indexed(struct fs_draft_result *res, size_t n,
			     struct fs_store *st);

/* Whether fs_drafts_index() has anything to do: a draft not indexed, or
 * a stale draft to remove. */
bool fs_drafts_need_store(const struct fs_draft_result *res, size_t n);

/* Index every result that is not yet indexed into the writable store ST
 * with TAGS, then remove the stale drafts (from the database and the
 * disk).  With ST NULL (a folder outside the mail root) nothing is
 * indexed and the stale files are only removed from the disk.  Stops at
 * the first failure: FS_ESTORE / FS_EIO with ERR set. */
int fs_drafts_index(struct fs_draft_result *res, size_t n, struct fs_store *st,
		    const char *const *tags, struct fs_error *err);

#endif
