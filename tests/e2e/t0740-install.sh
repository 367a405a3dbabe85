#!/bin/sh
# make install into a temporary DESTDIR puts the binary, the man pages and
# the contrib files in place; make uninstall takes every file away again.
. "$(dirname "$0")/lib.sh"

DEST="$TRASH/dest"
PREFIX=/opt/fixscan-test
# MAKEFLAGS from an outer make (make check) would pass its targets' flags
# down; this make only installs what is built already.
unset MAKEFLAGS MFLAGS MAKELEVEL 2>/dev/null || true

test_expect_success 'make install PREFIX=... DESTDIR=...' '
	make -s -C "$SRC" install PREFIX="$PREFIX" DESTDIR="$DEST" >install.log 2>&1 ||
		{ cat install.log; exit 1; }
'
test_expect_success 'the binary is installed and runs' '
	test -x "$DEST$PREFIX/bin/fixscan" &&
	"$DEST$PREFIX/bin/fixscan" --version >v &&
	grep -q "^fixscan $(cat "$SRC/VERSION")\$" v
'
test_expect_success 'every man page is installed in its section' '
	for p in "$SRC"/man/*.1; do
		cmp "$p" "$DEST$PREFIX/share/man/man1/$(basename "$p")" || exit 1
	done &&
	for p in "$SRC"/man/*.5; do
		cmp "$p" "$DEST$PREFIX/share/man/man5/$(basename "$p")" || exit 1
	done &&
	test -f "$DEST$PREFIX/share/man/man1/fixscan-review.1" &&
	test -f "$DEST$PREFIX/share/man/man5/fixscan-config.5"
'
test_expect_success 'the contrib files are installed with the docs' '
	for f in "$SRC"/contrib/*; do
		test -f "$f" || continue
		cmp "$f" "$DEST$PREFIX/share/doc/fixscan/contrib/$(basename "$f")" || exit 1
	done &&
	test -f "$DEST$PREFIX/share/doc/fixscan/contrib/fixscan.muttrc"
'
test_expect_success 'the bash completion goes where bash-completion loads it' '
	cmp "$SRC/contrib/completion/fixscan.bash" \
		"$DEST$PREFIX/share/bash-completion/completions/fixscan"
'
test_expect_success 'the zsh completion goes where Debian'"'"'s zsh finds it' '
	cmp "$SRC/contrib/completion/_fixscan" \
		"$DEST$PREFIX/share/zsh/vendor-completions/_fixscan"
'
test_expect_success 'nothing is installed outside PREFIX' '
	find "$DEST" -type f | grep -v "^$DEST$PREFIX/" >outside;
	test ! -s outside
'
test_expect_success 'the installed pages render' '
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tascii "$DEST$PREFIX/share/man/man1/fixscan.1" | col -bx |
			grep -q "fixscan-review(1)"
	fi
'
test_expect_success 'make uninstall with the same PREFIX and DESTDIR' '
	make -s -C "$SRC" uninstall PREFIX="$PREFIX" DESTDIR="$DEST" >uninstall.log 2>&1 ||
		{ cat uninstall.log; exit 1; }
'
test_expect_success '... leaves no file behind' '
	find "$DEST" -type f -o -type l >left;
	if [ -s left ]; then cat left; exit 1; fi
'
test_done
