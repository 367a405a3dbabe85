#!/bin/sh
# Threads as real review traffic shapes them, in a maildir built here over
# the sample kernel: an -rc2 posted with --in-reply-to under the -rc1
# cover, a single un-numbered backport, and a series whose two patches
# share an upstream commit that a list mail reports, next to the
# reviewer's own mail (a sent reply, fixscan's digest, a draft) that
# names it too and must never count as evidence.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1

python3 - "$TRASH/kernel/answers.json" "$TRASH/src" <<'PY' || exit 1
import json, os, sys
a = json.load(open(sys.argv[1]))["threads"]["review-4.4"]["patches"]
u1, u2 = a[0]["upstream"], a[1]["upstream"]
s1, s2 = a[0]["subject"], a[1]["subject"]
dst = sys.argv[2]
n = [0]

def mail(folder, frm, subject, mid, body, irt=None, refs=(), extra="", flags="S"):
    for d in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(dst, folder, d), exist_ok=True)
    n[0] += 1
    h = ["From: " + frm, "To: stable@vger.kernel.org", "Subject: " + subject,
         "Date: Thu, 14 Apr 2016 %02d:00:00 +0000" % (n[0] % 24),
         "Message-Id: <%s@t0510.example.org>" % mid]
    if irt:
        h.append("In-Reply-To: <%s@t0510.example.org>" % irt)
    if refs:
        h.append("References: " + " ".join("<%s@t0510.example.org>" % r for r in refs))
    text = "\n".join(h) + "\n" + extra + "\n" + body + "\n"
    name = "%d.t0510:2,%s" % (n[0], flags)
    open(os.path.join(dst, folder, "cur", name), "w").write(text)
    return os.path.join(dst, folder, "cur", name)

greg = "Greg <greg@stable.example.org>"
kt = "X-KernelTest-Branch: linux-4.4.y\n"
# rc1 and, sent with --in-reply-to=<rc1 cover>, rc2.
mail("rc", greg, "[PATCH 4.4 0/2] 4.4.7-stable review", "c1",
     "This is the start of the stable review cycle for the 4.4.7 release.", extra=kt)
mail("rc", greg, "[PATCH 4.4 1/2] " + s1, "rc1-1", "commit %s upstream." % u1, "c1", ["c1"], kt)
mail("rc", greg, "[PATCH 4.4 2/2] " + s2, "rc1-2", "commit %s upstream." % u2, "c1", ["c1"], kt)
mail("rc", greg, "[PATCH 4.4 0/2] 4.4.7-rc2 review", "c2",
     "This is the start of the stable review cycle for the 4.4.7 release.", "c1", ["c1"], kt)
mail("rc", greg, "[PATCH 4.4 1/2] " + s1, "rc2-1", "commit %s upstream." % u1, "c2", ["c1", "c2"], kt)
mail("rc", greg, "[PATCH 4.4 2/2] " + s2, "rc2-2", "commit %s upstream." % u2, "c2", ["c1", "c2"], kt)
mail("rc", "Tess <tess@example.com>", "Re: [PATCH 4.4 0/2] 4.4.7-rc2 review", "rc2-test",
     "No regressions found on arm64, x86_64.\n\nTested-by: Tess <tess@example.com>",
     "c2", ["c1", "c2"])

# A single backport, as its author sends it.
single = mail("single", "Ann <ann@example.com>", "[PATCH 4.4] " + s1, "single",
              "commit %s upstream.\n\nSigned-off-by: Ann <ann@example.com>\n---\n"
              " net/ipv4/tcp.c | 1 +\n" % u1)
os.symlink(single, os.path.join(dst, "..", "single.eml"))

# Two patches of one upstream commit; a list report of it; the
# reviewer's own mail about it.
mail("own", greg, "[PATCH 4.4 0/2] 4.4.7-stable review", "oc",
     "This is the start of the stable review cycle for the 4.4.7 release.", extra=kt)
mail("own", greg, "[PATCH 4.4 1/2] " + s1, "o1", "commit %s upstream." % u1, "oc", ["oc"], kt)
mail("own", greg, "[PATCH 4.4 2/2] " + s1 + " (part two)", "o2",
     "commit %s upstream." % u1, "oc", ["oc"], kt)
mail("own", "Rita Reviewer <rita@example.org>", "Re: [PATCH 4.4 1/2] " + s1, "own-drop",
     "Please drop this, it breaks the build.", "o1", ["oc", "o1"])
mail("lists", "Bo <bo@example.com>", "[REGRESSION] tcp hangs", "report",
     "I bisected the hang to %s (\"%s\"), a regression." % (u1[:12], s1))
mail("lists", "Rita Reviewer <rita@example.org>", "Re: [REGRESSION] tcp hangs", "own-sent",
     "Greg, %s is a regression, see above." % u1[:12], "report", ["report"])
mail("lists", "Rita Reviewer <rita@example.org>", "fixscan digest: 1 risky patch", "own-digest",
     "1. regression-report %s %s" % (u1[:12], s1),
     extra="X-Fixscan-Digest: own-digest@t0510.example.org\n")
mail("lists", "Someone <someone@example.com>", "Re: [REGRESSION] tcp hangs", "own-draft",
     "Unsent: %s is a regression." % u1[:12], "report", ["report"], flags="DS")
PY
setup_notmuch "$TRASH/mail" src/rc src/single src/own src/lists || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

test_expect_success 'review of an -rc2 posted under the -rc1 cover: two series' '
	"$FIXSCAN" review --repo kernel --json "path:rc/**" >rc.json;
	test $? != 2 &&
	python3 -c "
import json
rs = [json.loads(l) for l in open(\"rc.json\") if l.strip()]
got = [(r[\"cover\"][\"subject\"], [p[\"message_id\"] for p in r[\"patches\"]]) for r in rs]
want = [(\"[PATCH 4.4 0/2] 4.4.7-stable review\", [\"rc1-1@t0510.example.org\", \"rc1-2@t0510.example.org\"]),
        (\"[PATCH 4.4 0/2] 4.4.7-rc2 review\", [\"rc2-1@t0510.example.org\", \"rc2-2@t0510.example.org\"])]
assert got == want, got
for r in rs:
    assert r[\"missing\"] == [], r
    assert not [f for p in r[\"patches\"] for f in p[\"findings\"] if f[\"kind\"] == \"objection\"], r
"
'
test_expect_success '... and the text report says nothing was received twice' '
	"$FIXSCAN" review --repo kernel "path:rc/**" >rc.txt;
	test $? != 2 &&
	! grep -q "received twice" rc.txt &&
	! grep -q "has no patches" rc.txt &&
	test "$(grep -c "^review: " rc.txt)" = 2
'
test_expect_success 'check on a single un-numbered [PATCH 4.4] file' '
	"$FIXSCAN" check --repo kernel single.eml >single.txt 2>single.err;
	test $? != 2 &&
	! grep -q "no stable review series" single.err &&
	grep -q "^1/1 " single.txt
'
test_expect_success 'the reviewer'"'"'s own mail is never evidence; a report counts once per patch' '
	"$FIXSCAN" review --repo kernel --json "path:own/**" >own.json;
	test $? = 1 &&
	python3 -c "
import json
r = json.loads(open(\"own.json\").readline())
for p in r[\"patches\"]:
    ev = sorted((f[\"kind\"], f[\"message_id\"]) for f in p[\"findings\"]
                if f[\"kind\"] in (\"regression-report\", \"objection\"))
    assert ev == [(\"regression-report\", \"report@t0510.example.org\")], (p[\"index\"], ev)
"
'
test_done
