#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/config.h"
#include "git-util.h"

struct fs_config {
	git_config *snapshot;
};

/* The user's and the system's config as git itself reads them when
 * GIT_CONFIG_GLOBAL names the global file (git then reads that file
 * instead of ~/.gitconfig and $XDG_CONFIG_HOME/git/config), which
 * libgit2 does not do by itself; GIT_CONFIG_NOSYSTEM and
 * GIT_CONFIG_SYSTEM are honoured with it.  Plus REPO's own config when
 * REPO is given. */
static int open_with_global(git_config **out, const char *global, git_repository *repo)
{
	const char *sys = getenv("GIT_CONFIG_SYSTEM"), *nosys = getenv("GIT_CONFIG_NOSYSTEM");
	git_buf found = GIT_BUF_INIT;
	int rc = git_config_new(out);

	if (rc == 0 && !(nosys && *nosys && strcmp(nosys, "0") && strcasecmp(nosys, "false"))) {
		if (!sys && git_config_find_system(&found) == 0)
			sys = found.ptr;
		if (sys && *sys && access(sys, R_OK) == 0)
			rc = git_config_add_file_ondisk(*out, sys, GIT_CONFIG_LEVEL_SYSTEM, repo, 0);
	}
	if (rc == 0 && *global && access(global, R_OK) == 0)
		rc = git_config_add_file_ondisk(*out, global, GIT_CONFIG_LEVEL_GLOBAL, repo, 0);
	if (rc == 0 && repo) {
		char *local = malloc(strlen(git_repository_commondir(repo)) + sizeof("config"));
		if (!local)
			rc = -1;
		else {
			strcpy(local, git_repository_commondir(repo));
			strcat(local, "config");
			if (access(local, R_OK) == 0)
				rc = git_config_add_file_ondisk(*out, local, GIT_CONFIG_LEVEL_LOCAL, repo, 0);
			free(local);
		}
	}
	git_buf_dispose(&found);
	return rc;
}

int fs_config_open(struct fs_config **out, const char *repo_path,
		   struct fs_error *err)
{
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	struct fs_config *cfg;
	git_config *live = NULL;
	git_repository *repo = NULL;
	int rc = 0;

	*out = NULL;
	fs_git_init();
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	if (repo_path) {
		rc = git_repository_open_ext(&repo, repo_path,
					     GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
		if (rc < 0) {
			rc = fs_error_set_git(err, FS_EGIT,
					      "cannot read the config of '%s'", repo_path);
			goto out;
		}
	}
	if (global)
		rc = open_with_global(&live, global, repo);
	else if (repo)
		rc = git_repository_config(&live, repo);
	else
		rc = git_config_open_default(&live);
	if (rc == 0)
		rc = git_config_snapshot(&cfg->snapshot, live);
	if (rc < 0) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot read git config");
		goto out;
	}
	*out = cfg;
	cfg = NULL;
out:
	git_config_free(live);
	git_repository_free(repo);
	fs_config_free(cfg);
	return rc < 0 ? rc : 0;
}

void fs_config_free(struct fs_config *cfg)
{
	if (!cfg)
		return;
	git_config_free(cfg->snapshot);
	free(cfg);
}

int fs_config_get_string(struct fs_config *cfg, const char *key, char **out)
{
	git_buf buf = GIT_BUF_INIT;

	*out = NULL;
	if (!cfg || git_config_get_string_buf(&buf, cfg->snapshot, key) < 0)
		return FS_ENOTFOUND;
	*out = g_strdup(buf.ptr);
	git_buf_dispose(&buf);
	return *out ? 0 : FS_ENOMEM;
}

int fs_config_get_path(struct fs_config *cfg, const char *key, char **out)
{
	git_buf buf = GIT_BUF_INIT;

	*out = NULL;
	if (!cfg || git_config_get_path(&buf, cfg->snapshot, key) < 0)
		return FS_ENOTFOUND;
	*out = g_strdup(buf.ptr);
	git_buf_dispose(&buf);
	return *out ? 0 : FS_ENOMEM;
}

struct strv {
	char **v;
	size_t n;
	int oom;
	int novalue; /* a key set without "= value" (git's implicit true) */
};

static int add_value(const git_config_entry *entry, void *payload)
{
	struct strv *s = payload;
	char **grown;

	if (!entry->value) {
		s->novalue = 1;
		return -1;
	}
	grown = g_try_renew(char *, s->v, s->n + 2);

	if (!grown || !(grown[s->n] = g_strdup(entry->value))) {
		if (grown)
			s->v = grown;
		s->oom = 1;
		return -1;
	}
	s->v = grown;
	s->v[++s->n] = NULL;
	return 0;
}

int fs_config_get_all(struct fs_config *cfg, const char *key, char ***out,
		      struct fs_error *err)
{
	struct strv s = { NULL, 0, 0, 0 };
	int rc;

	*out = NULL;
	if (!cfg)
		return 0;
	rc = git_config_get_multivar_foreach(cfg->snapshot, key, NULL, add_value, &s);
	if (s.oom || s.novalue) {
		if (s.v)
			s.v[s.n] = NULL;
		fs_config_strv_free(s.v);
		if (s.novalue)
			return fs_error_set(err, FS_EPARSE, "config key '%s' is set without a value "
					    "(a line '%s' with no '= ...')", key,
					    strrchr(key, '.') ? strrchr(key, '.') + 1 : key);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	if (rc < 0 && rc != GIT_ENOTFOUND) {
		fs_config_strv_free(s.v);
		return fs_error_set_git(err, FS_EGIT, "cannot read config key '%s'", key);
	}
	*out = s.v;
	return (int)s.n;
}

void fs_config_strv_free(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		g_free(v[i]);
	g_free(v);
}

int fs_config_get_bool(struct fs_config *cfg, const char *key, bool *out,
		       struct fs_error *err)
{
	int value;
	git_buf buf = GIT_BUF_INIT;

	if (!cfg || git_config_get_string_buf(&buf, cfg->snapshot, key) < 0)
		return FS_ENOTFOUND;
	git_buf_dispose(&buf);
	if (git_config_get_bool(&value, cfg->snapshot, key) < 0)
		return fs_error_set(err, FS_EPARSE,
				    "config key '%s' is not a boolean", key);
	*out = value != 0;
	return 0;
}

/* Keys of the form PREFIX<middle>SUFFIX, collected once each. */
struct matching {
	const char *prefix, *suffix;
	size_t plen, slen;
	struct strv names;
};

static int add_name(const git_config_entry *entry, void *payload)
{
	struct matching *m = payload;
	git_config_entry copy = *entry;
	size_t len = strlen(entry->name), i;

	if (len <= m->plen + m->slen || strncasecmp(entry->name, m->prefix, m->plen) ||
	    strcasecmp(entry->name + len - m->slen, m->suffix))
		return 0;
	for (i = 0; i < m->names.n; i++)
		if (!strcmp(m->names.v[i], entry->name))
			return 0;
	/* add_value() copies the value; here the name is wanted. */
	copy.value = entry->name;
	return add_value(&copy, &m->names);
}

int fs_config_get_matching(struct fs_config *cfg, const char *pattern, char ***names,
			   char ***values, struct fs_error *err)
{
	const char *hole = strstr(pattern, "%s");
	struct matching m;
	char **vals;
	size_t i;
	int rc;

	*names = *values = NULL;
	if (!cfg || !hole)
		return 0;
	memset(&m, 0, sizeof(m));
	m.prefix = pattern;
	m.plen = hole - pattern;
	m.suffix = hole + 2;
	m.slen = strlen(m.suffix);
	rc = git_config_foreach(cfg->snapshot, add_name, &m);
	if (m.names.oom || (rc < 0 && rc != GIT_ENOTFOUND)) {
		if (m.names.v)
			m.names.v[m.names.n] = NULL;
		fs_config_strv_free(m.names.v);
		return m.names.oom ? fs_error_set(err, FS_ENOMEM, "out of memory") :
			fs_error_set_git(err, FS_EGIT, "cannot read git config");
	}
	vals = g_try_new0(char *, m.names.n + 1);
	if (!vals) {
		fs_config_strv_free(m.names.v);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	/* The value that wins (the repository's over the global one), and
	 * of the name only what stood for %s. */
	for (i = 0; i < m.names.n; i++) {
		char *name = m.names.v[i];
		size_t mid = strlen(name) - m.plen - m.slen;

		fs_config_get_string(cfg, name, &vals[i]);
		memmove(name, name + m.plen, mid);
		name[mid] = '\0';
		if (!vals[i] && !(vals[i] = g_strdup(""))) {
			fs_config_strv_free(m.names.v);
			fs_config_strv_free(vals);
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		}
	}
	*names = m.names.v;
	*values = vals;
	return (int)m.names.n;
}

int fs_config_index_refs(struct fs_config *cfg, char **mainline, char ***stable_globs,
			 size_t *n, struct fs_error *err)
{
	int rc;

	*mainline = NULL;
	*stable_globs = NULL;
	*n = 0;
	if (fs_config_get_string(cfg, "fixscan.mainline", mainline) == FS_ENOMEM)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	rc = fs_config_get_all(cfg, "fixscan.stable", stable_globs, err);
	if (rc < 0) {
		g_free(*mainline);
		*mainline = NULL;
		return rc;
	}
	*n = (size_t)rc;
	return 0;
}

int fs_config_pending_refs(struct fs_config *cfg, char ***globs, size_t *n, struct fs_error *err)
{
	int rc = fs_config_get_all(cfg, "fixscan.pending", globs, err);
	size_t i;

	*n = 0;
	if (rc < 0)
		return rc;
	for (i = 0; i < (size_t)rc; i++) {
		if (!strncmp((*globs)[i], "refs/", 5))
			continue;
		fs_error_set(err, FS_EPARSE,
			     "fixscan.pending value '%s' is not a ref glob (it must start with "
			     "'refs/', e.g. 'refs/remotes/next/*')", (*globs)[i]);
		fs_config_strv_free(*globs);
		*globs = NULL;
		return FS_EPARSE;
	}
	*n = (size_t)rc;
	return 0;
}
