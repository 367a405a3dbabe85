#!/bin/sh
# Run every end-to-end test script and total the results.
cd "$(dirname "$0")" || exit 2
passed=0
failed=0
for t in t[0-9]*.sh; do
	[ -e "$t" ] || continue
	out=$(sh "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^# .*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	# A script that died before test_done still counts as a failure.
	if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		failed=$((failed + 1))
		echo "# $t exited $rc without reporting a failure"
	fi
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
