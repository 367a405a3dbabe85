/* fixscan: a reply read with what it answers (mentions-read.h).
 *
 * The phrase rules (mentions-class.c) read a reply's own words alone.
 * Some replies say nothing by themselves and everything by what they
 * answer: a stable maintainer's "Will do, thanks!" under "please drop
 * this" drops the patch; an author's "I think not." under "is this
 * needed for 7.1?" declines it.  When the reply answers someone's reply
 * (not the posting itself), the words it quotes first are that person's,
 * and an agreement takes their class, a refusal of a question whether
 * the patch belongs declines it.  The patterns are compiled once
 * (pthread_once) and only read afterwards. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pthread.h>
#include <string.h>

#include <glib.h>
#include <pcre2.h>

#include "mentions-read.h"

enum spat {
	S_GREETING, S_YES, S_AGREE_ALL, S_AGREE_CORE, S_NO, S_NEED_Q, S_DROP_Q, S_PATCH_MARK,
	S_CONDITION, S_ELSEWHERE, S_DECLINE_Q, S_WIDEN, S_ABSENT, S_ASKS_MORE, S_OWN_TAKE, S_OFFER, S_SAME,
	S_DROPS_NOW, S_TAKES_NOW, S_AGREES, S_COUNT
};

/* The words of an agreement, each alone or in a row ("Sure, will do,
 * thanks!"); thanks and apologies may go with them. */
#define AGREE_WORD "(?:ok(?:ay)?|sure|yes|yeah|yep|yup|ack(?:ed)?|right|indeed|exactly|agreed|" \
		   "i\\s+agree|correct|done|noted|will\\s+do|makes\\s+(?:\\w+\\s+)?sense|good\\s+(?:point|catch)|" \
		   "fair\\s+enough|sounds\\s+(?:good|right|fine)|you(?:'re|\\s+are)\\s+(?:right|correct)|" \
		   "of\\s+course|absolutely|certainly|definitely|thanks(?:\\s+(?:a\\s+lot|again|much))?|" \
		   "thank\\s+you(?:\\s+(?:very\\s+much|again))?|(?:thanks|thank\\s+you)\\s+for\\s+(?:the|your|this|letting\\s+\\w+\\s+know)(?:\\s+\\w+)?|" \
		   "thx|oops|ah|oh|sorry|same\\s+here)"

static const char *const spattern_src[S_COUNT] = {
	/* a sentence that only greets or thanks: "Hi Sasha,", "Thanks Sam." */
	[S_GREETING] = "^(?:hi|hello|hey|dear|greetings)\\b[^.?!]{0,30}$|^(?:thanks|thank\\s+you|thx)\\b[^.?!,]{0,20}[.!]?$",
	/* an answer that says yes first */
	[S_YES] = "^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|right|indeed|exactly|agreed|ack|correct|absolutely)\\b",
	/* a sentence that is nothing but agreement */
	[S_AGREE_ALL] = "^(?:" AGREE_WORD "[\\s,.!;:)(-]*)+$",
	/* a word that agrees, not only thanks */
	[S_AGREE_CORE] = "\\b(?:ok(?:ay)?|sure|yes|yeah|yep|yup|ack(?:ed)?|right|indeed|exactly|agreed?|correct|"
			 "done|noted|will\\s+do|sense|point|catch|enough|sounds|of\\s+course|absolutely|"
			 "certainly|definitely|same\\s+here)\\b",
	/* an answer that says no */
	[S_NO] = "^(?:no|nope|nah)\\b(?!\\s+(?:problem|worries|objections?|issues?)\\b)|"
		 "^(?:i\\s+)?(?:think|guess|believe)\\s+not\\b|"
		 "^i\\s+(?:don'?t|do\\s+not)\\s+(?:think|believe)\\s+so\\b|^not\\s+(?:really|at\\s+all)\\b",
	/* a question whether the patch belongs in stable, or on a branch */
	[S_NEED_Q] = "\\b(?:needed|necessary|required|worth\\w*|make\\s+(?:any\\s+)?sense|suitable|relevant|"
		     "applicable|belongs?|purpose|material)\\b",
	/* a question that offers or asks to drop it */
	[S_DROP_Q] = "\\b(?:drop|dropped|dropping|revert|reverted|skip|skipped|ignore|hold\\s+(?:off|back|it))\\b",
	/* a stable maintainer's condition on taking the posting: its
	 * upstream id, that it applies, a fixed resend, the upstream
	 * commit instead, waiting for mainline or acks, newer branches
	 * first, the bug it fixes */
	[S_CONDITION] = "\\b(?:what|which)\\s+(?:is\\s+the\\s+)?(?:upstream|git|mainline)\\s+(?:git\\s+)?(?:commit|id|sha1?)\\b|"
			"\\bno\\s+(?:upstream\\s+)?(?:git\\s+)?(?:commit\\s+)?(?:id|sha1?)\\b|"
			"\\bnot\\s+(?:a\\s+valid|that|the\\s+right|a\\s+real)\\s+(?:upstream\\s+)?(?:git\\s+)?(?:commit|id|sha1?)\\b|"
			"\\b(?:sha1?s?|ids|commits)\\s+(?:don'?t|do\\s+not)\\s+match\\b|\\bnone\\s+of\\s+these\\s+sha1?s?\\b|"
			"\\bnot\\s+(?:yet\\s+)?in\\s+(?:linus'?s?|mainline|the\\s+mainline)\\b|"
			"\\b(?:doesn'?t|does\\s+not|didn'?t|did\\s+not|won'?t|will\\s+not)\\s+(?:cleanly\\s+)?apply\\b|\\bfail(?:s|ed)?\\s+to\\s+apply\\b|"
			"\\bfix(?:ed)?\\s+(?:\\w+\\s+){0,4}?up\\b[^.?]{0,40}\\b(?:re-?send|send)\\b|"
			"\\b(?:can|could|would)\\s+(?:you|someone)\\s+(?:please\\s+)?(?:re-?send|resubmit|send|fix|provide|try)\\b|"
			"\\bplease\\s+(?:just\\s+)?(?:re-?send|resubmit|send|fix|provide|try|stick|backport|rebase|redo|rework)\\b|"
			"\\b(?:fixed(?:\\s+up)?|tested|working)\\s+(?:backport|patch|version)\\b|\\bforgot\\s+to\\s+(?:sign|add)\\b|"
			"\\bwhy\\s+(?:not|can'?t\\s+we|cannot\\s+we|can\\s+we\\s+not|didn'?t\\s+you)\\b[^?]{0,80}\\b(?:take|backport|ask|use|apply|pick|add)\\w*|"
			"\\binstead\\s*\\?|\\b(?:stick|keep)\\s+to\\s+(?:what\\s+is\\s+)?(?:exactly\\s+)?(?:the\\s+)?upstream\\b|"
			"\\bkeep\\s+in\\s+sync\\s+with\\b|"
			"\\b(?:full|whole)\\s+series\\s+is\\s+(?:best|better)\\b|"
			"\\bwait\\s+(?:a\\s+(?:few|couple)|until|till)\\b|\\bonce\\s+it\\s+(?:has\\s+)?(?:lands?|landed|hits?|is\\s+in)\\b|"
			"\\buntil\\s+(?:it|that)\\s+(?:happens|hits|lands|is\\s+in)\\b|\\bsend\\s+it\\s+later\\b|\\bnothing\\s+(?:i|we)\\s+can\\s+do\\b|"
			"\\b(?:need|want)\\s+(?:some\\s+)?acks?\\b|\\bbefore\\s+i\\s+can\\s+(?:take|apply|queue|accept)\\b|"
			"\\bi'?ll\\s+stop\\s+(?:here|applying)\\b|\\bnot\\s+taking\\s+(?:any|these|this)\\b|"
			"\\bwhat\\s+(?:exactly\\s+)?is\\s+(?:being\\s+)?fixed\\b|\\bwhat\\s+(?:bug|problem|issue)\\s+(?:is|does)\\s+(?:this|it)\\b|"
			"\\b(?:don'?t|do\\s+not)\\s+(?:really\\s+)?see\\s+the\\s+\"?(?:bug|problem|issue)\\b|\\bwho\\s+(?:does\\s+)?(?:wants?|needs?)\\s+this\\b|"
			"\\bnever\\s+worked\\b|\\bupgrad\\w*\\b[^?;]{0,60}\\bregression[^?]*\\?|\\bregression\\b[^?;]{0,40}\\b(?:moves?|upgrad\\w*)\\s+to\\b[^?]*\\?",
	/* ... about another branch or on the poster's own judgement: no
	 * condition on this posting */
	[S_ELSEWHERE] = "\\bthere\\b(?!'s|\\s+(?:is|are|was|were|will|would|may|might|can|could|seems?|has|have|had)\\b)|\\bif\\s+(?:someone|anyone|it|they)\\b|\\bif\\s+you\\s+think\\b|\\bfeel\\s+free\\b|\\bbeyond\\b|"
			"\\bolder\\s+(?:kernels|trees|branches)\\b",
	/* a question whether it belongs, from someone with a say in it */
	[S_DECLINE_Q] = "\\b(?:is|are)\\s+(?:this|it|these|that|they)\\s+(?:\\w+\\s+)?(?:needed|necessary|required|stable\\s+material|"
			"appropriate|suitable|worth\\w*|a\\s+(?:real\\s+)?(?:bug\\s*)?fix)\\b|"
			"\\bwhat\\s+(?:\\w+\\s+)?(?:does|is)\\s+(?:this|it)\\s+(?:\\w+\\s+)?fix(?:ing)?\\b|\\bwhat\\s+(?:exactly\\s+)?is\\s+being\\s+fixed\\b|"
			"\\bwhat\\s+is\\s+the\\s+(?:purpose|point|reason)\\b|"
			"\\bshould\\s+(?:this|it|we)\\s+(?:really\\s+)?(?:be\\s+)?(?:drop|dropped|revert|reverted|skip|skipped)\\b",
	/* ... that asks to widen it, not to decline it */
	[S_WIDEN] = "\\b(?:also|too|as\\s+well|older|newer)\\b",
	/* the commit the patch fixes or needs is not in the branch: "the
	 * above commit, which is not in v7.1", "commit <id> isn't present in
	 * 7.1.y", "that commit only landed in 7.2" */
	[S_ABSENT] = "\\b(?:commit|[0-9a-f]{8,40})\\b[^.?;]{0,60}?(?:\\b(?:is|was)\\s+not|\\bisn'?t|\\bwasn'?t|\\bnot)\\s+"
		     "(?:yet\\s+|even\\s+)?(?:present\\s+|included\\s+|merged\\s+)?in\\s+(?:the\\s+)?(?:v?\\d+\\.\\d+|older\\s+(?:kernels|trees|branches))|"
		     "\\b(?:commit|[0-9a-f]{8,40})\\b[^.?;]{0,40}?\\bonly\\s+(?:shows\\s+up|appears?|landed|exists?|went)\\s+in\\b",
	/* ... said to ask for it or for more: a request, no refusal */
	[S_ASKS_MORE] = "\\b(?:please|also|too|as\\s+well|pick\\w*|queue\\w*|take|backport\\w*|grab|needs?|requires?|depends)\\b",
	/* a stable maintainer taking a commit himself: "I'll also grab X" */
	[S_OWN_TAKE] = "^(?:\\W*\\w+\\W+)?(?:i|we)(?:'ll|\\s+will|'ve|\\s+have|\\s+am\\s+going\\s+to)\\s+(?:also\\s+|now\\s+|just\\s+|go\\s+)?"
		       "(?:grab|grabbed|take|taken|queue|queued|pick|picked|apply|applied|backport|backported|add|added|include|included)\\b",
	/* an offer to drop it on the other's wish: nothing dropped yet */
	[S_OFFER] = "\\b(?:i|we)\\s+(?:can|could)\\s+(?:\\w+\\s+)?(?:drop|revert|skip)\\b[^.;?]*\\bif\\b|"
		    "\\bif\\s+you(?:'d|\\s+would)\\s+(?:prefer|like|rather)\\b",
	/* a pointer to what one said of another posting: "Same here.",
	 * "Same for the 7.1 one.", "Same comment as on 7.2." */
	[S_SAME] = "^(?:the\\s+)?same\\s+(?:here|again|thing)\\W*$|"
		   "^(?:the\\s+)?same\\s+(?:for|applies\\s+(?:to|for)|comment\\s+as|goes\\s+for|as\\s+(?:on|for|with))\\b[^,;:]{0,40}$",
	/* a stable maintainer dropping the patch now or holding it back,
	 * in a few words of consent first at most: "I'll drop it,
	 * thanks!", "Now dropped.", "Sure, dropped.", "I dropped it.",
	 * "Dropping it now.", "Patch dropped.", "I'll hold off on this
	 * one" (until what it waits for comes); the verb on the patch ("it", "this one", "them"), not on a
	 * tag or a hunk; not news ("it had to be dropped"), a condition or
	 * a time ("when the revert lands", "or I'll drop it"), a part
	 * ("from 5.10 only", "but keep it here") or another patch */
	[S_DROPS_NOW] = "^(?!.*\\b(?:if|unless)\\b)(?:[\\w']+[\\s,.!:;-]+){0,5}?(?:i|we)"
			"(?:'ll|\\s+will|'m|\\s+am)?\\s+(?:now\\s+|just\\s+)?hold(?:ing)?\\s+off\\b|"
			"^(?!.*\\b(?:if|unless|when|once|until|or|but|keep|kept|keeping|only|other|"
			"instead|later)\\b)(?:"
			"(?:[\\w']+[\\s,.!:;-]+){0,5}?(?:i|we)(?:'ll|\\s+will|'ve|\\s+have|'m|\\s+am)?\\s+"
			"(?:now\\s+|just\\s+|also\\s+|go\\s+(?:and\\s+)?)?"
			"(?:drop|dropped|dropping)\\s+(?:it|this(?:\\s+one|\\s+patch)?|that(?:\\s+one)?|them|"
			"these|those|both(?:\\s+of\\s+them|\\s+patches)?|the\\s+patch(?:es)?)\\b|"
			"(?:(?:sure|ok(?:ay)?|oops|ah|oh|yes|yeah|yep|ack|right|indeed|agreed|thanks|thank\\s+you|"
			"sorry|good\\s+(?:point|catch)|fair\\s+enough)[\\s,.!:;-]+){0,3}"
			"(?:(?:this|it|that|the\\s+patch|patch)(?:\\s+is|'s)?\\s+|both\\s+(?:patches\\s+)?|all\\s+)?"
			"(?:now\\s+)?dropped\\b"
			"(?!\\s+(?:by|because|as|since|in\\s+mainline|from\\s+mainline|the)\\b)|"
			"(?:(?:sure|ok(?:ay)?|thanks)[\\s,.!:;-]+){0,2}dropping\\s+(?:it|this)\\b)",
	/* a stable maintainer taking what was asked, now: "Now queued,
	 * thanks.", "I'll take it too", "All three now queued up.", "I took
	 * that one as well"; no condition, no "but", no "not" */
	[S_TAKES_NOW] = "^(?!.*(?:\\b(?:if|unless|when|once|until|but|not|only|later)\\b|n't\\b))"
			"(?:(?:sure|ok(?:ay)?|yes|yeah|yep|ack|right|thanks|thank\\s+you|great|good|done|"
			"sorry\\s+for\\s+the\\s+delay)[\\s,.!:;-]+){0,3}(?:"
			"(?:i|we)(?:'ll|\\s+will|'ve|\\s+have)?\\s+(?:now\\s+|also\\s+|just\\s+|go\\s+)?"
			"(?:take|took|taken|queue|queued|grab|grabbed|pick|picked|apply|applied)\\b|"
			"(?:(?:both|all|it|this|these|them|that)(?:\\s+\\w+)?(?:'s|\\s+is|\\s+are)?\\s+)?"
			"(?:now\\s+)?(?:queued|applied)\\b)",
	/* agreement said in a clause of its own, not first: "As the
	 * author of the patch, I agree."; none with a "but", a negation
	 * ("can't say I agree", "doubt I agree") or a question */
	[S_AGREES] = "^(?!.*(?:\\b(?:but|however|although|though|not|doubt|hardly|never)\\b|n't\\b|\\?))"
		     ".*\\b(?:i|we)\\s+(?:fully\\s+|completely\\s+|totally\\s+|do\\s+)?agree\\b"
		     "(?:\\s+with\\s+(?:you|\\w+|that|this|the\\s+above))?\\W*$",
	/* a line of a patch: the quote is the posting, not a person's words */
	[S_PATCH_MARK] = "^(?:diff --git |@@ |--- a/|\\+\\+\\+ b/|signed-off-by:|\\[ upstream commit|"
			 "commit [0-9a-f]{12,40} upstream)",
};

static pthread_once_t sonce = PTHREAD_ONCE_INIT;
static pcre2_code *spats[S_COUNT];

static void scompile_all(void)
{
	int e;
	PCRE2_SIZE off;
	size_t i;

	for (i = 0; i < S_COUNT; i++) {
		spats[i] = pcre2_compile((PCRE2_SPTR)spattern_src[i], PCRE2_ZERO_TERMINATED,
					 PCRE2_CASELESS | PCRE2_UCP | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
					 &e, &off, NULL);
		if (spats[i])
			(void)pcre2_jit_compile(spats[i], PCRE2_JIT_COMPLETE);
	}
}

static bool shas(enum spat p, const char *s, size_t len)
{
	pcre2_match_data *md;
	bool hit = false;

	pthread_once(&sonce, scompile_all);
	if (!spats[p] || !(md = pcre2_match_data_create(1, NULL)))
		return false;
	hit = pcre2_match(spats[p], (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0;
	pcre2_match_data_free(md);
	return hit;
}

/* The depth of the quote marks opening LINE (L bytes): "> > x" is 2;
 * *TEXT past them and the one blank after the last. */
static int quote_depth(const char *line, size_t l, const char **text)
{
	size_t i = 0;
	int d = 0;

	for (;;) {
		size_t k = i;
		while (k < l && line[k] == ' ')
			k++;
		if (k >= l || line[k] != '>')
			break;
		d++;
		i = k + 1;
	}
	if (d && i < l && line[i] == ' ')
		i++;
	*text = line + i;
	return d;
}

/* The words BODY quotes first, one level deep, without their marks
 * (deeper quotes keep one mark less), as a new string; NULL when there
 * are none or they are the posting (a line of its diff or trailers). */
static char *quoted_words(const char *body, size_t len)
{
	const char *p = body, *end = body + len;
	GString *q = g_string_new(NULL);
	bool patch = false, seen = false;

	while (p < end && !patch) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *t;
		int d = quote_depth(p, (size_t)(e - p), &t);

		if (d == 1) {
			patch = shas(S_PATCH_MARK, t, (size_t)(e - t));
			g_string_append_len(q, t, e - t);
			g_string_append_c(q, '\n');
			seen = true;
		} else if (d > 1) {
			/* one mark less: still a quote to the quoted words */
			const char *gt = memchr(p, '>', (size_t)(e - p));
			g_string_append_len(q, gt + 1, e - gt - 1);
			g_string_append_c(q, '\n');
		} else if (seen && e > p) {
			/* the quote ends where the replier's words start */
			break;
		}
		p = nl ? nl + 1 : end;
	}
	if (patch || !seen) {
		g_string_free(q, TRUE);
		return NULL;
	}
	return g_string_free(q, FALSE);
}

/* The words of S (LEN bytes). */
static size_t words(const char *s, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += isalnum((unsigned char)s[i]) && (i == 0 || !isalnum((unsigned char)s[i - 1]));
	return n;
}

/* The first sentence of R that says something (not a greeting), or
 * R->n. */
static size_t first_said(const struct fsmn_reading *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!shas(S_GREETING, r->cue[i], r->cuelen[i]))
			return i;
	return r->n;
}

/* Whether every sentence of R from AT on only agrees or thanks, one of
 * them in a word that agrees. */
static bool only_agrees(const struct fsmn_reading *r, size_t at)
{
	bool core = false;
	size_t i;

	if (at >= r->n)
		return false;
	for (i = at; i < r->n; i++) {
		if (!shas(S_AGREE_ALL, r->cue[i], r->cuelen[i]))
			return false;
		core |= shas(S_AGREE_CORE, r->cue[i], r->cuelen[i]);
	}
	return core;
}

/* The class of what Q (the quoted words) says, and whether one of its
 * questions asks whether the patch is needed (*NEED) or offers to drop
 * it (*DROP).  An objection asked ("Is this really needed?") is a
 * question to answer, no statement to agree with: *ASKED. */
static enum fs_reply_class quoted_class(const char *q, bool *need, bool *drop, bool *asked)
{
	struct fsmn_reading qr;
	enum fs_reply_class c;
	size_t i, at;

	fsmn_read_reply(&qr, q, strlen(q), false, NULL);
	*need = *drop = false;
	for (i = 0; i < qr.n; i++) {
		const char *s = qr.cue[i];
		size_t l = qr.cuelen[i];

		if (!l || s[l - 1] != '?')
			continue;
		*need |= shas(S_NEED_Q, s, l);
		*drop |= shas(S_DROP_Q, s, l);
	}
	c = qr.rule;
	at = qr.first[FS_REPLY_OBJECTION];
	*asked = c == FS_REPLY_OBJECTION && at < qr.n && qr.cuelen[at] && qr.cue[at][qr.cuelen[at] - 1] == '?';
	fsmn_reading_clear(&qr);
	return c;
}

/* The sentence of R that declines the posting by the replier's
 * standing (role ROLE), or R->n: a stable maintainer's condition on
 * taking it, a question whether it belongs from its author, a
 * maintainer of its code or a stable maintainer (from anyone else a
 * question is a question). */
static size_t declined_by_standing(const struct fsmn_reading *r, enum fs_reply_role role)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *s = r->cue[i];
		size_t l = r->cuelen[i];
		bool asks = l && s[l - 1] == '?';

		if (role == FS_ROLE_STABLE && shas(S_CONDITION, s, l) && !shas(S_ELSEWHERE, s, l))
			return i;
		if ((role == FS_ROLE_STABLE || role == FS_ROLE_AUTHOR || role == FS_ROLE_MAINTAINER) &&
		    asks && shas(S_DECLINE_Q, s, l) && !shas(S_WIDEN, s, l))
			return i;
		/* the code's people saying what the patch needs is not in the
		 * branch decline it; a stranger's words only inform */
		if ((role == FS_ROLE_STABLE || role == FS_ROLE_AUTHOR || role == FS_ROLE_MAINTAINER) &&
		    shas(S_ABSENT, s, l) && !shas(S_ASKS_MORE, s, l))
			return i;
	}
	return r->n;
}

/* Whether one of the first WITHIN sentences BODY (LEN bytes) says, after
 * a greeting, matches P and is no question and no offer. */
static bool says_early(const char *body, size_t len, enum spat p, size_t within)
{
	struct fsmn_reading r;
	size_t at, i;
	bool says = false;

	fsmn_read_reply(&r, body, len, false, NULL);
	at = first_said(&r);
	for (i = at; i < r.n && i < at + within && !says; i++) {
		const char *s = r.cue[i];
		size_t l = r.cuelen[i];
		says = l && s[l - 1] != '?' && shas(p, s, l) && !shas(S_OFFER, s, l);
	}
	fsmn_reading_clear(&r);
	return says;
}

bool fsmn_drops_in_answer(const char *body, size_t len)
{
	/* in its first few sentences: after thanks, sorrow or a word on
	 * how it happened ("I'm... not sure. This wasn't hand massaged.
	 * I'll drop it from everywhere.") */
	return says_early(body, len, S_DROPS_NOW, 5);
}

bool fsmn_takes_in_answer(const char *body, size_t len)
{
	return says_early(body, len, S_TAKES_NOW, 3);
}

/* Whether a sentence of R matches P. */
static bool any_sentence(const struct fsmn_reading *r, enum spat p)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (shas(p, r->cue[i], r->cuelen[i]))
			return true;
	return false;
}

void fsmn_read_standing(struct fsmn_reading *r, const char *body, size_t len,
			const struct fs_reply_context *c)
{
	enum fs_reply_class qc;
	bool need, drop, yes, no, agrees, asked;
	size_t at;
	char *q;

	/* a stable maintainer who names a commit to take and takes it
	 * himself asks nobody for anything */
	if (r->rule == FS_REPLY_NEEDS_ALSO && c->role == FS_ROLE_STABLE &&
	    (at = r->first[FS_REPLY_NEEDS_ALSO]) < r->n && shas(S_OWN_TAKE, r->cue[at], r->cuelen[at])) {
		r->rule = FS_REPLY_OTHER;
		return;
	}

	/* a reply with a class of its own keeps it; but trouble a stable
	 * maintainer names with a condition is the reason the posting is
	 * not taken ("they broke the build, please send ones that build") */
	if (r->rule != FS_REPLY_OTHER && r->rule != FS_REPLY_NONE &&
	    !((r->rule == FS_REPLY_REPORT || r->rule == FS_REPLY_NEEDS_ALSO) && c->role == FS_ROLE_STABLE))
		return;
	/* the code's people repeating, in a word, what they said of
	 * another posting of the series: on a stable posting that word is
	 * a refusal (approvals come as tags, and a tag is read as such) */
	if ((c->role == FS_ROLE_STABLE || c->role == FS_ROLE_AUTHOR || c->role == FS_ROLE_MAINTAINER) &&
	    !c->answers_reply && !r->ack && r->rule == FS_REPLY_OTHER && (at = first_said(r)) < r->n &&
	    r->n - at <= 2 && shas(S_SAME, r->cue[at], r->cuelen[at])) {
		r->rule = FS_REPLY_OBJECTION;
		r->first[r->rule] = at;
		return;
	}
	if ((at = declined_by_standing(r, c->role)) < r->n) {
		r->rule = FS_REPLY_OBJECTION;
		r->first[r->rule] = at;
		return;
	}
	if (r->rule == FS_REPLY_REPORT || r->rule == FS_REPLY_NEEDS_ALSO || !c->answers_reply ||
	    (at = first_said(r)) >= r->n)
		return;
	/* what it quotes is what it answers; a reply that quotes nothing
	 * (or not with marks) answers the whole mail, when it is in hand */
	if (!(q = quoted_words(body, len)) && c->answered_body)
		q = g_strndup(c->answered_body, c->answered_len);
	if (!q)
		return;
	qc = quoted_class(q, &need, &drop, &asked);
	g_free(q);
	agrees = only_agrees(r, at);
	/* "Yes I would.", "Agreed, this does not belong in stable": a yes
	 * first; the poster's long "OK, here is the new version" complies
	 * with a condition, it drops nothing */
	yes = agrees || (shas(S_YES, r->cue[at], r->cuelen[at]) &&
			 (c->role != FS_ROLE_AUTHOR || words(r->cue[at], r->cuelen[at]) <= 4)) ||
	      (shas(S_AGREES, r->cue[at], r->cuelen[at]) && words(r->cue[at], r->cuelen[at]) <= 10);
	no = shas(S_NO, r->cue[at], r->cuelen[at]);
	if (yes && qc == FS_REPLY_OBJECTION && !asked && c->role != FS_ROLE_OTHER &&
	    !any_sentence(r, S_OFFER)) {
		/* "Will do" to "please drop it": the drop agreed; a
		 * stranger's "yes" adds no say to it, and "I can drop it if
		 * you prefer" drops nothing yet */
		r->rule = qc;
	} else if (agrees && (qc == FS_REPLY_REPORT || qc == FS_REPLY_NEEDS_ALSO) && c->role != FS_ROLE_STABLE) {
		/* the author owns the trouble or the missing commit; a stable
		 * maintainer's "done" answers the request, nothing is left */
		r->rule = qc;
	} else if ((yes && drop) || (no && need)) {
		/* "Yes" to "shall I drop it?", "No" to "is this needed?" */
		r->rule = FS_REPLY_OBJECTION;
	} else {
		return;
	}
	r->first[r->rule] = at;
}
