#!/bin/sh
# series-partial through review (text and JSON), check, digest and the
# summary draft.  In the sample, u_fm (review-4.4 03, review-4.5 05) was
# applied from mail 1 of a git send-email posting whose mail 2 is u_fm2,
# in mainline, in neither branch nor thread: an advisory finding that
# names it.  A thread that queues both, or u_fm and its fix only, shows
# what changes; with the posting's first mail in the store, the parts are
# numbered N/M.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1
Q='path:review-4.4/**'
name() {
	python3 -c '
import json, sys
d = json.load(open("kernel/answers.json"))
print([c["id"] for c in d["commits"] if c["name"] == sys.argv[1]][0])' "$1"
}
u_fm=$(name u_fm)
u_fm2=$(name u_fm2)
f_fm=$(name f_fm)
p03=$(grep -l "^Subject: \[PATCH 4.4 03/" "$SRC"/maildirs/review-4.4/cur/*)

test_expect_code 1 'review --json of the 4.4 thread' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r.json
'
test_expect_success '... one series-partial, on 03, naming part 2 of its posting, and no other' '
	python3 - "$u_fm" "$u_fm2" <<-\EOF
	import json, sys
	u, u2 = sys.argv[1:]
	r = json.loads(open("r.json").readline())
	got = [(p["index"], f) for p in r["patches"] for f in p["findings"]
	       if f["kind"] == "series-partial"]
	assert [i for i, _ in got] == [3], got
	f = got[0][1]
	assert f["commit"] == u and f["part"] == 1, f
	assert f["commits"] == [{"commit": u2, "subject": "netfilter: x_tables: check the target size in compat mode",
	                         "release": None, "part": 2, "total": None}], f["commits"]
	assert f["note"] == "part 1 of its posting; 1 other part in mainline, neither in linux-4.4.y nor in this series", f
	assert r["summary"]["series-partial"] == 1, r["summary"]
	EOF
'
test_expect_success 'the report line names the part' '
	{ COLUMNS=300 "$FIXSCAN" review --repo kernel "$Q" >r.txt; test $? = 1; } &&
	grep -qx "  series-partial $(echo $u_fm | cut -c1-12) is part 1 of a posting; in mainline, neither in linux-4.4.y nor in this series: part 2 $(echo $u_fm2 | cut -c1-12) (\"netfilter: x_tables: check the target size in compat mode\")" r.txt &&
	test "$(grep -c "series-partial" r.txt)" = 2
'
flat() {
	tr -s " \n" "  " <"$1"
}
test_expect_success 'check of 03 shows it too' '
	{ "$FIXSCAN" check --repo kernel "$p03" >c03.txt; test $? = 1; } &&
	flat c03.txt | grep -q "series-partial [0-9a-f]\{12\} is part 1 of a posting; in mainline, neither in linux-4.4.y nor in this series: part 2 [0-9a-f]\{12\}"
'
# A thread of our own: u_fm and its fix f_fm (no action: the fix is
# queued), then the same with u_fm2 too (the posting fully queued).
mkmbox() {
	out=$1
	shift
	n=$#
	i=0
	{
		printf 'From fixscan Thu Jan  1 00:00:00 1970\nFrom: Greg <greg@example.org>\nSubject: [PATCH 4.4 0/%d] 4.4.99-stable review\nMessage-Id: <cover.%s@example.org>\nDate: Mon, 2 May 2016 10:00:00 +0000\n\nThis is the start of the stable review cycle for the 4.4.99 release.\n\n' "$n" "$out"
		for c in "$@"; do
			i=$((i + 1))
			subj=$(git -C kernel log -1 --format=%s "$c")
			printf 'From fixscan Thu Jan  1 00:00:00 1970\nFrom: Greg <greg@example.org>\nSubject: [PATCH 4.4 %d/%d] %s\nMessage-Id: <%d.%s@example.org>\nIn-Reply-To: <cover.%s@example.org>\nReferences: <cover.%s@example.org>\nDate: Mon, 2 May 2016 10:0%d:00 +0000\n\n4.4-stable review patch.\n\n------------------\n\ncommit %s upstream.\n\nSigned-off-by: Greg <greg@example.org>\n---\n' \
				"$i" "$n" "$subj" "$i" "$out" "$out" "$out" "$i" "$c"
			# the upstream commit's own diff: nothing for the
			# comparison to say, no diff-absent
			git -C kernel show --format= --stat --patch "$c"
			echo
		done
	} >"$out"
}
mkmbox two.mbox "$u_fm" "$f_fm"
mkmbox three.mbox "$u_fm" "$f_fm" "$u_fm2"
test_expect_code 0 'advisory: u_fm with its fix queued, the posting not: exit 0' '
	"$FIXSCAN" review --repo kernel --branch linux-4.4.y --mbox two.mbox --json >two.json
'
test_expect_success '... and the finding is there, alone besides the queued fix' '
	python3 - "$u_fm2" <<-\EOF
	import json, sys
	r = json.loads(open("two.json").readline())
	got = sorted((p["index"], f["kind"]) for p in r["patches"] for f in p["findings"])
	assert got == [(1, "fix-queued"), (1, "series-partial")], got
	f = [f for f in r["patches"][0]["findings"] if f["kind"] == "series-partial"][0]
	assert [c["commit"] for c in f["commits"]] == [sys.argv[1]], f
	EOF
'
mkmbox one.mbox "$u_fm2"
test_expect_success 'b4 check of a patch whose only finding is series-partial: warn' '
	python3 - one.mbox <<-\EOF >one-01.eml &&
	import sys
	t = open(sys.argv[1]).read().split("\nFrom fixscan ")
	sys.stdout.write(t[1].split("\n", 1)[1])
	EOF
	"$FIXSCAN" check --repo kernel --format=b4 <one-01.eml >b4.json &&
	python3 -c "
import json
e = json.load(open(\"b4.json\"))[0]
assert e[\"status\"] == \"warn\", e
assert \"series-partial\" in e[\"summary\"] and \"fix\" not in e[\"summary\"], e"
'
test_expect_code 0 'the whole posting queued: nothing' '
	"$FIXSCAN" review --repo kernel --branch linux-4.4.y --mbox three.mbox --json >three.json &&
	python3 -c "
import json
r = json.loads(open(\"three.json\").readline())
got = sorted((p[\"index\"], f[\"kind\"]) for p in r[\"patches\"] for f in p[\"findings\"])
assert got == [(1, \"fix-queued\")], got
assert r[\"summary\"][\"series-partial\"] == 0, r[\"summary\"]"
'
test_expect_success 'the summary draft lists the part, naming the patch' '
	mkdir -p mail/Drafts/cur mail/Drafts/new mail/Drafts/tmp &&
	{ "$FIXSCAN" review --repo kernel --drafts "$Q" >d.out 2>d.err; test $? = 1; } &&
	summary=$(grep -l "^Subject: Re: \[PATCH 4.4 00/27\]" mail/Drafts/cur/*) &&
	flat "$summary" | grep -q "In mainline from the same upstream postings as patches here, but not queued (maybe on purpose): $(echo $u_fm2 | cut -c1-12) (\"netfilter: x_tables: check the target size in compat mode\") posted with 03/27" &&
	test "$(grep -c "$(echo $u_fm2 | cut -c1-12)" "$summary")" = 1
'
test_expect_success 'by default 03 gets its reply for its fix, which names the part too' '
	r03=$(grep -l "^Subject: Re: \[PATCH 4.4 03/27\]" mail/Drafts/cur/*) &&
	flat "$r03" | grep -q "This patch.s upstream commit 404cd27d8378 (\"netfilter: x_tables: check the counters offset in compat mode\") was posted with another patch that is in mainline too, but neither in linux-4.4.y nor in this series: $(echo $u_fm2 | cut -c1-12)" &&
	flat "$r03" | grep -q "If it was left out on purpose, fine; otherwise is it needed here as well?" &&
	! flat "$r03" | grep -q "Its upstream commit"
'
# The digest: the 4.4 thread as if it had just arrived.
python3 "$SRC/tests/e2e/renew-thread.py" "$SRC/maildirs/review-4.4" "$TRASH/new-4.4" || exit 1
cp -R new-4.4 mail/new-4.4 && notmuch new --quiet || exit 1
test_expect_success 'digest: the finding weighs nothing, and is listed with 03' '
	{ "$FIXSCAN" digest --repo kernel --json >dg.json; test $? -le 1; } &&
	python3 - "$u_fm2" <<-\EOF
	import json, sys
	d = json.load(open("dg.json"))
	s = [x for x in d["series"] if x["branch"] == "linux-4.4.y"]
	assert s and s[0]["summary"]["series-partial"] == 1, s
	r = [x for x in d["risky"] if x["branch"] == "linux-4.4.y" and x["index"] == 3]
	f = [f for f in r[0]["findings"] if f["kind"] == "series-partial"]
	assert len(f) == 1 and f[0]["weight"] == 0 and sys.argv[1][:12] in f[0]["text"], f
	EOF
'
# The posting's first mail in the store: [PATCH 1/2], so M is 2.
mkdir -p mail/posting/cur mail/posting/new mail/posting/tmp
printf 'From: Dmitri Orlov <dorlov@example.com>\nTo: netfilter-devel@example.org\nSubject: [PATCH 1/2] netfilter: x_tables: check the counters offset in compat mode\nMessage-Id: <20160402101520.4711-1-dorlov@example.com>\nDate: Sat, 2 Apr 2016 10:15:20 +0000\n\nThe compat path copied the counters from an offset that was never\nchecked against the size of the blob.\n' \
	>mail/posting/cur/1:2,S
notmuch new --quiet || exit 1
test_expect_success 'with the posting in the store: part 1/2 and part 2/2' '
	{ COLUMNS=300 "$FIXSCAN" review --repo kernel --json "$Q" >n.json; test $? = 1; } &&
	python3 - <<-\EOF &&
	import json
	r = json.loads(open("n.json").readline())
	f = [f for p in r["patches"] for f in p["findings"] if f["kind"] == "series-partial"]
	assert len(f) == 1 and f[0]["part"] == 1, f
	assert [(c["part"], c["total"]) for c in f[0]["commits"]] == [(2, 2)], f
	assert f[0]["note"].startswith("part 1/2 of its posting"), f
	EOF
	{ COLUMNS=300 "$FIXSCAN" review --repo kernel "$Q" >n.txt; test $? = 1; } &&
	grep -q "series-partial [0-9a-f]\{12\} is part 1/2 of a posting; .*: part 2/2 [0-9a-f]\{12\} " n.txt
'
test_done
