/* fixscan: the one GMime initialisation of the library. */
#include <pthread.h>

#include <gmime/gmime.h>

#include "gmime-init.h"

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_init_once(void)
{
	g_mime_init();
}

void fs_gmime_init(void)
{
	pthread_once(&gmime_once, gmime_init_once);
}
