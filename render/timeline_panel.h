/* timeline_panel.h - the timeline (Gantt) panel under the 3D view: one row
 * per pipeline rank with its actions as bars, idle time shaded as bubble,
 * p2p transfers as arrows, all-reduces in a thin lane per rank, a cursor at
 * time t, the live activations of every rank in a lane under the rows, and a
 * time axis.
 *
 * Two halves:
 *   - the view model (timeline_view.h: timeline_view_*, the hover type, the
 *     event and describe functions): pure C, no GL, unit-tested without a
 *     display. It maps time to pixels, zooms, pans, lays out rows and lanes,
 *     and finds what is under the pointer. Included from here.
 *   - this panel: the per-rank memory curves (computed once at init), the
 *     timeline_panel_hit (the view's hit test on the panel's own
 *     timeline), and the drawing (timeline_panel_draw), which appends
 *     rectangles, lines and glyph quads to a draw2d batch; it calls no GL
 *     itself.
 *
 * What it does not do: no input handling (the viewer turns clicks, drags and
 * the wheel into timeline_view_* calls on panel.view), no clock (t is an
 * argument), no per-frame allocation (the memory curves are computed once at
 * init), and no GL state of its own.
 *
 * Call order:
 *     timeline_panel panel = {0};
 *     if (!timeline_panel_init(&panel, &tl, &err)) ...      (err names the problem)
 *     timeline_view_set_rect(&panel.view, x, y, w, h);     (and on every resize)
 *     timeline_view_set_text_px(&panel.view, font.sizes[k]);
 *     each frame:
 *         timeline_panel_hover hover;
 *         bool over = timeline_panel_hit(&panel, mouse_x, mouse_y, &hover);
 *         timeline_panel_draw(&panel, &batch, &font, k, &th.timeline, t, over ? &hover : NULL);
 *     input: timeline_view_zoom / _pan_pixels / _x_to_time (scrub)
 *     timeline_panel_deinit(&panel);
 * The timeline (and its program) must outlive the panel.
 *
 * Coordinates are framebuffer pixels, origin top-left, y down (draw2d's).
 * Errors: timeline_panel_init returns false with one line in *err for a
 * timeline that has no ranks; everything else is a programmer's mistake
 * (assert).
 */
#ifndef PPFLOW_TIMELINE_PANEL_H
#define PPFLOW_TIMELINE_PANEL_H

#include <stdbool.h>

#include "draw2d.h"
#include "error.h"
#include "text.h"
#include "theme.h"
#include "timeline.h"
#include "timeline_view.h"

/* One (stage, micro-batch) count of live activations from `time` on. */
typedef struct timeline_memory_step {
    double time;
    int count;
} timeline_memory_step;

/* A rank's live activations over time: a step function that starts at
 * (0, 0) and changes at each F start (+1) and each last backward part's end
 * (-1: B, W, or the B half of an overlapped pair), as timeline.h counts them. */
typedef struct timeline_memory_curve {
    timeline_memory_step *steps; /* [count], times non-decreasing; a slice of the panel's block */
    int count;
    int peak;                    /* the most live at once (= tl->per_rank[r].peak_activations) */
} timeline_memory_curve;

typedef struct timeline_panel {
    const timeline *tl;              /* not owned */
    timeline_view view;              /* what is visible, and the layout */
    timeline_memory_curve *memory;   /* [ranks] */
    timeline_memory_step *steps;     /* one block for all the curves */
    int memory_peak;                 /* the largest peak over the ranks (the lane's scale) */
} timeline_panel;

/* Computes the memory curves and fits the view to the makespan. False with
 * a message when the timeline has no ranks (a zeroed timeline). */
bool timeline_panel_init(timeline_panel *p, const timeline *tl, ppf_error *err);
/* Frees the curves; accepts a zeroed or deinited panel. */
void timeline_panel_deinit(timeline_panel *p);

/* timeline_view_hit on the panel's own view and timeline. */
bool timeline_panel_hit(const timeline_panel *p, double x, double y, timeline_panel_hover *out);

/* Appends the whole panel to the batch: background, rows with bubble shade,
 * bars (culled to the visible range, bars thinner than a pixel merged into
 * one-pixel columns), micro-batch numbers where they fit, p2p arrows (when
 * at most one per 4 pixels is visible), all-reduces, memory curves, axis,
 * rank labels, the cursor at t and, with a hover, the bar's outline and a
 * tooltip. The text is drawn at font size index `font_size_index` (font may
 * be NULL: no text). Leaves the batch unclipped. Allocates nothing. */
void timeline_panel_draw(const timeline_panel *p, draw2d *d, const text_font *font,
                         int font_size_index, const timeline_palette *pal, double t,
                         const timeline_panel_hover *hover);

#endif
