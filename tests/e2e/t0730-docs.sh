#!/bin/sh
# The man pages: lint clean, one per command, every config key the code
# reads documented (and no other), every option of each --help in its
# page.
. "$(dirname "$0")/lib.sh"

MAN="$SRC/man"

# The commands "fixscan --help" lists.
"$FIXSCAN" --help | sed -n 's/^   \([a-z][a-z-]*\)  .*/\1/p' | sort >commands
# What a page says once rendered, with hyphens and bold as plain text.
render() {
	MANWIDTH=200 mandoc -Tascii -O width=200 "$1" | col -bx
}

if command -v mandoc >/dev/null 2>&1; then
	test_expect_success 'mandoc -Tlint -W warning reports nothing' '
		ok=0
		for p in "$MAN"/*.1 "$MAN"/*.5; do
			mandoc -Tlint -W warning "$p" >lint 2>&1 || ok=1
			if [ -s lint ]; then cat lint; ok=1; fi
		done
		exit $ok
	'
else
	echo "# skipped the lint: mandoc is not installed (scripts/deps.sh --test installs it)"
fi

test_expect_success 'fixscan --help lists commands' '
	test "$(wc -l <commands)" -ge 6 &&
	grep -qx review commands && grep -qx check commands && grep -qx digest commands
'
test_expect_success 'every command has a page and every command page a command' '
	ls "$MAN" | sed -n "s/^fixscan-\(.*\)\.1\$/\1/p" | sort >pages &&
	test_cmp commands pages
'
test_expect_success 'the pages fixscan.1 and fixscan-config.5 exist' '
	test -f "$MAN/fixscan.1" && test -f "$MAN/fixscan-config.5"
'
test_expect_success 'every page has NAME, SYNOPSIS, DESCRIPTION; command pages EXIT STATUS' '
	ok=0
	for p in "$MAN"/*.1 "$MAN"/*.5; do
		for s in NAME SYNOPSIS DESCRIPTION; do
			grep -q "^\.SH \"*$s\"*\$" "$p" || { echo "$p: no $s"; ok=1; }
		done
		case $p in *.1)
			grep -q "^\.SH \"EXIT STATUS\"\$" "$p" || { echo "$p: no EXIT STATUS"; ok=1; } ;;
		esac
	done
	exit $ok
'
if command -v mandoc >/dev/null 2>&1; then
	test_expect_success 'fixscan.1 names every command and its page' '
		render "$MAN/fixscan.1" >fixscan.txt &&
		while read -r c; do
			grep -q "fixscan-$c(1)" fixscan.txt || { echo "fixscan.1 lacks $c"; exit 1; }
		done <commands
	'
	test_expect_success 'every long option of each --help is in its page' '
		ok=0
		"$FIXSCAN" --help | grep -o -- "--[a-z][a-z-]*" | sort -u >opts.main
		while read -r o; do
			grep -q -- "$o" fixscan.txt || { echo "fixscan.1 lacks $o"; ok=1; }
		done <opts.main
		while read -r c; do
			"$FIXSCAN" "$c" --help >help.$c || { echo "$c --help failed"; ok=1; }
			render "$MAN/fixscan-$c.1" >page.$c
			for o in $(grep -o -- "--[a-z][a-z-]*" help.$c | sort -u); do
				grep -q -- "$o" page.$c || { echo "fixscan-$c.1 lacks $o"; ok=1; }
			done
		done <commands
		exit $ok
	'
fi
test_expect_success 'every fixscan.* key the code reads is in fixscan-config.5, and no other' '
	grep -oh "\"fixscan\.\(%s\.\)\{0,1\}[A-Za-z_]*\"" "$SRC"/lib/*.c "$SRC"/lib/*/*.c "$SRC"/cli/*.c |
		tr -d "\"" | sed "s/\.%s\./.<version>./" | sort -u >keys.code &&
	awk "/^\.TP/ || /^The older name\$/ { tp = 1; next } tp && /^\.B fixscan\./ { print \$2 } { tp = 0 }" \
		"$MAN/fixscan-config.5" | sort -u >keys.page &&
	test "$(wc -l <keys.code)" -ge 8 &&
	test_cmp keys.code keys.page
'
if command -v mandoc >/dev/null 2>&1; then
	test_expect_success 'fixscan-config(5) renders its synopsis as one command line' '
		mandoc -Tascii "$MAN/fixscan-config.5" | col -bx >config.txt &&
		grep -q "^ *git config --global fixscan\.key value\$" config.txt &&
		grep -q "^ *notmuch config set fixscan\.key value\$" config.txt
	'
fi
test_expect_success 'fixscan --version prints the version of the VERSION file' '
	"$FIXSCAN" --version >version &&
	echo "fixscan $(cat "$SRC/VERSION")" >expect &&
	test_cmp expect version
'
test_expect_success 'the pages carry that version too' '
	v=$(cat "$SRC/VERSION") &&
	for p in "$MAN"/*.1 "$MAN"/*.5; do
		grep -q "^\.TH .* \"fixscan $v\"" "$p" || { echo "$p: not fixscan $v"; exit 1; }
	done
'
test_expect_success 'the contrib files the pages name exist' '
	for f in fixscan.muttrc fixscan-digest.service fixscan-digest.timer fixscan-digest.cron; do
		test -f "$SRC/contrib/$f" || { echo "no contrib/$f"; exit 1; }
	done
'
test_expect_success 'maildirs/README.md counts what the maildirs hold' '
	python3 - "$SRC/maildirs" <<-\EOF
	import email, email.policy, os, re, sys
	top = sys.argv[1]
	readme = open(os.path.join(top, "README.md")).read()
	def subjects(d):
	    out = []
	    for f in sorted(os.listdir(os.path.join(top, d, "cur"))):
	        with open(os.path.join(top, d, "cur", f), "rb") as fh:
	            m = email.message_from_binary_file(fh, policy=email.policy.default)
	        out.append(str(m["subject"] or ""))
	    return out
	s44 = subjects("review-4.4")
	patches = [s for s in s44 if re.match(r"\[PATCH 4\.4 (\d+)/(\d+)\]", s)]
	covers = [s for s in patches if s.startswith("[PATCH 4.4 00/")]
	patches = [s for s in patches if s not in covers]
	replies = [s for s in s44 if s.startswith("Re:")]
	assert len(covers) == 1, covers
	n = len(patches)
	assert covers[0].startswith("[PATCH 4.4 00/%02d]" % n), covers
	want = "`[PATCH 4.4 00/%02d] 4.4.7-stable review`" % n
	assert want in readme, want
	assert "%d patches in reply to it, and %d reviewer replies" % (n, len(replies)) in readme
	s45 = subjects("review-4.5")
	assert "`[PATCH AUTOSEL 4.5 NN/%02d]`" % len(s45) in readme
	assert "patches 02..%02d reply to patch 01" % len(s45) in readme
	nl = len(os.listdir(os.path.join(top, "lists", "cur")))
	assert "| `lists/` | %s plain" % {3: "three", 4: "four"}.get(nl, str(nl)) in readme
	rows = re.findall(r"^\| (\d\d) \|", readme.split("## review-4.4: planted cases")[1].split("##")[0], re.M)
	assert len(rows) == n, (len(rows), n)
	EOF
'
test_done
