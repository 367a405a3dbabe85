/* Unit tests for lib/kernel/csyms*.c: the identifiers a patch's added
 * lines use and declare, and those of a whole source file.  Each case
 * gives the exact uses expected (name and role, in order) and so the
 * absence of any other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/csyms.h"

/* "name:role" of every use, space-separated, in order. */
static char *uses_of(const char *diff)
{
	struct fs_csyms s = FS_CSYMS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	size_t i, len = 1;
	char *out;

	assert_int_equal(fs_csyms_read_patch(&s, diff, strlen(diff), &err), 0);
	for (i = 0; i < s.nuses; i++)
		len += strlen(s.uses[i].name) + 12;
	out = calloc(1, len);
	assert_non_null(out);
	for (i = 0; i < s.nuses; i++)
		sprintf(out + strlen(out), "%s%s:%s", i ? " " : "", s.uses[i].name,
			fs_csym_role_name(s.uses[i].role));
	fs_csyms_clear(&s);
	return out;
}

#define EXPECT_USES(diff, want)                                                      \
	do {                                                                         \
		char *got_ = uses_of(diff);                                          \
		if (strcmp(got_, want))                                              \
			fail_msg("uses: got \"%s\", want \"%s\"", got_, want);        \
		free(got_);                                                          \
	} while (0)

/* A one-hunk diff of PATH whose new side is LINES (each "+..." or " ...";
 * "-..." lines are removed ones). */
static char *diff1(const char *path, const char *lines)
{
	size_t old = 0, new = 0;
	const char *p;
	char *out;

	for (p = lines; *p; p = strchr(p, '\n') + 1) {
		if (*p == '-' || *p == ' ')
			old++;
		if (*p == '+' || *p == ' ')
			new++;
		if (!strchr(p, '\n'))
			break;
	}
	assert_true(asprintf(&out,
			     "Subject: [PATCH] a change\n\nA changelog that says foo_bar() and "
			     "struct changelog_thing.\n\n---\n"
			     "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n"
			     "@@ -10,%zu +10,%zu @@ static int ctx(void)\n%s-- \n2.1.0\n",
			     path, path, path, path, old, new, lines) > 0);
	return out;
}

#define EXPECT_HUNK(path, lines, want)                                              \
	do {                                                                         \
		char *d_ = diff1(path, lines);                                       \
		EXPECT_USES(d_, want);                                               \
		free(d_);                                                            \
	} while (0)

static void test_roles(void **state)
{
	/* a helper called, a member, a macro, a constant, a type */
	EXPECT_HUNK("drivers/x.c",
		    " \tint ret;\n"
		    "+\tret = new_helper(dev->parent, BIT_ULL(3));\n"
		    "+\tif (dev->new_field & FOO_ENABLED)\n"
		    "+\t\treturn -EOPNOTSUPP;\n"
		    "+\tstruct new_thing *t = NULL;\n"
		    "+\tblk_opf_t opf = REQ_OP_READ;\n"
		    " \treturn ret;\n",
		    "new_helper:call parent:member BIT_ULL:call new_field:member "
		    "FOO_ENABLED:constant EOPNOTSUPP:constant new_thing:type NULL:constant "
		    "blk_opf_t:type REQ_OP_READ:constant");
	/* a designated initializer and a cast */
	EXPECT_HUNK("drivers/y.c",
		    " static const struct dev_ops ops = {\n"
		    "+\t.new_op = my_op,\n"
		    " };\n"
		    "+\tp = (struct widget *)(gadget_t *)q;\n",
		    "new_op:member widget:type gadget_t:type");
}

static void test_context_and_removed(void **state)
{
	/* context and removed lines are the branch's, not the patch's */
	EXPECT_HUNK("drivers/x.c",
		    " \tctx_call(CTX_CONST);\n"
		    "-\told_call(OLD_CONST);\n"
		    "+\tnew_call(NEW_CONST);\n"
		    " \tother->ctx_member = 1;\n",
		    "new_call:call NEW_CONST:constant");
}

static void test_comments_strings(void **state)
{
	EXPECT_HUNK("drivers/x.c",
		    "+\t/* call magic_fn() here, with MAGIC_CONST */\n"
		    "+\t// and line_comment_fn() too\n"
		    "+\tpr_info(\"use LOUD_CONST now: %d\\n\", 'X');\n"
		    "+\tc = '\\'';\n"
		    "+\ts = L\"WIDE_CONST\" u8\"UTF_CONST\";\n"
		    "+\t/*\n"
		    "+\t * a block comment over lines: comment_fn(COMMENT_CONST)\n"
		    "+\t */\n"
		    "+\tdone(DONE_CONST);\n",
		    "pr_info:call done:call DONE_CONST:constant");
	/* a comment opened on a context line, closed on an added one */
	EXPECT_HUNK("drivers/x.c",
		    " \t/* The old comment begins here\n"
		    "+\t * and the patch adds words: words_fn(WORDS)\n"
		    "+\t */\n"
		    "+\tafter_comment();\n",
		    "after_comment:call");
	/* a hunk that begins and ends inside a comment */
	EXPECT_HUNK("drivers/x.c",
		    " *    the current length (the candidate state) and compute\n"
		    "+ *      of the idle states (including the former and excluding the\n"
		    "+ *      latter).\n"
		    " *\n",
		    "");
	/* a hunk that begins inside a comment it does not show */
	EXPECT_HUNK("drivers/x.c",
		    " * Returns foo_bar() of the device, or NULL_DEV when\n"
		    "+ * the_new_words(NEW_WORDS) are said\n"
		    " */\n"
		    "+int real_use(void) { return REAL_CONST; }\n",
		    "REAL_CONST:constant");
}

static void test_keywords_and_directives(void **state)
{
	EXPECT_HUNK("drivers/x.c",
		    "+#include <linux/new_header.h>\n"
		    "+#include \"local_header.h\"\n"
		    "+#ifdef CONFIG_NEW_OPTION\n"
		    "+#if defined(SOME_ARCH) && IS_ENABLED(CONFIG_OTHER)\n"
		    "+\tif (IS_ENABLED(CONFIG_THIRD) && likely(x))\n"
		    "+\t\tn = sizeof(struct sized_thing) + __alignof__(long);\n"
		    "+\t__builtin_expect(n, 0);\n"
		    "+\ttypeof(n) m = n;\n"
		    "+#endif\n"
		    "+#endif\n",
		    "IS_ENABLED:call likely:call sized_thing:type");
}

static void test_patch_defines(void **state)
{
	/* a function, a macro, a member, an enum constant and a type the patch
	 * adds itself, used in the same patch, in another file */
	const char *diff =
		"diff --git a/include/linux/w.h b/include/linux/w.h\n"
		"--- a/include/linux/w.h\n+++ b/include/linux/w.h\n"
		"@@ -1,3 +1,12 @@\n"
		" struct widget {\n"
		"+\tint (*added_cb)(struct widget *w);\n"
		"+\tunsigned long added_flags;\n"
		" };\n"
		"+#define ADDED_MACRO(x) ((x) + ADDED_BASE)\n"
		"+#define ADDED_BASE 4\n"
		"+enum added_mode {\n"
		"+\tADDED_MODE_A,\n"
		"+\tADDED_MODE_B = 2,\n"
		"+};\n"
		"+typedef u32 added_t;\n"
		"+int added_helper(struct widget *w, added_t v);\n"
		"diff --git a/drivers/w.c b/drivers/w.c\n"
		"--- a/drivers/w.c\n+++ b/drivers/w.c\n"
		"@@ -5,2 +5,14 @@\n"
		" #include <linux/w.h>\n"
		"+static DEFINE_MUTEX(added_lock);\n"
		"+int added_helper(struct widget *w, added_t v)\n"
		"+{\n"
		"+\tenum added_mode m = ADDED_MODE_B;\n"
		"+\tmutex_lock(&added_lock);\n"
		"+\tw->added_flags |= ADDED_MACRO(v);\n"
		"+\tif (!w->added_cb(w))\n"
		"+\t\tgoto added_out;\n"
		"+\tm = ADDED_MODE_A;\n"
		"+added_out:\n"
		"+\treturn m;\n"
		"+}\n"
		" \n";

	/* struct widget is the branch's (a context line opens it) */
	EXPECT_USES(diff, "widget:type u32:type DEFINE_MUTEX:call mutex_lock:call");
}

static void test_enum_piece(void **state)
{
	/* an enum constant added in a hunk that does not show the enum's
	 * opening: a line "NAME," alone is taken for one */
	EXPECT_HUNK("include/x.h",
		    " \tOLD_ONE,\n"
		    "+\tNEW_ONE,\n"
		    "+\tNEW_TWO = 5,\n"
		    " \tLAST_ONE\n"
		    " };\n",
		    "");
	/* but in a call's arguments it is a use */
	EXPECT_HUNK("drivers/x.c",
		    " \tfoo(a,\n"
		    "+\t    NEW_ARG,\n"
		    " \t    b);\n",
		    "NEW_ARG:constant");
}

static void test_macro_bodies(void **state)
{
	EXPECT_HUNK("include/x.h",
		    "+#define MAKE(n) int made_##n = PREFIX_##n + USED_IN_BODY\n"
		    "+#define NAME_OF(x) #x\n"
		    "+#define LONG_ONE(a, b)\t\\\n"
		    "+\tdo {\t\t\t\\\n"
		    "+\t\tcontinued_call(a, b);\t\\\n"
		    "+\t} while (0)\n",
		    "USED_IN_BODY:constant continued_call:call");
}

static void test_declarations(void **state)
{
	/* locals, parameters, prototypes over two lines, attributes, labels */
	EXPECT_HUNK("drivers/x.c",
		    "+static int __init\n"
		    "+setup_thing(struct thing_cfg *cfg, unsigned long flags)\n"
		    "+{\n"
		    "+\tint i, err __maybe_unused = 0;\n"
		    "+\tu8 buf[BUF_LEN] __attribute__((aligned(ALIGN_CONST)));\n"
		    "+\tfor (int k = 0; k < 3; k++)\n"
		    "+\t\terr = cfg->apply(buf, flags, i, k);\n"
		    "+\tif (err)\n"
		    "+\t\tgoto fail;\n"
		    "+\treturn 0;\n"
		    "+fail:\n"
		    "+\treturn err;\n"
		    "+}\n",
		    "__init:type thing_cfg:type u8:type BUF_LEN:constant apply:member");
	/* a product in parentheses declares nothing; a macro on the line
	 * before a definition ends its type */
	EXPECT_HUNK("drivers/x.c",
		    "+\tx = table[(row * max_cols) + COL_BASE];\n"
		    "+SEC(\"fmod_ret/hook\")\n"
		    "+int BPF_PROG(prog_fn, struct prog_ctx *hctx)\n"
		    "+{\n"
		    "+\treturn 0;\n"
		    "+}\n",
		    "COL_BASE:constant SEC:call prog_ctx:type");
}

static void test_not_c(void **state)
{
	EXPECT_HUNK("Documentation/x.rst", "+Call doc_fn(DOC_CONST) from probe.\n", "");
	EXPECT_HUNK("arch/x86/Kconfig", "+\tselect NEW_SELECT if FOO(x)\n", "");
	EXPECT_HUNK("tools/x.py", "+call_py(PY_CONST)\n", "");
}

static void test_files_and_tokens(void **state)
{
	const char *diff =
		"diff --git a/drivers/new.c b/drivers/new.c\n"
		"new file mode 100644\nindex 0000000..1111111\n"
		"--- /dev/null\n+++ b/drivers/new.c\n"
		"@@ -0,0 +1,3 @@\n"
		"+int new_fn(void)\n+{\n+\treturn OLD_CONST;\n"
		"diff --git a/drivers/gone.c b/drivers/gone.c\n"
		"deleted file mode 100644\n"
		"--- a/drivers/gone.c\n+++ /dev/null\n"
		"@@ -1,1 +0,0 @@\n"
		"-int gone_fn(void);\n"
		"diff --git a/Makefile b/Makefile\n"
		"--- a/Makefile\n+++ b/Makefile\n"
		"@@ -1 +1 @@\n-X = 1\n+X = 2\n";
	struct fs_csyms s = FS_CSYMS_INIT;

	assert_int_equal(fs_csyms_read_patch(&s, diff, strlen(diff), NULL), 0);
	assert_int_equal(s.nfiles, 3);
	assert_string_equal(s.files[0].path, "drivers/new.c");
	assert_true(s.files[0].created && !s.files[0].deleted && s.files[0].c_source);
	assert_string_equal(s.files[1].path, "drivers/gone.c");
	assert_true(!s.files[1].created && s.files[1].deleted);
	assert_string_equal(s.files[2].path, "Makefile");
	assert_false(s.files[2].c_source);
	assert_int_equal(s.nuses, 1);
	assert_string_equal(s.uses[0].name, "OLD_CONST");
	assert_string_equal(s.uses[0].file, "drivers/new.c");
	assert_int_equal(s.uses[0].line, 3);
	assert_true(fs_csyms_defines(&s, "new_fn"));
	assert_false(fs_csyms_defines(&s, "OLD_CONST"));
	assert_false(fs_csyms_defines(&s, "gone_fn"));
	assert_true(fs_csyms_has_token(&s, "new_fn"));
	assert_true(fs_csyms_has_token(&s, "OLD_CONST"));
	assert_false(fs_csyms_has_token(&s, "gone_fn"));
	assert_false(fs_csyms_has_token(&s, "void"));
	fs_csyms_clear(&s);

	/* a plain diff (no git header), a hunk line count that ends early,
	 * and no diff at all */
	EXPECT_USES("--- a/x.c\t2016-01-01\n+++ b/x.c\t2016-01-02\n@@ -1,2 +1,2 @@\n"
		    "-old();\n+plain_new();\n context();\n",
		    "plain_new:call");
	EXPECT_USES("--- a/x.c\n+++ b/x.c\n@@ -1,9 +1,9 @@\n+cut_short();\nnot a diff line()\n",
		    "cut_short:call");
	EXPECT_USES("just a changelog calling foo() and BAR\n", "");
	EXPECT_USES("", "");
}

static void test_type_tag(void **state)
{
	struct fs_csyms s = FS_CSYMS_INIT;
	char *d = diff1("x.c", "+\tunion u_thing *u;\n+\tstruct s_thing s;\n+\tfoo_t *f;\n");

	assert_int_equal(fs_csyms_read_patch(&s, d, strlen(d), NULL), 0);
	assert_int_equal(s.nuses, 3);
	assert_string_equal(s.uses[0].tag, "union");
	assert_string_equal(s.uses[1].tag, "struct");
	assert_null(s.uses[2].tag);
	fs_csyms_clear(&s);
	free(d);
}

/* ---- whole files ----------------------------------------------------------- */

struct collect {
	char buf[4096];
};

static int collect_fn(void *ctx, const char *name, size_t len)
{
	struct collect *c = ctx;

	snprintf(c->buf + strlen(c->buf), sizeof(c->buf) - strlen(c->buf), "%s%.*s",
		 c->buf[0] ? " " : "", (int)len, name);
	return 0;
}

static int stop_fn(void *ctx, const char *name, size_t len)
{
	return 7;
}

static void test_file_tokens(void **state)
{
	const char *src = "/* comment_word */ int x = 0x1fUL + 3e10 + foo_2(\"str_word\");";
	struct collect c = { "" };

	assert_int_equal(fs_csyms_each_token(src, strlen(src), collect_fn, &c), 0);
	assert_string_equal(c.buf, "comment_word int x foo_2 str_word");
	assert_int_equal(fs_csyms_each_token(src, strlen(src), stop_fn, NULL), 7);
	assert_true(fs_csyms_text_has(src, strlen(src), "foo_2"));
	assert_true(fs_csyms_text_has(src, strlen(src), "x"));
	assert_false(fs_csyms_text_has(src, strlen(src), "foo"));
	assert_false(fs_csyms_text_has(src, strlen(src), "x1fUL"));
	assert_false(fs_csyms_text_has(src, strlen(src), ""));
}

static void test_file_definitions(void **state)
{
	const char *src =
		"#define FILE_MACRO(a) (a)\n"
		"struct file_tag {\n"
		"\tint member_one;\n"
		"\tstruct { int inner_member; } nested;\n"
		"\tvoid (*member_cb)(int cb_param);\n"
		"};\n"
		"enum { ENUM_ONE, ENUM_TWO = 2 };\n"
		"typedef unsigned long file_type_t;\n"
		"static DEFINE_MUTEX(file_lock);\n"
		"int file_global = 3;\n"
		"int file_proto(int proto_param);\n"
		"#ifdef CONFIG_X\n"
		"static int file_fn(struct file_tag *fn_param)\n{\n"
		"#else\n"
		"static int file_fn(void)\n{\n"
		"#endif\n"
		"\tint local_var = ENUM_ONE;\n"
		"\tif (local_var)\n\t\tgoto out_label;\n"
		"out_label:\n"
		"\treturn other_call(local_var);\n"
		"}\n"
		"int after_fn;\n";
	struct collect c = { "" };

	assert_int_equal(fs_csyms_each_definition(src, strlen(src), collect_fn, &c), 0);
	assert_string_equal(c.buf, "FILE_MACRO file_tag member_one inner_member nested member_cb "
				   "ENUM_ONE ENUM_TWO file_type_t file_lock file_global "
				   "file_proto file_fn file_fn after_fn");
	assert_int_equal(fs_csyms_each_definition(src, strlen(src), stop_fn, NULL), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_context_and_removed),
		cmocka_unit_test(test_comments_strings),
		cmocka_unit_test(test_keywords_and_directives),
		cmocka_unit_test(test_patch_defines),
		cmocka_unit_test(test_enum_piece),
		cmocka_unit_test(test_macro_bodies),
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_not_c),
		cmocka_unit_test(test_files_and_tokens),
		cmocka_unit_test(test_type_tag),
		cmocka_unit_test(test_file_tokens),
		cmocka_unit_test(test_file_definitions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
