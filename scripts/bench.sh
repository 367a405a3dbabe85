#!/bin/sh
# make bench: fixscan against the baselines it replaces, on a generated
# repository of kernel size, each figure a ratio measured in this one run.
#
# usage: scripts/bench.sh FIXSCAN
#
# The repository (1.3 million mainline commits, 40,000 stable backports by
# default; BENCH_MAINLINE and BENCH_STABLE change that) is generated once
# into build/bench/repo and reused.
set -eu
fixscan=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
bench=$top/build/bench
repo=$bench/repo
mainline=${BENCH_MAINLINE:-1300000}
stable=${BENCH_STABLE:-40000}
export XDG_CACHE_HOME="$bench/cache" XDG_CONFIG_HOME="$bench/config"
export GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C

if [ ! -f "$repo/.bench-$mainline-$stable" ]; then
	echo "bench: generating $mainline + $stable commits into $repo (once)"
	rm -rf "$repo"
	python3 "$top/scripts/gen-kernel.py" scale "$repo" --mainline "$mainline" --stable "$stable"
	touch "$repo/.bench-$mainline-$stable"
fi

now() { date +%s.%N; }
# Wall time and peak RSS (KiB) of a command, as "SECONDS KIB".
measure() {
	/usr/bin/time -f '%e %M' -o "$bench/time.out" "$@" >/dev/null 2>"$bench/cmd.err" || {
		cat "$bench/cmd.err" >&2
		return 1
	}
	cat "$bench/time.out"
}
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print('%.3f' % (a / b if b else 0))" "$1" "$2"; }
calc() { python3 -c "print($1)"; }
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
echo "bench: repository with $ncommits commits"

set -- $(measure git -C "$repo" log --all --format='%H %s%n%b')
git_log=$1
rm -rf "$XDG_CACHE_HOME"
set -- $(measure "$fixscan" index --rebuild --no-progress --repo "$repo")
full=$1 full_rss=$2
cache_size=$(du -k "$XDG_CACHE_HOME"/fixscan/*.idx | cut -f1)
echo "full index build:     ${full}s vs git log --all ${git_log}s: $(ratio "$full" "$git_log")x (goal <= 1.0x)"
echo "peak RSS of the build: $((full_rss / 1024)) MB (goal < 400 MB); cache on disk: $((cache_size / 1024)) MB"

# Incremental: 1,000 new mainline commits, then the refs and the
# generator's state are put back, so that the repository stays as
# generated and the next run appends the same commits.
state=$repo/.git/gen-kernel-scale
for f in ids json kind; do cp "$state.$f" "$bench/state.$f"; done
git -C "$repo" for-each-ref --format='%(refname) %(objectname)' | sort >"$bench/refs.before"
master=$(git -C "$repo" rev-parse refs/heads/master)
python3 "$top/scripts/gen-kernel.py" scale --append 1000 "$repo" >/dev/null 2>&1
added=$(git -C "$repo" rev-list --count "$master..refs/heads/master")
set -- $(measure "$fixscan" index --no-progress --repo "$repo")
inc=$1
echo "incremental update:   ${inc}s for $added new commits vs full build: $(calc "round(100.0 * $inc / $full, 2)")% (goal < 1%)"
set -- $(measure "$fixscan" index --no-progress --repo "$repo")
echo "up-to-date check:     ${1}s (what every command pays before its work, the cache checksum included)"
git -C "$repo" for-each-ref --format='%(refname) %(objectname)' | sort >"$bench/refs.after"
# refs the append made go; refs it moved go back
cut -d' ' -f1 "$bench/refs.before" >"$bench/names.before"
cut -d' ' -f1 "$bench/refs.after" >"$bench/names.after"
{
	comm -13 "$bench/names.before" "$bench/names.after" | awk '{ print "delete " $1 }'
	comm -23 "$bench/refs.before" "$bench/refs.after" | awk '{ print "update " $1 " " $2 }'
} | git -C "$repo" update-ref --stdin
for f in ids json kind; do cp "$bench/state.$f" "$state.$f"; done
"$fixscan" index --no-progress --repo "$repo" >/dev/null 2>&1

# fixes-of for 500 commits against git log --grep for 5, extrapolated.
git -C "$repo" rev-list --first-parent refs/heads/master | awk 'NR % 2500 == 1' | head -n 500 >"$bench/ids"
set -- $(measure "$fixscan" show --no-update --repo "$repo" $(cat "$bench/ids"))
show=$1 show_rss=$2
grep500=$(grep_x100 "$bench/ids")
echo "fixes-of 500 commits: ${show}s vs git log --grep (5 timed, x100) ${grep500}s: $(calc "round($grep500 / max($show, 0.001))")x faster"
echo "peak RSS of a warm lookup: $((show_rss / 1024)) MB (goal < 100 MB)"

# review of a 500-patch thread, notmuch included.
mail=$bench/mail
rm -rf "$mail" && mkdir -p "$mail"
python3 "$top/scripts/bench-thread.py" "$repo" "$mail/review" 500 >"$bench/thread-ids"
printf '[database]\npath=%s\n[user]\nname=Bench\nprimary_email=bench@example.org\n' "$mail" >"$bench/notmuch-config"
export NOTMUCH_CONFIG="$bench/notmuch-config"
notmuch new --quiet
set -- $(measure sh -c "\"$fixscan\" review --no-update --repo \"$repo\" 'path:review/**'; test \$? -le 1")
review=$1
naive=$(grep_x100 "$bench/thread-ids")
echo "review of 500 patches: ${review}s (goal < 1s) vs git log --grep per upstream id (5 timed, x100) ${naive}s: $(calc "round($naive / max($review, 0.001))")x faster"

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
