/* fixscan: the drafts state file: what fixscan remembers of the drafts it
 * wrote (and of those the reviewer deleted, and of those it was about to
 * write), read strictly and replaced whole. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/drafts.h"
#include "drafts-private.h"

/* A year: long after a stable review thread has been released. */
#define STATE_KEEP_SECONDS (366 * 24 * 3600)

static void entry_free(gpointer p)
{
	struct state_entry *e = p;

	g_free(e->message_id);
	g_free(e->digest);
	g_free(e->key);
	g_free(e);
}

void fsds_state_add(struct fs_drafts_state *s, struct state_entry *e)
{
	struct state_entry *old = g_hash_table_lookup(s->by_id, e->message_id);

	/* Out of the tables before it is freed: they borrow its strings. */
	if (old) {
		g_hash_table_remove(s->by_id, old->message_id);
		if (g_hash_table_lookup(s->latest, old->key) == old)
			g_hash_table_remove(s->latest, old->key);
		g_ptr_array_remove(s->entries, old);  /* frees it */
	}
	g_ptr_array_add(s->entries, e);
	g_hash_table_replace(s->by_id, e->message_id, e);
	g_hash_table_replace(s->latest, e->key, e);
}

/* A line of a deleted draft: its message id behind this.  fixscan's
 * own ids start with the time (earlier versions' with fixscan and a
 * dot), so no id of a draft it wrote does. */
#define DELETED_PREFIX "deleted:"

/* A line of a draft fixscan was about to write when the run stopped:
 * kept until the next run sees whether its file made it into the
 * folder (then it is fixscan's, as any other) or not (then it is
 * forgotten, not taken for a draft the reviewer deleted). */
#define PENDING_PREFIX "pending:"

/* What a damaged state file's error asks of the reviewer, and what it
 * costs: fixscan knows its drafts in the folder by their Message-Id and
 * text without it, not the ones the reviewer deleted. */
#define STATE_ASIDE "move it aside (drafts you deleted may then come back)"

/* The largest state file read: years of drafts come nowhere near it. */
#define STATE_MAX (16 << 20)

/* Whether S is a digest as fs_draft_digest() writes it. */
static bool is_digest(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i]))
			return false;
	return i == 64;
}

/* One line: message id, digest, time, key, separated by tabs.  The key
 * goes last: it holds a space.  Nothing here holds a tab: ids and keys
 * went through fs_text_clean_id() / fs_text_clean_line().  Returns
 * NULL, or what is wrong with the line (a static string). */
static const char *state_parse_line(struct fs_drafts_state *s, const char *line)
{
	char **f;
	struct state_entry *e;
	const char *id, *bad = NULL;
	size_t i;

	if (line[0] == '#')
		return NULL;
	f = g_strsplit(line, "\t", -1);
	if (g_strv_length(f) != 4) {
		g_strfreev(f);
		return "not 4 fields separated by tabs";
	}
	id = f[0];
	if (g_str_has_prefix(id, DELETED_PREFIX))
		id += strlen(DELETED_PREFIX);
	else if (g_str_has_prefix(id, PENDING_PREFIX))
		id += strlen(PENDING_PREFIX);
	for (i = 0; f[2][i] && g_ascii_isdigit(f[2][i]); i++)
		;
	if (!*id || strchr(id, ' ') || strchr(id, '<'))
		bad = "no message id";
	else if (!is_digest(f[1]))
		bad = "no digest";
	else if (!i || f[2][i] || i > 18)
		bad = "no time";
	else if (!*f[3])
		bad = "no key";
	if (bad) {
		g_strfreev(f);
		return bad;
	}
	e = g_new0(struct state_entry, 1);
	e->message_id = g_strdup(id);
	e->digest = g_strdup(f[1]);
	e->time = g_ascii_strtoll(f[2], NULL, 10);
	e->key = g_strdup(f[3]);
	if (id != f[0] && f[0][0] == 'd')
		g_ptr_array_add(s->deleted, e);
	else if (id != f[0])
		g_ptr_array_add(s->pending, e);
	else
		fsds_state_add(s, e);
	g_strfreev(f);
	return NULL;
}

/* Read the state file PATH into *TEXT (*LEN bytes): no link followed, no
 * wait on a FIFO, nothing but a regular file.  Returns 1, 0 when PATH
 * does not exist, or FS_EIO with ERR set. */
static int state_read(const char *path, char **text, size_t *len, struct fs_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	const char *kind = NULL;
	struct stat st;
	ssize_t got = 0;
	int rc = 1;

	*text = NULL;
	*len = 0;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && errno == ELOOP)
		kind = "a symbolic link";
	else if (fd < 0 || fstat(fd, &st) < 0)
		rc = fs_error_set(err, FS_EIO, "cannot read the drafts state file '%s': %s", path,
				  strerror(errno));
	else if (S_ISDIR(st.st_mode))
		kind = "a directory";
	else if (S_ISFIFO(st.st_mode))
		kind = "a FIFO";
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		kind = "a device";
	else if (!S_ISREG(st.st_mode))
		kind = "not a regular file";
	else if (st.st_size > STATE_MAX)
		kind = "too large";
	if (kind)
		rc = fs_error_set(err, FS_EIO, "the drafts state file '%s' is %s; no draft written: "
				  "%s", path, kind, STATE_ASIDE);
	if (rc == 1) {
		*text = g_malloc((size_t)st.st_size + 1);
		while (*len < (size_t)st.st_size) {
			got = read(fd, *text + *len, (size_t)st.st_size - *len);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				break;
			*len += (size_t)got;
		}
		(*text)[*len] = '\0';
		if (got < 0) {
			rc = fs_error_set(err, FS_EIO, "cannot read the drafts state file '%s': %s",
					  path, strerror(errno));
			g_free(*text);
			*text = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Parse the LEN bytes of TEXT, the state file, into S.  Returns 0, or
 * FS_EPARSE with ERR naming the file and the first bad line: a file
 * fixscan did not write whole is not guessed at. */
static int state_parse(struct fs_drafts_state *s, const char *text, size_t len,
		       struct fs_error *err)
{
	const char *why = NULL, *p = text;
	size_t line = 0;

	if (!len)
		why = "is empty";
	else if (memchr(text, '\0', len))
		why = "holds a NUL byte";
	else if (!g_utf8_validate(text, (gssize)len, NULL))
		why = "is not UTF-8";
	else if (text[len - 1] != '\n')
		why = "ends in the middle of a line";
	while (!why && p < text + len) {
		const char *eol = strchr(p, '\n');
		char *l = g_strndup(p, (size_t)(eol - p));

		line++;
		why = *l ? state_parse_line(s, l) : "is empty";
		g_free(l);
		p = eol + 1;
	}
	if (!why)
		return 0;
	if (line)
		return fs_error_set(err, FS_EPARSE, "the drafts state file '%s' line %zu: %s; no draft "
				    "written: %s", s->path, line, why, STATE_ASIDE);
	return fs_error_set(err, FS_EPARSE, "the drafts state file '%s' %s; no draft written: %s",
			    s->path, why, STATE_ASIDE);
}

int fs_drafts_state_load(struct fs_drafts_state **out, const char *path,
			 struct fs_error *err)
{
	struct fs_drafts_state *s = g_new0(struct fs_drafts_state, 1);
	char *text = NULL;
	size_t len;
	int rc;

	s->path = g_strdup(path);
	s->entries = g_ptr_array_new_with_free_func(entry_free);
	s->by_id = g_hash_table_new(g_str_hash, g_str_equal);
	s->latest = g_hash_table_new(g_str_hash, g_str_equal);
	s->deleted = g_ptr_array_new_with_free_func(entry_free);
	s->pending = g_ptr_array_new_with_free_func(entry_free);
	*out = s;
	rc = state_read(path, &text, &len, err);
	if (rc > 0)
		rc = state_parse(s, text, len, err);
	g_free(text);
	if (rc < 0) {
		fs_drafts_state_free(s);
		*out = NULL;
	}
	return rc < 0 ? rc : 0;
}

void fs_drafts_state_free(struct fs_drafts_state *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->by_id);
	g_hash_table_destroy(s->latest);
	g_ptr_array_free(s->entries, TRUE);
	g_ptr_array_free(s->deleted, TRUE);
	g_ptr_array_free(s->pending, TRUE);
	g_free(s->path);
	g_free(s);
}

int fs_drafts_state_save(struct fs_drafts_state *s, struct fs_error *err)
{
	GString *text = g_string_new("# fixscan: the drafts it wrote (message-id, digest, time, key)\n");
	gint64 cutoff = g_get_real_time() / G_USEC_PER_SEC - STATE_KEEP_SECONDS;
	size_t i;
	int rc = 0;

	for (i = 0; i < s->entries->len + s->deleted->len + s->pending->len; i++) {
		size_t nd = s->entries->len + s->deleted->len;
		bool deleted = i >= s->entries->len && i < nd, pending = i >= nd;
		const struct state_entry *e = pending ? g_ptr_array_index(s->pending, i - nd) :
			deleted ? g_ptr_array_index(s->deleted, i - s->entries->len) :
			g_ptr_array_index(s->entries, i);

		if (e->time >= cutoff)
			g_string_append_printf(text, "%s%s\t%s\t%" G_GINT64_FORMAT "\t%s\n",
					       pending ? PENDING_PREFIX : deleted ? DELETED_PREFIX : "",
					       e->message_id, e->digest, e->time, e->key);
	}
	if (s->dirty)
		rc = fs_atomic_replace(s->path, text->str, text->len, "the drafts state file",
				       FS_ATOMIC_MKDIR, err);
	if (rc == 0)
		s->dirty = false;
	g_string_free(text, TRUE);
	return rc;
}

void fs_drafts_state_note(struct fs_drafts_state *s, const char *key,
			  const char *message_id, const char *digest, time_t now)
{
	struct state_entry *e, *old;

	if (!s || !key || !message_id || !digest)
		return;
	old = g_hash_table_lookup(s->by_id, message_id);
	if (old && !strcmp(old->key, key) && !strcmp(old->digest, digest) &&
	    g_hash_table_lookup(s->latest, key) == old && old->time == (gint64)now)
		return;
	e = g_new0(struct state_entry, 1);
	e->message_id = g_strdup(message_id);
	e->digest = g_strdup(digest);
	e->key = g_strdup(key);
	e->time = now;
	fsds_state_add(s, e);
	s->dirty = true;
}

bool fs_drafts_state_find(const struct fs_drafts_state *s, const char *message_id,
			  const char **key, const char **digest)
{
	const struct state_entry *e = s && message_id ? g_hash_table_lookup(s->by_id, message_id) : NULL;

	if (e) {
		*key = e->key;
		*digest = e->digest;
	}
	return e;
}

bool fs_drafts_state_latest(const struct fs_drafts_state *s, const char *key,
			    const char **message_id, const char **digest)
{
	const struct state_entry *e = s && key ? g_hash_table_lookup(s->latest, key) : NULL;

	if (e) {
		*message_id = e->message_id;
		*digest = e->digest;
	}
	return e;
}

/* The entry of S->pending for MESSAGE_ID, or NULL. */
struct state_entry *fsds_pending_entry(const struct fs_drafts_state *s, const char *message_id)
{
	size_t k;

	for (k = 0; s && message_id && k < s->pending->len; k++) {
		struct state_entry *e = g_ptr_array_index(s->pending, k);

		if (!strcmp(e->message_id, message_id))
			return e;
	}
	return NULL;
}

/* A draft a run noted as pending and then wrote: it is fixscan's, with
 * its digest, as if that run had finished. */
void fsds_promote_pending(struct fs_drafts_state *s, const char *message_id)
{
	struct state_entry *e = fsds_pending_entry(s, message_id);
	guint at;

	if (!e || !g_ptr_array_find(s->pending, e, &at))
		return;
	g_ptr_array_steal_index(s->pending, at);
	fsds_state_add(s, e);
	s->dirty = true;
}

/* The entry of S->deleted for KEY and DIGEST, or NULL. */
struct state_entry *fsds_deleted_entry(const struct fs_drafts_state *s, const char *key,
				       const char *digest)
{
	size_t k;

	for (k = 0; k < s->deleted->len; k++) {
		struct state_entry *e = g_ptr_array_index(s->deleted, k);

		if (!strcmp(e->key, key) && !strcmp(e->digest, digest))
			return e;
	}
	return NULL;
}
