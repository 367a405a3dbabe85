/* fixscan: a stable patch mail read with GMime: its decoded headers,
 * the first text/plain body as UTF-8, its in-body From and its changelog
 * trailers, copied into a plain struct fs_patch (mail-reader.c hands
 * the messages of a file to it one by one). */
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "fixscan/mail.h"
#include "gmime-init.h"
#include "mail-private.h"

/* How deep a MIME tree is searched for the text/plain body; deeper nesting
 * is not a patch mail but an attempt to exhaust the stack. */
#define MIME_MAX_DEPTH 32

struct fs_patch {
	char *file;
	char *message_id;
	char *subject;       /* never NULL */
	const char *title;   /* points into subject */
	char *from;
	char *author;
	char *date;
	time_t time;
	char *in_reply_to;
	GPtrArray *references; /* of char *, owned */
	char *to;
	char *cc;
	GPtrArray *headers;  /* name, value, name, value, ...: owned */
	bool has_series;
	struct fs_series series;
	char *body;          /* never NULL */
	size_t body_len;
	struct fs_trailers *tags;
	char *revert_title;  /* fs_trailers_revert_title()'s (g_free()) */
};

void fsm_mail_init(void)
{
	fs_gmime_init();
}

/* ---- small string helpers ------------------------------------------- */

/* A valid UTF-8 copy of S (invalid bytes become U+FFFD), or NULL. */
static char *dup_utf8(const char *s)
{
	if (!s)
		return NULL;
	if (g_utf8_validate(s, -1, NULL))
		return g_strdup(s);
	return g_utf8_make_valid(s, -1);
}

/* Turn tabs and line breaks into spaces, collapse runs of spaces and trim,
 * in place: folded headers read as one line. */
static void squeeze_space(char *s)
{
	char *w = s;
	bool space = false;

	for (char *r = s; *r; r++) {
		char c = *r;

		if (c == '\t' || c == '\r' || c == '\n' || c == ' ') {
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = c;
	}
	*w = '\0';
}

static bool is_blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/* ---- addresses ---------------------------------------------------------- */

/* "Name <addr>, addr2" for display: decoded, unquoted.  Returns a new
 * string, or NULL for an empty list. */
static char *format_mailboxes(InternetAddressList *list)
{
	GString *s;
	int n;

	if (!list || (n = internet_address_list_length(list)) <= 0)
		return NULL;
	s = g_string_new(NULL);
	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *name = internet_address_get_name(ia);

		if (s->len)
			g_string_append(s, ", ");
		if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *addr = internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(ia));

			if (name && *name && addr && *addr)
				g_string_append_printf(s, "%s <%s>", name, addr);
			else if (addr && *addr)
				g_string_append(s, addr);
			else if (name)
				g_string_append(s, name);
		} else {
			char *str = internet_address_to_string(ia, NULL, FALSE);

			g_string_append(s, str);
			g_free(str);
		}
	}
	if (!s->len) {
		g_string_free(s, TRUE);
		return NULL;
	}
	return g_string_free(s, FALSE);
}

/* Decode one From: value: parsed as an address when possible, else the
 * RFC 2047-decoded text.  Returns a new GLib string, or NULL. */
static char *decode_from_value(const char *value)
{
	InternetAddressList *list;
	char *s;

	list = internet_address_list_parse(NULL, value);
	s = format_mailboxes(list);
	if (list)
		g_object_unref(list);
	if (!s)
		s = g_mime_utils_header_decode_text(NULL, value);
	if (s)
		squeeze_space(s);
	if (s && !*s) {
		g_free(s);
		s = NULL;
	}
	return s;
}

/* ---- in-body From ------------------------------------------------------- */

struct line {
	const char *s;
	size_t n;   /* without the LF */
};

/* The line at *POS in BODY[0..LEN); advances *POS past it. */
static bool next_line(const char *body, size_t len, size_t *pos,
		      struct line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->s = body + *pos;
	nl = memchr(l->s, '\n', len - *pos);
	l->n = nl ? (size_t)(nl - l->s) : len - *pos;
	*pos += l->n + (nl ? 1 : 0);
	return true;
}

static bool next_nonblank(const char *body, size_t len, size_t *pos,
			  struct line *l)
{
	while (next_line(body, len, pos, l))
		if (!is_blank_line(l->s, l->n))
			return true;
	return false;
}

static bool is_dash_line(const struct line *l)
{
	size_t n = l->n, dashes = 0;

	while (n && (l->s[n - 1] == ' ' || l->s[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++) {
		if (l->s[i] != '-')
			return false;
		dashes++;
	}
	return dashes >= 2;
}

/* "4.4-stable review patch.  If anyone has any objections, ..." and the
 * "3.16.57-rc1 review patch." of other maintainers. */
static bool is_review_preamble(const struct line *l)
{
	static const char needle[] = "review patch";
	size_t k = sizeof(needle) - 1;

	for (size_t i = 0; i + k <= l->n; i++)
		if (!g_ascii_strncasecmp(l->s + i, needle, k))
			return true;
	return false;
}

static char *inbody_from_value(const struct line *l)
{
	char *raw, *value;

	if (l->n < 5 || g_ascii_strncasecmp(l->s, "from:", 5))
		return NULL;
	raw = g_strndup(l->s + 5, l->n - 5);
	value = decode_from_value(g_strstrip(raw));
	g_free(raw);
	return value;
}

char *fs_mail_inbody_from(const char *body, size_t len)
{
	struct line l;
	size_t pos = 0;

	if (!body)
		return NULL;
	fsm_mail_init();
	if (!next_nonblank(body, len, &pos, &l))
		return NULL;
	if (!is_review_preamble(&l))
		return inbody_from_value(&l);

	/* The preamble is a few lines closed by a line of dashes; only the
	 * first non-blank line after that may name the author. */
	for (int i = 0; i < 5; i++) {
		if (!next_nonblank(body, len, &pos, &l))
			return NULL;
		if (is_dash_line(&l)) {
			if (!next_nonblank(body, len, &pos, &l))
				return NULL;
			return inbody_from_value(&l);
		}
	}
	return NULL;
}

/* ---- body ------------------------------------------------------------------ */

/* The first text/plain leaf, depth first. */
static GMimeObject *find_text_plain(GMimeObject *obj, int depth)
{
	GMimeContentType *ct;

	if (!obj || depth > MIME_MAX_DEPTH)
		return NULL;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);

		for (int i = 0; i < n; i++) {
			GMimeObject *r = find_text_plain(
				g_mime_multipart_get_part(mp, i), depth + 1);

			if (r)
				return r;
		}
		return NULL;
	}
	if (!GMIME_IS_PART(obj))
		return NULL;
	ct = g_mime_object_get_content_type(obj);
	/* GMime gives a part without Content-Type the text/plain default */
	if (!ct || g_mime_content_type_is_type(ct, "text", "plain"))
		return obj;
	return NULL;
}

/* Convert DATA[0..LEN) in CHARSET to valid UTF-8.  Returns a new string. */
static char *to_utf8(const char *data, size_t len, const char *charset)
{
	char *out = NULL, *valid;
	gsize written = 0;

	/* An empty body comes as NULL: neither g_convert() nor memcpy()
	 * takes that. */
	if (!data || !len) {
		data = "";
		len = 0;
	}
	if (len && charset && g_ascii_strcasecmp(charset, "utf-8") &&
	    g_ascii_strcasecmp(charset, "utf8") &&
	    g_ascii_strcasecmp(charset, "us-ascii")) {
		const char *name = g_mime_charset_iconv_name(charset);

		out = g_convert(data, len, "UTF-8", name ? name : charset,
				NULL, &written, NULL);
	}
	if (!out) {
		out = g_malloc(len + 1);
		memcpy(out, data, len);
		out[len] = '\0';
		written = len;
	}
	/* Drop NUL bytes: the body is handled as a C string downstream. */
	if (memchr(out, '\0', written)) {
		size_t w = 0;

		for (size_t r = 0; r < written; r++)
			if (out[r])
				out[w++] = out[r];
		out[w] = '\0';
		written = w;
	}
	if (g_utf8_validate(out, written, NULL))
		return out;
	/* Undeclared or wrong charset: let GMime guess (UTF-8, then its
	 * fallback list, which ends in Latin-1), then repair what is left. */
	valid = g_mime_utils_decode_8bit(NULL, out, written);
	g_free(out);
	if (valid && !g_utf8_validate(valid, -1, NULL)) {
		char *fixed = g_utf8_make_valid(valid, -1);

		g_free(valid);
		valid = fixed;
	}
	return valid ? valid : g_strdup("");
}

/* CRLF to LF, in place; returns the new length. */
static size_t crlf_to_lf(char *s, size_t len)
{
	size_t w = 0;

	for (size_t r = 0; r < len; r++) {
		if (s[r] == '\r' && r + 1 < len && s[r + 1] == '\n')
			continue;
		s[w++] = s[r];
	}
	s[w] = '\0';
	return w;
}

static void extract_body(struct fs_patch *p, GMimeMessage *msg)
{
	GMimeObject *part = find_text_plain(g_mime_message_get_mime_part(msg), 0);
	GMimeDataWrapper *content;
	GMimeStream *mem;
	GByteArray *bytes;
	const char *charset;

	p->body = NULL;
	p->body_len = 0;
	if (part && GMIME_IS_PART(part) &&
	    (content = g_mime_part_get_content(GMIME_PART(part)))) {
		mem = g_mime_stream_mem_new();
		/* decodes the transfer encoding; a truncated base64 or
		 * quoted-printable body decodes as far as it goes */
		g_mime_data_wrapper_write_to_stream(content, mem);
		bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		charset = g_mime_object_get_content_type_parameter(part, "charset");
		if (bytes->len && (!charset || !g_ascii_strcasecmp(charset, "utf-8") ||
				   !g_ascii_strcasecmp(charset, "utf8") ||
				   !g_ascii_strcasecmp(charset, "us-ascii")) &&
		    !memchr(bytes->data, '\0', bytes->len) &&
		    g_utf8_validate((const char *)bytes->data, (gssize)bytes->len, NULL)) {
			/* What to_utf8() would return as it is: taken over
			 * rather than copied, one copy of a big body less. */
			g_byte_array_append(bytes, (const guint8 *)"", 1);
			g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
			p->body = (char *)g_byte_array_free(bytes, FALSE);
		} else {
			p->body = to_utf8((const char *)bytes->data, bytes->len, charset);
		}
		g_object_unref(mem);
		p->body_len = crlf_to_lf(p->body, strlen(p->body));
	}
	if (!p->body)
		p->body = g_strdup("");
}

/* ---- headers ---------------------------------------------------------------- */

static const char *header_value(const struct fs_patch *p, const char *name)
{
	for (guint i = 0; i + 1 < p->headers->len; i += 2)
		if (!g_ascii_strcasecmp(p->headers->pdata[i], name))
			return p->headers->pdata[i + 1];
	return NULL;
}

static void copy_headers(struct fs_patch *p, GMimeObject *obj)
{
	GMimeHeaderList *list = g_mime_object_get_header_list(obj);
	int n = list ? g_mime_header_list_get_count(list) : 0;

	for (int i = 0; i < n; i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(list, i);
		const char *name = g_mime_header_get_name(h);
		const char *value = g_mime_header_get_value(h);
		char *v;

		if (!name)
			continue;
		v = dup_utf8(value ? value : "");
		squeeze_space(v);
		g_ptr_array_add(p->headers, dup_utf8(name));
		g_ptr_array_add(p->headers, v);
	}
}

/* "<id>" to "id"; NULL when there is none. */
static char *decode_msgid(const char *value)
{
	char *id, *ret;

	if (!value)
		return NULL;
	id = g_mime_utils_decode_message_id(value);
	if (!id || !*id) {
		g_free(id);
		return NULL;
	}
	ret = dup_utf8(id);
	g_free(id);
	return ret;
}

static void parse_references(struct fs_patch *p, const char *value)
{
	GMimeReferences *refs;
	int n;

	if (!value)
		return;
	refs = g_mime_references_parse(NULL, value);
	if (!refs)
		return;
	n = g_mime_references_length(refs);
	for (int i = 0; i < n; i++) {
		const char *id = g_mime_references_get_message_id(refs, i);

		if (id && *id)
			g_ptr_array_add(p->references, dup_utf8(id));
	}
	g_mime_references_free(refs);
}

static char *address_header(GMimeMessage *msg, GMimeAddressType type,
			    const char *raw)
{
	InternetAddressList *list;
	char *s = NULL, *ret;

	if (!raw)
		return NULL;
	list = g_mime_message_get_addresses(msg, type);
	if (list && internet_address_list_length(list) > 0) {
		if (type == GMIME_ADDRESS_TYPE_FROM)
			s = format_mailboxes(list);
		else
			s = internet_address_list_to_string(list, NULL, FALSE);
	}
	/* an address GMime cannot parse still says something */
	if (!s || !*s) {
		g_free(s);
		s = g_strdup(raw);
	}
	ret = dup_utf8(s);
	g_free(s);
	squeeze_space(ret);
	return ret;
}

/* ---- building a patch ------------------------------------------------------- */

static struct fs_patch *patch_new(const char *file)
{
	struct fs_patch *p = g_new0(struct fs_patch, 1);

	p->file = g_strdup(file);
	p->references = g_ptr_array_new_with_free_func(g_free);
	p->headers = g_ptr_array_new_with_free_func(g_free);
	p->series.index = -1;
	p->series.total = -1;
	return p;
}

/* Whether MSG looks like a mail at all: GMime accepts anything, so ask for
 * one of the headers every mail and every format-patch file has. */
static bool has_mail_headers(const struct fs_patch *p)
{
	static const char *const names[] = {
		"From", "Subject", "Date", "Message-Id", "To",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (header_value(p, names[i]))
			return true;
	return false;
}

/* Undo the quoting of "From " lines an mbox applies to a message body:
 * ">From " (mboxo and mboxrd) and ">>From " (mboxrd) lose one '>'.  An
 * mboxo line that was ">From " before it was saved cannot be told from
 * a quoted one; it loses its '>' too, which is what mutt and b4 read. */
static void unquote_from_lines(char *body, size_t *len)
{
	char *r = body, *w = body, *end = body + *len;

	while (r < end) {
		char *q = r;
		char *nl = memchr(r, '\n', end - r);
		size_t n = (nl ? nl + 1 : end) - r;

		while (q < end && *q == '>')
			q++;
		if (q > r && end - q >= 5 && !memcmp(q, "From ", 5)) {
			r++;
			n--;
		}
		memmove(w, r, n);
		w += n;
		r += n;
	}
	*w = '\0';
	*len = w - body;
}

int fsm_patch_from_message(struct fs_patch **out, const char *file,
			      GMimeMessage *msg, bool mbox, struct fs_error *err)
{
	struct fs_patch *p = patch_new(file);
	GMimeObject *obj = GMIME_OBJECT(msg);
	GDateTime *date;
	const char *v;
	char *inbody;
	int rc;

	copy_headers(p, obj);
	if (!p->headers->len || !has_mail_headers(p)) {
		rc = fs_error_set(err, FS_EPARSE,
				  "not a mail message: '%s' has no headers", file);
		goto fail;
	}

	p->message_id = decode_msgid(header_value(p, "Message-Id"));
	v = g_mime_message_get_subject(msg);
	p->subject = dup_utf8(v ? v : "");
	squeeze_space(p->subject);
	p->from = address_header(msg, GMIME_ADDRESS_TYPE_FROM,
				 header_value(p, "From"));
	p->to = address_header(msg, GMIME_ADDRESS_TYPE_TO, header_value(p, "To"));
	p->cc = address_header(msg, GMIME_ADDRESS_TYPE_CC, header_value(p, "Cc"));
	p->date = g_strdup(header_value(p, "Date"));
	date = g_mime_message_get_date(msg); /* borrowed */
	p->time = date ? (time_t)g_date_time_to_unix(date) : 0;
	p->in_reply_to = decode_msgid(header_value(p, "In-Reply-To"));
	parse_references(p, header_value(p, "References"));

	p->has_series = fs_series_parse(p->subject, &p->series, &p->title);
	if (!p->has_series)
		p->title = p->subject;

	extract_body(p, msg);
	if (mbox)
		unquote_from_lines(p->body, &p->body_len);
	inbody = fs_mail_inbody_from(p->body, p->body_len);
	if (inbody) {
		p->author = g_strdup(inbody);
		g_free(inbody);
	} else {
		p->author = g_strdup(p->from);
	}

	rc = fs_trailers_parse(&p->tags, p->body, p->body_len, err);
	if (rc < 0) {
		fs_error_prefix(err, "'%s'", file);
		goto fail;
	}
	p->revert_title = fs_trailers_revert_title(p->title);
	*out = p;
	return 0;

fail:
	fs_patch_free(p);
	return rc;
}

void fs_patch_free(struct fs_patch *p)
{
	if (!p)
		return;
	g_free(p->file);
	g_free(p->message_id);
	g_free(p->subject);
	g_free(p->from);
	g_free(p->author);
	g_free(p->date);
	g_free(p->in_reply_to);
	g_ptr_array_unref(p->references);
	g_free(p->to);
	g_free(p->cc);
	g_ptr_array_unref(p->headers);
	fs_series_clear(&p->series);
	g_free(p->body);
	fs_trailers_free(p->tags);
	g_free(p->revert_title);
	g_free(p);
}

/* ---- getters ----------------------------------------------------------------- */

const char *fs_patch_file(const struct fs_patch *p) { return p->file; }
const char *fs_patch_message_id(const struct fs_patch *p) { return p->message_id; }
const char *fs_patch_subject(const struct fs_patch *p) { return p->subject; }
const char *fs_patch_title(const struct fs_patch *p) { return p->title; }
const char *fs_patch_from(const struct fs_patch *p) { return p->from; }
const char *fs_patch_author(const struct fs_patch *p) { return p->author; }
const char *fs_patch_date(const struct fs_patch *p) { return p->date; }
time_t fs_patch_time(const struct fs_patch *p) { return p->time; }
const char *fs_patch_in_reply_to(const struct fs_patch *p) { return p->in_reply_to; }
const char *fs_patch_to(const struct fs_patch *p) { return p->to; }
const char *fs_patch_cc(const struct fs_patch *p) { return p->cc; }
const struct fs_trailers *fs_patch_trailers(const struct fs_patch *p) { return p->tags; }
const char *fs_patch_revert_title(const struct fs_patch *p) { return p->revert_title; }

const char *const *fs_patch_references(const struct fs_patch *p, size_t *n)
{
	*n = p->references->len;
	return (const char *const *)p->references->pdata;
}

const char *fs_patch_header(const struct fs_patch *p, const char *name)
{
	return name ? header_value(p, name) : NULL;
}

const struct fs_series *fs_patch_series(const struct fs_patch *p)
{
	return p->has_series ? &p->series : NULL;
}

int fs_patch_set_number(struct fs_patch *p, const char *version, int index, int total)
{
	char *v = version ? g_strdup(version) : NULL;

	if (!p->has_series) {
		/* The title stays the subject: it has no prefix to skip. */
		fs_series_clear(&p->series);
		p->series.prefix = g_strdup("PATCH");
		p->has_series = true;
	}
	if (version) {
		g_free(p->series.version);
		p->series.version = v;
	}
	p->series.index = index;
	p->series.total = total;
	return 0;
}

const char *fs_patch_body(const struct fs_patch *p, size_t *len)
{
	if (len)
		*len = p->body_len;
	return p->body;
}

bool fs_patch_has_diff(const struct fs_patch *p)
{
	return p->tags && fs_trailers_has_diff(p->tags);
}
