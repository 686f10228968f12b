/* timeline_panel.h - the timeline (Gantt) panel under the 3D view: one row
 * per pipeline rank with its actions as bars, idle time shaded as bubble,
 * p2p transfers as arrows, all-reduces in a thin lane per rank, a cursor at
 * time t, the live activations of every rank in a lane under the rows, and a
 * time axis.
 *
 * Two halves:
 *   - the view model (timeline_view_*, timeline_panel_hit, the event and
 *     describe functions): pure C, no GL, unit-tested without a display. It
 *     maps time to framebuffer pixels and back, zooms around the pointer,
 *     pans, lays out rows, lanes and margins from the text size, and finds
 *     what is under the pointer.
 *   - the drawing (timeline_panel_draw): appends rectangles, lines and glyph
 *     quads to a draw2d batch; it calls no GL itself.
 *
 * What it does not do: no input handling (the viewer turns clicks, drags and
 * the wheel into timeline_view_* calls), no clock (t is an argument), no
 * per-frame allocation (the memory curves are computed once at init), and
 * no GL state of its own.
 *
 * Call order:
 *     timeline_panel panel = {0};
 *     if (!timeline_panel_init(&panel, &tl, &err)) ...      (err names the problem)
 *     timeline_view_set_rect(&panel.view, x, y, w, h);     (and on every resize)
 *     timeline_view_set_text_px(&panel.view, font.sizes[k]);
 *     each frame:
 *         timeline_panel_hover hover;
 *         bool over = timeline_panel_hit(&panel, mouse_x, mouse_y, &hover);
 *         timeline_panel_draw(&panel, &batch, &font, k, &palette, t, over ? &hover : NULL);
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
#include <stddef.h>

#include "draw2d.h"
#include "error.h"
#include "text.h"
#include "timeline.h"

/* Colours of the panel, so that themes work. Bars: forward work in the
 * activation green, backward in the gradient vermillion, weight gradients in
 * the weight blue (DESIGN.md's Okabe-Ito palette). Kinds are also told apart
 * without colour: F solid, B and I hatched, W dotted, F+B cross-hatched. */
typedef struct timeline_palette {
    rgba8 background; /* the panel */
    rgba8 row_alt;    /* every other row's background */
    rgba8 text;       /* labels, ticks, tooltip text */
    rgba8 grid;       /* tick lines across the rows, separators */
    rgba8 bubble;     /* idle time inside a row (hatch ink; the fill is fainter) */
    rgba8 f, b, i, w; /* bars of each kind */
    rgba8 fb;         /* overlapped F+B (cross-hatched with the B colour) */
    rgba8 p2p;        /* transfer arrows */
    rgba8 allreduce;  /* all-reduce bars */
    rgba8 cursor;     /* the line at t and its handle */
    rgba8 memory;     /* the live-activation curves */
} timeline_palette;

timeline_palette timeline_palette_dark(void);  /* for the dark theme (the default) */
timeline_palette timeline_palette_light(void); /* for projectors */

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
    /* derived layout */
    float em;            /* the text size the layout used (text_px, or derived) */
    float label_w;       /* left margin for the rank labels */
    float plot_x, plot_y, plot_w, plot_h; /* bars, lanes and memory: the clipped area */
    float row_y;         /* top of row 0 */
    float row_pitch;     /* distance from one row's top to the next */
    float bar_h;         /* height of the bars at the top of each row */
    float lane_y, lane_h;/* all-reduce lane, relative to the row's top (lane_h 0 = none) */
    float mem_y, mem_h;  /* live-activation lane (all ranks), absolute */
    float axis_y, axis_h;/* time axis strip under the plot */
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

typedef enum timeline_hit_kind {
    TIMELINE_HIT_NONE = 0,
    TIMELINE_HIT_ACTION,    /* a compute action's bar: rank, index */
    TIMELINE_HIT_ALLREDUCE, /* an all-reduce bar: rank, index into tl->allreduces */
} timeline_hit_kind;

/* What is under the pointer (also the highlight timeline_panel_draw takes). */
typedef struct timeline_panel_hover {
    timeline_hit_kind kind;
    int rank;    /* -1 when kind is NONE */
    int index;   /* action index in the rank's program, or all-reduce index; -1 for NONE */
} timeline_panel_hover;

/* Finds the bar under framebuffer point (x, y): a compute action (binary
 * search over the rank's start times; a bar narrower than 3 pixels is hit
 * within 1.5 pixels of it) or an all-reduce in the rank's lane. Returns
 * false and a NONE hit when there is none. */
bool timeline_view_hit(const timeline_view *v, const timeline *tl, double x, double y,
                       timeline_panel_hover *out);
/* timeline_view_hit on the panel's own view and timeline. */
bool timeline_panel_hit(const timeline_panel *p, double x, double y, timeline_panel_hover *out);

/* The first event strictly after t (or the last strictly before t) over all
 * ranks: starts and ends of compute actions, starts and ends of all-reduces.
 * False when there is none. O(P log n) (plus runs of idle steps and markers,
 * and a scan of the all-reduces, one per stage). Depend only on the timeline. */
bool timeline_panel_next_event(const timeline *tl, double t, double *out);
bool timeline_panel_prev_event(const timeline *tl, double t, double *out);

/* Writes a one-line description of an action for the hover tooltip, e.g.
 * "rank 1 · 1F3 · stage 1 · F micro-batch 3 · start 4.00 · end 5.00"
 * (UTF-8, truncated to fit n bytes). Returns the length it wanted, like
 * snprintf. */
size_t timeline_panel_describe(const timeline *tl, int rank, int index, char *buf, size_t n);
/* The same for an all-reduce: "rank 2 · all-reduce of stage 2 · start ... · end ...". */
size_t timeline_panel_describe_allreduce(const timeline *tl, int index, char *buf, size_t n);

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
