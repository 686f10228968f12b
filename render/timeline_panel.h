/* timeline_panel.h - the timeline (Gantt) panel under the 3D view: one row
 * per pipeline rank with its actions as bars, idle time shaded as bubble,
 * p2p transfers as arrows, all-reduces in a thin lane per rank, a cursor at
 * time t, the live activations of every rank in a lane under the rows, and a
 * time axis.
 *
 * Two halves:
 *   - the view model (timeline_view.h: timeline_view_*, the hover type):
 *     pure C, no GL, unit-tested without a display. It maps time to pixels,
 *     zooms, pans, lays out rows and lanes, and finds what is under the
 *     pointer. Included from here. Whoever shows the panel owns its view (the
 *     viewer its zoom and pan, export a fitted one) and passes it to each
 *     draw.
 *   - this panel: the per-rank memory curves (timeline_query.h's, computed
 *     once at init, a cache of the timeline), the view that
 *     fits a timeline (timeline_panel_view_init), and the drawing
 *     (timeline_panel_draw), which appends rectangles, lines and glyph quads
 *     to a draw2d batch; it calls no GL itself. What the bars, arrows, memory
 *     lane and tooltip show is asked of core (timeline_query.h), never worked
 *     out here.
 *
 * What it does not do: no input handling (the viewer turns clicks, drags and
 * the wheel into timeline_view_* calls on its own view), no view state, no
 * clock (t is an argument), no per-frame allocation (the memory curves are
 * computed once at init), and no GL state of its own.
 *
 * Call order:
 *     timeline_panel panel = {0};
 *     if (!timeline_panel_init(&panel, &tl, &err)) ...      (err names the problem)
 *     timeline_view view;
 *     timeline_panel_view_init(&view, &tl);
 *     timeline_view_set_rect(&view, x, y, w, h);            (and on every resize)
 *     timeline_view_set_text_px(&view, font.sizes[k]);
 *     each frame:
 *         timeline_panel_hover hover;
 *         bool over = timeline_hit_at(&view, &tl, mouse_x, mouse_y, &hover);
 *         timeline_panel_draw(&panel, &view, &batch, &font, k, &th.timeline, t,
 *                             over ? &hover : NULL);
 *     input: timeline_view_zoom / _pan_pixels / _x_to_time (scrub) on the view
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
#include "timeline_query.h"
#include "timeline_view.h"
#include "timeline_hit.h"

typedef struct timeline_panel {
    const timeline *tl;     /* not owned */
    uint64_t generation;    /* tl's generation at init: the curves are of that build (another
                               build at the same address needs a panel made again) */
    timeline_memory memory; /* live activations per rank; memory.peak is the lane's scale */
    /* Owned: the still part of the last frame drawn (everything but what
     * moves with t) kept as pixels, and what it was drawn for. */
    struct timeline_panel_still *still;
} timeline_panel;

/* Computes the memory curves. False with a message when the timeline has no
 * ranks (a zeroed timeline). The panel is of this build of the timeline:
 * timeline_panel_of says whether it still is. */
bool timeline_panel_init(timeline_panel *p, const timeline *tl, ppf_error *err);
/* Whether the panel was made for tl as it is now (the address and its
 * generation); drawing asserts it. */
bool timeline_panel_of(const timeline_panel *p, const timeline *tl);
/* Frees the curves and the kept pixels (with the GL context current when
 * the panel has been drawn); accepts a zeroed or deinited panel. */
void timeline_panel_deinit(timeline_panel *p);

/* Whether the last timeline_panel_draw drew the still part from the pixels
 * it kept (for tests and benchmarks). */
bool timeline_panel_reused(const timeline_panel *p);

/* A view of the whole iteration of tl, with the rows and lanes the panel
 * draws for it (a row per rank, all-reduce lanes when there are any), and an
 * empty rectangle until timeline_view_set_rect. */
void timeline_panel_view_init(timeline_view *v, const timeline *tl);

/* Appends the whole panel, as the view v (of the panel's timeline) shows it,
 * to the batch: background, rows with bubble shade,
 * bars (culled to the visible range, bars thinner than a pixel merged into
 * one-pixel columns), micro-batch numbers where they fit, p2p arrows (when
 * at most one per 4 pixels is visible), all-reduces, memory curves, axis,
 * rank labels, the cursor at t and, with a hover, the bar's outline and a
 * tooltip. The text is drawn at font size index `font_size_index` (font may
 * be NULL: no text). Leaves the batch unclipped.
 *
 * The still part - background, rows, grid, bubble, arrows, bars, all-reduces
 * and memory curves - depends on the view, the palette, the font size and
 * the framebuffer, not on t: the panel keeps it as pixels (draw2d_keep,
 * which flushes the batch) and, while none of those change, draws it again
 * as one quad, so playing a schedule of a million actions costs what the
 * moving parts (numbers, counts, axis, cursor, hover) cost. The frames are
 * the same pixels either way. Allocates only while the numbered bars a view
 * shows outgrow the most seen so far. */
void timeline_panel_draw(const timeline_panel *p, const timeline_view *v, draw2d *d,
                         const text_font *font, int font_size_index, const timeline_palette *pal,
                         double t, const timeline_panel_hover *hover);
/* The hover's tooltip (its bar's outline comes with timeline_panel_draw),
 * opaque and inside the panel: drawn after whatever else outlines bars
 * (the inspection's critical path), so that nothing crosses it. */
void timeline_panel_draw_tip(const timeline_panel *p, const timeline_view *v, draw2d *d,
                             const text_font *font, int font_size_index,
                             const timeline_palette *pal, const timeline_panel_hover *hover);

#endif
