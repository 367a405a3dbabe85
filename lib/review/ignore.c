/* fixscan: the ignore file, pairs of commits the reviewer silenced. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fixscan/ignore.h"

struct ignore_entry {
	char *commit;
	char *target;
	char *reason;
};

struct fs_ignore {
	struct ignore_entry *v;
	size_t n;
};

static int id_matches(const char *pattern, const char *id)
{
	size_t n = strlen(pattern);

	if (!strcmp(pattern, "*"))
		return 1;
	return *id && n >= 4 && !strncasecmp(pattern, id, n);
}

const char *fs_ignore_match(const struct fs_ignore *ign, const char *commit,
			    const char *target)
{
	size_t i;

	if (!ign)
		return NULL;
	for (i = 0; i < ign->n; i++)
		if (id_matches(ign->v[i].commit, commit ? commit : "") &&
		    id_matches(ign->v[i].target, target ? target : ""))
			return ign->v[i].reason;
	return NULL;
}

void fs_ignore_free(struct fs_ignore *ign)
{
	size_t i;

	if (!ign)
		return;
	for (i = 0; i < ign->n; i++) {
		free(ign->v[i].commit);
		free(ign->v[i].target);
		free(ign->v[i].reason);
	}
	free(ign->v);
	free(ign);
}

static int is_id_word(const char *w)
{
	size_t n = 0;

	if (!strcmp(w, "*"))
		return 1;
	for (; w[n]; n++)
		if (!strchr("0123456789abcdefABCDEF", w[n]))
			return 0;
	return n >= 4 && n <= 40;
}

int fs_ignore_load(struct fs_ignore **out, const char *path, struct fs_error *err)
{
	struct fs_ignore *ign = calloc(1, sizeof(*ign));
	FILE *f;
	char *line = NULL;
	size_t cap = 0, lineno = 0, alloc = 0;
	ssize_t len;
	int rc = 0;

	*out = NULL;
	if (!ign)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT) {
			*out = ign;
			return 0;
		}
		free(ign);
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path, strerror(errno));
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p = line, *c, *t, *r;
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		c = strtok_r(p, " \t", &r);
		t = strtok_r(NULL, " \t", &r);
		while (r && (*r == ' ' || *r == '\t'))
			r++;
		if (!c || !t || !is_id_word(c) || !is_id_word(t)) {
			rc = fs_error_set(err, FS_EPARSE,
					  "%s:%zu: expected '<commit> <target> <reason>'", path, lineno);
			break;
		}
		if (ign->n == alloc) {
			size_t nc = alloc ? alloc * 2 : 8;
			struct ignore_entry *g = realloc(ign->v, nc * sizeof(*g));
			if (!g) {
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				break;
			}
			ign->v = g;
			alloc = nc;
		}
		ign->v[ign->n].commit = strdup(c);
		ign->v[ign->n].target = strdup(t);
		ign->v[ign->n].reason = strdup(r && *r ? r : "ignored");
		ign->n++;
		if (!ign->v[ign->n - 1].commit || !ign->v[ign->n - 1].target ||
		    !ign->v[ign->n - 1].reason) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			break;
		}
	}
	free(line);
	fclose(f);
	if (rc < 0) {
		fs_ignore_free(ign);
		return rc;
	}
	*out = ign;
	return 0;
}
