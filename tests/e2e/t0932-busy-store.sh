#!/bin/sh
# A real "notmuch new" holds the database's write lock (issue 41) while
# review --drafts wants to index its drafts:
#  - for longer than fixscan waits: one line saying it waits (naming the
#    lock), then one line naming the lock; every draft written, none
#    indexed, nothing in tmp/; the next run indexes them all and writes
#    none twice;
#  - for less: the same line, then the drafts are written and indexed.
# notmuch new holds the lock while it reads a new mail the fault library
# (tests/fault/fault.c, FIXSCAN_DELAY) makes it wait on for as long as a
# file is there: the test says when it lets go.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-drafts.sh"
. "$SRC/tests/e2e/lib-fault.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
LOCK="$TRASH/mail/.notmuch/xapian/flintlock"

# slow_mail NAME: a new mail NAME in the maildir "slow", for notmuch new
# to find.
slow_mail() {
	mkdir -p "$TRASH/mail/slow/cur" "$TRASH/mail/slow/new" "$TRASH/mail/slow/tmp" &&
	printf 'From: list@example.org\nSubject: %s\nMessage-Id: <%s@example.org>\n\nx\n' "$1" "$1" \
		>"$TRASH/mail/slow/cur/$1:2,S"
}
# locked: whether another process holds the write lock now (F_GETLK).
locked() {
	python3 -c '
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
r = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
sys.exit(0 if struct.unpack("hhqqi", r)[0] != fcntl.F_UNLCK else 1)' "$LOCK"
}
# notmuch_new_holding NAME: start notmuch new in the background, kept
# on the new mail NAME while the file "hold" is there; return once it
# holds the lock ($nm its pid).
notmuch_new_holding() {
	slow_mail "$1" && touch hold &&
	{ FIXSCAN_DELAY="$1:120" FIXSCAN_DELAY_WHILE="$TRASH/hold" LD_PRELOAD=$FAULTLIB \
		notmuch new --quiet >/dev/null 2>&1 & } &&
	nm=$! &&
	i=0 &&
	while ! locked && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
	locked
}
# let_go: notmuch new goes on and ends.
let_go() {
	rm -f hold
	wait $nm
}

"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
n=$(wc -l <keys.want)
rm -rf "$D" "$XDG_STATE_HOME/fixscan" && notmuch new --quiet || exit 1

rm -f err
test_expect_success "notmuch new holds the lock past the wait: the wait said, one line naming the lock, $n drafts written and not indexed" '
	notmuch_new_holding slow1 &&
	FIXSCAN_TEST_LOCK_WAIT=1 "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	still=$(locked && echo yes)
	let_go
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

rm -rf "$D" "$XDG_STATE_HOME/fixscan" err && notmuch new --quiet || exit 1
test_expect_success 'notmuch new lets go within the wait: the wait said, then the drafts written and indexed' '
	notmuch_new_holding slow2 || exit 1
	# let go once fixscan says it waits
	( i=0; while ! grep -q "waiting up to" err 2>/dev/null && [ $i -lt 3000 ]; do
		sleep 0.02; i=$((i + 1)); done; rm -f hold ) &
	FIXSCAN_TEST_LOCK_WAIT=60 "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	rc=$?
	let_go
	wait
	cat err
	test $rc -eq 1 &&
	test "$(grep -vc "^draft: " err)" -eq 1 &&
	grep -qx "fixscan: the notmuch database is locked by another process ('"'"'$LOCK'"'"'): waiting up to 60 s" err &&
	test "$(grep -c "^draft: wrote " err)" -eq "$n" &&
	notmuch new --quiet && drafts_consistent keys.want
'

test_done
