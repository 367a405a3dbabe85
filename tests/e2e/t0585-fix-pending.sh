#!/bin/sh
# fix-pending from the store and from a pending ref, through review,
# check, digest and the drafts.  The sample kernel has a linux-next,
# refs/remotes/next/master, with the commit of the fix posted to the list
# (L4, of patch 24's upstream) and a fix of patch 23's upstream that only
# next has.  Without fixscan.pending only the posted fix is found; with
# it, 24 has one finding (the mail and its commit) and 23 one (the
# commit).  Mainline taking both makes them fix-missing; next rebuilt
# without them leaves the posted fix alone.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
Q='path:review-4.4/**'
n1=$(git -C kernel rev-parse refs/remotes/next/master~1)
n2=$(git -C kernel rev-parse refs/remotes/next/master)
p23=$(grep -l "^Subject: \[PATCH 4.4 23/" "$SRC"/maildirs/review-4.4/cur/*)
l4=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' \
	$(grep -l "^Subject: \[PATCH\] block: check for an empty bio" "$SRC"/maildirs/lists/cur/*))

# pending R.JSON: "NN:kind:commit:ref:message_id" of every fix-pending
pending() {
	python3 - "$1" <<-\EOF
	import json, sys
	r = json.loads(open(sys.argv[1]).readline())
	for p in r["patches"]:
	    for f in p["findings"]:
	        if f["kind"] == "fix-pending":
	            print("%02d:%s:%s:%s:%s" % (p["index"], f["cause"], f["commit"], f.get("ref"),
	                                      f["message_id"]))
	EOF
}

test_expect_code 1 'without fixscan.pending: the posted fix alone' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r0.json
'
test_expect_success '... 24 has it, with its mail and no commit; next is not read' '
	pending r0.json >got &&
	echo "24:fix:None:None:$l4" >want &&
	test_cmp want got
'

git -C kernel config fixscan.pending 'refs/remotes/next/*'
test_expect_success 'index with fixscan.pending: the two commits of next, apart' '
	"$FIXSCAN" index --repo kernel >idx.out 2>&1 &&
	! "$FIXSCAN" show --repo kernel "$n2" >show.out 2>&1
'
test_expect_code 1 'review --json with the pending ref' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r1.json
'
test_expect_success '... 23: next'"'"'s fix; 24: one finding for the posted fix and its commit; no other' '
	pending r1.json >got &&
	printf "23:fix:%s:refs/remotes/next/master:None\n24:fix:%s:refs/remotes/next/master:%s\n" \
		"$n2" "$n1" "$l4" >want &&
	test_cmp want got &&
	python3 -c "
import json
r = json.loads(open(\"r1.json\").readline())
assert r[\"summary\"][\"fix-pending\"] == 2, r[\"summary\"]
f = [f for p in r[\"patches\"] if p[\"index\"] == 23 for f in p[\"findings\"]]
assert [x[\"kind\"] for x in f] == [\"fix-pending\"], f
assert f[0][\"subject\"] == \"tcp: check the fastopen queue before the child socket takes it\", f
assert f[0][\"from\"] is None and f[0][\"date\"] is None, f
"
'
test_expect_success 'the report names the ref and the commit, and the mail where there is one' '
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "$Q" >r1.txt; test $? = 1; } &&
	grep -q "^  fix-pending fixes [0-9a-f]\{12\}: \"tcp: check the fastopen queue before the child socket takes it\" in next/master ($(echo $n2 | cut -c1-12))\$" r1.txt &&
	grep -q "^  fix-pending fixes [0-9a-f]\{12\}: \"block: check for an empty bio before bio_last_page()\" in next/master ($(echo $n1 | cut -c1-12)), posted by Nadia Perez <nadia@netdev.example.org>, .*: https://lore.kernel.org/r/$l4\$" r1.txt &&
	test "$(grep -c "fix-pending" r1.txt)" = 3
'
test_expect_code 1 '--no-reports: the pending ref all the same, without the mail' '
	"$FIXSCAN" review --repo kernel --no-reports --json "$Q" >r2.json
'
test_expect_success '... both commits, no mail' '
	pending r2.json >got &&
	printf "23:fix:%s:refs/remotes/next/master:None\n24:fix:%s:refs/remotes/next/master:None\n" \
		"$n2" "$n1" >want &&
	test_cmp want got
'
flat() {
	tr -s " \n" "  " <"$1"
}
test_expect_code 1 'check of 23: exit 1' '
	COLUMNS=200 "$FIXSCAN" check --repo kernel "$p23" >c23.txt
'
test_expect_success '... the pending commit' '
	flat c23.txt | grep -q "fix-pending fixes [0-9a-f]\{12\}: \"tcp: check the fastopen queue before the child socket takes it\" in next/master"
'
test_expect_success 'drafts: 23 and 24 asked to wait, each once; the summary lists each once' '
	mkdir -p mail/Drafts/cur mail/Drafts/new mail/Drafts/tmp &&
	{ "$FIXSCAN" review --repo kernel --drafts "$Q" >d.out 2>d.err; test $? = 1; } &&
	d23=$(grep -l "^Subject: Re: \[PATCH 4.4 23/27\]" mail/Drafts/cur/*) &&
	d24=$(grep -l "^Subject: Re: \[PATCH 4.4 24/27\]" mail/Drafts/cur/*) &&
	flat "$d23" | grep -q "A fix for the upstream commit is in linux-next, but not in mainline yet: $(echo $n2 | cut -c1-12) (\"tcp: check the fastopen queue before the child socket takes it\") (linux-next id) Could this one be held back for now, or the two queued together once the fix lands?" &&
	flat "$d24" | grep -q "A fix for the upstream commit has been posted and is in linux-next, but not in mainline yet: $(echo $n1 | cut -c1-12) (\"block: check for an empty bio before bio_last_page()\") (linux-next id) https://lore.kernel.org/r/$l4 Could this one be held back" &&
	test "$(grep -c "held back" "$d23")" = 1 &&
	test "$(grep -c "held back" "$d24")" = 1 &&
	test "$(grep -c "lore.kernel.org/r/$l4" "$d24")" = 1 &&
	sed -n "1,/^\$/p" "$d24" | tr -d "\n" | grep -q "^.*Cc: [^:]*nadia@netdev.example.org" &&
	summary=$(grep -l "^Subject: Re: \[PATCH 4.4 00/27\]" mail/Drafts/cur/*) &&
	test "$(grep -c "a fix in linux-next, not in mainline yet:" "$summary")" = 2 &&
	test "$(grep -c "(linux-next id)" "$summary")" = 2 &&
	! grep -q "next/master" "$d23" "$d24" "$summary" &&
	test "$(grep -c "$(echo $n1 | cut -c1-12)" "$summary")" = 1 &&
	test "$(grep -c "$(echo $n2 | cut -c1-12)" "$summary")" = 1 &&
	test "$(grep -c "lore.kernel.org/r/$l4" "$summary")" = 1
'
test_expect_success 'the drafts pass draft-check' '
	python3 "$SRC/tests/e2e/draft-check.py" --review r1.json --asks "$TRASH/mail" mail/Drafts/cur/*
'
# The digest: the 4.4 thread as if it had just arrived (tests/e2e/renew-thread.py).
python3 "$SRC/tests/e2e/renew-thread.py" "$SRC/maildirs/review-4.4" "$TRASH/new-4.4" || exit 1
rm -rf mail/Drafts && cp -R new-4.4 mail/new-4.4 && notmuch new --quiet || exit 1
test_expect_success 'digest: 23 and 24 carry their fix-pending, with the ref' '
	{ "$FIXSCAN" digest --repo kernel --json >dg.json; test $? -le 1; } &&
	python3 - "$n1" "$n2" <<-\EOF
	import json, sys
	d = json.load(open("dg.json"))
	got = sorted((r["index"], f["commit"], f["ref"]) for r in d["risky"]
	             if r["branch"] == "linux-4.4.y" for f in r["findings"] if f["kind"] == "fix-pending")
	want = [(23, sys.argv[2], "refs/remotes/next/master"), (24, sys.argv[1], "refs/remotes/next/master")]
	assert got == want, (got, want)
	EOF
'
rm -rf mail/new-4.4 && notmuch new --quiet || exit 1

# Mainline takes both: no fix-pending; they are fixes of mainline now.
git -C kernel update-ref refs/heads/mainline-saved refs/heads/master
git -C kernel update-ref refs/heads/master "$n2"
test_expect_code 1 'mainline takes next: review' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r3.json
'
test_expect_success '... no fix-pending; both are fix-missing' '
	pending r3.json >got &&
	test_cmp /dev/null got &&
	python3 - "$n1" "$n2" <<-\EOF
	import json, sys
	r = json.loads(open("r3.json").readline())
	got = sorted((p["index"], f["commit"]) for p in r["patches"] for f in p["findings"]
	             if f["commit"] in sys.argv[1:])
	assert got == [(23, sys.argv[2]), (24, sys.argv[1])], got
	assert all(f["kind"] == "fix-missing" for p in r["patches"] for f in p["findings"]
	           if f["commit"] in sys.argv[1:]), r
	EOF
'
# Mainline as it was, and next rebuilt without either fix: the posted fix
# is pending again, from the store alone.
git -C kernel update-ref refs/heads/master refs/heads/mainline-saved
git -C kernel update-ref -d refs/heads/mainline-saved
rebuilt=$(git -C kernel -c user.name=N -c user.email=n@example.org commit-tree "$(git -C kernel rev-parse master^{tree})" -p master -m "net: an unrelated change") || exit 1
git -C kernel update-ref refs/remotes/next/master "$rebuilt"
test_expect_code 1 'next rebuilt without the fixes: review' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r4.json
'
test_expect_success '... the posted fix alone, as without the pending ref' '
	pending r4.json >got &&
	echo "24:fix:None:None:$l4" >want &&
	test_cmp want got
'
test_expect_success 'a fixscan.pending that is no ref glob: one clear line, exit 2' '
	git -C kernel config --add fixscan.pending "next/*" &&
	{ "$FIXSCAN" review --repo kernel "$Q" >bad.out 2>bad.err; test $? = 2; } &&
	test "$(wc -l <bad.err)" = 1 &&
	grep -q "^fixscan: fixscan.pending value .next/\*. is not a ref glob" bad.err
'
test_done
