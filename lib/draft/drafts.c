/* fixscan: the drafts folder, and the one policy for saving drafts. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/drafts.h"
#include "fixscan/identity.h"
#include "fixscan/maildir.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/text.h"

/* ---- the drafts folder ------------------------------------------------------ */

char *fs_drafts_dir(const char *flag, const char *cfg, const char *root,
		    struct fs_error *err)
{
	if (flag && *flag)
		return g_strdup(flag);
	if (cfg && *cfg) {
		if (cfg[0] == '/' || !root)
			return g_strdup(cfg);
		return g_build_filename(root, cfg, NULL);
	}
	if (!root) {
		fs_error_set(err, FS_ENOTFOUND, "no drafts folder: give --drafts-dir or set fixscan.drafts");
		return NULL;
	}
	return g_build_filename(root, "Drafts", NULL);
}

char **fs_drafts_tags(const char *cfg)
{
	GPtrArray *v = g_ptr_array_new();
	char **parts;
	size_t i;

	if (cfg && *cfg) {
		parts = g_strsplit(cfg, ";", -1);
		for (i = 0; parts[i]; i++) {
			char *t = fs_text_clean_line(parts[i]);

			if (*t)
				g_ptr_array_add(v, t);
			else
				g_free(t);
		}
		g_strfreev(parts);
	}
	if (!v->len) {
		g_ptr_array_add(v, g_strdup("draft"));
		g_ptr_array_add(v, g_strdup("fixscan"));
	}
	g_ptr_array_add(v, NULL);
	return (char **)g_ptr_array_free(v, FALSE);
}

/* ---- the state file ---------------------------------------------------------- */

/* One draft fixscan wrote. */
struct state_entry {
	char *message_id;
	char *digest;
	char *key;
	gint64 time;
};

struct fs_drafts_state {
	char *path;
	GPtrArray *entries;   /* struct state_entry *, in the order written */
	GHashTable *by_id;    /* message id -> entry */
	GHashTable *latest;   /* key -> its newest entry */
	/* Drafts the reviewer was seen to delete (their entries, moved
	 * here): what they said stays unsaid. */
	GPtrArray *deleted;
	GPtrArray *pending;   /* drafts about to be written (PENDING_PREFIX) */
	bool dirty;
};

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

static void state_add(struct fs_drafts_state *s, struct state_entry *e)
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
		state_add(s, e);
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
	state_add(s, e);
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

/* ---- writing ---------------------------------------------------------------- */

/* A draft found in the folder. */
struct existing {
	char *path;       /* borrowed from the scan */
	char *key;        /* from the state file or an old X-Fixscan-Key, or NULL */
	char *digest;     /* the digest it was written with, or NULL */
	char *message_id;
	char *in_reply_to; /* the id of the mail it answers, or NULL */
	int edited;       /* -1 not yet known, 0 no, 1 yes */
};

/* A header value of a found file, cleaned the way drafts clean theirs. */
static char *found_header(const struct fs_maildir_file *f, const char *name)
{
	char *raw = fs_maildir_header(f->headers, name), *ret;

	if (!raw)
		return NULL;
	ret = fs_text_clean_line(raw);
	g_free(raw);
	return ret;
}

/* Every mail of DIR, as struct existing (free with existings_free());
 * the paths are borrowed from *FILES.  Key and digest come from STATE,
 * else from the headers drafts of older versions carry. */
/* The entry of S->pending for MESSAGE_ID, or NULL. */
static struct state_entry *pending_entry(const struct fs_drafts_state *s, const char *message_id)
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
static void promote_pending(struct fs_drafts_state *s, const char *message_id)
{
	struct state_entry *e = pending_entry(s, message_id);
	guint at;

	if (!e || !g_ptr_array_find(s->pending, e, &at))
		return;
	g_ptr_array_steal_index(s->pending, at);
	state_add(s, e);
	s->dirty = true;
}

static struct existing *scan_drafts(struct fs_maildir_files *files, const char *dir,
				    struct fs_drafts_state *state)
{
	struct existing *v;
	size_t i;

	fs_maildir_scan(files, dir, "Message-Id", NULL);
	v = g_new0(struct existing, files->n + 1);
	for (i = 0; i < files->n; i++) {
		char *id = found_header(&files->v[i], "Message-Id");
		const char *key, *digest;

		v[i].path = files->v[i].path;
		v[i].message_id = fs_text_clean_id(id);
		promote_pending(state, v[i].message_id);
		if (fs_drafts_state_find(state, v[i].message_id, &key, &digest)) {
			v[i].key = g_strdup(key);
			v[i].digest = g_strdup(digest);
		} else {
			v[i].key = found_header(&files->v[i], "X-Fixscan-Key");
			v[i].digest = found_header(&files->v[i], "X-Fixscan-Digest");
		}
		v[i].edited = -1;
		g_free(id);
		id = found_header(&files->v[i], "In-Reply-To");
		v[i].in_reply_to = fs_text_clean_id(id);
		g_free(id);
	}
	return v;
}

static void existings_free(struct existing *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		g_free(v[i].key);
		g_free(v[i].digest);
		g_free(v[i].message_id);
		g_free(v[i].in_reply_to);
	}
	g_free(v);
}

/* Whether the reviewer changed E: its body no longer matches the digest
 * fixscan wrote, or the digest is unknown.  Unreadable counts as edited,
 * so it is never removed. */
/* The digest of the body of the mail PATH as it is now (new string), or
 * NULL when it cannot be read. */
static char *body_digest(const char *path)
{
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *body;
	char *digest = NULL;
	size_t len;

	if (fs_patch_parse_file(&p, path, &err) == 0 && (body = fs_patch_body(p, &len)))
		digest = fs_draft_digest(body, len);
	fs_patch_free(p);
	return digest;
}

static bool is_edited(struct existing *e)
{
	char *digest;

	if (e->edited >= 0)
		return e->edited;
	e->edited = 1;
	if (!e->digest || !(digest = body_digest(e->path)))
		return true;
	e->edited = strcmp(digest, e->digest) != 0;
	g_free(digest);
	return e->edited;
}

/* E may be DR's (an earlier version's Message-Id for DR's key, or the
 * same mail answered) but no key or digest is known (a state file set
 * aside, a run with another one): when its body is the one DR has,
 * fixscan wrote it for DR, unedited, and it is taken as such.
 * Otherwise what it said cannot be told from an edit, and it stays. */
static void adopt_if_same(struct existing *e, const struct fs_draft *dr)
{
	char *digest;

	if (e->key || e->digest || !(digest = body_digest(e->path)))
		return;
	if (!strcmp(digest, dr->digest)) {
		e->key = g_strdup(dr->key);
		e->digest = g_strdup(dr->digest);
		e->edited = 0;
	}
	g_free(digest);
}

/* Whether ID is the Message-Id of a draft of an earlier version:
 * "fixscan", a dot and a hash of its key (fs_draft_id_prefix()). */
static bool is_old_id(const char *id)
{
	return id && g_str_has_prefix(id, "fixscan") && id[strlen("fixscan")] == '.';
}

/* Whether E, whose key is not known (a draft of an earlier version, or
 * one the state forgot), answers the mail of KEY ("patch <id>"): its
 * In-Reply-To names it. */
static bool replies_to_key(const struct existing *e, const char *key)
{
	const char *lt = strchr(key, '<');
	size_t n = e->in_reply_to ? strlen(e->in_reply_to) : 0;

	return n && lt && !strncmp(lt + 1, e->in_reply_to, n) && lt[1 + n] == '>' && !lt[2 + n];
}

/* Whether E is a draft answering DR's key: by the key remembered for it
 * (the state, an old X-Fixscan-Key), by the Message-Id earlier versions
 * gave every draft for the key (PREFIX, fs_draft_id_prefix()), or, for
 * a draft nothing is known of (a state file set aside), by answering the
 * same mail: sort_found() then takes it as fixscan's when its body is
 * DR's (adopt_if_same()), else as the reviewer's, never to be removed. */
static bool answers_key(const struct existing *e, const struct fs_draft *dr, const char *prefix)
{
	if (e->key)
		return !strcmp(e->key, dr->key);
	if (is_old_id(e->message_id))
		return g_str_has_prefix(e->message_id, prefix);
	return replies_to_key(e, dr->key);
}

/* What the store says about one draft, found before writing. */
struct draft_facts {
	bool answered;  /* the reviewer has answered the mail it answers */
	bool elsewhere; /* its latest earlier draft is in the store, with a
			 * file, though maybe not in the folder */
};

/* How one run writes: the folder, what was found in it, what is known. */
struct write_ctx {
	const char *dir;
	struct existing *found;
	size_t nfound;
	struct fs_drafts_state *state;
	const struct draft_facts *facts; /* one per draft, or NULL */
	bool force;
};

static bool in_folder(const struct write_ctx *w, const char *message_id)
{
	size_t k;

	for (k = 0; k < w->nfound; k++)
		if (w->found[k].message_id && !strcmp(w->found[k].message_id, message_id))
			return true;
	return false;
}

static struct state_entry *deleted_entry(const struct fs_drafts_state *s, const char *key,
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

/* Whether DR says what the reviewer deleted.  The latest draft fixscan
 * wrote for DR's key, in neither the folder nor (with a file, ELSEWHERE)
 * the store, was deleted: that is remembered whatever DR says, so that a
 * run saying something else in between (review --all-open adds
 * cross-branch findings) does not bring back what was deleted.  --force
 * forgets it. */
static bool was_deleted(const struct write_ctx *w, const struct fs_draft *dr, bool elsewhere)
{
	struct state_entry *latest, *e;

	if (!w->state)
		return false;
	latest = g_hash_table_lookup(w->state->latest, dr->key);
	if (latest && !elsewhere && !in_folder(w, latest->message_id) &&
	    !deleted_entry(w->state, latest->key, latest->digest)) {
		e = g_new0(struct state_entry, 1);
		e->message_id = g_strdup(latest->message_id);
		e->digest = g_strdup(latest->digest);
		e->key = g_strdup(latest->key);
		e->time = latest->time;
		g_ptr_array_add(w->state->deleted, e);
		w->state->dirty = true;
	}
	e = deleted_entry(w->state, dr->key, dr->digest);
	if (e && w->force) {
		g_ptr_array_remove(w->state->deleted, e);  /* frees it */
		w->state->dirty = true;
		return false;
	}
	return e != NULL;
}

/* The drafts of DR's key in the folder: the one saying the same as DR,
 * the first unedited and first edited other one, and the paths of all
 * unedited others in STALE. */
static struct existing *sort_found(const struct write_ctx *w, const struct fs_draft *dr,
				   struct existing **unedited, struct existing **edited,
				   GPtrArray *stale)
{
	struct existing *match = NULL;
	char *prefix = fs_draft_id_prefix(dr->key);
	size_t k;

	for (k = 0; k < w->nfound; k++) {
		struct existing *e = &w->found[k];

		if (!answers_key(e, dr, prefix))
			continue;
		adopt_if_same(e, dr);
		if (!match && e->digest && !strcmp(e->digest, dr->digest)) {
			match = e;
			continue;
		}
		if (is_edited(e)) {
			if (!*edited)
				*edited = e;
		} else {
			if (!*unedited)
				*unedited = e;
			g_ptr_array_add(stale, g_strdup(e->path));
		}
	}
	g_free(prefix);
	return match;
}

/* What DR needs, the one decision of a save and of
 * fs_drafts_drop_skipped(): FS_DRAFT_SKIPPED_ANSWERED (F says the
 * reviewer answered), FS_DRAFT_UNCHANGED(_EDITED) (*MATCH in the folder
 * says the same), FS_DRAFT_SKIPPED_DELETED, or FS_DRAFT_WROTE: it is to
 * be written, replacing *UNEDITED or beside *EDITED (sort_found(), which
 * also fills STALE). */
static enum fs_draft_action decide(const struct write_ctx *w, const struct fs_draft *dr,
				   const struct draft_facts *f, struct existing **match,
				   struct existing **unedited, struct existing **edited,
				   GPtrArray *stale)
{
	*match = sort_found(w, dr, unedited, edited, stale);
	if (f && f->answered)
		return FS_DRAFT_SKIPPED_ANSWERED;
	if (*match)
		return is_edited(*match) ? FS_DRAFT_UNCHANGED_EDITED : FS_DRAFT_UNCHANGED;
	if (was_deleted(w, dr, f && f->elsewhere))
		return FS_DRAFT_SKIPPED_DELETED;
	return FS_DRAFT_WROTE;
}

/* Decide what draft DR (the I-th) needs and fill RES, writing nothing:
 * one to write gets its action (WROTE, REPLACED, KEPT_EDITED) and its
 * Message-Id, and no path until write_planned() writes it. */
static void plan_draft(struct fs_draft_result *res, const struct fs_draft *dr, size_t i,
		       const struct write_ctx *w)
{
	struct existing *match, *unedited = NULL, *edited = NULL;
	GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
	const struct draft_facts *f = w->facts ? &w->facts[i] : NULL;

	res->action = decide(w, dr, f, &match, &unedited, &edited, stale);
	if (res->action == FS_DRAFT_UNCHANGED || res->action == FS_DRAFT_UNCHANGED_EDITED) {
		res->path = g_strdup(match->path);
		res->message_id = g_strdup(match->message_id);
		/* The draft in the folder now is the one to know next time. */
		fs_drafts_state_note(w->state, dr->key, res->message_id, dr->digest, time(NULL));
	} else if (res->action != FS_DRAFT_WROTE) {
		/* skipped: whatever is in the folder for it stays as it is */
		g_ptr_array_set_size(stale, 0);
	} else {
		res->message_id = g_strdup(dr->message_id);
		if (unedited) {
			res->action = FS_DRAFT_REPLACED;
			res->other = g_strdup(unedited->path);
		} else if (edited) {
			res->action = FS_DRAFT_KEPT_EDITED;
			res->other = g_strdup(edited->path);
		}
	}
	if (stale->len) {
		g_ptr_array_add(stale, NULL);
		res->stale = (char **)g_ptr_array_free(stale, FALSE);
	} else {
		g_ptr_array_free(stale, TRUE);
	}
}

static bool is_planned(const struct fs_draft_result *res)
{
	return !res->path && (res->action == FS_DRAFT_WROTE || res->action == FS_DRAFT_REPLACED ||
			      res->action == FS_DRAFT_KEPT_EDITED);
}

/* Write the planned draft DR (RES) into the folder; the state then knows
 * it as written, no longer as pending. */
static int write_planned(struct fs_draft_result *res, const struct fs_draft *dr,
			 const struct write_ctx *w, struct fs_error *err)
{
	struct fs_maildir_msg msg = { dr->text, dr->len, FS_MAILDIR_CUR, "D", NULL, "the draft" };
	struct state_entry *e;
	int rc = fs_maildir_write(&res->path, w->dir, &msg, err);

	if (rc < 0)
		return rc;
	if (w->state && (e = pending_entry(w->state, res->message_id)))
		g_ptr_array_remove(w->state->pending, e);  /* frees it */
	fs_drafts_state_note(w->state, dr->key, res->message_id, dr->digest, time(NULL));
	return 0;
}

/* Note in STATE, and save there, every planned draft of RES (N) as
 * pending before any is written: a run killed while writing leaves
 * drafts the next run knows, not drafts it would take for the
 * reviewer's.  Pending entries whose file never came are dropped by the
 * next run (forget_pending()). */
static int note_pending(struct fs_drafts_state *state, const struct fs_draft_result *res,
			const struct fs_drafts *d, struct fs_error *err)
{
	size_t i;
	bool any = false;

	for (i = 0; state && i < d->n; i++) {
		struct state_entry *e;

		if (!is_planned(&res[i]))
			continue;
		e = g_new0(struct state_entry, 1);
		e->message_id = g_strdup(res[i].message_id);
		e->digest = g_strdup(d->v[i].digest);
		e->key = g_strdup(d->v[i].key);
		e->time = time(NULL);
		g_ptr_array_add(state->pending, e);
		any = state->dirty = true;
	}
	return any ? fs_drafts_state_save(state, err) : 0;
}

/* The pending drafts of STATE whose file is not in the folder (the scan
 * promoted the others) never were written: forgotten. */
static void forget_pending(struct fs_drafts_state *state)
{
	if (state && state->pending->len) {
		g_ptr_array_set_size(state->pending, 0);
		state->dirty = true;
	}
}

/* fs_drafts_write() with FACTS (one per draft, or NULL) and FORCE. */
static int write_all(struct fs_draft_result **results, const struct fs_drafts *d,
		     const char *dir, struct fs_drafts_state *state,
		     const struct draft_facts *facts, bool force, struct fs_error *err)
{
	struct fs_maildir_files files = FS_MAILDIR_FILES_INIT;
	struct write_ctx w = { dir, NULL, 0, state, facts, force };
	struct fs_draft_result *res;
	size_t i;
	int rc;

	res = *results = g_new0(struct fs_draft_result, d->n ? d->n : 1);
	rc = fs_maildir_create(dir, "the drafts folder", err);
	if (rc < 0)
		return rc;
	w.found = scan_drafts(&files, dir, state);
	w.nfound = files.n;
	forget_pending(state);
	for (i = 0; i < d->n; i++)
		plan_draft(&res[i], &d->v[i], i, &w);
	rc = note_pending(state, res, d, err);
	for (i = 0; i < d->n && rc == 0; i++)
		if (is_planned(&res[i]))
			rc = write_planned(&res[i], &d->v[i], &w, err);
	/* What was not written replaces nothing. */
	for (i = 0; rc < 0 && i < d->n; i++) {
		if (!is_planned(&res[i]))
			continue;
		g_clear_pointer(&res[i].stale, g_strfreev);
		g_clear_pointer(&res[i].message_id, g_free);
		g_clear_pointer(&res[i].other, g_free);
	}
	existings_free(w.found, files.n);
	fs_maildir_files_clear(&files);
	return rc;
}

int fs_drafts_write(struct fs_draft_result **results, const struct fs_drafts *d,
		    const char *dir, struct fs_drafts_state *state, struct fs_error *err)
{
	return write_all(results, d, dir, state, NULL, false, err);
}

void fs_draft_results_free(struct fs_draft_result *res, size_t n)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < n; i++) {
		g_free(res[i].path);
		g_free(res[i].message_id);
		g_free(res[i].other);
		g_strfreev(res[i].stale);
	}
	g_free(res);
}

/* ---- indexing --------------------------------------------------------------- */

/* PATH as shown to the user: relative to ROOT when inside it.  New string. */
static char *shown_path(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(path, root, n) && path[n] == '/')
		return g_strdup(path + n + 1);
	return g_strdup(path);
}

/* fs_drafts_index(), also noting in SAVED (when not NULL) which stale
 * files were removed. */
static int index_results(struct fs_draft_result *res, size_t n, struct fs_store *st,
			 const char *const *tags, struct fs_drafts_saved *saved,
			 struct fs_error *err)
{
	size_t i, k;
	int rc;

	for (i = 0; st && i < n; i++) {
		if (!res[i].path || res[i].indexed)
			continue;
		rc = fs_store_index_file(st, res[i].path, tags, err);
		if (rc < 0)
			return rc;
		res[i].indexed = true;
	}
	/* Only now that the new drafts are safe in the database do the
	 * outdated ones go; a run that stops before here leaves them for
	 * the next run, which finds them stale again. */
	for (i = 0; i < n; i++) {
		GPtrArray *gone = NULL;

		for (k = 0; res[i].stale && res[i].stale[k]; k++) {
			rc = st ? fs_store_remove_file(st, res[i].stale[k], err) : 0;
			if (rc == 0 && unlink(res[i].stale[k]) < 0 && errno != ENOENT)
				rc = fs_error_set(err, FS_EIO, "cannot remove the outdated draft '%s': %s",
						  res[i].stale[k], strerror(errno));
			if (rc < 0)
				break;
			if (!saved)
				continue;
			if (!gone)
				gone = g_ptr_array_new();
			g_ptr_array_add(gone, shown_path(res[i].stale[k], saved->root));
		}
		if (gone) {
			g_ptr_array_add(gone, NULL);
			saved->v[i].removed = (char **)g_ptr_array_free(gone, FALSE);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int fs_drafts_index(struct fs_draft_result *res, size_t n, struct fs_store *st,
		    const char *const *tags, struct fs_error *err)
{
	return index_results(res, n, st, tags, NULL, err);
}

void fs_drafts_check_indexed(struct fs_draft_result *res, size_t n, struct fs_store *st)
{
	size_t i;

	for (i = 0; st && i < n; i++) {
		struct fs_store_message m;
		struct fs_error err = FS_ERROR_INIT;

		if (!res[i].path || res[i].indexed || !res[i].message_id)
			continue;
		if (fs_store_find_message(st, res[i].message_id, &m, &err) == 0) {
			res[i].indexed = true;
			fs_store_message_clear(&m);
		}
	}
}

bool fs_drafts_need_store(const struct fs_draft_result *res, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((res[i].path && !res[i].indexed) || res[i].stale)
			return true;
	return false;
}

/* ---- the policy ------------------------------------------------------------- */

void fs_drafts_saved_clear(struct fs_drafts_saved *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		g_free(s->v[i].label);
		g_free(s->v[i].path);
		g_free(s->v[i].other);
		g_strfreev(s->v[i].removed);
	}
	g_free(s->v);
	g_free(s->dir);
	g_free(s->root);
	memset(s, 0, sizeof(*s));
}

/* Whether P answers TARGET: its In-Reply-To names it, or (unless
 * DIRECT) its References do, as in a reply further down the patch's
 * thread; with DIRECT, only a mail whose parent is TARGET, since every
 * reply to a patch names the cover in its References too. */
static bool names_target(const struct fs_patch *p, const char *target, bool direct)
{
	const char *irt = fs_patch_in_reply_to(p);
	const char *const *refs;
	size_t n, i;

	if (irt && !strcmp(irt, target))
		return true;
	refs = fs_patch_references(p, &n);
	if (direct)
		return !irt && n && !strcmp(refs[n - 1], target);
	for (i = 0; i < n; i++)
		if (!strcmp(refs[i], target))
			return true;
	return false;
}

/* Whether P is a draft mutt (or neomutt) postponed: it writes the Fcc
 * to use when it is sent into the postponed copy only, and may write
 * that copy into new/ without the draft flag.  A recalled draft edited
 * and postponed again is no answer. */
static bool is_postponed(const struct fs_patch *p)
{
	return fs_patch_header(p, "X-Mutt-Fcc") || fs_patch_header(p, "X-Mutt-PGP");
}

/* Whether the store ST holds a mail From one of OWN, not an unsent
 * draft, answering the mail the draft with KEY ("patch <id>" or
 * "summary <id>") answers: wherever it is kept (a Sent folder, the
 * list's copy), it is in that mail's thread. */
static bool is_answered(struct fs_store *st, const char *key, const char *const *own)
{
	const char *lt = strchr(key, '<'), *gt = lt ? strrchr(lt, '>') : NULL;
	struct fs_store_messages msgs = { NULL, 0 };
	struct fs_store_message m;
	bool found = false;
	char *target;
	size_t i;

	if (!lt || !gt || gt < lt)
		return false;
	target = g_strndup(lt + 1, gt - lt - 1);
	if (fs_store_find_message(st, target, &m, NULL) == 0) {
		if (fs_store_thread(st, m.thread_id, &msgs, NULL) < 0)
			msgs.n = 0;
		fs_store_message_clear(&m);
	}
	for (i = 0; i < msgs.n && !found; i++) {
		struct fs_patch *p = NULL;
		struct fs_error perr = FS_ERROR_INIT;

		if (!fs_identity_is_own_address(msgs.v[i].from, own) ||
		    fs_identity_is_draft_file(msgs.v[i].filename))
			continue;
		if (fs_patch_parse_file(&p, msgs.v[i].filename, &perr) == 0 && !is_postponed(p))
			found = names_target(p, target, g_str_has_prefix(key, "summary "));
		fs_patch_free(p);
	}
	fs_store_messages_free(&msgs);
	g_free(target);
	return found;
}

bool fs_drafts_answered(struct fs_store *st, const char *message_id, const char *const *own)
{
	char *key;
	bool answered;

	if (!st || !message_id || !own || !*own)
		return false;
	key = g_strdup_printf("patch <%s>", message_id);
	answered = is_answered(st, key, own);
	g_free(key);
	return answered;
}

/* What the store ST (may be NULL) says about each draft of D: a new
 * array of D->n. */
static struct draft_facts *find_facts(const struct fs_drafts *d, struct fs_store *st,
				      const struct fs_drafts_state *state,
				      const char *const *own)
{
	struct draft_facts *facts = g_new0(struct draft_facts, d->n + 1);
	size_t i;

	for (i = 0; st && i < d->n; i++) {
		struct fs_store_message m;
		const char *id, *digest;

		facts[i].answered = own && *own && is_answered(st, d->v[i].key, own);
		if (fs_drafts_state_latest(state, d->v[i].key, &id, &digest) &&
		    fs_store_find_message(st, id, &m, NULL) == 0) {
			facts[i].elsewhere = !m.gone;
			fs_store_message_clear(&m);
		}
	}
	return facts;
}

/* Forget the GONE files in the writable store ST. */
static int forget_gone(struct fs_store *st, GPtrArray *gone, struct fs_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; st && gone && i < gone->len && rc == 0; i++)
		rc = fs_store_remove_file(st, g_ptr_array_index(gone, i), err);
	return rc;
}

/* Index RES (N) into a writable store, which replaces the read-only
 * *STORE for the time it takes. */
static int index_writable(struct fs_draft_result *res, size_t n, struct fs_store **store,
			  const struct fs_drafts_save_opts *opts, GPtrArray *gone,
			  struct fs_drafts_saved *out, struct fs_error *err)
{
	char **deftags = opts->tags ? NULL : fs_drafts_tags(NULL);
	const char *const *tags = opts->tags ? opts->tags : (const char *const *)deftags;
	struct fs_store *wst = NULL;
	int rc;

	fs_store_free(*store);
	*store = NULL;
	rc = fs_store_open(&wst, true, opts->lock_wait, err);
	if (rc == 0)
		rc = index_results(res, n, wst, tags, out, err);
	if (rc == 0)
		rc = forget_gone(wst, gone, err);
	fs_store_free(wst);
	g_strfreev(deftags);
	return rc;
}

int fs_drafts_drop_skipped(struct fs_drafts *d, const char *dir, struct fs_store *store,
			   const struct fs_drafts_save_opts *opts, size_t *answered,
			   size_t *deleted, struct fs_error *err)
{
	struct fs_maildir_files files = FS_MAILDIR_FILES_INIT;
	struct fs_drafts_state *state = NULL;
	struct write_ctx w = { dir, NULL, 0, NULL, NULL, opts->force };
	struct draft_facts *facts;
	size_t i, kept = 0;
	int rc;

	*answered = *deleted = 0;
	if (opts->state_file && (rc = fs_drafts_state_load(&state, opts->state_file, err)) < 0)
		return rc;
	facts = find_facts(d, store, state, opts->own);
	w.state = state;
	w.facts = facts;
	w.found = scan_drafts(&files, dir, state);
	w.nfound = files.n;
	/* The same decisions as write_draft(), nothing written: the state
	 * is read, never saved. */
	for (i = 0; i < d->n; i++) {
		struct existing *match = NULL, *unedited = NULL, *edited = NULL;
		GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
		enum fs_draft_action a = decide(&w, &d->v[i], &facts[i], &match, &unedited,
						&edited, stale);

		g_ptr_array_free(stale, TRUE);
		*answered += a == FS_DRAFT_SKIPPED_ANSWERED;
		*deleted += a == FS_DRAFT_SKIPPED_DELETED;
		if (a == FS_DRAFT_SKIPPED_ANSWERED || a == FS_DRAFT_SKIPPED_DELETED)
			fs_draft_clear(&d->v[i]);
		else
			d->v[kept++] = d->v[i];
	}
	d->n = kept;
	existings_free(w.found, files.n);
	fs_maildir_files_clear(&files);
	g_free(facts);
	fs_drafts_state_free(state);
	return 0;
}

/* The files of drafts fixscan wrote for the keys of D (as STATE knows
 * them) that the store ST still has though they are gone from the disk
 * (a run killed between removing an outdated draft and the database
 * taking note): a new array of paths, to forget. */
static GPtrArray *find_gone(const struct fs_drafts *d, struct fs_store *st,
			    const struct fs_drafts_state *state)
{
	GPtrArray *gone = g_ptr_array_new_with_free_func(g_free);
	GHashTable *keys = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, k;

	for (i = 0; i < d->n; i++)
		g_hash_table_add(keys, d->v[i].key);
	for (k = 0; st && state && k < 2; k++) {
		GPtrArray *v = k ? state->deleted : state->entries;

		for (i = 0; i < v->len; i++) {
			const struct state_entry *e = g_ptr_array_index(v, i);
			struct fs_store_message m;

			if (!g_hash_table_contains(keys, e->key) ||
			    fs_store_find_message(st, e->message_id, &m, NULL) < 0)
				continue;
			if (m.gone && m.filename)
				g_ptr_array_add(gone, g_strdup(m.filename));
			fs_store_message_clear(&m);
		}
	}
	g_hash_table_destroy(keys);
	return gone;
}

/* fs_drafts_save(), holding the folder's lock. */
/* Whether a file a killed run left in tmp/ with Message-Id ID is
 * fixscan's: the state DATA has it pending, or it is an earlier
 * version's. */
static bool is_swept_id(const char *id, void *data)
{
	return is_old_id(id) || pending_entry(data, id);
}

static int save_locked(struct fs_drafts_saved *out, const struct fs_drafts *d,
		       struct fs_store **store, const struct fs_drafts_save_opts *opts,
		       struct fs_error *err)
{
	struct fs_draft_result *res = NULL;
	GPtrArray *gone = NULL;
	struct fs_error ierr = FS_ERROR_INIT, serr = FS_ERROR_INIT;
	struct fs_drafts_state *state = NULL;
	struct draft_facts *facts;
	bool *was;
	size_t i, unindexed = 0;
	int rc, irc = 0, srerr;

	if (opts->state_file && (rc = fs_drafts_state_load(&state, opts->state_file, err)) < 0) {
		out->n = 0;  /* nothing was done */
		return rc;
	}
	/* A run killed while writing left its file in tmp/: its Message-Id
	 * is on a pending line (or it is an earlier version's, is_old_id()). */
	fs_maildir_sweep_tmp_by(out->dir, is_swept_id, state);
	facts = find_facts(d, *store, state, opts->own);
	if (!out->outside)
		gone = find_gone(d, *store, state);
	rc = write_all(&res, d, out->dir, state, facts, opts->force, err);
	g_free(facts);
	out->complete = rc == 0;
	/* Remembered even when writing stopped half way: what was written
	 * is fixscan's. */
	srerr = state ? fs_drafts_state_save(state, &serr) : 0;
	fs_drafts_state_free(state);
	if (!out->outside)
		fs_drafts_check_indexed(res, d->n, *store);
	was = g_new0(bool, d->n + 1);
	for (i = 0; i < d->n; i++) {
		was[i] = res[i].indexed;
		unindexed += res[i].path && !res[i].indexed;
	}
	/* Index even after a failed write: what was written must not wait
	 * for the next run. */
	if (out->outside)
		irc = index_results(res, d->n, NULL, NULL, out, &ierr);
	else if (fs_drafts_need_store(res, d->n) || gone->len)
		irc = index_writable(res, d->n, store, opts, gone, out, &ierr);
	if (gone)
		g_ptr_array_free(gone, TRUE);

	for (i = 0; i < d->n; i++) {
		struct fs_drafts_saved_draft *s = &out->v[i];
		bool kept = res[i].action == FS_DRAFT_UNCHANGED ||
			res[i].action == FS_DRAFT_UNCHANGED_EDITED;

		s->action = res[i].action;
		s->label = g_strdup(d->v[i].label);
		s->path = res[i].path ? shown_path(res[i].path, out->root) : NULL;
		s->other = res[i].other ? shown_path(res[i].other, out->root) : NULL;
		s->indexed_now = kept && res[i].indexed && !was[i];
		out->answered += res[i].action == FS_DRAFT_SKIPPED_ANSWERED;
		out->deleted += res[i].action == FS_DRAFT_SKIPPED_DELETED;
	}
	fs_draft_results_free(res, d->n);
	g_free(was);
	if (rc < 0) {
		/* ERR holds the first failure; keep the second for the caller. */
		if (irc < 0)
			out->index_err = ierr;
		return rc;
	}
	if (irc < 0) {
		*err = ierr;
		if (irc == FS_ELOCKED && unindexed)
			fs_error_prefix(err, "%zu draft%s written but not indexed (run again to index %s)",
					unindexed, unindexed == 1 ? "" : "s",
					unindexed == 1 ? "it" : "them");
		return irc;
	}
	if (srerr < 0) {
		/* The drafts are fine; the next run would not know them. */
		*err = serr;
		fs_error_prefix(err, "the drafts are saved, but fixscan cannot remember them");
	}
	return srerr;
}

/* A lock on the folder of the state file PATH (created when missing):
 * two drafts folders may share one state file.  The descriptor, -1
 * without PATH, or a negative code with ERR set. */
static int lock_state(const char *path, struct fs_error *err)
{
	char *dir;
	int fd;

	if (!path)
		return -1;
	dir = g_path_get_dirname(path);
	if (g_mkdir_with_parents(dir, 0700) < 0)
		fd = fs_error_set(err, FS_EIO, "cannot create '%s': %s", dir, g_strerror(errno));
	else
		fd = fs_maildir_lock(dir, FS_MAILDIR_LOCK_WAIT, "the fixscan state folder", err);
	g_free(dir);
	return fd;
}

int fs_drafts_save(struct fs_drafts_saved *out, const struct fs_drafts *d,
		   const char *dir, struct fs_store **store,
		   const struct fs_drafts_save_opts *opts, struct fs_error *err)
{
	static const struct fs_drafts_save_opts defaults = FS_DRAFTS_SAVE_OPTS_INIT;
	size_t rlen;
	int rc, lock, slock = -1;

	if (!opts)
		opts = &defaults;
	memset(out, 0, sizeof(*out));
	out->dir = g_canonicalize_filename(dir, NULL);
	out->root = *store ? g_canonicalize_filename(fs_store_path(*store), NULL) : NULL;
	rlen = out->root ? strlen(out->root) : 0;
	out->outside = !out->root || strncmp(out->dir, out->root, rlen) || out->dir[rlen] != '/';
	out->n = d->n;
	out->v = g_new0(struct fs_drafts_saved_draft, d->n + 1);

	/* One run at a time writes into a folder (and its state file): a
	 * second one waits, then finds the first one's drafts as known
	 * ones rather than as the reviewer's. */
	rc = lock = fs_maildir_create(out->dir, "the drafts folder", err);
	if (rc == 0)
		rc = lock = fs_maildir_lock(out->dir, FS_MAILDIR_LOCK_WAIT, "the drafts folder", err);
	if (rc >= 0)
		rc = slock = lock_state(opts->state_file, err);
	if (rc < -1 || (rc == -1 && opts->state_file)) {
		fs_maildir_unlock(lock);
		out->n = 0;  /* nothing was done */
		return rc;
	}
	rc = save_locked(out, d, store, opts, err);
	fs_maildir_unlock(slock);
	fs_maildir_unlock(lock);
	return rc;
}
