#!/bin/sh
# scripts/gen-kernel.py: the sample kernel repository is deterministic and
# matches its answers.json, the committed maildirs regenerate byte for byte,
# and the scale mode streams a history with the counts it was asked for.

. "$(dirname "$0")/lib.sh"

GEN="$SRC/scripts/gen-kernel.py"

refs() {
	git -C "$1" for-each-ref --format='%(objectname) %(refname)'
}

test_expect_success 'sample builds' '
	"$GEN" sample one 2>err &&
	test -f one/answers.json &&
	test "$(git -C one rev-parse --abbrev-ref HEAD)" = master
'

test_expect_success 'sample is deterministic' '
	"$GEN" sample two 2>err &&
	refs one >one.refs &&
	refs two >two.refs &&
	test_cmp one.refs two.refs &&
	cmp one/answers.json two/answers.json
'

test_expect_success 'git fsck is clean and the work tree is checked out' '
	git -C one fsck --strict --no-dangling >fsck.out 2>&1 &&
	test ! -s fsck.out &&
	test -z "$(git -C one status --porcelain)"
'

test_expect_success 'branches and tags have the expected shape' '
	git -C one merge-base --is-ancestor v4.4 linux-4.4.y &&
	! git -C one merge-base --is-ancestor v4.4.1 master &&
	! git -C one merge-base --is-ancestor v4.5 linux-4.4.y &&
	git -C one merge-base --is-ancestor v4.5 linux-4.5.y &&
	test "$(git -C one describe linux-4.4.y)" = v4.4.6 &&
	test "$(git -C one describe --abbrev=0 linux-4.5.y)" = v4.5.3 &&
	test "$(git -C one describe --tags --abbrev=0 master)" = v4.7 &&
	test "$(git -C one cat-file -t v4.4)" = tag &&
	test "$(git -C one cat-file -t v4.4-rc2)" = commit &&
	test "$(git -C one rev-list --count --merges master)" = 1 &&
	git -C one tag -l "v4.4.*" >t44 &&
	test "$(wc -l <t44)" -eq 6
'

# Every id, parent, branch, tag and first release in answers.json must be
# what git says about the repository.
test_expect_success 'answers.json matches git' '
	cd one && python3 - <<-\EOF
	import json, re, subprocess
	def git(*a):
	    return subprocess.run(["git"] + list(a), check=True,
	                          stdout=subprocess.PIPE).stdout.decode()
	def vkey(t):
	    m = re.match(r"^v(\d+)\.(\d+)(?:\.(\d+))?(?:-rc(\d+))?$", t)
	    a, b, c, rc = m.groups()
	    return (int(a), int(b), int(c or 0), 0 if rc else 1, int(rc or 0))
	d = json.load(open("answers.json"))
	ids = [c["id"] for c in d["commits"]]
	# (the linux-next of the sample, refs/remotes/next/master, is a pending
	# tree only t0585 and make demo read: not among the answers)
	assert len(set(ids)) == len(ids) == int(git("rev-list", "--count",
	                                            "--exclude=refs/remotes/next/*", "--all"))
	for c in d["commits"]:
	    parents = git("rev-list", "--parents", "-n1", c["id"]).split()[1:]
	    assert parents == c["parents"], c["name"]
	    subj = git("log", "-1", "--format=%s", c["id"]).strip()
	    assert subj == c["subject"], c["name"]
	    tags = sorted(git("tag", "--contains", c["id"]).split(), key=vkey)
	    assert (tags[0] if tags else None) == c["release"], c["name"]
	    onmaster = subprocess.run(["git", "merge-base", "--is-ancestor",
	                               c["id"], "master"]).returncode == 0
	    assert onmaster == (c["branch"] == "mainline"), c["name"]
	for t in d["tags"]:
	    assert git("rev-parse", t["name"] + "^{commit}").strip() == t["commit"]
	    if t["annotated"]:
	        assert git("rev-parse", t["name"]).strip() == t["tag_object"]
	for b, tip in d["branches"].items():
	    assert git("rev-parse", d["refs"][b]).strip() == tip
	# Every 40-hex id an expected finding names is a commit of the repo,
	# except the one unknown upstream.
	for th in d["threads"].values():
	    for p in th["patches"]:
	        for f in p["expected"]:
	            if f["commit"] and f["kind"] != "unknown-upstream":
	                assert f["commit"] in ids, f
	assert len(d["thread"]) == 27
	kinds = {f["kind"] for p in d["thread"] for f in p["expected"]}
	kinds |= {f["kind"] for p in d["threads"]["review-4.5"]["patches"]
	          for f in p["expected"]}
	assert kinds == {"fix-missing", "fix-queued", "fix-present",
	                 "reverted-upstream", "already-applied", "target-absent",
	                 "no-upstream", "unknown-upstream", "regression-report",
	                 "dep-missing", "fixes-tag-mismatch", "reverted-in-stable",
	                 "duplicate-in-series", "backport-differs", "fix-pending",
	                 "series-partial", "symbol-missing", "fix-not-applicable"}, kinds
	EOF
'

test_expect_success 'committed maildirs regenerate byte for byte' '
	"$GEN" maildir one md &&
	for d in review-4.4 review-4.5 lists; do
		diff -r "$SRC/maildirs/$d/cur" "md/$d/cur" || return 1
		test -d "md/$d/new" && test -d "md/$d/tmp" || return 1
	done &&
	cmp "$SRC/maildirs/README.md" md/README.md &&
	"$GEN" maildir --only review-4.4 one only &&
	diff -r md/review-4.4 only
'

test_expect_success 'thread Message-Ids in answers.json are in the maildir' '
	python3 -c "
import json
d = json.load(open(\"one/answers.json\"))
for name, th in d[\"threads\"].items():
    for p in th[\"patches\"]:
        print(name, p[\"message_id\"])
" >ids &&
	while read -r name id; do
		grep -rlF "Message-Id: $id" "md/$name/cur" >/dev/null || {
			echo "missing $id in $name"; return 1; }
	done <ids &&
	test "$(ls md/review-4.4/cur | wc -l)" -eq 31
'

test_expect_code 2 'maildir refuses a repository that is not the sample' '
	git init -q other &&
	"$GEN" maildir other md2
'

test_expect_success 'scale: counts, determinism, fsck' '
	"$GEN" scale big --mainline 3000 --stable 200 2>err &&
	test "$(git -C big rev-list --count master)" = 3000 &&
	stable=$(git -C big rev-list --count --branches --not master) &&
	rels=$(git -C big tag -l "v*.*.*" | wc -l) &&
	test "$stable" -eq $((200 + rels)) &&
	test "$rels" -gt 10 &&
	git -C big tag -l "v*-rc*" | grep -q . &&
	git -C big merge-base --is-ancestor v4.4 linux-4.4.y &&
	test "$(git -C big describe --abbrev=0 linux-4.4.y)" != v4.4 &&
	n=$(git -C big log --format=%B master | grep -c "^Fixes: ") &&
	test "$n" -gt 600 &&
	git -C big log --format=%B --branches --not master |
		grep -q "^commit [0-9a-f]\{40\} upstream\.$" &&
	git -C big fsck --no-dangling >fsck.out 2>&1 && test ! -s fsck.out &&
	"$GEN" scale big2 --mainline 3000 --stable 200 2>err &&
	refs big >big.refs && refs big2 >big2.refs &&
	test_cmp big.refs big2.refs
'

test_expect_success 'scale --append adds mainline commits' '
	old=$(git -C big rev-parse master) &&
	"$GEN" scale --append 250 big 2>err &&
	test "$(git -C big rev-list --count master)" = 3250 &&
	git -C big merge-base --is-ancestor "$old" master &&
	"$GEN" scale --append 50 big 2>err &&
	test "$(git -C big rev-list --count master)" = 3300 &&
	git -C big fsck --no-dangling >fsck.out 2>&1 && test ! -s fsck.out
'

test_done
