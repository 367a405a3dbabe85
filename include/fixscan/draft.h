/* fixscan: draft replies to a stable review thread.
 *
 * From a review, one reply per patch with findings and one summary reply
 * to the cover letter, each a complete RFC 5322 message built with GMime,
 * written into a maildir the reviewer's mail client reads as drafts.
 *
 * Every draft carries two headers of its own:
 *   X-Fixscan-Key     what it answers: "patch <message-id>" or
 *                     "summary <cover message-id>"
 *   X-Fixscan-Digest  a hash of the body fixscan wrote
 * so a later run finds the drafts it wrote before, and can tell the ones
 * the reviewer edited (their body no longer matches the digest) from the
 * ones it may replace.  The only file this module ever removes is a draft
 * it wrote itself whose body still matches its digest.
 *
 * Composing is pure (no I/O); writing is separate, so dry runs and tests
 * share the exact text that would be written.
 */
#ifndef FIXSCAN_DRAFT_H
#define FIXSCAN_DRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/config.h"
#include "fixscan/error.h"
#include "fixscan/mail.h"
#include "fixscan/review.h"
#include "fixscan/store.h"

/* ---- who writes -------------------------------------------------------- */

struct fs_identity {
	char *name;   /* "Rita Reviewer"; may be "" when only an address is set */
	char *email;  /* "rita@example.org" */
	const char *source; /* "notmuch config" or "git config"; static */
};
#define FS_IDENTITY_INIT { NULL, NULL, NULL }

/* Pick the identity from the values given (each may be NULL or ""):
 * notmuch's user.name / user.primary_email first, else git's user.name /
 * user.email.  The name and the address are taken from the same source
 * when it has an address.  CR, LF and other control characters are
 * removed.  Returns 0 with *OUT filled (release it with
 * fs_identity_clear()), or FS_ENOTFOUND with ERR naming the keys to set. */
int fs_identity_pick(struct fs_identity *out, const char *nm_name,
		     const char *nm_email, const char *git_name,
		     const char *git_email, struct fs_error *err);

/* The same, reading notmuch config from ST and git config from CFG
 * (either may be NULL). */
int fs_identity_lookup(struct fs_identity *out, struct fs_store *st,
		       struct fs_config *cfg, struct fs_error *err);
void fs_identity_clear(struct fs_identity *id);

/* ---- composing --------------------------------------------------------- */

enum fs_draft_mode {
	FS_DRAFTS_ALL,      /* per-patch replies and the summary */
	FS_DRAFTS_SUMMARY,  /* only the summary to the cover letter */
	FS_DRAFTS_PATCHES,  /* only the per-patch replies */
};

/* "all", "summary", "patches" (NULL means "all"); -1 for anything else. */
int fs_draft_mode_from_name(const char *name);

/* One composed draft.  Everything is owned by the draft. */
struct fs_draft {
	char *key;        /* the X-Fixscan-Key value */
	char *label;      /* for people: "003/024 netfilter: ..." */
	char *message_id; /* the draft's own id, without <> */
	char *digest;     /* the X-Fixscan-Digest value */
	char *text;       /* the whole message, LF line ends */
	size_t len;
};

/* A growing list of drafts; start with FS_DRAFTS_INIT, release with
 * fs_drafts_clear(). */
struct fs_drafts {
	struct fs_draft *v;
	size_t n;
};
#define FS_DRAFTS_INIT { NULL, 0 }
void fs_drafts_clear(struct fs_drafts *d);

/* "Re: " plus SUBJECT with any leading "Re:" (any case, repeated)
 * removed, CR/LF and other control characters turned into spaces.  New
 * string (g_free()). */
char *fs_draft_reply_subject(const char *subject);

/* The digest of a draft body: SHA-256 in hex of BODY (LEN bytes) with CRs
 * dropped and trailing white space ignored, so a body that went through a
 * transfer encoding and back still matches.  New string (g_free()). */
char *fs_draft_digest(const char *body, size_t len);

/* The body of the reply to patch RP of review R: attribution, the quoted
 * subject and upstream lines, a paragraph per finding.  NULL when RP has
 * nothing to say (no finding that is not ignored).  New string (g_free()). */
char *fs_draft_patch_body(const struct fs_review *r, const struct fs_review_patch *rp);

/* The body of the summary reply to R's cover letter, the patches with
 * findings grouped in the order a maintainer acts on them.  PATCH_REPLIES
 * says whether per-patch replies go out too (the summary then points to
 * them).  NULL when there is no cover or nothing to list. */
char *fs_draft_summary_body(const struct fs_review *r, bool patch_replies);

/* Compose a reply to ORIG from ME with BODY: To the sender, Cc the
 * original To and Cc minus ME and the sender, "Re:" subject, In-Reply-To,
 * References, a new Message-Id on ME's domain, Date NOW, and the
 * X-Fixscan-Key KEY and X-Fixscan-Digest headers.  LABEL is copied into
 * OUT->label.  Returns 0 with *OUT filled (release with
 * fs_draft_clear()), FS_EPARSE when ORIG has no Message-Id, or
 * FS_ENOMEM. */
int fs_draft_compose(struct fs_draft *out, const struct fs_patch *orig,
		     const struct fs_identity *me, const char *key,
		     const char *label, const char *body, time_t now,
		     struct fs_error *err);
void fs_draft_clear(struct fs_draft *d);

/* Compose the drafts MODE asks for from review R and append them to OUT.
 * Returns the number added (0 or more) or a negative code with ERR set. */
int fs_drafts_build(struct fs_drafts *out, const struct fs_review *r,
		    const struct fs_identity *me, enum fs_draft_mode mode,
		    time_t now, struct fs_error *err);

/* Whether the message P in file PATH (either may be NULL) is an unsent
 * draft: one fixscan wrote (it has an X-Fixscan-Key header), or a file
 * with the maildir draft flag (":2,...D...").  Reviews skip drafts: an
 * unsent reply is neither an objection nor a regression report. */
bool fs_draft_is_draft(const char *path, const struct fs_patch *p);

/* ---- writing ----------------------------------------------------------- */

/* The drafts folder: FLAG (--drafts-dir) when given, else the notmuch
 * config key fixscan.drafts, else <mail root>/Drafts.  A relative config
 * value is taken from the mail root.  ST may be NULL when FLAG is given.
 * New string (g_free()), or NULL with ERR set. */
char *fs_drafts_dir(const char *flag, struct fs_store *st, struct fs_error *err);

/* The tags a new draft gets: notmuch config fixscan.draft_tags (names
 * separated by ';'), else "draft" and "fixscan".  A NULL-terminated array
 * (g_strfreev()). */
char **fs_drafts_tags(struct fs_store *st);

enum fs_draft_action {
	FS_DRAFT_WROTE,          /* a new file */
	FS_DRAFT_UNCHANGED,      /* the draft there says the same already */
	FS_DRAFT_UNCHANGED_EDITED, /* ... and the reviewer has edited it */
	FS_DRAFT_REPLACED,       /* a new file; the outdated unedited one goes */
	FS_DRAFT_KEPT_EDITED,    /* a new file; the reviewer's edited one stays */
};

/* What happened to one draft. */
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
 * and tmp/ when missing).  A draft whose key already has a file in cur/
 * or new/ is handled as enum fs_draft_action says; a new file is written
 * to tmp/, fsynced and renamed into cur/ with the ":2,D" flag.  *RESULTS
 * gets one entry per draft (release with fs_draft_results_free()), also
 * when an error stops the writing half way (entries not reached have a
 * NULL path).  Returns 0, or FS_EIO with ERR naming the file; no partial
 * file is ever left in cur/. */
int fs_drafts_write(struct fs_draft_result **results, const struct fs_drafts *d,
		    const char *dir, struct fs_error *err);
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
