/* fixscan: the drafts folder, and the one policy for saving drafts. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/drafts.h"
#include "fixscan/maildir.h"
#include "fixscan/mail.h"

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
			char *t = fs_draft_clean_line(parts[i]);

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

/* ---- writing ---------------------------------------------------------------- */

/* A draft found in the folder. */
struct existing {
	char *path;       /* borrowed from the scan */
	char *key;
	char *digest;     /* the X-Fixscan-Digest header, or NULL */
	char *message_id;
	int edited;       /* -1 not yet known, 0 no, 1 yes */
};

/* A header value of a found file, cleaned the way drafts clean theirs. */
static char *found_header(const struct fs_maildir_file *f, const char *name)
{
	char *raw = fs_maildir_header(f->headers, name), *ret;

	if (!raw)
		return NULL;
	ret = fs_draft_clean_line(raw);
	g_free(raw);
	return ret;
}

/* Every draft of DIR that carries an X-Fixscan-Key, as struct existing
 * (free with existings_free()); the paths are borrowed from *FILES. */
static struct existing *scan_drafts(struct fs_maildir_files *files, const char *dir)
{
	struct existing *v;
	size_t i;

	fs_maildir_scan(files, dir, "X-Fixscan-Key", NULL);
	v = g_new0(struct existing, files->n + 1);
	for (i = 0; i < files->n; i++) {
		char *id = found_header(&files->v[i], "Message-Id");

		v[i].path = files->v[i].path;
		v[i].key = found_header(&files->v[i], "X-Fixscan-Key");
		v[i].digest = found_header(&files->v[i], "X-Fixscan-Digest");
		v[i].message_id = fs_draft_clean_id(id);
		v[i].edited = -1;
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
	}
	g_free(v);
}

/* Whether the reviewer changed E: its body no longer matches the digest
 * fixscan wrote, or the digest is gone.  Unreadable counts as edited, so
 * it is never removed. */
static bool is_edited(struct existing *e)
{
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *body;
	size_t len;
	char *digest;

	if (e->edited >= 0)
		return e->edited;
	e->edited = 1;
	if (!e->digest || fs_patch_parse_file(&p, e->path, &err) < 0)
		return true;
	body = fs_patch_body(p, &len);
	if (body) {
		digest = fs_draft_digest(body, len);
		e->edited = strcmp(digest, e->digest) != 0;
		g_free(digest);
	}
	fs_patch_free(p);
	return e->edited;
}

/* Decide and do what draft DR needs, given the drafts FOUND (NFOUND) in
 * the folder, and fill RES. */
static int write_draft(struct fs_draft_result *res, const struct fs_draft *dr,
		       struct existing *found, size_t nfound, const char *dir,
		       struct fs_error *err)
{
	struct existing *match = NULL, *unedited = NULL, *edited = NULL;
	GPtrArray *stale = g_ptr_array_new();
	struct fs_maildir_msg msg = { dr->text, dr->len, FS_MAILDIR_CUR, "D", NULL, "the draft" };
	size_t k;
	int rc = 0;

	for (k = 0; k < nfound; k++) {
		struct existing *e = &found[k];

		if (!e->key || strcmp(e->key, dr->key))
			continue;
		if (!match && e->digest && !strcmp(e->digest, dr->digest)) {
			match = e;
			continue;
		}
		if (is_edited(e)) {
			if (!edited)
				edited = e;
		} else {
			if (!unedited)
				unedited = e;
			g_ptr_array_add(stale, g_strdup(e->path));
		}
	}
	if (match) {
		res->action = is_edited(match) ? FS_DRAFT_UNCHANGED_EDITED : FS_DRAFT_UNCHANGED;
		res->path = g_strdup(match->path);
		res->message_id = g_strdup(match->message_id);
	} else {
		rc = fs_maildir_write(&res->path, dir, &msg, err);
		if (rc < 0) {
			g_ptr_array_free(stale, TRUE);
			return rc;
		}
		res->message_id = g_strdup(dr->message_id);
		if (unedited) {
			res->action = FS_DRAFT_REPLACED;
			res->other = g_strdup(unedited->path);
		} else if (edited) {
			res->action = FS_DRAFT_KEPT_EDITED;
			res->other = g_strdup(edited->path);
		} else {
			res->action = FS_DRAFT_WROTE;
		}
	}
	if (stale->len) {
		g_ptr_array_add(stale, NULL);
		res->stale = (char **)g_ptr_array_free(stale, FALSE);
	} else {
		g_ptr_array_free(stale, TRUE);
	}
	return 0;
}

int fs_drafts_write(struct fs_draft_result **results, const struct fs_drafts *d,
		    const char *dir, struct fs_error *err)
{
	struct fs_maildir_files files = FS_MAILDIR_FILES_INIT;
	struct existing *found;
	size_t i;
	int rc;

	*results = g_new0(struct fs_draft_result, d->n ? d->n : 1);
	rc = fs_maildir_create(dir, "the drafts folder", err);
	if (rc < 0)
		return rc;
	found = scan_drafts(&files, dir);
	for (i = 0; i < d->n && rc == 0; i++)
		rc = write_draft(&(*results)[i], &d->v[i], found, files.n, dir, err);
	existings_free(found, files.n);
	fs_maildir_files_clear(&files);
	return rc;
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

/* Index RES (N) into a writable store, which replaces the read-only
 * *STORE for the time it takes. */
static int index_writable(struct fs_draft_result *res, size_t n, struct fs_store **store,
			  const struct fs_drafts_save_opts *opts, struct fs_drafts_saved *out,
			  struct fs_error *err)
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
	fs_store_free(wst);
	g_strfreev(deftags);
	return rc;
}

int fs_drafts_save(struct fs_drafts_saved *out, const struct fs_drafts *d,
		   const char *dir, struct fs_store **store,
		   const struct fs_drafts_save_opts *opts, struct fs_error *err)
{
	static const struct fs_drafts_save_opts defaults = FS_DRAFTS_SAVE_OPTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error ierr = FS_ERROR_INIT;
	bool *was;
	size_t i, unindexed = 0, rlen;
	int rc, irc = 0;

	if (!opts)
		opts = &defaults;
	memset(out, 0, sizeof(*out));
	out->dir = g_canonicalize_filename(dir, NULL);
	out->root = *store ? g_canonicalize_filename(fs_store_path(*store), NULL) : NULL;
	rlen = out->root ? strlen(out->root) : 0;
	out->outside = !out->root || strncmp(out->dir, out->root, rlen) || out->dir[rlen] != '/';
	out->n = d->n;
	out->v = g_new0(struct fs_drafts_saved_draft, d->n + 1);

	rc = fs_drafts_write(&res, d, out->dir, err);
	out->complete = rc == 0;
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
	else if (fs_drafts_need_store(res, d->n))
		irc = index_writable(res, d->n, store, opts, out, &ierr);

	for (i = 0; i < d->n; i++) {
		struct fs_drafts_saved_draft *s = &out->v[i];
		bool kept = res[i].action == FS_DRAFT_UNCHANGED ||
			res[i].action == FS_DRAFT_UNCHANGED_EDITED;

		s->action = res[i].action;
		s->label = g_strdup(d->v[i].label);
		s->path = res[i].path ? shown_path(res[i].path, out->root) : NULL;
		s->other = res[i].other ? shown_path(res[i].other, out->root) : NULL;
		s->indexed_now = kept && res[i].indexed && !was[i];
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
	}
	return irc;
}
