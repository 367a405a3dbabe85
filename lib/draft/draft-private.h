/* fixscan: what the draft files of lib/ share (draft-text.c): quoting,
 * wrapping and the references a sentence makes, and the tables of the
 * words of each kind (draft-para.c, draft-items.c).  Private to
 * lib/draft/ and its tests.
 *
 * Ownership: a function returning char * returns a new string (g_free());
 * a const char * is borrowed (fs_report_nn(): a static buffer); the
 * add functions append to a GString the caller owns.  Text from mail
 * goes through fs_text_clean_line() or fs_text_clean_id() first.
 */
#ifndef FIXSCAN_DRAFT_PRIVATE_H
#define FIXSCAN_DRAFT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <glib.h>

#include "fixscan/draft.h"
#include "fixscan/findings.h"
#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/text.h"

/* The width drafts are wrapped at. */
#define FSD_WRAP 72
/* Quoted reasons longer than this are cut at a sentence end. */
#define FSD_QUOTE_MAX 400

/* The name to address a person by: the display name, else the address. */
char *fsd_display_name(const char *from);

/* Append TEXT wrapped at WRAP columns (UTF-8 characters): the first line
 * starts with FIRST, the others with NEXT; a line ends with "\n".  A
 * word longer than a line (a link, a commit reference) gets a line of
 * its own and is not broken. */
void fsd_add_wrapped(GString *s, const char *first, const char *next, const char *text);

/* TEXT (one line) cut after the last sentence that ends within MAX
 * bytes, when it is longer than that: a quote ends where a sentence
 * ends, never half way.  A first sentence longer than MAX is quoted
 * whole.  A sentence ends at '.', '?' or '!' (and a closing quote or
 * bracket) followed by a space and a capital letter or digit.  New
 * string (g_free()). */
char *fsd_sentences_upto(const char *text, size_t max);

/* Append TEXT as a paragraph wrapped at WRAP columns, then a blank line. */
void fsd_add_para(GString *s, const char *text);

/* Append the words of someone else, TEXT (another mail's, a commit's),
 * in quotation marks, indented and wrapped: never as a "> " quote, which
 * is only ever a line of the mail a draft answers
 * (fsd_add_quoted_lines()). */
void fsd_add_quote(GString *s, const char *text);

/* Append, quoted ("> "), the lines of P's body that name one of the N
 * commits IDS (the upstream line, a Fixes: or prerequisite line), up to
 * the diff, in their order, a ">" line between lines apart; none named:
 * the first line of the changelog.  Each quoted line is a line of the
 * mail, only cleaned of control characters. */
void fsd_add_quoted_lines(GString *s, const struct fs_patch *p, const char *const *ids, size_t n);

/* fsd_add_para() of the text FMT and its arguments make. */
void fsd_add_paraf(GString *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* '0123456789ab ("subject")', the way a Fixes: tag names a commit. */
char *fsd_commit_ref(const char *hex, const char *subject);


/* fs_draft_compose() with EXTRA_CC (an address list, may be NULL or
 * ""): more people the reply goes to in Cc, as a reporter it cites. */
int fsd_compose(struct fs_draft *out, const struct fs_patch *orig,
		const struct fs_identity *me, const char *key, const char *label,
		const char *body, const char *extra_cc, time_t now, struct fs_error *err);

/* The patch of R whose reply asks for the missing fix HEX, so that it
 * is asked for once: the first one it fixes directly, else the first
 * that needs it; NULL when none does. */
const struct fs_review_patch *fsd_fix_asker(const struct fs_review *r, const char *hex);

/* "On <date>, <name> wrote:" for message P, wrapped. */
void fsd_add_attribution(GString *s, const struct fs_patch *p);

/* The first line of text of P's body (the cover's opening sentence). */
char *fsd_first_body_line(const struct fs_patch *p);

/* Whether F belongs in a reply: not ignored, and not about an id that a
 * clone older than the thread may just not have yet (asking the
 * maintainer to check it would be the reviewer's mistake). */
bool fsd_is_shown(const struct fs_finding *f);
/* Whether finding I of FS repeats the reply of an earlier shown finding
 * of its kind: a reply naming several commits gives a needs-also per
 * commit, and is quoted once. */
bool fsd_same_reply_earlier(const struct fs_findings *fs, size_t i);
/* The same, with COUNTS in place of fsd_is_shown(). */
bool fsd_same_reply_before(const struct fs_findings *fs, size_t i,
			   bool (*counts)(const struct fs_finding *f));

/* The first needs-also of RP that asks for commit HEX and COUNTS
 * (fsd_is_shown, or the summary's listed), or NULL: someone in the
 * thread asked for it.  The reply to RP and the summary ask the same
 * question of a posting's parts.  (draft-text.c) */
const struct fs_finding *fsd_needs_also_for(const struct fs_review_patch *rp, const char *hex,
					    bool (*counts)(const struct fs_finding *));

/* The fix-queued finding of RP for commit HEX (not ignored), or NULL. */
const struct fs_finding *fsd_queued_finding(const struct fs_review_patch *rp, const char *hex);

/* The "(a fix of ...)" note of a fix-of-a-fix: which commit of the chain
 * this one fixes, and where that one is. */
void fsd_add_chain_note(GString *s, const struct fs_review_patch *rp,
			const struct fs_finding *f, const struct fs_review *r);

/* " (CVE-2024-26921)", " (CVE-2024-1, CVE-2024-2)": the CVEs F's commit
 * fixes, when any. */
void fsd_add_cve_phrase(GString *s, const struct fs_finding *f);

/* The indented line of a commit in a list: id, subject, release. */
void fsd_add_commit_item(GString *s, const struct fs_finding *f);

/* "4.5" of "linux-4.5.y", for people. */
char *fsd_short_branch_name(const char *b);

/* review --all-open on a fix-missing: where else it is queued, and a
 * FAILED notice.  *ELSEWHERE gets the first other branch ("6.1"). */
void fsd_add_cross_note(GString *s, const struct fs_finding *f, char **elsewhere, bool *failed);

/* A new Message-Id on EMAIL's domain, as mail clients make them: the
 * time NOW and random bits, nothing of fixscan's.  New string
 * (g_free()). */
char *fsd_new_message_id(const char *email, time_t now);

/* The opening of the summary: the attribution and the cover's first
 * line, quoted.  New string ending in "\n".  (draft-summary.c) */
char *fsd_summary_quote(const struct fs_patch *cover);

/* What the summary of R says, or NULL when there is nothing to list;
 * O (may be NULL) marks the patches already answered.  New string.
 * (draft-summary.c) */
char *fsd_summary_findings(const struct fs_review *r, bool patch_replies,
			   const struct fs_draft_opts *o);

/* The whole body of a reply to ORIG: QUOTE and FINDINGS (no newline at
 * their ends) put into the template of O (or the default one), with
 * the close.  NUMBER is "03/27".  New string ending in one newline, or
 * NULL with ERR set for a bad template.  (draft-compose.c) */
char *fsd_fill_body(const struct fs_review *r, const struct fs_patch *orig,
		    const struct fs_identity *me, const struct fs_draft_opts *o,
		    const char *number, char *quote, char *findings, struct fs_error *err);

/* How a reply to a patch words its findings of one kind. */
enum fsd_para_scope {
	FS_PARA_EACH,      /* one paragraph per finding */
	FS_PARA_PATCH,     /* one paragraph for all the patch's findings of
			    * the kind (called once, F NULL) */
	FS_PARA_ALONE,     /* one per finding, only when the patch has no
			    * other finding to show */
};

/* The paragraph of a reply to patch RP for findings of one kind. */
struct fsd_para_kind {
	enum fsd_para_scope scope;
	void (*para)(GString *s, const struct fs_review *r, const struct fs_review_patch *rp,
		     const struct fs_finding *f);
};

/* The key of fixscan's reply of KIND (FSD_KIND_PATCH, "summary") to
 * ORIG: what the drafts' state file knows a draft by.  New string
 * (g_free()).  (draft.c) */
#define FSD_KIND_PATCH "patch"
char *fsd_reply_key(const char *kind, const struct fs_patch *orig);

/* Whether someone in the thread asks to drop RP (a shown objection that
 * no other paragraph quotes): its reply comes first, and requests are
 * for the case that the patch stays.  (draft-para.c) */
bool fsd_objected(const struct fs_review *r, const struct fs_review_patch *rp);

/* The row of KIND (draft-para.c); borrowed, static. */
const struct fsd_para_kind *fsd_para_kind(enum fs_finding_kind kind);

/* The kind whose reply paragraph comes at position ORDER, or -1. */
int fsd_kind_by_para_order(int order);

/* A mail named in a paragraph: its From, Date and Subject lines,
 * indented (each left out when empty); F's mail link on a line of its
 * own, then the blank line that ends the paragraph.  (draft-text.c) */
void fsd_add_mail_lines(GString *s, const char *from, const char *date, const char *subj);
void fsd_add_lore_line(GString *s, const struct fs_finding *f);

/* The paragraphs of the kinds about what lies beyond the patch, rows of
 * draft-para.c's table.  (draft-para-beyond.c) */
void fsd_para_fix_pending(GString *s, const struct fs_review *r, const struct fs_review_patch *rp,
			  const struct fs_finding *f);
void fsd_para_series_partial(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_finding *f);
void fsd_para_symbol_missing(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_finding *f);
void fsd_para_fix_not_applicable(GString *s, const struct fs_review *r,
				 const struct fs_review_patch *rp, const struct fs_finding *f);

/* Pending REF as the list knows it ("linux-next", "net's main"), and F's
 * commit marked as an id of the pending tree ('abc ("subject")
 * (linux-next id)').  New strings, cleaned.  (draft-para-beyond.c) */
char *fsd_public_ref_name(const char *ref);
char *fsd_pending_commit_ref(const struct fs_finding *f);

/* Which of two patches of the same upstream commit (RP and the one
 * duplicate-in-series F names) is not a faithful copy: 1 for RP, 2 for
 * the other, 3 for both or for two diffs that are not the same; 0 when
 * they are the same diff.  (draft-para.c) */
int fsd_duplicate_differs(const struct fs_review *r, const struct fs_review_patch *rp,
			  const struct fs_finding *f);

/* The summary item of finding F after its patch's line, or NULL when its
 * kind has none (draft-items.c).  New string. */
char *fsd_summary_item(const struct fs_review *r, const struct fs_finding *f);
/* Whether KIND has a summary item of its own. */
bool fsd_has_summary_item(enum fs_finding_kind kind);

/* The title of summary group G ("Fixes to add:"), or NULL. */
const char *fsd_group_title(enum fs_kind_group g);

#endif
