/* fixscan: series-partial, the other parts of the posting a patch's
 * upstream commit was applied from, in mainline and not here. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "findings-private.h"

/* The size of U's posting from the store (ctx->posting_size): *TOTAL
 * its M and *FIRST the mail number of its patch 1; false when unknown. */
static bool posting_size(struct judge *j, fs_cid u, unsigned *total, unsigned *first)
{
	char hex[41], key[512], *msg = NULL;
	unsigned part;
	int form;
	bool ok = false;

	if (!j->ctx->posting_size || !j->ctx->message)
		return false;
	fs_index_commit_hex(j->idx, u, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) < 0)
		return false;
	form = fs_posting_from_message(msg, strlen(msg), key, sizeof(key), &part);
	ok = form != FS_POSTING_NONE &&
	     j->ctx->posting_size(j->ctx->posting_data, key, form, total, first) == 0;
	g_free(msg);
	return ok;
}

/* Mail number N of a posting whose patch 1 is mail FIRST and which has
 * TOTAL patches, as its patch number (N unchanged when that is unknown or
 * N is none of them). */
static unsigned patch_number(unsigned n, unsigned total, unsigned first)
{
	return total && n >= first && n - first + 1 <= total ? n - first + 1 : n;
}

/* Whether a patch of the series carries a commit of C's subject (the
 * same patch, applied to mainline twice). */
static bool queued_by_subject(struct judge *j, fs_cid c)
{
	const char *subj = fs_index_commit_subject(j->idx, c);
	size_t i, k;

	for (i = 0; i < j->ctx->nseries; i++)
		for (k = 0; k < j->ctx->series[i].nupstream; k++)
			if (!strcmp(fs_index_commit_subject(j->idx, j->ctx->series[i].upstream[k]), subj))
				return true;
	return false;
}

/* The most parts of one posting a finding lists. */
#define SERIES_MAX_PARTS 256
void fsj_check_series_partial(struct judge *j, fs_cid u)
{
	struct fs_index_series_part parts[SERIES_MAX_PARTS];
	unsigned part, total = 0, first = 1;
	char pn[32];
	size_t n = fs_index_series_of(j->idx, u, &part, parts, SERIES_MAX_PARTS);
	size_t i, k, nmiss = 0;
	struct fs_finding *f;
	fs_cid miss[SERIES_MAX_PARTS];

	if (n > SERIES_MAX_PARTS)
		n = SERIES_MAX_PARTS;
	for (i = 0; i < n; i = k) {
		bool there = false;

		/* a part mainline reverted is none to ask for */
		for (k = i; k < n && (k == i || (parts[k].part == parts[i].part && parts[i].part)); k++)
			there = there || fsj_is_own(j, parts[k].commit) || fsj_in_series(j, parts[k].commit) >= 0 ||
				fsj_in_branch(j, parts[k].commit, NULL) || queued_by_subject(j, parts[k].commit) ||
				!fs_index_present(j->idx, parts[k].commit, NULL, NULL, NULL);
		if (!there)
			miss[nmiss++] = parts[i].commit;
	}
	if (!nmiss || !(f = fsj_add(j, FS_FIND_SERIES_PARTIAL, FS_CAUSE_NONE, u, NULL, FS_FEV_EXACT)))
		return;
	if (!posting_size(j, u, &total, &first))
		total = 0;
	f->posting.part = part ? patch_number(part, total, first) : 0;
	if (!(f->posting.parts = g_try_malloc0_n(nmiss, sizeof(*f->posting.parts)))) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < nmiss; i++) {
		struct fs_finding_part *p = &f->posting.parts[f->posting.nparts++];

		fs_index_commit_hex(j->idx, miss[i], p->commit);
		p->subject = fsj_dup_or_null(fs_index_commit_subject(j->idx, miss[i]));
		p->release = fsj_dup_or_null(fs_index_commit_release(j->idx, miss[i]));
		for (k = 0; k < n && parts[k].commit != miss[i]; k++)
			;
		p->part = parts[k].part ? patch_number(parts[k].part, total, first) : 0;
		p->total = total && parts[k].part && parts[k].part >= first && p->part <= total ? total : 0;
		if (!p->subject)
			j->oom = 1;
	}
	if (!part)
		snprintf(pn, sizeof(pn), "a part");
	else if (total)
		snprintf(pn, sizeof(pn), "part %u/%u", f->posting.part, total);
	else
		snprintf(pn, sizeof(pn), "part %u", f->posting.part);
	fsj_set_note(j, f, fsj_fmt("%s of its posting; %zu other part%s in mainline, neither in %s nor in this series",
			   pn, nmiss, nmiss == 1 ? "" : "s", j->ctx->branch));
}
