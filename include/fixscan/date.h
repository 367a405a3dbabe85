/* fixscan: dates people type (--since) and dates for programs (JSON).
 *
 * One parser for every option that takes a point in time, the subset of
 * git's approxidate people use:
 *
 *   @1467331200                   seconds since 1970 (UTC)
 *   2016-07-01, 2016-07-01T09:30, 2016-07-01 09:30:15
 *                                 local time, or UTC with Z, or with an
 *                                 offset (+02:00, -0500)
 *   now, today, yesterday         today is midnight, yesterday 24 hours ago
 *   3 days ago, 2.weeks.ago, 2_weeks_ago, 1 hour, an hour ago
 *                                 seconds, minutes, hours, days, weeks,
 *                                 months, years (singular, plural, or
 *                                 sec/min), with "ago" or without
 *   last week, last month         one of it ago
 *   12h, 1d, 2w, 30m              the short forms of fixscan's first
 *                                 versions (m is minutes)
 *
 * Case does not matter.  A time before 1970 is taken as 1970 (notmuch
 * takes no negative date). */
#ifndef FIXSCAN_DATE_H
#define FIXSCAN_DATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fixscan/error.h"

/* The time TEXT names, relative to NOW, in *OUT.  Returns 0, or FS_EUSAGE
 * with ERR set to "cannot read the date 'TEXT' (...)" when TEXT is none
 * of the forms above. */
int fs_date_parse(const char *text, time_t now, time_t *out, struct fs_error *err);

/* T as RFC 3339 in UTC, "2019-02-18T13:35:29Z", into BUF of N bytes (21
 * are enough).  Returns BUF, or NULL when it does not fit. */
char *fs_date_rfc3339(time_t t, char *buf, size_t n);

/* A mail's Date header (RFC 5322, "Mon, 18 Feb 2019 14:35:29 +0100", and
 * the forms mailers really write) or a date as fs_date_parse() reads it
 * (the "Responses should be made by Wed Feb 20 13:34:12 UTC 2019" of a
 * cover letter is ctime-like: also read), as RFC 3339 UTC.  A new string
 * (g_free()), or NULL when TEXT (may be NULL) is no date. */
char *fs_date_header_rfc3339(const char *text);

/* A length of time as git config writes one: "6 months", "6.months",
 * "180d", "26 weeks", "1 year".  Returns 0 with *OUT in seconds, or
 * FS_EUSAGE. */
int fs_date_parse_duration(const char *s, int64_t *out);

#endif
