#!/bin/sh
# The kernel repository as a reviewer's machine has it (issue 41):
#  - damaged: a pack deleted or cut short, a loose commit that does not
#    inflate, a ref naming a commit that is not there: one line naming
#    the object and the repository, exit 2, the old index kept and still
#    answering; repaired, the next run catches up;
#  - a shallow clone (the index says it holds only the commits there), a
#    partial clone (the review says once that it cannot compare diffs);
#  - refs moving under the build: git fetch from a second repository
#    while fixscan index runs, looped with seeded delays: the index holds
#    exactly what a clean build of the tips it recorded holds (one set of
#    tips, each the ref's value before or after the fetch, never a mix of
#    two readings), and the next run catches up with the fetch.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

DUMP=${FIXSCAN_INDEX_DUMP:-$SRC/build/bench-index-dump}
[ -x "$DUMP" ] || { echo "# no '$DUMP' (make units builds it)"; exit 1; }
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A \
	GIT_COMMITTER_EMAIL=a@example.org GIT_AUTHOR_DATE="1700000000 +0000" \
	GIT_COMMITTER_DATE="1700000000 +0000"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
git -C kernel config uploadpack.allowFilter true
PACK=$(cd kernel && ls .git/objects/pack/*.pack)

# cache_of REPO: the cache file of REPO (the only one in its cache folder).
cache_of() {
	ls "$XDG_CACHE_HOME/$1/fixscan/"*.idx
}
# index_in REPO [ARGS...]: fixscan index of REPO with a cache of its own.
index_in() {
	r=$1
	shift
	XDG_CACHE_HOME="$XDG_CACHE_HOME/$r" "$FIXSCAN" index --repo "$r" "$@"
}
# dump REPO: what the cache of REPO holds, as bench/index-dump prints it.
dump() {
	"$DUMP" "$(cache_of "$1")"
}

# ---- damaged repositories ------------------------------------------------------

# damaged NAME WHAT: a copy of the sample as DAMAGE_NAME with its index,
# then two commits more on master (loose objects), then WHAT done to it.
damaged() {
	rm -rf "$1" "$XDG_CACHE_HOME/$1" && cp -a kernel "$1" &&
	index_in "$1" >/dev/null 2>&1 &&
	c1=$(git -C "$1" commit-tree -p master -m "one more" "master^{tree}") &&
	c2=$(git -C "$1" commit-tree -p "$c1" -m "two more" "master^{tree}") &&
	git -C "$1" update-ref refs/heads/master "$c2" &&
	cp "$(cache_of "$1")" "$1.idx.before" &&
	(cd "$1" && eval "$2")
}
# loose ID: the file of the loose object ID in the repository of the cwd.
loose() {
	echo ".git/objects/$(echo "$1" | cut -c1-2)/$(echo "$1" | cut -c3-)"
}
# after_damage REPO PATTERN: exit 2 (in $rc), one line matching PATTERN,
# the cache as it was, nothing else in the cache folder, and the old
# index still answering.
after_damage() {
	test "$rc" -eq 2 && test "$(grep -c . err)" -eq 1 && grep -q "$2" err ||
		{ echo "rc $rc:"; cat err; return 1; }
	cmp "$1.idx.before" "$(cache_of "$1")" &&
	ls "$XDG_CACHE_HOME/$1/fixscan" | { ! grep -v '\.idx\(\.lock\|\.verified\|\.refs\)\?$'; } &&
	XDG_CACHE_HOME="$XDG_CACHE_HOME/$1" "$FIXSCAN" show --repo "$1" --no-update \
		"$(git -C kernel rev-parse master)" >show.out 2>&1 &&
	grep -q "^  branch: *mainline" show.out
}
# repaired REPO: the damage undone (the sample's objects back), the next
# run catches up: the same index as a clean build.
repaired() {
	cp -a kernel/.git/objects/pack/. "$1/.git/objects/pack/" &&
	FIXSCAN_TEST_DELTA=never index_in "$1" >/dev/null 2>err2 && ! grep . err2 &&
	dump "$1" >dump.next &&
	rm -rf "$XDG_CACHE_HOME/$1" && index_in "$1" --rebuild >/dev/null 2>&1 &&
	dump "$1" | cmp - dump.next
}

test_expect_success 'the pack deleted: the first ref it held and the repository named, exit 2, the index kept' '
	damaged d1 "rm $PACK" &&
	index_in d1 --rebuild >/dev/null 2>err; rc=$?
	after_damage d1 "^fixscan: cannot read object $(git -C kernel rev-parse linux-4.4.y) (refs/heads/linux-4.4.y) in '"'"'d1'"'"': object not found" &&
	repaired d1
'
test_expect_success 'the pack cut short: the same' '
	damaged d2 "truncate -s \$((\$(stat -c %s $PACK) * 2 / 3)) $PACK" &&
	index_in d2 --rebuild >/dev/null 2>err; rc=$?
	after_damage d2 "^fixscan: cannot read object $(git -C kernel rev-parse linux-4.4.y) (refs/heads/linux-4.4.y) in '"'"'d2'"'"': object not found" &&
	rm -f d2/$PACK && repaired d2
'
# Every ref on a commit of a pack of its own, the pack of the rest gone:
# the tips read, their parent is missing.
only_new_pack() {
	for t in $(git tag); do git tag -d "$t" >/dev/null || return 1; done &&
	git update-ref -d refs/remotes/next/master &&
	git update-ref refs/heads/linux-4.4.y "$c2" && git update-ref refs/heads/linux-4.5.y "$c2" &&
	git tag v4.8 "$c2" && git repack -q && rm "$PACK"
}
test_expect_success 'a parent missing from a clone that is not shallow: named, exit 2, the index kept' '
	damaged d6 only_new_pack &&
	index_in d6 --rebuild >/dev/null 2>err; rc=$?
	after_damage d6 "^fixscan: cannot read commit $(git -C kernel rev-parse master) in '"'"'d6'"'"': it is missing, and '"'"'d6'"'"' is not a shallow clone\$"
'
test_expect_success 'a loose commit that does not inflate: named, exit 2, the index kept' '
	damaged d3 "f=\$(loose \$c1) && chmod u+w \$f && printf \"x\\234not zlib\" >\$f" &&
	c1=$(git -C d3 rev-parse master~1) &&
	index_in d3 >/dev/null 2>err; rc=$?
	after_damage d3 "^fixscan: cannot read commit $c1 in '"'"'d3'"'"': .*" &&
	git -C d3 update-ref refs/heads/master "$(git -C kernel rev-parse master)" && repaired d3
'
test_expect_success 'the tip cut short: the ref and the object named' '
	damaged d4 "f=\$(loose \$c2) && chmod u+w \$f && head -c 12 \$f >t && cat t >\$f" &&
	c2=$(git -C d4 rev-parse master) &&
	index_in d4 >/dev/null 2>err; rc=$?
	after_damage d4 "^fixscan: cannot read object $c2 (refs/heads/master) in '"'"'d4'"'"': " &&
	git -C d4 update-ref refs/heads/master "$(git -C kernel rev-parse master)" && repaired d4
'
test_expect_success 'a stable branch naming a commit that is not there: named, exit 2' '
	damaged d5 "echo 0123456789012345678901234567890123456789 >.git/refs/heads/linux-4.4.y" &&
	index_in d5 >/dev/null 2>err; rc=$?
	after_damage d5 "^fixscan: cannot read object 0123456789012345678901234567890123456789 (refs/heads/linux-4.4.y) in '"'"'d5'"'"': object not found" &&
	git -C d5 update-ref refs/heads/linux-4.4.y "$(git -C kernel rev-parse linux-4.4.y)" && repaired d5
'
test_expect_success 'a shallow clone: indexed, saying that only its commits are' '
	git clone -q --depth 8 --no-local "file://$TRASH/kernel" shallow &&
	git -C shallow fetch -q --depth 8 origin tag v4.5 tag v4.5-rc1 &&
	index_in shallow >out 2>err &&
	test "$(cat err)" = "fixscan: '"'"'shallow'"'"' is a shallow clone: only the commits it has are indexed" &&
	test "$(dump shallow | grep -c "^commit ")" -eq "$(git -C shallow rev-list --all | wc -l)" &&
	index_in shallow >out 2>err2 && ! grep . err2
'
test_expect_code 1 'a partial clone: the review says once it cannot compare the diffs, and goes on' '
	setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" >/dev/null &&
	git clone -q --filter=blob:none --no-local "file://$TRASH/kernel" partial 2>/dev/null &&
	"$FIXSCAN" review --repo partial "path:review-4.4/**" >partial.out 2>err
	rc=$?
	test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot compare backports with their upstream diffs: the kernel repository lacks objects of [0-9a-f]\{12\} (a clone made with --filter=blob:none?): .*; the rest of the review goes on\$" err &&
	grep -q "^03/27 " partial.out && exit $rc
'

# ---- refs moving under the build ------------------------------------------------

# upstream: the sample and 3000 commits more on master, 300 on
# linux-4.4.y, a new tag (v4.8-rc1); local: the sample, fetching from it.
python3 - kernel >stream <<'PY' || exit 1
import subprocess, sys
repo = sys.argv[1]
rev = lambda r: subprocess.check_output(["git", "-C", repo, "rev-parse", r], text=True).strip()
out = []
def commit(ref, i, frm, mark, subject):
    out.append("commit %s\nmark :%d\ncommitter A <a@example.org> %d +0000\n" % (ref, mark, 1800000000 + i))
    msg = subject + "\n"
    out.append("data %d\n%s" % (len(msg.encode()), msg))
    if frm:
        out.append("from %s\n" % frm)
    out.append("\n")
for i in range(3000):
    commit("refs/heads/master", i, rev("master") if i == 0 else None, i + 1, "extra: mainline change %d" % i)
for i in range(300):
    commit("refs/heads/linux-4.4.y", i, rev("linux-4.4.y") if i == 0 else None, 5000 + i,
           "extra: stable change %d" % i)
out.append("reset refs/tags/v4.8-rc1\nfrom :1500\n\n")
sys.stdout.write("".join(out))
PY
cp -a kernel upstream && git -C upstream fast-import --quiet <stream || exit 1
rm -rf local && cp -a kernel local || exit 1
# the refs, tags peeled to their commits (as the index's tips hold them)
refs_of() {
	git -C local for-each-ref \
		--format='%(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end) %(refname)' \
		refs/heads refs/tags
}
OLD=$(refs_of)
fetch() {
	git -C local fetch -q --update-head-ok "$TRASH/upstream" \
		"+refs/heads/*:refs/heads/*" "+refs/tags/*:refs/tags/*"
}
fetch && index_in local --rebuild >/dev/null 2>&1 || exit 1
NEW=$(refs_of)
dump local >new.dump
# back to the old refs: the objects stay, a fetch only moves refs again
unfetch() {
	git -C local for-each-ref --format='%(refname)' refs/heads refs/tags |
		while read -r ref; do git -C local update-ref -d "$ref"; done
	echo "$OLD" | while read -r oid ref; do git -C local update-ref "$ref" "$oid"; done
}
# How long a build takes, to spread the fetch over it.
unfetch
start=$(date +%s%N)
index_in local --rebuild >/dev/null 2>&1
took=$((($(date +%s%N) - start) / 1000000))
start=$(date +%s%N)
fetch
ftook=$((($(date +%s%N) - start) / 1000000))
echo "# a build takes $took ms, a fetch $ftook ms"

# snapshot_build DUMP: a repository whose refs are exactly the tips DUMP
# recorded, built clean; its dump in snap.dump.
snapshot_build() {
	rm -rf snap "$XDG_CACHE_HOME/snap" && cp -a local snap &&
	git -C snap for-each-ref --format='%(refname)' refs/heads refs/tags refs/remotes |
		while read -r ref; do git -C snap update-ref -d "$ref"; done &&
	grep "^tip " "$1" | while read -r _ ref _ oid; do git -C snap update-ref "$ref" "$oid" || exit 1; done &&
	git -C snap symbolic-ref HEAD refs/heads/master &&
	index_in snap --rebuild >/dev/null 2>&1 && dump snap >snap.dump
}

ROUNDS=${FIXSCAN_FETCH_ROUNDS:-8}
SEED=${FIXSCAN_FETCH_SEED:-933}
round=1
while [ "$round" -le "$ROUNDS" ]; do
	# the build starts at a seeded point of the fetch: before it moves
	# the refs, while it does, or after
	d=$(python3 -c "
import random
r = random.Random($SEED + $round)
print('%.3f' % (r.uniform(0.0, 1.1) * $ftook / 1000))")
	test_expect_success "round $round: fixscan index $d s into a git fetch: one set of tips, then the next run catches up" '
		unfetch &&
		{ fetch & } &&
		sleep "$d" && index_in local --rebuild >/dev/null 2>build.err; wait &&
		! grep . build.err &&
		dump local >round.dump &&
		grep "^tip " round.dump | while read -r _ ref _ oid; do
			printf "%s\n%s\n" "$OLD" "$NEW" | grep -qx "$oid $ref" || { echo "tip $ref $oid: neither before nor after"; exit 1; }
		done &&
		echo "$(grep "^tip " round.dump | while read -r _ ref _ oid; do
			echo "$NEW" | grep -qx "$oid $ref" && ! echo "$OLD" | grep -qx "$oid $ref" && echo x
			done | wc -l)" >>seen &&
		snapshot_build round.dump && cmp round.dump snap.dump &&
		FIXSCAN_TEST_DELTA=never index_in local >/dev/null 2>next.err && ! grep . next.err &&
		dump local >next.dump &&
		cmp next.dump new.dump
	'
	round=$((round + 1))
done
echo "# tips the build took from after the fetch, per round: $(tr '\n' ' ' <seen 2>/dev/null)(3 refs move)"
test_done
