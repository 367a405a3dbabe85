/* fixscan: control characters shown visibly (see text.h). */
#include <stdlib.h>
#include <string.h>

#include "fixscan/text.h"

/* The length of the C1 control at P (UTF-8 C2 80..C2 9F), or 0. */
static size_t c1_at(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

static bool is_shown(unsigned char c, bool keep_newlines)
{
	return c == '\t' || (c == '\n' && keep_newlines) || (c >= 0x20 && c != 0x7f);
}

bool fs_text_needs_escaping(const char *s, bool keep_newlines)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++)
		if (!is_shown(*p, keep_newlines) || c1_at(p))
			return true;
	return false;
}

char *fs_text_visible(const char *s, bool keep_newlines)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	/* The widest form, "<U+009F>", is 8 bytes for 2. */
	char *out = malloc(strlen((const char *)p) * 4 + 1), *w = out;

	if (!out)
		return NULL;
	for (; *p; p++) {
		if (c1_at(p)) {
			w += sprintf(w, "<U+%04X>", p[1]);
			p++;
		} else if (is_shown(*p, keep_newlines)) {
			*w++ = (char)*p;
		} else {
			*w++ = '^';
			*w++ = *p == 0x7f ? '?' : (char)(*p + '@');
		}
	}
	*w = '\0';
	return out;
}

int fs_text_fputs(const char *s, bool keep_newlines, FILE *out)
{
	char *v;
	int rc;

	if (!fs_text_needs_escaping(s, keep_newlines))
		return fputs(s ? s : "", out) < 0 ? -1 : 0;
	if (!(v = fs_text_visible(s, keep_newlines)))
		return -1;
	rc = fputs(v, out) < 0 ? -1 : 0;
	free(v);
	return rc;
}
