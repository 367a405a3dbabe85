/* fixscan: which git repository is a kernel tree (see fixscan/repo.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include <glib.h>

#include "fixscan/repo.h"
#include "base/git-util.h"
#include "tips.h"

int fs_repo_discover(const char *dir, char **out, struct fs_error *err)
{
	git_buf found = GIT_BUF_INIT;
	git_repository *repo = NULL;
	const char *path;
	size_t n;

	*out = NULL;
	fs_git_init();
	if (git_repository_discover(&found, dir, 0, NULL) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is in no git repository", dir);
	path = found.ptr;
	if (git_repository_open_ext(&repo, found.ptr, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0 &&
	    git_repository_workdir(repo))
		path = git_repository_workdir(repo);
	*out = g_strdup(path);
	git_repository_free(repo);
	git_buf_dispose(&found);
	if (!*out)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	n = strlen(*out);
	if (n > 1 && (*out)[n - 1] == '/')
		(*out)[n - 1] = '\0';
	return 0;
}

/* Stops the walk over the tags at the first mainline release. */
static int release_cb(const char *name, void *payload)
{
	char line[FSI_LINE_MAX];
	int stable = 0;

	if (fsi_classify_tag(name + strlen("refs/tags/"), line, &stable) && !stable) {
		*(int *)payload = 1;
		return 1;
	}
	return 0;
}

/* Whether REPO's refs/tags directory holds a loose mainline release tag
 * that git resolves: the usual answer, from one directory read, where a
 * listing of the tags reads (and stats) every loose one.  0 says only
 * that none was found this way (packed tags, another ref store). */
static int loose_release_tag(git_repository *repo)
{
	char *dir = NULL;
	struct dirent *de;
	DIR *d;
	int found = 0;

	if (asprintf(&dir, "%srefs/tags", git_repository_commondir(repo)) < 0)
		return 0;
	d = opendir(dir);
	free(dir);
	while (d && !found && (de = readdir(d))) {
		char line[FSI_LINE_MAX], *ref = NULL;
		int stable = 0;
		git_oid oid;

		if (!fsi_classify_tag(de->d_name, line, &stable) || stable ||
		    asprintf(&ref, "refs/tags/%s", de->d_name) < 0)
			continue;
		found = git_reference_name_to_id(&oid, repo, ref) == 0;
		free(ref);
	}
	if (d)
		closedir(d);
	return found;
}

/* Whether REPO has the mainline ref MAINLINE (or a default one).  The
 * ref is not peeled: that would open the object database, the largest
 * cost of a command that finds its index up to date.  A mainline ref that
 * leads to no commit is for the index to refuse, which reads it anyway. */
static int has_mainline(git_repository *repo, const char *mainline)
{
	git_reference *ref = NULL;
	git_oid oid;
	size_t i;
	int ok = 0;

	if (mainline) {
		ok = git_reference_dwim(&ref, repo, mainline) == 0;
		git_reference_free(ref);
		return ok;
	}
	for (i = 0; !ok && i < FSI_NMAINLINE_DEFAULTS; i++)
		ok = git_reference_name_to_id(&oid, repo, fsi_mainline_defaults[i]) == 0;
	return ok;
}

int fs_repo_check_kernel(const char *path, const char *mainline, struct fs_error *err)
{
	git_repository *repo = NULL;
	int found = 0, rc;

	fs_git_init();
	if (git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open repository '%s'", path);
	if (!has_mainline(repo, mainline)) {
		git_repository_free(repo);
		if (mainline)
			return fs_error_set(err, FS_ENOTFOUND,
					    "%s: not a kernel tree: no mainline ref '%s' (fixscan.mainline)",
					    path, mainline);
		return fs_error_set(err, FS_ENOTFOUND,
				    "%s: not a kernel tree: no mainline ref (looked for origin/master, master, main; set fixscan.mainline)",
				    path);
	}
	found = loose_release_tag(repo);
	rc = found ? 0 : git_reference_foreach_glob(repo, "refs/tags/v*", release_cb, &found);
	git_repository_free(repo);
	if (rc < 0 && !found)
		return fs_error_set_git(err, FS_EGIT, "cannot list the tags of '%s'", path);
	if (!found)
		return fs_error_set(err, FS_ENOTFOUND,
				    "%s: not a kernel tree: no release tags (v*)", path);
	return 0;
}
