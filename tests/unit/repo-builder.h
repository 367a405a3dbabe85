/* A tiny repository builder on top of git fast-import, shared by the unit
 * tests that need real histories (test-index-*.c, test-findings.c).  Not a
 * library: static functions, included once per test program after
 * <cmocka.h>, <glib.h> and the C headers its users already include.
 * A test may use only some of it (test-diffcmp.c and test-packfile.c:
 * run(), tmp_root and pack_deltas()). */
#ifndef FIXSCAN_TEST_REPO_BUILDER_H
#define FIXSCAN_TEST_REPO_BUILDER_H

#include <sys/stat.h>

#define MAX_MARKS 4096

struct repo {
	char *dir;            /* the work tree (git init'ed) */
	char *marks;          /* fast-import's marks file */
	char *stream;
	GString *fi;          /* commands not yet imported */
	int next_mark;
	int loaded;           /* marks 1..loaded are known */
	char ids[MAX_MARKS][41];
	long when;
	int other_author;     /* commits get another author while set */
	const char *file;     /* while set, commits write CONTENT to FILE,
			       * the same diff each time on the same tree */
	const char *content;
	GString *ops;         /* repo_put()/repo_del(): the next commit's files */
};

static char tmp_root[512];

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, cmd);
}

__attribute__((unused)) static struct repo *repo_new(const char *name)
{
	struct repo *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->dir = g_strdup_printf("%s/%s", tmp_root, name);
	r->marks = g_strdup_printf("%s/%s.marks", tmp_root, name);
	r->stream = g_strdup_printf("%s/%s.fi", tmp_root, name);
	r->fi = g_string_new(NULL);
	r->next_mark = 1;
	r->when = 1450000000;
	run("git init -q '%s'", r->dir);
	return r;
}

__attribute__((unused)) static void repo_free(struct repo *r)
{
	if (!r)
		return;
	g_string_free(r->fi, TRUE);
	if (r->ops)
		g_string_free(r->ops, TRUE);
	g_free(r->dir);
	g_free(r->marks);
	g_free(r->stream);
	free(r);
}

__attribute__((unused)) static void repo_flush(struct repo *r)
{
	FILE *f, *m;
	char line[256];

	if (r->fi->len == 0)
		return;
	f = fopen(r->stream, "w");
	assert_non_null(f);
	fwrite(r->fi->str, 1, r->fi->len, f);
	fclose(f);
	g_string_truncate(r->fi, 0);
	run("git -C '%s' fast-import --quiet --force --import-marks-if-exists='%s' "
	    "--export-marks='%s' <'%s'", r->dir, r->marks, r->marks, r->stream);
	m = fopen(r->marks, "r");
	assert_non_null(m);
	while (fgets(line, sizeof(line), m)) {
		int mark;
		char hex[41];
		if (sscanf(line, ":%d %40s", &mark, hex) == 2 && mark > 0 && mark < MAX_MARKS) {
			memcpy(r->ids[mark], hex, 41);
			if (mark > r->loaded)
				r->loaded = mark;
		}
	}
	fclose(m);
}

/* The full id of MARK, importing what is pending first if needed. */
__attribute__((unused)) static const char *id(struct repo *r, int mark)
{
	if (mark > r->loaded)
		repo_flush(r);
	assert_true(mark <= r->loaded);
	return r->ids[mark];
}

/* A commit on BRANCH (short name under refs/heads/) with parents PARENTS
 * (marks, ending with 0; none: a root commit) and message FMT. */
__attribute__((unused)) static int commit_v(struct repo *r, const char *branch, const int *parents,
		    const char *fmt, va_list ap)
{
	char *msg = g_strdup_vprintf(fmt, ap);
	int mark = r->next_mark++, i;

	assert_true(mark < MAX_MARKS);
	if (!parents || !parents[0])
		g_string_append_printf(r->fi, "reset refs/heads/%s\n", branch);
	g_string_append_printf(r->fi, "commit refs/heads/%s\nmark :%d\n", branch, mark);
	g_string_append_printf(r->fi, "author %s %ld +0000\n",
			       r->other_author ? "O Ther <other@example.org>" :
			       "A U Thor <author@example.org>", r->when);
	g_string_append_printf(r->fi, "committer C O Mitter <committer@example.org> %ld +0000\n",
			       r->when);
	r->when += 60;
	g_string_append_printf(r->fi, "data %zu\n%s\n", strlen(msg), msg);
	for (i = 0; parents && parents[i]; i++)
		g_string_append_printf(r->fi, "%s :%d\n", i ? "merge" : "from", parents[i]);
	if (r->ops && r->ops->len) {
		g_string_append_len(r->fi, r->ops->str, r->ops->len);
		g_string_truncate(r->ops, 0);
	} else if (r->file)
		g_string_append_printf(r->fi, "M 644 inline %s\ndata %zu\n%s\n", r->file,
				       strlen(r->content), r->content);
	else
		g_string_append_printf(r->fi, "M 644 inline file-%d\ndata 2\n%c\n\n", mark % 7,
				       'a' + mark % 26);
	g_free(msg);
	return mark;
}

/* The next commit writes CONTENT to PATH (a real tree: the trees tests
 * read files of), instead of its one file of the default. */
__attribute__((unused)) static void repo_put(struct repo *r, const char *path,
					    const char *content)
{
	if (!r->ops)
		r->ops = g_string_new(NULL);
	g_string_append_printf(r->ops, "M 644 inline %s\ndata %zu\n%s\n", path, strlen(content),
			       content);
}

/* The next commit deletes PATH. */
__attribute__((unused)) static void repo_del(struct repo *r, const char *path)
{
	if (!r->ops)
		r->ops = g_string_new(NULL);
	g_string_append_printf(r->ops, "D %s\n", path);
}

/* A commit with several parents (a merge), PARENTS ending with 0. */
static int commit_m(struct repo *r, const char *branch, const int *parents, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), unused));
static int commit_m(struct repo *r, const char *branch, const int *parents, const char *fmt, ...)
{
	va_list ap;
	int m;

	va_start(ap, fmt);
	m = commit_v(r, branch, parents, fmt, ap);
	va_end(ap);
	return m;
}

static int commit(struct repo *r, const char *branch, int parent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), unused));
static int commit(struct repo *r, const char *branch, int parent, const char *fmt, ...)
{
	int parents[2] = { parent, 0 };
	va_list ap;
	int m;

	va_start(ap, fmt);
	m = commit_v(r, branch, parents, fmt, ap);
	va_end(ap);
	return m;
}


/* A per-test temporary TMP_ROOT ("fixscan-test-NAME.XXXXXX" under
 * $TMPDIR) holding the cache, home and config directories, and git told
 * to read no system config and no repository of the caller's: what the
 * index tests (test-index-*.c, test-pendidx.c) set up before each test.
 * 0, or -1 when the directory cannot be made. */
__attribute__((unused)) static int repo_env_setup(const char *name)
{
	char path[PATH_MAX];

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-%s.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	if (!mkdtemp(tmp_root))
		return -1;
	snprintf(path, sizeof(path), "%s/cache", tmp_root);
	setenv("XDG_CACHE_HOME", path, 1);
	snprintf(path, sizeof(path), "%s/home", tmp_root);
	mkdir(path, 0700);
	setenv("HOME", path, 1);
	snprintf(path, sizeof(path), "%s/config", tmp_root);
	setenv("XDG_CONFIG_HOME", path, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	return 0;
}

/* Remove TMP_ROOT: 0, or -1. */
__attribute__((unused)) static int repo_env_teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* How many objects of REPO's pack are deltas (git verify-pack). */
__attribute__((unused)) static int pack_deltas(const char *repo)
{
	char *cmd = g_strdup_printf("sh -c \"git verify-pack -v '%s'/objects/pack/*.idx | "
				    "awk 'NF >= 7 && length(\\$1) == 40' | wc -l\"", repo);
	char *out = NULL;
	int n;

	assert_true(g_spawn_command_line_sync(cmd, &out, NULL, NULL, NULL));
	n = atoi(out);
	g_free(out);
	g_free(cmd);
	return n;
}

#endif
