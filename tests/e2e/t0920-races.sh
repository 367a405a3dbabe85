#!/bin/sh
# Nothing doubled, nothing lost (issue 32):
#  - three review --drafts and a check --thread --drafts of one thread
#    started together, many times, leave exactly the drafts of one run;
#  - a damaged drafts state file (empty, torn, random, NUL-holding, a
#    wrong field count, a symlink, a FIFO, a device, a directory) is one
#    line naming it, exit 2, nothing written and no hang; set aside, the
#    next run knows fixscan's drafts by their Message-Id and text and
#    writes none twice.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

ROUNDS=${FIXSCAN_RACE_ROUNDS:-8}

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
S="$XDG_STATE_HOME/fixscan/drafts"
# check --thread reads one mail of the thread: the cover.
COVER=$(grep -l "^Subject: \[PATCH 4.4 00/" "$TRASH"/mail/review-4.4/cur/* | head -1)

. "$SRC/tests/e2e/lib-drafts.sh"

# One run alone: what every round must leave.
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
n=$(wc -l <keys.want)
test_expect_success "a run alone writes $n drafts, one per key" '
	test "$n" -gt 3 &&
	test "$(cut -d" " -f1 keys.want | sort -u | wc -l)" = "$n" &&
	drafts_consistent keys.want
'
test_expect_success 'check --thread --drafts of the cover writes the same drafts: none' '
	"$FIXSCAN" check --repo kernel --thread --drafts "$COVER" >check.out 2>check.err;
	test "$(grep -c "^draft: unchanged" check.out)" = "$n" &&
	! grep "^draft: wrote" check.out && ! grep . check.err && drafts_consistent keys.want
'

# race: start three review --drafts and a check --thread --drafts at
# once, wait for all.
race() {
	for k in 1 2 3; do
		"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>race$k.err &
	done
	# check says what it did with the drafts on standard output
	"$FIXSCAN" check --repo kernel --thread --drafts "$COVER" 2>race4.err |
		grep "^draft: " >>race4.err &
	wait
}
round=1
while [ "$round" -le "$ROUNDS" ]; do
	test_expect_success "round $round: four runs at once on an empty folder leave one run's drafts" '
		rm -rf "$D" "$S" && notmuch new --quiet &&
		race &&
		! grep -v "^draft: " race1.err race2.err race3.err race4.err &&
		test "$(cat race*.err | grep -c "^draft: wrote")" = "$n" &&
		drafts_consistent keys.want || { grep -c "^draft: wrote" race*.err; grep -hv "^draft: unchanged" race*.err; false; }
	'
	test_expect_success "round $round: four more at once on those drafts write none" '
		race &&
		! grep "^draft: wrote" race*.err &&
		drafts_consistent keys.want
	'
	round=$((round + 1))
done

# ---- a damaged state file ---------------------------------------------------

# The reviewer deletes one draft; the next run remembers it.
victim=$(grep -l "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@" "$D"/cur/* | head -1)
rm -f "$victim" && notmuch new --quiet &&
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>del.err
drafts_keys "$D" >keys.kept
test_expect_success 'a draft the reviewer deleted stays deleted' '
	grep -q "you deleted" del.err &&
	test "$(wc -l <keys.kept)" = $((n - 1)) &&
	! grep "^draft: wrote" del.err &&
	cp keys.kept keys.want && drafts_consistent keys.want
'
cp "$S" state.good

# damaged KIND: make the state file KIND (the good one first), run, want
# one line naming it, exit 2, in seconds; nothing written or removed.
damaged() {
	kind=$1 line=$2
	test_expect_code 2 "a state file $kind: one line, exit 2, nothing written" '
		timeout 20 "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>dmg.err
		rc=$?
		test "$(wc -l <dmg.err)" = 1 || { cat dmg.err; exit 3; }
		grep -q "^fixscan: the drafts state file '"'"'$S'"'"' $line" dmg.err || { cat dmg.err; exit 3; }
		drafts_consistent keys.want || exit 3
		exit $rc
	'
	rm -rf "$S" && cp state.good "$S"
}
rm -f "$S" && : >"$S" && damaged "emptied" "is empty; no draft written"
head -c 150 state.good >"$S" && damaged "torn in a line" "ends in the middle of a line"
head -c 3000 /dev/urandom | base64 -w 0 >"$S" && echo >>"$S" && damaged "of random text" "line 1: not 4 fields"
head -c 2000 /dev/urandom >"$S" && damaged "of random bytes" "\\(holds a NUL\\|is not UTF-8\\|ends in\\)"
{ head -2 state.good; printf 'a\0b\tc\td\te\n'; } >"$S" && damaged "holding a NUL" "holds a NUL byte"
{ head -2 state.good; tail -1 state.good | cut -f1-3; } >"$S" && damaged "with 3 fields on a line" "line 3: not 4 fields"
{ head -2 state.good; tail -1 state.good | sed 's/\t/\tx\t/'; } >"$S" && damaged "with 5 fields on a line" "line 3: not 4 fields"
{ head -2 state.good; tail -1 state.good | sed 's/\t[0-9]*\t/\tyesterday\t/'; } >"$S" && damaged "with a bad time" "line 3: no time"
rm -f "$S" && ln -s "$TRASH/state.good" "$S" && damaged "a symlink to another file" "is a symbolic link"
rm -f "$S" && mkfifo "$S" && damaged "a FIFO" "is a FIFO"
rm -f "$S" && ln -s /dev/zero "$S" && damaged "a symlink to a device" "is a symbolic link"
rm -f "$S" && mkdir "$S" && damaged "a directory" "is a directory"
if [ "$(id -u)" = 0 ] && mknod "$S.dev" c 1 5 2>/dev/null; then
	rm -rf "$S" && mv "$S.dev" "$S" && damaged "a device" "is a device"
fi
test_expect_success 'the good state file works again: nothing written, the deleted one not back' '
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>again.err
	! grep "^draft: wrote" again.err && drafts_consistent keys.want
'
# Set aside, the state forgets what the reviewer deleted (that draft comes
# back, as the error says), but each draft in the folder is known by its
# Message-Id and text: none is taken for the reviewer's edit and doubled.
test_expect_success 'set aside, the next run knows its drafts by Message-Id and text: none twice' '
	mv "$S" "$S.aside" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>aside.err
	! grep "kept your edited" aside.err &&
	test "$(grep -c "^draft: wrote" aside.err)" = 1 &&
	test "$(grep -c "^draft: unchanged" aside.err)" = $((n - 1)) &&
	drafts_keys "$D" >keys.want && test "$(wc -l <keys.want)" = "$n" &&
	drafts_consistent keys.want &&
	test "$(grep -vc "^#" "$S")" = "$n"
'
# A draft the reviewer sent from mutt: its file left Drafts for a Sent
# folder notmuch has not read yet.  fixscan cannot tell it from one
# deleted, writes nothing again, and leaves the entry to notmuch new,
# which then finds the message moved and keeps its tags ("tag:fixscan and
# not folder:Drafts" lists what was sent).  Forgotten by fixscan, the
# Sent copy came back as a new message without them.
test_expect_success 'a draft sent before notmuch new: nothing written, its tags kept' '
	f=$(grep -l "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@" "$D"/cur/* | head -1) &&
	id=$(sed -n "s/^Message-Id: <\(.*\)>\$/\1/p" "$f") &&
	test "$(notmuch count "id:$id and tag:fixscan")" = 1 &&
	mkdir -p "$TRASH/mail/Sent/cur" "$TRASH/mail/Sent/new" "$TRASH/mail/Sent/tmp" &&
	cp "$f" "$TRASH/mail/Sent/cur/sent.1:2,S" && rm "$f" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>sent.err;
	! grep "^draft: wrote" sent.err && grep -q "you deleted" sent.err &&
	notmuch new --quiet &&
	test "$(notmuch count "id:$id and tag:fixscan and folder:Sent")" = 1 &&
	test "$(notmuch count "id:$id and folder:Drafts")" = 0 &&
	drafts_keys "$D" >keys.want && drafts_consistent keys.want
'
# A draft file removed by hand: the next run writes nothing again, and
# notmuch new forgets the entry.
test_expect_success 'a draft removed by hand: nothing written, notmuch new forgets it' '
	f=$(grep -l "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@" "$D"/cur/* | head -1) &&
	id=$(sed -n "s/^Message-Id: <\(.*\)>\$/\1/p" "$f") &&
	rm "$f" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>gone.err;
	! grep "^draft: wrote" gone.err && grep -q "you deleted" gone.err &&
	notmuch new --quiet &&
	test "$(notmuch count "id:$id")" = 0 &&
	drafts_keys "$D" >keys.want && drafts_consistent keys.want
'

# A drafts folder that is no maildir (a file where cur/ should be): one
# line, exit 2, nothing written, the file untouched.
test_expect_code 2 'a drafts folder with a file for cur/: one line, exit 2, nothing written' '
	mkdir -p odd/new odd/tmp && echo "not a folder" >odd/cur && cp odd/cur cur.before &&
	"$FIXSCAN" review --repo kernel --drafts --drafts-dir "$TRASH/odd" "$Q" >/dev/null 2>odd.err
	rc=$?
	test "$(wc -l <odd.err)" = 1 &&
	grep -q "^fixscan: cannot create the drafts folder .*odd.*: Not a directory$" odd.err &&
	test_cmp cur.before odd/cur && test -z "$(ls -A odd/new)$(ls -A odd/tmp)" || exit 3
	exit $rc
'
test_done
