/* fixscan: the CVE data of fixscan.vulns (--vulns), for the commands that
 * show CVE ids (see cli.h).  Uses nothing of cli.c, which calls it. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "fixscan/vulns.h"

int cli_vulns_open(struct fs_vulns **out, const char *flag, struct fs_config *cfg,
		   const char *repo, struct fs_error *err)
{
	struct fs_vulns_opts opts = FS_VULNS_OPTS_INIT;
	struct fs_vulns_stats stats;
	struct fs_config *own = NULL;
	char *path = NULL;
	int rc;

	*out = NULL;
	if (!flag && !cfg && fs_config_open(&own, repo, NULL) < 0)
		(void)fs_config_open(&own, NULL, NULL);
	if (!flag && (cfg || own))
		fs_config_get_path(cfg ? cfg : own, "fixscan.vulns", &path);
	fs_config_free(own);
	/* Unset, or set to nothing (to turn a global value off for one
	 * repository): no CVE data, and no file opened. */
	if (!flag && (!path || !*path)) {
		free(path);
		return 0;
	}
	opts.path = flag ? flag : path;
	rc = fs_vulns_open(out, &opts, &stats, err);
	if (rc == 0 && stats.note[0])
		fprintf(stderr, "fixscan: %s\n", stats.note);
	free(path);
	return rc;
}

int cli_ctx_open_vulns(struct cli_ctx *c, struct fs_error *err)
{
	int rc;

	if (c->vulns)
		return 0;
	rc = cli_vulns_open(&c->vulns, c->vulns_flag, c->cfg, c->repo, err);
	c->ropts.vulns = c->vulns;
	return rc;
}
