/* fixscan: a stable-queue directory (lib/mail/source-queue.c): the series
 * file and the patch files it names.  The input is split at lines
 * "%%%": the first part is the series file, each next one a patch file
 * named by its first line (a name holding '/' is made flat, so nothing
 * is written outside the scratch queue).  The series parser alone
 * (fs_source_queue_names()) sees the first part too. */
#include <glib/gstdio.h>

#include "fuzz.h"
#include "fixscan/source.h"
#include "fixscan/thread.h"
#include "mail/source-queue.h"

static char *root;
static unsigned long runs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	root = fuzz_scratch("queue");
	if (!root)
		abort();
	return 0;
}

/* Remove the scratch queue DIR and everything in it (one level). */
static void remove_dir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		char *p = g_build_filename(dir, name, NULL);

		g_remove(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	char **parts = g_strsplit(text, "\n%%%\n", 16), **names = NULL;
	char *dir = g_strdup_printf("%s/q%lu", root, runs++);
	struct fs_thread **threads = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t n = 0, i;

	/* The parser on the bytes as given, NULs included. */
	if (fs_source_queue_names(&names, &n, (const char *)data, size, "series", &err) == 0) {
		for (i = 0; i < n; i++)
			if (!names[i] || !*names[i] || strchr(names[i], '\n'))
				abort();
		if (names[n])
			abort();
	}
	g_strfreev(names);
	g_mkdir(dir, 0700);
	for (i = 0; parts[i]; i++) {
		char *nl = strchr(parts[i], '\n'), *name, *p;
		const char *body = parts[i];

		if (i == 0) {
			name = g_strdup("series");
		} else {
			name = g_strndup(parts[i], nl ? (size_t)(nl - parts[i]) : strlen(parts[i]));
			body = nl ? nl + 1 : "";
			g_strdelimit(name, "/", '_');
			if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
				g_free(name);
				continue;
			}
		}
		p = g_build_filename(dir, name, NULL);
		g_file_set_contents(p, body, -1, NULL);
		g_free(p);
		g_free(name);
	}
	n = 0;
	if (fs_source_load_queue(&threads, &n, dir, NULL, &err) == 0) {
		fs_source_free(threads, n);
	} else if (!err.message[0]) {
		abort();
	}
	remove_dir(dir);
	g_free(dir);
	g_strfreev(parts);
	g_free(text);
	return 0;
}
