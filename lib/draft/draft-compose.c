/* fixscan: composing one draft reply with GMime: the template filled
 * in, the headers (To the sender, Cc the others, threading), no I/O.
 *
 * Text that comes from mail (subjects, names, addresses, ids, dates) is
 * passed through fs_text_clean_line() or fs_text_clean_id() before it
 * goes anywhere near a header, so a CR or LF in it can never start a
 * header of its own.  Nothing here reads or writes a file or runs a
 * program: saving is fixscan/drafts.h's business.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "draft-private.h"
#include "mail/gmime-init.h"

/* ---- the template --------------------------------------------------------- */

/* The variables of a draft template, in the order fixscan-config(5)
 * lists them. */
enum tvar { TV_QUOTE, TV_FINDINGS, TV_GREETING, TV_NAME, TV_EMAIL, TV_SIGNATURE,
	    TV_SUBJECT, TV_AUTHOR, TV_PATCH, TV_BRANCH, TV_COUNT };

static const char *const tvar_name[TV_COUNT] = {
	"quote", "findings", "greeting", "name", "email", "signature",
	"subject", "author", "patch", "branch",
};

static const char default_template[] =
	"${quote}\n"
	"\n"
	"${findings}\n"
	"\n"
	"Thanks,\n"
	"${signature}\n";

/* The variable named by NAME (LEN bytes), or -1. */
static int tvar_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < TV_COUNT; i++)
		if (strlen(tvar_name[i]) == len && !strncmp(tvar_name[i], name, len))
			return i;
	return -1;
}

/* Expand TMPL with VALS into OUT (may be NULL: only checked).  Returns 0,
 * or FS_EUSAGE with ERR naming the unknown variable and its line. */
static int expand_template(GString *out, const char *tmpl, const char *const *vals,
			   struct fs_error *err)
{
	const char *p;
	int line = 1;
	bool findings = false;

	for (p = tmpl; *p; p++) {
		const char *e;
		int v;

		if (*p == '\n')
			line++;
		if (*p != '$' || (p[1] != '{' && p[1] != '$')) {
			if (out)
				g_string_append_c(out, *p);
			continue;
		}
		if (p[1] == '$') { /* "$$" is a dollar sign */
			if (out)
				g_string_append_c(out, '$');
			p++;
			continue;
		}
		e = strchr(p + 2, '}');
		if (!e || memchr(p + 2, '\n', e - p - 2))
			return fs_error_set(err, FS_EUSAGE, "line %d: '${' without its '}'", line);
		if ((v = tvar_lookup(p + 2, e - p - 2)) < 0)
			return fs_error_set(err, FS_EUSAGE,
					    "line %d: unknown variable ${%.*s} (known: ${quote}, ${findings}, ${greeting}, ${name}, ${email}, ${signature}, ${subject}, ${author}, ${patch}, ${branch})",
					    line, (int)(e - p - 2 > 40 ? 40 : e - p - 2), p + 2);
		findings |= v == TV_FINDINGS;
		if (out && vals[v])
			g_string_append(out, vals[v]);
		p = e;
	}
	if (!findings)
		return fs_error_set(err, FS_EUSAGE, "it has no ${findings}: the drafts would say nothing");
	return 0;
}

int fs_draft_template_check(const char *tmpl, struct fs_error *err)
{
	return expand_template(NULL, tmpl, NULL, err);
}

/* S without the newlines at its end (in place). */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* "Hi Greta," for the author of P: the first word of the name. */
static char *greeting(const struct fs_patch *p)
{
	char *name, *addr, *sp, *ret;

	fs_text_split_mailbox(fs_patch_from(p), &name, &addr);
	if ((sp = strchr(name, ' ')))
		*sp = '\0';
	ret = *name ? g_strdup_printf("Hi %s,", name) : g_strdup("Hi,");
	g_free(name);
	g_free(addr);
	return ret;
}

/* The whole body of a reply to ORIG: QUOTE and FINDINGS (no newline at
 * their ends) put into the template of O (or the default one), with
 * the close.  NUMBER is "03/27".  New string ending in one newline, or
 * NULL with ERR set for a bad template. */
char *fsd_fill_body(const struct fs_review *r, const struct fs_patch *orig,
		    const struct fs_identity *me, const struct fs_draft_opts *o,
		    const char *number, char *quote, char *findings, struct fs_error *err)
{
	const char *vals[TV_COUNT];
	char *name = fs_text_clean_line(me->name), *email = fs_text_clean_id(me->email);
	char *sig = o && o->signature ? chomp(g_strdup(o->signature)) : NULL;
	char *subject = fs_text_clean_line(fs_patch_subject(orig));
	char *author = fsd_display_name(fs_patch_from(orig)), *hi = greeting(orig);
	char *branch = fs_text_clean_line(r->branch);
	GString *out = g_string_new(NULL);
	int rc;

	vals[TV_QUOTE] = chomp(quote);
	vals[TV_FINDINGS] = chomp(findings);
	vals[TV_GREETING] = hi;
	vals[TV_NAME] = *name ? name : (email ? email : "");
	vals[TV_EMAIL] = email ? email : "";
	vals[TV_SIGNATURE] = sig && *sig ? sig : vals[TV_NAME];
	vals[TV_SUBJECT] = subject;
	vals[TV_AUTHOR] = author;
	vals[TV_PATCH] = number;
	vals[TV_BRANCH] = branch;
	rc = expand_template(out, o && o->template_text ? o->template_text : default_template,
			     vals, err);
	chomp(out->str);
	out->len = strlen(out->str);
	/* an empty value at the top (no quote) leaves no blank lines */
	while (out->len && out->str[0] == '\n')
		g_string_erase(out, 0, 1);
	g_string_append_c(out, '\n');
	g_free(name);
	g_free(email);
	g_free(sig);
	g_free(subject);
	g_free(author);
	g_free(hi);
	g_free(branch);
	if (rc < 0) {
		fs_error_prefix(err, "draft template");
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

/* ---- composing ------------------------------------------------------------ */

static bool same_addr(const char *a, const char *b)
{
	return a && b && !g_ascii_strcasecmp(a, b);
}

/* Whether A is an address a reply can go to: printable ASCII without
 * spaces or the characters that delimit addresses, one '@' with text on
 * both sides. */
static bool valid_addr(const char *a)
{
	const char *at = a ? strchr(a, '@') : NULL;

	if (!at || at == a || !at[1] || strchr(at + 1, '@'))
		return false;
	for (; *a; a++) {
		unsigned char c = (unsigned char)*a;

		if (c <= 0x20 || c >= 0x7f || strchr("<>()[],;:\\\"", c))
			return false;
	}
	return true;
}

/* The first mailbox of the address list TEXT (groups flattened) with a
 * valid address: its cleaned name and address (new strings), or false. */
static bool first_mailbox(const char *text, char **name, char **addr)
{
	InternetAddressList *list = text && *text ? internet_address_list_parse(NULL, text) : NULL;
	int i, n = list ? internet_address_list_length(list) : 0;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *a;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			char *members = internet_address_list_to_string(
				internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)), NULL, FALSE);
			found = first_mailbox(members, name, addr);
			g_free(members);
			continue;
		}
		a = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
		if (!valid_addr(a))
			continue;
		*name = fs_text_clean_line(internet_address_get_name(ia));
		*addr = g_strdup(a);
		found = true;
	}
	if (list)
		g_object_unref(list);
	return found;
}

/* Add the mailboxes of LIST (groups flattened) to DST, skipping any
 * address in SKIP (a hash set of lower-case addresses), which grows with
 * each one added so nobody is named twice. */
static void add_addresses(InternetAddressList *dst, InternetAddressList *list,
			  GHashTable *skip)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			add_addresses(dst, internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)),
				      skip);
		} else if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
			char *a, *name, *lower;
			InternetAddress *mb;

			/* Junk is left out, not cleaned into another address. */
			if (!valid_addr(addr))
				continue;
			a = g_strdup(addr);
			lower = g_ascii_strdown(a, -1);
			if (g_hash_table_contains(skip, lower)) {
				g_free(lower);
				g_free(a);
				continue;
			}
			g_hash_table_add(skip, lower);
			name = fs_text_clean_line(internet_address_get_name(ia));
			mb = internet_address_mailbox_new(*name ? name : NULL, a);
			internet_address_set_charset(mb, "utf-8");
			internet_address_list_add(dst, mb);
			g_object_unref(mb);
			g_free(name);
			g_free(a);
		}
	}
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Parse a decoded address list as fs_patch_to/cc give it. */
static InternetAddressList *parse_list(const char *s)
{
	return s && *s ? internet_address_list_parse(NULL, s) : NULL;
}

/* From: ME (MYNAME, MYADDR); To: the sender of ORIG; Cc: everyone else
 * the mail went to.  Nobody gets their own reply, and an address that
 * cannot be parsed is left out: never a header of junk.  Returns 0, or
 * FS_EPARSE when there is nobody to send the reply to. */
static int set_addresses(GMimeMessage *msg, const struct fs_patch *orig, const char *myname,
			 const char *myaddr, const char *orig_id, const char *extra_cc,
			 struct fs_error *err)
{
	InternetAddressList *extra;
	GHashTable *skip = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	InternetAddressList *to_list, *cc_list, *cc;
	InternetAddress *mb;
	char *sname = NULL, *saddr = NULL;
	int rc = 0;

	mb = internet_address_mailbox_new(*myname ? myname : NULL, myaddr);
	internet_address_set_charset(mb, "utf-8");
	internet_address_list_add(g_mime_message_get_from(msg), mb);
	g_object_unref(mb);
	g_hash_table_add(skip, g_ascii_strdown(myaddr, -1));
	if (!first_mailbox(fs_patch_from(orig), &sname, &saddr)) {
		sname = g_strdup("");
		saddr = g_strdup("");
	}
	if (*saddr && !same_addr(saddr, myaddr)) {
		mb = internet_address_mailbox_new(*sname ? sname : NULL, saddr);
		internet_address_set_charset(mb, "utf-8");
		internet_address_list_add(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), mb);
		g_object_unref(mb);
	}
	if (*saddr)
		g_hash_table_add(skip, g_ascii_strdown(saddr, -1));
	to_list = parse_list(fs_patch_to(orig));
	cc_list = parse_list(fs_patch_cc(orig));
	cc = g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC);
	add_addresses(cc, to_list, skip);
	add_addresses(cc, cc_list, skip);
	/* the people whose mail the reply cites: a reporter is told */
	if ((extra = parse_list(extra_cc))) {
		add_addresses(cc, extra, skip);
		g_object_unref(extra);
	}
	if (!*saddr && !internet_address_list_length(cc)) {
		rc = fs_error_set(err, FS_EPARSE,
				  "cannot reply to <%s>: no address in its From, To or Cc can be parsed",
				  orig_id);
	} else if (!*saddr) {
		/* No sender to answer: the reply goes to the first of the
		 * others. */
		mb = internet_address_list_get_address(cc, 0);
		g_object_ref(mb);
		internet_address_list_remove_at(cc, 0);
		internet_address_list_add(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), mb);
		g_object_unref(mb);
	}
	if (to_list)
		g_object_unref(to_list);
	if (cc_list)
		g_object_unref(cc_list);
	g_hash_table_destroy(skip);
	g_free(sname);
	g_free(saddr);
	return rc;
}

/* In-Reply-To: ORIG_ID; References: ORIG's and ORIG_ID. */
static void set_threading(GMimeMessage *msg, const struct fs_patch *orig, const char *orig_id)
{
	GString *refs = g_string_new(NULL);
	const char *const *r;
	char *hdr = g_strdup_printf("<%s>", orig_id);
	size_t nr, i;

	g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", hdr, NULL);
	g_free(hdr);
	r = fs_patch_references(orig, &nr);
	for (i = 0; i < nr; i++) {
		char *id = fs_text_clean_id(r[i]);

		if (id && strcmp(id, orig_id))
			g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", id);
		g_free(id);
	}
	g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", orig_id);
	g_mime_object_set_header(GMIME_OBJECT(msg), "References", refs->str, NULL);
	g_string_free(refs, TRUE);
}

/* BODY as the message's text part, UTF-8 whatever it holds:
 * g_mime_text_part_set_text would pick ISO-8859-1 for text that fits
 * it, and recode. */
static void set_body(GMimeMessage *msg, const char *body)
{
	GMimeTextPart *part = g_mime_text_part_new_with_subtype("plain");
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	GMimeDataWrapper *wrapper = g_mime_data_wrapper_new_with_stream(stream,
									GMIME_CONTENT_ENCODING_DEFAULT);
	GMimeContentType *ctype;
	GMimeContentEncoding enc;

	g_mime_part_set_content(GMIME_PART(part), wrapper);
	ctype = g_mime_object_get_content_type(GMIME_OBJECT(part));
	g_mime_content_type_set_parameter(ctype, "charset", "utf-8");
	/* For an 8-bit channel GMime only says when an encoding is needed
	 * (quoted-printable for lines over 998 bytes, base64 for NULs);
	 * otherwise it answers "default", and the header must still say
	 * 8bit when the text is not ASCII. */
	enc = g_mime_part_get_best_content_encoding(GMIME_PART(part),
						    GMIME_ENCODING_CONSTRAINT_8BIT);
	if (enc == GMIME_CONTENT_ENCODING_DEFAULT)
		enc = is_ascii(body) ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_8BIT;
	g_mime_part_set_content_encoding(GMIME_PART(part), enc);
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));
	g_object_unref(wrapper);
	g_object_unref(stream);
	g_object_unref(part);
}

int fs_draft_compose(struct fs_draft *out, const struct fs_patch *orig,
		     const struct fs_identity *me, const char *key,
		     const char *label, const char *body, time_t now,
		     struct fs_error *err)
{
	return fsd_compose(out, orig, me, key, label, body, NULL, now, err);
}

int fsd_compose(struct fs_draft *out, const struct fs_patch *orig,
		const struct fs_identity *me, const char *key, const char *label,
		const char *body, const char *extra_cc, time_t now, struct fs_error *err)
{
	GMimeMessage *msg;
	GDateTime *date;
	char *orig_id, *subject, *ckey, *myname, *myaddr;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	fs_gmime_init();
	orig_id = fs_text_clean_id(fs_patch_message_id(orig));
	if (!orig_id)
		return fs_error_set(err, FS_EPARSE, "cannot reply to '%s': it has no Message-Id",
				    fs_patch_subject(orig));
	ckey = fs_text_clean_line(key);
	msg = g_mime_message_new(TRUE);
	/* The identity may not come from fs_identity_pick: clean it too. */
	myname = fs_text_clean_line(me->name);
	myaddr = fs_text_clean_id(me->email);
	if (!myaddr)
		rc = fs_error_set(err, FS_EUSAGE, "no address to send the reply to '%s' from", orig_id);
	else
		rc = set_addresses(msg, orig, myname, myaddr, orig_id, extra_cc, err);
	if (rc < 0)
		goto out;
	subject = fs_draft_reply_subject(fs_patch_subject(orig));
	g_mime_message_set_subject(msg, subject, "utf-8");
	g_free(subject);
	out->message_id = fsd_new_message_id(myaddr, now);
	g_mime_message_set_message_id(msg, out->message_id);
	date = g_date_time_new_from_unix_local(now);
	g_mime_message_set_date(msg, date);
	g_date_time_unref(date);
	set_threading(msg, orig, orig_id);
	/* The key and digest stay out of the mail: it goes to a public list
	 * under the reviewer's name.  fixscan/drafts.h remembers them. */
	out->digest = fs_draft_digest(body, strlen(body));
	set_body(msg, body);
	out->text = g_mime_object_to_string(GMIME_OBJECT(msg), NULL);
	out->len = out->text ? strlen(out->text) : 0;
	out->key = g_strdup(ckey);
	out->label = fs_text_clean_line(label);
	if (!out->text)
		rc = fs_error_set(err, FS_ENOMEM, "cannot compose the reply to '%s'", orig_id);
out:
	if (rc < 0)
		fs_draft_clear(out);
	g_object_unref(msg);
	g_free(myname);
	g_free(myaddr);
	g_free(ckey);
	g_free(orig_id);
	return rc;
}

void fs_draft_clear(struct fs_draft *d)
{
	if (!d)
		return;
	g_free(d->key);
	g_free(d->label);
	g_free(d->message_id);
	g_free(d->digest);
	g_free(d->text);
	memset(d, 0, sizeof(*d));
}

void fs_drafts_clear(struct fs_drafts *d)
{
	size_t i;
	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		fs_draft_clear(&d->v[i]);
	g_free(d->v);
	d->v = NULL;
	d->n = 0;
}
