#!/bin/sh
# What a stable maintainer's answer in the thread settles asks for
# nothing more: his "Now dropped" on a patch settles every finding of
# it (no draft, not in the summary, not counted as a problem), and his
# "Now queued" to a request for a commit settles the request and
# fixscan's own request for the same commit; the report still shows
# them, saying so.  An answer that drops nothing ("I can drop it if you
# want") and someone else's "Now dropped" settle nothing.  The sample's
# 4.4.7-rc1 with answers made up here.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
mkdir -p answers/cur
answer() { # NAME IN-REPLY-TO FROM BODY
	printf 'From: %s\nTo: stable@vger.kernel.org\nSubject: Re: [PATCH 4.4] x\nDate: Mon, 25 Apr 2016 12:00:00 +0000\nMessage-Id: <%s@example.org>\nIn-Reply-To: <%s>\nReferences: <20160424014451.100031676@stable.example.org> <%s>\n\n%s\n' \
		"$3" "$1" "$2" "$2" "$4" >"answers/cur/$1:2,S"
}
GRETA="Greta Kroll <greta@stable.example.org>"
# 12/27: the stable maintainer drops it
answer drop12 20160424014503.100126704@stable.example.org "$GRETA" "Now dropped, thanks."
# 03/27: Dmitri Orlov's request for 80e046b0715b, taken
answer take03 20160425034451.100269246@example.com "$GRETA" "Now queued, thanks."
# 01/27: an offer, and a stranger's word: nothing settled
answer offer01 20160424014452.100039595@stable.example.org "$GRETA" "I can drop it if you want."
answer other01 20160424014452.100039595@stable.example.org "Vic <vic@example.org>" "Now dropped, thanks."
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" answers "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1

test_expect_code 1 'review of -rc1 with the answers' '
	"$FIXSCAN" review --repo kernel --json --no-lore "path:review-4.4/**" >rc1.json 2>rc1.err
'
test_expect_success '... 12/27: every finding settled by the drop; 03/27: the request and the fix' '
	python3 - <<-\EOF
	import json
	r = json.loads(open("rc1.json").readline())
	p = {q["index"]: q["findings"] for q in r["patches"]}
	assert p[12] and all(f["settled"] == "the patch dropped by Greta Kroll in the thread"
	                     for f in p[12]), p[12]
	got = sorted((f["kind"], f["settled"]) for f in p[3] if f["kind"] != "reply")
	want = "taken by Greta Kroll in the thread"
	assert got == [("fix-missing", want), ("needs-also", want), ("series-partial", None)], got
	# nothing else is settled: not 01/27, nor any other patch
	for n, fs in p.items():
	    if n not in (3, 12):
	        assert not [f for f in fs if f["settled"]], (n, fs)
	EOF
'
test_expect_success '... the report says so' '
	"$FIXSCAN" review --repo kernel --no-lore "path:review-4.4/**" >rc1.txt 2>/dev/null;
	tr -s "\n " "  " <rc1.txt >rc1.line &&
	grep -q "(settled: taken by Greta Kroll in the thread)" rc1.line &&
	grep -q "(settled: the patch dropped by Greta Kroll in the thread)" rc1.line
'
test_expect_success '... no draft for 03/27 or 12/27, and the summary asks for neither' '
	"$FIXSCAN" review --repo kernel --no-lore --drafts --dry-run "path:review-4.4/**" >drafts.mbox 2>/dev/null;
	grep "^Subject: " drafts.mbox >subjects &&
	grep -q "00/27" subjects && grep -q "07/27" subjects &&
	! grep -q "03/27\|12/27" subjects &&
	! grep -q "80e046b0715b\|12/27" drafts.mbox
'
python3 - "$SRC/maildirs/review-4.4/cur" <<'PY' || exit 1
import mailbox, os, sys
box = mailbox.mbox("plain-thread.mbox", create=True)
for name in sorted(os.listdir(sys.argv[1])):
    box.add(open(os.path.join(sys.argv[1], name), "rb").read())
box.close()
PY
test_expect_success '... the same thread without the answers asks for both' '
	"$FIXSCAN" review --repo kernel --no-lore --mbox plain-thread.mbox --drafts --drafts-dir plain-drafts \
		--dry-run >plain.mbox 2>/dev/null;
	grep "^Subject: " plain.mbox >plain &&
	grep -q "03/27" plain && grep -q "12/27" plain
'
test_done
