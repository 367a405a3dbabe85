/* fixscan: a cache of the objects the pack reader made (see packfile.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "packfile.h"

struct slot {
	unsigned char *data;
	size_t len;
	uint64_t off;
	uint32_t pack;
	int type;
};

struct fs_objcache {
	unsigned bits;
	size_t max_one, max_all, kept;
	struct slot s[];
};

struct fs_objcache *fs_objcache_new(unsigned slot_bits, size_t max_one, size_t max_all)
{
	struct fs_objcache *c = calloc(1, sizeof(*c) + (sizeof(struct slot) << slot_bits));

	if (c)
		*c = (struct fs_objcache){ .bits = slot_bits, .max_one = max_one, .max_all = max_all };
	return c;
}

void fs_objcache_free(struct fs_objcache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < (size_t)1 << c->bits; i++)
		free(c->s[i].data);
	free(c);
}

static struct slot *slot_of(struct fs_objcache *c, uint32_t pack, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)pack << 40)) * 0x9e3779b97f4a7c15ull;

	return &c->s[h >> (64 - c->bits)];
}

static int cache_get(void *ctx, uint32_t pack, uint64_t off, int *type, unsigned char **out,
		     size_t *len)
{
	struct slot *s = slot_of(ctx, pack, off);

	if (!s->data || s->off != off || s->pack != pack)
		return 1;
	if (!(*out = g_try_malloc(s->len + 1)))
		return -1;
	memcpy(*out, s->data, s->len + 1);
	*len = s->len;
	*type = s->type;
	return 0;
}

static void cache_put(void *ctx, uint32_t pack, uint64_t off, int type,
		      const unsigned char *data, size_t len)
{
	struct fs_objcache *c = ctx;
	struct slot *s = slot_of(c, pack, off);
	unsigned char *copy;

	if (len > c->max_one)
		return;
	c->kept -= s->data ? s->len : 0;
	free(s->data);
	s->data = NULL;
	if (c->kept + len > c->max_all || !(copy = malloc(len + 1)))
		return;
	memcpy(copy, data, len + 1);
	*s = (struct slot){ copy, len, off, pack, type };
	c->kept += len;
}

struct fs_pack_cache fs_objcache_hooks(struct fs_objcache *c)
{
	return (struct fs_pack_cache){ cache_get, cache_put, c };
}
