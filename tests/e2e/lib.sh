# Shared helpers for the end-to-end tests, sourced by each tests/e2e/t*.sh.
#
# Each test script runs in a fresh temporary directory ($TRASH) with HOME,
# XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_STATE_HOME and NOTMUCH_CONFIG
# pointing inside it, so it never sees the developer's own mail, config,
# cache or state.  $FIXSCAN is the
# binary under test, $SRC the source tree.
#
#   test_expect_success 'what it checks' 'shell commands'
#   test_expect_code 2 'what it checks' 'shell commands'
#   test_cmp expected actual
#   test_done

set -u
: "${FIXSCAN:?FIXSCAN must name the fixscan binary under test}"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
export SRC FIXSCAN
TEST_NAME=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/fixscan-$TEST_NAME.XXXXXX")
export HOME="$TRASH/home" XDG_CACHE_HOME="$TRASH/cache" XDG_CONFIG_HOME="$TRASH/config"
export XDG_STATE_HOME="$TRASH/state"
export NOTMUCH_CONFIG="$TRASH/home/.notmuch-config"
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
# Output under script(1) is a terminal: no test waits on a real pager.
export FIXSCAN_PAGER=cat
unset NOTMUCH_DATABASE NOTMUCH_PROFILE GIT_DIR GIT_WORK_TREE 2>/dev/null || true
mkdir -p "$HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"
# The tests never reach the internet: lore (fixscan.lore) is off unless a
# test points it at its own public-inbox on loopback (lib-lore.sh), and a
# request for any other host goes to a port nothing listens on.
git config --file "$HOME/.gitconfig" fixscan.lore none
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 no_proxy=127.0.0.1,localhost
unset HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY 2>/dev/null || true
cd "$TRASH" || exit 1

test_count=0
test_failed=0

_test_run() {
	# Run in a subshell so a failing command or "exit" stays contained.
	(eval "$1") >"$TRASH/.out" 2>&1
}

test_expect_success() {
	test_count=$((test_count + 1))
	if _test_run "$2"; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
	fi
}

# Run CMD; it must exit with exactly CODE (the commands inside are still
# free to check output; the status checked is that of the last command).
test_expect_code() {
	want=$1
	shift
	test_count=$((test_count + 1))
	_test_run "$2"
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1 (exit $got, want $want)"
		sed 's/^/#   /' "$TRASH/.out"
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

# Mask what changes from run to run: the trash path, dates, message ids of
# generated drafts.
sanitize() {
	sed -e "s|$TRASH|TRASH|g" -e "s|$SRC|SRC|g"
}

test_done() {
	passed=$((test_count - test_failed))
	echo "# $TEST_NAME: $passed passed, $test_failed failed"
	if [ "$test_failed" -eq 0 ]; then
		rm -rf "$TRASH"
		exit 0
	fi
	echo "# left $TRASH for inspection"
	exit 1
}
