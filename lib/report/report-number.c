/* fixscan: patch numbers as the subjects of a series write them
 * ("03/27", "003/120"), for the report, its lines and the drafts. */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fixscan/report.h"

int fs_report_subject_number_width(const char *subject)
{
	const char *p = subject ? strchr(subject, '[') : NULL;
	const char *close = p ? strchr(p, ']') : NULL;
	int n = 0;

	if (!close)
		return 0;
	/* The first NN/MM inside the [PATCH ...] bracket. */
	for (; p < close; p++) {
		if (*p != '/' || !g_ascii_isdigit(p[-1]) || !g_ascii_isdigit(p[1]))
			continue;
		for (p++; g_ascii_isdigit(*p); p++)
			n++;
		return n;
	}
	return 0;
}

int fs_report_number_width(const struct fs_thread_series *s)
{
	int w = 0, total = s->total > 0 ? s->total : 0;

	if (s->cover)
		w = fs_report_subject_number_width(fs_patch_subject(s->cover));
	if (!w && s->npatches)
		w = fs_report_subject_number_width(fs_patch_subject(s->patches[0]));
	/* A width the numbers cannot have (a subject of hostile or broken
	 * numbering, taken for an un-numbered patch) is not copied: totals
	 * stop at FS_THREAD_MAX_TOTAL, four digits. */
	if (!w || w > 4 || w < snprintf(NULL, 0, "%d", total))
		w = snprintf(NULL, 0, "%d", total);
	return w;
}

char *fs_report_format_number(char *buf, size_t n, int w, int nn, int total)
{
	if (total > 0)
		snprintf(buf, n, "%0*d/%0*d", w, nn, w, total);
	else
		snprintf(buf, n, "%0*d", w, nn);
	return buf;
}

char *fs_report_patch_number(const struct fs_thread_series *s, int nn, char *buf, size_t n)
{
	return fs_report_format_number(buf, n, s ? fs_report_number_width(s) : 2, nn, s ? s->total : 0);
}

const char *fs_report_nn(const struct fs_review *r, int nn)
{
	static char buf[4][32];
	static unsigned next;
	char *b = buf[next++ % 4];

	return fs_report_patch_number(r->series, nn, b, sizeof(buf[0]));
}
