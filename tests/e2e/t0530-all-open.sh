#!/bin/sh
# review --all-open on the multi-branch sample: the review threads of 5.4,
# 5.10, 5.15 (an -rc1 and the -rc2 that supersedes it) and 6.1 posted the
# same day, a closed thread of last year, a FAILED and an "added to the
# stable tree" notice, in a real notmuch store; the JSON lines and the
# text matrix are checked against answers.json of "gen-kernel.py multi".
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" multi "$TRASH/multi" || exit 1
# A review of a branch the clone does not have (4.19): noted, not trouble.
mkdir -p extra/cur
cat >extra/cur/1.t0530:2,S <<'MAIL'
From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
To: stable@vger.kernel.org
Subject: [PATCH 4.19 1/1] net: fix a use-after-free in sock_foo()
Date: Mon, 15 Jan 2024 09:00:01 +0000
Message-Id: <1705309201.419.01@linuxfoundation.org>

4.19-stable review patch.  If anyone has any objections, please let me know.

------------------

commit 0000000000000000000000000000000000000000 upstream.
MAIL
setup_notmuch "$TRASH/mail" "$TRASH/multi/mail/multi" extra || exit 1
"$FIXSCAN" index --repo multi/kernel >/dev/null || exit 1
since=$(python3 -c 'import json; print(json.load(open("multi/answers.json"))["since"])')

cat >check.py <<'PY'
import json, sys
ans = json.load(open("multi/answers.json"))
ids = ans["ids"]
lines = open(sys.argv[1]).read().splitlines()
got = [json.loads(l) for l in lines]
ok = True
def fail(*a):
    global ok
    print(*a); ok = False
releases = [g["release"] for g in got]
if releases != ans["series"]:
    fail("series", releases, "!=", ans["series"])
have = []
for g in got:
    if "matrix" not in g:
        fail(g["release"], "has no matrix")
    for p in g["patches"]:
        for f in p["findings"]:
            if f["kind"] == "missing-in-newer":
                have.append([g["release"], p["index"], f["commit"], f["newer_branch"]])
                if not f["newer_thread"]:
                    fail("newer_thread false for", f["newer_branch"])
want = [[r, i, ids[c], b] for r, i, c, b in ans["missing_in_newer"]]
if sorted(have) != sorted(want):
    fail("missing-in-newer: want", sorted(want), "got", sorted(have))
rel, nn, fix, other, other_nn, failed = ans["fix_missing"]
g = [g for g in got if g["release"] == rel][0]
p = [p for p in g["patches"] if p["index"] == nn][0]
fm = [f for f in p["findings"] if f["kind"] == "fix-missing"]
if len(fm) != 1 or fm[0]["commit"] != ids[fix]:
    fail("fix-missing", fm)
else:
    f = fm[0]
    q = f["queued_elsewhere"]
    if len(q) != 1 or q[0]["branch"] != other or q[0]["index"] != other_nn or not q[0]["message_id"]:
        fail("queued_elsewhere", q)
    if not f["failed_to_apply"] or f["failed_message_id"] != failed or not f["failed_date"]:
        fail("failed", f["failed_to_apply"], f["failed_message_id"], f["failed_date"])
# every other fix-missing anywhere would be a false objection
for g2 in got:
    for p2 in g2["patches"]:
        for f2 in p2["findings"]:
            if f2["kind"] == "fix-missing" and p2 is not p:
                fail("unexpected fix-missing", g2["release"], p2["index"], f2["commit"])
m = got[0]["matrix"]
if m["branches"] != ["linux-5.4.y", "linux-5.10.y", "linux-5.15.y", "linux-6.1.y"]:
    fail("matrix branches", m["branches"])
rows = {r["commit"]: r["cells"] for r in m["rows"]}
def state(c, b):
    return rows[ids[c]][b]["state"]
exp = {("a", "linux-6.1.y"): "queued", ("b", "linux-5.15.y"): "missing",
       ("b", "linux-6.1.y"): "added", ("dd", "linux-5.10.y"): "missing",
       ("cf", "linux-5.15.y"): "failed", ("cf", "linux-6.1.y"): "queued",
       ("c", "linux-5.4.y"): "none"}
for (c, b), s in exp.items():
    if ids[c] not in rows:
        fail("no matrix row for", c); continue
    if state(c, b) != s:
        fail("matrix", c, b, state(c, b), "!=", s)
if rows[ids["a"]]["linux-5.4.y"]["index"] != 1:
    fail("matrix index", rows[ids["a"]]["linux-5.4.y"])
sys.exit(0 if ok else 1)
PY

test_expect_code 1 'review --all-open --json finds the upgrade regressions (exit 1)' '
	"$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --json >open.json 2>open.err
'
test_expect_success 'one JSON line per open series, the -rc1 superseded, the closed thread left out' '
	test $(wc -l <open.json) = 4 &&
	grep -q "5.15.147-rc1: superseded" open.err &&
	grep -q "not reviewed: branch .linux-4.19.y. .* is not in the kernel repository" open.err &&
	! grep -q "5.10.185" open.json
'
test_expect_success 'missing-in-newer, queued elsewhere, FAILED and the matrix as expected' '
	python3 check.py open.json
'
test_expect_code 1 'the text report has the matrix on top' '
	COLUMNS=500 "$FIXSCAN" review --repo multi/kernel --all-open --since "$since" >open.txt 2>/dev/null
'
test_expect_success 'the matrix: one column per branch, MISSING, FAILED, added, queued' '
	head -n 1 open.txt | grep -q "^open reviews: 5.4.267-rc1 (linux-5.4.y), 5.10.208-rc1" &&
	sed -n 2p open.txt | grep -q "^matrix: 5 commits" &&
	sed -n 3p open.txt | grep -q "^commit  *5.4  *5.10  *5.15  *6.1  *subject" &&
	grep -q "usb: core: fix a leak in usb_bar()$" open.txt &&
	grep "usb: core: fix a leak in usb_bar()$" open.txt | grep -q "queued 02/03  *queued 02/02  *MISSING  *added" &&
	grep "blend fix$" open.txt | grep -q -- "-  *-  *FAILED  *queued 03/03"
'
test_expect_success 'the matrix has a legend of its cells, right under its rows' '
	sed -n 9,15p open.txt >legend &&
	sed -n 1p legend | grep -q "^cells:  queued NN/MM  patch NN of the branch.s open thread$" &&
	grep -q "^        added  *an \"added to the stable tree\" notice" legend &&
	grep -q "^        in vX.Y.Z  *in the branch since that release" legend &&
	grep -q "^        MISSING  *flagged: missing-in-newer or fix-missing$" legend &&
	grep -q "^        FAILED  *a FAILED notice" legend &&
	grep -q "^        reverted  *the branch took it and reverted it$" legend &&
	grep -q "^        -  *not in the branch, and nothing asks for it$" legend
'
test_expect_success 'the text names the newer branch, the other queue and the FAILED notice' '
	grep -q "missing-in-newer .*not in linux-5.15.y as of v5.15.146" open.txt &&
	grep -q "queued for 6.1 as 03/03" open.txt &&
	grep -q "FAILED to apply to this branch" open.txt
'
test_expect_code 1 'review --all-open --dry-run: the drafts ask in the maintainer'"'"'s words' '
	"$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --dry-run >drafts.mbox 2>/dev/null
'
test_expect_success '... the newer branches named, the FAILED fix asked to be backported' '
	tr "\n" " " <drafts.mbox | sed "s/  */ /g" >drafts.flat &&
	grep -q "This is not in 5.10.y, 5.15.y or 6.1.y yet, newer stable branches: a user upgrading from 5.4.y would lose the fix" drafts.flat &&
	grep -q "This is not in 5.15.y yet, a newer stable branch: a user upgrading from 5.10.y" drafts.flat &&
	grep -q "(queued for 6.1 as 03/03)" drafts.mbox &&
	grep -q "it needs a manual backport" drafts.flat &&
	grep -q "Fixes to add: 986e51c3a8ca (\"drm/vkms: do not read past the line in the blend fix\") in no release yet, fixes 02/02; it did not apply when tagged for stable, so it needs a manual backport" drafts.flat &&
	grep -q "^Not in a newer stable branch yet (lost on upgrade):" drafts.mbox &&
	test $(grep -c "^Subject: Re: \[PATCH 6.1" drafts.mbox) = 0
'
test_expect_success 'without --since nothing is open any more (the deadlines passed): exit 0' '
	"$FIXSCAN" review --repo multi/kernel --all-open >none.txt 2>none.err &&
	grep -q "no open stable review thread" none.err
'
test_expect_code 1 'a maintainedWithin of a year makes no difference here (5.8: 2020)' '
	git config --global fixscan.maintainedWithin "1 year" &&
	"$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --json >year.json 2>/dev/null
'
test_expect_success '... and with ten years 5.8 is maintained and named' '
	cmp open.json year.json &&
	git config --global fixscan.maintainedWithin "10 years" &&
	{ "$FIXSCAN" review --repo multi/kernel --all-open --since "$since" --json >ten.json 2>/dev/null; test $? = 1; } &&
	grep -q "\"newer_branch\":\"linux-5.8.y\"" ten.json &&
	git config --global --unset fixscan.maintainedWithin
'
test_expect_code 2 'a maintainedWithin that cannot be read is trouble' '
	git config --global fixscan.maintainedWithin "soon" &&
	"$FIXSCAN" review --repo multi/kernel --all-open --since "$since"; rc=$?
	git config --global --unset fixscan.maintainedWithin; exit $rc
'
test_expect_code 2 '--since without --all-open is a usage error' '
	"$FIXSCAN" review --repo multi/kernel --since 1d "id:x@y"
'
test_expect_code 2 '--all-open takes no thread' '
	"$FIXSCAN" review --repo multi/kernel --all-open "id:x@y"
'
test_expect_code 1 'digest ranks missing-in-newer like fix-missing' '
	"$FIXSCAN" digest --repo multi/kernel --since "$since" --json >digest.json 2>/dev/null
'
test_expect_success '... the 5.4 ext4 patch is among the risky ones' '
	grep -q "missing-in-newer" digest.json || { cat digest.json; exit 1; }
'
test_done
