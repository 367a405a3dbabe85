/* fixscan: the Message-Id of an archive link (fs_lore_message_id()) on
 * any text: what it returns is shorter than the link, holds an '@' and
 * nothing that is no part of a Message-Id. */
#include "fuzz.h"
#include "fixscan/lore.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fatal_criticals();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *link = malloc(size + 1), *id;
	const unsigned char *p;

	if (!link)
		return 0;
	memcpy(link, data, size);
	link[size] = '\0';
	id = fs_lore_message_id(link);
	if (id) {
		if (!*id || !strchr(id, '@') || strlen(id) > strlen(link))
			abort();
		for (p = (const unsigned char *)id; *p; p++)
			if (*p <= ' ' || *p == 0x7f || *p == '<' || *p == '>')
				abort();
	}
	g_free(id);
	free(link);
	return 0;
}
