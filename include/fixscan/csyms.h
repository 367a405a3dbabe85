/* fixscan: the C identifiers of a patch and of a source file.
 *
 * A pure module (lib/kernel/csyms*.c): text in, names out, no I/O.
 *
 * Of a patch (fs_csyms_read_patch()): the identifiers its added lines of
 * C sources and headers (.c, .h) use -- functions and macros called,
 * types (struct, union and enum tags, typedef names), struct members,
 * constants (enum constants and object-like macros: names without a
 * lower-case letter) -- each once, in the order they first appear.  Left
 * out: comments, strings and character literals, C keywords, context
 * and removed lines, #include and conditional lines, what the
 * preprocessor pastes or quotes, CONFIG_ options (an unknown one is
 * false, not an error), and every name the patch's own added lines
 * declare anywhere in it (a function, a macro, a member, an enum
 * constant, a type, a variable, a parameter, a label): a backport that
 * adds a helper and calls it uses nothing new.  A hunk that begins
 * inside a comment is recognised by the comment's end.  Other
 * identifiers (a variable used as a value) are not reported: a name
 * declared through a macro the reader does not know would be taken for
 * a use.
 *
 * Of a source file (fs_csyms_each_token(), fs_csyms_each_definition()):
 * every identifier token, or the identifiers it defines at file scope, as
 * members or as enum constants.
 *
 * Ownership: a struct fs_csyms owns its arrays and strings
 * (fs_csyms_clear()); the texts passed in are borrowed.
 */
#ifndef FIXSCAN_CSYMS_H
#define FIXSCAN_CSYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

/* The role in which a patch uses an identifier. */
enum fs_csym_role {
	FS_CSYM_CALL,     /* foo(...): a function or a function-like macro */
	FS_CSYM_MEMBER,   /* p->foo, s.foo, .foo = ...: a member */
	FS_CSYM_TYPE,     /* struct foo, foo_t x: a tag or a typedef name */
	FS_CSYM_CONSTANT, /* FOO: an enum constant or an object-like macro */
	FS_CSYM_OTHER,    /* anything else (a variable): not reported */
	FS_CSYM_ROLE_COUNT
};

/* "call", "member", "type", "constant", "other" (JSON). */
const char *fs_csym_role_name(enum fs_csym_role role);

/* One identifier a patch uses. */
struct fs_csym_use {
	char *name;
	enum fs_csym_role role;
	char *tag;    /* FS_CSYM_TYPE: "struct", "union" or "enum" before
		       * the name, or NULL (a typedef name) */
	char *file;   /* the file (new path) of its first use */
	unsigned line; /* its line in the new file (from the hunk header) */
};

/* One file a patch changes. */
struct fs_csym_file {
	char *path;   /* the new path; the old one for a deleted file */
	bool created; /* new file (from /dev/null) */
	bool deleted; /* deleted (to /dev/null) */
	bool c_source; /* a .c or .h file: its added lines are read */
};

struct fs_csyms {
	struct fs_csym_use *uses; /* in order of first use, each name once */
	size_t nuses;
	char **defined;  /* every name its added lines declare, sorted */
	size_t ndefined;
	char **tokens;   /* every identifier of its added code lines
			  * (keywords aside), sorted, each once */
	size_t ntokens;
	struct fs_csym_file *files; /* in the order of the diff */
	size_t nfiles;
};
#define FS_CSYMS_INIT { NULL, 0, NULL, 0, NULL, 0, NULL, 0 }

/* Read the unified diff in TEXT (LEN bytes; text around it, a changelog
 * or a signature, is skipped; "diff --git" headers or "---"/"+++" pairs
 * name the files).  Fills *OUT (FS_CSYMS_INIT or cleared).  Returns 0 (a
 * text without a diff gives an empty result) or FS_ENOMEM. */
int fs_csyms_read_patch(struct fs_csyms *out, const char *text, size_t len,
			struct fs_error *err);
void fs_csyms_clear(struct fs_csyms *s);

/* Whether the added lines of S declare NAME / have the token NAME. */
bool fs_csyms_defines(const struct fs_csyms *s, const char *name);
bool fs_csyms_has_token(const struct fs_csyms *s, const char *name);

/* Called with each identifier (NAME, LEN bytes, not NUL-terminated);
 * returning non-zero stops the walk and is returned. */
typedef int (*fs_csym_fn)(void *ctx, const char *name, size_t len);

/* Every identifier token of source text TEXT, comments and strings
 * included (what the tree "has anywhere"), in text order, repeats
 * included.  Returns 0 or what FN returned. */
int fs_csyms_each_token(const char *text, size_t len, fs_csym_fn fn, void *ctx);

/* The identifiers source file TEXT defines where another file or a later
 * commit could use them: at file scope (functions, prototypes, global
 * variables, types, tags, macros), members of structs and unions, enum
 * constants; not local variables, parameters or labels.  Repeats
 * included.  Returns 0, what FN returned, or FS_ENOMEM. */
int fs_csyms_each_definition(const char *text, size_t len, fs_csym_fn fn, void *ctx);

/* Whether TEXT has NAME as a whole token (comments and strings
 * included, as fs_csyms_each_token() reads them). */
bool fs_csyms_text_has(const char *text, size_t len, const char *name);

#endif
