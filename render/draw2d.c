/* draw2d.c - batched 2D primitives in one vertex buffer, one shader
 * (shaders/draw2d.vert, .frag). See draw2d.h.
 *
 * Every primitive becomes triangles of struct draw2d_vertex appended to one
 * CPU array; the shader picks solid, pattern, glyph or line shading from a
 * per-vertex mode, so a whole frame is one upload and one draw call per
 * segment. A segment is a run of vertices sharing a clip rectangle (applied
 * with the scissor test, exact to the pixel) and an atlas texture; segments
 * are drawn in append order, so later primitives land over earlier ones.
 */
#include "draw2d.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gl_shader.h"
#include "shaders_embedded.h"

/* Shading modes; the same numbers as MODE_* in shaders/draw2d.frag, and the
 * patterns keep their draw2d_pattern values. */
enum {
    MODE_SOLID = DRAW2D_SOLID,
    MODE_HATCH = DRAW2D_HATCH,
    MODE_DOTS = DRAW2D_DOTS,
    MODE_CROSSHATCH = DRAW2D_CROSSHATCH,
    MODE_GLYPH,
    MODE_LINE,
};

enum {
    INITIAL_VERTICES = 4096, /* 682 rectangles: a HUD and a small timeline without growing */
    INITIAL_SEGMENTS = 16,
};

static const float DEFAULT_PERIOD = 6.0f;
/* Lines are quads widened by this many pixels on each side for the
 * antialiasing ramp in the fragment shader. */
static const float LINE_FRINGE = 1.0f;

/* 32 bytes, the layout of the attributes in draw2d_init. */
struct draw2d_vertex {
    float x, y;   /* pixels, origin top-left */
    float u, v;   /* glyph: atlas 0..1; line: u = signed distance across the line, pixels */
    float param;  /* pattern: period, pixels; line: half thickness, pixels */
    rgba8 color;  /* fill, straight alpha */
    rgba8 ink;    /* pattern colour */
    uint8_t mode; /* MODE_* */
    uint8_t pad[3];
};

struct draw2d_segment {
    int first;      /* first vertex */
    int scissor[4]; /* x, y, w, h in GL window coordinates (y up) */
    unsigned atlas; /* texture bound to unit 0 */
};

bool draw2d_init(draw2d *d, ppf_error *err)
{
    assert(d);
    *d = (draw2d){0};
    if (!gl_program_build(&d->program, "draw2d", ppf_shader_draw2d_vert, ppf_shader_draw2d_frag,
                          err))
        goto fail;
    d->loc_viewport = glGetUniformLocation(d->program, "u_viewport");
    d->loc_atlas = glGetUniformLocation(d->program, "u_atlas");

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
    glEnableVertexAttribArray(5);
    glVertexAttribIPointer(5, 1, GL_UNSIGNED_BYTE, stride,
                           (void *)offsetof(struct draw2d_vertex, mode));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    GLenum gl_err = glGetError();
    if (gl_err != GL_NO_ERROR) {
        ppf_fail(err, "draw2d: creating the vertex buffer failed (GL error 0x%04x)", gl_err);
        goto fail;
    }

    d->capacity = INITIAL_VERTICES;
    d->vertices = ppf_malloc((size_t)d->capacity * sizeof *d->vertices);
    d->segment_capacity = INITIAL_SEGMENTS;
    d->segments = ppf_malloc((size_t)d->segment_capacity * sizeof *d->segments);
    d->state_changed = true;
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
    gl_program_delete(&d->program);
    free(d->segments);
    free(d->vertices);
    *d = (draw2d){0};
}

void draw2d_begin(draw2d *d, int fb_width, int fb_height)
{
    assert(d && d->program && fb_width > 0 && fb_height > 0);
    d->width = fb_width;
    d->height = fb_height;
    d->count = 0;
    d->segment_count = 0;
    draw2d_clip_off(d);
}

/* Rounds the clip rectangle to the pixels whose centres it contains, as a
 * GL scissor box (y up), clamped to the framebuffer. */
static void clip_to_scissor(const draw2d *d, int out[4])
{
    int x0 = (int)lroundf(fmaxf(d->clip[0], 0.0f));
    int y0 = (int)lroundf(fmaxf(d->clip[1], 0.0f));
    int x1 = (int)lroundf(fminf(d->clip[2], (float)d->width));
    int y1 = (int)lroundf(fminf(d->clip[3], (float)d->height));
    if (x1 < x0)
        x1 = x0;
    if (y1 < y0)
        y1 = y0;
    out[0] = x0;
    out[1] = d->height - y1;
    out[2] = x1 - x0;
    out[3] = y1 - y0;
}

/* Makes room for n more vertices, under the current clip and atlas. The
 * arrays double when full and keep their size, so a steady frame allocates
 * nothing. */
static struct draw2d_vertex *reserve(draw2d *d, int n)
{
    assert(d->width > 0 && "draw2d_begin first");
    if (d->state_changed) {
        /* An empty last segment is reused rather than left as a zero-length draw. */
        if (d->segment_count == 0 || d->segments[d->segment_count - 1].first < d->count) {
            if (d->segment_count == d->segment_capacity) {
                d->segment_capacity *= 2;
                d->segments =
                    ppf_realloc(d->segments, (size_t)d->segment_capacity * sizeof *d->segments);
            }
            d->segment_count++;
        }
        struct draw2d_segment *seg = &d->segments[d->segment_count - 1];
        seg->first = d->count;
        seg->atlas = d->atlas;
        clip_to_scissor(d, seg->scissor);
        d->state_changed = false;
    }
    if (d->count + n > d->capacity) {
        while (d->count + n > d->capacity)
            d->capacity *= 2;
        d->vertices = ppf_realloc(d->vertices, (size_t)d->capacity * sizeof *d->vertices);
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
                                   rgba8 ink, uint8_t mode)
{
    return (struct draw2d_vertex){
        .x = x,
        .y = y,
        .u = u,
        .v = v,
        .param = param,
        .color = color,
        .ink = ink,
        .mode = mode,
    };
}

/* Two triangles for the axis-aligned box (x0, y0)-(x1, y1), uv likewise. */
static void append_quad(draw2d *d, float x0, float y0, float x1, float y1, float u0, float v0,
                        float u1, float v1, float param, rgba8 color, rgba8 ink, uint8_t mode)
{
    if (x1 <= x0 || y1 <= y0 || outside_clip(d, x0, y0, x1, y1))
        return;
    struct draw2d_vertex *v = reserve(d, 6);
    v[0] = vertex(x0, y0, u0, v0, param, color, ink, mode);
    v[1] = vertex(x1, y0, u1, v0, param, color, ink, mode);
    v[2] = vertex(x1, y1, u1, v1, param, color, ink, mode);
    v[3] = v[0];
    v[4] = v[2];
    v[5] = vertex(x0, y1, u0, v1, param, color, ink, mode);
}

void draw2d_clip(draw2d *d, float x, float y, float w, float h)
{
    assert(d);
    d->clip[0] = x;
    d->clip[1] = y;
    d->clip[2] = x + (w > 0 ? w : 0);
    d->clip[3] = y + (h > 0 ? h : 0);
    d->state_changed = true;
}

void draw2d_clip_off(draw2d *d)
{
    assert(d);
    draw2d_clip(d, 0, 0, (float)d->width, (float)d->height);
}

void draw2d_rect(draw2d *d, float x, float y, float w, float h, rgba8 color)
{
    append_quad(d, x, y, x + w, y + h, 0, 0, 0, 0, 0, color, color, MODE_SOLID);
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
    append_quad(d, x, y, x + w, y + h, 0, 0, 0, 0, period, fill, ink, (uint8_t)pattern);
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
    if (outside_clip(d, fminf(x0, x1) - e, fminf(y0, y1) - e, fmaxf(x0, x1) + e, fmaxf(y0, y1) + e))
        return;
    struct draw2d_vertex *v = reserve(d, 6);
    v[0] = vertex(x0 + nx, y0 + ny, e, 0, half, color, color, MODE_LINE);
    v[1] = vertex(x1 + nx, y1 + ny, e, 0, half, color, color, MODE_LINE);
    v[2] = vertex(x1 - nx, y1 - ny, -e, 0, half, color, color, MODE_LINE);
    v[3] = v[0];
    v[4] = v[2];
    v[5] = vertex(x0 - nx, y0 - ny, -e, 0, half, color, color, MODE_LINE);
}

void draw2d_triangle(draw2d *d, float x0, float y0, float x1, float y1, float x2, float y2,
                     rgba8 color)
{
    if (outside_clip(d, fminf(x0, fminf(x1, x2)), fminf(y0, fminf(y1, y2)),
                     fmaxf(x0, fmaxf(x1, x2)), fmaxf(y0, fmaxf(y1, y2))))
        return;
    struct draw2d_vertex *v = reserve(d, 3);
    v[0] = vertex(x0, y0, 0, 0, 0, color, color, MODE_SOLID);
    v[1] = vertex(x1, y1, 0, 0, 0, color, color, MODE_SOLID);
    v[2] = vertex(x2, y2, 0, 0, 0, color, color, MODE_SOLID);
}

void draw2d_set_atlas(draw2d *d, unsigned texture)
{
    assert(d);
    if (texture != d->atlas) {
        d->atlas = texture;
        d->state_changed = true;
    }
}

void draw2d_glyph(draw2d *d, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                  float v1, rgba8 color)
{
    append_quad(d, x0, y0, x1, y1, u0, v0, u1, v1, 0, color, color, MODE_GLYPH);
}

void draw2d_flush(draw2d *d)
{
    assert(d && d->program);
    glViewport(0, 0, d->width, d->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    /* Straight alpha over whatever is there; the destination's alpha
     * accumulates coverage (stays 1 over an opaque background). */
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    if (d->count == 0)
        goto done;

    glBindBuffer(GL_ARRAY_BUFFER, d->vbo);
    if (d->count > d->gpu_capacity) {
        /* Grow the GL buffer to the CPU array's capacity: it then stays put. */
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)d->capacity * sizeof *d->vertices, NULL,
                     GL_STREAM_DRAW);
        d->gpu_capacity = d->capacity;
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)d->count * sizeof *d->vertices, d->vertices);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    glUseProgram(d->program);
    glUniform2f(d->loc_viewport, (float)d->width, (float)d->height);
    glUniform1i(d->loc_atlas, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(d->vao);
    glEnable(GL_SCISSOR_TEST);
    for (int i = 0; i < d->segment_count; i++) {
        const struct draw2d_segment *seg = &d->segments[i];
        int end = i + 1 < d->segment_count ? d->segments[i + 1].first : d->count;
        if (end <= seg->first || seg->scissor[2] <= 0 || seg->scissor[3] <= 0)
            continue;
        glScissor(seg->scissor[0], seg->scissor[1], seg->scissor[2], seg->scissor[3]);
        glBindTexture(GL_TEXTURE_2D, seg->atlas);
        glDrawArrays(GL_TRIANGLES, seg->first, end - seg->first);
    }
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);

done:
    d->count = 0;
    d->segment_count = 0;
    d->state_changed = true;
}
