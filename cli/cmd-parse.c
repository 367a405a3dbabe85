/* fixscan parse: print the headers and changelog tags of patch mails.
 *
 * Each FILE is one message or an mbox; each message gives one block of
 * text, or with --json one JSON object on one line.  A file that cannot be
 * read is reported on stderr and skipped; the exit status says whether any
 * was.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/json.h"
#include "fixscan/report.h"

#include "cli.h"
#include "fixscan/text.h"
#include "fixscan/mail.h"
#include "fixscan/trailers.h"

static const char usage_text[] =
	"usage: fixscan parse [--json] FILE...\n"
	"\n"
	"Print the headers, series prefix and changelog tags of each message\n"
	"in each FILE (a single mail, a git format-patch file or an mbox;\n"
	"'-' reads standard input).\n"
	"\n"
	"    --json      one JSON object per message, one per line\n"
	"    -h, --help  show this help\n";

/* ---- JSON ------------------------------------------------------------- */

static void json_str(struct fs_json *b, const char *key, const char *value)
{
	fs_json_member(b, key);
	if (value)
		fs_json_add_str(b, value);
	else
		fs_json_add_null(b);
}

static void json_int_or_null(struct fs_json *b, const char *key, int value)
{
	fs_json_member(b, key);
	if (value >= 0)
		fs_json_add_int(b, value);
	else
		fs_json_add_null(b);
}

static void json_refs(struct fs_json *b, const char *key,
		      const struct fs_trailer_ref *refs, size_t n)
{
	fs_json_member(b, key);
	fs_json_begin_array(b);
	for (size_t i = 0; i < n; i++) {
		fs_json_begin_object(b);
		json_str(b, "id", refs[i].id);
		json_str(b, "subject", refs[i].subject);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
}

static void json_series(struct fs_json *b, const struct fs_series *s)
{
	fs_json_member(b, "series");
	if (!s) {
		fs_json_add_null(b);
		return;
	}
	fs_json_begin_object(b);
	json_str(b, "prefix", s->prefix);
	fs_json_member(b, "autosel");
	fs_json_add_bool(b, s->autosel);
	json_str(b, "version", s->version);
	fs_json_member(b, "versions");
	fs_json_begin_array(b);
	for (char **v = s->versions; v && *v; v++)
		fs_json_add_str(b, *v);
	fs_json_end_array(b);
	fs_json_member(b, "version_range");
	fs_json_add_bool(b, s->version_range);
	json_int_or_null(b, "revision", s->revision > 0 ? s->revision : -1);
	json_int_or_null(b, "index", s->index);
	json_int_or_null(b, "total", s->total);
	fs_json_end_object(b);
}

static void json_tags(struct fs_json *b, const struct fs_trailers *t)
{
	const char *const *up;
	const struct fs_trailer_ref *refs;
	const struct fs_trailer_revert *rev;
	const struct fs_trailer_cc_stable *cc;
	size_t n;

	up = fs_trailers_upstream(t, &n);
	fs_json_member(b, "upstream");
	fs_json_begin_array(b);
	for (size_t i = 0; i < n; i++)
		fs_json_add_str(b, up[i]);
	fs_json_end_array(b);

	refs = fs_trailers_fixes(t, &n);
	json_refs(b, "fixes", refs, n);

	rev = fs_trailers_reverts(t, &n);
	fs_json_member(b, "reverts");
	fs_json_begin_array(b);
	for (size_t i = 0; i < n; i++) {
		fs_json_begin_object(b);
		json_str(b, "id", rev[i].id);
		json_str(b, "upstream", rev[i].upstream);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);

	refs = fs_trailers_stable_dep_of(t, &n);
	json_refs(b, "stable_dep_of", refs, n);

	cc = fs_trailers_cc_stable(t, &n);
	fs_json_member(b, "cc_stable");
	fs_json_begin_array(b);
	for (size_t i = 0; i < n; i++) {
		fs_json_begin_object(b);
		json_str(b, "versions", cc[i].versions);
		json_str(b, "prerequisite", cc[i].prerequisite);
		fs_json_end_object(b);
	}
	fs_json_end_array(b);
}

static void print_json(const struct fs_patch *p)
{
	struct fs_json *b = fs_json_new();
	const char *const *refs;
	size_t n;

	fs_json_begin_object(b);
	fs_json_int(b, "format_version", FS_JSON_FORMAT_VERSION);
	json_str(b, "file", fs_patch_file(p));
	json_str(b, "message_id", fs_patch_message_id(p));
	json_str(b, "subject", fs_patch_subject(p));
	json_str(b, "title", fs_patch_title(p));
	json_str(b, "from", fs_patch_from(p));
	json_str(b, "author", fs_patch_author(p));
	json_str(b, "date", fs_patch_date(p));
	json_str(b, "in_reply_to", fs_patch_in_reply_to(p));
	refs = fs_patch_references(p, &n);
	fs_json_member(b, "references");
	fs_json_begin_array(b);
	for (size_t i = 0; i < n; i++)
		fs_json_add_str(b, refs[i]);
	fs_json_end_array(b);
	json_series(b, fs_patch_series(p));
	json_tags(b, fs_patch_trailers(p));
	json_str(b, "revert_title", fs_patch_revert_title(p));
	fs_json_member(b, "has_diff");
	fs_json_add_bool(b, fs_patch_has_diff(p));
	fs_json_rfc3339(b, "date_rfc3339", fs_patch_date(p));
	fs_json_end_object(b);

	fs_json_print_line(b, stdout);
	fs_json_free(b);
}

/* ---- text ------------------------------------------------------------- */

static void print_field(FILE *out, const char *name, const char *value)
{
	fprintf(out, "  %-14s %s\n", name, value ? value : "(none)");
}

static void print_ref(FILE *out, const char *name, const struct fs_trailer_ref *r)
{
	if (r->subject)
		fprintf(out, "  %-14s %s (\"%s\")\n", name, r->id, r->subject);
	else
		fprintf(out, "  %-14s %s\n", name, r->id);
}

static void print_text(FILE *out, const struct fs_patch *p, bool first)
{
	const struct fs_trailers *t = fs_patch_trailers(p);
	const struct fs_series *s = fs_patch_series(p);
	const char *const *list;
	const struct fs_trailer_ref *refs;
	const struct fs_trailer_revert *rev;
	const struct fs_trailer_cc_stable *cc;
	size_t n;

	if (!first)
		fputc('\n', out);
	if (fs_patch_message_id(p))
		fprintf(out, "message <%s>\n", fs_patch_message_id(p));
	else
		fprintf(out, "message (no message-id)\n");
	print_field(out, "file:", fs_patch_file(p));
	print_field(out, "subject:", fs_patch_subject(p));
	print_field(out, "from:", fs_patch_from(p));
	print_field(out, "author:", fs_patch_author(p));
	print_field(out, "date:", fs_patch_date(p));
	print_field(out, "in-reply-to:", fs_patch_in_reply_to(p));
	list = fs_patch_references(p, &n);
	if (!n)
		print_field(out, "references:", NULL);
	for (size_t i = 0; i < n; i++)
		print_field(out, "references:", list[i]);
	if (s) {
		fprintf(out, "  %-14s prefix \"%s\"", "series:", s->prefix);
		if (s->version)
			fprintf(out, ", version %s", s->version);
		if (s->revision > 0)
			fprintf(out, ", v%d", s->revision);
		if (s->index >= 0)
			fprintf(out, ", %d/%d", s->index, s->total);
		if (s->autosel)
			fprintf(out, ", autosel");
		fputc('\n', out);
	} else {
		print_field(out, "series:", NULL);
	}

	list = fs_trailers_upstream(t, &n);
	for (size_t i = 0; i < n; i++)
		print_field(out, "upstream:", list[i]);
	refs = fs_trailers_fixes(t, &n);
	for (size_t i = 0; i < n; i++)
		print_ref(out, "fixes:", &refs[i]);
	rev = fs_trailers_reverts(t, &n);
	for (size_t i = 0; i < n; i++) {
		if (rev[i].upstream)
			fprintf(out, "  %-14s %s (upstream %s)\n", "reverts:",
			       rev[i].id, rev[i].upstream);
		else
			print_field(out, "reverts:", rev[i].id);
	}
	refs = fs_trailers_stable_dep_of(t, &n);
	for (size_t i = 0; i < n; i++)
		print_ref(out, "stable-dep-of:", &refs[i]);
	cc = fs_trailers_cc_stable(t, &n);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  %-14s %s", "cc-stable:",
		       cc[i].versions ? cc[i].versions : "(any)");
		if (cc[i].prerequisite)
			fprintf(out, " (prerequisite %s)", cc[i].prerequisite);
		fputc('\n', out);
	}
	if (fs_patch_revert_title(p))
		print_field(out, "revert-title:", fs_patch_revert_title(p));
	print_field(out, "has-diff:", fs_patch_has_diff(p) ? "yes" : "no");
}

/* ---- command ------------------------------------------------------------ */

/* The text of P with control characters shown visibly: mail headers
 * reach the terminal. */
static void print_visible(const struct fs_patch *p, bool first)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	print_text(mem, p, first);
	if (fclose(mem) == 0)
		fs_text_fputs(buf, true, stdout);
	free(buf);
}

/* Report ERR for FILE as "fixscan: FILE: ...": the library names the file
 * in its own words, the prefix makes each line start the same way. */
static void file_error(const char *file, struct fs_error *err)
{
	size_t n = strlen(file);

	if (strncmp(err->message, file, n) || strncmp(err->message + n, ": ", 2))
		fs_error_prefix(err, "%s", file);
	cli_error(err);
	fs_error_clear(err);
}

static int parse_file(const char *file, bool json, bool *first,
		      struct fs_error *err)
{
	struct fs_mail_reader *r;
	struct fs_patch *p;
	int rc;

	rc = fs_mail_reader_open(&r, file, err);
	if (rc < 0)
		return rc;
	while ((rc = fs_mail_reader_next(r, &p, err)) > 0) {
		if (json)
			print_json(p);
		else
			print_visible(p, *first);
		*first = false;
		fs_patch_free(p);
	}
	fs_mail_reader_free(r);
	return rc;
}

int cmd_parse(int argc, char **argv, struct fs_error *err)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, first = true, failed = false;
	int c;

	/* opterr 0: the usage error is worded here, once */
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return FS_EXIT_CLEAN;
		default:
			if (optopt)
				return cli_usage_error(argv[0], "unknown option '-%c'",
						       optopt);
			return cli_usage_error(argv[0], "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error(argv[0], "no FILE given");

	for (int i = optind; i < argc; i++) {
		if (parse_file(argv[i], json, &first, err) < 0) {
			file_error(argv[i], err);
			failed = true;
		}
	}
	return failed ? FS_EXIT_TROUBLE : FS_EXIT_CLEAN;
}
