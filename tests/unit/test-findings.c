/* Unit tests for the findings: patches judged against a small kernel-like
 * history made with git fast-import and indexed through the public API.
 *
 * One table row per situation, each with every finding expected (kind,
 * commit, cause) and nothing else.  Commit dates are fixed and messages
 * deterministic; ids are read back from fast-import's marks file.
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

#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/kinds.h"
#include "fixscan/trailers.h"

/* The fast-import builder shared with test-index-*.c. */
#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}


/* ---- the history --------------------------------------------------------- */

/* mainline (master), after v4.4 (light, on X0, where linux-4.4.y forks):
 *   U, R1 reverts U, R2 reverts R1, FR2 Fixes R2   (revert of a revert)
 *   W, W1, W2, W3 each reverting the one before     (three reverts: odd)
 *   G, G1 reverts G                                  (a plain revert)
 *   S, SM Fixes S                                    (squashed together)
 *   T, RT reverts T                                  (revert without target)
 *   E, EF Fixes E; H, HF Fixes H; D; K               v4.5 on K
 *   V                                                v4.6-rc1 on V
 * linux-4.4.y: S44 = HF                               v4.4.1
 * linux-4.5.y (from v4.5): SV = V (v4.5.1), SVR reverts SV, stable-only,
 *   with its reason (v4.5.2)
 *
 * The situations of issue 29, after V on mainline (v4.6-rc2 on QG):
 *   A, AY Fixes A, AZ reverts AY                     (a fix mainline reverted)
 *   B, BF Fixes B, BZ reverts BF, BZ2 reverts BZ     (reverted and restored)
 *   C; MRG merges a side branch (SIDE) and quotes Fixes:, a revert line
 *     and Stable-dep-of: of C                        (merges are never fixes)
 *   F0, F0F Fixes F0; U2                             (reverted in the branch)
 *   Q1 (on a tree merged by MQ), Q2 the same change twice (same subject,
 *   author, window and diff), QF Fixes Q2, QG Fixes Q1  (equal changes)
 *   W0 (one new file), W0F Fixes W0                 (no upstream line)
 *   T1, T2 the same subject and author, another diff, TF Fixes T1
 *                                                    (not equal)
 *   Z0 by another author, subject "block: add e"     (not e's author)
 * linux-4.4.y after S44: BF0F = F0F and BU2 = U2 (v4.4.2); RVF reverts
 *   BF0F and RVU2 reverts BU2 (v4.4.3); RRVF reverts RVF and BQ1 = Q1
 *   (v4.4.4)
 */
struct kernel {
	struct repo *r;
	int base, x0, u, r1, r2, fr2, w, w1, w2, w3, g, g1, s, sm, t, rt;
	int e, ef, h, hf, d, k, v, s44, sv, svr;
	int a, ay, az, b, bf, bz, bz2, c, side, mrg, f0, f0f, u2, q1, q2, mq, qf, qg, t1, t2, tf;
	int w0, w0f;
	int z0, bf0f, bu2, rvf, rvu2, rrvf, bq1;
};

static struct kernel K;

static int revert(struct repo *r, int parent, int of, const char *subject)
{
	return commit(r, "master", parent, "Revert \"%s\"\n\nThis reverts commit %s.\n\n"
		      "It did not work out.\n", subject, id(r, of));
}

/* A stable-only revert on BRANCH of the branch's commit OF (the backport
 * of mainline UP, or 0). */
static int stable_revert(struct repo *r, const char *branch, int parent, int of, int up,
			 const char *subject)
{
	if (!up)
		return commit(r, branch, parent, "Revert \"%s\"\n\nThis reverts commit %s.\n",
			      subject, id(r, of));
	return commit(r, branch, parent,
		      "Revert \"%s\"\n\nThis reverts commit %s which is commit %s upstream.\n\n"
		      "It broke things here.\n", subject, id(r, of), id(r, up));
}

/* The mainline commits of issue 29 after V, and their stable side. */
static void build_issue29(struct kernel *k)
{
	struct repo *r = k->r;
	int merge[3], at, other;

	k->a = commit(r, "master", k->v, "crypto: add a\n");
	k->ay = commit(r, "master", k->a, "crypto: fix a\n\nFixes: %.12s (\"crypto: add a\")\n",
		       id(r, k->a));
	k->az = revert(r, k->ay, k->ay, "crypto: fix a");
	k->b = commit(r, "master", k->az, "crypto: add b\n");
	k->bf = commit(r, "master", k->b, "crypto: fix b\n\nFixes: %.12s (\"crypto: add b\")\n",
		       id(r, k->b));
	k->bz = revert(r, k->bf, k->bf, "crypto: fix b");
	k->bz2 = revert(r, k->bz, k->bz, "Revert crypto: fix b");
	k->c = commit(r, "master", k->bz2, "net: add cee\n");
	k->side = commit(r, "side", k->c, "net: side work\n");
	merge[0] = k->c;
	merge[1] = k->side;
	merge[2] = 0;
	k->mrg = commit_m(r, "master", merge,
			  "Merge branch 'net-fixes'\n\nFixes: %.12s (\"net: add cee\")\n"
			  "This reverts commit %s.\nStable-dep-of: %.12s (\"net: add cee\")\n",
			  id(r, k->c), id(r, k->c), id(r, k->c));
	k->f0 = commit(r, "master", k->mrg, "ipc: add f\n");
	k->f0f = commit(r, "master", k->f0, "ipc: fix f\n\nFixes: %.12s (\"ipc: add f\")\n",
			id(r, k->f0));
	k->u2 = commit(r, "master", k->f0f, "nfs: add u2\n");
	/* Two trees commit the same diff on the same base; a merge joins
	 * them. */
	r->file = "drivers/hid/q.c";
	r->content = "q\n";
	k->q1 = commit(r, "hid-tree", k->u2, "hid: add q\n");
	k->q2 = commit(r, "master", k->u2, "hid: add q\n\nThe same again, from another tree.\n");
	r->file = NULL;
	merge[0] = k->q2;
	merge[1] = k->q1;
	k->mq = commit_m(r, "master", merge, "Merge branch 'hid-tree'\n");
	k->qf = commit(r, "master", k->mq, "hid: fix q\n\nFixes: %.12s (\"hid: add q\")\n",
		       id(r, k->q2));
	k->qg = commit(r, "master", k->qf, "hid: fix q more\n\nFixes: %.12s (\"hid: add q\")\n",
		       id(r, k->q1));
	r->file = "drivers/ata/w.c";
	r->content = "w\n";
	k->w0 = commit(r, "master", k->qg, "ata: add w\n");
	r->file = NULL;
	k->w0f = commit(r, "master", k->w0, "ata: fix w\n\nFixes: %.12s (\"ata: add w\")\n",
			id(r, k->w0));
	k->t1 = commit(r, "master", k->w0f, "sound: tweak tee\n");
	k->t2 = commit(r, "master", k->t1, "sound: tweak tee\n");
	k->tf = commit(r, "master", k->t2, "sound: fix tee\n\nFixes: %.12s (\"sound: tweak tee\")\n",
		       id(r, k->t1));
	other = r->other_author;
	r->other_author = 1;
	k->z0 = commit(r, "master", k->tf, "block: add e\n\nThe same subject, another author.\n");
	r->other_author = other;
	tag_light(r, "v4.6-rc2", k->z0);
	at = k->s44;
	k->bf0f = commit(r, "linux-4.4.y", at, "ipc: fix f\n\ncommit %s upstream.\n", id(r, k->f0f));
	k->bu2 = commit(r, "linux-4.4.y", k->bf0f, "nfs: add u2\n\ncommit %s upstream.\n",
			id(r, k->u2));
	tag_light(r, "v4.4.2", k->bu2);
	k->rvf = stable_revert(r, "linux-4.4.y", k->bu2, k->bf0f, k->f0f, "ipc: fix f");
	k->rvu2 = stable_revert(r, "linux-4.4.y", k->rvf, k->bu2, k->u2, "nfs: add u2");
	tag_light(r, "v4.4.3", k->rvu2);
	k->rrvf = stable_revert(r, "linux-4.4.y", k->rvu2, k->rvf, 0, "Revert \"ipc: fix f\"");
	k->bq1 = commit(r, "linux-4.4.y", k->rrvf, "hid: add q\n\ncommit %s upstream.\n",
			id(r, k->q1));
	tag_light(r, "v4.4.4", k->bq1);
}

static void build_kernel(struct kernel *k)
{
	struct repo *r = repo_new("kernel");

	k->r = r;
	k->base = commit(r, "master", 0, "Initial import\n");
	k->x0 = commit(r, "master", k->base, "net: old thing\n\nIn v4.4.\n");
	tag_light(r, "v4.4", k->x0);
	k->u = commit(r, "master", k->x0, "mm: add frob\n\nFrob things.\n");
	k->r1 = revert(r, k->u, k->u, "mm: add frob");
	k->r2 = revert(r, k->r1, k->r1, "Revert mm frob");
	k->fr2 = commit(r, "master", k->r2, "mm: fix frob after reapply\n\nFixes: %s\n",
			id(r, k->r2));
	k->w = commit(r, "master", k->fr2, "net: add wobble\n");
	k->w1 = revert(r, k->w, k->w, "net: add wobble");
	k->w2 = revert(r, k->w1, k->w1, "Revert wobble");
	k->w3 = revert(r, k->w2, k->w2, "Revert revert wobble");
	k->g = commit(r, "master", k->w3, "gpu: add gee\n");
	k->g1 = revert(r, k->g, k->g, "gpu: add gee");
	k->s = commit(r, "master", k->g1, "fs: add squash\n");
	k->sm = commit(r, "master", k->s, "fs: fix squash\n\nFixes: %.12s (\"fs: add squash\")\n",
		       id(r, k->s));
	k->t = commit(r, "master", k->sm, "usb: add tee\n");
	k->rt = revert(r, k->t, k->t, "usb: add tee");
	k->e = commit(r, "master", k->rt, "block: add e\n");
	k->ef = commit(r, "master", k->e, "block: fix e\n\nFixes: %.12s (\"block: add e\")\n",
		       id(r, k->e));
	k->h = commit(r, "master", k->ef, "sound: add h\n");
	k->hf = commit(r, "master", k->h, "sound: fix h\n\nFixes: %.12s (\"sound: add h\")\n",
		       id(r, k->h));
	k->d = commit(r, "master", k->hf, "sound: add dee\n");
	k->k = commit(r, "master", k->d, "kernel: add kay\n");
	tag_light(r, "v4.5", k->k);
	k->v = commit(r, "master", k->k, "drm: add vee\n");
	tag_light(r, "v4.6-rc1", k->v);
	k->s44 = commit(r, "linux-4.4.y", k->x0, "sound: fix h\n\ncommit %s upstream.\n\n"
			"Fixes: %.12s (\"sound: add h\")\n", id(r, k->hf), id(r, k->h));
	tag_light(r, "v4.4.1", k->s44);
	k->sv = commit(r, "linux-4.5.y", k->k, "drm: add vee\n\ncommit %s upstream.\n",
		       id(r, k->v));
	tag_light(r, "v4.5.1", k->sv);
	k->svr = commit(r, "linux-4.5.y", k->sv,
			"Revert \"drm: add vee\"\n\nThis reverts commit %s which is commit %s upstream.\n\n"
			"It breaks suspend on older\nboards.\n\nSigned-off-by: S Table <st@example.org>\n",
			id(r, k->sv), id(r, k->v));
	tag_light(r, "v4.5.2", k->svr);
	build_issue29(k);
	repo_flush(r);
}

static struct fs_index *IDX;

static int group_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char cache[PATH_MAX];

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-findings.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	build_kernel(&K);
	snprintf(cache, sizeof(cache), "%s/index.cache", tmp_root);
	o.repo_path = K.r->dir;
	o.cache_path = cache;
	o.threads = 2;
	if (fs_index_open(&IDX, &o, NULL, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	*state = NULL;
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	fs_index_free(IDX);
	repo_free(K.r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* The commit message of HEX, read with git: the findings' reader of
 * stated reasons. */
static int read_message(void *data, const char *hex, char **out)
{
	char cmd[PATH_MAX + 128];
	GString *s = g_string_new(NULL);
	FILE *p;
	char buf[512];
	size_t n;

	snprintf(cmd, sizeof(cmd), "git -C '%s' log -1 --format=%%B %s", (const char *)data, hex);
	p = popen(cmd, "r");
	if (!p) {
		g_string_free(s, TRUE);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		g_string_append_len(s, buf, (gssize)n);
	pclose(p);
	*out = g_strdup(s->str);
	g_string_free(s, TRUE);
	return *out ? 0 : -1;
}

/* ---- the table ---------------------------------------------------------- */

/* "@name" in a changelog stands for the full id of that commit,
 * "@name:12" for its first 12 digits (not inside a word: mail
 * addresses stay). */
static const struct { const char *name; int *mark; } names[] = {
	{ "x0", &K.x0 }, { "u", &K.u }, { "r1", &K.r1 }, { "r2", &K.r2 }, { "fr2", &K.fr2 },
	{ "w", &K.w }, { "w1", &K.w1 }, { "w2", &K.w2 }, { "w3", &K.w3 }, { "g", &K.g },
	{ "g1", &K.g1 }, { "s", &K.s }, { "sm", &K.sm }, { "t", &K.t }, { "rt", &K.rt },
	{ "e", &K.e }, { "ef", &K.ef }, { "h", &K.h }, { "hf", &K.hf }, { "d", &K.d },
	{ "k", &K.k }, { "v", &K.v }, { "s44", &K.s44 }, { "sv", &K.sv }, { "svr", &K.svr },
	{ "a", &K.a }, { "ay", &K.ay }, { "az", &K.az }, { "b", &K.b }, { "bf", &K.bf },
	{ "bz", &K.bz }, { "bz2", &K.bz2 }, { "c", &K.c }, { "mrg", &K.mrg }, { "f0", &K.f0 },
	{ "f0f", &K.f0f }, { "u2", &K.u2 }, { "q1", &K.q1 }, { "q2", &K.q2 }, { "qf", &K.qf },
	{ "qg", &K.qg }, { "t1", &K.t1 }, { "w0", &K.w0 }, { "w0f", &K.w0f }, { "t2", &K.t2 }, { "tf", &K.tf }, { "z0", &K.z0 }, { "bf0f", &K.bf0f }, { "bu2", &K.bu2 },
	{ "rvf", &K.rvf }, { "rvu2", &K.rvu2 }, { "rrvf", &K.rrvf }, { "bq1", &K.bq1 },
};

static const char *name_id(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(names); i++)
		if (strlen(names[i].name) == len && !strncmp(names[i].name, name, len))
			return id(K.r, *names[i].mark);
	fail_msg("no commit named '%.*s'", (int)len, name);
	return NULL;
}

/* ID with two neighbouring digits that differ swapped: a typo. */
static const char *swapped(const char *full)
{
	static char out[41];
	size_t i;

	memcpy(out, full, 41);
	for (i = 0; i + 1 < 40 && out[i] == out[i + 1]; i++)
		;
	out[i] = full[i + 1];
	out[i + 1] = full[i];
	return out;
}

/* NAME's id, "~": with a typo, "^": in capitals. */
static const char *name_form(const char *name, size_t len, char form)
{
	static char out[41];
	const char *full = name_id(name, len);
	size_t i;

	if (form == '~')
		return swapped(full);
	memcpy(out, full, 41);
	for (i = 0; form == '^' && i < 40; i++)
		out[i] = g_ascii_toupper(out[i]);
	return out;
}

static char *expand(const char *text)
{
	GString *s = g_string_new(NULL);
	const char *p = text;

	while (*p) {
		const char *q;
		size_t width = 40;

		/* An '@' inside a word is a mail address's; "@@" a hunk's. */
		if (*p == '@' && p[1] == '@') {
			g_string_append(s, "@@");
			p += 2;
			continue;
		}
		if (*p != '@' || (p > text && g_ascii_isalnum(p[-1]))) {
			g_string_append_c(s, *p++);
			continue;
		}
		const char *full;
		char form;

		for (q = ++p; g_ascii_isalnum(*q); q++)
			;
		form = *q == '~' || *q == '^' ? *q : 0;
		full = name_form(p, (size_t)(q - p), form);
		if (form)
			q++;
		if (*q == ':' && g_ascii_isdigit(q[1])) {
			width = strtoul(q + 1, NULL, 10);
			g_string_append_len(s, full, (gssize)width);
			for (q++; g_ascii_isdigit(*q); q++)
				;
		} else {
			g_string_append(s, full);
		}
		p = q;
	}
	return g_string_free(s, FALSE);
}

#define MAXP 4
#define MAXF 4

struct want {
	enum fs_finding_kind kind;
	const char *commit;   /* a name, or an id as written */
	enum fs_finding_cause cause;
};

struct row {
	const char *what;
	const char *patches[MAXP]; /* changelogs of NN 1, 2, ...; the last is judged */
	bool stale;
	struct want want[MAXF];    /* up to the first with kind -1 */
	bool mail;                 /* a regression report on the judged patch's
				    * upstream and an objection to it */
	const char *base;          /* the release the series applies on; NULL: tip */
	const char *author;        /* the judged patch's author; NULL: unknown */
	const char *named[3];      /* else a reply asking for these commits
				    * (needs-also; "@x" ids), NULL-ended */
};

#define AUTHOR "A U Thor <author@example.org>"
#define OTHER "O Ther <OTHER@example.org>"
#define NOBODY "N O Body <nobody@example.org>"

#define END { (enum fs_finding_kind)-1, NULL, 0 }

/* Rows leave out the trailing fields they do not need (base, author). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct row rows[] = {
	/* the situations of issue 12 */
	{ "revert of a revert: U is in mainline again; a fix of R2 is a fix of U",
	  { "mm: add frob\n\ncommit @u upstream.\n" }, false,
	  { { FS_FIND_REVERTED_UPSTREAM, "r1", FS_CAUSE_REVERT_OF_REVERT },
	    { FS_FIND_FIX_MISSING, "fr2", FS_CAUSE_FIX }, END }, false },
	{ "three reverts: odd, reverted",
	  { "net: add wobble\n\ncommit @w upstream.\n" }, false,
	  { { FS_FIND_REVERTED_UPSTREAM, "w3", FS_CAUSE_REVERT }, END }, false },
	{ "another branch reverted its own backport",
	  { "drm: add vee\n\ncommit @v upstream.\n" }, false,
	  { { FS_FIND_REVERTED_IN_STABLE, "svr", FS_CAUSE_STABLE_REVERT }, END }, false },
	{ "a squashed backport carries its own fix and target",
	  { "fs: add squash\n\ncommit @s upstream.\ncommit @sm upstream.\n\n"
	    "Fixes: @s:12 (\"fs: add squash\")\n" }, false,
	  { END }, false },
	{ "a revert backported without its target",
	  { "Revert \"usb: add tee\"\n\ncommit @rt upstream.\n\nThis reverts commit @t.\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "t", FS_CAUSE_REVERT_TARGET }, END }, false },
	{ "a revert backported without its target, the revert line left out",
	  { "Revert \"usb: add tee\"\n\ncommit @rt upstream.\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "t", FS_CAUSE_REVERT_TARGET }, END }, false },
	{ "the same upstream commit twice in one series",
	  { "sound: add dee\n\ncommit @d upstream.\n", "kernel: add kay\n\ncommit @k upstream.\n",
	    "sound: add dee\n\n[ Upstream commit @d ]\n" }, false,
	  { { FS_FIND_DUPLICATE_IN_SERIES, "d", FS_CAUSE_DUPLICATE }, END }, false },
	{ "the first of two copies is not a duplicate",
	  { "sound: add dee\n\ncommit @d upstream.\n" }, false,
	  { END }, false },
	{ "an unknown id, the clone older than the thread",
	  { "x: y\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n" }, true,
	  { { FS_FIND_UNKNOWN_UPSTREAM, "0123456789abcdef0123456789abcdef01234567",
	      FS_CAUSE_NOT_IN_CLONE }, END }, false },
	/* the kinds there were before */
	{ "a plain revert upstream",
	  { "gpu: add gee\n\ncommit @g upstream.\n" }, false,
	  { { FS_FIND_REVERTED_UPSTREAM, "g1", FS_CAUSE_REVERT }, END }, false },
	{ "fix missing",
	  { "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX }, END }, false },
	{ "fix queued",
	  { "block: fix e\n\ncommit @ef upstream.\n", "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_QUEUED, "ef", FS_CAUSE_FIX }, END }, false },
	{ "fix present",
	  { "sound: add h\n\ncommit @h upstream.\n" }, false,
	  { { FS_FIND_FIX_PRESENT, "hf", FS_CAUSE_FIX }, END }, false },
	{ "already applied by ancestry",
	  { "net: old thing\n\ncommit @x0 upstream.\n" }, false,
	  { { FS_FIND_ALREADY_APPLIED, "x0", FS_CAUSE_DUPLICATE }, END }, false },
	{ "already applied by a backport",
	  { "sound: fix h\n\ncommit @hf upstream.\n" }, false,
	  { { FS_FIND_ALREADY_APPLIED, "s44", FS_CAUSE_DUPLICATE }, END }, false },
	{ "target absent",
	  { "kernel: add kay\n\ncommit @k upstream.\n\nFixes: @e:12 (\"block: add e\")\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "e", FS_CAUSE_TARGET }, END }, false },
	{ "no upstream",
	  { "usb: quirk\n\nStable only.\n" }, false,
	  { { FS_FIND_NO_UPSTREAM, "", FS_CAUSE_NONE }, END }, false },
	{ "unknown upstream",
	  { "x: y\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n" }, false,
	  { { FS_FIND_UNKNOWN_UPSTREAM, "0123456789abcdef0123456789abcdef01234567",
	      FS_CAUSE_NOT_FOUND }, END }, false },
	{ "prerequisite missing",
	  { "kernel: add kay\n\ncommit @k upstream.\n\n"
	    "Cc: stable@vger.kernel.org # 4.4.x: @e:12: prerequisite\n" }, false,
	  { { FS_FIND_DEP_MISSING, "e", FS_CAUSE_PREREQUISITE }, END }, false },
	{ "Fixes: a stable id",
	  { "kernel: add kay\n\ncommit @k upstream.\n\nFixes: @s44:12 (\"sound: fix h\")\n" }, false,
	  { { FS_FIND_FIXES_TAG_MISMATCH, "hf", FS_CAUSE_STABLE_ID }, END }, false },
	{ "a regression report and an objection, from the mail",
	  { "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX },
	    { FS_FIND_REGRESSION_REPORT, "e", FS_CAUSE_NONE },
	    { FS_FIND_OBJECTION, "", FS_CAUSE_NONE }, END }, true },
	/* a reply asking for commits: the patch's own upstream commit is no
	 * commit to add (it speaks of this patch: a report) */
	{ "a reply naming only the patch's own upstream commit reports trouble with it",
	  { "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX },
	    { FS_FIND_REGRESSION_REPORT, "", FS_CAUSE_NONE }, END }, false, NULL, NULL,
	  { "@e" } },
	{ "a reply naming the patch's own commit and another asks for the other",
	  { "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX },
	    { FS_FIND_NEEDS_ALSO, "k", FS_CAUSE_NONE }, END }, false, NULL, NULL,
	  { "@e", "@k" } },
	{ "a reply naming another commit asks for it",
	  { "block: add e\n\ncommit @e upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX },
	    { FS_FIND_NEEDS_ALSO, "k", FS_CAUSE_NONE }, END }, false, NULL, NULL,
	  { "@k" } },
	{ "reverts a commit of the branch",
	  { "Revert \"sound: fix h\"\n\nThis reverts commit @s44 which was commit @hf upstream.\n" },
	  false,
	  { { FS_FIND_REVERTS_STABLE, "hf", FS_CAUSE_STABLE_REVERT }, END }, false },
	/* issue 29: a fix mainline reverted asks nothing; its revert is no fix */
	{ "a fix mainline reverted (an odd chain): nothing to queue",
	  { "crypto: add a\n\ncommit @a upstream.\n" }, false,
	  { { FS_FIND_REVERTED_UPSTREAM, "ay", FS_CAUSE_FIX_REVERTED }, END }, false },
	{ "a fix mainline reverted and applied again (an even chain): missing",
	  { "crypto: add b\n\ncommit @b upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "bf", FS_CAUSE_FIX }, END }, false },
	/* merges are never fixes, reverts or dependencies */
	{ "a merge quoting Fixes:, a revert line and Stable-dep-of is nothing",
	  { "net: add cee\n\ncommit @c upstream.\n" }, false,
	  { END }, false },
	{ "a prerequisite that is a merge is none",
	  { "kernel: add kay\n\ncommit @k upstream.\n\n"
	    "Cc: stable@vger.kernel.org # 4.4.x: @mrg:12: prerequisite\n" }, false,
	  { END }, false },
	{ "Stable-dep-of a merge is nothing to need",
	  { "kernel: add kay\n\ncommit @k upstream.\n\n"
	    "Stable-dep-of: @mrg:12 (\"Merge branch 'net-fixes'\")\n" }, false,
	  { END }, false },
	{ "a revert line with a typo'd id: the title says what it reverts",
	  { "Revert \"usb: add tee\"\n\nThis reverts commit @t~.\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "t", FS_CAUSE_REVERT_TARGET },
	    { FS_FIND_NO_UPSTREAM, "", FS_CAUSE_NONE }, END }, false },
	/* presence is net of reverts in the branch, on the fix and on the patch */
	{ "the branch reverted the fix's backport: missing",
	  { "ipc: add f\n\ncommit @f0 upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "f0f", FS_CAUSE_FIX }, END }, false, "v4.4.3" },
	{ "the fix's backport before the branch reverted it: present",
	  { "ipc: add f\n\ncommit @f0 upstream.\n" }, false,
	  { { FS_FIND_FIX_PRESENT, "f0f", FS_CAUSE_FIX }, END }, false, "v4.4.2" },
	{ "the branch reverted the revert of the fix's backport (even): present",
	  { "ipc: add f\n\ncommit @f0 upstream.\n" }, false,
	  { { FS_FIND_FIX_PRESENT, "f0f", FS_CAUSE_FIX }, END }, false },
	{ "the branch reverted the patch's own backport: it applies it again",
	  { "nfs: add u2\n\ncommit @u2 upstream.\n" }, false,
	  { { FS_FIND_REVERTED_IN_STABLE, "rvu2", FS_CAUSE_STABLE_REVERT }, END }, false },
	{ "the patch's own backport before the branch reverted it: a duplicate",
	  { "nfs: add u2\n\ncommit @u2 upstream.\n" }, false,
	  { { FS_FIND_ALREADY_APPLIED, "bu2", FS_CAUSE_DUPLICATE }, END }, false, "v4.4.2" },
	/* equal changes are one change, both ways */
	{ "equal changes: the fixes of either copy fix the first",
	  { "hid: add q\n\ncommit @q1 upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "qf", FS_CAUSE_FIX },
	    { FS_FIND_FIX_MISSING, "qg", FS_CAUSE_FIX }, END }, false, "v4.4.3" },
	{ "equal changes: the fixes of either copy fix the second",
	  { "hid: add q\n\ncommit @q2 upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "qf", FS_CAUSE_FIX },
	    { FS_FIND_FIX_MISSING, "qg", FS_CAUSE_FIX }, END }, false, "v4.4.3" },
	{ "equal changes: a backport of one is a backport of the other",
	  { "hid: add q\n\ncommit @q2 upstream.\n" }, false,
	  { { FS_FIND_ALREADY_APPLIED, "bq1", FS_CAUSE_DUPLICATE },
	    { FS_FIND_FIX_MISSING, "qf", FS_CAUSE_FIX },
	    { FS_FIND_FIX_MISSING, "qg", FS_CAUSE_FIX }, END }, false },
	{ "the same subject and author but another diff: not the same change",
	  { "sound: tweak tee\n\ncommit @t2 upstream.\n" }, false,
	  { END }, false },
	{ "the same subject and author but another diff: its own fix only",
	  { "sound: tweak tee\n\ncommit @t1 upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "tf", FS_CAUSE_FIX }, END }, false },
	/* an id that names nothing: the subject and author decide */
	{ "a typo'd upstream id: the subject and author are e's",
	  { "block: add e\n\ncommit @e~ upstream.\n" }, false,
	  { { FS_FIND_UNKNOWN_UPSTREAM, "e", FS_CAUSE_SUBJECT_AUTHOR },
	    { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX }, END }, false, NULL, AUTHOR },
	{ "a typo'd upstream id: the author picks the other commit of that subject",
	  { "block: add e\n\ncommit @e~ upstream.\n" }, false,
	  { { FS_FIND_UNKNOWN_UPSTREAM, "z0", FS_CAUSE_SUBJECT_AUTHOR }, END }, false, NULL, OTHER },
	{ "a typo'd upstream id, an author of neither: unknown",
	  { "block: add e\n\ncommit @e~ upstream.\n" }, false,
	  { { FS_FIND_UNKNOWN_UPSTREAM, "e~", FS_CAUSE_NOT_FOUND }, END }, false, NULL, NOBODY },
	{ "a truncated upstream id",
	  { "block: add e\n\ncommit @e:9 upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX }, END }, false, NULL, AUTHOR },
	{ "an upstream id in capitals",
	  { "block: add e\n\ncommit @e^ upstream.\n" }, false,
	  { { FS_FIND_FIX_MISSING, "ef", FS_CAUSE_FIX }, END }, false, NULL, AUTHOR },
	{ "a stable id on the upstream line",
	  { "sound: fix h\n\ncommit @s44 upstream.\n" }, false,
	  { { FS_FIND_ALREADY_APPLIED, "s44", FS_CAUSE_DUPLICATE }, END }, false, NULL, AUTHOR },
	{ "no upstream line: the subject, author and diff are w0's: reviewed as it",
	  { "ata: add w\n\nNo upstream line.\n\n---\n"
	    "diff --git a/drivers/ata/w.c b/drivers/ata/w.c\nnew file mode 100644\n"
	    "index 0000000..e556b83\n--- /dev/null\n+++ b/drivers/ata/w.c\n@@ -0,0 +1 @@\n+w\n-- \n2.1.0\n" }, false,
	  { { FS_FIND_NO_UPSTREAM, "w0", FS_CAUSE_SUBJECT_AUTHOR },
	    { FS_FIND_FIX_MISSING, "w0f", FS_CAUSE_FIX }, END }, false, NULL, AUTHOR },
	{ "no upstream line: the subject and author are w0's, another diff: named only",
	  { "ata: add w\n\nNo upstream line.\n\n---\n"
	    "diff --git a/drivers/ata/w.c b/drivers/ata/w.c\nnew file mode 100644\n"
	    "index 0000000..e556b83\n--- /dev/null\n+++ b/drivers/ata/w.c\n@@ -0,0 +1 @@\n+x\n" }, false,
	  { { FS_FIND_NO_UPSTREAM, "w0", FS_CAUSE_SUBJECT_AUTHOR }, END }, false, NULL, AUTHOR },
	{ "no upstream line: the subject and author are e's",
	  { "block: add e\n\nNo upstream line.\n" }, false,
	  { { FS_FIND_NO_UPSTREAM, "e", FS_CAUSE_SUBJECT_AUTHOR }, END }, false, NULL, AUTHOR },
	{ "Fixes: with a typo'd id, the subject decides",
	  { "kernel: add kay\n\ncommit @k upstream.\n\nFixes: @e~:12 (\"block: add e\")\n" }, false,
	  { { FS_FIND_FIXES_TAG_MISMATCH, "e", FS_CAUSE_SUBJECT_MISMATCH },
	    { FS_FIND_TARGET_ABSENT, "e", FS_CAUSE_TARGET }, END }, false },
	{ "Fixes: in capitals",
	  { "kernel: add kay\n\ncommit @k upstream.\n\nFixes: @e^:12 (\"block: add e\")\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "e", FS_CAUSE_TARGET }, END }, false },
	{ "Fixes: truncated to eight digits",
	  { "kernel: add kay\n\ncommit @k upstream.\n\nFixes: @e:8 (\"block: add e\")\n" }, false,
	  { { FS_FIND_TARGET_ABSENT, "e", FS_CAUSE_TARGET }, END }, false },
};
#pragma GCC diagnostic pop

static const char *want_id(const char *commit)
{
	size_t len = strlen(commit);

	if (len == 0 || len == 40)
		return commit;
	if (commit[len - 1] == '~')
		return swapped(name_id(commit, len - 1));
	return name_id(commit, len);
}

static void describe(const struct fs_findings *got)
{
	size_t i;

	for (i = 0; i < got->n; i++)
		fprintf(stderr, "  got %s %.12s cause %s\n", fs_finding_kind_name(got->v[i].kind),
			got->v[i].commit, fs_finding_cause_name(got->v[i].cause));
}

/* Judge the last patch of ROW in its series and compare. */
static void judge_row(const struct row *row, struct fs_findings *got)
{
	struct fs_trailers *tags[MAXP] = { NULL };
	fs_cid ups[MAXP][8];
	struct fs_series_entry entries[MAXP];
	struct fs_findings_ctx ctx;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_report_mail report = { FS_CID_NONE, "report@example.org", "R <r@example.org>",
					 "Mon, 4 Apr 2016 10:00:00 +0000", "[REGRESSION] e broke", NULL };
	struct fs_objection objection = { -1, "obj@example.org", "O <o@example.org>",
					  "Tue, 5 Apr 2016 10:00:00 +0000", "Please drop this", FS_REPLY_OBJECTION,
					  NULL, 0, 0, NULL, FS_SETTLE_NONE, NULL, NULL, false, false };
	size_t np, i, n;
	char *text, *title = NULL, *body = NULL, *named[3] = { NULL };

	for (np = 0; np < MAXP && row->patches[np]; np++) {
		text = expand(row->patches[np]);
		assert_int_equal(fs_trailers_parse(&tags[np], text, strlen(text), &err), 0);
		g_free(title);
		title = g_strndup(text, strcspn(text, "\n"));
		n = fs_findings_resolve_patch(IDX, tags[np], title, row->author, text, strlen(text),
					      ups[np], 8, NULL);
		entries[np].index = (int)np + 1;
		entries[np].upstream = ups[np];
		entries[np].nupstream = n < 8 ? n : 8;
		g_free(body);
		body = text;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = IDX;
	ctx.branch = "linux-4.4.y";
	ctx.series = entries;
	ctx.nseries = np;
	ctx.stale_clone = row->stale;
	ctx.message = read_message;
	ctx.message_data = K.r->dir;
	ctx.base = row->base;
	ctx.author = row->author;
	ctx.body = body;
	ctx.body_len = body ? strlen(body) : 0;
	if (row->mail) {
		report.upstream = ups[np - 1][0];
		objection.series_index = (int)np;
		ctx.reports = &report;
		ctx.nreports = 1;
		ctx.objections = &objection;
		ctx.nobjections = 1;
	}
	for (i = 0; i < G_N_ELEMENTS(named) && row->named[i]; i++)
		named[i] = expand(row->named[i]);
	if (i) {
		objection.series_index = (int)np;
		objection.cls = FS_REPLY_NEEDS_ALSO;
		objection.line = "Reverting it fixes the hang here";
		objection.named = named;
		objection.nnamed = i;
		ctx.objections = &objection;
		ctx.nobjections = 1;
	}
	assert_int_equal(fs_findings_judge(got, &ctx, tags[np - 1], title, (int)np, &err), 0);
	for (i = 0; i < G_N_ELEMENTS(named); i++)
		g_free(named[i]);
	g_free(title);
	g_free(body);
	for (i = 0; i < np; i++)
		fs_trailers_free(tags[i]);
}

static void test_table(void **state)
{
	size_t r, i, nwant;

	for (r = 0; r < G_N_ELEMENTS(rows); r++) {
		const struct row *row = &rows[r];
		struct fs_findings got = FS_FINDINGS_INIT;

		judge_row(row, &got);
		for (nwant = 0; nwant < MAXF && (int)row->want[nwant].kind >= 0; nwant++)
			;
		if (got.n != nwant) {
			describe(&got);
			fail_msg("%s: %zu findings, want %zu", row->what, got.n, nwant);
		}
		/* Every finding wanted, each matched to its own, in any
		 * order (siblings come in id order); nothing else. */
		bool used[MAXF] = { false };
		for (i = 0; i < nwant; i++) {
			const struct want *w = &row->want[i];
			size_t k;
			for (k = 0; k < got.n; k++) {
				const struct fs_finding *f = &got.v[k];
				if (!used[k] && f->kind == w->kind && f->cause == w->cause &&
				    !strcmp(f->commit, want_id(w->commit)))
					break;
			}
			if (k == got.n) {
				describe(&got);
				fail_msg("%s: no finding %s %s %s", row->what,
					 fs_finding_kind_name(w->kind), w->commit,
					 fs_finding_cause_name(w->cause));
			}
			used[k] = true;
		}
		fs_findings_clear(&got);
	}
}

/* The first finding of the judged patch of ROWS[R] (whose kinds the
 * table checks), with its record fields. */
static void first_of(size_t r, struct fs_findings *got)
{
	judge_row(&rows[r], got);
	assert_true(got->n >= 1);
}

static size_t row_named(const char *what)
{
	size_t r;

	for (r = 0; r < G_N_ELEMENTS(rows); r++)
		if (!strcmp(rows[r].what, what))
			return r;
	fail_msg("no row '%s'", what);
	return 0;
}

static void test_revert_of_revert_record(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	const struct fs_finding *f;

	first_of(row_named("revert of a revert: U is in mainline again; a fix of R2 is a fix of U"),
		 &got);
	f = &got.v[0];
	assert_string_equal(f->revert.reapplied_commit, id(K.r, K.r2));
	assert_string_equal(f->revert.reapplied_release, "v4.5");
	assert_string_equal(f->branch, "mainline");
	/* the chain ends at the commit named, as every chain does */
	assert_int_equal(f->nchain, 2);
	assert_string_equal(f->chain[0], id(K.r, K.u));
	assert_string_equal(f->chain[1], id(K.r, K.r1));
	assert_false(fs_finding_is_problem(f));
	/* the fix of R2 is asked for, with its way back to U */
	f = &got.v[1];
	assert_true(fs_finding_is_problem(f));
	assert_int_equal(f->nchain, 4);
	assert_string_equal(f->chain[3], id(K.r, K.fr2));
	fs_findings_clear(&got);

	first_of(row_named("three reverts: odd, reverted"), &got);
	assert_true(fs_finding_is_problem(&got.v[0]));
	assert_null(got.v[0].revert.reapplied_commit);
	assert_int_equal(got.v[0].nchain, 4);
	fs_findings_clear(&got);
}

static void test_reverted_in_stable_record(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	const struct fs_finding *f;

	first_of(row_named("another branch reverted its own backport"), &got);
	f = &got.v[0];
	assert_string_equal(f->branch, "linux-4.5.y");
	assert_string_equal(f->release, "v4.5.2");
	assert_string_equal(f->stable_commit, id(K.r, K.svr));
	assert_string_equal(f->revert.reason, "It breaks suspend on older boards.");
	assert_int_equal(f->evidence, FS_FEV_REVERT);
	fs_findings_clear(&got);
}

/* Judge CHANGELOG alone with the diff comparison DIFF (may be NULL). */
/* The mail judged next reads as no text (fs_findings_ctx.unreadable). */
static bool next_unreadable;

static void judge_mail(const char *changelog, const struct fs_diffcmp_result *diff,
		       bool diffless, struct fs_findings *got)
{
	struct fs_trailers *tags = NULL;
	struct fs_findings_ctx ctx;
	struct fs_error err = FS_ERROR_INIT;
	char *text = expand(changelog), *title = g_strndup(text, strcspn(text, "\n"));

	assert_int_equal(fs_trailers_parse(&tags, text, strlen(text), &err), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = IDX;
	ctx.branch = "linux-4.4.y";
	ctx.diff = diff;
	ctx.diffless = diffless;
	ctx.unreadable = next_unreadable;
	next_unreadable = false;
	assert_int_equal(fs_findings_judge(got, &ctx, tags, title, 1, &err), 0);
	fs_trailers_free(tags);
	g_free(title);
	g_free(text);
}

static void judge_diff(const char *changelog, const struct fs_diffcmp_result *diff,
		       struct fs_findings *got)
{
	judge_mail(changelog, diff, false, got);
}

/* diff-absent: a patch mail without a diff is said to be one, beside
 * what its changelog alone gives, and asks for nothing; a mail with its
 * diff never is. */
static void test_diff_absent(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;
	const struct fs_finding *f;

	/* an upstream id that is all right: diff-absent alone */
	judge_mail("sound: add dee\n\ncommit @d upstream.\n", NULL, true, &got);
	assert_int_equal(got.n, 1);
	f = &got.v[0];
	assert_int_equal(f->kind, FS_FIND_DIFF_ABSENT);
	assert_string_equal(f->commit, "");
	assert_null(f->note);
	assert_false(fs_finding_is_problem(f));
	assert_false(fs_kind_asks(f));
	assert_int_equal(fs_findings_count(&got, FS_FIND_DIFF_ABSENT), 1);
	fs_findings_clear(&got);

	/* no upstream id either: both said, no-upstream first */
	judge_mail("sound: a change of stable's own\n\nNo upstream here.\n", NULL, true, &got);
	assert_int_equal(got.n, 2);
	assert_int_equal(got.v[0].kind, FS_FIND_NO_UPSTREAM);
	assert_int_equal(got.v[1].kind, FS_FIND_DIFF_ABSENT);
	fs_findings_clear(&got);

	/* the same mails with their diff: no diff-absent */
	judge_mail("sound: add dee\n\ncommit @d upstream.\n", NULL, false, &got);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	judge_mail("sound: a change of stable's own\n\nNo upstream here.\n", NULL, false, &got);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.v[0].kind, FS_FIND_NO_UPSTREAM);
	fs_findings_clear(&got);

	/* a mail that could not be read: diff-absent of that cause, and
	 * what its changelog lacks is not held against it */
	next_unreadable = true;
	judge_mail("sound: a change of stable's own\n\nNo upstream here.\n", NULL, true, &got);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.v[0].kind, FS_FIND_DIFF_ABSENT);
	assert_int_equal(got.v[0].cause, FS_CAUSE_UNREADABLE);
	assert_string_equal(fs_finding_cause_name(got.v[0].cause), "unreadable");
	assert_null(got.v[0].note);
	fs_findings_clear(&got);
}

/* backport-differs: what the diff comparison found, unless the changelog
 * documents it; a dropped file asks for action, the rest is advisory. */
static void test_backport_differs(void **state)
{
	static char *dropped[] = { "sound/b.c" }, *added[] = { "sound/c.c" };
	static char *lines[] = { "backport only: sound/d.c: +x();" };
	const char *dee = "sound: add dee\n\ncommit @d upstream.\n";
	struct fs_diffcmp_result d = FS_DIFFCMP_RESULT_INIT;
	struct fs_findings got = FS_FINDINGS_INIT;
	const struct fs_finding *f;

	/* no comparison, and one that found nothing: no finding at all */
	judge_diff(dee, NULL, &got);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);
	judge_diff(dee, &d, &got);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);

	/* a dropped file: the one finding, a problem that asks */
	d.files_dropped = dropped;
	d.nfiles_dropped = 1;
	judge_diff(dee, &d, &got);
	assert_int_equal(got.n, 1);
	f = &got.v[0];
	assert_int_equal(f->kind, FS_FIND_BACKPORT_DIFFERS);
	assert_string_equal(f->commit, id(K.r, K.d));
	assert_int_equal(f->diff.nfiles_dropped, 1);
	assert_string_equal(f->diff.files_dropped[0], "sound/b.c");
	assert_int_equal(f->diff.nfiles_added, 0);
	assert_int_equal(f->diff.lines_differ, 0);
	assert_string_equal(f->note, "upstream also changes sound/b.c");
	assert_true(fs_finding_is_problem(f));
	assert_true(fs_kind_asks(f));
	fs_findings_clear(&got);

	/* an added file and lines on one side only: advisory */
	d.nfiles_dropped = 0;
	d.files_added = added;
	d.nfiles_added = 1;
	d.lines_differ = 3;
	d.lines = lines;
	d.nlines = 1;
	judge_diff(dee, &d, &got);
	assert_int_equal(got.n, 1);
	f = &got.v[0];
	assert_int_equal(f->kind, FS_FIND_BACKPORT_DIFFERS);
	/* not every line listed: no count per side */
	assert_string_equal(f->note,
			    "the backport also changes sound/c.c; 3 lines that only one side has");
	assert_int_equal(f->diff.lines_differ, 3);
	assert_int_equal(f->diff.nlines, 1);
	assert_string_equal(f->diff.lines[0], "backport only: sound/d.c: +x();");
	fs_findings_clear(&got);

	/* every line listed: the count of each side */
	d.lines_differ = 1;
	judge_diff(dee, &d, &got);
	assert_string_equal(got.v[0].note, "the backport also changes sound/c.c; 1 line only in the backport");
	fs_findings_clear(&got);
	{
		char *two[] = { (char *)"backport only: sound/d.c: +x();", (char *)"upstream only: sound/d.c: -y();",
				(char *)"upstream only: sound/d.c: -z();" };

		d.nfiles_added = 0;
		d.lines = two;
		d.nlines = d.lines_differ = 3;
		judge_diff(dee, &d, &got);
		assert_string_equal(got.v[0].note, "1 line only in the backport and 2 only upstream");
		fs_findings_clear(&got);
		d.lines = two + 1;
		d.nlines = d.lines_differ = 2;
		judge_diff(dee, &d, &got);
		assert_string_equal(got.v[0].note, "2 lines only upstream");
		d.lines = lines;
		d.nlines = 1;
		d.lines_differ = 3;
		d.nfiles_added = 1;
	}
	f = &got.v[0];
	assert_false(fs_finding_is_problem(f));
	assert_false(fs_kind_asks(f));
	fs_findings_clear(&got);

	/* documented: nothing, dropped file or not */
	d.files_dropped = dropped;
	d.nfiles_dropped = 1;
	d.documented = true;
	judge_diff(dee, &d, &got);
	assert_int_equal(got.n, 0);
	fs_findings_clear(&got);

	/* a squash of two upstream commits is not compared with one */
	d.documented = false;
	judge_diff("fs: add squash\n\ncommit @s upstream.\ncommit @sm upstream.\n", &d, &got);
	for (size_t i = 0; i < got.n; i++)
		assert_int_not_equal(got.v[i].kind, FS_FIND_BACKPORT_DIFFERS);
	fs_findings_clear(&got);
}

static void test_series_records(void **state)
{
	struct fs_findings got = FS_FINDINGS_INIT;

	first_of(row_named("the same upstream commit twice in one series"), &got);
	assert_int_equal(got.v[0].series_index, 1);
	fs_findings_clear(&got);
	first_of(row_named("fix queued"), &got);
	assert_int_equal(got.v[0].series_index, 1);
	fs_findings_clear(&got);
	first_of(row_named("an unknown id, the clone older than the thread"), &got);
	assert_int_equal(got.v[0].unresolved, FS_CAUSE_NOT_IN_CLONE);
	assert_null(strstr(got.v[0].note, "kernel repository"));
	fs_findings_clear(&got);
}

static void test_names(void **state)
{
	int k;

	assert_string_equal(fs_finding_kind_name(FS_FIND_REVERTED_IN_STABLE), "reverted-in-stable");
	assert_string_equal(fs_finding_kind_name(FS_FIND_DUPLICATE_IN_SERIES), "duplicate-in-series");
	for (k = 0; k < FS_FIND_KIND_COUNT; k++)
		assert_int_equal(fs_finding_kind_from_name(fs_finding_kind_name(k)), k);
	for (k = 0; k < FS_CAUSE_COUNT; k++)
		assert_string_not_equal(fs_finding_cause_name(k), "unknown");
	assert_string_equal(fs_finding_cause_name(FS_CAUSE_REVERT_OF_REVERT), "revert-of-revert");
	assert_string_equal(fs_finding_evidence_name(FS_FEV_SUBJECT), "subject");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_revert_of_revert_record),
		cmocka_unit_test(test_reverted_in_stable_record),
		cmocka_unit_test(test_series_records),
		cmocka_unit_test(test_backport_differs),
		cmocka_unit_test(test_diff_absent),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
