/* fixscan: links to mail archives (lore.kernel.org, lkml.kernel.org and
 * their like) as reviewers paste them instead of a Message-Id. */
#ifndef FIXSCAN_LORE_H
#define FIXSCAN_LORE_H

/* The Message-Id in an archive link WHAT: the path segment holding an
 * '@' (or its escape %40) of an http:// or https:// link, as in
 * https://lore.kernel.org/r/<id>, .../all/<id>/, .../<list>/<id>/T/,
 * with its percent-escapes decoded.  A new string (g_free()), or NULL when
 * WHAT is no such link, or when the decoded id would hold a control
 * character, a space or an angle bracket (no Message-Id does). */
char *fs_lore_message_id(const char *what);

#endif
