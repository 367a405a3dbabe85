#!/bin/sh
# A reply asking for more commits names each by id (a list of ids, 'commit
# X ("subject")', an id of 12 digits or the full 40) or by the subject of
# one mainline commit in double quotes, and each is
# resolved through the index: its subject; the branch having it (as a
# backport) or the series queuing it asks nothing; only a commit neither
# present nor queued asks the maintainer to act, in the drafts too.  On
# the cover, the same, as the series'.  The summary asks for such a
# commit once, on its line under the commits to add, with everyone who
# asked for it, on a patch or on the cover.  The mails are made up here.
. "$(dirname "$0")/lib.sh"

# fixed dates: the same ids every run
export GIT_AUTHOR_DATE="2016-04-01T00:00:00Z" GIT_COMMITTER_DATE="2016-04-01T00:00:00Z"
G="git -C repo -c user.name=r -c user.email=r@x"
c() { $G commit -q --allow-empty -m "$1" && git -C repo rev-parse HEAD; }
git init -q -b master repo && $G commit -q --allow-empty -m init && $G tag v4.4 &&
	git -C repo branch linux-4.4.y || exit 1
A=$(c "fs: mend the first widget") && B=$(c "mm: mend the second widget") &&
	C=$(c "net: mend the third widget") && D=$(c "usb: mend the fourth widget") &&
	$G checkout -q linux-4.4.y && $G commit -q --allow-empty -m "mm: mend the second widget" \
		-m "commit $B upstream." && SB=$(git -C repo rev-parse HEAD) && $G tag v4.4.6 &&
	$G checkout -q master || exit 1
export A B C D SB

PYTHONPATH=$SRC/tests/e2e python3 - <<'PY' || exit 1
from threadbox import box
import os
A, B, C, D = (os.environ[k] for k in "ABCD")
SUBJ = "[PATCH 4.4 0/2] 4.4.7-stable review"
greg = "Greg <greg@x>"
box("thread.mbox", [
    (greg, SUBJ, "c", "This is the start of the stable review cycle for the 4.4.7 release.", None),
    (greg, "[PATCH 4.4 1/2] fs: mend the first widget", "p1", "commit %s upstream.\n\nText." % A, ["c"]),
    (greg, "[PATCH 4.4 2/2] net: mend the third widget", "p2", "commit %s upstream.\n\nText." % C, ["c"]),
    # a list: one the branch has, one the series queues, one neither
    ("Ned <ned@x>", "Re: [PATCH 4.4 1/2] fs: mend the first widget", "list",
     "Please also pick up the following commits with this one:\n\n"
     "  %s (\"mm: mend the second widget\")\n  %s (\"net: mend the third widget\")\n"
     "  %s (\"usb: mend the fourth widget\")\n" % (B[:12], C[:12], D[:12]), ["c", "p1"]),
    # commit X ("subject"), the whole id
    ("Oli <oli@x>", "Re: [PATCH 4.4 2/2] net: mend the third widget", "commit",
     "This needs commit %s (\"usb: mend the fourth widget\") as well, or it oopses.\n" % D, ["c", "p2"]),
    # an id of digits only, written as a commit, that names nothing here;
    # a number of as many digits that is no commit
    ("Quin <quin@x>", "Re: [PATCH 4.4 2/2] net: mend the third widget", "digits",
     "Please also take 123456789012 (\"x: mend y\") with it; call 555123456789 if unsure.\n",
     ["c", "p2"]),
    # ids of digits only after regzbot's "introduced" and in its ranges
    ("Ugo <ugo@x>", "Re: [PATCH 4.4 2/2] net: mend the third widget", "regz",
     "Please also take the fix for what this broke.\n\n"
     "#regzbot introduced: 987654321098..876543210987\n", ["c", "p2"]),
    # by subject only: one mainline commit has it; no commit has the other
    ("Rae <rae@x>", "Re: [PATCH 4.4 1/2] fs: mend the first widget", "subject",
     "Please also take \"usb: mend the fourth widget\" with it.\n", ["c", "p1"]),
    ("Sam <sam@x>", "Re: [PATCH 4.4 1/2] fs: mend the first widget", "nosuch",
     "Please also take \"x: no such commit anywhere\" with it.\n", ["c", "p1"]),
    # on the cover: the series'
    ("Pam <pam@x>", "Re: " + SUBJ, "cover",
     "Kernels taking this release will also need commit %s, please queue it.\n" % D[:14], ["c"]),
], "t0519")
# only replies to the cover: one asks for a commit neither present nor
# queued, one for the commit the branch has (one naming a commit the
# series queues is that patch's reply, as above)
box("cover.mbox", [
    (greg, SUBJ, "c", "This is the start of the stable review cycle for the 4.4.7 release.", None),
    (greg, "[PATCH 4.4 1/2] fs: mend the first widget", "p1", "commit %s upstream.\n\nText." % A, ["c"]),
    (greg, "[PATCH 4.4 2/2] net: mend the third widget", "p2", "commit %s upstream.\n\nText." % C, ["c"]),
    ("Pam <pam@x>", "Re: " + SUBJ, "cover",
     "Kernels taking this release will also need commit %s, please queue it.\n" % D[:14], ["c"]),
    ("Kit <kit@x>", "Re: " + SUBJ, "had",
     "Please also queue %s for this release.\n" % B[:12], ["c"]),
], "t0519")
# replies alone (a partial fetch): read on the branch their subjects name
box("alone.mbox", [
    ("Ned <ned@x>", "Re: [PATCH 4.4 1/2] fs: mend the first widget", "alone",
     "Please also pick up %s and %s with this one.\n" % (B[:12], D[:12]), ["c", "p1"]),
], "t0519")
PY

# (where, commit, series_index, stable_commit, subject) of each needs-also.
cat >needs.py <<'PY'
import os, sys
from threadbox import expect, placed
name = {os.environ[k]: k for k in ("A", "B", "C", "D", "SB")}
expect({"%s:%s:%s:%s:%s:%s" % (at, f["message_id"].split("@")[0], name.get(f["commit"], f["commit"]),
                               f["series_index"], name.get(f["stable_commit"], f["stable_commit"]),
                               f["subject"])
        for at, f in placed(sys.argv[1]) if f["kind"] == "needs-also"}, sys.argv[2:])
PY

test_expect_code 1 'review --mbox of a thread whose replies ask for more commits' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --json >thread.json 2>thread.err
'
test_expect_success '... each commit named once, resolved: present, queued, or neither' '
	PYTHONPATH=$SRC/tests/e2e python3 needs.py thread.json \
		"1:list:B:None:SB:mm: mend the second widget" \
		"1:list:C:2:None:net: mend the third widget" \
		"1:list:D:None:None:usb: mend the fourth widget" \
		"2:commit:D:None:None:usb: mend the fourth widget" \
		"2:digits:123456789012:None:None:None" \
		"2:regz:987654321098:None:None:None" "2:regz:876543210987:None:None:None" \
		"1:subject:D:None:None:usb: mend the fourth widget" "1:nosuch:None:None:None:None" \
		"series:cover:D:None:None:usb: mend the fourth widget"
'
test_expect_code 1 'review --mbox of replies whose cover and patches are absent' '
	"$FIXSCAN" review --repo repo --mbox alone.mbox --json >alone.json 2>alone.err
'
test_expect_success '... read on the branch the subjects name, on the absent patch 1/2 they answer: the commit it has asks nothing' '
	PYTHONPATH=$SRC/tests/e2e python3 needs.py alone.json "series:1:alone:B:None:SB:mm: mend the second widget" \
		"series:1:alone:D:None:None:usb: mend the fourth widget" &&
	grep -q "\"branch\":\"linux-4.4.y\",\"branch_source\":\"subject\"" alone.json &&
	grep -q "1 reply whose patch mails are absent: reading it" alone.err
'
mkdir -p "$XDG_CONFIG_HOME/git" &&
	printf '[user]\n\tname = Rev\n\temail = rev@example.org\n' >"$XDG_CONFIG_HOME/git/config"
# The body of the summary draft of an mbox of drafts.
cat >summary.py <<'PY'
import mailbox, sys
m = [m for m in mailbox.mbox(sys.argv[1]) if m["Subject"].startswith("Re: [PATCH 4.4 0/2]")][0]
sys.stdout.write(m.get_payload(decode=True).decode())
PY
cat >summary.want <<'WANT'
On Thu, 14 Apr 2016 00:00:00 +0000, Greg wrote:
> This is the start of the stable review cycle for the 4.4.7 release.

I went through this series against linux-4.4.y (v4.4.6) looking for
known upstream follow-up fixes, reverts and duplicates. These patches
need a look:

Commits to add:

  6e13b426735a ("usb: mend the fourth widget") for 1/2 and 2/2 (Ned
    asked for it: https://lore.kernel.org/r/list@t0519; Rae asked for it
    too: https://lore.kernel.org/r/subject@t0519; Oli asked for it too:
    https://lore.kernel.org/r/commit@t0519; Pam asked for it too:
    https://lore.kernel.org/r/cover@t0519)

Reports and replies:

  1/2 fs: mend the first widget
    a reply from Sam: https://lore.kernel.org/r/nosuch@t0519
  2/2 net: mend the third widget
    a reply from Quin: https://lore.kernel.org/r/digits@t0519
    a reply from Ugo: https://lore.kernel.org/r/regz@t0519

Thanks,
Rev
WANT
test_expect_success '... the summary asks for the one commit neither present nor queued once, on its line, with everyone who asked for it, the cover reply too; the replies naming no commit it knows as before' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --drafts=summary --dry-run >drafts.mbox 2>/dev/null;
	python3 summary.py drafts.mbox >summary.got && test_cmp summary.want summary.got
'
test_expect_code 1 'review --mbox of a thread whose only replies answer the cover' '
	"$FIXSCAN" review --repo repo --mbox cover.mbox --json >cover.json 2>cover.err
'
test_expect_success '... the series asks for the commit neither present nor queued; the one the branch has asks nothing' '
	PYTHONPATH=$SRC/tests/e2e python3 needs.py cover.json \
		"series:cover:D:None:None:usb: mend the fourth widget" \
		"series:had:B:None:SB:mm: mend the second widget" &&
	"$FIXSCAN" review --repo repo --mbox cover.mbox --drafts=summary --dry-run >cover.drafts 2>cover.err;
	test -s cover.drafts
'
cat >cover.want <<'WANT'
On Thu, 14 Apr 2016 00:00:00 +0000, Greg wrote:
> This is the start of the stable review cycle for the 4.4.7 release.

Commits to add:

  6e13b426735a ("usb: mend the fourth widget") (Pam asked for it:
    https://lore.kernel.org/r/cover@t0519)

Thanks,
Rev
WANT
test_expect_success '... the summary asks for the commit of the cover reply with who asked for it, not for the one the branch has, and quotes neither reply' '
	python3 summary.py cover.drafts >cover.got && test_cmp cover.want cover.got
'

test_done
