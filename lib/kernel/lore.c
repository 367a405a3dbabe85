/* fixscan: the Message-Id in a mail archive link (see lore.h). */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/lore.h"

/* The N bytes at SEG, percent-escapes decoded, or NULL when the result
 * is no Message-Id.  New string (g_free()). */
static char *decode_id(const char *seg, size_t n)
{
	const char *end = seg + n;
	char *id = g_try_malloc(n + 1), *w;

	if (!id)
		return NULL;
	for (w = id; seg < end; seg++) {
		int hi, lo;

		if (*seg == '%' && end - seg > 2 && (hi = g_ascii_xdigit_value(seg[1])) >= 0 &&
		    (lo = g_ascii_xdigit_value(seg[2])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			seg += 2;
		} else {
			*w++ = *seg;
		}
		/* %00, %0A, %20, %3C: a link that is no mail's. */
		if ((unsigned char)w[-1] <= ' ' || w[-1] == 0x7f || w[-1] == '<' || w[-1] == '>') {
			g_free(id);
			return NULL;
		}
	}
	*w = '\0';
	return id;
}

char *fs_lore_message_id(const char *what)
{
	const char *p;

	if (strncmp(what, "https://", 8) && strncmp(what, "http://", 7))
		return NULL;
	p = strstr(what, "://") + 3;
	p = strchr(p, '/'); /* past the host */
	while (p && *p == '/') {
		const char *seg = p + 1, *next = strchr(seg, '/'), *esc;
		size_t n = next ? (size_t)(next - seg) : strlen(seg);

		/* The id is the path segment with an @ (or its escape). */
		esc = strstr(seg, "%40");
		if (memchr(seg, '@', n) || (esc && esc + 3 <= seg + n))
			return decode_id(seg, n);
		p = next;
	}
	return NULL;
}
