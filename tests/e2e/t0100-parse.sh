#!/bin/sh
# fixscan parse: fixtures against their expected JSON, the sample maildirs,
# standard input, and input that is broken in every way a mail can be.
. "$(dirname "$0")/lib.sh"

DATA=$SRC/tests/data/mail

# expect_bad FILE: exit 2, nothing on stdout, exactly one line on stderr
# that starts "fixscan: FILE: ".
expect_bad() {
	"$FIXSCAN" parse --json "$1" >out 2>err
	rc=$?
	cat err
	test "$rc" -eq 2 &&
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: $1: " err
}

# A patch mail header for the generated inputs.
write_header() {
	cat <<-\EOH
	From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
	To: stable@vger.kernel.org
	Subject: [PATCH 4.19 021/052] media: frob: generated test input
	Date: Wed, 15 Nov 2023 14:33:20 -0500
	Message-Id: <20231115191421.000000021@linuxfoundation.org>
	In-Reply-To: <20231115191419.641552204@linuxfoundation.org>
	References: <20231115191419.641552204@linuxfoundation.org>
	EOH
}

for mail in "$DATA"/*.eml "$DATA"/*.mbox; do
	name=$(basename "$mail")
	test_expect_success "parse --json $name matches ${name%.*}.json" '
		(cd "$DATA" && "$FIXSCAN" parse --json "$name") >actual 2>err &&
		test_cmp "$DATA/${name%.*}.json" actual &&
		test ! -s err
	'
done

test_expect_success 'all fixtures at once: one line per message, in order' '
	(cd "$DATA" && "$FIXSCAN" parse --json *.eml thread.mbox) >actual &&
	(cd "$DATA" && cat $(for f in *.eml thread.mbox; do echo "${f%.*}.json"; done)) >expect &&
	test_cmp expect actual
'

test_expect_success 'every line is a JSON object with the documented keys' '
	(cd "$DATA" && "$FIXSCAN" parse --json *.eml thread.mbox) >actual &&
	python3 - actual <<-\EOP
	import json, sys
	keys = {"file", "message_id", "subject", "from", "author", "date",
	        "in_reply_to", "references", "series", "upstream", "fixes",
	        "reverts", "stable_dep_of", "cc_stable", "revert_title", "has_diff"}
	for line in open(sys.argv[1]):
	    obj = json.loads(line)
	    missing = keys - set(obj)
	    assert not missing, missing
	    assert isinstance(obj["has_diff"], bool)
	    assert isinstance(obj["references"], list)
	EOP
'

test_expect_success 'text output: one block per message, blank line between' '
	"$FIXSCAN" parse "$DATA/review-patch.eml" "$DATA/thread.mbox" >actual &&
	test "$(grep -c "^message <" actual)" -eq 4 &&
	test "$(grep -c "^$" actual)" -eq 3 &&
	grep -q "^  author: *Ada Quill <ada.quill@example.org>$" actual &&
	grep -q "^  upstream: *5c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7$" actual &&
	grep -q "^  fixes: *0fa1c8b2e3d4 (\"netfilter: nf_tables: add dormant table support\")$" actual &&
	grep -q "^  series: *prefix \"PATCH\", version 4.19, 17/52$" actual &&
	grep -q "^  cc-stable: *4.14+$" actual
'

# The sample maildirs are written by another part of the project; when they
# are there, every message in them must parse.
set -- "$SRC"/maildirs/*/cur/*
if [ -e "$1" ]; then
	test_expect_success "every sample maildir message parses ($# files)" '
		"$FIXSCAN" parse --json "$SRC"/maildirs/*/cur/* >actual 2>err &&
		test ! -s err &&
		test "$(wc -l <actual)" -eq "$(ls "$SRC"/maildirs/*/cur/* | wc -l)"
	'
else
	echo "# skipping the maildir test: no files in maildirs/*/cur/"
fi

test_expect_success 'standard input from a pipe' '
	sed "s/\"file\":\"review-patch.eml\"/\"file\":\"-\"/" \
		"$DATA/review-patch.json" >expect &&
	cat "$DATA/review-patch.eml" | "$FIXSCAN" parse --json - >actual &&
	test_cmp expect actual
'

test_expect_success 'standard input from a pipe: an mbox' '
	sed "s/\"file\":\"thread.mbox\"/\"file\":\"-\"/" "$DATA/thread.json" >expect &&
	cat "$DATA/thread.mbox" | "$FIXSCAN" parse --json - >actual &&
	test_cmp expect actual
'

test_expect_success 'standard input redirected from a file' '
	sed "s/\"file\":\"qp.eml\"/\"file\":\"-\"/" "$DATA/qp.json" >expect &&
	"$FIXSCAN" parse --json - <"$DATA/qp.eml" >actual &&
	test_cmp expect actual
'

test_expect_success 'empty standard input is an error' '
	: | "$FIXSCAN" parse --json - >out 2>err
	test $? -eq 2 && test ! -s out &&
	test "$(wc -l <err)" -eq 1 && grep -q "^fixscan: -: " err
'

test_expect_success 'an empty file' '
	: >empty.eml &&
	expect_bad empty.eml
'

test_expect_success 'a binary file' '
	python3 -c "
import random, sys
r = random.Random(20240101)
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))
" >random.bin &&
	test "$(wc -c <random.bin)" -eq 4096 &&
	expect_bad random.bin
'

test_expect_success 'a text without headers' '
	printf "Just a note.\nNothing here looks like a mail header.\n" >note.txt &&
	expect_bad note.txt
'

test_expect_success 'a directory' '
	mkdir -p adir &&
	expect_bad adir
'

test_expect_success 'a missing file' '
	expect_bad no-such-file.eml &&
	grep -q "No such file or directory" err
'

test_expect_success 'a bad file among good ones: the others still print' '
	"$FIXSCAN" parse --json "$DATA/qp.eml" no-such-file.eml "$DATA/crlf.eml" \
		>out 2>err
	test $? -eq 2 &&
	test "$(wc -l <out)" -eq 2 &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^fixscan: no-such-file.eml: " err
'

test_expect_success 'a 2 MB single line is read whole' '
	{
		write_header &&
		printf "\ncommit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 upstream.\n\n" &&
		head -c 2097152 /dev/zero | tr "\000" x &&
		printf "\n\nFixes: 1a2b3c4d5e6f (\"media: frob: add it\")\n---\n" &&
		printf "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >long.eml &&
	"$FIXSCAN" parse --json long.eml >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 1 &&
	grep -q "\"upstream\":\[\"0a1b2c3d4e5f60718293a4b5c6d7e8f901234567\"\]" out &&
	grep -q "\"fixes\":\[{\"id\":\"1a2b3c4d5e6f\",\"subject\":\"media: frob: add it\"}\]" out &&
	grep -q "\"has_diff\":true" out
'

test_expect_success 'a truncated base64 body gives what decodes' '
	sed "/^Content-Transfer-Encoding: base64/q" "$DATA/base64.eml" >cut.eml &&
	echo >>cut.eml &&
	sed "1,/^Content-Transfer-Encoding: base64/d" "$DATA/base64.eml" |
		sed -n "2,9p" | tr -d "\n" | head -c 500 >>cut.eml &&
	"$FIXSCAN" parse --json cut.eml >out 2>err &&
	test ! -s err &&
	test "$(wc -l <out)" -eq 1 &&
	grep -q "\"author\":\"Mei Tanaka <mei.tanaka@example.jp>\"" out &&
	grep -q "\"upstream\":\[\"3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e\"\]" out &&
	grep -q "\"has_diff\":false" out
'

test_expect_success 'a 50 MB mbox: every message, memory bounded' '
	cat "$DATA/thread.mbox" "$DATA/thread.mbox" "$DATA/thread.mbox" \
		"$DATA/thread.mbox" >four.mbox &&
	: >big.mbox &&
	copies=0 &&
	while [ "$(wc -c <big.mbox)" -lt 52428800 ]; do
		cat four.mbox four.mbox four.mbox four.mbox four.mbox four.mbox \
			four.mbox four.mbox four.mbox four.mbox >>big.mbox
		copies=$((copies + 40))
	done &&
	size=$(wc -c <big.mbox) &&
	# ASan keeps freed memory in a quarantine on purpose; turn that off
	# so the sanitized binary measures what the code holds.
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0" &&
	export ASAN_OPTIONS &&
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o rss -f %M "$FIXSCAN" parse --json big.mbox >out
	else
		python3 -c "
import resource, subprocess, sys
with open(\"out\", \"w\") as out:
    rc = subprocess.call(sys.argv[1:], stdout=out)
open(\"rss\", \"w\").write(\"%d\n\" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)
" "$FIXSCAN" parse --json big.mbox
	fi &&
	test "$(wc -l <out)" -eq $((copies * 3)) &&
	test "$(grep -c "\"message_id\":\"20190218133531.100000001@linuxfoundation.org\"" out)" -eq "$copies" &&
	rss_kb=$(tail -n 1 rss) &&
	echo "input $size bytes, peak RSS $rss_kb KB" &&
	test $((rss_kb * 1024)) -lt $((size * 2))
'

test_expect_success 'control characters in headers reach the terminal visibly, not raw' '
	printf "From: =?UTF-8?Q?Eve=1B]0;owned=07?= <eve@example.org>\nSubject: [PATCH 4.4 01/02] net: \033[2Jclear\nMessage-Id: <esc@x>\n\ncommit 1234567890123456789012345678901234567890 upstream.\n" >esc.eml &&
	"$FIXSCAN" parse esc.eml >out &&
	! grep -q "$(printf "\033")" out &&
	! grep -q "$(printf "\007")" out &&
	grep -q "subject: *\[PATCH 4.4 01/02\] net: ^\[\[2Jclear" out &&
	grep -q "from: *Eve^\[\]0;owned^G <eve@example.org>" out &&
	"$FIXSCAN" parse --json esc.eml >out.json &&
	grep -q "net: \\\\u001b\[2Jclear" out.json
'

test_expect_success '--help prints the usage on stdout' '
	"$FIXSCAN" parse --help >out 2>err &&
	grep -q "^usage: fixscan parse \[--json\] FILE" out &&
	test ! -s err &&
	"$FIXSCAN" parse -h >out2 &&
	test_cmp out out2
'

test_expect_code 2 'no FILE is a usage error' '
	"$FIXSCAN" parse --json 2>err
	rc=$?
	grep -q "^fixscan: parse: " err || exit 1
	exit $rc
'

test_expect_code 2 'an unknown option is a usage error' '
	"$FIXSCAN" parse --frobnicate "$DATA/qp.eml" >out 2>err
	rc=$?
	test ! -s out || exit 1
	grep -q "^fixscan: parse: unknown option .--frobnicate." err || exit 1
	exit $rc
'

test_done
