#!/bin/sh
# Install the Debian 12 packages fixscan needs to build and test, and only
# those that are missing.  As root it runs apt-get itself, otherwise it uses
# sudo when that works without a password, otherwise it prints the exact
# command to run and fails.
#
# usage: scripts/deps.sh [--test|--bench|--demo]
#   --test adds what only the tests need, --bench what only make bench
#   needs (its timing tools and libsqlite3 for the SQLite comparison),
#   --demo what make demo needs (public-inbox, the local lore it serves).
set -eu

build_pkgs="gcc make pkg-config git python3 libgmime-3.0-dev libgit2-dev libpcre2-dev
libnotmuch-dev notmuch libjson-glib-dev libcmocka-dev zlib1g-dev libdeflate-dev
libcurl4-openssl-dev"
# public-inbox: the tests search a real public-inbox (lore's engine)
# served on loopback.
test_pkgs="mandoc mutt tmux less zsh python3 time universal-ctags clang libclang-rt-14-dev
public-inbox"
bench_pkgs="python3 time libsqlite3-dev public-inbox"
demo_pkgs="python3 public-inbox"

pkgs=$build_pkgs
case "${1:-}" in
--test) pkgs="$build_pkgs $test_pkgs" ;;
--bench) pkgs="$build_pkgs $bench_pkgs" ;;
--demo) pkgs="$build_pkgs $demo_pkgs" ;;
esac

missing=""
for p in $pkgs; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$s" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo"
else
	echo "deps.sh: missing packages:$missing" >&2
	echo "deps.sh: run as root: $line" >&2
	exit 1
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if the first
# attempt cannot find a package.
$sudo $line >/dev/null 2>&1 || {
	$sudo apt-get update -qq
	$sudo $line
}
