/* fixscan: dates people type and dates for programs (see fixscan/date.h). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "fixscan/date.h"

#define HINT "try yesterday, 2.weeks.ago, 3 days ago, 2016-07-01 or @1467331200"

/* The seconds of one UNIT ("days", "week", "min"), or 0 for a month or
 * a year (counted on the calendar: *CAL is then 'M' or 'Y'), or -1 when
 * UNIT (LEN bytes) is none. */
static long unit_seconds(const char *unit, size_t len, char *cal)
{
	static const struct {
		const char *name;
		long secs;
	} units[] = {
		{ "second", 1 }, { "sec", 1 }, { "minute", 60 }, { "min", 60 },
		{ "hour", 3600 }, { "day", 86400 }, { "week", 7 * 86400 },
		{ "fortnight", 14 * 86400 }, { "month", 0 }, { "year", 0 },
	};
	size_t i, n;

	*cal = 0;
	for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
		n = strlen(units[i].name);
		/* singular or plural */
		if (!((len == n || (len == n + 1 && unit[n] == 's')) &&
		      !strncasecmp(unit, units[i].name, n)))
			continue;
		if (!units[i].secs)
			*cal = units[i].name[0] == 'm' ? 'M' : 'Y';
		return units[i].secs;
	}
	return -1;
}

/* The words of TEXT, split at spaces, dots and underscores, lowercased,
 * into W (at most MAX, each at most 15 bytes).  Returns their number, or
 * -1 when there are more or longer ones. */
static int split_words(const char *text, char w[][16], int max)
{
	int n = 0;
	size_t len;

	while (*text) {
		if (*text == ' ' || *text == '.' || *text == '_' || *text == '\t') {
			text++;
			continue;
		}
		if (n == max)
			return -1;
		for (len = 0; text[len] && !strchr(" ._\t", text[len]); len++)
			if (len == 15)
				return -1;
			else
				w[n][len] = (char)tolower((unsigned char)text[len]);
		w[n][len] = '\0';
		text += len;
		n++;
	}
	return n;
}

/* A count as a word: digits, or a / an / one / last. */
static int read_count(const char *w, long *out)
{
	char *end;

	if (!strcmp(w, "a") || !strcmp(w, "an") || !strcmp(w, "one") || !strcmp(w, "last")) {
		*out = 1;
		return 0;
	}
	if (!isdigit((unsigned char)*w))
		return -1;
	*out = strtol(w, &end, 10);
	return *end || *out < 0 || *out == LONG_MAX ? -1 : 0;
}

/* NOW minus COUNT units of SECS seconds, or of calendar months or years
 * (CAL), in local time; 0 for anything before 1970. */
static time_t go_back(time_t now, long count, long secs, char cal)
{
	struct tm tm;
	time_t t;

	if (!cal)
		return count >= now / secs ? 0 : now - count * secs;
	if (count > 100000 || !localtime_r(&now, &tm))
		return 0;
	if (cal == 'M') {
		tm.tm_year -= (int)(count / 12);
		tm.tm_mon -= (int)(count % 12);
	} else {
		tm.tm_year -= (int)count;
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	return t < 0 ? 0 : t;
}

/* "now", "today", "yesterday", "3 days ago", "2.weeks.ago", "last week",
 * "an hour". */
static int parse_words(const char *text, time_t now, time_t *out)
{
	char w[4][16], cal;
	long count, secs;
	struct tm tm;
	int n = split_words(text, w, 4);

	if (n == 1 && !strcmp(w[0], "now")) {
		*out = now;
		return 0;
	}
	if (n == 1 && !strcmp(w[0], "yesterday")) {
		*out = now < 86400 ? 0 : now - 86400;
		return 0;
	}
	if (n == 1 && (!strcmp(w[0], "today") || !strcmp(w[0], "midnight"))) {
		if (!localtime_r(&now, &tm))
			return -1;
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		*out = mktime(&tm);
		if (*out < 0)
			*out = 0;
		return 0;
	}
	if (n < 2 || n > 3 || (n == 3 && strcmp(w[2], "ago")) || read_count(w[0], &count) < 0)
		return -1;
	if ((secs = unit_seconds(w[1], strlen(w[1]), &cal)) < 0)
		return -1;
	*out = go_back(now, count, secs, cal);
	return 0;
}

/* "12h", "1d", "2w", "30m" (minutes). */
static int parse_short(const char *text, time_t now, time_t *out)
{
	char *end;
	long v, unit;

	if (!isdigit((unsigned char)*text))
		return -1;
	v = strtol(text, &end, 10);
	if (v < 0 || v == LONG_MAX || !end[0] || end[1])
		return -1;
	switch (tolower((unsigned char)*end)) {
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	case 'w': unit = 7 * 86400; break;
	default: return -1;
	}
	*out = go_back(now, v, unit, 0);
	return 0;
}

/* The zone after an ISO time: "Z", "+02:00", "-0500", "+02"; *OFF gets
 * its seconds east of UTC.  Returns the bytes taken, or -1. */
static int parse_zone(const char *p, long *off, int *utc)
{
	int h, m = 0, k = 0;

	*utc = 0;
	if (*p == 'Z' || *p == 'z') {
		*utc = 1;
		*off = 0;
		return 1;
	}
	if (*p != '+' && *p != '-')
		return -1;
	if (sscanf(p + 1, "%2d:%2d%n", &h, &m, &k) == 2 && k == 5)
		;
	else if (isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2]) &&
		 isdigit((unsigned char)p[3]) && isdigit((unsigned char)p[4])) {
		h = (p[1] - '0') * 10 + (p[2] - '0');
		m = (p[3] - '0') * 10 + (p[4] - '0');
		k = 4;
	} else if (isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2])) {
		h = (p[1] - '0') * 10 + (p[2] - '0');
		k = 2;
	} else {
		return -1;
	}
	if (h > 14 || m > 59)
		return -1;
	*utc = 1;
	*off = (h * 3600L + m * 60L) * (*p == '-' ? -1 : 1);
	return k + 1;
}

/* "2016-07-01", with "T" or " " and "HH:MM[:SS]", and a zone. */
static int parse_iso(const char *s, time_t *out)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, n = 0, k = 0, utc = 0;
	long off = 0;
	struct tm tm;
	time_t t;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	s += n;
	if (*s == 'T' || *s == 't' || *s == ' ') {
		if (sscanf(s + 1, "%2d:%2d%n", &h, &mi, &k) != 2 || k != 5)
			return -1;
		s += 1 + k;
		if (*s == ':') {
			if (sscanf(s + 1, "%2d%n", &sec, &k) != 1 || k != 2)
				return -1;
			s += 1 + k;
		}
		if (*s == ' ')
			s++;
		if (*s && (k = parse_zone(s, &off, &utc)) < 0)
			return -1;
		if (*s)
			s += k;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = utc ? timegm(&tm) - off : mktime(&tm);
	*out = t < 0 ? 0 : t;
	return 0;
}

static int parse_epoch(const char *s, time_t *out)
{
	char *end;
	long long v;

	if (*s != '@' || !(isdigit((unsigned char)s[1]) || s[1] == '-'))
		return -1;
	v = strtoll(s + 1, &end, 10);
	if (*end)
		return -1;
	*out = v < 0 ? 0 : (time_t)v;
	return 0;
}

int fs_date_parse(const char *text, time_t now, time_t *out, struct fs_error *err)
{
	while (*text == ' ')
		text++;
	if (parse_epoch(text, out) == 0 || parse_iso(text, out) == 0 ||
	    parse_short(text, now, out) == 0 || parse_words(text, now, out) == 0)
		return 0;
	return fs_error_set(err, FS_EUSAGE, "cannot read the date '%s' (" HINT ")", text);
}

char *fs_date_rfc3339(time_t t, char *buf, size_t n)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return buf;
}

char *fs_date_header_rfc3339(const char *text)
{
	GDateTime *dt;
	time_t t;
	char buf[32];

	if (!text || !*text)
		return NULL;
	if (parse_iso(text, &t) == 0 || parse_epoch(text, &t) == 0)
		return fs_date_rfc3339(t, buf, sizeof(buf)) ? g_strdup(buf) : NULL;
	dt = g_mime_utils_header_decode_date(text);
	if (!dt)
		return NULL;
	t = (time_t)g_date_time_to_unix(dt);
	g_date_time_unref(dt);
	/* GMime's answer for what it could not read at all. */
	if (t <= 0)
		return NULL;
	return fs_date_rfc3339(t, buf, sizeof(buf)) ? g_strdup(buf) : NULL;
}

int fs_date_parse_duration(const char *s, int64_t *out)
{
	static const struct { const char *name; int64_t secs; } units[] = {
		{ "s", 1 }, { "second", 1 }, { "seconds", 1 },
		{ "m", 60 }, { "minute", 60 }, { "minutes", 60 },
		{ "h", 3600 }, { "hour", 3600 }, { "hours", 3600 },
		{ "d", 86400 }, { "day", 86400 }, { "days", 86400 },
		{ "w", 7 * 86400 }, { "week", 7 * 86400 }, { "weeks", 7 * 86400 },
		{ "month", 2629746 }, { "months", 2629746 },
		{ "y", 31556952 }, { "year", 31556952 }, { "years", 31556952 },
	};
	char *end;
	long long v;
	size_t i;

	v = strtoll(s, &end, 10);
	if (end == s || v < 0 || v > 1000000)
		return FS_EUSAGE;
	while (*end == ' ' || *end == '.')
		end++;
	if (!*end)
		return FS_EUSAGE;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].name))
			continue;
		*out = (int64_t)v * units[i].secs;
		return 0;
	}
	return FS_EUSAGE;
}
