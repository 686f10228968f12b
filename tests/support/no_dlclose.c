/* no_dlclose.c - a dlclose that keeps every library loaded.
 *
 * Linked only into sanitizer builds of tests that load Mesa: Mesa dlcloses
 * its driver at exit, so LeakSanitizer can no longer symbolise the driver's
 * allocations and reports them as leaks from "<unknown module>", which no
 * suppression can match. Keeping the libraries mapped makes the report
 * honest. */
#include <dlfcn.h>

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
