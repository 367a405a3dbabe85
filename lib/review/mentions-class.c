/* fixscan: what a reply to a patch says, read sentence by sentence.
 *
 * Only the replier's own words count: quoted text, attributions,
 * trailers, the signature, a patch the reply carries and a commit pasted
 * in (indented, "commit <id>" then "Author:") are left out.  Each sentence
 * is then matched against forms of four things a reply may say (it needs
 * other commits, it reports trouble, it objects, it is an approval that
 * only uses an alarming word), with negation read in its clause.  The
 * patterns are compiled once (pthread_once) and only read afterwards. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>
#include <pcre2.h>

#include "mentions-private.h"
#include "mentions-read.h"

/* A sentence longer than this is no sentence: cut it. */
#define SENTENCE_MAX 1000

/* Words that undo a trouble word after them in the same clause; the
 * first PLAIN_NEGATIONS undo any word, the rest only trouble ("fixes
 * the crash"). */
#define PLAIN_NEGATIONS 8
static const char *const negations[] = {
	"no", "not", "without", "never", "nor", "none", "nothing", "neither",
	"zero", "0", "fix", "fixes", "fixed", "fixing", "avoid", "avoids",
	"prevent", "prevents", "known", "already", "existing", "pre-existing",
	"any", "unlikely",
};

enum pat {
	/* objections */
	P_NAK, P_DONT_TAKE, P_NOT_MATERIAL, P_NOT_NEEDED, P_NO_NEED, P_NOT_FIX,
	P_DROP, P_REVERTED, P_ADVISE_NOT, P_BAD_PATCH, P_NEG_STABLE, P_NOT_A_FIX, P_APPROVAL,
	P_CONDITIONAL, P_AUTOMATED, P_EITHER, P_CHALLENGE, P_WITHDRAWN, P_ALREADY_IN, P_HEDGE, P_UNDOCUMENTED, P_NOT_WORK,
	P_NOT_FOR_STABLE, P_TAKE_INSTEAD,
	/* reports */
	P_BUILD, P_STATED, P_NEW_VERSION, P_TRACE, P_TROUBLE, P_PERSISTS, P_MOTIVE, P_REGRESSION, P_BISECT, P_DETECTED,
	/* needs-also */
	P_ALSO, P_WITHOUT, P_REQUIRES, P_NOT_PORTED, P_SERIES, P_FOLLOWING,
	P_REF, P_STRONG_REF, P_NAMES_MISSING, P_WORTH_UNLESS, P_WHY_NOT_ALSO, P_TAKE_NAMED, P_REQUEST, P_ASK_FORM, P_WIDEN, P_DROP_REQUEST, P_ASKS, P_MODAL, P_IF_OPEN, P_THIS,
	P_TAKE_THIS, P_PLEASE, P_BECAUSE, P_NAMES_PLACE,
	P_COUNT
};

#define VERB_TAKE "(?:merge[sd]?|push(?:ed)?|appl(?:y|ied)|queue[sd]?|tak(?:e|en)|pick(?:ed)?|" \
		  "backport(?:ed)?|includ(?:e|ed)|go|be (?:in|part of)|use|have\\s+(?:this|it|these|that)|" \
		  "pull(?:ed)?|port(?:ed)?|cherry-?pick(?:ed)?|bring|picking|taking|applying|queu(?:e)?ing|backporting|including|merging)"
/* a negation, with or without its apostrophe ("dont"), but not any
 * word that ends in "nt" ("current", "enablement", "important") */
#define NEG "(?:n't\\b|\\b(?:do|does|did|is|are|was|were|ca|wo|should|would|could|must|need|have|has|had)nt\\b|" \
	    "\\bnot\\b|\\bno\\b|\\bdoubt\\b)"
#define REF_HEX "\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,40}\\b"
#define REF_STRONG REF_HEX "|\\(\"[^\"]{6,}\"\\)|\"[^\"]{12,}\"|https?://|\\[PATCH|\\[\\d{1,2}\\]"

static const char *const pattern_src[P_COUNT] = {
	[P_NAK] = "\\bna(?:c?k|cked|ked)(?:-by)?\\b",
	[P_DONT_TAKE] = "\\b(?:please\\s+)?(?:don'?t|do\\s+not|shouldn'?t|should\\s+not|must\\s+not|"
			"won'?t|will\\s+not|need\\s+not|wouldn'?t|would\\s+not|(?<=we\\s|\\bi\\s|you\\s)(?:can\\s+not|cannot|can'?t))\\s+(?!(?:see|know|mind|care|remember)\\b)(?:[\\w.-]+\\s+){0,4}?"
			VERB_TAKE "\\b",
	[P_NOT_MATERIAL] = "(?:\\bnot\\b|n't\\b|\\bnever\\b)[^.]{0,60}\\b(?:stable|-stable)\\s+(?:material|candidate)",
	[P_NOT_NEEDED] = "\\b(?:not|isn'?t|aren'?t|wasn'?t|no\\s+longer)\\s+(?:\\w+\\s+)?"
			 "(?:needed|necessary|required|suitable|appropriate|relevant|applicable|valuable|"
			 "worth|a\\s+good\\s+(?:candidate|idea))\\b"
			 /* "no longer needed in recent kernels" speaks of other trees */
			 "(?!\\s+(?:any\\s*more\\s+)?(?:in|for|on)\\s+(?:the\\s+)?(?:recent|newer|later|current|mainline|upstream)\\b)|"
			 "\\b(?:doesn'?t|does\\s+not)\\s+seem\\s+(?:to\\s+be\\s+)?(?:necessary|needed|required)\\b",
	[P_NO_NEED] = "\\bno\\s+(?:need|reason)\\s+(?:to\\s+(?:backport|take|apply|queue|pick|have|put|include|carry|"
		      "merge|add)|for\\s+(?:this|it|that)\\s+in)\\b|"
		      "\\b(?:doesn'?t|does\\s+not|don'?t|do\\s+not)\\s+need\\s+to\\s+be\\s+(?:backported|applied|queued|in)\\b",
	[P_NOT_FIX] = "\\b(?:doesn'?t|does\\s+not|won'?t|will\\s+not|didn'?t|did\\s+not)\\s+(?:\\w+\\s+){0,2}?"
		      "fix\\s+(?:a|any|anything|the|an|[\\w-]+\\s+bugs?)\\b|"
		      "\\b(?:don'?t|do\\s+not|doesn'?t|does\\s+not|shouldn'?t|should\\s+not)\\s+need\\s+(?:this|it|that|these)\\b|"
		      "\\b(?:don'?t|do\\s+not)\\s+think\\s+[^.,;]{0,30}?\\b(?:need|needed|necessary|worth)\\b|"
		      "\\bnot\\s+a\\s+valid\\s+(?:git\\s+)?(?:id|sha1?|commit)\\b|\\bnot\\s+(?:a|an\\s+actual|a\\s+real)\\s+(?:bug\\s*)?fix\\b|"
		      "\\b(?:there\\s+(?:was|is)\\s+)?no\\s+(?:actual\\s+|known\\s+|real\\s+)?bug\\b|\\bnot\\s+a\\s+bug\\b",
	[P_DROP] = "\\b(?:drop|revert)\\s+(?:this|it|that|these|them|the\\s+(?:patch|commit|change|backport))\\b"
		   "(?!\\s+(?:comment|line|lines|hunk|check|call|part|sentence|paragraph|text|wording|word|bit|"
		   "variable|field|code|tag|label|hack|workaround|flag|test|condition|chunk|function|macro|assert\\w*)\\b)|"
		   "\\b(?:can|could|should|must|needs?\\s+to)\\s+(?:\\w+\\s+)?be\\s+(?:dropped|reverted|removed)\\s+from\\b|"
		   "\\b(?:consider|suggest|recommend)\\s+(?:dropping|reverting|skipping)\\b|"
		   "\\b(?:propose|suggest|please|should|can|could)\\s+(?:to\\s+)?skip\\s+(?:this|it|that)\\b|"
		   "\\bplease\\s+(?:redo|rework|resubmit)\\b|"
		   "\\b(?:we|i)\\s+(?:can'?t|cannot|can\\s+not)\\s+(?:just\\s+)?(?:take|apply|queue|accept)\\b|"
		   "\\bplease,?\\s+ignore\\s+(?:this|it)\\b|"
		   "\\bplease\\s+(?:drop|revert)\\b|\\bshould\\s+(?:be\\s+)?(?:dropped|reverted)\\b",
	[P_EITHER] = "\\beither\\b[^.]{0,120}\\bor\\b",
	/* a question that challenges the patch's place in stable: why it
	 * was picked, what it is needed for, where its upstream id is */
	[P_CHALLENGE] = "^(?:\\W*\\w+\\W{1,4})?why\\b(?![^?]*(?:\\bnot\\b|n't\\b|\\bonly\\b))[^?]{0,80}?\\b(?:stable|-stable|backport\\w*|pick\\w*|select\\w*|"
			"autosel\\w*|needed|need|queue\\w*|submit\\w*|sen[dt]|resen[dt]|add(?:ed)?|apply|applied|tak(?:e|en)|v?\\d+\\.\\d+)|"
			"^(?:what|how)\\b[^?]{0,40}?\\b(?:reason|end\\s+up|ended\\s+up)\\b[^?]{0,60}?\\b(?:stable|autosel|backport\\w*|candidate|queue\\w*)|"
			"^(?:so\\s+)?are\\s+you\\s+(?:really\\s+)?sure\\b|^is\\s+this\\s+really\\b|"
			"^(?:doesn'?t|does|won'?t|wouldn'?t|will|would)\\s+(?:this|it|that)\\s+(?:\\w+\\s+)?re-?introduc\\w*\\b|"
			"^(?:what\\s+(?:is|was)\\s+the\\s+)?(?:no\\s+)?(?:upstream\\s+|git\\s+|commit\\s+)(?:commit\\s+)?(?:id|sha1?)\\b[^?]{0,40}\\?",
	/* the poster or the maintainer takes it back: "please ignore this
	 * version", "I will resend", "I've dropped it", "please resubmit" */
	[P_WITHDRAWN] = "\\b(?:please|pls|kindly)\\s*,?\\s+(?:disregard|ignore)\\b|"
			"\\b(?:i|we)(?:'ll|\\s+will|'ve|\\s+have|\\s+had)\\s+(?:now\\s+)?(?:have\\s+to\\s+)?(?:go\\s+)?"
			"(?:(?:drop(?:ped)?|revert(?:ed)?)\\s+(?:this|it|them|these|the\\s+(?:patch|series|commit|backport)\\w*)\\b|"
			"(?:resend|resubmit|re-?send|re-?post)\\b)|"
			"\\b(?:please|pls)\\b[^.?!]{0,40}?\\b(?:resend|resubmit|re-?post)\\b|"
			"\\bcan'?t\\s+(?:just\\s+)?skip\\s+(?:those|these|the|older|newer)\\s+(?:\\w+\\s+)?(?:trees|branches|kernels|releases)\\b|"
			"\\bsent\\s+(?:this|it)\\s+twice\\b|\\bforget\\s+(?:about\\s+)?(?:the\\s+whole\\s+(?:thing|series|set)|this\\s+(?:patch|series|one))\\b|\\bplease\\s+work\\s+with\\s+(?:them|the\\s+[\\w-]+\\s+maintainers?)\\b|"
			"\\bposted\\s+the\\s+wrong\\b|\\bwrong\\s+(?:version|patch(?:es)?|branch)\\s+(?:in|posted|sent)\\b|"
			"\\bmust\\s+(?:be|come)\\s+(?:acked|reviewed|approved|signed|from)\\b|\\bnot\\s+(?:the\\s+)?proper\\s+way\\b|"
			/* a drop announced without "it": "Now dropped", "Dropped the
			 * offending patch", "I've dropped both", "pushed out with
			 * them dropped" */
			"^(?:(?:ok|okay|thanks|great|now|yes|sure|ack|done)\\s*,?\\s+)*(?:now\\s+)?dropped\\b(?!\\s+(?:in|since|by|from\\s+mainline|upstream)\\b)|"
			"\\b(?:i|we)(?:'ve|\\s+have|\\s+had)\\s+(?:now\\s+)?(?:dropped|reverted)\\s+"
			"(?:both|all|the\\s+(?:\\S+\\s+){0,4}?(?:patch|patches|commit|commits|one|ones|backports?|series))\\b|"
			"\\b(?:with|and)\\s+(?:this|that|these|those|them|it|both)\\s+(?:now\\s+)?dropped\\b|"
			/* "now dropped from all queues", "I will go delete it from all
			 * queues", "needs to get dropped from everywhere" */
			"\\bnow\\s+(?:really\\s+)?(?:dropped|removed|deleted)\\b|"
			"\\b(?:drop|dropped|delete|deleted|remove|removed)\\b[^.;]{0,25}?\\bfrom\\s+(?:all\\s+(?:the\\s+)?|every\\s+|the\\s+|my\\s+|our\\s+)?"
			"(?:(?:stable|review|autosel)\\s+)?(?:queues?|stable\\s+(?:trees|branches|kernels)|everywhere)\\b|"
			"\\bremove\\s+(?:this|it|that)\\s+(?:patch\\s+|commit\\s+)?(?:from|in)\\s+(?:your|the|all)\\b|"
			"\\b(?:had|have|has)\\s+to\\s+(?:all\\s+)?be\\s+dropped\\b|"
			"\\b(?:these|those|they|this|it)\\s+(?:were|was|are|is)\\s+(?:all\\s+|now\\s+)dropped\\b|"
			"\\b(?:i|we)(?:'ve|'ll|\\s+have|\\s+will)?\\s+(?:just\\s+|now\\s+|go\\s+)?drop(?:ped)?\\s+(?:them\\s+all|all\\s+of\\s+them|the\\s+ones?)\\b",
	/* a duplicate: the patch is in the branch or its queue already */
	[P_ALREADY_IN] = "\\b(?:this|it|(?:this|the)\\s+(?:whole\\s+)?(?:patch|commit|series|fix|change))\\s+(?:is|are|was)\\s+already\\s+"
			 "(?:in|part\\s+of|queued|applied)\\b[^.]{0,20}?(?:-?stable|v?\\d+\\.\\d+|queue)",
	[P_HEDGE] = "\\bno\\s+(?:big\\s+|real\\s+|great\\s+)?harm\\b|\\bnot\\s+(?:\\w+\\s+)?(?:sure|certain)\\s+(?:if|whether|how)\\b|"
		    "\\bno\\s+objections?\\b|\\b(?:don'?t|do\\s+not)\\s+(?:really\\s+)?mind\\b|"
		    "\\b(?:i|we)\\s+(?:don'?t|do\\s+not|won'?t|wouldn'?t)\\s+(?:really\\s+)?object\\b",
	/* a backport that hides or does not explain how it departs from
	 * the upstream commit */
	[P_UNDOCUMENTED] = "\\b(?:need|have)\\s+to\\s+(?:mention|document|explain)\\b|\\bhaven'?t\\s+mentioned\\b|\\bplease\\s+document\\b|"
			   "\\b(?:much|very|quite|completely)\\s+different\\s+from\\s+the\\s+(?:original|upstream)\\b|"
			   "\\bplease\\s+use\\s+[^.]{1,60}?\\binstead\\b|\\b(?:i|we)\\s+(?:don'?t|do\\s+not)\\s+agree\\b|\\bi\\s+disagree\\b",
	/* the patch as posted does not work */
	[P_NOT_WORK] = "\\b(?:this|it|the\\s+(?:patch|commit|change|backport|fix))\\s+(?:\\w+\\s+)?(?:does\\s+not|doesn'?t|won'?t|will\\s+not)\\s+"
		       "(?:\\w+\\s+)?(?:work|make\\s+the\\s+problem\\s+go\\s+away|solve\\s+the\\s+(?:problem|issue))\\b|"
		       "\\b(?:doesn'?t|does\\s+not)\\s+(?:really\\s+|actually\\s+)?make\\s+the\\s+problem\\s+go\\s+away\\b",
	/* a place in stable denied in words of its own: "isn't for stable",
	 * "not meant to be applied to 7.1", "should only go into 7.2",
	 * "can be dropped", "makes no sense without ...", "a cleanup" */
	[P_NOT_FOR_STABLE] = "\\b(?:not|isn'?t|aren'?t|wasn'?t)\\s+(?:really\\s+|naturally\\s+|even\\s+|at\\s+all\\s+)?(?:for|meant\\s+(?:for|to\\s+be\\s+\\w+\\s+(?:to|in|into))|"
			     "intended\\s+(?:for|to\\s+be\\s+\\w+\\s+(?:to|in|into))|desirable\\s+(?:for|in)|suitable\\s+(?:for|in))\\s+"
			     "(?:the\\s+)?(?:-?stable|older|v?\\d+\\.\\d+)|"
			     "\\bshould\\s+only\\s+(?:go|be\\s+(?:applied|backported|taken))\\s+(?:in|into|to)\\b|"
			     "\\b(?:this|it|that|these|they)\\b[^.;?]{0,60}?\\b(?:can|could|should|may)\\s+(?:safely\\s+|just\\s+)?be\\s+(?:dropped|skipped)\\b|"
			     "\\b(?:this|it|that|commit|patch|change|backport)\\b[^.;?]{0,40}?\\bmakes?\\s+no\\s+sense\\b|"
			     "\\b(?:is|was)\\s+(?:only\\s+|just\\s+|mostly\\s+|pretty\\s+much\\s+)?(?:a\\s+)?(?:code\\s+)?clean-?up\\b|"
			     "\\b(?:a\\s+)?cosmetic\\s+(?:change|fix|issue|patch)\\b|\\b(?:is|are)\\s+(?:only\\s+|purely\\s+)?theoretical\\b|"
			     "\\bnot\\s+really\\s+(?:a|an)\\s+(?:actual\\s+|real\\s+)?(?:bug\\s*)?fix\\b|"
			     "\\b(?:only|just|merely|purely)\\s+(?:a\\s+)?(?:preparatory|preparation)\\b|\\bmarginal\\b|"
			     "\\b(?:no|little)\\s+(?:real\\s+)?value\\b|(?:\\bnot|n't)\\s+(?:\\w+\\s+){0,4}?much\\s+value\\b|"
			     "\\b(?:risky|aggressive|dangerous)\\s+for\\s+(?:-?stable|a\\s+stable|backport)|"
			     "\\b(?:don'?t|doesn'?t|do\\s+not|does\\s+not)\\s+(?:seem|look)\\s+(?:to\\s+be\\s+|like\\s+)?(?:a\\s+)?(?:real\\s+)?(?:bug\\s*)?fix(?:es)?\\b|"
			     "\\bto\\s+not\\s+(?:backport|take|apply|queue|push|include|pick)\\b|\\bnot\\s+to\\s+(?:push|include|pick)\\b|"
			     "\\b(?:don'?t|do\\s+not)\\s+(?:re-?)?add\\s+(?:it|this|them)\\s+back\\b|"
			     "\\bdefer\\s+(?:this|it|the\\s+(?:patch|backport))\\b|\\b(?:rather|better)\\s+defer\\b|\\bshould\\s+wait\\b|"
			     "\\b(?:avoid|skip)\\s+(?:applying|taking|backporting|picking|queuing)\\b|\\bjust\\s+not\\s+(?:backport|apply|take|queue)\\b|"
			     "\\bno\\s+(?:real\\s+|user[\\s-]?visible\\s+)?impact\\s+on\\b|"
			     "\\b(?:patch|commit|change|backport|fix)\\s+(?:is|was)\\s+not\\s+(?:right|correct)\\b|"
			     "\\b(?:prefer|rather|better)\\b[^.;]{0,60}?\\binstead\\s+of\\s+(?:this|the)\\s+(?:back-?ported\\s+)?(?:patch|backport|one|change)\\b",
	/* the posting dropped for a new version taken in its place */
	[P_TAKE_INSTEAD] = "\\b(?:and|to)\\s+(?:take|queue|apply|use)\\s+(?:this|your|the\\s+new|the\\s+updated)\\s+(?:one|version|v\\d+|backport|patch)\\b",
	[P_REVERTED] = "\\b(?:will|would|should|was|been|got|being|is)\\s+reverted\\b",
	[P_ADVISE_NOT] = "\\bwouldn'?t\\s+(?:recommend|bother|suggest|take|backport)|"
			 "\\b(?:recommend|suggest)\\s+\\*?(?:holding\\s+off|not|against|waiting)\\b|(?<!n't\\s)(?<!not\\s)\\bhold\\s+(?:off|back)\\b|"
			 "\\bpropose\\s+(?:that\\s+)?(?:we\\s+)?not\\b|\\bpostpone[sd]?\\b|\\b(?:please|let'?s|we\\s+should|can\\s+we(?:\\s+please)?)\\s+wait\\s+(?:for|until|till)\\b|\\bgive\\s+it\\s+(?:some\\s+)?(?:more\\s+)?time\\b|\\bhold\\s+(?:this|it|these|the\\s+patch)\\b|\\bnot\\s+to\\s+(?:backport|take|apply|queue)\\b",
	[P_BAD_PATCH] = "\\b(?:patch|commit|change|backport)\\s+(?:is|was|looks|seems)\\s+(?:\\w+\\s+)?"
			"(?:borked|wrong|bogus|incorrect|broken)\\b",
	/* stable-worthiness denied: "I don't think this is suitable for
	 * -stable", "we don't need this in -stable", "isn't something that
	 * should be backported" */
	[P_NEG_STABLE] = NEG "[^.;]{0,60}?\\b(?:suitable|appropriate|worth\\w*|sense|should|need|necessary|"
			 "needed|candidate|belongs?|want|enough|important|serious|critical|qualif\\w*)\\b[^.;]{0,40}?(?:\\bstable\\b|-stable\\b|\\bbackport\\w*|"
			 "\\bpick\\w*|\\btak(?:e|ing)\\b|\\bolder\\s+(?:kernels|trees|branches)|\\btrees\\b)|"
			 "\\b(?:not|n't)\\s+belong\\w*\\s+(?:in|to)\\s+v?\\d+\\.\\d+",
	/* not a fix: a new feature, a cleanup, noise, a theoretical problem */
	[P_NOT_A_FIX] = "\\b(?:is|feels|looks|seems)\\s+(?:like\\s+)?(?:a\\s+)?(?:new\\s+)?feature\\w*|\\bjust\\s+noise\\b|"
			"\\b(?:only|just|merely|purely)\\s+(?:a\\s+)?(?:cleanup|clean-up|refactor\\w*|cosmetic)\\b|"
			"\\bnot\\s+(?:the\\s+)?(?:\\d+%\\s+)?correct\\b|\\btheoretical\\s+(?:problem|issue|bug)\\b|"
			"\\b(?:long\\s+)?end[\\s-]of[\\s-]life\\b|\\bnew\\s+feature|\\bout\\s+of\\s+scope\\b|"
			"\\bfixes\\s+nothing\\b|\\bsilly\\b|\\bbrain-?dead\\b|"
			"\\b(?:pure|only|just|merely)\\s+(?:a\\s+)?(?:code\\s+)?(?:white\\s*space|cosmetic|simplification|clean(?:s|ing)?\\s+(?:\\w+\\s+)?up)\\b|"
			"\\b(?:code\\s+simplification|whitespace\\s+changes?)\\b|"
			"\\b(?:doesn'?t|does\\s+not)\\s+(?:\\w+\\s+)?change\\s+any\\s+(?:functionality|behaviou?r)\\b|"
			"\\b(?:doesn'?t|does\\s+not)\\s+(?:\\w+\\s+)?(?:fix|solve)\\s+(?:or\\s+\\w+\\s+)?anything\\b|"
			"\\b(?:rather\\s+)?than\\s+(?:as\\s+)?(?:a\\s+)?(?:bug\\s*fix(?:es)?|fixing\\s+a\\s+bug)\\b|"
			"\\bno\\s+(?:stable\\s+)?backports?\\s+(?:is|are)\\s+(?:needed|necessary|required)\\b|"
			"\\b(?:feels|looks|seems)\\s+(?:to\\s+me\\s+)?like\\s+a\\s+new\\s+feature|"
			"\\bsomething\\s+(?:is\\s+)?wrong\\s+with\\s+(?:this|the)\\s+(?:patch|commit|backport|change)\\b|"
			"\\b(?:this|it|that|fix|patch|commit|change|backport)\\s+(?:[\\w.]+\\s+){0,3}?(?:doesn'?t|does\\s+not)\\s+make\\s+(?:any\\s+)?sense\\b|"
			"\\bdoes\\s+nothing\\b|\\bpointless\\b|\\bnonsense\\b|"
			"\\bno\\s+(?:real\\s+)?point\\b|\\bmuch\\s+point\\b|\\bwhat\\s+the\\s+point\\b|"
			"\\b(?:is|looks|seems)\\s+(?:\\w+\\s+)?bogus\\b|\\b(?:is|that'?s|it'?s)\\s+not\\s+ok(?:ay)?\\b|"
			"\\b(?:questionable|noise|unneeded|unnecessary|overkill)\\b[^.]{0,30}\\b(?:stable|backport\\w*)",
	/* asked or offered on a condition: "if not, let me know and I'll drop it" */
	/* ("unless someone needs it, drop it" names the exception to a drop) */
	[P_CONDITIONAL] = "^(?:(?:and|but|so)\\s+)?if\\b|"
			  "\\blet\\s+me\\s+know\\b|\\bup\\s+to\\s+you\\b|\\bwhether\\s+or\\s+not\\b|"
			  /* an offer: "I can drop it if you'd prefer" */
			  "^(?:(?:and|but|so)\\s*,?\\s+)?(?:i\\s+|we\\s+)?(?:can|could)\\s+(?:\\w+\\s+)?drop\\b[^.;]*\\b(?:if|or)\\b|"
			  "^or\\s*,?\\s+(?:i\\s+|we\\s+)?(?:can|could)\\s+(?:\\w+\\s+)?drop\\b",
	[P_APPROVAL] = "\\blooks\\s+(?:fine|good|ok|okay|right|correct)\\b|"
		       /* "it makes sense to defer it" approves the deferral */
		       "\\bmakes\\s+(?:much\\s+|more\\s+)*sense\\b(?!\\s+to\\s+(?:not|defer|wait|drop|hold|skip|revert|postpone)\\b)|\\bfine\\s+(?:by|with)\\s+me\\b|"
		       "\\bnow\\s+(?:applied|queued|fixed\\s+up)\\b|\\b(?:applied|queued(?:\\s+up)?),?\\s+thanks\\b|"
		       "\\bi(?:'ve|\\s+have)\\s+(?:now\\s+)?(?:applied|queued)\\b|\\b(?:glad|happy)\\s+to\\s+(?:queue|take|apply|pick)\\b|\\bfixed\\s+up\\b",
	/* a mail that says it is automated: a bot's notice */
	[P_AUTOMATED] = "\\bautomated\\s+(?:e-?mail|message|notice|report)\\b|\\bplease\\s+do\\s+not\\s+reply\\b",
	[P_BUILD] = "\\b(?:build|builds|compile|compilation|compiling|link|linking|boot|booting)\\s+"
		    "(?:is\\s+|are\\s+|was\\s+|got\\s+)?(?:broken|breaks|break|broke|failures?|fails|failed|failing|"
		    "errors?|issues?|problems?|regressions?)\\b|"
		    "\\b(?:break|breaks|broke|broken|breaking)\\s+(?:the\\s+)?(?:\\w+\\s+)?(?:build|boot|compilation)\\b|"
		    "\\bfail(?:s|ed)?\\s+to\\s+(?:build|boot|compile|link)\\b|\\bbuilds?\\s+failed\\b|"
		    "\\bno\\s+longer\\s+(?:builds|boots|compiles)\\b|"
		    "\\b(?:doesn'?t|does\\s+not|won'?t|will\\s+not)\\s+(?:build|boot|compile)\\b",
	/* trouble stated with its own negative verb ("this fix doesn't
	 * build"): only a plain negation undoes it */
	[P_STATED] = "\\b(?:doesn'?t|does\\s+not|don'?t|do\\s+not|won'?t|will\\s+not)\\s+(?:even\\s+|any\\s+longer\\s+)?(?:build|boot|compile)\\b|"
		     "\\bfail(?:s|ed)?\\s+to\\s+(?:build|boot|compile|link)\\b|\\b(?:builds?|boots?)\\s+to\\s+fail\\b|"
		     "\\b(?:has|have|had)\\s+(?:\\w+\\s+)?broken\\b|"
		     "\\bmakes?\\s+(?:the\\s+)?(?:[\\w.{},-]+\\s+){0,3}?(?:hang|crash|panic|oops|fail)\\w*\\b(?!\\s+(?:go|goes|went)\\s+away|\\s+disappear)|"
		     "\\breverting\\s+(?:this|it|the\\s+(?:patch|commit|change))\\b(?:[^.]|\\.(?=\\w)){0,40}?"
		     "\\b(?:solves|fixes|resolves|makes|helps)\\b|"
		     "\\bconfirm\\s+(?:this|the)\\s+(?:issue|problem|regression|bug)\\b",
	/* a corrected version posted in its place: "I have sent a v2",
	 * "fixed in a v2 at", "Sure, re-sent", "here is the 7.1 series" */
	[P_NEW_VERSION] = "\\b(?:sent|posted|re-?sent|re-?posted|submitted)\\s+(?:out\\s+)?(?:a|the|my)?\\s*(?:new\\s+|fixed\\s+|updated\\s+|corrected\\s+)?"
			  "(?:v\\d+|version|backport|series|patch\\s+set|patchset)\\b|^(?:(?:sure|ok|okay|done)\\s*,?\\s+)?re-?sent\\b|"
			  "\\b(?:fixed|corrected)\\s+in\\s+(?:a\\s+)?v\\d+\\b|\\bhere(?:'s|\\s+is)\\s+(?:the|a|my)\\s+(?:[\\w.-]+\\s+){0,2}?(?:series|backport|version)\\b|"
			  "\\battached\\s+(?:is\\s+)?(?:a|the|my)\\s+(?:\\w+\\s+)?(?:backport|version|patch)\\b",
	[P_TRACE] = "\\w\\.[ch]:\\d+(?::\\d+)?:\\s+(?:error|fatal error)\\b|\\bundefined\\s+reference\\b|"
		    "\\bundeclared\\b|\\bimplicit\\s+declaration\\b|\\bkernel\\s+BUG\\b|\\bBUG:|\\bOops:|"
		    "\\bcall\\s+trace:|\\bWARNING:\\s+CPU:\\s*\\d+\\s+PID:|#regzbot\\s+\\^?introduced",
	[P_TROUBLE] = "\\b(?:see|sees|seeing|saw|seen|getting|got|hit|hitting|notice[ds]?|observed?|"
		      "introduce[sd]?|introducing|cause[sd]?|causing|trigger(?:s|ed)?|results?\\s+in|observing|"
		      "experienc(?:e|ed|ing)|reports?\\s+of|"
		      "leads?\\s+to|led\\s+to)\\b[^.]{0,40}?\\b(?:regressions?|crash(?:es)?|panics?|oops|"
		      "hangs?|hanging|lockups?|deadlocks?|corruption|splats?|failures?|breakage|problems?|issues?|"
		      "warnings?|fails|failing|crashing|crashed)\\b",
	[P_PERSISTS] = "\\b(?:problem|issue|regression|failure|crash|bug|hang)\\s+(?:is\\s+)?(?:still\\s+)?"
		       "(?:occurring|occurs|persists|reproduces|remains)\\b",
	/* trouble named as the reason for a change, not seen with it */
	[P_MOTIVE] = "\\b(?:as|because|since)\\s+(?:[\\w-]+\\s+){1,3}?(?:was|were)\\s+(?:\\w+\\s+)?(?:causing|leading\\s+to|resulting\\s+in)\\b|"
		     /* trouble seen without the patch is why it is wanted */
		     "\\bwithout\\s+(?:this|the|that|these|your)\\s+(?:[\\w-]+\\s+)?(?:patch|change|fix|commit|backport|series)(?:es)?\\b",
	[P_REGRESSION] = "\\bregress(?:ed|es)\\b|\\ba\\s+regression\\b|\\bbroke\\b|\\bbreaks\\b|\\bbreakage\\b",
	/* one's own bisection, not thanks for someone else's */
	[P_BISECT] = "\\bbisect(?:ed|ing)?\\b[^.]{0,80}?\\b(?:to|down\\s+to)\\s+(?:this|the|that|commit|[0-9a-f]{7,})\\b|"
		     "\\bbisect(?:ion)?\\b[^.]{0,30}?\\b(?:pointing|points|pointed|shows|showed)\\b|"
		     "\\bi(?:'ve|\\s+have)?\\s+bisected\\b|\\bbisection\\b[^.]{0,30}?\\bagrees\\b|\\bbisect\\s+is\\s+underway\\b|first\\s+bad\\s+commit",
	[P_DETECTED] = "\\b(?:failures?|errors?|regressions?|warnings?)\\s+(?:detected|found|seen|observed|noticed)\\b",
	[P_ALSO] = "\\b(?:also|too|as\\s+well|in\\s+addition)\\b",
	/* "on top" of a commit asks for it; on top of the -rc under
	 * review or the queue ("reverting it on top of 4.4.7-rc1 fixes
	 * it") is where a test ran */
	[P_WITHOUT] = "\\b(?:without|unless|only\\s+(?:be\\s+)?(?:[\\w-]+\\s+){0,2}?if|"
		      "on\\s+top(?!\\s+of\\s+(?:[\\w.-]*-rc\\d|(?:the\\s+)?(?:tree|queue|rc)\\b)))\\b",
	[P_REQUIRES] = "\\b(?:(?:requires?|needs?)(?!\\s+(?:some\\s+|an\\s+|more\\s+|a\\s+|to\\s+be\\s+)?(?:explanation|justification|comment|"
		       "note|testing|review|care|thought|work|documenting|explaining))|required|depends\\s+on|relies\\s+on|needed|prerequisites?|"
		       "fix(?:es)?\\s+(?:is|are)\\s+pending|(?:won'?t|will\\s+not)\\s+be\\s+(?:fully\\s+)?(?:resolved|fixed)|"
		       "follow-?ups?|fix-?ups?|fixe[sd]\\s+(?:this|it)|fixed\\s+(?:by|in)|go(?:es)?\\s+together\\s+with|"
		       "(?:picked|taken|applied|backported|queued)\\s+(?:up\\s+)?together\\s+with|"
		       "missing\\s+(?:prerequisites?|dependenc(?:y|ies)|commits?|patch(?:es)?|fix(?:es)?))\\b",
	[P_NOT_PORTED] = "\\b(?:hadn'?t|haven'?t|hasn'?t|didn'?t|not)\\s+(?:\\w+\\s+){0,2}?"
			 "(?:ported|backported|picked|taken|applied|included|queued)\\b",
	/* "pull in the following fixes", "pick up these two commits" */
	[P_FOLLOWING] = "\\b(?:pull\\s+in|pick(?:\\s+up)?|take|backport|apply|cherry-?pick|queue|include|add)\\s+"
			"(?:the\\s+)?(?:following|these|those|both)\\s+(?:\\w+\\s+)?(?:fix(?:es)?|commits?|patches|changes)\\b",
	[P_SERIES] = "\\b(?:whole|entire|rest\\s+of\\s+the|full)\\s+(?:patch\\s*)?(?:series|set|patchset)\\b",
	[P_REF] = REF_STRONG "|\\b(?:(?:fix|fixes)(?![\'\"\\x{2019}]?\\s*(?:tag|line|:))|follow-?up|fixup|fix-ups?|commit|commits|series|"
		  "patches|prerequisites?|dependenc(?:y|ies))\\b|"
		  "\\b(?:preceding|previous|prerequisite|earlier|other|first|second|next)\\s+(?:patch|commit|fix|change)",
	[P_STRONG_REF] = REF_STRONG,
	/* a commit named as missing or wanted, the commit itself in this
	 * sentence or one beside it: "it would be nice to also backport
	 * this one:", "make sure you're grabbing X", "it never got
	 * backported to 7.1:", "already fixed upstream by X", "did you miss
	 * X?", "I sent a patch for these:" */
	[P_NAMES_MISSING] = "\\bwould\\s+be\\s+(?:nice|good|great|better)\\s+to\\s+(?:also\\s+)?(?:backport|take|pick|have|include|add)\\b|"
			    "\\bmake\\s+sure\\s+(?:you'?re\\s+|you\\s+are\\s+|to\\s+)?(?:grab|pick|tak|includ|apply|backport)\\w*|"
			    "\\b(?:requires?|needs?|depends\\s+on)\\s+(?:the\\s+)?(?:previous|preceding|prerequisite|companion)\\s+(?:patch|commit|fix|change)|"
			    "\\bnever\\s+(?:got\\s+|been\\s+|was\\s+)?(?:backported|ported|picked|applied|queued)\\b|"
			    "\\b(?:already\\s+)?fixed\\s+upstream\\b|"
			    "\\b(?:don'?t|do\\s+not|can'?t|cannot)\\s+(?:see|find)\\s+(?:commit\\s+)?" REF_HEX "|"
			    "\\b(?:backport|pick(?:\\s+up)?|take|apply|queue|include|cherry-?pick)\\s+(?:the|these|those|both|all)\\b[^.]{0,40}?\\b(?:patches|commits|fixes)\\b|"
			    "\\b(?:a|the)\\s+fix\\s+(?:is\\s+)?(?:queued|pending)\\s+for\\s+(?:this|it)\\b|"
			    "\\b(?:did|have)\\s+you\\s+(?:\\w+\\s+)?(?:miss|forget|forgot|skip)\\w*\\b|"
			    "\\b(?:want|need)\\s+to\\s+(?:pull|pick|take|grab|apply|backport|cherry-?pick)\\s+(?:that|it|this|those|these|them)\\s+(?:in|up|too|as\\s+well)\\b|"
			    "\\bmight\\s+want\\s+to\\s+(?:cherry-?pick|backport|pick|take|apply)\\b|"
			    "\\b(?:i|we)\\s+(?:sent|posted|submitted)\\s+(?:a\\s+)?(?:patch|fix)\\s+for\\s+(?:this|these|that|it)\\b|"
			    "\\b(?:request|ask)\\s+(?:you\\s+)?(?:to\\s+)?also\\s+consider\\b|"
			    "\\bboth\\s+this\\s+and\\s+(?:the\\s+)?(?:fix(?:up)?|follow-?up|other)\\b",
	/* worth taking only if something else needs it: no request */
	[P_WORTH_UNLESS] = "\\bunless\\s+(?:it'?s|it\\s+is|this\\s+is)\\s+(?:required|needed)\\s+(?:for|by)\\s+(?:some|an|any)",
	/* "any reason you do not want X also applied?" */
	[P_WHY_NOT_ALSO] = "\\b(?:reason|why)\\b[^?]{0,30}(?:\\bnot\\b|n't\\b)[^?]{0,100}\\b(?:also|too|as\\s+well)\\b",
	/* a request verb naming a commit by its id */
	[P_TAKE_NAMED] = "\\b(?:apply|applying|pick(?:ing)?(?:\\s+up)?|take|taking|backport(?:ing)?|cherry-?pick(?:ing)?|queue|queuing|include|including|grab(?:bing)?)\\s+(?:the\\s+)?"
			 "(?:(?:patch|commit|fix)\\s+)?" REF_HEX,
	/* asks to take this same patch elsewhere, not other commits */
	[P_WIDEN] = "\\b(?:backport|take|queue|apply|pick|needed|need|go|add)\\s+(?:this|it|them|these)\\b"
		    "(?!\\s+(?:[\\w-]+\\s+)?(?:commit|fix|patch|one\\s+too))|"
		    /* and in the passive: "this fix should be applied to 7.1 too" */
		    "^(?:\\W*\\w+\\W+)?(?:this|it)\\s+(?:[\\w-]+\\s+)?(?:should|could|can|must|needs?\\s+to|ought\\s+to)\\s+(?:\\w+\\s+){0,2}?"
		    "be\\s+(?:applied|backported|taken|queued|picked|included|added)\\b",
	/* a request to drop this patch, or an explicit NAK */
	[P_DROP_REQUEST] = "\\bna(?:c?k|cked|ked)\\b|\\b(?:can|could|should|must)\\s+(?:\\w+\\s+)?be\\s+(?:dropped|reverted)\\b|"
			   "\\bbetter\\s+to\\s+drop\\b|\\b(?:please|can\\s+(?:you|we)|could\\s+(?:you|we)|would\\s+you|should)\\b[^.]{0,30}"
			   "\\b(?:drop|revert)\\b|\\b(?:drop|revert)\\s+(?:this|it)[^.]{0,30}\\bplease\\b",
	/* a sentence that opens on a condition: what would happen, not
	 * what did ("If a failure is seen, the test is run again") */
	[P_IF_OPEN] = "^(?:(?:and|but|so|also)\\s*,?\\s+)?(?:if|unless|whenever|in\\s+case)\\b",
	/* this patch asked for on a branch: "please include this patch in
	 * 7.1", "could you take this fix for the older trees" */
	[P_TAKE_THIS] = "\\b(?:include|take|apply|backport|pick(?:\\s+up)?|queue|merge|add|port)\\s+(?:this|the)\\s+"
			"(?:patch|fix|commit|change)\\s+(?:in|into|to|for|on)\\s+(?:the\\s+|all\\s+)?(?:v?\\d+\\.\\d+|-?stable|older|lts|other)",
	/* a commit named by its place, not its id: "this requires the
	 * previous patch", "both this and the fixup", "the patches above" */
	[P_NAMES_PLACE] = "\\b(?:requires?|needs?|depends\\s+on)\\s+(?:the\\s+)?(?:previous|preceding|prerequisite|companion)\\s+(?:patch|commit|fix|change)|"
			  "\\bboth\\s+this\\s+and\\s+(?:the\\s+)?(?:fix(?:up)?|follow-?up|other)\\b|"
			  "\\b(?:patch|patches|commit|commits|fix|fixes)\\s+(?:\\w+\\s+)?(?:listed\\s+|mentioned\\s+|quoted\\s+)?(?:above|below)\\b",
	/* a request in so many words */
	[P_PLEASE] = "\\b(?:please|pls|could\\s+you|can\\s+you|would\\s+you|should|also|too|as\\s+well)\\b",
	/* a sentence that gives a reason */
	[P_BECAUSE] = "^(?:because|since)\\b",
	/* the patch in hand as a sentence's subject or object */
	[P_THIS] = "\\b(?:this|it|these|the\\s+(?:patch|backport|change|series))\\b",
	[P_ASKS] = "^(?:(?:or|and|but|so)\\s+)?(?:is|are|was|were|does|do|did|has|have|had|can|could|would|should|will|shall|may|"
		   "why|how|what|when|where|who|which|isn'?t|aren'?t|doesn'?t|don'?t|shouldn'?t|wouldn'?t|"
		   "couldn'?t|can'?t|won'?t|so)\\b",
	[P_MODAL] = "\\b(?:would|could|might|may)\\b|\\b(?:curious|wonder(?:ing)?)\\s+(?:if|whether)\\b|"
		   /* a review that finds a "potential issue" hedges it */
		   "\\bpotential(?:ly)?\\b|"
		   /* a test to be run: "I can run the tests to see if it breaks X" */
		   "\\b(?:see|check|test|verify|find\\s+out)\\s+(?:if|whether)\\b",
	/* a request proper: asked, or said to be needed */
	[P_ASK_FORM] = "\\b(?:please|could\\s+you|can\\s+you|would\\s+you|should|need|needs|needed|must|"
		       "want\\s+to|have\\s+to|required?|requires|do\\s+you\\s+plan\\s+to|are\\s+you\\s+going\\s+to|"
		       "will\\s+you|make\\s+sense\\s+to)\\b|^(?:pick|take|grab|apply|queue|backport|include)\\b",
	[P_REQUEST] = "\\b(?:(?:are|will)\\s+you\\s+(?:also\\s+)?(?:getting|taking|picking|backporting|queu\\w+)|please|could\\s+(?:you|we)|can\\s+(?:you|we)|would\\s+you|pick|take|grab|cherry-?pick|queue|"
		      "apply|backport|include|need|needs|require|requires|should)\\b",
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pcre2_code *pats[P_COUNT];
static pcre2_match_data *no_md; /* never used: each match has its own */

static void compile_all(void)
{
	int e;
	PCRE2_SIZE off;
	size_t i;

	for (i = 0; i < P_COUNT; i++) {
		pats[i] = pcre2_compile((PCRE2_SPTR)pattern_src[i], PCRE2_ZERO_TERMINATED,
					PCRE2_CASELESS | PCRE2_UCP | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
					&e, &off, NULL);
		if (pats[i])
			(void)pcre2_jit_compile(pats[i], PCRE2_JIT_COMPLETE);
	}
	(void)no_md;
}

/* Where pattern P first matches S (LEN bytes) from FROM on, or -1. */
static long match_at(enum pat p, const char *s, size_t len, size_t from)
{
	pcre2_match_data *md;
	long at = -1;

	pthread_once(&once, compile_all);
	if (!pats[p] || from > len || !(md = pcre2_match_data_create(1, NULL)))
		return -1;
	if (pcre2_match(pats[p], (PCRE2_SPTR)s, len, from, 0, md, NULL) >= 0)
		at = (long)pcre2_get_ovector_pointer(md)[0];
	pcre2_match_data_free(md);
	return at;
}

static bool has(enum pat p, const char *s, size_t len)
{
	return match_at(p, s, len, 0) >= 0;
}

/* Whether one of NEGATIONS, or a word ending in "n't", is among the words
 * of S[0..AT) in the clause AT is in. */
static bool negated_by(const char *s, size_t at, size_t nneg)
{
	size_t start = at, i, k;

	while (start > 0 && !strchr(",;:(", s[start - 1]) &&
	       !(start >= 5 && !strncasecmp(s + start - 5, " but ", 5)))
		start--;
	for (i = start; i < at;) {
		size_t w = i;
		while (w < at && (isalnum((unsigned char)s[w]) || s[w] == '\'' || s[w] == '-'))
			w++;
		if (w > i) {
			if (w - i >= 3 && !strncasecmp(s + w - 3, "n't", 3))
				return true;
			for (k = 0; k < nneg; k++)
				if (strlen(negations[k]) == w - i &&
				    !strncasecmp(s + i, negations[k], w - i))
					return true;
		}
		i = w > i ? w : i + 1;
	}
	return false;
}

static bool negated(const char *s, size_t at)
{
	return negated_by(s, at, G_N_ELEMENTS(negations));
}

/* Whether pattern P matches S somewhere not negated in its clause. */
static bool has_unnegated(enum pat p, const char *s, size_t len)
{
	long at;

	for (at = match_at(p, s, len, 0); at >= 0; at = match_at(p, s, len, (size_t)at + 1))
		if (!negated(s, (size_t)at))
			return true;
	return false;
}

/* A question asks: it ends in '?' and opens with a word that asks ("Is
 * this needed?", "Why ...?"); "This breaks the build, how did you test
 * it?" states first. */
static bool is_question(const char *s, size_t len)
{
	return len && s[len - 1] == '?' && has(P_ASKS, s, len);
}

/* Whether S speaks of what would or might happen, not of what did. */
static bool hypothetical(const char *s, size_t len)
{
	return has(P_MODAL, s, len);
}

/* The sentence asks to take other commits: a request, a word of
 * addition or condition, and a reference to a commit, a fix or a series
 * (in it or in NEXT, the sentence after it, where the ids often stand). */
static bool sentence_needs_also(const char *s, size_t len, const char *orig, size_t olen,
				const char *next, size_t nlen, const char *prev, size_t plen, bool stranger)
{
	bool strong = has(P_STRONG_REF, orig, olen) || (nlen && has(P_STRONG_REF, next, nlen));
	bool ref = strong || has(P_REF, orig, olen);
	long at;

	/* "fixed in a v2 at <link>": a new version of this one; "because
	 * that patch depends on X" gives a reason, asks nothing */
	if (has(P_NEW_VERSION, s, len) || (has(P_BECAUSE, s, len) && !has(P_PLEASE, s, len)))
		return false;
	/* a commit named as missing, in this sentence or one beside it */
	if ((strong || (plen && has(P_STRONG_REF, prev, plen))) &&
	    (at = match_at(P_NAMES_MISSING, s, len, 0)) >= 0 && !negated_by(s, (size_t)at, PLAIN_NEGATIONS))
		return true;

	if (strong && has(P_WHY_NOT_ALSO, s, len))
		return true;
	/* ... or by its place, asked for */
	if ((at = match_at(P_NAMES_PLACE, s, len, 0)) >= 0 && !negated_by(s, (size_t)at, PLAIN_NEGATIONS) &&
	    (has(P_PLEASE, s, len) || has(P_REQUIRES, s, len) || has(P_NAMES_MISSING, s, len)) &&
	    !(is_question(s, len) && !has(P_REQUEST, s, len)))
		return true;
	/* a stranger's question whether other commits are taken ("did you
	 * queue those for 7.1?") asks for news, not for them */
	if ((is_question(s, len) && (stranger || !has(P_REQUEST, s, len))) || has(P_APPROVAL, s, len))
		return false;
	/* "please take X"; "we don't need to backport X" asks nothing */
	if (strong && (at = match_at(P_TAKE_NAMED, s, len, 0)) >= 0 && !negated_by(s, (size_t)at, PLAIN_NEGATIONS) &&
	    has(P_REQUEST, s, len) && !has(P_CONDITIONAL, s, len))
		return true;
	if ((has(P_SERIES, s, len) && has(P_REQUEST, s, len)) || has_unnegated(P_FOLLOWING, s, len))
		return true;
	if (!ref)
		return false;
	if (has(P_NOT_PORTED, s, len) && strong)
		return true;
	/* "not worth it unless something needs it" objects, asks nothing */
	if (has(P_WITHOUT, s, len) && !has(P_WORTH_UNLESS, s, len) && (has(P_REQUIRES, s, len) || has(P_DONT_TAKE, s, len) ||
				       has(P_REQUEST, s, len) || has(P_BAD_PATCH, s, len)))
		return true;
	if (has(P_ALSO, s, len) && has(P_ASK_FORM, s, len) && !negated_by(s, (size_t)match_at(P_ASK_FORM, s, len, 0), PLAIN_NEGATIONS))
		return strong || !has(P_WIDEN, s, len);
	if (!strong)
		return false;
	/* "already fixed in X", "this fix needs X": only a plain negation
	 * undoes a requirement */
	for (at = match_at(P_REQUIRES, s, len, 0); at >= 0; at = match_at(P_REQUIRES, s, len, (size_t)at + 1))
		if (!negated_by(s, (size_t)at, PLAIN_NEGATIONS))
			return true;
	return false;
}

static bool sentence_reports(const char *s, size_t len)
{
	long at;

	if (has(P_TRACE, s, len) || has(P_BISECT, s, len))
		return true;
	if (is_question(s, len) || hypothetical(s, len) || has(P_MOTIVE, s, len) || has(P_IF_OPEN, s, len))
		return false;
	at = match_at(P_STATED, s, len, 0);
	if (at >= 0 && !negated_by(s, (size_t)at, PLAIN_NEGATIONS))
		return true;
	return has_unnegated(P_BUILD, s, len) || has_unnegated(P_TROUBLE, s, len) ||
	       has_unnegated(P_DETECTED, s, len) || has_unnegated(P_PERSISTS, s, len) ||
	       has_unnegated(P_REGRESSION, s, len);
}

/* Whether S approves: an approval its clause does not deny. */
static bool approves(const char *s, size_t len)
{
	long at;

	for (at = match_at(P_APPROVAL, s, len, 0); at >= 0; at = match_at(P_APPROVAL, s, len, (size_t)at + 1))
		if (!negated_by(s, (size_t)at, PLAIN_NEGATIONS))
			return true;
	return false;
}

/* STRANGER: the replier is known to have no say in the patch (not its
 * author, a maintainer of its code or a stable maintainer): a question
 * that challenges its place in stable is only a question. */
static bool sentence_objects(const char *s, size_t len, bool stranger)
{
	static const enum pat forms[] = {
		P_DONT_TAKE, P_NOT_MATERIAL, P_NOT_NEEDED, P_NO_NEED, P_NOT_FIX, P_ADVISE_NOT,
		P_BAD_PATCH, P_NEG_STABLE, P_NOT_A_FIX, P_WITHDRAWN, P_ALREADY_IN, P_UNDOCUMENTED, P_NOT_WORK,
		P_NOT_FOR_STABLE,
	};
	size_t k;

	if (has(P_NAK, s, len) ||
	    (!stranger && len && s[len - 1] == '?' && has(P_CHALLENGE, s, len) && !has(P_ALSO, s, len)))
		return true;
	/* "I don't think it makes sense" approves nothing */
	if ((is_question(s, len) && !has(P_REQUEST, s, len)) || approves(s, len) ||
	    has(P_CONDITIONAL, s, len) || has(P_HEDGE, s, len) || has(P_TAKE_INSTEAD, s, len))
		return false;
	/* "we don't need to backport 0a1b2c3d4e5f": not taking another
	 * commit, named by its id, says nothing of this one */
	if (has(P_TAKE_NAMED, s, len) && !has(P_THIS, s, len))
		return false;
	for (k = 0; k < G_N_ELEMENTS(forms); k++)
		if (has(forms[k], s, len))
			return true;
	return has_unnegated(P_DROP, s, len) || has_unnegated(P_REVERTED, s, len);
}

/* Whether S says the patch is not needed (not merely not to take it). */
static bool not_needed(const char *s, size_t len)
{
	return has(P_NOT_NEEDED, s, len) || has(P_NO_NEED, s, len) || has(P_NOT_FIX, s, len) ||
	       has(P_NEG_STABLE, s, len);
}

/* The sentence P (LEN bytes) as a new string; one of over SENTENCE_MAX
 * bytes is cut at a word and ends in " [...]". */
char *fsmn_whole_sentence(const char *p, size_t len)
{
	size_t cut = len;

	if (len <= SENTENCE_MAX)
		return g_strndup(p, len);
	for (cut = SENTENCE_MAX; cut > 0 && p[cut] != ' '; cut--)
		;
	if (!cut)
		cut = SENTENCE_MAX;
	return g_strdup_printf("%.*s [...]", (int)cut, p);
}

/* The end of the sentence starting at P: past its '.', '?' or '!' before
 * a blank, or at the '\n' that closes its paragraph. */
static char *sentence_end(char *p)
{
	char *e = p;

	while (*e && *e != '\n' && !(strchr(".?!", *e) && (!e[1] || isspace((unsigned char)e[1]))))
		e++;
	if (*e && *e != '\n')
		e++;
	return e;
}

/* Whether the sentence is only a greeting, thanks or a sign-off. */
static bool is_small_talk(const char *s, size_t len)
{
	/* words that alone say no more than thanks or "fine" */
	static const char *const polite[] = {
		"thanks", "thank", "you", "thx", "much", "again", "cheers", "regards", "best",
		"hi", "hello", "hey", "all", "looks", "good", "great", "nice", "cool", "fine",
		"lgtm", "perfect", "excellent", "awesome", "ok", "okay",
	};
	size_t words = 0, plain = 0, i, k;

	for (i = 0; i < len;) {
		size_t w = i;
		while (w < len && (isalnum((unsigned char)s[w]) || s[w] == '\''))
			w++;
		if (w == i) {
			i++;
			continue;
		}
		words++;
		for (k = 0; k < G_N_ELEMENTS(polite); k++)
			if (strlen(polite[k]) == w - i && !strncasecmp(s + i, polite[k], w - i)) {
				plain++;
				break;
			}
		i = w;
	}
	/* "Thanks Sam!", "Hi Greg," or "Looks good, thanks.": nothing of
	 * its own; "Same here." or "Will do." may say a lot */
	if ((fsmn_starts(s, len, "Hi ") || fsmn_starts(s, len, "Hello") || fsmn_starts(s, len, "Thanks") ||
	     fsmn_starts(s, len, "Thank you") || fsmn_starts(s, len, "Dear ") || fsmn_starts(s, len, "Cheers")) && words < 5)
		return true;
	return words == plain;
}

/* The sentence S (LEN bytes) with what stands in double quotes (a
 * commit's subject, a quoted phrase) blanked: those are not the
 * replier's cue words; typographic apostrophes read as plain ones
 * ("don\u2019t" is "don't") and emphasis marks ("*not*") are dropped.
 * New string of *OUTLEN bytes (g_free()). */
static char *cue_words(const char *s, size_t len, size_t *outlen)
{
	char *c = g_malloc(len + 1);
	size_t i, o = 0;
	bool in = false;

	for (i = 0; i < len; i++) {
		if (i + 2 < len && (unsigned char)s[i] == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0x99 || (unsigned char)s[i + 2] == 0x98)) {
			c[o++] = '\'';
			i += 2;
		} else if (s[i] == '*' || s[i] == '_') {
			if (!((i && isalnum((unsigned char)s[i - 1])) && i + 1 < len && isalnum((unsigned char)s[i + 1])))
				continue;
			c[o++] = s[i];
		} else {
			c[o++] = s[i];
		}
	}
	c[o] = 0;
	len = *outlen = o;
	/* an address is no word of the replier's: "seeing-more-issues.md" */
	for (i = 0; i + 8 < len; i++)
		if (!strncmp(c + i, "http://", 7) || !strncmp(c + i, "https://", 8))
			for (; i < len && !isspace((unsigned char)c[i]); i++)
				c[i] = ' ';
	/* an unclosed quote blanks nothing; one word in quotes is the
	 * replier's own, in scare quotes ("I don't see the \"bug\"") */
	for (i = 0, o = 0; i < len; i++)
		o += c[i] == '"';
	for (i = 0; o % 2 == 0 && i < len; i++) {
		if (c[i] == '"' && !in) {
			const char *close = memchr(c + i + 1, '"', len - i - 1);
			if (close && !memchr(c + i + 1, ' ', (size_t)(close - c) - i - 1)) {
				i = (size_t)(close - c);
				continue;
			}
			in = true;
		} else if (c[i] == '"') {
			in = false;
		} else if (in) {
			c[i] = ' ';
		}
	}
	return c;
}


/* The sentences of TEXT, in order, into *OUT (g_free() the array). */
static size_t split(char *text, struct sentence **out)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(struct sentence));
	char *p = text;
	size_t n;

	while (*p) {
		char *e = sentence_end(p);
		struct sentence one;
		while (p < e && *p == ' ')
			p++;
		one.s = p;
		one.len = e - p;
		while (one.len && isspace((unsigned char)p[one.len - 1]))
			one.len--;
		if (one.len)
			g_array_append_val(a, one);
		p = *e ? e + (*e == '\n' || *e == ' ') : e;
	}
	n = a->len;
	*out = (struct sentence *)(void *)g_array_free(a, FALSE);
	return n;
}

/* Whether BODY gives, in its own lines (not quoted), a Tested-by,
 * Acked-by or Reviewed-by: then words of no class are that tag's
 * report ("built and booted, no problems"), not a reply to list. */
static bool has_own_ack(const char *body, size_t len)
{
	static const char *const tags[] = { "tested-by:", "acked-by:", "reviewed-by:" };
	const char *p = body, *end = body + len;
	size_t k;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		for (k = 0; k < G_N_ELEMENTS(tags); k++)
			if (fsmn_starts(p, e - p, tags[k]))
				return true;
		p = e + 1;
	}
	return false;
}



/* The sentence-level rules over R's sentences: HITS and FIRST. */
static void read_sentences(struct fsmn_reading *r)
{
	size_t i;
	enum fs_reply_class c;

	for (c = FS_REPLY_OBJECTION; c < FS_REPLY_CLASS_COUNT; c++)
		r->first[c] = r->n;
	for (i = 0; i < r->n; i++) {
		const char *orig = r->v[i].s, *next = i + 1 < r->n ? r->v[i + 1].s : "";
		const char *prev = i ? r->v[i - 1].s : "";
		size_t l0 = r->v[i].len, nl = i + 1 < r->n ? r->v[i + 1].len : 0, l, pl = i ? r->v[i - 1].len : 0;
		char *s = r->cue[i] = cue_words(orig, l0, &l);
		unsigned h = 0;

		r->cuelen[i] = l;
		h |= sentence_needs_also(s, l, orig, l0, next, nl, prev, pl, r->stranger) ? HIT_NEEDS : 0;
		h |= sentence_reports(s, l) ? HIT_REPORTS : 0;
		h |= sentence_objects(s, l, r->stranger) ? HIT_OBJECTS : 0;
		if (r->features) {
			h |= is_question(s, l) ? HIT_QUESTION : 0;
			h |= has(P_NAK, s, l) ? HIT_NAK : 0;
			h |= has(P_TRACE, s, l) || has(P_BISECT, s, l) ? HIT_TRACE : 0;
		}
		/* "not needed unless X": X is why it is not needed, no request */
		if ((h & HIT_NEEDS) && (h & HIT_OBJECTS) && not_needed(s, l))
			h &= ~(unsigned)HIT_NEEDS;
		r->hits[i] = h;
		if (r->first[FS_REPLY_NEEDS_ALSO] == r->n && (h & HIT_NEEDS))
			r->first[FS_REPLY_NEEDS_ALSO] = i;
		if (r->first[FS_REPLY_REPORT] == r->n && (h & HIT_REPORTS))
			r->first[FS_REPLY_REPORT] = i;
		if (r->first[FS_REPLY_OBJECTION] == r->n && (h & HIT_OBJECTS))
			r->first[FS_REPLY_OBJECTION] = i;
		/* "either add X or drop it" offers a choice: no plain drop; a
		 * refusal ("it must not be applied to 7.1", "I'd hold off")
		 * outweighs the commits it names as the reason, but one on a
		 * condition ("not without X") asks for them */
		if ((h & HIT_OBJECTS) && !has(P_EITHER, s, l))
			r->drop_asked |= has(P_DROP_REQUEST, s, l) || has(P_WITHDRAWN, s, l) ||
					 (!has(P_WITHOUT, s, l) && (has(P_DONT_TAKE, s, l) || has(P_ADVISE_NOT, s, l) ||
								    has(P_NEG_STABLE, s, l)));
		if (r->first[FS_REPLY_OTHER] == r->n && !is_small_talk(orig, l0))
			r->first[FS_REPLY_OTHER] = i;
		r->bot |= has(P_AUTOMATED, orig, l0);
		r->new_version |= has(P_NEW_VERSION, s, l);
		r->wants_this |= has(P_TAKE_THIS, s, l) && has(P_PLEASE, s, l);
	}
}

/* The class the phrase rules give R. */
static enum fs_reply_class rule_class(struct fsmn_reading *r)
{
	size_t n = r->n;

	if (r->carries && r->first[FS_REPLY_OTHER] == n && n)
		r->first[FS_REPLY_OTHER] = 0;
	/* trouble beside a request for this very patch is why it is
	 * wanted ("we see the same hang on 7.1, please take this patch
	 * there"): only a trace or a bisection stays a report */
	if (r->wants_this && r->first[FS_REPLY_REPORT] < n) {
		size_t i;

		for (i = 0; i < n; i++)
			if ((r->hits[i] & HIT_REPORTS) && (has(P_TRACE, r->cue[i], r->cuelen[i]) ||
							  has(P_BISECT, r->cue[i], r->cuelen[i])))
				break;
		r->first[FS_REPLY_REPORT] = i;
	}
	/* a bot's notice asks nothing of the maintainer: listed, no more */
	if (r->bot)
		r->first[FS_REPLY_NEEDS_ALSO] = r->first[FS_REPLY_REPORT] = r->first[FS_REPLY_OBJECTION] = n;
	/* The strongest: a NAK, the posting taken back, a request to drop
	 * it or a refusal to take it; more commits asked for; trouble seen; another objection; a
	 * carried patch; then a reply that is none of those. */
	if (r->drop_asked && r->first[FS_REPLY_OBJECTION] < n)
		return FS_REPLY_OBJECTION;
	if (r->first[FS_REPLY_NEEDS_ALSO] < n)
		return FS_REPLY_NEEDS_ALSO;
	if (r->first[FS_REPLY_REPORT] < n)
		return FS_REPLY_REPORT;
	if (r->first[FS_REPLY_OBJECTION] < n)
		return FS_REPLY_OBJECTION;
	if (r->carries || r->new_version)
		return FS_REPLY_REPLACEMENT;
	if (r->first[FS_REPLY_OTHER] < n && !r->ack)
		return FS_REPLY_OTHER;
	return FS_REPLY_NONE;
}

/* Read BODY into R; FEATURES: find the HIT_* that only the features
 * need too. */
void fsmn_read_reply(struct fsmn_reading *r, const char *body, size_t len, bool features,
		     const struct fs_reply_context *ctx)
{
	memset(r, 0, sizeof(*r));
	r->features = features;
	r->stranger = ctx && (ctx->role == FS_ROLE_OTHER || ctx->role == FS_ROLE_BOT);
	r->text = fs_mentions_own_words(body, len, &r->carries);
	r->n = split(r->text, &r->v);
	r->cue = g_new0(char *, r->n + 1);
	r->cuelen = g_new0(size_t, r->n + 1);
	r->hits = g_new0(unsigned, r->n + 1);
	r->ack = has_own_ack(body, len);
	read_sentences(r);
	r->rule = rule_class(r);
}

void fsmn_reading_clear(struct fsmn_reading *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		g_free(r->cue[i]);
	g_free(r->cue);
	g_free(r->cuelen);
	g_free(r->hits);
	g_free(r->v);
	g_free(r->text);
}

/* ---- the words that ask for more commits -------------------------------- */

/* Whether S opens with a commit id (8 hex or more) or "commit <id>": an
 * item of a list of commits. */
static bool opens_with_id(const char *s, size_t len)
{
	size_t i = 0, h = 0;

	while (i < len && (s[i] == ' ' || s[i] == '-' || s[i] == '*' || s[i] == '\t'))
		i++;
	if (len - i > 7 && !strncasecmp(s + i, "commit ", 7))
		i += 7;
	while (i + h < len && isxdigit((unsigned char)s[i + h]))
		h++;
	return h >= 8 && (i + h == len || !isalnum((unsigned char)s[i + h]));
}

char *fs_mentions_asked_words(const char *body, size_t len)
{
	struct fsmn_reading r;
	GString *out = g_string_new(NULL);
	size_t i, k;

	fsmn_read_reply(&r, body, len, false, NULL);
	for (i = 0; i < r.n; i++) {
		if (!(r.hits[i] & HIT_NEEDS))
			continue;
		g_string_append_len(out, r.v[i].s, r.v[i].len);
		g_string_append_c(out, '\n');
		for (k = i + 1; k < r.n && (k == i + 1 || opens_with_id(r.v[k].s, r.v[k].len)); k++) {
			g_string_append_len(out, r.v[k].s, r.v[k].len);
			g_string_append_c(out, '\n');
		}
	}
	fsmn_reading_clear(&r);
	return g_string_free(out, FALSE);
}
