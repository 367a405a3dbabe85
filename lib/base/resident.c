/* fixscan: the process's resident memory (see resident.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "resident.h"

/* Field FIELD (1: the resident set, 2: its pages of files) of
 * /proc/self/statm, in bytes; 0 when unknown. */
static size_t statm(int field)
{
	/* sizes in pages: total, resident, of files (and shared memory), ... */
	char buf[128];
	unsigned long long size, resident, shared;
	long page = sysconf(_SC_PAGESIZE);
	ssize_t n;
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || page <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu", &size, &resident, &shared) != 3)
		return 0;
	return (size_t)((field == 1 ? resident : shared) * (unsigned long long)page);
}

size_t fs_resident_bytes(void)
{
	return statm(1);
}

size_t fs_resident_mapped(void)
{
	return statm(2);
}
