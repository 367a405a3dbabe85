/* fixscan: what the two halves of the diffcmp module share (diffcmp.c
 * compares diffs, diffcmp-repo.c reads the upstream side from the
 * repository).  Private to them. */
#ifndef FIXSCAN_DIFFCMP_PRIVATE_H
#define FIXSCAN_DIFFCMP_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

#include "fixscan/diffcmp.h"

/* ---- parsing a unified diff --------------------------------------------- */

struct dfile {
	char *path;
	GPtrArray *keys;  /* "+text" / "-text" with no white space */
	GPtrArray *raw;   /* the lines as written, same order */
	bool hunks;       /* a hunk was read */
	bool git;         /* started by a "diff --git" line */
	char *renamed_from; /* "rename from" of a git diff header, or NULL */
	struct dfile *twin; /* the other side's file of these lines by another name */
};

/* Whether PATH is in the tree upstream's change was made on (CTX). */
typedef bool (*upstream_has_fn)(void *ctx, const char *path);

/* diffcmp.c: a file's lines (g_ptr_array_free's free function); a new
 * file added to FILES; the key of a line ("+text" without white space,
 * a new string); the files of the diff TEXT (LEN bytes), a new array;
 * the comparison of upstream's files U with the backport's B into OUT,
 * HAS telling which paths upstream's tree has. */
void fsdc_dfile_free(gpointer p);
struct dfile *fsdc_dfile_new(GPtrArray *files);
char *fsdc_line_key(char sign, const char *s, size_t n);
GPtrArray *fsdc_parse_diff(const char *text, size_t len);
int fsdc_compare_with(GPtrArray *u, GPtrArray *b, struct fs_diffcmp_result *out, upstream_has_fn has, void *ctx, struct fs_error *err);

#endif
