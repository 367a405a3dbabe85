/* fixscan: the verdicts that read the branch's tree (see
 * fixscan/treecheck.h). */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/treecheck.h"

/* At most this many names of one patch are looked up in mainline's
 * history, and this many files where mainline defines one. */
#define MAX_SEARCHES 16
#define MAX_PATHS 16

struct tc_patch {
	int index;
	struct fs_csyms syms;
	fs_cid *ups;
	size_t nups;
};

struct fs_treecheck {
	const struct fs_index *idx;
	struct fs_treesyms *t;
	char *branch, *base;
	const char *fork;
	char commit[41];                 /* the branch's at BASE, or "" */
	const struct fs_idset *branch_set; /* NULL: names are not checked */
	const struct fs_idset *mainline;
	bool sets_failed;
	struct tc_patch *p;
	size_t np, cap;
};

int fs_treecheck_open(struct fs_treecheck **out, struct fs_treesyms *t,
		      const struct fs_index *idx, const char *branch, const char *base,
		      struct fs_error *err)
{
	struct fs_treecheck *tc = calloc(1, sizeof(*tc));

	*out = NULL;
	if (!tc || !(tc->branch = strdup(branch)) || (base && !(tc->base = strdup(base)))) {
		fs_treecheck_free(tc);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	tc->idx = idx;
	tc->t = t;
	tc->fork = fs_index_branch_fork(idx, branch);
	if (fs_treesyms_branch_commit(idx, branch, base, tc->commit) < 0)
		tc->commit[0] = '\0';
	*out = tc;
	return 0;
}

/* The identifier sets of the branch and of mainline, read the first time
 * a patch uses a name: 0, or -1 when they cannot be had (the trees
 * handle says why once: a blobless clone), or FS_ENOMEM.  Mainline's
 * first: a branch's set is then mostly a tree diff from it. */
static int sets(struct fs_treecheck *tc, struct fs_error *err)
{
	struct fs_error e = FS_ERROR_INIT;
	char mhex[41];

	if (tc->branch_set)
		return 0;
	if (tc->sets_failed || !tc->commit[0] || !tc->fork ||
	    fs_treesyms_branch_commit(tc->idx, NULL, NULL, mhex) < 0 ||
	    fs_treesyms_set(tc->t, mhex, "mainline", FS_IDSET_DEFS, &tc->mainline, &e) < 0 ||
	    fs_treesyms_set(tc->t, tc->commit, tc->branch, 0, &tc->branch_set, &e) < 0) {
		tc->branch_set = NULL;
		tc->sets_failed = true;
		if (e.code == FS_ENOMEM)
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		return -1;
	}
	return 0;
}

void fs_treecheck_trim(struct fs_treecheck *tc)
{
	if (tc && tc->t)
		fs_treesyms_trim(tc->t);
}

void fs_treecheck_save(struct fs_treecheck *tc)
{
	if (tc)
		fs_treesyms_save(tc->t);
}

void fs_treecheck_free(struct fs_treecheck *tc)
{
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < tc->np; i++) {
		fs_csyms_clear(&tc->p[i].syms);
		free(tc->p[i].ups);
	}
	free(tc->p);
	free(tc->branch);
	free(tc->base);
	free(tc);
}

int fs_treecheck_add_patch(struct fs_treecheck *tc, int index, const char *body, size_t len,
			   const fs_cid *ups, size_t nups, struct fs_error *err)
{
	struct tc_patch *p;

	if (tc->np == tc->cap) {
		size_t cap = tc->cap ? tc->cap * 2 : 16;
		struct tc_patch *v = realloc(tc->p, cap * sizeof(*v));

		if (!v)
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		tc->p = v;
		tc->cap = cap;
	}
	p = &tc->p[tc->np];
	memset(p, 0, sizeof(*p));
	p->index = index;
	if (nups && !(p->ups = malloc(nups * sizeof(*p->ups))))
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	if (nups)
		memcpy(p->ups, ups, nups * sizeof(*ups));
	p->nups = nups;
	if (fs_csyms_read_patch(&p->syms, body, len, err) < 0) {
		free(p->ups);
		return FS_ENOMEM;
	}
	tc->np++;
	return 0;
}

/* ---- symbol-missing ----------------------------------------------------------- */

/* Whether patch P carries commit C, or a commit that is the same change. */
static bool carries(const struct fs_treecheck *tc, const struct tc_patch *p, fs_cid c)
{
	fs_cid eq[8];
	size_t neq = fs_index_equivalents(tc->idx, c, eq, 8), i, j;

	for (i = 0; i < p->nups; i++) {
		if (p->ups[i] == c)
			return true;
		for (j = 0; j < neq && j < 8; j++)
			if (p->ups[i] == eq[j])
				return true;
	}
	return false;
}

/* The commit that brought NAME (defined in PATHS) before one of the
 * upstream commits of P: 0 with *C, or 1 when there is none to name. */
static int brought_by(struct fs_treecheck *tc, const struct tc_patch *p, const char *name,
		      const char *const *paths, size_t npaths, fs_cid *c)
{
	struct fs_error e = FS_ERROR_INIT;
	size_t i;

	for (i = 0; i < p->nups; i++)
		if (fs_treesyms_introduced(tc->t, tc->idx, name, paths, npaths, p->ups[i], tc->fork,
					   c, &e) == 0)
			return 0;
	return 1;
}

static int use_copy(struct fs_csym_use *to, const struct fs_csym_use *u)
{
	to->name = strdup(u->name);
	to->tag = u->tag ? strdup(u->tag) : NULL;
	to->file = strdup(u->file);
	to->role = u->role;
	to->line = u->line;
	return to->name && to->file && (to->tag || !u->tag) ? 0 : -1;
}

/* Add use U to the entry of commit C in *OUT (a new one when C has none;
 * FS_CID_NONE names have one each). */
static int add_missing(struct fs_treecheck_missing **out, size_t *n, fs_cid c, int queued,
		       const struct fs_csym_use *u)
{
	struct fs_treecheck_missing *m = NULL, *v;
	struct fs_csym_use *names;
	size_t i;

	for (i = 0; i < *n && c != FS_CID_NONE; i++)
		if ((*out)[i].commit == c)
			m = &(*out)[i];
	if (!m) {
		if (!(v = realloc(*out, (*n + 1) * sizeof(*v))))
			return -1;
		*out = v;
		m = &v[(*n)++];
		memset(m, 0, sizeof(*m));
		m->commit = c;
		m->queued = queued;
	}
	if (!(names = realloc(m->names, (m->nnames + 1) * sizeof(*names))))
		return -1;
	m->names = names;
	memset(&names[m->nnames], 0, sizeof(*names));
	return use_copy(&names[m->nnames++], u);
}

/* Whether a patch before position K has NAME on an added line. */
static bool earlier_has(const struct fs_treecheck *tc, size_t k, const char *name)
{
	size_t i;

	for (i = 0; i < k; i++)
		if (fs_csyms_has_token(&tc->p[i].syms, name))
			return true;
	return false;
}

/* The NN of the patch after position K that carries C, -2 when one
 * before it does, -1 when none does. */
static int queued_at(const struct fs_treecheck *tc, size_t k, fs_cid c)
{
	size_t i;

	for (i = 0; i < tc->np; i++)
		if (i != k && carries(tc, &tc->p[i], c))
			return i < k ? -2 : tc->p[i].index;
	return -1;
}

int fs_treecheck_missing(struct fs_treecheck *tc, size_t k, struct fs_treecheck_missing **out,
			 size_t *n, struct fs_error *err)
{
	const struct tc_patch *p = &tc->p[k];
	size_t i, searches = 0;

	int rc;

	*out = NULL;
	*n = 0;
	if (k >= tc->np || !p->syms.nuses || !p->nups)
		return 0;
	rc = sets(tc, err);
	if (rc < 0)
		return rc == FS_ENOMEM ? rc : 0;
	for (i = 0; i < p->syms.nuses && searches < MAX_SEARCHES; i++) {
		const struct fs_csym_use *u = &p->syms.uses[i];
		const char *paths[MAX_PATHS];
		size_t np;
		fs_cid c;
		int queued;

		if (fs_idset_has(tc->branch_set, u->name) || earlier_has(tc, k, u->name))
			continue;
		np = fs_idset_defined_in(tc->mainline, u->name, paths, MAX_PATHS);
		if (!np)
			continue; /* no name mainline defines (made by the build?) */
		searches++;
		if (brought_by(tc, p, u->name, paths, np < MAX_PATHS ? np : MAX_PATHS, &c) != 0 ||
		    carries(tc, p, c))
			continue;
		queued = queued_at(tc, k, c);
		if (queued == -2 || fs_index_present(tc->idx, c, tc->branch, tc->base, NULL))
			continue;
		if (add_missing(out, n, c, queued, u) < 0) {
			fs_treecheck_missing_free(*out, *n);
			*out = NULL;
			*n = 0;
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		}
	}
	return 0;
}

void fs_treecheck_missing_free(struct fs_treecheck_missing *m, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < m[i].nnames; j++) {
			free(m[i].names[j].name);
			free(m[i].names[j].tag);
			free(m[i].names[j].file);
		}
		free(m[i].names);
	}
	free(m);
}

/* ---- fix-not-applicable ---------------------------------------------------------- */

/* Whether a patch of the series adds PATH. */
static bool series_adds(const struct fs_treecheck *tc, const char *path)
{
	size_t i, j;

	for (i = 0; i < tc->np; i++)
		for (j = 0; j < tc->p[i].syms.nfiles; j++)
			if (tc->p[i].syms.files[j].created && !tc->p[i].syms.files[j].deleted &&
			    !strcmp(tc->p[i].syms.files[j].path, path))
				return true;
	return false;
}

int fs_treecheck_fix_files(struct fs_treecheck *tc, fs_cid fix, char ***files, size_t *n,
			   struct fs_error *err)
{
	struct fs_error e = FS_ERROR_INIT;
	char hex[41], **paths = NULL;
	size_t np = 0, i;
	int rc;

	*files = NULL;
	*n = 0;
	if (!tc->commit[0])
		return 0;
	fs_index_commit_hex(tc->idx, fix, hex);
	rc = fs_treesyms_changed_paths(tc->t, hex, &paths, &np, &e);
	if (rc == FS_ENOMEM)
		return fs_error_set(err, rc, "out of memory");
	if (rc < 0 || !np) {
		g_strfreev(paths);
		return 0;
	}
	for (i = 0; i < np; i++)
		if (series_adds(tc, paths[i]) ||
		    fs_treesyms_has_path(tc->t, tc->commit, paths[i], &e) != 0) {
			g_strfreev(paths);
			return 0; /* one the branch has (or cannot say) */
		}
	*files = paths;
	*n = np;
	return 1;
}

/* ---- the findings ------------------------------------------------------------------ */

/* A new finding of KIND at the end of OUT (its other members zero), or
 * NULL out of memory. */
static struct fs_finding *add_finding(struct fs_findings *out, enum fs_finding_kind kind)
{
	struct fs_finding *v = g_try_realloc(out->v, (out->n + 1) * sizeof(*v)), *f;

	if (!v)
		return NULL;
	out->v = v;
	f = &v[out->n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->series_index = -1;
	f->evidence = FS_FEV_EXACT;
	return f;
}

static bool copy_uses(struct fs_finding *f, const struct fs_csym_use *u, size_t n)
{
	size_t i;

	if (!(f->tree.symbols = g_try_new0(struct fs_csym_use, n ? n : 1)))
		return false;
	f->tree.nsymbols = n;
	for (i = 0; i < n; i++) {
		f->tree.symbols[i].name = g_strdup(u[i].name);
		f->tree.symbols[i].tag = g_strdup(u[i].tag);
		f->tree.symbols[i].file = g_strdup(u[i].file);
		f->tree.symbols[i].role = u[i].role;
		f->tree.symbols[i].line = u[i].line;
	}
	return true;
}

/* The symbol-missing finding of missing prerequisite M. */
static int add_symbol_missing(struct fs_treecheck *tc, struct fs_findings *out,
			      const struct fs_treecheck_missing *m, const struct fs_ignore *ignore)
{
	struct fs_finding *f = add_finding(out, FS_FIND_SYMBOL_MISSING);
	const char *why;

	if (!f)
		return FS_ENOMEM;
	if (m->commit != FS_CID_NONE) {
		const char *rel = fs_index_commit_release(tc->idx, m->commit);

		fs_index_commit_hex(tc->idx, m->commit, f->commit);
		f->subject = g_strdup(fs_index_commit_subject(tc->idx, m->commit));
		f->release = g_strdup(rel);
		f->branch = g_strdup(fs_index_commit_branch(tc->idx, m->commit));
	}
	f->series_index = m->queued;
	if (!copy_uses(f, m->names, m->nnames))
		return FS_ENOMEM;
	why = ignore ? fs_ignore_match(ignore, f->commit, out->upstream) : NULL;
	if (why)
		f->ignored = g_strdup(why);
	return 0;
}

int fs_treecheck_judge(struct fs_treecheck *tc, size_t k, struct fs_findings *out,
		       const struct fs_ignore *ignore, struct fs_error *err)
{
	struct fs_treecheck_missing *m = NULL;
	size_t n = 0, i;
	int rc = 0;

	for (i = 0; rc == 0 && i < out->n; i++) {
		struct fs_finding *f = &out->v[i];
		char **files;
		size_t nf;
		fs_cid c;

		if (f->kind != FS_FIND_FIX_MISSING || fs_index_resolve(tc->idx, f->commit, &c, NULL) < 0)
			continue;
		rc = fs_treecheck_fix_files(tc, c, &files, &nf, err);
		if (rc == 1) {
			f->kind = FS_FIND_FIX_NOT_APPLICABLE;
			f->tree.files = g_new0(char *, nf + 1);
			for (size_t j = 0; j < nf; j++)
				f->tree.files[j] = g_strdup(files[j]);
			f->tree.nfiles = nf;
			g_strfreev(files);
			rc = 0;
		}
	}
	if (rc == 0)
		rc = fs_treecheck_missing(tc, k, &m, &n, err);
	for (i = 0; rc == 0 && i < n; i++)
		rc = add_symbol_missing(tc, out, &m[i], ignore);
	fs_treecheck_missing_free(m, n);
	if (rc == FS_ENOMEM)
		return fs_error_set(err, rc, "out of memory");
	return rc;
}
