/* draw2d.c - batched 2D primitives in one vertex buffer; shaders
 * shaders/draw2d.vert and .frag, the latter built once per fill. See draw2d.h.
 *
 * Every primitive becomes triangles of struct draw2d_vertex appended to one
 * CPU array. A batch is the set of primitives drawn with one call: one fill
 * (program), one clip rectangle (the scissor test, exact to the pixel) and,
 * for glyphs, one atlas texture. A primitive joins the latest batch of its
 * state unless a batch drawn after that one touches a pixel it may touch;
 * then it starts a new batch at the end. So interleaved fills (a solid bar,
 * a hatched bar, a number, the next bar) still draw as one call per fill,
 * and the picture is exactly the one append order gives: a primitive moves
 * ahead only of primitives it shares no pixel with, and two primitives that
 * share none blend into the same bytes in either order. "May touch" is the
 * primitive's bounding box rounded out to the pixel centres it could cover
 * (with a margin for the rasteriser's snapping), clipped to its scissor box;
 * a batch keeps the union of its primitives' boxes. Flush scatters the runs
 * of vertices into batch order and uploads them once.
 *
 * Measured on llvmpipe: each draw call costs state validation on the main
 * thread (tens of microseconds), so a timeline of tens of thousands of
 * interleaved bars spent most of its frame there; the look-back over a few
 * dozen batches costs a few comparisons per primitive.
 */
#include "draw2d.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gl_shader.h"
#include "shaders_embedded.h"

/* Fills, one GL program each; the same numbers as FILL_* in
 * shaders/draw2d.frag, and the patterns keep their draw2d_pattern values. */
enum {
    FILL_SOLID = DRAW2D_SOLID,
    FILL_HATCH = DRAW2D_HATCH,
    FILL_DOTS = DRAW2D_DOTS,
    FILL_CROSSHATCH = DRAW2D_CROSSHATCH,
    FILL_GLYPH,
    FILL_LINE,
    FILL_IMAGE,
    FILL_COUNT
};
_Static_assert((int)FILL_COUNT == (int)DRAW2D_PROGRAMS, "one program per fill");

static const char *const FILL_NAMES[FILL_COUNT] = {
    "draw2d solid", "draw2d hatch", "draw2d dots",  "draw2d crosshatch",
    "draw2d glyph", "draw2d line",  "draw2d image",
};

enum {
    INITIAL_VERTICES = 4096, /* 682 rectangles: a HUD and a small timeline without growing */
    INITIAL_BATCHES = 64,
    INITIAL_RUNS = 256,
    LOOK_BACK = 32, /* batches searched for one of the primitive's state */
};

/* How far the rasteriser may move an edge when it snaps vertices to its
 * sub-pixel grid (8 bits on llvmpipe; 1/64 leaves room for any driver). */
static const float SNAP = 1.0f / 64;

static const float DEFAULT_PERIOD = 6.0f;
/* Lines are quads widened by this many pixels on each side for the
 * antialiasing ramp in the fragment shader. */
static const float LINE_FRINGE = 1.0f;

/* 28 bytes, the layout of the attributes in draw2d_init. */
struct draw2d_vertex {
    float x, y;  /* pixels, origin top-left */
    float u, v;  /* glyph: atlas 0..1; line: u = signed distance across the line, pixels */
    float param; /* pattern: period, pixels; line: half thickness, pixels */
    rgba8 color; /* fill, straight alpha */
    rgba8 ink;   /* pattern colour */
};

/* Pixels a primitive or batch may cover: inclusive ranges of pixel
 * columns and rows; empty when x1 < x0 or y1 < y0. */
typedef struct pixel_box {
    int x0, y0, x1, y1;
} pixel_box;

struct draw2d_batch {
    int fill;       /* FILL_*: the program */
    int scissor[4]; /* x, y, w, h in GL window coordinates (y up) */
    unsigned atlas; /* texture for FILL_GLYPH, 0 for the others */
    pixel_box box;  /* union of its primitives' boxes */
    int count;      /* vertices */
    int first;      /* where its vertices start in the upload (flush) */
};

/* Vertices appended one after another that go to one batch. */
struct draw2d_run {
    int first, count; /* in the append-order array */
    int batch;
};

bool draw2d_init(draw2d *d, ppf_error *err)
{
    assert(d);
    *d = (draw2d){0};
    for (int fill = 0; fill < FILL_COUNT; fill++) {
        if (!gl_program_build_variant(&d->programs[fill], FILL_NAMES[fill], ppf_shader_draw2d_vert,
                                      ppf_shader_draw2d_frag, "DRAW2D_FILL", fill, err))
            goto fail;
        d->loc_viewport[fill] = glGetUniformLocation(d->programs[fill], "u_viewport");
        d->loc_anchor[fill] = glGetUniformLocation(d->programs[fill], "u_anchor");
    }
    /* The atlas and image samplers read unit 0, once and for all. */
    for (int fill = FILL_GLYPH; fill <= FILL_IMAGE; fill += FILL_IMAGE - FILL_GLYPH) {
        glUseProgram(d->programs[fill]);
        glUniform1i(glGetUniformLocation(d->programs[fill], "u_atlas"), 0);
    }
    glUseProgram(0);

    glGenVertexArrays(1, &d->vao);
    glGenBuffers(1, &d->vbo);
    glBindVertexArray(d->vao);
    glBindBuffer(GL_ARRAY_BUFFER, d->vbo);
    const GLsizei stride = sizeof(struct draw2d_vertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                          (void *)offsetof(struct draw2d_vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                          (void *)offsetof(struct draw2d_vertex, u));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride,
                          (void *)offsetof(struct draw2d_vertex, param));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          (void *)offsetof(struct draw2d_vertex, color));
    glEnableVertexAttribArray(4);
    glVertexAttribPointer(4, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          (void *)offsetof(struct draw2d_vertex, ink));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    GLenum gl_err = glGetError();
    if (gl_err != GL_NO_ERROR) {
        ppf_fail(err, "draw2d: creating the vertex buffer failed (GL error 0x%04x)", gl_err);
        goto fail;
    }

    d->capacity = INITIAL_VERTICES;
    d->vertices = ppf_malloc((size_t)d->capacity * sizeof *d->vertices);
    d->sorted = ppf_malloc((size_t)d->capacity * sizeof *d->sorted);
    d->batch_capacity = INITIAL_BATCHES;
    d->batches = ppf_malloc((size_t)d->batch_capacity * sizeof *d->batches);
    d->run_capacity = INITIAL_RUNS;
    d->runs = ppf_malloc((size_t)d->run_capacity * sizeof *d->runs);
    d->covered_capacity = INITIAL_RUNS;
    d->covered = ppf_malloc((size_t)d->covered_capacity * sizeof *d->covered);
    return true;

fail:
    draw2d_deinit(d);
    return false;
}

void draw2d_deinit(draw2d *d)
{
    if (!d)
        return;
    if (d->vbo)
        glDeleteBuffers(1, &d->vbo);
    if (d->vao)
        glDeleteVertexArrays(1, &d->vao);
    for (int fill = 0; fill < FILL_COUNT; fill++)
        gl_program_delete(&d->programs[fill]);
    free(d->covered);
    free(d->runs);
    free(d->batches);
    free(d->sorted);
    free(d->vertices);
    *d = (draw2d){0};
}

void draw2d_begin(draw2d *d, int fb_width, int fb_height)
{
    assert(d && d->programs[FILL_SOLID] && fb_width > 0 && fb_height > 0);
    d->width = fb_width;
    d->height = fb_height;
    d->count = 0;
    d->batch_count = 0;
    d->run_count = 0;
    d->draw_calls = 0;
    d->covered_count = 0;
    d->anchor[0] = d->anchor[1] = 0;
    draw2d_clip_off(d);
}

int draw2d_covered(const draw2d *d, const draw2d_box **boxes)
{
    *boxes = d->covered;
    return d->covered_count;
}

void draw2d_anchor_patterns(draw2d *d, float x, float y, float w, float h)
{
    assert(d);
    (void)w;
    d->anchor[0] = x;
    d->anchor[1] = (float)d->height - (y + h);
}

/* Rounds the clip rectangle to the pixels whose centres it contains, as a
 * GL scissor box (y up), clamped to the framebuffer. */
static void update_scissor(draw2d *d)
{
    int x0 = (int)lroundf(fmaxf(d->clip[0], 0.0f));
    int y0 = (int)lroundf(fmaxf(d->clip[1], 0.0f));
    int x1 = (int)lroundf(fminf(d->clip[2], (float)d->width));
    int y1 = (int)lroundf(fminf(d->clip[3], (float)d->height));
    if (x1 < x0)
        x1 = x0;
    if (y1 < y0)
        y1 = y0;
    d->scissor[0] = x0;
    d->scissor[1] = d->height - y1;
    d->scissor[2] = x1 - x0;
    d->scissor[3] = y1 - y0;
}

/* The pixels whose centres the box (x0, y0)-(x1, y1) may cover once the
 * rasteriser has snapped it, within the scissor box. */
static pixel_box box_of(const draw2d *d, float x0, float y0, float x1, float y1)
{
    pixel_box b = {
        .x0 = (int)ceilf(x0 - 0.5f - SNAP),
        .y0 = (int)ceilf(y0 - 0.5f - SNAP),
        .x1 = (int)floorf(x1 - 0.5f + SNAP),
        .y1 = (int)floorf(y1 - 0.5f + SNAP),
    };
    /* the scissor box in top-left pixels: columns sx..sx+w-1, rows likewise */
    const int sx = d->scissor[0], sy = d->height - (d->scissor[1] + d->scissor[3]);
    b.x0 = b.x0 > sx ? b.x0 : sx;
    b.y0 = b.y0 > sy ? b.y0 : sy;
    b.x1 = b.x1 < sx + d->scissor[2] - 1 ? b.x1 : sx + d->scissor[2] - 1;
    b.y1 = b.y1 < sy + d->scissor[3] - 1 ? b.y1 : sy + d->scissor[3] - 1;
    return b;
}

static bool box_empty(pixel_box b)
{
    return b.x1 < b.x0 || b.y1 < b.y0;
}

static bool boxes_meet(pixel_box a, pixel_box b)
{
    return !box_empty(a) && !box_empty(b) && a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 &&
           b.y0 <= a.y1;
}

static pixel_box box_union(pixel_box a, pixel_box b)
{
    if (box_empty(a))
        return b;
    if (box_empty(b))
        return a;
    return (pixel_box){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                       a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1};
}

/* The batch a primitive of this fill covering `box` joins: the latest one
 * of its state (fill, scissor, atlas) among the last LOOK_BACK, provided no
 * batch after it meets the box; else a new one at the end. */
static int batch_for(draw2d *d, int fill, pixel_box box)
{
    const unsigned atlas = fill == FILL_GLYPH ? d->atlas : fill == FILL_IMAGE ? d->image : 0;
    const int stop = d->batch_count > LOOK_BACK ? d->batch_count - LOOK_BACK : 0;
    for (int i = d->batch_count - 1; i >= stop; i--) {
        const struct draw2d_batch *b = &d->batches[i];
        if (b->fill == fill && b->atlas == atlas &&
            memcmp(b->scissor, d->scissor, sizeof d->scissor) == 0)
            return i;
        if (boxes_meet(b->box, box))
            break;
    }
    if (d->batch_count == d->batch_capacity) {
        d->batch_capacity *= 2;
        d->batches = ppf_realloc(d->batches, (size_t)d->batch_capacity * sizeof *d->batches);
    }
    struct draw2d_batch *b = &d->batches[d->batch_count];
    *b = (struct draw2d_batch){.fill = fill, .atlas = atlas, .box = {0, 0, -1, -1}};
    memcpy(b->scissor, d->scissor, sizeof d->scissor);
    return d->batch_count++;
}

/* Notes pixels the overlay drew (draw2d_covered). */
static void note_covered(draw2d *d, pixel_box box)
{
    if (d->covered_count == d->covered_capacity) {
        d->covered_capacity *= 2;
        d->covered = ppf_realloc(d->covered, (size_t)d->covered_capacity * sizeof *d->covered);
    }
    d->covered[d->covered_count++] = (draw2d_box){box.x0, box.y0, box.x1, box.y1};
}

/* Makes room for n more vertices of this fill covering at most the pixels
 * of the box (x0, y0)-(x1, y1), under the current clip (and atlas, for
 * glyphs), and files them under their batch. The arrays double when full
 * and keep their size, so a steady frame allocates nothing. */
static struct draw2d_vertex *reserve(draw2d *d, int n, int fill, float x0, float y0, float x1,
                                     float y1)
{
    assert(d->width > 0 && "draw2d_begin first");
    const pixel_box box = box_of(d, x0, y0, x1, y1);
    note_covered(d, box);
    const int batch = batch_for(d, fill, box);
    struct draw2d_batch *b = &d->batches[batch];
    b->box = box_union(b->box, box);
    b->count += n;
    struct draw2d_run *last = d->run_count > 0 ? &d->runs[d->run_count - 1] : NULL;
    if (last && last->batch == batch) {
        last->count += n;
    } else {
        if (d->run_count == d->run_capacity) {
            d->run_capacity *= 2;
            d->runs = ppf_realloc(d->runs, (size_t)d->run_capacity * sizeof *d->runs);
        }
        d->runs[d->run_count++] =
            (struct draw2d_run){.first = d->count, .count = n, .batch = batch};
    }
    if (d->count + n > d->capacity) {
        while (d->count + n > d->capacity)
            d->capacity *= 2;
        d->vertices = ppf_realloc(d->vertices, (size_t)d->capacity * sizeof *d->vertices);
        d->sorted = ppf_realloc(d->sorted, (size_t)d->capacity * sizeof *d->sorted);
    }
    struct draw2d_vertex *v = &d->vertices[d->count];
    d->count += n;
    return v;
}

/* True when the bounding box misses the clip rectangle: such a primitive
 * could not light a pixel, so it is not appended. */
static bool outside_clip(const draw2d *d, float x0, float y0, float x1, float y1)
{
    return x1 <= d->clip[0] || x0 >= d->clip[2] || y1 <= d->clip[1] || y0 >= d->clip[3];
}

static struct draw2d_vertex vertex(float x, float y, float u, float v, float param, rgba8 color,
                                   rgba8 ink)
{
    return (struct draw2d_vertex){
        .x = x,
        .y = y,
        .u = u,
        .v = v,
        .param = param,
        .color = color,
        .ink = ink,
    };
}

/* Two triangles for the axis-aligned box (x0, y0)-(x1, y1), uv likewise. */
static void append_quad(draw2d *d, int fill, float x0, float y0, float x1, float y1, float u0,
                        float v0, float u1, float v1, float param, rgba8 color, rgba8 ink)
{
    if (x1 <= x0 || y1 <= y0 || outside_clip(d, x0, y0, x1, y1))
        return;
    struct draw2d_vertex *v = reserve(d, 6, fill, x0, y0, x1, y1);
    v[0] = vertex(x0, y0, u0, v0, param, color, ink);
    v[1] = vertex(x1, y0, u1, v0, param, color, ink);
    v[2] = vertex(x1, y1, u1, v1, param, color, ink);
    v[3] = v[0];
    v[4] = v[2];
    v[5] = vertex(x0, y1, u0, v1, param, color, ink);
}

void draw2d_clip(draw2d *d, float x, float y, float w, float h)
{
    assert(d);
    d->clip[0] = x;
    d->clip[1] = y;
    d->clip[2] = x + (w > 0 ? w : 0);
    d->clip[3] = y + (h > 0 ? h : 0);
    update_scissor(d);
}

void draw2d_clip_off(draw2d *d)
{
    assert(d);
    draw2d_clip(d, 0, 0, (float)d->width, (float)d->height);
}

void draw2d_rect(draw2d *d, float x, float y, float w, float h, rgba8 color)
{
    append_quad(d, FILL_SOLID, x, y, x + w, y + h, 0, 0, 0, 0, 0, color, color);
}

void draw2d_rect_pattern(draw2d *d, float x, float y, float w, float h, rgba8 fill, rgba8 ink,
                         draw2d_pattern pattern, float period)
{
    assert(pattern >= DRAW2D_SOLID && pattern <= DRAW2D_CROSSHATCH);
    /* Below 2 pixels a pattern is noise; the shader also needs period > 0. */
    if (!(period > 0))
        period = DEFAULT_PERIOD;
    if (period < 2.0f)
        period = 2.0f;
    append_quad(d, (int)pattern, x, y, x + w, y + h, 0, 0, 0, 0, period, fill, ink);
}

void draw2d_rect_outline(draw2d *d, float x, float y, float w, float h, float thickness,
                         rgba8 color)
{
    if (w <= 0 || h <= 0 || thickness <= 0)
        return;
    /* Thicker than half the box: the outline fills it. */
    float tx = fminf(thickness, 0.5f * w), ty = fminf(thickness, 0.5f * h);
    draw2d_rect(d, x, y, w, ty, color);                        /* top */
    draw2d_rect(d, x, y + h - ty, w, ty, color);               /* bottom */
    draw2d_rect(d, x, y + ty, tx, h - 2 * ty, color);          /* left */
    draw2d_rect(d, x + w - tx, y + ty, tx, h - 2 * ty, color); /* right */
}

void draw2d_line(draw2d *d, float x0, float y0, float x1, float y1, float thickness, rgba8 color)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-6f) || !(thickness > 0))
        return;
    float half = 0.5f * thickness;
    float e = half + LINE_FRINGE;
    float nx = -dy / len * e, ny = dx / len * e; /* the normal, e pixels long */
    const float bx0 = fminf(x0, x1) - e, by0 = fminf(y0, y1) - e;
    const float bx1 = fmaxf(x0, x1) + e, by1 = fmaxf(y0, y1) + e;
    if (outside_clip(d, bx0, by0, bx1, by1))
        return;
    struct draw2d_vertex *v = reserve(d, 6, FILL_LINE, bx0, by0, bx1, by1);
    v[0] = vertex(x0 + nx, y0 + ny, e, 0, half, color, color);
    v[1] = vertex(x1 + nx, y1 + ny, e, 0, half, color, color);
    v[2] = vertex(x1 - nx, y1 - ny, -e, 0, half, color, color);
    v[3] = v[0];
    v[4] = v[2];
    v[5] = vertex(x0 - nx, y0 - ny, -e, 0, half, color, color);
}

void draw2d_triangle(draw2d *d, float x0, float y0, float x1, float y1, float x2, float y2,
                     rgba8 color)
{
    const float bx0 = fminf(x0, fminf(x1, x2)), by0 = fminf(y0, fminf(y1, y2));
    const float bx1 = fmaxf(x0, fmaxf(x1, x2)), by1 = fmaxf(y0, fmaxf(y1, y2));
    if (outside_clip(d, bx0, by0, bx1, by1))
        return;
    struct draw2d_vertex *v = reserve(d, 3, FILL_SOLID, bx0, by0, bx1, by1);
    v[0] = vertex(x0, y0, 0, 0, 0, color, color);
    v[1] = vertex(x1, y1, 0, 0, 0, color, color);
    v[2] = vertex(x2, y2, 0, 0, 0, color, color);
}

void draw2d_set_atlas(draw2d *d, unsigned texture)
{
    assert(d);
    d->atlas = texture;
}

void draw2d_glyph(draw2d *d, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                  float v1, rgba8 color)
{
    append_quad(d, FILL_GLYPH, x0, y0, x1, y1, u0, v0, u1, v1, 0, color, color);
}

void draw2d_flush(draw2d *d)
{
    assert(d && d->programs[FILL_SOLID]);
    glViewport(0, 0, d->width, d->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    /* The shaders output premultiplied colour: this is straight-alpha "over"
     * for colour, and the destination's alpha accumulates coverage (stays 1
     * over an opaque background). */
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    if (d->count == 0)
        goto done;

    /* batches in order, each one's vertices in append order */
    int first = 0;
    for (int i = 0; i < d->batch_count; i++) {
        d->batches[i].first = first;
        first += d->batches[i].count;
        d->batches[i].count = 0;
    }
    for (int i = 0; i < d->run_count; i++) {
        const struct draw2d_run *run = &d->runs[i];
        struct draw2d_batch *b = &d->batches[run->batch];
        memcpy(&d->sorted[b->first + b->count], &d->vertices[run->first],
               (size_t)run->count * sizeof *d->sorted);
        b->count += run->count;
    }

    glBindBuffer(GL_ARRAY_BUFFER, d->vbo);
    if (d->count > d->gpu_capacity) {
        /* Grow the GL buffer to the CPU array's capacity: it then stays put. */
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)d->capacity * sizeof *d->vertices, NULL,
                     GL_STREAM_DRAW);
        d->gpu_capacity = d->capacity;
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)d->count * sizeof *d->sorted, d->sorted);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    glBindVertexArray(d->vao);
    glActiveTexture(GL_TEXTURE0);
    glEnable(GL_SCISSOR_TEST);
    bool viewport_set[FILL_COUNT] = {false};
    int fill = -1;
    for (int i = 0; i < d->batch_count; i++) {
        const struct draw2d_batch *b = &d->batches[i];
        if (b->scissor[2] <= 0 || b->scissor[3] <= 0 || b->count == 0)
            continue;
        if (b->fill != fill) {
            fill = b->fill;
            glUseProgram(d->programs[fill]);
            if (!viewport_set[fill]) {
                glUniform2f(d->loc_viewport[fill], (float)d->width, (float)d->height);
                if (d->loc_anchor[fill] >= 0)
                    glUniform2f(d->loc_anchor[fill], d->anchor[0], d->anchor[1]);
                viewport_set[fill] = true;
            }
        }
        if (fill == FILL_GLYPH || fill == FILL_IMAGE)
            glBindTexture(GL_TEXTURE_2D, b->atlas);
        glScissor(b->scissor[0], b->scissor[1], b->scissor[2], b->scissor[3]);
        glDrawArrays(GL_TRIANGLES, b->first, b->count);
        d->draw_calls++;
    }
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);

done:
    d->count = 0;
    d->batch_count = 0;
    d->run_count = 0;
}

/* Storage for the bound texture: RGBA8, w x h, one level, fetched texel for
 * pixel (complete, so that glCopyImageSubData accepts it). */
static void texture_storage(int w, int h)
{
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
}

void draw2d_keep(draw2d *d, draw2d_pixels *px, int x, int y, int w, int h)
{
    assert(d && px && w > 0 && h > 0 && x >= 0 && y >= 0 && x + w <= d->width &&
           y + h <= d->height);
    draw2d_flush(d);
    if (!px->texture)
        glGenTextures(1, &px->texture);
    glBindTexture(GL_TEXTURE_2D, px->texture);
    if (px->tex_w != w || px->tex_h != h)
        texture_storage(w, h);
    /* GL's rows go up: the rectangle's bottom row is its first */
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, x, d->height - (y + h), w, h);
    glBindTexture(GL_TEXTURE_2D, 0);
    *px = (draw2d_pixels){px->texture, x, y, w, h, w, h};
}

void draw2d_pixels_upload(draw2d_pixels *px, int x, int y, int w, int h, const uint8_t *pixels,
                          int row_pixels, bool bgra)
{
    assert(px && pixels && w > 0 && h > 0 && x >= 0 && y >= 0 && row_pixels >= w);
    draw2d_pixels_reserve(px, w, h);
    glBindTexture(GL_TEXTURE_2D, px->texture);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, row_pixels);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, bgra ? GL_BGRA : GL_RGBA, GL_UNSIGNED_BYTE,
                    pixels);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    px->x = x, px->y = y, px->w = w, px->h = h;
}

void draw2d_pixels_reserve(draw2d_pixels *px, int w, int h)
{
    assert(px && w > 0 && h > 0);
    if (px->texture && px->tex_w >= w && px->tex_h >= h)
        return;
    if (!px->texture)
        glGenTextures(1, &px->texture);
    glBindTexture(GL_TEXTURE_2D, px->texture);
    px->tex_w = w > px->tex_w ? w : px->tex_w;
    px->tex_h = h > px->tex_h ? h : px->tex_h;
    texture_storage(px->tex_w, px->tex_h);
    glBindTexture(GL_TEXTURE_2D, 0);
}

bool draw2d_target_exact(const draw2d *d)
{
    (void)d;
    GLint fbo = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    return fbo != 0;
}

/* The bound draw framebuffer's colour image, when it is one glCopyImageSubData
 * can write (a renderbuffer or a 2D texture of an FBO; never a window's). */
static bool copy_target(GLuint *name, GLenum *target)
{
    if (!GLAD_GL_ARB_copy_image)
        return false;
    GLint fbo = 0, type = GL_NONE, object = 0, level = -1;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (fbo == 0)
        return false;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &object);
    if (type == GL_TEXTURE)
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                              GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    if (type == GL_RENDERBUFFER) {
        *target = GL_RENDERBUFFER;
    } else if (type == GL_TEXTURE && level == 0) {
        GLint layered = 0;
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                              GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE,
                                              &layered);
        if (layered != 0)
            return false;
        *target = GL_TEXTURE_2D;
    } else {
        return false;
    }
    *name = (GLuint)object;
    return object != 0;
}

void draw2d_put(draw2d *d, const draw2d_pixels *px)
{
    assert(d && px && px->texture);
    draw2d_put_part(d, px, px->x, px->y, px->w, px->h);
}

void draw2d_put_part(draw2d *d, const draw2d_pixels *px, int x, int y, int w, int h)
{
    assert(d && px && px->texture && w > 0 && h > 0 && x >= px->x && y >= px->y &&
           x + w <= px->x + px->w && y + h <= px->y + px->h);
    const int gl_y = d->height - (px->y + px->h);
    const int part_gl_y = d->height - (y + h);
    GLuint name = 0;
    GLenum target = GL_NONE;
    if (!d->put_as_quad && copy_target(&name, &target)) {
        /* A copy is a memcpy on llvmpipe, where the quad below samples every
         * texel through the shader: about 4 ms against 0.5 for a 1080p
         * timeline. What was appended before goes first, as it would. */
        draw2d_flush(d);
        glCopyImageSubData(px->texture, GL_TEXTURE_2D, 0, x - px->x, part_gl_y - gl_y, 0, name,
                           target, 0, x, part_gl_y, 0, w, h, 1);
        /* covered as a quad would have: the 3D view's smoothing keeps them */
        note_covered(d, (pixel_box){x, y, x + w - 1, y + h - 1});
        return;
    }
    d->image = px->texture;
    /* every vertex carries the rectangle's GL origin: the shader fetches
     * texel (pixel - origin), one for one */
    const float ox = (float)px->x, oy = (float)gl_y;
    const rgba8 white = {255, 255, 255, 255};
    append_quad(d, FILL_IMAGE, (float)x, (float)y, (float)(x + w), (float)(y + h), ox, oy, ox, oy,
                0, white, white);
}

void draw2d_pixels_deinit(draw2d_pixels *px)
{
    if (px && px->texture)
        glDeleteTextures(1, &px->texture);
    if (px)
        *px = (draw2d_pixels){0};
}
