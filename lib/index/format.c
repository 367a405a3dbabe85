/* fixscan: the shared leaf of the index: the file's checksum, hashes and
 * hex packing (see format.h for the layout). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "base/hash.h"
#include "format.h"

const size_t fsi_section_elem[SEC_COUNT] = {
	[SEC_COMMITS] = sizeof(struct fs_disk_commit),
	[SEC_PARENTS] = sizeof(uint32_t),
	[SEC_REFS] = sizeof(struct fs_disk_ref),
	[SEC_REFKEYS] = sizeof(uint32_t),
	[SEC_REFSUBJ] = sizeof(struct fs_disk_hash),
	[SEC_SUBJECTS] = sizeof(struct fs_disk_hash),
	[SEC_RELEASES] = sizeof(uint32_t),
	[SEC_BRANCHES] = sizeof(struct fs_disk_branch),
	[SEC_TIPS] = sizeof(struct fs_disk_tip),
	[SEC_STRINGS] = 1,
	[SEC_RELSET] = sizeof(struct fs_disk_relset),
	[SEC_RELMAP] = sizeof(uint16_t),
	[SEC_PENDING] = 1,
};

/* ---- hashing ------------------------------------------------------------ */

/* The checksum mixes whole 8-byte words with FNV's prime, then folds the
 * high bits down: FNV-1a (base/hash.h) steps a byte at a time. */
#define CK_PRIME FS_FNV1A_PRIME

static inline uint64_t ck_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * CK_PRIME;
	return h ^ (h >> 29);
}

void fsi_ck_init(struct fsi_ck *ck, uint64_t len)
{
	int k;

	for (k = 0; k < 4; k++)
		ck->lane[k] = (0x9e3779b97f4a7c15ull + (uint64_t)k) ^ len;
	ck->words = 0;
}

void fsi_ck_update(struct fsi_ck *ck, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w[4];

	while (len >= 8 && (ck->words & 3)) {
		memcpy(w, p, 8);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
		p += 8;
		len -= 8;
	}
	while (len >= 32) {
		memcpy(w, p, 32);
		ck->lane[0] = ck_mix(ck->lane[0], w[0]);
		ck->lane[1] = ck_mix(ck->lane[1], w[1]);
		ck->lane[2] = ck_mix(ck->lane[2], w[2]);
		ck->lane[3] = ck_mix(ck->lane[3], w[3]);
		ck->words += 4;
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		memcpy(w, p, 8);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
		p += 8;
		len -= 8;
	}
	if (len) {
		/* Only the last piece may end in a partial word. */
		w[0] = 0;
		memcpy(w, p, len);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
	}
}

uint64_t fsi_ck_final(const struct fsi_ck *ck)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ck->words;
	int k;

	for (k = 0; k < 4; k++)
		h = ck_mix(h, ck->lane[k]);
	h *= CK_PRIME;
	return h ^ (h >> 32);
}

uint64_t fsi_checksum(const void *data, size_t len)
{
	struct fsi_ck ck;

	fsi_ck_init(&ck, len);
	fsi_ck_update(&ck, data, len);
	return fsi_ck_final(&ck);
}

uint64_t fsi_body_split(uint64_t len)
{
	return len / 2 / 32 * 32;
}

void fsi_body_ck_init(struct fsi_body_ck *ck, uint64_t len)
{
	ck->split = fsi_body_split(len);
	ck->pos = 0;
	fsi_ck_init(&ck->half[0], ck->split);
	fsi_ck_init(&ck->half[1], len - ck->split);
}

void fsi_body_ck_update(struct fsi_body_ck *ck, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (ck->pos < ck->split) {
		size_t n = ck->split - ck->pos < len ? (size_t)(ck->split - ck->pos) : len;
		fsi_ck_update(&ck->half[0], p, n);
		ck->pos += n;
		p += n;
		len -= n;
	}
	if (len) {
		fsi_ck_update(&ck->half[1], p, len);
		ck->pos += len;
	}
}

uint64_t fsi_body_fold(uint64_t first, uint64_t second)
{
	uint64_t h = ck_mix(0x9e3779b97f4a7c15ull, first);

	h = ck_mix(h, second) * CK_PRIME;
	return h ^ (h >> 32);
}

uint64_t fsi_body_ck_final(const struct fsi_body_ck *ck)
{
	return fsi_body_fold(fsi_ck_final(&ck->half[0]), fsi_ck_final(&ck->half[1]));
}

uint64_t fsi_file_checksum(const struct fs_disk_header *h, uint64_t body)
{
	struct fs_disk_header copy = *h;

	copy.checksum = body;
	return fsi_checksum(&copy, sizeof(copy));
}

uint16_t fsi_author_hash(const char *author, size_t len)
{
	const char *p, *end, *lt = NULL, *gt;
	uint64_t h = FS_FNV1A_BASIS;

	if (!author)
		return 0;
	end = author + len;
	for (p = author; p < end; p++)
		if (*p == '<')
			lt = p;
	if (lt) {
		p = lt + 1;
		gt = memchr(p, '>', (size_t)(end - p));
		end = gt ? gt : end;
	} else {
		p = author;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (p == end)
		return 0;
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = fs_fnv1a_byte(h, c);
	}
	h ^= h >> 32;
	h ^= h >> 16;
	return (uint16_t)h ? (uint16_t)h : 1;
}

uint64_t fsi_subject_hash(const char *subject)
{
	char *norm;
	uint64_t h;

	if (!subject || !*subject)
		return 0;
	norm = fs_trailers_normalize_subject(subject);
	if (!norm)
		return 0;
	h = *norm ? fs_fnv1a_str(norm) : 0;
	g_free(norm);
	return h;
}

int fsi_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void fsi_pack_hex(uint8_t key[20], const char *hex, size_t len)
{
	size_t i;

	memset(key, 0, 20);
	for (i = 0; i < len && i < 40; i++) {
		int v = fsi_hexval(hex[i]);
		if (v < 0)
			v = 0;
		key[i / 2] |= (uint8_t)(i % 2 ? v : v << 4);
	}
}

void fsi_unpack_hex(char *out, const uint8_t *key, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = digits[i % 2 ? key[i / 2] & 15 : key[i / 2] >> 4];
	out[len] = '\0';
}

char *fsi_delta_path(const char *path)
{
	return g_strdup_printf("%s.delta", path);
}

uint64_t fsi_be64(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return __builtin_bswap64(x);
}

size_t fsi_interp_lower_bound(size_t n, uint64_t k, uint64_t (*at)(size_t, const void *),
			      int (*before)(size_t, const void *), const void *data)
{
	/* The answer is in [lo, hi]; every element before lo sorts before
	 * the key, every one from hi on does not, and their leading bits
	 * are within [klo, khi]. */
	size_t lo = 0, hi = n;
	uint64_t klo = 0, khi = UINT64_MAX;
	int probes;

	for (probes = 0; probes < 6 && hi - lo > 16; probes++) {
		double f = (double)(k - klo) / ((double)(khi - klo) + 1.0);
		size_t mid = lo + (size_t)(f * (double)(hi - lo));

		if (mid >= hi)
			mid = hi - 1;
		if (before(mid, data)) {
			lo = mid + 1;
			klo = at(mid, data);
		} else {
			hi = mid;
			khi = at(mid, data);
		}
		if (k < klo || k > khi)
			break; /* out of order: no estimate to trust */
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(mid, data))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
