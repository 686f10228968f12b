/* viewer_pane.h - what the window shows, pane by pane: a pane is a
 * session, its render cache and its camera. A window shows one to
 * COMPARE_MAX_SIDES panes: a single window is pane 0 alone, a comparison
 * (viewer_compare.h) arranges them side by side with a strip on one clock.
 *
 * Pane 0 is the window's own: its session is the talk's slide shown (the
 * talk owns it; viewer_state.s points at it too), its camera the state's.
 * The others are a comparison's: a side it was opened with, or a sibling
 * built in the window (owned: freed with the pane), each with its own
 * camera while the comparison's cameras are unlinked.
 *
 * Every change of what a pane shows, and every pane added or removed, goes
 * the window's one road (viewer_core.h's viewer_show): the session and its
 * cache are made aside, then committed together, so that a pane's cache is
 * always of its session as built now (frame.h's frame_cache_of).
 *
 * What it does not do: no drawing (frame.h, compare_view.h), no layout,
 * no building; the caches are of the window's frame renderer and are freed
 * in its GL context.
 */
#ifndef PPFLOW_VIEWER_PANE_H
#define PPFLOW_VIEWER_PANE_H

#include <stdbool.h>

#include "compare.h"
#include "frame.h"
#include "session.h"
#include "viewer_state.h"

typedef struct viewer_pane {
    session *s;        /* what it shows */
    bool owned;        /* s is freed with the pane (a sibling built in the window) */
    frame_cache cache; /* of s as built now, for the window's frame renderer */
    viewer_camera cam; /* its own camera (a comparison's, unlinked); pane 0's is the state's */
} viewer_pane;

typedef struct viewer_panes {
    viewer_pane pane[COMPARE_MAX_SIDES];
    int count; /* 1..COMPARE_MAX_SIDES once the window is open */
} viewer_panes;

/* Panes from `from` on closed (their caches freed, owned sessions freed),
 * count = from; the window's GL context current. */
void viewer_panes_close_from(viewer_panes *p, int from);

#endif
