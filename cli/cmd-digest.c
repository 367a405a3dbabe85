/* fixscan digest: the risky patches of every stable review thread that
 * arrived lately, ranked, for a daily look (or a daily mail from a timer).
 *
 * Each thread is reviewed exactly as fixscan review does; the digest only
 * adds the ranking and the layout.  With --mail the digest becomes one
 * message in a maildir, under a Message-Id made from the day and the
 * threads, so a second run the same day over the same threads finds it
 * and writes nothing. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "cli.h"
#include "fixscan/config.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/json.h"
#include "fixscan/mail.h"
#include "fixscan/report.h"
#include "fixscan/review.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"

#define DIGEST_WIDTH 78
#define LORE "https://lore.kernel.org/r/"

/* Without fixscan.digestQuery or --query: every message with PATCH in its
 * subject is a candidate, and fixscan keeps the threads of those whose
 * "[...]" prefix names a kernel version or AUTOSEL ("[PATCH 4.4 03/24]",
 * "[PATCH AUTOSEL 4.5 01/05]", "[PATCH 5.10.y]"), replies included.  This is
 * done on the subjects notmuch returns rather than with a subject:/regex/
 * query, which costs as much and leaks in libnotmuch. */
#define CANDIDATE_QUERY "subject:PATCH"

static const char usage_text[] =
	"usage: fixscan digest [options]\n"
	"\n"
	"Review every stable review thread that arrived in the notmuch store\n"
	"since a time, and list the risky patches of all of them, highest risk\n"
	"first (the score is in fixscan-digest(1)), with the release, the\n"
	"deadline and a lore.kernel.org link.\n"
	"\n"
	"    --since WHEN     1d (default), 12h, 2w, YYYY-MM-DD[THH:MM], @EPOCH\n"
	"    --query Q        the notmuch query for review threads (default:\n"
	"                     fixscan.digestQuery, or stable review subjects)\n"
	"    --json           one JSON object instead of text\n"
	"    --mail           write the digest as a message into the maildir\n"
	"                     fixscan.digestFolder (default: <mail root>/INBOX),\n"
	"                     once per day and set of threads; print nothing\n"
	"    --repo PATH      the kernel repository\n"
	"    --ignore FILE    pairs to silence (default: fixscan.ignore, or\n"
	"                     $XDG_CONFIG_HOME/fixscan/ignore)\n"
	"    --no-reports     do not search the store for regression reports\n"
	"    --no-update      use the index as it is, even if the refs moved\n"
	"    -h, --help       show this help\n"
	"\n"
	"Exit status: 0 no risky patch, 1 risky patches, 2 trouble.\n";

/* The score of one finding.  fixscan-digest(1) documents this table;
 * keep the two in step.  A patch scores the sum over its findings that
 * are not ignored; it is risky when that is above zero. */
static int kind_weight(enum fs_finding_kind k)
{
	switch (k) {
	case FS_FIND_FIX_MISSING:       return 16;
	case FS_FIND_REVERTED_UPSTREAM: return 16;
	case FS_FIND_REGRESSION_REPORT: return 8;
	case FS_FIND_OBJECTION:         return 8;
	case FS_FIND_ALREADY_APPLIED:   return 4;
	case FS_FIND_TARGET_ABSENT:     return 2;
	case FS_FIND_DEP_MISSING:       return 2;
	case FS_FIND_UNKNOWN_UPSTREAM:  return 1;
	case FS_FIND_NO_UPSTREAM:       return 1;
	case FS_FIND_FIXES_TAG_MISMATCH: return 1;
	default:                        return 0;
	}
}

/* One reviewed series. */
struct digest_series {
	const struct fs_thread_series *s; /* borrowed from the thread */
	struct fs_review *r;              /* NULL when the review failed */
	char *error;                      /* why, or NULL */
	time_t deadline;                  /* 0: none or unreadable */
	size_t risky;
};

struct risky_patch {
	const struct digest_series *ds;
	const struct fs_review_patch *rp;
	size_t series_no;                 /* index into the series list */
	int score;
};

/* "2016-04-17T01:44+00:00" (X-KernelTest-Deadline) or an RFC 5322 date
 * ("Sun, 17 Apr 2016 01:44:51 +0000", the cover's "Responses should be
 * made by ..."); 0 when neither. */
static time_t parse_deadline(const char *s)
{
	int y, mo, d, h, mi, sec = 0, n = 0, zh = 0, zm = 0;
	GDateTime *dt;
	time_t t = 0;

	if (!s)
		return 0;
	if (sscanf(s, "%d-%d-%dT%d:%d%n", &y, &mo, &d, &h, &mi, &n) == 5) {
		const char *z = s + n;
		struct tm tm;
		if (*z == ':' && isdigit((unsigned char)z[1]))
			sec = (int)strtol(z + 1, (char **)&z, 10);
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_sec = sec;
		t = timegm(&tm);
		if ((*z == '+' || *z == '-') && sscanf(z + 1, "%2d:%2d", &zh, &zm) >= 1)
			t -= (*z == '+' ? 1 : -1) * (zh * 3600 + zm * 60);
		return t;
	}
	dt = g_mime_utils_header_decode_date(s);
	if (dt) {
		t = (time_t)g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}
	return t;
}

/* --since: "1d", "12h", "2w", "30m" (minutes), "@EPOCH", "YYYY-MM-DD"
 * or "YYYY-MM-DDTHH:MM" (local time).  Returns 0 or FS_EUSAGE. */
static int parse_since(const char *s, time_t now, time_t *out)
{
	char *end;
	long v;
	int y, mo, d, h = 0, mi = 0, n = 0;
	struct tm tm;

	if (*s == '@') {
		v = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end)
			return FS_EUSAGE;
		*out = (time_t)v;
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
		return *out == (time_t)-1 ? FS_EUSAGE : 0;
	}
	v = strtol(s, &end, 10);
	if (end == s || v < 0 || end[0] == 0 || end[1])
		return FS_EUSAGE;
	switch (*end) {
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	case 'w': v *= 7 * 86400; break;
	default: return FS_EUSAGE;
	}
	*out = now - v;
	return 0;
}

static void format_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, n, "@%lld", (long long)t);
}

static int cmp_risky(const void *a, const void *b)
{
	const struct risky_patch *x = a, *y = b;
	time_t dx = x->ds->deadline, dy = y->ds->deadline;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	/* Among equals the sooner deadline first; a known deadline before
	 * none. */
	if (dx != dy) {
		if (!dx || !dy)
			return dx ? -1 : 1;
		return dx < dy ? -1 : 1;
	}
	if (x->series_no != y->series_no)
		return x->series_no < y->series_no ? -1 : 1;
	return x->rp->index - y->rp->index;
}

static int patch_score(const struct fs_review_patch *rp)
{
	size_t k;
	int score = 0;

	for (k = 0; k < rp->findings.n; k++)
		if (!rp->findings.v[k].ignored)
			score += kind_weight(rp->findings.v[k].kind);
	return score;
}

/* The mail that stands for a series: its cover, else its first patch. */
static const struct fs_patch *series_anchor(const struct fs_thread_series *s)
{
	return s->cover ? s->cover : (s->npatches ? s->patches[0] : NULL);
}

static const char *series_release(const struct digest_series *ds)
{
	if (ds->s->release)
		return ds->s->release;
	return ds->r ? ds->r->branch : ds->s->branch;
}

/* ---- text -------------------------------------------------------------- */

static void text_digest(FILE *out, const struct digest_series *series, size_t nseries,
			const struct risky_patch *risky, size_t nrisky, time_t since)
{
	char when[64], dl[64];
	size_t i, k;

	format_time(when, sizeof(when), since);
	fprintf(out, "stable review digest: %zu series since %s, %zu risky patch%s\n",
		nseries, when, nrisky, nrisky == 1 ? "" : "es");
	if (!nseries)
		return;
	fprintf(out, "\nseries:\n");
	for (i = 0; i < nseries; i++) {
		const struct digest_series *ds = &series[i];
		const struct fs_patch *a = series_anchor(ds->s);
		fprintf(out, "  %s%s\n", a ? fs_patch_subject(a) : "?",
			ds->s->cover ? "" : " (no cover letter)");
		if (!ds->r) {
			fprintf(out, "    not reviewed: %s\n", ds->error ? ds->error : "?");
			continue;
		}
		fprintf(out, "    %s, base %s", ds->r->branch, ds->r->base ? ds->r->base : "the branch tip");
		if (ds->deadline) {
			format_time(dl, sizeof(dl), ds->deadline);
			fprintf(out, ", deadline %s", dl);
		}
		fprintf(out, ": %zu patch%s, %zu risky\n", ds->r->npatches,
			ds->r->npatches == 1 ? "" : "es", ds->risky);
	}
	if (!nrisky)
		return;
	fprintf(out, "\nrisky patches, highest score first:\n");
	for (i = 0; i < nrisky; i++) {
		const struct risky_patch *rk = &risky[i];
		const struct fs_review *r = rk->ds->r;
		const char *id = fs_patch_message_id(rk->rp->patch);

		fprintf(out, "\n%zu. [score %d] %s %03d/%03d %s\n", i + 1, rk->score,
			series_release(rk->ds), rk->rp->index,
			r->series->total > 0 ? r->series->total : 0, fs_patch_title(rk->rp->patch));
		fprintf(out, "  release %s (%s)", rk->ds->s->release ? rk->ds->s->release : "unknown",
			r->branch);
		if (rk->ds->deadline) {
			format_time(dl, sizeof(dl), rk->ds->deadline);
			fprintf(out, ", deadline %s", dl);
		}
		fputc('\n', out);
		for (k = 0; k < rk->rp->findings.n; k++) {
			const struct fs_finding *f = &rk->rp->findings.v[k];
			char *line;
			if (f->ignored)
				continue;
			line = fs_report_finding_line(r, f);
			fprintf(out, "  %s\n", line);
			g_free(line);
		}
		if (id)
			fprintf(out, "  " LORE "%s\n", id);
	}
}

/* ---- JSON -------------------------------------------------------------- */

static void json_summary(JsonBuilder *b, const struct fs_review *r)
{
	size_t k;

	json_builder_set_member_name(b, "summary");
	json_builder_begin_object(b);
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		json_builder_set_member_name(b, fs_finding_kind_name(k));
		json_builder_add_int_value(b, r ? (gint64)r->counts[k] : 0);
	}
	json_builder_end_object(b);
}

static int json_digest(FILE *out, const struct digest_series *series, size_t nseries,
		       const struct risky_patch *risky, size_t nrisky, time_t since,
		       const char *query)
{
	JsonBuilder *b = json_builder_new();
	GDateTime *dt = g_date_time_new_from_unix_utc((gint64)since);
	char *iso = dt ? g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ") : NULL;
	size_t i, k;
	int rc;

	json_builder_begin_object(b);
	fs_json_str(b, "since", iso);
	fs_json_str(b, "query", query);
	json_builder_set_member_name(b, "series");
	json_builder_begin_array(b);
	for (i = 0; i < nseries; i++) {
		const struct digest_series *ds = &series[i];
		const struct fs_patch *a = series_anchor(ds->s);
		json_builder_begin_object(b);
		fs_json_str(b, "message_id", a ? fs_patch_message_id(a) : NULL);
		fs_json_str(b, "subject", a ? fs_patch_subject(a) : NULL);
		fs_json_bool(b, "cover", ds->s->cover != NULL);
		fs_json_str(b, "branch", ds->r ? ds->r->branch : ds->s->branch);
		fs_json_str(b, "base", ds->r ? ds->r->base : ds->s->base);
		fs_json_str(b, "release", ds->s->release);
		fs_json_str(b, "deadline", ds->s->deadline);
		fs_json_int(b, "patches", ds->r ? (long)ds->r->npatches : (long)ds->s->npatches);
		fs_json_int(b, "risky", (long)ds->risky);
		json_summary(b, ds->r);
		fs_json_str(b, "error", ds->error);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "risky");
	json_builder_begin_array(b);
	for (i = 0; i < nrisky; i++) {
		const struct risky_patch *rk = &risky[i];
		const struct fs_review *r = rk->ds->r;
		const char *id = fs_patch_message_id(rk->rp->patch);
		char *link = id ? g_strconcat(LORE, id, NULL) : NULL;

		json_builder_begin_object(b);
		fs_json_int(b, "rank", (long)i + 1);
		fs_json_int(b, "score", rk->score);
		fs_json_int(b, "series", (long)rk->series_no);
		fs_json_str(b, "branch", r->branch);
		fs_json_str(b, "release", rk->ds->s->release);
		fs_json_str(b, "deadline", rk->ds->s->deadline);
		fs_json_int(b, "index", rk->rp->index);
		fs_json_int(b, "total", r->series->total);
		fs_json_str(b, "message_id", id);
		fs_json_str(b, "subject", fs_patch_subject(rk->rp->patch));
		fs_json_str(b, "upstream", rk->rp->findings.upstream[0] ? rk->rp->findings.upstream : NULL);
		fs_json_str(b, "link", link);
		json_builder_set_member_name(b, "findings");
		json_builder_begin_array(b);
		for (k = 0; k < rk->rp->findings.n; k++) {
			const struct fs_finding *f = &rk->rp->findings.v[k];
			char *line;
			if (f->ignored)
				continue;
			line = fs_report_finding_line(r, f);
			json_builder_begin_object(b);
			fs_json_str(b, "kind", fs_finding_kind_name(f->kind));
			fs_json_int(b, "weight", kind_weight(f->kind));
			fs_json_str(b, "commit", f->commit[0] ? f->commit : NULL);
			fs_json_str(b, "subject", f->subject);
			fs_json_str(b, "release", f->release);
			fs_json_str(b, "message_id", f->message_id);
			fs_json_str(b, "evidence", f->evidence);
			fs_json_str(b, "text", line);
			json_builder_end_object(b);
			g_free(line);
		}
		json_builder_end_array(b);
		json_builder_end_object(b);
		g_free(link);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	rc = fs_json_print_line(b, out);
	g_object_unref(b);
	g_free(iso);
	if (dt)
		g_date_time_unref(dt);
	return rc;
}

/* ---- --mail ------------------------------------------------------------ */

/* A config value: the notmuch config first (where the drafts folder lives
 * too), then git config.  New string or NULL. */
static char *config_value(struct fs_store *st, struct fs_config *cfg, const char *key)
{
	const char *v = st ? fs_store_config(st, key) : NULL;
	char *s = NULL;

	if (v)
		return strdup(v);
	if (cfg && fs_config_get_string(cfg, key, &s) == 0 && s && !*s) {
		free(s);
		s = NULL;
	}
	return s;
}

static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The identity of the digest: "<day>-<hash of the series' mails>".  The
 * day is local, as the user's "the same day". */
static char *digest_key(const struct digest_series *series, size_t nseries, time_t now)
{
	GPtrArray *ids = g_ptr_array_new();
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char day[16], *key;
	struct tm tm;
	size_t i;

	for (i = 0; i < nseries; i++) {
		const struct fs_patch *a = series_anchor(series[i].s);
		if (a && fs_patch_message_id(a))
			g_ptr_array_add(ids, (gpointer)fs_patch_message_id(a));
	}
	g_ptr_array_sort(ids, cmp_strp);
	for (i = 0; i < ids->len; i++) {
		g_checksum_update(sum, (const guchar *)g_ptr_array_index(ids, i), -1);
		g_checksum_update(sum, (const guchar *)"\n", 1);
	}
	if (!localtime_r(&now, &tm) || !strftime(day, sizeof(day), "%Y%m%d", &tm))
		snprintf(day, sizeof(day), "0");
	key = g_strdup_printf("%s-%.16s", day, g_checksum_get_string(sum));
	g_checksum_free(sum);
	g_ptr_array_free(ids, TRUE);
	return key;
}

static int make_maildir(const char *dir, struct fs_error *err)
{
	static const char *const subs[] = { "", "/cur", "/new", "/tmp" };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		char *p = g_strconcat(dir, subs[i], NULL);
		int rc = g_mkdir_with_parents(p, 0700);
		int e = errno;
		g_free(p);
		if (rc < 0)
			return fs_error_set(err, FS_EIO, "cannot create the maildir '%s': %s",
					    dir, strerror(e));
	}
	return 0;
}

/* A file of DIR/new or DIR/cur whose name holds TAG, as a new path, or
 * NULL: a digest written before whose indexing may have failed. */
static char *find_written(const char *dir, const char *tag)
{
	static const char *const subs[] = { "new", "cur" };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		char *sub = g_build_filename(dir, subs[i], NULL);
		DIR *d = opendir(sub);
		struct dirent *e;
		char *hit = NULL;
		while (d && (e = readdir(d))) {
			if (strstr(e->d_name, tag)) {
				hit = g_build_filename(sub, e->d_name, NULL);
				break;
			}
		}
		if (d)
			closedir(d);
		g_free(sub);
		if (hit)
			return hit;
	}
	return NULL;
}

/* Drop CR and other control characters but tab and LF from text taken
 * from mail, so the body is clean 8bit text. */
static void clean_text(char *s)
{
	char *w = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 && c != '\n' && c != '\t')
			continue;
		*w++ = *s;
	}
	*w = 0;
}

/* The whole message as text. */
static char *compose_mail(const char *body, const char *msgid, const char *name,
			  const char *email, const char *subject, time_t now)
{
	GMimeMessage *m = g_mime_message_new(TRUE);
	GMimeTextPart *part = g_mime_text_part_new_with_subtype("plain");
	GMimeFormatOptions *fo = g_mime_format_options_new();
	GDateTime *dt = g_date_time_new_from_unix_local((gint64)now);
	const char *p;
	char *text;

	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_FROM, name, email);
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_TO, name, email);
	g_mime_message_set_subject(m, subject, "utf-8");
	g_mime_message_set_message_id(m, msgid);
	if (dt) {
		g_mime_message_set_date(m, dt);
		g_date_time_unref(dt);
	}
	g_mime_object_set_header(GMIME_OBJECT(m), "X-Fixscan-Digest", msgid, NULL);
	g_mime_text_part_set_text(part, body);
	g_mime_text_part_set_charset(part, "utf-8");
	/* Local delivery only: 8bit keeps the text readable in the file;
	 * pure ASCII becomes 7bit. */
	for (p = body; *p && !(*p & 0x80); p++)
		;
	g_mime_part_set_content_encoding(GMIME_PART(part), *p ? GMIME_CONTENT_ENCODING_8BIT :
					 GMIME_CONTENT_ENCODING_7BIT);
	g_mime_message_set_mime_part(m, GMIME_OBJECT(part));
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
	text = g_mime_object_to_string(GMIME_OBJECT(m), fo);
	g_mime_format_options_free(fo);
	g_object_unref(part);
	g_object_unref(m);
	return text;
}

/* Write TEXT as DIR/new/NAME through DIR/tmp/NAME.  Returns the new path
 * or NULL with ERR set; no partial file is left in new/. */
static char *write_maildir(const char *dir, const char *name, const char *text,
			   struct fs_error *err)
{
	char *tmp = g_build_filename(dir, "tmp", name, NULL);
	char *dst = g_build_filename(dir, "new", name, NULL);
	size_t len = strlen(text), done = 0;
	int fd, e;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno;
		fs_error_set(err, FS_EIO, "cannot create '%s': %s", tmp, strerror(e));
		goto fail;
	}
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : ENOSPC;
			fs_error_set(err, FS_EIO, "cannot write '%s': %s", tmp, strerror(e));
			close(fd);
			unlink(tmp);
			goto fail;
		}
		done += (size_t)w;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		e = errno;
		fs_error_set(err, FS_EIO, "cannot write '%s': %s", tmp, strerror(e));
		unlink(tmp);
		goto fail;
	}
	if (rename(tmp, dst) < 0) {
		e = errno;
		fs_error_set(err, FS_EIO, "cannot move '%s' into '%s/new': %s", tmp, dir,
			     strerror(e));
		unlink(tmp);
		goto fail;
	}
	g_free(tmp);
	return dst;
fail:
	g_free(tmp);
	g_free(dst);
	return NULL;
}

/* --mail: one message per day and set of series.  STORE is the read-only
 * store of the review; it is closed here (set to NULL) and the database
 * reopened for writing to index the new file. */
static int mail_digest(struct fs_store **store, struct fs_config *cfg, const char *body,
		       const struct digest_series *series, size_t nseries, size_t nrisky,
		       time_t now, struct fs_error *err)
{
	static const char *const tags[] = { "fixscan-digest", "inbox", "unread", NULL };
	struct fs_store_message seen;
	/* Copies: the store is closed and reopened below. */
	char *email = g_strdup(fs_store_config(*store, "user.primary_email"));
	char *name = g_strdup(fs_store_config(*store, "user.name"));
	char *key = digest_key(series, nseries, now);
	char *folder = config_value(*store, cfg, "fixscan.digestFolder");
	char *dir = NULL, *msgid = NULL, *tag = NULL, *path = NULL, *text = NULL;
	char *subject = NULL, *name_buf = NULL, *clean = NULL, host[256];
	const char *domain;
	int rc = 0;

	memset(&seen, 0, sizeof(seen));
	domain = email && strchr(email, '@') ? strchr(email, '@') + 1 : "localhost";
	msgid = g_strdup_printf("fixscan-digest-%s@%s", key, domain);
	tag = g_strdup_printf(".fixscan-digest-%s.", key);
	if (!folder)
		dir = g_build_filename(fs_store_path(*store), "INBOX", NULL);
	else if (g_path_is_absolute(folder))
		dir = g_strdup(folder);
	else
		dir = g_build_filename(fs_store_path(*store), folder, NULL);

	if (fs_store_find_message(*store, msgid, &seen, NULL) == 0)
		goto out; /* there already, and indexed */
	fs_store_free(*store);
	*store = NULL;

	path = find_written(dir, tag);
	if (!path) {
		GDateTime *dt = g_date_time_new_from_unix_local((gint64)now);
		char *day = dt ? g_date_time_format(dt, "%Y-%m-%d") : g_strdup("today");
		char *name_file;
		if (dt)
			g_date_time_unref(dt);
		rc = make_maildir(dir, err);
		if (rc < 0) {
			g_free(day);
			goto out;
		}
		subject = g_strdup_printf("fixscan digest %s: %zu risky patch%s in %zu series",
					  day, nrisky, nrisky == 1 ? "" : "es", nseries);
		g_free(day);
		if (!email) {
			const char *user = g_get_user_name();
			name_buf = g_strdup_printf("%s@localhost", user ? user : "fixscan");
		}
		clean = g_strdup(body);
		clean_text(clean);
		text = compose_mail(clean, msgid, name ? name : "fixscan",
				    email ? email : name_buf, subject, now);
		if (gethostname(host, sizeof(host)) < 0 || !*host)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = 0;
		/* '/' and ':' have a meaning in maildir names. */
		g_strdelimit(host, "/:", '_');
		name_file = g_strdup_printf("%lld.%d%s%s", (long long)now, (int)getpid(), tag, host);
		path = write_maildir(dir, name_file, text, err);
		g_free(name_file);
		if (!path) {
			rc = err->code;
			goto out;
		}
	}
	rc = fs_store_open(store, true, 5.0, err);
	if (rc < 0)
		goto out;
	rc = fs_store_index_file(*store, path, tags, err);
	if (rc < 0)
		fs_error_prefix(err, "the digest is in '%s' but not indexed (the next run indexes it)",
				path);
out:
	fs_store_message_clear(&seen);
	g_free(key);
	free(folder);
	g_free(dir);
	g_free(msgid);
	g_free(tag);
	g_free(path);
	g_free(text);
	g_free(subject);
	g_free(name_buf);
	g_free(clean);
	g_free(email);
	g_free(name);
	return rc;
}

/* The threads of the stable patches among the messages matching
 * CANDIDATE_QUERY since SINCE, as a query "thread:A OR thread:B ...", or
 * NULL in *OUT when there is none. */
static int default_threads_query(struct fs_store *store, time_t since, char **out,
				 struct fs_error *err)
{
	struct fs_store_messages msgs = { NULL, 0 };
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GString *q = g_string_new(NULL);
	char *query = NULL;
	size_t i;
	int rc;

	*out = NULL;
	if (asprintf(&query, "%s AND date:@%lld..", CANDIDATE_QUERY, (long long)since) < 0) {
		query = NULL;
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	rc = fs_store_search(store, query, &msgs, err);
	if (rc < 0)
		goto out;
	for (i = 0; i < msgs.n; i++) {
		const char *subj = msgs.v[i].subject ? msgs.v[i].subject : "";
		struct fs_series ser;
		bool stable;

		if (!msgs.v[i].thread_id || g_hash_table_contains(seen, msgs.v[i].thread_id))
			continue;
		/* Replies count: a thread with fresh answers is news too,
		 * and fs_series_parse() looks past "Re:". */
		if (!fs_series_parse(subj, &ser, NULL))
			continue;
		stable = ser.version || ser.autosel;
		fs_series_clear(&ser);
		if (!stable)
			continue;
		g_hash_table_add(seen, msgs.v[i].thread_id);
		g_string_append_printf(q, "%sthread:%s", q->len ? " OR " : "", msgs.v[i].thread_id);
	}
	if (q->len && !(*out = strdup(q->str)))
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
out:
	g_hash_table_destroy(seen);
	fs_store_messages_free(&msgs);
	g_string_free(q, TRUE);
	free(query);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

int cmd_digest(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "since", required_argument, NULL, 's' },
		{ "query", required_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "mail", no_argument, NULL, 'm' },
		{ "repo", required_argument, NULL, 'r' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "no-reports", no_argument, NULL, 'R' },
		{ "no-update", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fs_review_opts ropts = FS_REVIEW_OPTS_INIT;
	struct fs_index_opts iopts = FS_INDEX_OPTS_INIT;
	struct fs_index_stats stats;
	struct fs_index *idx = NULL;
	struct fs_store *store = NULL;
	struct fs_config *cfg = NULL;
	struct fs_ignore *ignore = NULL;
	struct fs_thread **threads = NULL;
	struct digest_series *series = NULL;
	struct risky_patch *risky = NULL;
	size_t nthreads = 0, nseries = 0, nrisky = 0, cap = 0, i, k;
	const char *repo_flag = NULL, *ignore_flag = NULL, *since_arg = "1d";
	char *repo = NULL, *query = NULL, *base_query = NULL;
	char *text = NULL;
	size_t text_len = 0;
	time_t now = time(NULL), since;
	int c, rc, json = 0, mail = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 's': since_arg = optarg; break;
		case 'q':
			free(base_query);
			base_query = strdup(optarg);
			break;
		case 'j': json = 1; break;
		case 'm': mail = 1; break;
		case 'r': repo_flag = optarg; break;
		case 'i': ignore_flag = optarg; break;
		case 'R': ropts.no_reports = true; break;
		case 'N': iopts.no_update = true; break;
		case 'h':
			free(base_query);
			fputs(usage_text, stdout);
			return FS_EXIT_CLEAN;
		default:
			free(base_query);
			return cli_usage_error(argv[0], "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc) {
		free(base_query);
		return cli_usage_error(argv[0], "no arguments expected, got '%s'", argv[optind]);
	}
	if (json && mail) {
		free(base_query);
		return cli_usage_error(argv[0], "--json and --mail do not go together");
	}
	if (parse_since(since_arg, now, &since) < 0) {
		free(base_query);
		return cli_usage_error(argv[0], "cannot read --since '%s' (1d, 12h, 2w, YYYY-MM-DD, @EPOCH)",
				       since_arg);
	}

	rc = cli_review_setup(repo_flag, ignore_flag, &repo, &cfg, &ignore, err);
	if (rc < 0)
		goto out;
	ropts.cfg = cfg;
	ropts.ignore = ignore;
	rc = fs_store_open(&store, false, 5.0, err);
	if (rc < 0)
		goto out;
	if (!base_query)
		base_query = config_value(store, cfg, "fixscan.digestQuery");
	/* notmuch's date: range matches the Date header of each message; a
	 * thread is in when any of its messages is. */
	if (!base_query) {
		rc = default_threads_query(store, since, &query, err);
	} else if (asprintf(&query, "(%s) AND date:@%lld..", base_query, (long long)since) < 0) {
		query = NULL;
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (rc < 0)
		goto out;
	if (query) {
		rc = cli_load_threads(store, query, &threads, &nthreads, err);
		if (rc < 0)
			goto out;
	}
	if (nthreads) {
		iopts.repo_path = repo;
		{
			/* The refs to index, from fixscan.mainline and fixscan.stable. */
			char *mainline = NULL, **stable = NULL;
			size_t nstable = 0;

			rc = fs_config_index_refs(cfg, &mainline, &stable, &nstable, err);
			iopts.mainline = mainline;
			iopts.stable_globs = (const char *const *)stable;
			iopts.nstable_globs = nstable;
			if (rc == 0)
				rc = fs_index_open(&idx, &iopts, &stats, err);
			free(mainline);
			fs_config_strv_free(stable);
		}
		if (rc < 0)
			goto out;
		if (stats.note[0])
			fprintf(stderr, "fixscan: %s\n", stats.note);
	}
	for (i = 0; i < nthreads; i++)
		nseries += fs_thread_count(threads[i]);
	series = calloc(nseries + 1, sizeof(*series));
	if (!series) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	nseries = 0;
	for (i = 0; i < nthreads; i++) {
		for (k = 0; k < fs_thread_count(threads[i]); k++) {
			const struct fs_thread_series *s = fs_thread_get(threads[i], k);
			struct digest_series *ds = &series[nseries];
			struct fs_error one = FS_ERROR_INIT;
			size_t j;

			if (!s->npatches)
				continue; /* a cover alone: nothing to rank */
			ds->s = s;
			ds->deadline = parse_deadline(s->deadline);
			/* A series that cannot be reviewed (unknown branch)
			 * is listed with the reason, not fatal: the digest is
			 * for all the others too. */
			if (fs_review_run(&ds->r, s, idx, store, &ropts, &one) < 0) {
				ds->r = NULL;
				ds->error = strdup(one.message);
				nseries++;
				continue;
			}
			for (j = 0; j < ds->r->npatches; j++) {
				int score = patch_score(&ds->r->patches[j]);
				if (score <= 0)
					continue;
				if (nrisky == cap) {
					size_t ncap = cap ? cap * 2 : 64;
					struct risky_patch *nr = realloc(risky, ncap * sizeof(*nr));
					if (!nr) {
						nseries++;
						rc = fs_error_set(err, FS_ENOMEM, "out of memory");
						goto out;
					}
					risky = nr;
					cap = ncap;
				}
				risky[nrisky].ds = ds;
				risky[nrisky].rp = &ds->r->patches[j];
				risky[nrisky].series_no = nseries;
				risky[nrisky].score = score;
				nrisky++;
				ds->risky++;
			}
			nseries++;
		}
	}
	if (nrisky)
		qsort(risky, nrisky, sizeof(*risky), cmp_risky);

	if (json) {
		if (json_digest(stdout, series, nseries, risky, nrisky, since, base_query) < 0) {
			rc = fs_error_set(err, FS_EIO, "cannot write to standard output");
			goto out;
		}
	} else {
		FILE *mem = open_memstream(&text, &text_len);
		if (!mem) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		text_digest(mem, series, nseries, risky, nrisky, since);
		if (fclose(mem)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		if (!mail) {
			cli_print_wrapped(stdout, text, DIGEST_WIDTH);
		} else if (nseries) {
			/* Wrapped as printed, then handed to the mail. */
			char *wrapped = NULL;
			size_t wlen = 0;
			mem = open_memstream(&wrapped, &wlen);
			if (!mem) {
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
			cli_print_wrapped(mem, text, DIGEST_WIDTH);
			if (fclose(mem)) {
				free(wrapped);
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
			rc = mail_digest(&store, cfg, wrapped, series, nseries, nrisky, now, err);
			free(wrapped);
			if (rc < 0)
				goto out;
		}
	}
	/* A series that could not be reviewed is listed in the digest; it
	 * does not change the exit status, or one odd thread would fail the
	 * daily run every day. */
	for (i = 0; i < nseries && !mail; i++)
		if (series[i].error)
			fprintf(stderr, "fixscan: not reviewed: %s\n", series[i].error);
	rc = nrisky ? FS_EXIT_FINDINGS : FS_EXIT_CLEAN;
out:
	for (i = 0; series && i < nseries; i++) {
		fs_review_free(series[i].r);
		free(series[i].error);
	}
	free(series);
	free(risky);
	for (i = 0; i < nthreads; i++)
		fs_thread_free(threads[i]);
	free(threads);
	fs_index_free(idx);
	fs_store_free(store);
	fs_ignore_free(ignore);
	fs_config_free(cfg);
	free(base_query);
	free(query);
	free(repo);
	free(text);
	return rc;
}
