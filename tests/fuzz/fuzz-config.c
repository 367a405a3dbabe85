/* fixscan: git config values as fixscan reads them (lib/base/config.c): the
 * input is appended to the config file of a scratch repository, which
 * is opened and asked for every kind of fixscan key (strings, paths,
 * multi-valued, subsection patterns, booleans, the index refs). */
#include "fuzz.h"
#include "fixscan/config.h"

static char *repo, *config, *base;
static size_t base_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	repo = fuzz_scratch("config");
	if (!repo)
		abort();
	config = g_build_filename(repo, "config", NULL);
	base = g_strdup("[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
	base_len = strlen(base);
	/* A bare repository: HEAD, objects/, refs/ and its config. */
	if (!g_file_set_contents(config, base, -1, NULL))
		abort();
	{
		char *p = g_build_filename(repo, "HEAD", NULL);

		g_file_set_contents(p, "ref: refs/heads/master\n", -1, NULL);
		g_free(p);
		p = g_build_filename(repo, "objects", NULL);
		g_mkdir_with_parents(p, 0700);
		g_free(p);
		p = g_build_filename(repo, "refs", "heads", NULL);
		g_mkdir_with_parents(p, 0700);
		g_free(p);
	}
	return 0;
}

static void strv_check(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!v[i])
			abort();
	if (n >= 0 && v && v[n])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GString *text = g_string_new_len(base, (gssize)base_len);
	struct fs_config *cfg = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *s = NULL, **v = NULL, **names = NULL, **values = NULL, *mainline = NULL;
	bool b;
	size_t n = 0;
	int k;

	g_string_append_len(text, (const char *)data, (gssize)size);
	if (!g_file_set_contents(config, text->str, (gssize)text->len, NULL))
		abort();
	g_string_free(text, TRUE);
	if (fs_config_open(&cfg, repo, &err) < 0)
		return 0;
	if (fs_config_get_string(cfg, "fixscan.mainline", &s) == 0 && !s)
		abort();
	g_free(s);
	s = NULL;
	if (fs_config_get_path(cfg, "fixscan.drafts", &s) == 0 && !s)
		abort();
	g_free(s);
	k = fs_config_get_all(cfg, "fixscan.stable", &v, &err);
	if (k > 0)
		strv_check(v, k);
	fs_config_strv_free(v);
	k = fs_config_get_matching(cfg, "fixscan.%s.branch", &names, &values, &err);
	if (k > 0) {
		strv_check(names, k);
		strv_check(values, k);
	}
	fs_config_strv_free(names);
	fs_config_strv_free(values);
	fs_config_get_bool(cfg, "fixscan.color", &b, &err);
	v = NULL;
	if (fs_config_index_refs(cfg, &mainline, &v, &n, &err) == 0) {
		g_free(mainline);
		strv_check(v, (int)n);
		fs_config_strv_free(v);
	}
	fs_config_free(cfg);
	return 0;
}
