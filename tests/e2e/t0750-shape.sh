#!/bin/sh
# scripts/check-shape.sh can fail: on small made-up trees compiled here,
# each architecture rule is broken once and reported exactly, and a tree
# that keeps them all passes.  (Whether the real tree passes is make
# check's business, not this test's.)
. "$(dirname "$0")/lib.sh"

CHECK="$SRC/scripts/check-shape.sh"
CC=${CC:-cc}

# put TREE FILE: write stdin to TREE/FILE and compile it to
# TREE/build/obj/FILE.o, as the Makefile lays objects out.  -O0: no
# _FORTIFY_SOURCE, so printf stays printf whatever the compiler's
# defaults, and nothing is inlined away.
put() {
	mkdir -p "$1/$(dirname "$2")" "$1/build/obj/$(dirname "$2")" &&
	cat >"$1/$2" &&
	$CC -O0 -I"$1/include" -I"$1/lib" -c -o "$1/build/obj/${2%.c}.o" "$1/$2"
}

# long_function NAME N: a C function of exactly N lines, from the line of
# its name to its closing brace.
long_function() {
	echo "int $1(int x)"
	echo "{"
	i=3
	while [ "$i" -lt "$2" ]; do
		echo "	x += $i;"
		i=$((i + 1))
	done
	echo "	return x; }"
}

# The clean tree: main calls the commands, the commands share cli.o, the
# library prints only to the stream it is given, the longest function is
# 120 lines; its lib/ has no folder, and a lib/LAYERS that lists none.
make_clean_tree() {
	mkdir -p "$1/lib" &&
	echo "# no folders" >"$1/lib/LAYERS" &&
	put "$1" cli/main.c <<-\EOF &&
	int cmd_a(void);
	int cmd_b(void);
	int main(void) { return cmd_a() + cmd_b(); }
	EOF
	put "$1" cli/cli.c <<-\EOF &&
	int cli_helper(void) { return 1; }
	EOF
	put "$1" cli/cmd-a.c <<-\EOF &&
	int cli_helper(void);
	int lib_print(void *f);
	int cmd_a(void) { return cli_helper() + lib_print(0); }
	EOF
	put "$1" cli/cmd-b.c <<-\EOF &&
	int cli_helper(void);
	int cmd_b(void) { return cli_helper(); }
	EOF
	put "$1" lib/print.c <<-\EOF &&
	#include <stdio.h>
	int lib_print(FILE *f) { return fprintf(f, "n=%d\n", 1); }
	EOF
	long_function just_short 120 | put "$1" lib/long.c &&
	c_lines 1000 | put "$1" lib/big.c
}

# c_lines N: a C file of exactly N lines.
c_lines() {
	i=0
	while [ "$i" -lt "$1" ]; do
		echo "/* $i */"
		i=$((i + 1))
	done
}

test_expect_success 'a tree that keeps every rule passes' '
	make_clean_tree clean &&
	"$CHECK" --src clean >out &&
	echo "check-shape: 0 violations" >expect &&
	test_cmp expect out
'

test_expect_success 'each broken rule is reported, exit status 1' '
	make_clean_tree dirty &&
	# rule 1: cmd-a uses a helper of cmd-b.
	put dirty cli/cmd-a.c <<-\EOF &&
	int cli_helper(void);
	int b_helper(void);
	int cmd_a(void) { return cli_helper() + b_helper(); }
	EOF
	put dirty cli/cmd-b.c <<-\EOF &&
	int cmd_b(void) { return 2; }
	int b_helper(void) { return 3; }
	EOF
	# rule 2: x.o and y.o use each other.
	put dirty lib/x.c <<-\EOF &&
	int y_one(void);
	int x_one(void) { return y_one(); }
	int x_two(void) { return 2; }
	EOF
	put dirty lib/y.c <<-\EOF &&
	int x_two(void);
	int y_one(void) { return x_two(); }
	EOF
	# rule 3: printf, and fprintf next to stderr.
	put dirty lib/out.c <<-\EOF &&
	#include <stdio.h>
	void out_hello(int n) { fprintf(stderr, "n=%d\n", n); printf("n=%d\n", n); }
	EOF
	# rule 4: one line too many.
	long_function too_long 121 | put dirty lib/long.c &&
	c_lines 1001 | put dirty lib/big.c &&
	cat >expect <<-\EOF &&
	check-shape: rule 1: cli/cmd-a.o uses b_helper defined in cli/cmd-b.o
	check-shape: rule 2: cycle between lib/x.o lib/y.o: lib/x.o -> lib/y.o (y_one); lib/y.o -> lib/x.o (x_two)
	check-shape: rule 3: lib/out.o uses printf
	check-shape: rule 3: lib/out.o uses stderr
	check-shape: rule 3: lib/out.o uses fprintf next to stderr
	check-shape: rule 4: lib/long.c:1: too_long is 121 lines (max 120)
	check-shape: rule 4: lib/big.c is 1001 lines (max 1000)
	check-shape: 7 violations
	EOF
	{ "$CHECK" --src dirty >out; test $? -eq 1; } &&
	test_cmp expect out
'

test_expect_success 'a command calling back into main.o is a cycle, exit status 1' '
	make_clean_tree back &&
	put back cli/main.c <<-\EOF &&
	int cmd_a(void);
	int cmd_b(void);
	int main_helper(void) { return 4; }
	int main(void) { return cmd_a() + cmd_b(); }
	EOF
	put back cli/cmd-b.c <<-\EOF &&
	int main_helper(void);
	int cmd_b(void) { return main_helper(); }
	EOF
	cat >expect <<-\EOF &&
	check-shape: rule 2: cycle between cli/cmd-b.o cli/main.o: cli/cmd-b.o -> cli/main.o (main_helper); cli/main.o -> cli/cmd-b.o (cmd_b)
	check-shape: 1 violations
	EOF
	{ "$CHECK" --src back >out; test $? -eq 1; } &&
	test_cmp expect out
'

test_expect_success '--obj names the object tree; a stale object is skipped' '
	make_clean_tree moved &&
	mv moved/build/obj objects &&
	# An object left behind by a source file that is gone since.
	mkdir -p objects/lib/old &&
	$CC -O0 -c -o objects/lib/old/gone.o -x c - <<-\EOF &&
	#include <stdio.h>
	int gone(void) { return puts("x"); }
	EOF
	"$CHECK" --src moved --obj objects >out &&
	echo "check-shape: 0 violations" >expect &&
	test_cmp expect out
'

test_expect_code 2 'no object tree is trouble, not a pass' '
	mkdir -p empty/lib &&
	"$CHECK" --src empty
'

# A layered library: lib/LAYERS lists base, then mail; base/text.c is a
# module with a public header, mail/reader.c uses it (downward: fine).
make_layered_tree() {
	make_clean_tree "$1" &&
	printf "# bottom-up\nbase\nmail\n" >"$1/lib/LAYERS" &&
	mkdir -p "$1/include/fixscan" &&
	echo "int text_len(const char *s);" >"$1/include/fixscan/text.h" &&
	echo "int reader_next(void);" >"$1/include/fixscan/reader.h" &&
	mkdir -p "$1/lib/mail" &&
	echo "int mail_private(void);" >"$1/lib/mail/private.h" &&
	put "$1" lib/base/text.c <<-\EOF &&
	#include "fixscan/text.h"
	int text_len(const char *s) { int n = 0; while (s[n]) n++; return n; }
	EOF
	put "$1" lib/mail/reader.c <<-\EOF
	#include "fixscan/text.h"
	#include "fixscan/reader.h"
	#include "private.h"
	int mail_private(void) { return 1; }
	int reader_next(void) { return text_len("x") + mail_private(); }
	EOF
}

test_expect_success 'a layered tree whose edges all go down passes' '
	make_layered_tree layered &&
	"$CHECK" --src layered >out &&
	echo "check-shape: 0 violations" >expect &&
	test_cmp expect out
'

test_expect_success 'an include or a call upward is reported, as is an unlisted folder' '
	make_layered_tree upward &&
	# rule 5 and rule 6: base includes a header of mail and calls it.
	put upward lib/base/text.c <<-\EOF &&
	#include "fixscan/text.h"
	#include "fixscan/reader.h"
	#include "mail/private.h"
	int text_len(const char *s) { return reader_next() + (s[0] != 0); }
	EOF
	put upward lib/mail/reader.c <<-\EOF &&
	int reader_next(void) { return 1; }
	EOF
	# a public header of base that pulls in one of mail
	echo "#include \"fixscan/reader.h\"" >>upward/include/fixscan/text.h &&
	# a folder LAYERS does not list, and a header that names no module
	put upward lib/extra/more.c <<-\EOF &&
	int more(void) { return 5; }
	EOF
	echo "int orphan(void);" >upward/include/fixscan/orphan.h &&
	cat >expect <<-\EOF &&
	check-shape: rule 5: lib/extra is a folder lib/LAYERS does not list
	check-shape: rule 5: lib/base/text.c (base) includes fixscan/reader.h (mail)
	check-shape: rule 5: lib/base/text.c (base) includes mail/private.h (mail)
	check-shape: rule 5: include/fixscan/orphan.h names no module of lib/
	check-shape: rule 5: include/fixscan/text.h (base) includes fixscan/reader.h (mail)
	check-shape: rule 6: lib/base/text.o (base) uses reader_next defined in lib/mail/reader.o (mail)
	check-shape: 6 violations
	EOF
	{ "$CHECK" --src upward >out; test $? -eq 1; } &&
	test_cmp expect out
'

test_expect_success 'a header handing out a string freed with free() is reported, g_free() passes' '
	make_layered_tree alloc &&
	cat >alloc/include/fixscan/text.h <<-\EOF &&
	/* Ownership: strings from GLib; fs_text_free() frees the table. */
	int text_len(const char *s);
	/* A copy of S (the caller frees it with free()). */
	char *text_copy(const char *s);
	EOF
	cat >alloc/lib/mail/private.h <<-\EOF &&
	/* A new string (free()), or NULL; mail_free() and g_free() are fine. */
	char *mail_private_name(void);
	int mail_private(void);
	EOF
	cat >expect <<-\EOF &&
	check-shape: rule 7: lib/mail/private.h:1: says free(), not g_free()
	check-shape: rule 7: include/fixscan/text.h:3: says free(), not g_free()
	check-shape: 2 violations
	EOF
	{ "$CHECK" --src alloc >out; test $? -eq 1; } &&
	test_cmp expect out &&
	# the same headers once they say g_free(): nothing to report
	sed "s/with free()/with g_free()/" alloc/include/fixscan/text.h >h &&
	mv h alloc/include/fixscan/text.h &&
	sed "s/(free())/(g_free())/" alloc/lib/mail/private.h >h &&
	mv h alloc/lib/mail/private.h &&
	"$CHECK" --src alloc >out &&
	echo "check-shape: 0 violations" >expect &&
	test_cmp expect out
'

test_expect_code 2 'a tree without lib/LAYERS cannot be checked' '
	make_clean_tree nolayers &&
	rm nolayers/lib/LAYERS &&
	"$CHECK" --src nolayers
'
test_done
