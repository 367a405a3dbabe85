#!/bin/sh
# CVE ids from a vulns-like repository (the kernel CNA's layout, made with
# git fast-import over ids of the sample kernel) in review (text and JSON),
# check, show and digest; without fixscan.vulns nothing changes and no
# vulns file is opened; a wrong path is one line of error.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

# The ids the CVEs speak of, from the answers of the 4.4 thread:
#   03 (U3) misses its fix F3            CVE-2024-26921: fix F3, vulnerable U3
#   01 (U1) has no finding               CVE-2024-27000: fix F3 too, vulnerable U1
#                                        (no Fixes: tag links F3 to U1)
#   02 (U2) is itself a security fix     CVE-2024-26000: fix U2
#   05 (U5) is the fix 04 has queued     CVE-2024-26500: fix U5
#   rejected                             CVE-2024-29999: fix U2, vulnerable U1
eval "$(python3 - <<'PY'
import json
t = json.load(open("kernel/answers.json"))["threads"]["review-4.4"]
p = {x["index"]: x for x in t["patches"]}
print("U1=%s U2=%s U3=%s U5=%s" % (p[1]["upstream"], p[2]["upstream"], p[3]["upstream"],
                                   p[5]["upstream"]))
print("F3=%s" % [e["commit"] for e in p[3]["expected"] if e["kind"] == "fix-missing"][0])
print("F6=%s" % [e["commit"] for e in p[6]["expected"] if e["kind"] == "fix-present"][0])
print("M1='%s' M3='%s'" % (p[1]["message_id"].strip("<>"), p[3]["message_id"].strip("<>")))
PY
)" || exit 1
F3U=$(echo "$F3" | tr a-f A-F)

# vulns_file PATH CONTENT: one file of the fast-import stream.
vulns_file() {
	printf 'M 644 inline %s\ndata %d\n%s\n' "$1" "$(printf '%s' "$2" | wc -c)" "$2"
}
make_vulns() {
	git init -q "$1" &&
	git -C "$1" symbolic-ref HEAD refs/heads/master &&
	{
		printf 'commit refs/heads/master\nmark :1\n'
		printf 'committer C N A <cna@example.org> 1700000000 +0000\ndata 4\ncna\n'
		vulns_file cve/published/2024/CVE-2024-26921.sha1 "$F3"
		vulns_file cve/published/2024/CVE-2024-26921.vulnerable "$U3"
		vulns_file cve/published/2024/CVE-2024-26921.json '{"cveMetadata":{}}'
		vulns_file cve/published/2024/CVE-2024-27000.sha1 "$(printf '%s\r\n' "$F3U")"
		vulns_file cve/published/2024/CVE-2024-27000.vulnerable "$(printf '# introduced by\n%s\n' "$U1")"
		vulns_file cve/published/2024/CVE-2024-26000.sha1 "$U2"
		vulns_file cve/published/2024/CVE-2024-26500.sha1 "$U5"
		vulns_file cve/rejected/2024/CVE-2024-29999.sha1 "$U2"
		vulns_file cve/rejected/2024/CVE-2024-29999.vulnerable "$U1"
		printf '\n'
	} | git -C "$1" fast-import --quiet
}
make_vulns "$TRASH/vulns" || exit 1

test_expect_code 1 'without fixscan.vulns: the review as it always was' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "path:review-4.4/**" >plain.txt;
	"$FIXSCAN" review --repo kernel --json "path:review-4.4/**" >plain.json
'
test_expect_success 'without the key no CVE is named and no vulns file is made' '
	! grep -q CVE- plain.json plain.txt &&
	! grep -q "\"cves\"" plain.json &&
	! ls "$XDG_CACHE_HOME"/fixscan | grep -q "^vulns-"
'
test_expect_code 1 'with fixscan.vulns (a ~ path): review --json' '
	mv vulns "$HOME/vulns" &&
	git config --global fixscan.vulns "~/vulns" &&
	"$FIXSCAN" review --repo kernel --json "path:review-4.4/**" >cve.json
'
test_expect_success 'JSON: the CVEs of each commit, the CVE route, nothing else changed' '
	python3 - "$F3" "$U1" <<-\EOF
	import json, sys
	f3, u1 = sys.argv[1:]
	plain = json.loads(open("plain.json").readline())
	cve = json.loads(open("cve.json").readline())
	both = ["CVE-2024-26921", "CVE-2024-27000"]
	p = {x["index"]: x for x in cve["patches"]}
	q = {x["index"]: x for x in plain["patches"]}
	# 03: its fix-missing carries both CVEs of F3
	f = [f for f in p[3]["findings"] if f["kind"] == "fix-missing"]
	assert [x["commit"] for x in f] == [f3] and f[0]["cves"] == both, f
	# 01: a new fix-missing through CVE-2024-27000, evidence cve, and nothing else
	assert [(x["kind"], x["commit"], x["evidence"], x["cves"], x["chain"]) for x in p[1]["findings"]] == \
	    [("fix-missing", f3, "cve", both, [u1, f3])], p[1]["findings"]
	# 02 and 05 are security fixes; the fix 04 has queued carries its CVE
	assert p[2]["cves"] == ["CVE-2024-26000"] and p[5]["cves"] == ["CVE-2024-26500"]
	fq = [f for f in p[4]["findings"] if f["kind"] == "fix-queued"]
	assert fq[0]["cves"] == ["CVE-2024-26500"], fq
	# the rejected CVE is nowhere
	assert "CVE-2024-29999" not in open("cve.json").read()
	# everything else as without the key
	for i in q:
	    a = dict(p[i]); a.pop("cves", None)
	    a["findings"] = [dict((k, v) for k, v in f.items() if k != "cves")
	                     for f in a["findings"] if not (i == 1 and f["evidence"] == "cve")]
	    assert a == q[i], (i, a, q[i])
	s1, s0 = cve["summary"], plain["summary"]
	assert s1["fix-missing"] == s0["fix-missing"] + 1
	EOF
'
test_expect_code 1 'text review with the key' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "path:review-4.4/**" >cve.txt
'
test_expect_success 'text: CVEs after the subject, "fixes CVE" on the header line' '
	f3=$(echo $F3 | cut -c1-12) &&
	grep -q "^  fix-missing $f3 (\"[^\"]*\") CVE-2024-26921 CVE-2024-27000 in " cve.txt &&
	grep -q "^02/27 .* (fixes CVE-2024-26000)\$" cve.txt &&
	grep -q "^05/27 .* (fixes CVE-2024-26500)\$" cve.txt &&
	grep -q "^  fix-queued .* CVE-2024-26500 is queued as 05/27\$" cve.txt &&
	grep -A3 "^01/27 " cve.txt | grep -q "^  fix-missing $f3 .*\[no Fixes: tag; a CVE record names the upstream commit as vulnerable\]" &&
	! grep -q CVE-2024-29999 cve.txt
'
test_expect_success '--short: the CVEs after the commit' '
	{ COLUMNS=200 "$FIXSCAN" review --repo kernel --short "path:review-4.4/**" >short.txt; true; } &&
	f3=$(echo $F3 | cut -c1-12) &&
	grep -q "^03/27 fix-missing $f3 CVE-2024-26921 CVE-2024-27000 (\"" short.txt &&
	grep -q "^01/27 fix-missing $f3 CVE-2024-26921 CVE-2024-27000 (\"" short.txt
'
test_expect_success 'the cache is made once and used while HEAD stays' '
	ls "$XDG_CACHE_HOME"/fixscan/vulns-* >cache.list &&
	test $(wc -l <cache.list) -eq 1 &&
	i1=$(stat -c %i $(cat cache.list)) &&
	{ "$FIXSCAN" review --repo kernel -q "path:review-4.4/**" >/dev/null; true; } &&
	test "$(stat -c %i $(cat cache.list))" = "$i1"
'
test_expect_success 'HEAD moves: read again' '
	i1=$(stat -c %i $(cat cache.list)) &&
	{
		printf "commit refs/heads/master\nmark :2\n"
		printf "committer C N A <cna@example.org> 1700000100 +0000\ndata 4\nmore\nfrom refs/heads/master^0\n"
		vulns_file cve/published/2024/CVE-2024-26001.sha1 "$U2"
		printf "\n"
	} | git -C "$HOME/vulns" fast-import --quiet &&
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "path:review-4.4/**" >moved.txt;
	test "$(stat -c %i $(cat cache.list))" != "$i1" &&
	grep -q "^02/27 .* (fixes CVE-2024-26000 CVE-2024-26001)\$" moved.txt
'
test_expect_success 'a bare clone works as the work tree does' '
	git clone -q --bare "$HOME/vulns" vulns.git &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel --vulns vulns.git "path:review-4.4/**" >bare.txt; true; } &&
	test_cmp moved.txt bare.txt
'
test_expect_code 2 'a wrong --vulns path: one line of error' '
	"$FIXSCAN" review --repo kernel --vulns "$TRASH/nowhere" "path:review-4.4/**" >out 2>err;
	rc=$?;
	test $(wc -l <err) -eq 1 && grep -q "^fixscan: .*vulns repository.*nowhere" err &&
	test ! -s out && exit $rc; exit 99
'
test_expect_code 2 'a wrong fixscan.vulns: the same for check, show and digest' '
	git config --global fixscan.vulns "$TRASH/nowhere" &&
	"$FIXSCAN" show --repo kernel $F3 >out 2>err; test $? -eq 2 &&
	test $(wc -l <err) -eq 1 && grep -q "nowhere" err &&
	"$FIXSCAN" digest --repo kernel --since @0 >out 2>err; test $? -eq 2 &&
	test $(wc -l <err) -eq 1 && grep -q "nowhere" err &&
	file=$(notmuch search --output=files "id:$M3" | head -1) &&
	"$FIXSCAN" check --repo kernel "$file" >out 2>err; rc=$?;
	test $(wc -l <err) -eq 1 && grep -q "nowhere" err && exit $rc; exit 99
'
test_expect_success 'an empty fixscan.vulns turns it off' '
	git config --global fixscan.vulns "" &&
	{ "$FIXSCAN" review --repo kernel --json "path:review-4.4/**" >off.json; true; } &&
	cmp plain.json off.json
'
test_expect_code 1 'check: the CVEs of the fix, and of a fix found by a CVE' '
	git config --global fixscan.vulns "~/vulns" &&
	file=$(notmuch search --output=files "id:$M1" | head -1) &&
	"$FIXSCAN" check --repo kernel "$file" >check1.txt &&
	tr "\n" " " <check1.txt | grep -q "fix-missing .*CVE-2024-26921 *CVE-2024-27000"
'
test_expect_success 'show: the CVEs of a commit, of its fixes, and the fixes CVE records name' '
	f3=$(echo $F3 | cut -c1-12) &&
	"$FIXSCAN" show --repo kernel $F3 >show-f3.txt &&
	grep -q "^  cve:      CVE-2024-26921 CVE-2024-27000\$" show-f3.txt &&
	"$FIXSCAN" show --repo kernel $U3 >show-u3.txt &&
	grep -q "^  fixed-by $f3 .* CVE-2024-26921 CVE-2024-27000\$" show-u3.txt &&
	! grep -q "^  cve:" show-u3.txt &&
	"$FIXSCAN" show --repo kernel $U1 >show-u1.txt &&
	grep -q "^  fixed-by $f3 .*\[cve: CVE-2024-27000 names this commit as vulnerable\] CVE-2024-26921 CVE-2024-27000\$" show-u1.txt &&
	"$FIXSCAN" show --repo kernel --json $U1 $F3 >show.json &&
	python3 - "$F3" <<-\EOF
	import json, sys
	u1, f3 = [json.loads(l) for l in open("show.json")]
	assert "cves" not in u1
	assert f3["cves"] == ["CVE-2024-26921", "CVE-2024-27000"]
	fb = [x for x in u1["fixed_by"] if x["evidence"] == "cve"]
	assert [(x["id"], x["cve"], x["cves"]) for x in fb] == \
	    [(sys.argv[1], "CVE-2024-27000", f3["cves"])], fb
	EOF
'
test_expect_success 'show without the key says nothing of CVEs' '
	git config --global --unset fixscan.vulns &&
	"$FIXSCAN" show --repo kernel $U1 $F3 >show-plain.txt &&
	! grep -q -i cve show-plain.txt &&
	git config --global fixscan.vulns "~/vulns"
'
test_expect_code 1 'digest: a missing fix with a CVE weighs 32, above those without' '
	"$FIXSCAN" digest --repo kernel --since @0 --json >digest.json
'
test_expect_success 'digest ranking and weights' '
	python3 - <<-\EOF
	import json
	d = json.load(open("digest.json"))
	r = d["risky"]
	w = {x["index"]: [(f["kind"], f["weight"], f.get("cves")) for f in x["findings"]] for x in r}
	assert ("fix-missing", 32, ["CVE-2024-26921", "CVE-2024-27000"]) in w[3], w[3]
	# 01 is also missing in 4.5 (review --all-open rule), which has no CVE
	assert sorted(w[1]) == [("fix-missing", 32, ["CVE-2024-26921", "CVE-2024-27000"]),
	                        ("missing-in-newer", 16, None)], w[1]
	# 01 and 03 rank above every patch with one missing fix that has no CVE
	def missing(x):
	    return [f for f in x["findings"] if f["kind"] == "fix-missing"]
	plain = [x["rank"] for x in r if len(missing(x)) == 1 and not missing(x)[0].get("cves")]
	cve = [x["rank"] for x in r if x["index"] in (1, 3)]
	assert plain and max(cve) < min(plain), (cve, plain)
	EOF
'
test_expect_success 'digest text names the CVEs' '
	{ "$FIXSCAN" digest --repo kernel --since @0 >digest.txt; true; } &&
	tr "\n" " " <digest.txt | grep -q "CVE-2024-26921 *CVE-2024-27000"
'
test_expect_success 'drafts name the CVE of a fix they ask for' '
	{ "$FIXSCAN" review --repo kernel --dry-run "path:review-4.4/**" >drafts.mbox 2>/dev/null; true; } &&
	grep -q "(CVE-2024-26921, CVE-2024-27000)" drafts.mbox &&
	grep -q "no Fixes: tag: its CVE record names this commit as the cause" drafts.mbox
'

test_done
