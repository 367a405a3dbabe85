/* fixscan: printing reviews, as text for people or JSON for programs. */
#ifndef FIXSCAN_REPORT_H
#define FIXSCAN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "fixscan/review.h"

struct fs_report_opts {
	bool all;    /* list every patch, not only those with findings */
	bool color;  /* ANSI colour for the kind names */
	int width;   /* wrap notes at this column; 0: no limit */
};
#define FS_REPORT_OPTS_INIT { false, false, 0 }

/* One block per patch with findings, then a summary line. */
int fs_report_text(FILE *out, const struct fs_review *r, const struct fs_report_opts *o);

/* One JSON object on one line (the schema is in fixscan-review(1)). */
int fs_report_json(FILE *out, const struct fs_review *r);

/* One finding as a line of text, without colour or indentation: the
 * line the text report prints.  Returns a new string (free()). */
char *fs_report_finding_line(const struct fs_review *r, const struct fs_finding *f);

#endif
