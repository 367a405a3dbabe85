/* fixscan: the process's resident memory, for the long loops that keep
 * it down (review.c).  Private to lib/.
 *
 * Most of what a review holds resident is mapped files: the index and
 * the packs.  Their pages come from the page cache, and the kernel maps
 * its neighbours in with every fault (fault-around, large folios), so
 * the resident size of a mapping read at a few thousand places grows
 * with how much of the file the page cache holds, not with what the
 * program reads.  Those pages are given back with MADV_DONTNEED and come
 * back from the cache when read again; a loop asks this module when that
 * is worth doing. */
#ifndef FIXSCAN_BASE_RESIDENT_H
#define FIXSCAN_BASE_RESIDENT_H

#include <stddef.h>

/* The process's resident set in bytes (heap and mapped files alike), or
 * 0 when the system does not say (no /proc). */
size_t fs_resident_bytes(void);

/* The part of it that is pages of mapped files (what MADV_DONTNEED on
 * the mappings gives back), or 0 when unknown. */
size_t fs_resident_mapped(void);

#endif
