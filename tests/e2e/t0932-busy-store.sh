#!/bin/sh
# A real "notmuch new" holds the database's write lock (issue 41) while
# review --drafts wants to index its drafts:
#  - for longer than fixscan waits: one line saying it waits (naming the
#    lock), then one line naming the lock; every draft written, none
#    indexed, nothing in tmp/; the next run indexes them all and writes
#    none twice;
#  - for less: the same line, then the drafts are written and indexed.
# notmuch new holds the lock while it indexes a few thousand new mails.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-drafts.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
LOCK="$TRASH/mail/.notmuch/xapian/flintlock"

# bulk NAME N: N new mails in the maildir NAME, for notmuch new to index.
bulk() {
	python3 - "$TRASH/mail/$1" "$2" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for sub in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(root, sub), exist_ok=True)
body = "a line of text for the body of a bulk message\n" * 30
for i in range(n):
    with open(os.path.join(root, "cur", "%d.bulk:2,S" % i), "w") as f:
        f.write("From: list%d@example.org\nTo: list@example.org\nSubject: bulk %d\n"
                "Message-Id: <bulk.%s.%d@example.org>\nDate: Thu, 1 Jan 2026 00:00:00 +0000\n\n%s"
                % (i, i, os.path.basename(root), i, body))
PY
}
# locked: whether another process holds the write lock now (F_GETLK).
locked() {
	python3 -c '
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
r = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
sys.exit(0 if struct.unpack("hhqqi", r)[0] != fcntl.F_UNLCK else 1)' "$LOCK"
}
# notmuch_new_holding: start notmuch new in the background, return once
# it holds the lock ($nm its pid).
notmuch_new_holding() {
	notmuch new --quiet >/dev/null 2>&1 &
	nm=$!
	i=0
	while ! locked && [ $i -lt 200 ]; do sleep 0.02; i=$((i + 1)); done
	locked
}

"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
n=$(wc -l <keys.want)
rm -rf "$D" "$XDG_STATE_HOME/fixscan" && notmuch new --quiet || exit 1

bulk bulk1 4000 || exit 1
test_expect_success "notmuch new holds the lock past the wait: the wait said, one line naming the lock, $n drafts written and not indexed" '
	notmuch_new_holding &&
	FIXSCAN_TEST_LOCK_WAIT=1 "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	still=$(locked && echo yes)
	wait $nm
	cat err
	test $rc -eq 2 && test "$still" = yes &&
	test "$(grep -vc "^draft: " err)" -eq 2 &&
	grep -qx "fixscan: the notmuch database is locked by another process ('"'"'$LOCK'"'"'): waiting up to 1 s" err &&
	grep -qx "fixscan: $n drafts written but not indexed (run again to index them): the notmuch database at '"'"'$TRASH/mail'"'"' is locked by another process (waited 1 s for its lock '"'"'$LOCK'"'"')" err &&
	test "$(ls "$D/cur" | wc -l)" -eq "$n" && test -z "$(ls -A "$D/tmp")" &&
	test "$(notmuch count "path:Drafts/**")" -eq 0 &&
	drafts_keys "$D" | cmp - keys.want
'
test_expect_success 'the next run indexes them all and writes none twice' '
	ls "$D/cur" >before &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	test $? -eq 1 &&
	test "$(grep -c "^draft: unchanged .*, indexed now (re: " next.err)" -eq "$n" &&
	! grep -v "^draft: " next.err &&
	ls "$D/cur" | cmp - before &&
	drafts_consistent keys.want
'

bulk bulk2 4000 || exit 1
rm -rf "$D" "$XDG_STATE_HOME/fixscan" && notmuch new --quiet || exit 1
bulk bulk3 4000 || exit 1
test_expect_success 'notmuch new lets go within the wait: the wait said, then the drafts written and indexed' '
	notmuch_new_holding &&
	FIXSCAN_TEST_LOCK_WAIT=60 "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	wait $nm
	cat err
	test $rc -eq 1 &&
	test "$(grep -vc "^draft: " err)" -eq 1 &&
	grep -qx "fixscan: the notmuch database is locked by another process ('"'"'$LOCK'"'"'): waiting up to 60 s" err &&
	test "$(grep -c "^draft: wrote " err)" -eq "$n" &&
	notmuch new --quiet && drafts_consistent keys.want
'

test_done
