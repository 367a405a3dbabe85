/* fixscan: the identifiers of a whole source file (see fixscan/csyms.h):
 * every token, for the identifier sets of trees, and what the file
 * defines, for finding where mainline defines a name. */
#include <stdint.h>
#include <string.h>

#include "fixscan/csyms.h"
#include "csyms-lex.h"

/* Bit 0: an identifier may start with it; bit 1: go on with it. */
static const uint8_t cls[256] = {
	['0' ... '9'] = 2, ['A' ... 'Z'] = 3, ['a' ... 'z'] = 3, ['_'] = 3, ['$'] = 3,
};

int fs_csyms_each_token(const char *text, size_t len, fs_csym_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + len, *s;
	int rc;

	while (p < end) {
		if (!cls[*p]) {
			p++;
			continue;
		}
		s = p;
		while (p < end && cls[*p])
			p++;
		/* a number's digits and suffix ("0x1fUL") are no name */
		if ((cls[*s] & 1) && (rc = fn(ctx, (const char *)s, (size_t)(p - s))))
			return rc;
	}
	return 0;
}

bool fs_csyms_text_has(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = text, *end = text + len, *hit;

	if (!n)
		return false;
	while (p < end && (hit = memmem(p, (size_t)(end - p), name, n))) {
		const unsigned char *h = (const unsigned char *)hit;
		bool before = hit == text || !cls[h[-1]];
		bool after = hit + n == end || !cls[h[n]];

		/* "foo" in "0foo" is part of a number: a name begins after a
		 * character that is not one of a token's */
		if (before && after)
			return true;
		p = hit + 1;
	}
	return false;
}

struct defs {
	fs_csym_fn fn;
	void *ctx;
	int rc;
};

static void def_declared(void *ctx, const struct cs_token *t, enum cs_scope scope, bool macro)
{
	struct defs *d = ctx;

	(void)macro;
	if (d->rc || (scope != CS_SCOPE_FILE && scope != CS_SCOPE_BODY))
		return;
	d->rc = d->fn(d->ctx, t->s, t->len);
}

int fs_csyms_each_definition(const char *text, size_t len, fs_csym_fn fn, void *ctx)
{
	struct cs_tokens toks = { NULL, 0, 0 };
	struct defs d = { fn, ctx, 0 };
	struct cs_reader r = { def_declared, NULL, &d, false };
	int rc = cs_lex(text, len, false, &toks, NULL);

	if (rc == 0)
		rc = cs_read(toks.v, toks.n, &r);
	cs_tokens_free(&toks);
	if (rc < 0)
		return FS_ENOMEM;
	return d.rc;
}
