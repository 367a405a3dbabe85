#!/bin/sh
# A real public-inbox (Debian 12's public-inbox 1.9, the engine of
# lore.kernel.org) on loopback, for the tests and make demo: inboxes made
# of given mail files, an extindex "all" over them, public-inbox-httpd
# serving both.  Used by tests/e2e/lib-lore.sh, the unit tests of
# lib/mail/archive.c and lib/review/listmail.c and scripts/demo.sh.
#
# usage: lore-server.sh inbox DIR NAME FILE...  an inbox NAME of the mails
#            (one file each), indexed; DIR is made when missing
#        lore-server.sh start DIR   the extindex, then the server on a free
#            port; prints its root URL "http://127.0.0.1:PORT/" (the
#            inbox NAME is at ROOT/NAME/, the extindex at ROOT/all/)
#        lore-server.sh run DIR     the same, the server in the foreground
#            (this process becomes it); its log DIR/httpd.log says the
#            port ("# bound http://127.0.0.1:PORT")
#        lore-server.sh stop DIR    stop the server (by its PID)
#        lore-server.sh requests DIR  how many searches it was sent
#
# Everything lives under DIR (the public-inbox config, the inboxes, the
# access log); nothing outside it is read or written (PI_CONFIG, PI_DIR).
#
# How the inboxes are made: public-inbox-init -V2 -L full (full: phrase
# search, as lore), then one git commit per mail on refs/heads/master of
# the inbox's git/0.git, each commit's tree one blob "m" holding the
# mail (the v2 layout), written with git fast-import; then
# public-inbox-index, and once every inbox is made, public-inbox-extindex
# --all.  For 20 mails: about 0.3 s an inbox, 0.6 s the extindex, the
# server ready 0.1 s after it starts.
#
# What the server does (found by experiment on 1.9, and in its sources
# PublicInbox/Mbox.pm, Search.pm, SearchIdx.pm, HTTP.pm):
# - A search is "POST BASE?q=QUERY&x=m", no body (the query in the URL,
#   '+' or %20 for a space).  Found: 200, Content-Type application/gzip,
#   chunked (no Content-Length), the body gzip'd mboxrd: each mail after
#   "From mboxrd@z Thu Jan  1 00:00:00 1970", its body lines "From " and
#   ">From " quoted as ">From " and ">>From ".  Every hit comes, newest
#   indexed first (Xapian docid descending, read 50 at a time): there is
#   no limit on the hits of one request.  A GET of the same URL answers a
#   web page (200, text/html), never the mbox.
# - Nothing found, and a query Xapian cannot parse ("nq:(", an unclosed
#   quote), both answer 404, text/plain "No results found\n".  An unknown
#   inbox answers 404 "Not Found".
# - A wildcard expanding to more than 100 terms ("nq:1*") makes the whole
#   request fail: 500 Internal Server Error (set_max_wildcard_expansion
#   100, in the server's log "Wildcard XNQ1* expands to more than 100
#   terms").  A 12-hex-digit prefix never comes near it.
# - A request head larger than 16 KiB (its reads go 8 KiB at a time, so
#   about 24 KiB in practice) is refused with 400 before any search.
# - Prefixes: nq: is the body without quoted text (lines starting with
#   '>'), and the diff's lines and file names; q: the quoted text only;
#   b: both; s: the subject; mid: the Message-Id exactly, without <>
#   ("mid:<x@y>" finds nothing); m: the same, probabilistic; dfn: a file
#   name of the diff ("dfn:frob" and "dfn:drivers/usb/frob.c" both find a
#   diff of drivers/usb/frob.c); dfa:/dfb: removed/added lines; d: a date
#   range of the Date header (d:20231201..20240201, d:20240201..,
#   d:..20230101); words without a prefix search subject, body, names.
#   Several words: AND; OR, NOT, AND NOT and parentheses as Xapian has
#   them ("s:autosel NOT s:re" finds the postings, not the replies).
# - Hex ids are words: "nq:1234567890ab" finds the 12-digit word only,
#   not a 40-digit id that begins with it; "nq:1234567890ab*" finds every
#   form of 12 digits or more; "nq:12345678" an 8-digit "Fixes: 12345678"
#   only.  Case does not matter (1234567890AB is found).  A hex word
#   inside punctuation is still a word: "(1234567890ab)",
#   "introduced:1234567890ab", "commit/7777777777ab/", "9999999999ab.".
#   Phrases hold: nq:"Fixes: 1234567890ab" finds that trailer only,
#   nq:"stable review patch" the stable maintainers' review mails ("6.18-
#   stable review patch.  If anyone has any objections...").
# - Subjects are words too: "[PATCH 6.1.y]" is 6.1 y, "[PATCH 4.4,4.9]"
#   4.4 4.9, "[PATCH AUTOSEL 6.18-6.1]" autosel 6.18 6.1; s:"stable tree"
#   finds the "Patch ... has been added to the 6.1-stable tree" and
#   "FAILED: patch ... failed to apply to 6.1-stable tree" notices.
# - Mail is served as it was posted: control characters (ESC, BEL) in a
#   Subject or body come back as they are.
# - The server's own log (stderr) begins "# bound http://127.0.0.1:PORT":
#   listening on port 0 lets the kernel pick a free port, and the log
#   says which.  Requests are logged only by a PSGI middleware: the app
#   lore-httpd.psgi logs each to DIR/access.log.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:?usage: lore-server.sh inbox|start|run|stop|requests DIR ...}
dir=${2:?usage: lore-server.sh $cmd DIR ...}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export PI_CONFIG="$dir/pi-config" PI_DIR="$dir/pi-dir"
# Loopback is never asked through a proxy.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy 2>/dev/null || true

# import GITDIR FILE...: one commit per mail, tree "m" the mail.
import() {
	gitdir=$1
	shift
	n=0
	for f in "$@"; do
		n=$((n + 1))
		printf 'commit refs/heads/master\n'
		printf 'committer lore-server <lore-server@example.org> %d +0000\n' $((1700000000 + n))
		printf 'data 0\nM 100644 inline m\ndata %d\n' "$(wc -c <"$f")"
		cat "$f"
		printf '\n'
	done | git --git-dir="$gitdir" fast-import --quiet
}

# alive PID: whether the process runs (is there, and no zombie).
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$state" ] && [ "$state" != Z ]
}

case $cmd in
inbox)
	name=${3:?usage: lore-server.sh inbox DIR NAME FILE...}
	shift 3
	public-inbox-init -V2 -L full "$name" "$dir/inboxes/$name" \
		"http://127.0.0.1/$name" "$name@lists.example.org" >/dev/null
	import "$dir/inboxes/$name/git/0.git" "$@"
	public-inbox-index --no-fsync --jobs=0 "$dir/inboxes/$name" >/dev/null
	;;
run)
	git config -f "$PI_CONFIG" extindex.all.topdir "$dir/all"
	git config -f "$PI_CONFIG" extindex.all.url "http://127.0.0.1/all"
	public-inbox-extindex --no-fsync --jobs=0 --all "$dir/all" >/dev/null
	: >"$dir/access.log"
	LORE_ACCESS_LOG="$dir/access.log" exec public-inbox-httpd -W0 -l 127.0.0.1:0 \
		"$here/lore-httpd.psgi" </dev/null >"$dir/httpd.log" 2>&1
	;;
start)
	: >"$dir/httpd.log"
	sh "$0" run "$dir" &
	echo $! >"$dir/httpd.pid"
	tries=0
	until port=$(sed -n 's|^# bound http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$dir/httpd.log") &&
		[ -n "$port" ]; do
		tries=$((tries + 1))
		if [ $tries -gt 200 ] || ! alive "$(cat "$dir/httpd.pid")"; then
			echo "lore-server.sh: public-inbox-httpd did not start:" >&2
			cat "$dir/httpd.log" >&2
			kill "$(cat "$dir/httpd.pid")" 2>/dev/null || true
			rm -f "$dir/httpd.pid"
			exit 1
		fi
		sleep 0.05
	done
	echo "http://127.0.0.1:$port/" | tee "$dir/url"
	;;
stop)
	if [ -f "$dir/httpd.pid" ]; then
		pid=$(cat "$dir/httpd.pid")
		kill "$pid" 2>/dev/null || true
		# Wait for it to go (a zombie waiting for init to reap it has
		# gone), so nothing outlives the test.
		tries=0
		while alive "$pid" && [ $tries -lt 100 ]; do
			tries=$((tries + 1))
			sleep 0.05
		done
		alive "$pid" && kill -9 "$pid" 2>/dev/null || true
		rm -f "$dir/httpd.pid"
	fi
	;;
requests)
	grep -c '^POST [^ ]*[?&]x=m' "$dir/access.log" || true
	;;
*)
	echo "lore-server.sh: unknown command '$cmd'" >&2
	exit 2
	;;
esac
