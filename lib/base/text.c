/* fixscan: control characters shown visibly (see text.h). */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/text.h"

/* The length of the valid UTF-8 character of two bytes or more at P, or
 * 0 when P starts no such character (a stray byte of a file name in
 * another encoding, a cut sequence). */
static size_t utf8_at(const unsigned char *p)
{
	gunichar c;

	if (*p < 0x80)
		return 0;
	c = g_utf8_get_char_validated((const gchar *)p, -1);
	return c == (gunichar)-1 || c == (gunichar)-2 ? 0 : (size_t)g_utf8_skip[*p];
}

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

	for (; *p; p++) {
		size_t n = utf8_at(p);

		if (!is_shown(*p, keep_newlines) || c1_at(p) || (*p >= 0x80 && !n))
			return true;
		p += n ? n - 1 : 0;
	}
	return false;
}

char *fs_text_visible(const char *s, bool keep_newlines)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	/* The widest form, "<U+009F>", is 8 bytes for 2. */
	char *out = g_try_malloc(strlen((const char *)p) * 4 + 1), *w = out;

	if (!out)
		return NULL;
	for (; *p; p++) {
		if (*p >= 0x80 && !utf8_at(p)) {
			w += sprintf(w, "\\x%02X", *p);
		} else if (*p >= 0x80 && !c1_at(p)) {
			size_t n = utf8_at(p);

			memcpy(w, p, n);
			w += n;
			p += n - 1;
		} else if (c1_at(p)) {
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
	g_free(v);
	return rc;
}

/* The length of the terminal escape sequence at P that a line loses
 * whole, not only its ESC: a CSI ("ESC [" or C1 CSI, parameters, then a
 * final byte: colours, cursor moves) or an OSC ("ESC ]" up to BEL or
 * "ESC \\": window titles, links).  0 when P starts none. */
static size_t escape_at(const unsigned char *p)
{
	const unsigned char *q;

	if (p[0] == 0x1b && p[1] == '[')
		q = p + 2;
	else if (p[0] == 0xc2 && p[1] == 0x9b)
		q = p + 2;
	else if (p[0] == 0x1b && p[1] == ']') {
		for (q = p + 2; *q && *q != 0x07 && !(q[0] == 0x1b && q[1] == '\\'); q++)
			;
		return (size_t)(q - p) + (*q == 0x07 ? 1 : *q ? 2 : 0);
	} else
		return 0;
	while (*q >= 0x20 && *q <= 0x3f)
		q++;
	if (*q >= 0x40 && *q <= 0x7e)
		q++;
	return (size_t)(q - p);
}

char *fs_text_clean_line(const char *s)
{
	GString *o = g_string_new(NULL);
	bool space = false;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t esc = escape_at((const unsigned char *)s);

		if (esc) {
			s += esc - 1;
			continue;
		}
		if (c1_at((const unsigned char *)s)) {
			s++;
			space = o->len > 0;
			continue;
		}
		if (c < 0x20 || c == 0x7f || c == ' ') {
			space = o->len > 0;
			continue;
		}
		if (space)
			g_string_append_c(o, ' ');
		space = false;
		g_string_append_c(o, (char)c);
	}
	return g_string_free(o, FALSE);
}

char *fs_text_clean_body(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t esc = escape_at((const unsigned char *)s);

		if (esc) {
			s += esc - 1;
			continue;
		}
		if (c1_at((const unsigned char *)s)) {
			s++;
			continue;
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			continue;
		g_string_append_c(o, (char)c);
	}
	return g_string_free(o, FALSE);
}

bool fs_text_reads_as_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len, *line = p;
	size_t bad = 0, chars = 0, foreign = 0, long_lines = 0, wordless = 0;
	bool space = false;

	if (!s)
		return true;
	while (p < end) {
		size_t n = *p >= 0x80 ? utf8_at(p) : 0;

		if (*p == 0)
			return false;
		chars++;
		foreign += n > 0;
		if (*p == '\n' || p + 1 == end) {
			/* a long line without a space: a word no one wrote */
			if (p + 1 - line >= 40) {
				long_lines++;
				wordless += !space;
			}
			line = p + 1;
			space = false;
		}
		if (*p == ' ')
			space = true;
		else if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f') ||
			 *p == 0x7f || (*p >= 0x80 && !n))
			bad++;
		p += n && p + n <= end ? n : 1;
	}
	/* more than one bad byte in fifty; three long lines or more, most
	 * of them without a space (base64 left undecoded); more characters
	 * outside ASCII than in it (bytes of a wrong decoding, each made a
	 * character of Latin-1): no text of a changelog */
	return bad * 50 <= len && !(long_lines >= 3 && wordless * 4 >= long_lines * 3) &&
	       foreign * 2 <= chars;
}

char *fs_text_clean_id(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > 0x20 && c < 0x7f && c != '<' && c != '>')
			g_string_append_c(o, (char)c);
	}
	if (!o->len) {
		g_string_free(o, TRUE);
		return NULL;
	}
	return g_string_free(o, FALSE);
}

void fs_text_split_mailbox(const char *from, char **name, char **addr)
{
	const char *lt = from ? strrchr(from, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;
	char *n, *a;

	if (lt && gt) {
		n = g_strndup(from, lt - from);
		a = g_strndup(lt + 1, gt - lt - 1);
	} else {
		n = g_strdup("");
		a = g_strdup(from ? from : "");
	}
	g_strstrip(n);
	/* An RFC 5322 quoted name keeps its quotes in the decoded text. */
	if (strlen(n) >= 2 && n[0] == '"' && n[strlen(n) - 1] == '"') {
		memmove(n, n + 1, strlen(n) - 2);
		n[strlen(n) - 2] = '\0';
	}
	*name = fs_text_clean_line(n);
	*addr = fs_text_clean_line(a);
	g_free(n);
	g_free(a);
}

char *fs_text_display_name(const char *from, const char *nobody)
{
	char *name, *addr;

	fs_text_split_mailbox(from, &name, &addr);
	if (*name) {
		g_free(addr);
		return name;
	}
	g_free(name);
	if (*addr)
		return addr;
	g_free(addr);
	return g_strdup(nobody);
}
