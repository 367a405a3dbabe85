/* The features the reply class model reads, for each mail file named on
 * the command line: one line "FILE<TAB>feature<TAB>feature...".  Built and
 * run by train-replies.py against build/libfixscan.a; not part of fixscan. */
#include <stdio.h>
#include <string.h>

#include "fixscan/mail.h"
#include "review/mentions-private.h"

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		struct fs_patch *p = NULL;
		struct fs_error err = { 0 };
		GPtrArray *f;
		const char *body;
		size_t len, k;

		if (fs_patch_parse_file(&p, argv[i], &err) != 0) {
			printf("%s\n", argv[i]);
			continue;
		}
		body = fs_patch_body(p, &len);
		f = g_ptr_array_new_with_free_func(g_free);
		fs_mentions_features(body ? body : "", body ? len : 0, NULL, f);
		printf("%s", argv[i]);
		for (k = 0; k < f->len; k++) {
			const char *s = f->pdata[k];
			printf("\t");
			for (; *s; s++)
				putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
		}
		printf("\n");
		g_ptr_array_free(f, TRUE);
		fs_patch_free(p);
	}
	return 0;
}
