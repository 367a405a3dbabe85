/* fixscan: the records the mail archives (fixscan.lore) add to what a
 * series' mentions hold (see mentions.h): regression reports, merged
 * with the store's copy of the same mail, and backports posted for the
 * branch.  Apart from mentions.c, which reads the store and the thread. */
#include <stdlib.h>
#include <string.h>

#include "fixscan/mentions.h"

int fs_mentions_add_archived(struct fs_mentions *m, const struct fs_report_mail *v, size_t n,
			     struct fs_error *err)
{
	struct fs_report_mail *rv;
	size_t i, k;

	rv = n ? realloc(m->reports, (m->nreports + n) * sizeof(*rv)) : m->reports;
	if (n && !rv)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	m->reports = rv;
	for (i = 0; i < n; i++) {
		for (k = 0; k < m->nreports; k++)
			if (rv[k].upstream == v[i].upstream && rv[k].message_id && v[i].message_id &&
			    !strcmp(rv[k].message_id, v[i].message_id))
				break;
		if (k < m->nreports)
			rv[k].link = v[i].link;
		else
			rv[m->nreports++] = v[i];
	}
	return 0;
}

int fs_mentions_add_posted(struct fs_mentions *m, const struct fs_objection *v, size_t n,
			   struct fs_error *err)
{
	struct fs_objection *ov;
	char **lv;
	size_t i;

	if (!n)
		return 0;
	ov = realloc(m->objections, (m->nobjections + n) * sizeof(*ov));
	if (ov)
		m->objections = ov;
	lv = ov ? realloc(m->lines_, (m->nobjections + n) * sizeof(*lv)) : NULL;
	if (!lv)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	m->lines_ = lv;
	for (i = 0; i < n; i++) {
		/* the strings are lent; nothing of the mentions' own */
		lv[m->nobjections] = NULL;
		ov[m->nobjections] = v[i];
		ov[m->nobjections].named = NULL;
		ov[m->nobjections].nnamed = 0;
		m->nobjections++;
	}
	return 0;
}
