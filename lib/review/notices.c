/* fixscan: what review --all-open reads besides the threads: the release
 * tags of the stable branches with their dates (from git), and the
 * FAILED / "added to the stable tree" notices (from the mail store). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/crossbranch.h"
#include "fixscan/notices.h"
#include "base/git-util.h"

void fs_cross_releases_free(struct fs_cross_release *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		g_free(v[i].branch);
		g_free(v[i].name);
	}
	g_free(v);
}

/* Tags read between two fs_git_drop_pack_pages(). */
#define TAGS_PER_DROP 64

struct tag_walk {
	git_repository *repo;
	GArray *out;
	size_t seen;
};

static int one_tag(const char *refname, git_oid *oid, void *data)
{
	struct tag_walk *w = data;
	const char *name = refname + strlen("refs/tags/");
	struct fs_cross_release rel;
	git_object *obj = NULL, *peeled = NULL;
	char branch[64];
	int64_t when = 0;

	if (strncmp(refname, "refs/tags/", 10) || !fs_cross_release_branch(name, branch, sizeof(branch)))
		return 0;
	/* A thousand tags touch pages all over a kernel-sized pack and its
	 * index (80 MB of them); what a few tags touch is enough. */
	if (++w->seen % TAGS_PER_DROP == 0)
		fs_git_drop_pack_pages();
	if (git_object_lookup(&obj, w->repo, oid, GIT_OBJECT_ANY) < 0)
		return 0;
	/* An annotated tag's date is the tagger's; a light one's its commit's. */
	if (git_object_type(obj) == GIT_OBJECT_TAG && git_tag_tagger((git_tag *)obj))
		when = (int64_t)git_tag_tagger((git_tag *)obj)->when.time;
	else if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0)
		when = (int64_t)git_commit_time((git_commit *)peeled);
	git_object_free(peeled);
	git_object_free(obj);
	rel.branch = g_strdup(branch);
	rel.name = g_strdup(name);
	rel.time = when;
	g_array_append_val(w->out, rel);
	return 0;
}

int fs_cross_read_releases(const char *repo_path, struct fs_cross_release **out, size_t *n,
			   struct fs_error *err)
{
	struct tag_walk w;
	int rc;

	*out = NULL;
	*n = 0;
	fs_git_init();
	if (git_repository_open(&w.repo, repo_path) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open '%s'", repo_path);
	w.out = g_array_new(FALSE, FALSE, sizeof(struct fs_cross_release));
	w.seen = 0;
	rc = git_tag_foreach(w.repo, one_tag, &w);
	git_repository_free(w.repo);
	*n = w.out->len;
	*out = (struct fs_cross_release *)(void *)g_array_free(w.out, FALSE);
	if (rc < 0) {
		fs_cross_releases_free(*out, *n);
		*out = NULL;
		*n = 0;
		return fs_error_set(err, FS_ENOMEM, "cannot read the release tags of '%s'", repo_path);
	}
	/* The array is GLib's, as its strings are: fs_cross_releases_free(). */
	if (!*n) {
		g_free(*out);
		*out = NULL;
	}
	return 0;
}

void fs_cross_notices_free(struct fs_cross_notice *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fs_cross_notice_clear(&v[i]);
	g_free(v);
}

int fs_cross_load_notices(struct fs_store *store, int64_t since, struct fs_cross_notice **out,
			  size_t *nout, struct fs_error *err)
{
	struct fs_store_messages msgs = { NULL, 0 };
	struct fs_cross_notice *v = NULL;
	char *query;
	size_t i, n = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	query = g_strdup_printf("(subject:\"failed to apply to\" OR subject:\"has been added to the\")"
				" AND date:@%lld..", (long long)(since > 0 ? since : 0));
	rc = fs_store_search(store, query, &msgs, err);
	g_free(query);
	if (rc < 0)
		return rc;
	v = g_try_new0(struct fs_cross_notice, msgs.n + 1);
	if (!v) {
		fs_store_messages_free(&msgs);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	for (i = 0; i < msgs.n; i++) {
		struct fs_patch *p = NULL;
		struct fs_error one = FS_ERROR_INIT;
		const char *body;
		size_t len = 0;

		/* A notice that cannot be read is no notice. */
		if (fs_patch_parse_file(&p, msgs.v[i].filename, &one) < 0)
			continue;
		body = fs_patch_body(p, &len);
		if (fs_cross_notice_parse(&v[n], fs_patch_subject(p), body, len) == 0) {
			v[n].message_id = g_strdup(fs_patch_message_id(p));
			v[n].date = g_strdup(fs_patch_date(p));
			n++;
		}
		fs_patch_free(p);
	}
	fs_store_messages_free(&msgs);
	*out = v;
	*nout = n;
	return 0;
}
