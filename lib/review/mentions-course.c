/* fixscan: what the thread's later course says of a reply (mentions-read.h).
 *
 * A reply's own words are not all the evidence fixscan has: the thread
 * holds the answers to it.  A stable maintainer who answers a reply by
 * dropping the patch ("I'll drop it, thanks!") read it as an objection,
 * however its words put it ("This backport makes me upset.", "Ekhm.");
 * and the stable maintainers answer in the same few words on every list,
 * where the objections themselves take a new form on each.  What his
 * answer did is also kept (fs_objection.settle): a patch he dropped, or
 * commits he took, ask for nothing more in this round. */
#include <string.h>

#include <glib.h>

#include "mentions-read.h"

/* Whether the mail of S whose Message-Id is MID is a stable
 * maintainer's (by SENDERS or the known ones). */
static bool by_stable(const struct fs_thread_series *s, const char *mid, const char *const *senders)
{
	const struct fs_patch *p = fsmn_reply_by_id(s, mid);
	struct fs_reply_context c;

	if (!p)
		return false;
	fs_mentions_reply_context(&c, p, NULL, senders);
	return c.role == FS_ROLE_STABLE;
}

void fsmn_read_course(struct fs_objection *ov, size_t n, const struct fs_thread_series *s,
		      const char *const *senders)
{
	size_t i;

	for (i = 0; i < s->nreplies; i++) {
		const struct fs_patch *answer = s->replies[i];
		struct fs_objection *o = fsmn_cited(ov, n, fs_patch_in_reply_to(answer));
		struct fs_objection *own = fsmn_cited(ov, n, fs_patch_message_id(answer));
		struct fs_reply_context c;
		const char *body;
		size_t len;
		bool drops, takes;

		fs_mentions_reply_context(&c, answer, NULL, senders);
		if (c.role != FS_ROLE_STABLE)
			continue;
		body = fs_patch_body(answer, &len);
		drops = fsmn_drops_in_answer(body, len);
		takes = !drops && fsmn_takes_in_answer(body, len);
		/* his word that the patch is dropped is no objection to
		 * raise with him: it settles the patch */
		if (drops && own) {
			own->settle = FS_SETTLE_DROPPED;
			own->settled_by = fs_patch_from(answer);
		}
		if (!o || by_stable(s, o->message_id, senders))
			continue;
		/* a request for commits he answered by taking them is met */
		if (takes && o->cls == FS_REPLY_NEEDS_ALSO) {
			o->settle = FS_SETTLE_TAKEN;
			o->settled_by = fs_patch_from(answer);
		}
		/* a reply that asked nothing by its words is an objection
		 * when he drops the patch in answer to it (a report or a
		 * request for more commits stays what it is); his own
		 * question answered by his drop is his decision, said
		 * already where he made it */
		if (drops && o->cls == FS_REPLY_OTHER)
			o->cls = FS_REPLY_OBJECTION;
	}
}
