/* fixscan: one session, what every command reviews with.
 *
 * As notmuch has notmuch_database_t: one object opens and owns the kernel
 * repository's configuration, the ignore file, the stable branch names of
 * fixscan.<version>.branch, the notmuch store, the fixes index, the CVE
 * data and the user's addresses and identity, and hands out complete
 * review options.  A command parses its options into fs_session_opts,
 * opens what it needs in this order -- fs_session_open(), then
 * fs_session_open_store(), then fs_session_open_index() -- reviews with
 * fs_session_review() and prints.
 *
 * Ownership: the session owns everything it opens; the accessors lend it
 * (valid until fs_session_free()).  Every char * the session returns is
 * new (g_free()).  The strings of fs_session_opts are borrowed: they must
 * outlive the session.  Notes (things worth saying that stopped nothing)
 * are appended to a struct fs_review_notes the caller owns and prints.
 */
#ifndef FIXSCAN_SESSION_H
#define FIXSCAN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/config.h"
#include "fixscan/crossbranch.h"
#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/error.h"
#include "fixscan/identity.h"
#include "fixscan/ignore.h"
#include "fixscan/index.h"
#include "fixscan/review.h"
#include "fixscan/source.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "fixscan/vulns.h"

struct fs_session;

struct fs_session_opts {
	const char *repo;     /* the kernel repository; required */
	const char *ignore;   /* --ignore; NULL: fixscan.ignore, else
			       * $XDG_CONFIG_HOME/fixscan/ignore */
	const char *vulns;    /* --vulns; NULL: fixscan.vulns */
	/* --branch, --base, --no-reports; the session fills in the rest */
	struct fs_review_opts review;
	/* --no-update, --rebuild, the progress callback; the session fills
	 * in the repository and the refs (fixscan.mainline, fixscan.stable) */
	struct fs_index_opts index;
	/* told when drafts wait for the notmuch database's lock (may be NULL) */
	const struct fs_store_waiting *store_waiting;
	/* --no-lore: the mail archives (fixscan.lore) are not searched */
	bool no_lore;
};
#define FS_SESSION_OPTS_INIT { .review = FS_REVIEW_OPTS_INIT, .index = FS_INDEX_OPTS_INIT }

/* Open a session on O->repo: its config over the global one (the global
 * one alone when the repository cannot be read: the index says why,
 * better), the ignore file, fixscan.<version>.branch, fixscan.mainline
 * and fixscan.stable.  Returns 0 with *OUT set (fs_session_free()), or a
 * negative code with ERR set. */
int fs_session_open(struct fs_session **out, const struct fs_session_opts *o,
		    struct fs_error *err);
void fs_session_free(struct fs_session *s);

/* The notmuch store, read-only.  With OPTIONAL, a store that cannot be
 * opened (other than for a lock) is left out and 0 returned.  Either way
 * the user's addresses (notmuch user.primary_email and user.other_email,
 * git user.email) go into the review options: their mail is no
 * evidence. */
int fs_session_open_store(struct fs_session *s, bool optional, struct fs_error *err);

/* The CVE data (fixscan.vulns or O->vulns), when one is named: a note on
 * its cache goes to NOTES (may be NULL).  fs_session_open_index() calls
 * it first. */
int fs_session_open_vulns(struct fs_session *s, struct fs_review_notes *notes,
			  struct fs_error *err);

/* The CVE data of the kernel CNA's vulns clone named by FLAG (--vulns),
 * else by fixscan.vulns in CFG (NULL: REPO's config over the global
 * one), for a command that opens no session: *OUT stays NULL, and no
 * file is opened, when neither names one (an empty fixscan.vulns names
 * none).  A note on the cache goes to NOTES (may be NULL). */
int fs_session_vulns_at(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
			const char *repo, struct fs_review_notes *notes, struct fs_error *err);

/* The fixes index, built or updated as needed (the CVE data first: a
 * wrong fixscan.vulns fails before the index takes its time), the
 * mainline tip's time for the stale-clone check and the reader of commit
 * messages.  What the index said of itself is in
 * fs_session_index_stats(). */
int fs_session_open_index(struct fs_session *s, struct fs_review_notes *notes,
			  struct fs_error *err);

/* What the session holds (NULL when not opened), lent. */
const char *fs_session_repo(const struct fs_session *s);
struct fs_config *fs_session_config(const struct fs_session *s);
struct fs_store *fs_session_store(const struct fs_session *s);
const struct fs_index *fs_session_index(const struct fs_session *s);
const struct fs_index_stats *fs_session_index_stats(const struct fs_session *s);
const struct fs_ignore *fs_session_ignore(const struct fs_session *s);
/* The index options, for the caller to set the progress callback before
 * fs_session_open_index(). */
struct fs_index_opts *fs_session_index_opts(struct fs_session *s);
/* The store's slot, for the savers that close the read-only store to
 * write (fs_digest_save()); the session frees what is left in it. */
struct fs_store **fs_session_store_slot(struct fs_session *s);
/* The first search of the mail archives (fixscan.lore) that failed
 * this session (lore cannot be reached, a hostile answer, a cache file
 * that cannot be written), lent, or NULL when none did; *NFAILED (may be
 * NULL) gets how many did.  When the archives could not be searched at
 * all (no cache directory), why, and *NFAILED 0.  What the command says
 * once, at the end. */
const char *fs_session_lore_failure(const struct fs_session *s, size_t *nfailed);

/* The complete review options; the caller may still change the flags
 * (branch, base, no_reports). */
struct fs_review_opts *fs_session_review_opts(struct fs_session *s);

/* The notmuch config value of KEY ("fixscan.draftTags"), or of OLD_KEY
 * (may be NULL), its name before keys followed git's style, with a note
 * that says to rename it.  Lent by the store; NULL without one. */
const char *fs_session_store_config(const struct fs_session *s, const char *key,
				    const char *old_key, struct fs_review_notes *notes);

/* Who the drafts are from: notmuch's user.name and user.primary_email,
 * else git's user.name and user.email (fs_identity_pick()). */
int fs_session_identity(const struct fs_session *s, struct fs_identity *out,
			struct fs_error *err);

/* ---- drafts ------------------------------------------------------------- */

/* Prepare the drafts of this run: MODE, EVERY (--drafts-for) and NOW; the
 * texts of the files fixscan.signature and fixscan.draftTemplate name
 * (the template checked); whether a patch was answered, asked of the
 * store.  Returns 0, or FS_EIO / FS_EUSAGE with ERR naming the file. */
int fs_session_prepare_drafts(struct fs_session *s, int mode, bool every, time_t now,
			      struct fs_error *err);
/* The drafts go to the maildir DIR this run: a reply the reviewer
 * withdrew there (fs_drafts_withdrawn_patch()) is one the other drafts
 * do not lean on, unless FORCE (--force brings deleted drafts back).
 * Call after fs_session_prepare_drafts(). */
void fs_session_drafts_folder(struct fs_session *s, const char *dir, bool force);
/* The options fs_session_prepare_drafts() made; the caller may change
 * the mode between reviews (check: the reply to one patch). */
struct fs_draft_opts *fs_session_draft_opts(struct fs_session *s);

/* Write the drafts DL into the maildir DIR (fs_drafts_save(), tagged
 * with fixscan.draftTags), with the state file and the user's addresses
 * of the session, FORCE (--force) writing again the drafts the user
 * deleted.  SAVED says what became of each (fs_drafts_saved_clear());
 * NOTES gets a renamed config key.  The store may be closed here. */
int fs_session_write_drafts(struct fs_session *s, const struct fs_drafts *dl, const char *dir,
			    bool force, struct fs_drafts_saved *saved,
			    struct fs_review_notes *notes, struct fs_error *err);

/* What --dry-run shows is what a write into DIR would do: the drafts of
 * DL that a write would leave out (the patch answered, the draft
 * deleted) are taken out, counted in SAVED->answered and SAVED->deleted. */
int fs_session_drop_skipped(struct fs_session *s, struct fs_drafts *dl, const char *dir,
			    bool force, struct fs_drafts_saved *saved, struct fs_error *err);

/* "draft: skipped N you answered already, M you deleted (--force ...)"
 * for SAVED, without a newline; NULL when none was.  New string. */
char *fs_session_skipped_text(const struct fs_drafts_saved *saved);

/* $XDG_STATE_HOME/fixscan/NAME, else ~/.local/state/fixscan/NAME; NULL
 * with neither.  New string (g_free()). */
char *fs_session_state_path(const char *name);

/* ---- reviewing a set of series (lib/review-set.c) ----------------------- */

enum fs_review_set_mode {
	/* Every series, each handed over as it is reviewed. */
	FS_SET_EACH,
	/* review --all-open: the series open at NOW or arrived since SINCE;
	 * those a later review of their branch supersedes left out (said
	 * in a note); sorted by branch; the cross-branch findings and the
	 * matrix added (an error there ends the review). */
	FS_SET_OPEN,
	/* digest: every series but those a later review of their branch
	 * supersedes (said to SUPERSEDED); the cross-branch findings added (an
	 * error there goes to FAILED with S NULL, and the reviews are
	 * handed over without them). */
	FS_SET_CROSS,
};

struct fs_review_set {
	struct fs_thread **threads; /* from the source stage */
	size_t nthreads;
	enum fs_review_set_mode mode;
	time_t now, since;          /* FS_SET_OPEN */
	bool no_store;              /* judge without the store (a message
				     * that is not in it) */
	bool lone_covers;           /* a cover letter without patches is a
				     * failure (FS_ENOTFOUND) */
	bool patchless_replies;     /* ...unless replies answer the series
				     * (the patch mails absent from a
				     * partial fetch): then it is reviewed
				     * for what they say, said in a note */
};

struct fs_review_set_cbs {
	void *data;
	/* Whether to review S (NULL: every series with patches). */
	bool (*want)(void *data, const struct fs_thread_series *s);
	/* Right after each review, in the order of the threads (the
	 * progress: the stale-clone notice). */
	void (*reviewed)(void *data, const struct fs_review *r);
	/* S could not be reviewed (S NULL: the cross-branch step). */
	void (*failed)(void *data, const struct fs_thread_series *s, const struct fs_error *err);
	/* A note: "4.4.7-rc1: superseded by a later review ...". */
	void (*note)(void *data, const char *text);
	/* Series S, left out: a later round of its branch BRANCH supersedes
	 * it.  NULL: said through NOTE. */
	void (*superseded)(void *data, const struct fs_thread_series *s, const char *branch);
	/* FS_SET_OPEN: the reviews (sorted) and their matrix, once, before
	 * the first REVIEW call; also when there are none. */
	void (*open)(void *data, struct fs_review *const *v, size_t n,
		     const struct fs_cross_matrix *matrix);
	/* A review to report.  R is the callback's (fs_review_free()), but
	 * R->matrix only lives until fs_session_review() returns.  Returns
	 * 0 to go on, 1 to stop there, or a negative code (ERR set) to stop
	 * with it. */
	int (*review)(void *data, const struct fs_thread_series *s, struct fs_review *r,
		      struct fs_error *err);
};

/* Review the series of SET->threads as SET->mode says, with the index,
 * store and options of session S.  The one place fs_review_run() is
 * called.  A series that cannot be reviewed goes to CB->failed and the
 * others go on.  Returns 0, or the negative code of CB->review or of the
 * cross-branch step (FS_SET_OPEN) with ERR set. */
int fs_session_review(struct fs_session *s, const struct fs_review_set *set,
		      const struct fs_review_set_cbs *cb, struct fs_error *err);

/* The threads of the messages of the store dated SINCE or later that
 * match BASE (a notmuch query of the user's, such as fixscan.digestQuery)
 * or, when BASE is NULL, are stable patches, as a query "thread:A OR
 * thread:B ...", or NULL in *OUT when there is none (g_free()).  The
 * user's own mail does not count: a day of their drafts makes no old
 * thread new. */
int fs_session_stable_threads_query(const struct fs_session *s, const char *base,
				    time_t since, char **out, struct fs_error *err);
/* Likewise for the threads that may be open at NOW (mail of the last 30
 * days) or arrived since SINCE (0: none). */
int fs_session_open_query(const struct fs_session *s, time_t now, time_t since, char **out,
			  struct fs_error *err);

#endif
