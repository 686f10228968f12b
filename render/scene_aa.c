/* scene_aa.c - anti-aliasing of the 3D view. See scene_aa.h. */
#include "scene_aa.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "error.h"

/* Pixels of margin around the scene's projected bounds: the filter needs a
 * pixel of background beyond every edge to see it as one. */
enum { BOUNDS_MARGIN = 2 };

static const char *const names[SCENE_AA_MODES] = {
    [SCENE_AA_EDGE] = "edge",
    [SCENE_AA_SUPERSAMPLE] = "supersample",
    [SCENE_AA_OFF] = "off",
    [SCENE_AA_MULTISAMPLE] = "msaa",
};

const char *scene_aa_name(scene_aa_mode m)
{
    return (unsigned)m < SCENE_AA_MODES ? names[m] : NULL;
}

scene_aa_mode scene_aa_for_renderer(const char *renderer)
{
    /* Mesa's CPU rasterisers, Google's, and the names Mesa gives a
     * software fallback */
    static const char *const software[] = {"llvmpipe", "softpipe", "SwiftShader",
                                           "Software Rasterizer", "lavapipe"};
    if (renderer == NULL)
        return SCENE_AA_EDGE;
    for (size_t i = 0; i < sizeof software / sizeof software[0]; i++)
        if (strstr(renderer, software[i]) != NULL)
            return SCENE_AA_EDGE;
    return SCENE_AA_MULTISAMPLE;
}

scene_aa_mode scene_aa_for_current_gl(void)
{
    return scene_aa_for_renderer((const char *)glGetString(GL_RENDERER));
}

/* Grows a buffer (its old contents dropped), zeroed: every page is taken
 * from the kernel now, not a few at a time in later frames. */
static void reserve(uint8_t **p, size_t *capacity, size_t bytes)
{
    if (bytes <= *capacity)
        return;
    free(*p);
    *p = ppf_malloc(bytes);
    memset(*p, 0, bytes);
    *capacity = bytes;
}

/* The part of the view the scene can cover: its bounds' corners projected,
 * with a margin, within the view; the whole view when a corner lies behind
 * the eye or no bounds are given. Sets a->x, y, w, h (GL pixels). */
static void narrow_to_bounds(scene_aa *a, const scene_aa_desc *d)
{
    a->x = d->x, a->y = d->y, a->w = d->w, a->h = d->h;
    if (!d->cam || !d->bounds_min || !d->bounds_max)
        return;
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int k = 0; k < 8; k++) {
        const float p[3] = {(k & 1) ? d->bounds_max[0] : d->bounds_min[0],
                            (k & 2) ? d->bounds_max[1] : d->bounds_min[1],
                            (k & 4) ? d->bounds_max[2] : d->bounds_min[2]};
        float px, py;
        if (!camera_project(d->cam, (float)d->w / (float)d->h, p, d->w, d->h, &px, &py) ||
            !isfinite(px) || !isfinite(py))
            return;
        x0 = fminf(x0, px), y0 = fminf(y0, py), x1 = fmaxf(x1, px), y1 = fmaxf(y1, py);
    }
    /* view pixels, y down */
    const int left = (int)fmaxf(0, floorf(x0) - BOUNDS_MARGIN);
    const int right = (int)fminf((float)d->w, ceilf(x1) + BOUNDS_MARGIN);
    const int top = (int)fmaxf(0, floorf(y0) - BOUNDS_MARGIN);
    const int bottom = (int)fminf((float)d->h, ceilf(y1) + BOUNDS_MARGIN);
    if (right <= left || bottom <= top) {
        a->w = a->h = 0; /* the scene is out of sight: nothing to smooth */
        return;
    }
    a->x = d->x + left;
    a->y = d->y + (d->h - bottom);
    a->w = right - left;
    a->h = bottom - top;
}

/* The largest k (2..SCENE_AA_SUPERSAMPLE_MAX) whose k x k view fits the
 * pixel budget and the GL's limits; 1 when none does. */
static int supersample_factor(int w, int h)
{
    GLint rb = 0, tex = 0, vp[2] = {0, 0};
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &rb);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
    const int limit = rb < tex ? rb : tex;
    for (int k = SCENE_AA_SUPERSAMPLE_MAX; k >= 2; k--)
        if ((double)k * w * k * h <= SCENE_AA_SUPERSAMPLE_PIXELS && k * w <= limit &&
            k * h <= limit && k * w <= vp[0] && k * h <= vp[1])
            return k;
    return 1;
}

/* The supersampling framebuffer at least w x h (a render_target), bound;
 * false, with the caller's framebuffers bound again, when the GL cannot
 * make it (too large, or out of memory). */
static bool bind_fbo(scene_aa *a, int w, int h)
{
    if (a->ss.fbo && a->ss.width >= w && a->ss.height >= h) {
        glBindFramebuffer(GL_FRAMEBUFFER, a->ss.fbo);
        return true;
    }
    render_target_deinit(&a->ss);
    /* errors raised before are drained, so that the check below sees this
     * storage's alone (GL_OUT_OF_MEMORY at a large still) */
    while (glGetError() != GL_NO_ERROR) {
    }
    ppf_error err = {{0}};
    if (!render_target_init(&a->ss, w, h, &err) || glGetError() != GL_NO_ERROR) {
        render_target_deinit(&a->ss);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)a->target_fbo);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->read_fbo);
        return false;
    }
    return true;
}

/* The multisampled framebuffer (and the single-sampled one it resolves
 * into) at least w x h, bound; false, with the caller's framebuffers bound
 * again, when the GL has no multisampling or cannot make them. */
static bool bind_multisample(scene_aa *a, int w, int h)
{
    if (!(a->ms.fbo && a->ms.width >= w && a->ms.height >= h)) {
        render_target_deinit(&a->ms);
        render_target_deinit(&a->resolved);
        GLint max = 0;
        glGetIntegerv(GL_MAX_SAMPLES, &max);
        const int samples = max < SCENE_AA_MULTISAMPLE_SAMPLES ? max : SCENE_AA_MULTISAMPLE_SAMPLES;
        while (glGetError() != GL_NO_ERROR) {
        }
        ppf_error err = {{0}};
        if (samples < 2 || !render_target_init_multisample(&a->ms, w, h, samples, &err) ||
            !render_target_init(&a->resolved, w, h, &err) || glGetError() != GL_NO_ERROR) {
            render_target_deinit(&a->ms);
            render_target_deinit(&a->resolved);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)a->target_fbo);
            glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->read_fbo);
            return false;
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, a->ms.fbo);
    return true;
}

/* Clears the whole framebuffer bound (a clear of part of one is a quad on
 * llvmpipe) to the view's background, depth too. */
static void clear_bound(rgba8 background)
{
    glDisable(GL_SCISSOR_TEST);
    glClearColor(background.r / 255.0f, background.g / 255.0f, background.b / 255.0f, 1);
    glClearDepth(1);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

scene_aa_view scene_aa_begin(scene_aa *a, const scene_aa_desc *d)
{
    assert(a && d && d->w >= 0 && d->h >= 0);
    a->mode = d->mode;
    a->x = d->x, a->y = d->y, a->w = d->w, a->h = d->h;
    a->fb_width = d->fb_width, a->fb_height = d->fb_height;
    a->k = 1;
    GLint draw = 0, read = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    a->target_fbo = draw, a->read_fbo = read;
    const scene_aa_view as_is = {d->x, d->y, d->w, d->h, 1};
    if (d->w <= 0 || d->h <= 0 || a->mode == SCENE_AA_OFF) {
        a->mode = SCENE_AA_OFF;
        return as_is;
    }
    if (a->mode == SCENE_AA_SUPERSAMPLE) {
        const int k = supersample_factor(d->w, d->h);
        if (k >= 2 && bind_fbo(a, k * d->w, k * d->h)) {
            a->k = k;
            clear_bound(d->background);
            return (scene_aa_view){0, 0, k * d->w, k * d->h, (float)k};
        }
        a->mode = SCENE_AA_EDGE; /* no room for it: the next best */
    }
    if (a->mode == SCENE_AA_MULTISAMPLE) {
        if (bind_multisample(a, d->w, d->h)) {
            clear_bound(d->background);
            return (scene_aa_view){0, 0, d->w, d->h, 1};
        }
        a->mode = SCENE_AA_EDGE; /* no multisampling here: the next best */
    }
    narrow_to_bounds(a, d);
    return as_is;
}

/* Reads the w x h rectangle at (x, y) of the framebuffer bound for drawing
 * at begin into a->pixels; returns whether they are BGRA (else RGBA). */
static bool read_target(scene_aa *a, int x, int y, int w, int h)
{
    reserve(&a->pixels, &a->capacity, (size_t)w * (size_t)h * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->target_fbo);
    if (a->target_fbo == 0)
        glReadBuffer(GL_BACK);
    /* a window's pixels are BGRA on Mesa and most drivers: read as kept,
     * no swizzle (2 ms of a 1080p view on llvmpipe); an FBO's are RGBA8 */
    const bool bgra = a->target_fbo == 0;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x, y, w, h, bgra ? GL_BGRA : GL_RGBA, GL_UNSIGNED_BYTE, a->pixels);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->read_fbo);
    return bgra;
}

/* Writes w x h pixels (rows bottom first, `row` pixels apart) at GL
 * position (x, y) of the target: a copy into an FBO, a quad into a window. */
static void write_target(scene_aa *a, draw2d *batch, const uint8_t *px, int row, int x, int y,
                         int w, int h, bool bgra)
{
    draw2d_pixels_upload(&a->put, x, a->fb_height - (y + h), w, h, px, row, bgra);
    draw2d_begin(batch, a->fb_width, a->fb_height);
    draw2d_put(batch, &a->put);
    draw2d_flush(batch);
}

/* The box filter of supersampling: each pixel of `rows` rows of the
 * w-wide view the rounded mean of its k x k pixels drawn (`big`, k * rows
 * rows of k * w pixels). */
static void box_filter(const uint8_t *big, int k, int w, int rows, uint8_t *out)
{
    const size_t big_row = (size_t)w * (size_t)k * 4;
    const unsigned n = (unsigned)(k * k);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < w; x++) {
            unsigned sum[4] = {0, 0, 0, 0};
            for (int j = 0; j < k; j++) {
                const uint8_t *p = big + big_row * (size_t)(y * k + j) + (size_t)x * (size_t)k * 4;
                for (int i = 0; i < k; i++, p += 4)
                    for (int c = 0; c < 4; c++)
                        sum[c] += p[c];
            }
            uint8_t *q = out + ((size_t)y * (size_t)w + (size_t)x) * 4;
            for (int c = 0; c < 4; c++)
                q[c] = (uint8_t)((sum[c] + n / 2) / n);
        }
}

/* Rows of the view read back and filtered at a time: the drawn pixels of a
 * 1080p view at 4 x 4 are 93 MB, which a band of them spares. */
enum { BAND_ROWS = 32 };

static void end_supersample(scene_aa *a, draw2d *batch)
{
    const int k = a->k, w = a->w, h = a->h;
    reserve(&a->pixels, &a->capacity, (size_t)w * (size_t)(k * k) * BAND_ROWS * 4);
    reserve(&a->small, &a->small_capacity, (size_t)w * (size_t)h * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, a->ss.fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    for (int y = 0; y < h; y += BAND_ROWS) {
        const int rows = h - y < BAND_ROWS ? h - y : BAND_ROWS;
        glReadPixels(0, k * y, k * w, k * rows, GL_RGBA, GL_UNSIGNED_BYTE, a->pixels);
        box_filter(a->pixels, k, w, rows, a->small + (size_t)y * (size_t)w * 4);
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)a->target_fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->read_fbo);
    write_target(a, batch, a->small, w, a->x, a->y, w, h, false);
}

/* Into a window, only the tiles (TILE x TILE) holding changed pixels go
 * back, each row's neighbouring tiles as one quad. The quad goes through
 * the rasteriser, which on llvmpipe costs about a microsecond a triangle
 * and some nanoseconds a pixel: a quad a row of changed pixels (a thousand
 * a 1080p frame) cost 4 ms, one over the whole rectangle around them 1.3
 * ms, tiles under 1 (16 or 32 pixels square alike, within what paired runs
 * can tell; 16 covers fewer pixels). */
enum { TILE = 16 };

static void put_tiles(scene_aa *a, draw2d *batch, int x0, int y0, int x1, int y1)
{
    const int w = a->w;
    const int tw = (x1 - x0) / TILE + 1, th = (y1 - y0) / TILE + 1;
    uint8_t *tiles = a->mask; /* tw x th, zero between calls */
    for (int i = 0; i < a->edge.touched_count; i++) {
        const int x = (int)(a->edge.touched[i] % (uint32_t)w) - x0;
        const int y = (int)(a->edge.touched[i] / (uint32_t)w) - y0;
        tiles[(size_t)(y / TILE) * (size_t)tw + (size_t)(x / TILE)] = 1;
    }
    for (int ty = 0; ty < th; ty++) {
        uint8_t *row = tiles + (size_t)ty * (size_t)tw;
        /* GL rows y0 + ty * TILE .. (the band's last, within the rectangle) */
        const int gy0 = y0 + ty * TILE, gy1 = gy0 + TILE - 1 < y1 ? gy0 + TILE - 1 : y1;
        for (int tx = 0; tx < tw; tx++) {
            if (!row[tx])
                continue;
            int end = tx;
            while (end + 1 < tw && row[end + 1])
                end++;
            const int px0 = x0 + tx * TILE;
            const int px1 = x0 + (end + 1) * TILE - 1 < x1 ? x0 + (end + 1) * TILE - 1 : x1;
            /* framebuffer rows, y down: GL row r is fb_height - 1 - r */
            draw2d_put_part(batch, &a->put, a->x + px0, a->fb_height - 1 - (a->y + gy1),
                            px1 - px0 + 1, gy1 - gy0 + 1);
            memset(row + tx, 0, (size_t)(end - tx + 1));
            tx = end;
        }
    }
}

/* The pixels of the w x h rectangle at GL (x, y) that the boxes (the 2D
 * overlay's, framebuffer rows counted down from fb_height) may have
 * touched, as 1s in *keep (rectangle rows bottom first, as read back). */
static void mark_overlay(uint8_t **keep, size_t *capacity, int x, int y, int w, int h,
                         int fb_height, const draw2d_box *boxes, int n)
{
    reserve(keep, capacity, (size_t)w * (size_t)h);
    memset(*keep, 0, (size_t)w * (size_t)h);
    for (int i = 0; i < n; i++) {
        /* framebuffer rows (y down) to region rows (GL's, up from y) */
        const int c0 = boxes[i].x0 - x, c1 = boxes[i].x1 - x;
        const int r0 = fb_height - 1 - boxes[i].y1 - y;
        const int r1 = fb_height - 1 - boxes[i].y0 - y;
        const int x0 = c0 > 0 ? c0 : 0, x1 = c1 < w - 1 ? c1 : w - 1;
        const int y0 = r0 > 0 ? r0 : 0, y1 = r1 < h - 1 ? r1 : h - 1;
        for (int row = y0; row <= y1 && x0 <= x1; row++)
            memset(*keep + (size_t)row * (size_t)w + (size_t)x0, 1, (size_t)(x1 - x0 + 1));
    }
}

/* Notes the pass over a's rectangle, with the overlay's boxes that reach
 * it, in a->deferred; false when the list is full. */
static bool note_pass(scene_aa *a, const draw2d *batch)
{
    scene_aa_deferred *d = &a->deferred;
    if (d->count == SCENE_AA_DEFERRED_VIEWS)
        return false;
    assert((d->count == 0 || d->fb_height == a->fb_height) && "one target's passes");
    const draw2d_box *boxes;
    const int n = draw2d_covered(batch, &boxes);
    scene_aa_pass *p = &d->pass[d->count++];
    *p = (scene_aa_pass){a->x, a->y, a->w, a->h, d->box_count, 0};
    d->fb_height = a->fb_height;
    /* the rectangle in framebuffer rows (y down), inclusive */
    const int top = a->fb_height - (a->y + a->h), bottom = a->fb_height - 1 - a->y;
    for (int i = 0; i < n; i++) {
        const draw2d_box b = boxes[i];
        if (b.x1 < a->x || b.x0 >= a->x + a->w || b.y1 < top || b.y0 > bottom)
            continue; /* off the rectangle: it marks nothing */
        if (d->box_count == d->box_capacity) {
            d->box_capacity = d->box_capacity ? 2 * d->box_capacity : 256;
            d->boxes = ppf_realloc(d->boxes, (size_t)d->box_capacity * sizeof *d->boxes);
        }
        d->boxes[d->box_count++] = b;
        p->box_count++;
    }
    return true;
}

static void finish_edge(scene_aa *a, draw2d *batch)
{
    const int w = a->w, h = a->h;
    if (w < 2 || h < 2)
        return;
    if (a->defer && note_pass(a, batch))
        return;
    const draw2d_box *boxes;
    const int n = draw2d_covered(batch, &boxes);
    mark_overlay(&a->keep, &a->keep_capacity, a->x, a->y, w, h, a->fb_height, boxes, n);
    const bool bgra = read_target(a, a->x, a->y, w, h);
    edge_aa_apply(&a->edge, a->pixels, w, h, (size_t)w * 4, a->keep);
    a->last_changed = a->edge.edge_pixels;
    if (a->edge.touched_count == 0)
        return;
    /* the rectangle around what changed */
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int i = 0; i < a->edge.touched_count; i++) {
        const int x = (int)(a->edge.touched[i] % (uint32_t)w);
        const int y = (int)(a->edge.touched[i] / (uint32_t)w);
        x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
    }
    const int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    /* sized for the whole region, not for what changed in this frame: the
     * changed part grows as the scene fills, and storage grown then is
     * memory taken from the kernel again in the middle of playback */
    draw2d_pixels_reserve(&a->put, w, h);
    const uint8_t *first = a->pixels + ((size_t)y0 * (size_t)w + (size_t)x0) * 4;
    draw2d_pixels_upload(&a->put, a->x + x0, a->fb_height - (a->y + y0 + rh), rw, rh, first, w,
                         bgra);
    /* the overlay's batch goes on (flushed, no clip): its counts stay the frame's */
    if (a->target_fbo != 0) {
        draw2d_put(batch, &a->put); /* a copy: the whole rectangle is as cheap */
    } else {
        /* as many tiles as the region has (the most the changes can span) */
        reserve(&a->mask, &a->mask_capacity, (size_t)(w / TILE + 1) * (size_t)(h / TILE + 1));
        put_tiles(a, batch, x0, y0, x1, y1);
    }
    draw2d_flush(batch);
}

/* The samples resolved into a single-sampled framebuffer, then copied into
 * the view: a resolve straight into a window's framebuffer fails where
 * its format is not RGBA8 (the GL asks identical formats), a copy between
 * single-sampled ones converts. Both are the GPU's copy engine's work. */
static void end_multisample(scene_aa *a)
{
    const int w = a->w, h = a->h;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, a->ms.fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, a->resolved.fbo);
    glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, a->resolved.fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)a->target_fbo);
    glBlitFramebuffer(0, 0, w, h, a->x, a->y, a->x + w, a->y + h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)a->read_fbo);
}

void scene_aa_end(scene_aa *a, draw2d *batch)
{
    assert(a && batch);
    a->last_changed = 0;
    if (a->mode == SCENE_AA_SUPERSAMPLE)
        end_supersample(a, batch);
    if (a->mode == SCENE_AA_MULTISAMPLE)
        end_multisample(a);
    a->pending = a->mode == SCENE_AA_EDGE;
}

void scene_aa_finish(scene_aa *a, draw2d *batch)
{
    assert(a && batch);
    if (a->pending)
        finish_edge(a, batch);
    a->pending = false;
}

void scene_aa_deinit(scene_aa *a)
{
    if (!a)
        return;
    render_target_deinit(&a->ss);
    render_target_deinit(&a->ms);
    render_target_deinit(&a->resolved);
    draw2d_pixels_deinit(&a->put);
    edge_aa_deinit(&a->edge);
    scene_aa_deferred_deinit(&a->deferred);
    free(a->pixels);
    free(a->small);
    free(a->mask);
    free(a->keep);
    *a = (scene_aa){0};
}

void scene_aa_defer(scene_aa *a, bool on)
{
    assert(a && !a->pending);
    a->defer = on;
    a->deferred.count = a->deferred.box_count = 0;
}

void scene_aa_take(scene_aa *a, scene_aa_deferred *out)
{
    assert(a && out && !a->pending);
    const scene_aa_deferred noted = a->deferred;
    a->deferred = *out;
    a->deferred.count = a->deferred.box_count = 0;
    *out = noted;
}

long scene_aa_apply(scene_aa_filter *f, const scene_aa_deferred *d, uint8_t *pixels, size_t stride)
{
    assert(f && d && pixels);
    long changed = 0;
    for (int k = 0; k < d->count; k++) {
        const scene_aa_pass *p = &d->pass[k];
        assert(p->w >= 2 && p->h >= 2 && stride >= (size_t)(p->x + p->w) * 4);
        mark_overlay(&f->keep, &f->keep_capacity, p->x, p->y, p->w, p->h, d->fb_height,
                     d->boxes + p->first_box, p->box_count);
        uint8_t *first = pixels + stride * (size_t)p->y + (size_t)p->x * 4;
        edge_aa_apply(&f->edge, first, p->w, p->h, stride, f->keep);
        changed += f->edge.edge_pixels;
    }
    f->last_changed = changed;
    return changed;
}

void scene_aa_deferred_deinit(scene_aa_deferred *d)
{
    if (!d)
        return;
    free(d->boxes);
    *d = (scene_aa_deferred){0};
}

void scene_aa_filter_deinit(scene_aa_filter *f)
{
    if (!f)
        return;
    edge_aa_deinit(&f->edge);
    free(f->keep);
    *f = (scene_aa_filter){0};
}
