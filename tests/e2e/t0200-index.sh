#!/bin/sh
# fixscan index and fixscan show on small repositories made with
# git fast-import, and on the generated sample kernel when it exists.
. "$(dirname "$0")/lib.sh"

# ---- a small kernel-like history ------------------------------------------
#
# master:       base, A, X (v4.4-rc1, annotated), B Fixes A (v4.4), C Fixes B,
#               R reverts C, D, E Fixes S2 (D's stable id) (v4.5-rc1), G
# linux-4.4.y:  from B: S1 = C ("commit X upstream."), S2 = D ("[ Upstream
#               commit X ]") (v4.4.1), S3 stable-only

T=1450000000
# mk VAR BRANCH PARENT MESSAGE: one commit on refs/heads/BRANCH with parent
# PARENT (an id; empty for a root), its id stored in $VAR.
mk() {
	T=$((T + 60))
	{
		echo "commit refs/heads/$2"
		echo "author A U Thor <author@example.org> $T +0000"
		echo "committer C O Mitter <committer@example.org> $T +0000"
		printf 'data %d\n%s\n' "$(printf '%s' "$4" | wc -c)" "$4"
		if [ -n "$3" ]; then echo "from $3"; fi
		echo "M 644 inline file-$1"
		echo "data <<EOD"
		echo "$T"
		echo "EOD"
		echo
	} | git -C R fast-import --quiet --force || return 1
	eval "$1=\$(git -C R rev-parse refs/heads/$2)"
}

tag_a() {
	GIT_COMMITTER_DATE="$T +0000" git -C R -c user.name=T -c user.email=t@example.org \
		tag -a -m "Linux $1" "$1" "$2"
}

short() {
	printf '%.12s' "$1"
}

git init -q R || exit 1
mk BASE master "" "Initial import" &&
mk A master "$BASE" "mm: add frobnicator

A new allocator helper." &&
mk X master "$A" "net: tidy up the socket code" &&
tag_a v4.4-rc1 "$X" &&
mk B master "$X" "mm: fix frobnicator leak

Fixes: $(short "$A") (\"mm: add frobnicator\")" &&
git -C R tag v4.4 "$B" &&
mk C master "$B" "mm: fix the leak fix

Fixes: $(short "$B") (\"mm: fix frobnicator leak\")" &&
mk R_ master "$C" "Revert \"mm: fix the leak fix\"

This reverts commit $C." &&
mk D master "$R_" "drm: add widget" &&
mk S1 linux-4.4.y "$B" "mm: fix the leak fix

commit $C upstream.

Fixes: $(short "$B") (\"mm: fix frobnicator leak\")" &&
mk S2 linux-4.4.y "$S1" "drm: add widget

[ Upstream commit $D ]" &&
tag_a v4.4.1 "$S2" &&
mk S3 linux-4.4.y "$S2" "usb: stable-only quirk" &&
mk E master "$D" "drm: fix widget refcount

Fixes: $(short "$S2") (\"drm: add widget\")" &&
git -C R tag v4.5-rc1 "$E" &&
mk G master "$E" "kernel: untagged work" || {
	echo "Bail out! cannot build the test repository"
	exit 1
}
mkdir plain

# json_check FILE PYTHON: run PYTHON with `objs` (one dict per line of FILE,
# keyed by id) and the commit ids as variables; it asserts.
json_check() {
	python3 - "$1" "$BASE" "$A" "$X" "$B" "$C" "$R_" "$D" "$E" "$G" "$S1" "$S2" "$S3" <<-EOP
	import json, sys
	objs = {}
	for line in open(sys.argv[1]):
	    o = json.loads(line)
	    objs[o["id"]] = o
	BASE, A, X, B, C, R, D, E, G, S1, S2, S3 = sys.argv[2:]
	def fixers(o):
	    return [(f["id"], f["fixes"], f["depth"], f["kind"], f["evidence"]) for f in o["fixed_by"]]
	$2
	EOP
}

# ---- fixscan index ------------------------------------------------------------

test_expect_success 'index: first run reads every commit, quietly when not a TTY' '
	"$FIXSCAN" index --repo R >out 2>err &&
	cat out &&
	grep -q "^indexed 12 commits (12 new, full build) in [0-9.]*s: R$" out &&
	test ! -s err &&
	ls "$XDG_CACHE_HOME"/fixscan/*.idx
'

test_expect_success 'index: second run reads 0 new commits' '
	"$FIXSCAN" index --repo R >out 2>err &&
	grep -q "^indexed 12 commits (0 new) in" out &&
	test ! -s err
'

test_expect_success 'index --rebuild reads everything again' '
	"$FIXSCAN" index --repo R --rebuild >out 2>err &&
	grep -q "^indexed 12 commits (12 new, full build) in" out &&
	test ! -s err
'

test_expect_success 'index --no-progress and --progress are accepted' '
	"$FIXSCAN" index --repo R --no-progress >out 2>err &&
	test ! -s err &&
	"$FIXSCAN" index --repo R --progress >out 2>err &&
	grep -q "0 new" out
'

test_expect_success 'index --progress: a total and an ETA from the commit-graph' '
	cp -r R RG &&
	"$FIXSCAN" index --repo RG --progress >out 2>err &&
	grep -q "indexing: [0-9]* commits, " err &&
	! grep -q ETA err &&
	git -C RG commit-graph write --reachable &&
	"$FIXSCAN" index --repo RG --rebuild --progress >out 2>err &&
	grep -q "indexing: [0-9]*/12 commits, [0-9]*/s, ETA [0-9]*s" err &&
	grep -q "^indexed 12 commits (12 new, full build)" out
'

test_expect_success 'index: found from the current directory without --repo' '
	(cd R && "$FIXSCAN" index) >out &&
	grep -q "^indexed 12 commits (0 new)" out
'

test_expect_success 'index: a new commit is read incrementally' '
	mk H master "$G" "kernel: one more change" &&
	"$FIXSCAN" index --repo R >out &&
	grep -q "^indexed 13 commits (1 new) in" out
'

test_expect_success 'index: a few new commits go to a delta; the cache is left as it was' '
	cache=$(ls "$XDG_CACHE_HOME"/fixscan/*R-*.idx) &&
	test -f "$cache.delta" &&
	H=$(git -C R rev-parse master) &&
	"$FIXSCAN" show --repo R --json "$A" "$H" "$S1" >with-delta &&
	grep -q "\"subject\":\"kernel: one more change\"" with-delta &&
	ls -l --time-style=full-iso "$cache" >stat1 &&
	mk H2 master "$H" "kernel: and one after that" &&
	FIXSCAN_TEST_DELTA=always "$FIXSCAN" index --repo R >out &&
	grep -q "^indexed 14 commits (1 new) in" out &&
	ls -l --time-style=full-iso "$cache" >stat2 &&
	test_cmp stat1 stat2 &&
	"$FIXSCAN" show --repo R --json "$A" "$H" "$S1" "$H2" >delta-json &&
	"$FIXSCAN" index --repo R --rebuild >out &&
	test ! -e "$cache.delta" &&
	"$FIXSCAN" show --repo R --json "$A" "$H" "$S1" "$H2" >full-json &&
	test_cmp delta-json full-json &&
	git -C R update-ref refs/heads/master "$H" &&
	"$FIXSCAN" index --repo R >out 2>err &&
	grep -q "rewound" err &&
	grep -q "^indexed 13 commits" out
'

# ---- fixscan show ------------------------------------------------------------

test_expect_success 'show --json: a mainline commit and its transitive fixes' '
	"$FIXSCAN" show --repo R --json "$(short "$A")" >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 1 &&
	json_check out "
o = objs[A]
assert o[\"subject\"] == \"mm: add frobnicator\", o
assert o[\"branch\"] == \"mainline\" and o[\"release\"] == \"v4.4-rc1\", o
assert o[\"upstream\"] is None and o[\"backports\"] == [], o
assert fixers(o) == [(B, A, 1, \"fix\", \"prefix\"), (C, B, 2, \"fix\", \"prefix\"),
                     (R, C, 3, \"revert\", \"exact\")], fixers(o)
f = o[\"fixed_by\"][0]
assert f[\"subject\"] == \"mm: fix frobnicator leak\" and f[\"release\"] == \"v4.4\", f
assert o[\"fixed_by\"][2][\"release\"] == \"v4.5-rc1\", o
"
'

test_expect_success 'show --json: backports per branch with releases, and upstream' '
	"$FIXSCAN" show --repo R --json "$C" "$S1" "$D" >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 3 &&
	json_check out "
c = objs[C]
assert [(b[\"id\"], b[\"branch\"], b[\"release\"]) for b in c[\"backports\"]] == [(S1, \"linux-4.4.y\", \"v4.4.1\")], c
assert fixers(c) == [(R, C, 1, \"revert\", \"exact\")], fixers(c)
assert [(r[\"kind\"], r[\"id\"], r[\"target\"], r[\"mismatch\"]) for r in c[\"refs\"]] == [(\"fixes\", B[:12], B, False)], c
s = objs[S1]
assert s[\"branch\"] == \"linux-4.4.y\" and s[\"release\"] == \"v4.4.1\", s
assert s[\"upstream\"][\"id\"] == C and s[\"upstream\"][\"release\"] == \"v4.5-rc1\", s
assert s[\"refs\"][0] == {\"kind\": \"upstream\", \"id\": C, \"subject\": None, \"target\": C,
                        \"evidence\": \"exact\", \"mismatch\": False}, s
d = objs[D]
assert [b[\"id\"] for b in d[\"backports\"]] == [S2], d
# E fixes D through the id of its backport S2.
assert fixers(d) == [(E, D, 1, \"fix\", \"stable\")], fixers(d)
"
'

test_expect_success 'show --json: untagged and stable-only commits' '
	"$FIXSCAN" show --repo R --json "$G" "$S3" >out &&
	json_check out "
assert objs[G][\"release\"] is None and objs[G][\"branch\"] == \"mainline\", objs[G]
assert objs[S3][\"release\"] is None and objs[S3][\"branch\"] == \"linux-4.4.y\", objs[S3]
assert objs[S3][\"upstream\"] is None and objs[S3][\"fixed_by\"] == [], objs[S3]
"
'

test_expect_success 'show: text output with full ids, 12-digit references and depth' '
	"$FIXSCAN" show --repo R "$A" "$S1" >out 2>err &&
	cat out &&
	test ! -s err &&
	grep -qx "commit $A" out &&
	grep -qx "  subject:  mm: add frobnicator" out &&
	grep -qx "  branch:   mainline" out &&
	grep -qx "  release:  v4.4-rc1" out &&
	grep -qx "  fixed-by $(short "$B") (\"mm: fix frobnicator leak\") mainline v4.4 \[prefix\]" out &&
	grep -qx "    fixed-by $(short "$C") (\"mm: fix the leak fix\") mainline v4.5-rc1 \[prefix\]" out &&
	grep -qx "      reverted-by $(short "$R_") (\"Revert \"mm: fix the leak fix\"\") mainline v4.5-rc1 \[exact\]" out &&
	grep -qx "commit $S1" out &&
	grep -qx "  branch:   linux-4.4.y" out &&
	grep -qx "  upstream: $(short "$C") (\"mm: fix the leak fix\") v4.5-rc1" out
'

test_expect_code 2 'show: an unknown id among known ones is reported, the rest shown' '
	"$FIXSCAN" show --repo R --json "$A" 0123456789abcdef "$B" >out 2>err
	rc=$?
	cat err
	test "$(wc -l <out)" -eq 2 &&
	grep -q "\"id\":\"$A\"" out &&
	grep -q "\"id\":\"$B\"" out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: .*0123456789abcdef" err &&
	exit $rc; exit 99
'

test_expect_code 2 'show: a malformed id is an error too' '
	"$FIXSCAN" show --repo R "$A" not-hex >out 2>err
	rc=$?
	grep -qx "commit $A" out &&
	grep -q "^fixscan: .*not-hex" err &&
	exit $rc; exit 99
'

test_expect_code 2 'show: no COMMIT is a usage error' '
	"$FIXSCAN" show --repo R >out 2>err
	rc=$?
	test ! -s out && grep -q "^fixscan: " err && exit $rc; exit 99
'

# ---- errors ---------------------------------------------------------------------

test_expect_code 2 'index: a directory that is not a git repository' '
	"$FIXSCAN" index --repo plain >out 2>err
	rc=$?
	cat err
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: .*plain.*not a git repository" err &&
	exit $rc; exit 99
'

test_expect_code 2 'index: a missing path' '
	"$FIXSCAN" index --repo nowhere/at-all >out 2>err
	rc=$?
	cat err
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: .*nowhere/at-all" err &&
	exit $rc; exit 99
'

test_expect_code 2 'show: not a repository either' '
	"$FIXSCAN" show --repo plain "$A" >out 2>err
	rc=$?
	test ! -s out && test "$(wc -l <err)" -eq 1 && grep -q "^fixscan: " err && exit $rc; exit 99
'

test_expect_code 2 'index: no mainline ref names fixscan.mainline' '
	git init -q nomain &&
	git -C R push -q ../nomain "$B:refs/heads/devel" v4.4 &&
	"$FIXSCAN" index --repo nomain >out 2>err
	rc=$?
	cat err
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: .*fixscan.mainline" err &&
	exit $rc; exit 99
'

test_expect_success 'index: fixscan.mainline in the repository config' '
	git -C nomain config fixscan.mainline devel &&
	"$FIXSCAN" index --repo nomain >out &&
	grep -q "^indexed 4 commits" out
'

test_expect_code 2 'index: an unknown option' '
	"$FIXSCAN" index --bogus >out 2>err
	rc=$?
	grep -q "^fixscan: index: unknown option" err && exit $rc; exit 99
'

test_expect_success 'index --help and show --help' '
	"$FIXSCAN" index --help >out &&
	grep -q "^usage: fixscan index" out &&
	"$FIXSCAN" show --help >out &&
	grep -q "^usage: fixscan show" out
'

test_expect_success 'a shallow clone is indexed with a note' '
	git clone -q --depth 3 "file://$TRASH/R" shallow 2>/dev/null &&
	"$FIXSCAN" index --repo shallow >out 2>err &&
	cat out err &&
	grep -q "^fixscan: .*shallow" err &&
	grep -q "^indexed 3 commits" out &&
	"$FIXSCAN" show --repo shallow --json "$G" >out &&
	grep -q "\"subject\":\"kernel: untagged work\"" out
'

test_expect_success 'a corrupt cache is said so in one line and rebuilt' '
	"$FIXSCAN" show --repo R --json "$A" "$C" "$D" >before &&
	cache=$(ls "$XDG_CACHE_HOME"/fixscan/*R-*.idx) &&
	dd if=/dev/zero of="$cache" bs=1 count=16 seek=200 conv=notrunc 2>/dev/null &&
	"$FIXSCAN" show --repo R --json "$A" "$C" "$D" >after 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: cache .*rebuilding it" err &&
	test_cmp before after &&
	: >"$cache" &&
	"$FIXSCAN" index --repo R >out 2>err &&
	grep -q "^fixscan: cache .*truncated" err &&
	grep -q "(13 new, full build)" out &&
	"$FIXSCAN" show --repo R --json "$A" "$C" "$D" >after &&
	test_cmp before after
'

test_expect_success 'a force-pushed branch is noted and handled' '
	git -C R update-ref refs/heads/master "$G" &&
	"$FIXSCAN" show --repo R --json "$A" "$C" "$D" >after 2>err &&
	cat err &&
	grep -q "^fixscan: .*master.*rewound or force-pushed" err &&
	test_cmp before after &&
	"$FIXSCAN" index --repo R >out &&
	grep -q "^indexed 12 commits (0 new)" out
'

test_expect_success 'the kernel repository is never written to' '
	find R | sort >names1 &&
	find R -type f | sort | xargs sha1sum >sums1 &&
	touch stamp && sleep 1 &&
	"$FIXSCAN" index --repo R --rebuild >/dev/null &&
	"$FIXSCAN" show --repo R "$A" "$D" >/dev/null &&
	"$FIXSCAN" show --repo R --json "$A" "$S1" >/dev/null &&
	git -C R update-ref refs/heads/master "$E" &&
	touch stamp && sleep 1 &&
	find R -type f | sort | xargs sha1sum >sums1 &&
	"$FIXSCAN" index --repo R >out 2>err &&
	grep -q "rewound" err &&
	"$FIXSCAN" show --repo R "$E" >/dev/null &&
	find R | sort >names2 &&
	find R -type f | sort | xargs sha1sum >sums2 &&
	test_cmp sums1 sums2 &&
	find R -newer stamp >newer &&
	test_cmp /dev/null newer
'

# ---- the generated sample kernel, against its answers.json ------------------------

GEN="$SRC/scripts/gen-kernel.py"
if [ -x "$GEN" ] || [ -f "$GEN" ]; then
	test_expect_success 'sample kernel: every commit of answers.json as show --json says' '
		python3 "$GEN" sample sample >/dev/null 2>&1 &&
		"$FIXSCAN" index --repo sample >out 2>err &&
		test ! -s err &&
		python3 - sample "$FIXSCAN" <<-\EOP
		import json, subprocess, sys
		repo, fixscan = sys.argv[1:3]
		ans = json.load(open(repo + "/answers.json"))
		commits = ans["commits"]
		byid = {c["id"]: c for c in commits}
		res = subprocess.run([fixscan, "show", "--repo", repo, "--json"] +
		                     [c["id"] for c in commits],
		                     capture_output=True, text=True)
		assert res.returncode == 0 and res.stderr == "", res.stderr
		got = {}
		for line in res.stdout.splitlines():
		    o = json.loads(line)
		    got[o["id"]] = o
		assert len(got) == len(commits), (len(got), len(commits))
		bad = []
		def mainline_of(i):
		    """A stable fixer stands for its mainline commit."""
		    c = byid[i]
		    if c["branch"] != "mainline":
		        ups = [u for u in c["upstream"] if u in byid]
		        if ups:
		            return ups[0]
		    return i
		# answers.json resolves Fixes: by hash only; the index moves a
		# tag whose hash and quoted subject disagree to the subject
		# commit and says so (mismatch).  Apply that to the expectation.
		moved = {}
		for c in commits:
		    for r in got[c["id"]]["refs"]:
		        if r["kind"] == "fixes" and r["mismatch"] and r["evidence"] == "subject":
		            for h in c["fixes_resolved"]:
		                if h and h.startswith(r["id"]):
		                    moved[(c["id"], h)] = r["target"]
		want_fixers = {c["id"]: set() for c in commits}
		for c in commits:
		    for f in c["fixed_by"]:
		        target = moved.get((f, c["id"]), c["id"])
		        if target in want_fixers:
		            want_fixers[target].add(mainline_of(f))
		for c in commits:
		    g = got[c["id"]]
		    name = c["name"]
		    for k in ("subject", "branch", "release"):
		        if g[k] != c[k]:
		            bad.append((name, k, g[k], c[k]))
		    have = {f["id"] for f in g["fixed_by"] if f["depth"] == 1}
		    want = want_fixers[c["id"]] - {c["id"]}
		    if have != want:
		        bad.append((name, "fixed_by", sorted(byid[x]["name"] for x in have),
		                    sorted(byid[x]["name"] for x in want)))
		    # Every deeper step fixes a commit found one step before.
		    seen = {c["id"]}
		    for f in g["fixed_by"]:
		        if f["fixes"] not in seen:
		            bad.append((name, "chain", f))
		        seen.add(f["id"])
		    hb = sorted((b["id"], b["branch"], b["release"]) for b in g["backports"])
		    wb = sorted((b["id"], br, b["release"]) for br, l in c["backports"].items() for b in l)
		    if hb != wb:
		        bad.append((name, "backports", hb, wb))
		    ups = [u for u in c["upstream"] if u in byid and u != c["id"]]
		    gu = g["upstream"]["id"] if g["upstream"] else None
		    if c["branch"] != "mainline" and (gu if ups else None) != (ups[0] if ups else None):
		        bad.append((name, "upstream", gu, ups[:1]))
		for b in bad:
		    print(*b)
		assert not bad, "%d differences" % len(bad)
		print("checked", len(commits), "commits")
		EOP
	'

	test_expect_success 'sample kernel: identical after --rebuild and a corrupt cache' '
		ids=$(python3 -c "import json; print(\" \".join(c[\"id\"] for c in json.load(open(\"sample/answers.json\"))[\"commits\"]))") &&
		"$FIXSCAN" show --repo sample --json $ids >one &&
		"$FIXSCAN" index --repo sample --rebuild >/dev/null &&
		"$FIXSCAN" show --repo sample --json $ids >two &&
		test_cmp one two &&
		cache=$(ls "$XDG_CACHE_HOME"/fixscan/*sample-*.idx) &&
		size=$(wc -c <"$cache") &&
		head -c $((size / 2)) "$cache" >half && cat half >"$cache" &&
		"$FIXSCAN" show --repo sample --json $ids >three 2>err &&
		grep -q "^fixscan: cache" err &&
		test_cmp one three
	'
fi

test_done
