/* fixscan: the changelog tag extractor (lib/kernel/trailers.c) on any text. */
#include "fuzz.h"
#include "fixscan/trailers.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_trailers *t = NULL;
	char *text = malloc(size + 1), *s;
	size_t n, i;
	bool diff;

	if (!text)
		return 0;
	/* Not NUL-terminated, as the interface allows: a copy of exactly
	 * SIZE bytes lets ASan see a read past the end. */
	memcpy(text, data, size);
	if (fs_trailers_parse(&t, text, size, &err) == 0) {
		const char *const *up = fs_trailers_upstream(t, &n);
		for (i = 0; i < n; i++)
			(void)strlen(up[i]);
		fs_trailers_fixes(t, &n);
		fs_trailers_reverts(t, &n);
		fs_trailers_stable_dep_of(t, &n);
		fs_trailers_cc_stable(t, &n);
		fs_trailers_has_diff(t);
		fs_trailers_free(t);
	}
	fs_trailers_changelog_len(text, size, &diff);
	text[size] = '\0';
	/* The subject helpers take a C string. */
	g_free(fs_trailers_revert_title(text));
	s = fs_trailers_normalize_subject(text);
	g_free(s);
	free(text);
	return 0;
}
