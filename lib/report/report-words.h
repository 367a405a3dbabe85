/* fixscan: the words and colour of each kind's report line
 * (report-words.c).  Private to lib/report/ and its tests. */
#ifndef FIXSCAN_REPORT_WORDS_H
#define FIXSCAN_REPORT_WORDS_H

#include <stdbool.h>

#include <glib.h>

#include "fixscan/findings.h"
#include "fixscan/review.h"

struct fsr_kind {
	const char *color; /* the report's escape sequence */
	/* With WHOLE the words are the whole rest of the line; else they
	 * follow the commit and its CVEs, and the cross-branch notes and
	 * evidence follow them. */
	bool whole;
	void (*words)(GString *s, const struct fs_review *r, const struct fs_finding *f);
};

/* The row of KIND (a note-only row for a value out of range).
 * Borrowed, static. */
const struct fsr_kind *fsr_kind(enum fs_finding_kind kind);

#endif
