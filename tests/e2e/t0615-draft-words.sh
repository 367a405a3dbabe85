#!/bin/sh
# What every draft says, checked over ALL drafts of the samples (issue
# 30), so that no kind of finding, new or old, can break it unnoticed:
# review-4.4 (every kind of a single series; the default drafts and
# --drafts-for=every-finding, written into the drafts maildir) and the
# multi-branch sample (review --all-open).  tests/e2e/draft-check.py
# says what is checked: quotes are lines of the answered mail, no header
# names the tool, a missing fix is asked for in one per-patch draft, a
# reporter is in To/Cc, the summary lists only what asks for action,
# lines fit 72 columns but for an unbreakable commit reference.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
python3 "$SRC/scripts/gen-kernel.py" multi "$TRASH/multi" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" "$TRASH/multi/mail/multi" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
"$FIXSCAN" index --repo multi/kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
CHECK="python3 $SRC/tests/e2e/draft-check.py"
since=$(python3 -c 'import json; print(json.load(open("multi/answers.json"))["since"])')

"$FIXSCAN" review --repo kernel --json "$Q" >r44.json 2>/dev/null

test_expect_code 1 'review-4.4: the drafts of --drafts, as written into the maildir' '
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>w.err
'
test_expect_success '... every one passes every check' '
	ls "$D"/cur/* >files && test "$(wc -l <files)" -gt 10 &&
	$CHECK --review r44.json --asks "$TRASH/mail" $(cat files)
'
test_expect_success '... each kind of the sample is in them, asked once' '
	python3 - <<-\PY
	import email, email.policy, glob, json
	r = json.loads(open("r44.json").readline())
	bodies = {}
	for f in glob.glob("mail/Drafts/cur/*"):
	    m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
	    bodies[m["In-Reply-To"].strip("<>")] = m.get_body().get_content()
	s = bodies[r["cover"]["message_id"]]
	# asks for action: listed; asks nothing: not listed
	for p in r["patches"]:
	    kinds = {f["kind"] for f in p["findings"]}
	    num = "%02d/27" % p["index"]
	    if kinds and kinds <= {"fixes-tag-mismatch", "reverts-stable", "no-upstream",
	                           "fix-queued", "fix-present"}:
	        assert "  " + num + " " not in s, (num, kinds)
	        assert p["message_id"] not in bodies, (num, kinds)
	    if "regression-report" in kinds:
	        assert "  " + num + " " in s, num
	# the subject is never quoted as the author words
	for p in r["patches"]:
	    b = bodies.get(p["message_id"])
	    if b:
	        title = p["subject"].split("] ", 1)[1]
	        assert "> " + title not in b, (p["index"], b)
	PY
'
# What the maintainer reads in the sample's drafts, sentence by sentence
# (the reviews of drafts30b): each assertion a wording a reader took
# wrong.
cat >words.py <<'PY'
import email, email.policy, glob, json, re, sys
r = json.loads(open("r44.json").readline())
bodies, heads = {}, {}
for f in glob.glob("mail/Drafts/cur/*"):
    m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
    key = m["In-Reply-To"].strip("<>")
    bodies[key] = m.get_body().get_content()
    heads[key] = m
num = {p["index"]: p["message_id"] for p in r["patches"]}
def body(n):
    return re.sub(r"\s+", " ", bodies[num[n]] if n else bodies[r["cover"]["message_id"]])
def has(n, text):
    assert re.sub(r"\s+", " ", text) in body(n), (n, text, body(n))
def hasnt(n, text):
    assert re.sub(r"\s+", " ", text) not in body(n), (n, text, body(n))
check = sys.argv[1]
if check == "duplicate":
    # 02/27 differs from upstream, 27/27 is the faithful copy: never
    # "drop this one" on the clean copy
    hasnt(27, "Please drop this one")
    has(27, "but the two are not the same diff: 02/27 differs from the upstream commit, this one does not. Which of the two is meant?")
    has(0, "again, as 02/27, but not the same diff: which one is meant?")
if check == "once":
    s = bodies[r["cover"]["message_id"]]
    reports = s.split("Reports and replies:", 1)[1].split("\n\n", 1)[1].split("\n\n", 1)[0]
    # Dmitri asks for the fix the summary lists: said on its line, once
    assert s.count("20160425034451.100269246@example.com") == 1, s
    has(0, "fixes 03/27 (Dmitri Orlov asked for it too: https://lore.kernel.org/r/20160425034451.100269246@example.com)")
    assert "03/27" not in reports, reports
    # Chen replies on 07/27, listed as reverted: an item of that entry
    assert s.count("a reply from Chen Weilin") == 1, s
    assert "07/27" not in reports, reports
    rev = s.split("Reverted upstream:", 1)[1].split("\n\n  ", 2)[1]
    assert "a reply from Chen Weilin" in rev, rev
    # the 03/27 draft: the quote first, the request once
    b = body(3)
    assert b.count("20160425034451.100269246@example.com") == 1, b
    assert b.index("As Dmitri Orlov wrote") < b.index("Please queue it as well."), b
    assert b.count("Please queue") == 1, b
    hasnt(3, "wrote in reply to this patch")
    # the 07/27 draft: Chen asks to drop it for the revert the draft
    # names: quoted first, the request once, the quote once
    b = body(7)
    assert b.count("20160425024451.100261327@example.net") == 1, b
    assert b.index("As Chen Weilin wrote") < b.index("This commit was reverted upstream:"), b
    assert b.count("Please drop it from this series") == 1, b
    hasnt(7, "wrote in reply to this patch")
if check == "chain":
    has(20, "Its follow-up fix 8028d6694e09 (\"sched/fair: do not update the blocked load of a group being destroyed\") is queued as 21/27; that one needs c5fef009a731 (\"sched/fair: hold the runqueue lock when skipping a destroyed group\") in turn, which I asked for in my reply to 21/27.")
    hasnt(20, "so that one is covered")
    hasnt(20, "This commit needs")
    has(0, "in v4.7-rc1, fixes 21/27 (a fix of 20/27)")
if check == "picks":
    has(19, "One of the upstream commits this patch picks has a known follow-up fix that is not in this series:")
    has(19, "which fixes 60db7b907067, the second upstream commit this patch picks")
    hasnt(19, "This commit has")
if check == "headings":
    s = bodies[r["cover"]["message_id"]]
    # a prerequisite is no fix
    assert "\nCommits to add:\n" in s and "Fixes to add:" not in s, s
    pend = s.split("\nFixes on their way to mainline:\n", 1)[1].split("\n\n", 1)[0]
    assert "24/27" in pend, pend
    reports = s.split("\nReports and replies:\n", 1)[1].split("\n\n", 1)[0]
    assert "not in mainline yet" not in reports, reports
    has(0, "In mainline from the same upstream postings as patches here, but not queued (maybe on purpose):")
    has(0, "2a6edf04f148 is in v4.4-rc1, before linux-4.4.y forked")
    hasnt(0, "since v4.4-rc1")
if check == "cc":
    import email.utils
    m = heads[r["cover"]["message_id"]]
    to = {a.lower() for _, a in email.utils.getaddresses([str(m["To"] or ""), str(m["Cc"] or "")])}
    s = bodies[r["cover"]["message_id"]]
    cited = 0
    for p in r["patches"]:
        for f in p["findings"]:
            if f.get("from") and f.get("message_id") and f["message_id"] in s:
                cited += 1
                assert email.utils.parseaddr(f["from"])[1].lower() in to, (f["from"], to)
    assert cited >= 4, cited
if check == "date":
    # a cited report's Date is the mail's own, time zone and all
    import glob as g
    for n in (13, 14):
        p = [p for p in r["patches"] if p["index"] == n][0]
        f = [f for f in p["findings"] if f["kind"] == "regression-report"][0]
        mails = [m for m in (email.message_from_binary_file(open(x, "rb"), policy=email.policy.default)
                             for x in g.glob(sys.argv[2] + "/*/cur/*"))
                 if (m["Message-Id"] or "").strip("<>") == f["message_id"]]
        assert mails, f
        has(n, "Date: " + str(mails[0]["Date"]))
    has(13, "Date: Mon, 18 Apr 2016 07:14:51 +0530")
PY
test_expect_success 'the sample: a cited report keeps its own Date' '
	python3 words.py date "$SRC/maildirs"
'
test_expect_success 'the sample: the summary Cc has everyone whose mail it cites' '
	python3 words.py cc
'
test_expect_success 'the sample: the summary headings say what they hold' '
	python3 words.py headings
'
test_expect_success 'the sample: a patch of two upstream commits says which one its fix fixes' '
	python3 words.py picks &&
	{ "$FIXSCAN" review --repo kernel "$Q" >r44.txt 2>/dev/null; test $? -eq 1; } &&
	tr -s " \n" "  " <r44.txt >r44.flat &&
	grep -q "fix-missing b3ac6e2ab3f4 (\"x86/mm: fix the flush counter for the single-page case\") in v4.6-rc2, neither in linux-4.4.y nor in this series; it fixes 60db7b907067, the second upstream commit" r44.flat &&
	! grep -q "not in linux-4.4.y nor" r44.flat
'
test_expect_success 'the sample: a fix of a queued fix, said in the order of the chain' '
	python3 words.py chain
'
test_expect_success 'the sample: a reply asking what the summary lists is folded into it, the draft asks once' '
	python3 words.py once
'
test_expect_success 'the sample: two copies of one commit, not the same diff, ask which one' '
	python3 words.py duplicate
'
test_expect_success 'review-4.4: --drafts-for=every-finding --dry-run, every draft' '
	{ "$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run "$Q" >every.mbox 2>/dev/null; test $? -eq 1; } &&
	test "$(grep -c "^From " every.mbox)" -gt 16 &&
	$CHECK --review r44.json "$TRASH/mail" every.mbox
'
test_expect_success 'the multi-branch sample: review --all-open --dry-run, every draft' '
	{ "$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --json >rm.json 2>/dev/null; test $? -eq 1; } &&
	{ "$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --dry-run >multi.mbox 2>/dev/null; test $? -eq 1; } &&
	test "$(grep -c "^From " multi.mbox)" -gt 3 &&
	$CHECK --review rm.json --asks "$TRASH/mail" multi.mbox
'
# The checks can fail: a made-up quote, a long line, the tool in a
# header, a request in two drafts, a summary naming what asks nothing.
test_expect_success 'the checker fails on drafts that break each rule' '
	python3 - "$D" <<-\PY
	import glob, os, re, sys
	cover = [f for f in glob.glob(sys.argv[1] + "/cur/*") if " 00/27]" in open(f).read()][0]
	patch = [f for f in glob.glob(sys.argv[1] + "/cur/*") if " 22/27]" in open(f).read()][0]
	os.makedirs("bad", exist_ok=True)
	def bad(name, src, old, new, count=1):
	    t = open(src).read()
	    assert old in t, (old, src)
	    open("bad/" + name, "w").write(t.replace(old, new, count))
	bad("quote", patch, "\n> ", "\n> netfilter: made-up words\n> ")
	bad("long", patch, "\nPlease queue", "\nPlease " + "queue " * 14)
	bad("header", patch, "\nMessage-Id: <", "\nMessage-Id: <fixscan.")
	bad("summary", cover, "Details are", "  11/27 ext4: silence a warning\n\nDetails are")
	PY
	for f in quote long header summary; do
		$CHECK --asks "$TRASH/mail" bad/$f "$D"/cur/* >bad-$f.out && { cat bad-$f.out; exit 1; }
		grep -q "^bad/$f" bad-$f.out || { cat bad-$f.out; exit 1; }
	done
'
test_done
