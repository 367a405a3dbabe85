/* fixscan: the fetching half of FS_SOURCE_FETCH (private to the source
 * module). */
#ifndef FIXSCAN_SOURCE_FETCH_H
#define FIXSCAN_SOURCE_FETCH_H

#include "fixscan/error.h"

/* Run TOOL ("b4" or "lei"; NULL: fs_source_fetch_tool()) to fetch the
 * thread of the Message-Id ID into a new temporary file (killed after
 * TIMEOUT seconds, 0: FS_SOURCE_FETCH_TIMEOUT), its name in
 * *PATH (the caller removes the file and g_free()s the name).  Returns 0,
 * or as fs_source_load() says for FS_SOURCE_FETCH, with no file left. */
int fs_source_fetch_file(char **path, const char *id, const char *tool, int timeout,
			 struct fs_error *err);

#endif
