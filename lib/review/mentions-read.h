/* fixscan: a reply as the phrase rules read it, shared by the rules
 * (mentions-class.c) and the learned model's features
 * (mentions-reply.c); private to the mentions module. */
#ifndef FIXSCAN_MENTIONS_READ_H
#define FIXSCAN_MENTIONS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/mentions.h"
#include "mentions-private.h"

struct sentence {
	const char *s;
	size_t len;
};

/* What the phrase rules find in each sentence of a reply. */
enum {
	HIT_NEEDS = 1, HIT_REPORTS = 2, HIT_OBJECTS = 4, HIT_QUESTION = 8,
	/* a NAK; a compiler error, an oops, a bisection, a regzbot command */
	HIT_NAK = 16, HIT_TRACE = 32,
};


/* One reply read: its own words in sentences, what the phrase rules
 * say of each, and the class they give. */
struct fsmn_reading {
	char *text;             /* the own words (g_free()) */
	struct sentence *v;     /* the sentences of TEXT */
	char **cue;             /* each sentence's cue words (g_free() each) */
	size_t *cuelen;
	unsigned *hits;         /* HIT_* of each sentence */
	size_t n;
	size_t first[FS_REPLY_CLASS_COUNT]; /* first sentence of each class, or n */
	bool carries, bot, ack;
	bool drop_asked;        /* asks to drop it or refuses it outright */
	bool new_version;       /* says a corrected version is posted */
	bool wants_this;        /* asks for this patch on a branch */
	bool stranger;          /* its sender has no say in the patch */
	bool features;          /* read for its features: every HIT_* */
	enum fs_reply_class rule; /* the phrase rules' class */
};


/* Whether S (L bytes) starts with WORD, in any case (mentions-words.c). */
bool fsmn_starts(const char *s, size_t l, const char *word);

/* Read BODY (LEN bytes) into R: its own words, their sentences, the
 * rules' hits and class; FEATURES asks for every hit (the model reads
 * them all), not only those the class needs; CTX (may be NULL) who
 * wrote it (a stranger's challenge is a question).  The callers read it
 * in context after (fsmn_read_standing()).  fsmn_reading_clear()
 * releases R. */
void fsmn_read_reply(struct fsmn_reading *r, const char *body, size_t len, bool features,
		     const struct fs_reply_context *ctx);
void fsmn_reading_clear(struct fsmn_reading *r);

/* The class of R, the reading of BODY (LEN bytes), in context C
 * (mentions-standing.c): a reply that says nothing of its own but
 * agrees with the words it quotes takes their class; "no" to a question
 * whether the patch is needed, "yes" to an offer to drop it, objects. */
void fsmn_read_standing(struct fsmn_reading *r, const char *body, size_t len,
			const struct fs_reply_context *c);

/* The reply of S whose Message-Id is MID, or NULL (mentions-context.c). */
const struct fs_patch *fsmn_reply_by_id(const struct fs_thread_series *s, const char *mid);

/* The record of OV (N of them) that cites the mail MID, the first; NULL
 * when none (mentions-context.c). */
struct fs_objection *fsmn_cited(struct fs_objection *ov, size_t n, const char *mid);

/* The addresses that sent S's stable mails (its cover, review patches,
 * AUTOSEL patches): stable maintainers, whoever they are; and the
 * configured ones, MORE (may be NULL).  A new NULL-terminated array of
 * new strings (g_strfreev()).  (mentions.c) */
char **fsmn_stable_senders(const struct fs_thread_series *s, const char *const *more);

/* Whether BODY (LEN bytes), a stable maintainer's answer to someone's
 * reply, drops the patch in answer: "I'll drop it, thanks!", "Now
 * dropped." (mentions-standing.c). */
bool fsmn_drops_in_answer(const char *body, size_t len);

/* Whether BODY (LEN bytes), a stable maintainer's answer to a request
 * for commits, takes them: "Now queued, thanks.", "I'll take it too",
 * "All three now queued up." (mentions-standing.c). */
bool fsmn_takes_in_answer(const char *body, size_t len);

/* The replies of OV (N, read from S's replies) whose class their course
 * in the thread shows (mentions-course.c): one a stable maintainer (by
 * the addresses SENDERS, NULL-terminated, may be NULL, or the known
 * ones) answers by dropping the patch objected to it, whatever its own
 * words were.  And what his answers settled (fs_objection.settle): his
 * own reply that drops the patch, a request for commits he took. */
void fsmn_read_course(struct fs_objection *ov, size_t n, const struct fs_thread_series *s,
		      const char *const *senders);

/* The sentence of P (LEN bytes) as a reply quotes it: whole, its end
 * trimmed.  New string (g_free()). */
char *fsmn_whole_sentence(const char *p, size_t len);

/* The class of R by the learned model M, read in context C
 * (mentions-reply.c). */
enum fs_reply_class fsmn_model_class(const struct fsmn_reading *r,
				     const struct fs_reply_context *c,
				     const struct fs_reply_model *m);

#endif
