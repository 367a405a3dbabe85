/* fixscan: the identity drafts are written as. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/draft.h"
#include "fixscan/identity.h"

static bool set(const char *s)
{
	return s && *s;
}

int fs_identity_pick(struct fs_identity *out, const char *nm_name,
		     const char *nm_email, const char *git_name,
		     const char *git_email, struct fs_error *err)
{
	const char *name, *email, *source;

	memset(out, 0, sizeof(*out));
	if (set(nm_email)) {
		email = nm_email;
		name = set(nm_name) ? nm_name : git_name;
		source = "notmuch config";
	} else if (set(git_email)) {
		email = git_email;
		name = set(git_name) ? git_name : nm_name;
		source = "git config";
	} else {
		return fs_error_set(err, FS_ENOTFOUND,
				    "no identity for the drafts: set user.name and user.primary_email in the notmuch config (notmuch config set user.primary_email ...), or user.name and user.email in git config");
	}
	out->email = fs_draft_clean_id(email);
	if (!out->email || !strchr(out->email, '@') || out->email[0] == '@') {
		int rc = fs_error_set(err, FS_EPARSE,
				      "the %s address '%s' is not a mail address",
				      source, email);
		fs_identity_clear(out);
		return rc;
	}
	out->name = fs_draft_clean_line(name);
	out->source = source;
	return 0;
}

void fs_identity_clear(struct fs_identity *id)
{
	if (!id)
		return;
	g_free(id->name);
	g_free(id->email);
	memset(id, 0, sizeof(*id));
}
