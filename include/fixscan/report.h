/* fixscan: printing reviews, as text for people or JSON for programs.
 *
 * Ownership: the review is borrowed.  A function returning char * returns
 * a new GLib string (g_free()); one writing into a buffer the caller
 * gives returns that buffer.  The words of each finding kind come from
 * the table of kinds (fixscan/kinds.h); patch numbers are in
 * lib/report/report-number.c. */
#ifndef FIXSCAN_REPORT_H
#define FIXSCAN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

#include "fixscan/review.h"

/* The "format_version" every JSON document of fixscan starts with: it
 * goes up when a key changes meaning or goes away, not for new keys. */
#define FS_JSON_FORMAT_VERSION 1

/* How much the text report says. */
enum fs_report_mode {
	FS_REPORT_FULL,   /* a header, one block per patch, the summary */
	FS_REPORT_SHORT,  /* one line per flagged patch, most serious first */
	FS_REPORT_QUIET,  /* the summary line alone */
};

struct fs_report_opts {
	bool all;     /* list every patch, not only those with findings */
	bool color;   /* ANSI colour for the kind names */
	bool verbose; /* the evidence too: [prefix], [stable id], chains */
	enum fs_report_mode mode;
	int width;    /* the lines of FS_REPORT_SHORT fit this; 0: no limit.
		       * Other lines are not wrapped here: the caller wraps. */
};
#define FS_REPORT_OPTS_INIT { .mode = FS_REPORT_FULL }

/* The text report of R as O asks.  Long lines are left whole, for the
 * caller to wrap (cli_print_wrapped() keeps colour codes intact). */
int fs_report_text(FILE *out, const struct fs_review *r, const struct fs_report_opts *o);

/* The ANSI colour the text report gives kind K's name (reset with
 * "\033[0m"): red for what asks for action, yellow for what asks a
 * look, green for a fix already there or queued, cyan for the rest. */
const char *fs_report_kind_color(enum fs_finding_kind k);

/* How serious a finding is, for ordering: 0 is the most serious.  What
 * must be queued or dropped comes first, then reports from people, then
 * notes; a finding that asks for nothing (fs_finding_is_problem()) is a
 * note whatever its kind. */
int fs_report_rank(const struct fs_finding *f);

/* The number of digits of MM in the "[PATCH x NN/MM]" of SUBJECT, as
 * written ("00/27": 2, "000/002": 3), or 0 when SUBJECT has none. */
int fs_report_subject_number_width(const char *subject);

/* The width to print NN and MM of series S with, as its subjects write
 * them: from the cover's subject, else the first patch's, else the
 * digits of MM.  Use it as printf("%0*d/%0*d", w, nn, w, mm). */
int fs_report_number_width(const struct fs_thread_series *s);

/* Patch NN of series S as the thread numbers it, into BUF (N bytes):
 * "03/27", as wide as fs_report_number_width() says; "2374" alone when
 * the total is unknown (not "2374/0000").  Returns BUF. */
char *fs_report_patch_number(const struct fs_thread_series *s, int nn, char *buf, size_t n);

/* Patch NN of R's series as the subjects write it ("03/24"), so that a
 * report line or a draft names a patch the way the thread does.  The
 * result lives in one of a few static buffers: enough for the few a
 * sentence names. */
const char *fs_report_nn(const struct fs_review *r, int nn);

/* "NN/MM" with both numbers W digits wide, or "NN" when TOTAL is unknown
 * (<= 0), into BUF (N bytes).  Returns BUF.  (The numbers are in
 * lib/report/report-number.c.) */
char *fs_report_format_number(char *buf, size_t n, int w, int nn, int total);

/* ---- words the report lines and the drafts share (report-words.c) ---- */

/* "second" when fix-missing F of patch RP directly fixes the second of
 * the several upstream commits RP picks; NULL for a patch of one
 * upstream commit, a fix of a fix, or a commit not among them.  Static. */
const char *fs_report_fixed_ordinal(const struct fs_review_patch *rp, const struct fs_finding *f);

/* A pending ref as people name it: "next/master" for
 * refs/remotes/next/master, "fixes" for refs/heads/fixes.  New string
 * (g_free()), cleaned (fs_text_clean_line()). */
char *fs_report_short_ref(const char *ref);

/* Append "part 3", or "part 3/5" when the posting's size TOTAL is known;
 * "a part" for a commit that links the posting's cover (part 0). */
void fs_report_add_part(GString *s, unsigned part, unsigned total);

/* The names symbol-missing F's patch uses, as it uses them:
 * "hub_port_settle_ms()", "->new_member", "struct foo", "FOO", joined
 * with commas and a last "and". */
void fs_report_add_symbols(GString *s, const struct fs_finding *f);

/* The files fix-not-applicable F's fix changes: "a.c", "a.c and b.c",
 * "a.c, b.c, c.c and 4 more", cleaned (fs_text_clean_line()). */
void fs_report_add_files(GString *s, const struct fs_finding *f);

/* TEXT cut to at most COLS columns (UTF-8 characters), ending in "..."
 * when cut.  Returns a new string (g_free()). */
char *fs_report_ellipsize(const char *text, size_t cols);

/* One JSON object on one line (the schema is in fixscan-review(1)). */
int fs_report_json(FILE *out, const struct fs_review *r);

/* One finding as a line of text, without colour or indentation: the
 * line the text report prints; VERBOSE adds the evidence (how the
 * commit was found) and the chain.  Returns a new string (g_free()). */
char *fs_report_finding_line(const struct fs_review *r, const struct fs_finding *f,
			     bool verbose);

#endif
