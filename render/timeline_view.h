/* timeline_view.h - the view model of the timeline (Gantt) panel: what time
 * range is visible, and where rows, lanes and margins go. Pure C, no GL and
 * no drawing, so it is unit-tested without a display; timeline_panel.h
 * draws what it lays out, timeline_hit.h finds what is under the pointer.
 *
 * It maps time to framebuffer pixels and back, zooms around the pointer,
 * pans, and lays out rows, lanes and margins from the text size. Questions about the timeline
 * itself (the next event, what runs at t, an action's one-line description, the memory curves) are
 * core's: timeline_query.h.
 *
 * What it does not do: no input handling (the viewer turns clicks, drags and
 * the wheel into timeline_view_* calls), no clock (t is an argument), no
 * allocation at all.
 *
 * Call order:
 *     timeline_view v;
 *     timeline_view_init(&v, tl.makespan, ranks, tl.allreduce_count > 0);
 *     timeline_view_set_rect(&v, x, y, w, h);     (and on every resize)
 *     timeline_view_set_text_px(&v, font.sizes[k]);
 *     input: timeline_view_zoom / _pan_pixels / _x_to_time (scrub)
 *     pointer: timeline_hit_at(&v, &tl, mouse_x, mouse_y, &hover) (timeline_hit.h)
 * Whoever shows the panel owns one (the viewer its zoom and pan, export a
 * fitted one; timeline_panel_view_init fits one to a timeline).
 *
 * Coordinates are framebuffer pixels, origin top-left, y down (draw2d's).
 * Errors: none; a bad argument is a programmer's mistake (assert).
 */
#ifndef PPFLOW_TIMELINE_VIEW_H
#define PPFLOW_TIMELINE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "timeline.h"

/* What the panel shows and where, in framebuffer pixels. Fields up to
 * text_px are the state; the rest is the layout that timeline_view_set_rect
 * and timeline_view_set_text_px derive from it (read it, do not write it). */
typedef struct timeline_view {
    double t0, t1;       /* visible time range, t0 < t1 */
    double makespan;     /* the timeline's; the range allowed is [-margin, makespan + margin] */
    double margin;       /* time allowed beyond either end when zoomed out or panned */
    double min_span;     /* the deepest zoom (makespan / 10000) */
    int ranks;           /* rows */
    bool allreduce_lane; /* each row keeps a thin lane for all-reduces */
    float x, y, w, h;    /* the panel's rectangle */
    float text_px;       /* body text pixel size asked for; 0 = from the panel's height */
    bool for_file;       /* drawn where no one can zoom it (a still, a video, the presenter's
                            previews): no hint of what zooming or a taller panel would show */
    /* derived layout */
    float em;                             /* the text size the layout used (text_px, or derived) */
    float label_w;                        /* left margin for the rank labels */
    float plot_x, plot_y, plot_w, plot_h; /* bars, lanes and memory: the clipped area */
    float row_y;                          /* top of row 0 */
    float row_pitch;                      /* distance from one row's top to the next */
    float bar_h;                          /* height of the bars at the top of each row */
    float lane_y, lane_h; /* all-reduce lane, relative to the row's top (lane_h 0 = none) */
    float mem_y, mem_h;   /* live-activation lane (all ranks), absolute */
    float axis_y, axis_h; /* time axis strip under the plot */
} timeline_view;

/* Sets up a view of a timeline's makespan over `ranks` rows, fitted to the
 * whole makespan, with an empty rectangle until timeline_view_set_rect. */
void timeline_view_init(timeline_view *v, double makespan, int ranks, bool allreduce_lane);
/* Shows the whole iteration: [0, makespan]. */
void timeline_view_fit(timeline_view *v);
/* Moves the panel (a resize); the visible time range stays. */
void timeline_view_set_rect(timeline_view *v, float x, float y, float w, float h);
/* Sizes margins, rows and the axis from the body text's pixel size
 * (0 = derive it from the panel's height). */
void timeline_view_set_text_px(timeline_view *v, float text_px);

/* Time to the framebuffer x of the plot, and back (inverses of each other). */
double timeline_view_time_to_x(const timeline_view *v, double t);
double timeline_view_x_to_time(const timeline_view *v, double x);
/* Zooms by `factor` (> 1 in, < 1 out) keeping the time under pixel x under
 * it; the span stays within [min_span, makespan + 2 margin]. */
void timeline_view_zoom(timeline_view *v, double x, double factor);
/* Pans by a drag of dx pixels (dx > 0 moves the content right, showing
 * earlier times), or by a fraction of the span (> 0 shows later times). */
void timeline_view_pan_pixels(timeline_view *v, double dx);
void timeline_view_pan_fraction(timeline_view *v, double fraction);
/* The rank whose row band (bars, lane and the gap under them) holds y, or
 * -1 outside the rows. */
int timeline_view_row_at_y(const timeline_view *v, double y);

/* The time axis's rule, shared by the panel and the SVG figure: ticks every
 * 1, 2 or 5 times a power of ten, the step closest above `raw` (time units
 * per tick wanted), labelled with as many decimals as the step needs. */
double timeline_axis_step(double raw);
int timeline_axis_decimals(double step);

#endif
