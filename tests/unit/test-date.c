/* Unit tests for lib/base/date.c: the dates people type, read against a fixed
 * "now" in two time zones, and dates turned into RFC 3339. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/date.h"

/* Wed 2026-12-02 12:00:00 UTC */
#define NOW ((time_t)1796212800)
#define DAY 86400

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static time_t parse(const char *text)
{
	struct fs_error err = FS_ERROR_INIT;
	time_t t = (time_t)-1;

	if (fs_date_parse(text, NOW, &t, &err) < 0)
		fail_msg("'%s': %s", text, err.message);
	return t;
}

static void refused(const char *text)
{
	struct fs_error err = FS_ERROR_INIT;
	time_t t = 0;

	assert_int_equal(fs_date_parse(text, NOW, &t, &err), FS_EUSAGE);
	assert_non_null(strstr(err.message, "cannot read the date '"));
	assert_null(strchr(err.message, '\n'));
}

static void test_relative(void **state)
{
	set_tz("UTC");
	assert_int_equal(parse("now"), NOW);
	assert_int_equal(parse("yesterday"), NOW - DAY);
	assert_int_equal(parse("Yesterday"), NOW - DAY);
	assert_int_equal(parse("today"), NOW - 12 * 3600);
	assert_int_equal(parse("2.weeks.ago"), NOW - 14 * DAY);
	assert_int_equal(parse("2_weeks_ago"), NOW - 14 * DAY);
	assert_int_equal(parse("3 days ago"), NOW - 3 * DAY);
	assert_int_equal(parse("3 days"), NOW - 3 * DAY);
	assert_int_equal(parse("1 day ago"), NOW - DAY);
	assert_int_equal(parse("an hour ago"), NOW - 3600);
	assert_int_equal(parse("90.minutes.ago"), NOW - 90 * 60);
	assert_int_equal(parse("10 secs ago"), NOW - 10);
	assert_int_equal(parse("last week"), NOW - 7 * DAY);
	assert_int_equal(parse("last.day"), NOW - DAY);
	/* months and years on the calendar */
	assert_int_equal(parse("1 month ago"), NOW - 30 * DAY);     /* Nov has 30 */
	assert_int_equal(parse("last year"), NOW - 365 * DAY);
	assert_int_equal(parse("14 months ago"), NOW - (365 + 61) * DAY);
	/* fixscan's short forms */
	assert_int_equal(parse("1d"), NOW - DAY);
	assert_int_equal(parse("12h"), NOW - 12 * 3600);
	assert_int_equal(parse("2w"), NOW - 14 * DAY);
	assert_int_equal(parse("30m"), NOW - 30 * 60);
}

static void test_absolute(void **state)
{
	set_tz("UTC");
	assert_int_equal(parse("@1467331200"), 1467331200);
	assert_int_equal(parse("2016-07-01"), 1467331200);
	assert_int_equal(parse("2016-07-01T09:30"), 1467331200 + 9 * 3600 + 30 * 60);
	assert_int_equal(parse("2016-07-01 09:30:15"), 1467331200 + 9 * 3600 + 30 * 60 + 15);
	assert_int_equal(parse("2016-07-01T09:30:15Z"), 1467331200 + 9 * 3600 + 30 * 60 + 15);
	assert_int_equal(parse("2016-07-01T09:30+02:00"), 1467331200 + 7 * 3600 + 30 * 60);
	assert_int_equal(parse("2016-07-01T09:30-0500"), 1467331200 + 14 * 3600 + 30 * 60);
	/* before 1970 is 1970: notmuch takes no negative date */
	assert_int_equal(parse("@-5"), 0);
	assert_int_equal(parse("1900-01-01"), 0);
	assert_int_equal(parse("100000d"), 0);
	assert_int_equal(parse("99999 years ago"), 0);
}

static void test_local_time(void **state)
{
	/* Without a zone a date is local time, as for git. */
	set_tz("EST5");
	assert_int_equal(parse("2016-07-01"), 1467331200 + 5 * 3600);
	assert_int_equal(parse("2016-07-01T00:00Z"), 1467331200);
	/* today is local midnight: 07:00 EST, midnight was 05:00 UTC */
	assert_int_equal(parse("today"), NOW - 7 * 3600);
	set_tz("UTC");
}

static void test_refused(void **state)
{
	refused("");
	refused("yesterday-ish");
	refused("2 fortnights hence");
	refused("three days ago");
	refused("2016-13-01");
	refused("2016-07-01T25:00");
	refused("2016-07-01 junk");
	refused("2016-7-1");
	refused("@");
	refused("@12x");
	refused("12");
	refused("12q");
	refused("-1d");
	refused("days ago");
	refused("a very long word that is not a date at all");
}

static void test_rfc3339(void **state)
{
	char buf[32], *s;

	assert_string_equal(fs_date_rfc3339(1550496929, buf, sizeof(buf)), "2019-02-18T13:35:29Z");
	assert_null(fs_date_rfc3339(1550496929, buf, 10));
	s = fs_date_header_rfc3339("Tue, 26 Apr 2016 21:44:52 -0400");
	assert_string_equal(s, "2016-04-27T01:44:52Z");
	g_free(s);
	s = fs_date_header_rfc3339("2016-04-26T01:44+00:00");
	assert_string_equal(s, "2016-04-26T01:44:00Z");
	g_free(s);
	s = fs_date_header_rfc3339("Tue, 26 Apr 2016 01:44:51 +0000");
	assert_string_equal(s, "2016-04-26T01:44:51Z");
	g_free(s);
	assert_null(fs_date_header_rfc3339(NULL));
	assert_null(fs_date_header_rfc3339(""));
	assert_null(fs_date_header_rfc3339("whenever you like"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_absolute),
		cmocka_unit_test(test_local_time),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_rfc3339),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
