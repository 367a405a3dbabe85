/* fixscan bench: print what an index file holds, independent of how the
 * builder laid it out (string offsets, ref positions and pool order
 * vary), so that two builds can be compared with diff(1): every commit by
 * id with its subject, release, branch, flags, parents and refs; the tips;
 * and the hash tables resolved to what they point at, sorted.
 *
 * usage: build/bench-index-dump CACHE-FILE  (a cache without delta) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/format.h"
#include "index/load.h"

static void hex(const uint8_t *oid, char out[41])
{
	static const char d[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 20; i++) {
		out[2 * i] = d[oid[i] >> 4];
		out[2 * i + 1] = d[oid[i] & 15];
	}
	out[40] = 0;
}

static void key(const struct fs_disk_ref *r, char out[41])
{
	hex(r->key, out);
	out[r->keylen] = 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and print the N lines of V, freeing them. */
static void print_sorted(char **v, size_t n)
{
	size_t i;

	qsort(v, n, sizeof(*v), cmp_line);
	for (i = 0; i < n; i++) {
		fputs(v[i], stdout);
		free(v[i]);
	}
	free(v);
}

int main(int argc, char **argv)
{
	struct fs_index *idx;
	struct fs_error err = FS_ERROR_INIT;
	const struct fsi_layer *L;
	char h[41], k[41], **lines;
	size_t i, j;

	if (argc != 2 || fsi_load(&idx, argv[1], 1, &err) < 0 || idx->nlayers != 1) {
		fprintf(stderr, "usage: index-dump CACHE (no delta) %s\n", err.message);
		return 2;
	}
	L = &idx->layer[0];
	for (i = 0; i < L->ncommits; i++) {
		const struct fs_disk_commit *c = &L->commits[i];
		hex(c->oid, h);
		printf("commit %s rel=%s br=%s flags=%u\n  %s\n", h,
		       L->strings + L->releases[c->release],
		       L->strings + L->branches[c->branch].name, c->flags, L->strings + c->subject);
		for (j = 0; j < c->nparents; j++) {
			hex(L->commits[L->parents[c->parent_first + j]].oid, h);
			printf("  parent %s\n", h);
		}
		for (j = 0; j < c->nrefs; j++) {
			const struct fs_disk_ref *r = &L->refs[c->ref_first + j];
			key(r, k);
			printf("  ref %u %s src=%s \"%s\"\n", r->kind, k,
			       r->source == i ? "self" : "OTHER", L->strings + r->subject);
		}
	}
	for (i = 0; i < L->nbranches; i++)
		printf("branch %s fork=%s\n", L->strings + L->branches[i].name,
		       L->strings + L->releases[L->branches[i].fork]);
	for (i = 0; i < L->ntips; i++) {
		hex(L->tips[i].oid, h);
		printf("tip %s %u %s\n", L->strings + L->tips[i].name, L->tips[i].kind, h);
	}
	for (i = 1; i + 1 < L->nrefs && i < L->nrefs; i++) {
		const struct fs_disk_ref *a = &L->refs[L->refkeys[i - 1]], *b = &L->refs[L->refkeys[i]];
		int c = memcmp(a->key, b->key, 20);
		if (c > 0 || (c == 0 && a->keylen > b->keylen))
			printf("refkeys out of order at %zu\n", i);
	}
	lines = calloc(L->nsubjects + L->nrefsubj + 1, sizeof(*lines));
	for (i = 0; i < L->nsubjects; i++) {
		hex(L->commits[L->subjects[i].value].oid, h);
		if (asprintf(&lines[i], "subject %016llx %s\n",
			     (unsigned long long)L->subjects[i].hash, h) < 0)
			return 2;
	}
	for (j = 0; j < L->nrefsubj; j++) {
		const struct fs_disk_ref *r = &L->refs[L->refsubj[j].value];
		hex(L->commits[r->source].oid, h);
		key(r, k);
		if (asprintf(&lines[i + j], "refsubj %016llx %s %s\n",
			     (unsigned long long)L->refsubj[j].hash, h, k) < 0)
			return 2;
	}
	print_sorted(lines, L->nsubjects + L->nrefsubj);
	printf("commits %zu refs %zu\n", L->ncommits, L->nrefs);
	fs_index_free(idx);
	return 0;
}
