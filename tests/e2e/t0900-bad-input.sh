#!/bin/sh
# Hostile input, end to end: every file in tests/data/bad/ (and a
# directory and a FIFO made here) through fixscan parse and fixscan check,
# each under a timeout.  tests/data/bad/MANIFEST gives, per input, the
# exit status of each command and the pattern its stderr must match: one
# line "fixscan: ..." naming the file or message, or "-" for nothing on
# stderr (a clean result).  Never a crash, a hang, a sanitizer report, a
# GLib warning or a draft left behind.  Also a --since that reaches back
# before 1970.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

BAD=$SRC/tests/data/bad
TIMEOUT=${FIXSCAN_BAD_TIMEOUT:-60}

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
# The store holds the cover letter without patches and the 0/0 mail, so
# check goes on to sort a thread with no patch in it.
mkdir -p "$TRASH/src/bad/cur" || exit 1
sed 1d "$BAD/mbox-cover-only.mbox" >"$TRASH/src/bad/cur/1.cover:2,S" || exit 1
sed 's/^Message-Id: .*/Message-Id: <zero-of-zero@example.org>/' "$BAD/numbering-0-0.eml" \
	>"$TRASH/src/bad/cur/2.zero:2,S" || exit 1
setup_notmuch "$TRASH/mail" "$TRASH/src/bad" "$SRC/maildirs/review-4.5" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
mkdir adir && mkfifo afifo || exit 1
find "$TRASH/mail" -type f ! -path '*/.notmuch/*' | sort | xargs md5sum >mail.before

# run_one CMD FILE RC PATTERN: CMD on FILE exits RC and its stderr is
# PATTERN ("%f" in it stands for FILE).
run_one() {
	timeout "$TIMEOUT" "$FIXSCAN" $1 "$2" >out 2>err.all
	rc=$?
	cat err.all
	# The inputs are dated years after the sample kernel's last commit:
	# the one-line notice that the clone is older is right, and no
	# complaint about the input.
	grep -v "^fixscan: mainline in .* older than this thread" err.all >err
	if [ "$rc" -eq 124 ]; then
		echo "hung"
		return 1
	fi
	if [ "$rc" -ne "$3" ]; then
		echo "exit $rc, want $3"
		return 1
	fi
	if grep -E -q 'AddressSanitizer|LeakSanitizer|runtime error|CRITICAL|WARNING|Segmentation' err; then
		return 1
	fi
	if [ "$4" = "-" ]; then
		test ! -s err
		return
	fi
	pat=$(printf '%s' "$4" | sed "s|%f|$2|g")
	test "$(wc -l <err)" -eq 1 && grep -E -q "$pat" err
}

# Each line: file, parse exit, parse stderr, check exit, check stderr
# (tab-separated).  "@dir" and "@fifo" are made here.
while IFS='	' read -r file prc ppat crc cpat; do
	case $file in '#'*|'') continue ;; esac
	case $file in
	@dir) f=adir ;;
	@fifo) f=afifo ;;
	*) f=$BAD/$file
	   [ -f "$f" ] || { echo "# MANIFEST names a missing file: $file"; exit 1; } ;;
	esac
	# the bodies see the loop's variables: they run here, in a subshell
	test_expect_success "parse $file" 'run_one "parse --json" "$f" "$prc" "$ppat"'
	test_expect_success "check $file" 'run_one "check --repo kernel" "$f" "$crc" "$cpat"'

done <"$BAD/MANIFEST"

test_expect_success 'every input is in the MANIFEST' '
	for f in "$BAD"/*; do
		n=$(basename "$f")
		[ "$n" = MANIFEST ] && continue
		grep -q "^$n	" "$BAD/MANIFEST" || { echo "not listed: $n"; exit 1; }
	done
'

test_expect_success 'at least 40 inputs' '
	test "$(grep -c "^[^#]" "$BAD/MANIFEST")" -ge 40
'

test_expect_success 'the cover without patches is sorted, not crashed on' '
	timeout "$TIMEOUT" "$FIXSCAN" check --repo kernel --thread "$TRASH/src/bad/cur/1.cover:2,S" >out 2>err
	rc=$?
	cat err
	test "$rc" -le 2 && test "$(wc -l <err)" -le 1 &&
	! grep -E -q "Sanitizer|runtime error|CRITICAL" err
'

# A patch mail cut short before its diff: its code was neither compared
# nor checked, so "no findings" would mislead.  check and review say so
# as an advisory finding (exit 0: it asks for nothing), in text and JSON;
# the digest, which shows only what asks for action, says it on stderr.
test_expect_success 'a patch mail without its diff: diff-absent in check and review, exit 0' '
	"$FIXSCAN" check --repo kernel "$BAD/truncated-patch.eml" >tp.txt 2>tp.err &&
	grep -q "^  diff-absent: the mail carries no diff (cut short?): its code was neither\$" tp.txt &&
	grep -q "^      compared with upstream nor checked against linux-4.5.y.s tree\$" tp.txt &&
	grep -q "^summary: 1 diff-absent in 1 patch\$" tp.txt &&
	! grep -q "carries no diff" tp.err &&
	"$FIXSCAN" review --repo kernel --mbox "$BAD/truncated-patch.eml" --json >tp.json 2>/dev/null &&
	python3 -c "
import json, sys
d = json.loads(open(sys.argv[1]).readline())
kinds = [f[\"kind\"] for p in d[\"patches\"] for f in p[\"findings\"]]
assert kinds == [\"diff-absent\"], kinds
assert d[\"summary\"][\"diff-absent\"] == 1, d[\"summary\"]
" tp.json
'

test_expect_success 'the same mail in a store: the digest names it on stderr, once' '
	mkdir -p cut/cur &&
	cp "$SRC"/maildirs/review-4.5/cur/* cut/cur/ &&
	sed "/^diff --git/,\$d" "$SRC/maildirs/review-4.5/cur/1461721497.000006.fixscan:2,S" \
		>cut/cur/1461721497.000006.fixscan:2,S &&
	! grep -q "^diff --git" cut/cur/1461721497.000006.fixscan:2,S &&
	(
		NOTMUCH_CONFIG=$TRASH/cut-config && export NOTMUCH_CONFIG &&
		setup_notmuch "$TRASH/cutmail" "$TRASH/cut" &&
		"$FIXSCAN" digest --repo kernel --since 100000d >cd.txt 2>cd.err
		test $? -le 1
	) &&
	cat cd.err &&
	test "$(grep -c "carries no diff (cut short?)" cd.err)" = 1 &&
	grep -q "^fixscan: linux-4.5.y: patch 06/07 <[^>]*>: diff-absent: the mail carries no diff (cut short?): its code was neither compared with upstream nor checked against linux-4.5.y.s tree\$" cd.err
'

# A diffstat that lists a file its diff lacks: the diff stops before it.
test_expect_success 'a diff that stops before a file its diffstat lists: diff-absent names it' '
	python3 -c "
import sys
t = open(sys.argv[1]).read()
t = t.replace(\" drivers/usb/core/hub.c | 7 ++++++-\\n\",
              \" drivers/usb/core/hub.c | 7 ++++++-\\n include/linux/usb.h    | 2 ++\\n\")
t = t.replace(\" 1 file changed, 6 insertions\", \" 2 files changed, 8 insertions\")
open(sys.argv[2], \"w\").write(t)
" "$SRC/maildirs/review-4.5/cur/1461721497.000006.fixscan:2,S" stops.eml &&
	grep -q "^ include/linux/usb.h    | 2 ++\$" stops.eml &&
	{ "$FIXSCAN" review --repo kernel --mbox stops.eml >st.txt 2>st.err; test $? = 1; } &&
	cat st.txt &&
	grep -q "^  diff-absent: the diff stops before include/linux/usb.h, which its diffstat$" st.txt &&
	grep -q "^summary: .*, 1 diff-absent in 1 patch\$" st.txt &&
	{ "$FIXSCAN" review --repo kernel --mbox "$SRC/maildirs/review-4.5/cur/1461721497.000006.fixscan:2,S" >whole.txt 2>/dev/null; test $? = 1; } &&
	grep -q "^06/07 usb: hub: let the port settle" whole.txt &&
	! grep -q "diff-absent" whole.txt
'

# A mail cut in the middle of a hunk: what is left would compare as a
# backport that drops lines; it is not compared, and said to be cut.
test_expect_success 'a diff cut inside a hunk: diff-absent names the file, no backport-differs' '
	f21=$(grep -l "^Subject: \[PATCH 4.4 21/27\]" "$SRC"/maildirs/review-4.4/cur/*) &&
	python3 -c "
import sys
t = open(sys.argv[1]).read()
open(sys.argv[2], \"w\").write(t[:t.index(\"+#define\")])
" "$f21" cut21.eml &&
	{ "$FIXSCAN" check --repo kernel cut21.eml >c21.txt 2>/dev/null; test $? = 1; } &&
	cat c21.txt &&
	grep -q "^  diff-absent: a hunk of kernel/sched/fair.c has fewer lines than its header$" c21.txt &&
	! grep -q "backport-differs" c21.txt &&
	{ "$FIXSCAN" check --repo kernel "$f21" >w21.txt 2>/dev/null; test $? = 1; } &&
	! grep -q "diff-absent" w21.txt
'

# Two Content-Transfer-Encoding headers, the last "base64" over plain
# text: the body decodes to bytes that are no text.  Nothing it lacks is
# held against it (no no-upstream), nothing of it is quoted.
test_expect_success 'a body that does not read as text: diff-absent (unreadable), no other claim' '
	"$FIXSCAN" check --repo kernel "$BAD/cte-twice.eml" >cte.txt 2>/dev/null &&
	grep -q "^  diff-absent: the mail.s text could not be read (a damaged encoding?):\$" cte.txt &&
	grep -q "^summary: 1 diff-absent in 1 patch\$" cte.txt &&
	"$FIXSCAN" review --repo kernel --mbox "$BAD/cte-twice.eml" --json >cte.json 2>/dev/null &&
	python3 -c "
import json, sys
d = json.loads(open(sys.argv[1]).readline())
f = [(f[\"kind\"], f[\"cause\"]) for p in d[\"patches\"] for f in p[\"findings\"]]
assert f == [(\"diff-absent\", \"unreadable\")], f
" cte.json
'

# The same damaged 05/27 beside 04/27, whose fix is 05's commit: the
# damaged mail is placed by its title, so 04 finds its fix queued, not
# missing "from this series".
test_expect_success 'a damaged patch is still known by its title to the other patches' '
	f04=$(grep -l "^Subject: \[PATCH 4.4 04/27\]" "$SRC"/maildirs/review-4.4/cur/*) &&
	{ echo "From x Thu Jan  1 00:00:00 1970"; cat "$f04"; echo;
	  echo "From x Thu Jan  1 00:00:00 1970"; cat "$BAD/cte-twice.eml"; } >two.mbox &&
	"$FIXSCAN" review --repo kernel --mbox two.mbox --json >two.json 2>/dev/null &&
	python3 -c "
import json, sys
d = json.loads(open(sys.argv[1]).readline())
got = sorted((p[\"index\"], f[\"kind\"]) for p in d[\"patches\"] for f in p[\"findings\"])
assert got == [(4, \"fix-queued\"), (5, \"diff-absent\")], got
" two.json
'

test_expect_success 'no mail changed, none added' '
	find "$TRASH/mail" -type f ! -path "*/.notmuch/*" | sort | xargs md5sum >mail.after &&
	test_cmp mail.before mail.after
'

test_expect_success 'digest --since before 1970 takes all the mail' '
	timeout "$TIMEOUT" "$FIXSCAN" digest --repo kernel --since 100000d >d.txt 2>err
	rc=$?
	cat err
	test "$rc" -le 1 && test ! -s err &&
	grep -q "^stable review digest: .* since 1970-01-01" d.txt
'

test_expect_success 'digest --since @-5 and 1900-01-01 too' '
	timeout "$TIMEOUT" "$FIXSCAN" digest --repo kernel --since @-5 >d1.txt 2>err1 ; r1=$?
	timeout "$TIMEOUT" "$FIXSCAN" digest --repo kernel --since 1900-01-01 >d2.txt 2>err2 ; r2=$?
	cat err1 err2
	test "$r1" -le 1 && test "$r2" -le 1 && test ! -s err1 && test ! -s err2
'

# A multi-valued fixscan key written without "= value" (git reads it as
# true): one line naming it, exit 2; it crashed the index (found by
# fuzz-config).
test_expect_code 2 'fixscan.stable without a value: one line, no crash' '
	cp kernel/.git/config config.saved &&
	printf "[fixscan]\n\tstable\n" >>kernel/.git/config &&
	timeout "$TIMEOUT" "$FIXSCAN" index --repo kernel >out 2>err
	rc=$?
	cp config.saved kernel/.git/config
	cat err
	test "$(wc -l <err)" = 1 &&
	grep -q "^fixscan: config key .fixscan.stable. is set without a value" err || exit 3
	exit $rc
'

test_done
