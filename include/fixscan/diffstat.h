/* fixscan: a patch mail's diffstat against its diff.
 *
 * A pure module of the kernel's mail conventions (lib/kernel/diffstat.c).
 * git format-patch writes a diffstat under the "---" line, one line per
 * file, then the diff itself.  A mail whose diff stops before a file its
 * diffstat lists was cut short somewhere on its way (or the rest sent
 * apart): comparing what is left with the upstream commit would call
 * the missing files dropped.  This module says which files are missing,
 * and which hunk stops before the lines its header counts.
 */
#ifndef FIXSCAN_DIFFSTAT_H
#define FIXSCAN_DIFFSTAT_H

#include <stddef.h>

/* What TEXT (LEN bytes, a patch mail's body) carries of its diff. */
struct fs_diffstat_gap {
	size_t listed;       /* files its diffstat lists (0: no diffstat) */
	size_t in_diff;      /* files its diff has a header for */
	size_t missing;      /* listed files the diff has no header for;
			      * 0 when the diff has files the diffstat
			      * does not list (a diffstat of another
			      * diff, not a diff cut short) */
	char *first_missing; /* the first of those, as the diffstat writes
			      * it (maybe shortened: ".../name"); NULL when
			      * none.  Owned: fs_diffstat_gap_clear() */
	char *cut_inside;    /* the file of the first hunk that ends before
			      * the lines its "@@" header counts (the mail
			      * cut in its middle); NULL when none.  Owned */
};

#define FS_DIFFSTAT_GAP_INIT { 0, 0, 0, NULL, NULL }

/* Read TEXT into *OUT (cleared first).  Renames written with "=>" and
 * paths a diffstat shortened are matched by what can be matched: a line
 * that cannot be told apart from a file of the diff counts as present,
 * so that a whole mail is never called cut short. */
void fs_diffstat_gap(const char *text, size_t len, struct fs_diffstat_gap *out);
void fs_diffstat_gap_clear(struct fs_diffstat_gap *g);

#endif
