/* fixscan: the dates and durations commands take (--since, config). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fixscan/error.h"

/* --since: "1d", "12h", "2w", "30m" (minutes), "@EPOCH", "YYYY-MM-DD"
 * or "YYYY-MM-DDTHH:MM" (local time).  Returns 0 or FS_EUSAGE. */
int cli_parse_since(const char *s, time_t now, time_t *out)
{
	char *end;
	long v, unit;
	int y, mo, d, h = 0, mi = 0, n = 0;
	struct tm tm;

	if (*s == '@') {
		v = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end)
			return FS_EUSAGE;
		*out = v < 0 ? 0 : (time_t)v;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3) {
		if (s[n] == 'T' || s[n] == ' ') {
			int m = 0;
			if (sscanf(s + n + 1, "%2d:%2d%n", &h, &mi, &m) != 2 || s[n + 1 + m])
				return FS_EUSAGE;
		} else if (s[n]) {
			return FS_EUSAGE;
		}
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_isdst = -1;
		*out = mktime(&tm);
		if (*out == (time_t)-1)
			return FS_EUSAGE;
		if (*out < 0)
			*out = 0;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (end == s || v < 0 || end[0] == 0 || end[1])
		return FS_EUSAGE;
	switch (*end) {
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	case 'w': unit = 7 * 86400; break;
	default: return FS_EUSAGE;
	}
	/* Further back than 1970 is all of the mail: notmuch takes no
	 * negative date, and the product could overflow. */
	*out = v >= now / unit ? 0 : now - v * unit;
	return 0;
}

int cli_parse_duration(const char *s, int64_t *out)
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
