#!/bin/sh
# fixscan review --drafts on the sample 4.4 thread: the drafts it writes
# into the notmuch maildir, how they thread and what they say, and how a
# second run, an edit by hand, changed findings, a locked database and
# an unwritable folder are handled.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"

# A draft of the reviewer's own, in the same folder and the same thread:
# fixscan must neither touch it nor read it as an objection to patch 1.
p1=$(python3 -c '
import json
t = json.load(open("kernel/answers.json"))["threads"]["review-4.4"]
print(t["cover"], [p for p in t["patches"] if p["index"] == 1][0]["message_id"])')
mkdir -p "$D/cur" "$D/new" "$D/tmp" || exit 1
set -- $p1
MINE="$D/cur/1460000000.M1P1.mine:2,DS"
cat >"$MINE" <<EOF
From: Rita Reviewer <rita@example.org>
To: Greta Kroll <greta@stable.example.org>
Subject: Re: [PATCH 4.4 01/24] not sent yet
Date: Sat, 16 Apr 2016 10:00:00 +0000
Message-Id: <my-own-draft@example.org>
In-Reply-To: $2
References: $1 $2

Please drop this, it breaks the build.
EOF
cp "$MINE" mine.copy
notmuch new --quiet || exit 1

# The drafts a run should write: one per patch with findings, plus the
# summary to the cover.
"$FIXSCAN" review --repo kernel --drafts-for=every-finding --json "$Q" >review.json
ndrafts=$(python3 -c '
import json
r = json.loads(open("review.json").readline())
print(1 + sum(1 for p in r["patches"] if p["findings"]))')

# Everything about fixscan's drafts in folder $1 that a test compares: for
# each file, its Message-Id, In-Reply-To, Subject, key and body.  A draft
# is fixscan's by its Message-Id, which starts with "fixscan." and a hash
# of its key ("patch <id>" or "summary <id>" of the mail it answers); no
# X-Fixscan header may go out with it.
cat >drafts.py <<'PY'
import email, email.policy, glob, hashlib, json, os, re, sys
out = []
for sub in ("cur", "new"):
    for f in sorted(glob.glob(os.path.join(sys.argv[1], sub, "*"))):
        m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
        mid = (m["Message-Id"] or "").strip("<>")
        if not re.match(r"[0-9]{14}\.[0-9a-f]{16}@", mid):
            continue
        assert not [k for k in m.keys() if k.lower().startswith("x-fixscan")], (f, m.keys())
        irt = (m["In-Reply-To"] or "").strip("<>")
        keys = ["%s <%s>" % ("summary" if re.search(r" 0+/[0-9]+\]", str(m["Subject"])) else "patch", irt)]
        out.append({"file": f, "id": mid, "irt": irt,
                    "subject": str(m["Subject"]), "key": keys[0],
                    "from": str(m["From"]), "to": str(m["To"]), "cc": str(m["Cc"] or ""),
                    "cte": str(m.get_body().get("Content-Transfer-Encoding", "7bit")),
                    "charset": m.get_body().get_content_charset(),
                    "body": m.get_body().get_content()})
json.dump(out, open(sys.argv[2], "w"))
PY

test_expect_success 'the reviewer'"'"'s own unsent draft is no objection' '
	test "$(notmuch count id:my-own-draft@example.org)" -eq 1 &&
	python3 -c "
import json
r = json.loads(open(\"review.json\").readline())
p = [p for p in r[\"patches\"] if p[\"index\"] == 1][0]
assert not p[\"findings\"], p"
'
test_expect_code 1 'review --drafts writes the report and exits 1 (findings)' '
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts "$Q" >run1.out 2>run1.err &&
	grep -q "^summary:" run1.out
'
test_expect_success 'one draft per patch with findings, plus the summary' '
	test "$(ls "$D/cur" | grep -vc mine)" -eq "$ndrafts" &&
	test "$(grep -c "^draft: wrote Drafts/cur/.*:2,D (re: " run1.err)" -eq "$ndrafts" &&
	test "$(ls "$D/tmp" | wc -l)" -eq 0 &&
	! grep -v "^draft: " run1.err
'
test_expect_success 'each draft parses back with fixscan parse' '
	for f in $(grep -l "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@" "$D"/cur/*); do
		"$FIXSCAN" parse --json "$f" >p.json || exit 1
		python3 -c "
import json, re, sys
p = json.loads(open(\"p.json\").readline())
assert re.match(r\"[0-9]{14}[.][0-9a-f]{16}@example[.]org\$\", p[\"message_id\"]), p
assert p[\"in_reply_to\"], p
assert p[\"subject\"].startswith(\"Re: [PATCH 4.4 \") and not p[\"subject\"].startswith(\"Re: Re:\"), p
assert p[\"from\"] == \"Rita Reviewer <rita@example.org>\", p
assert p[\"references\"][-1] == p[\"in_reply_to\"], p
" || exit 1
	done
'
test_expect_success 'each draft threads under the message it answers' '
	python3 drafts.py "$D" d1.json &&
	python3 -c "
import json
for d in json.load(open(\"d1.json\")): print(d[\"id\"], d[\"irt\"])" >pairs &&
	test -s pairs &&
	while read -r id irt; do
		a=$(notmuch search --output=threads "id:$id") &&
		b=$(notmuch search --output=threads "id:$irt") &&
		test -n "$a" && test "$a" = "$b" || { echo "$id: $a, $irt: $b"; exit 1; }
	done <pairs
'
test_expect_success 'every draft is tagged draft and fixscan' '
	test "$(notmuch count tag:draft)" -eq $((ndrafts + 1)) &&
	test "$(notmuch count tag:draft and tag:fixscan)" -eq "$ndrafts" &&
	notmuch search --output=files tag:fixscan | sort >indexed &&
	ls "$D"/cur/* | grep -v mine | sort >ondisk &&
	test_cmp ondisk indexed
'
test_expect_success 'the drafts carry the findings, in words' '
	python3 - <<-\PY
	import json, re
	r = json.loads(open("review.json").readline())
	drafts = {d["irt"]: d for d in json.load(open("d1.json"))}
	ok = True
	summary = drafts[r["cover"]["message_id"]]
	assert summary["key"] == "summary <%s>" % r["cover"]["message_id"], summary["key"]
	for p in r["patches"]:
	    if not p["findings"]:
	        assert p["message_id"] not in drafts, p["index"]
	        continue
	    d = drafts[p["message_id"]]
	    body = d["body"]
	    assert d["key"] == "patch <%s>" % p["message_id"], d["key"]
	    assert body.startswith("On "), body
	    # the subject is not what the author wrote: never quoted
	    title = re.sub(r"^\[[^]]*\]\s*", "", p["subject"])
	    assert "> " + title + "\n" not in body, (title, body)
	    kinds = {f["kind"] for f in p["findings"]}
	    for f in p["findings"]:
	        c = (f["commit"] or "")[:12]
	        if f["kind"] == "fix-present" and kinds != {"fix-present"}:
	            continue
	        if f["kind"] in ("regression-report", "objection", "fix-pending"):
	            want = "https://lore.kernel.org/r/" + f["message_id"]
	        elif f["kind"] == "no-upstream":
	            want = "does not say which upstream commit"
	        elif f["kind"] == "fix-missing" and "I asked for in my repl" in body:
	            want = "I asked for in my repl"  # asked once, in another reply
	        else:
	            want = c
	        if want not in body:
	            print(p["index"], f["kind"], "missing", want); ok = False
	        # a revert undone by a revert of it asks for nothing
	        # the summary lists only what asks for action
	        # series-partial: the summary names the parts left out
	        for part in f.get("commits", []):
	            if part["commit"][:12] not in summary["body"]:
	                print("summary misses part", p["index"], part["commit"]); ok = False
	        if f["kind"] not in ("regression-report", "objection", "fix-pending", "no-upstream",
	                             "unknown-upstream", "series-partial") \
	           and f["kind"] not in ("fix-queued", "fix-present", "fixes-tag-mismatch", "reverts-stable") \
	           and c not in summary["body"] \
	           and f.get("cause") != "revert-of-revert":
	            print("summary misses", p["index"], f["kind"], c); ok = False
	    for word in ("fix-missing", "fix-queued", "reverted-upstream", "already-applied",
	                 "dep-missing", "fixes-tag-mismatch", "(null)", "[prefix]"):
	        if word in body:
	            print(p["index"], "machine word", word); ok = False
	groups = ("Commits to add:", "Likely duplicates:", "Reverted upstream:", "Reports and replies:",
	          "Fixes on their way to mainline:", "Other notes:")
	for g in groups:
	    assert g in summary["body"], g
	pos = [summary["body"].index(g) for g in groups]
	assert pos == sorted(pos), pos
	raise SystemExit(0 if ok else 1)
	PY
'
test_expect_success 'reply-all: To the sender, Cc the rest, never the reviewer' '
	python3 -c "
import json
for d in json.load(open(\"d1.json\")):
    assert \"greta@stable.example.org\" in d[\"to\"], d[\"to\"]
    assert \"stable@vger.kernel.org\" in d[\"cc\"], d[\"cc\"]
    assert \"rita@example.org\" not in d[\"cc\"] + d[\"to\"], d
    assert \"greta@stable.example.org\" not in d[\"cc\"], d[\"cc\"]
    assert d[\"charset\"] == \"utf-8\", d[\"charset\"]
    nonascii = any(ord(c) > 127 for c in d[\"body\"])
    assert d[\"cte\"] == (\"8bit\" if nonascii else \"7bit\"), (d[\"cte\"], d[\"subject\"])
"
'
test_expect_success 'a non-ASCII subject is encoded in the header and decodes back' '
	f=$(grep -l "^Subject: Re: \[PATCH 4.4 10/27\] iio: adc: report the die temperature in$" "$D"/cur/*) &&
	test -n "$f" &&
	sed -n "/^Subject:/,/^[^ ]/p" "$f" | grep -q "=?UTF-8?" &&
	sed "/^$/q" "$f" | LC_ALL=C grep -q "[^ -~	]" && exit 1
	"$FIXSCAN" parse --json "$f" | grep -q "\"subject\":\"Re: \[PATCH 4.4 10/27\] iio: adc: report the die temperature in m°C\""
'

test_expect_success 'a second run writes nothing new' '
	ls "$D/cur" | sort >before &&
	{ "$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts "$Q" >/dev/null 2>run2.err; test $? -eq 1; } &&
	ls "$D/cur" | sort >after &&
	test_cmp before after &&
	test "$(grep -c "^draft: unchanged " run2.err)" -eq "$ndrafts" &&
	! grep -q "^draft: wrote" run2.err &&
	test "$(notmuch count tag:fixscan)" -eq "$ndrafts"
'

# Pick the drafts for 022 (three missing fixes) and 020 (a fix of a
# queued fix) from the first run.
pick() {
	python3 -c "
import json, sys
r = json.loads(open('review.json').readline())
p = [p for p in r['patches'] if p['index'] == int(sys.argv[1])][0]
d = [d for d in json.load(open('d1.json')) if d['irt'] == p['message_id']][0]
f = [f for f in p['findings'] if f['kind'] == 'fix-missing'][-1]
print(d['file'], f['commit'], p['upstream'])" "$1"
}
set -- $(pick 22)
edited=$1 fix22=$2 up22=$3
set -- $(pick 20)
d20=$1 fix20=$2 up20=$3

test_expect_success 'after an edit by hand, a third run leaves the draft alone' '
	printf "\nI have checked the rest of this one too.\n" >>"$edited" &&
	cp "$edited" edited.copy &&
	ls "$D/cur" | sort >before &&
	{ "$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts "$Q" >/dev/null 2>run3.err; test $? -eq 1; } &&
	ls "$D/cur" | sort >after &&
	test_cmp before after &&
	test_cmp edited.copy "$edited" &&
	grep -q "^draft: unchanged, edited by you: Drafts/cur/$(basename "$edited")" run3.err
'
test_expect_success 'changed findings: the edited draft stays, the unedited one is replaced' '
	printf "%s %s not relevant here\n%s %s not relevant here\n" \
		"$fix22" "$up22" "$fix20" "$up20" >ignore &&
	{ "$FIXSCAN" review --repo kernel --drafts-for=every-finding --ignore ignore --drafts "$Q" >/dev/null 2>run4.err; test $? -eq 1; } &&
	grep -q "^draft: kept your edited draft Drafts/cur/$(basename "$edited"), wrote Drafts/cur/" run4.err &&
	grep -q "^draft: replaced Drafts/cur/$(basename "$d20") with Drafts/cur/.*, the findings changed" run4.err &&
	test_cmp edited.copy "$edited" &&
	test ! -e "$d20" &&
	# one more file (the new 022 draft); 020 and the summary were replaced
	test "$(ls "$D/cur" | grep -vc mine)" -eq $((ndrafts + 1)) &&
	test "$(notmuch count tag:fixscan)" -eq $((ndrafts + 1)) &&
	notmuch search --output=files tag:fixscan | sort >indexed &&
	ls "$D"/cur/* | grep -v mine | sort >ondisk &&
	test_cmp ondisk indexed &&
	python3 drafts.py "$D" d4.json &&
	python3 - "$fix22" "$fix20" <<-\PY
	import json, sys
	r = json.loads(open("review.json").readline())
	ids = {p["index"]: p["message_id"] for p in r["patches"]}
	ds = json.load(open("d4.json"))
	for_22 = [d for d in ds if d["irt"] == ids[22]]
	for_20 = [d for d in ds if d["irt"] == ids[20]]
	assert len(for_22) == 2, for_22
	assert sum(sys.argv[1][:12] in d["body"] for d in for_22) == 1, "the edited draft keeps it"
	assert len(for_20) == 1 and sys.argv[2][:12] not in for_20[0]["body"], for_20
	PY
'

test_expect_success 'and running that again changes nothing' '
	ls "$D/cur" | sort >before &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --ignore ignore --drafts "$Q" >/dev/null 2>run5.err
	ls "$D/cur" | sort >after &&
	test_cmp before after &&
	! grep -q -e "^draft: wrote" -e "^draft: replaced" -e "^draft: kept" run5.err
'

test_expect_success '--dry-run prints full messages and writes nothing' '
	ls -R "$D" >before &&
	n=$(notmuch count "*") &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run "$Q" >dry.out 2>dry.err
	ls -R "$D" >after &&
	test_cmp before after &&
	test "$(notmuch count "*")" -eq "$n" &&
	test "$(grep -c "^From fixscan@localhost " dry.out)" -eq "$ndrafts" &&
	test "$(grep -c "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@example\.org>\$" dry.out)" -eq "$ndrafts" &&
	! grep -qi "^[A-Za-z-]*:.*fixscan" dry.out &&
	! grep -q "^X-Fixscan" dry.out &&
	test "$(grep -c "^In-Reply-To: <" dry.out)" -eq "$ndrafts" &&
	grep -q "^Commits to add:" dry.out &&
	! grep -q "^draft:" dry.err
'
test_expect_success '--dry-run: standard output is an mbox alone, the report is on standard error' '
	head -n 1 dry.out | grep -q "^From fixscan@localhost " &&
	grep -q "^review: \[PATCH 4.4 00/" dry.err &&
	! grep -q "^review: " dry.out &&
	python3 -c "
import mailbox, sys
msgs = list(mailbox.mbox(\"dry.out\"))
assert len(msgs) == int(sys.argv[1]), len(msgs)
assert all(\"fixscan\" not in m[\"Message-Id\"] for m in msgs)
" "$ndrafts"
'
test_expect_success '--drafts=summary and --drafts=patches' '
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run --drafts=summary "$Q" >s.out
	test "$(grep -c "^From fixscan@localhost " s.out)" -eq 1 &&
	cover=$(python3 -c "import json; print(json.loads(open(\"review.json\").readline())[\"cover\"][\"message_id\"])") &&
	grep -q "^In-Reply-To: <$cover>" s.out &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run --drafts=patches "$Q" >p.out
	test "$(grep -c "^From fixscan@localhost " p.out)" -eq $((ndrafts - 1)) &&
	! grep -q "^In-Reply-To: <$cover>" p.out
'
test_expect_code 2 'a bad --drafts value is a usage error' '
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts=some "$Q"
'

# A process that holds the notmuch write lock until it is killed.
cat >lockdb.c <<'EOF'
#include <notmuch.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	notmuch_database_t *db = NULL;
	char *msg = NULL;
	FILE *f;

	if (notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
					      NULL, NULL, &db, &msg)) {
		fprintf(stderr, "lockdb: %s\n", msg ? msg : "cannot open");
		return 1;
	}
	f = fopen(argv[1], "w");
	fputs("locked\n", f);
	fclose(f);
	sleep(atoi(argv[2]));
	notmuch_database_destroy(db);
	return 0;
}
EOF
cc -o lockdb lockdb.c -lnotmuch 2>lockdb.err || { cat lockdb.err >&2; exit 1; }

test_expect_success 'a locked database: the drafts are written, not indexed, and the error says so' '
	rm -f locked &&
	./lockdb locked 60 &
	pid=$! &&
	echo $pid >lock.pid &&
	i=0 && while [ ! -e locked ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	test -e locked &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts --drafts-dir "$TRASH/mail/Locked" "$Q" >/dev/null 2>lock.err
	rc=$?
	cat lock.err
	test $rc -eq 2 &&
	grep -q "^fixscan: $ndrafts drafts written but not indexed (run again to index them): the notmuch database at .* is locked by another process (waited 5 s for its lock .*/flintlock.)$" lock.err &&
	test "$(ls "$TRASH/mail/Locked/cur" | wc -l)" -eq "$ndrafts" &&
	test "$(ls "$TRASH/mail/Locked/tmp" | wc -l)" -eq 0
'
kill "$(cat lock.pid)" 2>/dev/null
wait 2>/dev/null
test_expect_success 'the next run indexes them, without writing them twice' '
	test "$(notmuch count path:Locked/**)" -eq 0 &&
	ls "$TRASH/mail/Locked/cur" | sort >before &&
	{ "$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts --drafts-dir "$TRASH/mail/Locked" "$Q" >/dev/null 2>relock.err; test $? -eq 1; } &&
	ls "$TRASH/mail/Locked/cur" | sort >after &&
	test_cmp before after &&
	test "$(grep -c "^draft: unchanged .*, indexed now (re: " relock.err)" -eq "$ndrafts" &&
	test "$(notmuch count "path:Locked/** and tag:draft and tag:fixscan")" -eq "$ndrafts"
'

test_expect_code 2 'a drafts folder that cannot be created: one clear line' '
	echo x >plainfile &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts --drafts-dir "$TRASH/plainfile/Drafts" "$Q" >/dev/null 2>bad.err
	rc=$?
	cat bad.err
	test "$(grep -c . bad.err)" -eq 1 &&
	grep -q "^fixscan: cannot create the drafts folder .*plainfile/Drafts.*: Not a directory$" bad.err &&
	exit $rc; exit 99
'

# A folder whose cur/ refuses new files, even to root: the immutable
# attribute where the file system has it, else write permission (which
# only stops other users).
RO="$TRASH/mail/ReadOnly"
mkdir -p "$RO/cur" "$RO/new" "$RO/tmp"
chmod a-w "$RO/cur"
chattr +i "$RO/cur" 2>/dev/null
if touch "$RO/cur/probe" 2>/dev/null; then
	rm -f "$RO/cur/probe"
	echo "ok - # skip a read-only cur/: nothing here stops writes into it"
else
	test_expect_code 2 'a read-only cur/: a clear error, nothing left in cur/ or tmp/' '
		"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts --drafts-dir "$RO" "$Q" >/dev/null 2>ro.err
		rc=$?
		cat ro.err
		grep -q "^fixscan: cannot move the draft into .*ReadOnly/cur.*: Operation not permitted$\|^fixscan: cannot move the draft into .*ReadOnly/cur.*: Permission denied$" ro.err &&
		test "$(ls "$RO/cur" | wc -l)" -eq 0 &&
		test "$(ls "$RO/tmp" | wc -l)" -eq 0 &&
		exit $rc; exit 99
	'
fi
chattr -i "$RO/cur" 2>/dev/null
chmod u+w "$RO/cur"

test_expect_code 2 'no identity anywhere: the error names the keys to set' '
	sed "/^\[user\]/,/^$/d" "$NOTMUCH_CONFIG" >nouser.config &&
	NOTMUCH_CONFIG=$TRASH/nouser.config "$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run "$Q" >/dev/null 2>id.err
	rc=$?
	cat id.err
	grep -q "user.primary_email" id.err && grep -q "user.email" id.err &&
	exit $rc; exit 99
'
test_expect_success 'the identity falls back to git config' '
	git config --global user.name "Gil Git" &&
	git config --global user.email "gil@git.example.net" &&
	NOTMUCH_CONFIG=$TRASH/nouser.config "$FIXSCAN" review --repo kernel --drafts-for=every-finding --dry-run --drafts=summary "$Q" >git.out
	grep -q "^From: Gil Git <gil@git.example.net>$" git.out &&
	grep -q "^Message-Id: <[0-9.a-f]*@git.example.net>$" git.out &&
	git config --global --unset user.name && git config --global --unset user.email
'

test_expect_success 'fixscan.draftTags tags new drafts; the old name draft_tags still works, with a note' '
	TD="$TRASH/mail/TagDrafts" &&
	notmuch config set fixscan.draftTags "draft;stable-review" &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts=summary --drafts-dir "$TD" "$Q" >/dev/null 2>tags1.err;
	test $? -eq 1 && ! grep -q "draft_tags" tags1.err &&
	test "$(notmuch count "folder:TagDrafts and tag:stable-review")" -eq 1 &&
	notmuch config set fixscan.draftTags &&
	notmuch config set fixscan.draft_tags "draft;old-name" &&
	rm -rf "$TD" && notmuch new --quiet &&
	# the summary draft was deleted: only --force writes it again
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --force --drafts=summary --drafts-dir "$TD" "$Q" >/dev/null 2>tags2.err;
	test $? -eq 1 &&
	grep -q "^fixscan: the notmuch config key fixscan.draft_tags is now fixscan.draftTags" tags2.err &&
	test "$(notmuch count "folder:TagDrafts and tag:old-name")" -eq 1 &&
	notmuch config set fixscan.draft_tags &&
	rm -rf "$TD" && notmuch new --quiet
'
# The life of a draft after it is written, as mutt lives it: the
# reviewer views one (mutt renames it, adding S), sends the one for 03
# (mutt removes the draft and keeps the sent copy, without the D flag,
# in Sent/) and deletes the one for 04.  In a folder of its own, written
# afresh (--force: the runs above wrote and removed drafts elsewhere).
L="$TRASH/mail/Life"
life_run() {
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts-dir "$L" "$@" "$Q" >/dev/null
}
life_run --ignore ignore --force 2>life0.err
python3 drafts.py "$L" d6.json
life() {
	python3 -c "
import json, sys
r = json.loads(open('review.json').readline())
p = [p for p in r['patches'] if p['index'] == int(sys.argv[1])][0]
print([d for d in json.load(open('d6.json')) if d['irt'] == p['message_id']][0]['file'])" "$1"
}
d3=$(life 3) d4=$(life 4) d6=$(life 6)
mkdir -p "$TRASH/mail/Sent/cur" "$TRASH/mail/Sent/new" "$TRASH/mail/Sent/tmp"
SENT="$TRASH/mail/Sent/cur/1460001000.M2P2.sent:2,S"

test_expect_success 'mutt views, sends and deletes drafts: no error before notmuch new' '
	test "$(grep -c "^draft: wrote" life0.err)" -eq "$ndrafts" &&
	mv "$d6" "${d6}S" &&
	mv "$d3" "$SENT" &&
	rm "$d4" &&
	ls "$L/cur" | sort >before &&
	{ life_run --ignore ignore 2>life1.err; test $? -eq 1; } &&
	cat life1.err &&
	! grep -v "^draft: " life1.err &&
	! grep -q "^draft: wrote" life1.err &&
	ls "$L/cur" | sort >after &&
	test_cmp before after
'
test_expect_success 'the sent mail carries nothing of fixscan'"'"'s' '
	! grep -qi "^X-Fixscan" "$SENT" &&
	grep -q "^Message-Id: <[0-9]\{14\}\.[0-9a-f]\{16\}@" "$SENT" &&
	! grep -qi "^[A-Za-z-]*:.*fixscan" "$SENT"
'
test_expect_success 'after notmuch new: neither the sent nor the deleted draft comes back' '
	notmuch new --quiet &&
	test "$(notmuch count "path:Sent/** and not tag:draft")" -eq 1 &&
	{ life_run --ignore ignore 2>life2.err; test $? -eq 1; } &&
	cat life2.err &&
	! grep -v "^draft: " life2.err &&
	! grep -q -e "^draft: wrote" -e "^draft: kept" life2.err &&
	grep -q "^draft: unchanged Life/cur/$(basename "$d6")S " life2.err &&
	grep -q "^draft: skipped 1 you answered already, 1 you deleted (--force writes it again)$" life2.err &&
	test "$(grep -c "^draft: replaced" life2.err)" -eq 1 &&
	old=$(sed -n "s|^draft: replaced Life/cur/\([^ ]*\) with Life/cur/\([^ ]*\), the findings changed (re: 00/27 .*|\1|p" life2.err) &&
	new=$(sed -n "s|^draft: replaced Life/cur/\([^ ]*\) with Life/cur/\([^ ]*\), the findings changed (re: 00/27 .*|\2|p" life2.err) &&
	test -n "$old" && test -n "$new" &&
	ls "$L/cur" | grep -vxF "$new" | sort >after &&
	grep -vxF "$old" before >before2 &&
	test_cmp before2 after
'
test_expect_success '--dry-run shows what a real run would write: not the sent nor the deleted' '
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts-dir "$L" --ignore ignore \
		--dry-run "$Q" >life-dry.mbox 2>life-dry.err;
	test $? -eq 1 &&
	grep -q "^draft: skipped 1 you answered already, 1 you deleted (--force writes it again)$" life-dry.err &&
	! grep -q "^Subject: Re: \[PATCH 4.4 0[34]/27\]" life-dry.mbox &&
	grep -q "^Subject: Re: \[PATCH 4.4 06/27\]" life-dry.mbox &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts-dir "$L" --ignore ignore \
		--dry-run --json "$Q" >life-dry.json 2>/dev/null;
	python3 -c "
import json
d = json.loads(open(\"life-dry.json\").readline())
labels = [x[\"label\"][:5] for x in d[\"drafts\"]]
assert \"03/27\" not in labels and \"04/27\" not in labels and \"06/27\" in labels, labels" &&
	"$FIXSCAN" review --repo kernel --drafts-for=every-finding --drafts-dir "$L" --ignore ignore \
		--dry-run --force "$Q" 2>/dev/null | grep -q "^Subject: Re: \[PATCH 4.4 04/27\]"
'
test_expect_success '... the summary, replaced, marks the patch answered' '
	new=$(sed -n "s|^draft: replaced Life/cur/\([^ ]*\) with Life/cur/\([^ ]*\), the findings changed (re: 00/27 .*|\2|p" life2.err) &&
	tr "\n" " " <"$L/cur/$new" | grep -q "fixes 03/27 (already answered); Dmitri Orlov asked for *it too: " &&
	grep -q "posted with 03/27 (already answered)\$" "$L/cur/$new" &&
	test "$(grep -c "already answered" "$L/cur/$new")" -eq 2 &&
	ls "$L/cur" | sort >before
'
test_expect_success 'the findings of 03 change: still no new draft for it' '
	: >ignore3 &&
	{ life_run --ignore ignore3 2>life3.err; test $? -eq 1; } &&
	cat life3.err &&
	! grep -q "(re: 03/" life3.err &&
	grep -q "^draft: skipped 1 you answered already" life3.err &&
	python3 drafts.py "$L" d7.json &&
	python3 -c "
import json
r = json.loads(open(\"review.json\").readline())
p3 = [p for p in r[\"patches\"] if p[\"index\"] == 3][0]
assert not [d for d in json.load(open(\"d7.json\")) if d[\"irt\"] == p3[\"message_id\"]]"
'
test_expect_success '--force writes the deleted draft again, not the sent one' '
	{ life_run --ignore ignore --force 2>life4.err; test $? -eq 1; } &&
	cat life4.err &&
	test "$(grep -c "^draft: wrote" life4.err)" -eq 1 &&
	grep -q "^draft: wrote .*(re: 04/" life4.err &&
	grep -q "^draft: skipped 1 you answered already$" life4.err
'

test_expect_success 'by default a patch gets a reply only when the maintainer must act' '
	"$FIXSCAN" review --repo kernel --dry-run --drafts=patches "$Q" >act.out 2>/dev/null;
	python3 - <<-\PY
	import json, mailbox
	r = json.loads(open("review.json").readline())
	acts = {"fix-missing", "reverted-upstream", "already-applied", "duplicate-in-series",
	        "dep-missing", "target-absent", "regression-report", "objection", "fix-pending",
	        "reverted-in-stable", "unknown-upstream"}
	def asks(f):
	    return (f["kind"] in acts and not f["ignored"] and
	            f.get("cause") not in ("revert-of-revert", "not-in-clone"))
	want = {p["message_id"] for p in r["patches"] if any(asks(f) for f in p["findings"])}
	quiet = {p["message_id"] for p in r["patches"] if p["findings"]} - want
	# what the reviewer answered above (mail/Sent) gets no draft, dry run or not
	import glob, email
	sent = {email.message_from_binary_file(open(f, "rb"))["In-Reply-To"].strip("<>")
	        for f in glob.glob("mail/Sent/cur/*")}
	assert sent & want, "the answered patch would have asked for action"
	want -= sent
	got = {m["In-Reply-To"].strip("<>") for m in mailbox.mbox("act.out")}
	assert quiet, "the sample has patches whose findings ask for nothing"
	assert got == want, (sorted(got - want), sorted(want - got))
	PY
'
"$FIXSCAN" review --repo kernel --dry-run "$Q" >all.mbox 2>/dev/null
cat >lines.py <<'PY'
# Every body line fits 72 columns, but for quoted text, a line that starts
# with a commit reference and a link; every draft ends like a person's mail.
import mailbox, re, sys
ok = re.compile(r' *(> |[0-9a-f]{12,40} \("|\(?https://)')
n = 0
for m in mailbox.mbox(sys.argv[1]):
    body = m.get_payload(decode=True).decode("utf-8")
    for line in body.split("\n"):
        assert len(line) <= 72 or ok.match(line), (m["Subject"], line)
    assert body.endswith(sys.argv[2]), (m["Subject"], body[-80:])
    n += 1
assert n > 5, n
print(n, "drafts")
PY
test_expect_success 'drafts are wrapped at 72 and end with Thanks and the name' '
	python3 lines.py all.mbox "
Thanks,
Rita Reviewer
"
'
test_expect_success 'the summary asks for each commit once, naming every patch that needs it' '
	python3 - <<-\PY
	import collections, json, mailbox, re
	r = json.loads(open("review.json").readline())
	needs = collections.defaultdict(list)
	for p in r["patches"]:
	    for f in p["findings"]:
	        if f["kind"] == "fix-missing" and not f["ignored"]:
	            needs[f["commit"][:12]].append(p["index"])
	shared = {c: ps for c, ps in needs.items() if len(ps) > 1}
	assert shared, "the sample has a fix two patches need"
	msgs = list(mailbox.mbox("all.mbox"))
	cover = r["cover"]["message_id"]
	summary = [m for m in msgs if m["In-Reply-To"].strip("<>") == cover][0]
	body = summary.get_payload(decode=True).decode()
	for c, ps in needs.items():
	    lines = [l for l in body.split("\n") if l.startswith("  " + c)]
	    assert len(lines) == 1, (c, lines)
	    item = re.search("^  " + c + " \\(\".*\n(    .*\n)*", body, re.M).group(0)
	    assert " fixes " in item and all("%02d/27" % i in item for i in ps), item
	# and one reply asks for it, the others point to that one
	for c, ps in shared.items():
	    asked = []
	    for i in ps:
	        pid = [p["message_id"] for p in r["patches"] if p["index"] == i][0]
	        m = [m for m in msgs if m["In-Reply-To"].strip("<>") == pid][0]
	        b = m.get_payload(decode=True).decode()
	        if re.search("^  " + c + " .*\n(    .*\n)*\nPlease queue (it|them) as well", b, re.M):
	            asked.append(i)
	        else:
	            assert not re.search("^  " + c, b, re.M) and "I asked for in my reply to" in b, b
	    assert len(asked) == 1, (c, asked)
	PY
'
test_expect_success 'review --json --dry-run: one JSON document per series, the drafts in it' '
	{ "$FIXSCAN" review --repo kernel --json --dry-run "$Q" >dry.json 2>dry.err; test $? -eq 1; } &&
	! grep -v "^draft: skipped " dry.err &&
	test "$(wc -l <dry.json)" -eq 1 &&
	python3 - <<-\PY
	import email, email.policy, json, mailbox
	d = json.loads(open("dry.json").read())
	r = json.loads(open("review.json").readline())
	assert set(d) == set(r) | {"drafts"}, sorted(set(d) ^ set(r))
	assert d["patches"] == r["patches"]
	mb = list(mailbox.mbox("all.mbox"))
	assert len(d["drafts"]) == len(mb), (len(d["drafts"]), len(mb))
	want = [m["In-Reply-To"] for m in mb]
	got = []
	for x in d["drafts"]:
	    assert set(x) == {"kind", "label", "message_id", "message"}, x
	    m = email.message_from_string(x["message"], policy=email.policy.default)
	    assert m["Message-Id"] == "<" + x["message_id"] + ">"
	    assert x["kind"] == ("summary" if x["label"].startswith("00/") else "patch"), x["label"]
	    got.append(m["In-Reply-To"])
	assert got == want, (got, want)
	PY
'
printf 'Rita\n\n-- \nRita Reviewer, Example Kernel Team\n' >"$HOME/sig"
printf '${greeting}\n\n${quote}\n\n${findings}\n\nBest regards,\n${signature}\n' >"$HOME/template"
test_expect_success 'a signature file and a template from git config sign the drafts' '
	git config --global fixscan.signature "~/sig" &&
	git config --global fixscan.draftTemplate "~/template" &&
	"$FIXSCAN" review --repo kernel --dry-run "$Q" >sig.mbox 2>sig.err;
	git config --global --unset fixscan.draftTemplate &&
	git config --global --unset fixscan.signature &&
	python3 lines.py sig.mbox "
Best regards,
Rita

-- 
Rita Reviewer, Example Kernel Team
" &&
	python3 -c "
import mailbox
for m in mailbox.mbox(\"sig.mbox\"):
    assert m.get_payload(decode=True).decode().startswith(\"Hi Greta,\n\nOn \"), m[\"Subject\"]
"
'
test_expect_code 2 'an unreadable signature file: one line naming it' '
	git config --global fixscan.signature "~/no-such-sig" &&
	"$FIXSCAN" review --repo kernel --dry-run "$Q" >nosig.out 2>nosig.err
'
test_expect_success '... and nothing else' '
	git config --global --unset fixscan.signature &&
	test ! -s nosig.out &&
	test "$(cat nosig.err)" = "fixscan: cannot read the signature file '"'$HOME/no-such-sig'"' (fixscan.signature): No such file or directory"
'
test_expect_code 2 'a template with an unknown variable: one line naming it' '
	printf "\${quote}\n\${findings}\n\${sender}\n" >"$HOME/bad" &&
	git config --global fixscan.draftTemplate "~/bad" &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >badt.out 2>badt.err
'
test_expect_success '... and writes nothing' '
	git config --global --unset fixscan.draftTemplate &&
	test "$(wc -l <badt.err)" -eq 1 &&
	grep -q "^fixscan: draft template '"'$HOME/bad'"' (fixscan.draftTemplate): line 3: unknown variable \${sender} (known: " badt.err &&
	test ! -s badt.out
'
# A patch mail whose recipients GMime cannot parse, checked on its own.
p3file=$(grep -l "^Subject: \[PATCH 4.4 03/27\]" "$TRASH"/mail/review-4.4/cur/* | head -1)
python3 - "$p3file" odd.eml <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
head, _, body = t.partition("\n\n")
head = re.sub(r"^(To|Cc):.*(\n[ \t].*)*\n", "", head + "\n", flags=re.M).rstrip("\n")
head = re.sub(r"^(Message-I[dD]): <", r"\1: <odd.", head, count=1, flags=re.M)
head += '\nTo: "stable <, linux-kernel@vger.kernel.org, <>, not an address\nCc: =?UTF-8?Q?bad=01name?= <a b@c>, Nadia <nadia@@netdev>,\n stable@vger.kernel.org'
open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape").write(head + "\n\n" + body)
PY
test_expect_code 1 'a patch mail with recipients that do not parse' '
	"$FIXSCAN" check --repo kernel --drafts --drafts-dir "$TRASH/odd" odd.eml >odd.out 2>odd.err
'
test_expect_success '... gets a draft with sane To and Cc' '
	cat odd.out odd.err &&
	test ! -s odd.err &&
	f=$(ls "$TRASH"/odd/cur/*) &&
	python3 - "$f" <<-\PY
	import email, email.policy, email.utils, re, sys
	raw = open(sys.argv[1], "rb").read().decode()
	head = raw.split("\n\n", 1)[0]
	assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", head), head
	m = email.message_from_string(raw, policy=email.policy.default)
	to = [a for _, a in email.utils.getaddresses([str(m["To"])])]
	cc = [a for _, a in email.utils.getaddresses([str(m["Cc"] or "")])]
	assert to == ["greta@stable.example.org"], to
	assert cc == ["linux-kernel@vger.kernel.org", "stable@vger.kernel.org"], cc
	PY
'
test_expect_success 'the reviewer'"'"'s own draft was never touched' '
	test_cmp mine.copy "$MINE" &&
	test "$(notmuch count id:my-own-draft@example.org)" -eq 1
'
test_expect_success "no sanitizer reports in any run" '
	! grep -l "ERROR: \(Address\|Leak\)Sanitizer\|runtime error:" *.err
'

test_done
