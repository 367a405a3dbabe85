#!/bin/sh
# Every reply is read, as review --mbox gives it: a test report on the
# cover that names a patch goes to that patch, one that names none to the
# series, one whose trace names a function a patch changes to that patch; a request for more commits names each, resolved through the
# index; an approval that says "drop" of code is no objection; a reply
# carrying its own patch is a replacement; a thread whose patch mails are
# absent still reports its replies; a reply is read with who says it and
# what it answers (a stable maintainer's "Will do" under a request to
# drop, a stranger's question); a robot's report on stable-rc, which
# carries no patch, has its replies read.  The mails are made up here.
. "$(dirname "$0")/lib.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1

python3 - "$TRASH/kernel/answers.json" <<'PY' || exit 1
import json, mailbox, sys
a = json.load(open(sys.argv[1]))["threads"]["review-4.4"]["patches"]
u1, u2 = a[0]["upstream"], a[1]["upstream"]
s1, s2 = a[0]["subject"], a[1]["subject"]
json.dump({"u1": u1, "u2": u2}, open("ids.json", "w"))

def box(path, mails):
    mb = mailbox.mbox(path, create=True)
    for i, (frm, subject, mid, body, irt, extra) in enumerate(mails):
        h = ["From: " + frm, "To: stable@vger.kernel.org", "Subject: " + subject,
             "Date: Thu, 14 Apr 2016 %02d:00:00 +0000" % i,
             "Message-Id: <%s@t0515.example.org>" % mid]
        if irt:
            h.append("In-Reply-To: <%s@t0515.example.org>" % irt)
            h.append("References: <c@t0515.example.org> <%s@t0515.example.org>" % irt)
        mb.add(("\n".join(h) + "\n" + extra + "\n" + body + "\n").encode())
    mb.flush()

greg = "Greg <greg@stable.example.org>"
kt = "X-KernelTest-Branch: linux-4.4.y\n"
carried = ("This one applies to 4.4 instead:\n\n"
           "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
           "From: Ann <ann@example.com>\nSubject: [PATCH] a fix\n\n"
           "It stops a crash.\n\ndiff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n")
box("thread.mbox", [
    (greg, "[PATCH 4.4 0/2] 4.4.7-stable review", "c",
     "This is the start of the stable review cycle for the 4.4.7 release.", None, kt),
    (greg, "[PATCH 4.4 1/2] " + s1, "p1", "commit %s upstream.\n\nText." % u1, "c", kt),
    (greg, "[PATCH 4.4 2/2] " + s2, "p2", "commit %s upstream.\n\nText.\n---\n"
     "diff --git a/net/core/frob_tab.c b/net/core/frob_tab.c\n--- a/net/core/frob_tab.c\n"
     "+++ b/net/core/frob_tab.c\n@@ -10,3 +10,4 @@ static int frob_table_setup(struct frob *f)\n"
     "+\tf->n = 0;\n" % u2, "c", kt),
    ("Lab <lab@example.com>", "Re: [PATCH 4.4 0/2] 4.4.7-stable review", "lab",
     "Our lab hits a warning at boot:\n\n  WARNING: CPU: 1 PID: 1 at frob_table_setup+0x10/0x40\n"
     "  Call trace:\n   frob_table_setup+0x10/0x40\n", "c", ""),
    ("Farm <farm@example.com>", "Re: [PATCH 4.4 0/2] 4.4.7-stable review", "farm",
     "Regressions on arm64: the build fails with\n\n  x.c:1:2: error: 'Y' undeclared\n\n"
     "which comes from \"%s\".\n" % s2, "c", ""),
    ("Tim <tim@example.com>", "Re: [PATCH 4.4 0/2] 4.4.7-stable review", "tim",
     "We are seeing a boot hang on our x86 boards with this release.\n", "c", ""),
    ("Ned <ned@example.com>", "Re: [PATCH 4.4 1/2] " + s1, "ned",
     "On Thu, Greg wrote:\n> %s\n\nPlease also pick up %s with this one,\n"
     "and 0123456789abcdef0123 too.\n" % (s1, u2[:12]), "p1", ""),
    ("Amy <amy@example.com>", "Re: [PATCH 4.4 2/2] " + s2, "amy",
     "Looks fine to me, and I agree it is better to drop the old helper.\n", "p2", ""),
    ("Tess <tess@example.com>", "Re: [PATCH 4.4 2/2] " + s2, "tess",
     "Tested-by: Tess <tess@example.com>\n", "p2", ""),
    ("Ann <ann@example.com>", "Re: [PATCH 4.4 1/2] " + s1, "ann", carried, "p1", ""),
])
# who says it and what it answers: a stable maintainer's "Will do" under
# a reviewer's request to drop drops it; a stranger's question whether the
# patch belongs is a question, a stable maintainer's condition objects
drop = "Please drop this from the 4.4 queue, it is only a cleanup."
box("answers.mbox", [
    (greg, "[PATCH 4.4 0/2] 4.4.7-stable review", "c",
     "This is the start of the stable review cycle for the 4.4.7 release.", None, kt),
    (greg, "[PATCH 4.4 1/2] " + s1, "p1", "commit %s upstream.\n\nText." % u1, "c", kt),
    (greg, "[PATCH 4.4 2/2] " + s2, "p2", "commit %s upstream.\n\nText." % u2, "c", kt),
    ("Rev <rev@example.com>", "Re: [PATCH 4.4 1/2] " + s1, "rev", drop, "p1", ""),
    (greg, "Re: [PATCH 4.4 1/2] " + s1, "will", "On Thu, Rev wrote:\n> %s\n\nWill do, thanks!\n" % drop,
     "rev", ""),
    ("Sam <sam@example.com>", "Re: [PATCH 4.4 2/2] " + s2, "sam",
     "Why was this one picked for the stable trees at all?\n", "p2", ""),
    (greg, "Re: [PATCH 4.4 2/2] " + s2, "cond", "What upstream commit is this from?\n", "p2", ""),
])
# a test robot's report on stable-rc carries no patch: its replies are read
box("robot.mbox", [
    ("robot <lkp@example.org>", "[linux-stable-rc:linux-4.4.y 12/34] x.c:1:2: error: y", "rep",
     "tree: linux-stable-rc linux-4.4.y\ncommit: 0a1b2c3d [12/34] x: y\n", None, ""),
    ("Ned <ned@example.com>", "Re: [linux-stable-rc:linux-4.4.y 12/34] x.c:1:2: error: y", "ned",
     "Already fixed upstream:\n%s (\"%s\")\n" % (u2[:12], s2), "rep", ""),
])
box("orphans.mbox", [
    ("Nia <nia@example.com>", "Re: [PATCH 4.4 1/2] " + s1, "nia",
     "NAK, this is not needed for 4.4 at all.\n", "absent", ""),
])
PY
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1

# The findings that cite a mail: (where, kind, mail, commit, series_index).
cat >said.py <<'PY'
import json, sys
ids = json.load(open("ids.json"))
got = set()
for line in open(sys.argv[1]):
    r = json.loads(line)
    where = [("series", f) for f in r.get("series_findings", [])]
    where += [(p["index"], f) for p in r["patches"] for f in p["findings"]]
    for at, f in where:
        if f["message_id"]:
            c = f["commit"] or ""
            c = {ids["u1"]: "u1", ids["u2"]: "u2"}.get(c, c)
            got.add((str(at), f["kind"], f["message_id"].split("@")[0], c,
                     f["series_index"] if f["kind"] == "needs-also" else None))
want = set()
for w in sys.argv[2:]:
    at, kind, mid, c, si = w.split(":")
    want.add((at, kind, mid, c, int(si) if si else None))
if got != want:
    print("missing", sorted(want - got, key=str)); print("extra", sorted(got - want, key=str))
    sys.exit(1)
PY

test_expect_code 1 'review --mbox of a thread with replies to the cover and the patches' '
	"$FIXSCAN" review --repo kernel --mbox thread.mbox --json >thread.json 2>thread.err
'
test_expect_success '... every reply is read, each where it belongs, nothing else' '
	python3 said.py thread.json \
		2:regression-report:farm:: series:regression-report:tim:: 2:regression-report:lab:: \
		1:needs-also:ned:u2:2 1:needs-also:ned:0123456789abcdef0123: \
		2:reply:amy:: 1:replacement-posted:ann::
'
test_expect_success '... the text report lists the series reply and the commit asked for' '
	COLUMNS=200 "$FIXSCAN" review --repo kernel --mbox thread.mbox >thread.txt 2>/dev/null;
	grep -q "^series (replies that name no one patch)" thread.txt &&
	grep -q "needs-also .*, queued as 2/2; from Ned" thread.txt &&
	grep -q "needs-also 0123456789ab.*not in the kernel repository; from Ned" thread.txt &&
	! grep -q "objection" thread.txt
'
test_expect_code 1 'replies whose patch mails are absent: read, not exit 2' '
	"$FIXSCAN" review --repo kernel --mbox orphans.mbox --json >orphans.json 2>orphans.err
'
test_expect_success '... the reply is the series'"'"' own objection, and stderr says why' '
	python3 said.py orphans.json series:objection:nia:: &&
	grep -q "1 reply whose patch mails are absent: reading it" orphans.err
'

test_expect_code 1 'review --mbox of replies read with who says them and what they answer' '
	"$FIXSCAN" review --repo kernel --mbox answers.mbox --json >answers.json 2>answers.err
'
test_expect_success '... the maintainer'"'"'s agreement and condition object, the stranger'"'"'s question does not' '
	python3 said.py answers.json 1:objection:rev:: 1:objection:will:: 2:reply:sam:: 2:objection:cond::
'
test_expect_success '... the drafts quote each objection, the summary lists them as reports' '
	mkdir -p "$XDG_CONFIG_HOME/git" &&
	printf "[user]\n\tname = Rita\n\temail = rita@example.org\n" >"$XDG_CONFIG_HOME/git/config" &&
	"$FIXSCAN" review --repo kernel --mbox answers.mbox --drafts=all --dry-run >drafts.mbox 2>/dev/null;
	python3 -c "
import mailbox
for m in mailbox.mbox(\"drafts.mbox\"):
    print(\"=== \" + str(m[\"Subject\"]))
    print(m.get_payload(decode=True).decode())" >drafts.txt &&
	grep -q "Will do, thanks!" drafts.txt && grep -q "What upstream commit is this from?" drafts.txt &&
	grep -q "a reply from Greg" drafts.txt && grep -q "a reply from Rev" drafts.txt &&
	! grep -q "a reply from Sam" drafts.txt
'
test_expect_code 1 'review --mbox of a robot'"'"'s report on stable-rc and its reply' '
	"$FIXSCAN" review --repo kernel --mbox robot.mbox --json >robot.json 2>robot.err
'
test_expect_success '... the reply asks for the commit that fixed it, on the branch the report names' '
	python3 said.py robot.json series:needs-also:ned:u2: &&
	grep -q "\"branch\":\"linux-4.4.y\",\"branch_source\":\"subject\"" robot.json
'

test_done
