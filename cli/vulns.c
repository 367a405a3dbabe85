/* fixscan: the CVE data of fixscan.vulns (--vulns), for the commands that
 * show CVE ids without a session (see cli.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "fixscan/session.h"
#include "fixscan/vulns.h"

int cli_vulns_open(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
		   const char *repo, struct fs_error *err)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	int rc;

	rc = fs_session_vulns_at(out, flag, cfg, repo, &notes, err);
	cli_print_own_notes(&notes);
	return rc;
}
