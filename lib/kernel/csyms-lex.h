/* fixscan: the C lexer and the reading of declarations under the
 * identifier readers of kernel/csyms.c (a patch's added lines) and
 * kernel/csyms-tree.c (a whole source file).  Private to lib/kernel/.
 *
 * Kernel C is read as tokens, not parsed: a backport's hunks are pieces
 * of files (a hunk may begin inside a comment, a function, an enum), and
 * the preprocessor puts any text anywhere.  What is read from the tokens
 * is what a build needs: which identifiers a piece of code declares
 * (variables, parameters, members, functions, types, enum constants,
 * macros, labels) and in what role it uses the others.  Where the tokens
 * do not tell, the reading errs towards "declared here": an identifier
 * taken for declared is one a review does not ask about, which costs a
 * finding, never a false one.
 *
 * Ownership: a token vector owns its array (cs_tokens_free()); its tokens
 * point into the text lexed, which must outlive them. */
#ifndef FIXSCAN_KERNEL_CSYMS_LEX_H
#define FIXSCAN_KERNEL_CSYMS_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixscan/csyms.h"

enum cs_type {
	CS_IDENT = 1,
	CS_NUMBER,
	CS_STRING, /* a string or character literal, prefix included */
	CS_PUNCT,  /* one character, or "->", "##", "..." */
	CS_DIRECTIVE, /* the '#' that begins a preprocessor line */
	CS_DIRECTIVE_END, /* the end of that line (no text) */
};

struct cs_token {
	const char *s;
	uint32_t len;
	uint32_t line;    /* 0-based line of the text lexed */
	uint8_t type;     /* enum cs_type */
	uint8_t kw;       /* an identifier's cs_keyword_flags() */
	uint8_t in_directive;
	uint8_t line_first; /* the first token of its line */
};

struct cs_tokens {
	struct cs_token *v;
	size_t n, cap;
};

/* Lex LEN bytes of TEXT into *OUT (emptied first).  IN_COMMENT: the text
 * begins inside a block comment.  *STRAY_CLOSE (may be NULL) is set when
 * a "*" "/" was met outside any comment before any comment opened: the
 * text began inside one.  Returns 0, or -1 out of memory. */
int cs_lex(const char *text, size_t len, bool in_comment, struct cs_tokens *out,
	   bool *stray_close);
void cs_tokens_free(struct cs_tokens *t);

static inline bool cs_is(const struct cs_token *t, const char *p)
{
	size_t n = __builtin_strlen(p);

	return t->type == CS_PUNCT && t->len == n && !__builtin_memcmp(t->s, p, n);
}

/* The role in which token I is used, and whether the tokens declare it.
 * SCOPE says where a declaration is: at file scope, in the body of an
 * aggregate or enum (a member or an enum constant), or elsewhere (a local
 * variable, a parameter, a label, a macro's parameter). */
enum cs_scope {
	CS_SCOPE_FILE,
	CS_SCOPE_BODY,  /* a member, an enum constant */
	CS_SCOPE_LOCAL,
	CS_SCOPE_UNKNOWN, /* a hunk that begins inside braces it does not show */
};

/* What cs_read() tells its callbacks. */
struct cs_reader {
	/* Token T (an identifier) is declared (or defined) in SCOPE; MACRO:
	 * by a #define. */
	void (*declared)(void *ctx, const struct cs_token *t, enum cs_scope scope, bool macro);
	/* Token T is used in ROLE.  Not called for declared tokens, nor for
	 * those of #include, #if and like lines, keywords, what the
	 * preprocessor pastes or quotes, or attributes. */
	void (*used)(void *ctx, const struct cs_token *t, enum fs_csym_role role);
	void *ctx;
	/* A piece of a file (a hunk): its braces may close what it does not
	 * show, and a line "NAME," or "NAME = X," there may be an enum's. */
	bool piece;
};

/* Read the N tokens T with R.  Returns 0, or -1 out of memory. */
int cs_read(const struct cs_token *t, size_t n, const struct cs_reader *r);

/* Whether the identifier S (LEN bytes) is a C keyword, a GCC extension's
 * or a predefined name of the compiler (__builtin_*, __VA_ARGS__,
 * __func__, defined): never a name of the tree's. */
bool cs_keyword(const char *s, size_t len);

/* What cs_keyword_flags() says of a keyword: CS_KW always; CS_KW_TYPE a
 * type (int, long), CS_KW_DECL one a declaration may carry (static,
 * const, typedef), CS_KW_TAG struct, union or enum.  0: no keyword. */
#define CS_KW_TYPE 1u
#define CS_KW_DECL 2u
#define CS_KW_TAG 4u
#define CS_KW 8u
unsigned cs_keyword_flags(const char *s, size_t len);

#endif
