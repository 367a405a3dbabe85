/* fixscan: who the drafts and the digest are from.
 *
 * The reviewer's name and address come from the notmuch config (the mail
 * client's own idea of who the user is) or, failing that, from git
 * config.  Whatever is taken is cleaned so it can go into a header.
 */
#ifndef FIXSCAN_IDENTITY_H
#define FIXSCAN_IDENTITY_H

#include "fixscan/config.h"
#include "fixscan/error.h"
#include "fixscan/store.h"

struct fs_identity {
	char *name;   /* "Rita Reviewer"; may be "" when only an address is set */
	char *email;  /* "rita@example.org" */
	const char *source; /* "notmuch config" or "git config"; static */
};
#define FS_IDENTITY_INIT { NULL, NULL, NULL }

/* Pick the identity from the values given (each may be NULL or ""):
 * notmuch's user.name / user.primary_email first, else git's user.name /
 * user.email.  The name and the address are taken from the same source
 * when it has an address.  CR, LF and other control characters are
 * removed.  Returns 0 with *OUT filled (release it with
 * fs_identity_clear()), or FS_ENOTFOUND with ERR naming the keys to set. */
int fs_identity_pick(struct fs_identity *out, const char *nm_name,
		     const char *nm_email, const char *git_name,
		     const char *git_email, struct fs_error *err);

void fs_identity_clear(struct fs_identity *id);

#endif
