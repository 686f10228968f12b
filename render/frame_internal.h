/* frame_internal.h - what frame.c (the drawing) and frame_layout.c (the
 * rectangles) must agree on: the font's proportions the layout reserves
 * room with. Private to render/frame*.c. */
#ifndef PPFLOW_FRAME_INTERNAL_H
#define PPFLOW_FRAME_INTERNAL_H

#include <stdbool.h>

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

#endif
