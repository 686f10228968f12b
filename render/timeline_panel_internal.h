/* timeline_panel_internal.h - what the timeline panel's files share while
 * drawing one frame: the frame's values and the small helpers. Private to
 * render/timeline_panel*.c: timeline_panel.c (rows, bars, arrows, axis,
 * cursor, the kept still part) and timeline_panel_memory.c (the memory
 * lane: its curves, counts and the cursor's readout). */
#ifndef PPFLOW_TIMELINE_PANEL_INTERNAL_H
#define PPFLOW_TIMELINE_PANEL_INTERNAL_H

#include <math.h>

#include "timeline_panel.h"

static inline float maxf(float a, float b)
{
    return a > b ? a : b;
}

static inline float minf(float a, float b)
{
    return a < b ? a : b;
}

typedef struct style {
    rgba8 fill, ink;
    draw2d_pattern pattern;
} style;

/* A kind's fill as the theme says it (theme_action_fill, which the SVG
 * figure reads too), in draw2d's terms. */
static inline style style_of(theme_fill t)
{
    const draw2d_pattern p = t.pattern == THEME_PATTERN_HATCH        ? DRAW2D_HATCH
                             : t.pattern == THEME_PATTERN_DOTS       ? DRAW2D_DOTS
                             : t.pattern == THEME_PATTERN_CROSSHATCH ? DRAW2D_CROSSHATCH
                                                                     : DRAW2D_SOLID;
    return (style){t.fill, t.ink, p};
}

/* A frame's worth of shared values, so the helpers take one pointer. */
typedef struct frame {
    const timeline_panel *p;
    const timeline_view *v;
    draw2d *d;
    const text_font *font;
    int size;      /* font size index */
    float font_px; /* its pixel size */
    float digit_h; /* height of a digit, for centring numbers */
    const timeline_palette *pal;
    float period;                         /* pattern spacing */
    style styles[ACTION_OVERLAP_F_B + 1]; /* each compute kind's (theme_action_fill) */
    int *left_out;    /* bar labels that did not fit this frame: [0] too narrow, [1] too low
                         (one may be both; hint_at names each); NULL: not counted */
    float cursor_x;   /* the cursor line's x; NAN: none (bar numbers step aside from it) */
    bool second_pass; /* draw_labels_at: only numbers still on the cursor's line */
} frame;

static inline float tx(const frame *f, double t)
{
    return (float)timeline_view_time_to_x(f->v, t);
}

/* Keeps x within a little of the plot: bars far off screen stay finite and
 * patterns, anchored to the framebuffer, do not shift. */
static inline float clip_x(const frame *f, float x)
{
    const float lo = f->v->plot_x - 4, hi = f->v->plot_x + f->v->plot_w + 4;
    return x < lo ? lo : x > hi ? hi : x;
}

static inline float row_top(const timeline_view *v, int r)
{
    return v->row_y + (float)r * v->row_pitch;
}

/* The memory lane (timeline_panel_memory.c): its charts (still, kept with
 * the bars), their counts (they step aside from the cursor's readout), and
 * each rank's count at the cursor. */
void panel_draw_memory(const frame *f);
void panel_draw_memory_labels(const frame *f);
void panel_draw_memory_readout(const frame *f, double t);

#endif
