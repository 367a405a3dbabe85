/* fixscan: what the libFuzzer harnesses share.  Each harness is one
 * fuzz-<name>.c defining LLVMFuzzerTestOneInput; see README. */
#ifndef FIXSCAN_FUZZ_H
#define FIXSCAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A GLib critical is a bug of ours (a NULL or a bad length passed on):
 * make it abort so the fuzzer reports it. */
static inline void fuzz_fatal_criticals(void)
{
	g_log_set_always_fatal(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR);
}

/* An anonymous file holding HEAD (may be NULL) then DATA, with its path
 * in PATH ("/proc/self/fd/N"), so the readers see a file by name without
 * touching the disk.  Returns the descriptor (close it), or -1. */
static inline int fuzz_file(const char *head, const uint8_t *data, size_t size,
			    char path[64])
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if ((head && write(fd, head, strlen(head)) != (ssize_t)strlen(head)) ||
	    (size && write(fd, data, size) != (ssize_t)size)) {
		close(fd);
		return -1;
	}
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	return fd;
}

/* A scratch directory under $TMPDIR (make fuzz points it at /dev/shm
 * when it can), removed with everything in it when the fuzzer exits.
 * New string, kept for the process's life. */
static char *fuzz_scratch_dir;

static inline void fuzz_scratch_remove(void)
{
	char *argv[] = { "rm", "-rf", fuzz_scratch_dir, NULL };

	if (fuzz_scratch_dir)
		g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
			     G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

static inline char *fuzz_scratch(const char *name)
{
	char *tmpl = g_strdup_printf("fuzz-%s-XXXXXX", name);

	fuzz_scratch_dir = g_dir_make_tmp(tmpl, NULL);
	g_free(tmpl);
	if (!fuzz_scratch_dir)
		abort();
	atexit(fuzz_scratch_remove);
	return fuzz_scratch_dir;
}

#endif
