/* fixscan: objections in a thread and regression reports in the store. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <glib.h>

#include "mentions-private.h"

/* An objecting sentence longer than this is no sentence: cut it. */
#define OBJECTION_MAX 1000

/* Words that make a mention of a commit a report of trouble with it. */
static const char *const regression_words[] = {
	"regression", "regressed", "revert", "reverting", "breaks", "broke",
	"broken", "bisected", "first bad commit",
};

/* What a person writes to object to a patch.  A phrase counts only as
 * whole words, outside a question (unless it asks "please"), and not
 * after a negation in its clause: "no build failures", "doesn't break
 * anything", "fixes a boot failure" are no objections.  A false objection
 * costs the reviewer more than a missed one, so the list is of forms that
 * leave no doubt. */
static const char *const objection_phrases[] = {
	"please drop", "drop this", "drop it", "please don't apply",
	"please do not apply", "please don't queue", "please do not queue",
	"please revert", "was reverted", "has been reverted", "got reverted",
	"nak", "nack", "nacked-by",
	"should be dropped", "should not be applied", "shouldn't be applied",
	"should not be backported", "shouldn't be backported",
	"not needed for stable", "isn't needed for stable",
	"breaks", "broke", "broken", "breakage",
	"build failure", "build failures", "build fails", "build error",
	"build errors", "build breakage", "fails to build", "failed to build",
	"boot failure", "boot failures", "fails to boot", "failed to boot",
	"doesn't boot", "does not boot", "won't boot", "no longer boots",
	"doesn't build", "does not build", "won't build", "no longer builds",
	"causes a regression", "caused a regression", "causing a regression",
	"introduces a regression", "introduced a regression",
	"regression caused by", "regression introduced by", "regressed",
	"regresses", "see a regression", "seeing a regression",
	"found a regression", "needs commit", "needs the commit", "needs upstream commit",
	"also needs", "also need", "is also needed", "are also needed",
	"is also required", "depends on commit", "missing a prerequisite",
	"missing prerequisite", "missing dependency",
};

/* Words that undo a phrase after them in the same clause. */
static const char *const negations[] = {
	"no", "not", "without", "never", "nor", "none", "nothing", "neither",
	"zero", "0", "fix", "fixes", "fixed", "fixing", "avoid", "avoids",
	"prevent", "prevents", "known", "already", "existing", "pre-existing",
};

static bool has_word_ci(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n > len)
		return false;
	for (i = 0; i + n <= len; i++) {
		if (strncasecmp(hay + i, needle, n))
			continue;
		/* Whole words for short needles such as "nak". */
		if (n <= 4 && ((i > 0 && isalnum((unsigned char)hay[i - 1])) ||
			       (i + n < len && isalnum((unsigned char)hay[i + n]))))
			continue;
		return true;
	}
	return false;
}

void fs_mentions_clear(struct fs_mentions *m)
{
	size_t i;

	for (i = 0; m->dates_ && i < m->hits_.n; i++)
		free(m->dates_[i]);
	free(m->dates_);
	for (i = 0; m->lines_ && i < m->nobjections; i++)
		free(m->lines_[i]);
	free(m->lines_);
	fs_store_messages_free(&m->hits_);
	free(m->reports);
	free(m->objections);
	memset(m, 0, sizeof(*m));
}

/* Whether the line S..E is a trailer ("Tested-by: ...", "Cc: ...",
 * "Link: ..."): a tag, not the replier's words.  "Nacked-by:" is not. */
static bool is_trailer(const char *s, const char *e)
{
	const char *c = s;

	while (c < e && (isalnum((unsigned char)*c) || *c == '-'))
		c++;
	if (c == s || c >= e || *c != ':' || (c + 1 < e && c[1] != ' '))
		return false;
	if (c - s == 9 && !strncasecmp(s, "nacked-by", 9))
		return false;
	return (c - s > 3 && !strncasecmp(c - 3, "-by", 3)) ||
	       (c - s == 2 && !strncasecmp(s, "cc", 2)) ||
	       (c - s == 4 && !strncasecmp(s, "link", 4)) ||
	       (c - s == 5 && !strncasecmp(s, "fixes", 5));
}

/* The replier's own words in BODY: quoted text, attributions, trailers
 * and the signature left out, lines joined with blanks so that a
 * sentence may span them, and '\n' where something was left out or a
 * paragraph ends.  New string (g_free()). */
static char *own_words(const char *body, size_t len)
{
	const char *p = body, *end = body + len;
	GString *out = g_string_new(NULL);

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end, *s = p;
		size_t l;

		p = e + 1;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		l = e - s;
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		if ((e - s == 2 || e - s == 3) && !strncmp(s, "--", 2) && (e - s == 2 || s[2] == ' '))
			break;
		if (!l || *s == '>' || (l >= 6 && !strncmp(s + l - 6, "wrote:", 6)) ||
		    is_trailer(s, s + l)) {
			g_string_append_c(out, '\n');
			continue;
		}
		if (out->len && out->str[out->len - 1] != '\n')
			g_string_append_c(out, ' ');
		g_string_append_len(out, s, l);
	}
	return g_string_free(out, FALSE);
}

/* Whether one of NEGATIONS, or a word ending in "n't", is among the words
 * of S[0..AT) in the clause AT is in. */
static bool negated(const char *s, size_t at)
{
	size_t start = at, i, k;

	while (start > 0 && !strchr(",;:(", s[start - 1]) &&
	       !(start >= 5 && !strncasecmp(s + start - 5, " but ", 5)))
		start--;
	for (i = start; i < at;) {
		size_t w = i;
		while (w < at && (isalnum((unsigned char)s[w]) || s[w] == '\'' || s[w] == '-'))
			w++;
		if (w > i) {
			if (w - i >= 3 && !strncasecmp(s + w - 3, "n't", 3))
				return true;
			for (k = 0; k < G_N_ELEMENTS(negations); k++)
				if (strlen(negations[k]) == w - i &&
				    !strncasecmp(s + i, negations[k], w - i))
					return true;
		}
		i = w > i ? w : i + 1;
	}
	return false;
}

/* Where NEEDLE occurs in S (LEN bytes) as whole words from FROM on, or
 * LEN. */
static size_t find_words(const char *s, size_t len, size_t from, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = from; i + n <= len; i++) {
		if (strncasecmp(s + i, needle, n))
			continue;
		if ((i > 0 && isalnum((unsigned char)s[i - 1])) ||
		    (i + n < len && isalnum((unsigned char)s[i + n])))
			continue;
		return i;
	}
	return len;
}

/* "needs <commit> as well" / "too": the patch wants another one with it.
 * "need this for 5.4 as well" asks for the patch elsewhere instead. */
static bool needs_as_well(const char *s, size_t len)
{
	static const char *const verbs[] = { "needs", "need", "requires" };
	static const char *const not_after[] = { "this", "it", "these", "to", "that" };
	size_t v, at, k;

	for (v = 0; v < G_N_ELEMENTS(verbs); v++) {
		for (at = 0; (at = find_words(s, len, at, verbs[v])) < len; at++) {
			const char *next = s + at + strlen(verbs[v]);
			bool elsewhere = false;
			while (next < s + len && *next == ' ')
				next++;
			for (k = 0; k < G_N_ELEMENTS(not_after); k++)
				elsewhere |= find_words(next, s + len - next, 0, not_after[k]) == 0;
			if (elsewhere || negated(s, at))
				continue;
			if (find_words(s, len, at, "as well") < len || find_words(s, len, at, "too") < len)
				return true;
		}
	}
	return false;
}

/* Whether the sentence S (LEN bytes) objects to the patch. */
static bool sentence_objects(const char *s, size_t len)
{
	bool question = len && s[len - 1] == '?';
	bool please = find_words(s, len, 0, "please") < len;
	size_t k, at;

	for (k = 0; k < G_N_ELEMENTS(objection_phrases); k++) {
		const char *ph = objection_phrases[k];
		bool strong = !strcmp(ph, "nak") || !strcmp(ph, "nack") ||
			      !strcmp(ph, "nacked-by");
		/* A question asks; "Could you please drop it?" still objects. */
		if (question && !please && !strong)
			continue;
		for (at = 0; (at = find_words(s, len, at, ph)) < len; at++)
			if (strong || !negated(s, at))
				return true;
	}
	return (!question || please) && needs_as_well(s, len);
}

/* The sentence P (LEN bytes) as a new string; one of over OBJECTION_MAX
 * bytes is cut at a word and ends in " [...]". */
static char *whole_sentence(const char *p, size_t len)
{
	size_t cut = len;
	char *out;

	if (len <= OBJECTION_MAX)
		return strndup(p, len);
	for (cut = OBJECTION_MAX; cut > 0 && p[cut] != ' '; cut--)
		;
	if (!cut)
		cut = OBJECTION_MAX;
	if (asprintf(&out, "%.*s [...]", (int)cut, p) < 0)
		return NULL;
	return out;
}

char *fs_mentions_objection_line(const char *body, size_t len)
{
	char *text = own_words(body, len), *p = text, *found = NULL;

	while (*p && !found) {
		char *e = p;
		size_t l;
		while (*e && *e != '\n' &&
		       !(strchr(".?!", *e) && (!e[1] || isspace((unsigned char)e[1]))))
			e++;
		if (*e && *e != '\n')
			e++;
		while (p < e && *p == ' ')
			p++;
		l = e - p;
		while (l && isspace((unsigned char)p[l - 1]))
			l--;
		/* The whole sentence: a quote cut half way ("... as well,
		 * otherwise") says something else.  Only a runaway one (no
		 * full stop in a whole paragraph) is cut, at a word, and
		 * says so. */
		if (l && sentence_objects(p, l))
			found = whole_sentence(p, l);
		p = *e ? e + (*e == '\n' || *e == ' ') : e;
	}
	g_free(text);
	return found;
}

/* The address part of FROM ("Name <a@b>" or "a@b"), LEN bytes at *OUT. */
static bool address_of(const char *from, const char **out, size_t *len)
{
	const char *lt = from ? strrchr(from, '<') : NULL, *gt;

	if (lt && (gt = strchr(lt, '>'))) {
		*out = lt + 1;
		*len = gt - lt - 1;
	} else if (from) {
		*out = from;
		while (**out == ' ')
			(*out)++;
		*len = strlen(*out);
		while (*len && (*out)[*len - 1] == ' ')
			(*len)--;
	}
	return from && *len;
}

bool fs_mentions_is_draft_file(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL, *info;

	base = base ? base + 1 : path;
	info = base ? strstr(base, ":2,") : NULL;
	/* maildir flags: capital letters in ASCII order after ":2," */
	return info && strchr(info + 3, 'D');
}

bool fs_mentions_is_own_address(const char *from, const char *const *own)
{
	const char *addr;
	size_t alen = 0;

	if (!own || !address_of(from, &addr, &alen))
		return false;
	for (; *own; own++)
		if (strlen(*own) == alen && !strncasecmp(*own, addr, alen))
			return true;
	return false;
}

/* Whether P's Message-Id is one fixscan made for a draft before its ids
 * became ordinary ones (starting with fixscan and a dot, on the domain
 * of the address it is sent from)
 * on the domain of one of OWN: the reviewer may have changed the From of the draft, but not its
 * id.  Another reviewer's fixscan ids are on their own domain. */
static bool has_own_draft_id(const struct fs_patch *p, const char *const *own)
{
	const char *id = p ? fs_patch_message_id(p) : NULL, *dom, *odom;

	if (!id || !own || strncmp(id, "fixscan", 7) || id[7] != '.' || !(dom = strrchr(id, '@')))
		return false;
	for (; *own; own++)
		if ((odom = strrchr(*own, '@')) && !g_ascii_strcasecmp(odom, dom))
			return true;
	return false;
}

bool fs_mentions_is_own_mail(const char *path, const struct fs_patch *p,
			     const char *const *own)
{
	/* What fixscan wrote: the digest mail carries the digest it belongs
	 * to; drafts of older versions carried their key and digest. */
	if (p && (fs_patch_header(p, "X-Fixscan-Key") || fs_patch_header(p, "X-Fixscan-Digest")))
		return true;
	if (fs_mentions_is_draft_file(path) || has_own_draft_id(p, own))
		return true;
	return p && fs_mentions_is_own_address(fs_patch_from(p), own);
}

int fs_mentions_objections(struct fs_mentions *m, const struct fs_thread_series *s,
			   const char *const *own, struct fs_error *err)
{
	size_t i, cap = m->nobjections + s->nreplies + 1;
	struct fs_objection *ov = realloc(m->objections, cap * sizeof(*ov));
	char **lv;

	if (ov)
		m->objections = ov;
	lv = ov ? realloc(m->lines_, cap * sizeof(*lv)) : NULL;
	if (!lv)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	m->lines_ = lv;
	for (i = 0; i < s->nreplies; i++) {
		const struct fs_patch *reply = s->replies[i];
		const struct fs_patch *target = fs_thread_replied_patch(s, reply);
		struct fs_objection *o = &m->objections[m->nobjections];
		const char *body;
		size_t blen;
		char *line;

		/* The user's own word is not evidence to cite back to them. */
		if (!target || fs_mentions_is_own_mail(fs_patch_file(reply), reply, own))
			continue;
		body = fs_patch_body(reply, &blen);
		line = fs_mentions_objection_line(body, blen);
		if (!line)
			continue;
		m->lines_[m->nobjections] = line;
		o->series_index = fs_thread_patch_number(target);
		o->message_id = fs_patch_message_id(reply);
		o->from = fs_patch_from(reply);
		o->date = fs_patch_date(reply);
		o->line = line;
		m->nobjections++;
	}
	return 0;
}

/* The two parts every report query shares, as new strings (g_free()):
 * *WORDS the disjunction of REGRESSION_WORDS in parentheses, and
 * *OUTSIDE " AND NOT thread:T" for S's own thread (or ""). */
static void report_words(struct fs_store *store, const struct fs_thread_series *s,
			 char **words, char **outside)
{
	const struct fs_patch *anchor = s->cover ? s->cover : s->patches[0];
	struct fs_store_message own;
	GString *w = g_string_new("(");
	size_t k;

	for (k = 0; k < G_N_ELEMENTS(regression_words); k++) {
		char *quoted = fs_store_quote(regression_words[k]);
		g_string_append_printf(w, "%s%s", k ? " OR " : "", quoted ? quoted : "\"\"");
		free(quoted);
	}
	g_string_append(w, ")");
	*words = g_string_free(w, FALSE);
	*outside = g_strdup("");
	memset(&own, 0, sizeof(own));
	if (fs_patch_message_id(anchor) &&
	    fs_store_find_message(store, fs_patch_message_id(anchor), &own, NULL) == 0) {
		char *quoted = fs_store_quote(own.thread_id);
		g_free(*outside);
		*outside = g_strdup_printf(" AND NOT thread:%s", quoted ? quoted : "\"\"");
		free(quoted);
	}
	fs_store_message_clear(&own);
}

/* The mail in FILE, parsed, if it is one that may report trouble with a
 * commit; NULL for the user's own mail (fixscan's drafts and digest
 * quote ids and "regression"; so do the replies sent from them), for
 * covers and patch mails of other series (they quote ids and subjects in
 * their shortlogs; only people's mails report), and for a mail that
 * cannot be parsed (it cannot be quoted).  Free with fs_patch_free(). */
static struct fs_patch *open_report(const char *file, const char *const *own)
{
	struct fs_patch *m = NULL;

	if (fs_patch_parse_file(&m, file, NULL) < 0)
		return NULL;
	if (fs_mentions_is_own_mail(file, m, own) ||
	    (fs_patch_series(m) && strncasecmp(fs_patch_subject(m), "re:", 3))) {
		fs_patch_free(m);
		return NULL;
	}
	return m;
}

/* Whether the mail M (from open_report()) speaks of the commit HEX12 /
 * SUBJ: the id, without case, in its body or subject, or the subject,
 * exactly, in either. */
static bool names_commit(const struct fs_patch *m, const char *hex12, const char *subj)
{
	const char *msubj = fs_patch_subject(m), *body;
	size_t blen;

	body = fs_patch_body(m, &blen);
	return has_word_ci(body, blen, hex12) || has_word_ci(msubj, strlen(msubj), hex12) ||
	       (*subj && (memmem(body, blen, subj, strlen(subj)) || strstr(msubj, subj)));
}

/* Whether the mail in FILE speaks of the commit HEX12 / SUBJ as a
 * person's report would. */
static bool hit_names_commit(const char *file, const char *hex12, const char *subj,
			     const char *const *own)
{
	struct fs_patch *m = open_report(file, own);
	bool named = m && names_commit(m, hex12, subj);

	fs_patch_free(m);
	return named;
}

/* Move HIT into M's storage and add a report of UPSTREAM pointing at it. */
static int keep_hit(struct fs_mentions *m, struct fs_store_message *hit, fs_cid upstream)
{
	size_t n = m->hits_.n;
	struct fs_store_message *hv = realloc(m->hits_.v, (n + 1) * sizeof(*hv));
	struct fs_report_mail *rv;
	char **dv, buf[64];
	struct tm tm;

	if (hv)
		m->hits_.v = hv;
	dv = hv ? realloc(m->dates_, (n + 1) * sizeof(*dv)) : NULL;
	if (dv)
		m->dates_ = dv;
	rv = dv ? realloc(m->reports, (m->nreports + 1) * sizeof(*rv)) : NULL;
	if (!rv)
		return FS_ENOMEM;
	m->reports = rv;
	hv[n] = *hit;
	memset(hit, 0, sizeof(*hit));
	dv[n] = NULL;
	if (gmtime_r(&hv[n].date, &tm) &&
	    strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", &tm))
		dv[n] = strdup(buf);
	m->hits_.n++;
	rv[m->nreports].upstream = upstream;
	rv[m->nreports].message_id = hv[n].message_id;
	rv[m->nreports].from = hv[n].from;
	rv[m->nreports].date = dv[n];
	rv[m->nreports].subject = hv[n].subject;
	m->nreports++;
	return 0;
}

/* A distinct upstream commit of the series, to be searched. */
struct wanted {
	fs_cid id;
	const char *subj; /* borrowed from the index */
	size_t slen;
	guint64 head;     /* SUBJ's first 8 bytes: its key in the subject table */
	char full[41];    /* the id, lower case */
	char hex[13];     /* abbreviated */
	bool named;       /* a candidate mail names it: search it */
};

/* The reports of the commit W: one store query (the id, abbreviated or
 * not, or the subject as a phrase, with WORDS and OUTSIDE from
 * report_words()), then each hit read to check it really names the
 * commit. */
static int search_commit(struct fs_mentions *m, struct fs_store *store, const struct wanted *w,
			 const char *words, const char *outside, const char *const *own,
			 struct fs_error *err)
{
	struct fs_store_messages found = { NULL, 0 };
	char *quoted = fs_store_quote(w->subj), *q;
	size_t h;
	int rc;

	q = g_strdup_printf("(%s OR %s OR %s) AND %s%s", w->hex, w->full, quoted ? quoted : "\"\"",
			    words, outside);
	free(quoted);
	rc = fs_store_search(store, q, &found, err);
	g_free(q);
	for (h = 0; rc == 0 && h < found.n; h++) {
		if (!hit_names_commit(found.v[h].filename, w->hex, w->subj, own))
			continue;
		if (keep_hit(m, &found.v[h], w->id) < 0)
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	fs_store_messages_free(&found);
	return rc;
}

/* The tables of the commits V[0..N) that mark_named() looks a mail's
 * words up in. */
struct wanted_tables {
	GHashTable *ids;   /* abbreviated id -> GSList of struct wanted */
	GHashTable *heads; /* first 8 bytes of a subject -> GSList */
	GSList *short_subj; /* subjects of 1 to 7 bytes */
};

static void slist_free(gpointer l)
{
	g_slist_free(l);
}

static void add_to(GHashTable *t, gpointer key, struct wanted *w)
{
	GSList *l = g_hash_table_lookup(t, key);

	g_hash_table_steal(t, key);
	g_hash_table_insert(t, key, g_slist_prepend(l, w));
}

static void tables_init(struct wanted_tables *t, struct wanted *v, size_t n)
{
	size_t i;

	t->ids = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, slist_free);
	t->heads = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, slist_free);
	t->short_subj = NULL;
	for (i = 0; i < n; i++) {
		add_to(t->ids, v[i].hex, &v[i]);
		if (v[i].slen >= sizeof(v[i].head)) {
			memcpy(&v[i].head, v[i].subj, sizeof(v[i].head));
			add_to(t->heads, &v[i].head, &v[i]);
		} else if (v[i].slen) {
			t->short_subj = g_slist_prepend(t->short_subj, &v[i]);
		}
	}
}

static void tables_clear(struct wanted_tables *t)
{
	g_hash_table_destroy(t->ids);
	g_hash_table_destroy(t->heads);
	g_slist_free(t->short_subj);
}

/* Mark the commits of T whose abbreviated id is in TEXT (LEN bytes)
 * without case, as names_commit() compares it: every 12 hex digits in a
 * row, wherever they start in a longer run. */
static void mark_ids(const struct wanted_tables *t, const char *text, size_t len)
{
	size_t i = 0, run, k;
	char key[13];
	GSList *l;

	key[12] = '\0';
	while (i < len) {
		for (run = 0; i + run < len && isxdigit((unsigned char)text[i + run]); run++)
			;
		for (k = 0; run >= 12 && k + 12 <= run; k++) {
			size_t j;
			for (j = 0; j < 12; j++)
				key[j] = g_ascii_tolower(text[i + k + j]);
			for (l = g_hash_table_lookup(t->ids, key); l; l = l->next)
				((struct wanted *)l->data)->named = true;
		}
		i += run ? run : 1;
	}
}

/* Mark the commits of T whose subject is in TEXT (LEN bytes), exactly,
 * as names_commit() looks for it. */
static void mark_subjects(const struct wanted_tables *t, const char *text, size_t len)
{
	guint64 head;
	size_t i;
	GSList *l;

	for (i = 0; i + sizeof(head) <= len; i++) {
		memcpy(&head, text + i, sizeof(head));
		for (l = g_hash_table_lookup(t->heads, &head); l; l = l->next) {
			struct wanted *w = l->data;
			if (w->slen <= len - i && !memcmp(text + i, w->subj, w->slen))
				w->named = true;
		}
	}
	for (l = t->short_subj; l; l = l->next) {
		struct wanted *w = l->data;
		if (memmem(text, len, w->subj, w->slen))
			w->named = true;
	}
}

/* Mark in V[0..N) the commits one of the mails matching the query
 * CANDIDATES names (names_commit() of open_report()).  A commit's own
 * query is CANDIDATES and its id or subject, so it finds candidates
 * only, and a report is a hit names_commit() passes: the commits left
 * unmarked have no report, and need no query.  Each candidate is read
 * once whatever N is. */
static int mark_named(struct wanted *v, size_t n, struct fs_store *store, const char *candidates,
		      const char *const *own, struct fs_error *err)
{
	struct fs_store_messages found = { NULL, 0 };
	struct wanted_tables t;
	size_t h;
	int rc;

	rc = fs_store_search(store, candidates, &found, err);
	if (rc < 0 || !found.n)
		goto out;
	tables_init(&t, v, n);
	for (h = 0; h < found.n; h++) {
		struct fs_patch *m = open_report(found.v[h].filename, own);
		const char *msubj, *body;
		size_t blen;

		if (!m)
			continue;
		msubj = fs_patch_subject(m);
		body = fs_patch_body(m, &blen);
		mark_ids(&t, body, blen);
		mark_ids(&t, msubj, strlen(msubj));
		mark_subjects(&t, body, blen);
		mark_subjects(&t, msubj, strlen(msubj));
		fs_patch_free(m);
	}
	tables_clear(&t);
out:
	fs_store_messages_free(&found);
	return rc;
}

/* The distinct commits of UPSTREAM[0..N), in order of first appearance:
 * patches that share an upstream share its reports, so that a mail is
 * one report of it.  *OUT is a new array (free()), all unmarked. */
static int distinct_commits(struct wanted **out, size_t *nout, const struct fs_index *idx,
			    const fs_cid *upstream, size_t n)
{
	GHashTable *done = g_hash_table_new(g_direct_hash, g_direct_equal);
	struct wanted *v = calloc(n + 1, sizeof(*v));
	size_t i, k = 0;

	*out = v;
	*nout = 0;
	for (i = 0; v && i < n; i++) {
		if (upstream[i] == FS_CID_NONE ||
		    !g_hash_table_add(done, GUINT_TO_POINTER(upstream[i] + 1)))
			continue;
		v[k].id = upstream[i];
		v[k].subj = fs_index_commit_subject(idx, upstream[i]);
		v[k].slen = strlen(v[k].subj);
		fs_index_commit_hex(idx, upstream[i], v[k].full);
		memcpy(v[k].hex, v[k].full, 12);
		k++;
	}
	g_hash_table_destroy(done);
	*nout = k;
	return v ? 0 : FS_ENOMEM;
}

int fs_mentions_reports_limit(struct fs_mentions *m, struct fs_store *store,
			      const struct fs_index *idx, const struct fs_thread_series *s,
			      const fs_cid *upstream, size_t n, const char *const *own,
			      size_t per_commit, struct fs_error *err)
{
	struct wanted *v = NULL;
	char *words, *outside, *candidates;
	size_t i, nv = 0, count = 0;
	int rc;

	if (!s->npatches && !s->cover)
		return 0;
	if (distinct_commits(&v, &nv, idx, upstream, n) < 0) {
		free(v);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	report_words(store, s, &words, &outside);
	candidates = g_strconcat(words, outside, NULL);
	/* One query per commit costs notmuch about a millisecond however
	 * little it finds (one query OR-ing many commits costs far more),
	 * and reading a mail far less.  So when the mails any commit's
	 * query could find are few, read them and ask only for the commits
	 * they name; else ask for every commit. */
	rc = nv ? fs_store_count(store, candidates, &count, err) : 0;
	if (rc == 0 && count <= per_commit * nv)
		rc = mark_named(v, nv, store, candidates, own, err);
	else
		for (i = 0; i < nv; i++)
			v[i].named = true;
	for (i = 0; rc == 0 && i < nv; i++)
		if (v[i].named)
			rc = search_commit(m, store, &v[i], words, outside, own, err);
	g_free(candidates);
	g_free(outside);
	g_free(words);
	free(v);
	return rc;
}

int fs_mentions_reports(struct fs_mentions *m, struct fs_store *store,
			const struct fs_index *idx, const struct fs_thread_series *s,
			const fs_cid *upstream, size_t n, const char *const *own,
			struct fs_error *err)
{
	return fs_mentions_reports_limit(m, store, idx, s, upstream, n, own,
					 FS_MENTIONS_CANDIDATES_PER_COMMIT, err);
}
