/* compare_view.h - two to four frames on one clock in one target: the panes
 * of a comparison, and the strip that says how they differ.
 *
 * The picture:
 *     +------------------------------------------------------------+
 *     | 1f1b: makespan 33, bubble 27.3%, peak activations 4, ...    |  strip
 *     | zb-h1: makespan −18.2%, bubble 27.3% -> 6.1%, ...           |
 *     +------------------------------+-----------------------------+
 *     | frame of side 1              | frame of side 2             |  panes
 *     | (3D view, HUD naming it,     |                             |
 *     |  timeline)                   |                             |
 *     +------------------------------+-----------------------------+
 * Each pane is a whole frame (frame.h) drawn into its viewport, all at the
 * same t; the timelines share one time scale, [0, the longest makespan]
 * (compare_view_timeline), so equal costs are equal widths and the faster
 * schedule visibly ends first. The panes go side by side, stacked, or (four)
 * in a 2 x 2 grid: compare_arrange_choose picks the one whose panes come
 * nearest a frame's usual 16:9, compare_arrange_next cycles them (the
 * window's switch key).
 *
 * The strip is one line per side (the caller's words: core/timeline/compare.h
 * writes them), at the frame's text rule for the whole target: capitals of
 * 1/50 of its height (22 px at 1080) times the UI scale; a line too wide
 * for the target shrinks the strip's text to fit, never under
 * FRAME_MIN_CAP_PX.
 *
 * What it does not do: no input, no clock, no files; it does not decide
 * what the panes show beyond their viewports and shared scale (their views,
 * cameras and HUD lines are the caller's).
 *
 * Call order (a current GL 3.3 context, a bound framebuffer with depth):
 *     compare_renderer c; compare_renderer_init(&c, &err);       the strip's
 *     each frame: compare_renderer_draw(&c, &frame_renderer, panes, &frame, fb_w, fb_h);
 *     compare_renderer_deinit(&c);
 * The panes are drawn with the context's one frame renderer, each from its
 * own cache (frame.h's frame_cache: one per pane, of its session). Nothing
 * is allocated per frame.
 *
 * Errors: init returns false with one line (shader log, missing font).
 */
#ifndef PPFLOW_COMPARE_VIEW_H
#define PPFLOW_COMPARE_VIEW_H

#include <stdbool.h>

#include "compare.h"
#include "draw2d.h"
#include "error.h"
#include "frame.h"
#include "text.h"
#include "theme.h"

typedef enum compare_arrange {
    COMPARE_ARRANGE_AUTO = 0,     /* compare_arrange_choose */
    COMPARE_ARRANGE_SIDE_BY_SIDE, /* one row of panes */
    COMPARE_ARRANGE_STACKED,      /* one column */
    COMPARE_ARRANGE_GRID,         /* 2 x 2 (four panes) */
} compare_arrange;

/* Where things go, in the target's pixels (origin top-left, y down). */
typedef struct compare_layout {
    int width, height;                      /* the target */
    compare_arrange arrange;                /* the one laid out, never AUTO */
    int count, cols, rows;                  /* panes */
    frame_viewport pane[COMPARE_MAX_SIDES]; /* [count], in reading order */
    frame_rect strip;                       /* the strip's band */
    int strip_px;                           /* the strip's text size (em) */
    float strip_pad;                        /* its inner margin */
    float gap;                              /* between panes and around the strip */
} compare_layout;

/* The arrangement whose panes come nearest 16:9 in a target of this size:
 * side by side or stacked, or for four panes the grid too. */
compare_arrange compare_arrange_choose(int fb_width, int fb_height, int count, float ui_scale);
/* The next arrangement after a for `count` panes, AUTO's choice first
 * (the grid only for four). */
compare_arrange compare_arrange_next(compare_arrange a, int count);
/* The layout of count (1..COMPARE_MAX_SIDES) panes and their strip; AUTO:
 * compare_arrange_choose. ui_scale as frame.h's (0: 1). */
compare_layout compare_layout_compute(int fb_width, int fb_height, int count, compare_arrange a,
                                      float ui_scale);

/* The UI scale factor that makes pane k's text as large as a whole
 * target's frame (frame.h's rule: capitals of 1/50 of the height, rounded
 * up, never under the floor, for the target's height over the same for
 * the pane's), so that panes keep the back row's size; 1 for a pane as
 * tall as the target. The window and the export both draw panes with it. */
float compare_pane_text_scale(const compare_layout *l, int k);

/* A pane's timeline view on the shared scale: the whole of [0, longest]
 * (longest: the comparison's longest makespan, compare_longest_makespan). */
void compare_view_timeline(timeline_view *tv, const timeline *tl, double longest);

/* What to show. */
typedef struct compare_frame {
    frame_view pane[COMPARE_MAX_SIDES]; /* [count]: each pane's view; its viewport is set by
                                           the draw; a zeroed timeline gets the shared scale */
    int count;
    compare_arrange arrange;
    const char *strip[COMPARE_MAX_SIDES]; /* [count] lines; NULL or "": no line */
    theme_id theme;                       /* the strip's and the gaps' */
    float ui_scale;                       /* the strip's (the panes carry their own) */
} compare_frame;

/* The strip's means of drawing; the panes are the frame renderer's. */
typedef struct compare_renderer {
    draw2d batch;   /* the strip */
    text_font font; /* the strip's sizes: [0] the aim, [1] fitted to the widest line */
    bool ready;
} compare_renderer;

bool compare_renderer_init(compare_renderer *c, ppf_error *err);
void compare_renderer_deinit(compare_renderer *c); /* accepts a zeroed or deinited one */

/* Clears the target, draws the strip and every pane (panes[k]: pane k's
 * cache, [v->count]) at its own view with f into the layout of
 * v->arrange. */
void compare_renderer_draw(compare_renderer *c, frame_renderer *f, frame_cache *const *panes,
                           const compare_frame *v, int fb_width, int fb_height);

#endif
