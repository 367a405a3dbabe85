#!/bin/sh
# A reply to the same patch in an earlier round of the branch's review
# (the sample's 4.4.7-rc1, where Chen Weilin asks to drop 07/27) is found
# by the store search when -rc2 is reviewed: it is a reply, read as the
# thread's replies are (an objection at the patch of its commit), not a
# regression report; a report that answers no posting stays a report.
# The earlier round's thread is read too: a reply there that asks
# something of a patch -rc2 carries (Dmitri Orlov's request for a commit
# with 03/27) asks it of that patch of -rc2; one to a patch -rc2 dropped,
# one to the -rc1 cover and a plain thanks are not carried.
# -rc2 is made here from -rc1: three patches dropped, the rest renumbered,
# new Message-Ids, two days later; -rc3 two days after, one more dropped:
# what -rc1's replies asked still asks there, and it is compared with
# -rc2 as -rc2's report read (with -rc1's replies).
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
cat >mkround.py <<'PY'
import os, re, sys
src, dst, rc, day, drop = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
drop = {int(x) for x in drop.split(",")}
os.makedirs(os.path.join(dst, "cur"), exist_ok=True)
keep = [i for i in range(1, 28) if i not in drop]
new = {o: i + 1 for i, o in enumerate(keep)}
n = len(keep)
wday = {26: "Tue", 28: "Thu"}[day]
for name in sorted(os.listdir(src)):
    text = open(os.path.join(src, name), encoding="utf-8", errors="surrogateescape").read()
    head = text.split("\n\n", 1)[0]
    m = re.search(r"^Subject: \[PATCH 4\.4 (\d\d)/27\]", head, re.M)
    if not m or int(m.group(1)) in drop:
        continue
    k = int(m.group(1))
    nn = 0 if k == 0 else new[k]
    text = text.replace("%02d/27]" % k, "%02d/%d]" % (nn, n), 1)
    text = text.replace("4.4.7-rc1", "4.4.7-" + rc)
    text = re.sub(r"<20160424(\d+\.\d+@stable\.example\.org)>", r"<201604%d\1>" % day, text)
    text = text.replace("Date: Sun, 24 Apr 2016", "Date: %s, %d Apr 2016" % (wday, day))
    text = text.replace("X-KernelTest-Deadline: 2016-04-26", "X-KernelTest-Deadline: 2016-04-%d" % (day + 2))
    with open(os.path.join(dst, "cur", "%s.%02d:2,S" % (rc, nn)), "w", encoding="utf-8",
              errors="surrogateescape") as f:
        f.write(text)
PY
python3 mkround.py "$SRC/maildirs/review-4.4/cur" "$TRASH/rc2" rc2 26 8,9,27 || exit 1
python3 mkround.py "$SRC/maildirs/review-4.4/cur" "$TRASH/rc3" rc3 28 8,9,20,27 || exit 1
mkdir -p rc1more/cur
reply_to() { # NAME MESSAGE-ID SUBJECT FROM BODY
	printf 'From: %s\nTo: stable@vger.kernel.org\nSubject: Re: %s\nDate: Mon, 25 Apr 2016 10:00:00 +0000\nMessage-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <20160424014451.100031676@stable.example.org> <%s>\n\n%s\n' \
		"$4" "$3" "$1@example.org" "$2" "$2" "$5" >"rc1more/cur/$1:2,S"
}
reply_to dropped8 20160424014459.100095028@stable.example.org \
	"[PATCH 4.4 08/27] netfilter: x_tables: validate the target size" \
	"Uma <uma@example.org>" "Please drop this one, it breaks iptables-restore here."
reply_to cover1 20160424014451.100031676@stable.example.org "[PATCH 4.4 00/27] 4.4.7-rc1 review" \
	"Uma <uma@example.org>" "Please drop the arm64 patch from this release, it breaks the boot."
reply_to thanks5 20160424014456.100071271@stable.example.org \
	"[PATCH 4.4 05/27] arm64: mm: only flush the instruction cache for" \
	"Vic <vic@example.org>" "Thanks, works fine here."
# the user's own reply to 07/27 (sent) and an unsent draft to 13/27
reply_to rita7 20160424014458.100087109@stable.example.org \
	"[PATCH 4.4 07/27] powerpc/tm: clear the transaction state on signal delivery" \
	"Rita Reviewer <rita@example.org>" "This was reverted upstream, please drop it."
reply_to rita13 20160424014504.100134623@stable.example.org \
	"[PATCH 4.4 13/27] ALSA: pcm: serialize the drain against the stop callback" \
	"Rita Reviewer <rita@example.org>" "Unsent: is this one needed?"
mv rc1more/cur/rita13:2,S rc1more/cur/rita13:2,DS
# the stable maintainer says on -rc1 that 05/27 is dropped; -rc2 keeps it
reply_to greta5 20160424014456.100071271@stable.example.org \
	"[PATCH 4.4 05/27] arm64: mm: only flush the instruction cache for" \
	"Greta Kroll <greta@stable.example.org>" "I'll drop it, thanks!"
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" rc2 rc3 rc1more "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

test_expect_success 'the store has both rounds of 4.4.7' '
	test "$(notmuch count --output=threads "path:review-4.4/**")" -ge 1 &&
	test "$(notmuch count --output=threads "path:rc2/**")" = 1
'
test_expect_code 1 'review of -rc2' '
	"$FIXSCAN" review --repo kernel --json --no-lore "path:rc2/**" >rc2.json 2>rc2.err
'
test_expect_success '... Chen Weilin'"'"'s answer to 07/27 of -rc1 objects to 07/24, and is no report' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	p = [p for p in r["patches"] if p["index"] == 7][0]
	kinds = [(f["kind"], f.get("message_id")) for f in p["findings"]]
	chen = "20160425024451.100261327@example.net"
	assert ("objection", chen) in kinds, kinds
	assert ("regression-report", chen) not in kinds, kinds
	# no other patch carries it
	for q in r["patches"]:
	    if q["index"] != 7:
	        assert chen not in json.dumps(q["findings"]), q["index"]
	EOF
'
test_expect_success '... the report that answers no posting stays a report' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	kinds = [(q["index"], f["kind"], f.get("message_id")) for q in r["patches"] for f in q["findings"]]
	ravi = "20160418014451.100007919@example.com"
	assert any(k == "regression-report" and m == ravi for _, k, m in kinds), kinds
	assert not any(k == "objection" and m == ravi for _, k, m in kinds), kinds
	EOF
'
test_expect_success '... Dmitri Orlov'"'"'s request with 03/27 of -rc1 asks it of 03/24, once' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	dmitri = "20160425034451.100269246@example.com"
	got = [(q["index"], f["kind"], f.get("commit", "")[:12], f["round"]) for q in r["patches"]
	       for f in q["findings"] if f.get("message_id") == dmitri]
	assert got == [(3, "needs-also", "80e046b0715b", "4.4.7-rc1")], got
	# found by the store search too: its round is said all the same
	chen = [f["round"] for q in r["patches"] for f in q["findings"]
	        if f.get("message_id") == "20160425024451.100261327@example.net"]
	assert chen == ["4.4.7-rc1"], chen
	# the replies of this round have none
	assert not [f for q in r["patches"] for f in q["findings"]
	            if f.get("round") and f.get("message_id") not in
	            (dmitri, "20160425024451.100261327@example.net", "rita7@example.org",
	             "greta5@example.org")]
	EOF
'
test_expect_success '... and its draft says where Dmitri Orlov asked' '
	"$FIXSCAN" review --repo kernel --no-lore --drafts --dry-run "path:rc2/**" >rc2.drafts 2>/dev/null;
	tr -s "\n " "  " <rc2.drafts >rc2.line &&
	grep -q "As Dmitri Orlov wrote on 4.4.7-rc1 (https://lore.kernel.org/r/20160425034451.100269246@example.com):" rc2.line
'
test_expect_success '... your own sent -rc1 reply to 07/27 is said as said before, once; your unsent draft is not' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	got = [(q["index"], f["kind"], f["round"]) for q in r["patches"] for f in q["findings"]
	       if f.get("message_id") in ("rita7@example.org", "rita13@example.org")]
	assert got == [(7, "reply", "4.4.7-rc1")], got
	EOF
	tr -s "\n " "  " <rc2.drafts >rc2.line &&
	grep -q "I wrote about this patch on 4.4.7-rc1 too (https://lore.kernel.org/r/rita7@example.org)." rc2.line &&
	test "$(grep -c "I wrote about" rc2.drafts)" = 1 &&
	! grep -q "Rita Reviewer wrote" rc2.drafts &&
	! grep -i "^Cc:.*rita@example.org" rc2.drafts
'
test_expect_success '... the stable maintainer'"'"'s -rc1 word that 05/27 is dropped, not kept: said once, as such' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	got = [(q["index"], f["kind"], f["round"], f["unkept"], f["settled"]) for q in r["patches"]
	       for f in q["findings"] if f.get("message_id") == "greta5@example.org"]
	assert got == [(5, "objection", "4.4.7-rc1", True, None)], got
	assert not [f for q in r["patches"] for f in q["findings"]
	            if f["unkept"] and f.get("message_id") != "greta5@example.org"]
	EOF
	grep -q "On 4.4.7-rc1 Greta Kroll said this patch would be dropped" rc2.line &&
	grep -q "(https://lore.kernel.org/r/greta5@example.org); it is still in 4.4.7-rc2." rc2.line &&
	test "$(grep -c "would be dropped" rc2.drafts)" = 1
'
test_expect_success '... no reply to a dropped patch, the -rc1 cover or a thanks is carried' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc2.json").readline())
	text = json.dumps(r)
	for mid in ("dropped8@example.org", "cover1@example.org", "thanks5@example.org"):
	    assert mid not in text, mid
	EOF
'
test_expect_code 1 'review of -rc3' '
	"$FIXSCAN" review --repo kernel --json --no-lore "path:rc3/**" >rc3.json 2>rc3.err
'
test_expect_success '... -rc1'"'"'s requests still ask at -rc3, once each; no reply counts as changed since -rc2' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc3.json").readline())
	got = sorted((q["index"], f["kind"], f.get("message_id")) for q in r["patches"] for f in q["findings"]
	             if f.get("message_id") in ("20160425034451.100269246@example.com",
	                                        "20160425024451.100261327@example.net"))
	assert got == [(3, "needs-also", "20160425034451.100269246@example.com"),
	               (7, "objection", "20160425024451.100261327@example.net")], got
	prev = r["previous_round"]
	assert prev["release"] == "4.4.7-rc2", prev
	# 20/27 dropped: its chain changes 18/23; no reply is new
	assert prev["patches_dropped"] == [18], prev
	assert not [f for f in prev["findings_new"] + prev["findings_resolved"]
	            if f["kind"] in ("needs-also", "objection", "regression-report")], prev
	EOF
'
test_expect_code 1 'the -rc1 review itself: the reply there is the thread'"'"'s own' '
	"$FIXSCAN" review --repo kernel --json --no-lore "path:review-4.4/**" >rc1.json 2>/dev/null
'
test_expect_success '... one objection from Chen Weilin, at 07/27' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc1.json").readline())
	chen = "20160425024451.100261327@example.net"
	got = [(q["index"], f["kind"]) for q in r["patches"] for f in q["findings"] if f.get("message_id") == chen]
	assert got == [(7, "objection")], got
	# what -rc2 leaves behind objects here: Uma at 08/27 and at the cover
	got = [(q["index"], f["kind"]) for q in r["patches"] for f in q["findings"]
	       if f.get("message_id") == "dropped8@example.org"]
	assert got == [(8, "objection")], got
	got = [f["kind"] for f in r["series_findings"] if f.get("message_id") == "cover1@example.org"]
	assert got == ["objection"], got
	EOF
'
test_done
