#!/bin/sh
# fixscan check --format=b4: b4 review's per-patch check command.  One
# JSON array of one object on standard output and nothing else there;
# fail when a finding asks for action, warn for advisory findings only,
# pass otherwise; exit 0 whenever the check ran.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" "$SRC/maildirs/review-4.5" \
	"$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1
patch() {
	grep -l "^Subject: \[PATCH 4.4 $1/" "$SRC"/maildirs/review-4.4/cur/*
}
patch45() {
	grep -l "^Subject: \[PATCH AUTOSEL 4.5 $1/" "$SRC"/maildirs/review-4.5/cur/*
}

# b4.py FILE: read FILE as b4 reads a check's output (a JSON list of
# objects with tool, status, summary, url, details) and print
# "status|summary|url" of its one entry.
cat >b4.py <<'PY'
import json, sys
data = json.loads(open(sys.argv[1], "rb").read())
assert isinstance(data, list) and len(data) == 1, data
e = data[0]
assert sorted(e) == ["details", "status", "summary", "tool", "url"], e
assert e["tool"] == "fixscan" and e["status"] in ("pass", "warn", "fail"), e
assert "\n" not in e["summary"], e
print("%s|%s|%s" % (e["status"], e["summary"], e["url"]))
PY

test_expect_success 'a fix to queue and a request for it: fail, exit 0, the lore link of the patch' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch 03)" >p03.json &&
	id=$(sed -n "s/^Message-Id: <\(.*\)>$/\1/p" "$(patch 03)") &&
	test "$(python3 b4.py p03.json)" = "fail|1 fix-missing, 1 needs-also, 1 series-partial|https://lore.kernel.org/r/$id"
'
test_expect_success '... its details are the report check prints' '
	"$FIXSCAN" check --repo kernel "$(patch 03)" >p03.txt;
	python3 -c "import json; print(json.load(open(\"p03.json\"))[0][\"details\"], end=\"\")" >details.txt &&
	test_cmp p03.txt details.txt
'
test_expect_success 'an advisory difference only: warn' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch 02)" >p02.json &&
	python3 b4.py p02.json | grep -q "^warn|1 backport-differs|"
'
test_expect_success 'a backport that cannot build without a commit 4.5.y lacks: fail' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch45 06)" >a06.json &&
	python3 b4.py a06.json | grep -q "^fail|1 symbol-missing|https://lore.kernel.org/r/"
'
test_expect_success 'its only fix changes files 4.5.y does not have: warn, not fail' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch45 07)" >a07.json &&
	python3 b4.py a07.json | grep -q "^warn|1 fix-not-applicable|https://lore.kernel.org/r/"
'
test_expect_success 'its fix is in the branch already: pass' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch 06)" >p06.json &&
	python3 b4.py p06.json | grep -q "^pass|1 fix-present|"
'
test_expect_success 'no findings: pass, "no findings"' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch 01)" >p01.json &&
	python3 b4.py p01.json | grep -q "^pass|no findings|https://lore.kernel.org/r/"
'
test_expect_success 'a cover letter and a mail that is no stable patch: pass' '
	"$FIXSCAN" check --repo kernel --format=b4 <"$(patch 00)" >p00.json &&
	python3 b4.py p00.json | grep -q "^pass|a cover letter" &&
	printf "Subject: hello\nMessage-Id: <h@x>\n\nhi\n" >hello.eml &&
	"$FIXSCAN" check --repo kernel --format=b4 <hello.eml >hello.json &&
	python3 b4.py hello.json | grep -q "^pass|not a stable patch"
'
test_expect_success 'a check that cannot run: exit 2, nothing on standard output' '
	{ "$FIXSCAN" check --repo nowhere --format=b4 <"$(patch 03)" >bad.json 2>bad.err;
	  test $? = 2; } &&
	test ! -s bad.json && grep -q "^fixscan: " bad.err
'
test_expect_success '--format=b4 checks one patch: no --thread, no --drafts; --format=xml is no format' '
	{ "$FIXSCAN" check --repo kernel --format=b4 --thread <"$(patch 03)" 2>u1.err; test $? = 2; } &&
	{ "$FIXSCAN" check --repo kernel --format=b4 --drafts <"$(patch 03)" 2>u2.err; test $? = 2; } &&
	{ "$FIXSCAN" check --repo kernel --format=xml <"$(patch 03)" 2>u3.err; test $? = 2; } &&
	grep -q "no --thread" u1.err && grep -q "text or b4" u3.err
'
test_done
