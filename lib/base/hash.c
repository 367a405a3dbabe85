/* fixscan: 64-bit FNV-1a (see hash.h). */
#include "hash.h"

uint64_t fs_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = fs_fnv1a_byte(h, *p++);
	return h;
}

uint64_t fs_fnv1a_str(const char *s)
{
	uint64_t h = FS_FNV1A_BASIS;

	for (; *s; s++)
		h = fs_fnv1a_byte(h, (unsigned char)*s);
	return h;
}
