#!/bin/sh
# make bench: fixscan against the baselines it replaces, on a generated
# repository of kernel size, each figure a ratio measured in this one run.
#
# usage: scripts/bench.sh FIXSCAN
#
# BENCH_BASE, when set, is another fixscan binary (e.g. one built before
# issue 31, whose goal is a review under 2x that one's): the 500-patch
# review is timed with it too, on the same thread and with its own index
# cache, and the ratio printed.
#
# The repository (1.3 million mainline commits, 40,000 stable backports and
# a tree of kernel shape, 60,000 C files of a few hundred MB, by default;
# BENCH_MAINLINE, BENCH_STABLE and BENCH_FILES change that, BENCH_DIR
# where) is generated once into build/bench/repo and reused.
set -eu
fixscan=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH_DIR:-$top/build/bench}
repo=$bench/repo
mainline=${BENCH_MAINLINE:-1300000}
stable=${BENCH_STABLE:-40000}
files=${BENCH_FILES:-60000}
export XDG_CACHE_HOME="$bench/cache" XDG_CONFIG_HOME="$bench/config"
# A git config of the benchmark's own: lore (fixscan.lore) off, so that
# no figure depends on the network; bench-lore.sh times it apart.
mkdir -p "$bench"
export GIT_CONFIG_GLOBAL="$bench/gitconfig" LC_ALL=C
git config --global fixscan.lore none

if [ ! -f "$repo/.bench-$mainline-$stable-$files" ]; then
	echo "bench: generating $mainline + $stable commits, $files files into $repo (once)"
	rm -rf "$repo"
	python3 "$top/scripts/gen-kernel.py" scale "$repo" --mainline "$mainline" --stable "$stable" \
		--files "$files"
	touch "$repo/.bench-$mainline-$stable-$files"
fi

# The clone layout: what `git clone` gives (pack-objects' order, commits
# first) with a commit-graph, as a user's kernel clone has.
clone=$bench/clone.git
if [ ! -f "$clone/.bench-$mainline-$stable-$files" ]; then
	echo "bench: cloning $repo into $clone (once)"
	rm -rf "$clone"
	git clone -q --no-local --bare "$repo" "$clone"
	git -C "$clone" commit-graph write --reachable
	touch "$clone/.bench-$mainline-$stable-$files"
fi

now() { date +%s.%N; }
# "WALL CPU KIB" of a command: wall seconds, user+system CPU seconds, peak
# RSS in KiB.
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$bench/time.out" "$@" >/dev/null 2>"$bench/cmd.err" || {
		cat "$bench/cmd.err" >&2
		return 1
	}
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$bench/time.out"
}
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print('%.3f' % (a / b if b else 0))" "$1" "$2"; }
calc() { python3 -c "print($1)"; }
median() { python3 -c "import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
mb() { echo $(($1 / 1024)); }
# Seconds git log --all --grep takes for the first 5 ids of FILE (each as
# a 12-digit Fixes:-style abbreviation), times 100: the naive way, for 500.
grep_x100() {
	t0=$(now)
	for id in $(head -n 5 "$1"); do
		git -C "$repo" log --all --format=%H --grep="$(echo "$id" | cut -c1-12)" >/dev/null
	done
	t1=$(now)
	calc "($t1 - $t0) * 100"
}

ncommits=$(git -C "$repo" rev-list --all --count)
echo "bench: repository with $ncommits commits; each figure is a ratio to a baseline run beside it"

# Full build against git log, on both layouts: alternating pairs (the
# machine's load moves both alike), the median ratio of BENCH_PAIRS.
pairs=${BENCH_PAIRS:-3}
for layout in fast-import clone; do
	r=$repo
	if [ "$layout" = clone ]; then r=$clone; fi
	ratios="" gits="" fulls="" gcpu="" fcpu="" rss=0
	i=0
	while [ "$i" -lt "$pairs" ]; do
		set -- $(measure git -C "$r" log --all --format='%H %s%n%b')
		gits="$gits $1" gcpu="$gcpu $2"
		g=$1
		rm -rf "$XDG_CACHE_HOME"
		set -- $(measure "$fixscan" index --rebuild --no-progress --repo "$r")
		fulls="$fulls $1" fcpu="$fcpu $2"
		if [ "$3" -gt "$rss" ]; then rss=$3; fi
		ratios="$ratios $(ratio "$1" "$g")"
		i=$((i + 1))
	done
	echo "full build ($layout):  $(median $fulls)s vs git log --all $(median $gits)s:" \
		"$(median $ratios)x (median of $pairs pairs:$ratios; goal <= 0.6x)"
	echo "  CPU: fixscan $(median $fcpu) s, git log $(median $gcpu) s;" \
		"peak RSS of the build: $(mb "$rss") MB (goal < 300 MB)"
	if [ "$layout" = fast-import ]; then
		full=$(median $fulls) gitlog=$(median $gits) gitlog_cpu=$(median $gcpu)
	else
		full_clone=$(median $fulls) gitlog_clone=$(median $gits) gitlog_cpu_clone=$(median $gcpu)
	fi
done
# the caches of both layouts, for what follows
rm -rf "$XDG_CACHE_HOME"
measure "$fixscan" index --rebuild --no-progress --repo "$repo" >/dev/null
measure "$fixscan" index --rebuild --no-progress --repo "$clone" >/dev/null
cache_size=$(du -k "$XDG_CACHE_HOME"/fixscan/*repo*.idx | cut -f1)
echo "cache on disk: $((cache_size / 1024)) MB"

# Incremental: 1,000 new mainline commits (generated into the fast-import
# repository, fetched into the clone as a user's fetch would bring them),
# then the refs and the generator's state are put back, so that both
# stay as generated and the next run appends the same commits.
state=$repo/.git/gen-kernel-scale
for f in ids json kind; do cp "$state.$f" "$bench/state.$f"; done
for r in "$repo" "$clone"; do
	git -C "$r" for-each-ref --format='%(refname) %(objectname)' | sort >"$r.refs.before"
done
master=$(git -C "$repo" rev-parse refs/heads/master)
python3 "$top/scripts/gen-kernel.py" scale --append 1000 "$repo" >/dev/null 2>&1
git -C "$clone" fetch -q "$repo" '+refs/heads/*:refs/heads/*' '+refs/tags/*:refs/tags/*'
added=$(git -C "$repo" rev-list --count "$master..refs/heads/master")
for layout in fast-import clone; do
	r=$repo f=$full
	if [ "$layout" = clone ]; then r=$clone f=$full_clone; fi
	set -- $(measure "$fixscan" index --no-progress --repo "$r")
	echo "incremental update ($layout): ${1}s, $2 CPU s for $added new commits vs full build: $(calc "round(100.0 * $1 / $f, 2)")% (goal < 1%)"
	noops=""
	for i in 1 2 3 4 5; do
		set -- $(measure "$fixscan" index --no-progress --repo "$r")
		noops="$noops $1"
	done
	echo "no-op update ($layout):  $(median $noops)s (median of 5:$noops; goal < 0.05s; what every command pays before its work)"
done
# refs the append made go; refs it moved go back
for r in "$repo" "$clone"; do
	git -C "$r" for-each-ref --format='%(refname) %(objectname)' | sort >"$r.refs.after"
	cut -d' ' -f1 "$r.refs.before" >"$bench/names.before"
	cut -d' ' -f1 "$r.refs.after" >"$bench/names.after"
	{
		comm -13 "$bench/names.before" "$bench/names.after" | awk '{ print "delete " $1 }'
		comm -23 "$r.refs.before" "$r.refs.after" | awk '{ print "update " $1 " " $2 }'
	} | git -C "$r" update-ref --stdin
	rm -f "$r.refs.before" "$r.refs.after"
	"$fixscan" index --no-progress --repo "$r" >/dev/null 2>&1
done
for f in ids json kind; do cp "$bench/state.$f" "$state.$f"; done

# fixes-of for 500 commits against git log --grep for 5, extrapolated.
git -C "$repo" rev-list --first-parent refs/heads/master | awk 'NR % 2500 == 1' | head -n 500 >"$bench/ids"
set -- $(measure "$fixscan" show --no-update --repo "$repo" $(cat "$bench/ids"))
show=$1 show_rss=$3
grep500=$(grep_x100 "$bench/ids")
echo "fixes-of 500 commits: ${show}s vs git log --grep (5 timed, x100) ${grep500}s: $(calc "round($grep500 / max($show, 0.001))")x faster"
echo "peak RSS of a warm lookup: $((show_rss / 1024)) MB (goal < 100 MB)"

# review of a 500- and a 5,000-patch thread, notmuch included; each in
# its own store, the same size apart as the threads.  Each patch carries
# its upstream commit's diff, as real backports do, so the review compares
# the two (backport-differs); every 10th has one line changed.  In a tree
# of kernel shape every 25th also calls a helper mainline added after the
# branches forked: every other of those backports a commit made after the
# helper (symbol-missing, its commit found in mainline's history).
late=
if [ "$files" -gt 0 ]; then late="--late-every 25"; fi
for n in 500 5000; do
	mail=$bench/mail$n
	rm -rf "$mail" && mkdir -p "$mail"
	python3 "$top/scripts/bench-thread.py" --diffs --differ-every 10 $late "$repo" "$mail/review" \
		"$n" >"$bench/thread-ids$n"
	printf '[database]\npath=%s\n[user]\nname=Bench\nprimary_email=bench@example.org\n' "$mail" \
		>"$bench/notmuch-config$n"
	NOTMUCH_CONFIG="$bench/notmuch-config$n" notmuch new --quiet
done
# The stores hold the threads alone: no mail outside a thread has words
# of regression, so the report search is one notmuch count and no query
# per upstream commit (lib/review/mentions.c); a store full of such mail adds
# the reading of them, or one query per commit when they are many.
export NOTMUCH_CONFIG="$bench/notmuch-config500"
# The first review of a branch reads the identifiers of its tree and of
# mainline's (every C blob of each, or of one and the tree diff to the
# other) and keeps them in the cache: against one git log --all pass of
# the same layout.  Then the warm review; both on both layouts (each
# repository keeps its own sets).  The clone first, so that the sets of
# the fast-import repository are there for what follows.
for layout in clone fast-import; do
	r=$repo gl=$gitlog glc=$gitlog_cpu
	if [ "$layout" = clone ]; then r=$clone gl=$gitlog_clone glc=$gitlog_cpu_clone; fi
	rm -f "$XDG_CACHE_HOME"/fixscan/idset-*
	set -- $(measure sh -c "\"$fixscan\" review --no-update --repo \"$r\" 'path:review/**'; test \$? -le 1")
	echo "first review of a branch ($layout, no tree read yet): ${1}s, $2 CPU s vs git log --all ${gl}s, $glc CPU s:" \
		"$(ratio "$1" "$gl")x (CPU $(ratio "$2" "$glc")x; goal <= 1x); peak RSS $(mb "$3") MB (goal < 300 MB)"
	set -- $(measure sh -c "\"$fixscan\" review --no-update --repo \"$r\" 'path:review/**'; test \$? -le 1")
	echo "review of 500 patches ($layout): ${1}s, $2 CPU s (goal < 1s); peak RSS $(mb "$3") MB"
	if [ "$layout" = fast-import ]; then review=$1 review_cpu=$2 review_rss=$3; fi
	if [ -n "${BENCH_BASE:-}" ]; then
		# five reviews a measure (one takes a tenth of a second), pairs
		# alternating; each binary with its own index cache
		reviews5() {
			measure env XDG_CACHE_HOME="$2" sh -c "for i in 1 2 3 4 5; do
				\"$1\" review --no-update --repo \"$r\" 'path:review/**'; test \$? -le 1 || exit 1
			done"
		}
		env XDG_CACHE_HOME="$bench/cache-base" "$BENCH_BASE" index --no-progress --repo "$r" >/dev/null 2>&1
		base_reviews="" ratios="" base_rss=0
		for i in 1 2 3 4 5; do
			set -- $(reviews5 "$fixscan" "$XDG_CACHE_HOME")
			rv=$1
			set -- $(reviews5 "$BENCH_BASE" "$bench/cache-base")
			base_reviews="$base_reviews $(calc "$1 / 5")" ratios="$ratios $(ratio "$rv" "$1")"
			if [ "$3" -gt "$base_rss" ]; then base_rss=$3; fi
		done
		echo "  vs BENCH_BASE ($BENCH_BASE, $layout): $(median $base_reviews)s a review: $(median $ratios)x" \
			"(median of 5 pairs of 5 reviews each:$ratios; goal <= 1.5x the review before issue 39," \
			"< 2x the one before issue 31); its peak RSS $(mb "$base_rss") MB"
	fi
done
naive=$(grep_x100 "$bench/thread-ids500")
echo "review of 500 patches: ${review}s, ${review_cpu} CPU s (goal < 1s) vs git log --grep per upstream id (5 timed, x100) ${naive}s: $(calc "round($naive / max($review, 0.001))")x faster"
# The same review with lore (fixscan.lore) on a local public-inbox:
# requests sent, and the cost of a warm cache over --no-lore.
sh "$top/scripts/bench-lore.sh" "$fixscan" "$bench" || echo "bench: the lore part failed" >&2
export NOTMUCH_CONFIG="$bench/notmuch-config5000"
set -- $(measure sh -c "\"$fixscan\" review --no-update --repo \"$repo\" 'path:review/**'; test \$? -le 1")
echo "review of 5000 patches: ${1}s, $2 CPU s: $(ratio "$1" "$review")x the 500-patch time (CPU $(ratio "$2" "$review_cpu")x; goal < 10x)"
echo "  peak RSS of review: $(mb "$review_rss") MB for 500, $(mb "$3") MB for 5000 (goal < 200 MB)"
patch=$(grep -l '^Subject: .*PATCH.* 2500/' "$bench/mail5000/review/cur/"* | head -n 1)
set -- $(measure sh -c "\"$fixscan\" check --thread --no-update --repo \"$repo\" '$patch'; test \$? -le 1")
echo "check --thread of one of the 5000: ${1}s, peak RSS $(mb "$3") MB (goal < 200 MB)"
set -- $(measure sh -c "\"$fixscan\" digest --since 2000-01-01 --no-update --repo \"$repo\"; test \$? -le 1")
echo "digest of the 5000-patch thread: ${1}s, peak RSS $(mb "$3") MB (goal < 200 MB)"

if "$fixscan" stats --help >/dev/null 2>&1; then
	branch=$(git -C "$repo" for-each-ref --format='%(refname:short)' 'refs/heads/linux-*.y' | head -n 1)
	set -- $(measure "$fixscan" stats --no-update --repo "$repo" "$branch")
	echo "stats of $branch: ${1}s (goal well under 1s)"
fi

# The same data in SQLite (the store issue 4 weighs against fixscan's own
# format): write time against the full build above, size, and lookups of
# the same ids from both.  make bench builds the program; without it this
# section is skipped.
compare=$top/build/bench-sqlite-compare
if [ -x "$compare" ]; then
	BENCH_FULL_SECONDS=$full "$compare" "$repo" "$bench/ids" "$bench/sqlite.db" ||
		echo "bench: the SQLite comparison failed" >&2
	rm -f "$bench/sqlite.db" "$bench/sqlite.db-wal" "$bench/sqlite.db-shm"
fi
