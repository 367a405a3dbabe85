/* fixscan: scoring, ranking and mailing the digest. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/atomic.h"
#include "fixscan/date.h"
#include "fixscan/digest.h"
#include "fixscan/text.h"
#include "fixscan/kinds.h"
#include "fixscan/maildir.h"
#include "mail/gmime-init.h"

/* ---- scoring ------------------------------------------------------------ */

int fs_digest_kind_weight(enum fs_finding_kind k)
{
	return fs_kind(k)->digest_weight;
}

int fs_digest_finding_weight(const struct fs_finding *f)
{
	/* Risky means something for the maintainer to do: a finding that
	 * asks for nothing (a note, a revert applied again, an id an old
	 * clone lacks) weighs nothing, whatever its kind weighs. */
	if (!fs_finding_is_problem(f) || !fs_kind_asks(f))
		return 0;
	/* A missing fix of a CVE weighs twice: a security fix. */
	if (f->kind == FS_FIND_FIX_MISSING && f->ncves)
		return 2 * fs_digest_kind_weight(f->kind);
	return fs_digest_kind_weight(f->kind);
}

int fs_digest_patch_score(const struct fs_review_patch *rp)
{
	size_t k;
	int score = 0;

	for (k = 0; k < rp->findings.n; k++)
		if (!rp->findings.v[k].ignored)
			score += fs_digest_finding_weight(&rp->findings.v[k]);
	return score;
}

time_t fs_digest_parse_deadline(const char *s)
{
	GDateTime *dt;
	time_t t = 0;

	if (!s)
		return 0;
	/* the header's ISO form is one fs_date_parse() reads; only a date
	 * (digits first) is taken, never a relative "yesterday" */
	if (isdigit((unsigned char)*s))
		return fs_date_parse(s, 0, &t, NULL) == 0 ? t : 0;
	dt = g_mime_utils_header_decode_date(s);
	if (dt) {
		t = (time_t)g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}
	return t;
}

const struct fs_patch *fs_digest_anchor(const struct fs_thread_series *s)
{
	return s->cover ? s->cover : (s->npatches ? s->patches[0] : NULL);
}

/* ---- the digest --------------------------------------------------------- */

void fs_digest_clear(struct fs_digest *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nseries; i++) {
		fs_review_free(d->series[i].r);
		g_free(d->series[i].error);
	}
	g_free(d->series);
	g_free(d->risky);
	for (i = 0; i < d->nsuperseded; i++)
		g_free(d->superseded_branch[i]);
	g_free(d->superseded);
	g_free(d->superseded_branch);
	memset(d, 0, sizeof(*d));
}

void fs_digest_superseded(struct fs_digest *d, const struct fs_thread_series *s,
			  const char *branch)
{
	d->superseded = g_renew(const struct fs_thread_series *, d->superseded, d->nsuperseded + 1);
	d->superseded_branch = g_renew(char *, d->superseded_branch, d->nsuperseded + 1);
	d->superseded[d->nsuperseded] = s;
	d->superseded_branch[d->nsuperseded++] = g_strdup(branch);
}

void fs_digest_add(struct fs_digest *d, const struct fs_thread_series *s,
		   struct fs_review *r, const char *error)
{
	struct fs_digest_series *ds;
	size_t j;

	d->series = g_renew(struct fs_digest_series, d->series, d->nseries + 1);
	ds = &d->series[d->nseries];
	memset(ds, 0, sizeof(*ds));
	ds->s = s;
	ds->r = r;
	ds->error = r ? NULL : g_strdup(error ? error : "not reviewed");
	ds->deadline = fs_digest_parse_deadline(s->deadline);
	for (j = 0; r && j < r->npatches; j++) {
		int score = fs_digest_patch_score(&r->patches[j]);

		if (score <= 0)
			continue;
		d->risky = g_renew(struct fs_digest_risky, d->risky, d->nrisky + 1);
		d->risky[d->nrisky].series = d->nseries;
		d->risky[d->nrisky].rp = &r->patches[j];
		d->risky[d->nrisky].score = score;
		d->nrisky++;
		ds->risky++;
	}
	d->nseries++;
}

static int cmp_risky(const void *a, const void *b, void *data)
{
	const struct fs_digest *d = data;
	const struct fs_digest_risky *x = a, *y = b;
	time_t dx = d->series[x->series].deadline, dy = d->series[y->series].deadline;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	/* Among equals the sooner deadline first; a known deadline before
	 * none. */
	if (dx != dy) {
		if (!dx || !dy)
			return dx ? -1 : 1;
		return dx < dy ? -1 : 1;
	}
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return x->rp->index - y->rp->index;
}

void fs_digest_rank(struct fs_digest *d)
{
	if (d->nrisky)
		qsort_r(d->risky, d->nrisky, sizeof(*d->risky), cmp_risky, d);
}

static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *fs_digest_key(const struct fs_digest *d, time_t now)
{
	GPtrArray *ids = g_ptr_array_new();
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char day[16], *key;
	struct tm tm;
	size_t i;

	for (i = 0; i < d->nseries; i++) {
		const struct fs_patch *a = fs_digest_anchor(d->series[i].s);

		if (a && fs_patch_message_id(a))
			g_ptr_array_add(ids, (gpointer)fs_patch_message_id(a));
	}
	g_ptr_array_sort(ids, cmp_strp);
	for (i = 0; i < ids->len; i++) {
		g_checksum_update(sum, (const guchar *)g_ptr_array_index(ids, i), -1);
		g_checksum_update(sum, (const guchar *)"\n", 1);
	}
	/* The day is local, as the user's "the same day". */
	if (!localtime_r(&now, &tm) || !strftime(day, sizeof(day), "%Y%m%d", &tm))
		snprintf(day, sizeof(day), "0");
	key = g_strdup_printf("%s-%.16s", day, g_checksum_get_string(sum));
	g_checksum_free(sum);
	g_ptr_array_free(ids, TRUE);
	return key;
}

/* ---- the mail ----------------------------------------------------------- */


char *fs_digest_compose(const char *body, const char *msgid, const char *name,
			const char *email, const char *subject, time_t now)
{
	GMimeMessage *m;
	GMimeTextPart *part;
	GMimeFormatOptions *fo;
	GMimeStream *stream;
	GMimeDataWrapper *wrapper;
	GDateTime *dt = g_date_time_new_from_unix_local((gint64)now);
	char *text, *clean = fs_text_clean_body(body);
	const char *p;

	fs_gmime_init();
	m = g_mime_message_new(TRUE);
	part = g_mime_text_part_new_with_subtype("plain");
	fo = g_mime_format_options_new();
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_FROM, name, email);
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_TO, name, email);
	g_mime_message_set_subject(m, subject, "utf-8");
	g_mime_message_set_message_id(m, msgid);
	if (dt) {
		g_mime_message_set_date(m, dt);
		g_date_time_unref(dt);
	}
	g_mime_object_set_header(GMIME_OBJECT(m), "X-Fixscan-Digest", msgid, NULL);
	/* The body as UTF-8 whatever it holds: g_mime_text_part_set_text()
	 * would pick ISO-8859-1 for text that fits it, and recode. */
	stream = g_mime_stream_mem_new_with_buffer(clean, strlen(clean));
	wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(GMIME_PART(part), wrapper);
	g_mime_content_type_set_parameter(g_mime_object_get_content_type(GMIME_OBJECT(part)),
					  "charset", "utf-8");
	/* Local delivery only: 8bit keeps the text readable in the file;
	 * pure ASCII becomes 7bit. */
	for (p = clean; *p && !(*p & 0x80); p++)
		;
	g_mime_part_set_content_encoding(GMIME_PART(part), *p ? GMIME_CONTENT_ENCODING_8BIT :
					 GMIME_CONTENT_ENCODING_7BIT);
	g_mime_message_set_mime_part(m, GMIME_OBJECT(part));
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
	text = g_mime_object_to_string(GMIME_OBJECT(m), fo);
	g_mime_format_options_free(fo);
	g_object_unref(wrapper);
	g_object_unref(stream);
	g_object_unref(part);
	g_object_unref(m);
	g_free(clean);
	return text;
}

/* A digest with Message-Id MSGID already in DIR (written by an earlier
 * run that could not index it), found by LABEL in its file name: its path
 * (g_free()) or NULL. */
static char *find_written(const char *dir, const char *label, const char *msgid)
{
	struct fs_maildir_files files = FS_MAILDIR_FILES_INIT;
	char *name_part = g_strdup_printf(".%s.", label), *hit = NULL;
	size_t i;

	fs_maildir_scan(&files, dir, "X-Fixscan-Digest", name_part);
	for (i = 0; i < files.n && !hit; i++) {
		char *v = fs_maildir_header(files.v[i].headers, "X-Fixscan-Digest");

		if (v && !strcmp(v, msgid))
			hit = g_strdup(files.v[i].path);
		g_free(v);
	}
	fs_maildir_files_clear(&files);
	g_free(name_part);
	return hit;
}

/* Compose D's mail and write it into DIR/new.  *PATH: the file. */
static int write_digest(char **path, const struct fs_digest *d, const char *body,
			const char *dir, const char *label, const char *msgid,
			const char *name, const char *email, time_t now,
			struct fs_error *err)
{
	GDateTime *dt = g_date_time_new_from_unix_local((gint64)now);
	char *day = dt ? g_date_time_format(dt, "%Y-%m-%d") : g_strdup("today");
	char *subject, *text, *login = NULL;
	struct fs_maildir_msg msg = { .box = FS_MAILDIR_NEW, .label = label, .what = "the digest" };
	int rc;

	if (dt)
		g_date_time_unref(dt);
	rc = fs_maildir_create(dir, NULL, err);
	if (rc < 0) {
		g_free(day);
		return rc;
	}
	subject = g_strdup_printf("fixscan digest %s: %zu risky patch%s in %zu series",
				  day, d->nrisky, d->nrisky == 1 ? "" : "es", d->nseries);
	if (!email) {
		const char *user = g_get_user_name();

		email = login = g_strdup_printf("%s@localhost", user ? user : "fixscan");
	}
	text = fs_digest_compose(body, msgid, name ? name : "fixscan", email, subject, now);
	msg.text = text;
	msg.len = strlen(text);
	rc = fs_maildir_write(path, dir, &msg, err);
	g_free(text);
	g_free(login);
	g_free(subject);
	g_free(day);
	return rc;
}

/* "YYYYMMDD" of the local day of NOW, into DAY (16 bytes). */
static void local_day(time_t now, char *day)
{
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(day, 16, "%Y%m%d", &tm))
		snprintf(day, 16, "0");
}

bool fs_digest_mailed_today(const char *path, time_t now, char **msgid)
{
	char *text = NULL, day[16], **f;
	bool same = false;

	if (msgid)
		*msgid = NULL;
	if (!path || !g_file_get_contents(path, &text, NULL, NULL))
		return false;
	local_day(now, day);
	/* "YYYYMMDD <message-id>\n" */
	f = g_strsplit_set(g_strstrip(text), " \n", 3);
	if (f[0] && f[1] && !strcmp(f[0], day)) {
		same = true;
		if (msgid)
			*msgid = g_strdup(f[1]);
	}
	g_strfreev(f);
	g_free(text);
	return same;
}

int fs_digest_note_mailed(const char *path, time_t now, const char *msgid,
			  struct fs_error *err)
{
	char day[16], *line;
	int rc;

	local_day(now, day);
	line = g_strdup_printf("%s %s\n", day, msgid);
	rc = fs_atomic_replace(path, line, strlen(line), "the digest's note", FS_ATOMIC_MKDIR, err);
	g_free(line);
	return rc;
}

int fs_digest_save(const struct fs_digest *d, const char *body, struct fs_store **store,
		   const struct fs_digest_mail *m, time_t now, struct fs_error *err)
{
	static const char *const tags[] = { "fixscan-digest", "inbox", "unread", NULL };
	struct fs_store_message seen;
	struct fs_store *wst = NULL;
	/* Copies: M may borrow from the store, which is closed below. */
	char *email = g_strdup(m->email), *name = g_strdup(m->name);
	char *key = fs_digest_key(d, now), *label, *msgid, *dir, *path = NULL;
	const char *root = fs_store_path(*store);
	int rc = 0, lock = -1;

	memset(&seen, 0, sizeof(seen));
	msgid = g_strdup_printf("fixscan-digest-%s@%s", key,
				email && strchr(email, '@') ? strchr(email, '@') + 1 : "localhost");
	label = g_strdup_printf("fixscan-digest-%s", key);
	if (!m->folder)
		dir = g_build_filename(root, "INBOX", NULL);
	else if (g_path_is_absolute(m->folder))
		dir = g_strdup(m->folder);
	else
		dir = g_build_filename(root, m->folder, NULL);

	if (fs_store_find_message(*store, msgid, &seen, NULL) == 0)
		goto remember; /* there already, and indexed */
	fs_store_free(*store);
	*store = NULL;

	/* One digest writer at a time: a second run waits, then finds the
	 * first one's mail by its name and Message-Id. */
	rc = lock = fs_maildir_create(dir, NULL, err);
	if (rc == 0)
		rc = lock = fs_maildir_lock(dir, FS_MAILDIR_LOCK_WAIT, "the digest folder", err);
	if (rc < 0)
		goto out;
	fs_maildir_sweep_tmp(dir, "fixscan-digest-");
	path = find_written(dir, label, msgid);
	if (!path) {
		rc = write_digest(&path, d, body, dir, label, msgid, name, email, now, err);
		if (rc < 0)
			goto out;
	}
	rc = fs_store_open(&wst, true, m->lock_wait, err);
	if (rc == 0)
		rc = fs_store_index_file(wst, path, tags, err);
	if (rc == 0)
		rc = fs_store_close(wst, err);
	else
		fs_store_free(wst);
	if (rc < 0) {
		fs_error_prefix(err, "the digest is in '%s' but not indexed (the next run indexes it)",
				path);
		goto out;
	}
remember:
	if (m->state_file)
		rc = fs_digest_note_mailed(m->state_file, now, msgid, err);
out:
	fs_maildir_unlock(lock);
	fs_store_message_clear(&seen);
	g_free(key);
	g_free(label);
	g_free(msgid);
	g_free(dir);
	g_free(path);
	g_free(email);
	g_free(name);
	return rc;
}
