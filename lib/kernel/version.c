/* fixscan: kernel release and branch names (see fixscan/version.h). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fixscan/version.h"

/* The number at S (at most N bytes) into *OUT: how many digits it has, 0
 * when there is none, it has a leading zero ("05") or is too big. */
static size_t number(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (i == 1 && s[0] == '0')
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > FS_VERSION_NUMBER_MAX)
			return 0;
	}
	*out = v;
	return i;
}

size_t fs_version_scan(const char *s, size_t n, struct fs_version *out)
{
	struct fs_version v = { { 0 }, 0, 0, false };
	size_t i = 0, k;
	unsigned x;

	memset(out, 0, sizeof(*out));
	if (n && s[0] == 'v') {
		v.v = true;
		i = 1;
	}
	k = number(s + i, n - i, &v.part[0]);
	if (!k)
		return 0;
	i += k;
	v.nparts = 1;
	/* A dot continues the version only when a number follows it. */
	while (v.nparts < FS_VERSION_PARTS && i + 1 < n && s[i] == '.' &&
	       (k = number(s + i + 1, n - i - 1, &x)) > 0) {
		v.part[v.nparts++] = x;
		i += 1 + k;
	}
	if (i + 3 < n && s[i] == '-' && s[i + 1] == 'r' && s[i + 2] == 'c' &&
	    (k = number(s + i + 3, n - i - 3, &x)) > 0 && x >= 1) {
		v.rc = x;
		i += 3 + k;
	}
	*out = v;
	return i;
}

bool fs_version_parse(const char *name, struct fs_version *out)
{
	size_t k;

	if (!name) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	/* SIZE_MAX: the NUL continues no version, so the scan stops there. */
	k = fs_version_scan(name, SIZE_MAX, out);
	return k > 0 && name[k] == '\0';
}

static bool is_2_6(const struct fs_version *v)
{
	return v->nparts >= 2 && v->part[0] == 2 && v->part[1] == 6;
}

unsigned fs_version_series_parts(const struct fs_version *v)
{
	return is_2_6(v) ? 3 : 2;
}

bool fs_version_is_mainline(const struct fs_version *v)
{
	return v->nparts == fs_version_series_parts(v);
}

bool fs_version_is_stable(const struct fs_version *v)
{
	unsigned sp = fs_version_series_parts(v);

	return v->nparts == sp + 1 && v->part[sp] >= 1;
}

bool fs_version_is_release(const struct fs_version *v)
{
	return fs_version_is_mainline(v) || (fs_version_is_stable(v) && !v->rc);
}

bool fs_version_is_series(const struct fs_version *v)
{
	return !v->v && !v->rc && (v->nparts == 2 || v->nparts == fs_version_series_parts(v));
}

bool fs_version_series(const struct fs_version *v, struct fs_version *out)
{
	unsigned sp = fs_version_series_parts(v), i;

	memset(out, 0, sizeof(*out));
	if (v->nparts < 2)
		return false;
	out->nparts = v->nparts < sp ? v->nparts : sp;
	for (i = 0; i < out->nparts; i++)
		out->part[i] = v->part[i];
	return true;
}

bool fs_version_base(const struct fs_version *v, struct fs_version *out)
{
	unsigned sp = fs_version_series_parts(v);

	memset(out, 0, sizeof(*out));
	if (!fs_version_is_stable(v))
		return false;
	*out = *v;
	out->rc = 0;
	out->v = true;
	if (out->part[sp] > 1) {
		out->part[sp]--;
	} else {
		out->part[sp] = 0;
		out->nparts = sp;
	}
	return true;
}

/* The numbers, then the -rc (none after every -rc). */
static int cmp_numbers(const struct fs_version *a, const struct fs_version *b)
{
	unsigned ra = a->rc ? a->rc : UINT_MAX, rb = b->rc ? b->rc : UINT_MAX;
	int i;

	for (i = 0; i < FS_VERSION_PARTS; i++)
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i] ? -1 : 1;
	return (ra > rb) - (ra < rb);
}

int fs_version_cmp(const struct fs_version *a, const struct fs_version *b)
{
	int c = cmp_numbers(a, b);

	if (c)
		return c;
	if (a->nparts != b->nparts)
		return a->nparts < b->nparts ? -1 : 1;
	return (int)a->v - (int)b->v;
}

bool fs_version_same_cycle(const struct fs_version *a, const struct fs_version *b)
{
	struct fs_version x = *a, y = *b;

	x.rc = y.rc = 0;
	x.v = y.v = false;
	return fs_version_cmp(&x, &y) == 0;
}

int fs_version_name_cmp(const char *a, const char *b)
{
	struct fs_version va, vb;
	int c;

	fs_version_scan(a, SIZE_MAX, &va);
	fs_version_scan(b, SIZE_MAX, &vb);
	c = cmp_numbers(&va, &vb);
	return c ? c : strcmp(a, b);
}

bool fs_version_format(const struct fs_version *v, char *buf, size_t size)
{
	size_t used = 0;
	unsigned i;
	int k;

	if (!size)
		return false;
	buf[0] = '\0';
	if (v->nparts < 1 || v->nparts > FS_VERSION_PARTS)
		return false;
	for (i = 0; i < v->nparts; i++) {
		k = snprintf(buf + used, size - used, "%s%u", i ? "." : (v->v ? "v" : ""),
			     v->part[i]);
		if (k < 0 || (size_t)k >= size - used)
			goto too_small;
		used += (size_t)k;
	}
	if (v->rc) {
		k = snprintf(buf + used, size - used, "-rc%u", v->rc);
		if (k < 0 || (size_t)k >= size - used)
			goto too_small;
	}
	return true;
too_small:
	buf[0] = '\0';
	return false;
}

size_t fs_version_branch_scan(const char *s, size_t n, struct fs_version *out)
{
	size_t pre = sizeof(FS_VERSION_BRANCH_PREFIX) - 1, suf = sizeof(FS_VERSION_BRANCH_SUFFIX) - 1;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (n < pre || memcmp(s, FS_VERSION_BRANCH_PREFIX, pre))
		return 0;
	k = fs_version_scan(s + pre, n - pre, out);
	if (!k || !fs_version_is_series(out) || n - pre - k < suf ||
	    memcmp(s + pre + k, FS_VERSION_BRANCH_SUFFIX, suf)) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	return pre + k + suf;
}

bool fs_version_branch_parse(const char *branch, struct fs_version *out)
{
	size_t n;

	if (!branch) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	n = strlen(branch);
	if (fs_version_branch_scan(branch, n, out) == n && n)
		return true;
	memset(out, 0, sizeof(*out));
	return false;
}

bool fs_version_branch_series(const char *branch, char *buf, size_t size)
{
	struct fs_version v;

	if (size)
		buf[0] = '\0';
	return fs_version_branch_parse(branch, &v) && fs_version_format(&v, buf, size);
}

bool fs_version_branch_name(const char *series, char *buf, size_t size)
{
	struct fs_version v;
	int k;

	if (size)
		buf[0] = '\0';
	if (!fs_version_parse(series, &v) || !fs_version_is_series(&v) || !size)
		return false;
	k = snprintf(buf, size, FS_VERSION_BRANCH_PREFIX "%s" FS_VERSION_BRANCH_SUFFIX, series);
	if (k < 0 || (size_t)k >= size) {
		buf[0] = '\0';
		return false;
	}
	return true;
}
