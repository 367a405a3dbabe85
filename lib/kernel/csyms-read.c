/* fixscan: which identifiers a run of C tokens declares, and in what role
 * it uses the others (see csyms-lex.h).
 *
 * Two passes.  The first walks the tokens with the braces and
 * parentheses open (a stack of what each brace opened: a block, an
 * initializer, a struct or union, an enum) and marks each identifier it
 * finds declared: a declarator after a run of type tokens from a
 * declaration's start ("static int foo(", "u32 val =", "struct bar *p;"),
 * "(*name)", "} name;", a label, an enum constant, a #define and its
 * parameters, the names a DEFINE_x()/DECLARE_x() macro declares; and
 * marks the type tokens of those runs.  The second reports each token.
 * Preprocessor conditionals are read as their first branch for the
 * braces: "#if A ... {  #else ... {  #endif" opens one brace, not two. */
#include <stdlib.h>
#include <string.h>

#include "csyms-lex.h"

enum brace { B_BLOCK, B_INIT, B_AGG, B_ENUM };

#define M_SKIP 1u     /* not a name of the code: say nothing of it */
#define M_DECL 2u     /* declared here */
#define M_TYPEPOS 4u  /* the type of a declaration */
#define M_MACRO 8u    /* declared by #define */

struct cond {
	size_t start, end; /* brace depth at #if, and at the end of its first
			    * branch (SIZE_MAX: not reached yet) */
};

struct rd {
	const struct cs_token *t;
	size_t n;
	const struct cs_reader *r;
	uint8_t *mark;
	uint8_t *scope;
	uint8_t *stack;  /* enum brace per open brace */
	size_t depth, cap;
	size_t base;     /* braces below it belong to the code around a
			  * #define's body */
	bool unknown;    /* braces were closed that the tokens did not open */
	int paren;
	bool in_decl;    /* a declaration at parenthesis level 0 runs on:
			  * ", name" declares too */
	struct cond *cond;
	size_t ncond, condcap;
};

static bool is_ident(const struct cs_token *t)
{
	return t->type == CS_IDENT;
}

static unsigned kwf(const struct cs_token *t)
{
	return t->kw;
}

static bool has_lower(const struct cs_token *t)
{
	uint32_t i;

	for (i = 0; i < t->len; i++)
		if (t->s[i] >= 'a' && t->s[i] <= 'z')
			return true;
	return false;
}

static bool same(const struct cs_token *t, const char *s)
{
	return t->type == CS_IDENT && t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

static bool starts(const struct cs_token *t, const char *s)
{
	size_t n = strlen(s);

	return t->type == CS_IDENT && t->len > n && !memcmp(t->s, s, n);
}

/* Token I's neighbours in the same run [LO, N): NULL past either end, or
 * across a directive's edge. */
static const struct cs_token *at(const struct rd *d, size_t lo, size_t i, long delta)
{
	long j = (long)i + delta;

	if (j < (long)lo || j >= (long)d->n)
		return NULL;
	if (d->t[j].type == CS_DIRECTIVE_END || d->t[j].type == CS_DIRECTIVE ||
	    d->t[j].in_directive != d->t[i].in_directive)
		return NULL;
	return &d->t[j];
}

static bool punct_at(const struct rd *d, size_t lo, size_t i, long delta, const char *p)
{
	const struct cs_token *t = at(d, lo, i, delta);

	return t && cs_is(t, p);
}

/* ---- scopes and braces ---------------------------------------------------- */

static enum cs_scope ctx_scope(const struct rd *d)
{
	size_t i;

	for (i = d->base; i < d->depth; i++)
		if (d->stack[i] == B_BLOCK || d->stack[i] == B_INIT)
			return CS_SCOPE_LOCAL;
	if (d->base > 0)
		return CS_SCOPE_LOCAL; /* inside a #define's body */
	if (d->depth == d->base)
		return d->unknown ? CS_SCOPE_UNKNOWN : CS_SCOPE_FILE;
	return CS_SCOPE_BODY;
}

/* What the brace at I opens. */
static enum brace brace_kind(const struct rd *d, size_t lo, size_t i)
{
	const struct cs_token *p;
	long k;

	/* "struct foo {", "enum {", "union __packed {" */
	for (k = 1; k <= 3 && (p = at(d, lo, i, -k)); k++) {
		unsigned f = kwf(p);

		if (f & CS_KW_TAG)
			return p->s[0] == 'e' ? B_ENUM : B_AGG;
		if (!is_ident(p) || (f && !(f & CS_KW_DECL)))
			break;
	}
	p = at(d, lo, i, -1);
	if (p && cs_is(p, "="))
		return B_INIT;
	if (p && (cs_is(p, "{") || cs_is(p, ",")) && d->depth > d->base &&
	    d->stack[d->depth - 1] == B_INIT)
		return B_INIT;
	return B_BLOCK;
}

static int brace_open(struct rd *d, enum brace b)
{
	if (d->depth == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 32;
		uint8_t *s = realloc(d->stack, cap);

		if (!s)
			return -1;
		d->stack = s;
		d->cap = cap;
	}
	d->stack[d->depth++] = (uint8_t)b;
	return 0;
}

static void brace_close(struct rd *d)
{
	if (d->depth > d->base)
		d->depth--;
	else
		d->unknown = true;
}

/* ---- declarations --------------------------------------------------------- */

/* The '(' matching the ')' at I, at or after LO; or SIZE_MAX. */
static size_t open_of(const struct rd *d, size_t lo, size_t i)
{
	int level = 0;
	size_t j;

	for (j = i + 1; j-- > lo;) {
		if (d->t[j].type == CS_DIRECTIVE_END || d->t[j].type == CS_DIRECTIVE)
			return SIZE_MAX;
		if (cs_is(&d->t[j], ")"))
			level++;
		else if (cs_is(&d->t[j], "(") && --level == 0)
			return j;
	}
	return SIZE_MAX;
}

/* Whether the run of tokens before I (an identifier) from a declaration's
 * start is a declaration's type: storage classes, qualifiers, type
 * keywords, tags, type names (with a lower-case letter: "FOO * x" is a
 * product), pointers, typeof(...) and attributes; at least one type.
 * *FROM gets its first token. */
static bool type_run(const struct rd *d, size_t lo, size_t i, size_t *from)
{
	bool typed = false;
	size_t j = i;

	while (j > lo) {
		const struct cs_token *t = &d->t[j - 1];
		unsigned f = kwf(t);

		if (d->mark[j - 1] & M_SKIP) {
			j--;
		} else if (t->type == CS_DIRECTIVE_END || t->type == CS_DIRECTIVE ||
			   t->in_directive != d->t[i].in_directive) {
			break;
		} else if (is_ident(t) && f) {
			if (!(f & (CS_KW_TYPE | CS_KW_DECL | CS_KW_TAG)))
				return false;
			typed |= (f & (CS_KW_TYPE | CS_KW_TAG)) != 0;
			j--;
		} else if (is_ident(t)) {
			if (!has_lower(t))
				return false;
			typed = true;
			j--;
		} else if (cs_is(t, "*")) {
			j--;
		} else if (cs_is(t, ")") && j < d->n && d->t[j].line_first && j - 1 != i - 1) {
			break; /* "SEC(...)" on the line before "int probe(": a
				* macro's attribute ends the run */
		} else if (cs_is(t, ")")) {
			size_t o = open_of(d, lo, j - 1);

			if (o == SIZE_MAX || o == lo || !(same(&d->t[o - 1], "typeof") ||
			    same(&d->t[o - 1], "__typeof__") || same(&d->t[o - 1], "__typeof") ||
			    same(&d->t[o - 1], "typeof_unqual")))
				return false;
			typed = true;
			j = o - 1;
		} else if (cs_is(t, ";") || cs_is(t, "{") || cs_is(t, "}") || cs_is(t, "(") ||
			   cs_is(t, ",") || cs_is(t, ":")) {
			break;
		} else {
			return false;
		}
	}
	*from = j;
	return typed;
}

/* Whether identifier I is a declarator: after a type run, before what
 * may follow one. */
static bool declarator(const struct rd *d, size_t lo, size_t i, size_t *from)
{
	const struct cs_token *p = at(d, lo, i, -1), *nx = at(d, lo, i, 1);
	unsigned pf;

	if (!p || !nx)
		return false;
	pf = kwf(p);
	if (d->mark[i - 1] & M_DECL)
		return false; /* "err __maybe_unused": an attribute after a name */
	if (cs_is(p, "*") && p > d->t && (p->s[-1] == ' ' || p->s[-1] == '\t') &&
	    (p->s[1] == ' ' || p->s[1] == '\t'))
		return false; /* "a * b" is a product: "type *name" a pointer */
	if (!cs_is(p, "*") && !cs_is(p, ")") && !(is_ident(p) && !(pf & CS_KW_TAG) &&
						   (!pf || (pf & (CS_KW_TYPE | CS_KW_DECL)))))
		return false;
	/* a name may be followed by an attribute ("err __maybe_unused"), and
	 * an attribute by a name ("int __init setup(") */
	if (!(cs_is(nx, ";") || cs_is(nx, ",") || cs_is(nx, "=") || cs_is(nx, ")") ||
	      cs_is(nx, "[") || cs_is(nx, ":") || cs_is(nx, "(") ||
	      (is_ident(nx) && (same(nx, "__attribute__") || (kwf(nx) & CS_KW_DECL) ||
				(!kwf(nx) && starts(nx, "__") && !starts(&d->t[i], "__"))))))
		return false;
	return type_run(d, lo, i, from);
}

/* Whether identifier I is a declarator after the first of a declaration
 * ("int a, *b;"): after a comma and pointers, before what may follow. */
static bool later_declarator(const struct rd *d, size_t lo, size_t i)
{
	const struct cs_token *nx = at(d, lo, i, 1);
	long k = -1;

	while (punct_at(d, lo, i, k, "*"))
		k--;
	return punct_at(d, lo, i, k, ",") && nx &&
	       (cs_is(nx, ";") || cs_is(nx, ",") || cs_is(nx, "=") || cs_is(nx, "[") ||
		cs_is(nx, ":") || (is_ident(nx) && !kwf(nx)));
}

/* The arguments of the DEFINE_x( or DECLARE_x( at I that name what it
 * declares: identifiers with a lower-case letter at the first level that
 * are not called, members or tags. */
static void macro_declares(struct rd *d, size_t lo, size_t i, enum cs_scope scope)
{
	int level = 0;
	size_t j;

	for (j = i + 1; j < d->n && d->t[j].in_directive == d->t[i].in_directive &&
			d->t[j].type != CS_DIRECTIVE_END; j++) {
		const struct cs_token *t = &d->t[j];

		if (cs_is(t, "("))
			level++;
		else if (cs_is(t, ")") && --level == 0)
			break;
		else if (level == 1 && is_ident(t) && !kwf(t) && has_lower(t) &&
			 !punct_at(d, lo, j, 1, "(") && !punct_at(d, lo, j, -1, ".") &&
			 !punct_at(d, lo, j, -1, "->") && !(kwf(&d->t[j - 1]) & CS_KW_TAG)) {
			d->mark[j] |= M_DECL;
			d->scope[j] = (uint8_t)scope;
		}
	}
}

/* Mark what follows __attribute__ ((...)) at I as no code. */
static void skip_group(struct rd *d, size_t i)
{
	int level = 0;
	size_t j;

	if (i + 1 >= d->n || !cs_is(&d->t[i + 1], "("))
		return;
	for (j = i + 1; j < d->n && d->t[j].type != CS_DIRECTIVE_END; j++) {
		d->mark[j] |= M_SKIP;
		if (cs_is(&d->t[j], "("))
			level++;
		else if (cs_is(&d->t[j], ")") && --level == 0)
			break;
	}
}

static void declare(struct rd *d, size_t i, enum cs_scope scope)
{
	d->mark[i] |= M_DECL;
	d->scope[i] = (uint8_t)scope;
}

/* An enum constant at I: in an enum's braces, or (a piece of a file
 * whose braces are not all shown) alone at the start of its line as
 * "NAME," or "NAME = ...". */
static bool enum_constant(const struct rd *d, size_t lo, size_t i)
{
	const struct cs_token *p = at(d, lo, i, -1), *nx = at(d, lo, i, 1);
	bool after = !p || cs_is(p, "{") || cs_is(p, ",");
	bool before = !nx || cs_is(nx, ",") || cs_is(nx, "=") || cs_is(nx, "}");

	if (d->paren || !after || !before)
		return false;
	if (d->depth > d->base)
		return d->stack[d->depth - 1] == B_ENUM;
	return d->r->piece && d->unknown && d->t[i].line_first && d->base == 0;
}

/* The first pass's reading of identifier I. */
static void ident(struct rd *d, size_t lo, size_t i)
{
	const struct cs_token *p = at(d, lo, i, -1), *nx = at(d, lo, i, 1);
	enum cs_scope scope = ctx_scope(d);
	unsigned pf = p ? kwf(p) : 0;
	size_t from, k;

	if (p && (cs_is(p, ".") || cs_is(p, "->")))
		return;
	if (pf & CS_KW_TAG) {
		const struct cs_token *pp = at(d, lo, i, -2);

		if (nx && cs_is(nx, "{"))
			declare(d, i, scope == CS_SCOPE_LOCAL ? CS_SCOPE_LOCAL : CS_SCOPE_FILE);
		else if (nx && cs_is(nx, ";") &&
			 (!pp || cs_is(pp, ";") || cs_is(pp, "{") || cs_is(pp, "}")))
			d->mark[i] |= M_SKIP; /* "struct foo;": neither */
		return;
	}
	if (p && cs_is(p, "*") && punct_at(d, lo, i, -2, "(") && nx &&
	    (cs_is(nx, ")") || cs_is(nx, "["))) {
		declare(d, i, d->paren > 1 ? CS_SCOPE_LOCAL : scope);
		return;
	}
	if (declarator(d, lo, i, &from)) {
		int level = 0;

		declare(d, i, d->paren > 0 ? CS_SCOPE_LOCAL : scope);
		d->in_decl |= d->paren == 0;
		/* the type's names, not what a typeof() reads */
		for (k = from; k < i; k++) {
			level += cs_is(&d->t[k], "(") - cs_is(&d->t[k], ")");
			if (!level && is_ident(&d->t[k]) && !kwf(&d->t[k]))
				d->mark[k] |= M_TYPEPOS;
		}
		return;
	}
	if (d->in_decl && d->paren == 0 && later_declarator(d, lo, i)) {
		declare(d, i, scope);
		return;
	}
	if (p && cs_is(p, "}") && nx &&
	    (cs_is(nx, ";") || cs_is(nx, ",") || cs_is(nx, "=") || cs_is(nx, "["))) {
		declare(d, i, scope);
		return;
	}
	if (nx && cs_is(nx, ":") && !punct_at(d, lo, i, 2, ":") &&
	    (!p || cs_is(p, ";") || cs_is(p, "{") || cs_is(p, "}"))) {
		declare(d, i, CS_SCOPE_LOCAL); /* a label */
		return;
	}
	if (enum_constant(d, lo, i)) {
		declare(d, i, scope == CS_SCOPE_LOCAL ? CS_SCOPE_LOCAL : CS_SCOPE_BODY);
		return;
	}
	if (nx && cs_is(nx, "(") &&
	    (starts(&d->t[i], "DEFINE_") || starts(&d->t[i], "DECLARE_") ||
	     starts(&d->t[i], "__DEFINE_") || starts(&d->t[i], "__DECLARE_") ||
	     same(&d->t[i], "LIST_HEAD") || same(&d->t[i], "HLIST_HEAD") ||
	     same(&d->t[i], "LLIST_HEAD")))
		macro_declares(d, lo, i, scope);
}

/* One token of code (outside directives, or in a #define's body from LO). */
static int code(struct rd *d, size_t lo, size_t i)
{
	const struct cs_token *t = &d->t[i];

	if (t->type == CS_PUNCT) {
		if (cs_is(t, "{")) {
			d->in_decl = false;
			return brace_open(d, brace_kind(d, lo, i));
		}
		if (cs_is(t, "}")) {
			d->in_decl = false;
			brace_close(d);
		}
		else if (cs_is(t, "("))
			d->paren++;
		else if (cs_is(t, ")") && d->paren > 0)
			d->paren--;
		else if (cs_is(t, ";"))
			d->paren = 0, d->in_decl = false;
		return 0;
	}
	if (!is_ident(t) || (d->mark[i] & (M_SKIP | M_DECL)))
		return 0;
	if (kwf(t)) {
		if (same(t, "__attribute__") || same(t, "__attribute"))
			skip_group(d, i);
		return 0;
	}
	ident(d, lo, i);
	return 0;
}

/* ---- directives ----------------------------------------------------------- */

static int cond_push(struct rd *d)
{
	if (d->ncond == d->condcap) {
		size_t cap = d->condcap ? d->condcap * 2 : 8;
		struct cond *c = realloc(d->cond, cap * sizeof(*c));

		if (!c)
			return -1;
		d->cond = c;
		d->condcap = cap;
	}
	d->cond[d->ncond++] = (struct cond){ d->depth, SIZE_MAX };
	return 0;
}

/* The conditional directive named by T: the braces of its first branch
 * are kept. */
static int conditional(struct rd *d, const struct cs_token *t)
{
	struct cond *c = d->ncond ? &d->cond[d->ncond - 1] : NULL;

	if (same(t, "if") || same(t, "ifdef") || same(t, "ifndef"))
		return cond_push(d);
	if (!c)
		return 0;
	if (same(t, "else") || same(t, "elif") || same(t, "elifdef") || same(t, "elifndef")) {
		if (c->end == SIZE_MAX)
			c->end = d->depth;
		if (c->start <= d->cap)
			d->depth = c->start;
	} else if (same(t, "endif")) {
		if (c->end != SIZE_MAX && c->end <= d->cap)
			d->depth = c->end;
		d->ncond--;
	}
	return 0;
}

/* A #define from I to E (its end token): the name and the parameters
 * declared, the body read as code of its own. */
static int define(struct rd *d, size_t i, size_t e)
{
	size_t k = i + 2, j, body;
	size_t depth = d->depth, base = d->base;
	bool unknown = d->unknown;
	int paren = d->paren, rc = 0;

	if (k >= e || !is_ident(&d->t[k]))
		return 0;
	d->mark[k] |= M_DECL | M_MACRO;
	d->scope[k] = CS_SCOPE_FILE;
	body = k + 1;
	if (body < e && cs_is(&d->t[body], "(") && d->t[body].s == d->t[k].s + d->t[k].len) {
		for (j = body + 1; j < e && !cs_is(&d->t[j], ")"); j++)
			if (is_ident(&d->t[j]))
				declare(d, j, CS_SCOPE_LOCAL);
		body = j < e ? j + 1 : e;
	}
	for (j = body; j < e; j++) {
		if (cs_is(&d->t[j], "##")) {
			if (j > body)
				d->mark[j - 1] |= M_SKIP;
			if (j + 1 < e)
				d->mark[j + 1] |= M_SKIP;
		} else if (cs_is(&d->t[j], "#") && j + 1 < e) {
			d->mark[j + 1] |= M_SKIP;
		}
	}
	d->base = d->depth;
	d->unknown = false;
	d->paren = 0;
	for (j = body; j < e && rc == 0; j++)
		rc = code(d, body, j);
	d->depth = depth;
	d->base = base;
	d->unknown = unknown;
	d->paren = paren;
	return rc;
}

/* The directive from I (its '#') to its end: the index of the end. */
static int directive(struct rd *d, size_t i, size_t *end)
{
	size_t e = i + 1, j;
	const struct cs_token *name;

	while (e < d->n && d->t[e].type != CS_DIRECTIVE_END)
		e++;
	*end = e;
	name = i + 1 < e ? &d->t[i + 1] : NULL;
	if (name && same(name, "define"))
		return define(d, i, e);
	for (j = i; j < e; j++)
		d->mark[j] |= M_SKIP;
	return name ? conditional(d, name) : 0;
}

/* ---- the second pass ------------------------------------------------------ */

static enum fs_csym_role role(const struct rd *d, size_t i)
{
	const struct cs_token *t = &d->t[i];
	size_t lo = 0, j;
	const struct cs_token *p = at(d, lo, i, -1), *nx = at(d, lo, i, 1);
	bool upper = false;

	if (p && (cs_is(p, ".") || cs_is(p, "->")))
		return FS_CSYM_MEMBER;
	if (p && (kwf(p) & CS_KW_TAG))
		return FS_CSYM_TYPE;
	if (nx && cs_is(nx, "("))
		return FS_CSYM_CALL;
	if (d->mark[i] & M_TYPEPOS)
		return FS_CSYM_TYPE;
	if (p && cs_is(p, "(") && nx && cs_is(nx, "*")) {
		for (j = i + 1; j < d->n && cs_is(&d->t[j], "*"); j++)
			;
		if (j < d->n && cs_is(&d->t[j], ")"))
			return FS_CSYM_TYPE; /* a cast: (foo_t *) */
	}
	for (j = 0; j < t->len; j++)
		if (t->s[j] >= 'A' && t->s[j] <= 'Z')
			upper = true;
	return upper && !has_lower(t) ? FS_CSYM_CONSTANT : FS_CSYM_OTHER;
}

static void report(const struct rd *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct cs_token *t = &d->t[i];

		if (!is_ident(t) || (d->mark[i] & M_SKIP) || kwf(t))
			continue;
		if (d->mark[i] & M_DECL) {
			if (d->r->declared)
				d->r->declared(d->r->ctx, t, (enum cs_scope)d->scope[i],
					       (d->mark[i] & M_MACRO) != 0);
		} else if (d->r->used) {
			d->r->used(d->r->ctx, t, role(d, i));
		}
	}
}

int cs_read(const struct cs_token *t, size_t n, const struct cs_reader *r)
{
	struct rd d = { .t = t, .n = n, .r = r };
	size_t i, e;
	int rc = 0;

	d.mark = calloc(n ? n : 1, 1);
	d.scope = calloc(n ? n : 1, 1);
	d.unknown = r->piece;
	if (!d.mark || !d.scope)
		rc = -1;
	for (i = 0; i < n && rc == 0; i++) {
		if (t[i].type == CS_DIRECTIVE) {
			rc = directive(&d, i, &e);
			i = e;
		} else if (t[i].type != CS_DIRECTIVE_END) {
			rc = code(&d, 0, i);
		}
	}
	if (rc == 0)
		report(&d);
	free(d.mark);
	free(d.scope);
	free(d.stack);
	free(d.cond);
	return rc;
}
