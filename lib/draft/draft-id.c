/* fixscan: the names of drafts: the reply's subject, the digest of a
 * body, new Message-Ids, and the prefix of the ones earlier versions
 * wrote. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "draft-private.h"

char *fs_draft_reply_subject(const char *subject)
{
	char *clean = fs_text_clean_line(subject), *p = clean, *ret;

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

/* Drafts of earlier versions: fixscan, a dot and a hash of the key. */
char *fs_draft_id_prefix(const char *key)
{
	char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char *ret = g_strdup_printf("fixscan.%.12s.", hash);

	g_free(hash);
	return ret;
}

/* A new Message-Id on ME's domain, as mail clients make them: the time
 * and 64 random bits, "20261204184234.5f0596a93c1e7b20@example.org".
 * Nothing in it says which tool wrote it or what it answers: the state
 * fixscan/drafts.h keeps knows the draft by it. */
char *fsd_new_message_id(const char *email, time_t now)
{
	const char *at = strrchr(email, '@');
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
	id = g_strdup_printf("%s.%08x%08x@%s", stamp, g_random_int(), g_random_int(), dom->str);
	g_string_free(dom, TRUE);
	return id;
}
