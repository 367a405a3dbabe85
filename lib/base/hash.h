/* fixscan: the one string hash, 64-bit FNV-1a (private to the library).
 *
 * Small, fast on short keys and stable across versions and machines: the
 * fixes index keeps such hashes on disk (subjects, series keys) and names
 * cache files by them, so the function may never change. */
#ifndef FIXSCAN_HASH_H
#define FIXSCAN_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a's 64-bit offset basis, what a hash starts from, and its prime. */
#define FS_FNV1A_BASIS 0xcbf29ce484222325ull
#define FS_FNV1A_PRIME 0x100000001b3ull

/* H with byte C added: for a caller that changes bytes on the way
 * (fsi_author_hash() folds case). */
static inline uint64_t fs_fnv1a_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * FS_FNV1A_PRIME;
}

/* H with the LEN bytes at DATA added; a hash starts at FS_FNV1A_BASIS. */
uint64_t fs_fnv1a(uint64_t h, const void *data, size_t len);

/* The hash of NUL-terminated S (without its NUL). */
uint64_t fs_fnv1a_str(const char *s);

#endif
