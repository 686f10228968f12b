/* viewer_compare.h - the live window's comparison: two to four sessions in
 * panes on one clock (render/compare_view.h draws them), with the strip of
 * their differences, driven by the one viewer_state of the window.
 *
 * One state, many panes: the window's viewer_state (time, playback, beats,
 * the timeline's zoom and pan, the camera, theme, presenting) is laid out
 * for the first pane's size (the panes are the same size to a pixel), its
 * session the first side's (so Next and Previous walk the first side's
 * beats; t is shared anyway), its end of time the longest makespan and its
 * timeline the shared scale [0, longest] (compare_view_timeline). Each
 * frame, every pane's view is that state seen through the pane's own
 * session: the same t, the same visible time range, its own HUD, caption,
 * hover and camera.
 *
 * The pointer: viewer_compare_map moves it into the pane it is over (the
 * pane a drag started in, while dragging), so the input's layout is a
 * pane's and a scrub, a wheel zoom or a hover in any pane's timeline acts
 * on the shared time and range; x in a pane's plot is carried to the same
 * fraction of the first pane's plot (viewer_compare_command), so a scrub
 * lands on the time under the pointer whichever pane it is in. Hover is the
 * bar under the pointer in that pane's own timeline; the other panes show none.
 *
 * Cameras: linked (the start), every pane looks from the same yaw and
 * pitch, each at its own distance fitted to its own scene (the first pane's
 * camera carried over by its zoom and pan relative to its own fit); an
 * orbit, pan, zoom or preset in any pane moves all. Unlinked (L), each
 * pane keeps its own camera and those commands move the one under the
 * pointer. Linking again puts every pane back on the first's.
 *
 * Keys (keymap.h; they act in a comparison only): o the next arrangement
 * (compare_arrange_next: side by side, stacked, the grid for four); l
 * link or unlink the cameras; x add a pane with the last pane's sibling
 * (the next schedule that runs at its P and M, skipping those shown; at
 * most COMPARE_MAX_SIDES panes, and refused with its line when the window
 * would hold more than the budget allows, budget.h); shift+X remove the last pane; on two panes
 * it ends the comparison (the window's, viewer_compare_single). In a single
 * window, x makes one: the shown scenario and its sibling
 * (by the window's road, viewer_core.h's viewer_show), on the same t, the cameras linked. A what-if
 * (the command line, its direct keys, undo) changes the first pane, the reference the strip
 * compares with; the others stay.
 *
 * Legibility: each pane's text is as large as a single frame's in the
 * window (capitals of 1/50 of the window's height, times the UI scale):
 * the state's ui_pane is the window's height over the pane's; the legend
 * is drawn once, in the first pane.
 *
 * State line (viewer_compare_state_line, at the end of the viewer's):
 *     panes=2 arrange=side_by_side linked=1 active=2 pane_t=T1:T2
 *     pane_yaw=Y1:Y2 pane_plot=X:Y:W:H;X:Y:W:H pane_schedule=S1:S2
 * active: the pane under the pointer, from 1 (0: none yet); pane_t and
 * pane_yaw the panes' as last drawn; pane_plot each pane's timeline plot
 * in framebuffer pixels; pane_schedule each pane's schedule.
 *
 * What it does not do: no GL calls but the strip's renderer
 * (compare_view.h), no window, no clock reads; it owns no pane (the
 * window does, viewer_pane.h) and builds no session (the window's road).
 *
 * Call order (the window's GL context current):
 *     the window's panes filled (viewer_pane.h: sessions, pane 0's cache)
 *     viewer_compare c; viewer_compare_init(&c, &panes, names, &frame_renderer, &err);
 *     viewer_compare_attach(&c, &st);           after viewer_state_init
 *     on resize: viewer_compare_resize(&c, &st, fb_w, fb_h);
 *     input's map: viewer_compare_map(&c, dragging, &x, &y);
 *     each command: if (!viewer_compare_command(&c, &st, &cmd, clock)) viewer_state_apply(...)
 *     a pane added: viewer_compare_sibling(&c, &sc, &err), a session built from sc and
 *         its cache made, then viewer_compare_commit(&c, &st, panes.count, s, &cache)
 *     a what-if (viewer_show): the state followed, then viewer_compare_follow(&c, &st)
 *     each frame: viewer_compare_draw(&c, &st, &view_of_st, clock);
 *     viewer_compare_deinit(&c); then the window closes its panes 1.. (viewer_pane.h)
 *
 * Errors: init returns false with one line; a sibling that cannot be
 * built leaves the panes as they were, its line in c.error.
 */
#ifndef PPFLOW_VIEWER_COMPARE_H
#define PPFLOW_VIEWER_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "compare_view.h"
#include "error.h"
#include "frame.h"
#include "scenario.h"
#include "session.h"
#include "viewer_pane.h"
#include "viewer_state.h"

/* CMD_COMPARE's argument: what the key asks of the panes. */
enum {
    VIEWER_COMPARE_ARRANGE = 1, /* o */
    VIEWER_COMPARE_LINK = 2,    /* l */
    VIEWER_COMPARE_ADD = 3,     /* x */
    VIEWER_COMPARE_REMOVE = 4,  /* shift+X */
};

/* The panes' arrangement; the panes themselves are the window's. */
typedef struct viewer_compare {
    viewer_panes *panes; /* the window's (viewer_pane.h): pane 0 its own, the rest beside it */
    char names[COMPARE_MAX_SIDES][COMPARE_NAME_MAX];
    compare_result result;     /* the strip's lines */
    double longest;            /* the shared time scale's end */
    compare_renderer renderer; /* the strip's */
    frame_renderer *frame;     /* the window's, not owned: every pane's */
    compare_arrange arrange;   /* AUTO until switched */
    bool linked;
    int active;     /* the pane under the pointer, or of the drag; -1: none yet */
    int fb_w, fb_h; /* the whole framebuffer */
    compare_layout layout;
    timeline_view tv[COMPARE_MAX_SIDES]; /* each pane's, pane-local, the shared range */
    frame_view shown[COMPARE_MAX_SIDES]; /* as last drawn */
    char status[COMPARE_MAX_SIDES][8];   /* unused text for the copies' status */
    char error[PPF_ERROR_MAX];           /* a refused sibling's line; "" none */
} viewer_compare;

/* The arrangement of the window's panes (each with its session; pane 0's
 * cache made, the others' made here when they have none), named names[];
 * frame: the window's renderer, which draws every pane (in its context).
 * One pane is an arrangement about to take its first other (x in a single
 * window). False with one line (the strip's renderer); the panes are the
 * window's to close either way. */
bool viewer_compare_init(viewer_compare *c, viewer_panes *panes, const char *const *names,
                         frame_renderer *frame, ppf_error *err);
void viewer_compare_deinit(viewer_compare *c); /* accepts a zeroed or deinited one */

/* The state made the panes': its end of time, shared timeline, pane size. */
void viewer_compare_attach(viewer_compare *c, viewer_state *st);
/* The framebuffer's new size: the panes laid out again, the state resized
 * to the first pane's. */
void viewer_compare_resize(viewer_compare *c, viewer_state *st, int fb_w, int fb_h);
/* (x, y) in framebuffer pixels to the pane's own, the pane under it (or,
 * while dragging, the one the drag started in) made the active one. */
void viewer_compare_map(viewer_compare *c, bool dragging, double *x, double *y);
/* The comparison's own commands (o, l; x and shift+X, which add and
 * remove panes, are the window's: viewer_compare_sibling and _commit),
 * and those it changes (pointer x carried to the first pane's
 * plot, camera moves while unlinked, event steps over every pane's
 * events); true when handled, else the caller applies it to st. */
bool viewer_compare_command(viewer_compare *c, viewer_state *st, const command *cmd, double clock);
/* A pane added or removed (the window's road, viewer_core.h's viewer_show):
 * the next pane's scenario, x's: the last pane's sibling; false with one
 * line when there are COMPARE_MAX_SIDES panes or it has none. */
bool viewer_compare_sibling(const viewer_compare *c, scenario *out, ppf_error *err);
/* Commits a pane added (k == count: s, built aside, owned by the pane
 * from now on, with its cache *made, taken) or removed (k == count - 1,
 * the last, k >= 1; s and made NULL); the strip, the shared scale (kept
 * zoomed when it still holds) and the layout follow, st with them. Cannot
 * fail. Returns the removed pane's session when the pane owned it (the
 * caller frees it), else NULL. */
session *viewer_compare_commit(viewer_compare *c, viewer_state *st, int k, session *s,
                               frame_cache *made);
/* The first pane shows another session now (a what-if or its undo, by
 * the window's road), the state having followed it: the strip, the scale,
 * the panes again. */
void viewer_compare_follow(viewer_compare *c, viewer_state *st);
/* Draws the strip and every pane; base is the state's frame view (the first
 * pane's, with the window's help, HUD note and command line). */
void viewer_compare_draw(viewer_compare *c, viewer_state *st, const frame_view *base, double clock);
/* The comparison ended (shift+X on two panes, a slide change): the state
 * made a single frame's again, for a framebuffer of fb_w x fb_h. before:
 * the state as x found it (NULL: the window opened as a comparison);
 * opened: as it was right after the panes were attached (NULL: unknown).
 * The state returns to before, keeping the session, time and playback,
 * theme, split, UI scale, presenting, beats and slide as they are now; the
 * camera too when the panes moved it (differs from opened), and the
 * timeline fitted to the session's own iteration when the panes zoomed it
 * or rebuilt (a what-if changed the first pane). Call after the panes'
 * deinit or before: it does not read c. */
void viewer_compare_single(viewer_state *st, const viewer_state *before, const viewer_state *opened,
                           bool rebuilt, int fb_w, int fb_h, double clock);
/* The state line's keys (see above) into out. */
void viewer_compare_state_line(const viewer_compare *c, char *out, size_t n);

#endif
