#!/bin/sh
# A report on the cover that names its culprit by commit id belongs to
# the patch whose upstream commit that is: the upstream id itself, or the
# id of a stable backport of it (regzbot's "introduced" with a stable id,
# a bisection in a stable tree), resolved through the index; ids of two
# patches name no one patch; a follow-up that names nothing goes with the
# report it answers.  The mails are made up here.
. "$(dirname "$0")/lib.sh"

# fixed dates: the same ids every run
export GIT_AUTHOR_DATE="2016-04-01T00:00:00Z" GIT_COMMITTER_DATE="2016-04-01T00:00:00Z"
G="git -C repo -c user.name=r -c user.email=r@x"
git init -q -b master repo && $G commit -q --allow-empty -m init && $G tag v4.4 &&
	git -C repo branch linux-4.4.y && git -C repo branch linux-4.9.y &&
	$G commit -q --allow-empty -m "fs: mend the first widget" &&
	U1=$(git -C repo rev-parse HEAD) &&
	$G commit -q --allow-empty -m "mm: mend the second widget" &&
	U2=$(git -C repo rev-parse HEAD) &&
	$G checkout -q linux-4.9.y &&
	$G commit -q --allow-empty -m "fs: mend the first widget" -m "commit $U1 upstream." &&
	S1=$(git -C repo rev-parse HEAD) && $G checkout -q master || exit 1
export U1 U2 S1

PYTHONPATH=$SRC/tests/e2e python3 - <<'PY' || exit 1
from threadbox import box
import os
U1, U2, S1 = os.environ["U1"], os.environ["U2"], os.environ["S1"]
SUBJ = "[PATCH 4.4 0/2] 4.4.7-stable review"
greg, re_ = "Greg <greg@x>", "Re: " + SUBJ
box("thread.mbox", [
    (greg, SUBJ, "c", "This is the start of the stable review cycle for the 4.4.7 release.", None),
    (greg, "[PATCH 4.4 1/2] fs: mend the first widget", "p1", "commit %s upstream.\n\nText." % U1, ["c"]),
    (greg, "[PATCH 4.4 2/2] mm: mend the second widget", "p2", "commit %s upstream.\n\nText." % U2, ["c"]),
    # the id of the 4.9 backport of patch 1's upstream commit
    ("Ann <ann@x>", re_, "stable", "Our arm64 boards fail to boot with this release.\n\n"
     "#regzbot introduced: %s\n" % S1[:12], ["c"]),
    # patch 2's upstream id
    ("Bob <bob@x>", re_, "upstream", "The build fails on mips.\n\n#regzbot ^introduced %s\n" % U2[:12], ["c"]),
    # a bisection in a stable tree, by the full id
    ("Cy <cy@x>", re_, "bisect", "A bisection of the boot hang ends at\n\n"
     "# first bad commit: [%s]\n" % S1, ["c"]),
    # two patches: neither
    ("Dee <dee@x>", re_, "two", "The crash came in somewhere in between.\n\n"
     "#regzbot introduced: %s..%s\n" % (S1[:12], U2[:12]), ["c"]),
    # names nothing: with the report it answers
    (greg, re_, "follow", "Is this also broken in mainline?", ["c", "stable"]),
], "t0518")
PY

test_expect_code 1 'review --mbox of a thread whose reports name their culprits by id' '
	"$FIXSCAN" review --repo repo --mbox thread.mbox --json >thread.json 2>thread.err
'
test_expect_success '... each report on the patch its id resolves to, nothing else' '
	python3 "$SRC/tests/e2e/threadbox.py" said thread.json 1:regression-report:stable 2:regression-report:upstream \
		1:regression-report:bisect series:regression-report:two 1:reply:follow
'

test_done
