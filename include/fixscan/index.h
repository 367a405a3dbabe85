/* fixscan: the fixes index of a kernel git repository.
 *
 * For every commit reachable from the mainline ref, the stable refs and the
 * release tags it records the id, subject, branch (mainline or the stable
 * branch it was committed to), the first release tag that contains it, and
 * the commit references of its changelog (upstream ids, Fixes:, reverts,
 * Stable-dep-of, Cc: stable prerequisites).  Lookups answer "which commits
 * fix or revert this one", "where was it backported", "which mainline
 * commit is this stable commit".
 *
 * The index lives in one versioned, checksummed file under
 * $XDG_CACHE_HOME/fixscan/, keyed by the repository path, written to a
 * temporary file and renamed into place; updates read only the commits
 * that are not indexed yet.  The repository is never written to.
 *
 * Commits are named by fs_cid, a number valid for the life of one
 * struct fs_index (not across updates), from 0 to fs_index_count() - 1.
 * Their order is not that of the ids; lists this interface returns are
 * in id order where their order matters.
 */
#ifndef FIXSCAN_INDEX_H
#define FIXSCAN_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixscan/error.h"

typedef uint32_t fs_cid;
#define FS_CID_NONE ((fs_cid)UINT32_MAX)

/* Kinds of commit reference a changelog carries. */
enum fs_ref_kind {
	FS_REF_UPSTREAM = 1,        /* "commit X upstream.", cherry-picked-from */
	FS_REF_FIXES = 2,           /* Fixes: X */
	FS_REF_REVERTS = 3,         /* This reverts commit X */
	FS_REF_REVERTS_UPSTREAM = 4,/* ... which was commit X upstream */
	FS_REF_STABLE_DEP_OF = 5,   /* Stable-dep-of: X */
	FS_REF_PREREQUISITE = 6,    /* Cc: stable # 4.4.x: X: prerequisite */
};

/* How a reference was matched to a commit. */
enum fs_evidence {
	FS_EVIDENCE_EXACT = 1,   /* all 40 hex digits */
	FS_EVIDENCE_PREFIX = 2,  /* an abbreviation that names one commit */
	FS_EVIDENCE_SUBJECT = 3, /* the id was wrong or ambiguous; the quoted subject decided */
	FS_EVIDENCE_STABLE = 4,  /* the id named a stable backport of the commit */
};

const char *fs_ref_kind_name(enum fs_ref_kind kind);
const char *fs_evidence_name(enum fs_evidence ev);

typedef void (*fs_index_progress_fn)(size_t done, size_t total, void *data);

struct fs_index_opts {
	const char *repo_path;  /* the kernel repository; required */
	const char *cache_path; /* NULL: the default under $XDG_CACHE_HOME */
	bool rebuild;           /* ignore the cache, index everything */
	bool no_update;         /* use the cache as it is, even if refs moved */
	int threads;            /* 0: one per core, at most 8 */
	fs_index_progress_fn progress; /* called now and then while reading */
	void *progress_data;
	/* The mainline ref, a full name or one git would expand
	 * ("origin/master"); it must exist.  NULL: the first of
	 * refs/remotes/origin/master, refs/heads/master, refs/heads/main.
	 * The library reads no config: callers pass fixscan.mainline here
	 * (fs_config_index_refs()), and errors name that key. */
	const char *mainline;
	/* Globs of the stable branch refs ("refs/heads/linux-*.y"); none
	 * (NSTABLE_GLOBS 0): the linux-*.y branches of every remote and the
	 * local ones.  Callers pass fixscan.stable here. */
	const char *const *stable_globs;
	size_t nstable_globs;
	/* Globs of the pending refs ("refs/remotes/next/master", or globs of several): commits on
	 * their way to mainline (linux-next, a maintainer's -fixes tree).
	 * Their commits that mainline does not reach are kept apart from
	 * the rest (fs_index_pending_fixes()); none: no pending commits.
	 * Callers pass fixscan.pending here. */
	const char *const *pending_globs;
	size_t npending_globs;
};
#define FS_INDEX_OPTS_INIT { .repo_path = NULL }

/* What the last open or update did, for the one-line summary. */
struct fs_index_stats {
	size_t commits;     /* commits in the index */
	size_t new_commits; /* commits read from git by this open */
	double seconds;     /* time spent updating */
	bool rebuilt;       /* a full rebuild happened */
	size_t pending;     /* pending commits in the index */
	size_t pending_read; /* of them, read from git by this open (the
			      * others were the previous index's) */
	char note[512];     /* why a rebuild happened, or a shallow-clone
			     * warning; "" when nothing to say */
};

struct fs_index;

/* Open the index of OPTS->repo_path, building or updating the cache file
 * as needed.  While updating it holds an exclusive lock on
 * "<cache>.lock", so a second process waits and then finds the work done.
 * A corrupt, truncated, foreign-version or empty cache file is rebuilt (and
 * said so in stats->note).  STATS may be NULL.
 * Returns 0 or FS_ENOTFOUND (no repo, no mainline ref), FS_EGIT, FS_EIO,
 * FS_ENOMEM with ERR set.  Free with fs_index_free(). */
int fs_index_open(struct fs_index **out, const struct fs_index_opts *opts,
		  struct fs_index_stats *stats, struct fs_error *err);
void fs_index_free(struct fs_index *idx);

/* Give back the resident pages of the cache file that lookups have
 * touched (they stay mapped and come back from the page cache when read
 * again).  A long run of lookups calls it now and then so that its memory
 * stays what a few lookups touch, not most of the file. */
void fs_index_trim(const struct fs_index *idx);

/* The cache file in use (borrowed). */
const char *fs_index_cache_path(const struct fs_index *idx);
size_t fs_index_count(const struct fs_index *idx);

/* Resolve HEX (4..40 hex digits, case-insensitive) to a commit.  Returns 0
 * with *OUT set, FS_ENOTFOUND, or FS_EAMBIGUOUS (ERR lists candidates). */
int fs_index_resolve(const struct fs_index *idx, const char *hex, fs_cid *out,
		     struct fs_error *err);
/* Every commit whose id starts with HEX, up to MAX stored in OUT; returns
 * how many there are in all (may exceed MAX). */
size_t fs_index_resolve_all(const struct fs_index *idx, const char *hex,
			    fs_cid *out, size_t max);

/* Facts about one commit.  Strings are borrowed, valid until
 * fs_index_free(). */
void fs_index_commit_hex(const struct fs_index *idx, fs_cid c, char hex[41]);
const char *fs_index_commit_subject(const struct fs_index *idx, fs_cid c);
/* "mainline" or the stable branch name ("linux-4.4.y"). */
const char *fs_index_commit_branch(const struct fs_index *idx, fs_cid c);
bool fs_index_commit_is_mainline(const struct fs_index *idx, fs_cid c);
/* The first release tag that contains C ("v4.7-rc3", "v4.4.7"), or NULL
 * when no release contains it yet. */
const char *fs_index_commit_release(const struct fs_index *idx, fs_cid c);

/* One changelog reference of a commit, as written. */
struct fs_index_ref {
	enum fs_ref_kind kind;
	char hex[41];        /* as written, lower case, 7..40 digits */
	const char *subject; /* quoted subject, or NULL; borrowed */
	fs_cid source;       /* the commit whose changelog says it */
};

/* The references C's own changelog carries, in text order.  Returns their
 * number; stores up to MAX in OUT. */
size_t fs_index_commit_refs(const struct fs_index *idx, fs_cid c,
			    struct fs_index_ref *out, size_t max);

/* Resolve one reference to the commit it names: by id (exact or unique
 * prefix), falling back to the quoted subject when the id is unknown,
 * ambiguous, or names a commit whose subject differs from the quote.
 * Returns FS_CID_NONE when nothing matches; *EV says how it matched and
 * *MISMATCH is set when the id and the subject disagree.  EV/MISMATCH may
 * be NULL. */
fs_cid fs_index_ref_target(const struct fs_index *idx,
			   const struct fs_index_ref *ref,
			   enum fs_evidence *ev, bool *mismatch);

/* Commits whose changelog names C (by its id or an abbreviation of it)
 * with a reference of a kind in KINDS (a bit mask of 1 << fs_ref_kind).
 * Returns the number found; stores up to MAX in OUT. */
size_t fs_index_refs_to(const struct fs_index *idx, fs_cid c, unsigned kinds,
			struct fs_index_ref *out, size_t max);
#define FS_REF_BIT(k) (1u << (k))

/* One step of a fix chain: FIXER fixes or reverts FIXED. */
struct fs_index_fix {
	fs_cid fixer;
	fs_cid fixed;          /* the commit of the previous step (or the root) */
	unsigned depth;        /* 1 for a direct fix of the root */
	bool revert;           /* a revert rather than a Fixes: tag */
	enum fs_evidence evidence;
};

/* Every commit that fixes or reverts ROOT, directly or through one of its
 * backports' stable ids, and transitively (fixes of those fixes), each
 * commit once, breadth first, cycle-safe.  *OUT is a new array the caller
 * frees with g_free(); returns its length or FS_ENOMEM. */
int fs_index_fixes_of(const struct fs_index *idx, fs_cid root,
		      struct fs_index_fix **out);

/* Stable commits whose upstream line names C, up to MAX in OUT; returns
 * how many there are. */
size_t fs_index_backports(const struct fs_index *idx, fs_cid c, fs_cid *out,
			  size_t max);

/* The mainline commit a stable commit C is a backport of (its first
 * upstream id that resolves), or FS_CID_NONE. */
fs_cid fs_index_upstream_of(const struct fs_index *idx, fs_cid c);

/* Commits whose normalised subject equals SUBJECT's, mainline first;
 * returns how many there are, stores up to MAX. */
size_t fs_index_find_subject(const struct fs_index *idx, const char *subject,
			     fs_cid *out, size_t max);

/* Whether C is part of stable branch BRANCH ("linux-4.4.y") as of release
 * BASE ("v4.4.7"; NULL: the branch tip): a mainline commit released at or
 * before the branch's fork, or a commit of that branch released at or
 * before BASE. */
bool fs_index_in_branch(const struct fs_index *idx, fs_cid c,
			const char *branch, const char *base);
/* Whether C is a merge (more than one parent).  A merge's changelog gives
 * the index no references: it is never a fix, a revert, a backport or a
 * prerequisite, whatever its message quotes. */
bool fs_index_commit_is_merge(const struct fs_index *idx, fs_cid c);

/* Whether C's author has the address in AUTHOR ("Name <addr>" or the bare
 * address, case-insensitive).  The index keeps a 16-bit hash of it, not
 * the address: a check for commits that match on subject already. */
bool fs_index_commit_author_is(const struct fs_index *idx, fs_cid c, const char *author);

/* Mainline commits whose subject is SUBJECT and whose author is AUTHOR:
 * those of the exact subject when there are any, else those of the same
 * normalised subject (fs_trailers_normalize_subject()).  For an id that names
 * no commit: the rest of the evidence.  Returns how many, stores up to
 * MAX in id order. */
size_t fs_index_find_subject_author(const struct fs_index *idx, const char *subject,
				    const char *author, fs_cid *out, size_t max);

/* The other mainline commits that are the same change as C: the same
 * subject and author, first released in the same merge window (the same
 * vX.Y-rcN cycle), no merges, and where the clone has their trees the
 * same patch-id (read from the repository for these few candidates
 * only, once each per index).  Found through the subject table, a
 * handful at most.  Returns how many, stores up to MAX in id order. */
size_t fs_index_equivalents(const struct fs_index *idx, fs_cid c, fs_cid *out, size_t max);

/* Whether the diff in mail body BODY (LEN bytes: from its first "diff
 * --git" line to a "-- " signature) is C's, by patch-id (git patch-id
 * --stable): 1 the same, 0 not, -1 when it cannot be told (no diff in
 * BODY, no trees of C in the clone, a diff libgit2 cannot read). */
int fs_index_diff_matches(const struct fs_index *idx, fs_cid c, const char *body, size_t len);

/* One commit of a posting (fixscan/posting.h): the mail number it was
 * applied from. */
struct fs_index_series_part {
	fs_cid commit;
	unsigned part;
};

/* The other mainline commits applied from the posting mainline commit C
 * was applied from (the Link table: the Link: trailers of mainline
 * commits that name a numbered posting, fixscan/posting.h): those whose
 * part is not C's, in part order, then by id.  Part 0 is b4's cover:
 * commits that link it are each another part, unless of C's subject.  *PART gets C's part, 0
 * when C names no numbered posting (or is no mainline commit; then none
 * are found).  Returns how many, stores up to MAX. */
size_t fs_index_series_of(const struct fs_index *idx, fs_cid c, unsigned *part,
			  struct fs_index_series_part *out, size_t max);

/* Whether a commit is in a branch, net of reverts: the one answer to
 * "is C in B?" for every caller. */
struct fs_index_presence {
	bool present;
	/* The commit that brought C (C itself by ancestry, a backport, the
	 * backport of an equivalent commit), or FS_CID_NONE when nothing did. */
	fs_cid brought;
	/* When BROUGHT was undone: the revert in the branch that undid it
	 * (the last of an odd chain), else FS_CID_NONE. */
	fs_cid reverted_by;
};

/* Is C (a mainline commit or a stable one; a stable one stands for its
 * upstream) in BRANCH as of BASE (NULL: the tip)?  BRANCH NULL asks about
 * mainline.  C is there when it, a backport of it or of an equivalent
 * commit (fs_index_equivalents()) is there by fs_index_in_branch(), and
 * no revert there undid that (a revert undone by a revert of the revert
 * does not count: an even chain restores it).  Fills *P (may be NULL);
 * returns P->present. */
bool fs_index_present(const struct fs_index *idx, fs_cid c, const char *branch,
		      const char *base, struct fs_index_presence *p);

/* A commit of a pending ref that fixes or reverts a commit. */
struct fs_index_pending {
	char hex[41];
	const char *subject; /* borrowed, valid until fs_index_free() */
	const char *ref;     /* the first pending ref (by name) that reaches
			      * it, full name; borrowed */
	bool revert;         /* "This reverts commit", not a Fixes: tag */
};

/* The commits of the pending refs (fs_index_opts.pending_globs) that
 * mainline does not reach and that fix C (a Fixes: id of 7 hex digits or
 * more that resolves to C, or to a stable backport of C) or revert it.
 * A pending commit mainline has under its subject is left out: it has
 * reached mainline (rebased or applied again), and mainline's commit is
 * what counts.  Each commit once, in id order.  Returns how many, stores
 * up to MAX in OUT. */
size_t fs_index_pending_fixes(const struct fs_index *idx, fs_cid c,
			      struct fs_index_pending *out, size_t max);
/* How many pending commits the index holds. */
size_t fs_index_pending_count(const struct fs_index *idx);

/* Whether the index knows stable branch BRANCH. */
bool fs_index_has_branch(const struct fs_index *idx, const char *branch);
/* The release a branch forked from ("v4.4" for linux-4.4.y), or NULL. */
const char *fs_index_branch_fork(const struct fs_index *idx, const char *branch);

/* Whether the index knows the release tag NAME ("v4.4.7"). */
bool fs_index_has_release(const struct fs_index *idx, const char *name);

/* The id of the mainline ref's commit when the index was built or last
 * updated.  Returns 0, or FS_ENOTFOUND when the index has none. */
int fs_index_mainline_tip(const struct fs_index *idx, char hex[41]);

/* The committer time of the mainline tip (fs_index_mainline_tip()), read
 * from the repository at REPO_PATH, in seconds since the epoch.  The cache
 * does not keep dates; this is one read of one commit.  Returns 0, or
 * FS_ENOTFOUND / FS_EGIT with ERR set. */
int fs_index_mainline_time(const struct fs_index *idx, const char *repo_path,
			   int64_t *when, struct fs_error *err);

/* The commit message of HEX (a full id) in the repository at REPO_PATH
 * (a const char *, passed as void * so that this fits
 * fs_findings_ctx.message): *OUT is a new string the caller frees with
 * g_free().  Returns 0, or FS_ENOTFOUND / FS_EGIT / FS_ENOMEM. */
int fs_index_read_message(void *repo_path, const char *hex, char **out);

#endif
