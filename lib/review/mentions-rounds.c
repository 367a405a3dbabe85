/* fixscan: replies to an earlier round of the same review, read as
 * replies (see fixscan/mentions.h).
 *
 * The store search for regression reports (fs_mentions_reports()) finds
 * every mail outside the thread that names an upstream commit of the
 * series in words of trouble.  An answer to the same patch in an earlier
 * round of this branch's review ("Re: [PATCH 4.4 07/27] ..." while -rc2
 * is reviewed) is such a mail, but it is a reply, not a report: "Please
 * drop this, it breaks the build" objects, and calling it a regression
 * report would have the draft ask whether upstream fixed it.  So those
 * mails are classified as the replies of the thread are, and the ones
 * that object or post a replacement move from the reports to the
 * replies, at the patch of their commit (one asking for more commits
 * stays a report: the commits it names are not read here).
 *
 * The earlier rounds' own threads, when the session found them, are
 * read whole (fs_mentions_earlier_thread()): what their replies asked of
 * a patch this round carries too still asks, whichever words it used,
 * unless a stable maintainer answered it there; and the user's own
 * replies there are kept as said before, so that the draft does not ask
 * as if for the first time. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/subject.h"
#include "mentions-read.h"

/* Whether SUBJECT answers a patch posted for kernel series VERSION
 * ("Re: [PATCH 4.4 07/27] ..." for "4.4"). */
static bool answers_posting_of(const char *subject, const char *version)
{
	struct fs_series p;
	bool yes;

	if (!subject || !version || g_ascii_strncasecmp(subject, "Re:", 3) ||
	    !fs_series_parse(subject, &p, NULL))
		return false;
	yes = p.version && !strcmp(p.version, version) && p.index > 0;
	fs_series_clear(&p);
	return yes;
}

/* The class and sentence of the mail at FILENAME, read as a reply; -1
 * when it cannot be read. */
static int classify_file(const char *filename, enum fs_reply_class *cls, char **line)
{
	struct fs_patch *mail = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t len = 0;
	const char *body;

	*line = NULL;
	if (fs_patch_parse_file(&mail, filename, &err) < 0 || !mail)
		return -1;
	body = fs_patch_body(mail, &len);
	*line = fs_mentions_classify(body ? body : "", body ? len : 0, cls);
	fs_patch_free(mail);
	return 0;
}

/* Move report K of M to the replies, as class CLS said by LINE (taken:
 * M's storage behind the records keeps it). */
static int move_to_replies(struct fs_mentions *m, size_t k, enum fs_reply_class cls, char *line,
			   int index, struct fs_error *err)
{
	const struct fs_report_mail *r = &m->reports[k];
	struct fs_objection o = {
		.series_index = index, .message_id = r->message_id, .from = r->from,
		.date = r->date, .line = line ? line : "", .cls = cls, .link = r->link,
	};

	if (fs_mentions_add_posted(m, &o, 1, err) < 0) {
		g_free(line);
		return err->code;
	}
	m->lines_[m->nobjections - 1] = line;
	memmove(&m->reports[k], &m->reports[k + 1], (m->nreports - k - 1) * sizeof(*m->reports));
	m->nreports--;
	return 0;
}

/* The one patch of S titled TITLE, or NULL (none, or several). */
static const struct fs_patch *titled(const struct fs_thread_series *s, const char *title)
{
	const struct fs_patch *one = NULL;
	size_t i;

	for (i = 0; title && *title && i < s->npatches; i++) {
		if (g_strcmp0(fs_patch_title(s->patches[i]), title))
			continue;
		if (one)
			return NULL;
		one = s->patches[i];
	}
	return one;
}

/* The number of the patch of S that is patch NN of EARLIER: the one of
 * that title in each round, or -1.  Two patches of one title (a
 * duplicate posted twice) are told apart by nothing here: the round
 * that dropped one of them left no way to say which, and a reply to the
 * dropped copy must not land on the kept one. */
static int same_patch(const struct fs_thread_series *s, const struct fs_thread_series *earlier,
		      int nn)
{
	const struct fs_patch *was = NULL, *now;
	size_t i;

	for (i = 0; i < earlier->npatches && !was; i++)
		if (fs_thread_patch_number(earlier->patches[i]) == nn)
			was = earlier->patches[i];
	if (!was || titled(earlier, fs_patch_title(was)) != was ||
	    !(now = titled(s, fs_patch_title(was))))
		return -1;
	return fs_thread_patch_number(now);
}

/* The patch of EARLIER that REPLY answers, itself or through a reply to
 * it; NULL for the cover or a reply to it (the earlier round's cover is
 * answered about that round, its build and its tests). */
static const struct fs_patch *answered_patch(const struct fs_thread_series *earlier,
					     const struct fs_patch *reply)
{
	const struct fs_patch *p = fs_thread_replied_patch(earlier, reply);

	return p != earlier->cover ? p : NULL;
}

/* Whether REPLY, a reply of EARLIER, is a stable maintainer's (by
 * SENDERS, the review's senders and the known ones) or one a stable
 * maintainer answered there: either way the earlier round settled it,
 * or the stable maintainer knows of it ("Now queued", "fixed it up",
 * "No, it is needed"), and the new round is what came of that. */
static bool settled_in(const struct fs_thread_series *earlier, const struct fs_patch *reply,
		       const char *const *senders)
{
	const char *mid = fs_patch_message_id(reply);
	struct fs_reply_context c;
	size_t i;

	fs_mentions_reply_context(&c, reply, NULL, senders);
	if (c.role == FS_ROLE_STABLE)
		return true;
	for (i = 0; mid && i < earlier->nreplies; i++) {
		if (g_strcmp0(fs_patch_in_reply_to(earlier->replies[i]), mid))
			continue;
		fs_mentions_reply_context(&c, earlier->replies[i], NULL, senders);
		if (c.role == FS_ROLE_STABLE)
			return true;
	}
	return false;
}

/* Whether M's replies from FIRST on hold a drop not kept at patch NN. */
static bool unkept_at(const struct fs_mentions *m, size_t first, size_t end, int nn)
{
	size_t i;

	for (i = first; i < end; i++)
		if (m->objections[i].unkept && m->objections[i].series_index == nn)
			return true;
	return false;
}

/* Take M's reports of the mail MID away: it is read as a reply. */
static void drop_reports_of(struct fs_mentions *m, const char *mid)
{
	size_t k = 0;

	while (k < m->nreports) {
		if (m->reports[k].message_id && !strcmp(m->reports[k].message_id, mid)) {
			memmove(&m->reports[k], &m->reports[k + 1],
				(m->nreports - k - 1) * sizeof(*m->reports));
			m->nreports--;
		} else {
			k++;
		}
	}
}

/* Add to M the user's own sent replies (by OWN) in EARLIER to a patch S
 * carries too, at that patch of S, as said before: class "other", OWN
 * set, the first sentence of their own.  Returns 0 or FS_ENOMEM. */
static int add_own(struct fs_mentions *m, const struct fs_thread_series *s,
		   const struct fs_thread_series *earlier, const char *const *own,
		   struct fs_error *err)
{
	size_t i;

	for (i = 0; own && i < earlier->nreplies; i++) {
		const struct fs_patch *reply = earlier->replies[i], *p;
		struct fs_objection o;
		enum fs_reply_class cls;
		const char *body;
		size_t len;
		int nn;

		/* an unsent draft in that thread was never said */
		if (!fs_identity_is_own_address(fs_patch_from(reply), own) ||
		    fs_identity_is_draft_file(fs_patch_file(reply)) || !(p = answered_patch(earlier, reply)) ||
		    (nn = same_patch(s, earlier, fs_thread_patch_number(p))) < 0 ||
		    fsmn_cited(m->objections, m->nobjections, fs_patch_message_id(reply)))
			continue;
		memset(&o, 0, sizeof(o));
		body = fs_patch_body(reply, &len);
		o.line = fs_mentions_classify(body ? body : "", body ? len : 0, &cls);
		o.series_index = nn;
		o.message_id = fs_patch_message_id(reply);
		o.from = fs_patch_from(reply);
		o.date = fs_patch_date(reply);
		o.cls = FS_REPLY_OTHER;
		o.round = earlier->release;
		o.own = true;
		if (!o.line)
			o.line = g_strdup("");
		if (fs_mentions_add_posted(m, &o, 1, err) < 0) {
			g_free((char *)o.line);
			return err->code;
		}
		m->lines_[m->nobjections - 1] = (char *)o.line;
	}
	return 0;
}

int fs_mentions_earlier_thread(struct fs_mentions *m, const struct fs_thread_series *s,
			       const struct fs_thread_series *earlier, const char *const *own,
			       const struct fs_reply_standing *standing, struct fs_error *err)
{
	size_t first = m->nobjections, i, kept;
	char **senders;

	if (!earlier || earlier == s)
		return 0;
	if (fs_mentions_objections(m, earlier, own, standing, err) < 0)
		return err->code;
	senders = fsmn_stable_senders(earlier, standing ? standing->stable : NULL);
	for (i = kept = first; i < m->nobjections; i++) {
		struct fs_objection o = m->objections[i];
		const struct fs_patch *reply = fsmn_reply_by_id(earlier, o.message_id);
		char *line = m->lines_[i];
		/* his word there that the patch is dropped, and this round
		 * still carries it: said, once, where it stands */
		bool unkept = o.settle == FS_SETTLE_DROPPED;
		int nn = o.series_index > 0 && reply && answered_patch(earlier, reply) &&
			 (unkept || !settled_in(earlier, reply, (const char *const *)senders)) ?
			 same_patch(s, earlier, o.series_index) : -1;
		struct fs_objection *had = fsmn_cited(m->objections, first, o.message_id);

		if (unkept && nn >= 0 && unkept_at(m, first, kept, nn))
			nn = -1;

		/* the store's search found it already: say whose thread */
		if (had && nn >= 0 && !had->round)
			had->round = earlier->release;
		/* a reply to the earlier cover spoke of that round, even when
		 * its words name a patch; one to a patch this round does not
		 * carry was answered by dropping it; one the stable maintainer
		 * answered (or his own) is settled */
		if (nn < 0 || had ||
		    (o.cls != FS_REPLY_OBJECTION && o.cls != FS_REPLY_REPORT &&
		     o.cls != FS_REPLY_NEEDS_ALSO && o.cls != FS_REPLY_REPLACEMENT)) {
			g_free(line);
			g_strfreev(o.named);
			continue;
		}
		drop_reports_of(m, o.message_id);
		if (unkept) {
			o.cls = FS_REPLY_OBJECTION;
			o.settle = FS_SETTLE_NONE;
			o.settled_by = NULL;
			o.unkept = true;
		}
		o.round = earlier->release;
		o.series_index = nn;
		o.absent_index = 0;
		m->objections[kept] = o;
		m->lines_[kept] = line;
		kept++;
	}
	m->nobjections = kept;
	g_strfreev(senders);
	return add_own(m, s, earlier, own, err);
}

int fs_mentions_earlier_rounds(struct fs_mentions *m, const struct fs_thread_series *s,
			       int (*place)(void *data, fs_cid c), void *data,
			       struct fs_error *err)
{
	size_t k = 0, h;

	while (k < m->nreports) {
		const struct fs_report_mail *r = &m->reports[k];
		const char *file = NULL;
		enum fs_reply_class cls = FS_REPLY_NONE;
		char *line = NULL;
		int index;

		for (h = 0; h < m->hits_.n && !file; h++)
			if (m->hits_.v[h].message_id == r->message_id)
				file = m->hits_.v[h].filename;
		if (!file || !answers_posting_of(r->subject, s->version) ||
		    (index = place(data, r->upstream)) < 0 || classify_file(file, &cls, &line) < 0 ||
		    (cls != FS_REPLY_OBJECTION && cls != FS_REPLY_REPLACEMENT)) {
			g_free(line);
			k++;
			continue;
		}
		if (move_to_replies(m, k, cls, line, index, err) < 0)
			return err->code;
	}
	return 0;
}
