#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fixscan/error.h"

int fs_error_set(struct fs_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

int fs_error_prefix(struct fs_error *err, const char *fmt, ...)
{
	char old[FS_ERROR_MESSAGE_MAX];
	char prefix[FS_ERROR_MESSAGE_MAX / 2];
	va_list ap;

	if (!err)
		return FS_EGENERIC;
	memcpy(old, err->message, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	/* Truncation is acceptable: the message stays one readable line. */
	if (snprintf(err->message, sizeof(err->message), "%s: %.*s", prefix,
		     (int)(sizeof(err->message) - strlen(prefix) - 3), old) < 0)
		err->message[0] = '\0';
	return err->code;
}

void fs_error_clear(struct fs_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->message[0] = '\0';
}
