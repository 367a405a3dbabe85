/* fixscan: writing the drafts a save decided on into the folder, with
 * the state knowing each as pending first, and indexing them. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/drafts.h"
#include "fixscan/maildir.h"
#include "fixscan/store.h"
#include "drafts-private.h"

/* Decide what draft DR (the I-th) needs and fill RES, writing nothing:
 * one to write gets its action (WROTE, REPLACED, KEPT_EDITED) and its
 * Message-Id, and no path until write_planned() writes it. */
static void plan_draft(struct fs_draft_result *res, const struct fs_draft *dr, size_t i,
		       const struct write_ctx *w)
{
	struct existing *match, *unedited = NULL, *edited = NULL;
	GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
	const struct draft_facts *f = w->facts ? &w->facts[i] : NULL;

	res->action = fsds_decide(w, dr, f, &match, &unedited, &edited, stale);
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
	struct fs_maildir_msg msg = {
		.text = dr->text, .len = dr->len, .box = FS_MAILDIR_CUR, .flags = "D", .what = "the draft",
	};
	struct state_entry *e;
	int rc = fs_maildir_write(&res->path, w->dir, &msg, err);

	if (rc < 0)
		return rc;
	if (w->state && (e = fsds_pending_entry(w->state, res->message_id)))
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

int fsds_write_all(struct fs_draft_result **results, const struct fs_drafts *d,
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
	w.found = fsds_scan(&files, dir, state);
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
	fsds_existings_free(w.found, files.n);
	fs_maildir_files_clear(&files);
	return rc;
}

int fs_drafts_write(struct fs_draft_result **results, const struct fs_drafts *d,
		    const char *dir, struct fs_drafts_state *state, struct fs_error *err)
{
	return fsds_write_all(results, d, dir, state, NULL, false, err);
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

char *fsds_shown_path(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(path, root, n) && path[n] == '/')
		return g_strdup(path + n + 1);
	return g_strdup(path);
}

int fsds_index_results(struct fs_draft_result *res, size_t n, struct fs_store *st,
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
			g_ptr_array_add(gone, fsds_shown_path(res[i].stale[k], saved->root));
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
	return fsds_index_results(res, n, st, tags, NULL, err);
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

