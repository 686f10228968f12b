/* frame.h - one whole picture of ppflow: the 3D view on top, the timeline
 * panel under it, the HUD, legend, caption, labels and the help card.
 *
 * For: the live viewer, the headless render tests, `ppflow bench render` and
 * export, which all draw exactly the same frame for the same inputs: a frame
 * is a function of (scene, timeline, frame_view, framebuffer size).
 *
 * Layout (frame_layout_compute, pure): the 3D view fills the top `split` of
 * the framebuffer (0.7 by default), the timeline panel the rest. Text sizes
 * follow the framebuffer's height (body text 1/50 of it, at least 12 px),
 * so nothing assumes one resolution; the glyph atlas is re-rendered only
 * when that size changes.
 *
 * Call order (a current GL 3.3 context, a bound framebuffer with depth):
 *     frame_renderer f; frame_renderer_init(&f, &scene, &timeline, &err);
 *     each frame: frame_renderer_draw(&f, &scene, &timeline, &view, fb_w, fb_h);
 *     frame_renderer_deinit(&f);
 *
 * Errors: init returns false with one line (shader log, missing font).
 */
#ifndef PPFLOW_FRAME_H
#define PPFLOW_FRAME_H

#include <stdbool.h>

#include "camera.h"
#include "draw2d.h"
#include "error.h"
#include "scene.h"
#include "scene_renderer.h"
#include "text.h"
#include "theme.h"
#include "timeline_panel.h"

enum { FRAME_FONT_BODY = 0, FRAME_FONT_SMALL = 1, FRAME_FONT_LARGE = 2 };

/* Where things go, in framebuffer pixels (origin top-left, y down). */
typedef struct frame_layout {
    int width, height;
    float view_x, view_y, view_w, view_h;     /* the 3D view */
    float panel_x, panel_y, panel_w, panel_h; /* the timeline panel */
    int body_px, small_px, large_px;          /* text sizes */
} frame_layout;

/* The layout for a framebuffer; split is the 3D view's share of the height
 * (0 = 0.7), kept within [0.25, 0.85]. */
frame_layout frame_layout_compute(int fb_width, int fb_height, float split);

/* What to show; everything the viewer's state decides. */
typedef struct frame_view {
    double t;               /* time shown */
    theme_id theme;
    camera cam;
    float split;            /* 3D view's share of the height; 0 = 0.7 */
    const char *hud_title;  /* "1F1B  P=4  M=8  D=2  V=1" */
    const char *hud_bubble; /* "bubble 27.3%  = (P−1)/(M+P−1)" */
    const char *status;     /* "▶ ×1.0" or "⏸"; NULL = none */
    bool show_help;         /* the key card */
    bool show_legend;
    bool bare;              /* only the 3D view and the timeline: no HUD, labels or caption
                               (pixel tests that probe objects) */
    timeline_panel_hover hover; /* the bar under the pointer (kind NONE = none) */
    int caption_rank;       /* -1: the rank scene_caption_rank picks */
} frame_view;

typedef struct frame_renderer {
    scene_renderer scene;
    draw2d batch;
    text_font font;
    int font_body_px;        /* size the atlas was rendered for */
    timeline_panel panel;
    scene_state state;
    struct frame_label_set *labels; /* placed label rectangles, reused every frame */
    bool ready;
} frame_renderer;

bool frame_renderer_init(frame_renderer *f, const scene *s, const timeline *tl, ppf_error *err);
void frame_renderer_deinit(frame_renderer *f); /* accepts a zeroed or deinited renderer */

/* Lays out the panel for the framebuffer (call before using panel.view for
 * input, and after a resize); frame_renderer_draw calls it too. False only
 * when the font cannot be re-rendered (the old size stays). */
bool frame_renderer_layout(frame_renderer *f, int fb_width, int fb_height, float split,
                           ppf_error *err);

/* Draws the frame into the bound framebuffer (fb_width x fb_height pixels). */
void frame_renderer_draw(frame_renderer *f, const scene *s, const timeline *tl,
                         const frame_view *view, int fb_width, int fb_height);

/* The help card: keys and what they do, ending with {NULL, NULL}. */
typedef struct frame_help_item {
    const char *keys, *what;
} frame_help_item;
extern const frame_help_item frame_help[];

#endif
