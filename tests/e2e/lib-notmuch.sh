# A real notmuch database for the end-to-end tests, built with the notmuch
# command line.  Source it after lib.sh (which points HOME and
# NOTMUCH_CONFIG into the test's trash directory):
#
#   . "$(dirname "$0")/lib.sh"
#   . "$SRC/tests/e2e/lib-notmuch.sh"   # lib.sh has cd'd into $TRASH
#   setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
#
# setup_notmuch MAILROOT [MAILDIR...] copies each MAILDIR to
# MAILROOT/<its basename> (so "path:review-4.4/**" finds its messages),
# gives every maildir in the copy its cur/, new/ and tmp/ (git keeps no
# empty directories), writes $NOTMUCH_CONFIG for the reviewer "Rita
# Reviewer <rita@example.org>" with new.tags=unread;inbox; and runs
# "notmuch new".  On any failure it says why on stderr and returns 1.
# NOTMUCH_BIN names the notmuch program (default: notmuch).

_notmuch_fail() {
	echo "setup_notmuch: $*" >&2
	return 1
}

setup_notmuch() {
	_nm=${NOTMUCH_BIN:-notmuch}
	if ! command -v "$_nm" >/dev/null 2>&1; then
		_notmuch_fail "'$_nm' not found: the end-to-end tests need the notmuch command line (Debian: apt-get install notmuch)"
		return 1
	fi
	if [ $# -lt 1 ] || [ -z "$1" ]; then
		_notmuch_fail "usage: setup_notmuch MAILROOT [MAILDIR...]"
		return 1
	fi
	if [ -z "${NOTMUCH_CONFIG:-}" ]; then
		_notmuch_fail "NOTMUCH_CONFIG is not set (source lib.sh first)"
		return 1
	fi
	mkdir -p "$1" || { _notmuch_fail "cannot create '$1'"; return 1; }
	# notmuch wants an absolute database.path.
	_nm_root=$(cd "$1" && pwd) || { _notmuch_fail "cannot enter '$1'"; return 1; }
	shift

	for _nm_src in "$@"; do
		_nm_src=${_nm_src%/}
		if [ ! -d "$_nm_src" ]; then
			_notmuch_fail "no maildir '$_nm_src'"
			return 1
		fi
		_nm_dst="$_nm_root/$(basename "$_nm_src")"
		if [ -e "$_nm_dst" ]; then
			_notmuch_fail "'$_nm_dst' exists already (two maildirs with one name?)"
			return 1
		fi
		cp -R "$_nm_src" "$_nm_dst" ||
			{ _notmuch_fail "cannot copy '$_nm_src'"; return 1; }
	done

	# Every directory holding a cur/ or new/ is a maildir and needs all
	# three: notmuch and mail clients expect them, git does not keep them.
	find "$_nm_root" -type d \( -name cur -o -name new -o -name tmp \) \
		! -path '*/.notmuch/*' | while read -r _nm_sub; do
		_nm_md=$(dirname "$_nm_sub")
		mkdir -p "$_nm_md/cur" "$_nm_md/new" "$_nm_md/tmp"
	done

	mkdir -p "$(dirname "$NOTMUCH_CONFIG")" &&
	cat >"$NOTMUCH_CONFIG" <<-EOF || { _notmuch_fail "cannot write '$NOTMUCH_CONFIG'"; return 1; }
	[database]
	path=$_nm_root

	[user]
	name=Rita Reviewer
	primary_email=rita@example.org

	[new]
	tags=unread;inbox;
	ignore=

	[search]
	exclude_tags=deleted;spam;

	[maildir]
	synchronize_flags=true
	EOF

	if ! _nm_out=$("$_nm" new --quiet 2>&1); then
		_notmuch_fail "'notmuch new' failed in '$_nm_root':"
		printf '%s\n' "$_nm_out" | sed 's/^/setup_notmuch:   /' >&2
		return 1
	fi
	return 0
}
