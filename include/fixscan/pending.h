/* fixscan: fixes of a patch's upstream commit that are on their way to
 * mainline but not there yet.
 *
 * A fix is pending when someone posted a patch whose changelog names the
 * upstream commit in a Fixes: tag or reverts it ("This reverts commit"),
 * or a pending ref (fixscan.pending: linux-next, a maintainer's -fixes
 * tree) has such a commit, and mainline has no commit of it yet.  This
 * module finds such patch mails in the store and such commits in the
 * index, and hands them to the findings module as plain records
 * (fix-pending).
 */
#ifndef FIXSCAN_PENDING_H
#define FIXSCAN_PENDING_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

/* A fix of the commit UPSTREAM that is not in mainline yet: a patch mail
 * of the store (MESSAGE_ID, FROM, DATE), a commit of a pending ref
 * (COMMIT, REF), or both when the commit is the mail's patch (the same
 * subject).  The fields of the other source are NULL.  The strings are
 * owned by the struct fs_pending that holds the record. */
struct fs_pending_fix {
	fs_cid upstream;
	const char *message_id;
	const char *subject;
	const char *title;   /* a mail's subject past its "[PATCH ...]" prefix;
			      * a commit's subject */
	const char *from;
	const char *date;
	const char *commit;  /* full id, or NULL */
	const char *ref;     /* the pending ref that has it, or NULL */
	const char *link;    /* the mail on the archive searched
			      * (fs_pending_from_mails()), or NULL */
	bool revert;  /* it reverts UPSTREAM rather than fixing it */
};

/* The pending fixes found for a series.  Start with FS_PENDING_INIT,
 * release with fs_pending_clear(). */
struct fs_pending {
	struct fs_pending_fix *v;
	size_t n;
	GPtrArray *strings_; /* storage behind the records */
};
#define FS_PENDING_INIT { .v = NULL }
void fs_pending_clear(struct fs_pending *p);

/* Add to P the patch mails of STORE that fix or revert one of the N
 * commits UPSTREAM (resolved in IDX), the rest of the series' thread
 * left out: a mail counts when
 * - it is a patch mail ("[PATCH ...]" subject, not a reply) of no stable
 *   series (its prefix names no kernel version, so no stable review or
 *   backport mail), and not the user's own (fs_identity_is_own_mail()
 *   with OWN);
 * - its changelog has a Fixes: tag whose id (8 hex digits or more)
 *   resolves to the commit, or "This reverts commit <id>" of it (a quoted
 *   "> Fixes:" is no tag);
 * - mainline has no commit of it yet: no mainline commit has its title
 *   as subject, and no mainline fix of the commit has its diff.
 * The store is asked once for the whole series, for the patch mails
 * with a word that begins with one of the commits' first 8 hex digits,
 * so only those are read however large the store.  Each mail gives one
 * record per commit it fixes; records come in the order of UPSTREAM's
 * first appearance, each commit's mails oldest first.  Returns 0, or
 * FS_ESTORE / FS_ENOMEM with ERR set. */
int fs_pending_from_store(struct fs_pending *p, struct fs_store *store,
			  const struct fs_index *idx, const struct fs_thread_series *s,
			  const fs_cid *upstream, size_t n, const char *const *own,
			  struct fs_error *err);

/* Add to P the patch mails MAILS[0..N) of the archives (fixscan.lore:
 * fs_listmail_review()), LINKS[i] where each is, that fix or revert one
 * of the NU commits UPSTREAM, by the rules a mail of the store is read
 * with (fs_pending_from_store(): a patch of no stable series, not the
 * user's, a tag resolving to the commit, no mainline commit of it yet).
 * A mail P has already for the same commit (the store's copy of it, the
 * same Message-Id) is not added again: that record gets its link.  The
 * new records follow the others of their commit, oldest mail first.
 * Call it before fs_pending_from_index(), which merges a pending ref's
 * commit into the record of its mail.  Returns 0, or FS_ENOMEM with ERR
 * set. */
int fs_pending_from_mails(struct fs_pending *p, const struct fs_index *idx,
			  const struct fs_patch *const *mails, const char *const *links, size_t n,
			  const fs_cid *upstream, size_t nu, const char *const *own,
			  struct fs_error *err);

/* Add to P the commits of IDX's pending refs that fix or revert one of
 * the N commits UPSTREAM (fs_index_pending_fixes(): mainline does not
 * have them).  A commit whose subject is that of a mail record of P for
 * the same commit is that mail's patch: its id and ref go into that
 * record, so one fix makes one record whichever way it was seen.  The
 * others follow the mail records of their commit, in id order.  Returns
 * 0, or FS_ENOMEM with ERR set. */
int fs_pending_from_index(struct fs_pending *p, const struct fs_index *idx,
			  const fs_cid *upstream, size_t n, struct fs_error *err);

#endif
