/* fixscan: reviewing one stable series. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "fixscan/draft.h"
#include "fixscan/review.h"

#define MAX_UPSTREAM 16

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

char *fs_review_objection_line(const char *body, size_t len)
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
			for (k = 0; k < sizeof(objection_phrases) / sizeof(*objection_phrases); k++) {
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

void fs_review_free(struct fs_review *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->npatches; i++)
		fs_findings_clear(&r->patches[i].findings);
	free(r->patches);
	free(r->branch);
	free(r->base);
	free(r);
}

/* Branch and base: flags, then what the mails say, then
 * fixscan.branch.<version>. */
static int choose_branch(struct fs_review *r, const struct fs_thread_series *s,
			 const struct fs_index *idx, const struct fs_review_opts *o,
			 struct fs_error *err)
{
	char *configured = NULL;

	if (o->branch) {
		r->branch = strdup(o->branch);
		r->branch_source = "--branch";
	} else if (s->branch && strcmp(s->branch_source, "subject") != 0) {
		r->branch = strdup(s->branch);
		r->branch_source = s->branch_source;
	} else if (s->version && o->cfg) {
		char key[128];
		snprintf(key, sizeof(key), "fixscan.branch.%s", s->version);
		if (fs_config_get_string(o->cfg, key, &configured) == 0) {
			r->branch = configured;
			r->branch_source = "fixscan.branch config";
		}
	}
	if (!r->branch && s->branch) {
		r->branch = strdup(s->branch);
		r->branch_source = s->branch_source;
	}
	if (!r->branch)
		return fs_error_set(err, FS_ENOTFOUND,
				    "cannot tell which stable branch '%s' is for: use --branch",
				    s->cover ? fs_patch_subject(s->cover) : "the series");
	if (!fs_index_has_branch(idx, r->branch))
		return fs_error_set(err, FS_ENOTFOUND,
				    "branch '%s' (from %s) is not in the kernel repository's index (see fixscan.stable)",
				    r->branch, r->branch_source);
	if (o->base) {
		r->base = strdup(o->base);
		r->base_source = "--base";
	} else if (s->base) {
		r->base = strdup(s->base);
		r->base_source = s->base_source;
	}
	return 0;
}

struct upstream_list {
	fs_cid ids[MAX_UPSTREAM];
	size_t n;
};

/* Regression reports: one store query per upstream commit (one query
 * OR-ing hundreds of ids costs notmuch far more than the queries one by
 * one), then each hit read to check it really names the commit. */
static int find_reports(const struct fs_review *r, const struct fs_index *idx,
			struct fs_store *store, const struct upstream_list *ups,
			struct fs_report_mail **out, size_t *nout,
			struct fs_store_messages *hits, char ***dates, struct fs_error *err)
{
	GString *words = g_string_new(NULL), *q = g_string_new(NULL);
	struct fs_store_message cover_msg;
	const struct fs_thread_series *s = r->series;
	const struct fs_patch *anchor = s->cover ? s->cover : s->patches[0];
	size_t i, k, w, cap = 0, dcap = 0;
	char hex[41];
	int rc = 0;

	*out = NULL;
	*nout = 0;
	memset(&cover_msg, 0, sizeof(cover_msg));
	g_string_append(words, " AND (");
	for (w = 0; w < sizeof(regression_words) / sizeof(*regression_words); w++) {
		char *quoted = fs_store_quote(regression_words[w]);
		g_string_append_printf(words, "%s%s", w ? " OR " : "", quoted ? quoted : "\"\"");
		free(quoted);
	}
	g_string_append(words, ")");
	if (fs_patch_message_id(anchor) &&
	    fs_store_find_message(store, fs_patch_message_id(anchor), &cover_msg, NULL) == 0)
		g_string_append_printf(words, " AND NOT thread:%s", cover_msg.thread_id);
	for (i = 0; i < r->npatches; i++) {
		for (k = 0; k < ups[i].n; k++) {
			struct fs_store_messages one = { NULL, 0 };
			const char *subj = fs_index_commit_subject(idx, ups[i].ids[k]);
			char *quoted = fs_store_quote(subj);
			size_t h;

			fs_index_commit_hex(idx, ups[i].ids[k], hex);
			g_string_printf(q, "(%.12s OR %s OR %s)%s", hex, hex,
					quoted ? quoted : "\"\"", words->str);
			free(quoted);
			rc = fs_store_search(store, q->str, &one, err);
			if (rc < 0) {
				fs_store_messages_free(&one);
				goto out;
			}
			hex[12] = '\0';
			for (h = 0; h < one.n; h++) {
				struct fs_patch *m = NULL;
				const char *body, *msubj;
				size_t blen;
				bool named;
				char buf[64];
				time_t t = one.v[h].date;
				struct tm tm;

				/* A mail that cannot be parsed cannot be quoted. */
				if (fs_patch_parse_file(&m, one.v[h].filename, NULL) < 0)
					continue;
				/* An unsent draft (fixscan's replies to another
				 * series quote ids and "regression") reports
				 * nothing. */
				if (fs_draft_is_draft(one.v[h].filename, m)) {
					fs_patch_free(m);
					continue;
				}
				msubj = fs_patch_subject(m);
				/* Covers and patch mails of other series quote ids
				 * and subjects in their shortlogs; only people's
				 * mails report. */
				named = !(fs_patch_series(m) && strncasecmp(msubj, "re:", 3));
				body = fs_patch_body(m, &blen);
				named = named && (has_word_ci(body, blen, hex) ||
						  has_word_ci(msubj, strlen(msubj), hex) ||
						  (*subj && (memmem(body, blen, subj, strlen(subj)) ||
							     strstr(msubj, subj))));
				fs_patch_free(m);
				if (!named)
					continue;
				/* Keep the hit: move it into HITS, which owns the
				 * strings the report points at. */
				if (hits->n == dcap) {
					size_t nc = dcap ? dcap * 2 : 8;
					struct fs_store_message *g = realloc(hits->v, nc * sizeof(*g));
					char **gd = realloc(*dates, nc * sizeof(*gd));
					if (g)
						hits->v = g;
					if (gd)
						*dates = gd;
					if (!g || !gd) {
						fs_store_messages_free(&one);
						rc = fs_error_set(err, FS_ENOMEM, "out of memory");
						goto out;
					}
					dcap = nc;
				}
				hits->v[hits->n] = one.v[h];
				memset(&one.v[h], 0, sizeof(one.v[h]));
				(*dates)[hits->n] = NULL;
				if (gmtime_r(&t, &tm) &&
				    strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", &tm))
					(*dates)[hits->n] = strdup(buf);
				if (*nout == cap) {
					size_t nc = cap ? cap * 2 : 8;
					struct fs_report_mail *g = realloc(*out, nc * sizeof(*g));
					if (!g) {
						hits->n++;
						fs_store_messages_free(&one);
						rc = fs_error_set(err, FS_ENOMEM, "out of memory");
						goto out;
					}
					*out = g;
					cap = nc;
				}
				(*out)[*nout].upstream = ups[i].ids[k];
				(*out)[*nout].message_id = hits->v[hits->n].message_id;
				(*out)[*nout].from = hits->v[hits->n].from;
				(*out)[*nout].date = (*dates)[hits->n];
				(*out)[*nout].subject = hits->v[hits->n].subject;
				(*nout)++;
				hits->n++;
			}
			fs_store_messages_free(&one);
		}
	}
out:
	fs_store_message_clear(&cover_msg);
	g_string_free(q, TRUE);
	g_string_free(words, TRUE);
	return rc;
}

int fs_review_run(struct fs_review **out, const struct fs_thread_series *s,
		  const struct fs_index *idx, struct fs_store *store,
		  const struct fs_review_opts *o, struct fs_error *err)
{
	struct fs_review *r = calloc(1, sizeof(*r));
	struct upstream_list *ups = NULL;
	struct fs_series_entry *entries = NULL;
	struct fs_report_mail *reports = NULL;
	struct fs_objection *objections = NULL;
	char **objection_lines = NULL, **dates = NULL;
	size_t nreports = 0, nobj = 0, i, k;
	struct fs_store_messages hits = { NULL, 0 };
	struct fs_findings_ctx ctx;
	int rc;

	*out = NULL;
	if (!r)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	r->series = s;
	rc = choose_branch(r, s, idx, o, err);
	if (rc < 0)
		goto out;
	r->npatches = s->npatches;
	r->patches = calloc(s->npatches + 1, sizeof(*r->patches));
	ups = calloc(s->npatches + 1, sizeof(*ups));
	entries = calloc(s->npatches + 1, sizeof(*entries));
	objections = calloc(s->nreplies + 1, sizeof(*objections));
	objection_lines = calloc(s->nreplies + 1, sizeof(*objection_lines));
	if (!r->patches || !ups || !entries || !objections || !objection_lines) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < s->npatches; i++) {
		const struct fs_patch *p = s->patches[i];
		r->patches[i].patch = p;
		r->patches[i].index = fs_patch_series(p)->index;
		ups[i].n = fs_findings_resolve_upstream(idx, fs_patch_tags(p), fs_patch_title(p),
							ups[i].ids, MAX_UPSTREAM, NULL);
		if (ups[i].n > MAX_UPSTREAM)
			ups[i].n = MAX_UPSTREAM;
		entries[i].index = r->patches[i].index;
		entries[i].upstream = ups[i].ids;
		entries[i].nupstream = ups[i].n;
	}
	for (i = 0; i < s->nreplies; i++) {
		const struct fs_patch *reply = s->replies[i], *target;
		const char *body;
		size_t blen;
		target = fs_thread_replied_patch(s, reply);
		if (!target)
			continue;
		body = fs_patch_body(reply, &blen);
		objection_lines[nobj] = fs_review_objection_line(body, blen);
		if (!objection_lines[nobj])
			continue;
		objections[nobj].series_index = fs_patch_series(target)->index;
		objections[nobj].message_id = fs_patch_message_id(reply);
		objections[nobj].from = fs_patch_from(reply);
		objections[nobj].date = fs_patch_date(reply);
		objections[nobj].line = objection_lines[nobj];
		nobj++;
	}
	if (store && !o->no_reports && s->npatches) {
		rc = find_reports(r, idx, store, ups, &reports, &nreports, &hits, &dates, err);
		if (rc < 0)
			goto out;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = idx;
	ctx.branch = r->branch;
	ctx.base = r->base;
	ctx.series = entries;
	ctx.nseries = s->npatches;
	ctx.reports = reports;
	ctx.nreports = nreports;
	ctx.objections = objections;
	ctx.nobjections = nobj;
	ctx.ignore = o->ignore;
	for (i = 0; i < s->npatches; i++) {
		struct fs_review_patch *rp = &r->patches[i];
		rc = fs_findings_judge(&rp->findings, &ctx, fs_patch_tags(rp->patch),
				       fs_patch_title(rp->patch), rp->index, err);
		if (rc < 0)
			goto out;
		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];
			if (f->ignored) {
				r->ignored++;
				continue;
			}
			r->counts[f->kind]++;
			if (fs_finding_kind_is_problem(f->kind))
				r->problems++;
		}
	}
	*out = r;
	r = NULL;
	rc = 0;
out:
	for (i = 0; objection_lines && i < nobj; i++)
		free(objection_lines[i]);
	free(objection_lines);
	free(objections);
	free(reports);
	for (i = 0; dates && i < hits.n; i++)
		free(dates[i]);
	free(dates);
	fs_store_messages_free(&hits);
	free(entries);
	free(ups);
	fs_review_free(r);
	return rc;
}
