/* main.c - ppflow's entry point: the allocator set up for a renderer, then
 * everything happens in cli_main. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* sbrk, MADV_HUGEPAGE */
#endif
#include "cli.h"

#include <stdint.h>
#include <stdlib.h> /* and with it __GLIBC__, where it is glibc */
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
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

/* A page fault costs microseconds (more under a hypervisor), and a
 * renderer's start-up takes tens of thousands: Mesa zeroes each 1080p
 * framebuffer it allocates (4100 faults, 50 ms on a 2-core VM) and its
 * shader compiler grows the heap a page at a time (45 ms). glibc asks the
 * kernel for transparent huge pages only when told through the environment
 * (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), too late for a program to set.
 * So the heap is grown once, now, by HEAP_RESERVE, and that range is asked
 * for huge pages (a hint; Debian's default "madvise" grants it): a 1080p
 * export's first frame comes 150 ms sooner with 8300 faults instead of
 * 18700. Only pages written are taken, 2 MiB at a time (peak memory of a
 * one-frame export 229 MB instead of 191); the reserve stays below the trim
 * threshold so that free() keeps it. */
enum { HEAP_RESERVE = 192 << 20, HUGE_PAGE = 2 << 20 };

static void heap_in_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    mallopt(M_TOP_PAD, HEAP_RESERVE);
    /* a block just larger than the free top of the heap makes malloc grow
     * it by the pad */
    char *block = malloc(mallinfo2().keepcost + 4096);
    mallopt(M_TOP_PAD, 32 << 20);
    if (!block)
        return;
    char *end = sbrk(0);
    /* Only where the block came from the heap below the break (not under a
     * sanitizer's allocator, which keeps its own mappings). */
    if (end != (char *)-1 && block < end && (size_t)(end - block) <= 2 * (size_t)HEAP_RESERVE) {
        const uintptr_t from = ((uintptr_t)block + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        const uintptr_t to = (uintptr_t)end & ~(uintptr_t)(HUGE_PAGE - 1);
        if (to > from)
            madvise((void *)from, to - from, MADV_HUGEPAGE);
    }
    free(block);
#endif
}

int main(int argc, char **argv)
{
    keep_freed_heap();
    heap_in_huge_pages();
    return cli_main(argc, argv);
}
