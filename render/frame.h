/* frame.h - one whole picture of ppflow: the 3D view on top, the timeline
 * panel under it, the HUD, legend, caption, labels and the key card.
 *
 * For: the live viewer, the headless render tests, `ppflow bench render` and
 * export, which all draw exactly the same frame for the same inputs: a frame
 * is a function of (scene, timeline, frame_view, target size). Everything
 * the picture depends on is in frame_view: time, theme, camera, the
 * timeline's zoom and pan, the viewport, the key card's rows.
 *
 * Two parts keep what a frame reuses, neither anything the picture
 * depends on: the renderer is the GL context's (shaders, meshes, the 2D
 * batch, the glyph atlas: one per window, shared by every pane drawn in
 * it); the cache is one session's (its scene's state at t, the 3D
 * instances last uploaded, the timeline's memory curves and kept pixels:
 * one per pane). A cache is made for one build of a session and asserts
 * it when drawn; whoever changes what a pane shows makes the new session's
 * cache beside the old one and swaps them (the viewer's one road,
 * viewer_core.h's viewer_show), so nothing kept for a session outlives it.
 *
 * Viewport: a frame fills the rectangle frame_view.viewport of the target
 * (the whole target when its size is 0) and draws nothing outside it, so
 * that two frames can share one window side by side, or a small one can be
 * drawn as a preview. A frame drawn into a viewport of a bigger target is
 * the frame drawn alone into a target of the viewport's size, moved.
 *
 * Layout (frame_layout_*, pure: the viewer lays out its input with them,
 * without the renderer): the 3D view fills the top `split` of the viewport
 * (0.7 by default), the timeline panel the rest. Text sizes follow the
 * viewport's height: the smallest text's capitals are 1/50 of it (22 px at
 * 1080, the floor for a lecture hall), never under FRAME_MIN_CAP_PX, times
 * the UI scale (--ui-scale, ctrl+= / ctrl+-), which scales line widths too;
 * so nothing assumes one resolution. The glyph atlas is re-rendered only
 * when a size changes (frames of different heights in one target re-render
 * it).
 *
 * Free area: the layout knows the cards' sizes without the renderer: the
 * HUD is three lines at most FRAME_HUD_EM large ems wide, the legend's size
 * comes from its fixed rows with per-em widths rounded up (the drawn cards
 * are exactly these rectangles, or smaller), the caption one body line (a
 * caption too long for it, a beat's read out in a hall, wraps onto as many
 * lines as it takes, up to six within 45% of the view, covering the foot
 * of the free area, where labels then keep clear of it, and the legend
 * too when they reach it: the legend is left out then). The
 * legend goes top-right, or under the HUD when they would meet. What stays
 * uncovered is offered as up to three rectangles (free[]), each above the
 * caption: the band under both cards, the part left of the legend under
 * the HUD, and the part right of the HUD under the legend. A camera is
 * fitted into each and the one that shows the scene largest is kept, so the
 * scene is never under a card and is as large as the cards allow. A window
 * too short for any of them keeps a third of its view for the scene, and
 * the cards then cover part of it.
 *
 * Labels never overlap: the HUD, legend and caption are placed first, then
 * the 3D labels in this order, each dropped when it would cover one already
 * placed: GPU (stage) labels, replica labels, the activations in flight,
 * the weights. So what is dropped first is what repeats (weights are the
 * same on every stage).
 *
 * What it does not do: no input, no clock, no state carried from one frame
 * to the next besides caches; no files.
 *
 * Call order (a current GL 3.3 context, a bound framebuffer with depth):
 *     frame_renderer f; frame_renderer_init(&f, &err);
 *     frame_cache c; frame_cache_init(&c, &f, &scene, &timeline, &err);   per session
 *     each frame: frame_renderer_draw(&f, &c, &view, fb_w, fb_h);
 *     another session: frame_cache_init(&next, ...), then frame_cache_deinit(&c), c = next
 *     frame_cache_deinit(&c); frame_renderer_deinit(&f);
 * The scene must be laid out for the timeline (scene.timeline, and its
 * generation: asserted), and both must live, unchanged, while a cache of
 * them is drawn (the draw asserts the build: another build at the same
 * address needs a new cache).
 *
 * Errors: the inits return false with one line (shader log, missing font;
 * a timeline without ranks, a scene over the object budget).
 */
#ifndef PPFLOW_FRAME_H
#define PPFLOW_FRAME_H

#include <stdbool.h>

#include "camera.h"
#include "draw2d.h"
#include "error.h"
#include "inspect_overlay.h"
#include "scene.h"
#include "scene_aa.h"
#include "scene_renderer.h"
#include "text.h"
#include "theme.h"
#include "timeline_panel.h"

enum { FRAME_FONT_BODY = 0, FRAME_FONT_SMALL = 1, FRAME_FONT_LARGE = 2 };

/* A rectangle of the target in pixels, origin top-left, y down. */
typedef struct frame_viewport {
    int x, y, w, h;
} frame_viewport;

/* A rectangle of the target in pixels: left, top, right, bottom. */
typedef struct frame_rect {
    float x0, y0, x1, y1;
} frame_rect;

/* Candidate free rectangles of the 3D view at most (frame_layout.free). */
#define FRAME_FREE_MAX 3

/* Where things go, in the target's pixels (origin top-left, y down). */
typedef struct frame_layout {
    int x, y;                                 /* the viewport's top-left corner */
    int width, height;                        /* the viewport's size */
    float view_x, view_y, view_w, view_h;     /* the 3D view */
    float panel_x, panel_y, panel_w, panel_h; /* the timeline panel */
    int body_px, small_px, large_px;          /* text sizes (em) */
    float ui_scale;                           /* the scale these sizes include */
    float line_px;                            /* width of outlines and rules */
    float free_x, free_y, free_w, free_h;     /* the band under both cards and over the
                                                 caption: free[0] */
    frame_rect hud;                           /* the HUD card at its widest (FRAME_HUD_EM) */
    frame_rect legend;                        /* the legend card; x1 <= x0: none fits */
    frame_rect free[FRAME_FREE_MAX];          /* rectangles that no card covers */
    int free_count;                           /* 1..FRAME_FREE_MAX */
} frame_layout;

/* The UI scale's range and the smallest capital height drawn, whatever the
 * window (below it no text is readable at all). */
#define FRAME_UI_SCALE_MIN 0.5f
#define FRAME_UI_SCALE_MAX 3.0f
#define FRAME_MIN_CAP_PX 8.0f
/* Rows of the legend card (frame.c), which the layout leaves room for. */
#define FRAME_LEGEND_ROWS 7
/* The widest HUD the layout reserves room for, in ems of the large (title)
 * size: the title of any built-in schedule at P, M < 100 with the play
 * status beside it (tests hold every asset's HUD to it). A wider HUD still
 * shows; the legend then goes under it. */
#define FRAME_HUD_EM 26.0f
/* ui_scale brought within its range (0 or NaN: 1). */
float frame_ui_scale_clamp(float ui_scale);

/* The 3D view's share of the height: FRAME_SPLIT_DEFAULT unless asked,
 * always within [FRAME_SPLIT_MIN, FRAME_SPLIT_MAX] so that neither half
 * vanishes. */
#define FRAME_SPLIT_DEFAULT 0.7f
#define FRAME_SPLIT_MIN 0.25f
#define FRAME_SPLIT_MAX 0.85f
/* split brought within [FRAME_SPLIT_MIN, FRAME_SPLIT_MAX] (NaN: the minimum). */
float frame_split_clamp(float split);

/* The layout of a frame that fills a framebuffer; split is the 3D view's
 * share of the height (0: FRAME_SPLIT_DEFAULT), clamped by frame_split_clamp;
 * ui_scale multiplies text sizes and line widths (0: 1; frame_ui_scale_clamp). */
frame_layout frame_layout_compute(int fb_width, int fb_height, float split, float ui_scale);
/* The same for a frame in a viewport of a target. */
frame_layout frame_layout_in(frame_viewport viewport, float split, float ui_scale);

/* The layout's free area as a fraction of its 3D view, for camera_fit_rect. */
camera_rect frame_layout_free_rect(const frame_layout *l);
/* Every free rectangle (l->free) as fractions of the 3D view, less a
 * label's row at the bottom for the labels hung under the scene; returns
 * their count. Cameras are fitted into each and the nearest wins
 * (camera_preset_view_best, camera_fit_best): the largest scene. */
int frame_layout_free_rects(const frame_layout *l, camera_rect out[FRAME_FREE_MAX]);
/* What camera_grow_clear keeps the scene within and clear of, as fractions
 * of the 3D view: *view down to the free area's foot (over the caption and
 * the GPU labels' row), out[] the cards over it (the HUD, the legend when
 * it has room); returns their number. */
int frame_layout_obstacles(const frame_layout *l, camera_rect *view, camera_rect out[2]);

/* Where the legend card (w x h pixels) goes in the layout's 3D view, the
 * HUD's card being `hud`: the view's top-right corner, `gap` in from its
 * edges; when that would overlap the HUD (a narrow or tall window), right-
 * aligned `gap` under the HUD; when that would reach below `bottom` (the
 * caption's top) or out of the view's sides, nowhere: false, and the legend
 * is not drawn (the HUD and the caption say more than the legend's
 * colours). Pure: the frame and tests place it alike. */
bool frame_legend_place(const frame_layout *l, frame_rect hud, float w, float h, float gap,
                        float bottom, frame_rect *out);

/* One row of the key card: the keys as the card writes them, and what they do. */
typedef struct frame_help_item {
    const char *keys, *what;
} frame_help_item;

/* The viewer's what-if command line (`:`), drawn as a card across the foot
 * of the 3D view, over the caption (frame_whatif_card.c): the text typed in
 * large type with a cursor, under it the hint (the names that fit, or the
 * current value and the values taken), and the last change's error. */
typedef struct frame_whatif_card {
    const char *text;  /* what is typed; NULL: closed, only the error shows (a direct key's) */
    const char *hint;  /* NULL or "": none */
    const char *error; /* one line; NULL or "": none */
} frame_whatif_card;

/* What to show; everything the viewer's state decides. */
typedef struct frame_view {
    double t; /* time shown */
    theme_id theme;
    camera cam;
    float split;            /* 3D view's share of the height; 0: FRAME_SPLIT_DEFAULT */
    float ui_scale;         /* text and line widths times this; 0: 1 */
    const char *hud_title;  /* "1F1B  P=4  M=8  D=2  V=1" */
    const char *hud_bubble; /* "bubble 27.3%  = (P−1)/(M+P−1)" */
    const char *status;     /* "▶ ×1.0" or "⏸"; NULL = none */
    bool show_help;         /* the key card */
    bool show_legend;
    bool bare;                   /* only the 3D view and the timeline: no HUD, labels or caption
                                    (pixel tests that probe objects) */
    timeline_panel_hover hover;  /* the bar under the pointer (kind NONE = none) */
    int caption_rank;            /* -1: the rank scene_caption_rank picks */
    frame_viewport viewport;     /* where in the target; w or h 0 = the whole target */
    timeline_view timeline;      /* the panel's zoom and pan (timeline_panel_view_init; the frame
                                    places it, frame_layout_place_timeline); zeroed = the whole
                                    iteration */
    const frame_help_item *help; /* the key card's rows, [help_count], shown with show_help */
    int help_count;
    int help_page;       /* the key card's page where it takes several (frame_help_pages), modulo */
    bool blackout;       /* the whole viewport black, nothing else (presenting's B) */
    bool compare_pane;   /* one of a comparison's panes: a HUD too narrow for its title
                            keeps the schedule and V, leaving P, M and D out */
    bool cleared;        /* the caller has cleared the viewport to the theme's background,
                            depth and stencil (compare_view: one clear for all panes) */
    const char *caption; /* the caption line; NULL: what happens at t (scene_caption) */
    bool laser;          /* a laser dot at (laser_x, laser_y), target pixels */
    float laser_x, laser_y;
    /* Selection, micro-batch, critical path, area, details card
     * (inspect_overlay.h); zeroed: none. */
    inspect_overlay inspect;
    const char *hud_note; /* after the HUD's time: what a what-if changed ("P=8 (was 4)");
                             NULL or "": nothing */
    const frame_whatif_card *whatif_card; /* NULL: none */
    const char *frame_times; /* the viewer's frame-rate readout (F3), a line on a card under
                                the HUD; NULL or "": none (export never sets it) */
    scene_aa_mode aa;        /* the 3D view's anti-aliasing (scene_aa.h); zeroed: SCENE_AA_EDGE,
                                the window's and video's; stills ask for SCENE_AA_SUPERSAMPLE */
    bool still;              /* one frame, no motion: each transfer shown over its own time alone
                                (scene_state_exact_at), none held faint past its arrival */
} frame_view;

/* The layout of the frame this view asks for in a target of this size
 * (its viewport, or the whole target). */
frame_layout frame_layout_of(const frame_view *v, int target_width, int target_height);
/* Places a timeline view in the layout's panel: its rectangle and text size,
 * as the frame draws it. Input that acts on the panel (scrub, zoom, hover)
 * lays out the view with this first. */
void frame_layout_place_timeline(const frame_layout *l, timeline_view *tv);

/* One GL context's means of drawing frames (see above). */
typedef struct frame_renderer {
    scene_renderer scene;
    draw2d batch;
    text_font font;                 /* font.stats may be set to record every string drawn */
    int font_body_px;               /* size the atlas was rendered for */
    struct frame_label_set *labels; /* placed label rectangles, reused every frame */
    scene_aa aa;                    /* the 3D view's anti-aliasing: its scratch and framebuffer */
    bool ready;
} frame_renderer;

/* A card (the legend, the HUD) kept as pixels from frame to frame, and
 * what it was drawn for: the same card, words, theme and sizes draw the
 * same pixels. */
typedef struct frame_card_key {
    float x, y, w, h; /* the card */
    theme_id theme;   /* its colours */
    int text_px;      /* the text's size (frame_renderer.font_body_px) */
    float line_px;    /* its outline's width */
    char words[512];  /* what it says (all of it that is kept) */
} frame_card_key;

typedef struct frame_kept_card {
    draw2d_pixels inside; /* the card's inside as last drawn afresh */
    frame_card_key key;   /* what it was drawn for; texture 0: nothing kept */
} frame_kept_card;

/* What one session's frames keep from frame to frame (see above). */
typedef struct frame_cache {
    const scene *scene;          /* what it is of: this scene ... */
    const timeline *tl;          /* ... of this timeline ... */
    uint64_t generation;         /* ... at this build (timeline.generation) */
    scene_state state;           /* the objects at the last t drawn */
    scene_instances instances;   /* the 3D view's last upload */
    timeline_panel panel;        /* the memory curves, the kept timeline pixels */
    frame_kept_card legend, hud; /* draw_legend's and draw_hud's cards */
    unsigned kinds;              /* program_kind_mask: the legend's rows */
} frame_cache;

/* The pages the key card of v takes in a target of this size: 1 where it
 * fits at once, more where its rows do not fit at the legible sizes
 * (presenting at 1080p); the viewer's h steps through them. f's font as
 * the last frame drawn at that size left it. */
int frame_help_pages(const frame_renderer *f, const frame_view *v, int fb_width, int fb_height);

bool frame_renderer_init(frame_renderer *f, ppf_error *err);
void frame_renderer_deinit(frame_renderer *f); /* accepts a zeroed or deinited renderer */

/* The cache of (s, tl) as built now, for frames drawn with f (its context
 * current). False with one line only for a timeline without ranks or a
 * scene over the object budget, which a built session never is. */
bool frame_cache_init(frame_cache *c, const frame_renderer *f, const scene *s, const timeline *tl,
                      ppf_error *err);
/* Accepts a zeroed or deinited one; its renderer's context current. */
void frame_cache_deinit(frame_cache *c);
/* Whether c was made for (s, tl) as built now (their addresses and
 * generation). */
bool frame_cache_of(const frame_cache *c, const scene *s, const timeline *tl);

/* Draws the frame of c's session into its viewport of the bound
 * framebuffer (fb_width x fb_height pixels; the viewport must lie inside
 * it), and nowhere else. */
void frame_renderer_draw(frame_renderer *f, frame_cache *c, const frame_view *view, int fb_width,
                         int fb_height);

#endif
