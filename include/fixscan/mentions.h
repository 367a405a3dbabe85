/* fixscan: what people say about the patches of a series.
 *
 * Two kinds of mail speak of a patch besides the patch itself: replies in
 * its thread that object to it ("please drop", "breaks the build"), and
 * mails elsewhere in the store that report a regression with the upstream
 * commit it backports.  This module finds both and hands them to the
 * findings module as plain records; it decides what counts as a person's
 * word and what does not (quoted text, trailers, unsent drafts).
 */
#ifndef FIXSCAN_MENTIONS_H
#define FIXSCAN_MENTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/mail.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

/* A mail outside the thread that mentions an upstream commit together
 * with words of regression. */
struct fs_report_mail {
	fs_cid upstream;
	const char *message_id;
	const char *from;
	const char *date;     /* the mail's own Date text (its time zone) */
	const char *subject;
	const char *link;     /* where the archives (fixscan.lore) have it,
			       * or NULL */
};

/* What a reply to a patch says, by its own words.  OBJECTION is 0 so
 * that a record made without a class objects, as before classes. */
enum fs_reply_class {
	FS_REPLY_OBJECTION,   /* asks to drop it, says it is wrong or not needed */
	FS_REPLY_REPORT,      /* reports a regression, crash, build or test failure */
	FS_REPLY_NEEDS_ALSO,  /* asks for other commits to be taken with it */
	FS_REPLY_REPLACEMENT, /* carries a replacement patch */
	FS_REPLY_OTHER,       /* a human reply that is none of the above */
	FS_REPLY_NONE,        /* tags, thanks, nothing of its own */
	FS_REPLY_CLASS_COUNT
};

/* Who wrote a reply, to the patch it answers (fs_mentions_reply_context()). */
enum fs_reply_role {
	FS_ROLE_OTHER,       /* anyone else */
	FS_ROLE_AUTHOR,      /* the patch's author (its in-body From), or the
			      * sender of a backport or a series of
			      * backports they posted */
	FS_ROLE_MAINTAINER,  /* signs, acks or reviews the patch's change in
			      * its trailers, or is addressed by name by the
			      * posting of one patch: one of the code's people */
	FS_ROLE_STABLE,      /* a stable maintainer: a known one, or the
			      * sender of the review mails being read */
	FS_ROLE_BOT,         /* a test farm or another bot, by its From */
	FS_ROLE_COUNT
};

/* What kind of mail a reply answers. */
enum fs_reply_parent {
	FS_PARENT_NONE,      /* no parent in hand */
	FS_PARENT_OTHER,
	FS_PARENT_AUTOSEL,   /* [PATCH AUTOSEL ...] */
	FS_PARENT_REVIEW,    /* a patch of a stable review ("stable review patch") */
	FS_PARENT_COVER,     /* NN 0 of a numbered series: a review's cover */
	FS_PARENT_BACKPORT,  /* a backport posted for a stable branch */
	FS_PARENT_FAILED,    /* "FAILED: patch ... failed to apply" */
	FS_PARENT_COUNT
};

/* What a reply's words are read with besides themselves. */
struct fs_reply_context {
	enum fs_reply_role role;
	enum fs_reply_parent parent;
	bool quotes_hunk;      /* quotes a line of the patch's diff */
	bool quotes_fixes;     /* quotes a Fixes: line */
	bool quotes_upstream;  /* quotes the "commit X upstream" line */
	/* answers someone's reply, not the posting: what it quotes first
	 * is that person's words */
	bool answers_reply;
	/* the body of the reply it answers when the thread holds that
	 * mail (not owned; NULL: only what it quotes of it is known) */
	const char *answered_body;
	size_t answered_len;
};

/* What a replier's standing is read from besides the series' own mails
 * (fs_mentions_objections()). */
struct fs_reply_standing {
	/* stable maintainers' addresses besides the known ones and the
	 * senders of the review's mails (fixscan.stableMaintainer),
	 * NULL-terminated; NULL: none */
	const char *const *stable;
	/* The message of the upstream commit of PATCH (one of the
	 * series' patches) into *OUT (new string, g_free()); non-zero when
	 * it is not in hand.  Asked only for a replier with no standing
	 * otherwise; NULL: never. */
	int (*upstream_message)(void *data, const struct fs_patch *patch, char **out);
	void *data;
};

/* Raise C, the context of REPLY, to FS_ROLE_MAINTAINER when REPLY's
 * sender signs, acks or reviews in TEXT (LEN bytes; an upstream
 * commit's message): one of the people of the upstream change.  A role
 * already found (author, stable maintainer, bot) stays. */
void fs_mentions_context_signers(struct fs_reply_context *c, const struct fs_patch *reply,
				 const char *text, size_t len);

/* The context of REPLY (may be NULL) answering PARENT (may be NULL):
 * STABLE_SENDERS are the addresses (NULL-terminated, may be NULL) that
 * sent the review mails being read, stable maintainers whoever they
 * are.  Fills *OUT. */
void fs_mentions_reply_context(struct fs_reply_context *out, const struct fs_patch *reply,
			       const struct fs_patch *parent, const char *const *stable_senders);
/* The kind of PARENT (may be NULL). */
enum fs_reply_parent fs_mentions_parent_kind(const struct fs_patch *parent);
/* "author", "stable", ... and "autosel", "review-patch", ...: static. */
const char *fs_mentions_role_name(enum fs_reply_role role);
const char *fs_mentions_parent_name(enum fs_reply_parent kind);

/* What a stable maintainer's answer in the thread made of a reply
 * (mentions-course.c). */
enum fs_reply_settle {
	FS_SETTLE_NONE,
	FS_SETTLE_DROPPED, /* his own reply, dropping the patch now */
	FS_SETTLE_TAKEN,   /* a request for commits he answered by taking them */
};

/* A reply in the thread that speaks of a patch. */
struct fs_objection {
	int series_index;
	const char *message_id;
	const char *from;
	const char *date;
	const char *line;  /* the sentence that gave the class (for
			    * FS_REPLY_REPLACEMENT and FS_REPLY_OTHER the
			    * first of its own; may be "") */
	enum fs_reply_class cls;
	/* The commit ids (as written, 8-40 hex digits) the reply's own
	 * words name, in order, each once; for FS_REPLY_NEEDS_ALSO the
	 * commits it asks for. */
	char **named;
	size_t nnamed;
	/* With SERIES_INDEX -1: the number of an announced patch whose mail
	 * is absent that the reply answers (its "Re: [PATCH NN/MM]" subject)
	 * or names (a title of the cover's shortlog); 0 when none. */
	int absent_index;
	const char *link;  /* a mail of the archives (fixscan.lore): where it
			    * is; NULL for a reply of the thread */
	enum fs_reply_settle settle;
	const char *settled_by; /* the From of the stable maintainer whose
				 * mail settled it (lent); NULL when none */
	const char *round; /* the release of the earlier round whose thread
			    * it is in ("4.4.7-rc1", lent); NULL for this
			    * round's (fs_mentions_earlier_thread()) */
	bool own;          /* the user's own reply in an earlier round's
			    * thread (class FS_REPLY_OTHER: never evidence,
			    * only where they said it before) */
	bool unkept;       /* a stable maintainer's word in an earlier
			    * round's thread that the patch is dropped,
			    * and this round still carries it */
};

/* What was found about one series.  The records' strings are owned by
 * the struct (or borrowed from the series for objections, which must
 * outlive it); start with FS_MENTIONS_INIT, release with
 * fs_mentions_clear(). */
struct fs_mentions {
	struct fs_report_mail *reports;
	size_t nreports;
	struct fs_objection *objections;
	size_t nobjections;
	/* storage behind the records */
	struct fs_store_messages hits_;
	char **dates_;
	char **lines_;
};
#define FS_MENTIONS_INIT { .reports = NULL }
void fs_mentions_clear(struct fs_mentions *m);

/* Add to M the regression reports V[0..N) found in the archives
 * (fixscan.lore), whose strings V's owner lends for M's life.  A mail
 * M has already for the same commit (the store's copy of it: the same
 * Message-Id) is not added again: that record gets its link.  Returns 0
 * or FS_ENOMEM. */
int fs_mentions_add_archived(struct fs_mentions *m, const struct fs_report_mail *v, size_t n,
			     struct fs_error *err);

/* The reports of M found in the store (fs_mentions_reports()) that answer
 * a patch posted for S's kernel series in another round of its review
 * ("Re: [PATCH 4.4 07/27]" while 4.4.7-rc2 is reviewed), read as the
 * replies of the thread are: those that object or post a replacement
 * become replies at the patch PLACE(DATA, their commit) gives (-1: none,
 * left a report).  Returns 0 or FS_ENOMEM.  (mentions-rounds.c) */
int fs_mentions_earlier_rounds(struct fs_mentions *m, const struct fs_thread_series *s,
			       int (*place)(void *data, fs_cid c), void *data,
			       struct fs_error *err);

/* The replies of EARLIER, an earlier round of S's release, that ask for
 * something (objection, report, needs-also, replacement) of a patch S
 * carries too (the one patch of the same title in each), added to M as
 * replies to that patch of S, read with OWN and STANDING as S's are
 * (mentions.c); and the user's own replies there (by OWN) to such a
 * patch, as class FS_REPLY_OTHER with OWN set: the draft says it was
 * said before, not as new.  What asked of a patch on -rc1 still asks on -rc2
 * unless it was answered there: a reply to the earlier cover, a stable
 * maintainer's own and one a stable maintainer answered are not carried.
 * A mail M holds already is not added twice, and a report of M that is
 * one of them becomes the reply.
 * EARLIER's mails must outlive M (M lends their strings).  Returns 0 or
 * FS_ENOMEM.  (mentions-rounds.c) */
int fs_mentions_earlier_thread(struct fs_mentions *m, const struct fs_thread_series *s,
			       const struct fs_thread_series *earlier, const char *const *own,
			       const struct fs_reply_standing *standing, struct fs_error *err);

/* Add to M the records V[0..N) of mails outside the thread that speak of
 * a patch of the series as its replies do (a backport posted for its
 * branch on the archives: class FS_REPLY_REPLACEMENT; an answer to
 * another round found in the store), at the patch's SERIES_INDEX, whose
 * strings V's owner lends for M's life; NAMED is not taken (NULL).
 * Returns 0 or FS_ENOMEM. */
int fs_mentions_add_posted(struct fs_mentions *m, const struct fs_objection *v, size_t n,
			   struct fs_error *err);

/* The first sentence of BODY (LEN bytes), in the replier's own words,
 * that objects to a patch, reports trouble with it or asks for other
 * commits with it ("please drop", "breaks the build", "needs commit ...
 * as well"), as a new string (g_free()), or NULL. */
char *fs_mentions_objection_line(const char *body, size_t len);

/* What the reply BODY (LEN bytes) says, in *CLS, and the sentence that
 * says it as a new string (g_free()); NULL with FS_REPLY_NONE for tags,
 * thanks and quoted text only.  Read in the replier's own words only
 * (not quoted, not a carried patch or pasted commit), sentence by
 * sentence; a reply that asks for more commits is FS_REPLY_NEEDS_ALSO
 * even when it also reports or objects, one that reports trouble is
 * FS_REPLY_REPORT even when it also asks to drop. */
char *fs_mentions_classify(const char *body, size_t len, enum fs_reply_class *cls);
/* The same, read in context CTX (who says it, to what; may be NULL):
 * with a learned model built in (lib/review/reply-model.tsv) the model
 * decides from the words, the rules' findings and CTX; a reply the model
 * calls harmless but the rules do not is still shown (FS_REPLY_OTHER). */
char *fs_mentions_classify_in(const char *body, size_t len, const struct fs_reply_context *ctx,
			      enum fs_reply_class *cls);

/* Add to M the objections among the replies of series S, leaving out the
 * user's own mail (fs_identity_is_own_mail() with OWN), each read with
 * its sender's standing (STANDING may be NULL: the series' mails
 * alone).  Returns 0 or FS_ENOMEM. */
int fs_mentions_objections(struct fs_mentions *m, const struct fs_thread_series *s,
			   const char *const *own, const struct fs_reply_standing *standing,
			   struct fs_error *err);

/* Place on a patch the replies of M that S's mails placed on none
 * (series_index -1, no absent patch, not a request for more commits)
 * whose own words name, by an id of 12 hex digits or more, a commit IDX
 * resolves to one upstream commit (a stable commit to the upstream
 * commit it backports: "#regzbot introduced: <stable id>", a bisection
 * in a stable tree) that PATCH_OF (DATA, that commit) gives the number
 * of exactly one patch for (-1: none); the replies that answer one so
 * placed, naming nothing themselves, follow it.  A reply to the cover
 * whose words named one patch and whose ids name another, or several,
 * is the series'. */
void fs_mentions_place_by_commit(struct fs_mentions *m, const struct fs_thread_series *s,
				 const struct fs_index *idx, int (*patch_of)(void *data, fs_cid c),
				 void *data);

/* Name, in the requests for more commits of M that name no commit by
 * id (FS_REPLY_NEEDS_ALSO with no NAMED), the commits they name by
 * subject in double quotes ('please also take "foo: fix bar"'): a
 * quoted subject that is the subject of exactly one mainline commit of
 * IDX names it (its full id joins NAMED).  Returns 0 or FS_ENOMEM. */
int fs_mentions_name_by_subject(struct fs_mentions *m, const struct fs_thread_series *s,
				const struct fs_index *idx);

/* Add to M the mails of STORE outside S's thread that report trouble
 * with one of the N commits UPSTREAM (resolved in IDX), the user's own
 * mail left out (see fs_identity_is_own_mail()).  Each distinct commit is
 * searched once, so a mail gives one report per commit it names however
 * often the commit appears in UPSTREAM.  The reports come in the order of
 * UPSTREAM, each commit's oldest first.  The store is asked once for the
 * mails with words of regression outside the thread; when they are few
 * they are read and only the commits they name are searched, else every
 * commit is (the same reports either way).  Returns 0, or FS_ESTORE /
 * FS_ENOMEM with ERR set. */
int fs_mentions_reports(struct fs_mentions *m, struct fs_store *store,
			const struct fs_index *idx, const struct fs_thread_series *s,
			const fs_cid *upstream, size_t n, const char *const *own,
			struct fs_error *err);

#endif
