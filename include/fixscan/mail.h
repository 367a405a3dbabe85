/* fixscan: reading stable patch mails with GMime.
 *
 * A reader yields one struct fs_patch per message: a single RFC 5322 file
 * (maildir file, git format-patch output) gives one, an mbox file gives one
 * per message, read incrementally so memory stays bounded by the largest
 * message rather than the file.
 */
#ifndef FIXSCAN_MAIL_H
#define FIXSCAN_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fixscan/error.h"
#include "fixscan/subject.h"
#include "fixscan/trailers.h"

/* Find an in-body "From: Name <addr>" line, as git am does: the first
 * non-blank line of BODY, or the first non-blank line after a stable
 * review preamble ending in a line of dashes.  Returns a new string
 * (the header value, trimmed) the caller frees with g_free(), or NULL. */
char *fs_mail_inbody_from(const char *body, size_t len);

struct fs_patch;

/* Getters on a parsed message.  Strings are borrowed, valid until
 * fs_patch_free(); they are UTF-8, decoded (RFC 2047) and unfolded.
 * Functions documented "or NULL" return NULL when the header is absent. */
const char *fs_patch_file(const struct fs_patch *p);       /* as given, "-" for stdin */
const char *fs_patch_message_id(const struct fs_patch *p); /* without <>, or NULL */
const char *fs_patch_subject(const struct fs_patch *p);    /* "" when absent */
const char *fs_patch_title(const struct fs_patch *p);      /* subject past the [..] prefix */
const char *fs_patch_from(const struct fs_patch *p);       /* "Name <addr>", or NULL */
const char *fs_patch_author(const struct fs_patch *p);     /* in-body From, else From, or NULL */
const char *fs_patch_date(const struct fs_patch *p);       /* header text, or NULL */
time_t fs_patch_time(const struct fs_patch *p);            /* Date as time_t, 0 if none */
const char *fs_patch_in_reply_to(const struct fs_patch *p); /* without <>, or NULL */
/* References, without <>, oldest first. */
const char *const *fs_patch_references(const struct fs_patch *p, size_t *n);
const char *fs_patch_to(const struct fs_patch *p);         /* decoded list, or NULL */
const char *fs_patch_cc(const struct fs_patch *p);         /* decoded list, or NULL */
/* Any other header, by case-insensitive name (e.g. "X-KernelTest-Branch"). */
const char *fs_patch_header(const struct fs_patch *p, const char *name);
/* The series prefix, or NULL when the subject has none. */
const struct fs_series *fs_patch_series(const struct fs_patch *p);
/* The decoded text/plain body in UTF-8 (LF line ends), and its length. */
const char *fs_patch_body(const struct fs_patch *p, size_t *len);
/* Changelog tags of the body, plus a revert named by the subject. */
const struct fs_trailers *fs_patch_trailers(const struct fs_patch *p);
/* 'X' for a subject 'Revert "X"' or 'Revert: "X"', else NULL. */
const char *fs_patch_revert_title(const struct fs_patch *p);
bool fs_patch_has_diff(const struct fs_patch *p);

/* Number P as patch INDEX of TOTAL of kernel series VERSION (NULL: keep
 * what the subject says), whatever its subject says: for patches whose
 * place in a series comes from elsewhere, such as a quilt series file.
 * The title is left as it is.  Returns 0. */
int fs_patch_set_number(struct fs_patch *p, const char *version, int index, int total);

void fs_patch_free(struct fs_patch *p);

struct fs_mail_reader;

/* Open PATH ("-" for standard input) for reading messages.  A file whose
 * first line starts with "From " is read as an mbox, anything else as one
 * message.  In an mbox, body lines quoted as ">From " (mboxo, mboxrd) or
 * ">>From " (mboxrd) lose one '>'.  Gzip'd input (by its first bytes) is
 * read uncompressed.  Returns 0, or FS_EIO (missing file, directory,
 * unreadable) or FS_EPARSE (corrupt gzip data) with ERR naming the file.  Free with fs_mail_reader_free(). */
int fs_mail_reader_open(struct fs_mail_reader **out, const char *path,
			struct fs_error *err);

/* Read the next message into *OUT (caller frees with fs_patch_free()).
 * Returns 1 with a message, 0 at the end, or a negative code with ERR set
 * (FS_EPARSE: empty file, not a mail, no headers; the message names the
 * file).  After an error the reader is at its end. */
int fs_mail_reader_next(struct fs_mail_reader *r, struct fs_patch **out,
			struct fs_error *err);

void fs_mail_reader_free(struct fs_mail_reader *r);

/* Parse the single message in the file PATH: a shortcut for the reader
 * used by the notmuch store, which knows each message's file. */
int fs_patch_parse_file(struct fs_patch **out, const char *path,
			struct fs_error *err);

#endif
