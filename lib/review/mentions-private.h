/* fixscan: the regression report search of the mentions module, with its
 * cost trade-off exposed (private to the module and its tests). */
#ifndef FIXSCAN_MENTIONS_PRIVATE_H
#define FIXSCAN_MENTIONS_PRIVATE_H

#include <glib.h>

#include "fixscan/mentions.h"

/* The candidates fs_mentions_reports() reads per commit at most before
 * it asks notmuch for every commit instead: reading a mail costs a small
 * part of what one query costs. */
#define FS_MENTIONS_CANDIDATES_PER_COMMIT 4

/* fs_mentions_reports() with the limit PER_COMMIT in its place: 0 asks
 * for every commit unless no mail at all could be a report, SIZE_MAX
 * reads every candidate.  The reports are the same for every limit. */
int fs_mentions_reports_limit(struct fs_mentions *m, struct fs_store *store,
			      const struct fs_index *idx, const struct fs_thread_series *s,
			      const fs_cid *upstream, size_t n, const char *const *own,
			      size_t per_commit, struct fs_error *err);

/* BODY's own words: quoted text, attributions, trailers, the signature,
 * a carried patch (from its first line on: *CARRIES_PATCH, may be NULL,
 * set) and a pasted commit left out; lines joined with blanks, '\n'
 * where something was left out or a paragraph ends.  New string
 * (g_free()). */
char *fs_mentions_own_words(const char *body, size_t len, bool *carries_patch);

/* The words of BODY that ask for more commits: each sentence the rules
 * read as such a request, with the sentence after it and any list of
 * commits that follows ("... the following commits:" then one id per
 * line), joined by '\n'.  The commits a needs-also names are taken from
 * these, not from the whole reply (a culprit or a revert it mentions is
 * asked for by nobody).  New string (g_free()), "" when none. */
char *fs_mentions_asked_words(const char *body, size_t len);

/* The features of the reply BODY (LEN bytes) a learned class model
 * would read, each once, appended to OUT as new strings (g_free()):
 * "u:word" and "b:word_word" of the own words' sentences (lower case, a
 * commit id "#id", a number "#n", "^" a sentence's start), "r:..." what
 * the phrase rules find in a sentence, "c:<class>" their class of the
 * reply, "s:..." its shape (sentences, carried patch, own tag, bot);
 * with CTX (may be NULL) "x:..." who says it and to what
 * (fs_reply_context), alone and with what the rules read.  For
 * tests/real/scripts/train-replies.py. */
void fs_mentions_features(const char *body, size_t len, const struct fs_reply_context *ctx,
			  GPtrArray *out);

/* ---- the learned class model (mentions-model.c) ---- */

/* The model's classes, in the order of enum fs_reply_class: objection,
 * report, needs-also, replacement, and "harmless" (everything else). */
#define FS_MODEL_CLASSES 5

struct fs_reply_weight {
	const char *feature;
	float w[FS_MODEL_CLASSES];
};

/* A multinomial logistic regression: a class's score is its bias plus
 * the weights of the features present; the class chosen is the largest
 * score plus margin. */
struct fs_reply_model {
	const char *about;            /* what it was trained on */
	const double *bias, *margin;  /* FS_MODEL_CLASSES each */
	const struct fs_reply_weight *v; /* sorted by feature (strcmp) */
	size_t n;
};

/* The model built in from lib/review/reply-model.tsv, or NULL when that
 * has no weights (the phrase rules decide alone).  Static. */
const struct fs_reply_model *fs_mentions_model(void);

/* The class M gives the features FEATURES (strings, as
 * fs_mentions_features() makes them), 0 to FS_MODEL_CLASSES - 1, and
 * each class's probability in PROB. */
int fs_mentions_model_class(const struct fs_reply_model *m, const GPtrArray *features,
			    double prob[FS_MODEL_CLASSES]);

#endif
