/* fixscan: draft replies to a stable review thread.
 *
 * From a review, one reply per patch with findings and one summary reply
 * to the cover letter, each a complete RFC 5322 message built with GMime,
 * written into a maildir the reviewer's mail client reads as drafts.
 *
 * Nothing fixscan-internal goes into a draft: the reviewer sends it to a
 * public list under their own name: its Message-Id is an ordinary one
 * (the time and random bits).  What a draft answers (its key: "patch
 * <message-id>" or "summary <cover message-id>") and the hash of the
 * body as written (its digest) are remembered by fixscan/drafts.h, by
 * its Message-Id, so a later run finds the drafts it wrote and can tell
 * the ones the reviewer edited from the ones it may replace.  (Drafts of
 * older versions carried the key in their Message-Id, "fixscan." and
 * fs_draft_id_prefix(), or in X-Fixscan-Key and X-Fixscan-Digest
 * headers; they are still read.)
 * The only file ever removed is a draft fixscan wrote itself whose body
 * still matches its digest.
 *
 * Composing is pure (no I/O); saving is fixscan/drafts.h, so dry runs
 * and tests share the exact text that would be written.  The words of
 * each finding kind are the table of kinds' (fixscan/kinds.h); the code
 * is in lib/draft/draft.c (which drafts, the reply to a patch), draft-summary.c,
 * draft-compose.c (GMime), draft-id.c (subjects, Message-Ids) and
 * draft-text.c (quoting and wrapping).
 *
 * Ownership: every char * returned, and every string in a struct fs_draft,
 * is a GLib string (g_free()); the review and the patches are borrowed.
 */
#ifndef FIXSCAN_DRAFT_H
#define FIXSCAN_DRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/error.h"
#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/review.h"

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
	char *key;        /* what it answers: "patch <message-id>" ... */
	char *label;      /* for people: "003/024 netfilter: ..." */
	char *message_id; /* the draft's own id, without <> */
	char *digest;     /* fs_draft_digest() of the body */
	char *text;       /* the whole message, LF line ends */
	size_t len;
};

/* A growing list of drafts; start with FS_DRAFTS_INIT, release with
 * fs_drafts_clear(). */
struct fs_drafts {
	struct fs_draft *v;
	size_t n;
};
#define FS_DRAFTS_INIT { .v = NULL }
void fs_drafts_clear(struct fs_drafts *d);

/* "Re: " plus SUBJECT with any leading "Re:" (any case, repeated)
 * removed, CR/LF and other control characters turned into spaces.  New
 * string (g_free()). */
char *fs_draft_reply_subject(const char *subject);

/* The digest of a draft body: SHA-256 in hex of BODY (LEN bytes) with CRs
 * dropped and trailing white space ignored, so a body that went through a
 * transfer encoding and back still matches.  New string (g_free()). */
char *fs_draft_digest(const char *body, size_t len);

/* "fixscan.<12 hex digits of a hash of KEY>.": how the Message-Id of
 * every draft answering KEY started in earlier versions (new drafts have
 * an ordinary Message-Id).  New string (g_free()). */
char *fs_draft_id_prefix(const char *key);

/* The body of the reply to patch RP of review R: attribution, the lines
 * of its mail the reply speaks of, quoted (the upstream line, a Fixes:
 * or prerequisite line; never the subject), a paragraph per finding.  NULL when RP has
 * nothing to say (no finding that is not ignored).  New string (g_free()). */
char *fs_draft_patch_body(const struct fs_review *r, const struct fs_review_patch *rp);

/* The body of the summary reply to R's cover letter, the patches with a
 * finding that asks for action (fs_draft_finding_asks()) grouped in the
 * order a maintainer acts on them.  PATCH_REPLIES
 * says whether per-patch replies go out too (the summary then points to
 * them).  NULL when there is no cover or nothing to list. */
char *fs_draft_summary_body(const struct fs_review *r, bool patch_replies);

/* Compose a reply to ORIG from ME with BODY: To the sender, Cc the
 * original To and Cc minus ME and the sender (an address that does not
 * parse is left out; without a sender to answer, the first of the others
 * is the To), "Re:" subject, In-Reply-To,
 * References, a new ordinary Message-Id on ME's domain, and Date NOW.  LABEL is copied into
 * OUT->label.  Returns 0 with *OUT filled (release with
 * fs_draft_clear()), FS_EPARSE when ORIG has no Message-Id or no
 * address that parses, or FS_ENOMEM. */
int fs_draft_compose(struct fs_draft *out, const struct fs_patch *orig,
		     const struct fs_identity *me, const char *key,
		     const char *label, const char *body, time_t now,
		     struct fs_error *err);
void fs_draft_clear(struct fs_draft *d);

/* How fs_drafts_build_opts() writes the drafts.  The caller resolves
 * the config (fixscan.signature, fixscan.draftTemplate) and passes the
 * texts in; nothing here reads a file.  Start with FS_DRAFT_OPTS_INIT. */
struct fs_draft_opts {
	enum fs_draft_mode mode;
	bool every_finding;     /* a reply for every patch with a finding */
	time_t now;             /* the Date of the drafts */
	const char *signature;  /* the text of the signature file, ending the
				 * drafts after "Thanks,"; NULL or "": the
				 * reviewer's name */
	const char *template_text; /* a draft template (see
				    * fs_draft_template_check()); NULL: the
				    * default one: the quote, the findings,
				    * "Thanks," and ${signature} */
	/* Whether the reviewer has answered patch P already (a sent reply
	 * of theirs): the summary marks it "(already answered)".  NULL:
	 * nothing is marked. */
	bool (*answered)(void *data, const struct fs_patch *p);
	void *answered_data;
	/* Whether the reviewer withdrew fixscan's reply to patch P (deleted
	 * its draft, sent nothing): the other replies neither point to it
	 * ("which I asked for in my reply to 21/27") nor leave to it what it
	 * asked for; its own draft is made as before.  NULL: none is. */
	bool (*withheld)(void *data, const struct fs_patch *p);
	void *withheld_data;
};
#define FS_DRAFT_OPTS_INIT { .mode = FS_DRAFTS_ALL }

/* Check the draft template TMPL: text with ${quote} (the attribution and
 * the quoted lines), ${findings} (what fixscan has to say; required),
 * ${greeting} ("Hi Greta,"), ${name} and ${email} (the reviewer),
 * ${signature} (the signature text, else ${name}), ${subject} (of the
 * mail answered), ${author} (its sender's name), ${patch} ("03/27",
 * "00/27" for the summary) and ${branch}; "$$" is a dollar sign.
 * Returns 0, or FS_EUSAGE with ERR naming the line and the unknown
 * variable (or the missing ${findings}). */
int fs_draft_template_check(const char *tmpl, struct fs_error *err);

/* Compose the drafts O->mode asks for from review R and append them to
 * OUT: a per-patch reply only for a patch with a finding that asks for
 * action (fs_draft_finding_asks()), or with any finding when
 * O->every_finding.  Each body is the template filled in, ending with
 * the close ("Thanks," and the signature or the name); its lines are
 * wrapped at 72 columns, but for quoted lines, a commit reference longer
 * than a line (alone on its line) and links.  A missing fix is asked
 * for in one reply (to the patch it fixes directly, or the first), the
 * others point to it; in the summary, a commit to queue is named once,
 * with every patch that needs it.  The reporter of a regression and the
 * author of a reply a draft cites are in its Cc.  Returns the number
 * added (0 or more) or a negative code with ERR set: FS_EUSAGE for a bad
 * template; FS_EPARSE when a mail could not be answered (no Message-Id,
 * no address that parses): its draft is left out, the others are in
 * OUT. */
int fs_drafts_build_opts(struct fs_drafts *out, const struct fs_review *r,
			 const struct fs_identity *me, const struct fs_draft_opts *o,
			 struct fs_error *err);

/* fs_drafts_build_opts() with the default template and close, MODE,
 * EVERY_FINDING and NOW. */
int fs_drafts_build(struct fs_drafts *out, const struct fs_review *r,
		    const struct fs_identity *me, enum fs_draft_mode mode,
		    bool every_finding, time_t now, struct fs_error *err);

/* Whether finding F asks the maintainer to act, and so earns a reply of
 * its own: a fix to queue, a revert upstream, a duplicate to drop, a
 * missing prerequisite, a report or objection to answer, a fix for a bug
 * the branch never had, an id that does not resolve in an up-to-date
 * clone, a stable-only revert elsewhere.  Not: a fix present or queued,
 * an undone revert, the upstream commit's own Fixes: tag, the
 * maintainer's own stable revert, a missing upstream line. */
bool fs_draft_finding_asks(const struct fs_finding *f);

#endif
