#!/bin/sh
# Real mutt in tmux, with contrib/fixscan.muttrc: the check key on a
# patch with a missing fix shows that finding, the review key writes
# drafts into the drafts maildir; the draft for 03, recalled and sent
# (to a fake sendmail, a copy in Sent/), goes out without anything of
# fixscan's in its headers, quoting only patch 03, Cc the replier it
# cites, within 72 columns, and is not written again.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

for tool in mutt tmux notmuch; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "# skipped: '$tool' is not installed (scripts/deps.sh --test installs it)"
		test_done
	fi
done

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo "$TRASH/kernel" >/dev/null || exit 1
# The macros run a plain "fixscan check": the repository comes from git
# config, the binary under test from PATH.
git config --global fixscan.repo "$TRASH/kernel" || exit 1
mkdir -p bin
# The tmux server's environment is not ours: name everything the binary
# needs (the sanitizer settings too) in the wrapper.
cat >bin/fixscan <<WRAP
#!/bin/sh
export HOME='$HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME'
export XDG_STATE_HOME='$XDG_STATE_HOME'
export NOTMUCH_CONFIG='$NOTMUCH_CONFIG' GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}'
echo "\$*" >>'$TRASH/fixscan-calls'
'$FIXSCAN' "\$@" 2>>'$TRASH/fixscan-stderr'
rc=\$?
echo "exit \$rc" >>'$TRASH/fixscan-calls'
exit \$rc
WRAP
chmod +x bin/fixscan
# What mutt sends goes to a file, not to anyone.
cat >bin/fake-sendmail <<SENDMAIL
#!/bin/sh
cat >>'$TRASH/sent.mbox'
SENDMAIL
chmod +x bin/fake-sendmail
mkdir -p mail/Sent/cur mail/Sent/new mail/Sent/tmp

drafts=$("$FIXSCAN" check --help | grep -c -- '--drafts')
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

SOCK="fixscan-t0710-$$"
tm() { tmux -L "$SOCK" "$@"; }
# Always stop our own tmux server (and only it), whatever happens.
trap 'tmux -L "$SOCK" kill-server >/dev/null 2>&1' EXIT INT TERM

# Wait up to $2 seconds (default 20) until the screen shows $1.
wait_screen() {
	n=0
	limit=$(( ${2:-20} * 10 ))
	while [ $n -lt $limit ]; do
		if tm capture-pane -p -t mutt -S - 2>/dev/null | grep -q -- "$1"; then
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	echo "timed out waiting for '$1'; the screen:"
	tm capture-pane -p -t mutt -S - 2>/dev/null | grep -v '^$'
	return 1
}

# Recall the postponed draft whose subject has $1 and wait for mutt's
# compose menu (the history cleared first: an earlier screen says so).
recall() {
	tm clear-history -t mutt &&
	tm send-keys -t mutt R &&
	wait_screen "Postponed Messages" &&
	tm send-keys -t mutt "/" &&
	tm send-keys -t mutt -l "$1" &&
	tm send-keys -t mutt Enter &&
	sleep 0.2 &&
	tm clear-history -t mutt &&
	tm send-keys -t mutt Enter &&
	wait_screen "Fcc:"
}

# Wait until the fixscan run the wrapper logged as call $1 has ended.
wait_exit() {
	n=0
	while [ $n -lt 600 ]; do
		[ "$(grep -c '^exit ' fixscan-calls 2>/dev/null)" -ge "$1" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	echo "timed out waiting for fixscan run $1 to end"
	return 1
}

fixid=$(python3 -c '
import json
a = json.load(open("kernel/answers.json"))["threads"]["review-4.4"]
for p in a["patches"]:
    if p["index"] == 3:
        print([e["commit"] for e in p["expected"] if e["kind"] == "fix-missing"][0][:12])
')

test_expect_success 'mutt starts on the sample maildir' '
	tm new-session -d -s mutt -x 100 -y 50 \
		"env PATH=$TRASH/bin:$PATH TERM=xterm HOME=$HOME mutt -n -F $TRASH/muttrc" &&
	wait_screen "4.4.7-stable review"
'
test_expect_success 'search for patch 03 and press the check key' '
	tm send-keys -t mutt "/" &&
	tm send-keys -t mutt -l "counters offset in compat mode" &&
	tm send-keys -t mutt Enter &&
	sleep 0.2 &&
	tm send-keys -t mutt -l ",c" &&
	wait_exit 1 &&
	wait_screen "Press any key to continue"
'
test_expect_success 'the pager shows the missing fix of patch 03' '
	tm capture-pane -p -t mutt -S - >screen1 &&
	grep "fix-missing $fixid" screen1 &&
	grep "^03/27 netfilter: x_tables: check the counters offset" screen1 &&
	grep -q "^check\$" fixscan-calls &&
	grep -q "^exit 1\$" fixscan-calls
'
test_expect_success 'the output fits 80 columns' '
	sed -n "/^review:/,/^summary:/p" screen1 >out1 &&
	test -s out1 &&
	! awk "length > 79" out1 | grep .
'
if [ "$drafts" -gt 0 ]; then
	test_expect_success 'the review key writes drafts into the drafts maildir' '
		tm send-keys -t mutt Enter &&
		sleep 0.3 &&
		tm send-keys -t mutt -l ",r" &&
		wait_exit 2 &&
		wait_screen "Press any key to continue" &&
		grep -q "^check --thread --drafts --short\$" fixscan-calls &&
		ls "$TRASH"/mail/Drafts/cur/* >files &&
		grep -l "^In-Reply-To: <" $(cat files) >drafts &&
		test "$(wc -l <drafts)" -ge 2 &&
		test "$(notmuch count tag:draft and tag:fixscan)" -ge 2
	'
	test_expect_success 'recall the draft for 03 and send it' '
		tm send-keys -t mutt Enter &&
		sleep 0.3 &&
		recall "counters offset in compat mode" &&
		tm send-keys -t mutt y &&
		n=0 && while [ ! -s sent.mbox ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done &&
		test -s sent.mbox &&
		grep -q "^Subject: Re: \[PATCH 4.4 03/27\]" sent.mbox &&
		test "$(find mail/Sent/cur mail/Sent/new -type f | wc -l)" -eq 1
	'
	test_expect_success 'what mutt sent carries nothing of fixscan'"'"'s' '
		! grep -i "^X-Fixscan" sent.mbox &&
		! grep -ri "^X-Fixscan" mail/Sent &&
		sed "/^\$/q" sent.mbox >sent.head &&
		! grep -i "fixscan" sent.head &&
		grep -q "^Message-I[dD]: <[0-9]\{14\}\.[0-9a-f]\{16\}@example\.org>" sent.head
	'
	# What went out, on the points of issue 30: quotes are lines of
	# patch 03, the replier it cites is in Cc, the fix is asked for in
	# this reply only, 72 columns.
	test_expect_success '... quotes only patch 03, Cc the replier it cites, fits 72 columns' '
		"$FIXSCAN" review --json "path:review-4.4/**" >review.json 2>/dev/null
		python3 "$SRC/tests/e2e/draft-check.py" --review review.json "$TRASH/mail" sent.mbox &&
		python3 - "$fixid" <<-\PY
		import email, email.policy, email.utils, sys
		m = email.message_from_binary_file(open("sent.mbox", "rb"), policy=email.policy.default)
		b = m.get_body().get_content()
		cc = [a for _, a in email.utils.getaddresses([str(m["To"]), str(m["Cc"])])]
		assert "dorlov@example.com" in cc, cc
		assert "> commit 404cd27d8378" in b, b
		assert "> netfilter:" not in b, b
		assert "objected" not in b, b
		assert sys.argv[1] in b and "Please queue it as well." in b, b
		PY
	'
	test_expect_success '... and ends like a person'"'"'s mail: Thanks, and the name' '
		python3 -c "
import email
m = email.message_from_binary_file(open(\"sent.mbox\", \"rb\"))
b = m.get_payload(decode=True).decode()
assert b.endswith(\"\nThanks,\nRita Reviewer\n\"), b[-60:]
"
	'
	# A draft recalled, edited and postponed again is neither an answer
	# nor a draft of the reviewer's own to write beside: the next run
	# knows it (mutt keeps its Message-Id) as fixscan's, edited.
	cat >bin/append-edit <<-\EDIT
	#!/bin/sh
	printf '\nI tried this on arm64 as well.\n' >>"$1"
	EDIT
	chmod +x bin/append-edit
	test_expect_success 'recall the draft for 07, edit it and postpone it' '
		f7=$(grep -l "^Subject: Re: \[PATCH 4.4 07/27\]" mail/Drafts/cur/*) &&
		test -n "$f7" &&
		sleep 0.3 &&
		tm send-keys -t mutt Enter &&
		sleep 0.3 &&
		tm send-keys -t mutt q &&
		sleep 0.3 &&
		tm send-keys -t mutt C-l &&
		recall "transaction state on signal" &&
		tm send-keys -t mutt -l ":set editor=$TRASH/bin/append-edit" &&
		tm send-keys -t mutt Enter &&
		sleep 0.3 &&
		tm send-keys -t mutt e &&
		sleep 1 &&
		tm send-keys -t mutt P &&
		n=0 &&
		while { [ -e "$f7" ] || ! grep -qs "I tried this on arm64" mail/Drafts/cur/* mail/Drafts/new/*; } &&
		      [ $n -lt 100 ]; do
			sleep 0.1; n=$((n + 1))
		done &&
		test ! -e "$f7" &&
		g=$(grep -ls "^Subject: Re: \[PATCH 4.4 07/27\]" mail/Drafts/cur/* mail/Drafts/new/*) &&
		test "$(echo "$g" | wc -l)" -eq 1 &&
		grep -q "I tried this on arm64 as well" $g
	'
	test_expect_success '... no second draft for 07, and 07 is not taken as answered' '
		notmuch new --quiet &&
		"$FIXSCAN" review --drafts "path:review-4.4/**" >/dev/null 2>post.err
		cat post.err &&
		grep -q "^draft: unchanged, edited by you: .*(re: 07/27" post.err &&
		! grep -q "^draft: wrote.*(re: 07/" post.err &&
		! grep -q "^draft: kept.*(re: 07/" post.err &&
		test "$(grep -ls "^Subject: Re: \[PATCH 4.4 07/27\]" mail/Drafts/cur/* mail/Drafts/new/* | wc -l)" -eq 1
	'
	test_expect_success 'after notmuch new, no draft for 03 is written again' '
		notmuch new --quiet &&
		"$FIXSCAN" review --drafts "path:review-4.4/**" >/dev/null 2>again.err
		cat again.err &&
		! grep -v "^draft: " again.err &&
		! grep -q "^draft: wrote" again.err &&
		! grep -q "(re: 03/" again.err &&
		grep -q "^draft: skipped 1 you answered already$" again.err
	'
else
	echo "# skipped the review key: 'fixscan check' has no --drafts yet"
fi
test_expect_success 'fixscan said nothing on stderr, exited 1 (findings) each time' '
	touch fixscan-stderr &&
	! grep . fixscan-stderr &&
	! grep -v "^exit 1\$" fixscan-calls | grep "^exit"
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
# The dry-run mbox, opened by mutt -f: as many messages as fixscan
# printed (and as Python's mailbox reads).
"$FIXSCAN" review --dry-run "path:review-4.4/**" >dry.mbox 2>/dev/null
ndry=$(python3 -c 'import mailbox; print(len(mailbox.mbox("dry.mbox")))')
cat >muttrc-f <<MUTTRC
set folder="$TRASH"
set mbox_type=mbox
set spoolfile="$TRASH/dry.mbox"
set record=""
set postponed="$TRASH/postponed"
set header_cache=""
set mailcap_path=/dev/null
set help=no
set quit=yes
set beep=no
set sleep_time=0
set status_format="fixscan-count=%m fixscan-end"
MUTTRC
test_expect_success 'mutt -f opens the dry-run mbox' '
	test "$ndry" -gt 2 &&
	test "$(grep -c "^From " dry.mbox)" -eq "$ndry" &&
	tm new-session -d -s muttf -x 100 -y 50 \
		"env TERM=xterm HOME=$HOME mutt -n -F $TRASH/muttrc-f -R -f $TRASH/dry.mbox" &&
	n=0 &&
	until tm capture-pane -p -t muttf 2>/dev/null | grep -q "fixscan-count=[0-9]* fixscan-end"; do
		[ $n -lt 200 ] || { tm capture-pane -p -t muttf; exit 1; }
		sleep 0.1; n=$((n + 1))
	done
'
test_expect_success '... and counts as many messages as fixscan wrote' '
	tm capture-pane -p -t muttf >screenf &&
	grep -q "fixscan-count=$ndry fixscan-end" screenf &&
	grep -q "Re: \[PATCH 4.4 00/27\] 4.4.7-stable review" screenf
'
test_expect_success '... and quits' '
	tm send-keys -t muttf q &&
	n=0 &&
	while tm has-session -t muttf 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done &&
	! tm has-session -t muttf 2>/dev/null
'
test_done
