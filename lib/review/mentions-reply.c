/* fixscan: a reply's class: the phrase rules' reading of it
 * (mentions-class.c), or the learned model's over its features, which
 * are the same for training (tests/real/scripts/reply-features.c) and
 * for use. */
#include <ctype.h>
#include <string.h>

#include <glib.h>

#include "mentions-private.h"
#include "mentions-read.h"

/* Read BODY into R as the rules do, then in context CTX (may be NULL):
 * who says it, what it answers (fsmn_read_standing()). */
static void read_in_context(struct fsmn_reading *r, const char *body, size_t len, bool features,
			    const struct fs_reply_context *ctx)
{
	fsmn_read_reply(r, body, len, features, ctx);
	if (ctx)
		fsmn_read_standing(r, body, len, ctx);
}

/* A word of a sentence as the model knows it: lower case, at most 24
 * bytes; a commit id is "#id", a number "#n". */
static char *token_form(const char *s, size_t l)
{
	size_t i, digits = 0, hex = 0;
	char *t;

	for (i = 0; i < l; i++) {
		digits += isdigit((unsigned char)s[i]) != 0;
		hex += isxdigit((unsigned char)s[i]) != 0;
	}
	if (l >= 7 && hex == l && digits && digits < l)
		return g_strdup("#id");
	if (digits == l)
		return g_strdup("#n");
	t = g_strndup(s, l < 24 ? l : 24);
	for (i = 0; t[i]; i++)
		t[i] = g_ascii_tolower(t[i]);
	return t;
}

/* The words of the sentence S (L bytes, cue words) into A, in order; a
 * '?' counts as a word. */
static void tokens(const char *s, size_t l, GPtrArray *a)
{
	size_t i = 0, w;

	while (i < l) {
		for (w = i; w < l; w++) {
			unsigned char c = (unsigned char)s[w];
			if (!(isalnum(c) || c >= 0x80 ||
			      (c == '\'' && w > i && w + 1 < l && isalnum((unsigned char)s[w + 1]))))
				break;
		}
		if (w == i) {
			if (s[i] == '?')
				g_ptr_array_add(a, g_strdup("?"));
			i++;
			continue;
		}
		g_ptr_array_add(a, token_form(s + i, w - i));
		i = w;
	}
}

/* The feature of each HIT_* bit. */
static const struct {
	unsigned bit;
	const char *name;
} hit_names[] = {
	{ HIT_NEEDS, "r:needs" }, { HIT_REPORTS, "r:reports" }, { HIT_OBJECTS, "r:objects" },
	{ HIT_QUESTION, "r:question" }, { HIT_NAK, "r:nak" }, { HIT_TRACE, "r:trace" },
};

/* The features of sentence I of R into SET (a set of new strings). */
static void sentence_features(const struct fsmn_reading *r, size_t i, GHashTable *set)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	size_t k;

	tokens(r->cue[i], r->cuelen[i], t);
	for (k = 0; k < t->len; k++) {
		g_hash_table_add(set, g_strconcat("u:", (char *)t->pdata[k], NULL));
		g_hash_table_add(set, g_strconcat("b:", k ? (char *)t->pdata[k - 1] : "^", "_",
						  (char *)t->pdata[k], NULL));
	}
	for (k = 0; k < G_N_ELEMENTS(hit_names); k++)
		if (r->hits[i] & hit_names[k].bit)
			g_hash_table_add(set, g_strdup(hit_names[k].name));
	g_ptr_array_free(t, TRUE);
}

/* The features of who says R and to what (C, may be NULL) into SET:
 * the role and the parent alone, and each with what the rules read,
 * since a question or a "not needed" weighs by who asks it. */
static void context_features(const struct fsmn_reading *r, const struct fs_reply_context *c,
			     const char *rule, GHashTable *set)
{
	const char *role = fs_mentions_role_name(c->role);
	const char *parent = fs_mentions_parent_name(c->parent);
	unsigned all = 0;
	size_t i;

	for (i = 0; i < r->n; i++)
		all |= r->hits[i];
	g_hash_table_add(set, g_strconcat("x:role:", role, NULL));
	g_hash_table_add(set, g_strconcat("x:parent:", parent, NULL));
	g_hash_table_add(set, g_strconcat("x:role:", role, "&", rule, NULL));
	g_hash_table_add(set, g_strconcat("x:parent:", parent, "&", rule, NULL));
	for (i = 0; i < G_N_ELEMENTS(hit_names); i++)
		if (all & hit_names[i].bit)
			g_hash_table_add(set, g_strconcat("x:role:", role, "&", hit_names[i].name, NULL));
	if (c->quotes_hunk)
		g_hash_table_add(set, g_strdup("x:q:hunk"));
	if (c->quotes_fixes)
		g_hash_table_add(set, g_strdup("x:q:fixes"));
	if (c->quotes_upstream)
		g_hash_table_add(set, g_strdup("x:q:upstream"));
}

/* The features of the whole reply R, said in context C (may be NULL),
 * into SET. */
static void reply_features(const struct fsmn_reading *r, const struct fs_reply_context *c,
			   GHashTable *set)
{
	static const char *const rule_names[FS_REPLY_CLASS_COUNT] = {
		"c:objection", "c:report", "c:needs-also", "c:replacement", "c:other", "c:none",
	};
	size_t i;

	for (i = 0; i < r->n; i++)
		sentence_features(r, i, set);
	g_hash_table_add(set, g_strdup(rule_names[r->rule]));
	g_hash_table_add(set, g_strdup(r->n == 0 ? "s:n0" : r->n == 1 ? "s:n1" : r->n <= 3 ? "s:n3" :
					r->n <= 8 ? "s:n8" : "s:nmany"));
	if (r->carries)
		g_hash_table_add(set, g_strdup("s:carries"));
	if (r->ack)
		g_hash_table_add(set, g_strdup("s:ack"));
	if (r->bot)
		g_hash_table_add(set, g_strdup("s:bot"));
	if (r->drop_asked)
		g_hash_table_add(set, g_strdup("s:drop"));
	if (c)
		context_features(r, c, rule_names[r->rule], set);
}

void fs_mentions_features(const char *body, size_t len, const struct fs_reply_context *ctx,
			  GPtrArray *out)
{
	struct fsmn_reading r;
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTableIter it;
	gpointer key;

	read_in_context(&r, body, len, true, ctx);
	reply_features(&r, ctx, set);
	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		g_ptr_array_add(out, key);
		g_hash_table_iter_steal(&it);
	}
	g_hash_table_destroy(set);
	fsmn_reading_clear(&r);
}

/* The class of R by the learned model M, read in context C: the
 * model's, but a reply the model calls harmless keeps the rules' "other"
 * class when the rules saw more in it (shown with its words, never
 * dropped), and its "none" when they saw nothing at all. */
enum fs_reply_class fsmn_model_class(const struct fsmn_reading *r, const struct fs_reply_context *c,
				       const struct fs_reply_model *m)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *f = g_ptr_array_new();
	double p[FS_MODEL_CLASSES];
	GHashTableIter it;
	gpointer key;
	int k;

	reply_features(r, c, set);
	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_ptr_array_add(f, key);
	k = fs_mentions_model_class(m, f, p);
	g_ptr_array_free(f, TRUE);
	g_hash_table_destroy(set);
	if (k < FS_MODEL_CLASSES - 1)
		return (enum fs_reply_class)k;
	return r->rule == FS_REPLY_NONE ? FS_REPLY_NONE : FS_REPLY_OTHER;
}

char *fs_mentions_classify_in(const char *body, size_t len, const struct fs_reply_context *ctx,
			      enum fs_reply_class *cls)
{
	const struct fs_reply_model *m = ctx ? fs_mentions_model() : NULL;
	struct fsmn_reading r;
	enum fs_reply_class best;
	size_t at;
	char *found = NULL;

	read_in_context(&r, body, len, m != NULL, ctx);
	best = m ? fsmn_model_class(&r, ctx, m) : r.rule;
	at = r.first[best == FS_REPLY_REPLACEMENT ? FS_REPLY_OTHER : best];
	/* the model's class without a sentence of the rules: the reply's
	 * first words of its own */
	if (at >= r.n && best != FS_REPLY_NONE)
		at = r.first[FS_REPLY_OTHER];
	if (best != FS_REPLY_NONE)
		found = at < r.n ? fsmn_whole_sentence(r.v[at].s, r.v[at].len) : g_strdup("");
	fsmn_reading_clear(&r);
	*cls = found ? best : FS_REPLY_NONE;
	return found;
}

char *fs_mentions_classify(const char *body, size_t len, enum fs_reply_class *cls)
{
	return fs_mentions_classify_in(body, len, NULL, cls);
}

char *fs_mentions_objection_line(const char *body, size_t len)
{
	enum fs_reply_class cls;
	char *line = fs_mentions_classify(body, len, &cls);

	if (cls == FS_REPLY_OBJECTION || cls == FS_REPLY_REPORT || cls == FS_REPLY_NEEDS_ALSO)
		return line;
	g_free(line);
	return NULL;
}
