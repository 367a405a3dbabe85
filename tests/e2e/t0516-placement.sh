#!/bin/sh
# Where each reply of a review thread goes, as review --mbox gives it,
# when most patch mails are absent (a partial fetch): the cover's
# shortlog numbers the absent patches; a reply names one by its title in
# its own words, or by the one shortlog entry it quotes just above its
# own text, or answers its mail (the subject's NN/MM); a reply that names
# none goes where the reply it answers went; a reply that kept no
# In-Reply-To or References joins the cover its subject answers; two
# plain replies are two findings; a cover reply in a thread with a single
# patch mail of many is not that patch's.  The mails are made up here.
. "$(dirname "$0")/lib.sh"

# fixed dates: the same ids every run
export GIT_AUTHOR_DATE="2016-04-01T00:00:00Z" GIT_COMMITTER_DATE="2016-04-01T00:00:00Z"
git init -q -b master repo && git -C repo -c user.name=r -c user.email=r@x \
	commit -q --allow-empty -m init && git -C repo tag v4.4 &&
	git -C repo branch linux-4.4.y &&
	git -C repo -c user.name=r -c user.email=r@x commit -q --allow-empty \
		-m "fs: mend the first widget" || exit 1
# patch 1 backports a mainline commit the branch lacks: no finding of its own
U1=$(git -C repo rev-parse HEAD) && export U1 || exit 1

PYTHONPATH=$SRC/tests/e2e python3 - <<'PY' || exit 1
from threadbox import box
import os

T = ["fs: mend the first widget", "mm: mend the second widget",
     "net: mend the third widget", "usb: mend the fourth widget"]
SUBJ = "[PATCH 4.4 0/4] 4.4.7-stable review"
SHORTLOG = ("Pseudo-Shortlog of commits:\n\nGreg <greg@x>\n    Linux 4.4.7-rc1\n\n" +
            "".join("Dev%d <d%d@x>\n    %s\n\n" % (n, n, T[n - 1]) for n in (4, 3, 2, 1)) +
            "-------------\n\nDiffstat:\n\n a.c | 1 +\n")
COVER = ("This is the start of the stable review cycle for the 4.4.7 release.\n"
         "There are 4 patches in this series.\n\nthanks,\n\ngreg k-h\n\n-------------\n" + SHORTLOG)


greg = "Greg <greg@stable.example.org>"
quoted_cover = "".join("> " + l + "\n" for l in COVER.splitlines())
def above(n, words):
    return ("On Thu, Greg wrote:\n> This is the start of the stable review cycle.\n>\n"
            "> Pseudo-Shortlog of commits:\n\n...\n\n> Dev%d <d%d@x>\n>     %s\n\n\n%s\n"
            % (n, n, T[n - 1], words))
re_ = "Re: " + SUBJ
box("thread.mbox", [
    (greg, SUBJ, "c", COVER, None),
    (greg, "[PATCH 4.4 1/4] " + T[0], "p1", "commit %s upstream.\n\nText." % os.environ["U1"], ["c"]),
    (greg, "[PATCH 4.4 2/4] " + T[1], "p2", "commit 1123456789abcdef0123456789abcdef01234567 upstream.\n\nText.", ["c"]),
    # its own words name absent patch 3 by title
    ("Ann <ann@x>", re_, "title", "Our boards fail to boot with this release; suspect \"%s\"." % T[2], ["c"]),
    # the one shortlog entry quoted above its words: absent 4, present 2
    ("Jon <jon@x>", re_, "above4", above(4, "The above breaks the build on arm64."), ["c"]),
    ("Jon <jon@x>", re_, "above2", above(2, "The above causes a boot hang on our boards."), ["c"]),
    # answers absent patch 3's own mail
    ("Nia <nia@x>", "Re: [PATCH 4.4 3/4] " + T[2], "sub3", "Please drop this patch, it is not needed for 4.4.", ["c", "p3"]),
    # names nothing: where the reply it answers went
    (greg, re_, "follow", "Is this also broken in mainline?", ["c", "above4"]),
    # quotes the whole cover, shortlog and all: the series'
    ("Lab <lab@x>", re_, "all", "On Thu, Greg wrote:\n" + quoted_cover +
     "\nRegressions on arm64: the build fails with gcc-13.\n", ["c"]),
    # no In-Reply-To, no References
    ("Tim <tim@x>", re_, "norefs", "We are seeing a crash at boot with this release.", None),
    # two plain questions: two findings
    ("Amy <amy@x>", re_, "q1", "Which compiler did you use for these builds?", ["c"]),
    ("Bo <bo@x>", re_, "q2", "Which board was that on, and which firmware?", ["c"]),
], "t0516")
# one patch mail of four, and a cover reply that names none
box("one.mbox", [
    (greg, SUBJ, "c", COVER, None),
    (greg, "[PATCH 4.4 2/4] " + T[1], "p2", "commit 1123456789abcdef0123456789abcdef01234567 upstream.\n\nText.", ["c"]),
    ("Farm <farm@x>", re_, "farm", "We see a kernel crash at boot on x86 with this release.", ["c"]),
], "t0516")
PY

test_expect_code 1 'review --mbox of a thread with two of four patch mails' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --json >thread.json 2>thread.err
'
test_expect_success '... one series, every reply where it belongs, nothing else' '
	test $(wc -l <thread.json) = 1 &&
	python3 "$SRC/tests/e2e/threadbox.py" said thread.json \
		series:3:regression-report:title series:4:regression-report:above4 \
		2:regression-report:above2 series:3:objection:sub3 series:4:reply:follow \
		series:regression-report:all series:regression-report:norefs \
		series:reply:q1 series:reply:q2
'
test_expect_success '... the text report names the absent patch a reply is on' '
	COLUMNS=200 "$FIXSCAN" review --repo repo --mbox thread.mbox >thread.txt 2>/dev/null;
	grep -q "objection from Nia.*(on 3/4, whose mail is absent)" thread.txt &&
	grep -q "regression-report from Jon.*(on 4/4, whose mail is absent)" thread.txt &&
	test $(grep -c "whose mail is absent" thread.txt) = 4
'
test_expect_code 1 'review --mbox of a thread with one patch mail of four' '
	"$FIXSCAN" review --repo repo --mbox one.mbox --json >one.json 2>one.err
'
test_expect_success '... a cover reply that names no patch is the series'"'"', not the one patch'"'"'s' '
	python3 "$SRC/tests/e2e/threadbox.py" said one.json series:regression-report:farm
'


mkdir -p "$XDG_CONFIG_HOME/git" &&
	printf '[user]\n\tname = Rev\n\temail = rev@example.org\n' >"$XDG_CONFIG_HOME/git/config"
test_expect_code 1 'the drafts of the thread with two of four patch mails' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --drafts --dry-run --json >drafts.json 2>drafts.err
'
# The summary's part after "In the replies to this series:", and its Cc.
cat >summary.py <<'PY'
import email, json, sys
d = json.loads(open(sys.argv[1]).readline())
s = [x for x in d["drafts"] if x["kind"] == "summary"]
m = email.message_from_string(s[0]["message"])
body = m.get_payload(decode=True).decode()
end = body.find("Details are")
print("Cc: " + " ".join(m["Cc"].split()))
print(body[body.index("In the replies to this series:"):end if end > 0 else body.index("Thanks,")].rstrip())
PY
cat >summary.want <<'WANT'
Cc: stable@vger.kernel.org, Ann <ann@x>, Jon <jon@x>, Nia <nia@x>, Lab <lab@x>, Tim <tim@x>
In the replies to this series:

Ann wrote about 3/4 (https://lore.kernel.org/r/title@t0516):

  "Our boards fail to boot with this release; suspect "net: mend the
  third widget"."

Jon wrote about 4/4 (https://lore.kernel.org/r/above4@t0516):

  "The above breaks the build on arm64."

Nia wrote about 3/4 (https://lore.kernel.org/r/sub3@t0516):

  "Please drop this patch, it is not needed for 4.4."

Lab wrote in reply to the cover (https://lore.kernel.org/r/all@t0516):

  "Regressions on arm64: the build fails with gcc-13."

Tim wrote in reply to the cover
(https://lore.kernel.org/r/norefs@t0516):

  "We are seeing a crash at boot with this release."
WANT
test_expect_success '... the summary quotes each reply to the series that asks for action, attributed, in its words, and Cc:s its author; plain questions are not there' '
	python3 summary.py drafts.json >summary.got && test_cmp summary.want summary.got
'
test_expect_success '... every draft passes draft-check (quotes, width, Cc of whom it cites)' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --drafts --dry-run >drafts.mbox 2>/dev/null;
	mkdir -p mails/cur && python3 -c "
import mailbox
for i, m in enumerate(mailbox.mbox(\"thread.mbox\")):
    open(\"mails/cur/%d.eml\" % i, \"wb\").write(m.as_bytes())" &&
	python3 "$SRC/tests/e2e/draft-check.py" --review thread.json --asks mails drafts.mbox
'
python3 - <<'PY' || exit 1
import mailbox
mb = mailbox.mbox("lab.mbox", create=True)
for m in mailbox.mbox("thread.mbox"):
    if m["Message-Id"].split("@")[0] in ("<c", "<p1", "<all"):
        mb.add(m)
mb.flush()
PY
test_expect_code 1 'a thread whose only reply is a report to the cover' '
	"$FIXSCAN" review --repo repo --mbox lab.mbox --drafts=summary --dry-run --json >lab.json 2>lab.err
'
test_expect_success '... still gets a summary: the reply, and no list of patches' '
	python3 summary.py lab.json >lab.got &&
	grep -q "^Lab wrote in reply to the cover" lab.got &&
	test $(grep -c "wrote" lab.got) = 1 &&
	python3 -c "
import json, sys
d = json.loads(open(\"lab.json\").readline())
body = [x for x in d[\"drafts\"] if x[\"kind\"] == \"summary\"][0][\"message\"]
sys.exit(\"need a look\" in body)"
'

test_done
