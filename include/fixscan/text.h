/* fixscan: text from mail and git made safe to show in a terminal.
 *
 * Subjects, names and quoted lines come from anyone on the internet; an
 * ESC or BEL in them would reach the reviewer's terminal or mutt's pager
 * and act there (retitle the window, clear the screen, recolour).  Text
 * output shows such characters visibly instead, as git and less do: C0
 * controls as ^X (ESC as ^[), DEL as ^?, and the C1 controls U+0080 to
 * U+009F as <U+009B>, and a byte that is not part of valid UTF-8 (a
 * file name in another encoding) as \x80.  JSON output needs none of
 * this: it escapes them.
 */
#ifndef FIXSCAN_TEXT_H
#define FIXSCAN_TEXT_H

#include <stdbool.h>
#include <stdio.h>

/* A copy of S (NULL counts as "") with every control character shown
 * visibly; tab is kept, and newline too when KEEP_NEWLINES.  Returns a
 * new string (g_free()), or NULL when out of memory. */
char *fs_text_visible(const char *s, bool keep_newlines);

/* Whether S holds a character fs_text_visible() would change. */
bool fs_text_needs_escaping(const char *s, bool keep_newlines);

/* fputs() of fs_text_visible(S, KEEP_NEWLINES) to OUT.  Returns 0, or -1
 * when out of memory or the write failed. */
int fs_text_fputs(const char *s, bool keep_newlines, FILE *out);

/* S on one line: a terminal escape sequence (colour, cursor, title) is
 * left out whole, other control characters (CR and LF included, C1 too)
 * become spaces, runs of spaces one, no space at either end.  Any text from mail or
 * config that goes into a header goes through this (or the next) first.
 * New string (g_free()); "" for NULL. */
char *fs_text_clean_line(const char *s);

/* Split FROM, "Name <addr>" (as fs_patch_from() gives it), into its
 * parts; a bare address has an empty name, a quoted name loses its
 * quotes.  *NAME and *ADDR new strings (g_free()), cleaned
 * (fs_text_clean_line()); "" for NULL. */
void fs_text_split_mailbox(const char *from, char **name, char **addr);

/* The name to call the sender of FROM by: its display name, else its
 * address, else NOBODY.  New string (g_free()), cleaned. */
char *fs_text_display_name(const char *from, const char *nobody);

/* S as the text of a mail body: lines kept (LF and tab), terminal escape
 * sequences left out whole, every other control character (CR, C1)
 * dropped.  New string (g_free()); "" for NULL. */
char *fs_text_clean_body(const char *s);

/* Whether the LEN bytes at S read as text people wrote: no NUL, few
 * bytes that are control characters or no UTF-8, mostly ASCII, and
 * long lines with spaces between words (a body whose encoding was
 * decoded wrongly, or not at all, has none of these).  Empty text
 * reads. */
bool fs_text_reads_as_text(const char *s, size_t len);

/* A message id or address fit for a header: printable ASCII without
 * spaces or angle brackets.  New string (g_free()), or NULL when nothing
 * is left. */
char *fs_text_clean_id(const char *s);

#endif
