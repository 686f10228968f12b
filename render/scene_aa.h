/* scene_aa.h - anti-aliasing of the 3D view: the scene is drawn between
 * scene_aa_begin and scene_aa_end, and scene_aa_finish follows the frame's
 * 2D overlay; between them the view's edges are smoothed in the target.
 *
 * For: frame.c, which draws every frame (the live window, stills, export)
 * through here; the mode is the frame's (frame_view.aa). The ways, chosen
 * by what each output can afford on Mesa's llvmpipe, the CPU renderer of
 * machines without a GPU (measured on 2 cores):
 *
 *   - SCENE_AA_EDGE (the window and every video frame): the frame is drawn
 *     as before; then (scene_aa_finish) the part of the view the scene's
 *     bounds cover is read back, filtered by edge_aa.h (morphological: each
 *     stair-step's pixels blended by the area the true edge cuts off) with
 *     every pixel the 2D overlay may have touched kept as it is
 *     (draw2d_covered), and what changed is written back. Once the frame is
 *     whole, so that llvmpipe rasterises it in one pass: the pass a read
 *     between the scene and the overlay adds cost 0.75 ms of CPU more. About
 *     1 ms of CPU a 1080p frame, where 4x multisampling costs about 13 ms
 *     (its resolve is a shader pass over every pixel) and leaves the edges
 *     the fragment shader draws (the weights' gradient fill) jagged.
 *   - SCENE_AA_SUPERSAMPLE (stills, PNG frames): the scene is drawn k x k
 *     times larger (k = 4 at 1080p, less where that passes
 *     SCENE_AA_SUPERSAMPLE_PIXELS or the GL's size limits) into a
 *     framebuffer of its own, its line widths times k, read back in bands,
 *     box-filtered down and written into the view (scene_aa_end) before the
 *     overlay: every edge, the shader's included, a 16-sample average.
 *   - SCENE_AA_MULTISAMPLE (the window and the presenter's on a GPU,
 *     scene_aa_for_renderer): the scene is drawn into a 4x multisampled
 *     framebuffer of its own and resolved into the view by the GL
 *     (scene_aa_end), before the overlay. The edges the fragment shader
 *     draws are smoothed there by their own coverage (scene.frag), as
 *     multisampling shades a pixel once. Never on llvmpipe, where the
 *     resolve costs as above.
 *   - SCENE_AA_OFF: as rasterised (jagged; for comparison and --aa off).
 *
 * Left to the caller (scene_aa_defer; export): a recording reads every
 * frame back whole for its encoder (readback.h) anyway, so there EDGE's
 * pass is only noted at scene_aa_finish (the rectangle to filter and the
 * boxes the overlay covered, scene_aa_deferred) and done on the frame read
 * back (scene_aa_apply), in the memory the encoder reads and on its
 * thread: the same bytes as done in the target, without reading the view
 * back, uploading it and copying it in (0.5 ms of the drawing thread's CPU
 * a 1080p frame on llvmpipe) or the wait for the rasteriser between.
 *
 * Written back through draw2d_put: a copy into an offscreen target (a
 * memcpy on llvmpipe); into a window, whose pixels no copy reaches, quads
 * over the 16x16 tiles that changed. So the overlay, the timeline's kept
 * pixels (draw2d_keep) and readback (render_target_read, readback.h) keep
 * working on a plain single-sampled target: nothing here is multisampled.
 *
 * Deterministic: the pixels written are a function of the pixels drawn, of
 * the overlay's boxes and of the rectangle filtered, which follows the
 * view, the camera and the scene's bounds; the same frame drawn twice
 * gives the same bytes.
 *
 * What it does not do: nothing to the 2D overlay (text is smoothed by its
 * glyph atlas, rectangles are axis-aligned), and with EDGE nothing to the
 * 3D view under the overlay's translucent cards either; nothing outside the
 * view; no clock, no allocation once the largest view has been drawn.
 *
 * Call order (a current GL 3.3 context, the target bound for drawing):
 *     scene_aa aa = {0};
 *     scene_aa_view sv = scene_aa_begin(&aa, &(scene_aa_desc){...});
 *     draw the scene into the viewport sv.x, sv.y, sv.w, sv.h with line widths times sv.scale;
 *     scene_aa_end(&aa, &batch);      the target bound again
 *     draw2d_begin(&batch, ...); the overlay ...; draw2d_flush(&batch);
 *     scene_aa_finish(&aa, &batch);
 *     scene_aa_deinit(&aa);
 * Deferred (a target read back whole, each frame's pass kept until its
 * pixels are; nothing here needs the GL):
 *     scene_aa_defer(&aa, true);                   once
 *     each frame: begin, end, finish as above, then scene_aa_take(&aa, &pass[slot]);
 *     read the target back whole (rows bottom first) into px, then
 *     scene_aa_apply(&filter, &pass[slot], px, stride);   any thread, one at a time per filter
 *     scene_aa_deferred_deinit(&pass[slot]); scene_aa_filter_deinit(&filter);
 *
 * Errors: none reported. Where the GL cannot make the supersampling or
 * multisampling framebuffer, the view is drawn with SCENE_AA_EDGE instead.
 */
#ifndef PPFLOW_SCENE_AA_H
#define PPFLOW_SCENE_AA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "camera.h"
#include "colour.h"
#include "draw2d.h"
#include "edge_aa.h"
#include "render_target.h"

typedef enum scene_aa_mode {
    SCENE_AA_EDGE = 0,    /* morphological, at 1x (the default) */
    SCENE_AA_SUPERSAMPLE, /* drawn k x k larger and box-filtered */
    SCENE_AA_OFF,         /* as rasterised */
    SCENE_AA_MULTISAMPLE, /* drawn multisampled, resolved by the GL (windows on a GPU) */
    SCENE_AA_MODES
} scene_aa_mode;

/* Samples per pixel of SCENE_AA_MULTISAMPLE (fewer where GL_MAX_SAMPLES is). */
#define SCENE_AA_MULTISAMPLE_SAMPLES 4

/* The most pixels a supersampled view is drawn with (a 1080p frame's view
 * at 4 x 4 is 23.2 million); a larger view gets a smaller k, down to 2. */
#define SCENE_AA_SUPERSAMPLE_PIXELS 24000000
#define SCENE_AA_SUPERSAMPLE_MAX 4

/* "edge", "supersample", "off", "msaa" (the --aa option's names); NULL past the end. */
const char *scene_aa_name(scene_aa_mode m);

/* The mode a live view (the window, the presenter's) takes on a GL whose
 * GL_RENDERER is `renderer`: EDGE on a CPU rasteriser (llvmpipe and its
 * kin), MULTISAMPLE on anything else, a GPU, where EDGE's read back and
 * CPU pass stall the pipeline (4K: 88 fps against 514 without it on an
 * H200) and the resolve is nearly free. NULL: EDGE. */
scene_aa_mode scene_aa_for_renderer(const char *renderer);
/* scene_aa_for_renderer of the current context's GL_RENDERER. */
scene_aa_mode scene_aa_for_current_gl(void);

typedef struct scene_aa_desc {
    scene_aa_mode mode;
    int x, y, w, h;          /* the 3D view in the target, GL pixels (origin bottom-left) */
    int fb_width, fb_height; /* the target's size */
    const camera *cam;       /* the view's camera ... */
    const float *bounds_min, *bounds_max; /* ... and the world box everything drawn lies in:
                                             EDGE filters only where it lands; NULL: the view */
    rgba8 background;                     /* the view's clear colour (SUPERSAMPLE clears to it) */
} scene_aa_desc;

/* Where to draw the scene: a GL viewport in the framebuffer bound now, and
 * the factor its line widths take. */
typedef struct scene_aa_view {
    int x, y, w, h;
    float scale;
} scene_aa_view;

/* The most views one frame's deferred EDGE passes hold (a comparison's
 * panes); a view past them is smoothed at once, in the target. */
enum { SCENE_AA_DEFERRED_VIEWS = 4 };

/* One view's EDGE pass, noted for later. */
typedef struct scene_aa_pass {
    int x, y, w, h;           /* the rectangle to filter, GL pixels (origin bottom-left) */
    int first_box, box_count; /* the overlay's boxes over it, in scene_aa_deferred.boxes */
} scene_aa_pass;

/* A frame's EDGE passes left undone (scene_aa_defer), for its pixels read
 * back. Storage grows to a frame's needs and is kept (scene_aa_take swaps). */
typedef struct scene_aa_deferred {
    scene_aa_pass pass[SCENE_AA_DEFERRED_VIEWS]; /* [count], in the order the views were drawn */
    int count;
    int fb_height;     /* the target's height, which the boxes' rows count down from */
    draw2d_box *boxes; /* what the overlay may have touched, framebuffer pixels (draw2d_covered) */
    int box_count;     /* entries of boxes in use */
    int box_capacity;  /* entries boxes holds */
} scene_aa_deferred;

/* What scene_aa_apply works in: one per thread that applies passes. */
typedef struct scene_aa_filter {
    edge_aa edge;         /* the morphological filter's scratch */
    uint8_t *keep;        /* 1 for each pixel of a pass's rectangle the overlay covers */
    size_t keep_capacity; /* bytes `keep` holds */
    long last_changed;    /* pixels the last apply changed (tests, benches) */
} scene_aa_filter;

typedef struct scene_aa {
    edge_aa edge;           /* the morphological filter's scratch */
    uint8_t *pixels;        /* pixels read back (GL's rows: bottom first) */
    size_t capacity;        /* bytes `pixels` holds */
    uint8_t *small;         /* supersampling: the box-filtered view */
    size_t small_capacity;  /* bytes `small` holds */
    uint8_t *keep;          /* EDGE: 1 for each pixel of the region the overlay covers */
    size_t keep_capacity;   /* bytes `keep` holds */
    uint8_t *mask;          /* EDGE into a window: 1 for each tile with a changed pixel;
                               zero between calls */
    size_t mask_capacity;   /* bytes `mask` holds */
    draw2d_pixels put;      /* the texture written back from */
    render_target ss;       /* supersampling's framebuffer; zero until needed */
    render_target ms;       /* multisampling's framebuffer ... */
    render_target resolved; /* ... and the one it is resolved into; zero until needed */
    /* from begin to finish */
    scene_aa_mode mode; /* what begin did */
    bool pending;       /* EDGE: end came, finish has work to do */
    int target_fbo;     /* the framebuffers bound for drawing and reading at begin */
    int read_fbo;
    int x, y, w, h; /* the rectangle to filter or fill, GL pixels */
    int fb_width, fb_height;
    int k;             /* supersampling's factor */
    long last_changed; /* pixels the last EDGE pass changed (tests, benches) */
    bool defer;        /* EDGE's passes are noted in `deferred`, not done (scene_aa_defer) */
    scene_aa_deferred deferred; /* the passes noted since the last scene_aa_take */
} scene_aa;

/* Prepares the scene's drawing: binds the supersampling framebuffer (cleared
 * to the background) when the mode asks, and says where to draw. */
scene_aa_view scene_aa_begin(scene_aa *a, const scene_aa_desc *d);
/* After the scene: SUPERSAMPLE smooths what was drawn and writes it into
 * the target (bound again) through `batch` (draw2d_begin, put, flush:
 * nothing of the caller's may be pending). */
void scene_aa_end(scene_aa *a, draw2d *batch);
/* After the frame's 2D overlay, flushed and its batch not begun again: EDGE
 * smooths the view, every pixel the overlay's primitives may have touched
 * (draw2d_covered) kept as it is, and writes what changed back through
 * `batch`. Does nothing in the other modes. */
void scene_aa_finish(scene_aa *a, draw2d *batch);
/* Releases the GL objects and memory (its context current); accepts a
 * zeroed or deinited one. */
void scene_aa_deinit(scene_aa *a);

/* From now on (on) EDGE's pass is noted at scene_aa_finish, with the
 * overlay's boxes, instead of done in the target; for a target the caller
 * reads back whole after each frame and smooths with scene_aa_apply (an
 * offscreen framebuffer: a window's pixels would not get the result). */
void scene_aa_defer(scene_aa *a, bool on);
/* Moves the passes noted since the last take into *out and empties a's
 * list; out's old storage becomes a's (nothing allocated once warm). */
void scene_aa_take(scene_aa *a, scene_aa_deferred *out);
/* Does d's passes on the whole frame they were noted in, read back:
 * RGBA, rows bottom first (GL's order, readback.h's), `stride` bytes
 * apart; every pixel the overlay may have touched kept. The bytes come out
 * as scene_aa_finish leaves them in the target. Returns the pixels changed. */
long scene_aa_apply(scene_aa_filter *f, const scene_aa_deferred *d, uint8_t *pixels, size_t stride);
/* Free the memory; each accepts a zeroed or deinited one. */
void scene_aa_deferred_deinit(scene_aa_deferred *d);
void scene_aa_filter_deinit(scene_aa_filter *f);

#endif
