/* fixscan: the learned reply class model (mentions-private.h): a
 * multinomial logistic regression over the features of
 * fs_mentions_features(), its weights generated at build time from
 * lib/review/reply-model.tsv (scripts/gen-reply-model.py). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "mentions-private.h"
#include "reply-model.h"

static const struct fs_reply_model builtin = {
	.about = reply_model_about,
	.bias = reply_model_bias,
	.margin = reply_model_margin,
	.v = reply_model_weights,
	.n = REPLY_MODEL_NWEIGHTS,
};

const struct fs_reply_model *fs_mentions_model(void)
{
	return builtin.n ? &builtin : NULL;
}

static int by_feature(const void *key, const void *elem)
{
	return strcmp(key, ((const struct fs_reply_weight *)elem)->feature);
}

int fs_mentions_model_class(const struct fs_reply_model *m, const GPtrArray *features,
			    double prob[FS_MODEL_CLASSES])
{
	double score[FS_MODEL_CLASSES], top, sum = 0;
	int c, best = 0;
	size_t i;

	for (c = 0; c < FS_MODEL_CLASSES; c++)
		score[c] = m->bias[c];
	for (i = 0; i < features->len; i++) {
		const struct fs_reply_weight *w = bsearch(features->pdata[i], m->v, m->n,
							  sizeof(*m->v), by_feature);
		for (c = 0; w && c < FS_MODEL_CLASSES; c++)
			score[c] += w->w[c];
	}
	top = score[0];
	for (c = 1; c < FS_MODEL_CLASSES; c++)
		top = score[c] > top ? score[c] : top;
	for (c = 0; c < FS_MODEL_CLASSES; c++)
		sum += (prob[c] = exp(score[c] - top));
	for (c = 0; c < FS_MODEL_CLASSES; c++) {
		prob[c] /= sum;
		/* The margins move the decision, not the probabilities:
		 * an action class must win by more than its margin. */
		if (score[c] + m->margin[c] > score[best] + m->margin[best])
			best = c;
	}
	return best;
}
