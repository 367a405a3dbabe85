/* fixscan: who wrote a reply and what it answers (mentions.h): the
 * replier's role to the patch, the kind of mail it answers, and what it
 * quotes of it.  The words of a reply say less than who says them: "is
 * this needed?" from the patch's author declines it, from anyone else it
 * is a question.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "fixscan/mentions.h"
#include "mentions-read.h"

/* The stable maintainers who post review and AUTOSEL series and answer
 * them, besides whoever sent the series being read. */
static const char *const known_stable[] = {
	"gregkh@linuxfoundation.org", "greg@kroah.com", "sashal@kernel.org",
};

/* Words in a From that only test farms and bots use. */
static const char *const bot_words[] = {
	"lkft", "kernelci", "bot@", "robot", "noreply", "no-reply", "ci_notify",
	"ci-notify", "test-report", "build-report", "patchwork", "lkp@",
};

/* The address of FROM ("Name <a@b>" or "a@b"), lower case, into BUF (N
 * bytes); "" when none fits. */
static const char *address(const char *from, char *buf, size_t n)
{
	const char *lt = from ? strrchr(from, '<') : NULL, *gt, *a = from;
	size_t len, i;

	buf[0] = '\0';
	if (!from)
		return buf;
	if (lt && (gt = strchr(lt, '>'))) {
		a = lt + 1;
		len = (size_t)(gt - a);
	} else {
		while (*a == ' ')
			a++;
		len = strlen(a);
		while (len && a[len - 1] == ' ')
			len--;
	}
	if (!len || len >= n || !memchr(a, '@', len))
		return buf;
	for (i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)a[i]);
	buf[len] = '\0';
	return buf;
}

static bool same_address(const char *from, const char *addr)
{
	char buf[256];

	return *addr && !strcmp(address(from, buf, sizeof(buf)), addr);
}

/* Whether ADDR signs, acks or reviews in BODY (LEN bytes): one of the
 * people of the change (its maintainers among them). */
static bool signs_text(const char *body, size_t len, const char *addr)
{
	static const char *const tags[] = { "signed-off-by:", "acked-by:", "reviewed-by:" };
	size_t k;
	const char *q, *end;

	if (!body || !*addr)
		return false;
	end = body + len;
	for (q = body; q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *e = nl ? nl : end;

		for (k = 0; k < G_N_ELEMENTS(tags); k++) {
			size_t tl = strlen(tags[k]);
			char line[512];

			if ((size_t)(e - q) <= tl || g_ascii_strncasecmp(q, tags[k], tl) ||
			    (size_t)(e - q) >= sizeof(line))
				continue;
			memcpy(line, q + tl, (size_t)(e - q) - tl);
			line[e - q - tl] = '\0';
			if (same_address(line, addr))
				return true;
		}
		q = e + 1;
	}
	return false;
}

/* Whether ADDR signs, acks or reviews the patch P in its own body. */
static bool signs(const struct fs_patch *p, const char *addr)
{
	size_t len = 0;
	const char *body = p ? fs_patch_body(p, &len) : NULL;

	return signs_text(body, len, addr);
}

void fs_mentions_context_signers(struct fs_reply_context *c, const struct fs_patch *reply,
				 const char *text, size_t len)
{
	char addr[256];

	if (c->role == FS_ROLE_OTHER && reply &&
	    signs_text(text, len, address(fs_patch_from(reply), addr, sizeof(addr))))
		c->role = FS_ROLE_MAINTAINER;
}

/* Whether LIST (a decoded To or Cc, may be NULL) names ADDR. */
static bool in_list(const char *list, const char *addr)
{
	char **v, **e;
	bool found = false;

	if (!list || !*addr)
		return false;
	v = g_strsplit(list, ",", -1);
	for (e = v; *e && !found; e++)
		found = same_address(*e, addr);
	g_strfreev(v);
	return found;
}

/* Whether the posting PARENT was addressed to ADDR by name: the mail
 * of one patch that the stable scripts (AUTOSEL, a review patch) or a
 * backporter send goes to the upstream commit's people (its author,
 * signers, the Cc: of its trailers); a cover goes to testers as well,
 * and a list's address is nobody's (a list that rewrites its
 * senders' From gives its own). */
static bool addressed(const struct fs_patch *parent, enum fs_reply_parent kind, const char *addr)
{
	const char *at = strchr(addr, '@');

	if (kind != FS_PARENT_AUTOSEL && kind != FS_PARENT_REVIEW && kind != FS_PARENT_BACKPORT)
		return false;
	if (!at || strstr(addr, "list") || !strncmp(at, "@vger.", 6) || !strncmp(addr, "stable@", 7))
		return false;
	return in_list(fs_patch_to(parent), addr) || in_list(fs_patch_cc(parent), addr);
}

static bool is_bot(const char *from)
{
	char *low = g_ascii_strdown(from ? from : "", -1);
	bool bot = false;
	size_t k;

	for (k = 0; k < G_N_ELEMENTS(bot_words) && !bot; k++)
		bot = strstr(low, bot_words[k]) != NULL;
	g_free(low);
	return bot;
}

enum fs_reply_parent fs_mentions_parent_kind(const struct fs_patch *parent)
{
	const struct fs_series *s = parent ? fs_patch_series(parent) : NULL;
	const char *subject = parent ? fs_patch_subject(parent) : NULL;
	size_t len;
	const char *body = parent ? fs_patch_body(parent, &len) : NULL;

	if (!parent)
		return FS_PARENT_NONE;
	if (subject && !g_ascii_strncasecmp(subject, "FAILED:", 7))
		return FS_PARENT_FAILED;
	if (!s)
		return FS_PARENT_OTHER;
	if (s->autosel)
		return FS_PARENT_AUTOSEL;
	if (s->index == 0 && s->total > 0)
		return FS_PARENT_COVER;
	/* The stable scripts open each patch of a review with this line. */
	if (body && g_strstr_len(body, len < 400 ? (gssize)len : 400, "stable review patch"))
		return FS_PARENT_REVIEW;
	return s->version || s->versions ? FS_PARENT_BACKPORT : FS_PARENT_OTHER;
}

/* Whether ADDR is a stable maintainer's: a known one, or the sender of
 * mail the stable scripts post (STABLE_SENDERS, may be NULL). */
static bool is_stable(const char *addr, const char *const *stable_senders)
{
	size_t k;

	for (k = 0; k < G_N_ELEMENTS(known_stable); k++)
		if (!strcmp(addr, known_stable[k]))
			return true;
	for (; stable_senders && *stable_senders; stable_senders++)
		if (!g_ascii_strcasecmp(addr, *stable_senders))
			return true;
	return false;
}

/* What the quoted lines of BODY are: a hunk of the patch, its Fixes:
 * line, its upstream line. */
static void read_quotes(struct fs_reply_context *c, const char *body, size_t len)
{
	const char *q = body, *end = body + len;

	while (q && q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *e = nl ? nl : end, *t = q;

		if (*q == '>') {
			/* the quote marks, and the one space after them */
			while (t < e && *t == '>')
				t++;
			if (t < e && *t == ' ')
				t++;
			if (((size_t)(e - t) >= 2 && !strncmp(t, "@@", 2)) ||
			    ((size_t)(e - t) >= 10 && !strncmp(t, "diff --git", 10)))
				c->quotes_hunk = true;
			else if (t < e && (*t == '+' || *t == '-') &&
				 !((size_t)(e - t) >= 3 && (!strncmp(t, "---", 3) || !strncmp(t, "+++", 3))))
				c->quotes_hunk = true;
			else if ((size_t)(e - t) >= 6 && !g_ascii_strncasecmp(t, "fixes:", 6))
				c->quotes_fixes = true;
			else if (((size_t)(e - t) >= 7 && !strncmp(t, "commit ", 7) &&
				  g_strstr_len(t, e - t, " upstream")) ||
				 ((size_t)(e - t) >= 10 && !strncmp(t, "[ Upstream", 10)))
				c->quotes_upstream = true;
		}
		q = nl ? nl + 1 : NULL;
	}
}

void fs_mentions_reply_context(struct fs_reply_context *out, const struct fs_patch *reply,
			       const struct fs_patch *parent, const char *const *stable_senders)
{
	char addr[256];
	const char *from = reply ? fs_patch_from(reply) : NULL;
	const char *body;
	size_t len = 0;

	memset(out, 0, sizeof(*out));
	out->parent = fs_mentions_parent_kind(parent);
	address(from, addr, sizeof(addr));
	if (is_bot(from))
		out->role = FS_ROLE_BOT;
	else if (*addr && is_stable(addr, stable_senders))
		out->role = FS_ROLE_STABLE;
	else if (parent && *addr && same_address(fs_patch_author(parent), addr))
		out->role = FS_ROLE_AUTHOR;
	/* A developer's own backport posting, or the cover of their
	 * series of backports: its sender is its author. */
	else if (parent && (out->parent == FS_PARENT_BACKPORT || out->parent == FS_PARENT_COVER) &&
		 same_address(fs_patch_from(parent), addr))
		out->role = FS_ROLE_AUTHOR;
	else if (signs(parent, addr) || addressed(parent, out->parent, addr))
		out->role = FS_ROLE_MAINTAINER;
	else
		out->role = FS_ROLE_OTHER;
	body = reply ? fs_patch_body(reply, &len) : NULL;
	if (body)
		read_quotes(out, body, len);
	/* In-Reply-To another mail than the posting in hand */
	if (reply && fs_patch_in_reply_to(reply))
		out->answers_reply = !parent || !fs_patch_message_id(parent) ||
				     strcmp(fs_patch_in_reply_to(reply), fs_patch_message_id(parent));
}

const char *fs_mentions_role_name(enum fs_reply_role role)
{
	static const char *const names[FS_ROLE_COUNT] = {
		[FS_ROLE_OTHER] = "other", [FS_ROLE_AUTHOR] = "author",
		[FS_ROLE_MAINTAINER] = "maintainer", [FS_ROLE_STABLE] = "stable",
		[FS_ROLE_BOT] = "bot",
	};

	return (unsigned)role < FS_ROLE_COUNT ? names[role] : "other";
}

const char *fs_mentions_parent_name(enum fs_reply_parent kind)
{
	static const char *const names[FS_PARENT_COUNT] = {
		[FS_PARENT_NONE] = "none", [FS_PARENT_OTHER] = "other",
		[FS_PARENT_AUTOSEL] = "autosel", [FS_PARENT_REVIEW] = "review-patch",
		[FS_PARENT_COVER] = "review-cover", [FS_PARENT_BACKPORT] = "backport",
		[FS_PARENT_FAILED] = "failed-notice",
	};

	return (unsigned)kind < FS_PARENT_COUNT ? names[kind] : "other";
}

const struct fs_patch *fsmn_reply_by_id(const struct fs_thread_series *s, const char *mid)
{
	size_t i;

	for (i = 0; mid && i < s->nreplies; i++)
		if (fs_patch_message_id(s->replies[i]) && !strcmp(fs_patch_message_id(s->replies[i]), mid))
			return s->replies[i];
	return NULL;
}

struct fs_objection *fsmn_cited(struct fs_objection *ov, size_t n, const char *mid)
{
	size_t i;

	for (i = 0; mid && i < n; i++)
		if (ov[i].message_id && !strcmp(ov[i].message_id, mid))
			return &ov[i];
	return NULL;
}
