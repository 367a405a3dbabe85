#!/bin/sh
# Real mutt in tmux on a 24-line screen, with contrib/fixscan.muttrc: the
# review key ,r shows the short report (one line per flagged patch, most
# serious first) and the drafts written, paged by less so nothing
# scrolls away; q leaves the pager, the drafts are in the drafts folder.
# One sent from mutt leaves "tag:draft and tag:fixscan" (the unsent ones).
# The sample maildirs as the demo copies them (scripts/demo.sh) have
# new/ and tmp/: mutt opens them as mailboxes.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

for tool in mutt tmux notmuch less; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "# skipped: '$tool' is not installed (scripts/deps.sh --test installs it)"
		test_done
	fi
done

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo "$TRASH/kernel" >/dev/null || exit 1
git config --global fixscan.repo "$TRASH/kernel" || exit 1
mkdir -p bin
# The tmux server's environment is not ours: the wrapper names what the
# binary needs; the pager is less, as for a user (LESS unset: FRX).
cat >bin/fixscan <<WRAP
#!/bin/sh
export HOME='$HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME'
export XDG_STATE_HOME='$XDG_STATE_HOME'
export NOTMUCH_CONFIG='$NOTMUCH_CONFIG' GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}'
unset FIXSCAN_PAGER PAGER LESS
echo "\$*" >>'$TRASH/fixscan-calls'
'$FIXSCAN' "\$@" 2>>'$TRASH/fixscan-stderr'
rc=\$?
echo "exit \$rc" >>'$TRASH/fixscan-calls'
exit \$rc
WRAP
chmod +x bin/fixscan
cat >bin/fake-sendmail <<SENDMAIL
#!/bin/sh
cat >>'$TRASH/sent.mbox'
SENDMAIL
chmod +x bin/fake-sendmail
mkdir -p mail/Sent/cur mail/Sent/new mail/Sent/tmp

cat >muttrc <<MUTTRC
set folder="$TRASH/mail"
set spoolfile="$TRASH/mail/review-4.4"
set mbox_type=Maildir
set sort=date
set mailcap_path=/dev/null
set header_cache=""
set postponed="$TRASH/mail/Drafts"
set record="$TRASH/mail/Sent"
set sendmail="$TRASH/bin/fake-sendmail"
set recall=yes
set editor=true
set mark_old=no
set help=no
set move=no
set quit=yes
set beep=no
set sleep_time=0
source "$SRC/contrib/fixscan.muttrc"
MUTTRC

SOCK="fixscan-t0715-$$"
tm() { tmux -L "$SOCK" "$@"; }
trap 'tmux -L "$SOCK" kill-server >/dev/null 2>&1' EXIT INT TERM

wait_screen() {
	n=0
	limit=$(( ${2:-20} * 10 ))
	while [ $n -lt $limit ]; do
		if tm capture-pane -p -t mutt 2>/dev/null | grep -q -- "$1"; then
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	echo "timed out waiting for '$1'; the screen:"
	tm capture-pane -p -t mutt 2>/dev/null | grep -v '^$'
	return 1
}

# The short report as review --short prints it, for comparison: its
# first flagged patch is the most serious one (the line's start: check
# wraps at 78 columns, review at the terminal's).
"$FIXSCAN" review --repo kernel --short "path:review-4.4/**" >short.txt 2>/dev/null
first=$(grep -m1 '^[0-9][0-9]/27 ' short.txt | cut -c1-30)
nflagged=$(grep -c '^[0-9][0-9]/27 ' short.txt)

test_expect_success 'the sample has more flagged patches than a 24-line screen' '
	test -n "$first" && test "$nflagged" -gt 20
'
test_expect_success 'mutt starts on the sample maildir (24 lines)' '
	tm new-session -d -s mutt -x 100 -y 24 \
		"env PATH=$TRASH/bin:$PATH TERM=xterm HOME=$HOME mutt -n -F $TRASH/muttrc" &&
	wait_screen "4.4.7-stable review" &&
	! tm capture-pane -p -t mutt | grep -q "(no mailbox)"
'
test_expect_success ',r on the cover pages the short report: the most serious patch on top' '
	tm send-keys -t mutt "=" &&
	sleep 0.2 &&
	tm send-keys -t mutt -l ",r" &&
	wait_screen "^review: \[PATCH 4.4 00/27\]" 60 &&
	sleep 0.5 &&
	tm capture-pane -p -t mutt >page1 &&
	cat page1 &&
	sed -n 6p page1 | grep -qF "$first" &&
	head -1 page1 | grep -q "^review: \[PATCH 4.4 00/27\] 4.4.7-stable review" &&
	grep -q "^check --thread --drafts --short\$" fixscan-calls &&
	! grep -q "Press any key" page1
'
test_expect_success 'in the pager: the drafts written at the end, one line per kind' '
	tm send-keys -t mutt G &&
	wait_screen "^draft: in " &&
	tm capture-pane -p -t mutt >page2 &&
	cat page2 &&
	grep -q "^draft: wrote [0-9]*: 00/27 03/27 07/27" page2 &&
	grep -q "^draft: in $TRASH/mail/Drafts\$" page2 &&
	! grep -q "^draft: wrote .*Drafts/cur" page2
'
test_expect_success 'q leaves the pager, mutt waits for a key, the drafts are there' '
	tm send-keys -t mutt q &&
	wait_screen "Press any key to continue" &&
	n=0 && while ! grep -q "^exit " fixscan-calls && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
	grep -qx "exit 1" fixscan-calls &&
	test "$(ls mail/Drafts/cur | wc -l)" -ge 10 &&
	touch fixscan-stderr && ! grep . fixscan-stderr
'
# A draft sent from mutt: its copy in Sent keeps the draft's Message-Id,
# and notmuch sees a rename.  With maildir.synchronize_flags (notmuch's
# default) the copy, flagged S and not D, loses the draft tag and keeps
# fixscan: "tag:draft and tag:fixscan" lists the unsent drafts only, as
# fixscan.muttrc and fixscan-review(1) say.
test_expect_success 'recall the draft for 03 and send it' '
	tm send-keys -t mutt Enter &&
	sleep 0.3 &&
	tm send-keys -t mutt R &&
	wait_screen "Postponed Messages" &&
	tm send-keys -t mutt "/" &&
	tm send-keys -t mutt -l "counters offset in compat mode" &&
	tm send-keys -t mutt Enter &&
	sleep 0.2 &&
	tm send-keys -t mutt Enter &&
	wait_screen "Fcc:" &&
	tm send-keys -t mutt y &&
	n=0 && while [ ! -s sent.mbox ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
	grep -q "^Subject: Re: \[PATCH 4.4 03/27\]" sent.mbox &&
	n=0 && while [ -z "$(ls mail/Sent/cur mail/Sent/new)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done &&
	test "$(find mail/Sent/cur mail/Sent/new -type f | wc -l)" -eq 1
'
test_expect_success 'after notmuch new: tag:draft and tag:fixscan lists the unsent drafts only' '
	test "$(notmuch config get maildir.synchronize_flags)" = true &&
	notmuch new --quiet &&
	mid=$(sed -n "s/^Message-I[dD]: *<\(.*\)>.*/\1/p" sent.mbox | head -1) &&
	test -n "$mid" &&
	notmuch search --output=files "id:$mid" >sentfiles &&
	test "$(wc -l <sentfiles)" -eq 1 && grep -q "/mail/Sent/" sentfiles &&
	notmuch search --output=tags "id:$mid" >senttags &&
	grep -qx fixscan senttags && ! grep -qx draft senttags &&
	test "$(notmuch count "tag:draft and tag:fixscan")" -eq "$(find mail/Drafts/cur mail/Drafts/new -type f | wc -l)" &&
	test "$(notmuch count "tag:fixscan and not tag:draft")" -eq 1
'
test_expect_success 'mutt quits' '
	tm send-keys -t mutt Enter &&
	sleep 0.3 &&
	tm send-keys -t mutt q &&
	n=0 &&
	while tm has-session -t mutt 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1; n=$((n + 1))
		# after sending, Enter opened a mail: q leaves it first
		[ $n -ne 20 ] || tm send-keys -t mutt q
	done &&
	! tm has-session -t mutt 2>/dev/null
'
test_done
