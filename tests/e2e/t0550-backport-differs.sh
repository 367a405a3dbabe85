#!/bin/sh
# backport-differs through review, check, digest and drafts: the sample
# 4.4 thread's patch 02 adds a line its upstream commit does not (an
# advisory finding), patch 01 does too but its changelog says why (no
# finding); a copy of 02 whose diff is another file's leaves out the
# upstream file (a finding that asks for action); a clone without blobs
# says once that it cannot compare and the review goes on.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1
Q='path:review-4.4/**'
p01=$(grep -l "^Subject: \[PATCH 4.4 01/" "$SRC"/maildirs/review-4.4/cur/*)
p02=$(grep -l "^Subject: \[PATCH 4.4 02/" "$SRC"/maildirs/review-4.4/cur/*)
up02=$(python3 -c 'import json; print(json.load(open("kernel/answers.json"))["threads"]["review-4.4"]["patches"][1]["upstream"])')

test_expect_code 1 'review --json of the 4.4 thread' '
	"$FIXSCAN" review --repo kernel --json "$Q" >r.json
'
test_expect_success '... 02 differs by one added line, advisory; 01 documents it; no other patch differs' '
	python3 - "$up02" <<-\EOF
	import json, sys
	r = json.loads(open("r.json").readline())
	got = [(p["index"], f) for p in r["patches"] for f in p["findings"]
	       if f["kind"] == "backport-differs"]
	assert [i for i, _ in got] == [2], got
	f = got[0][1]
	assert f["commit"] == sys.argv[1], f
	assert f["files_dropped"] == [] and f["files_added"] == [], f
	assert f["lines_differ"] == 1, f
	assert f["lines"] == ["backport only: block/bio.c: +/* 4.4: keep the old fallback */"], f
	assert f["note"] == "1 line only in the backport", f
	assert r["summary"]["backport-differs"] == 1, r["summary"]
	EOF
'
test_expect_success 'review -v shows the differing line, the plain report not' '
	{ COLUMNS=200 "$FIXSCAN" review --repo kernel -v "$Q" >v.txt; test $? = 1; } &&
	grep -q "^  backport-differs [0-9a-f]\{12\} .*: 1 line only in the backport" v.txt &&
	grep -qx "    backport only: block/bio.c: +/\* 4.4: keep the old fallback \*/" v.txt &&
	{ COLUMNS=200 "$FIXSCAN" review --repo kernel "$Q" >plain.txt; test $? = 1; } &&
	grep -q "backport-differs" plain.txt &&
	! grep -q "backport only:" plain.txt
'
# flat FILE: its text on one line, white space runs made one space (the
# check's report wraps at 80 columns)
flat() {
	tr -s " \n" "  " <"$1"
}
test_expect_success 'check of 02: the advisory finding, exit 0' '
	"$FIXSCAN" check --repo kernel "$p02" >c02.txt &&
	flat c02.txt | grep -q "backport-differs [0-9a-f]\{12\} .*: 1 line only in the backport" &&
	"$FIXSCAN" check --repo kernel "$p01" >c01.txt &&
	! grep -q "backport-differs" c01.txt
'
# 02 with its diff moved to another file (block/bio.c is left out), under
# a Message-Id of its own (not the store's 02).
sed -e "s|block/bio\.c|block/blk-core.c|g" -e "s|^Message-Id: <|Message-Id: <dropped.|" \
	"$p02" >dropped.eml
test_expect_code 1 'check of a backport that leaves out a file: exit 1' '
	COLUMNS=200 "$FIXSCAN" check --repo kernel dropped.eml >drop.txt
'
test_expect_success '... naming the file upstream changes and the one it changes instead' '
	flat drop.txt | grep -q "backport-differs .*: upstream also changes block/bio.c; the backport also changes block/blk-core.c"
'
test_expect_success 'the reply to it asks about the file left out' '
	mkdir -p dd &&
	{ "$FIXSCAN" check --repo kernel --drafts --drafts-dir dd dropped.eml >/dev/null 2>dd.err;
	  test $? = 1; } &&
	draft=$(ls dd/cur/*) &&
	flat "$draft" | grep -q "This backport leaves out part of its upstream commit [0-9a-f]\{12\} (\"block: account discard bios in the partition statistics\"): upstream also changes block/bio.c and the changelog does not say why" &&
	grep -q "^  block/bio.c$" "$draft"
'
test_expect_success 'drafts: no reply to 02 (advisory), and the summary, which lists what asks for action, leaves it out' '
	mkdir -p mail/Drafts/cur mail/Drafts/new mail/Drafts/tmp &&
	{ "$FIXSCAN" review --repo kernel --drafts "$Q" >d.out 2>d.err; test $? = 1; } &&
	! grep -q "(re: 02/27 " d.err &&
	summary=$(grep -l "^Subject: Re: \[PATCH 4.4 00/27\]" mail/Drafts/cur/*) &&
	grep -q "fixes 03/27" "$summary" &&
	! grep -q "^  02/27 \|line only in the backport" "$summary"
'
# The digest: the 4.4 thread as if it had just arrived.
python3 "$SRC/tests/e2e/renew-thread.py" "$SRC/maildirs/review-4.4" "$TRASH/new-4.4" || exit 1
cp -R new-4.4 mail/new-4.4 && notmuch new --quiet || exit 1
test_expect_success 'digest: 02 is no risky patch for an advisory difference' '
	{ "$FIXSCAN" digest --repo kernel --json >dg.json; test $? -le 1; } &&
	python3 -c "
import json
d = json.load(open(\"dg.json\"))
assert [r for r in d[\"risky\"] if r[\"branch\"] == \"linux-4.4.y\"], d
assert [r for r in d[\"risky\"] if r[\"branch\"] == \"linux-4.4.y\"], d
assert not [r for r in d[\"risky\"] if r[\"index\"] == 2 and r[\"branch\"] == \"linux-4.4.y\"], d[\"risky\"]
"
'
# A clone without blobs: one note, and every other finding as before.
# (libgit2 1.5 leaks pcre2 match data when it opens a partial clone: the
# leak check of an ASan build is off for these runs alone.)
NOLEAK="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
git -C kernel config uploadpack.allowFilter true
git clone -q --mirror --filter=blob:none "file://$TRASH/kernel" partial.git || exit 1
test_expect_code 1 'a clone without blobs: the review goes on' '
	ASAN_OPTIONS=$NOLEAK "$FIXSCAN" review --repo partial.git --json "$Q" >p.json 2>p.err
'
test_expect_success '... says once that it cannot compare, and finds the rest' '
	test "$(grep -c "cannot compare backports with their upstream diffs" p.err)" = 1 &&
	python3 -c "
import json
a = json.loads(open(\"r.json\").readline())
b = json.loads(open(\"p.json\").readline())
def kinds(r):
    return sorted((p[\"index\"], f[\"kind\"], f[\"commit\"]) for p in r[\"patches\"] for f in p[\"findings\"])
want = [k for k in kinds(a) if k[1] != \"backport-differs\"]
assert kinds(b) == want, (kinds(b), want)
"
'
test_expect_success 'check in a clone without blobs says it once too' '
	ASAN_OPTIONS=$NOLEAK "$FIXSCAN" check --repo partial.git "$p02" >pc.txt 2>pc.err &&
	test "$(grep -c "cannot compare backports" pc.err)" = 1 &&
	! grep -q backport-differs pc.txt
'
test_done
