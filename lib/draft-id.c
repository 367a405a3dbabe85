/* fixscan: the names of drafts: the reply's subject, the digest of a
 * body, and Message-Ids a later run recognises. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "draft-private.h"

char *fs_draft_reply_subject(const char *subject)
{
	char *clean = fs_draft_clean_line(subject), *p = clean, *ret;

	for (;;) {
		char *q = p;

		if (g_ascii_strncasecmp(q, "re", 2))
			break;
		q += 2;
		/* "Re[2]:", as some clients count replies */
		if (*q == '[') {
			char *e = q + 1;

			while (g_ascii_isdigit(*e))
				e++;
			if (*e != ']')
				break;
			q = e + 1;
		}
		while (*q == ' ')
			q++;
		if (*q != ':')
			break;
		q++;
		while (*q == ' ')
			q++;
		p = q;
	}
	ret = g_strdup_printf("Re: %s", p);
	g_free(clean);
	return ret;
}

char *fs_draft_digest(const char *body, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	size_t end = len, i, start = 0;
	char *ret;

	while (end > 0 && g_ascii_isspace(body[end - 1]))
		end--;
	for (i = 0; i < end; i++) {
		if (body[i] != '\r')
			continue;
		g_checksum_update(sum, (const guchar *)body + start, i - start);
		start = i + 1;
	}
	g_checksum_update(sum, (const guchar *)body + start, end - start);
	ret = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return ret;
}

char *fs_draft_id_prefix(const char *key)
{
	char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char *ret = g_strdup_printf("fixscan.%.12s.", hash);

	g_free(hash);
	return ret;
}

/* A new Message-Id on ME's domain: a part derived from KEY, so ids of
 * drafts answering the same mail look alike (and a later run finds them
 * by it), then the time and random bits so every draft's id is unique. */
char *fsd_new_message_id(const char *email, const char *key, time_t now)
{
	const char *at = strrchr(email, '@');
	char *prefix = fs_draft_id_prefix(key);
	GString *dom = g_string_new(NULL);
	struct tm tm;
	char stamp[32];
	char *id;

	for (at = at ? at + 1 : ""; *at; at++)
		if (g_ascii_isalnum(*at) || *at == '.' || *at == '-')
			g_string_append_c(dom, *at);
	if (!dom->len)
		g_string_append(dom, "localhost");
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	id = g_strdup_printf("%s%s.%08x@%s", prefix, stamp, g_random_int(), dom->str);
	g_string_free(dom, TRUE);
	g_free(prefix);
	return id;
}

