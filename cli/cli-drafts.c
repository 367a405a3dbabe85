/* fixscan: the lines review and check print about the drafts they
 * saved (cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "fixscan/text.h"

/* ---- drafts -------------------------------------------------------------- */

/* What became of draft X, "wrote PATH", or NULL for a draft left out;
 * LONG adds the label and whether it was indexed now (review). */
static char *saved_line(const struct fs_drafts_saved_draft *x, bool wide)
{
	const char *late = wide && x->indexed_now ? ", indexed now" : "";
	const char *other = x->other ? x->other : "";

	switch (x->action) {
	case FS_DRAFT_WROTE:
		return g_strdup_printf("wrote %s", x->path);
	case FS_DRAFT_UNCHANGED:
		return g_strdup_printf("unchanged %s%s", x->path, late);
	case FS_DRAFT_UNCHANGED_EDITED:
		return g_strdup_printf("unchanged, edited by you: %s%s", x->path, late);
	case FS_DRAFT_REPLACED:
		return g_strdup_printf("replaced %s with %s, the findings changed", other, x->path);
	case FS_DRAFT_KEPT_EDITED:
		return g_strdup_printf("kept your edited draft %s, wrote %s", other, x->path);
	default: /* skipped: no path, counted at the end */
		return NULL;
	}
}

/* "draft: LINE" for the draft labelled LABEL: one line with the label
 * (WIDTH 0), or the label wrapped on a line of its own. */
static void print_saved_line(FILE *out, const char *line, const char *label, int width)
{
	char *re;

	if (!width) {
		fprintf(out, "draft: %s (re: %s)\n", line, label);
		return;
	}
	fprintf(out, "draft: %s\n", line);
	re = g_strdup_printf("    (re: %s)", label);
	cli_print_wrapped(out, re, width);
	g_free(re);
}

/* What cli_print_saved() and cli_print_saved_brief() say before the
 * drafts: a folder outside the mail root, an error indexing them. */
static void print_saved_head(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	if (saved->outside && width)
		fprintf(out, "draft: '%s' is outside the notmuch mail root; the drafts are not indexed\n",
			saved->dir);
	else if (saved->outside && saved->complete && saved->root)
		fprintf(out, "draft: '%s' is outside the notmuch mail root '%s'; the drafts are not indexed\n",
			saved->dir, saved->root);
	if (saved->index_err.code)
		cli_error(&saved->index_err);
}

/* ... and after them: the drafts left out, counted. */
static void print_saved_tail(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	char *skipped = fs_session_skipped_text(saved);

	if (!skipped)
		return;
	if (width)
		cli_print_wrapped(out, skipped, width);
	else
		fprintf(out, "%s\n", skipped);
	g_free(skipped);
}

void cli_print_saved_brief(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	static const struct {
		int action;
		const char *what;
	} groups[] = {
		{ FS_DRAFT_WROTE, "wrote" },
		{ FS_DRAFT_REPLACED, "rewrote (the findings changed)" },
		{ FS_DRAFT_KEPT_EDITED, "wrote beside your edited draft" },
		{ FS_DRAFT_UNCHANGED, "unchanged" },
		{ FS_DRAFT_UNCHANGED_EDITED, "unchanged, edited by you" },
	};
	size_t g, i;

	print_saved_head(out, saved, width);
	for (g = 0; g < G_N_ELEMENTS(groups); g++) {
		GString *line = g_string_new(NULL);
		size_t n = 0;

		for (i = 0; i < saved->n; i++) {
			const struct fs_drafts_saved_draft *x = &saved->v[i];

			if (!x->path || (int)x->action != groups[g].action)
				continue;
			g_string_append_printf(line, " %.*s", (int)strcspn(x->label, " "), x->label);
			n++;
		}
		if (n) {
			char *text = g_strdup_printf("draft: %s %zu:%s", groups[g].what, n, line->str);
			cli_print_wrapped(out, text, width);
			g_free(text);
		}
		g_string_free(line, TRUE);
	}
	print_saved_tail(out, saved, width);
	if (saved->dir && saved->n)
		fprintf(out, "draft: in %s\n", saved->dir);
}

void cli_print_saved(FILE *out, const struct fs_drafts_saved *saved, int width)
{
	size_t i, k;

	print_saved_head(out, saved, width);
	for (i = 0; i < saved->n; i++) {
		const struct fs_drafts_saved_draft *x = &saved->v[i];
		char *line = x->path ? saved_line(x, !width) : NULL;

		if (!x->path)
			continue;
		if (line)
			print_saved_line(out, line, x->label, width);
		g_free(line);
		/* "replaced" says it already. */
		for (k = 0; x->action != FS_DRAFT_REPLACED && x->removed && x->removed[k]; k++) {
			line = g_strdup_printf("removed the outdated %s", x->removed[k]);
			print_saved_line(out, line, x->label, width);
			g_free(line);
		}
	}
	print_saved_tail(out, saved, width);
}

int cli_drafts_for(const char *what, bool *every)
{
	if (!strcmp(what, "action"))
		*every = false;
	else if (!strcmp(what, "every-finding"))
		*every = true;
	else
		return -1;
	return 0;
}

const char *cli_shown_path(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(path, root, n) && path[n] == '/')
		return path + n + 1;
	return path;
}
