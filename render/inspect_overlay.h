/* inspect_overlay.h - what an engineer inspecting a schedule sees drawn over
 * the frame: the selected action (its bar outlined, its objects framed in
 * 3D), a highlighted micro-batch (its bars lit and every other bar dimmed,
 * its slice framed in 3D), the critical path (its bars outlined and the
 * transfers between them drawn in the path's colour; in 3D, the step of it
 * running at t framed), an area selection's rectangle on the timeline, and
 * a details card with core's lines (inspect.h's inspect_text).
 *
 * For: frame.c, which draws these when frame_view.inspect asks (the viewer
 * sets it; tests set it by hand). What is selected, which micro-batch and
 * which area are the viewer's state; what the path is and what the card
 * says are core's answers (inspect.h), computed once and passed in.
 *
 * What it does not do: no input, no hit testing (timeline_view_hit and the
 * viewer's), no questions about the timeline of its own (inspect.h), no
 * GL calls: it appends to a draw2d batch like the timeline panel.
 *
 * Call order, inside a frame's draw2d batch (frame.c):
 *     inspect_overlay_scene(...)      after the 3D view is drawn, before the cards
 *     inspect_overlay_details(...)    where frame.c found room for the card
 *     inspect_overlay_timeline(...)   after timeline_panel_draw
 *     inspect_overlay_tip(...)        last of the panel's, over everything in it
 * Everything is a function of its arguments; nothing is kept.
 *
 * Errors: none; a selection outside the timeline draws nothing.
 */
#ifndef PPFLOW_INSPECT_OVERLAY_H
#define PPFLOW_INSPECT_OVERLAY_H

#include <stdbool.h>

#include "camera.h"
#include "draw2d.h"
#include "inspect.h"
#include "scene.h"
#include "text.h"
#include "theme.h"
#include "timeline_view.h"
#include "timeline_hit.h"

/* What to show; zeroed: nothing. Part of frame_view (frame.h). */
typedef struct inspect_overlay {
    timeline_panel_hover selected; /* an action or all-reduce; kind NONE: none */
    bool show_microbatch;          /* light micro-batch `microbatch`, dim the rest */
    int microbatch;
    const inspect_path *critical; /* the critical path to mark; NULL: none */
    bool show_area;               /* the area [area_t0, area_t1] x ranks [area_rank0, area_rank1] */
    double area_t0, area_t1;
    int area_rank0, area_rank1;
    const inspect_text *details; /* the details card's lines; NULL or none: no card */
    /* A hover's card at the pointer (an idle block, the memory lane, an
     * all-reduce: what the bar's one-line tooltip cannot say), and the span
     * it is about, outlined. */
    const inspect_text *tip; /* NULL or none: no card */
    float tip_x, tip_y;      /* the pointer, target pixels */
    int tip_rank;            /* the span's row; -1: no span */
    double tip_t0, tip_t1;   /* the span */
    bool tip_lane;           /* on the row's all-reduce lane, else on its bar band */
} inspect_overlay;

/* Whether anything is asked for at all. */
bool inspect_overlay_any(const inspect_overlay *o);

/* Appends the timeline's marks (v as the panel was drawn with it): dims
 * the bars outside the micro-batch, outlines the critical path's bars and
 * draws its transfers, the area rectangle, and the selection's outline
 * (last, on top). line_px: the frame's line width. Clipped to the plot. */
void inspect_overlay_timeline(const inspect_overlay *o, const timeline *tl, const timeline_view *v,
                              draw2d *d, const timeline_palette *pal, float line_px);

/* Appends the hover's card (o->tip) over the pointer (under it when the
 * viewport's top is in the way), kept inside [cx, cx + cw] x [cy, cy + ch],
 * and the outline of its span; font size `size` for every line. */
void inspect_overlay_tip(const inspect_overlay *o, const timeline_view *v, draw2d *d,
                         const text_font *font, int size, const theme *th, float line_px, float cx,
                         float cy, float cw, float ch);

/* Appends 3D frames (projected box edges) round the selected action's
 * objects, the micro-batch's slice and the critical step running at t,
 * for the 3D view at (x, y, w, h) in target pixels seen by cam. Clipped to
 * the view; leaves the batch unclipped. */
void inspect_overlay_scene(const inspect_overlay *o, const scene *s, double t, const camera *cam,
                           float x, float y, float w, float h, draw2d *d,
                           const timeline_palette *pal, float line_px);

/* The details card's size for these lines: the first at font size
 * `title_size`, the rest at `size`; pad is the card's inner margin. */
void inspect_overlay_details_size(const inspect_text *t, const text_font *font, int title_size,
                                  int size, float pad, float *w, float *h);
/* Draws the card with its top-left corner at (x, y), w x h as measured. */
void inspect_overlay_details(const inspect_text *t, const text_font *font, int title_size, int size,
                             float pad, float x, float y, float w, float h, draw2d *d, rgba8 panel,
                             rgba8 edge, rgba8 text, rgba8 text_dim, float line_px);

#endif
