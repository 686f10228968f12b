/* draw2d.h - flat 2D drawing in framebuffer pixels: rectangles (solid or
 * patterned), lines, triangles and glyph quads, batched into one buffer and
 * uploaded once per flush; primitives with the same fill, clip and atlas
 * share a draw call (a small shader per fill, since llvmpipe pays for every
 * branch of a shader on every pixel) wherever that cannot change a pixel:
 * a primitive is drawn ahead of later ones only when it shares no pixel
 * with any of them (draw2d.c says how). So callers append in the order the
 * picture needs (bar, its number, the next bar) and still get about one
 * call per fill and layer; draw_calls says how many since draw2d_begin.
 *
 * For: the timeline panel, the HUD, the legend, labels and the help card.
 * Coordinates are framebuffer pixels with the origin at the top-left corner
 * and y pointing down (what a user reads as "x, y on screen"), floats so
 * that sub-pixel positions stay smooth while scrubbing.
 *
 * What it does not do: no 3D, no depth test (primitives are drawn in the
 * order they were appended, later over earlier, blended by alpha), no text
 * layout (text.h turns strings into glyph quads with draw2d_glyph).
 *
 * Call order, each frame:
 *     draw2d_begin(&d, fb_width, fb_height);
 *     draw2d_rect(&d, ...); draw2d_line(&d, ...); text_draw(&font, &d, ...) ...
 *     draw2d_flush(&d);          uploads what was appended and draws it
 * Appending never allocates once the buffer has grown to a frame's needs
 * (it keeps its capacity across frames).
 *
 * Clipping: draw2d_clip() restricts everything appended after it to a
 * rectangle (the timeline's plot area) until draw2d_clip_off(). It is exact
 * to the pixel for every primitive (a pixel is kept when its centre is
 * inside; done with the scissor test), and primitives wholly outside are
 * dropped before they reach the buffer.
 *
 * Errors: draw2d_init returns false with the shader compiler's log in *err.
 */
#ifndef PPFLOW_DRAW2D_H
#define PPFLOW_DRAW2D_H

#include <stdbool.h>
#include <stdint.h>

#include "colour.h"
#include "error.h"

/* Fills that tell bar kinds apart without colour. The pattern's pixels are
 * the second colour (ink), the others the first (fill): the ink replaces
 * the fill, so a translucent ink shows as exactly that shade over what is
 * underneath. Patterns are anchored to the framebuffer, so neighbouring
 * bars' stripes line up. */
typedef enum draw2d_pattern {
    DRAW2D_SOLID = 0,  /* colour only */
    DRAW2D_HATCH,      /* diagonal stripes */
    DRAW2D_DOTS,       /* a grid of dots */
    DRAW2D_CROSSHATCH, /* both diagonals */
} draw2d_pattern;

/* One GL program per fill (solid, hatch, dots, crosshatch, glyph, line, image):
 * llvmpipe would otherwise pay for every fill on every pixel. */
enum { DRAW2D_PROGRAMS = 7 };

/* The pixels a primitive may have touched, framebuffer pixels (origin
 * top-left), inclusive; x1 < x0 or y1 < y0: none. */
typedef struct draw2d_box {
    int x0, y0, x1, y1;
} draw2d_box;

typedef struct draw2d {
    unsigned programs[DRAW2D_PROGRAMS]; /* GL programs, indexed by draw2d.c's FILL_* */
    int loc_viewport[DRAW2D_PROGRAMS];  /* their u_viewport uniforms */
    int loc_anchor[DRAW2D_PROGRAMS];    /* their u_anchor uniforms (patterns' only) */
    float anchor[2];                    /* where patterns repeat from, GL pixels (y up) */
    unsigned vao, vbo;                  /* GL vertex array and buffer */
    unsigned atlas; /* GL texture bound for glyph quads (text.h's atlas), 0 = none */
    unsigned image; /* GL texture of the draw2d_put being appended */
    struct draw2d_vertex *vertices; /* appended since draw2d_begin, in append order */
    struct draw2d_vertex *sorted;   /* the same in batch order, as flush uploads them */
    int count, capacity;            /* vertices (both arrays have the capacity) */
    int gpu_capacity;               /* vertices the GL buffer holds */
    int width, height;              /* framebuffer size given to draw2d_begin */
    float clip[4];                  /* x0, y0, x1, y1 in pixels; the whole framebuffer when off */
    int scissor[4];                 /* clip rounded to whole pixels: GL scissor box (y up) */
    struct draw2d_batch *batches;   /* primitives drawn with one call each, in drawing order */
    int batch_count, batch_capacity;
    struct draw2d_run *runs; /* vertices appended in a row for one batch, in append order */
    int run_count, run_capacity;
    int draw_calls; /* draw calls since draw2d_begin, all flushes (benches and tests read it) */
    draw2d_box *covered; /* each primitive's box since draw2d_begin, in append order */
    int covered_count, covered_capacity;
    bool put_as_quad; /* draw2d_put always draws a quad, as into a window (tests set it) */
} draw2d;

/* Compiles the shader and creates the buffers; needs a current GL 3.3 context. */
bool draw2d_init(draw2d *d, ppf_error *err);
/* Releases GL objects and memory; accepts a zeroed or deinited draw2d. */
void draw2d_deinit(draw2d *d);

/* Starts a batch for a framebuffer of this size (pixels). */
void draw2d_begin(draw2d *d, int fb_width, int fb_height);
/* Draws everything appended since draw2d_begin into the bound framebuffer
 * (over what is there, alpha-blended) and empties the batch; the clip and
 * atlas stay. Sets the viewport to the whole framebuffer; leaves blending
 * enabled and depth testing, face culling and the scissor test disabled. */
void draw2d_flush(draw2d *d);

/* What was appended since draw2d_begin may have touched: a box per
 * primitive (glyph, rectangle, line; a put drawn as a quad), within its
 * clip; their count, and the boxes in *boxes. For whoever must keep out of
 * the overlay's pixels (scene_aa.h smooths the 3D view under it). A put
 * done by a copy is not listed. */
int draw2d_covered(const draw2d *d, const draw2d_box **boxes);

/* Restricts what is appended next to the rectangle (pixels), until clip_off. */
void draw2d_clip(draw2d *d, float x, float y, float w, float h);
void draw2d_clip_off(draw2d *d);

/* Patterns repeat from the bottom-left corner of this rectangle (a frame's
 * viewport) instead of the framebuffer's, so a frame drawn into a viewport
 * has its patterns where it has them drawn alone. draw2d_begin resets it. */
void draw2d_anchor_patterns(draw2d *d, float x, float y, float w, float h);
/* A filled axis-aligned rectangle. */
void draw2d_rect(draw2d *d, float x, float y, float w, float h, rgba8 color);
/* A rectangle filled with `fill` and a pattern drawn in `ink`; period is the
 * pattern's repeat in pixels along x and y (0 = 6 px; whole numbers give
 * every stripe the same pixels). */
void draw2d_rect_pattern(draw2d *d, float x, float y, float w, float h, rgba8 fill, rgba8 ink,
                         draw2d_pattern pattern, float period);
/* The outline of a rectangle, drawn inside it, `thickness` pixels wide. */
void draw2d_rect_outline(draw2d *d, float x, float y, float w, float h, float thickness,
                         rgba8 color);
/* A straight line `thickness` pixels wide. */
void draw2d_line(draw2d *d, float x0, float y0, float x1, float y1, float thickness, rgba8 color);
/* A filled triangle (arrow heads, markers). */
void draw2d_triangle(draw2d *d, float x0, float y0, float x1, float y1, float x2, float y2,
                     rgba8 color);

/* Sets the texture glyph quads sample (a single-channel coverage atlas).
 * Glyphs appended before the change keep the old one. */
void draw2d_set_atlas(draw2d *d, unsigned texture);
/* A glyph quad: pixels (x0, y0)-(x1, y1), atlas texels (u0, v0)-(u1, v1) in
 * 0..1; the atlas's coverage times color.a is the alpha. */
void draw2d_glyph(draw2d *d, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                  float v1, rgba8 color);

/* Pixels of the framebuffer kept in a texture (draw2d_keep), to be drawn
 * again where they were (draw2d_put): a part of a frame that does not change
 * from one frame to the next costs one quad instead of its primitives. */
typedef struct draw2d_pixels {
    unsigned texture; /* GL texture, 0 until the first keep */
    int x, y, w, h;   /* the rectangle kept, framebuffer pixels (origin top-left) */
    int tex_w, tex_h; /* the texture's size: w x h after a keep, at least that after an upload */
} draw2d_pixels;

/* Draws what was appended so far (draw2d_flush), then copies the bound
 * framebuffer's pixels in the rectangle (whole pixels, inside the
 * framebuffer) into px's texture. */
void draw2d_keep(draw2d *d, draw2d_pixels *px, int x, int y, int w, int h);
/* Whether the bound framebuffer is known to be the size given to
 * draw2d_begin: an FBO's is. A window's may not be yet: its size is what
 * the window system last reported, and a driver may give the frame drawn
 * right after a resize (a window made fullscreen at start-up) a buffer of
 * the old size until the next swap, so pixels kept from that frame would
 * hold only part of what was drawn. Keep a window's pixels only once the
 * same thing has been drawn at the same size in a frame before. */
bool draw2d_target_exact(const draw2d *d);
/* Gives px's pixels back, one for one, at the rectangle they were kept
 * from; they replace what is there (they were opaque). Into an FBO's
 * renderbuffer or texture it draws what was appended (draw2d_flush) and
 * copies them there (glCopyImageSubData); into a window, whose pixels no
 * copy can reach, it appends a quad that fetches them. */
void draw2d_put(draw2d *d, const draw2d_pixels *px);
/* The same for the part (x, y, w, h) of px's rectangle only: into a window,
 * a quad of that part's size (a few small parts cost less of the
 * rasteriser than one quad over all of them). */
void draw2d_put_part(draw2d *d, const draw2d_pixels *px, int x, int y, int w, int h);
/* Pixels from memory instead of the framebuffer, to be put at (x, y)
 * (origin top-left) like kept ones: w x h of them, rows bottom first (as
 * glReadPixels gives them) and row_pixels apart, BGRA when bgra, else
 * RGBA. The texture only grows, so that uploads of changing sizes (the
 * 3D view's smoothed part, scene_aa.h) allocate nothing once warm. */
void draw2d_pixels_upload(draw2d_pixels *px, int x, int y, int w, int h, const uint8_t *pixels,
                          int row_pixels, bool bgra);
/* Grows px's texture to at least w x h now, so that uploads up to that size
 * allocate nothing (a texture's storage is fresh memory: page faults). */
void draw2d_pixels_reserve(draw2d_pixels *px, int w, int h);
/* Deletes the texture (a current GL context); accepts a zeroed one. */
void draw2d_pixels_deinit(draw2d_pixels *px);

#endif
