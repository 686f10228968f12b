/* viewer_whatif.h - a what-if change (whatif.h) applied in the live viewer:
 * the shown session rebuilt in place from the new scenario (session_rebuild;
 * every frame renderer drawing it follows by itself, frame.h), and the
 * viewer's state moved to it keeping the moment.
 *
 * What a change keeps, as a lecturer answering "and with P=8?" expects:
 * t at the same fraction of the iteration, or the same beat when t stands
 * on one (the beat of the same title, else of the same number); playing
 * goes on (a play to a beat becomes a plain play: the beat may be gone);
 * the camera: a view the user orbited stays as it is, a preset (or key 0's
 * fit) is fitted again to the new scene; the speed relative to the
 * session's default (a twice longer iteration plays in the same seconds at
 * the same setting); theme, divider, UI scale, presenting. The timeline's
 * zoom is fitted to the new iteration.
 *
 * What it does not do: no parsing (whatif.h), no undo stack, no window.
 *
 * Call order (the viewer's loop, its GL context current):
 *     viewer_whatif_moment m = viewer_whatif_moment_of(&st);
 *     if (session_rebuild(session, &next, &err))
 *         viewer_whatif_follow(&st, &m, clock);
 *     else { one line shown; the session and st as they were }
 *
 * Errors: session_rebuild returns false with one line (the scenario's: a
 * deadlock, over the budget, a rule of the schedule) and leaves the session
 * as it was.
 */
#ifndef PPFLOW_VIEWER_WHATIF_H
#define PPFLOW_VIEWER_WHATIF_H

#include <stdbool.h>

#include "beats.h"
#include "error.h"
#include "session.h"
#include "viewer_state.h"

/* Where the viewer stood before a change. */
typedef struct viewer_whatif_moment {
    double fraction;                 /* t / makespan (0 when the iteration takes no time) */
    int beat;                        /* the beat t stands on, or -1 */
    char beat_title[BEAT_TITLE_MAX]; /* its title */
    double relative_speed;           /* speed / the session's default */
} viewer_whatif_moment;

viewer_whatif_moment viewer_whatif_moment_of(const viewer_state *v);
/* Moves the state to its session as rebuilt (v->s), keeping the moment m
 * (see above). */
void viewer_whatif_follow(viewer_state *v, const viewer_whatif_moment *m, double clock);

#endif
