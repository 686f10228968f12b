/* frame_internal.h - what frame.c (the drawing), frame_labels.c (the 3D
 * view's labels), frame_caption.c (the caption) and frame_layout.c (the
 * rectangles) must agree on: the font's
 * proportions the layout reserves room with, the labels placed so far.
 * Private to render/frame*.c. */
#ifndef PPFLOW_FRAME_INTERNAL_H
#define PPFLOW_FRAME_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "frame.h"

/* DejaVu Sans, per pixel of em: a capital's height, the ascent, the line
 * height (FreeType's metrics round these up a little; the layout uses
 * rounded-up values so that what it reserves holds what is drawn). */
#define CAP_PER_EM 0.729f
#define ASCENT_PER_EM 0.93f
#define LINE_PER_EM 1.18f
/* A label's plate plus its offset from the point it names (place_label),
 * per em of the small text, rounded up. */
#define LABEL_ROW_PER_EM 1.6f

/* The legend's longest row, "weights W (fill: gradient)", per pixel of
 * the small em, rounded up over every size from FRAME_MIN_CAP_PX to 4K
 * (glyph advances are rounded to pixels; tests measure it). */
#define LEGEND_TEXT_PER_EM 12.9f

static inline bool rect_meets(frame_rect a, frame_rect b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* ---- what frame.c, frame_labels.c and frame_caption.c share ---- */

enum { MAX_LABELS = 512 };

typedef struct label_rect {
    float x0, y0, x1, y1;
} label_rect;

/* Rectangles already covered this frame, so labels never pile up. */
typedef struct frame_label_set {
    label_rect placed[MAX_LABELS];
    int count;
} label_set;

/* Whether r meets a rectangle already placed. */
static inline bool overlaps(const label_set *ls, label_rect r)
{
    for (int k = 0; k < ls->count; k++) {
        const label_rect *p = &ls->placed[k];
        if (r.x0 < p->x1 && p->x0 < r.x1 && r.y0 < p->y1 && p->y0 < r.y1)
            return true;
    }
    return false;
}

/* Shortens text (UTF-8, NUL-terminated, in a buffer of `size`) from its end
 * until it and an ellipsis fit max_w pixels, cutting only between
 * characters; returns its width (frame.c). */
float frame_fit_with_ellipsis(const frame_renderer *f, int font, char *text, size_t size,
                              float max_w);
/* The level of detail the 3D view draws at in this frame (scene_renderer.h). */
scene_level frame_view_level(const scene *s, const frame_view *v, const frame_layout *l);
/* The 3D view's labels, after the cards (frame_labels.c). */
void frame_draw_labels(frame_renderer *f, const scene *s, const scene_state *st,
                       const frame_layout *l, const frame_view *v, const theme *th, label_set *ls);
/* The caption: placed after the HUD (and F3's card) and before the legend,
 * whose place it may take (frame_caption.c). */
void frame_draw_caption(frame_renderer *f, const scene *s, const frame_layout *l,
                        const frame_view *v, const theme *th, label_set *ls);

#endif
