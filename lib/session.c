/* fixscan: one session, what every command reviews with (session.h):
 * the repository's configuration, the ignore file, the branch names, the
 * store, the index, the CVE data and the user's addresses, opened once
 * and lent to every stage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "fixscan/archive.h"
#include "fixscan/date.h"
#include "fixscan/session.h"

struct fs_session {
	char *repo;
	char *vulns_flag;
	struct fs_config *cfg;
	struct fs_ignore *ignore;
	struct fs_store *store;
	struct fs_index *idx;
	struct fs_index_stats istats;
	struct fs_vulns *vulns;
	struct fs_diffcmp *diffcmp;
	struct fs_treesyms *treesyms;
	struct fs_review_opts ropts;
	struct fs_index_opts iopts;
	/* storage behind ropts.branch_names and the iopts refs */
	struct fs_branch_name *branch_names;
	char **branch_keys, **branch_values;
	char *mainline, **stable_globs, **pending_globs;
	/* storage behind ropts.own_addresses (g_strfreev()) */
	char **own_addresses;
	/* storage behind ropts.stable_maintainers (fs_config_strv_free()) */
	char **stable_maintainers;
	/* the drafts' state file */
	char *drafts_state;
	const struct fs_store_waiting *store_waiting;
	/* how drafts are written, and the storage behind it: the signature
	 * and template texts, the answered patches already looked up */
	struct fs_draft_opts draft_opts;
	char *draft_signature, *draft_template;
	GHashTable *answered;
	/* the drafts folder of this run (fs_session_drafts_folder()), and
	 * the replies withdrawn there, read once asked */
	char *drafts_folder;
	struct fs_drafts_withdrawn *withdrawn;
	bool withdrawn_read;
	/* the mail archives (fixscan.lore): the bases searched (NULL when
	 * off), the client's options, the client once a review needs it,
	 * or why it could not be made */
	char **lore_bases;
	struct fs_archive_opts lore_opts;
	struct fs_archive *archive;
	char *lore_failure;
};

/* The ignore file: the flag, else fixscan.ignore, else
 * $XDG_CONFIG_HOME/fixscan/ignore.  A new string in *OUT. */
static int ignore_path(struct fs_config *cfg, const char *flag, char **out)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	*out = NULL;
	if (flag)
		return (*out = g_strdup(flag)) ? 0 : FS_ENOMEM;
	if (cfg && fs_config_get_string(cfg, "fixscan.ignore", out) == 0)
		return 0;
	if (xdg && *xdg == '/')
		*out = g_strdup_printf("%s/fixscan/ignore", xdg);
	else if (home)
		*out = g_strdup_printf("%s/.config/fixscan/ignore", home);
	return *out ? 0 : FS_ENOTFOUND;
}

/* fixscan.<version>.branch = <branch>, for series whose mails do not say
 * which branch they are for.  (The version is a subsection: git takes no
 * key whose last part starts with a digit, such as fixscan.branch.4.4.) */
static int read_branch_names(struct fs_session *s, struct fs_error *err)
{
	int n = fs_config_get_matching(s->cfg, "fixscan.%s.branch", &s->branch_keys,
				       &s->branch_values, err);
	int i;

	if (n <= 0)
		return n;
	s->branch_names = calloc(n, sizeof(*s->branch_names));
	if (!s->branch_names)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		s->branch_names[i].version = s->branch_keys[i];
		s->branch_names[i].branch = s->branch_values[i];
	}
	s->ropts.branch_names = s->branch_names;
	s->ropts.nbranch_names = n;
	return 0;
}

/* A length of time in seconds from the config value V of KEY: a number
 * of seconds, or as git writes one ("1 hour", "30m"). */
static int read_seconds(const char *key, const char *v, int64_t *out, struct fs_error *err)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	if (end != v && !*end && n >= 0) {
		*out = n;
		return 0;
	}
	if (fs_date_parse_duration(v, out) == 0)
		return 0;
	return fs_error_set(err, FS_EUSAGE, "%s: cannot read '%s' as a length of time "
			    "(seconds, or as \"1 hour\", \"30m\")", key, v);
}

/* fixscan.stableMaintainer: every value, the address of a stable
 * maintainer besides the known ones (whose conditions on a posting
 * object to it).  A value that is no address is said at once. */
static int read_stable_maintainers(struct fs_session *s, struct fs_error *err)
{
	char **v = NULL;
	int n = fs_config_get_all(s->cfg, "fixscan.stableMaintainer", &v, err), i;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (!strchr(v[i], '@') || strpbrk(v[i], " <>\t")) {
			int rc = fs_error_set(err, FS_EUSAGE, "fixscan.stableMaintainer: '%s' is no mail "
					      "address (name@domain)", v[i]);
			fs_config_strv_free(v);
			return rc;
		}
	if (n) {
		s->stable_maintainers = v;
		s->ropts.stable_maintainers = (const char *const *)v;
	} else {
		fs_config_strv_free(v);
	}
	return 0;
}

/* fixscan.lore: every value, each a public-inbox base URL; "none" drops
 * the values before it (a repository's config can so turn off the
 * global one's); unset, lore.kernel.org's.  fixscan.loreTTL and
 * fixscan.loreTimeout: how long answers are reused, how long a request
 * may take.  Read whatever the command, so that a wrong value is said
 * at once. */
static int read_lore(struct fs_session *s, bool off, struct fs_error *err)
{
	struct fs_archive_opts def = FS_ARCHIVE_OPTS_INIT;
	char **v = NULL, *text = NULL;
	int n = fs_config_get_all(s->cfg, "fixscan.lore", &v, err), i, start = 0, rc = 0;
	GPtrArray *bases = g_ptr_array_new_with_free_func(g_free);
	int64_t secs;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (!g_ascii_strcasecmp(v[i], "none"))
			start = i + 1;
	for (i = start; i < n && rc == 0; i++) {
		if (!fs_archive_base_valid(v[i]))
			rc = fs_error_set(err, FS_EUSAGE, "fixscan.lore: '%s' is no public-inbox base URL "
					  "(http:// or https://, ending in '/') nor none", v[i]);
		g_ptr_array_add(bases, g_strdup(v[i]));
	}
	if (!n)
		g_ptr_array_add(bases, g_strdup(FS_ARCHIVE_DEFAULT_BASE));
	fs_config_strv_free(v);
	s->lore_opts = def;
	if (rc == 0 && fs_config_get_string(s->cfg, "fixscan.loreTTL", &text) == 0) {
		rc = read_seconds("fixscan.loreTTL", text, &secs, err);
		s->lore_opts.ttl = secs;
		g_free(text);
		text = NULL;
	}
	if (rc == 0 && fs_config_get_string(s->cfg, "fixscan.loreTimeout", &text) == 0) {
		rc = read_seconds("fixscan.loreTimeout", text, &secs, err);
		if (rc == 0 && (secs <= 0 || secs > 3600))
			rc = fs_error_set(err, FS_EUSAGE, "fixscan.loreTimeout: '%s' is not between "
					  "1 second and an hour", text);
		s->lore_opts.timeout_ms = (long)secs * 1000;
		g_free(text);
	}
	if (rc == 0 && !off && bases->len) {
		g_ptr_array_add(bases, NULL);
		s->lore_bases = (char **)g_ptr_array_free(bases, FALSE);
	} else {
		g_ptr_array_free(bases, TRUE);
	}
	return rc;
}

/* The client the reviews search the archives with, made the first time
 * one needs it; when it cannot be (no cache directory), the reviews go
 * without, and the failure is what the command says. */
static void open_archive(struct fs_session *s)
{
	struct fs_error e = FS_ERROR_INIT;

	if (!s->lore_bases || s->archive || s->lore_failure)
		return;
	if (fs_archive_open(&s->archive, &s->lore_opts, &e) < 0) {
		s->lore_failure = g_strdup(e.message);
		return;
	}
	s->ropts.archive = s->archive;
	s->ropts.archive_bases = (const char *const *)s->lore_bases;
}

static int setup(struct fs_session *s, const char *ignore_flag, bool no_lore, struct fs_error *err)
{
	char *path = NULL;
	int rc;

	rc = fs_config_open(&s->cfg, s->repo, err);
	if (rc < 0) {
		/* A missing or broken repository is reported by the index,
		 * with a better message; the global config still counts. */
		fs_error_clear(err);
		rc = fs_config_open(&s->cfg, NULL, err);
		if (rc < 0)
			return rc;
	}
	if (ignore_path(s->cfg, ignore_flag, &path) == 0) {
		rc = fs_ignore_load(&s->ignore, path, err);
		g_free(path);
		if (rc < 0)
			return rc;
	}
	s->ropts.ignore = s->ignore;
	rc = fs_config_index_refs(s->cfg, &s->mainline, &s->stable_globs,
				  &s->iopts.nstable_globs, err);
	if (rc < 0)
		return rc;
	s->iopts.mainline = s->mainline;
	s->iopts.stable_globs = (const char *const *)s->stable_globs;
	rc = fs_config_pending_refs(s->cfg, &s->pending_globs, &s->iopts.npending_globs, err);
	if (rc < 0)
		return rc;
	s->iopts.pending_globs = (const char *const *)s->pending_globs;
	rc = read_lore(s, no_lore, err);
	if (rc < 0)
		return rc;
	rc = read_stable_maintainers(s, err);
	if (rc < 0)
		return rc;
	return read_branch_names(s, err);
}

int fs_session_open(struct fs_session **out, const struct fs_session_opts *o,
		    struct fs_error *err)
{
	struct fs_session *s = g_new0(struct fs_session, 1);
	int rc;

	s->repo = g_strdup(o->repo);
	s->vulns_flag = g_strdup(o->vulns);
	s->ropts = o->review;
	s->iopts = o->index;
	s->store_waiting = o->store_waiting;
	rc = setup(s, o->ignore, o->no_lore, err);
	if (rc < 0) {
		fs_session_free(s);
		s = NULL;
	}
	*out = s;
	return rc;
}

void fs_session_free(struct fs_session *s)
{
	if (!s)
		return;
	fs_index_free(s->idx);
	fs_vulns_free(s->vulns);
	fs_diffcmp_free(s->diffcmp);
	fs_treesyms_free(s->treesyms);
	fs_store_free(s->store);
	fs_ignore_free(s->ignore);
	fs_config_free(s->cfg);
	free(s->branch_names);
	fs_config_strv_free(s->branch_keys);
	fs_config_strv_free(s->branch_values);
	g_free(s->mainline);
	fs_config_strv_free(s->stable_globs);
	fs_config_strv_free(s->pending_globs);
	g_strfreev(s->own_addresses);
	fs_config_strv_free(s->stable_maintainers);
	g_free(s->drafts_state);
	g_free(s->draft_signature);
	g_free(s->draft_template);
	if (s->answered)
		g_hash_table_destroy(s->answered);
	g_free(s->drafts_folder);
	fs_drafts_withdrawn_free(s->withdrawn);
	fs_archive_free(s->archive);
	g_strfreev(s->lore_bases);
	g_free(s->lore_failure);
	g_free(s->vulns_flag);
	g_free(s->repo);
	g_free(s);
}

/* The user's addresses: notmuch's user.primary_email and
 * user.other_email (a list separated by ';'), and git's user.email. */
static void read_own_addresses(struct fs_session *s)
{
	const char *keys[] = { "user.primary_email", "user.other_email" };
	GPtrArray *v = g_ptr_array_new();
	char *git_email = NULL;
	size_t k, i;

	for (k = 0; k <= G_N_ELEMENTS(keys); k++) {
		const char *value = k < G_N_ELEMENTS(keys) && s->store ?
				    fs_store_config(s->store, keys[k]) : NULL;
		char **parts;
		if (k == G_N_ELEMENTS(keys) && s->cfg &&
		    fs_config_get_string(s->cfg, "user.email", &git_email) == 0)
			value = git_email;
		parts = value ? g_strsplit_set(value, ";, ", -1) : NULL;
		for (i = 0; parts && parts[i]; i++)
			if (*parts[i])
				g_ptr_array_add(v, g_strdup(parts[i]));
		g_strfreev(parts);
	}
	g_free(git_email);
	g_ptr_array_add(v, NULL);
	g_strfreev(s->own_addresses);
	s->own_addresses = (char **)g_ptr_array_free(v, FALSE);
	s->ropts.own_addresses = (const char *const *)s->own_addresses;
}

int fs_session_open_store(struct fs_session *s, bool optional, struct fs_error *err)
{
	struct fs_error serr = FS_ERROR_INIT;
	int rc = fs_store_open(&s->store, false, 5.0, &serr);

	if (rc == 0) {
		read_own_addresses(s);
		return 0;
	}
	s->store = NULL;
	if (optional && rc != FS_ELOCKED) {
		/* git's user.email still says whose mail is whose */
		read_own_addresses(s);
		return 0;
	}
	*err = serr;
	return rc;
}

int fs_session_vulns_at(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
			const char *repo, struct fs_review_notes *notes, struct fs_error *err)
{
	struct fs_vulns_opts opts = FS_VULNS_OPTS_INIT;
	struct fs_vulns_stats stats;
	struct fs_config *own = NULL;
	char *path = NULL;
	int rc;

	*out = NULL;
	if (!flag && !cfg && fs_config_open(&own, repo, NULL) < 0)
		(void)fs_config_open(&own, NULL, NULL);
	if (!flag && (cfg || own))
		fs_config_get_path(cfg ? cfg : own, "fixscan.vulns", &path);
	fs_config_free(own);
	/* Unset, or set to nothing (to turn a global value off for one
	 * repository): no CVE data, and no file opened. */
	if (!flag && (!path || !*path)) {
		g_free(path);
		return 0;
	}
	opts.path = flag ? flag : path;
	rc = fs_vulns_open(out, &opts, &stats, err);
	if (rc == 0 && stats.note[0] && notes)
		fs_review_notes_add(notes, stats.note);
	g_free(path);
	return rc;
}

int fs_session_open_vulns(struct fs_session *s, struct fs_review_notes *notes,
			  struct fs_error *err)
{
	int rc;

	if (s->vulns)
		return 0;
	rc = fs_session_vulns_at(&s->vulns, s->vulns_flag, s->cfg, s->repo, notes, err);
	s->ropts.vulns = s->vulns;
	return rc;
}

int fs_session_open_index(struct fs_session *s, struct fs_review_notes *notes,
			  struct fs_error *err)
{
	struct fs_error e = FS_ERROR_INIT;
	int rc;

	rc = fs_session_open_vulns(s, notes, err);
	if (rc < 0)
		return rc;
	s->iopts.repo_path = s->repo;
	rc = fs_index_open(&s->idx, &s->iopts, &s->istats, err);
	if (rc < 0)
		return rc;
	open_archive(s);
	/* The mainline tip's time, so that ids a clone older than the
	 * thread lacks are not taken for wrong ones (a repository that
	 * cannot say leaves the check out), and the reader of the reasons
	 * stable-only reverts give. */
	if (fs_index_mainline_time(s->idx, s->repo, &s->ropts.mainline_time, &e) < 0)
		s->ropts.mainline_time = 0;
	s->ropts.message = fs_index_read_message;
	s->ropts.message_data = s->repo;
	/* The upstream diffs for backport-differs; the index read this
	 * repository already, so a failure here only leaves them out. */
	if (!s->diffcmp && fs_diffcmp_open(&s->diffcmp, s->repo, &e) == 0)
		s->ropts.diffcmp = s->diffcmp;
	/* The identifiers of the branches' trees, kept beside the index. */
	if (!s->treesyms && fs_treesyms_open(&s->treesyms, s->repo, &e) == 0)
		s->ropts.treesyms = s->treesyms;
	return 0;
}

const char *fs_session_repo(const struct fs_session *s)
{
	return s->repo;
}

struct fs_config *fs_session_config(const struct fs_session *s)
{
	return s->cfg;
}

struct fs_store *fs_session_store(const struct fs_session *s)
{
	return s->store;
}

const struct fs_index *fs_session_index(const struct fs_session *s)
{
	return s->idx;
}

const struct fs_index_stats *fs_session_index_stats(const struct fs_session *s)
{
	return &s->istats;
}

const struct fs_ignore *fs_session_ignore(const struct fs_session *s)
{
	return s->ignore;
}

struct fs_index_opts *fs_session_index_opts(struct fs_session *s)
{
	return &s->iopts;
}

struct fs_store **fs_session_store_slot(struct fs_session *s)
{
	return &s->store;
}

const char *fs_session_lore_failure(const struct fs_session *s, size_t *nfailed)
{
	if (nfailed)
		*nfailed = 0;
	if (s->lore_failure || !s->archive)
		return s->lore_failure;
	return fs_archive_failure(s->archive, nfailed);
}

struct fs_review_opts *fs_session_review_opts(struct fs_session *s)
{
	return &s->ropts;
}

const char *fs_session_store_config(const struct fs_session *s, const char *key,
				    const char *old_key, struct fs_review_notes *notes)
{
	const char *v;

	if (!s->store)
		return NULL;
	if ((v = fs_store_config(s->store, key)) || !old_key)
		return v;
	if ((v = fs_store_config(s->store, old_key)) && notes) {
		char *note = g_strdup_printf("the notmuch config key %s is now %s (notmuch config set %s '%s')",
					     old_key, key, key, v);
		fs_review_notes_add(notes, note);
		g_free(note);
	}
	return v;
}

int fs_session_identity(const struct fs_session *s, struct fs_identity *out,
			struct fs_error *err)
{
	char *git_name = NULL, *git_email = NULL;
	int rc;

	if (s->cfg) {
		fs_config_get_string(s->cfg, "user.name", &git_name);
		fs_config_get_string(s->cfg, "user.email", &git_email);
	}
	rc = fs_identity_pick(out, s->store ? fs_store_config(s->store, "user.name") : NULL,
			      s->store ? fs_store_config(s->store, "user.primary_email") : NULL,
			      git_name, git_email, err);
	g_free(git_name);
	g_free(git_email);
	return rc;
}

/* ---- drafts ------------------------------------------------------------- */

char *fs_session_state_path(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	/* The XDG base directory rules: a relative XDG_STATE_HOME is
	 * ignored. */
	if (xdg && *xdg == '/')
		return g_build_filename(xdg, "fixscan", name, NULL);
	if (home && *home)
		return g_build_filename(home, ".local", "state", "fixscan", name, NULL);
	return NULL;
}

/* The drafts' state file (borrowed; NULL: no folder for it). */
static const char *drafts_state(struct fs_session *s)
{
	if (!s->drafts_state)
		s->drafts_state = fs_session_state_path("drafts");
	return s->drafts_state;
}

/* The options of fs_drafts_save() every command shares: the state file,
 * the user's addresses, and FORCE (--force). */
static void save_opts(struct fs_session *s, struct fs_drafts_save_opts *opts, bool force)
{
	const char *wait = getenv("FIXSCAN_TEST_LOCK_WAIT");

	opts->state_file = drafts_state(s);
	opts->own = s->ropts.own_addresses;
	opts->force = force;
	opts->waiting = s->store_waiting;
	/* (the tests wait less than a reviewer does) */
	if (wait && *wait)
		opts->lock_wait = g_ascii_strtod(wait, NULL);
}

/* Whether the user answered patch P (fs_drafts_answered()), asked of
 * the store once per patch. */
static bool patch_answered(void *data, const struct fs_patch *p)
{
	struct fs_session *s = data;
	const char *id = fs_patch_message_id(p);
	gpointer hit;
	bool answered;

	if (!id || !s->store)
		return false;
	if (!s->answered)
		s->answered = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (g_hash_table_lookup_extended(s->answered, id, NULL, &hit))
		return hit != NULL;
	answered = fs_drafts_answered(s->store, id, s->ropts.own_addresses);
	g_hash_table_insert(s->answered, g_strdup(id), answered ? (gpointer)1 : NULL);
	return answered;
}

/* The text of the file git config KEY names into *OUT (NULL when KEY is
 * unset), trailing white space kept; WHAT names it in errors. */
static int read_config_file(struct fs_session *s, const char *key, const char *what, char **out,
			    struct fs_error *err)
{
	char *path = NULL;
	GError *gerr = NULL;
	struct stat st;
	FILE *fp;
	int rc = 0;

	*out = NULL;
	st.st_mode = 0;
	if (!s->cfg || fs_config_get_path(s->cfg, key, &path) < 0 || !path || !*path) {
		g_free(path);
		return 0;
	}
	fp = fopen(path, "r");
	if (fp && (fstat(fileno(fp), &st) < 0 || !S_ISREG(st.st_mode)))
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	if (!fp || !S_ISREG(st.st_mode) || !g_file_get_contents(path, out, NULL, &gerr)) {
		rc = fs_error_set(err, FS_EIO, "cannot read the %s '%s' (%s): %s", what, path, key,
				  gerr ? gerr->message : strerror(errno));
		if (gerr)
			g_error_free(gerr);
		*out = NULL;
	} else if (!g_utf8_validate(*out, -1, NULL) || strlen(*out) > 64 * 1024) {
		rc = fs_error_set(err, FS_EUSAGE, "the %s '%s' (%s) is not UTF-8 text of at most 64 KiB",
				  what, path, key);
		g_free(*out);
		*out = NULL;
	}
	if (fp)
		fclose(fp);
	g_free(path);
	return rc;
}

/* Whether the reviewer withdrew the reply to patch P
 * (fs_drafts_withdrawn_patch()), the folder and state read once. */
static bool patch_withheld(void *data, const struct fs_patch *p)
{
	struct fs_session *s = data;

	if (!s->withdrawn_read) {
		s->withdrawn_read = true;
		s->withdrawn = fs_drafts_withdrawn_load(drafts_state(s), s->drafts_folder, s->store);
	}
	return fs_drafts_withdrawn_patch(s->withdrawn, p);
}

void fs_session_drafts_folder(struct fs_session *s, const char *dir, bool force)
{
	g_free(s->drafts_folder);
	s->drafts_folder = g_strdup(dir);
	/* --force writes deleted drafts again: nothing is withheld then */
	s->draft_opts.withheld = dir && !force ? patch_withheld : NULL;
	s->draft_opts.withheld_data = s;
}

int fs_session_prepare_drafts(struct fs_session *s, int mode, bool every, time_t now,
			      struct fs_error *err)
{
	struct fs_draft_opts init = FS_DRAFT_OPTS_INIT;
	int rc;

	s->draft_opts = init;
	s->draft_opts.mode = mode;
	s->draft_opts.every_finding = every;
	s->draft_opts.now = now;
	s->draft_opts.answered = patch_answered;
	s->draft_opts.answered_data = s;
	rc = read_config_file(s, "fixscan.signature", "signature file", &s->draft_signature, err);
	if (rc == 0)
		rc = read_config_file(s, "fixscan.draftTemplate", "draft template", &s->draft_template,
				      err);
	if (rc == 0 && s->draft_template &&
	    (rc = fs_draft_template_check(s->draft_template, err)) < 0) {
		char *path = NULL;

		fs_config_get_path(s->cfg, "fixscan.draftTemplate", &path);
		fs_error_prefix(err, "draft template '%s' (fixscan.draftTemplate)", path ? path : "?");
		g_free(path);
	}
	s->draft_opts.signature = s->draft_signature;
	s->draft_opts.template_text = s->draft_template;
	return rc;
}

struct fs_draft_opts *fs_session_draft_opts(struct fs_session *s)
{
	return &s->draft_opts;
}

int fs_session_write_drafts(struct fs_session *s, const struct fs_drafts *dl, const char *dir,
			    bool force, struct fs_drafts_saved *saved,
			    struct fs_review_notes *notes, struct fs_error *err)
{
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	char **tags = fs_drafts_tags(fs_session_store_config(s, "fixscan.draftTags",
							     "fixscan.draft_tags", notes));
	int rc;

	save_opts(s, &opts, force);
	opts.tags = (const char *const *)tags;
	if (!opts.state_file && notes)
		fs_review_notes_add(notes, "no folder for fixscan's state (neither XDG_STATE_HOME "
				    "nor HOME is set): the drafts are written, but not remembered "
				    "(drafts you delete may come back)");
	rc = fs_drafts_save(saved, dl, dir, &s->store, &opts, err);
	g_strfreev(tags);
	return rc;
}

int fs_session_drop_skipped(struct fs_session *s, struct fs_drafts *dl, const char *dir,
			    bool force, struct fs_drafts_saved *saved, struct fs_error *err)
{
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;

	save_opts(s, &opts, force);
	return fs_drafts_drop_skipped(dl, dir, s->store, &opts, &saved->answered,
				      &saved->deleted, err);
}

char *fs_session_skipped_text(const struct fs_drafts_saved *saved)
{
	GString *line = g_string_new(NULL);

	if (saved->answered)
		g_string_append_printf(line, "%zu you answered already", saved->answered);
	if (saved->deleted)
		g_string_append_printf(line, "%s%zu you deleted (--force writes %s again)",
				       line->len ? ", " : "", saved->deleted,
				       saved->deleted == 1 ? "it" : "them");
	if (!line->len) {
		g_string_free(line, TRUE);
		return NULL;
	}
	g_string_prepend(line, "draft: skipped ");
	return g_string_free(line, FALSE);
}
