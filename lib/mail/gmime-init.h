/* fixscan: the one GMime initialisation of the library (lib/mail/gmime.c).
 * Not a public header. */
#ifndef FIXSCAN_GMIME_INIT_H
#define FIXSCAN_GMIME_INIT_H

/* g_mime_init(), once for the whole library: any number of calls, from
 * any thread, before the first use of GMime. */
void fs_gmime_init(void);

#endif
