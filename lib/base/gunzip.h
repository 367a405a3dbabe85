/* fixscan: reading gzip'd mail (private to the mail module). */
#ifndef FIXSCAN_GUNZIP_H
#define FIXSCAN_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

/* The largest uncompressed size fs_gunzip_fd() accepts: no mbox of
 * review threads comes near it, a compression bomb does. */
#define FS_GUNZIP_MAX ((long long)1 << 30)

/* Whether the N bytes at HEAD begin a gzip stream (1f 8b 08). */
bool fs_gunzip_magic(const unsigned char *head, size_t n);

/* Uncompress the gzip data made of the NHEAD bytes at HEAD (already read
 * from FD) followed by the rest of FD, every member of it, into an
 * unlinked temporary file.  Returns the new file's descriptor, positioned
 * at its start, or a negative FS_E* code with ERR naming NAME (corrupt or
 * truncated data, more than FS_GUNZIP_MAX bytes, no room for the copy).
 * FD is only read, not closed. */
int fs_gunzip_fd(int fd, const unsigned char *head, size_t nhead, const char *name,
		 struct fs_error *err);

/* Copy the NHEAD bytes at HEAD (already read from FD) and the rest of
 * FD, a pipe, into an unlinked temporary file, so the mail parser reads
 * a seekable file whatever the writer's pace.  At most FS_GUNZIP_MAX
 * bytes.  Returns the new file's descriptor, positioned at its start, or
 * a negative FS_E* code with ERR naming NAME.  FD is only read. */
int fs_spool_fd(int fd, const unsigned char *head, size_t nhead, const char *name,
		struct fs_error *err);

#endif
