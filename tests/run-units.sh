#!/bin/sh
# Run each cmocka unit-test binary given; print its own summary and a total.
# Exits non-zero when any binary fails.
status=0
passed=0
failed=0
for t in "$@"; do
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		status=1
		echo "FAILED: $t" >&2
	fi
done
echo "unit binaries: $passed passed, $failed failed"
exit $status
