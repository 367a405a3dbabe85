/* fixscan: the drafts found in the folder, and the one decision about
 * each draft to save: the same said already, answered, deleted by the
 * reviewer, or to be written (replacing an unedited one, beside an
 * edited one). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/drafts.h"
#include "fixscan/mail.h"
#include "fixscan/text.h"
#include "drafts-private.h"

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

struct existing *fsds_scan(struct fs_maildir_files *files, const char *dir,
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
		fsds_promote_pending(state, v[i].message_id);
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

void fsds_existings_free(struct existing *v, size_t n)
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
/* Whether the reviewer changed E: its body no longer matches the digest
 * fixscan wrote, or the digest is unknown.  Unreadable counts as edited,
 * so it is never removed. */
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
bool fsds_is_old_id(const char *id)
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
	if (fsds_is_old_id(e->message_id))
		return g_str_has_prefix(e->message_id, prefix);
	return replies_to_key(e, dr->key);
}

static bool in_folder(const struct write_ctx *w, const char *message_id)
{
	size_t k;

	for (k = 0; k < w->nfound; k++)
		if (w->found[k].message_id && !strcmp(w->found[k].message_id, message_id))
			return true;
	return false;
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
	    !fsds_deleted_entry(w->state, latest->key, latest->digest)) {
		e = g_new0(struct state_entry, 1);
		e->message_id = g_strdup(latest->message_id);
		e->digest = g_strdup(latest->digest);
		e->key = g_strdup(latest->key);
		e->time = latest->time;
		g_ptr_array_add(w->state->deleted, e);
		w->state->dirty = true;
	}
	e = fsds_deleted_entry(w->state, dr->key, dr->digest);
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
enum fs_draft_action fsds_decide(const struct write_ctx *w, const struct fs_draft *dr,
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
