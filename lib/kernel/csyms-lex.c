/* fixscan: the C lexer under the identifier readers (see csyms-lex.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "csyms-lex.h"

/* ---- characters ---------------------------------------------------------- */

static inline bool ident_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static inline bool ident_char(unsigned char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* ---- keywords ------------------------------------------------------------ */

/* Keywords, GCC's spellings of them and the compiler's own names.  The
 * flags: a type keyword (a declaration's type), one a declaration may
 * start or carry (storage class, qualifier), a tag keyword. */
#define KW_TYPE CS_KW_TYPE
#define KW_DECL CS_KW_DECL
#define KW_TAG CS_KW_TAG

struct keyword {
	const char *name;
	unsigned flags;
};

static const struct keyword keywords[] = {
	{ "_Alignas", KW_DECL }, { "_Alignof", 0 }, { "_Atomic", KW_DECL },
	{ "_Bool", KW_TYPE }, { "_Complex", KW_TYPE }, { "_Generic", 0 },
	{ "_Imaginary", KW_TYPE }, { "_Noreturn", KW_DECL }, { "_Static_assert", 0 },
	{ "_Thread_local", KW_DECL }, { "__COUNTER__", 0 }, { "__DATE__", 0 },
	{ "__FILE__", 0 }, { "__FUNCTION__", 0 }, { "__LINE__", 0 },
	{ "__PRETTY_FUNCTION__", 0 }, { "__TIME__", 0 }, { "__VA_ARGS__", 0 },
	{ "__VA_OPT__", 0 }, { "__alignof", 0 }, { "__alignof__", 0 }, { "__asm", 0 },
	{ "__asm__", 0 }, { "__attribute", 0 }, { "__attribute__", 0 },
	{ "__auto_type", KW_TYPE }, { "__const", KW_DECL }, { "__const__", KW_DECL },
	{ "__extension__", KW_DECL }, { "__func__", 0 }, { "__has_attribute", 0 },
	{ "__has_builtin", 0 }, { "__has_include", 0 }, { "__inline", KW_DECL },
	{ "__inline__", KW_DECL }, { "__int128", KW_TYPE }, { "__label__", 0 },
	{ "__restrict", KW_DECL }, { "__restrict__", KW_DECL }, { "__signed", KW_TYPE },
	{ "__signed__", KW_TYPE }, { "__thread", KW_DECL }, { "__typeof", 0 },
	{ "__typeof__", 0 }, { "__volatile", KW_DECL }, { "__volatile__", KW_DECL },
	{ "asm", 0 }, { "auto", KW_DECL }, { "break", 0 }, { "case", 0 },
	{ "char", KW_TYPE }, { "const", KW_DECL }, { "continue", 0 }, { "default", 0 },
	{ "defined", 0 }, { "do", 0 }, { "double", KW_TYPE }, { "else", 0 },
	{ "enum", KW_TAG }, { "extern", KW_DECL }, { "float", KW_TYPE }, { "for", 0 },
	{ "goto", 0 }, { "if", 0 }, { "inline", KW_DECL }, { "int", KW_TYPE },
	{ "long", KW_TYPE }, { "register", KW_DECL }, { "restrict", KW_DECL },
	{ "return", 0 }, { "short", KW_TYPE }, { "signed", KW_TYPE }, { "sizeof", 0 },
	{ "static", KW_DECL }, { "struct", KW_TAG }, { "switch", 0 },
	{ "typedef", KW_DECL }, { "typeof", 0 }, { "typeof_unqual", 0 },
	{ "union", KW_TAG }, { "unsigned", KW_TYPE }, { "void", KW_TYPE },
	{ "volatile", KW_DECL }, { "while", 0 },
};

/* The keywords by a hash of their length, first and last characters:
 * KW_SLOTS slots of indexes into keywords[] (plus one; 0 empty), made
 * once.  A lookup is a probe or two and one memcmp, where a bisection of
 * the list costs some seven string compares for every identifier of a
 * tree. */
#define KW_SLOTS 512
static uint8_t kw_slot[KW_SLOTS];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *s, size_t len)
{
	return ((unsigned)len * 131u + (unsigned char)s[0] * 31u +
		(unsigned char)s[len - 1] * 7u + (unsigned char)s[len / 2]) % KW_SLOTS;
}

static void kw_build(void)
{
	size_t i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		const char *n = keywords[i].name;
		unsigned h = kw_hash(n, strlen(n));

		while (kw_slot[h])
			h = (h + 1) % KW_SLOTS;
		kw_slot[h] = (uint8_t)(i + 1);
	}
}

unsigned cs_keyword_flags(const char *s, size_t len)
{
	unsigned h;

	if (len > 10 && !memcmp(s, "__builtin_", 10))
		return CS_KW;
	if (!len || len > 20)
		return 0;
	pthread_once(&kw_once, kw_build);
	for (h = kw_hash(s, len); kw_slot[h]; h = (h + 1) % KW_SLOTS) {
		const struct keyword *k = &keywords[kw_slot[h] - 1];

		if (!strncmp(k->name, s, len) && !k->name[len])
			return CS_KW | k->flags;
	}
	return 0;
}

bool cs_keyword(const char *s, size_t len)
{
	return cs_keyword_flags(s, len) != 0;
}

/* ---- the lexer ----------------------------------------------------------- */

static int push(struct cs_tokens *out, const char *s, size_t len, uint32_t line, int type,
		bool directive, bool *first)
{
	struct cs_token *t;

	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 256;
		struct cs_token *v = realloc(out->v, cap * sizeof(*v));

		if (!v)
			return -1;
		out->v = v;
		out->cap = cap;
	}
	t = &out->v[out->n++];
	t->s = s;
	t->len = (uint32_t)len;
	t->line = line;
	t->type = (uint8_t)type;
	/* keywords begin with a lower-case letter or '_' */
	t->kw = type == CS_IDENT && (*s >= 'a' || *s == '_') ? (uint8_t)cs_keyword_flags(s, len) : 0;
	t->in_directive = directive;
	t->line_first = *first && type != CS_DIRECTIVE_END;
	if (type != CS_DIRECTIVE_END)
		*first = false;
	return 0;
}

/* The end of the literal opened by the quote at P: its closing quote, or
 * the end of its line (an unterminated one). */
static const char *literal_end(const char *p, const char *end)
{
	char q = *p++;

	while (p < end && *p != q && *p != '\n') {
		if (*p == '\\' && p + 1 < end && p[1] != '\n')
			p++;
		p++;
	}
	return p < end && *p == q ? p + 1 : p;
}

static const char *number_end(const char *p, const char *end)
{
	while (p < end) {
		if ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))
			p++;
		else if (ident_char((unsigned char)*p) || *p == '.')
			p++;
		else
			break;
	}
	return p;
}

/* A backslash at P that ends its line (white space may follow it): the
 * position after the newline, else NULL. */
static const char *splice(const char *p, const char *end)
{
	const char *q = p + 1;

	while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
		q++;
	return q < end && *q == '\n' ? q + 1 : NULL;
}

struct lexer {
	const char *p, *end;
	uint32_t line;
	bool line_start; /* only white space before P on its line */
	bool first;      /* no token yet on this line */
	bool directive;
	bool in_comment;
	bool opened;     /* a comment has opened */
	struct cs_tokens *out;
};

/* One step at L->p outside comments: 1 when it consumed something, 0 at
 * an unknown byte (skipped), -1 out of memory. */
static int lex_one(struct lexer *l, bool *stray)
{
	const char *p = l->p, *q, *end = l->end;
	int type = CS_PUNCT;

	if (*p == '/' && p + 1 < end && p[1] == '*') {
		l->in_comment = l->opened = true;
		l->p = p + 2;
		return 1;
	}
	if (*p == '/' && p + 1 < end && p[1] == '/') {
		while (p < end && *p != '\n')
			p++;
		l->p = p;
		return 1;
	}
	if (*p == '*' && p + 1 < end && p[1] == '/') {
		if (!l->opened && stray)
			*stray = true;
		l->p = p + 2;
		return 1;
	}
	if (*p == '#' && l->line_start && !l->directive) {
		l->directive = true;
		l->line_start = false;
		l->p = p + 1;
		return push(l->out, p, 1, l->line, CS_DIRECTIVE, true, &l->first) < 0 ? -1 : 1;
	}
	l->line_start = false;
	if (ident_start((unsigned char)*p)) {
		for (q = p + 1; q < end && ident_char((unsigned char)*q); q++)
			;
		/* L"..", u8'..': a literal's prefix */
		if (q < end && (*q == '"' || *q == '\'') && q - p <= 2 &&
		    (*p == 'L' || *p == 'u' || *p == 'U')) {
			q = literal_end(q, end);
			type = CS_STRING;
		} else {
			type = CS_IDENT;
		}
	} else if ((*p >= '0' && *p <= '9') ||
		   (*p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
		q = number_end(p + 1, end);
		type = CS_NUMBER;
	} else if (*p == '"' || *p == '\'') {
		q = literal_end(p, end);
		type = CS_STRING;
	} else if ((*p == '-' && p + 1 < end && p[1] == '>') ||
		   (*p == '#' && p + 1 < end && p[1] == '#')) {
		q = p + 2;
	} else if (*p == '.' && end - p >= 3 && p[1] == '.' && p[2] == '.') {
		q = p + 3;
	} else if ((unsigned char)*p > ' ' && (unsigned char)*p < 127) {
		q = p + 1;
	} else {
		l->p = p + 1;
		return 0;
	}
	l->p = q;
	return push(l->out, p, (size_t)(q - p), l->line, type, l->directive, &l->first) < 0 ? -1 : 1;
}

/* The end of a line at L->p (a newline): a directive ends there. */
static int lex_newline(struct lexer *l)
{
	if (l->directive) {
		l->directive = false;
		if (push(l->out, l->p, 0, l->line, CS_DIRECTIVE_END, true, &l->first) < 0)
			return -1;
	}
	l->line++;
	l->line_start = l->first = true;
	l->p++;
	return 0;
}

int cs_lex(const char *text, size_t len, bool in_comment, struct cs_tokens *out,
	   bool *stray_close)
{
	struct lexer l = { text, text + len, 0, true, true, false, in_comment, false, out };
	const char *q;

	out->n = 0;
	if (stray_close)
		*stray_close = false;
	while (l.p < l.end) {
		char c = *l.p;

		if (c == '\n') {
			if (lex_newline(&l) < 0)
				return -1;
		} else if (l.in_comment) {
			if (c == '*' && l.p + 1 < l.end && l.p[1] == '/') {
				l.in_comment = false;
				l.p += 2;
			} else {
				l.p++;
			}
		} else if (c == '\\' && (q = splice(l.p, l.end))) {
			l.line++;
			l.first = true;
			l.p = q;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			l.p++;
		} else if (lex_one(&l, stray_close) < 0) {
			return -1;
		}
	}
	if (l.directive && push(out, l.end, 0, l.line, CS_DIRECTIVE_END, true, &l.first) < 0)
		return -1;
	return 0;
}

void cs_tokens_free(struct cs_tokens *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
