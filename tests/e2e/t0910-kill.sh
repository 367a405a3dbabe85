#!/bin/sh
# SIGKILL at random points (seeded, bounded rounds) of
#  - fixscan index --rebuild on a generated repository big enough to take
#    a moment: the next run must not believe a torn cache (its show
#    answers equal those of a clean rebuild) and must leave no writer's
#    temporary behind;
#  - fixscan review --drafts on the sample thread (the set-up of t0600):
#    every notmuch entry keeps its file, every mail that is not a draft is
#    byte-identical, and every draft written is whole; and killed during
#    its first write or while it replaces every draft, the next run
#    leaves one draft per key, nothing in tmp/, notmuch and the files
#    agreeing.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

ROUNDS=${FIXSCAN_KILL_ROUNDS:-5}
SEED=${FIXSCAN_KILL_SEED:-915}

python3 "$SRC/scripts/gen-kernel.py" scale --mainline 25000 --stable 2500 --seed 7 \
	"$TRASH/big" >/dev/null 2>&1 || exit 1
python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1

# The delays: seeded, spread over how long a full build takes here.
start=$(date +%s%N)
XDG_CACHE_HOME="$TRASH/clean" "$FIXSCAN" index --repo big >/dev/null 2>&1 || exit 1
took=$((($(date +%s%N) - start) / 1000000))
delays=$(python3 -c "
import random, sys
r = random.Random($SEED)
print(' '.join('%.3f' % (r.uniform(0.0, 1.2) * $took / 1000) for _ in range($ROUNDS)))")
echo "# a full build takes ${took} ms; delays: $delays"

# What a clean cache answers for a spread of commits.
ids=$(git -C big log --format=%H --all | awk 'NR % 997 == 1' | head -30)
XDG_CACHE_HOME="$TRASH/clean" "$FIXSCAN" show --repo big --no-update --json $ids >show.want 2>&1 ||
	{ echo "# show on the clean cache failed"; cat show.want; exit 1; }

delay() {
	echo "$delays" | tr ' ' '\n' | sed -n "${1}p"
}

# kill_after SECONDS CMD...: start CMD, SIGKILL it after SECONDS (if it
# still runs), wait for it.
kill_after() {
	d=$1
	shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$d"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
	test_expect_success "index --rebuild killed after $(delay $round) s: the next run is right" '
		kill_after "$(delay $round)" "$FIXSCAN" index --repo big --rebuild &&
		"$FIXSCAN" index --repo big >/dev/null 2>err &&
		! grep -q . err &&
		"$FIXSCAN" show --repo big --no-update --json $ids >show.got 2>&1 &&
		test_cmp show.want show.got &&
		left=$(find "$XDG_CACHE_HOME/fixscan" -name "*.tmp.*") &&
		test -z "$left" || { echo "left: $left"; false; }
	'
	round=$((round + 1))
done

Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
list_mail() {
	find "$TRASH/mail" -type f ! -path '*/.notmuch/*' ! -path "$D/*" | sort | xargs md5sum
}
list_mail >mail.before

# Time one full run to spread the kill points over.
start=$(date +%s%N)
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
took=$((($(date +%s%N) - start) / 1000000))
echo "# review --drafts takes ${took} ms"
rm -rf "$D" && notmuch new --quiet || exit 1

round=1
while [ "$round" -le "$ROUNDS" ]; do
	d=$(python3 -c "
import random
r = random.Random($SEED + $round)
print('%.3f' % (r.uniform(0.0, 1.2) * $took / 1000))")
	test_expect_success "review --drafts killed after $d s: the store and the mail are whole" '
		kill_after "$d" "$FIXSCAN" review --repo kernel --drafts "$Q" &&
		notmuch new --quiet &&
		notmuch search --output=files "*" >files &&
		while read -r f; do test -f "$f" || { echo "gone: $f"; exit 1; }; done <files &&
		list_mail >mail.after &&
		test_cmp mail.before mail.after &&
		for f in "$D"/cur/* "$D"/new/*; do
			[ -f "$f" ] || continue
			"$FIXSCAN" parse --json "$f" >/dev/null || { echo "torn: $f"; exit 1; }
			tail -c 1 "$f" | od -c | grep -q "\\\\n" || { echo "unterminated: $f"; exit 1; }
		done
	'
	round=$((round + 1))
done

# A killed writer's file in tmp/ is swept by the next run (below).
echo "# files left in Drafts/tmp by the kills: $(find "$D/tmp" -type f 2>/dev/null | wc -l)"

test_expect_success 'a run after the kills writes the drafts, once' '
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err; rc=$?
	cat err
	test "$rc" -le 1 &&
	notmuch new --quiet &&
	notmuch search --output=files "*" | while read -r f; do test -f "$f" || exit 1; done
'

# ---- what the next run makes of a kill ---------------------------------------
# Killed at a point of its first write, or while it replaces every draft
# (the signature changed, so every body did), the next run -- with no
# notmuch new in between -- must leave exactly the drafts a clean run
# leaves (one per key, the same texts), nothing in tmp/, every draft
# indexed and no notmuch entry whose file is gone.
. "$SRC/tests/e2e/lib-drafts.sh"
S="$XDG_STATE_HOME/fixscan/drafts"
echo "-- Rita" >sig.a && echo "-- Rita, again" >sig.b
fresh() {
	rm -rf "$D" "$S" && notmuch new --quiet
}
for sig in a b; do
	git config --global fixscan.signature "$TRASH/sig.$sig"
	fresh
	start=$(date +%s%N)
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
	took=$((($(date +%s%N) - start) / 1000000))
	drafts_keys "$D" >keys.$sig
done
echo "# a first write of the drafts takes ${took} ms"
test_expect_success 'the two signatures give two sets of drafts, one per key each' '
	test -s keys.a && test "$(wc -l <keys.a)" = "$(wc -l <keys.b)" &&
	test "$(cut -d" " -f1 keys.a | sort -u | wc -l)" = "$(wc -l <keys.a)" &&
	! test_cmp keys.a keys.b >/dev/null
'
# kill_state WHAT: note where a kill left the drafts: files in cur/ and
# tmp/, pending lines in the state file (printed at the end).
kill_state() {
	echo "$1 cur=$(ls "$D/cur" 2>/dev/null | wc -l) tmp=$(ls "$D/tmp" 2>/dev/null | wc -l)" \
		"pending=$(grep -c "^pending:" "$S" 2>/dev/null)" >>"$TRASH/kills"
}
KROUNDS=${FIXSCAN_KILL_ROUNDS:-10}
round=1
while [ "$round" -le "$KROUNDS" ]; do
	d=$(python3 -c "
import random
r = random.Random($SEED * 7 + $round)
print('%.3f' % (r.uniform(0.5, 0.95) * $took / 1000))")
	test_expect_success "first write killed after $d s: the next run leaves one draft per key" '
		fresh && git config --global fixscan.signature "$TRASH/sig.a" &&
		kill_after "$d" "$FIXSCAN" review --repo kernel --drafts "$Q" &&
		kill_state first &&
		"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err;
		test $? -le 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.a
	'
	d=$(python3 -c "
import random
r = random.Random($SEED * 11 + $round)
print('%.3f' % (r.uniform(0.4, 1.1) * $took / 1000))")
	test_expect_success "replacement killed after $d s: the next run leaves one draft per key" '
		fresh && git config --global fixscan.signature "$TRASH/sig.a" &&
		"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1;
		git config --global fixscan.signature "$TRASH/sig.b" &&
		kill_after "$d" "$FIXSCAN" review --repo kernel --drafts "$Q" &&
		kill_state replace &&
		"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err;
		test $? -le 1 && ! grep -v "^draft: " next.err && ! grep "kept your edited" next.err &&
		drafts_consistent keys.b
	'
	round=$((round + 1))
done
git config --global --unset fixscan.signature
sed 's/^/# killed: /' "$TRASH/kills"

test_done
