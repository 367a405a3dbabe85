/* fixscan: the commits a mail names as the cause of its problem (see
 * culprit.h).  A mail from the archives is anyone's: the words that
 * count are the poster's own, and the forms that count are those people
 * and bots really write when they blame a commit.  Lines first (regzbot
 * commands and bisection output are lines, wherever they stand), then
 * the sentences of the poster's own words. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "fixscan/culprit.h"
#include "review/mentions-private.h"

/* The shortest id read: a query asks for 12 digits and more. */
#define MIN_HEX 12
/* How far (bytes) a causal word may stand from the id it blames. */
#define NEAR 60

const char *fs_culprit_how_name(enum fs_culprit_how how)
{
	switch (how) {
	case FS_CULPRIT_REGZBOT: return "regzbot";
	case FS_CULPRIT_BISECTED: return "bisected";
	default: return "caused";
	}
}

void fs_culprits_free(struct fs_culprit *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		g_free(v[i].line);
	g_free(v);
}

/* The length of the run of hex digits at S (at most N bytes), 0 when it
 * is not a whole word of MIN_HEX to 40 digits (a letter or digit right
 * after it, or before it at S[-1] when AT_START is false). */
static size_t hex_word(const char *s, size_t n, bool at_start)
{
	size_t k = 0;

	if (!at_start && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
		return 0;
	while (k < n && isxdigit((unsigned char)s[k]))
		k++;
	if (k < MIN_HEX || k > 40 || (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_')))
		return 0;
	return k;
}

static void add(GArray *v, const char *id, size_t n, enum fs_culprit_how how, const char *line,
		size_t llen)
{
	struct fs_culprit c;
	size_t i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < n; i++)
		c.id[i] = g_ascii_tolower(id[i]);
	for (i = 0; i < v->len; i++)
		if (!strcmp(g_array_index(v, struct fs_culprit, i).id, c.id))
			return;
	c.how = how;
	c.line = g_strstrip(g_strndup(line, llen));
	g_array_append_val(v, c);
}

/* Whether the L bytes at S begin with WORD, without case. */
static bool starts_ci(const char *s, size_t l, const char *word)
{
	size_t n = strlen(word);

	return l >= n && !strncasecmp(s, word, n);
}

/* "#regzbot introduced: <id>" or "#regzbot ^introduced <id>"; a range
 * ("<id>..<id>", "v6.1..v6.2") names no one commit. */
static size_t regzbot_id(const char *s, size_t l, const char **id)
{
	const char *e = s + l, *p;
	size_t k;

	if (!starts_ci(s, l, "#regzbot"))
		return 0;
	p = s + 8;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '^')
		p++;
	if (!starts_ci(p, e - p, "introduced"))
		return 0;
	p += 10;
	if (p < e && *p == ':')
		p++;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	k = p < e ? hex_word(p, e - p, true) : 0;
	if (!k || (p + k + 1 < e && p[k] == '.' && p[k + 1] == '.'))
		return 0;
	*id = p;
	return k;
}

/* The id of a bisection's result line: "<id> is the first bad commit"
 * (git bisect) or "# first bad commit: [<id>] ..." (git bisect log). */
static size_t bisect_line_id(const char *s, size_t l, const char **id)
{
	const char *at;
	size_t k = hex_word(s, l, true);

	if (k && starts_ci(s + k, l - k, " is the first bad commit")) {
		*id = s;
		return k;
	}
	at = strcasestr(s, "first bad commit: [");
	if (at && at < s + l) {
		at += strlen("first bad commit: [");
		k = hex_word(at, s + l - at, true);
		if (k && at + k < s + l && at[k] == ']') {
			*id = at;
			return k;
		}
	}
	return 0;
}

/* Whether the line S (L bytes) announces a bisection's result on the
 * lines below: it ends in ':' and speaks of bisecting, a first bad
 * commit, a culprit or KernelCI's "Breaking commit found:". */
static bool announces(const char *s, size_t l)
{
	char *low;
	bool yes;

	if (!l || s[l - 1] != ':')
		return false;
	low = g_ascii_strdown(s, l);
	yes = strstr(low, "bisect") || strstr(low, "first bad commit") || strstr(low, "culprit") ||
	      strstr(low, "breaking commit");
	g_free(low);
	return yes;
}

/* The id a line below such an announcement begins with: "<id>
 * (\"subject\")" or "commit <id>". */
static size_t announced_id(const char *s, size_t l, const char **id)
{
	size_t k;

	if (starts_ci(s, l, "commit ")) {
		s += 7;
		l -= 7;
	}
	k = hex_word(s, l, true);
	if (k)
		*id = s;
	return k;
}

/* Read the lines of BODY: regzbot commands and bisection results.  A
 * quoted line, or anything after a carried diff, is not the poster's. */
static void read_lines(GArray *v, const char *body, size_t len)
{
	const char *p = body, *end = body + len;
	/* Lines left after one that announces a result on the lines below
	 * ("git bisect names this as the first bad commit:", KernelCI's
	 * "Breaking commit found:"); separators and blank lines aside. */
	int intro = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end, *s = p, *id = NULL;
		size_t l, k;

		p = e + 1;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		l = e - s;
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		if (starts_ci(s, l, "diff --git "))
			break;
		if (!l || *s == '>')
			continue;
		if ((k = regzbot_id(s, l, &id)))
			add(v, id, k, FS_CULPRIT_REGZBOT, s, l);
		else if ((k = bisect_line_id(s, l, &id)))
			add(v, id, k, FS_CULPRIT_BISECTED, s, l);
		else if (intro && (k = announced_id(s, l, &id)))
			add(v, id, k, FS_CULPRIT_BISECTED, s, l);
		if (announces(s, l))
			intro = 3;
		else if (intro && strspn(s, "-=_* ") < l)
			intro--;
	}
}

/* ---- sentences ----------------------------------------------------------- */

/* Words that say a commit caused something, and words that say that
 * something is a problem ("after commit X the board hangs": "after" and
 * "hang"); or that taking the commit out cures it ("reverting X fixes
 * it"). */
static const char *const causal[] = {
	"caus", "introduc", "broke", "break", "regress", "since", "after", "trigger",
	"culprit", "started", "blame", "due to", "because of", "with commit",
};
static const char *const trouble[] = {
	"regress", "bug", "problem", "issue", "break", "broke", "crash", "hang", "warn",
	"fail", "leak", "deadlock", "oops", "panic", "error", "lockup", "stall", "corrupt",
	"splat", "kasan", "null pointer", "null-ptr", "no longer", "stopped working",
	"not work", "n't work", "slow", "lost", "wrong", "incorrect", "misbehav", "freez",
};
static const char *const cured[] = { "fix", "help", "resolv", "solv", "cure", "work" };
/* Words that say the commit cured rather than caused ("since X the
 * hang is gone", "after X we can avoid the crash"): a sentence with one
 * of them blames no commit by a causal word. */
static const char *const relief[] = {
	"fix", "gone", "resolv", "solv", "disappear", "vanish", "cure", "avoid", "prevent",
	"better", "work again", "works again",
};
/* Words that take the blame back before the causal word ("I don't
 * think X caused it", "not caused by X", "never broke"). */
static const char *const negation[] = { "not", "never", "nothing", "neither", "nor", "no one" };

/* Whether LOWER (lower case, quotes blanked) has one of WORDS (N) in
 * [FROM, TO); the first one's position goes to *AT (may be NULL). */
static bool has_one(const char *lower, size_t from, size_t to, const char *const *words,
		    size_t n, size_t *at)
{
	size_t i, best = to;

	for (i = 0; i < n; i++) {
		const char *hit = g_strstr_len(lower + from, to - from, words[i]);
		if (hit && (size_t)(hit - lower) < best)
			best = hit - lower;
	}
	if (at)
		*at = best;
	return best < to;
}

/* Whether a word of NEGATION, or one ending in "n't", stands in LOWER
 * before AT in the same clause. */
static bool negated(const char *lower, size_t at)
{
	size_t start = at, i, k;

	while (start > 0 && !strchr(",;:", lower[start - 1]))
		start--;
	for (i = start; i < at; i++) {
		if (i + 3 <= at && !strncmp(lower + i, "n't", 3))
			return true;
		if (i > start && isalpha((unsigned char)lower[i - 1]))
			continue;
		for (k = 0; k < G_N_ELEMENTS(negation); k++) {
			size_t n = strlen(negation[k]);
			if (i + n <= at && !strncmp(lower + i, negation[k], n) &&
			    !isalpha((unsigned char)lower[i + n]))
				return true;
		}
	}
	return false;
}

/* The sentence S (L bytes) in lower case, with what stands in double
 * quotes (a commit's subject: "usb: fix a crash") blanked. */
static char *lower_blanked(const char *s, size_t l)
{
	char *low = g_ascii_strdown(s, l);
	bool in = false;
	size_t i;

	for (i = 0; i < l; i++) {
		if (low[i] == '"') {
			in = !in;
			low[i] = ' ';
		} else if (in) {
			low[i] = ' ';
		}
	}
	return low;
}

/* Whether the id at [AT, AT+K) of the sentence LOWER (L bytes) is named
 * as a culprit: a causal word within NEAR bytes of it, not negated, and
 * a word of trouble in the sentence.  *HOW gets BISECTED for a sentence
 * of bisecting ("bisected it to X"), else CAUSED. */
static bool blamed(const char *lower, size_t l, size_t at, size_t k, enum fs_culprit_how *how)
{
	size_t from = at > NEAR ? at - NEAR : 0, to = at + k + NEAR < l ? at + k + NEAR : l;
	size_t where, b, c;

	/* A bisection log ("git bisect good X") marks ids, it blames none. */
	if (strstr(lower, "git bisect good") || strstr(lower, "git bisect bad") ||
	    strstr(lower, "git bisect start") || strstr(lower, "git bisect skip"))
		return false;
	if (has_one(lower, 0, at, (const char *const[]){ "bisect" }, 1, &b)) {
		static const char *const ends[] = { " to ", " at ", " on ", "blame", "found",
						    "identif", "culprit", "first bad", "result" };
		if (has_one(lower, b, at, ends, G_N_ELEMENTS(ends), NULL) && !negated(lower, b)) {
			*how = FS_CULPRIT_BISECTED;
			return true;
		}
	}
	*how = FS_CULPRIT_CAUSED;
	/* "reverting X fixes it", "with X reverted it works again" */
	if (has_one(lower, from, to, (const char *const[]){ "revert" }, 1, &where) &&
	    has_one(lower, where, l, cured, G_N_ELEMENTS(cured), &c) && !negated(lower, c))
		return true;
	return has_one(lower, from, to, causal, G_N_ELEMENTS(causal), &where) &&
	       has_one(lower, 0, l, trouble, G_N_ELEMENTS(trouble), NULL) &&
	       !has_one(lower, 0, l, relief, G_N_ELEMENTS(relief), NULL) &&
	       !negated(lower, where < at ? where : at);
}

static void read_sentence(GArray *v, const char *s, size_t l)
{
	char *lower = lower_blanked(s, l);
	size_t i = 0;

	while (i < l) {
		size_t k = hex_word(s + i, l - i, i == 0);
		enum fs_culprit_how how;

		if (k && lower[i] != ' ' && blamed(lower, l, i, k, &how))
			add(v, s + i, k, how, s, l);
		i += k ? k : 1;
	}
	g_free(lower);
}

/* Split TEXT (the own words: lines joined, '\n' between paragraphs) into
 * sentences and read each. */
static void read_sentences(GArray *v, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *e = p;
		while (*e && *e != '\n' && !(strchr(".?!", *e) && (!e[1] || isspace((unsigned char)e[1]))))
			e++;
		read_sentence(v, p, e - p + (*e && *e != '\n'));
		p = *e ? e + 1 : e;
		while (*p == ' ')
			p++;
	}
}

size_t fs_culprits_find(const char *body, size_t len, struct fs_culprit **out)
{
	GArray *v = g_array_new(FALSE, TRUE, sizeof(struct fs_culprit));
	char *own;
	size_t n;

	read_lines(v, body, len);
	own = fs_mentions_own_words(body, len, NULL);
	read_sentences(v, own);
	g_free(own);
	n = v->len;
	*out = (struct fs_culprit *)(void *)g_array_free(v, FALSE);
	return n;
}
