/* fixscan: the drafts folder, and the one policy for saving drafts
 * (the state file, the matching and the writing it uses are
 * drafts-state.c, drafts-match.c and drafts-write.c). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/drafts.h"
#include "fixscan/identity.h"
#include "fixscan/maildir.h"
#include "fixscan/mail.h"
#include "fixscan/text.h"
#include "draft-private.h"
#include "drafts-private.h"

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
	size_t i;
	int rc;

	fs_store_free(*store);
	*store = NULL;
	rc = fs_store_open_waiting(&wst, true, opts->lock_wait, opts->waiting, err);
	if (rc == 0)
		rc = fsds_index_results(res, n, wst, tags, out, err);
	if (rc == 0)
		rc = forget_gone(wst, gone, err);
	/* indexed is only what the commit took */
	if (rc == 0 && (rc = fs_store_close(wst, err)) < 0)
		for (i = 0; i < n; i++)
			res[i].indexed = false;
	else if (rc < 0)
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
	w.found = fsds_scan(&files, dir, state);
	w.nfound = files.n;
	/* The same decisions as write_draft(), nothing written: the state
	 * is read, never saved. */
	for (i = 0; i < d->n; i++) {
		struct existing *match = NULL, *unedited = NULL, *edited = NULL;
		GPtrArray *stale = g_ptr_array_new_with_free_func(g_free);
		enum fs_draft_action a = fsds_decide(&w, &d->v[i], &facts[i], &match, &unedited,
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
	fsds_existings_free(w.found, files.n);
	fs_maildir_files_clear(&files);
	g_free(facts);
	fs_drafts_state_free(state);
	return 0;
}

/* The files of outdated drafts fixscan wrote for the keys of D (as STATE
 * knows them) that the store ST still has though they are gone from the
 * disk (a run killed between removing an outdated draft and the database
 * taking note): a new array of paths, to forget.  The latest draft of a
 * key is not among them: gone, the reviewer deleted or sent it, and a
 * sent one may be in a Sent folder notmuch has not read yet; forgotten
 * here, it would come back from there without its tags.  notmuch new
 * forgets it, or finds it moved. */
static GPtrArray *find_gone(const struct fs_drafts *d, struct fs_store *st,
			    const struct fs_drafts_state *state)
{
	GPtrArray *gone = g_ptr_array_new_with_free_func(g_free);
	GHashTable *keys = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i;

	for (i = 0; i < d->n; i++)
		g_hash_table_add(keys, d->v[i].key);
	for (i = 0; st && state && i < state->entries->len; i++) {
		const struct state_entry *e = g_ptr_array_index(state->entries, i);
		struct fs_store_message m;
		const char *latest = NULL, *digest;

		if (!g_hash_table_contains(keys, e->key) ||
		    (fs_drafts_state_latest(state, e->key, &latest, &digest) &&
		     !strcmp(latest, e->message_id)) ||
		    fs_store_find_message(st, e->message_id, &m, NULL) < 0)
			continue;
		if (m.gone && m.filename)
			g_ptr_array_add(gone, g_strdup(m.filename));
		fs_store_message_clear(&m);
	}
	g_hash_table_destroy(keys);
	return gone;
}
/* Whether a file a killed run left in tmp/ with Message-Id ID is
 * fixscan's: the state DATA has it pending, or it is an earlier
 * version's. */
static bool is_swept_id(const char *id, void *data)
{
	return fsds_is_old_id(id) || fsds_pending_entry(data, id);
}

/* fs_drafts_save(), holding the folder's lock. */
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
	rc = fsds_write_all(&res, d, out->dir, state, facts, opts->force, err);
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
		irc = fsds_index_results(res, d->n, NULL, NULL, out, &ierr);
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
		s->path = res[i].path ? fsds_shown_path(res[i].path, out->root) : NULL;
		s->other = res[i].other ? fsds_shown_path(res[i].other, out->root) : NULL;
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
		if (unindexed)
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

/* ---- the replies the reviewer withdrew ------------------------------------- */

struct fs_drafts_withdrawn {
	struct fs_drafts_state *state;
	struct fs_maildir_files files;
	struct existing *found;
	struct fs_store *store;
};

struct fs_drafts_withdrawn *fs_drafts_withdrawn_load(const char *state_file, const char *dir,
						     struct fs_store *store)
{
	struct fs_drafts_withdrawn *w;
	struct fs_drafts_state *state = NULL;
	struct fs_error err = FS_ERROR_INIT;

	if (!state_file || !dir || fs_drafts_state_load(&state, state_file, &err) < 0)
		return NULL;
	w = g_new0(struct fs_drafts_withdrawn, 1);
	w->state = state;
	w->store = store;
	w->found = fsds_scan(&w->files, dir, state);
	return w;
}

bool fs_drafts_withdrawn_patch(const struct fs_drafts_withdrawn *w, const struct fs_patch *p)
{
	const char *mid, *digest, *id = p ? fs_patch_message_id(p) : NULL;
	struct fs_store_message found;
	struct fs_error err = FS_ERROR_INIT;
	bool latest, there = false;
	char *key;
	size_t i;

	if (!w || !id)
		return false;
	key = fsd_reply_key(FSD_KIND_PATCH, p);
	latest = fs_drafts_state_latest(w->state, key, &mid, &digest);
	g_free(key);
	if (!latest)
		return false;
	for (i = 0; i < w->files.n && !there; i++)
		there = w->found[i].message_id && !strcmp(w->found[i].message_id, mid);
	if (!there && w->store) {
		memset(&found, 0, sizeof(found));
		/* sent, or not yet gone from the database's view */
		if (fs_store_find_message(w->store, mid, &found, &err) == 0)
			there = !found.gone;
		fs_store_message_clear(&found);
	}
	return !there;
}

void fs_drafts_withdrawn_free(struct fs_drafts_withdrawn *w)
{
	if (!w)
		return;
	fsds_existings_free(w->found, w->files.n);
	fs_maildir_files_clear(&w->files);
	fs_drafts_state_free(w->state);
	g_free(w);
}
