#!/bin/sh
# fixscan digest over a store with three review threads: the 4.4 and 4.5
# sample threads as if they had arrived a few hours ago, and an older copy
# of the 4.4 thread (its dates as generated, in 2016).  Only the new two
# are in the digest, ranked as fixscan-digest(1) says; --mail writes one
# message, once.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1

# new-4.4, new-4.5: the sample threads with every Date moved so the last
# mail of each is 3 hours (4.4) or 2 hours (4.5) old, order kept.  notmuch
# indexes the Date header, so that is what date: queries see.  old-4.4:
# the 4.4 cover and patches under other Message-Ids, dates untouched, and
# without the replies (their words would be regression reports on the
# new thread).
python3 - "$SRC/maildirs" "$TRASH/src" <<'PY' || exit 1
import email.utils, os, re, sys, time
src, dst = sys.argv[1], sys.argv[2]
now = time.time()

def files(d):
    return sorted(os.path.join(d, "cur", f) for f in os.listdir(os.path.join(d, "cur")))

def date_of(text):
    m = re.search(r"^Date: (.*)$", text, re.M)
    return email.utils.parsedate_to_datetime(m.group(1)).timestamp()

def copy(name, out, age=None, rename=False):
    texts = [open(f, encoding="utf-8", errors="surrogateescape").read() for f in files(os.path.join(src, name))]
    shift = 0
    if age is not None:
        shift = now - age - max(date_of(t) for t in texts)
    for d in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(dst, out, d), exist_ok=True)
    for i, t in enumerate(texts):
        head, _, body = t.partition("\n\n")
        if rename:
            if re.search(r"^Subject: Re:", head, re.M):
                continue
            head = head.replace("@stable.example.org>", "@old.example.org>")
        if shift:
            d = date_of(t) + shift
            head = re.sub(r"^Date: .*$", "Date: " + email.utils.formatdate(d),
                          head, count=1, flags=re.M)
        with open(os.path.join(dst, out, "cur", "%d.%06d.t0720:2,S" % (int(now), i)),
                  "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(head + "\n\n" + body)

copy("review-4.4", "new-4.4", age=3 * 3600)
copy("review-4.5", "new-4.5", age=2 * 3600)
copy("review-4.4", "old-4.4", rename=True)
PY
setup_notmuch "$TRASH/mail" src/new-4.4 src/new-4.5 src/old-4.4 "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

ids=$(python3 -c '
import json
t = json.load(open("kernel/answers.json"))["threads"]
print(t["review-4.4"]["cover"], t["review-4.5"]["patches"][0]["message_id"])
')
set -- $ids
cover44=$1 first45=$2

test_expect_success 'the store holds three review threads' '
	test "$(notmuch count --output=threads "subject:\"stable review\" or subject:AUTOSEL")" = 3
'
test_expect_code 1 'digest --json over the last day (risky patches: exit 1)' '
	"$FIXSCAN" digest --repo kernel --json >d.json
'
cat >check.py <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
weights = {"fix-missing": 16, "reverted-upstream": 16, "regression-report": 8,
           "objection": 8, "fix-pending": 8, "already-applied": 4, "target-absent": 2,
           "dep-missing": 2, "unknown-upstream": 1, "no-upstream": 0,
           "fixes-tag-mismatch": 0, "reverted-in-stable": 8,
           "duplicate-in-series": 4, "missing-in-newer": 16, "needs-also": 8,
           "symbol-missing": 16, "fix-not-applicable": 0}
def weight(f):
    # a revert undone by a revert of it, an id a clone older than the
    # thread lacks: they ask for nothing
    if f.get("cause") in ("revert-of-revert", "not-in-clone"):
        return 0
    return weights.get(f["kind"], 0)
# The schema of fixscan-digest(1).
assert set(d) == {"format_version", "since", "clock", "query", "series", "superseded", "risky"}, sorted(d)
assert d["superseded"] == [], d["superseded"]
# --since 1d: counted back from this machine's clock, which is said
assert d["clock"] and d["clock"] > d["since"], (d["clock"], d["since"])
assert list(d)[0] == "format_version" and d["format_version"] == 1, list(d)
for s in d["series"]:
    assert set(s) == {"message_id", "subject", "cover", "branch", "base", "release",
                      "deadline", "patches", "risky", "summary", "error",
                      "deadline_rfc3339"}, sorted(s)
    assert isinstance(s["patches"], int) and isinstance(s["risky"], int)
    assert isinstance(s["cover"], bool)
for r in d["risky"]:
    assert set(r) == {"rank", "score", "series", "branch", "release", "deadline", "index",
                      "total", "message_id", "subject", "upstream", "link", "findings",
                      "deadline_rfc3339"}, sorted(r)
    assert r["link"] == "https://lore.kernel.org/r/" + r["message_id"]
    for f in r["findings"]:
        assert set(f) == {"kind", "weight", "commit", "subject", "release", "message_id",
                          "evidence", "text", "cause"} | (
                          {"ref"} if f["kind"] == "fix-pending" else set()), sorted(f)
        assert f["weight"] == weight(f), f
    assert r["score"] == sum(weight(f) for f in r["findings"]), r
    assert r["score"] > 0
# Only the two new series, not the old copy of 4.4.
got = sorted("<%s>" % s["message_id"] for s in d["series"])
assert got == sorted(sys.argv[2:4]), got
# Ranked: score down; among equals a known deadline first (4.4 has one,
# the 4.5 AUTOSEL series none), then series and patch order.
series = d["series"]
def key(r):
    dl = series[r["series"]]["deadline"]
    return (-r["score"], dl is None, r["series"], r["index"])
assert [r["rank"] for r in d["risky"]] == list(range(1, len(d["risky"]) + 1))
assert d["risky"] == sorted(d["risky"], key=key), [(r["score"], r["branch"], r["index"]) for r in d["risky"]]
top = d["risky"][0]
assert (top["branch"], top["index"], top["score"]) == ("linux-4.4.y", 22, 48), top
# A backport of 4.5 that cannot build (06) weighs what a missing fix does.
assert [r["score"] for r in d["risky"] if r["branch"] == "linux-4.5.y" and r["index"] == 6] == [16]
assert not [r for r in d["risky"] if r["branch"] == "linux-4.5.y" and r["index"] == 7]
# The 4.5 patch with a missing fix comes after every 4.4 patch of score 16.
pos45 = [i for i, r in enumerate(d["risky"]) if r["branch"] == "linux-4.5.y" and r["index"] == 5][0]
assert d["risky"][pos45]["score"] == 16
assert all(r["branch"] == "linux-4.4.y" for r in d["risky"][:pos45] )
assert all(r["score"] < 16 or r["branch"] == "linux-4.5.y" for r in d["risky"][pos45 + 1:])
# Risky means a finding that asks for action: none is there for the
# findings alone that ask for nothing (4.4's 11/27, no-upstream).
for r in d["risky"]:
    assert any(weight(f) > 0 for f in r["findings"]), r
assert not [r for r in d["risky"] if r["branch"] == "linux-4.4.y" and r["index"] == 11]
print(len(d["risky"]), "risky patches in order")
PY
test_expect_success 'only the new threads, ranked in the documented order, schema' '
	python3 check.py d.json "$cover44" "$first45"
'
test_expect_code 1 'the text digest' '
	"$FIXSCAN" digest --repo kernel >d.txt
'
test_expect_success 'text: series, the top patch, release, deadline, lore link' '
	grep -q "^stable review digest: 2 series since " d.txt &&
	grep -q "^  \[PATCH 4.4 00/27\] 4.4.7-stable review\$" d.txt &&
	! grep -q "old.example.org" d.txt &&
	sed -n "/^1\. /,/^\$/p" d.txt >top &&
	grep -q "^1\. \[score 48\] 4.4.7-rc1 22/27 " top &&
	grep -q "^  release 4.4.7-rc1 (linux-4.4.y), deadline 2016-04-26 01:44 UTC\$" top &&
	grep -q "^  AUTOSEL, no release (linux-4.5.y)\$" d.txt &&
	! grep -q "unknown" d.txt &&
	grep -q "^  fix-missing " top &&
	grep -q "^  https://lore.kernel.org/r/.*@stable.example.org\$" top &&
	! awk "length > 79" d.txt | grep .
'
# The reviewer's own mail of today in the old thread: a reply they sent
# (kept in Sent) and an unsent draft of fixscan's.  Neither makes the old
# thread "arrived lately"; a reply of someone else's would.
oldcover=$(grep -l "^Subject: \[PATCH 4.4 00/27\]" mail/old-4.4/cur/* | head -1)
oldid=$(sed -n "s/^Message-I[dD]: *//p" "$oldcover" | head -1)
now=$(date -R)
mkdir -p mail/Sent/cur mail/Sent/new mail/Sent/tmp mail/Drafts/cur mail/Drafts/new mail/Drafts/tmp
cat >mail/Sent/cur/1.own.t0720:2,S <<EOF
From: Rita Reviewer <rita@example.org>
To: Greta Kroll <greta@stable.example.org>
Subject: Re: [PATCH 4.4 00/27] 4.4.7-stable review
Date: $now
Message-Id: <own-reply-t0720@example.org>
In-Reply-To: $oldid
References: $oldid

Looks fine to me.
EOF
cat >mail/Drafts/cur/2.own.t0720:2,D <<EOF
From: Rita Reviewer <rita@example.org>
To: Greta Kroll <greta@stable.example.org>
Subject: Re: [PATCH 4.4 00/27] 4.4.7-stable review
Date: $now
Message-Id: <fixscan.0123456789ab.20260101000000.01234567@example.org>
In-Reply-To: $oldid
References: $oldid

Draft.
EOF
notmuch new --quiet
test_expect_code 1 'the reviewer'"'"'s own mail of today in the old thread' '
	test "$(notmuch count --output=threads "id:own-reply-t0720@example.org or id:fixscan.0123456789ab.20260101000000.01234567@example.org")" = 1 &&
	"$FIXSCAN" digest --repo kernel --json >own.json
'
test_expect_success '... does not make it a thread that arrived lately' '
	python3 -c "import json; d = json.load(open(\"own.json\")); assert len(d[\"series\"]) == 2, [s[\"message_id\"] for s in d[\"series\"]]"
'
test_expect_code 1 'nor with a query of ones own (fixscan.digestQuery)' '
	notmuch config set fixscan.digestQuery "subject:PATCH" &&
	"$FIXSCAN" digest --repo kernel --json >ownq.json;
	rc=$?; notmuch config set fixscan.digestQuery; exit $rc
'
test_expect_success '... two series there too' '
	python3 -c "import json; d = json.load(open(\"ownq.json\")); assert len(d[\"series\"]) == 2, [s[\"message_id\"] for s in d[\"series\"]]"
'
test_expect_code 1 'someone else'"'"'s reply of today does make it new' '
	sed -e "s/^From: .*/From: Dmitri Orlov <dorlov@example.com>/" \
	    -e "s/own-reply-t0720@example.org/other-reply-t0720@example.com/" \
		mail/Sent/cur/1.own.t0720:2,S >mail/Sent/cur/3.other.t0720:2,S &&
	notmuch new --quiet &&
	"$FIXSCAN" digest --repo kernel --json >other.json
'
# The old thread is the same round (4.4.7-rc1) posted again later as the
# new one: in the window it is left out, listed as superseded.
superseded_check() {
	python3 - "$1" <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert len(d["series"]) == 2, d["series"]
	assert "old.example.org" not in json.dumps(d["series"]), d["series"]
	s = d["superseded"]
	assert len(s) == 1 and s[0]["release"] == "4.4.7-rc1" and s[0]["branch"] == "linux-4.4.y", s
	assert s[0]["message_id"].endswith("@old.example.org"), s
	EOF
}
test_expect_success '... in the window, but the same round posted again later: two series, the old one superseded' '
	superseded_check other.json &&
	rm mail/Sent/cur/3.other.t0720:2,S && notmuch new --quiet
'
test_expect_code 1 'a wider --since takes in the old thread too' '
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --json >all.json 2>all.err
'
test_expect_success '... left out as superseded, nothing said on stderr' '
	superseded_check all.json && ! grep . all.err
'
test_expect_code 1 'the text names the round left out' '
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 >all.txt
'
test_expect_success '... under the series' '
	grep -A2 "^left out, a later round of their branch is above:\$" all.txt >left &&
	grep -q "^  \[PATCH 4.4 00/27\] 4.4.7-stable review\$" left &&
	grep -q "^    linux-4.4.y, 4.4.7-rc1\$" left
'
test_expect_code 1 '--mail writes the digest (and prints nothing)' '
	"$FIXSCAN" digest --repo kernel --mail >out &&
	test ! -s out
'
test_expect_success 'one message in INBOX/new, indexed and tagged' '
	ls mail/INBOX/new >files && test "$(wc -l <files)" = 1 &&
	test "$(notmuch count tag:fixscan-digest)" = 1 &&
	f=mail/INBOX/new/$(cat files) &&
	grep -q "^From: Rita Reviewer <rita@example.org>\$" "$f" &&
	grep -q "^Subject: fixscan digest .*: [0-9]* risky patches in 2 series\$" "$f" &&
	grep -q "^Message-Id: <fixscan-digest-[0-9]\{8\}-[0-9a-f]\{16\}@example.org>\$" "$f" &&
	grep -q "^1\. \[score 48\] 4.4.7-rc1 22/27 " "$f" &&
	test ! -e mail/INBOX/tmp/* 2>/dev/null
'
test_expect_code 1 'a digest over a store holding the digest mail' '
	"$FIXSCAN" digest --repo kernel --json >d2.json
'
test_expect_success '... cites it nowhere: the same risky patches as before' '
	python3 -c "
import json
a, b = json.load(open(\"d.json\")), json.load(open(\"d2.json\"))
assert a[\"risky\"] == b[\"risky\"], [r for r in b[\"risky\"] if r not in a[\"risky\"]][:2]
assert not [f for r in b[\"risky\"] for f in r[\"findings\"]
            if (f[\"message_id\"] or \"\").startswith(\"fixscan-digest-\")]
"
'
test_expect_success 'the day of the digest is remembered in the state directory' '
	grep -q "^[0-9]\{8\} fixscan-digest-[0-9]\{8\}-[0-9a-f]\{16\}@example.org\$" \
		"$XDG_STATE_HOME/fixscan/digest"
'
test_expect_code 0 '--mail again the same day: nothing to do (exit 0)' '
	"$FIXSCAN" digest --repo kernel --mail >out2 2>err2
'
test_expect_success '... writes no second copy, and says so on stderr' '
	test "$(ls mail/INBOX/new | wc -l)" = 1 &&
	test "$(notmuch count tag:fixscan-digest)" = 1 &&
	test ! -s out2 &&
	grep -q "^digest: today'"'"'s digest is mailed already (<fixscan-digest-.*@example.org>), nothing written\$" err2 &&
	test "$(wc -l <err2)" = 1
'
test_expect_success '... even when new threads arrived since' '
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail 2>err3 &&
	grep -q "mailed already" err3 &&
	test "$(ls mail/INBOX/new | wc -l)" = 1
'
test_expect_code 1 'a digest written but not indexed is indexed by the next run' '
	rm "$XDG_STATE_HOME/fixscan/digest" &&
	f=$(ls mail/INBOX/new/*) &&
	notmuch search --output=messages tag:fixscan-digest >ids &&
	mv "$f" "$TRASH/saved" && notmuch new --quiet &&
	test "$(notmuch count tag:fixscan-digest)" = 0 &&
	mv "$TRASH/saved" "$f" &&
	"$FIXSCAN" digest --repo kernel --mail
'
test_expect_success '... once, with its tag' '
	test "$(ls mail/INBOX/new | wc -l)" = 1 &&
	test "$(notmuch count tag:fixscan-digest)" = 1
'
test_expect_success 'fixscan.digestFolder names another maildir' '
	rm "$XDG_STATE_HOME/fixscan/digest" &&
	# the digests so far go: the next has the same series, and one the
	# store has already is not written again
	rm -f mail/INBOX/new/* mail/INBOX/cur/* && notmuch new --quiet &&
	notmuch config set fixscan.digestFolder Digests &&
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail;
	test $? = 1 &&
	test "$(ls mail/Digests/new | wc -l)" = 1 &&
	test "$(notmuch count tag:fixscan-digest)" = 1 &&
	notmuch config set fixscan.digestFolder
'
test_expect_success 'fixscan.digestQuery narrows the threads' '
	notmuch config set fixscan.digestQuery "subject:AUTOSEL" &&
	"$FIXSCAN" digest --repo kernel --json >q.json;
	test $? = 1 &&
	notmuch config set fixscan.digestQuery &&
	python3 -c "import json; d = json.load(open(\"q.json\")); assert [s[\"branch\"] for s in d[\"series\"]] == [\"linux-4.5.y\"], d[\"series\"]"
'
test_expect_code 0 'nothing since an hour ago: exit 0' '
	"$FIXSCAN" digest --repo kernel --since 1h >none.txt &&
	grep -q "^stable review digest: 0 series since" none.txt
'
test_expect_code 2 'a --since that is not a time' '
	"$FIXSCAN" digest --repo kernel --since yesterday-ish
'
# Two digest --mail at once (the timer firing while the reviewer runs it
# by hand): one writer at a time, so one digest mail, whatever the order.
rounds=${FIXSCAN_RACE_ROUNDS:-6}
r=1
while [ "$r" -le "$rounds" ]; do
	test_expect_success "two digest --mail at once, round $r: one digest" '
		rm -f "$XDG_STATE_HOME/fixscan/digest" mail/INBOX/new/* mail/Digests/new/*
		notmuch new --quiet || exit 1
		"$FIXSCAN" digest --repo kernel --mail >/dev/null 2>race1.err &
		"$FIXSCAN" digest --repo kernel --mail >/dev/null 2>race2.err &
		wait
		test "$(ls mail/INBOX/new | wc -l)" = 1 &&
		test -z "$(ls mail/INBOX/tmp)" &&
		test "$(notmuch count tag:fixscan-digest)" = 1 &&
		! grep -v "^digest: " race1.err race2.err
	'
	r=$((r + 1))
done
test_done
