/* main.c - ppflow's entry point: the allocator set up for a renderer, then
 * everything happens in cli_main. */
#include "cli.h"

#include <stdlib.h> /* and with it __GLIBC__, where it is glibc */
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Mesa's llvmpipe allocates its scene (bins of commands, tens of MiB) at
 * every frame and frees it at the next clear. With glibc's default trim
 * threshold (128 KiB, raised dynamically only for mmapped blocks) the freed
 * top of the heap goes back to the kernel each frame and is faulted in again
 * the next: about 110 brk calls a frame at 1920x1080 (strace -c), and their
 * page faults, a quarter of the viewer's CPU time. Keeping up to 256 MiB of
 * freed heap, and growing it in 32 MiB steps, makes the steady state
 * allocate nothing from the kernel. */
static void keep_freed_heap(void)
{
#ifdef __GLIBC__
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 32 << 20);
#endif
}

int main(int argc, char **argv)
{
    keep_freed_heap();
    return cli_main(argc, argv);
}
