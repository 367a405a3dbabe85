/* What the unit tests of invented mail share at the bottom (draft-mail.h
 * for the composing tests, drafts-fixture.h for the saving ones,
 * test-reply-context.c): a temporary directory, invented mails parsed
 * from files in it, the patch mail most tests answer, and the reviewer
 * who answers it. */
#ifndef FIXSCAN_TEST_PATCH_MAIL_H
#define FIXSCAN_TEST_PATCH_MAIL_H

#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixscan/identity.h"
#include "fixscan/mail.h"

static char tmpdir[256];
static __attribute__((unused)) int nfiles;

#define NOW ((time_t)1700000000)

/* A mail in a file of its own, parsed. */
__attribute__((unused)) static struct fs_patch *mail(const char *text)
{
	char path[512];
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mail%d.eml", tmpdir, nfiles++);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	return p;
}

#define PATCH_MAIL \
	"From: Greta Kroll <greta@stable.example.org>\n" \
	"To: linux-kernel@vger.kernel.org\n" \
	"Cc: stable@vger.kernel.org, Rita Reviewer <RITA@example.org>,\n" \
	" Dmitri Orlov <dorlov@example.com>, greta@stable.example.org\n" \
	"Subject: [PATCH 4.4 03/24] netfilter: x_tables: check the offset\n" \
	"Date: Fri, 15 Apr 2016 03:44:54 +0200\n" \
	"Message-Id: <patch3@stable.example.org>\n" \
	"In-Reply-To: <cover@stable.example.org>\n" \
	"References: <cover@stable.example.org>\n" \
	"\n" \
	"4.4-stable review patch.  If anyone has any objections, please let me know.\n" \
	"\n" \
	"------------------\n" \
	"\n" \
	"commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n" \
	"\n" \
	"Check the offset.\n" \
	"\n" \
	"Signed-off-by: Someone <someone@example.org>\n"

__attribute__((unused)) static struct fs_identity rita = { (char *)"Rita Reviewer", (char *)"rita@example.org",
				   "notmuch config" };

/* nftw() callback of the fixtures' teardown: remove one entry. */
__attribute__((unused)) static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

#endif
