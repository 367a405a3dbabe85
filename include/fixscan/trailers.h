/* fixscan: changelog tags.
 *
 * A pure module: commit-message or mail-body text in, the commit
 * references it carries out.  No I/O.  The patterns are compiled once per
 * process (PCRE2, JIT where available, with match limits) and the parser is
 * safe to call from several threads at once.
 *
 * Ids are kept exactly as written, lower-cased: 7 to 40 hex digits, never
 * padded, never guessed.
 */
#ifndef FIXSCAN_TRAILERS_H
#define FIXSCAN_TRAILERS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

/* A commit named with an optional quoted subject:
 * "Fixes: 0123456789ab ("subject")", "Stable-dep-of: ...". */
struct fs_trailer_ref {
	char *id;      /* lower-case hex, 7..40 digits */
	char *subject; /* the quoted subject, unwrapped; NULL when none */
};

/* "This reverts commit X." or "This reverts commit X which was
 * commit Y upstream." (the latter reverts a stable commit X). */
struct fs_trailer_revert {
	char *id;       /* X */
	char *upstream; /* Y, or NULL */
};

/* "Cc: stable@vger.kernel.org # 4.4.x" and its variants. */
struct fs_trailer_cc_stable {
	char *versions; /* "4.4.x", "v4.4+", "3.10+"; NULL when not given */
	char *prerequisite; /* id in "# 4.4.x: 0123456789ab: prerequisite", else NULL */
	char *comment;  /* the whole text after '#', trimmed; NULL when none */
};

struct fs_trailers;

/* Extract the tags of TEXT (LEN bytes, need not be NUL-terminated): a
 * commit message or a decoded mail body.  Only the changelog counts: text
 * after the "---" line that introduces a diffstat or diff, or from the
 * first diff on, is ignored (see fs_trailers_changelog_len()).
 *
 * On success *OUT is a new object the caller frees with fs_trailers_free().
 * Returns 0, or FS_ENOMEM / FS_EPARSE (pattern engine failure) with ERR set.
 * Text that carries no tags is not an error. */
int fs_trailers_parse(struct fs_trailers **out, const char *text, size_t len,
		  struct fs_error *err);

/* Free T and everything it owns.  NULL is allowed. */
void fs_trailers_free(struct fs_trailers *t);

/* Getters.  Each returns a borrowed array valid until fs_trailers_free() and
 * stores its length in *N (never NULL when *N > 0).  Entries are in text
 * order; an id repeated in the same form is kept once. */

/* Upstream ids: "commit X upstream.", "[ Upstream commit X ]",
 * "Upstream commit X", "(cherry picked from commit X)". */
const char *const *fs_trailers_upstream(const struct fs_trailers *t, size_t *n);
const struct fs_trailer_ref *fs_trailers_fixes(const struct fs_trailers *t, size_t *n);
const struct fs_trailer_revert *fs_trailers_reverts(const struct fs_trailers *t, size_t *n);
const struct fs_trailer_ref *fs_trailers_stable_dep_of(const struct fs_trailers *t, size_t *n);
const struct fs_trailer_cc_stable *fs_trailers_cc_stable(const struct fs_trailers *t, size_t *n);

/* True when a diff follows the changelog. */
bool fs_trailers_has_diff(const struct fs_trailers *t);

/* The length of the changelog part of TEXT: everything before the "---"
 * line that is followed by a diffstat or a diff, or before the first diff
 * when there is no such line.  A "---" line followed by neither is part of
 * the changelog.  Returns LEN when there is no diff. */
size_t fs_trailers_changelog_len(const char *text, size_t len, bool *has_diff);

/* For a subject of the form 'Revert "X"' or 'Revert: "X"' (after any
 * "[PATCH ...]" prefix has been removed), return a new string X, which the
 * caller frees with g_free(); else NULL. */
char *fs_trailers_revert_title(const char *subject);

/* Normalise a commit subject for matching a Fixes: tag's quoted subject
 * against commit subjects: surrounding space trimmed, runs of white space
 * folded to one space, ASCII lower-cased, and a trailing "..." or an
 * unbalanced trailing quote removed.  Returns a new string the caller frees
 * with g_free(), or NULL when out of memory. */
char *fs_trailers_normalize_subject(const char *subject);

#endif
