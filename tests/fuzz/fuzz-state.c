/* fixscan: the drafts state file reader (fs_drafts_state_load()) on any
 * file.  What it accepts must survive a round trip: noted, saved and
 * read back, the state must load again and know the draft noted. */
#include <time.h>

#include "fuzz.h"
#include "fixscan/drafts.h"

static char *dir, *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	dir = fuzz_scratch("state");
	if (!dir)
		abort();
	path = g_build_filename(dir, "drafts", NULL);
	return 0;
}

static const char digest[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fs_drafts_state *s = NULL, *again = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *key, *dg;

	if (!g_file_set_contents(path, (const char *)data, (gssize)size, NULL))
		return 0;
	if (fs_drafts_state_load(&s, path, &err) < 0) {
		if (s || !err.message[0])
			abort(); /* refused: no state, and a reason */
		return 0;
	}
	fs_drafts_state_find(s, "fuzz@example.org", &key, &dg);
	fs_drafts_state_note(s, "patch <fuzz@example.org>", "fixscan.fuzz@example.org", digest,
			     time(NULL));
	if (fs_drafts_state_save(s, &err) < 0)
		abort();
	if (fs_drafts_state_load(&again, path, &err) < 0) {
		fprintf(stderr, "what was saved does not load: %s\n", err.message);
		abort();
	}
	if (!fs_drafts_state_find(again, "fixscan.fuzz@example.org", &key, &dg) ||
	    strcmp(key, "patch <fuzz@example.org>") || strcmp(dg, digest))
		abort();
	fs_drafts_state_free(again);
	fs_drafts_state_free(s);
	return 0;
}
