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

#endif
