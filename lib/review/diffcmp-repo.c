/* fixscan: the upstream side of the diff comparison: a commit's diff and
 * message read from the repository (its pack files through diffcmp-pack.c,
 * else libgit2), and the note when the clone lacks the objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "base/git-util.h"
#include "diffcmp-pack.h"
#include "diffcmp-private.h"

/* ---- the upstream commit ------------------------------------------------ */

struct fs_diffcmp {
	git_repository *repo;
	git_odb *odb;
	struct fs_dcpack *packs; /* the packs read directly; NULL: none */
	struct fs_dcgraph *graph; /* the commit-graph; NULL: none */
	char *note;
	bool noted;       /* a comparison failed */
	bool note_taken;
};

int fs_diffcmp_open(struct fs_diffcmp **out, const char *repo_path, struct fs_error *err)
{
	struct fs_diffcmp *dc = calloc(1, sizeof(*dc));

	*out = NULL;
	if (!dc)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	fs_git_init();
	if (git_repository_open(&dc->repo, repo_path) < 0 ||
	    git_repository_odb(&dc->odb, dc->repo) < 0) {
		git_repository_free(dc->repo);
		free(dc);
		return fs_error_set_git(err, FS_EGIT, "cannot open '%s'", repo_path);
	}
	{
		char *objects = g_strdup_printf("%sobjects", git_repository_commondir(dc->repo));
		dc->packs = fs_dcpack_open(objects);
		/* git does not use the graph of a shallow clone */
		if (!git_repository_is_shallow(dc->repo))
			dc->graph = fs_dcgraph_open(objects);
		g_free(objects);
	}
	*out = dc;
	return 0;
}

void fs_diffcmp_free(struct fs_diffcmp *dc)
{
	if (!dc)
		return;
	fs_dcpack_free(dc->packs);
	fs_dcgraph_free(dc->graph);
	git_odb_free(dc->odb);
	git_repository_free(dc->repo);
	g_free(dc->note);
	free(dc);
}

void fs_diffcmp_trim(struct fs_diffcmp *dc)
{
	if (!dc)
		return;
	fs_dcpack_trim(dc->packs);
	fs_dcgraph_trim(dc->graph);
}

const char *fs_diffcmp_take_note(struct fs_diffcmp *dc)
{
	if (!dc || !dc->noted || dc->note_taken)
		return NULL;
	dc->note_taken = true;
	return dc->note;
}

/* Remember, once, that the clone could not give commit HEX's diff. */
static int cannot_compare(struct fs_diffcmp *dc, const char *hex, struct fs_error *err)
{
	const git_error *e = git_error_last();

	if (!dc->noted) {
		dc->noted = true;
		dc->note = g_strdup_printf("cannot compare backports with their upstream diffs: the kernel repository lacks objects of %.12s (a clone made with --filter=blob:none?)%s%s; the rest of the review goes on",
					   hex, e && e->message ? ": " : "",
					   e && e->message ? e->message : "");
	}
	return fs_error_set(err, FS_ENOTFOUND, "cannot read the diff of %.12s", hex);
}

/* Object OID of TYPE (GIT_OBJECT_COMMIT, _TREE or _BLOB, which the pack
 * reader numbers alike): from the packs directly, else through libgit2;
 * *DATA GLib's (g_free()), NUL-terminated. */
static int read_object(struct fs_diffcmp *dc, const git_oid *oid, git_object_t type,
		       unsigned char **data, size_t *len)
{
	git_odb_object *o = NULL;
	int rc;

	if (fs_dcpack_read(dc->packs, oid->id, (int)type, data, len) == 0)
		return 0;
	rc = git_odb_read(&o, dc->odb, oid);
	if (rc < 0)
		return rc;
	rc = -1;
	if (git_odb_object_type(o) == type) {
		*len = git_odb_object_size(o);
		*data = g_try_malloc(*len + 1);
		if (*data) {
			memcpy(*data, git_odb_object_data(o), *len);
			(*data)[*len] = '\0';
			rc = 0;
		}
	}
	git_odb_object_free(o);
	return rc;
}

/* The upstream side: the files of commit C against its first parent,
 * found by walking the two trees into the subtrees that differ only (a
 * kernel tree has some 80,000 files; a patch changes a few), and the
 * added and removed lines of each file from its two blobs. */
struct walk {
	struct fs_diffcmp *dc;
	GPtrArray *files;
};

static int on_line(const git_diff_delta *delta, const git_diff_hunk *hunk,
		   const git_diff_line *line, void *payload)
{
	struct dfile *f = payload;
	char sign = line->origin == GIT_DIFF_LINE_ADDITION ? '+' :
		    line->origin == GIT_DIFF_LINE_DELETION ? '-' : 0;
	size_t n = line->content_len;
	char *key;

	if (!sign)
		return 0;
	while (n && (line->content[n - 1] == '\n' || line->content[n - 1] == '\r'))
		n--;
	key = fsdc_line_key(sign, line->content, n);
	if (key) {
		GString *raw = g_string_new_len(&sign, 1);
		g_string_append_len(raw, line->content, (gssize)n);
		g_ptr_array_add(f->keys, key);
		g_ptr_array_add(f->raw, g_string_free(raw, FALSE));
	}
	return 0;
}

/* A tree read raw: its entries point into DATA. */
struct rtree {
	unsigned char *data;
	GArray *ents;      /* struct rentry */
	GHashTable *names; /* name -> its struct rentry, made when asked */
};

struct rentry {
	const char *name;
	const unsigned char *oid;
	unsigned mode;     /* 100755 and other 100xxx made 100644, as git reads them */
};

#define MODE_TREE 0040000u
#define MODE_TYPE 0170000u
#define MODE_FILE 0100000u
#define MODE_LINK 0120000u

static void rtree_clear(struct rtree *t)
{
	g_free(t->data);
	if (t->ents)
		g_array_free(t->ents, TRUE);
	if (t->names)
		g_hash_table_destroy(t->names);
	memset(t, 0, sizeof(*t));
}

/* Tree OID into *T: "<octal mode> <name>\0<20-byte id>" entries. */
static int rtree_read(struct fs_diffcmp *dc, const unsigned char *oid, struct rtree *t)
{
	git_oid id;
	const unsigned char *p, *end;
	size_t len;

	memset(t, 0, sizeof(*t));
	git_oid_fromraw(&id, oid);
	if (read_object(dc, &id, GIT_OBJECT_TREE, &t->data, &len) < 0)
		return -1;
	t->ents = g_array_new(FALSE, FALSE, sizeof(struct rentry));
	for (p = t->data, end = p + len; p < end;) {
		struct rentry e = { NULL, NULL, 0 };
		const unsigned char *nul;

		while (p < end && *p >= '0' && *p <= '7')
			e.mode = e.mode * 8 + (unsigned)(*p++ - '0');
		nul = p < end && *p == ' ' ? memchr(p, '\0', (size_t)(end - p)) : NULL;
		if (!nul || nul == p + 1 || end - nul < 21 || e.mode > 0177777u) {
			rtree_clear(t);
			return -1;
		}
		if ((e.mode & MODE_TYPE) == MODE_FILE)
			e.mode = e.mode & 0111 ? 0100755u : 0100644u;
		e.name = (const char *)p + 1;
		e.oid = nul + 1;
		g_array_append_val(t->ents, e);
		p = nul + 21;
	}
	return 0;
}

/* The entry of T named NAME, or NULL. */
static const struct rentry *rtree_find(struct rtree *t, const char *name)
{
	guint i;

	if (!t->ents)
		return NULL;
	if (!t->names) {
		t->names = g_hash_table_new(g_str_hash, g_str_equal);
		for (i = 0; i < t->ents->len; i++) {
			struct rentry *e = &g_array_index(t->ents, struct rentry, i);
			g_hash_table_insert(t->names, (gpointer)e->name, e);
		}
	}
	return g_hash_table_lookup(t->names, name);
}

static bool is_tree(const struct rentry *e)
{
	return e && (e->mode & MODE_TYPE) == MODE_TREE;
}

/* The blob of entry E into *DATA and *LEN; *DATA NULL for none (no
 * entry, a submodule). */
static int entry_blob(struct fs_diffcmp *dc, const struct rentry *e, unsigned char **data,
		      size_t *len)
{
	git_oid id;

	*data = NULL;
	*len = 0;
	if (!e || ((e->mode & MODE_TYPE) != MODE_FILE && (e->mode & MODE_TYPE) != MODE_LINK))
		return 0;
	git_oid_fromraw(&id, e->oid);
	return read_object(dc, &id, GIT_OBJECT_BLOB, data, len);
}

/* File PATH, blob entry A (old, may be NULL) against B (new, may be
 * NULL).  A submodule's entry is a file without lines. */
static int walk_file(struct walk *w, const char *path, const struct rentry *a,
		     const struct rentry *b)
{
	git_diff_options o;
	unsigned char *ba = NULL, *bb = NULL;
	size_t la, lb;
	struct dfile *f = fsdc_dfile_new(w->files);
	int rc;

	f->path = g_strdup(path);
	f->git = true;
	rc = entry_blob(w->dc, a, &ba, &la);
	if (rc == 0)
		rc = entry_blob(w->dc, b, &bb, &lb);
	if (rc == 0 && (ba || bb)) {
		git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
		o.context_lines = 0;
		rc = git_diff_buffers(ba, la, NULL, bb, lb, NULL, &o, NULL, NULL, NULL, on_line, f);
	}
	g_free(ba);
	g_free(bb);
	return rc;
}

static int walk_trees(struct walk *w, const char *prefix, struct rtree *a, struct rtree *b);

/* Entry A of the old tree against entry B of the new one (either may be
 * NULL), both named NAME under PREFIX. */
static int walk_entry(struct walk *w, const char *prefix, const char *name,
		      const struct rentry *a, const struct rentry *b)
{
	bool ta = is_tree(a), tb = is_tree(b);
	char *path;
	struct rtree sa = { NULL, NULL, NULL }, sb = { NULL, NULL, NULL };
	int rc = 0;

	if (a && b && !memcmp(a->oid, b->oid, 20) && a->mode == b->mode)
		return 0;
	path = g_strdup_printf("%s%s", prefix, name);
	if ((a && !ta) || (b && !tb))
		rc = walk_file(w, path, ta ? NULL : a, tb ? NULL : b);
	if (rc == 0 && (ta || tb)) {
		char *dir = g_strdup_printf("%s/", path);

		if (ta)
			rc = rtree_read(w->dc, a->oid, &sa);
		if (rc == 0 && tb)
			rc = rtree_read(w->dc, b->oid, &sb);
		if (rc == 0)
			rc = walk_trees(w, dir, &sa, &sb);
		g_free(dir);
	}
	rtree_clear(&sa);
	rtree_clear(&sb);
	g_free(path);
	return rc;
}

/* Old tree A against new tree B (an empty struct rtree: none). */
static int walk_trees(struct walk *w, const char *prefix, struct rtree *a, struct rtree *b)
{
	guint i, na = a->ents ? a->ents->len : 0, nb = b->ents ? b->ents->len : 0;
	int rc = 0;

	for (i = 0; rc == 0 && i < nb; i++) {
		const struct rentry *e = &g_array_index(b->ents, struct rentry, i);
		const struct rentry *old = rtree_find(a, e->name);

		/* a file that became a directory (or the other way) is two */
		if (old && is_tree(old) != is_tree(e)) {
			rc = walk_entry(w, prefix, e->name, old, NULL);
			old = NULL;
		}
		if (rc == 0)
			rc = walk_entry(w, prefix, e->name, old, e);
	}
	for (i = 0; rc == 0 && i < na; i++) {
		const struct rentry *e = &g_array_index(a->ents, struct rentry, i);

		if (!rtree_find(b, e->name))
			rc = walk_entry(w, prefix, e->name, e, NULL);
	}
	return rc;
}

/* The tree of commit OID, and its first parent (zero when none), from
 * the commit's raw text: cheaper than parsing it into a git_commit. */
static int commit_tree_parent(struct fs_diffcmp *dc, const git_oid *oid, git_oid *tree,
			      git_oid *parent)
{
	unsigned char *data = NULL;
	const char *d, *end;
	size_t len;
	int rc = read_object(dc, oid, GIT_OBJECT_COMMIT, &data, &len);

	memset(parent, 0, sizeof(*parent));
	if (rc < 0)
		return rc;
	d = (const char *)data;
	end = d + len;
	rc = -1;
	if (end - d > 45 && !memcmp(d, "tree ", 5) && git_oid_fromstrn(tree, d + 5, 40) == 0) {
		rc = 0;
		d += 46;
		if (end - d > 47 && !memcmp(d, "parent ", 7) &&
		    git_oid_fromstrn(parent, d + 7, 40) < 0)
			rc = -1;
	}
	g_free(data);
	return rc;
}

/* The files commit OID changes against its first parent (none: against
 * the empty tree), whose tree's id goes to *PTID (zero: none). */
static int commit_files(struct fs_diffcmp *dc, const git_oid *oid, GPtrArray *files,
			git_oid *ptid_out)
{
	struct walk w = { dc, files };
	git_oid tid, pid, ptid;
	struct rtree t = { NULL, NULL, NULL }, pt = { NULL, NULL, NULL };
	int rc;

	if (fs_dcgraph_trees(dc->graph, oid->id, tid.id, ptid.id) == 0) {
		rc = 0;
	} else {
		rc = commit_tree_parent(dc, oid, &tid, &pid);
		if (rc == 0 && !git_oid_is_zero(&pid))
			rc = commit_tree_parent(dc, &pid, &ptid, &pid);
		else
			memset(&ptid, 0, sizeof(ptid));
	}
	/* the new tree first: in a fast-import pack it is a delta whose
	 * chain passes its parent's, which the reader then keeps */
	if (rc == 0)
		rc = rtree_read(dc, tid.id, &t);
	if (rc == 0 && !git_oid_is_zero(&ptid))
		rc = rtree_read(dc, ptid.id, &pt);
	if (rc == 0)
		rc = walk_trees(&w, "", &pt, &t);
	rtree_clear(&pt);
	rtree_clear(&t);
	*ptid_out = ptid;
	return rc;
}

/* Where upstream_has() looks. */
struct in_tree {
	struct fs_diffcmp *dc;
	git_oid tree;
};

/* Whether PATH is in tree CTX (or cannot be told: then, as if it were). */
static bool upstream_has(void *ctx, const char *path)
{
	const struct in_tree *it = ctx;
	unsigned char oid[20];
	gchar **parts;
	bool has = true, tree = true;
	size_t i;

	if (git_oid_is_zero(&it->tree))
		return false;
	memcpy(oid, it->tree.id, 20);
	parts = g_strsplit(path, "/", -1);
	for (i = 0; has && parts[i]; i++) {
		struct rtree t = { NULL, NULL, NULL };
		const struct rentry *e;

		if (!tree || rtree_read(it->dc, oid, &t) < 0)
			break;  /* a file on the way, or unreadable: "has" */
		e = rtree_find(&t, parts[i]);
		has = e != NULL;
		if (e) {
			memcpy(oid, e->oid, 20);
			tree = is_tree(e);
		}
		rtree_clear(&t);
	}
	g_strfreev(parts);
	return has;
}

/* The message of commit OID (g_free()), or NULL. */
static char *commit_message(struct fs_diffcmp *dc, const git_oid *oid)
{
	unsigned char *data = NULL;
	const char *m;
	size_t n;
	char *msg = NULL;

	if (read_object(dc, oid, GIT_OBJECT_COMMIT, &data, &n) < 0)
		return NULL;
	m = memmem(data, n, "\n\n", 2);
	if (m)
		msg = g_strdup(m + 2);
	g_free(data);
	return msg;
}

int fs_diffcmp_commit(struct fs_diffcmp *dc, const char *hex, const char *body, size_t len,
		      struct fs_diffcmp_result *out, struct fs_error *err)
{
	GPtrArray *files, *theirs;
	struct in_tree where;
	git_oid oid;
	char *msg;
	int rc;

	memset(out, 0, sizeof(*out));
	if (git_oid_fromstr(&oid, hex) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is not a commit id", hex);
	/* The mail first: without a diff there is no upstream diff to read. */
	theirs = fsdc_parse_diff(body, len);
	if (theirs->len == 0) {
		g_ptr_array_free(theirs, TRUE);
		return fs_error_set(err, FS_EPARSE, "the backport has no diff to compare");
	}
	files = g_ptr_array_new_with_free_func(fsdc_dfile_free);
	where.dc = dc;
	if (commit_files(dc, &oid, files, &where.tree) < 0) {
		g_ptr_array_free(files, TRUE);
		g_ptr_array_free(theirs, TRUE);
		return cannot_compare(dc, hex, err);
	}
	rc = fsdc_compare_with(files, theirs, out, upstream_has, &where, err);
	/* the changelog only matters when there is a difference */
	if (rc == 0 && fs_diffcmp_differs(out)) {
		msg = commit_message(dc, &oid);
		out->documented = fs_diffcmp_documented(body, len, msg);
		g_free(msg);
	}
	return rc;
}
