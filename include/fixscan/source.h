/* fixscan: where the mails of a review come from.
 *
 * The first stage of the pipeline, one loader per source behind one
 * call: the notmuch store (a query, fs_review_load()), an mbox file (as
 * b4 mbox, lei q or a mail client save it; mboxo or mboxrd, gzip'd or
 * not) or a stable-queue directory (a quilt series file and its
 * patches).  Every loader gives the same threads, sorted into series by
 * the thread module, that fs_review_run() and everything after it take.
 *
 * Ownership: what the loaders return is GLib's (g_free(),
 * fs_thread_free(), fs_source_free()); notes are copies the notes own.
 */
#ifndef FIXSCAN_SOURCE_H
#define FIXSCAN_SOURCE_H

#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

/* Things worth telling the user that did not stop the work, such as a
 * mail of the thread that could not be read; each a line without
 * "fixscan: ".  Start with FS_REVIEW_NOTES_INIT. */
struct fs_review_notes {
	char **v;
	size_t n;
};
#define FS_REVIEW_NOTES_INIT { .v = NULL }
void fs_review_notes_clear(struct fs_review_notes *notes);
/* Add a copy of TEXT to NOTES (a note lost to a lack of memory is only
 * a note: nothing is said). */
void fs_review_notes_add(struct fs_review_notes *notes, const char *text);

/* The first stage of the pipeline: every thread of STORE matching the
 * notmuch QUERY, its mails parsed (unsent drafts left out) and sorted
 * into series, in *OUT, an array of *NOUT threads (free each with
 * fs_thread_free() and the array with g_free()).  A mail that cannot be
 * read is skipped and said in NOTES (may be NULL).  Returns 0, or
 * FS_ESTORE / FS_EUSAGE / FS_ENOMEM with ERR set. */
int fs_review_load(struct fs_thread ***out, size_t *nout, struct fs_store *store,
		   const char *query, struct fs_review_notes *notes, struct fs_error *err);

enum fs_source_kind {
	FS_SOURCE_STORE, /* WHAT is a notmuch query on STORE */
	FS_SOURCE_MBOX,  /* WHAT is an mbox file, "-" for standard input */
	FS_SOURCE_QUEUE, /* WHAT is a stable-queue directory */
	FS_SOURCE_FETCH, /* WHAT is a Message-Id, its thread fetched by TOOL */
};

struct fs_source {
	enum fs_source_kind kind;
	const char *what;
	struct fs_store *store;  /* FS_SOURCE_STORE only */
	/* FS_SOURCE_QUEUE: the kernel series ("4.4"); NULL: from the
	 * directory's name (fs_source_queue_version()). */
	const char *version;
	/* FS_SOURCE_FETCH: the program that fetches the thread, "b4" or
	 * "lei" (found on PATH); NULL: fs_source_fetch_tool(). */
	const char *tool;
	/* FS_SOURCE_FETCH: seconds the program may run before it is killed
	 * (0: FS_SOURCE_FETCH_TIMEOUT). */
	int timeout;
};
#define FS_SOURCE_FETCH_TIMEOUT 300
#define FS_SOURCE_INIT { .kind = FS_SOURCE_STORE }

/* The threads of SRC, their mails parsed and sorted into series, in *OUT,
 * an array of *NOUT threads (free with fs_source_free()).
 *
 * STORE: every thread matching the query; unreadable mails are skipped
 * and said in NOTES (may be NULL).  A query matching nothing gives no
 * thread, which is no error here.
 *
 * MBOX: the mails of the file grouped into threads by their Message-Id,
 * In-Reply-To and References (a file may hold several threads), unsent
 * drafts and fixscan's own mail left out.  A message after the first
 * that cannot be read ends the reading, said in NOTES.  FS_EIO (cannot
 * open), FS_EPARSE (empty, not mail, corrupt gzip data), FS_ENOTFOUND
 * (no patch of a stable series in it), the message naming the file.
 *
 * QUEUE: one thread of one series, the patch files the directory's
 * "series" file lists (comments, blank lines and quilt options such as
 * -p1 left out), numbered 1..N in that order as patches of version
 * SRC->version.  FS_EIO (no directory, no series file, a listed file
 * missing or unreadable), FS_EPARSE (a line of the series file that is
 * no patch name, a name outside the directory or listed twice, a patch
 * file that is not a mail or that leads outside the directory through a
 * symbolic link, a series listing nothing), the message naming the file
 * and line.
 *
 * FETCH: the thread of the Message-Id WHAT (without <>) from the public
 * archives, by running SRC->tool: "b4 mbox -o - -- ID" or "lei q
 * --no-save -f mboxrd --threads -- m:ID", the id one argument of its
 * own (no shell), the program's standard output read as an MBOX (hostile
 * input like any) through a temporary file that is removed after.  An id
 * that fs_source_fetch_check_id() refuses gives FS_EUSAGE before
 * anything runs; no such program FS_ENOTFOUND; a program that fails
 * (exit status not 0, killed) FS_EIO with its status and the last line
 * it wrote on standard error; one still running after SRC->timeout
 * seconds is killed (FS_EIO); an empty answer FS_ENOTFOUND.  The
 * messages name the program and the id, not the temporary file. */
int fs_source_load(struct fs_thread ***out, size_t *nout, const struct fs_source *src,
		   struct fs_review_notes *notes, struct fs_error *err);
void fs_source_free(struct fs_thread **threads, size_t n);

/* The kernel series a stable-queue directory is for, from its name:
 * ".../queue-4.4" or "queue-4.4/" gives "4.4"; a new string (g_free()), or
 * NULL when the name is not of that form. */
char *fs_source_queue_version(const char *dir);

/* The patch file names of the quilt series file TEXT (LEN bytes), in
 * order: comment lines (#) and blank lines left out, and whatever
 * follows the name on its line (quilt options such as -p1, a comment).
 * NAME is the series file's name, for errors.  Returns 0 with *OUT a
 * NULL-terminated array (g_strfreev()) and *N its length, or FS_EPARSE
 * with ERR naming NAME and the line: a NUL or control character, a name
 * starting with '-' or '/' or with a ".." component, a name listed
 * twice. */
int fs_source_queue_names(char ***out, size_t *n, const char *text, size_t len,
			  const char *name, struct fs_error *err);

/* Whether ID (a Message-Id without <>) is plain enough to hand to another
 * program as a Message-Id: printable ASCII with an '@' that has text
 * before and after it, no white space or control character, no leading
 * '-' or '.', none of the shell and quote characters " ' ` \ $ ; & | < >
 * ( ) [ ] *, at most 250 bytes.  Returns 0, or FS_EUSAGE with ERR naming
 * the id (shown safely) and what is wrong with it. */
int fs_source_fetch_check_id(const char *id, struct fs_error *err);

/* The program that fetches threads for FS_SOURCE_FETCH: "b4" when it is
 * on PATH, else "lei" when it is, else NULL.  A static string. */
const char *fs_source_fetch_tool(void);

#endif
