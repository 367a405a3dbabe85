#!/bin/sh
# Round to round: the multi-branch sample has the 5.15.147-rc1 thread and
# the -rc2 that adds a patch to it; this test adds an -rc3 that drops that
# patch again.  The review of a round N >= 2 says what changed since the
# latest earlier round the store has (previous_round in the JSON, one
# line under the header) and names the user's drafts in that round's
# thread; an -rc1, and a release of which the store has no other round,
# have none.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" multi "$TRASH/multi" >/dev/null || exit 1
# rc3: the rc2 cover and its patch 01 (the patch 02 of rc2 dropped),
# under rc3's release and Message-Ids, a day later.
python3 - "$TRASH/multi/mail/multi/cur" "$TRASH/rc3" <<'PY' || exit 1
import os, re, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(dst, "cur"), exist_ok=True)
for name in sorted(os.listdir(src)):
    text = open(os.path.join(src, name)).read()
    if ".515." not in text or not re.search(r"^Subject: \[PATCH 5\.15 0[01]/02\]", text, re.M):
        continue
    text = text.replace("5.15.147-rc2", "5.15.147-rc3").replace(".515.", ".515rc3.")
    text = text.replace("00/02]", "00/01]").replace("01/02]", "01/01]")
    text = text.replace("Mon, 15 Jan 2024", "Tue, 16 Jan 2024")
    with open(os.path.join(dst, "cur", "rc3-" + name), "w") as f:
        f.write(text)
PY
# A draft of the user's, a reply to the rc1 patch, not sent.
mkdir -p drafts/cur
cat >drafts/cur/1705226400.t0570:2,D <<'MAIL'
From: Rita Reviewer <rita@example.org>
To: stable@vger.kernel.org
Subject: Re: [PATCH 5.15 01/01] net: fix a use-after-free in sock_foo()
Date: Sun, 14 Jan 2024 10:00:00 +0000
Message-Id: <fixscan-t0570-draft@example.org>
In-Reply-To: <1705140000.515rc1.01@linuxfoundation.org>
References: <1705140000.515rc1.cover@linuxfoundation.org> <1705140000.515rc1.01@linuxfoundation.org>

Looks good.
MAIL
setup_notmuch "$TRASH/mail" "$TRASH/multi/mail/multi" rc3 drafts || exit 1
"$FIXSCAN" index --repo multi/kernel >/dev/null || exit 1
ids=$(python3 -c 'import json; i = json.load(open("multi/answers.json"))["ids"]; print(i["a"], i["c"], i["cf"])')
set -- $ids
A=$1 C=$2 CF=$3

test_expect_success 'the store has the three rounds of 5.15.147' '
	test "$(notmuch count --output=threads "subject:5.15.147")" = 3
'
test_expect_code 1 'review of -rc2' '
	"$FIXSCAN" review --repo multi/kernel --json "subject:5.15.147-rc2" >rc2.json 2>rc2.err
'
test_expect_success '... previous_round: rc1, c added, its missing fix new' '
	python3 - "$A" "$C" "$CF" <<-\EOF
	import json, sys
	a, c, cf = sys.argv[1:]
	r = json.loads(open("rc2.json").readline())
	p = r["previous_round"]
	assert p["release"] == "5.15.147-rc1", p
	assert p["cover"] == "1705140000.515rc1.cover@linuxfoundation.org", p
	assert p["added"] == [c] and p["dropped"] == [], p
	assert p["patches_added"] == [2] and p["patches_dropped"] == [], p
	assert p["findings_new"] == [{"kind": "fix-missing", "commit": cf, "upstream": c, "index": 2}], p
	assert p["findings_resolved"] == [], p
	EOF
'
test_expect_success '... and names the draft of rc1, once' '
	test "$(grep -c "5.15.147-rc2 replaces 5.15.147-rc1: your draft \"Re: \[PATCH 5.15 01/01\] net: fix a use-after-free in sock_foo()\"" rc2.err)" = 1
'
test_expect_success 'the text report says it under its header' '
	{ "$FIXSCAN" review --repo multi/kernel "subject:5.15.147-rc2" >rc2.txt 2>/dev/null; test $? = 1; } &&
	sed -n "/^review: /,/^$/p" rc2.txt | grep -qx "since 5.15.147-rc1: +1 patch, 1 new finding"
'
test_expect_success '-rc3 against -rc2 (the latest earlier round): c dropped, its finding resolved' '
	{ "$FIXSCAN" review --repo multi/kernel --json "subject:5.15.147-rc3" >rc3.json 2>rc3.err; test $? -le 1; } &&
	python3 - "$C" "$CF" <<-\EOF &&
	import json, sys
	c, cf = sys.argv[1:]
	p = json.loads(open("rc3.json").readline())["previous_round"]
	assert p["release"] == "5.15.147-rc2", p
	assert p["added"] == [] and p["dropped"] == [c], p
	assert p["patches_added"] == [] and p["patches_dropped"] == [2], p
	assert p["findings_new"] == [], p
	assert p["findings_resolved"] == [{"kind": "fix-missing", "commit": cf, "upstream": c, "index": 2}], p
	EOF
	! grep -q "your draft" rc3.err &&
	{ "$FIXSCAN" review --repo multi/kernel "subject:5.15.147-rc3" >rc3.txt 2>/dev/null; test $? -le 1; } &&
	grep -qx "since 5.15.147-rc2: -1 patch, 1 finding resolved" rc3.txt
'
test_expect_success 'an -rc1, and a release the store has one round of: no previous_round' '
	{ "$FIXSCAN" review --repo multi/kernel --json "subject:5.15.147-rc1" >rc1.json 2>rc1.err; test $? -le 1; } &&
	{ "$FIXSCAN" review --repo multi/kernel --json "subject:5.4.267-rc1" >r54.json 2>/dev/null; test $? -le 1; } &&
	python3 -c "
import json
for f in (\"rc1.json\", \"r54.json\"):
    assert json.loads(open(f).readline())[\"previous_round\"] is None, f
" &&
	! grep -q "your draft" rc1.err &&
	! grep -q "^since " rc1.json
'
test_expect_success 'check --thread of the -rc2 cover says it too' '
	cover=$(grep -l "^Message-Id: <[0-9]*\.515\.cover@" multi/mail/multi/cur/*) &&
	{ "$FIXSCAN" check --repo multi/kernel --thread "$cover" >c.txt 2>c.err; test $? = 1; } &&
	grep -qx "since 5.15.147-rc1: +1 patch, 1 new finding" c.txt
'
# A second draft in the rc1 thread, to its cover: the drafts are named in
# one line, by what they answer, not one line each.
sed -e "s/fixscan-t0570-draft@/fixscan-t0570-draft2@/" \
    -e "s/^Subject: .*/Subject: Re: [PATCH 5.15 00\/01] 5.15.147-rc1 review/" \
    -e "s/^In-Reply-To: .*/In-Reply-To: <1705140000.515rc1.cover@linuxfoundation.org>/" \
	mail/drafts/cur/1705226400.t0570:2,D >mail/drafts/cur/1705226401.t0570:2,D
notmuch new --quiet
test_expect_success 'two drafts of rc1: one line naming both, in order' '
	{ "$FIXSCAN" review --repo multi/kernel --json "subject:5.15.147-rc2" >rc2b.json 2>rc2b.err; test $? -le 1; } &&
	test "$(grep -c "earlier round" rc2b.err)" = 1 &&
	grep -q "^fixscan: 5.15.147-rc2 replaces 5.15.147-rc1: 2 drafts of yours are for the earlier round (answering 00/01, 01/01)\$" rc2b.err
'
# Drafts to -rc2's two patches; -rc3 drops 02/02: the line says which
# of the drafts answer a patch that is gone.
for nn in 01 02; do
	sed -e "s/fixscan-t0570-draft@/fixscan-t0570-rc2-$nn@/" \
	    -e "s/^Subject: .*/Subject: Re: [PATCH 5.15 $nn\/02] a patch of rc2/" \
	    -e "s/^In-Reply-To: .*/In-Reply-To: <1705314000.515.$nn@linuxfoundation.org>/" \
	    -e "s/^References: .*/References: <1705314000.515.cover@linuxfoundation.org> <1705314000.515.$nn@linuxfoundation.org>/" \
		mail/drafts/cur/1705226400.t0570:2,D >"mail/drafts/cur/17053140$nn.t0570:2,D"
done
notmuch new --quiet
test_expect_success 'drafts of -rc2 after -rc3 dropped 02/02: the dropped one named' '
	{ "$FIXSCAN" review --repo multi/kernel "subject:5.15.147-rc3" >rc3b.txt 2>rc3b.err; test $? -le 1; } &&
	cat rc3b.err &&
	test "$(grep -c "earlier round" rc3b.err)" = 1 &&
	grep -q "^fixscan: 5.15.147-rc3 replaces 5.15.147-rc2: 2 drafts of yours are for the earlier round (answering 0[12]/02, 0[12]/02; 5.15.147-rc3 dropped the patch 02/02)\$" rc3b.err
'
test_done
