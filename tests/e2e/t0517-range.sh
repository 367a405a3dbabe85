#!/bin/sh
# A patch whose subject names a range of kernel series ("[PATCH AUTOSEL
# 6.18-6.1]": every series from 6.1 to 6.18) needs no --branch: it is
# reviewed on the branch the repository has checked out when that one is
# in the range, else on each branch of the range the repository has (no
# drafts then: they would answer one mail once per branch); a series'
# fixscan.<version>.branch names its branch; --branch still wins; a range
# none of whose branches the repository has is one clear error.
. "$(dirname "$0")/lib.sh"

G="git -C repo -c user.name=r -c user.email=r@x"
git init -q -b master repo && $G commit -q --allow-empty -m init && $G tag v6.1 &&
	for b in 5.15 6.1 6.6 6.12 6.19; do git -C repo branch linux-$b.y || exit 1; done &&
	git -C repo branch mine-6.6 &&
	git -C repo config --add fixscan.stable "refs/heads/linux-*.y" &&
	git -C repo config --add fixscan.stable "refs/heads/mine-*" || exit 1
# an id mainline lacks: a finding that asks, so a review that may draft does
U=0123456789abcdef0123456789abcdef01234567

mk() { # FILE SUBJECT
	{
		echo "From: Sasha <sasha@example.org>"
		echo "To: stable@vger.kernel.org"
		echo "Subject: $2"
		echo "Date: Thu, 14 Apr 2016 10:00:00 +0000"
		echo "Message-Id: <$1@t0517>"
		echo
		echo "[ Upstream commit $U ]"
		echo
		echo "Text."
	} >"$1.eml"
}
mk range "[PATCH AUTOSEL 6.18-6.1] net: mend the widget"
mk far "[PATCH AUTOSEL 7.9-7.5] net: mend the widget"
mkdir -p "$XDG_CONFIG_HOME/git" &&
	printf '[user]\n\tname = Rev\n\temail = rev@example.org\n' >"$XDG_CONFIG_HOME/git/config"

branches() { python3 -c '
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    print(d["branch"], d["branch_source"], len(d.get("drafts", [])))' "$1"; }

test_expect_success 'HEAD outside the range: one review per branch of the range the repository has' '
	"$FIXSCAN" review --repo repo --mbox range.eml --json --drafts --dry-run >each.json 2>each.err;
	test $? -ne 2 && branches each.json >each.got &&
	printf "%s\n" "linux-6.1.y the subject'"'"'s range 0" "linux-6.6.y the subject'"'"'s range 0" \
		"linux-6.12.y the subject'"'"'s range 0" >each.want &&
	test_cmp each.want each.got &&
	grep -q "is for a range of branches: reviewed on each the repository has (linux-6.1.y, linux-6.6.y, linux-6.12.y), without drafts" each.err
'
test_expect_success 'HEAD on a branch of the range: that one only, with its drafts' '
	git -C repo checkout -q linux-6.6.y &&
	"$FIXSCAN" review --repo repo --mbox range.eml --json --drafts --dry-run >head.json 2>head.err;
	test $? -ne 2 && branches head.json >head.got &&
	echo "linux-6.6.y the subject'"'"'s range and the checked-out branch 1" >head.want &&
	test_cmp head.want head.got && ! grep -q "range of branches" head.err
'
test_expect_success 'fixscan.<version>.branch names the branch of its series' '
	git -C repo checkout -q master && git -C repo config fixscan.6.6.branch mine-6.6 &&
	"$FIXSCAN" review --repo repo --mbox range.eml --json >conf.json 2>conf.err;
	test $? -ne 2 && branches conf.json | cut -d" " -f1 >conf.got &&
	printf "%s\n" linux-6.1.y mine-6.6 linux-6.12.y >conf.want && test_cmp conf.want conf.got &&
	git -C repo config --unset fixscan.6.6.branch
'
test_expect_success '--branch: that one' '
	"$FIXSCAN" review --repo repo --mbox range.eml --branch linux-6.1.y --json >flag.json 2>flag.err;
	test $? -ne 2 && branches flag.json >flag.got &&
	echo "linux-6.1.y --branch 0" >flag.want && test_cmp flag.want flag.got
'
test_expect_code 2 'a range of which the repository has no branch: exit 2' '
	"$FIXSCAN" review --repo repo --mbox far.eml --json >far.json 2>far.err
'
test_expect_success '... one line that names the range' '
	grep -q "is for the kernel series 7.5 to 7.9, and the index has none of their branches: use --branch" far.err &&
	test ! -s far.json
'

test_done
