#!/bin/sh
# fixscan stats on histories built to the counts of the LWN measurement:
# the 4.6, 4.5, 4.4 and 3.14 rows must come out exactly, the 4.4 pairs in
# release order, sub-ranges as the generator's description says, and bad
# ranges must fail with one line and exit 2.
. "$(dirname "$0")/lib.sh"

python3 "$SRC/scripts/gen-stats-history.py" "$TRASH/kernel" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

# Sub-range expectations from kernel/expected.json: SERIES FIRST LAST
# (release numbers) -> "patches with_fixes pairs".
cat >sub.py <<'PY'
import json, sys
e = json.load(open("kernel/expected.json"))[sys.argv[1]]
lo, hi = int(sys.argv[2]), int(sys.argv[3])
rels = e["releases"][lo - 1:hi]
per = [r for r in e["per_release"] if r["release"] in rels]
pairs = [p for p in e["pairs"]
         if p["introduced"]["release"] in rels and p["fixed"]["release"] in rels]
print(sum(r["patches"] for r in per), sum(r["with_fixes"] for r in per), len(pairs))
PY

test_expect_success 'the article rows, as JSON' '
	"$FIXSCAN" stats --repo kernel --json linux-4.6.y linux-4.5.y linux-4.4.y linux-3.14.y >all.json &&
	python3 - <<-PY
	import json
	got = json.load(open("all.json"))
	exp = json.load(open("kernel/expected.json"))
	want = [("4.6", 314, 144, 2, "0.6%", "1.4%"), ("4.5", 973, 437, 9, "0.9%", "2.1%"),
	        ("4.4", 1712, 632, 39, "2.3%", "6.2%"), ("3.14", 4779, 1098, 105, "2.2%", "9.6%")]
	assert len(got["rows"]) == 4, got["rows"]
	for row, (series, patches, fixes, fixed, lo, hi) in zip(got["rows"], want):
	    have = (row["series"], row["patches"], row["with_fixes"], row["fixed"],
	            row["floor"], row["ceiling"])
	    assert have == (series, patches, fixes, fixed, lo, hi), have
	    assert row["regressions"] == lo + "\u2013" + hi, row["regressions"]
	    assert row["base"] == "v" + series, row["base"]
	    assert row["mapped"] == exp[series]["mapped"], (row["mapped"], exp[series]["mapped"])
	    assert row["mapped"] < row["patches"]
	assert len(got["pairs"]) == 2 + 9 + 39 + 105, len(got["pairs"])
	PY
'

test_expect_success 'the article rows, as a table' '
	"$FIXSCAN" stats --repo kernel linux-4.6.y linux-4.5.y linux-4.4.y linux-3.14.y >table &&
	sed "s/  */ /g" table | cut -d"|" -f1-5 | sed "s/ *\$//" >got &&
	cat >want <<-\EOF &&
	Series | Patches | Fixes: | # fixed | %regressions
	4.6 | 314 | 144 | 2 | 0.6%–1.4%
	4.5 | 973 | 437 | 9 | 0.9%–2.1%
	4.4 | 1,712 | 632 | 39 | 2.3%–6.2%
	3.14 | 4,779 | 1,098 | 105 | 2.2%–9.6%
	EOF
	test_cmp want got &&
	grep -q "| Mapped | Range\$" table &&
	grep -q "| *99\.[0-9]% | linux-4\.4\.y\$" table
'

test_expect_success 'a tag range and the branch give the same row' '
	"$FIXSCAN" stats --repo kernel --json v4.4..v4.4.14 >tags.json &&
	"$FIXSCAN" stats --repo kernel --json linux-4.4.y >branch.json &&
	python3 -c "
import json
a = json.load(open(\"tags.json\")); b = json.load(open(\"branch.json\"))
for k in (\"patches\", \"mapped\", \"with_fixes\", \"fixed\", \"floor\", \"ceiling\"):
    assert a[\"rows\"][0][k] == b[\"rows\"][0][k], k
assert [p[\"fixed\"][\"id\"] for p in a[\"pairs\"]] == [p[\"fixed\"][\"id\"] for p in b[\"pairs\"]]
"
'

test_expect_success '--list: the 39 pairs of 4.4 in release order, 16-digit ids' '
	"$FIXSCAN" stats --repo kernel --list v4.4..v4.4.14 >list &&
	sed -n "/^4.4-stable patches with bugs (v4.4..v4.4.14)\$/,\$p" list | tail -n +3 >pairs &&
	test $(wc -l <pairs) -eq 39 &&
	python3 - <<-PY
	import json, re
	exp = json.load(open("kernel/expected.json"))["4.4"]["pairs"]
	want = ["%s | %s | %s | %s" % (p["introduced"]["release"], p["introduced"]["id"][:16],
	                               p["fixed"]["release"], p["fixed"]["id"][:16]) for p in exp]
	got = [re.sub(" +", " ", l.rstrip("\n")) for l in open("pairs")]
	assert got == want, (got[:3], want[:3])
	for l in got:
	    assert re.fullmatch(r"v4\.4\.\d+ \| [0-9a-f]{16} \| v4\.4\.\d+ \| [0-9a-f]{16}", l), l
	PY
'

test_expect_success 'the pairs follow the article: releases, a fix of a fix, one fixer for two' '
	python3 - <<-PY
	import json
	got = json.load(open("tags.json"))["pairs"]
	rel = lambda r: int(r.rsplit(".", 1)[1])
	spans = [(rel(p["introduced"]["release"]), rel(p["fixed"]["release"])) for p in got]
	want = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 10), (1, 1), (2, 9), (2, 3), (2, 8), (2, 2),
	        (2, 10), (3, 12), (3, 6), (3, 10), (3, 3), (4, 6), (4, 6), (4, 6), (4, 4), (4, 5),
	        (4, 5), (4, 7), (5, 6), (5, 6), (7, 9), (7, 9), (7, 7), (7, 9), (7, 13), (7, 9),
	        (7, 7), (7, 9), (7, 9), (9, 9), (9, 11), (11, 14), (12, 14), (14, 14), (14, 14)]
	assert sorted(spans) == sorted(want), spans
	assert spans == sorted(spans, key=lambda s: s[0])
	assert sum(1 for a, b in spans if a == b) == 10
	intro = set(p["introduced"]["id"] for p in got)
	fixers = [p["fixed"]["id"] for p in got]
	assert any(f in intro for f in fixers), "no fix that is itself fixed"
	assert len(set(fixers)) == 38, "one fixer must name two introducers"
	subjects = [p["fixed"]["subject"] for p in got]
	assert sum(s.startswith("Revert") for s in subjects) >= 4, subjects
	PY
'

test_expect_success 'several ranges give one row each; sub-ranges count only their own pairs' '
	"$FIXSCAN" stats --repo kernel --json v4.4..v4.4.7 v4.4.3..v4.4.7 v4.5..v4.5.3 linux-4.6.y >sub.json &&
	"$FIXSCAN" stats --repo kernel v4.4..v4.4.7 v4.4.3..v4.4.7 v4.5..v4.5.3 linux-4.6.y >sub.txt &&
	test $(wc -l <sub.txt) -eq 5 &&
	python3 sub.py 4.4 1 7 >w1 && python3 sub.py 4.4 4 7 >w2 && python3 sub.py 4.5 1 3 >w3 &&
	python3 -c "
import json
rows = json.load(open(\"sub.json\"))[\"rows\"]
assert [r[\"range\"] for r in rows] == [\"v4.4..v4.4.7\", \"v4.4.3..v4.4.7\", \"v4.5..v4.5.3\", \"linux-4.6.y\"]
for r, f in zip(rows, (\"w1\", \"w2\", \"w3\")):
    want = open(f).read().split()
    have = [str(r[\"patches\"]), str(r[\"with_fixes\"]), str(r[\"fixed\"])]
    assert have == want, (r[\"range\"], have, want)
assert rows[0][\"fixed\"] == 20, rows[0]
assert rows[3][\"patches\"] == 314 and rows[3][\"fixed\"] == 2
"
'

test_expect_success 'merges and release commits are no patches' '
	git -C kernel rev-list --no-merges v4.4..v4.4.14 | wc -l >n &&
	test $(cat n) -eq $((1712 + 14)) &&
	test $(git -C kernel rev-list --merges v4.4..v4.4.14 | wc -l) -eq 1
'

test_expect_success '--no-update and --help' '
	"$FIXSCAN" stats --repo kernel --no-update linux-4.6.y >nu &&
	grep -q "^4.6 .*| 0.6%–1.4% " nu &&
	"$FIXSCAN" stats --help >help &&
	grep -q "usage: fixscan stats" help
'

for bad in 'v4.4..v4.4.99' 'v4.99..v4.4.14' 'linux-9.9.y' 'no-such-branch' 'v4.4...v4.4.2' \
	'..v4.4.2' 'v4.4..' 'master' 'v4.4'; do
	test_expect_code 2 "bad range '$bad': one line, exit 2" "
		\"\$FIXSCAN\" stats --repo kernel '$bad' >out 2>err
		rc=\$?
		test ! -s out && test \$(wc -l <err) -eq 1 && grep -q '^fixscan: ' err && exit \$rc
	"
done

test_expect_code 2 'a bad range among good ones prints nothing' '
	"$FIXSCAN" stats --repo kernel linux-4.4.y linux-9.9.y >out 2>err
	rc=$?
	test ! -s out && grep -q "unknown branch .linux-9.9.y." err && exit $rc; exit 99
'

test_expect_code 2 'no range: usage error' '
	"$FIXSCAN" stats --repo kernel
'

test_done
