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
 * stays a report: the commits it names are not read here). */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/subject.h"

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
