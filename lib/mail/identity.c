/* fixscan: the identity drafts are written as. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "fixscan/text.h"

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
	out->email = fs_text_clean_id(email);
	if (!out->email || !strchr(out->email, '@') || out->email[0] == '@') {
		int rc = fs_error_set(err, FS_EPARSE,
				      "the %s address '%s' is not a mail address",
				      source, email);
		fs_identity_clear(out);
		return rc;
	}
	out->name = fs_text_clean_line(name);
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

/* ---- the user's own mail ----------------------------------------------- */

/* The address part of FROM ("Name <a@b>" or "a@b"), LEN bytes at *OUT. */
static bool address_of(const char *from, const char **out, size_t *len)
{
	const char *lt = from ? strrchr(from, '<') : NULL, *gt;

	if (lt && (gt = strchr(lt, '>'))) {
		*out = lt + 1;
		*len = gt - lt - 1;
	} else if (from) {
		*out = from;
		while (**out == ' ')
			(*out)++;
		*len = strlen(*out);
		while (*len && (*out)[*len - 1] == ' ')
			(*len)--;
	}
	return from && *len;
}

bool fs_identity_is_draft_file(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL, *info;

	base = base ? base + 1 : path;
	info = base ? strstr(base, ":2,") : NULL;
	/* maildir flags: capital letters in ASCII order after ":2," */
	return info && strchr(info + 3, 'D');
}

bool fs_identity_is_own_address(const char *from, const char *const *own)
{
	const char *addr;
	size_t alen = 0;

	if (!own || !address_of(from, &addr, &alen))
		return false;
	for (; *own; own++)
		if (strlen(*own) == alen && !strncasecmp(*own, addr, alen))
			return true;
	return false;
}

/* Whether P's Message-Id is one fixscan made for a draft before its ids
 * became ordinary ones (starting with fixscan and a dot, on the domain
 * of the address it is sent from)
 * on the domain of one of OWN: the reviewer may have changed the From of the draft, but not its
 * id.  Another reviewer's fixscan ids are on their own domain. */
static bool has_own_draft_id(const struct fs_patch *p, const char *const *own)
{
	const char *id = p ? fs_patch_message_id(p) : NULL, *dom, *odom;

	if (!id || !own || strncmp(id, "fixscan", 7) || id[7] != '.' || !(dom = strrchr(id, '@')))
		return false;
	for (; *own; own++)
		if ((odom = strrchr(*own, '@')) && !g_ascii_strcasecmp(odom, dom))
			return true;
	return false;
}

bool fs_identity_is_own_mail(const char *path, const struct fs_patch *p,
			     const char *const *own)
{
	/* What fixscan wrote: the digest mail carries the digest it belongs
	 * to; drafts of older versions carried their key and digest. */
	if (p && (fs_patch_header(p, "X-Fixscan-Key") || fs_patch_header(p, "X-Fixscan-Digest")))
		return true;
	if (fs_identity_is_draft_file(path) || has_own_draft_id(p, own))
		return true;
	return p && fs_identity_is_own_address(fs_patch_from(p), own);
}
