#!/bin/sh
# lore (fixscan.lore): what a real public-inbox (Debian's 1.9, started on
# loopback by lib-lore.sh) knows about the sample 4.4 review's patches,
# beside what the store knows.  The archive holds, made up here from the
# sample's ids (kernel/answers.json):
#   01  a "#regzbot introduced:" report, and one whose From and Subject
#       carry terminal escapes
#   05  a fix posted (Fixes: its upstream), in no store
#   13  the store's regression report L1 (its bisection), on lore too
#   14  a sentence blaming its upstream ("Since commit ... fails")
#   23  a bisection log ending at it; a corrected [PATCH 4.4.y] backport
#       posted after the review, one posted before, one for 4.5.y, and
#       another branch's stable review patch of it
#   24  the store's posted fix L4, on lore too
#   03  the posting of its fix that mainline has (80e046b0715b)
# and what must not count: quoted Fixes: and regzbot lines, the user's
# own mail.  Each lore finding carries the mail's Message-Id and its link
# under the configured base, and is counted once with the store's.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-lore.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
# up NN: the upstream id of patch NN
up() {
	python3 -c "import json, sys
print([p['upstream'] for p in json.load(open('kernel/answers.json'))['thread'] if p['index'] == int(sys.argv[1])][0])" "$1"
}
U1=$(up 1) U5=$(up 5) U13=$(up 13) U14=$(up 14) U23=$(up 23) U3=$(up 3)
T23=$(git -C kernel log -1 --format=%s "$U23")
F3=$(git -C kernel rev-parse 80e046b0715b) && S3=$(git -C kernel log -1 --format=%s "$F3") || exit 1
mid() { sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$1" | head -n 1; }
L1=$SRC/maildirs/lists/cur/1460943891.000001.fixscan:2,S
L4=$SRC/maildirs/lists/cur/1461206793.000004.fixscan:2,S
l1=$(mid "$L1") l4=$(mid "$L4")
AFTER="Tue, 26 Apr 2016 10:00:00 +0000"
LATER="Wed, 27 Apr 2016 10:00:00 +0000"
BEFORE="Wed, 20 Apr 2016 10:00:00 +0000"

mkdir -p lm
lore_mail lm/reg1 reg1@lore.example.org "[REGRESSION] tcp: oops on listen" "Reg Porter <reg@example.org>" "$AFTER" <<EOF
Since 4.4.6 the box oopses in tcp_fastopen.

#regzbot introduced: $(echo "$U1" | cut -c1-12)
EOF
lore_mail lm/evil1 evil1@lore.example.org "$(printf 'tcp \033[2Jbroken\007 again')" \
	"$(printf 'Mal\033[31mlory <mal@example.org>')" "$LATER" <<EOF
It oopses here too.

#regzbot ^introduced $U1
EOF
lore_mail lm/fix5 fix5@lore.example.org "[PATCH] arm64: mm: flush the icache for every executable mapping" \
	"Fix Er <fixer@example.org>" "$AFTER" <<EOF
The earlier change missed the mappings made writable later.

Fixes: $(echo "$U5" | cut -c1-12) ("arm64: mm: only flush the instruction cache for executable mappings")
Signed-off-by: Fix Er <fixer@example.org>
EOF
lore_mail lm/fix3 fix3@lore.example.org "[PATCH] $S3" "Net Dev <netdev@example.org>" "$BEFORE" <<EOF
Fixes: $(echo "$U3" | cut -c1-12)
Signed-off-by: Net Dev <netdev@example.org>
EOF
lore_mail lm/quoted1 quoted1@lore.example.org "Re: [PATCH] arm64: mm: something" "Bo Reader <bo@example.org>" "$AFTER" <<EOF
On Mon, Fix Er wrote:
> Fixes: $(echo "$U5" | cut -c1-12) ("arm64: mm: only flush the instruction cache for executable mappings")
> #regzbot introduced: $(echo "$U23" | cut -c1-12)

Looks good to me.
EOF
lore_mail lm/own1 own1@lore.example.org "arm64 regression" "Rita Reviewer <rita@example.org>" "$AFTER" <<EOF
#regzbot introduced: $(echo "$U5" | cut -c1-12)
EOF
lore_mail lm/bis23 bis23@lore.example.org "[REGRESSION] 4.4.7-rc1: boot hang" "Ci Bot <ci@example.org>" "$AFTER" <<EOF
The board hangs at boot with 4.4.7-rc1.

git bisect start
git bisect good $U14
git bisect bad $U13
# first bad commit: [$U23] $T23
EOF
lore_mail lm/cause14 cause14@lore.example.org "ext4 mount fails" "Dee Sk <disk@example.org>" "$AFTER" <<EOF
Hi,

since commit $U14 my second disk fails to mount with -EINVAL.
EOF
# backport NAME DATE VERSION: a backport of 23's upstream posted for VERSION
backport() {
	lore_mail "lm/$1" "$1@lore.example.org" "[PATCH $3] $T23" "Back Porter <bp@example.org>" "$2" <<-EOF
	commit $U23 upstream.

	A corrected backport: the context differs in $3.
	EOF
}
backport back23 "$AFTER" 4.4.y && backport back23old "$BEFORE" 4.4.y && backport back45 "$AFTER" 4.5.y || exit 1
lore_mail lm/review49 review49@lore.example.org "[PATCH 4.9 07/40] $T23" "Greg <greg@example.org>" "$AFTER" <<EOF
4.9-stable review patch.  If anyone has any objections, please let me know.

------------------

commit $U23 upstream.
EOF
cp "$L4" lm/l4 && cp "$L1" lm/l1 || exit 1
lore_inbox linux-net lm/reg1 lm/evil1 lm/fix5 lm/fix3 lm/quoted1 lm/own1 lm/l4 || exit 1
lore_inbox regressions lm/l1 lm/bis23 lm/cause14 || exit 1
lore_inbox stable lm/back23 lm/back23old lm/back45 lm/review49 || exit 1
lore_start || exit 1
git config --global fixscan.lore "$LORE_URL"

# lore R.JSON: "NN kind message_id link" of the findings that have a link
lore_found() {
	python3 - "$1" <<-\EOF
	import json, sys
	r = json.loads(open(sys.argv[1]).readline())
	for p in r["patches"]:
	    for f in p["findings"]:
	        if f.get("link"):
	            print("%02d %s %s %s" % (p["index"], f["kind"], f["message_id"], f["link"]))
	EOF
}
# every R.JSON: "NN kind commit message_id", for comparing runs
all_found() {
	python3 - "$1" <<-\EOF
	import json, sys
	r = json.loads(open(sys.argv[1]).readline())
	for p in r["patches"]:
	    for f in p["findings"]:
	        print("%02d %s %s %s" % (p["index"], f["kind"], f["commit"], f["message_id"]))
	EOF
}

test_expect_code 1 'review --json with lore: one request for the 27 patches' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r1.json 2>r1.err &&
	test "$(lore_requests)" = 1
'
test_expect_success '... what lore knows, each with its Message-Id and link; nothing else of it' '
	test_cmp /dev/null r1.err &&
	lore_found r1.json >got &&
	cat >want <<-EOF &&
	01 regression-report reg1@lore.example.org ${LORE_URL}reg1@lore.example.org/
	01 regression-report evil1@lore.example.org ${LORE_URL}evil1@lore.example.org/
	05 fix-pending fix5@lore.example.org ${LORE_URL}fix5@lore.example.org/
	13 regression-report $l1 ${LORE_URL}$l1/
	14 regression-report cause14@lore.example.org ${LORE_URL}cause14@lore.example.org/
	23 regression-report bis23@lore.example.org ${LORE_URL}bis23@lore.example.org/
	23 replacement-posted back23@lore.example.org ${LORE_URL}back23@lore.example.org/
	24 fix-pending $l4 ${LORE_URL}$l4/
	EOF
	test_cmp want got
'
# The cache emptied first: a run that searched would have to ask.
test_expect_code 1 'review --json --no-lore: no request, the cache empty' '
	rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
	"$FIXSCAN" review --repo kernel --json --no-lore "$Q" >r0.json 2>r0.err &&
	test "$(lore_requests)" = 1
'
test_expect_success '... lore added its findings and changed no other; the store and lore ones counted once' '
	all_found r0.json >without &&
	all_found r1.json >with &&
	lore_found r1.json | grep -v -e " $l1 " -e " $l4 " | cut -d" " -f1-3 >added &&
	test "$(wc -l <added)" = 6 &&
	grep -v -e "lore.example.org" with >kept &&
	test_cmp without kept &&
	test "$(grep -c " $l1\$" with)" = 1 &&
	test "$(grep -c " $l4\$" with)" = 1 &&
	test_cmp /dev/null r0.err
'
test_expect_success 'quoted Fixes: and regzbot lines, the user'"'"'s own mail, the old and the other branch'"'"'s backports, a review patch and a fix mainline has: none counts' '
	! grep -q -e quoted1 -e own1 -e back23old -e back45 -e review49 -e fix3@ r1.json &&
	python3 - "$F3" <<-\EOF
	import json, sys
	r = json.loads(open("r1.json").readline())
	f = [f for p in r["patches"] if p["index"] == 3 for f in p["findings"]]
	assert not [x for x in f if x["kind"] == "fix-pending"], f
	assert [x["commit"] for x in f if x["kind"] == "fix-missing"] == [sys.argv[1]], f
	EOF
'
test_expect_code 1 'the text report: the links; the hostile mail'"'"'s escapes shown, not sent' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >r1.txt &&
	test "$(lore_requests)" = 2
'
test_expect_success '... lines of each kind' '
	grep -q "^  regression-report $(echo $U1 | cut -c1-12): \"\[REGRESSION\] tcp: oops on listen\" from Reg Porter <reg@example.org>, $AFTER: ${LORE_URL}reg1@lore.example.org/\$" r1.txt &&
	grep -q "^  fix-pending fixes $(echo $U5 | cut -c1-12): \"\[PATCH\] arm64: mm: flush the icache for every executable mapping\" from Fix Er <fixer@example.org>, $AFTER: ${LORE_URL}fix5@lore.example.org/\$" r1.txt &&
	grep -q "^  replacement-posted from Back Porter <bp@example.org>: \"\[PATCH 4.4.y\] $T23\": ${LORE_URL}back23@lore.example.org/\$" r1.txt &&
	! grep -q "$(printf "\033")" r1.txt &&
	! grep -q "$(printf "\007")" r1.txt &&
	grep "evil1@lore" r1.txt | grep -q "Mal.*lory"
'
test_expect_code 1 'a second run inside the TTL: the same, and no request' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >r2.txt &&
	test_cmp r1.txt r2.txt &&
	test "$(lore_requests)" = 2
'
test_expect_code 1 'fixscan.loreTTL 0: every run asks again' '
	git -C kernel config fixscan.loreTTL 0 &&
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >r3.txt &&
	git -C kernel config --unset fixscan.loreTTL &&
	test_cmp r1.txt r3.txt &&
	test "$(lore_requests)" = 3
'
p23=$(grep -l "^Subject: \[PATCH 4.4 23/" "$TRASH"/mail/review-4.4/cur/*)
test_expect_code 1 'check of 23 with lore: its report and the backport' '
	COLUMNS=1000 "$FIXSCAN" check --repo kernel "$p23" >c23.txt &&
	grep -q "regression-report .*bis23@lore" c23.txt &&
	grep -q "replacement-posted .*back23@lore" c23.txt
'
test_expect_code 0 'check --no-lore of 23: nothing' '
	COLUMNS=1000 "$FIXSCAN" check --no-lore --repo kernel "$p23" >c23n.txt &&
	! grep -q "lore.example.org" c23n.txt
'
test_expect_success 'drafts: they cite the lore mails and Cc their authors' '
	mkdir -p mail/Drafts/cur mail/Drafts/new mail/Drafts/tmp &&
	{ "$FIXSCAN" review --repo kernel --drafts "$Q" >d.out 2>d.err; test $? = 1; } &&
	d01=$(grep -l "^Subject: Re: \[PATCH 4.4 01/27\]" mail/Drafts/cur/*) &&
	d05=$(grep -l "^Subject: Re: \[PATCH 4.4 05/27\]" mail/Drafts/cur/*) &&
	grep -q "^  ${LORE_URL}reg1@lore.example.org/\$" "$d01" &&
	grep -q "^  ${LORE_URL}fix5@lore.example.org/\$" "$d05" &&
	sed -n "1,/^\$/p" "$d01" | tr -d "\n" | grep -q "^.*Cc: [^:]*reg@example.org" &&
	sed -n "1,/^\$/p" "$d05" | tr -d "\n" | grep -q "^.*Cc: [^:]*fixer@example.org" &&
	! grep -q "$(printf "\033")" mail/Drafts/cur/*
'
rm -rf mail/Drafts && notmuch new --quiet || exit 1

# The digest: the 4.4 thread as if it had just arrived.
python3 "$SRC/tests/e2e/renew-thread.py" "$SRC/maildirs/review-4.4" "$TRASH/new-4.4" || exit 1
cp -R new-4.4 mail/new-4.4 && notmuch new --quiet || exit 1
test_expect_success 'digest: the lore finding of 01; --no-lore: not' '
	{ "$FIXSCAN" digest --repo kernel --json >dg.json; test $? -le 1; } &&
	grep -q "reg1@lore.example.org" dg.json &&
	{ "$FIXSCAN" digest --repo kernel --json --no-lore >dg0.json; test $? -le 1; } &&
	! grep -q "lore.example.org" dg0.json
'
rm -rf mail/new-4.4 && notmuch new --quiet || exit 1

# Two bases (an inbox and the extindex): one request each, and the mails
# both have counted once, under the first base that has them.
test_expect_code 1 'two bases: one request each; each mail once' '
	git config --global --add fixscan.lore "${LORE_ROOT}linux-net/" &&
	before=$(lore_requests) &&
	rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
	"$FIXSCAN" review --repo kernel --json "$Q" >r3.json &&
	test "$(($(lore_requests) - before))" = 2 &&
	lore_found r3.json >got3 &&
	test_cmp want got3
'
git config --global --unset-all fixscan.lore
git config --global fixscan.lore "$LORE_URL"

test_expect_success 'fixscan.lore: none after the bases turns it off; a value that is no base URL is an error' '
	git -C kernel config --add fixscan.lore none &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >off.txt 2>off.err; test $? = 1; } &&
	{ COLUMNS=1000 "$FIXSCAN" review --no-lore --repo kernel "$Q" >nolore.txt; test $? = 1; } &&
	test_cmp nolore.txt off.txt &&
	test_cmp /dev/null off.err &&
	git -C kernel config --unset-all fixscan.lore &&
	git -C kernel config fixscan.lore "lore.kernel.org/all" &&
	{ "$FIXSCAN" review --repo kernel "$Q" >bad.txt 2>bad.err; test $? = 2; } &&
	test_cmp /dev/null bad.txt &&
	echo "fixscan: fixscan.lore: '"'"'lore.kernel.org/all'"'"' is no public-inbox base URL (http:// or https://, ending in '"'"'/'"'"') nor none" >want.err &&
	test_cmp want.err bad.err &&
	git -C kernel config --unset-all fixscan.lore
'

# A full disk under the cache (tests/fault/fault.c fails the call): the
# answer is not kept, so not used; one line says so, nothing is left in
# the cache, the review is the one without lore.
. "$SRC/tests/e2e/lib-fault.sh"
for op in open write fsync rename; do
	test_expect_success "the cache file cannot be written ($op: ENOSPC): one line, the review without lore, no file left" '
		rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
		{ COLUMNS=1000 faulty "'"$op"':1:ENOSPC:fixscan/lore/" "$FIXSCAN" review --repo kernel "$Q" >f.txt 2>f.err; test $? = 1; } &&
		fired | grep -q "^fired '"$op"' 1 " &&
		test_cmp nolore.txt f.txt &&
		test "$(wc -l <f.err)" = 1 &&
		grep -q "^fixscan: lore: cannot \\(write\\|replace\\) the lore cache file .*No space left on device; 1 search left out of the review\$" f.err &&
		! ls "$XDG_CACHE_HOME/fixscan/lore" | grep -q .
	'
done

# Hostile answers: a server that answers with broken gzip, a bomb, a web
# page, an error full of escapes.  Each search is left out, said once.
mkdir -p hostile
python3 "$SRC/tests/e2e/hostile-httpd.py" "$TRASH/hostile" >/dev/null 2>&1 &
hpid=$!
trap 'lore_stop; kill $hpid 2>/dev/null' EXIT
i=0
while [ ! -f hostile/port ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
H="http://127.0.0.1:$(cat hostile/port)"
for base in broken-gzip truncated bomb huge not-mbox error loop; do
	test_expect_success "hostile answer ($base): the review without it, one line that says so, the same exit" '
		git config --global --unset-all fixscan.lore &&
		git config --global fixscan.lore "$H/'"$base"'/" &&
		rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
		{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >h.txt 2>h.err; test $? = 1; } &&
		test_cmp nolore.txt h.txt &&
		test "$(wc -l <h.err)" = 1 &&
		grep -q "^fixscan: lore: .*$H/'"$base"'/.*; 1 search left out of the review\$" h.err &&
		! grep -q "$(printf "\033")" h.err &&
		! ls "$XDG_CACHE_HOME/fixscan/lore" | grep -q .
	'
done
test_expect_success 'a server that does not answer: given up at fixscan.loreTimeout, one line, the same review' '
	git config --global --unset-all fixscan.lore &&
	git config --global fixscan.lore "$H/slow/" &&
	git config --global fixscan.loreTimeout 1 &&
	rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
	start=$(date +%s) &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >h.txt 2>h.err; test $? = 1; } &&
	test $(($(date +%s) - start)) -lt 10 &&
	test_cmp nolore.txt h.txt &&
	test "$(wc -l <h.err)" = 1 &&
	grep -q "^fixscan: lore: .*$H/slow/.*timed out.*; 1 search left out of the review\$" h.err &&
	git config --global --unset fixscan.loreTimeout
'
kill $hpid 2>/dev/null

# Lore down: the same review, one line on stderr, the same exit status.
lore_stop
git config --global --unset-all fixscan.lore
git config --global fixscan.lore "$LORE_URL"
test_expect_success 'lore down: the review without it, one line that says so, the same exit' '
	rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >down.txt 2>down.err; test $? = 1; } &&
	test_cmp nolore.txt down.txt &&
	test "$(wc -l <down.err)" = 1 &&
	grep -q "^fixscan: lore: cannot search '"'"'$LORE_URL'"'"': .*; 1 search left out of the review\$" down.err
'
test_expect_success 'unset, fixscan.lore is lore.kernel.org'"'"'s /all/ (here through a dead proxy: the tests stay offline)' '
	git config --global --unset-all fixscan.lore &&
	rm -rf "$XDG_CACHE_HOME/fixscan/lore" &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >def.txt 2>def.err; test $? = 1; } &&
	test_cmp nolore.txt def.txt &&
	grep -q "^fixscan: lore: cannot search '"'"'https://lore.kernel.org/all/'"'"': .*127.0.0.1" def.err
'
test_done
