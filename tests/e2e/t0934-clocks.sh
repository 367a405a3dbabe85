#!/bin/sh
# Clocks (issue 41): no verdict depends on the local clock.
#  - the machine's clock a month behind the repository's newest commit,
#    or twenty years ahead (the fault library moves the wall clock of the
#    real binary): the same index, the same review, the same drafts;
#  - a thread whose mails are dated in the future (2099) or in 1970: the
#    same findings as the thread as it was posted;
#  - the digest's window is the one thing counted from the local clock,
#    and it says so: the clock it counted back from, in the text and the
#    JSON; none for a --since that names a date.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-fault.sh"
. "$SRC/tests/e2e/lib-drafts.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
DUMP=$SRC/build/bench-index-dump
newest=$(git -C kernel log -1 --all --format=%ct --date-order)
# a month behind the newest commit, and twenty years ahead of now
BEHIND=$((newest - $(date +%s) - 30 * 86400))
AHEAD=631152000

# at OFFSET CMD...: CMD with the wall clock moved by OFFSET seconds.
at() {
	_o=$1
	shift
	FIXSCAN_CLOCK_OFFSET=$_o faulty "open:1000000000:EIO:/nothing-at-all/" "$@"
}

test_expect_success 'the fault library moves the wall clock of the binary' '
	test "$(at $BEHIND date +%s)" -lt "$newest" &&
	test "$(at $AHEAD date +%Y)" -ge 2040
'

"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
"$DUMP" "$XDG_CACHE_HOME"/fixscan/*.idx >index.want || exit 1
"$FIXSCAN" review --repo kernel --json "$Q" >review.want 2>review.err.want
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
rm -rf "$D" "$XDG_STATE_HOME/fixscan" && notmuch new --quiet

for o in $BEHIND $AHEAD; do
	test_expect_success "the clock moved by $o s: the same index" '
		rm -rf "$TRASH/c$o" &&
		XDG_CACHE_HOME="$TRASH/c$o" at $o "$FIXSCAN" index --repo kernel >/dev/null 2>err &&
		! grep . err &&
		"$DUMP" "$TRASH/c$o"/fixscan/*.idx | cmp - index.want
	'
	test_expect_code 1 "the clock moved by $o s: the same review" '
		at $o "$FIXSCAN" review --repo kernel --json "$Q" >review.got 2>review.err
		rc=$?
		test_cmp review.want review.got && test_cmp review.err.want review.err && exit $rc
	'
	test_expect_success "the clock moved by $o s: the same drafts" '
		at $o "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
		test $? -eq 1 && ! grep -v "^draft: wrote" err &&
		notmuch new --quiet && drafts_consistent keys.want &&
		grep -h "^Date: " "$D"/cur/* | sort -u >dates &&
		test "$(wc -l <dates)" -eq 1 &&
		at $o date -R | cut -c1-16 | grep -q "$(cut -c7-22 dates)" &&
		rm -rf "$D" "$XDG_STATE_HOME/fixscan" && notmuch new --quiet
	'
done

# The thread as an mbox, and with every Date moved to 2099 or to 1970.
python3 - "$TRASH/mail/review-4.4" <<'PY' || exit 1
import email.utils, mailbox, re, sys
src = [m for m in mailbox.Maildir(sys.argv[1], factory=None, create=False)]
def date_of(m):
    return email.utils.parsedate_to_datetime(m["Date"]).timestamp()
first = min(date_of(m) for m in src)
for name, to in (("posted", None), ("future", 4070908800), ("epoch", 0)):
    box = mailbox.mbox(name + ".mbox")
    for m in src:
        m = mailbox.mboxMessage(m)
        if to is not None:
            t = date_of(m) - first + to
            del m["Date"]
            m["Date"] = email.utils.formatdate(t)
        box.add(m)
    box.flush()
PY
# The findings of a review, without what the mails' dates are.
findings() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    for p in d.get("patches", []):
        print(p.get("index"), json.dumps(p.get("findings"), sort_keys=True))
' "$1"
}
"$FIXSCAN" review --repo kernel --json --mbox posted.mbox >posted.json 2>/dev/null
findings posted.json >findings.want
test_expect_success 'the review found something to compare' '
	test "$(grep -c "\"kind\"" findings.want)" -gt 5
'
for when in future epoch; do
	test_expect_code 1 "a thread dated in the $when: the same findings" '
		"$FIXSCAN" review --repo kernel --json --mbox $when.mbox >$when.json 2>$when.err
		rc=$?
		findings $when.json | cmp - findings.want && exit $rc
	'
done
test_expect_code 1 'a thread dated in 1970, the clock behind the repository: the same findings' '
	at $BEHIND "$FIXSCAN" review --repo kernel --json --mbox epoch.mbox >epoch2.json 2>/dev/null
	rc=$?
	findings epoch2.json | cmp - findings.want && exit $rc
'

# ---- the digest's window --------------------------------------------------------

test_expect_code 1 'digest --since 1d: the window says the clock it counted back from' '
	now=$(date +%s) &&
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 >/dev/null 2>&1;
	at $BEHIND "$FIXSCAN" digest --repo kernel --since 1d >d.txt 2>&1;
	at $BEHIND "$FIXSCAN" digest --repo kernel --since 1d --json >d.json 2>/dev/null;
	head -1 d.txt &&
	clock=$(python3 -c "import json; print(json.load(open(\"d.json\"))[\"clock\"])") &&
	want=$(date -u -d "@$((now + BEHIND))" +%Y-%m-%dT%H:%M) &&
	case $clock in "$want":??Z|"$(date -u -d "@$((now + BEHIND + 60))" +%Y-%m-%dT%H:%M)":??Z) ;; *) echo "clock $clock, want $want"; exit 9 ;; esac &&
	grep -q "^stable review digest: 0 series since $(date -u -d "@$((now + BEHIND - 86400))" +%Y-%m-%d) [0-9:]* UTC (counted back from this machine.s clock, $(date -u -d "@$((now + BEHIND))" +%Y-%m-%d) [0-9:]* UTC), 0 risky patches\$" d.txt &&
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --json >abs.json 2>/dev/null;
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 >abs.txt 2>/dev/null;
	rc=$?
	python3 -c "import json; d = json.load(open(\"abs.json\")); assert d[\"clock\"] is None and d[\"series\"], d[\"clock\"]" &&
	grep -q "^stable review digest: 1 series since 2016-01-01 00:00 UTC, [0-9]* risky patches\$" abs.txt &&
	exit $rc
'
test_expect_code 1 'a clock behind the repository: the digest of the dated window is the same' '
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --json >abs.want 2>/dev/null;
	at $BEHIND "$FIXSCAN" digest --repo kernel --since 2016-01-01 --json >abs.got 2>/dev/null
	rc=$?
	test_cmp abs.want abs.got && exit $rc
'

test_done
