/* fixscan: objections in a thread and regression reports in the store. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <glib.h>

#include "fixscan/draft.h"
#include "fixscan/mentions.h"

/* Words that make a mention of a commit a report of trouble with it. */
static const char *const regression_words[] = {
	"regression", "regressed", "revert", "reverting", "breaks", "broke",
	"broken", "bisected", "first bad commit",
};

static const char *const objection_phrases[] = {
	"please drop", "drop this", "please don't apply", "please do not apply",
	"breaks the build", "build failure", "build fails", "fails to build",
	"build error", "breaks boot", "boot failure", "fails to boot",
	"needs commit", "as well", "also needs", "is also needed", "regression",
	"was reverted", "please revert", "nak",
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

char *fs_mentions_objection_line(const char *body, size_t len)
{
	const char *p = body, *end = body + len;
	size_t k;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end, *s = p;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		/* Quoted text, attributions and trailers are not the
		 * replier's own words. */
		if (s < e && *s != '>' &&
		    !(e - s > 6 && !strncmp(e - 6, "wrote:", 6)) &&
		    strncasecmp(s, "tested-by:", 10) && strncasecmp(s, "reviewed-by:", 12)) {
			for (k = 0; k < G_N_ELEMENTS(objection_phrases); k++) {
				if (has_word_ci(s, e - s, objection_phrases[k])) {
					size_t l = e - s;
					while (l && isspace((unsigned char)s[l - 1]))
						l--;
					if (l > 200)
						l = 200;
					return strndup(s, l);
				}
			}
		}
		p = e + 1;
	}
	return NULL;
}

int fs_mentions_objections(struct fs_mentions *m, const struct fs_thread_series *s,
			   struct fs_error *err)
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

		if (!target)
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

/* " AND (regression OR ...)" plus " AND NOT thread:T" for S's own thread:
 * the part every report query shares.  New string (g_free()). */
static char *report_words(struct fs_store *store, const struct fs_thread_series *s)
{
	const struct fs_patch *anchor = s->cover ? s->cover : s->patches[0];
	struct fs_store_message own;
	GString *words = g_string_new(" AND (");
	size_t w;

	for (w = 0; w < G_N_ELEMENTS(regression_words); w++) {
		char *quoted = fs_store_quote(regression_words[w]);
		g_string_append_printf(words, "%s%s", w ? " OR " : "", quoted ? quoted : "\"\"");
		free(quoted);
	}
	g_string_append(words, ")");
	memset(&own, 0, sizeof(own));
	if (fs_patch_message_id(anchor) &&
	    fs_store_find_message(store, fs_patch_message_id(anchor), &own, NULL) == 0) {
		char *quoted = fs_store_quote(own.thread_id);
		g_string_append_printf(words, " AND NOT thread:%s", quoted ? quoted : "\"\"");
		free(quoted);
	}
	fs_store_message_clear(&own);
	return g_string_free(words, FALSE);
}

/* Whether the mail in FILE speaks of the commit HEX12 / SUBJ as a
 * person's report would. */
static bool hit_names_commit(const char *file, const char *hex12, const char *subj)
{
	struct fs_patch *m = NULL;
	const char *body, *msubj;
	size_t blen;
	bool named;

	/* A mail that cannot be parsed cannot be quoted. */
	if (fs_patch_parse_file(&m, file, NULL) < 0)
		return false;
	/* An unsent draft (fixscan's replies to another series quote ids
	 * and "regression") reports nothing. */
	if (fs_draft_is_draft(file, m)) {
		fs_patch_free(m);
		return false;
	}
	msubj = fs_patch_subject(m);
	/* Covers and patch mails of other series quote ids and subjects in
	 * their shortlogs; only people's mails report. */
	named = !(fs_patch_series(m) && strncasecmp(msubj, "re:", 3));
	body = fs_patch_body(m, &blen);
	named = named && (has_word_ci(body, blen, hex12) ||
			  has_word_ci(msubj, strlen(msubj), hex12) ||
			  (*subj && (memmem(body, blen, subj, strlen(subj)) ||
				     strstr(msubj, subj))));
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

/* One store query per upstream commit (one query OR-ing hundreds of ids
 * costs notmuch far more than the queries one by one), then each hit read
 * to check it really names the commit. */
int fs_mentions_reports(struct fs_mentions *m, struct fs_store *store,
			const struct fs_index *idx, const struct fs_thread_series *s,
			const fs_cid *upstream, size_t n, struct fs_error *err)
{
	char *words, *quoted, hex[41];
	size_t i, h;
	int rc = 0;

	if (!s->npatches && !s->cover)
		return 0;
	words = report_words(store, s);
	for (i = 0; i < n && rc == 0; i++) {
		struct fs_store_messages found = { NULL, 0 };
		const char *subj = fs_index_commit_subject(idx, upstream[i]);
		char *q;

		fs_index_commit_hex(idx, upstream[i], hex);
		quoted = fs_store_quote(subj);
		q = g_strdup_printf("(%.12s OR %s OR %s)%s", hex, hex,
				    quoted ? quoted : "\"\"", words);
		free(quoted);
		rc = fs_store_search(store, q, &found, err);
		g_free(q);
		hex[12] = '\0';
		for (h = 0; rc == 0 && h < found.n; h++) {
			if (!hit_names_commit(found.v[h].filename, hex, subj))
				continue;
			if (keep_hit(m, &found.v[h], upstream[i]) < 0)
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		}
		fs_store_messages_free(&found);
	}
	g_free(words);
	return rc;
}
