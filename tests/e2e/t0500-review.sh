#!/bin/sh
# fixscan review on the sample threads, against the sample kernel
# repository whose ids they use; every expected finding of answers.json
# must be found, and nothing else of the kinds answers.json describes.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1
cover=$(python3 -c 'import json; print(json.load(open("kernel/answers.json"))["threads"]["review-4.4"]["cover"])')

# Compare a review --json line with the answers for one thread.  Kinds the
# answers do not describe (objection, reverts-stable) are checked apart.
cat >check.py <<'PY'
import json, sys
answers = json.load(open("kernel/answers.json"))["threads"][sys.argv[1]]
got = json.loads(open(sys.argv[2]).read().splitlines()[0])
extra = {"objection", "reverts-stable", "needs-also", "reply", "replacement-posted"}
ok = True
if got["branch"] != answers["branch"]:
    print("branch", got["branch"], "!=", answers["branch"]); ok = False
if answers["cover"] and got["base"] != answers["base"]:
    print("base", got["base"], "!=", answers["base"]); ok = False
by_index = {p["index"]: p for p in got["patches"]}
for want in answers["patches"]:
    p = by_index.get(want["index"])
    if p is None:
        print("patch", want["index"], "missing from the report"); ok = False; continue
    unknown = any(e["kind"] == "unknown-upstream" for e in want["expected"])
    if want["upstream"] and not unknown and p["upstream"] != want["upstream"]:
        print(want["index"], "upstream", p["upstream"], "!=", want["upstream"]); ok = False
    # An expected cause (revert-of-revert) is compared too; an expected
    # index is that of the patch a duplicate-in-series names.
    def key(kind, commit, cause, index):
        return (kind, commit, cause or "", index if kind == "duplicate-in-series" else -1)
    exp = sorted(key(e["kind"], e["commit"], e.get("cause"), e.get("index", -1))
                 for e in want["expected"])
    have = sorted(key(f["kind"], f["commit"],
                      f["cause"] if any("cause" in e for e in want["expected"]) else None,
                      f["series_index"])
                  for f in p["findings"] if f["kind"] not in extra and
                  not (f["kind"] == "regression-report" and not f["commit"]))
    if exp != have:
        print(want["index"], "want", exp, "got", have); ok = False
sys.exit(0 if ok else 1)
PY

test_expect_code 1 'review of the 4.4 thread finds something (exit 1)' '
	"$FIXSCAN" review --repo kernel --json "path:review-4.4/**" >r44.json
'
test_expect_success 'every expected finding of the 4.4 thread, and nothing else' '
	python3 check.py review-4.4 r44.json
'
test_expect_success 'every finding kind occurs in the 4.4 thread' '
	for k in fix-missing fix-queued fix-present reverted-upstream already-applied \
		target-absent no-upstream unknown-upstream regression-report dep-missing \
		fixes-tag-mismatch reverts-stable objection reverted-in-stable \
		duplicate-in-series needs-also backport-differs fix-pending; do
		grep -q "\"kind\":\"$k\"" r44.json || { echo "no $k"; exit 1; }
	done
'
test_expect_success 'the fix-of-fix chain runs from the upstream commit to the fix' '
	python3 -c "
import json
r = json.loads(open(\"r44.json\").readline())
a = json.load(open(\"kernel/answers.json\"))[\"threads\"][\"review-4.4\"]
ups = {p[\"index\"]: p[\"upstreams\"] for p in a[\"patches\"]}
chains = [f[\"chain\"] for p in r[\"patches\"] for f in p[\"findings\"] if len(f[\"chain\"]) >= 3]
assert chains, \"no chain of three or more\"
for p in r[\"patches\"]:
    for f in p[\"findings\"]:
        if f[\"chain\"]:
            assert f[\"chain\"][0] in ups[p[\"index\"]], (p[\"index\"], f[\"chain\"])
            assert f[\"chain\"][-1] == f[\"commit\"], (p[\"index\"], f[\"chain\"])
"
'
test_expect_code 1 'review of the 4.5 thread (no cover letter)' '
	"$FIXSCAN" review --repo kernel --json "path:review-4.5/**" >r45.json
'
test_expect_success 'every expected finding of the 4.5 thread, and nothing else' '
	python3 check.py review-4.5 r45.json
'
test_expect_success 'the branch tree verdicts of the 4.5 thread: symbol and files in JSON' '
	python3 -c "
import json
a = json.load(open(\"kernel/answers.json\"))
ids = {c[\"name\"]: c[\"id\"] for c in a[\"commits\"]}
r = json.loads(open(\"r45.json\").readline())
p = {x[\"index\"]: x for x in r[\"patches\"]}
s = [f for f in p[6][\"findings\"] if f[\"kind\"] == \"symbol-missing\"]
assert len(s) == 1 and s[0][\"commit\"] == ids[\"u_settle_base\"], s
assert s[0][\"symbol\"] == \"hub_port_settle_ms\", s
assert [(u[\"name\"], u[\"role\"], u[\"file\"]) for u in s[0][\"symbols\"]] == \\
    [(\"hub_port_settle_ms\", \"call\", \"drivers/usb/core/hub.c\")], s
n = [f for f in p[7][\"findings\"] if f[\"kind\"] == \"fix-not-applicable\"]
assert len(n) == 1 and n[0][\"commit\"] == ids[\"f_na\"], n
assert n[0][\"files\"] == [\"drivers/usb/typec/tcpm.c\"], n
assert r[\"summary\"][\"symbol-missing\"] == 1 and r[\"summary\"][\"fix-not-applicable\"] == 1, r[\"summary\"]
assert not any(f[\"kind\"] == \"fix-missing\" for f in p[7][\"findings\"]), p[7]
"
'
test_expect_code 1 'text report: blocks, summary, the branch and where it came from' '
	"$FIXSCAN" review --repo kernel "path:review-4.4/**" >r44.txt
'
test_expect_success 'text report content' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel "path:review-4.4/**" >r44w.txt;
	grep -q "^branch: linux-4.4.y (from X-KernelTest-Branch), base: v4.4.6 (from X-KernelTest-Version)" r44w.txt &&
	grep -q "^deadline: 2016-04-26T01:44+00:00\$" r44w.txt &&
	grep -q "^summary: .*fix-missing" r44w.txt &&
	grep -q "^  fix-queued .* is queued as [0-9][0-9]/27\$" r44w.txt &&
	grep -q "matched by subject only" r44w.txt &&
	! grep -q "$(printf "\033")" r44.txt
'
test_expect_success 'numbers as the subjects write them: 03/27' '
	grep -q "^03/27 netfilter: x_tables: check the counters offset" r44w.txt &&
	! grep -q "[0-9][0-9][0-9]/0*27" r44w.txt
'
test_expect_success 'plurals: 2 regression-reports, 1 objection, 27 patches' '
	grep -q "^summary: .* 2 regression-reports, .* 1 objection, 1 reverted-in-stable, .* 1 needs-also, 1 backport-differs, 1 fix-pending, 1 series-partial in 27 patches\$" r44w.txt &&
	{ COLUMNS=1000 "$FIXSCAN" review --repo kernel "path:review-4.5/**" >r45w.txt; true; } &&
	grep -q "^review: 7 patches without a cover letter" r45w.txt &&
	grep -q "^summary: .* 1 symbol-missing, 1 fix-not-applicable in 7 patches\$" r45w.txt
'
test_expect_success 'a backport that cannot build, a fix of files the branch lacks: their lines' '
	grep -q "^  symbol-missing [0-9a-f]\{12\} (\"usb: hub: add hub_port_settle_ms()\") brings hub_port_settle_ms(), which linux-4.5.y has nowhere: the backport cannot build without it\$" r45w.txt &&
	grep -q "^  fix-not-applicable [0-9a-f]\{12\} (\"usb: typec: read the port speed after the hub reported it\") changes only drivers/usb/typec/tcpm.c, which linux-4.5.y does not have: nothing to queue\$" r45w.txt
'
test_expect_success 'fix-pending: the posted fix of 24 on the list, with its lore link; no other' '
	grep -q "^  fix-pending fixes [0-9a-f]\{12\}: \"\[PATCH\] block: check for an empty bio before bio_last_page()\" from Nadia Perez <nadia@netdev.example.org>, .*: https://lore.kernel.org/r/[0-9.]*@netdev.example.org\$" r44w.txt &&
	test $(grep -c "fix-pending" r44w.txt) = 2 &&
	python3 -c "
import json
r = json.loads(open(\"r44.json\").readline())
got = [(p[\"index\"], f) for p in r[\"patches\"] for f in p[\"findings\"] if f[\"kind\"] == \"fix-pending\"]
assert len(got) == 1, got
i, f = got[0]
assert i == 24 and f[\"commit\"] is None and f[\"cause\"] == \"fix\", got
assert f[\"message_id\"].endswith(\"@netdev.example.org\"), f
assert f[\"subject\"] == \"[PATCH] block: check for an empty bio before bio_last_page()\", f
assert f[\"from\"] == \"Nadia Perez <nadia@netdev.example.org>\" and f[\"date\"], f
"
'
test_expect_success 'piped without COLUMNS: no line over 80 columns, continuations indented' '
	(unset COLUMNS; "$FIXSCAN" review --repo kernel "path:review-4.4/**" >r44p.txt;
	 "$FIXSCAN" review --repo kernel -v "path:review-4.4/**" >r44pv.txt;
	 "$FIXSCAN" review --repo kernel --short "path:review-4.4/**" >r44ps.txt; true) &&
	test $(wc -l <r44p.txt) -gt 20 &&
	! awk "length > 80" r44p.txt r44pv.txt r44ps.txt | grep . &&
	grep -q "^      " r44p.txt
'
test_expect_success 'colour codes take no column and are never split' '
	COLUMNS=60 "$FIXSCAN" review --repo kernel --color=always "path:review-4.4/**" >r44c.txt;
	grep -q "$(printf "\033")\[1;31mfix-missing$(printf "\033")\[0m" r44c.txt &&
	sed "s/$(printf "\033")\[[0-9;]*m//g" r44c.txt >r44c-plain.txt &&
	! grep -q "$(printf "\033")" r44c-plain.txt &&
	! awk "length > 60 && !/^ *https:[^ ]*\$/" r44c-plain.txt | grep . &&
	awk "length > 60" r44c.txt | grep -q .
'
test_expect_success '-v shows the evidence, the default does not' '
	grep -q "\[prefix\]" r44pv.txt &&
	! grep -q "\[prefix\]" r44p.txt &&
	grep -q "matched by subject only" r44p.txt
'
test_expect_code 1 '--short keeps the exit status' '
	"$FIXSCAN" review --repo kernel --short "path:review-4.4/**" >r44s.txt
'
test_expect_success '--short: one line per flagged patch, most serious first' '
	python3 -c "
import json, re
r = json.loads(open(\"r44.json\").readline())
flagged = sum(1 for p in r[\"patches\"] if any(not f[\"ignored\"] for f in p[\"findings\"]))
lines = [l for l in open(\"r44s.txt\") if re.match(r\"[0-9]+/[0-9]+ \", l)]
assert len(lines) == flagged, (len(lines), flagged)
assert len(set(l.split()[0] for l in lines)) == flagged
kinds = [l.split()[1] for l in lines]
undone = {p[\"index\"] for p in r[\"patches\"] for f in p[\"findings\"]
          if f[\"cause\"] == \"revert-of-revert\"}
act = {\"fix-missing\", \"reverted-upstream\", \"already-applied\", \"duplicate-in-series\",
       \"dep-missing\", \"reverted-in-stable\"}
reports = {\"regression-report\", \"objection\"}
# a reverted-upstream undone by a revert of the revert is a note
cls = [2 if int(l.split(\"/\")[0]) in undone and k == \"reverted-upstream\" else
       0 if k in act else 1 if k in reports else 2 for l, k in zip(lines, kinds)]
assert cls[0] == 0 and kinds[0] == \"fix-missing\", kinds
first_note = cls.index(2)
assert all(c == 2 for c in cls[first_note:]), kinds
assert sorted(cls[:first_note]) == cls[:first_note], kinds
assert all(len(l.rstrip(\"\\n\")) <= 80 for l in lines)
" &&
	grep -q "^summary: " r44s.txt
'
test_expect_success '--short: an unknown upstream id is not given the patch'"'"'s subject as its own' '
	python3 -c "
import json
r = json.loads(open(\"r44.json\").readline())
unk = [(p[\"index\"], f[\"commit\"]) for p in r[\"patches\"] for f in p[\"findings\"]
       if f[\"kind\"] == \"unknown-upstream\"]
assert len(unk) == 1, unk
print(\"%02d/27 unknown-upstream %s (not found), the patch \\\"\" % (unk[0][0], unk[0][1][:12]))
" >want-unknown &&
	grep -F "$(cat want-unknown)" r44s.txt &&
	! grep "unknown-upstream [0-9a-f]* (\"" r44s.txt
'
test_expect_code 1 '-q prints the summary line alone and keeps the exit status' '
	COLUMNS=1000 "$FIXSCAN" review --repo kernel -q "path:review-4.4/**" >r44q.txt
'
test_expect_success '-q output' '
	test $(wc -l <r44q.txt) -eq 1 &&
	grep -q "^summary: .* in 27 patches\$" r44q.txt
'
test_expect_success 'check on a patch whose only finding is fix-queued exits 0' '
	id=$(python3 -c "
import json
r = json.loads(open(\"r44.json\").readline())
for p in r[\"patches\"]:
    kinds = {f[\"kind\"] for f in p[\"findings\"] if not f[\"ignored\"]}
    if kinds == {\"fix-queued\"}:
        print(p[\"message_id\"]); break
") &&
	test -n "$id" &&
	file=$(notmuch search --output=files "id:$id" | head -1) &&
	"$FIXSCAN" check --repo kernel "$file" >queued.out &&
	grep -q "fix-queued" queued.out
'
test_expect_success 'every JSON document starts with "format_version": 1' '
	head -c 20 r44.json | grep -q "^{\"format_version\":1," &&
	up=$(python3 -c "import json; print(next(p[\"upstream\"] for p in json.loads(open(\"r44.json\").readline())[\"patches\"] if p[\"upstream\"]))") &&
	"$FIXSCAN" show --repo kernel --json "$up" >show.json &&
	head -c 20 show.json | grep -q "^{\"format_version\":1," &&
	"$FIXSCAN" stats --repo kernel --json linux-4.4.y >stats.json &&
	head -c 20 stats.json | grep -q "^{\"format_version\":1," &&
	"$FIXSCAN" parse --json "$(notmuch search --output=files "path:review-4.4/**" | head -1)" >parse.json &&
	head -c 20 parse.json | grep -q "^{\"format_version\":1,"
'
test_expect_code 1 'the thread by cover Message-Id with angle brackets' '
	"$FIXSCAN" review --repo kernel --json "$cover" >by-mid.json
'
test_expect_success 'the same review whichever way the thread is named' '
	bare=$(echo "$cover" | tr -d "<>") &&
	"$FIXSCAN" review --repo kernel --json "id:$bare" >by-id.json;
	tid=$(notmuch search --output=threads "id:$bare") &&
	"$FIXSCAN" review --repo kernel --json "$tid" >by-thread.json;
	"$FIXSCAN" review --repo kernel --json - <"$(notmuch search --output=files "id:$bare")" >by-stdin.json;
	test_cmp r44.json by-mid.json && test_cmp r44.json by-id.json &&
	test_cmp r44.json by-thread.json && test_cmp r44.json by-stdin.json
'
test_expect_success 'lore links name the thread too' '
	bare=$(echo "$cover" | tr -d "<>") &&
	enc=$(echo "$bare" | sed "s/@/%40/") &&
	"$FIXSCAN" review --repo kernel --json "https://lore.kernel.org/r/$bare" >lore1.json;
	"$FIXSCAN" review --repo kernel --json "https://lore.kernel.org/all/$enc/" >lore2.json;
	"$FIXSCAN" review --repo kernel --json "https://lore.kernel.org/stable/$bare/T/#u" >lore3.json;
	test_cmp r44.json lore1.json && test_cmp r44.json lore2.json && test_cmp r44.json lore3.json
'
test_expect_code 2 'a message the store lacks: the error says how to fetch it' '
	"$FIXSCAN" review --repo kernel --no-fetch "https://lore.kernel.org/r/nosuch.123@example.org" 2>err;
	rc=$?; test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: message <nosuch.123@example.org> is not in the notmuch store and fetching is off (--no-fetch, fixscan.fetch): fetch its thread (b4 mbox" err &&
	exit $rc; exit 99
'
test_expect_code 0 '--all with an ignore file that silences everything exits 0' '
	python3 -c "
import json
r = json.loads(open(\"r44.json\").readline())
with open(\"ignore\", \"w\") as f:
    f.write(\"# silence every finding, by commit or by patch\n\")
    for p in r[\"patches\"]:
        for x in p[\"findings\"]:
            f.write(\"%s %s test reason\n\" % (x[\"commit\"] or \"*\", p[\"upstream\"] or \"*\"))
" &&
	"$FIXSCAN" review --repo kernel --ignore ignore --json "path:review-4.4/**" >ign.json
'
test_expect_success 'ignored findings stay in JSON with their reason and are counted' '
	python3 -c "
import json
r = json.loads(open(\"ign.json\").readline())
fs = [f for p in r[\"patches\"] for f in p[\"findings\"]]
assert fs and all(f[\"ignored\"] == \"test reason\" for f in fs), fs[:2]
assert r[\"summary\"][\"ignored\"] == len(fs)
assert r[\"summary\"][\"fix-missing\"] == 0
" &&
	"$FIXSCAN" review --repo kernel --ignore ignore "path:review-4.4/**" | grep -q "ignored)"
'
test_expect_success '--base changes what counts as in the branch' '
	"$FIXSCAN" review --repo kernel --base v4.4.1 --json "path:review-4.4/**" >b441.json;
	test $? -eq 1 &&
	grep -q "\"base\":\"v4.4.1\",\"base_source\":\"--base\"" b441.json &&
	! cmp -s r44.json b441.json
'
test_expect_code 2 'a query with no review thread' '
	"$FIXSCAN" review --repo kernel "subject:no-such-thing-anywhere" 2>err;
	rc=$?; test $(wc -l <err) -eq 1 && grep -q "^fixscan: no message matches '"'"'subject:no-such-thing-anywhere'"'"'\$" err && exit $rc; exit 99
'
test_expect_code 2 'a missing kernel repository' '
	"$FIXSCAN" review --repo "$TRASH/nowhere" "path:review-4.4/**" 2>err;
	rc=$?; test $(wc -l <err) -eq 1 && grep -q "^fixscan: .*nowhere" err && exit $rc; exit 99
'
test_expect_code 2 'a missing notmuch database' '
	NOTMUCH_CONFIG="$TRASH/no-config" "$FIXSCAN" review --repo kernel "path:review-4.4/**" 2>err;
	rc=$?; test $(wc -l <err) -eq 1 && grep -q "^fixscan: " err && exit $rc; exit 99
'
test_expect_code 1 'fixscan.<version>.branch names the branch of a series whose mails do not' '
	git -C kernel config fixscan.4.5.branch linux-4.4.y &&
	"$FIXSCAN" review --repo kernel --json "path:review-4.5/**" >cfg45.json;
	rc=$?; git -C kernel config --unset fixscan.4.5.branch; exit $rc
'
test_expect_success '... and the report says so' '
	grep -q "\"branch\":\"linux-4.4.y\",\"branch_source\":\"fixscan.<version>.branch config\"" cfg45.json
'
test_expect_code 2 'a Message-Id read from mail cannot widen the notmuch query' '
	cat >evil.eml <<-\EOF &&
	From: Mallory <m@example.org>
	Subject: [PATCH 4.4 01/24] something
	Message-Id: <a" OR path:review-4.5/** OR id:"b@x>

	commit 1234567890123456789012345678901234567890 upstream.
	EOF
	"$FIXSCAN" review --repo kernel --no-fetch --json - <evil.eml >evil.json 2>err;
	rc=$?; test ! -s evil.json && grep -q "^fixscan: message <a\" OR .*> is not in the notmuch store" err && exit $rc; exit 99
'
test_expect_success 'check and show print control characters from mail and git visibly' '
	up=$(python3 -c "import json; a = json.load(open(\"kernel/answers.json\"))[\"threads\"][\"review-4.4\"]; print([p for p in a[\"patches\"] if p[\"upstream\"]][0][\"upstream\"])") &&
	printf "From: A <a@example.org>\nSubject: [PATCH 4.4 01/02] net: \033]0;owned\007title\nMessage-Id: <esc.check@x>\n\ncommit %s upstream.\n" "$up" >esc.eml &&
	{ "$FIXSCAN" check --repo kernel esc.eml >esc.out; test $? -le 1; } &&
	grep -q "net: ^\[\]0;owned^Gtitle" esc.out &&
	! grep -q "$(printf "\033")" esc.out &&
	"$FIXSCAN" show --repo kernel "$up" >show.out &&
	! grep -q "$(printf "\033")" show.out &&
	printf "From: A <a@example.org>\nSubject: hello \033[2J there\nMessage-Id: <esc.plain@x>\n\nhi\n" >plain.eml &&
	"$FIXSCAN" check --repo kernel plain.eml >plain.out 2>&1 &&
	grep -q "^fixscan: not a stable patch: hello ^\[\[2J there\$" plain.out
'
test_expect_code 2 'no thread given is a usage error' '
	"$FIXSCAN" review --repo kernel
'
test_expect_code 2 'a --base the index does not know is an error naming it' '
	"$FIXSCAN" review --repo kernel --base v4.4.99 "path:review-4.4/**" >nobase.out 2>nobase.err
'
test_expect_success '... and no report' '
	grep -q "v4.4.99" nobase.err &&
	! grep -q "^summary:" nobase.out
'
test_expect_success 'a clone as new as the threads gives no notice' '
	"$FIXSCAN" review --repo kernel --json "path:review-4.4/** or path:review-4.5/**" >fresh.json 2>fresh.err;
	! grep -q "older than this thread" fresh.err &&
	grep -q "\"cause\":\"not-found\"" fresh.json
'
# The sample clone minus its last two mainline commits, the ones fetched
# after the threads: its mainline ends before them.
test_expect_success 'a clone older than the threads: one notice, ids "not in your clone"' '
	cp -R kernel stale &&
	# mainline before its commits fetched after the threads: the last
	# three before the first of the five of the tree verdicts
	settle=$(git -C kernel log --format=%H --fixed-strings --grep="add hub_port_settle_ms()" master) &&
	git -C stale update-ref refs/heads/master "$settle~3" &&
	"$FIXSCAN" review --repo stale --json "path:review-4.4/** or path:review-4.5/**" >stale.json 2>stale.err;
	test "$(grep -c "older than this thread" stale.err)" -eq 1 &&
	grep -q "^fixscan: mainline in .*stale ends on 2016-[0-9][0-9]-[0-9][0-9], older than this thread (2016-[0-9][0-9]-[0-9][0-9]): run git fetch$" stale.err &&
	python3 -c "
import json
r = json.loads(open(\"stale.json\").readline())
u = [f for p in r[\"patches\"] for f in p[\"findings\"] if f[\"kind\"] == \"unknown-upstream\"]
assert u and all(f[\"cause\"] == \"not-in-clone\" and \"your clone\" in f[\"note\"] for f in u), u
"
'
test_expect_success '... and no draft asks about an id the clone may lack' '
	"$FIXSCAN" review --repo stale --drafts --dry-run "path:review-4.4/**" >stale-drafts.out 2>&1;
	grep -q "^Subject: " stale-drafts.out &&
	! grep -q "Could you check the id" stale-drafts.out &&
	! grep -q "not found in mainline" stale-drafts.out
'
test_done
