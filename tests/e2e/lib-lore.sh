# A real public-inbox for an e2e script, sourced after lib.sh: the
# engine of lore.kernel.org (Debian 12's public-inbox 1.9) serving inboxes
# of the script's mails on loopback.  lore-server.sh does the work and
# says, in its comments, what the server answers to what.
#
#   lore_inbox NAME FILE...  an inbox NAME of these mail files (before
#                            lore_start)
#   lore_start               the extindex "all" and the server, started
#                            once per script; sets LORE_ROOT
#                            (http://127.0.0.1:PORT/) and LORE_URL (its
#                            extindex, LORE_ROOT/all/); the server is
#                            stopped at the script's exit, whatever the
#                            way out
#   lore_requests            the searches the server was sent so far
#   lore_stop                stop it now (it cannot be started again)
#   lore_mail FILE MSGID SUBJECT [FROM] [DATE]  write a mail to FILE, its
#                            body from standard input
#
# A script that sources this file is skipped (all passes, says why) when
# public-inbox is not installed: scripts/deps.sh --test installs it.

LORE_DIR="$TRASH/lore"
LORE_SERVER="$SRC/tests/e2e/lore-server.sh"
LORE_ROOT=
LORE_URL=

if ! command -v public-inbox-httpd >/dev/null 2>&1; then
	echo "# skipped: public-inbox is not installed (scripts/deps.sh --test installs it)"
	test_done
fi

lore_inbox() {
	sh "$LORE_SERVER" inbox "$LORE_DIR" "$@"
}

lore_stop() {
	[ -f "$LORE_DIR/httpd.pid" ] && sh "$LORE_SERVER" stop "$LORE_DIR"
	return 0
}

lore_start() {
	trap 'lore_stop' EXIT
	trap 'lore_stop; exit 130' INT TERM HUP
	LORE_ROOT=$(sh "$LORE_SERVER" start "$LORE_DIR") || {
		echo "# lore-server.sh could not start public-inbox-httpd" >&2
		return 1
	}
	LORE_URL="${LORE_ROOT}all/"
	export LORE_ROOT LORE_URL
}

lore_requests() {
	sh "$LORE_SERVER" requests "$LORE_DIR"
}

lore_mail() {
	{
		printf 'From: %s\n' "${4:-Lore Poster <poster@example.org>}"
		printf 'To: list@lists.example.org\n'
		printf 'Subject: %s\n' "$3"
		printf 'Date: %s\n' "${5:-Mon, 12 Feb 2024 10:00:00 +0000}"
		printf 'Message-Id: <%s>\n' "$2"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		cat
	} >"$1"
}
