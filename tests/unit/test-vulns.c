/* Unit tests for the CVE data of the kernel CNA's vulns repository: a
 * vulns-like repository made with git fast-import (cve/published/<year>/
 * CVE-*.sha1, .vulnerable and .json, one CVE under cve/rejected/) over the
 * ids of a small kernel-like history, read through the public API; and the
 * findings those CVEs give, each patch with every finding expected and
 * nothing else.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/digest.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "fixscan/vulns.h"

#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

/* ---- the kernel ----------------------------------------------------------- */

/* mainline (master), after v4.4 (on X0, where linux-4.4.y forks):
 *   A, AF Fixes A                 AF fixes CVE-2024-1001 and CVE-2023-52999
 *   B, BF (no tag), BFF Fixes BF  CVE-2024-1002: .vulnerable B (and X0), .sha1 BF
 *   C, CF (no tag)                CVE-2024-1003: vulnerable C, fix CF
 *   D, DF (no tag)                CVE-2024-1004: vulnerable D, fix DF
 *   E, EF Fixes E                 CVE-2024-1005: vulnerable E, fix EF (both routes)
 *   G, GF (no tag)                CVE-2024-1009, rejected: nothing
 *   H                             H itself fixes CVE-2024-1010
 *   J                             CVE-2024-1012: vulnerable J, fix not in the clone
 *   K, KF (no tag)                CVE-2024-1013: .vulnerable K, .json, no .sha1
 *   v4.5 on KF
 * linux-4.4.y: SCF = CF           v4.4.1
 */
struct kernel {
	struct repo *r;
	int base, x0, a, af, b, bf, bff, c, cf, d, df, e, ef, g, gf, h, j, k, kf, scf;
};

static struct kernel K;
static struct fs_index *IDX;

static void build_kernel(struct kernel *k)
{
	struct repo *r = repo_new("kernel");

	k->r = r;
	k->base = commit(r, "master", 0, "Initial import\n");
	k->x0 = commit(r, "master", k->base, "net: old thing\n");
	tag_light(r, "v4.4", k->x0);
	k->a = commit(r, "master", k->x0, "net: add a\n");
	k->af = commit(r, "master", k->a, "net: fix a\n\nFixes: %.12s (\"net: add a\")\n",
		       id(r, k->a));
	k->b = commit(r, "master", k->af, "mm: add b\n");
	k->bf = commit(r, "master", k->b, "mm: fix b\n\nNo tag names what it fixes.\n");
	k->bff = commit(r, "master", k->bf, "mm: fix the fix of b\n\nFixes: %.12s (\"mm: fix b\")\n",
			id(r, k->bf));
	k->c = commit(r, "master", k->bff, "fs: add c\n");
	k->cf = commit(r, "master", k->c, "fs: fix c\n");
	k->d = commit(r, "master", k->cf, "usb: add d\n");
	k->df = commit(r, "master", k->d, "usb: fix d\n");
	k->e = commit(r, "master", k->df, "gpu: add e\n");
	k->ef = commit(r, "master", k->e, "gpu: fix e\n\nFixes: %.12s (\"gpu: add e\")\n",
		       id(r, k->e));
	k->g = commit(r, "master", k->ef, "sound: add g\n");
	k->gf = commit(r, "master", k->g, "sound: fix g\n");
	k->h = commit(r, "master", k->gf, "block: fix h\n");
	k->j = commit(r, "master", k->h, "crypto: add j\n");
	k->k = commit(r, "master", k->j, "drm: add k\n");
	k->kf = commit(r, "master", k->k, "drm: fix k\n");
	tag_light(r, "v4.5", k->kf);
	k->scf = commit(r, "linux-4.4.y", k->x0, "fs: fix c\n\ncommit %s upstream.\n", id(r, k->cf));
	tag_light(r, "v4.4.1", k->scf);
	repo_flush(r);
}

/* ---- the vulns repository --------------------------------------------------- */

static struct repo *V;
static int v_head;
static char cache_dir[PATH_MAX];

/* A commit on master after PARENT (0: the first) with FILES: pairs of
 * path and content, NULL content deleting the path; NULL-terminated. */
static int vcommit(struct repo *r, int parent, const char *const *files)
{
	int mark = r->next_mark++;
	size_t i;

	g_string_append_printf(r->fi, "commit refs/heads/master\nmark :%d\n", mark);
	g_string_append_printf(r->fi, "committer C N A <cna@example.org> %ld +0000\n", r->when);
	r->when += 60;
	g_string_append(r->fi, "data 7\nupdate\n");
	if (parent)
		g_string_append_printf(r->fi, "from :%d\n", parent);
	for (i = 0; files[i]; i += 2) {
		if (!files[i + 1])
			g_string_append_printf(r->fi, "D %s\n", files[i]);
		else
			g_string_append_printf(r->fi, "M 644 inline %s\ndata %zu\n%s\n", files[i],
					       strlen(files[i + 1]), files[i + 1]);
	}
	g_string_append_c(r->fi, '\n');
	repo_flush(r);
	return mark;
}

static char *kid(int mark)
{
	return g_strdup(id(K.r, mark));
}

static char *upper(const char *s)
{
	return g_ascii_strup(s, -1);
}

static void build_vulns(void)
{
	char *af = kid(K.af), *b = kid(K.b), *bf = kid(K.bf), *c = kid(K.c), *cf = kid(K.cf);
	char *d = kid(K.d), *df = kid(K.df), *e = kid(K.e), *ef = kid(K.ef), *g = kid(K.g);
	char *gf = kid(K.gf), *h = kid(K.h), *j = kid(K.j), *k = kid(K.k), *kf = kid(K.kf);
	char *x0 = kid(K.x0), *up = upper(af);
	char *af2 = g_strdup_printf("# fixed by\r\n%s\r\n", up);
	char *bv = g_strdup_printf("%s\n  %s  \nnot an id\n%.12s\n%sff\n", b, x0, x0, x0);
	char *cve1003 = g_strdup_printf("%s\n", cf);
	const char *files[] = {
		"cve/published/2024/CVE-2024-1001.sha1", af,
		"cve/published/2024/CVE-2024-1001.json", "{\"cveMetadata\": {}}",
		"cve/published/2023/CVE-2023-52999.sha1", af2,
		"cve/published/2024/CVE-2024-1002.sha1", bf,
		"cve/published/2024/CVE-2024-1002.vulnerable", bv,
		"cve/published/2024/CVE-2024-1003.sha1", cve1003,
		"cve/published/2024/CVE-2024-1003.vulnerable", c,
		"cve/published/2024/CVE-2024-1004.sha1", df,
		"cve/published/2024/CVE-2024-1004.vulnerable", d,
		"cve/published/2024/CVE-2024-1005.sha1", ef,
		"cve/published/2024/CVE-2024-1005.vulnerable", e,
		"cve/rejected/2024/CVE-2024-1009.sha1", gf,
		"cve/rejected/2024/CVE-2024-1009.vulnerable", g,
		"cve/published/2024/CVE-2024-1010.sha1", h,
		"cve/published/2024/CVE-2024-1012.sha1", "0123456789abcdef0123456789abcdef01234567",
		"cve/published/2024/CVE-2024-1012.vulnerable", j,
		"cve/published/2024/CVE-2024-1013.vulnerable", k,
		"cve/published/2024/CVE-2024-1013.json", kf,
		"cve/published/2024/README", h,
		"scripts/CVE-2024-1099.sha1", h,
		NULL,
	};

	V = repo_new("vulns");
	v_head = vcommit(V, 0, files);
	run("git -C '%s' symbolic-ref HEAD refs/heads/master", V->dir);
	g_free(af); g_free(b); g_free(bf); g_free(c); g_free(cf); g_free(d); g_free(df);
	g_free(e); g_free(ef); g_free(g); g_free(gf); g_free(h); g_free(j); g_free(k);
	g_free(kf); g_free(x0); g_free(up); g_free(af2); g_free(bv); g_free(cve1003);
}

static struct fs_vulns *VULNS;

static struct fs_vulns *open_vulns(const char *path, const char *cache, bool *rebuilt)
{
	struct fs_vulns_opts o = FS_VULNS_OPTS_INIT;
	struct fs_vulns_stats st;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_vulns *v = NULL;

	o.path = path;
	o.cache_path = cache;
	if (fs_vulns_open(&v, &o, &st, &err) < 0)
		fail_msg("fs_vulns_open(%s): %s", path, err.message);
	assert_string_equal(st.note, "");
	if (rebuilt)
		*rebuilt = st.rebuilt;
	return v;
}

static int group_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char cache[PATH_MAX + 32];

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-vulns.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	snprintf(cache_dir, sizeof(cache_dir), "%s/cache", tmp_root);
	setenv("XDG_CACHE_HOME", cache_dir, 1);
	build_kernel(&K);
	build_vulns();
	snprintf(cache, sizeof(cache), "%s/index.cache", tmp_root);
	o.repo_path = K.r->dir;
	o.cache_path = cache;
	o.threads = 2;
	if (fs_index_open(&IDX, &o, NULL, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	VULNS = open_vulns(V->dir, NULL, NULL);
	*state = NULL;
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	fs_vulns_free(VULNS);
	fs_index_free(IDX);
	repo_free(K.r);
	repo_free(V);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- the reader ----------------------------------------------------------- */

/* The CVEs of commit MARK, space-separated ("" for none). */
static char *cves_of(const struct fs_vulns *v, const char *hex)
{
	const char *ids[8];
	GString *s = g_string_new(NULL);
	size_t n = fs_vulns_cves(v, hex, ids, 8), i;

	for (i = 0; i < n && i < 8; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", ids[i]);
	return g_string_free(s, FALSE);
}

static void assert_cves(const struct fs_vulns *v, int mark, const char *want)
{
	char *got = cves_of(v, id(K.r, mark));

	assert_string_equal(got, want);
	g_free(got);
}

static void test_reader_fix_ids(void **state)
{
	char *up = upper(id(K.r, K.af)), *got;

	/* several CVEs per fix, in CVE order (2023 before 2024); one read
	 * from a file with CRLF, a junk line and an upper-case id */
	assert_cves(VULNS, K.af, "CVE-2023-52999 CVE-2024-1001");
	got = cves_of(VULNS, up);
	assert_string_equal(got, "CVE-2023-52999 CVE-2024-1001");
	g_free(got);
	g_free(up);
	assert_cves(VULNS, K.bf, "CVE-2024-1002");
	assert_cves(VULNS, K.cf, "CVE-2024-1003");
	assert_cves(VULNS, K.h, "CVE-2024-1010");
	/* no CVE; rejected; a .json only; files outside cve/published */
	assert_cves(VULNS, K.a, "");
	assert_cves(VULNS, K.gf, "");
	assert_cves(VULNS, K.kf, "");
	assert_cves(VULNS, K.x0, "");
	/* ids that are no full ids */
	assert_int_equal(fs_vulns_cves(VULNS, "", NULL, 0), 0);
	assert_int_equal(fs_vulns_cves(VULNS, "0123", NULL, 0), 0);
	assert_int_equal(fs_vulns_cves(VULNS, NULL, NULL, 0), 0);
	assert_int_equal(fs_vulns_cves(NULL, id(K.r, K.af), NULL, 0), 0);
	/* an id the kernel repository does not have is still read */
	got = cves_of(VULNS, "0123456789ABCDEF0123456789abcdef01234567");
	assert_string_equal(got, "CVE-2024-1012");
	g_free(got);
}

static void test_reader_vulnerable(void **state)
{
	struct fs_vulns_fix fx[8];

	/* several vulnerable ids; the abbreviated and the 42-digit lines
	 * are junk */
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.b), fx, 8), 1);
	assert_string_equal(fx[0].cve, "CVE-2024-1002");
	assert_string_equal(fx[0].fix, id(K.r, K.bf));
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.x0), fx, 8), 1);
	assert_string_equal(fx[0].cve, "CVE-2024-1002");
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.e), fx, 8), 1);
	assert_string_equal(fx[0].fix, id(K.r, K.ef));
	/* rejected; no .sha1 */
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.g), fx, 8), 0);
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.k), fx, 8), 0);
	/* a fix the kernel does not have: read all the same */
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.j), fx, 8), 1);
	assert_string_equal(fx[0].fix, "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.a), fx, 8), 0);
	/* MAX 0 still counts */
	assert_int_equal(fs_vulns_fixes_of(VULNS, id(K.r, K.b), fx, 0), 1);
}

static void test_reader_bare_and_cache(void **state)
{
	char *bare = g_strdup_printf("%s/vulns-bare.git", tmp_root);
	char *cache = g_strdup_printf("%s/own.cache", tmp_root);
	const char *more[] = { "cve/published/2024/CVE-2024-1020.sha1", NULL, NULL };
	struct fs_vulns *v;
	bool rebuilt;
	char *a = kid(K.a);
	FILE *f;

	run("git clone -q --bare '%s' '%s'", V->dir, bare);
	v = open_vulns(bare, cache, &rebuilt);
	assert_true(rebuilt);
	assert_string_equal(fs_vulns_cache_path(v), cache);
	assert_cves(v, K.af, "CVE-2023-52999 CVE-2024-1001");
	fs_vulns_free(v);
	/* the same HEAD: the cache is used */
	v = open_vulns(bare, cache, &rebuilt);
	assert_false(rebuilt);
	assert_cves(v, K.bf, "CVE-2024-1002");
	fs_vulns_free(v);
	/* HEAD moves: read again */
	more[1] = a;
	v_head = vcommit(V, v_head, more);
	run("git -C '%s' fetch -q '%s' master:master", bare, V->dir);
	v = open_vulns(bare, cache, &rebuilt);
	assert_true(rebuilt);
	assert_cves(v, K.a, "CVE-2024-1020");
	fs_vulns_free(v);
	v = open_vulns(bare, cache, &rebuilt);
	assert_false(rebuilt);
	fs_vulns_free(v);
	/* a damaged cache is read again, not trusted */
	f = fopen(cache, "r+");
	assert_non_null(f);
	fseek(f, 100, SEEK_SET);
	fputc('!', f);
	fclose(f);
	v = open_vulns(bare, cache, &rebuilt);
	assert_true(rebuilt);
	assert_cves(v, K.a, "CVE-2024-1020");
	fs_vulns_free(v);
	/* truncated */
	assert_int_equal(truncate(cache, 10), 0);
	v = open_vulns(bare, cache, &rebuilt);
	assert_true(rebuilt);
	fs_vulns_free(v);
	/* the work tree's default cache is under XDG_CACHE_HOME */
	assert_non_null(strstr(fs_vulns_cache_path(VULNS), cache_dir));
	g_free(a);
	g_free(cache);
	g_free(bare);
}

static void test_reader_errors(void **state)
{
	struct fs_vulns_opts o = FS_VULNS_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_vulns *v = NULL;
	char *empty = g_strdup_printf("%s/empty", tmp_root), *other;
	const char *none[] = { "README", "nothing here", NULL };
	struct repo *r;
	bool rebuilt;

	o.path = "/nonexistent/vulns";
	assert_int_equal(fs_vulns_open(&v, &o, NULL, &err), FS_ENOTFOUND);
	assert_null(v);
	assert_non_null(strstr(err.message, "/nonexistent/vulns"));
	assert_null(strchr(err.message, '\n'));
	/* a directory that is no repository */
	assert_int_equal(mkdir(empty, 0700), 0);
	o.path = empty;
	fs_error_clear(&err);
	assert_int_equal(fs_vulns_open(&v, &o, NULL, &err), FS_ENOTFOUND);
	assert_non_null(strstr(err.message, empty));
	/* a repository without commits */
	other = g_strdup_printf("%s/unborn", tmp_root);
	run("git init -q '%s'", other);
	o.path = other;
	assert_int_equal(fs_vulns_open(&v, &o, NULL, &err), FS_ENOTFOUND);
	/* a repository without cve/: no CVEs, no error */
	r = repo_new("no-cves");
	vcommit(r, 0, none);
	run("git -C '%s' symbolic-ref HEAD refs/heads/master", r->dir);
	v = open_vulns(r->dir, NULL, &rebuilt);
	assert_true(rebuilt);
	assert_cves(v, K.af, "");
	fs_vulns_free(v);
	repo_free(r);
	g_free(other);
	g_free(empty);
}

/* ---- findings ------------------------------------------------------------- */

struct want {
	enum fs_finding_kind kind;
	int *mark;
	enum fs_finding_evidence evidence;
	const char *cves;   /* space-separated */
	size_t nchain;
};

/* Judge patch CHANGELOG (its title the first line), after QUEUED (a
 * changelog of NN 1, or NULL), against linux-4.4.y with vulns V. */
static void judge(struct fs_findings *got, const struct fs_vulns *v, const char *changelog,
		  const char *queued)
{
	struct fs_trailers *tags = NULL, *qtags = NULL;
	fs_cid ups[2][8];
	struct fs_series_entry entries[2];
	struct fs_findings_ctx ctx;
	struct fs_error err = FS_ERROR_INIT;
	char *title = g_strndup(changelog, strcspn(changelog, "\n"));
	size_t n = 0;

	assert_int_equal(fs_trailers_parse(&tags, changelog, strlen(changelog), &err), 0);
	if (queued) {
		char *qt = g_strndup(queued, strcspn(queued, "\n"));
		assert_int_equal(fs_trailers_parse(&qtags, queued, strlen(queued), &err), 0);
		entries[n].index = 1;
		entries[n].upstream = ups[n];
		entries[n].nupstream = fs_findings_resolve_upstream(IDX, qtags, qt, ups[n], 8, NULL);
		n++;
		g_free(qt);
	}
	entries[n].index = (int)n + 1;
	entries[n].upstream = ups[n];
	entries[n].nupstream = fs_findings_resolve_upstream(IDX, tags, title, ups[n], 8, NULL);
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = IDX;
	ctx.branch = "linux-4.4.y";
	ctx.series = entries;
	ctx.nseries = n + 1;
	ctx.vulns = v;
	assert_int_equal(fs_findings_judge(got, &ctx, tags, title, (int)n + 1, &err), 0);
	fs_trailers_free(tags);
	fs_trailers_free(qtags);
	g_free(title);
}

static char *joined(char *const *v, size_t n)
{
	GString *s = g_string_new(NULL);
	size_t i;

	for (i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", v[i]);
	return g_string_free(s, FALSE);
}

/* GOT is exactly WANT (N of them), in order. */
static void expect(const char *what, const struct fs_findings *got, const struct want *want,
		   size_t n)
{
	size_t i;

	for (i = 0; got->n != n && i < got->n; i++)
		fprintf(stderr, "  %s: got %s %.12s [%s]\n", what,
			fs_finding_kind_name(got->v[i].kind), got->v[i].commit,
			fs_finding_evidence_name(got->v[i].evidence));
	assert_int_equal(got->n, n);
	for (i = 0; i < n; i++) {
		const struct fs_finding *f = &got->v[i];
		char *cves = joined(f->cves, f->ncves);

		assert_int_equal(f->kind, want[i].kind);
		assert_string_equal(f->commit, id(K.r, *want[i].mark));
		assert_int_equal(f->evidence, want[i].evidence);
		assert_string_equal(cves, want[i].cves);
		if (want[i].nchain)
			assert_int_equal(f->nchain, want[i].nchain);
		g_free(cves);
	}
}

static char *patch(int mark, const char *subject)
{
	return g_strdup_printf("%s\n\ncommit %s upstream.\n", subject, id(K.r, mark));
}

static void test_findings_fixes_tag_fix_carries_cves(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *p = patch(K.a, "net: add a");
	const struct want want[] = {
		{ FS_FIND_FIX_MISSING, &K.af, FS_FEV_PREFIX, "CVE-2023-52999 CVE-2024-1001", 2 },
	};

	judge(&got, VULNS, p, NULL);
	expect("a", &got, want, 1);
	assert_int_equal(got.nupstream_cves, 0);
	fs_findings_clear(&got);
	/* without the CVE data: the same finding, no CVE */
	judge(&got, NULL, p, NULL);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.v[0].ncves, 0);
	assert_null(got.v[0].cves);
	fs_findings_clear(&got);
	g_free(p);
}

static void test_findings_cve_route(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *p = patch(K.b, "mm: add b");
	const struct want want[] = {
		/* the CVE's fix, which no tag links to B */
		{ FS_FIND_FIX_MISSING, &K.bf, FS_FEV_CVE, "CVE-2024-1002", 2 },
		/* and the fix of that fix, with its way back to B */
		{ FS_FIND_FIX_MISSING, &K.bff, FS_FEV_PREFIX, "", 3 },
	};

	judge(&got, VULNS, p, NULL);
	expect("b", &got, want, 2);
	assert_string_equal(got.v[1].chain[0], id(K.r, K.b));
	assert_string_equal(got.v[1].chain[1], id(K.r, K.bf));
	assert_string_equal(got.v[1].chain[2], id(K.r, K.bff));
	fs_findings_clear(&got);
	/* without the CVE data the route does not exist */
	judge(&got, NULL, p, NULL);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	g_free(p);
}

static void test_findings_cve_route_present_queued(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *pc = patch(K.c, "fs: add c"), *pd = patch(K.d, "usb: add d");
	char *qdf = patch(K.df, "usb: fix d");
	const struct want present[] = {
		{ FS_FIND_FIX_PRESENT, &K.cf, FS_FEV_CVE, "CVE-2024-1003", 2 },
	};
	const struct want queued[] = {
		{ FS_FIND_FIX_QUEUED, &K.df, FS_FEV_CVE, "CVE-2024-1004", 2 },
	};
	const struct want missing[] = {
		{ FS_FIND_FIX_MISSING, &K.df, FS_FEV_CVE, "CVE-2024-1004", 2 },
	};

	judge(&got, VULNS, pc, NULL);
	expect("c", &got, present, 1);
	assert_non_null(got.v[0].stable_commit);
	assert_string_equal(got.v[0].stable_commit, id(K.r, K.scf));
	assert_false(fs_finding_is_problem(&got.v[0]));
	fs_findings_clear(&got);
	judge(&got, VULNS, pd, qdf);
	expect("d queued", &got, queued, 1);
	assert_int_equal(got.v[0].series_index, 1);
	fs_findings_clear(&got);
	judge(&got, VULNS, pd, NULL);
	expect("d", &got, missing, 1);
	fs_findings_clear(&got);
	/* the patch that is the CVE's fix: its own upstream CVE, and the
	 * fix is its own, not one to ask for */
	judge(&got, VULNS, qdf, NULL);
	assert_int_equal(got.n, 0);
	assert_int_equal(got.nupstream_cves, 1);
	assert_string_equal(got.upstream_cves[0], "CVE-2024-1004");
	fs_findings_clear(&got);
	g_free(pc);
	g_free(pd);
	g_free(qdf);
}

static void test_findings_cve_route_no_duplicates(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *pe = patch(K.e, "gpu: add e"), *pg = patch(K.g, "sound: add g");
	char *pj = patch(K.j, "crypto: add j"), *pk = patch(K.k, "drm: add k");
	char *ph = patch(K.h, "block: fix h");
	const struct want both[] = {
		/* found by its Fixes: tag and by the CVE: once, as the tag found it */
		{ FS_FIND_FIX_MISSING, &K.ef, FS_FEV_PREFIX, "CVE-2024-1005", 2 },
	};

	judge(&got, VULNS, pe, NULL);
	expect("e", &got, both, 1);
	fs_findings_clear(&got);
	/* rejected; a fix not in the kernel repository; no .sha1 */
	judge(&got, VULNS, pg, NULL);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	judge(&got, VULNS, pj, NULL);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	judge(&got, VULNS, pk, NULL);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	/* a security fix itself: no finding, its CVE on the patch */
	judge(&got, VULNS, ph, NULL);
	assert_int_equal(got.n, 0);
	assert_int_equal(got.nupstream_cves, 1);
	assert_string_equal(got.upstream_cves[0], "CVE-2024-1010");
	fs_findings_clear(&got);
	judge(&got, NULL, ph, NULL);
	assert_int_equal(got.nupstream_cves, 0);
	fs_findings_clear(&got);
	g_free(pe);
	g_free(pg);
	g_free(pj);
	g_free(pk);
	g_free(ph);
}

static void test_findings_old_commit_vulnerable(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *px = patch(K.x0, "net: old thing");
	const struct want want[] = {
		{ FS_FIND_ALREADY_APPLIED, &K.x0, FS_FEV_EXACT, "", 0 },
		{ FS_FIND_FIX_MISSING, &K.bf, FS_FEV_CVE, "CVE-2024-1002", 2 },
		{ FS_FIND_FIX_MISSING, &K.bff, FS_FEV_PREFIX, "", 3 },
	};

	/* X0 is one of CVE-2024-1002's vulnerable commits too */
	judge(&got, VULNS, px, NULL);
	expect("x0", &got, want, 3);
	fs_findings_clear(&got);
	assert_string_equal(fs_finding_evidence_name(FS_FEV_CVE), "cve");
	g_free(px);
}

static void test_digest_weight(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	char *p = patch(K.a, "net: add a");

	/* a missing fix with a CVE weighs twice what one without does */
	judge(&got, VULNS, p, NULL);
	assert_int_equal(fs_digest_finding_weight(&got.v[0]), 32);
	fs_findings_clear(&got);
	judge(&got, NULL, p, NULL);
	assert_int_equal(fs_digest_finding_weight(&got.v[0]), 16);
	fs_findings_clear(&got);
	g_free(p);
	/* a fix present with a CVE asks for nothing still */
	p = patch(K.c, "fs: add c");
	judge(&got, VULNS, p, NULL);
	assert_int_equal(got.v[0].ncves, 1);
	assert_int_equal(fs_digest_finding_weight(&got.v[0]), 0);
	fs_findings_clear(&got);
	g_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_fix_ids),
		cmocka_unit_test(test_reader_vulnerable),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_findings_fixes_tag_fix_carries_cves),
		cmocka_unit_test(test_findings_cve_route),
		cmocka_unit_test(test_findings_cve_route_present_queued),
		cmocka_unit_test(test_findings_cve_route_no_duplicates),
		cmocka_unit_test(test_findings_old_commit_vulnerable),
		cmocka_unit_test(test_digest_weight),
		/* last: it moves the vulns repository's HEAD */
		cmocka_unit_test(test_reader_bare_and_cache),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
