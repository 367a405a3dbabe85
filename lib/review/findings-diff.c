/* fixscan: backport-differs, the finding of a patch whose diff is not
 * its upstream commit's (the comparison is the diffcmp module's). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/text.h"
#include "findings-private.h"

/* A copy of the N strings of V into *OUT; false when out of memory. */
static bool copy_strv(char ***out, size_t *nout, char *const *v, size_t n)
{
	size_t i;

	*out = NULL;
	*nout = 0;
	if (!n)
		return true;
	if (!(*out = g_try_malloc0_n(n, sizeof(**out))))
		return false;
	for (i = 0; i < n; i++) {
		if (!((*out)[i] = g_strdup(v[i])))
			return false;
		(*nout)++;
	}
	return true;
}

/* "1 line only in the backport", "2 lines only upstream", "1 line only
 * in the backport and 2 only upstream" as D's listed lines say; when
 * they are not all listed, "N lines that only one side has". */
static void add_line_counts(FILE *s, const struct fs_diffcmp_result *d, const char *sep)
{
	size_t i, back = 0, up = 0;

	for (i = 0; i < d->nlines; i++) {
		back += g_str_has_prefix(d->lines[i], "backport only:");
		up += g_str_has_prefix(d->lines[i], "upstream only:");
	}
	if (back + up != d->lines_differ) {
		fprintf(s, "%s%zu line%s that only one side has", sep, d->lines_differ,
			d->lines_differ == 1 ? "" : "s");
		return;
	}
	if (back)
		fprintf(s, "%s%zu line%s only in the backport", sep, back, back == 1 ? "" : "s");
	if (back && up)
		fprintf(s, " and %zu only upstream", up);
	else if (up)
		fprintf(s, "%s%zu line%s only upstream", sep, up, up == 1 ? "" : "s");
}

/* "upstream also changes b.c; the backport also changes c.c; 2 lines
 * only upstream", or NULL when out of memory. */
static char *diff_note(const struct fs_diffcmp_result *d)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *s = open_memstream(&buf, &len);

	if (!s)
		return NULL;
	for (i = 0; i < d->nfiles_dropped; i++)
		fprintf(s, "%s%s", i ? ", " : "upstream also changes ", d->files_dropped[i]);
	for (i = 0; i < d->nfiles_added; i++)
		fprintf(s, "%s%s", i ? ", " : d->nfiles_dropped ? "; the backport also changes " :
			"the backport also changes ", d->files_added[i]);
	if (d->lines_differ)
		add_line_counts(s, d, d->nfiles_dropped || d->nfiles_added ? "; " : "");
	if (fclose(s) != 0) {
		g_free(buf);
		return NULL;
	}
	return buf;
}

/* The backport's diff against its upstream commit's, when the caller
 * compared them (one upstream commit): a difference the changelog does
 * not document. */
void fsj_check_diff_absent(struct judge *j)
{
	struct fs_finding *f;
	char *path;

	const char *inside = j->ctx->diff_stops_inside;

	if (!j->ctx->diffless && !j->ctx->unreadable && !inside && !j->ctx->diff_stops_before)
		return;
	f = fsj_add(j, FS_FIND_DIFF_ABSENT, j->ctx->unreadable ? FS_CAUSE_UNREADABLE : FS_CAUSE_NONE,
		    FS_CID_NONE, NULL, FS_FEV_EXACT);
	if (!f || j->ctx->diffless || j->ctx->unreadable)
		return;
	/* the path is the mail's: made visible before anyone prints it */
	path = fs_text_clean_line(inside ? inside : j->ctx->diff_stops_before);
	fsj_set_note(j, f, inside ? fsj_fmt("a hunk of %s has fewer lines than its header counts", path) :
			   fsj_fmt("the diff stops before %s, which its diffstat lists", path));
	g_free(path);
}

void fsj_check_diff(struct judge *j, const fs_cid *ups, size_t nups)
{
	const struct fs_diffcmp_result *d = j->ctx->diff;
	struct fs_finding *f;
	char *note;

	if (!d || nups != 1 || d->documented || !fs_diffcmp_differs(d))
		return;
	f = fsj_add(j, FS_FIND_BACKPORT_DIFFERS, FS_CAUSE_NONE, ups[0], NULL, FS_FEV_EXACT);
	if (!f)
		return;
	note = diff_note(d);
	fsj_set_note(j, f, note);
	f->diff.lines_differ = d->lines_differ;
	if (!copy_strv(&f->diff.files_dropped, &f->diff.nfiles_dropped, d->files_dropped, d->nfiles_dropped) ||
	    !copy_strv(&f->diff.files_added, &f->diff.nfiles_added, d->files_added, d->nfiles_added) ||
	    !copy_strv(&f->diff.lines, &f->diff.nlines, d->lines, d->nlines))
		j->oom = 1;
}
