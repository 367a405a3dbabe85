#!/bin/sh
# A draft the reviewer deletes is a reply withdrawn: the sample's 20/27
# draft says the fix of its follow-up fix "I asked for in my reply to
# 21/27"; once the 21/27 draft is deleted (not sent), the next run's
# 20/27 draft neither points to that reply nor leaves the fix to it: it
# asks for it itself.  The deleted draft stays deleted; --force brings it
# back, and 20/27 points to it again.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"

# draft NN: the file of the draft answering patch NN/27
draft() {
	grep -l "^Subject: Re: \[PATCH 4.4 $1/27\]" "$D"/cur/* "$D"/new/* 2>/dev/null | head -n 1
}
# flat NN: the body of draft NN on one line
flat() {
	f=$(draft "$1") && [ -n "$f" ] && tr '\n' ' ' <"$f" | sed 's/  */ /g'
}

test_expect_code 1 'review --drafts' '
	"$FIXSCAN" review --repo kernel --drafts --no-lore "$Q" >/dev/null 2>&1
'
test_expect_success '... 20/27 leans on the reply to 21/27' '
	flat 20 | grep -q "which I asked for in my reply to 21/27" &&
	flat 21 | grep -q "c5fef009a731"
'
test_expect_code 1 'the reviewer deletes the 21/27 draft; the next run' '
	rm "$(draft 21)" && notmuch new --quiet &&
	"$FIXSCAN" review --repo kernel --drafts --no-lore "$Q" >/dev/null 2>run2.err
'
test_expect_success '... 20/27 asks for the fix itself and points to no reply' '
	test -z "$(draft 21)" &&
	! flat 20 | grep -q "my reply to 21/27" &&
	flat 20 | grep -q "c5fef009a731" &&
	test "$(ls "$D"/cur "$D"/new | grep -c .)" -ge 1
'
test_expect_success '... one 20/27 draft, the outdated one replaced' '
	test "$(grep -l "^Subject: Re: \[PATCH 4.4 20/27\]" "$D"/cur/* "$D"/new/* | wc -l)" = 1
'
test_expect_code 1 'review --drafts --force' '
	"$FIXSCAN" review --repo kernel --drafts --force --no-lore "$Q" >/dev/null 2>&1
'
test_expect_success '... brings 21/27 back, and 20/27 points to it again' '
	test -n "$(draft 21)" &&
	flat 20 | grep -q "which I asked for in my reply to 21/27"
'
test_done
