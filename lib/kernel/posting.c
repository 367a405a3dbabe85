/* fixscan: the posting a commit's Link: trailer names (see posting.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/lore.h"
#include "fixscan/posting.h"

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* The run of digits at P (at most 5 of them), or -1. */
static long counter_at(const char *p, size_t n)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 5 || !all_digits(p, n))
		return -1;
	for (i = 0; i < n; i++)
		v = v * 10 + (p[i] - '0');
	return v <= FS_POSTING_MAX_PART ? v : -1;
}

/* git send-email since 2016: "<14 digits>.<pid>-<N>-<sender with @>".
 * The counter's position in *NS, *NE, or false. */
static bool send_email_form(const char *id, size_t len, size_t *ns, size_t *ne)
{
	const char *dash, *dash2;

	if (len < 18 || !all_digits(id, 14) || id[14] != '.')
		return false;
	dash = memchr(id + 15, '-', len - 15);
	if (!dash || !all_digits(id + 15, (size_t)(dash - id - 15)))
		return false;
	dash2 = memchr(dash + 1, '-', len - (size_t)(dash + 1 - id));
	if (!dash2 || !memchr(dash2 + 1, '@', len - (size_t)(dash2 + 1 - id)))
		return false;
	*ns = (size_t)(dash + 1 - id);
	*ne = (size_t)(dash2 - id);
	return true;
}

/* git send-email before 2016: "<time>-<pid>-<N>-git-send-email-<sender>". */
static bool old_send_email_form(const char *id, size_t len, size_t *ns, size_t *ne)
{
	static const char tail[] = "-git-send-email-";
	const char *d1, *d2, *t;

	d1 = memchr(id, '-', len);
	if (!d1 || !all_digits(id, (size_t)(d1 - id)))
		return false;
	d2 = memchr(d1 + 1, '-', len - (size_t)(d1 + 1 - id));
	if (!d2 || !all_digits(d1 + 1, (size_t)(d2 - d1 - 1)))
		return false;
	t = memchr(d2 + 1, '-', len - (size_t)(d2 + 1 - id));
	if (!t || (size_t)(id + len - t) <= sizeof(tail) - 1 ||
	    memcmp(t, tail, sizeof(tail) - 1) || !memchr(t, '@', (size_t)(id + len - t)))
		return false;
	*ns = (size_t)(d2 + 1 - id);
	*ne = (size_t)(t - id);
	return true;
}

/* b4: "<8 digits>-<topic>-v<K>-<N>-<hash>@<host>", read from the right. */
static bool b4_form(const char *id, size_t len, size_t *ns, size_t *ne)
{
	const char *at = memchr(id, '@', len), *h, *n, *v;

	if (!at || at == id + len - 1)
		return false;
	for (h = at; h > id && h[-1] != '-'; h--)
		;
	if (h == id || at - h < 8 || !all_hex(h, (size_t)(at - h)))
		return false;
	for (n = h - 1; n > id && n[-1] != '-'; n--)
		;
	if (n == id || !all_digits(n, (size_t)(h - 1 - n)))
		return false;
	for (v = n - 1; v > id && v[-1] != '-'; v--)
		;
	if (v == id || *v != 'v' || !all_digits(v + 1, (size_t)(n - 2 - v)))
		return false;
	/* the date, a dash and a topic of at least one character */
	if (v - id < 11 || !all_digits(id, 8) || id[8] != '-' || id[9] == '-')
		return false;
	*ns = (size_t)(n - id);
	*ne = (size_t)(h - 1 - id);
	return true;
}

enum fs_posting_form fs_posting_parse_id(const char *id, size_t len, char *key, size_t keysz,
				       unsigned *part)
{
	enum fs_posting_form form = FS_POSTING_NONE;
	size_t ns = 0, ne = 0;
	long v;

	if (len >= 2 && id[0] == '<' && id[len - 1] == '>') {
		id++;
		len -= 2;
	}
	if (memchr(id, '<', len) || memchr(id, '>', len) || memchr(id, ' ', len) ||
	    memchr(id, '*', len))
		return FS_POSTING_NONE;
	if (send_email_form(id, len, &ns, &ne) || old_send_email_form(id, len, &ns, &ne))
		form = FS_POSTING_SEND_EMAIL;
	else if (b4_form(id, len, &ns, &ne))
		form = FS_POSTING_B4;
	else
		return FS_POSTING_NONE;
	v = counter_at(id + ns, ne - ns);
	/* git send-email counts from 1 */
	if (v < 0 || (form == FS_POSTING_SEND_EMAIL && v == 0) || len + 1 - (ne - ns) + 1 > keysz)
		return FS_POSTING_NONE;
	memcpy(key, id, ns);
	key[ns] = '*';
	memcpy(key + ns + 1, id + ne, len - ne);
	key[ns + 1 + len - ne] = '\0';
	*part = (unsigned)v;
	return form;
}

bool fs_posting_part_id(const char *key, unsigned part, char *out, size_t outsz)
{
	const char *star = strchr(key, '*');
	int n;

	if (!star)
		return false;
	n = snprintf(out, outsz, "%.*s%u%s", (int)(star - key), key, part, star + 1);
	return n > 0 && (size_t)n < outsz;
}

/* Whether the link at P (N bytes) is to an archive that names a mail by
 * its Message-Id. */
static bool archive_link(const char *p, size_t n)
{
	static const char *const hosts[] = {
		"lore.kernel.org/", "lkml.kernel.org/", "patch.msgid.link/", "msgid.link/",
	};
	size_t i, skip;

	if (n > 8 && !memcmp(p, "https://", 8))
		skip = 8;
	else if (n > 7 && !memcmp(p, "http://", 7))
		skip = 7;
	else
		return false;
	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
		if (n - skip > strlen(hosts[i]) && !memcmp(p + skip, hosts[i], strlen(hosts[i])))
			return true;
	return false;
}

/* The series of the link on the Link: line at P..EOL, or FS_POSTING_NONE. */
static enum fs_posting_form link_series(const char *p, const char *eol, char *key, size_t keysz,
				       unsigned *part)
{
	char url[512], *id;
	enum fs_posting_form form = FS_POSTING_NONE;
	size_t n;

	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	for (n = 0; p + n < eol && p[n] != ' ' && p[n] != '\t' && p[n] != '\r'; n++)
		;
	if (n >= sizeof(url) || !archive_link(p, n))
		return FS_POSTING_NONE;
	/* The usual link, the id as it is in a segment of its own: read in
	 * place (the index build reads half a million of them). */
	if (!memchr(p, '%', n)) {
		const char *seg = p, *e = p + n, *slash;

		while ((slash = memchr(seg, '/', (size_t)(e - seg))) &&
		       !memchr(seg, '@', (size_t)(slash - seg)))
			seg = slash + 1;
		if (!slash)
			slash = e;
		if (!memchr(seg, '@', (size_t)(slash - seg)))
			return FS_POSTING_NONE;
		return fs_posting_parse_id(seg, (size_t)(slash - seg), key, keysz, part);
	}
	memcpy(url, p, n);
	url[n] = '\0';
	id = fs_lore_message_id(url);
	if (id)
		form = fs_posting_parse_id(id, strlen(id), key, keysz, part);
	g_free(id);
	return form;
}

enum fs_posting_form fs_posting_from_message(const char *msg, size_t len, char *key,
					   size_t keysz, unsigned *part)
{
	enum fs_posting_form found = FS_POSTING_NONE, f;
	const char *p = msg, *end = msg + len, *hit;
	char k[512];
	unsigned n;

	while (p < end && (hit = memmem(p, (size_t)(end - p), "Link:", 5))) {
		const char *eol = memchr(hit, '\n', (size_t)(end - hit));

		if (!eol)
			eol = end;
		if ((hit == msg || hit[-1] == '\n') &&
		    (f = link_series(hit + 5, eol, k, sizeof(k), &n)) != FS_POSTING_NONE &&
		    strlen(k) < keysz) {
			memcpy(key, k, strlen(k) + 1);
			*part = n;
			found = f;
		}
		p = eol;
	}
	return found;
}
