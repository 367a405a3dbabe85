#!/bin/sh
# The places fixscan writes to, as a reviewer's machine has them (issue
# 41), on real file systems (tmpfs mounts; as root, else skipped):
#  - full: the index cache, the drafts folder, the drafts state folder,
#    standard output run out of space (real ENOSPC): one line, nothing
#    torn, the old file kept; with room again the next run ends as a run
#    that never failed;
#  - read-only: the cache folder (the index and the CVE data run without
#    their caches, saying so once), the drafts folder and the state folder
#    (one line, nothing written), the review's maildir (read as before);
#  - $HOME unset (and no XDG_*): everything runs, saying once what is not
#    kept;
#  - the cache folder on another file system than $TMPDIR (a symlink to a
#    tmpfs): every temporary is made beside its file, none in $TMPDIR.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-drafts.sh"

# The mounts made, in a file: tests make them in subshells.
MOUNTS="$TRASH/.mounts"
# mnt DIR OPTIONS: a tmpfs at DIR.
mnt() {
	mkdir -p "$1" && mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null && echo "$1" >>"$MOUNTS"
}
# ro DIR: DIR read-only (a read-only bind mount of itself); rw DIR undoes it.
ro() {
	mount --bind "$1" "$1" && echo "$1" >>"$MOUNTS" && mount -o remount,bind,ro "$1" "$1"
}
rw() {
	umount "$1"
}
# full DIR KB: fill the tmpfs of DIR, then free KB kilobytes of it.
full() {
	dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null
	truncate -s "-$2k" "$1/filler"
}
finish() {
	tac "$MOUNTS" 2>/dev/null | while read -r m; do umount "$m" 2>/dev/null; done
	test_done
}
if ! mnt "$TRASH/probe" size=64k; then
	echo "# skipped: mounting a tmpfs needs root"
	finish
fi

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A \
	GIT_COMMITTER_EMAIL=a@example.org
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
S="$XDG_STATE_HOME/fixscan"
DUMP=$SRC/build/bench-index-dump
ids=$(git -C kernel log --format=%H master linux-4.4.y | awk "NR % 7 == 1")

# The clean answers: the index, the drafts.
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
"$FIXSCAN" show --repo kernel --no-update --json $ids >show.want 2>&1 || exit 1
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
fresh() {
	rm -rf "$D" "$S" && notmuch new --quiet
}
fresh

# ---- full -------------------------------------------------------------------

C="$TRASH/full-cache"
mnt "$C" size=1m || exit 1
test_expect_success 'index, the cache folder full: one line, no temporary, no cache; with room, built' '
	full "$C" 8 &&
	XDG_CACHE_HOME="$C" "$FIXSCAN" index --repo kernel >/dev/null 2>err
	rc=$?
	cat err
	test $rc -eq 2 && test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot write the index cache '"'"'$C/fixscan/[^'"'"']*\.idx'"'"': No space left on device\$" err &&
	test "$(ls "$C/fixscan" | grep -v "\.lock\$")" = "" &&
	rm "$C/filler" &&
	XDG_CACHE_HOME="$C" "$FIXSCAN" index --repo kernel >/dev/null 2>err && ! grep . err &&
	XDG_CACHE_HOME="$C" "$FIXSCAN" show --repo kernel --no-update --json $ids >show.got 2>&1 &&
	test_cmp show.want show.got
'
test_expect_success 'index, full while it replaces the cache: the old cache kept whole; with room, caught up' '
	cp "$C"/fixscan/*.idx old.idx &&
	c1=$(git -C kernel commit-tree -p master -m "one more" "master^{tree}") &&
	git -C kernel update-ref refs/heads/master "$c1" &&
	full "$C" 8 &&
	FIXSCAN_TEST_DELTA=never XDG_CACHE_HOME="$C" "$FIXSCAN" index --repo kernel >/dev/null 2>err
	rc=$?
	test $rc -eq 2 && grep -q "No space left on device\$" err &&
	cmp old.idx "$C"/fixscan/*.idx && ! ls "$C/fixscan" | grep "\.tmp\." &&
	XDG_CACHE_HOME="$C" "$FIXSCAN" show --repo kernel --no-update --json $ids >show.got 2>&1 &&
	test_cmp show.want show.got &&
	rm "$C/filler" &&
	FIXSCAN_TEST_DELTA=never XDG_CACHE_HOME="$C" "$FIXSCAN" index --repo kernel >/dev/null 2>err &&
	! grep . err &&
	"$DUMP" "$C"/fixscan/*.idx >got.dump &&
	rm -rf "$TRASH/clean" && XDG_CACHE_HOME="$TRASH/clean" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 &&
	"$DUMP" "$TRASH"/clean/fixscan/*.idx | cmp - got.dump &&
	git -C kernel update-ref refs/heads/master master~1
'

test_expect_success 'review --drafts, the drafts folder full part way: nothing torn; with room, one draft per key' '
	mkdir -p "$D" && mnt "$D" size=256k && full "$D" 12 &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	{ test $rc -eq 2 && test "$(grep -vc "^draft: " err)" -eq 1 &&
	grep -q "^fixscan: cannot write the draft in '"'"'$D/tmp/[^'"'"']*'"'"': No space left on device\$" err &&
	n=$(ls "$D/cur" | wc -l) && test "$n" -ge 1 && test "$n" -lt "$(wc -l <keys.want)" &&
	test -z "$(ls -A "$D/tmp")"; } || exit 1
	for f in "$D"/cur/*; do "$FIXSCAN" parse --json "$f" >/dev/null || exit 1; done
	rm "$D/filler" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	test $? -eq 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.want
'
rw "$D" 2>/dev/null
fresh

test_expect_success 'review --drafts, the state folder full: nothing written; with room, every draft' '
	mkdir -p "$S" && mnt "$S" size=64k && full "$S" 0 &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	cat err
	{ test $rc -eq 2 && test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot write the drafts state file '"'"'$S/drafts'"'"': .*No space left on device\$" err &&
	test "$(ls "$D/cur" | wc -l)" -eq 0 && ! test -e "$S/drafts"; } || exit 1
	rm "$S/filler" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	test $? -eq 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.want &&
	grep -q "^[0-9]\{14\}\." "$S/drafts"
'
rw "$S" 2>/dev/null
fresh

test_expect_code 2 'review --json into a file on a full disk: one line, exit 2' '
	mnt "$TRASH/full-out" size=64k && full "$TRASH/full-out" 0 &&
	"$FIXSCAN" review --repo kernel --json "$Q" >"$TRASH/full-out/review.json" 2>err
	rc=$?
	cat err
	test "$(cat err)" = "fixscan: cannot write to standard output: No space left on device" &&
	exit $rc
'

# ---- read-only ----------------------------------------------------------------

RC="$TRASH/ro-cache"
test_expect_success 'a read-only cache folder: the index runs without its cache, saying so once' '
	mkdir -p "$RC" && XDG_CACHE_HOME="$RC" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 &&
	c1=$(git -C kernel commit-tree -p master -m "one more" "master^{tree}") &&
	git -C kernel update-ref refs/heads/master "$c1" &&
	ls -l --time-style=full-iso "$RC/fixscan" >before &&
	ro "$RC" &&
	XDG_CACHE_HOME="$RC" "$FIXSCAN" show --repo kernel --json $ids "$c1" >show.got 2>err
	rc=$?
	cat err
	test $rc -eq 0 && test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot keep the index cache in '"'"'$RC/fixscan/[^'"'"']*'"'"' (Read-only file system): indexed without it\$" err &&
	grep -q "\"$c1\"" show.got &&
	ls -l --time-style=full-iso "$RC/fixscan" | cmp - before &&
	! ls /tmp "${TMPDIR:-/tmp}" | grep "^fixscan-index-"
'
git init -q vulns && git -C vulns symbolic-ref HEAD refs/heads/master || exit 1
fix=$(git -C kernel rev-parse master~1)
{
	printf "commit refs/heads/master\ncommitter C <c@example.org> 1700000000 +0000\ndata 4\ncna\n"
	printf "M 644 inline cve/published/2024/CVE-2024-26921.sha1\ndata 41\n%s\n\n" "$fix"
} | git -C vulns fast-import --quiet || exit 1
test_expect_success 'a read-only cache folder: the CVE data is read without its cache, saying so once' '
	XDG_CACHE_HOME="$RC" "$FIXSCAN" show --repo kernel --no-update --vulns vulns "$fix" >v.out 2>err
	cat err
	grep -q CVE-2024-26921 v.out &&
	grep -qx "fixscan: cannot write the vulns cache '"'"'$RC/fixscan/vulns-[^'"'"']*'"'"': cannot create .*: Read-only file system" err &&
	test "$(grep -c "vulns cache" err)" -eq 1
'
rw "$RC"
git -C kernel update-ref refs/heads/master master~1

test_expect_success 'a read-only drafts folder: one line naming it, nothing written; writable again, every draft' '
	mkdir -p "$D/cur" "$D/new" "$D/tmp" && ro "$D" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	cat err
	rw "$D" &&
	{ test $rc -eq 2 && test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot write the draft in '"'"'$D/tmp/[^'"'"']*'"'"': Read-only file system\$" err &&
	test -z "$(find "$D" -type f)"; } || exit 1
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	test $? -eq 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.want
'
fresh
test_expect_success 'a read-only state folder: one line naming the state file, nothing written' '
	mkdir -p "$S" && ro "$S" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	cat err
	rw "$S" &&
	{ test $rc -eq 2 && test "$(grep -c . err)" -eq 1 &&
	grep -q "^fixscan: cannot write the drafts state file '"'"'$S/drafts'"'"': .*Read-only file system\$" err &&
	test -z "$(find "$D" -type f)"; } || exit 1
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	test $? -eq 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.want
'
test_expect_code 1 'a read-only maildir of the review: read as before' '
	"$FIXSCAN" review --repo kernel --json "$Q" >rw.json 2>rw.err;
	ro "$TRASH/mail/review-4.4" &&
	"$FIXSCAN" review --repo kernel --json "$Q" >ro.json 2>ro.err
	rc=$?
	rw "$TRASH/mail/review-4.4"
	test_cmp rw.json ro.json && test_cmp rw.err ro.err && exit $rc
'
fresh

# ---- no $HOME ------------------------------------------------------------------

python3 - "$TRASH/mail/review-4.4" review.mbox <<'PY' || exit 1
import mailbox, sys
box = mailbox.mbox(sys.argv[2])
for m in mailbox.Maildir(sys.argv[1], factory=None, create=False):
    box.add(m)
box.flush()
PY
test_expect_success '$HOME and XDG_* unset: index, review and its drafts run, saying once what is not kept' '
	git -C kernel config user.name "Rita Reviewer" &&
	git -C kernel config user.email rita@example.org &&
	(
		unset HOME XDG_CACHE_HOME XDG_STATE_HOME XDG_CONFIG_HOME
		"$FIXSCAN" index --repo kernel >/dev/null 2>err.index &&
		"$FIXSCAN" review --repo kernel --mbox review.mbox --drafts --drafts-dir "$TRASH/nohome" \
			>/dev/null 2>err
	)
	rc=$?
	cat err.index err
	git -C kernel config --unset user.name; git -C kernel config --unset user.email
	test $rc -eq 1 &&
	test "$(cat err.index)" = "fixscan: cannot keep the index cache in '"'"'\$XDG_CACHE_HOME/fixscan'"'"' (neither XDG_CACHE_HOME nor HOME is set): indexed without it" &&
	test "$(grep -vc "^draft: " err)" -eq 4 &&
	grep -qx "fixscan: no mail store: regression reports not searched" err &&
	grep -qx "fixscan: lore: no cache directory: set XDG_CACHE_HOME or HOME; not searched" err &&
	grep -qx "fixscan: cannot keep the index cache in '"'"'\$XDG_CACHE_HOME/fixscan'"'"' (neither XDG_CACHE_HOME nor HOME is set): indexed without it" err &&
	grep -qx "fixscan: no folder for fixscan'"'"'s state (neither XDG_STATE_HOME nor HOME is set): the drafts are written, but not remembered (drafts you delete may come back)" err &&
	test "$(grep -c "^draft: wrote" err)" -eq "$(wc -l <keys.want)" &&
	D="$TRASH/nohome" drafts_keys "$TRASH/nohome" | cmp - keys.want
'
test_expect_code 2 '$HOME unset: the notmuch store cannot be opened, one line says why' '
	(
		unset HOME
		"$FIXSCAN" review --repo kernel "$Q" >/dev/null 2>err
	)
	rc=$?
	cat err
	test "$(cat err)" = "fixscan: cannot open the notmuch database at '"'"'$TRASH/mail'"'"': notmuch needs HOME, which is not set" &&
	exit $rc
'

# ---- the cache on another file system -------------------------------------------

test_expect_success 'the cache folder a symlink to another file system: every temporary beside its file, none in TMPDIR' '
	mnt "$TRASH/other" size=4m && mkdir -p "$TRASH/other/fixscan" "$TRASH/tmpdir" "$TRASH/lc" &&
	ln -s "$TRASH/other/fixscan" "$TRASH/lc/fixscan" &&
	TMPDIR="$TRASH/tmpdir" XDG_CACHE_HOME="$TRASH/lc" "$FIXSCAN" index --repo kernel --rebuild >/dev/null 2>err &&
	! grep . err &&
	TMPDIR="$TRASH/tmpdir" XDG_CACHE_HOME="$TRASH/lc" "$FIXSCAN" show --repo kernel --vulns vulns "$fix" >v.out 2>err &&
	! grep . err && grep -q CVE-2024-26921 v.out &&
	test "$(ls "$TRASH/other/fixscan" | grep -c "\.idx\$\|^vulns-.*\.cache\$")" -eq 2 &&
	test -z "$(ls -A "$TRASH/tmpdir")" &&
	! ls "$TRASH/other/fixscan" | grep "\.tmp\."
'

finish
