/* viewer_inspect.h - inspecting the shown timeline in the live window: what
 * is selected (a bar clicked, then walked with ] [ . ,), the micro-batch
 * highlighted, the critical path on or off, an area drawn with shift+drag,
 * and the hover's card for what the bar's tooltip cannot say (an idle
 * block, the memory lane, an all-reduce). Core answers every question
 * (core/timeline/inspect.h); render draws the answers (render/inspect_overlay.h);
 * this keeps the viewer's choices and turns commands into them.
 *
 * The gestures (input.h makes them, Perfetto's where Perfetto has one):
 *   - a click (press and release without a drag) on a bar selects it and
 *     leaves t where it was before the press (the press scrubbed, as a
 *     press in the timeline always does; a click on a bar takes that back);
 *     a click in the 3D view selects what the nearest object drawn under
 *     the pointer belongs to (render/scene_pick.h says what each kind of
 *     object selects) and leaves t; a click on empty space, in the timeline
 *     or the 3D view, clears the selection (and keeps the scrub).
 *   - `]` / `[`: the selection's consumer (the first on another rank, else
 *     the first) / its producer (the input it waited for, else the first);
 *     `.` / `,` the next / previous compute action on its rank. Without a
 *     selection `.` and `,` step events as before; the selection is kept in
 *     view (centred when it leaves the visible range).
 *   - `f` with a selection centres it, and again fits it (a little room
 *     either side); without one it fits the iteration as before.
 *   - `c` the critical path on and off; `b` the selection's micro-batch
 *     highlighted, else the next micro-batch, off after the last.
 *   - shift+drag in the timeline: an area over the ranks the drag covers.
 *   - Esc clears the selection, the area and the micro-batch: one layer,
 *     which the loop places after the key card, the laser and the
 *     blackout, and before presenting (viewer_inspect_escape).
 * The details card shows the selection's lines, else the area's, else the
 * critical path's summary while it is on.
 *
 * What it does not do: no GLFW, no GL, no drawing, no input decoding; the
 * session is read, never changed. A session rebuilt (what-if) or another
 * slide shown: viewer_inspect_reset, which drops the choices with the
 * tables.
 *
 * Call order:
 *     viewer_inspect vi = {0}; viewer_inspect_reset(&vi, session);
 *     per command: if (!viewer_inspect_apply(&vi, &state, &cmd)) viewer_state_apply(...)
 *     per frame: viewer_inspect_view(&vi, &state, &fv)  (after viewer_state_frame_view)
 *     state line: viewer_inspect_state(&vi, &state, buf, n)
 *     viewer_inspect_deinit(&vi);
 *
 * Errors: none; a command that does not apply (nothing selected, an
 * all-reduce has no producer) changes nothing.
 */
#ifndef PPFLOW_VIEWER_INSPECT_H
#define PPFLOW_VIEWER_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "command.h"
#include "inspect.h"
#include "session.h"
#include "viewer_state.h"

typedef struct viewer_inspect {
    const session *s;    /* the session the tables are for; NULL: none yet */
    uint64_t generation; /* ... at this build (its timeline's generation) */
    inspect in;          /* its index tables */
    inspect_path path;
    bool has_path;                 /* path computed (on first use) */
    timeline_panel_hover selected; /* kind NONE: nothing selected */
    int fit_step;                  /* f with a selection: 0 centres next, 1 fits */
    bool critical;                 /* the critical path shown */
    bool show_microbatch;
    int microbatch;
    bool area;               /* an area shown */
    double area_t0, area_t1; /* as drawn (either order) */
    int area_rank0, area_rank1;
    double press_t; /* t before the last press in the timeline */
    bool press_known;
    inspect_text details, tip; /* the card's lines and the hover's, made per frame */
} viewer_inspect;

/* Tables for session s (NULL: none), everything chosen dropped. */
void viewer_inspect_reset(viewer_inspect *vi, const session *s);
void viewer_inspect_deinit(viewer_inspect *vi); /* accepts a zeroed or deinited one */

/* Applies c when it is the inspection's (COMMAND_INSPECT), or changes what
 * it means (`.` `,` `f` with a selection); true when it was taken, false
 * for the viewer to apply. The state's time and timeline view may change
 * (a click on a bar, f). The loop asks only for commands that act now
 * (viewer_state_acts). */
bool viewer_inspect_apply(viewer_inspect *vi, viewer_state *st, const command *c, double clock);
/* Esc's layer: clears the selection, the area and the micro-batch when any
 * is shown (true), else false and Esc goes on to the next layer. */
bool viewer_inspect_escape(viewer_inspect *vi, const viewer_state *st);

/* Fills fv->inspect (and the hover's card) for the frame st last made. */
void viewer_inspect_view(viewer_inspect *vi, const viewer_state *st, frame_view *fv);

/* The state line's inspection keys, each " key=value":
 *     selected=3F2 (PyTorch's text form; ar<k> for all-reduce k; - none)
 *     selected_rank=3 waited_for=2F2 (the input it waited for; rank: its rank
 *     was busy, with busy_with=1B0; none) wait=1.000000 (how long) delay=0.500000
 *     (the awaited input's consumer start minus producer end; -1 none)
 *     p2p=0.500000 (its transfer; -1 none) critical=0|1 microbatch=-1|m
 *     area=T0:T1|- area_ranks=R0:R1 area_busy area_idle area_bubble
 *     area_counts=F:B:I:W:FB rows=Y:PITCH:BAR (the timeline's row 0 top,
 *     row pitch and bar height, framebuffer pixels: where a bar is)
 *     aim=X:Y (where a click in the 3D view points at the selected action:
 *     the centre of its first object drawn at t, a lit matmul box else a
 *     face, in replica 0, framebuffer pixels, the camera at rest; - none) */
void viewer_inspect_state(viewer_inspect *vi, const viewer_state *st, char *buf, size_t n);

#endif
