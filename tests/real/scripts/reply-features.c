/* The features the reply class model reads, exactly as fixscan computes
 * them at run time (fs_mentions_features() with the reply's context).
 *
 * Reads lines "REPLY<TAB>PARENT" on standard input (PARENT may be empty:
 * no parent in hand) and prints one line "REPLY<TAB>feature<TAB>..." per
 * pair; a mail that cannot be read gives the line "REPLY" alone.  The
 * parent's sender counts as a stable maintainer when the parent is a
 * mail the stable scripts post (a review patch, its cover, an AUTOSEL
 * patch), as fs_mentions_objections() counts the senders of a series.
 * Built and run by train-replies.py against build/libfixscan.a; not part
 * of fixscan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "review/mentions-private.h"

static struct fs_patch *read_mail(const char *path)
{
	struct fs_patch *p = NULL;
	struct fs_error err = { 0 };

	if (!*path || fs_patch_parse_file(&p, path, &err) != 0)
		return NULL;
	return p;
}

/* The parent's sender when the stable scripts sent it, as an address. */
static char *stable_sender(const struct fs_patch *parent)
{
	enum fs_reply_parent k = fs_mentions_parent_kind(parent);
	const char *from = parent ? fs_patch_from(parent) : NULL, *lt, *gt;

	size_t len = 0;
	const char *body = parent ? fs_patch_body(parent, &len) : NULL;

	if (!from || (k != FS_PARENT_COVER && k != FS_PARENT_REVIEW && k != FS_PARENT_AUTOSEL))
		return NULL;
	/* a developer's cover of their own backports is no review's */
	if (k == FS_PARENT_COVER &&
	    !(body && g_strstr_len(body, len < 2000 ? (gssize)len : 2000, "stable review cycle")))
		return NULL;
	lt = strrchr(from, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	return lt && gt ? g_strndup(lt + 1, (gsize)(gt - lt - 1)) : g_strdup(from);
}

static void print_clean(const char *s)
{
	for (; *s; s++)
		putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

int main(void)
{
	char line[8192];

	while (fgets(line, sizeof(line), stdin)) {
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
		const char *parent_path = "";
		struct fs_patch *reply, *parent;
		struct fs_reply_context ctx;
		char *sender;
		const char *senders[2] = { NULL, NULL }, *body;
		GPtrArray *f;
		size_t len, k;

		if (nl)
			*nl = '\0';
		if (tab) {
			*tab = '\0';
			parent_path = tab + 1;
		}
		reply = read_mail(line);
		printf("%s", line);
		if (!reply) {
			printf("\n");
			continue;
		}
		parent = read_mail(parent_path);
		sender = stable_sender(parent);
		senders[0] = sender;
		fs_mentions_reply_context(&ctx, reply, parent, senders);
		body = fs_patch_body(reply, &len);
		f = g_ptr_array_new_with_free_func(g_free);
		fs_mentions_features(body ? body : "", body ? len : 0, &ctx, f);
		for (k = 0; k < f->len; k++) {
			printf("\t");
			print_clean(f->pdata[k]);
		}
		printf("\n");
		g_ptr_array_free(f, TRUE);
		g_free(sender);
		if (parent)
			fs_patch_free(parent);
		fs_patch_free(reply);
	}
	return 0;
}
