/* fixscan: fixes of a patch's upstream commit that are on their way to
 * mainline but not there yet.
 *
 * A fix is pending when someone posted a patch whose changelog names the
 * upstream commit in a Fixes: tag or reverts it ("This reverts commit"),
 * and mainline has no commit of that patch yet.  This module finds such
 * patch mails in the store and hands them to the findings module as plain
 * records (fix-pending).
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
 * of the store.  The strings are owned by the struct fs_pending that holds
 * the record. */
struct fs_pending_fix {
	fs_cid upstream;
	const char *message_id;
	const char *subject;
	const char *from;
	const char *date;
	bool revert;  /* it reverts UPSTREAM rather than fixing it */
};

/* The pending fixes found for a series.  Start with FS_PENDING_INIT,
 * release with fs_pending_clear(). */
struct fs_pending {
	struct fs_pending_fix *v;
	size_t n;
	GPtrArray *strings_; /* storage behind the records */
};
#define FS_PENDING_INIT { NULL, 0, NULL }
void fs_pending_clear(struct fs_pending *p);

/* Add to P the patch mails of STORE that fix or revert one of the N
 * commits UPSTREAM (resolved in IDX), the rest of the series' thread
 * left out: a mail counts when
 * - it is a patch mail ("[PATCH ...]" subject, not a reply) of no stable
 *   series (its prefix names no kernel version, so no stable review or
 *   backport mail), and not the user's own (fs_mentions_is_own_mail()
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

#endif
