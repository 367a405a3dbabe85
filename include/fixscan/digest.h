/* fixscan: the digest of risky patches across stable review threads.
 *
 * Each series is reviewed as fixscan review does (the caller runs
 * fs_review_run()); the digest scores every patch by its findings, ranks
 * the risky ones, and can save itself as one mail in a maildir, under a
 * Message-Id made from the day and the series, so a second run the same
 * day over the same series finds it and writes nothing.
 *
 * The text and JSON layouts are fs_digest_text() and fs_digest_json()
 * (lib/report/digest-report.c), written to a stream the caller gives; the
 * weights are the table of kinds' (fixscan/kinds.h).
 *
 * Ownership: every char * returned or stored here is a GLib string
 * (g_free()); the series and reviews added to a digest are its own.
 */
#ifndef FIXSCAN_DIGEST_H
#define FIXSCAN_DIGEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/error.h"
#include "fixscan/findings.h"
#include "fixscan/mail.h"
#include "fixscan/review.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

/* ---- scoring ------------------------------------------------------------ */

/* The weight of a finding of kind K, as fixscan-digest(1) documents it
 * (keep the two in step): 16 fix-missing, missing-in-newer,
 * reverted-upstream; 8 regression-report, objection, reverted-in-stable;
 * 4 already-applied, duplicate-in-series; 2 target-absent, dep-missing;
 * 1 unknown-upstream; 0 the kinds that ask for nothing (no-upstream,
 * fixes-tag-mismatch, reverts-stable, fix-queued, fix-present). */
int fs_digest_kind_weight(enum fs_finding_kind k);
/* The weight of finding F: that of its kind, but 0 for one that asks the
 * maintainer for nothing (fs_kind_asks() false: a kind that never asks,
 * an unknown id that a clone older than the thread lacks; or a revert
 * that a revert of the revert undid), and twice that (32) for a
 * fix-missing whose fix has a CVE (F->ncves).  A patch is risky when
 * the weights of its findings add up to more than 0. */
int fs_digest_finding_weight(const struct fs_finding *f);

/* The score of patch RP: the sum of the weights of its findings that are
 * not ignored.  The patch is risky when this is above zero. */
int fs_digest_patch_score(const struct fs_review_patch *rp);

/* A deadline as the mails give it: "2016-04-17T01:44+00:00"
 * (X-KernelTest-Deadline) or an RFC 5322 date (the cover's "Responses
 * should be made by ...").  0 for NULL or anything else. */
time_t fs_digest_parse_deadline(const char *s);

/* The mail that stands for a series: its cover, else its first patch;
 * NULL for neither.  Borrowed. */
const struct fs_patch *fs_digest_anchor(const struct fs_thread_series *s);

/* ---- the digest --------------------------------------------------------- */

/* One series of the digest. */
struct fs_digest_series {
	const struct fs_thread_series *s; /* borrowed from the caller's thread */
	struct fs_review *r;              /* owned; NULL when not reviewed */
	char *error;                      /* why not (g_free()), or NULL */
	time_t deadline;                  /* 0: none or unreadable */
	size_t risky;                     /* its patches scoring above 0 */
};

/* One risky patch. */
struct fs_digest_risky {
	size_t series;                    /* index into fs_digest.series */
	const struct fs_review_patch *rp; /* borrowed from that series' review */
	int score;
};

/* Start with FS_DIGEST_INIT, release with fs_digest_clear(). */
struct fs_digest {
	struct fs_digest_series *series;
	size_t nseries;
	struct fs_digest_risky *risky;    /* ranked by fs_digest_rank() */
	size_t nrisky;
	/* The series left out because a later round of their branch is
	 * here (borrowed from the caller's threads), and those branches
	 * (g_free()'d by fs_digest_clear()). */
	const struct fs_thread_series **superseded;
	char **superseded_branch;
	size_t nsuperseded;
};
#define FS_DIGEST_INIT { .series = NULL }
void fs_digest_clear(struct fs_digest *d);

/* Add series S with its review R, which D takes over, and R's patches
 * that score above zero as risky ones.  With R NULL the series is listed
 * as not reviewed, ERROR saying why (copied). */
void fs_digest_add(struct fs_digest *d, const struct fs_thread_series *s,
		   struct fs_review *r, const char *error);

/* Series S, of BRANCH, left out: a later round supersedes it. */
void fs_digest_superseded(struct fs_digest *d, const struct fs_thread_series *s,
			  const char *branch);

/* Rank the risky patches: highest score first; among equals the sooner
 * deadline (a known one before none), then the order the series were
 * added in, then the patch number. */
void fs_digest_rank(struct fs_digest *d);

/* The identity of the digest: "<local day YYYYMMDD>-<16 hex digits>",
 * the hex a hash of the Message-Ids of the series' anchors, sorted, so
 * the same series the same day give the same key.  New string (g_free()). */
char *fs_digest_key(const struct fs_digest *d, time_t now);

/* ---- the mail ----------------------------------------------------------- */

/* The digest as a whole message from and to NAME <EMAIL>, with SUBJECT,
 * Message-Id MSGID (without <>), Date NOW, an X-Fixscan-Digest header
 * holding MSGID, and BODY as UTF-8 text (control characters other than
 * tab and LF dropped).  LF line ends.  New string (g_free()). */
char *fs_digest_compose(const char *body, const char *msgid, const char *name,
			const char *email, const char *subject, time_t now);

/* Where and as whom fs_digest_save() writes; the caller resolves the
 * config. */
struct fs_digest_mail {
	const char *folder; /* fixscan.digestFolder: absolute, or from the mail
			     * root; NULL: <mail root>/INBOX */
	const char *name;   /* user.name; NULL: "fixscan" */
	const char *email;  /* user.primary_email; NULL: <login>@localhost */
	double lock_wait;   /* seconds to wait for a locked database */
	const char *state_file; /* where the day of the last digest mail is
				 * remembered (fs_digest_mailed_today());
				 * NULL: nowhere */
};
#define FS_DIGEST_MAIL_INIT { .lock_wait = 5.0 }

/* Whether the state file PATH says a digest mail went out on the local
 * day of NOW; *MSGID (may be NULL) gets its Message-Id (g_free()).  A
 * missing or unreadable file says no. */
bool fs_digest_mailed_today(const char *path, time_t now, char **msgid);

/* Remember in the state file PATH that the digest MSGID was mailed on
 * the day of NOW: written to a temporary file renamed over it, the
 * directory created (0700) when missing.  Returns 0 or FS_EIO. */
int fs_digest_note_mailed(const char *path, time_t now, const char *msgid,
			  struct fs_error *err);

/* Save D, whose text is BODY, as one mail in new/ of the digest folder,
 * indexed with the tags fixscan-digest, inbox and unread: once per day
 * and set of series (fs_digest_key()).  A digest the database has
 * already is left alone; one in the folder but not in the database (an
 * earlier run could not index it) is indexed, not written again.  *STORE
 * is the caller's read-only store: when there is anything to write or
 * index it is closed (set to NULL) and the database opened writable for
 * the time it takes.  The strings of M may be borrowed from *STORE.  Returns 0, or FS_EIO,
 * FS_ESTORE, FS_ELOCKED with ERR set (for a written file that could not
 * be indexed, saying so).  With M->state_file, the day is remembered
 * (fs_digest_note_mailed()) once the digest is in the database. */
int fs_digest_save(const struct fs_digest *d, const char *body, struct fs_store **store,
		   const struct fs_digest_mail *m, time_t now, struct fs_error *err);

/* The digest D of the threads since SINCE as text on OUT: the series,
 * then the risky patches with their finding lines (fs_report_finding_line())
 * and lore links, unwrapped and as the mail has it (lib/report/digest-report.c).
 * CLOCK is this machine's time SINCE was counted back from (--since 1d),
 * said beside it: the window is the one thing of a digest that depends on
 * the local clock; 0 when SINCE was a date given. */
void fs_digest_text(FILE *out, const struct fs_digest *d, time_t since, time_t clock);
/* D as one JSON object on one line (fixscan-digest(1)); QUERY is the
 * notmuch query used (may be NULL); CLOCK as for fs_digest_text().
 * Returns 0 or -1. */
int fs_digest_json(FILE *out, const struct fs_digest *d, time_t since, time_t clock,
		   const char *query);

#endif
