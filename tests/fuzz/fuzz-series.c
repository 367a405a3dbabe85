/* fixscan: the subject parser (fs_series_parse) on any subject line. */
#include "fuzz.h"
#include "fixscan/mail.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *subject = malloc(size + 1);
	struct fs_series s;
	const char *title = NULL;

	if (!subject)
		return 0;
	memcpy(subject, data, size);
	subject[size] = '\0';
	if (fs_series_parse(subject, &s, &title)) {
		if (title && (title < subject || title > subject + size))
			abort(); /* the title must point into the subject */
		if (s.version)
			(void)strlen(s.version);
		fs_series_clear(&s);
	}
	g_free(fs_mail_inbody_from(subject, size));
	free(subject);
	return 0;
}
