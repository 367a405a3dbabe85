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
#include "fixscan/mail.h"
#include "fixscan/store.h"

struct fs_identity {
	char *name;   /* "Rita Reviewer"; may be "" when only an address is set */
	char *email;  /* "rita@example.org" */
	const char *source; /* "notmuch config" or "git config"; static */
};
#define FS_IDENTITY_INIT { .name = NULL }

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

/* Whether a mail is the user's own and so never evidence (neither an
 * objection nor a regression report): an unsent draft (maildir flag D
 * in PATH), a mail fixscan wrote (the digest mail's X-Fixscan-Digest
 * header, the X-Fixscan-Key or X-Fixscan-Digest of a draft of an older
 * version, or the "fixscan." Message-Id of an older version's draft on
 * the domain of one of OWN), or a mail From one of the addresses OWN (NULL-terminated, may be
 * NULL; compared without case), sent or not.  PATH and P may each be
 * NULL. */
bool fs_identity_is_own_mail(const char *path, const struct fs_patch *p,
			     const char *const *own);

/* Whether the maildir file PATH is an unsent draft: its flags have D. */
bool fs_identity_is_draft_file(const char *path);

/* Whether the address of FROM (a From header, "Name <addr>" or a bare
 * address; may be NULL) is one of OWN (may be NULL), without case. */
bool fs_identity_is_own_address(const char *from, const char *const *own);

#endif
