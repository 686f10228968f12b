/* frame_times.h - how long the live viewer's frames take: the times between
 * the frames it shows, kept for the last FRAME_TIMES_KEPT frames, summed up
 * for the readout a user toggles in the window (F3: "60 fps · 16.4 ms
 * (worst 18.1)" over the last second) and for a script's `frametimes N`
 * (the last N frames, printed), which `ppflow bench viewer` reads.
 *
 * A frame's time is the clock from one frame shown (its buffers swapped) to
 * the next: everything the loop does for a frame, input and waiting for the
 * swap included, which is what a user sees as the frame rate. A frame that
 * follows a wait for input (the viewer idle: paused, nothing moving) is not
 * counted: the wait is the viewer resting, not a slow frame.
 *
 * What it does not do: no clock (the loop passes it in seconds), no
 * drawing, no allocation after init (the summary sorts in a scratch array
 * inside the struct).
 *
 * Call order:
 *     frame_times ft; frame_times_init(&ft);
 *     after each swap: frame_times_mark(&ft, clock, counted);
 *     frame_times_summary s = frame_times_last(&ft, n);   or _since(&ft, seconds)
 *     frame_times_format(&s, text, size);
 * Errors: none; a summary of no frames has count 0 (the readout then says
 * "– fps").
 */
#ifndef PPFLOW_FRAME_TIMES_H
#define PPFLOW_FRAME_TIMES_H

#include <stdbool.h>
#include <stddef.h>

enum { FRAME_TIMES_KEPT = 1024 }; /* frames remembered; a `frametimes N` asks for at most this */

typedef struct frame_times {
    double ms[FRAME_TIMES_KEPT];      /* frame times, a ring; the newest at next - 1 */
    double end[FRAME_TIMES_KEPT];     /* the clock (seconds) at each frame's end */
    double scratch[FRAME_TIMES_KEPT]; /* for the median's sort */
    int next, count;                  /* ring position, frames held (<= FRAME_TIMES_KEPT) */
    double last;                      /* the clock at the last mark; < 0: none yet */
} frame_times;

/* A summary of some frames; every field 0 when count is 0. */
typedef struct frame_times_summary {
    int count;        /* frames summed up */
    double fps;       /* frames per second over them: count / their total time */
    double mean_ms;   /* their mean time */
    double median_ms; /* their median time */
    double worst_ms;  /* the longest */
} frame_times_summary;

/* Empty: no frame yet. */
void frame_times_init(frame_times *ft);
/* A frame was shown at `clock` (seconds). Its time, since the previous
 * mark, is kept when `counted` (false: the loop waited for input before
 * it); the first mark only starts the clock. */
void frame_times_mark(frame_times *ft, double clock, bool counted);
/* The last n frames kept (fewer when fewer are kept; n <= 0: none). */
frame_times_summary frame_times_last(frame_times *ft, int n);
/* The frames that ended within `seconds` of the newest one. */
frame_times_summary frame_times_since(frame_times *ft, double seconds);
/* "60 fps · 16.4 ms (worst 18.1)" (the mean's fps and time), or "– fps"
 * for none. */
void frame_times_format(const frame_times_summary *s, char *out, size_t size);

#endif
