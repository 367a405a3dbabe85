/* fixscan: the "[PATCH ...]" prefix of a patch subject.
 *
 * A pure module of the kernel's mail conventions (lib/kernel/subject.c):
 * the words a prefix is made of, the kernel series it names, the patch
 * number and the revision.  The mail reader (fixscan/mail.h) parses every
 * subject with it; the posting module reads the subject's numbering.
 */
#ifndef FIXSCAN_SUBJECT_H
#define FIXSCAN_SUBJECT_H

#include <stdbool.h>

/* What the "[...]" prefix of a patch subject says. */
struct fs_series {
	char *prefix;  /* the words that are not version or numbering:
			* "PATCH", "PATCH AUTOSEL", "PATCH stable" */
	bool autosel;  /* AUTOSEL in the prefix */
	char *version; /* kernel series "4.4", "5.14" ("4.4.y" gives "4.4");
			* NULL when absent */
	int revision;  /* 2 for "v2"; 0 when absent */
	int index;     /* NN of NN/MM; -1 when absent */
	int total;     /* MM of NN/MM; -1 when absent */
	/* Every kernel series the prefix names, in its order, NULL-terminated
	 * ("[PATCH 5.10/5.15]", "[for-stable 5.10, 5.4]"; VERSION is the
	 * first), or NULL when none; with VERSION_RANGE a range of two ends,
	 * "[PATCH AUTOSEL 6.18-6.1]" giving "6.18" and "6.1" (the branches
	 * from 6.1 to 6.18; VERSION is then NULL: no one branch). */
	char **versions;
	bool version_range;
};

/* Parse the bracketed prefix of SUBJECT (already decoded and unfolded).
 * Leading "Re:"/"Fwd:" are skipped.  On a match fills *OUT (the caller
 * releases it with fs_series_clear()), stores in *TITLE (may be NULL) a
 * pointer into SUBJECT just past the prefix and its spaces, and returns
 * true.  Returns false, touching nothing, when the subject has no
 * "[PATCH ...]" style prefix. */
bool fs_series_parse(const char *subject, struct fs_series *out,
		     const char **title);
void fs_series_clear(struct fs_series *s);

/* Whether SUBJECT (past "Re:") opens with a bracketed prefix that is no
 * patch's but names a stable tree or writes a stable branch: a test
 * robot's report on the stable-rc tree ("[linux-stable-rc:linux-5.4.y
 * 12/34] x.c: error", "[stable-rc] 5.12 x.c: error"), a request to take
 * a commit ("[Backport request for 5.4.y] title", "[stable request]"),
 * a branch alone ("[5.12.y] title").  Mail about stable that carries
 * no patch: its replies are read, the mail is no patch.  *VERSION (may
 * be NULL) gets the kernel series it names (new string, g_free()) or
 * NULL. */
bool fs_subject_names_stable(const char *subject, char **version);

#endif
