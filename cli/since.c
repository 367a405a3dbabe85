/* fixscan: the lengths of time git config values give (fixscan.maintainedWithin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fixscan/error.h"

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
