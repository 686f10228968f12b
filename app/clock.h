/* clock.h - the one clock the program reads: seconds on CLOCK_MONOTONIC,
 * which no change of the wall clock moves. The viewer's playback and camera
 * moves, the recorder's progress line and the benchmarks use it.
 *
 * Header-only: one line of code, inlined where it is read every frame. */
#ifndef PPFLOW_CLOCK_H
#define PPFLOW_CLOCK_H

#include <time.h>

static inline double clock_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
