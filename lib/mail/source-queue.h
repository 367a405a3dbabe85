/* fixscan: the stable-queue loader of the source module (private). */
#ifndef FIXSCAN_SOURCE_QUEUE_H
#define FIXSCAN_SOURCE_QUEUE_H

#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/thread.h"

/* fs_source_load() for FS_SOURCE_QUEUE: the queue directory DIR as one
 * thread of one series, in *OUT (an array of one, *NOUT = 1). */
int fs_source_load_queue(struct fs_thread ***out, size_t *nout, const char *dir,
			 const char *version, struct fs_error *err);

#endif
