/* fixscan: the posting an upstream commit came from, as its Link:
 * trailer names it.
 *
 * A mainline commit applied from a mailing list carries a link to the
 * mail it was applied from (Link: https://lore.kernel.org/r/<id>, .../all/
 * <id>, https://patch.msgid.link/<id>, https://msgid.link/<id>).  The
 * Message-Ids that git send-email and b4 give the mails of one posting
 * differ only in a counter: taking that counter out gives a key the
 * posting's parts share (the series key) and the part.  The forms known:
 *
 *   git send-email   <YYYYmmddHHMMSS>.<pid>-<N>-<sender>     (since 2016)
 *                    <unix time>-<pid>-<N>-git-send-email-<sender>
 *   b4               <YYYYmmdd>-<topic>-v<K>-<N>-<hash>@<host>
 *
 * The send-email key holds the second and the process id of one run, b4's
 * the posting's topic, revision and hash: two postings share a key only
 * when they are one.  A re-posting (-v2, another run) has a key of its own.
 * N counts the mails as sent: b4 numbers the cover 0 and patch k k; git
 * send-email numbers from 1, so with a cover letter patch k is mail k + 1.
 * Any other form (git format-patch's <commit>.<time>.git.<sender>, whose
 * time may differ between the parts, hand-made ids) is no series.
 */
#ifndef FIXSCAN_POSTING_H
#define FIXSCAN_POSTING_H

#include <stdbool.h>
#include <stddef.h>

/* The largest part number a series id may carry. */
#define FS_POSTING_MAX_PART 9999

enum fs_posting_form {
	FS_POSTING_NONE = 0,
	FS_POSTING_SEND_EMAIL, /* git send-email: the cover, when sent, is 1 */
	FS_POSTING_B4,         /* b4: the cover is 0 */
};

/* The series key and part of Message-Id ID (LEN bytes, with or without
 * its angle brackets): KEY (KEYSZ bytes) gets the id with the counter
 * replaced by '*', *PART the counter.  Returns the form, FS_POSTING_NONE
 * when ID is none of the known forms, when its counter is 0 for git
 * send-email, above FS_POSTING_MAX_PART, or when KEY is too small. */
enum fs_posting_form fs_posting_parse_id(const char *id, size_t len, char *key, size_t keysz,
				       unsigned *part);

/* The Message-Id of the posting named by commit message MSG (LEN bytes):
 * the last "Link:" trailer line whose link is a lore.kernel.org,
 * lkml.kernel.org, patch.msgid.link or msgid.link link to a mail whose id
 * is of a known form.  Then as fs_posting_parse_id().  Cheap on a
 * message without "Link:" (one memmem()); for the index build. */
enum fs_posting_form fs_posting_from_message(const char *msg, size_t len, char *key,
					   size_t keysz, unsigned *part);

/* The Message-Id of the posting's mail number PART: the key with the '*'
 * replaced.  KEY as fs_posting_parse_id() made it.  Returns false when
 * OUT (OUTSZ bytes) is too small. */
bool fs_posting_part_id(const char *key, unsigned part, char *out, size_t outsz);

#endif
