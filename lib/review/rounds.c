/* fixscan: what changed since the previous round of a release. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/review.h"
#include "fixscan/rounds.h"
#include "fixscan/version.h"

void fs_round_free(struct fs_round *rd)
{
	if (!rd)
		return;
	g_free(rd->cover);
	g_free(rd->release);
	g_free(rd->added);
	g_free(rd->dropped);
	g_free(rd->patches_added);
	g_free(rd->patches_dropped);
	g_free(rd->findings_new);
	g_free(rd->findings_resolved);
	g_free(rd);
}

bool fs_round_parse(const char *release, char **base, int *round)
{
	struct fs_version v;
	char name[FS_VERSION_NAME_MAX];

	*base = NULL;
	if (!fs_version_parse(release, &v) || v.v || v.rc < 1 || v.rc > 1000)
		return false;
	*round = (int)v.rc;
	v.rc = 0;
	if (!fs_version_format(&v, name, sizeof(name)))
		return false;
	*base = g_strdup(name);
	return *base != NULL;
}

/* Whether UPSTREAM (full id) is the upstream commit of a patch of R. */
static bool has_upstream(const struct fs_review *r, const char *upstream)
{
	size_t i;

	for (i = 0; i < r->npatches; i++)
		if (!strcmp(r->patches[i].findings.upstream, upstream))
			return true;
	return false;
}

/* The upstream commits of A that B has not, into *OUT. */
static int upstream_only(char (**out)[41], size_t *n, const struct fs_review *a,
			 const struct fs_review *b)
{
	size_t i;

	*out = g_try_malloc0_n(a->npatches + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < a->npatches; i++) {
		const char *u = a->patches[i].findings.upstream;
		if (*u && !has_upstream(b, u))
			memcpy((*out)[(*n)++], u, 41);
	}
	return 0;
}

/* What tells patch RP of one round from the others: its upstream
 * commit, or its title when it names none.  Borrowed. */
static const char *patch_key(const struct fs_review_patch *rp)
{
	const char *t;

	if (*rp->findings.upstream)
		return rp->findings.upstream;
	t = rp->patch ? fs_patch_title(rp->patch) : NULL;
	return t ? t : "";
}

/* The patches of A that B has no counterpart of, one to one (two
 * patches of one commit in A and one in B: one is left), into *OUT as
 * their NN in A. */
static int patches_only(int **out, size_t *n, const struct fs_review *a,
			const struct fs_review *b)
{
	bool *taken = g_try_malloc0_n(b->npatches + 1, sizeof(*taken));
	size_t i, k;

	*out = g_try_malloc0_n(a->npatches + 1, sizeof(**out));
	if (!*out || !taken) {
		g_free(taken);
		return -1;
	}
	for (i = 0; i < a->npatches; i++) {
		const char *key = patch_key(&a->patches[i]);

		/* the same kind of key on both sides: an id never
		 * matches a title */
		for (k = 0; k < b->npatches; k++)
			if (!taken[k] && !strcmp(patch_key(&b->patches[k]), key) &&
			    !*a->patches[i].findings.upstream == !*b->patches[k].findings.upstream)
				break;
		if (k < b->npatches)
			taken[k] = true;
		else
			(*out)[(*n)++] = a->patches[i].index;
	}
	g_free(taken);
	return 0;
}

bool fs_round_dropped(const struct fs_round *rd, int nn)
{
	size_t i;

	for (i = 0; rd && i < rd->npatches_dropped; i++)
		if (rd->patches_dropped[i] == nn)
			return true;
	return false;
}

/* Whether R has a finding of KIND on COMMIT for a patch of UPSTREAM. */
static bool has_finding(const struct fs_review *r, enum fs_finding_kind kind,
			const char *commit, const char *upstream)
{
	size_t i, k;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_findings *fs = &r->patches[i].findings;
		if (strcmp(fs->upstream, upstream))
			continue;
		for (k = 0; k < fs->n; k++)
			if (fs->v[k].kind == kind && !fs->v[k].ignored &&
			    !strcmp(fs->v[k].commit, commit))
				return true;
	}
	return false;
}

/* Whether F says what a reply in the thread said: a reply stays in the
 * thread it answered, so a later round without it has not resolved it. */
static bool from_thread_reply(const struct fs_finding *f)
{
	if (!f->mail.message_id)
		return false;
	return f->kind == FS_FIND_OBJECTION || f->kind == FS_FIND_NEEDS_ALSO ||
	       f->kind == FS_FIND_REPLACEMENT_POSTED || f->kind == FS_FIND_REPLY ||
	       (f->kind == FS_FIND_REGRESSION_REPORT && !f->commit[0]);
}

/* The findings of A that B has not, into *OUT; with RESOLVED (A is the
 * earlier round), not those of a reply in A's thread. */
static int findings_only(struct fs_round_finding **out, size_t *n, const struct fs_review *a,
			 const struct fs_review *b, bool resolved)
{
	size_t i, k, total = 0;

	for (i = 0; i < a->npatches; i++)
		total += a->patches[i].findings.n;
	*out = g_try_malloc0_n(total + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < a->npatches; i++) {
		const struct fs_findings *fs = &a->patches[i].findings;
		for (k = 0; k < fs->n; k++) {
			const struct fs_finding *f = &fs->v[k];
			struct fs_round_finding *o;

			if (f->ignored || has_finding(b, f->kind, f->commit, fs->upstream) ||
			    (resolved && from_thread_reply(f)))
				continue;
			o = &(*out)[(*n)++];
			o->kind = f->kind;
			memcpy(o->commit, f->commit, sizeof(o->commit));
			memcpy(o->upstream, fs->upstream, sizeof(o->upstream));
			o->index = a->patches[i].index;
		}
	}
	return 0;
}

int fs_round_compare(struct fs_round **out, const struct fs_review *prev,
		     const struct fs_review *cur, struct fs_error *err)
{
	struct fs_round *rd = g_try_new0(struct fs_round, 1);
	const struct fs_thread_series *s = prev->series;
	const char *cover = s->cover ? fs_patch_message_id(s->cover) : NULL;

	*out = NULL;
	if (!rd || (cover && !(rd->cover = g_strdup(cover))) ||
	    (s->release && !(rd->release = g_strdup(s->release))) ||
	    upstream_only(&rd->added, &rd->nadded, cur, prev) < 0 ||
	    upstream_only(&rd->dropped, &rd->ndropped, prev, cur) < 0 ||
	    patches_only(&rd->patches_added, &rd->npatches_added, cur, prev) < 0 ||
	    patches_only(&rd->patches_dropped, &rd->npatches_dropped, prev, cur) < 0 ||
	    findings_only(&rd->findings_new, &rd->nfindings_new, cur, prev, false) < 0 ||
	    findings_only(&rd->findings_resolved, &rd->nfindings_resolved, prev, cur, true) < 0) {
		fs_round_free(rd);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	*out = rd;
	return 0;
}

char *fs_round_text(const struct fs_round *rd)
{
	GString *s = g_string_new(NULL);
	size_t n = 0;

	g_string_append_printf(s, "since %s:", rd->release ? rd->release : "the previous round");
	if (rd->npatches_added)
		g_string_append_printf(s, "%s +%zu patch%s", n++ ? "," : "", rd->npatches_added,
				       rd->npatches_added == 1 ? "" : "es");
	if (rd->npatches_dropped)
		g_string_append_printf(s, "%s -%zu patch%s", n++ ? "," : "", rd->npatches_dropped,
				       rd->npatches_dropped == 1 ? "" : "es");
	if (rd->nfindings_new)
		g_string_append_printf(s, "%s %zu new finding%s", n++ ? "," : "", rd->nfindings_new,
				       rd->nfindings_new == 1 ? "" : "s");
	if (rd->nfindings_resolved)
		g_string_append_printf(s, "%s %zu finding%s resolved", n++ ? "," : "",
				       rd->nfindings_resolved, rd->nfindings_resolved == 1 ? "" : "s");
	if (!n)
		g_string_append(s, " no change");
	return g_string_free(s, FALSE);
}
