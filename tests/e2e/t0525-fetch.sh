#!/bin/sh
# review of a Message-Id or lore link whose thread is not in the store:
# fetched with b4 (b4 mbox -o - -- ID), else lei (lei q ... -- m:ID), both
# stubs here that record their arguments and print the sample 4.4
# thread as an mbox; reviewed as --mbox would, its drafts written into
# the store's drafts folder.  --no-fetch and fixscan.fetch=false turn it
# off; without b4 or lei the error says how to get the thread; an id that
# is no plain Message-Id is refused before anything runs; a failing or
# silent program is one line naming it.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

COVER=20160424014451.100031676@stable.example.org
# The temporary files of a fetch go here: none may be left.
mkdir "$TRASH/tmpdir" && export TMPDIR="$TRASH/tmpdir" || exit 1
python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
# The store holds the lists, not the review thread.
setup_notmuch "$TRASH/mail" "$SRC/maildirs/lists" || exit 1
"$FIXSCAN" index --repo kernel >/dev/null || exit 1
git config --global user.name "Rita Reviewer" && git config --global user.email rita@example.org || exit 1
python3 "$SRC/tests/e2e/export-sample.py" mbox mboxrd "$SRC/maildirs/review-4.4" t44.mbox || exit 1
"$FIXSCAN" review --repo kernel --mbox t44.mbox >mbox.txt 2>/dev/null
[ -s mbox.txt ] || { echo "no --mbox review to compare with"; exit 1; }

# Stubs: each records its arguments one a line, then prints the thread
# (or fails, or prints nothing, as $STUB_MODE says).
mkdir bin nobin
for tool in b4 lei; do
	cat >"bin/$tool" <<EOF
#!/bin/sh
for a in "\$@"; do printf '%s\n' "\$a"; done >"$TRASH/$tool.argv"
case "\${STUB_MODE:-}" in
fail) echo "$tool: that message-id is not known" >&2; exit 3 ;;
empty) exit 0 ;;
esac
echo "$tool: looking up the thread" >&2
cat "$TRASH/t44.mbox"
EOF
	chmod +x "bin/$tool"
done
# git and notmuch stay reachable without b4 and lei.
for p in git notmuch python3 sh cat; do
	ln -s "$(command -v $p)" "nobin/$p"
done
mkdir leibin && cp bin/lei leibin/ && ln -s "$TRASH"/nobin/* leibin/

test_expect_code 1 'a lore link not in the store: fetched with b4, reviewed as --mbox' '
	PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel \
		"https://lore.kernel.org/stable/$COVER/T/#u" >b4.txt 2>b4.err &&
	test_cmp mbox.txt b4.txt
'
test_expect_success 'b4 got the id as one argument after --, and said so on stderr' '
	printf "%s\n" mbox -o - -- "$COVER" >want.argv &&
	test_cmp want.argv b4.argv &&
	grep -x "fixscan: message <$COVER> is not in the notmuch store: fetching its thread with b4 mbox" b4.err &&
	! grep -q "looking up" b4.err
'
test_expect_code 1 'with --drafts the drafts go into the store'"'"'s drafts folder' '
	PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel --drafts "<$COVER>" \
		>drafts.txt 2>drafts.err &&
	grep -q "^draft: " drafts.err &&
	ls mail/Drafts/cur/* >/dev/null &&
	grep -l "^In-Reply-To: <$COVER>" mail/Drafts/cur/* >/dev/null
'
rm -f b4.argv lei.argv
test_expect_code 1 'lei when b4 is not there: lei q ... -- m:ID' '
	PATH="$TRASH/leibin" "$FIXSCAN" review --repo kernel "$COVER" >lei.txt 2>lei.err &&
	test_cmp mbox.txt lei.txt &&
	printf "%s\n" q --no-save -f mboxrd --threads -- "m:$COVER" >want.argv &&
	test_cmp want.argv lei.argv &&
	grep -q "fetching its thread with lei q" lei.err
'
rm -f b4.argv
test_expect_code 2 '--no-fetch: nothing runs, the error says how to get the thread' '
	PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel --no-fetch "$COVER" 2>nofetch.err
	rc=$?
	test ! -e b4.argv &&
	grep -x "fixscan: message <$COVER> is not in the notmuch store and fetching is off (--no-fetch, fixscan.fetch): fetch its thread (b4 mbox .$COVER.) and review it with --mbox FILE, or add it to the store (lei q, then notmuch new)" nofetch.err &&
	exit $rc; exit 99
'
test_expect_code 2 'fixscan.fetch = false: nothing runs' '
	git config --global fixscan.fetch false &&
	PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel "$COVER" 2>off.err
	rc=$?
	git config --global --unset fixscan.fetch
	test ! -e b4.argv && grep -q "fetching is off" off.err && exit $rc; exit 99
'
test_expect_code 2 'neither b4 nor lei: say so and how to get the thread' '
	PATH="$TRASH/nobin" "$FIXSCAN" review --repo kernel "$COVER" 2>none.err
	rc=$?
	grep -x "fixscan: message <$COVER> is not in the notmuch store and neither b4 nor lei is on PATH: fetch its thread (b4 mbox .$COVER.) and review it with --mbox FILE, or add it to the store (lei q, then notmuch new)" none.err &&
	exit $rc; exit 99
'
# Ids that are no plain Message-Id: refused before b4 runs, one line.
python3 - <<'PY' || exit 1
ids = ["-o@x", "a b@x", "a;b@x", "a$(id)@x", "a`id`@x", "a'b@x", 'a"b@x',
       "a|b@x", "a&b@x", "a*@x", "noat", "@x", "a@", "a\033[2Jb@x", "a\tb@x", ".a@x",
       "a\\b@x", "a\u00e9@x", "a" * 251 + "@x"]
for n, i in enumerate(ids, 1):
    open("id.%d" % n, "w").write(i)
PY
for f in id.*; do
	rm -f b4.argv
	test_expect_code 2 "a bad id is refused before b4 runs: $(sed -n l $f | head -1 | cut -c1-40)" '
		PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel -- "id:$(cat '$f')" 2>bad.err
		rc=$?
		test ! -e b4.argv && test $(wc -l <bad.err) -eq 1 &&
		grep -q "is no plain Message-Id (.*): not fetched$" bad.err &&
		! grep -q "$(printf "\033")" bad.err && exit $rc; exit 99
	'
done
test_expect_code 2 'a lore link with an escaped space is refused before b4 runs' '
	rm -f b4.argv
	PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel \
		"https://lore.kernel.org/r/a%20b@x" 2>link.err
	rc=$?
	test ! -e b4.argv && grep -q "^fixscan: .https://lore.kernel.org/r/a%20b@x. names no plain Message-Id (.*): not fetched$" link.err &&
	exit $rc; exit 99
'
test_expect_code 2 'b4 fails: its status and last line, one line' '
	STUB_MODE=fail PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel "$COVER" 2>fail.err
	rc=$?
	grep -x "fixscan: b4 mbox <$COVER> failed (exit status 3): b4: that message-id is not known" fail.err &&
	test $(wc -l <fail.err) -eq 2 && exit $rc; exit 99
'
test_expect_code 2 'b4 prints nothing: said, no crash' '
	STUB_MODE=empty PATH="$TRASH/bin:$PATH" "$FIXSCAN" review --repo kernel "$COVER" 2>empty.err
	rc=$?
	grep -x "fixscan: b4 mbox <$COVER> gave no mail" empty.err && exit $rc; exit 99
'
test_expect_success 'no temporary file is left behind' '
	test -z "$(ls -A "$TMPDIR")"
'
test_done
