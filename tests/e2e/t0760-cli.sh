#!/bin/sh
# The command line behaves as git and notmuch do: help opens the man page,
# a mistyped command gets a suggestion, -C changes directory, a reader
# that goes away is no error, and the bash completion offers commands,
# options and values.
. "$(dirname "$0")/lib.sh"

test_expect_code 2 'a mistyped command: one error line, then the nearest command' '
	"$FIXSCAN" reveiw x 2>err;
	rc=$?;
	printf "%s\n" "fixscan: '"'"'reveiw'"'"' is not a command (see '"'"'fixscan --help'"'"')" "" \
		"The most similar command is" "	review" >expect &&
	test_cmp expect err && exit $rc; exit 99
'
test_expect_code 2 'two equally near commands are both named; a far word gets none' '
	"$FIXSCAN" s 2>err1;
	grep -q "^The most similar commands are\$" err1 &&
	grep -q "^	show\$" err1 && grep -q "^	stats\$" err1 &&
	"$FIXSCAN" frobnicate 2>err2;
	rc=$?; test "$(wc -l <err2)" -eq 1 && exit $rc; exit 99
'
test_expect_success 'help COMMAND shows the man page when man has it' '
	if command -v man >/dev/null 2>&1; then
		mkdir -p mp/man1 && cp "$SRC"/man/*.1 mp/man1/ &&
		MANPATH="$TRASH/mp" MANPAGER=cat PAGER=cat "$FIXSCAN" help review >page &&
		grep -q "fixscan-review - " page
	fi
'
test_expect_success '... and the --help text without man or without the page' '
	mkdir -p nobin && ln -s "$(command -v sh)" nobin/sh &&
	PATH="$TRASH/nobin" "$FIXSCAN" help review >h1 &&
	"$FIXSCAN" review --help >h2 && test_cmp h2 h1 &&
	MANPATH="$TRASH/empty" "$FIXSCAN" help stats >h3 &&
	"$FIXSCAN" stats --help >h4 && test_cmp h4 h3
'
test_expect_success 'help alone is the general usage' '
	"$FIXSCAN" help >u1 && "$FIXSCAN" --help >u2 && test_cmp u1 u2 &&
	grep -q "^usage: fixscan" u1
'
test_expect_success '-C PATH runs as if started there' '
	mkdir -p sub && cp "$SRC/tests/data/mail/qp.eml" sub/ &&
	"$FIXSCAN" -C sub parse qp.eml >c1 &&
	(cd sub && "$FIXSCAN" parse qp.eml) >c2 && test_cmp c2 c1
'
python3 "$SRC/scripts/gen-kernel.py" sample kernel >/dev/null 2>&1 || exit 1
test_expect_success 'fixscan.repo = ~/path is expanded, as git expands path keys' '
	cp -r kernel "$HOME/kernel" &&
	git config --global fixscan.repo "~/kernel" &&
	"$FIXSCAN" index --no-progress >idx.out 2>&1;
	rc=$?; git config --global --unset fixscan.repo;
	test $rc -eq 0 && grep -q ": $HOME/kernel\$" idx.out
'
test_expect_success 'a fixscan.repo that names no directory: one line naming the key, exit 2' '
	git config --global fixscan.repo "$TRASH/no-such-kernel" &&
	"$FIXSCAN" index --no-progress >bad.out 2>bad.err;
	rc=$?; git config --global --unset fixscan.repo;
	test $rc -eq 2 && test "$(wc -l <bad.err)" -eq 1 &&
	grep -q "^fixscan: fixscan.repo names .*no-such-kernel.: No such file or directory\$" bad.err
'
# Which repository: --repo, else the current directory's when it is a
# kernel tree (-C moves there first), else fixscan.repo; a repository
# that is not a kernel tree is refused, saying why.
git init -q notkernel &&
git -C notkernel -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m first &&
mkdir -p notkernel/sub kernel/sub/dir || exit 1
test_expect_success 'the current directory'"'"'s kernel tree wins over fixscan.repo, as for git' '
	git config --global fixscan.repo "~/kernel" &&
	(cd kernel/sub/dir && "$FIXSCAN" index) >w1 &&
	grep -q ": $TRASH/kernel\$" w1 &&
	"$FIXSCAN" -C kernel index >w2 && grep -q ": $TRASH/kernel\$" w2 &&
	"$FIXSCAN" -C kernel/sub index >w3 && grep -q ": $TRASH/kernel\$" w3 &&
	(cd notkernel/sub && "$FIXSCAN" index) >w4 && grep -q ": $HOME/kernel\$" w4 &&
	"$FIXSCAN" -C notkernel index >w5 && grep -q ": $HOME/kernel\$" w5 &&
	"$FIXSCAN" -C kernel index --repo "$HOME/kernel" >w6 && grep -q ": $HOME/kernel\$" w6 &&
	(cd / && "$FIXSCAN" index) >w7 && grep -q ": $HOME/kernel\$" w7 &&
	git config --global --unset fixscan.repo
'
test_expect_code 2 'a repository with no release tags is refused, in one line that says why' '
	"$FIXSCAN" -C notkernel/sub index >out 2>err;
	rc=$?;
	echo "fixscan: $TRASH/notkernel: not a kernel tree: no release tags (v*)" >expect &&
	test_cmp expect err && test ! -s out && exit $rc; exit 99
'
test_expect_code 2 '... also with --repo, and by the commands that read the index' '
	"$FIXSCAN" show --repo notkernel HEAD >out 2>err;
	rc=$?;
	echo "fixscan: notkernel: not a kernel tree: no release tags (v*)" >expect &&
	test_cmp expect err && test ! -s out &&
	(cd notkernel && "$FIXSCAN" stats v4.4..linux-4.4.y) >out 2>err2;
	test $? -eq 2 && test "$(wc -l <err2)" -eq 1 && grep -q "not a kernel tree" err2 &&
	exit $rc; exit 99
'
test_expect_code 2 'release tags but no mainline ref: refused, naming fixscan.mainline' '
	git init -q nomain &&
	git -C kernel push -q ../nomain linux-4.4.y:refs/heads/linux-4.4.y "refs/tags/*:refs/tags/*" &&
	"$FIXSCAN" index --repo nomain >out 2>err;
	rc=$?; cat err;
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: nomain: not a kernel tree: no mainline ref .*fixscan.mainline" err &&
	git -C nomain config fixscan.mainline linux-4.4.y &&
	"$FIXSCAN" index --repo nomain >out2 && grep -q "^indexed" out2 &&
	exit $rc; exit 99
'
test_expect_success 'a command that builds or updates the index says so once, naming the repository' '
	cp -r kernel k2 && head=$(git -C k2 rev-parse HEAD) &&
	"$FIXSCAN" show --repo k2 "$head" >s1 2>e1 &&
	echo "fixscan: indexed k2: $(git -C k2 rev-list --exclude="refs/remotes/next/*" --all | wc -l) commits" >expect &&
	test_cmp expect e1 &&
	"$FIXSCAN" show --repo k2 "$head" >s2 2>e2 && test ! -s e2 &&
	git -C k2 -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m "one more" &&
	"$FIXSCAN" -C k2 stats v4.4..linux-4.4.y >s3 2>e3 &&
	echo "fixscan: indexed $TRASH/k2: 1 new commit" >expect &&
	test_cmp expect e3 &&
	"$FIXSCAN" -C k2 stats v4.4..linux-4.4.y >s4 2>e4 && test ! -s e4
'
if command -v script >/dev/null 2>&1; then
	test_expect_success 'an index build started by show draws the progress line on a terminal only' '
		head=$(git -C kernel rev-parse HEAD) &&
		rm -rf "$XDG_CACHE_HOME"/fixscan &&
		"$FIXSCAN" show --repo kernel "$head" >plain.out 2>plain.err &&
		! grep -q "indexing:" plain.err &&
		rm -rf "$XDG_CACHE_HOME"/fixscan &&
		script -qec "\"$FIXSCAN\" show --repo kernel $head" /dev/null >tty.out &&
		grep -q "indexing: [0-9]* commits" tty.out &&
		script -qec "\"$FIXSCAN\" show --repo kernel $head" /dev/null >tty2.out &&
		! grep -q "indexing:" tty2.out
	'
fi
if command -v script >/dev/null 2>&1; then
	test_expect_success 'on a terminal the output goes through the pager; not with --no-pager, not into a pipe' '
		head=$(git -C kernel rev-parse HEAD) &&
		FIXSCAN_PAGER="sed s/^/PAGED:/" script -qec "\"$FIXSCAN\" show --repo kernel $head" /dev/null >p1 &&
		grep -q "^PAGED:commit $head" p1 &&
		FIXSCAN_PAGER="sed s/^/PAGED:/" script -qec "\"$FIXSCAN\" --no-pager show --repo kernel $head" /dev/null >p2 &&
		grep -q "^commit $head" p2 && ! grep -q PAGED p2 &&
		FIXSCAN_PAGER="sed s/^/PAGED:/" "$FIXSCAN" show --repo kernel "$head" >p3 &&
		grep -q "^commit $head" p3 && ! grep -q PAGED p3 &&
		FIXSCAN_PAGER="sed s/^/PAGED:/" script -qec "\"$FIXSCAN\" check --repo kernel /dev/null" /dev/null >p4;
		! grep -q PAGED p4
	'
fi
. "$SRC/tests/e2e/lib-notmuch.sh"
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" >/dev/null 2>&1 &&
"$FIXSCAN" index --repo kernel >/dev/null 2>&1
esc=$(printf "\033")
test_expect_success '--color=always and never; color.ui and fixscan.color decide without it' '
	{ "$FIXSCAN" review --repo kernel --color=always "path:review-4.4/**" >c1; test $? -eq 1; } &&
	grep -q "$esc\[" c1 &&
	{ "$FIXSCAN" review --repo kernel --color=never "path:review-4.4/**" >c2; test $? -eq 1; } &&
	! grep -q "$esc" c2 &&
	git config --global color.ui always &&
	{ "$FIXSCAN" review --repo kernel "path:review-4.4/**" >c3; test $? -eq 1; } &&
	grep -q "$esc\[" c3 &&
	git config --global fixscan.color never &&
	{ "$FIXSCAN" review --repo kernel "path:review-4.4/**" >c4; test $? -eq 1; } &&
	! grep -q "$esc" c4 &&
	{ "$FIXSCAN" review --repo kernel --color "path:review-4.4/**" >c5; test $? -eq 1; } &&
	grep -q "$esc\[" c5 &&
	git config --global --unset color.ui && git config --global --unset fixscan.color &&
	{ "$FIXSCAN" review --repo kernel "path:review-4.4/**" >c6; test $? -eq 1; } &&
	! grep -q "$esc" c6
'
test_expect_code 2 '--color=sometimes is a usage error' '
	"$FIXSCAN" review --repo kernel --color=sometimes "path:review-4.4/**" >/dev/null 2>err;
	rc=$?; grep -q "^fixscan: review: --color takes always, never or auto" err && exit $rc; exit 99
'
# The other commands with text output colour as review does: check (the
# kinds), show (the commit line), stats (the headings), digest (the kinds).
cover=$(grep -l "^Subject: .*00/" "$TRASH"/mail/review-4.4/cur/* | head -n 1)
colored() {
	# colored CMD ARGS...: the output of fixscan CMD ARGS has a colour
	# code; its exit status is 0 or 1.
	{ "$FIXSCAN" "$@" >col.out 2>col.err; test $? -le 1; } || { cat col.err; return 2; }
	grep -q "$esc\[" col.out
}
for cmd in "check --repo kernel --thread $cover" "show --repo kernel $(git -C kernel rev-parse HEAD)" \
	"stats --repo kernel v4.4..linux-4.4.y" "digest --repo kernel --since 2016-01-01"; do
	name=${cmd%% *}
	test_expect_success "$name: --color, color.ui, fixscan.color and NO_COLOR as for review" '
		set -- $cmd &&
		colored "$@" --color=always && colored "$@" --color &&
		! colored "$@" --color=never && ! colored "$@" &&
		git config --global color.ui always && colored "$@" &&
		git config --global fixscan.color never && ! colored "$@" &&
		colored "$@" --color=always &&
		git config --global --unset color.ui && git config --global --unset fixscan.color &&
		if command -v script >/dev/null 2>&1; then
			{ script -qec "\"$FIXSCAN\" --no-pager $cmd" /dev/null >tty1; test $? -le 1; } &&
			grep -q "^[0-9a-z]" tty1 && ! grep -q "$esc\[" tty1 &&
			{ env -u NO_COLOR script -qec "\"$FIXSCAN\" --no-pager $cmd" /dev/null >tty2;
			  test $? -le 1; } &&
			grep -q "$esc\[" tty2
		fi
	'
	test_expect_code 2 "$name: --color=sometimes is a usage error" '
		set -- $cmd &&
		"$FIXSCAN" "$@" --color=sometimes >out 2>err;
		rc=$?; test "$(wc -l <err)" -eq 1 &&
		grep -q "^fixscan: $name: --color takes always, never or auto, not '"'"'sometimes'"'"'" err && exit $rc; exit 99
	'
done
# JSON: every date also in RFC 3339 UTC, as <key>_rfc3339 beside the
# date as written (null when there is none or it is no date).
test_expect_success 'JSON: each date has its <key>_rfc3339 twin in UTC' '
	{ "$FIXSCAN" review --repo kernel --json "path:review-4.4/**" >r.json; test $? -eq 1; } &&
	{ "$FIXSCAN" digest --repo kernel --json --since 2016-01-01 >dg.json; test $? -eq 1; } &&
	"$FIXSCAN" parse --json "$SRC/tests/data/mail/revert-folded.eml" "$cover" >p.json &&
	python3 - <<-\EOF
	import json, re
	from email.utils import parsedate_to_datetime
	import datetime
	def utc(s):
	    return parsedate_to_datetime(s).astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
	rfc = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
	r = json.loads(open("r.json").readline())
	assert r["deadline"] == "2016-04-26T01:44+00:00", r["deadline"]
	assert r["deadline_rfc3339"] == "2016-04-26T01:44:00Z", r["deadline_rfc3339"]
	dated = 0
	for p in r["patches"]:
	    for f in p["findings"]:
	        assert "date_rfc3339" in f, f
	        if f["date"]:
	            dated += 1
	            assert f["date_rfc3339"] == utc(f["date"]), f
	        else:
	            assert f["date_rfc3339"] is None, f
	assert dated > 0
	d = json.load(open("dg.json"))
	assert rfc.match(d["since"])
	for s in d["series"] + d["risky"]:
	    assert s["deadline_rfc3339"] == ("2016-04-26T01:44:00Z" if s["deadline"] else None), s
	for line in open("p.json"):
	    m = json.loads(line)
	    assert m["date_rfc3339"] == utc(m["date"]), m
	EOF
'
test_expect_success 'the digest mail has no colour, whatever the config says' '
	git config --global color.ui always &&
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail >m.out 2>m.err;
	rc=$?; git config --global --unset color.ui;
	test $rc -le 1 && ! grep -rl "$esc" "$TRASH/mail/INBOX" 2>/dev/null | grep -q .
'
test_expect_success 'a Message-Id with quotes and a space is found in the store' '
	mkdir -p "$TRASH/mail/odd/cur" "$TRASH/mail/odd/new" "$TRASH/mail/odd/tmp" &&
	printf "From: A <a@example.org>\nSubject: [PATCH 4.4 1/1] x: y\nMessage-Id: <\"quo ted\"@odd.example>\n\ncommit 1234567 upstream.\n" \
		>"$TRASH/mail/odd/cur/1.odd:2,S" &&
	notmuch new --quiet &&
	"$FIXSCAN" check --repo kernel "$TRASH/mail/odd/cur/1.odd:2,S" >odd.out 2>&1;
	test $? -le 1 && ! grep -q "not in the notmuch store" odd.out
'
test_expect_success 'GIT_CONFIG_GLOBAL names the global git config, as for git' '
	GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" git config --global fixscan.repo "$TRASH/kernel" &&
	GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" git config --global fixscan.lore none &&
	head=$(git -C kernel rev-parse HEAD) &&
	(cd / && GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" "$FIXSCAN" show "$head") >g1 &&
	grep -q "^commit $head" g1 &&
	! (cd / && "$FIXSCAN" show "$head" 2>/dev/null) &&
	GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" git config --global color.ui always &&
	git -C kernel config color.ui never &&
	{ GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" "$FIXSCAN" review --repo kernel "path:review-4.4/**" >g2; test $? -eq 1; } &&
	! grep -q "$(printf "\033")" g2 &&
	git -C kernel config --unset color.ui &&
	{ GIT_CONFIG_GLOBAL="$TRASH/other.gitconfig" "$FIXSCAN" review --repo kernel "path:review-4.4/**" >g3; test $? -eq 1; } &&
	grep -q "$(printf "\033")\\[" g3
'
# --since: git's approxidate subset, one parser for every command.
since_of() {
	python3 -c "import json, sys; print(json.load(sys.stdin)[\"since\"])"
}
test_expect_success 'digest --since takes the dates git takes' '
	now=$(date +%s) &&
	for when in yesterday 2.weeks.ago "3 days ago" "last week" 2016-07-01 \
		"2016-07-01 09:30" 2016-07-01T09:30:00Z @1467331200 1d; do
		{ "$FIXSCAN" digest --repo kernel --json --since "$when" >d.json 2>d.err; test $? -le 1; } &&
		test ! -s d.err || { echo "$when:"; cat d.err; exit 1; }
		echo "$when $(since_of <d.json)" >>since.txt
	done &&
	cat since.txt &&
	grep -qx "2016-07-01 2016-07-01T00:00:00Z" since.txt &&
	grep -qx "2016-07-01 09:30 2016-07-01T09:30:00Z" since.txt &&
	grep -qx "2016-07-01T09:30:00Z 2016-07-01T09:30:00Z" since.txt &&
	grep -qx "@1467331200 2016-07-01T00:00:00Z" since.txt &&
	python3 - "$now" <since.txt <<-\EOF
	import sys, datetime
	now = int(sys.argv[1])
	want = {"yesterday": 86400, "2.weeks.ago": 14 * 86400, "3 days ago": 3 * 86400,
	        "last week": 7 * 86400, "1d": 86400}
	for line in sys.stdin:
	    when, got = line.rstrip("\n").rsplit(" ", 1)
	    if when in want:
	        t = datetime.datetime.strptime(got, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
	        assert abs(now - want[when] - t.timestamp()) < 120, (when, got)
	EOF
'
test_expect_code 2 'a date that is none: one line that says what would do' '
	"$FIXSCAN" digest --repo kernel --since "next tuesday" >out 2>err;
	rc=$?; cat err;
	test ! -s out && test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: digest: --since: cannot read the date '"'"'next tuesday'"'"' (try .*2.weeks.ago" err &&
	exit $rc; exit 99
'
# "No such message" and "not a stable review thread" are two errors.
mkdir -p "$TRASH/mail/chat/cur" "$TRASH/mail/chat/new" "$TRASH/mail/chat/tmp"
printf "From: B <b@example.org>\nSubject: lunch on friday? \033[31mred\nMessage-Id: <lunch.1@example.org>\nDate: Mon, 30 Nov 2026 10:00:00 +0000\n\nPizza.\n" \
	>"$TRASH/mail/chat/cur/1.lunch:2,S"
notmuch new --quiet
test_expect_code 2 'a query that matches no message says so' '
	"$FIXSCAN" review --repo kernel "subject:nothing-like-this" >out 2>err;
	rc=$?;
	echo "fixscan: no message matches '"'"'subject:nothing-like-this'"'"'" >expect &&
	test_cmp expect err && test ! -s out && exit $rc; exit 99
'
test_expect_code 2 'mail that is no review thread is named, its subject shown visibly' '
	"$FIXSCAN" review --repo kernel "<lunch.1@example.org>" >out 2>err;
	rc=$?;
	echo "fixscan: '"'"'lunch on friday? ^[[31mred'"'"' is not a stable review thread" >expect &&
	test_cmp expect err && test ! -s out || exit 1
	"$FIXSCAN" review --repo kernel "path:chat/**" 2>err2;
	test $? -eq 2 && test_cmp expect err2 || exit 1
	"$FIXSCAN" review --repo kernel "path:chat/** OR path:review-4.4/**" >/dev/null 2>err3;
	test $? -eq 1 && test ! -s err3 || exit 1
	exit $rc
'
test_expect_code 2 '... and when it is several threads, how many and the first' '
	mkdir -p "$TRASH/mail/chat2/cur" "$TRASH/mail/chat2/new" "$TRASH/mail/chat2/tmp" &&
	printf "From: C <c@example.org>\nSubject: dinner\nMessage-Id: <dinner.1@example.org>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\n\nSoup.\n" \
		>"$TRASH/mail/chat2/cur/1.dinner:2,S" &&
	notmuch new --quiet || exit 1
	"$FIXSCAN" review --repo kernel "path:chat/** OR path:chat2/**" 2>err;
	rc=$?; cat err;
	echo "fixscan: '"'"'path:chat/** OR path:chat2/**'"'"' matches 2 threads, none of them a stable review thread (the first: '"'"'lunch on friday? ^[[31mred'"'"')" >expect &&
	test_cmp expect err || exit 1
	exit $rc
'
test_expect_code 2 'a Message-Id that is not in the store says to fetch it' '
	"$FIXSCAN" review --repo kernel --no-fetch "<nosuch.2@example.org>" 2>err;
	rc=$?; test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: message <nosuch.2@example.org> is not in the notmuch store.*: fetch its thread" err && exit $rc; exit 99
'
test_expect_code 2 '-C to a missing directory is one error line' '
	"$FIXSCAN" -C "$TRASH/nowhere" parse x 2>err;
	rc=$?; test "$(wc -l <err)" -eq 1 && grep -q "^fixscan: cannot change to .*nowhere" err && exit $rc; exit 99
'
test_expect_success 'a reader that goes away is no error (fixscan ... | head)' '
	i=0; set --; while [ $i -lt 3000 ]; do set -- "$@" "$SRC/tests/data/mail/qp.eml"; i=$((i + 1)); done;
	{ "$FIXSCAN" parse "$@" 2>err; echo $? >rc; } | head -n 1 >first &&
	test -s first && test ! -s err && test "$(cat rc)" -eq 0
'

if command -v bash >/dev/null 2>&1; then
	cat >comp.sh <<-\EOF
	. "$SRC/contrib/completion/fixscan.bash"
	PATH="$(dirname "$FIXSCAN"):$PATH"
	comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _fixscan; printf "%s\n" "${COMPREPLY[@]}" | sort; }
	EOF
	test_expect_success 'completion: the commands' '
		bash -c ". ./comp.sh; comp fixscan \"\"" >got &&
		printf "%s\n" --help --version --no-pager -C check digest help index parse review show stats | sort >expect &&
		test_cmp expect got
	'
	test_expect_success 'completion: every command offers exactly the options of its --help' '
		for c in check digest index parse review show stats; do
			bash -c ". ./comp.sh; comp \"$FIXSCAN\" $c -" >got.$c &&
			"$FIXSCAN" $c --help | grep -o -- "--[a-z][a-z-]*\(\[=\)\{0,1\}" |
				sed "s/\[=\$/=/" | sort -u >want.$c &&
			test -s want.$c && test_cmp want.$c got.$c || exit 1
		done
	'
	test_expect_success 'completion: --drafts= values, help topics, -C directories' '
		bash -c ". ./comp.sh; comp fixscan review --drafts = s" >v1 &&
		echo summary >e1 && test_cmp e1 v1 &&
		bash -c ". ./comp.sh; comp fixscan show --color = a" >v5 &&
		printf "always\nauto\n" >e5 && test_cmp e5 v5 &&
		bash -c ". ./comp.sh; comp fixscan review --drafts-for = e" >v4 &&
		echo every-finding >e4 && test_cmp e4 v4 &&
		bash -c ". ./comp.sh; comp fixscan help st" >v2 &&
		echo stats >e2 && test_cmp e2 v2 &&
		mkdir -p dir-a && bash -c ". ./comp.sh; comp fixscan -C dir-" >v3 &&
		echo dir-a >e3 && test_cmp e3 v3
	'
fi
# zsh: the completion is driven in a real interactive zsh on a
# pseudo-terminal (zpty); what it lists is compared with the bash one.
if command -v zsh >/dev/null 2>&1; then
	cat >ztab.zsh <<-\EOF
	# zsh -f ztab.zsh COMPDIR BINDIR WORDS [SEEN]: the screen after WORDS
	# and a tab, read until it shows SEEN (default " -- ", a line of the
	# list) and then nothing more for a second, or for 30 seconds at most
	# (the first completion of a command runs its --help: slow under ASan).
	zmodload zsh/zpty || exit 2
	zpty z zsh -f -i
	zpty -w z "PS1='%% '; PATH=$2:\$PATH; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; setopt nobeep; print READY\$((1+1))"
	zpty -r -m z out '*READY2*'
	zpty -n -w z "$3"$'\t'
	all= quiet=0 i=0 seen=${4:- -- }
	while (( i < 300 && quiet < 10 )); do
		if zpty -r -t z chunk; then all+=$chunk; quiet=0
		else [[ $all == *$seen* ]] && (( quiet++ )); sleep 0.1; fi
		(( i++ ))
	done
	print -r -- "$all"
	zpty -d z
	EOF
	# ztab WORDS: the first words of the lines "WORD  -- description"
	ztab() {
		zsh -f ztab.zsh "$SRC/contrib/completion" "$(dirname "$FIXSCAN")" "$1" |
			tr -d "\r" | sed "s/$esc\[[0-9;?]*[a-zA-Z]//g" |
			sed -n "s/^\(-\{0,2\}[a-zA-Z][a-z-]*\)  *-- .*/\1/p" | sort
	}
	test_expect_success 'zsh: the completion file loads and defines _fixscan for fixscan' '
		zsh -n "$SRC/contrib/completion/_fixscan" &&
		zsh -f -c "fpath=($SRC/contrib/completion \$fpath); autoload -Uz compinit; compinit -u -D;
			test \"\${_comps[fixscan]}\" = _fixscan"
	'
	test_expect_success 'zsh: the same commands and global options as bash' '
		{ ztab "fixscan " && ztab "fixscan -"; } | sort >zgot &&
		bash -c ". ./comp.sh; comp fixscan \"\"" >bwant &&
		test_cmp bwant zgot
	'
	test_expect_success 'zsh: the options of review and check as bash has them, and --color= values' '
		for c in review check; do
			ztab "fixscan $c --" >zopts.$c &&
			bash -c ". ./comp.sh; comp fixscan $c -" | sed "s/=\$//" | sort -u >bopts.$c &&
			test_cmp bopts.$c zopts.$c || exit 1
		done &&
		zsh -f ztab.zsh "$SRC/contrib/completion" "$(dirname "$FIXSCAN")" "fixscan show --color=" never >zcol &&
		grep -q "always  *auto  *never" zcol
	'
	test_expect_success 'zsh: every other command offers the options of its --help too' '
		for c in digest index parse show stats; do
			ztab "fixscan $c --" >zopts.$c &&
			bash -c ". ./comp.sh; comp fixscan $c -" | sed "s/=\$//" | sort -u >bopts.$c &&
			test -s bopts.$c && test_cmp bopts.$c zopts.$c || exit 1
		done &&
		grep -qx -- --no-fetch zopts.review &&
		grep -qx -- --short zopts.check
	'
else
	echo "# skipped the zsh completion tests: zsh is not installed"
fi
test_expect_success 'make demo ends with commands that work on its own store and repository' '
	sh "$SRC/scripts/demo.sh" "$FIXSCAN" "$TRASH/demo" >demo.out 2>&1 &&
	grep "^  NOTMUCH_CONFIG=" demo.out >next &&
	test "$(wc -l <next)" -eq 4 &&
	while read -r line; do
		sh -c "$line" >one.out 2>one.err; rc=$?;
		test $rc -le 1 && test -s one.out && test ! -s one.err || { echo "$line: $rc"; cat one.err; exit 1; }
	done <next
'
test_expect_success '... its maildirs have cur/, new/ and tmp/ (mutt opens them) and its git config exists' '
	for m in demo/mail/*/; do
		test -d "$m/cur" && test -d "$m/new" && test -d "$m/tmp" || { echo "$m"; exit 1; }
	done &&
	test -d demo/mail/review-4.4/new &&
	test "$(GIT_CONFIG_GLOBAL=$TRASH/demo/gitconfig git config --global user.email)" = rita@example.org &&
	grep -q "GIT_CONFIG_GLOBAL=$TRASH/demo/gitconfig" next
'
test_done
