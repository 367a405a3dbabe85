/* fixscan: what the files of the judgement of one patch share
 * (lib/review/findings*.c): the judge, the tools every check uses and
 * the checks fs_findings_judge() runs.  Private to them.
 *
 * Ownership: a finding belongs to J->out (fs_findings_clear() frees it);
 * a char * a function returns is new (g_free()).
 */
#ifndef FIXSCAN_FINDINGS_PRIVATE_H
#define FIXSCAN_FINDINGS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/findings.h"
#include "fixscan/posting.h"

/* ---- building findings -------------------------------------------------- */

struct judge {
	const struct fs_findings_ctx *ctx;
	const struct fs_index *idx;
	struct fs_findings *out;
	size_t cap;
	int oom;
	int self_index;
	const fs_cid *own;  /* the patch's own upstream commits */
	size_t nown;
};

/* ---- findings-judge.c: the tools of every check */

enum fs_finding_evidence fsj_fev(enum fs_evidence ev);
enum fs_finding_evidence fsj_fev_len(const char *hex);
char *fsj_dup_or_null(const char *s);
/* Append the CVE ids whose fix is HEX to *V (*N of them), each once.
 * Returns 0 or -1 when out of memory. */
int fsj_add_cves(char ***v, size_t *n, const struct fs_vulns *vulns, const char *hex);
char *fsj_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
struct fs_finding *fsj_add(struct judge *j, enum fs_finding_kind kind, enum fs_finding_cause cause, fs_cid c, const char *hex, enum fs_finding_evidence evidence);
void fsj_set_stable(struct judge *j, struct fs_finding *f, fs_cid s);
void fsj_set_note(struct judge *j, struct fs_finding *f, char *note);
bool fsj_in_branch(struct judge *j, fs_cid c, struct fs_index_presence *p);
char *fsj_was_reverted(struct judge *j, struct fs_finding *f, const struct fs_index_presence *p);
int fsj_in_series(struct judge *j, fs_cid c);
bool fsj_is_own(struct judge *j, fs_cid c);
fs_cid fsj_mainline_of(const struct fs_index *idx, fs_cid c);
fs_cid fsj_resolve_id(const struct fs_index *idx, const char *hex, const char *title, size_t *nmatch);
fs_cid fsj_by_subject_author(const struct fs_index *idx, const char *title, const char *author);

/* ---- findings-fixes.c */

void fsj_check_applied(struct judge *j, fs_cid u);
void fsj_check_series_duplicate(struct judge *j, fs_cid u);
void fsj_check_fixes(struct judge *j, fs_cid u);
void fsj_check_cve_fixes(struct judge *j, fs_cid u);

/* ---- findings-trailers.c */

void fsj_check_targets(struct judge *j, const struct fs_trailers *tags);
void fsj_check_deps(struct judge *j, const struct fs_trailers *tags);
void fsj_check_reverts(struct judge *j, const struct fs_trailers *tags, const char *title, size_t *nlinked);
bool fsj_by_subject(struct judge *j, const char *written, const char *title, bool same_diff);
void fsj_check_unknown(struct judge *j, const struct fs_trailers *tags, const char *title);

/* ---- findings-mail.c */

void fsj_check_mail(struct judge *j, const fs_cid *ups, size_t nups, int index);
void fsj_add_replies(struct judge *j, int index);
/* What a stable maintainer's answer in the thread settled of the
 * findings at patch INDEX (-1: the series'): every one, when he dropped
 * the patch; the requests for the commits he took (findings-mail.c). */
void fsj_apply_settled(struct judge *j, int index);
void fsj_check_pending(struct judge *j, const fs_cid *ups, size_t nups);

/* ---- findings-diff.c */

void fsj_check_diff(struct judge *j, const fs_cid *ups, size_t nups);
/* diff-absent: the patch mail has no diff, or one cut short. */
void fsj_check_diff_absent(struct judge *j);

/* ---- findings-posting.c */

void fsj_check_series_partial(struct judge *j, fs_cid u);

#endif
