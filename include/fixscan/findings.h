/* fixscan: what is known to be wrong with one stable patch.
 *
 * A pure module: a patch's changelog tags, the fixes index, the rest of
 * its series and the mail store's answers go in; findings come out.  No
 * I/O, so every case can be tested on hand-built inputs.
 */
#ifndef FIXSCAN_FINDINGS_H
#define FIXSCAN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/csyms.h"
#include "fixscan/diffcmp.h"
#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/ignore.h"
#include "fixscan/mentions.h"
#include "fixscan/pending.h"
#include "fixscan/trailers.h"
#include "fixscan/vulns.h"

enum fs_finding_kind {
	FS_FIND_FIX_MISSING,       /* a fix or revert upstream, not in branch nor series */
	FS_FIND_FIX_QUEUED,        /* such a fix is another patch of this series */
	FS_FIND_FIX_PRESENT,       /* such a fix is in the branch already */
	FS_FIND_REVERTED_UPSTREAM, /* mainline reverted the upstream commit */
	FS_FIND_ALREADY_APPLIED,   /* the upstream commit is in the branch already */
	FS_FIND_TARGET_ABSENT,     /* the commit it fixes is not in the branch */
	FS_FIND_NO_UPSTREAM,       /* no upstream reference at all */
	FS_FIND_UNKNOWN_UPSTREAM,  /* an upstream id the index does not know */
	FS_FIND_REGRESSION_REPORT, /* a mail reports a regression with it */
	FS_FIND_DEP_MISSING,       /* a named prerequisite is missing, or the
				    * patch it is a dependency of is */
	FS_FIND_FIXES_TAG_MISMATCH,/* a Fixes: id that does not match its subject
				    * or names a stable commit */
	FS_FIND_REVERTS_STABLE,    /* the patch reverts a commit of the branch */
	FS_FIND_OBJECTION,         /* a reply in the thread objects to it */
	FS_FIND_REVERTED_IN_STABLE,/* another stable branch reverted its own
				    * backport of the upstream commit */
	FS_FIND_DUPLICATE_IN_SERIES,/* an earlier patch of the series carries
				    * the same upstream commit */
	FS_FIND_MISSING_IN_NEWER,  /* queued here, but a newer maintained
				    * stable branch neither has nor queues it
				    * (crossbranch module) */
	FS_FIND_NEEDS_ALSO,        /* a reply asks for other commits with it */
	FS_FIND_REPLACEMENT_POSTED,/* a reply carries a replacement backport */
	FS_FIND_REPLY,             /* a human reply of no other class (advisory) */
	FS_FIND_BACKPORT_DIFFERS,  /* the patch's diff is not its upstream
				    * commit's, and the changelog does not
				    * say why (diffcmp module) */
	FS_FIND_FIX_PENDING,       /* a fix or revert of it is posted (or in a
				    * pending tree) but not in mainline yet */
	FS_FIND_SERIES_PARTIAL,    /* other parts of the upstream commit's
				    * posting are in mainline, neither in the
				    * branch nor in this series (advisory) */
	FS_FIND_SYMBOL_MISSING,    /* the patch uses names the branch's tree
				    * has nowhere: it cannot build (treecheck
				    * module) */
	FS_FIND_FIX_NOT_APPLICABLE,/* a mainline fix that changes only files
				    * the branch lacks (advisory, in place of
				    * fix-missing) */
	FS_FIND_DIFF_ABSENT,       /* the patch mail carries no diff: its code
				    * was neither compared nor checked
				    * (advisory) */
	FS_FIND_KIND_COUNT
};

/* The names and the problem flag below are read from the table of kinds
 * (fixscan/kinds.h, lib/review/kinds.c), as is everything else a kind is.
 * "fix-missing", "fix-queued", ... as used in text and JSON. */
const char *fs_finding_kind_name(enum fs_finding_kind kind);
/* The kind named NAME, or -1. */
int fs_finding_kind_from_name(const char *name);
/* Whether a finding of KIND asks the reviewer to act (everything but
 * fix-present and fix-queued, which only say a fix is there). */
bool fs_finding_kind_is_problem(enum fs_finding_kind kind);

/* Why a finding names its commit: what that commit is to the patch.
 * Drafts and reports choose their words by it, never by the note. */
enum fs_finding_cause {
	FS_CAUSE_NONE = 0,
	FS_CAUSE_FIX,              /* a mainline Fixes: (or a fix of a fix) */
	FS_CAUSE_REVERT,           /* a mainline revert (an odd chain of them) */
	FS_CAUSE_REVERT_OF_REVERT, /* reverted, then applied again by a revert
				    * of the revert: nothing to queue */
	FS_CAUSE_STABLE_FIX,       /* a stable-only fix of another branch */
	FS_CAUSE_STABLE_REVERT,    /* a stable-only revert */
	FS_CAUSE_PREREQUISITE,     /* Cc: stable # ...: X: prerequisite */
	FS_CAUSE_STABLE_DEP_OF,    /* Stable-dep-of: X */
	FS_CAUSE_DUPLICATE,        /* the same commit is there already */
	FS_CAUSE_AMBIGUOUS,        /* an id that names several commits */
	FS_CAUSE_NOT_FOUND,        /* an id the repository does not have */
	FS_CAUSE_NOT_IN_CLONE,     /* likewise, but the clone is older than the
				    * thread: the id may just be too new */
	FS_CAUSE_TARGET,           /* the commit a Fixes: tag names */
	FS_CAUSE_REVERT_TARGET,    /* the commit a revert reverts */
	FS_CAUSE_SUBJECT_MISMATCH, /* a Fixes: id whose subject is another's */
	FS_CAUSE_STABLE_ID,        /* a Fixes: id that names a stable commit */
	FS_CAUSE_FIX_REVERTED,     /* reverted-upstream: COMMIT fixes the patch,
				    * but mainline reverted it (reverted_commit)
				    * and did not apply it again: nothing to queue */
	FS_CAUSE_SUBJECT_AUTHOR,   /* unknown-upstream / no-upstream: the id as
				    * written (written) names no commit, or there
				    * is none; the patch's subject and author are
				    * those of COMMIT, one mainline commit */
	FS_CAUSE_UNREADABLE,       /* diff-absent: the mail's text could not be
				    * read (a damaged encoding) */
	FS_CAUSE_COUNT
};

/* How a finding's commit was matched.  The names are those of the JSON
 * "evidence" field. */
enum fs_finding_evidence {
	FS_FEV_EXACT = 0,  /* "exact": all 40 digits, or ancestry */
	FS_FEV_PREFIX,     /* "prefix": an abbreviated id */
	FS_FEV_SUBJECT,    /* "subject": the quoted subject decided */
	FS_FEV_STABLE,     /* "stable": through a stable backport's id */
	FS_FEV_REVERT,     /* "revert": a "This reverts commit" line */
	FS_FEV_MAIL,       /* "mail": a mail of the thread or the store */
	FS_FEV_CVE,        /* "cve": the kernel CNA's record of a CVE names
			    * the upstream commit as the one that introduced
			    * the bug COMMIT fixes (no Fixes: tag says so) */
	FS_FEV_COUNT
};

/* "fix", "revert", "revert-of-revert", ... as used in JSON. */
const char *fs_finding_cause_name(enum fs_finding_cause cause);
const char *fs_finding_evidence_name(enum fs_finding_evidence ev);

/* series-partial: one other part of the posting the patch's upstream
 * commit was applied from (fixscan/posting.h). */
struct fs_finding_part {
	char commit[41];  /* the mainline commit applied from it, full id */
	char *subject;
	char *release;    /* its first release, or NULL */
	unsigned part;    /* the number of its mail in the posting */
	unsigned total;   /* M when the posting's cover is known, else 0 */
};

/* Another open thread that queues a finding's commit. */
struct fs_finding_queued {
	char *branch;      /* "linux-4.5.y" */
	char *release;     /* "4.5.3-rc1", or NULL (an "added" notice) */
	int index, total;  /* NN/MM, or -1 for an "added" notice */
	char *message_id;  /* the patch mail or the notice */
};

/* The mail a finding cites: a regression report, a reply in the
 * thread, a posted fix. */
struct fs_finding_mail {
	char *message_id;  /* its Message-Id without <>, or NULL */
	char *from;        /* its From, or NULL */
	char *date;        /* its Date as the mail writes it, or NULL */
	char *link;        /* where the archive searched (fixscan.lore) has
			    * it: BASE<message-id>/; NULL for a mail known
			    * only from the store or the thread */
	/* A reply among the series findings: the number of the announced
	 * patch whose mail is absent that it answers or names
	 * (fs_objection.absent_index); else 0. */
	int absent_index;
	/* A reply in an earlier round's thread: that round's release
	 * ("4.4.7-rc1"); NULL for this round's */
	char *round;
	bool own;          /* the user's own (fs_objection.own) */
	bool unkept;       /* a drop promised there, not kept here
			    * (fs_objection.unkept) */
};

/* The reverts around a finding's commit; every member NULL when none. */
struct fs_finding_revert {
	/* The revert that undid COMMIT where it was: fix-missing, a fix the
	 * branch had (stable_commit) and reverted; reverted-in-stable, the
	 * patch's own commit, which this branch had and reverted;
	 * reverted-upstream with cause fix-reverted, mainline's revert of
	 * the fix.  Full id and its release. */
	char *commit;
	char *release;
	/* reverted-upstream with cause revert-of-revert: the revert of the
	 * revert that applied the commit again (full id), its release */
	char *reapplied_commit;
	char *reapplied_release;
	/* reverted-in-stable: the first paragraph of the revert's
	 * changelog, when the caller could read it
	 * (fs_findings_ctx.message) */
	char *reason;
};

/* What the other open branches say of a finding (the crossbranch
 * module, review --all-open and the digest); zero when not asked. */
struct fs_finding_branches {
	char *newer_branch;       /* missing-in-newer: the newer branch Y */
	char *newer_release;      /* the release Y's open thread reviews, or
				   * NULL when Y has no open thread */
	char *newer_last_release; /* Y's last release before this thread */
	bool newer_thread;        /* Y has an open thread (maybe a lone patch) */
	/* fix-missing: the other open threads that queue COMMIT */
	struct fs_finding_queued *queued;
	size_t nqueued;
	bool failed_to_apply;     /* fix-missing: a FAILED notice for the branch */
	char *failed_message_id;  /* the notice */
	char *failed_date;
};

/* backport-differs: what differs between the patch and its upstream
 * commit (fs_diffcmp_result); the files are paths, the lines
 * "upstream only: PATH: -text" (-v shows them). */
struct fs_finding_diff {
	char **files_dropped;
	size_t nfiles_dropped;
	char **files_added;
	size_t nfiles_added;
	size_t lines_differ;
	char **lines;
	size_t nlines;
};

/* series-partial: COMMIT (the patch's upstream commit) is mail PART of
 * its posting; PARTS are the posting's other parts that mainline has
 * and neither the branch nor the series does, in part order. */
struct fs_finding_posting {
	unsigned part;
	struct fs_finding_part *parts;
	size_t nparts;
};

/* What the branch's tree lacks (the treecheck module).  symbol-missing:
 * the names the patch uses that COMMIT (the prerequisite; "" when none
 * was found) brought to mainline and the branch has nowhere, first use
 * first, each as the patch uses it (fixscan/csyms.h);
 * fix-not-applicable: the files COMMIT (the fix) changes, none of them
 * in the branch. */
struct fs_finding_tree {
	struct fs_csym_use *symbols;
	size_t nsymbols;
	char **files;
	size_t nfiles;
};

/* One finding: a head every kind fills as far as it applies, then the
 * detail of the kinds that need more, in groups by what they describe.
 * Every string and array in it is owned by the finding and allocated
 * with GLib, as every string that crosses a header of lib/review/ is;
 * fs_findings_clear() frees them all with g_free(). */
struct fs_finding {
	enum fs_finding_kind kind;
	enum fs_finding_cause cause;
	enum fs_finding_evidence evidence;
	/* FS_CAUSE_NONE when COMMIT resolved; else why not:
	 * FS_CAUSE_NOT_FOUND, FS_CAUSE_AMBIGUOUS or FS_CAUSE_NOT_IN_CLONE
	 * (COMMIT is then the id as written) */
	enum fs_finding_cause unresolved;
	char commit[41];   /* full id when known, else as written; "" when none */
	char *subject;     /* of COMMIT, or NULL */
	char *release;     /* first release of COMMIT, or NULL */
	char *branch;      /* "mainline" or the stable branch of COMMIT, or NULL */
	char *ref;         /* fix-pending: the pending ref whose commit (COMMIT)
			    * is the fix; NULL for a mail only */
	/* cause subject-author: the upstream id as the changelog writes it
	 * ("" for a patch without one); else NULL */
	char *written;
	char *stable_commit; /* fix-present / already-applied / reverts-stable /
			      * needs-also: the branch's commit, full id; else NULL */
	char *stable_release; /* its release, or NULL */
	int series_index;  /* fix-queued / needs-also: the NN that carries it;
			    * duplicate-in-series: the earlier NN; else -1 */
	char (*chain)[41]; /* ids from the patch's upstream to COMMIT */
	size_t nchain;
	/* The CVE ids whose fix is COMMIT (fs_findings_ctx.vulns), in CVE
	 * order; NULL and 0 when none or without vulns data. */
	char **cves;
	size_t ncves;
	char *note;        /* one line of detail for the reader, made from
			    * the fields above, or NULL */
	char *ignored;     /* the reason from the ignore file, or NULL */
	/* How a stable maintainer's mail in the thread settled it ("the
	 * patch dropped by Greta Kroll in the thread", "taken by Greta
	 * Kroll in the thread"), or NULL: it asks for nothing more
	 * (fs_finding_is_problem()) */
	char *settled;
	struct fs_finding_mail mail;         /* regression-report, the reply
					      * kinds, fix-pending */
	struct fs_finding_revert revert;
	struct fs_finding_branches cross;
	struct fs_finding_diff diff;         /* backport-differs */
	struct fs_finding_posting posting;   /* series-partial */
	struct fs_finding_tree tree;         /* symbol-missing,
					      * fix-not-applicable */
};

/* The link to the mail F cites, for people: MAIL.LINK, else
 * lore.kernel.org's link of its Message-Id; control characters left
 * out.  A new string (g_free()), or NULL when F cites no mail. */
char *fs_finding_mail_link(const struct fs_finding *f);


/* The findings of one patch. */
struct fs_findings {
	struct fs_finding *v;
	size_t n;
	char upstream[41];  /* the patch's first resolved upstream id, or "" */
	char upstream_subject[512];
	/* The CVE ids whose fix is one of the patch's own upstream commits
	 * (fs_findings_ctx.vulns): the patch is a security fix.  NULL and 0
	 * when none. */
	char **upstream_cves;
	size_t nupstream_cves;
};
#define FS_FINDINGS_INIT { .v = NULL }
void fs_findings_clear(struct fs_findings *f);
/* Whether F asks the reviewer to act: its kind does, it is not a
 * revert that a revert of the revert undid, and no stable maintainer's
 * answer in the thread settled it. */
bool fs_finding_is_problem(const struct fs_finding *f);
/* Findings of KIND that are not ignored. */
size_t fs_findings_count(const struct fs_findings *f, enum fs_finding_kind kind);

/* One other patch of the same series, as the findings see it. */
struct fs_series_entry {
	int index;            /* NN */
	const fs_cid *upstream; /* its resolved upstream commits */
	size_t nupstream;
};

/* Everything a patch is judged against. */
struct fs_findings_ctx {
	const struct fs_index *idx;
	const char *branch;  /* stable branch, e.g. "linux-4.4.y" */
	const char *base;    /* release the series applies on, e.g. "v4.4.10";
			      * NULL: the branch tip */
	const struct fs_series_entry *series;
	size_t nseries;
	const struct fs_report_mail *reports;
	size_t nreports;
	const struct fs_objection *objections;
	size_t nobjections;
	const struct fs_ignore *ignore; /* may be NULL */
	/* The mainline of the index ends before the thread was sent: an
	 * unknown id may be one the clone does not have yet. */
	bool stale_clone;
	/* Reads the commit message of HEX (full id) into *OUT (g_free());
	 * returns 0 or a negative FS_E* code.  NULL: no reasons are given. */
	int (*message)(void *data, const char *hex, char **out);
	void *message_data;
	/* CVE ids from the kernel CNA (fixscan.vulns); NULL: none are
	 * looked up, and no fix is found through a CVE's .vulnerable. */
	const struct fs_vulns *vulns;
	/* The judged patch's author ("Name <addr>", the in-body From), or
	 * NULL: an upstream id that names no commit is then not matched by
	 * subject and author. */
	const char *author;
	/* Its mail body (the diff in it, for a patch without an upstream
	 * id) and length; NULL: not compared. */
	const char *body;
	size_t body_len;
	/* The comparison of this patch's diff with its upstream commit's
	 * (diffcmp module), set per patch by the caller; NULL: none made. */
	const struct fs_diffcmp_result *diff;
	/* The patch's mail carries no diff (no file header: cut short, or
	 * the change sent some other way), or its diff stops inside a hunk
	 * of DIFF_STOPS_INSIDE, or before DIFF_STOPS_BEFORE, a file its
	 * diffstat lists (each NULL when it does not); diff-absent says
	 * so. */
	bool diffless;
	/* Its changelog does not read as text (fs_text_reads_as_text(): a
	 * damaged encoding): diff-absent says so, and what the changelog
	 * lacks is not held against it (no no-upstream). */
	bool unreadable;
	const char *diff_stops_inside;
	const char *diff_stops_before;
	/* Fixes of the series' upstream commits that are not in mainline
	 * yet (fs_pending_from_store()); NULL and 0: none looked for. */
	const struct fs_pending_fix *pending;
	size_t npending;
	/* The size of an upstream posting (fs_posting_size(), its first
	 * argument POSTING_DATA): series-partial then numbers the parts as
	 * the posting did, N/M.  Needs MESSAGE (the key is read from the
	 * upstream commit's Link:).  NULL: parts are the mail numbers of
	 * their ids, without M. */
	int (*posting_size)(void *data, const char *key, int form, unsigned *total,
			    unsigned *first);
	void *posting_data;
};

/* The commits a patch's upstream references name, resolved through the
 * index: every upstream id (and the patch title where an id is ambiguous).
 * Stable ids are mapped to their mainline commit.  Stores up to MAX in
 * OUT and returns how many; *UNKNOWN (may be NULL) gets the first id that
 * did not resolve, as written, or "". */
size_t fs_findings_resolve_upstream(const struct fs_index *idx,
				    const struct fs_trailers *tags, const char *title,
				    fs_cid *out, size_t max, char unknown[41]);
/* The same, and an upstream id that names no commit is matched by the
 * patch's TITLE and AUTHOR (fs_index_find_subject_author()): when exactly
 * one mainline commit has both, the patch is that commit's backport.  A
 * patch that names no upstream commit at all (nor reverts one) is that
 * commit's backport only when the diff of its mail BODY (BODY_LEN bytes;
 * NULL: none) is the commit's too (fs_index_diff_matches()).  AUTHOR
 * NULL: no such match. */
size_t fs_findings_resolve_patch(const struct fs_index *idx, const struct fs_trailers *tags,
				 const char *title, const char *author, const char *body,
				 size_t body_len, fs_cid *out, size_t max, char unknown[41]);

/* Judge one patch: its changelog TAGS, its TITLE (subject without the
 * [PATCH ...] prefix), its series INDEX (NN, or -1) and REVERT_TITLE (the
 * X of a 'Revert "X"' title, or NULL).  Fills *OUT (which must be
 * FS_FINDINGS_INIT or cleared); the caller frees it with
 * fs_findings_clear().  Returns 0 or FS_ENOMEM. */
/* Add to OUT the findings of the replies in CTX that speak of no one
 * patch (series_index -1: a reply to the cover naming none, or to a
 * thread whose patch mails are absent).  Returns 0 or FS_ENOMEM. */
int fs_findings_series_replies(struct fs_findings *out, const struct fs_findings_ctx *ctx,
			       struct fs_error *err);

int fs_findings_judge(struct fs_findings *out, const struct fs_findings_ctx *ctx,
		      const struct fs_trailers *tags, const char *title, int index,
		      struct fs_error *err);

#endif
