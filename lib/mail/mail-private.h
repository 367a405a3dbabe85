/* fixscan: what the mail reader (mail-reader.c) needs of the message
 * parser (mail.c).  Private to them. */
#ifndef FIXSCAN_MAIL_PRIVATE_H
#define FIXSCAN_MAIL_PRIVATE_H

#include <gmime/gmime.h>

#include "fixscan/mail.h"

/* mail.c: GMime initialised once; a new patch (fs_patch_free()) of
 * message MSG of FILE (from an mbox: MBOX), or a negative FS_E* code
 * with ERR set. */
void fsm_mail_init(void);
int fsm_patch_from_message(struct fs_patch **out, const char *file, GMimeMessage *msg, bool mbox,
			   struct fs_error *err);

#endif
