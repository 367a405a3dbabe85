/* bench-sqlite-compare: the data of a fixscan index stored in SQLite, and
 * the same lookups answered from both, for the cache-format note of issue 4.
 *
 * usage: bench-sqlite-compare REPO IDS_FILE DBPATH
 *
 * REPO's fixscan index must exist (it is opened with no_update, so nothing
 * is built here).  Every commit and changelog reference is read through the
 * public API, then written to a fresh SQLite database at DBPATH in one
 * transaction, and the ids of IDS_FILE (one 40-hex id per line) are looked
 * up in both stores: a 12-digit prefix resolved to a commit, and the
 * commits whose Fixes: or revert reference names it (one level, the
 * answer of fs_index_refs_to()).  Both answers are compared id by id.
 *
 * BENCH_FULL_SECONDS, when set, is the wall time of a full
 * `fixscan index --rebuild` of REPO; the store time is also given as a
 * ratio of it.  BENCH_SQLITE_JOURNAL=delete tries the rollback journal
 * instead of WAL; BENCH_SQLITE_PLAN=1 prints the query plans.
 *
 * This is a measuring tool, not library code: it prints and exits on
 * failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <sqlite3.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "base/hash.h"

#define KINDS (FS_REF_BIT(FS_REF_FIXES) | FS_REF_BIT(FS_REF_REVERTS))
#define WARM_PASSES 3
#define MAX_FIXERS 1024

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench-sqlite-compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double file_mb(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (double)st.st_size / (1024.0 * 1024.0) : 0.0;
}

/* ---- what the fixscan index holds --------------------------------------- */

/* Strings are borrowed from the index, which stays open to the end. */
struct row {
	char hex[41];
	const char *subject, *branch, *release; /* release may be NULL */
};

struct ref {
	fs_cid source;
	int kind;
	char hex[41];
	const char *subject; /* may be NULL */
};

struct data {
	struct row *c;
	size_t nc;
	struct ref *r;
	size_t nr, rcap;
};

static void read_index(const struct fs_index *idx, struct data *d)
{
	struct fs_index_ref *buf = NULL;
	size_t bufcap = 0, c, i, n;

	d->nc = fs_index_count(idx);
	d->c = calloc(d->nc ? d->nc : 1, sizeof(*d->c));
	if (!d->c)
		die("out of memory");
	for (c = 0; c < d->nc; c++) {
		struct row *w = &d->c[c];

		fs_index_commit_hex(idx, (fs_cid)c, w->hex);
		w->subject = fs_index_commit_subject(idx, (fs_cid)c);
		w->branch = fs_index_commit_branch(idx, (fs_cid)c);
		w->release = fs_index_commit_release(idx, (fs_cid)c);
		n = fs_index_commit_refs(idx, (fs_cid)c, NULL, 0);
		if (!n)
			continue;
		if (n > bufcap) {
			bufcap = n;
			buf = realloc(buf, bufcap * sizeof(*buf));
			if (!buf)
				die("out of memory");
		}
		fs_index_commit_refs(idx, (fs_cid)c, buf, n);
		if (d->nr + n > d->rcap) {
			d->rcap = (d->nr + n) * 2;
			d->r = realloc(d->r, d->rcap * sizeof(*d->r));
			if (!d->r)
				die("out of memory");
		}
		for (i = 0; i < n; i++) {
			struct ref *r = &d->r[d->nr++];

			r->source = (fs_cid)c;
			r->kind = buf[i].kind;
			memcpy(r->hex, buf[i].hex, sizeof(r->hex));
			r->subject = buf[i].subject;
		}
	}
	free(buf);
}

/* ---- subjects ----------------------------------------------------------- */

/* The key fixscan matches quoted subjects by is the normalised subject
 * (fs_trailers_normalize_subject()).  The SQLite schema keeps a 64-bit FNV-1a
 * hash of it in an indexed integer column, as fixscan's cache keeps sorted
 * hashes, and like fixscan compares the normalised text of each hit, so a
 * hash collision cannot give a wrong answer.  0 (stored as NULL) means an
 * empty subject, which matches nothing. */
static int64_t subject_hash(const char *subject)
{
	uint64_t h;
	char *norm;

	if (!subject || !*subject)
		return 0;
	norm = fs_trailers_normalize_subject(subject);
	if (!norm)
		die("out of memory");
	h = *norm ? fs_fnv1a_str(norm) : 0;
	g_free(norm);
	return (int64_t)h;
}

static bool subjects_equal(const char *a, const char *b)
{
	char *na = fs_trailers_normalize_subject(a);
	char *nb = fs_trailers_normalize_subject(b);
	bool eq = na && nb && !strcmp(na, nb);

	g_free(na);
	g_free(nb);
	return eq;
}

/* ---- the SQLite store --------------------------------------------------- */

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die("sqlite: %s: %s", sql, msg ? msg : sqlite3_errmsg(db));
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		die("sqlite: cannot prepare '%s': %s", sql, sqlite3_errmsg(db));
	return st;
}

static void step_done(sqlite3 *db, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		die("sqlite: %s", sqlite3_errmsg(db));
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_hash(sqlite3_stmt *st, int i, int64_t h)
{
	if (h)
		sqlite3_bind_int64(st, i, h);
	else
		sqlite3_bind_null(st, i);
}

/* The schema, in the spirit of verhaal's commit database: one row per
 * commit with its id as 40 hex digits, one row per changelog reference.
 * Branch and release names go in small side tables (branch 0 is mainline)
 * rather than repeated as text in 1.3 million rows.  cid is the fixscan
 * cid, so answers can be compared directly; it is the rowid, and rows are
 * inserted in id order. */
static const char schema[] =
	"CREATE TABLE branches (bid INTEGER PRIMARY KEY, name TEXT NOT NULL);"
	"CREATE TABLE releases (rid INTEGER PRIMARY KEY, name TEXT NOT NULL);"
	"CREATE TABLE commits ("
	" cid INTEGER PRIMARY KEY,"
	" id TEXT NOT NULL,"
	" subject TEXT NOT NULL,"
	" shash INTEGER,"   /* hash of the normalised subject, NULL if empty */
	" branch INTEGER NOT NULL,"
	" release INTEGER);"
	"CREATE TABLE refs ("
	" source INTEGER NOT NULL," /* commits.cid */
	" kind INTEGER NOT NULL,"   /* enum fs_ref_kind */
	" hex TEXT NOT NULL,"       /* as written, 7..40 digits */
	" subject TEXT,"            /* quoted subject or NULL */
	" shash INTEGER);";

/* Created inside the same transaction, after the rows: cheaper than
 * maintaining them row by row, and no reader ever sees a database without
 * them.  commits_id resolves prefixes, refs_hex finds the references that
 * name a commit by an abbreviation, the two shash indexes do the quoted-
 * subject fallback, refs_source lists a commit's own references (what
 * `fixscan show` prints; fixscan's cache has them contiguous per commit). */
static const char indexes[] =
	"CREATE UNIQUE INDEX commits_id ON commits(id);"
	"CREATE INDEX commits_shash ON commits(shash);"
	"CREATE INDEX refs_hex ON refs(hex);"
	"CREATE INDEX refs_shash ON refs(shash);"
	"CREATE INDEX refs_source ON refs(source);";

static const char *journal_mode(void)
{
	const char *j = getenv("BENCH_SQLITE_JOURNAL");

	return j && !strcmp(j, "delete") ? "delete" : "wal";
}

static void unlink_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char name[4096];
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(suffix); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffix[i]);
		if (unlink(name) < 0 && errno != ENOENT)
			die("cannot remove '%s': %s", name, strerror(errno));
	}
}

/* Small integer ids for branch or release names, assigned in order of
 * first use; NAMES maps the borrowed name to id + 1. */
static int name_id(GHashTable *names, sqlite3 *db, sqlite3_stmt *ins, const char *name,
		   int first)
{
	gpointer v = g_hash_table_lookup(names, name);
	int id;

	if (v)
		return GPOINTER_TO_INT(v) - 1;
	id = first + (int)g_hash_table_size(names);
	g_hash_table_insert(names, (gpointer)name, GINT_TO_POINTER(id + 1));
	sqlite3_bind_int(ins, 1, id);
	sqlite3_bind_text(ins, 2, name, -1, SQLITE_STATIC);
	step_done(db, ins);
	return id;
}

struct store_times {
	double insert, index, commit, total;
};

static void store(const struct data *d, const char *path, struct store_times *t)
{
	sqlite3 *db;
	sqlite3_stmt *ins_branch, *ins_release, *ins_commit, *ins_ref;
	GHashTable *branches, *releases;
	char pragmas[256];
	double t0, t1, t2, t3;
	size_t i;

	t0 = now();
	unlink_db(path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK)
		die("cannot create '%s': %s", path, sqlite3_errmsg(db));
	/* WAL so that readers go on while an update writes; synchronous=NORMAL
	 * is the usual WAL companion (durable across a crash up to the last
	 * checkpoint, never corrupt).  A 64 MiB page cache, as a real build
	 * would set, keeps index creation from spilling to temporary files. */
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA journal_mode=%s; PRAGMA synchronous=NORMAL;"
		 " PRAGMA cache_size=-65536;", journal_mode());
	exec(db, pragmas);
	exec(db, "BEGIN");
	exec(db, schema);
	ins_branch = prepare(db, "INSERT INTO branches (bid, name) VALUES (?, ?)");
	ins_release = prepare(db, "INSERT INTO releases (rid, name) VALUES (?, ?)");
	ins_commit = prepare(db, "INSERT INTO commits (cid, id, subject, shash, branch, release)"
			     " VALUES (?, ?, ?, ?, ?, ?)");
	ins_ref = prepare(db, "INSERT INTO refs (source, kind, hex, subject, shash)"
			  " VALUES (?, ?, ?, ?, ?)");
	branches = g_hash_table_new(g_str_hash, g_str_equal);
	releases = g_hash_table_new(g_str_hash, g_str_equal);
	for (i = 0; i < d->nc; i++) {
		const struct row *w = &d->c[i];
		int bid = strcmp(w->branch, "mainline") ?
			name_id(branches, db, ins_branch, w->branch, 1) : 0;

		if (bid == 0 && !g_hash_table_contains(branches, "mainline"))
			name_id(branches, db, ins_branch, "mainline", 0);
		sqlite3_bind_int64(ins_commit, 1, (sqlite3_int64)i);
		sqlite3_bind_text(ins_commit, 2, w->hex, 40, SQLITE_STATIC);
		sqlite3_bind_text(ins_commit, 3, w->subject, -1, SQLITE_STATIC);
		bind_hash(ins_commit, 4, subject_hash(w->subject));
		sqlite3_bind_int(ins_commit, 5, bid);
		if (w->release)
			sqlite3_bind_int(ins_commit, 6,
					 name_id(releases, db, ins_release, w->release, 1));
		else
			sqlite3_bind_null(ins_commit, 6);
		step_done(db, ins_commit);
	}
	for (i = 0; i < d->nr; i++) {
		const struct ref *r = &d->r[i];

		sqlite3_bind_int64(ins_ref, 1, r->source);
		sqlite3_bind_int(ins_ref, 2, r->kind);
		sqlite3_bind_text(ins_ref, 3, r->hex, -1, SQLITE_STATIC);
		bind_text_or_null(ins_ref, 4, r->subject);
		bind_hash(ins_ref, 5, subject_hash(r->subject));
		step_done(db, ins_ref);
	}
	g_hash_table_destroy(branches);
	g_hash_table_destroy(releases);
	sqlite3_finalize(ins_branch);
	sqlite3_finalize(ins_release);
	sqlite3_finalize(ins_commit);
	sqlite3_finalize(ins_ref);
	t1 = now();
	exec(db, indexes);
	t2 = now();
	exec(db, "COMMIT");
	/* Fold the WAL into the database file, so the size below is the
	 * whole store and the next open does not replay it. */
	if (!strcmp(journal_mode(), "wal"))
		exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
	if (sqlite3_close(db) != SQLITE_OK)
		die("sqlite: cannot close '%s'", path);
	t3 = now();
	t->insert = t1 - t0;
	t->index = t2 - t1;
	t->commit = t3 - t2;
	t->total = t3 - t0;
}

/* ---- lookups from SQLite ------------------------------------------------ */

struct sq {
	sqlite3 *db;
	sqlite3_stmt *range;   /* commits with id in [?1, ?2), id order */
	sqlite3_stmt *root;    /* a commit's id and subject by cid */
	sqlite3_stmt *cand;    /* Fixes/revert refs naming an id prefix or a subject hash */
	sqlite3_stmt *subject; /* commits by subject hash, mainline first */
};

/* Every prefix of the id ?1 of 4..40 digits: fixscan matches references
 * written with any abbreviation (its reader accepts 4..40). */
static char *cand_sql(void)
{
	GString *s = g_string_new("SELECT rowid, source, kind, hex, subject FROM refs"
				  " WHERE kind IN (2, 3) AND hex IN (");
	int len;

	for (len = 4; len <= 40; len++)
		g_string_append_printf(s, "%ssubstr(?1, 1, %d)", len > 4 ? ", " : "", len);
	g_string_append(s, ") UNION SELECT rowid, source, kind, hex, subject FROM refs"
			" WHERE kind IN (2, 3) AND shash = ?2");
	return g_string_free(s, FALSE);
}

static void print_plan(sqlite3 *db, sqlite3_stmt *st)
{
	char *sql = g_strdup_printf("EXPLAIN QUERY PLAN %s", sqlite3_sql(st));
	sqlite3_stmt *p;

	if (sqlite3_prepare_v2(db, sql, -1, &p, NULL) != SQLITE_OK)
		die("sqlite: %s", sqlite3_errmsg(db));
	printf("plan of %.60s...\n", sqlite3_sql(st));
	while (sqlite3_step(p) == SQLITE_ROW)
		printf("  %s\n", (const char *)sqlite3_column_text(p, 3));
	sqlite3_finalize(p);
	g_free(sql);
}

static void sq_open(struct sq *s, const char *path)
{
	char *sql;

	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		die("cannot open '%s': %s", path, sqlite3_errmsg(s->db));
	s->range = prepare(s->db, "SELECT cid, subject FROM commits WHERE id >= ?1 AND id < ?2"
			   " ORDER BY id LIMIT ?3");
	s->root = prepare(s->db, "SELECT id, subject, shash FROM commits WHERE cid = ?");
	sql = cand_sql();
	s->cand = prepare(s->db, sql);
	g_free(sql);
	s->subject = prepare(s->db, "SELECT cid, subject FROM commits WHERE shash = ?"
			     " ORDER BY branch != 0, cid");
	if (getenv("BENCH_SQLITE_PLAN")) {
		print_plan(s->db, s->range);
		print_plan(s->db, s->root);
		print_plan(s->db, s->cand);
		print_plan(s->db, s->subject);
	}
}

static void sq_close(struct sq *s)
{
	sqlite3_finalize(s->range);
	sqlite3_finalize(s->root);
	sqlite3_finalize(s->cand);
	sqlite3_finalize(s->subject);
	sqlite3_close(s->db);
}

static void sq_reset(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Commits whose id starts with HEX (lower case), up to LIMIT of them in
 * id order; the first MAX cids go to OUT and, when SUBJ0 is not NULL, a
 * copy of the first one's subject to *SUBJ0 (g_free). */
static size_t sq_range(struct sq *s, const char *hex, int64_t *out, size_t max, int limit,
		       char **subj0)
{
	char hi[42];
	size_t n = 0;
	int rc;

	/* Ids are lower-case hex and 'g' sorts after 'f', so the ids starting
	 * with HEX are exactly those in [HEX, HEX "g"). */
	snprintf(hi, sizeof(hi), "%sg", hex);
	sqlite3_bind_text(s->range, 1, hex, -1, SQLITE_STATIC);
	sqlite3_bind_text(s->range, 2, hi, -1, SQLITE_STATIC);
	sqlite3_bind_int(s->range, 3, limit);
	while ((rc = sqlite3_step(s->range)) == SQLITE_ROW) {
		if (n < max)
			out[n] = sqlite3_column_int64(s->range, 0);
		if (n == 0 && subj0)
			*subj0 = g_strdup((const char *)sqlite3_column_text(s->range, 1));
		n++;
	}
	if (rc != SQLITE_DONE)
		die("sqlite: %s", sqlite3_errmsg(s->db));
	sq_reset(s->range);
	return n;
}

/* fixscan's subject_pick(): among the commits whose normalised subject is
 * SUBJECT's (mainline first, then id order; the first 16), the first one
 * that is in CAND, else the first one; -1 when none. */
static int64_t sq_subject_pick(struct sq *s, const char *subject, const int64_t *cand,
			       size_t ncand)
{
	int64_t h = subject_hash(subject), found[16], pick = -1;
	size_t n = 0, i, j;

	if (!h)
		return -1;
	sqlite3_bind_int64(s->subject, 1, h);
	while (n < 16 && sqlite3_step(s->subject) == SQLITE_ROW)
		if (subjects_equal(subject, (const char *)sqlite3_column_text(s->subject, 1)))
			found[n++] = sqlite3_column_int64(s->subject, 0);
	sq_reset(s->subject);
	if (n == 0)
		return -1;
	pick = found[0];
	for (i = 0; i < n; i++)
		for (j = 0; j < ncand; j++)
			if (found[i] == cand[j])
				return found[i];
	return pick;
}

/* The commit a reference names, by the rules of fs_index_ref_target(): a
 * unique id prefix, unless the quoted subject names another commit; else
 * the quoted subject.  -1 when nothing matches. */
static int64_t sq_ref_target(struct sq *s, const char *hex, const char *subject)
{
	int64_t cand[8], c;
	char *subj0 = NULL;
	size_t n;

	n = sq_range(s, hex, cand, 8, 9, &subj0);
	if (n == 1) {
		c = cand[0];
		if (subject && !subjects_equal(subject, subj0)) {
			int64_t other = sq_subject_pick(s, subject, NULL, 0);
			if (other >= 0 && other != c)
				c = other;
		}
		g_free(subj0);
		return c;
	}
	g_free(subj0);
	if (subject)
		return sq_subject_pick(s, subject, cand, n < 8 ? n : 8);
	return -1;
}

/* What fs_index_refs_to(root, Fixes|reverts) answers, from SQLite: the
 * references naming ROOT's id by any prefix or its subject by hash, kept
 * when they really resolve to ROOT.  Stores up to MAX (source, kind, hex)
 * in OUT; returns the number found. */
static size_t sq_fixes_of(struct sq *s, int64_t root, struct ref *out, size_t max)
{
	struct hit {
		struct ref r;
		char *subject;
	} *hits = NULL;
	size_t nhits = 0, cap = 0, n = 0, i;
	char id[41];
	int64_t h;
	int rc;

	sqlite3_bind_int64(s->root, 1, root);
	if (sqlite3_step(s->root) != SQLITE_ROW)
		die("sqlite: no commit %" PRId64, root);
	snprintf(id, sizeof(id), "%s", (const char *)sqlite3_column_text(s->root, 0));
	h = sqlite3_column_int64(s->root, 2);
	sq_reset(s->root);

	/* Collect the candidates before resolving them: the resolution runs
	 * other statements on the same connection. */
	sqlite3_bind_text(s->cand, 1, id, 40, SQLITE_STATIC);
	bind_hash(s->cand, 2, h);
	while ((rc = sqlite3_step(s->cand)) == SQLITE_ROW) {
		const char *subj = (const char *)sqlite3_column_text(s->cand, 4);

		if (nhits == cap) {
			cap = cap ? cap * 2 : 16;
			hits = realloc(hits, cap * sizeof(*hits));
			if (!hits)
				die("out of memory");
		}
		hits[nhits].r.source = (fs_cid)sqlite3_column_int64(s->cand, 1);
		hits[nhits].r.kind = sqlite3_column_int(s->cand, 2);
		snprintf(hits[nhits].r.hex, sizeof(hits[nhits].r.hex), "%s",
			 (const char *)sqlite3_column_text(s->cand, 3));
		hits[nhits].r.subject = NULL;
		hits[nhits].subject = subj ? g_strdup(subj) : NULL;
		nhits++;
	}
	if (rc != SQLITE_DONE)
		die("sqlite: %s", sqlite3_errmsg(s->db));
	sq_reset(s->cand);
	for (i = 0; i < nhits; i++) {
		if (sq_ref_target(s, hits[i].r.hex, hits[i].subject) == root) {
			if (n < max)
				out[n] = hits[i].r;
			n++;
		}
		g_free(hits[i].subject);
	}
	free(hits);
	return n;
}

/* ---- the comparison ----------------------------------------------------- */

static char **read_ids(const char *path, size_t *n)
{
	GPtrArray *ids = g_ptr_array_new();
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strspn(line, "0123456789abcdef");
		if (len == 40)
			g_ptr_array_add(ids, g_strndup(line, 40));
		else if (line[0] != '\n')
			die("'%s': not a 40-hex id: %s", path, line);
	}
	fclose(f);
	*n = ids->len;
	g_ptr_array_add(ids, NULL);
	return (char **)g_ptr_array_free(ids, FALSE);
}

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return strcmp(x->hex, y->hex);
}

struct pass {
	double resolve_fs, resolve_sq, fixes_fs, fixes_sq;
	size_t resolve_mismatch, fixes_mismatch, fixes_found;
};

/* One pass over IDS: resolve each 12-digit prefix, then the one-level
 * Fixes/revert answer for the resolved commit, each store timed on its
 * own; the answers are compared after the clocks stop. */
static void run_pass(const struct fs_index *idx, struct sq *s, char **ids, size_t nids,
		     struct pass *p)
{
	fs_cid *fc = calloc(nids ? nids : 1, sizeof(*fc));
	int64_t *sc = calloc(nids ? nids : 1, sizeof(*sc));
	int *frc = calloc(nids ? nids : 1, sizeof(*frc));
	size_t *fn = calloc(nids ? nids : 1, sizeof(*fn));
	size_t *sn = calloc(nids ? nids : 1, sizeof(*sn));
	struct fs_index_ref *fbuf = malloc(MAX_FIXERS * sizeof(*fbuf));
	struct ref *fr = malloc(MAX_FIXERS * sizeof(*fr));
	struct ref *sr = malloc(MAX_FIXERS * sizeof(*sr));
	struct fs_error err = FS_ERROR_INIT;
	char prefix[13];
	int64_t two[2];
	double t0;
	size_t i, j, k;

	if (!fc || !sc || !frc || !fn || !sn || !fbuf || !fr || !sr)
		die("out of memory");
	memset(p, 0, sizeof(*p));

	t0 = now();
	for (i = 0; i < nids; i++) {
		snprintf(prefix, sizeof(prefix), "%.12s", ids[i]);
		frc[i] = fs_index_resolve(idx, prefix, &fc[i], &err);
		fs_error_clear(&err);
	}
	p->resolve_fs = now() - t0;

	t0 = now();
	for (i = 0; i < nids; i++) {
		snprintf(prefix, sizeof(prefix), "%.12s", ids[i]);
		k = sq_range(s, prefix, two, 2, 2, NULL);
		sc[i] = k == 1 ? two[0] : -(int64_t)k - 1; /* -1: none, -3: ambiguous */
	}
	p->resolve_sq = now() - t0;

	for (i = 0; i < nids; i++)
		if ((frc[i] == 0) != (sc[i] >= 0) || (frc[i] == 0 && (int64_t)fc[i] != sc[i]))
			p->resolve_mismatch++;

	/* fixes-of: the fixscan side keeps only the count in the timed loop
	 * (the refs it fills are checked below, from a second call). */
	t0 = now();
	for (i = 0; i < nids; i++)
		fn[i] = frc[i] == 0 ? fs_index_refs_to(idx, fc[i], KINDS, fbuf, MAX_FIXERS) : 0;
	p->fixes_fs = now() - t0;

	t0 = now();
	for (i = 0; i < nids; i++)
		sn[i] = sc[i] >= 0 ? sq_fixes_of(s, sc[i], sr, 0) : 0;
	p->fixes_sq = now() - t0;

	/* Compare the answers themselves, not only their number. */
	for (i = 0; i < nids; i++) {
		bool same = fn[i] == sn[i];

		p->fixes_found += fn[i];
		if (same && fn[i] && fn[i] <= MAX_FIXERS) {
			size_t n = fs_index_refs_to(idx, fc[i], KINDS, fbuf, MAX_FIXERS);

			for (j = 0; j < n; j++) {
				fr[j].source = fbuf[j].source;
				fr[j].kind = fbuf[j].kind;
				memcpy(fr[j].hex, fbuf[j].hex, sizeof(fr[j].hex));
				fr[j].subject = NULL;
			}
			sq_fixes_of(s, sc[i], sr, MAX_FIXERS);
			qsort(fr, n, sizeof(*fr), ref_cmp);
			qsort(sr, n, sizeof(*sr), ref_cmp);
			for (j = 0; j < n; j++)
				if (ref_cmp(&fr[j], &sr[j]))
					same = false;
		}
		if (!same) {
			p->fixes_mismatch++;
			if (getenv("BENCH_SQLITE_VERBOSE"))
				fprintf(stderr, "fixes-of %s: fixscan %zu, sqlite %zu\n", ids[i],
					fn[i], sn[i]);
		}
	}
	free(fc);
	free(sc);
	free(frc);
	free(fn);
	free(sn);
	free(fbuf);
	free(fr);
	free(sr);
}

/* PRAGMA quick_check over the whole database: the nearest SQLite has to
 * the checksum fixscan's open verifies, though not the same guarantee (it
 * checks the b-tree structure, not that each stored byte is the one
 * written). */
static double quick_check(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	double t0 = now();
	const char *res;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die("cannot open '%s': %s", path, sqlite3_errmsg(db));
	st = prepare(db, "PRAGMA quick_check");
	if (sqlite3_step(st) != SQLITE_ROW)
		die("sqlite: quick_check: %s", sqlite3_errmsg(db));
	res = (const char *)sqlite3_column_text(st, 0);
	if (!res || strcmp(res, "ok"))
		die("sqlite: quick_check of '%s': %s", path, res ? res : "(null)");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return now() - t0;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static void print_pass(const char *what, size_t nids, const struct pass *p)
{
	printf("lookup %zu ids (%s): resolve sqlite %.4fs vs fixscan %.4fs (%.1fx);"
	       " fixes-of sqlite %.4fs vs fixscan %.4fs (%.1fx)\n", nids, what,
	       p->resolve_sq, p->resolve_fs, ratio(p->resolve_sq, p->resolve_fs),
	       p->fixes_sq, p->fixes_fs, ratio(p->fixes_sq, p->fixes_fs));
}

int main(int argc, char **argv)
{
	struct fs_index_opts opts = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx;
	struct data d = { NULL, 0, NULL, 0, 0 };
	struct store_times st;
	struct pass first, warm, p;
	struct sq s;
	const char *full_env = getenv("BENCH_FULL_SECONDS");
	double t0, t_read, t_open_fs, t_open_sq, t_check, full = full_env ? atof(full_env) : 0.0;
	char **ids;
	size_t nids, i;

	if (argc != 4) {
		fprintf(stderr, "usage: bench-sqlite-compare REPO IDS_FILE DBPATH\n");
		return 2;
	}
	opts.repo_path = argv[1];
	opts.no_update = true;
	ids = read_ids(argv[2], &nids);

	t0 = now();
	if (fs_index_open(&idx, &opts, NULL, &err) < 0)
		die("%s", err.message);
	t_open_fs = now() - t0;

	t0 = now();
	read_index(idx, &d);
	t_read = now() - t0;

	store(&d, argv[3], &st);

	t0 = now();
	sq_open(&s, argv[3]);
	t_open_sq = now() - t0;

	run_pass(idx, &s, ids, nids, &first);
	memset(&warm, 0, sizeof(warm));
	for (i = 0; i < WARM_PASSES; i++) {
		run_pass(idx, &s, ids, nids, &p);
		if (i == 0 || p.resolve_fs < warm.resolve_fs)
			warm.resolve_fs = p.resolve_fs;
		if (i == 0 || p.resolve_sq < warm.resolve_sq)
			warm.resolve_sq = p.resolve_sq;
		if (i == 0 || p.fixes_fs < warm.fixes_fs)
			warm.fixes_fs = p.fixes_fs;
		if (i == 0 || p.fixes_sq < warm.fixes_sq)
			warm.fixes_sq = p.fixes_sq;
	}

	t_check = quick_check(argv[3]);

	printf("sqlite %s: journal_mode=%s, synchronous=NORMAL, cache_size=64 MiB\n",
	       sqlite3_libversion(), journal_mode());
	printf("sqlite: read %zu commits + %zu refs through the fixscan API: %.2fs"
	       " (in neither figure below)\n", d.nc, d.nr, t_read);
	printf("sqlite: store %zu commits + %zu refs: %.2fs (insert %.2fs, indexes %.2fs,"
	       " commit %.2fs), db %.1f MB (fixscan cache %.1f MB)\n",
	       d.nc, d.nr, st.total, st.insert, st.index, st.commit, file_mb(argv[3]),
	       file_mb(fs_index_cache_path(idx)));
	if (full > 0)
		printf("sqlite: store alone %.2fs vs the whole fixscan build (git walk, parse,"
		       " write) %.2fs: %.2fx\n", st.total, full, ratio(st.total, full));
	printf("open: sqlite %.4fs (open + prepare) vs fixscan %.4fs (map + checksum);"
	       " sqlite PRAGMA quick_check %.2fs\n", t_open_sq, t_open_fs, t_check);
	printf("lookup ratios are sqlite's time over fixscan's (above 1: fixscan faster)\n");
	print_pass("first pass", nids, &first);
	print_pass("warm, best of " G_STRINGIFY(WARM_PASSES), nids, &warm);
	printf("answers: %zu resolve and %zu fixes-of mismatches of %zu ids (%zu fixes found)\n",
	       first.resolve_mismatch, first.fixes_mismatch, nids, first.fixes_found);

	sq_close(&s);
	fs_index_free(idx);
	free(d.c);
	free(d.r);
	g_strfreev(ids);
	return first.resolve_mismatch || first.fixes_mismatch ? 1 : 0;
}
